/*
 * dsa_util.c - see dsa_util.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "dsa_util.h"
#include "harness.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>


const char *du_tmp(const char *name)
{
	static char bufs[16][4096];
	static unsigned next;
	char *b = bufs[next++ % 16];

	snprintf(b, sizeof bufs[0], "%s/%s", REPLAY_TMPDIR, name);
	return b;
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1);

	ck_assert_ptr_nonnull(buf);
	if (fp) {
		size_t r;
		while ((r = fread(buf + n, 1, cap - n, fp)) > 0) {
			n += r;
			if (n == cap) {
				char *nb = realloc(buf, cap * 2 + 1);
				ck_assert_ptr_nonnull(nb);
				buf = nb;
				cap *= 2;
			}
		}
		fclose(fp);
	}
	buf[n] = '\0';
	return buf;
}

int du_run(const char *args, char **out, char **err)
{
	static unsigned seq;
	char cmd[16384], o[4096], e[4096];
	int rc;

	/* the process id: test programs run in parallel in the same directory */
	snprintf(o, sizeof o, "%s/dsa_run_%ld_%u.out", REPLAY_TMPDIR, (long)getpid(), seq);
	snprintf(e, sizeof e, "%s/dsa_run_%ld_%u.err", REPLAY_TMPDIR, (long)getpid(), seq++);
	snprintf(cmd, sizeof cmd, "'%s' %s >'%s' 2>'%s'", OFFLOAD_REPLAY_BIN, args, o, e);
	rc = system(cmd);
	if (out)
		*out = slurp(o);
	if (err)
		*err = slurp(e);
	remove(o);
	remove(e);
	return rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

void du_write(const char *path, uint32_t linktype, uint8_t *const *frames, const uint32_t *lens,
              size_t n)
{
	struct replay_outfile w;

	ck_assert_msg(replay_outfile_open(&w, path, linktype, 262144, 0) == 0, "%s", w.err);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(replay_outfile_write(&w, 1700000000000000000ull + i * 1000000ull, frames[i],
		                                      lens[i], lens[i]),
		                 0);
	ck_assert_msg(replay_outfile_close(&w) == 0, "%s", w.err);
}

void du_read(const char *path, struct replay_capture *c)
{
	char err[REPLAY_ERRLEN];

	ck_assert_msg(replay_capture_read(c, path, err, sizeof err) == 0, "%s", err);
}

uint8_t *du_encode(const struct ofl_dsa_ops *ops, int dir, const struct ofl_dsa_meta *m,
                   const uint8_t *frame, uint32_t len, uint32_t *out_len)
{
	uint32_t head, tail, off, size;
	uint8_t *buf, *out;

	ck_assert_int_eq(ofl_dsa_room(ops, NULL, dir, len, &head, &tail), 0);
	size = head + len + tail;
	buf = calloc(1, size);
	ck_assert_ptr_nonnull(buf);
	memcpy(buf + head, frame, len);
	off = head;
	ck_assert_int_eq(ofl_dsa_encode(ops, NULL, dir, m, buf, size, &off, &len), 0);
	out = malloc(len);
	ck_assert_ptr_nonnull(out);
	memcpy(out, buf + off, len);
	free(buf);
	*out_len = len;
	return out;
}

long du_field(const char *line, const char *key, int base)
{
	const char *s = strstr(line, key);
	char *end;
	long v;

	if (!s)
		return -1;
	s += strlen(key);
	v = strtol(s, &end, base);
	return end == s ? -1 : v;
}

size_t du_lines(char *out, struct du_line *lines, size_t max)
{
	size_t n = 0;
	char *save = NULL;

	for (char *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		struct du_line *d;
		char *sp;

		if (l[0] == '#')
			continue;
		ck_assert_uint_lt(n, max);
		d = &lines[n++];
		memset(d, 0, sizeof *d);
		d->text = l;
		d->num = (unsigned)strtoul(l, &sp, 10);
		ck_assert_msg(sp != l && *sp == ' ', "bad line: %s", l);
		sp++;
		d->dir = strncmp(sp, "rx:", 3) == 0 ? 'r' : strncmp(sp, "tx:", 3) == 0 ? 't' : '-';
		ck_assert_msg(d->dir != '-' || strncmp(sp, "-: ", 3) == 0, "bad line: %s", l);
		/* "port N," or "port N;" but not "port mask" */
		d->port = -1;
		for (const char *p = sp; (p = strstr(p, "port ")) != NULL; p++)
			if (p[5] >= '0' && p[5] <= '9') {
				d->port = (int)strtol(p + 5, NULL, 10);
				break;
			}
		d->port_mask = du_field(sp, "port mask 0x", 16);
		d->sw = (int)du_field(sp, "switch ", 10);
	}
	return n;
}

int du_run_tcase(const char *suite, TCase *tc)
{
	Suite *s = suite_create(suite);

	tcase_set_timeout(tc, 300);
	suite_add_tcase(s, tc);
	return h_run_suite(s);
}
