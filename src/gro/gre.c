/*
 * gre.c - the GRE layer of GRO (ofl_gro_config.gre): TCP merged through GRE
 * as Linux 6.18 merges it in the underlay device's GRO, with no tunnel
 * device (net/ipv4/gre_offload.c gre_gro_receive and gre_gro_complete,
 * registered for IPv4 and IPv6 protocol 47).  The outer IP rules, the flow,
 * the inner rules and the outer completion are the tunnel layer's
 * (tunnel.c); here only what is GRE's:
 *   - the header: the flag word may hold the checksum (C, 0x8000) and key
 *     (K, 0x2000) bits and nothing else: a routing or sequence-number bit,
 *     a reserved flag or a version not 0 is passed on (the kernel: "only
 *     version 0 and K, C"; a sequence number would not survive GSO);
 *   - the payload type must have a GRO handler: IPv4, IPv6, or transparent
 *     Ethernet bridging (0x6558, then eth_gro_receive over the inner frame);
 *     ERSPAN and the rest are passed on;
 *   - the header's length (4, plus 4 with C, plus 4 with K) inside the
 *     packet;
 *   - with C, the checksum (over the GRE header and everything after it, no
 *     pseudo header) verified; a bad one makes the kernel flush the frame
 *     (passed on, not merged: NORMAL tun_csum);
 *   - the same flow: flags, payload type and key equal (the checksum
 *     section, checksum and reserved half, is not compared);
 *   - all of these are NORMAL tun_hdr / tun_csum.  One tunnel level: an
 *     inner packet that is itself a tunnel is not TCP to the inner parse.
 * Completion: the kernel's gre_gro_complete() only marks the encapsulation
 * and leaves the first segment's GRE checksum; here, with C, the checksum
 * is written for the merged packet as it will be once the inner TCP
 * checksum is (the sum of the headers from the GRE header to the inner TCP
 * header plus what a right TCP checksum makes the TCP segment sum to: the
 * complement of its pseudo-header sum), so no payload byte is read and the
 * packet is valid after a NIC or ofl_gro_linearize() FULL fills the inner
 * checksum.  This layer completes last, over the completed inner headers.
 */
#include <ofl/csum.h>

#include "gro/layer.h"
#include "gro/tcp.h"
#include "gro/tunnel.h"

#define GRE_F_CSUM 0x8000u
#define GRE_F_KEY 0x2000u
#define GRE_ETH_P_TEB 0x6558u
#define GRE_ETH_P_IP 0x0800u
#define GRE_ETH_P_IPV6 0x86ddu

uint32_t gro_gre_hlen(uint16_t flags)
{
	return 4u + ((flags & GRE_F_CSUM) ? 4u : 0u) + ((flags & GRE_F_KEY) ? 4u : 0u);
}

int gro_gre_parse(const struct ofl_view *v, uint32_t off, uint32_t end, uint32_t *hlen, uint16_t *et,
                  uint8_t *csum)
{
	const uint8_t *gh = v->p + off;
	uint16_t flags;
	if (off + 4u > end || off + 4u > v->len)
		return OFL_GRO_NORMAL_TUN_HDR;
	flags = ofl_get16(gh);
	*et = ofl_get16(gh + 2);
	if (flags & (uint16_t)~(GRE_F_CSUM | GRE_F_KEY))
		return OFL_GRO_NORMAL_TUN_HDR; /* routing, sequence, version, reserved */
	if (*et != GRE_ETH_P_TEB && *et != GRE_ETH_P_IP && *et != GRE_ETH_P_IPV6)
		return OFL_GRO_NORMAL_TUN_HDR; /* no GRO for the payload (ERSPAN, ...) */
	*hlen = gro_gre_hlen(flags);
	if (off + *hlen > end || off + *hlen > v->len)
		return OFL_GRO_NORMAL_TUN_HDR;
	*csum = (flags & GRE_F_CSUM) != 0;
	return -1;
}

int gro_gre_csum_ok(const struct ofl_pkt *pkt, int csum_status, const struct ofl_view *v, const struct ofl_hdrs *h)
{
	if (csum_status == OFL_CSUM_UNNECESSARY || csum_status == OFL_CSUM_PARTIAL)
		return 1;
	return gro_l4_sum_ok(pkt, csum_status, v, h, 0); /* no pseudo header */
}

/* The GRE checksum of a merged packet with C (see the top of the file). */
static void gro_gre_complete(struct gro_item *it)
{
	const struct gro_tun *t = &it->tun;
	uint8_t *gh = it->hdr + t->tun_off;
	uint32_t l4_len = it->l3_len - (uint32_t)(it->l4_off - it->l3_off);
	uint16_t tcp_sum, c;
	if (t->type != OFL_GRO_TUN_GRE || !t->ocsum)
		return;
	/* the TCP segment's sum once its checksum is right */
	tcp_sum = ofl_csum_fold(gro_pseudo_sum(it->hdr, it->l3, it->l3_off, l4_len, 6));
	gh[4] = gh[5] = 0;
	c = ofl_csum_fold(ofl_csum_partial(gh, (size_t)(it->l4_off - t->tun_off), tcp_sum));
	memcpy(gh + 4, &c, 2);
}

/* Never predicted: no plain shape, no holes. */
const struct gro_layer gro_layer_gre = {.name = "gre", .complete = gro_gre_complete};
