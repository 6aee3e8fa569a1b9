/*
 * gro_polls_test.c - many polls of interleaved new flows (the weave's new
 * flows, held out of the flow table, and the full flush of them at each
 * poll end: src/gro/flush_unidx.c): eight TCP flows round robin, each poll
 * a burst then ofl_gro_poll_end() (timeout 0), sixty polls on one context
 * of eight flows (a handful of entries: one lost from the free list at a
 * poll end would show within a few polls).  The flows have four segments a
 * poll (two merged packets a delivery list of eight segments), eight (one),
 * three, and some of them one segment only (a single segment at the flush:
 * deliver.c's way for it between the merged entries, before the first
 * list went out, after it, last, and several in a row), with delivery
 * lists of eight segments and of three.  Each run is made once as bursts
 * and once frame by frame (ofl_gro_receive()); both must deliver the same
 * packets (every field, header bytes, payload, cookies: outdigest.h; the
 * merged packets' lengths and checksums checked on their own too) in the
 * same lists,
 * nothing held after each poll end, and the same counters at the end.
 * And a poll of frames in three buffers then one of frames in one buffer
 * with a ninth flow among them (bufs_then_one_buffer: a weave slot's count
 * of extra slices from the first poll never counted in the second).
 */
#include <check.h>
#include <string.h>

#include <ofl/gro.h>

#include "gen.h"
#include "harness.h"
#include "outdigest.h"

#define FLOWS 8u
#define MAXSEG 8u
#define PFR (FLOWS * MAXSEG) /* frames a poll, at most */
#define POLLS 60u
#define MSS 1000u
#define FRAME 1200u

/* segments a poll of each flow, by shape */
static const unsigned shapes[][FLOWS] = {
    {4, 4, 4, 4, 4, 4, 4, 4}, /* two merged packets a list of eight */
    {8, 8, 8, 8, 8, 8, 8, 8}, /* one */
    {3, 3, 3, 3, 3, 3, 3, 3},
    {4, 4, 4, 1, 4, 4, 4, 4}, /* a single segment with a list begun */
    {4, 4, 1, 4, 4, 4, 4, 4}, /* ... after a list went out */
    {4, 4, 4, 4, 4, 4, 4, 1}, /* ... last */
    {4, 1, 1, 1, 1, 1, 1, 1}, /* ... several in a row */
    {4, 4, 1, 1, 4, 1, 4, 4},
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static uint8_t frames[POLLS][PFR][FRAME];
static struct ofl_buf bufs[POLLS][PFR];
static struct ofl_pkt pkts[POLLS][PFR];
static unsigned nfr[POLLS];
static struct ofl_buf sbufs[PFR][3]; /* (bufs_then_one_buffer: a frame in three buffers) */

/* A merged packet's IP length, IPv4 header checksum and TCP checksum field
 * (the pseudo-header sum, folded), from the header bytes alone. */
static void check_merged(const struct ofl_gro_out *r)
{
	const uint8_t *ip = r->hdr + r->l3_off, *th = r->hdr + r->l4_off;
	uint32_t l4_len = r->len - r->l4_off;
	uint8_t ph[40];
	size_t phl;
	ck_assert(r->flags & OFL_GRO_OUT_F_CSUM_PARTIAL);
	if ((ip[0] >> 4) == 4) {
		ck_assert_uint_eq((uint32_t)ip[2] << 8 | ip[3], r->len - r->l3_off);
		ck_assert_uint_eq(gen_csum_fold(ip, 20, 0), 0xffffu);
		phl = gen_pseudo_hdr(ph, ip, 4, l4_len, 6);
	} else {
		ck_assert_uint_eq((uint32_t)ip[4] << 8 | ip[5], r->len - r->l3_off - 40u);
		phl = gen_pseudo_hdr(ph, ip, 6, l4_len, 6);
	}
	ck_assert_uint_eq((uint32_t)th[16] << 8 | th[17], gen_csum_fold(ph, phl, 0));
}

/* Each list into the digest (outdigest.h), its merged packets checked. */
static void collect(void *user, const struct ofl_gro_out *p, unsigned n)
{
	unsigned k;
	for (k = 0; k < n; k++)
		if (p[k].seg_count > 1)
			check_merged(&p[k]);
	seen_deliver(user, p, n);
}

/* The polls' frames: FLOWS flows over IPv(l3), flow f with shape[f]
 * segments a poll, round robin (a flow with fewer left out of the later
 * rounds), one buffer each, checksum verified. */
static void make(const unsigned *shape, int l3)
{
	struct gen_tcp g[FLOWS];
	unsigned f, p, r;
	for (f = 0; f < FLOWS; f++) {
		gen_tcp_init(&g[f], l3);
		g[f].sport = (uint16_t)(3000 + 17 * f);
		g[f].seq = 5000u * f + 11u;
		g[f].ip_id = (uint16_t)(0xff00u + 5u * f);
		g[f].payload_len = MSS;
		g[f].flow_salt = f;
	}
	for (p = 0; p < POLLS; p++) {
		unsigned k = 0;
		for (r = 0; r < MAXSEG; r++)
			for (f = 0; f < FLOWS; f++) {
				size_t len;
				if (r >= shape[f])
					continue;
				len = gen_tcp_frame(&g[f], frames[p][k], FRAME);
				ck_assert_uint_gt(len, 0);
				g[f].seq += MSS;
				g[f].ip_id++;
				memset(&pkts[p][k], 0, sizeof pkts[p][k]);
				bufs[p][k] = (struct ofl_buf){frames[p][k], (uint32_t)len};
				pkts[p][k].bufs = &bufs[p][k];
				pkts[p][k].nbufs = 1;
				pkts[p][k].csum_status = OFL_CSUM_UNNECESSARY;
				pkts[p][k].cookie = (void *)(uintptr_t)(p * PFR + k + 1);
				k++;
			}
		nfr[p] = k;
	}
}

/* One run of the polls (burst: a burst a poll, else a call a frame); what
 * left, and the counters at the end. */
static void run(int burst, unsigned batch, struct seen *o, struct ofl_gro_stats *st)
{
	struct ofl_gro_config cfg;
	struct ofl_gro *gro;
	unsigned p, k;
	int err = 0;
	ofl_gro_config_default(&cfg);
	cfg.max_flows = FLOWS; /* (a handful of entries) */
	cfg.normal_batch = (uint16_t)batch;
	cfg.deliver = collect;
	cfg.user = o;
	memset(o, 0, sizeof *o);
	ck_assert_int_eq(ofl_gro_create(&cfg, &gro), 0);
	for (p = 0; p < POLLS; p++) {
		uint64_t now = 1000u * p;
		if (burst) {
			ck_assert_uint_eq(ofl_gro_receive_burst(gro, pkts[p], nfr[p], now, &err), nfr[p]);
			ck_assert_int_eq(err, 0);
		} else {
			for (k = 0; k < nfr[p]; k++)
				ck_assert_int_ge(ofl_gro_receive(gro, &pkts[p][k], now), 0);
		}
		ck_assert_int_eq(ofl_gro_poll_end(gro, nfr[p], now, NULL), 0);
		ck_assert_int_eq(ofl_gro_get_stats(gro, st, sizeof *st), 0);
		ck_assert_uint_eq(st->flows_held, 0);
		ck_assert_uint_eq(st->bytes_held, 0);
	}
	ofl_gro_destroy(gro);
	/* what gro.h lets differ */
	st->lookups = st->lookup_probes = st->merged_fast = 0;
}

START_TEST(polls_burst_equals_single_frames)
{
	const unsigned batches[2] = {8, 3};
	unsigned c;
	for (c = 0; c < 2 * 2 * NSHAPES; c++) {
		const unsigned s = c % NSHAPES, batch = batches[c / NSHAPES % 2];
		const int l3 = c < 2 * NSHAPES ? 4 : 6;
		struct ofl_gro_stats sa, sb;
		struct seen a, b;
		unsigned want = 0, f;
		make(shapes[s], l3);
		run(1, batch, &a, &sa);
		run(0, batch, &b, &sb);
		ck_assert_msg(a.h == b.h && a.lists == b.lists && a.pkts == b.pkts,
		              "IPv%d, shape %u, lists of %u: bursts and single frames differ", l3, s, batch);
		ck_assert_msg(memcmp(&sa, &sb, sizeof sa) == 0, "IPv%d, shape %u, lists of %u: counters differ", l3, s,
		              batch);
		for (f = 0; f < FLOWS; f++)
			want += shapes[s][f];
		/* every frame left, one packet a flow a poll */
		ck_assert_uint_eq(sa.rx_pkts, (uint64_t)want * POLLS);
		ck_assert_uint_eq(sa.out_segs, (uint64_t)want * POLLS);
		ck_assert_uint_eq(a.segs, want * POLLS);
		ck_assert_uint_eq(a.pkts, FLOWS * POLLS);
	}
}
END_TEST

/* A frame of flow t (IPv4, 54 header bytes) into poll 0's slot k: in
 * three buffers (the headers, the payload's halves) with split, else one. */
static void frame_at(struct gen_tcp *t, unsigned k, int split)
{
	size_t len = gen_tcp_frame(t, frames[0][k], FRAME);
	ck_assert_uint_gt(len, 54u + MSS / 2u);
	t->seq += MSS;
	t->ip_id++;
	memset(&pkts[0][k], 0, sizeof pkts[0][k]);
	pkts[0][k].bufs = split ? sbufs[k] : &bufs[0][k];
	pkts[0][k].nbufs = split ? 3 : 1;
	pkts[0][k].csum_status = OFL_CSUM_UNNECESSARY;
	pkts[0][k].cookie = (void *)(uintptr_t)(k + 1);
	bufs[0][k] = (struct ofl_buf){frames[0][k], (uint32_t)len};
	sbufs[k][0] = (struct ofl_buf){frames[0][k], 54};
	sbufs[k][1] = (struct ofl_buf){frames[0][k] + 54, MSS / 2u};
	sbufs[k][2] = (struct ofl_buf){frames[0][k] + 54 + MSS / 2u, (uint32_t)len - 54u - MSS / 2u};
}

/* A poll of eight flows' frames in three buffers each (the weave's copy
 * for several buffers: each flow's slot counts the slices beyond one a
 * frame, struct wflow xs), then a poll of the same flows in one buffer
 * with a ninth flow's frame after their first round: where its slot is
 * one of theirs (the hash of its ports: for one of the sixteen ninth
 * flows tried, at least, whatever the hash), the weave's new-flow loop
 * stops there and that slot's flow leaves as another joins (weave.c
 * weave_join()), its slice count by the one-buffer rule (the slot's xs of
 * the last poll not counted).  Bursts and frame by frame must deliver the
 * same. */
START_TEST(bufs_then_one_buffer)
{
	unsigned x;
	for (x = 0; x < 16; x++) {
		struct seen o[2];
		struct ofl_gro_stats st[2];
		unsigned burst;
		for (burst = 0; burst < 2; burst++) {
			struct ofl_gro_config cfg;
			struct ofl_gro *gro;
			struct gen_tcp g[FLOWS + 1];
			unsigned f, r, p, k;
			for (f = 0; f <= FLOWS; f++) {
				gen_tcp_init(&g[f], 4);
				g[f].sport = (uint16_t)(f < FLOWS ? 3000 + 17 * f : 5000 + 31 * x);
				g[f].seq = 5000u * f + 11u;
				g[f].payload_len = MSS;
				g[f].flow_salt = f;
			}
			ofl_gro_config_default(&cfg);
			cfg.deliver = collect;
			cfg.user = &o[burst];
			memset(&o[burst], 0, sizeof o[burst]);
			ck_assert_int_eq(ofl_gro_create(&cfg, &gro), 0);
			for (p = 0; p < 2; p++) {
				k = 0;
				for (r = 0; r < 4; r++) {
					for (f = 0; f < FLOWS; f++)
						frame_at(&g[f], k++, p == 0);
					if (p == 1 && r == 0)
						frame_at(&g[FLOWS], k++, 0);
				}
				if (burst) {
					ck_assert_uint_eq(ofl_gro_receive_burst(gro, pkts[0], k, p, NULL), k);
				} else {
					for (r = 0; r < k; r++)
						ck_assert_int_ge(ofl_gro_receive(gro, &pkts[0][r], p), 0);
				}
				ck_assert_int_eq(ofl_gro_poll_end(gro, k, p, NULL), 0);
			}
			ck_assert_int_eq(ofl_gro_get_stats(gro, &st[burst], sizeof st[burst]), 0);
			ofl_gro_destroy(gro);
			st[burst].lookups = st[burst].lookup_probes = st[burst].merged_fast = 0;
		}
		ck_assert_msg(o[0].h == o[1].h && o[0].lists == o[1].lists && o[0].pkts == o[1].pkts,
		              "ninth flow %u: bursts and single frames differ", x);
		ck_assert_msg(memcmp(&st[0], &st[1], sizeof st[0]) == 0, "ninth flow %u: counters differ", x);
		ck_assert_uint_eq(o[1].segs, 2 * 4 * FLOWS + 1);
	}
}
END_TEST

int main(void)
{
	const TTest *tests[] = {polls_burst_equals_single_frames, bufs_then_one_buffer};
	return h_run_tests("gro_polls", tests, sizeof tests / sizeof tests[0]);
}
