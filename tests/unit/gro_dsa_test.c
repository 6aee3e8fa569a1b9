/*
 * gro_dsa_test.c - GRO through a DSA tag: for every tag format that can
 * carry a source port, a bulk TCP stream tagged for one port merges exactly
 * as the untagged stream does (same packets, same bytes once untagged), two
 * ports with the same 5-tuple never merge together, keep-tag mode delivers
 * the super-packet with the first segment's tag, and frames without a
 * valid tag pass untouched.
 */
#include <check.h>
#include <ofl/dsa.h>
#include <ofl/gro.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
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

static struct ofl_gro *mk(struct col *c, const struct ofl_dsa_ops *ops, int keep)
{
	struct ofl_gro_config cfg;
	struct ofl_gro *g;
	memset(c, 0, sizeof(*c));
	ofl_gro_config_default(&cfg);
	cfg.deliver = deliver;
	cfg.user = c;
	cfg.dsa = ops;
	cfg.dsa_keep_tag = (uint8_t)keep;
	ck_assert_int_eq(ofl_gro_create(&cfg, &g), 0);
	return g;
}

static uint8_t bufs[MAXF][FLEN];

/* Tag an untagged frame for RX from port; returns the tagged frame. */
static const uint8_t *tag_frame(const struct ofl_dsa_ops *ops, unsigned slot, const uint8_t *f,
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
	memcpy(bufs[slot] + off, f, n);
	if (ofl_dsa_encode(ops, NULL, OFL_DSA_RX, &m, bufs[slot], FLEN, &off, &len) == OFL_ENOTSUP) {
		/* formats that must name a switch too (netc: a non-zero id) */
		m.valid |= OFL_DSA_M_SWITCH;
		m.switch_id = 1;
		ck_assert_int_eq(ofl_dsa_encode(ops, NULL, OFL_DSA_RX, &m, bufs[slot], FLEN, &off, &len), 0);
	}
	*out_len = len;
	return bufs[slot] + off;
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

static void rx(struct ofl_gro *g, const uint8_t *f, uint32_t n, unsigned cookie)
{
	struct ofl_buf b = {f, n};
	struct ofl_pkt p;
	memset(&p, 0, sizeof(p));
	p.bufs = &b;
	p.nbufs = 1;
	p.cookie = (void *)(uintptr_t)cookie;
	p.csum_status = rx_mode ? OFL_CSUM_UNNECESSARY : OFL_CSUM_NONE;
	if (rx_mode == 2) {
		struct rxq *q = rq[0].g == g || !rq[0].g ? &rq[0] : &rq[1];
		ck_assert(q->g == g || !q->g);
		ck_assert_uint_lt(q->n, MAXF);
		q->g = g;
		q->b[q->n] = b;
		q->p[q->n] = p;
		q->p[q->n].bufs = &q->b[q->n];
		q->n++;
		return;
	}
	ck_assert_int_ge(ofl_gro_receive(g, &p, 0), 0);
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

START_TEST(ports_never_merge)
{
	const struct ofl_dsa_ops *ops = fmt(_i);
	struct ofl_gro *gt;
	struct gen_tcp g;
	unsigned k;
	if (!ops)
		return;
	gt = mk_flow(&g, ops, 0);
	for (k = 0; k < 8; k++) /* each segment from port 1, then port 2 */
		rx_tagged(gt, ops, &g, k, 1 + (k & 1), k & 1);
	done(gt);
	ck_assert_uint_eq(tagged.n, 2);
	ck_assert_uint_eq(tagged.segs[0], 4);
	ck_assert_uint_eq(tagged.segs[1], 4);
	ck_assert_uint_eq(tagged.meta[0].port, 1);
	ck_assert_uint_eq(tagged.meta[1].port, 2);
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
		memcpy(u, pc[0].data, pc[0].len);
		memcpy(u + pc[0].len, pc[1].data, pc[1].len);
		ck_assert_msg(gen_frame_csums_ok(u, pc[0].len + pc[1].len), "%s: bad checksum", ops->name);
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

int main(void)
{
	int n = (int)ofl_dsa_count();
	const struct h_test tests[] = {{merges_like_untagged, 3 * n}, {ports_never_merge, 3 * n},
		{keep_tag_mode, 3 * n}, {bad_tag_untouched, 0}, {normal_given_untagged, 0}};
	return h_run_table("gro_dsa", 0, 0, tests, sizeof tests / sizeof tests[0]);
}
