/*
 * cli.h - command-line plumbing shared by the offload-replay subcommands:
 * exit codes, the subcommand entry points, a small option parser and
 * strict number parsing.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_REPLAY_CLI_H
#define OFL_REPLAY_CLI_H

#include <stdint.h>
#include <stdio.h>

#include <ofl/gro.h> /* enum ofl_csum_mode */

#define CLI_PROG "offload-replay"

/** Exit codes of every subcommand. */
enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_FAIL = 1,  /**< unreadable or invalid input, write error, engine error */
	CLI_EXIT_USAGE = 2, /**< bad command line */
};

/** A subcommand: run() gets argv[0] = its name; usage() prints its synopsis. */
struct cli_cmd {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
	void (*usage)(FILE *fp);
};

/* The subcommands (one file each). */
int gro_cmd_run(int argc, char **argv);
void gro_cmd_usage(FILE *fp);

/** One option: "--name" (with has_arg: "--name VALUE" or "--name=VALUE"),
 *  short_name (0 = none) as "-x". */
struct cli_opt {
	const char *name;
	char short_name;
	int has_arg;
	int id; /**< > 0 */
};

#define CLI_OPT_END 0         /**< no more arguments */
#define CLI_OPT_POSITIONAL -1 /**< *arg is a positional argument */
#define CLI_OPT_ERROR -2      /**< unknown option or missing value (message printed) */

struct cli_parser {
	int argc;
	char **argv;
	int i;                      /**< next argv index */
	int only_positional;        /**< after "--" */
	const struct cli_opt *opts; /**< terminated by an entry with name NULL */
	const char *cmd;            /**< for messages */
};

void cli_parser_init(struct cli_parser *p, int argc, char **argv, const struct cli_opt *opts,
                     const char *cmd);

/** Next option id, CLI_OPT_POSITIONAL, CLI_OPT_END or CLI_OPT_ERROR; *arg
 *  is the option's value or the positional argument. */
int cli_next(struct cli_parser *p, const char **arg);

/** Parse a decimal unsigned number in [min, max]; prints a message naming
 *  the option and returns -1 when it is not one. */
int cli_u64(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out);

/** Take a positional argument into pos[] (at most max of them); prints a
 *  message naming cmd and returns -1 past max. */
int cli_positional(const char *cmd, const char *arg, const char **pos, unsigned *npos,
                   unsigned max);

/** The value of --csum: "full" or "partial"; prints a message and returns
 *  -1 for anything else. */
int cli_csum_mode(const char *cmd, const char *arg, enum ofl_csum_mode *mode);

/** The exit code of a subcommand whose command-line parser returned rc
 *  other than 0: 1 (--help shown) exits CLI_EXIT_OK; -1 (a usage error,
 *  message printed) prints "Try 'offload-replay CMD --help'." and exits
 *  CLI_EXIT_USAGE. */
int cli_args_exit(const char *cmd, int rc);

#endif /* OFL_REPLAY_CLI_H */
