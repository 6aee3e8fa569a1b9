/*
 * cursor.h - one way to walk a frame held in several buffers: a cursor over
 * a list of chunks, either the caller's struct ofl_buf (received frames,
 * GSO input) or struct ofl_slice (GRO output, GSO segments), which both
 * begin with data and len.  GRO, GSO, DSA, offload-replay and the tests
 * take bytes out of multi-buffer frames through it; the checksum over such
 * a frame is ofl_csum_cursor() (src/core/csum.c).
 *
 * A cursor is (chunk, byte in it); ofl_cur_piece() hands out the next
 * contiguous piece of a requested range, ofl_cur_cut() cuts a range into
 * slices (zero-copy).  Zero-length chunks are skipped;
 * nothing is ever read past the last chunk (a range longer than the frame
 * ends at its end).  struct ofl_hcursor puts a contiguous header in front
 * (a GRO packet, a GSO segment); ofl_cur_size() measures and checks a
 * caller's buffer list.
 */
#ifndef OFL_CORE_CURSOR_H
#define OFL_CORE_CURSOR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <ofl/pkt.h>

_Static_assert(offsetof(struct ofl_buf, data) == offsetof(struct ofl_slice, data) &&
                   offsetof(struct ofl_buf, len) == offsetof(struct ofl_slice, len),
               "ofl_buf and ofl_slice begin alike");

struct ofl_cursor {
	const uint8_t *chunks; /* the first struct ofl_buf / ofl_slice */
	size_t stride;         /* sizeof of that struct */
	uint32_t n;            /* chunks */
	uint32_t i;            /* current chunk */
	uint32_t off;          /* byte in it */
};

static inline const uint8_t *ofl_cur_data(const struct ofl_cursor *c, uint32_t i)
{
	const uint8_t *d;
	memcpy(&d, c->chunks + (size_t)i * c->stride + offsetof(struct ofl_buf, data), sizeof d);
	return d;
}

static inline uint32_t ofl_cur_len(const struct ofl_cursor *c, uint32_t i)
{
	uint32_t l;
	memcpy(&l, c->chunks + (size_t)i * c->stride + offsetof(struct ofl_buf, len), sizeof l);
	return l;
}

/* Move forward by skip bytes (stops at the end of the frame). */
static inline void ofl_cur_skip(struct ofl_cursor *c, uint64_t skip)
{
	while (c->i < c->n) {
		uint32_t left = ofl_cur_len(c, c->i) - c->off;
		if (skip < left) {
			c->off += (uint32_t)skip;
			return;
		}
		skip -= left;
		c->i++;
		c->off = 0;
	}
}

/* A cursor at byte off of n buffers / slices. */
static inline struct ofl_cursor ofl_cur_bufs(const struct ofl_buf *b, uint32_t n, uint64_t off)
{
	struct ofl_cursor c = {(const uint8_t *)b, sizeof(*b), n, 0, 0};
	ofl_cur_skip(&c, off);
	return c;
}

static inline struct ofl_cursor ofl_cur_slices(const struct ofl_slice *s, uint32_t n, uint64_t off)
{
	struct ofl_cursor c = {(const uint8_t *)s, sizeof(*s), n, 0, 0};
	ofl_cur_skip(&c, off);
	return c;
}

/* The next contiguous piece of at most *left bytes: returns its length (0 at
 * the end of the frame or when *left is 0) and *p; the cursor moves past it
 * and *left goes down by it. */
static inline uint32_t ofl_cur_piece(struct ofl_cursor *c, uint32_t *left, const uint8_t **p)
{
	while (*left && c->i < c->n) {
		uint32_t avail = ofl_cur_len(c, c->i) - c->off, take;
		if (!avail) {
			c->i++;
			c->off = 0;
			continue;
		}
		take = avail < *left ? avail : *left;
		*p = ofl_cur_data(c, c->i) + c->off;
		*left -= take;
		c->off += take;
		if (c->off == ofl_cur_len(c, c->i)) {
			c->i++;
			c->off = 0;
		}
		return take;
	}
	return 0;
}

/* Cut the next len bytes (fewer when the frame ends first) into slices, one
 * per chunk they touch, written to out when it is not NULL (at most cap of
 * them).  A piece of a struct ofl_slice chunk keeps that slice's pkt and buf
 * (slice_tags 1); a piece of a struct ofl_buf chunk (slice_tags 0) gets pkt
 * and, as buf, the chunk's index.  Returns how many slices the bytes take,
 * or UINT32_MAX when out would need more than cap (the cursor is then left
 * inside the range).  The cursor ends at the chunk holding the next byte:
 * past exhausted and empty chunks. */
static inline uint32_t ofl_cur_cut(struct ofl_cursor *c, uint32_t len, int slice_tags, uint16_t pkt,
                                   struct ofl_slice *out, uint32_t cap)
{
	/* the position in locals: the stores to out cannot move it */
	uint32_t n = 0, i = c->i, off = c->off, end = c->n;
	while (len && i < end) {
		uint32_t avail = ofl_cur_len(c, i) - off, take = avail < len ? avail : len;
		if (take) {
			if (out) {
				if (n == cap)
					return UINT32_MAX;
				out[n].data = ofl_cur_data(c, i) + off;
				out[n].len = take;
				if (slice_tags) {
					const struct ofl_slice *from =
					    (const struct ofl_slice *)(const void *)(c->chunks + (size_t)i * c->stride);
					out[n].pkt = from->pkt;
					out[n].buf = from->buf;
				} else {
					out[n].pkt = pkt;
					out[n].buf = (uint16_t)i;
				}
			}
			n++;
			len -= take;
			if (take < avail) {
				c->i = i;
				c->off = off + take;
				return n;
			}
		}
		i++;
		off = 0;
	}
	/* the range ended with a chunk: on to the next non-empty one */
	while (i < end && ofl_cur_len(c, i) == 0)
		i++;
	c->i = i;
	c->off = off;
	return n;
}

/* The bytes of the chunks from the cursor's chunk on, or UINT64_MAX when
 * one of them has a length but no data pointer (a caller's mistake that the
 * entry points refuse). */
static inline uint64_t ofl_cur_size(const struct ofl_cursor *c)
{
	uint64_t t = 0;
	uint32_t i;
	for (i = c->i; i < c->n; i++) {
		uint32_t l = ofl_cur_len(c, i);
		if (l && !ofl_cur_data(c, i))
			return UINT64_MAX;
		t += l;
	}
	return t;
}

/* ofl_cur_size() of n buffers / slices. */
static inline uint64_t ofl_bufs_size(const struct ofl_buf *b, uint32_t n)
{
	struct ofl_cursor c = {(const uint8_t *)b, sizeof(*b), n, 0, 0};
	return ofl_cur_size(&c);
}

static inline uint64_t ofl_slices_size(const struct ofl_slice *s, uint32_t n)
{
	struct ofl_cursor c = {(const uint8_t *)s, sizeof(*s), n, 0, 0};
	return ofl_cur_size(&c);
}

/* Total length of a packet's buffers (UINT32_MAX on overflow). */
static inline uint32_t ofl_pkt_len(const struct ofl_buf *b, unsigned n)
{
	uint64_t t = 0;
	unsigned i;
	for (i = 0; i < n; i++)
		t += b[i].len;
	return t > 0xffffffffu ? 0xffffffffu : (uint32_t)t;
}

/*
 * A frame that is a contiguous header followed by chunks: a GRO packet
 * (struct ofl_gro_out: hdr, then its slices), a GSO segment (hdr, then its
 * slices), a GRO packet taken as GSO input.  The header's bytes come first;
 * with hdr_len 0 it is the plain cursor c.  hoff is the byte in the header,
 * hdr_len once past it (then c says where).
 */
struct ofl_hcursor {
	const uint8_t *hdr;
	uint32_t hdr_len;
	uint32_t hoff;
	struct ofl_cursor c; /* the chunks after the header */
};

/* Move forward by skip bytes (stops at the end of the frame). */
static inline void ofl_hcur_skip(struct ofl_hcursor *h, uint64_t skip)
{
	if (h->hoff < h->hdr_len) {
		if (skip < h->hdr_len - h->hoff) {
			h->hoff += (uint32_t)skip;
			return;
		}
		skip -= h->hdr_len - h->hoff;
		h->hoff = h->hdr_len;
	}
	ofl_cur_skip(&h->c, skip);
}

/* A cursor at byte off of the header and the chunks of c (c at their
 * first byte). */
static inline struct ofl_hcursor ofl_hcur(const uint8_t *hdr, uint32_t hdr_len, struct ofl_cursor c, uint64_t off)
{
	struct ofl_hcursor h = {hdr, hdr_len, 0, c};
	ofl_hcur_skip(&h, off);
	return h;
}

/* ofl_cur_piece(), the header first. */
static inline uint32_t ofl_hcur_piece(struct ofl_hcursor *h, uint32_t *left, const uint8_t **p)
{
	if (h->hoff < h->hdr_len && *left) {
		uint32_t take = h->hdr_len - h->hoff < *left ? h->hdr_len - h->hoff : *left;
		*p = h->hdr + h->hoff;
		h->hoff += take;
		*left -= take;
		return take;
	}
	return ofl_cur_piece(&h->c, left, p);
}

/* Copy len bytes from the cursor into dst; returns the bytes copied (fewer
 * only when the frame ends first). */
static inline uint32_t ofl_hcur_copy(struct ofl_hcursor *h, uint32_t len, uint8_t *dst)
{
	const uint8_t *p;
	uint32_t left = len, n, done = 0;
	while ((n = ofl_hcur_piece(h, &left, &p)) != 0) {
		memcpy(dst + done, p, n);
		done += n;
	}
	return done;
}

/* The same on a plain cursor. */
static inline uint32_t ofl_cur_copy(struct ofl_cursor *c, uint32_t len, uint8_t *dst)
{
	struct ofl_hcursor h = {NULL, 0, 0, *c};
	uint32_t n = ofl_hcur_copy(&h, len, dst);
	*c = h.c;
	return n;
}

/* Copy the bytes [off, off + len) of a buffer list into dst (the caller
 * checked they exist); zero-length buffers are skipped.  The one gather of
 * packet bytes that GRO (view, tail tags), GSO (the virtio header) and DSA
 * (head/tail windows) use. */
static inline void ofl_bufs_copy(const struct ofl_buf *b, unsigned n, uint64_t off, uint32_t len,
                                 uint8_t *dst)
{
	struct ofl_cursor c = ofl_cur_bufs(b, n, off);
	ofl_cur_copy(&c, len, dst);
}

/* ofl_cur_cut(), the header first: a piece of it is a slice tagged pkt and
 * buf 0; a range that ends inside the header leaves the chunk cursor as it
 * was, one that reaches the chunks is cut by ofl_cur_cut(). */
static inline uint32_t ofl_hcur_cut(struct ofl_hcursor *h, uint32_t len, int slice_tags, uint16_t pkt,
                                    struct ofl_slice *out, uint32_t cap)
{
	uint32_t n = 0, more;
	if (h->hoff < h->hdr_len) {
		uint32_t t = h->hdr_len - h->hoff < len ? h->hdr_len - h->hoff : len;
		if (!len)
			return 0;
		if (out) {
			if (!cap)
				return UINT32_MAX;
			out[0] = (struct ofl_slice){h->hdr + h->hoff, t, pkt, 0};
		}
		n = 1;
		len -= t;
		h->hoff += t;
		if (h->hoff < h->hdr_len)
			return n;
	}
	more = ofl_cur_cut(&h->c, len, slice_tags, pkt, out ? out + n : NULL, out ? cap - n : 0);
	return more == UINT32_MAX ? more : n + more;
}

/* Sum of len bytes from the cursor (fewer when the frame ends first), as if
 * contiguous and starting at an even offset (src/core/csum.c); the same
 * with the header first. */
uint32_t ofl_csum_cursor(struct ofl_cursor *c, uint32_t len);
uint32_t ofl_csum_hcursor(struct ofl_hcursor *h, uint32_t len);

#endif /* OFL_CORE_CURSOR_H */
