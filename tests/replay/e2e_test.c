/*
 * e2e_test.c - run the built offload-replay binary on a corpus capture and
 * check its output file: exit 0, fewer frames, the same TCP payload bytes in
 * the same order per flow, time stamps that never go back, and no more bad
 * checksums than the input had (merged packets carry full checksums); and
 * the same capture as pcapng gives the same output.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "payload_sum.h"
#include "pcapng_gen.h"
#include "replay.h"

#define CAPTURE "tcp-bulk/suricata-verify__bug-4663.pcap"

/* offload-replay gro IN OUT EXTRA must exit 0 (statistics to a file). */
static void run_gro(const char *in, const char *out, const char *extra)
{
	char cmd[16384];

	snprintf(cmd, sizeof cmd, "'%s' gro '%s' '%s' %s > '%s/replay_e2e_stats.txt'", OFFLOAD_REPLAY_BIN,
	         in, out, extra, REPLAY_TMPDIR);
	ck_assert_msg(system(cmd) == 0, "failed: %s", cmd);
}

static void run_case(const char *extra)
{
	char in[4096], out[4096], err[REPLAY_ERRLEN];
	const char *corpora = getenv("OFL_CORPORA");
	struct replay_capture ci, co;
	struct summary *si = malloc(sizeof *si), *so = malloc(sizeof *so);

	ck_assert_ptr_nonnull(si);
	ck_assert_ptr_nonnull(so);
	ck_assert_msg(corpora && *corpora, "OFL_CORPORA is not set");
	snprintf(in, sizeof in, "%s/%s", corpora, CAPTURE);
	snprintf(out, sizeof out, "%s/replay_e2e_out.pcap", REPLAY_TMPDIR);
	run_gro(in, out, extra);

	ck_assert_msg(replay_capture_read(&ci, in, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(replay_capture_read(&co, out, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(co.linktype, REPLAY_LINKTYPE_ETHERNET);
	ck_assert_int_eq(co.format, REPLAY_FMT_PCAP);
	ck_assert_int_eq(co.nano, ci.nano);
	ck_assert_msg(co.nframes < ci.nframes, "%zu frames out of %zu: nothing merged", co.nframes,
	              ci.nframes);
	for (size_t i = 1; i < co.nframes; i++)
		ck_assert_uint_ge(co.frames[i].ts_ns, co.frames[i - 1].ts_ns);

	summarize(&ci, si);
	summarize(&co, so);
	ck_assert_uint_gt(si->payload, 0);
	ck_assert_uint_eq(so->payload, si->payload);
	ck_assert_uint_eq(so->nflows, si->nflows);
	for (unsigned i = 0; i < si->nflows; i++) {
		struct flow_sum *f = flow_of(so, si->flows[i].key);
		ck_assert_uint_eq(f->bytes, si->flows[i].bytes);
		ck_assert_msg(f->hash == si->flows[i].hash, "flow %u: payload stream differs", i);
	}
	ck_assert_uint_le(so->bad_csums, si->bad_csums);
	replay_capture_free(&ci);
	replay_capture_free(&co);
	free(si);
	free(so);
}

/* The same capture as big-endian nanosecond pcapng (tests/replay/pcapng_gen.c)
 * gives the same output. */
START_TEST(pcapng_input)
{
	char in[4096], ng[4096], out1[4096], out2[4096], err[REPLAY_ERRLEN];
	const char *corpora = getenv("OFL_CORPORA");
	struct replay_capture ci, c1, c2;
	struct pcapng_gen g;

	ck_assert_msg(corpora && *corpora, "OFL_CORPORA is not set");
	snprintf(in, sizeof in, "%s/%s", corpora, CAPTURE);
	snprintf(ng, sizeof ng, "%s/replay_e2e_in.pcapng", REPLAY_TMPDIR);
	snprintf(out1, sizeof out1, "%s/replay_e2e_out1.pcap", REPLAY_TMPDIR);
	snprintf(out2, sizeof out2, "%s/replay_e2e_out2.pcap", REPLAY_TMPDIR);
	ck_assert_msg(replay_capture_read(&ci, in, err, sizeof err) == 0, "%s", err);
	pcapng_gen_init(&g, 1);
	pcapng_gen_iface(&g, (uint16_t)ci.linktype, ci.snaplen, 1);
	for (size_t i = 0; i < ci.nframes; i++)
		pcapng_gen_packet(&g, 0, ci.frames[i].ts_ns, ci.frames[i].data, ci.frames[i].caplen,
		                  ci.frames[i].len);
	ck_assert_int_eq(pcapng_gen_save(&g, ng), 0);
	free(g.buf);

	run_gro(in, out1, "");
	run_gro(ng, out2, "");
	ck_assert_msg(replay_capture_read(&c1, out1, err, sizeof err) == 0, "%s", err);
	ck_assert_msg(replay_capture_read(&c2, out2, err, sizeof err) == 0, "%s", err);
	/* whole microseconds in a nanosecond pcapng: microsecond output */
	ck_assert_int_eq(c1.nano, 0);
	ck_assert_int_eq(c2.nano, 0);
	ck_assert_uint_eq(c1.nframes, c2.nframes);
	ck_assert_uint_lt(c1.nframes, ci.nframes);
	for (size_t i = 0; i < c1.nframes; i++) {
		ck_assert_uint_eq(c1.frames[i].caplen, c2.frames[i].caplen);
		ck_assert_uint_eq(c1.frames[i].len, c2.frames[i].len);
		ck_assert_uint_eq(c1.frames[i].ts_ns, c2.frames[i].ts_ns);
		ck_assert_mem_eq(c1.frames[i].data, c2.frames[i].data, c1.frames[i].caplen);
	}
	replay_capture_free(&ci);
	replay_capture_free(&c1);
	replay_capture_free(&c2);
}
END_TEST

START_TEST(gro_default)
{
	run_case("");
}
END_TEST

START_TEST(gro_one_poll_timeout)
{
	run_case("--burst 0 --flush-timeout-ns 1000000 --stats json");
}
END_TEST

int main(void)
{
	/* one output file: the tests run in order */
	const struct h_test tests[] = {{gro_default, 0}, {gro_one_poll_timeout, 0}, {pcapng_input, 0}};
	return h_run_table("replay_e2e", 0, H_NOFORK, tests, sizeof tests / sizeof tests[0]);
}
