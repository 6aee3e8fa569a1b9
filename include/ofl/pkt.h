/*
 * pkt.h - the packet model shared by GRO, GSO and DSA.
 *
 * A packet is a list of caller-owned buffers (struct ofl_buf: pointer and
 * length) plus metadata (struct ofl_pkt).  One buffer is the common case;
 * several are allowed (XDP multi-buffer, header split, page fragments, a
 * chain like lwIP's pbufs).  The bytes of the packet are the concatenation
 * of its buffers; a buffer of length 0 is allowed and skipped.
 *
 * What the library hands back is a struct ofl_slice list: pointers into the
 * caller's buffers (never copies of payload), each tagged with the index of
 * the input packet and buffer it points into, so a driver knows which
 * buffers are still referenced.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_PKT_H
#define OFL_PKT_H

#include "ofl.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One caller-owned buffer of a packet. */
struct ofl_buf {
	const uint8_t *data; /**< first byte (may be NULL only when len is 0) */
	uint32_t len;        /**< bytes at data */
};

/** Checksum status reported by the hardware (Linux ip_summed). */
enum ofl_csum_status {
	OFL_CSUM_NONE = 0,        /**< nothing verified: GRO verifies in software */
	OFL_CSUM_UNNECESSARY = 1, /**< the NIC verified the L4 checksum */
	OFL_CSUM_COMPLETE = 2,    /**< csum holds the NIC's 16-bit ones'-complement
	                               sum of every byte after the 14-byte Ethernet
	                               header to the end of the frame (in-band VLAN
	                               tags, L3, L4 and any padding included); for
	                               raw-IP input (OFL_L2_NONE) of every byte
	                               from the IP header on */
	OFL_CSUM_PARTIAL = 3,     /**< virtio NEEDS_CSUM / Linux CHECKSUM_PARTIAL
	                               (a frame from a TUN/TAP device or a VM that
	                               was never on a wire): the TCP checksum field
	                               holds the pseudo-header seed, to be finished
	                               over the TCP header and payload.  GRO takes
	                               it as verified (skb_csum_unnecessary() does)
	                               and never sums it; what is delivered stays
	                               marked partial (ofl_gro_out.flags, gro_out.h) */
};

/** What a packet starts with: ofl_gro_config.l2, and the l2 argument of
 *  ofl_gso_start_vnet() (OFL_GSO_L2_ETH / OFL_GSO_L2_NONE are these). */
enum ofl_l2 {
	OFL_L2_ETH = 0,  /**< an Ethernet II frame (TAP device, AF_PACKET, a NIC) */
	OFL_L2_NONE = 1, /**< an IP packet, no link header (TUN device, VPN, an L3
	                      AF_XDP device, a Linux cooked capture once its
	                      pseudo-header is skipped); IPv4 or IPv6 by the
	                      first nibble */
};

/** ofl_pkt.flags */
#define OFL_PKT_F_VLAN 0x1u   /**< vlan_tci holds a tag stripped by hardware */
#define OFL_PKT_F_HASH 0x2u   /**< rx_hash holds the NIC's RX hash */

/**
 * A received frame (Ethernet II, starting at the destination MAC; with a
 * GRO context configured for OFL_L2_NONE, an IP packet).
 * The struct and the bufs array are read during the call only and may be
 * reused by the caller as soon as it returns; the *bytes* the buffers point
 * to belong to the library until the packet's cookie is handed back.
 */
struct ofl_pkt {
	const struct ofl_buf *bufs; /**< nbufs buffers, in order */
	uint16_t nbufs;             /**< >= 1 */
	uint8_t csum_status;        /**< enum ofl_csum_status */
	uint8_t flags;              /**< OFL_PKT_F_* */
	uint16_t vlan_tci;          /**< with OFL_PKT_F_VLAN (802.1Q TCI) */
	uint16_t csum;              /**< with OFL_CSUM_COMPLETE: the 16-bit ones'-
	                                 complement sum in memory byte order (as
	                                 ofl_csum_partial() folds it, and as Linux
	                                 keeps skb->csum), not inverted */
	uint32_t rx_hash;           /**< with OFL_PKT_F_HASH */
	void *cookie;               /**< opaque, handed back exactly once */
};

/** A piece of payload handed back by the library: points into a buffer
 *  the caller handed in; never a copy. */
struct ofl_slice {
	const uint8_t *data; /**< into a caller buffer (or library memory, see buf) */
	uint32_t len;        /**< bytes at data */
	uint16_t pkt;  /**< index of the input packet (segment) it belongs to,
	                    counted within the delivered packet */
	uint16_t buf;  /**< index of the buffer within that input packet; 0xffff:
	                    library memory (e.g. a tag), nothing to release */
};

#ifdef __cplusplus
}
#endif
#endif /* OFL_PKT_H */
