/*
 * fzseed.c - seed inputs for the fuzz targets, in each target's input
 * format (see the top of fuzz_gro.c, fuzz_gso.c, fuzz_dsa.c).
 *
 *   fzseed hand OUTDIR           small hand-made seeds (committed under
 *                                tests/fuzz/seeds/<target>/)
 *   fzseed cut DIR OUTDIR        cut frames out of every capture below DIR
 *                                (the shared captures in $OFL_CORPORA, the
 *                                test vectors in tests/fixtures) into
 *                                OUTDIR/<target>/ at run time; nothing from
 *                                the captures is committed
 *
 * Both write OUTDIR/gro, OUTDIR/gso and OUTDIR/dsa (the DSA seeds only when
 * the library has DSA, the GSO ones only when it has GSO).  Captures are
 * read through libpcap (capture.h of offload-replay).
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "growbuf.h"
#include "gen.h"
#include "capture.h"

#ifdef FZSEED_DSA
#include <ofl/dsa.h>
#endif

struct out {
	uint8_t *b;
	size_t n, cap;
};

static void put(struct out *o, const void *d, size_t n) { growbuf_put(&o->b, &o->n, &o->cap, d, n); }
static void u8(struct out *o, unsigned v) { uint8_t b = (uint8_t)v; put(o, &b, 1); }
static void u16(struct out *o, unsigned v) { u8(o, v >> 8); u8(o, v); }
static void u32(struct out *o, uint32_t v) { u16(o, v >> 16); u16(o, v & 0xffff); }

static unsigned nwritten;

static void save(const char *dir, const char *sub, const char *name, struct out *o)
{
	char path[4096];
	FILE *f;
	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	mkdir(path, 0777);
	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	f = fopen(path, "wb");
	if (!f || fwrite(o->b, 1, o->n, f) != o->n) {
		perror(path);
		exit(1);
	}
	fclose(f);
	o->n = 0;
	nwritten++;
}

/* ---- GRO: config header + ops (fuzz_gro.c) ---- */

/* Save a GRO seed twice: as made, and in burst mode (fuzz_gro.c: frames
 * through ofl_gro_receive_burst, compared with single frames), the burst
 * size picked by the seed's length. */
static void save_gro(const char *dir, const char *name, struct out *o)
{
	struct out b = {0};
	char bname[512];
	if (!o->n) { /* nothing to vary */
		save(dir, "gro", name, o);
		return;
	}
	put(&b, o->b, o->n);
	b.b[0] = (uint8_t)(b.b[0] | 0x20 | (o->n & 3u) << 6);
	snprintf(bname, sizeof(bname), "%s-burst", name);
	save(dir, "gro", name, o);
	save(dir, "gro", bname, &b);
	free(b.b);
}

static void gro_hdr(struct out *o, unsigned flows, unsigned segs, unsigned bufs, unsigned batch,
                    unsigned timeout_op, unsigned held)
{
	u8(o, flows - 1);
	u8(o, segs - 1);
	u8(o, bufs - 1);
	u8(o, batch - 1);
	u8(o, timeout_op);   /* odd: no timeout; even: (b >> 1) us */
	u16(o, 0x8000);      /* max_size 65535 */
	u8(o, held);         /* 255: 4 MiB */
	u8(o, 0);            /* no DSA format */
	u8(o, 0);
}

/* a gen op: flow, l3, vlans; payload kind; flags; options */
static void gro_gen(struct out *o, unsigned a, unsigned b, unsigned c, unsigned d, unsigned opt,
                    unsigned csm)
{
	unsigned i;
	u8(o, 3);
	u8(o, a);
	u8(o, b);
	u8(o, c);
	u8(o, d);
	if ((b & 7) == 4 || (b & 7) == 5)
		u16(o, 1000);      /* payload length */
	if (((b >> 3) & 7) == 5)
		u16(o, 100);       /* sequence gap */
	else if (((b >> 3) & 7) == 6)
		u32(o, 12345);     /* any sequence number */
	u8(o, opt);
	u8(o, csm);
	if (!(opt & 0x80))
		for (i = 0; i < (opt & 7u); i++)
			u16(o, 30 * (i + 1)); /* buffer cut points */
}

static void gro_raw(struct out *o, const uint8_t *f, size_t len, int fix, unsigned opt, unsigned csm)
{
	unsigned i;
	if (len > 2047)
		len = 2047;
	u8(o, fix ? 0x10 : 0);
	u16(o, (unsigned)len);
	put(o, f, len);
	u8(o, opt);
	u8(o, csm);
	if (!(opt & 0x80))
		for (i = 0; i < (opt & 7u); i++)
			u16(o, (unsigned)(len * (i + 1) / ((opt & 7u) + 1)));
}

static void hand_gro(const char *dir)
{
	struct out o = {0};
	unsigned i;
	uint8_t fr[2100];
	struct gen_tcp g;
	/* 1: two IPv4 flows interleaved, full-size segments, then a poll end */
	gro_hdr(&o, 8, 64, 17, 8, 1, 255);
	for (i = 0; i < 24; i++)
		gro_gen(&o, i & 1, 0, 0, 4, 0, 1);
	u8(&o, 7);
	u8(&o, 1);
	save_gro(dir, "bulk-v4-2flows", &o);
	/* UDP GRO on (bit 0x40 of configuration byte 8): datagrams of an IPv4
	 * and an IPv6 flow, NIC and software checksums, one with checksum 0,
	 * one with a UDP length one short, one to port 53 (never merged) */
	gro_hdr(&o, 8, 64, 17, 8, 1, 255);
	o.b[8] |= 0x40;
	for (i = 0; i < 24; i++) {
		unsigned b = i == 7 ? 0x40u : i == 11 || i == 15 ? 0x80u : 0u;
		unsigned c = i == 11 ? 1u : i == 15 ? 2u : 0u;
		gro_gen(&o, 0x40 | (i & 1 ? 4u : 0u), b, c, 4, 0, i & 2 ? 0u : 1u);
	}
	u8(&o, 7);
	u8(&o, 1);
	save_gro(dir, "udp-v4-v6", &o);
	/* 2: IPv6 with timestamps, buffers split in 3, software checksums */
	gro_hdr(&o, 8, 64, 17, 4, 1, 255);
	for (i = 0; i < 16; i++)
		gro_gen(&o, 4 | (i & 3), 0, 0, 1 | 2, 2, 0);
	save_gro(dir, "bulk-v6-ts-split", &o);
	/* 3: flags: PSH, FIN, a short segment, retransmits and gaps */
	gro_hdr(&o, 4, 16, 8, 8, 1, 255);
	for (i = 0; i < 20; i++) {
		unsigned b = i % 5 == 3 ? 4u << 3 : i % 7 == 6 ? 5u << 3 : 0;
		unsigned c = i % 6 == 5 ? 0x80 | 0x10 | 0x08 : i == 13 ? 0x80 | 0x10 | 0x01 : 0;
		gro_gen(&o, i & 1, b, c, 4, 0, 1);
	}
	save_gro(dir, "flags-retrans", &o);
	/* 4: flush timeout, clock steps, poll ends with work, flush_older */
	gro_hdr(&o, 4, 32, 4, 8, 200, 255);
	for (i = 0; i < 12; i++) {
		gro_gen(&o, i & 3, 0, 0, 4, 0, 1);
		u8(&o, 8);
		u16(&o, 30);
		if (i % 4 == 3) {
			u8(&o, 7);
			u8(&o, 1);
		}
	}
	u8(&o, 9);
	u16(&o, 1);
	save_gro(dir, "timer", &o);
	/* 5: VLANs (1, 2 and the refused 3), IP options, IPv6 dest options, bad csums */
	gro_hdr(&o, 8, 64, 17, 8, 1, 255);
	for (i = 0; i < 16; i++)
		gro_gen(&o, (i & 1) | ((i % 4) << 3), 0, i % 3 == 2 ? 0x08 | 0x10 : 0,
		        4 | (i % 5 == 4 ? 0xc0 : 0), 0, 1);
	save_gro(dir, "vlan-options", &o);
	/* 6: raw frames with checksums fixed up by the target, one byte per buffer */
	gro_hdr(&o, 8, 64, 17, 8, 1, 255);
	gen_tcp_init(&g, 4);
	g.payload_len = 500;
	for (i = 0; i < 6; i++) {
		size_t n;
		g.seq = 100 + i * 500;
		n = gen_tcp_frame(&g, fr, sizeof(fr));
		gro_raw(&o, fr, n, 1, i & 1 ? 0x80 : 3, 0);
	}
	save_gro(dir, "raw-fixed", &o);
	/* 7: small table (2 flows, 1 KiB held): table-full flushes */
	gro_hdr(&o, 2, 8, 17, 2, 1, 1);
	for (i = 0; i < 24; i++)
		gro_gen(&o, i & 3, 7 | (20u << 3), 0, 4, 0, 1);
	save_gro(dir, "table-full", &o);
	/* 8: API misuse and re-entry from the deliver callback */
	gro_hdr(&o, 4, 8, 2, 1, 1, 255);
	for (i = 0; i < 5; i++) {
		u8(&o, 11);
		u8(&o, i);
	}
	u8(&o, 10); /* re-enter on the next delivery */
	gro_gen(&o, 0, 0, 0, 4, 0, 1);
	gro_gen(&o, 0, 6, 0, 4, 0, 1);
	gro_gen(&o, 0, 0, 0, 4, 5, 1); /* 5 extra cut points > max_bufs 2: refused */
	save_gro(dir, "misuse", &o);
	/* 9: CHECKSUM_COMPLETE, hardware VLAN, RX hash */
	gro_hdr(&o, 8, 64, 17, 8, 1, 255);
	for (i = 0; i < 10; i++)
		gro_gen(&o, i & 1, 0, 0, 4, 0, 2 | 0x20 | 0x80);
	save_gro(dir, "csum-complete-hwvlan", &o);
#ifdef FZSEED_DSA
	/* 10: GRO through DSA tags, untagged and tag-keeping delivery */
	for (i = 0; i < ofl_dsa_count(); i += 3) {
		char name[64];
		unsigned k;
		gro_hdr(&o, 8, 64, 17, 8, 1, 255);
		o.b[o.n - 2] = (uint8_t)(0x80 | (i & 1));
		o.b[o.n - 1] = (uint8_t)i;
		for (k = 0; k < 8; k++)
			gro_gen(&o, k & 1, 0, 0, 4, k & 2 ? 2 : 0, 1);
		snprintf(name, sizeof(name), "dsa-%s", ofl_dsa_at(i)->name);
		save_gro(dir, name, &o);
	}
#endif
	free(o.b);
}

/* ---- GSO (fuzz_gso.c) ---- */

static size_t udp_frame(int l3, uint8_t *f, size_t plen)
{
	struct gen_tcp g;
	size_t n, l3off = 14, l4, i;
	gen_tcp_init(&g, l3);
	g.payload_len = (uint32_t)plen + 12; /* TCP header 20 = UDP 8 + 12 */
	n = gen_tcp_frame(&g, f, 70000);
	l4 = l3off + (l3 == 4 ? 20 : 40);
	if (l3 == 4) {
		f[l3off + 9] = 17;
		f[l3off + 10] = f[l3off + 11] = 0;
		{
			uint16_t c = (uint16_t)~gen_csum_fold(f + l3off, 20, 0);
			f[l3off + 10] = (uint8_t)(c >> 8);
			f[l3off + 11] = (uint8_t)c;
		}
	} else {
		f[l3off + 6] = 17;
	}
	f[l4 + 4] = (uint8_t)((n - l4) >> 8);
	f[l4 + 5] = (uint8_t)(n - l4);
	f[l4 + 6] = f[l4 + 7] = 0; /* no UDP checksum in the input */
	for (i = l4 + 8; i < n; i++)
		f[i] = (uint8_t)i;
	return n;
}

static void gso_seed(struct out *o, const char *dir, const char *name, unsigned type, unsigned csum,
                     unsigned segsz, unsigned kind, unsigned nslots, unsigned slotsz, unsigned nsplit,
                     const uint8_t *f, size_t len, const uint8_t *script, size_t nscript)
{
	unsigned i;
	u8(o, type | csum << 2);
	u8(o, 5);                        /* seg_size = 1 + u16 % 2000 */
	u16(o, segsz - 1);
	u8(o, kind | (nslots - 1) << 2);
	u8(o, (slotsz - 64) / 2);
	u8(o, nsplit);
	u8(o, 0);                        /* no virtio_net_hdr */
	for (i = 0; i + 1 < nsplit; i++)
		u16(o, (unsigned)(len * (i + 1) / nsplit));
	put(o, f, len);
	(void)script;
	(void)nscript;
	save(dir, "gso", name, o);
}

static void hand_gso(const char *dir)
{
	static uint8_t f[70000];
	struct out o = {0};
	struct gen_tcp g;
	size_t n;
	gen_tcp_init(&g, 4);
	g.payload_len = 4000;
	n = gen_tcp_frame(&g, f, sizeof(f));
	gso_seed(&o, dir, "tcp4-block", 1, 0, 1448, 0, 4, 128, 1, f, n, NULL, 0);
	gso_seed(&o, dir, "tcp4-array-split", 1, 1, 1000, 2, 2, 96, 5, f, n, NULL, 0);
	gen_tcp_init(&g, 6);
	g.payload_len = 3000;
	gen_opt_ts(&g, 1, 2);
	g.flags = GEN_ACK | GEN_PSH | GEN_CWR;
	n = gen_tcp_frame(&g, f, sizeof(f));
	gso_seed(&o, dir, "tcp6-freelist", 0, 0, 1220, 1, 3, 160, 2, f, n, NULL, 0);
	n = udp_frame(4, f, 3000);
	gso_seed(&o, dir, "udp4-l4", 2, 0, 1400, 0, 2, 128, 1, f, n, NULL, 0);
	gso_seed(&o, dir, "udp4-frag", 3, 0, 1480, 0, 2, 128, 3, f, n, NULL, 0);
	n = udp_frame(6, f, 2500);
	gso_seed(&o, dir, "udp6-frag", 3, 0, 1232, 2, 4, 200, 1, f, n, NULL, 0);
	gso_seed(&o, dir, "udp6-l4", 2, 1, 1000, 1, 1, 128, 2, f, n, NULL, 0);
	free(o.b);
}

/* ---- DSA (fuzz_dsa.c) ---- */

static void dsa_seed(struct out *o, unsigned idx, unsigned dir, unsigned port, const uint8_t *f,
                     size_t len, unsigned nsplit)
{
	unsigned i;
	u8(o, idx);
	u8(o, dir);
	u8(o, 0);            /* num_ports */
	u16(o, 0x0001);      /* valid: port */
	u16(o, 0);           /* flags */
	u32(o, 0);           /* port_mask */
	u8(o, 0);            /* switch */
	u8(o, port);
	u8(o, 0);            /* prio */
	u8(o, 0);            /* cmd */
	u8(o, 0);            /* code */
	u16(o, 0);           /* vlan */
	u8(o, nsplit);
	for (i = 0; i < nsplit; i++)
		u16(o, (unsigned)(len * (i + 1) / (nsplit + 1)));
	put(o, f, len);
}

static void hand_dsa(const char *dir)
{
#ifdef FZSEED_DSA
	struct out o = {0};
	size_t i, n = ofl_dsa_count();
	uint8_t un[128], buf[512];
	char name[96];
	for (i = 0; i < 60; i++)
		un[i] = (uint8_t)(i * 7 + 1);
	un[12] = 0x08;
	un[13] = 0x00;
	for (i = 0; i < n; i++) {
		const struct ofl_dsa_ops *ops = ofl_dsa_at(i);
		int d;
		for (d = 0; d < 2; d++) {
			struct ofl_dsa_meta m;
			uint32_t off = 64, len = 60;
			memset(&m, 0, sizeof(m));
			m.valid = OFL_DSA_M_PORT;
			m.port = 1;
			memset(buf, 0, sizeof(buf));
			memcpy(buf + off, un, len);
			if (ofl_dsa_encode(ops, NULL, d, &m, buf, sizeof(buf), &off, &len) != 0) {
				/* a format without ports: the untagged frame is its seed */
				off = 64;
				len = 60;
			}
			dsa_seed(&o, (unsigned)i, (unsigned)d, 1, buf + off, len, (unsigned)(i % 3));
			snprintf(name, sizeof(name), "%s-%s", ops->name, d ? "tx" : "rx");
			save(dir, "dsa", name, &o);
		}
	}
	free(o.b);
#else
	(void)dir;
	(void)dsa_seed;
#endif
}

/* ---- cut seeds out of the corpora at run time ---- */

static void cut_file(const char *sub, const char *path, const char *base, const char *outdir)
{
	struct replay_capture c;
	struct out o = {0};
	unsigned nframes = 0, chunk = 0, nchunks = 0, ngso = 0;
	char name[512], err[REPLAY_ERRLEN];
	if (replay_capture_read_lax(&c, path, err, sizeof(err)) < 0)
		return;
	for (size_t i = 0; i < c.nframes; i++) {
		const struct replay_frame f = c.frames[i];
		nframes++;
#ifdef FZSEED_DSA
		if (c.linktype >= 281 && c.linktype <= 285) {
			/* DSA_TAG_BRCM 281, BRCM_PREPEND 282, DSA 284, EDSA 285 */
			const char *fmt = c.linktype == 281 ? "brcm" : c.linktype == 282 ? "brcm-prepend"
			                : c.linktype == 284 ? "dsa" : c.linktype == 285 ? "edsa" : NULL;
			const struct ofl_dsa_ops *ops = fmt ? ofl_dsa_find(fmt) : NULL;
			if (ops && nframes <= 12) {
				dsa_seed(&o, ops->id, 0, 0, f.data, f.caplen, nframes % 3);
				snprintf(name, sizeof(name), "%s__%s-%u-rx", sub, base, nframes);
				save(outdir, "dsa", name, &o);
				dsa_seed(&o, ops->id, 1, 0, f.data, f.caplen, 0);
				snprintf(name, sizeof(name), "%s__%s-%u-tx", sub, base, nframes);
				save(outdir, "dsa", name, &o);
			}
			continue;
		}
#endif
		if (c.linktype != REPLAY_LINKTYPE_ETHERNET)
			continue;
		/* GRO: runs of 24 consecutive frames, at most 6 runs per capture */
		if (nchunks < 6) {
			if (chunk == 0)
				gro_hdr(&o, 16, 64, 17, 8, 1, 255);
			gro_raw(&o, f.data, f.caplen, nframes & 1, 0, nframes & 1 ? 0 : 1);
			if (++chunk == 24) {
				snprintf(name, sizeof(name), "%s__%s-%u", sub, base, nchunks);
				save_gro(outdir, name, &o);
				chunk = 0;
				nchunks++;
			}
		}
#ifdef FZSEED_GSO
		/* GSO: the big frames (super-packets), as TCP/AUTO with an MSS */
		if (f.caplen > 1514 && f.caplen <= 20000 && ngso < 4) {
			gso_seed(&o, outdir, "tmp", 0, nframes & 1, 1448, nframes % 3, 4, 256, 1 + nframes % 3,
			         f.data, f.caplen, NULL, 0);
			{
				char from[4096], to[4096];
				snprintf(from, sizeof(from), "%s/gso/tmp", outdir);
				snprintf(to, sizeof(to), "%s/gso/%s__%s-%u", outdir, sub, base, ngso);
				rename(from, to);
			}
			ngso++;
		}
#else
		(void)ngso;
#endif
	}
	if (chunk && nchunks < 6) {
		snprintf(name, sizeof(name), "%s__%s-%u", sub, base, nchunks);
		save_gro(outdir, name, &o);
	}
	o.n = 0;
	free(o.b);
	replay_capture_free(&c);
}

/* Every .pcap/.pcapng below dir (depth <= 3), named by its path under root. */
static void cut_tree(const char *dir, const char *rel, const char *outdir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		char fp[8192], r[1024];
		size_t l = strlen(e->d_name);
		struct stat st;
		if (e->d_name[0] == '.')
			continue;
		snprintf(fp, sizeof(fp), "%s/%s", dir, e->d_name);
		snprintf(r, sizeof(r), "%s%s%s", rel, *rel ? "_" : "", e->d_name);
		if (stat(fp, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (depth < 3)
				cut_tree(fp, r, outdir, depth + 1);
			continue;
		}
		if ((l >= 5 && !strcmp(e->d_name + l - 5, ".pcap")) ||
		    (l >= 7 && !strcmp(e->d_name + l - 7, ".pcapng")))
			cut_file(rel, fp, e->d_name, outdir);
	}
	closedir(d);
}

static int cut(const char *root, const char *outdir)
{
	mkdir(outdir, 0777);
	cut_tree(root, "", outdir, 0);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "hand") == 0) {
		mkdir(argv[2], 0777);
		hand_gro(argv[2]);
		hand_dsa(argv[2]);
#ifdef FZSEED_GSO
		hand_gso(argv[2]);
#else
		(void)hand_gso;
#endif
	} else if (argc == 4 && strcmp(argv[1], "cut") == 0) {
		cut(argv[2], argv[3]);
	} else {
		fprintf(stderr, "usage: fzseed hand OUTDIR | fzseed cut DIR OUTDIR\n");
		return 2;
	}
	printf("fzseed: %u seed files written\n", nwritten);
	return 0;
}
