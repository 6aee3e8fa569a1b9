/*
 * gso_tcp_test.c - TCP segmentation field by field (tcp_gso_segment and
 * inet_gso_segment rules): IPv4 and IPv6, no tag, 802.1Q, 802.1ad+802.1Q,
 * full and partial checksums, fixed and incrementing IDs, PSH/FIN/CWR,
 * TCP and IPv4 options, IPv6 extension headers, BIG TCP (length 0, HBH
 * Jumbo), split input buffers, one-segment packets, the extra-L2 hook.
 * Checksums are verified with gen_csum_fold (tests/support), never with the
 * library's code.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gso_util.h"
#include "harness.h"

static uint16_t g16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint32_t g32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Check every segment of `in` against the kernel's rules. */
static void verify_tcp(const uint8_t *in, size_t in_len, const struct ofl_gso_req *req,
                       const struct gu_segs *sg, uint32_t extra_l2)
{
	struct gu_info gi;
	size_t l2, l3h, thl, payload;
	uint32_t mss = req->seg_size, seq0, k, n, pos = 0;
	uint16_t id0;
	uint8_t fl;
	ck_assert(gu_parse(in, in_len, &gi));
	ck_assert_int_eq(gi.ip.proto, 6);
	l2 = gi.ip.l3_off;
	thl = gi.payload_off - gi.ip.l4_off;
	l3h = gi.ip.l4_off - gi.ip.l3_off;
	payload = in_len - gi.payload_off;
	if (gi.ip.l3 == 6 && in[gi.ip.l3_off + 6] == 0 && in[gi.ip.l3_off + 42] == 0xc2)
		l3h -= 8; /* the jumbo option is not carried */
	n = (uint32_t)((payload + mss - 1) / mss);
	if (!n)
		n = 1;
	ck_assert_uint_eq(sg->n, n);
	seq0 = g32(in + gi.ip.l4_off + 4);
	id0 = g16(in + gi.ip.l3_off + 4);
	fl = in[gi.ip.l4_off + 13];
	for (k = 0; k < n; k++) {
		const uint8_t *f = sg->frame[k];
		const struct ofl_gso_seg *s = &sg->seg[k];
		uint32_t plen = (uint32_t)(payload - pos < mss ? payload - pos : mss), i;
		size_t o3 = l2 + extra_l2, o4 = o3 + l3h, op = o4 + thl;
		uint8_t want = fl;
		uint8_t cpy[GU_FRAME_MAX];
		ck_assert_uint_eq(sg->len[k], op + plen);
		ck_assert_uint_eq(s->hdr_len, op);
		ck_assert_uint_eq(s->payload_len, plen);
		ck_assert_uint_eq(s->index, k);
		ck_assert_uint_eq(s->nsegs, n);
		ck_assert_uint_eq(s->l3_off, o3);
		ck_assert_uint_eq(s->l4_off, o4);
		ck_assert_uint_eq(!!(s->flags & OFL_GSO_SEG_F_FIRST), k == 0);
		ck_assert_uint_eq(!!(s->flags & OFL_GSO_SEG_F_LAST), k + 1 == n);
		/* L2: MACs and tags copied, extra bytes at 12 */
		ck_assert_mem_eq(f, in, 12);
		ck_assert_mem_eq(f + 12 + extra_l2, in + 12, l2 - 12);
		if (gi.ip.l3 == 4) {
			const uint8_t *a = in + gi.ip.l3_off, *b = f + o3;
			ck_assert_uint_eq(b[0], a[0]);   /* version, IHL */
			ck_assert_uint_eq(b[1], a[1]);   /* TOS */
			ck_assert_uint_eq(g16(b + 2), l3h + thl + plen);
			ck_assert_uint_eq(g16(b + 4), (req->flags & OFL_GSO_F_FIXED_ID) ? id0 : (uint16_t)(id0 + k));
			ck_assert_uint_eq(g16(b + 6), g16(a + 6)); /* DF, no offset */
			ck_assert_uint_eq(b[8], a[8]);   /* TTL */
			ck_assert_uint_eq(b[9], 6);
			ck_assert_mem_eq(b + 12, a + 12, 8);
			ck_assert_mem_eq(b + 20, a + 20, l3h - 20); /* options */
			ck_assert_uint_eq(gen_csum_fold(b, l3h, 0), 0xffff);
		} else {
			const uint8_t *a = in + gi.ip.l3_off, *b = f + o3;
			ck_assert_mem_eq(b, a, 4); /* version, class, flow label */
			ck_assert_uint_eq(g16(b + 4), l3h - 40 + thl + plen);
			ck_assert_uint_eq(b[7], a[7]);
			ck_assert_mem_eq(b + 8, a + 8, 32);
			if (l3h == gi.ip.l4_off - gi.ip.l3_off)
				ck_assert_mem_eq(b + 40, a + 40, l3h - 40); /* ext headers */
			else
				ck_assert_uint_eq(b[6], a[40]); /* HBH dropped */
		}
		/* TCP */
		ck_assert_mem_eq(f + o4, in + gi.ip.l4_off, 4);                 /* ports */
		ck_assert_uint_eq(g32(f + o4 + 4), seq0 + pos);
		ck_assert_mem_eq(f + o4 + 8, in + gi.ip.l4_off + 8, 5);          /* ack, doff */
		if (k + 1 < n)
			want &= (uint8_t)~(GEN_FIN | GEN_PSH);
		if (k && !(req->flags & OFL_GSO_F_KEEP_CWR))
			want &= (uint8_t)~GEN_CWR;
		ck_assert_uint_eq(f[o4 + 13], want);
		ck_assert_mem_eq(f + o4 + 14, in + gi.ip.l4_off + 14, 2);        /* window */
		ck_assert_mem_eq(f + o4 + 18, in + gi.ip.l4_off + 18, thl - 18); /* urg, options */
		/* payload is the input's, in place */
		ck_assert_mem_eq(f + op, in + gi.payload_off + pos, plen);
		for (i = 0; i < s->nslices; i++)
			ck_assert(s->slices[i].len > 0);
		/* checksums, independently */
		memcpy(cpy, f, sg->len[k]);
		if (req->csum == OFL_CSUM_MODE_PARTIAL) {
			uint32_t ps;
			ck_assert(s->flags & OFL_GSO_SEG_F_CSUM_PARTIAL);
			ck_assert_uint_eq(s->csum_start, o4);
			ck_assert_uint_eq(s->csum_offset, 16);
			ps = gi.ip.l3 == 4 ? gen_csum_fold(f + o3 + 12, 8, 0) : gen_csum_fold(f + o3 + 8, 32, 0);
			ck_assert_uint_eq(g16(f + o4 + 16), gen_csum_fold(NULL, 0, ps + 6 + thl + plen));
			gu_complete_csum(cpy, sg->len[k], s->csum_start, s->csum_offset);
		} else {
			ck_assert(!(s->flags & OFL_GSO_SEG_F_CSUM_PARTIAL));
		}
		if (!extra_l2)
			ck_assert(gu_csums_ok(cpy, sg->len[k]));
		pos += plen;
	}
	ck_assert_uint_eq(pos, payload);
}

/* Release ranges: every input buffer released exactly once, in order, and
 * never before the last slice that points into it. */
static void verify_release(const struct gu_segs *sg, uint32_t nbufs)
{
	uint32_t next = 0, k, i;
	for (k = 0; k < sg->n; k++) {
		const struct ofl_gso_seg *s = &sg->seg[k];
		ck_assert_uint_eq(s->release_first, next);
		next += s->release_count;
		for (i = 0; i < s->nslices; i++)
			ck_assert_uint_ge(s->slices[i].buf, s->release_first);
		for (i = k + 1; i < sg->n; i++) {
			uint32_t j;
			for (j = 0; j < sg->seg[i].nslices; j++)
				ck_assert_uint_ge(sg->seg[i].slices[j].buf, next);
		}
	}
	ck_assert_uint_eq(next, nbufs);
}

static size_t make_super(int l3, int nvlan, uint32_t payload, uint8_t flags, uint8_t *buf, size_t cap)
{
	struct gen_tcp g;
	gen_tcp_init(&g, l3);
	g.nvlan = gu_two_tags(g.vlan_tpid, g.vlan_tci, nvlan, 0x0123, 0x0456);
	g.payload_len = payload;
	g.flags = flags;
	g.seq = 0xfffff000u; /* wraps inside the packet */
	g.ip_id = 0xfff0;    /* wraps too */
	g.tos = 0x28;
	g.flowlabel = 0x12345;
	g.flow_salt = 7;
	gen_opt_ts(&g, 1000, 2000);
	return gen_tcp_frame(&g, buf, cap);
}

static uint8_t big[600000];

/* The matrix: L3 x VLANs x checksum mode x fixed-id x input split. */
START_TEST(test_tcp_matrix)
{
	int l3 = (_i & 1) ? 6 : 4, nvlan = (_i >> 1) % 3, partial = (_i / 6) & 1, fixed = (_i / 12) & 1;
	int split = (_i / 24) & 1;
	size_t len = make_super(l3, nvlan, 64000, GEN_ACK | GEN_PSH | GEN_FIN | GEN_CWR, big, sizeof(big));
	struct ofl_buf bufs[4];
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct ofl_gso_counts cnt;
	struct gu_segs *sg = calloc(1, sizeof(*sg));
	uint32_t nb = 1;
	ofl_gso_req_default(&req);
	req.type = OFL_GSO_TYPE_TCP;
	req.seg_size = 1448;
	req.csum = partial ? OFL_CSUM_MODE_PARTIAL : OFL_CSUM_MODE_FULL;
	req.flags = fixed ? OFL_GSO_F_FIXED_ID : 0;
	bufs[0].data = big;
	bufs[0].len = (uint32_t)len;
	if (split) {
		/* 30 header bytes | rest of headers + 1000 | 1000 | rest */
		uint32_t a = 30, b = (uint32_t)(len - 64000 + 1000 - 30);
		bufs[0].len = a;
		bufs[1].data = big + a;
		bufs[1].len = b;
		bufs[2].data = big + a + b;
		bufs[2].len = 1000;
		bufs[3].data = big + a + b + 1000;
		bufs[3].len = (uint32_t)(len - a - b - 1000);
		nb = 4;
	}
	ck_assert_int_eq(ofl_gso_start(&it, &req, bufs, nb), 0);
	ck_assert_int_eq(ofl_gso_count(&it, &cnt, sizeof cnt), 0);
	ck_assert_uint_eq(cnt.segs, 45);
	ck_assert_int_eq(gu_collect(&it, sg, 4, 256), 0);
	verify_tcp(big, len, &req, sg, 0);
	verify_release(sg, nb);
	{
		uint32_t d = 0, k;
		for (k = 0; k < sg->n; k++)
			d += 1 + sg->seg[k].nslices;
		ck_assert_uint_eq(cnt.descs, d);
	}
	/* slices point into the caller's buffers */
	ck_assert(sg->seg[0].slices[0].data >= big && sg->seg[0].slices[0].data < big + len);
	gu_segs_free(sg);
	free(sg);
}
END_TEST

/* BIG TCP: IPv4 total length 0, IPv6 payload length 0 (with and without a
 * hop-by-hop Jumbo option), 80000 bytes of payload. */
START_TEST(test_bigtcp)
{
	struct gen_tcp g;
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct gu_segs *sg = calloc(1, sizeof(*sg));
	struct ofl_buf b;
	size_t len, l3 = 14;
	int v6 = _i >= 1, hbh = _i == 2;
	gen_tcp_init(&g, v6 ? 6 : 4);
	g.payload_len = 80000;
	g.flags = GEN_ACK | GEN_PSH;
	if (hbh) {
		static const uint8_t jumbo[8] = { 6, 0, 0xc2, 4, 0, 0, 0, 0 };
		memcpy(g.ext, jumbo, 8);
		g.extlen = 8;
		g.ext_nh = 0;
	}
	len = gen_tcp_frame(&g, big, sizeof(big));
	gu_bigtcp(big, l3);
	if (hbh) {
		uint32_t jl = (uint32_t)(len - l3 - 40);
		big[l3 + 44] = (uint8_t)(jl >> 24);
		big[l3 + 45] = (uint8_t)(jl >> 16);
		big[l3 + 46] = (uint8_t)(jl >> 8);
		big[l3 + 47] = (uint8_t)jl;
	}
	b.data = big;
	b.len = (uint32_t)len;
	ofl_gso_req_default(&req);
	req.seg_size = 1448;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	ck_assert_int_eq(gu_collect(&it, sg, 2, 256), 0);
	ck_assert_uint_eq(sg->n, 56); /* 55 x 1448 + 360 */
	verify_tcp(big, len, &req, sg, 0);
	if (hbh) {
		/* a wrong jumbo length is refused */
		big[l3 + 47] ^= 1;
		ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EBADMSG);
	}
	gu_segs_free(sg);
	free(sg);
}
END_TEST

/* IPv4 options and IPv6 destination options are copied to every segment. */
START_TEST(test_ip_options)
{
	struct gen_tcp g;
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct gu_segs *sg = calloc(1, sizeof(*sg));
	struct ofl_buf b;
	gen_tcp_init(&g, _i ? 6 : 4);
	g.payload_len = 10000;
	if (_i) {
		static const uint8_t dst[8] = { 6, 0, 1, 4, 0, 0, 0, 0 };
		memcpy(g.ext, dst, 8);
		g.extlen = 8;
		g.ext_nh = 60;
	} else {
		memset(g.ip_opts, 1, 8); /* NOPs */
		g.ip_optlen = 8;
	}
	b.data = big;
	b.len = (uint32_t)gen_tcp_frame(&g, big, sizeof(big));
	ofl_gso_req_default(&req);
	req.seg_size = 1000;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	ck_assert_int_eq(gu_collect(&it, sg, 1, 128), 0);
	verify_tcp(big, b.len, &req, sg, 0);
	gu_segs_free(sg);
	free(sg);
}
END_TEST

/* A payload that fits one segment gives one segment; so does a pure header. */
START_TEST(test_one_segment)
{
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct gu_segs *sg = calloc(1, sizeof(*sg));
	struct ofl_buf b;
	b.data = big;
	b.len = (uint32_t)make_super(4, 0, _i ? 0 : 1448, GEN_ACK | GEN_PSH | GEN_CWR, big, sizeof(big));
	ofl_gso_req_default(&req);
	req.seg_size = 1448;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	ck_assert_int_eq(gu_collect(&it, sg, 1, 128), 0);
	ck_assert_uint_eq(sg->n, 1);
	ck_assert_uint_eq(sg->seg[0].flags & (OFL_GSO_SEG_F_FIRST | OFL_GSO_SEG_F_LAST),
	                  OFL_GSO_SEG_F_FIRST | OFL_GSO_SEG_F_LAST);
	verify_tcp(big, b.len, &req, sg, 0);
	ck_assert_mem_eq(sg->frame[0], big, b.len); /* unchanged */
	gu_segs_free(sg);
	free(sg);
}
END_TEST

/* AccECN: CWR kept on every segment when asked. */
START_TEST(test_keep_cwr)
{
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct gu_segs *sg = calloc(1, sizeof(*sg));
	struct ofl_buf b;
	unsigned k;
	b.data = big;
	b.len = (uint32_t)make_super(6, 1, 5000, GEN_ACK | GEN_CWR, big, sizeof(big));
	ofl_gso_req_default(&req);
	req.seg_size = 1000;
	req.flags = OFL_GSO_F_KEEP_CWR;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	ck_assert_int_eq(gu_collect(&it, sg, 1, 128), 0);
	verify_tcp(big, b.len, &req, sg, 0);
	for (k = 0; k < sg->n; k++)
		ck_assert_uint_eq(sg->frame[k][14 + 4 + 40 + 13], GEN_ACK | GEN_CWR);
	gu_segs_free(sg);
	free(sg);
}
END_TEST

static int fill_tag(void *user, uint8_t *hdr, uint32_t hdr_len, uint32_t k)
{
	(void)hdr_len;
	hdr[12] = 0xda;
	hdr[13] = 0xda;
	hdr[14] = (uint8_t)k;
	hdr[15] = *(uint8_t *)user;
	return k == 3 && *(uint8_t *)user == 0xee ? 1 : 0;
}

/* The extra-L2 hook: 4 bytes after the source MAC in every header. */
START_TEST(test_extra_l2)
{
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct ofl_gso_pool pool;
	struct ofl_gso_seg seg;
	struct gu_segs *sg = calloc(1, sizeof(*sg));
	struct ofl_buf b;
	static uint8_t block[4096];
	uint8_t tag = 0x77;
	unsigned k;
	b.data = big;
	b.len = (uint32_t)make_super(4, 1, 6000, GEN_ACK, big, sizeof(big));
	ofl_gso_req_default(&req);
	req.seg_size = 1448;
	req.extra_l2_len = 4;
	req.extra_l2_off = 12;
	req.l2_fill = fill_tag;
	req.l2_user = &tag;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	ck_assert_int_eq(gu_collect(&it, sg, 1, 128), 0);
	verify_tcp(big, b.len, &req, sg, 4);
	for (k = 0; k < sg->n; k++) {
		ck_assert_uint_eq(sg->frame[k][14], k);
		ck_assert_uint_eq(sg->frame[k][15], 0x77);
	}
	/* a refusing hook: the segment is not emitted, the slot comes back */
	tag = 0xee;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	ck_assert_int_eq(ofl_gso_pool_init_block(&pool, block, sizeof(block), 128), 0);
	for (k = 0; k < 3; k++) {
		ck_assert_int_eq(ofl_gso_next(&it, &pool, &seg), 1);
		ofl_gso_pool_put(&pool, &seg.hdr);
	}
	ck_assert_int_eq(ofl_gso_next(&it, &pool, &seg), OFL_EBADMSG);
	ck_assert_uint_eq(ofl_gso_pool_avail(&pool), 32);
	tag = 0x77;
	ck_assert_int_eq(ofl_gso_next(&it, &pool, &seg), 1);
	ck_assert_uint_eq(seg.index, 3);
	/* extra_l2_off beyond the L2 header */
	req.extra_l2_off = 19;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EINVAL);
	gu_segs_free(sg);
	free(sg);
}
END_TEST

/* The corpus' BIG TCP and GSO captures (plain IPv4/IPv6; tunnels refused). */
START_TEST(test_corpus_gso_files)
{
	static const char *const files[] = { "bigtcp-ipv4.pcap", "bigtcp-ipv6.pcap", "bigtcp-ipv6-hbh.pcap",
	                                     "gso-ipv4.pcap", "gso-ipv6.pcap" };
	static const char *const tunnels[] = { "gso-ipv4-vxlan-ipv4.pcap", "bigtcp-ipv6-geneve-ipv6.pcap" };
	const char *dir = getenv("OFL_CORPORA");
	char path[1024];
	unsigned f;
	if (!dir)
		dir = "../shared/corpora";
	for (f = 0; f < 5 + 2; f++) {
		struct gu_pcap p;
		struct ofl_gso_req req;
		struct ofl_gso_iter it;
		struct ofl_buf b;
		snprintf(path, sizeof(path), "%s/gso/%s", dir, f < 5 ? files[f] : tunnels[f - 5]);
		ck_assert_msg(gu_pcap_read(path, &p), "cannot read %s (corpus file missing)", path);
		ck_assert_uint_eq(p.n, 1);
		b.data = p.frame[0];
		b.len = p.len[0];
		ofl_gso_req_default(&req);
		req.seg_size = 1448;
		if (f < 5) {
			struct gu_segs *sg = calloc(1, sizeof(*sg));
			ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
			ck_assert_int_eq(gu_collect(&it, sg, 3, 256), 0);
			verify_tcp(p.frame[0], p.len[0], &req, sg, 0);
			gu_segs_free(sg);
			free(sg);
		} else {
			ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_ENOTSUP);
		}
		gu_pcap_free(&p);
	}
}
END_TEST

/* Refused with ENOTSUP, nothing emitted: an IPv6 routing header (it changes
 * the pseudo-header destination), three VLAN tags, IP-in-IP. */
START_TEST(test_refusals)
{
	struct gen_tcp g;
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct ofl_buf b;
	static const uint8_t rh[8] = { 6, 0, 4, 0, 0, 0, 0, 0 };
	ofl_gso_req_default(&req);
	req.seg_size = 1000;
	gen_tcp_init(&g, 6);
	g.payload_len = 5000;
	memcpy(g.ext, rh, 8);
	g.extlen = 8;
	g.ext_nh = 43;
	b.data = big;
	b.len = (uint32_t)gen_tcp_frame(&g, big, sizeof(big));
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_ENOTSUP);
	gen_tcp_init(&g, 4);
	g.payload_len = 5000;
	g.nvlan = 3;
	b.len = (uint32_t)gen_tcp_frame(&g, big, sizeof(big));
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_ENOTSUP);
	g.nvlan = 0;
	b.len = (uint32_t)gen_tcp_frame(&g, big, sizeof(big));
	big[14 + 9] = 4; /* IPv4 in IPv4 */
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_ENOTSUP);
	big[14 + 9] = 6;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
}
END_TEST

H_MAIN("gso_tcp", 0, 0, {test_tcp_matrix, 48}, {test_bigtcp, 3},
	{test_ip_options, 2}, {test_one_segment, 2}, {test_keep_cwr, 0}, {test_extra_l2, 0},
	{test_corpus_gso_files, 0}, {test_refusals, 0})
