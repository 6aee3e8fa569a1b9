/*
 * cli_test.c - exit codes and messages of the offload-replay binary, one
 * table row per command line: 0 success, 1 unreadable or invalid input or
 * output, 2 bad usage.  The JSON statistics are checked to parse.  (A C
 * program rather than a shell script, so that the valgrind stage of CI
 * looks at offload-replay and not at the shell.)
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <ofl/ofl.h>

#include "harness.h"

#define CAPTURE "tcp-bulk/suricata-verify__bug-4663.pcap"
#define OUTCAP 262144

/* One command line (run by the shell); in args, {E} {R} {W} {S} {J} {X} {N} name
 * the captures made here (empty Ethernet, RAW link type, 802.11, short header, junk,
 * cut frame, an output path), {C} the corpus capture, {U} a UDP fixture of the
 * repository ($OFL_SOURCE_DIR), {B} offload-replay;
 * args starting with '!' are a whole command line (else offload-replay's
 * arguments).  NULL patterns are not checked.  Messages about files are libpcap's. */
struct cli_case {
	const char *name;
	const char *args;
	int exit_code;
	const char *out;  /* substring of standard output */
	const char *err;  /* substring of standard error */
	unsigned needs;   /* NEEDS_* */
};

#define NEEDS_CORPUS 1u
#define NEEDS_GSO 2u
#define NEEDS_DEV_FULL 4u
#define JSON_OUT 8u /* standard output must be one JSON object */
#define NEEDS_TCPDUMP 16u

static const struct cli_case cases[] = {
	{ "--help", "--help", 0, "usage: offload-replay COMMAND", NULL, 0 },
	{ "-h", "-h", 0, "gro IN OUT", NULL, 0 },
	{ "gro --help", "gro --help", 0, "--flush-timeout-ns", NULL, 0 },
	{ "gro -h", "gro -h", 0, "OUT '-' standard output", NULL, 0 },
	{ "no arguments", "", 2, NULL, "usage:", 0 },
	{ "unknown command", "frobnicate", 2, NULL, "unknown command 'frobnicate'", 0 },
	{ "unknown option", "gro --bogus {E} -", 2, NULL, "unknown option '--bogus'", 0 },
	{ "missing OUT", "gro {E}", 2, NULL, "needs IN and OUT", 0 },
	{ "extra argument", "gro {E} - more", 2, NULL, "unexpected argument 'more'", 0 },
	{ "--burst abc", "gro --burst abc {E} -", 2, NULL, "--burst wants", 0 },
	{ "--burst -1", "gro --burst -1 {E} -", 2, NULL, "--burst wants", 0 },
	{ "--burst without value", "gro {E} - --burst", 2, NULL, "needs a value", 0 },
	{ "--max-size 100", "gro --max-size 100 {E} -", 2, NULL, "--max-size wants", 0 },
	{ "--batch=0", "gro --batch=0 {E} -", 2, NULL, "--batch wants", 0 },
	{ "--csum maybe", "gro --csum maybe {E} -", 2, NULL, "--csum wants", 0 },
	{ "--stats xml", "gro --stats xml {E} -", 2, NULL, "--stats wants", 0 },
	{ "--rx-csum maybe", "gro --rx-csum maybe {E} -", 2, NULL, "--rx-csum wants", 0 },
	{ "--split x", "gro --split x {E} -", 2, NULL, "--split wants", 0 },
	{ "flag with a value", "gro --lax-snaplen=1 {E} -", 2, NULL, "takes no value", 0 },
	{ "--flows beyond the engine", "gro --flows 4294967295 {E} -", 2, NULL,
	  "engine refused --flows 4294967295", 0 },
	{ "missing file", "gro /nonexistent/in.pcap -", 1, NULL, "/nonexistent/in.pcap", 0 },
	{ "junk file", "gro {J} -", 1, NULL, "junk.pcap: unknown file format", 0 },
	{ "short header", "gro {S} -", 1, NULL, "short.pcap: truncated dump file", 0 },
	{ "frame past the end", "gro {X} -", 1, NULL, "frame 1: truncated dump file; tried to read 100", 0 },
	{ "unsupported link type", "gro {W} -", 1, NULL,
	  "wlan.pcap: link type 105 (IEEE802_11, 802.11) is not supported", 0 },
	{ "raw IP link type", "gro {R} {N}", 0, "frames in                               0", NULL, 0 },
	{ "raw IP with --dsa", "gro --dsa edsa {R} {N}", 2, NULL,
	  "raw.pcap: link type 12 (RAW, Raw IP) carries IP packets, no DSA tags", 0 },
	{ "unwritable output", "gro {E} /nonexistent/out.pcap", 1, NULL, "/nonexistent/out.pcap", 0 },
	{ "write error", "gro {E} /dev/full", 1, NULL, "/dev/full: write error", NEEDS_DEV_FULL },
	{ "empty capture", "gro {E} {N}", 0, "frames in                               0", NULL, 0 },
	{ "empty capture, JSON", "gro --stats json {E} {N}", 0, "\"rx_pkts\": 0", NULL, JSON_OUT },
	/* {U}: a committed UDP fixture (80 datagrams of one flow) */
	{ "gro --help names --udp", "gro --help", 0, "--udp ", NULL, 0 },
	{ "UDP passed on without --udp", "gro {U} {N}", 0, "not_tcp", NULL, 0 },
	{ "--udp merges 64 datagrams", "gro --udp {U} {N}", 0, "udp_cnt", NULL, 0 },
	{ "--udp, JSON", "gro --udp --stats json {U} {N}", 0, "\"udp_cnt\": 1", NULL, JSON_OUT },
	{ "gro --help names --fraglist", "gro --help", 0, "--fraglist ", NULL, 0 },
	{ "--fraglist chains UDP too", "gro --fraglist --trace {U} {N}", 0, "fraglist mode",
	  "GRO 64 segs of 1000, 64042 bytes, list of frames 1-64", 0 },
	{ "--udp-fraglist, JSON", "gro --udp-fraglist --stats json {U} {N}", 0, "\"csum_state\": 0", NULL, JSON_OUT },
	{ "gso --help", "gso --help", 0, "gso IN OUT --mss N", NULL, NEEDS_GSO },
	{ "gso without --mss", "gso {E} -", 2, NULL, "--mss is required", NEEDS_GSO },
	{ "corpus, text", "gro {C} {N} --flush-timeout-ns 1000000", 0, "segments per GRO packet", NULL,
	  NEEDS_CORPUS },
	{ "corpus, --trace", "gro --trace {C} {N}", 0, NULL, " segs of 1448, ", NEEDS_CORPUS },
	{ "corpus, --kernel-napi", "gro --kernel-napi {C} {N}", 0, "kernel NAPI polling: first poll of 1",
	  NULL, NEEDS_CORPUS },
	{ "corpus, --rx-csum/--split", "gro --rx-csum complete --split 60 {C} {N}", 0,
	  "rx checksum complete, split 60", NULL, NEEDS_CORPUS },
	{ "corpus, JSON", "gro --stats=json --burst 0 --csum partial {C} {N}", 0, "\"normal_why\": {", NULL,
	  NEEDS_CORPUS | JSON_OUT },
	/* '-': standard input and output (the statistics then on standard error) */
	{ "standard input", "gro - {N} < {C}", 0, "offload-replay gro: - -> ", NULL, NEEDS_CORPUS },
	{ "standard output", "gro {C} -", 0, NULL, "segments per GRO packet", NEEDS_CORPUS },
	{ "a pipe", "gro {C} - 2>/dev/null | {B} gro - {N}", 0, "segments per GRO packet", NULL,
	  NEEDS_CORPUS },
	{ "from tcpdump", "!tcpdump -r {C} -w - 2>/dev/null | {B} gro - {N}",
	  0, "segments per GRO packet", NULL, NEEDS_CORPUS | NEEDS_TCPDUMP },
};
#define NCASES (sizeof cases / sizeof cases[0])

static char tmp[4096], capture[8192];
static int have_gso;
static int have_dev_full;
static int have_tcpdump;

/* ---- a JSON syntax check (RFC 8259 values) --------------------------------- */

static const char *json_value(const char *p, int depth);

static const char *json_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *json_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	for (; *p != '"'; p++) {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return NULL;
				p += 4;
			} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
				return NULL;
			}
		}
	}
	return p + 1;
}

static const char *json_number(const char *p)
{
	const char *start;

	if (*p == '-')
		p++;
	start = p;
	while (*p >= '0' && *p <= '9')
		p++;
	if (p == start || (*start == '0' && p - start > 1))
		return NULL;
	if (*p == '.') {
		start = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == start)
			return NULL;
	}
	return p;
}

/* "{...}" or "[...]": members or elements separated by commas */
static const char *json_container(const char *p, int depth, char close)
{
	p = json_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (close == '}') {
			p = json_string(p);
			if (!p || *(p = json_ws(p)) != ':')
				return NULL;
			p = json_ws(p + 1);
		}
		if (!(p = json_value(p, depth + 1)))
			return NULL;
		p = json_ws(p);
		if (*p == close)
			return p + 1;
		if (*p != ',')
			return NULL;
		p = json_ws(p + 1);
	}
}

static const char *json_value(const char *p, int depth)
{
	if (depth > 32)
		return NULL;
	switch (*p) {
	case '{':
		return json_container(p, depth, '}');
	case '[':
		return json_container(p, depth, ']');
	case '"':
		return json_string(p);
	case 't':
		return strncmp(p, "true", 4) == 0 ? p + 4 : NULL;
	case 'f':
		return strncmp(p, "false", 5) == 0 ? p + 5 : NULL;
	case 'n':
		return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
	default:
		return json_number(p);
	}
}

/* One JSON object and nothing else but white space. */
static int json_ok(const char *s)
{
	const char *p = json_ws(s);

	if (*p != '{' || !(p = json_value(p, 0)))
		return 0;
	return *json_ws(p) == '\0';
}

/* ---- running the binary ----------------------------------------------------- */

static void write_file(const char *name, const void *data, size_t len)
{
	char path[8192];
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", tmp, name);
	fp = fopen(path, "wb");
	if (!fp || fwrite(data, 1, len, fp) != len || fclose(fp) != 0) {
		perror(path);
		exit(EXIT_FAILURE);
	}
}

/* The captures of the table, made once. */
static void make_files(void)
{
	static const uint8_t hdr[20] = { 0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0,
	                                 0, 0, 0, 0, 0xff, 0xff, 0, 0 };
	uint8_t b[24 + 16 + 60] = { 0 };

	memcpy(b, hdr, sizeof hdr);
	b[20] = 1; /* Ethernet */
	write_file("replay_cli_empty.pcap", b, 24);
	b[20] = 101; /* RAW */
	write_file("replay_cli_raw.pcap", b, 24);
	b[20] = 105; /* IEEE802_11 */
	write_file("replay_cli_wlan.pcap", b, 24);
	b[20] = 101;
	write_file("replay_cli_short.pcap", b, 10);
	write_file("replay_cli_junk.pcap", "this is not a capture at all", 28);
	/* one 60-byte frame whose record says 100 bytes were captured */
	b[20] = 1;
	b[24 + 8] = 100;
	b[24 + 12] = 100;
	write_file("replay_cli_cut.pcap", b, sizeof b);
}

/* Replace {E} etc. in args by quoted paths. */
static void expand(const char *args, char *out, size_t cap)
{
	size_t n = 0;

	for (const char *p = args; *p && n + 1 < cap; p++) {
		const char *name = NULL;
		if (p[0] == '{' && p[1] && p[2] == '}') {
			switch (p[1]) {
			case 'E': name = "replay_cli_empty.pcap"; break;
			case 'R': name = "replay_cli_raw.pcap"; break;
			case 'W': name = "replay_cli_wlan.pcap"; break;
			case 'S': name = "replay_cli_short.pcap"; break;
			case 'J': name = "replay_cli_junk.pcap"; break;
			case 'X': name = "replay_cli_cut.pcap"; break;
			case 'N': name = "replay_cli_out.pcap"; break;
			case 'C': name = ""; break;
			case 'U': name = "U"; break;
			case 'B': name = OFFLOAD_REPLAY_BIN; break;
			default: break;
			}
		}
		if (!name) {
			out[n++] = *p;
			continue;
		}
		const char *src = getenv("OFL_SOURCE_DIR");
		int w = p[1] == 'U' ? snprintf(out + n, cap - n, "'%s/tests/fixtures/kernel/udpgro_bulk_v4/IN.pcap'",
		                               src && *src ? src : ".")
		        : p[1] == 'B' ? snprintf(out + n, cap - n, "'%s'", name)
		        : *name   ? snprintf(out + n, cap - n, "'%s/%s'", tmp, name)
		                  : snprintf(out + n, cap - n, "'%s'", capture);
		if (w < 0 || (size_t)w >= cap - n)
			abort(); /* the table's lines are short */
		n += (size_t)w;
		p += 2;
	}
	out[n] = '\0';
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *buf = calloc(1, OUTCAP + 1);
	size_t n = 0;

	if (!buf)
		abort();
	if (fp) {
		n = fread(buf, 1, OUTCAP, fp);
		fclose(fp);
	}
	buf[n] = '\0';
	return buf;
}

/* Run offload-replay ARGS; returns its exit status (-1: did not run), *out
 * and *err its output.  No Check assertions: main() uses it too. */
static int run(const char *args, char **out, char **err)
{
	char expanded[16384], cmd[40960], po[8192], pe[8192];
	int rc;

	expand(args, expanded, sizeof expanded);
	snprintf(po, sizeof po, "%s/replay_cli_stdout.txt", tmp);
	snprintf(pe, sizeof pe, "%s/replay_cli_stderr.txt", tmp);
	if (expanded[0] == '!') /* a command line of its own */
		snprintf(cmd, sizeof cmd, "%s >'%s' 2>'%s'", expanded + 1, po, pe);
	else
		snprintf(cmd, sizeof cmd, "'%s' %s >'%s' 2>'%s'", OFFLOAD_REPLAY_BIN, expanded, po, pe);
	rc = system(cmd);
	*out = slurp(po);
	*err = slurp(pe);
	return rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static int can_open(const char *path, const char *mode)
{
	FILE *fp = fopen(path, mode);

	if (fp)
		fclose(fp);
	return fp != NULL;
}

START_TEST(cli_case)
{
	const struct cli_case *c = &cases[_i];
	char *out, *err;

	/* a missing corpus capture or subcommand fails the case; only a
	 * system without /dev/full or tcpdump skips one (main() then exits 77) */
	ck_assert_msg(!(c->needs & NEEDS_CORPUS) || can_open(capture, "rb"), "%s: corpus capture %s missing",
	              c->name, capture);
	ck_assert_msg(!(c->needs & NEEDS_GSO) || have_gso, "%s: offload-replay --help lists no gso", c->name);
	if ((c->needs & NEEDS_TCPDUMP) && !have_tcpdump)
		return;
	if ((c->needs & NEEDS_DEV_FULL) && !have_dev_full)
		return;
	int rc = run(c->args, &out, &err);
	ck_assert_msg(rc == c->exit_code, "%s: exit %d, want %d\nstdout: %.500s\nstderr: %.500s", c->name,
	              rc, c->exit_code, out, err);
	ck_assert_msg(!c->out || strstr(out, c->out), "%s: stdout lacks '%s':\n%.1000s", c->name, c->out,
	              out);
	ck_assert_msg(!c->err || strstr(err, c->err), "%s: stderr lacks '%s':\n%.1000s", c->name, c->err,
	              err);
	ck_assert_msg(!(c->needs & JSON_OUT) || json_ok(out), "%s: not one JSON object:\n%.2000s", c->name,
	              out);
	free(out);
	free(err);
}
END_TEST

START_TEST(version)
{
	char *out, *err, want[128];

	snprintf(want, sizeof want, "offload-replay %s\n", ofl_version());
	ck_assert_int_eq(run("--version", &out, &err), 0);
	ck_assert_str_eq(out, want);
	free(out);
	free(err);
}
END_TEST

/* An empty capture in, a bare pcap header out. */
START_TEST(empty_output)
{
	char *out, *err, path[8192];
	FILE *fp;

	ck_assert_int_eq(run("gro {E} {N}", &out, &err), 0);
	snprintf(path, sizeof path, "%s/replay_cli_out.pcap", tmp);
	fp = fopen(path, "rb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(fseek(fp, 0, SEEK_END), 0);
	ck_assert_int_eq(ftell(fp), 24);
	fclose(fp);
	free(out);
	free(err);
}
END_TEST

START_TEST(json_checker)
{
	ck_assert(json_ok("{\"a\": [1, -2.5, \"x\\n\\u00e9\", true, false, null, {}], \"b\": {\"c\": 0}}"));
	ck_assert(!json_ok("{\"a\": 1,}"));
	ck_assert(!json_ok("{\"a\": 01}"));
	ck_assert(!json_ok("{\"a\": \"\x01\"}"));
	ck_assert(!json_ok("{\"a\": 1} x"));
	ck_assert(!json_ok("[1]"));
}
END_TEST

int main(void)
{
	const char *corpora = getenv("OFL_CORPORA");
	char *out, *err;

	snprintf(tmp, sizeof tmp, "%s", REPLAY_TMPDIR);
	snprintf(capture, sizeof capture, "%s/%s", corpora && *corpora ? corpora : "../shared/corpora",
	         CAPTURE);
	make_files();
	/* subcommands of other areas are tested when the build lists them */
	if (run("--help", &out, &err) == 0)
		have_gso = strstr(out, "\n  gso ") != NULL;
	free(out);
	free(err);
	have_dev_full = can_open("/dev/full", "wb");
	if (!have_dev_full)
		printf("NOTICE: no writable /dev/full: the write-error cases are SKIPPED\n");
	have_tcpdump = system("tcpdump --version >/dev/null 2>&1") == 0;
	if (!have_tcpdump)
		printf("NOTICE: no tcpdump: the pipe-from-tcpdump cases are SKIPPED\n");

	/* the cases share two output files: they run in order */
	const struct h_test tests[] = {{cli_case, (int)NCASES}, {version, 0}, {empty_output, 0}, {json_checker, 0}};
	int failed = h_run_table("replay_cli", 0, H_NOFORK, tests, sizeof tests / sizeof tests[0]);
	if (failed)
		return EXIT_FAILURE;
	return have_dev_full && have_tcpdump ? EXIT_SUCCESS : 77;
}
