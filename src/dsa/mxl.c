/*
 * mxl.c - Lantiq/Intel/MaxLinear switches: gswip (net/dsa/tag_gswip.c),
 * gsw1xx (net/dsa/tag_mxl-gsw1xx.c), mxl862xx (net/dsa/tag_mxl862xx.c).
 *
 * gswip, before DA, 4 bytes to the switch and 8 bytes from it:
 *
 *   host -> switch:  | b0 b1 b2 b3 | DA | SA | type | ...
 *     b0 = 2 (source: CPU), b1 = 0 (destination group: LAN),
 *     b2 = port map enable 7 | port map select 6 | learning off 5 |
 *          class enable 4 | class 3:0,
 *     b3 = destination ports 5:0 in bits 6:1 | destination id enable 0
 *   switch -> host:  | 8 bytes | DA | SA | type | ...
 *     source port = byte 7 bits 6:4
 *
 * gsw1xx and mxl862xx, 8 bytes after SA starting with EtherType 0x88C3:
 *
 *   | DA | SA | 88 C3 | w1 | w2 | w3 | type | ...
 *   gsw1xx host -> switch: w1 = port map enable 15 | class enable 14 |
 *          timestamp 13 | learning off 12 | class 11:8 | ports 7:0; w2=w3=0
 *   gsw1xx switch -> host: source port = w1 15:8
 *   mxl862xx host -> switch: w1 = 0, w2 4:0 = sub-interface = port + 16 -
 *          CPU port, w3 3:0 = CPU port
 *   mxl862xx switch -> host: source port = w3 3:0
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "dsa/dsa_int.h"

#define GSWIP_TX_LEN 4u
#define GSWIP_RX_LEN 8u
#define GSWIP_TX_SLPID_CPU 2u
#define GSWIP_TX_PORT_MAP_EN 0x80u
#define GSWIP_TX_PORT_MAP_SEL 0x40u
#define GSWIP_TX_CLASS_EN 0x10u
#define GSWIP_TX_CLASS_MASK 0x0Fu
#define GSWIP_TX_DPID_EN 0x01u
#define GSWIP_TX_PORTS 6u
#define GSWIP_RX_SPPID_SHIFT 4

#define MXL_TAG_LEN 8u
#define MXL_ETH_P 0x88C3u
#define GSW1XX_TX_PORT_MAP_EN 0x8000u
#define GSW1XX_TX_CLASS_EN 0x4000u
#define GSW1XX_TX_LRN_DIS 0x1000u
#define GSW1XX_TX_CLASS_SHIFT 8
#define GSW1XX_TX_PORTS 8u
#define MXL862_SUBIF_MASK 0x1Fu
#define MXL862_PORT_MASK 0x0Fu

DSA_DECODER gswip_decode(int dir, const struct dsa_frame *f,
                         struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	uint32_t len = dir == OFL_DSA_RX ? GSWIP_RX_LEN : GSWIP_TX_LEN;
	const uint8_t *t = dsa_head(f, 0, len);

	if (!t || f->len < dsa_min_before_da(len))
		return OFL_EBADMSG;
	if (dir == OFL_DSA_RX) {
		m->port = (t[7] >> GSWIP_RX_SPPID_SHIFT) & 7u;
		m->valid = OFL_DSA_M_PORT;
	} else {
		if (!(t[2] & GSWIP_TX_PORT_MAP_EN))
			return OFL_EBADMSG;
		dsa_meta_set_mask(m, (t[3] >> 1) & ((1u << GSWIP_TX_PORTS) - 1u));
		if (t[2] & GSWIP_TX_CLASS_EN) {
			m->prio = t[2] & GSWIP_TX_CLASS_MASK;
			m->valid |= OFL_DSA_M_PRIO;
		}
	}
	return dsa_view_before_da(f, len, v);
}

static int gswip_encode(int dir, const struct ofl_dsa_meta *m,
                        struct dsa_tx *tx)
{
	uint8_t t[GSWIP_RX_LEN] = { 0 };
	int err = 0;

	if (dir == OFL_DSA_TX) {
		uint32_t mask = dsa_meta_tx_mask(m);

		if (!dsa_mask_fits(mask, GSWIP_TX_PORTS))
			return OFL_ENOTSUP;
		t[0] = GSWIP_TX_SLPID_CPU;
		t[2] = GSWIP_TX_PORT_MAP_EN | GSWIP_TX_PORT_MAP_SEL;
		if (m->valid & OFL_DSA_M_PRIO)
			t[2] |= (uint8_t)(GSWIP_TX_CLASS_EN |
			                  dsa_meta_prio(m, 16, &err));
		t[3] = (uint8_t)(mask << 1 | GSWIP_TX_DPID_EN);
		return err ? err : dsa_tx_put(tx, DSA_AT_BEFORE_DA, t,
		                              GSWIP_TX_LEN);
	}
	if (!dsa_meta_port_upto(m, 7))
		return OFL_ENOTSUP;
	t[7] = (uint8_t)(m->port << GSWIP_RX_SPPID_SHIFT);
	/* a constant length for each direction: the copy is two moves */
	return dsa_tx_put(tx, DSA_AT_BEFORE_DA, t, GSWIP_RX_LEN);
}

/* The 8 bytes of a 0x88C3 tag after SA, or NULL. */
static const uint8_t *mxl_tag(const struct dsa_frame *f)
{
	const uint8_t *t = dsa_tag_after_sa(f, MXL_TAG_LEN);

	if (!t || dsa_be16(t) != MXL_ETH_P)
		return NULL;
	return t;
}

DSA_DECODER gsw1xx_decode(int dir, const struct dsa_frame *f,
                          struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	const uint8_t *t = mxl_tag(f);
	unsigned w1;

	if (!t)
		return OFL_EBADMSG;
	w1 = dsa_be16(t + 2);
	if (dir == OFL_DSA_RX) {
		m->port = (uint8_t)(w1 >> 8);
		m->valid = OFL_DSA_M_PORT;
	} else {
		if (!(w1 & GSW1XX_TX_PORT_MAP_EN))
			return OFL_EBADMSG;
		dsa_meta_set_mask(m, w1 & 0xFFu);
		if (w1 & GSW1XX_TX_CLASS_EN) {
			m->prio = (w1 >> GSW1XX_TX_CLASS_SHIFT) & 0xFu;
			m->valid |= OFL_DSA_M_PRIO;
		}
		if (w1 & GSW1XX_TX_LRN_DIS)
			m->flags |= OFL_DSA_MF_LEARN_DIS;
	}
	return dsa_view_after_sa(f, MXL_TAG_LEN, v);
}

static int gsw1xx_encode(int dir, const struct ofl_dsa_meta *m,
                         struct dsa_tx *tx)
{
	uint8_t t[MXL_TAG_LEN] = { 0 };
	unsigned w1;
	int err = 0;

	dsa_put_be16(t, MXL_ETH_P);
	if (dir == OFL_DSA_TX) {
		uint32_t mask = dsa_meta_tx_mask(m);

		if (!dsa_mask_fits(mask, GSW1XX_TX_PORTS))
			return OFL_ENOTSUP;
		w1 = GSW1XX_TX_PORT_MAP_EN | GSW1XX_TX_LRN_DIS | mask;
		if (m->valid & OFL_DSA_M_PRIO)
			w1 |= GSW1XX_TX_CLASS_EN |
			      dsa_meta_prio(m, 16, &err) << GSW1XX_TX_CLASS_SHIFT;
	} else {
		if (!(m->valid & OFL_DSA_M_PORT))
			return OFL_ENOTSUP;
		w1 = (unsigned)m->port << 8;
	}
	dsa_put_be16(t + 2, w1);
	return err ? err : dsa_tx_put(tx, DSA_AT_AFTER_SA, t, MXL_TAG_LEN);
}

static unsigned mxl862_cpu(const struct ofl_dsa_params *p)
{
	return p->cpu_port & MXL862_PORT_MASK;
}

DSA_DECODER mxl862xx_decode(const struct ofl_dsa_ops *ops,
                            const struct ofl_dsa_params *p, int dir,
                            const struct dsa_frame *f, struct ofl_dsa_meta *m,
                            struct ofl_dsa_view *v)
{
	const uint8_t *t = mxl_tag(f);

	(void)ops;
	if (!t)
		return OFL_EBADMSG;
	if (dir == OFL_DSA_RX) {
		m->port = t[7] & MXL862_PORT_MASK;
		m->valid = OFL_DSA_M_PORT;
	} else {
		unsigned subif = t[5] & MXL862_SUBIF_MASK;
		unsigned cpu = mxl862_cpu(p);

		/* sub-interface = port + 16 - CPU port: a port of 16 or more
		 * names none of the switch's 16 */
		if (subif + cpu < 16 || subif + cpu - 16 > MXL862_PORT_MASK ||
		    (t[7] & MXL862_PORT_MASK) != cpu)
			return OFL_EBADMSG;
		dsa_meta_set_mask(m, 1u << (subif + cpu - 16));
	}
	return dsa_view_after_sa(f, MXL_TAG_LEN, v);
}

static int mxl862xx_encode(const struct ofl_dsa_ops *ops,
                           const struct ofl_dsa_params *p, int dir,
                           const struct ofl_dsa_meta *m, struct dsa_tx *tx)
{
	uint8_t t[MXL_TAG_LEN] = { 0 };

	(void)ops;
	dsa_put_be16(t, MXL_ETH_P);
	if (dir == OFL_DSA_TX) {
		uint32_t mask = dsa_meta_tx_mask(m);
		unsigned cpu = mxl862_cpu(p), port;

		if (!mask || (mask & (mask - 1)))
			return OFL_ENOTSUP;
		for (port = 0; !(mask & 1u); port++)
			mask >>= 1;
		if (port > MXL862_PORT_MASK || port + 16 < cpu ||
		    port + 16 - cpu > MXL862_SUBIF_MASK)
			return OFL_ENOTSUP;
		t[5] = (uint8_t)(port + 16 - cpu);
		t[7] = (uint8_t)cpu;
	} else {
		if (!dsa_meta_port_upto(m, MXL862_PORT_MASK))
			return OFL_ENOTSUP;
		t[7] = m->port;
	}
	return dsa_tx_put(tx, DSA_AT_AFTER_SA, t, MXL_TAG_LEN);
}

DSA_CODEC_D(gswip, gswip_decode, gswip_encode);
DSA_CODEC_D(gsw1xx, gsw1xx_decode, gsw1xx_encode);
DSA_CODEC(mxl862xx, mxl862xx_decode, mxl862xx_encode);
