/*
 * gro_rawip_test.c - GRO on raw-IP input (ofl_gro_config.l2 = OFL_L2_NONE:
 * packets that start at the IP header, as a TUN device gives them).
 *
 * A rule table: each row is a short sequence of IPv4 or IPv6 segments made
 * by the generator (tests/support/gen.c) with the 14-byte Ethernet header
 * stripped, changed per row, fed in one of several buffer splits, with the
 * result of every receive and the shape of the output expected.  Every run
 * also checks, without the library's parser: every cookie delivered once,
 * NORMAL packets byte-identical to their input, GRO packets starting at the
 * IP header (l3_off 0) with valid IPv4 header and TCP checksums once
 * linearized, and each flow's payload delivered whole and in order.
 */
#include <check.h>
#include <ofl/csum.h>
#include <ofl/gro.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conserve.h"
#include "gen.h"
#include "harness.h"

#define MAXIN 16
#define MAXOUT 16
#define OUTCAP 40000

enum split { SP_ONE = 0, SP_HDR, SP_FOUR, SP_BYTES };

struct run {
	uint8_t in[MAXIN][2000];
	uint32_t in_len[MAXIN];
	struct ofl_buf bufs[MAXIN][20];
	unsigned nin, seen[MAXIN];
	uint8_t out[MAXOUT][OUTCAP];
	int out_len[MAXOUT];
	struct ofl_gro_out o[MAXOUT];
	struct ofl_virtio_net_hdr vh[MAXOUT];
	uintptr_t first_cookie[MAXOUT];
	unsigned nout;
};

static struct run R;

static void deliver(void *user, const struct ofl_gro_out *p, unsigned n)
{
	struct run *r = user;
	unsigned i, c;
	for (i = 0; i < n; i++) {
		unsigned k = r->nout++;
		ck_assert_uint_lt(k, MAXOUT);
		r->o[k] = p[i]; /* its pointers are not used after the callback */
		r->first_cookie[k] = (uintptr_t)p[i].cookies[0];
		r->out_len[k] = ofl_gro_linearize(&p[i], r->out[k], OUTCAP, OFL_CSUM_MODE_FULL);
		ck_assert_int_eq(r->out_len[k], (int)p[i].len);
		ck_assert_int_eq(ofl_gro_vnet_hdr(&p[i], 0, &r->vh[k]), 0);
		for (c = 0; c < p[i].ncookies; c++) {
			uintptr_t ck = (uintptr_t)p[i].cookies[c];
			ck_assert_uint_lt(ck, r->nin);
			r->seen[ck]++;
		}
	}
}

static struct ofl_gro *mk(void)
{
	struct ofl_gro_config cfg;
	struct ofl_gro *g;
	memset(&R, 0, sizeof(R));
	ck_assert_int_eq(ofl_gro_config_default(&cfg), 0);
	ck_assert_uint_eq(cfg.l2, OFL_L2_ETH);
	cfg.l2 = OFL_L2_NONE;
	cfg.deliver = deliver;
	cfg.user = &R;
	ck_assert_int_eq(ofl_gro_create(&cfg, &g), 0);
	return g;
}

/* The generated Ethernet frame without its 14-byte header. */
static uint32_t raw_of(const struct gen_tcp *t, uint8_t *dst)
{
	uint8_t f[2100];
	size_t n = gen_tcp_frame(t, f, sizeof(f));
	ck_assert_uint_gt(n, 14);
	memcpy(dst, f + 14, n - 14);
	return (uint32_t)(n - 14);
}

/* Where the TCP payload of a raw packet starts (what the split cuts at). */
static uint32_t hdr_end(const uint8_t *p, uint32_t len)
{
	uint32_t l4 = (p[0] >> 4) == 4 ? (p[0] & 0xfu) * 4u : 40u;
	if (l4 + 13 > len)
		return len;
	l4 += (p[l4 + 12] >> 4) * 4u;
	return l4 < len ? l4 : len;
}

static int feed(struct ofl_gro *g, const uint8_t *p, uint32_t len, int split, uint8_t csum_status,
                uint16_t csum)
{
	unsigned i = R.nin++, nb = 0, k;
	struct ofl_buf *b = R.bufs[i];
	struct ofl_pkt pkt;
	uint32_t he;
	ck_assert_uint_lt(i, MAXIN);
	memcpy(R.in[i], p, len);
	R.in_len[i] = len;
	p = R.in[i];
	he = hdr_end(p, len);
	switch (split) {
	case SP_ONE:
		b[nb++] = (struct ofl_buf){p, len};
		break;
	case SP_HDR:
		b[nb++] = (struct ofl_buf){p, he};
		b[nb++] = (struct ofl_buf){p + he, len - he};
		break;
	case SP_FOUR: { /* 8 | rest of headers | half payload | rest */
		uint32_t half = he + (len - he) / 2;
		b[nb++] = (struct ofl_buf){p, 8};
		b[nb++] = (struct ofl_buf){p + 8, he - 8};
		b[nb++] = (struct ofl_buf){p + he, half - he};
		b[nb++] = (struct ofl_buf){p + half, len - half};
		break;
	}
	default: /* the first 16 bytes one per buffer */
		for (k = 0; k < 16; k++)
			b[nb++] = (struct ofl_buf){p + k, 1};
		b[nb++] = (struct ofl_buf){p + 16, len - 16};
		break;
	}
	memset(&pkt, 0, sizeof(pkt));
	pkt.bufs = b;
	pkt.nbufs = (uint16_t)nb;
	pkt.cookie = (void *)(uintptr_t)i;
	pkt.csum_status = csum_status;
	pkt.csum = csum;
	return ofl_gro_receive(g, &pkt, 1000u * i);
}

/* Flow identity and payload of a raw packet through the tests' own parser
 * (conserve.c reads Ethernet frames: give it one). */
static size_t as_eth(const uint8_t *p, uint32_t len, uint8_t *eth)
{
	memset(eth, 0, 14);
	eth[12] = (p[0] >> 4) == 4 ? 0x08 : 0x86;
	eth[13] = (p[0] >> 4) == 4 ? 0x00 : 0xdd;
	memcpy(eth + 14, p, len);
	return len + 14u;
}

static void flow_of(const uint8_t *p, uint32_t len, struct c_flow *cf, uint8_t *eth)
{
	ck_assert(c_parse(eth, as_eth(p, len, eth), cf));
	cf->payload_off -= 14;
}

/* Flush, destroy and check what came out. */
static void finish(struct ofl_gro *g)
{
	static uint8_t eth[OUTCAP + 14], want[OUTCAP], got[OUTCAP];
	unsigned i, k;
	ofl_gro_destroy(g);
	for (i = 0; i < R.nin; i++)
		ck_assert_msg(R.seen[i] == 1, "cookie %u delivered %u times", i, R.seen[i]);
	for (k = 0; k < R.nout; k++) {
		const struct ofl_gro_out *o = &R.o[k];
		if (o->seg_count == 0) {
			uintptr_t c = R.first_cookie[k];
			ck_assert_uint_eq((uint32_t)R.out_len[k], R.in_len[c]);
			ck_assert(memcmp(R.out[k], R.in[c], R.in_len[c]) == 0);
			continue;
		}
		/* starts at the IP header, valid checksums */
		ck_assert_uint_eq(o->l3_off, 0);
		ck_assert_uint_eq(o->l4_off, (R.out[k][0] >> 4) == 4 ? 20 : 40);
		ck_assert_msg(gen_frame_csums_ok(eth, as_eth(R.out[k], (uint32_t)R.out_len[k], eth)),
		              "output %u checksums", k);
		if (o->seg_count > 1) {
			ck_assert_uint_eq(R.vh[k].hdr_len, o->hdr_len);
			ck_assert_uint_eq(R.vh[k].csum_start, o->l4_off);
			ck_assert_uint_eq(R.vh[k].gso_size, o->seg_size);
		}
	}
	/* per flow: the payload fed equals the payload delivered, in order */
	for (i = 0; i < R.nin; i++) {
		struct c_flow f0, f;
		uint32_t nw = 0, ng = 0;
		unsigned j;
		if (!(R.in_len[i] >= 20 && ((R.in[i][0] >> 4) == 4 || (R.in[i][0] >> 4) == 6)))
			continue;
		if (!c_parse(eth, as_eth(R.in[i], R.in_len[i], eth), &f0))
			continue;
		for (j = 0; j < R.nin; j++) {
			flow_of(R.in[j], R.in_len[j], &f, eth);
			if (memcmp(f.key, f0.key, sizeof(f.key)) == 0) {
				memcpy(want + nw, R.in[j] + f.payload_off, f.payload_len);
				nw += (uint32_t)f.payload_len;
			}
		}
		for (k = 0; k < R.nout; k++) {
			flow_of(R.out[k], (uint32_t)R.out_len[k], &f, eth);
			if (memcmp(f.key, f0.key, sizeof(f.key)) == 0) {
				memcpy(got + ng, R.out[k] + f.payload_off, f.payload_len);
				ng += (uint32_t)f.payload_len;
			}
		}
		ck_assert_uint_eq(ng, nw);
		ck_assert(memcmp(got, want, nw) == 0);
	}
}

/* ---- the rule table ----------------------------------------------------- */

#define V4 1u
#define V6 2u
struct row {
	const char *name;
	unsigned l3s;                               /* V4, V6: the versions it is run for */
	unsigned n;                                 /* segments */
	void (*mod)(struct gen_tcp *t, unsigned i); /* change segment i */
	int expect[6];                              /* OFL_GRO_* per segment */
	unsigned outs;                              /* packets delivered */
	uint16_t first_segs;                        /* seg_count of the first GRO packet */
};

static void m_none(struct gen_tcp *t, unsigned i) { (void)t; (void)i; }
static void m_gap(struct gen_tcp *t, unsigned i) { if (i >= 2) t->seq += 1; }
static void m_ttl(struct gen_tcp *t, unsigned i) { if (i == 1) t->ttl = 63; }
static void m_psh(struct gen_tcp *t, unsigned i) { if (i == 1) t->flags |= GEN_PSH; }
static void m_badsum(struct gen_tcp *t, unsigned i) { if (i == 1) t->bad_tcp_csum = true; }
static void m_ack(struct gen_tcp *t, unsigned i) { if (i == 1) t->payload_len = 0; }
static void m_port(struct gen_tcp *t, unsigned i) { if (i == 1) t->sport = 7; }
static void m_short(struct gen_tcp *t, unsigned i) { if (i == 1) t->payload_len = 500; }
static void m_ipopt(struct gen_tcp *t, unsigned i)
{
	if (i == 1) {
		memset(t->ip_opts, 1, 4); /* four NOPs */
		t->ip_optlen = 4;
	}
}
static void m_flowlabel(struct gen_tcp *t, unsigned i) { if (i == 1) t->flowlabel = 0x12345; }
static void m_fixedid(struct gen_tcp *t, unsigned i) { (void)i; t->ip_id = 7; }

/* Rows for both versions expect the same of IPv4 and of IPv6. */
static const struct row rows[] = {
	{"train", V4 | V6, 4, m_none, {1, 0, 0, 0}, 1, 4},
	{"sequence gap", V4 | V6, 4, m_gap, {1, 0, 1, 0}, 2, 2},
	{"ttl / hop limit differs", V4 | V6, 3, m_ttl, {1, 1, 1}, 3, 1},
	{"psh ends the train", V4 | V6, 3, m_psh, {1, 0, 1}, 2, 2},
	{"bad tcp checksum", V4 | V6, 3, m_badsum, {1, 2, 1}, 3, 1},
	{"another flow", V4 | V6, 3, m_port, {1, 1, 0}, 2, 2},
	{"pure ack", V4, 3, m_ack, {1, 2, 1}, 3, 1},
	{"short segment ends", V4, 3, m_short, {1, 0, 1}, 2, 2},
	{"ip options", V4, 3, m_ipopt, {1, 2, 1}, 3, 1},
	{"fixed id", V4, 4, m_fixedid, {1, 0, 0, 0}, 1, 4},
	{"flow label differs", V6, 3, m_flowlabel, {1, 1, 0}, 2, 2},
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

static void run_row(const struct row *rw, int l3, int split)
{
	struct ofl_gro *g = mk();
	struct gen_tcp t;
	uint8_t p[2000];
	unsigned i, k;
	uint32_t seq = 1000, nseg = 0;
	for (i = 0; i < rw->n; i++) {
		uint32_t len;
		int r;
		gen_tcp_init(&t, l3);
		t.payload_len = 1000;
		t.seq = seq;
		t.ip_id = (uint16_t)(100 + nseg);
		rw->mod(&t, i);
		if (t.sport == 1500 && t.flowlabel == 0) {
			/* the row's main flow: sequence and ID go on */
			seq += t.payload_len;
			nseg++;
		}
		len = raw_of(&t, p);
		r = feed(g, p, len, split, OFL_CSUM_NONE, 0);
		if (r != rw->expect[i]) {
			struct ofl_gro_stats st;
			unsigned q;
			ofl_gro_get_stats(g, &st, sizeof st);
			for (q = 0; q < OFL_GRO_FLUSH__COUNT; q++)
				if (st.flush[q])
					fprintf(stderr, "flush %s %u\n", ofl_gro_flush_reason_name(q), (unsigned)st.flush[q]);
		}
		ck_assert_msg(r == rw->expect[i], "v%d %s (split %d): segment %u gave %d, want %d", l3, rw->name,
		              split, i, r, rw->expect[i]);
	}
	finish(g);
	ck_assert_msg(R.nout == rw->outs, "v%d %s (split %d): %u packets out, want %u", l3, rw->name, split,
	              R.nout, rw->outs);
	for (k = 0; k < R.nout && R.o[k].seg_count == 0; k++)
		;
	ck_assert_uint_lt(k, R.nout);
	ck_assert_msg(R.o[k].seg_count == rw->first_segs, "v%d %s: first GRO packet of %u segments, want %u",
	              l3, rw->name, R.o[k].seg_count, rw->first_segs);
}

/* The (row, version) pairs of the table. */
static unsigned nruns(void)
{
	unsigned r, n = 0;
	for (r = 0; r < NROWS; r++)
		n += (rows[r].l3s & V4 ? 1 : 0) + (rows[r].l3s & V6 ? 1 : 0);
	return n;
}

/* Loop index: split mode * nruns() + the (row, version) pair, in table
 * order, IPv4 first. */
START_TEST(rule_table)
{
	unsigned n = nruns(), k = (unsigned)_i % n, seen = 0, r, v;
	for (r = 0; r < NROWS; r++)
		for (v = 0; v < 2; v++)
			if ((rows[r].l3s & (v ? V6 : V4)) && seen++ == k)
				run_row(&rows[r], v ? 6 : 4, (int)((unsigned)_i / n));
}
END_TEST

/* A merged IPv4 packet's header: lengths and header checksum rewritten. */
START_TEST(merged_header)
{
	struct ofl_gro *g = mk();
	struct gen_tcp t;
	uint8_t p[2000];
	unsigned i;
	for (i = 0; i < 3; i++) {
		gen_tcp_init(&t, 4);
		t.seq = 1 + 1200u * i;
		t.ip_id = (uint16_t)(9 + i);
		t.payload_len = 1200;
		ck_assert_int_eq(feed(g, p, raw_of(&t, p), SP_ONE, OFL_CSUM_UNNECESSARY, 0), i ? 0 : 1);
	}
	finish(g);
	ck_assert_uint_eq(R.nout, 1);
	ck_assert_uint_eq(R.o[0].seg_count, 3);
	ck_assert_uint_eq(R.o[0].hdr_len, 40);
	ck_assert_uint_eq(R.o[0].len, 40 + 3600);
	ck_assert_uint_eq(R.out[0][0], 0x45);
	ck_assert_uint_eq((unsigned)(R.out[0][2] << 8 | R.out[0][3]), 3640);
	ck_assert_uint_eq(gen_csum_fold(R.out[0], 20, 0), 0xffff);
	ck_assert(R.o[0].gso_type & OFL_GSO_TCPV4);
	ck_assert_uint_eq(R.vh[0].gso_size, 1200);
}
END_TEST

/* CHECKSUM_COMPLETE on raw input: the sum covers the packet from its IP
 * header on. */
START_TEST(csum_complete)
{
	int l3;
	for (l3 = 4; l3 <= 6; l3 += 2) {
		struct ofl_gro *g = mk();
		struct gen_tcp t;
		uint8_t p[2000];
		struct ofl_gro_stats st;
		unsigned i;
		for (i = 0; i < 3; i++) {
			uint32_t len;
			uint16_t s;
			gen_tcp_init(&t, l3);
			t.seq = 1 + 800u * i;
			t.payload_len = 800;
			t.ip_id = (uint16_t)i;
			len = raw_of(&t, p);
			s = (uint16_t)~ofl_csum_fold(ofl_csum_partial(p, len, 0));
			if (i == 2)
				s ^= 0x0101; /* a wrong sum: checked, passed on */
			ck_assert_int_eq(feed(g, p, len, SP_ONE, OFL_CSUM_COMPLETE, s), i == 0 ? 1 : i == 1 ? 0 : 2);
		}
		ofl_gro_get_stats(g, &st, sizeof st);
		ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_TCP_CSUM], 1);
		finish(g);
		ck_assert_uint_eq(R.nout, 2);
		ck_assert_uint_eq(R.o[0].seg_count, 2);
	}
}
END_TEST

/* Not IP, trailing bytes, truncation: passed on, counted. */
START_TEST(not_for_gro)
{
	struct ofl_gro *g = mk();
	struct gen_tcp t;
	uint8_t p[2000];
	struct ofl_gro_stats st;
	uint32_t len;
	/* an Ethernet frame given to a raw context: first nibble 0 */
	gen_tcp_init(&t, 4);
	t.dst_mac[0] = 0x02;
	len = (uint32_t)gen_tcp_frame(&t, p, sizeof(p));
	ck_assert_int_eq(feed(g, p, len, SP_ONE, OFL_CSUM_NONE, 0), 2);
	/* a small packet with bytes after it (padding, as a cooked capture of
	 * a minimum-size Ethernet frame has): PADDED */
	gen_tcp_init(&t, 4);
	t.payload_len = 2;
	len = raw_of(&t, p);
	memset(p + len, 0, 4);
	ck_assert_int_eq(feed(g, p, len + 4, SP_ONE, OFL_CSUM_NONE, 0), 2);
	/* a large packet with trailing bytes: malformed */
	gen_tcp_init(&t, 6);
	t.payload_len = 500;
	len = raw_of(&t, p);
	memset(p + len, 0, 4);
	ck_assert_int_eq(feed(g, p, len + 4, SP_ONE, OFL_CSUM_NONE, 0), 2);
	/* truncated */
	gen_tcp_init(&t, 6);
	len = raw_of(&t, p);
	ck_assert_int_eq(feed(g, p, 30, SP_ONE, OFL_CSUM_NONE, 0), 2);
	ofl_gro_get_stats(g, &st, sizeof st);
	ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_NOT_IP], 1);
	ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_PADDED], 1);
	ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_MALFORMED], 2);
	ck_assert_uint_eq(st.padding_trimmed, 1);
	ofl_gro_destroy(g); /* the inputs are not all IP: cookies only */
	ck_assert_uint_eq(R.nout, 4);
	for (len = 0; len < R.nin; len++)
		ck_assert_uint_eq(R.seen[len], 1);
}
END_TEST

/* Interleaved IPv4 and IPv6 flows in bursts, headers split from payload. */
START_TEST(burst_two_versions)
{
	struct ofl_gro *g = mk();
	struct ofl_pkt pk[8];
	struct gen_tcp t;
	uint8_t p[2000];
	unsigned i, b;
	for (i = 0; i < 8; i++) {
		unsigned k = R.nin++;
		uint32_t len, he;
		gen_tcp_init(&t, i & 1 ? 6 : 4);
		t.seq = 1 + 1000u * (i / 2);
		t.ip_id = (uint16_t)(i / 2);
		t.payload_len = 1000;
		len = raw_of(&t, p);
		memcpy(R.in[k], p, len);
		R.in_len[k] = len;
		he = hdr_end(p, len);
		R.bufs[k][0] = (struct ofl_buf){R.in[k], he};
		R.bufs[k][1] = (struct ofl_buf){R.in[k] + he, len - he};
		memset(&pk[i], 0, sizeof(pk[i]));
		pk[i].bufs = R.bufs[k];
		pk[i].nbufs = 2;
		pk[i].cookie = (void *)(uintptr_t)k;
		pk[i].csum_status = OFL_CSUM_UNNECESSARY;
	}
	b = ofl_gro_receive_burst(g, pk, 8, 0, NULL);
	ck_assert_uint_eq(b, 8);
	finish(g);
	ck_assert_uint_eq(R.nout, 2);
	ck_assert_uint_eq(R.o[0].seg_count, 4);
	ck_assert_uint_eq(R.o[1].seg_count, 4);
}
END_TEST

START_TEST(config)
{
	struct ofl_gro_config cfg;
	struct ofl_gro *g;
	ofl_gro_config_default(&cfg);
	cfg.deliver = deliver;
	cfg.user = &R;
	cfg.l2 = 2;
	ck_assert_int_eq(ofl_gro_create(&cfg, &g), OFL_EINVAL);
	cfg.l2 = OFL_L2_NONE;
	cfg.dsa = ofl_dsa_find("edsa");
	ck_assert_ptr_nonnull(cfg.dsa);
	ck_assert_int_eq(ofl_gro_create(&cfg, &g), OFL_EINVAL);
	/* a version 1 struct ends before l2: Ethernet, whatever follows */
	ofl_gro_config_default(&cfg);
	cfg.deliver = deliver;
	cfg.user = &R;
	cfg.version = 1;
	cfg.l2 = 77;
	ck_assert_int_eq(ofl_gro_create(&cfg, &g), 0);
	ofl_gro_destroy(g);
}
END_TEST

H_MAIN("gro_rawip", 0, 0, {rule_table, (int)(4 * nruns())},
	{merged_header, 0}, {csum_complete, 0}, {not_for_gro, 0}, {burst_two_versions, 0}, {config, 0})
