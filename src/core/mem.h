/* mem.h - create-time allocation through the caller's struct ofl_mem. */
#ifndef OFL_CORE_MEM_H
#define OFL_CORE_MEM_H

#include <ofl/ofl.h>

/* Zeroed, aligned allocation; NULL on failure or size overflow. */
void *ofl_mem_zalloc(const struct ofl_mem *mem, size_t size, size_t align);
void ofl_mem_free(const struct ofl_mem *mem, void *ptr, size_t size);
/* a * b, or SIZE_MAX on overflow. */
size_t ofl_mul_size(size_t a, size_t b);

#endif
