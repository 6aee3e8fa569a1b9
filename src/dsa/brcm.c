/*
 * brcm.c - Broadcom tags (net/dsa/tag_brcm.c): brcm, brcm-prepend,
 * brcm-legacy, brcm-legacy-fcs.
 *
 * The 4-byte tag (B53, SF2) sits after SA ("brcm") or before DA
 * ("brcm-prepend"); the bytes are the same in both places:
 *
 *   | DA | SA | tag 4 | type | ...            brcm
 *   | tag 4 | DA | SA | type | ...            brcm-prepend
 *
 * host -> switch ("ingress" in Broadcom's words, opcode 1):
 *   byte 0: opcode 7:5 = 001 | traffic class 4:2 | TE 1:0
 *   byte 1: TS 7 (unused, 0)
 *   byte 2: bit 0 = destination port 8
 *   byte 3: destination ports 7..0 (one bit each)
 *
 * switch -> host ("egress", opcode 0):
 *   byte 0: opcode 7:5 = 000
 *   byte 1: classification id
 *   byte 2: reason code: 7:6 reserved (must be 0), exception 5, protocol
 *           snoop 4, protocol termination 3, switching 2, SA learn/move 1,
 *           mirror 0
 *   byte 3: traffic class 7:5 | source port 4:0
 *
 * Linux pads TX frames to 64 bytes first, because the switch checks the
 * minimum length after removing the tag.
 *
 * The legacy 6-byte tag (BCM5325/5365, BCM63xx) starts with its own
 * EtherType 0x8874:
 *
 *   | DA | SA | 88 74 | b2 | b3 | b4 | b5 | type | ...
 *     b2: type 7:5 (unicast 0, multicast 1, egress 2, ingress 3)
 *     b5: port 3:0
 *
 * Linux writes type "egress" (2) on TX and pads to 66 bytes.  The -fcs
 * variant also puts the untagged frame length in b2 2:0 and b3, and
 * appends the untagged frame's FCS (little-endian, as on the wire) after
 * the tagged frame.  On RX both read only the port.  The internal switch
 * of BCM63xx SoCs tags every frame it sends to the CPU port with an 802.1Q
 * header after the Broadcom tag, VID 0 for untagged traffic; like Linux
 * 6.18, RX removes that header with the tag when, and only when, it is
 * 0x8100 with a TCI of 0 (a VLAN or priority tag stays).  Kernels before
 * 6.18 removed it whatever it held, on a switch below another DSA switch
 * (OFL_DSA_P_BRCM_LEGACY_VLAN).  The kernel's RX requires 10 bytes after
 * the conduit's EtherType; it does not check 0x8874 (the switch always
 * sends it); this library does.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "dsa/dsa_int.h"

#define BRCM_TAG_LEN 4u
#define BRCM_OP_SHIFT 5
#define BRCM_OP_EGRESS 0u  /* switch -> host */
#define BRCM_OP_INGRESS 1u /* host -> switch */
#define BRCM_IG_TC_SHIFT 2
#define BRCM_EG_RC_RSVD 0xC0u
#define BRCM_EG_RC_EXCEPTION 0x20u
#define BRCM_EG_PID_MASK 0x1Fu
#define BRCM_EG_TC_SHIFT 5
#define BRCM_IG_PORTS 9u

#define BRCM_LEG_TAG_LEN 6u
#define BRCM_LEG_ETYPE 0x8874u
#define BRCM_LEG_TYPE_SHIFT 5
#define BRCM_LEG_TYPE_EGRESS 2u
#define BRCM_LEG_PORT_MASK 0x0Fu
#define BRCM_LEG_LEN_MAX 0x7FFu
#define BRCM_FCS_LEN 4u

DSA_INLINE int brcm4_decode(int dir, const struct dsa_frame *f,
                            uint32_t tag_off, struct ofl_dsa_meta *m)
{
	const uint8_t *t = dsa_head(f, tag_off, BRCM_TAG_LEN);
	unsigned op;

	if (!t)
		return OFL_EBADMSG;
	op = t[0] >> BRCM_OP_SHIFT;
	m->cmd = (uint8_t)op;
	if (dir == OFL_DSA_RX) {
		if (op != BRCM_OP_EGRESS || (t[2] & BRCM_EG_RC_RSVD))
			return OFL_EBADMSG;
		m->aux = t[1];
		m->code = t[2];
		m->prio = (uint8_t)(t[3] >> BRCM_EG_TC_SHIFT);
		m->port = t[3] & BRCM_EG_PID_MASK;
		m->valid = OFL_DSA_M_CMD | OFL_DSA_M_AUX | OFL_DSA_M_CODE |
		           OFL_DSA_M_PRIO | OFL_DSA_M_PORT;
		return 0;
	}
	if (op != BRCM_OP_INGRESS)
		return OFL_EBADMSG;
	m->prio = (t[0] >> BRCM_IG_TC_SHIFT) & 7u;
	m->aux = t[1];
	m->valid = OFL_DSA_M_CMD | OFL_DSA_M_PRIO | OFL_DSA_M_AUX;
	dsa_meta_set_mask(m, (uint32_t)(t[2] & 1u) << 8 | t[3]);
	return 0;
}

static inline int brcm4_tag(int dir, const struct ofl_dsa_meta *m, uint8_t t[4])
{
	int err = 0;
	unsigned prio;

	if (dir == OFL_DSA_TX) {
		uint32_t mask = dsa_meta_tx_mask(m);

		if (!dsa_mask_fits(mask, BRCM_IG_PORTS))
			return OFL_ENOTSUP;
		prio = dsa_meta_prio(m, 8, &err);
		t[0] = (uint8_t)(BRCM_OP_INGRESS << BRCM_OP_SHIFT |
		                 prio << BRCM_IG_TC_SHIFT);
		t[1] = 0;
		t[2] = (uint8_t)(mask >> 8);
		t[3] = (uint8_t)mask;
		return err;
	}
	if (!dsa_meta_port_upto(m, BRCM_EG_PID_MASK))
		return OFL_ENOTSUP;
	prio = dsa_meta_prio(m, 8, &err);
	t[0] = 0;
	t[1] = (m->valid & OFL_DSA_M_AUX) ? (uint8_t)m->aux : 0;
	t[2] = (m->valid & OFL_DSA_M_CODE) ? (uint8_t)m->code : BRCM_EG_RC_EXCEPTION;
	t[3] = (uint8_t)(prio << BRCM_EG_TC_SHIFT | m->port);
	if (((m->valid & OFL_DSA_M_AUX) && m->aux > 0xFF) ||
	    ((m->valid & OFL_DSA_M_CODE) && (m->code > 0xFF ||
	                                     (m->code & BRCM_EG_RC_RSVD))))
		return OFL_ENOTSUP;
	return err;
}

static int brcm4_encode(int dir, const struct ofl_dsa_meta *m,
                        struct dsa_tx *tx, int prepend)
{
	uint8_t t[BRCM_TAG_LEN];
	int err = brcm4_tag(dir, m, t);

	return err ? err : dsa_tx_put(tx, prepend ? DSA_AT_BEFORE_DA
	                                                     : DSA_AT_AFTER_SA,
	                              t, BRCM_TAG_LEN);
}

/* The packed burst's fast path (DSA_CODEC_PACKED_): an RX tag in three
 * table reads, the word exactly brcm4_decode()'s.  brcm_pk_t0_<cut>[t0]:
 * the cut and valid for the EGRESS opcode, DSA_PK_SLOW for another (the
 * body refuses it); brcm_pk_t2[t2]: DSA_PK_SLOW when a reserved bit of the
 * reason code is set; brcm_pk_t3[t3]: the port (0-31). */
#define BRCM_PK_T0(cut, b)                                                     \
	((b) >> BRCM_OP_SHIFT == BRCM_OP_EGRESS ? (cut) | DSA_PK_VALID(OFL_DSA_M_PORT) \
	                                        : DSA_PK_SLOW),
#define BRCM_PK_T2(a, b) ((b) & BRCM_EG_RC_RSVD ? DSA_PK_SLOW : 0),
#define BRCM_PK_T3(a, b) DSA_PK_PORT((b) & BRCM_EG_PID_MASK),
static const uint64_t brcm_pk_t0_after_sa[256] =
	DSA_BYTE_TABLE(BRCM_PK_T0, DSA_PK_CUT(DSA_MACS_LEN + BRCM_TAG_LEN, 0));
static const uint64_t brcm_pk_t0_before_da[256] =
	DSA_BYTE_TABLE(BRCM_PK_T0, DSA_PK_CUT(DSA_MACS_LEN + BRCM_TAG_LEN, 0) |
	                                   (uint64_t)BRCM_TAG_LEN << 8);
static const uint64_t brcm_pk_t2[256] = DSA_BYTE_TABLE(BRCM_PK_T2, 0);
static const uint64_t brcm_pk_t3[256] = DSA_BYTE_TABLE(BRCM_PK_T3, 0);

DSA_INLINE uint64_t brcm_pk(int dir, const struct ofl_dsa_params *p,
                            const uint8_t *frame, uint32_t len)
{
	const uint8_t *t = frame + DSA_MACS_LEN;

	(void)p;
	if (dir != OFL_DSA_RX || len < dsa_min_after_sa(BRCM_TAG_LEN))
		return DSA_PK_SLOW;
	return brcm_pk_t0_after_sa[t[0]] | brcm_pk_t2[t[2]] | brcm_pk_t3[t[3]];
}

DSA_INLINE uint64_t brcm_prepend_pk(int dir, const struct ofl_dsa_params *p,
                                    const uint8_t *frame, uint32_t len)
{
	(void)p;
	if (dir != OFL_DSA_RX || len < dsa_min_before_da(BRCM_TAG_LEN))
		return DSA_PK_SLOW;
	return brcm_pk_t0_before_da[frame[0]] | brcm_pk_t2[frame[2]] |
	       brcm_pk_t3[frame[3]];
}

DSA_DECODER brcm_decode(int dir, const struct dsa_frame *f,
                        struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	int err;

	if (f->len < dsa_min_after_sa(BRCM_TAG_LEN))
		return OFL_EBADMSG;
	err = brcm4_decode(dir, f, DSA_MACS_LEN, m);
	return err ? err : dsa_view_after_sa(f, BRCM_TAG_LEN, v);
}

static int brcm_encode(int dir, const struct ofl_dsa_meta *m, struct dsa_tx *tx)
{
	return brcm4_encode(dir, m, tx, 0);
}

DSA_DECODER brcm_prepend_decode(int dir, const struct dsa_frame *f,
                                struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	int err;

	if (f->len < dsa_min_before_da(BRCM_TAG_LEN))
		return OFL_EBADMSG;
	err = brcm4_decode(dir, f, 0, m);
	return err ? err : dsa_view_before_da(f, BRCM_TAG_LEN, v);
}

static int brcm_prepend_encode(int dir, const struct ofl_dsa_meta *m,
                               struct dsa_tx *tx)
{
	return brcm4_encode(dir, m, tx, 1);
}

/* --- legacy ---------------------------------------------------------- */

/* Checks the FCS the -fcs variant appends on TX and the length field. */
static int brcm_leg_check_fcs(const struct dsa_frame *f, const uint8_t *t)
{
	uint32_t ulen, want;
	const uint8_t *fcs;

	if (f->len < DSA_MACS_LEN + BRCM_LEG_TAG_LEN + 2 + BRCM_FCS_LEN)
		return OFL_EBADMSG;
	ulen = f->len - BRCM_LEG_TAG_LEN - BRCM_FCS_LEN;
	if ((((uint32_t)t[2] & 7u) << 8 | t[3]) != ulen)
		return OFL_EBADMSG;
	fcs = dsa_tail(f, BRCM_FCS_LEN);
	if (!fcs)
		return OFL_EBADMSG;
	/* The FCS covers the untagged frame: the MACs, then everything after
	 * the tag (read through the buffers in a multi-buffer decode). */
	want = dsa_crc32_frame(0xFFFFFFFFu, f, 0, DSA_MACS_LEN);
	want = ~dsa_crc32_frame(want, f, DSA_MACS_LEN + BRCM_LEG_TAG_LEN, ulen - DSA_MACS_LEN);
	if (fcs[0] != (uint8_t)want || fcs[1] != (uint8_t)(want >> 8) ||
	    fcs[2] != (uint8_t)(want >> 16) || fcs[3] != (uint8_t)(want >> 24))
		return OFL_EBADMSG;
	return 0;
}

/* brcm-legacy and brcm-legacy-fcs: the same tag, the second with the FCS
 * its switch appends (checked on TX decode, written by encode). */
struct brcm_leg_fmt {
	int fcs;
};

static const struct brcm_leg_fmt brcm_leg_plain = { 0 };
static const struct brcm_leg_fmt brcm_leg_with_fcs = { 1 };

DSA_DECODER brcm_leg_decode(const struct brcm_leg_fmt *k,
                            const struct ofl_dsa_ops *ops,
                            const struct ofl_dsa_params *p, int dir,
                            const struct dsa_frame *f, struct ofl_dsa_meta *m,
                            struct ofl_dsa_view *v)
{
	const uint8_t *t;
	uint32_t strip = BRCM_LEG_TAG_LEN;
	int err;

	(void)ops;
	/* the kernel pulls tag + VLAN_HLEN after the conduit's EtherType */
	if (f->len < DSA_MACS_LEN + BRCM_LEG_TAG_LEN + DSA_VLAN_HLEN + 2)
		return OFL_EBADMSG;
	t = dsa_head(f, DSA_MACS_LEN, BRCM_LEG_TAG_LEN + DSA_VLAN_HLEN);
	if (!t || dsa_be16(t) != BRCM_LEG_ETYPE)
		return OFL_EBADMSG;
	m->cmd = t[2] >> BRCM_LEG_TYPE_SHIFT;
	m->valid = OFL_DSA_M_CMD;
	if (dir == OFL_DSA_RX) {
		const uint8_t *q = t + BRCM_LEG_TAG_LEN;

		m->port = t[5] & BRCM_LEG_PORT_MASK;
		m->valid |= OFL_DSA_M_PORT;
		/* 6.18: an 802.1Q header with TCI 0 goes with the tag */
		if ((dsa_be16(q) == DSA_ETH_P_8021Q && dsa_be16(q + 2) == 0) ||
		    (p->flags & OFL_DSA_P_BRCM_LEGACY_VLAN))
			strip += DSA_VLAN_HLEN;
		return dsa_view_after_sa(f, strip, v);
	}
	dsa_meta_set_mask(m, 1u << (t[5] & BRCM_LEG_PORT_MASK));
	if (!k->fcs)
		return dsa_view_after_sa(f, strip, v);
	{
		/* a copy, so that only this rare path needs the frame
		 * description in memory */
		const struct dsa_frame fc = *f;

		err = brcm_leg_check_fcs(&fc, t);
	}
	if (!err)
		err = dsa_view_after_sa(f, strip, v);
	if (!err && v) {
		v->tail_len = BRCM_FCS_LEN;
		v->rest_len -= BRCM_FCS_LEN;
	}
	return err;
}

static int brcm_leg_encode(const struct brcm_leg_fmt *k,
                           const struct ofl_dsa_ops *ops,
                           const struct ofl_dsa_params *p, int dir,
                           const struct ofl_dsa_meta *m, struct dsa_tx *tx)
{
	uint32_t pad = tx->pad_to;
	uint32_t port, crc = 0, tail = 0;
	unsigned b2 = 0, b3 = 0;
	uint8_t *t;
	int err;

	(void)ops;
	(void)p;
	if (dir == OFL_DSA_TX) {
		uint32_t mask = dsa_meta_tx_mask(m);

		/* one port only: the tag has a port number, not a mask */
		if (!mask || (mask & (mask - 1)) || mask > (1u << BRCM_LEG_PORT_MASK))
			return OFL_ENOTSUP;
		for (port = 0; !(mask & 1u); port++)
			mask >>= 1;
		b2 = BRCM_LEG_TYPE_EGRESS << BRCM_LEG_TYPE_SHIFT;
	} else {
		if (!dsa_meta_port_upto(m, BRCM_LEG_PORT_MASK))
			return OFL_ENOTSUP;
		port = m->port;
		if (m->valid & OFL_DSA_M_CMD) {
			if (m->cmd > 7)
				return OFL_ENOTSUP;
			b2 = (unsigned)m->cmd << BRCM_LEG_TYPE_SHIFT;
		}
	}
	if (k->fcs && dir == OFL_DSA_TX) {
		uint32_t len = tx->len < pad ? pad : tx->len;

		if (len > BRCM_LEG_LEN_MAX)
			return OFL_ENOTSUP;
		b2 |= len >> 8;
		b3 = len & 0xFFu;
		tail = BRCM_FCS_LEN;
	}
	err = dsa_tx_check(tx, BRCM_LEG_TAG_LEN, pad, tail);
	if (err)
		return err;
	dsa_tx_pad(tx, pad);
	if (tail)
		crc = ~dsa_crc32_update(0xFFFFFFFFu, tx->buf + tx->off, tx->len);
	/* written in place (see dsa_tx_open) */
	t = dsa_tx_after_sa(tx, BRCM_LEG_TAG_LEN);
	dsa_put_be16(t, BRCM_LEG_ETYPE);
	t[2] = (uint8_t)b2;
	t[3] = (uint8_t)b3;
	t[4] = 0;
	t[5] = (uint8_t)port;
	if (tail) {
		uint8_t *q = dsa_tx_tail(tx, BRCM_FCS_LEN);

		q[0] = (uint8_t)crc;
		q[1] = (uint8_t)(crc >> 8);
		q[2] = (uint8_t)(crc >> 16);
		q[3] = (uint8_t)(crc >> 24);
	}
	return 0;
}

DSA_CODEC_D_FAST(brcm, brcm_decode, brcm_encode, brcm_pk);
DSA_CODEC_D_FAST(brcm_prepend, brcm_prepend_decode, brcm_prepend_encode,
                 brcm_prepend_pk);
DSA_CODEC_WITH_P(brcm_legacy, brcm_leg_plain, brcm_leg_decode, brcm_leg_encode);
DSA_CODEC_WITH_P(brcm_legacy_fcs, brcm_leg_with_fcs, brcm_leg_decode, brcm_leg_encode);
