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
#include "core/cursor.h"
#include "dsa/dsa_int.h"

const struct ofl_dsa_params dsa_default_params;

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

int dsa_cut_rare(const struct ofl_dsa_decoder *d, const uint8_t *frame,
                 uint32_t len, struct ofl_dsa_meta *meta,
                 struct ofl_dsa_cut *cut)
{
	struct ofl_dsa_view v;
	int err = d->ops->codec->decode_one[d->dir](d->ops, &d->params, d->dir,
	                                             frame, len, meta, &v);

	if (err)
		return err; /* meta zeroed by the entry */
	dsa_cut_of_view(cut, &v);
	return 0;
}

int dsa_brief_rare(const struct ofl_dsa_decoder *d, const uint8_t *frame,
                   uint32_t len, struct ofl_dsa_brief *out)
{
	struct ofl_dsa_meta m;
	struct ofl_dsa_cut c = {0}; /* ins[] past ins_len too: every byte of
	                               *out that is copied is defined */
	int err = dsa_cut_rare(d, frame, len, &m, &c);

	if (err)
		return err;
	out->cut = c;
	dsa_brief_put(out, &m);
	return 0;
}

uint64_t dsa_packed_rare(const struct ofl_dsa_decoder *d, const uint8_t *frame,
                         uint32_t len, struct ofl_dsa_packed *out)
{
	struct ofl_dsa_brief b;
	struct ofl_dsa_view v = { 0 };
	struct ofl_dsa_meta m = { 0 };

	if (dsa_brief_rare(d, frame, len, &b))
		return 0;
	v.rest_off = b.cut.rest_off;
	v.mac_off = b.cut.mac_off;
	v.tail_len = b.cut.tail_len;
	v.ins_len = b.cut.ins_len;
	v.mac_patched = b.cut.mac_patched;
	m.valid = b.valid;
	m.flags = b.flags;
	m.switch_id = b.switch_id;
	m.port = b.port;
	if (b.cut.ins_len)
		memcpy(out->ins, b.cut.ins, sizeof(out->ins));
	return dsa_packed_word(&v, &m);
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
	struct ofl_cursor c;
	const uint8_t *p;
	uint32_t take;
	if (!f->bufs || (uint64_t)off + n <= f->head_len)
		return dsa_crc32_update(crc, f->head + off, n);
	c = ofl_cur_bufs(f->bufs, f->nbufs, off);
	while ((take = ofl_cur_piece(&c, &n, &p)) != 0)
		crc = dsa_crc32_update(crc, p, take);
	return crc;
}
