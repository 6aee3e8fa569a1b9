/*
 * ocelot.c - Microchip/Vitesse Felix (VSC9959, "ocelot") and Seville
 * (VSC9953, "seville") frame headers (net/dsa/tag_ocelot.c,
 * include/linux/dsa/ocelot.h).
 *
 * Both directions prepend a 4-byte short prefix and a 16-byte header:
 *
 *   | prefix 4 | IFH/XFH 16 | DA | SA | type | ...
 *     prefix: 88 80 00 0A (ocelot), 88 80 00 05 (seville TX); Linux RX
 *     skips it without looking
 *
 * The 16 header bytes form a 128-bit big-endian word (bit 127 is the top
 * bit of the first byte).  Fields used:
 *
 *   host -> switch (injection):  BYPASS 127 | REW_OP 125:117 |
 *       DEST 67:56 (ocelot, 12 ports) or 67:57 (seville, 11 ports) |
 *       SRC_PORT 46:43 (Linux: the switch's port count) | QOS_CLASS 19:17 |
 *       TAG_TYPE 16 | VID 11:0
 *   switch -> host (extraction): REW_VAL 116:85 (RX timestamp) |
 *       SRC_PORT 46:43 | CPUQ 28:20 | QOS_CLASS 19:17 | TAG_TYPE 16 |
 *       PCP/DEI/VID 15:0 (the classified VLAN)
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "dsa/dsa_int.h"

#define OCELOT_PREFIX_LEN 4u
#define OCELOT_IFH_LEN 16u
#define OCELOT_TOTAL_LEN (OCELOT_PREFIX_LEN + OCELOT_IFH_LEN)
#define OCELOT_PREFIX 0x8880000Au
#define SEVILLE_PREFIX 0x88800005u
#define OCELOT_DEFAULT_PORTS 6u
#define SEVILLE_DEFAULT_PORTS 10u

struct ocelot_fmt {
	uint32_t prefix;
	uint8_t dest_hi, dest_lo;
	uint8_t default_ports;
};

static const struct ocelot_fmt ocelot_fmt = { OCELOT_PREFIX, 67, 56,
                                              OCELOT_DEFAULT_PORTS };
static const struct ocelot_fmt seville_fmt = { SEVILLE_PREFIX, 67, 57,
                                               SEVILLE_DEFAULT_PORTS };

/* The 128-bit header as two big-endian 64-bit words: w[0] holds bits
 * 127..64, w[1] bits 63..0. */
struct ifh {
	uint64_t w[2];
};

static inline uint64_t ifh_be64(const uint8_t *p)
{
	return (uint64_t)dsa_be32(p) << 32 | dsa_be32(p + 4);
}

static inline struct ifh ifh_load(const uint8_t *h)
{
	struct ifh x = { { ifh_be64(h), ifh_be64(h + 8) } };

	return x;
}

/* bits hi..lo, hi - lo < 64; with constant bounds, two shifts and a mask */
static inline uint64_t ifh_get(const struct ifh *x, unsigned hi, unsigned lo)
{
	uint64_t mask = hi - lo == 63 ? ~(uint64_t)0
	                              : ((uint64_t)1 << (hi - lo + 1)) - 1;
	uint64_t v;

	if (lo >= 64)
		v = x->w[0] >> (lo - 64);
	else if (lo == 0)
		v = x->w[1];
	else
		v = x->w[1] >> lo | x->w[0] << (64 - lo);
	return v & mask;
}

/* set bits hi..lo to v (bits of v above the field are dropped) */
static inline void ifh_set(struct ifh *x, unsigned hi, unsigned lo, uint64_t v)
{
	uint64_t mask = hi - lo == 63 ? ~(uint64_t)0
	                              : ((uint64_t)1 << (hi - lo + 1)) - 1;

	v &= mask;
	if (lo >= 64) {
		x->w[0] = (x->w[0] & ~(mask << (lo - 64))) | v << (lo - 64);
		return;
	}
	x->w[1] = (x->w[1] & ~(mask << lo)) | v << lo;
	if (lo && hi >= 64)
		x->w[0] = (x->w[0] & ~(mask >> (64 - lo))) | v >> (64 - lo);
}

static inline void ifh_put_be64(uint8_t *p, uint64_t v)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* one swapped 8-byte store; the byte-wise form below gets merged
	 * with the neighbouring prefix into a long shift-and-or chain */
	v = __builtin_bswap64(v);
	memcpy(p, &v, sizeof(v));
#else
	p[0] = (uint8_t)(v >> 56);
	p[1] = (uint8_t)(v >> 48);
	p[2] = (uint8_t)(v >> 40);
	p[3] = (uint8_t)(v >> 32);
	p[4] = (uint8_t)(v >> 24);
	p[5] = (uint8_t)(v >> 16);
	p[6] = (uint8_t)(v >> 8);
	p[7] = (uint8_t)v;
#endif
}

static inline void ifh_store(uint8_t *h, const struct ifh *x)
{
	ifh_put_be64(h, x->w[0]);
	ifh_put_be64(h + 8, x->w[1]);
}

DSA_DECODER ocelot_decode_fmt(const struct ocelot_fmt *o,
                              const struct ofl_dsa_ops *ops,
                              const struct ofl_dsa_params *p, int dir,
                              const struct dsa_frame *f,
                              struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	const uint8_t *t = dsa_head(f, 0, OCELOT_TOTAL_LEN);
	struct ifh h;

	(void)ops;
	(void)p;
	if (!t || f->len < dsa_min_before_da(OCELOT_TOTAL_LEN))
		return OFL_EBADMSG;
	h = ifh_load(t + OCELOT_PREFIX_LEN);
	m->prio = (uint8_t)ifh_get(&h, 19, 17);
	m->valid = OFL_DSA_M_PRIO;
	if (ifh_get(&h, 16, 16))
		m->flags |= OFL_DSA_MF_VLAN_S;
	if (dir == OFL_DSA_RX) {
		m->port = (uint8_t)ifh_get(&h, 46, 43);
		m->vlan_tci = (uint16_t)ifh_get(&h, 15, 0);
		m->aux = (uint16_t)ifh_get(&h, 28, 20);
		m->tstamp = ifh_get(&h, 116, 85);
		m->valid |= OFL_DSA_M_PORT | OFL_DSA_M_VLAN | OFL_DSA_M_AUX |
		            OFL_DSA_M_TSTAMP;
	} else {
		if (dsa_be32(t) != o->prefix || !ifh_get(&h, 127, 127))
			return OFL_EBADMSG;
		dsa_meta_set_mask(m, (uint32_t)ifh_get(&h, o->dest_hi, o->dest_lo));
		m->cmd = (uint8_t)ifh_get(&h, 125, 117);
		m->vlan_tci = (uint16_t)ifh_get(&h, 11, 0);
		m->valid |= OFL_DSA_M_CMD | OFL_DSA_M_VLAN;
	}
	return dsa_view_before_da(f, OCELOT_TOTAL_LEN, v);
}

static int ocelot_encode_fmt(const struct ocelot_fmt *o,
                             const struct ofl_dsa_ops *ops,
                             const struct ofl_dsa_params *p, int dir,
                             const struct ofl_dsa_meta *m, struct dsa_tx *tx)
{
	struct ifh h = { { 0, 0 } };
	uint8_t *t;
	int err = 0;

	(void)ops;
	ifh_set(&h, 19, 17, dsa_meta_prio(m, 8, &err));
	if (m->flags & OFL_DSA_MF_VLAN_S)
		ifh_set(&h, 16, 16, 1);
	if (dir == OFL_DSA_TX) {
		uint32_t mask = dsa_meta_tx_mask(m);
		unsigned nports = p->num_ports ? p->num_ports : o->default_ports;

		if (!dsa_mask_fits(mask, o->dest_hi - o->dest_lo + 1u) || nports > 15)
			return OFL_ENOTSUP;
		ifh_set(&h, 127, 127, 1);
		ifh_set(&h, o->dest_hi, o->dest_lo, mask);
		ifh_set(&h, 46, 43, nports);
		if (m->valid & OFL_DSA_M_CMD)
			ifh_set(&h, 125, 117, m->cmd);
		if (m->valid & OFL_DSA_M_VLAN)
			ifh_set(&h, 11, 0, m->vlan_tci & 0xFFFu);
	} else {
		if (!dsa_meta_port_upto(m, 15))
			return OFL_ENOTSUP;
		if (((m->valid & OFL_DSA_M_AUX) && m->aux > 0x1FF) ||
		    ((m->valid & OFL_DSA_M_TSTAMP) && m->tstamp > 0xFFFFFFFFu))
			return OFL_ENOTSUP;
		ifh_set(&h, 46, 43, m->port);
		if (m->valid & OFL_DSA_M_VLAN)
			ifh_set(&h, 15, 0, m->vlan_tci);
		if (m->valid & OFL_DSA_M_AUX)
			ifh_set(&h, 28, 20, m->aux);
		if (m->valid & OFL_DSA_M_TSTAMP)
			ifh_set(&h, 116, 85, m->tstamp);
	}
	if (err)
		return err;
	/* written in place (see dsa_tx_open) */
	t = dsa_tx_open(tx, DSA_AT_BEFORE_DA, OCELOT_TOTAL_LEN);
	if (!t)
		return OFL_ENOSPC;
	dsa_put_be32(t, o->prefix);
	ifh_store(t + OCELOT_PREFIX_LEN, &h);
	return 0;
}

DSA_CODEC_WITH(ocelot, ocelot_fmt, ocelot_decode_fmt, ocelot_encode_fmt);
DSA_CODEC_WITH(seville, seville_fmt, ocelot_decode_fmt, ocelot_encode_fmt);
