/*
 * gro_lone_test.c - frames alone in their flow in a burst (src/gro/group.c):
 * with flush timeout 0 a burst that arrives with nothing held keeps such
 * frames as lone records, no flow entry.  They must leave exactly as held
 * entries would: the sequences here run through ofl_gro_receive() and, as
 * gro_burst_diff_lone_test, again as bursts of 1, 2, 3, 7, 16, 64 and whole
 * runs (support/burstdiff.h), which must deliver the same lists and end
 * with the same counters.  The cases mix lone frames with flows that meet
 * again in a later burst of the same poll, a full table, the byte limit,
 * frames of a lone frame's flow the full path takes (IP options, a bad IP
 * checksum, Ethernet padding, a fragment, no verified checksum), flushes by
 * age between bursts, a poll taken whole before a mixed one, and a
 * context destroyed with lone records; one case
 * calls ofl_gro_receive_burst() itself and checks what leaves.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "harness.h"

static struct harness h;
static char got[4096];

/* Flow f of IP version l3: its own source port and payload bytes. */
static void flow(struct gen_tcp *g, int l3, unsigned f)
{
	gen_tcp_init(g, l3);
	g->sport = (uint16_t)(2000 + f);
	g->flow_salt = f;
	g->seq = 1000u * f;
	g->ip_id = (uint16_t)(7 * f);
}

/* A context fed as by a NIC that verifies checksums (the fast path's input). */
static void init(const struct ofl_gro_config *cfg)
{
	h_init(&h, cfg, H_SPLIT_NONE);
	h.nic_csum = 1;
}

static void send(struct gen_tcp *g, uint64_t now)
{
	h_rx_gen(&h, g, now);
	g->seq += g->payload_len;
	g->ip_id++;
}

static void poll_end(unsigned work)
{
	uint64_t dl = 0;
	ck_assert_int_eq(ofl_gro_poll_end(h.gro, work, 0, &dl), 0);
	ck_assert_uint_eq(dl, 0);
}

static struct ofl_gro_stats stats(void)
{
	struct ofl_gro_stats st;
	ck_assert_int_eq(ofl_gro_get_stats(h.gro, &st, sizeof st), 0);
	return st;
}

/* The end of a test that counted flushes for reason why and merges. */
static void done_counting(unsigned why, uint64_t flushes, uint64_t merged)
{
	struct ofl_gro_stats st = stats();
	ck_assert_uint_eq(st.flush[why], flushes);
	ck_assert_uint_eq(st.merged, merged);
	h_done(&h, NULL);
}

START_TEST(single_flows)
{
	struct gen_tcp g[40];
	struct ofl_gro_stats st;
	unsigned f, l3 = (unsigned)_i ? 6 : 4;
	init(NULL);
	for (f = 0; f < 40; f++) {
		flow(&g[f], (int)l3, f);
		send(&g[f], 5);
	}
	poll_end(40);
	ck_assert_uint_eq(h.nout, 40);
	ck_assert_uint_eq(h.nlists, 5); /* lists of normal_batch (8) */
	for (f = 0; f < 40; f++) {
		ck_assert_uint_eq(h.out[f].seg_count, 1);
		ck_assert_uint_eq(h.out[f].first_cookie, f); /* in the order held */
	}
	st = stats();
	ck_assert_uint_eq(st.held, 40);
	ck_assert_uint_eq(st.flush[OFL_GRO_FLUSH_POLL_END], 40);
	ck_assert_uint_eq(st.flows_held, 0);
	ck_assert_uint_eq(st.bytes_held, 0);
	h_done(&h, NULL);
}
END_TEST

START_TEST(mixed_with_trains_and_normals)
{
	struct gen_tcp s[6], m, p, a;
	unsigned f;
	init(NULL);
	for (f = 0; f < 6; f++)
		flow(&s[f], 4, f);
	flow(&m, 4, 20);
	flow(&p, 4, 21);
	p.flags |= GEN_PSH;
	flow(&a, 4, 22);
	a.payload_len = 0;
	send(&s[0], 1);
	send(&m, 1);
	send(&s[1], 1);
	send(&p, 1);
	send(&m, 1);
	send(&s[2], 1);
	send(&a, 1);
	send(&m, 1);
	send(&s[3], 1);
	poll_end(9);
	/* normals first (queued as they came), then the held in age order */
	ck_assert_str_eq(h_payloads(&h, got, sizeof(got)), "100,0,100,300,100,100,100");
	/* the next poll: the same again, and a second segment of s[4] in it */
	send(&s[4], 2);
	send(&s[5], 2);
	send(&m, 2);
	send(&s[4], 2);
	poll_end(4);
	h_done(&h, "100,0,100,300,100,100,100,200,100,100");
}
END_TEST

START_TEST(flows_meet_across_bursts)
{
	/* in bursts of 2 or 3 the second segments come a burst later, when the
	 * first ones are lone records */
	struct gen_tcp g[6];
	unsigned f, k;
	init(NULL);
	for (f = 0; f < 6; f++)
		flow(&g[f], f & 1 ? 6 : 4, f);
	for (k = 0; k < 3; k++)
		for (f = 0; f < 6; f++)
			if ((f + k) % 3 != 2)
				send(&g[f], 3);
	poll_end(12);
	ck_assert_uint_eq(stats().flows_held, 0);
	h_done(&h, NULL);
}
END_TEST

START_TEST(table_full)
{
	struct gen_tcp g[12];
	struct ofl_gro_config cfg;
	unsigned f;
	ofl_gro_config_default(&cfg);
	cfg.max_flows = 4;
	init(&cfg);
	for (f = 0; f < 12; f++)
		flow(&g[f], 4, f);
	for (f = 0; f < 10; f++)
		send(&g[f], 0);
	send(&g[9], 0); /* a second segment of the newest */
	send(&g[10], 0);
	send(&g[11], 0);
	poll_end(13);
	done_counting(OFL_GRO_FLUSH_TABLE_FULL, 8, 1);
}
END_TEST

START_TEST(byte_limit)
{
	struct gen_tcp g[8];
	struct ofl_gro_config cfg;
	unsigned f;
	ofl_gro_config_default(&cfg);
	cfg.max_held_bytes = 350; /* three 100-byte payloads */
	init(&cfg);
	for (f = 0; f < 8; f++) {
		flow(&g[f], 4, f);
		send(&g[f], 0);
	}
	send(&g[7], 0);
	poll_end(9);
	ck_assert_uint_gt(stats().flush[OFL_GRO_FLUSH_TABLE_FULL], 0);
	h_done(&h, NULL);
}
END_TEST

/* A lone frame's flow comes again in a shape only the full path takes: it
 * must find the held packet (and flush it) as it would find an entry. */
START_TEST(same_flow_other_shape)
{
	struct gen_tcp a, b, x;
	unsigned k;
	init(NULL);
	for (k = 0; k < 6; k++) {
		int l3 = k == 5 ? 6 : 4;
		flow(&a, l3, 1);
		flow(&b, l3, 2);
		send(&a, k);
		send(&b, k);
		x = a;
		switch (k) {
		case 0:
			memcpy(x.ip_opts, "\x01\x01\x01\x00", 4); /* NOP NOP NOP EOL */
			x.ip_optlen = 4;
			break;
		case 1:
			x.bad_ip_csum = true;
			break;
		case 2:
			x.payload_len = 2;
			x.pad_to = 60; /* Ethernet padding: not merged, the held one flushed */
			break;
		case 3:
			x.frag = 0x2000; /* MF */
			break;
		case 4:
			h.nic_csum = 0; /* not verified by the NIC: by us */
			break;
		default:
			x.ext[0] = 6; /* IPv6 fragment header, first fragment, then TCP */
			x.ext[1] = 0;
			x.ext[2] = 0;
			x.ext[3] = 1; /* M */
			x.extlen = 8;
			x.ext_nh = 44;
			break;
		}
		send(&x, k);
		h.nic_csum = 1;
		poll_end(3);
	}
	/* each but the verified one flushed a's held packet first */
	done_counting(OFL_GRO_FLUSH_NOT_GRO, 5, 1);
}
END_TEST

START_TEST(vlan_tag_is_another_flow)
{
	struct gen_tcp a, v;
	init(NULL);
	flow(&a, 4, 1);
	v = a;
	v.nvlan = 1;
	v.vlan_tpid[0] = 0x8100;
	v.vlan_tci[0] = 5;
	send(&a, 0);
	send(&v, 0);
	send(&a, 0);
	poll_end(3);
	ck_assert_str_eq(h_payloads(&h, got, sizeof(got)), "200,100");
	h_done(&h, NULL);
}
END_TEST

START_TEST(flush_older_between)
{
	struct gen_tcp g[4];
	unsigned f;
	init(NULL);
	for (f = 0; f < 4; f++)
		flow(&g[f], 4, f);
	send(&g[0], 10);
	send(&g[1], 20);
	send(&g[2], 30);
	ck_assert_int_eq(ofl_gro_flush_older(h.gro, 30, 15), 1); /* g[0] only */
	send(&g[3], 40);
	send(&g[1], 40);
	ck_assert_int_eq(ofl_gro_flush_older(h.gro, 40, 0), 3);
	send(&g[2], 50);
	send(&g[3], 50);
	poll_end(2);
	ck_assert_str_eq(h_payloads(&h, got, sizeof(got)), "100,200,100,100,100,100");
	h_done(&h, NULL);
}
END_TEST

/* A poll whose bursts are taken whole (every frame alone: their hold
 * order is not written), then a poll of bursts that mix lone records with
 * an entry held between them: when a later burst of that poll turns the
 * lone records into entries, each must take its place in the age order
 * after the entry held before it, as the single frames hold them. */
START_TEST(whole_then_mixed)
{
	struct gen_tcp g[8], m, x[6];
	unsigned f;
	init(NULL);
	for (f = 0; f < 8; f++) {
		flow(&g[f], 4, f);
		send(&g[f], 1);
	}
	poll_end(8);
	flow(&m, 4, 20);
	for (f = 0; f < 6; f++)
		flow(&x[f], 4, 10 + f);
	/* in bursts of 7: x0 a lone record, m an entry, x1-x3 lone records,
	 * then x4 and x5 a burst later (the first seven frames of the poll
	 * before were a burst taken whole) */
	send(&x[0], 2);
	send(&m, 2);
	send(&m, 2);
	send(&x[1], 2);
	send(&x[2], 2);
	send(&x[3], 2);
	send(&m, 2);
	send(&x[4], 2);
	send(&x[5], 2);
	poll_end(9);
	ck_assert_str_eq(h_payloads(&h, got, sizeof(got)), "100,100,100,100,100,100,100,100,100,300,100,100,100,100,100");
	h_done(&h, NULL);
}
END_TEST

/* The burst entry called directly: lone records are held (counted in the
 * gauges), then delivered as GRO packets of one segment, the frame's own
 * bytes, at poll end; a context destroyed with some delivers them. */
struct direct {
	unsigned n, lists;
	unsigned seg1;
	uint8_t same_bytes;
	const uint8_t *frames[64];
	uint32_t lens[64];
};

static void direct_deliver(void *user, const struct ofl_gro_out *o, unsigned n)
{
	struct direct *d = user;
	unsigned i;
	d->lists++;
	for (i = 0; i < n; i++) {
		uintptr_t c = (uintptr_t)o[i].cookies[0];
		const uint8_t *f = d->frames[c];
		d->n++;
		if (o[i].seg_count == 1 && o[i].nslices == 1 && o[i].ncookies == 1) {
			d->seg1++;
			if (o[i].len != d->lens[c] || memcmp(o[i].hdr, f, o[i].hdr_len) != 0 ||
			    o[i].slices[0].data != f + o[i].hdr_len || o[i].slices[0].len != d->lens[c] - o[i].hdr_len ||
			    !(o[i].flags & OFL_GRO_OUT_F_CSUM_VERIFIED) || o[i].gso_type != 0)
				d->same_bytes = 0;
		}
	}
}

START_TEST(direct_burst)
{
	static uint8_t frames[64][256];
	struct ofl_buf bufs[64];
	struct ofl_pkt pkts[64];
	struct ofl_gro_config cfg;
	struct ofl_gro_stats st;
	struct ofl_gro *gro;
	struct direct d;
	struct gen_tcp g;
	unsigned f, round;
	memset(&d, 0, sizeof(d));
	d.same_bytes = 1;
	ofl_gro_config_default(&cfg);
	cfg.deliver = direct_deliver;
	cfg.user = &d;
	ck_assert_int_eq(ofl_gro_create(&cfg, &gro), 0);
	for (round = 0; round < 2; round++) {
		memset(pkts, 0, sizeof(pkts));
		for (f = 0; f < 64; f++) {
			flow(&g, f & 1 ? 6 : 4, f);
			g.payload_len = 50 + f;
			if (f == 9)
				g.flags |= GEN_PSH;
			bufs[f].data = frames[f];
			bufs[f].len = (uint32_t)gen_tcp_frame(&g, frames[f], sizeof(frames[f]));
			ck_assert_uint_gt(bufs[f].len, 0);
			d.frames[f] = frames[f];
			d.lens[f] = bufs[f].len;
			pkts[f].bufs = &bufs[f];
			pkts[f].nbufs = 1;
			pkts[f].csum_status = OFL_CSUM_UNNECESSARY;
			pkts[f].cookie = (void *)(uintptr_t)f;
		}
		ck_assert_uint_eq(ofl_gro_receive_burst(gro, pkts, 64, 7, NULL), 64);
		ofl_gro_get_stats(gro, &st, sizeof st);
		ck_assert_uint_eq(st.flows_held, 63); /* all but the PSH frame */
		ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_FLAGS], round + 1);
		if (round == 0) {
			ck_assert_int_eq(ofl_gro_poll_end(gro, 64, 7, NULL), 0);
			ck_assert_uint_eq(d.n, 64);
			ofl_gro_get_stats(gro, &st, sizeof st);
			ck_assert_uint_eq(st.flows_held, 0);
			ck_assert_uint_eq(st.flush[OFL_GRO_FLUSH_POLL_END], 63);
		}
	}
	ofl_gro_destroy(gro); /* the second round's lone records */
	ck_assert_uint_eq(d.n, 128);
	ck_assert_uint_eq(d.seg1, 126);
	ck_assert(d.same_bytes);
}
END_TEST

H_MAIN("gro_lone", 0, 0, {single_flows, 2}, {mixed_with_trains_and_normals, 0},
	{flows_meet_across_bursts, 0}, {table_full, 0}, {byte_limit, 0}, {same_flow_other_shape, 0},
	{vlan_tag_is_another_flow, 0}, {flush_older_between, 0}, {whole_then_mixed, 0}, {direct_burst, 0})
