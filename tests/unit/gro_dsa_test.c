/*
 * gro_dsa_test.c - GRO through a DSA tag: for every tag format that can
 * carry a source port, a bulk TCP stream tagged for one port merges exactly
 * as the untagged stream does (same packets, same bytes once untagged), two
 * ports with the same 5-tuple never merge together, keep-tag mode delivers
 * the super-packet with the first segment's tag, and frames without a
 * valid tag pass untouched.  UDP GRO behind a tag (ofl_gro_config.udp):
 * every rule of the UDP rule table (gro_udp_rules.h) played through each
 * tag format, with software or NIC-verified checksums, decides, counts
 * and delivers exactly as the same rule untagged, and the source port is
 * part of a UDP flow as of a TCP one.
 */
#include <check.h>
#include <ofl/dsa.h>
#include <ofl/gro.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gather.h"
#include "gen.h"
#include "gro_udp_rules.h"
#include "harness.h"

#define MAXF 64
#define FLEN 2200

struct col {
	unsigned n;
	uint8_t frame[MAXF][70000];
	uint32_t len[MAXF];
	uint16_t segs[MAXF];
	int has_meta[MAXF];
	struct ofl_dsa_meta meta[MAXF];
	unsigned cookies;
};

static struct col plain, tagged;

static void deliver(void *user, const struct ofl_gro_out *p, unsigned n)
{
	struct col *c = user;
	unsigned i;
	for (i = 0; i < n; i++) {
		unsigned k = c->n++;
		ck_assert_uint_lt(k, MAXF);
		c->len[k] = (uint32_t)ofl_gro_linearize(&p[i], c->frame[k], sizeof(c->frame[k]),
		                                         OFL_CSUM_MODE_FULL);
		ck_assert_uint_eq(c->len[k], p[i].len);
		c->segs[k] = p[i].seg_count;
		c->has_meta[k] = p[i].dsa != NULL;
		if (p[i].dsa)
			c->meta[k] = *p[i].dsa;
		c->cookies += p[i].seg_count ? p[i].seg_count : 1;
	}
}

/* A context delivering into c: cfg (NULL: the defaults), ops and keep. */
static struct ofl_gro *mk_cfg(struct col *c, const struct ofl_gro_config *base,
                              const struct ofl_dsa_ops *ops, int keep)
{
	struct ofl_gro_config cfg;
	struct ofl_gro *g;
	/* (the frames beyond c->n are never read: not cleared, 4.5 MB) */
	c->n = c->cookies = 0;
	memset(c->len, 0, sizeof(c->len));
	memset(c->segs, 0, sizeof(c->segs));
	memset(c->has_meta, 0, sizeof(c->has_meta));
	memset(c->meta, 0, sizeof(c->meta));
	if (base)
		cfg = *base;
	else
		ofl_gro_config_default(&cfg);
	cfg.deliver = deliver;
	cfg.user = c;
	cfg.dsa = ops;
	cfg.dsa_keep_tag = (uint8_t)keep;
	ck_assert_int_eq(ofl_gro_create(&cfg, &g), 0);
	return g;
}

static struct ofl_gro *mk(struct col *c, const struct ofl_dsa_ops *ops, int keep)
{
	return mk_cfg(c, NULL, ops, keep);
}

static uint8_t bufs[MAXF][FLEN];

/* Tag an untagged frame for RX from port into dst (FLEN bytes); returns
 * the tagged frame. */
static const uint8_t *tag_into(const struct ofl_dsa_ops *ops, uint8_t *dst, const uint8_t *f,
                               uint32_t n, unsigned port, uint32_t *out_len)
{
	struct ofl_dsa_meta m;
	uint32_t off = 64, len = n;
	memset(&m, 0, sizeof(m));
	m.valid = OFL_DSA_M_PORT;
	m.port = (uint8_t)port;
	if (ops->rx_prios) {
		m.valid |= OFL_DSA_M_PRIO;
		m.prio = 0;
	}
	memcpy(dst + off, f, n);
	if (ofl_dsa_encode(ops, NULL, OFL_DSA_RX, &m, dst, FLEN, &off, &len) == OFL_ENOTSUP) {
		/* formats that must name a switch too (netc: a non-zero id) */
		m.valid |= OFL_DSA_M_SWITCH;
		m.switch_id = 1;
		ck_assert_int_eq(ofl_dsa_encode(ops, NULL, OFL_DSA_RX, &m, dst, FLEN, &off, &len), 0);
	}
	*out_len = len;
	return dst + off;
}

static const uint8_t *tag_frame(const struct ofl_dsa_ops *ops, unsigned slot, const uint8_t *f,
                                uint32_t n, unsigned port, uint32_t *out_len)
{
	return tag_into(ops, bufs[slot], f, n, port, out_len);
}

/* How frames are offered (the loop tests run each format in each mode):
 * 0: checksums verified in software, one ofl_gro_receive() per frame (the
 *    full path); 1: checksums verified by the NIC, one call per frame
 *    (header prediction behind the tag); 2: NIC-verified, queued and
 *    offered in one ofl_gro_receive_burst() per context before it is
 *    destroyed (the burst's train loop behind the tag). */
static int rx_mode;

struct rxq {
	struct ofl_gro *g;
	unsigned n;
	struct ofl_buf b[MAXF];
	struct ofl_pkt p[MAXF];
};
static struct rxq rq[2];

/* One frame, one buffer, to ofl_gro_receive() (or queued: q). */
static int rx_one(struct ofl_gro *g, const uint8_t *f, uint32_t n, unsigned cookie, uint8_t csum,
                  struct rxq *q)
{
	struct ofl_buf b = {f, n};
	struct ofl_pkt p;
	memset(&p, 0, sizeof(p));
	p.bufs = &b;
	p.nbufs = 1;
	p.cookie = (void *)(uintptr_t)cookie;
	p.csum_status = csum;
	if (q) {
		q->g = g;
		q->b[q->n] = b;
		q->p[q->n] = p;
		q->p[q->n].bufs = &q->b[q->n];
		q->n++;
		return 0;
	}
	return ofl_gro_receive(g, &p, 0);
}

static void rx(struct ofl_gro *g, const uint8_t *f, uint32_t n, unsigned cookie)
{
	uint8_t csum = rx_mode ? OFL_CSUM_UNNECESSARY : OFL_CSUM_NONE;
	if (rx_mode == 2) {
		struct rxq *q = rq[0].g == g || !rq[0].g ? &rq[0] : &rq[1];
		ck_assert(q->g == g || !q->g);
		ck_assert_uint_lt(q->n, MAXF);
		rx_one(g, f, n, cookie, csum, q);
		return;
	}
	ck_assert_int_ge(rx_one(g, f, n, cookie, csum, NULL), 0);
}

/* A context into tagged for ops (keep: dsa_keep_tag) and an IPv4 flow g. */
static struct ofl_gro *mk_flow(struct gen_tcp *g, const struct ofl_dsa_ops *ops, int keep)
{
	gen_tcp_init(g, 4);
	return mk(&tagged, ops, keep);
}

/* Frame k of flow g, tagged for port, into gt (cookie k); then the flow
 * steps to its next segment when step. */
static void rx_tagged(struct ofl_gro *gt, const struct ofl_dsa_ops *ops, struct gen_tcp *g, unsigned k,
                      unsigned port, int step)
{
	uint8_t f[FLEN];
	uint32_t n = (uint32_t)gen_tcp_frame(g, f, sizeof(f)), tl;
	const uint8_t *t = tag_frame(ops, k, f, n, port, &tl);
	rx(gt, t, tl, k);
	if (step) {
		g->seq += g->payload_len;
		g->ip_id++;
	}
}

/* Offer what rx() queued for g (mode 2), then destroy it. */
static void done(struct ofl_gro *g)
{
	unsigned i;
	int err;
	for (i = 0; i < 2; i++) {
		if (rq[i].g != g)
			continue;
		ck_assert_uint_eq(ofl_gro_receive_burst(g, rq[i].p, rq[i].n, 0, &err), rq[i].n);
		ck_assert_int_eq(err, 0);
		memset(&rq[i], 0, sizeof(rq[i]));
	}
	ofl_gro_destroy(g);
}

/* Header prediction took every frame after the first (modes 1 and 2):
 * for every format with ports, the tag and MACs repeat and the untagged
 * header is contiguous after them. */
static void check_fast(struct ofl_gro *g, const struct ofl_dsa_ops *ops, unsigned nframes)
{
	struct ofl_gro_stats st;
	unsigned i;
	if (!rx_mode)
		return;
	for (i = 0; i < 2; i++) {
		if (rq[i].g != g)
			continue;
		ck_assert_uint_eq(ofl_gro_receive_burst(g, rq[i].p, rq[i].n, 0, NULL), rq[i].n);
		memset(&rq[i], 0, sizeof(rq[i]));
	}
	ofl_gro_get_stats(g, &st, sizeof st);
	ck_assert_msg(st.merged_fast == nframes - 1, "%s, mode %d: %llu of %u frames predicted", ops->name,
	              rx_mode, (unsigned long long)st.merged_fast, nframes - 1);
}

/* formats whose RX tag names a source port */
static const struct ofl_dsa_ops *fmt(int i)
{
	const struct ofl_dsa_ops *o;
	rx_mode = i / (int)ofl_dsa_count();
	o = ofl_dsa_at((size_t)(i % (int)ofl_dsa_count()));
	if (!o || o->rx_ports < 3 || (o->flags & OFL_DSA_F_NO_PORTS))
		return NULL;
	return o;
}

START_TEST(merges_like_untagged)
{
	const struct ofl_dsa_ops *ops = fmt(_i);
	struct ofl_gro *gp, *gt;
	struct gen_tcp g;
	uint8_t f[FLEN];
	unsigned k;
	if (!ops)
		return;
	gp = mk(&plain, NULL, 0);
	gt = mk(&tagged, ops, 0);
	gen_tcp_init(&g, _i & 1 ? 6 : 4);
	g.payload_len = 1400;
	for (k = 0; k < 12; k++) {
		uint32_t n = (uint32_t)gen_tcp_frame(&g, f, sizeof(f)), tl;
		const uint8_t *t;
		memcpy(bufs[k + 32], f, n); /* the plain copy must outlive delivery */
		rx(gp, bufs[k + 32], n, k);
		t = tag_frame(ops, k, f, n, 2, &tl);
		rx(gt, t, tl, k);
		g.seq += 1400;
		g.ip_id++;
	}
	check_fast(gt, ops, 12);
	done(gp);
	done(gt);
	ck_assert_uint_eq(tagged.cookies, 12);
	ck_assert_uint_eq(plain.n, tagged.n);
	ck_assert_uint_eq(plain.n, 1);
	for (k = 0; k < plain.n; k++) {
		ck_assert_uint_eq(plain.segs[k], tagged.segs[k]);
		ck_assert_uint_eq(plain.len[k], tagged.len[k]);
		ck_assert_msg(memcmp(plain.frame[k], tagged.frame[k], plain.len[k]) == 0,
		              "%s: untagged super-packet differs", ops->name);
		ck_assert(tagged.has_meta[k]);
		ck_assert(tagged.meta[k].valid & OFL_DSA_M_PORT);
		ck_assert_uint_eq(tagged.meta[k].port, 2);
	}
}
END_TEST

/* Two ports, the same addresses and ports: TCP (udp 0) or UDP with UDP
 * GRO on (udp 1). */
static void ports_apart(const struct ofl_dsa_ops *ops, int udp)
{
	struct ofl_gro_config cfg;
	struct ofl_gro *gt;
	struct gen_tcp g;
	unsigned k;
	ofl_gro_config_default(&cfg);
	cfg.udp = (uint8_t)udp;
	gen_tcp_init(&g, 4);
	g.udp = udp != 0;
	gt = mk_cfg(&tagged, &cfg, ops, 0);
	for (k = 0; k < 8; k++) /* each segment from port 1, then port 2 */
		rx_tagged(gt, ops, &g, k, 1 + (k & 1), k & 1);
	done(gt);
	ck_assert_uint_eq(tagged.n, 2);
	ck_assert_uint_eq(tagged.segs[0], 4);
	ck_assert_uint_eq(tagged.segs[1], 4);
	ck_assert_uint_eq(tagged.meta[0].port, 1);
	ck_assert_uint_eq(tagged.meta[1].port, 2);
}

START_TEST(ports_never_merge)
{
	const struct ofl_dsa_ops *ops = fmt(_i);
	if (!ops)
		return;
	ports_apart(ops, 0);
	ports_apart(ops, 1);
}
END_TEST

START_TEST(keep_tag_mode)
{
	const struct ofl_dsa_ops *ops = fmt(_i);
	struct ofl_gro *gt;
	struct gen_tcp g;
	struct ofl_dsa_meta m;
	unsigned k;
	if (!ops)
		return;
	gt = mk_flow(&g, ops, 1);
	for (k = 0; k < 3; k++)
		rx_tagged(gt, ops, &g, k, 3, 1);
	done(gt);
	ck_assert_uint_eq(tagged.n, 1);
	ck_assert_uint_eq(tagged.segs[0], 3);
	/* the delivered super-packet still carries a valid tag for port 3,
	 * and once untagged its checksums are right (a tail tag must not be
	 * summed into the TCP checksum) */
	{
		struct ofl_dsa_view v;
		struct ofl_buf pc[2];
		static uint8_t u[70000];
		ck_assert_int_eq(ofl_dsa_decode(ops, NULL, OFL_DSA_RX, tagged.frame[0], tagged.len[0], &m, &v), 0);
		ck_assert_uint_eq(m.port, 3);
		ck_assert_int_eq(ofl_dsa_untagged(tagged.frame[0], tagged.len[0], &v, pc), 2);
		ck_assert_msg(gen_frame_csums_ok(u, gather(pc, 2, u)), "%s: bad checksum", ops->name);
	}
}
END_TEST

START_TEST(bad_tag_untouched)
{
	/* brcm: a plain IPv4 frame puts its 0x45 on the tag's reserved reason
	 * bits, which the kernel's .rcv refuses */
	const struct ofl_dsa_ops *ops = ofl_dsa_find("brcm");
	struct ofl_gro *gt;
	struct gen_tcp g;
	struct ofl_gro_stats st;
	uint8_t f[FLEN];
	uint32_t n;
	ck_assert_ptr_nonnull(ops);
	rx_mode = 0;
	gt = mk(&tagged, ops, 0);
	gen_tcp_init(&g, 4);
	n = (uint32_t)gen_tcp_frame(&g, f, sizeof(f)); /* no Broadcom tag */
	rx(gt, f, n, 0);
	ofl_gro_get_stats(gt, &st, sizeof st);
	ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_BAD_TAG], 1);
	ofl_gro_destroy(gt);
	ck_assert_uint_eq(tagged.n, 1);
	ck_assert_uint_eq(tagged.len[0], n);
	ck_assert_int_eq(memcmp(tagged.frame[0], f, n), 0);
	ck_assert(!tagged.has_meta[0]);
}
END_TEST

START_TEST(normal_given_untagged)
{
	/* a pure ACK behind a tag: NORMAL, described untagged with its meta */
	const struct ofl_dsa_ops *ops = ofl_dsa_find("brcm");
	struct ofl_gro *gt;
	struct gen_tcp g;
	uint8_t f[FLEN];
	uint32_t n, tl;
	const uint8_t *t;
	rx_mode = 0;
	gt = mk(&tagged, ops, 0);
	gen_tcp_init(&g, 4);
	g.payload_len = 0;
	g.pad_to = 64; /* brcm pads before tagging */
	n = (uint32_t)gen_tcp_frame(&g, f, sizeof(f));
	t = tag_frame(ops, 0, f, n, 4, &tl);
	rx(gt, t, tl, 0);
	ofl_gro_destroy(gt);
	ck_assert_uint_eq(tagged.n, 1);
	ck_assert_uint_eq(tagged.segs[0], 0);
	ck_assert_uint_eq(tagged.len[0], n);
	ck_assert_int_eq(memcmp(tagged.frame[0], f, n), 0);
	ck_assert_uint_eq(tagged.meta[0].port, 4);
}
END_TEST

/* ---- the UDP rule table behind a tag ------------------------------------ */

#define UDP_SLOTS 80 /* frames of one rule (the longest sends 70) */
static uint8_t udp_plain[UDP_SLOTS][FLEN], udp_tag[UDP_SLOTS][FLEN];

/* One rule played into two contexts at once: untagged, and tagged for
 * port 2 (the frames stay in place until both are destroyed). */
struct udp_pair {
	struct ofl_gro *gp, *gt;
	const struct ofl_dsa_ops *ops;
	const struct ur_rule *rule;
	int l3, nic;
	unsigned k; /* frames sent */
};

static int pair_send(void *u, const struct gen_tcp *g)
{
	struct udp_pair *pp = u;
	uint8_t *f = udp_plain[pp->k];
	uint32_t n, tl;
	const uint8_t *t;
	uint8_t csum;
	int rp, rt;
	ck_assert_uint_lt(pp->k, UDP_SLOTS);
	n = (uint32_t)gen_tcp_frame(g, f, FLEN - 128);
	ck_assert_uint_gt(n, 0);
	/* like a NIC with RX checksum offload: valid frames verified */
	csum = pp->nic && gen_frame_csums_ok(f, n) ? OFL_CSUM_UNNECESSARY : OFL_CSUM_NONE;
	t = tag_into(pp->ops, udp_tag[pp->k], f, n, 2, &tl);
	rp = rx_one(pp->gp, f, n, pp->k, csum, NULL);
	rt = rx_one(pp->gt, t, tl, pp->k, csum, NULL);
	ck_assert_msg(rp == rt, "%s, %s (IPv%d): frame %u: %d untagged, %d tagged", pp->ops->name,
	              pp->rule->name, pp->l3, pp->k, rp, rt);
	pp->k++;
	return rp;
}

/* The untagged context's counters, after checking the tagged one's are
 * the same (every reason, merges, held flows, software checksums). */
static struct ofl_gro_stats pair_stats(void *u)
{
	struct udp_pair *pp = u;
	struct ofl_gro_stats sp, st;
	unsigned i;
	ck_assert_int_eq(ofl_gro_get_stats(pp->gp, &sp, sizeof sp), 0);
	ck_assert_int_eq(ofl_gro_get_stats(pp->gt, &st, sizeof st), 0);
	for (i = 0; i < OFL_GRO_REASON_SLOTS; i++)
		ck_assert_msg(sp.flush[i] == st.flush[i] && sp.normal_why[i] == st.normal_why[i],
		              "%s, %s (IPv%d): reason %u: flush %llu/%llu, normal %llu/%llu", pp->ops->name,
		              pp->rule->name, pp->l3, i, (unsigned long long)sp.flush[i],
		              (unsigned long long)st.flush[i], (unsigned long long)sp.normal_why[i],
		              (unsigned long long)st.normal_why[i]);
	ck_assert_uint_eq(sp.merged, st.merged);
	ck_assert_uint_eq(sp.normal, st.normal);
	ck_assert_uint_eq(sp.flows_held, st.flows_held);
	ck_assert_uint_eq(sp.csum_sw, st.csum_sw);
	ck_assert_uint_eq(sp.padding_trimmed, st.padding_trimmed);
	return sp;
}

static void udp_pair_run(const struct ofl_dsa_ops *ops, const struct ur_rule *r, int l3, int nic)
{
	struct ofl_gro_config cfg;
	struct udp_pair pp = {.ops = ops, .rule = r, .l3 = l3, .nic = nic};
	const struct ur_driver d = {pair_send, pair_stats, !nic, &pp, NULL};
	unsigned k;
	ur_config(r, &cfg);
	/* small, keyed contexts: about 1600 pairs are made (a rule holds at
	 * most 6 flows; no entropy call per context) */
	cfg.max_flows = 8;
	cfg.hash_key[0] = 0x0123456789abcdefull;
	cfg.hash_key[1] = 0xfedcba9876543210ull;
	pp.gp = mk_cfg(&plain, &cfg, NULL, 0);
	pp.gt = mk_cfg(&tagged, &cfg, ops, 0);
	ur_run(r, l3, &d);
	pair_stats(&pp);
	ofl_gro_destroy(pp.gp);
	ofl_gro_destroy(pp.gt);
	ck_assert_uint_eq(plain.cookies, pp.k);
	ck_assert_uint_eq(tagged.cookies, pp.k);
	ck_assert_msg(plain.n == tagged.n, "%s, %s (IPv%d): %u packets untagged, %u tagged", ops->name,
	              r->name, l3, plain.n, tagged.n);
	for (k = 0; k < plain.n; k++) {
		ck_assert_msg(plain.segs[k] == tagged.segs[k] && plain.len[k] == tagged.len[k] &&
		                  memcmp(plain.frame[k], tagged.frame[k], plain.len[k]) == 0,
		              "%s, %s (IPv%d): packet %u differs once untagged", ops->name, r->name, l3, k);
		ck_assert(tagged.has_meta[k]);
		ck_assert_uint_eq(tagged.meta[k].port, 2);
	}
}

/* _i: a tag format; every rule, both families.  The checksum state
 * alternates with rule and format (software where (_i + rule) is even,
 * NIC-verified where odd): each format meets both, each rule meets both
 * across the formats, at half the cost of every pair in both.  Under a
 * memory checker (OFL_TEST_CHECKER, as .ci/sanitize.sh and .ci/valgrind.sh
 * set) every eighth format only. */
START_TEST(udp_rules_behind_tag)
{
	const struct ofl_dsa_ops *ops = fmt(_i);
	int r, l3;
	if (!ops || (getenv("OFL_TEST_CHECKER") && _i % 8 != 0))
		return;
	for (r = 0; r < UR_NRULES; r++)
		for (l3 = 4; l3 <= 6; l3 += 2)
			if (!ur_rules[r].l3 || ur_rules[r].l3 == l3)
				udp_pair_run(ops, &ur_rules[r], l3, (_i + r) & 1);
}
END_TEST

int main(void)
{
	int n = (int)ofl_dsa_count();
	const struct h_test tests[] = {{merges_like_untagged, 3 * n}, {ports_never_merge, 3 * n},
		{keep_tag_mode, 3 * n}, {udp_rules_behind_tag, n}, {bad_tag_untouched, 0},
		{normal_given_untagged, 0}};
	return h_run_table("gro_dsa", 0, 0, tests, sizeof tests / sizeof tests[0]);
}
