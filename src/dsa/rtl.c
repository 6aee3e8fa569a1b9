/*
 * rtl.c - Realtek tags, EtherType 0x8899: rtl4a (net/dsa/tag_rtl4_a.c),
 * rtl8_4 and rtl8_4t (net/dsa/tag_rtl8_4.c).
 *
 * rtl4a (RTL8366RB), 4 bytes after SA:
 *
 *   | DA | SA | 88 99 | protocol 15:12 = 0xA | ports 11:0 | type | ...
 *   host -> switch: bits 11:0 a destination port mask; Linux pads to 60
 *   switch -> host: bits 7:0 the source port number
 *
 * rtl8_4 (RTL8365MB), 8 bytes after SA; rtl8_4t puts the same 8 bytes at
 * the end of the frame instead (Linux pads to 60 and finishes checksums):
 *
 *   | DA | SA | 88 99 | 04 | reason | w2 16 | w3 16 | type | ...
 *     reason (switch -> host): 0 forwarded, 80 trapped
 *     w2: FID_EN 15 | FID 13:12 | PRI_EN 11 | PRI 10:8 | KEEP 7 |
 *         LEARN_DIS 5
 *     w3: ALLOW 15 | switch -> host: source port 3:0;
 *                    host -> switch: destination ports 10:0
 *   Linux TX sets LEARN_DIS and the port mask, nothing else.
 *
 * The same EtherType carries other Realtek protocols (RRCP, loop
 * detection): a frame whose protocol byte does not match is refused.
 * Linux's rtl4a passes non-0x8899 frames through untouched; here they are
 * refused too, since they carry no port.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "dsa/dsa_int.h"

#define RTL_ETH_P_REALTEK 0x8899u

#define RTL4A_HDR_LEN 4u
#define RTL4A_PROTOCOL 0xAu
#define RTL4A_TX_PORTS 12u

#define RTL8_4_TAG_LEN 8u
#define RTL8_4_PROTOCOL 0x04u
#define RTL8_4_REASON_TRAP 80u
#define RTL8_4_PRI_EN 0x0800u
#define RTL8_4_PRI_SHIFT 8
#define RTL8_4_LEARN_DIS 0x0020u
_Static_assert(RTL8_4_LEARN_DIS == OFL_DSA_MF_LEARN_DIS, "w2's LEARN_DIS bit is copied as is");
#define RTL8_4_RX_PORT_MASK 0x000Fu
#define RTL8_4_TX_PORTS 11u

DSA_DECODER rtl4a_decode(int dir, const struct dsa_frame *f,
                         struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	const uint8_t *t = dsa_tag_after_sa(f, RTL4A_HDR_LEN);
	unsigned pp;

	if (DSA_TAG_NOT_TYPED(t, RTL_ETH_P_REALTEK))
		return OFL_EBADMSG;
	pp = dsa_be16(t + 2);
	if (pp >> 12 != RTL4A_PROTOCOL)
		return OFL_EBADMSG;
	if (dir == OFL_DSA_RX) {
		m->port = (uint8_t)pp;
		m->valid = OFL_DSA_M_PORT;
	} else {
		dsa_meta_set_mask(m, pp & ((1u << RTL4A_TX_PORTS) - 1u));
	}
	return dsa_view_after_sa(f, RTL4A_HDR_LEN, v);
}

static int rtl4a_encode(int dir, const struct ofl_dsa_meta *m,
                        struct dsa_tx *tx)
{
	unsigned pp = RTL4A_PROTOCOL << 12;
	uint8_t t[RTL4A_HDR_LEN];

	if (dir == OFL_DSA_TX) {
		uint32_t mask = dsa_meta_tx_mask(m);

		if (!dsa_mask_fits(mask, RTL4A_TX_PORTS))
			return OFL_ENOTSUP;
		pp |= mask;
	} else {
		if (!(m->valid & OFL_DSA_M_PORT))
			return OFL_ENOTSUP;
		pp |= m->port;
	}
	dsa_put_be16(t, RTL_ETH_P_REALTEK);
	dsa_put_be16(t + 2, pp);
	return dsa_tx_put(tx, DSA_AT_AFTER_SA, t, RTL4A_HDR_LEN);
}

/* The 8 bytes of an rtl8_4 tag wherever they are. */
DSA_INLINE int rtl8_4_read(int dir, const uint8_t *t, struct ofl_dsa_meta *m)
{
	unsigned w2, w3;

	if (dsa_be16(t) != RTL_ETH_P_REALTEK || t[2] != RTL8_4_PROTOCOL)
		return OFL_EBADMSG;
	w2 = dsa_be16(t + 4);
	w3 = dsa_be16(t + 6);
	if (w2 & RTL8_4_PRI_EN) {
		m->prio = (w2 >> RTL8_4_PRI_SHIFT) & 7u;
		m->valid |= OFL_DSA_M_PRIO;
	}
	/* the flag has the tag bit's value (one AND, no test) */
	m->flags |= t[5] & RTL8_4_LEARN_DIS;
	if (dir == OFL_DSA_RX) {
		m->code = t[3];
		m->port = t[7] & RTL8_4_RX_PORT_MASK; /* w3 3:0 */
		m->valid |= OFL_DSA_M_CODE | OFL_DSA_M_PORT;
		if (t[3] == RTL8_4_REASON_TRAP)
			m->flags |= OFL_DSA_MF_TRAPPED;
	} else {
		dsa_meta_set_mask(m, w3 & ((1u << RTL8_4_TX_PORTS) - 1u));
	}
	return 0;
}

static inline int rtl8_4_write(int dir, const struct ofl_dsa_meta *m,
                               uint8_t t[8])
{
	unsigned w2 = 0, w3;
	int err = 0;

	if (dir == OFL_DSA_TX) {
		uint32_t mask = dsa_meta_tx_mask(m);

		if (!dsa_mask_fits(mask, RTL8_4_TX_PORTS))
			return OFL_ENOTSUP;
		w2 = RTL8_4_LEARN_DIS;
		w3 = mask;
		t[3] = 0;
	} else {
		if (!dsa_meta_port_upto(m, RTL8_4_RX_PORT_MASK))
			return OFL_ENOTSUP;
		if ((m->valid & OFL_DSA_M_CODE) && m->code > 0xFF)
			return OFL_ENOTSUP;
		w3 = m->port;
		t[3] = (m->valid & OFL_DSA_M_CODE) ? (uint8_t)m->code : 0;
		if (m->flags & OFL_DSA_MF_LEARN_DIS)
			w2 |= RTL8_4_LEARN_DIS;
	}
	if (m->valid & OFL_DSA_M_PRIO)
		w2 |= RTL8_4_PRI_EN | dsa_meta_prio(m, 8, &err) << RTL8_4_PRI_SHIFT;
	dsa_put_be16(t, RTL_ETH_P_REALTEK);
	t[2] = RTL8_4_PROTOCOL;
	dsa_put_be16(t + 4, w2);
	dsa_put_be16(t + 6, w3);
	return err;
}

/* rtl8_4 and rtl8_4t: the same 8 bytes, where dsa_tx_put() puts them. */
struct rtl8_4_fmt {
	int at; /* DSA_AT_AFTER_SA or DSA_AT_TAIL */
};
static const struct rtl8_4_fmt rtl8_4_after_sa = { .at = DSA_AT_AFTER_SA },
                               rtl8_4_at_tail = { .at = DSA_AT_TAIL };

DSA_DECODER rtl8_4_decode(const struct rtl8_4_fmt *k,
                          const struct ofl_dsa_ops *ops,
                          const struct ofl_dsa_params *p, int dir,
                          const struct dsa_frame *f, struct ofl_dsa_meta *m,
                          struct ofl_dsa_view *v)
{
	const uint8_t *t = k->at == DSA_AT_TAIL ? dsa_tail(f, RTL8_4_TAG_LEN)
	                           : dsa_tag_after_sa(f, RTL8_4_TAG_LEN);
	int err;

	(void)ops;
	(void)p;
	if (!t || (k->at == DSA_AT_TAIL && f->len < dsa_min_tail(RTL8_4_TAG_LEN)))
		return OFL_EBADMSG;
	err = rtl8_4_read(dir, t, m);
	if (err)
		return err;
	return k->at == DSA_AT_TAIL ? dsa_view_tail(f, RTL8_4_TAG_LEN, v)
	               : dsa_view_after_sa(f, RTL8_4_TAG_LEN, v);
}

static int rtl8_4_encode(const struct rtl8_4_fmt *k,
                         const struct ofl_dsa_ops *ops,
                         const struct ofl_dsa_params *p, int dir,
                         const struct ofl_dsa_meta *m, struct dsa_tx *tx)
{
	uint8_t t[RTL8_4_TAG_LEN];
	int err = rtl8_4_write(dir, m, t);

	(void)ops;
	(void)p;
	return err ? err : dsa_tx_put(tx, k->at, t, RTL8_4_TAG_LEN);
}

DSA_CODEC_D(rtl4a, rtl4a_decode, rtl4a_encode);
/* The packed burst's fast path (DSA_CODEC_PACKED_): an RX tag of a
 * forwarded frame (EtherType, protocol and reason 0 as one compare of the
 * first 4 bytes; a trapped frame, reason 80, goes to the body), LEARN_DIS
 * and the port through tables of w2's low byte and w3's; the word exactly
 * rtl8_4_decode()'s.  rtl8_4_pk_<cut>[t5]: the cut, valid and the flag;
 * rtl8_4_pk_t7[t7]: the port. */
#define RTL8_4_PK_T5(cut, b)                                                   \
	((cut) | DSA_PK_VALID(OFL_DSA_M_PORT) | DSA_PK_FLAGS((b) & RTL8_4_LEARN_DIS)),
#define RTL8_4_PK_T7(a, b) DSA_PK_PORT((b) & RTL8_4_RX_PORT_MASK),
static const uint64_t rtl8_4_pk_after_sa[256] =
	DSA_BYTE_TABLE(RTL8_4_PK_T5, DSA_PK_CUT(DSA_MACS_LEN + RTL8_4_TAG_LEN, 0));
static const uint64_t rtl8_4_pk_tail[256] =
	DSA_BYTE_TABLE(RTL8_4_PK_T5, DSA_PK_CUT(DSA_MACS_LEN, RTL8_4_TAG_LEN));
static const uint64_t rtl8_4_pk_t7[256] = DSA_BYTE_TABLE(RTL8_4_PK_T7, 0);
/* the tag's first 4 bytes (88 99 04 00, reason 0) taken little-endian */
#define RTL8_4_PK_LE0 (RTL8_4_PROTOCOL << 16 | (RTL_ETH_P_REALTEK & 0xFFu) << 8 | \
                       RTL_ETH_P_REALTEK >> 8)

DSA_INLINE uint64_t rtl8_4_pk(const struct rtl8_4_fmt *k, int dir,
                              const struct ofl_dsa_params *p,
                              const uint8_t *frame, uint32_t len)
{
	const int tail = k->at == DSA_AT_TAIL;
	const uint8_t *t;

	(void)p;
	/* the same minimum either way: 12 + 8 + 2 after SA, 14 + 8 at the
	 * tail */
	if (dir != OFL_DSA_RX || len < dsa_min_after_sa(RTL8_4_TAG_LEN) ||
	    len < dsa_min_tail(RTL8_4_TAG_LEN))
		return DSA_PK_SLOW;
	if (tail) {
		const uint8_t *e = frame + len;

		if (dsa_le32(e - RTL8_4_TAG_LEN) != RTL8_4_PK_LE0)
			return DSA_PK_SLOW;
		return rtl8_4_pk_tail[e[5 - (int)RTL8_4_TAG_LEN]] |
		       rtl8_4_pk_t7[e[7 - (int)RTL8_4_TAG_LEN]];
	}
	t = frame + DSA_MACS_LEN;
	if (dsa_be32(t) != (RTL_ETH_P_REALTEK << 16 | RTL8_4_PROTOCOL << 8))
		return DSA_PK_SLOW;
	return rtl8_4_pk_after_sa[t[5]] | rtl8_4_pk_t7[t[7]];
}

DSA_CODEC_WITH_FAST(rtl8_4, rtl8_4_after_sa, rtl8_4_decode, rtl8_4_encode, rtl8_4_pk);
DSA_CODEC_WITH_FAST(rtl8_4t, rtl8_4_at_tail, rtl8_4_decode, rtl8_4_encode, rtl8_4_pk);
