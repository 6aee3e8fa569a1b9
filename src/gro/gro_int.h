/*
 * gro_int.h - GRO engine internals: the context and the held-packet entry.
 *
 * Entries live in one array allocated at create time.  An entry is free,
 * HELD (in the flow table and on the age list, oldest first) or PENDING
 * (completed, or a NORMAL packet, waiting on the delivery list).  Each entry
 * owns a fixed slice array and cookie array in two pools.
 *
 * What a free entry keeps (deliver.c puts a delivered list on the free list
 * whole, touching no entry of it):
 * - its state: GRO_FREE if never used, else still GRO_PENDING.  Never
 *   GRO_HELD, which is what a hint (the last merge, the recent-flows
 *   cache) is checked against; list.c ofl_gro_list_seg() looks for the
 *   entry on the delivery list instead (pend_head to pend_tail).
 * - its lcsum, the last flow's: hold.h item_alloc() clears it, or
 *   hold_fill_plain_l4() after item_take().
 * The free list's order is that of the lists delivered, each in the order
 * it was delivered in, the last delivered first.
 */
#ifndef OFL_GRO_INT_H
#define OFL_GRO_INT_H

#include <stddef.h>
#include <string.h>

#include <ofl/gro.h>

#include "core/compiler.h"
#include "core/flowtab.h"
#include "core/parse.h"

#define GRO_NONE UINT32_MAX

/* headers plus the largest head tag (ocelot: 20 bytes) and some slack */
#define OFL_GRO_SCRATCH (OFL_GRO_MAX_HDR + 64u)
/* header prediction covers headers up to this long (IPv6 + 60 bytes of
 * TCP options is 114) */
#define GRO_PRED_MAX 128u
/* header prediction behind a DSA tag: at most this many bytes before the
 * untagged frame's EtherType, and this many tail tag bytes */
#define GRO_RAWPRE_MAX 48u
#define GRO_RAWTAIL_MAX 32u
/* how many frames ahead a burst prefetches the headers of (a header is
 * mostly a cache miss as far as main memory) */
#ifndef GRO_AHEAD
#define GRO_AHEAD 8u
#endif
/* recent-flows cache (entry hints for interleaved flows in a burst) */
#define GRO_RCACHE_BITS 6
#define GRO_RCACHE (1u << GRO_RCACHE_BITS)

/* bytes of struct gro_item's record part (out_cstart to out_dsa) */
#define GRO_REC_BYTES (16u + 2u * sizeof(void *))

enum gro_state { GRO_FREE = 0, GRO_HELD, GRO_PENDING };

/* struct gro_item.fast */
#define GRO_FAST_PLAIN 1u
#define GRO_FAST_TUN 2u
#define GRO_FAST_UDP 3u
/* tunnel prediction masks (struct ofl_gro.tmask): by outer and inner IP
 * version, IPv6 in IPv6 left out (its header is past GRO_PRED_MAX) */
#define GRO_TMASKS 3u
static inline unsigned gro_tmask_of(unsigned ol3, unsigned il3)
{
	return (ol3 == 6) * 2u + (il3 == 6);
}

/* The outer side of a flow held through a tunnel (tunnel.c). */
struct gro_tun {
	uint8_t type;         /* enum ofl_gro_tun_type */
	uint8_t ol3;          /* outer IP version */
	uint8_t ocsum;        /* the outer UDP checksum is not 0 */
	uint8_t ofixedid;     /* outer IPv4 ID fixed (decided on the second segment) */
	uint16_t oid0;        /* outer IPv4 ID of the first segment */
	uint16_t ol3_off, ol4_off, tun_off, in_off; /* outer IP, UDP, tunnel
	                         header, inner L2 (or L3) */
};

struct gro_item {
	/* hot: what header prediction reads and writes per segment, then the
	 * header it compares against */
	uint32_t next_seq;    /* sequence number the next segment must carry */
	uint32_t l3_len;      /* merged IP packet length, IP header on */
	uint32_t payload;     /* merged TCP payload bytes */
	uint16_t seg_size;    /* first segment's payload (the mss) */
	uint16_t nsegs;       /* 0 = a NORMAL packet */
	uint16_t nslices;
	uint16_t hdr_len, l3_off, l4_off;
	uint16_t id0;         /* IPv4 ID of the first segment */
	uint8_t l3, fixedid, fin_psh; /* fixedid 0 or 1 (deliver.c shifts it into gso_type) */
	uint8_t stack;        /* its layers: gro_stacks[stack] (layer.h) */
	uint8_t fast;         /* GRO_FAST_PLAIN: plain Ethernet (never raw-IP input) + IPv4/IPv6 (no options, no
	                         extension headers, no VLAN): the fast path may
	                         compare the next segment against hdr directly;
	                         GRO_FAST_TUN: a tunnel flow of the shape
	                         tunfast.c predicts; GRO_FAST_UDP: a UDP flow
	                         of the plain shape (udp.h: predicted and
	                         trained as a plain one, its own rules);
	                         0: none of these */
	uint8_t rawpre_len;   /* behind a DSA tag (untagged mode, fast): the
	                         first segment's bytes before the untagged
	                         frame's EtherType (tag and MACs), in rawpre */
	uint8_t rawtail_len;  /* ... and its tail tag bytes, in rawtail */
	uint8_t state;
	uint32_t hash;
	uint32_t prev, next;  /* age list (HELD), delivery list (PENDING: not
	                         read past its tail) or free list; prev only
	                         while HELD, and not kept by a full flush
	                         (deliver.c flush_entries()) */
	uint32_t age_seq;     /* when it was held (ofl_gro.hold_seq) */
	uint8_t hdr[OFL_GRO_MAX_HDR];
	/* the rest */
	struct ofl_flow_key key;
	/* Its slices and cookies (gro_slices(), gro_cookies(); create.c
	 * writes them once): with the record's part after them, the output
	 * record's bytes from cookies to dsa (GRO_REC_COOKIES below; sl where
	 * the record has ncookies, l3_off and l4_off), which flush_unidx.c
	 * fill_out_un() copies at once. */
	void **ck;
	struct ofl_slice *sl;
	/* The output record's bytes from csum_start to dsa, in its layout
	 * (struct ofl_gro_out: GRO_REC_SAME below), written when the entry is
	 * held (hold.h gro_hold_rec(), from hold_fill() and
	 * hold_fill_plain_l4()) as a merged plain entry's record has them:
	 * deliver.c copies them into it at once.  frame_len is where the
	 * record has padding. */
	struct {
		uint16_t out_cstart;  /* held: l4_off */
		uint16_t out_coff;    /* held: the stack's checksum field offset */
		uint8_t out_flags;    /* OFL_GRO_OUT_F_* */
		uint8_t out_gso;      /* held out of the table (hold.h gro_hold_plain_unidx()):
		                         its merged gso_type; else unused (the
		                         record's written at completion) */
		uint16_t vlan_tci;
		uint32_t rx_hash;
		uint32_t frame_len;   /* NORMAL: the frame's length */
		uint64_t first_ns;
		const struct ofl_dsa_meta *out_dsa; /* held: the cold entry's meta with has_meta, else NULL */
	};
	uint8_t cwr;          /* 0 or 1, as fixedid */
	uint8_t has_meta;     /* the cold entry's meta holds the DSA tag's fields */
	uint8_t tail_len;     /* keep-tag mode: tail tag bytes in the cold tailbuf */
	uint8_t csum_done;    /* the TCP checksum in hdr is complete (tail tag) */
	struct gro_tun tun;   /* a tunnel flow (stack GRO_STACK_TUN4/6): the
	                         outer headers; l3_off, l4_off, l3_len and the
	                         rest above are the inner ones' */
	uint8_t lcsum;        /* fraglist mode (list.c): the first segment's
	                         checksum state, 0 for a flow not chained
	                         (any in a free entry: see the top) */
};

/* Has struct gro_item's record part (out_cstart to out_dsa) the layout of
 * struct ofl_gro_out from csum_start to its end (every 64-bit ABI; where it
 * has not, as where a 64-bit word is 4-aligned, deliver.c copies it field
 * by field)? */
#define GRO_REC_AT(f) (offsetof(struct gro_item, f) - offsetof(struct gro_item, out_cstart))
#define GRO_OUT_AT(f) (offsetof(struct ofl_gro_out, f) - offsetof(struct ofl_gro_out, csum_start))
#define GRO_REC_SAME                                                                                          \
	(GRO_REC_AT(out_coff) == GRO_OUT_AT(csum_offset) && GRO_REC_AT(out_flags) == GRO_OUT_AT(flags) &&     \
	 GRO_REC_AT(out_gso) == GRO_OUT_AT(gso_type) && GRO_REC_AT(vlan_tci) == GRO_OUT_AT(vlan_tci) &&       \
	 GRO_REC_AT(rx_hash) == GRO_OUT_AT(rx_hash) && GRO_REC_AT(first_ns) == GRO_OUT_AT(first_ns) &&        \
	 GRO_REC_AT(out_dsa) == GRO_OUT_AT(dsa) &&                                                              \
	 sizeof(struct ofl_gro_out) - offsetof(struct ofl_gro_out, csum_start) == GRO_REC_BYTES &&            \
	 GRO_REC_AT(out_dsa) + sizeof(void *) == GRO_REC_BYTES)

/* The output record's csum_start to dsa as entry it has them (its record
 * part, written by the hold): one copy with GRO_REC_SAME, else field by
 * field. */
static inline void gro_rec_out(struct ofl_gro_out *o, const struct gro_item *it)
{
	if (GRO_REC_SAME) {
		memcpy((uint8_t *)o + offsetof(struct ofl_gro_out, csum_start),
		       (const uint8_t *)it + offsetof(struct gro_item, out_cstart), GRO_REC_BYTES);
		return;
	}
	o->csum_start = it->out_cstart;
	o->csum_offset = it->out_coff;
	o->flags = it->out_flags;
	o->gso_type = it->out_gso;
	o->vlan_tci = it->vlan_tci;
	o->rx_hash = it->rx_hash;
	o->first_ns = it->first_ns;
	o->dsa = it->out_dsa;
}

/* ... and has it ck and sl before it as the record has cookies, then
 * ncookies, l3_off and l4_off (8 bytes) before csum_start? */
#define GRO_REC_COOKIES                                                                                       \
	(GRO_REC_SAME && offsetof(struct gro_item, sl) == offsetof(struct gro_item, ck) + 8 &&                \
	 offsetof(struct gro_item, out_cstart) == offsetof(struct gro_item, sl) + 8 &&                        \
	 offsetof(struct ofl_gro_out, csum_start) == offsetof(struct ofl_gro_out, cookies) + 16 &&            \
	 offsetof(struct ofl_gro_out, ncookies) == offsetof(struct ofl_gro_out, cookies) + 8)

/* The DSA state of an entry, out of the hot entry: an array parallel to the
 * entries, allocated only when the context decodes a DSA tag. */
struct gro_cold {
	uint8_t rawpre[GRO_RAWPRE_MAX];
	uint8_t rawtail[GRO_RAWTAIL_MAX];
	uint8_t tailbuf[30];
	struct ofl_dsa_meta meta;
};

/* Stage 2 (group.c): the frames of one burst grouped by flow, and the lone
 * records of the frames that were alone in their flow. */
#define GRO_BURST_MAX 256u   /* longest burst grouped (longer: not grouped) */
#define GRO_LONE_NB 8u       /* most buffers of a lone record's frame (lone_bufs.h) */
#define GRO_LONE_NSL (4u * GRO_BURST_MAX) /* slices for such records per burst */
#define GRO_GBITS 9
#define GRO_GSLOTS (1u << GRO_GBITS) /* group table slots (2 x GRO_BURST_MAX) */

/* A frame parsed for a lone record (group.c; through a tunnel, tunfast.c
 * gro_tun_lone_parse()). */
struct gro_brec {
	uint16_t len;         /* TCP or UDP payload */
	uint8_t hl;           /* header length */
	uint8_t tun;          /* tunnel type << 5 (0: none; tunfast.c) */
	uint16_t l3, l4;      /* IP and TCP offsets (through a tunnel: the
	                         inner ones), as ofl_gro_out has them */
};

/* A lone record behind a DSA tag (dsa_group.c, untagged mode): its
 * untagged header when the tag sits between the MACs and the EtherType
 * (else the record's hdr is the frame's own bytes), the tag's metadata
 * (the record's dsa), and its tagged frame (one buffer) for
 * gro_lone_settle().  frame and flen move with the record
 * (gro_lone_move()); hdr and meta stay in the slot of the frame that
 * wrote them, until the next burst is grouped. */
#define GRO_TAG_HDR 128u /* 12 MAC bytes + EtherType, IPv6, a 60-byte TCP header, rounded to 16 */
struct gro_tag_slot {
	uint8_t hdr[GRO_TAG_HDR];
	struct ofl_dsa_meta meta;
	const uint8_t *frame;
	uint32_t flen;
};

/* The lone records: a held frame alone in its flow is its output record,
 * written while the burst is grouped, in the frame's slot (out[i] for
 * frame i of the burst), and moved down to its place among the lone
 * records when frames before it were not alone (slices, cookies and the
 * constant fields set once at create time). */
struct gro_burst {
	struct ofl_gro_out out[GRO_BURST_MAX];
	struct ofl_slice sl[GRO_BURST_MAX];
	void *ck[GRO_BURST_MAX];
	uint32_t seq[GRO_BURST_MAX]; /* when held (ofl_gro.hold_seq); not
	                                written with seq_all (group.c: read
	                                only while entries are held too) */
	uint32_t seq_base; /* with seq_all: record k held as seq_base + k */
	uint8_t seq_all;   /* the burst was taken whole (group.c) */
	uint8_t hl[GRO_BURST_MAX + 1]; /* frame i alone in its group and parsed
	                                 plain (core/parse.h; its record in
	                                 out[i]): its header length; 0 when not,
	                                 1 when it is passed on (group.c); one
	                                 more as the end */
	uint64_t gkey[GRO_GSLOTS];    /* group table: generation << 32 | hash */
	uint16_t gfirst[GRO_GSLOTS];  /* ... and the group's first frame */
	uint32_t gen;                 /* the burst's generation */
	uint32_t bytes; /* payload bytes of the lone records */
	struct ofl_slice msl[GRO_LONE_NSL]; /* lone records of frames in several buffers: their slices */
	uint32_t nmsl, mtop; /* ... msl used; slots [0, mtop) with such fields (lone_bufs.h) */
	struct gro_tag_slot *tag; /* with a DSA format: GRO_BURST_MAX slots after
	                             this struct (create.c); else NULL */
	uint32_t tag_po; /* ... where the first frame of the last burst not
	                    grouped had its TCP ports (a hint; 0: none) */
	uint32_t rep_at; /* burst.c burst_groups(): where the first frame's
	                    flow came again, not next, in the last burst that
	                    looked (a hint; 0: none) */
};

/* The context's arrays, one allocation each (create.c). */
enum {
	GA_ITEMS, GA_COLD, GA_SLICES, GA_COOKIES, GA_OUTS, GA_OSLICES, GA_OCOOKIES,
	GA_BS, GA_TAB, GA_LHS, GA_LIDX, GRO_NARR
};

#define WEAVE_BITS 4
#define WEAVE_SLOTS (1u << WEAVE_BITS)

/* A flow's state while the weave (weave.c, weave.h) takes its frames (one
 * slot of the table, found by a hash of the TCP ports; the table in the
 * context: struct ofl_gro weave). */
struct wflow {
	/* the shuffle compare's 32 bytes (weave_run.h weave_cmp_avx2()): e in
	 * lane 0, seq in lane 2's first half, the rest zero (z0, z1: never
	 * written; the context is allocated zeroed) */
	uint64_t e;          /* IPv4: the next ID-to-checksum word */
	uint32_t z0[2];
	uint32_t seq;        /* the next sequence number */
	uint32_t z1[3];
	uint32_t ports;      /* the frames' TCP ports */
	uint32_t full;       /* and their length (a full segment's); 0: a free slot */
	uint32_t hl, n;      /* header length (full and hl: one word, weave_run.h); frames taken */
	uint32_t left;       /* how many it may take */
	uint32_t xs;         /* slices written beyond one a frame (frames in several buffers: at the leave) */
	uint64_t estep;      /* e's step */
	uint32_t mss;        /* seq's step */
	/* frames in several buffers (weave.c): the next frame's pkt/buf word
	 * (and below its first slice and the end of the slices the flow may
	 * write) */
	uint32_t pb;
	struct gro_item *it;
	struct ofl_slice *s; /* the entry's next slice and cookie when it joined */
	void **c;
	uint64_t lw;         /* that slice's len, pkt and buf (SL_LEN) */
	struct ofl_slice *sp, *send;
	/* one buffer (weave.c): the slot of the frame that came after this
	 * slot's last time (a guess, checked; NULL until the first weave) */
	struct wflow *nx;
};
_Static_assert(sizeof(struct wflow) == 128, "a slot: 128 bytes");
_Static_assert(offsetof(struct wflow, full) == offsetof(struct wflow, ports) + 4 &&
                   offsetof(struct wflow, hl) == offsetof(struct wflow, full) + 4,
               "ports and full, full and hl: one word each");
_Static_assert(offsetof(struct wflow, e) == 0 && offsetof(struct wflow, z0) == 8 && offsetof(struct wflow, seq) == 16 &&
                   offsetof(struct wflow, ports) == 32,
               "e and seq: the compare's lanes 0 and 2, zeros around them (weave_run.h weave_cmp_avx2())");

struct ofl_gro {
	struct ofl_gro_config cfg;
	struct ofl_gro_stats st;
	struct ofl_flowtab tab;
	struct gro_item *items;
	struct gro_cold *cold;     /* nitems, with cfg.dsa only; else NULL */
	struct ofl_slice *slices;  /* nitems * max_slices */
	void **cookies;            /* nitems * max_segs */
	struct ofl_gro_out *outs;  /* normal_batch + 1: the delivery list's
	                              records, written as packets are queued */
	struct ofl_slice *oslices; /* max_bufs per record of outs: the slices
	                              of a frame passed on without an entry */
	void **ocookies;           /* one per record of outs: its cookie */
	uint32_t nitems, max_slices;
	uint32_t free_head;        /* free list through .next */
	uint32_t age_head, age_tail;
	uint32_t pend_head, pend_tail; /* delivery list's entries through
	                              .next (pend_tail's next not kept: a full
	                              flush chains the age list on from it);
	                              pend_tail only with pend_head not GRO_NONE */
	uint32_t pend_segs, pend_n, pend_gro; /* queued: segments, records (in
	                              outs), GRO packets among them */
	uint32_t last;             /* entry of the last merge (lookup cache) */
	uint32_t held_bytes;
	uint32_t hold_seq;         /* holds so far: the age order */
	uint32_t nlone;            /* lone records held (bs->out[0..nlone));
	                              with unidx, the entries out of the table */
	struct gro_burst *bs;      /* with timeout 0 and the fast path; else NULL */
	int in_cb;
	uint8_t raw;               /* cfg.l2 is OFL_L2_NONE: packets start at IP */
	uint8_t full_only;         /* a DSA format or raw input: no fast path */
	uint8_t udp_tun;           /* any UDP tunnel port configured (VXLAN,
	                              Geneve, VXLAN-GPE): tunnel.h gro_tunnel_on() */
	uint8_t unidx;             /* not 0: the held entries are out of the
	                              flow table, nlone counts them, each plain
	                              TCP over IP version unidx (hold.h
	                              gro_hold_plain_unidx()) */
	void *tab_mem;
	size_t arr_size[GRO_NARR]; /* bytes of each array above (GA_*), as
	                              ofl_gro_create allocated it: what
	                              ofl_gro_destroy gives back */
	/* header prediction's byte masks, IPv4 and IPv6: 0xff where the next
	 * segment must equal the held header */
	uint8_t pmask[10][GRO_PRED_MAX]; /* by stack (layer.h): TCP4, TCP6,
	                                   RAW4, RAW6 (these unused so far:
	                                   raw-IP input is not predicted),
	                                   UDP4, UDP6 (GRO_FAST_UDP flows),
	                                   RAWUDP4, RAWUDP6 (unused), TUN4, TUN6 (unused:
	                                   tunnel flows are predicted with tmask) */
	uint8_t tmask[GRO_TMASKS][GRO_PRED_MAX]; /* the same for a tunnel flow
	                                   of the shape tunfast.c predicts,
	                                   by gro_tmask_of() */
	uint64_t rcache[GRO_RCACHE]; /* bytes 34-37 << 32 | entry */
	struct ofl_slice *lhs;     /* fraglist mode (list.c): each entry's
	                              segment headers as slices, max_slices per
	                              entry; else NULL */
	uint32_t *lidx;            /* ... and per entry where each segment's
	                              header and payload slices start */
	uint8_t scratch[OFL_GRO_SCRATCH];
	/* the weave's slots (weave.c): every one free (full 0) between two
	 * weaves */
	_Alignas(64) struct wflow weave[WEAVE_SLOTS];
	uint32_t wl_key, wl_left; /* newflows.c: the weave's limit for a new
	                              flow, the last computed: l3_len << 16 |
	                              mss (0: none), its frames */
	uint32_t wm_key;          /* weave.c: whose mask wmask is (0: none
	                              yet; pmask is fixed at create) */
	_Alignas(64) uint8_t wmask[GRO_PRED_MAX]; /* ... the weave's last */
};

/* Where an entry held out of the table (unidx) has its TCP header: after
 * Ethernet and an IPv4 (l3 4) or IPv6 header with no options. */
static inline uint32_t gro_unidx_l4(unsigned l3)
{
	return l3 == 4 ? 34u : 54u;
}

/* The output record of a merged entry held out of the table (plain TCP
 * over IP version l3; the one writer of such a record: deliver.c fill_out()
 * un and flush_unidx.c): every field
 * from the entry as the hold and the weave left it, nothing computed;
 * with GRO_REC_COOKIES (every 64-bit ABI) the cookies to the end copied
 * at once, ncookies, l3_off and l4_off written over after. */
static inline OFL_ALWAYS_INLINE void gro_fill_out_un(struct ofl_gro_out *o, const struct gro_item *it,
                                                     const unsigned l3)
{
	const uint32_t hl = it->hdr_len, ns = it->nsegs;
	o->hdr = it->hdr;
	o->hdr_len = hl;
	o->nslices = it->nslices;
	o->slices = it->sl;
	o->len = hl + it->payload;
	o->seg_count = (uint16_t)ns;
	o->seg_size = it->seg_size;
	if (GRO_REC_COOKIES) {
		memcpy((uint8_t *)o + offsetof(struct ofl_gro_out, cookies),
		       (const uint8_t *)it + offsetof(struct gro_item, ck), GRO_REC_BYTES + 16u);
	} else {
		o->cookies = it->ck;
		gro_rec_out(o, it);
	}
	o->ncookies = ns;
	o->l3_off = 14;
	o->l4_off = (uint16_t)gro_unidx_l4(l3);
	o->flags |= OFL_GRO_OUT_F_CSUM_PARTIAL; /* merged: partial */
}

static inline struct ofl_slice *gro_slices(struct ofl_gro *g, uint32_t i)
{
	return g->slices + (size_t)i * g->max_slices;
}
static inline void **gro_cookies(struct ofl_gro *g, uint32_t i)
{
	return g->cookies + (size_t)i * g->cfg.max_segs;
}
/* The DSA fields an entry's output record points to (NULL: none). */
static inline const struct ofl_dsa_meta *gro_out_dsa(const struct ofl_gro *g, uint32_t i)
{
	return g->items[i].has_meta ? &g->cold[i].meta : NULL;
}

/* Nomerge bits: one per enum ofl_gro_flush_reason. */
#define NM(r) (1u << (r))

/* Completion, walking outwards (ipv4.c, ipv6.c, tcp.c). */
void gro_ipv4_complete(struct gro_item *it);
void gro_ipv6_complete(struct gro_item *it);
void gro_tcp_complete(struct gro_item *it);
/* Pseudo-header sum of the item's L3 header for an L4 length and protocol
 * (6 TCP, 17 UDP; memory order). */
uint32_t gro_pseudo_sum(const uint8_t *hdr, unsigned l3, unsigned l3_off, uint32_t l4_len, unsigned proto);
/* ... its body, for completion to inline with l3 and proto known. */
static inline OFL_ALWAYS_INLINE uint32_t gro_pseudo_sum_at(const uint8_t *hdr, unsigned l3, unsigned l3_off,
                                                           uint32_t l4_len, unsigned proto)
{
	const uint8_t *ip = hdr + l3_off;
	uint64_t a, s;
	unsigned i;
	/* protocol and 32-bit length: a big-endian 16-bit word v read in
	 * memory order is v's bytes swapped, and that is v * 256 modulo
	 * 0xffff (256 * 256 = 65536, 1 modulo 0xffff), so on a little-endian
	 * host (len + proto) << 8 stands for the two big-endian words, no byte
	 * swap (the length's two 16-bit halves likewise, 65536 being 1) */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	s = ((uint64_t)l4_len + proto) << 8;
#else
	{
		/* (any host: the two big-endian words themselves) */
		uint8_t tail[8];
		ofl_put32(tail, l4_len);
		ofl_put32(tail + 4, proto);
		memcpy(&a, tail, 8);
		s = (a >> 32) + (uint32_t)a;
	}
#endif
	/* the addresses: 64-bit words in memory order, each as its two
	 * 32-bit halves (IPv6: one word loaded at a time; a copy of all four
	 * into an array went through the stack, GCC's vector form) */
	if (l3 == 4) {
		memcpy(&a, ip + 12, 8);
		s += (a >> 32) + (uint32_t)a;
	} else {
		for (i = 0; i < 4; i++) {
			memcpy(&a, ip + 8 + 8 * i, 8);
			s += (a >> 32) + (uint32_t)a;
		}
	}
	/* to 32 bits with the end-around carry in one step: s plus s rotated
	 * by 32 has the halves' sum, carry added, in its upper half.  Never 0
	 * (proto is not), so the folded value is the one the plain sum folds
	 * to, 0xffff included. */
	return (uint32_t)((s + (s << 32 | s >> 32)) >> 32);
}

/* TCP (or UDP: the parse's l4proto) checksum of a received packet: 1 valid,
 * 0 bad (tcp.c). */
int gro_tcp_csum_ok(const struct ofl_pkt *pkt, int csum_status, const struct ofl_view *v,
                    const struct ofl_hdrs *h);
/* The same sum from h->l4_off to the end of the IP packet with seed added
 * (a pseudo-header sum, or 0: GRE), csum_status NONE or COMPLETE: 1 when it
 * folds to a right checksum (tcp.c). */
int gro_l4_sum_ok(const struct ofl_pkt *pkt, int csum_status, const struct ofl_view *v, const struct ofl_hdrs *h,
                  uint32_t seed);

#endif
