/*
 * gro_dsa_hold_test.c - a new flow behind a DSA tag held by the plain
 * shape's fill (hold.c gro_hold_tagged_plain(): one buffer, untagged mode,
 * the untagged frame plain TCP) against the general hold (gro_hold_new(),
 * which a frame in two buffers takes).
 *
 * The same tagged frames go to two contexts: whole, each in one buffer, and
 * with their first 20 bytes in a buffer of their own (the tag decoded over
 * the buffers, the headers gathered).  Every format whose RX tag names a
 * port, dsa_keep_tag 0 and 1, one call per frame and bursts: each context
 * must deliver the same packets in the same order (bytes, every output
 * field but the slices' layout, the tag's metadata, the cookies).  The
 * frames: flows on two ports (one alone in each poll, one merging, one with
 * PSH, a pure ACK), a frame whose tag does not decode and, for qca, a switch
 * control frame.
 */
#include <check.h>
#include <ofl/dsa.h>
#include <ofl/gro.h>
#include <stdint.h>
#include <string.h>

#include "dsa_rx.h"
#include "gen.h"
#include "harness.h"

#define MAXO 64
#define FLEN 1700
#define NFR 40
#define SPLIT 20u

struct out {
	uint8_t bytes[FLEN];
	struct ofl_gro_out o; /* (its pointers not kept) */
	struct ofl_dsa_meta meta;
	uintptr_t cookie[8];
};

struct col {
	unsigned n;
	struct out out[MAXO];
};

static struct col whole, split;

static void deliver(void *user, const struct ofl_gro_out *p, unsigned n)
{
	struct col *c = user;
	unsigned i, k;
	for (i = 0; i < n; i++) {
		struct out *o = &c->out[c->n++];
		ck_assert_uint_le(c->n, MAXO);
		ck_assert_int_eq(ofl_gro_linearize(&p[i], o->bytes, sizeof(o->bytes), OFL_CSUM_MODE_FULL),
		                 (int)p[i].len);
		o->o = p[i];
		memset(&o->meta, 0, sizeof(o->meta));
		if (p[i].dsa)
			o->meta = *p[i].dsa;
		ck_assert_uint_le(p[i].ncookies, 8);
		for (k = 0; k < p[i].ncookies; k++)
			o->cookie[k] = (uintptr_t)p[i].cookies[k];
	}
}

static uint8_t frames[NFR][FLEN + 128];
static uint32_t lens[NFR];

/* Tag the untagged frame f (n bytes) for RX from port into frames[i];
 * returns 0 when the format cannot tag it so. */
static int tag(const struct ofl_dsa_ops *ops, unsigned i, const uint8_t *f, uint32_t n, unsigned port)
{
	return dsa_rx_tag(ops, frames[i], f, n, port, &lens[i]);
}

/* The frames for ops (how many). */
static unsigned make_frames(const struct ofl_dsa_ops *ops)
{
	struct gen_tcp fl[4];
	uint8_t f[FLEN];
	unsigned i, n = 0, k;
	for (k = 0; k < 4; k++) {
		gen_tcp_init(&fl[k], k == 3 ? 6 : 4);
		fl[k].sport = (uint16_t)(1000 + k);
		fl[k].payload_len = 100 + 50 * k;
		fl[k].flow_salt = k;
	}
	for (i = 0; i < 30; i++) {
		/* flow 0 every frame (merges), 1 and 2 alternately (alone in
		 * their poll of 4), 3 (IPv6) every third; PSH, a pure ACK */
		unsigned fi = i % 3 == 0 ? 3 : i % 2 ? 0 : 1 + (i / 2) % 2;
		struct gen_tcp *g = &fl[fi];
		uint32_t len;
		g->flags = GEN_ACK | (i == 13 ? GEN_PSH : 0);
		if (i == 17)
			g->payload_len = 0;
		len = (uint32_t)gen_tcp_frame(g, f, sizeof(f));
		if (!tag(ops, n, f, len, 1 + fi % 2))
			return 0;
		n++;
		g->seq += g->payload_len;
		g->ip_id++;
		if (i == 17)
			g->payload_len = 100 + 50 * fi;
	}
	/* a frame whose tag does not decode (shorter than any tag) */
	memset(frames[n], 0xa5, 8);
	lens[n++] = 8;
	if (strcmp(ops->name, "qca") == 0) {
		/* a qca MIB frame (type 1): a switch control frame */
		uint32_t len = (uint32_t)gen_tcp_frame(&fl[1], f, sizeof(f));
		lens[n] = dsa_rx_qca_mib(frames[n], f, len);
		n++;
	}
	return n;
}

/* Offer frames [0, n) to g in polls of 4: each frame in one buffer, or its
 * first SPLIT bytes in one and the rest in another (sp); one call per
 * frame, or a burst per poll. */
static void offer(struct ofl_gro *g, unsigned n, int sp, int burst)
{
	static struct ofl_buf b[NFR][2];
	static struct ofl_pkt p[NFR];
	dsa_rx_offer(g, frames[0], sizeof(frames[0]), lens, n, sp ? SPLIT : 0, 4, burst, b, p);
}

static void same_out(const struct out *a, const struct out *b, const char *name, unsigned k)
{
	const struct ofl_gro_out *x = &a->o, *y = &b->o;
	unsigned c;
	ck_assert_msg(x->len == y->len && memcmp(a->bytes, b->bytes, x->len) == 0, "%s: output %u's bytes", name, k);
	ck_assert_msg(dsa_rx_same_fields(x, y), "%s: output %u's fields", name, k);
	ck_assert_msg((x->dsa != NULL) == (y->dsa != NULL) && memcmp(&a->meta, &b->meta, sizeof(a->meta)) == 0,
	              "%s: output %u's metadata", name, k);
	for (c = 0; c < x->ncookies; c++)
		ck_assert_msg(a->cookie[c] == b->cookie[c], "%s: output %u's cookies", name, k);
}

/* _i: format, keep-tag mode and offer mode */
START_TEST(plain_hold_as_general)
{
	const struct ofl_dsa_ops *ops = ofl_dsa_at((size_t)_i / 4);
	int keep = _i & 1, burst = (_i >> 1) & 1;
	struct ofl_gro_config cfg;
	struct ofl_gro *gw, *gs;
	unsigned n, k, merged = 0;
	if (!ops || ops->rx_ports < 3 || (ops->flags & OFL_DSA_F_NO_PORTS))
		return;
	n = make_frames(ops);
	if (!n)
		return;
	/* the two contexts: one configuration, each its own collector */
	ofl_gro_config_default(&cfg);
	cfg.dsa = ops;
	cfg.dsa_keep_tag = (uint8_t)keep;
	cfg.deliver = deliver;
	whole.n = split.n = 0;
	cfg.user = &whole;
	ck_assert_int_eq(ofl_gro_create(&cfg, &gw), 0);
	cfg.user = &split;
	ck_assert_int_eq(ofl_gro_create(&cfg, &gs), 0);
	offer(gw, n, 0, burst);
	offer(gs, n, 1, burst);
	ofl_gro_destroy(gw);
	ofl_gro_destroy(gs);
	ck_assert_msg(whole.n == split.n, "%s: %u outputs, %u split", ops->name, whole.n, split.n);
	for (k = 0; k < whole.n; k++) {
		same_out(&whole.out[k], &split.out[k], ops->name, k);
		merged += whole.out[k].o.seg_count > 1;
	}
	ck_assert_msg(merged > 0, "%s: nothing merged", ops->name);
}
END_TEST

int main(void)
{
	const struct h_test tests[] = {{plain_hold_as_general, 4 * (int)ofl_dsa_count()}};
	return h_run_table("gro_dsa_hold", 0, 0, tests, 1);
}
