/*
 * vnet.c - GSO input as a TUN/TAP device with IFF_VNET_HDR or AF_PACKET
 * with PACKET_VNET_HDR hands it out: struct virtio_net_hdr (little endian)
 * followed by the frame (TAP, AF_PACKET) or the IP packet (TUN).  The checks
 * are those of virtio_net_hdr_to_skb(): the GSO type must match the headers
 * and NEEDS_CSUM must point at the L4 checksum field.
 */
#include <string.h>

#include "gso/gso_int.h"

#define VNET_F_NEEDS_CSUM OFL_VNET_F_NEEDS_CSUM
#define VNET_GSO_NONE OFL_VNET_GSO_NONE
#define VNET_GSO_TCPV4 OFL_VNET_GSO_TCPV4
#define VNET_GSO_UDP OFL_VNET_GSO_UDP
#define VNET_GSO_TCPV6 OFL_VNET_GSO_TCPV6
#define VNET_GSO_UDP_L4 OFL_VNET_GSO_UDP_L4
#define VNET_GSO_ECN OFL_VNET_GSO_ECN
#define VNET_GSO_TUNNEL (OFL_VNET_GSO_UDP_TUNNEL_IPV4 | OFL_VNET_GSO_UDP_TUNNEL_IPV6)

static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static void put_le16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

int ofl_vnet_hdr_tunnel_write_le(const struct ofl_virtio_net_hdr_tunnel *vh, void *p, size_t cap)
{
	uint8_t *b = p;
	if (!vh || !p)
		return OFL_EINVAL;
	if (cap < OFL_VNET_HDR_TUNNEL_LEN)
		return OFL_ENOSPC;
	b[0] = vh->hdr.flags;
	b[1] = vh->hdr.gso_type;
	put_le16(b + 2, vh->hdr.hdr_len);
	put_le16(b + 4, vh->hdr.gso_size);
	put_le16(b + 6, vh->hdr.csum_start);
	put_le16(b + 8, vh->hdr.csum_offset);
	put_le16(b + 10, vh->num_buffers);
	put_le16(b + 12, vh->hash_value & 0xffffu);
	put_le16(b + 14, vh->hash_value >> 16);
	put_le16(b + 16, vh->hash_report);
	put_le16(b + 18, 0);
	put_le16(b + 20, vh->outer_th_offset);
	put_le16(b + 22, vh->inner_nh_offset);
	return (int)OFL_VNET_HDR_TUNNEL_LEN;
}

int ofl_vnet_hdr_tunnel_read(const void *p, size_t len, struct ofl_virtio_net_hdr_tunnel *vh)
{
	const uint8_t *b = p;
	if (!p || !vh || len < OFL_VNET_HDR_TUNNEL_LEN)
		return OFL_EINVAL;
	ofl_gso_vnet_read(p, len, &vh->hdr);
	vh->num_buffers = le16(b + 10);
	vh->hash_value = (uint32_t)le16(b + 12) | (uint32_t)le16(b + 14) << 16;
	vh->hash_report = le16(b + 16);
	vh->outer_th_offset = le16(b + 20);
	vh->inner_nh_offset = le16(b + 22);
	return 0;
}

int ofl_gso_vnet_read(const void *p, size_t len, struct ofl_virtio_net_hdr *vh)
{
	const uint8_t *b = p;
	if (!p || !vh || len < 10)
		return OFL_EINVAL;
	vh->flags = b[0];
	vh->gso_type = b[1];
	vh->hdr_len = le16(b + 2);
	vh->gso_size = le16(b + 4);
	vh->csum_start = le16(b + 6);
	vh->csum_offset = le16(b + 8);
	return 0;
}

int ofl_gso_req_from_vnet(const struct ofl_virtio_net_hdr *vh, struct ofl_gso_req *req)
{
	uint8_t tun;
	if (!vh || !req)
		return OFL_EINVAL;
	tun = vh->gso_type & VNET_GSO_TUNNEL;
	if (tun == VNET_GSO_TUNNEL)
		return OFL_ENOTSUP; /* both outer versions */
	if (tun) {
		/* a UDP tunnel: the inner type below; inner_off is the
		 * caller's (the 24-byte header's inner_nh_offset) */
		uint8_t in = vh->gso_type & (uint8_t)~(VNET_GSO_ECN | VNET_GSO_TUNNEL);
		if (in != VNET_GSO_TCPV4 && in != VNET_GSO_TCPV6)
			return OFL_ENOTSUP;
		if (req->tunnel != OFL_GSO_TUN_VXLAN && req->tunnel != OFL_GSO_TUN_GENEVE)
			req->tunnel = OFL_GSO_TUN_UDP;
		req->tun_csum = (vh->flags & OFL_VNET_F_UDP_TUNNEL_CSUM) ? OFL_GSO_TUN_CSUM_ON : OFL_GSO_TUN_CSUM_ZERO;
	}
	switch (vh->gso_type & (uint8_t)~(VNET_GSO_ECN | tun)) {
	case VNET_GSO_NONE:
		return vh->gso_type ? OFL_ENOTSUP : 0;
	case VNET_GSO_TCPV4:
	case VNET_GSO_TCPV6:
		req->type = OFL_GSO_TYPE_TCP;
		break;
	case VNET_GSO_UDP_L4:
		req->type = OFL_GSO_TYPE_UDP_L4;
		break;
	case VNET_GSO_UDP:
		req->type = OFL_GSO_TYPE_UDP_FRAG;
		break;
	default:
		return OFL_ENOTSUP;
	}
	if (vh->gso_size == 0)
		return OFL_EPROTO;
	req->seg_size = vh->gso_size;
	if (req->type == OFL_GSO_TYPE_UDP_FRAG)
		req->seg_size &= ~7u;
	return 1;
}

int ofl_gso_start_vnet(struct ofl_gso_iter *itp, const struct ofl_gso_req *req, uint32_t vnet_hdr_len,
                       unsigned l2, const struct ofl_buf *bufs, uint32_t nbufs)
{
	struct gso_it *it = gso_it(itp);
	uint8_t raw[OFL_VNET_HDR_TUNNEL_LEN];
	struct ofl_virtio_net_hdr_tunnel vt;
	struct ofl_virtio_net_hdr vh;
	struct ofl_gso_req r;
	struct gso_input in;
	struct ofl_hdrs h;
	uint32_t fake, base;
	uint64_t total;
	uint8_t gt;
	int rc;
	if (!it)
		return OFL_EINVAL;
	if (!bufs || nbufs == 0 || nbufs > 0xffffu ||
	    (vnet_hdr_len != 10 && vnet_hdr_len != 12 && vnet_hdr_len != OFL_VNET_HDR_TUNNEL_LEN) ||
	    (l2 != OFL_GSO_L2_ETH && l2 != OFL_GSO_L2_NONE))
		return gso_refuse(it, OFL_GSO_WHY_ARG);
	total = ofl_bufs_size(bufs, nbufs);
	if (total == UINT64_MAX)
		return gso_refuse(it, OFL_GSO_WHY_ARG);
	if (total < vnet_hdr_len)
		return gso_refuse(it, OFL_GSO_WHY_VNET_SHORT);
	if (total > 0xffffffffu)
		return gso_refuse(it, OFL_GSO_WHY_FRAME_LONG);
	ofl_bufs_copy(bufs, nbufs, 0, vnet_hdr_len < 12 ? 10 : vnet_hdr_len, raw);
	memset(&vt, 0, sizeof(vt));
	if (vnet_hdr_len == OFL_VNET_HDR_TUNNEL_LEN)
		ofl_vnet_hdr_tunnel_read(raw, sizeof(raw), &vt);
	ofl_gso_vnet_read(raw, 10, &vh);
	if (!req)
		ofl_gso_req_default(&r);
	else if (gso_req_load(&r, req) != 0)
		return gso_refuse(it, OFL_GSO_WHY_REQ);
	/* a UDP tunnel needs the 24-byte header (TUN reads the offsets only
	 * then); GRE and IP-in-IP have no virtio form; a request for a tunnel
	 * needs a tunnel GSO type */
	if ((vh.gso_type & VNET_GSO_TUNNEL) ? vnet_hdr_len != OFL_VNET_HDR_TUNNEL_LEN ||
	                                              r.tunnel == OFL_GSO_TUN_GRE || r.tunnel == OFL_GSO_TUN_IPIP
	                                    : r.tunnel != OFL_GSO_TUN_NONE)
		return gso_refuse(it, OFL_GSO_WHY_VNET_TUNNEL);
	if (vh.gso_type & VNET_GSO_TUNNEL) {
		if (!(vh.flags & VNET_F_NEEDS_CSUM))
			return gso_refuse(it, OFL_GSO_WHY_VNET_CSUM);
		r.inner_off = vt.inner_nh_offset;
	}
	rc = ofl_gso_req_from_vnet(&vh, &r);
	if (rc == 0 || rc == OFL_ENOTSUP)
		return gso_refuse(it, OFL_GSO_WHY_VNET_NONE);
	if (rc < 0)
		return gso_refuse(it, OFL_GSO_WHY_VNET_TYPE);
	memset(&in, 0, sizeof(in));
	in.units = bufs;
	in.nunits = nbufs;
	in.kind = GSO_UNIT_BUF;
	in.l2_none = l2 == OFL_GSO_L2_NONE;
	in.skip = vnet_hdr_len;
	in.flen = (uint32_t)(total - vnet_hdr_len);
	rc = gso_start_common(it, &r, &in, &h);
	if (rc < 0)
		return rc;
	/* the headers must be what gso_type says (virtio_net_hdr_to_skb; for
	 * a tunnel virtio_net_hdr_tnl_to_skb: the outer IP version, the outer
	 * UDP header where outer_th_offset says) */
	if (vh.gso_type & VNET_GSO_TUNNEL) {
		uint32_t shift = r.extra_l2_len + ((r.flags & OFL_GSO_F_VLAN_INSERT) ? 4u : 0u);
		if ((it->o_l3 == 4) != ((vh.gso_type & OFL_VNET_GSO_UDP_TUNNEL_IPV4) != 0) ||
		    it->o_l4_off - shift != vt.outer_th_offset)
			return gso_refuse(it, OFL_GSO_WHY_VNET_TYPE);
	}
	gt = vh.gso_type & (uint8_t)~(VNET_GSO_ECN | VNET_GSO_TUNNEL);
	if ((gt == VNET_GSO_TCPV4 && h.l3 != 4) || (gt == VNET_GSO_TCPV6 && h.l3 != 6))
		return gso_refuse(it, OFL_GSO_WHY_VNET_TYPE);
	fake = in.l2_none ? OFL_ETH_HLEN : 0;
	base = h.l4_off - fake;
	if ((vh.flags & VNET_F_NEEDS_CSUM) &&
	    (vh.csum_start != base || vh.csum_offset != (h.l4proto == GSO_PROTO_TCP ? 16u : 6u)))
		return gso_refuse(it, OFL_GSO_WHY_VNET_CSUM);
	return 0;
}
