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

/* The virtio GSO type of a merged TCP packet: TCPV4 or TCPV6, and ECN. */
static unsigned vnet_tcp_type(unsigned gso_type)
{
	return ((gso_type & OFL_GSO_TCPV6) ? VNET_GSO_TCPV6 : VNET_GSO_TCPV4) |
	       ((gso_type & OFL_GSO_TCP_ECN) ? VNET_GSO_ECN : 0);
}

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
				vh->gso_type = (uint8_t)vnet_tcp_type(o->gso_type);
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

/* The 24-byte virtio_net_hdr_v1_hash_tunnel (Linux 6.17 UDP-tunnel GSO):
 * a packet merged through VXLAN or Geneve gets the UDP tunnel GSO type of
 * its outer IP version and the offsets of its outer UDP and inner IP
 * headers; any other packet the header ofl_gro_vnet_hdr() gives, the
 * tunnel offsets 0. */
static int vnet_tunnel_le(const struct ofl_gro_out *o, unsigned l2_strip, void *buf)
{
	struct ofl_virtio_net_hdr_tunnel vt;
	struct ofl_gro_tunnel t;
	unsigned tun;
	int rc;
	if (!o)
		return OFL_EINVAL;
	memset(&vt, 0, sizeof(vt));
	tun = o->gso_type & OFL_GSO_TUNNEL_MASK;
	if (o->seg_count > 1 && (o->flags & OFL_GRO_OUT_F_CSUM_PARTIAL) &&
	    (tun == OFL_GSO_UDP_TUNNEL || tun == OFL_GSO_UDP_TUNNEL_CSUM)) {
		if (ofl_gro_out_tunnel(o, &t) != 1 || l2_strip > t.outer_l3_off)
			return OFL_EINVAL;
		vt.hdr.flags = (uint8_t)(VNET_F_NEEDS_CSUM | (tun == OFL_GSO_UDP_TUNNEL_CSUM ? OFL_VNET_F_UDP_TUNNEL_CSUM : 0));
		vt.hdr.gso_type = (uint8_t)(vnet_tcp_type(o->gso_type) |
		                            (t.outer_l3 == 4 ? OFL_VNET_GSO_UDP_TUNNEL_IPV4 : OFL_VNET_GSO_UDP_TUNNEL_IPV6));
		vt.hdr.hdr_len = (uint16_t)(o->hdr_len - l2_strip);
		vt.hdr.gso_size = o->seg_size;
		vt.hdr.csum_start = (uint16_t)(o->csum_start - l2_strip);
		vt.hdr.csum_offset = o->csum_offset;
		vt.outer_th_offset = (uint16_t)(t.outer_l4_off - l2_strip);
		vt.inner_nh_offset = (uint16_t)(t.inner_l3_off - l2_strip);
	} else {
		rc = ofl_gro_vnet_hdr(o, l2_strip, &vt.hdr);
		if (rc < 0)
			return rc;
	}
	return ofl_vnet_hdr_tunnel_write_le(&vt, buf, OFL_VNET_HDR_TUNNEL_LEN);
}

int ofl_gro_vnet_hdr_le(const struct ofl_gro_out *o, unsigned l2_strip, void *buf, size_t vnet_hdr_len)
{
	struct ofl_virtio_net_hdr vh;
	uint8_t *b = buf;
	int rc;
	if (!buf || (vnet_hdr_len != 10 && vnet_hdr_len != 12 && vnet_hdr_len != OFL_VNET_HDR_TUNNEL_LEN))
		return OFL_EINVAL;
	if (vnet_hdr_len == OFL_VNET_HDR_TUNNEL_LEN)
		return vnet_tunnel_le(o, l2_strip, buf);
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
