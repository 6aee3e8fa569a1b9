/*
 * gro_csum_partial_test.c - segments received as OFL_CSUM_PARTIAL (virtio
 * NEEDS_CSUM: the TCP checksum field holds the pseudo-header seed): merged
 * without a software checksum, delivered partial with the right seed,
 * finished by linearize in full mode; a lone PARTIAL segment stays partial;
 * mixed statuses in one flow (gro_out.h); a NORMAL PARTIAL frame untouched.
 */
#include <check.h>
#include <ofl/csum.h>
#include <ofl/gro.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "harness.h"

static struct h_cap cap;


/* The CHECKSUM_PARTIAL seed of a linear untagged frame (IP at 14): the
 * folded pseudo-header sum, not inverted, in memory order. */
static uint16_t seed_of(const uint8_t *f, size_t len)
{
	uint8_t ph[40];
	size_t phl, l4;
	uint32_t l4_len;
	if ((f[14] >> 4) == 4) {
		l4 = 14 + (size_t)(f[14] & 15) * 4;
		memcpy(ph, f + 26, 8);
		phl = 12;
	} else {
		l4 = 54;
		memcpy(ph, f + 22, 32);
		phl = 40;
	}
	l4_len = (uint32_t)(len - l4);
	if (phl == 12) {
		ph[8] = 0;
		ph[9] = 6;
		ph[10] = (uint8_t)(l4_len >> 8);
		ph[11] = (uint8_t)l4_len;
	} else {
		ph[32] = (uint8_t)(l4_len >> 24);
		ph[33] = (uint8_t)(l4_len >> 16);
		ph[34] = (uint8_t)(l4_len >> 8);
		ph[35] = (uint8_t)l4_len;
		ph[36] = ph[37] = ph[38] = 0;
		ph[39] = 6;
	}
	return (uint16_t)~ofl_csum_fold(ofl_csum_partial(ph, phl, 0));
}

static size_t tcp_off(const uint8_t *f) { return (f[14] >> 4) == 4 ? 14 + (size_t)(f[14] & 15) * 4 : 54; }

static uint8_t frames[6][2000];

/* Frame k of a flow; with PARTIAL its checksum field holds the seed (what
 * a TUN device hands out), otherwise the full checksum. */
static size_t make(struct gen_tcp *gt, unsigned k, int status)
{
	size_t n = gen_tcp_frame(gt, frames[k], sizeof(frames[k]));
	if (status == OFL_CSUM_PARTIAL) {
		uint16_t s = seed_of(frames[k], n);
		memcpy(frames[k] + tcp_off(frames[k]) + 16, &s, 2);
	}
	return n;
}

/* A fresh capture and a context delivering into it; gt a flow of ACK
 * segments of payload bytes each. */
static struct ofl_gro *mk_flow(struct gen_tcp *gt, int l3, uint32_t payload)
{
	memset(&cap, 0, sizeof(cap));
	gen_tcp_init(gt, l3);
	gt->payload_len = payload;
	gt->flags = GEN_ACK;
	return h_gro_batch1(h_cap_deliver, &cap);
}

/* Make frame k with the given status, offer it, step to the next segment. */
static size_t next(struct ofl_gro *g, struct gen_tcp *gt, unsigned k, int status)
{
	size_t n = make(gt, k, status);
	if (status == OFL_CSUM_PARTIAL && gt->payload_len)
		ck_assert(!gen_frame_csums_ok(frames[k], n)); /* a seed, not a checksum */
	ck_assert_int_ge(h_receive1(g, frames[k], n, status, 0), 0);
	gt->seq += gt->payload_len;
	gt->ip_id++;
	return n;
}

static uint64_t csum_sw(const struct ofl_gro *g)
{
	struct ofl_gro_stats st;
	ck_assert_int_eq(ofl_gro_get_stats(g, &st, sizeof st), 0);
	return st.csum_sw;
}

/* Check a delivered GRO packet that is marked partial: the seed in the
 * partial copy, a valid checksum in the full one, the virtio header. */
static void check_partial(unsigned k, unsigned segs)
{
	const struct ofl_gro_out *o = &cap.out[k];
	uint16_t got;
	ck_assert_uint_eq(o->seg_count, segs);
	ck_assert(o->flags & OFL_GRO_OUT_F_CSUM_PARTIAL);
	ck_assert(o->flags & OFL_GRO_OUT_F_CSUM_VERIFIED);
	ck_assert(!(o->flags & OFL_GRO_OUT_F_CSUM_RX_PARTIAL));
	ck_assert_uint_eq(o->csum_start, o->l4_off);
	ck_assert_uint_eq(o->csum_offset, 16);
	ck_assert_uint_eq(o->csum_start, tcp_off(cap.part[k]));
	memcpy(&got, cap.part[k] + o->csum_start + 16, 2);
	ck_assert_uint_eq(got, seed_of(cap.part[k], (size_t)cap.len[k]));
	ck_assert(gen_frame_csums_ok(cap.full[k], (size_t)cap.len[k]));
	ck_assert(!gen_frame_csums_ok(cap.part[k], (size_t)cap.len[k]));
	ck_assert_int_eq(cap.vrc[k], 0);
	ck_assert_uint_eq(cap.vh[k].flags, 1); /* NEEDS_CSUM */
	ck_assert_uint_eq(cap.vh[k].csum_start, o->csum_start - 14);
	ck_assert_uint_eq(cap.vh[k].csum_offset, 16);
	if (segs > 1) {
		ck_assert_uint_eq(cap.vh[k].gso_type & 0x7f, o->l3_off == 14 && (cap.part[k][14] >> 4) == 6 ? 4 : 1);
		ck_assert_uint_eq(cap.vh[k].gso_size, o->seg_size);
		ck_assert_uint_eq(cap.vh[k].hdr_len, o->hdr_len - 14);
	} else {
		ck_assert_uint_eq(cap.vh[k].gso_type, 0);
		ck_assert_uint_eq(cap.vh[k].gso_size, 0);
	}
}

/* One packet of segs segments delivered, PARTIAL (check_partial()), after
 * sw software checksum checks. */
static void one_partial(struct ofl_gro *g, uint64_t sw, unsigned segs)
{
	ck_assert_uint_eq(cap.n, 1);
	ck_assert_uint_eq(csum_sw(g), sw);
	check_partial(0, segs);
}

START_TEST(partial_segments_merge)
{
	struct gen_tcp gt;
	struct ofl_gro *g = mk_flow(&gt, _i ? 6 : 4, 1000);
	unsigned k;
	for (k = 0; k < 4; k++) {
		if (k == 3)
			gt.flags |= GEN_PSH;
		next(g, &gt, k, OFL_CSUM_PARTIAL);
	}
	/* a software check would have failed on the seeds */
	one_partial(g, 0, 4);
	ofl_gro_destroy(g);
}
END_TEST

/* One PARTIAL segment alone: the kernel keeps its CHECKSUM_PARTIAL; so do we. */
START_TEST(lone_partial_segment)
{
	struct gen_tcp gt;
	struct ofl_gro *g = mk_flow(&gt, _i ? 6 : 4, 700);
	size_t n;
	n = next(g, &gt, 0, OFL_CSUM_PARTIAL);
	ck_assert_int_eq(ofl_gro_flush(g), 0);
	one_partial(g, 0, 1);
	ck_assert_uint_eq((unsigned)cap.len[0], n);
	ck_assert(memcmp(cap.part[0], frames[0], n) == 0); /* the seed as received */
	ofl_gro_destroy(g);
}
END_TEST

/* Two segments of one flow with every pair of statuses: always merged, the
 * merged packet partial with a fresh seed (whatever the mix), NONE segments
 * summed in software, the others not.  Loop index: first * 3 + second. */
START_TEST(mixed_statuses)
{
	static const int st[3] = {OFL_CSUM_NONE, OFL_CSUM_UNNECESSARY, OFL_CSUM_PARTIAL};
	int a = st[_i / 3], b = st[_i % 3];
	struct gen_tcp gt;
	struct ofl_gro *g = mk_flow(&gt, 4, 1200);
	next(g, &gt, 0, a);
	next(g, &gt, 1, b);
	ck_assert_int_eq(ofl_gro_flush(g), 0);
	one_partial(g, (uint64_t)((a == OFL_CSUM_NONE) + (b == OFL_CSUM_NONE)), 2);
	ofl_gro_destroy(g);
}
END_TEST

/* A lone segment follows its own status: UNNECESSARY is delivered verified
 * and not partial, its checksum as received. */
START_TEST(lone_verified_segment_not_partial)
{
	struct gen_tcp gt;
	struct ofl_gro *g = mk_flow(&gt, 4, 700);
	next(g, &gt, 0, OFL_CSUM_UNNECESSARY);
	ck_assert_int_eq(ofl_gro_flush(g), 0);
	ck_assert_uint_eq(cap.n, 1);
	ck_assert_uint_eq(cap.out[0].seg_count, 1);
	ck_assert(!(cap.out[0].flags & OFL_GRO_OUT_F_CSUM_PARTIAL));
	ck_assert(cap.out[0].flags & OFL_GRO_OUT_F_CSUM_VERIFIED);
	ck_assert(gen_frame_csums_ok(cap.full[0], (size_t)cap.len[0]));
	ck_assert_uint_eq(cap.vh[0].flags, 2); /* DATA_VALID */
	ofl_gro_destroy(g);
}
END_TEST

/* A PARTIAL frame GRO does not take (a pure ACK): untouched, marked
 * RX_PARTIAL, neither verified nor partial; no virtio header from us. */
START_TEST(normal_partial_untouched)
{
	struct gen_tcp gt;
	struct ofl_gro *g = mk_flow(&gt, 4, 0);
	uint8_t le[12];
	size_t n;
	n = make(&gt, 0, OFL_CSUM_PARTIAL);
	ck_assert_int_eq(h_receive1(g, frames[0], n, OFL_CSUM_PARTIAL, 0), OFL_GRO_NORMAL);
	ck_assert_uint_eq(cap.n, 1);
	ck_assert_uint_eq(cap.out[0].seg_count, 0);
	ck_assert_uint_eq(cap.out[0].flags & (OFL_GRO_OUT_F_CSUM_PARTIAL | OFL_GRO_OUT_F_CSUM_VERIFIED), 0);
	ck_assert(cap.out[0].flags & OFL_GRO_OUT_F_CSUM_RX_PARTIAL);
	ck_assert_uint_eq((unsigned)cap.len[0], n);
	ck_assert(memcmp(cap.full[0], frames[0], n) == 0);
	ck_assert(memcmp(cap.part[0], frames[0], n) == 0);
	ck_assert_int_eq(cap.vrc[0], OFL_ENOTSUP);
	memset(le, 0xee, sizeof(le));
	ck_assert_int_eq(ofl_gro_vnet_hdr_le(&cap.out[0], 14, le, 12), OFL_ENOTSUP);
	ck_assert_uint_eq(le[0], 0xee); /* not written */
	ofl_gro_destroy(g);
}
END_TEST

H_MAIN("gro_csum_partial", 0, 0, {partial_segments_merge, 2}, {lone_partial_segment, 2},
	{mixed_statuses, 9}, {lone_verified_segment_not_partial, 0}, {normal_partial_untouched, 0})
