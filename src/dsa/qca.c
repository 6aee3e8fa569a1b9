/*
 * qca.c - Qualcomm/Atheros headers: qca (net/dsa/tag_qca.c,
 * include/linux/dsa/tag_qca.h) and ar9331 (net/dsa/tag_ar9331.c).
 *
 * qca: 2 bytes big-endian after SA.
 *
 *   | DA | SA | hdr 2 | type | ...
 *   switch -> host: version 15:14 = 2 | priority 13:11 | type 10:6 |
 *                   frame was tagged 3 | source port 2:0
 *      type 0 = normal; 1 = MIB counters, 2 = register read/write ACK:
 *      these two are for the switch driver (OFL_DSA_MF_CONTROL)
 *   host -> switch: version 15:14 = 2 | priority 13:11 | control 10:8 |
 *                   from CPU 7 | destination ports 6:0
 *
 * ar9331: 2 bytes little-endian before DA.
 *
 *   | hdr 2 | DA | SA | type | ...
 *   version 15:14 = 1 | priority 13:12 | type 10:8 | broadcast 7 |
 *   from CPU 6 | reserved 5:4 (written 11) | port 3:0 (a number, both ways)
 *   Linux refuses RX headers with the from-CPU bit set.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "dsa/dsa_int.h"

#define QCA_HDR_LEN 2u
#define QCA_VERSION 2u
#define QCA_PRIO_SHIFT 11
#define QCA_RX_TYPE_SHIFT 6
#define QCA_RX_TYPE_MASK 0x1Fu
#define QCA_RX_TYPE_MIB 1u
#define QCA_RX_TYPE_RW_REG_ACK 2u
#define QCA_RX_TAGGED 0x08u
/* the tagged bit moved to the flag's place, a shift (no test) */
#define QCA_RX_TAGGED_TO_FLAG 2
_Static_assert(QCA_RX_TAGGED >> QCA_RX_TAGGED_TO_FLAG == OFL_DSA_MF_TAGGED,
               "the tagged bit is shifted into the flag");
#define QCA_RX_VER_TYPE (0xC000u | QCA_RX_TYPE_MASK << QCA_RX_TYPE_SHIFT)
#define QCA_RX_PORT_MASK 0x07u
#define QCA_TX_CONTROL_SHIFT 8
#define QCA_TX_FROM_CPU 0x80u
#define QCA_TX_PORTS 7u

/* The packed burst's fast path (DSA_CODEC_PACKED_): an RX header of
 * version 2 and type 0 (the frame of normal traffic) in two table reads,
 * the word exactly qca_decode()'s; any other version or type goes to the
 * body (DSA_PK_SLOW).  qca_pk_h0[high byte]: version and the type's top
 * bits, with the cut and valid; qca_pk_h1[low byte]: the type's low bits,
 * the tagged flag and the port. */
#define QCA_PK_H0(a, b)                                                        \
	((((b) << 8) & QCA_RX_VER_TYPE & 0xFF00u) == QCA_VERSION << 14           \
	         ? DSA_PK_CUT(DSA_MACS_LEN + QCA_HDR_LEN, 0) |                  \
	                   DSA_PK_VALID(OFL_DSA_M_PORT)                         \
	         : DSA_PK_SLOW),
#define QCA_PK_H1(a, b)                                                        \
	((b) & QCA_RX_VER_TYPE & 0xFFu                                         \
	         ? DSA_PK_SLOW                                                  \
	         : DSA_PK_FLAGS(((b) & QCA_RX_TAGGED) >> QCA_RX_TAGGED_TO_FLAG) | \
	                   DSA_PK_PORT((b) & QCA_RX_PORT_MASK)),
static const uint64_t qca_pk_h0[256] = DSA_BYTE_TABLE(QCA_PK_H0, 0);
static const uint64_t qca_pk_h1[256] = DSA_BYTE_TABLE(QCA_PK_H1, 0);

DSA_PK_TWO(qca_pk, dsa_min_after_sa(QCA_HDR_LEN), DSA_MACS_LEN, qca_pk_h0, qca_pk_h1)

DSA_DECODER qca_decode(int dir, const struct dsa_frame *f,
                       struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	const uint8_t *t = dsa_tag_after_sa(f, QCA_HDR_LEN);
	unsigned hdr;

	if (!t)
		return OFL_EBADMSG;
	hdr = dsa_be16(t);
	m->prio = (hdr >> QCA_PRIO_SHIFT) & 7u;
	m->valid = OFL_DSA_M_PRIO | OFL_DSA_M_CMD;
	if (dir == OFL_DSA_RX) {
		/* version 2 and type 0 (normal), the common frame, in one
		 * masked compare; m->cmd stays 0 (meta is zeroed) */
		if (DSA_UNLIKELY((hdr & QCA_RX_VER_TYPE) != QCA_VERSION << 14)) {
			if (hdr >> 14 != QCA_VERSION)
				return OFL_EBADMSG;
			m->cmd = (hdr >> QCA_RX_TYPE_SHIFT) & QCA_RX_TYPE_MASK;
			if (m->cmd == QCA_RX_TYPE_MIB ||
			    m->cmd == QCA_RX_TYPE_RW_REG_ACK) {
				if (f->prepared)
					return DSA_RARE; /* for the switch driver */
				m->flags |= OFL_DSA_MF_CONTROL;
			}
		}
		m->flags |= (hdr & QCA_RX_TAGGED) >> QCA_RX_TAGGED_TO_FLAG;
		m->port = hdr & QCA_RX_PORT_MASK;
		m->valid |= OFL_DSA_M_PORT;
	} else {
		if (hdr >> 14 != QCA_VERSION || !(hdr & QCA_TX_FROM_CPU))
			return OFL_EBADMSG;
		m->cmd = (hdr >> QCA_TX_CONTROL_SHIFT) & 7u;
		dsa_meta_set_mask(m, hdr & ((1u << QCA_TX_PORTS) - 1u));
	}
	return dsa_view_after_sa(f, QCA_HDR_LEN, v);
}

static int qca_encode(int dir, const struct ofl_dsa_meta *m, struct dsa_tx *tx)
{
	unsigned hdr = QCA_VERSION << 14;
	uint8_t t[QCA_HDR_LEN];
	int err = 0;

	hdr |= dsa_meta_prio(m, 8, &err) << QCA_PRIO_SHIFT;
	if (dir == OFL_DSA_TX) {
		uint32_t mask = dsa_meta_tx_mask(m);

		if (!dsa_mask_fits(mask, QCA_TX_PORTS))
			return OFL_ENOTSUP;
		if ((m->valid & OFL_DSA_M_CMD) && m->cmd > 7)
			return OFL_ENOTSUP;
		hdr |= QCA_TX_FROM_CPU | mask;
		if (m->valid & OFL_DSA_M_CMD)
			hdr |= (unsigned)m->cmd << QCA_TX_CONTROL_SHIFT;
	} else {
		if (!dsa_meta_port_upto(m, QCA_RX_PORT_MASK))
			return OFL_ENOTSUP;
		if ((m->valid & OFL_DSA_M_CMD) && m->cmd > QCA_RX_TYPE_MASK)
			return OFL_ENOTSUP;
		hdr |= m->port;
		if (m->valid & OFL_DSA_M_CMD)
			hdr |= (unsigned)m->cmd << QCA_RX_TYPE_SHIFT;
		if (m->flags & OFL_DSA_MF_TAGGED)
			hdr |= QCA_RX_TAGGED;
	}
	dsa_put_be16(t, hdr);
	return err ? err : dsa_tx_put(tx, DSA_AT_AFTER_SA, t, QCA_HDR_LEN);
}

/* --- ar9331 ---------------------------------------------------------- */

#define AR9331_HDR_LEN 2u
#define AR9331_VERSION 1u
#define AR9331_PRIO_SHIFT 12
#define AR9331_TYPE_SHIFT 8
#define AR9331_BROADCAST 0x80u
#define AR9331_FROM_CPU 0x40u
#define AR9331_RESERVED 0x30u
#define AR9331_PORT_MASK 0x0Fu

DSA_DECODER ar9331_decode(int dir, const struct dsa_frame *f,
                          struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	const uint8_t *t = dsa_head(f, 0, AR9331_HDR_LEN);
	unsigned hdr;

	if (!t || f->len < dsa_min_before_da(AR9331_HDR_LEN))
		return OFL_EBADMSG;
	hdr = (unsigned)t[0] | (unsigned)t[1] << 8;
	if (hdr >> 14 != AR9331_VERSION)
		return OFL_EBADMSG;
	if (!(hdr & AR9331_FROM_CPU) != (dir == OFL_DSA_RX))
		return OFL_EBADMSG;
	m->prio = (hdr >> AR9331_PRIO_SHIFT) & 3u;
	m->cmd = (hdr >> AR9331_TYPE_SHIFT) & 7u;
	m->valid = OFL_DSA_M_PRIO | OFL_DSA_M_CMD;
	if (dir == OFL_DSA_RX) {
		m->port = hdr & AR9331_PORT_MASK;
		m->valid |= OFL_DSA_M_PORT;
	} else {
		dsa_meta_set_mask(m, 1u << (hdr & AR9331_PORT_MASK));
	}
	return dsa_view_before_da(f, AR9331_HDR_LEN, v);
}

static int ar9331_encode(int dir, const struct ofl_dsa_meta *m,
                         struct dsa_tx *tx)
{
	unsigned hdr = AR9331_VERSION << 14, port;
	uint8_t t[AR9331_HDR_LEN];
	int err = 0;

	if (dir == OFL_DSA_TX) {
		uint32_t mask = dsa_meta_tx_mask(m);

		if (!dsa_mask_fits(mask, 16) || (mask & (mask - 1)))
			return OFL_ENOTSUP;
		for (port = 0; !(mask & 1u); port++)
			mask >>= 1;
		hdr |= AR9331_FROM_CPU | AR9331_RESERVED;
	} else {
		if (!dsa_meta_port_upto(m, AR9331_PORT_MASK))
			return OFL_ENOTSUP;
		port = m->port;
		hdr |= AR9331_RESERVED;
	}
	if ((m->valid & OFL_DSA_M_CMD) && m->cmd > 7)
		return OFL_ENOTSUP;
	if (m->valid & OFL_DSA_M_CMD)
		hdr |= (unsigned)m->cmd << AR9331_TYPE_SHIFT;
	hdr |= port | dsa_meta_prio(m, 4, &err) << AR9331_PRIO_SHIFT;
	t[0] = (uint8_t)hdr;
	t[1] = (uint8_t)(hdr >> 8);
	return err ? err : dsa_tx_put(tx, DSA_AT_BEFORE_DA, t,
	                              AR9331_HDR_LEN);
}

DSA_CODEC_D_FAST(qca, qca_decode, qca_encode, qca_pk);
DSA_CODEC_D(ar9331, ar9331_decode, ar9331_encode);
