/*
 * gro_tunnel_test.c - GRO through tunnels (ofl_gro_config.vxlan_ports,
 * geneve_ports, ipip, gre, vxlan_gpe_ports; src/gro/tunnel.c, gre.c and
 * vxlan_gpe.c, after Linux 6.18 udp_gro_receive, vxlan_gro_receive,
 * geneve_gro_receive, ipip_gro_receive, gre_gro_receive,
 * vxlan_gpe_gro_receive): a rule table (for every rule a
 * sequence that merges and one that must not), each row played over the
 * four outer/inner IPv4/IPv6 combinations, fed as one buffer and split over
 * two, three and four buffers, with software, COMPLETE and NIC-verified
 * checksums; then what the table cannot say (the config versions, the
 * delivered form, cut headers at every byte).
 *
 * The checks of every run (run_end()): every cookie delivered once, in
 * order within its flow; a NORMAL packet byte for byte its input; a GRO
 * packet of one segment its input; a merged one, linearized with full
 * checksums, has valid outer and inner checksums (gen_tun.h), the inner
 * payloads of its segments in order after its hdr_len, a tunnel type in
 * flags, the encapsulation in gso_type, and ofl_gro_out_tunnel() agreeing
 * with l3_off/l4_off.  A row says what came out: seg_count per packet, N
 * for a NORMAL one ("2,N,1").
 *
 * VXLAN-GPE: no kernel fixture (the kernel-oracle cannot make a GPE
 * device); its rows are derived from the kernel source
 * (drivers/net/vxlan/vxlan_core.c vxlan_gpe_gro_receive,
 * vxlan_gro_prepare_receive, vxlan_parse_gpe_proto).  The outer rules
 * are VXLAN's code (tunnel.c): GPE plays the rows of its own header and
 * a few of the shared ones (bulk, checksums, lengths, 64 KiB, neighbours).
 *
 * Under a memory checker (OFL_TEST_CHECKER set) only one buffer and four
 * buffers with software checksums run (8 of the 48 variants).
 */
#include <check.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ofl/csum.h>
#include <ofl/gro.h>

#include "gen.h"
#include "gen_tun.h"
#include "harness.h"

#define MAXF 160

struct run {
	struct ofl_gro *g;
	int split, csum;
	unsigned n;
	uint8_t *in[MAXF];
	uint32_t len[MAXF], pl[MAXF];
	struct ofl_buf b[MAXF][4];
	unsigned seen[MAXF];
	int last_cookie_in_out;
	char got[2048];
	size_t pos;
	uint8_t lin[70000];
	struct ofl_gro_stats st;
};

static struct run R;

/* variant v: outer IPv6 (bit 0), inner IPv6 (bit 1), split (bits 2-3),
 * checksum state (v >> 4: NONE, COMPLETE, UNNECESSARY) */
#define NVAR 48
#define OUTER(v) (((v) & 1) ? 6 : 4)
#define INNER(v) (((v) & 2) ? 6 : 4)
#define SPLIT(v) (((v) >> 2) & 3)
#define CSUM(v) ((v) >> 4)

static int variant_skipped(int v)
{
	return getenv("OFL_TEST_CHECKER") && (CSUM(v) != 0 || (SPLIT(v) != 0 && SPLIT(v) != 2));
}

static void deliver(void *user, const struct ofl_gro_out *o, unsigned n)
{
	struct run *r = user;
	unsigned i, j;
	for (i = 0; i < n; i++, o++) {
		int w = ofl_gro_linearize(o, r->lin, sizeof(r->lin), OFL_CSUM_MODE_FULL);
		uintptr_t c0 = (uintptr_t)o->cookies[0];
		struct ofl_gro_tunnel t;
		ck_assert_int_eq(w, (int)o->len);
		for (j = 0; j < o->ncookies; j++) {
			uintptr_t c = (uintptr_t)o->cookies[j];
			ck_assert_uint_lt(c, r->n);
			ck_assert_msg(++r->seen[c] == 1, "cookie %u twice", (unsigned)c);
		}
		if (o->seg_count == 0) {
			ck_assert_uint_eq(o->len, r->len[c0]);
			ck_assert_msg(memcmp(r->lin, r->in[c0], o->len) == 0, "NORMAL frame %u altered", (unsigned)c0);
			ck_assert_int_eq(ofl_gro_out_tunnel(o, &t), 0);
			r->pos += (size_t)snprintf(r->got + r->pos, sizeof(r->got) - r->pos, "%sN", r->pos ? "," : "");
			continue;
		}
		r->pos += (size_t)snprintf(r->got + r->pos, sizeof(r->got) - r->pos, "%s%u", r->pos ? "," : "",
		                           o->seg_count);
		if (OFL_GRO_OUT_TUN_TYPE(o->flags)) {
			ck_assert_int_eq(ofl_gro_out_tunnel(o, &t), 1);
			ck_assert_uint_eq(t.inner_l3_off, o->l3_off);
			ck_assert_uint_eq(t.inner_l4_off, o->l4_off);
			ck_assert_uint_eq(t.type, OFL_GRO_OUT_TUN_TYPE(o->flags));
		} else {
			/* a plain TCP flow beside the tunnelled ones */
			ck_assert_int_eq(ofl_gro_out_tunnel(o, &t), 0);
		}
		if (o->seg_count == 1) {
			ck_assert_uint_eq(o->len, r->len[c0]);
			ck_assert_msg(memcmp(r->lin, r->in[c0], o->len) == 0, "held frame %u altered", (unsigned)c0);
			continue;
		}
		{
			uint32_t pos = o->hdr_len;
			if (t.type) {
				ck_assert_msg(gen_tun_csums_ok(r->lin, o->len), "bad checksum in merged packet");
				unsigned want = t.type == OFL_GRO_TUN_IPIP
				                    ? (t.outer_l3 == 4 ? OFL_GSO_IPXIP4 : OFL_GSO_IPXIP6)
				                : t.type == OFL_GRO_TUN_GRE
				                    ? ((r->lin[t.tun_off] & 0x80) ? OFL_GSO_GRE_CSUM : OFL_GSO_GRE)
				                : t.outer_udp_csum ? OFL_GSO_UDP_TUNNEL_CSUM
				                                   : OFL_GSO_UDP_TUNNEL;
				ck_assert_uint_eq(o->gso_type & OFL_GSO_TUNNEL_MASK, want);
				if (t.type == OFL_GRO_TUN_GRE)
					ck_assert_uint_eq(t.outer_l4_off, t.tun_off);
			} else {
				ck_assert_msg(gen_frame_csums_ok(r->lin, o->len), "bad checksum in merged packet");
				ck_assert_uint_eq(o->gso_type & OFL_GSO_TUNNEL_MASK, 0);
			}
			ck_assert_uint_ne(o->gso_type & (OFL_GSO_TCPV4 | OFL_GSO_TCPV6), 0);
			for (j = 0; j < o->seg_count; j++) {
				uintptr_t c = (uintptr_t)o->cookies[j];
				uint32_t pl = r->pl[c];
				if (j)
					ck_assert_uint_gt(c, (uintptr_t)o->cookies[j - 1]);
				ck_assert_uint_le(pos + pl, o->len);
				ck_assert_msg(memcmp(r->lin + pos, r->in[c] + r->len[c] - pl, pl) == 0,
				              "payload of segment %u differs", j);
				pos += pl;
			}
			ck_assert_uint_eq(pos, o->len);
		}
	}
}

static void run_start_cfg(int v, const struct ofl_gro_config *cfg)
{
	struct ofl_gro_config c = *cfg;
	unsigned i;
	for (i = 0; i < R.n; i++)
		free(R.in[i]);
	memset(&R, 0, offsetof(struct run, lin));
	R.split = SPLIT(v);
	R.csum = CSUM(v);
	c.deliver = deliver;
	c.user = &R;
	ck_assert_int_eq(ofl_gro_create(&c, &R.g), 0);
}

static void tun_cfg(struct ofl_gro_config *c)
{
	ofl_gro_config_default(c);
	c->vxlan_nports = 1;
	c->vxlan_ports[0] = 4789;
	c->geneve_nports = 1;
	c->geneve_ports[0] = 6081;
	c->ipip = 1;
	c->gre = 1;
	c->vxlan_gpe_nports = 1;
	c->vxlan_gpe_ports[0] = 4790;
}

static void run_start(int v)
{
	struct ofl_gro_config c;
	tun_cfg(&c);
	run_start_cfg(v, &c);
}

/* Feed a whole frame (copied) as the variant says; the result. */
static int feed(const uint8_t *f, uint32_t len, uint32_t pl)
{
	struct ofl_pkt pk;
	unsigned i = R.n, nb = 0;
	uint32_t cut[4], k, at = 0;
	uint8_t *copy;
	ck_assert_uint_lt(i, MAXF);
	copy = malloc(len ? len : 1);
	memcpy(copy, f, len);
	R.in[i] = copy;
	R.len[i] = len;
	R.pl[i] = pl;
	R.n++;
	/* split points: headers | payload; 20 | 60 | rest; 14 | headers |
	 * half the payload | rest */
	switch (R.split) {
	case 1:
		cut[nb++] = len - pl;
		break;
	case 2:
		cut[nb++] = 20;
		cut[nb++] = 60;
		break;
	case 3:
		cut[nb++] = 14;
		cut[nb++] = len - pl;
		cut[nb++] = len - pl / 2;
		break;
	}
	for (k = 0; k < nb; k++) {
		uint32_t e = cut[k] < len ? cut[k] : len;
		if (e < at)
			e = at;
		R.b[i][k] = (struct ofl_buf){copy + at, e - at};
		at = e;
	}
	R.b[i][nb] = (struct ofl_buf){copy + at, len - at};
	memset(&pk, 0, sizeof(pk));
	pk.bufs = R.b[i];
	pk.nbufs = (uint16_t)(nb + 1);
	pk.cookie = (void *)(uintptr_t)i;
	pk.csum_status = R.csum == 0 ? OFL_CSUM_NONE : R.csum == 1 ? OFL_CSUM_COMPLETE : OFL_CSUM_UNNECESSARY;
	if (R.csum == 1)
		pk.csum = (uint16_t)~ofl_csum_fold(ofl_csum_partial(copy + 14, len - 14, 0));
	if (R.csum == 2 && !gen_tun_csums_ok(copy, len))
		pk.csum_status = OFL_CSUM_NONE; /* a NIC verifies only what is valid */
	return ofl_gro_receive(R.g, &pk, 0);
}

/* Wrap and feed one inner segment. */
static int send1(const struct gen_tcp *in, const struct gen_tun *t)
{
	static uint8_t inner[70000], f[70100];
	size_t il = gen_tcp_frame(in, inner, sizeof(inner)), fl;
	ck_assert_uint_gt(il, 0);
	fl = gen_tun_wrap(t, inner, il, f, sizeof(f));
	ck_assert_uint_gt(fl, 0);
	return feed(f, (uint32_t)fl, in->payload_len);
}

/* n consecutive segments: sequence numbers and both IPv4 IDs advance. */
static void send_n(struct gen_tcp *in, struct gen_tun *t, unsigned n)
{
	unsigned k;
	for (k = 0; k < n; k++) {
		send1(in, t);
		in->seq += in->payload_len;
		in->ip_id++;
		t->ip_id++;
	}
}

/* Flush, destroy, check every cookie came back; what came out. */
static const char *run_end(void)
{
	unsigned i;
	ck_assert_int_eq(ofl_gro_flush(R.g), 0);
	ck_assert_int_eq(ofl_gro_get_stats(R.g, &R.st, sizeof(R.st)), 0);
	ofl_gro_destroy(R.g);
	R.g = NULL;
	for (i = 0; i < R.n; i++)
		ck_assert_msg(R.seen[i] == 1, "cookie %u delivered %u times", i, R.seen[i]);
	return R.got;
}

static void init_pair(int v, int type, struct gen_tcp *in, struct gen_tun *t)
{
	gen_tcp_init(in, INNER(v));
	in->payload_len = 1000;
	gen_tun_init(t, type, OUTER(v));
}

/* ---- the rule table --------------------------------------------------- */

/* A row: plays the sequence of variant v through each tunnel type of its
 * set; want what must come out. */
struct row {
	const char *name;
	void (*play)(int v, struct gen_tcp *in, struct gen_tun *t);
	const char *want;
	unsigned types; /* bits 1 << GEN_TUN_* */
	unsigned normal_why; /* a reason that must have been counted (0: none) */
};
#define VX (1u << GEN_TUN_VXLAN)
#define GN (1u << GEN_TUN_GENEVE)
#define IP (1u << GEN_TUN_IPIP)
#define GR (1u << GEN_TUN_GRE)
#define GP (1u << GEN_TUN_VXLAN_GPE)

static void p_bulk(int v, struct gen_tcp *in, struct gen_tun *t)
{
	(void)v;
	send_n(in, t, 4);
}

static void p_udp_csum(int v, struct gen_tcp *in, struct gen_tun *t)
{
	(void)v;
	t->udp_csum = true;
	send_n(in, t, 4);
}

static void p_outer_vlan(int v, struct gen_tcp *in, struct gen_tun *t)
{
	(void)v;
	t->vlan = true;
	t->vlan_tci = 7;
	send_n(in, t, 4);
}

static void p_inner_vlan(int v, struct gen_tcp *in, struct gen_tun *t)
{
	(void)v;
	in->nvlan = 1;
	in->vlan_tpid[0] = 0x8100;
	in->vlan_tci[0] = 9;
	send_n(in, t, 4);
}

static void p_fixed_outer_id(int v, struct gen_tcp *in, struct gen_tun *t)
{
	unsigned k;
	(void)v;
	for (k = 0; k < 4; k++) {
		send1(in, t);
		in->seq += in->payload_len;
		in->ip_id++;
	}
}

/* IPv6 has no ID: the hop limit instead */
static void p_outer_id_jump(int v, struct gen_tcp *in, struct gen_tun *t)
{
	send_n(in, t, 2);
	if (OUTER(v) == 4)
		t->ip_id += 5;
	else
		t->ttl--;
	send_n(in, t, 2);
}

/* A sequence: pre, n1 segments, then on, n2 segments, then off, n3 more
 * (each statement may be (void)0). */
#define PLAY(fn, pre, n1, on, n2, off, n3)                                                         \
	static void fn(int v, struct gen_tcp *in, struct gen_tun *t)                                     \
	{                                                                                          \
		(void)v;                                                                           \
		pre;                                                                               \
		send_n(in, t, n1);                                                                 \
		on;                                                                                \
		send_n(in, t, n2);                                                                 \
		off;                                                                               \
		send_n(in, t, n3);                                                                 \
	}
/* the same flow but for one field from the third segment on */
#define CHANGE_AT_3(fn, stmt) PLAY(fn, (void)0, 2, stmt, 2, (void)0, 0)
/* three segments with one setting the rules refuse */
#define THREE_WITH(fn, stmt) PLAY(fn, stmt, 3, (void)0, 0, (void)0, 0)
/* two segments, a third with one setting (on), a fourth without (off) */
#define ONE_AT_3(fn, pre, on, off) PLAY(fn, pre, 2, on, 1, off, 1)
CHANGE_AT_3(p_vni, t->vni = 43)
CHANGE_AT_3(p_vxflags, t->vxlan_flags = 0x0c)
CHANGE_AT_3(p_sport, t->sport = 40001)
CHANGE_AT_3(p_ttl, t->ttl = 63)
CHANGE_AT_3(p_tos, t->tos = 4)
/* IPv6 has no DF: the flow label (part of the flow) instead */
CHANGE_AT_3(p_df, if (OUTER(v) == 4) t->df = !t->df; else t->flowlabel ^= 1)
CHANGE_AT_3(p_csum_zero_mix, t->udp_csum = !t->udp_csum)
CHANGE_AT_3(p_outer_daddr, t->daddr[3] ^= 1)
CHANGE_AT_3(p_outer_mac, t->src_mac[5] ^= 1)
CHANGE_AT_3(p_inner_seq_gap, in->seq += 1)
CHANGE_AT_3(p_inner_ack, in->ack += 1)
CHANGE_AT_3(p_gnv_opt, t->gnv_opts[7] ^= 1)
THREE_WITH(p_not_port, t->dport = 4799)
THREE_WITH(p_gnv_oam, t->gnv_flags = 0x80)
THREE_WITH(p_gnv_ver, t->gnv_ver = 1)
THREE_WITH(p_gnv_proto_unknown, t->gnv_proto = 0x88b5)
ONE_AT_3(p_bad_udp_csum, t->udp_csum = true, t->bad_udp_csum = true, t->bad_udp_csum = false)
ONE_AT_3(p_bad_tcp_csum, (void)0, in->bad_tcp_csum = true, in->bad_tcp_csum = false)
ONE_AT_3(p_short, (void)0, in->payload_len = 300, in->payload_len = 1000)
ONE_AT_3(p_udp_len, (void)0, t->udp_len_delta = -1, t->udp_len_delta = 0)
/* GRE (gre.c) */
PLAY(p_gre_key, t->gre_flags = GEN_GRE_K, 4, (void)0, 0, (void)0, 0)
PLAY(p_gre_csum, t->gre_flags = GEN_GRE_C, 4, (void)0, 0, (void)0, 0)
PLAY(p_gre_csum_key, t->gre_flags = GEN_GRE_C | GEN_GRE_K, 4, (void)0, 0, (void)0, 0)
PLAY(p_gre_key_differs, t->gre_flags = GEN_GRE_K, 2, t->gre_key = 43, 2, (void)0, 0)
CHANGE_AT_3(p_gre_key_added, t->gre_flags = GEN_GRE_K)
CHANGE_AT_3(p_gre_csum_added, t->gre_flags = GEN_GRE_C)
ONE_AT_3(p_gre_bad_csum, t->gre_flags = GEN_GRE_C | GEN_GRE_K, t->bad_gre_csum = true, t->bad_gre_csum = false)
THREE_WITH(p_gre_seq, t->gre_flags = GEN_GRE_S)
THREE_WITH(p_gre_seq_key, t->gre_flags = GEN_GRE_S | GEN_GRE_K)
THREE_WITH(p_gre_routing, t->gre_flags = GEN_GRE_R)
THREE_WITH(p_gre_ver1, t->gre_flags = 1)
THREE_WITH(p_gre_erspan, t->gre_proto = 0x88be)
THREE_WITH(p_gre_erspan3, t->gre_proto = 0x22eb)
CHANGE_AT_3(p_gre_ip_vs_teb, t->gre_proto = INNER(v) == 4 ? 0x0800 : 0x86dd)
/* VXLAN-GPE (vxlan_gpe.c): flag byte R R Ver(2) I P R O, next protocol */
CHANGE_AT_3(p_gpe_flags, t->vxlan_flags = 0x0e)
CHANGE_AT_3(p_gpe_ip_vs_eth, t->gpe_np = INNER(v) == 4 ? 1 : 2)
PLAY(p_gpe_ip, t->gpe_np = INNER(v) == 4 ? 1 : 2, 4, (void)0, 0, (void)0, 0)
ONE_AT_3(p_gpe_oam_at_3, (void)0, t->vxlan_flags = 0x0d, t->vxlan_flags = 0x0c)
#undef ONE_AT_3
#undef THREE_WITH
#undef CHANGE_AT_3
#undef PLAY

static void p_psh(int v, struct gen_tcp *in, struct gen_tun *t)
{
	(void)v;
	send_n(in, t, 1);
	in->flags |= GEN_PSH;
	send_n(in, t, 1);
	in->flags &= (uint8_t)~GEN_PSH;
	send_n(in, t, 2);
}


/* (the generator writes no IPv6 extension headers: over IPv6 a UDP length
 * past the datagram instead) */
static void p_outer_ipopt(int v, struct gen_tcp *in, struct gen_tun *t)
{
	t->udp_len_delta = OUTER(v) == 6;
	t->ip_optlen = 4;
	t->ip_opts[0] = 1; /* NOP x 4 */
	t->ip_opts[1] = t->ip_opts[2] = t->ip_opts[3] = 1;
	send_n(in, t, 3);
}

/* (no UDP length over GRE: the sequence bit over IPv6 instead) */
static void p_gre_outer_ipopt(int v, struct gen_tcp *in, struct gen_tun *t)
{
	if (OUTER(v) == 6)
		t->gre_flags = GEN_GRE_S;
	p_outer_ipopt(v, in, t);
}

static void p_nested(int v, struct gen_tcp *in, struct gen_tun *t)
{
	/* VXLAN in VXLAN: the inner packet is UDP, not TCP */
	static uint8_t inner[4096], mid[4200];
	struct gen_tun t2;
	unsigned k;
	gen_tun_init(&t2, GEN_TUN_VXLAN, INNER(v));
	for (k = 0; k < 3; k++) {
		size_t il = gen_tcp_frame(in, inner, sizeof(inner));
		size_t ml = gen_tun_wrap(&t2, inner, il, mid, sizeof(mid)), fl;
		static uint8_t f[4400];
		fl = gen_tun_wrap(t, mid, ml, f, sizeof(f));
		feed(f, (uint32_t)fl, in->payload_len);
		in->seq += in->payload_len;
	}
}

static void p_gnv_opts(int v, struct gen_tcp *in, struct gen_tun *t)
{
	unsigned k;
	(void)v;
	t->gnv_optlen = 8;
	for (k = 0; k < 8; k++)
		t->gnv_opts[k] = (uint8_t)(k + 1);
	send_n(in, t, 4);
}

static void p_gnv_opt_change(int v, struct gen_tcp *in, struct gen_tun *t)
{
	t->gnv_optlen = 8;
	p_gnv_opt(v, in, t);
}



static void p_gnv_optlen_past(int v, struct gen_tcp *in, struct gen_tun *t)
{
	(void)v;
	in->payload_len = 20;
	t->gnv_optlen_delta = 63;
	send_n(in, t, 3);
}

static void p_gnv_ip(int v, struct gen_tcp *in, struct gen_tun *t)
{
	t->gnv_proto = INNER(v) == 4 ? 0x0800 : 0x86dd;
	send_n(in, t, 4);
}

static void p_gre_ip(int v, struct gen_tcp *in, struct gen_tun *t)
{
	t->gre_proto = INNER(v) == 4 ? 0x0800 : 0x86dd;
	t->gre_flags = GEN_GRE_C | GEN_GRE_K;
	send_n(in, t, 4);
}


/* 64 KiB of outer IP packet: 1309-byte segments, 60 of them.  The outer
 * overhead (IPv4: 90 bytes to the inner payload with IPv4 inside) lets 49
 * fit (plain TCP would take 50); the rest is a second packet. */
static void p_64k(int v, struct gen_tcp *in, struct gen_tun *t)
{
	(void)v;
	in->payload_len = 1309;
	send_n(in, t, 60);
}

static void p_plain_beside(int v, struct gen_tcp *in, struct gen_tun *t)
{
	/* the same inner flow bare, between the tunnelled segments: two
	 * flows, each merged */
	static uint8_t f[4096];
	struct gen_tcp bare = *in;
	unsigned k;
	for (k = 0; k < 2; k++) {
		size_t fl = gen_tcp_frame(&bare, f, sizeof(f));
		send_n(in, t, 1);
		feed(f, (uint32_t)fl, bare.payload_len);
		bare.seq += bare.payload_len;
		bare.ip_id++;
	}
	(void)v;
}

static const struct row rows[] = {
	/* one flow, merged */
	{"bulk", p_bulk, "4", VX | GP | GN | IP | GR, 0},
	{"outer udp csum", p_udp_csum, "4", VX | GP | GN, 0},
	{"outer vlan", p_outer_vlan, "4", VX | IP | GR, 0},
	{"inner vlan", p_inner_vlan, "4", VX | GP | GR, 0},
	{"outer id fixed", p_fixed_outer_id, "4", VX | IP | GR, 0},
	/* outer fields: another flow, or a flush */
	{"outer id jump (v6 hop limit)", p_outer_id_jump, "2,2", VX | IP | GR, 0},
	{"vni differs", p_vni, "2,2", VX | GP, 0},
	{"vxlan flags differ", p_vxflags, "2,2", VX, 0},
	{"outer sport differs", p_sport, "2,2", VX, 0},
	{"outer ttl differs", p_ttl, "2,2", VX | IP | GR, 0},
	{"outer tos differs", p_tos, "2,2", VX | GR, 0},
	{"outer df (v6 flow label) differs", p_df, "2,2", VX | GR, 0},
	{"outer csum zero and not", p_csum_zero_mix, "2,2", VX, 0},
	{"outer daddr differs", p_outer_daddr, "2,2", VX | IP | GR, 0},
	{"outer mac differs", p_outer_mac, "2,2", VX | GR, 0},
	/* checksums and inner TCP */
	{"bad outer udp csum", p_bad_udp_csum, "2,N,1", VX | GP, OFL_GRO_NORMAL_TUN_CSUM},
	{"bad inner tcp csum", p_bad_tcp_csum, "2,N,1", VX | GP | IP | GR, OFL_GRO_NORMAL_TCP_CSUM},
	{"inner seq gap", p_inner_seq_gap, "2,2", VX | IP | GR, 0},
	{"inner ack differs", p_inner_ack, "2,2", VX | GR, 0},
	{"inner psh", p_psh, "2,2", VX | GR, 0},
	{"inner short", p_short, "3,1", VX | GR, 0},
	/* what is passed on */
	{"port not configured", p_not_port, "N,N,N", VX | GP, OFL_GRO_NORMAL_NOT_TCP},
	{"outer ip options (v6 udp length)", p_outer_ipopt, "N,N,N", VX, 0},
	{"outer udp length", p_udp_len, "2,N,1", VX | GP, OFL_GRO_NORMAL_TUN_OUTER},
	{"carrying vxlan", p_nested, "N,N,N", VX | GP | IP | GR, OFL_GRO_NORMAL_TUN_INNER},
	/* sizes and neighbours */
	{"64k outer limit", p_64k, NULL, VX | GP | GR, 0},
	{"plain beside tunnel", p_plain_beside, "2,2", VX | GP | GR, 0},
	/* Geneve */
	{"geneve options", p_gnv_opts, "4", GN, 0},
	{"geneve option differs", p_gnv_opt_change, "2,2", GN, 0},
	{"geneve oam", p_gnv_oam, "N,N,N", GN, OFL_GRO_NORMAL_TUN_HDR},
	{"geneve version 1", p_gnv_ver, "N,N,N", GN, OFL_GRO_NORMAL_TUN_HDR},
	{"geneve option length past", p_gnv_optlen_past, "N,N,N", GN, OFL_GRO_NORMAL_TUN_HDR},
	{"geneve ip payload", p_gnv_ip, "4", GN, 0},
	{"geneve unknown protocol", p_gnv_proto_unknown, "N,N,N", GN, OFL_GRO_NORMAL_TUN_HDR},
	/* GRE: Ethernet payload (0x6558) unless the row says IP */
	{"gre key", p_gre_key, "4", GR, 0},
	{"gre csum", p_gre_csum, "4", GR, 0},
	{"gre csum and key", p_gre_csum_key, "4", GR, 0},
	{"gre ip payload (csum, key)", p_gre_ip, "4", GR, 0},
	{"gre key differs", p_gre_key_differs, "2,2", GR, 0},
	{"gre key added", p_gre_key_added, "2,2", GR, 0},
	{"gre csum added", p_gre_csum_added, "2,2", GR, 0},
	{"gre ip payload, then ethernet", p_gre_ip_vs_teb, "2,2", GR, 0},
	{"gre bad csum", p_gre_bad_csum, "2,N,1", GR, OFL_GRO_NORMAL_TUN_CSUM},
	{"gre sequence bit", p_gre_seq, "N,N,N", GR, OFL_GRO_NORMAL_TUN_HDR},
	{"gre sequence and key", p_gre_seq_key, "N,N,N", GR, OFL_GRO_NORMAL_TUN_HDR},
	{"gre routing bit", p_gre_routing, "N,N,N", GR, OFL_GRO_NORMAL_TUN_HDR},
	{"gre version 1", p_gre_ver1, "N,N,N", GR, OFL_GRO_NORMAL_TUN_HDR},
	{"gre erspan", p_gre_erspan, "N,N,N", GR, OFL_GRO_NORMAL_TUN_HDR},
	{"gre erspan type iii", p_gre_erspan3, "N,N,N", GR, OFL_GRO_NORMAL_TUN_HDR},
	{"gre outer ip options (v6: sequence bit)", p_gre_outer_ipopt, "N,N,N", GR, 0},
	/* VXLAN-GPE: Ethernet payload (next protocol 3) unless the row says IP;
	 * its header's own rules: gpe_hdr below */
	{"gpe ip payload", p_gpe_ip, "4", GP, 0},
	{"gpe flags differ", p_gpe_flags, "2,2", GP, 0},
	{"gpe ethernet, then ip payload", p_gpe_ip_vs_eth, "2,2", GP, 0},
	/* refused at the header, before the inner flow is known: passed on
	 * while the held packet stays (the kernel's flush of the frame alone),
	 * then the fourth's sequence gap flushes that */
	{"gpe oam in the flow", p_gpe_oam_at_3, "N,2,1", GP, OFL_GRO_NORMAL_TUN_HDR},
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

/* The 64 KiB row's expected output for variant v: as many segments as fit
 * in 65535 bytes of outer IP packet, then the rest (UDP and VXLAN headers,
 * or a 4-byte GRE header, before the inner Ethernet one). */
static const char *want_64k(int v, int type, char *buf, size_t cap)
{
	uint32_t tun = type == GEN_TUN_GRE ? 4u : 8u + 8u; /* VXLAN or GRE */
	uint32_t over = (OUTER(v) == 4 ? 20u : 40u) + tun + 14u + (INNER(v) == 4 ? 20u : 40u) + 20u;
	uint32_t fit = (65535u - over) / 1309u;
	snprintf(buf, cap, "%u,%u", fit, 60u - fit);
	return buf;
}

START_TEST(rule_table)
{
	static const char *const tname[] = {"", "vxlan", "geneve", "ipip", "gre", "vxlan-gpe"};
	unsigned r;
	int type;
	if (variant_skipped(_i))
		return;
	for (r = 0; r < NROWS; r++)
		for (type = GEN_TUN_VXLAN; type <= GEN_TUN_VXLAN_GPE; type++) {
			struct gen_tcp in;
			struct gen_tun t;
			char want[64];
			const char *w = rows[r].want;
			if (!(rows[r].types & (1u << type)))
				continue;
			run_start(_i);
			init_pair(_i, type, &in, &t);
			rows[r].play(_i, &in, &t);
			if (!w)
				w = want_64k(_i, type, want, sizeof(want));
			ck_assert_msg(strcmp(run_end(), w) == 0, "%s row \"%s\" variant %d: got %s, want %s",
			              tname[type], rows[r].name, _i, R.got, w);
			if (rows[r].normal_why)
				ck_assert_msg(R.st.normal_why[rows[r].normal_why] > 0, "%s row \"%s\": reason %s not counted",
				              tname[type], rows[r].name, ofl_gro_normal_reason_name(rows[r].normal_why));
		}
}
END_TEST

/* The VXLAN-GPE header (vxlan_gpe.c, after vxlan_parse_gpe_proto()): four
 * segments of one flow with each flag byte and next protocol, over every
 * variant: merged or passed on. */
static const struct {
	uint8_t flags, np;
	const char *want;
} gpe_hdr_rows[] = {
	{0x0c, 3, "4"},     /* I, P; Ethernet */
	{0x04, 3, "4"},     /* no I: not checked (as for VXLAN) */
	{0x0e, 1, "4"},     /* a reserved flag: part of the flow, no more; IPv4 */
	{0xcc, 2, "4"},     /* the two top reserved bits; IPv6 */
	{0x08, 3, "N,N,N,N"}, /* no P */
	{0x1c, 3, "N,N,N,N"}, /* version 1 */
	{0x2c, 3, "N,N,N,N"}, /* version 2 */
	{0x0d, 3, "N,N,N,N"}, /* OAM */
	{0x0c, 0, "N,N,N,N"}, /* next protocols without GRO in Linux: none, */
	{0x0c, 4, "N,N,N,N"}, /* NSH, */
	{0x0c, 5, "N,N,N,N"}, /* MPLS, */
	{0x0c, 0x81, "N,N,N,N"}, /* an experimental one */
};

START_TEST(gpe_hdr)
{
	unsigned r;
	if (variant_skipped(_i))
		return;
	for (r = 0; r < sizeof(gpe_hdr_rows) / sizeof(gpe_hdr_rows[0]); r++) {
		struct gen_tcp in;
		struct gen_tun t;
		uint8_t np = gpe_hdr_rows[r].np;
		run_start(_i);
		init_pair(_i, GEN_TUN_VXLAN_GPE, &in, &t);
		t.vxlan_flags = gpe_hdr_rows[r].flags;
		/* IPv4/IPv6 next protocols carry the inner IP packet of the variant */
		t.gpe_np = np == 1 || np == 2 ? (INNER(_i) == 4 ? 1 : 2) : np;
		send_n(&in, &t, 4);
		ck_assert_msg(strcmp(run_end(), gpe_hdr_rows[r].want) == 0, "flags %#x next protocol %u variant %d: got %s",
		              gpe_hdr_rows[r].flags, np, _i, R.got);
		if (gpe_hdr_rows[r].want[0] == 'N')
			ck_assert_uint_eq(R.st.normal_why[OFL_GRO_NORMAL_TUN_HDR], 4);
	}
}
END_TEST

/* Three segments through a tunnel type under config c: what came out. */
static const char *three_with(const struct ofl_gro_config *c, int type)
{
	struct gen_tcp in;
	struct gen_tun t;
	init_pair(0, type, &in, &t);
	run_start_cfg(0, c);
	send_n(&in, &t, 3);
	return run_end();
}

/* A version 3 config (before the tunnel ports) and the default config: no
 * tunnel, VXLAN is plain UDP (NORMAL not_tcp). */
START_TEST(config_versions)
{
	struct ofl_gro_config c;
	struct gen_tcp in;
	struct gen_tun t;
	ofl_gro_config_default(&c);
	ck_assert_uint_eq(c.vxlan_nports, 0);
	ck_assert_uint_eq(c.geneve_nports, 0);
	run_start_cfg(0, &c);
	init_pair(0, GEN_TUN_VXLAN, &in, &t);
	send_n(&in, &t, 3);
	ck_assert_str_eq(run_end(), "N,N,N");
	tun_cfg(&c);
	c.version = 3;
	run_start_cfg(0, &c);
	send_n(&in, &t, 3);
	ck_assert_str_eq(run_end(), "N,N,N");
	/* the defaults merge IP-in-IP and GRE (the kernel's) */
	ofl_gro_config_default(&c);
	ck_assert_uint_eq(c.ipip, 1);
	ck_assert_uint_eq(c.gre, 1);
	ck_assert_str_eq(three_with(&c, GEN_TUN_IPIP), "3");
	ck_assert_str_eq(three_with(&c, GEN_TUN_GRE), "3");
	/* a version 4 struct ends before ipip, a version 5 one before gre;
	 * ipip 0, gre 0; 2 refused */
	tun_cfg(&c);
	c.version = 4;
	ck_assert_str_eq(three_with(&c, GEN_TUN_IPIP), "N,N,N");
	c.version = 5;
	ck_assert_str_eq(three_with(&c, GEN_TUN_GRE), "N,N,N");
	ck_assert_uint_eq(R.st.normal_why[OFL_GRO_NORMAL_NOT_TCP], 3);
	tun_cfg(&c);
	c.ipip = 0;
	c.gre = 0;
	ck_assert_str_eq(three_with(&c, GEN_TUN_IPIP), "N,N,N");
	ck_assert_str_eq(three_with(&c, GEN_TUN_GRE), "N,N,N");
	c.deliver = deliver;
	c.ipip = 2;
	ck_assert_int_eq(ofl_gro_create(&c, &R.g), OFL_EINVAL);
	c.ipip = 1;
	c.gre = 2;
	ck_assert_int_eq(ofl_gro_create(&c, &R.g), OFL_EINVAL);
	/* bad tunnel configs */
	tun_cfg(&c);
	c.vxlan_nports = OFL_GRO_TUN_PORTS_MAX + 1;
	c.deliver = deliver;
	ck_assert_int_eq(ofl_gro_create(&c, &R.g), OFL_EINVAL);
	tun_cfg(&c);
	c.geneve_ports[0] = 0;
	c.deliver = deliver;
	ck_assert_int_eq(ofl_gro_create(&c, &R.g), OFL_EINVAL);
	/* VXLAN-GPE: version 8; a version 7 struct ends before its ports (not
	 * read: a bad count there is no error), its port is plain UDP then */
	tun_cfg(&c);
	c.vxlan_gpe_nports = OFL_GRO_TUN_PORTS_MAX + 1;
	c.deliver = deliver;
	ck_assert_int_eq(ofl_gro_create(&c, &R.g), OFL_EINVAL);
	c.vxlan_gpe_nports = 1;
	c.vxlan_gpe_ports[0] = 0;
	ck_assert_int_eq(ofl_gro_create(&c, &R.g), OFL_EINVAL);
	c.version = 7;
	c.vxlan_gpe_nports = OFL_GRO_TUN_PORTS_MAX + 1;
	ck_assert_str_eq(three_with(&c, GEN_TUN_VXLAN_GPE), "N,N,N");
	ck_assert_uint_eq(R.st.normal_why[OFL_GRO_NORMAL_NOT_TCP], 3);
	tun_cfg(&c);
	ck_assert_str_eq(three_with(&c, GEN_TUN_VXLAN_GPE), "3");
}
END_TEST

/* The delivered form of a merged VXLAN packet: outer and inner lengths, the
 * outer UDP checksum seed in PARTIAL mode, the offsets, the 10-byte virtio
 * header refused. */
static struct ofl_gro_out seen_out;
static uint8_t seen_hdr[512];
static uint8_t seen_lin[8192];
static uint8_t seen_full[8192];
static void keep_deliver(void *user, const struct ofl_gro_out *o, unsigned n)
{
	unsigned i;
	uint8_t vb[24];
	(void)user;
	for (i = 0; i < n; i++)
		if (o[i].seg_count > 1) {
			struct ofl_virtio_net_hdr vh;
			seen_out = o[i];
			memcpy(seen_hdr, o[i].hdr, o[i].hdr_len);
			ck_assert_int_eq(ofl_gro_linearize(&o[i], seen_lin, sizeof(seen_lin), OFL_CSUM_MODE_PARTIAL),
			                 (int)o[i].len);
			ck_assert_int_eq(ofl_gro_linearize(&o[i], seen_full, sizeof(seen_full), OFL_CSUM_MODE_FULL),
			                 (int)o[i].len);
			ck_assert_int_eq(ofl_gro_vnet_hdr(&o[i], 0, &vh), OFL_ENOTSUP);
			ck_assert_int_eq(ofl_gro_vnet_hdr_le(&o[i], 0, vb, 12), OFL_ENOTSUP);
			if (OFL_GRO_OUT_TUN_TYPE(o[i].flags) == OFL_GRO_TUN_GRE) /* no virtio form at all */
				ck_assert_int_eq(ofl_gro_vnet_hdr_le(&o[i], 0, vb, 24), OFL_ENOTSUP);
		}
}

/* Three 1000-byte segments of an IPv4 TCP flow through t into a context of
 * tun_cfg(), as the NIC says csum_status; the merged packet in seen_out
 * (hdr: seen_hdr). */
static void merge3(struct gen_tun *t, int csum_status)
{
	struct ofl_gro_config c;
	struct ofl_gro *g;
	struct gen_tcp in;
	static uint8_t inner[2048], f[3][2200]; /* held until delivered: one each */
	unsigned k;
	gen_tcp_init(&in, 4);
	in.payload_len = 1000;
	tun_cfg(&c);
	c.deliver = keep_deliver;
	ck_assert_int_eq(ofl_gro_create(&c, &g), 0);
	for (k = 0; k < 3; k++) {
		size_t il = gen_tcp_frame(&in, inner, sizeof(inner)), fl = gen_tun_wrap(t, inner, il, f[k], sizeof(f[k]));
		ck_assert_int_eq(h_receive1(g, f[k], fl, csum_status, 0), k ? OFL_GRO_MERGED : OFL_GRO_HELD);
		in.seq += 1000;
		in.ip_id++;
		t->ip_id++;
	}
	ofl_gro_flush(g);
	ofl_gro_destroy(g);
	ck_assert_uint_eq(seen_out.seg_count, 3);
	seen_out.hdr = seen_hdr;
}

/* ofl_gro_out_tunnel() of the merged packet (seen_out) finds a tunnel and
 * says *want, every field. */
static void tunnel_is(const struct ofl_gro_tunnel *want)
{
	struct ofl_gro_tunnel tt;
	ck_assert_int_eq(ofl_gro_out_tunnel(&seen_out, &tt), 1);
	ck_assert_msg(memcmp(&tt, want, sizeof(tt)) == 0,
	              "tunnel type %u, l3 %u in %u, udp csum %u, offsets %u %u %u %u %u %u", tt.type, tt.outer_l3,
	              tt.inner_l3, tt.outer_udp_csum, tt.outer_l3_off, tt.outer_l4_off, tt.tun_off, tt.inner_l2_off,
	              tt.inner_l3_off, tt.inner_l4_off);
}

START_TEST(delivered_form)
{
	struct gen_tun t;
	uint16_t seed;
	uint32_t s;
	gen_tun_init(&t, GEN_TUN_VXLAN, 4);
	t.udp_csum = true;
	merge3(&t, OFL_CSUM_UNNECESSARY);
	/* type, outer 4, inner 4, outer UDP checksum; outer IPv4 at 14, UDP at
	 * 34, VXLAN at 42, inner Ethernet at 50, IPv4 at 64, TCP at 84 */
	tunnel_is(&(const struct ofl_gro_tunnel){OFL_GRO_TUN_VXLAN, 4, 4, 1, 14, 34, 42, 50, 64, 84});
	ck_assert_uint_eq(seen_out.l3_off, 64);
	ck_assert_uint_eq(seen_out.csum_start, 84);
	ck_assert_uint_eq(seen_out.csum_offset, 16);
	ck_assert_uint_eq(seen_out.gso_type, OFL_GSO_TCPV4 | OFL_GSO_UDP_TUNNEL_CSUM);
	/* lengths: outer IP, UDP, inner IP */
	ck_assert_uint_eq((seen_hdr[16] << 8 | seen_hdr[17]), 20 + 8 + 8 + 14 + 20 + 20 + 3000);
	ck_assert_uint_eq((seen_hdr[38] << 8 | seen_hdr[39]), 8 + 8 + 14 + 20 + 20 + 3000);
	ck_assert_uint_eq((seen_hdr[66] << 8 | seen_hdr[67]), 20 + 20 + 3000);
	ck_assert_uint_eq(gen_csum_fold(seen_hdr + 14, 20, 0), 0xffff);
	ck_assert_uint_eq(gen_csum_fold(seen_hdr + 64, 20, 0), 0xffff);
	/* the outer UDP checksum field: the pseudo-header sum, not inverted */
	s = gen_csum_fold(seen_hdr + 26, 8, 0) + 17u + (8u + 8u + 14u + 20u + 20u + 3000u);
	seed = gen_csum_fold(NULL, 0, s);
	ck_assert_uint_eq((uint16_t)(seen_lin[40] << 8 | seen_lin[41]), seed);
}
END_TEST

/* The delivered form of a merged GRE packet with checksum and key over
 * IPv6, inner Ethernet: the offsets, gso_type GRE_CSUM, the GRE checksum
 * valid once the inner TCP one is (linearized FULL: the row checks cover
 * it; PARTIAL: the field already holds the final value), no virtio form. */
START_TEST(delivered_form_gre)
{
	struct gen_tun t;
	gen_tun_init(&t, GEN_TUN_GRE, 6);
	t.gre_flags = GEN_GRE_C | GEN_GRE_K;
	merge3(&t, OFL_CSUM_NONE);
	/* type, outer 6, inner 4, no UDP checksum; outer IPv6 at 14, GRE at 54
	 * (both outer_l4_off and tun_off), 12 bytes of it, inner Ethernet at
	 * 66, IPv4 at 80, TCP at 100 */
	tunnel_is(&(const struct ofl_gro_tunnel){OFL_GRO_TUN_GRE, 6, 4, 0, 14, 54, 54, 66, 80, 100});
	ck_assert_uint_eq(OFL_GRO_OUT_TUN_TYPE(seen_out.flags), OFL_GRO_TUN_GRE);
	ck_assert_uint_eq(seen_out.gso_type, OFL_GSO_TCPV4 | OFL_GSO_GRE_CSUM);
	/* outer IPv6 payload length; the key kept */
	ck_assert_uint_eq((seen_hdr[18] << 8 | seen_hdr[19]), 12 + 14 + 20 + 20 + 3000);
	ck_assert_uint_eq((uint32_t)seen_hdr[62] << 24 | (uint32_t)seen_hdr[63] << 16 | seen_hdr[64] << 8 | seen_hdr[65],
	                  42);
	ck_assert(gen_tun_csums_ok(seen_full, seen_out.len));
	/* the header's GRE checksum (PARTIAL form) is the final one */
	ck_assert(seen_hdr[58] == seen_full[58] && seen_hdr[59] == seen_full[59]);
}
END_TEST

/* Bad input: every cut of a VXLAN, a Geneve and a GRE frame (the frame shorter
 * than its headers say), passed on whole, nothing held; then a cut of the
 * first buffer only (header split at every byte) still merges. */
START_TEST(cut_every_byte)
{
	static uint8_t inner[2048], f[2200];
	struct gen_tcp in;
	struct gen_tun t;
	size_t il, fl;
	uint32_t cut;
	int type = _i == 0 ? GEN_TUN_VXLAN : _i == 1 ? GEN_TUN_GENEVE : GEN_TUN_GRE;
	gen_tcp_init(&in, 6);
	in.payload_len = 64;
	gen_tun_init(&t, type, 6);
	t.udp_csum = true;
	t.gnv_optlen = type == GEN_TUN_GENEVE ? 8 : 0;
	t.gre_flags = type == GEN_TUN_GRE ? GEN_GRE_C | GEN_GRE_K : 0;
	il = gen_tcp_frame(&in, inner, sizeof(inner));
	fl = gen_tun_wrap(&t, inner, il, f, sizeof(f));
	for (cut = 0; cut + 1 < fl; cut++) {
		run_start(0);
		feed(f, cut ? cut : 1, 0);
		ck_assert_str_eq(run_end(), "N");
	}
	/* header split at every byte: one buffer of cut bytes, then the rest */
	for (cut = 1; cut < fl; cut += getenv("OFL_TEST_CHECKER") ? 7u : 1u) {
		unsigned k;
		run_start(0);
		for (k = 0; k < 2; k++) {
			struct ofl_pkt pk;
			uint8_t *copy = malloc(fl);
			unsigned i = R.n;
			il = gen_tcp_frame(&in, inner, sizeof(inner));
			fl = gen_tun_wrap(&t, inner, il, copy, fl);
			R.in[i] = copy;
			R.len[i] = (uint32_t)fl;
			R.pl[i] = in.payload_len;
			R.n++;
			R.b[i][0] = (struct ofl_buf){copy, cut};
			R.b[i][1] = (struct ofl_buf){copy + cut, (uint32_t)fl - cut};
			memset(&pk, 0, sizeof(pk));
			pk.bufs = R.b[i];
			pk.nbufs = 2;
			pk.cookie = (void *)(uintptr_t)i;
			ofl_gro_receive(R.g, &pk, 0);
			in.seq += in.payload_len;
		}
		ck_assert_str_eq(run_end(), "2");
		in.seq = 100;
	}
}
END_TEST

int main(void)
{
	const struct h_test tests[] = {
		{rule_table, NVAR},
		{gpe_hdr, NVAR},
		{config_versions, 0},
		{delivered_form, 0},
		{delivered_form_gre, 0},
		{cut_every_byte, 3},
	};
	int rc = h_run_table("gro_tunnel", 60, 0, tests, sizeof(tests) / sizeof(tests[0]));
	unsigned i;
	for (i = 0; i < R.n; i++)
		free(R.in[i]);
	return rc;
}
