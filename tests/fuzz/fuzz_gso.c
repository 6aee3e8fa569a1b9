/*
 * fuzz_gso.c - libFuzzer target for software GSO (ofl_gso_*).
 *
 * Input: a request (type, checksum mode, flags, segment size - 0, 1, small,
 * MSS-like, 65535 and beyond -, max_segs, extra L2 bytes), a header pool
 * (BLOCK, ARRAY, FREELIST or RING, 1..8 slots, slot size around the header
 * length), how the input is held (split into buffers at fuzzed points,
 * optionally behind a virtio_net_hdr), a script of driver actions (next,
 * TX completion of the oldest slot, unnext, abort, ofl_gso_run with a
 * callback that continues, stops or refuses, or ofl_gso_next_burst of
 * 1..64 segments), then the frame.  An option
 * fixes the frame's IP/UDP length fields so that more inputs segment.
 *
 * Checked: start refuses with a documented code or accepts; count() is
 * consistent; every segment index comes out exactly once and in order
 * through pool exhaustion, ring stops, refusals and unnext (no loss, no
 * duplicate); each segment's header fits its slot, len = hdr_len + slices,
 * slices lie inside the input buffers and follow each other without gap or
 * overlap, so the payload handed out is exactly the input's payload; TCP
 * segments carry at most seg_size bytes (all but the last exactly), parse
 * as the same flow with consecutive sequence numbers and valid checksums
 * (after finishing a PARTIAL one); UDP_L4 datagrams have their length and a
 * valid checksum; IPv4 lengths and header checksums are right; no slot is handed out twice; the pool gets every slot back.
 * A burst is short only at the end, with the pool empty or the l2 hook
 * refusing; taken back (unnext, newest first) and built again with
 * ofl_gso_next() one by one, its segments come back the same (fields,
 * slices, header bytes; and the slots, but for an ARRAY pool whose only
 * slot in use was taken back, which the ring counts as sent).
 * ofl_gso_next_descs() before each segment is 1 + its slices (0 at the
 * end); a refused start names a reason (ofl_gso_why), a started one none;
 * slots go back one by one, through ofl_gso_pool_put_burst() or, for the
 * pools in ring order (ARRAY, RING), ofl_gso_pool_put_oldest() of 1 or of
 * a count from the input (which a BLOCK or FREELIST pool, and a count over
 * the slots in use, must refuse, nothing given back).  ARRAY and RING hand
 * their slots out in ring order (the one taken back by unnext next); a RING
 * slot's index and offset are its number and number * slot size.  Every
 * slot comes back exactly once: at the end the pool has them all, and one
 * more put of the last slot or put_oldest of 1 is refused.  Every
 * segment's header bytes and fields are recorded, and the same request cut
 * again through a one-slot BLOCK pool must give the same segments, so the
 * four pool kinds agree.
 */
#include <ofl/csum.h>
#include <ofl/gso.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conserve.h"
#include "fz.h"
#include "gen.h"

static int trace = -1; /* FZ_TRACE=1 in the environment: print the run */
#define TR(...) \
	do { \
		if (trace > 0) \
			fprintf(stderr, __VA_ARGS__); \
	} while (0)

#define MAXF 20000
#define MAXB 12
#define MAXSLOT 8

struct gst {
	/* input */
	uint8_t *frame;
	uint32_t flen;
	struct ofl_buf bufs[MAXB];
	void *blk[MAXB];
	uint32_t boff[MAXB]; /* frame offset of each buffer (after the vnet prefix) */
	uint32_t nbufs;
	uint32_t prefix;     /* vnet header bytes in front of the frame */
	bool tcp_in;
	struct c_flow cf;
	/* pool */
	struct ofl_gso_pool pool;
	uint8_t *block;
	struct ofl_gso_hbuf slots[MAXSLOT];
	void *slotmem[MAXSLOT];
	uint32_t nslots, slot_size;
	int kind;
	bool fl_used[MAXSLOT];
	uint32_t ring_next;  /* ARRAY, RING: the slot handed out next */
	uint32_t puts;       /* slots given back so far (picks the way) */
	struct ofl_gso_hbuf last_put;
	bool any_put;
	/* each segment's signature (header bytes and fields), by index */
	uint64_t *sig;
	uint32_t *rel;       /* and its release range: first << 16 | count */
	/* outstanding slots, oldest first */
	struct ofl_gso_hbuf out[MAXSLOT];
	uint32_t nout;
	/* progress */
	uint32_t next_index, nsegs, seg_size, type;
	uint32_t tunnel, o_l3, o_l4; /* ofl_gso_counts: the tunnel and its outer headers */
	uint64_t pay_end;    /* frame offset where the payload seen so far ends */
	uint64_t pay_total;
	bool pay_started;
	uint32_t seq0;
	struct fz *z;
	uint8_t lin[MAXF + 512];
	struct ofl_gso_req req;
	uint32_t l2_calls;
	bool l2_refuse;
	/* the last burst (not cleared per input) */
	struct ofl_gso_seg bsegs[64];
	uint8_t bhdr[64][OFL_GSO_MAX_HDR];
};

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

/* ---- FREELIST callbacks ---- */
static int fl_get(void *user, struct ofl_gso_hbuf *hb)
{
	struct gst *s = user;
	uint32_t i;
	for (i = 0; i < s->nslots; i++)
		if (!s->fl_used[i]) {
			s->fl_used[i] = true;
			hb->data = s->slotmem[i];
			hb->size = s->slot_size;
			hb->index = 0;
			hb->offset = i;
			hb->cookie = &s->fl_used[i];
			return 0;
		}
	return 1;
}

static void fl_put(void *user, const struct ofl_gso_hbuf *hb)
{
	struct gst *s = user;
	FZ_CHECK(hb->cookie >= (void *)&s->fl_used[0] && hb->cookie < (void *)&s->fl_used[s->nslots]);
	FZ_CHECK(*(bool *)hb->cookie);
	*(bool *)hb->cookie = false;
}

static int l2_fill(void *user, uint8_t *hdr, uint32_t hdr_len, uint32_t seg_index)
{
	struct gst *s = user;
	FZ_CHECK(s->req.extra_l2_off + (uint32_t)s->req.extra_l2_len <= hdr_len);
	memset(hdr + s->req.extra_l2_off, 0xee, s->req.extra_l2_len);
	s->l2_calls++;
	/* refuse segment 1 once in a while: the position must not move */
	return s->l2_refuse && seg_index == 1 && (s->l2_calls & 1);
}

/* ---- checks of one segment ---- */

static uint32_t slot_id(const struct gst *s, const struct ofl_gso_hbuf *hb)
{
	uint32_t i;
	for (i = 0; i < s->nslots; i++) {
		const uint8_t *base = s->block ? s->block + (size_t)i * s->slot_size
		                               : (const uint8_t *)s->slotmem[i];
		if (hb->data == base)
			return i;
	}
	fz_fail(__FILE__, __LINE__, "slot", "header slot %p is not one of the pool's", (void *)hb->data);
}

static void check_outer(const struct gst *s, const struct ofl_gso_seg *g);

static bool ring_order(const struct gst *s)
{
	return s->kind == OFL_GSO_POOL_ARRAY || s->kind == OFL_GSO_POOL_RING;
}

/* FNV-1a of n bytes, continuing h */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	while (n--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

/* What a segment is, whatever slot holds it: its header bytes, fields
 * (the release range included: every pool kind must report the same one)
 * and slices (as frame offsets). */
static uint64_t seg_sig(const struct gst *s, const struct ofl_gso_seg *g)
{
	uint32_t f[13] = {g->hdr_len,     g->payload_len, g->len,   g->index,         g->nsegs,
	                  g->l3_off,      g->l4_off,      g->csum_start, g->csum_offset, g->flags,
	                  g->nslices,     g->release_first, g->release_count};
	uint64_t h = fnv(0xcbf29ce484222325ull, g->hdr.data, g->hdr_len);
	uint32_t i;
	h = fnv(h, f, sizeof(f));
	for (i = 0; i < g->nslices && i < OFL_GSO_SEG_MAX_SLICES; i++) {
		const struct ofl_slice *sl = &g->slices[i];
		uint64_t at[3] = {sl->buf, (uint64_t)(sl->data - s->bufs[sl->buf < s->nbufs ? sl->buf : 0].data),
		                  sl->len};
		h = fnv(h, at, sizeof(at));
	}
	return h;
}

static void check_seg(struct gst *s, const struct ofl_gso_seg *g)
{
	uint32_t i, sum = 0, id;
	FZ_CHECKF(g->index == s->next_index, "segment %u came, %u expected", g->index, s->next_index);
	FZ_CHECK(g->nsegs == s->nsegs);
	FZ_CHECK(!!(g->flags & OFL_GSO_SEG_F_FIRST) == (g->index == 0));
	FZ_CHECK(!!(g->flags & OFL_GSO_SEG_F_LAST) == (g->index + 1 == s->nsegs));
	FZ_CHECKF(g->hdr_len > 0 && g->hdr_len <= g->hdr.size && g->hdr_len <= OFL_GSO_MAX_HDR,
	          "header %u in a slot of %u", g->hdr_len, g->hdr.size);
	FZ_CHECK(g->hdr.size >= s->slot_size || s->kind == OFL_GSO_POOL_FREELIST);
	id = slot_id(s, &g->hdr);
	for (i = 0; i < s->nout; i++)
		FZ_CHECKF(s->out[i].data != g->hdr.data, "slot %u handed out twice", id);
	if (ring_order(s)) {
		FZ_CHECKF(id == s->ring_next, "slot %u handed out, %u is next in ring order", id, s->ring_next);
		s->ring_next = (id + 1) % s->nslots;
	}
	if (s->kind == OFL_GSO_POOL_RING)
		FZ_CHECK(g->hdr.index == id && g->hdr.offset == (uint64_t)id * s->slot_size &&
		         g->hdr.size == s->slot_size && g->hdr.cookie == NULL);
	FZ_CHECK(g->index < s->nsegs);
	s->sig[g->index] = seg_sig(s, g);
	s->rel[g->index] = (uint32_t)g->release_first << 16 | g->release_count;
	FZ_CHECK(g->nslices <= OFL_GSO_SEG_MAX_SLICES);
	for (i = 0; i < g->nslices; i++) {
		const struct ofl_slice *sl = &g->slices[i];
		const struct ofl_buf *b;
		uint64_t foff;
		FZ_CHECK(sl->buf < s->nbufs);
		b = &s->bufs[sl->buf];
		FZ_CHECKF(sl->len > 0 && sl->data >= b->data && sl->data + sl->len <= b->data + b->len,
		          "segment %u slice %u outside buffer %u", g->index, i, sl->buf);
		foff = s->boff[sl->buf] + (uint64_t)(sl->data - b->data);
		FZ_CHECK(foff >= s->prefix);
		if (s->pay_started)
			FZ_CHECKF(foff == s->pay_end, "segment %u slice %u at %llu, payload so far ends at %llu",
			          g->index, i, (unsigned long long)foff, (unsigned long long)s->pay_end);
		s->pay_started = true;
		s->pay_end = foff + sl->len;
		sum += sl->len;
	}
	FZ_CHECK(sum == g->payload_len && g->len == g->hdr_len + g->payload_len);
	s->pay_total += sum;
	if (s->type == OFL_GSO_TYPE_TCP || s->type == OFL_GSO_TYPE_UDP_L4)
		FZ_CHECKF(g->payload_len <= s->seg_size && (g->index + 1 == s->nsegs || g->payload_len == s->seg_size),
		          "segment %u of %u: %u payload bytes, seg_size %u", g->index, s->nsegs, g->payload_len,
		          s->seg_size);
	/* the frame as the NIC would send it */
	FZ_CHECK(ofl_gso_seg_linearize(g, s->lin, sizeof(s->lin)) == (int)g->len);
	if (g->flags & OFL_GSO_SEG_F_CSUM_PARTIAL) {
		uint16_t c;
		FZ_CHECK(g->csum_start + g->csum_offset + 2u <= g->len);
		c = ofl_csum_fold(ofl_csum_partial(s->lin + g->csum_start, g->len - g->csum_start, 0));
		memcpy(s->lin + g->csum_start + g->csum_offset, &c, 2);
	}
	if (g->l3_off + 20u <= g->hdr_len && (s->lin[g->l3_off] >> 4) == 4) {
		const uint8_t *ip = s->lin + g->l3_off;
		uint32_t ihl = (ip[0] & 15u) * 4u;
		FZ_CHECK(ihl >= 20 && g->l3_off + ihl <= g->hdr_len);
		FZ_CHECKF(rd16(ip + 2) == g->len - g->l3_off, "segment %u: IPv4 length %u, frame %u",
		          g->index, rd16(ip + 2), g->len - g->l3_off);
		FZ_CHECK(gen_csum_fold(ip, ihl, 0) == 0xffff);
	} else if (g->l3_off + 40u <= g->hdr_len && (s->lin[g->l3_off] >> 4) == 6) {
		FZ_CHECKF(rd16(s->lin + g->l3_off + 4) == g->len - g->l3_off - 40u,
		          "segment %u: IPv6 payload length %u, frame %u", g->index,
		          rd16(s->lin + g->l3_off + 4), g->len - g->l3_off - 40u);
	}
	if (s->type == OFL_GSO_TYPE_UDP_L4 && g->l4_off && g->l4_off + 8u <= g->hdr_len) {
		/* UDP_SEGMENT: each datagram has its own length and checksum */
		const uint8_t *u = s->lin + g->l4_off;
		uint32_t ulen = g->len - g->l4_off, psum;
		int v6 = (s->lin[g->l3_off] >> 4) == 6;
		FZ_CHECKF(rd16(u + 4) == ulen, "UDP segment %u: length %u, datagram %u", g->index,
		          rd16(u + 4), ulen);
		if (v6 || rd16(u + 6) != 0) {
			psum = v6 ? gen_csum_fold(s->lin + g->l3_off + 8, 32, 0)
			          : gen_csum_fold(s->lin + g->l3_off + 12, 8, 0);
			psum += 17u + ulen;
			FZ_CHECKF(gen_csum_fold(u, ulen, psum) == 0xffff, "UDP segment %u: bad checksum", g->index);
		}
	}
	if (s->tunnel)
		check_outer(s, g);
	if (s->type == OFL_GSO_TYPE_TCP && s->prefix == 0 && s->req.extra_l2_len == 0 && !s->tunnel) {
		struct c_flow cf;
		FZ_CHECKF(c_parse(s->lin, g->len, &cf), "TCP segment %u does not parse", g->index);
		FZ_CHECK(cf.payload_len == g->payload_len);
		FZ_CHECKF(gen_frame_csums_ok(s->lin, g->len), "TCP segment %u: bad checksum", g->index);
		if (s->tcp_in) {
			FZ_CHECK(memcmp(cf.key, s->cf.key, sizeof(cf.key)) == 0);
			FZ_CHECKF(cf.seq == s->seq0 + (uint32_t)(s->pay_total - sum), "segment %u: seq %u",
			          g->index, cf.seq);
		}
	}
	TR("seg %u/%u slot %u hdr %u pay %u\n", g->index, g->nsegs, g->hdr.index, g->hdr_len, g->payload_len);
	s->next_index++;
	FZ_CHECK(s->nout < MAXSLOT);
	s->out[s->nout++] = g->hdr;
}

/* A tunnel segment's outer headers (the inner checksum already finished):
 * lengths, IPv4 header checksum, a UDP checksum that is set, the GRE one. */
static void check_outer(const struct gst *s, const struct ofl_gso_seg *g)
{
	const uint8_t *ip = s->lin + s->o_l3;
	uint32_t l4len = g->len - s->o_l4;
	FZ_CHECK(s->o_l3 + 40u <= g->hdr_len && s->o_l4 < g->l3_off && g->l3_off < g->l4_off);
	if ((ip[0] >> 4) == 4) {
		FZ_CHECKF(rd16(ip + 2) == g->len - s->o_l3, "outer IPv4 length %u, frame %u", rd16(ip + 2),
		          g->len - s->o_l3);
		FZ_CHECK(gen_csum_fold(ip, (ip[0] & 15u) * 4u, 0) == 0xffff);
	} else {
		FZ_CHECK(rd16(ip + 4) == g->len - s->o_l3 - 40u);
	}
	if (!s->o_l4)
		return;
	if (s->tunnel == OFL_GSO_TUN_GRE) {
		if (s->lin[s->o_l4] & 0x80)
			FZ_CHECKF(gen_csum_fold(s->lin + s->o_l4, l4len, 0) == 0xffff, "segment %u: GRE checksum", g->index);
	} else {
		const uint8_t *u = s->lin + s->o_l4;
		FZ_CHECK(rd16(u + 4) == l4len);
		if (rd16(u + 6) != 0) {
			int v6 = (ip[0] >> 4) == 6;
			uint32_t psum = (v6 ? gen_csum_fold(ip + 8, 32, 0) : gen_csum_fold(ip + 12, 8, 0)) + 17u + l4len;
			FZ_CHECKF(gen_csum_fold(u, l4len, psum) == 0xffff, "segment %u: outer UDP checksum", g->index);
		}
	}
}

/* The n oldest slots out, given back (the TX completion of n segments):
 * one at a time, as a burst, or (ARRAY, RING) by count with
 * ofl_gso_pool_put_oldest(), which refuses a count over the slots in use
 * and a pool without ring order, giving nothing back. */
static void put_oldest_n(struct gst *s, uint32_t n)
{
	uint32_t avail = ofl_gso_pool_avail(&s->pool), i;
	FZ_CHECK(n > 0 && n <= s->nout);
	TR("put %u slots from %u (avail before %u)\n", n, s->out[0].index, avail);
	if (ring_order(s))
		FZ_CHECKF(avail == s->nslots - s->nout, "%u slots free, %u of %u out", avail, s->nout,
		          s->nslots);
	FZ_CHECK(ofl_gso_pool_put_oldest(&s->pool, s->nout + 1) == OFL_EINVAL);
	if (!ring_order(s))
		FZ_CHECK(ofl_gso_pool_put_oldest(&s->pool, 1) == OFL_EINVAL);
	FZ_CHECK(ofl_gso_pool_avail(&s->pool) == avail);
	if (ring_order(s) && (n > 1 || s->puts % 3 == 2)) {
		FZ_CHECK(ofl_gso_pool_put_oldest(&s->pool, n) == 0);
	} else if (n > 1 || s->puts & 1) {
		FZ_CHECK(ofl_gso_pool_put_burst(&s->pool, &s->out[0], n) == (int)n);
	} else {
		FZ_CHECK(ofl_gso_pool_put(&s->pool, &s->out[0]) == 0);
	}
	s->puts += n;
	s->last_put = s->out[n - 1];
	s->any_put = true;
	if (s->kind != OFL_GSO_POOL_FREELIST)
		FZ_CHECK(ofl_gso_pool_avail(&s->pool) == avail + n);
	for (i = n; i < s->nout; i++)
		s->out[i - n] = s->out[i];
	s->nout -= n;
}

static void put_oldest(struct gst *s)
{
	put_oldest_n(s, 1);
}

static int seg_cb(void *user, const struct ofl_gso_seg *g)
{
	struct gst *s = user;
	uint8_t b = fz_u8(s->z);
	if ((b & 3) == 3) /* ring full: not taken, comes again */
		return OFL_GSO_CB_REFUSE;
	check_seg(s, g);
	return (b & 3) == 2 ? OFL_GSO_CB_STOP : OFL_GSO_CB_CONTINUE;
}

/* Segment g taken back with ofl_gso_unnext(): the tracking goes back too. */
static void unnext_seg(struct gst *s, struct ofl_gso_iter *it, const struct ofl_gso_seg *g)
{
	FZ_CHECK(ofl_gso_unnext(it, &s->pool, g) == 0);
	s->next_index--;
	s->nout--;
	if (ring_order(s))
		s->ring_next = slot_id(s, &g->hdr); /* handed out again next */
	s->pay_total -= g->payload_len;
	/* the payload cursor goes back to the segment's start */
	if (g->nslices) {
		const struct ofl_slice *sl = &g->slices[0];
		s->pay_end = s->boff[sl->buf] + (uint64_t)(sl->data - s->bufs[sl->buf].data);
	}
}

/* a and b are the same segment (b built again after a was taken back). */
static void same_seg(const struct gst *s, const struct ofl_gso_seg *a, const uint8_t *ahdr,
                     const struct ofl_gso_seg *b, bool same_slot)
{
	uint32_t i;
	FZ_CHECK(a->hdr_len == b->hdr_len && a->payload_len == b->payload_len && a->len == b->len);
	FZ_CHECK(a->index == b->index && a->nsegs == b->nsegs && a->flags == b->flags);
	FZ_CHECK(a->l3_off == b->l3_off && a->l4_off == b->l4_off);
	FZ_CHECK(a->csum_start == b->csum_start && a->csum_offset == b->csum_offset);
	FZ_CHECKF(a->release_first == b->release_first && a->release_count == b->release_count,
	          "segment %u: release %u+%u in the burst, %u+%u one by one", a->index, a->release_first,
	          a->release_count, b->release_first, b->release_count);
	FZ_CHECK(a->nslices == b->nslices);
	for (i = 0; i < a->nslices; i++)
		FZ_CHECK(a->slices[i].data == b->slices[i].data && a->slices[i].len == b->slices[i].len &&
		         a->slices[i].pkt == b->slices[i].pkt && a->slices[i].buf == b->slices[i].buf);
	FZ_CHECKF(memcmp(ahdr, b->hdr.data, a->hdr_len) == 0, "segment %u: headers differ", a->index);
	if (same_slot)
		FZ_CHECKF(a->hdr.data == b->hdr.data && a->hdr.index == b->hdr.index &&
		          a->hdr.offset == b->hdr.offset && a->hdr.size == b->hdr.size,
		          "segment %u: another slot one by one", a->index);
	(void)s;
}

/* ofl_gso_next_burst of 1..64 segments; with again, the burst is taken
 * back and built again with ofl_gso_next(), which must give the same. */
static void burst(struct gst *s, struct ofl_gso_iter *it, unsigned n, bool again)
{
	uint32_t before = s->next_index, nout0 = s->nout, i;
	struct ofl_gso_seg seg;
	int d = ofl_gso_next_descs(it);
	int rc = ofl_gso_next_burst(it, &s->pool, s->bsegs, n);
	TR("burst %u: %d\n", n, rc);
	if (rc >= 1)
		FZ_CHECKF(d == 1 + (int)s->bsegs[0].nslices, "next_descs %d, segment of %u slices", d,
		          s->bsegs[0].nslices);
	if (rc == OFL_EAGAIN) {
		FZ_CHECKF(s->nout > 0, "EAGAIN with %u slots out of %u", s->nout, s->nslots);
		put_oldest(s);
		return;
	}
	if (rc == OFL_EBADMSG) {
		FZ_CHECK(s->l2_refuse);
		return;
	}
	FZ_CHECKF(rc >= 1 && (unsigned)rc <= n, "burst of %u: %d", n, rc);
	if ((unsigned)rc < n && before + (uint32_t)rc < s->nsegs)
		FZ_CHECKF(s->nout + (uint32_t)rc == s->nslots || s->l2_refuse,
		          "burst of %u stopped at %d with %u of %u slots out", n, rc, s->nout, s->nslots);
	for (i = 0; i < (uint32_t)rc; i++) {
		check_seg(s, &s->bsegs[i]);
		memcpy(s->bhdr[i], s->bsegs[i].hdr.data, s->bsegs[i].hdr_len);
	}
	if (!again)
		return;
	for (i = (uint32_t)rc; i-- > 0;)
		unnext_seg(s, it, &s->bsegs[i]);
	FZ_CHECK(s->next_index == before && s->nout == nout0);
	for (i = 0; i < (uint32_t)rc;) {
		int r = ofl_gso_next(it, &s->pool, &seg);
		if (r == OFL_EBADMSG && s->l2_refuse)
			continue; /* the hook refuses every other time */
		FZ_CHECKF(r == 1, "next after taking a burst back: %d", r);
		same_seg(s, &s->bsegs[i], s->bhdr[i], &seg, s->kind != OFL_GSO_POOL_ARRAY || nout0 > 0);
		check_seg(s, &seg);
		i++;
	}
}

/* Set IP (and UDP) length fields from the frame so more inputs segment. */
static void fix_lengths(uint8_t *f, uint32_t len)
{
	uint32_t off = 12;
	while (off + 4 <= len && (rd16(f + off) == 0x8100 || rd16(f + off) == 0x88a8))
		off += 4;
	if (off + 2 > len)
		return;
	if (rd16(f + off) == 0x0800 && off + 2 + 20 <= len) {
		uint8_t *ip = f + off + 2;
		uint32_t tot = len - off - 2, ihl = (ip[0] & 15u) * 4u;
		ip[0] = (uint8_t)(0x40 | (ip[0] & 15));
		ip[2] = (uint8_t)(tot > 0xffff ? 0 : tot >> 8);
		ip[3] = (uint8_t)(tot > 0xffff ? 0 : tot);
		ip[6] &= 0x40; /* no fragment */
		ip[7] = 0;
		if (ihl >= 20 && ihl + 8 <= tot && ip[9] == 17) {
			ip[ihl + 4] = (uint8_t)((tot - ihl) >> 8);
			ip[ihl + 5] = (uint8_t)(tot - ihl);
		}
		ip[10] = ip[11] = 0;
		if (ihl >= 20 && off + 2 + ihl <= len) {
			uint16_t c = ofl_csum_fold(ofl_csum_partial(ip, ihl, 0));
			memcpy(ip + 10, &c, 2);
		}
	} else if (rd16(f + off) == 0x86dd && off + 2 + 40 <= len) {
		uint8_t *ip = f + off + 2;
		uint32_t pl = len - off - 42;
		ip[0] = (uint8_t)(0x60 | (ip[0] & 15));
		ip[4] = (uint8_t)(pl > 0xffff ? 0 : pl >> 8);
		ip[5] = (uint8_t)(pl > 0xffff ? 0 : pl);
		if (ip[6] == 17 && pl >= 8) {
			ip[44] = (uint8_t)(pl >> 8);
			ip[45] = (uint8_t)pl;
		}
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* The request started on the input buffers (behind the vnet header). */
static int start(struct gst *s, struct ofl_gso_iter *it, uint8_t vnet)
{
	if (s->prefix)
		return ofl_gso_start_vnet(it, &s->req, s->prefix, (vnet >> 7) ? OFL_GSO_L2_NONE : OFL_GSO_L2_ETH,
		                          s->bufs, s->nbufs);
	return ofl_gso_start(it, &s->req, s->bufs, s->nbufs);
}

/* The same request cut again through a one-slot BLOCK pool, each slot
 * given back at once: every segment must be the one recorded (s->sig). */
static void cut_again(struct gst *s, uint8_t vnet)
{
	uint8_t *slot = malloc(s->slot_size);
	struct ofl_gso_pool pool;
	struct ofl_gso_iter it;
	struct ofl_gso_seg g;
	uint32_t n = 0;
	int rc;
	FZ_CHECK(slot);
	FZ_CHECK(ofl_gso_pool_init_block(&pool, slot, s->slot_size, s->slot_size) == 0);
	FZ_CHECK(start(s, &it, vnet) == 0);
	while ((rc = ofl_gso_next(&it, &pool, &g)) != 0) {
		if (rc == OFL_EBADMSG && s->l2_refuse)
			continue; /* the hook refuses every other time */
		FZ_CHECKF(rc == 1, "cut again: next %d", rc);
		FZ_CHECKF(g.index == n && n < s->nsegs, "cut again: segment %u, %u expected", g.index, n);
		FZ_CHECKF(seg_sig(s, &g) == s->sig[n],
		          "segment %u: not the same through a BLOCK pool as through pool kind %d "
		          "(release %u+%u there, %u+%u here)",
		          n, s->kind, s->rel[n] >> 16, s->rel[n] & 0xffffu, g.release_first, g.release_count);
		FZ_CHECK(ofl_gso_pool_put(&pool, &g.hdr) == 0);
		n++;
	}
	FZ_CHECK(n == s->nsegs);
	free(slot);
}

static struct gst *S;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz z = {data, size};
	struct gst *s;
	struct ofl_gso_iter it;
	struct ofl_gso_counts cnt;
	struct ofl_gso_seg seg;
	uint8_t b0, b1, b2, b3, b4, nsplit, vnet;
	uint32_t cuts[MAXB], i, steps, aborted = 0;
	const uint8_t *src;
	uint32_t len;
	int rc;
	s = S = fz_state(S, sizeof(*S));
	if (trace < 0)
		trace = getenv("FZ_TRACE") != NULL;
	memset(s, 0, offsetof(struct gst, lin));
	s->z = &z;
	FZ_CHECK(ofl_gso_req_default(&s->req) == 0);
	b0 = fz_u8(&z);
	b1 = fz_u8(&z);
	s->req.type = (uint8_t)(b0 & 3);
	s->req.csum = (uint8_t)((b0 >> 2) & 1);
	s->req.flags = (uint16_t)((b0 >> 3) & 3);
	switch (b1 & 7) {
	case 0: s->req.seg_size = 0; break;
	case 1: s->req.seg_size = 1; break;
	case 2: s->req.seg_size = 8u * (1u + (fz_u8(&z) & 31)); break;
	case 3: s->req.seg_size = 65535; break;
	case 4: s->req.seg_size = 65536u + fz_u16(&z); break;
	default: s->req.seg_size = 1u + fz_u16(&z) % 2000u; break;
	}
	s->req.max_segs = b1 & 8 ? fz_u8(&z) : 0;
	if (b1 & 16) {
		s->req.extra_l2_len = (uint16_t)(fz_u8(&z) % 17u);
		s->req.extra_l2_off = b1 & 32 ? 0 : 12;
		s->req.l2_fill = l2_fill;
		s->req.l2_user = s;
		s->l2_refuse = (b1 & 64) != 0; /* refuse segment 1 every other call */
	}
	s->req.ip6_frag_id = 77;
	if (b1 & 128) { /* a tunnel (request version 4) */
		uint8_t t = fz_u8(&z);
		s->req.tunnel = (uint8_t)(t % 6u);
		s->req.tun_csum = (uint8_t)((t >> 3) % 3u);
		if (t & 0x40)
			s->req.inner_off = (uint16_t)(fz_u8(&z) & ~1u);
		if (t & 0x80)
			s->req.flags |= OFL_GSO_F_OUTER_FIXED_ID;
	}
	b2 = fz_u8(&z);
	s->kind = 1 + (b2 & 3); /* BLOCK, FREELIST, ARRAY, RING */
	s->nslots = 1u + ((b2 >> 2) & 7);
	b3 = fz_u8(&z);
	s->slot_size = 64u + (uint32_t)b3 * 2u;
	b4 = fz_u8(&z);
	nsplit = b4 % MAXB;
	vnet = fz_u8(&z);
	for (i = 0; i + 1 < nsplit; i++)
		cuts[i] = fz_u16(&z);
	len = (uint32_t)fz_take(&z, MAXF, &src);
	/* frame, optionally behind a virtio_net_hdr (10 or 12 bytes) */
	s->prefix = (vnet & 3) == 1 ? 10 : (vnet & 3) == 2 ? 12 : (vnet & 3) == 3 && (b1 & 128) ? 24 : 0;
	s->flen = s->prefix + len;
	s->frame = malloc(s->flen ? s->flen : 1);
	FZ_CHECK(s->frame);
	if (s->prefix) {
		memset(s->frame, 0, s->prefix);
		s->frame[0] = (uint8_t)(vnet >> 2 & 1);       /* NEEDS_CSUM */
		s->frame[1] = (uint8_t)(vnet >> 3 & 1 ? 1 : vnet >> 4 & 1 ? 4 : vnet >> 5 & 1 ? 5 : 0);
		s->frame[4] = (uint8_t)(s->req.seg_size & 0xff);
		s->frame[5] = (uint8_t)(s->req.seg_size >> 8);
		s->frame[6] = (uint8_t)(vnet >> 6 ? 34 : 0);
		s->frame[8] = 16;
		if (s->prefix == 24) { /* a UDP tunnel type, the offsets from the input */
			s->frame[1] |= (uint8_t)(vnet & 0x40 ? 0x40 : 0x20);
			s->frame[0] |= (uint8_t)(vnet & 0x20 ? 8 : 0);
			s->frame[6] = fz_u8(&z);
			s->frame[20] = fz_u8(&z);
			s->frame[22] = fz_u8(&z);
		}
	}
	if (len)
		memcpy(s->frame + s->prefix, src, len);
	if (b4 & 0x80)
		fix_lengths(s->frame + s->prefix, len);
	s->tcp_in = c_parse(s->frame + s->prefix, len, &s->cf);
	if (s->tcp_in)
		s->seq0 = s->cf.seq;
	/* buffers */
	for (i = 0; i + 1 < nsplit; i++)
		cuts[i] = s->flen ? cuts[i] % (s->flen + 1) : 0;
	if (nsplit > 1)
		qsort(cuts, nsplit - 1u, sizeof(cuts[0]), cmp_u32);
	{
		uint32_t prev = 0, n = nsplit ? nsplit : 1;
		cuts[n - 1] = s->flen;
		for (i = 0; i < n; i++) {
			uint32_t pl = cuts[i] - prev;
			s->blk[i] = malloc(pl ? pl : 1);
			FZ_CHECK(s->blk[i]);
			memcpy(s->blk[i], s->frame + prev, pl);
			s->bufs[i].data = s->blk[i];
			s->bufs[i].len = pl;
			s->boff[i] = prev;
			prev = cuts[i];
		}
		s->nbufs = n;
	}
	/* pool */
	if (s->kind == OFL_GSO_POOL_BLOCK || s->kind == OFL_GSO_POOL_RING) {
		s->block = malloc((size_t)s->nslots * s->slot_size);
		FZ_CHECK(s->block);
		if (s->kind == OFL_GSO_POOL_BLOCK)
			FZ_CHECK(ofl_gso_pool_init_block(&s->pool, s->block, (size_t)s->nslots * s->slot_size,
			                                 s->slot_size) == 0);
		else
			FZ_CHECK(ofl_gso_pool_init_ring(&s->pool, s->block, (size_t)s->nslots * s->slot_size,
			                                s->slot_size) == 0);
	} else {
		for (i = 0; i < s->nslots; i++) {
			s->slotmem[i] = malloc(s->slot_size);
			FZ_CHECK(s->slotmem[i]);
			s->slots[i].data = s->slotmem[i];
			s->slots[i].size = s->slot_size;
			s->slots[i].offset = 1000u + i;
		}
		if (s->kind == OFL_GSO_POOL_ARRAY)
			FZ_CHECK(ofl_gso_pool_init_array(&s->pool, s->slots, s->nslots) == 0);
		else
			FZ_CHECK(ofl_gso_pool_init_freelist(&s->pool, s->slot_size, fl_get, fl_put, s) == 0);
	}
	FZ_CHECK(ofl_gso_pool_slot_size(&s->pool) == s->slot_size);

	/* start */
	rc = start(s, &it, vnet);
	FZ_CHECKF(rc == 0 || rc == OFL_EINVAL || rc == OFL_EPROTO || rc == OFL_EBADMSG ||
	          rc == OFL_ENOTSUP || rc == OFL_E2BIG, "start: %d", rc);
	if (s->req.seg_size == 0 && !s->prefix)
		FZ_CHECKF(rc == OFL_EINVAL, "seg_size 0 accepted: %d", rc);
	/* every refusal names a reason; a start names none */
	FZ_CHECKF((rc != 0) == (ofl_gso_why(&it) != OFL_GSO_WHY_NONE), "start %d, reason %d", rc, ofl_gso_why(&it));
	FZ_CHECK(ofl_gso_why_str(ofl_gso_why(&it)) != NULL);
	if (rc != 0)
		goto out;
	FZ_CHECK(ofl_gso_count(&it, &cnt, sizeof cnt) == 0);
	FZ_CHECK(cnt.segs >= 1 && cnt.segs_left == cnt.segs && cnt.descs_left == cnt.descs);
	FZ_CHECK(cnt.max_slices <= OFL_GSO_SEG_MAX_SLICES && cnt.hdr_len <= OFL_GSO_MAX_HDR);
	FZ_CHECK(cnt.descs >= cnt.segs && cnt.descs <= cnt.segs * (1u + cnt.max_slices));
	if (s->req.max_segs)
		FZ_CHECK(cnt.segs <= s->req.max_segs);
	s->nsegs = cnt.segs;
	s->sig = calloc(cnt.segs, sizeof(s->sig[0]));
	FZ_CHECK(s->sig);
	s->rel = calloc(cnt.segs, sizeof(s->rel[0]));
	FZ_CHECK(s->rel);
	s->seg_size = cnt.seg_size;
	s->type = cnt.type;
	s->tunnel = cnt.tunnel;
	s->o_l3 = cnt.outer_l3_off;
	s->o_l4 = cnt.outer_l4_off;
	FZ_CHECK(!s->tunnel || s->o_l3 < s->o_l4 || (s->tunnel == OFL_GSO_TUN_IPIP && !s->o_l4));
	rc = ofl_gso_check_pool(&it, &s->pool);
	FZ_CHECK(rc == 0 || rc == OFL_ENOSPC);
	FZ_CHECK((rc == OFL_ENOSPC) == (cnt.hdr_len > s->slot_size));
	if (rc == OFL_ENOSPC) {
		FZ_CHECK(ofl_gso_next(&it, &s->pool, &seg) == OFL_ENOSPC);
		FZ_CHECK(ofl_gso_pool_avail(&s->pool) == (s->kind == OFL_GSO_POOL_FREELIST ? UINT32_MAX : s->nslots));
		goto out;
	}

	/* drive it: a script of driver actions, then drain */
	for (steps = 0; steps < 4u * s->nsegs + 64u; steps++) {
		uint8_t a = z.n ? fz_u8(&z) : 0;
		int last_ok = 0, d;
		if (s->next_index == s->nsegs)
			break;
		TR("action %u (nout %u avail %u)\n", a % 6, s->nout, ofl_gso_pool_avail(&s->pool));
		switch (a % 6) {
		case 0: case 1:
			d = ofl_gso_next_descs(&it);
			rc = ofl_gso_next(&it, &s->pool, &seg);
			TR("next: %d\n", rc);
			FZ_CHECK(rc == 0 ? d == 0 : d >= 1);
			if (rc == 1)
				FZ_CHECKF(d == 1 + (int)seg.nslices, "next_descs %d, segment of %u slices", d, seg.nslices);
			if (rc == OFL_EAGAIN) {
				FZ_CHECKF(s->nout > 0,
				          "EAGAIN with %u slots out of %u", s->nout, s->nslots);
				put_oldest(s);
			} else if (rc == OFL_EBADMSG) {
				FZ_CHECK(s->l2_refuse);
			} else {
				FZ_CHECKF(rc == 1, "next: %d", rc);
				check_seg(s, &seg);
				last_ok = 1;
				if (a & 0x40) { /* not posted after all: give it back */
					unnext_seg(s, &it, &seg);
					last_ok = 0;
				}
			}
			break;
		case 2: /* TX completion of 1..nout segments */
			if (s->nout)
				put_oldest_n(s, a & 0x80 ? 1u + (z.n ? fz_u8(&z) : 0u) % s->nout : 1u);
			break;
		case 3: {
			uint32_t emitted = 0, before = s->next_index;
			struct ofl_gso_callbacks cb = {seg_cb, s};
			rc = ofl_gso_run(&it, &s->pool, &cb, &emitted);
			FZ_CHECKF(rc == 0 || rc == OFL_EAGAIN || rc == OFL_EBADMSG, "run: %d", rc);
			FZ_CHECK(emitted == s->next_index - before);
			if (rc == 0)
				FZ_CHECK(s->next_index == s->nsegs);
			while (s->nout > (a & 0x80 ? 0u : s->nslots / 2))
				put_oldest(s);
			break;
		}
		case 4:
			if ((a & 0xf0) == 0xf0) {
				rc = ofl_gso_abort(&it);
				FZ_CHECKF(rc == (int)(s->nsegs - s->next_index), "abort: %d, %u left", rc,
				          s->nsegs - s->next_index);
				aborted = 1;
				FZ_CHECK(ofl_gso_next(&it, &s->pool, &seg) == 0);
				FZ_CHECK(ofl_gso_next_burst(&it, &s->pool, s->bsegs, 64) == 0);
				goto drained;
			}
			/* a driver posting a burst: 1..64 segments */
			burst(s, &it, 1u + (z.n ? fz_u8(&z) : 0u) % 64u, (a & 0x20) != 0);
			break;
		default:
			FZ_CHECK(ofl_gso_count(&it, &cnt, sizeof cnt) == 0);
			FZ_CHECK(cnt.segs == s->nsegs && cnt.segs_left == s->nsegs - s->next_index);
			break;
		}
		(void)last_ok;
	}
	/* drain whatever the script left */
	while (s->next_index < s->nsegs) {
		rc = ofl_gso_next(&it, &s->pool, &seg);
		TR("drain next: %d (nout %u avail %u)\n", rc, s->nout, ofl_gso_pool_avail(&s->pool));
		if (rc == OFL_EAGAIN) {
			FZ_CHECK(s->nout > 0);
			put_oldest(s);
			continue;
		}
		if (rc == OFL_EBADMSG)
			continue;
		FZ_CHECKF(rc == 1, "next while draining: %d", rc);
		check_seg(s, &seg);
	}
	FZ_CHECK(ofl_gso_next(&it, &s->pool, &seg) == 0);
	FZ_CHECK(ofl_gso_count(&it, &cnt, sizeof cnt) == 0 && cnt.segs_left == 0 && cnt.descs_left == 0);
	/* conservation: the payload handed out is the input's, all of it */
	if (s->tcp_in && s->type == OFL_GSO_TYPE_TCP && s->prefix == 0)
		FZ_CHECKF(s->pay_total == s->cf.payload_len, "payload out %llu, in %zu",
		          (unsigned long long)s->pay_total, s->cf.payload_len);
drained:
	(void)aborted;
	while (s->nout)
		put_oldest(s);
	if (s->kind != OFL_GSO_POOL_FREELIST)
		FZ_CHECK(ofl_gso_pool_avail(&s->pool) == s->nslots);
	else
		for (i = 0; i < s->nslots; i++)
			FZ_CHECK(!s->fl_used[i]);
	/* each slot came back once: one more is refused, nothing changes */
	if (ring_order(s))
		FZ_CHECK(ofl_gso_pool_put_oldest(&s->pool, 1) == OFL_EINVAL);
	if (s->any_put && s->kind != OFL_GSO_POOL_FREELIST) {
		FZ_CHECK(ofl_gso_pool_put(&s->pool, &s->last_put) == OFL_EINVAL);
		FZ_CHECK(ofl_gso_pool_avail(&s->pool) == s->nslots);
	}
	if (!aborted)
		cut_again(s, vnet);
out:
	free(s->sig);
	free(s->rel);
	for (i = 0; i < s->nbufs; i++)
		free(s->blk[i]);
	for (i = 0; i < MAXSLOT; i++)
		free(s->slotmem[i]);
	free(s->block);
	free(s->frame);
	return 0;
}
