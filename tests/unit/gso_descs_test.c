/*
 * gso_descs_test.c - ofl_gso_next_descs(), the descriptors the next segment
 * needs (ring reservation): before every segment it equals 1 + the slices
 * that segment gets, for TCP, UDP L4 and UDP fragmentation over inputs cut
 * into uneven buffers (segments of one to many slices); 0 once the packet
 * is done or aborted; back to the same value after ofl_gso_unnext(); the
 * values add up to ofl_gso_count()'s descs_left; errors.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gso_util.h"
#include "harness.h"

static uint8_t frame[70000], slots[8 * 256];
static struct ofl_buf bufs[64];

/* Cut frame[0, len) into buffers of the sizes pattern[] (repeated). */
static unsigned split(size_t len, const uint32_t *pattern, unsigned np)
{
	unsigned n = 0;
	size_t off = 0;
	while (off < len && n < 64) {
		uint32_t l = pattern[n % np];
		if (n == 63 || l > len - off)
			l = (uint32_t)(len - off);
		bufs[n].data = frame + off;
		bufs[n].len = l;
		off += l;
		n++;
	}
	return n;
}

/* _i: bits 0-1 TCP (0), UDP L4 (1), UDP fragmentation (2, 3); bit 2 IPv6; bit 3 the
 * buffers: one, or uneven pieces (empty ones too). */
START_TEST(test_next_descs)
{
	static const uint32_t pieces[] = { 60, 700, 0, 2100, 13, 999, 4096, 1 };
	int kind = _i & 3, l3 = (_i & 4) ? 6 : 4;
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct ofl_gso_pool pool;
	struct ofl_gso_counts c;
	struct ofl_gso_seg seg;
	uint32_t sum = 0, segs = 0;
	unsigned nb;
	size_t len;
	int d, rc;
	ofl_gso_req_default(&req);
	if (kind == 0) {
		struct gen_tcp g;
		gen_tcp_init(&g, l3);
		g.payload_len = 20000;
		len = gen_tcp_frame(&g, frame, sizeof(frame));
		req.type = OFL_GSO_TYPE_TCP;
		req.seg_size = 1448;
	} else {
		struct gu_udp u;
		gu_udp_init(&u, l3);
		u.payload_len = 20000;
		len = gu_udp_frame(&u, frame, sizeof(frame));
		req.type = kind == 1 ? OFL_GSO_TYPE_UDP_L4 : OFL_GSO_TYPE_UDP_FRAG;
		req.seg_size = 1400;
	}
	ck_assert_uint_gt(len, 0);
	nb = (_i & 8) ? split(len, pieces, 8) : split(len, (const uint32_t[]){ (uint32_t)len }, 1);
	ck_assert_int_eq(ofl_gso_pool_init_block(&pool, slots, sizeof(slots), 256), 0);
	ck_assert_int_eq(ofl_gso_start(&it, &req, bufs, nb), 0);
	ck_assert_int_eq(ofl_gso_count(&it, &c, sizeof c), 0);
	for (;;) {
		d = ofl_gso_next_descs(&it);
		rc = ofl_gso_next(&it, &pool, &seg);
		if (rc == 0)
			break;
		ck_assert_int_eq(rc, 1);
		ck_assert_int_eq(d, 1 + (int)seg.nslices);
		if (segs == 3) {
			/* taken back: the same segment, the same count */
			ck_assert_int_eq(ofl_gso_unnext(&it, &pool, &seg), 0);
			ck_assert_int_eq(ofl_gso_next_descs(&it), d);
			ck_assert_int_eq(ofl_gso_next(&it, &pool, &seg), 1);
		}
		sum += (uint32_t)d;
		segs++;
		ofl_gso_pool_put(&pool, &seg.hdr);
	}
	ck_assert_int_eq(d, 0);
	ck_assert_uint_eq(segs, c.segs);
	ck_assert_uint_eq(sum, c.descs_left);
	if (_i & 8)
		ck_assert_uint_gt(sum, 2 * segs); /* some segments had several slices */
	/* aborted: nothing left */
	ck_assert_int_eq(ofl_gso_start(&it, &req, bufs, nb), 0);
	ck_assert_int_gt(ofl_gso_next_descs(&it), 1);
	ofl_gso_abort(&it);
	ck_assert_int_eq(ofl_gso_next_descs(&it), 0);
}
END_TEST

START_TEST(test_next_descs_errors)
{
	struct ofl_gso_iter it;
	struct ofl_gso_req req;
	struct ofl_buf b = { frame, 10 };
	ck_assert_int_eq(ofl_gso_next_descs(NULL), OFL_EINVAL);
	ofl_gso_req_default(&req);
	req.seg_size = 1000;
	ck_assert_int_lt(ofl_gso_start(&it, &req, &b, 1), 0); /* not a packet */
	ck_assert_int_eq(ofl_gso_next_descs(&it), OFL_EINVAL);
}
END_TEST

H_MAIN("gso_descs", 0, 0, {test_next_descs, 16}, {test_next_descs_errors, 0})
