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
#include "gro/gro_int.h"
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

/* ---- the entries' invariants (src/gro/gro_int.h, the top) --------------- */

#define INV_FRAMES 64
#define INV_PREV 16

/* A context of its own (not the harness), its frames kept until the end. */
struct inv {
	struct ofl_gro *g;
	uint8_t frame[INV_FRAMES][256];
	unsigned nframes;
	struct ofl_gro_out prev[INV_PREV]; /* list packets of the last callback, copied */
	unsigned nprev, lists, calls, fraglist_out;
};

/* Each entry on the delivery list (pend_head to pend_tail through next)
 * counted once, PENDING; returns their count. */
static unsigned inv_pending(const struct ofl_gro *g)
{
	unsigned n = 0;
	uint32_t i = g->pend_head;
	while (i != GRO_NONE) {
		ck_assert_uint_lt(i, g->nitems);
		ck_assert_uint_eq(g->items[i].state, GRO_PENDING);
		ck_assert_uint_le(++n, g->nitems);
		if (i == g->pend_tail)
			break;
		i = g->items[i].next;
	}
	return n;
}

static void inv_deliver(void *user, const struct ofl_gro_out *o, unsigned n)
{
	struct inv *v = user;
	struct ofl_gro_seg sg;
	unsigned i, j, np = 0;
	ck_assert_uint_ge(inv_pending(v->g), 1);
	v->calls++;
	/* a list packet of an earlier callback: its entry free now, still
	 * PENDING, refused all the same */
	for (j = 0; j < v->nprev; j++)
		ck_assert_int_eq(ofl_gro_list_seg(v->g, &v->prev[j], 0, &sg), OFL_EINVAL);
	for (i = 0; i < n; i++) {
		struct ofl_gro_out c = o[i];
		if ((o[i].gso_type & OFL_GSO_TUNNEL_MASK) != OFL_GSO_FRAGLIST) {
			ck_assert_int_eq(ofl_gro_list_seg(v->g, &o[i], 0, &sg), OFL_EINVAL);
			continue;
		}
		v->fraglist_out++;
		v->lists++;
		/* the record and a copy of it, while it is being delivered */
		ck_assert_int_eq(ofl_gro_list_seg(v->g, &o[i], o[i].seg_count - 1u, &sg), 0);
		ck_assert_int_eq(ofl_gro_list_seg(v->g, &c, 0, &sg), 0);
		ck_assert_ptr_eq(sg.cookie, o[i].cookies[0]);
		if (np < INV_PREV)
			v->prev[np++] = o[i];
	}
	v->nprev = np;
}

static struct ofl_gro *inv_new(struct inv *v, int fraglist, int udp)
{
	struct ofl_gro_config c;
	memset(v, 0, sizeof(*v));
	ofl_gro_config_default(&c);
	c.deliver = inv_deliver;
	c.user = v;
	c.fraglist = (uint8_t)fraglist;
	c.udp = (uint8_t)udp;
	c.normal_batch = 4; /* deliveries in the middle of a flush */
	ck_assert_int_eq(ofl_gro_create(&c, &v->g), 0);
	return v->g;
}

/* Frame of flow f (its source port), the flow's seq advanced. */
static int inv_send(struct inv *v, struct gen_tcp *t, unsigned f, uint64_t now)
{
	uint8_t *fr;
	size_t len;
	ck_assert_uint_lt(v->nframes, INV_FRAMES);
	fr = v->frame[v->nframes++];
	t->sport = (uint16_t)(1000 + f);
	len = gen_tcp_frame(t, fr, sizeof v->frame[0]);
	ck_assert_uint_gt(len, 0);
	t->seq += t->payload_len;
	return h_receive1(v->g, fr, len, OFL_CSUM_UNNECESSARY, now);
}

/* After a full flush, the free list holds every entry once, none HELD:
 * delivered lists went on it whole, their entries left PENDING. */
static void inv_free_list(const struct ofl_gro *g, unsigned want_pending)
{
	unsigned n = 0, pending = 0;
	uint8_t *seen = calloc(g->nitems, 1);
	uint32_t i;
	ck_assert_ptr_nonnull(seen);
	ck_assert_uint_eq(g->pend_head, GRO_NONE);
	ck_assert_uint_eq(g->age_head, GRO_NONE);
	ck_assert_uint_eq(g->held_bytes, 0);
	for (i = g->free_head; i != GRO_NONE; i = g->items[i].next) {
		ck_assert_uint_lt(i, g->nitems);
		ck_assert_msg(!seen[i], "entry %u twice on the free list", (unsigned)i);
		seen[i] = 1;
		ck_assert_uint_ne(g->items[i].state, GRO_HELD);
		pending += g->items[i].state == GRO_PENDING;
		n++;
	}
	ck_assert_uint_eq(n, g->nitems);
	ck_assert_uint_ge(pending, want_pending);
	free(seen);
}

/* Flows flushed with several deliveries on the way, after a train ended
 * by PSH left an entry on the delivery list (the age list is chained on
 * from it); with or without fraglist mode (_i bit 1).  A list packet is
 * walked while delivered (its record or a copy), refused once delivered
 * (from a later callback, or after), though its entry stays PENDING on the
 * free list. */
START_TEST(free_entries)
{
	struct inv v;
	struct gen_tcp t;
	struct ofl_gro_seg sg;
	unsigned f, k, round, list = (unsigned)_i >> 1;
	inv_new(&v, (int)list, 0);
	gen_tcp_init(&t, _i & 1 ? 6 : 4);
	for (round = 0; round < 2; round++) {
		t.payload_len = 100;
		for (k = 0; k < 3; k++) {
			t.seq = 1000u + 100u * k;
			t.flags = (uint8_t)(GEN_ACK | (k == 2 ? GEN_PSH : 0));
			ck_assert_int_ge(inv_send(&v, &t, 99, 0), 0);
		}
		t.flags = GEN_ACK;
		ck_assert_uint_eq(v.calls, 4u * round); /* (3 segments queued, 4 a delivery) */
		ck_assert_uint_ne(v.g->pend_head, GRO_NONE);
		for (k = 0; k < 3; k++)
			for (f = 0; f < 6; f++) {
				t.seq = 1000u + 100u * (k + 3 * round);
				ck_assert_int_ge(inv_send(&v, &t, f, 0), 0);
			}
		ck_assert_int_eq(ofl_gro_poll_end(v.g, 1, 0, NULL), 0);
		ck_assert_uint_eq(v.g->st.out_segs, 21u * (round + 1));
		/* (fraglist mode: PSH ends the 2-segment list, passed on itself) */
		ck_assert_uint_eq(v.lists, list * 7u * (round + 1));
		/* the PSH train and a flow, then two flows a time, the last alone */
		ck_assert_uint_eq(v.calls, 4u * (round + 1));
		inv_free_list(v.g, 7);
		/* outside the callback: nothing is being delivered */
		ck_assert_uint_eq(v.nprev, list);
		if (list)
			ck_assert_int_eq(ofl_gro_list_seg(v.g, &v.prev[0], 0, &sg), OFL_EINVAL);
		v.nprev = 0; /* (their entries are taken again next round) */
	}
	ofl_gro_destroy(v.g);
}
END_TEST

/* A free entry's lcsum may be set (the last flow's, fraglist mode): every
 * way of holding a new flow clears it, or the merged packet would say
 * OFL_GSO_FRAGLIST.  Played in a plain context with every free entry's
 * lcsum set by hand: the fast hold (item_take()), UDP's, the full path's
 * (a VLAN tag: item_alloc()). */
START_TEST(lcsum_cleared_at_hold)
{
	struct inv v;
	struct gen_tcp t;
	unsigned f, k, kind = (unsigned)_i % 3;
	uint32_t i;
	inv_new(&v, 0, 1);
	for (i = v.g->free_head; i != GRO_NONE; i = v.g->items[i].next)
		v.g->items[i].lcsum = 1;
	gen_tcp_init(&t, (unsigned)_i / 3 ? 6 : 4);
	t.udp = kind == 1;
	if (kind == 2) {
		t.nvlan = 1;
		t.vlan_tpid[0] = 0x8100;
		t.vlan_tci[0] = 7;
	}
	for (k = 0; k < 3; k++)
		for (f = 0; f < 4; f++) {
			t.seq = 1000u + 100u * k;
			t.payload_len = 100;
			ck_assert_int_ge(inv_send(&v, &t, f, 0), 0);
		}
	ck_assert_int_eq(ofl_gro_poll_end(v.g, 1, 0, NULL), 0);
	ck_assert_uint_ge(v.calls, 1);
	ck_assert_uint_eq(v.fraglist_out, 0);
	ck_assert_uint_eq(v.g->st.out_gro_pkts, 4);
	ck_assert_uint_eq(v.g->st.out_segs, 12);
	ofl_gro_destroy(v.g);
}
END_TEST

int main(void)
{
	const struct h_test tests[] = {{train, (int)(NVAR * sizeof trains / sizeof trains[0])},
		{flag_word_equal, NVAR}, {csum_state, NVAR}, {plain_rules_stand, NVAR}, {config_and_api, 1},
		{free_entries, 4}, {lcsum_cleared_at_hold, 6}};
	return h_run_table("gro_list", 0, 0, tests, sizeof tests / sizeof tests[0]);
}
