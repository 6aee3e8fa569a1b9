/*
 * dsa_gso_test.c - `offload-replay gso --dsa`: a capture of super-packets
 * (an IPv4 and an IPv6 TCP super-packet of our own, tests/support/gen.h,
 * and one small frame) is tagged with dsa-encode for one switch port (TX
 * layout) in several formats (head, prepended, tail tags; DSA link types
 * that name their format and Ethernet captures with --dsa NAME), then cut
 * with gso.  Every output frame must decode (TX layout) to that port, and
 * the untagged output must be exactly what gso writes for the untagged
 * capture: valid segments (checksums, lengths, sequence numbers and payload
 * bytes checked here too), the small frame unchanged.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsa_util.h"
#include "harness.h"
#include "gen.h"

#define MSS 1000u
#define MAX_LINES 256

static const struct {
	const char *name;
	uint32_t linktype;
	unsigned port;
} formats[] = {
	{ "edsa", 285, 3 },   { "dsa", 284, 7 },     { "brcm", 281, 5 },  { "brcm-prepend", 282, 8 },
	{ "mtk", 1, 2 },      { "ksz9477", 1, 4 },   { "trailer", 1, 1 }, { "qca", 1, 6 },
	{ "ocelot", 1, 9 },   { "8021q", 1, 11 },    { "lan9303", 1, 2 }, { "rtl8_4t", 1, 3 },
};
#define NFORMATS (sizeof formats / sizeof formats[0])

static const uint32_t payloads[3] = { 30000, 20000, 100 };
static uint32_t nsegs_want;

static void make_input(void)
{
	uint8_t *fr[3];
	uint32_t len[3];
	struct gen_tcp g;

	nsegs_want = 0;
	for (unsigned i = 0; i < 3; i++) {
		gen_tcp_init(&g, i == 1 ? 6 : 4);
		g.payload_len = payloads[i];
		g.sport = (uint16_t)(3000 + i);
		g.flow_salt = i;
		g.seq = 5000;
		gen_opt_ts(&g, 77, 88);
		len[i] = (uint32_t)gen_tcp_len(&g);
		fr[i] = malloc(len[i]);
		ck_assert_ptr_nonnull(fr[i]);
		ck_assert_uint_eq(gen_tcp_frame(&g, fr[i], len[i]), len[i]);
		nsegs_want += (payloads[i] + MSS - 1) / MSS;
	}
	du_write(du_tmp("dsa_gso_un.pcap"), 1, fr, len, 3);
	for (unsigned i = 0; i < 3; i++)
		free(fr[i]);
}

/* One segment of the untagged output: checksums, lengths, its flow's
 * payload bytes at its sequence number.  Returns the flow (0..2). */
static unsigned check_segment(const char *where, const struct replay_frame *f)
{
	const uint8_t *p = f->data;
	uint32_t l3 = 14, l4, pay, seq, ip_len;
	unsigned flow;

	ck_assert_msg(gen_frame_csums_ok(p, f->caplen), "%s: bad checksum", where);
	if (p[12] == 0x08) {
		l4 = l3 + (p[l3] & 15u) * 4u;
		ip_len = (uint32_t)(p[l3 + 2] << 8 | p[l3 + 3]);
		ck_assert_uint_eq(l3 + ip_len, f->caplen);
	} else {
		ck_assert_uint_eq(p[12], 0x86);
		l4 = l3 + 40;
		ip_len = 40u + (uint32_t)(p[l3 + 4] << 8 | p[l3 + 5]);
		ck_assert_uint_eq(l3 + ip_len, f->caplen);
	}
	flow = (unsigned)(p[l4] << 8 | p[l4 + 1]) - 3000u;
	ck_assert_uint_lt(flow, 3);
	seq = (uint32_t)p[l4 + 4] << 24 | (uint32_t)p[l4 + 5] << 16 | (uint32_t)p[l4 + 6] << 8 | p[l4 + 7];
	pay = l4 + (p[l4 + 12] >> 4) * 4u;
	ck_assert_msg(f->caplen - pay <= MSS, "%s: %u payload bytes", where, f->caplen - pay);
	ck_assert_uint_ge(seq, 5000);
	ck_assert_uint_le(seq - 5000 + (f->caplen - pay), payloads[flow]);
	for (uint32_t b = pay; b < f->caplen; b++)
		ck_assert_msg(p[b] == gen_payload_byte(flow, seq + (b - pay)), "%s: payload byte %u",
		              where, b - pay);
	return flow;
}

START_TEST(test_format)
{
	const char *name = formats[_i].name;
	uint32_t lt = formats[_i].linktype;
	unsigned port = formats[_i].port;
	const char *tagged = du_tmp("dsa_gso_tagged.pcap"), *out_t = du_tmp("dsa_gso_out_t.pcap"),
	           *out_u = du_tmp("dsa_gso_out_u.pcap"), *out_tu = du_tmp("dsa_gso_out_tu.pcap");
	char args[16384], *out, *err, where[128];
	struct replay_capture cu, ct, ctu;
	struct du_line lines[MAX_LINES];
	uint32_t bytes[3] = { 0, 0, 0 };
	size_t n;
	int rc;

	snprintf(args, sizeof args, "dsa-encode '%s' '%s' --tag %s --port %u",
	         du_tmp("dsa_gso_un.pcap"), tagged, name, port);
	rc = du_run(args, NULL, &err);
	ck_assert_msg(rc == 0, "%s: dsa-encode exit %d: %s", name, rc, err);
	free(err);

	snprintf(args, sizeof args, "gso '%s' '%s' --mss %u", du_tmp("dsa_gso_un.pcap"), out_u, MSS);
	ck_assert_int_eq(du_run(args, NULL, NULL), 0);
	snprintf(args, sizeof args, "gso '%s' '%s' --mss %u %s %s", tagged, out_t, MSS,
	         lt == 1 ? "--dsa" : "", lt == 1 ? name : "");
	rc = du_run(args, &out, &err);
	ck_assert_msg(rc == 0, "%s: gso exit %d: %s", name, rc, err);
	ck_assert_msg(strstr(out, "super-packets segmented") != NULL, "%s", out);
	free(out);
	free(err);
	du_read(out_u, &cu);
	du_read(out_t, &ct);
	ck_assert_uint_eq(ct.linktype, lt);
	ck_assert_uint_eq(cu.nframes, nsegs_want);
	ck_assert_uint_eq(ct.nframes, nsegs_want);

	/* every segment carries the port's tag */
	snprintf(args, sizeof args, "dsa-decode '%s' '%s' --dir tx %s %s", out_t, out_tu,
	         lt == 1 ? "--tag" : "", lt == 1 ? name : "");
	rc = du_run(args, &out, &err);
	ck_assert_msg(rc == 0, "%s: dsa-decode exit %d: %s", name, rc, err);
	n = du_lines(out, lines, MAX_LINES);
	ck_assert_uint_eq(n, nsegs_want);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(lines[i].dir == 't' && lines[i].port == (int)port, "%s segment %zu: %s",
		              name, i + 1, lines[i].text);
	free(out);
	free(err);

	/* untagged, they are gso's segments of the untagged capture, and valid */
	du_read(out_tu, &ctu);
	ck_assert_uint_eq(ctu.nframes, nsegs_want);
	for (size_t i = 0; i < ctu.nframes; i++) {
		const struct replay_frame *a = &ctu.frames[i], *b = &cu.frames[i];
		unsigned flow;
		snprintf(where, sizeof where, "%s segment %zu", name, i + 1);
		ck_assert_msg(a->caplen == b->caplen && memcmp(a->data, b->data, a->caplen) == 0,
		              "%s: differs from gso of the untagged capture", where);
		flow = check_segment(where, a);
		bytes[flow] += a->caplen - (a->data[12] == 0x08 ? 14u + 20u : 14u + 40u) - 32u;
	}
	for (unsigned f = 0; f < 3; f++)
		ck_assert_msg(bytes[f] == payloads[f], "%s flow %u: %u payload bytes", name, f, bytes[f]);
	replay_capture_free(&cu);
	replay_capture_free(&ct);
	replay_capture_free(&ctu);
}
END_TEST

/* Frames whose tag is not valid pass unchanged and are counted. */
START_TEST(test_bad_tag)
{
	char args[8192], *out;
	struct replay_capture a, b;

	snprintf(args, sizeof args, "gso '%s' '%s' --mss %u --dsa edsa", du_tmp("dsa_gso_un.pcap"),
	         du_tmp("dsa_gso_bad.pcap"), MSS);
	ck_assert_int_eq(du_run(args, &out, NULL), 0);
	ck_assert_msg(strstr(out, "no valid tag (unchanged)"), "%s", out);
	free(out);
	du_read(du_tmp("dsa_gso_un.pcap"), &a);
	du_read(du_tmp("dsa_gso_bad.pcap"), &b);
	ck_assert_uint_eq(a.nframes, b.nframes);
	for (size_t i = 0; i < a.nframes; i++)
		ck_assert_mem_eq(a.frames[i].data, b.frames[i].data, a.frames[i].caplen);
	replay_capture_free(&a);
	replay_capture_free(&b);
}
END_TEST

H_MAIN_FIXTURE("replay_dsa_gso", 300, make_input, NULL, {test_format, (int)NFORMATS}, {test_bad_tag, 0})
