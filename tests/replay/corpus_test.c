/*
 * corpus_test.c - replay every Ethernet capture of $OFL_CORPORA (listed in
 * its MANIFEST.tsv; the link type is read from each file) through the GRO
 * engine with the replay core of offload-replay, at bursts 1, 64 and 0 (one
 * poll) and flush timeouts 0 and 1 ms, and a few more configurations, and
 * check conservation against the input frames (replay_check.h).
 *
 * Every violation is collected (file, configuration, frame numbers counted
 * from 1 as in Wireshark) and printed; the test fails if there is any.
 */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay_check.h"

#define MS 1000000ull
static const struct rc_config configs[] = {
	/* the matrix of the issue: bursts 1, 64, one poll; timeouts 0 and 1 ms */
	{ 1, 0, .same_as = -1 },
	{ 64, 0, .same_as = -1 },
	{ 0, 0, .same_as = -1 },
	{ 1, MS, .same_as = -1 },
	{ 64, MS, .same_as = -1 },
	{ 0, MS, .same_as = -1 },
	/* the NIC's sum or split buffers must not change a single decision */
	{ 64, MS, .csum_status = OFL_CSUM_COMPLETE, .same_as = 4 },
	{ 64, MS, .split = 14, .same_as = 4 },
	{ 64, MS, .split = 60, .csum_status = OFL_CSUM_COMPLETE, .same_as = 4 },
	/* checksums trusted: sender-side captures merge too; one buffer takes
	 * the engine's header prediction, split buffers the full parse */
	{ 64, MS, .csum_status = OFL_CSUM_UNNECESSARY, .same_as = -1 },
	{ 64, MS, .csum_status = OFL_CSUM_UNNECESSARY, .split = 60, .same_as = 9 },
	/* small limits: table full, max size, one-segment delivery lists */
	{ 0, 100 * MS, .flows = 2, .batch = 1, .same_as = -1 },
	{ 64, MS, .max_size = 3000, .same_as = -1 },
};
#define NCONFIGS (sizeof configs / sizeof configs[0])

/* The capture list, read by main() before the suite runs. */
static struct rc_corpus corpus;

START_TEST(replay_file)
{
	struct replay_capture cap;

	if (!rc_load_ethernet(&corpus, (unsigned)_i, &cap))
		return;
	struct rc_run *r = rc_new(&cap, corpus.files[_i]);
	struct replay_gro_result *res = calloc(NCONFIGS, sizeof *res);
	ck_assert_ptr_nonnull(res);
	for (size_t c = 0; c < NCONFIGS; c++) {
		rc_run_config(r, &configs[c], &res[c]);
		if (configs[c].same_as >= 0)
			rc_check_same(r, &res[c], &res[configs[c].same_as], &configs[configs[c].same_as]);
		printf("%s [%s]: %zu frames -> %" PRIu64 " packets, %" PRIu64 " merged packets of %" PRIu64
		       " segments (largest %" PRIu64 "), %" PRIu64 " payload bytes, %" PRIu64 " violations\n",
		       corpus.files[_i], r->cfg_name, cap.nframes, res[c].out_pkts, res[c].merged_pkts,
		       res[c].merged_segs, r->max_segs, r->payload_out, r->violations);
	}
	fflush(stdout);
	free(res);
	rc_assert_clean(r);
	rc_free(r);
	replay_capture_free(&cap);
}
END_TEST

int main(void)
{
	return rc_corpus_main(&corpus, "replay_corpus", replay_file);
}
