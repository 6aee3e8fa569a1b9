/*
 * gso_dsa_test.c - GSO through a DSA tag: for every format that can address
 * a destination port, every segment of a TCP super-packet carries a valid
 * TX tag for that port (head tags in the header slot, tail tags and the
 * kernel's padding as extra slices), and once untagged each segment is a
 * correct TCP segment (checksums, lengths, the payload bytes in order).
 * Every tagged segment, TCP and UDP L4 (IPv4 and IPv6, with and without an
 * 802.1Q header), is also what ofl_dsa_encode() makes of the same segment
 * cut without a tag.
 */
#include <check.h>
#include <ofl/dsa.h>
#include <ofl/gso.h>
#include <stdlib.h>
#include <string.h>

#include "conserve.h"
#include "gather.h"
#include "gen.h"
#include "gso_util.h"
#include "harness.h"

static uint8_t super[70000], block[64 * 512], lin[4096], un[4096];

static int prepare(const struct ofl_dsa_ops *ops, unsigned port, struct ofl_gso_dsa *d)
{
	struct ofl_dsa_meta m;
	int r;
	memset(&m, 0, sizeof(m));
	m.valid = OFL_DSA_M_PORT;
	m.port = (uint8_t)port;
	r = ofl_gso_dsa_prepare(d, ops, NULL, &m);
	if (r == OFL_ENOTSUP && ops->place != OFL_DSA_PLACE_NONE &&
	    !(ops->flags & OFL_DSA_F_TX_FCS)) {
		/* formats that also need a switch id (tag_8021q kind, netc) */
		m.valid |= OFL_DSA_M_SWITCH;
		m.switch_id = 1;
		r = ofl_gso_dsa_prepare(d, ops, NULL, &m);
	}
	return r;
}

/* A TCP super-packet (nvlan 802.1Q headers with TCI tci) in super[] and a
 * full-checksum TCP request for it. */
static struct ofl_buf make_super(struct gen_tcp *g, int l3, uint32_t payload, unsigned nvlan,
                                 uint16_t tci, uint32_t mss, struct ofl_gso_req *req)
{
	gen_tcp_init(g, l3);
	g->payload_len = payload;
	g->flags = GEN_ACK | GEN_PSH;
	g->nvlan = (uint8_t)nvlan;
	g->vlan_tpid[0] = 0x8100;
	g->vlan_tci[0] = tci;
	ofl_gso_req_default(req);
	req->type = OFL_GSO_TYPE_TCP;
	req->seg_size = mss;
	req->csum = OFL_CSUM_MODE_FULL;
	return (struct ofl_buf){super, (uint32_t)gen_tcp_frame(g, super, sizeof(super))};
}

static void run(const struct ofl_dsa_ops *ops, int l3, uint32_t payload, uint32_t mss)
{
	struct ofl_gso_dsa d;
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct ofl_gso_pool pool;
	struct ofl_gso_seg seg;
	struct gen_tcp g;
	struct ofl_buf b;
	uint32_t seq, nseg = 0;
	unsigned port = ops->tx_ports > 3 ? 3 : 0;
	int r;
	r = prepare(ops, port, &d);
	if (r == OFL_ENOTSUP) {
		/* only the formats whose tag depends on each frame's bytes, or "none" */
		ck_assert(ops->place == OFL_DSA_PLACE_NONE || (ops->flags & OFL_DSA_F_TX_FCS));
		return;
	}
	ck_assert_msg(r == 0, "%s: prepare %d", ops->name, r);
	b = make_super(&g, l3, payload, 0, 0, mss, &req);
	ck_assert_int_eq(ofl_gso_req_set_dsa(&req, &d), 0);
	ck_assert_int_eq(ofl_gso_pool_init_block(&pool, block, sizeof(block), 512), 0);
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	seq = g.seq;
	while ((r = ofl_gso_next(&it, &pool, &seg)) == 1) {
		struct ofl_dsa_meta m;
		struct ofl_dsa_view v;
		struct ofl_buf pc[2];
		struct c_flow cf;
		uint32_t i, ulen;
		ck_assert_int_eq(ofl_gso_dsa_finish(&d, &seg), 0);
		ck_assert_int_eq(ofl_gso_seg_linearize(&seg, lin, sizeof(lin)), (int)seg.len);
		r = ofl_dsa_decode(ops, NULL, OFL_DSA_TX, lin, seg.len, &m, &v);
		ck_assert_msg(r == 0, "%s: segment %u does not decode (%d)", ops->name, seg.index, r);
		ck_assert_msg((m.valid & OFL_DSA_M_PORT) && m.port == port, "%s: port %u, want %u",
		              ops->name, m.port, port);
		ck_assert_int_eq(ofl_dsa_untagged(lin, seg.len, &v, pc), 2);
		ulen = gather(pc, 2, un);
		ck_assert_msg(c_parse(un, ulen, &cf), "%s: untagged segment does not parse", ops->name);
		ck_assert_msg(gen_frame_csums_ok(un, ulen), "%s: bad checksum in segment %u", ops->name,
		              seg.index);
		ck_assert_uint_eq(cf.seq, seq);
		for (i = 0; i < cf.payload_len; i++)
			ck_assert_uint_eq(un[cf.payload_off + i], gen_payload_byte(0, seq + i));
		seq += (uint32_t)cf.payload_len;
		if (ops->tx_min_len)
			ck_assert_uint_ge(ulen, ops->tx_min_len);
		ck_assert_int_eq(ofl_gso_pool_put(&pool, &seg.hdr), 0);
		nseg++;
	}
	ck_assert_int_eq(r, 0);
	ck_assert_uint_eq(seq, g.seq + payload);
	ck_assert_uint_eq(nseg, (payload + mss - 1) / mss);
}

START_TEST(every_format)
{
	const struct ofl_dsa_ops *ops = ofl_dsa_at((size_t)_i);
	if (!ops || !ops->tx_ports)
		return;
	run(ops, 4, 20000, 1400);
	run(ops, 6, 20000, 1400);
	/* a last segment of 2 bytes: the kernel pads it before tagging.
	 * Kernel path: net/dsa/user.c dsa_user_setup_tagger() clears
	 * NETIF_F_SG when the user port needs tailroom, so net/core/dev.c
	 * validate_xmit_skb() segments in software (skb_gso_segment()) and
	 * each segment goes through dsa_user_xmit(), whose eth_skb_pad()
	 * pads the short one before the tagger */
	run(ops, 4, 3 * 1000 + 2, 1000);
}
END_TEST

/* Linearise a segment into out; returns its length. */
static uint32_t linear(const struct ofl_gso_seg *seg, uint8_t *out)
{
	int n = ofl_gso_seg_linearize(seg, out, seg->len);
	ck_assert_int_eq(n, (int)seg->len);
	return (uint32_t)n;
}

/* Every segment GSO tags is byte for byte what ofl_dsa_encode() makes of
 * the same segment cut without a tag, with the same params: the kernel
 * segments in software first and hands each segment to the tagger, after
 * dsa_user_xmit() padded it to 60 bytes when the port needs tailroom (the
 * tagger's or, with conduit_tailroom, the conduit's); dsa/edsa fold an
 * 802.1Q header into their tag (dsa_xmit_ll) and mtk overwrites its TPID
 * (mtk_tag_xmit) instead of adding 4 bytes in front of it. */
/* A UDP super-packet (nvlan 802.1Q headers with TCI tci) in super[] and a
 * full-checksum UDP L4 request for it. */
static struct ofl_buf make_udp_super(int l3, uint32_t payload, unsigned nvlan, uint16_t tci,
                                     uint32_t mss, struct ofl_gso_req *req)
{
	struct gu_udp u;
	gu_udp_init(&u, l3);
	u.payload_len = payload;
	u.nvlan = (uint8_t)nvlan;
	u.vlan_tpid[0] = 0x8100;
	u.vlan_tci[0] = tci;
	u.salt = 9;
	ofl_gso_req_default(req);
	req->type = OFL_GSO_TYPE_UDP_L4;
	req->seg_size = mss;
	req->csum = OFL_CSUM_MODE_FULL;
	return (struct ofl_buf){super, (uint32_t)gu_udp_frame(&u, super, sizeof(super))};
}

/* what same_as_encode() segments */
enum { SA_TCP4 = 0, SA_UDP4 = 1, SA_UDP6 = 2 };

static void same_as_encode(const struct ofl_dsa_ops *ops, int kind, unsigned nvlan, uint16_t tci,
                           uint16_t tailroom, uint32_t payload, uint32_t mss)
{
	static uint8_t plain_lin[4096], tagged_lin[4096], enc[4096 + 128];
	struct ofl_dsa_params par;
	struct ofl_dsa_meta m;
	struct ofl_gso_dsa d;
	struct ofl_gso_req rp, rt;
	struct ofl_gso_iter ip, itg;
	struct ofl_gso_pool pp, pt;
	static uint8_t bp[64 * 512], bt[64 * 512];
	struct ofl_gso_seg sp, st;
	struct gen_tcp g;
	struct ofl_buf b;
	unsigned port = ops->tx_ports > 3 ? 3 : 0, nseg = 0;
	int r1, r2;
	ofl_dsa_params_default(&par);
	par.conduit_tailroom = tailroom;
	memset(&m, 0, sizeof(m));
	m.valid = OFL_DSA_M_PORT | OFL_DSA_M_SWITCH;
	m.port = (uint8_t)port;
	m.switch_id = 1;
	if (ofl_gso_dsa_prepare(&d, ops, &par, &m) != 0)
		return; /* "none", brcm-legacy-fcs: every_format checks which */
	if (kind == SA_TCP4)
		b = make_super(&g, 4, payload, nvlan, tci, mss, &rp);
	else
		b = make_udp_super(kind == SA_UDP6 ? 6 : 4, payload, nvlan, tci, mss, &rp);
	ck_assert_uint_gt(b.len, 0);
	rt = rp;
	ck_assert_int_eq(ofl_gso_req_set_dsa(&rt, &d), 0);
	ck_assert_int_eq(ofl_gso_pool_init_block(&pp, bp, sizeof(bp), 512), 0);
	ck_assert_int_eq(ofl_gso_pool_init_block(&pt, bt, sizeof(bt), 512), 0);
	ck_assert_int_eq(ofl_gso_start(&ip, &rp, &b, 1), 0);
	ck_assert_int_eq(ofl_gso_start(&itg, &rt, &b, 1), 0);
	for (;;) {
		uint32_t pl, tl, off = 64, el;
		r1 = ofl_gso_next(&ip, &pp, &sp);
		r2 = ofl_gso_next(&itg, &pt, &st);
		ck_assert_int_eq(r1, r2);
		if (r1 != 1)
			break;
		ck_assert_int_eq(ofl_gso_dsa_finish(&d, &st), 0);
		pl = linear(&sp, plain_lin);
		tl = linear(&st, tagged_lin);
		memset(enc, 0, sizeof(enc));
		memcpy(enc + off, plain_lin, pl);
		el = pl;
		ck_assert_int_eq(ofl_dsa_encode(ops, &par, OFL_DSA_TX, &m, enc, sizeof(enc), &off, &el), 0);
		ck_assert_msg(el == tl && memcmp(enc + off, tagged_lin, tl) == 0,
		              "%s (%s, vlan %u, tailroom %u): segment %u of %u bytes, encode gives %u bytes",
		              ops->name, kind == SA_TCP4 ? "TCP" : "UDP", nvlan, tailroom, nseg, tl, el);
		ck_assert_uint_eq(st.hdr_len + st.payload_len, st.len);
		if (tailroom || ops->tx_tail) {
			/* what the tagger was handed: 60 bytes at least */
			struct ofl_dsa_meta dm;
			struct ofl_dsa_view v;
			ck_assert_int_eq(ofl_dsa_decode(ops, &par, OFL_DSA_TX, tagged_lin, tl, &dm, &v), 0);
			ck_assert_uint_ge(v.hdr_len + v.rest_len, 60);
		}
		ck_assert_int_eq(ofl_gso_pool_put(&pp, &sp.hdr), 0);
		ck_assert_int_eq(ofl_gso_pool_put(&pt, &st.hdr), 0);
		nseg++;
	}
	ck_assert_int_eq(r1, 0);
	ck_assert_uint_eq(nseg, (payload + mss - 1) / mss);
}

/* One same_as_encode() call. */
struct sa_case {
	int kind;
	unsigned nvlan;
	uint16_t tci, tailroom;
	uint32_t payload, mss;
};

/* TCP through every tag.  A short last segment (2 bytes of payload) shows
 * the padding (kernel path: net/dsa/user.c dsa_user_xmit(), eth_skb_pad()
 * of each segment net/core/dev.c validate_xmit_skb() cut in software);
 * PCP 5, CFI, VID 100: every TCI bit the fold (net/dsa/tag_dsa.c
 * dsa_xmit_ll()) moves. */
static const struct sa_case tcp_cases[] = {
	{SA_TCP4, 0, 0, 0, 3 * 700 + 2, 700},
	{SA_TCP4, 0, 0, 4, 3 * 700 + 2, 700},
	{SA_TCP4, 1, 0xb064, 0, 3 * 700 + 2, 700},
	{SA_TCP4, 1, 0x0064, 4, 3 * 700 + 2, 700},
};

/* UDP L4 (USO) through every tag: each datagram tagged as the tagger would
 * tag it, untagged and over 802.1Q, IPv4 and IPv6, a last datagram of 2
 * bytes (padded before tagging) */
static const struct sa_case udp_cases[] = {
	{SA_UDP4, 0, 0, 0, 3 * 700 + 2, 700},
	{SA_UDP6, 0, 0, 4, 3 * 700 + 2, 700},
	{SA_UDP4, 1, 0xb064, 0, 4 * 1000 + 100, 1000},
	{SA_UDP6, 1, 0x0064, 4, 2 * 1200 + 30, 1200},
};

/* Every case of the table through format i (one that can transmit). */
static void same_as_encode_all(size_t i, const struct sa_case *c, size_t n)
{
	const struct ofl_dsa_ops *ops = ofl_dsa_at(i);
	if (!ops || !ops->tx_ports)
		return;
	for (; n--; c++)
		same_as_encode(ops, c->kind, c->nvlan, c->tci, c->tailroom, c->payload, c->mss);
}

START_TEST(every_format_as_encode)
{
	same_as_encode_all((size_t)_i, tcp_cases, sizeof(tcp_cases) / sizeof(tcp_cases[0]));
}
END_TEST

START_TEST(every_format_udp)
{
	same_as_encode_all((size_t)_i, udp_cases, sizeof(udp_cases) / sizeof(udp_cases[0]));
}
END_TEST

/* GSO with a hardware VLAN (the TCI in metadata, OFL_GSO_F_VLAN_INSERT)
 * through every tag: each segment is byte for byte the one of the same
 * super-packet with that 802.1Q header in the frame (which
 * every_format_as_encode proves is what the tagger makes: dsa and edsa
 * fold it into their tag as dsa_xmit_ll() does, mtk takes its TPID), as
 * the kernel pushes the tag into the frame before the tagger sees it.
 * Kernel path: net/core/dev.c validate_xmit_vlan() (a DSA user port has
 * no VLAN insertion offload: __vlan_hwaccel_push_inside()), then for
 * dsa/edsa net/dsa/tag_dsa.c dsa_xmit_ll() folds that header into the tag.
 * With and without conduit tailroom (the short last segment padded by
 * net/dsa/user.c dsa_user_xmit()). */
static void vlan_insert_same(const struct ofl_dsa_ops *ops, uint16_t tci, uint16_t tailroom)
{
	static uint8_t inband[70000], bi[64 * 512], bm[64 * 512], li[4096], lm[4096];
	struct ofl_dsa_params par;
	struct ofl_dsa_meta m;
	struct ofl_gso_dsa d;
	struct ofl_gso_req ri, rm;
	struct ofl_gso_iter ii, im;
	struct ofl_gso_pool pi, pm;
	struct ofl_gso_seg si, sm;
	struct gen_tcp g;
	struct ofl_buf b_in, b_meta;
	unsigned nseg = 0;
	int r1, r2;
	ofl_dsa_params_default(&par);
	par.conduit_tailroom = tailroom;
	memset(&m, 0, sizeof(m));
	m.valid = OFL_DSA_M_PORT | OFL_DSA_M_SWITCH;
	m.port = (uint8_t)(ops->tx_ports > 3 ? 3 : 0);
	m.switch_id = 1;
	if (ofl_gso_dsa_prepare(&d, ops, &par, &m) != 0)
		return; /* "none", brcm-legacy-fcs */
	b_in = make_super(&g, 4, 3 * 700 + 2, 1, tci, 700, &ri);
	memcpy(inband, super, b_in.len);
	b_in.data = inband;
	b_meta = make_super(&g, 4, 3 * 700 + 2, 0, 0, 700, &rm);
	rm.flags |= OFL_GSO_F_VLAN_INSERT;
	rm.vlan_tci = tci;
	ck_assert_int_eq(ofl_gso_req_set_dsa(&ri, &d), 0);
	ck_assert_int_eq(ofl_gso_req_set_dsa(&rm, &d), 0);
	ck_assert_int_eq(ofl_gso_pool_init_block(&pi, bi, sizeof(bi), 512), 0);
	ck_assert_int_eq(ofl_gso_pool_init_block(&pm, bm, sizeof(bm), 512), 0);
	ck_assert_int_eq(ofl_gso_start(&ii, &ri, &b_in, 1), 0);
	ck_assert_int_eq(ofl_gso_start(&im, &rm, &b_meta, 1), 0);
	while ((r1 = ofl_gso_next(&ii, &pi, &si)) == 1) {
		uint32_t l1, l2;
		r2 = ofl_gso_next(&im, &pm, &sm);
		ck_assert_int_eq(r2, 1);
		ck_assert_int_eq(ofl_gso_dsa_finish(&d, &si), 0);
		ck_assert_int_eq(ofl_gso_dsa_finish(&d, &sm), 0);
		l1 = linear(&si, li);
		l2 = linear(&sm, lm);
		ck_assert_msg(l1 == l2 && memcmp(li, lm, l1) == 0,
		              "%s (TCI %04x, tailroom %u): segment %u: %u bytes with the VLAN in the frame, "
		              "%u with it in metadata", ops->name, tci, tailroom, nseg, l1, l2);
		gu_seg_layout_same(&si, &sm);
		ck_assert_int_eq(ofl_gso_pool_put(&pi, &si.hdr), 0);
		ck_assert_int_eq(ofl_gso_pool_put(&pm, &sm.hdr), 0);
		nseg++;
	}
	ck_assert_int_eq(r1, 0);
	ck_assert_int_eq(ofl_gso_next(&im, &pm, &sm), 0);
	ck_assert_uint_eq(nseg, 4);
}

START_TEST(every_format_vlan_insert)
{
	const struct ofl_dsa_ops *ops = ofl_dsa_at((size_t)_i);
	if (!ops || !ops->tx_ports)
		return;
	vlan_insert_same(ops, 0xb064, 0);
	vlan_insert_same(ops, 0x0064, 4);
}
END_TEST

START_TEST(prepare_args)
{
	struct ofl_gso_dsa d;
	struct ofl_dsa_meta m;
	struct ofl_gso_req req;
	memset(&m, 0, sizeof(m));
	ck_assert_int_eq(ofl_gso_dsa_prepare(NULL, ofl_dsa_find("brcm"), NULL, &m), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_dsa_prepare(&d, NULL, NULL, &m), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_dsa_prepare(&d, ofl_dsa_find("brcm-legacy-fcs"), NULL, &m), OFL_ENOTSUP);
	ck_assert_int_eq(ofl_gso_dsa_prepare(&d, ofl_dsa_find("none"), NULL, &m), OFL_ENOTSUP);
	ck_assert_int_eq(ofl_gso_req_set_dsa(NULL, &d), OFL_EINVAL);
	ofl_gso_req_default(&req);
	m.valid = OFL_DSA_M_PORT;
	m.port = 1;
	ck_assert_int_eq(ofl_gso_dsa_prepare(&d, ofl_dsa_find("ksz9477"), NULL, &m), 0);
	req.csum = OFL_CSUM_MODE_PARTIAL;
	ck_assert_int_eq(ofl_gso_req_set_dsa(&req, &d), 0);
	ck_assert_int_eq(req.csum, OFL_CSUM_MODE_FULL); /* tail tag: checksum in software */
	ck_assert_int_eq(ofl_gso_dsa_finish(&d, NULL), OFL_EINVAL);
	{
		/* every format but none and brcm-legacy-fcs can be prepared */
		size_t i, ok = 0;
		for (i = 0; i < ofl_dsa_count(); i++)
			ok += prepare(ofl_dsa_at(i), 1, &d) == 0;
		ck_assert_uint_eq(ok, ofl_dsa_count() - 2);
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gso_dsa");
	TCase *tc = tcase_create("dsa");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, every_format, 0, (int)ofl_dsa_count());
	tcase_add_loop_test(tc, every_format_as_encode, 0, (int)ofl_dsa_count());
	tcase_add_loop_test(tc, every_format_udp, 0, (int)ofl_dsa_count());
	tcase_add_loop_test(tc, every_format_vlan_insert, 0, (int)ofl_dsa_count());
	tcase_add_test(tc, prepare_args);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return h_run_suite(suite());
}
