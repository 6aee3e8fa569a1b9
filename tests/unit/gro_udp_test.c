/*
 * gro_udp_test.c - the UDP GRO rules (ofl_gro_config.udp; src/gro/udp.c,
 * after Linux 6.18 udp_gro_receive_segment) as a table: for every rule a
 * sequence that merges and one that must not, IPv4 and IPv6, fed as single
 * buffers and split over several buffers, with software and NIC-verified
 * checksums (all results must be identical).  The harness checks
 * conservation and the cut-back of every merged packet (each piece is its
 * datagram's payload) and the checksum of every linearized merged packet.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ofl/gro.h>

#include "gen.h"
#include "harness.h"

static struct harness h;
static char got[8192];

/* _i = case variant: bit0 = IPv6, then 5 split modes, then software or
 * NIC-verified checksums */
#define L3(i) (((i) & 1) ? 6 : 4)
#define SPLIT(i) (((i) >> 1) % 5)
#define NICSUM(i) ((i) >= 10)
#define NVAR (2 * 5 * 2)

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

static void udp_init(struct gen_tcp *g, int l3)
{
	gen_tcp_init(g, l3);
	g->udp = true;
	g->sport = 4433;
	g->dport = 443;
}

/* n datagrams; seq names the payload bytes, the IPv4 ID increments */
static void send_n(struct gen_tcp *g, unsigned n)
{
	unsigned k;
	for (k = 0; k < n; k++) {
		h_rx_gen(&h, g, 0);
		g->seq += g->payload_len;
		g->ip_id++;
	}
}

static struct ofl_gro_stats stats(void)
{
	struct ofl_gro_stats st;
	ck_assert_int_eq(ofl_gro_get_stats(h.gro, &st, sizeof st), 0);
	return st;
}

#define EXPECT(s) ck_assert_str_eq(finish(), s)

START_TEST(merge_same_size)
{
	struct gen_tcp g;
	struct ofl_gro_stats st;
	udp_init(&g, L3(_i));
	start(_i);
	send_n(&g, 4);
	ck_assert_int_eq(h.last_result, OFL_GRO_MERGED);
	st = stats();
	ck_assert_uint_eq(st.merged, 3);
	ck_assert_uint_eq(st.merged_fast, 0); /* UDP takes the full path */
	ck_assert_uint_eq(st.csum_sw, NICSUM(_i) ? 0 : 4);
	EXPECT("400");
	ck_assert_uint_eq(h.out[0].seg_count, 4);
	ck_assert_uint_eq(h.out[0].seg_size, 100);
	ck_assert_uint_eq(h.out[0].gso_type, OFL_GSO_UDP_L4);
	ck_assert(h.out[0].flags & OFL_GRO_OUT_F_CSUM_PARTIAL);
	done();
}
END_TEST

START_TEST(off_by_default)
{
	struct gen_tcp g;
	struct ofl_gro_config c;
	struct ofl_gro_stats st;
	udp_init(&g, L3(_i));
	ofl_gro_config_default(&c);
	ck_assert_uint_eq(c.udp, 0);
	ck_assert_uint_eq(c.version, 3);
	start_cfg(_i, &c);
	send_n(&g, 3);
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	st = stats();
	ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_NOT_TCP], 3);
	EXPECT(""); /* (UDP payloads are listed only with cfg.udp) */
	ck_assert_uint_eq(h.nout, 3);
	done();
}
END_TEST

/* A version 2 struct ends before udp: whatever follows it, no UDP GRO. */
START_TEST(version2_config_no_udp)
{
	struct gen_tcp g;
	struct ofl_gro_config c;
	udp_init(&g, L3(_i));
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
	c.version = 4;
	c.udp_nports = 0;
	ck_assert_int_eq(ofl_gro_create(&c, &gro), OFL_EINVAL);
	ck_assert_str_eq(ofl_gro_flush_reason_name(OFL_GRO_FLUSH_UDP_CNT), "udp_cnt");
	ck_assert_str_eq(ofl_gro_normal_reason_name(OFL_GRO_NORMAL_UDP_CSUM), "udp_csum");
	ck_assert_str_eq(ofl_gro_normal_reason_name(OFL_GRO_NORMAL_UDP_ZERO_CSUM), "udp_zero_csum");
	ck_assert_str_eq(ofl_gro_normal_reason_name(OFL_GRO_NORMAL_UDP_LEN), "udp_len");
	ck_assert_str_eq(ofl_gro_normal_reason_name(OFL_GRO_NORMAL_UDP_PORT), "udp_port");
}
END_TEST

START_TEST(larger_starts_new_train)
{
	struct gen_tcp g;
	udp_init(&g, L3(_i));
	start(_i);
	g.payload_len = 50;
	send_n(&g, 1);
	g.payload_len = 100;
	send_n(&g, 1); /* larger than the first: completes it, held anew */
	ck_assert_int_eq(h.last_result, OFL_GRO_HELD);
	send_n(&g, 2);
	ck_assert_uint_eq(stats().flush[OFL_GRO_FLUSH_SIZE], 1);
	EXPECT("50,300");
	done();
}
END_TEST

START_TEST(shorter_merged_ends_train)
{
	struct gen_tcp g;
	struct ofl_gro_stats st;
	udp_init(&g, L3(_i));
	start(_i);
	send_n(&g, 2);
	g.payload_len = 40;
	send_n(&g, 1);
	ck_assert_int_eq(h.last_result, OFL_GRO_MERGED);
	st = stats();
	ck_assert_uint_eq(st.flows_held, 0); /* completed at once */
	ck_assert_uint_eq(st.flush[OFL_GRO_FLUSH_SHORT], 1);
	g.payload_len = 100;
	send_n(&g, 2);
	EXPECT("240,200");
	ck_assert_uint_eq(h.out[0].seg_size, 100);
	ck_assert_uint_eq(h.out[0].seg_count, 3);
	done();
}
END_TEST

/* UDP_GRO_CNT_MAX: the 64th datagram completes the train at once. */
START_TEST(sixty_four_datagrams)
{
	struct gen_tcp g;
	struct ofl_gro_stats st;
	udp_init(&g, L3(_i));
	start(_i);
	g.payload_len = 20;
	send_n(&g, 64);
	st = stats();
	ck_assert_uint_eq(st.flows_held, 0);
	ck_assert_uint_eq(st.flush[OFL_GRO_FLUSH_UDP_CNT], 1);
	send_n(&g, 6);
	EXPECT("1280,120");
	done();
}
END_TEST

/* At most 64 KiB of IP packet, whatever max_size (BIG TCP is TCP only). */
START_TEST(max_64k_whatever_max_size)
{
	struct gen_tcp g;
	struct ofl_gro_config c;
	unsigned big;
	for (big = 0; big < 2; big++) {
		udp_init(&g, L3(_i));
		udp_cfg(&c);
		if (big)
			c.max_size = OFL_GRO_MAX_SIZE_LIMIT;
		start_cfg(_i, &c);
		g.payload_len = 1400;
		/* 46 x 1400 + 8 + IP header fits in 65535, 47 do not */
		send_n(&g, 50);
		ck_assert_uint_eq(stats().flush[OFL_GRO_FLUSH_MAX_SIZE], 1);
		EXPECT("64400,5600");
		done();
	}
	/* a smaller max_size holds */
	udp_init(&g, L3(_i));
	udp_cfg(&c);
	c.max_size = 20000;
	start_cfg(_i, &c);
	g.payload_len = 1400;
	send_n(&g, 16);
	EXPECT("19600,2800");
	done();
}
END_TEST

START_TEST(max_segs_config)
{
	struct gen_tcp g;
	struct ofl_gro_config c;
	udp_init(&g, L3(_i));
	udp_cfg(&c);
	c.max_segs = 8;
	start_cfg(_i, &c);
	send_n(&g, 10);
	ck_assert_uint_eq(stats().flush[OFL_GRO_FLUSH_MAX_SEGS], 1);
	EXPECT("800,200");
	done();
}
END_TEST

/* A zero checksum (none sent) is never merged and goes up alone, after the
 * held train of its flow. */
START_TEST(zero_csum_alone)
{
	struct gen_tcp g;
	struct ofl_gro_stats st;
	udp_init(&g, L3(_i));
	start(_i);
	send_n(&g, 2);
	g.udp_zero_csum = true;
	send_n(&g, 1);
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	send_n(&g, 1); /* a zero-checksum flow is never held either */
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	g.udp_zero_csum = false;
	send_n(&g, 2);
	st = stats();
	ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_UDP_ZERO_CSUM], 2);
	ck_assert_uint_eq(st.flush[OFL_GRO_FLUSH_NOT_GRO], 1);
	EXPECT("200,100,100,200");
	done();
}
END_TEST

START_TEST(bad_csum_alone)
{
	struct gen_tcp g;
	struct ofl_gro_stats st;
	udp_init(&g, L3(_i));
	start(_i);
	send_n(&g, 2);
	g.bad_tcp_csum = true;
	send_n(&g, 1);
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	g.bad_tcp_csum = false;
	send_n(&g, 2);
	st = stats();
	ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_UDP_CSUM], 1);
	ck_assert_uint_eq(st.flush[OFL_GRO_FLUSH_CSUM], 1);
	EXPECT("200,100,200");
	done();
}
END_TEST

/* A UDP length <= 8, or other than the datagram's real length, is passed
 * on alone (the checksum is valid over the bytes sent). */
START_TEST(bad_udp_length_alone)
{
	static const int32_t delta[] = {-1, 1, -100};
	struct gen_tcp g;
	unsigned k;
	udp_init(&g, L3(_i));
	start(_i);
	for (k = 0; k < 3; k++) {
		send_n(&g, 2);
		g.udp_len_delta = delta[k]; /* -100: length field 8 */
		send_n(&g, 1);
		ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
		g.udp_len_delta = 0;
	}
	/* no payload at all: length 8 */
	send_n(&g, 1);
	g.payload_len = 0;
	send_n(&g, 1);
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	ck_assert_uint_eq(stats().normal_why[OFL_GRO_NORMAL_UDP_LEN], 4);
	ck_assert_uint_eq(stats().flush[OFL_GRO_FLUSH_NOT_GRO], 4);
	EXPECT("200,100,200,100,200,100,100,0");
	done();
}
END_TEST

START_TEST(ip_rules)
{
	struct gen_tcp g;
	struct ofl_gro_stats st;
	udp_init(&g, L3(_i));
	start(_i);
	send_n(&g, 2);
	g.ttl = 63; /* TTL / hop limit */
	send_n(&g, 2);
	g.tos = 4; /* TOS / traffic class */
	send_n(&g, 2);
	st = stats();
	ck_assert_uint_eq(st.flush[OFL_GRO_FLUSH_TTL_TOS_DF], 2);
	if (L3(_i) == 4) {
		g.df = false; /* DF */
		send_n(&g, 2);
		g.ip_id += 5; /* an ID jump */
		send_n(&g, 2);
		st = stats();
		ck_assert_uint_eq(st.flush[OFL_GRO_FLUSH_TTL_TOS_DF], 3);
		ck_assert_uint_eq(st.flush[OFL_GRO_FLUSH_IPID], 1);
		EXPECT("200,200,200,200,200");
	} else {
		g.flowlabel = 7; /* another flow */
		send_n(&g, 2);
		st = stats();
		ck_assert_uint_eq(st.flows_held, 2);
		EXPECT("200,200,200,200");
	}
	done();
}
END_TEST

/* A fixed IPv4 ID merges, with or without DF (as for TCP). */
START_TEST(ipv4_fixed_id)
{
	struct gen_tcp g;
	unsigned k;
	udp_init(&g, 4);
	start(_i);
	for (k = 0; k < 4; k++) {
		h_rx_gen(&h, &g, 0);
		g.seq += g.payload_len;
	}
	EXPECT("400");
	/* the kernel's UDP gso_type has no fixed-ID bit */
	ck_assert_uint_eq(h.out[0].gso_type, OFL_GSO_UDP_L4);
	done();
}
END_TEST

START_TEST(ports_addresses_vlan_are_flow)
{
	struct gen_tcp g;
	struct ofl_gro_stats st;
	udp_init(&g, L3(_i));
	start(_i);
	send_n(&g, 1);
	g.sport++;
	send_n(&g, 1);
	g.dport++;
	send_n(&g, 1);
	g.saddr[L3(_i) == 4 ? 3 : 15]++;
	send_n(&g, 1);
	g.nvlan = 1;
	g.vlan_tci[0] = 5;
	send_n(&g, 1);
	st = stats();
	ck_assert_uint_eq(st.flows_held, 5);
	ck_assert_uint_eq(st.merged, 0);
	g.vlan_tci[0] = 6;
	send_n(&g, 1);
	g.ip_id--; /* the IPv4 ID the VLAN 5 flow expects next */
	g.vlan_tci[0] = 5;
	send_n(&g, 1);
	ck_assert_int_eq(h.last_result, OFL_GRO_MERGED);
	EXPECT("100,100,100,100,200,100");
	done();
}
END_TEST

/* A TCP flow and a UDP flow of the same addresses and ports stay apart. */
START_TEST(tcp_and_udp_same_ports)
{
	struct gen_tcp u, t;
	unsigned k;
	udp_init(&u, L3(_i));
	gen_tcp_init(&t, L3(_i));
	t.sport = u.sport;
	t.dport = u.dport;
	start(_i);
	for (k = 0; k < 3; k++) {
		h_rx_gen(&h, &t, 0);
		t.seq += t.payload_len;
		t.ip_id++;
		send_n(&u, 1);
	}
	ck_assert_uint_eq(stats().flows_held, 2);
	ck_assert_uint_eq(stats().merged, 4);
	EXPECT("300,300");
	ck_assert_uint_eq(h.out[0].gso_type & (OFL_GSO_TCPV4 | OFL_GSO_TCPV6), L3(_i) == 4 ? OFL_GSO_TCPV4 : OFL_GSO_TCPV6);
	ck_assert_uint_eq(h.out[1].gso_type, OFL_GSO_UDP_L4);
	done();
}
END_TEST

START_TEST(no_merge_ports)
{
	struct gen_tcp g;
	struct ofl_gro_config c;
	udp_init(&g, L3(_i));
	udp_cfg(&c);
	c.udp_nports = 2;
	c.udp_no_merge_ports[0] = 4789;
	c.udp_no_merge_ports[1] = 443;
	start_cfg(_i, &c);
	send_n(&g, 3);
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	ck_assert_uint_eq(stats().normal_why[OFL_GRO_NORMAL_UDP_PORT], 3);
	g.dport = 444; /* not in the set; the source port does not count */
	g.sport = 4789;
	send_n(&g, 3);
	EXPECT("100,100,100,300");
	done();
}
END_TEST

/* Not for GRO at the IP layer: options, a first fragment, a bad header
 * checksum; the held train of the flow goes first. */
START_TEST(ip_not_for_gro)
{
	struct gen_tcp g;
	struct ofl_gro_stats st;
	udp_init(&g, 4);
	start(_i);
	send_n(&g, 2);
	g.ip_optlen = 4;
	g.ip_opts[0] = 1; /* NOPs */
	g.ip_opts[1] = 1;
	g.ip_opts[2] = 1;
	g.ip_opts[3] = 1;
	send_n(&g, 1);
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	g.ip_optlen = 0;
	send_n(&g, 2);
	g.bad_ip_csum = true;
	send_n(&g, 1);
	g.bad_ip_csum = false;
	send_n(&g, 2);
	g.frag = 0x2000; /* MF, offset 0: a first fragment */
	send_n(&g, 1);
	g.frag = 0;
	st = stats();
	ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_IP_OPTIONS], 1);
	ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_IP_CSUM], 1);
	ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_FRAGMENT], 1);
	ck_assert_uint_eq(st.flush[OFL_GRO_FLUSH_NOT_GRO], 3);
	/* the fragment is not UDP to the test's parser */
	EXPECT("200,100,200,100,200");
	done();
}
END_TEST

START_TEST(ipv6_ext_headers)
{
	struct gen_tcp g;
	struct ofl_gro_stats st;
	udp_init(&g, 6);
	g.ext_nh = 60; /* destination options, 8 bytes: next UDP, PadN */
	g.ext[0] = 17;
	g.ext[1] = 0;
	g.ext[2] = 1;
	g.ext[3] = 4;
	g.extlen = 8;
	start(_i);
	send_n(&g, 2);
	ck_assert_int_eq(h.last_result, OFL_GRO_MERGED);
	g.ext[7] = 1; /* other option bytes: another flow, as in the kernel */
	send_n(&g, 2);
	st = stats();
	ck_assert_uint_eq(st.flows_held, 2);
	EXPECT("200,200");
	done();
}
END_TEST

/* Ethernet padding (a minimum-size IPv4 frame): the kernel compares the
 * UDP length with the frame's; never merged, the held train goes first. */
START_TEST(padded_not_merged)
{
	struct gen_tcp g;
	struct ofl_gro_stats st;
	udp_init(&g, 4);
	start(_i);
	send_n(&g, 2);
	g.payload_len = 4;
	g.pad_to = 60;
	send_n(&g, 1);
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	send_n(&g, 1);
	st = stats();
	ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_PADDED], 2);
	ck_assert_uint_eq(st.flush[OFL_GRO_FLUSH_NOT_GRO], 1);
	ck_assert_uint_eq(st.padding_trimmed, 2);
	EXPECT("200,4,4");
	done();
}
END_TEST

START_TEST(truncated_udp_header)
{
	struct gen_tcp g;
	uint8_t f[200];
	size_t n;
	udp_init(&g, L3(_i));
	g.payload_len = 0;
	start(_i);
	n = gen_tcp_frame(&g, f, sizeof(f));
	/* the IP length says 4 bytes of UDP header */
	if (L3(_i) == 4) {
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
		udp_init(&g, L3(_i));
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
	udp_init(&g, L3(_i));
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
	tcase_add_loop_test(tc, merge_same_size, 0, NVAR);
	tcase_add_loop_test(tc, off_by_default, 0, NVAR);
	tcase_add_loop_test(tc, version2_config_no_udp, 0, 2);
	tcase_add_loop_test(tc, config_checked, 0, 1);
	tcase_add_loop_test(tc, larger_starts_new_train, 0, NVAR);
	tcase_add_loop_test(tc, shorter_merged_ends_train, 0, NVAR);
	tcase_add_loop_test(tc, sixty_four_datagrams, 0, NVAR);
	tcase_add_loop_test(tc, max_64k_whatever_max_size, 0, NVAR);
	tcase_add_loop_test(tc, max_segs_config, 0, NVAR);
	tcase_add_loop_test(tc, zero_csum_alone, 0, NVAR);
	tcase_add_loop_test(tc, bad_csum_alone, 0, NVAR);
	tcase_add_loop_test(tc, bad_udp_length_alone, 0, NVAR);
	tcase_add_loop_test(tc, ip_rules, 0, NVAR);
	tcase_add_loop_test(tc, ipv4_fixed_id, 0, NVAR);
	tcase_add_loop_test(tc, ports_addresses_vlan_are_flow, 0, NVAR);
	tcase_add_loop_test(tc, tcp_and_udp_same_ports, 0, NVAR);
	tcase_add_loop_test(tc, no_merge_ports, 0, NVAR);
	tcase_add_loop_test(tc, ip_not_for_gro, 0, NVAR);
	tcase_add_loop_test(tc, ipv6_ext_headers, 0, NVAR);
	tcase_add_loop_test(tc, padded_not_merged, 0, NVAR);
	tcase_add_loop_test(tc, truncated_udp_header, 0, NVAR);
	tcase_add_loop_test(tc, delivered_form, 0, 2);
	tcase_add_loop_test(tc, raw_ip_input, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return h_run_suite(suite());
}
