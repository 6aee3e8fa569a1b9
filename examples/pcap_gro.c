/*
 * pcap_gro.c - GRO on a capture: pcap in, pcap out.  The smallest complete
 * program with the API (the pcap reader/writer is the longer half).
 *
 *   usage: pcap_gro IN.pcap OUT.pcap      (classic pcap, Ethernet, host byte order)
 *
 * Frames go to GRO in polls of 64, with the capture's timestamps as the
 * clock; every delivered packet is written as one frame with a full TCP
 * checksum, stamped with its first segment's time.
 */
#include <ofl/gro.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pcap_hdr { uint32_t magic; uint16_t major, minor; int32_t zone; uint32_t sigfigs, snaplen, linktype; };
struct rec_hdr { uint32_t sec, frac, caplen, len; };

struct out { FILE *f; uint32_t per_sec; unsigned long pkts, merged; int err; };

static void deliver(void *user, const struct ofl_gro_out *pkts, unsigned n)
{
	static uint8_t buf[OFL_GRO_MAX_SIZE_LIMIT + 256];
	struct out *o = user;
	for (unsigned i = 0; i < n; i++) {
		int len = ofl_gro_linearize(&pkts[i], buf, sizeof buf, OFL_CSUM_MODE_FULL);
		struct rec_hdr r = {.sec = (uint32_t)(pkts[i].first_ns / 1000000000u),
		                    .frac = (uint32_t)(pkts[i].first_ns % 1000000000u / (1000000000u / o->per_sec)),
		                    .caplen = (uint32_t)len, .len = (uint32_t)len};
		if (len < 0 || fwrite(&r, sizeof r, 1, o->f) != 1 || fwrite(buf, (size_t)len, 1, o->f) != 1)
			o->err = 1;
		o->pkts++;
		o->merged += pkts[i].seg_count > 1;
	}
}

int main(int argc, char **argv)
{
	struct pcap_hdr ph;
	struct out o = {.per_sec = 1000000};
	struct ofl_gro_config cfg;
	struct ofl_gro *gro;
	static uint8_t frames[64][65536 + 256];
	unsigned long in = 0;
	FILE *f = argc == 3 ? fopen(argv[1], "rb") : NULL;
	if (!f || fread(&ph, sizeof ph, 1, f) != 1 || ph.linktype != 1 ||
	    (ph.magic != 0xa1b2c3d4 && ph.magic != 0xa1b23c4d)) {
		fprintf(stderr, "usage: pcap_gro IN.pcap OUT.pcap (classic Ethernet pcap, host byte order)\n");
		return 2;
	}
	if (ph.magic == 0xa1b23c4d)
		o.per_sec = 1000000000; /* nanosecond timestamps */
	if (!(o.f = fopen(argv[2], "wb")) || fwrite(&ph, sizeof ph, 1, o.f) != 1)
		return 1;

	ofl_gro_config_default(&cfg);
	cfg.deliver = deliver;
	cfg.user = &o;
	if (ofl_gro_create(&cfg, &gro) != 0)
		return 1;
	for (int more = 1; more;) { /* one poll: up to 64 frames, then poll_end */
		unsigned k = 0;
		uint64_t now = 0;
		struct rec_hdr r;
		while (k < 64 && (more = fread(&r, sizeof r, 1, f) == 1)) {
			if (r.caplen > sizeof frames[k] || fread(frames[k], r.caplen, 1, f) != 1)
				return 1;
			now = (uint64_t)r.sec * 1000000000u + (uint64_t)r.frac * (1000000000u / o.per_sec);
			struct ofl_buf b = {.data = frames[k], .len = r.caplen};
			struct ofl_pkt p = {.bufs = &b, .nbufs = 1, .cookie = frames[k]};
			if (ofl_gro_receive(gro, &p, now) < 0)
				return 1;
			k++, in++;
		}
		if (ofl_gro_poll_end(gro, k, now, NULL) != 0) /* timeout 0: all out, buffers free */
			return 1;
	}
	ofl_gro_destroy(gro);
	fclose(f);
	if (fclose(o.f) != 0 || o.err)
		return 1;
	printf("%lu frames in, %lu packets out, %lu of them merged\n", in, o.pkts, o.merged);
	return 0;
}
