/*
 * gso_pool_test.c - header pools (block, free list, caller's array),
 * exhaustion and resume (pools of 1..N slots, rings that stop or refuse at
 * every position: resuming gives the same bytes as an uninterrupted run),
 * unnext, count, abort, and every "bad request" error with nothing emitted.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gso_util.h"
#include "harness.h"

#define NSEG 12
#define SLOT 192

static uint8_t frame[70000];
static size_t frame_len;
static uint8_t ref[NSEG][2000];
static uint32_t ref_len[NSEG];

static void make_frame(int l3, uint32_t payload)
{
	struct gen_tcp g;
	gen_tcp_init(&g, l3);
	g.payload_len = payload;
	g.flags = GEN_ACK | GEN_PSH;
	g.nvlan = 1;
	g.vlan_tci[0] = 5;
	frame_len = gen_tcp_frame(&g, frame, sizeof(frame));
}

static void start(struct ofl_gso_iter *it, const struct ofl_buf *b, unsigned nb)
{
	struct ofl_gso_req req;
	ofl_gso_req_default(&req);
	req.seg_size = 1000;
	ck_assert_int_eq(ofl_gso_start(it, &req, b, nb), 0);
}

/* The reference: one uninterrupted run (payload 11500 -> 12 segments). */
static void make_ref(void)
{
	struct ofl_buf b;
	struct ofl_gso_iter it;
	struct gu_segs *sg = calloc(1, sizeof(*sg));
	unsigned k;
	make_frame(4, 11500);
	b.data = frame;
	b.len = (uint32_t)frame_len;
	start(&it, &b, 1);
	ck_assert_int_eq(gu_collect(&it, sg, 64, SLOT), 0);
	ck_assert_uint_eq(sg->n, NSEG);
	for (k = 0; k < NSEG; k++) {
		memcpy(ref[k], sg->frame[k], sg->len[k]);
		ref_len[k] = sg->len[k];
	}
	gu_segs_free(sg);
	free(sg);
}

/* ---- three pool kinds over the same memory ---- */

static uint8_t block[64 * SLOT];
static struct ofl_gso_hbuf arr[64];

struct flist {
	unsigned n, cap, gets, puts;
	uint8_t *free_[64];
};

static int fl_get(void *user, struct ofl_gso_hbuf *hb)
{
	struct flist *f = user;
	if (!f->n)
		return 1;
	hb->data = f->free_[--f->n];
	hb->size = SLOT;
	hb->offset = (uint64_t)(hb->data - block);
	hb->cookie = f;
	f->gets++;
	return 0;
}

static void fl_put(void *user, const struct ofl_gso_hbuf *hb)
{
	struct flist *f = user;
	ck_assert_ptr_eq(hb->cookie, f);
	f->free_[f->n++] = hb->data;
	f->puts++;
}

static struct flist fl;

static void pool_make(struct ofl_gso_pool *p, int kind, uint32_t nslots)
{
	uint32_t i;
	if (kind == 0) {
		ck_assert_int_eq(ofl_gso_pool_init_block(p, block, (size_t)nslots * SLOT + SLOT - 1, SLOT), 0);
		ck_assert_uint_eq(ofl_gso_pool_avail(p), nslots);
	} else if (kind == 1) {
		memset(&fl, 0, sizeof(fl));
		for (i = 0; i < nslots; i++)
			fl.free_[fl.n++] = block + (size_t)i * SLOT;
		ck_assert_int_eq(ofl_gso_pool_init_freelist(p, SLOT, fl_get, fl_put, &fl), 0);
	} else {
		gu_pool_array(p, arr, block, nslots, SLOT);
	}
}

/* Pools of 1..N slots: take segments until the pool is empty, "complete" them
 * (check the bytes, put the slots back in order), resume. */
START_TEST(test_pool_exhaustion)
{
	int kind = _i % 3;
	uint32_t nslots = 1 + (uint32_t)(_i / 3);
	struct ofl_gso_pool pool;
	struct ofl_gso_iter it;
	struct ofl_buf b;
	struct ofl_gso_seg out[64];
	uint8_t lin[2000];
	unsigned got = 0, rounds = 0;
	make_ref();
	b.data = frame;
	b.len = (uint32_t)frame_len;
	pool_make(&pool, kind, nslots);
	start(&it, &b, 1);
	for (;;) {
		unsigned n = 0, i;
		int rc;
		while ((rc = ofl_gso_next(&it, &pool, &out[n])) == 1)
			n++;
		ck_assert(rc == 0 || rc == OFL_EAGAIN);
		ck_assert_uint_le(n, nslots);
		for (i = 0; i < n; i++) {
			size_t l = gu_linearize(&out[i], lin, sizeof(lin));
			ck_assert_uint_eq(out[i].index, got);
			ck_assert_uint_eq(l, ref_len[got]);
			ck_assert_mem_eq(lin, ref[got], l);
			if (kind == 0)
				ck_assert_uint_eq(out[i].hdr.offset, (uint64_t)out[i].hdr.index * SLOT);
			if (kind == 2)
				ck_assert_uint_eq(out[i].hdr.offset, 0x1000 + out[i].hdr.index);
			got++;
		}
		for (i = 0; i < n; i++)
			ck_assert_int_eq(ofl_gso_pool_put(&pool, &out[i].hdr), 0);
		rounds++;
		if (rc == 0)
			break;
		ck_assert_uint_lt(rounds, 100);
	}
	ck_assert_uint_eq(got, NSEG);
	ck_assert_int_eq(ofl_gso_next(&it, &pool, &out[0]), 0);
	if (kind != 1)
		ck_assert_uint_eq(ofl_gso_pool_avail(&pool), nslots);
	else
		ck_assert_uint_eq(fl.gets, fl.puts);
}
END_TEST

/* ---- a ring that stops (or refuses) at every position ---- */

struct ring {
	unsigned stop_at, got, calls;
	int mode; /* 0 STOP after taking, 1 REFUSE */
	struct ofl_gso_pool *pool;
};

static int on_seg(void *user, const struct ofl_gso_seg *s)
{
	struct ring *r = user;
	uint8_t lin[2000];
	size_t l;
	r->calls++;
	if (r->got == r->stop_at && r->mode == 1) {
		r->stop_at = ~0u;
		return OFL_GSO_CB_REFUSE;
	}
	l = gu_linearize(s, lin, sizeof(lin));
	ck_assert_uint_eq(s->index, r->got);
	ck_assert_uint_eq(l, ref_len[r->got]);
	ck_assert_mem_eq(lin, ref[r->got], l);
	ck_assert_int_eq(ofl_gso_pool_put(r->pool, &s->hdr), 0);
	if (r->got++ == r->stop_at && r->mode == 0) {
		r->stop_at = ~0u;
		return OFL_GSO_CB_STOP;
	}
	return OFL_GSO_CB_CONTINUE;
}

START_TEST(test_ring_stops)
{
	struct ofl_gso_pool pool;
	struct ofl_gso_iter it;
	struct ofl_buf b[3];
	struct ring r;
	struct ofl_gso_callbacks cb = { on_seg, &r };
	uint32_t em1, em2;
	int rc;
	unsigned pos = (unsigned)_i % NSEG;
	make_ref();
	/* the frame in three buffers this time */
	b[0].data = frame;
	b[0].len = 60;
	b[1].data = frame + 60;
	b[1].len = 5001;
	b[2].data = frame + 5061;
	b[2].len = (uint32_t)(frame_len - 5061);
	memset(&r, 0, sizeof(r));
	r.stop_at = pos;
	r.mode = _i >= NSEG;
	r.pool = &pool;
	pool_make(&pool, 0, 4);
	start(&it, b, 3);
	rc = ofl_gso_run(&it, &pool, &cb, &em1);
	if (r.mode == 0 && pos == NSEG - 1) {
		ck_assert_int_eq(rc, 0); /* stopped after the last one: done */
		ck_assert_uint_eq(em1, NSEG);
		return;
	}
	ck_assert_int_eq(rc, OFL_EAGAIN);
	ck_assert_uint_eq(em1, r.mode == 0 ? pos + 1 : pos);
	ck_assert_uint_eq(ofl_gso_pool_avail(&pool), 4); /* a refused slot came back */
	rc = ofl_gso_run(&it, &pool, &cb, &em2);
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(em1 + em2, NSEG);
	ck_assert_uint_eq(r.got, NSEG);
}
END_TEST

/* unnext gives the same segment again; count follows the position. */
START_TEST(test_unnext_count_abort)
{
	struct ofl_gso_pool pool;
	struct ofl_gso_iter it;
	struct ofl_buf b[2];
	struct ofl_gso_seg s1, s2;
	struct ofl_gso_counts c;
	uint8_t l1[2000], l2[2000];
	make_ref();
	b[0].data = frame;
	b[0].len = 2500;
	b[1].data = frame + 2500;
	b[1].len = (uint32_t)(frame_len - 2500);
	pool_make(&pool, 2, 8);
	start(&it, b, 2);
	ck_assert_int_eq(ofl_gso_count(&it, &c, sizeof c), 0);
	ck_assert_uint_eq(c.segs, NSEG);
	ck_assert_uint_eq(c.segs_left, NSEG);
	ck_assert_uint_eq(c.descs, NSEG + NSEG + 1); /* one segment spans both buffers */
	ck_assert_uint_eq(c.max_slices, 2);
	ck_assert_uint_eq(c.hdr_len, 14 + 4 + 20 + 20);
	ck_assert_int_eq(ofl_gso_next(&it, &pool, &s1), 1);
	ck_assert_int_eq(ofl_gso_next(&it, &pool, &s1), 1);
	ck_assert_int_eq(ofl_gso_next(&it, &pool, &s1), 1); /* segment 2 spans buffers */
	ck_assert_uint_eq(s1.nslices, 2);
	ck_assert_uint_eq(s1.release_first, 0);
	ck_assert_uint_eq(s1.release_count, 1); /* buffer 0 no longer needed */
	ck_assert_int_eq(ofl_gso_count(&it, &c, sizeof c), 0);
	ck_assert_uint_eq(c.segs_left, NSEG - 3);
	ck_assert_uint_eq(c.descs_left, 2 * (NSEG - 3));
	gu_linearize(&s1, l1, sizeof(l1));
	ck_assert_int_eq(ofl_gso_unnext(&it, &pool, &s1), 0);
	ck_assert_int_eq(ofl_gso_unnext(&it, &pool, &s1), OFL_EINVAL); /* only the last one */
	ck_assert_int_eq(ofl_gso_next(&it, &pool, &s2), 1);
	ck_assert_uint_eq(s2.index, 2);
	gu_linearize(&s2, l2, sizeof(l2));
	ck_assert_mem_eq(l1, l2, s2.len);
	ck_assert_mem_eq(l2, ref[2], ref_len[2]);
	ck_assert_uint_eq(s2.release_first, 0);
	ck_assert_uint_eq(s2.release_count, 1);
	ck_assert_int_eq(ofl_gso_abort(&it), NSEG - 3);
	ck_assert_int_eq(ofl_gso_next(&it, &pool, &s2), 0);
	ck_assert_int_eq(ofl_gso_abort(&it), 0);
}
END_TEST

/* Every bad request returns its own error and emits nothing. */
START_TEST(test_bad_requests)
{
	struct ofl_gso_pool pool;
	struct ofl_gso_iter it;
	struct ofl_gso_req req;
	struct ofl_gso_seg s;
	struct ofl_buf b = { frame, 0 };
	static struct ofl_buf tiny[4000];
	static uint8_t small[64 * 100];
	unsigned i;
	make_frame(4, 11500);
	b.len = (uint32_t)frame_len;
	ofl_gso_req_default(&req);
	/* segment size */
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EINVAL); /* 0 */
	req.seg_size = 65535 - 40 + 1;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EINVAL); /* larger than IPv4 allows */
	req.seg_size = 65535 - 40;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	req.seg_size = 1000;
	/* request struct */
	req.version = 99;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EINVAL);
	req.version = OFL_GSO_REQ_VERSION;
	req.csum = 7;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EINVAL);
	req.csum = 0;
	ck_assert_int_eq(ofl_gso_start(NULL, &req, &b, 1), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 0), OFL_EINVAL);
	/* headers that do not parse */
	frame[16] = 0x08; /* ethertype after the tag: ARP */
	frame[17] = 0x06;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EPROTO);
	frame[17] = 0x00;
	frame[18 + 20 + 12] = 0x10; /* TCP data offset 4 bytes */
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EPROTO);
	frame[18 + 20 + 12] = 0x50;
	b.len = 18 + 30; /* frame cut inside the TCP header */
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EBADMSG);
	/* payload does not match the IP length */
	b.len = (uint32_t)frame_len - 1;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EBADMSG);
	b.len = (uint32_t)frame_len + 1;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EBADMSG);
	b.len = (uint32_t)frame_len;
	/* IP fragment, three tags, tunnel protocol */
	frame[18 + 6] |= 0x20;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_ENOTSUP);
	frame[18 + 6] &= (uint8_t)~0x20;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	/* too many slices per segment: 1-byte buffers */
	for (i = 0; i < 4000 && i < frame_len; i++) {
		tiny[i].data = frame + i;
		tiny[i].len = 1;
	}
	{
		struct gen_tcp g;
		gen_tcp_init(&g, 4);
		g.payload_len = 3000;
		frame_len = gen_tcp_frame(&g, frame, sizeof(frame));
		ck_assert_int_eq(ofl_gso_start(&it, &req, tiny, (uint32_t)frame_len), OFL_E2BIG);
		req.seg_size = 32;
		ck_assert_int_eq(ofl_gso_start(&it, &req, tiny, (uint32_t)frame_len), 0);
		req.seg_size = 1000;
	}
	/* header slot too small: ENOSPC before anything is emitted */
	make_frame(6, 11500);
	b.len = (uint32_t)frame_len;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	ck_assert_int_eq(ofl_gso_pool_init_block(&pool, small, sizeof(small), 64), 0);
	ck_assert_int_eq(ofl_gso_check_pool(&it, &pool), OFL_ENOSPC);
	ck_assert_int_eq(ofl_gso_next(&it, &pool, &s), OFL_ENOSPC);
	ck_assert_uint_eq(ofl_gso_pool_avail(&pool), 100);
	{
		struct ofl_gso_counts c;
		ck_assert_int_eq(ofl_gso_count(&it, &c, sizeof c), 0);
		ck_assert_uint_eq(c.segs_left, NSEG);
	}
	ck_assert_int_eq(ofl_gso_pool_init_block(&pool, small, sizeof(small), 77), 0);
	ck_assert_int_eq(ofl_gso_next(&it, &pool, &s), OFL_ENOSPC); /* needs 14+4+40+20 = 78 */
	ck_assert_int_eq(ofl_gso_pool_init_block(&pool, small, sizeof(small), 78), 0);
	ck_assert_int_eq(ofl_gso_next(&it, &pool, &s), 1);
	ck_assert_uint_eq(s.index, 0);
}
END_TEST

START_TEST(test_pool_api)
{
	struct ofl_gso_pool p;
	struct ofl_gso_hbuf h, h2;
	static uint8_t blk[1000];
	ck_assert_int_eq(ofl_gso_pool_init_block(&p, blk, 63, 64), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_init_block(&p, blk, 1000, 32), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_init_block(&p, blk, 1000, 100), 0);
	ck_assert_uint_eq(ofl_gso_pool_avail(&p), 10);
	ck_assert_uint_eq(ofl_gso_pool_slot_size(&p), 100);
	ck_assert_int_eq(ofl_gso_pool_put(&p, &(struct ofl_gso_hbuf){ blk, 100, 0, 0, NULL }), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_get(&p, &h), 0);
	ck_assert_uint_eq(h.index, 0);
	ck_assert_int_eq(ofl_gso_pool_get(&p, &h2), 0);
	ck_assert_uint_eq(h2.offset, 100);
	h2.data++;
	ck_assert_int_eq(ofl_gso_pool_put(&p, &h2), OFL_EINVAL); /* not a slot start */
	h2.data--;
	ck_assert_int_eq(ofl_gso_pool_put(&p, &h2), 0);
	ck_assert_int_eq(ofl_gso_pool_seek(&p, 0), OFL_EINVAL); /* not an array */
	pool_make(&p, 2, 5);
	ck_assert_int_eq(ofl_gso_pool_seek(&p, 3), 0);
	ck_assert_int_eq(ofl_gso_pool_get(&p, &h), 0);
	ck_assert_uint_eq(h.index, 3);
	ck_assert_ptr_eq(h.data, arr[3].data);
	ck_assert_int_eq(ofl_gso_pool_seek(&p, 5), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_get(NULL, &h), OFL_EINVAL);
	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(ofl_gso_pool_get(&p, &h), OFL_EINVAL);
}
END_TEST

/* ofl_gso_pool_put_burst(): the same as one put per slot in order (the
 * same free list afterwards), stopping at the first slot refused; an ARRAY
 * pool through its own put. */
START_TEST(test_pool_put_burst)
{
	static uint8_t blk[10 * 128], blk2[10 * 128];
	struct ofl_gso_pool p, q;
	struct ofl_gso_hbuf h[6], x;
	unsigned i;
	ck_assert_int_eq(ofl_gso_pool_init_block(&p, blk, sizeof(blk), 128), 0);
	ck_assert_int_eq(ofl_gso_pool_init_block(&q, blk2, sizeof(blk2), 128), 0);
	for (i = 0; i < 6; i++)
		ck_assert_int_eq(ofl_gso_pool_get(&p, &h[i]), 0);
	for (i = 0; i < 6; i++)
		ck_assert_int_eq(ofl_gso_pool_get(&q, &x), 0);
	ck_assert_int_eq(ofl_gso_pool_put_burst(&p, h, 6), 6);
	for (i = 0; i < 6; i++) { /* the reference: one put each, blk2 */
		x = h[i];
		x.data = blk2 + (x.data - blk);
		ck_assert_int_eq(ofl_gso_pool_put(&q, &x), 0);
	}
	ck_assert_uint_eq(ofl_gso_pool_avail(&p), 10);
	for (i = 0; i < 10; i++) { /* the same slots come out in the same order */
		struct ofl_gso_hbuf a, b;
		ck_assert_int_eq(ofl_gso_pool_get(&p, &a), 0);
		ck_assert_int_eq(ofl_gso_pool_get(&q, &b), 0);
		ck_assert_uint_eq(a.index, b.index);
		if (i < 6)
			h[i] = a;
	}
	/* a slot that is not a slot start: the ones before it go back */
	h[3].data++;
	ck_assert_int_eq(ofl_gso_pool_put_burst(&p, h, 6), 3);
	ck_assert_uint_eq(ofl_gso_pool_avail(&p), 3);
	h[3].data--;
	ck_assert_int_eq(ofl_gso_pool_put_burst(&p, h + 3, 3), 3);
	ck_assert_uint_eq(ofl_gso_pool_avail(&p), 6);
	/* more puts than gets */
	ck_assert_int_eq(ofl_gso_pool_init_block(&p, blk, sizeof(blk), 128), 0);
	ck_assert_int_eq(ofl_gso_pool_put_burst(&p, h, 1), 0);
	ck_assert_int_eq(ofl_gso_pool_put_burst(&p, h, 0), 0);
	ck_assert_int_eq(ofl_gso_pool_put_burst(&p, NULL, 0), 0);
	ck_assert_int_eq(ofl_gso_pool_put_burst(&p, NULL, 1), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_put_burst(NULL, h, 1), OFL_EINVAL);
	/* an ARRAY pool: oldest first */
	pool_make(&p, 2, 5);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(ofl_gso_pool_get(&p, &h[i]), 0);
	ck_assert_int_eq(ofl_gso_pool_put_burst(&p, h + 1, 1), 0); /* neither oldest nor newest */
	ck_assert_int_eq(ofl_gso_pool_put_burst(&p, h, 4), 4);
	ck_assert_uint_eq(ofl_gso_pool_avail(&p), 5);
}
END_TEST

/* ofl_gso_pool_put_burst() on a BLOCK pool against one put per slot on a
 * twin pool, for the slots a burst hands back in order (consecutive, going
 * up or down: the checked-then-linked path) and for orders that are not
 * (shuffled, a slot taken twice, a gap, a wrong slot start or index at
 * each position): the same count put back, the same free slots handed out
 * in the same order afterwards.  _i: how many slots are put (1..30: the
 * checked-then-linked path takes 16 or more). */
START_TEST(test_pool_put_burst_runs)
{
	enum { NS = 40 };
	static uint8_t blk[NS * 128], blk2[NS * 128];
	const unsigned m = 1u + (unsigned)_i;
	unsigned pattern, bad;
	for (pattern = 0; pattern < 6; pattern++)
		for (bad = 0; bad <= m; bad++) {
			struct ofl_gso_pool p, q;
			struct ofl_gso_hbuf got[NS], byidx[NS], h[NS], x;
			unsigned i, n = 0, skip = 3u + pattern;
			int rq = 0;
			ck_assert_int_eq(ofl_gso_pool_init_block(&p, blk, sizeof(blk), 128), 0);
			ck_assert_int_eq(ofl_gso_pool_init_block(&q, blk2, sizeof(blk2), 128), 0);
			/* take a few, give them back in mixed order: the free list is
			 * not in slot order when the slots below are taken */
			for (i = 0; i < skip; i++) {
				ck_assert_int_eq(ofl_gso_pool_get(&p, &got[i]), 0);
				ck_assert_int_eq(ofl_gso_pool_get(&q, &x), 0);
			}
			for (i = 0; i < skip; i++) {
				unsigned j = (i * 2u + 1u) % skip;
				x = got[j];
				ck_assert_int_eq(ofl_gso_pool_put(&p, &x), 0);
				x.data = blk2 + (x.data - blk);
				ck_assert_int_eq(ofl_gso_pool_put(&q, &x), 0);
			}
			for (i = 0; i < NS; i++) {
				ck_assert_int_eq(ofl_gso_pool_get(&p, &got[i]), 0);
				ck_assert_int_eq(ofl_gso_pool_get(&q, &x), 0);
				ck_assert_uint_eq(got[i].index, x.index);
			}
			/* m slots out of the ones in use, in slot order going up or
			 * down (0, 1), or not (2: every other, 3: shuffled, 4: one
			 * twice, 5: in order with the last one a gap away) */
			for (i = 0; i < NS; i++) /* by slot index */
				byidx[got[i].index] = got[i];
			for (i = 0; i < m; i++) {
				unsigned s = 5u + i;
				if (pattern == 1)
					s = 5u + m - 1u - i;
				else if (pattern == 2)
					s = 2u + (2u * i) % NS;
				else if (pattern == 3)
					s = 4u + (i * 7u) % m;
				else if (pattern == 4)
					s = 5u + (i == m - 1u && m > 1 ? 0u : i);
				else if (pattern == 5)
					s = 5u + i + (i == m - 1u && m > 1 ? 1u : 0u);
				h[n++] = byidx[s % NS];
			}
			if (bad < m) { /* a wrong slot start, or a wrong index */
				if (bad & 1u)
					h[bad].data += 128;
				else
					h[bad].index ^= 1u;
			}
			for (i = 0; i < n; i++) { /* the reference: one put each */
				x = h[i];
				x.data = blk2 + (x.data - blk);
				if (ofl_gso_pool_put(&q, &x) != 0)
					break;
				rq++;
			}
			ck_assert_int_eq(ofl_gso_pool_put_burst(&p, h, n), rq);
			ck_assert_uint_eq(ofl_gso_pool_avail(&p), ofl_gso_pool_avail(&q));
			for (i = 0; i < (unsigned)rq; i++) { /* the same slots, the same order */
				struct ofl_gso_hbuf a, b;
				ck_assert_int_eq(ofl_gso_pool_get(&p, &a), 0);
				ck_assert_int_eq(ofl_gso_pool_get(&q, &b), 0);
				ck_assert_uint_eq(a.index, b.index);
			}
		}
}
END_TEST

/* A GRO packet as input (header + one slice per original segment, as
 * ofl_gro delivers it): a one-slot pool, and at every position the segment
 * is taken back once (unnext) before it is kept; the bytes equal the
 * reference, slices keep the GRO slices' pkt/buf tags and the release
 * ranges count the header as buffer 0. */
START_TEST(test_gro_input_resume)
{
	struct ofl_gso_pool pool;
	struct ofl_gso_iter it;
	struct ofl_gro_out o;
	struct ofl_slice sl[NSEG];
	struct ofl_gso_seg seg;
	uint8_t hdr[64], lin[2000];
	uint32_t hl = 14 + 4 + 20 + 20, k, rel = 0;
	make_ref();
	memcpy(hdr, frame, hl);
	memset(&o, 0, sizeof(o));
	for (k = 0; k < NSEG; k++) {
		sl[k].data = frame + hl + k * 1000;
		sl[k].len = k + 1 < NSEG ? 1000 : 500;
		sl[k].pkt = (uint16_t)k;
		sl[k].buf = 7;
	}
	o.hdr = hdr;
	o.hdr_len = hl;
	o.slices = sl;
	o.nslices = NSEG;
	o.len = (uint32_t)frame_len;
	o.seg_count = NSEG;
	o.seg_size = 1000;
	o.gso_type = OFL_GSO_TCPV4;
	pool_make(&pool, 0, 1);
	ck_assert_int_eq(ofl_gso_start_gro(&it, NULL, &o), 0);
	memset(hdr, 0xee, sizeof(hdr)); /* copied at start: may change now */
	for (k = 0; k < NSEG; k++) {
		ck_assert_int_eq(ofl_gso_next(&it, &pool, &seg), 1);
		/* one slot: the pool is empty (after the last segment: done) */
		ck_assert_int_eq(ofl_gso_next(&it, &pool, &seg), k + 1 < NSEG ? OFL_EAGAIN : 0);
		ck_assert_int_eq(ofl_gso_unnext(&it, &pool, &seg), 0);
		ck_assert_int_eq(ofl_gso_next(&it, &pool, &seg), 1);
		ck_assert_uint_eq(seg.index, k);
		ck_assert_uint_eq(gu_linearize(&seg, lin, sizeof(lin)), ref_len[k]);
		ck_assert_mem_eq(lin, ref[k], ref_len[k]);
		ck_assert_uint_eq(seg.nslices, 1);
		ck_assert_uint_eq(seg.slices[0].pkt, k);
		ck_assert_uint_eq(seg.slices[0].buf, 7);
		ck_assert_uint_eq(seg.release_first, rel);
		rel += seg.release_count;
		ck_assert_uint_eq(rel, k + 2 < NSEG + 1 ? k + 2 : NSEG + 1);
		ck_assert_int_eq(ofl_gso_pool_put(&pool, &seg.hdr), 0);
	}
	ck_assert_uint_eq(rel, NSEG + 1);
	ck_assert_int_eq(ofl_gso_next(&it, &pool, &seg), 0);
}
END_TEST

/* ARRAY pool order: the oldest slot comes back as the ring completes, the
 * newest as unnext takes it back (found by tests/fuzz/fuzz_gso.c: slot 0
 * handed out twice when unnext gave back the newest slot). */
START_TEST(test_array_order)
{
	struct ofl_gso_pool p;
	struct ofl_gso_hbuf a, b, c, d;
	pool_make(&p, 2, 3);
	ck_assert_int_eq(ofl_gso_pool_get(&p, &a), 0);
	ck_assert_int_eq(ofl_gso_pool_get(&p, &b), 0);
	ck_assert_int_eq(ofl_gso_pool_get(&p, &c), 0);
	ck_assert_int_eq(ofl_gso_pool_get(&p, &d), OFL_EAGAIN);
	ck_assert_int_eq(ofl_gso_pool_put(&p, &b), OFL_EINVAL); /* neither oldest nor newest */
	ck_assert_int_eq(ofl_gso_pool_put(&p, &c), 0);          /* newest: taken back */
	ck_assert_int_eq(ofl_gso_pool_get(&p, &d), 0);
	ck_assert_uint_eq(d.index, c.index);                     /* handed out again */
	ck_assert_int_eq(ofl_gso_pool_put(&p, &a), 0);          /* oldest: sent */
	ck_assert_int_eq(ofl_gso_pool_get(&p, &d), 0);
	ck_assert_uint_eq(d.index, a.index);                     /* the ring wraps */
	ck_assert_int_eq(ofl_gso_pool_get(&p, &d), OFL_EAGAIN);
	ck_assert_int_eq(ofl_gso_pool_put(&p, &b), 0);
	ck_assert_int_eq(ofl_gso_pool_put(&p, &c), 0);
	ck_assert_int_eq(ofl_gso_pool_put(&p, &a), 0);
	ck_assert_int_eq(ofl_gso_pool_put(&p, &a), OFL_EINVAL); /* more puts than gets */
	ck_assert_uint_eq(ofl_gso_pool_avail(&p), 3);
	/* a driver that seeks with slots in use keeps the order itself */
	ck_assert_int_eq(ofl_gso_pool_get(&p, &a), 0);
	ck_assert_int_eq(ofl_gso_pool_seek(&p, 0), 0);
	ck_assert_int_eq(ofl_gso_pool_get(&p, &b), 0);
	ck_assert_int_eq(ofl_gso_pool_put(&p, &b), 0);
	ck_assert_int_eq(ofl_gso_pool_put(&p, &a), 0);
	ck_assert_uint_eq(ofl_gso_pool_avail(&p), 3);
}
END_TEST

/* ofl_gso_unnext() of the only segment in use: an ARRAY pool hands the
 * same slot out again (the next ring descriptor stays in order), which
 * ofl_gso_pool_put() alone cannot tell from "sent". */
START_TEST(test_array_unnext_only_slot)
{
	struct ofl_gso_pool pool;
	struct ofl_gso_iter it;
	struct ofl_buf b;
	struct ofl_gso_seg s1, s2;
	uint32_t i;
	make_ref();
	b.data = frame;
	b.len = (uint32_t)frame_len;
	for (i = 0; i < 3; i++) {
		pool_make(&pool, 2, 4);
		start(&it, &b, 1);
		if (i) {
			/* slots ahead of the segment taken back were sent */
			uint32_t k;
			for (k = 0; k < i; k++) {
				ck_assert_int_eq(ofl_gso_next(&it, &pool, &s1), 1);
				ck_assert_int_eq(ofl_gso_pool_put(&pool, &s1.hdr), 0);
			}
		}
		ck_assert_int_eq(ofl_gso_next(&it, &pool, &s1), 1);
		ck_assert_uint_eq(ofl_gso_pool_avail(&pool), 3);
		ck_assert_int_eq(ofl_gso_unnext(&it, &pool, &s1), 0);
		ck_assert_uint_eq(ofl_gso_pool_avail(&pool), 4);
		ck_assert_int_eq(ofl_gso_next(&it, &pool, &s2), 1);
		ck_assert_uint_eq(s2.index, s1.index);
		ck_assert_uint_eq(s2.hdr.index, s1.hdr.index); /* the same descriptor again */
		ck_assert_uint_eq(s2.hdr.index, i);
	}
}
END_TEST

/* ofl_gso_run() stops when the pool runs dry (the callback keeps the slots,
 * as a driver does until TX completion) and resumes after slots come back. */
struct keep {
	struct ofl_gso_hbuf held[NSEG];
	unsigned n, got;
};

static int keep_seg(void *user, const struct ofl_gso_seg *s)
{
	struct keep *k = user;
	uint8_t lin[2000];
	size_t l = gu_linearize(s, lin, sizeof(lin));
	ck_assert_uint_eq(s->index, k->got);
	ck_assert_uint_eq(l, ref_len[k->got]);
	ck_assert_mem_eq(lin, ref[k->got], l);
	k->held[k->n++] = s->hdr;
	k->got++;
	return OFL_GSO_CB_CONTINUE;
}

START_TEST(test_run_pool_empty)
{
	struct ofl_gso_pool pool;
	struct ofl_gso_iter it;
	struct ofl_buf b;
	struct keep k;
	struct ofl_gso_callbacks cb = { keep_seg, &k };
	uint32_t em;
	unsigned rounds = 0, i;
	int rc;
	make_ref();
	b.data = frame;
	b.len = (uint32_t)frame_len;
	memset(&k, 0, sizeof(k));
	pool_make(&pool, _i, 5);
	start(&it, &b, 1);
	while ((rc = ofl_gso_run(&it, &pool, &cb, &em)) == OFL_EAGAIN) {
		ck_assert_uint_eq(em, 5);
		for (i = 0; i < k.n; i++) /* TX completion, oldest first */
			ck_assert_int_eq(ofl_gso_pool_put(&pool, &k.held[i]), 0);
		k.n = 0;
		ck_assert_uint_lt(++rounds, 10);
	}
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(em, NSEG % 5);
	ck_assert_uint_eq(k.got, NSEG);
	ck_assert_uint_eq(rounds, 2);
}
END_TEST

H_MAIN("gso_pool", 0, 0, {test_pool_exhaustion, 3 * 14}, {test_ring_stops, 2 * NSEG},
	{test_unnext_count_abort, 0}, {test_array_unnext_only_slot, 0},
	{test_gro_input_resume, 0}, {test_bad_requests, 0}, {test_pool_api, 0},
	{test_pool_put_burst, 0}, {test_pool_put_burst_runs, 30}, {test_array_order, 0}, {test_run_pool_empty, 3})
