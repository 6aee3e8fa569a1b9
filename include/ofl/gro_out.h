/*
 * gro_out.h - one coalesced packet as GRO delivers it (struct ofl_gro_out):
 * the output of ofl_gro (gro.h) and an input of GSO (ofl_gso_start_gro() in
 * gso.h, which gives the original segments back).  Its own header so that a
 * GSO-only program includes and links nothing of GRO.
 *
 * The struct does not grow: it reaches the deliver callback as an array,
 * so its size is part of the ABI (.ci/abi.sh fails on a change).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_GRO_OUT_H
#define OFL_GRO_OUT_H

#include "ofl.h"
#include "pkt.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ofl_dsa_meta; /* dsa.h */

/* ofl_gro_out.flags */
#define OFL_GRO_OUT_F_CSUM_PARTIAL 0x01u /**< hdr's L4 checksum field holds the
    pseudo-header sum; the full sum is folded from csum_start to the end
    into csum_start + csum_offset (Linux CHECKSUM_PARTIAL).  Every merged
    packet (seg_count > 1), and a single segment received as
    OFL_CSUM_PARTIAL */
#define OFL_GRO_OUT_F_CSUM_VERIFIED 0x02u /**< every segment's L4 checksum was
    verified (by hardware or by us; one received as OFL_CSUM_PARTIAL counts
    as verified, as skb_csum_unnecessary() counts CHECKSUM_PARTIAL) */
#define OFL_GRO_OUT_F_VLAN 0x04u /**< vlan_tci holds a hardware-stripped tag */
#define OFL_GRO_OUT_F_HASH 0x08u /**< rx_hash is valid */
#define OFL_GRO_OUT_F_CSUM_RX_PARTIAL 0x10u /**< a NORMAL packet received as
    OFL_CSUM_PARTIAL: passed on untouched, its checksum field still holds the
    seed, and where it sits is what the caller received with it (csum_start
    and csum_offset are 0 here, CSUM_PARTIAL and CSUM_VERIFIED are not set) */
#define OFL_GRO_OUT_TUN_MASK 0xe0u /**< a 3-bit field (not bits): the tunnel
    a GRO packet was merged through, enum ofl_gro_tun_type (gro.h) << 5; 0
    for none.  Then l3_off/l4_off are the inner headers' and
    ofl_gro_out_tunnel() (gro.h) tells where the outer ones are */
/** The tunnel type field of ofl_gro_out.flags (enum ofl_gro_tun_type, 0: none). */
#define OFL_GRO_OUT_TUN_TYPE(flags) (((unsigned)(flags) & OFL_GRO_OUT_TUN_MASK) >> 5)

/* Checksum state of a GRO packet (seg_count >= 1) whose segments came with
 * different ofl_pkt.csum_status values: a merged packet (seg_count > 1) is
 * always CSUM_PARTIAL | CSUM_VERIFIED, its seed computed afresh over the
 * rewritten headers, whatever the mix (UNNECESSARY, COMPLETE and NONE
 * segments verified, PARTIAL ones taken as they are; the kernel does not
 * require equal checksum state for TCP GRO either).  A single segment keeps
 * its own state: CSUM_VERIFIED, plus CSUM_PARTIAL (csum_start = l4_off,
 * csum_offset 16) when it was received as OFL_CSUM_PARTIAL, as the kernel's
 * skb keeps the first segment's ip_summed.  In keep-tag mode with a tail tag
 * the checksum is finished instead and CSUM_PARTIAL is not set. */

/* ofl_gro_out.gso_type (bits as Linux SKB_GSO_* semantics, our values) */
#define OFL_GSO_TCPV4 0x01u       /**< TCP over IPv4 (SKB_GSO_TCPV4) */
#define OFL_GSO_TCPV6 0x02u       /**< TCP over IPv6 (SKB_GSO_TCPV6) */
#define OFL_GSO_TCP_FIXEDID 0x04u /**< IPv4 ID fixed, not incrementing */
#define OFL_GSO_TCP_ECN 0x08u     /**< CWR seen in the merged segments */
#define OFL_GSO_UDP_L4 0x10u      /**< UDP datagrams of seg_size payload bytes, the
    last one possibly shorter (SKB_GSO_UDP_L4); csum_offset 6 */
#define OFL_GSO_TUNNEL_MASK 0xe0u /**< a 3-bit field (compare the masked
    value, these are not bits): the encapsulation of a merged tunnelled
    packet, with the inner OFL_GSO_TCPV4/6 (FIXEDID: inner ID fixed) */
#define OFL_GSO_UDP_TUNNEL 0x20u  /**< UDP tunnel, outer UDP checksum 0
    (SKB_GSO_UDP_TUNNEL) */
#define OFL_GSO_UDP_TUNNEL_CSUM 0x40u /**< UDP tunnel with an outer UDP
    checksum (SKB_GSO_UDP_TUNNEL_CSUM) */
#define OFL_GSO_IPXIP4 0x60u      /**< IP in IPv4 (SKB_GSO_IPXIP4) */
#define OFL_GSO_IPXIP6 0x80u      /**< IP in IPv6 (SKB_GSO_IPXIP6) */
#define OFL_GSO_GRE 0xa0u         /**< GRE without a checksum (SKB_GSO_GRE;
    ofl_gso_start_gro() cuts it as OFL_GSO_TUN_GRE) */
#define OFL_GSO_GRE_CSUM 0xc0u    /**< GRE with its checksum (C bit):
    SKB_GSO_GRE_CSUM, a GRE checksum per segment */
#define OFL_GSO_FRAGLIST 0xe0u    /**< not a tunnel: a list packet of a
    context in fraglist mode (SKB_GSO_FRAGLIST, with the TCP or UDP bits):
    its frames are kept as received, ofl_gro_list_seg() (gro.h) walks them
    (ofl_gso_start_gro() refuses it, OFL_GSO_WHY_TUN_REQ as an unknown
    encapsulation; hdr + slices is a plain merged packet all the same) */

/** One delivered packet.  Valid only during the deliver callback. */
struct ofl_gro_out {
	const uint8_t *hdr;            /**< rewritten headers (GRO packet) or NULL */
	uint32_t hdr_len;              /**< 0 for NORMAL */
	uint32_t nslices;              /**< entries in slices */
	const struct ofl_slice *slices;/**< payload (GRO) or whole frame (NORMAL) */
	uint32_t len;                  /**< hdr_len + sum of slice lengths */
	uint16_t seg_count;            /**< 0 NORMAL, >= 1 GRO packet */
	uint16_t seg_size;             /**< first segment's payload length (GRO) */
	void *const *cookies;          /**< ncookies cookies, in segment order */
	uint32_t ncookies;             /**< seg_count, or 1 for NORMAL */
	uint16_t l3_off;               /**< IP header offset in hdr (GRO packet only) */
	uint16_t l4_off;               /**< TCP or UDP header offset in hdr (GRO packet only) */
	uint16_t csum_start;           /**< with OFL_GRO_OUT_F_CSUM_PARTIAL: sum from here */
	uint16_t csum_offset;          /**< ... and store at csum_start + csum_offset */
	uint8_t flags;                 /**< OFL_GRO_OUT_F_* */
	uint8_t gso_type;              /**< OFL_GSO_* (GRO packet with seg_count > 1) */
	uint16_t vlan_tci;             /**< with OFL_GRO_OUT_F_VLAN: the stripped TCI */
	uint32_t rx_hash;              /**< with OFL_GRO_OUT_F_HASH: the NIC's hash */
	uint64_t first_ns;             /**< receive time of the first segment */
	const struct ofl_dsa_meta *dsa;/**< with a DSA format: what the (first
	                                    segment's) tag said; NULL without a
	                                    format or when the tag was invalid */
};

#ifdef __cplusplus
}
#endif
#endif /* OFL_GRO_OUT_H */
