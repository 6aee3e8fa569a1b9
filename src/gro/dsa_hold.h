/*
 * dsa_hold.h - a new flow behind a DSA tag held by the plain shape's fill
 * (hold.c gro_hold_tagged_plain(), called by receive.c and dsa_receive.c; its fill,
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

/* dsa_receive.c, for receive.c's fast path: a frame behind a DSA tag of a
 * flow held and predicted behind its tag, not the last entry, merged
 * through the recent-flows cache before any decode; 1 when it merged the
 * frame, else 0 with nothing changed. */
int gro_tag_cached(struct ofl_gro *g, const struct ofl_pkt *pkt, uint32_t total);

/* dsa_receive.c, for receive.c's full path right after the tag's decode
 * (tag): a new flow held without a parse when its untagged frame is plain
 * TCP of the held shape; OFL_GRO_HELD, or -1 with nothing changed (the full
 * path decides). */
int gro_tag_new_flow(struct ofl_gro *g, const struct ofl_pkt *pkt, const struct rx_tag *tag, uint64_t now);

/* dsa_receive.c, for group.c gro_lone_settle(): the entry a lone record
 * behind a tag (slot k: dsa_group.c) makes, filled as the one-frame path
 * holds its frame (gro_tag_new_flow()) but not linked; pkt (its other
 * fields from the record) gets the frame as its buffer *b.  Returns its
 * index. */
uint32_t gro_tag_lone_fill(struct ofl_gro *g, uint32_t k, struct ofl_pkt *pkt, struct ofl_buf *b);

/* dsa_receive.c, for dsa_weave.c: frame pkt of a new flow held as
 * gro_receive() holds it right after its tag is decoded when nothing of
 * its flow is held (gro_tag_new_flow(): untagged mode, one buffer of at
 * most 0xffff bytes, checksum verified, no hardware VLAN, a tag that
 * decodes, not a control frame, plain TCP behind it with payload and no
 * flag that passes it on, within the byte bound, its flow not held):
 * OFL_GRO_HELD (g->last its entry); else -1, nothing changed. */
int gro_tag_hold(struct ofl_gro *g, const struct ofl_pkt *pkt, uint64_t now);

/* dsa_weave.c: the fresh weave behind a tag of a burst that arrived with
 * nothing held (untagged mode), from frame 0; returns how many frames it
 * took (dsa_group.c gro_tag_group()). */
unsigned gro_tag_weave(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now);

/* dsa_receive.c, for dsa_run.c: the frame a run behind a tag left when its
 * entry idx filled up (a full segment of one buffer, its checksum verified
 * by the NIC, that repeats the entry's tag bytes and passed the run's
 * checks, so mergeable but for the size): entry idx completed for the size
 * and the frame held as the flow's next entry, as the burst loop would
 * (gro_tag_new_flow(): its flow left the table with that entry); returns
 * it, or GRO_NONE with nothing done. */
uint32_t gro_tag_renew(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint64_t now);

/* gro_train() of an entry predicted behind a tag (rawpre_len set):
 * dsa_run.c's run of its full segments, then merge.c's tagged train
 * (gro_train_tagged_rest(): the rules one frame at a time) from the frame
 * the run stopped at. */
unsigned gro_train_tagged(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts, unsigned i, unsigned n,
                          uint64_t now);
unsigned gro_train_tagged_rest(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts, unsigned i, unsigned n,
                               uint64_t now);

#endif
