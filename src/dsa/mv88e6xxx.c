/*
 * mv88e6xxx.c - Marvell tags: dsa and edsa (net/dsa/tag_dsa.c) and the
 * 88E6060 trailer (net/dsa/tag_trailer.c).
 *
 * DSA, 4 bytes where an 802.1Q tag would be:
 *
 *   | DA | SA | b0 b1 b2 b3 | type | ...
 *     b0: cmd 7:6 | tagged 5 | device (switch) 4:0
 *     b1: port 7:3 | TO_CPU code 2:1, FORWARD trunk 2 | CFI 0
 *     b2: PCP 7:5 | TO_CPU code bit 0 at bit 4 (else CFI's 802.1Q place,
 *         always 0) | VID 11:8 in 3:0
 *     b3: VID 7:0
 *
 *   cmd: TO_CPU 0 (trapped/mirrored), FROM_CPU 1 (host sends to a port),
 *   TO_SNIFFER 2, FORWARD 3 (normal traffic, either way).
 *   TO_CPU code = b1 2:1 << 1 | b2 bit 4: MGMT_TRAP 0, FRAME2REG 1,
 *   IGMP_MLD_TRAP 2, POLICY_TRAP 3, ARP_MIRROR 4, POLICY_MIRROR 5, 6-7
 *   reserved.
 *
 * When "tagged" is set the frame had an 802.1Q header, which the switch
 * folded into the tag: the untagged view gets 0x8100 + TCI back, the CFI
 * moved from b1 bit 0 to TCI bit 12.  Linux RX accepts TO_CPU (except
 * FRAME2REG and reserved codes) and FORWARD; traps are not forwarded by
 * hardware.  Linux TX sends FROM_CPU (FORWARD when bridging offloads
 * forwarding) and folds an existing 802.1Q header instead of inserting
 * 4 bytes; an untagged frame gets VID 0 (standalone) or 4095 (bridge).
 *
 * EDSA prefixes the same 4 bytes with EtherType 0xDADA and two zero bytes:
 *
 *   | DA | SA | DA DA | 00 00 | b0 b1 b2 b3 | type | ...
 *
 * The kernel's RX checks neither 0xDADA nor the two reserved bytes (the
 * switch is programmed to send them); nor does decode on RX, unless asked
 * to (OFL_DSA_P_EDSA_STRICT).  The reserved bytes are reported in aux.
 * TX decode requires both, as the kernel writes them.
 *
 * Trailer (88E6060), 4 bytes at the end:
 *   TX: 80 | port mask | 10 | 00
 *   RX: 80 | port 2:0 (7:3 zero) | bit 4 free, rest zero | 00
 * padded to 60 bytes before tagging, like every tail tag.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "dsa/dsa_int.h"

#define MV_DSA_LEN 4u
#define MV_EDSA_LEN 8u
#define MV_ETH_P_EDSA 0xDADAu
#define MV_TAGGED 0x20u
#define MV_DEV_MASK 0x1Fu
#define MV_PORT_SHIFT 3
#define MV_TRUNK 0x04u
_Static_assert(MV_TRUNK == OFL_DSA_MF_TRUNK, "the trunk bit is copied as is");
#define MV_CFI_B1 0x01u
#define MV_CFI_B2 0x10u

enum mv_code {
	MV_CODE_MGMT_TRAP = 0,
	MV_CODE_FRAME2REG = 1,
	MV_CODE_IGMP_MLD_TRAP = 2,
	MV_CODE_POLICY_TRAP = 3,
	MV_CODE_ARP_MIRROR = 4,
	MV_CODE_POLICY_MIRROR = 5,
};

/* The TCI as 802.1Q would carry it; for TO_CPU bit 12 is a code bit. */
DSA_INLINE unsigned mv_tci(const uint8_t *t)
{
	/* b2 b3 as one 16-bit load: the FORWARD path of an untagged frame,
	 * which reads no TCI, then does not load b2 for it */
	unsigned tci = dsa_be16(t + 2) & ~((unsigned)MV_CFI_B2 << 8);

	if (t[1] & MV_CFI_B1)
		tci |= (unsigned)MV_CFI_B2 << 8;
	return tci;
}

/* The 4 DSA bytes at t; extra = bytes before them (0 dsa, 4 edsa), with
 * more_valid the valid bits of the fields the caller fills (edsa: aux), so
 * that the common frame stores meta.valid once, a constant: a store to
 * meta may alias the frame, so a |= after the decode was a reload and a
 * store. */
DSA_INLINE int mv_decode(int dir, const struct dsa_frame *f, const uint8_t *t,
                         uint32_t extra, uint32_t more_valid,
                         struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	unsigned cmd = t[0] >> 6;
	unsigned tci;
	int err;

	m->cmd = (uint8_t)cmd;
	m->switch_id = t[0] & MV_DEV_MASK;
	m->port = (t[1] >> MV_PORT_SHIFT) & 0x1Fu;
	m->valid = OFL_DSA_M_CMD | OFL_DSA_M_SWITCH | OFL_DSA_M_PORT |
	           OFL_DSA_M_PRIO | OFL_DSA_M_VLAN | more_valid;
	if (dir == OFL_DSA_RX) {
		/* cmd is b0's top two bits: FORWARD (3) is b0 >= 0xC0, one
		 * compare of the byte (a shift and a compare of cmd cost two
		 * more) */
		if (t[0] >= OFL_DSA_MV_FORWARD << 6) {
			/* the tag's trunk bit is the flag's own value (one
			 * AND, where a test made GCC shift it out and back) */
			m->flags |= t[1] & MV_TRUNK;
		} else if (cmd == OFL_DSA_MV_TO_CPU) {
			unsigned code = (t[1] & 0x06u) | ((t[2] >> 4) & 1u);

			switch (code) {
			case MV_CODE_MGMT_TRAP:
			case MV_CODE_IGMP_MLD_TRAP:
			case MV_CODE_POLICY_TRAP:
				m->flags |= OFL_DSA_MF_TRAPPED;
				break;
			case MV_CODE_ARP_MIRROR:
			case MV_CODE_POLICY_MIRROR:
				break;
			default: /* FRAME2REG is not implemented; 6-7 reserved */
				return OFL_EBADMSG;
			}
			m->code = (uint16_t)code;
			m->valid |= OFL_DSA_M_CODE;
		} else {
			return OFL_EBADMSG;
		}
	} else if (cmd != OFL_DSA_MV_FROM_CPU && cmd != OFL_DSA_MV_FORWARD) {
		return OFL_EBADMSG;
	} else if (t[1] & 0x06u) {
		return OFL_EBADMSG; /* xmit leaves these bits zero */
	}
	if (dir == OFL_DSA_TX)
		dsa_meta_set_mask(m, 1u << m->port);

	/* the TCI computed in each branch, so that a caller that reads
	 * neither meta.vlan_tci nor the rebuilt 802.1Q header (the brief
	 * decode of an untagged frame) does not compute it at all */
	m->prio = t[2] >> 5;
	if (!DSA_UNLIKELY(t[0] & MV_TAGGED)) {
		m->vlan_tci = (uint16_t)mv_tci(t);
		return dsa_view_after_sa(f, extra + MV_DSA_LEN, v);
	}
	tci = mv_tci(t);
	m->vlan_tci = (uint16_t)tci;
	m->flags |= OFL_DSA_MF_TAGGED;
	err = dsa_view_after_sa(f, extra + MV_DSA_LEN, v);
	if (!err && v) {
		uint8_t q[4] = { 0x81, 0x00, (uint8_t)(tci >> 8), (uint8_t)tci };

		dsa_view_insert(v, q, sizeof(q));
	}
	return err;
}

DSA_DECODER dsa_decode(int dir, const struct dsa_frame *f,
                       struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	const uint8_t *t = dsa_tag_after_sa(f, MV_DSA_LEN);

	if (!t)
		return OFL_EBADMSG;
	return mv_decode(dir, f, t, 0, 0, m, v);
}

DSA_DECODER edsa_decode(const struct ofl_dsa_ops *ops,
                        const struct ofl_dsa_params *p, int dir,
                        const struct dsa_frame *f, struct ofl_dsa_meta *m,
                        struct ofl_dsa_view *v)
{
	const uint8_t *t = dsa_tag_after_sa(f, MV_EDSA_LEN);

	(void)ops;
	if (!t)
		return OFL_EBADMSG;
	if ((dir == OFL_DSA_TX || (p->flags & OFL_DSA_P_EDSA_STRICT)) &&
	    dsa_be32(t) != (uint32_t)MV_ETH_P_EDSA << 16)
		return OFL_EBADMSG;
	/* written before the decode knows the frame is good: on an error
	 * every entry zeroes meta (or never copies it out) */
	m->aux = dsa_be16(t + 2);
	return mv_decode(dir, f, t + 4, MV_EDSA_LEN - MV_DSA_LEN, OFL_DSA_M_AUX, m, v);
}

/* The packed burst's fast path (DSA_CODEC_PACKED_): the frame of normal
 * traffic, FORWARD without a folded 802.1Q header (b0 0xC0-0xDF), as two
 * table reads.  mv_pk_b0_<rest>[b0]: the word's part from b0 (the cut,
 * valid, switch) for such a b0, DSA_PK_SLOW for any other (TO_CPU, tagged,
 * refused: the body decides); mv_pk_b1[b1]: port and the trunk flag,
 * which b1 holds in a FORWARD tag (port < 32: the top bit stays clear).
 * The word is then exactly the body's (mv_decode). */
#define MV_PK_B0(rest, b)                                                      \
	(((b) >> 5) == 6 ? DSA_PK_CUT(rest, 0) |                               \
	                           DSA_PK_VALID(OFL_DSA_M_PORT | OFL_DSA_M_SWITCH) | \
	                           DSA_PK_SWITCH((b) & MV_DEV_MASK)            \
	                 : DSA_PK_SLOW),
#define MV_PK_B1(a, b)                                                         \
	(DSA_PK_PORT((b) >> MV_PORT_SHIFT) | DSA_PK_FLAGS((b) & MV_TRUNK)),
static const uint64_t mv_pk_b0_dsa[256] =
	DSA_BYTE_TABLE(MV_PK_B0, DSA_MACS_LEN + MV_DSA_LEN);
static const uint64_t mv_pk_b0_edsa[256] =
	DSA_BYTE_TABLE(MV_PK_B0, DSA_MACS_LEN + MV_EDSA_LEN);
static const uint64_t mv_pk_b1[256] = DSA_BYTE_TABLE(MV_PK_B1, 0);

DSA_PK_TWO(dsa_pk, dsa_min_after_sa(MV_DSA_LEN), DSA_MACS_LEN, mv_pk_b0_dsa, mv_pk_b1)

DSA_INLINE uint64_t edsa_pk(int dir, const struct ofl_dsa_params *p,
                            const uint8_t *frame, uint32_t len)
{
	/* the strict option checks the first 4 bytes: the body does */
	if (p->flags & OFL_DSA_P_EDSA_STRICT)
		return DSA_PK_SLOW;
	return dsa_pk_two(dir, frame, len, dsa_min_after_sa(MV_EDSA_LEN),
	                  DSA_MACS_LEN + 4, mv_pk_b0_edsa, mv_pk_b1);
}

/* Writes the 4 DSA bytes; extra = 0 (dsa) or 4 (edsa prefix). */
static int mv_encode(int dir, const struct ofl_dsa_meta *m, struct dsa_tx *tx,
                     uint32_t extra)
{
	const uint8_t *fr = tx->buf + tx->off;
	unsigned cmd, dev, port, code = 0, tci;
	int fold, err = 0;
	uint8_t *t;

	if (dir == OFL_DSA_TX) {
		uint32_t mask = dsa_meta_tx_mask(m);

		cmd = (m->valid & OFL_DSA_M_CMD) ? m->cmd : OFL_DSA_MV_FROM_CPU;
		if (cmd != OFL_DSA_MV_FROM_CPU && cmd != OFL_DSA_MV_FORWARD)
			return OFL_ENOTSUP;
		if (!mask || (mask & (mask - 1)))
			return OFL_ENOTSUP;
		for (port = 0; !(mask & 1u); port++)
			mask >>= 1;
	} else {
		cmd = (m->valid & OFL_DSA_M_CMD) ? m->cmd : OFL_DSA_MV_FORWARD;
		if (cmd != OFL_DSA_MV_FORWARD && cmd != OFL_DSA_MV_TO_CPU)
			return OFL_ENOTSUP;
		if (!(m->valid & OFL_DSA_M_PORT))
			return OFL_ENOTSUP;
		port = m->port;
		if (cmd == OFL_DSA_MV_TO_CPU) {
			code = (m->valid & OFL_DSA_M_CODE) ? m->code : MV_CODE_MGMT_TRAP;
			if (code > 7)
				return OFL_ENOTSUP;
		}
	}
	dev = (m->valid & OFL_DSA_M_SWITCH) ? m->switch_id : 0;
	if (port > 0x1Fu || dev > MV_DEV_MASK)
		return OFL_ENOTSUP;

	fold = dsa_be16(fr + DSA_MACS_LEN) == DSA_ETH_P_8021Q;
	if (fold && tx->len < DSA_ETH_HLEN + DSA_VLAN_HLEN)
		return OFL_EINVAL;
	if (fold) {
		tci = dsa_be16(fr + DSA_MACS_LEN + 2);
	} else {
		tci = (m->valid & OFL_DSA_M_VLAN) ? m->vlan_tci : 0;
		if (m->valid & OFL_DSA_M_PRIO) {
			unsigned prio = dsa_meta_prio(m, 8, &err);

			tci = (tci & 0x1FFFu) | prio << 13;
		}
	}
	if (err)
		return err;
	err = dsa_tx_check(tx, extra + (fold ? 0 : MV_DSA_LEN), tx->pad_to, 0);
	if (err)
		return err;
	dsa_tx_pad(tx, tx->pad_to);
	if (fold)
		t = extra ? dsa_tx_after_sa(tx, extra) + extra
		          : tx->buf + tx->off + DSA_MACS_LEN;
	else
		t = dsa_tx_after_sa(tx, extra + MV_DSA_LEN) + extra;

	t[0] = (uint8_t)(cmd << 6 | (fold ? MV_TAGGED : 0) | dev);
	t[1] = (uint8_t)(port << MV_PORT_SHIFT);
	t[2] = (uint8_t)(tci >> 8);
	t[3] = (uint8_t)tci;
	if (t[2] & MV_CFI_B2) {
		/* the CFI lives in b1 bit 0; bit 4 of b2 is a code bit */
		t[1] |= MV_CFI_B1;
		t[2] &= (uint8_t)~MV_CFI_B2;
	}
	if (dir == OFL_DSA_RX && cmd == OFL_DSA_MV_TO_CPU) {
		t[1] = (uint8_t)((t[1] & ~0x06u) | (code & 0x06u));
		t[2] = (uint8_t)((t[2] & ~MV_CFI_B2) | ((code & 1u) << 4));
	}
	return 0;
}

static int dsa_encode(int dir, const struct ofl_dsa_meta *m, struct dsa_tx *tx)
{
	return mv_encode(dir, m, tx, 0);
}

static int edsa_encode(const struct ofl_dsa_ops *ops,
                       const struct ofl_dsa_params *p, int dir,
                       const struct ofl_dsa_meta *m, struct dsa_tx *tx)
{
	int err;
	uint8_t *e;

	(void)ops;
	(void)p;
	err = mv_encode(dir, m, tx, MV_EDSA_LEN - MV_DSA_LEN);
	if (err)
		return err;
	e = tx->buf + tx->off + DSA_MACS_LEN;
	dsa_put_be16(e, MV_ETH_P_EDSA);
	e[2] = 0;
	e[3] = 0;
	return 0;
}

/* --- trailer --------------------------------------------------------- */

#define TRAILER_LEN 4u

DSA_DECODER trailer_decode(int dir, const struct dsa_frame *f,
                           struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	const uint8_t *t = dsa_tail(f, TRAILER_LEN);

	if (!t || f->len < dsa_min_tail(TRAILER_LEN))
		return OFL_EBADMSG;
	if (dir == OFL_DSA_RX) {
		/* 80 | port 2:0 | bit 4 free | 00 in one masked compare */
		if ((dsa_be32(t) & 0xFFF8EFFFu) != 0x80000000u)
			return OFL_EBADMSG;
		m->port = t[1]; /* bits 7:3 checked zero */
		m->valid = OFL_DSA_M_PORT;
	} else {
		if (t[0] != 0x80 || t[3] != 0 || t[2] != 0x10 || !t[1])
			return OFL_EBADMSG;
		dsa_meta_set_mask(m, t[1]);
	}
	return dsa_view_tail(f, TRAILER_LEN, v);
}

/* The packed burst's fast path (DSA_CODEC_PACKED_): the RX trailer's
 * check as trailer_decode()'s, on the bytes taken little-endian and XORed
 * with t[0]'s 0x80, so that a good trailer is x & mask == 0 (one test, no
 * byte swap) and x's low 16 bits are then 0 and the port (t[1], bits 7:3
 * checked zero): shifted up by 48 they are the word's port field, the
 * rest of x shifted out.  The word exactly trailer_decode()'s. */
#define TRAILER_RX_LE_MASK 0xFFEFF8FFu /* 0xFFF8EFFF with its bytes reversed */
DSA_INLINE uint64_t trailer_pk(int dir, const struct ofl_dsa_params *p,
                               const uint8_t *frame, uint32_t len)
{
	uint32_t x;

	(void)p;
	if (dir != OFL_DSA_RX || len < dsa_min_tail(TRAILER_LEN))
		return DSA_PK_SLOW;
	x = dsa_le32(frame + len - TRAILER_LEN) ^ 0x80u;
	if (x & TRAILER_RX_LE_MASK)
		return DSA_PK_SLOW;
	return DSA_PK_CUT(DSA_MACS_LEN, TRAILER_LEN) | DSA_PK_VALID(OFL_DSA_M_PORT) |
	       (uint64_t)x << 48;
}

static int trailer_encode(int dir, const struct ofl_dsa_meta *m,
                          struct dsa_tx *tx)
{
	uint8_t t[TRAILER_LEN] = { 0x80, 0, 0, 0 };

	if (dir == OFL_DSA_TX) {
		uint32_t mask = dsa_meta_tx_mask(m);

		if (!dsa_mask_fits(mask, 8))
			return OFL_ENOTSUP;
		t[1] = (uint8_t)mask;
		t[2] = 0x10;
	} else {
		if (!dsa_meta_port_upto(m, 7))
			return OFL_ENOTSUP;
		t[1] = m->port;
	}
	return dsa_tx_put(tx, DSA_AT_TAIL, t, TRAILER_LEN);
}

DSA_CODEC_D_FAST(dsa, dsa_decode, dsa_encode, dsa_pk);
DSA_CODEC_P_FAST(edsa, edsa_decode, edsa_encode, edsa_pk);
DSA_CODEC_D_FAST(trailer, trailer_decode, trailer_encode, trailer_pk);
