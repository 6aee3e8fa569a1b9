/* mem.c - the default allocator and helpers; used at create time only. */
#include "core/mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t ofl_mul_size(size_t a, size_t b)
{
	if (a && b > SIZE_MAX / a)
		return SIZE_MAX;
	return a * b;
}

void *ofl_mem_zalloc(const struct ofl_mem *mem, size_t size, size_t align)
{
	void *p;
	if (size == SIZE_MAX || size == 0)
		return NULL;
	if (align < sizeof(void *))
		align = sizeof(void *);
	if (mem) {
		p = mem->alloc(mem->user, size, align);
	} else {
		size_t rounded = (size + align - 1) / align * align;
		p = aligned_alloc(align, rounded);
	}
	if (p)
		memset(p, 0, size);
	return p;
}

void ofl_mem_free(const struct ofl_mem *mem, void *ptr, size_t size)
{
	if (!ptr)
		return;
	if (mem)
		mem->free(mem->user, ptr, size);
	else
		free(ptr);
}
