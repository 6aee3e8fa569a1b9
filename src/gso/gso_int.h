/*
 * gso_int.h - GSO internals shared by the files of src/gso: the input as a
 * list of "units" (caller buffers, or a GRO packet's header and slices), the
 * payload cursor, the block pool's free list, and the per-type header
 * rules (seg.h, ip.c, frag.c).  Offsets in the iterator are output-header
 * offsets unless named in_*.
 */
#ifndef OFL_GSO_INT_H
#define OFL_GSO_INT_H

#include <ofl/csum.h>
#include <ofl/gso.h>
#include <string.h>

#include "core/compiler.h"
#include "core/csum_int.h"
#include "core/parse.h"
#include "core/sized.h"
#include "gso/state.h"

/* For a body the compiler must copy into each caller (so that constant
 * arguments fold). */
#define GSO_ALWAYS_INLINE static inline OFL_ALWAYS_INLINE

/* Between two tests that should stay two cheap branches (GCC otherwise
 * merges NULL checks into flag arithmetic: setcc, or, one branch): an
 * empty asm statement it does not move tests across; nothing elsewhere. */
/* On a function whose record fill GCC's SLP vectoriser would pack into
 * vector moves of values already in registers (movd, punpckldq, movq for
 * two 4-byte stores): GCC only, nothing elsewhere. */
/* After GSO_RELOAD(x) x is read again (GCC only, nothing elsewhere): a
 * second test of a field on a rarer path then does not make the first
 * path load the field into a register (a load and a compare where one
 * compare with memory did). */
#if defined(__GNUC__) && !defined(__clang__)
#define GSO_BRANCH_APART() __asm__ volatile("")
#define GSO_RELOAD(x) __asm__ volatile("" : "+m"(x))
#define GSO_NO_SLP __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define GSO_BRANCH_APART() ((void)0)
#define GSO_RELOAD(x) ((void)0)
#define GSO_NO_SLP
#endif

#define GSO_UNIT_BUF 0   /* units are struct ofl_buf */
#define GSO_UNIT_SLICE 1 /* units are struct ofl_slice */
#define GSO_UNIT_GRO 2   /* unit 0 is a GRO header (hdr0), units 1.. ofl_slice */

#define GSO_PROTO_TCP 6u
#define GSO_PROTO_UDP 17u
#define GSO_UDP_HLEN 8u
#define GSO_FRAG6_HLEN 8u
#define GSO_MIN_SLOT 64u

#define GSO_TCP_CSUM_OFF 16u /* checksum field offsets in the L4 header */
#define GSO_UDP_CSUM_OFF 6u

/* it->flags above the OFL_GSO_F_* bits: the input's TCP flags that the
 * middle-segment template lacks (FIN, PSH, CWR; gso_mid_template()). */
#define GSO_ITF_TCP_SHIFT 8u

#define GSO_TCP_FIN 0x01u
#define GSO_TCP_PSH 0x08u
#define GSO_TCP_CWR 0x80u

/* Payload offset (bytes after the input headers) and length of segment k. */
static inline void gso_bounds(const struct gso_it *it, uint32_t k, uint32_t *start,
                              uint32_t *len)
{
	uint32_t s, e;
	if (it->type == OFL_GSO_TYPE_UDP_FRAG) {
		/* fragment k covers datagram bytes [k*fs, (k+1)*fs), the first 8
		 * of which are the UDP header (carried in the first header slot) */
		s = k ? k * it->seg_size - GSO_UDP_HLEN : 0;
		e = (k + 1) * it->seg_size - GSO_UDP_HLEN;
	} else {
		s = k * it->seg_size;
		e = s + it->seg_size;
	}
	if (e > it->payload)
		e = it->payload;
	*start = s;
	*len = e - s;
}

/* Small header sums are kept as plain integer sums of big-endian 16-bit
 * words ("BE sums"): a field's contribution can be added or taken away with
 * + and -, and the result folds once.  Any value congruent modulo 0xffff
 * folds the same (every sum the rules fold is positive). */
/* The BE sum of the n bytes at p (n a multiple of 4: whole 32-bit words),
 * read a word at a time and folded, plus 3 x 0xffff (a ones'-complement
 * zero) so that up to three 16-bit words can be taken away from it. */
static inline uint32_t gso_sum_be(const uint8_t *p, uint32_t n)
{
	uint16_t m = ofl_csum_words_fold(p, n / 4u); /* memory order */
	uint8_t b[2];
	memcpy(b, &m, 2);
	return ofl_get16(b) + 3u * 0xffffu;
}

static inline uint16_t gso_fold_be(uint32_t s)
{
	s = (s & 0xffffu) + (s >> 16);
	s = (s & 0xffffu) + (s >> 16);
	return (uint16_t)s;
}

/* A memory-order sum (ofl_csum_partial) as a BE sum. */
static inline uint32_t gso_mem_to_be(uint32_t mem)
{
	uint16_t f = (uint16_t)~ofl_csum_fold(mem);
	uint8_t b[2];
	memcpy(b, &f, 2);
	return ofl_get16(b);
}

/* BLOCK pool: free slots are chained through their first 4 bytes. */
#define GSO_BLOCK_END UINT32_MAX

/* Take the first free slot of a BLOCK pool (ofl_gso_pool_get(), inlined
 * into ofl_gso_next()). */
static inline int gso_block_get(struct ofl_gso_pool *restrict pool, struct ofl_gso_hbuf *restrict hb)
{
	uint32_t i = pool->head, nx;
	uint8_t *d;
	if (i == GSO_BLOCK_END || pool->nfree == 0)
		return OFL_EAGAIN;
	d = pool->base + (size_t)i * pool->slot_size;
	memcpy(&nx, d, 4);
	pool->head = nx;
	pool->nfree--;
	hb->data = d;
	hb->size = pool->slot_size;
	hb->index = i;
	hb->offset = (uint64_t)i * pool->slot_size;
	hb->cookie = NULL;
	return 0;
}

/* ofl_gso_pool_get() of a RING pool: the slot at head, head on by one. */
static inline int gso_ring_get(struct ofl_gso_pool *restrict pool, struct ofl_gso_hbuf *restrict hb)
{
	const uint32_t i = pool->head;
	const size_t off = (size_t)i * pool->slot_size;
	if (pool->nfree == 0)
		return OFL_EAGAIN;
	pool->head = i + 1u == pool->nslots ? 0u : i + 1u;
	pool->nfree--;
	hb->data = pool->base + off;
	hb->size = pool->slot_size;
	hb->index = i;
	hb->offset = off;
	hb->cookie = NULL;
	return 0;
}

/* Take back the slot handed out last (ofl_gso_unnext(), a refused
 * segment): an ARRAY pool hands it out again next even when it is the only
 * one in use; other pools as ofl_gso_pool_put(). */
int gso_pool_unget(struct ofl_gso_pool *pool, const struct ofl_gso_hbuf *hb);

/* Give a slot back to a BLOCK pool (ofl_gso_pool_put()): it becomes the
 * first free one. */
static inline int gso_block_put(struct ofl_gso_pool *restrict pool, const struct ofl_gso_hbuf *restrict hb)
{
	uint32_t i = hb->index, head = pool->head, nfree = pool->nfree, n = pool->nslots;
	uint8_t *d = hb->data;
	if (i >= n || nfree >= n || d != pool->base + (size_t)i * pool->slot_size)
		return OFL_EINVAL;
	memcpy(d, &head, 4);
	pool->head = i;
	pool->nfree = nfree + 1;
	return 0;
}

/* The payload cursor (cursor.c): (unit, byte) at byte off of the units
 * (skip included); walking len bytes writes slices to out when non-NULL
 * (the caller guarantees room) and returns how many. */
void gso_cursor_at(const struct gso_it *it, uint32_t off, uint32_t *u, uint32_t *o);
uint32_t gso_take(const struct gso_it *it, uint32_t *u, uint32_t *o, uint32_t len,
                  struct ofl_slice *out);

/* Every segment's payload walked from the start (cursor.c): returns the
 * most slices one segment takes; *descs: the descriptors (slices and a
 * header each) of all segments, *descs_left those of segments from on. */
uint32_t gso_walk_segs(const struct gso_it *it, uint32_t from, uint32_t *descs, uint32_t *descs_left);

/* Memory-order sum of len bytes of the units from byte off (skip
 * included), as one contiguous run starting at an even offset (cursor.c). */
uint32_t gso_units_sum(const struct gso_it *it, uint32_t off, uint32_t len);

/* Sum of the slices as one contiguous run starting at an even offset. */
uint32_t gso_slices_sum(const struct ofl_slice *s, uint32_t n);

/* The BE sums of the template that do not change per segment (start). */
void gso_bases(struct gso_it *it);
/* Then (after the geometry, for TCP and UDP_L4) turn the template into the
 * header of a middle segment: full-size lengths, the TCP flags of a middle
 * segment, the PARTIAL checksum of a full-size segment (ip.c). */
void gso_mid_template(struct gso_it *it);
/* The per-segment rules of UDP fragmentation (frag.c; the others: seg.h):
 * fragment k (the last one when last) with plen payload bytes; h: its
 * header (template already copied). */
void gso_frag_fix(const struct gso_it *it, uint8_t *h, uint32_t k, uint32_t plen, int last);
/* UDP_FRAG: the checksum over the whole datagram (template UDP header with
 * checksum 0 plus every payload byte), computed once at start. */
uint16_t gso_frag_udp_csum(const struct gso_it *it);

/* Shared start path for every input form (start.c).  units/nunits/kind: the
 * input; skip: bytes before the frame in unit 0; view: the frame's first
 * bytes (copied, at most OFL_GSO_MAX_IN_HDR) with vlen valid bytes; flen: the
 * frame length; l2_none: the frame is an IP packet (TUN). */
struct gso_input {
	const void *units;
	uint32_t nunits;         /* GSO_UNIT_GRO: slices + 1 */
	const uint8_t *hdr0;     /* GSO_UNIT_GRO: the header */
	uint32_t hdr0_len;
	uint8_t kind;
	uint8_t l2_none;
	uint32_t skip;
	uint32_t flen;
};
/* What the outer and tunnel headers of a tunnelled super-packet are
 * (tunnel.c), in the coordinates of struct gso_parsed's sc (made-up
 * Ethernet header included). */
struct gso_tun_parsed {
	uint8_t type;       /* enum ofl_gso_tunnel */
	uint8_t l3;         /* outer IP version */
	uint8_t csum;       /* outer UDP / GRE checksum computed per segment */
	uint8_t inner_eth;  /* an inner Ethernet header before the inner IP */
	uint16_t inner_et;  /* inner EtherType (0x0800 / 0x86dd) */
	uint16_t l3_off;    /* outer IP header */
	uint16_t l3_hlen;
	uint16_t l4_off;    /* outer UDP or GRE header; 0 for IP-in-IP */
	uint16_t inner_off; /* inner IP header */
};

/* What parsing found, for the next steps (start.c; tunnel.c). */
struct gso_parsed {
	struct ofl_hdrs h;  /* the TCP/UDP packet (a tunnel's inner one), sc coordinates */
	uint8_t sc[OFL_ETH_HLEN + OFL_GSO_MAX_IN_HDR]; /* the frame's first bytes */
	uint32_t fake;  /* bytes of made-up Ethernet header (TUN input) */
	uint32_t l4len; /* TCP or UDP header length */
	uint8_t type;   /* resolved enum ofl_gso_type */
	int big;        /* an IP length field was 0 */
	struct gso_tun_parsed tun; /* type 0: no tunnel */
};

/* Tunnel requests (tunnel.c).  The request's tunnel fields and the flag
 * that goes with them: 0 or OFL_GSO_WHY_TUN_REQ. */
unsigned gso_tun_check_req(const struct ofl_gso_req *req);
/* Parse the outer and tunnel headers of the vlen bytes of p->sc (flen: the
 * frame's length in sc coordinates) into p->tun: 0 or the reason. */
unsigned gso_tun_outer(const struct ofl_gso_req *req, struct gso_parsed *p, uint32_t vlen, uint32_t flen);
/* After build_template(): the outer headers' offsets in the output, their
 * checksum fields cleared in the template and their per-packet sums; the
 * outer length limit of seg_size.  0 or the reason. */
unsigned gso_tun_template(struct gso_it *it, const struct ofl_gso_req *req, const struct gso_parsed *p);
/* The outer headers of segment k (plen payload bytes) in h, after the inner
 * ones were written (their checksum, complete or partial, included). */
void gso_tun_fix(const struct gso_it *it, uint8_t *h, uint32_t k, uint32_t plen);

/* A refusal at start: remember why (enum ofl_gso_why), leave the iterator
 * done, return the error that reason goes with. */
int gso_refuse(struct gso_it *it, unsigned why);
/* Copy a request of version 1, 2 or the current one into *dst (an older
 * request is read only as far as its fields go; the later ones are 0, their
 * defaults; dst == req leaves it as it is).  Returns 0, or OFL_GSO_WHY_REQ
 * for an unknown version. */
int gso_req_load(struct ofl_gso_req *dst, const struct ofl_gso_req *req);
/* req: a request gso_req_load() has loaded (the caller's copy; read only). */
int gso_start_common(struct gso_it *it, const struct ofl_gso_req *req,
                     const struct gso_input *in, struct ofl_hdrs *out_h);

#endif
