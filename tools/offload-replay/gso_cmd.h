/*
 * gso_cmd.h - `offload-replay gso`: software GSO/TSO over a capture.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_REPLAY_GSO_CMD_H
#define OFL_REPLAY_GSO_CMD_H

#include <stdio.h>

/** Run the subcommand; argv[0] is "gso".  Returns a CLI_EXIT_* code. */
int replay_gso_main(int argc, char **argv);

/** Print its synopsis and options. */
void replay_gso_usage(FILE *fp);

#endif /* OFL_REPLAY_GSO_CMD_H */
