/*
 * gso_burst_test.c - ofl_gso_next_burst() against ofl_gso_next(): for
 * TCP/IPv4, TCP/IPv6, UDP L4 and UDP fragmentation (IPv4 and IPv6), both
 * checksum modes, every pool kind and burst sizes 1..64, the same segments
 * (bytes, slices, release ranges, slots, flags), the same counts after every
 * call; pools that run out in the middle of a burst (a short burst, then
 * OFL_EAGAIN, then resume); unnext of a burst's tail; and every error.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gso_util.h"
#include "harness.h"

#define SLOT 256u
#define MAXSLOTS 256u
#define MAXSEG 128u

/* ---- inputs ---- */

enum { IN_TCP4, IN_TCP6, IN_UDP4_L4, IN_UDP6_L4, IN_UDP4_FRAG, IN_UDP6_FRAG, IN_N };

static uint8_t frame[70000];
static struct ofl_buf bufs[16];
static unsigned nbufs;
static struct ofl_gso_req req;

/* Input kind in, checksum mode full, split into several buffers when split
 * (segments of several slices, release ranges of several buffers). */
static void make_input(int in, int full, int split)
{
	size_t len;
	ofl_gso_req_default(&req);
	req.csum = (uint8_t)(full ? OFL_CSUM_MODE_FULL : OFL_CSUM_MODE_PARTIAL);
	if (in == IN_TCP4 || in == IN_TCP6) {
		struct gen_tcp g;
		gen_tcp_init(&g, in == IN_TCP4 ? 4 : 6);
		g.payload_len = 45500; /* 46 segments of 1000: the last one short */
		g.flags = GEN_ACK | GEN_PSH | GEN_FIN | GEN_CWR;
		len = gen_tcp_frame(&g, frame, sizeof(frame));
		req.type = OFL_GSO_TYPE_TCP;
		req.seg_size = 1000;
	} else {
		struct gu_udp u;
		gu_udp_init(&u, in == IN_UDP4_L4 || in == IN_UDP4_FRAG ? 4 : 6);
		u.payload_len = in == IN_UDP4_L4 || in == IN_UDP6_L4 ? 20000 : 30001;
		len = gu_udp_frame(&u, frame, sizeof(frame));
		if (in == IN_UDP4_L4 || in == IN_UDP6_L4) {
			req.type = OFL_GSO_TYPE_UDP_L4;
			req.seg_size = 1400; /* 15 datagrams */
		} else {
			req.type = OFL_GSO_TYPE_UDP_FRAG;
			req.seg_size = 1480; /* 21 fragments */
		}
	}
	ck_assert_uint_gt(len, 0);
	if (!split) {
		bufs[0].data = frame;
		bufs[0].len = (uint32_t)len;
		nbufs = 1;
	} else {
		/* buffers of 700, 2900, 5100 ... bytes: segments across them */
		size_t off = 0, piece = 700;
		nbufs = 0;
		while (off < len) {
			size_t l = nbufs == 15 || len - off < piece ? len - off : piece;
			bufs[nbufs].data = frame + off;
			bufs[nbufs].len = (uint32_t)l;
			nbufs++;
			off += l;
			piece += 2200;
		}
	}
}

static void start(struct ofl_gso_iter *it)
{
	ck_assert_int_eq(ofl_gso_start(it, &req, bufs, nbufs), 0);
}

/* ---- pools: BLOCK, FREELIST, ARRAY over the same memory ---- */

static uint8_t block[MAXSLOTS * SLOT] __attribute__((aligned(64)));
static struct ofl_gso_hbuf arr[MAXSLOTS];

/* FREELIST: a stack of slot numbers; get() number bad_at (from 1) hands
 * out a buffer smaller than the slot size. */
struct flist {
	unsigned top, gets, puts, bad_at;
	uint32_t stack[MAXSLOTS];
};
static struct flist fl;

static int fl_get(void *user, struct ofl_gso_hbuf *hb)
{
	struct flist *f = user;
	uint32_t slot;
	if (f->top == 0)
		return 1;
	slot = f->stack[--f->top];
	f->gets++;
	*hb = (struct ofl_gso_hbuf){block + (size_t)slot * SLOT, f->gets == f->bad_at ? 32u : SLOT, 0,
	                            0x100000u + slot, f};
	return 0;
}

static void fl_put(void *user, const struct ofl_gso_hbuf *hb)
{
	struct flist *f = user;
	ck_assert_ptr_eq(hb->cookie, f);
	ck_assert_uint_eq(hb->offset - 0x100000u, (size_t)(hb->data - block) / SLOT);
	f->stack[f->top++] = (uint32_t)(hb->offset - 0x100000u);
	f->puts++;
}

static const int kinds[3] = {OFL_GSO_POOL_BLOCK, OFL_GSO_POOL_FREELIST, OFL_GSO_POOL_ARRAY};

static void pool_make(struct ofl_gso_pool *p, int kind, uint32_t nslots, uint32_t slot)
{
	uint32_t i;
	if (kind == OFL_GSO_POOL_BLOCK) {
		ck_assert_int_eq(ofl_gso_pool_init_block(p, block, (size_t)nslots * slot, slot), 0);
	} else if (kind == OFL_GSO_POOL_FREELIST) {
		memset(&fl, 0, sizeof(fl));
		ck_assert_uint_eq(slot, SLOT);
		for (i = 0; i < nslots; i++)
			fl.stack[fl.top++] = nslots - 1 - i;
		ck_assert_int_eq(ofl_gso_pool_init_freelist(p, slot, fl_get, fl_put, &fl), 0);
	} else {
		gu_pool_array(p, arr, block, nslots, slot);
	}
}

/* ---- the reference: ofl_gso_next() one segment at a time ---- */

struct run {
	unsigned n;
	struct ofl_gso_seg seg[MAXSEG];
	uint8_t hdr[MAXSEG][OFL_GSO_MAX_HDR]; /* the slot's bytes when handed out */
	struct ofl_gso_counts cnt[MAXSEG + 1]; /* counts after segment i (0: at start) */
};
static struct run ref, got;

/* The segment as handed out: its struct and its header bytes. */
static void keep(struct run *r, const struct ofl_gso_seg *s)
{
	ck_assert_uint_lt(r->n, MAXSEG);
	ck_assert_uint_le(s->hdr_len, OFL_GSO_MAX_HDR);
	r->seg[r->n] = *s;
	memcpy(r->hdr[r->n], s->hdr.data, s->hdr_len);
	r->n++;
}

static void counts(const struct ofl_gso_iter *it, struct ofl_gso_counts *c)
{
	ck_assert_int_eq(ofl_gso_count(it, c, sizeof *c), 0);
}

/* Every segment with ofl_gso_next() from a pool large enough. */
static void make_ref(int kind)
{
	struct ofl_gso_iter it;
	struct ofl_gso_pool pool;
	struct ofl_gso_seg s;
	unsigned i;
	int rc;
	memset(&ref, 0, sizeof(ref));
	pool_make(&pool, kind, MAXSLOTS, SLOT);
	start(&it);
	counts(&it, &ref.cnt[0]);
	while ((rc = ofl_gso_next(&it, &pool, &s)) == 1) {
		keep(&ref, &s);
		counts(&it, &ref.cnt[ref.n]);
	}
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_gt(ref.n, 1);
	ck_assert_uint_eq(ref.n, ref.cnt[0].segs);
	for (i = 0; i < ref.n; i++)
		ck_assert_int_eq(ofl_gso_pool_put(&pool, &ref.seg[i].hdr), 0);
}

/* Segment i of the burst run equals segment i of the reference. */
static void same_seg(unsigned i)
{
	const struct ofl_gso_seg *a = &ref.seg[i], *b = &got.seg[i];
	ck_assert_ptr_eq(a->hdr.data, b->hdr.data);
	ck_assert_uint_eq(a->hdr.size, b->hdr.size);
	ck_assert_uint_eq(a->hdr.index, b->hdr.index);
	ck_assert_uint_eq(a->hdr.offset, b->hdr.offset);
	ck_assert_ptr_eq(a->hdr.cookie, b->hdr.cookie);
	gu_seg_same_but_slot(a, b);
	ck_assert_uint_eq(b->index, i);
	ck_assert_mem_eq(ref.hdr[i], got.hdr[i], a->hdr_len);
}

static void same_counts(const struct ofl_gso_iter *it, unsigned done)
{
	struct ofl_gso_counts c;
	counts(it, &c);
	ck_assert_uint_eq(c.segs_left, ref.cnt[done].segs_left);
	ck_assert_uint_eq(c.descs_left, ref.cnt[done].descs_left);
	ck_assert_uint_eq(c.segs, ref.cnt[done].segs);
	ck_assert_uint_eq(c.descs, ref.cnt[done].descs);
}

/* Keep the n segments a call returned; the counts after them are the
 * reference's. */
static void keep_burst(const struct ofl_gso_iter *it, const struct ofl_gso_seg *segs, unsigned n)
{
	unsigned i;
	for (i = 0; i < n; i++)
		keep(&got, &segs[i]);
	same_counts(it, got.n);
}

/* A fresh pool of nslots slots and it started: the burst run begins. */
static void begin(struct ofl_gso_iter *it, struct ofl_gso_pool *pool, int kind, uint32_t nslots)
{
	memset(&got, 0, sizeof(got));
	pool_make(pool, kind, nslots, SLOT);
	start(it);
}

/* The run ended (r: the last return) with the reference's segments. */
static void all_same(int r)
{
	unsigned i;
	ck_assert_int_eq(r, 0);
	ck_assert_uint_eq(got.n, ref.n);
	for (i = 0; i < got.n; i++)
		same_seg(i);
}

/* TX completion of every segment of the run: the pool is full again. */
static void all_back(struct ofl_gso_pool *pool, int kind)
{
	unsigned i;
	for (i = 0; i < got.n; i++)
		ck_assert_int_eq(ofl_gso_pool_put(pool, &got.seg[i].hdr), 0);
	if (kind != OFL_GSO_POOL_FREELIST)
		ck_assert_uint_eq(ofl_gso_pool_avail(pool), MAXSLOTS);
	else
		ck_assert_uint_eq(fl.gets, fl.puts);
}

/* The frames are the kernel's too: valid checksums once finished. */
static void frames_ok(void)
{
	static uint8_t lin[GU_FRAME_MAX];
	unsigned i;
	for (i = 0; i < got.n; i++) {
		struct ofl_gso_seg s = got.seg[i];
		size_t l;
		s.hdr.data = got.hdr[i];
		l = gu_linearize(&s, lin, sizeof(lin));
		ck_assert_uint_eq(l, s.len);
		if (s.flags & OFL_GSO_SEG_F_CSUM_PARTIAL)
			gu_complete_csum(lin, l, s.csum_start, s.csum_offset);
		ck_assert(gu_csums_ok(lin, l));
	}
}

/* Burst sizes: 1..8, around the packets' segment counts (7 and 45) and
 * the powers of two a driver posts, up to 64 (not every size).  Under a
 * memory checker (OFL_TEST_CHECKER set by .ci/sanitize.sh and .ci/valgrind.sh,
 * a 10-20x slowdown) only the first NBSIZES_CHECKED of each list run, and
 * pools of 1, 5 and 9 slots; the plain gcc and clang stages run them all. */
static const unsigned bsizes[] = {1, 7, 44, 45, 46, 64, 2, 3, 5, 8, 13, 16, 32};
#define NBSIZES (sizeof(bsizes) / sizeof(bsizes[0]))
#define NBSIZES_CHECKED 6u
/* with pools of 1..9 slots: below, at and above the pool size */
static const unsigned bsizes_pool[] = {1, 9, 10, 64, 2, 3, 5, 8};
#define NBSIZES_POOL (sizeof(bsizes_pool) / sizeof(bsizes_pool[0]))

static unsigned checked(unsigned all, unsigned under_checker)
{
	return getenv("OFL_TEST_CHECKER") ? under_checker : all;
}

/* ---- burst sizes up to 64, every input, both checksum modes, every pool ---- */

/* _i: input x csum x split x pool kind; every burst size in the loop. */
START_TEST(test_burst_equals_next)
{
	int in = _i % IN_N, full = (_i / IN_N) % 2, split = (_i / (IN_N * 2)) % 2;
	int kind = kinds[_i / (IN_N * 4)];
	unsigned bi;
	make_input(in, full, split);
	make_ref(kind);
	for (bi = 0; bi < checked(NBSIZES, NBSIZES_CHECKED); bi++) {
		unsigned bn = bsizes[bi];
		struct ofl_gso_iter it;
		struct ofl_gso_pool pool;
		struct ofl_gso_seg segs[64];
		unsigned calls = 0;
		int r;
		begin(&it, &pool, kind, MAXSLOTS);
		while ((r = ofl_gso_next_burst(&it, &pool, segs, bn)) > 0) {
			unsigned left = ref.n - got.n;
			/* a full burst, or what is left of the packet */
			ck_assert_int_eq(r, (int)(left < bn ? left : bn));
			keep_burst(&it, segs, (unsigned)r);
			calls++;
		}
		all_same(r);
		ck_assert_uint_eq(calls, (ref.n + bn - 1) / bn);
		if (bn == 1 || bn == 7 || bn == 64)
			frames_ok();
		/* done: 0 again, nothing taken */
		ck_assert_int_eq(ofl_gso_next_burst(&it, &pool, segs, bn), 0);
		all_back(&pool, kind);
	}
}
END_TEST

/* ---- pools that run out in the middle of a burst ---- */

/* Pools of 1..9 slots and bursts of 1..64 (bsizes_pool): a burst stops short when the
 * pool is empty (the next call says OFL_EAGAIN and takes nothing), the
 * slots go back (TX completion, oldest first) and the iteration resumes
 * where it stopped; the segments equal the reference.
 * _i: input x pool kind; slots and burst sizes in the loop. */
START_TEST(test_pool_runs_out)
{
	int in = _i % IN_N, kind = kinds[_i / IN_N];
	uint32_t nslots;
	make_input(in, _i % 2, 1);
	make_ref(kind);
	for (nslots = 1; nslots <= 9; nslots += checked(1, 4)) {
		unsigned bi;
		for (bi = 0; bi < checked(NBSIZES_POOL, 4); bi++) {
			unsigned bn = bsizes_pool[bi];
			struct ofl_gso_iter it;
			struct ofl_gso_pool pool;
			struct ofl_gso_seg segs[64];
			unsigned held = 0, i, eagain = 0, guard = 0;
			int r;
			begin(&it, &pool, kind, nslots);
			for (;;) {
				r = ofl_gso_next_burst(&it, &pool, segs, bn);
				ck_assert_uint_lt(++guard, 10000);
				if (r > 0) {
					unsigned left = ref.n - got.n, room = nslots - held;
					unsigned want = left < bn ? left : bn;
					/* short only at the end or where the pool ran out */
					ck_assert_int_eq(r, (int)(want < room ? want : room));
					held += (unsigned)r;
					keep_burst(&it, segs, (unsigned)r);
					continue;
				}
				if (r == 0)
					break;
				ck_assert_int_eq(r, OFL_EAGAIN);
				ck_assert_uint_eq(held, nslots); /* only when the pool is empty */
				same_counts(&it, got.n);       /* the position did not move */
				eagain++;
				/* TX completion: every slot back, oldest first */
				for (i = got.n - held; i < got.n; i++)
					ck_assert_int_eq(ofl_gso_pool_put(&pool, &got.seg[i].hdr), 0);
				held = 0;
			}
			ck_assert_uint_eq(got.n, ref.n);
			ck_assert_uint_eq(eagain, (ref.n - 1) / nslots);
			/* the bytes and slices (slots differ: fewer of them) */
			for (i = 0; i < got.n; i++) {
				got.seg[i].hdr = ref.seg[i].hdr;
				same_seg(i);
			}
		}
	}
}
END_TEST

/* ---- unnext of a burst's tail ---- */

/* Take a burst, give back its last m segments (the newest first), resume:
 * the same segments as the reference, every slot back. */
START_TEST(test_unnext_tail)
{
	int in = _i % IN_N, kind = kinds[_i / IN_N];
	unsigned bn, m;
	make_input(in, 0, 1);
	make_ref(kind);
	for (bn = 1; bn <= 20; bn += 3) {
		for (m = 1; m <= bn; m++) {
			struct ofl_gso_iter it;
			struct ofl_gso_pool pool;
			struct ofl_gso_seg segs[64];
			unsigned undone = 0;
			int r;
			begin(&it, &pool, kind, MAXSLOTS);
			while ((r = ofl_gso_next_burst(&it, &pool, segs, bn)) > 0) {
				unsigned back = 0;
				if (undone < 3 && (unsigned)r > m) {
					/* not the newest first: refused */
					ck_assert_int_eq(ofl_gso_unnext(&it, &pool, &segs[r - 1 - m]), OFL_EINVAL);
					for (back = 0; back < m; back++)
						ck_assert_int_eq(ofl_gso_unnext(&it, &pool, &segs[r - 1 - back]), 0);
					undone++;
				}
				keep_burst(&it, segs, (unsigned)r - back);
			}
			all_same(r); /* the slots too: each undone one comes again */
			all_back(&pool, kind);
		}
	}
}
END_TEST

/* ---- errors: where ofl_gso_next() fails, with nothing written ---- */

static const uint8_t poison = 0xa5;

static void poisoned(struct ofl_gso_seg *segs, unsigned n)
{
	memset(segs, poison, sizeof(*segs) * n);
}

static void untouched(const struct ofl_gso_seg *segs, unsigned n)
{
	const uint8_t *p = (const uint8_t *)segs;
	size_t i;
	for (i = 0; i < sizeof(*segs) * n; i++)
		ck_assert_uint_eq(p[i], poison);
}

START_TEST(test_errors)
{
	struct ofl_gso_iter it, zero;
	struct ofl_gso_pool pool, small, none;
	struct ofl_gso_seg segs[8];
	/* 64-byte slots: the 70-byte headers of a first IPv6 UDP fragment do
	 * not fit (the check is before the first segment, for every one) */
	make_input(IN_UDP6_FRAG, 0, 0);
	start(&it);
	ck_assert_int_eq(ofl_gso_pool_init_block(&small, block + 64 * SLOT, 4 * 64, 64), 0);
	ck_assert_int_eq(ofl_gso_check_pool(&it, &small), OFL_ENOSPC);
	poisoned(segs, 8);
	ck_assert_int_eq(ofl_gso_next_burst(&it, &small, segs, 8), OFL_ENOSPC);
	ck_assert_int_eq(ofl_gso_next(&it, &small, segs), OFL_ENOSPC);
	ck_assert_uint_eq(ofl_gso_pool_avail(&small), 4);
	untouched(segs, 8);

	make_input(IN_TCP4, 0, 0);
	make_ref(OFL_GSO_POOL_BLOCK);
	pool_make(&pool, OFL_GSO_POOL_BLOCK, 64, SLOT);
	memset(&none, 0, sizeof(none));
	memset(&zero, 0, sizeof(zero));
	start(&it);
	ck_assert_int_eq(ofl_gso_next_burst(NULL, &pool, segs, 8), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_next_burst(&it, NULL, segs, 8), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_next_burst(&it, &pool, NULL, 8), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_next_burst(&it, &pool, segs, 0), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_next_burst(&zero, &pool, segs, 8), OFL_EINVAL); /* not started */
	ck_assert_int_eq(ofl_gso_next(&zero, &pool, segs), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_next_burst(&it, &none, segs, 8), OFL_EINVAL); /* pool not set up */
	ck_assert_int_eq(ofl_gso_next(&it, &none, segs), OFL_EINVAL);
	untouched(segs, 8);
	same_counts(&it, 0);
	ck_assert_uint_eq(ofl_gso_pool_avail(&pool), 64);
	/* aborted: no segment left */
	ck_assert_int_eq(ofl_gso_next_burst(&it, &pool, segs, 8), 8);
	ck_assert_int_eq(ofl_gso_abort(&it), 46 - 8);
	ck_assert_int_eq(ofl_gso_next_burst(&it, &pool, segs, 8), 0);
	ck_assert_int_eq(ofl_gso_next(&it, &pool, segs), 0);
	ck_assert_uint_eq(ofl_gso_pool_avail(&pool), 64 - 8);
	/* ofl_gso_next()'s fast window (fast.h: the middle segments after the
	 * first) closed by an abort and by a start refused for its arguments:
	 * nothing more comes out of the iterator */
	start(&it);
	ck_assert_int_eq(ofl_gso_next(&it, &pool, segs), 1);
	ck_assert_int_eq(ofl_gso_next(&it, &pool, segs + 1), 1);
	ck_assert_int_eq(ofl_gso_abort(&it), 46 - 2);
	ck_assert_int_eq(ofl_gso_next(&it, &pool, segs + 2), 0);
	start(&it);
	ck_assert_int_eq(ofl_gso_next(&it, &pool, segs + 2), 1);
	ck_assert_int_eq(ofl_gso_next(&it, &pool, segs + 3), 1);
	ck_assert_int_lt(ofl_gso_start(&it, NULL, bufs, nbufs), 0);
	ck_assert_int_eq(ofl_gso_next(&it, &pool, segs + 4), 0);
	ck_assert_int_eq(ofl_gso_next_burst(&it, &pool, segs + 4, 4), 0);
	ck_assert_uint_eq(ofl_gso_pool_avail(&pool), 64 - 12);
	/* a BLOCK pool that runs out inside the window: the error, nothing
	 * built, then the next segment once a slot is back */
	pool_make(&pool, OFL_GSO_POOL_BLOCK, 4, SLOT);
	start(&it);
	for (unsigned k = 0; k < 4; k++) {
		ck_assert_int_eq(ofl_gso_next(&it, &pool, segs + k), 1);
		ck_assert_uint_eq(segs[k].index, k);
	}
	poisoned(segs + 4, 1);
	ck_assert_int_lt(ofl_gso_next(&it, &pool, segs + 4), 0);
	untouched(segs + 4, 1);
	same_counts(&it, 4);
	ck_assert_int_eq(ofl_gso_pool_put(&pool, &segs[1].hdr), 0);
	ck_assert_int_eq(ofl_gso_next(&it, &pool, segs + 4), 1);
	ck_assert_uint_eq(segs[4].index, 4);
	ck_assert_ptr_eq(segs[4].hdr.data, segs[1].hdr.data);
}
END_TEST

/* Slots of less than 128 bytes (here 96) take the general body even inside
 * ofl_gso_next()'s fast window, which copies 128 template bytes: headers
 * over 64 bytes (TCP/IPv6) and slots handed out in order, every byte of
 * the next slot but its free-list link untouched after each segment. */
START_TEST(test_small_slots_untouched)
{
	static uint8_t blk[48 * 96];
	struct ofl_gso_iter it;
	struct ofl_gso_pool pool;
	struct ofl_gso_seg s;
	unsigned k = 0, i;
	int r;
	make_input(IN_TCP6, 0, 0);
	memset(blk, 0xa5, sizeof(blk));
	ck_assert_int_eq(ofl_gso_pool_init_block(&pool, blk, sizeof(blk), 96), 0);
	start(&it);
	while ((r = ofl_gso_next(&it, &pool, &s)) == 1) {
		ck_assert_uint_gt(s.hdr_len, 64);
		ck_assert_uint_eq(s.hdr.index, k);
		for (i = 4; i < 96; i++)
			ck_assert_uint_eq(blk[(k + 1) * 96 + i], 0xa5);
		k++;
	}
	ck_assert_int_eq(r, 0);
	ck_assert_uint_eq(k, 46);
}
END_TEST

/* A FREELIST get() that hands out a buffer smaller than the slot size:
 * the burst stops before that segment (the buffer went back); when it is
 * the first of a call, OFL_EINVAL as ofl_gso_next() says, nothing taken. */
START_TEST(test_freelist_bad_buffer)
{
	struct ofl_gso_iter it;
	struct ofl_gso_pool pool;
	struct ofl_gso_seg segs[16];
	make_input(IN_UDP4_L4, 0, 0);
	make_ref(OFL_GSO_POOL_FREELIST);
	ck_assert_uint_eq(ref.n, 15);
	pool_make(&pool, OFL_GSO_POOL_FREELIST, 64, SLOT);
	fl.bad_at = 6; /* the 6th get */
	start(&it);
	ck_assert_int_eq(ofl_gso_next_burst(&it, &pool, segs, 16), 5);
	ck_assert_uint_eq(fl.puts, 1); /* the bad buffer went back */
	same_counts(&it, 5);
	ck_assert_int_eq(ofl_gso_next_burst(&it, &pool, segs + 5, 11), 10);
	ck_assert_int_eq(ofl_gso_next_burst(&it, &pool, segs, 16), 0);

	pool_make(&pool, OFL_GSO_POOL_FREELIST, 64, SLOT);
	fl.bad_at = 1;
	start(&it);
	ck_assert_int_eq(ofl_gso_next_burst(&it, &pool, segs, 16), OFL_EINVAL);
	ck_assert_uint_eq(fl.puts, 1);
	same_counts(&it, 0);
	ck_assert_int_eq(ofl_gso_next_burst(&it, &pool, segs, 16), 15);
}
END_TEST

/* The l2_fill hook refuses segment `refuse_at`: the burst stops before it,
 * the next call returns OFL_EBADMSG with the position unchanged and no slot
 * taken, and once the hook agrees the rest comes as with ofl_gso_next(). */
struct l2 {
	unsigned refuse_at, calls;
	int refuse;
};

static int l2_fill(void *user, uint8_t *hdr, uint32_t hdr_len, uint32_t k)
{
	struct l2 *l = user;
	(void)hdr_len;
	l->calls++;
	hdr[12] = (uint8_t)k; /* something per segment in the extra bytes */
	hdr[13] = 0xdd;
	return l->refuse && k == l->refuse_at;
}

START_TEST(test_l2_refused)
{
	struct l2 l = {0, 0, 0};
	unsigned bn = 1 + (unsigned)_i % 13, at = (unsigned)_i / 13 * 7;
	int kind = kinds[_i % 3];
	struct ofl_gso_iter it;
	struct ofl_gso_pool pool;
	struct ofl_gso_seg segs[64];
	unsigned i;
	int r, refused = 0;
	make_input(IN_TCP6, 0, 1);
	req.extra_l2_len = 2;
	req.extra_l2_off = 12;
	req.l2_fill = l2_fill;
	req.l2_user = &l;
	/* the reference: ofl_gso_next() with the same refusal (the refused
	 * segment's slot went back: which slot comes next is the pool's rule) */
	memset(&ref, 0, sizeof(ref));
	pool_make(&pool, kind, MAXSLOTS, SLOT);
	l.refuse = 1;
	l.refuse_at = at;
	start(&it);
	counts(&it, &ref.cnt[0]);
	while ((r = ofl_gso_next(&it, &pool, segs)) != 0) {
		if (r == OFL_EBADMSG) {
			ck_assert_uint_eq(ref.n, at);
			l.refuse = 0;
			continue;
		}
		ck_assert_int_eq(r, 1);
		keep(&ref, segs);
		counts(&it, &ref.cnt[ref.n]);
	}
	ck_assert_uint_gt(ref.n, at);

	l.refuse = 1;
	begin(&it, &pool, kind, MAXSLOTS);
	while ((r = ofl_gso_next_burst(&it, &pool, segs, bn)) != 0) {
		if (r == OFL_EBADMSG) {
			ck_assert_uint_eq(got.n, at);
			if (kind != OFL_GSO_POOL_FREELIST)
				ck_assert_uint_eq(ofl_gso_pool_avail(&pool), MAXSLOTS - got.n);
			same_counts(&it, got.n);
			l.refuse = 0;
			refused++;
			continue;
		}
		ck_assert_int_gt(r, 0);
		/* short only where the hook refused or at the end */
		if ((unsigned)r < bn)
			ck_assert(got.n + (unsigned)r == at || got.n + (unsigned)r == ref.n);
		keep_burst(&it, segs, (unsigned)r);
	}
	ck_assert_int_eq(refused, 1);
	ck_assert_uint_eq(got.n, ref.n);
	for (i = 0; i < got.n; i++) {
		same_seg(i);
		ck_assert_uint_eq(got.hdr[i][12], (uint8_t)i); /* the hook's bytes */
		ck_assert_uint_eq(got.hdr[i][13], 0xdd);
	}
}
END_TEST

/* ofl_gso_run() and mixing next and burst on one iterator. */
START_TEST(test_mixed)
{
	struct ofl_gso_iter it;
	struct ofl_gso_pool pool;
	struct ofl_gso_seg segs[64];
	unsigned step = 0;
	int r;
	make_input(IN_UDP6_FRAG, 1, 1);
	make_ref(OFL_GSO_POOL_BLOCK);
	begin(&it, &pool, OFL_GSO_POOL_BLOCK, MAXSLOTS);
	for (;;) {
		if (step++ % 2) {
			r = ofl_gso_next(&it, &pool, segs);
		} else {
			r = ofl_gso_next_burst(&it, &pool, segs, step % 5 + 1);
		}
		if (r <= 0)
			break;
		keep_burst(&it, segs, (unsigned)r);
	}
	all_same(r);
}
END_TEST

/* ---- the fast path against the general body ---- */

/* TCP and UDP L4 with partial checksums from a BLOCK pool of slots of at
 * least 128 bytes take the fast code (fast.h, fast.c: one_seg(), mid_fast(),
 * the window's win_seg()); an ARRAY pool of 120-byte slots takes the
 * general body (next_seg()).  _i: input (TCP4,
 * TCP6, UDP4 L4, UDP6 L4) x {one buffer, split, split with two empty
 * buffers at the end} x {no flags, OFL_GSO_F_KEEP_CWR | FIXED_ID}.  Each segment the same but for its slot, the
 * counts after it the same, and the iterators byte for byte the same
 * after every segment (cursor, release position). */
START_TEST(test_fast_equals_general)
{
	static const int ins[4] = {IN_TCP4, IN_TCP6, IN_UDP4_L4, IN_UDP6_L4};
	struct ofl_gso_iter a, b;
	struct ofl_gso_pool pa, pb;
	struct ofl_gso_seg sa, sb;
	static uint8_t blk_b[MAXSLOTS * 120];
	int in = ins[_i % 4], shape = _i / 4 % 3, ra, rb;
	unsigned n = 0;
	make_input(in, 0, shape > 0);
	if (_i >= 12)
		req.flags = OFL_GSO_F_KEEP_CWR | OFL_GSO_F_FIXED_ID;
	if (shape == 2) {
		bufs[nbufs].data = frame;
		bufs[nbufs++].len = 0;
		bufs[nbufs].data = NULL;
		bufs[nbufs++].len = 0;
	}
	pool_make(&pa, OFL_GSO_POOL_BLOCK, MAXSLOTS, SLOT);
	gu_pool_array(&pb, arr, blk_b, MAXSLOTS, 120);
	memset(&a, 0, sizeof(a)); /* the bytes start leaves alone the same too */
	memset(&b, 0, sizeof(b));
	start(&a);
	start(&b);
	for (;;) {
		struct ofl_gso_counts ca, cb;
		unsigned j;
		ra = ofl_gso_next(&a, &pa, &sa);
		rb = ofl_gso_next(&b, &pb, &sb);
		ck_assert_int_eq(ra, rb);
		ck_assert(memcmp(&a, &b, sizeof(a)) == 0);
		if (ra != 1)
			break;
		ck_assert_uint_eq(sa.index, n);
		ck_assert_uint_eq(sa.hdr_len, sb.hdr_len);
		ck_assert_uint_eq(sa.payload_len, sb.payload_len);
		ck_assert_uint_eq(sa.len, sb.len);
		ck_assert_uint_eq(sa.index, sb.index);
		ck_assert_uint_eq(sa.nsegs, sb.nsegs);
		ck_assert_uint_eq(sa.l3_off, sb.l3_off);
		ck_assert_uint_eq(sa.l4_off, sb.l4_off);
		ck_assert_uint_eq(sa.csum_start, sb.csum_start);
		ck_assert_uint_eq(sa.csum_offset, sb.csum_offset);
		ck_assert_uint_eq(sa.flags, sb.flags);
		ck_assert_uint_eq(sa.release_first, sb.release_first);
		ck_assert_uint_eq(sa.release_count, sb.release_count);
		ck_assert_uint_eq(sa.nslices, sb.nslices);
		for (j = 0; j < sa.nslices; j++) {
			ck_assert_ptr_eq(sa.slices[j].data, sb.slices[j].data);
			ck_assert_uint_eq(sa.slices[j].len, sb.slices[j].len);
			ck_assert_uint_eq(sa.slices[j].pkt, sb.slices[j].pkt);
			ck_assert_uint_eq(sa.slices[j].buf, sb.slices[j].buf);
		}
		ck_assert_mem_eq(sa.hdr.data, sb.hdr.data, sa.hdr_len);
		counts(&a, &ca);
		counts(&b, &cb);
		ck_assert(memcmp(&ca, &cb, sizeof(ca)) == 0);
		ck_assert_int_eq(ofl_gso_next_descs(&a), ofl_gso_next_descs(&b));
		n++;
	}
	ck_assert_int_eq(ra, 0);
	ck_assert_uint_gt(n, 2);
}
END_TEST

/* ---- IPv4 ID and header checksum stepped across a burst ---- */

/* The IPv4 header checksum of the 20 bytes at ip as the kernel writes it
 * (ip_send_check(): ~csum_fold of the header with the field 0, never
 * 0xffff for a header that is not all zero). */
static uint16_t ip4_csum(const uint8_t *ip)
{
	uint32_t s = 0, i;
	for (i = 0; i < 20; i += 2)
		if (i != 10)
			s += (uint32_t)ip[i] << 8 | ip[i + 1];
	while (s >> 16)
		s = (s & 0xffffu) + (s >> 16);
	return (uint16_t)~s;
}

/* The burst loop steps the ID by one and the checksum down by one between
 * the points where that is not exact (the ID wraps: the checksum stays; the
 * checksum passes 0: 0xfffe follows).  Every start ID from 0 to 0xffff in
 * steps of 41 (46 segments each: every ID and every checksum value is
 * met), bursts of 1..64 and single ofl_gso_next() calls mixed: each
 * segment's ID is the input's + its index (the same with
 * OFL_GSO_F_FIXED_ID on every 8th start) and its header checksum the one
 * computed from its bytes. */
START_TEST(test_ip4_id_steps)
{
	struct ofl_gso_pool pool;
	struct ofl_gso_seg segs[64];
	uint8_t *ip = frame + 14;
	uint32_t id0, n = 0;
	make_input(IN_TCP4, 0, 0);
	pool_make(&pool, OFL_GSO_POOL_BLOCK, MAXSLOTS, SLOT);
	for (id0 = 0; id0 <= 0xffffu; id0 += 41, n++) {
		struct ofl_gso_iter it;
		uint32_t k = 0, i, bn = 1 + n % 64;
		int fixed = n % 8 == 7, r;
		ip[4] = (uint8_t)(id0 >> 8);
		ip[5] = (uint8_t)id0;
		ip[10] = ip[11] = 0;
		ip[10] = (uint8_t)(ip4_csum(ip) >> 8);
		ip[11] = (uint8_t)ip4_csum(ip);
		req.flags = fixed ? OFL_GSO_F_FIXED_ID : 0;
		start(&it);
		for (;;) {
			r = n % 3 == 1 && k % 2 ? ofl_gso_next(&it, &pool, segs)
			                        : ofl_gso_next_burst(&it, &pool, segs, bn);
			if (r <= 0)
				break;
			for (i = 0; i < (unsigned)r; i++, k++) {
				const uint8_t *h = segs[i].hdr.data + 14;
				uint32_t id = (uint16_t)(fixed ? id0 : id0 + k);
				ck_assert_uint_eq(segs[i].index, k);
				ck_assert_uint_eq((uint32_t)h[4] << 8 | h[5], id);
				ck_assert_uint_eq((uint32_t)h[10] << 8 | h[11], ip4_csum(h));
			}
			for (i = 0; i < (unsigned)r; i++)
				ck_assert_int_eq(ofl_gso_pool_put(&pool, &segs[i].hdr), 0);
		}
		ck_assert_int_eq(r, 0);
		ck_assert_uint_eq(k, 46);
	}
}
END_TEST

/* ---- ofl_gso_next()'s window with the pool changing under it ---- */

/* The window (src/gso/fast.h) caches what its segments share but nothing
 * of the pool, which the caller may change between calls: here every
 * call takes the next of four pools, a BLOCK pool of 256-byte slots, a
 * BLOCK pool of 64-byte slots (for headers of 64 bytes or less: the
 * window's 64-byte copy fills the slot exactly), a RING pool and a
 * FREELIST one.  _i: TCP4, TCP6, UDP4 L4, UDP6 L4.  The record (poisoned
 * before each call) is the reference's but for its slot, which is the
 * pool's; the header bytes the reference's; in the 64-byte pool the next
 * slot's bytes but its free-list link untouched. */
START_TEST(test_window_pools)
{
	static const int ins[4] = {IN_TCP4, IN_TCP6, IN_UDP4_L4, IN_UDP6_L4};
	static uint8_t blk64[64 * 64], blk_ring[64 * SLOT];
	struct ofl_gso_pool pools[4];
	struct ofl_gso_iter it;
	struct ofl_gso_seg s;
	unsigned k = 0, n64 = 0, i;
	int r, small;
	make_input(ins[_i], 0, 0);
	make_ref(OFL_GSO_POOL_BLOCK);
	small = ref.seg[0].hdr_len <= 64;
	pool_make(&pools[0], OFL_GSO_POOL_BLOCK, MAXSLOTS / 2, SLOT);
	memset(blk64, 0xa5, sizeof(blk64));
	ck_assert_int_eq(ofl_gso_pool_init_block(&pools[1], blk64, sizeof(blk64), 64), 0);
	ck_assert_int_eq(ofl_gso_pool_init_ring(&pools[2], blk_ring, sizeof(blk_ring), SLOT), 0);
	memset(&fl, 0, sizeof(fl));
	for (i = 0; i < 64; i++)
		fl.stack[fl.top++] = MAXSLOTS - 1 - i; /* the block's last 64 slots */
	ck_assert_int_eq(ofl_gso_pool_init_freelist(&pools[3], SLOT, fl_get, fl_put, &fl), 0);
	start(&it);
	for (;;) {
		unsigned p = k % 4;
		const uint8_t *base;
		if (p == 1 && !small)
			p = 0;
		memset(&s, 0xa5, sizeof(s));
		r = ofl_gso_next(&it, &pools[p], &s);
		if (r != 1)
			break;
		ck_assert_uint_lt(k, ref.n);
		gu_seg_same_but_slot(&ref.seg[k], &s);
		ck_assert_mem_eq(s.hdr.data, ref.hdr[k], s.hdr_len);
		if (p != 3) {
			base = p == 0 ? block : p == 1 ? blk64 : blk_ring;
			ck_assert_uint_eq(s.hdr.size, p == 1 ? 64u : SLOT);
			ck_assert_ptr_eq(s.hdr.data, base + (size_t)s.hdr.index * s.hdr.size);
			ck_assert_uint_eq(s.hdr.offset, (uint64_t)s.hdr.index * s.hdr.size);
			ck_assert_ptr_null(s.hdr.cookie);
		}
		if (p == 1) {
			ck_assert_uint_eq(s.hdr.index, n64);
			for (i = 4; i < 64; i++)
				ck_assert_uint_eq(blk64[(n64 + 1) * 64 + i], 0xa5);
			n64++;
		}
		k++;
	}
	ck_assert_int_eq(r, 0);
	ck_assert_uint_eq(k, ref.n);
	ck_assert_uint_eq(n64 > 0, small);
}
END_TEST

/* ofl_gso_next() from a RING pool alone (its own window copies, iter.c
 * next_win_ring()): TCP4, TCP6, UDP4 L4, UDP6 L4, one buffer or several,
 * slots of 256 bytes or of 96 (a TCP/IPv6 header over 64 bytes then takes
 * the general body); 8 slots, so the pool runs out in the middle (EAGAIN,
 * nothing taken, the counts unchanged), the oldest come back and the next
 * call goes on; one segment in the middle taken back by ofl_gso_unnext()
 * and built again in the same slot.  Every segment the general body's
 * (an ARRAY pool) but for the slot, which is the ring's next. */
START_TEST(test_ring_iter)
{
	static const int ins[4] = {IN_TCP4, IN_TCP6, IN_UDP4_L4, IN_UDP6_L4};
	static uint8_t ring_mem[8 * SLOT];
	const uint32_t slot = (_i >> 2) & 1 ? 96u : SLOT;
	struct ofl_gso_pool ring;
	struct ofl_gso_iter it;
	struct ofl_gso_seg s;
	unsigned k = 0, again = 0, eagain = 0, inuse = 0, next_slot = 0;
	int r;
	make_input(ins[_i & 3], 0, _i >> 3);
	make_ref(OFL_GSO_POOL_ARRAY);
	ck_assert_int_eq(ofl_gso_pool_init_ring(&ring, ring_mem, 8u * slot, slot), 0);
	start(&it);
	for (;;) {
		memset(&s, 0xa5, sizeof(s));
		r = ofl_gso_next(&it, &ring, &s);
		if (r == OFL_EAGAIN) {
			struct ofl_gso_counts c;
			counts(&it, &c);
			ck_assert_uint_eq(c.segs_left, ref.n - k);
			ck_assert_uint_eq(ofl_gso_pool_avail(&ring), 0);
			ck_assert_int_eq(ofl_gso_pool_put_oldest(&ring, inuse), 0);
			inuse = 0;
			eagain++;
			continue;
		}
		if (r != 1)
			break;
		ck_assert_uint_lt(k, ref.n);
		gu_seg_same_but_slot(&ref.seg[k], &s);
		ck_assert_mem_eq(s.hdr.data, ref.hdr[k], s.hdr_len);
		ck_assert_uint_eq(s.hdr.index, next_slot);
		ck_assert_ptr_eq(s.hdr.data, ring_mem + (size_t)next_slot * slot);
		ck_assert_uint_eq(s.hdr.size, slot);
		ck_assert_ptr_null(s.hdr.cookie);
		if (k == ref.n / 2 && !again) {
			/* taken back: the same segment again, in the same slot */
			ck_assert_int_eq(ofl_gso_unnext(&it, &ring, &s), 0);
			again = 1;
			continue;
		}
		next_slot = (next_slot + 1) % 8;
		inuse++;
		k++;
	}
	ck_assert_int_eq(r, 0);
	ck_assert_uint_eq(k, ref.n);
	ck_assert_uint_gt(eagain, 0);
	ck_assert_uint_eq(again, 1);
}
END_TEST

H_MAIN("gso_burst", 120, 0, {test_burst_equals_next, IN_N * 4 * 3},
	{test_pool_runs_out, IN_N * 3}, {test_unnext_tail, IN_N * 3}, {test_errors, 0},
	{test_freelist_bad_buffer, 0}, {test_l2_refused, 13 * 6}, {test_mixed, 0},
	{test_ip4_id_steps, 0}, {test_fast_equals_general, 24}, {test_small_slots_untouched, 0},
	{test_window_pools, 4}, {test_ring_iter, 16})
