/*
 * gro_burst_diff_test.c - ofl_gro_receive_burst() against one
 * ofl_gro_receive() per frame on every Ethernet capture of $OFL_CORPORA.
 *
 * Linked with the burst/single recorder (tests/support/burstdiff.h): each
 * capture is replayed by the replay core of offload-replay in a few
 * configurations; every context it creates is recorded and, when destroyed,
 * played again as bursts of 1, 2, 3, 7, 16, 64 and whole polls and as single
 * calls, which must deliver exactly the same packets and end with the same
 * counters.  The rule tables, the kernel's selftest cases, the timer/batch
 * tests, the DSA tests and the kernel fixtures get the same check by being
 * linked with the recorder too (gro_burst_diff_* in tests/CMakeLists.txt).
 *
 * No corpus ($OFL_CORPORA or ../shared/corpora, with MANIFEST.tsv): the test
 * fails.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burstdiff.h"
#include "replay_check.h"

#define MS 1000000ull

static const struct replay_gro_opts *configs(size_t *n)
{
	static struct replay_gro_opts o[4];
	replay_gro_opts_default(&o[0]); /* polls of 64, flush timeout 0 */
	o[1] = o[0];
	o[1].flush_timeout_ns = MS; /* held across polls, timers */
	o[2] = o[1];
	o[2].csum_status = OFL_CSUM_UNNECESSARY; /* sender-side captures merge too */
	o[2].split = 60;                         /* and the headers are in two buffers */
	o[3] = o[0];
	o[3].burst = 0; /* one poll: long runs; tiny table, one-segment lists */
	o[3].flush_timeout_ns = 100 * MS;
	o[3].flows = 2;
	o[3].batch = 1;
	*n = 4;
	return o;
}

static struct rc_corpus corpus;

START_TEST(corpus_file)
{
	struct replay_capture cap;
	const struct replay_gro_opts *o;
	struct bd_totals before, after;
	size_t n, c;

	if (!rc_load_ethernet(&corpus, (unsigned)_i, &cap))
		return;
	o = configs(&n);
	for (c = 0; c < n; c++) {
		struct replay_gro_result res;
		char err[REPLAY_ERRLEN];
		bd_get_totals(&before);
		ck_assert_msg(replay_gro(&cap, &o[c], NULL, &res, err, sizeof err) == 0, "%s: %s",
		              corpus.files[_i], err);
		bd_get_totals(&after);
		/* the replay's context was recorded and compared (the recorder is
		 * linked in and saw every frame) */
		ck_assert_uint_eq(after.contexts, before.contexts + 1);
		ck_assert_uint_eq(after.frames - before.frames, cap.nframes);
	}
	replay_capture_free(&cap);
}
END_TEST

int main(void)
{
	return rc_corpus_main(&corpus, "gro_burst_diff", corpus_file);
}
