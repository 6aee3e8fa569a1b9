/*
 * netc.c - NXP NETC switch tag (net/dsa/tag_netc.c), EtherType 0xFD3A.
 *
 *   | DA | SA | FD 3A | type | qos | sw_port | ... | type of frame | ...
 *     type:    tag type 7:4 | subtype 3:0
 *              Forward 0 (6 bytes), To_Port 1 (host -> switch, subtype 0:
 *              6 bytes), To_Host 2 (subtype 0: 6 bytes, 1 and 2: 14 bytes
 *              with a timestamp)
 *     qos:     IPV 4:2 | QV 0 (IPV valid)
 *     sw_port: port 7:3 | switch id 2:0
 *     byte 5 (and 6..13 of the long forms): zero on TX
 *
 * Linux RX pulls 14 bytes first whatever the type, refuses switch id 0
 * (ENETC VEPA, unsupported), accepts Forward and To_Host subtype 0 only.
 * Linux TX sends To_Port subtype 0 with QV set and the traffic class.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "dsa/dsa_int.h"

#define NETC_ETH_P 0xFD3Au
#define NETC_TAG_MAX_LEN 14u
#define NETC_TAG_SHORT_LEN 6u
#define NETC_TYPE_FORWARD 0u
#define NETC_TYPE_TO_PORT 1u
#define NETC_TYPE_TO_HOST 2u
#define NETC_QV 0x01u
#define NETC_IPV_SHIFT 2
#define NETC_SWITCH_MASK 0x07u
#define NETC_PORT_SHIFT 3

DSA_DECODER netc_decode(int dir, const struct dsa_frame *f,
                        struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	uint32_t need = dir == OFL_DSA_RX ? NETC_TAG_MAX_LEN : NETC_TAG_SHORT_LEN;
	const uint8_t *t = dsa_head(f, DSA_MACS_LEN, NETC_TAG_SHORT_LEN);
	unsigned type, subtype;

	if (!t || f->len < dsa_min_after_sa(need) || dsa_be16(t) != NETC_ETH_P)
		return OFL_EBADMSG;
	type = t[2] >> 4;
	subtype = t[2] & 0xFu;
	m->cmd = t[2];
	m->switch_id = t[4] & NETC_SWITCH_MASK;
	m->valid = OFL_DSA_M_CMD | OFL_DSA_M_SWITCH;
	if (t[3] & NETC_QV) {
		m->prio = (t[3] >> NETC_IPV_SHIFT) & 7u;
		m->valid |= OFL_DSA_M_PRIO;
	}
	if (dir == OFL_DSA_RX) {
		if (!m->switch_id)
			return OFL_EBADMSG;
		if (type == NETC_TYPE_TO_HOST ? subtype != 0 : type != NETC_TYPE_FORWARD)
			return OFL_EBADMSG;
		if (type == NETC_TYPE_TO_HOST)
			m->flags |= OFL_DSA_MF_TRAPPED;
		m->port = t[4] >> NETC_PORT_SHIFT;
		m->valid |= OFL_DSA_M_PORT;
	} else {
		if (type != NETC_TYPE_TO_PORT || subtype != 0)
			return OFL_EBADMSG;
		dsa_meta_set_mask(m, 1u << (t[4] >> NETC_PORT_SHIFT));
	}
	return dsa_view_after_sa(f, NETC_TAG_SHORT_LEN, v);
}

static int netc_encode(int dir, const struct ofl_dsa_meta *m, struct dsa_tx *tx)
{
	unsigned port, sw = (m->valid & OFL_DSA_M_SWITCH) ? m->switch_id : 0;
	unsigned type, qv = 0;
	uint8_t *t;
	int err = 0;

	if (dir == OFL_DSA_TX) {
		uint32_t mask = dsa_meta_tx_mask(m);

		if (!mask || (mask & (mask - 1)))
			return OFL_ENOTSUP;
		for (port = 0; !(mask & 1u); port++)
			mask >>= 1;
		type = NETC_TYPE_TO_PORT << 4;
		qv = NETC_QV | dsa_meta_prio(m, 8, &err) << NETC_IPV_SHIFT;
	} else {
		unsigned cmd = (m->valid & OFL_DSA_M_CMD) ? m->cmd : 0;

		if (!(m->valid & OFL_DSA_M_PORT) || !sw)
			return OFL_ENOTSUP;
		if (cmd != (NETC_TYPE_FORWARD << 4) && cmd != (NETC_TYPE_TO_HOST << 4))
			return OFL_ENOTSUP;
		port = m->port;
		type = cmd;
		if (m->valid & OFL_DSA_M_PRIO)
			qv = NETC_QV | dsa_meta_prio(m, 8, &err) << NETC_IPV_SHIFT;
	}
	if (port > 31 || sw > NETC_SWITCH_MASK)
		return OFL_ENOTSUP;
	if (err)
		return err;
	/* written in place (see dsa_tx_open) */
	t = dsa_tx_open(tx, DSA_AT_AFTER_SA, NETC_TAG_SHORT_LEN);
	if (!t)
		return OFL_ENOSPC;
	dsa_put_be16(t, NETC_ETH_P);
	t[2] = (uint8_t)type;
	t[3] = (uint8_t)qv;
	t[4] = (uint8_t)(port << NETC_PORT_SHIFT | sw);
	t[5] = 0;
	return 0;
}

DSA_CODEC_D(netc, netc_decode, netc_encode);
