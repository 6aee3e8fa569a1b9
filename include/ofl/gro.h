/*
 * gro.h - Generic Receive Offload: coalesce same-flow TCP segments (and, when
 * asked, UDP datagrams: ofl_gro_config.udp) into one super-packet without
 * copying payload, following the Linux kernel's merge and flush rules
 * (net/core/gro.c, net/ipv4/tcp_offload.c, udp_offload.c, inet/ipv6 GRO).
 *
 * Data path (one context per RX queue or core; no locks inside):
 *
 *     for each poll:
 *         for each received frame:  ofl_gro_receive(gro, &pkt, now_ns);
 *         ofl_gro_poll_end(gro, work_done, now_ns, &deadline);
 *         if (deadline) arm one timer; when it fires, poll again (a poll
 *         with work_done 0 flushes everything).
 *
 * Everything leaves through the deliver callback (struct ofl_gro_config):
 * lists of at most normal_batch packets (counted in segments, like the
 * kernel's net.core.gro_normal_batch), plus whatever is pending at the end
 * of a poll or flush.  A delivered packet is either
 *   - NORMAL: a frame that GRO did not take, passed on untouched (hdr_len 0,
 *     slices = its original buffers; with a DSA format and dsa_keep_tag 0,
 *     the untagged frame as hdr + slices, see struct ofl_gro_config), or
 *   - a GRO packet: one header (hdr, hdr_len; library memory, lengths and
 *     IPv4 header checksum rewritten, FIN/PSH of all segments merged)
 *     followed by the payload slices of every segment in order, pointing into
 *     the caller's buffers.  seg_count 1 means it was held but nothing
 *     joined it (its bytes are the original frame's).
 *
 * Ownership: the bytes of every received frame stay owned by the library
 * from ofl_gro_receive() until its cookie appears in a delivery; every
 * cookie is delivered exactly once (a context destroyed with packets still
 * held delivers them first).  The delivered structs and the header memory
 * are valid only during the callback.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_GRO_H
#define OFL_GRO_H

#include "csum.h"    /* enum ofl_csum_mode */
#include "dsa.h"
#include "gro_out.h" /* struct ofl_gro_out: what GRO delivers */
#include "ofl.h"
#include "pkt.h"
#include "vnet.h"    /* struct ofl_virtio_net_hdr */

#ifdef __cplusplus
extern "C" {
#endif

/** Largest merged IP packet the library can build (512 KiB, BIG TCP). */
#define OFL_GRO_MAX_SIZE_LIMIT (512u * 1024u)
/** Longest L2+L3+L4 header GRO parses (longer: passed on as normal). */
#define OFL_GRO_MAX_HDR 256u

/** Result of ofl_gro_receive() (>= 0); errors are negative OFL_E*. */
enum ofl_gro_result {
	OFL_GRO_MERGED = 0, /**< joined a held packet */
	OFL_GRO_HELD = 1,   /**< held as the first segment of a new flow entry */
	OFL_GRO_NORMAL = 2, /**< not for GRO: queued for delivery untouched */
};

/** Why a held packet was completed (stats.flush[]). */
enum ofl_gro_flush_reason {
	OFL_GRO_FLUSH_FLAGS = 0,  /**< TCP flag word (flags, doff, window) differs */
	OFL_GRO_FLUSH_ACK,        /**< ack_seq differs */
	OFL_GRO_FLUSH_OPTIONS,    /**< TCP option bytes differ */
	OFL_GRO_FLUSH_SEQ,        /**< not the next sequence number */
	OFL_GRO_FLUSH_SIZE,       /**< segment larger than the first (> mss) */
	OFL_GRO_FLUSH_TTL_TOS_DF, /**< IPv4 TTL/TOS/DF or IPv6 traffic class/hop limit */
	OFL_GRO_FLUSH_IPID,       /**< IPv4 ID neither incrementing nor fixed as before */
	OFL_GRO_FLUSH_IP6_EXT,    /**< IPv6 extension headers differ */
	OFL_GRO_FLUSH_CSUM,       /**< a same-flow segment had a bad checksum */
	OFL_GRO_FLUSH_NOT_GRO,    /**< a same-flow packet that GRO cannot take */
	OFL_GRO_FLUSH_MAX_SIZE,   /**< the next segment would exceed max_size */
	OFL_GRO_FLUSH_MAX_SEGS,   /**< max_segs or the slice capacity reached */
	OFL_GRO_FLUSH_PSH,        /**< segment with PSH (train ends; never delayed) */
	OFL_GRO_FLUSH_FIN_URG_RST_SYN, /**< segment with FIN, URG, RST or SYN */
	OFL_GRO_FLUSH_SHORT,      /**< segment shorter than mss ends the train */
	OFL_GRO_FLUSH_TABLE_FULL, /**< table full (flows or held bytes): oldest completed */
	OFL_GRO_FLUSH_TIMEOUT,    /**< held longer than the flush timeout / given age */
	OFL_GRO_FLUSH_POLL_END,   /**< end of a poll (no timeout, or no work done) */
	OFL_GRO_FLUSH_EXPLICIT,   /**< ofl_gro_flush() or destroy */
	OFL_GRO_FLUSH_UDP_CNT,    /**< UDP: the train reached 64 datagrams (the
	                               kernel's UDP_GRO_CNT_MAX), completed at once.
	                               The other UDP endings reuse the TCP names:
	                               size (a datagram larger than the first),
	                               short (a shorter one, merged, ends it),
	                               csum, not_gro, max_size, max_segs and the
	                               IP ones */
	OFL_GRO_FLUSH_TUN_OUTER,  /**< tunnel: the outer IPv4 TTL, TOS, DF or ID
	                               rule (ID incrementing or fixed, decided
	                               apart from the inner ID), or the outer IPv6
	                               traffic class or hop limit, differs.  The
	                               other tunnel endings reuse the names
	                               above (the inner TCP and IP ones, csum for
	                               a bad outer or inner checksum, max_size for
	                               the 64 KiB limit) */
	OFL_GRO_FLUSH_CSUM_STATE, /**< fraglist mode (ofl_gro_config.fraglist):
	                               a same-flow segment came with another
	                               checksum state than the first (the
	                               kernel's equal ip_summed and csum_level
	                               rule; NONE and UNNECESSARY count as one
	                               state, COMPLETE and PARTIAL as two more).
	                               TCP: the segment starts a new train; UDP:
	                               it is passed on (normal csum_state) */
	OFL_GRO_FLUSH__COUNT
};

/** Why a packet was passed on untouched (stats.normal[]). */
enum ofl_gro_normal_reason {
	OFL_GRO_NORMAL_NOT_IP = 0,   /**< not IPv4/IPv6 (ARP, unknown EtherType...) */
	OFL_GRO_NORMAL_NOT_TCP,      /**< IP but not TCP */
	OFL_GRO_NORMAL_MALFORMED,    /**< truncated or inconsistent headers/lengths */
	OFL_GRO_NORMAL_VLAN_DEPTH,   /**< three or more VLAN tags */
	OFL_GRO_NORMAL_HDR_TOO_LONG, /**< headers longer than OFL_GRO_MAX_HDR */
	OFL_GRO_NORMAL_IP_OPTIONS,   /**< IPv4 with options (IHL > 5) */
	OFL_GRO_NORMAL_IP_CSUM,      /**< bad IPv4 header checksum */
	OFL_GRO_NORMAL_FRAGMENT,     /**< IPv4 fragment or IPv6 fragment header */
	OFL_GRO_NORMAL_IP6_EXT,      /**< IPv6 extension header GRO does not walk */
	OFL_GRO_NORMAL_TCP_CSUM,     /**< bad TCP checksum */
	OFL_GRO_NORMAL_NO_PAYLOAD,   /**< zero payload (pure ACK, SYN...): never held */
	OFL_GRO_NORMAL_FLAGS,        /**< new flow whose first segment has PSH, FIN,
	                                  URG, RST or SYN: nothing to wait for */
	OFL_GRO_NORMAL_BAD_TAG,      /**< a DSA format is configured and the frame
	                                  does not carry a valid tag (passed on
	                                  tagged-as-received, dsa NULL) */
	OFL_GRO_NORMAL_DSA_CONTROL,  /**< a switch control frame (OFL_DSA_MF_CONTROL):
	                                  for the switch driver, never merged */
	OFL_GRO_NORMAL_OVER_LIMIT,   /**< a new flow's first segment is larger than
	                                  max_held_bytes: it could not be held */
	OFL_GRO_NORMAL_PADDED,       /**< a minimum-size IPv4 frame with Ethernet
	                                  padding after its IP packet (total length
	                                  shorter than the frame): never merged, as
	                                  in the kernel (inet_gro_receive); a held
	                                  packet of its flow is completed first */
	OFL_GRO_NORMAL_UDP_CSUM,     /**< UDP GRO on: bad UDP checksum */
	OFL_GRO_NORMAL_UDP_ZERO_CSUM,/**< UDP GRO on: UDP checksum 0 (none sent):
	                                  never merged, as in the kernel
	                                  (udp_gro_receive_segment) */
	OFL_GRO_NORMAL_UDP_LEN,      /**< UDP GRO on: UDP length <= 8 or not the
	                                  datagram's real length */
	OFL_GRO_NORMAL_UDP_PORT,     /**< UDP GRO on: destination port in
	                                  ofl_gro_config.udp_no_merge_ports */
	OFL_GRO_NORMAL_TUN_OUTER,    /**< a tunnel port: outer headers GRO does not
	                                  take (outer IPv4 options, fragment or bad
	                                  header checksum, IPv6 extension headers,
	                                  UDP length not the datagram's, padding,
	                                  truncated), or behind a DSA tag */
	OFL_GRO_NORMAL_TUN_CSUM,     /**< a tunnel port: bad outer UDP checksum */
	OFL_GRO_NORMAL_TUN_HDR,      /**< a tunnel header GRO does not take
	                                  (Geneve version not 0, OAM bit, options
	                                  past the packet, a payload type without
	                                  GRO; truncated) */
	OFL_GRO_NORMAL_TUN_INNER,    /**< a tunnel's inner packet is not TCP that
	                                  GRO takes (not IP, not TCP: a nested
	                                  tunnel too, IP options, fragment, bad
	                                  inner IPv4 header checksum, malformed,
	                                  headers past OFL_GRO_MAX_HDR).  Inner TCP
	                                  refusals keep their names (tcp_csum,
	                                  no_payload, flags, padded, over_limit) */
	OFL_GRO_NORMAL_CSUM_STATE,   /**< fraglist mode, UDP: a datagram whose
	                                  checksum state differs from the held
	                                  train's first one (as
	                                  udp_gro_receive_segment): passed on
	                                  alone, after that train
	                                  (flush csum_state) */
	OFL_GRO_NORMAL__COUNT
};

/** Capacity of the reason arrays of struct ofl_gro_stats (flush[],
 *  normal_why[]): fixed for the ABI, so a new reason is a new slot, never a
 *  new layout.  Slots from OFL_GRO_FLUSH__COUNT / OFL_GRO_NORMAL__COUNT
 *  (the reasons this header defines) up to the capacity read 0. */
#define OFL_GRO_REASON_SLOTS 32u

/**
 * Counters of one context, copied out by ofl_gro_get_stats().  The layout
 * only grows at its end (a field is never moved or removed and a reason
 * array never changes size), and ofl_gro_get_stats() takes the size of the
 * caller's struct, so a program built against an older header keeps
 * reading its own fields from a newer library and the reverse.
 */
struct ofl_gro_stats {
	uint64_t rx_pkts;        /**< packets handed to ofl_gro_receive() */
	uint64_t rx_bytes;       /**< their bytes (all buffers) */
	uint64_t merged;         /**< results OFL_GRO_MERGED */
	uint64_t held;           /**< results OFL_GRO_HELD */
	uint64_t normal;         /**< results OFL_GRO_NORMAL */
	uint64_t out_pkts;       /**< packets delivered (super-packets count once) */
	uint64_t out_gro_pkts;   /**< of which went through the table (seg_count >= 1) */
	uint64_t out_segs;       /**< segments delivered (== rx_pkts once all is out) */
	uint64_t out_lists;      /**< deliver callback invocations */
	uint64_t padding_trimmed;/**< frames with Ethernet padding after the IP
	                              packet (minimum-size frames); those with
	                              payload are passed on, OFL_GRO_NORMAL_PADDED */
	uint64_t csum_sw;        /**< TCP (and, UDP GRO on, UDP) checksums we
	                              checked (status NONE or COMPLETE) */
	uint64_t api_errors;     /**< calls refused with a negative OFL_E* code */
	uint64_t flush[OFL_GRO_REASON_SLOTS];      /**< completions by enum
	                              ofl_gro_flush_reason ([0, OFL_GRO_FLUSH__COUNT)
	                              used, the other slots 0) */
	uint64_t normal_why[OFL_GRO_REASON_SLOTS]; /**< NORMAL results by enum
	                              ofl_gro_normal_reason ([0, OFL_GRO_NORMAL__COUNT)
	                              used, the other slots 0) */
	uint64_t lookup_probes;  /**< flow-table slots inspected by lookups */
	uint64_t lookups;        /**< flow-table lookups */
	uint32_t flows_held;     /**< flow entries held now (gauge) */
	uint32_t bytes_held;     /**< payload bytes held now (gauge) */
	uint64_t merged_fast;    /**< of merged, decided by header prediction
	                              (headers in the first buffer, NIC-verified
	                              checksum, plain headers compared with the
	                              held header directly) */
	/* later versions append here */
};

/**
 * Deliver callback: n packets (1 <= n <= normal_batch + 1) in delivery
 * order; per-flow order is preserved across calls.  The callback must
 * release (or take over) the cookies it is given and must not call back into
 * the same context.
 */
typedef void (*ofl_gro_deliver_fn)(void *user, const struct ofl_gro_out *pkts, unsigned n);

/** Version of struct ofl_gro_config this header describes (fields are only
 *  appended).  ofl_gro_create() takes any version from 1 up to its own and
 *  reads only the fields that version has; a newer version than the
 *  library's (a program built against a later header) is refused with
 *  OFL_EINVAL before anything is read past the version field. */
#define OFL_GRO_CONFIG_VERSION 8

/** Entries of ofl_gro_config.udp_no_merge_ports. */
#define OFL_GRO_UDP_PORTS_MAX 16u
/** Entries of ofl_gro_config.vxlan_ports, geneve_ports and vxlan_gpe_ports. */
#define OFL_GRO_TUN_PORTS_MAX 4u

/** Configuration.  Fill with ofl_gro_config_default() first. */
struct ofl_gro_config {
	uint32_t version;      /**< OFL_GRO_CONFIG_VERSION (set by the default function) */
	uint32_t max_flows;    /**< flow entries held at once; default 64, at most
	                            2^24.  Memory: about (max_flows + normal_batch)
	                            x (750 + 40 x max_segs) bytes (max_bufs 17) */
	uint32_t max_held_bytes; /**< payload bytes held at once; default 4 MiB */
	uint32_t max_size;     /**< largest merged IP packet (L3 header on); default
	                            65535, up to OFL_GRO_MAX_SIZE_LIMIT; above 65535
	                            IPv4 total length / IPv6 payload length are 0 */
	uint16_t max_segs;     /**< segments per merged packet; default 128 (<= 65535) */
	uint16_t max_bufs;     /**< buffers per input packet; default 17 */
	uint16_t normal_batch; /**< delivery list size in segments; default 8 */
	uint16_t reserved0;    /**< 0 */
	uint64_t flush_timeout_ns; /**< like gro_flush_timeout; default 0 */
	uint64_t hash_key[2];  /**< flow-hash key: the caller's random bytes (any
	                            value but 0,0); default 0,0 = ofl_gro_create()
	                            takes 16 bytes from the OS (getrandom() /
	                            getentropy(), no file is opened), a new key per
	                            context; a build without them (OFL_ENTROPY=OFF,
	                            freestanding) requires a key */
	ofl_gro_deliver_fn deliver; /**< required */
	void *user;            /**< passed to deliver */
	const struct ofl_mem *mem; /**< NULL = malloc/free */
	/* GRO through a DSA tag (the frames come from a switch's CPU port): */
	const struct ofl_dsa_ops *dsa; /**< tag format (ofl_dsa_find()); NULL = none */
	struct ofl_dsa_params dsa_params; /**< its switch parameters (defaults
	                            filled by ofl_gro_config_default()) */
	uint8_t dsa_keep_tag;  /**< 0 (default): deliver untagged, with the tag's
	                            metadata in ofl_gro_out.dsa (what a per-port
	                            interface wants); NORMAL frames with a valid
	                            tag are then given as hdr (the 12-16 MAC/VLAN
	                            bytes) + slices (the rest), still no copy.
	                            1: deliver as received: NORMAL frames
	                            untouched, GRO packets with the first
	                            segment's tag (head tags in hdr, a tail tag as
	                            a last slice in library memory, buf 0xffff) */
	/* version 2: */
	uint8_t l2;            /**< enum ofl_l2: what a received packet starts
	                            with.  OFL_L2_ETH (default): an Ethernet
	                            frame.  OFL_L2_NONE: an IP packet (IPv4 or
	                            IPv6 by its first nibble; a TUN device, a
	                            VPN, an L3 AF_XDP device, a cooked capture
	                            past its pseudo-header): the same TCP/IP
	                            rules; GRO packets are delivered without an
	                            Ethernet header (hdr starts at the IP header,
	                            l3_off 0; ofl_gro_linearize() and
	                            ofl_gro_vnet_hdr() with l2_strip 0 apply);
	                            bytes after the IP packet are treated as an
	                            Ethernet frame's padding would be (a packet
	                            of at most 46 bytes: NORMAL_PADDED, else
	                            NORMAL_MALFORMED); csum_status COMPLETE sums
	                            from the IP header.  Not with a DSA format
	                            (OFL_EINVAL).  Header prediction and the burst
	                            train are Ethernet-only: raw-IP packets take
	                            the full path */
	/* version 3: */
	uint8_t udp;           /**< 1: merge UDP datagrams too, as Linux does for
	                            a device with rx-udp-gro-forwarding (or a
	                            socket with UDP_GRO; the kernel merges only
	                            when asked, the caller asks here).  0
	                            (default): UDP is passed on untouched
	                            (OFL_GRO_NORMAL_NOT_TCP).  The rules
	                            (net/ipv4/udp_offload.c
	                            udp_gro_receive_segment): same addresses,
	                            ports, VLAN and DSA port; every datagram the
	                            size of the first; a shorter one is merged
	                            and ends the train, a larger one starts a new
	                            one; at most 64 datagrams and 65535 bytes of
	                            IP packet whatever max_size; the IP rules of
	                            TCP; the checksum verified unless the NIC did
	                            (a bad one, a zero one and a UDP length <= 8
	                            or not the datagram's own are passed on
	                            alone, after the held train of their flow).
	                            A merged packet has gso_type OFL_GSO_UDP_L4,
	                            seg_size the first datagram's payload, UDP
	                            length and checksum seed rewritten
	                            (csum_offset 6) */
	uint8_t udp_nports;    /**< entries used in udp_no_merge_ports (at most
	                            OFL_GRO_UDP_PORTS_MAX) */
	uint16_t udp_no_merge_ports[OFL_GRO_UDP_PORTS_MAX]; /**< UDP destination
	                            ports (host order) never merged
	                            (OFL_GRO_NORMAL_UDP_PORT): a tunnel or a
	                            protocol that must see every datagram */
	/* version 4: GRO through UDP tunnels (net/ipv4/udp_offload.c
	 * udp_gro_receive, drivers/net/vxlan vxlan_gro_receive,
	 * drivers/net/geneve.c geneve_gro_receive).  The kernel merges through a
	 * UDP tunnel only on a port a tunnel socket listens on, so none is
	 * configured by default.  Ethernet input only (raw-IP input, l2
	 * OFL_L2_NONE, and frames behind a DSA tag: NORMAL_TUN_OUTER); outer IPv4 (no options) or IPv6 (no extension
	 * headers), outer VLAN; inner Ethernet (up to two VLAN tags), inner
	 * IPv4/IPv6 and TCP, one tunnel level.  The flow is the outer MACs,
	 * VLAN, addresses, UDP ports, whether the outer UDP checksum is zero,
	 * the whole tunnel header (VXLAN flags and VNI; Geneve header and
	 * options byte for byte) and the inner flow as for plain TCP.  Merged:
	 * the inner TCP rules unchanged, the outer IPv4 rules of TCP (TTL, TOS,
	 * DF, ID incrementing or fixed, decided apart from the inner ID) or
	 * IPv6 (traffic class, hop limit), a non-zero outer UDP checksum
	 * verified (bad: NORMAL_TUN_CSUM), never an outer IP packet above
	 * 65535 bytes whatever max_size.  OFL_CSUM_UNNECESSARY on a tunnel
	 * frame means every checksum in it was verified (Linux csum_level
	 * covering the inner TCP); a NIC that verified only the outer one
	 * must say OFL_CSUM_NONE or COMPLETE.  Delivery: see
	 * ofl_gro_out_tunnel(). */
	uint8_t vxlan_nports;  /**< entries used in vxlan_ports (at most
	                            OFL_GRO_TUN_PORTS_MAX); default 0 */
	uint8_t geneve_nports; /**< entries used in geneve_ports; default 0 */
	uint16_t vxlan_ports[OFL_GRO_TUN_PORTS_MAX]; /**< UDP destination ports
	                            (host order) carrying VXLAN (RFC 7348: 4789;
	                            the Linux driver's default is 8472).  The
	                            8-byte header's flags and VNI are part of
	                            the flow, not checked (as the kernel) */
	uint16_t geneve_ports[OFL_GRO_TUN_PORTS_MAX]; /**< UDP destination ports
	                            carrying Geneve (RFC 8926: 6081): version 0,
	                            OAM bit clear, protocol type Ethernet
	                            (0x6558), IPv4 or IPv6 */
	/* version 5: */
	uint8_t ipip;          /**< 1 (default): merge TCP through IP-in-IP too:
	                            IPv4 or IPv6 carried in IPv4 (protocol 4,
	                            41: ipip, SIT) or in IPv6 (next header 4,
	                            41: ip4ip6, ip6ip6), as Linux does with no
	                            tunnel device (ipip_gro_receive,
	                            sit/ip6ip6/ip4ip6 GRO: built in, always on).
	                            The rules and the delivered form are those
	                            of the UDP tunnels above (no UDP, no tunnel
	                            header: the flow is the outer MACs, VLAN and
	                            addresses and the inner flow; gso_type
	                            OFL_GSO_IPXIP4 or OFL_GSO_IPXIP6 by the outer
	                            IP).  0: passed on (NORMAL not_tcp).  The
	                            default was 0 in version 5 of this header; it
	                            is the kernel's since version 6 (a version 4
	                            struct still has no IP-in-IP) */
	/* version 6: */
	uint8_t gre;           /**< 1 (default): merge TCP through GRE (IP
	                            protocol 47, outer IPv4 or IPv6), as Linux
	                            does with no tunnel device (net/ipv4/
	                            gre_offload.c gre_gro_receive: built in,
	                            always on).  Its rules: GRE version 0 with
	                            no flag but checksum (C) and key (K): a
	                            routing or sequence-number bit, a version
	                            not 0 or a reserved flag is passed on
	                            (NORMAL tun_hdr); the payload type IPv4
	                            (0x0800), IPv6 (0x86dd) or Ethernet (0x6558,
	                            transparent bridging: inner Ethernet with up
	                            to two VLAN tags), any other (ERSPAN 0x88be,
	                            0x22eb, ...) passed on (tun_hdr); a GRE
	                            checksum verified unless the NIC did (bad:
	                            tun_csum, not merged); the flags, payload
	                            type and key part of the flow (a GRE
	                            checksum and its reserved half are not).
	                            Otherwise the rules and the delivered form
	                            are those of the UDP tunnels above: outer
	                            IP rules, one tunnel level, 64 KiB, gso_type
	                            OFL_GSO_GRE or (C set) OFL_GSO_GRE_CSUM;
	                            a merged packet's GRE checksum is written
	                            for the merged packet as it will be once its
	                            inner TCP checksum is (valid after
	                            ofl_gro_linearize() FULL or a NIC filling the
	                            inner one; Linux's gre_gro_complete() leaves
	                            the first segment's).  0: GRE is passed on
	                            (NORMAL not_tcp).  A version 5 struct ends
	                            before gre: GRE is not merged */
	/* version 7: */
	uint8_t fraglist;      /**< 1: fraglist mode, Linux's rx-gro-list
	                            (NETIF_F_GRO_FRAGLIST, for a forwarding
	                            path): the segments of a TCP flow and the
	                            datagrams of a UDP flow (whatever udp says:
	                            the kernel chains UDP with rx-gro-list
	                            alone, udp_no_merge_ports still hold) are
	                            chained as they came, each keeping its own
	                            headers, and a merged packet is delivered
	                            with gso_type OFL_GSO_FRAGLIST: the caller
	                            walks its frames with ofl_gro_list_seg() (or
	                            uses it as any merged packet: hdr + slices
	                            is the same merged packet as without this
	                            mode).  The rules are the kernel's for
	                            is_flist (udp_gro_receive_segment,
	                            tcp_gro_receive, skb_gro_receive_list) on
	                            top of the plain ones: every segment of a
	                            train with the same checksum state as the
	                            first (flush csum_state; NONE and
	                            UNNECESSARY are one state once verified,
	                            COMPLETE and PARTIAL one each); TCP: the
	                            whole flag word equal and at most 64
	                            segments; the merged IP packet plus the
	                            next segment's own headers at most 65535
	                            bytes (and max_size).  Plain TCP and UDP
	                            only: a tunnel flow merges as without this
	                            mode; not with a DSA format (OFL_EINVAL).
	                            The fast path and the burst grouping are
	                            off in this mode (every frame takes the
	                            full path).  Memory: nitems x min(max_segs,
	                            64) x max_bufs x 16 bytes more (1.2 MiB
	                            with the defaults).  0 (default): off */
	/* version 8: GRO through VXLAN-GPE (drivers/net/vxlan/vxlan_core.c
	 * vxlan_gpe_gro_receive), on the ports configured here only, as for
	 * VXLAN.  The rules are version 4's, and the 8-byte header's: the
	 * next-protocol (P) bit set, version 0, the OAM (O) bit clear
	 * (vxlan_parse_gpe_proto), next protocol IPv4 (1), IPv6 (2) or
	 * Ethernet (3); anything else (NSH, MPLS: no GRO handler in Linux) is
	 * passed on (NORMAL_TUN_HDR).  The whole header (flags, next protocol,
	 * VNI and the reserved bytes) is part of the flow
	 * (vxlan_gro_prepare_receive).  Delivered with the tunnel type
	 * OFL_GRO_TUN_VXLAN_GPE and gso_type OFL_GSO_UDP_TUNNEL(_CSUM), as the
	 * kernel's udp_gro_complete() marks it; ofl_gso_start_gro() cuts it as
	 * any UDP tunnel (its inner IP header at l3_off).  A version 7 struct
	 * ends before vxlan_gpe_nports: none */
	uint8_t vxlan_gpe_nports; /**< entries used in vxlan_gpe_ports (at most
	                            OFL_GRO_TUN_PORTS_MAX); default 0 */
	uint16_t vxlan_gpe_ports[OFL_GRO_TUN_PORTS_MAX]; /**< UDP destination
	                            ports (host order) carrying VXLAN-GPE (IANA:
	                            4790), none 0 */
};

/** Fill cfg with the defaults listed above.  Returns 0, or OFL_EINVAL for NULL.
 *  (ofl_gro_create() also takes a version 1 struct, which ends before l2:
 *  its packets are Ethernet frames; a version 2 struct, which ends
 *  before udp: UDP is not merged; a version 3 struct, which ends before
 *  vxlan_nports: no tunnel is merged through; a version 4 struct, which
 *  ends before ipip: IP-in-IP is not merged; a version 5 struct, which
 *  ends before gre: GRE is not merged; a version 6 struct, which ends
 *  before fraglist: no fraglist mode; and a version 7 struct, which ends
 *  before vxlan_gpe_nports: no VXLAN-GPE.) */
OFL_API int ofl_gro_config_default(struct ofl_gro_config *cfg);

struct ofl_gro;

/**
 * Create a context: every byte it will ever use is allocated here.
 * Returns 0 and *out, or OFL_EINVAL (NULL, no deliver callback, version 0
 * or newer than OFL_GRO_CONFIG_VERSION of the library, a limit of 0, max_flows above 2^24, max_size < 1280 or >
 * OFL_GRO_MAX_SIZE_LIMIT, normal_batch 0, an allocator without both
 * functions, dsa_keep_tag above 1, l2 not an enum ofl_l2 or OFL_L2_NONE with a DSA
 * format, udp above 1, udp_nports above OFL_GRO_UDP_PORTS_MAX, vxlan_nports,
 * geneve_nports or vxlan_gpe_nports above OFL_GRO_TUN_PORTS_MAX, a port 0 among them, ipip
 * or gre above 1, fraglist above 1 or with a DSA format, hash_key 0,0
 * where the OS gives no random bytes or the build has no entropy source),
 * OFL_ENOMEM.
 */
OFL_API int ofl_gro_create(const struct ofl_gro_config *cfg, struct ofl_gro **out);

/** Deliver everything still held or pending, then free the context (NULL ok). */
OFL_API void ofl_gro_destroy(struct ofl_gro *gro);

/**
 * Offer one received frame.  Returns an enum ofl_gro_result (>= 0), or
 * OFL_EINVAL (NULL, nbufs 0, a NULL buffer with non-zero length),
 * OFL_E2BIG (more than max_bufs buffers), OFL_ESTATE (called from inside the
 * deliver callback).  On error nothing was taken: the caller keeps the
 * buffers and the cookie.  May call the deliver callback.
 */
OFL_API int ofl_gro_receive(struct ofl_gro *gro, const struct ofl_pkt *pkt, uint64_t now_ns);

/**
 * Offer n frames, in order; returns how many were taken (stops at the first
 * error, whose code is stored in *err if err is non-NULL, 0 otherwise).
 * The same decisions, deliveries and counters as n ofl_gro_receive() calls
 * (only lookups and merged_fast may differ), and the way to call GRO from a
 * poll loop: consecutive segments of one flow are merged in one pass over
 * the burst (no flow lookup, the entry's state kept in registers), frames
 * of a few interleaved flows find their entries through a small cache, and
 * headers are prefetched a few frames ahead.  The frames' buffers and
 * cookies are owned as with ofl_gro_receive(); pkts itself is read only
 * during the call.
 */
OFL_API unsigned ofl_gro_receive_burst(struct ofl_gro *gro, const struct ofl_pkt *pkts,
                                       unsigned n, uint64_t now_ns, int *err);

/**
 * End of a poll (napi_complete_done).  With flush_timeout_ns 0, or work_done
 * 0, everything held is completed and delivered and *deadline_ns is 0.
 * Otherwise held packets older than the timeout are completed, the rest stay,
 * and *deadline_ns is the time at which the caller must poll again (arm one
 * timer), or 0 when nothing is held.  Pending deliveries always go out.
 * Returns 0, OFL_EINVAL or OFL_ESTATE.  deadline_ns may be NULL.
 */
OFL_API int ofl_gro_poll_end(struct ofl_gro *gro, unsigned work_done, uint64_t now_ns,
                             uint64_t *deadline_ns);

/** Complete and deliver everything held and pending.  Returns 0, OFL_EINVAL, OFL_ESTATE. */
OFL_API int ofl_gro_flush(struct ofl_gro *gro);

/** Complete and deliver flow entries held for max_age_ns or longer (their first
 *  segment arrived at or before now_ns - max_age_ns); pending deliveries go out.
 *  Returns the number of entries completed, OFL_EINVAL or OFL_ESTATE. */
OFL_API int ofl_gro_flush_older(struct ofl_gro *gro, uint64_t now_ns, uint64_t max_age_ns);

/**
 * Copy the counters (a consistent snapshot) into the caller's st, of size
 * bytes: pass sizeof(struct ofl_gro_stats) as the caller was compiled with
 * it, e.g. ofl_gro_get_stats(gro, &st, sizeof st).  The library writes
 * exactly size bytes: its own counters up to size (a caller built with an
 * older, shorter struct gets its fields and nothing past them), and zeroes
 * where the caller's struct is longer than the library's (fields a newer
 * header added that this library does not count read 0).
 * Returns 0, or OFL_EINVAL (NULL gro or st, size 0; nothing written).
 */
OFL_API int ofl_gro_get_stats(const struct ofl_gro *gro, struct ofl_gro_stats *st, size_t size);

/** Name of an enum ofl_gro_flush_reason ("flags", "ack", ...; "?" when out of range). */
OFL_API const char *ofl_gro_flush_reason_name(unsigned reason);
/** Name of an enum ofl_gro_normal_reason ("not_ip", ...; "?" when out of range). */
OFL_API const char *ofl_gro_normal_reason_name(unsigned reason);

/**
 * Copy one delivered packet into one caller buffer (for a TUN device or a
 * pcap file).  For a packet flagged OFL_GRO_OUT_F_CSUM_PARTIAL (a GRO
 * packet with seg_count > 1, or one segment received as OFL_CSUM_PARTIAL)
 * the L4 checksum is written in the given mode: the seed (PARTIAL) or the
 * full checksum (FULL); other packets are copied byte for byte (a NORMAL
 * packet flagged OFL_GRO_OUT_F_CSUM_RX_PARTIAL keeps its seed in both modes).  Returns the length written, or OFL_EINVAL, OFL_ENOSPC
 * (cap < out->len; nothing written).
 */
OFL_API int ofl_gro_linearize(const struct ofl_gro_out *out, void *buf, size_t cap,
                              enum ofl_csum_mode mode);

/**
 * Fill a virtio_net_hdr for a delivered packet linearized with
 * OFL_CSUM_MODE_PARTIAL (GRO packets with seg_count > 1: GSO type, size,
 * NEEDS_CSUM; a single segment flagged OFL_GRO_OUT_F_CSUM_PARTIAL (received
 * as OFL_CSUM_PARTIAL): NEEDS_CSUM, no GSO; others: no GSO, DATA_VALID when
 * the checksum was verified).  The fields are in host order: written as they
 * are, this is the legacy (native-endian) header.
 * l2_strip: bytes of Ethernet header the caller removes before writing (14 for
 * a TUN device, 0 for a TAP device); offsets are adjusted by it.
 * Returns 0, or OFL_EINVAL, OFL_ENOTSUP (a NORMAL packet flagged
 * OFL_GRO_OUT_F_CSUM_RX_PARTIAL: its checksum state is the one the caller
 * received with it; a packet merged through a tunnel,
 * OFL_GRO_OUT_TUN_TYPE(flags) != 0 with OFL_GRO_OUT_F_CSUM_PARTIAL: the
 * 10/12-byte header has no tunnel form; *vh is zeroed).
 */
OFL_API int ofl_gro_vnet_hdr(const struct ofl_gro_out *out, unsigned l2_strip,
                             struct ofl_virtio_net_hdr *vh);

/**
 * The same header as ofl_gro_vnet_hdr(), written as the little-endian bytes
 * of virtio 1.0 (a TUN/TAP device with TUNSETVNETLE, a virtio 1.x ring)
 * whatever the host's byte order, into buf: vnet_hdr_len 10 (struct
 * virtio_net_hdr) or 12 (virtio_net_hdr_v1 / _mrg_rxbuf: num_buffers, bytes
 * 10-11, written 0 as a driver transmits; a device handing the packet to its
 * driver stores its own count there).  buf (vnet_hdr_len bytes, the caller's)
 * is written only on success.
 * vnet_hdr_len 24 (OFL_VNET_HDR_TUNNEL_LEN, struct
 * virtio_net_hdr_v1_hash_tunnel of Linux 6.17, vnet.h: a TUN/TAP device
 * with TUNSETVNETHDRSZ 24 and TUN_F_UDP_TUNNEL_GSO): a packet merged through
 * VXLAN, Geneve or VXLAN-GPE (gso_type OFL_GSO_UDP_TUNNEL or _CSUM) is given the UDP
 * tunnel GSO type of its outer IP version (OFL_VNET_GSO_UDP_TUNNEL_IPV4 or
 * _IPV6 with the inner TCPV4/TCPV6), NEEDS_CSUM on the inner TCP header,
 * OFL_VNET_F_UDP_TUNNEL_CSUM when the outer UDP checksum is on (its field
 * holds the outer pseudo-header sum), and outer_th_offset and
 * inner_nh_offset (bytes 20-23), all less l2_strip; any other packet gets
 * ofl_gro_vnet_hdr()'s header, bytes 10-23 zero.  IP in IP and GRE have
 * no virtio form: a packet merged through them (gso_type OFL_GSO_IPXIP4/6,
 * OFL_GSO_GRE, OFL_GSO_GRE_CSUM) is refused with OFL_ENOTSUP, as
 * ofl_gro_vnet_hdr() refuses it, whatever vnet_hdr_len.
 * Returns vnet_hdr_len, or OFL_EINVAL (NULL, vnet_hdr_len not 10, 12 or 24,
 * as ofl_gro_vnet_hdr(); 24: l2_strip past the outer IP header),
 * OFL_ENOTSUP (as ofl_gro_vnet_hdr()).
 */
OFL_API int ofl_gro_vnet_hdr_le(const struct ofl_gro_out *out, unsigned l2_strip, void *buf,
                                size_t vnet_hdr_len);

/** Tunnel types (ofl_gro_tunnel.type, and the OFL_GRO_OUT_TUN field of
 *  ofl_gro_out.flags: OFL_GRO_OUT_TUN_TYPE(flags)). */
enum ofl_gro_tun_type {
	OFL_GRO_TUN_NONE = 0,
	OFL_GRO_TUN_VXLAN = 1,  /**< UDP, 8-byte VXLAN header, inner Ethernet */
	OFL_GRO_TUN_GENEVE = 2, /**< UDP, Geneve header with its options, inner
	                             Ethernet or IP */
	OFL_GRO_TUN_IPIP = 3,   /**< IPv4 or IPv6 right behind the outer IPv4 or
	                             IPv6 header (ofl_gro_config.ipip) */
	OFL_GRO_TUN_GRE = 4,    /**< GRE (IP protocol 47) with its checksum and
	                             key fields, inner Ethernet or IP
	                             (ofl_gro_config.gre) */
	OFL_GRO_TUN_VXLAN_GPE = 5, /**< UDP, 8-byte VXLAN-GPE header, inner
	                             Ethernet or IP by its next protocol
	                             (ofl_gro_config.vxlan_gpe_ports) */
};

/** Where the headers of a tunnelled GRO packet are (ofl_gro_out_tunnel()).
 *  Offsets are into ofl_gro_out.hdr. */
struct ofl_gro_tunnel {
	uint8_t type;          /**< enum ofl_gro_tun_type */
	uint8_t outer_l3;      /**< 4 or 6 */
	uint8_t inner_l3;      /**< 4 or 6 */
	uint8_t outer_udp_csum; /**< 1: the outer UDP checksum is not 0 (GRE and
	                            IP-in-IP: 0; a GRE checksum is told by the
	                            C bit and gso_type OFL_GSO_GRE_CSUM) (merged:
	                            it holds the outer pseudo-header sum, as the
	                            kernel's udp4/6_gro_complete leaves it;
	                            ofl_gro_linearize() FULL completes it after
	                            the inner one) */
	uint16_t outer_l3_off; /**< outer IP header */
	uint16_t outer_l4_off; /**< outer UDP header (GRE: = tun_off; IP-in-IP:
	                            = inner_l3_off) */
	uint16_t tun_off;      /**< tunnel header (VXLAN, Geneve, VXLAN-GPE, GRE; IP-in-IP:
	                            = inner_l3_off) */
	uint16_t inner_l2_off; /**< inner Ethernet header (= inner_l3_off when
	                            the tunnel carries IP) */
	uint16_t inner_l3_off; /**< inner IP header (= ofl_gro_out.l3_off) */
	uint16_t inner_l4_off; /**< inner TCP header (= ofl_gro_out.l4_off) */
};

/**
 * The tunnel of a delivered GRO packet (seg_count >= 1).  A packet merged
 * through a tunnel has OFL_GRO_OUT_TUN_TYPE(flags) != 0; its l3_off, l4_off
 * and csum_start are the INNER IP and TCP headers' (the segments' TCP), its
 * gso_type the inner OFL_GSO_TCPV4/6 bits plus (merged) an
 * OFL_GSO_TUNNEL_MASK value, and its hdr holds the outer headers, the
 * tunnel header and the inner headers, every length rewritten (outer IP
 * length and header checksum, outer UDP length, inner IP length and
 * checksum) and the inner TCP checksum seeded as for plain TCP.  Fills *t
 * and returns 1 for such a packet, returns 0 (t zeroed) for any other,
 * OFL_EINVAL for NULL.  Reads o->hdr (valid during the deliver callback).
 */
OFL_API int ofl_gro_out_tunnel(const struct ofl_gro_out *o, struct ofl_gro_tunnel *t);

/** One received frame of a list packet (ofl_gro_list_seg()): its bytes are
 *  those of the hdr slices, then those of the payload slices, exactly the
 *  frame as it was received (its own headers, lengths and checksums
 *  untouched).  Every slice points into the caller's buffers of that frame
 *  (ofl_slice.pkt is the segment's index, .buf its buffer). */
struct ofl_gro_seg {
	const struct ofl_slice *hdr;     /**< nhdr slices: the frame up to its payload */
	const struct ofl_slice *payload; /**< npayload slices: its payload (a run
	                                      of ofl_gro_out.slices) */
	uint32_t nhdr;                   /**< entries in hdr (>= 1) */
	uint32_t npayload;               /**< entries in payload (>= 1) */
	uint32_t hdr_len;                /**< bytes in the hdr slices */
	uint32_t len;                    /**< the frame's length */
	void *cookie;                    /**< its cookie (ofl_gro_out.cookies[i]) */
};

/**
 * Frame i (0 <= i < seg_count) of a list packet: a merged packet of a
 * context in fraglist mode (ofl_gro_config.fraglist), told by its gso_type
 * (gso_type & OFL_GSO_TUNNEL_MASK) == OFL_GSO_FRAGLIST.  The caller
 * forwarding it sends its seg_count frames one by one, as the kernel's
 * skb_segment_list() gives them back; nothing is copied and nothing
 * allocated.  Call it from the deliver callback with the context that
 * delivered out: seg and the slices it points to are valid until the
 * callback returns.  Returns 0 and *seg, or OFL_EINVAL (NULL, out not a
 * list packet this context is delivering now, i >= seg_count; *seg is
 * zeroed when seg is not NULL).
 */
OFL_API int ofl_gro_list_seg(const struct ofl_gro *gro, const struct ofl_gro_out *out, unsigned i,
                             struct ofl_gro_seg *seg);

#ifdef __cplusplus
}
#endif
#endif /* OFL_GRO_H */
