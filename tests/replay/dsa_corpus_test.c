/*
 * dsa_corpus_test.c - `offload-replay dsa-decode` on every capture of
 * $OFL_CORPORA/dsa (link types 281 brcm, 282 brcm-prepend, 284 dsa, 285
 * edsa, which name their own tag format) against `tcpdump -e -n -r`: the
 * same frames, and per frame the same direction (Broadcom OP EG / Marvell
 * Forward, To CPU, To Sniffer: rx; OP IG / From CPU: tx), the same port
 * (Broadcom egress "port:", ingress "DST map:" as the port mask; Marvell
 * "port" and "dev" as the switch).  The untagged frames dsa-decode writes
 * must read in tcpdump as the tagged ones do: same MACs, and the same text
 * from the EtherType's payload on.
 *
 * Every frame must decode even without tcpdump; the comparison is then
 * skipped with a notice and the test exits 77 (skipped), never a pass.
 */
#define _POSIX_C_SOURCE 200809L

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsa_util.h"

#define MAX_FILES 64
#define MAX_FRAMES 4096

static char *files[MAX_FILES];
static int nfiles;
static int have_tcpdump;

static const char *corpus_dir(void)
{
	static char dir[4096];
	const char *c = getenv("OFL_CORPORA");

	snprintf(dir, sizeof dir, "%s/dsa", c && *c ? c : "../shared/corpora");
	return dir;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void find_files(void)
{
	DIR *d = opendir(corpus_dir());
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL && nfiles < MAX_FILES) {
		size_t n = strlen(e->d_name);
		if (n > 5 && strcmp(e->d_name + n - 5, ".pcap") == 0)
			files[nfiles++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(files, (size_t)nfiles, sizeof files[0], cmp_str);
}

/* tcpdump's lines for a capture: a malloc'd buffer, lines split in place. */
static size_t tcpdump_lines(const char *path, char **buf, char **lines, size_t max)
{
	char cmd[8192];
	size_t cap = 1 << 16, len = 0, n = 0, r;
	FILE *fp;

	snprintf(cmd, sizeof cmd, "tcpdump -e -n -r '%s' 2>/dev/null", path);
	fp = popen(cmd, "r");
	ck_assert_ptr_nonnull(fp);
	*buf = malloc(cap + 1);
	ck_assert_ptr_nonnull(*buf);
	while ((r = fread(*buf + len, 1, cap - len, fp)) > 0) {
		len += r;
		if (len == cap) {
			char *nb = realloc(*buf, cap * 2 + 1);
			ck_assert_ptr_nonnull(nb);
			*buf = nb;
			cap *= 2;
		}
	}
	ck_assert_int_eq(pclose(fp), 0);
	(*buf)[len] = '\0';
	char *save = NULL;
	for (char *l = strtok_r(*buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		ck_assert_uint_lt(n, max);
		lines[n++] = l;
	}
	return n;
}

/* The first "aa:bb:cc:dd:ee:ff > 11:22:33:44:55:66" of a line. */
static int macs(const char *line, char out[64])
{
	for (const char *s = line; *s; s++) {
		unsigned a[12];
		if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x > %2x:%2x:%2x:%2x:%2x:%2x", &a[0], &a[1], &a[2],
		           &a[3], &a[4], &a[5], &a[6], &a[7], &a[8], &a[9], &a[10], &a[11]) == 12) {
			snprintf(out, 64, "%.35s", s);
			return 1;
		}
	}
	return 0;
}

/* What follows the EtherType and frame length: "length N: <this>". */
static const char *payload_text(const char *line)
{
	const char *s = strstr(line, ", length ");

	if (!s)
		return "";
	s = strstr(s, ": ");
	return s ? s + 2 : "";
}

static void compare_line(const char *where, const char *td, const struct du_line *d)
{
	long v;

	if (strstr(td, "BRCM tag OP: EG")) {
		ck_assert_msg(d->dir == 'r', "%s: tcpdump says egress (rx): %s / %s", where, td, d->text);
		v = du_field(td, "port: ", 10);
		ck_assert_msg(v >= 0 && v == d->port, "%s: port %ld vs %d", where, v, d->port);
	} else if (strstr(td, "BRCM tag OP: IG")) {
		ck_assert_msg(d->dir == 't', "%s: tcpdump says ingress (tx): %s / %s", where, td, d->text);
		v = du_field(td, "DST map: 0x", 16);
		ck_assert_msg(v >= 0 && v == d->port_mask, "%s: DST map 0x%lx vs port mask 0x%lx", where, v,
		              d->port_mask);
		if (v && !(v & (v - 1)))
			ck_assert_msg(d->port >= 0 && (1L << d->port) == v, "%s: port %d for map 0x%lx", where,
			              d->port, v);
	} else if (strstr(td, "Marvell ")) {
		int tx = strstr(td, "mode From CPU,") != NULL;
		ck_assert_msg(tx || strstr(td, "mode Forward,") || strstr(td, "mode To CPU,") ||
		                  strstr(td, "mode To Sniffer,"),
		              "%s: mode? %s", where, td);
		ck_assert_msg(d->dir == (tx ? 't' : 'r'), "%s: direction: %s / %s", where, td, d->text);
		v = du_field(td, "dev ", 10);
		ck_assert_msg(v >= 0 && v == d->sw, "%s: dev %ld vs switch %d", where, v, d->sw);
		v = du_field(strstr(td, "dev "), "port ", 10);
		ck_assert_msg(v >= 0 && v == d->port, "%s: port %ld vs %d", where, v, d->port);
	} else {
		ck_abort_msg("%s: tcpdump shows no DSA tag: %s", where, td);
	}
}

START_TEST(test_capture)
{
	const char *name = files[_i];
	char in[4096], args[16384], where[256], *out, *err, *tbuf = NULL, *ubuf = NULL;
	static struct du_line d[MAX_FRAMES];
	static char *td[MAX_FRAMES], *tu[MAX_FRAMES];
	struct replay_capture cap, un;
	size_t n, nt, nu;
	int rc;

	snprintf(in, sizeof in, "%.3800s/%.200s", corpus_dir(), name);
	const char *upath = du_tmp("dsa_corpus_untagged.pcap");
	snprintf(args, sizeof args, "dsa-decode '%s' '%s'", in, upath);
	rc = du_run(args, &out, &err);
	ck_assert_msg(rc == 0, "%s: exit %d: %s", name, rc, err);
	du_read(in, &cap);
	du_read(upath, &un);
	ck_assert_uint_eq(un.linktype, 1);
	n = du_lines(out, d, MAX_FRAMES);
	ck_assert_uint_eq(n, cap.nframes);
	ck_assert_uint_eq(un.nframes, cap.nframes);
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_eq(d[i].num, i + 1);
		ck_assert_msg(d[i].dir != '-', "%s: %s", name, d[i].text);
		ck_assert_int_ge(d[i].port, 0);
		/* the untagged frame keeps the MACs and what follows the tag */
		ck_assert_uint_lt(un.frames[i].caplen, cap.frames[i].caplen);
		ck_assert_mem_eq(un.frames[i].data, cap.frames[i].data +
		                 (cap.linktype == 282 ? 4 : 0), 12);
		ck_assert_mem_eq(un.frames[i].data + un.frames[i].caplen - 16,
		                 cap.frames[i].data + cap.frames[i].caplen - 16, 16);
	}
	if (have_tcpdump) {
		nt = tcpdump_lines(in, &tbuf, td, MAX_FRAMES);
		nu = tcpdump_lines(upath, &ubuf, tu, MAX_FRAMES);
		ck_assert_uint_eq(nt, n);
		ck_assert_uint_eq(nu, n);
		for (size_t i = 0; i < n; i++) {
			char mt[64], mu[64];
			snprintf(where, sizeof where, "%s frame %zu", name, i + 1);
			compare_line(where, td[i], &d[i]);
			ck_assert_msg(macs(td[i], mt) && macs(tu[i], mu) && strcmp(mt, mu) == 0,
			              "%s: MACs: %s / %s", where, td[i], tu[i]);
			ck_assert_msg(strcmp(payload_text(td[i]), payload_text(tu[i])) == 0,
			              "%s: tagged and untagged frames read differently:\n%s\n%s", where, td[i],
			              tu[i]);
		}
	}
	free(tbuf);
	free(ubuf);
	free(out);
	free(err);
	replay_capture_free(&cap);
	replay_capture_free(&un);
}
END_TEST

/* The link type alone selects the format; a different --tag is refused. */
START_TEST(test_tag_conflict)
{
	char args[8192], *err;

	snprintf(args, sizeof args, "dsa-decode '%s/edsa.pcap' --tag brcm", corpus_dir());
	ck_assert_int_eq(du_run(args, NULL, &err), 2);
	ck_assert_msg(strstr(err, "edsa"), "%s", err);
	free(err);
	snprintf(args, sizeof args, "dsa-decode '%s/edsa.pcap' --tag edsa --dir tx", corpus_dir());
	ck_assert_int_eq(du_run(args, NULL, NULL), 0);
	snprintf(args, sizeof args, "dsa-decode '%s/does-not-exist.pcap'", corpus_dir());
	ck_assert_int_eq(du_run(args, NULL, NULL), 1);
}
END_TEST

int main(void)
{
	TCase *tc = tcase_create("captures");

	find_files();
	if (nfiles == 0) {
		printf("replay_dsa_corpus_test: no captures in %s: the corpus is missing\n", corpus_dir());
		return EXIT_FAILURE;
	}
	have_tcpdump = system("tcpdump --version >/dev/null 2>&1") == 0;
	if (!have_tcpdump)
		printf("NOTICE: tcpdump not installed: comparison with tcpdump SKIPPED "
		       "(frames are still decoded)\n");
	tcase_add_loop_test(tc, test_capture, 0, nfiles);
	tcase_add_test(tc, test_tag_conflict);
	if (du_run_tcase("replay_dsa_corpus", tc) != EXIT_SUCCESS)
		return EXIT_FAILURE;
	return have_tcpdump ? EXIT_SUCCESS : 77;
}
