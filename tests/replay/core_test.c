/*
 * core_test.c - the replay core of offload-replay on captures made here with
 * the test support's frame generator: the capture clock and the simulated
 * flush timer (when it fires, at what time packets leave), polls, kernel
 * NAPI polling, mixed link types, and the CHECKSUM_COMPLETE sum it hands the
 * engine.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream() */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "harness.h"
#include "pcapng_gen.h"
#include "replay.h"

#define US 1000ull
#define MAXF 16

/* Frames of one flow: segment k carries payload [k*1000, k*1000+1000). */
static size_t seg_frame(unsigned k, uint8_t *buf, size_t cap)
{
	struct gen_tcp g;

	gen_tcp_init(&g, 4);
	g.payload_len = 1000;
	g.seq = 1000 + k * 1000;
	g.ip_id = (uint16_t)(100 + k);
	return gen_tcp_frame(&g, buf, cap);
}

/* A capture in memory (written by the replay's pcap writer into a memory
 * stream, read back by libpcap): nf segments at the given time stamps. */
static void make_capture(struct replay_capture *c, const uint64_t *ts, unsigned nf)
{
	uint8_t buf[2048];
	char err[REPLAY_ERRLEN];
	struct replay_outfile w;
	char *mem = NULL;
	size_t memlen = 0;
	FILE *fp = open_memstream(&mem, &memlen);

	ck_assert_ptr_nonnull(fp);
	ck_assert_msg(replay_outfile_open_fp(&w, fp, "memory", 1, 65535, 1) == 0, "%s", w.err);
	for (unsigned k = 0; k < nf; k++) {
		size_t n = seg_frame(k, buf, sizeof buf);
		ck_assert_uint_gt(n, 0);
		ck_assert_int_eq(replay_outfile_write(&w, ts[k], buf, (uint32_t)n, (uint32_t)n), 0);
	}
	ck_assert_msg(replay_outfile_close(&w) == 0, "%s", w.err);
	ck_assert_msg(replay_capture_parse(c, mem, memlen, err, sizeof err) == 0, "%s", err);
	free(mem);
	ck_assert_uint_eq(c->nframes, nf);
}

/* What left, when. */
struct seen {
	unsigned n;
	uint16_t segs[MAXF];
	uint64_t at[MAXF], first[MAXF];
	unsigned polls, timers;
	uint64_t timer_at[MAXF];
};

static void on_out(void *user, const struct ofl_gro_out *o, uint64_t now)
{
	struct seen *s = user;

	ck_assert_uint_lt(s->n, MAXF);
	s->segs[s->n] = o->seg_count;
	s->first[s->n] = o->first_ns;
	s->at[s->n++] = now;
}

static void on_poll(void *user, unsigned work, uint64_t now, uint64_t deadline, size_t received)
{
	struct seen *s = user;

	(void)deadline;
	(void)received;
	if (work) {
		s->polls++;
	} else {
		ck_assert_uint_lt(s->timers, MAXF);
		s->timer_at[s->timers++] = now;
	}
}

static void run_opts(const uint64_t *ts, unsigned nf, const struct replay_gro_opts *o,
                     struct seen *s, struct replay_gro_result *res)
{
	struct replay_capture c;
	struct replay_gro_hooks h = { .out = on_out, .poll = on_poll, .user = s };
	char err[REPLAY_ERRLEN];

	memset(s, 0, sizeof *s);
	make_capture(&c, ts, nf);
	ck_assert_msg(replay_gro(&c, o, &h, res, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(res->polls, s->polls);
	ck_assert_uint_eq(res->timer_fires, s->timers);
	replay_capture_free(&c);
}

/* run_opts() with a burst and a timeout; the replay must take polls polls. */
static void run(const uint64_t *ts, unsigned nf, unsigned burst, uint64_t timeout, unsigned polls,
                struct seen *s, struct replay_gro_result *res)
{
	struct replay_gro_opts o;

	replay_gro_opts_default(&o);
	o.burst = burst;
	o.flush_timeout_ns = timeout;
	run_opts(ts, nf, &o, s, res);
	ck_assert_uint_eq(res->polls, polls);
}

/* Polls of one frame, 100 us timeout: four segments 10 us apart are held
 * across polls; the next frame comes 1 ms later, so the timer fires first,
 * at the deadline, and that is when the merged packet leaves. */
START_TEST(timer_fires_between_frames)
{
	static const uint64_t ts[] = { 0, 10 * US, 20 * US, 30 * US, 1000 * US };
	struct seen s;
	struct replay_gro_result res;

	run(ts, 5, 1, 100 * US, 5, &s, &res);
	ck_assert_uint_eq(res.timer_fires, 2); /* after frame 4, and at the end */
	ck_assert_uint_eq(s.n, 2);
	ck_assert_uint_eq(s.segs[0], 4);
	ck_assert_uint_eq(s.first[0], 0);
	ck_assert_uint_eq(s.at[0], 100 * US);
	ck_assert_uint_eq(s.timer_at[0], 100 * US);
	ck_assert_uint_eq(s.segs[1], 1);
	ck_assert_uint_eq(s.at[1], 1100 * US); /* the end of the file: its timer */
	ck_assert_uint_eq(res.stats.merged, 3);
}
END_TEST

/* The same frames with no timeout: every poll of one frame flushes. */
START_TEST(no_timeout_flushes_every_poll)
{
	static const uint64_t ts[] = { 0, 10 * US, 20 * US, 30 * US, 1000 * US };
	struct seen s;
	struct replay_gro_result res;

	run(ts, 5, 1, 0, 5, &s, &res);
	ck_assert_uint_eq(res.timer_fires, 0);
	ck_assert_uint_eq(s.n, 5);
	for (unsigned i = 0; i < 5; i++) {
		ck_assert_uint_eq(s.segs[i], 1);
		ck_assert_uint_eq(s.at[i], ts[i]);
	}
}
END_TEST

/* Burst 0: one poll for the whole capture; burst 2: polls of two. */
START_TEST(burst_sizes)
{
	static const uint64_t ts[] = { 0, 1 * US, 2 * US, 3 * US, 4 * US };
	struct seen s;
	struct replay_gro_result res;

	run(ts, 5, 0, 0, 1, &s, &res);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_uint_eq(s.segs[0], 5);
	ck_assert_uint_eq(s.at[0], 4 * US); /* the poll's last frame */

	run(ts, 5, 2, 0, 3, &s, &res);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_uint_eq(s.segs[0], 2);
	ck_assert_uint_eq(s.segs[1], 2);
	ck_assert_uint_eq(s.segs[2], 1);
	ck_assert_uint_eq(s.at[0], 1 * US);
	ck_assert_uint_eq(s.at[1], 3 * US);
	ck_assert_uint_eq(s.at[2], 4 * US);
}
END_TEST

/* Time stamps that go back: the clock stays where it was. */
START_TEST(clock_never_goes_back)
{
	static const uint64_t ts[] = { 50 * US, 40 * US, 60 * US, 10 * US };
	struct seen s;
	struct replay_gro_result res;

	run(ts, 4, 1, 0, 4, &s, &res);
	ck_assert_uint_eq(s.n, 4);
	ck_assert_uint_eq(s.at[0], 50 * US);
	ck_assert_uint_eq(s.at[1], 50 * US);
	ck_assert_uint_eq(s.at[2], 60 * US);
	ck_assert_uint_eq(s.at[3], 60 * US);
	ck_assert_uint_eq(s.first[1], 50 * US);
}
END_TEST

/* Kernel NAPI polling (--kernel-napi): the first poll has the one frame
 * that had arrived, then polls of the budget (2 here); a poll that uses its
 * whole budget flushes everything, a shorter one keeps packets held until
 * the timer; time stamps are ignored. */
START_TEST(kernel_napi)
{
	static const uint64_t ts[] = { 0, 1000 * US, 2000 * US, 3000 * US, 4000 * US, 9000 * US };
	struct replay_gro_opts o;
	struct seen s;
	struct replay_gro_result res;

	replay_gro_opts_default(&o);
	o.burst = 2;
	o.first_burst = 1;
	o.budget_flush = 1;
	o.frozen_clock = 1;
	o.flush_timeout_ns = 5000 * US;
	run_opts(ts, 6, &o, &s, &res);
	ck_assert_uint_eq(res.polls, 4); /* [0] [1 2] [3 4] [5] */
	ck_assert_uint_eq(res.timer_fires, 1);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_uint_eq(s.segs[0], 3); /* frame 0 held over the short first poll */
	ck_assert_uint_eq(s.at[0], 0);
	ck_assert_uint_eq(s.segs[1], 2);
	ck_assert_uint_eq(s.at[1], 0);
	ck_assert_uint_eq(s.segs[2], 1); /* the last, short poll: the timer */
	ck_assert_uint_eq(s.at[2], 5000 * US);
}
END_TEST

/* pcapng with a second interface of another link type: libpcap 1.10
 * refuses it, and the message says what to do. */
START_TEST(mixed_link_types)
{
	struct pcapng_gen g;
	struct replay_capture c;
	char err[REPLAY_ERRLEN];
	uint8_t frame[64] = { 0 };

	pcapng_gen_init(&g, 0);
	pcapng_gen_iface(&g, 1, 0, 0);
	pcapng_gen_packet(&g, 0, 0, frame, 64, 64);
	pcapng_gen_iface(&g, 113, 0, 0); /* LINUX_SLL */
	pcapng_gen_packet(&g, 1, 1, frame, 64, 64);
	ck_assert_int_eq(replay_capture_parse(&c, g.buf, g.len, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "split it per interface"), "%s", err);
	ck_assert_uint_eq(c.nframes, 0);
	free(g.buf);
}
END_TEST

/* The CHECKSUM_COMPLETE sum: everything after the Ethernet header, in
 * memory order; checked against the support's big-endian RFC 1071 sum. */
START_TEST(complete_csum)
{
	uint8_t f[1600];
	const uint16_t one = 1;
	int little = *(const uint8_t *)&one == 1;

	for (uint32_t len = 0; len < sizeof f; len += 37) {
		for (uint32_t i = 0; i < len; i++)
			f[i] = (uint8_t)(i * 131u + len);
		uint16_t be = len > 14 ? gen_csum_fold(f + 14, len - 14, 0) : 0;
		uint16_t want = little ? (uint16_t)(be >> 8 | be << 8) : be;
		ck_assert_uint_eq(replay_complete_csum(f, len), want);
	}
}
END_TEST

int main(void)
{
	const TTest *tests[] = {timer_fires_between_frames, no_timeout_flushes_every_poll, burst_sizes,
	                        clock_never_goes_back, kernel_napi, mixed_link_types, complete_csum};
	return h_run_tests("replay_core", tests, sizeof tests / sizeof tests[0]);
}
