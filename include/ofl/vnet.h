/*
 * vnet.h - the Linux virtio_net_hdr (the header TUN/TAP devices with
 * IFF_VNET_HDR and AF_PACKET with PACKET_VNET_HDR put before a frame), as
 * GRO writes it (ofl_gro_vnet_hdr()) and GSO reads it (ofl_gso_vnet_read()).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_VNET_H
#define OFL_VNET_H

#include "ofl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kernel ABI values of virtio_net_hdr and TUNSETOFFLOAD, for programs
 * built against headers that lack some (Debian 12's Linux 6.1 headers have
 * no VIRTIO_NET_HDR_GSO_UDP_L4, TUN_F_USO4 or TUN_F_USO6): the same numbers
 * as <linux/virtio_net.h> and <linux/if_tun.h>. */
#define OFL_VNET_F_NEEDS_CSUM 1u   /**< VIRTIO_NET_HDR_F_NEEDS_CSUM */
#define OFL_VNET_F_DATA_VALID 2u   /**< VIRTIO_NET_HDR_F_DATA_VALID */
#define OFL_VNET_GSO_NONE 0u       /**< VIRTIO_NET_HDR_GSO_NONE */
#define OFL_VNET_GSO_TCPV4 1u      /**< VIRTIO_NET_HDR_GSO_TCPV4 */
#define OFL_VNET_GSO_UDP 3u        /**< VIRTIO_NET_HDR_GSO_UDP (UFO) */
#define OFL_VNET_GSO_TCPV6 4u      /**< VIRTIO_NET_HDR_GSO_TCPV6 */
#define OFL_VNET_GSO_UDP_L4 5u     /**< VIRTIO_NET_HDR_GSO_UDP_L4 (USO, Linux 5.18) */
#define OFL_VNET_GSO_ECN 0x80u     /**< VIRTIO_NET_HDR_GSO_ECN */
#define OFL_TUN_F_CSUM 0x01u       /**< TUN_F_CSUM: the reader takes partial checksums */
#define OFL_TUN_F_TSO4 0x02u       /**< TUN_F_TSO4 */
#define OFL_TUN_F_TSO6 0x04u       /**< TUN_F_TSO6 */
#define OFL_TUN_F_TSO_ECN 0x08u    /**< TUN_F_TSO_ECN */
#define OFL_TUN_F_UFO 0x10u        /**< TUN_F_UFO */
#define OFL_TUN_F_USO4 0x20u       /**< TUN_F_USO4 (Linux 6.2; only together with USO6) */
#define OFL_TUN_F_USO6 0x40u       /**< TUN_F_USO6 (Linux 6.2) */
/* UDP-tunnel GSO (Linux 6.17; not in Debian 12's headers): */
#define OFL_VNET_F_UDP_TUNNEL_CSUM 8u        /**< VIRTIO_NET_HDR_F_UDP_TUNNEL_CSUM: the
                                                  outer UDP checksum is wanted (_CSUM) */
#define OFL_VNET_GSO_UDP_TUNNEL_IPV4 0x20u   /**< VIRTIO_NET_HDR_GSO_UDP_TUNNEL_IPV4: a
                                                  UDP tunnel over outer IPv4, OR-ed with the
                                                  inner type (TCPV4, TCPV6) */
#define OFL_VNET_GSO_UDP_TUNNEL_IPV6 0x40u   /**< VIRTIO_NET_HDR_GSO_UDP_TUNNEL_IPV6: outer IPv6 */
#define OFL_TUN_F_UDP_TUNNEL_GSO 0x080u      /**< TUN_F_UDP_TUNNEL_GSO */
#define OFL_TUN_F_UDP_TUNNEL_GSO_CSUM 0x100u /**< TUN_F_UDP_TUNNEL_GSO_CSUM */
/** Bytes of struct virtio_net_hdr_v1_hash_tunnel: TUN reads the tunnel
 *  offsets only with a vnet header (TUNSETVNETHDRSZ) of at least this. */
#define OFL_VNET_HDR_TUNNEL_LEN 24u

/** Linux struct virtio_net_hdr, its fields in host order (10 bytes; on the
 *  wire little endian with VIRTIO 1.0 / TUNSETVNETLE: ofl_gro_vnet_hdr_le()
 *  writes those bytes, ofl_gso_vnet_read() reads them). */
struct ofl_virtio_net_hdr {
	uint8_t flags;       /**< 1 = VIRTIO_NET_HDR_F_NEEDS_CSUM, 2 = DATA_VALID */
	uint8_t gso_type;    /**< 0 NONE, 1 TCPV4, 4 TCPV6, 5 UDP_L4, | 0x80 ECN */
	uint16_t hdr_len;     /**< bytes of headers (GSO packets) */
	uint16_t gso_size;    /**< payload bytes per segment (GSO packets) */
	uint16_t csum_start;  /**< with NEEDS_CSUM: sum from here ... */
	uint16_t csum_offset; /**< ... and store at csum_start + csum_offset */
};

/** Linux struct virtio_net_hdr_v1_hash_tunnel (24 bytes, little endian):
 *  the 10-byte header, num_buffers (bytes 10-11), the hash report (12-19:
 *  value, report, padding) and, for a UDP-tunnel GSO type, where the outer
 *  UDP header (bytes 20-21) and the inner IP header (22-23) start, counted
 *  from the frame's first byte (TUN: the packet's).  Fields in host order. */
struct ofl_virtio_net_hdr_tunnel {
	struct ofl_virtio_net_hdr hdr; /**< hdr.gso_type may have
	                                    OFL_VNET_GSO_UDP_TUNNEL_IPV4/IPV6; then
	                                    hdr.csum_start is the inner L4 header and
	                                    hdr.flags has NEEDS_CSUM (and
	                                    OFL_VNET_F_UDP_TUNNEL_CSUM for _CSUM) */
	uint16_t num_buffers;     /**< virtio_net_hdr_v1 (mergeable buffers); 0 */
	uint32_t hash_value;      /**< hash report; 0 when not used */
	uint16_t hash_report;     /**< hash report type; 0 when not used */
	uint16_t outer_th_offset; /**< the outer UDP header's offset */
	uint16_t inner_nh_offset; /**< the inner IP header's offset */
};

/**
 * Write vh as the 24 little-endian bytes of virtio_net_hdr_v1_hash_tunnel at
 * p (cap bytes, the caller's; padding bytes 18-19 written 0), whatever the
 * host's byte order.  Returns 24, or OFL_EINVAL (NULL), OFL_ENOSPC (cap < 24;
 * nothing written).
 */
OFL_API int ofl_vnet_hdr_tunnel_write_le(const struct ofl_virtio_net_hdr_tunnel *vh, void *p, size_t cap);

/**
 * Read the 24-byte little-endian virtio_net_hdr_v1_hash_tunnel at p (len
 * bytes).  Returns 0, or OFL_EINVAL (NULL, len < 24).
 */
OFL_API int ofl_vnet_hdr_tunnel_read(const void *p, size_t len, struct ofl_virtio_net_hdr_tunnel *vh);

#ifdef __cplusplus
}
#endif
#endif /* OFL_VNET_H */
