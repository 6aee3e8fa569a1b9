/*
 * robust_hashflood_test.c - hash flooding: the flow table's cost stays flat
 * for hostile traffic because its hash is keyed per context.
 *
 * Asserted on the table's own probe counters (stats.lookup_probes /
 * stats.lookups: slots inspected per lookup), never on time:
 *   - 100,000 distinct flows through a table that holds them all, and
 *     through a small table that churns (table-full flushes): a few probes
 *     per lookup;
 *   - flows crafted to collide under a naive unkeyed hash of the 5-tuple
 *     (sum of addresses and ports): a few probes per lookup;
 *   - flows crafted to collide under the library's own hash with a key the
 *     attacker knows: with that key configured (hash_key) the probes per
 *     lookup explode (so the crafted set is a real attack and this test can
 *     fail), with the per-context derived key (hash_key 0,0) or any other
 *     key they stay at a few.
 * The benchmark of the per-packet cost is tests/fuzz/flood_bench.c.
 */
#include <check.h>
#include <stdio.h>
#include <ofl/gro.h>
#include <stdlib.h>
#include <string.h>

#include "flood.h"
#include "harness.h"

static unsigned long delivered;

static void count_deliver(void *u, const struct ofl_gro_out *p, unsigned n)
{
	unsigned i;
	(void)u;
	for (i = 0; i < n; i++)
		delivered += p[i].seg_count ? p[i].seg_count : 1;
}

struct flow {
	uint32_t saddr;
	uint16_t sport;
};

/* Feed one segment of each flow, rounds times (seq advancing), through a
 * context; returns probes per lookup. */
static double run(const struct flow *fl, unsigned n, unsigned rounds, uint32_t max_flows,
                  const uint64_t key[2], struct ofl_gro_stats *out)
{
	struct ofl_gro_config c;
	struct ofl_gro *g;
	struct ofl_gro_stats st;
	struct ofl_pkt p;
	struct ofl_buf b;
	uint8_t f[256], tmpl[256];
	unsigned i, r;
	ofl_gro_config_default(&c);
	c.deliver = count_deliver;
	c.max_flows = max_flows;
	c.max_segs = 4;
	c.max_bufs = 1;
	c.normal_batch = 64;
	c.max_held_bytes = 64u << 20;
	if (key) {
		c.hash_key[0] = key[0];
		c.hash_key[1] = key[1];
	}
	ck_assert_int_eq(ofl_gro_create(&c, &g), 0);
	delivered = 0;
	memset(&p, 0, sizeof(p));
	p.bufs = &b;
	p.nbufs = 1;
	p.csum_status = OFL_CSUM_UNNECESSARY;
	ck_assert_uint_eq(flood_frame(tmpl, 0, 0, 0), 118);
	for (r = 0; r < rounds; r++)
		for (i = 0; i < n; i++) {
			b.data = f;
			b.len = 118;
			flood_patch(f, tmpl, fl[i].saddr, fl[i].sport, 1000 + 64 * r);
			/* the frame bytes must outlive the call: deliver copies nothing,
			 * but this test only counts, so one buffer is reused after the
			 * packet is delivered or held (held bytes are never read again
			 * except by merges of the same flow, which carry equal headers) */
			ck_assert_int_ge(ofl_gro_receive(g, &p, 0), 0);
		}
	ck_assert_int_eq(ofl_gro_get_stats(g, &st, sizeof st), 0);
	ofl_gro_destroy(g);
	ck_assert_uint_eq(delivered, (unsigned long)n * rounds);
	if (out)
		*out = st;
	ck_assert_uint_gt(st.lookups, 0);
	return (double)st.lookup_probes / (double)st.lookups;
}

START_TEST(distinct_100k_all_held)
{
	unsigned n = 100000, i;
	struct flow *fl = malloc(n * sizeof(*fl));
	struct ofl_gro_stats st;
	double pr;
	for (i = 0; i < n; i++) {
		fl[i].saddr = 0x0a000000u + i / 60000u * 256u + 1u;
		fl[i].sport = (uint16_t)(1024 + i % 60000u);
	}
	/* the table holds all 100k (131072 entries, 262144 slots) */
	pr = run(fl, n, 2, 131072, NULL, &st);
	printf("hashflood: 100k distinct flows, 131072-entry table: %.3f probes/lookup\n", pr);
	ck_assert_msg(pr < 2.0, "100k flows, all held: %.2f probes per lookup", pr);
	ck_assert_msg(st.held == n && st.merged == n, "held %llu merged %llu flushes %llu %llu %llu %llu %llu %llu %llu", (unsigned long long)st.held, (unsigned long long)st.merged, (unsigned long long)st.flush[0], (unsigned long long)st.flush[1], (unsigned long long)st.flush[2], (unsigned long long)st.flush[3], (unsigned long long)st.flush[4], (unsigned long long)st.flush[5], (unsigned long long)st.flush[OFL_GRO_FLUSH_TABLE_FULL]);
	ck_assert_uint_eq(st.flush[OFL_GRO_FLUSH_TABLE_FULL], 0);
	/* a 1024-entry table churning through 100k flows */
	pr = run(fl, n, 1, 1024, NULL, &st);
	printf("hashflood: 100k distinct flows, 1024-entry table: %.3f probes/lookup\n", pr);
	/* full table at load 1/2: a miss costs (1 + 1/(1 - 1/2)^2) / 2 = 2.5 probes */
	ck_assert_msg(pr < 3.5, "100k flows, 1024-entry table: %.2f probes per lookup", pr);
	ck_assert_uint_gt(st.flush[OFL_GRO_FLUSH_TABLE_FULL], 98000);
	free(fl);
}
END_TEST

/* Collide under a naive unkeyed hash: saddr + sport constant. */
START_TEST(naive_hash_collisions)
{
	unsigned n = 4096, i;
	struct flow *fl = malloc(n * sizeof(*fl));
	double pr;
	for (i = 0; i < n; i++) {
		fl[i].sport = (uint16_t)(2000 + i);
		fl[i].saddr = 0x0a0a0000u + 60000u - i; /* saddr + sport = const */
	}
	pr = run(fl, n, 3, 4096, NULL, NULL);
	printf("hashflood: 4096 flows colliding under a naive 5-tuple sum: %.3f probes/lookup\n", pr);
	ck_assert_msg(pr < 2.0, "naive-hash collisions: %.2f probes per lookup", pr);
	free(fl);
}
END_TEST

/* Flows whose hash under seed lands in slot 0 of a max_flows table. */
static unsigned craft(const uint64_t seed[2], uint32_t max_flows, struct flow *fl, unsigned want)
{
	uint32_t *sa = malloc(want * sizeof(*sa));
	uint16_t *sp = malloc(want * sizeof(*sp));
	unsigned i, n = flood_craft(seed, max_flows, sa, sp, want);
	for (i = 0; i < n; i++) {
		fl[i].saddr = sa[i];
		fl[i].sport = sp[i];
	}
	free(sa);
	free(sp);
	return n;
}

START_TEST(crafted_against_known_key)
{
	const uint64_t known[2] = {0x0123456789abcdefull, 0xfedcba9876543210ull};
	const uint64_t other[2] = {0x0123456789abcdeeull, 0xfedcba9876543210ull};
	unsigned n = 1000, got;
	uint32_t max_flows = 1024;
	struct flow *fl = malloc(n * sizeof(*fl));
	struct ofl_gro_stats st;
	double attacked, derived, otherkey;
	got = craft(known, max_flows, fl, n);
	ck_assert_uint_eq(got, n);
	/* the attack works when the key is known: probes grow with the flows */
	attacked = run(fl, n, 3, max_flows, known, &st);
	ck_assert_msg(attacked > 100.0, "crafted flows with the known key: only %.1f probes per lookup",
	              attacked);
	/* ... and not against a per-context key or another key */
	derived = run(fl, n, 3, max_flows, NULL, NULL);
	otherkey = run(fl, n, 3, max_flows, other, NULL);
	printf("hashflood: 1000 flows crafted against a known key: %.1f probes/lookup with that key, "
	       "%.3f with a derived key, %.3f with another key\n", attacked, derived, otherkey);
	ck_assert_msg(derived < 2.0, "crafted flows, derived key: %.2f probes per lookup", derived);
	ck_assert_msg(otherkey < 2.0, "crafted flows, other key: %.2f probes per lookup", otherkey);
	free(fl);
}
END_TEST

/* Eight contexts with derived keys: flows crafted against one fixed key
 * collide in none of them. */
START_TEST(derived_keys_differ)
{
	unsigned i;
	/* the derived key is not observable; its effect is: a set of flows that
	 * collides under the hash of one fixed key must not collide under the
	 * keys of 8 fresh contexts */
	const uint64_t k0[2] = {1, 2};
	unsigned n = 512;
	struct flow *fl = malloc(n * sizeof(*fl));
	ck_assert_uint_eq(craft(k0, 512, fl, n), n);
	for (i = 0; i < 8; i++) {
		double pr = run(fl, n, 2, 512, NULL, NULL);
		ck_assert_msg(pr < 2.0, "context %u: %.2f probes per lookup", i, pr);
	}
	free(fl);
}
END_TEST

H_MAIN("robust_hashflood", 300, 0, {distinct_100k_all_held, 0}, {naive_hash_collisions, 0},
	{crafted_against_known_key, 0}, {derived_keys_differ, 0})
