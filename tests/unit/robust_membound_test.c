/*
 * robust_membound_test.c - memory is bounded by the configuration and never
 * grows after create.
 *
 * A counting struct ofl_mem sees every allocation: create allocates, the
 * packet path never does (counts and bytes unchanged after traffic), destroy
 * frees everything, and an allocation failing at any point of create gives
 * OFL_ENOMEM with nothing leaked.  Then each bound of struct
 * ofl_gro_config is driven to its limit and one past it, with the gauges
 * (stats.flows_held, stats.bytes_held) checked after every packet:
 *   max_flows       flows held never exceed it; one more flow completes the
 *                   oldest (flush reason table_full)
 *   max_held_bytes  payload held never exceeds it
 *   max_segs        a merged packet never has more segments (max_segs)
 *   max_size        a merged IP packet never exceeds it (max_size)
 *   max_bufs        a packet with more buffers is refused (OFL_E2BIG)
 *   slice capacity  2 * max_segs + max_bufs slices per entry (max_segs)
 *   normal_batch    a delivery list never has more than normal_batch + 1
 * and every packet still comes back exactly once (the conservation harness).
 * GSO pools and rings exhausted at every position are covered by
 * tests/unit/gso_pool_test.c (test_pool_exhaustion, test_ring_stops) and by
 * the GSO fuzz target.
 */
#include <check.h>
#include <ofl/gro.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "harness.h"

struct cmem {
	struct ofl_mem m;
	size_t allocs, frees, live, peak, fail_at;
};

static void *c_alloc(void *u, size_t size, size_t align)
{
	struct cmem *c = u;
	void *p;
	c->allocs++;
	if (c->fail_at && c->allocs == c->fail_at)
		return NULL;
	p = aligned_alloc(align, (size + align - 1) / align * align);
	if (p) {
		c->live += size;
		if (c->live > c->peak)
			c->peak = c->live;
	}
	return p;
}

static void c_free(void *u, void *p, size_t size)
{
	struct cmem *c = u;
	if (!p)
		return;
	ck_assert_uint_ge(c->live, size);
	c->frees++;
	c->live -= size;
	free(p);
}

static void cmem_init(struct cmem *c)
{
	memset(c, 0, sizeof(*c));
	c->m.user = c;
	c->m.alloc = c_alloc;
	c->m.free = c_free;
}

static struct harness H;

static void cfg_with(struct ofl_gro_config *c, struct cmem *m)
{
	ofl_gro_config_default(c);
	c->mem = &m->m;
}

/* Create, traffic, destroy: no allocation after create, all freed. */
/* The statistics of the context under test now. */
static struct ofl_gro_stats stats(void)
{
	struct ofl_gro_stats st;
	ck_assert_int_eq(ofl_gro_get_stats(H.gro, &st, sizeof st), 0);
	return st;
}

START_TEST(no_growth_after_create)
{
	struct cmem m;
	struct ofl_gro_config c;
	struct gen_tcp g;
	size_t allocs, live;
	unsigned i, f;
	cmem_init(&m);
	cfg_with(&c, &m);
	c.max_flows = 16;
	c.flush_timeout_ns = 1000;
	h_init(&H, &c, _i % 5);
	allocs = m.allocs;
	live = m.live;
	ck_assert_uint_gt(allocs, 0);
	ck_assert_uint_eq(m.peak, live);
	for (i = 0; i < 40; i++)
		for (f = 0; f < 24; f++) {
			uint64_t dl;
			gen_tcp_init(&g, f & 1 ? 6 : 4);
			g.sport = (uint16_t)(1000 + f);
			g.flow_salt = f;
			g.seq = 1000 + i * 100;
			g.ip_id = (uint16_t)i;
			if (i % 9 == 8)
				g.flags |= GEN_PSH;
			ck_assert_int_ge(h_rx_gen(&H, &g, i * 300), 0);
			if (f == 23)
				ofl_gro_poll_end(H.gro, 1, i * 300, &dl);
		}
	ck_assert_uint_eq(m.allocs, allocs);
	ck_assert_uint_eq(m.live, live);
	ck_assert_uint_eq(m.peak, live);
	h_finish(&H);
	ck_assert_uint_eq(m.live, 0);
	ck_assert_uint_eq(m.frees, allocs);
	h_free(&H);
}
END_TEST

/* A counted configuration whose deliver must never be called (no traffic). */
static void cfg_counted(struct ofl_gro_config *c, struct cmem *m)
{
	cmem_init(m);
	cfg_with(c, m);
	c->deliver = (ofl_gro_deliver_fn)(void (*)(void))abort;
}

/* Create a context of c and destroy it again; the bytes it held. */
static size_t created_bytes(const struct ofl_gro_config *c, const struct cmem *m)
{
	struct ofl_gro *g;
	size_t live;
	ck_assert_int_eq(ofl_gro_create(c, &g), 0);
	live = m->live;
	ofl_gro_destroy(g);
	return live;
}

/* Memory is a function of the configuration only. */
START_TEST(size_follows_config)
{
	struct ofl_gro_config c;
	size_t small, big, flows2;
	struct cmem m;
	cfg_counted(&c, &m);
	small = created_bytes(&c, &m);
	c.max_flows = 1024;
	big = created_bytes(&c, &m);
	c.max_flows = 2048;
	flows2 = created_bytes(&c, &m);
	ck_assert_uint_gt(big, small);
	/* linear in max_flows (within the power-of-two table rounding) */
	ck_assert_uint_le(flows2 - big, big + 4096);
	ck_assert_uint_eq(m.live, 0);
}
END_TEST

/* Every allocation of create failing in turn: OFL_ENOMEM, nothing leaked. */
START_TEST(enomem_at_every_allocation)
{
	struct ofl_gro_config c;
	struct ofl_gro *g;
	struct cmem m;
	size_t n, k;
	cfg_counted(&c, &m);
	(void)created_bytes(&c, &m);
	n = m.allocs;
	for (k = 1; k <= n; k++) {
		cfg_counted(&c, &m);
		m.fail_at = k;
		g = (struct ofl_gro *)&c;
		ck_assert_int_eq(ofl_gro_create(&c, &g), OFL_ENOMEM);
		ck_assert_uint_eq(m.live, 0);
	}
}
END_TEST

static void check_gauges(const struct ofl_gro_config *c)
{
	struct ofl_gro_stats st;
	st = stats();
	ck_assert_msg(st.flows_held <= c->max_flows, "%u flows held, max %u", st.flows_held, c->max_flows);
	ck_assert_msg(st.bytes_held <= c->max_held_bytes, "%u bytes held, max %u", st.bytes_held,
	              c->max_held_bytes);
}

static int seg(int l3, unsigned flow, uint32_t seq, uint32_t len, uint64_t now)
{
	struct gen_tcp g;
	gen_tcp_init(&g, l3);
	g.sport = (uint16_t)(1000 + flow);
	g.saddr[l3 == 4 ? 3 : 15] = (uint8_t)(flow >> 8);
	g.flow_salt = flow;
	g.seq = seq;
	g.payload_len = len;
	return h_rx_gen(&H, &g, now);
}

/* Flows from .. to - 1 of l3 each start with a len-byte segment (seq 100),
 * held; the gauges stay within the bounds of c after each. */
static void new_flows_held(int l3, unsigned from, unsigned to, uint32_t len, const struct ofl_gro_config *c)
{
	for (unsigned f = from; f < to; f++) {
		ck_assert_int_eq(seg(l3, f, 100, len, f), OFL_GRO_HELD);
		check_gauges(c);
	}
}

START_TEST(bound_max_flows)
{
	struct ofl_gro_config c;
	ofl_gro_config_default(&c);
	c.max_flows = 8;
	h_init(&H, &c, H_SPLIT_NONE);
	new_flows_held(4, 0, 8, 500, &c);
	ck_assert_uint_eq(stats().flows_held, 8);
	ck_assert_uint_eq(stats().flush[OFL_GRO_FLUSH_TABLE_FULL], 0);
	/* each new flow past 8 flushes the oldest */
	new_flows_held(6, 8, 40, 500, &c);
	ck_assert_uint_eq(stats().flows_held, 8);
	ck_assert_uint_eq(stats().flush[OFL_GRO_FLUSH_TABLE_FULL], 32);
	h_done(&H, NULL);
}
END_TEST

START_TEST(bound_max_held_bytes)
{
	struct ofl_gro_config c;
	struct ofl_gro_stats st;
	unsigned f, i;
	ofl_gro_config_default(&c);
	c.max_held_bytes = 3000;
	h_init(&H, &c, H_SPLIT_NONE);
	/* three flows of 1000 bytes fill it exactly */
	new_flows_held(4, 0, 3, 1000, &c);
	st = stats();
	ck_assert_uint_eq(st.bytes_held, 3000);
	/* more flows and merges: never above */
	for (i = 1; i < 6; i++)
		for (f = 0; f < 5; f++) {
			ck_assert_int_ge(seg(4, f, 100 + i * 1000, 1000, 10 + i), 0);
			check_gauges(&c);
		}
	st = stats();
	ck_assert_uint_gt(st.flush[OFL_GRO_FLUSH_TABLE_FULL], 0);
	h_done(&H, NULL);
}
END_TEST

/* One segment larger than max_held_bytes on its own: passed on (normal
 * reason over_limit), never held past the bound.  (Found by this test:
 * the engine used to empty the table and hold it anyway; fixed in 965290f.) */
START_TEST(bound_held_bytes_one_big_segment)
{
	struct ofl_gro_config c;
	struct ofl_gro_stats st;
	ofl_gro_config_default(&c);
	c.max_held_bytes = 1024;
	h_init(&H, &c, H_SPLIT_NONE);
	ck_assert_int_eq(seg(4, 0, 100, 500, 0), OFL_GRO_HELD);
	ck_assert_int_eq(seg(4, 1, 100, 1400, 1), OFL_GRO_NORMAL);
	check_gauges(&c);
	st = stats();
	ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_OVER_LIMIT], 1);
	ck_assert_uint_le(st.flows_held, 1);
	/* and a merge that would pass the bound completes the entry first */
	ck_assert_int_ge(seg(4, 0, 600, 700, 2), 0);
	check_gauges(&c);
	h_done(&H, NULL);
}
END_TEST

START_TEST(bound_max_segs)
{
	struct ofl_gro_config c;
	struct ofl_gro_stats st;
	unsigned i, k;
	ofl_gro_config_default(&c);
	c.max_segs = 5;
	h_init(&H, &c, _i ? H_SPLIT_FOUR : H_SPLIT_NONE);
	for (i = 0; i < 11; i++) {
		ck_assert_int_ge(seg(4, 0, 100 + i * 100, 100, i), 0);
		check_gauges(&c);
	}
	h_finish(&H);
	ck_assert_uint_eq(H.nout, 3);
	for (k = 0; k < H.nout; k++)
		ck_assert_uint_le(H.out[k].seg_count, 5);
	ck_assert_uint_eq(H.out[0].seg_count, 5);
	ck_assert_uint_eq(H.out[1].seg_count, 5);
	(void)st;
	h_free(&H);
}
END_TEST

START_TEST(bound_max_size)
{
	struct ofl_gro_config c;
	unsigned i, k;
	ofl_gro_config_default(&c);
	c.max_size = 4000;
	h_init(&H, &c, H_SPLIT_NONE);
	for (i = 0; i < 10; i++)
		ck_assert_int_ge(seg(4, 0, 100 + i * 1000, 1000, i), 0);
	h_finish(&H);
	for (k = 0; k < H.nout; k++) {
		/* IP packet = frame - 14 */
		ck_assert_msg(H.out[k].len - 14 <= 4000, "merged IP packet of %u bytes", H.out[k].len - 14);
		if (k + 1 < H.nout)
			ck_assert_uint_eq(H.out[k].seg_count, 3);
	}
	h_free(&H);
}
END_TEST

START_TEST(bound_max_bufs)
{
	struct ofl_gro_config c;
	struct ofl_gro_stats st;
	struct gen_tcp g;
	ofl_gro_config_default(&c);
	c.max_bufs = 17;
	/* one byte per buffer: 16 + the rest = 17 buffers: taken */
	h_init(&H, &c, H_SPLIT_BYTES);
	gen_tcp_init(&g, 4);
	ck_assert_int_eq(h_rx_gen(&H, &g, 0), OFL_GRO_HELD);
	ck_assert_uint_eq(H.nbufs[0], 17);
	h_done(&H, NULL);
	/* max_bufs 4 with four buffers (two of them zero-length): taken; max_bufs
	 * 3 with four buffers: refused, nothing taken */
	c.max_bufs = 4;
	h_init(&H, &c, H_SPLIT_EMPTY);
	ck_assert_int_eq(h_rx_gen(&H, &g, 0), OFL_GRO_HELD);
	ck_assert_uint_eq(H.nbufs[0], 4);
	h_done(&H, NULL);
	c.max_bufs = 3;
	h_init(&H, &c, H_SPLIT_FOUR);
	ck_assert_int_eq(h_rx_gen(&H, &g, 0), OFL_E2BIG);
	st = stats();
	ck_assert_uint_eq(st.api_errors, 1);
	ck_assert_uint_eq(st.rx_pkts, 0);
	h_done(&H, NULL);
}
END_TEST

/* Slice capacity: segments spread over many buffers fill the entry's slice
 * array (2 * max_segs + max_bufs) before max_segs is reached. */
START_TEST(bound_slices)
{
	struct ofl_gro_config c;
	unsigned i, k;
	ofl_gro_config_default(&c);
	c.max_segs = 4;
	c.max_bufs = 17;
	h_init(&H, &c, H_SPLIT_BYTES);
	for (i = 0; i < 6; i++) {
		/* tiny headers + payload split one byte per buffer: 80-byte frames
		 * spread their payload over many buffers */
		struct gen_tcp g;
		gen_tcp_init(&g, 4);
		g.payload_len = 10;
		g.seq = 100 + i * 10;
		ck_assert_int_ge(h_rx_gen(&H, &g, i), 0);
	}
	(void)stats(); /* the statistics still answer */
	h_finish(&H);
	for (k = 0; k < H.nout; k++)
		ck_assert_uint_le(H.out[k].seg_count, 4);
	h_free(&H);
}
END_TEST

static unsigned max_list, lists;
static void list_deliver(void *u, const struct ofl_gro_out *p, unsigned n)
{
	(void)u;
	(void)p;
	lists++;
	if (n > max_list)
		max_list = n;
}

START_TEST(bound_normal_batch)
{
	struct ofl_gro_config c;
	struct ofl_gro *g;
	struct ofl_pkt p;
	struct ofl_buf b;
	static uint8_t f[64][200];
	struct gen_tcp gt;
	unsigned i;
	ofl_gro_config_default(&c);
	c.normal_batch = (uint16_t)(1 + _i * 3);
	c.deliver = list_deliver;
	max_list = lists = 0;
	ck_assert_int_eq(ofl_gro_create(&c, &g), 0);
	memset(&p, 0, sizeof(p));
	p.bufs = &b;
	p.nbufs = 1;
	for (i = 0; i < 64; i++) {
		gen_tcp_init(&gt, 4);
		gt.sport = (uint16_t)(1000 + i);
		gt.payload_len = i % 3 ? 100 : 0; /* held flows and pure ACKs */
		b.data = f[i];
		b.len = (uint32_t)gen_tcp_frame(&gt, f[i], sizeof(f[i]));
		ck_assert_int_ge(ofl_gro_receive(g, &p, i), 0);
	}
	ofl_gro_flush(g);
	ofl_gro_destroy(g);
	ck_assert_uint_gt(lists, 0);
	ck_assert_uint_le(max_list, c.normal_batch + 1u);
}
END_TEST

H_MAIN("robust_membound", 120, 0, {no_growth_after_create, 5}, {size_follows_config, 0},
	{enomem_at_every_allocation, 0}, {bound_max_flows, 0}, {bound_max_held_bytes, 0},
	{bound_held_bytes_one_big_segment, 0}, {bound_max_segs, 2}, {bound_max_size, 0},
	{bound_max_bufs, 0}, {bound_slices, 0}, {bound_normal_batch, 4})
