/* fz.c - see fz.h */
#include "fz.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "\n*** libofl invariant broken at %s:%d: %s ", file, line, cond);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}

int fz_strict(void)
{
	static int v = -1;
	if (v < 0)
		v = getenv("FZ_STRICT") != NULL;
	return v;
}

void *fz_state(void *state, size_t size)
{
	if (!state)
		state = calloc(1, size);
	if (!state)
		abort();
	return state;
}

static void *fz_alloc(void *user, size_t size, size_t align)
{
	struct fz_mem *m = user;
	void *p;
	FZ_CHECK(size > 0);
	FZ_CHECK(align > 0 && (align & (align - 1)) == 0);
	if (m->fail_after && m->allocs + 1 >= m->fail_after) {
		m->allocs++;
		return NULL;
	}
	if (align < sizeof(void *))
		align = sizeof(void *);
	p = aligned_alloc(align, (size + align - 1) / align * align);
	if (!p)
		return NULL;
	m->allocs++;
	m->live_bytes += size;
	if (m->live_bytes > m->peak_bytes)
		m->peak_bytes = m->live_bytes;
	return p;
}

static void fz_free(void *user, void *ptr, size_t size)
{
	struct fz_mem *m = user;
	if (!ptr)
		return;
	FZ_CHECKF(size <= m->live_bytes, "free of %zu bytes, %zu live", size, m->live_bytes);
	m->frees++;
	m->live_bytes -= size;
	free(ptr);
}

void fz_mem_init(struct fz_mem *m)
{
	memset(m, 0, sizeof(*m));
	m->mem.user = m;
	m->mem.alloc = fz_alloc;
	m->mem.free = fz_free;
}
