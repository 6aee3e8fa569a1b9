/*
 * dsa_rx.h - what the tests of GRO behind a DSA tag share (gro_dsa_hold,
 * gro_dsa_lone, gro_dsa_run): a frame tagged for RX from a port, a switch control
 * frame, and the output fields two contexts must agree on.
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

/* Offer the n frames at f (each stride bytes from the last, lens[i] long)
 * to g in polls of poll: each in one buffer, or (split) its first split
 * bytes in one and the rest in another; one call per frame, or a burst
 * per poll.  b, p: room for n frames; frame i's cookie is i + 1. */
static inline void dsa_rx_offer(struct ofl_gro *g, const uint8_t *f, size_t stride, const uint32_t *lens, unsigned n,
                                uint32_t split, unsigned poll, int burst, struct ofl_buf (*b)[2], struct ofl_pkt *p)
{
	unsigned i, j;
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

#endif
