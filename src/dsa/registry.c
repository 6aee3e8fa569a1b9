/*
 * registry.c - the table of DSA tag formats, indexed by the kernel's
 * DSA_TAG_PROTO_*_VALUE, and the public entry points that check arguments
 * before handing a frame to a format's codec.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "core/parse.h"
#include "dsa/dsa_int.h"

#define AFTER OFL_DSA_PLACE_AFTER_SA
#define BEFORE OFL_DSA_PLACE_BEFORE_DA
#define TAIL OFL_DSA_PLACE_TAIL
#define VLAN OFL_DSA_PLACE_VLAN
#define PROMISC OFL_DSA_F_PROMISC
#define SWCSUM OFL_DSA_F_SW_CSUM
#define HIDES OFL_DSA_F_HIDES_L3
#define VARLEN OFL_DSA_F_VAR_LEN

/* Lengths, padding and port ranges come from each kernel tagger; see the
 * comment at the top of the codec's file for the layout. */
static const struct ofl_dsa_ops dsa_table[] = {
	/* name, alias, id, place, rx_head, rx_tail, tx_head, tx_tail,
	 * tx_min_len, rx_prios, tx_prios, rx_ports, tx_ports, flags, codec */
	{ "none", NULL, 0, OFL_DSA_PLACE_NONE, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	  OFL_DSA_F_NO_PORTS, &dsa_codec_none },
	{ "brcm", NULL, 1, AFTER, 4, 0, 4, 0, 64, 8, 8, 32, 9, HIDES,
	  &dsa_codec_brcm },
	{ "brcm-prepend", NULL, 2, BEFORE, 4, 0, 4, 0, 64, 8, 8, 32, 9,
	  PROMISC | HIDES, &dsa_codec_brcm_prepend },
	{ "dsa", NULL, 3, AFTER, 4, 0, 4, 0, 0, 8, 8, 32, 32, HIDES,
	  &dsa_codec_dsa },
	{ "edsa", NULL, 4, AFTER, 8, 0, 8, 0, 0, 8, 8, 32, 32, HIDES,
	  &dsa_codec_edsa },
	{ "gswip", NULL, 5, BEFORE, 8, 0, 4, 0, 0, 0, 16, 8, 6,
	  PROMISC | HIDES, &dsa_codec_gswip },
	{ "ksz9477", NULL, 6, TAIL, 0, 5, 0, 6, 60, 0, 4, 8, 7,
	  SWCSUM | VARLEN, &dsa_codec_ksz9477 },
	{ "ksz9893", NULL, 7, TAIL, 0, 5, 0, 5, 60, 0, 4, 8, 3,
	  SWCSUM | VARLEN, &dsa_codec_ksz9893 },
	{ "lan9303", NULL, 8, AFTER, 4, 0, 4, 0, 0, 0, 0, 4, 4, 0,
	  &dsa_codec_lan9303 },
	{ "mtk", NULL, 9, AFTER, 4, 0, 4, 0, 0, 0, 0, 8, 6, HIDES,
	  &dsa_codec_mtk },
	{ "qca", NULL, 10, AFTER, 2, 0, 2, 0, 0, 8, 8, 8, 7,
	  PROMISC | HIDES | OFL_DSA_F_CTRL, &dsa_codec_qca },
	{ "trailer", NULL, 11, TAIL, 0, 4, 0, 4, 60, 0, 0, 8, 8, SWCSUM,
	  &dsa_codec_trailer },
	{ "8021q", NULL, 12, VLAN, 4, 0, 4, 0, 0, 8, 8, 16, 16, 0,
	  &dsa_codec_generic_8021q },
	{ "sja1105", NULL, 13, VLAN, 4, 0, 4, 0, 0, 8, 8, 16, 16,
	  PROMISC | OFL_DSA_F_CTRL, &dsa_codec_sja1105 },
	{ "ksz8795", NULL, 14, TAIL, 0, 1, 0, 1, 60, 0, 0, 4, 5, SWCSUM,
	  &dsa_codec_ksz8795 },
	{ "ocelot", NULL, 15, BEFORE, 20, 0, 20, 0, 0, 8, 8, 16, 12,
	  PROMISC | HIDES, &dsa_codec_ocelot },
	{ "ar9331", NULL, 16, BEFORE, 2, 0, 2, 0, 0, 4, 4, 16, 16,
	  PROMISC | HIDES, &dsa_codec_ar9331 },
	{ "rtl4a", NULL, 17, AFTER, 4, 0, 4, 0, 60, 0, 0, 256, 12, HIDES,
	  &dsa_codec_rtl4a },
	{ "hellcreek", NULL, 18, TAIL, 0, 1, 0, 1, 60, 0, 0, 4, 8, SWCSUM,
	  &dsa_codec_hellcreek },
	{ "xrs700x", NULL, 19, TAIL, 0, 1, 0, 1, 60, 0, 0, 8, 8, SWCSUM,
	  &dsa_codec_xrs700x },
	{ "ocelot-8021q", NULL, 20, VLAN, 4, 0, 4, 0, 0, 8, 8, 16, 16,
	  PROMISC, &dsa_codec_ocelot_8021q },
	{ "seville", NULL, 21, BEFORE, 20, 0, 20, 0, 0, 8, 8, 16, 11,
	  PROMISC | HIDES, &dsa_codec_seville },
	{ "brcm-legacy", NULL, 22, AFTER, 10, 0, 6, 0, 66, 0, 0, 16, 16,
	  HIDES, &dsa_codec_brcm_legacy },
	{ "sja1110", NULL, 23, VLAN, 8, 28, 8, 4, 0, 8, 8, 16, 16,
	  VARLEN | OFL_DSA_F_CTRL, &dsa_codec_sja1110 },
	{ "rtl8_4", NULL, 24, AFTER, 8, 0, 8, 0, 0, 8, 8, 16, 11, HIDES,
	  &dsa_codec_rtl8_4 },
	{ "rtl8_4t", NULL, 25, TAIL, 0, 8, 0, 8, 60, 8, 8, 16, 11, SWCSUM,
	  &dsa_codec_rtl8_4t },
	{ "a5psw", "rzn1-a5psw", 26, AFTER, 8, 0, 8, 0, 60, 0, 0, 16, 4,
	  HIDES, &dsa_codec_a5psw },
	{ "lan937x", NULL, 27, TAIL, 0, 5, 0, 6, 60, 0, 8, 8, 8,
	  SWCSUM | VARLEN, &dsa_codec_lan937x },
	{ "vsc73xx-8021q", NULL, 28, VLAN, 4, 0, 4, 0, 0, 8, 8, 16, 16,
	  PROMISC, &dsa_codec_vsc73xx_8021q },
	{ "brcm-legacy-fcs", NULL, 29, AFTER, 10, 0, 6, 4, 66, 0, 0, 16, 16,
	  HIDES | OFL_DSA_F_TX_FCS, &dsa_codec_brcm_legacy_fcs },
	{ "yt921x", NULL, 30, AFTER, 8, 0, 8, 0, 0, 8, 8, 16, 11, HIDES,
	  &dsa_codec_yt921x },
	{ "gsw1xx", "mxl-gsw1xx", 31, AFTER, 8, 0, 8, 0, 0, 0, 16, 256, 8,
	  HIDES, &dsa_codec_gsw1xx },
	{ "mxl862xx", "mxl862", 32, AFTER, 8, 0, 8, 0, 0, 0, 0, 16, 16,
	  HIDES, &dsa_codec_mxl862xx },
	{ "nxp_netc", "netc", 33, AFTER, 14, 0, 6, 0, 0, 8, 8, 32, 32,
	  HIDES | VARLEN, &dsa_codec_netc },
};

#define DSA_NFORMATS (sizeof(dsa_table) / sizeof(dsa_table[0]))

size_t ofl_dsa_count(void)
{
	return DSA_NFORMATS;
}

const struct ofl_dsa_ops *ofl_dsa_at(size_t i)
{
	return i < DSA_NFORMATS ? &dsa_table[i] : NULL;
}

const struct ofl_dsa_ops *ofl_dsa_by_id(unsigned id)
{
	/* the table is indexed by id; a test keeps it that way */
	return id < DSA_NFORMATS ? &dsa_table[id] : NULL;
}

/* equal, allowing one trailing '\n' in `name` (text read from sysfs) */
static int name_eq(const char *name, const char *want)
{
	size_t n = strlen(want);

	if (strncmp(name, want, n) != 0)
		return 0;
	return name[n] == '\0' || (name[n] == '\n' && name[n + 1] == '\0');
}

const struct ofl_dsa_ops *ofl_dsa_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < DSA_NFORMATS; i++) {
		const struct ofl_dsa_ops *o = &dsa_table[i];

		if (name_eq(name, o->name) || (o->alias && name_eq(name, o->alias)))
			return o;
	}
	return NULL;
}

int ofl_dsa_lookup(const char *name, const struct ofl_dsa_ops **out)
{
	if (!name || !out)
		return OFL_EINVAL;
	*out = ofl_dsa_find(name);
	return *out ? 0 : OFL_ENOENT;
}

void ofl_dsa_params_default(struct ofl_dsa_params *p)
{
	if (p)
		memset(p, 0, sizeof(*p));
}


static inline int check_ops(const struct ofl_dsa_ops *ops, int dir)
{
	if (!ops || (dir != OFL_DSA_RX && dir != OFL_DSA_TX))
		return OFL_EINVAL;
	if (!ops->codec)
		return OFL_ENOTSUP;
	return 0;
}

/* meta is zeroed before the codec runs (codecs fill it with |=); the view
 * is written whole by the codec's dsa_view_*() call on success.  On error
 * both are zeroed, so no caller ever sees a half-filled result. */
static int decode_frame(const struct ofl_dsa_ops *ops,
                        const struct ofl_dsa_params *params, int dir,
                        const struct dsa_frame *f, struct ofl_dsa_meta *meta,
                        struct ofl_dsa_view *view)
{
	int err;

	*meta = (struct ofl_dsa_meta){ 0 };
	err = ops->codec->decode(ops, params ? params : &dsa_default_params,
	                         dir, f, meta, view);
	return err ? dsa_decode_fail(err, meta, view) : 0;
}

int ofl_dsa_decode(const struct ofl_dsa_ops *ops,
                   const struct ofl_dsa_params *params, int dir,
                   const uint8_t *frame, uint32_t len,
                   struct ofl_dsa_meta *meta, struct ofl_dsa_view *view)
{
	int err = check_ops(ops, dir);

	if (!err && (!frame || !meta))
		err = OFL_EINVAL;
	if (err)
		return err;
	/* the codec's single-buffer entry for this direction (dir is 0 or 1
	 * here); it substitutes the defaults for params NULL */
	return ops->codec->decode_one[dir](ops, params, frame, len, meta, view);
}

/* Copy n bytes starting at byte `from` of the concatenated buffers. */
int ofl_dsa_decode_bufs(const struct ofl_dsa_ops *ops,
                        const struct ofl_dsa_params *params, int dir,
                        const struct ofl_buf *bufs, unsigned nbufs,
                        struct ofl_dsa_meta *meta, struct ofl_dsa_view *view)
{
	uint8_t head[DSA_HEAD_WINDOW], tail[DSA_TAIL_WINDOW];
	struct dsa_frame f;
	uint64_t total = 0;
	int err = check_ops(ops, dir);

	if (!err && (!bufs || !nbufs || !meta))
		err = OFL_EINVAL;
	if (err)
		return err;
	for (unsigned i = 0; i < nbufs; i++) {
		if (!bufs[i].data && bufs[i].len)
			return OFL_EINVAL;
		total += bufs[i].len;
	}
	if (total > UINT32_MAX)
		return OFL_E2BIG;
	f.len = (uint32_t)total;
	f.head_len = f.len < DSA_HEAD_WINDOW ? f.len : DSA_HEAD_WINDOW;
	f.tail_len = f.len < DSA_TAIL_WINDOW ? f.len : DSA_TAIL_WINDOW;
	ofl_bufs_copy(bufs, nbufs, 0, f.head_len, head);
	ofl_bufs_copy(bufs, nbufs, total - f.tail_len, f.tail_len, tail);
	f.head = head;
	f.tail = tail;
	f.scratch = 1;
	f.bufs = bufs;
	f.nbufs = nbufs;
	return decode_frame(ops, params, dir, &f, meta, view);
}

static int view_fits(uint32_t len, const struct ofl_dsa_view *v)
{
	return v->hdr && v->hdr_len >= DSA_MACS_LEN && v->hdr_len <= sizeof(v->buf) &&
	       v->rest_off <= len && v->rest_len <= len - v->rest_off &&
	       v->rest_off >= v->hdr_len;
}

int ofl_dsa_untagged(const uint8_t *frame, uint32_t len,
                     const struct ofl_dsa_view *view, struct ofl_buf out[2])
{
	if (!frame || !view || !out || !view_fits(len, view))
		return OFL_EINVAL;
	out[0].data = view->hdr;
	out[0].len = view->hdr_len;
	out[1].data = frame + view->rest_off;
	out[1].len = view->rest_len;
	return 2;
}

int ofl_dsa_strip(uint8_t *frame, uint32_t len, const struct ofl_dsa_view *view,
                  uint32_t *start, uint32_t *out_len)
{
	uint32_t s;

	if (!frame || !view || !start || !out_len || !view_fits(len, view))
		return OFL_EINVAL;
	s = view->rest_off - view->hdr_len;
	memmove(frame + s, view->hdr, view->hdr_len);
	*start = s;
	*out_len = view->hdr_len + view->rest_len;
	return 0;
}

int ofl_dsa_room(const struct ofl_dsa_ops *ops,
                 const struct ofl_dsa_params *params, int dir, uint32_t len,
                 uint32_t *head, uint32_t *tail)
{
	int err = check_ops(ops, dir);

	(void)params;
	if (err == OFL_EINVAL)
		return err;
	if (head)
		*head = dir == OFL_DSA_TX ? ops->tx_head : ops->rx_head;
	if (tail)
		*tail = (dir == OFL_DSA_TX ? ops->tx_tail : ops->rx_tail) +
		        (dsa_tx_pad_len(ops, dir, len) - len);
	return 0;
}

int ofl_dsa_encode(const struct ofl_dsa_ops *ops,
                   const struct ofl_dsa_params *params, int dir,
                   const struct ofl_dsa_meta *meta, uint8_t *buf,
                   uint32_t size, uint32_t *off, uint32_t *len)
{
	struct dsa_tx tx;
	int err = check_ops(ops, dir);

	if (!err && (!meta || !buf || !off || !len))
		err = OFL_EINVAL;
	if (err)
		return err;
	if (*off > size || *len > size - *off || *len < DSA_ETH_HLEN)
		return OFL_EINVAL;
	tx.buf = buf;
	tx.size = size;
	tx.off = *off;
	tx.len = *len;
	err = ops->codec->encode(ops, params ? params : &dsa_default_params,
	                         dir, meta, &tx);
	if (err)
		return err;
	*off = tx.off;
	*len = tx.len;
	return 0;
}
