/*
 * gro_live.h - `offload-replay gro -i IFACE OUT`: GRO on the frames of a
 * live interface, through libpcap in immediate mode ("what would GRO do on
 * this link"), with the counters printed every second.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_REPLAY_GRO_LIVE_H
#define OFL_REPLAY_GRO_LIVE_H

#include <stdint.h>
#include <stdio.h>

#include "replay.h"

struct gro_live;

/**
 * Open IFACE for capture (immediate mode, nanosecond time stamps where the
 * system has them, snap length 65600, a 32 MiB ring).  Returns a handle, or NULL with a
 * message in err (libpcap's: no such device, permission...).
 */
struct gro_live *gro_live_open(const char *iface, char *err, size_t errlen);

/** The interface's link type (DLT_ value) and snap length, and whether its
 *  time stamps are nanoseconds. */
uint32_t gro_live_linktype(const struct gro_live *l);
uint32_t gro_live_snaplen(const struct gro_live *l);
int gro_live_nano(const struct gro_live *l);
/** Frames the kernel dropped (its ring full), known after gro_live_run(). */
uint64_t gro_live_dropped(const struct gro_live *l);
/** Point every captured frame past its first skip bytes (the pseudo-header
 *  of a raw-IP link type, l3_link_skip(): a TUN device is RAW, skip 0; the
 *  "any" device LINUX_SLL, 16); the run's o->l2 is then OFL_L2_NONE.  A
 *  frame shorter than that is fed empty. */
void gro_live_skip(struct gro_live *l, unsigned skip);

/**
 * Capture until SIGINT or SIGTERM, or for seconds (0: no limit): polls of at
 * most o->burst frames (those that have arrived), each ended by
 * ofl_gro_poll_end() and a flush (nothing is held across polls: the frames
 * live in a buffer the next poll reuses, so o->flush_timeout_ns must be 0).
 * Every delivered packet goes to out (cookies are struct replay_frame
 * pointers, valid during the call), and once a second one line of counters
 * (frames in, merged, packets out, segments per GRO packet) to report.
 * The engine's final counters are left in *stats.
 * Returns 0, REPLAY_ECONFIG, or -1 with a message in err.
 */
int gro_live_run(struct gro_live *l, const struct replay_gro_opts *o, unsigned seconds,
                 replay_gro_out_fn out, void *user, FILE *report, struct ofl_gro_stats *stats,
                 char *err, size_t errlen);

void gro_live_close(struct gro_live *l);

#endif /* OFL_REPLAY_GRO_LIVE_H */
