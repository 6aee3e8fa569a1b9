/*
 * gso_ring_test.c - the RING header pool (ofl_gso_pool_init_ring()) and
 * ofl_gso_pool_put_oldest(): slots in ring order, the wrap, puts of the
 * oldest and the newest slot, every error of both functions; segments cut
 * from a RING pool, by ofl_gso_next() and by ofl_gso_next_burst() (the fast
 * loop's RING copy, wrapping inside a burst, completed by
 * ofl_gso_pool_put_oldest()), byte for byte the segments ofl_gso_next()
 * cuts from a BLOCK pool; the burst that ends a packet ends with its LAST
 * segment; unnext with a RING pool.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "gso_util.h"
#include "harness.h"

#define SLOT 256u
#define NSLOTS 256u
#define MAXSEG 64u

static uint8_t block[NSLOTS * SLOT] __attribute__((aligned(64)));
static uint8_t frame[70000];
static struct ofl_buf bufs[16];
static unsigned nbufs;
static struct ofl_gso_req req;

/* ---- the pool on its own ---- */

static void ring(struct ofl_gso_pool *p, uint32_t n)
{
	ck_assert_int_eq(ofl_gso_pool_init_ring(p, block, (size_t)n * SLOT, SLOT), 0);
}

static void get_is(struct ofl_gso_pool *p, uint32_t i, struct ofl_gso_hbuf *hb)
{
	ck_assert_int_eq(ofl_gso_pool_get(p, hb), 0);
	ck_assert_ptr_eq(hb->data, block + (size_t)i * SLOT);
	ck_assert_uint_eq(hb->size, SLOT);
	ck_assert_uint_eq(hb->index, i);
	ck_assert_uint_eq(hb->offset, (uint64_t)i * SLOT);
	ck_assert_ptr_null(hb->cookie);
}

START_TEST(test_ring_init)
{
	struct ofl_gso_pool p;
	ck_assert_int_eq(ofl_gso_pool_init_ring(NULL, block, sizeof(block), SLOT), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_init_ring(&p, NULL, sizeof(block), SLOT), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_init_ring(&p, block, sizeof(block), 63), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_init_ring(&p, block, SLOT - 1, SLOT), OFL_EINVAL);
	if (sizeof(size_t) > 4) /* 2^31 slots: refused without touching the block */
		ck_assert_int_eq(ofl_gso_pool_init_ring(&p, block, (size_t)0x80000000u * 64u, 64), OFL_EINVAL);
	/* a partial slot at the end is not used */
	ck_assert_int_eq(ofl_gso_pool_init_ring(&p, block, 3 * SLOT + 100, SLOT), 0);
	ck_assert_uint_eq(ofl_gso_pool_avail(&p), 3);
	ck_assert_uint_eq(ofl_gso_pool_slot_size(&p), SLOT);
	/* seek is the ARRAY pool's */
	ck_assert_int_eq(ofl_gso_pool_seek(&p, 1), OFL_EINVAL);
}
END_TEST

/* Ring order with the wrap; puts of the oldest (sent) and the newest (taken
 * back: handed out again next); a put of any other slot refused. */
START_TEST(test_ring_order)
{
	struct ofl_gso_pool p;
	struct ofl_gso_hbuf hb[5], x;
	uint32_t i;
	ring(&p, 4);
	for (i = 0; i < 4; i++)
		get_is(&p, i, &hb[i]);
	ck_assert_int_eq(ofl_gso_pool_get(&p, &x), OFL_EAGAIN);
	ck_assert_uint_eq(ofl_gso_pool_avail(&p), 0);
	/* neither the oldest nor the newest */
	ck_assert_int_eq(ofl_gso_pool_put(&p, &hb[1]), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_put(&p, &hb[2]), OFL_EINVAL);
	/* the oldest: sent */
	ck_assert_int_eq(ofl_gso_pool_put(&p, &hb[0]), 0);
	ck_assert_uint_eq(ofl_gso_pool_avail(&p), 1);
	/* the next slot is 0 again (the wrap), then the newest taken back */
	get_is(&p, 0, &hb[4]);
	ck_assert_int_eq(ofl_gso_pool_put(&p, &hb[4]), 0);
	get_is(&p, 0, &hb[4]);
	/* a slot that is not this pool's: a wrong pointer, an index past it */
	x = hb[1];
	x.data += 1;
	ck_assert_int_eq(ofl_gso_pool_put(&p, &x), OFL_EINVAL);
	x = hb[1];
	x.index = 4;
	ck_assert_int_eq(ofl_gso_pool_put(&p, &x), OFL_EINVAL);
	/* oldest first: 1, 2, 3, then the one slot left in use, 0 (sent) */
	for (i = 1; i < 4; i++)
		ck_assert_int_eq(ofl_gso_pool_put(&p, &hb[i]), 0);
	ck_assert_int_eq(ofl_gso_pool_put(&p, &hb[4]), 0);
	ck_assert_uint_eq(ofl_gso_pool_avail(&p), 4);
	ck_assert_int_eq(ofl_gso_pool_put(&p, &hb[4]), OFL_EINVAL); /* none in use */
	get_is(&p, 1, &x); /* on from where the ring stands */
	/* put_burst: the same as puts in order */
	get_is(&p, 2, &hb[0]);
	get_is(&p, 3, &hb[1]);
	ck_assert_int_eq(ofl_gso_pool_put_burst(&p, (struct ofl_gso_hbuf[]){x, hb[0], hb[1]}, 3), 3);
	ck_assert_uint_eq(ofl_gso_pool_avail(&p), 4);
	ck_assert_int_eq(ofl_gso_pool_put_burst(&p, hb, 1), 0); /* none in use */
}
END_TEST

static int fl_get(void *user, struct ofl_gso_hbuf *hb)
{
	(void)user;
	hb->data = block;
	hb->size = SLOT;
	return 0;
}

static void fl_put(void *user, const struct ofl_gso_hbuf *hb)
{
	(void)user;
	(void)hb;
}

START_TEST(test_put_oldest)
{
	struct ofl_gso_pool p;
	struct ofl_gso_hbuf hb[8], arr[8];
	uint32_t i;
	ck_assert_int_eq(ofl_gso_pool_put_oldest(NULL, 0), OFL_EINVAL);
	ring(&p, 8);
	ck_assert_int_eq(ofl_gso_pool_put_oldest(&p, 0), 0);
	ck_assert_int_eq(ofl_gso_pool_put_oldest(&p, 1), OFL_EINVAL); /* none in use */
	for (i = 0; i < 6; i++)
		get_is(&p, i, &hb[i]);
	/* more than in use: refused, nothing given back */
	ck_assert_int_eq(ofl_gso_pool_put_oldest(&p, 7), OFL_EINVAL);
	ck_assert_uint_eq(ofl_gso_pool_avail(&p), 2);
	ck_assert_int_eq(ofl_gso_pool_put_oldest(&p, 4), 0);
	ck_assert_uint_eq(ofl_gso_pool_avail(&p), 6);
	/* 4 and 5 still in use, 4 the oldest: a put of 3 is refused */
	ck_assert_int_eq(ofl_gso_pool_put(&p, &hb[3]), OFL_EINVAL);
	get_is(&p, 6, &hb[6]);
	get_is(&p, 7, &hb[7]);
	get_is(&p, 0, &hb[0]); /* wrapped */
	ck_assert_int_eq(ofl_gso_pool_put(&p, &hb[4]), 0);
	ck_assert_int_eq(ofl_gso_pool_put_oldest(&p, 4), 0); /* 5, 6, 7, 0 */
	ck_assert_uint_eq(ofl_gso_pool_avail(&p), 8);
	ck_assert_int_eq(ofl_gso_pool_put_oldest(&p, 1), OFL_EINVAL);
	get_is(&p, 1, &hb[1]);

	/* BLOCK and FREELIST pools have no order to go by */
	ck_assert_int_eq(ofl_gso_pool_init_block(&p, block, 8 * SLOT, SLOT), 0);
	ck_assert_int_eq(ofl_gso_pool_get(&p, &hb[0]), 0);
	ck_assert_int_eq(ofl_gso_pool_put_oldest(&p, 1), OFL_EINVAL);
	ck_assert_uint_eq(ofl_gso_pool_avail(&p), 7);
	ck_assert_int_eq(ofl_gso_pool_init_freelist(&p, SLOT, fl_get, fl_put, NULL), 0);
	ck_assert_int_eq(ofl_gso_pool_put_oldest(&p, 0), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_put_oldest(&(struct ofl_gso_pool){0}, 0), OFL_EINVAL);

	/* ARRAY: the n oldest too; after a seek with slots in use, counts */
	gu_pool_array(&p, arr, block, 8, SLOT);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(ofl_gso_pool_get(&p, &hb[i]), 0);
	ck_assert_int_eq(ofl_gso_pool_put_oldest(&p, 2), 0);
	ck_assert_int_eq(ofl_gso_pool_put(&p, &hb[1]), OFL_EINVAL); /* already back */
	ck_assert_int_eq(ofl_gso_pool_put(&p, &hb[2]), 0);
	ck_assert_uint_eq(ofl_gso_pool_avail(&p), 8);
	ck_assert_int_eq(ofl_gso_pool_get(&p, &hb[0]), 0);
	ck_assert_uint_eq(hb[0].index, 3);
	ck_assert_int_eq(ofl_gso_pool_seek(&p, 6), 0);
	ck_assert_int_eq(ofl_gso_pool_get(&p, &hb[1]), 0);
	ck_assert_uint_eq(hb[1].index, 6);
	ck_assert_int_eq(ofl_gso_pool_put_oldest(&p, 3), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_put_oldest(&p, 2), 0);
	ck_assert_uint_eq(ofl_gso_pool_avail(&p), 8);
	/* all back: the order is checked again (7 is neither end) */
	ck_assert_int_eq(ofl_gso_pool_get(&p, &hb[0]), 0);
	ck_assert_int_eq(ofl_gso_pool_get(&p, &hb[1]), 0);
	ck_assert_int_eq(ofl_gso_pool_get(&p, &hb[2]), 0);
	ck_assert_int_eq(ofl_gso_pool_put(&p, &hb[1]), OFL_EINVAL);
}
END_TEST

/* ---- segments from a RING pool ---- */

/* The inputs: TCP (46 segments of 1000 bytes, the last one short; FIN,
 * PSH and CWR set), UDP L4 (15 datagrams), UDP fragmentation (14
 * fragments), over IPv4 or IPv6. */
static const struct input {
	int l3;
	uint8_t type;
	uint32_t payload, seg_size;
} inputs[] = {
	{4, OFL_GSO_TYPE_TCP, 45500, 1000},    {6, OFL_GSO_TYPE_TCP, 45500, 1000},
	{4, OFL_GSO_TYPE_UDP_L4, 20000, 1400}, {6, OFL_GSO_TYPE_UDP_L4, 20000, 1400},
	{4, OFL_GSO_TYPE_UDP_FRAG, 20000, 1480},
};
#define IN_N (sizeof(inputs) / sizeof(inputs[0]))

/* Input in, full checksums when full, several buffers when split, the
 * fixed-ID and AccECN flags when flags. */
static void make_input(unsigned in, int full, int split, int flags)
{
	const struct input *x = &inputs[in];
	size_t len, off = 0, piece = 9000;
	if (x->type == OFL_GSO_TYPE_TCP) {
		struct gen_tcp g;
		gen_tcp_init(&g, x->l3);
		g.payload_len = x->payload;
		g.flags = GEN_ACK | GEN_PSH | GEN_FIN | GEN_CWR;
		len = gen_tcp_frame(&g, frame, sizeof(frame));
	} else {
		struct gu_udp u;
		gu_udp_init(&u, x->l3);
		u.payload_len = x->payload;
		len = gu_udp_frame(&u, frame, sizeof(frame));
	}
	ck_assert_uint_gt(len, 0);
	ofl_gso_req_default(&req);
	req.type = x->type;
	req.seg_size = x->seg_size;
	req.csum = (uint8_t)(full ? OFL_CSUM_MODE_FULL : OFL_CSUM_MODE_PARTIAL);
	req.flags = (uint16_t)(flags ? OFL_GSO_F_FIXED_ID | OFL_GSO_F_KEEP_CWR : 0u);
	/* one buffer, or pieces of 9000, 12001, ... bytes: segments across them */
	for (nbufs = 0; off < len; nbufs++) {
		size_t l = !split || len - off < piece ? len - off : piece;
		bufs[nbufs] = (struct ofl_buf){frame + off, (uint32_t)l};
		off += l;
		piece += 3001;
	}
}

struct run {
	unsigned n;
	struct ofl_gso_seg seg[MAXSEG];
	uint8_t hdr[MAXSEG][OFL_GSO_MAX_HDR];
};
static struct run ref, got;

static void keep(struct run *r, const struct ofl_gso_seg *s)
{
	ck_assert_uint_lt(r->n, MAXSEG);
	r->seg[r->n] = *s;
	memcpy(r->hdr[r->n], s->hdr.data, s->hdr_len);
	r->n++;
}

/* The reference: ofl_gso_next() from a BLOCK pool. */
static void make_ref(void)
{
	static uint8_t blk[NSLOTS * SLOT];
	struct ofl_gso_iter it;
	struct ofl_gso_pool pool;
	struct ofl_gso_seg s;
	int rc;
	memset(&ref, 0, sizeof(ref));
	ck_assert_int_eq(ofl_gso_pool_init_block(&pool, blk, sizeof(blk), SLOT), 0);
	ck_assert_int_eq(ofl_gso_start(&it, &req, bufs, nbufs), 0);
	while ((rc = ofl_gso_next(&it, &pool, &s)) == 1)
		keep(&ref, &s);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_gt(ref.n, 2);
}

/* Segment i equals the reference's but for its slot, which is ring slot
 * x of the pool. */
static void same_seg(unsigned i, uint32_t x)
{
	const struct ofl_gso_seg *a = &ref.seg[i], *b = &got.seg[i];
	ck_assert_ptr_eq(b->hdr.data, block + (size_t)x * SLOT);
	ck_assert_uint_eq(b->hdr.size, SLOT);
	ck_assert_uint_eq(b->hdr.index, x);
	ck_assert_uint_eq(b->hdr.offset, (uint64_t)x * SLOT);
	ck_assert_ptr_null(b->hdr.cookie);
	gu_seg_same_but_slot(a, b);
	ck_assert_uint_eq(b->index, i);
	ck_assert_mem_eq(ref.hdr[i], got.hdr[i], a->hdr_len);
}

/* Ring sizes (1 slot, fewer than a packet's segments, more) and where the
 * ring stands at the start (the wrap before, inside or after a burst).
 * Under a memory checker (OFL_TEST_CHECKER, set by .ci/sanitize.sh and
 * .ci/valgrind.sh) only the first NCHECKED of each list. */
static const uint32_t ring_sizes[] = {7, 1, 256, 40, 64};
static const unsigned bsizes[] = {0, 5, 64, 1, 16}; /* 0: ofl_gso_next() */
#define NCHECKED 3u

static unsigned checked(unsigned all)
{
	return getenv("OFL_TEST_CHECKER") ? NCHECKED : all;
}

/* Cut the input from a RING pool of ns slots whose head stands at pre,
 * bursts of bn (0: ofl_gso_next()), at most `keep_max` slots in use before
 * the oldest are completed by ofl_gso_pool_put_oldest() (an empty pool:
 * OFL_EAGAIN, everything completed).  The segments are the reference's,
 * their slots ring order; the burst with the last segment ends with it and
 * the next call returns 0; afterwards the pool is full again. */
static void cut_from_ring(uint32_t ns, uint32_t pre, unsigned bn, unsigned keep_max)
{
	struct ofl_gso_iter it;
	struct ofl_gso_pool pool;
	struct ofl_gso_seg segs[MAXSEG];
	struct ofl_gso_hbuf hb;
	unsigned held = 0, i, guard = 0;
	int r;
	memset(&got, 0, sizeof(got));
	ring(&pool, ns);
	for (i = 0; i < pre; i++) { /* move the ring on */
		ck_assert_int_eq(ofl_gso_pool_get(&pool, &hb), 0);
		ck_assert_int_eq(ofl_gso_pool_put_oldest(&pool, 1), 0);
	}
	ck_assert_int_eq(ofl_gso_start(&it, &req, bufs, nbufs), 0);
	for (;;) {
		ck_assert_uint_lt(++guard, 10000);
		if (bn == 0)
			r = ofl_gso_next(&it, &pool, segs);
		else
			r = ofl_gso_next_burst(&it, &pool, segs, bn);
		if (r == OFL_EAGAIN) {
			ck_assert_uint_eq(held, ns);
			ck_assert_int_eq(ofl_gso_pool_put_oldest(&pool, held), 0);
			held = 0;
			continue;
		}
		ck_assert_int_ge(r, 0);
		if (r == 0)
			break;
		for (i = 0; i < (unsigned)r; i++) {
			keep(&got, &segs[i]);
			same_seg(got.n - 1, (pre + got.n - 1) % ns);
			/* LAST: the packet's last segment, and the burst's */
			ck_assert_int_eq(!!(segs[i].flags & OFL_GSO_SEG_F_LAST), got.n == ref.n);
			if (got.n == ref.n)
				ck_assert_uint_eq(i, (unsigned)r - 1);
		}
		held += (unsigned)r;
		ck_assert_uint_eq(ofl_gso_pool_avail(&pool), ns - held);
		if (held > keep_max) {
			ck_assert_int_eq(ofl_gso_pool_put_oldest(&pool, held - keep_max), 0);
			held = keep_max;
		}
	}
	ck_assert_uint_eq(got.n, ref.n);
	ck_assert_int_eq(ofl_gso_pool_put_oldest(&pool, held), 0);
	ck_assert_uint_eq(ofl_gso_pool_avail(&pool), ns);
}

/* _i: input x partial/full x one buffer/split x flags. */
START_TEST(test_ring_equals_block)
{
	unsigned in = (unsigned)_i % IN_N;
	int full = _i / (int)IN_N % 2, split = _i / (int)(IN_N * 2) % 2, flags = _i / (int)(IN_N * 4);
	unsigned si, bi;
	make_input(in, full, split, flags);
	make_ref();
	for (si = 0; si < checked(sizeof(ring_sizes) / sizeof(ring_sizes[0])); si++) {
		uint32_t ns = ring_sizes[si];
		for (bi = 0; bi < checked(sizeof(bsizes) / sizeof(bsizes[0])); bi++) {
			/* the wrap early, mid-packet and never (ns 256) */
			cut_from_ring(ns, ns - 1u, bsizes[bi], ns);
			cut_from_ring(ns, ns / 2u, bsizes[bi], ns / 3u);
			cut_from_ring(ns, 0, bsizes[bi], ns);
		}
	}
}
END_TEST

/* Take a burst from a RING pool, undo its last m segments (the newest
 * first: each slot is handed out again next), resume: the reference's
 * segments in ring order, the pool full at the end. */
START_TEST(test_ring_unnext)
{
	unsigned m;
	make_input((unsigned)_i % IN_N, 0, 0, 0);
	make_ref();
	for (m = 1; m <= 8; m++) {
		struct ofl_gso_iter it;
		struct ofl_gso_pool pool;
		struct ofl_gso_seg segs[MAXSEG];
		unsigned back, undone = 0;
		int r;
		memset(&got, 0, sizeof(got));
		ring(&pool, 32);
		ck_assert_int_eq(ofl_gso_start(&it, &req, bufs, nbufs), 0);
		while ((r = ofl_gso_next_burst(&it, &pool, segs, 12)) != 0) {
			ck_assert_int_gt(r, 0);
			back = 0;
			if (undone < 2 && (unsigned)r > m) {
				for (back = 0; back < m; back++)
					ck_assert_int_eq(ofl_gso_unnext(&it, &pool, &segs[r - 1 - back]), 0);
				undone++;
			}
			for (unsigned i = 0; i < (unsigned)r - back; i++) {
				keep(&got, &segs[i]);
				same_seg(got.n - 1, (got.n - 1) % 32);
			}
			ck_assert_int_eq(ofl_gso_pool_put_oldest(&pool, (unsigned)r - back), 0);
		}
		ck_assert_uint_eq(got.n, ref.n);
		ck_assert_uint_eq(ofl_gso_pool_avail(&pool), 32);
	}
}
END_TEST

H_MAIN("gso_ring", 60, 0, {test_ring_init, 0}, {test_ring_order, 0}, {test_put_oldest, 0},
       {test_ring_equals_block, (int)IN_N * 8}, {test_ring_unnext, (int)IN_N})
