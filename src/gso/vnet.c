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

static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

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
	if (!vh || !req)
		return OFL_EINVAL;
	switch (vh->gso_type & (uint8_t)~VNET_GSO_ECN) {
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
	uint8_t raw[12];
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
	if (!bufs || nbufs == 0 || nbufs > 0xffffu || (vnet_hdr_len != 10 && vnet_hdr_len != 12) ||
	    (l2 != OFL_GSO_L2_ETH && l2 != OFL_GSO_L2_NONE))
		return gso_refuse(it, OFL_GSO_WHY_ARG);
	total = ofl_bufs_size(bufs, nbufs);
	if (total == UINT64_MAX)
		return gso_refuse(it, OFL_GSO_WHY_ARG);
	if (total < vnet_hdr_len)
		return gso_refuse(it, OFL_GSO_WHY_VNET_SHORT);
	if (total > 0xffffffffu)
		return gso_refuse(it, OFL_GSO_WHY_FRAME_LONG);
	ofl_bufs_copy(bufs, nbufs, 0, 10, raw);
	ofl_gso_vnet_read(raw, 10, &vh);
	if (!req)
		ofl_gso_req_default(&r);
	else if (gso_req_load(&r, req) != 0)
		return gso_refuse(it, OFL_GSO_WHY_REQ);
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
	/* the headers must be what gso_type says (virtio_net_hdr_to_skb) */
	gt = vh.gso_type & (uint8_t)~VNET_GSO_ECN;
	if ((gt == VNET_GSO_TCPV4 && h.l3 != 4) || (gt == VNET_GSO_TCPV6 && h.l3 != 6))
		return gso_refuse(it, OFL_GSO_WHY_VNET_TYPE);
	fake = in.l2_none ? OFL_ETH_HLEN : 0;
	base = h.l4_off - fake;
	if ((vh.flags & VNET_F_NEEDS_CSUM) &&
	    (vh.csum_start != base || vh.csum_offset != (h.l4proto == GSO_PROTO_TCP ? 16u : 6u)))
		return gso_refuse(it, OFL_GSO_WHY_VNET_CSUM);
	return 0;
}
