/*
 * mtk.c - MediaTek MT753x special tag (net/dsa/tag_mtk.c).
 *
 * 4 bytes in the place of an 802.1Q tag:
 *
 *   | DA | SA | b0 | b1 | b2 b3 | type | ...
 *
 * host -> switch:
 *   b0: 0 = frame untagged (b2 b3 zero), 1 = the frame's 802.1Q tag
 *       (TPID 0x8100) is combined with this one, 2 = same with 0x88A8
 *   b1: destination ports 5:0 | SA_DIS 6 (do not learn the SA)
 *   b2 b3: the frame's VLAN TCI when b0 is 1 or 2
 * So Linux inserts 4 bytes into an untagged frame but overwrites only the
 * TPID of a tagged one; the untagged view puts the TPID back.
 *
 * switch -> host: source port = b1 2:0; Linux checks nothing else and
 * removes all 4 bytes.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "dsa/dsa_int.h"

#define MTK_HDR_LEN 4u
#define MTK_XMIT_UNTAGGED 0u
#define MTK_XMIT_TPID_8100 1u
#define MTK_XMIT_TPID_88A8 2u
#define MTK_XMIT_PORTS 6u
#define MTK_XMIT_SA_DIS 0x40u
#define MTK_RECV_PORT_MASK 0x07u

DSA_DECODER mtk_decode(int dir, const struct dsa_frame *f,
                       struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	const uint8_t *t = dsa_tag_after_sa(f, MTK_HDR_LEN);
	uint8_t tpid[2];
	int err;

	if (!t)
		return OFL_EBADMSG;
	if (dir == OFL_DSA_RX) {
		m->port = t[1] & MTK_RECV_PORT_MASK;
		m->valid = OFL_DSA_M_PORT;
		return dsa_view_after_sa(f, MTK_HDR_LEN, v);
	}
	if (t[0] > MTK_XMIT_TPID_88A8)
		return OFL_EBADMSG;
	dsa_meta_set_mask(m, t[1] & ((1u << MTK_XMIT_PORTS) - 1u));
	if (t[1] & MTK_XMIT_SA_DIS)
		m->flags |= OFL_DSA_MF_LEARN_DIS;
	if (t[0] == MTK_XMIT_UNTAGGED)
		return dsa_view_after_sa(f, MTK_HDR_LEN, v);
	m->vlan_tci = dsa_be16(t + 2);
	m->valid |= OFL_DSA_M_VLAN;
	if (t[0] == MTK_XMIT_TPID_88A8)
		m->flags |= OFL_DSA_MF_VLAN_S;
	/* only the TPID was replaced: give it back */
	dsa_put_be16(tpid, t[0] == MTK_XMIT_TPID_8100 ? DSA_ETH_P_8021Q
	                                              : DSA_ETH_P_8021AD);
	err = dsa_view_after_sa(f, 2, v);
	if (!err)
		dsa_view_insert(v, tpid, 2);
	return err;
}

static int mtk_encode(int dir, const struct ofl_dsa_meta *m, struct dsa_tx *tx)
{
	unsigned type = MTK_XMIT_UNTAGGED, b1;
	uint8_t *t, tag[MTK_HDR_LEN] = { MTK_XMIT_UNTAGGED, 0, 0, 0 };

	if (dir == OFL_DSA_TX) {
		uint32_t mask = dsa_meta_tx_mask(m);
		unsigned et = dsa_be16(tx->buf + tx->off + DSA_MACS_LEN);

		if (!dsa_mask_fits(mask, MTK_XMIT_PORTS))
			return OFL_ENOTSUP;
		b1 = mask | ((m->flags & OFL_DSA_MF_LEARN_DIS) ? MTK_XMIT_SA_DIS : 0);
		if (et == DSA_ETH_P_8021Q)
			type = MTK_XMIT_TPID_8100;
		else if (et == DSA_ETH_P_8021AD)
			type = MTK_XMIT_TPID_88A8;
		if (type != MTK_XMIT_UNTAGGED && tx->len < DSA_ETH_HLEN + DSA_VLAN_HLEN)
			return OFL_EINVAL;
	} else {
		if (!dsa_meta_port_upto(m, MTK_RECV_PORT_MASK))
			return OFL_ENOTSUP;
		b1 = m->port;
	}
	if (type != MTK_XMIT_UNTAGGED) {
		if (dsa_tx_check(tx, 0, tx->pad_to, 0))
			return OFL_ENOSPC;
		dsa_tx_pad(tx, tx->pad_to);
		t = tx->buf + tx->off + DSA_MACS_LEN;
		t[0] = (uint8_t)type;
		t[1] = (uint8_t)b1;
		return 0;
	}
	tag[1] = (uint8_t)b1;
	return dsa_tx_put(tx, DSA_AT_AFTER_SA, tag, MTK_HDR_LEN);
}

DSA_CODEC_D(mtk, mtk_decode, mtk_encode);
