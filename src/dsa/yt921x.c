/*
 * yt921x.c - Motorcomm YT921x (net/dsa/tag_yt921x.c).
 *
 * 8 bytes after SA, four big-endian words:
 *
 *   | DA | SA | 99 88 | VLAN TCI | w2 | w3 | type | ...
 *     w2: RX port valid 15 | RX source port 14:11 | priority 10:8 |
 *         code valid 7 | code 6:1
 *     w3: TX ports valid 15 | TX destination ports 10:0
 *
 * Linux RX refuses a wrong EtherType and w2 without "port valid"; codes
 * 0x19/0x1A (unknown unicast/multicast) were trapped, not forwarded.  Linux
 * TX writes TCI 0, code 0 (forward) with "code valid", the priority and the
 * port mask with "ports valid".
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "dsa/dsa_int.h"

#define YT_TAG_LEN 8u
#define YT_ETH_P 0x9988u
#define YT_PORT_EN 0x8000u
#define YT_RX_PORT_SHIFT 11
#define YT_PRIO_SHIFT 8
#define YT_CODE_EN 0x0080u
#define YT_CODE_SHIFT 1
#define YT_CODE_MASK 0x3Fu
#define YT_CODE_UNK_UCAST 0x19u
#define YT_CODE_UNK_MCAST 0x1Au
#define YT_TX_PORTS 11u

DSA_DECODER yt921x_decode(int dir, const struct dsa_frame *f,
                          struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	const uint8_t *t = dsa_tag_after_sa(f, YT_TAG_LEN);
	unsigned w2, w3;
	uint32_t valid = OFL_DSA_M_VLAN | OFL_DSA_M_PRIO;

	if (DSA_TAG_NOT_TYPED(t, YT_ETH_P))
		return OFL_EBADMSG;
	w2 = dsa_be16(t + 4);
	w3 = dsa_be16(t + 6);
	m->vlan_tci = dsa_be16(t + 2);
	m->prio = (w2 >> YT_PRIO_SHIFT) & 7u;
	/* valid gathered in a register and stored once, the trap test on the
	 * tag's bits: a store to meta may alias the frame, so a test of
	 * m->valid or m->code after it was a reload (yt921x one-call decode
	 * 69 -> 64 instructions) */
	if (w2 & YT_CODE_EN) {
		m->code = (w2 >> YT_CODE_SHIFT) & YT_CODE_MASK;
		valid |= OFL_DSA_M_CODE;
	}
	if (dir == OFL_DSA_RX) {
		if (!(w2 & YT_PORT_EN))
			return OFL_EBADMSG;
		m->port = (w2 >> YT_RX_PORT_SHIFT) & 0xFu;
		m->valid = valid | OFL_DSA_M_PORT;
		/* the code enabled and one of the two consecutive unknown-
		 * destination codes, as one compare of the tag's bits */
		_Static_assert(YT_CODE_UNK_MCAST == YT_CODE_UNK_UCAST + 1,
		               "one range compare");
		if ((w2 & (YT_CODE_EN | YT_CODE_MASK << YT_CODE_SHIFT)) -
		        (YT_CODE_EN | YT_CODE_UNK_UCAST << YT_CODE_SHIFT) <=
		    1u << YT_CODE_SHIFT)
			m->flags |= OFL_DSA_MF_TRAPPED;
	} else {
		m->valid = valid;
		if (!(w3 & YT_PORT_EN))
			return OFL_EBADMSG;
		dsa_meta_set_mask(m, w3 & ((1u << YT_TX_PORTS) - 1u));
	}
	return dsa_view_after_sa(f, YT_TAG_LEN, v);
}

static int yt921x_encode(int dir, const struct ofl_dsa_meta *m,
                         struct dsa_tx *tx)
{
	uint8_t t[YT_TAG_LEN] = { 0 };
	unsigned w2, code = 0;
	int err = 0;

	if (m->valid & OFL_DSA_M_CODE) {
		if (m->code > YT_CODE_MASK)
			return OFL_ENOTSUP;
		code = m->code;
	}
	w2 = YT_CODE_EN | code << YT_CODE_SHIFT |
	     dsa_meta_prio(m, 8, &err) << YT_PRIO_SHIFT;
	dsa_put_be16(t, YT_ETH_P);
	if (dir == OFL_DSA_TX) {
		uint32_t mask = dsa_meta_tx_mask(m);

		if (!dsa_mask_fits(mask, YT_TX_PORTS))
			return OFL_ENOTSUP;
		dsa_put_be16(t + 6, YT_PORT_EN | mask);
	} else {
		if (!dsa_meta_port_upto(m, 0xF))
			return OFL_ENOTSUP;
		w2 |= YT_PORT_EN | (unsigned)m->port << YT_RX_PORT_SHIFT;
		if (m->valid & OFL_DSA_M_VLAN)
			dsa_put_be16(t + 2, m->vlan_tci);
	}
	dsa_put_be16(t + 4, w2);
	return err ? err : dsa_tx_put(tx, DSA_AT_AFTER_SA, t, YT_TAG_LEN);
}

DSA_CODEC_D(yt921x, yt921x_decode, yt921x_encode);
