/*
 * gso.h - software GSO/TSO: cut one super-packet (TCP over IPv4/IPv6, UDP)
 * into wire-size segments just before the TX ring, without allocating and
 * without copying payload.  The rules are the Linux kernel's
 * (net/ipv4/tcp_offload.c tcp_gso_segment, af_inet.c inet_gso_segment,
 * udp_offload.c __udp_gso_segment and the UFO path, ip6_offload.c); the shape
 * is net/core/tso.c's: start, next segment, abort, with the whole state in a
 * small struct on the caller's stack.
 *
 * Every segment is one header buffer (a slot of a caller-owned pool: the
 * headers are copied there and rewritten) plus payload slices that point
 * into the super-packet's own buffers.  A driver posts one descriptor for the
 * header and one per slice:
 *
 *     struct ofl_gso_iter it;            // on the stack, no allocation
 *     struct ofl_gso_seg seg;
 *     struct ofl_gso_counts cnt;
 *     if (ofl_gso_start(&it, &req, bufs, nbufs) < 0) drop;   // nothing emitted
 *     ofl_gso_count(&it, &cnt, sizeof cnt); // ring space, like tso_count_descs
 *     while (ring_room() >= ofl_gso_next_descs(&it) &&   // this segment's descriptors
 *            (rc = ofl_gso_next(&it, &pool, &seg)) == 1)
 *         post(seg.hdr, seg.slices, seg.nslices);
 *     // rc == OFL_EAGAIN (pool empty) or the ring was full: call next()
 *     // again later with the same `it`; rc == 0: every segment was emitted.
 *
 * or many segments per call with ofl_gso_next_burst() (the cheaper way for
 * a driver that posts 32 or 64 descriptors at once), or, with a callback per
 * segment, ofl_gso_run().  The cheapest header pool is a RING
 * (ofl_gso_pool_init_ring()): slots in ring order, given back by count
 * with ofl_gso_pool_put_oldest() as the TX ring completes:
 *
 *     while ((r = ofl_gso_next_burst(&it, &pool, segs, 64)) > 0) {
 *         post(segs, r);
 *         if (segs[r - 1].flags & OFL_GSO_SEG_F_LAST) break;  // packet done
 *     }
 *     ...
 *     ofl_gso_pool_put_oldest(&pool, segments_completed);  // TX completion  Stopping and resuming
 * never loses or repeats a segment; a segment handed out and then not
 * posted can be given back with ofl_gso_unnext().
 *
 * What each segment carries (the kernel's rules, checked byte for byte
 * against Linux 6.18 in tests/fixtures/gso/): the input's headers with
 *   - TCP: sequence number + the payload before it; FIN and PSH only on the
 *     last segment, CWR only on the first (OFL_GSO_F_KEEP_CWR: on all);
 *   - UDP L4: a UDP length of its own payload, every segment a datagram;
 *   - UDP fragmentation: IPv4 offset/MF with the same ID and DF cleared, or
 *     an IPv6 fragment header; the UDP header (checksum over the whole
 *     datagram) only in the first fragment; IPv4 options go into every
 *     fragment;
 *   - IPv4 total length, ID + segment number (OFL_GSO_F_FIXED_ID: the
 *     input's) and header checksum; IPv6 payload length (an IPv6 hop-by-hop
 *     Jumbo option of a BIG TCP input is left out);
 *   - the L4 checksum complete, or the pseudo-header sum for the NIC.
 * A VLAN tag that the NIC would insert (a TCI in packet metadata, not in
 * the frame) is written into every segment's header when the request asks
 * (OFL_GSO_F_VLAN_INSERT: a NIC without VLAN insertion); otherwise the
 * caller puts it in each TX descriptor.
 *
 * Lifetimes: the iterator copies the headers at start; the payload buffers
 * (and, for ofl_gso_start_gro(), the out->slices array) must stay valid and
 * unchanged until the last segment that uses them has been sent (see
 * ofl_gso_seg.release_first/release_count).  Header slots belong to the
 * caller between next() and the caller's ofl_gso_pool_put() (after TX
 * completion).  Nothing here keeps global state; distinct iterators and
 * pools may be used from distinct threads, one object per thread.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_GSO_H
#define OFL_GSO_H

#include "ofl.h"
#include "pkt.h"
#include "dsa.h"
#include "csum.h"    /* enum ofl_csum_mode */
#include "gro_out.h" /* struct ofl_gro_out (ofl_gso_start_gro()); no GRO code */
#include "vnet.h"    /* struct ofl_virtio_net_hdr */

#ifdef __cplusplus
extern "C" {
#endif

/** Longest header (L2 + VLANs + L3 + extension headers + L4, plus
 *  extra_l2_len and an IPv6 fragment header) a segment can carry. */
#define OFL_GSO_MAX_HDR 320u
/** Longest input header the parser looks at (as GRO). */
#define OFL_GSO_MAX_IN_HDR 256u
/** Most payload slices one segment may need; a request whose segments would
 *  need more (tiny input buffers) is refused with OFL_E2BIG at start. */
#define OFL_GSO_SEG_MAX_SLICES 32u
/** Kernel UDP_MAX_SEGMENTS, the default segment limit of UDP_L4: 128 as in
 *  current kernels (Linux 6.18 accepts 128 segments and refuses 129 with
 *  EINVAL, tests/fixtures/gso/udp4_l4_max); older kernels had 1 << 6 = 64
 *  (set ofl_gso_req.max_segs = 64 to match one). */
#define OFL_GSO_UDP_MAX_SEGS 128u
/** Default segment limit of the other types (gso_segs is 16 bits). */
#define OFL_GSO_MAX_SEGS 65535u

/* ------------------------------------------------------------------------ */
/* Header buffer pools (caller-owned memory; the pool struct is the caller's,
 * initialised by one of the init functions; its fields are private).       */

/** One header slot handed out with a segment. */
struct ofl_gso_hbuf {
	uint8_t *data;    /**< slot start; the segment's headers are written here */
	uint32_t size;    /**< slot capacity in bytes */
	uint32_t index;   /**< BLOCK/ARRAY/RING: slot number; FREELIST: 0 */
	uint64_t offset;  /**< BLOCK, RING: byte offset of the slot from the block start
	                       (bus address = the block's DMA base + offset);
	                       ARRAY and FREELIST: the value the caller gave */
	void *cookie;     /**< FREELIST: the caller's handle; others NULL */
};

/** The kinds of header pool. */
enum ofl_gso_pool_kind {
	OFL_GSO_POOL_BLOCK = 1,    /**< one contiguous block cut into fixed slots */
	OFL_GSO_POOL_FREELIST = 2, /**< caller's get/put callbacks */
	OFL_GSO_POOL_ARRAY = 3,    /**< the caller's array of slots, used in ring order */
	OFL_GSO_POOL_RING = 4,     /**< one contiguous block cut into fixed slots, used
	                                in ring order (ofl_gso_pool_init_ring()) */
};

/**
 * FREELIST get: fill *hb (data, size >= the pool's slot size, offset and
 * cookie as the caller likes) and return 0, or return non-zero when no
 * buffer is free (the segment is then not built: OFL_EAGAIN).
 */
typedef int (*ofl_gso_get_fn)(void *user, struct ofl_gso_hbuf *hb);
/** FREELIST put: take back a buffer the get callback handed out. */
typedef void (*ofl_gso_put_fn)(void *user, const struct ofl_gso_hbuf *hb);

/** A header pool (see the init functions).  Fields are private. */
struct ofl_gso_pool {
	/** @cond OFL_INTERNAL */
	/* private: use the functions below */
	uint32_t kind;       /* enum ofl_gso_pool_kind, 0 = not initialised */
	uint32_t slot_size;
	uint32_t nslots;     /* BLOCK, ARRAY */
	uint32_t nfree;      /* BLOCK, ARRAY */
	uint32_t head;       /* BLOCK: first free slot (free list through the
	                        slots' first 4 bytes); ARRAY: next slot */
	uint8_t *base;       /* BLOCK */
	const struct ofl_gso_hbuf *slots; /* ARRAY */
	ofl_gso_get_fn get;  /* FREELIST */
	ofl_gso_put_fn put;
	void *user;
	uint32_t seeked;     /* ARRAY: the caller moved the cursor with slots in use */
	/** @endcond */
};

/**
 * BLOCK pool: cut [base, base + size) into size / slot_size slots of
 * slot_size bytes (slot i at offset i * slot_size; align base and slot_size
 * as the device needs).  Free slots are chained through their first 4 bytes,
 * so the block needs no side table.  Slots are handed out lowest first at
 * start and then in LIFO order of ofl_gso_pool_put().
 * Returns 0, or OFL_EINVAL (NULL, slot_size < 64, no whole slot, more than
 * 2^31 slots).
 */
OFL_API int ofl_gso_pool_init_block(struct ofl_gso_pool *pool, void *base, size_t size,
                                    uint32_t slot_size);

/**
 * FREELIST pool: every slot comes from get() and goes back through
 * ofl_gso_pool_put() -> put().  slot_size is the size get() guarantees (the
 * request is checked against it before anything is emitted).
 * Returns 0, or OFL_EINVAL (NULL pool or callback, slot_size < 64).
 */
OFL_API int ofl_gso_pool_init_freelist(struct ofl_gso_pool *pool, uint32_t slot_size,
                                       ofl_gso_get_fn get, ofl_gso_put_fn put, void *user);

/**
 * ARRAY pool: the caller's n slots (e.g. a TX ring's header area, one slot
 * per descriptor), handed out in ring order starting at slot 0 (move the
 * cursor with ofl_gso_pool_seek()) and given back in the same order.  The
 * array is not copied and must outlive the pool; the slot size is the
 * smallest slots[i].size.  index and offset of each handed-out slot are
 * slots[i].index (set to i by the pool) and slots[i].offset.
 * Returns 0, or OFL_EINVAL (NULL, n 0, a NULL slot, smallest size < 64).
 */
OFL_API int ofl_gso_pool_init_array(struct ofl_gso_pool *pool, const struct ofl_gso_hbuf *slots,
                                    uint32_t n);

/**
 * RING pool: cut [base, base + size) into size / slot_size slots of
 * slot_size bytes (slot i at offset i * slot_size, as BLOCK), handed out in
 * ring order starting at slot 0 (0, 1, ..., the last, 0 again) and given
 * back in the same order, the oldest first, as a TX ring completes: by
 * ofl_gso_pool_put_oldest() (the n oldest at once, no slot record needed)
 * or ofl_gso_pool_put() of the oldest slot in use (ofl_gso_pool_put() of
 * the newest takes it back: it is handed out again next, what
 * ofl_gso_unnext() does).  The way a driver that completes its TX ring in
 * order keeps header slots: nothing is written into a free slot, and the
 * burst of ofl_gso_next_burst() takes consecutive slots (the cheapest
 * pool to segment from).  index and offset of each handed-out slot are
 * its number and i * slot_size; cookie NULL.  The block is the caller's
 * and must outlive the pool.
 * Returns 0, or OFL_EINVAL (NULL, slot_size < 64, no whole slot, more than
 * 2^31 slots).
 */
OFL_API int ofl_gso_pool_init_ring(struct ofl_gso_pool *pool, void *base, size_t size, uint32_t slot_size);

/**
 * ARRAY pool: the next slot handed out is slots[index] (a driver keeping
 * header slot = descriptor index calls this with its put index before each
 * segment).  A seek while slots are in use makes the caller's ring the judge
 * of the order slots come back in: ofl_gso_pool_put() then only counts.
 * Returns 0, or OFL_EINVAL (not an ARRAY pool, index >= n).
 */
OFL_API int ofl_gso_pool_seek(struct ofl_gso_pool *pool, uint32_t index);

/**
 * Take one slot (ofl_gso_next() calls this).  Returns 0 and *hb, OFL_EAGAIN
 * when the pool is empty, OFL_EINVAL (NULL, pool not initialised).
 */
OFL_API int ofl_gso_pool_get(struct ofl_gso_pool *pool, struct ofl_gso_hbuf *hb);

/**
 * Give a slot back (after the NIC sent the segment, or after
 * ofl_gso_unnext()).  ARRAY and RING slots must come back in the order
 * they were handed out (the oldest first, as a TX ring completes), except
 * that the newest may be taken back (what ofl_gso_unnext() does; it is then
 * handed out again next).  With a single ARRAY or RING slot in use a put
 * means "sent" (ofl_gso_unnext() takes a slot back itself, so it is handed
 * out again).  Returns 0, or OFL_EINVAL (NULL, a slot that is not this
 * pool's, BLOCK/ARRAY/RING: more puts than gets, ARRAY/RING: neither the
 * oldest nor the newest slot in use).
 */
OFL_API int ofl_gso_pool_put(struct ofl_gso_pool *pool, const struct ofl_gso_hbuf *hb);

/**
 * Give n slots back at once (the TX completion of a burst): the same as
 * ofl_gso_pool_put() of hbs[0], hbs[1], ... in that order, stopping at the
 * first that fails; a BLOCK pool does it in one loop.  hbs is the caller's
 * array, read during the call only.  Returns the number of slots given back
 * (n when every one was; fewer: hbs[return value] was refused with
 * OFL_EINVAL and it and the ones after it were not put), or OFL_EINVAL for
 * a NULL pool or a NULL hbs with n > 0.
 */
OFL_API int ofl_gso_pool_put_burst(struct ofl_gso_pool *pool, const struct ofl_gso_hbuf *hbs, unsigned n);

/**
 * Give back the n oldest slots in use of a pool that hands slots out in ring
 * order (RING, ARRAY): the TX completion of n segments, one call however
 * many, without their slot records.  The same as ofl_gso_pool_put() of each
 * of them, oldest first; after an ofl_gso_pool_seek() with slots in use (an
 * ARRAY pool), the same as n puts that only count.  n 0 does nothing.
 * Returns 0 (all n given back), or OFL_EINVAL with nothing given back: a
 * NULL pool, a BLOCK or FREELIST pool (no order to go by: use
 * ofl_gso_pool_put_burst()), or n more than the slots in use.
 */
OFL_API int ofl_gso_pool_put_oldest(struct ofl_gso_pool *pool, uint32_t n);

/** Free slots now (BLOCK, ARRAY, RING); UINT32_MAX for FREELIST (unknown); 0 for NULL. */
OFL_API uint32_t ofl_gso_pool_avail(const struct ofl_gso_pool *pool);

/** Slot size of the pool (0 for NULL or not initialised). */
OFL_API uint32_t ofl_gso_pool_slot_size(const struct ofl_gso_pool *pool);

/* ------------------------------------------------------------------------ */
/* Requests                                                                  */

/** What to cut a super-packet into. */
enum ofl_gso_type {
	OFL_GSO_TYPE_AUTO = 0,     /**< TCP -> TCP, UDP -> UDP_FRAG (a datagram's
	                                meaning is kept; UDP_L4 must be asked for);
	                                UDP to a tunnel port (4789, 4790, 6081, 8472)
	                                and IP-in-IP/GRE are refused (OFL_ENOTSUP) */
	OFL_GSO_TYPE_TCP = 1,      /**< TSO over IPv4 or IPv6 */
	OFL_GSO_TYPE_UDP_L4 = 2,   /**< UDP_SEGMENT: datagrams of seg_size bytes */
	OFL_GSO_TYPE_UDP_FRAG = 3, /**< old UFO: IP fragments of one datagram */
};

/* ofl_gso_req.flags */
#define OFL_GSO_F_FIXED_ID 0x0001u /**< IPv4: every segment keeps the input's ID
                                        (SKB_GSO_TCP_FIXEDID); default: ID + i */
#define OFL_GSO_F_KEEP_CWR 0x0002u /**< TCP: leave CWR on every segment
                                        (SKB_GSO_TCP_ACCECN); default: CWR only
                                        on the first segment */
#define OFL_GSO_F_VLAN_INSERT 0x0004u /**< write the tag of vlan_tci/vlan_proto
                                        into every segment (request version >= 2):
                                        what Linux does for a frame whose tag is
                                        in metadata (skb_vlan_tag_present) when
                                        the NIC cannot insert it
                                        (validate_xmit_vlan -> __vlan_hwaccel_push_inside,
                                        before segmentation): a 4-byte 802.1Q header
                                        right after the source MAC, outside any tag
                                        already in the frame */
#define OFL_GSO_F_OUTER_FIXED_ID 0x0008u /**< tunnel (request version >= 4): every
                                        segment keeps the outer IPv4 header's ID
                                        (Linux SKB_GSO_TCP_FIXEDID, which for an
                                        encapsulated packet names the outer header);
                                        default: outer ID + i.  OFL_GSO_F_FIXED_ID
                                        names the inner (TCP) packet's header
                                        (Linux SKB_GSO_TCP_FIXEDID_INNER) */

/** Tunnel of a request (ofl_gso_req.tunnel, version >= 4): the super-packet is
 *  outer headers + tunnel header + an inner TCP super-packet; each segment
 *  carries both header sets (Linux SKB_GSO_UDP_TUNNEL(_CSUM), SKB_GSO_GRE(_CSUM),
 *  SKB_GSO_IPXIP4/6).  The inner packet is TCP over IPv4 or IPv6 (type AUTO or
 *  TCP); outer IPv4 (options allowed, not a fragment) or IPv6 (no extension
 *  headers), outer Ethernet with up to two VLAN tags or none (l2 OFL_L2_NONE);
 *  an inner Ethernet header may carry up to two VLAN tags.  One tunnel level:
 *  an inner packet that is itself a tunnel is refused. */
enum ofl_gso_tunnel {
	OFL_GSO_TUN_NONE = 0,   /**< no tunnel (default): the packet is cut as TCP/UDP */
	OFL_GSO_TUN_VXLAN = 1,  /**< outer UDP, 8-byte VXLAN header (I flag set, not
	                             VXLAN-GPE), inner Ethernet; any UDP port */
	OFL_GSO_TUN_GENEVE = 2, /**< outer UDP, Geneve version 0 with its options
	                             (kept byte for byte), protocol 0x6558 (inner
	                             Ethernet) or 0x0800/0x86dd (inner IP) */
	OFL_GSO_TUN_GRE = 3,    /**< outer IP protocol 47, GRE version 0 with the
	                             checksum (C: computed per segment, GRE_CSUM) and
	                             key (K) fields allowed; no routing, no sequence
	                             number; protocol 0x6558 (inner Ethernet) or
	                             0x0800/0x86dd (inner IP) */
	OFL_GSO_TUN_IPIP = 4,   /**< IP in IP: outer protocol 4 (inner IPv4) or 41
	                             (inner IPv6), outer IPv4 or IPv6 (4in4, 6in4,
	                             4in6, 6in6: SKB_GSO_IPXIP4/6) */
	OFL_GSO_TUN_UDP = 5,    /**< any UDP tunnel whose inner IP header starts at
	                             ofl_gso_req.inner_off (required; the bytes between
	                             the UDP header and it are copied as they are), as
	                             a virtio_net_hdr with a UDP tunnel GSO type says */
};

/** Outer checksum of a UDP tunnel (ofl_gso_req.tun_csum). */
enum ofl_gso_tun_csum {
	OFL_GSO_TUN_CSUM_AUTO = 0, /**< as the super-packet says: computed when its outer
	                                UDP checksum field is not 0, else 0 (GRE: the C
	                                bit decides; IP-in-IP has none) */
	OFL_GSO_TUN_CSUM_ZERO = 1, /**< outer UDP checksum 0 (SKB_GSO_UDP_TUNNEL) */
	OFL_GSO_TUN_CSUM_ON = 2,   /**< outer UDP checksum computed for every segment
	                                (SKB_GSO_UDP_TUNNEL_CSUM) */
};

/**
 * Extra L2 bytes hook (for a DSA tag codec, later): called once per segment
 * with the header slot after the headers were written; hdr + extra_l2_off is
 * where extra_l2_len bytes were left (zeroed) for it.  seg_index counts from
 * 0.  Return 0, or non-zero to refuse the segment (ofl_gso_next() then gives
 * the slot back and returns OFL_EBADMSG, the position unchanged).
 */
typedef int (*ofl_gso_l2_fn)(void *user, uint8_t *hdr, uint32_t hdr_len, uint32_t seg_index);

/** Version of struct ofl_gso_req this header describes (fields only
 *  appended).  Requests of versions 1 (without vlan_tci and vlan_proto),
 *  2 (without l2) and 3 (without tunnel, tun_csum and inner_off) are still
 *  taken: only the fields of their version are read, the later ones count as
 *  their defaults. */
#define OFL_GSO_REQ_VERSION 4

/** What to do with one super-packet.  Fill with ofl_gso_req_default() first. */
struct ofl_gso_req {
	uint32_t version;   /**< OFL_GSO_REQ_VERSION (set by the default function) */
	uint8_t type;       /**< enum ofl_gso_type; default AUTO */
	uint8_t csum;       /**< enum ofl_csum_mode: FULL (default) writes every L4
	                         checksum in software; PARTIAL leaves the pseudo-header
	                         sum in the field and reports csum_start/csum_offset
	                         for the NIC (Linux CHECKSUM_PARTIAL).  The IPv4
	                         header checksum is always written.  UDP_FRAG always
	                         gets a full UDP checksum (a NIC cannot finish one
	                         over fragments). */
	uint16_t flags;     /**< OFL_GSO_F_* ; default 0 */
	uint32_t seg_size;  /**< TCP: MSS; UDP_L4: UDP payload per datagram;
	                         UDP_FRAG: fragmentable bytes per fragment (IPv4: IP
	                         payload, IPv6: after the fragment header), a multiple
	                         of 8.  Required (default 0 is refused). */
	uint32_t max_segs;  /**< refuse (OFL_E2BIG) a packet needing more segments;
	                         0 = default: OFL_GSO_UDP_MAX_SEGS for UDP_L4,
	                         OFL_GSO_MAX_SEGS otherwise */
	uint32_t ip6_frag_id; /**< UDP_FRAG over IPv6: fragment header identification
	                         (choose a fresh one per datagram); default 0 */
	uint16_t extra_l2_len; /**< bytes to leave in every header at extra_l2_off
	                         (a DSA tag); default 0 */
	uint16_t extra_l2_off; /**< offset in the L2 header (<= the L2 length:
	                         12 = after the source MAC, 0 = before the DA;
	                         with OFL_GSO_F_VLAN_INSERT counted in the L2
	                         header that has the tag, so 12 puts the bytes
	                         before it) */
	ofl_gso_l2_fn l2_fill; /**< fills those bytes; NULL leaves them zero */
	void *l2_user;      /**< passed to l2_fill */
	/* version 2 */
	uint16_t vlan_tci;  /**< with OFL_GSO_F_VLAN_INSERT: the TCI (PCP, DEI, VID)
	                         the frame's metadata holds; default 0 */
	uint16_t vlan_proto; /**< with OFL_GSO_F_VLAN_INSERT: its TPID, 0x8100
	                         (802.1Q) or 0x88a8 (802.1ad); 0 = 0x8100 */
	/* version 3 */
	uint8_t l2;         /**< enum ofl_l2 (pkt.h): what the packet starts with.
	                         OFL_L2_ETH (default): an Ethernet frame.
	                         OFL_L2_NONE: an IP packet, IPv4 or IPv6 by its
	                         first nibble (a TUN device, a VPN, raw-IP GRO
	                         output); its segments start at the IP header too
	                         (ofl_gso_seg.l3_off 0).  OFL_GSO_F_VLAN_INSERT
	                         is refused with it; extra_l2_len bytes (with
	                         extra_l2_off 0) go before the IP header.
	                         ofl_gso_start_vnet() takes its l2 argument
	                         instead; ofl_gso_start_gro() reads it only for
	                         a NORMAL packet (see there). */
	/* version 4 */
	uint8_t tunnel;     /**< enum ofl_gso_tunnel; default OFL_GSO_TUN_NONE.
	                         With a tunnel every segment is: the outer headers
	                         (IPv4 total length, ID + i unless
	                         OFL_GSO_F_OUTER_FIXED_ID, header checksum; IPv6
	                         payload length; UDP length and checksum as tun_csum
	                         says; the GRE checksum when the C bit is set), the
	                         tunnel header and inner L2 as they are, then the
	                         inner IP and TCP headers by the rules of plain TCP.
	                         In PARTIAL mode only the inner TCP checksum is left
	                         to the NIC (csum_start/offset and the segment's
	                         l3_off/l4_off point at the inner headers); the outer
	                         UDP and GRE checksums are always computed in
	                         software (what Linux does for a segment whose inner
	                         checksum is offloaded: gso_make_checksum() from the
	                         inner pseudo-header sum, no payload pass). */
	uint8_t tun_csum;   /**< enum ofl_gso_tun_csum (UDP tunnels only; GRE and
	                         IP-in-IP take AUTO only); default AUTO */
	uint16_t inner_off; /**< offset of the inner IP header in the frame (l2
	                         OFL_L2_NONE: in the packet), Linux's
	                         inner_network_header; 0 = found from the headers
	                         (required for OFL_GSO_TUN_UDP, where it must be even
	                         and at least 8 bytes after the outer UDP header;
	                         given for another tunnel, it must be where the
	                         headers put the inner IP header); default 0 */
};

/** Fill req with the defaults listed above.  Returns 0, or OFL_EINVAL for NULL. */
OFL_API int ofl_gso_req_default(struct ofl_gso_req *req);

/* ------------------------------------------------------------------------ */
/* Segments                                                                  */

/* ofl_gso_seg.flags */
#define OFL_GSO_SEG_F_FIRST 0x01u /**< the first segment of the super-packet */
#define OFL_GSO_SEG_F_LAST 0x02u  /**< the last one */
#define OFL_GSO_SEG_F_CSUM_PARTIAL 0x04u /**< L4 checksum left to the NIC:
    fold from csum_start to the end into csum_start + csum_offset */

/** One segment.  Filled by ofl_gso_next(); the caller's memory. */
struct ofl_gso_seg {
	struct ofl_gso_hbuf hdr;  /**< the header slot, holding hdr_len bytes */
	uint32_t hdr_len;         /**< header bytes written in the slot */
	uint32_t payload_len;     /**< sum of the slices' lengths */
	uint32_t len;             /**< hdr_len + payload_len: the frame length */
	uint32_t index;           /**< segment number, from 0 */
	uint32_t nsegs;           /**< segments of the super-packet */
	uint16_t l3_off;          /**< IP header offset in the header */
	uint16_t l4_off;          /**< L4 header offset (0 for a non-first UDP_FRAG
	                               fragment: it has no UDP header) */
	uint16_t csum_start;      /**< with OFL_GSO_SEG_F_CSUM_PARTIAL: sum from here */
	uint16_t csum_offset;     /**< ... and store at csum_start + csum_offset */
	uint16_t flags;           /**< OFL_GSO_SEG_F_* */
	uint16_t release_first;   /**< input buffers [release_first, +release_count): */
	uint16_t release_count;   /**< the ones no later segment uses that no earlier
	    segment's range holds.  Every input buffer is in exactly one segment's
	    range, that of the first segment after which no segment uses it: a
	    buffer of header bytes only (copied at start) in segment 0's, a buffer
	    of payload in that of the segment with its last byte, an empty buffer
	    in the range of the buffer before it (segment 0's if it is the first),
	    buffers after the payload in the last segment's.  The ranges follow
	    one another (segment k's starts where k - 1's ends; segment 0's at 0;
	    the last one's ends at the input's last buffer).  Once this segment and
	    the ones before it are sent (TX complete), those buffers may be
	    released, not before.  The ranges depend on the input and the request
	    only: the same for every pool kind and for ofl_gso_next(),
	    ofl_gso_next_burst(), ofl_gso_run() and a segment built again after
	    ofl_gso_unnext(). */
	uint32_t nslices;         /**< entries in slices */
	struct ofl_slice slices[OFL_GSO_SEG_MAX_SLICES]; /**< payload, in order; .buf is
	    the input buffer index (ofl_gso_start_gro(): .pkt/.buf are those of the GRO
	    slice, i.e. the original received segment and buffer) */
};

/** Size of struct ofl_gso_iter in bytes: fixed for the ABI (the state
 *  inside is the library's and may change with any release). */
#define OFL_GSO_ITER_SIZE 1024u

/**
 * Iterator state: a plain value on the caller's stack (OFL_GSO_ITER_SIZE
 * bytes, 8-byte aligned), set up by ofl_gso_start*() and used by the other
 * ofl_gso_* functions that take it.  Its bytes are the library's: do not
 * read or write them (a plain copy is a second iterator at the same
 * position, over the same input).  It holds a copy of the headers, so the input's header bytes may change
 * after start; the payload may not.  ofl_gso_count() and ofl_gso_why() are
 * the ways to look inside.
 */
struct ofl_gso_iter {
	/** private: the library's state, not part of the API */
	union {
		uint64_t u64[OFL_GSO_ITER_SIZE / 8u];
		void *ptr;
	} opaque;
};

/**
 * Why the last ofl_gso_start*() on an iterator refused its packet: each
 * refusal names one rule (ofl_gso_why(), ofl_gso_why_str()).  The error code
 * each goes with is in brackets.  Stable values, only appended.
 */
enum ofl_gso_why {
	OFL_GSO_WHY_NONE = 0,      /**< started (or never started) */
	OFL_GSO_WHY_ARG = 1,       /**< [EINVAL] NULL, no buffer, a NULL buffer with a length */
	OFL_GSO_WHY_REQ = 2,       /**< [EINVAL] req version, type, csum or flags unknown */
	OFL_GSO_WHY_SEG_SIZE = 3,  /**< [EINVAL] seg_size 0, or more than one IP packet
	                                of these headers can carry */
	OFL_GSO_WHY_FRAG_SIZE = 4, /**< [EINVAL] UDP_FRAG seg_size not a multiple of 8,
	                                under 16 or over an IP packet's payload */
	OFL_GSO_WHY_EXTRA_L2 = 5,  /**< [EINVAL] extra_l2_len over 32 or extra_l2_off
	                                beyond the L2 header */
	OFL_GSO_WHY_VLAN_NO_L2 = 6, /**< [EINVAL] OFL_GSO_F_VLAN_INSERT on a packet
	                                without Ethernet header (TUN input) */
	OFL_GSO_WHY_FRAME_LONG = 7, /**< [E2BIG] frame over 16 MiB */
	OFL_GSO_WHY_SEGS = 8,      /**< [E2BIG] more segments than max_segs */
	OFL_GSO_WHY_SLICES = 9,    /**< [E2BIG] a segment would need more than
	                                OFL_GSO_SEG_MAX_SLICES slices */
	OFL_GSO_WHY_UDP_LONG = 10, /**< [E2BIG] a UDP datagram whose length its
	                                headers cannot hold: over 65,535 bytes of UDP
	                                (the UDP length field), or over 65,535 bytes
	                                with its IPv4 header (no jumbograms in IPv4;
	                                BIG TCP is TCP only).  Linux never builds one:
	                                the send fails with EMSGSIZE
	                                (tools/testing/selftests/net/udpgso.c) */
	OFL_GSO_WHY_NOT_IP = 11,   /**< [EPROTO] not Ethernet + IPv4/IPv6 + TCP/UDP */
	OFL_GSO_WHY_TYPE = 12,     /**< [EPROTO] the L4 protocol is not the requested type's */
	OFL_GSO_WHY_TCP_HDR = 13,  /**< [EPROTO] TCP header length wrong or cut */
	OFL_GSO_WHY_UDP_HDR = 14,  /**< [EPROTO] UDP header cut */
	OFL_GSO_WHY_LENGTHS = 15,  /**< [EBADMSG] the frame is shorter than the IP length
	                                says, or longer without being padding */
	OFL_GSO_WHY_UDP_LEN = 16,  /**< [EBADMSG] UDP length disagrees with the IP length */
	OFL_GSO_WHY_JUMBO = 17,    /**< [EBADMSG] IPv6 Jumbo option disagrees with the frame */
	OFL_GSO_WHY_VLANS = 18,    /**< [ENOTSUP] three or more VLAN tags in the frame */
	OFL_GSO_WHY_HDR_LONG = 19, /**< [ENOTSUP] headers longer than OFL_GSO_MAX_IN_HDR */
	OFL_GSO_WHY_FRAGMENT = 20, /**< [ENOTSUP] already an IP fragment */
	OFL_GSO_WHY_IP6_EXT = 21,  /**< [ENOTSUP] IPsec or unknown IPv6 extension header */
	OFL_GSO_WHY_ROUTING = 22,  /**< [ENOTSUP] IPv6 routing header (it changes the
	                                pseudo header) */
	OFL_GSO_WHY_FRAG_EXT = 23, /**< [ENOTSUP] IPv6 extension headers with UDP_FRAG */
	OFL_GSO_WHY_TUNNEL = 24,   /**< [ENOTSUP] a tunnel: IP-in-IP, GRE, or UDP to a
	                                VXLAN/GENEVE port with AUTO */
	OFL_GSO_WHY_VNET_NONE = 25, /**< [ENOTSUP] virtio_net_hdr asks for no GSO
	                                (or has unknown gso_type bits) */
	OFL_GSO_WHY_VNET_SHORT = 26, /**< [EPROTO] shorter than its virtio_net_hdr */
	OFL_GSO_WHY_VNET_TYPE = 27, /**< [EPROTO] virtio gso_type disagrees with the
	                                headers, or gso_size 0 */
	OFL_GSO_WHY_VNET_CSUM = 28, /**< [EPROTO] virtio csum_start/csum_offset do not
	                                point at the L4 checksum */
	OFL_GSO_WHY_TUN_REQ = 29,  /**< [EINVAL] tunnel request not understood: unknown
	                                tunnel or tun_csum, tun_csum other than AUTO
	                                for GRE or IP-in-IP, OFL_GSO_TUN_UDP without
	                                inner_off or with an odd one,
	                                OFL_GSO_F_OUTER_FIXED_ID without a tunnel, a
	                                type other than AUTO or TCP */
	OFL_GSO_WHY_TUN_HDR = 30,  /**< [EPROTO] the outer or tunnel headers are not the
	                                requested tunnel's, or are cut: outer IP
	                                protocol or UDP/GRE header wrong for it, VXLAN
	                                without its I flag or VXLAN-GPE, Geneve
	                                version not 0 or options past the packet, GRE
	                                version, routing or sequence number, tunnel
	                                payload type not Ethernet/IPv4/IPv6, outer
	                                IPv6 extension headers, headers longer than
	                                OFL_GSO_MAX_IN_HDR */
	OFL_GSO_WHY_TUN_INNER = 31, /**< [EPROTO] inner_off not where the headers put
	                                the inner IP header, or the inner packet is
	                                not TCP over IPv4/IPv6 (inner UDP, a nested
	                                tunnel, an inner IP version that is not the
	                                one its Ethernet type or outer protocol says) */
	OFL_GSO_WHY_TUN_LENGTHS = 32, /**< [EBADMSG] outer IP or UDP length disagrees
	                                with the frame (0 means "to the end", BIG TCP) */
	OFL_GSO_WHY_VNET_TUNNEL = 33, /**< [ENOTSUP] virtio: GRE and IP-in-IP have no
	                                virtio_net_hdr form; a UDP tunnel GSO type
	                                needs the 24-byte header (vnet_hdr_len 24) and
	                                a request tunnel of AUTO-detected kind
	                                (VXLAN, GENEVE, UDP or none) */
};

/**
 * The reason (enum ofl_gso_why) of the last ofl_gso_start*() on it:
 * OFL_GSO_WHY_NONE after a successful start; 0 for NULL.
 */
OFL_API int ofl_gso_why(const struct ofl_gso_iter *it);

/** One line naming a reason (enum ofl_gso_why); never NULL ("unknown
 *  reason" for a value not listed). */
OFL_API const char *ofl_gso_why_str(int why);

/**
 * Start segmenting one Ethernet frame (destination MAC first, up to two
 * 802.1Q/802.1ad tags), or with req->l2 = OFL_L2_NONE one IP packet, held
 * in nbufs caller buffers.  Parses and checks
 * everything, copies the headers into it, and emits nothing.
 * IPv4 total length 0 / IPv6 payload length 0 (Linux BIG TCP, also an IPv6
 * hop-by-hop Jumbo option, which segments do not carry) mean "to the end of
 * the frame".  A payload that fits one segment gives one segment.
 * bufs must stay valid until the last segment is sent; it is not copied.
 * Returns 0, or (nothing emitted in every case):
 *   OFL_EINVAL   NULL, nbufs 0, a NULL buffer with a length, a bad req
 *                (version, type, csum, l2), seg_size 0, seg_size larger than one
 *                IP packet can carry, UDP_FRAG seg_size not a multiple of 8 or
 *                smaller than 16, extra_l2_off beyond the L2 header,
 *                OFL_GSO_F_VLAN_INSERT without an Ethernet header (l2
 *                OFL_L2_NONE), a tunnel request not understood
 *                (OFL_GSO_WHY_TUN_REQ), extra_l2_off past the outer L2
 *                header of a tunnel;
 *   OFL_EPROTO   the headers do not parse as Ethernet/IP/TCP or UDP (l2
 *                OFL_L2_NONE: IP/TCP or UDP), or not as the requested type;
 *                with req->tunnel: outer or tunnel headers not that tunnel's
 *                or cut (OFL_GSO_WHY_TUN_HDR), the inner packet not TCP
 *                over IP where it was expected (OFL_GSO_WHY_TUN_INNER);
 *   OFL_EBADMSG  the payload does not match the IP (or UDP) lengths, outer
 *                ones included;
 *   OFL_ENOTSUP  IP fragment, IPsec/unknown IPv6 extension, IPv6 routing
 *                header (it changes the pseudo header), IPv6 extension
 *                headers with UDP_FRAG, tunnel without req->tunnel (IP-in-IP,
 *                GRE; UDP to a VXLAN/GENEVE port with AUTO), three VLAN tags, headers
 *                longer than OFL_GSO_MAX_IN_HDR;
 *   OFL_E2BIG    more segments than max_segs, a segment would need more
 *                than OFL_GSO_SEG_MAX_SLICES slices, a UDP datagram whose
 *                length fields cannot hold it (over 65,535 bytes of UDP, or
 *                of IPv4 packet: Linux refuses to send one with EMSGSIZE).
 * Each refusal also names its reason: ofl_gso_why(it).
 * The slot size is checked by ofl_gso_next()/ofl_gso_run()/ofl_gso_check_pool()
 * (OFL_ENOSPC before anything is emitted).
 */
OFL_API int ofl_gso_start(struct ofl_gso_iter *it, const struct ofl_gso_req *req,
                          const struct ofl_buf *bufs, uint32_t nbufs);

/**
 * Start from a GRO super-packet (GRO then GSO is a forwarding path).  req may
 * be NULL: then type TCP (UDP_L4 when out->gso_type has OFL_GSO_UDP_L4, the
 * same for a req of type AUTO), seg_size = out->seg_size, full checksums.
 * With a req, seg_size 0 means out->seg_size.  Either way OFL_GSO_F_FIXED_ID is set
 * when out->gso_type has OFL_GSO_TCP_FIXEDID and OFL_GSO_F_KEEP_CWR when it
 * has OFL_GSO_TCP_ECN (GRO merges only segments with equal CWR, the kernel's
 * AccECN rule), so the original segments come back.  A NORMAL packet
 * (hdr_len 0) is taken as its slices (a req with seg_size is then required).
 * What the packet starts with: a GRO packet (hdr_len > 0) says it itself,
 * l3_off 0 with a non-zero l4_off being an IP packet (from a context with
 * ofl_gro_config.l2 = OFL_L2_NONE: the segments then start at the IP
 * header too; both offsets 0, as in an ofl_gro_out filled by hand, is read
 * as Ethernet) and req->l2 is not read; a NORMAL packet is what req->l2
 * says (default Ethernet).
 * out->hdr is copied now; out->slices (the array and the bytes) must stay
 * valid until the last segment is sent: segment inside the deliver callback
 * or copy the array.  Output slices keep the GRO slices' pkt/buf; input
 * buffer i of release_first is out->slices[i - 1] (0 is out->hdr).
 * Returns as ofl_gso_start() (OFL_EINVAL also for NULL out).
 */
OFL_API int ofl_gso_start_gro(struct ofl_gso_iter *it, const struct ofl_gso_req *req,
                              const struct ofl_gro_out *out);

/* l2 argument of ofl_gso_start_vnet() */
#define OFL_GSO_L2_ETH OFL_L2_ETH   /**< a frame from a TAP device or AF_PACKET */
#define OFL_GSO_L2_NONE OFL_L2_NONE /**< an IP packet from a TUN device (segments carry no L2) */

/**
 * Read a Linux struct virtio_net_hdr (10 bytes, little endian, as TUN with
 * IFF_VNET_HDR and AF_PACKET with PACKET_VNET_HDR hand it out on a little-
 * endian host, and as virtio 1.0 / TUNSETVNETLE define it on any host) from
 * p, whatever the host's byte order (a legacy big-endian header from a
 * big-endian host is not read).  The 12-byte virtio_net_hdr_v1's num_buffers
 * (bytes 10-11) is not read.  Returns 0, or OFL_EINVAL (NULL, len < 10).
 */
OFL_API int ofl_gso_vnet_read(const void *p, size_t len, struct ofl_virtio_net_hdr *vh);

/**
 * Fill the type and seg_size of req from a virtio_net_hdr (gso_type TCPV4,
 * TCPV6 -> TCP; UDP_L4 -> UDP_L4; UDP (UFO) -> UDP_FRAG with seg_size
 * rounded down to a multiple of 8); the rest of req is left alone, but
 * for a UDP-tunnel gso_type (OFL_VNET_GSO_UDP_TUNNEL_IPV4 or _IPV6 with
 * TCPV4 or TCPV6): req->tunnel becomes OFL_GSO_TUN_UDP (a VXLAN or GENEVE
 * request stays) and req->tun_csum ON or ZERO by OFL_VNET_F_UDP_TUNNEL_CSUM;
 * the caller sets req->inner_off from the 24-byte header's inner_nh_offset.
 * Returns 1 when the header asks for GSO, 0 when it does not (gso_type NONE:
 * send the frame as it is, finishing its checksum if NEEDS_CSUM), or
 * OFL_EINVAL (NULL), OFL_ENOTSUP (unknown gso_type bits, both tunnel bits,
 * a tunnel bit with an inner type other than TCP), OFL_EPROTO (gso_size 0).
 */
OFL_API int ofl_gso_req_from_vnet(const struct ofl_virtio_net_hdr *vh, struct ofl_gso_req *req);

/**
 * Start from what a TUN/TAP device with IFF_VNET_HDR (or AF_PACKET with
 * PACKET_VNET_HDR) hands out: a vnet_hdr_len-byte little-endian header (read
 * as ofl_gso_vnet_read(): 10 bytes, or 12 with num_buffers, ignored; or 24,
 * struct virtio_net_hdr_v1_hash_tunnel, ofl_vnet_hdr_tunnel_read(): with a
 * UDP-tunnel gso_type (Linux 6.17 TUN_F_UDP_TUNNEL_GSO) the super-packet is
 * cut as req->tunnel OFL_GSO_TUN_UDP (VXLAN or GENEVE when req says so) with
 * inner_off = inner_nh_offset, the outer UDP checksum computed when the
 * header has OFL_VNET_F_UDP_TUNNEL_CSUM and 0 otherwise; NEEDS_CSUM with
 * csum_start at the inner TCP header is required, outer_th_offset must be
 * the outer UDP header and the tunnel bit the outer IP version) followed by the frame (l2 OFL_GSO_L2_ETH) or IP packet
 * (OFL_GSO_L2_NONE), in nbufs buffers.  req (may be NULL for defaults)
 * gives the checksum mode and flags; type and seg_size come from the header
 * (OFL_GSO_TYPE_TCP with VIRTIO_NET_HDR_GSO_ECN keeps the classic CWR rule;
 * the header has no fixed-ID and no AccECN bit: set OFL_GSO_F_FIXED_ID or
 * OFL_GSO_F_KEEP_CWR in req to get them).
 * With NEEDS_CSUM, csum_start/csum_offset must point at the parsed L4
 * checksum field.  Returns as ofl_gso_start(), plus OFL_EINVAL (vnet_hdr_len
 * not 10, 12 or 24, l2 unknown), OFL_ENOTSUP (gso_type NONE or unknown;
 * OFL_GSO_WHY_VNET_TUNNEL: a UDP-tunnel gso_type with a header shorter than
 * 24 bytes, req->tunnel GRE or IP-in-IP, which have no virtio form, or a
 * req->tunnel without a tunnel gso_type), OFL_EPROTO (gso_type disagrees
 * with the headers, outer_th_offset not the outer UDP header,
 * csum_start/offset wrong or NEEDS_CSUM missing with a tunnel).
 * Input buffer indices in release ranges and slices count from bufs[0].
 */
OFL_API int ofl_gso_start_vnet(struct ofl_gso_iter *it, const struct ofl_gso_req *req,
                               uint32_t vnet_hdr_len, unsigned l2, const struct ofl_buf *bufs,
                               uint32_t nbufs);

/** Resources a super-packet needs (ofl_gso_count()).  Fields are only
 *  appended (ofl_gso_count() takes the caller's size of it). */
struct ofl_gso_counts {
	uint32_t segs;       /**< segments in all */
	uint32_t descs;      /**< header slots + payload slices, over all segments */
	uint32_t segs_left;  /**< from the current position */
	uint32_t descs_left; /**< from the current position */
	uint32_t max_slices; /**< most slices of one segment */
	uint32_t hdr_len;    /**< longest header written (the slot size needed) */
	uint32_t type;       /**< enum ofl_gso_type in use (AUTO resolved) */
	uint32_t seg_size;   /**< the segment size in use (the request's, or the
	                          one taken from a GRO packet or virtio_net_hdr) */
	uint32_t tunnel;     /**< enum ofl_gso_tunnel in use (0: none) */
	uint32_t outer_l3_off; /**< tunnel: the outer IP header's offset in a
	                          segment's header (the inner one is ofl_gso_seg.l3_off) */
	uint32_t outer_l4_off; /**< tunnel: the outer UDP or GRE header's offset
	                          (0 for IP-in-IP) */
};

/**
 * Count segments and descriptors before anything is written (a driver checks
 * its ring space with descs_left, like tso_count_descs, but exact).
 * size: sizeof(struct ofl_gso_counts) as the caller was compiled with it,
 * e.g. ofl_gso_count(&it, &cnt, sizeof cnt); exactly size bytes of *cnt are
 * written (the library's fields up to size, zeroes past the library's own
 * struct), so callers built against an older or newer header both work.
 * Returns 0, or OFL_EINVAL (NULL, size 0, iterator not started; nothing
 * written).
 */
OFL_API int ofl_gso_count(const struct ofl_gso_iter *it, struct ofl_gso_counts *cnt, size_t size);

/**
 * Descriptors the next segment needs: 1 (its header slot) + its payload
 * slices, i.e. 1 + the nslices the next ofl_gso_next() (or the first
 * segment of ofl_gso_next_burst()) will report.  A driver reserves that
 * many ring entries before building the segment (exact, unlike a bound);
 * ofl_gso_dsa_finish() adds up to two more for a tagged request (padding,
 * tail tag).  Reads the iterator only; cheap (the slices of one segment).
 * Returns the count (>= 1), 0 when no segment is left (done or aborted),
 * or OFL_EINVAL (NULL, iterator not started).
 */
OFL_API int ofl_gso_next_descs(const struct ofl_gso_iter *it);

/**
 * Is the pool's slot size enough for this packet's headers?  Returns 0, or
 * OFL_ENOSPC (slot too small), OFL_EINVAL (NULL).
 */
OFL_API int ofl_gso_check_pool(const struct ofl_gso_iter *it, const struct ofl_gso_pool *pool);

/**
 * Build the next segment: take a slot from pool, write the headers, point
 * the slices at the payload.  Returns 1 (a segment in *seg), 0 (no segment
 * left: the packet is done), or, with the position unchanged and no slot
 * taken: OFL_EAGAIN (pool empty: call again after putting slots back),
 * OFL_ENOSPC (the pool's slots are smaller than the headers; checked before
 * the first segment is built), OFL_EBADMSG (the l2_fill hook refused),
 * OFL_EINVAL (NULL, not started).
 */
OFL_API int ofl_gso_next(struct ofl_gso_iter *it, struct ofl_gso_pool *pool, struct ofl_gso_seg *seg);

/**
 * Build up to n segments into segs[0..n-1]: the same segments, slots and
 * errors as n calls of ofl_gso_next() (one per element, stopping at the
 * first that does not return 1), with the argument checks, the slot size
 * check and the dispatch on type and pool kind paid once per call.  A driver
 * posts a burst of 32 or 64: at most its free ring descriptors / (1 +
 * ofl_gso_counts.max_slices).
 * Ownership: segs is the caller's array (n elements, written only at
 * [0, return value)); each segs[i].hdr slot is the caller's until it puts it
 * back with ofl_gso_pool_put(), and the slices point into the input buffers
 * under the lifetime rules of ofl_gso_next() (release ranges included).
 * The segments written are undone with ofl_gso_unnext(), the last first
 * (segs[r-1], then segs[r-2], ...): each is then the last segment built.
 * Returns the number of segments written, 1..n: fewer than n when the
 * packet ends (segs[r-1] then has OFL_GSO_SEG_F_LAST, so a driver knows it
 * without another call; the next call returns 0) or when a later segment failed
 * (the pool ran out, the l2_fill hook refused it): that segment was not
 * built, the position is just after segs[r-1], and the next call returns the
 * error again if it persists.  Returns 0 when no segment is left (the packet
 * is done or aborted), or, with nothing written, the position unchanged and
 * no slot taken, the error of ofl_gso_next() for the first segment:
 * OFL_EAGAIN (pool empty: call again after putting slots back),
 * OFL_ENOSPC (slots smaller than the headers), OFL_EBADMSG (the l2_fill hook
 * refused), OFL_EINVAL (NULL it, pool or segs, n 0, not started, pool not
 * initialised, a FREELIST get() that handed out a bad buffer).
 */
OFL_API int ofl_gso_next_burst(struct ofl_gso_iter *it, struct ofl_gso_pool *pool,
                               struct ofl_gso_seg *segs, unsigned n);

/**
 * Undo the last ofl_gso_next(): seg must be the segment it returned; its
 * slot goes back to pool and the next call builds the same segment again.
 * Returns 0, or OFL_EINVAL (NULL, seg is not the last segment built).
 */
OFL_API int ofl_gso_unnext(struct ofl_gso_iter *it, struct ofl_gso_pool *pool,
                           const struct ofl_gso_seg *seg);

/**
 * Copy one segment into one caller buffer (for a pcap file, a TUN device, a
 * NIC without scatter-gather): the header slot's hdr_len bytes, then the
 * slices in order.  seg (and what it points to) is read during the call
 * only; buf (cap bytes, the caller's) is written only on success.
 * Returns the length written (seg->len), or OFL_EINVAL (NULL, a segment
 * whose slices do not add up to len - hdr_len), OFL_ENOSPC (cap < seg->len).
 */
OFL_API int ofl_gso_seg_linearize(const struct ofl_gso_seg *seg, void *buf, size_t cap);

/* Return values of ofl_gso_callbacks.segment */
#define OFL_GSO_CB_CONTINUE 0 /**< taken; go on */
#define OFL_GSO_CB_STOP 1     /**< taken; stop after it (ring now full) */
#define OFL_GSO_CB_REFUSE (-1) /**< not taken (ring full): the slot goes back
                                    to the pool and the segment comes again */

/** Callbacks of ofl_gso_run(). */
struct ofl_gso_callbacks {
	/** One segment; seg is valid during the call only (the slot itself is
	 *  the caller's until it puts it back).  Returns OFL_GSO_CB_*.  Must not
	 *  call ofl_gso_* on the same iterator. */
	int (*segment)(void *user, const struct ofl_gso_seg *seg);
	void *user; /**< passed to segment */
};

/**
 * Emit segments through cb->segment until the packet is done or something
 * stops it.  *emitted (may be NULL) = segments taken by this call.
 * Returns 0 (done: every segment emitted), OFL_EAGAIN (stopped by the pool
 * or the callback: call again with the same iterator to resume), or the
 * errors of ofl_gso_next() (OFL_ENOSPC before the first segment: nothing
 * emitted).
 */
OFL_API int ofl_gso_run(struct ofl_gso_iter *it, struct ofl_gso_pool *pool,
                        const struct ofl_gso_callbacks *cb, uint32_t *emitted);

/**
 * Give up on the rest of the packet.  Segments already emitted stay the
 * caller's (with their slots); no later segment will be built.  Returns the
 * number of segments never emitted (>= 0), or OFL_EINVAL (NULL).
 */
OFL_API int ofl_gso_abort(struct ofl_gso_iter *it);

/* ------------------------------------------------------------------ */
/* GSO through a DSA tag: every segment tagged for one switch port       */

/**
 * A tag prepared once per destination (switch port, priority ...), used for
 * every segment of every super-packet sent there.  Filled by
 * ofl_gso_dsa_prepare(); read only afterwards (one may serve many requests
 * and threads).  Head and after-SA tags are written into each header slot
 * (the slot size check counts them); a tail tag, and the zero padding the
 * kernel adds before tagging short frames, become one or two more slices of
 * each segment pointing into this struct.
 */
struct ofl_gso_dsa {
	const struct ofl_dsa_ops *ops; /**< the format */
	uint16_t head_off;   /**< where the head tag goes in the L2 header (0 or 12) */
	uint8_t head_len;    /**< head tag bytes (0 for tail formats) */
	uint8_t tail_len;    /**< tail tag bytes (0 for head formats) */
	uint8_t min_len;     /**< untagged frames are padded to this first */
	uint8_t head[32];    /**< the head tag bytes */
	uint8_t tail[32];    /**< the tail tag bytes */
	uint8_t zeros[80];   /**< the padding slice points here */
};

/**
 * Prepare the tag for meta (TX direction: destination port or port mask,
 * priority ... as ofl_dsa_encode() takes them).  params may be NULL.
 * Returns 0, or OFL_EINVAL (NULL), OFL_ENOTSUP (a format whose tag depends
 * on each frame's bytes: brcm-legacy-fcs carries the length and the FCS;
 * "none"; or meta the format cannot express, as ofl_dsa_encode() says).
 * The tag is computed for an untagged frame; for a super-packet that
 * carries an 802.1Q header, ofl_gso_dsa_finish() folds that header into
 * the tag of the formats whose kernel tagger does (dsa, edsa, mtk), so
 * every segment is what ofl_dsa_encode() makes of it.  Segments are padded
 * as ofl_dsa_encode() pads with the same params (conduit_tailroom).
 */
OFL_API int ofl_gso_dsa_prepare(struct ofl_gso_dsa *d, const struct ofl_dsa_ops *ops,
                                const struct ofl_dsa_params *params,
                                const struct ofl_dsa_meta *meta);

/**
 * Make a request tag every segment with d: sets extra_l2_len/off and l2_fill
 * (d must outlive the iteration).  A tail tag follows the payload, so a
 * partial checksum would cover it: with a tail format the request's csum is
 * set to OFL_CSUM_MODE_FULL (Linux also finishes the checksum in software
 * before a tail tagger).  Returns 0 or OFL_EINVAL.
 */
OFL_API int ofl_gso_req_set_dsa(struct ofl_gso_req *req, const struct ofl_gso_dsa *d);

/**
 * Complete a segment from ofl_gso_next()/the runner callback for d: folds an
 * 802.1Q header into a dsa/edsa/mtk tag (the header gets 4 bytes shorter:
 * hdr_len, l3_off, l4_off and csum_start move back), appends the padding
 * slice (when the untagged frame is shorter than d->min_len) and the tail
 * tag slice (.buf = 0xffff: library memory, nothing to release), and
 * updates payload_len and len.  Call once per segment, after it was
 * produced by a request made with ofl_gso_req_set_dsa(d).  Returns 0, or
 * OFL_EINVAL, OFL_ENOSPC (no room left in seg->slices; the segment is
 * unchanged).
 */
OFL_API int ofl_gso_dsa_finish(const struct ofl_gso_dsa *d, struct ofl_gso_seg *seg);

#ifdef __cplusplus
}
#endif
#endif /* OFL_GSO_H */
