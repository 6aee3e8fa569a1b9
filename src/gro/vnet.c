/* vnet.c - struct virtio_net_hdr for a delivered packet (what a TUN device
 * with IFF_VNET_HDR or AF_PACKET with PACKET_VNET_HDR expects), as a host-
 * order struct or as the little-endian bytes of virtio 1.0 (IFF_VNET_LE). */
#include "gro/gro_int.h"

#define VNET_F_NEEDS_CSUM 1u
#define VNET_F_DATA_VALID 2u
#define VNET_GSO_TCPV4 1u
#define VNET_GSO_TCPV6 4u
#define VNET_GSO_UDP_L4 5u /* VIRTIO_NET_HDR_GSO_UDP_L4 (Linux 4.18 ABI; older headers lack it) */
#define VNET_GSO_ECN 0x80u

int ofl_gro_vnet_hdr(const struct ofl_gro_out *o, unsigned l2_strip, struct ofl_virtio_net_hdr *vh)
{
	if (!o || !vh)
		return OFL_EINVAL;
	memset(vh, 0, sizeof(*vh));
	if (o->flags & OFL_GRO_OUT_F_CSUM_RX_PARTIAL)
		return OFL_ENOTSUP; /* untouched: the header it came with still holds */
	if (OFL_GRO_OUT_TUN_TYPE(o->flags) && (o->flags & OFL_GRO_OUT_F_CSUM_PARTIAL))
		return OFL_ENOTSUP; /* through a tunnel: no 10/12-byte form */
	if (o->seg_count >= 1 && (o->flags & OFL_GRO_OUT_F_CSUM_PARTIAL)) {
		if (l2_strip > o->l3_off)
			return OFL_EINVAL;
		vh->flags = VNET_F_NEEDS_CSUM;
		vh->csum_start = (uint16_t)(o->csum_start - l2_strip);
		vh->csum_offset = o->csum_offset;
		if (o->seg_count > 1) {
			if (o->gso_type & OFL_GSO_UDP_L4)
				vh->gso_type = VNET_GSO_UDP_L4;
			else
				vh->gso_type = (uint8_t)(((o->gso_type & OFL_GSO_TCPV6) ? VNET_GSO_TCPV6 : VNET_GSO_TCPV4) |
				                         ((o->gso_type & OFL_GSO_TCP_ECN) ? VNET_GSO_ECN : 0));
			vh->hdr_len = (uint16_t)(o->hdr_len - l2_strip);
			vh->gso_size = o->seg_size;
		}
		return 0;
	}
	if (o->flags & OFL_GRO_OUT_F_CSUM_VERIFIED)
		vh->flags = VNET_F_DATA_VALID;
	return 0;
}

static void put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v & 0xffu);
	p[1] = (uint8_t)(v >> 8);
}

int ofl_gro_vnet_hdr_le(const struct ofl_gro_out *o, unsigned l2_strip, void *buf, size_t vnet_hdr_len)
{
	struct ofl_virtio_net_hdr vh;
	uint8_t *b = buf;
	int rc;
	if (!buf || (vnet_hdr_len != 10 && vnet_hdr_len != 12))
		return OFL_EINVAL;
	rc = ofl_gro_vnet_hdr(o, l2_strip, &vh);
	if (rc < 0)
		return rc;
	b[0] = vh.flags;
	b[1] = vh.gso_type;
	put_le16(b + 2, vh.hdr_len);
	put_le16(b + 4, vh.gso_size);
	put_le16(b + 6, vh.csum_start);
	put_le16(b + 8, vh.csum_offset);
	if (vnet_hdr_len == 12)
		put_le16(b + 10, 0); /* num_buffers: 0, as a driver transmits */
	return (int)vnet_hdr_len;
}
