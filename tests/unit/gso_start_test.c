/*
 * gso_start_test.c - the one-pass start of a plain super-packet
 * (gso_start_plain(), src/gso/plain.c) against the general start
 * (gso_start_common(), src/gso/start.c) that ofl_gso_start() used alone
 * before.
 *
 * Frames: TCP and UDP over IPv4 and IPv6 from the generator, with payloads
 * of 0 to 64000 bytes, TCP options, FIN/PSH/CWR, and one change at a time
 * that the plain start must leave to the general one (IP options, IPv6
 * extension headers, a VLAN tag, lengths that do not say the frame's end,
 * fragments, a bad version or TCP data offset, BIG TCP's zero length, a
 * UDP length that disagrees), each against requests with one field
 * changed (type, checksum mode, flags, segment size, segment limit, extra
 * L2 bytes, hook, version, tunnel fields).  For each pair, on iterators
 * filled alike with a pattern first:
 *   - when the plain start takes the frame, the general one accepts it too
 *     and leaves all OFL_GSO_ITER_SIZE bytes of its iterator identical;
 *   - when it does not, it has written nothing;
 *   - ofl_gso_start() leaves the iterator (and returns) exactly what the
 *     general start does, taken or not.
 * The plain start must take the common frames (IPv4 and IPv6, TCP with
 * and without options, UDP_L4, both checksum modes, a hook, fixed IDs).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ofl/gso.h>

#include "gen.h"
#include "gso/tmpl.h"
#include "harness.h"

#define CAP (64000u + 256u)
#define PAT 0xa5

static int hook(void *user, uint8_t *hdr, uint32_t hdr_len, uint32_t seg_index)
{
	(void)user;
	(void)hdr;
	(void)hdr_len;
	(void)seg_index;
	return 0;
}

/* The general start as ofl_gso_start() calls it. */
static int general(struct ofl_gso_iter *itp, const struct ofl_gso_req *req, const struct ofl_buf *b)
{
	struct gso_it *it = gso_it(itp);
	struct ofl_gso_req r;
	struct gso_input in;
	if (gso_req_load(&r, req) != 0)
		return gso_refuse(it, OFL_GSO_WHY_REQ);
	memset(&in, 0, sizeof(in));
	in.units = b;
	in.nunits = 1;
	in.kind = GSO_UNIT_BUF;
	in.l2_none = r.l2 == OFL_L2_NONE;
	in.flen = b->len;
	return gso_start_common(it, &r, &in, NULL);
}

static unsigned taken, compared;

/* One frame, one request: the three starts compared. */
static void check_one(const struct ofl_gso_req *req, const struct ofl_buf *b, const char *what, unsigned ri)
{
	static struct ofl_gso_iter a, g, p;
	static uint8_t pat[sizeof(struct ofl_gso_iter)];
	int rg, rp, took;
	memset(pat, PAT, sizeof(pat));
	memcpy(&a, pat, sizeof(a));
	memcpy(&g, pat, sizeof(g));
	memcpy(&p, pat, sizeof(p));
	took = gso_start_plain(gso_it(&a), req, b, 1);
	rg = general(&g, req, b);
	rp = ofl_gso_start(&p, req, b, 1);
	compared++;
	ck_assert_msg(rp == rg && memcmp(&p, &g, sizeof(p)) == 0,
	              "%s, request %u: ofl_gso_start() %d differs from the general start %d", what, ri, rp, rg);
	if (took) {
		taken++;
		ck_assert_msg(rg == 0, "%s, request %u: plain start took a frame the general one refuses (%d, why %d)",
		              what, ri, rg, ofl_gso_why(&g));
		ck_assert_msg(memcmp(&a, &g, sizeof(a)) == 0, "%s, request %u: iterators differ", what, ri);
	} else {
		ck_assert_msg(memcmp(&a, pat, sizeof(a)) == 0, "%s, request %u: plain start wrote and declined",
		              what, ri);
	}
}

/* Requests: the base one (seg_size 1448, csum mode cm, type for the
 * protocol), then one field changed at a time.  Returns how many. */
#define NREQ 34
static void make_req(struct ofl_gso_req *r, unsigned i, int udp, unsigned cm)
{
	ofl_gso_req_default(r);
	r->type = udp ? OFL_GSO_TYPE_UDP_L4 : OFL_GSO_TYPE_TCP;
	r->csum = (uint8_t)cm;
	r->seg_size = 1448;
	switch (i) {
	case 1: r->type = OFL_GSO_TYPE_AUTO; break;
	case 2: r->type = udp ? OFL_GSO_TYPE_TCP : OFL_GSO_TYPE_UDP_L4; break;
	case 3: r->type = OFL_GSO_TYPE_UDP_FRAG; r->seg_size = 1480; break;
	case 4: r->type = 9; break;
	case 5: r->csum = 7; break;
	case 6: r->flags = OFL_GSO_F_FIXED_ID; break;
	case 7: r->flags = OFL_GSO_F_KEEP_CWR; break;
	case 8: r->flags = OFL_GSO_F_VLAN_INSERT; r->vlan_tci = 5; break;
	case 9: r->flags = OFL_GSO_F_OUTER_FIXED_ID; break;
	case 10: r->flags = 0x8000u; break;
	case 11: r->seg_size = 0; break;
	case 12: r->seg_size = 1; break;
	case 13: r->seg_size = 65535u - 20u - 20u; break; /* IPv4 TCP: the largest */
	case 14: r->seg_size = 65535u - 20u - 20u + 1u; break;
	case 15: r->seg_size = 65535u - 20u; break;
	case 16: r->seg_size = 65535u - 8u; break;
	case 17: r->seg_size = 65535u; break;
	case 18: r->seg_size = 70000u; break;
	case 19: r->max_segs = 1; break;
	case 20: r->max_segs = 44; break;
	case 21: r->max_segs = 45; break;
	case 22: r->seg_size = 8; break; /* 8000 segments: UDP_L4 over its 128 */
	case 23: r->extra_l2_len = 4; r->extra_l2_off = 12; break;
	case 24: r->extra_l2_off = 12; break;
	case 25: r->extra_l2_off = 15; break;
	case 26: r->l2_fill = hook; r->l2_user = r; break;
	case 27: r->ip6_frag_id = 0x12345678u; break;
	case 28: r->version = 3; break;
	case 29: r->version = 99; break;
	case 30: r->tunnel = OFL_GSO_TUN_VXLAN; break;
	case 31: r->tun_csum = OFL_GSO_TUN_CSUM_ON; break;
	case 32: r->inner_off = 50; break;
	case 33: r->l2 = OFL_L2_NONE; break;
	default: break;
	}
}

/* Frames: the base one, then one change at a time. */
#define NFRAME 22
static uint32_t make_frame(uint8_t *buf, unsigned i, int l3, int udp, uint32_t payload)
{
	struct gen_tcp t;
	size_t len;
	uint8_t *ip = buf + 14;
	gen_tcp_init(&t, l3);
	t.udp = udp;
	t.payload_len = payload;
	t.seq = 0xfffff000u;
	t.ip_id = 0xfff0u;
	switch (i) {
	case 1: t.optlen = 12; memset(t.opts, 1, 12); break; /* NOPs */
	case 2: t.optlen = 40; memset(t.opts, 1, 40); break;
	case 3: t.flags |= GEN_FIN | GEN_PSH | GEN_CWR; break;
	case 4: t.flags |= GEN_CWR | GEN_ECE; break;
	case 5: t.ip_optlen = 4; memset(t.ip_opts, 1, 4); break;
	case 6: /* a hop-by-hop header with padding only */
		if (l3 == 6) {
			t.extlen = 8;
			t.ext_nh = 0;
			memset(t.ext, 0, 8);
			t.ext[0] = udp ? 17 : 6;
			t.ext[2] = 1;
			t.ext[3] = 4;
		}
		break;
	case 7: t.nvlan = 1; t.vlan_tpid[0] = 0x8100; t.vlan_tci[0] = 7; break;
	case 8: t.ip_len_delta = (uint32_t)-1; break;
	case 9: t.ip_len_delta = 1; break;
	case 10: t.pad_to = (uint32_t)(gen_tcp_len(&t) + 6u); break;
	case 11: t.df = false; t.frag = 0x2000; break; /* MF */
	case 12: t.bad_ip_csum = true; break;
	case 13: t.udp_len_delta = 1; break;
	case 14: t.df = false; break;
	case 15: t.tos = 0xff; t.ttl = 1; t.flowlabel = 0xfffff; break;
	default: break;
	}
	len = gen_tcp_frame(&t, buf, CAP);
	ck_assert_uint_gt(len, 0);
	switch (i) {
	case 16: ip[0] = l3 == 4 ? 0x55 : 0x45; break; /* wrong version */
	case 17: /* TCP data offset under 5 */
		if (!udp)
			buf[14 + (l3 == 4 ? 20 : 40) + 12] = 0x40;
		break;
	case 18: /* BIG TCP: IP length 0 */
		ofl_put16(ip + (l3 == 4 ? 2 : 4), 0);
		break;
	case 19: buf[12] = 0x88; buf[13] = 0x47; break; /* MPLS */
	case 20: /* a protocol neither TCP nor UDP */
		ip[l3 == 4 ? 9 : 6] = 132;
		break;
	case 21: /* the UDP length 0 */
		if (udp)
			ofl_put16(buf + 14 + (l3 == 4 ? 20 : 40) + 4, 0);
		break;
	default: break;
	}
	return (uint32_t)len;
}

START_TEST(test_plain_equals_general)
{
	static const uint32_t pays[] = {0, 1, 100, 1447, 1448, 1449, 9000, 64000};
	uint8_t *buf = malloc(CAP);
	unsigned l3i, udp, pi, fi, ri, cm;
	ck_assert_ptr_nonnull(buf);
	taken = compared = 0;
	for (l3i = 0; l3i < 2; l3i++)
		for (udp = 0; udp < 2; udp++)
			for (pi = 0; pi < sizeof(pays) / sizeof(pays[0]); pi++)
				for (fi = 0; fi < NFRAME; fi++) {
					int l3 = l3i ? 6 : 4;
					struct ofl_buf b;
					char what[96];
					b.data = buf;
					b.len = make_frame(buf, fi, l3, (int)udp, pays[pi]);
					snprintf(what, sizeof(what), "IPv%d %s payload %u frame %u", l3,
					         udp ? "UDP" : "TCP", pays[pi], fi);
					for (cm = 0; cm < 2; cm++)
						for (ri = 0; ri < NREQ; ri++) {
							struct ofl_gso_req r;
							make_req(&r, ri, (int)udp, cm);
							check_one(&r, &b, what, ri * 2 + cm);
						}
				}
	free(buf);
	/* the plain start takes a fair share (the common frames) */
	ck_assert_uint_gt(taken, compared / 10);
}
END_TEST

/* The frames the plain start exists for are taken (not left to the
 * general start by a condition too strict). */
START_TEST(test_plain_takes_common)
{
	static const unsigned frames[] = {0, 1, 2, 3, 4, 12, 14, 15};
	static const unsigned reqs[] = {0, 6, 7, 24, 26, 27};
	uint8_t *buf = malloc(CAP);
	unsigned l3i, udp, fi, ri, cm;
	ck_assert_ptr_nonnull(buf);
	for (l3i = 0; l3i < 2; l3i++)
		for (udp = 0; udp < 2; udp++)
			for (fi = 0; fi < sizeof(frames) / sizeof(frames[0]); fi++)
				for (ri = 0; ri < sizeof(reqs) / sizeof(reqs[0]); ri++)
					for (cm = 0; cm < 2; cm++) {
						static struct ofl_gso_iter it;
						struct ofl_gso_req r;
						struct ofl_buf b;
						int l3 = l3i ? 6 : 4;
						if (udp && (frames[fi] == 1 || frames[fi] == 2))
							continue; /* TCP options */
						b.data = buf;
						b.len = make_frame(buf, frames[fi], l3, (int)udp, 64000);
						make_req(&r, reqs[ri], (int)udp, cm);
						ck_assert_msg(gso_start_plain(gso_it(&it), &r, &b, 1) == 1,
						              "IPv%d %s frame %u request %u mode %u not taken", l3,
						              udp ? "UDP" : "TCP", frames[fi], reqs[ri], cm);
					}
	free(buf);
}
END_TEST

H_MAIN("gso_start", 0, 0, {test_plain_equals_general, 0}, {test_plain_takes_common, 0})
