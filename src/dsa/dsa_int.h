/*
 * dsa_int.h - internals shared by the DSA tag codecs.
 *
 * A codec sees a tagged frame through struct dsa_frame: the first head_len
 * bytes and the last tail_len bytes are contiguous (for a single buffer both
 * are the whole frame).  It never touches memory outside those two windows:
 * every access goes through dsa_head()/dsa_tail(), which return NULL when
 * the bytes are not there.
 *
 * Encoders work in place on struct dsa_tx and must check room and meta
 * before writing anything (dsa_tx_check, dsa_tx_open), so a failed encode
 * leaves the caller's buffer as it was (those helpers: dsa_tx.h).
 *
 * Decode and encode run once per frame, so what they call on their common
 * path is inline here (a few ns per frame is the budget).  The macros that
 * turn a format's decode body and encoder into its codec entries are in
 * dsa_codec.h.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_SRC_DSA_INT_H
#define OFL_SRC_DSA_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ofl/dsa.h"

#include "core/compiler.h"

#define DSA_ETH_ALEN 6u
#define DSA_MACS_LEN 12u  /* DA + SA */
#define DSA_ETH_HLEN 14u  /* DA + SA + EtherType */
#define DSA_ETH_ZLEN 60u  /* minimum frame without FCS */
#define DSA_VLAN_HLEN 4u

#define DSA_ETH_P_8021Q 0x8100u
#define DSA_ETH_P_8021AD 0x88A8u

/* Largest window a codec ever needs at the head or the tail of a frame;
 * the multi-buffer decode copies this much of each end. */
#define DSA_HEAD_WINDOW 64u
#define DSA_TAIL_WINDOW 32u

struct dsa_frame {
	const uint8_t *head; /* first head_len bytes of the frame */
	const uint8_t *tail; /* last tail_len bytes of the frame */
	uint32_t head_len;
	uint32_t tail_len;
	uint32_t len;        /* whole frame */
	int scratch;         /* head/tail are copies that die with the call */
	const struct ofl_buf *bufs; /* multi-buffer decode: the buffers, for the
	                               rare check that needs every byte (FCS) */
	unsigned nbufs;
	int prepared;        /* a prepared entry's frame (cut or brief): a
	                        body may answer DSA_RARE for a rare kind of
	                        frame */
};

/* A decode body's answer, in the prepared entries only (f->prepared),
 * for a rare kind of frame whose decode would otherwise share the entry's
 * exit with the common one (and so its registers, its stack frame and
 * field-by-field stores of values that are constant on each path), or
 * make the entry's view escape: the entry hands the frame to the format's
 * single-buffer entry out of line instead (dsa_cut_rare). */
#define DSA_RARE 1

struct dsa_tx {
	uint8_t *buf;
	uint32_t off;        /* frame start in buf */
	uint32_t size;       /* between off and len on purpose: encoders
	                        update off and len together, and as neighbours
	                        the compiler merged the two updates into one
	                        8-byte load that the caller's two 4-byte stores
	                        cannot forward to (a stall per frame) */
	uint32_t len;        /* frame length */
	uint32_t pad_to;     /* zero-pad the untagged frame to this length
	                        before tagging (dsa_tx_pad_len) */
};

typedef int (*dsa_decode_fn)(const struct ofl_dsa_ops *ops,
                             const struct ofl_dsa_params *p, int dir,
                             const struct dsa_frame *f,
                             struct ofl_dsa_meta *m, struct ofl_dsa_view *v);
typedef int (*dsa_encode_fn)(const struct ofl_dsa_ops *ops,
                             const struct ofl_dsa_params *p, int dir,
                             const struct ofl_dsa_meta *m, struct dsa_tx *tx);

/* The same decode for a frame in one contiguous buffer (ofl_dsa_decode),
 * one per direction (dir_in is the direction the entry was made for and
 * only passed on, so that ofl_dsa_decode() hands over its arguments as
 * they are, a plain jump): takes params NULL for the defaults, fills meta
 * itself, and on error zeroes both meta and view. */
typedef int (*dsa_decode_one_fn)(const struct ofl_dsa_ops *ops,
                                 const struct ofl_dsa_params *p, int dir_in,
                                 const uint8_t *frame, uint32_t len,
                                 struct ofl_dsa_meta *m,
                                 struct ofl_dsa_view *v);

/* A batch of frames through one brief entry: returns how many were
 * refused (ofl_dsa_decode_brief_burst, arguments already checked). */
typedef unsigned (*dsa_brief_burst_fn)(const struct ofl_dsa_decoder *d,
                                       const struct ofl_buf *frames,
                                       unsigned n, struct ofl_dsa_brief *out);

/* The same with packed results (ofl_dsa_decode_packed_burst). */
typedef unsigned (*dsa_packed_burst_fn)(const struct ofl_dsa_decoder *d,
                                        const struct ofl_buf *frames,
                                        unsigned n,
                                        struct ofl_dsa_packed *out);

struct ofl_dsa_codec {
	dsa_decode_fn decode;            /* multi-buffer: over head/tail windows */
	dsa_encode_fn encode;
	dsa_decode_one_fn decode_one[2]; /* single buffer, [OFL_DSA_RX/TX] */
	/* prepared decode (ofl_dsa_decode_cut), [OFL_DSA_RX/TX][params]:
	 * [dir][0] for the default params, [dir][1] for others (the same
	 * function, reading the decoder's params, unless the codec folds
	 * the defaults: DSA_CODEC_P) */
	ofl_dsa_decode_fn decode_cut[2][2];
	/* brief decode (ofl_dsa_decode_brief), indexed as decode_cut */
	ofl_dsa_brief_fn decode_brief[2][2];
	/* brief decode of a batch (ofl_dsa_decode_brief_burst), indexed as
	 * decode_cut: the same body inlined in a loop over the frames */
	dsa_brief_burst_fn brief_burst[2][2];
	/* the same with one packed word per frame
	 * (ofl_dsa_decode_packed_burst), indexed as decode_cut */
	dsa_packed_burst_fn packed_burst[2][2];
};

/* What a NULL params pointer stands for (all zero). */
extern const struct ofl_dsa_params dsa_default_params;

/* A branch that decode rarely takes (a timestamp, a control frame), so
 * that the common path is the straight one. */
#if defined(__GNUC__) || defined(__clang__)
#define DSA_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define DSA_UNLIKELY(x) (x)
#endif

/* A decode body is inlined into every decode entry of its codec (see
 * DSA_CODEC_DEFINE_), so that the single-buffer ones are straight-line
 * code specialised for one window and one direction. */
#define DSA_DECODER static inline OFL_ALWAYS_INLINE int
/* A helper of decode bodies, inlined into them for the same reason. */
#define DSA_INLINE static inline OFL_ALWAYS_INLINE

/* --- byte access ---------------------------------------------------- */

static inline uint16_t dsa_be16(const uint8_t *p)
{
	return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static inline uint32_t dsa_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* Little-endian: on a little-endian machine the load of 4 bytes as they
 * are (one instruction), so that a fast path's compare of tag bytes with
 * a constant spelled in this order needs no byte swap.  (GCC does not
 * always merge the shifts and ORs into one load, hence the memcpy.) */
static inline uint32_t dsa_le32(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
#else
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[1] << 8 | p[0];
#endif
}

static inline void dsa_put_be16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void dsa_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* n bytes at offset off from the start, or NULL when out of the window.
 * One comparison, in 64 bits so that off + n cannot wrap: with off and n
 * constant it is a single compare of the length with a constant, which
 * the compiler merges with the decoder's own minimum-length check. */
static inline const uint8_t *dsa_head(const struct dsa_frame *f, uint32_t off,
                                      uint32_t n)
{
	if ((uint64_t)off + n > f->head_len)
		return NULL;
	return f->head + off;
}

/* the last n bytes of the frame, or NULL */
static inline const uint8_t *dsa_tail(const struct dsa_frame *f, uint32_t n)
{
	if (n > f->tail_len)
		return NULL;
	/* end minus n, not start plus (tail_len - n): with n constant the
	 * subtraction folds into the load's displacement */
	return f->tail + f->tail_len - n;
}

/* n bytes ending `back` bytes before the end of the frame, or NULL */
static inline const uint8_t *dsa_tail_at(const struct dsa_frame *f,
                                         uint32_t back, uint32_t n)
{
	if ((uint64_t)back + n > f->tail_len)
		return NULL;
	return f->tail + (f->tail_len - back - n);
}

/* --- meta helpers --------------------------------------------------- */

/* Destination ports requested by meta on TX: the mask if valid, else
 * 1 << port; 0 when meta names no port or the port does not fit. */
static inline uint32_t dsa_meta_tx_mask(const struct ofl_dsa_meta *m)
{
	if (m->valid & OFL_DSA_M_PORT_MASK)
		return m->port_mask;
	if ((m->valid & OFL_DSA_M_PORT) && m->port < 32)
		return (uint32_t)1 << m->port;
	return 0;
}

/* Non-zero when meta names a port (RX encode: the source port) of at most
 * max. */
static inline int dsa_meta_port_upto(const struct ofl_dsa_meta *m, unsigned max)
{
	return (m->valid & OFL_DSA_M_PORT) && m->port <= max;
}

/* Record a TX destination mask in meta (and port when it has one bit). */
static inline void dsa_meta_set_mask(struct ofl_dsa_meta *m, uint32_t mask)
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

/* Non-zero when the meta's mask is non-empty and below 1 << nports. */
static inline int dsa_mask_fits(uint32_t mask, unsigned nports)
{
	if (!mask)
		return 0;
	return nports >= 32 || mask < ((uint32_t)1 << nports);
}

/* Priority from meta (0 when not valid); OFL_ENOTSUP via *err when it does
 * not fit in nprios. */
static inline unsigned dsa_meta_prio(const struct ofl_dsa_meta *m,
                                     unsigned nprios, int *err)
{
	if (!(m->valid & OFL_DSA_M_PRIO))
		return 0;
	if (m->prio >= nprios)
		*err = OFL_ENOTSUP;
	return m->prio;
}

/* 01:80:C2:00:00:0X, the kernel's is_link_local_ether_addr() */
int dsa_is_link_local(const uint8_t *da);

/* --- views ---------------------------------------------------------- */

/* The view of a tag of tag_len bytes before the untagged frame's EtherType
 * (at tag_off) and tail_len bytes cut from the end, MACs at mac_off.  Writes
 * every field but buf (only when hdr points there), so decode does not zero
 * the view first. */
_Static_assert(offsetof(struct ofl_dsa_view, mac_off) ==
                       offsetof(struct ofl_dsa_view, hdr_len) + 4,
               "dsa_view_make() writes hdr_len and mac_off as one word");

static inline int dsa_view_make(const struct dsa_frame *f,
                                struct ofl_dsa_view *v, uint32_t mac_off,
                                uint32_t tag_off, uint32_t tag_len,
                                uint32_t tail_len)
{
	if (!v)
		return 0;
	if (f->len < DSA_MACS_LEN + tag_len + tail_len ||
	    f->head_len < mac_off + DSA_MACS_LEN)
		return OFL_EBADMSG;
	/* field by field in struct order, so that neighbouring constants
	 * merge into wide stores */
	v->hdr = f->head + mac_off;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	{
		/* hdr_len and mac_off as one word: GCC merged the two stores
		 * into an 8-byte constant it loaded from memory (a load and a
		 * store where one store of an immediate does) */
		uint64_t w = DSA_MACS_LEN | (uint64_t)mac_off << 32;

		memcpy((uint8_t *)v + offsetof(struct ofl_dsa_view, hdr_len), &w, sizeof(w));
	}
#else
	v->hdr_len = DSA_MACS_LEN;
	v->mac_off = mac_off;
#endif
	v->rest_off = DSA_MACS_LEN + tag_len;
	v->rest_len = f->len - (DSA_MACS_LEN + tag_len) - tail_len;
	v->tag_off = tag_off;
	v->tag_len = (uint16_t)tag_len;
	v->tail_len = (uint16_t)tail_len;
	v->ins_len = 0;
	v->mac_patched = 0;
	/* buf is written only where hdr points into it */
	if (f->scratch) {
		/* multi-buffer: the head window dies with the call */
		memcpy(v->buf, f->head + mac_off, DSA_MACS_LEN);
		v->hdr = v->buf;
	}
	return 0;
}

/* Tag of tag_len bytes after SA: untagged = MACs at 0 + frame[12+tag_len..]. */
static inline int dsa_view_after_sa(const struct dsa_frame *f, uint32_t tag_len,
                                    struct ofl_dsa_view *v)
{
	return dsa_view_make(f, v, 0, DSA_MACS_LEN, tag_len, 0);
}

/* Tag of tag_len bytes before DA. */
static inline int dsa_view_before_da(const struct dsa_frame *f,
                                     uint32_t tag_len, struct ofl_dsa_view *v)
{
	return dsa_view_make(f, v, tag_len, 0, tag_len, 0);
}

/* Tail tag of tail_len bytes. */
static inline int dsa_view_tail(const struct dsa_frame *f, uint32_t tail_len,
                                struct ofl_dsa_view *v)
{
	return dsa_view_make(f, v, 0, f->len - tail_len, 0, tail_len);
}

/* Rebuild bytes (2 or 4) between the MACs and the rest (802.1Q header). */
static inline void dsa_view_insert(struct ofl_dsa_view *v, const uint8_t *ins,
                                   unsigned n)
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

/* Minimum lengths the kernel's pskb_may_pull() enforces, written once:
 * after SA: DA SA tag EtherType; before DA: tag DA SA EtherType; tail:
 * DA SA EtherType tag. */
static inline uint32_t dsa_min_after_sa(uint32_t tag_len)
{
	return DSA_MACS_LEN + tag_len + 2;
}

static inline uint32_t dsa_min_before_da(uint32_t tag_len)
{
	return tag_len + DSA_ETH_HLEN;
}

static inline uint32_t dsa_min_tail(uint32_t tag_len)
{
	return DSA_ETH_HLEN + tag_len;
}

/* The tag of n bytes after SA, in a frame long enough to hold the
 * EtherType after it (dsa_min_after_sa), or NULL. */
static inline const uint8_t *dsa_tag_after_sa(const struct dsa_frame *f,
                                              uint32_t n)
{
	if (f->len < dsa_min_after_sa(n))
		return NULL;
	return dsa_head(f, DSA_MACS_LEN, n);
}

/* Non-zero when the tag at t is not there (NULL) or does not start with
 * its own EtherType etype: the frame is refused.  A macro: as an inline
 * function GCC predicted the refusal differently and loaded its error code
 * before the test, one instruction more per frame. */
#define DSA_TAG_NOT_TYPED(t, etype) (!(t) || dsa_be16(t) != (etype))

/* --- packed fast paths (DSA_CODEC_PACKED_) --------------------------- */

/* A fast path's answer for a frame it leaves to the body: any word with
 * the top bit set (port 128 or more, which no format with a fast path
 * has), so that the test is the sign of the last OR that built the word. */
#define DSA_PK_SLOW ((uint64_t)1 << 63)

/* The constant parts of a packed word (include/ofl/dsa.h, OFL_DSA_PK_*). */
#define DSA_PK_VALID(valid)                                                    \
	(((uint64_t)(valid) & OFL_DSA_M_PORT) << 46 |                          \
	 ((uint64_t)(valid) & OFL_DSA_M_SWITCH) << 45)
_Static_assert(OFL_DSA_M_PORT == 1 && OFL_DSA_M_SWITCH == 4, "valid's bits 46, 47");
_Static_assert(OFL_DSA_MF_VLAN_S < 0x400, "every flag fits the word's 10 bits");
#define DSA_PK_FLAGS(flags) ((uint64_t)(flags) << 32)
#define DSA_PK_SWITCH(sw) ((uint64_t)(sw) << 48)
#define DSA_PK_PORT(port) ((uint64_t)(port) << 56)
/* a cut of the MACs at 0 and rest_off, tail_len */
#define DSA_PK_CUT(rest_off, tail_len)                                         \
	((uint64_t)(rest_off) | (uint64_t)(tail_len) << 16)

/* A 256-entry table of a tag byte: F(a, b) for b = 0 .. 255, each followed
 * by a comma (a constant initializer: the tables are const, in the
 * library's read-only data). */
#define DSA_BYTE4_(F, a, x) F(a, (x)) F(a, (x) + 1) F(a, (x) + 2) F(a, (x) + 3)
#define DSA_BYTE16_(F, a, x)                                                   \
	DSA_BYTE4_(F, a, x) DSA_BYTE4_(F, a, (x) + 4) DSA_BYTE4_(F, a, (x) + 8) \
	DSA_BYTE4_(F, a, (x) + 12)
#define DSA_BYTE64_(F, a, x)                                                   \
	DSA_BYTE16_(F, a, x) DSA_BYTE16_(F, a, (x) + 16)                       \
	DSA_BYTE16_(F, a, (x) + 32) DSA_BYTE16_(F, a, (x) + 48)
#define DSA_BYTE_TABLE(F, a)                                                   \
	{ DSA_BYTE64_(F, a, 0) DSA_BYTE64_(F, a, 64) DSA_BYTE64_(F, a, 128)    \
	  DSA_BYTE64_(F, a, 192) }

/* The fast word of an RX frame at least min bytes long whose two tag
 * bytes at off and off + 1 each index a table (either may answer
 * DSA_PK_SLOW). */
DSA_INLINE uint64_t dsa_pk_two(int dir, const uint8_t *frame, uint32_t len,
                               uint32_t min, uint32_t off, const uint64_t *t0,
                               const uint64_t *t1)
{
	if (dir != OFL_DSA_RX || len < min)
		return DSA_PK_SLOW;
	return t0[frame[off]] | t1[frame[off + 1]];
}

/* A codec's fast path fn(dir, p, frame, len) that is dsa_pk_two(). */
#define DSA_PK_TWO(fn, min, off, t0, t1)                                       \
	DSA_INLINE uint64_t fn(int dir, const struct ofl_dsa_params *p,        \
	                       const uint8_t *frame, uint32_t len)              \
	{                                                                      \
		(void)p;                                                       \
		return dsa_pk_two(dir, frame, len, min, off, t0, t1);          \
	}

/* The fast word of an RX frame with a one-byte tail tag: the table of
 * that byte. */
DSA_INLINE uint64_t dsa_pk_last(int dir, const uint8_t *frame, uint32_t len,
                                const uint64_t *tab)
{
	if (dir != OFL_DSA_RX || len < dsa_min_tail(1))
		return DSA_PK_SLOW;
	return tab[frame[len - 1]];
}

#include "dsa/dsa_tx.h" /* in-place encode */

/* Zero meta and view after a failed decode; returns err. */
int dsa_decode_fail(int err, struct ofl_dsa_meta *m, struct ofl_dsa_view *v);

#include "dsa/dsa_codec.h" /* DSA_CODEC*: the entries of a format */

/* CRC-32 (IEEE 802.3), reflected, bitwise.  The Ethernet FCS of a buffer
 * is ~dsa_crc32_update(0xFFFFFFFF, p, n); pieces chain through crc. */
uint32_t dsa_crc32_update(uint32_t crc, const uint8_t *p, uint32_t n);
/* The same over bytes [off, off + n) of a frame, wherever they are (the
 * head window or, in a multi-buffer decode, the buffers). */
uint32_t dsa_crc32_frame(uint32_t crc, const struct dsa_frame *f, uint32_t off, uint32_t n);

/* --- per-family codecs (one file each), declared from their rows ----- */

#define DSA_FORMAT(proto_id, codec_name, ...)                                  \
	extern const struct ofl_dsa_codec dsa_codec_##codec_name;
#include "dsa/dsa_formats.def"
#undef DSA_FORMAT

#endif /* OFL_SRC_DSA_INT_H */
