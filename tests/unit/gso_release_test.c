/*
 * gso_release_test.c - ofl_gso_seg.release_first/release_count are the same
 * for every pool kind (BLOCK, FREELIST, the caller's ARRAY, RING), every
 * way of taking segments (one by one, bursts of 2 and of 64, each segment
 * taken back and built again) and both checksum modes, and are exactly
 * gso.h's rule: each input buffer is in the range of the first segment
 * after which no segment uses it (header-only buffers: segment 0's).
 * The shape of fuzz_gso's finding (tests/fuzz/regress/gso/
 * release-range-fast-first-segment.bin): the headers spread over several
 * small buffers, the payload in a few large ones, where a BLOCK or RING
 * pool's first segment (the fast segment code) released nothing and the
 * header buffers went with the first segment that crossed a buffer, while
 * a FREELIST pool's first segment released them.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "gso_util.h"
#include "harness.h"

#define SLOT 192
#define NSLOTS 64
#define MSS 100u
#define PAYLOAD 1000u
#define NSEGS (PAYLOAD / MSS)
#define MAXB 10
#define E 0xffffffffu /* an empty buffer */

/* Buffer lengths of each layout (E: an empty buffer; 0 ends the list; one
 * more buffer takes the rest of the frame, if any).  The TCP/IPv4 headers
 * are 54 bytes. */
static const uint32_t layouts[][MAXB] = {
	{20, 10, 10, 10, 304, 250, 0}, /* the payload starts inside buffer 4 */
	{14, 20, 20, 400, 300, 0},     /* ... at the start of buffer 3 */
	{30, 24, 100, 150, 150, 0},    /* segment 0 is buffer 2, whole */
	{60, 0},                       /* ... inside buffer 0: nothing before it */
	{54, 1000, 0},                 /* the payload alone in buffer 1 */
	{E, 20, E, 34, 200, E, E, 300, E, 0}, /* empty buffers: with the one before */
	{54, 1000, E, E, 0},           /* ... also after the payload */
};
#define NLAYOUTS (sizeof(layouts) / sizeof(layouts[0]))

enum { K_BLOCK, K_FREELIST, K_ARRAY, K_RING, NKINDS };
enum { M_ONE, M_BURST2, M_BURST64, M_AGAIN, NMODES };

static uint8_t frame[2048];
static uint8_t block[NSLOTS * SLOT];
static struct ofl_gso_hbuf arr[NSLOTS];
static uint8_t *fl_free[NSLOTS];
static unsigned fl_n;

static int fl_get(void *user, struct ofl_gso_hbuf *hb)
{
	(void)user;
	if (!fl_n)
		return 1;
	hb->data = fl_free[--fl_n];
	hb->size = SLOT;
	hb->offset = (uint64_t)(hb->data - block);
	hb->cookie = NULL;
	return 0;
}

static void fl_put(void *user, const struct ofl_gso_hbuf *hb)
{
	(void)user;
	fl_free[fl_n++] = hb->data;
}

static void pool_make(struct ofl_gso_pool *p, int kind)
{
	unsigned i;
	if (kind == K_BLOCK) {
		ck_assert_int_eq(ofl_gso_pool_init_block(p, block, sizeof(block), SLOT), 0);
	} else if (kind == K_RING) {
		ck_assert_int_eq(ofl_gso_pool_init_ring(p, block, sizeof(block), SLOT), 0);
	} else if (kind == K_FREELIST) {
		for (fl_n = 0, i = 0; i < NSLOTS; i++)
			fl_free[fl_n++] = block + (size_t)(NSLOTS - 1 - i) * SLOT;
		ck_assert_int_eq(ofl_gso_pool_init_freelist(p, SLOT, fl_get, fl_put, NULL), 0);
	} else {
		gu_pool_array(p, arr, block, NSLOTS, SLOT);
	}
}

/* The rule, computed from the layout: the segment that releases buffer i
 * (its last byte's segment; buffers of header bytes only: segment 0; an
 * empty buffer: the one before it's, segment 0 for the first). */
static uint32_t rel_seg(const struct ofl_buf *b, uint32_t i, uint32_t pay0)
{
	uint32_t end = 0, j;
	while (i && b[i].len == 0)
		i--;
	for (j = 0; j <= i; j++)
		end += b[j].len;
	return end <= pay0 ? 0 : (end - 1u - pay0) / MSS;
}

/* Take the next segments (1..n of them by the mode) into segs. */
static unsigned take(struct ofl_gso_iter *it, struct ofl_gso_pool *pool, struct ofl_gso_seg *segs, int mode)
{
	int rc;
	if (mode == M_BURST2 || mode == M_BURST64) {
		rc = ofl_gso_next_burst(it, pool, segs, mode == M_BURST2 ? 2u : 64u);
		ck_assert_int_ge(rc, 0);
		return (unsigned)rc;
	}
	rc = ofl_gso_next(it, pool, &segs[0]);
	if (rc == 1 && mode == M_AGAIN) { /* taken back and built again */
		ck_assert_int_eq(ofl_gso_unnext(it, pool, &segs[0]), 0);
		ck_assert_int_eq(ofl_gso_next(it, pool, &segs[0]), 1);
	}
	ck_assert_int_ge(rc, 0);
	return (unsigned)rc;
}

START_TEST(test_release_same_for_every_pool)
{
	const int kind = _i % NKINDS, mode = (_i / NKINDS) % NMODES;
	const int partial = (_i / (NKINDS * NMODES)) % 2;
	const uint32_t lay = (uint32_t)_i / (NKINDS * NMODES * 2);
	struct gen_tcp g;
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct ofl_gso_pool pool;
	struct ofl_buf b[MAXB + 1];
	static struct ofl_gso_seg segs[64];
	uint32_t nb = 0, off = 0, flen, pay0, k = 0, rel = 0, i;
	gen_tcp_init(&g, 4);
	g.payload_len = PAYLOAD;
	g.flags = GEN_ACK;
	flen = (uint32_t)gen_tcp_frame(&g, frame, sizeof(frame));
	pay0 = flen - PAYLOAD;
	ck_assert_uint_eq(pay0, 54);
	for (i = 0; i < MAXB && layouts[lay][i]; i++) {
		b[nb].data = frame + off;
		b[nb].len = layouts[lay][i] == E ? 0 : layouts[lay][i];
		off += b[nb++].len;
	}
	if (off < flen) {
		b[nb].data = frame + off;
		b[nb++].len = flen - off;
		off = flen;
	}
	ck_assert_uint_eq(off, flen);
	ofl_gso_req_default(&req);
	req.seg_size = MSS;
	req.csum = partial ? OFL_CSUM_MODE_PARTIAL : OFL_CSUM_MODE_FULL;
	pool_make(&pool, kind);
	ck_assert_int_eq(ofl_gso_start(&it, &req, b, nb), 0);
	while (k < NSEGS) {
		unsigned n = take(&it, &pool, segs, mode), j;
		ck_assert_uint_ge(n, 1);
		for (j = 0; j < n; j++, k++) {
			const struct ofl_gso_seg *s = &segs[j];
			uint32_t want = 0;
			ck_assert_uint_eq(s->index, k);
			for (i = 0; i < nb; i++)
				want += rel_seg(b, i, pay0) == k;
			ck_assert_msg(s->release_first == rel && s->release_count == want,
			              "layout %u pool kind %d mode %d csum %s: segment %u releases %u+%u, %u+%u expected",
			              lay, kind, mode, partial ? "partial" : "full", k, s->release_first,
			              s->release_count, rel, want);
			/* nothing released before is used now */
			for (i = 0; i < s->nslices; i++)
				ck_assert_uint_ge(s->slices[i].buf, rel);
			rel += want;
		}
		if (kind == K_RING) {
			ck_assert_int_eq(ofl_gso_pool_put_oldest(&pool, n), 0);
		} else {
			for (j = 0; j < n; j++)
				ck_assert_int_eq(ofl_gso_pool_put(&pool, &segs[j].hdr), 0);
		}
	}
	ck_assert_uint_eq(rel, nb);
	ck_assert_int_eq(take(&it, &pool, segs, mode == M_AGAIN ? M_ONE : mode), 0);
}
END_TEST

H_MAIN("gso_release", 0, 0, {test_release_same_for_every_pool, NKINDS * NMODES * 2 * (int)NLAYOUTS})
