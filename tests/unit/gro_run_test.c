/*
 * gro_run_test.c - the run of stage 3 (src/gro/merge.c): inside a train,
 * full-size segments taken by one masked compare against the expected next
 * header plus the sequence number and the IPv4 ID-to-checksum word.  Each
 * case feeds one flow with ofl_gro_receive_burst() in buffer layouts the
 * run takes (one buffer; header split; headers and some payload in the
 * first buffer) and ones it must leave to the train's general body (an
 * empty or NULL later buffer, a short segment in the middle, an IP ID that
 * wraps, a fixed ID), and checks the one packet that leaves: its segments,
 * length, slices (every one non-empty, pointing into its own buffer, in
 * segment order) and cookies.  As gro_burst_diff_run_test the same calls
 * run again as bursts of every size and as single frames
 * (support/burstdiff.h), which must deliver the same bytes and counters.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <ofl/gro.h>

#include "gen.h"
#include "harness.h"

#define NSEG 24u /* runs long enough for several rounds of src/gro/run1.c's loop */
#define MSS 999u /* odd: slices of odd lengths */
#define FRAME 1200u

enum layout {
	ONE,        /* the frame in one buffer */
	HDR_SPLIT,  /* headers, then the payload in three buffers */
	HDR_PAY,    /* headers and 100 payload bytes, then two buffers */
	EMPTY_MID,  /* as HDR_SPLIT, segment 4 with an empty third buffer */
	NULL_MID,   /* as HDR_SPLIT, segment 6 with a NULL empty third buffer */
	NLAYOUTS
};

struct got {
	unsigned pkts, segs, nslices, payload, cookies_ok, slices_ok;
	uint32_t len;
};

static uint8_t frames[NSEG][FRAME];
static uint32_t flen[NSEG];
static struct ofl_buf bufs[NSEG][4];
static struct ofl_pkt pkts[NSEG];
static uint32_t split_at = NSEG; /* ONE: this segment in two buffers (headers, payload) */

static void collect(void *user, const struct ofl_gro_out *o, unsigned n)
{
	struct got *g = user;
	unsigned k, s;
	for (k = 0; k < n; k++) {
		uint32_t sum = 0;
		int last = -1;
		g->pkts++;
		g->segs += o[k].seg_count;
		g->len = o[k].len;
		g->nslices += o[k].nslices;
		g->slices_ok = 1;
		for (s = 0; s < o[k].nslices; s++) {
			const struct ofl_slice *sl = &o[k].slices[s];
			const struct ofl_buf *b;
			sum += sl->len;
			/* non-empty, its segment's own buffer, in order */
			/* the input segment: its cookie is its index + 1 */
			uintptr_t seg = sl->pkt < o[k].ncookies ? (uintptr_t)o[k].cookies[sl->pkt] - 1u : NSEG;
			if (!sl->len || seg >= NSEG || (int)sl->pkt < last || sl->buf >= pkts[seg].nbufs) {
				g->slices_ok = 0;
				continue;
			}
			last = sl->pkt;
			b = &bufs[seg][sl->buf];
			if (sl->data < b->data || sl->data + sl->len > b->data + b->len)
				g->slices_ok = 0;
		}
		g->payload += sum;
		g->cookies_ok = o[k].ncookies == o[k].seg_count;
		/* in segment order: the first packet's from cookie 1 */
		for (s = 0; s < o[k].ncookies; s++)
			if (o[k].cookies[s] != (void *)(uintptr_t)(g->segs - o[k].seg_count + s + 1))
				g->cookies_ok = 0;
	}
}

/* NSEG segments of one flow; the last short when short_last, segment 5
 * short when short_mid; IP IDs from id0, fixed when fixed. */
static uint32_t make(int l3, uint16_t id0, int fixed, int short_last, int short_mid)
{
	struct gen_tcp g;
	uint32_t k, payload = 0;
	gen_tcp_init(&g, l3);
	g.seq = 0x7ffffe00u;
	g.ip_id = id0;
	for (k = 0; k < NSEG; k++) {
		g.payload_len = (short_last && k == NSEG - 1) || (short_mid && k == 5) ? MSS / 2 : MSS;
		flen[k] = (uint32_t)gen_tcp_frame(&g, frames[k], FRAME);
		ck_assert_uint_gt(flen[k], 0);
		payload += g.payload_len;
		g.seq += g.payload_len;
		if (!fixed)
			g.ip_id++;
	}
	return payload;
}

static void lay_out(enum layout lay, uint32_t hl)
{
	uint32_t k;
	for (k = 0; k < NSEG; k++) {
		uint8_t *f = frames[k];
		uint32_t pl = flen[k] - hl, a = pl / 3;
		struct ofl_buf *b = bufs[k];
		memset(&pkts[k], 0, sizeof pkts[k]);
		pkts[k].bufs = b;
		pkts[k].csum_status = OFL_CSUM_UNNECESSARY;
		pkts[k].cookie = (void *)(uintptr_t)(k + 1);
		if (lay == ONE) {
			b[0] = (struct ofl_buf){f, flen[k]};
			b[1] = (struct ofl_buf){f + hl, pl};
			b[0].len = k == split_at ? hl : flen[k];
			pkts[k].nbufs = k == split_at ? 2 : 1;
			continue;
		}
		pkts[k].nbufs = 4;
		if (lay == HDR_PAY) {
			b[0] = (struct ofl_buf){f, hl + 100};
			b[1] = (struct ofl_buf){f + hl + 100, pl / 2 - 100};
			b[2] = (struct ofl_buf){f + hl + pl / 2, pl - pl / 2};
			pkts[k].nbufs = 3;
			continue;
		}
		b[0] = (struct ofl_buf){f, hl};
		b[1] = (struct ofl_buf){f + hl, a};
		b[2] = (struct ofl_buf){f + hl + a, a};
		b[3] = (struct ofl_buf){f + hl + 2 * a, pl - 2 * a};
		if (lay == EMPTY_MID && k == 4) {
			b[1].len = 2 * a;
			b[2].len = 0;
		}
		if (lay == NULL_MID && k == 6) {
			b[1].len = 2 * a;
			b[2] = (struct ofl_buf){NULL, 0};
		}
	}
}

/* A context with the default configuration delivering into got (cleared). */
static struct ofl_gro *open_ctx(struct got *got)
{
	struct ofl_gro_config cfg;
	struct ofl_gro *gro;
	memset(got, 0, sizeof *got);
	ofl_gro_config_default(&cfg);
	cfg.deliver = collect;
	cfg.user = got;
	ck_assert_int_eq(ofl_gro_create(&cfg, &gro), 0);
	return gro;
}

/* Feed the flow (headers of hl bytes) in one burst; returns what left at
 * poll end. */
static struct got run(enum layout lay, uint32_t payload, uint32_t hl)
{
	struct ofl_gro *gro;
	struct got got;
	struct ofl_gro_stats st;
	int err = 0;
	lay_out(lay, hl);
	gro = open_ctx(&got);
	ck_assert_uint_eq(ofl_gro_receive_burst(gro, pkts, NSEG, 0, &err), NSEG);
	ck_assert_int_eq(err, 0);
	ck_assert_int_eq(ofl_gro_poll_end(gro, NSEG, 0, NULL), 0);
	ck_assert_int_eq(ofl_gro_get_stats(gro, &st, sizeof st), 0);
	ck_assert_uint_eq(st.rx_pkts, NSEG);
	ck_assert_uint_eq(st.out_segs, NSEG);
	ofl_gro_destroy(gro);
	ck_assert_uint_eq(got.payload, payload);
	ck_assert_uint_eq(got.segs, NSEG);
	ck_assert(got.slices_ok);
	return got;
}

/* Every layout, IPv4 and IPv6: one packet of NSEG segments. */
START_TEST(layouts)
{
	unsigned c;
	for (c = 0; c < 2 * NLAYOUTS; c++) {
		int l3 = c & 1 ? 6 : 4;
		enum layout lay = (enum layout)(c / 2);
		uint32_t payload = make(l3, 100, 0, 1, 0), hl = l3 == 4 ? 54u : 74u;
		struct got got = run(lay, payload, hl);
		ck_assert_uint_eq(got.pkts, 1);
		ck_assert(got.cookies_ok);
		ck_assert_uint_eq(got.len, hl + payload);
		/* three payload slices a segment, but where a buffer is empty */
		ck_assert_uint_eq(got.nslices, lay == ONE ? NSEG : lay >= EMPTY_MID ? 3 * NSEG - 1 : 3 * NSEG);
	}
}
END_TEST

/* IPv4 IDs that wrap inside the flow (the run is cut before the wrap) and
 * a fixed ID: one packet; a short segment in the middle ends the packet:
 * two.  Each in one buffer and header split. */
START_TEST(id_wrap_fixed_id_short_segment)
{
	static const struct {
		int l3;
		uint16_t id0;
		uint8_t fixed, short_mid, pkts;
	} c[] = {
	    {4, 0xfff8, 0, 0, 1}, {4, 0xffff, 0, 0, 1}, {4, 0xfffe, 0, 0, 1}, {4, 0, 1, 0, 1},
	    {4, 5, 0, 1, 2},      {6, 5, 0, 1, 2},
	};
	unsigned k;
	for (k = 0; k < 2 * sizeof c / sizeof c[0]; k++) {
		unsigned j = k / 2;
		uint32_t payload = make(c[j].l3, c[j].id0, c[j].fixed, !c[j].short_mid, c[j].short_mid);
		struct got got = run(k & 1 ? HDR_SPLIT : ONE, payload, c[j].l3 == 4 ? 54u : 74u);
		ck_assert_uint_eq(got.pkts, c[j].pkts);
		ck_assert(got.cookies_ok);
	}
}
END_TEST

/* The IPv4 segment after an ID wrap (0xffff -> 0) keeps the checksum of the
 * one before (0xffff and 0 are the same in ones' complement); one whose
 * checksum stepped down as for any other ID step is bad and must not merge:
 * the packet before it leaves, it is passed on, the rest is another packet
 * (the run, whose step would have expected that checksum, stops before the
 * wrap). */
START_TEST(ip_csum_after_id_wrap)
{
	unsigned k;
	for (k = 0; k < 2; k++) {
		struct got got;
		struct ofl_gro *gro;
		struct ofl_gro_stats st;
		uint32_t payload = make(4, 0xfff8, 0, 1, 0);
		uint16_t c7 = (uint16_t)(frames[7][24] << 8 | frames[7][25]);
		ck_assert_uint_eq(frames[8][18] << 8 | frames[8][19], 0); /* segment 8 has ID 0 */
		ck_assert_uint_eq(frames[8][24] << 8 | frames[8][25], c7);
		ck_assert_uint_gt(c7, 1);
		frames[8][24] = (uint8_t)((c7 - 1u) >> 8);
		frames[8][25] = (uint8_t)(c7 - 1u);
		lay_out(k ? HDR_SPLIT : ONE, 54);
		gro = open_ctx(&got);
		ck_assert_uint_eq(ofl_gro_receive_burst(gro, pkts, NSEG, 0, NULL), NSEG);
		ck_assert_int_eq(ofl_gro_poll_end(gro, NSEG, 0, NULL), 0);
		ck_assert_int_eq(ofl_gro_get_stats(gro, &st, sizeof st), 0);
		ck_assert_uint_eq(st.normal, 1);
		ofl_gro_destroy(gro);
		ck_assert_uint_eq(got.pkts, 3);
		ck_assert_uint_eq(got.segs, NSEG - 1); /* the passed-on frame: 0 */
		(void)payload;
	}
}
END_TEST

/* A later buffer that is NULL with bytes is the caller's error: the burst
 * stops at that frame (OFL_EINVAL), the frames before it are taken. */
START_TEST(null_buffer_with_bytes)
{
	struct ofl_gro *gro;
	struct got got;
	int err = 0;
	make(4, 1, 0, 1, 0);
	lay_out(HDR_SPLIT, 54);
	bufs[7][2].data = NULL;
	gro = open_ctx(&got);
	ck_assert_uint_eq(ofl_gro_receive_burst(gro, pkts, NSEG, 0, &err), 7);
	ck_assert_int_eq(err, OFL_EINVAL);
	ck_assert_int_eq(ofl_gro_poll_end(gro, 7, 0, NULL), 0);
	ofl_gro_destroy(gro);
	ck_assert_uint_eq(got.pkts, 1);
	ck_assert_uint_eq(got.segs, 7);
	ck_assert(got.slices_ok);
}
END_TEST

/* Every TCP header length (options of 0 to 40 bytes, NOPs), IPv4 and
 * IPv6, in one buffer: where the compare finds the sequence number and
 * the IPv4 word depends on it (src/gro/run1.c).  A segment whose sequence
 * number is one too far, or (IPv4) whose ID is, must not merge: the
 * packet before it leaves, and it starts the next (the segments after it
 * follow it). */
START_TEST(header_lengths_bad_seq_or_id)
{
	unsigned c;
	for (c = 0; c < 11 * 2 * 3; c++) {
		const int l3 = c & 1 ? 6 : 4, bad = (int)(c / 2 % 3); /* 0: none, 1: seq, 2: ID */
		const uint32_t optlen = 4u * (c / 6), hl = (l3 == 4 ? 54u : 74u) + optlen;
		struct gen_tcp g;
		struct got got;
		uint32_t k, payload = 0;
		if (bad == 2 && l3 == 6)
			continue;
		gen_tcp_init(&g, l3);
		memset(g.opts, 1, sizeof g.opts); /* NOP */
		g.optlen = (uint8_t)optlen;
		g.seq = 0xfffff000u; /* wraps inside the flow */
		g.ip_id = 0x1234;
		for (k = 0; k < NSEG; k++) {
			g.payload_len = k == NSEG - 1 ? MSS / 2 : MSS;
			g.seq += k == 7 && bad == 1;
			g.ip_id = (uint16_t)(g.ip_id + (k == 7 && bad == 2));
			flen[k] = (uint32_t)gen_tcp_frame(&g, frames[k], FRAME);
			ck_assert_uint_eq(flen[k], hl + g.payload_len);
			payload += g.payload_len;
			g.seq += g.payload_len;
			g.ip_id++;
		}
		got = run(ONE, payload, hl);
		ck_assert_uint_eq(got.pkts, bad ? 2 : 1);
		ck_assert(got.cookies_ok);
	}
}
END_TEST

/* As null_buffer_with_bytes, the one buffer of a frame anywhere after
 * the first NULL with a full segment's length, or the frame's bufs
 * pointer NULL (the run's checks before its compare, src/gro/run1.c,
 * refuse it GRO_AHEAD frames early). */
START_TEST(null_data_anywhere)
{
	uint32_t c;
	for (c = 2; c < 2 * NSEG; c++) {
		const uint32_t pos = c / 2;
		struct ofl_gro *gro;
		struct got got;
		int err = 0;
		make(4, 1, 0, 0, 0);
		lay_out(ONE, 54);
		if (c & 1)
			pkts[pos].bufs = NULL;
		else
			bufs[pos][0].data = NULL;
		gro = open_ctx(&got);
		ck_assert_uint_eq(ofl_gro_receive_burst(gro, pkts, NSEG, 0, &err), pos);
		ck_assert_int_eq(err, OFL_EINVAL);
		ck_assert_int_eq(ofl_gro_poll_end(gro, pos, 0, NULL), 0);
		ofl_gro_destroy(gro);
		ck_assert_uint_eq(got.segs, pos);
		ck_assert(got.slices_ok);
	}
}
END_TEST

/* One segment anywhere after the first that the run's checks before its
 * compare refuse (src/gro/run1.c makes them GRO_AHEAD frames early, as
 * it prefetches the header): a short one (it ends the packet: two, but
 * when it is the last) or one in two buffers (the train takes it all the
 * same: one packet); or one whose sequence number is one too far, which
 * the compare refuses (either frame of the run's compared pairs, in and
 * after its loop, or the one compared alone at its end): two packets, the
 * second from it on.  IPv4 and IPv6, the others in one buffer; as
 * gro_burst_diff_run_test, in bursts of every size too. */
START_TEST(short_or_split_segment_anywhere)
{
	unsigned c;
	for (c = 6; c < 6 * NSEG; c++) {
		const int l3 = c & 1 ? 6 : 4, kind = (int)(c / 2 % 3), split = kind == 1, bad = kind == 2;
		const uint32_t pos = c / 6, hl = l3 == 4 ? 54u : 74u;
		struct gen_tcp g;
		struct got got;
		uint32_t k, payload = 0, second = 0;
		gen_tcp_init(&g, l3);
		g.seq = 0xffffe000u; /* wraps inside the flow */
		g.ip_id = 7;
		for (k = 0; k < NSEG; k++) {
			g.payload_len = k == pos && !kind ? MSS / 2 : MSS;
			g.seq += k == pos && bad;
			flen[k] = (uint32_t)gen_tcp_frame(&g, frames[k], FRAME);
			ck_assert_uint_eq(flen[k], hl + g.payload_len);
			payload += g.payload_len;
			second += k >= pos ? g.payload_len : 0;
			g.seq += g.payload_len;
			g.ip_id++;
		}
		split_at = split ? pos : NSEG;
		got = run(ONE, payload, hl);
		split_at = NSEG;
		ck_assert_uint_eq(got.pkts, split || (!bad && pos == NSEG - 1) ? 1 : 2);
		if (bad)
			ck_assert_uint_eq(got.len, hl + second); /* the second: from the bad one on */
		ck_assert_uint_eq(got.nslices, NSEG);
		ck_assert(got.cookies_ok);
	}
}
END_TEST

int main(void)
{
	const TTest *tests[] = {layouts, id_wrap_fixed_id_short_segment, ip_csum_after_id_wrap,
	                            null_buffer_with_bytes, header_lengths_bad_seq_or_id,
	                            short_or_split_segment_anywhere, null_data_anywhere};
	return h_run_tests("gro_run", tests, sizeof tests / sizeof tests[0]);
}
