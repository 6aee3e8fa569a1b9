/*
 * gather.h - a frame held in pieces (ofl_dsa_untagged()'s two, a list of
 * buffers) copied out whole, for the tests and the fuzz targets.  It walks
 * through the library's own cursor (src/core/cursor.h), which cursor_test
 * checks on its own against every split of a frame.
 */
#ifndef OFL_TEST_GATHER_H
#define OFL_TEST_GATHER_H

#include <ofl/pkt.h>
#include <stdint.h>

#include "core/cursor.h"

/* Copies the bytes of n buffers to out; returns how many. */
static inline uint32_t gather(const struct ofl_buf *b, unsigned n, uint8_t *out)
{
	struct ofl_cursor c = ofl_cur_bufs(b, n, 0);
	return ofl_cur_copy(&c, UINT32_MAX, out);
}

#endif
