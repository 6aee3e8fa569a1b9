/*
 * dsa_hold.h - a new flow behind a DSA tag held by the plain shape's fill
 * (hold.c gro_hold_tagged_plain(), called by receive.c).
 */
#ifndef OFL_GRO_DSA_HOLD_H
#define OFL_GRO_DSA_HOLD_H

#include "gro/stage.h"

int gro_hold_tagged_plain(struct ofl_gro *g, const struct ofl_pkt *pkt, const struct ofl_view *v,
                          const struct ofl_hdrs *h, const struct rx_tag *tag, const struct ofl_flow_key *k,
                          uint32_t hash, uint64_t now);

#endif
