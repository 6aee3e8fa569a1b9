/*
 * fz.h - shared helpers of the libofl fuzz targets: a byte reader over the
 * fuzzer's input (reads past the end give zeros, never fail), invariant
 * checks that abort with a message (libFuzzer and the onefile runner both
 * report an abort as a crash), and a counting allocator for struct ofl_mem.
 *
 * Every target checks the library's own promises as it runs: conservation
 * (every cookie back exactly once, payload bytes out = in), lengths,
 * bounds of what it hands back and checksums of what it emits.
 */
#ifndef OFL_FUZZ_FZ_H
#define OFL_FUZZ_FZ_H

#include <ofl/ofl.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fz {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t fz_u8(struct fz *f)
{
	if (!f->n)
		return 0;
	f->n--;
	return *f->p++;
}

static inline uint16_t fz_u16(struct fz *f)
{
	uint16_t a = fz_u8(f);
	return (uint16_t)(a << 8 | fz_u8(f));
}

static inline uint32_t fz_u32(struct fz *f)
{
	uint32_t a = fz_u16(f);
	return a << 16 | fz_u16(f);
}

/* Take up to len bytes; returns how many (pointer in *out). */
static inline size_t fz_take(struct fz *f, size_t len, const uint8_t **out)
{
	if (len > f->n)
		len = f->n;
	*out = f->p;
	f->p += len;
	f->n -= len;
	return len;
}

/* Report a broken invariant and abort. */
void fz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 4, 5)));

#define FZ_CHECK(c) \
	do { \
		if (!(c)) \
			fz_fail(__FILE__, __LINE__, #c, "%s", ""); \
	} while (0)
#define FZ_CHECKF(c, ...) \
	do { \
		if (!(c)) \
			fz_fail(__FILE__, __LINE__, #c, __VA_ARGS__); \
	} while (0)

/* Known, reported library bugs are checked only when FZ_STRICT is set in
 * the environment (the tests over tests/fuzz/known/ set it), so that the
 * fuzzers can go on looking for new ones meanwhile. */
int fz_strict(void);

/* The state a target keeps across inputs (too big for its stack): state
 * itself once it exists, else size zeroed bytes (abort when there are
 * none).  Use: S = fz_state(S, sizeof(*S)). */
void *fz_state(void *state, size_t size);

/* Counting allocator: every block is its own malloc (ASan sees overruns),
 * size and count are tracked, and a limit can make it fail. */
struct fz_mem {
	struct ofl_mem mem;
	size_t allocs, frees;   /* calls */
	size_t live_bytes, peak_bytes;
	size_t fail_after;      /* fail the call after this many (0: never) */
};
void fz_mem_init(struct fz_mem *m);

#endif
