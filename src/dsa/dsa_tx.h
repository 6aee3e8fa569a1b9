/*
 * dsa_tx.h - in-place encode: the helpers every format's encoder uses to
 * pad an untagged frame as the kernel does and to open room for its tag
 * after the source MAC, before the destination MAC or at the tail.
 * Included by dsa_int.h, where it stood, after the types it uses.
 */
#ifndef OFL_SRC_DSA_TX_H
#define OFL_SRC_DSA_TX_H

/* The length the kernel pads an untagged frame of len bytes to on TX: the
 * tagger's own minimum (ops->tx_min_len, which is already 60 for taggers
 * that need tailroom), and 60 (eth_skb_pad in dsa_user_xmit) when the
 * conduit needs tailroom. */
static inline uint32_t dsa_tx_pad_len(const struct ofl_dsa_ops *ops,
                                      const struct ofl_dsa_params *p, int dir,
                                      uint32_t len)
{
	uint32_t min = ops->tx_min_len;

	if (dir != OFL_DSA_TX)
		return len;
	if (p->conduit_tailroom && min < DSA_ETH_ZLEN)
		min = DSA_ETH_ZLEN;
	return len < min ? min : len;
}

/* Check that tx can take `head` bytes in front after padding to pad_to and
 * `tail` bytes after: OFL_ENOSPC otherwise.  Writes nothing. */
static inline int dsa_tx_check(const struct dsa_tx *tx, uint32_t head,
                               uint32_t pad_to, uint32_t tail)
{
	uint32_t len = tx->len < pad_to ? pad_to : tx->len;
	uint64_t end = (uint64_t)tx->off + len + tail;

	if (tx->off < head || end > tx->size)
		return OFL_ENOSPC;
	return 0;
}

/* Zero-pad the frame to pad_to bytes (room checked before). */
static inline void dsa_tx_pad(struct dsa_tx *tx, uint32_t pad_to)
{
	if (tx->len >= pad_to)
		return;
	memset(tx->buf + tx->off + tx->len, 0, pad_to - tx->len);
	tx->len = pad_to;
}

/* Open n bytes between SA and EtherType; returns them. */
static inline uint8_t *dsa_tx_after_sa(struct dsa_tx *tx, uint32_t n)
{
	uint8_t *start = tx->buf + tx->off;
	uint8_t macs[DSA_MACS_LEN];

	/* through a copy rather than memmove: two fixed-size copies inline
	 * to a few moves where memmove stays a library call */
	memcpy(macs, start, DSA_MACS_LEN);
	memcpy(start - n, macs, DSA_MACS_LEN);
	tx->off -= n;
	tx->len += n;
	return tx->buf + tx->off + DSA_MACS_LEN;
}

/* Open n bytes before DA; returns them. */
static inline uint8_t *dsa_tx_before_da(struct dsa_tx *tx, uint32_t n)
{
	tx->off -= n;
	tx->len += n;
	return tx->buf + tx->off;
}

/* Append n bytes; returns them. */
static inline uint8_t *dsa_tx_tail(struct dsa_tx *tx, uint32_t n)
{
	uint8_t *p = tx->buf + tx->off + tx->len;

	tx->len += n;
	return p;
}

/* Where dsa_tx_put() writes. */
enum { DSA_AT_AFTER_SA, DSA_AT_BEFORE_DA, DSA_AT_TAIL };

/* Pad to tx->pad_to, check room and open n bytes at `at`;
 * returns them for the caller to fill, or NULL (nothing written) when the
 * room is missing.  Filling them in place rather than copying a tag built
 * on the stack avoids a wide load of bytes just stored one by one, which
 * the CPU cannot forward and stalls on. */
static inline uint8_t *dsa_tx_open(struct dsa_tx *tx, int at, uint32_t n)
{
	if (dsa_tx_check(tx, at == DSA_AT_TAIL ? 0 : n, tx->pad_to,
	                 at == DSA_AT_TAIL ? n : 0))
		return NULL;
	dsa_tx_pad(tx, tx->pad_to);
	if (at == DSA_AT_TAIL)
		return dsa_tx_tail(tx, n);
	if (at == DSA_AT_BEFORE_DA)
		return dsa_tx_before_da(tx, n);
	return dsa_tx_after_sa(tx, n);
}

/* The usual encode ending: dsa_tx_open() and copy the tag t there.
 * OFL_ENOSPC, nothing written, when the room is missing.  Inline: with
 * `at` and n constant the tag is copied with one or two moves. */
static inline int dsa_tx_put(struct dsa_tx *tx, int at, const uint8_t *t,
                             uint32_t n)
{
	uint8_t *dst = dsa_tx_open(tx, at, n);

	if (!dst)
		return OFL_ENOSPC;
	memcpy(dst, t, n);
	return 0;
}

#endif /* OFL_SRC_DSA_TX_H */
