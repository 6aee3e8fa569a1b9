/*
 * gso_dsa_test.c - GSO through a DSA tag: for every format that can address
 * a destination port, every segment of a TCP super-packet carries a valid
 * TX tag for that port (head tags in the header slot, tail tags and the
 * kernel's padding as extra slices), and once untagged each segment is a
 * correct TCP segment (checksums, lengths, the payload bytes in order).
 */
#include <check.h>
#include <ofl/dsa.h>
#include <ofl/gso.h>
#include <stdlib.h>
#include <string.h>

#include "conserve.h"
#include "gen.h"
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

static void run(const struct ofl_dsa_ops *ops, int l3, uint32_t payload, uint32_t mss)
{
	struct ofl_gso_dsa d;
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct ofl_gso_pool pool;
	struct ofl_gso_seg seg;
	struct gen_tcp g;
	struct ofl_buf b;
	size_t n;
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
	gen_tcp_init(&g, l3);
	g.payload_len = payload;
	g.flags = GEN_ACK | GEN_PSH;
	n = gen_tcp_frame(&g, super, sizeof(super));
	b = (struct ofl_buf){super, (uint32_t)n};
	ofl_gso_req_default(&req);
	req.type = OFL_GSO_TYPE_TCP;
	req.seg_size = mss;
	req.csum = OFL_CSUM_MODE_FULL;
	ck_assert_int_eq(ofl_gso_req_set_dsa(&req, &d), 0);
	ck_assert_int_eq(ofl_gso_pool_init_block(&pool, block, sizeof(block), 512), 0);
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	seq = g.seq;
	while ((r = ofl_gso_next(&it, &pool, &seg)) == 1) {
		struct ofl_dsa_meta m;
		struct ofl_dsa_view v;
		struct ofl_buf pc[2];
		struct c_flow cf;
		uint32_t pos, i, ulen;
		ck_assert_int_eq(ofl_gso_dsa_finish(&d, &seg), 0);
		ck_assert_uint_le(seg.len, sizeof(lin));
		memcpy(lin, seg.hdr.data, seg.hdr_len);
		pos = seg.hdr_len;
		for (i = 0; i < seg.nslices; i++) {
			memcpy(lin + pos, seg.slices[i].data, seg.slices[i].len);
			pos += seg.slices[i].len;
		}
		ck_assert_uint_eq(pos, seg.len);
		r = ofl_dsa_decode(ops, NULL, OFL_DSA_TX, lin, seg.len, &m, &v);
		ck_assert_msg(r == 0, "%s: segment %u does not decode (%d)", ops->name, seg.index, r);
		ck_assert_msg((m.valid & OFL_DSA_M_PORT) && m.port == port, "%s: port %u, want %u",
		              ops->name, m.port, port);
		ck_assert_int_eq(ofl_dsa_untagged(lin, seg.len, &v, pc), 2);
		memcpy(un, pc[0].data, pc[0].len);
		memcpy(un + pc[0].len, pc[1].data, pc[1].len);
		ulen = pc[0].len + pc[1].len;
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
	/* a last segment of 2 bytes: the kernel pads it before tagging */
	run(ops, 4, 3 * 1000 + 2, 1000);
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
	tcase_add_test(tc, prepare_args);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return h_run_suite(suite());
}
