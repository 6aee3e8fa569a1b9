/*
 * dsa_rx.h - what the tests of GRO behind a DSA tag share (gro_dsa_hold,
 * gro_dsa_lone, gro_dsa_run, gro_dsa_flows): a frame tagged for RX from a port, a
 * switch control frame, the output fields two contexts must agree on, a
 * log of what a context delivered and the compare of two logs.
 */
#ifndef OFL_TEST_DSA_RX_H
#define OFL_TEST_DSA_RX_H

#include <check.h>
#include <ofl/dsa.h>
#include <ofl/gro.h>
#include <stdint.h>
#include <string.h>

/* The untagged frame f (n bytes, n + 128 <= 1828) tagged by ops for RX from
 * port into out (its length in *len); with a format that wants a switch
 * too, switch 1.  Returns 0 when the format cannot tag it so. */
static inline int dsa_rx_tag(const struct ofl_dsa_ops *ops, uint8_t *out, const uint8_t *f, uint32_t n,
                             unsigned port, uint32_t *len)
{
	uint8_t tmp[1828];
	struct ofl_dsa_meta m;
	uint32_t off = 64;
	*len = n;
	memset(&m, 0, sizeof(m));
	m.valid = OFL_DSA_M_PORT;
	m.port = (uint8_t)port;
	memset(tmp, 0, sizeof(tmp));
	memcpy(tmp + off, f, n);
	if (ofl_dsa_encode(ops, NULL, OFL_DSA_RX, &m, tmp, sizeof(tmp), &off, len) == OFL_ENOTSUP) {
		m.valid |= OFL_DSA_M_SWITCH;
		m.switch_id = 1;
		if (ofl_dsa_encode(ops, NULL, OFL_DSA_RX, &m, tmp, sizeof(tmp), &off, len) != 0)
			return 0;
	}
	memcpy(out, tmp + off, *len);
	return 1;
}

/* A qca MIB frame (type 1, a switch control frame) of the untagged frame
 * f (n bytes) into out; returns its length. */
static inline uint32_t dsa_rx_qca_mib(uint8_t *out, const uint8_t *f, uint32_t n)
{
	memcpy(out, f, 12);
	out[12] = 0x80;
	out[13] = 0x42;
	memcpy(out + 14, f + 12, n - 12);
	return n + 2;
}

/* Do two delivered records agree on every field but the pointers? */
static inline int dsa_rx_same_fields(const struct ofl_gro_out *x, const struct ofl_gro_out *y)
{
	return x->hdr_len == y->hdr_len && x->seg_count == y->seg_count && x->seg_size == y->seg_size &&
	       x->ncookies == y->ncookies && x->l3_off == y->l3_off && x->l4_off == y->l4_off &&
	       x->csum_start == y->csum_start && x->csum_offset == y->csum_offset && x->flags == y->flags &&
	       x->gso_type == y->gso_type && x->vlan_tci == y->vlan_tci && x->rx_hash == y->rx_hash &&
	       x->first_ns == y->first_ns && x->len == y->len;
}

/* Does ops tag for RX from several ports (the formats these tests take)?
 * Then *cfg: the default with ops, keep-tag mode keep and deliver. */
static inline int dsa_rx_config(struct ofl_gro_config *cfg, const struct ofl_dsa_ops *ops, int keep,
                                ofl_gro_deliver_fn deliver)
{
	if (!ops || ops->rx_ports < 3 || (ops->flags & OFL_DSA_F_NO_PORTS))
		return 0;
	ofl_gro_config_default(cfg);
	cfg->dsa = ops;
	cfg->dsa_keep_tag = (uint8_t)keep;
	cfg->deliver = deliver;
	return 1;
}

/* Offer p[0, n) to g in polls of poll: one call per frame, or a burst per
 * poll. */
static inline void dsa_rx_polls(struct ofl_gro *g, const struct ofl_pkt *p, unsigned n, unsigned poll, int burst)
{
	unsigned i, j;
	for (i = 0; i < n; i += poll) {
		unsigned m = n - i < poll ? n - i : poll;
		if (burst) {
			ck_assert_uint_eq(ofl_gro_receive_burst(g, p + i, m, 0, NULL), m);
		} else {
			for (j = 0; j < m; j++)
				ck_assert_int_ge(ofl_gro_receive(g, &p[i + j], 0), 0);
		}
		ck_assert_int_eq(ofl_gro_poll_end(g, m, 0, NULL), 0);
	}
}

/* Offer the n frames at f (each stride bytes from the last, lens[i] long)
 * to g in polls of poll: each in one buffer, or (split) its first split
 * bytes in one and the rest in another; one call per frame, or a burst
 * per poll.  b, p: room for n frames; frame i's cookie is i + 1. */
static inline void dsa_rx_offer(struct ofl_gro *g, const uint8_t *f, size_t stride, const uint32_t *lens, unsigned n,
                                uint32_t split, unsigned poll, int burst, struct ofl_buf (*b)[2], struct ofl_pkt *p)
{
	unsigned i;
	memset(p, 0, n * sizeof(*p));
	for (i = 0; i < n; i++) {
		const uint8_t *fi = f + i * stride;
		uint32_t s = split && lens[i] > split ? split : lens[i];
		b[i][0] = (struct ofl_buf){fi, s};
		b[i][1] = (struct ofl_buf){fi + s, lens[i] - s};
		p[i].bufs = b[i];
		p[i].nbufs = s < lens[i] ? 2 : 1;
		p[i].cookie = (void *)(uintptr_t)(i + 1);
		p[i].csum_status = OFL_CSUM_UNNECESSARY;
	}
	dsa_rx_polls(g, p, n, poll, burst);
}

/* What one context delivered (dsa_rx_deliver(), its user a log): a record
 * per packet, its bytes (linearized) and cookies appended to one pool. */
#define DSA_RX_MAXO 160
#define DSA_RX_POOL (4u << 20)
struct dsa_rx_rec {
	struct ofl_gro_out o; /* (its pointers not kept) */
	struct ofl_dsa_meta meta;
	size_t at; /* its bytes, then its cookies, in the pool */
};
struct dsa_rx_log {
	unsigned n;
	size_t used;
	struct dsa_rx_rec r[DSA_RX_MAXO];
	uint8_t pool[DSA_RX_POOL];
};

static inline void dsa_rx_deliver(void *user, const struct ofl_gro_out *p, unsigned n)
{
	struct dsa_rx_log *l = user;
	for (; n; n--, p++) {
		struct dsa_rx_rec *r;
		ck_assert_uint_lt(l->n, DSA_RX_MAXO);
		ck_assert_uint_le(l->used + p->len + p->ncookies * sizeof(void *), DSA_RX_POOL);
		r = &l->r[l->n++];
		r->o = *p;
		r->at = l->used;
		memset(&r->meta, 0, sizeof(r->meta));
		if (p->dsa)
			r->meta = *p->dsa;
		ck_assert_int_eq(ofl_gro_linearize(p, l->pool + l->used, p->len, OFL_CSUM_MODE_FULL), (int)p->len);
		l->used += p->len;
		if (p->ncookies)
			memcpy(l->pool + l->used, p->cookies, p->ncookies * sizeof(void *));
		l->used += p->ncookies * sizeof(void *);
	}
}

/* A context of cfg delivering into l (emptied), and its end: its counters
 * in *st, the context destroyed. */
static inline struct ofl_gro *dsa_rx_open(struct ofl_gro_config *cfg, struct dsa_rx_log *l)
{
	struct ofl_gro *g;
	l->n = 0;
	l->used = 0;
	cfg->user = l;
	ck_assert_int_eq(ofl_gro_create(cfg, &g), 0);
	return g;
}
static inline void dsa_rx_close(struct ofl_gro *g, struct ofl_gro_stats *st)
{
	ck_assert_int_eq(ofl_gro_get_stats(g, st, sizeof(*st)), 0);
	ofl_gro_destroy(g);
}

/* Did two contexts (logs w and sp, counters sw and ss) deliver the same
 * packets in the same order (bytes, every field but the slices' layout,
 * metadata, cookies) and count the same (but csum_sw and lookups, each
 * path's own)?  Asserted; returns the most segments a packet merged. */
static inline unsigned dsa_rx_same_logs(const struct dsa_rx_log *w, const struct ofl_gro_stats *sw,
                                        const struct dsa_rx_log *sp, const struct ofl_gro_stats *ss, const char *name)
{
	unsigned k, most = 0;
	ck_assert_msg(w->n == sp->n, "%s: %u outputs, %u split", name, w->n, sp->n);
	for (k = 0; k < w->n; k++) {
		const struct dsa_rx_rec *x = &w->r[k], *y = &sp->r[k];
		size_t nb = x->o.len + x->o.ncookies * sizeof(void *);
		ck_assert_msg(dsa_rx_same_fields(&x->o, &y->o), "%s: output %u's fields", name, k);
		ck_assert_msg((x->o.dsa != NULL) == (y->o.dsa != NULL) && memcmp(&x->meta, &y->meta, sizeof(x->meta)) == 0,
		              "%s: output %u's metadata", name, k);
		ck_assert_msg(memcmp(w->pool + x->at, sp->pool + y->at, nb) == 0, "%s: output %u's bytes or cookies", name,
		              k);
		most = x->o.seg_count > most ? x->o.seg_count : most;
	}
	ck_assert_msg(sw->rx_pkts == ss->rx_pkts && sw->rx_bytes == ss->rx_bytes && sw->merged == ss->merged &&
	                  sw->held == ss->held && sw->normal == ss->normal && sw->out_pkts == ss->out_pkts &&
	                  sw->out_segs == ss->out_segs && memcmp(sw->flush, ss->flush, sizeof(sw->flush)) == 0 &&
	                  memcmp(sw->normal_why, ss->normal_why, sizeof(sw->normal_why)) == 0,
	              "%s: counters", name);
	return most;
}

#endif
