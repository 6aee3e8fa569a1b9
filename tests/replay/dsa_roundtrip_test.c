/*
 * dsa_roundtrip_test.c - `offload-replay dsa-encode` then `dsa-decode` for
 * several tag formats (head, prepended, tail, tag_8021q), both layouts and
 * several ports: the encoded capture has the format's link type (281, 282,
 * 284, 285, else Ethernet), every frame decodes to the port it was tagged
 * for, and the untagged frames dsa-decode writes are the original frames
 * (zero-padded to the format's TX minimum length, as the kernel's tagger
 * pads before tagging).  Plus the command-line errors of both commands.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsa_util.h"
#include "harness.h"
#include "gen.h"

#define NFRAMES 8
#define MAX_LINES 64

static const char *const formats[] = {
	"brcm", "brcm-prepend", "dsa", "edsa", "ksz9477", "ksz8795", "lan9303", "mtk", "qca",
	"trailer", "ocelot", "8021q", "sja1105", "rtl8_4", "rtl8_4t", "a5psw", "yt921x", "gswip",
};
#define NFORMATS (sizeof formats / sizeof formats[0])

static uint8_t *orig[NFRAMES];
static uint32_t orig_len[NFRAMES];

/* IPv4 and IPv6 TCP of several sizes, one with an 802.1Q tag, one short
 * frame (padded by the TX taggers that pad). */
static void make_input(void)
{
	static const uint32_t pay[NFRAMES] = { 100, 1400, 0, 512, 6, 1000, 64, 1448 };
	struct gen_tcp g;

	for (unsigned i = 0; i < NFRAMES; i++) {
		gen_tcp_init(&g, i % 2 ? 6 : 4);
		g.payload_len = pay[i];
		g.seq = 1000 + i;
		g.sport = (uint16_t)(2000 + i);
		if (i == 3) {
			g.nvlan = 1;
			g.vlan_tpid[0] = 0x8100;
			g.vlan_tci[0] = 0x2064; /* prio 1, VID 100 */
		}
		orig_len[i] = (uint32_t)gen_tcp_len(&g);
		orig[i] = malloc(orig_len[i]);
		ck_assert_ptr_nonnull(orig[i]);
		ck_assert_uint_eq(gen_tcp_frame(&g, orig[i], orig_len[i]), orig_len[i]);
	}
	du_write(du_tmp("dsa_rt_in.pcap"), 1, orig, orig_len, NFRAMES);
}

/* make_input() runs before every test: in one process (CK_FORK=no) the
 * frames of the last test are freed here, not by the end of a child. */
static void free_input(void)
{
	for (unsigned i = 0; i < NFRAMES; i++) {
		free(orig[i]);
		orig[i] = NULL;
	}
}

static uint32_t expect_linktype(const char *name)
{
	if (strcmp(name, "brcm") == 0)
		return 281;
	if (strcmp(name, "brcm-prepend") == 0)
		return 282;
	if (strcmp(name, "dsa") == 0)
		return 284;
	if (strcmp(name, "edsa") == 0)
		return 285;
	return 1;
}

static void roundtrip(const char *name, int tx, unsigned port)
{
	const struct ofl_dsa_ops *ops = ofl_dsa_find(name);
	const char *enc = du_tmp("dsa_rt_enc.pcap"), *un = du_tmp("dsa_rt_un.pcap");
	char args[16384], *out, *err, where[128];
	struct du_line lines[MAX_LINES];
	struct replay_capture ce, cu;
	uint32_t lt = expect_linktype(name);
	size_t n;
	int rc;

	snprintf(where, sizeof where, "%s %s port %u", name, tx ? "tx" : "rx", port);
	ck_assert_ptr_nonnull(ops);
	snprintf(args, sizeof args, "dsa-encode '%s' '%s' --tag %s --port %u --dir %s",
	         du_tmp("dsa_rt_in.pcap"), enc, name, port, tx ? "tx" : "rx");
	rc = du_run(args, &out, &err);
	ck_assert_msg(rc == 0, "%s: dsa-encode exit %d: %s", where, rc, err);
	ck_assert_msg(strstr(out, "frames tagged") != NULL, "%s: %s", where, out);
	free(out);
	free(err);
	du_read(enc, &ce);
	ck_assert_uint_eq(ce.linktype, lt);
	ck_assert_uint_eq(ce.nframes, NFRAMES);

	/* the DSA link types name their format: no --tag then */
	snprintf(args, sizeof args, "dsa-decode '%s' '%s' --dir %s%s%s", enc, un, tx ? "tx" : "rx",
	         lt == 1 ? " --tag " : "", lt == 1 ? name : "");
	rc = du_run(args, &out, &err);
	ck_assert_msg(rc == 0, "%s: dsa-decode exit %d: %s", where, rc, err);
	n = du_lines(out, lines, MAX_LINES);
	ck_assert_uint_eq(n, NFRAMES);
	du_read(un, &cu);
	ck_assert_uint_eq(cu.linktype, 1);
	ck_assert_uint_eq(cu.nframes, NFRAMES);
	for (unsigned i = 0; i < NFRAMES; i++) {
		const struct replay_frame *f = &cu.frames[i];
		uint32_t want = orig_len[i];

		ck_assert_uint_eq(lines[i].num, i + 1);
		ck_assert_msg(lines[i].dir == (tx ? 't' : 'r'), "%s frame %u: %s", where, i + 1,
		              lines[i].text);
		ck_assert_msg(lines[i].port == (int)port, "%s frame %u: %s", where, i + 1, lines[i].text);
		if (tx && want < ops->tx_min_len)
			want = ops->tx_min_len;
		ck_assert_msg(f->caplen == want, "%s frame %u: untagged %u bytes, want %u", where, i + 1,
		              f->caplen, want);
		ck_assert_msg(memcmp(f->data, orig[i], orig_len[i]) == 0, "%s frame %u: untagged differs",
		              where, i + 1);
		for (uint32_t b = orig_len[i]; b < want; b++)
			ck_assert_msg(f->data[b] == 0, "%s frame %u: padding", where, i + 1);
		/* the time stamps go through */
		ck_assert_uint_eq(f->ts_ns, ce.frames[i].ts_ns);
	}
	free(out);
	free(err);
	replay_capture_free(&ce);
	replay_capture_free(&cu);
}

START_TEST(test_format)
{
	const char *name = formats[_i];
	const struct ofl_dsa_ops *ops = ofl_dsa_find(name);

	ck_assert_ptr_nonnull(ops);
	for (int tx = 0; tx <= 1; tx++) {
		unsigned nports = tx ? ops->tx_ports : ops->rx_ports;
		unsigned ports[3] = { 0, 1, nports - 1 };
		ck_assert_uint_ge(nports, 2);
		if (ports[2] > 30)
			ports[2] = 30;
		for (unsigned p = 0; p < 3; p++)
			roundtrip(name, tx, ports[p]);
	}
}
END_TEST

/* The decoder really reads the tag: a frame tagged for port 2 and a frame
 * whose tag was damaged are told apart, and the damaged one is named. */
START_TEST(test_bad_tag_named)
{
	const struct ofl_dsa_ops *ops = ofl_dsa_find("edsa");
	struct ofl_dsa_meta m = { .valid = OFL_DSA_M_PORT, .port = 2 };
	struct du_line lines[4];
	uint8_t *fr[3];
	uint32_t len[3];
	char args[8192], *out;

	fr[0] = du_encode(ops, OFL_DSA_RX, &m, orig[0], orig_len[0], &len[0]);
	fr[1] = du_encode(ops, OFL_DSA_RX, &m, orig[1], orig_len[1], &len[1]);
	fr[1][16] = 0x80; /* TO_SNIFFER: neither direction takes it */
	fr[2] = du_encode(ops, OFL_DSA_RX, &m, orig[2], orig_len[2], &len[2]);
	len[2] = 16; /* cut inside the tag */
	du_write(du_tmp("dsa_rt_bad.pcap"), 285, fr, len, 3);
	snprintf(args, sizeof args, "dsa-decode '%s' '%s'", du_tmp("dsa_rt_bad.pcap"),
	         du_tmp("dsa_rt_bad_un.pcap"));
	ck_assert_int_eq(du_run(args, &out, NULL), 0);
	ck_assert_uint_eq(du_lines(out, lines, 4), 3);
	ck_assert_int_eq(lines[0].dir, 'r');
	ck_assert_int_eq(lines[0].port, 2);
	ck_assert_int_eq(lines[1].dir, '-');
	ck_assert_msg(strstr(lines[1].text, "not a valid edsa tag") && strstr(lines[1].text, "da da 00 00 80"),
	              "%s", lines[1].text);
	ck_assert_int_eq(lines[2].dir, '-');
	ck_assert_msg(strstr(lines[2].text, "too short"), "%s", lines[2].text);
	free(out);
	{
		struct replay_capture c;
		du_read(du_tmp("dsa_rt_bad_un.pcap"), &c);
		ck_assert_uint_eq(c.nframes, 1); /* only the valid one is written */
		replay_capture_free(&c);
	}
	for (int i = 0; i < 3; i++)
		free(fr[i]);
}
END_TEST

START_TEST(test_usage_errors)
{
	static const struct {
		const char *args; /* %s: the Ethernet input, %s: an output */
		int rc;
	} cases[] = {
		{ "dsa-encode '%s' '%s' --port 1", 2 },                   /* no --tag */
		{ "dsa-encode '%s' '%s' --tag edsa", 2 },                 /* no --port */
		{ "dsa-encode '%s' '%s' --tag edsa --port 32", 2 },       /* out of range */
		{ "dsa-encode '%s' '%s' --tag brcm --port 9", 2 },        /* brcm tx: 0..8 */
		{ "dsa-encode '%s' '%s' --tag lan9303 --port 1 --priority 1", 2 }, /* no prio */
		{ "dsa-encode '%s' '%s' --tag nosuch --port 1", 2 },
		{ "dsa-encode '%s' '%s' --tag edsa --port 1 --dir auto", 2 },
		{ "dsa-encode '%s' '%s' --tag edsa --port 1 --switch 32", 2 },
		{ "dsa-encode '%s' '%s' --tag edsa --port 1 --bogus", 2 },
		{ "dsa-encode '%s' '%s' --tag edsa --port 1 --switch 31 --priority 7", 0 },
		{ "dsa-decode '%s' '%s'", 2 },                            /* Ethernet: --tag */
		{ "dsa-decode '%s' '%s' --tag edsa --dir sideways", 2 },
		{ "dsa-decode '%s' '%s' --tag edsa --tpid 0x10000", 2 },
		{ "dsa-decode '%s' '%s' --tag edsa --tpid 0x88a8 --cpu-port 1", 0 },
		{ "dsa-decode '%s.missing' '%s' --tag edsa", 1 },
		{ "dsa-decode --help", 0 },
		{ "dsa-encode --help", 0 },
	};
	char args[8192];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int rc;
		snprintf(args, sizeof args, cases[i].args, du_tmp("dsa_rt_in.pcap"),
		         du_tmp("dsa_rt_usage.pcap"));
		rc = du_run(args, NULL, NULL);
		ck_assert_msg(rc == cases[i].rc, "%s: exit %d, want %d", args, rc, cases[i].rc);
	}
	/* a capture that is tagged already (link type 285) cannot be tagged again */
	snprintf(args, sizeof args, "dsa-encode '%s' '%s' --tag edsa --port 1",
	         du_tmp("dsa_rt_in.pcap"), du_tmp("dsa_rt_usage.pcap"));
	ck_assert_int_eq(du_run(args, NULL, NULL), 0);
	snprintf(args, sizeof args, "dsa-encode '%s' '%s' --tag edsa --port 1",
	         du_tmp("dsa_rt_usage.pcap"), du_tmp("dsa_rt_usage2.pcap"));
	ck_assert_int_eq(du_run(args, NULL, NULL), 1);
}
END_TEST

H_MAIN_FIXTURE("replay_dsa_roundtrip", 300, make_input, free_input, {test_format, (int)NFORMATS}, {test_bad_tag_named, 0},
	       {test_usage_errors, 0})
