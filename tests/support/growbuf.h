/* growbuf.h - appending to a malloc'd byte buffer that grows as needed (the
 * tests' file and seed writers); aborts when memory runs out. */
#ifndef OFL_TEST_GROWBUF_H
#define OFL_TEST_GROWBUF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Append n bytes of p to *buf, which holds *len bytes in *cap. */
static inline void growbuf_put(uint8_t **buf, size_t *len, size_t *cap, const void *p, size_t n)
{
	if (*len + n > *cap) {
		*cap = (*len + n) * 2 + 256;
		*buf = realloc(*buf, *cap);
		if (!*buf)
			abort();
	}
	memcpy(*buf + *len, p, n);
	*len += n;
}

#endif
