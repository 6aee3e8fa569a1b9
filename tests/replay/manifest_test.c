/*
 * manifest_test.c - every capture listed in $OFL_CORPORA/MANIFEST.tsv that
 * `tcpdump -r` reads, offload-replay reads too (the same frame count as
 * `tcpdump --count`), and:
 *   - link type Ethernet, a DSA tag, or an L2-less link type (raw IP, IPv4,
 *     IPv6, BSD loopback, Linux cooked v1/v2: fed to GRO as raw IP, issue 15
 *     item 2): `offload-replay gro` exits 0, says it read that many frames,
 *     and (Ethernet and the L2-less ones) its output holds every TCP payload
 *     byte of the input, per flow, in order.  The L2-less input is read here
 *     with its pseudo-header skipped by this file's own table (RAW_IP), the
 *     output (LINKTYPE_RAW) as it is;
 *   - any other link type: a failure (neither handled nor expected).
 * Exits 77 (skipped) without tcpdump; fails without the corpus.
 */
#define _POSIX_C_SOURCE 200809L /* popen() */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "payload_sum.h"
#include "harness.h"
#include "replay.h"

#define MAX_FILES 1024

/* DLT_ values (pcap_datalink()): Ethernet and the DSA link types */
static const uint32_t HANDLED[] = { 1, 281, 282, 284, 285 };
/* ... and the L2-less ones, with the pseudo-header before the IP header:
 * NULL, RAW, LOOP, LINUX_SLL, IPV4, IPV6, LINUX_SLL2 */
static const struct {
	uint32_t dlt;
	unsigned skip;
} RAW_IP[] = { { 0, 4 }, { 12, 0 }, { 108, 4 }, { 113, 16 }, { 228, 0 }, { 229, 0 }, { 276, 20 } };

/* The pseudo-header length of an L2-less link type, or -1. */
static int raw_skip(uint32_t dlt)
{
	for (size_t i = 0; i < sizeof RAW_IP / sizeof RAW_IP[0]; i++)
		if (RAW_IP[i].dlt == dlt)
			return (int)RAW_IP[i].skip;
	return -1;
}

/* A copy of c as Ethernet frames for payload_sum's parser: skip bytes of
 * each frame dropped, a 14-byte header in front whose EtherType follows the
 * IP version (0 for anything else: left out of the sums). */
static void as_ethernet(const struct replay_capture *c, unsigned skip, struct replay_capture *e)
{
	size_t total = 0, pos = 0;

	memset(e, 0, sizeof *e);
	for (size_t i = 0; i < c->nframes; i++)
		total += c->frames[i].caplen + 14u;
	e->bytes = malloc(total ? total : 1);
	e->frames = calloc(c->nframes ? c->nframes : 1, sizeof *e->frames);
	ck_assert(e->bytes && e->frames);
	for (size_t i = 0; i < c->nframes; i++) {
		const struct replay_frame *f = &c->frames[i];
		uint32_t s = f->caplen < skip ? f->caplen : skip, n = f->caplen - s;
		uint8_t *d = e->bytes + pos, v = n ? f->data[s] >> 4 : 0;
		memset(d, 0, 14);
		d[12] = v == 4 ? 0x08 : v == 6 ? 0x86 : 0;
		d[13] = v == 6 ? 0xdd : 0;
		memcpy(d + 14, f->data + s, n);
		e->frames[i] = (struct replay_frame){ .data = d, .caplen = n + 14u, .len = n + 14u };
		pos += n + 14u;
	}
	e->nframes = c->nframes;
	e->linktype = REPLAY_LINKTYPE_ETHERNET;
}

static char corpora[4096];
static char files[MAX_FILES][512];
static unsigned nfiles;

static int in_list(const uint32_t *l, size_t n, uint32_t v)
{
	for (size_t i = 0; i < n; i++)
		if (l[i] == v)
			return 1;
	return 0;
}

/* Run a shell command; its standard output (first cap-1 bytes) in out.
 * Returns the exit status, -1 when it did not run. */
static int run(const char *cmd, char *out, size_t cap)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0, r;
	int st;

	if (!p)
		return -1;
	while (n < cap - 1 && (r = fread(out + n, 1, cap - 1 - n, p)) > 0)
		n += r;
	out[n] = '\0';
	while (fread((char[256]){ 0 }, 1, 256, p) > 0)
		; /* drain */
	st = pclose(p);
	return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(capture)
{
	char path[8192], cmd[20000], out[16384], err[REPLAY_ERRLEN], want[64], lname[128];
	const char *tmp = REPLAY_TMPDIR;
	struct replay_capture ci, co;
	unsigned long long tcount;
	int rc;

	snprintf(path, sizeof path, "%s/%s", corpora, files[_i]);
	snprintf(cmd, sizeof cmd, "tcpdump -r '%s' --count 2>/dev/null", path);
	rc = run(cmd, out, sizeof out);
	if (rc != 0 || sscanf(out, "%llu packets", &tcount) != 1) {
		printf("%s: tcpdump does not read it (exit %d): not offload-replay's to read\n", files[_i], rc);
		return;
	}
	ck_assert_msg(replay_capture_read(&ci, path, err, sizeof err) == 0, "%s: tcpdump reads it, we do not: %s",
	              files[_i], err);
	ck_assert_msg(ci.nframes == tcount, "%s: %zu frames, tcpdump counts %llu", files[_i], ci.nframes,
	              tcount);

	snprintf(cmd, sizeof cmd, "'%s' gro '%s' '%s/replay_manifest_out.pcap' --stats json 2>'%s/replay_manifest_err.txt'",
	         OFFLOAD_REPLAY_BIN, path, tmp, tmp);
	rc = run(cmd, out, sizeof out);
	replay_linktype_describe(ci.linktype, lname, sizeof lname);
	ck_assert_msg(in_list(HANDLED, sizeof HANDLED / sizeof HANDLED[0], ci.linktype) || raw_skip(ci.linktype) >= 0,
	              "%s: link type %s is neither handled nor raw IP", files[_i], lname);
	ck_assert_msg(rc == 0, "%s: offload-replay gro exit %d", files[_i], rc);
	snprintf(want, sizeof want, "\"frames_in\": %zu,", ci.nframes);
	ck_assert_msg(strstr(out, want), "%s: no %s in %.300s", files[_i], want, out);
	if (ci.linktype == REPLAY_LINKTYPE_ETHERNET || raw_skip(ci.linktype) >= 0) {
		struct summary *si = malloc(sizeof *si), *so = malloc(sizeof *so);
		ck_assert(si && so);
		snprintf(cmd, sizeof cmd, "%s/replay_manifest_out.pcap", tmp);
		ck_assert_msg(replay_capture_read(&co, cmd, err, sizeof err) == 0, "%s", err);
		if (raw_skip(ci.linktype) >= 0) {
			struct replay_capture ei, eo;
			ck_assert_msg(co.linktype == 12, "%s: output link type %u, not RAW", files[_i],
			              (unsigned)co.linktype);
			as_ethernet(&ci, (unsigned)raw_skip(ci.linktype), &ei);
			as_ethernet(&co, 0, &eo);
			summarize(&ei, si);
			summarize(&eo, so);
			printf("%s: link type %s read as raw IP, %llu payload bytes conserved\n", files[_i], lname,
			       (unsigned long long)si->payload);
			replay_capture_free(&ei);
			replay_capture_free(&eo);
		} else {
			summarize(&ci, si);
			summarize(&co, so);
		}
		ck_assert_msg(so->payload == si->payload, "%s: %llu payload bytes out of %llu", files[_i],
		              (unsigned long long)so->payload, (unsigned long long)si->payload);
		ck_assert_uint_eq(so->nflows, si->nflows);
		for (unsigned i = 0; i < si->nflows; i++) {
			struct flow_sum *f = flow_of(so, si->flows[i].key);
			ck_assert_msg(f->bytes == si->flows[i].bytes && f->hash == si->flows[i].hash,
			              "%s: flow %u: payload stream differs", files[_i], i);
		}
		replay_capture_free(&co);
		free(si);
		free(so);
	}
	replay_capture_free(&ci);
}
END_TEST

static int load_manifest(void)
{
	char mf[8192], line[8192];
	FILE *fp;

	snprintf(mf, sizeof mf, "%s/MANIFEST.tsv", corpora);
	fp = fopen(mf, "r");
	if (!fp)
		return -1;
	while (fgets(line, sizeof line, fp) && nfiles < MAX_FILES) {
		char *tab = strchr(line, '\t');
		if (!tab || strncmp(line, "path\t", 5) == 0)
			continue;
		*tab = '\0';
		if ((size_t)(tab - line) < sizeof files[0])
			memcpy(files[nfiles++], line, (size_t)(tab - line) + 1);
	}
	fclose(fp);
	return nfiles ? 0 : -1;
}

int main(void)
{
	const char *c = getenv("OFL_CORPORA");
	char out[256];
	struct h_test tests[] = {{capture, 0}};

	if (run("tcpdump --version >/dev/null 2>&1; echo $?", out, sizeof out) != 0 || atoi(out) != 0) {
		printf("replay_manifest_test: no tcpdump: skipped\n");
		return 77;
	}
	snprintf(corpora, sizeof corpora, "%s", c && *c ? c : "../shared/corpora");
	if (load_manifest() < 0) {
		printf("replay_manifest_test: no %s/MANIFEST.tsv: failed\n", corpora);
		return EXIT_FAILURE;
	}
	tests[0].loops = (int)nfiles;
	return h_run_table("replay_manifest", 120, 0, tests, nfiles ? 1 : 0);
}
