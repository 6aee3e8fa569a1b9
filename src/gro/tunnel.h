/*
 * tunnel.h - GRO through tunnels (tunnel.c): VXLAN, Geneve and VXLAN-GPE
 * (vxlan_gpe.c) on the ports ofl_gro_config names, reached from the full
 * path of receive.c for every UDP frame to such a port, IP-in-IP (ofl_gro_config.ipip) for every
 * frame whose IP header says IPv4 (4) or IPv6 (41) next, and GRE (gre.c,
 * ofl_gro_config.gre) for protocol 47.  A tunnel flow of the shape
 * tunfast.h names is predicted and trained there (item.fast GRO_FAST_TUN);
 * the rest take this full path only.
 */
#ifndef OFL_GRO_TUNNEL_H
#define OFL_GRO_TUNNEL_H

#include "gro/stage.h"

/* Bit 54 of flow key word 1 (flowtab.h): the flow is tunnelled, so that it
 * never meets a plain flow of the same inner headers; the outer headers
 * and the tunnel header are folded into word 8 (tunnel.c). */
#define GRO_KEY_TUN (1ull << 54)

/* The tunnel ports of a version 4 config (and, from version 8, the
 * VXLAN-GPE ones): 0 when valid, else -1. */
int gro_tunnel_check_config(const struct ofl_gro_config *cfg);

/* Does the context merge through any UDP tunnel (one byte, set at create
 * from the three port lists)? */
static inline int gro_tunnel_on(const struct ofl_gro *g)
{
	return g->udp_tun;
}

/* The tunnel type of a UDP destination port (host order): an enum
 * ofl_gro_tun_type, 0 for none. */
static inline unsigned gro_tun_port(const struct ofl_gro *g, uint16_t port)
{
	unsigned i;
	for (i = 0; i < g->cfg.vxlan_nports; i++)
		if (g->cfg.vxlan_ports[i] == port)
			return OFL_GRO_TUN_VXLAN;
	for (i = 0; i < g->cfg.geneve_nports; i++)
		if (g->cfg.geneve_ports[i] == port)
			return OFL_GRO_TUN_GENEVE;
	for (i = 0; i < g->cfg.vxlan_gpe_nports; i++)
		if (g->cfg.vxlan_gpe_ports[i] == port)
			return OFL_GRO_TUN_VXLAN_GPE;
	return 0;
}

/*
 * The tunnel of a UDP frame (h->l4proto 17, any parse status) by its
 * destination port: an enum ofl_gro_tun_type, 0 for none (then it goes on
 * as any UDP frame).  v may be replaced by a gathered view.
 */
unsigned gro_tunnel_of(struct ofl_gro *g, const struct ofl_pkt *pkt, struct ofl_view *v, const struct ofl_hdrs *h,
                       uint32_t total);

/*
 * Offer a frame to a tunnel port (type from gro_tunnel_of()), or (type
 * OFL_GRO_TUN_IPIP) an IP-in-IP frame, or (OFL_GRO_TUN_GRE) a GRE one; h is the
 * parse of its outer headers, v the view it was parsed over, csum_status
 * the frame's checksum state.  Returns an enum ofl_gro_result.
 */
int gro_tunnel_receive(struct ofl_gro *g, const struct ofl_pkt *pkt, struct ofl_view *v, const struct ofl_hdrs *h,
                       unsigned type, const struct rx_tag *tag, uint32_t total, int csum_status, uint64_t now);

/* Does the tunnel have an outer UDP header (VXLAN, Geneve, VXLAN-GPE)? */
static inline int gro_tun_udp(unsigned type)
{
	/* one bit per UDP tunnel type: one shift */
	return type < 8u && ((1u << OFL_GRO_TUN_VXLAN | 1u << OFL_GRO_TUN_GENEVE | 1u << OFL_GRO_TUN_VXLAN_GPE) >> type) & 1u;
}

/* gre.c: the GRE header at off of v (the outer IP payload, which ends at
 * end).  Returns -1 when GRO takes it (*hlen its length, *et its payload
 * type, *csum its C bit), else an enum ofl_gro_normal_reason. */
int gro_gre_parse(const struct ofl_view *v, uint32_t off, uint32_t end, uint32_t *hlen, uint16_t *et,
                  uint8_t *csum);
/* vxlan_gpe.c: the 8-byte VXLAN-GPE header at vh.  Returns -1 when GRO
 * takes it (*et the EtherType of its next protocol: IPv4, IPv6, or 0x6558
 * for Ethernet), else an enum ofl_gro_normal_reason. */
int gro_gpe_parse(const uint8_t *vh, uint16_t *et);
/* The length of a GRE header of these flags (C and K sections). */
uint32_t gro_gre_hlen(uint16_t flags);
/* Is a GRE checksum (the header at h->l4_off) right?  1 or 0. */
int gro_gre_csum_ok(const struct ofl_pkt *pkt, int csum_status, const struct ofl_view *v, const struct ofl_hdrs *h);

/* The entry a lone record through a tunnel (group.c, one buffer, a UDP
 * tunnel of type type) becomes: allocated and filled as
 * gro_tunnel_receive() holds a new flow, not linked anywhere.  Returns it. */
uint32_t gro_tunnel_fill_lone(struct ofl_gro *g, const struct ofl_pkt *pkt, unsigned type);

#endif
