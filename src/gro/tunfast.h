/*
 * tunfast.h - header prediction and the train for tunnel flows (tunfast.c):
 * TCP through VXLAN or Geneve (no options) over untagged Ethernet, outer
 * IPv4 (no options) or IPv6 (no extension headers) with a zero UDP
 * checksum, inner Ethernet (untagged) and IPv4 or IPv6 as for a plain flow.
 * Such an entry has fast GRO_FAST_TUN (tunnel.c decides when it holds it);
 * the full path (tunnel.c) still takes every frame these refuse.
 */
#ifndef OFL_GRO_TUNFAST_H
#define OFL_GRO_TUNFAST_H

#include "gro/gro_int.h"

/* The tunnel prediction masks of the context (create time). */
void gro_tun_masks(struct ofl_gro *g);

/* GRO_FAST_TUN when the tunnel entry just held (it->tun filled, from frame
 * pkt) has the shape above, else 0. */
uint8_t gro_tun_fast_of(const struct gro_item *it, const struct ofl_pkt *pkt);

/* Header prediction of a frame against a GRO_FAST_TUN entry (the caller
 * checked: checksum verified, no hardware VLAN, total <= 0xffff): 1 when
 * it merged the frame, as the full path would have, 0 when the full path
 * decides (nothing changed but the entry's fixed-ID decisions, which the
 * full path takes the same way). */
int gro_predict_tun(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const uint8_t *p, uint32_t total);

/* The train of a GRO_FAST_TUN entry: frames [i, n) while each is its next
 * full-size segment in one buffer (header prediction's checks, as one
 * masked compare and the fields that advance).  Returns how many it
 * merged; the rest are left to the caller. */
unsigned gro_train_tun(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts, unsigned i, unsigned n);

/* A frame of a burst grouped by flow (group.c: one buffer, checksum
 * verified, no hardware VLAN, b0 <= 0xffff bytes at p): 1 when it is a
 * VXLAN or Geneve (no options) frame over untagged Ethernet, outer IPv4
 * (no options) or IPv6, UDP checksum 0, and a plain inner frame (core/parse.h
 * ofl_parse_plain()), all lengths ending at the frame's end: what
 * tunnel.c's full path holds as a new flow, or passes on (no payload, PSH,
 * ...).  Then *r is its record (inner offsets, payload, type) and *addr,
 * *ports the inner addresses folded and ports, for its group.  0: not
 * that shape (nothing written). */
int gro_tun_lone_parse(const struct ofl_gro *g, const uint8_t *p, uint32_t b0, struct gro_brec *r, uint64_t *addr,
                       uint32_t *ports);

#endif
