/*
 * udp.h - UDP GRO (udp.c): the kernel's udp_gro_receive_segment rules for a
 * context with ofl_gro_config.udp set, reached from the full path of
 * receive.c for every frame whose IP header says UDP.
 */
#ifndef OFL_GRO_UDP_H
#define OFL_GRO_UDP_H

#include "gro/stage.h"

/* The kernel's UDP_GRO_CNT_MAX: a train is completed at 64 datagrams. */
#define GRO_UDP_CNT_MAX 64u
/* UDP GRO builds no IP packet above the legacy 64 KiB, whatever max_size
 * (skb_gro_receive lets only unencapsulated TCP grow past it). */
#define GRO_UDP_MAX_L3 65535u
/* Bit 55 of flow key word 1 (flowtab.h): the flow is UDP, so that a UDP
 * flow never meets the TCP flow of the same addresses and ports. */
#define GRO_KEY_UDP (1ull << 55)

/*
 * Offer a UDP frame (h->l4proto 17; any parse status: the IP-level refusals
 * arrive here too, so that the held train of their flow goes first).  v is
 * the view the frame was parsed over (it may be replaced by a gathered one),
 * mac the flow key's MAC bytes (receive.c), csum_status the frame's checksum
 * state as GRO sees it (COMPLETE turned NONE behind a DSA tag).  Returns an
 * enum ofl_gro_result.
 */
int gro_udp_receive(struct ofl_gro *g, const struct ofl_pkt *pkt, struct ofl_view *v, struct ofl_hdrs *h,
                    const struct rx_tag *tag, const uint8_t *mac, uint32_t total, int csum_status,
                    uint64_t now);

#endif
