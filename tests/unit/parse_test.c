/* parse_test.c - the header parser: good frames, every truncation, and
 * malformed fields, each with its defined status; never out of bounds
 * (run under ASan/valgrind in CI). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "gen.h"
#include "harness.h"

static int parse_buf(const uint8_t *f, size_t n, struct ofl_hdrs *h)
{
	/* copy to an exact-size heap block so any over-read is caught */
	uint8_t *c = malloc(n ? n : 1);
	struct ofl_view v;
	int st;
	memcpy(c, f, n);
	v.p = c;
	v.len = (uint32_t)n;
	st = ofl_parse(&v, (uint32_t)n, h);
	free(c);
	return st;
}

START_TEST(good_frames)
{
	struct gen_tcp g;
	uint8_t f[2000];
	struct ofl_hdrs h;
	size_t n;
	gen_tcp_init(&g, 4);
	gen_opt_ts(&g, 1, 2);
	g.nvlan = 2;
	g.vlan_tpid[0] = 0x88a8;
	n = gen_tcp_frame(&g, f, sizeof(f));
	ck_assert_int_eq(parse_buf(f, n, &h), OFL_PARSE_OK);
	ck_assert_uint_eq(h.nvlan, 2);
	ck_assert_uint_eq(h.l3_off, 22);
	ck_assert_uint_eq(h.l4_off, 42);
	ck_assert_uint_eq(h.hdr_len, 74);
	ck_assert_uint_eq(h.payload_len, 100);
	gen_tcp_init(&g, 6);
	g.ext_nh = 0; /* hop-by-hop, then routing, then TCP */
	g.ext[0] = 43;
	g.ext[1] = 0;
	g.ext[8] = 6;
	g.ext[9] = 0;
	g.extlen = 16;
	n = gen_tcp_frame(&g, f, sizeof(f));
	ck_assert_int_eq(parse_buf(f, n, &h), OFL_PARSE_OK);
	ck_assert_uint_eq(h.ip6_ext_len, 16);
	ck_assert_uint_eq(h.l4_off, 14 + 40 + 16);
}
END_TEST

START_TEST(every_truncation)
{
	struct gen_tcp g;
	uint8_t f[2000];
	struct ofl_hdrs h;
	size_t n, k;
	gen_tcp_init(&g, _i ? 6 : 4);
	gen_opt_ts(&g, 1, 2);
	g.nvlan = 1;
	n = gen_tcp_frame(&g, f, sizeof(f));
	for (k = 0; k < n; k++)
		ck_assert_int_eq(parse_buf(f, k, &h), OFL_PARSE_MALFORMED);
}
END_TEST

START_TEST(malformed_fields)
{
	struct gen_tcp g;
	uint8_t f[2000];
	struct ofl_hdrs h;
	size_t n;
	gen_tcp_init(&g, 4);
	n = gen_tcp_frame(&g, f, sizeof(f));
	f[14] = 0x44; /* IHL 4 */
	ck_assert_int_eq(parse_buf(f, n, &h), OFL_PARSE_MALFORMED);
	f[14] = 0x55; /* version 5 */
	ck_assert_int_eq(parse_buf(f, n, &h), OFL_PARSE_MALFORMED);
	g.ip_len_delta = 1; /* total length past the frame */
	n = gen_tcp_frame(&g, f, sizeof(f));
	ck_assert_int_eq(parse_buf(f, n, &h), OFL_PARSE_MALFORMED);
	g.ip_len_delta = (uint32_t)-10; /* shorter than the frame, not padding */
	n = gen_tcp_frame(&g, f, sizeof(f));
	ck_assert_int_eq(parse_buf(f, n, &h), OFL_PARSE_MALFORMED);
	g.ip_len_delta = 0;
	n = gen_tcp_frame(&g, f, sizeof(f));
	f[14 + 20 + 12] = 0x40; /* TCP data offset 4 */
	ck_assert_int_eq(parse_buf(f, n, &h), OFL_PARSE_MALFORMED);
	f[14 + 20 + 12] = 0xf0; /* data offset 15: past the packet */
	ck_assert_int_eq(parse_buf(f, 14 + 20 + 40, &h), OFL_PARSE_MALFORMED);
	n = gen_tcp_frame(&g, f, sizeof(f));
	f[14 + 9] = 17; /* UDP, with the IPv4 header checksum fixed */
	f[24] = f[25] = 0;
	{
		uint16_t c = (uint16_t)~gen_csum_fold(f + 14, 20, 0);
		f[24] = (uint8_t)(c >> 8);
		f[25] = (uint8_t)c;
	}
	ck_assert_int_eq(parse_buf(f, n, &h), OFL_PARSE_NOT_TCP);
	f[12] = 0x08;
	f[13] = 0x06; /* ARP */
	ck_assert_int_eq(parse_buf(f, n, &h), OFL_PARSE_NOT_IP);
	/* three VLAN tags */
	g.nvlan = 3;
	n = gen_tcp_frame(&g, f, sizeof(f));
	ck_assert_int_eq(parse_buf(f, n, &h), OFL_PARSE_VLAN_DEPTH);
}
END_TEST

START_TEST(ipv6_chains)
{
	struct gen_tcp g;
	uint8_t f[2000];
	struct ofl_hdrs h;
	size_t n;
	gen_tcp_init(&g, 6);
	g.payload_len = 0;
	g.ext_nh = 60;
	g.ext[0] = 60; /* dest-opts pointing at dest-opts ... */
	g.ext[1] = 6;  /* 56 bytes: runs past the packet */
	g.extlen = 8;
	n = gen_tcp_frame(&g, f, sizeof(f));
	ck_assert_int_eq(parse_buf(f, n, &h), OFL_PARSE_MALFORMED);
	g.ext[1] = 0;
	g.ext[0] = 44; /* then a fragment header */
	n = gen_tcp_frame(&g, f, sizeof(f));
	ck_assert_int_eq(parse_buf(f, n, &h), OFL_PARSE_FRAGMENT);
	g.ext[0] = 51; /* AH */
	n = gen_tcp_frame(&g, f, sizeof(f));
	ck_assert_int_eq(parse_buf(f, n, &h), OFL_PARSE_IP6_EXT);
	gen_tcp_init(&g, 6);
	n = gen_tcp_frame(&g, f, sizeof(f));
	f[18] = f[19] = 0; /* payload length 0 (jumbo) */
	ck_assert_int_eq(parse_buf(f, n, &h), OFL_PARSE_MALFORMED);
}
END_TEST

START_TEST(ipv4_flags)
{
	struct gen_tcp g;
	uint8_t f[2000];
	struct ofl_hdrs h;
	size_t n;
	gen_tcp_init(&g, 4);
	g.bad_ip_csum = true;
	n = gen_tcp_frame(&g, f, sizeof(f));
	ck_assert_int_eq(parse_buf(f, n, &h), OFL_PARSE_IP_CSUM);
	ck_assert_uint_eq(h.l4_ok, 1); /* the flow is still known */
	g.bad_ip_csum = false;
	g.frag = 0x2000;
	n = gen_tcp_frame(&g, f, sizeof(f));
	ck_assert_int_eq(parse_buf(f, n, &h), OFL_PARSE_FRAGMENT);
	ck_assert_uint_eq(h.l4_ok, 1);
	g.frag = 0x0010; /* not the first fragment: no TCP header */
	n = gen_tcp_frame(&g, f, sizeof(f));
	ck_assert_int_eq(parse_buf(f, n, &h), OFL_PARSE_FRAGMENT);
	ck_assert_uint_eq(h.l4_ok, 0);
	g.frag = 0;
	g.payload_len = 2;
	g.pad_to = 60;
	n = gen_tcp_frame(&g, f, sizeof(f));
	ck_assert_int_eq(parse_buf(f, n, &h), OFL_PARSE_OK);
	ck_assert_uint_eq(h.trimmed, 1);
	ck_assert_uint_eq(h.payload_len, 2);
}
END_TEST

START_TEST(split_view)
{
	/* the bounded view over several buffers sees the same headers */
	struct gen_tcp g;
	uint8_t f[2000], scratch[OFL_PARSE_MAX_HDR];
	struct ofl_hdrs h1, h2;
	struct ofl_buf b[80];
	size_t n, k;
	struct ofl_view v;
	gen_tcp_init(&g, 6);
	n = gen_tcp_frame(&g, f, sizeof(f));
	for (k = 0; k < 79; k++)
		b[k] = (struct ofl_buf){f + k, 1};
	b[79] = (struct ofl_buf){f + 79, (uint32_t)(n - 79)};
	v = ofl_view_make(b, 80, (uint32_t)n, scratch, OFL_PARSE_MAX_HDR);
	ck_assert_ptr_eq(v.p, scratch);
	ck_assert_int_eq(ofl_parse(&v, (uint32_t)n, &h2), OFL_PARSE_OK);
	ck_assert_int_eq(parse_buf(f, n, &h1), OFL_PARSE_OK);
	ck_assert_int_eq(memcmp(&h1, &h2, sizeof(h1)), 0);
}
END_TEST

H_MAIN("parse", 0, 0, {good_frames, 0}, {every_truncation, 2}, {malformed_fields, 0},
	{ipv6_chains, 0}, {ipv4_flags, 0}, {split_view, 0})
