/*
 * abi_size_test.c - the rules that let the public structs grow without an
 * ABI break: get functions that write exactly the caller's size (an older,
 * shorter struct gets its prefix and nothing past it; a newer, longer one
 * gets zeroes past the library's), reason arrays of a fixed capacity, the
 * GSO iterator as an opaque block of a fixed size, and config/request
 * versions: older ones taken, newer ones refused.
 */
#include <check.h>
#include <stdalign.h>
#include <stddef.h>
#include <string.h>

#include <ofl/gro.h>
#include <ofl/gso.h>

#include "gen.h"
#include "harness.h"

static struct harness h;

/* A GRO context that merged two segments and passed one frame on. */
static void gro_some_traffic(void)
{
	struct gen_tcp g;
	struct ofl_gro_config cfg;
	gen_tcp_init(&g, 4);
	ofl_gro_config_default(&cfg);
	h_init(&h, &cfg, H_SPLIT_NONE);
	h_rx_gen(&h, &g, 0);
	g.seq += g.payload_len;
	h_rx_gen(&h, &g, 0);
	g.payload_len = 0; /* a pure ACK: NORMAL_NO_PAYLOAD */
	h_rx_gen(&h, &g, 0);
}

static int all_bytes(const void *p, size_t n, uint8_t v)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		if (b[i] != v)
			return 0;
	return 1;
}

START_TEST(gro_stats_sizes)
{
	struct ofl_gro_stats full;
	/* room for a caller's struct longer than ours */
	union {
		struct ofl_gro_stats st;
		uint8_t b[sizeof(struct ofl_gro_stats) + 64];
	} u;
	const size_t old_size = offsetof(struct ofl_gro_stats, flush); /* an "older" struct */
	unsigned r;

	ck_assert_uint_ge(OFL_GRO_REASON_SLOTS, OFL_GRO_FLUSH__COUNT);
	ck_assert_uint_ge(OFL_GRO_REASON_SLOTS, OFL_GRO_NORMAL__COUNT);
	gro_some_traffic();
	ck_assert_int_eq(ofl_gro_get_stats(h.gro, &full, sizeof full), 0);
	ck_assert_uint_eq(full.rx_pkts, 3);
	ck_assert_uint_eq(full.merged, 1);
	ck_assert_uint_eq(full.normal_why[OFL_GRO_NORMAL_NO_PAYLOAD], 1);
	/* the slots past the defined reasons read 0 */
	for (r = OFL_GRO_FLUSH__COUNT; r < OFL_GRO_REASON_SLOTS; r++)
		ck_assert_uint_eq(full.flush[r], 0);
	for (r = OFL_GRO_NORMAL__COUNT; r < OFL_GRO_REASON_SLOTS; r++)
		ck_assert_uint_eq(full.normal_why[r], 0);

	/* size 0: refused, nothing written */
	memset(&u, 0xa5, sizeof u);
	ck_assert_int_eq(ofl_gro_get_stats(h.gro, &u.st, 0), OFL_EINVAL);
	ck_assert(all_bytes(&u, sizeof u, 0xa5));

	/* an older caller: its prefix, not one byte more */
	memset(&u, 0xa5, sizeof u);
	ck_assert_int_eq(ofl_gro_get_stats(h.gro, &u.st, old_size), 0);
	ck_assert_mem_eq(&u, &full, old_size);
	ck_assert(all_bytes(u.b + old_size, sizeof u - old_size, 0xa5));

	/* an odd size cuts inside a field, still exactly */
	memset(&u, 0xa5, sizeof u);
	ck_assert_int_eq(ofl_gro_get_stats(h.gro, &u.st, 13), 0);
	ck_assert_mem_eq(&u, &full, 13);
	ck_assert(all_bytes(u.b + 13, sizeof u - 13, 0xa5));

	/* a newer caller: ours, then zeroes up to its size */
	memset(&u, 0xa5, sizeof u);
	ck_assert_int_eq(ofl_gro_get_stats(h.gro, &u.st, sizeof u), 0);
	ck_assert_mem_eq(&u, &full, sizeof full);
	ck_assert(all_bytes(u.b + sizeof full, sizeof u - sizeof full, 0));

	h_finish(&h);
	h_free(&h);
}
END_TEST

static void deliver_nothing(void *user, const struct ofl_gro_out *pkts, unsigned n)
{
	(void)user;
	(void)pkts;
	(void)n;
}

START_TEST(gro_config_versions)
{
	struct ofl_gro_config cfg;
	struct ofl_gro *g = NULL;
	ofl_gro_config_default(&cfg);
	cfg.deliver = deliver_nothing;
	cfg.hash_key[0] = 1;
	ck_assert_uint_eq(cfg.version, OFL_GRO_CONFIG_VERSION);
	cfg.version = OFL_GRO_CONFIG_VERSION + 1; /* built against a later header */
	ck_assert_int_eq(ofl_gro_create(&cfg, &g), OFL_EINVAL);
	ck_assert_ptr_null(g);
	cfg.version = 0;
	ck_assert_int_eq(ofl_gro_create(&cfg, &g), OFL_EINVAL);
	for (cfg.version = 1; cfg.version <= OFL_GRO_CONFIG_VERSION; cfg.version++) {
		ck_assert_int_eq(ofl_gro_create(&cfg, &g), 0);
		ofl_gro_destroy(g);
		g = NULL;
	}
}
END_TEST

/* A TCP/IPv4 frame in one buffer, and a request cutting it into 3 segments. */
static void gso_input(uint8_t *frame, size_t cap, struct ofl_buf *b, struct ofl_gso_req *req)
{
	struct gen_tcp g;
	gen_tcp_init(&g, 4);
	g.payload_len = 3000;
	b->data = frame;
	b->len = (uint32_t)gen_tcp_frame(&g, frame, cap);
	ofl_gso_req_default(req);
	req->seg_size = 1000;
}

/* The iterator refers to the caller's buffer list (*b) until it is done:
 * b must outlive it. */
static void gso_started(struct ofl_gso_iter *it, uint8_t *frame, size_t cap, struct ofl_buf *b)
{
	struct ofl_gso_req req;
	gso_input(frame, cap, b, &req);
	ck_assert_int_eq(ofl_gso_start(it, &req, b, 1), 0);
}

START_TEST(gso_counts_sizes)
{
	static uint8_t frame[4096];
	struct ofl_gso_iter it;
	struct ofl_buf buf;
	struct ofl_gso_counts full;
	union {
		struct ofl_gso_counts c;
		uint8_t b[sizeof(struct ofl_gso_counts) + 32];
	} u;
	const size_t old_size = offsetof(struct ofl_gso_counts, seg_size); /* before seg_size was added */

	gso_started(&it, frame, sizeof frame, &buf);
	ck_assert_int_eq(ofl_gso_count(&it, &full, sizeof full), 0);
	ck_assert_uint_eq(full.segs, 3);
	ck_assert_uint_eq(full.seg_size, 1000);
	ck_assert_uint_eq(full.type, OFL_GSO_TYPE_TCP);

	memset(&u, 0xa5, sizeof u);
	ck_assert_int_eq(ofl_gso_count(&it, &u.c, 0), OFL_EINVAL);
	ck_assert(all_bytes(&u, sizeof u, 0xa5));

	memset(&u, 0xa5, sizeof u);
	ck_assert_int_eq(ofl_gso_count(&it, &u.c, old_size), 0);
	ck_assert_mem_eq(&u, &full, old_size);
	ck_assert(all_bytes(u.b + old_size, sizeof u - old_size, 0xa5));

	memset(&u, 0xa5, sizeof u);
	ck_assert_int_eq(ofl_gso_count(&it, &u.c, sizeof u), 0);
	ck_assert_mem_eq(&u, &full, sizeof full);
	ck_assert(all_bytes(u.b + sizeof full, sizeof u - sizeof full, 0));
}
END_TEST

START_TEST(gso_iter_opaque)
{
	static uint8_t frame[4096];
	struct ofl_gso_iter it, copy;
	struct ofl_buf buf;
	struct ofl_gso_counts a, b;
	/* the caller's block has the documented size and a pointer's alignment */
	ck_assert_uint_eq(sizeof(struct ofl_gso_iter), OFL_GSO_ITER_SIZE);
	ck_assert_uint_ge(alignof(struct ofl_gso_iter), alignof(uint64_t));
	ck_assert_uint_ge(alignof(struct ofl_gso_iter), alignof(void *));
	/* a plain copy is a second iterator at the same position */
	gso_started(&it, frame, sizeof frame, &buf);
	ck_assert_int_eq(ofl_gso_abort(&it), 3);
	gso_started(&it, frame, sizeof frame, &buf);
	memcpy(&copy, &it, sizeof it);
	ck_assert_int_eq(ofl_gso_count(&it, &a, sizeof a), 0);
	ck_assert_int_eq(ofl_gso_count(&copy, &b, sizeof b), 0);
	ck_assert_mem_eq(&a, &b, sizeof a);
	ck_assert_int_eq(ofl_gso_abort(&copy), 3);
	ck_assert_int_eq(ofl_gso_abort(&it), 3);
}
END_TEST

START_TEST(gso_req_versions)
{
	static uint8_t frame[4096];
	struct ofl_gso_iter it;
	struct ofl_gso_req req;
	struct ofl_buf b;
	gso_input(frame, sizeof frame, &b, &req);
	ck_assert_uint_eq(req.version, OFL_GSO_REQ_VERSION);
	req.version = OFL_GSO_REQ_VERSION + 1;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_REQ);
	req.version = 0;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EINVAL);
	for (req.version = 1; req.version <= OFL_GSO_REQ_VERSION; req.version++)
		ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
}
END_TEST

int main(void)
{
	const TTest *tests[] = {gro_stats_sizes, gro_config_versions, gso_counts_sizes, gso_iter_opaque, gso_req_versions};
	return h_run_tests("abi_size", tests, sizeof tests / sizeof tests[0]);
}
