/*
 * payload_sum.h - the TCP payload of a capture per flow: bytes and a hash
 * of the byte stream in order (frame_check.h's parser), for tests that check
 * a GRO output conserves every payload byte of its input.
 */
#ifndef OFL_TEST_REPLAY_PAYLOAD_SUM_H
#define OFL_TEST_REPLAY_PAYLOAD_SUM_H

#include <stdint.h>

#include "frame_check.h"
#include "replay.h"

#define PS_MAX_FLOWS 4096

struct flow_sum {
	uint8_t key[FC_KEY_LEN];
	uint64_t bytes;
	uint64_t hash; /* FNV-1a over the payload stream, in order */
};

/** Big: allocate it (malloc), not on the stack. */
struct summary {
	struct flow_sum flows[PS_MAX_FLOWS];
	unsigned nflows;
	uint64_t payload, bad_csums;
};

/** The flow of that key in s, added (empty) when new. */
struct flow_sum *flow_of(struct summary *s, const uint8_t *key);

/** Every TCP segment of c that parses, by flow; frames that do not parse
 *  are left out (the same in the input and the output of GRO). */
void summarize(const struct replay_capture *c, struct summary *s);

#endif
