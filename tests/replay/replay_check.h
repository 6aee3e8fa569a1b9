/*
 * replay_check.h - replay a capture through the GRO engine with the replay
 * core of offload-replay and check conservation against the input frames,
 * with a parser and checksums of our own (frame_check.h):
 *
 *   - every input cookie comes back exactly once;
 *   - NORMAL packets are byte-identical to their input frame;
 *   - a GRO packet's payload slices, grouped by segment, are the TCP
 *     payloads of the frames its cookies point at; cut back at seg_size they
 *     give the same; the segments are one flow, consecutive in sequence,
 *     each with valid checksums in the input (unless the NIC vouched for
 *     them); payload bytes out equal payload bytes in;
 *   - seg_count 1: the packet is its frame less Ethernet padding;
 *   - seg_count > 1: the header is the first segment's except the IP
 *     length, the IPv4 checksum, PSH/FIN (the OR of all segments') and the
 *     TCP checksum; the linearized frame has valid IPv4 and TCP checksums;
 *     the CHECKSUM_PARTIAL form completes to the same frame;
 *   - first_ns is the first segment's receive time, CSUM_VERIFIED is set;
 *   - per flow (direction), segments leave in arrival order;
 *   - after every poll: nothing held with no timeout or no work done,
 *     nothing held past the timeout, the deadline no later than the oldest
 *     held segment's expiry, and 0 when nothing is held;
 *   - the engine's counters add up, deliver lists respect normal_batch,
 *     nothing is held at the end.
 *
 * Violations are counted and the first ones kept as text (file,
 * configuration, frame numbers counted from 1 as in Wireshark).
 */
#ifndef OFL_TEST_REPLAY_CHECK_H
#define OFL_TEST_REPLAY_CHECK_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "frame_check.h"
#include "replay.h"

/** One replay configuration (0 = the replay's / library's default). */
struct rc_config {
	unsigned burst;
	uint64_t timeout_ns;
	uint8_t csum_status;  /**< what the simulated NIC reports */
	uint32_t split;       /**< two buffers split here */
	uint32_t flows, max_size;
	unsigned batch;
	int same_as;          /**< >= 0: must decide exactly as that configuration */
};

/* Per-flow ordering: last input index delivered per flow key. */
struct rc_flow_slot {
	uint8_t used;
	uint8_t key[FC_KEY_LEN];
	size_t last;
};

/** The checker of one capture. */
struct rc_run {
	const struct replay_capture *cap;
	const char *file;
	const struct rc_config *cfg;
	char cfg_name[128];
	unsigned *seen;         /* deliveries per frame */
	size_t next_undelivered;/* frames before it are all delivered */
	struct fc_tcp *tcp;     /* parse of every input frame */
	uint64_t *rx_ns;        /* the replay clock when each frame was received */
	uint8_t *is_tcp;
	struct rc_flow_slot *flows;
	size_t nflow_slots;     /* power of two */
	uint8_t *lin, *lin2, *payload;
	size_t *fi;             /* frame indexes of a GRO packet's segments */
	uint64_t violations;    /* of the last configuration run */
	uint64_t total;         /* of every configuration run */
	char *report;           /* the first messages of each configuration */
	size_t report_len, report_cap;
	/* of the last run; payload = TCP payload of TCP frames, whole frame otherwise */
	uint64_t payload_in, payload_out, max_segs;
};

/** Set up the checker of a loaded capture (Check-asserts on allocation). */
struct rc_run *rc_new(const struct replay_capture *cap, const char *file);

/** Parse the input frames again (after the caller changed their bytes). */
void rc_reparse(struct rc_run *r);

/** Replay the capture with cfg and check everything (counted in r). */
void rc_run_config(struct rc_run *r, const struct rc_config *cfg, struct replay_gro_result *res);

/** Count a violation where run a decided otherwise than run b (of config bc). */
void rc_check_same(struct rc_run *r, const struct replay_gro_result *a,
                   const struct replay_gro_result *b, const struct rc_config *bc);

/** "burst 64, timeout 1000000 ns, rx csum none, ..." */
void rc_config_name(const struct rc_config *c, char *buf, size_t cap);

/** Fail the current Check test when r->total is not 0 (all messages on stderr). */
void rc_assert_clean(struct rc_run *r);

void rc_free(struct rc_run *r);

/** Most captures rc_corpus_main() lists. */
#define RC_MAX_FILES 1024

/** The corpus as rc_corpus_main() found it: the folder and its captures. */
struct rc_corpus {
	char dir[4096];
	char *files[RC_MAX_FILES]; /**< paths relative to dir */
	unsigned nfiles;
};

/**
 * Load capture i of the corpus (Check-asserts that it reads, snaplen
 * leniently).  Returns 1 for an Ethernet capture with frames, 0 (nothing
 * kept) for any other: only Ethernet goes to GRO.
 */
int rc_load_ethernet(const struct rc_corpus *corpus, unsigned i, struct replay_capture *cap);

/**
 * main() of a corpus test: list the captures of $OFL_CORPORA (first column
 * of its MANIFEST.tsv), run test once per capture (_i = index in
 * corpus->files) in a suite of that name, free the list.  Returns the exit
 * status.
 */
int rc_corpus_main(struct rc_corpus *corpus, const char *suite, const TTest *test);

#endif
