/*
 * a5psw.c - Renesas RZ/N1 A5PSW (net/dsa/tag_rzn1_a5psw.c).
 *
 * 8 bytes after SA, four big-endian words:
 *
 *   | DA | SA | E0 01 | ctrl_data | data2_hi | data2_lo | type | ...
 *   host -> switch: ctrl_data = 0x0001 (force forward), data2_hi = 0,
 *                   data2_lo 3:0 = destination port mask; Linux pads to 60
 *   switch -> host: ctrl_data 3:0 = source port
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "dsa/dsa_int.h"

#define A5PSW_TAG_LEN 8u
#define A5PSW_ETH_P 0xE001u
#define A5PSW_FORCE_FORWARD 0x0001u
#define A5PSW_PORT_MASK 0x000Fu

DSA_DECODER a5psw_decode(int dir, const struct dsa_frame *f,
                         struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	const uint8_t *t = dsa_tag_after_sa(f, A5PSW_TAG_LEN);

	if (DSA_TAG_NOT_TYPED(t, A5PSW_ETH_P))
		return OFL_EBADMSG;
	if (dir == OFL_DSA_RX) {
		m->port = dsa_be16(t + 2) & A5PSW_PORT_MASK;
		m->valid = OFL_DSA_M_PORT;
	} else {
		if (!(dsa_be16(t + 2) & A5PSW_FORCE_FORWARD))
			return OFL_EBADMSG;
		dsa_meta_set_mask(m, dsa_be16(t + 6) & A5PSW_PORT_MASK);
	}
	return dsa_view_after_sa(f, A5PSW_TAG_LEN, v);
}

static int a5psw_encode(int dir, const struct ofl_dsa_meta *m,
                        struct dsa_tx *tx)
{
	uint8_t t[A5PSW_TAG_LEN] = { 0 };

	dsa_put_be16(t, A5PSW_ETH_P);
	if (dir == OFL_DSA_TX) {
		uint32_t mask = dsa_meta_tx_mask(m);

		if (!dsa_mask_fits(mask, 4))
			return OFL_ENOTSUP;
		dsa_put_be16(t + 2, A5PSW_FORCE_FORWARD);
		dsa_put_be16(t + 6, mask);
	} else {
		if (!dsa_meta_port_upto(m, A5PSW_PORT_MASK))
			return OFL_ENOTSUP;
		dsa_put_be16(t + 2, m->port);
	}
	return dsa_tx_put(tx, DSA_AT_AFTER_SA, t, A5PSW_TAG_LEN);
}

DSA_CODEC_D(a5psw, a5psw_decode, a5psw_encode);
