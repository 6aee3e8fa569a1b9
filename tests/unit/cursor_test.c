/*
 * cursor_test.c - the shared multi-buffer cursor (src/core/cursor.h) and the
 * checksums over it (ofl_csum_cursor(), ofl_csum_slices()): for every split
 * of a frame into 1 to 4 buffers (empty buffers included) and every byte
 * range of it, the bytes handed out (piece by piece, copied, or cut into
 * slices) are the frame's, and the checksum is the one of the same bytes
 * held contiguously; the same with the first buffer as a header in front
 * of the others (struct ofl_hcursor: a GRO packet, a GSO segment).
 */
#include <check.h>
#include <ofl/csum.h>
#include <string.h>

#include "core/cursor.h"
#include "harness.h"

#define FLEN 23u /* odd, so that pieces start at both parities */

static uint8_t frame[FLEN];

static void fill_frame(void)
{
	for (unsigned i = 0; i < FLEN; i++)
		frame[i] = (uint8_t)(0x9d * i + 0x31);
}

/* Split state: nb buffers with cut points cut[0..nb-2] (non-decreasing). */
struct split {
	unsigned nb;
	unsigned cut[3];
	struct ofl_buf b[4];
	struct ofl_slice s[4];
};

static void make_split(struct split *sp)
{
	unsigned from = 0;
	for (unsigned i = 0; i < sp->nb; i++) {
		unsigned to = i + 1 < sp->nb ? sp->cut[i] : FLEN;
		sp->b[i].data = frame + from;
		sp->b[i].len = to - from;
		sp->s[i].data = frame + from;
		sp->s[i].len = to - from;
		sp->s[i].pkt = (uint16_t)(7 + i); /* tags that ofl_cur_cut() must keep */
		sp->s[i].buf = (uint16_t)(100 + i);
		from = to;
	}
}

/* Calls fn for every split of the frame into 1..4 buffers; returns how many. */
static unsigned for_each_split(void (*fn)(const struct split *))
{
	struct split sp;
	unsigned count = 0;
	for (sp.nb = 1; sp.nb <= 4; sp.nb++) {
		unsigned a, b, c;
		unsigned amax = sp.nb > 1 ? FLEN : 0, bmax = sp.nb > 2 ? FLEN : 0, cmax = sp.nb > 3 ? FLEN : 0;
		for (a = 0; a <= amax; a++)
			for (b = sp.nb > 2 ? a : 0; b <= bmax; b++)
				for (c = sp.nb > 3 ? b : 0; c <= cmax; c++) {
					sp.cut[0] = a;
					sp.cut[1] = b;
					sp.cut[2] = c;
					make_split(&sp);
					fn(&sp);
					count++;
				}
	}
	return count;
}

/* The range cut into slices (ofl_cur_cut()) over the buffers (tags: pkt 5
 * and the buffer's index) or over the slices (tags: theirs): non-empty
 * pieces of the right chunks that together are the range, the count
 * without out the same, too small a cap refused, and the cursor left at
 * the byte after the range, past empty chunks. */
static unsigned cut_failures(const struct split *sp, unsigned off, unsigned len, unsigned want, int tags)
{
	struct ofl_slice out[4];
	struct ofl_cursor c = tags ? ofl_cur_slices(sp->s, sp->nb, off) : ofl_cur_bufs(sp->b, sp->nb, off);
	uint32_t ns = ofl_cur_cut(&c, len, tags, 5, out, 4), k, done = 0, at = 0;
	unsigned bad = 0;
	if (ns > sp->nb)
		return 1;
	for (k = 0; k < ns; k++) {
		unsigned bi = (unsigned)out[k].buf - (tags ? 100u : 0u);
		if (bi >= sp->nb || out[k].pkt != (tags ? 7 + bi : 5u) || out[k].len == 0 ||
		    out[k].data != frame + off + done || out[k].data < sp->b[bi].data ||
		    out[k].data + out[k].len > sp->b[bi].data + sp->b[bi].len)
			return 1;
		done += out[k].len;
	}
	bad += done != want;
	for (k = 0; k < c.i && k < sp->nb; k++)
		at += sp->b[k].len;
	bad += at + c.off != off + want || (c.i < sp->nb && c.off >= sp->b[c.i].len) || c.i > sp->nb;
	c = tags ? ofl_cur_slices(sp->s, sp->nb, off) : ofl_cur_bufs(sp->b, sp->nb, off);
	bad += ofl_cur_cut(&c, len, tags, 5, NULL, 0) != ns;
	if (ns > 1) {
		c = ofl_cur_bufs(sp->b, sp->nb, off);
		bad += ofl_cur_cut(&c, len, 0, 5, out, ns - 1) != UINT32_MAX;
	}
	return bad;
}

/* Where a header-plus-chunks cursor stands, as a byte of the frame. */
static unsigned hcur_at(const struct split *sp, const struct ofl_hcursor *h)
{
	unsigned at = h->hdr_len;
	if (h->hoff < h->hdr_len)
		return h->hoff;
	for (unsigned k = 1; k <= h->c.i && k < sp->nb; k++)
		at += sp->s[k].len;
	return at + h->c.off;
}

/* The same range with the first buffer as a contiguous header in front of
 * the other buffers' slices (struct ofl_hcursor): its pieces, copy, cut
 * (the header piece tagged pkt 5, buf 0), sum and the position after. */
static unsigned hcur_failures(const struct split *sp, unsigned off, unsigned len, unsigned want)
{
	const struct ofl_cursor rest = ofl_cur_slices(sp->s + 1, sp->nb - 1, 0);
	struct ofl_hcursor h = ofl_hcur(sp->b[0].data, sp->b[0].len, rest, off);
	struct ofl_slice out[4];
	uint8_t got[FLEN + 2];
	const uint8_t *p;
	uint32_t left = len, n, done = 0, ns, k;
	unsigned bad = hcur_at(sp, &h) != off;

	while ((n = ofl_hcur_piece(&h, &left, &p)) != 0) {
		if (p < frame || p + n > frame + FLEN || done + n > want)
			return bad + 1;
		memcpy(got + done, p, n);
		done += n;
	}
	bad += done != want || memcmp(got, frame + off, want) != 0 || hcur_at(sp, &h) != off + want;

	h = ofl_hcur(sp->b[0].data, sp->b[0].len, rest, off);
	bad += ofl_hcur_copy(&h, len, got) != want || memcmp(got, frame + off, want) != 0;

	h = ofl_hcur(sp->b[0].data, sp->b[0].len, rest, off);
	ns = ofl_hcur_cut(&h, len, 1, 5, out, 4);
	if (ns > sp->nb)
		return bad + 1;
	for (k = 0, done = 0; k < ns; k++) {
		int in_hdr = out[k].data + out[k].len <= frame + sp->b[0].len && sp->b[0].len;
		bad += out[k].len == 0 || out[k].data != frame + off + done ||
		       (in_hdr ? out[k].pkt != 5 || out[k].buf != 0 : out[k].buf < 101);
		done += out[k].len;
	}
	bad += done != want || hcur_at(sp, &h) != off + want;
	h = ofl_hcur(sp->b[0].data, sp->b[0].len, rest, off);
	bad += ofl_hcur_cut(&h, len, 1, 5, NULL, 0) != ns;
	if (ns > 1) {
		h = ofl_hcur(sp->b[0].data, sp->b[0].len, rest, off);
		bad += ofl_hcur_cut(&h, len, 1, 5, out, ns - 1) != UINT32_MAX;
	}

	h = ofl_hcur(sp->b[0].data, sp->b[0].len, rest, off);
	bad += ofl_csum_fold(ofl_csum_hcursor(&h, len)) != ofl_csum_fold(ofl_csum_partial(frame + off, want, 0));
	return bad;
}

/* Failures are counted with plain comparisons (a Check assertion per
 * range would cost more than the walk) and asserted per split. */
static unsigned range_failures(const struct split *sp, unsigned off, unsigned len)
{
	/* a range past the end stops at the end */
	unsigned want = off + len <= FLEN ? len : FLEN - off, bad = 0;
	uint8_t got[FLEN + 2];
	struct ofl_cursor c;
	const uint8_t *p;
	uint32_t left = len, n, done = 0, pieces = 0;

	/* piece by piece over buffers */
	c = ofl_cur_bufs(sp->b, sp->nb, off);
	while ((n = ofl_cur_piece(&c, &left, &p)) != 0) {
		bad += p < frame || p + n > frame + FLEN || done + n > want;
		if (bad)
			return bad;
		memcpy(got + done, p, n);
		done += n;
		pieces++;
	}
	bad += done != want || pieces > sp->nb || memcmp(got, frame + off, want) != 0;

	/* copy, over slices */
	memset(got, 0, sizeof got);
	c = ofl_cur_slices(sp->s, sp->nb, off);
	bad += ofl_cur_copy(&c, len, got) != want || memcmp(got, frame + off, want) != 0;

	bad += cut_failures(sp, off, len, want, 0) + cut_failures(sp, off, len, want, 1);
	bad += hcur_failures(sp, off, len, want);

	/* the checksum of the range, as if contiguous from an even offset */
	c = ofl_cur_bufs(sp->b, sp->nb, off);
	bad += ofl_csum_fold(ofl_csum_cursor(&c, len)) != ofl_csum_fold(ofl_csum_partial(frame + off, want, 0));
	return bad;
}

static void check_ranges(const struct split *sp)
{
	unsigned bad = 0, first_off = 0, first_len = 0;
	for (unsigned off = 0; off <= FLEN; off++)
		for (unsigned len = 0; off + len <= FLEN + 2; len++)
			if (range_failures(sp, off, len) && !bad++) {
				first_off = off;
				first_len = len;
			}
	ck_assert_msg(bad == 0, "%u buffers cut at %u/%u/%u: %u ranges wrong, the first [%u, +%u)", sp->nb,
	              sp->cut[0], sp->cut[1], sp->cut[2], bad, first_off, first_len);
}

START_TEST(cursor_every_split)
{
	fill_frame();
	/* 1 + 24 + 300 + 2600 splits */
	ck_assert_uint_eq(for_each_split(check_ranges), 1u + 24u + 300u + 2600u);
}
END_TEST

static void check_slices_sum(const struct split *sp)
{
	uint16_t whole = ofl_csum_fold(ofl_csum_partial(frame, FLEN, 0));
	/* the run on its own */
	ck_assert_uint_eq(ofl_csum_fold(ofl_csum_slices(sp->s, sp->nb, 0, 0)), whole);
	/* the run after a prefix of either parity already summed */
	for (unsigned pre = 0; pre <= 3; pre++) {
		uint8_t all[FLEN + 3] = {0x12, 0x34, 0x56};
		uint32_t s = ofl_csum_partial(all, pre, 0);
		memcpy(all + pre, frame, FLEN);
		ck_assert_uint_eq(ofl_csum_fold(ofl_csum_slices(sp->s, sp->nb, s, pre)),
		                  ofl_csum_fold(ofl_csum_partial(all, pre + FLEN, 0)));
	}
}

START_TEST(csum_slices_every_split)
{
	fill_frame();
	ck_assert_uint_eq(for_each_split(check_slices_sum), 1u + 24u + 300u + 2600u);
	/* nothing to add */
	ck_assert_uint_eq(ofl_csum_slices(NULL, 3, 0x1234, 0), 0x1234);
	ck_assert_uint_eq(ofl_csum_slices(NULL, 0, 0, 1), 0);
}
END_TEST

START_TEST(cursor_empty_frame)
{
	struct ofl_buf b[2] = {{NULL, 0}, {NULL, 0}};
	struct ofl_cursor c = ofl_cur_bufs(b, 2, 5);
	const uint8_t *p = NULL;
	uint32_t left = 4;
	ck_assert_uint_eq(ofl_cur_piece(&c, &left, &p), 0);
	ck_assert_uint_eq(left, 4);
	c = ofl_cur_bufs(b, 0, 0);
	ck_assert_uint_eq(ofl_csum_cursor(&c, 10), 0);
}
END_TEST

int main(void)
{
	const TTest *tests[] = {cursor_every_split, csum_slices_every_split, cursor_empty_frame};
	return h_run_tests("cursor", tests, sizeof tests / sizeof tests[0]);
}
