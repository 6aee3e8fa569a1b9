/*
 * dsa_hold.h - a new flow behind a DSA tag held by the plain shape's fill
 * (hold.c gro_hold_tagged_plain(), called by receive.c; its fill,
 * gro_tagged_plain_fill(), for a lone record settled: group.c).
 */
#ifndef OFL_GRO_DSA_HOLD_H
#define OFL_GRO_DSA_HOLD_H

#include "gro/stage.h"

void gro_tagged_plain_fill(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const struct ofl_view *v,
                           const struct ofl_hdrs *h, const struct rx_tag *tag, const struct ofl_flow_key *k,
                           uint32_t hash);
int gro_hold_tagged_plain(struct ofl_gro *g, const struct ofl_pkt *pkt, const struct ofl_view *v,
                          const struct ofl_hdrs *h, const struct rx_tag *tag, const struct ofl_flow_key *k,
                          uint32_t hash, uint64_t now);

/* receive.c, for group.c gro_lone_settle(): the entry a lone record
 * behind a tag (slot k: dsa_group.c) makes, filled as the one-frame path
 * holds its frame (tagged_new_flow()) but not linked; pkt (its other
 * fields from the record) gets the frame as its buffer *b.  Returns its
 * index. */
uint32_t gro_tag_lone_fill(struct ofl_gro *g, uint32_t k, struct ofl_pkt *pkt, struct ofl_buf *b);

#endif
