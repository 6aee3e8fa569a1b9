/*
 * main.c - offload-replay: replay packet captures through libofl's
 * offloads.  This file only dispatches to the subcommands of the table.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <stdio.h>
#include <string.h>

#include <ofl/ofl.h>

#include "cli.h"
#include "dsa_cmd.h"
#ifdef OFL_REPLAY_HAVE_GSO
#include "gso_cmd.h"
#endif

/* One entry per subcommand (one file each, see README.md). */
static const struct cli_cmd cmds[] = {
	{ "gro", "coalesce the TCP segments of a capture with GRO", gro_cmd_run, gro_cmd_usage },
#ifdef OFL_REPLAY_HAVE_GSO
	{ "gso", "cut the super-packets of a capture into segments with GSO", replay_gso_main,
	  replay_gso_usage },
#endif
	{ "dsa-decode", "print the DSA switch tag of every frame; write the untagged frames",
	  dsa_decode_main, dsa_decode_usage },
	{ "dsa-encode", "tag every frame of a capture for one switch port", dsa_encode_main,
	  dsa_encode_usage },
};

#define NCMDS (sizeof cmds / sizeof cmds[0])

static void usage(FILE *fp)
{
	fprintf(fp, "usage: %s COMMAND ARGS...\n"
	            "       %s --help | -h | --version\n\n"
	            "Replays packet captures through libofl's offloads.\n\ncommands:\n",
	        CLI_PROG, CLI_PROG);
	for (size_t i = 0; i < NCMDS; i++)
		fprintf(fp, "  %-12s %s\n", cmds[i].name, cmds[i].summary);
	for (size_t i = 0; i < NCMDS; i++) {
		fputc('\n', fp);
		cmds[i].usage(fp);
	}
	fprintf(fp, "\nExit status: 0 success, 1 unreadable or invalid input or output, 2 bad usage.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return CLI_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("%s %s\n", CLI_PROG, ofl_version());
		return CLI_EXIT_OK;
	}
	for (size_t i = 0; i < NCMDS; i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].run(argc - 1, argv + 1);
	fprintf(stderr, "%s: unknown command '%s'\n\n", CLI_PROG, argv[1]);
	usage(stderr);
	return CLI_EXIT_USAGE;
}
