/*
 * dsa_util.h - helpers of the offload-replay DSA tests (tests/replay/dsa_*):
 * run the built binary, write and read captures, generate tagged traffic.
 */
#ifndef OFL_TEST_DSA_UTIL_H
#define OFL_TEST_DSA_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <check.h>
#include <ofl/dsa.h>

#include "replay.h"

/* A path in the test's scratch directory (REPLAY_TMPDIR), one of 16 rotating
 * static buffers. */
const char *du_tmp(const char *name);

/* Run offload-replay with args (already quoted where needed); returns its
 * exit status (-1: did not run normally).  *out gets standard output and
 * *err standard error (malloc'd, NUL-terminated; pass NULL to drop). */
int du_run(const char *args, char **out, char **err);

/* Write a classic pcap (microsecond) of n frames of that link type, frame i
 * stamped 1 ms * i after a fixed start. */
void du_write(const char *path, uint32_t linktype, uint8_t *const *frames, const uint32_t *lens,
              size_t n);

/* Read a capture (Check assertion on failure). */
void du_read(const char *path, struct replay_capture *c);

/* Tag an untagged frame: returns a malloc'd tagged copy and its length. */
uint8_t *du_encode(const struct ofl_dsa_ops *ops, int dir, const struct ofl_dsa_meta *m,
                   const uint8_t *frame, uint32_t len, uint32_t *out_len);

/* The number after key in line (strtol in base), or -1 when there is none. */
long du_field(const char *line, const char *key, int base);

/* The frame lines of dsa-decode's output ("N dir: fields; a -> b bytes" or
 * "N -: why"), in order: number, direction ('r', 't' or '-') and, when the
 * tag has one, the port (-1 otherwise).  Returns how many were found (at
 * most max); lines starting with '#' are skipped. */
struct du_line {
	unsigned num;
	char dir;
	int port;
	long port_mask; /* -1: none */
	int sw;         /* -1: none */
	const char *text; /* the whole line (points into the output) */
};
size_t du_lines(char *out, struct du_line *lines, size_t max);

/* Run one test case (timeout 300 s) as a suite of that name; returns
 * EXIT_SUCCESS or EXIT_FAILURE. */
int du_run_tcase(const char *suite, TCase *tc);

#endif
