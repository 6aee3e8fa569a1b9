/*
 * gso_vlan_test.c - GSO of a frame whose VLAN tag is in metadata (received
 * with the tag stripped, or sent with skb_vlan_tag_present) for a NIC that
 * cannot insert it (OFL_GSO_F_VLAN_INSERT).  Linux pushes such a tag into
 * the frame before segmenting (validate_xmit_skb -> validate_xmit_vlan ->
 * __vlan_hwaccel_push_inside, then skb_gso_segment), as the outermost tag
 * right after the source MAC: so each segment must be byte for byte the
 * segment of the same frame with that tag written in it.  Also: TCP and UDP,
 * IPv4 and IPv6, a frame that already has a tag, 802.1ad, both checksum
 * modes, extra L2 bytes (a DSA tag goes before the VLAN), the refusals, and
 * a version-1 request (no VLAN fields) read only as far as it goes.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gso_util.h"
#include "harness.h"

static uint8_t plain[GU_FRAME_MAX * 8], tagged[GU_FRAME_MAX * 8];

/* A frame's tags (TPIDs and TCIs, outermost first): with `push`, the tag
 * (proto, tci); with ntag, an in-band 802.1Q tag (VID 7) after it.  Returns
 * how many. */
static uint8_t tag_list(uint16_t *tpid, uint16_t *tcis, int ntag, int push, uint16_t proto, uint16_t tci)
{
	uint8_t i = 0;
	if (push) {
		tpid[i] = proto;
		tcis[i++] = tci;
	}
	if (ntag) {
		tpid[i] = 0x8100;
		tcis[i++] = 0x0007;
	}
	return i;
}

/* TCP frame with ntag in-band tags; with `push`, an outer tag
 * (proto, tci) in front of them. */
static size_t tcp_frame(uint8_t *buf, int l3, int ntag, int push, uint16_t proto, uint16_t tci)
{
	struct gen_tcp g;
	gen_tcp_init(&g, l3);
	g.payload_len = 5000;
	g.flags = GEN_ACK | GEN_PSH;
	g.ip_id = 0x1234;
	g.nvlan = tag_list(g.vlan_tpid, g.vlan_tci, ntag, push, proto, tci);
	return gen_tcp_frame(&g, buf, sizeof(plain));
}

static size_t udp_frame(uint8_t *buf, int l3, int ntag, int push, uint16_t proto, uint16_t tci)
{
	struct gu_udp u;
	gu_udp_init(&u, l3);
	u.payload_len = 5000;
	u.nvlan = tag_list(u.vlan_tpid, u.vlan_tci, ntag, push, proto, tci);
	return gu_udp_frame(&u, buf, sizeof(plain));
}

/* Segments of a (with req) against those of b (with req minus the VLAN
 * flag): the same bytes and the same segment records. */
static void same_segments(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
                          const struct ofl_gso_req *req)
{
	struct ofl_buf ba = { a, (uint32_t)alen }, bb = { b, (uint32_t)blen };
	struct ofl_gso_req rb = *req;
	struct ofl_gso_iter it;
	struct gu_segs *sa = calloc(1, sizeof(*sa)), *sb = calloc(1, sizeof(*sb));
	unsigned k;
	ck_assert_ptr_nonnull(sa);
	ck_assert_ptr_nonnull(sb);
	rb.flags &= (uint16_t)~OFL_GSO_F_VLAN_INSERT;
	ck_assert_int_eq(ofl_gso_start(&it, req, &ba, 1), 0);
	ck_assert_int_eq(gu_collect(&it, sa, 4, 256), 0);
	ck_assert_int_eq(ofl_gso_start(&it, &rb, &bb, 1), 0);
	ck_assert_int_eq(gu_collect(&it, sb, 4, 256), 0);
	ck_assert_uint_gt(sa->n, 1);
	ck_assert_uint_eq(sa->n, sb->n);
	for (k = 0; k < sa->n; k++) {
		const struct ofl_gso_seg *x = &sa->seg[k], *y = &sb->seg[k];
		ck_assert_uint_eq(sa->len[k], sb->len[k]);
		ck_assert_mem_eq(sa->frame[k], sb->frame[k], sa->len[k]);
		gu_seg_layout_same(x, y);
		ck_assert(gu_csums_ok(sa->frame[k], sa->len[k]) || (x->flags & OFL_GSO_SEG_F_CSUM_PARTIAL));
	}
	/* the tag: right after the source MAC */
	ck_assert_uint_eq(sa->frame[0][12], req->vlan_proto ? req->vlan_proto >> 8 : 0x81);
	ck_assert_uint_eq(sa->frame[0][14] << 8 | sa->frame[0][15], req->vlan_tci);
	gu_segs_free(sa);
	gu_segs_free(sb);
	free(sa);
	free(sb);
}

/* GSO with the VLAN in metadata (OFL_GSO_F_VLAN_INSERT) gives the segments
 * of the same super-packet with the tag in its header.  Kernel path:
 * net/core/dev.c validate_xmit_vlan() pushes a hardware-accelerated tag into
 * the frame (__vlan_hwaccel_push_inside()) when the device cannot insert
 * it, before validate_xmit_skb() segments, so every segment has it.
 * _i: bit 0 IPv6, bit 1 a tag already in the frame, bit 2 802.1ad, bit 3
 * partial checksums, bits 4-5 TCP, UDP L4, UDP fragmentation. */
START_TEST(test_vlan_insert)
{
	int l3 = (_i & 1) ? 6 : 4, ntag = (_i >> 1) & 1, kind = (_i >> 4) & 3;
	uint16_t proto = (_i & 4) ? 0x88a8 : 0, tci = 0xa00b; /* PCP 5, VID 11 */
	struct ofl_gso_req req;
	size_t alen, blen;
	ofl_gso_req_default(&req);
	req.flags = OFL_GSO_F_VLAN_INSERT;
	req.vlan_tci = tci;
	req.vlan_proto = proto;
	req.csum = (_i & 8) ? OFL_CSUM_MODE_PARTIAL : OFL_CSUM_MODE_FULL;
	if (kind == 0) {
		req.type = OFL_GSO_TYPE_TCP;
		req.seg_size = 1448;
		alen = tcp_frame(plain, l3, ntag, 0, 0, 0);
		blen = tcp_frame(tagged, l3, ntag, 1, proto ? proto : 0x8100, tci);
	} else {
		req.type = kind == 1 ? OFL_GSO_TYPE_UDP_L4 : OFL_GSO_TYPE_UDP_FRAG;
		req.seg_size = 1400; /* a multiple of 8 for fragments */
		alen = udp_frame(plain, l3, ntag, 0, 0, 0);
		blen = udp_frame(tagged, l3, ntag, 1, proto ? proto : 0x8100, tci);
	}
	ck_assert_uint_eq(alen + 4, blen);
	same_segments(plain, alen, tagged, blen, &req);
}
END_TEST

/* Extra L2 bytes at 12 (a DSA tag after the source MAC) go before the
 * pushed VLAN tag: the tagger sees the frame with the tag already in it. */
START_TEST(test_vlan_with_extra_l2)
{
	size_t alen = tcp_frame(plain, 4, 0, 0, 0, 0);
	struct ofl_buf b = { plain, (uint32_t)alen };
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct gu_segs *s = calloc(1, sizeof(*s));
	unsigned k;
	ck_assert_ptr_nonnull(s);
	ofl_gso_req_default(&req);
	req.type = OFL_GSO_TYPE_TCP;
	req.seg_size = 1000;
	req.flags = OFL_GSO_F_VLAN_INSERT;
	req.vlan_tci = 0x0064;
	req.extra_l2_len = 4;
	req.extra_l2_off = 12;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	ck_assert_int_eq(gu_collect(&it, s, 4, 256), 0);
	ck_assert_uint_eq(s->n, 5);
	for (k = 0; k < s->n; k++) {
		const uint8_t *f = s->frame[k];
		ck_assert_uint_le(s->len[k], GU_FRAME_MAX);
		ck_assert_mem_eq(f, plain, 12);
		ck_assert_mem_eq(f + 12, "\0\0\0\0\x81\x00\x00\x64\x08\x00", 10);
		ck_assert_uint_eq(s->seg[k].l3_off, 14 + 4 + 4);
		uint8_t cpy[GU_FRAME_MAX];
		/* without the 4 extra bytes: a valid frame */
		memcpy(cpy, f, 12);
		memcpy(cpy + 12, f + 16, s->len[k] - 16);
		ck_assert(gu_csums_ok(cpy, s->len[k] - 4));
	}
	/* an offset counts in the frame with the tag: 16 is after it */
	req.extra_l2_off = 16;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	req.extra_l2_off = 19;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_EXTRA_L2);
	gu_segs_free(s);
	free(s);
}
END_TEST

START_TEST(test_vlan_refused)
{
	size_t len = tcp_frame(plain, 4, 0, 0, 0, 0);
	struct ofl_buf b = { plain, (uint32_t)len };
	struct ofl_buf vb[2];
	uint8_t vnet[10] = { 0, 1, 0, 0, 0xa8, 0x05, 0, 0, 0, 0 }; /* TCPV4, gso_size 1448 */
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	ofl_gso_req_default(&req);
	req.type = OFL_GSO_TYPE_TCP;
	req.seg_size = 1448;
	req.flags = OFL_GSO_F_VLAN_INSERT;
	req.vlan_proto = 0x9100; /* not a hardware-accelerated tag protocol */
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_REQ);
	req.vlan_proto = 0x8100;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	/* a TUN packet has no Ethernet header to put the tag in */
	vb[0].data = vnet;
	vb[0].len = 10;
	vb[1].data = plain + 14;
	vb[1].len = (uint32_t)len - 14;
	ck_assert_int_eq(ofl_gso_start_vnet(&it, &req, 10, OFL_GSO_L2_NONE, vb, 2), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_VLAN_NO_L2);
	req.flags = 0;
	ck_assert_int_eq(ofl_gso_start_vnet(&it, &req, 10, OFL_GSO_L2_NONE, vb, 2), 0);
	/* a version-1 request knows no VLAN flag */
	req.version = 1;
	req.flags = OFL_GSO_F_VLAN_INSERT;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_REQ);
	req.version = OFL_GSO_REQ_VERSION + 1;
	req.flags = 0;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_REQ);
}
END_TEST

/* A caller built against version 1 passes a shorter struct: nothing past
 * its fields is read (ASan checks it: the copy ends where the struct does). */
START_TEST(test_vlan_req_v1)
{
	size_t len = tcp_frame(plain, 6, 1, 0, 0, 0);
	struct ofl_buf b = { plain, (uint32_t)len };
	size_t v1 = offsetof(struct ofl_gso_req, vlan_tci);
	struct ofl_gso_req full;
	struct ofl_gso_req *req = malloc(v1);
	struct ofl_gso_iter it;
	struct ofl_gso_counts c;
	ck_assert_ptr_nonnull(req);
	ofl_gso_req_default(&full);
	full.version = 1;
	full.type = OFL_GSO_TYPE_TCP;
	full.seg_size = 1448;
	memcpy(req, &full, v1);
	ck_assert_int_eq(ofl_gso_start(&it, req, &b, 1), 0);
	ck_assert_int_eq(ofl_gso_count(&it, &c, sizeof c), 0);
	ck_assert_uint_eq(c.segs, 4);
	ck_assert_uint_eq(c.hdr_len, len - 5000); /* no tag added */
	free(req);
}
END_TEST

H_MAIN("gso_vlan", 0, 0, {test_vlan_insert, 48}, {test_vlan_with_extra_l2, 0},
	{test_vlan_refused, 0}, {test_vlan_req_v1, 0})
