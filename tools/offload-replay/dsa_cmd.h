/*
 * dsa_cmd.h - `offload-replay dsa-decode` and `offload-replay dsa-encode`:
 * read and write the DSA switch tags of a capture's frames.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_REPLAY_DSA_CMD_H
#define OFL_REPLAY_DSA_CMD_H

#include <stdio.h>

/** Run `dsa-decode`; argv[0] is "dsa-decode".  Returns a CLI_EXIT_* code. */
int dsa_decode_main(int argc, char **argv);
void dsa_decode_usage(FILE *fp);

/** Run `dsa-encode`; argv[0] is "dsa-encode".  Returns a CLI_EXIT_* code. */
int dsa_encode_main(int argc, char **argv);
void dsa_encode_usage(FILE *fp);

#endif /* OFL_REPLAY_DSA_CMD_H */
