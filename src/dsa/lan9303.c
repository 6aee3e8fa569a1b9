/*
 * lan9303.c - SMSC/Microchip LAN9303 (net/dsa/tag_lan9303.c).
 *
 * An 802.1Q-shaped tag whose VID has a special meaning:
 *
 *   | DA | SA | 81 00 | TCI | type | ...
 *   host -> switch: VID bit 3 = use ALR lookup (then no port), else
 *                   VID 1:0 = destination port (3 = broadcast) and
 *                   bit 4 = override the STP port state (Linux always
 *                   sets it when it names a port)
 *   switch -> host: VID 1:0 = source port, bit 3 = IGMP trap, bit 4 = STP
 *                   trap (trapped frames were not forwarded by hardware)
 *
 * Linux pops the tag without looking at the TPID; this library requires
 * 0x8100, the only TPID the switch uses.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "dsa/dsa_int.h"

#define LAN9303_TAG_LEN 4u
#define LAN9303_PORT_MASK 0x3u
#define LAN9303_TX_USE_ALR 0x8u
#define LAN9303_TX_STP_OVERRIDE 0x10u
#define LAN9303_RX_TRAP_SHIFT 3
#define LAN9303_RX_TRAPPED 0x18u

DSA_DECODER lan9303_decode(int dir, const struct dsa_frame *f,
                           struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	const uint8_t *t = dsa_tag_after_sa(f, LAN9303_TAG_LEN);
	unsigned tci;

	if (DSA_TAG_NOT_TYPED(t, DSA_ETH_P_8021Q))
		return OFL_EBADMSG;
	tci = dsa_be16(t + 2);
	m->vlan_tci = (uint16_t)tci;
	m->valid = OFL_DSA_M_VLAN;
	if (dir == OFL_DSA_RX) {
		m->port = tci & LAN9303_PORT_MASK;
		m->code = (tci & LAN9303_RX_TRAPPED) >> LAN9303_RX_TRAP_SHIFT;
		m->valid |= OFL_DSA_M_PORT | OFL_DSA_M_CODE;
		if (tci & LAN9303_RX_TRAPPED)
			m->flags |= OFL_DSA_MF_TRAPPED;
	} else if (tci & LAN9303_TX_USE_ALR) {
		m->flags |= OFL_DSA_MF_LOOKUP;
	} else {
		dsa_meta_set_mask(m, 1u << (tci & LAN9303_PORT_MASK));
		if (tci & LAN9303_TX_STP_OVERRIDE)
			m->flags |= OFL_DSA_MF_OVERRIDE;
	}
	return dsa_view_after_sa(f, LAN9303_TAG_LEN, v);
}

static int lan9303_encode(int dir, const struct ofl_dsa_meta *m,
                          struct dsa_tx *tx)
{
	uint8_t t[LAN9303_TAG_LEN];
	unsigned tci;

	if (dir == OFL_DSA_TX) {
		if (m->flags & OFL_DSA_MF_LOOKUP) {
			tci = LAN9303_TX_USE_ALR;
		} else {
			uint32_t mask = dsa_meta_tx_mask(m);

			if (!dsa_mask_fits(mask, 4) || (mask & (mask - 1)))
				return OFL_ENOTSUP;
			for (tci = 0; !(mask & 1u); tci++)
				mask >>= 1;
			tci |= LAN9303_TX_STP_OVERRIDE;
		}
	} else {
		if (!dsa_meta_port_upto(m, LAN9303_PORT_MASK))
			return OFL_ENOTSUP;
		tci = m->port;
		if (m->valid & OFL_DSA_M_CODE) {
			if (m->code > 3)
				return OFL_ENOTSUP;
			tci |= (unsigned)m->code << LAN9303_RX_TRAP_SHIFT;
		}
	}
	dsa_put_be16(t, DSA_ETH_P_8021Q);
	dsa_put_be16(t + 2, tci);
	return dsa_tx_put(tx, DSA_AT_AFTER_SA, t, LAN9303_TAG_LEN);
}

DSA_CODEC_D(lan9303, lan9303_decode, lan9303_encode);
