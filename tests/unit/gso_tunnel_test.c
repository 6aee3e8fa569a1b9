/*
 * gso_tunnel_test.c - GSO of tunnelled TCP super-packets (ofl_gso_req
 * version 4: tunnel, tun_csum, inner_off; src/gso/tunnel.c): VXLAN, Geneve
 * (options), GRE (checksum, key; inner Ethernet or IP), IP-in-IP (4in4,
 * 6in4, 4in6, 6in6) and a UDP tunnel named by its inner offset, outer IPv4
 * or IPv6, outer and inner VLAN tags, both checksum modes, one to four
 * input buffers.  Every segment is checked by this file's own parser and
 * RFC 1071 sums (gen_csum_fold): the outer IPv4 length, ID (+1 per segment
 * unless OFL_GSO_F_OUTER_FIXED_ID) and header checksum, the outer IPv6
 * payload length, the outer UDP length and checksum (0, or valid), the GRE
 * checksum, the tunnel header and inner L2 bytes unchanged, the inner TCP
 * packet as plain TSO makes it (length, ID, sequence number, flags, valid
 * checksums), and the payloads put together equal the input's.  The
 * corpus's tunnelled super-packets (gso/gso-*-vxlan-*, gso-*-geneve-*, the
 * ~80 kB BIG TCP ones) are cut the same way (a missing file fails).  Then
 * the refusals: truncation at every header byte, the wrong tunnel type for
 * the frame, Geneve options past the packet, bad requests, slots too small,
 * a version-3 request (tunnel fields not read).  The virtio path: the
 * 24-byte virtio_net_hdr_v1_hash_tunnel from TAP and TUN, its refusals, and
 * the kernel's own segments of 16 VXLAN/Geneve super-packets
 * (tests/fixtures/gso_tunnel) matched byte for byte.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gso_util.h"
#include "harness.h"

#define MAXF (GU_FRAME_MAX * 12)
#define OUTER_ID 0x1111u
#define INNER_ID 0x4000u
#define SEQ0 0xfffff000u

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}
static uint32_t get16(const uint8_t *p) { return (uint32_t)(p[0] << 8 | p[1]); }
static uint32_t get32(const uint8_t *p) { return get16(p) << 16 | get16(p + 2); }

/* ---- a generated tunnelled super-packet ---- */

#define GRE_C 1u
#define GRE_K 2u

struct tspec {
	uint8_t tun;      /* OFL_GSO_TUN_* */
	uint8_t o_l3, i_l3;
	uint8_t o_nvlan, i_nvlan;
	uint8_t csum_in;  /* UDP tunnels: the input's outer checksum is set */
	uint8_t gre;      /* GRE_C | GRE_K */
	uint8_t gopt;     /* Geneve option bytes (multiple of 4) */
	uint8_t inner_ip; /* Geneve, GRE: inner IP without Ethernet */
};

static int inner_has_eth(const struct tspec *s)
{
	return s->tun == OFL_GSO_TUN_VXLAN || s->tun == OFL_GSO_TUN_UDP ||
	       ((s->tun == OFL_GSO_TUN_GENEVE || s->tun == OFL_GSO_TUN_GRE) && !s->inner_ip);
}

/* Outer-style RFC 1071 checksum of a UDP datagram at u (ulen bytes) under ip. */
static uint32_t pseudo(const uint8_t *ip, int l3, uint32_t len, uint32_t proto)
{
	uint32_t s = l3 == 4 ? gen_csum_fold(ip + 12, 8, 0) : gen_csum_fold(ip + 8, 32, 0);
	return s + proto + (len >> 16) + (len & 0xffffu);
}

/* Write the frame; returns its length; *inner_off: the inner IP header. */
static size_t tun_frame(const struct tspec *s, uint32_t payload, uint8_t *f, size_t cap, uint32_t *inner_off)
{
	static uint8_t in[MAXF];
	struct gen_tcp g;
	size_t il, off = 12, skip, l3, l4, i, len;
	unsigned proto;
	gen_tcp_init(&g, s->i_l3);
	g.payload_len = payload;
	g.flags = GEN_ACK | GEN_PSH;
	g.ip_id = INNER_ID;
	g.seq = SEQ0;
	gen_opt_ts(&g, 7, 9);
	g.nvlan = gu_two_tags(g.vlan_tpid, g.vlan_tci, s->i_nvlan, 0x0021, 0x0022);
	il = gen_tcp_frame(&g, in, sizeof(in));
	ck_assert(il > 0);
	skip = inner_has_eth(s) ? 0 : 14u + 4u * s->i_nvlan;
	memset(f, 0, 64);
	memcpy(f, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01", 12);
	for (i = 0; i < s->o_nvlan; i++, off += 4) {
		put16(f + off, i == 0 && s->o_nvlan == 2 ? 0x88a8 : 0x8100);
		put16(f + off + 2, 100 + (uint32_t)i);
	}
	put16(f + off, s->o_l3 == 4 ? 0x0800 : 0x86dd);
	l3 = off + 2;
	proto = s->tun == OFL_GSO_TUN_GRE ? 47u : s->tun == OFL_GSO_TUN_IPIP ? (s->i_l3 == 4 ? 4u : 41u) : 17u;
	if (s->o_l3 == 4) {
		uint8_t *ip = f + l3;
		memset(ip, 0, 20);
		ip[0] = 0x45;
		put16(ip + 4, OUTER_ID);
		put16(ip + 6, 0x4000);
		ip[8] = 64;
		ip[9] = (uint8_t)proto;
		memcpy(ip + 12, "\xc0\x00\x02\x01\xc0\x00\x02\x02", 8);
		l4 = l3 + 20;
	} else {
		uint8_t *ip = f + l3;
		memset(ip, 0, 40);
		ip[0] = 0x60;
		ip[6] = (uint8_t)proto;
		ip[7] = 64;
		ip[8] = 0x20, ip[9] = 0x01, ip[10] = 0x0d, ip[11] = 0xb8, ip[23] = 1;
		ip[24] = 0x20, ip[25] = 0x01, ip[26] = 0x0d, ip[27] = 0xb8, ip[39] = 2;
		l4 = l3 + 40;
	}
	off = l4;
	if (s->tun == OFL_GSO_TUN_VXLAN || s->tun == OFL_GSO_TUN_GENEVE || s->tun == OFL_GSO_TUN_UDP) {
		uint8_t *u = f + l4;
		put16(u, 49152);
		put16(u + 2, s->tun == OFL_GSO_TUN_VXLAN ? 4789 : s->tun == OFL_GSO_TUN_GENEVE ? 6081 : 9999);
		off += 8;
		if (s->tun == OFL_GSO_TUN_GENEVE) {
			uint8_t *gh = f + off;
			memset(gh, 0, 8u + s->gopt);
			gh[0] = (uint8_t)(s->gopt / 4);
			put16(gh + 2, s->inner_ip ? (s->i_l3 == 4 ? 0x0800 : 0x86dd) : 0x6558);
			gh[4] = 0x12, gh[5] = 0x34, gh[6] = 0x56;
			if (s->gopt) { /* one option: class, type, length, data */
				put16(gh + 8, 0x0102);
				gh[10] = 0x80;
				gh[11] = (uint8_t)(s->gopt / 4 - 1);
				for (i = 12; i < 8u + s->gopt; i++)
					gh[i] = (uint8_t)(0xa0 + i);
			}
			off += 8u + s->gopt;
		} else {
			/* VXLAN header (I flag, VNI); the UDP tunnel carries the same */
			memcpy(f + off, "\x08\x00\x00\x00\x12\x34\x56\x00", 8);
			off += 8;
		}
	} else if (s->tun == OFL_GSO_TUN_GRE) {
		uint8_t *gh = f + l4;
		put16(gh, ((s->gre & GRE_C) ? 0x8000u : 0u) | ((s->gre & GRE_K) ? 0x2000u : 0u));
		put16(gh + 2, s->inner_ip ? (s->i_l3 == 4 ? 0x0800 : 0x86dd) : 0x6558);
		off += 4;
		if (s->gre & GRE_C) {
			memset(f + off, 0, 4);
			off += 4;
		}
		if (s->gre & GRE_K) {
			memcpy(f + off, "\xde\xad\xbe\xef", 4);
			off += 4;
		}
	}
	*inner_off = (uint32_t)(off + (inner_has_eth(s) ? 14u + 4u * s->i_nvlan : 0u));
	len = off + il - skip;
	ck_assert(len <= cap);
	memcpy(f + off, in + skip, il - skip);
	/* the outer lengths and checksums */
	if (s->o_l3 == 4) {
		put16(f + l3 + 2, (uint32_t)(len - l3));
		put16(f + l3 + 10, (uint16_t)~gen_csum_fold(f + l3, 20, 0));
	} else {
		put16(f + l3 + 4, (uint32_t)(len - l3 - 40));
	}
	if (proto == 17) {
		put16(f + l4 + 4, (uint32_t)(len - l4));
		if (s->csum_in) {
			uint16_t c = (uint16_t)~gen_csum_fold(f + l4, len - l4, pseudo(f + l3, s->o_l3, (uint32_t)(len - l4), 17));
			put16(f + l4 + 6, c ? c : 0xffff);
		}
	} else if (proto == 47 && (s->gre & GRE_C)) {
		put16(f + l4 + 4, (uint16_t)~gen_csum_fold(f + l4, len - l4, 0));
	}
	return len;
}

/* ---- an independent parse of a tunnelled frame ---- */

struct tlay {
	uint32_t o_l3, o_l4; /* o_l4 0: IP-in-IP */
	int o_l3v, i_l3v;
	uint32_t tun_end;    /* end of the UDP+tunnel / GRE header */
	uint32_t i_l2;       /* inner Ethernet, 0 = none */
	uint32_t i_l3, i_l4, pay;
	uint8_t tun;
};

static bool layout(const uint8_t *f, size_t len, uint8_t tun, struct tlay *ly)
{
	uint32_t off = 12, et, proto, pt = 0;
	memset(ly, 0, sizeof(*ly));
	ly->tun = tun;
	et = get16(f + off);
	while (et == 0x8100 || et == 0x88a8) {
		off += 4;
		et = get16(f + off);
	}
	ly->o_l3 = off + 2;
	if (et == 0x0800) {
		ly->o_l3v = 4;
		proto = f[ly->o_l3 + 9];
		off = ly->o_l3 + (f[ly->o_l3] & 0xfu) * 4u;
	} else {
		ly->o_l3v = 6;
		proto = f[ly->o_l3 + 6];
		off = ly->o_l3 + 40;
	}
	if (tun == OFL_GSO_TUN_IPIP) {
		ly->tun_end = off;
		pt = proto == 4 ? 0x0800 : 0x86dd;
	} else if (tun == OFL_GSO_TUN_GRE) {
		uint32_t fl = get16(f + off);
		ly->o_l4 = off;
		pt = get16(f + off + 2);
		ly->tun_end = off + 4 + ((fl & 0x8000) ? 4 : 0) + ((fl & 0x2000) ? 4 : 0);
	} else {
		ly->o_l4 = off;
		if (tun == OFL_GSO_TUN_GENEVE) {
			pt = get16(f + off + 10);
			ly->tun_end = off + 16 + (f[off + 8] & 0x3fu) * 4u;
		} else {
			pt = 0x6558;
			ly->tun_end = off + 16;
		}
	}
	off = ly->tun_end;
	if (pt == 0x6558) {
		ly->i_l2 = off;
		off += 12;
		while (get16(f + off) == 0x8100 || get16(f + off) == 0x88a8)
			off += 4;
		pt = get16(f + off);
		off += 2;
	}
	ly->i_l3 = off;
	ly->i_l3v = (f[off] >> 4) == 6 ? 6 : 4;
	ly->i_l4 = off + (ly->i_l3v == 4 ? (f[off] & 0xfu) * 4u : 40u);
	ly->pay = ly->i_l4 + (f[ly->i_l4 + 12] >> 4) * 4u;
	return ly->pay <= len && (pt == 0x0800 || pt == 0x86dd);
}

/* What a segment must be. */
struct texp {
	bool udp_csum;     /* outer UDP checksum computed (else 0) */
	bool outer_fixed, inner_fixed;
	uint32_t mss;
	uint32_t o_id0, i_id0, seq0;
	uint8_t tcp_flags; /* the input's */
};

/* Segment k of n (frame f, len bytes, inner checksum complete) of the
 * input (in, inlen, layout ly). */
static void check_seg(const uint8_t *in, size_t inlen, const struct tlay *ly, const struct texp *e,
                      const uint8_t *f, size_t len, unsigned k, unsigned n)
{
	static uint8_t inner[MAXF];
	uint32_t plen = (uint32_t)(len - ly->pay), left = (uint32_t)(inlen - ly->pay) - k * e->mss;
	const uint8_t *oip = f + ly->o_l3, *th = f + ly->i_l4;
	uint32_t fl;
	size_t il;
	ck_assert_uint_eq(plen, left < e->mss ? left : e->mss);
	ck_assert_uint_eq(k + 1 == n, left <= e->mss);
	ck_assert(memcmp(f, in, ly->o_l3) == 0);
	/* outer IP */
	if (ly->o_l3v == 4) {
		ck_assert_uint_eq(get16(oip + 2), len - ly->o_l3);
		ck_assert_uint_eq(get16(oip + 4), (e->o_id0 + (e->outer_fixed ? 0 : k)) & 0xffffu);
		ck_assert_uint_eq(gen_csum_fold(oip, (oip[0] & 0xfu) * 4u, 0), 0xffff);
		ck_assert(memcmp(oip + 6, in + ly->o_l3 + 6, 4) == 0);
	} else {
		ck_assert_uint_eq(get16(oip + 4), len - ly->o_l3 - 40);
	}
	/* outer UDP / GRE, tunnel header and inner L2 as in the input */
	if (ly->tun == OFL_GSO_TUN_GRE) {
		ck_assert(memcmp(f + ly->o_l4, in + ly->o_l4, 4) == 0);
		if (get16(f + ly->o_l4) & 0x8000)
			ck_assert_uint_eq(gen_csum_fold(f + ly->o_l4, len - ly->o_l4, 0), 0xffff);
		ck_assert(memcmp(f + ly->tun_end - ((get16(f + ly->o_l4) & 0x2000) ? 4 : 0),
		                 in + ly->tun_end - ((get16(f + ly->o_l4) & 0x2000) ? 4 : 0),
		                 ly->i_l3 - ly->tun_end + ((get16(f + ly->o_l4) & 0x2000) ? 4 : 0)) == 0);
	} else if (ly->o_l4) {
		const uint8_t *u = f + ly->o_l4;
		ck_assert(memcmp(u, in + ly->o_l4, 4) == 0);
		ck_assert_uint_eq(get16(u + 4), len - ly->o_l4);
		if (e->udp_csum) {
			ck_assert_uint_ne(get16(u + 6), 0);
			ck_assert_uint_eq(gen_csum_fold(u, len - ly->o_l4,
			                                pseudo(oip, ly->o_l3v, (uint32_t)(len - ly->o_l4), 17)),
			                  0xffff);
		} else {
			ck_assert_uint_eq(get16(u + 6), 0);
		}
		ck_assert(memcmp(u + 8, in + ly->o_l4 + 8, ly->i_l3 - ly->o_l4 - 8) == 0);
	}
	/* the inner packet: plain TSO's segment */
	if (ly->i_l2) {
		il = len - ly->i_l2;
		memcpy(inner, f + ly->i_l2, il);
	} else {
		memset(inner, 0, 14);
		put16(inner + 12, ly->i_l3v == 4 ? 0x0800 : 0x86dd);
		il = 14 + len - ly->i_l3;
		memcpy(inner + 14, f + ly->i_l3, len - ly->i_l3);
	}
	ck_assert_msg(gen_frame_csums_ok(inner, il), "segment %u: inner checksums", k);
	if (ly->i_l3v == 4) {
		ck_assert_uint_eq(get16(f + ly->i_l3 + 2), len - ly->i_l3);
		ck_assert_uint_eq(get16(f + ly->i_l3 + 4), (e->i_id0 + (e->inner_fixed ? 0 : k)) & 0xffffu);
	} else {
		ck_assert_uint_eq(get16(f + ly->i_l3 + 4), len - ly->i_l3 - 40);
	}
	ck_assert_uint_eq(get32(th + 4), e->seq0 + k * e->mss);
	fl = e->tcp_flags;
	if (k + 1 != n)
		fl &= ~0x09u; /* FIN, PSH: last only */
	if (k)
		fl &= ~0x80u; /* CWR: first only */
	ck_assert_uint_eq(th[13], fl);
	ck_assert(memcmp(f + ly->pay, in + ly->pay + k * e->mss, plen) == 0);
}

/* Cut the frame in nb (1..4) buffers (headers cut inside, payload in two). */
static uint32_t split(uint8_t *f, size_t len, uint32_t hdr, unsigned nb, struct ofl_buf *b)
{
	uint32_t cuts[4], i, at = 0, n = 0;
	if (nb == 1) {
		cuts[n++] = (uint32_t)len;
	} else if (nb == 2) {
		cuts[n++] = hdr;
		cuts[n++] = (uint32_t)len;
	} else if (nb == 3) {
		cuts[n++] = 14;
		cuts[n++] = hdr + 777;
		cuts[n++] = (uint32_t)len;
	} else {
		cuts[n++] = hdr / 2 + 1;
		cuts[n++] = hdr;
		cuts[n++] = hdr + (uint32_t)(len - hdr) / 2;
		cuts[n++] = (uint32_t)len;
	}
	for (i = 0; i < n; i++) {
		b[i].data = f + at;
		b[i].len = cuts[i] - at;
		at = cuts[i];
	}
	return n;
}

/* Segment f (len bytes) with req; check every segment.  udp_csum: the
 * outer UDP checksum is computed (1) or 0 (0), or (-1) as the input's is
 * set or not. */
static void cut_and_check(uint8_t *f, size_t len, const struct ofl_gso_req *req, unsigned nb, int udp_csum)
{
	struct ofl_gso_iter it;
	struct ofl_buf b[4];
	static struct gu_segs out;
	struct tlay ly;
	struct texp e;
	unsigned k, nbufs;
	ck_assert(layout(f, len, req->tunnel, &ly));
	memset(&e, 0, sizeof(e));
	e.udp_csum = udp_csum < 0 ? ly.o_l4 && get16(f + ly.o_l4 + 6) != 0 : udp_csum != 0;
	e.outer_fixed = (req->flags & OFL_GSO_F_OUTER_FIXED_ID) != 0;
	e.inner_fixed = (req->flags & OFL_GSO_F_FIXED_ID) != 0;
	e.mss = req->seg_size;
	e.o_id0 = ly.o_l3v == 4 ? get16(f + ly.o_l3 + 4) : 0;
	e.i_id0 = ly.i_l3v == 4 ? get16(f + ly.i_l3 + 4) : 0;
	e.seq0 = get32(f + ly.i_l4 + 4);
	e.tcp_flags = f[ly.i_l4 + 13];
	nbufs = split(f, len, ly.pay, nb, b);
	ck_assert_msg(ofl_gso_start(&it, req, b, nbufs) == 0, "start: %s", ofl_gso_why_str(ofl_gso_why(&it)));
	{
		struct ofl_gso_counts c;
		ck_assert_int_eq(ofl_gso_count(&it, &c, sizeof(c)), 0);
		ck_assert_uint_eq(c.tunnel, req->tunnel);
		ck_assert_uint_eq(c.outer_l3_off, ly.o_l3);
		ck_assert_uint_eq(c.outer_l4_off, ly.o_l4);
		ck_assert_uint_eq(c.hdr_len, ly.pay);
	}
	ck_assert_int_eq(gu_collect(&it, &out, 8, 512), 0);
	ck_assert_uint_eq(out.n, (len - ly.pay + e.mss - 1) / e.mss);
	for (k = 0; k < out.n; k++) {
		const struct ofl_gso_seg *s = &out.seg[k];
		ck_assert_uint_eq(s->l3_off, ly.i_l3);
		ck_assert_uint_eq(s->l4_off, ly.i_l4);
		if (req->csum == OFL_CSUM_MODE_PARTIAL) {
			ck_assert(s->flags & OFL_GSO_SEG_F_CSUM_PARTIAL);
			ck_assert_uint_eq(s->csum_start, ly.i_l4);
			gu_complete_csum(out.frame[k], out.len[k], s->csum_start, s->csum_offset);
		}
		check_seg(f, len, &ly, &e, out.frame[k], out.len[k], k, out.n);
	}
	gu_segs_free(&out);
}

/* VX, GN, GR, IP, UD: the tunnel; then outer and inner IP versions; the
 * other fields only where they are not 0. */
#define VX OFL_GSO_TUN_VXLAN
#define GN OFL_GSO_TUN_GENEVE
#define GR OFL_GSO_TUN_GRE
#define IP OFL_GSO_TUN_IPIP
#define UD OFL_GSO_TUN_UDP
#define T(t, o, i) .tun = t, .o_l3 = o, .i_l3 = i
static const struct tspec specs[] = {
	{ T(VX, 4, 4) }, { T(VX, 4, 6), .csum_in = 1 }, { T(VX, 6, 4), .o_nvlan = 1, .i_nvlan = 1, .csum_in = 1 },
	{ T(VX, 6, 6) }, { T(VX, 4, 4), .o_nvlan = 2, .i_nvlan = 2, .csum_in = 1 },
	{ T(GN, 4, 4) }, { T(GN, 4, 6), .i_nvlan = 1, .csum_in = 1, .gopt = 8 },
	{ T(GN, 6, 4), .csum_in = 1, .gopt = 12, .inner_ip = 1 }, { T(GN, 6, 6), .o_nvlan = 2, .csum_in = 1, .gopt = 4 },
	{ T(GR, 4, 4) }, { T(GR, 4, 6), .gre = GRE_C }, { T(GR, 6, 4), .o_nvlan = 1, .i_nvlan = 1, .gre = GRE_K },
	{ T(GR, 6, 6), .gre = GRE_C | GRE_K, .inner_ip = 1 }, { T(GR, 4, 4), .gre = GRE_C | GRE_K, .inner_ip = 1 },
	{ T(IP, 4, 4) }, { T(IP, 4, 6), .o_nvlan = 1 }, { T(IP, 6, 4) }, { T(IP, 6, 6), .o_nvlan = 2 },
	{ T(UD, 4, 4), .csum_in = 1 }, { T(UD, 6, 6), .i_nvlan = 1 },
};
#define NSPECS (sizeof(specs) / sizeof(specs[0]))

static uint8_t frame[MAXF];

static void req_for(struct ofl_gso_req *req, const struct tspec *s, uint32_t inner_off, int partial)
{
	ofl_gso_req_default(req);
	req->tunnel = s->tun;
	req->seg_size = 1000;
	req->csum = partial ? OFL_CSUM_MODE_PARTIAL : OFL_CSUM_MODE_FULL;
	if (s->tun == OFL_GSO_TUN_UDP)
		req->inner_off = (uint16_t)inner_off;
}

/* Rule table: every tunnel spec, both checksum modes, 1-4 buffers. */
START_TEST(test_rules)
{
	const struct tspec *s = &specs[_i / 8];
	int partial = (_i / 4) % 2;
	unsigned nb = (unsigned)(_i % 4) + 1;
	struct ofl_gso_req req;
	uint32_t io;
	size_t len = tun_frame(s, 5555, frame, sizeof(frame), &io);
	req_for(&req, s, io, partial);
	cut_and_check(frame, len, &req, nb, s->csum_in);
}
END_TEST

/* The outer and inner IPv4 ID rules, tun_csum forced either way, and an
 * inner_off given for a tunnel that finds it itself. */
START_TEST(test_ids_and_csum_modes)
{
	struct tspec s = { OFL_GSO_TUN_VXLAN, 4, 4, 0, 0, 0, 0, 0, 0 };
	struct ofl_gso_req req;
	uint32_t io;
	size_t len = tun_frame(&s, 9000, frame, sizeof(frame), &io);
	req_for(&req, &s, io, 0);
	req.flags = OFL_GSO_F_OUTER_FIXED_ID;
	cut_and_check(frame, len, &req, 1, 0);
	req.flags = OFL_GSO_F_FIXED_ID;
	cut_and_check(frame, len, &req, 2, 0);
	req.flags = OFL_GSO_F_FIXED_ID | OFL_GSO_F_OUTER_FIXED_ID;
	req.tun_csum = OFL_GSO_TUN_CSUM_ON;
	cut_and_check(frame, len, &req, 3, 1);
	req.inner_off = (uint16_t)io;
	cut_and_check(frame, len, &req, 1, 1);
	s.csum_in = 1;
	len = tun_frame(&s, 9000, frame, sizeof(frame), &io);
	req_for(&req, &s, io, 1);
	req.tun_csum = OFL_GSO_TUN_CSUM_ZERO;
	cut_and_check(frame, len, &req, 4, 0);
	/* an outer IPv4 ID that wraps */
	put16(frame + 14 + 4, 0xfffe);
	put16(frame + 14 + 10, 0);
	put16(frame + 14 + 10, (uint16_t)~gen_csum_fold(frame + 14, 20, 0));
	req.tun_csum = OFL_GSO_TUN_CSUM_AUTO;
	cut_and_check(frame, len, &req, 1, 1);
}
END_TEST

/* A request of version 3 does not have the tunnel fields: they are not
 * read, and the VXLAN frame is refused as a tunnel, as before. */
START_TEST(test_version3_request)
{
	struct tspec s = { OFL_GSO_TUN_VXLAN, 4, 4, 0, 0, 0, 0, 0, 0 };
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct ofl_buf b;
	uint32_t io;
	size_t len = tun_frame(&s, 3000, frame, sizeof(frame), &io);
	req_for(&req, &s, io, 0);
	req.version = 3;
	b.data = frame;
	b.len = (uint32_t)len;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_ENOTSUP);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_TUNNEL);
	req.version = OFL_GSO_REQ_VERSION;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
}
END_TEST

/* Start on f as one buffer (the buffer list outlives the call: the
 * iterator keeps it). */
static int start1(struct ofl_gso_iter *it, const struct ofl_gso_req *req, uint8_t *f, size_t len)
{
	static struct ofl_buf b;
	b.data = f;
	b.len = (uint32_t)len;
	return ofl_gso_start(it, req, &b, 1);
}

/* Requests that are refused before the frame is looked at. */
START_TEST(test_bad_requests)
{
	struct tspec s = { OFL_GSO_TUN_VXLAN, 4, 4, 0, 0, 0, 0, 0, 0 };
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	uint32_t io;
	size_t len = tun_frame(&s, 3000, frame, sizeof(frame), &io);
	static const struct {
		uint8_t tunnel, tun_csum, type;
		uint16_t inner_off, flags;
	} bad[] = {
		{ 6, 0, 0, 0, 0 },
		{ OFL_GSO_TUN_VXLAN, 3, 0, 0, 0 },
		{ OFL_GSO_TUN_GRE, OFL_GSO_TUN_CSUM_ON, 0, 0, 0 },
		{ OFL_GSO_TUN_IPIP, OFL_GSO_TUN_CSUM_ZERO, 0, 0, 0 },
		{ OFL_GSO_TUN_UDP, 0, 0, 0, 0 },
		{ OFL_GSO_TUN_UDP, 0, 0, 71, 0 },
		{ OFL_GSO_TUN_VXLAN, 0, OFL_GSO_TYPE_UDP_L4, 0, 0 },
		{ OFL_GSO_TUN_NONE, 0, 0, 0, OFL_GSO_F_OUTER_FIXED_ID },
		{ OFL_GSO_TUN_NONE, OFL_GSO_TUN_CSUM_ON, 0, 0, 0 },
		{ OFL_GSO_TUN_NONE, 0, 0, 64, 0 },
	};
	unsigned i;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		req_for(&req, &s, io, 0);
		req.tunnel = bad[i].tunnel;
		req.tun_csum = bad[i].tun_csum;
		req.type = bad[i].type;
		req.inner_off = bad[i].inner_off;
		req.flags = bad[i].flags;
		ck_assert_int_eq(start1(&it, &req, frame, len), OFL_EINVAL);
		ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_TUN_REQ);
	}
	/* an inner_off that is not where VXLAN puts the inner IP header */
	req_for(&req, &s, io, 0);
	req.inner_off = (uint16_t)(io + 2);
	ck_assert_int_eq(start1(&it, &req, frame, len), OFL_EPROTO);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_TUN_INNER);
	/* extra L2 bytes past the outer L2 header */
	req_for(&req, &s, io, 0);
	req.extra_l2_len = 4;
	req.extra_l2_off = 20;
	ck_assert_int_eq(start1(&it, &req, frame, len), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_EXTRA_L2);
}
END_TEST

/* Each tunnel frame asked for as every other tunnel type: refused with a
 * reason (never a segment). */
START_TEST(test_wrong_tunnel_type)
{
	const struct tspec *s = &specs[_i];
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	uint32_t io;
	size_t len = tun_frame(s, 3000, frame, sizeof(frame), &io);
	uint8_t t;
	for (t = OFL_GSO_TUN_VXLAN; t <= OFL_GSO_TUN_IPIP; t++) {
		int rc;
		/* a UDP tunnel read as another UDP tunnel may still parse (VXLAN's
		 * header is a Geneve header of another protocol type) */
		if (t == s->tun || (s->tun != OFL_GSO_TUN_GRE && s->tun != OFL_GSO_TUN_IPIP &&
		                    (t == OFL_GSO_TUN_VXLAN || t == OFL_GSO_TUN_GENEVE)))
			continue;
		req_for(&req, s, io, 0);
		req.tunnel = t;
		rc = start1(&it, &req, frame, len);
		ck_assert_msg(rc < 0, "tunnel %u as %u started", s->tun, t);
		ck_assert_int_ge(ofl_gso_why(&it), OFL_GSO_WHY_TUN_REQ);
	}
	/* and with no tunnel asked for, as before: refused as a tunnel */
	req_for(&req, s, io, 0);
	req.tunnel = OFL_GSO_TUN_NONE;
	req.inner_off = 0;
	if (s->tun != OFL_GSO_TUN_UDP) /* port 9999: AUTO makes it UDP fragmentation */
		ck_assert_int_lt(start1(&it, &req, frame, len), 0);
}
END_TEST

/* The frame cut after every header byte (lengths still saying the whole
 * frame, and with lengths fixed to the cut): refused, never read past.
 * Under ASan this is the out-of-bounds check. */
START_TEST(test_truncated)
{
	const struct tspec *s = &specs[_i];
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct tlay ly;
	uint32_t io, cut;
	size_t len = tun_frame(s, 3000, frame, sizeof(frame), &io);
	ck_assert(layout(frame, len, s->tun, &ly));
	req_for(&req, s, io, 0);
	for (cut = 0; cut < ly.pay; cut++) {
		uint8_t *copy = malloc(cut ? cut : 1); /* exactly cut bytes: ASan sees a read past */
		memcpy(copy, frame, cut);
		ck_assert_int_lt(start1(&it, &req, copy, cut), 0);
		ck_assert_int_ne(ofl_gso_why(&it), OFL_GSO_WHY_NONE);
		/* the outer lengths made to say the cut */
		if (cut >= ly.o_l3 + 6)
			put16(copy + ly.o_l3 + (ly.o_l3v == 4 ? 2 : 4), cut - ly.o_l3 - (ly.o_l3v == 4 ? 0 : 40));
		if (ly.o_l4 && ly.tun != OFL_GSO_TUN_GRE && cut >= ly.o_l4 + 6)
			put16(copy + ly.o_l4 + 4, cut - ly.o_l4);
		ck_assert_int_lt(start1(&it, &req, copy, cut), 0);
		free(copy);
	}
	ck_assert_int_eq(start1(&it, &req, frame, len), 0);
}
END_TEST

/* Geneve option length past the packet and past the view; VXLAN without
 * its I flag and VXLAN-GPE; GRE with routing, sequence or version bits;
 * an inner UDP packet and a nested tunnel; the outer lengths wrong. */
START_TEST(test_bad_headers)
{
	struct tspec gs = { OFL_GSO_TUN_GENEVE, 4, 4, 0, 0, 0, 0, 0, 0 };
	struct tspec vs = { OFL_GSO_TUN_VXLAN, 4, 4, 0, 0, 0, 0, 0, 0 };
	struct tspec gr = { OFL_GSO_TUN_GRE, 4, 4, 0, 0, 0, GRE_K, 0, 0 };
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	uint32_t io, gl[] = { 0x8000, 0x4000, 0x1000, 0x0001, 0x0800, 0x0080 };
	size_t len, i;
	uint8_t *copy;
	/* Geneve: 63 * 4 option bytes, on a short packet and on a long one */
	len = tun_frame(&gs, 100, frame, sizeof(frame), &io);
	req_for(&req, &gs, io, 0);
	frame[14 + 20 + 8] = 0x3f;
	copy = malloc(len);
	memcpy(copy, frame, len);
	ck_assert_int_eq(start1(&it, &req, copy, len), OFL_EPROTO);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_TUN_HDR);
	free(copy);
	len = tun_frame(&gs, 3000, frame, sizeof(frame), &io);
	frame[14 + 20 + 8] = 0x3f;
	ck_assert_int_eq(start1(&it, &req, frame, len), OFL_EPROTO);
	frame[14 + 20 + 8] = 0x40; /* version 1 */
	ck_assert_int_eq(start1(&it, &req, frame, len), OFL_EPROTO);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_TUN_HDR);
	/* VXLAN flags */
	len = tun_frame(&vs, 3000, frame, sizeof(frame), &io);
	req_for(&req, &vs, io, 0);
	frame[14 + 20 + 8] = 0x00;
	ck_assert_int_eq(start1(&it, &req, frame, len), OFL_EPROTO);
	frame[14 + 20 + 8] = 0x0c;
	ck_assert_int_eq(start1(&it, &req, frame, len), OFL_EPROTO);
	frame[14 + 20 + 8] = 0x08;
	ck_assert_int_eq(start1(&it, &req, frame, len), 0);
	/* outer lengths */
	put16(frame + 14 + 20 + 4, (uint32_t)(len - 14 - 20 - 1));
	ck_assert_int_eq(start1(&it, &req, frame, len), OFL_EBADMSG);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_TUN_LENGTHS);
	len = tun_frame(&vs, 3000, frame, sizeof(frame), &io);
	ck_assert_int_eq(start1(&it, &req, frame, len - 1), OFL_EBADMSG);
	/* inner UDP, inner tunnel */
	frame[io + 9] = 17;
	ck_assert_int_eq(start1(&it, &req, frame, len), OFL_EPROTO);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_TUN_INNER);
	frame[io + 9] = 47;
	ck_assert_int_eq(start1(&it, &req, frame, len), OFL_EPROTO);
	/* GRE flags other than C and K */
	len = tun_frame(&gr, 3000, frame, sizeof(frame), &io);
	req_for(&req, &gr, io, 0);
	for (i = 0; i < sizeof(gl) / sizeof(gl[0]); i++) {
		put16(frame + 34, 0x2000 | gl[i]);
		ck_assert_int_eq(start1(&it, &req, frame, len), OFL_EPROTO);
	}
	/* GRE of another payload type (ERSPAN) */
	put16(frame + 34, 0x2000);
	put16(frame + 36, 0x88be);
	ck_assert_int_eq(start1(&it, &req, frame, len), OFL_EPROTO);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_TUN_HDR);
}
END_TEST

/* Both header sets in a slot: a slot too small is OFL_ENOSPC before
 * anything is emitted. */
START_TEST(test_slot_too_small)
{
	struct tspec s = { OFL_GSO_TUN_GENEVE, 6, 6, 2, 2, 1, 0, 32, 0 };
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct ofl_gso_pool pool;
	struct ofl_gso_seg seg;
	struct tlay ly;
	static uint8_t block[64 * 1024];
	uint32_t io;
	size_t len = tun_frame(&s, 3000, frame, sizeof(frame), &io);
	ck_assert(layout(frame, len, s.tun, &ly));
	req_for(&req, &s, io, 0);
	ck_assert_int_eq(start1(&it, &req, frame, len), 0);
	ck_assert_int_eq(ofl_gso_pool_init_block(&pool, block, sizeof(block), ly.pay - 2), 0);
	ck_assert_int_eq(ofl_gso_check_pool(&it, &pool), OFL_ENOSPC);
	ck_assert_int_eq(ofl_gso_next(&it, &pool, &seg), OFL_ENOSPC);
	ck_assert_int_eq(ofl_gso_pool_init_block(&pool, block, sizeof(block), ly.pay), 0);
	ck_assert_int_eq(ofl_gso_next(&it, &pool, &seg), 1);
	/* the longest headers the parser takes fit OFL_GSO_MAX_HDR with the
	 * extra L2 bytes and an inserted tag */
	ck_assert_uint_le(OFL_GSO_MAX_IN_HDR + 32u + 4u, OFL_GSO_MAX_HDR);
}
END_TEST

/* ---- virtio_net_hdr_v1_hash_tunnel (TUN with TUN_F_UDP_TUNNEL_GSO) ---- */

/* The 24-byte header of a VXLAN super-packet laid out as ly. */
static void tunnel_vnet(uint8_t *v, const struct tlay *ly, int csum, uint16_t mss)
{
	struct ofl_virtio_net_hdr_tunnel vt, back;
	memset(&vt, 0, sizeof(vt));
	vt.hdr.flags = (uint8_t)(OFL_VNET_F_NEEDS_CSUM | (csum ? OFL_VNET_F_UDP_TUNNEL_CSUM : 0u));
	vt.hdr.gso_type = (uint8_t)((ly->i_l3v == 4 ? OFL_VNET_GSO_TCPV4 : OFL_VNET_GSO_TCPV6) |
	                            (ly->o_l3v == 4 ? OFL_VNET_GSO_UDP_TUNNEL_IPV4 : OFL_VNET_GSO_UDP_TUNNEL_IPV6));
	vt.hdr.hdr_len = (uint16_t)ly->pay;
	vt.hdr.gso_size = mss;
	vt.hdr.csum_start = (uint16_t)ly->i_l4;
	vt.hdr.csum_offset = 16;
	vt.hash_value = 0x12345678u;
	vt.outer_th_offset = (uint16_t)ly->o_l4;
	vt.inner_nh_offset = (uint16_t)ly->i_l3;
	ck_assert_int_eq(ofl_vnet_hdr_tunnel_write_le(&vt, v, 23), OFL_ENOSPC);
	ck_assert_int_eq(ofl_vnet_hdr_tunnel_write_le(&vt, v, 24), 24);
	ck_assert_uint_eq(v[20] | v[21] << 8, ly->o_l4);
	ck_assert_uint_eq(v[22] | v[23] << 8, ly->i_l3);
	ck_assert_uint_eq(v[12], 0x78);
	memset(&back, 0, sizeof(back)); /* the padding is compared too */
	ck_assert_int_eq(ofl_vnet_hdr_tunnel_read(v, 23, &back), OFL_EINVAL);
	ck_assert_int_eq(ofl_vnet_hdr_tunnel_read(v, 24, &back), 0);
	ck_assert(memcmp(&back, &vt, sizeof(vt)) == 0);
}

/* VXLAN over IPv4/IPv6 of TCP over IPv4/IPv6, outer checksum or not, from a
 * TAP device (Ethernet) and a TUN device (from the outer IP header): cut
 * as the header says, each segment checked as in the rule table. */
START_TEST(test_vnet)
{
	struct tspec s = { .tun = OFL_GSO_TUN_VXLAN, .o_l3 = (uint8_t)(_i & 1 ? 6 : 4),
		           .i_l3 = (uint8_t)(_i & 2 ? 6 : 4), .csum_in = (uint8_t)(_i >> 2 & 1) };
	int tun = _i >= 8;
	struct ofl_gso_iter it;
	struct ofl_buf b[2];
	uint8_t v[24];
	static struct gu_segs out;
	struct tlay ly;
	struct texp e;
	uint32_t io, skip = tun ? 14u : 0u, k;
	size_t len = tun_frame(&s, 7000, frame, sizeof(frame), &io);
	ck_assert(layout(frame, len, s.tun, &ly));
	{ /* the header counts from the packet's first byte: TUN has no L2 */
		struct tlay l2 = ly;
		l2.o_l4 -= skip;
		l2.i_l3 -= skip;
		l2.i_l4 -= skip;
		l2.pay -= skip;
		tunnel_vnet(v, &l2, s.csum_in, 1000);
	}
	b[0].data = v;
	b[0].len = 24;
	b[1].data = frame + skip;
	b[1].len = (uint32_t)(len - skip);
	ck_assert_msg(ofl_gso_start_vnet(&it, NULL, 24, tun ? OFL_GSO_L2_NONE : OFL_GSO_L2_ETH, b, 2) == 0,
	              "%s", ofl_gso_why_str(ofl_gso_why(&it)));
	ck_assert_int_eq(gu_collect(&it, &out, 8, 512), 0);
	memset(&e, 0, sizeof(e));
	e.udp_csum = s.csum_in;
	e.mss = 1000;
	e.o_id0 = OUTER_ID;
	e.i_id0 = INNER_ID;
	e.seq0 = SEQ0;
	e.tcp_flags = frame[ly.i_l4 + 13];
	ck_assert_uint_eq(out.n, 7);
	for (k = 0; k < out.n; k++) {
		static uint8_t f[MAXF];
		memcpy(f, frame, skip); /* check_seg reads the Ethernet frame */
		memcpy(f + skip, out.frame[k], out.len[k]);
		check_seg(frame, len, &ly, &e, f, out.len[k] + skip, k, out.n);
	}
	gu_segs_free(&out);
}
END_TEST

/* The virtio refusals: a tunnel type in a 12-byte header, a GRE request,
 * a tunnel request without a tunnel type, both outer bits or the wrong one,
 * outer_th_offset or inner_nh_offset not the headers', no NEEDS_CSUM. */
START_TEST(test_vnet_refused)
{
	struct tspec s = { .tun = OFL_GSO_TUN_VXLAN, .o_l3 = 4, .i_l3 = 4 };
	struct ofl_gso_iter it;
	struct ofl_gso_req req;
	struct ofl_buf b[2];
	uint8_t v[24];
	struct tlay ly;
	uint32_t io;
	size_t len = tun_frame(&s, 3000, frame, sizeof(frame), &io);
	ck_assert(layout(frame, len, s.tun, &ly));
	b[0].data = v;
	b[0].len = 24;
	b[1].data = frame;
	b[1].len = (uint32_t)len;
	tunnel_vnet(v, &ly, 0, 1000);
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 24, OFL_GSO_L2_ETH, b, 2), 0);
	b[0].len = 12;
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 12, OFL_GSO_L2_ETH, b, 2), OFL_ENOTSUP);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_VNET_TUNNEL);
	b[0].len = 24;
	ofl_gso_req_default(&req);
	req.tunnel = OFL_GSO_TUN_GRE;
	ck_assert_int_eq(ofl_gso_start_vnet(&it, &req, 24, OFL_GSO_L2_ETH, b, 2), OFL_ENOTSUP);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_VNET_TUNNEL);
	req.tunnel = OFL_GSO_TUN_IPIP;
	ck_assert_int_eq(ofl_gso_start_vnet(&it, &req, 24, OFL_GSO_L2_ETH, b, 2), OFL_ENOTSUP);
	req.tunnel = OFL_GSO_TUN_GENEVE; /* a VXLAN frame is no Geneve one */
	ck_assert_int_eq(ofl_gso_start_vnet(&it, &req, 24, OFL_GSO_L2_ETH, b, 2), OFL_EPROTO);
	req.tunnel = OFL_GSO_TUN_VXLAN;
	ck_assert_int_eq(ofl_gso_start_vnet(&it, &req, 24, OFL_GSO_L2_ETH, b, 2), 0);
	v[1] = OFL_VNET_GSO_TCPV4; /* no tunnel bit, a tunnel request */
	ck_assert_int_eq(ofl_gso_start_vnet(&it, &req, 24, OFL_GSO_L2_ETH, b, 2), OFL_ENOTSUP);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_VNET_TUNNEL);
	v[1] = OFL_VNET_GSO_TCPV4 | OFL_VNET_GSO_UDP_TUNNEL_IPV4 | OFL_VNET_GSO_UDP_TUNNEL_IPV6;
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 24, OFL_GSO_L2_ETH, b, 2), OFL_ENOTSUP);
	v[1] = OFL_VNET_GSO_TCPV4 | OFL_VNET_GSO_UDP_TUNNEL_IPV6;
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 24, OFL_GSO_L2_ETH, b, 2), OFL_EPROTO);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_VNET_TYPE);
	v[1] = OFL_VNET_GSO_TCPV6 | OFL_VNET_GSO_UDP_TUNNEL_IPV4;
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 24, OFL_GSO_L2_ETH, b, 2), OFL_EPROTO);
	tunnel_vnet(v, &ly, 0, 1000);
	v[20] = (uint8_t)(v[20] + 2);
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 24, OFL_GSO_L2_ETH, b, 2), OFL_EPROTO);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_VNET_TYPE);
	tunnel_vnet(v, &ly, 0, 1000);
	v[22] = (uint8_t)(v[22] + 2);
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 24, OFL_GSO_L2_ETH, b, 2), OFL_EPROTO);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_TUN_INNER);
	tunnel_vnet(v, &ly, 0, 1000);
	v[0] = 0;
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 24, OFL_GSO_L2_ETH, b, 2), OFL_EPROTO);
	ck_assert_int_eq(ofl_gso_why(&it), OFL_GSO_WHY_VNET_CSUM);
	tunnel_vnet(v, &ly, 0, 1000);
	v[6] = (uint8_t)(v[6] + 4); /* csum_start not the inner TCP header */
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 24, OFL_GSO_L2_ETH, b, 2), OFL_EPROTO);
}
END_TEST

/* ---- the kernel's segments (tests/fixtures/gso_tunnel, made by
 * tests/gso/make-tunnel-fixtures.sh on Linux 6.18: TAP with a 24-byte
 * virtio_net_hdr_v1_hash_tunnel, segmented by skb_udp_tunnel_segment) ---- */

static const char *const kernel_cases[] = {
	"vxlan_o4_i4",  "vxlan_o4_i4_csum",  "vxlan_o4_i6",  "vxlan_o4_i6_csum",
	"vxlan_o6_i4",  "vxlan_o6_i4_csum",  "vxlan_o6_i6",  "vxlan_o6_i6_csum",
	"geneve_o4_i4", "geneve_o4_i4_csum", "geneve_o4_i6", "geneve_o4_i6_csum",
	"geneve_o6_i4", "geneve_o6_i4_csum", "geneve_o6_i6", "geneve_o6_i6_csum",
};
#define NKERNEL (sizeof(kernel_cases) / sizeof(kernel_cases[0]))

/* The same header and super-packet through ofl_gso_start_vnet(): every
 * segment byte for byte the kernel's (full checksums, as the kernel's
 * software GSO writes them). */
START_TEST(test_kernel)
{
	char path[1024], hex[64];
	struct gu_pcap in, out;
	struct ofl_gso_iter it;
	struct ofl_buf b[2];
	uint8_t v[24];
	static struct gu_segs segs;
	unsigned k;
	FILE *fp;
	snprintf(path, sizeof(path), "%s/%s/vnet.hex", OFL_GSO_TUNNEL_FIXTURES, kernel_cases[_i]);
	fp = fopen(path, "r");
	ck_assert_msg(fp != NULL, "missing fixture %s", path);
	ck_assert(fgets(hex, sizeof(hex), fp) != NULL);
	fclose(fp);
	for (k = 0; k < 24; k++)
		ck_assert_int_eq(sscanf(hex + 2 * k, "%2hhx", &v[k]), 1);
	snprintf(path, sizeof(path), "%s/%s/IN.pcap", OFL_GSO_TUNNEL_FIXTURES, kernel_cases[_i]);
	ck_assert_msg(gu_pcap_read(path, &in), "missing fixture %s", path);
	snprintf(path, sizeof(path), "%s/%s/OUT.pcap", OFL_GSO_TUNNEL_FIXTURES, kernel_cases[_i]);
	ck_assert_msg(gu_pcap_read(path, &out), "missing fixture %s", path);
	ck_assert_uint_gt(out.n, 1); /* the kernel did segment it */
	b[0].data = v;
	b[0].len = 24;
	b[1].data = in.frame[0];
	b[1].len = in.len[0];
	ck_assert_msg(ofl_gso_start_vnet(&it, NULL, 24, OFL_GSO_L2_ETH, b, 2) == 0, "%s",
	              ofl_gso_why_str(ofl_gso_why(&it)));
	ck_assert_int_eq(gu_collect(&it, &segs, 8, 512), 0);
	ck_assert_uint_eq(segs.n, out.n);
	for (k = 0; k < out.n; k++) {
		ck_assert_uint_eq(segs.len[k], out.len[k]);
		ck_assert_msg(memcmp(segs.frame[k], out.frame[k], out.len[k]) == 0, "%s: segment %u differs",
		              kernel_cases[_i], k);
	}
	gu_segs_free(&segs);
	gu_pcap_free(&in);
	gu_pcap_free(&out);
}
END_TEST

/* ---- the corpus ---- */

static const char *corpora(void)
{
	const char *d = getenv("OFL_CORPORA");
	return d ? d : "../shared/corpora";
}

static const char *const corpus_files[] = {
	"gso/gso-ipv4-vxlan-ipv4.pcap",     "gso/gso-ipv4-vxlan-ipv6.pcap",
	"gso/gso-ipv6-vxlan-ipv4.pcap",     "gso/gso-ipv6-vxlan-ipv6.pcap",
	"gso/gso-ipv4-geneve-ipv4.pcap",    "gso/gso-ipv4-geneve-ipv6.pcap",
	"gso/gso-ipv6-geneve-ipv4.pcap",    "gso/gso-ipv6-geneve-ipv6.pcap",
	"gso/bigtcp-ipv4-vxlan-ipv4.pcap",  "gso/bigtcp-ipv4-vxlan-ipv6.pcap",
	"gso/bigtcp-ipv6-vxlan-ipv4.pcap",  "gso/bigtcp-ipv6-vxlan-ipv6.pcap",
	"gso/bigtcp-ipv4-geneve-ipv4.pcap", "gso/bigtcp-ipv4-geneve-ipv6.pcap",
	"gso/bigtcp-ipv6-geneve-ipv4.pcap", "gso/bigtcp-ipv6-geneve-ipv6.pcap",
};
#define NCORPUS (sizeof(corpus_files) / sizeof(corpus_files[0]))

/* Each corpus super-packet cut at MSS 1400, both checksum modes (the
 * captures' outer UDP checksum is set or not: AUTO computes it or writes 0). */
START_TEST(test_corpus)
{
	const char *name = corpus_files[_i % NCORPUS];
	int partial = (int)(_i / NCORPUS);
	char path[512];
	struct gu_pcap p;
	struct ofl_gso_req req;
	ofl_gso_req_default(&req);
	req.tunnel = strstr(name, "vxlan") ? OFL_GSO_TUN_VXLAN : OFL_GSO_TUN_GENEVE;
	req.seg_size = 1400;
	req.csum = partial ? OFL_CSUM_MODE_PARTIAL : OFL_CSUM_MODE_FULL;
	snprintf(path, sizeof(path), "%s/%s", corpora(), name);
	ck_assert_msg(gu_pcap_read(path, &p), "cannot read %s", path);
	ck_assert_uint_eq(p.n, 1);
	ck_assert_uint_le(p.len[0], sizeof(frame));
	memcpy(frame, p.frame[0], p.len[0]);
	cut_and_check(frame, p.len[0], &req, 2, -1);
	gu_pcap_free(&p);
}
END_TEST

int main(void)
{
	const struct h_test tests[] = {
		{ test_rules, (int)NSPECS * 8 },
		{ test_ids_and_csum_modes, 0 },
		{ test_version3_request, 0 },
		{ test_bad_requests, 0 },
		{ test_wrong_tunnel_type, (int)NSPECS },
		{ test_truncated, (int)NSPECS },
		{ test_bad_headers, 0 },
		{ test_slot_too_small, 0 },
		{ test_corpus, (int)NCORPUS * 2 },
		{ test_vnet, 16 },
		{ test_vnet_refused, 0 },
		{ test_kernel, (int)NKERNEL },
	};
	return h_run_table("gso_tunnel", 0, H_NOFORK, tests, sizeof(tests) / sizeof(tests[0]));
}
