/*
 * cli.c - see cli.h.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void cli_parser_init(struct cli_parser *p, int argc, char **argv, const struct cli_opt *opts,
                     const char *cmd)
{
	memset(p, 0, sizeof *p);
	p->argc = argc;
	p->argv = argv;
	p->i = 1;
	p->opts = opts;
	p->cmd = cmd;
}

static const struct cli_opt *find_long(const struct cli_opt *o, const char *name, size_t n)
{
	for (; o->name; o++)
		if (strlen(o->name) == n && memcmp(o->name, name, n) == 0)
			return o;
	return NULL;
}

static const struct cli_opt *find_short(const struct cli_opt *o, char c)
{
	for (; o->name; o++)
		if (o->short_name && o->short_name == c)
			return o;
	return NULL;
}

int cli_next(struct cli_parser *p, const char **arg)
{
	const struct cli_opt *o;
	const char *a, *eq;

	*arg = NULL;
	if (p->i >= p->argc)
		return CLI_OPT_END;
	a = p->argv[p->i++];
	if (p->only_positional || a[0] != '-' || a[1] == '\0') {
		*arg = a; /* "-" alone is a file name */
		return CLI_OPT_POSITIONAL;
	}
	if (strcmp(a, "--") == 0) {
		p->only_positional = 1;
		return cli_next(p, arg);
	}
	if (a[1] == '-') {
		eq = strchr(a + 2, '=');
		o = find_long(p->opts, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
	} else {
		eq = NULL;
		o = a[2] == '\0' ? find_short(p->opts, a[1]) : NULL;
	}
	if (!o) {
		fprintf(stderr, "%s %s: unknown option '%s'\n", CLI_PROG, p->cmd, a);
		return CLI_OPT_ERROR;
	}
	if (!o->has_arg) {
		if (eq) {
			fprintf(stderr, "%s %s: option '--%s' takes no value\n", CLI_PROG, p->cmd, o->name);
			return CLI_OPT_ERROR;
		}
		return o->id;
	}
	if (eq) {
		*arg = eq + 1;
	} else if (p->i < p->argc) {
		*arg = p->argv[p->i++];
	} else {
		fprintf(stderr, "%s %s: option '--%s' needs a value\n", CLI_PROG, p->cmd, o->name);
		return CLI_OPT_ERROR;
	}
	return o->id;
}

int cli_u64(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (s[0] < '0' || s[0] > '9')
		goto bad;
	v = strtoull(s, &end, 10);
	if (errno || *end != '\0' || v < min || v > max)
		goto bad;
	*out = v;
	return 0;
bad:
	fprintf(stderr, "%s: %s wants a whole number from %" PRIu64 " to %" PRIu64 ", not '%s'\n",
	        CLI_PROG, opt, min, max, s);
	return -1;
}

int cli_positional(const char *cmd, const char *arg, const char **pos, unsigned *npos,
                   unsigned max)
{
	if (*npos == max) {
		fprintf(stderr, "%s %s: unexpected argument '%s'\n", CLI_PROG, cmd, arg);
		return -1;
	}
	pos[(*npos)++] = arg;
	return 0;
}

int cli_csum_mode(const char *cmd, const char *arg, enum ofl_csum_mode *mode)
{
	if (strcmp(arg, "full") == 0) {
		*mode = OFL_CSUM_MODE_FULL;
	} else if (strcmp(arg, "partial") == 0) {
		*mode = OFL_CSUM_MODE_PARTIAL;
	} else {
		fprintf(stderr, "%s %s: --csum wants full or partial, not '%s'\n", CLI_PROG, cmd, arg);
		return -1;
	}
	return 0;
}

int cli_args_exit(const char *cmd, int rc)
{
	if (rc < 0)
		fprintf(stderr, "Try '%s %s --help'.\n", CLI_PROG, cmd);
	return rc < 0 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}
