/*
 * gro_udp_test.c - the UDP GRO rules (ofl_gro_config.udp; src/gro/udp.c,
 * after Linux 6.18 udp_gro_receive_segment): the rule table of
 * gro_udp_rules.h (for every rule a sequence that merges and one that must
 * not), each rule played over IPv4 and IPv6, fed as single buffers and
 * split over several buffers, with software and NIC-verified checksums (all
 * results must be identical); then what the table cannot say (the switch
 * and its config, TCP and UDP of the same ports, a cut header, the
 * delivered form, raw-IP input).  The harness checks conservation and the
 * cut-back of every merged packet (each piece is its datagram's payload)
 * and the checksum of every linearized merged packet.
 *
 * One Check test per rule, its variants in a loop.  Under a memory checker
 * (OFL_TEST_CHECKER set, as by .ci/sanitize.sh and .ci/valgrind.sh) only
 * the split modes "none" and "four buffers" run (8 of the 20 variants).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ofl/gro.h>

#include "gen.h"
#include "gro_udp_rules.h"
#include "harness.h"

static struct harness h;
static char got[8192];

/* variant v: bit0 = IPv6, then 5 split modes, then software or
 * NIC-verified checksums */
#define L3(i) (((i) & 1) ? 6 : 4)
#define SPLIT(i) (((i) >> 1) % 5)
#define NICSUM(i) ((i) >= 10)
#define NVAR (2 * 5 * 2)

/* Variant v runs (l3: 4 or 6 only that family, 0 both). */
static int variant_runs(unsigned v, int l3)
{
	if (l3 && L3(v) != l3)
		return 0;
	return !getenv("OFL_TEST_CHECKER") || SPLIT(v) == H_SPLIT_NONE || SPLIT(v) == H_SPLIT_FOUR;
}

static void udp_cfg(struct ofl_gro_config *c)
{
	ofl_gro_config_default(c);
	c->udp = 1;
}

static void start_cfg(int i, const struct ofl_gro_config *cfg)
{
	h_init(&h, cfg, SPLIT(i));
	h.nic_csum = (uint8_t)NICSUM(i);
}

static void start(int i)
{
	struct ofl_gro_config c;
	udp_cfg(&c);
	start_cfg(i, &c);
}

static const char *finish(void)
{
	h_finish(&h);
	h_payloads(&h, got, sizeof(got));
	return got;
}

static void done(void) { h_free(&h); }

static void look_deliver(void *user, const struct ofl_gro_out *o, unsigned n);

/* n datagrams; seq names the payload bytes, the IPv4 ID increments */
static void send_n(struct gen_tcp *g, unsigned n)
{
	h_send(&h, g, n);
}

static struct ofl_gro_stats stats(void)
{
	return h_stats(&h);
}

#define EXPECT(s) ck_assert_str_eq(finish(), s)

/* Run f for every variant that runs (l3: one family, 0 both). */
static void each_variant(void (*f)(int v), int l3)
{
	unsigned v;
	for (v = 0; v < NVAR; v++)
		if (variant_runs(v, l3))
			f((int)v);
}

/* ---- the rule table ---------------------------------------------------- */

static int drv_send(void *u, const struct gen_tcp *g)
{
	(void)u;
	return h_rx_gen(&h, g, 0);
}

static struct ofl_gro_stats drv_stats(void *u)
{
	(void)u;
	return stats();
}

/* UR_CSUM: the checksum state of the next datagrams (-1: the variant's) */
static int variant_nic;
static void drv_csum(void *u, int status)
{
	(void)u;
	h.nic_csum = (uint8_t)(status < 0 ? variant_nic : 0);
	h.csum_status = (uint8_t)(status < 0 ? OFL_CSUM_NONE : status);
	h.complete_auto = 1;
}

static const struct ur_rule *rule_now;
static int rule_list; /* fraglist mode */

static void rule_variant(int v)
{
	const struct ur_rule *r = rule_now;
	struct ofl_gro_config c;
	const struct ur_driver d = {drv_send, drv_stats, !NICSUM(v), NULL, drv_csum};
	ur_config(r, &c);
	c.fraglist = (uint8_t)rule_list;
	start_cfg(v, &c);
	variant_nic = NICSUM(v);
	ur_run(r, L3(v), &d);
	finish();
	ck_assert_msg(strcmp(got, r->expect) == 0, "%s (variant %d): delivered %s, want %s", r->name, v,
	              got, r->expect);
	if (r->out0_segs) {
		ck_assert_uint_eq(h.out[0].seg_count, r->out0_segs);
		ck_assert_uint_eq(h.out[0].seg_size, r->out0_size);
		ck_assert_uint_eq(h.out[0].gso_type, OFL_GSO_UDP_L4 | (rule_list ? OFL_GSO_FRAGLIST : 0));
		ck_assert(h.out[0].flags & OFL_GRO_OUT_F_CSUM_PARTIAL);
	}
	done();
}

START_TEST(rule)
{
	rule_now = &ur_rules[_i];
	rule_list = 0;
	each_variant(rule_variant, rule_now->l3);
}
END_TEST

/* Fraglist mode: the table again, then the rules the mode adds. */
START_TEST(rule_fraglist)
{
	rule_now = _i < UR_NRULES ? &ur_rules[_i] : &ur_list_rules[_i - UR_NRULES];
	rule_list = 1;
	each_variant(rule_variant, rule_now->l3);
}
END_TEST

/* ---- what the table cannot say ----------------------------------------- */

static void off_by_default_v(int v)
{
	struct gen_tcp g;
	struct ofl_gro_config c;
	struct ofl_gro_stats st;
	ur_flow(&g, L3(v));
	ofl_gro_config_default(&c);
	ck_assert_uint_eq(c.udp, 0);
	ck_assert_uint_eq(c.version, OFL_GRO_CONFIG_VERSION);
	start_cfg(v, &c);
	send_n(&g, 3);
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	st = stats();
	ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_NOT_TCP], 3);
	EXPECT(""); /* (UDP payloads are listed only with cfg.udp) */
	ck_assert_uint_eq(h.nout, 3);
	done();
}

START_TEST(off_by_default)
{
	each_variant(off_by_default_v, 0);
}
END_TEST

/* A version 2 struct ends before udp: whatever follows it, no UDP GRO. */
START_TEST(version2_config_no_udp)
{
	struct gen_tcp g;
	struct ofl_gro_config c;
	ur_flow(&g, L3(_i));
	udp_cfg(&c);
	c.version = 2;
	start_cfg(_i, &c);
	send_n(&g, 3);
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	finish();
	ck_assert_uint_eq(h.nout, 3);
	done();
}
END_TEST

START_TEST(config_checked)
{
	struct ofl_gro_config c;
	struct ofl_gro *gro = NULL;
	(void)_i;
	udp_cfg(&c);
	c.deliver = look_deliver;
	c.udp = 2;
	ck_assert_int_eq(ofl_gro_create(&c, &gro), OFL_EINVAL);
	c.udp = 1;
	c.udp_nports = OFL_GRO_UDP_PORTS_MAX + 1;
	ck_assert_int_eq(ofl_gro_create(&c, &gro), OFL_EINVAL);
	c.version = OFL_GRO_CONFIG_VERSION + 1;
	c.udp_nports = 0;
	ck_assert_int_eq(ofl_gro_create(&c, &gro), OFL_EINVAL);
	ck_assert_str_eq(ofl_gro_flush_reason_name(OFL_GRO_FLUSH_UDP_CNT), "udp_cnt");
	ck_assert_str_eq(ofl_gro_normal_reason_name(OFL_GRO_NORMAL_UDP_CSUM), "udp_csum");
	ck_assert_str_eq(ofl_gro_normal_reason_name(OFL_GRO_NORMAL_UDP_ZERO_CSUM), "udp_zero_csum");
	ck_assert_str_eq(ofl_gro_normal_reason_name(OFL_GRO_NORMAL_UDP_LEN), "udp_len");
	ck_assert_str_eq(ofl_gro_normal_reason_name(OFL_GRO_NORMAL_UDP_PORT), "udp_port");
}
END_TEST

/* A TCP flow and a UDP flow of the same addresses and ports stay apart. */
static void tcp_and_udp_same_ports_v(int v)
{
	struct gen_tcp u, t;
	unsigned k;
	ur_flow(&u, L3(v));
	gen_tcp_init(&t, L3(v));
	t.sport = u.sport;
	t.dport = u.dport;
	start(v);
	for (k = 0; k < 3; k++) {
		h_rx_gen(&h, &t, 0);
		t.seq += t.payload_len;
		t.ip_id++;
		send_n(&u, 1);
	}
	ck_assert_uint_eq(stats().flows_held, 2);
	ck_assert_uint_eq(stats().merged, 4);
	EXPECT("300,300");
	ck_assert_uint_eq(h.out[0].gso_type & (OFL_GSO_TCPV4 | OFL_GSO_TCPV6), L3(v) == 4 ? OFL_GSO_TCPV4 : OFL_GSO_TCPV6);
	ck_assert_uint_eq(h.out[1].gso_type, OFL_GSO_UDP_L4);
	done();
}

START_TEST(tcp_and_udp_same_ports)
{
	each_variant(tcp_and_udp_same_ports_v, 0);
}
END_TEST

static void truncated_udp_header_v(int v)
{
	struct gen_tcp g;
	uint8_t f[200];
	size_t n;
	ur_flow(&g, L3(v));
	g.payload_len = 0;
	start(v);
	n = gen_tcp_frame(&g, f, sizeof(f));
	/* the IP length says 4 bytes of UDP header */
	if (L3(v) == 4) {
		f[17] = 24;
		f[24] = f[25] = 0;
		{
			uint32_t s = 0, k;
			for (k = 0; k < 20; k += 2)
				s += (uint32_t)(f[14 + k] << 8 | f[15 + k]);
			while (s >> 16)
				s = (s & 0xffff) + (s >> 16);
			f[24] = (uint8_t)(~s >> 8);
			f[25] = (uint8_t)~s;
		}
	} else {
		f[19] = 4;
	}
	h_rx(&h, f, n - 4, 0);
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	ck_assert_uint_eq(stats().normal_why[OFL_GRO_NORMAL_MALFORMED], 1);
	finish();
	done();
}

START_TEST(truncated_udp_header)
{
	each_variant(truncated_udp_header_v, 0);
}
END_TEST

/* What a merged packet looks like delivered: UDP length and checksum
 * fixed (linearized in both modes), the virtio_net_hdr of UDP_L4. */
static struct {
	int checked;
	uint8_t buf[70000];
} look;

static void look_deliver(void *user, const struct ofl_gro_out *o, unsigned n)
{
	unsigned i;
	(void)user;
	for (i = 0; i < n; i++) {
		struct ofl_virtio_net_hdr vh;
		uint8_t le[12];
		int len;
		const uint8_t *uh;
		if (o[i].seg_count < 2)
			continue;
		ck_assert_uint_eq(o[i].gso_type, OFL_GSO_UDP_L4);
		ck_assert_uint_eq(o[i].csum_offset, 6);
		ck_assert_uint_eq(o[i].csum_start, o[i].l4_off);
		ck_assert_int_eq(ofl_gro_vnet_hdr(&o[i], 14, &vh), 0);
		ck_assert_uint_eq(vh.gso_type, 5); /* VIRTIO_NET_HDR_GSO_UDP_L4 */
		ck_assert_uint_eq(vh.flags, 1);
		ck_assert_uint_eq(vh.gso_size, o[i].seg_size);
		ck_assert_uint_eq(vh.hdr_len, o[i].hdr_len - 14);
		ck_assert_uint_eq(vh.csum_start, o[i].l4_off - 14);
		ck_assert_uint_eq(vh.csum_offset, 6);
		ck_assert_int_eq(ofl_gro_vnet_hdr_le(&o[i], 0, le, 12), 12);
		ck_assert_uint_eq(le[1], 5);
		len = ofl_gro_linearize(&o[i], look.buf, sizeof(look.buf), OFL_CSUM_MODE_PARTIAL);
		ck_assert_int_eq(len, (int)o[i].len);
		uh = look.buf + o[i].l4_off;
		ck_assert_uint_eq((unsigned)(uh[4] << 8 | uh[5]), o[i].len - o[i].l4_off);
		len = ofl_gro_linearize(&o[i], look.buf, sizeof(look.buf), OFL_CSUM_MODE_FULL);
		ck_assert(gen_frame_csums_ok(look.buf, (size_t)len));
		ck_assert(uh[6] | uh[7]);
		look.checked++;
	}
}

START_TEST(delivered_form)
{
	struct gen_tcp g;
	struct ofl_gro_config c;
	struct ofl_gro *gro;
	uint8_t f[3][400];
	struct ofl_buf b[3];
	struct ofl_pkt p;
	unsigned k, salt;
	udp_cfg(&c);
	c.deliver = look_deliver;
	look.checked = 0;
	ck_assert_int_eq(ofl_gro_create(&c, &gro), 0);
	/* many payloads: some merged checksum must fold to 0 and be sent as
	 * 0xffff somewhere among them (checked valid either way) */
	for (salt = 0; salt < 64; salt++) {
		ur_flow(&g, L3(_i));
		g.flow_salt = salt;
		g.payload_len = 200 + salt;
		for (k = 0; k < 3; k++) {
			size_t n = gen_tcp_frame(&g, f[k], sizeof(f[k]));
			b[k] = (struct ofl_buf){f[k], (uint32_t)n};
			memset(&p, 0, sizeof(p));
			p.bufs = &b[k];
			p.nbufs = 1;
			ck_assert_int_ge(ofl_gro_receive(gro, &p, 0), 0);
			g.seq += g.payload_len;
			g.ip_id++;
		}
		ck_assert_int_eq(ofl_gro_flush(gro), 0);
	}
	ofl_gro_destroy(gro);
	ck_assert_int_eq(look.checked, 64);
}
END_TEST

/* UDP GRO with raw-IP input (l2 OFL_L2_NONE) merges the same way. */
static unsigned raw_segs, raw_outs;
static void raw_deliver(void *user, const struct ofl_gro_out *o, unsigned n)
{
	unsigned i;
	(void)user;
	for (i = 0; i < n; i++) {
		raw_outs++;
		raw_segs += o[i].seg_count;
		if (o[i].seg_count > 1) {
			ck_assert_uint_eq(o[i].gso_type, OFL_GSO_UDP_L4);
			ck_assert_uint_eq(o[i].l3_off, 0);
		}
	}
}

START_TEST(raw_ip_input)
{
	struct gen_tcp g;
	struct ofl_gro_config c;
	struct ofl_gro *gro;
	uint8_t f[4][300];
	struct ofl_buf b[4];
	struct ofl_pkt p;
	unsigned k;
	udp_cfg(&c);
	c.l2 = OFL_L2_NONE;
	c.deliver = raw_deliver;
	raw_segs = raw_outs = 0;
	ck_assert_int_eq(ofl_gro_create(&c, &gro), 0);
	ur_flow(&g, L3(_i));
	for (k = 0; k < 4; k++) {
		size_t n = gen_tcp_frame(&g, f[k], sizeof(f[k]));
		b[k] = (struct ofl_buf){f[k] + 14, (uint32_t)(n - 14)};
		memset(&p, 0, sizeof(p));
		p.bufs = &b[k];
		p.nbufs = 1;
		ck_assert_int_eq(ofl_gro_receive(gro, &p, 0), k ? OFL_GRO_MERGED : OFL_GRO_HELD);
		g.seq += g.payload_len;
		g.ip_id++;
	}
	ofl_gro_destroy(gro);
	ck_assert_uint_eq(raw_outs, 1);
	ck_assert_uint_eq(raw_segs, 4);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gro_udp");
	TCase *tc = tcase_create("udp");
	tcase_add_loop_test(tc, rule, 0, UR_NRULES);
	tcase_add_loop_test(tc, rule_fraglist, 0, UR_NRULES + UR_NLIST);
	tcase_add_test(tc, off_by_default);
	tcase_add_loop_test(tc, version2_config_no_udp, 0, 2);
	tcase_add_loop_test(tc, config_checked, 0, 1);
	tcase_add_test(tc, tcp_and_udp_same_ports);
	tcase_add_test(tc, truncated_udp_header);
	tcase_add_loop_test(tc, delivered_form, 0, 2);
	tcase_add_loop_test(tc, raw_ip_input, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return h_run_suite(suite());
}
