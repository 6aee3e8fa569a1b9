/*
 * gro_rules_test.c - every GRO merge/flush rule with a sequence that merges
 * and one that must not, for IPv4 and IPv6, fed as single buffers and split
 * over several buffers (all results must be identical).  The harness checks
 * conservation and cut-back of every merged packet in every case.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ofl/csum.h>

#include "gen.h"
#include "harness.h"

static struct harness h;
static char got[4096];

/* _i = case variant: bit0 = IPv6, then 5 split modes, then software or
 * NIC-verified checksums (the latter takes the header-prediction path) */
#define L3(i) (((i) & 1) ? 6 : 4)
#define SPLIT(i) (((i) >> 1) % 5)
#define NICSUM(i) ((i) >= 10)
#define NVAR (2 * 5 * 2)

static void start(int i, const struct ofl_gro_config *cfg)
{
	h_init(&h, cfg, SPLIT(i));
	h.nic_csum = (uint8_t)NICSUM(i);
}

static const char *finish(void)
{
	h_finish(&h);
	h_payloads(&h, got, sizeof(got));
	return got;
}

static void done(void) { h_free(&h); }

static void seq_send(struct gen_tcp *g, unsigned n)
{
	unsigned k;
	for (k = 0; k < n; k++) {
		h_rx_gen(&h, g, 0);
		g->seq += g->payload_len;
		g->ip_id++;
	}
}

/* Flow f of a test's flows (source port 1000 + f): n segments from
 * sequence number 100. */
static void flow_send(struct gen_tcp *g, unsigned f, unsigned n)
{
	g->sport = (uint16_t)(1000 + f);
	g->flow_salt = f;
	g->seq = 100;
	seq_send(g, n);
}

static struct ofl_gro_stats stats(void)
{
	struct ofl_gro_stats st;
	ofl_gro_get_stats(h.gro, &st, sizeof st);
	return st;
}

#define EXPECT(s) ck_assert_str_eq(finish(), s)

/* The usual start: g the flow of the variant, a context of cfg (NULL: the
 * default configuration). */
static void begin_cfg(struct gen_tcp *g, int i, const struct ofl_gro_config *cfg)
{
	gen_tcp_init(g, L3(i));
	start(i, cfg);
}

static void begin(struct gen_tcp *g, int i)
{
	begin_cfg(g, i, NULL);
}

/* The frame just sent went up unmerged for reason why, after the held
 * packet of its flow was completed with flush reason fl (per-flow order). */
static void passed_on(unsigned why, unsigned fl)
{
	struct ofl_gro_stats st = stats();
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	ck_assert_uint_eq(st.normal_why[why], 1);
	ck_assert_uint_eq(st.flows_held, 0);
	ck_assert_uint_eq(st.flush[fl], 1);
}

/* The usual end: n flushes for reason why, the payloads delivered. */
static void end_flushed(unsigned why, uint64_t n, const char *payloads)
{
	ck_assert_uint_eq(stats().flush[why], n);
	EXPECT(payloads);
	done();
}

START_TEST(merge_same)
{
	struct gen_tcp g;
	begin(&g, _i);
	seq_send(&g, 4);
	ck_assert_int_eq(h.last_result, OFL_GRO_MERGED);
	{
		/* single-buffer NIC-verified segments take header prediction */
		struct ofl_gro_stats st;
		st = stats();
		ck_assert_uint_eq(st.merged, 3);
		/* ... also header-split ones (headers alone in the first buffer) */
		ck_assert_uint_eq(st.merged_fast,
		                  NICSUM(_i) && (SPLIT(_i) == H_SPLIT_NONE || SPLIT(_i) == H_SPLIT_HDR) ? 3 : 0);
	}
	EXPECT("400");
	ck_assert_uint_eq(h.out[0].seg_count, 4);
	ck_assert_uint_eq(h.out[0].seg_size, 100);
	ck_assert_uint_eq(h.out[0].gso_type & (OFL_GSO_TCPV4 | OFL_GSO_TCPV6),
	                  L3(_i) == 4 ? OFL_GSO_TCPV4 : OFL_GSO_TCPV6);
	done();
}
END_TEST

START_TEST(window_change)
{
	struct gen_tcp g;
	begin(&g, _i);
	seq_send(&g, 2);
	g.window = 1000;
	seq_send(&g, 2);
	end_flushed(OFL_GRO_FLUSH_FLAGS, 1, "200,200");
}
END_TEST

START_TEST(ack_change)
{
	struct gen_tcp g;
	begin(&g, _i);
	seq_send(&g, 2);
	g.ack += 1;
	seq_send(&g, 2);
	end_flushed(OFL_GRO_FLUSH_ACK, 1, "200,200");
}
END_TEST

START_TEST(options)
{
	struct gen_tcp g;
	begin(&g, _i);
	gen_opt_ts(&g, 5, 7);
	seq_send(&g, 3); /* same options merge */
	g.optlen = 0;
	gen_opt_ts(&g, 6, 7); /* timestamp value changed */
	seq_send(&g, 1);
	end_flushed(OFL_GRO_FLUSH_OPTIONS, 1, "300,100");
}
END_TEST

START_TEST(seq_gap_and_reorder)
{
	struct gen_tcp g;
	begin(&g, _i);
	seq_send(&g, 2);
	g.seq += 1; /* gap */
	seq_send(&g, 1);
	g.seq -= 300; /* back in time */
	seq_send(&g, 1);
	end_flushed(OFL_GRO_FLUSH_SEQ, 2, "200,100,100");
}
END_TEST

START_TEST(larger_than_first)
{
	struct gen_tcp g;
	begin(&g, _i);
	g.payload_len = 50;
	seq_send(&g, 1);
	g.payload_len = 100;
	seq_send(&g, 2);
	EXPECT("50,200");
	done();
}
END_TEST

START_TEST(short_ends_train)
{
	struct gen_tcp g;
	struct ofl_gro_stats st;
	begin(&g, _i);
	seq_send(&g, 2);
	g.payload_len = 40;
	seq_send(&g, 1); /* merged, then completed at once */
	st = stats();
	ck_assert_uint_eq(st.flows_held, 0);
	g.payload_len = 100;
	seq_send(&g, 1);
	st = stats();
	ck_assert_uint_eq(st.flush[OFL_GRO_FLUSH_SHORT], 1);
	EXPECT("240,100");
	done();
}
END_TEST

START_TEST(psh_ends_and_first_psh_not_held)
{
	struct gen_tcp g;
	struct ofl_gro_stats st;
	begin(&g, _i);
	g.flags = GEN_ACK | GEN_PSH;
	seq_send(&g, 1);
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	g.flags = GEN_ACK;
	seq_send(&g, 2);
	g.flags = GEN_ACK | GEN_PSH;
	seq_send(&g, 1);
	ck_assert_int_eq(h.last_result, OFL_GRO_MERGED);
	st = stats(); /* completed without waiting for a flush */
	ck_assert_uint_eq(st.flows_held, 0);
	ck_assert_uint_eq(st.flush[OFL_GRO_FLUSH_PSH], 1);
	EXPECT("100,300");
	/* PSH of the last segment is kept on the merged header */
	ck_assert_uint_eq(h.out[1].frame[h.out[1].len - 300 - 20 + 13] & GEN_PSH, GEN_PSH);
	done();
}
END_TEST

START_TEST(fin_urg_rst_syn)
{
	static const uint8_t fl[4] = {GEN_FIN, GEN_URG, GEN_RST, GEN_SYN};
	unsigned k;
	for (k = 0; k < 4; k++) {
		struct gen_tcp g;
		begin(&g, _i);
		seq_send(&g, 2);
		g.flags = GEN_ACK | fl[k];
		seq_send(&g, 1);
		g.flags = GEN_ACK;
		seq_send(&g, 2);
		/* FIN merges into the train and ends it; URG/RST/SYN change the
		 * flag word and so flush it and go up alone */
		EXPECT(k == 0 ? "300,200" : "200,100,200");
		done();
	}
}
END_TEST

START_TEST(zero_payload_never_held)
{
	struct gen_tcp g;
	begin(&g, _i);
	g.payload_len = 0;
	seq_send(&g, 1);
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	seq_send(&g, 1);
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	g.payload_len = 100;
	seq_send(&g, 2);
	g.payload_len = 0; /* a duplicate ACK of the held flow flushes it first */
	seq_send(&g, 1);
	EXPECT("0,0,200,0");
	done();
}
END_TEST

START_TEST(ttl_tos_df_hop_tc)
{
	unsigned k;
	for (k = 0; k < 3; k++) {
		struct gen_tcp g;
		struct ofl_gro_stats st;
		begin(&g, _i);
		seq_send(&g, 2);
		if (k == 0)
			g.ttl--;
		else if (k == 1)
			g.tos = 0x02; /* ECN bits */
		else if (L3(_i) == 4)
			g.df = false;
		else
			g.tos = 0x10;
		seq_send(&g, 2);
		st = stats();
		ck_assert_uint_eq(st.flush[OFL_GRO_FLUSH_TTL_TOS_DF], 1);
		EXPECT("200,200");
		done();
	}
}
END_TEST

static void id_seq(int i, const uint16_t *ids, unsigned n, int df, const char *want)
{
	struct gen_tcp g;
	unsigned k;
	gen_tcp_init(&g, 4);
	g.df = df;
	start(i, NULL);
	for (k = 0; k < n; k++) {
		g.ip_id = ids[k];
		h_rx_gen(&h, &g, 0);
		g.seq += g.payload_len;
	}
	EXPECT(want);
	done();
}

START_TEST(ip_id_rules)
{
	static const uint16_t inc[] = {8, 9, 10}, fixed[] = {8, 8, 8}, incfix[] = {8, 9, 9},
	                      fixinc[] = {8, 8, 9}, wrap[] = {0xffff, 0, 1}, jump[] = {8, 10};
	id_seq(_i, inc, 3, 1, "300");
	id_seq(_i, fixed, 3, 1, "300");
	id_seq(_i, inc, 3, 0, "300");
	id_seq(_i, fixed, 3, 0, "300"); /* 2025 rule: fixed IDs merge with DF clear too */
	id_seq(_i, incfix, 3, 1, "200,100");
	id_seq(_i, fixinc, 3, 1, "200,100");
	id_seq(_i, wrap, 3, 1, "300");
	id_seq(_i, jump, 2, 1, "100,100");
}
END_TEST

START_TEST(fixed_id_gso_flag)
{
	struct gen_tcp g;
	gen_tcp_init(&g, 4);
	start(_i, NULL);
	h_rx_gen(&h, &g, 0);
	g.seq += 100;
	h_rx_gen(&h, &g, 0);
	EXPECT("200");
	ck_assert_uint_eq(h.out[0].gso_type, OFL_GSO_TCPV4 | OFL_GSO_TCP_FIXEDID);
	done();
}
END_TEST

START_TEST(ipv4_not_for_gro)
{
	unsigned k;
	for (k = 0; k < 4; k++) {
		struct gen_tcp g;
		static const unsigned why[4] = {OFL_GRO_NORMAL_IP_OPTIONS, OFL_GRO_NORMAL_FRAGMENT,
		                                OFL_GRO_NORMAL_IP_CSUM, OFL_GRO_NORMAL_TCP_CSUM};
		gen_tcp_init(&g, 4);
		start(_i, NULL);
		seq_send(&g, 2);
		if (k == 0) {
			g.ip_optlen = 4;
			g.ip_opts[0] = 1; /* NOPs */
			g.ip_opts[1] = 1;
			g.ip_opts[2] = 1;
			g.ip_opts[3] = 0;
		} else if (k == 1) {
			g.frag = 0x2000; /* MF */
		} else if (k == 2) {
			g.bad_ip_csum = true;
		} else {
			g.bad_tcp_csum = true;
		}
		seq_send(&g, 1);
		passed_on(why[k], k == 3 ? OFL_GRO_FLUSH_CSUM : OFL_GRO_FLUSH_NOT_GRO);
		memset(&g.ip_opts, 0, sizeof(g.ip_opts));
		g.ip_optlen = 0;
		g.frag = 0;
		g.bad_ip_csum = g.bad_tcp_csum = false;
		seq_send(&g, 2);
		/* the test's own parser does not count a fragment as TCP */
		EXPECT(k == 1 ? "200,200" : "200,100,200");
		ck_assert_uint_eq(h.out[0].seg_count, 2);
		ck_assert_uint_eq(h.out[1].seg_count, 0);
		done();
	}
}
END_TEST

START_TEST(ipv6_ext_headers)
{
	struct gen_tcp g;
	struct ofl_gro_stats st;
	gen_tcp_init(&g, 6);
	g.ext_nh = 60; /* destination options, 8 bytes: next TCP, PadN */
	g.ext[0] = 6;
	g.ext[1] = 0;
	g.ext[2] = 1;
	g.ext[3] = 4;
	g.extlen = 8;
	start(_i, NULL);
	seq_send(&g, 2);
	g.ext[7] = 1; /* different option bytes */
	seq_send(&g, 2);
	st = stats();
	/* different extension headers are another flow, as in the kernel */
	ck_assert_uint_eq(st.flows_held, 2);
	/* fragment header: never merged */
	g.ext_nh = 44;
	g.ext[0] = 6;
	memset(g.ext + 1, 0, 7);
	seq_send(&g, 1);
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	st = stats();
	ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_FRAGMENT], 1);
	EXPECT("200,200"); /* the fragment is not TCP to the test's parser */
	done();
}
END_TEST

START_TEST(vlan_tags)
{
	struct gen_tcp g;
	struct ofl_gro_stats st;
	begin(&g, _i);
	g.nvlan = 2;
	g.vlan_tpid[0] = 0x88a8;
	g.vlan_tci[0] = 100;
	g.vlan_tpid[1] = 0x8100;
	g.vlan_tci[1] = 5;
	seq_send(&g, 2);
	g.vlan_tci[1] = 6; /* another VLAN: another flow, both held */
	g.flow_salt = 1;
	g.seq = 100;
	seq_send(&g, 2);
	g.nvlan = 3;
	g.vlan_tpid[2] = 0x8100;
	seq_send(&g, 1);
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	st = stats();
	ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_VLAN_DEPTH], 1);
	ck_assert_uint_eq(st.flows_held, 2);
	EXPECT("100,200,200");
	done();
}
END_TEST

START_TEST(mac_is_flow)
{
	struct gen_tcp g;
	begin(&g, _i);
	seq_send(&g, 1);
	g.src_mac[5] = 9;
	seq_send(&g, 1);
	EXPECT("100,100");
	done();
}
END_TEST

/* The kernel's length rule (inet_gro_receive / ipv6_gro_receive compare the
 * IP length with the frame's; kernel fixtures pad_*, len_*): a segment whose
 * IP packet is shorter than its frame is not merged and the held packet of
 * its flow goes first.  IPv4: Ethernet padding of a minimum-size frame
 * (normal reason "padded"); IPv6 frames are never padded, its twin is bytes
 * after the payload (malformed). */
START_TEST(padded_segment_not_merged)
{
	struct gen_tcp g;
	begin(&g, _i);
	seq_send(&g, 2);
	if (L3(_i) == 4) {
		g.payload_len = 1;
		g.pad_to = 60; /* 5 bytes of padding */
	} else {
		g.pad_to = (uint32_t)gen_tcp_len(&g) + 4;
	}
	seq_send(&g, 1);
	passed_on(L3(_i) == 4 ? OFL_GRO_NORMAL_PADDED : OFL_GRO_NORMAL_MALFORMED, OFL_GRO_FLUSH_NOT_GRO);
	ck_assert_uint_eq(stats().padding_trimmed, L3(_i) == 4 ? 1 : 0);
	g.payload_len = 100;
	g.pad_to = 0;
	seq_send(&g, 2); /* the flow goes on in a new packet */
	EXPECT(L3(_i) == 4 ? "200,1,200" : "200,100,200");
	ck_assert_uint_eq(h.out[1].seg_count, 0); /* passed on untouched (the harness compares bytes) */
	done();
}
END_TEST

START_TEST(padded_frames_never_merge)
{
	struct gen_tcp g;
	struct ofl_gro_stats st;
	begin(&g, _i);
	/* minimum-size frames: IPv4 with 6 payload bytes needs no padding and
	 * merges; with 5 (one byte of padding) nothing merges.  IPv6: 5 bytes
	 * make a 79-byte frame, no padding, merged. */
	g.payload_len = 6;
	seq_send(&g, 3);
	g.payload_len = 5;
	g.pad_to = 60;
	g.flow_salt = 1;
	g.sport = 2000;
	seq_send(&g, 3);
	st = stats();
	ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_PADDED], L3(_i) == 4 ? 3 : 0);
	/* IPv4: the padded frames of the second flow go out at once, the
	 * first flow's packet at the end */
	EXPECT(L3(_i) == 4 ? "5,5,5,18" : "18,15");
	done();
}
END_TEST

START_TEST(ip_length_past_frame)
{
	struct gen_tcp g;
	begin(&g, _i);
	seq_send(&g, 2);
	g.ip_len_delta = 8; /* the IP length claims 8 bytes the frame lacks */
	seq_send(&g, 1);
	passed_on(OFL_GRO_NORMAL_MALFORMED, OFL_GRO_FLUSH_NOT_GRO);
	g.ip_len_delta = 0;
	seq_send(&g, 2);
	EXPECT("200,200"); /* the malformed frame is not TCP to the test's parser */
	ck_assert_uint_eq(h.nout, 3);
	ck_assert_uint_eq(h.out[1].seg_count, 0);
	done();
}
END_TEST

START_TEST(trailing_garbage_not_merged)
{
	struct gen_tcp g;
	begin(&g, _i);
	seq_send(&g, 1);
	g.pad_to = (uint32_t)gen_tcp_len(&g) + 8; /* not a minimum-size frame */
	seq_send(&g, 1);
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	EXPECT("100,100");
	done();
}
END_TEST

START_TEST(max_size_default)
{
	struct gen_tcp g;
	unsigned hl = L3(_i) == 4 ? 40 : 60, mss = 1448, n = (65535 - hl) / mss;
	char want[64];
	begin(&g, _i);
	g.payload_len = mss;
	seq_send(&g, n + 1);
	snprintf(want, sizeof(want), "%u,%u", n * mss, mss);
	EXPECT(want);
	ck_assert_uint_le(h.out[0].len - 14, 65535);
	done();
}
END_TEST

START_TEST(big_tcp)
{
	struct gen_tcp g;
	struct ofl_gro_config cfg;
	uint8_t *f;
	ofl_gro_config_default(&cfg);
	cfg.max_size = 200000;
	begin_cfg(&g, _i, &cfg);
	g.payload_len = 9000;
	seq_send(&g, 20);
	EXPECT("180000");
	f = h.out[0].frame;
	/* IPv4 total length / IPv6 payload length 0 above 64 KiB */
	if (L3(_i) == 4)
		ck_assert_uint_eq(f[16] << 8 | f[17], 0);
	else
		ck_assert_uint_eq(f[18] << 8 | f[19], 0);
	done();
}
END_TEST

START_TEST(max_segs)
{
	struct gen_tcp g;
	struct ofl_gro_config cfg;
	ofl_gro_config_default(&cfg);
	cfg.max_segs = 3;
	begin_cfg(&g, _i, &cfg);
	seq_send(&g, 7);
	end_flushed(OFL_GRO_FLUSH_MAX_SEGS, 2, "300,300,100");
}
END_TEST

START_TEST(table_full_flushes_oldest)
{
	struct gen_tcp g;
	struct ofl_gro_config cfg;
	struct ofl_gro_stats st;
	unsigned f;
	ofl_gro_config_default(&cfg);
	cfg.max_flows = 2;
	begin_cfg(&g, _i, &cfg);
	for (f = 0; f < 3; f++) {
		flow_send(&g, f, 2);
	}
	st = stats();
	ck_assert_uint_eq(st.flush[OFL_GRO_FLUSH_TABLE_FULL], 1);
	ck_assert_uint_eq(st.flows_held, 2);
	EXPECT("200,200,200");
	done();
}
END_TEST

START_TEST(held_bytes_limit)
{
	struct gen_tcp g;
	struct ofl_gro_config cfg;
	struct ofl_gro_stats st;
	unsigned f;
	ofl_gro_config_default(&cfg);
	cfg.max_held_bytes = 450;
	begin_cfg(&g, _i, &cfg);
	for (f = 0; f < 3; f++) {
		flow_send(&g, f, 2);
		st = stats();
		ck_assert_uint_le(st.bytes_held, 450);
	}
	ck_assert_uint_ge(st.flush[OFL_GRO_FLUSH_TABLE_FULL], 1);
	/* a first segment larger than the whole budget is never held */
	g.sport = 3000;
	g.payload_len = 500;
	seq_send(&g, 1);
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	st = stats();
	ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_OVER_LIMIT], 1);
	ck_assert_uint_le(st.bytes_held, 450);
	finish();
	done();
}
END_TEST

START_TEST(csum_complete)
{
	/* CHECKSUM_COMPLETE: the NIC's sum of everything after the Ethernet
	 * header; a wrong sum makes the segment NORMAL. */
	struct gen_tcp g;
	uint8_t f[2000];
	unsigned k;
	gen_tcp_init(&g, L3(_i));
	g.nvlan = 1;
	g.vlan_tci[0] = 7;
	start(_i & ~1, NULL);
	h.csum_status = OFL_CSUM_COMPLETE;
	for (k = 0; k < 4; k++) {
		size_t n = gen_tcp_frame(&g, f, sizeof(f));
		uint16_t s = (uint16_t)~ofl_csum_fold(ofl_csum_partial(f + 14, n - 14, 0));
		if (k == 2)
			s ^= 0x0100;
		/* feed through the harness, with the hardware sum */
		{
			unsigned i = h.nin;
			struct ofl_pkt pk;
			uint8_t *copy = malloc(n);
			memcpy(copy, f, n);
			h.in[i] = copy;
			h.in_len[i] = (uint32_t)n;
			h.bufs[i][0] = (struct ofl_buf){copy, (uint32_t)n};
			h.nbufs[i] = 1;
			memset(&pk, 0, sizeof(pk));
			pk.bufs = h.bufs[i];
			pk.nbufs = 1;
			pk.csum_status = OFL_CSUM_COMPLETE;
			pk.csum = s;
			pk.cookie = (void *)(uintptr_t)i;
			h.nin++;
			h.last_result = ofl_gro_receive(h.gro, &pk, 0);
		}
		ck_assert_int_eq(h.last_result, k == 0 ? OFL_GRO_HELD : k == 2 ? OFL_GRO_NORMAL
		                                         : k == 1 ? OFL_GRO_MERGED : OFL_GRO_HELD);
		g.seq += 100;
	}
	EXPECT("200,100,100");
	done();
}
END_TEST

START_TEST(hw_verified_skips_software)
{
	struct gen_tcp g;
	struct ofl_gro_stats st;
	begin(&g, _i);
	h.nic_csum = 0;
	h.csum_status = OFL_CSUM_UNNECESSARY;
	g.bad_tcp_csum = true; /* the NIC said it was good: it is not checked */
	seq_send(&g, 2);
	st = stats();
	ck_assert_uint_eq(st.merged, 1);
	EXPECT("200");
	ck_assert_uint_eq(h.out[0].seg_count, 2);
	done();
}
END_TEST

START_TEST(api_errors)
{
	struct ofl_gro_config cfg;
	struct ofl_gro *gro = NULL;
	struct ofl_gro_stats st;
	struct ofl_buf b[20];
	struct ofl_pkt p;
	ofl_gro_config_default(&cfg);
	ck_assert_int_eq(ofl_gro_create(&cfg, &gro), OFL_EINVAL); /* no deliver */
	ck_assert_int_eq(ofl_gro_create(NULL, &gro), OFL_EINVAL);
	ck_assert_int_eq(ofl_gro_config_default(NULL), OFL_EINVAL);
	start(0, NULL);
	memset(&p, 0, sizeof(p));
	memset(b, 0, sizeof(b));
	ck_assert_int_eq(ofl_gro_receive(h.gro, NULL, 0), OFL_EINVAL);
	ck_assert_int_eq(ofl_gro_receive(NULL, &p, 0), OFL_EINVAL);
	p.bufs = b;
	ck_assert_int_eq(ofl_gro_receive(h.gro, &p, 0), OFL_EINVAL); /* nbufs 0 */
	p.nbufs = 18;
	ck_assert_int_eq(ofl_gro_receive(h.gro, &p, 0), OFL_E2BIG);
	p.nbufs = 1;
	b[0].len = 10; /* NULL data with a length */
	ck_assert_int_eq(ofl_gro_receive(h.gro, &p, 0), OFL_EINVAL);
	st = stats();
	ck_assert_uint_eq(st.api_errors, 4);
	ck_assert_uint_eq(st.rx_pkts, 0);
	ck_assert_int_eq(ofl_gro_flush(NULL), OFL_EINVAL);
	ck_assert_int_eq(ofl_gro_get_stats(NULL, &st, sizeof st), OFL_EINVAL);
	ofl_gro_destroy(NULL);
	finish();
	done();
}
END_TEST

H_MAIN("gro_rules", 0, 0, {merge_same, NVAR}, {window_change, NVAR}, {ack_change, NVAR},
	{options, NVAR}, {seq_gap_and_reorder, NVAR}, {larger_than_first, NVAR},
	{short_ends_train, NVAR}, {psh_ends_and_first_psh_not_held, NVAR}, {fin_urg_rst_syn, NVAR},
	{zero_payload_never_held, NVAR}, {ttl_tos_df_hop_tc, NVAR}, {ip_id_rules, NVAR},
	{fixed_id_gso_flag, NVAR}, {ipv4_not_for_gro, NVAR}, {ipv6_ext_headers, NVAR},
	{vlan_tags, NVAR}, {mac_is_flow, NVAR}, {padded_segment_not_merged, NVAR},
	{padded_frames_never_merge, NVAR}, {ip_length_past_frame, NVAR},
	{trailing_garbage_not_merged, NVAR}, {max_size_default, NVAR}, {big_tcp, NVAR},
	{max_segs, NVAR}, {table_full_flushes_oldest, NVAR}, {held_bytes_limit, NVAR},
	{csum_complete, 2}, {hw_verified_skips_software, NVAR}, {api_errors, 0})
