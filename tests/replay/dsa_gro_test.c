/*
 * dsa_gro_test.c - `offload-replay gro` through DSA tags.  A bulk TCP
 * capture of our own (tests/support/gen.h: 4 flows, full-size segments,
 * round robin) is written untagged, and tagged with ofl_dsa_encode() in the
 * RX layout, flows 0 and 2 from port 3 and flows 1 and 3 from port 5, for
 * several formats (a DSA link type that names its format, and Ethernet
 * captures with --dsa NAME; head, prepended and tail tags).  Then:
 *   - gro of the tagged capture (untagged delivery) writes exactly, frame
 *     for frame and byte for byte, what gro of the untagged capture writes,
 *     and the merging really happened (fewer frames out than in);
 *   - its per-port counts say how many packets and segments each port got,
 *     as counted on the untagged run's output;
 *   - with --dsa-keep-tag the output keeps the link type and the tags:
 *     dsa-decode gives every packet its flow's port, and untagged it is the
 *     same capture again.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsa_util.h"
#include "harness.h"
#include "gen.h"

#define NFLOWS 4u
#define NSEG 24u
#define MSS 1448u
#define STRIDE 2048u
#define NFRAMES (NFLOWS * NSEG)
#define MAX_LINES 256

static const struct {
	const char *name;
	uint32_t linktype; /* 1: Ethernet, --dsa NAME */
} formats[] = {
	{ "edsa", 285 }, { "dsa", 284 }, { "brcm", 281 }, { "brcm-prepend", 282 },
	{ "mtk", 1 },    { "ksz9477", 1 }, { "ocelot", 1 }, { "8021q", 1 },
};
#define NFORMATS (sizeof formats / sizeof formats[0])

static uint8_t frames[NFRAMES * STRIDE];
static uint8_t *fr[NFRAMES];
static uint32_t lens[NFRAMES];

static unsigned port_of_flow(unsigned flow)
{
	return flow % 2 ? 5 : 3;
}

/* gen_bulk's flows use source ports 1000 + flow; IPv4 without options. */
static unsigned flow_of(const uint8_t *f, uint32_t len)
{
	ck_assert_uint_ge(len, 54);
	ck_assert_uint_eq(f[12], 0x08);
	return (unsigned)(f[34] << 8 | f[35]) - 1000u;
}

static void make_untagged(void)
{
	ck_assert_uint_eq(gen_bulk(4, NFLOWS, NSEG, MSS, frames, STRIDE, lens), NFRAMES);
	for (unsigned i = 0; i < NFRAMES; i++)
		fr[i] = frames + (size_t)i * STRIDE;
	du_write(du_tmp("dsa_gro_un.pcap"), 1, fr, lens, NFRAMES);
}

static void make_tagged(const char *name, uint32_t linktype, const char *path)
{
	const struct ofl_dsa_ops *ops = ofl_dsa_find(name);
	uint8_t *t[NFRAMES];
	uint32_t tl[NFRAMES];

	ck_assert_ptr_nonnull(ops);
	for (unsigned i = 0; i < NFRAMES; i++) {
		struct ofl_dsa_meta m = { .valid = OFL_DSA_M_PORT, .port = (uint8_t)port_of_flow(i % NFLOWS) };
		ck_assert_uint_eq(flow_of(fr[i], lens[i]), i % NFLOWS);
		t[i] = du_encode(ops, OFL_DSA_RX, &m, fr[i], lens[i], &tl[i]);
	}
	du_write(path, linktype, t, tl, NFRAMES);
	for (unsigned i = 0; i < NFRAMES; i++)
		free(t[i]);
}

static void same_capture(const char *where, const struct replay_capture *a,
                         const struct replay_capture *b)
{
	ck_assert_msg(a->nframes == b->nframes, "%s: %zu frames vs %zu", where, a->nframes, b->nframes);
	for (size_t i = 0; i < a->nframes; i++) {
		ck_assert_msg(a->frames[i].caplen == b->frames[i].caplen &&
		                  memcmp(a->frames[i].data, b->frames[i].data, a->frames[i].caplen) == 0,
		              "%s: frame %zu differs", where, i + 1);
		ck_assert_uint_eq(a->frames[i].len, b->frames[i].len);
		ck_assert_uint_eq(a->frames[i].ts_ns, b->frames[i].ts_ns);
	}
}

/* "  switch 0 port 3    packets segments merged" or "  port 3 ..." */
static void port_counts(const char *stats, unsigned port, uint64_t *pkts, uint64_t *segs)
{
	char key[32];
	const char *s;
	unsigned long long p, g, m;

	snprintf(key, sizeof key, "port %u ", port);
	s = strstr(stats, "\ndsa (");
	ck_assert_msg(s != NULL, "no dsa section in:\n%s", stats);
	s = strstr(s, key);
	ck_assert_msg(s != NULL, "no '%s' in:\n%s", key, stats);
	ck_assert_int_eq(sscanf(s + strlen(key), "%llu %llu %llu", &p, &g, &m), 3);
	*pkts = p;
	*segs = g;
}

START_TEST(test_format)
{
	const char *name = formats[_i].name;
	uint32_t lt = formats[_i].linktype;
	const char *tagged = du_tmp("dsa_gro_tagged.pcap"), *out_t = du_tmp("dsa_gro_out_t.pcap"),
	           *out_u = du_tmp("dsa_gro_out_u.pcap"), *out_k = du_tmp("dsa_gro_out_k.pcap"),
	           *out_ku = du_tmp("dsa_gro_out_ku.pcap");
	char args[16384], dsa_arg[64], *out, *err;
	struct replay_capture cu, ct, ck, cku;
	struct du_line lines[MAX_LINES];
	uint64_t want_pkts[2] = { 0, 0 }, want_segs[2] = { 0, 0 };
	int rc;

	make_tagged(name, lt, tagged);
	dsa_arg[0] = '\0';
	if (lt == 1)
		snprintf(dsa_arg, sizeof dsa_arg, "--dsa %s", name);

	snprintf(args, sizeof args, "gro '%s' '%s'", du_tmp("dsa_gro_un.pcap"), out_u);
	ck_assert_int_eq(du_run(args, NULL, NULL), 0);
	snprintf(args, sizeof args, "gro '%s' '%s' %s", tagged, out_t, dsa_arg);
	rc = du_run(args, &out, &err);
	ck_assert_msg(rc == 0, "%s: gro exit %d: %s", name, rc, err);
	du_read(out_u, &cu);
	du_read(out_t, &ct);
	ck_assert_uint_eq(ct.linktype, 1);
	ck_assert_msg(cu.nframes < NFRAMES / 4, "%s: nothing merged (%zu frames)", name, cu.nframes);
	same_capture(name, &ct, &cu);

	/* per-port counts, from the untagged run's output */
	for (size_t i = 0; i < cu.nframes; i++) {
		const struct replay_frame *f = &cu.frames[i];
		unsigned flow = flow_of(f->data, f->caplen);
		unsigned ip_len = (unsigned)(f->data[16] << 8 | f->data[17]);
		want_pkts[flow % 2]++;
		want_segs[flow % 2] += (ip_len - 40u + MSS - 1) / MSS;
	}
	for (unsigned k = 0; k < 2; k++) {
		uint64_t p, s;
		port_counts(out, k ? 5 : 3, &p, &s);
		ck_assert_msg(p == want_pkts[k] && s == want_segs[k],
		              "%s port %u: %llu packets %llu segments, want %llu %llu", name, k ? 5 : 3,
		              (unsigned long long)p, (unsigned long long)s,
		              (unsigned long long)want_pkts[k], (unsigned long long)want_segs[k]);
		ck_assert_uint_eq(want_segs[k], NFRAMES / 2);
	}
	{
		const char *nv = strstr(out, "no valid tag");
		unsigned long long bad = 1;
		ck_assert_msg(nv && sscanf(nv + 12, "%llu", &bad) == 1 && bad == 0, "%s", out);
	}
	free(out);
	free(err);

	/* keep-tag: the same packets, each with its port's tag */
	snprintf(args, sizeof args, "gro '%s' '%s' %s --dsa-keep-tag", tagged, out_k, dsa_arg);
	ck_assert_int_eq(du_run(args, NULL, NULL), 0);
	du_read(out_k, &ck);
	ck_assert_uint_eq(ck.linktype, lt);
	ck_assert_uint_eq(ck.nframes, cu.nframes);
	snprintf(args, sizeof args, "dsa-decode '%s' '%s' --dir rx %s %s", out_k, out_ku,
	         lt == 1 ? "--tag" : "", lt == 1 ? name : "");
	rc = du_run(args, &out, &err);
	ck_assert_msg(rc == 0, "%s: dsa-decode exit %d: %s", name, rc, err);
	ck_assert_uint_eq(du_lines(out, lines, MAX_LINES), cu.nframes);
	du_read(out_ku, &cku);
	same_capture(name, &cku, &cu);
	for (size_t i = 0; i < cu.nframes; i++) {
		unsigned flow = flow_of(cu.frames[i].data, cu.frames[i].caplen);
		ck_assert_msg(lines[i].dir == 'r' && lines[i].port == (int)port_of_flow(flow),
		              "%s packet %zu of flow %u: %s", name, i + 1, flow, lines[i].text);
	}
	free(out);
	free(err);
	replay_capture_free(&cu);
	replay_capture_free(&ct);
	replay_capture_free(&ck);
	replay_capture_free(&cku);
}
END_TEST

/* Frames without a valid tag are counted, not merged, and left out of an
 * untagged OUT; --dsa-keep-tag without a format is a usage error. */
START_TEST(test_bad_tags)
{
	char args[8192], *out;
	struct replay_capture c;

	snprintf(args, sizeof args, "gro '%s' '%s' --dsa rtl8_4", du_tmp("dsa_gro_un.pcap"),
	         du_tmp("dsa_gro_bad.pcap"));
	ck_assert_int_eq(du_run(args, &out, NULL), 0);
	ck_assert_msg(strstr(out, "bad_tag") && strstr(out, "not written (untagged OUT)"), "%s", out);
	free(out);
	du_read(du_tmp("dsa_gro_bad.pcap"), &c);
	ck_assert_uint_eq(c.nframes, 0);
	replay_capture_free(&c);
	snprintf(args, sizeof args, "gro '%s' - --dsa-keep-tag", du_tmp("dsa_gro_un.pcap"));
	ck_assert_int_eq(du_run(args, NULL, NULL), 2);
	snprintf(args, sizeof args, "gro '%s' - --dsa nosuch", du_tmp("dsa_gro_un.pcap"));
	ck_assert_int_eq(du_run(args, NULL, NULL), 2);
}
END_TEST

H_MAIN_FIXTURE("replay_dsa_gro", 300, make_untagged, NULL, {test_format, (int)NFORMATS}, {test_bad_tags, 0})
