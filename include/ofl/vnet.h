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

#ifdef __cplusplus
}
#endif
#endif /* OFL_VNET_H */
