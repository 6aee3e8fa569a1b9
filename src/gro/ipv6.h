/*
 * ipv6.h - the kernel's IPv6 rules for a held flow (net/ipv6/ip6_offload.c
 * ipv6_gro_receive, include/net/gro.h): version and flow label, next header
 * and addresses are part of the flow key; traffic class or hop limit changes
 * flush; the extension headers must be byte-identical.  The length rule
 * (payload_len against the GRO length) is the IPv4 one, gro_ip_len_nomerge
 * in ipv4.h: an IPv6 frame is never of minimum size, so every mismatch is
 * refused by the parser already.
 */
#ifndef OFL_GRO_IPV6_H
#define OFL_GRO_IPV6_H

#include "gro/gro_int.h"

static inline uint32_t gro_ipv6_nomerge(const uint8_t *ip, const struct gro_item *it,
                                        uint32_t ext_len)
{
	const uint8_t *ip2 = it->hdr + it->l3_off;
	uint32_t nm = 0;
	if (((ip[0] ^ ip2[0]) & 0x0f) || ((ip[1] ^ ip2[1]) & 0xf0) || ip[7] != ip2[7])
		nm |= NM(OFL_GRO_FLUSH_TTL_TOS_DF);
	if (ext_len && memcmp(ip + 40, ip2 + 40, ext_len) != 0)
		nm |= NM(OFL_GRO_FLUSH_IP6_EXT);
	return nm;
}

/* ipv6_gro_complete (the layer's completion, ipv6.c): the merged packet's
 * payload length, 0 above 65535 as Linux BIG TCP writes it, in the IPv6
 * header at ip of a packet of l3_len bytes. */
static inline OFL_ALWAYS_INLINE void gro_ipv6_complete_len(uint8_t *ip, uint32_t l3_len)
{
	uint32_t pl = l3_len - 40u;
	/* (as a mask, not a choice: GCC wrote a choice's bytes one by one) */
	ofl_put16(ip + 4, (uint16_t)(pl & (0u - (uint32_t)(pl <= 0xffffu))));
}

static inline OFL_ALWAYS_INLINE void gro_ipv6_complete_hdr(struct gro_item *it)
{
	gro_ipv6_complete_len(it->hdr + it->l3_off, it->l3_len);
}

#endif
