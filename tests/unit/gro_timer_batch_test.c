/*
 * gro_timer_batch_test.c - the flush timer (gro_flush_timeout) and batched
 * normal delivery (gro_normal_batch), plus re-entrancy from the callback.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "harness.h"

#define MS 1000000ull

static struct harness h;

static void send(struct gen_tcp *g, uint64_t now)
{
	h_rx_gen(&h, g, now);
	g->seq += g->payload_len;
	g->ip_id++;
}

/* A flow of l3 into a context whose flush timeout is timeout_ns. */
static void start_timeout(struct gen_tcp *g, int l3, uint64_t timeout_ns)
{
	struct ofl_gro_config cfg;
	gen_tcp_init(g, l3);
	ofl_gro_config_default(&cfg);
	cfg.flush_timeout_ns = timeout_ns;
	h_init(&h, &cfg, H_SPLIT_NONE);
}

/* End a poll that did work packets of work at now: the packets out by then
 * must be outs; returns the deadline it asks for. */
static uint64_t poll_end(unsigned work, uint64_t now, unsigned outs)
{
	uint64_t dl = 1;
	ck_assert_int_eq(ofl_gro_poll_end(h.gro, work, now, &dl), 0);
	ck_assert_uint_eq(h.nout, outs);
	return dl;
}

/* The context's flushes for reason why so far. */
static uint64_t flushes(unsigned why)
{
	struct ofl_gro_stats st;
	ofl_gro_get_stats(h.gro, &st, sizeof st);
	return st.flush[why];
}

START_TEST(timeout_zero_flushes_at_poll_end)
{
	struct gen_tcp g;
	uint64_t dl = 1;
	gen_tcp_init(&g, 4);
	h_init(&h, NULL, H_SPLIT_NONE);
	send(&g, 0);
	send(&g, 0);
	ck_assert_uint_eq(h.nout, 0);
	ck_assert_int_eq(ofl_gro_poll_end(h.gro, 2, 0, &dl), 0);
	ck_assert_uint_eq(dl, 0);
	ck_assert_uint_eq(h.nout, 1);
	h_done(&h, "200");
}
END_TEST

START_TEST(held_across_polls_then_deadline)
{
	struct gen_tcp g;
	start_timeout(&g, 4, 2 * MS);
	send(&g, 10 * MS);
	send(&g, 10 * MS);
	/* work done: held; the deadline is the first segment's + the timeout */
	ck_assert_uint_eq(poll_end(2, 10 * MS, 0), 12 * MS);
	send(&g, 11 * MS); /* next poll, before the deadline */
	ck_assert_uint_eq(poll_end(1, 11 * MS, 0), 12 * MS);
	/* the caller's timer fires: a poll that found no work flushes all */
	ck_assert_uint_eq(poll_end(0, 12 * MS, 1), 0);
	ck_assert_uint_eq(flushes(OFL_GRO_FLUSH_POLL_END), 1);
	h_done(&h, "300");
}
END_TEST

START_TEST(old_packets_flushed_with_work)
{
	/* With work done, entries older than the timeout still go out. */
	struct gen_tcp g;
	start_timeout(&g, 4, 2 * MS);
	send(&g, 0);
	g.sport = 2000;
	g.flow_salt = 1;
	send(&g, 3 * MS);
	ck_assert_uint_eq(poll_end(1, 3 * MS, 1), 5 * MS);
	ck_assert_uint_eq(flushes(OFL_GRO_FLUSH_TIMEOUT), 1);
	h_done(&h, NULL);
}
END_TEST

START_TEST(psh_never_delayed)
{
	struct gen_tcp g;
	start_timeout(&g, 6, 50 * MS);
	send(&g, 0);
	g.flags |= GEN_PSH;
	send(&g, 0);
	/* out at the poll's end, not at the deadline; nothing held: no timer */
	ck_assert_uint_eq(poll_end(2, 0, 1), 0);
	h_done(&h, "200");
}
END_TEST

START_TEST(flush_older)
{
	struct gen_tcp g;
	unsigned f;
	gen_tcp_init(&g, 4);
	h_init(&h, NULL, H_SPLIT_NONE);
	for (f = 0; f < 3; f++) {
		g.sport = (uint16_t)(3000 + f);
		g.flow_salt = f;
		send(&g, f * MS);
	}
	ck_assert_int_eq(ofl_gro_flush_older(h.gro, 2 * MS, 1 * MS), 2);
	ck_assert_uint_eq(h.nout, 2);
	ck_assert_int_eq(ofl_gro_flush_older(h.gro, 2 * MS, 1 * MS), 0);
	h_done(&h, NULL);
}
END_TEST

START_TEST(batches_of_normal_batch)
{
	/* 20 pure ACKs (never held): lists of 8 go out as they fill, the
	 * remaining 4 at the end of the poll. */
	struct gen_tcp g;
	unsigned k;
	gen_tcp_init(&g, 4);
	g.payload_len = 0;
	h_init(&h, NULL, H_SPLIT_NONE);
	for (k = 0; k < 20; k++) {
		g.ack += 1;
		send(&g, 0);
	}
	ck_assert_uint_eq(h.nlists, 2);
	ck_assert_uint_eq(h.list_pkts[0], 8);
	ck_assert_uint_eq(h.list_pkts[1], 8);
	ofl_gro_poll_end(h.gro, 20, 0, NULL);
	ck_assert_uint_eq(h.nlists, 3);
	ck_assert_uint_eq(h.list_pkts[2], 4);
	h_done(&h, NULL);
}
END_TEST

START_TEST(batch_counts_segments)
{
	/* A completed 5-segment packet counts 5 toward normal_batch (kernel:
	 * NAPI_GRO_CB(skb)->count): with 3 pure ACKs queued it fills the list. */
	struct gen_tcp g, a;
	struct ofl_gro_config cfg;
	unsigned k;
	gen_tcp_init(&g, 4);
	gen_tcp_init(&a, 4);
	a.sport = 999;
	a.payload_len = 0;
	ofl_gro_config_default(&cfg);
	cfg.normal_batch = 8;
	h_init(&h, &cfg, H_SPLIT_NONE);
	for (k = 0; k < 3; k++) {
		a.ack++;
		send(&a, 0);
	}
	for (k = 0; k < 4; k++)
		send(&g, 0);
	g.flags |= GEN_PSH;
	send(&g, 0); /* completes 5 segments: 3 + 5 >= 8 */
	ck_assert_uint_eq(h.nlists, 1);
	ck_assert_uint_eq(h.list_pkts[0], 4);
	ck_assert_uint_eq(h.list_segs[0], 8);
	h_done(&h, NULL);
}
END_TEST

START_TEST(batch_of_one)
{
	struct gen_tcp g;
	struct ofl_gro_config cfg;
	gen_tcp_init(&g, 4);
	g.payload_len = 0;
	ofl_gro_config_default(&cfg);
	cfg.normal_batch = 1;
	h_init(&h, &cfg, H_SPLIT_NONE);
	send(&g, 0);
	ck_assert_uint_eq(h.nlists, 1);
	h_done(&h, NULL);
}
END_TEST

/* Re-entering the context from its own callback is refused. */
struct reent {
	struct ofl_gro *gro;
	int rc_rx, rc_flush, rc_poll, calls;
	uint8_t frame[200];
	size_t len;
};

static void reent_deliver(void *user, const struct ofl_gro_out *p, unsigned n)
{
	struct reent *r = user;
	struct ofl_buf b = {r->frame, (uint32_t)r->len};
	struct ofl_pkt pk = {.bufs = &b, .nbufs = 1};
	(void)p;
	(void)n;
	r->calls++;
	r->rc_rx = ofl_gro_receive(r->gro, &pk, 0);
	r->rc_flush = ofl_gro_flush(r->gro);
	r->rc_poll = ofl_gro_poll_end(r->gro, 0, 0, NULL);
}

START_TEST(reentry_refused)
{
	struct reent r;
	struct gen_tcp g;
	struct ofl_buf b;
	struct ofl_pkt pk;
	memset(&r, 0, sizeof(r));
	gen_tcp_init(&g, 4);
	g.payload_len = 0;
	r.len = gen_tcp_frame(&g, r.frame, sizeof(r.frame));
	r.gro = h_gro_batch1(reent_deliver, &r);
	b = (struct ofl_buf){r.frame, (uint32_t)r.len};
	memset(&pk, 0, sizeof(pk));
	pk.bufs = &b;
	pk.nbufs = 1;
	ck_assert_int_eq(ofl_gro_receive(r.gro, &pk, 0), OFL_GRO_NORMAL);
	ck_assert_int_eq(r.calls, 1);
	ck_assert_int_eq(r.rc_rx, OFL_ESTATE);
	ck_assert_int_eq(r.rc_flush, OFL_ESTATE);
	ck_assert_int_eq(r.rc_poll, OFL_ESTATE);
	ofl_gro_destroy(r.gro);
}
END_TEST

static void *counting_alloc(void *user, size_t size, size_t align)
{
	size_t *n = user;
	void *p;
	n[0]++;
	n[1] += size;
	p = aligned_alloc(align, (size + align - 1) / align * align);
	return p;
}
static void counting_free(void *user, void *ptr, size_t size)
{
	size_t *n = user;
	(void)size;
	n[0]--;
	free(ptr);
}

START_TEST(allocator_used_at_create_only)
{
	size_t n[2] = {0, 0}, after_create;
	struct ofl_mem mem = {.user = n, .alloc = counting_alloc, .free = counting_free};
	struct ofl_gro_config cfg;
	struct gen_tcp g;
	unsigned k;
	ofl_gro_config_default(&cfg);
	cfg.mem = &mem;
	h_init(&h, &cfg, H_SPLIT_NONE);
	after_create = n[0];
	ck_assert_uint_gt(after_create, 0);
	gen_tcp_init(&g, 4);
	for (k = 0; k < 200; k++)
		send(&g, 0);
	ck_assert_uint_eq(n[0], after_create); /* nothing on the packet path */
	h_finish(&h);
	ck_assert_uint_eq(n[0], 0); /* all returned */
	h_free(&h);
}
END_TEST

int main(void)
{
	const TTest *tests[] = {timeout_zero_flushes_at_poll_end, held_across_polls_then_deadline,
		old_packets_flushed_with_work, psh_never_delayed, flush_older, batches_of_normal_batch,
		batch_counts_segments, batch_of_one, reentry_refused, allocator_used_at_create_only};
	return h_run_tests("gro_timer_batch", tests, sizeof tests / sizeof tests[0]);
}
