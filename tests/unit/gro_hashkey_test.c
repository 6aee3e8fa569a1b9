/*
 * gro_hashkey_test.c - the flow-hash key comes from the configuration
 * (ofl_gro_config.hash_key), else from the OS (src/core/entropy.c), never
 * from a file.  Observed through the flow table's probe counter
 * (stats.lookup_probes), on flows crafted to share one slot under key K:
 *   - two contexts configured with K hash alike: the same counters, every
 *     crafted flow colliding;
 *   - a context with another key hashes differently: the flows spread;
 *   - hash_key 0,0: a key per context from the OS, so the flows spread;
 *     built with OFL_NO_ENTROPY (the freestanding library, tests/noio.cmake)
 *     ofl_gro_create() refuses 0,0 with OFL_EINVAL and takes a key.
 */
#include <check.h>
#include <ofl/gro.h>
#include <stdlib.h>
#include <string.h>

#include "flood.h"
#include "harness.h"

#define NFLOWS 400u
#define MAX_FLOWS 512u

static const uint64_t key_k[2] = { 0x243f6a8885a308d3ull, 0x13198a2e03707344ull };
static const uint64_t key_other[2] = { 0x243f6a8885a308d3ull, 0x13198a2e03707345ull };
static uint32_t sa[NFLOWS];
static uint16_t sp[NFLOWS];

static void no_deliver(void *u, const struct ofl_gro_out *p, unsigned n)
{
	(void)u;
	(void)p;
	(void)n;
}

static void config(struct ofl_gro_config *c, const uint64_t key[2])
{
	ofl_gro_config_default(c);
	c->deliver = no_deliver;
	c->max_flows = MAX_FLOWS;
	c->max_segs = 4;
	c->max_bufs = 1;
	c->max_held_bytes = 64u << 20;
	c->hash_key[0] = key ? key[0] : 0;
	c->hash_key[1] = key ? key[1] : 0;
}

/* One segment of every crafted flow, twice, through a context with key
 * (NULL: 0,0); its counters in *st. */
static void feed(const uint64_t key[2], struct ofl_gro_stats *st)
{
	struct ofl_gro_config c;
	struct ofl_gro *g;
	struct ofl_pkt p;
	struct ofl_buf b;
	uint8_t tmpl[128], f[128];
	unsigned i, r;
	config(&c, key);
	ck_assert_int_eq(ofl_gro_create(&c, &g), 0);
	ck_assert_uint_eq(flood_frame(tmpl, 0, 0, 0), 118);
	memset(&p, 0, sizeof(p));
	p.bufs = &b;
	p.nbufs = 1;
	p.csum_status = OFL_CSUM_UNNECESSARY;
	for (r = 0; r < 2; r++)
		for (i = 0; i < NFLOWS; i++) {
			flood_patch(f, tmpl, sa[i], sp[i], 1000 + 64 * r);
			b.data = f;
			b.len = 118;
			ck_assert_int_ge(ofl_gro_receive(g, &p, 0), 0);
			/* held bytes are only read by merges of the same flow, whose
			 * headers are equal: one buffer serves every frame */
		}
	ck_assert_int_eq(ofl_gro_get_stats(g, st, sizeof *st), 0);
	ofl_gro_destroy(g);
}

static double per_lookup(const struct ofl_gro_stats *st)
{
	ck_assert_uint_gt(st->lookups, 0);
	return (double)st->lookup_probes / (double)st->lookups;
}

START_TEST(same_key_same_hash)
{
	struct ofl_gro_stats a, b;
	feed(key_k, &a);
	feed(key_k, &b);
	ck_assert_uint_eq(a.lookups, b.lookups);
	ck_assert_uint_eq(a.lookup_probes, b.lookup_probes);
	/* the flows were crafted for K: under K they all share a slot */
	ck_assert_msg(per_lookup(&a) > 50.0, "key K: %.1f probes per lookup", per_lookup(&a));
}
END_TEST

START_TEST(other_key_other_hash)
{
	struct ofl_gro_stats a, b;
	feed(key_k, &a);
	feed(key_other, &b);
	ck_assert_uint_ne(a.lookup_probes, b.lookup_probes);
	ck_assert_msg(per_lookup(&b) < 2.0, "another key: %.2f probes per lookup", per_lookup(&b));
}
END_TEST

#ifndef OFL_NO_ENTROPY
START_TEST(default_key_from_os)
{
	struct ofl_gro_stats a;
	feed(NULL, &a);
	ck_assert_msg(per_lookup(&a) < 2.0, "key 0,0: %.2f probes per lookup", per_lookup(&a));
}
END_TEST
#else
START_TEST(freestanding_requires_key)
{
	struct ofl_gro_config c;
	struct ofl_gro *g = (struct ofl_gro *)&c;
	config(&c, NULL);
	ck_assert_int_eq(ofl_gro_create(&c, &g), OFL_EINVAL);
	ck_assert_ptr_eq(g, (struct ofl_gro *)&c); /* *out untouched */
	config(&c, key_other);
	ck_assert_int_eq(ofl_gro_create(&c, &g), 0);
	ofl_gro_destroy(g);
}
END_TEST
#endif

int main(void)
{
	Suite *s = suite_create("gro_hashkey");
	TCase *tc = tcase_create("key");
	if (flood_craft(key_k, MAX_FLOWS, sa, sp, NFLOWS) != NFLOWS)
		return EXIT_FAILURE;
	tcase_add_test(tc, same_key_same_hash);
	tcase_add_test(tc, other_key_other_hash);
#ifndef OFL_NO_ENTROPY
	tcase_add_test(tc, default_key_from_os);
#else
	tcase_add_test(tc, freestanding_requires_key);
#endif
	suite_add_tcase(s, tc);
	return h_run_suite(s);
}
