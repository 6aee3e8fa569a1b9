/*
 * why.c - the reasons GSO refuses a super-packet (enum ofl_gso_why): the
 * error code each goes with, its text, and how a refusal is recorded on
 * the iterator.
 */
#include <stddef.h>

#include "gso/gso_int.h"

/* The error code each reason goes with (enum ofl_gso_why). */
static const int8_t why_err[] = {
	[OFL_GSO_WHY_NONE] = 0,
	[OFL_GSO_WHY_ARG] = OFL_EINVAL,
	[OFL_GSO_WHY_REQ] = OFL_EINVAL,
	[OFL_GSO_WHY_SEG_SIZE] = OFL_EINVAL,
	[OFL_GSO_WHY_FRAG_SIZE] = OFL_EINVAL,
	[OFL_GSO_WHY_EXTRA_L2] = OFL_EINVAL,
	[OFL_GSO_WHY_VLAN_NO_L2] = OFL_EINVAL,
	[OFL_GSO_WHY_FRAME_LONG] = OFL_E2BIG,
	[OFL_GSO_WHY_SEGS] = OFL_E2BIG,
	[OFL_GSO_WHY_SLICES] = OFL_E2BIG,
	[OFL_GSO_WHY_UDP_LONG] = OFL_E2BIG,
	[OFL_GSO_WHY_NOT_IP] = OFL_EPROTO,
	[OFL_GSO_WHY_TYPE] = OFL_EPROTO,
	[OFL_GSO_WHY_TCP_HDR] = OFL_EPROTO,
	[OFL_GSO_WHY_UDP_HDR] = OFL_EPROTO,
	[OFL_GSO_WHY_LENGTHS] = OFL_EBADMSG,
	[OFL_GSO_WHY_UDP_LEN] = OFL_EBADMSG,
	[OFL_GSO_WHY_JUMBO] = OFL_EBADMSG,
	[OFL_GSO_WHY_VLANS] = OFL_ENOTSUP,
	[OFL_GSO_WHY_HDR_LONG] = OFL_ENOTSUP,
	[OFL_GSO_WHY_FRAGMENT] = OFL_ENOTSUP,
	[OFL_GSO_WHY_IP6_EXT] = OFL_ENOTSUP,
	[OFL_GSO_WHY_ROUTING] = OFL_ENOTSUP,
	[OFL_GSO_WHY_FRAG_EXT] = OFL_ENOTSUP,
	[OFL_GSO_WHY_TUNNEL] = OFL_ENOTSUP,
	[OFL_GSO_WHY_VNET_NONE] = OFL_ENOTSUP,
	[OFL_GSO_WHY_VNET_SHORT] = OFL_EPROTO,
	[OFL_GSO_WHY_VNET_TYPE] = OFL_EPROTO,
	[OFL_GSO_WHY_VNET_CSUM] = OFL_EPROTO,
	[OFL_GSO_WHY_TUN_REQ] = OFL_EINVAL,
	[OFL_GSO_WHY_TUN_HDR] = OFL_EPROTO,
	[OFL_GSO_WHY_TUN_INNER] = OFL_EPROTO,
	[OFL_GSO_WHY_TUN_LENGTHS] = OFL_EBADMSG,
	[OFL_GSO_WHY_VNET_TUNNEL] = OFL_ENOTSUP,
};

static const char *const why_text[] = {
	[OFL_GSO_WHY_NONE] = "no refusal",
	[OFL_GSO_WHY_ARG] = "bad argument (NULL, no buffer, NULL buffer with a length)",
	[OFL_GSO_WHY_REQ] = "bad request (version, type, checksum mode, flags or VLAN protocol)",
	[OFL_GSO_WHY_SEG_SIZE] = "segment size 0 or more than one IP packet can carry",
	[OFL_GSO_WHY_FRAG_SIZE] = "fragment size not a multiple of 8, under 16 or over an IP packet",
	[OFL_GSO_WHY_EXTRA_L2] = "extra L2 bytes too long or beyond the L2 header",
	[OFL_GSO_WHY_VLAN_NO_L2] = "VLAN insertion asked for a packet without Ethernet header",
	[OFL_GSO_WHY_FRAME_LONG] = "frame longer than 16 MiB",
	[OFL_GSO_WHY_SEGS] = "more segments than the limit (UDP L4: 128, as Linux)",
	[OFL_GSO_WHY_SLICES] = "a segment would need more than 32 payload slices",
	[OFL_GSO_WHY_UDP_LONG] = ("UDP datagram longer than its length fields can say (over 65535 "
	                          "bytes of UDP, or of IPv4 packet): Linux refuses to send it (EMSGSIZE)"),
	[OFL_GSO_WHY_NOT_IP] = "headers do not parse as TCP/UDP over IPv4/IPv6",
	[OFL_GSO_WHY_TYPE] = "L4 protocol is not the requested type's",
	[OFL_GSO_WHY_TCP_HDR] = "TCP header length wrong or cut",
	[OFL_GSO_WHY_UDP_HDR] = "UDP header cut",
	[OFL_GSO_WHY_LENGTHS] = "payload does not match the IP length",
	[OFL_GSO_WHY_UDP_LEN] = "UDP length does not match the IP length",
	[OFL_GSO_WHY_JUMBO] = "IPv6 Jumbo option does not match the frame",
	[OFL_GSO_WHY_VLANS] = "three or more VLAN tags",
	[OFL_GSO_WHY_HDR_LONG] = "headers longer than 256 bytes",
	[OFL_GSO_WHY_FRAGMENT] = "already an IP fragment",
	[OFL_GSO_WHY_IP6_EXT] = "IPsec or unknown IPv6 extension header",
	[OFL_GSO_WHY_ROUTING] = "IPv6 routing header",
	[OFL_GSO_WHY_FRAG_EXT] = "IPv6 extension headers with UDP fragmentation",
	[OFL_GSO_WHY_TUNNEL] = "tunnel (IP-in-IP, GRE, VXLAN/GENEVE port)",
	[OFL_GSO_WHY_VNET_NONE] = "virtio_net_hdr asks for no GSO or has unknown gso_type bits",
	[OFL_GSO_WHY_VNET_SHORT] = "shorter than its virtio_net_hdr",
	[OFL_GSO_WHY_VNET_TYPE] = "virtio gso_type disagrees with the headers, or gso_size 0",
	[OFL_GSO_WHY_VNET_CSUM] = "virtio csum_start/csum_offset not at the L4 checksum",
	[OFL_GSO_WHY_TUN_REQ] = ("tunnel request not understood (unknown tunnel or tun_csum, tun_csum "
	                         "with GRE/IP-in-IP, UDP tunnel without an even inner_off, outer fixed "
	                         "ID without a tunnel, type not TCP)"),
	[OFL_GSO_WHY_TUN_HDR] = ("outer or tunnel headers are not the requested tunnel's, or are cut "
	                         "(outer protocol, VXLAN flags, Geneve version or options past the "
	                         "packet, GRE flags, payload type, outer IPv6 extension headers)"),
	[OFL_GSO_WHY_TUN_INNER] = ("inner packet not TCP over IPv4/IPv6 where expected (inner_off, "
	                           "inner UDP, nested tunnel, IP version against its type)"),
	[OFL_GSO_WHY_TUN_LENGTHS] = "outer IP or UDP length does not match the frame",
	[OFL_GSO_WHY_VNET_TUNNEL] = ("virtio: GRE/IP-in-IP have no virtio_net_hdr form; a UDP tunnel "
	                             "GSO type needs the 24-byte header"),
};

int gso_refuse(struct gso_it *it, unsigned why)
{
	it->why = (uint8_t)why;
	it->done = 1;
	it->fend = 0; /* no fast window (fast.h) */
	return why < sizeof(why_err) ? why_err[why] : OFL_EINVAL;
}

int ofl_gso_why(const struct ofl_gso_iter *itp)
{
	const struct gso_it *it = gso_itc(itp);
	return it ? it->why : 0;
}

const char *ofl_gso_why_str(int why)
{
	if (why < 0 || (size_t)why >= sizeof(why_text) / sizeof(why_text[0]))
		return "unknown reason";
	return why_text[why];
}
