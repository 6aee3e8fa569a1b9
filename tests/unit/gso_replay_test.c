/*
 * gso_replay_test.c - `offload-replay gso` (tools/offload-replay/gso_cmd.c)
 * end to end: BIG TCP captures of the corpus (IPv4 length 0, IPv6 length 0,
 * IPv6 HBH Jumbo) cut at --mss with valid checksums and the input's
 * payload; partial checksums; tunnels refused with a message and passed on
 * unchanged; frames within the MTU passed on byte for byte; UDP
 * fragmentation and UDP L4; usage errors.  Raw-IP captures (link types RAW,
 * LINUX_SLL, NULL) of kernel GSO fixtures' super-packets: cut as IP packets,
 * OUT LINKTYPE_RAW holding the kernel's segments without their Ethernet
 * header; --dsa refused on them.
 */
#define _DEFAULT_SOURCE /* the BSD types <pcap/pcap.h> uses */
#include <check.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "gso_util.h"
#include "harness.h"

static const char *corpora(void)
{
	const char *d = getenv("OFL_CORPORA");
	return d ? d : "../shared/corpora";
}

/* Run the command; returns its exit status.  args: after "gso IN OUT". */
static int run(const char *in, const char *out, const char *args)
{
	char cmd[4096];
	int rc;
	snprintf(cmd, sizeof(cmd), "%s gso %s/%s %s %s > %s.stdout 2> %s.stderr", OFL_GSO_REPLAY, corpora(), in,
	         out, args, out, out);
	rc = system(cmd);
	return rc >= 0 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static bool file_has(const char *path, const char *needle)
{
	static char buf[65536];
	FILE *fp = fopen(path, "r");
	size_t n;
	if (!fp)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = 0;
	fclose(fp);
	return strstr(buf, needle) != NULL;
}

static void load(const char *path, struct gu_pcap *p)
{
	ck_assert_msg(gu_pcap_read(path, p), "cannot read %s", path);
}

START_TEST(test_bigtcp)
{
	static const char *const files[] = { "gso/bigtcp-ipv4.pcap", "gso/bigtcp-ipv6.pcap",
	                                     "gso/bigtcp-ipv6-hbh.pcap" };
	const char *f = files[_i % 3];
	int partial = _i >= 3;
	char out[512], in[512];
	struct gu_pcap a, b;
	struct gu_info gi;
	size_t pos = 0;
	unsigned k;
	snprintf(out, sizeof(out), "%s/gso_replay_big%d.pcap", OFL_GSO_TMP, _i);
	snprintf(in, sizeof(in), "%s/%s", corpora(), f);
	load(in, &a); /* a missing corpus file fails the case */
	ck_assert_int_eq(run(f, out, partial ? "--mss 1448 --csum partial" : "--mss 1448"), 0);
	load(out, &b);
	ck_assert(gu_parse(a.frame[0], a.len[0], &gi));
	ck_assert_uint_eq(b.n, (a.len[0] - gi.payload_off + 1447) / 1448);
	for (k = 0; k < b.n; k++) {
		struct gu_info si;
		size_t pl;
		ck_assert(gu_parse(b.frame[k], b.len[k], &si));
		if (partial)
			gu_complete_csum(b.frame[k], b.len[k], (unsigned)si.ip.l4_off, 16);
		ck_assert(gu_csums_ok(b.frame[k], b.len[k]));
		pl = b.len[k] - si.payload_off;
		ck_assert_uint_eq(pl, k + 1 < b.n ? 1448 : a.len[0] - gi.payload_off - pos);
		ck_assert_mem_eq(b.frame[k] + si.payload_off, a.frame[0] + gi.payload_off + pos, pl);
		pos += pl;
	}
	ck_assert_uint_eq(pos, a.len[0] - gi.payload_off);
	gu_pcap_free(&a);
	gu_pcap_free(&b);
}
END_TEST

/* Tunnels are refused with a message; frames within the MTU pass unchanged. */
START_TEST(test_unchanged)
{
	static const char *const files[] = { "gso/bigtcp-ipv4-vxlan-ipv4.pcap", "gso/gso-ipv6-geneve-ipv6.pcap",
	                                     "tcp-bulk/jpegs.cap", "vlan/bot.pcap" };
	const char *f = files[_i];
	char out[512], in[512], err[600];
	struct gu_pcap a, b;
	unsigned k;
	snprintf(out, sizeof(out), "%s/gso_replay_unch%d.pcap", OFL_GSO_TMP, _i);
	snprintf(err, sizeof(err), "%s.stderr", out);
	snprintf(in, sizeof(in), "%s/%s", corpora(), f);
	load(in, &a);
	ck_assert_int_eq(run(f, out, "--mss 1460"), 0);
	load(out, &b);
	ck_assert_uint_eq(b.n, a.n);
	for (k = 0; k < a.n; k++) {
		ck_assert_uint_eq(b.len[k], a.len[k]);
		ck_assert_mem_eq(b.frame[k], a.frame[k], a.len[k]);
	}
	if (_i < 2)
		ck_assert(file_has(err, "not segmented: tunnel (IP-in-IP, GRE, VXLAN/GENEVE port)"));
	gu_pcap_free(&a);
	gu_pcap_free(&b);
}
END_TEST

START_TEST(test_udp)
{
	char out[512], in[512];
	struct gu_pcap a, b;
	unsigned j, k, frags = 0;
	const char *f = "gso/udp_rand_len_9k.pcap";
	snprintf(out, sizeof(out), "%s/gso_replay_udp%d.pcap", OFL_GSO_TMP, _i);
	snprintf(in, sizeof(in), "%s/%s", corpora(), f);
	load(in, &a);
	ck_assert_int_eq(run(f, out, _i ? "--mss 1472 --lax-snaplen --type udp-l4" : "--mss 1472 --lax-snaplen"),
	                 0);
	load(out, &b);
	ck_assert_uint_gt(b.n, a.n);
	/* frames within the MTU come out unchanged (some have bad checksums);
	 * the others as fragments or datagrams with valid checksums */
	for (j = 0, k = 0; j < a.n; j++) {
		struct gu_info ai;
		uint32_t p, n, m;
		ck_assert(gu_parse(a.frame[j], a.len[j], &ai));
		p = (uint32_t)ai.l4_len - 8;
		if (a.len[j] <= 1514) {
			ck_assert_uint_lt(k, b.n);
			ck_assert_uint_eq(b.len[k], a.len[j]);
			ck_assert_mem_eq(b.frame[k], a.frame[j], a.len[j]);
			k++;
			continue;
		}
		n = _i ? (p + 1471) / 1472 : (p + 8 + 1479) / 1480;
		for (m = 0; m < n; m++, k++) {
			struct gu_info si;
			ck_assert_uint_lt(k, b.n);
			ck_assert(gu_parse(b.frame[k], b.len[k], &si));
			ck_assert_uint_le(b.len[k], 1514);
			ck_assert(gu_csums_ok(b.frame[k], b.len[k]));
			frags += si.ip.frag;
		}
	}
	ck_assert_uint_eq(k, b.n);
	if (_i)
		ck_assert_uint_eq(frags, 0);
	else
		ck_assert_uint_gt(frags, 0);
	gu_pcap_free(&a);
	gu_pcap_free(&b);
}
END_TEST

/* UDP super-packets longer than their length fields can say (the udpgso
 * selftest's "max number + 1 of full sized segments", which Linux refuses
 * with EMSGSIZE: net/ipv4/ip_output.c __ip_append_data(),
 * net/ipv6/ip6_output.c __ip6_append_data()) are passed on unchanged with
 * that reason named; the largest that fit are cut. */
START_TEST(test_udp_too_long)
{
	static const uint32_t pay[4] = { 44 * 1472, 45 * 1472, 45 * 1452, 46 * 1452 };
	uint8_t *frames[4];
	uint32_t lens[4], k;
	char in[512], out[512], err[600], cmd[4096];
	struct gu_pcap b;
	int rc;
	for (k = 0; k < 4; k++) {
		struct gu_udp u;
		frames[k] = malloc(70000);
		ck_assert_ptr_nonnull(frames[k]);
		gu_udp_init(&u, k < 2 ? 4 : 6);
		u.payload_len = pay[k];
		lens[k] = (uint32_t)gu_udp_frame(&u, frames[k], 70000);
		ck_assert_uint_gt(lens[k], 0); /* over-long: length fields 0 */
	}
	snprintf(in, sizeof(in), "%s/gso_replay_udplong_in.pcap", OFL_GSO_TMP);
	snprintf(out, sizeof(out), "%s/gso_replay_udplong.pcap", OFL_GSO_TMP);
	snprintf(err, sizeof(err), "%s.stderr", out);
	ck_assert(gu_pcap_write(in, frames, lens, 4));
	snprintf(cmd, sizeof(cmd), "%s gso %s %s --mss 1472 --type udp-l4 > %s.stdout 2> %s", OFL_GSO_REPLAY, in, out,
	         out, err);
	rc = system(cmd);
	ck_assert(rc >= 0 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0);
	ck_assert(file_has(err, "frame 2 (66282 bytes): not segmented: UDP datagram longer than its length fields"));
	ck_assert(file_has(err, "frame 4 (66854 bytes): not segmented: UDP datagram longer than its length fields"));
	ck_assert(file_has(err, "(EMSGSIZE)"));
	ck_assert(!file_has(err, "frame 1 "));
	ck_assert(!file_has(err, "frame 3 "));
	load(out, &b);
	/* 44 datagrams, the refused frame, 45 datagrams (65340 bytes cut at
	 * 1472), the refused frame */
	ck_assert_uint_eq(b.n, 44 + 1 + 45 + 1);
	ck_assert_uint_eq(b.len[44], lens[1]);
	ck_assert_mem_eq(b.frame[44], frames[1], lens[1]);
	ck_assert_uint_eq(b.len[b.n - 1], lens[3]);
	ck_assert_mem_eq(b.frame[b.n - 1], frames[3], lens[3]);
	gu_pcap_free(&b);
	for (k = 0; k < 4; k++)
		free(frames[k]);
}
END_TEST

START_TEST(test_usage)
{
	char out[512];
	snprintf(out, sizeof(out), "%s/gso_replay_usage.pcap", OFL_GSO_TMP);
	ck_assert_int_eq(run("gso/bigtcp-ipv4.pcap", out, ""), 2);
	ck_assert(file_has(strcat(out, ".stderr"), "--mss is required"));
	snprintf(out, sizeof(out), "%s/gso_replay_usage.pcap", OFL_GSO_TMP);
	ck_assert_int_eq(run("gso/bigtcp-ipv4.pcap", out, "--mss 1448 --type sctp"), 2);
	ck_assert_int_eq(run("gso/bigtcp-ipv4.pcap", out, "--mss 0"), 2);
	ck_assert_int_eq(run("no/such.pcap", out, "--mss 1448"), 1);
}
END_TEST

/* The super-packet of a kernel GSO fixture, its Ethernet header replaced by
 * the pseudo-header of link type dlt, written to path. */
static void write_l3(const char *path, int dlt, const uint8_t *f, uint32_t len)
{
	static uint8_t rec[70000];
	pcap_t *p = pcap_open_dead(dlt, 262144);
	pcap_dumper_t *d;
	struct pcap_pkthdr h;
	uint32_t pre = 0, v6 = (f[14] >> 4) == 6;
	ck_assert_ptr_nonnull(p);
	d = pcap_dump_open(p, path);
	ck_assert_ptr_nonnull(d);
	if (dlt == DLT_LINUX_SLL) {
		memset(rec, 0, 16); /* packet type 0 (to us), ARPHRD_NONE, no address */
		rec[2] = 0xff;
		rec[3] = 0xfe;
		rec[14] = v6 ? 0x86 : 0x08;
		rec[15] = v6 ? 0xdd : 0x00;
		pre = 16;
	} else if (dlt == DLT_NULL) {
		uint32_t fam = v6 ? 24 : 2; /* the writer's byte order */
		memcpy(rec, &fam, 4);
		pre = 4;
	}
	memcpy(rec + pre, f + 14, len - 14);
	memset(&h, 0, sizeof(h));
	h.caplen = h.len = pre + len - 14;
	pcap_dump((u_char *)d, &h, rec);
	pcap_dump_close(d);
	pcap_close(p);
}

START_TEST(test_rawip)
{
	static const int dlts[] = { DLT_RAW, DLT_LINUX_SLL, DLT_NULL };
	static const char *const fx[] = { "tcp4_64k_psh", "udp6_l4_tail" };
	const char *name = fx[_i / 3];
	int udp = _i >= 3;
	char path[1024], in[512], out[512], cmd[4096];
	struct gu_pcap a, k;
	unsigned i;
	int rc;
	snprintf(path, sizeof(path), "%s/%s/IN.pcap", OFL_GSO_FIXTURES, name);
	load(path, &a);
	snprintf(path, sizeof(path), "%s/%s/OUT.pcap", OFL_GSO_FIXTURES, name);
	load(path, &k);
	snprintf(in, sizeof(in), "%s/gso_replay_rawip%d.pcap", OFL_GSO_TMP, _i);
	snprintf(out, sizeof(out), "%s/gso_replay_rawip%d.out.pcap", OFL_GSO_TMP, _i);
	write_l3(in, dlts[_i % 3], a.frame[0], a.len[0]);
	snprintf(cmd, sizeof(cmd), "%s gso %s %s --mss %s > %s.stdout 2> %s.stderr", OFL_GSO_REPLAY, in, out,
	         udp ? "1452 --type udp-l4" : "1448", out, out);
	rc = system(cmd);
	ck_assert(rc >= 0 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0);
	gu_pcap_free(&a);
	load(out, &a);
	ck_assert_uint_eq(a.linktype, DLT_RAW);
	ck_assert_uint_eq(a.n, k.n);
	for (i = 0; i < a.n; i++) {
		ck_assert_uint_eq(a.len[i] + 14, k.len[i]);
		ck_assert_msg(memcmp(a.frame[i], k.frame[i] + 14, a.len[i]) == 0, "%s: segment %u differs", in, i);
	}
	gu_pcap_free(&a);
	gu_pcap_free(&k);
	/* no DSA tags in IP packets */
	snprintf(cmd, sizeof(cmd), "%s gso %s %s --mss 1448 --dsa dsa > %s.stdout 2> %s.stderr", OFL_GSO_REPLAY,
	         in, out, out, out);
	rc = system(cmd);
	ck_assert(rc >= 0 && WIFEXITED(rc) && WEXITSTATUS(rc) == 2);
	snprintf(path, sizeof(path), "%s.stderr", out);
	ck_assert(file_has(path, "carries IP packets, no DSA tags"));
}
END_TEST

H_MAIN("gso_replay", 0, 0, {test_bigtcp, 6}, {test_unchanged, 4}, {test_udp, 2},
	{test_udp_too_long, 0}, {test_usage, 0}, {test_rawip, 6})
