/*
 * gso_rawip_test.c - GSO of packets that start at the IP header
 * (ofl_gso_req.l2 = OFL_L2_NONE: a TUN device, a VPN, raw-IP GRO output).
 *
 * - ofl_gso_start() on a raw-IP packet gives, segment for segment, the
 *   segments of the same packet behind an Ethernet header without their
 *   first 14 bytes (offsets 14 less, l3_off 0): TCP, UDP L4 and UDP
 *   fragmentation, IPv4 and IPv6, full and partial checksums, one buffer or
 *   the packet cut into three;
 * - what is refused, and why (VLAN insertion, an unknown l2, a frame that
 *   is not IP, a version-2 request that has no l2 field);
 * - GRO -> GSO -> GRO on raw IP: a context with ofl_gro_config.l2 =
 *   OFL_L2_NONE merges a train, ofl_gso_start_gro() cuts the GRO packet back
 *   into the original packets byte for byte (it tells raw IP by l3_off 0),
 *   and a second raw-IP GRO context merges those into the same packet again,
 *   IPv4 and IPv6; a NORMAL raw packet through ofl_gso_start_gro() with
 *   req.l2.
 */
#include <check.h>
#include <ofl/gro.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gso_util.h"
#include "harness.h"

static uint8_t frame[70000];

/* The super-packet of case c: TCP (0), UDP L4 (1), UDP fragmentation (2). */
static size_t make(int l3, int kind, uint8_t *buf)
{
	if (kind == 0) {
		struct gen_tcp g;
		gen_tcp_init(&g, l3);
		g.payload_len = 20001;
		g.flags = GEN_ACK | GEN_PSH;
		g.ip_id = 4000;
		gen_opt_ts(&g, 5, 6);
		return gen_tcp_frame(&g, buf, sizeof(frame));
	} else {
		struct gu_udp u;
		gu_udp_init(&u, l3);
		u.payload_len = 9001;
		u.salt = 7;
		u.ip_id = 300;
		u.df = kind == 1;
		return gu_udp_frame(&u, buf, sizeof(frame));
	}
}

static void req_for(struct ofl_gso_req *req, int kind, int partial)
{
	ofl_gso_req_default(req);
	req->type = kind == 0 ? OFL_GSO_TYPE_TCP : kind == 1 ? OFL_GSO_TYPE_UDP_L4 : OFL_GSO_TYPE_UDP_FRAG;
	req->seg_size = kind == 2 ? 1480 : 1400;
	req->csum = partial ? OFL_CSUM_MODE_PARTIAL : OFL_CSUM_MODE_FULL;
}

START_TEST(test_start_rawip)
{
	int l3 = (_i & 1) ? 6 : 4, kind = (_i >> 1) % 3, partial = (_i / 6) & 1, split = (_i / 12) & 1;
	size_t len = make(l3, kind, frame);
	struct ofl_buf eb = { frame, (uint32_t)len }, rb[3];
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct ofl_gso_counts ce, cr;
	struct gu_segs *se = calloc(1, sizeof(*se)), *sr = calloc(1, sizeof(*sr));
	uint32_t nb = 1, k;
	ck_assert_uint_gt(len, 14);
	req_for(&req, kind, partial);
	ck_assert_uint_eq(req.l2, OFL_L2_ETH); /* the default */
	ck_assert_int_eq(ofl_gso_start(&it, &req, &eb, 1), 0);
	ck_assert_int_eq(ofl_gso_count(&it, &ce, sizeof ce), 0);
	ck_assert_int_eq(gu_collect(&it, se, 2, 256), 0);

	rb[0] = (struct ofl_buf){ frame + 14, (uint32_t)len - 14 };
	if (split) { /* 7 bytes | the rest of the headers and some payload | the rest */
		rb[0].len = 7;
		rb[1] = (struct ofl_buf){ frame + 21, 100 };
		rb[2] = (struct ofl_buf){ frame + 121, (uint32_t)len - 121 };
		nb = 3;
	}
	req.l2 = OFL_L2_NONE;
	ck_assert_int_eq(ofl_gso_start(&it, &req, rb, nb), 0);
	ck_assert_int_eq(ofl_gso_count(&it, &cr, sizeof cr), 0);
	ck_assert_uint_eq(cr.segs, ce.segs);
	ck_assert_uint_eq(cr.type, ce.type);
	ck_assert_uint_eq(cr.hdr_len + 14, ce.hdr_len);
	ck_assert_int_eq(gu_collect(&it, sr, 2, 256), 0);
	ck_assert_uint_eq(sr->n, se->n);
	ck_assert_uint_gt(sr->n, 5);
	for (k = 0; k < sr->n; k++) {
		const struct ofl_gso_seg *a = &se->seg[k], *b = &sr->seg[k];
		ck_assert_uint_eq(sr->len[k] + 14, se->len[k]);
		ck_assert_mem_eq(sr->frame[k], se->frame[k] + 14, sr->len[k]);
		ck_assert_uint_eq(b->l3_off, 0);
		ck_assert_uint_eq(b->hdr_len + 14, a->hdr_len);
		ck_assert_uint_eq(b->l4_off + (a->l4_off ? 14 : 0), a->l4_off);
		ck_assert_uint_eq(b->flags, a->flags);
		if (b->flags & OFL_GSO_SEG_F_CSUM_PARTIAL) {
			ck_assert_uint_eq(b->csum_start + 14, a->csum_start);
			ck_assert_uint_eq(b->csum_offset, a->csum_offset);
		}
		ck_assert_uint_eq(b->payload_len, a->payload_len);
	}
	gu_segs_free(se);
	gu_segs_free(sr);
	free(se);
	free(sr);
}
END_TEST

START_TEST(test_rawip_refused)
{
	size_t len = make(4, 0, frame);
	struct ofl_buf rb = { frame + 14, (uint32_t)len - 14 }, eb = { frame, (uint32_t)len };
	size_t v2 = offsetof(struct ofl_gso_req, l2);
	struct ofl_gso_req req, *old;
	struct ofl_gso_iter it;
	struct ofl_gso_counts c;
	uint8_t save;
	req_for(&req, 0, 0);
	req.l2 = OFL_L2_NONE;
	/* no Ethernet header to put a tag in */
	req.flags = OFL_GSO_F_VLAN_INSERT;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &rb, 1), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_VLAN_NO_L2);
	req.flags = 0;
	req.l2 = 2; /* not an enum ofl_l2 */
	ck_assert_int_eq(ofl_gso_start(&it, &req, &rb, 1), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_REQ);
	/* an Ethernet frame taken as raw IP: its first nibble is no IP version */
	req.l2 = OFL_L2_NONE;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &eb, 1), OFL_EPROTO);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_NOT_IP);
	save = frame[14];
	frame[14] = 0x55; /* version 5 */
	ck_assert_int_eq(ofl_gso_start(&it, &req, &rb, 1), OFL_EPROTO);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_NOT_IP);
	frame[14] = save;
	/* and a raw packet as Ethernet */
	req.l2 = OFL_L2_ETH;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &rb, 1), OFL_EPROTO);
	/* a version-2 caller's struct ends before l2: Ethernet, nothing past it read */
	req.version = 2;
	req.l2 = OFL_L2_NONE;
	old = malloc(v2);
	ck_assert_ptr_nonnull(old);
	memcpy(old, &req, v2);
	ck_assert_int_eq(ofl_gso_start(&it, old, &eb, 1), 0);
	ck_assert_int_eq(ofl_gso_count(&it, &c, sizeof c), 0);
	ck_assert_uint_eq(c.segs, 15);
	ck_assert_int_eq(ofl_gso_start(&it, old, &rb, 1), OFL_EPROTO);
	free(old);
}
END_TEST

/* ---- GRO -> GSO -> GRO on raw IP ---- */

#define NSEG 20
#define MSS 1400

struct rt {
	uint8_t in[NSEG][2000];
	uint32_t in_len[NSEG];
	uint8_t *lin[2];   /* each GRO pass: its one packet, linearized */
	int lin_len[2];
	unsigned pkts[2], segs_back;
	int pass, partial;
	struct ofl_gro *gro2;
	struct gu_segs *sg; /* the segments gro2 holds until its poll ends */
};

static struct rt R;

/* Second pass: the segments GSO gave back, fed as header slot + slices. */
static void feed_segs(struct rt *r, const struct gu_segs *sg)
{
	static struct ofl_buf bufs[NSEG][OFL_GSO_SEG_MAX_SLICES + 1];
	unsigned k;
	for (k = 0; k < sg->n; k++) {
		const struct ofl_gso_seg *s = &sg->seg[k];
		struct ofl_pkt p;
		uint32_t j;
		memset(&p, 0, sizeof(p));
		bufs[k][0] = (struct ofl_buf){ sg->frame[k], s->hdr_len };
		for (j = 0; j < s->nslices; j++)
			bufs[k][j + 1] = (struct ofl_buf){ s->slices[j].data, s->slices[j].len };
		p.bufs = bufs[k];
		p.nbufs = (uint16_t)(s->nslices + 1);
		p.cookie = (void *)(uintptr_t)(k + 1);
		ck_assert_int_ge(ofl_gro_receive(r->gro2, &p, 1000 + k), 0);
	}
}

static void rt_deliver(void *user, const struct ofl_gro_out *pkts, unsigned n)
{
	struct rt *r = user;
	unsigned i, k;
	for (i = 0; i < n; i++) {
		const struct ofl_gro_out *o = &pkts[i];
		struct ofl_gso_req req;
		struct ofl_gso_iter it;
		struct gu_segs *sg;
		int pass = r->pass;
		r->pkts[pass]++;
		ck_assert_uint_eq(o->seg_count, NSEG);
		ck_assert_uint_eq(o->l3_off, 0);
		r->lin_len[pass] = ofl_gro_linearize(o, r->lin[pass], 70000, OFL_CSUM_MODE_FULL);
		ck_assert_int_eq(r->lin_len[pass], (int)o->len);
		if (pass == 1)
			continue;
		/* l3_off 0 and l4_off 0 (an ofl_gro_out filled by hand without
		 * offsets) is read as Ethernet */
		{
			struct ofl_gro_out o2 = *o;
			o2.l4_off = 0;
			ck_assert_int_eq(ofl_gso_start_gro(&it, NULL, &o2), OFL_EPROTO);
		}
		/* the default request says Ethernet: a GRO packet says raw IP itself */
		ofl_gso_req_default(&req);
		req.csum = r->partial ? OFL_CSUM_MODE_PARTIAL : OFL_CSUM_MODE_FULL;
		ck_assert_int_eq(ofl_gso_start_gro(&it, r->partial ? &req : NULL, o), 0);
		ck_assert_ptr_null(r->sg);
		sg = r->sg = calloc(1, sizeof(*sg));
		ck_assert_int_eq(gu_collect(&it, sg, 2, 256), 0);
		ck_assert_uint_eq(sg->n, NSEG);
		for (k = 0; k < sg->n; k++) {
			unsigned idx = (unsigned)(uintptr_t)o->cookies[k] - 1;
			ck_assert_uint_eq(sg->seg[k].l3_off, 0);
			if (r->partial)
				gu_complete_csum(sg->frame[k], sg->len[k], sg->seg[k].csum_start,
				                 sg->seg[k].csum_offset);
			ck_assert_uint_eq(sg->len[k], r->in_len[idx]);
			ck_assert_msg(memcmp(sg->frame[k], r->in[idx], sg->len[k]) == 0, "segment %u differs", k);
			r->segs_back++;
		}
		r->pass = 1; /* gro2 may deliver during the feed (PSH ends the train) */
		feed_segs(r, sg);
	}
}

static struct ofl_gro *mk_gro(struct rt *r)
{
	struct ofl_gro_config cfg;
	struct ofl_gro *g;
	ofl_gro_config_default(&cfg);
	cfg.l2 = OFL_L2_NONE;
	cfg.deliver = rt_deliver;
	cfg.user = r;
	ck_assert_int_eq(ofl_gro_create(&cfg, &g), 0);
	return g;
}

START_TEST(test_gro_gso_gro_rawip)
{
	int l3 = (_i & 1) ? 6 : 4;
	struct rt *r = &R;
	struct ofl_gro *gro1;
	struct gen_tcp g;
	struct ofl_buf b[NSEG];
	uint8_t f[2100];
	unsigned k;
	memset(r, 0, sizeof(*r));
	r->partial = (_i >> 1) & 1;
	r->lin[0] = malloc(70000);
	r->lin[1] = malloc(70000);
	gen_tcp_init(&g, l3);
	g.flags = GEN_ACK;
	g.payload_len = MSS;
	g.ip_id = 900;
	gen_opt_ts(&g, 1, 2);
	for (k = 0; k < NSEG; k++) {
		size_t n;
		g.seq = 1000 + k * MSS;
		if (k == NSEG - 1)
			g.flags |= GEN_PSH;
		n = gen_tcp_frame(&g, f, sizeof(f));
		ck_assert_uint_gt(n, 14);
		memcpy(r->in[k], f + 14, n - 14); /* raw IP: no Ethernet header */
		r->in_len[k] = (uint32_t)(n - 14);
		g.ip_id++;
	}
	gro1 = mk_gro(r);
	r->gro2 = mk_gro(r);
	for (k = 0; k < NSEG; k++) {
		struct ofl_pkt p;
		memset(&p, 0, sizeof(p));
		b[k] = (struct ofl_buf){ r->in[k], r->in_len[k] };
		p.bufs = &b[k];
		p.nbufs = 1;
		p.cookie = (void *)(uintptr_t)(k + 1);
		ck_assert_int_ge(ofl_gro_receive(gro1, &p, k), 0);
	}
	ofl_gro_poll_end(gro1, 0, 100, NULL); /* delivers; GSO; feeds gro2 */
	ck_assert_uint_eq(r->pkts[0], 1);
	ck_assert_uint_eq(r->segs_back, NSEG);
	ofl_gro_poll_end(r->gro2, 0, 2000, NULL);
	ck_assert_uint_eq(r->pkts[1], 1);
	ck_assert_int_eq(r->lin_len[1], r->lin_len[0]);
	ck_assert_mem_eq(r->lin[1], r->lin[0], (size_t)r->lin_len[0]);
	ofl_gro_destroy(gro1);
	ofl_gro_destroy(r->gro2);
	gu_segs_free(r->sg);
	free(r->sg);
	free(r->lin[0]);
	free(r->lin[1]);
}
END_TEST

/* A NORMAL packet (hdr_len 0: the whole packet in its slices) is what
 * req->l2 says. */
START_TEST(test_gro_normal_rawip)
{
	int l3 = (_i & 1) ? 6 : 4;
	size_t len = make(l3, 0, frame);
	struct ofl_slice sl[2];
	struct ofl_gro_out o;
	struct ofl_buf rb = { frame + 14, (uint32_t)len - 14 };
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct gu_segs *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	void *cookie = NULL;
	memset(&o, 0, sizeof(o));
	memset(sl, 0, sizeof(sl));
	sl[0].data = frame + 14;
	sl[0].len = 60;
	sl[1].data = frame + 74;
	sl[1].len = (uint32_t)len - 74;
	o.slices = sl;
	o.nslices = 2;
	o.len = (uint32_t)len - 14;
	o.cookies = &cookie;
	o.ncookies = 1;
	req_for(&req, 0, 0);
	ck_assert_int_eq(ofl_gso_start_gro(&it, &req, &o), OFL_EPROTO); /* taken as Ethernet */
	req.l2 = OFL_L2_NONE;
	ck_assert_int_eq(ofl_gso_start_gro(&it, &req, &o), 0);
	ck_assert_int_eq(gu_collect(&it, a, 2, 256), 0);
	ck_assert_int_eq(ofl_gso_start(&it, &req, &rb, 1), 0);
	ck_assert_int_eq(gu_collect(&it, b, 2, 256), 0);
	ck_assert_uint_eq(a->n, 15);
	gu_segs_same(a, b);
	gu_segs_drop(a);
	gu_segs_drop(b);
}
END_TEST

H_MAIN("gso_rawip", 0, 0, {test_start_rawip, 24}, {test_rawip_refused, 0},
	{test_gro_gso_gro_rawip, 4}, {test_gro_normal_rawip, 2})
