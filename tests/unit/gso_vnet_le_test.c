/*
 * gso_vnet_le_test.c - the little-endian (virtio 1.0 / TUNSETVNETLE)
 * virtio_net_hdr: ofl_gro_vnet_hdr_le() bytes checked one by one (so the
 * check holds on any host byte order), the 10- and 12-byte forms, its
 * errors, and GSO (ofl_gso_start_vnet) from such a header written by GRO
 * giving back the segments GRO merged.
 */
#include <check.h>
#include <ofl/gro.h>
#include <stdlib.h>
#include <string.h>

#include "gso_util.h"
#include "harness.h"

static struct ofl_gro_out gso_out(void)
{
	struct ofl_gro_out o;
	memset(&o, 0, sizeof(o));
	o.seg_count = 3;
	o.seg_size = 0x05a8;
	o.hdr_len = 0x0134;
	o.len = 0x0134 + 3 * 0x05a8;
	o.l3_off = 14;
	o.l4_off = 0x0122;
	o.csum_start = 0x0122;
	o.csum_offset = 16;
	o.flags = OFL_GRO_OUT_F_CSUM_PARTIAL | OFL_GRO_OUT_F_CSUM_VERIFIED;
	o.gso_type = OFL_GSO_TCPV6 | OFL_GSO_TCP_ECN;
	return o;
}

START_TEST(le_bytes_exact)
{
	static const uint8_t tap[12] = {0x01, 0x84, 0x34, 0x01, 0xa8, 0x05, 0x22, 0x01, 0x10, 0x00, 0x00, 0x00};
	static const uint8_t tun[10] = {0x01, 0x84, 0x26, 0x01, 0xa8, 0x05, 0x14, 0x01, 0x10, 0x00};
	struct ofl_gro_out o = gso_out();
	struct ofl_virtio_net_hdr vh, rd;
	uint8_t b[16];
	memset(b, 0xee, sizeof(b));
	ck_assert_int_eq(ofl_gro_vnet_hdr_le(&o, 0, b, 12), 12);
	ck_assert_mem_eq(b, tap, 12);
	ck_assert_uint_eq(b[12], 0xee);
	memset(b, 0xee, sizeof(b));
	ck_assert_int_eq(ofl_gro_vnet_hdr_le(&o, 14, b, 10), 10);
	ck_assert_mem_eq(b, tun, 10);
	ck_assert_uint_eq(b[10], 0xee); /* the 10-byte form writes 10 bytes */
	/* the GSO reader gives back the host-order header GRO fills */
	ck_assert_int_eq(ofl_gso_vnet_read(b, 10, &rd), 0);
	ck_assert_int_eq(ofl_gro_vnet_hdr(&o, 14, &vh), 0);
	ck_assert_uint_eq(rd.flags, vh.flags);
	ck_assert_uint_eq(rd.gso_type, vh.gso_type);
	ck_assert_uint_eq(rd.hdr_len, vh.hdr_len);
	ck_assert_uint_eq(rd.gso_size, vh.gso_size);
	ck_assert_uint_eq(rd.csum_start, vh.csum_start);
	ck_assert_uint_eq(rd.csum_offset, vh.csum_offset);
	/* a verified packet that is not GSO: DATA_VALID only */
	o.seg_count = 0;
	o.flags = OFL_GRO_OUT_F_CSUM_VERIFIED;
	memset(b, 0xee, sizeof(b));
	ck_assert_int_eq(ofl_gro_vnet_hdr_le(&o, 14, b, 12), 12);
	ck_assert_uint_eq(b[0], 0x02);
	for (unsigned i = 1; i < 12; i++)
		ck_assert_uint_eq(b[i], 0);
}
END_TEST

START_TEST(le_errors)
{
	struct ofl_gro_out o = gso_out();
	uint8_t b[12];
	memset(b, 0xee, sizeof(b));
	ck_assert_int_eq(ofl_gro_vnet_hdr_le(&o, 0, NULL, 12), OFL_EINVAL);
	ck_assert_int_eq(ofl_gro_vnet_hdr_le(NULL, 0, b, 12), OFL_EINVAL);
	ck_assert_int_eq(ofl_gro_vnet_hdr_le(&o, 0, b, 11), OFL_EINVAL);
	ck_assert_int_eq(ofl_gro_vnet_hdr_le(&o, 0, b, 0), OFL_EINVAL);
	ck_assert_int_eq(ofl_gro_vnet_hdr_le(&o, 15, b, 12), OFL_EINVAL); /* strips into IP */
	o.flags = OFL_GRO_OUT_F_CSUM_RX_PARTIAL;
	o.seg_count = 0;
	ck_assert_int_eq(ofl_gro_vnet_hdr_le(&o, 14, b, 12), OFL_ENOTSUP);
	for (unsigned i = 0; i < 12; i++)
		ck_assert_uint_eq(b[i], 0xee); /* nothing written on error */
}
END_TEST

/* GRO merges a flow; its delivery is written as a TAP/TUN device with
 * TUNSETVNETLE reads it (LE header + frame, checksum partial); GSO from
 * there gives back the original frames byte for byte. */
#define NSEG 4
struct rt {
	uint8_t buf[12 + 20000];
	size_t len;
	unsigned l2_strip, hl, n;
};

static void rt_deliver(void *user, const struct ofl_gro_out *p, unsigned n)
{
	struct rt *r = user;
	unsigned i;
	uint8_t tmp[20000];
	int len;
	for (i = 0; i < n; i++) {
		r->n++;
		ck_assert_int_eq(ofl_gro_vnet_hdr_le(&p[i], r->l2_strip, r->buf, r->hl), (int)r->hl);
		len = ofl_gro_linearize(&p[i], tmp, sizeof(tmp), OFL_CSUM_MODE_PARTIAL);
		ck_assert_int_gt(len, (int)r->l2_strip);
		memcpy(r->buf + r->hl, tmp + r->l2_strip, (size_t)len - r->l2_strip);
		r->len = r->hl + (size_t)len - r->l2_strip;
	}
}

START_TEST(gso_from_le_header)
{
	int v6 = _i & 1, tun = (_i >> 1) & 1;
	unsigned hl = (_i & 4) ? 12 : 10, k;
	static uint8_t frames[NSEG][2000];
	size_t flen[NSEG];
	struct rt *r = calloc(1, sizeof(*r));
	struct gu_segs *a = calloc(1, sizeof(*a));
	struct ofl_gro_config cfg;
	struct ofl_gro *g;
	struct ofl_gso_iter it;
	struct gen_tcp gt;
	struct ofl_buf b;
	r->l2_strip = tun ? 14 : 0;
	r->hl = hl;
	ofl_gro_config_default(&cfg);
	cfg.deliver = rt_deliver;
	cfg.user = r;
	ck_assert_int_eq(ofl_gro_create(&cfg, &g), 0);
	gen_tcp_init(&gt, v6 ? 6 : 4);
	gt.payload_len = 1400;
	gt.flags = GEN_ACK;
	for (k = 0; k < NSEG; k++) {
		struct ofl_buf fb;
		struct ofl_pkt p;
		flen[k] = gen_tcp_frame(&gt, frames[k], sizeof(frames[k]));
		fb = (struct ofl_buf){frames[k], (uint32_t)flen[k]};
		memset(&p, 0, sizeof(p));
		p.bufs = &fb;
		p.nbufs = 1;
		p.csum_status = OFL_CSUM_UNNECESSARY;
		ck_assert_int_ge(ofl_gro_receive(g, &p, 0), 0);
		gt.seq += 1400;
		gt.ip_id++;
	}
	ck_assert_int_eq(ofl_gro_flush(g), 0);
	ck_assert_uint_eq(r->n, 1);
	ck_assert_uint_eq(r->buf[0], 1);            /* NEEDS_CSUM */
	ck_assert_uint_eq(r->buf[1], v6 ? 4 : 1);   /* TCPV6 / TCPV4 */
	ck_assert_uint_eq(r->buf[4] | r->buf[5] << 8, 1400);
	b.data = r->buf;
	b.len = (uint32_t)r->len;
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, hl, tun ? OFL_GSO_L2_NONE : OFL_GSO_L2_ETH, &b, 1), 0);
	ck_assert_int_eq(gu_collect(&it, a, 2, 256), 0);
	ck_assert_uint_eq(a->n, NSEG);
	for (k = 0; k < NSEG; k++) {
		ck_assert_uint_eq(a->len[k] + r->l2_strip, flen[k]);
		ck_assert_mem_eq(a->frame[k], frames[k] + r->l2_strip, a->len[k]);
	}
	ofl_gro_destroy(g);
	gu_segs_free(a);
	free(a);
	free(r);
}
END_TEST

H_MAIN("gso_vnet_le", 0, 0, {le_bytes_exact, 0}, {le_errors, 0}, {gso_from_le_header, 8})
