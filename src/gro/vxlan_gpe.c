/*
 * vxlan_gpe.c - the VXLAN-GPE header of GRO (tunnel.c merges the flow):
 * what Linux 6.18 takes through a VXLAN-GPE socket
 * (drivers/net/vxlan/vxlan_core.c vxlan_gpe_gro_receive(), which calls
 * vxlan_gro_prepare_receive() and vxlan_parse_gpe_proto()).
 *
 * The 8-byte header (include/net/vxlan.h struct vxlanhdr_gpe): byte 0 the
 * flags R R Ver(2) I P R O, bytes 1-2 reserved, byte 3 the next protocol
 * (include/net/tun_proto.h: 1 IPv4, 2 IPv6, 3 Ethernet, 4 NSH, 5 MPLS),
 * bytes 4-6 the VNI, byte 7 reserved.  The kernel merges when the P bit
 * (a next protocol present) is set, the version is 0, the O bit (OAM) is
 * clear and the next protocol has a GRO handler: IPv4, IPv6 and Ethernet
 * (NSH and MPLS have none).  The I bit is not checked, as for VXLAN.  The
 * flow is the whole header (vxlan_gro_prepare_receive compares the flag
 * word, next protocol included, and the VNI word, reserved byte included):
 * tunnel.c compares it byte for byte with the held packet's.
 */
#include "gro/tunnel.h"

#define GPE_VER 0x30u  /* version (2 bits) */
#define GPE_F_P 0x04u  /* next protocol present */
#define GPE_F_O 0x01u  /* OAM */
#define GPE_NP_IPV4 1u
#define GPE_NP_IPV6 2u
#define GPE_NP_ETH 3u

int gro_gpe_parse(const uint8_t *vh, uint16_t *et)
{
	if (!(vh[0] & GPE_F_P) || (vh[0] & (GPE_VER | GPE_F_O)))
		return OFL_GRO_NORMAL_TUN_HDR;
	switch (vh[3]) {
	case GPE_NP_IPV4:
		*et = 0x0800u;
		return -1;
	case GPE_NP_IPV6:
		*et = 0x86ddu;
		return -1;
	case GPE_NP_ETH:
		*et = 0x6558u; /* ETH_P_TEB: an Ethernet frame */
		return -1;
	default:
		return OFL_GRO_NORMAL_TUN_HDR; /* no GRO for it in Linux */
	}
}
