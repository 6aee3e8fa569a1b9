/*
 * common.c - geometry shared by all DSA tag codecs: in-place room making
 * for encode, meta helpers, the Ethernet CRC.  The views of the untagged
 * frame (dsa_view_*) are inline in dsa_int.h: they run on every decode.
 *
 * Three tag positions, one picture each (offsets in the tagged frame):
 *
 *   after SA:   | DA 6 | SA 6 | tag N | type | ...          MACs at 0,
 *                                                          rest at 12 + N
 *   before DA:  | tag N | DA 6 | SA 6 | type | ...         MACs at N,
 *                                                          rest at N + 12
 *   tail:       | DA 6 | SA 6 | type | ... | tag N |       MACs at 0,
 *                                                          rest 12 .. len-N
 *
 * Stripping moves the 12 MAC bytes forward so they end right before `rest`
 * (the kernel's dsa_strip_etype_header); inserting moves them back to open
 * the gap (dsa_alloc_etype_header).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "dsa/dsa_int.h"

uint32_t dsa_meta_tx_mask(const struct ofl_dsa_meta *m)
{
	if (m->valid & OFL_DSA_M_PORT_MASK)
		return m->port_mask;
	if ((m->valid & OFL_DSA_M_PORT) && m->port < 32)
		return (uint32_t)1 << m->port;
	return 0;
}

int dsa_mask_fits(uint32_t mask, unsigned nports)
{
	if (!mask)
		return 0;
	return nports >= 32 || mask < ((uint32_t)1 << nports);
}

unsigned dsa_meta_prio(const struct ofl_dsa_meta *m, unsigned nprios, int *err)
{
	if (!(m->valid & OFL_DSA_M_PRIO))
		return 0;
	if (m->prio >= nprios)
		*err = OFL_ENOTSUP;
	return m->prio;
}

int dsa_is_link_local(const uint8_t *da)
{
	return da[0] == 0x01 && da[1] == 0x80 && da[2] == 0xC2 &&
	       da[3] == 0x00 && da[4] == 0x00 && (da[5] & 0xF0) == 0x00;
}

int dsa_decode_fail(int err, struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	memset(m, 0, sizeof(*m));
	if (v)
		memset(v, 0, sizeof(*v));
	return err;
}

int dsa_tx_check(const struct dsa_tx *tx, uint32_t head, uint32_t pad_to,
                 uint32_t tail)
{
	uint32_t len = tx->len < pad_to ? pad_to : tx->len;
	uint64_t end = (uint64_t)tx->off + len + tail;

	if (tx->off < head || end > tx->size)
		return OFL_ENOSPC;
	return 0;
}

void dsa_tx_pad(struct dsa_tx *tx, uint32_t pad_to)
{
	if (tx->len >= pad_to)
		return;
	memset(tx->buf + tx->off + tx->len, 0, pad_to - tx->len);
	tx->len = pad_to;
}

uint8_t *dsa_tx_after_sa(struct dsa_tx *tx, uint32_t n)
{
	uint8_t *start = tx->buf + tx->off;

	memmove(start - n, start, DSA_MACS_LEN);
	tx->off -= n;
	tx->len += n;
	return tx->buf + tx->off + DSA_MACS_LEN;
}

uint8_t *dsa_tx_before_da(struct dsa_tx *tx, uint32_t n)
{
	tx->off -= n;
	tx->len += n;
	return tx->buf + tx->off;
}

uint8_t *dsa_tx_tail(struct dsa_tx *tx, uint32_t n)
{
	uint8_t *p = tx->buf + tx->off + tx->len;

	tx->len += n;
	return p;
}

int dsa_tx_put(const struct ofl_dsa_ops *ops, int dir, struct dsa_tx *tx,
               int at, const uint8_t *t, uint32_t n)
{
	uint32_t pad = dsa_tx_pad_len(ops, dir, tx->len);
	int err = dsa_tx_check(tx, at == DSA_AT_TAIL ? 0 : n, pad,
	                       at == DSA_AT_TAIL ? n : 0);
	uint8_t *dst;

	if (err)
		return err;
	dsa_tx_pad(tx, pad);
	if (at == DSA_AT_TAIL)
		dst = dsa_tx_tail(tx, n);
	else if (at == DSA_AT_BEFORE_DA)
		dst = dsa_tx_before_da(tx, n);
	else
		dst = dsa_tx_after_sa(tx, n);
	memcpy(dst, t, n);
	return 0;
}

uint32_t dsa_tx_pad_len(const struct ofl_dsa_ops *ops, int dir, uint32_t len)
{
	if (dir != OFL_DSA_TX || len >= ops->tx_min_len)
		return len;
	return ops->tx_min_len;
}

uint32_t dsa_crc32_update(uint32_t crc, const uint8_t *p, uint32_t n)
{
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
	}
	return crc;
}

uint32_t dsa_crc32_frame(uint32_t crc, const struct dsa_frame *f, uint32_t off, uint32_t n)
{
	unsigned i;
	if (!f->bufs || (uint64_t)off + n <= f->head_len)
		return dsa_crc32_update(crc, f->head + off, n);
	for (i = 0; i < f->nbufs && n; i++) {
		uint32_t bl = f->bufs[i].len, take;
		if (off >= bl) {
			off -= bl;
			continue;
		}
		take = bl - off < n ? bl - off : n;
		crc = dsa_crc32_update(crc, f->bufs[i].data + off, take);
		n -= take;
		off = 0;
	}
	return crc;
}
