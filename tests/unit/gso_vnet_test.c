/*
 * gso_vnet_test.c - virtio_net_hdr input as TAP/AF_PACKET (Ethernet) and TUN
 * (IP only) hand it out: the same segments as an explicit request, header
 * split across buffers, 10- and 12-byte headers, and the checks of
 * virtio_net_hdr_to_skb (type vs headers, csum_start/csum_offset).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gso_util.h"
#include "harness.h"

static uint8_t pkt[12 + 70000];

static void put_le16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }

static void vnet(uint8_t *p, uint8_t flags, uint8_t type, uint16_t hdr_len, uint16_t gso_size,
                 uint16_t cs, uint16_t co)
{
	p[0] = flags;
	p[1] = type;
	put_le16(p + 2, hdr_len);
	put_le16(p + 4, gso_size);
	put_le16(p + 6, cs);
	put_le16(p + 8, co);
}

/* The same frame through ofl_gso_start() with an explicit request. */
static void reference(const uint8_t *f, size_t len, uint8_t type, uint32_t mss, struct gu_segs *sg)
{
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct ofl_buf b = { f, (uint32_t)len };
	ofl_gso_req_default(&req);
	req.type = type;
	req.seg_size = mss;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	ck_assert_int_eq(gu_collect(&it, sg, 2, 256), 0);
}

START_TEST(test_vnet_tcp)
{
	int v6 = _i & 1, tun = (_i >> 1) & 1, hl = (_i & 4) ? 12 : 10, split = (_i >> 3) & 1;
	struct gen_tcp g;
	struct ofl_gso_iter it;
	struct ofl_buf b[3];
	struct gu_segs *a = calloc(1, sizeof(*a)), *r = calloc(1, sizeof(*r));
	size_t flen, l2 = tun ? 0 : 14;
	uint8_t *f = pkt + hl;
	unsigned k, nb = 1;
	gen_tcp_init(&g, v6 ? 6 : 4);
	g.payload_len = 20000;
	g.flags = GEN_ACK | GEN_PSH | GEN_CWR;
	flen = gen_tcp_frame(&g, f, sizeof(pkt) - 12);
	reference(f, flen, OFL_GSO_TYPE_TCP, 1448, r);
	memset(pkt, 0, (size_t)hl);
	vnet(pkt, 1, v6 ? 4 : 1, (uint16_t)(l2 + (v6 ? 40 : 20) + 20), 1448,
	     (uint16_t)(l2 + (v6 ? 40 : 20)), 16);
	b[0].data = pkt;
	if (tun) {
		/* TUN: the header right before the IP packet */
		memmove(pkt + 14, pkt, (size_t)hl);
		b[0].data = pkt + 14;
		b[0].len = (uint32_t)(hl + flen - 14);
	} else {
		b[0].len = (uint32_t)(hl + flen);
	}
	if (split) {
		b[1].data = b[0].data + 5;
		b[1].len = b[0].len - 5 - 3000;
		b[2].data = b[1].data + b[1].len;
		b[2].len = 3000;
		b[0].len = 5;
		nb = 3;
	}
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, (uint32_t)hl, tun ? OFL_GSO_L2_NONE : OFL_GSO_L2_ETH, b, nb),
	                 0);
	ck_assert_int_eq(gu_collect(&it, a, 2, 256), 0);
	ck_assert_uint_eq(a->n, r->n);
	for (k = 0; k < a->n; k++) {
		ck_assert_uint_eq(a->len[k] + (14 - l2), r->len[k]);
		ck_assert_mem_eq(a->frame[k], r->frame[k] + (14 - l2), a->len[k]);
		ck_assert_uint_eq(a->seg[k].l3_off, l2);
	}
	gu_segs_free(a);
	gu_segs_free(r);
	free(a);
	free(r);
}
END_TEST

START_TEST(test_vnet_udp)
{
	struct gu_udp u;
	struct ofl_gso_iter it;
	struct ofl_buf b;
	struct gu_segs *a = calloc(1, sizeof(*a)), *r = calloc(1, sizeof(*r));
	size_t flen;
	int ufo = _i;
	gu_udp_init(&u, 6);
	u.payload_len = 5000;
	flen = gu_udp_frame(&u, pkt + 10, sizeof(pkt) - 10);
	reference(pkt + 10, flen, ufo ? OFL_GSO_TYPE_UDP_FRAG : OFL_GSO_TYPE_UDP_L4, ufo ? 1232 : 1200, r);
	vnet(pkt, 1, ufo ? 3 : 5, 14 + 40 + 8, ufo ? 1239 : 1200, 14 + 40, 6);
	b.data = pkt;
	b.len = (uint32_t)(10 + flen);
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 10, OFL_GSO_L2_ETH, &b, 1), 0);
	ck_assert_int_eq(gu_collect(&it, a, 2, 256), 0);
	gu_segs_same(a, r);
	gu_segs_drop(a);
	gu_segs_drop(r);
}
END_TEST

START_TEST(test_vnet_errors)
{
	struct gen_tcp g;
	struct ofl_gso_iter it;
	struct ofl_gso_req req;
	struct ofl_virtio_net_hdr vh;
	struct ofl_buf b;
	size_t flen;
	gen_tcp_init(&g, 4);
	g.payload_len = 5000;
	flen = gen_tcp_frame(&g, pkt + 10, sizeof(pkt) - 10);
	b.data = pkt;
	b.len = (uint32_t)(10 + flen);
	vnet(pkt, 1, 4, 54, 1000, 34, 16); /* TCPV6 on an IPv4 frame */
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 10, OFL_GSO_L2_ETH, &b, 1), OFL_EPROTO);
	vnet(pkt, 1, 1, 54, 1000, 30, 16); /* csum_start not at TCP */
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 10, OFL_GSO_L2_ETH, &b, 1), OFL_EPROTO);
	vnet(pkt, 1, 1, 54, 1000, 34, 6); /* csum_offset not TCP's */
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 10, OFL_GSO_L2_ETH, &b, 1), OFL_EPROTO);
	vnet(pkt, 1, 1, 54, 0, 34, 16); /* gso_size 0 */
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 10, OFL_GSO_L2_ETH, &b, 1), OFL_EPROTO);
	vnet(pkt, 0, 0, 0, 0, 0, 0); /* no GSO asked */
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 10, OFL_GSO_L2_ETH, &b, 1), OFL_ENOTSUP);
	ck_assert_int_eq(ofl_gso_vnet_read(pkt, 10, &vh), 0);
	ofl_gso_req_default(&req);
	ck_assert_int_eq(ofl_gso_req_from_vnet(&vh, &req), 0);
	vnet(pkt, 1, 0x81, 54, 1000, 34, 16); /* TCPV4 | ECN */
	ck_assert_int_eq(ofl_gso_vnet_read(pkt, 10, &vh), 0);
	ck_assert_int_eq(ofl_gso_req_from_vnet(&vh, &req), 1);
	ck_assert_uint_eq(req.type, OFL_GSO_TYPE_TCP);
	ck_assert_uint_eq(req.seg_size, 1000);
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 10, OFL_GSO_L2_ETH, &b, 1), 0);
	vnet(pkt, 1, 0x17, 54, 1000, 34, 16); /* unknown type */
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 10, OFL_GSO_L2_ETH, &b, 1), OFL_ENOTSUP);
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 11, OFL_GSO_L2_ETH, &b, 1), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 10, 7, &b, 1), OFL_EINVAL);
	b.len = 8;
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 10, OFL_GSO_L2_ETH, &b, 1), OFL_EPROTO);
	ck_assert_int_eq(ofl_gso_vnet_read(pkt, 9, &vh), OFL_EINVAL);
}
END_TEST

H_MAIN("gso_vnet", 0, 0, {test_vnet_tcp, 16}, {test_vnet_udp, 2},
	{test_vnet_errors, 0})
