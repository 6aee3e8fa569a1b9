/*
 * tag_8021q.c - taggers built on the tag_8021q VLAN encoding
 * (net/dsa/tag_8021q.c): 8021q, ocelot-8021q (tag_ocelot_8021q.c),
 * vsc73xx-8021q (tag_vsc73xx_8021q.c), sja1105 and sja1110
 * (tag_sja1105.c, include/linux/dsa/sja1105.h).
 *
 * The tag is a VLAN header whose 12-bit VID says where the frame goes:
 *
 *   | DA | SA | TPID | PCP 15:13 | DEI 12 | VID 11:0 | type | ...
 *     VID: RSV 11:10 = 11 | VBID[2] 9 | SWITCH_ID 8:6 | VBID[1:0] 5:4 |
 *          PORT 3:0
 *   VBID 0 = this exact port; 1..7 = the broadcast domain of a bridge
 *   (then the port is not known).  PCP is the priority.  The TPID is 0x8100,
 *   or 0xDADB (ETH_P_DSA_8021Q) for sja1105/sja1110 when VLAN-unaware.
 *
 * A VLAN whose RSV bits are not 11 is ordinary traffic of a VLAN-aware
 * bridge: Linux finds the port through the bridge's VLAN table; decode
 * returns it with no port (meta.vlan_tci only) and leaves it in the frame,
 * except ocelot-8021q, whose Linux tagger drops such frames.
 *
 * sja1105 management (link-local) frames carry no VLAN; the switch writes
 * the source port into DA byte 3 and the switch id into DA byte 4, which
 * Linux clears again.  RX timestamps come in "meta" follow-up frames
 *
 *   | 01:80:C2:00:00:0E | 22:22:22:22:22:22 | 00 08 | ts 32 | DA[4] | DA[3]
 *   | port | switch | ...
 *
 * reported as OFL_DSA_MF_CONTROL frames.
 *
 * sja1110 management frames use an in-band control header after SA,
 * EtherType 0xDADC:
 *
 *   | DA | SA | DA DC | hdr 16 | [VLAN] | type | ... [| pad | trailer] |
 *   switch -> host: hdr = host-to-switch 15 (0) | meta frame 14 |
 *       host only 13 | trailer present 12 | without trailer: source port
 *       7:4, switch id 3:0; with trailer: padding start 11:0.  The 13-byte
 *       trailer ends the frame: timestamp 64 bits big-endian, 4 unused
 *       bytes, then switch id 7:4 | source port 3:0.
 *   host -> switch: hdr = 15 (1) | take timestamp 13 | trailer present 11 |
 *       trailer position 10:0; trailer (4 bytes, big-endian) = timestamp id
 *       31:24 | priority 23:21 | switch id 15:12 | destination ports 11:1.
 *   Linux sends data frames with the plain VLAN tag and link-local frames
 *   with a VLAN tag for VID 4095 plus this header and trailer.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "dsa/dsa_int.h"

#define Q_RSV_SHIFT 10
#define Q_RSV_VAL 3u
#define Q_VBID_HI_SHIFT 9
#define Q_VBID_LO_SHIFT 4
#define Q_VBID_BITS (1u << Q_VBID_HI_SHIFT | 3u << Q_VBID_LO_SHIFT)
#define Q_SWITCH_SHIFT 6
#define Q_SWITCH_MASK 7u
#define Q_PORT_MASK 0xFu
#define Q_PCP_SHIFT 13
#define Q_VID_MASK 0x0FFFu

#define SJA_ETH_P_8021Q 0xDADBu
#define SJA_ETH_P_META 0x0008u
#define SJA_ETH_P_1110 0xDADCu
#define SJA_DEFAULT_VLAN 4095u
#define SJA_META_LEN 8u

#define SJA1110_HDR_LEN 4u
#define SJA1110_HOST_TO_SWITCH 0x8000u
#define SJA1110_RX_IS_META 0x4000u
#define SJA1110_RX_HOST_ONLY 0x2000u
#define SJA1110_RX_HAS_TRAILER 0x1000u
#define SJA1110_RX_TRAILER_POS 0x0FFFu
#define SJA1110_RX_TRAILER_LEN 13u
#define SJA1110_TX_TAKE_TS 0x2000u
#define SJA1110_TX_HAS_TRAILER 0x0800u
#define SJA1110_TX_TRAILER_POS 0x07FFu
#define SJA1110_TX_TRAILER_LEN 4u
#define SJA1110_TX_PORTS 11u

enum q_kind { Q_GENERIC, Q_OCELOT, Q_VSC73XX, Q_SJA1105, Q_SJA1110 };

struct q_fmt {
	uint8_t kind;
	uint16_t tpid;   /* default TPID */
};

static const struct q_fmt q_generic = { Q_GENERIC, DSA_ETH_P_8021Q };
static const struct q_fmt q_ocelot = { Q_OCELOT, DSA_ETH_P_8021Q };
static const struct q_fmt q_vsc73xx = { Q_VSC73XX, DSA_ETH_P_8021Q };
static const struct q_fmt q_sja1105 = { Q_SJA1105, SJA_ETH_P_8021Q };
static const struct q_fmt q_sja1110 = { Q_SJA1110, SJA_ETH_P_8021Q };

static inline unsigned q_tpid(const struct q_fmt *q,
                              const struct ofl_dsa_params *p)
{
	return p->tpid ? p->tpid : q->tpid;
}

DSA_INLINE int q_tpid_ok(const struct q_fmt *q, const struct ofl_dsa_params *p,
                         unsigned tpid)
{
	if (tpid == q_tpid(q, p))
		return 1;
	/* sja1105/sja1110 also see 0x8100 from VLAN-aware ports */
	return !p->tpid && (q->kind == Q_SJA1105 || q->kind == Q_SJA1110) &&
	       tpid == DSA_ETH_P_8021Q;
}

/*
 * The VLAN tag at `off` (12, or 16 behind an sja1110 header).  Returns 1
 * when it is a tag_8021q tag (4 bytes to strip), 0 when it is some other
 * VLAN (kept in the frame), OFL_EBADMSG when there is no VLAN tag.
 * Fields already valid in meta (from an sja1110 header) are kept.
 */
DSA_INLINE int q_vlan(const struct q_fmt *q, const struct ofl_dsa_params *p,
                      const struct dsa_frame *f, uint32_t off,
                      struct ofl_dsa_meta *m)
{
	const uint8_t *t = dsa_head(f, off, DSA_VLAN_HLEN);
	unsigned tci, vbid, valid;

	if (!t || f->len < off + DSA_VLAN_HLEN + 2 ||
	    !q_tpid_ok(q, p, dsa_be16(t)))
		return OFL_EBADMSG;
	tci = dsa_be16(t + 2);
	m->vlan_tci = (uint16_t)tci;
	/* valid gathered in a register and stored once */
	valid = m->valid | OFL_DSA_M_VLAN;
	if ((tci & Q_RSV_VAL << Q_RSV_SHIFT) != Q_RSV_VAL << Q_RSV_SHIFT) {
		m->valid = valid;
		return 0;
	}
	valid |= OFL_DSA_M_VBID;
	if (!(valid & OFL_DSA_M_PRIO)) {
		m->prio = (uint8_t)(tci >> Q_PCP_SHIFT);
		valid |= OFL_DSA_M_PRIO;
	}
	/* vbid == 0 tested on the TCI's bits, so that a caller that does not
	 * read meta.vbid (the brief decode) does not assemble it; and only a
	 * non-zero vbid is assembled and stored: every entry hands the body a
	 * zeroed meta and nothing before this writes vbid, so the common
	 * frame (the port's own VID) pays neither */
	if (!OFL_LIKELY(!(tci & Q_VBID_BITS))) {
		vbid = ((tci >> Q_VBID_HI_SHIFT) & 1u) << 2 |
		       ((tci >> Q_VBID_LO_SHIFT) & 3u);
		m->vbid = (uint16_t)vbid;
	} else if (!(valid & OFL_DSA_M_PORT)) {
		m->switch_id = (tci >> Q_SWITCH_SHIFT) & Q_SWITCH_MASK;
		m->port = tci & Q_PORT_MASK;
		valid |= OFL_DSA_M_SWITCH | OFL_DSA_M_PORT;
	}
	m->valid = valid;
	return 1;
}

DSA_INLINE int q_decode_plain(const struct q_fmt *q,
                              const struct ofl_dsa_params *p,
                              const struct dsa_frame *f, struct ofl_dsa_meta *m,
                              struct ofl_dsa_view *v)
{
	int r = q_vlan(q, p, f, DSA_MACS_LEN, m);

	if (r < 0)
		return r;
	if (q->kind == Q_OCELOT && !(m->valid & OFL_DSA_M_PORT))
		return OFL_EBADMSG;
	return dsa_view_after_sa(f, r ? DSA_VLAN_HLEN : 0, v);
}

/* --- sja1105 ---------------------------------------------------------- */

static const uint8_t sja_meta_da[6] = { 0x01, 0x80, 0xC2, 0x00, 0x00, 0x0E };
static const uint8_t sja_meta_sa[6] = { 0x22, 0x22, 0x22, 0x22, 0x22, 0x22 };

static int sja_is_link_local(const uint8_t *fr)
{
	if (dsa_be16(fr + DSA_MACS_LEN) == SJA_ETH_P_META)
		return 0;
	return (fr[0] == 0x01 && fr[1] == 0x80 && fr[2] == 0xC2) ||
	       (fr[0] == 0x01 && fr[1] == 0x1B && fr[2] == 0x19);
}

/* sja1105 RX frames without a tag_8021q VLAN: management (link-local)
 * frames and timestamp meta frames.  Out of line and given the head
 * window as scalars, so that the common VLAN path pays neither for their
 * registers nor for a stack frame (the call is a plain jump). */
static OFL_NOINLINE int sja1105_rx_mgmt(struct ofl_dsa_view *v, int scratch,
                                        uint32_t head_len,
                                        const uint8_t *head, uint32_t len,
                                        struct ofl_dsa_meta *m)
{
	/* the head window only: this path reads nothing at the tail */
	const struct dsa_frame fc = { head, head, head_len, head_len, len,
	                              scratch, NULL, 0, 0 };
	const struct dsa_frame *f = &fc;
	const uint8_t *h = dsa_head(f, 0, DSA_ETH_HLEN);
	int err;

	if (!h)
		return OFL_EBADMSG;
	if (sja_is_link_local(h)) {
		/* management route: port and switch in DA bytes 3 and 4; a port
		 * the switch cannot have finds no user port in the kernel, which
		 * drops the frame */
		if (h[3] > Q_PORT_MASK)
			return OFL_EBADMSG;
		m->port = h[3];
		m->switch_id = h[4];
		m->valid = OFL_DSA_M_PORT | OFL_DSA_M_SWITCH;
		m->flags |= OFL_DSA_MF_LINK_LOCAL | OFL_DSA_MF_TRAPPED;
		err = dsa_view_after_sa(f, 0, v);
		if (!err && v) {
			dsa_view_insert(v, NULL, 0);
			v->buf[3] = 0;
			v->buf[4] = 0;
			v->mac_patched = 1;
		}
		return err;
	}
	if (!memcmp(h, sja_meta_da, 6) && !memcmp(h + 6, sja_meta_sa, 6) &&
	    dsa_be16(h + DSA_MACS_LEN) == SJA_ETH_P_META) {
		const uint8_t *b = dsa_head(f, DSA_ETH_HLEN, SJA_META_LEN);

		/* the kernel looks the meta frame's port up like any other
		 * (dsa_conduit_find_user) and drops it when there is none */
		if (!b || b[6] > Q_PORT_MASK)
			return OFL_EBADMSG;
		m->tstamp = dsa_be32(b);
		m->aux = (uint16_t)(b[5] << 8 | b[4]); /* DA bytes 3 and 4 */
		m->port = b[6];
		m->switch_id = b[7];
		m->valid = OFL_DSA_M_TSTAMP | OFL_DSA_M_AUX | OFL_DSA_M_PORT |
		           OFL_DSA_M_SWITCH;
		m->flags |= OFL_DSA_MF_CONTROL | OFL_DSA_MF_TRAPPED;
		return dsa_view_after_sa(f, 0, v);
	}
	return OFL_EBADMSG;
}

DSA_INLINE int sja1105_rx(const struct q_fmt *q,
                          const struct ofl_dsa_params *p,
                          const struct dsa_frame *f, struct ofl_dsa_meta *m,
                          struct ofl_dsa_view *v)
{
	const uint8_t *h = dsa_head(f, DSA_MACS_LEN, 2);

	if (!h || f->len < DSA_ETH_HLEN)
		return OFL_EBADMSG;
	if (q_tpid_ok(q, p, dsa_be16(h)))
		return q_decode_plain(q, p, f, m, v);
	if (f->prepared)
		return DSA_RARE; /* management and meta frames */
	/* (the arguments in the order that leaves the single-buffer entry's
	 * frame, len and meta in the registers they came in) */
	return sja1105_rx_mgmt(v, f->scratch, f->head_len, f->head, f->len, m);
}

DSA_INLINE int sja1110_rx(const struct q_fmt *q,
                          const struct ofl_dsa_params *p,
                          const struct dsa_frame *f, struct ofl_dsa_meta *m,
                          struct ofl_dsa_view *v)
{
	const uint8_t *h = dsa_head(f, DSA_MACS_LEN, SJA1110_HDR_LEN);
	uint32_t head = 0, end, tail = 0;
	unsigned hdr;
	int r, err;

	/* every RX frame has 4 bytes after SA (the VLAN tag or the header)
	 * and an EtherType after them: one length check for both paths */
	if (!h || f->len < dsa_min_after_sa(SJA1110_HDR_LEN))
		return OFL_EBADMSG;
	if (dsa_be16(h) != SJA_ETH_P_1110)
		return q_decode_plain(q, p, f, m, v);
	if (f->prepared)
		return DSA_RARE; /* link-local and meta frames */
	hdr = dsa_be16(h + 2);
	if (hdr & SJA1110_HOST_TO_SWITCH)
		return OFL_EBADMSG;
	head = SJA1110_HDR_LEN;
	end = f->len;
	m->flags |= OFL_DSA_MF_LINK_LOCAL;
	if (hdr & SJA1110_RX_HOST_ONLY)
		m->flags |= OFL_DSA_MF_HOST_ONLY | OFL_DSA_MF_TRAPPED;
	if (hdr & SJA1110_RX_IS_META) {
		/* timestamps of transmitted frames: for the switch driver */
		m->switch_id = hdr & 0xFu;
		m->valid = OFL_DSA_M_SWITCH;
		m->flags |= OFL_DSA_MF_CONTROL;
		return dsa_view_after_sa(f, head, v);
	}
	if (hdr & SJA1110_RX_HAS_TRAILER) {
		const uint8_t *tr = dsa_tail(f, SJA1110_RX_TRAILER_LEN);

		end = hdr & SJA1110_RX_TRAILER_POS;
		if (!tr || end < DSA_MACS_LEN + head + 2 ||
		    end > f->len - SJA1110_RX_TRAILER_LEN)
			return OFL_EBADMSG;
		m->tstamp = (uint64_t)dsa_be32(tr) << 32 | dsa_be32(tr + 4);
		m->switch_id = tr[12] >> 4;
		m->port = tr[12] & 0xFu;
		m->valid = OFL_DSA_M_TSTAMP;
		tail = f->len - end;
	} else {
		m->port = (hdr >> 4) & 0xFu;
		m->switch_id = hdr & 0xFu;
	}
	m->valid |= OFL_DSA_M_PORT | OFL_DSA_M_SWITCH;
	/* a tag_8021q VLAN may follow the header; it goes too */
	r = DSA_MACS_LEN + head + DSA_VLAN_HLEN + 2 <= end ?
	    q_vlan(q, p, f, DSA_MACS_LEN + head, m) : 0;
	if (r > 0)
		head += DSA_VLAN_HLEN;
	err = dsa_view_after_sa(f, head, v);
	if (!err && v) {
		v->tail_len = (uint16_t)tail;
		v->rest_len = end - v->rest_off;
	}
	return err;
}

/* --- TX ---------------------------------------------------------------- */

static inline int q_tx_tci(const struct ofl_dsa_meta *m, unsigned *tci)
{
	int err = 0;
	unsigned prio = dsa_meta_prio(m, 8, &err);
	unsigned vid = Q_RSV_VAL << Q_RSV_SHIFT;

	if ((m->valid & OFL_DSA_M_VBID) && m->vbid) {
		if (m->vbid > 7)
			return OFL_ENOTSUP;
		vid |= ((m->vbid >> 2) & 1u) << Q_VBID_HI_SHIFT |
		       (m->vbid & 3u) << Q_VBID_LO_SHIFT;
	} else {
		uint32_t mask = dsa_meta_tx_mask(m);
		unsigned port, sw = (m->valid & OFL_DSA_M_SWITCH) ? m->switch_id : 0;

		if (!dsa_mask_fits(mask, 16) || (mask & (mask - 1)) ||
		    sw > Q_SWITCH_MASK)
			return OFL_ENOTSUP;
		for (port = 0; !(mask & 1u); port++)
			mask >>= 1;
		vid |= sw << Q_SWITCH_SHIFT | port;
	}
	*tci = prio << Q_PCP_SHIFT | vid;
	return err;
}

static inline int q_encode_vlan(const struct q_fmt *q,
                                const struct ofl_dsa_params *p, unsigned tci,
                                struct dsa_tx *tx)
{
	uint8_t t[DSA_VLAN_HLEN];

	dsa_put_be16(t, q_tpid(q, p));
	dsa_put_be16(t + 2, tci);
	return dsa_tx_put(tx, DSA_AT_AFTER_SA, t, DSA_VLAN_HLEN);
}

/* sja1110 link-local TX: VLAN 4095 + in-band header + trailer */
static int sja1110_tx_mgmt(const struct q_fmt *q, const struct ofl_dsa_params *p,
                           const struct ofl_dsa_meta *m, struct dsa_tx *tx)
{
	uint32_t mask = dsa_meta_tx_mask(m), trailer;
	unsigned sw = (m->valid & OFL_DSA_M_SWITCH) ? m->switch_id : 0;
	unsigned hdr, pos;
	int err = 0;
	uint8_t *t;

	if (!dsa_mask_fits(mask, SJA1110_TX_PORTS) || sw > 0xF)
		return OFL_ENOTSUP;
	trailer = dsa_meta_prio(m, 8, &err) << 21 | sw << 12 | mask << 1;
	/* the trailer follows the padded frame */
	pos = (tx->len < tx->pad_to ? tx->pad_to : tx->len) + SJA1110_HDR_LEN +
	      DSA_VLAN_HLEN;
	if (pos > SJA1110_TX_TRAILER_POS)
		return OFL_ENOTSUP;
	if (!err)
		err = dsa_tx_check(tx, SJA1110_HDR_LEN + DSA_VLAN_HLEN, tx->pad_to,
		                   SJA1110_TX_TRAILER_LEN);
	if (err)
		return err;
	dsa_tx_pad(tx, tx->pad_to);
	t = dsa_tx_after_sa(tx, SJA1110_HDR_LEN + DSA_VLAN_HLEN);
	hdr = SJA1110_HOST_TO_SWITCH | SJA1110_TX_HAS_TRAILER | pos;
	dsa_put_be16(t, SJA_ETH_P_1110);
	dsa_put_be16(t + 2, hdr);
	dsa_put_be16(t + 4, q_tpid(q, p));
	dsa_put_be16(t + 6, (trailer >> 21 & 7u) << Q_PCP_SHIFT | SJA_DEFAULT_VLAN);
	dsa_put_be32(dsa_tx_tail(tx, SJA1110_TX_TRAILER_LEN), trailer);
	return 0;
}

static int sja1110_tx_decode(const struct q_fmt *q,
                             const struct ofl_dsa_params *p,
                             const struct dsa_frame *f,
                             struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	const uint8_t *h = dsa_head(f, DSA_MACS_LEN, SJA1110_HDR_LEN + DSA_VLAN_HLEN);
	const uint8_t *tr = dsa_tail(f, SJA1110_TX_TRAILER_LEN);
	uint32_t trailer, head = SJA1110_HDR_LEN;
	unsigned hdr;
	int err;

	if (!h || !tr || f->len < dsa_min_after_sa(SJA1110_HDR_LEN + DSA_VLAN_HLEN) +
	                          SJA1110_TX_TRAILER_LEN)
		return OFL_EBADMSG;
	hdr = dsa_be16(h + 2);
	if (!(hdr & SJA1110_HOST_TO_SWITCH) || !(hdr & SJA1110_TX_HAS_TRAILER) ||
	    (hdr & SJA1110_TX_TRAILER_POS) != f->len - SJA1110_TX_TRAILER_LEN)
		return OFL_EBADMSG;
	trailer = dsa_be32(tr);
	dsa_meta_set_mask(m, (trailer >> 1) & ((1u << SJA1110_TX_PORTS) - 1u));
	m->switch_id = (trailer >> 12) & 0xFu;
	m->prio = (trailer >> 21) & 7u;
	m->valid |= OFL_DSA_M_SWITCH | OFL_DSA_M_PRIO;
	m->flags |= OFL_DSA_MF_LINK_LOCAL;
	/* the VLAN 4095 tag Linux adds to control frames goes too */
	if (q_tpid_ok(q, p, dsa_be16(h + 4)) &&
	    (dsa_be16(h + 6) & Q_VID_MASK) == SJA_DEFAULT_VLAN)
		head += DSA_VLAN_HLEN;
	err = dsa_view_after_sa(f, head, v);
	if (!err && v) {
		v->tail_len = SJA1110_TX_TRAILER_LEN;
		v->rest_len -= SJA1110_TX_TRAILER_LEN;
	}
	return err;
}

DSA_DECODER q_decode(const struct q_fmt *q, const struct ofl_dsa_ops *ops,
                     const struct ofl_dsa_params *p, int dir,
                     const struct dsa_frame *f, struct ofl_dsa_meta *m,
                     struct ofl_dsa_view *v)
{
	const uint8_t *h = dsa_head(f, DSA_MACS_LEN, 2);
	int err;

	(void)ops;
	if (!h || f->len < DSA_ETH_HLEN)
		return OFL_EBADMSG;
	if (q->kind == Q_SJA1110) {
		if (dir == OFL_DSA_TX && dsa_be16(h) == SJA_ETH_P_1110) {
			/* a copy: only this path needs the frame in memory */
			const struct dsa_frame fc = *f;

			return sja1110_tx_decode(q, p, &fc, m, v);
		}
		if (dir == OFL_DSA_RX)
			return sja1110_rx(q, p, f, m, v);
	}
	if (q->kind == Q_SJA1105 && dir == OFL_DSA_RX)
		return sja1105_rx(q, p, f, m, v);
	err = q_decode_plain(q, p, f, m, v);
	if (!err && dir == OFL_DSA_TX && (m->valid & OFL_DSA_M_PORT))
		dsa_meta_set_mask(m, 1u << m->port);
	return err;
}

static int q_encode(const struct q_fmt *q, const struct ofl_dsa_ops *ops,
                    const struct ofl_dsa_params *p, int dir, const struct ofl_dsa_meta *m, struct dsa_tx *tx)
{
	unsigned tci;
	int err;

	(void)ops;
	if (q->kind == Q_SJA1110 && dir == OFL_DSA_TX &&
	    sja_is_link_local(tx->buf + tx->off))
		return sja1110_tx_mgmt(q, p, m, tx);
	if (dir == OFL_DSA_RX) {
		/* the switch tags RX frames with the ingress port's RX VID */
		if (!dsa_meta_port_upto(m, Q_PORT_MASK))
			return OFL_ENOTSUP;
		{
			struct ofl_dsa_meta one = *m;

			one.valid &= ~(uint32_t)(OFL_DSA_M_PORT_MASK | OFL_DSA_M_VBID);
			err = q_tx_tci(&one, &tci);
		}
	} else if (q->kind == Q_SJA1105 && sja_is_link_local(tx->buf + tx->off)) {
		/* Linux steers these through SPI management routes and only
		 * tags them with the default VLAN 4095 */
		int e2 = 0;

		tci = dsa_meta_prio(m, 8, &e2) << Q_PCP_SHIFT | SJA_DEFAULT_VLAN;
		err = e2;
	} else {
		err = q_tx_tci(m, &tci);
	}
	return err ? err : q_encode_vlan(q, p, tci, tx);
}

/* The packed burst's fast path (DSA_CODEC_PACKED_): an RX frame with a
 * tag_8021q VLAN of the port's own VID (RSV 11, VBID 0) in two table reads
 * of the TCI bytes after the TPID check, the word exactly q_vlan()'s and
 * q_decode_plain()'s (every kind's, sja1105 and sja1110 too: a frame whose
 * TPID matches takes that path in theirs).  q_pk_t2[TCI 15:8]: RSV and
 * VBID[2] checked, the cut, valid and switch bit 2; q_pk_t3[TCI 7:0]:
 * VBID[1:0] checked, switch bits 1:0 and the port.  Any other VID, and
 * every other frame, goes to the body (DSA_PK_SLOW). */
#define Q_PK_T2(a, b)                                                          \
	(((b) & 0x0Eu) == (Q_RSV_VAL << Q_RSV_SHIFT) >> 8                      \
	         ? DSA_PK_CUT(DSA_MACS_LEN + DSA_VLAN_HLEN, 0) |                \
	                   DSA_PK_VALID(OFL_DSA_M_PORT | OFL_DSA_M_SWITCH) |    \
	                   DSA_PK_SWITCH(((b) & 1u) << 2)                       \
	         : DSA_PK_SLOW),
#define Q_PK_T3(a, b)                                                          \
	((b) & (3u << Q_VBID_LO_SHIFT)                                         \
	         ? DSA_PK_SLOW                                                  \
	         : DSA_PK_SWITCH((b) >> Q_SWITCH_SHIFT) | DSA_PK_PORT((b) & Q_PORT_MASK)),
static const uint64_t q_pk_t2[256] = DSA_BYTE_TABLE(Q_PK_T2, 0);
static const uint64_t q_pk_t3[256] = DSA_BYTE_TABLE(Q_PK_T3, 0);
_Static_assert(Q_VBID_BITS >> 8 == 0x02u && (Q_RSV_VAL << Q_RSV_SHIFT) >> 8 == 0x0Cu,
               "the tables' view of the TCI's high byte");

DSA_INLINE uint64_t q_pk(const struct q_fmt *q, int dir,
                         const struct ofl_dsa_params *p, const uint8_t *frame,
                         uint32_t len)
{
	unsigned tpid;

	if (dir != OFL_DSA_RX || len < DSA_MACS_LEN + DSA_VLAN_HLEN + 2)
		return DSA_PK_SLOW;
	tpid = dsa_be16(frame + DSA_MACS_LEN);
	/* sja1110 reads 0xDADC as its control header first, even when the
	 * params name it as the TPID (sja1110_rx): the body decides */
	if (!q_tpid_ok(q, p, tpid) || (q->kind == Q_SJA1110 && tpid == SJA_ETH_P_1110))
		return DSA_PK_SLOW;
	return q_pk_t2[frame[DSA_MACS_LEN + 2]] | q_pk_t3[frame[DSA_MACS_LEN + 3]];
}

DSA_CODEC_WITH_P_FAST(ocelot_8021q, q_ocelot, q_decode, q_encode, q_pk);
DSA_CODEC_WITH_P_FAST(vsc73xx_8021q, q_vsc73xx, q_decode, q_encode, q_pk);
DSA_CODEC_WITH_P_FAST(sja1105, q_sja1105, q_decode, q_encode, q_pk);
DSA_CODEC_WITH_P_FAST(sja1110, q_sja1110, q_decode, q_encode, q_pk);
/* "8021q" cannot start an identifier */
DSA_CODEC_WITH_P_FAST(generic_8021q, q_generic, q_decode, q_encode, q_pk);
