/*
 * burstdiff.h - check gro.h's promise that ofl_gro_receive_burst() makes the
 * same decisions, deliveries and counters as one ofl_gro_receive() per frame.
 *
 * Linked into a test binary with
 *     -Wl,--wrap=ofl_gro_create,--wrap=ofl_gro_destroy,--wrap=ofl_gro_receive,
 *     --wrap=ofl_gro_receive_burst,--wrap=ofl_gro_poll_end,--wrap=ofl_gro_flush,
 *     --wrap=ofl_gro_flush_older
 * (CMake: ofl_add_burst_diff_test in tests/CMakeLists.txt), it records every
 * call the test makes on every context it creates: each taken frame (bytes,
 * buffer layout, checksum state, cookie) with its time, each poll end and
 * flush.  The test itself runs unchanged: its own deliver callback still sees
 * everything.  When the test destroys the context, the recorded calls are
 * played again on fresh contexts with the same configuration:
 *   - exactly as recorded (the recording is complete and GRO deterministic);
 *   - for each burst size B of bd_burst_sizes: runs of consecutive frames,
 *     cut into chunks of at most B, once through ofl_gro_receive_burst()
 *     (one call per chunk) and once through ofl_gro_receive() (one call per
 *     frame, every frame of a chunk at the chunk's time, the only input a
 *     burst call can express).
 * Each pair must deliver the same packets in the same delivery lists: header
 * bytes, slices (bytes, packet and buffer index), cookies, seg_count,
 * seg_size, offsets, flags, gso_type, VLAN, hash, first_ns, DSA metadata;
 * and end with the same counters (all but lookups, lookup_probes and
 * merged_fast, which gro.h lets differ, and api_errors: refused calls are not
 * recorded).  A difference fails the running
 * Check test with the first differing packet named.
 */
#ifndef OFL_TEST_BURSTDIFF_H
#define OFL_TEST_BURSTDIFF_H

#include <stddef.h>

/* How many contexts were compared so far, and how many frames they took. */
struct bd_totals {
	size_t contexts;
	size_t frames;
	size_t replays; /* burst/single pairs compared */
};
void bd_get_totals(struct bd_totals *t);

#endif
