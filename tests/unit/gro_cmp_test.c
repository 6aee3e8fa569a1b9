/*
 * gro_cmp_test.c - header prediction's masked compare (src/gro/cmp.h): the
 * scalar version and every vector version this build and this CPU have
 * (SSE2, AVX2 when the CPU runs it, NEON) give the answer of a byte-by-byte
 * reference for every allowed start (0, 12) and header length (54..128),
 * with a difference at every byte under every one-byte mask and its
 * complement, and on random headers and masks.  The buffers are exactly hl
 * bytes long (ASan: no function reads past the header).  The library uses
 * one of these (gro_cmp(): vector unless -DOFL_SIMD=OFF); this test calls
 * each of them directly, so both paths run in every build.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gro/cmp.h"
#include "harness.h"

typedef int (*cmp_fn)(const uint8_t *, const uint8_t *, const uint8_t *, uint32_t, uint32_t);

#if defined(GRO_CMP_HAVE_AVX2)
static GRO_TARGET_AVX2 int cmp_avx2(const uint8_t *p, const uint8_t *h, const uint8_t *m, uint32_t from,
                                    uint32_t hl)
{
	return gro_cmp_avx2(p, h, m, from, hl);
}
#endif

/* The versions to check, the scalar one first. */
static unsigned versions(cmp_fn *f, const char **name)
{
	unsigned n = 0;
	f[n] = gro_cmp_scalar;
	name[n++] = "scalar";
#if defined(GRO_CMP_HAVE_SSE2)
	f[n] = gro_cmp_sse2;
	name[n++] = "sse2";
#endif
#if defined(GRO_CMP_HAVE_AVX2)
	if (gro_cpu_avx2()) {
		f[n] = cmp_avx2;
		name[n++] = "avx2";
	}
#endif
#if defined(GRO_CMP_HAVE_NEON)
	f[n] = gro_cmp_neon;
	name[n++] = "neon";
#endif
	return n;
}

static int reference(const uint8_t *p, const uint8_t *h, const uint8_t *m, uint32_t from, uint32_t hl)
{
	for (uint32_t o = from; o < hl; o++)
		if ((p[o] ^ h[o]) & m[o])
			return 1;
	return 0;
}

/* xorshift: reproducible random bytes */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

struct bufs {
	uint8_t *p, *h, *m;
};

static void check_all(const struct bufs *b, uint32_t from, uint32_t hl, const char *what, uint32_t j)
{
	cmp_fn f[4];
	const char *name[4];
	unsigned n = versions(f, name);
	int want = reference(b->p, b->h, b->m, from, hl);
	for (unsigned k = 0; k < n; k++) {
		int got = f[k](b->p, b->h, b->m, from, hl);
		if (got != want)
			ck_abort_msg("%s: from %u hl %u %s (byte %u): %d, reference %d", name[k], from, hl, what, j,
			             got, want);
	}
}

START_TEST(cmp_every_length_byte_mask)
{
	uint64_t s = 0x9e3779b97f4a7c15ull;
	unsigned checked = 0;
	for (uint32_t from = 0; from <= 12; from += 12)
		for (uint32_t hl = GRO_CMP_MIN; hl <= GRO_CMP_MAX; hl++) {
			struct bufs b = {malloc(hl), malloc(hl), malloc(hl)};
			ck_assert(b.p && b.h && b.m);
			for (uint32_t o = 0; o < hl; o++)
				b.h[o] = b.p[o] = (uint8_t)rnd(&s);
			memset(b.m, 0xff, hl);
			check_all(&b, from, hl, "equal", 0);
			for (uint32_t j = 0; j < hl; j++) {
				uint8_t x = (uint8_t)(1u << (rnd(&s) & 7));
				b.p[j] ^= x; /* one bit differs, at byte j */
				memset(b.m, 0xff, hl);
				check_all(&b, from, hl, "all bytes", j);
				b.m[j] = 0;
				check_all(&b, from, hl, "all but the byte", j);
				memset(b.m, 0, hl);
				b.m[j] = 0xff;
				check_all(&b, from, hl, "only the byte", j);
				b.m[j] = (uint8_t)~x;
				check_all(&b, from, hl, "the byte but the bit", j);
				b.m[j] = 0;
				b.m[hl - 1 - j] |= 0xff;
				check_all(&b, from, hl, "only the mirror byte", j);
				b.p[j] ^= x;
				checked += 5;
			}
			free(b.p);
			free(b.h);
			free(b.m);
		}
	ck_assert_uint_eq(checked, 2u * 5u * (54u + 128u) * 75u / 2u);
}
END_TEST

/* Random headers, masks and differences (several bytes, any bits). */
START_TEST(cmp_random)
{
	uint64_t s = 0x0123456789abcdefull;
	unsigned ones = 0, zeros = 0;
	for (unsigned t = 0; t < 40000; t++) {
		uint32_t from = (rnd(&s) & 1) ? 12 : 0;
		uint32_t hl = GRO_CMP_MIN + (uint32_t)(rnd(&s) % (GRO_CMP_MAX - GRO_CMP_MIN + 1));
		struct bufs b = {malloc(hl), malloc(hl), malloc(hl)};
		unsigned ndiff = (unsigned)(rnd(&s) % 4);
		ck_assert(b.p && b.h && b.m);
		for (uint32_t o = 0; o < hl; o++) {
			uint64_t r = rnd(&s);
			b.h[o] = b.p[o] = (uint8_t)r;
			/* byte masks as the library builds them, or any bits */
			b.m[o] = (t & 1) ? (uint8_t)(r >> 8) : (r >> 8) % 8 ? 0xff : 0;
		}
		for (unsigned d = 0; d < ndiff; d++)
			b.p[rnd(&s) % hl] ^= (uint8_t)(rnd(&s) | 1);
		check_all(&b, from, hl, "random", t);
		if (reference(b.p, b.h, b.m, from, hl))
			ones++;
		else
			zeros++;
		free(b.p);
		free(b.h);
		free(b.m);
	}
	/* both answers were exercised many times */
	ck_assert_uint_gt(ones, 10000);
	ck_assert_uint_gt(zeros, 10000);
}
END_TEST

/* Which versions ran (for the log), and the library's choice among them. */
START_TEST(cmp_versions_listed)
{
	cmp_fn f[4];
	const char *name[4];
	unsigned n = versions(f, name);
	printf("gro_cmp_test: versions checked:");
	for (unsigned k = 0; k < n; k++)
		printf(" %s", name[k]);
	printf("\n");
	ck_assert_uint_ge(n, 1);
	ck_assert(f[0] == gro_cmp_scalar);
}
END_TEST

int main(void)
{
	const TTest *tests[] = {cmp_every_length_byte_mask, cmp_random, cmp_versions_listed};
	return h_run_tests("gro_cmp", tests, sizeof tests / sizeof tests[0]);
}
