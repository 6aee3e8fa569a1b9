/*
 * sized.h - copying a result struct into a caller's struct of the caller's
 * size (the ABI rule of every get function that takes a size: a caller built
 * against an older header has a shorter struct, one built against a newer
 * header a longer one; the fields only ever grow at the end).
 */
#ifndef OFL_CORE_SIZED_H
#define OFL_CORE_SIZED_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Write exactly dst_size bytes at dst: the first bytes of src (src_size
 * bytes, the library's struct), then zeroes where dst is longer. */
static inline void ofl_copy_sized(void *dst, size_t dst_size, const void *src, size_t src_size)
{
	if (dst_size <= src_size) {
		memcpy(dst, src, dst_size);
	} else {
		memcpy(dst, src, src_size);
		memset((uint8_t *)dst + src_size, 0, dst_size - src_size);
	}
}

#endif /* OFL_CORE_SIZED_H */
