/*
 * gro_list_test.c - fraglist mode for TCP (ofl_gro_config.fraglist;
 * src/gro/list.c, after Linux 6.18 tcp_gro_receive with is_flist and
 * skb_gro_receive_list): what the mode adds to the TCP rules, each case
 * over IPv4 and IPv6, every buffer layout of the harness and software or
 * NIC-verified checksums (the UDP side is the rule table of
 * gro_udp_rules.h, played in this mode by gro_udp_test.c).  The harness
 * walks every list packet with ofl_gro_list_seg() and wants each frame
 * byte for byte the one fed, in that frame's buffers; as
 * gro_burst_diff_list_test the same sequences run again as bursts.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "harness.h"

static struct harness h;
static char got[4096];

/* variant v: bit 0 IPv6, then the 5 split modes, then NIC checksums */
#define L3(v) (((v) & 1) ? 6 : 4)
#define SPLIT(v) (((v) >> 1) % 5)
#define NICSUM(v) ((v) >= 10)
#define NVAR 20

static void begin(struct gen_tcp *g, int v)
{
	struct ofl_gro_config c;
	ofl_gro_config_default(&c);
	c.fraglist = 1;
	h_init(&h, &c, SPLIT(v));
	h.nic_csum = (uint8_t)NICSUM(v);
	gen_tcp_init(g, L3(v));
}

static void expect(const char *want)
{
	h_finish(&h);
	ck_assert_str_eq(h_payloads(&h, got, sizeof got), want);
}

/* Trains of one size: n segments of payload bytes; the completions by
 * reason `why` (count nwhy) and the payload lengths delivered.  The first
 * delivery is a list packet: TCP's gso bits and OFL_GSO_FRAGLIST, the
 * merged packet as without the mode. */
static const struct train {
	const char *name;
	uint32_t payload;
	unsigned n, why, nwhy;
	const char *want;
} trains[] = {
	{"a train is one list packet", 100, 6, OFL_GRO_FLUSH_POLL_END, 1, "600"},
	/* tcp_gro_receive: count >= 64 flushes; the 65th starts a new train */
	{"at most 64 segments", 20, 70, OFL_GRO_FLUSH_MAX_SEGS, 1, "1280,120"},
	/* skb_gro_receive_list: the merged packet plus the next segment's
	 * whole IP packet at most 65535 bytes; 46 x 1423 + the 40 or 60
	 * header bytes would fit without the mode */
	{"64 KiB counts the next segment's headers", 1423, 50, OFL_GRO_FLUSH_MAX_SIZE, 1, "64035,7115"},
};

START_TEST(train)
{
	const struct train *t = &trains[(unsigned)_i / NVAR];
	int v = _i % NVAR;
	struct gen_tcp g;
	begin(&g, v);
	g.payload_len = t->payload;
	h_send(&h, &g, t->n);
	ck_assert_int_eq(ofl_gro_poll_end(h.gro, 1, 0, NULL), 0);
	ck_assert_msg(h_stats(&h).flush[t->why] == t->nwhy, "%s: flush[%u]", t->name, t->why);
	expect(t->want);
	ck_assert_uint_eq(h.out[0].seg_size, t->payload);
	ck_assert_uint_eq(h.out[0].gso_type, (L3(v) == 4 ? OFL_GSO_TCPV4 : OFL_GSO_TCPV6) | OFL_GSO_FRAGLIST);
	ck_assert(h.out[0].flags & OFL_GRO_OUT_F_CSUM_PARTIAL);
	h_free(&h);
}
END_TEST

/* The whole flag word must be equal: PSH, which the plain rules merge and
 * end the train with, is never chained (and, the first of a flow, never
 * held); a window change ends the train as without the mode. */
START_TEST(flag_word_equal)
{
	struct gen_tcp g;
	struct ofl_gro_stats st;
	begin(&g, _i);
	h_send(&h, &g, 3);
	g.flags |= GEN_PSH;
	h_send(&h, &g, 1);
	ck_assert_int_eq(h.last_result, OFL_GRO_NORMAL);
	g.flags &= (uint8_t)~GEN_PSH;
	h_send(&h, &g, 2);
	g.window = (uint16_t)(g.window + 1);
	h_send(&h, &g, 2);
	st = h_stats(&h);
	ck_assert_uint_eq(st.flush[OFL_GRO_FLUSH_FLAGS], 2);
	ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_FLAGS], 1);
	expect("300,100,200,200");
	h_free(&h);
}
END_TEST

/* Another checksum state (the kernel's ip_summed and csum_level) ends the
 * train, and that segment starts the next one (TCP: mss 1 then); NONE and
 * UNNECESSARY are one state once verified. */
START_TEST(csum_state)
{
	struct gen_tcp g;
	begin(&g, _i);
	h.nic_csum = 0;
	h.complete_auto = 1;
	h.csum_status = OFL_CSUM_NONE;
	h_send(&h, &g, 2);
	h.csum_status = OFL_CSUM_UNNECESSARY;
	h_send(&h, &g, 2);
	ck_assert_int_eq(h.last_result, OFL_GRO_MERGED);
	h.csum_status = OFL_CSUM_COMPLETE;
	h_send(&h, &g, 3);
	h.csum_status = OFL_CSUM_PARTIAL;
	h_send(&h, &g, 2);
	h.csum_status = OFL_CSUM_NONE;
	h_send(&h, &g, 1);
	ck_assert_int_eq(h.last_result, OFL_GRO_HELD);
	ck_assert_uint_eq(h_stats(&h).flush[OFL_GRO_FLUSH_CSUM_STATE], 3);
	expect("400,300,200,100");
	h_free(&h);
}
END_TEST

/* The plain rules stand: a sequence gap, another ACK, a larger segment and
 * a short one end the train as without the mode. */
START_TEST(plain_rules_stand)
{
	struct gen_tcp g;
	begin(&g, _i);
	h_send(&h, &g, 2);
	g.seq += 7;
	h_send(&h, &g, 2);
	g.ack += 1;
	h_send(&h, &g, 2);
	g.payload_len = 150;
	h_send(&h, &g, 1);
	g.payload_len = 50;
	h_send(&h, &g, 1);
	ck_assert_uint_eq(h_stats(&h).held, 4);
	expect("200,200,200,200");
	h_free(&h);
}
END_TEST

static void no_deliver(void *user, const struct ofl_gro_out *o, unsigned n)
{
	(void)user;
	(void)o;
	(void)n;
	ck_abort_msg("nothing to deliver");
}

/* Not with a DSA format; above 1 refused; a version 6 struct ends before
 * fraglist; ofl_gro_list_seg() refuses what is not a list of its context. */
START_TEST(config_and_api)
{
	struct ofl_gro_config c;
	struct ofl_gro *gro = NULL;
	struct ofl_gro_seg sg;
	struct ofl_gro_out o;
	struct gen_tcp g;
	(void)_i;
	ofl_gro_config_default(&c);
	ck_assert_uint_eq(c.fraglist, 0);
	c.deliver = no_deliver;
	c.fraglist = 2;
	ck_assert_int_eq(ofl_gro_create(&c, &gro), OFL_EINVAL);
	c.fraglist = 1;
	c.dsa = ofl_dsa_find("edsa");
	ck_assert_ptr_nonnull(c.dsa);
	ck_assert_int_eq(ofl_gro_create(&c, &gro), OFL_EINVAL);
	c.dsa = NULL;
	c.version = 6; /* fraglist not read: a plain context */
	h_init(&h, &c, H_SPLIT_NONE);
	gen_tcp_init(&g, 4);
	h_send(&h, &g, 3);
	h_finish(&h);
	ck_assert_uint_eq(h.out[0].seg_count, 3);
	ck_assert_uint_eq(h.out[0].gso_type & OFL_GSO_TUNNEL_MASK, 0);
	h_free(&h);
	memset(&o, 0, sizeof o);
	memset(&sg, 0xa5, sizeof sg);
	ck_assert_int_eq(ofl_gro_list_seg(NULL, &o, 0, &sg), OFL_EINVAL);
	ck_assert_ptr_null(sg.hdr);
	ck_assert_int_eq(ofl_gro_list_seg(NULL, NULL, 0, NULL), OFL_EINVAL);
}
END_TEST

int main(void)
{
	const struct h_test tests[] = {{train, (int)(NVAR * sizeof trains / sizeof trains[0])},
		{flag_word_equal, NVAR}, {csum_state, NVAR}, {plain_rules_stand, NVAR}, {config_and_api, 1}};
	return h_run_table("gro_list", 0, 0, tests, sizeof tests / sizeof tests[0]);
}
