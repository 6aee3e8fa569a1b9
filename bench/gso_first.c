/*
 * gso_first.c - a first, plain-C measurement of software GSO: one 64000-byte
 * TCP/IPv4 super-packet cut at MSS 1448 (45 segments) again and again, with
 * partial checksums (headers only: what a NIC with checksum offload needs)
 * and with full software checksums (every payload byte summed).  Each
 * segment's header is written into a block-pool slot and its payload
 * referenced in place, as a driver would post it; nothing is copied.
 *
 *     gso_first [iterations-per-run] [runs] [partial|full]
 *
 * Prints ns per segment and per super-packet: the median and the best of
 * the runs (clock_gettime(CLOCK_MONOTONIC)).
 */
#define _POSIX_C_SOURCE 200809L
#include <ofl/gso.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PAYLOAD 64000u
#define MSS 1448u

static uint8_t frame[14 + 20 + 32 + PAYLOAD];
static uint8_t slots[64 * 256];

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }

static size_t make_frame(void)
{
	uint8_t *ip = frame + 14, *th = ip + 20;
	size_t i;
	memcpy(frame, "\x02\0\0\0\0\x02\x02\0\0\0\0\x01\x08\x00", 14);
	ip[0] = 0x45;
	put16(ip + 2, (uint16_t)(20 + 32 + PAYLOAD));
	put16(ip + 4, 1);
	put16(ip + 6, 0x4000);
	ip[8] = 64;
	ip[9] = 6;
	memcpy(ip + 12, "\x0a\0\0\x01\x0a\0\0\x02", 8);
	put16(th, 40000);
	put16(th + 2, 5201);
	th[7] = 1;
	th[11] = 1;
	th[12] = 8 << 4;
	th[13] = 0x18; /* ACK PSH */
	put16(th + 14, 512);
	memcpy(th + 20, "\x01\x01\x08\x0a\0\0\0\x01\0\0\0\x02", 12); /* NOP NOP TS */
	for (i = 0; i < PAYLOAD; i++)
		frame[14 + 20 + 32 + i] = (uint8_t)(i * 7 + 3);
	return sizeof(frame);
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* One run: iters super-packets; returns ns per segment.  *sink keeps the
 * compiler from dropping the work. */
static double run(enum ofl_csum_mode mode, unsigned iters, uint32_t *segs, uint32_t *sink)
{
	struct ofl_gso_req req;
	struct ofl_gso_pool pool;
	struct ofl_buf b = { frame, sizeof(frame) };
	uint32_t n = 0, acc = 0;
	double t0, t1;
	unsigned i;
	ofl_gso_req_default(&req);
	req.type = OFL_GSO_TYPE_TCP;
	req.seg_size = MSS;
	req.csum = (uint8_t)mode;
	ofl_gso_pool_init_block(&pool, slots, sizeof(slots), 256);
	t0 = now_ns();
	for (i = 0; i < iters; i++) {
		struct ofl_gso_iter it;
		struct ofl_gso_seg seg;
		if (ofl_gso_start(&it, &req, &b, 1) != 0)
			abort();
		while (ofl_gso_next(&it, &pool, &seg) == 1) {
			acc += seg.hdr.data[seg.l4_off + 16] + seg.nslices; /* "post" it */
			ofl_gso_pool_put(&pool, &seg.hdr);
			n++;
		}
	}
	t1 = now_ns();
	*segs = n / iters;
	*sink += acc;
	return (t1 - t0) / n;
}

int main(int argc, char **argv)
{
	unsigned iters = argc > 1 ? (unsigned)atoi(argv[1]) : 20000, runs = argc > 2 ? (unsigned)atoi(argv[2]) : 9;
	static const char *const names[2] = { "partial", "full" };
	uint32_t sink = 0, segs = 0;
	unsigned m, r, m0 = 0, m1 = 2;
	if (argc > 3) {
		m0 = strcmp(argv[3], "full") == 0;
		m1 = m0 + 1;
	}
	if (iters == 0 || runs == 0 || runs > 99)
		return 2;
	make_frame();
	printf("gso_first: one %u-byte TCP/IPv4 super-packet, MSS %u, %u iterations x %u runs\n", PAYLOAD, MSS,
	       iters, runs);
	for (m = m0; m < m1; m++) {
		double ns[99];
		run(m == 0 ? OFL_CSUM_MODE_PARTIAL : OFL_CSUM_MODE_FULL, iters / 10 + 1, &segs, &sink); /* warm up */
		for (r = 0; r < runs; r++)
			ns[r] = run(m == 0 ? OFL_CSUM_MODE_PARTIAL : OFL_CSUM_MODE_FULL, iters, &segs, &sink);
		qsort(ns, runs, sizeof(ns[0]), cmp);
		printf("  csum %-8s %2u segments: %7.1f ns/segment median (best %.1f), %8.1f ns/super-packet, "
		       "%.2f Gbit/s of payload\n",
		       names[m], segs, ns[runs / 2], ns[0], ns[runs / 2] * segs,
		       PAYLOAD * 8.0 / (ns[runs / 2] * segs));
	}
	return sink == 0xdeadbeef; /* never; keeps sink alive */
}
