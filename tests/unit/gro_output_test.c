/*
 * gro_output_test.c - what a delivered super-packet looks like: rewritten
 * header, CHECKSUM_PARTIAL form, linearize in both checksum modes, the
 * virtio_net_hdr, slices pointing into the caller's buffers.
 */
#include <check.h>
#include <ofl/csum.h>
#include <ofl/gro.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "harness.h"

static struct h_cap cap;
static struct ofl_virtio_net_hdr vh_tap[H_CAP_MAX];

/* Every packet is recorded (h_cap_one), with its virtio header for a TAP
 * (no Ethernet offset) and the linearize bound checked. */
static void deliver(void *user, const struct ofl_gro_out *p, unsigned n)
{
	unsigned i;
	(void)user;
	for (i = 0; i < n; i++) {
		unsigned k = h_cap_one(&cap, &p[i]);
		ck_assert_int_eq(cap.vrc[k], 0);
		ck_assert_int_eq(ofl_gro_linearize(&p[i], cap.part[k], p[i].len - 1, OFL_CSUM_MODE_FULL),
		                 OFL_ENOSPC);
		ck_assert_int_eq(ofl_gro_vnet_hdr(&p[i], 0, &vh_tap[k]), 0);
	}
}

static struct ofl_gro *mk(void)
{
	memset(&cap, 0, sizeof(cap));
	return h_gro_batch1(deliver, &cap);
}

static uint8_t frames[8][2000];

START_TEST(super_packet_fields)
{
	int l3 = _i ? 6 : 4;
	struct ofl_gro *g = mk();
	struct gen_tcp gt;
	size_t n[3];
	unsigned k, hl = l3 == 4 ? 54 : 74;
	uint8_t *f;
	gen_tcp_init(&gt, l3);
	gt.payload_len = 1000;
	gt.flags = GEN_ACK | GEN_CWR;
	for (k = 0; k < 3; k++) {
		struct ofl_buf b;
		struct ofl_pkt p;
		if (k == 2)
			gt.flags |= GEN_PSH;
		n[k] = gen_tcp_frame(&gt, frames[k], sizeof(frames[k]));
		b = (struct ofl_buf){frames[k], (uint32_t)n[k]};
		memset(&p, 0, sizeof(p));
		p.bufs = &b;
		p.nbufs = 1;
		p.cookie = frames[k];
		ck_assert_int_ge(ofl_gro_receive(g, &p, 0), 0);
		gt.seq += 1000;
		gt.ip_id++;
	}
	ck_assert_uint_eq(cap.n, 1);
	{
		const struct ofl_gro_out *o = &cap.out[0];
		ck_assert_uint_eq(o->seg_count, 3);
		ck_assert_uint_eq(o->seg_size, 1000);
		ck_assert_uint_eq(o->hdr_len, hl);
		ck_assert_uint_eq(o->len, hl + 3000);
		ck_assert_uint_eq(o->nslices, 3);
		ck_assert_uint_eq(o->l3_off, 14);
		ck_assert_uint_eq(o->csum_start, o->l4_off);
		ck_assert_uint_eq(o->csum_offset, 16);
		ck_assert(o->flags & OFL_GRO_OUT_F_CSUM_PARTIAL);
		ck_assert(o->flags & OFL_GRO_OUT_F_CSUM_VERIFIED);
		ck_assert(o->gso_type & OFL_GSO_TCP_ECN);
		/* slices point into our frames: zero copy */
		for (k = 0; k < 3; k++) {
			ck_assert_ptr_eq(cap.sl[0][k].data, frames[k] + hl);
			ck_assert_uint_eq(cap.sl[0][k].len, 1000);
			ck_assert_uint_eq(cap.sl[0][k].pkt, k);
			ck_assert_ptr_eq(o->cookies[k], frames[k]);
		}
	}
	ck_assert_int_eq(cap.len[0], (int)(hl + 3000));
	ck_assert(gen_frame_csums_ok(cap.full[0], (size_t)cap.len[0]));
	f = cap.full[0];
	if (l3 == 4) {
		ck_assert_uint_eq(f[16] << 8 | f[17], 20 + 20 + 3000);
		ck_assert_uint_eq(gen_csum_fold(f + 14, 20, 0), 0xffff);
	} else {
		ck_assert_uint_eq(f[18] << 8 | f[19], 20 + 3000);
	}
	ck_assert_uint_eq(f[hl - 20 + 13], GEN_ACK | GEN_CWR | GEN_PSH);
	/* partial form: the field holds the pseudo-header sum; finishing the
	 * sum from csum_start gives the full checksum */
	{
		uint8_t *pp = cap.part[0];
		unsigned cs = cap.out[0].csum_start;
		uint16_t c = ofl_csum_fold(ofl_csum_partial(pp + cs, (size_t)cap.len[0] - cs, 0));
		memcpy(pp + cs + 16, &c, 2);
		ck_assert_int_eq(memcmp(pp, f, (size_t)cap.len[0]), 0);
	}
	/* virtio_net_hdr for a TUN (Ethernet stripped) and a TAP device */
	ck_assert_uint_eq(cap.vh[0].flags, 1);
	ck_assert_uint_eq(cap.vh[0].gso_type, (l3 == 4 ? 1 : 4) | 0x80);
	ck_assert_uint_eq(cap.vh[0].gso_size, 1000);
	ck_assert_uint_eq(cap.vh[0].hdr_len, hl - 14);
	ck_assert_uint_eq(cap.vh[0].csum_start, hl - 20 - 14);
	ck_assert_uint_eq(cap.vh[0].csum_offset, 16);
	ck_assert_uint_eq(vh_tap[0].csum_start, hl - 20);
	ofl_gro_destroy(g);
}
END_TEST

START_TEST(normal_untouched)
{
	struct ofl_gro *g = mk();
	uint8_t arp[60] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 1, 0x08, 0x06};
	struct ofl_buf b[2] = {{arp, 30}, {arp + 30, 30}};
	struct ofl_pkt p;
	memset(&p, 0, sizeof(p));
	p.bufs = b;
	p.nbufs = 2;
	p.cookie = arp;
	ck_assert_int_eq(ofl_gro_receive(g, &p, 0), OFL_GRO_NORMAL);
	ofl_gro_flush(g);
	ck_assert_uint_eq(cap.n, 1);
	ck_assert_uint_eq(cap.out[0].seg_count, 0);
	ck_assert_uint_eq(cap.out[0].hdr_len, 0);
	ck_assert_uint_eq(cap.out[0].nslices, 2);
	ck_assert_ptr_eq(cap.sl[0][1].data, arp + 30);
	ck_assert_int_eq(cap.len[0], 60);
	ck_assert_int_eq(memcmp(cap.full[0], arp, 60), 0);
	ck_assert_uint_eq(cap.vh[0].gso_type, 0);
	ofl_gro_destroy(g);
}
END_TEST

START_TEST(linearize_args)
{
	struct ofl_gro_out o;
	uint8_t b[4];
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(ofl_gro_linearize(NULL, b, 4, OFL_CSUM_MODE_FULL), OFL_EINVAL);
	ck_assert_int_eq(ofl_gro_linearize(&o, b, 4, (enum ofl_csum_mode)7), OFL_EINVAL);
	ck_assert_int_eq(ofl_gro_linearize(&o, b, 4, OFL_CSUM_MODE_FULL), 0);
	ck_assert_int_eq(ofl_gro_vnet_hdr(NULL, 0, NULL), OFL_EINVAL);
}
END_TEST

START_TEST(destroy_delivers_held)
{
	struct ofl_gro *g = mk();
	struct gen_tcp gt;
	struct ofl_buf b;
	struct ofl_pkt p;
	size_t n;
	gen_tcp_init(&gt, 4);
	n = gen_tcp_frame(&gt, frames[0], sizeof(frames[0]));
	b = (struct ofl_buf){frames[0], (uint32_t)n};
	memset(&p, 0, sizeof(p));
	p.bufs = &b;
	p.nbufs = 1;
	ck_assert_int_eq(ofl_gro_receive(g, &p, 0), OFL_GRO_HELD);
	ck_assert_uint_eq(cap.n, 0);
	ofl_gro_destroy(g);
	ck_assert_uint_eq(cap.n, 1);
	ck_assert_uint_eq(cap.out[0].seg_count, 1);
	/* a lone held segment keeps its original bytes and checksum */
	ck_assert_int_eq(cap.len[0], (int)n);
	ck_assert_int_eq(memcmp(cap.full[0], frames[0], n), 0);
	ck_assert_uint_eq(cap.vh[0].gso_type, 0);
	ck_assert_uint_eq(cap.vh[0].flags, 2);
}
END_TEST

START_TEST(names)
{
	unsigned r;
	for (r = 0; r < OFL_GRO_FLUSH__COUNT; r++)
		ck_assert_str_ne(ofl_gro_flush_reason_name(r), "?");
	for (r = 0; r < OFL_GRO_NORMAL__COUNT; r++)
		ck_assert_str_ne(ofl_gro_normal_reason_name(r), "?");
	ck_assert_str_eq(ofl_gro_flush_reason_name(OFL_GRO_FLUSH__COUNT), "?");
	ck_assert_str_eq(ofl_gro_flush_reason_name(OFL_GRO_FLUSH_PSH), "psh");
	ck_assert_str_eq(ofl_strerror(OFL_E2BIG), "more buffers, bytes or segments than configured");
	ck_assert_str_eq(ofl_strerror(-999), "unknown error");
	ck_assert_str_eq(ofl_version(), OFL_VERSION_STRING);
}
END_TEST

H_MAIN("gro_output", 0, 0, {super_packet_fields, 2}, {normal_untouched, 0}, {linearize_args, 0},
	{destroy_delivers_held, 0}, {names, 0})
