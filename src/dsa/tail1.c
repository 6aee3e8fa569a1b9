/*
 * tail1.c - one-byte tail tags: hellcreek (Hirschmann, net/dsa/
 * tag_hellcreek.c) and xrs700x (Arrow/Flexibilis, net/dsa/tag_xrs700x.c).
 *
 *   | DA | SA | type | ... | t |
 *
 *   host -> switch, both: t = destination port mask (xrs700x: Linux adds
 *       the HSR/PRP partner port so the switch duplicates the frame)
 *   switch -> host: hellcreek: source port = t 1:0
 *                   xrs700x:   t is one-hot, source port = its lowest set
 *                              bit (Linux: ffs(t) - 1); t = 0 is refused
 *
 * Padded to 60 bytes before tagging, like every tail tag.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "dsa/dsa_int.h"

struct tail1_fmt {
	uint8_t one_hot;  /* RX byte is a one-hot port bit (xrs700x) */
	uint8_t rx_mask;  /* else: RX port = t & rx_mask (hellcreek) */
};

static const struct tail1_fmt hellcreek_fmt = { 0, 0x03 };
static const struct tail1_fmt xrs700x_fmt = { 1, 0 };

DSA_DECODER tail1_decode(const struct tail1_fmt *k,
                         const struct ofl_dsa_ops *ops,
                         const struct ofl_dsa_params *p, int dir,
                         const struct dsa_frame *f, struct ofl_dsa_meta *m,
                         struct ofl_dsa_view *v)
{
	const uint8_t *t = dsa_tail(f, 1);

	(void)ops;
	(void)p;
	if (!t || f->len < dsa_min_tail(1) || (k->one_hot && !t[0]))
		return OFL_EBADMSG;
	if (dir == OFL_DSA_TX) {
		dsa_meta_set_mask(m, t[0]);
	} else if (k->one_hot) {
		/* the lowest set bit's number (t[0] is not 0) */
#if defined(__GNUC__) || defined(__clang__)
		unsigned port = (unsigned)__builtin_ctz(t[0]);
#else
		unsigned port = 0;

		while (!(t[0] & (1u << port)))
			port++;
#endif
		m->port = (uint8_t)port;
		m->valid = OFL_DSA_M_PORT;
	} else {
		m->port = t[0] & k->rx_mask;
		m->valid = OFL_DSA_M_PORT;
	}
	return dsa_view_tail(f, 1, v);
}

static int tail1_encode(const struct tail1_fmt *k, const struct ofl_dsa_ops *ops,
                        const struct ofl_dsa_params *p, int dir,
                        const struct ofl_dsa_meta *m, struct dsa_tx *tx)
{
	uint32_t val;
	uint8_t t;

	(void)ops;
	(void)p;
	if (dir == OFL_DSA_TX) {
		val = dsa_meta_tx_mask(m);
		if (!dsa_mask_fits(val, 8))
			return OFL_ENOTSUP;
	} else {
		if (!dsa_meta_port_upto(m, k->one_hot ? 7 : k->rx_mask))
			return OFL_ENOTSUP;
		val = k->one_hot ? 1u << m->port : m->port;
	}
	t = (uint8_t)val;
	return dsa_tx_put(tx, DSA_AT_TAIL, &t, 1);
}

/* The packed burst's fast path (DSA_CODEC_PACKED_): the RX byte through a
 * table of its 256 values, the word exactly tail1_decode()'s (xrs700x:
 * the lowest set bit's number, DSA_PK_SLOW for 0, which the body refuses). */
#define TAIL1_LOWEST(b)                                                        \
	((b) & 1 ? 0 : (b) & 2 ? 1 : (b) & 4 ? 2 : (b) & 8 ? 3 : (b) & 16 ? 4 : \
	 (b) & 32 ? 5 : (b) & 64 ? 6 : 7)
#define TAIL1_PK(one_hot, b)                                                   \
	((one_hot) && !(b) ? DSA_PK_SLOW                                       \
	                   : DSA_PK_CUT(DSA_MACS_LEN, 1) |                      \
	                             DSA_PK_VALID(OFL_DSA_M_PORT) |             \
	                             DSA_PK_PORT((one_hot) ? TAIL1_LOWEST(b)    \
	                                                   : (b) & 0x03u)),
static const uint64_t tail1_pk_mask3[256] = DSA_BYTE_TABLE(TAIL1_PK, 0);
static const uint64_t tail1_pk_one_hot[256] = DSA_BYTE_TABLE(TAIL1_PK, 1);

DSA_INLINE uint64_t tail1_pk(const struct tail1_fmt *k, int dir,
                             const struct ofl_dsa_params *p,
                             const uint8_t *frame, uint32_t len)
{
	(void)p;
	return dsa_pk_last(dir, frame, len, k->one_hot ? tail1_pk_one_hot : tail1_pk_mask3);
}

DSA_CODEC_WITH_FAST(hellcreek, hellcreek_fmt, tail1_decode, tail1_encode, tail1_pk);
DSA_CODEC_WITH_FAST(xrs700x, xrs700x_fmt, tail1_decode, tail1_encode, tail1_pk);
