/*
 * registry.c - the table of DSA tag formats, indexed by the kernel's
 * DSA_TAG_PROTO_*_VALUE, and the public entry points that check arguments
 * before handing a frame to a format's codec.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "core/parse.h"
#include "dsa/dsa_int.h"

#define NO_TAG OFL_DSA_PLACE_NONE
#define AFTER_SA OFL_DSA_PLACE_AFTER_SA
#define BEFORE_DA OFL_DSA_PLACE_BEFORE_DA
#define TAIL OFL_DSA_PLACE_TAIL
#define VLAN OFL_DSA_PLACE_VLAN
#define PROMISC OFL_DSA_F_PROMISC
#define SWCSUM OFL_DSA_F_SW_CSUM
#define HIDES OFL_DSA_F_HIDES_L3
#define VARLEN OFL_DSA_F_VAR_LEN
#define TX_FCS OFL_DSA_F_TX_FCS
#define NO_PORTS OFL_DSA_F_NO_PORTS
#define CTRL OFL_DSA_F_CTRL

/* The rows are in dsa_formats.def, indexed by DSA_TAG_PROTO_*_VALUE;
 * lengths, padding and port ranges come from each kernel tagger (the
 * layout is in the comment at the top of the codec's file). */
#define DSA_FORMAT(proto_id, codec_name, ...)                                  \
	[proto_id] = { .id = (proto_id), .codec = &dsa_codec_##codec_name,    \
	               __VA_ARGS__ },

static const struct ofl_dsa_ops dsa_table[] = {
#include "dsa/dsa_formats.def"
};

#undef DSA_FORMAT

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
	return ops->codec->decode_one[dir](ops, params, dir, frame, len, meta, view);
}

static int params_are_default(const struct ofl_dsa_params *p)
{
	return !p || (!p->flags && !p->tpid && !p->cpu_port && !p->num_ports &&
	              !p->conduit_tailroom);
}

int ofl_dsa_decoder_init(struct ofl_dsa_decoder *d, size_t size,
                         const struct ofl_dsa_ops *ops,
                         const struct ofl_dsa_params *params, int dir)
{
	int err = check_ops(ops, dir);

	if (!d || size < sizeof(*d))
		return OFL_EINVAL;
	if (err)
		return err;
	memset(d, 0, sizeof(*d));
	/* the default params select the entry compiled for them */
	d->fn = ops->codec->decode_cut[dir][!params_are_default(params)];
	d->brief = ops->codec->decode_brief[dir][!params_are_default(params)];
	d->ops = ops;
	d->params = params ? *params : dsa_default_params;
	d->dir = (uint8_t)dir;
	return 0;
}

int ofl_dsa_decode_cut(const struct ofl_dsa_decoder *d, const uint8_t *frame,
                       uint32_t len, struct ofl_dsa_meta *meta,
                       struct ofl_dsa_cut *cut)
{
	/* a plain jump into the format's entry */
	return d->fn(d, frame, len, meta, cut);
}

int ofl_dsa_decode_brief(const struct ofl_dsa_decoder *d, const uint8_t *frame,
                         uint32_t len, struct ofl_dsa_brief *out)
{
	return d->brief(d, frame, len, out);
}

/* The argument checks of a burst entry: OFL_EINVAL, 0 for an empty
 * batch (frames and out may then be NULL), 1 to go on.  ~0u >> 1 is
 * INT_MAX (int and unsigned have the same width), the most refusals the
 * int returned can count; <limits.h> is not among the library's headers
 * (docs/libc.md). */
static int burst_check(const struct ofl_dsa_decoder *d,
                       const struct ofl_buf *frames, unsigned n, const void *out)
{
	if (!d || (n && (!frames || !out)) || n > (~0u >> 1))
		return OFL_EINVAL;
	return n != 0;
}

/* Which burst entry: the one compiled for the params the decoder's brief
 * entry was chosen for (the same function for both when the codec does
 * not fold the defaults). */
static unsigned burst_params(const struct ofl_dsa_decoder *d)
{
	return d->brief != d->ops->codec->decode_brief[d->dir][0];
}

int ofl_dsa_decode_brief_burst(const struct ofl_dsa_decoder *d,
                               const struct ofl_buf *frames, unsigned n,
                               struct ofl_dsa_brief *out)
{
	int go = burst_check(d, frames, n, out);

	return go <= 0 ? go
	               : (int)d->ops->codec->brief_burst[d->dir][burst_params(d)](d, frames, n,
	                                                                          out);
}

int ofl_dsa_decode_packed_burst(const struct ofl_dsa_decoder *d,
                                const struct ofl_buf *frames, unsigned n,
                                struct ofl_dsa_packed *out)
{
	int go = burst_check(d, frames, n, out);

	if (go > 0)
		go = (int)d->ops->codec->packed_burst[d->dir][burst_params(d)](d, frames, n,
		                                                                out);
	return go;
}

int ofl_dsa_cut_view(const struct ofl_dsa_ops *ops, const uint8_t *frame,
                     uint32_t len, const struct ofl_dsa_cut *cut,
                     struct ofl_dsa_view *view)
{
	uint32_t hdr_len, rest_len;

	if (!ops || !frame || !cut || !view)
		return OFL_EINVAL;
	hdr_len = DSA_MACS_LEN + cut->ins_len;
	if (cut->ins_len > sizeof(cut->ins) ||
	    (uint32_t)cut->mac_off + DSA_MACS_LEN > len ||
	    cut->rest_off < hdr_len || cut->rest_off > len ||
	    cut->tail_len > len - cut->rest_off)
		return OFL_EINVAL;
	rest_len = len - cut->rest_off - cut->tail_len;
	view->hdr = frame + cut->mac_off;
	view->hdr_len = hdr_len;
	view->mac_off = cut->mac_off;
	view->rest_off = cut->rest_off;
	view->rest_len = rest_len;
	/* where the tag is follows from the format's place */
	if (ops->place == OFL_DSA_PLACE_TAIL)
		view->tag_off = len - cut->tail_len;
	else if (ops->place == OFL_DSA_PLACE_BEFORE_DA)
		view->tag_off = 0;
	else
		view->tag_off = DSA_MACS_LEN;
	view->tag_len = (uint16_t)(cut->rest_off - DSA_MACS_LEN);
	view->tail_len = cut->tail_len;
	view->ins_len = cut->ins_len;
	view->mac_patched = cut->mac_patched;
	if (cut->ins_len || cut->mac_patched) {
		memcpy(view->buf, frame + cut->mac_off, DSA_MACS_LEN);
		memcpy(view->buf + DSA_MACS_LEN, cut->ins, cut->ins_len);
		if (cut->mac_patched) {
			view->buf[3] = 0;
			view->buf[4] = 0;
		}
		view->hdr = view->buf;
	}
	return 0;
}

/* Copy n bytes starting at byte `from` of the concatenated buffers. */
int ofl_dsa_decode_bufs(const struct ofl_dsa_ops *ops,
                        const struct ofl_dsa_params *params, int dir,
                        const struct ofl_buf *bufs, unsigned nbufs,
                        struct ofl_dsa_meta *meta, struct ofl_dsa_view *view)
{
	uint8_t head[DSA_HEAD_WINDOW], tail[DSA_TAIL_WINDOW];
	struct dsa_frame f;
	uint64_t total;
	int err = check_ops(ops, dir);

	if (!err && (!bufs || !nbufs || !meta))
		err = OFL_EINVAL;
	if (err)
		return err;
	total = ofl_bufs_size(bufs, nbufs);
	if (total == UINT64_MAX)
		return OFL_EINVAL;
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
	f.prepared = 0;
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

	if (err == OFL_EINVAL)
		return err;
	if (!params)
		params = &dsa_default_params;
	if (head)
		*head = dir == OFL_DSA_TX ? ops->tx_head : ops->rx_head;
	if (tail)
		*tail = (dir == OFL_DSA_TX ? ops->tx_tail : ops->rx_tail) +
		        (dsa_tx_pad_len(ops, params, dir, len) - len);
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
	if (!params)
		params = &dsa_default_params;
	tx.buf = buf;
	tx.size = size;
	tx.off = *off;
	tx.len = *len;
	tx.pad_to = dsa_tx_pad_len(ops, params, dir, *len);
	err = ops->codec->encode(ops, params, dir, meta, &tx);
	if (err)
		return err;
	*off = tx.off;
	*len = tx.len;
	return 0;
}
