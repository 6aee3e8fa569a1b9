/* flowtab_test.c - the flow table: insert/find/remove against a model,
 * backward-shift deletion, and probe counts for flows crafted to collide
 * under an unkeyed hash (hash flooding). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/flowtab.h"
#include "harness.h"

#define N 1024

static struct ofl_flow_key keys[4 * N];
static uint32_t hashes[4 * N];

static const struct ofl_flow_key *keyof(void *ctx, uint32_t v)
{
	(void)ctx;
	return &keys[v];
}

/* A table for max_entries flows keyed with {k0, k1}, in memory the
 * caller frees. */
static void *table(struct ofl_flowtab *t, unsigned max_entries, uint64_t k0, uint64_t k1)
{
	uint32_t nslots;
	void *mem = malloc(ofl_flowtab_size(max_entries, &nslots));
	uint64_t key[2] = {k0, k1};
	ck_assert_ptr_nonnull(mem);
	ofl_flowtab_init(t, mem, nslots, key);
	ck_assert_uint_eq(t->mask + 1u, nslots);
	return mem;
}

START_TEST(model)
{
	struct ofl_flowtab t;
	void *mem = table(&t, N, 1, 2);
	uint64_t probes = 0;
	unsigned char in[N] = {0};
	unsigned i, r, seedr = 3;
	ck_assert_uint_ge(t.mask + 1u, 2 * N); /* slots */
	for (i = 0; i < N; i++) {
		memset(&keys[i], 0, sizeof(keys[i]));
		keys[i].w[1] = 4ull << 56;
		keys[i].w[2] = (uint64_t)i << 32;
		hashes[i] = ofl_flow_hash(&t, &keys[i]);
	}
	for (r = 0; r < 20000; r++) {
		seedr = seedr * 1103515245u + 12345u;
		i = (seedr >> 8) % N;
		if (in[i]) {
			ck_assert_uint_eq(ofl_flowtab_find(&t, hashes[i], &keys[i], keyof, NULL, &probes), i);
			ck_assert_int_eq(ofl_flowtab_remove(&t, hashes[i], i), 0);
			in[i] = 0;
		} else if (t.count < N) {
			ck_assert_uint_eq(ofl_flowtab_find(&t, hashes[i], &keys[i], keyof, NULL, &probes),
			                  UINT32_MAX);
			ofl_flowtab_insert(&t, hashes[i], i);
			in[i] = 1;
		}
	}
	for (i = 0; i < N; i++)
		ck_assert_uint_eq(ofl_flowtab_find(&t, hashes[i], &keys[i], keyof, NULL, &probes),
		                  in[i] ? i : UINT32_MAX);
	ck_assert_int_eq(ofl_flowtab_remove(&t, 12345, 77777), -1);
	free(mem);
}
END_TEST

START_TEST(flooding_resistance)
{
	/* Keys that differ only in the bits an unkeyed table would ignore
	 * (same low bits of a plain sum of the words): with the per-context key
	 * they spread, so the average probe count stays small. */
	struct ofl_flowtab t;
	void *mem = table(&t, N, 0x1234, 0x5678);
	uint64_t probes = 0;
	unsigned i;
	for (i = 0; i < N; i++) {
		uint32_t hi = i << 16; /* low 16 bits of every word equal */
		memset(&keys[i], 0, sizeof(keys[i]));
		keys[i].w[1] = 6ull << 56;
		keys[i].w[3] = hi;
		hashes[i] = ofl_flow_hash(&t, &keys[i]);
		ofl_flowtab_insert(&t, hashes[i], i);
	}
	for (i = 0; i < N; i++)
		ck_assert_uint_eq(ofl_flowtab_find(&t, hashes[i], &keys[i], keyof, NULL, &probes), i);
	/* half full, linear probing: expected ~1.5 probes per hit; allow 3 */
	ck_assert_uint_le(probes, 3 * N);
	free(mem);
}
END_TEST

START_TEST(key_changes_hash)
{
	struct ofl_flowtab a, b;
	void *ma = table(&a, 64, 1, 1), *mb = table(&b, 64, 1, 2);
	unsigned i, same = 0;
	for (i = 0; i < 256; i++) {
		memset(&keys[i], 0, sizeof(keys[i]));
		keys[i].w[2] = (uint64_t)i << 32;
		same += ofl_flow_hash(&a, &keys[i]) == ofl_flow_hash(&b, &keys[i]);
	}
	ck_assert_uint_lt(same, 4);
	free(ma);
	free(mb);
}
END_TEST

/* The IPv4 shortcut is the same function: words 4-7 zero give the full
 * hash's value, for random words elsewhere and different seeds; and a key
 * with any of words 4-7 set differs from what the shortcut would say. */
START_TEST(hash_v4_same_value)
{
	struct ofl_flowtab t;
	uint32_t nslots;
	size_t sz = ofl_flowtab_size(64, &nslots);
	void *mem = malloc(sz);
	uint64_t x = 0x243f6a8885a308d3ull;
	unsigned seed, i, j, differ = 0;
	for (seed = 0; seed < 8; seed++) {
		uint64_t s[2] = {seed, seed * 7 + 1};
		ofl_flowtab_init(&t, mem, nslots, s);
		for (i = 0; i < 500; i++) {
			struct ofl_flow_key k;
			for (j = 0; j < OFL_KEY_WORDS; j++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				k.w[j] = j >= 4 && j < 8 ? 0 : x;
			}
			ck_assert_uint_eq(ofl_flow_hash_v4(&t, &k), ofl_flow_hash(&t, &k));
			k.w[4 + i % 4] = x | 1;
			differ += ofl_flow_hash_v4(&t, &k) != ofl_flow_hash(&t, &k);
		}
	}
	ck_assert_uint_ge(differ, 3990);
	free(mem);
}
END_TEST

/* clear: nothing is found after it, and the table takes entries again */
START_TEST(clear_empties)
{
	struct ofl_flowtab t;
	void *mem = table(&t, 64, 5, 6);
	uint64_t probes = 0;
	uint32_t i;
	for (i = 0; i < 64; i++) {
		memset(&keys[i], 0, sizeof(keys[i]));
		keys[i].w[2] = (uint64_t)i << 32;
		hashes[i] = ofl_flow_hash(&t, &keys[i]);
		ofl_flowtab_insert(&t, hashes[i], i);
	}
	ck_assert_uint_eq(t.count, 64);
	ofl_flowtab_clear(&t);
	ck_assert_uint_eq(t.count, 0);
	for (i = 0; i < 64; i++)
		ck_assert_uint_eq(ofl_flowtab_find(&t, hashes[i], &keys[i], keyof, NULL, &probes), UINT32_MAX);
	ofl_flowtab_insert(&t, hashes[7], 7);
	ck_assert_uint_eq(ofl_flowtab_find(&t, hashes[7], &keys[7], keyof, NULL, &probes), 7);
	free(mem);
}
END_TEST

/* Probe counts, exactly: a miss on an empty home slot (told without the
 * chain walk: flowtab.h) is one probe, a chain walked counts each slot
 * looked at, a hit on the home slot one; the insert goes past a taken
 * home slot. */
START_TEST(probe_counts)
{
	struct ofl_flowtab t;
	void *mem = table(&t, 8, 7, 8); /* 16 slots */
	uint64_t probes = 0;
	uint32_t i;
	for (i = 0; i < 3; i++) {
		memset(&keys[i], 0, sizeof(keys[i]));
		keys[i].w[2] = (uint64_t)(i + 1) << 32;
	}
	ck_assert_uint_eq(ofl_flowtab_find(&t, 5, &keys[0], keyof, NULL, &probes), UINT32_MAX);
	ck_assert_uint_eq(probes, 1);
	ofl_flowtab_insert(&t, 5, 0);
	ofl_flowtab_insert(&t, 5, 1); /* home slot 5 taken: slot 6 */
	ck_assert_uint_eq(t.count, 2);
	ck_assert_uint_eq(t.slot[6], (uint64_t)5 << 32 | 2u);
	probes = 0;
	ck_assert_uint_eq(ofl_flowtab_find(&t, 5, &keys[0], keyof, NULL, &probes), 0);
	ck_assert_uint_eq(probes, 1);
	probes = 0;
	ck_assert_uint_eq(ofl_flowtab_find(&t, 5, &keys[1], keyof, NULL, &probes), 1);
	ck_assert_uint_eq(probes, 2);
	probes = 0; /* same hash, another key: slots 5, 6 and the empty 7 */
	ck_assert_uint_eq(ofl_flowtab_find(&t, 5, &keys[2], keyof, NULL, &probes), UINT32_MAX);
	ck_assert_uint_eq(probes, 3);
	probes = 0; /* home slot 6 taken by another hash: 6, then the empty 7 */
	ck_assert_uint_eq(ofl_flowtab_find(&t, 6, &keys[2], keyof, NULL, &probes), UINT32_MAX);
	ck_assert_uint_eq(probes, 2);
	probes = 0;
	ck_assert_uint_eq(ofl_flowtab_find(&t, 21, &keys[2], keyof, NULL, &probes), UINT32_MAX); /* slot 5 */
	ck_assert_uint_eq(probes, 3);
	probes = 0;
	ck_assert_uint_eq(ofl_flowtab_find(&t, 9, &keys[2], keyof, NULL, &probes), UINT32_MAX);
	ck_assert_uint_eq(probes, 1);
	free(mem);
}
END_TEST

int main(void)
{
	const TTest *tests[] = {model, flooding_resistance, key_changes_hash, hash_v4_same_value,
		clear_empties, probe_counts};
	return h_run_tests("flowtab", tests, sizeof tests / sizeof tests[0]);
}
