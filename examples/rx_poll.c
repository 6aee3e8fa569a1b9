/*
 * rx_poll.c - the shape of a driver's RX poll with libofl GRO.
 *
 * A simulated NIC ring holds received frames (here: a bulk TCP stream of
 * 4 flows, 1448-byte segments, written by hand below).  Each poll takes up
 * to 64 frames, hands them to GRO with the hardware checksum status, and
 * ends the poll; GRO calls deliver() with lists of packets to pass up the
 * stack, where a driver would build its skbs/mbufs and release the RX
 * buffers named by the cookies.
 */
#include <ofl/gro.h>
#include <stdio.h>
#include <string.h>

#define NFRAMES 256
#define FRAME_LEN (14 + 20 + 20 + 1448)

struct rxq {
	uint8_t frames[NFRAMES][FRAME_LEN];
	unsigned released;     /* RX buffers given back (cookies seen) */
	unsigned merged, normal, lists;
};

static void put16(uint8_t *p, unsigned v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put32(uint8_t *p, uint32_t v) { put16(p, v >> 16); put16(p + 2, v & 0xffff); }

/* A TCP/IPv4 segment; the TCP checksum is left 0 and the frame is marked
 * OFL_CSUM_UNNECESSARY, as a NIC with RX checksum offload would. */
static void make_frame(uint8_t *f, unsigned flow, uint32_t seq, uint16_t id)
{
	uint8_t *ip = f + 14, *th = ip + 20;
	uint32_t s = 0;
	unsigned i;
	memset(f, 0, FRAME_LEN);
	memcpy(f, "\x02\0\0\0\0\x02\x02\0\0\0\0\x01\x08\x00", 14);
	ip[0] = 0x45;
	put16(ip + 2, 20 + 20 + 1448);
	put16(ip + 4, id);
	put16(ip + 6, 0x4000);
	ip[8] = 64;
	ip[9] = 6;
	memcpy(ip + 12, "\x0a\0\0\x01\x0a\0\0\x02", 8);
	for (i = 0; i < 20; i += 2)
		s += (unsigned)(ip[i] << 8 | ip[i + 1]);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	put16(ip + 10, (uint16_t)~s);
	put16(th, 1000 + flow);
	put16(th + 2, 80);
	put32(th + 4, seq);
	put32(th + 8, 1);
	th[12] = 5 << 4;
	th[13] = 0x10; /* ACK */
	put16(th + 14, 65535);
}

static void deliver(void *user, const struct ofl_gro_out *pkts, unsigned n)
{
	struct rxq *q = user;
	unsigned i;
	q->lists++;
	for (i = 0; i < n; i++) {
		/* Build the stack's packet from pkts[i].hdr + pkts[i].slices here,
		 * then release the RX buffers of every cookie. */
		unsigned segs = pkts[i].seg_count ? pkts[i].seg_count : 1;
		q->released += segs;
		if (pkts[i].seg_count > 1)
			q->merged += segs;
		else
			q->normal++;
	}
}

int main(void)
{
	static struct rxq q;
	struct ofl_gro_config cfg;
	struct ofl_gro *gro;
	struct ofl_gro_stats st;
	unsigned i, head = 0;
	uint64_t now = 0;

	for (i = 0; i < NFRAMES; i++)
		make_frame(q.frames[i], i % 4, 1 + (i / 4) * 1448u, (uint16_t)(i / 4));

	ofl_gro_config_default(&cfg);
	cfg.deliver = deliver;
	cfg.user = &q;
	if (ofl_gro_create(&cfg, &gro) != 0)
		return 1;

	while (head < NFRAMES) { /* one NAPI poll per iteration */
		unsigned work = 0;
		uint64_t deadline;
		for (; work < 64 && head < NFRAMES; work++, head++) {
			struct ofl_buf buf = {q.frames[head], FRAME_LEN};
			struct ofl_pkt pkt = {.bufs = &buf, .nbufs = 1,
			                      .csum_status = OFL_CSUM_UNNECESSARY,
			                      .cookie = &q.frames[head]};
			if (ofl_gro_receive(gro, &pkt, now) < 0)
				return 1;
		}
		ofl_gro_poll_end(gro, work, now, &deadline);
		now += 100000;
	}
	ofl_gro_get_stats(gro, &st, sizeof st);
	ofl_gro_destroy(gro);
	printf("frames %u, released %u, merged %u, normal %u, lists %u, GRO packets %llu\n",
	       NFRAMES, q.released, q.merged, q.normal, q.lists, (unsigned long long)st.out_gro_pkts);
	return q.released == NFRAMES ? 0 : 1;
}
