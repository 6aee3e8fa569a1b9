/*
 * csum.h - Internet checksum (RFC 1071) helpers, exported because drivers
 * and tests need them too.
 *
 * Sums are 32-bit ones'-complement accumulators in *memory byte order*
 * (like Linux __wsum): add buffers with ofl_csum_partial(), fold with
 * ofl_csum_fold() to get the 16-bit value to store in a header (already
 * complemented, in memory order: store it with memcpy).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_CSUM_H
#define OFL_CSUM_H

#include "ofl.h"
#include "pkt.h" /* struct ofl_slice */

#ifdef __cplusplus
extern "C" {
#endif

/** The form a packet's L4 checksum is left in: by ofl_gro_linearize() and
 *  by GSO (struct ofl_gso_req.csum). */
enum ofl_csum_mode {
	OFL_CSUM_MODE_FULL = 0,    /**< write the complete L4 checksum */
	OFL_CSUM_MODE_PARTIAL = 1, /**< leave the pseudo-header sum (see csum_start/offset) */
};

/** Add len bytes at buf (any alignment) to the accumulator sum.  If the
 *  bytes are logically at an odd offset of the checksummed data, use
 *  ofl_csum_add_at() instead. */
OFL_API uint32_t ofl_csum_partial(const void *buf, size_t len, uint32_t sum);

/** Add the sum of a block that starts at an odd (odd != 0) or even offset
 *  of the checksummed data (for buffer chains). */
OFL_API uint32_t ofl_csum_add_at(uint32_t sum, uint32_t block_sum, int odd);

/** Add the bytes of n slices, taken as one run (a GRO packet's payload, a
 *  GSO segment's), to sum; at is the run's offset in the checksummed data
 *  (its parity matters: pass the length of what sum already covers).
 *  Zero-length slices are fine; NULL s (with any n) adds nothing.  The
 *  slices are read during the call only. */
OFL_API uint32_t ofl_csum_slices(const struct ofl_slice *s, uint32_t n, uint32_t sum, size_t at);

/** Fold to 16 bits and complement: the value to store, in memory order. */
OFL_API uint16_t ofl_csum_fold(uint32_t sum);

#ifdef __cplusplus
}
#endif
#endif
