/* vnet.c - struct virtio_net_hdr for a delivered packet (what a TUN device
 * with IFF_VNET_HDR or AF_PACKET with PACKET_VNET_HDR expects). */
#include "gro/gro_int.h"

#define VNET_F_NEEDS_CSUM 1u
#define VNET_F_DATA_VALID 2u
#define VNET_GSO_TCPV4 1u
#define VNET_GSO_TCPV6 4u
#define VNET_GSO_ECN 0x80u

int ofl_gro_vnet_hdr(const struct ofl_gro_out *o, unsigned l2_strip, struct ofl_virtio_net_hdr *vh)
{
	if (!o || !vh)
		return OFL_EINVAL;
	memset(vh, 0, sizeof(*vh));
	if (o->seg_count > 1 && (o->flags & OFL_GRO_OUT_F_CSUM_PARTIAL)) {
		if (l2_strip > o->l3_off)
			return OFL_EINVAL;
		vh->flags = VNET_F_NEEDS_CSUM;
		vh->gso_type = (uint8_t)(((o->gso_type & OFL_GSO_TCPV6) ? VNET_GSO_TCPV6 : VNET_GSO_TCPV4) |
		                         ((o->gso_type & OFL_GSO_TCP_ECN) ? VNET_GSO_ECN : 0));
		vh->hdr_len = (uint16_t)(o->hdr_len - l2_strip);
		vh->gso_size = o->seg_size;
		vh->csum_start = (uint16_t)(o->csum_start - l2_strip);
		vh->csum_offset = o->csum_offset;
		return 0;
	}
	if (o->flags & OFL_GRO_OUT_F_CSUM_VERIFIED)
		vh->flags = VNET_F_DATA_VALID;
	return 0;
}
