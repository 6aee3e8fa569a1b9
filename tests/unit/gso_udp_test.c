/*
 * gso_udp_test.c - UDP L4 segmentation (UDP_SEGMENT) and UDP fragmentation
 * (UFO) field by field, IPv4 and IPv6, with and without VLAN tags, full and
 * partial checksums; the segment limit; fragments reassembled and their
 * datagram checksum verified independently (gen_csum_fold).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gso_util.h"
#include "harness.h"

static uint16_t g16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

static uint8_t frame[70000];

static size_t make_udp(int l3, int nvlan, uint32_t payload, uint16_t dport, uint8_t *buf)
{
	struct gu_udp u;
	gu_udp_init(&u, l3);
	u.nvlan = gu_two_tags(u.vlan_tpid, u.vlan_tci, nvlan, 0x0042, 0x0043);
	u.payload_len = payload;
	u.salt = 3;
	u.ip_id = 0xfffe;
	u.df = true;
	if (dport)
		u.dport = dport;
	return gu_udp_frame(&u, buf, sizeof(frame));
}

START_TEST(test_udp_l4)
{
	int l3 = (_i & 1) ? 6 : 4, nvlan = (_i >> 1) % 3, partial = (_i / 6) & 1;
	size_t len = make_udp(l3, nvlan, 10000, 0, frame);
	struct ofl_buf b = { frame, (uint32_t)len };
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct gu_segs *sg = calloc(1, sizeof(*sg));
	struct gu_info gi;
	uint32_t k, pos = 0;
	ck_assert(gu_parse(frame, len, &gi));
	ofl_gso_req_default(&req);
	req.type = OFL_GSO_TYPE_UDP_L4;
	req.seg_size = 1400;
	req.csum = partial ? OFL_CSUM_MODE_PARTIAL : OFL_CSUM_MODE_FULL;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	ck_assert_int_eq(gu_collect(&it, sg, 2, 128), 0);
	ck_assert_uint_eq(sg->n, 8);
	for (k = 0; k < sg->n; k++) {
		uint8_t *f = sg->frame[k];
		const struct ofl_gso_seg *s = &sg->seg[k];
		uint32_t plen = k < 7 ? 1400 : 200;
		const uint8_t *ip = f + gi.ip.l3_off, *uh = f + gi.ip.l4_off;
		ck_assert_uint_eq(sg->len[k], gi.payload_off + plen);
		ck_assert_mem_eq(f, frame, gi.ip.l4_off - (l3 == 4 ? 20 : 40)); /* L2 and tags */
		if (l3 == 4) {
			ck_assert_uint_eq(g16(ip + 2), 28 + plen);
			ck_assert_uint_eq(g16(ip + 4), (uint16_t)(0xfffe + k)); /* ID per datagram */
			ck_assert_uint_eq(g16(ip + 6), 0x4000);
			ck_assert_mem_eq(ip + 8, frame + gi.ip.l3_off + 8, 2);
			ck_assert_mem_eq(ip + 12, frame + gi.ip.l3_off + 12, 8);
		} else {
			ck_assert_uint_eq(g16(ip + 4), 8 + plen);
			ck_assert_mem_eq(ip + 6, frame + gi.ip.l3_off + 6, 34);
		}
		ck_assert_mem_eq(uh, frame + gi.ip.l4_off, 4);
		ck_assert_uint_eq(g16(uh + 4), 8 + plen);
		ck_assert_mem_eq(f + gi.payload_off, frame + gi.payload_off + pos, plen);
		if (partial) {
			uint32_t ps = l3 == 4 ? gen_csum_fold(ip + 12, 8, 0) : gen_csum_fold(ip + 8, 32, 0);
			ck_assert_uint_eq(s->csum_start, gi.ip.l4_off);
			ck_assert_uint_eq(s->csum_offset, 6);
			ck_assert_uint_eq(g16(uh + 6), gen_csum_fold(NULL, 0, ps + 17 + 8 + plen));
			gu_complete_csum(f, sg->len[k], s->csum_start, s->csum_offset);
		}
		ck_assert(gu_csums_ok(f, sg->len[k]));
		pos += plen;
	}
	gu_segs_free(sg);
	free(sg);
}
END_TEST

/* At most UDP_MAX_SEGMENTS (128 on Linux 6.18) datagrams unless configured. */
START_TEST(test_udp_l4_limit)
{
	size_t len = make_udp(4, 0, 128 * 100 + 1, 0, frame);
	struct ofl_buf b = { frame, (uint32_t)len };
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct ofl_gso_counts c;
	ofl_gso_req_default(&req);
	req.type = OFL_GSO_TYPE_UDP_L4;
	req.seg_size = 100;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_E2BIG);
	req.seg_size = 101;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	ck_assert_int_eq(ofl_gso_count(&it, &c, sizeof c), 0);
	ck_assert_uint_eq(c.segs, 127);
	req.seg_size = 100;
	req.max_segs = 200;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	ck_assert_int_eq(ofl_gso_count(&it, &c, sizeof c), 0);
	ck_assert_uint_eq(c.segs, 129);
	req.max_segs = 64; /* an older kernel's limit */
	req.seg_size = 200;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_E2BIG);
}
END_TEST

/* Reassemble fragments; check offsets, MF, IDs, lengths and the datagram. */
static void check_frags(const uint8_t *in, size_t in_len, const struct gu_segs *sg, uint32_t fs,
                        uint32_t frag_id)
{
	static uint8_t dgram[70000];
	struct gu_info gi, fi;
	uint32_t k, total = 0, sum;
	ck_assert(gu_parse(in, in_len, &gi));
	for (k = 0; k < sg->n; k++) {
		const uint8_t *f = sg->frame[k];
		uint32_t n;
		ck_assert(gu_parse(f, sg->len[k], &fi));
		ck_assert(fi.ip.frag);
		ck_assert_uint_eq(fi.ip.frag_off, k * fs);
		ck_assert_uint_eq(fi.ip.more, k + 1 < sg->n);
		ck_assert_uint_eq(fi.ip.l3_off, gi.ip.l3_off);
		ck_assert_mem_eq(f, in, gi.ip.l3_off);
		if (gi.ip.l3 == 4) {
			const uint8_t *a = in + gi.ip.l3_off, *ip = f + fi.ip.l3_off;
			ck_assert_uint_eq(fi.ip.frag_id, g16(a + 4)); /* same ID */
			ck_assert_uint_eq(gen_csum_fold(ip, 20, 0), 0xffff);
			ck_assert_uint_eq(ip[0], a[0]);
			ck_assert_uint_eq(ip[1], a[1]); /* TOS */
			ck_assert_uint_eq(g16(ip + 2), sg->len[k] - fi.ip.l3_off);
			ck_assert_uint_eq(g16(ip + 6) & 0x4000, 0); /* DF cleared */
			ck_assert_uint_eq(ip[8], a[8]); /* TTL */
			ck_assert_uint_eq(ip[9], 17);
			ck_assert_mem_eq(ip + 12, a + 12, 8);
		} else {
			const uint8_t *a = in + gi.ip.l3_off, *ip = f + fi.ip.l3_off;
			ck_assert_uint_eq(fi.ip.frag_id, frag_id);
			ck_assert_mem_eq(ip, a, 4);
			ck_assert_uint_eq(g16(ip + 4), sg->len[k] - fi.ip.l3_off - 40);
			ck_assert_uint_eq(ip[6], 44);
			ck_assert_uint_eq(ip[7], a[7]); /* hop limit */
			ck_assert_mem_eq(ip + 8, a + 8, 32);
			ck_assert_uint_eq(ip[40], 17);
			ck_assert_uint_eq(ip[41], 0);
		}
		n = (uint32_t)(sg->len[k] - fi.ip.l4_off);
		if (k + 1 < sg->n)
			ck_assert_uint_eq(n, fs);
		memcpy(dgram + fi.ip.frag_off, f + fi.ip.l4_off, n);
		total += n;
	}
	ck_assert_uint_eq(total, in_len - gi.ip.l4_off);
	/* the datagram is the input's except its checksum, which is valid */
	ck_assert_mem_eq(dgram, in + gi.ip.l4_off, 6);
	ck_assert_mem_eq(dgram + 8, in + gi.ip.l4_off + 8, total - 8);
	sum = gi.ip.l3 == 4 ? gen_csum_fold(in + gi.ip.l3_off + 12, 8, 0) : gen_csum_fold(in + gi.ip.l3_off + 8, 32, 0);
	ck_assert_uint_eq(gen_csum_fold(dgram, total, sum + 17 + total), 0xffff);
	ck_assert_uint_ne(g16(dgram + 6), 0);
}

START_TEST(test_udp_frag)
{
	int l3 = (_i & 1) ? 6 : 4, nvlan = (_i >> 1) % 3, partial = (_i / 6) & 1;
	size_t len = make_udp(l3, nvlan, 4000, 0, frame);
	struct ofl_buf b[3];
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct gu_segs *sg = calloc(1, sizeof(*sg));
	/* split the payload across three buffers at odd offsets */
	b[0].data = frame;
	b[0].len = (uint32_t)(len - 2001);
	b[1].data = frame + b[0].len;
	b[1].len = 999;
	b[2].data = frame + b[0].len + 999;
	b[2].len = 1002;
	ofl_gso_req_default(&req);
	req.seg_size = 1480;
	req.ip6_frag_id = 0xabcdef01;
	req.csum = partial ? OFL_CSUM_MODE_PARTIAL : OFL_CSUM_MODE_FULL; /* ignored: always full */
	ck_assert_int_eq(ofl_gso_start(&it, &req, b, 3), 0); /* AUTO: fragmentation */
	{
		struct ofl_gso_counts c;
		ck_assert_int_eq(ofl_gso_count(&it, &c, sizeof c), 0);
		ck_assert_uint_eq(c.type, OFL_GSO_TYPE_UDP_FRAG);
		ck_assert_uint_eq(c.segs, 3);
		/* the first fragment's header carries the UDP header too */
		ck_assert_uint_eq(c.hdr_len, 14 + 4u * nvlan + (l3 == 4 ? 20 : 48) + 8);
		ck_assert_uint_eq(c.descs, 3 + 5); /* fragments 1 and 2 span two buffers */
	}
	ck_assert_int_eq(gu_collect(&it, sg, 1, 128), 0);
	ck_assert_uint_eq(sg->n, 3);
	ck_assert_uint_eq(sg->seg[0].l4_off, sg->seg[0].hdr_len - 8);
	ck_assert_uint_eq(sg->seg[1].l4_off, 0);
	ck_assert(!(sg->seg[0].flags & OFL_GSO_SEG_F_CSUM_PARTIAL));
	check_frags(frame, len, sg, 1480, 0xabcdef01);
	gu_segs_free(sg);
	/* DF is cleared on IPv4 fragments */
	if (l3 == 4) {
		ck_assert_int_eq(ofl_gso_start(&it, &req, b, 3), 0);
		ck_assert_int_eq(gu_collect(&it, sg, 1, 128), 0);
		ck_assert_uint_eq(sg->frame[0][sg->seg[0].l3_off + 6] & 0x40, 0);
		gu_segs_free(sg);
	}
	free(sg);
}
END_TEST

START_TEST(test_udp_errors)
{
	size_t len = make_udp(4, 0, 3000, 0, frame);
	struct ofl_buf b = { frame, (uint32_t)len };
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	ofl_gso_req_default(&req);
	req.seg_size = 1001; /* fragments must be multiples of 8 */
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_FRAG_SIZE);
	req.type = OFL_GSO_TYPE_TCP; /* UDP is not TCP */
	req.seg_size = 1000;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EPROTO);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_TYPE);
	/* UDP length disagrees with the IP length */
	req.type = OFL_GSO_TYPE_UDP_L4;
	frame[14 + 20 + 5] ^= 1;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EBADMSG);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_UDP_LEN);
	frame[14 + 20 + 5] ^= 1;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_NONE);
	/* a tunnel port is refused by AUTO */
	len = make_udp(4, 0, 3000, 4789, frame);
	req.type = OFL_GSO_TYPE_AUTO;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_ENOTSUP);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_TUNNEL);
	/* an IPv6 first fragment (as our own fragmentation writes it) neither */
	{
		struct gu_segs *sg = calloc(1, sizeof(*sg));
		struct ofl_buf fb;
		len = make_udp(6, 0, 3000, 0, frame);
		b.len = (uint32_t)len;
		req.type = OFL_GSO_TYPE_UDP_FRAG;
		req.seg_size = 1232;
		ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
		ck_assert_int_eq(gu_collect(&it, sg, 1, 128), 0);
		fb.data = sg->frame[0];
		fb.len = sg->len[0];
		ck_assert_int_eq(ofl_gso_start(&it, &req, &fb, 1), OFL_ENOTSUP);
		req.type = OFL_GSO_TYPE_AUTO;
		ck_assert_int_eq(ofl_gso_start(&it, &req, &fb, 1), OFL_ENOTSUP);
		gu_segs_free(sg);
		free(sg);
		len = make_udp(4, 0, 3000, 4789, frame);
		b.len = (uint32_t)len;
	}
	/* an IPv4 fragment cannot be segmented again */
	frame[14 + 6] = 0x20;
	req.type = OFL_GSO_TYPE_UDP_L4;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_ENOTSUP);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_FRAGMENT);
	ck_assert_int_eq(ofl_gso_start(&it, &req, NULL, 1), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_ARG);
	ck_assert_int_eq(ofl_gso_why(NULL), 0);
}
END_TEST

/* The length limits of the kernel's UDP GSO selftest
 * (tools/testing/selftests/net/udpgso.c, MTU 1500): the most full-size
 * segments that fit one datagram are sent, one more fails.  Linux never
 * builds a datagram whose length fields cannot say its length: the send
 * fails with EMSGSIZE (kernel path: net/ipv4/ip_output.c
 * __ip_append_data(), an IPv4 packet over 65535 bytes; net/ipv6/ip6_output.c
 * __ip6_append_data(), an IPv6 payload over IPV6_MAXPLEN).  Such a super-packet
 * (its length fields 0, read as "to the end of the frame") is refused with
 * OFL_E2BIG and its own reason, for UDP L4 and UDP fragmentation (the
 * generator writes 0 in a length field that cannot say the length). */
static const struct {
	int l3;
	uint32_t payload, mss, segs; /* segs 0: refused */
} udp_long_cases[] = {
	{ 4, 44 * 1472, 1472, 44 },  /* udpgso: max number of full sized segments (IPv4) */
	{ 4, 45 * 1472, 1472, 0 },   /* ... + 1: fail (UDP and IPv4 length over 65535) */
	{ 4, 65507, 1472, 45 },      /* the largest IPv4 datagram: 65535 - 20 - 8 */
	{ 4, 65508, 1472, 0 },       /* UDP length fits, IPv4 total length does not */
	{ 6, 45 * 1452, 1452, 45 },  /* udpgso: max number of full sized segments (IPv6) */
	{ 6, 46 * 1452, 1452, 0 },   /* ... + 1: fail (UDP length over 65535) */
	{ 6, 65527, 1452, 46 },      /* the largest UDP datagram: 65535 - 8 */
	{ 6, 65528, 1452, 0 },
};

START_TEST(test_udp_too_long)
{
	int l3 = udp_long_cases[_i].l3;
	uint32_t payload = udp_long_cases[_i].payload, segs = udp_long_cases[_i].segs;
	size_t len = make_udp(l3, 0, payload, 0, frame);
	struct ofl_buf b = { frame, (uint32_t)len };
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct ofl_gso_counts c;
	int t;
	for (t = 0; t < 2; t++) {
		ofl_gso_req_default(&req);
		req.type = t ? OFL_GSO_TYPE_UDP_FRAG : OFL_GSO_TYPE_UDP_L4;
		req.seg_size = t ? 1480 : udp_long_cases[_i].mss;
		if (segs == 0) {
			ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_E2BIG);
			ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_UDP_LONG);
			ck_assert(strstr(ofl_gso_why_str(ofl_gso_why(&it)), "EMSGSIZE") != NULL);
			ck_assert_int_eq(ofl_gso_count(&it, &c, sizeof c), OFL_EINVAL); /* not started */
			continue;
		}
		ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
		ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_NONE);
		ck_assert_int_eq(ofl_gso_count(&it, &c, sizeof c), 0);
		if (t == 0)
			ck_assert_uint_eq(c.segs, segs);
	}
}
END_TEST

/* Every reason has a text of its own (the UDP one names the EMSGSIZE of
 * net/ipv4/ip_output.c __ip_append_data() and net/ipv6/ip6_output.c
 * __ip6_append_data(); test_udp_too_long checks it). */
START_TEST(test_udp_why)
{
	int w;
	/* every reason has its own text */
	for (w = OFL_GSO_WHY_NONE; w <= OFL_GSO_WHY_VNET_TUNNEL; w++) {
		int v;
		ck_assert_str_ne(ofl_gso_why_str(w), "unknown reason");
		for (v = OFL_GSO_WHY_NONE; v < w; v++)
			ck_assert_str_ne(ofl_gso_why_str(w), ofl_gso_why_str(v));
	}
	ck_assert_str_eq(ofl_gso_why_str(OFL_GSO_WHY_VNET_TUNNEL + 1), "unknown reason");
	ck_assert_str_eq(ofl_gso_why_str(-1), "unknown reason");
}
END_TEST

H_MAIN("gso_udp", 0, 0, {test_udp_l4, 12}, {test_udp_l4_limit, 0},
	{test_udp_frag, 12}, {test_udp_errors, 0},
	{test_udp_too_long, (int)(sizeof(udp_long_cases) / sizeof(udp_long_cases[0]))},
	{test_udp_why, 0})
