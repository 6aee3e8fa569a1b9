/*
 * ksz.c - Microchip KSZ tail tags (net/dsa/tag_ksz.c): ksz8795, ksz9477,
 * ksz9893, lan937x.  All are appended after the payload, before the FCS.
 *
 * switch -> host, one byte (plus a 4-byte timestamp before it when bit 7
 * is set, ksz9477 family only):
 *
 *   | DA | SA | type | ... | [ts 4] | t0 |
 *     ksz8795: port = t0 1:0
 *     others:  port = t0 2:0, bit 7 = "ts present" (big-endian raw value)
 *
 * host -> switch (ts present when PTP is on in hardware, OFL_DSA_P_KSZ_PTP):
 *
 *   ksz8795  | t0 |          ports 4:0, override 6, lookup 7
 *   ksz9893  | [ts] t0 |     ports 2:0, prio 4:3, override 5, lookup 6
 *   ksz9477  | [ts] t0 t1 |  16 bits big-endian: ports 6:0, prio 8:7,
 *                            override 9, lookup 10
 *   lan937x  | [ts] t0 t1 |  ports 7:0, prio 10:8, override 11,
 *                            lookup 12, valid 13 (always set)
 *
 * Linux sets "override" (send even if the port is blocked by STP) for
 * link-local destinations, finishes L4 checksums before appending, and the
 * DSA core pads the frame to 60 bytes first.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "dsa/dsa_int.h"

#define KSZ_PTP_LEN 4u
#define KSZ_PTP_PRESENT 0x80u

struct ksz_fmt {
	uint8_t rx_port_mask;  /* port bits in the RX byte */
	uint8_t rx_ptp;        /* RX byte bit 7 announces a timestamp */
	uint8_t tx_len;        /* 1 or 2 tag bytes on TX */
	uint8_t tx_ptp;        /* TX may carry a timestamp field */
	uint8_t tx_ports;      /* ports in the TX bitmap */
	uint8_t prio_shift;
	uint8_t prio_bits;     /* 0: no priority */
	uint16_t override;
	uint16_t lookup;
	uint16_t valid;        /* bit always set on TX (lan937x) */
};

static const struct ksz_fmt ksz8795_fmt = { 0x03, 0, 1, 0, 5, 0, 0, 1u << 6, 1u << 7, 0 };
static const struct ksz_fmt ksz9477_fmt = { 0x07, 1, 2, 1, 7, 7, 2, 1u << 9, 1u << 10, 0 };
static const struct ksz_fmt ksz9893_fmt = { 0x07, 1, 1, 1, 3, 3, 2, 1u << 5, 1u << 6, 0 };
static const struct ksz_fmt lan937x_fmt = { 0x07, 1, 2, 1, 8, 8, 3, 1u << 11, 1u << 12, 1u << 13 };

DSA_INLINE int ksz_decode(const struct ksz_fmt *k,
                          const struct ofl_dsa_params *p, int dir,
                          const struct dsa_frame *f, struct ofl_dsa_meta *m,
                          struct ofl_dsa_view *v)
{
	uint32_t tag_len;
	const uint8_t *t;

	if (dir == OFL_DSA_RX) {
		t = dsa_tail(f, 1);
		if (!t || f->len < dsa_min_tail(1))
			return OFL_EBADMSG;
		tag_len = 1;
		m->port = t[0] & k->rx_port_mask;
		m->valid = OFL_DSA_M_PORT;
		if (k->rx_ptp && DSA_UNLIKELY(t[0] & KSZ_PTP_PRESENT)) {
			const uint8_t *ts = dsa_tail_at(f, 1, KSZ_PTP_LEN);

			tag_len += KSZ_PTP_LEN;
			if (!ts || f->len < dsa_min_tail(tag_len))
				return OFL_EBADMSG;
			m->tstamp = dsa_be32(ts);
			m->valid |= OFL_DSA_M_TSTAMP;
		}
		return dsa_view_tail(f, tag_len, v);
	}

	tag_len = k->tx_len;
	if (k->tx_ptp && (p->flags & OFL_DSA_P_KSZ_PTP))
		tag_len += KSZ_PTP_LEN;
	t = dsa_tail(f, tag_len);
	if (!t || f->len < dsa_min_tail(tag_len))
		return OFL_EBADMSG;
	{
		const uint8_t *tag = t + (tag_len - k->tx_len);
		unsigned val = k->tx_len == 2 ? dsa_be16(tag) : tag[0];

		if (k->valid && !(val & k->valid))
			return OFL_EBADMSG;
		dsa_meta_set_mask(m, val & ((1u << k->tx_ports) - 1u));
		if (k->prio_bits) {
			m->prio = (uint8_t)((val >> k->prio_shift) &
			                    ((1u << k->prio_bits) - 1u));
			m->valid |= OFL_DSA_M_PRIO;
		}
		if (val & k->override)
			m->flags |= OFL_DSA_MF_OVERRIDE;
		if (val & k->lookup)
			m->flags |= OFL_DSA_MF_LOOKUP;
		if (tag_len > k->tx_len) {
			m->tstamp = dsa_be32(t);
			m->valid |= OFL_DSA_M_TSTAMP;
		}
	}
	return dsa_view_tail(f, tag_len, v);
}

static int ksz_encode(const struct ksz_fmt *k,
                      const struct ofl_dsa_params *p, int dir,
                      const struct ofl_dsa_meta *m, struct dsa_tx *tx)
{
	uint8_t t[KSZ_PTP_LEN + 2];
	uint32_t n = 0;
	int ts, err = 0;

	if (dir == OFL_DSA_RX) {
		if (!dsa_meta_port_upto(m, k->rx_port_mask))
			return OFL_ENOTSUP;
		ts = k->rx_ptp && (m->valid & OFL_DSA_M_TSTAMP);
		if (ts) {
			if (m->tstamp > 0xFFFFFFFFu)
				return OFL_ENOTSUP;
			dsa_put_be32(t, (uint32_t)m->tstamp);
			n = KSZ_PTP_LEN;
		}
		t[n++] = (uint8_t)(m->port | (ts ? KSZ_PTP_PRESENT : 0));
	} else {
		uint32_t mask = dsa_meta_tx_mask(m);
		unsigned val;

		if (m->flags & OFL_DSA_MF_LOOKUP)
			mask &= (1u << k->tx_ports) - 1u;
		else if (!dsa_mask_fits(mask, k->tx_ports))
			return OFL_ENOTSUP;
		val = mask | k->valid;
		if (k->prio_bits)
			val |= dsa_meta_prio(m, 1u << k->prio_bits, &err) << k->prio_shift;
		else if ((m->valid & OFL_DSA_M_PRIO) && m->prio)
			return OFL_ENOTSUP;
		if ((m->flags & OFL_DSA_MF_OVERRIDE) ||
		    dsa_is_link_local(tx->buf + tx->off))
			val |= k->override;
		if (m->flags & OFL_DSA_MF_LOOKUP)
			val |= k->lookup;
		if (k->tx_ptp && (p->flags & OFL_DSA_P_KSZ_PTP)) {
			uint64_t raw = (m->valid & OFL_DSA_M_TSTAMP) ? m->tstamp : 0;

			if (raw > 0xFFFFFFFFu)
				return OFL_ENOTSUP;
			dsa_put_be32(t, (uint32_t)raw);
			n = KSZ_PTP_LEN;
		}
		if (k->tx_len == 2) {
			dsa_put_be16(t + n, val);
			n += 2;
		} else {
			t[n++] = (uint8_t)val;
		}
	}
	return err ? err : dsa_tx_put(tx, DSA_AT_TAIL, t, n);
}

DSA_DECODER ksz_decode_fmt(const struct ksz_fmt *k,
                           const struct ofl_dsa_ops *ops,
                           const struct ofl_dsa_params *p, int dir,
                           const struct dsa_frame *f, struct ofl_dsa_meta *m,
                           struct ofl_dsa_view *v)
{
	(void)ops;
	return ksz_decode(k, p, dir, f, m, v);
}

static int ksz_encode_fmt(const struct ksz_fmt *k, const struct ofl_dsa_ops *ops,
                          const struct ofl_dsa_params *p, int dir,
                          const struct ofl_dsa_meta *m, struct dsa_tx *tx)
{
	(void)ops;
	return ksz_encode(k, p, dir, m, tx);
}

/* The packed burst's fast path (DSA_CODEC_PACKED_): the RX byte through
 * a table of its 256 values, the word exactly ksz_decode()'s: the cut,
 * valid and the port, or DSA_PK_SLOW when bit 7 announces a timestamp
 * (ksz9477 family: the body reads it).  a: the port mask | rx_ptp << 8. */
#define KSZ_PK(a, b)                                                           \
	(((a) >> 8) && ((b) & KSZ_PTP_PRESENT)                                 \
	         ? DSA_PK_SLOW                                                  \
	         : DSA_PK_CUT(DSA_MACS_LEN, 1) | DSA_PK_VALID(OFL_DSA_M_PORT) | \
	                   DSA_PK_PORT((b) & (a) & 0xFFu)),
static const uint64_t ksz_pk_2[256] = DSA_BYTE_TABLE(KSZ_PK, 0x03);
static const uint64_t ksz_pk_3_ptp[256] = DSA_BYTE_TABLE(KSZ_PK, 0x107);

DSA_INLINE uint64_t ksz_pk(const struct ksz_fmt *k, int dir,
                           const struct ofl_dsa_params *p, const uint8_t *frame,
                           uint32_t len)
{
	(void)p;
	return dsa_pk_last(dir, frame, len, k->rx_ptp ? ksz_pk_3_ptp : ksz_pk_2);
}

DSA_CODEC_WITH_FAST(ksz8795, ksz8795_fmt, ksz_decode_fmt, ksz_encode_fmt, ksz_pk);
DSA_CODEC_WITH_FAST(ksz9477, ksz9477_fmt, ksz_decode_fmt, ksz_encode_fmt, ksz_pk);
DSA_CODEC_WITH_FAST(ksz9893, ksz9893_fmt, ksz_decode_fmt, ksz_encode_fmt, ksz_pk);
DSA_CODEC_WITH_FAST(lan937x, lan937x_fmt, ksz_decode_fmt, ksz_encode_fmt, ksz_pk);
