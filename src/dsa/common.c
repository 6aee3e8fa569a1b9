/*
 * common.c - geometry shared by all DSA tag codecs: views of the untagged
 * frame, in-place room making for encode, meta helpers, the Ethernet CRC.
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

void dsa_meta_set_mask(struct ofl_dsa_meta *m, uint32_t mask)
{
	m->port_mask = mask;
	m->valid |= OFL_DSA_M_PORT_MASK;
	if (mask && !(mask & (mask - 1))) {
		unsigned port = 0;

		while (!(mask & 1u)) {
			mask >>= 1;
			port++;
		}
		m->port = (uint8_t)port;
		m->valid |= OFL_DSA_M_PORT;
	}
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

static void view_init(struct ofl_dsa_view *v, const struct dsa_frame *f,
                      uint32_t mac_off)
{
	memset(v, 0, sizeof(*v));
	v->mac_off = mac_off;
	v->hdr_len = DSA_MACS_LEN;
	if (!f->scratch) {
		/* single buffer: point at the frame's own MACs */
		v->hdr = f->head + mac_off;
	} else {
		memcpy(v->buf, f->head + mac_off, DSA_MACS_LEN);
		v->hdr = v->buf;
	}
}

int dsa_view_after_sa(const struct dsa_frame *f, uint32_t tag_len,
                      struct ofl_dsa_view *v)
{
	if (!v)
		return 0;
	if (f->len < DSA_MACS_LEN + tag_len || f->head_len < DSA_MACS_LEN)
		return OFL_EBADMSG;
	view_init(v, f, 0);
	v->tag_off = DSA_MACS_LEN;
	v->tag_len = (uint16_t)tag_len;
	v->rest_off = DSA_MACS_LEN + tag_len;
	v->rest_len = f->len - v->rest_off;
	return 0;
}

int dsa_view_before_da(const struct dsa_frame *f, uint32_t tag_len,
                       struct ofl_dsa_view *v)
{
	if (!v)
		return 0;
	if (f->len < tag_len + DSA_MACS_LEN || f->head_len < tag_len + DSA_MACS_LEN)
		return OFL_EBADMSG;
	view_init(v, f, tag_len);
	v->tag_off = 0;
	v->tag_len = (uint16_t)tag_len;
	v->rest_off = tag_len + DSA_MACS_LEN;
	v->rest_len = f->len - v->rest_off;
	return 0;
}

int dsa_view_tail(const struct dsa_frame *f, uint32_t tail_len,
                  struct ofl_dsa_view *v)
{
	if (!v)
		return 0;
	if (f->len < DSA_MACS_LEN + tail_len || f->head_len < DSA_MACS_LEN)
		return OFL_EBADMSG;
	view_init(v, f, 0);
	v->tag_off = f->len - tail_len;
	v->tail_len = (uint16_t)tail_len;
	v->rest_off = DSA_MACS_LEN;
	v->rest_len = f->len - DSA_MACS_LEN - tail_len;
	return 0;
}

void dsa_view_insert(struct ofl_dsa_view *v, const uint8_t *ins, unsigned n)
{
	if (!v)
		return;
	if (v->hdr != v->buf) {
		memcpy(v->buf, v->hdr, DSA_MACS_LEN);
		v->hdr = v->buf;
	}
	if (n)
		memcpy(v->buf + DSA_MACS_LEN, ins, n);
	v->ins_len = (uint8_t)n;
	v->hdr_len = DSA_MACS_LEN + n;
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
