/*
 * gro_udp_rules.h - the UDP GRO rules (ofl_gro_config.udp; src/gro/udp.c,
 * after Linux 6.18 udp_gro_receive_segment) as data: each rule is a
 * sequence of datagrams of one generated flow (tests/support/gen.h) with
 * the fields changed between them, the checks to make along the way (the
 * result of the last receive, counters), and the payload lengths that must
 * come out, in order.  One interpreter (ur_run) plays a rule through a
 * driver, so the same table is checked untagged over every buffer layout
 * and checksum state (gro_udp_test.c) and behind every kind of DSA tag
 * against the untagged run (gro_dsa_test.c).  Test code, included by those
 * two files only.
 */
#ifndef OFL_TEST_GRO_UDP_RULES_H
#define OFL_TEST_GRO_UDP_RULES_H

#include <check.h>
#include <ofl/gro.h>
#include <string.h>

#include "gen.h"

enum ur_op {
	UR_END = 0,
	/* send v datagrams: after each, seq advances by the payload and (but
	 * for UR_SEND_FIXED_ID) the IPv4 ID by one */
	UR_SEND,
	UR_SEND_FIXED_ID,
	/* generator fields, set to v (or changed by v: _ADD) */
	UR_PAYLOAD,
	UR_ZERO_CSUM,
	UR_BAD_CSUM,
	UR_LEN_DELTA,  /* added to the UDP length field (checksum still valid) */
	UR_TTL,
	UR_TOS,
	UR_DF,
	UR_IPID_ADD,
	UR_FLOWLABEL,
	UR_SPORT,
	UR_DPORT,
	UR_SPORT_ADD,
	UR_DPORT_ADD,
	UR_SADDR_ADD,  /* the last byte of the source address */
	UR_VLAN,       /* v > 0: one 802.1Q tag of TCI v; 0: none */
	UR_IPOPTS,     /* v bytes of IPv4 NOP options (0: none) */
	UR_BAD_IP_CSUM,
	UR_FRAG,       /* the IPv4 flags/offset field */
	UR_PAD_TO,     /* Ethernet padding up to v bytes */
	UR_DSTOPT,     /* IPv6: an 8-byte destination options header, PadN */
	UR_DSTOPT_LAST,/* its last option byte */
	UR_CSUM,       /* the checksum state of the next datagrams (enum
	                  ofl_csum_status; -1: the run's own): the driver's
	                  csum(), fraglist rules only */
	/* checks */
	UR_LAST,       /* the last receive returned v */
	UR_FLUSH_IS,   /* stats.flush[idx] == v */
	UR_NORMAL_IS,  /* stats.normal_why[idx] == v */
	UR_MERGED_IS,  /* stats.merged == v */
	UR_HELD_IS,    /* stats.flows_held == v */
	UR_FAST_IS,    /* stats.merged_fast == v */
	UR_CSUM_SW_IS, /* stats.csum_sw == v when software verifies, else 0 */
	UR_TRIMMED_IS, /* stats.padding_trimmed == v */
};

struct ur_step {
	uint8_t op;
	uint8_t idx;
	int32_t v;
};

#define UR_MAX_STEPS 24

struct ur_rule {
	const char *name;
	int l3; /* 4 or 6; 0: both */
	/* the context: UDP GRO on, then these (0: the default) */
	uint16_t max_segs;
	uint32_t max_size;
	uint8_t nports;
	uint16_t ports[2];
	struct ur_step steps[UR_MAX_STEPS];
	const char *expect; /* payload lengths delivered, in order */
	/* the first delivery: seg_count and seg_size, gso_type UDP_L4 and
	 * OFL_GRO_OUT_F_CSUM_PARTIAL (0: not checked) */
	uint16_t out0_segs, out0_size;
};

#define S(n) {UR_SEND, 0, n}
#define SET(op, v) {op, 0, v}
#define LAST(r) {UR_LAST, 0, r}
#define FLUSH(why, n) {UR_FLUSH_IS, OFL_GRO_FLUSH_##why, n}
#define NORMAL(why, n) {UR_NORMAL_IS, OFL_GRO_NORMAL_##why, n}
#define STAT(op, n) {op, 0, n}

static const struct ur_rule ur_rules[] = {
	{.name = "same size merges",
	 .steps = {S(4), LAST(OFL_GRO_MERGED), STAT(UR_MERGED_IS, 3),
	           /* (predicted or not: gro_udpfast_test.c) */ STAT(UR_CSUM_SW_IS, 4)},
	 .expect = "400", .out0_segs = 4, .out0_size = 100},
	{.name = "a larger datagram completes the train and starts a new one",
	 .steps = {SET(UR_PAYLOAD, 50), S(1), SET(UR_PAYLOAD, 100), S(1), LAST(OFL_GRO_HELD), S(2),
	           FLUSH(SIZE, 1)},
	 .expect = "50,300"},
	{.name = "a shorter datagram is merged and ends the train",
	 .steps = {S(2), SET(UR_PAYLOAD, 40), S(1), LAST(OFL_GRO_MERGED),
	           STAT(UR_HELD_IS, 0) /* completed at once */, FLUSH(SHORT, 1),
	           SET(UR_PAYLOAD, 100), S(2)},
	 .expect = "240,200", .out0_segs = 3, .out0_size = 100},
	{.name = "the 64th datagram completes the train (UDP_GRO_CNT_MAX)",
	 .steps = {SET(UR_PAYLOAD, 20), S(64), STAT(UR_HELD_IS, 0), FLUSH(UDP_CNT, 1), S(6)},
	 .expect = "1280,120"},
	/* at most 64 KiB of IP packet whatever max_size (BIG TCP is TCP only):
	 * 46 x 1400 + 8 + the IP header fit in 65535, 47 do not */
	{.name = "64 KiB at most, default max_size",
	 .steps = {SET(UR_PAYLOAD, 1400), S(50), FLUSH(MAX_SIZE, 1)},
	 .expect = "64400,5600"},
	{.name = "64 KiB at most, max_size OFL_GRO_MAX_SIZE_LIMIT",
	 .max_size = OFL_GRO_MAX_SIZE_LIMIT,
	 .steps = {SET(UR_PAYLOAD, 1400), S(50), FLUSH(MAX_SIZE, 1)},
	 .expect = "64400,5600"},
	{.name = "a smaller max_size holds",
	 .max_size = 20000,
	 .steps = {SET(UR_PAYLOAD, 1400), S(16)},
	 .expect = "19600,2800"},
	{.name = "max_segs",
	 .max_segs = 8,
	 .steps = {S(10), FLUSH(MAX_SEGS, 1)},
	 .expect = "800,200"},
	{.name = "checksum 0 goes up alone, after the held train; such a flow is never held",
	 .steps = {S(2), SET(UR_ZERO_CSUM, 1), S(1), LAST(OFL_GRO_NORMAL), S(1), LAST(OFL_GRO_NORMAL),
	           SET(UR_ZERO_CSUM, 0), S(2), NORMAL(UDP_ZERO_CSUM, 2), FLUSH(NOT_GRO, 1)},
	 .expect = "200,100,100,200"},
	{.name = "a bad checksum goes up alone",
	 .steps = {S(2), SET(UR_BAD_CSUM, 1), S(1), LAST(OFL_GRO_NORMAL), SET(UR_BAD_CSUM, 0), S(2),
	           NORMAL(UDP_CSUM, 1), FLUSH(CSUM, 1)},
	 .expect = "200,100,200"},
	{.name = "a UDP length other than the real one, or <= 8, goes up alone",
	 .steps = {S(2), SET(UR_LEN_DELTA, -1), S(1), LAST(OFL_GRO_NORMAL), SET(UR_LEN_DELTA, 0),
	           S(2), SET(UR_LEN_DELTA, 1), S(1), LAST(OFL_GRO_NORMAL), SET(UR_LEN_DELTA, 0),
	           S(2), SET(UR_LEN_DELTA, -100) /* length field 8 */, S(1), LAST(OFL_GRO_NORMAL),
	           SET(UR_LEN_DELTA, 0), S(1), SET(UR_PAYLOAD, 0) /* no payload: length 8 */, S(1),
	           LAST(OFL_GRO_NORMAL), NORMAL(UDP_LEN, 4), FLUSH(NOT_GRO, 4)},
	 .expect = "200,100,200,100,200,100,100,0"},
	{.name = "IPv4: TTL, TOS, DF and an ID jump end the train",
	 .l3 = 4,
	 .steps = {S(2), SET(UR_TTL, 63), S(2), SET(UR_TOS, 4), S(2), FLUSH(TTL_TOS_DF, 2),
	           SET(UR_DF, 0), S(2), SET(UR_IPID_ADD, 5), S(2), FLUSH(TTL_TOS_DF, 3), FLUSH(IPID, 1)},
	 .expect = "200,200,200,200,200"},
	{.name = "IPv6: hop limit and traffic class end the train, a flow label is another flow",
	 .l3 = 6,
	 .steps = {S(2), SET(UR_TTL, 63), S(2), SET(UR_TOS, 4), S(2), FLUSH(TTL_TOS_DF, 2),
	           SET(UR_FLOWLABEL, 7), S(2), STAT(UR_HELD_IS, 2)},
	 .expect = "200,200,200,200"},
	{.name = "a fixed IPv4 ID merges (and UDP's gso_type has no fixed-ID bit)",
	 .l3 = 4,
	 .steps = {{UR_SEND_FIXED_ID, 0, 4}},
	 .expect = "400", .out0_segs = 4, .out0_size = 100},
	{.name = "ports, addresses and VLAN are the flow",
	 .steps = {S(1), SET(UR_SPORT_ADD, 1), S(1), SET(UR_DPORT_ADD, 1), S(1),
	           SET(UR_SADDR_ADD, 1), S(1), SET(UR_VLAN, 5), S(1), STAT(UR_HELD_IS, 5),
	           STAT(UR_MERGED_IS, 0), SET(UR_VLAN, 6), S(1),
	           SET(UR_IPID_ADD, -1) /* the ID the VLAN 5 flow expects next */, SET(UR_VLAN, 5),
	           S(1), LAST(OFL_GRO_MERGED)},
	 .expect = "100,100,100,100,200,100"},
	{.name = "no-merge destination ports; the source port does not count",
	 .nports = 2, .ports = {4789, 443},
	 .steps = {S(3), LAST(OFL_GRO_NORMAL), NORMAL(UDP_PORT, 3), SET(UR_DPORT, 444),
	           SET(UR_SPORT, 4789), S(3)},
	 .expect = "100,100,100,300"},
	/* not for GRO at the IP layer: the held train of the flow goes first
	 * (the fragment is not UDP to the payload lister) */
	{.name = "IPv4 options, a bad header checksum, a first fragment go up alone",
	 .l3 = 4,
	 .steps = {S(2), SET(UR_IPOPTS, 4), S(1), LAST(OFL_GRO_NORMAL), SET(UR_IPOPTS, 0), S(2),
	           SET(UR_BAD_IP_CSUM, 1), S(1), SET(UR_BAD_IP_CSUM, 0), S(2),
	           SET(UR_FRAG, 0x2000) /* MF, offset 0 */, S(1), SET(UR_FRAG, 0),
	           NORMAL(IP_OPTIONS, 1), NORMAL(IP_CSUM, 1), NORMAL(FRAGMENT, 1), FLUSH(NOT_GRO, 3)},
	 .expect = "200,100,200,100,200"},
	{.name = "IPv6 extension headers merge; other option bytes are another flow",
	 .l3 = 6,
	 .steps = {SET(UR_DSTOPT, 1), S(2), LAST(OFL_GRO_MERGED), SET(UR_DSTOPT_LAST, 1), S(2),
	           STAT(UR_HELD_IS, 2)},
	 .expect = "200,200"},
	/* a minimum-size IPv4 frame: the kernel compares the UDP length with
	 * the frame's; never merged */
	{.name = "Ethernet padding: never merged, the held train goes first",
	 .l3 = 4,
	 .steps = {S(2), SET(UR_PAYLOAD, 4), SET(UR_PAD_TO, 60), S(1), LAST(OFL_GRO_NORMAL), S(1),
	           NORMAL(PADDED, 2), FLUSH(NOT_GRO, 1), STAT(UR_TRIMMED_IS, 2)},
	 .expect = "200,4,4"},
};
#define UR_NRULES ((int)(sizeof(ur_rules) / sizeof(ur_rules[0])))

/* Fraglist mode (ofl_gro_config.fraglist; src/gro/list.c, after Linux 6.18
 * udp_gro_receive_segment with is_flist and skb_gro_receive_list): the
 * rules above hold as they are in this mode too (gro_udp_test.c plays
 * them again with fraglist on, every frame of a list packet walked back
 * byte for byte by the harness); these are the ones it adds. */
static const struct ur_rule ur_list_rules[] = {
	{.name = "fraglist: NONE and UNNECESSARY are one checksum state (verified by GRO)",
	 .steps = {SET(UR_CSUM, OFL_CSUM_NONE), S(2), SET(UR_CSUM, OFL_CSUM_UNNECESSARY), S(2),
	           LAST(OFL_GRO_MERGED), STAT(UR_MERGED_IS, 3), SET(UR_CSUM, OFL_CSUM_NONE), S(1),
	           LAST(OFL_GRO_MERGED)},
	 .expect = "500", .out0_segs = 5, .out0_size = 100},
	{.name = "fraglist: another checksum state goes up alone, after the held train",
	 .steps = {S(2), SET(UR_CSUM, OFL_CSUM_COMPLETE), S(1), LAST(OFL_GRO_NORMAL),
	           NORMAL(CSUM_STATE, 1), FLUSH(CSUM_STATE, 1), S(1), LAST(OFL_GRO_HELD),
	           SET(UR_CSUM, -1), S(1), LAST(OFL_GRO_NORMAL), S(1), LAST(OFL_GRO_HELD),
	           NORMAL(CSUM_STATE, 2), FLUSH(CSUM_STATE, 2)},
	 .expect = "200,100,100,100,100"},
	{.name = "fraglist: COMPLETE datagrams merge with each other",
	 .steps = {SET(UR_CSUM, OFL_CSUM_COMPLETE), S(3), LAST(OFL_GRO_MERGED)},
	 .expect = "300", .out0_segs = 3, .out0_size = 100},
	{.name = "fraglist: PARTIAL is a state of its own",
	 .steps = {S(2), SET(UR_CSUM, OFL_CSUM_PARTIAL), S(1), LAST(OFL_GRO_NORMAL), S(2),
	           LAST(OFL_GRO_MERGED), SET(UR_CSUM, -1), S(1), LAST(OFL_GRO_NORMAL),
	           NORMAL(CSUM_STATE, 2), FLUSH(CSUM_STATE, 2)},
	 .expect = "200,100,200,100"},
	/* skb_gro_receive_list(): the merged packet plus the next datagram's
	 * whole IP packet under 64 KiB; 46 x 1424 + 28 fits in 65535 (the
	 * plain rule merges 46), 45 x 1424 + 2 x 28 is the most a list takes */
	{.name = "fraglist: 64 KiB counts the next datagram's own headers (IPv4)",
	 .l3 = 4,
	 .steps = {SET(UR_PAYLOAD, 1424), S(50), FLUSH(MAX_SIZE, 1)},
	 .expect = "64080,7120"},
	{.name = "fraglist: 64 KiB counts the next datagram's own headers (IPv6)",
	 .l3 = 6,
	 .steps = {SET(UR_PAYLOAD, 1423), S(50), FLUSH(MAX_SIZE, 1)},
	 .expect = "64035,7115"},
	{.name = "fraglist: a train of 64 datagrams, each walked back whole",
	 .steps = {SET(UR_PAYLOAD, 30), S(64), FLUSH(UDP_CNT, 1), STAT(UR_HELD_IS, 0)},
	 .expect = "1920", .out0_segs = 64, .out0_size = 30},
};
#define UR_NLIST ((int)(sizeof(ur_list_rules) / sizeof(ur_list_rules[0])))

#undef S
#undef SET
#undef LAST
#undef FLUSH
#undef NORMAL
#undef STAT

/* How a rule's datagrams reach a context, and its counters. */
struct ur_driver {
	int (*send)(void *u, const struct gen_tcp *g); /* ofl_gro_receive()'s result */
	struct ofl_gro_stats (*stats)(void *u);
	int sw_csum; /* checksums verified in software (UR_CSUM_SW_IS) */
	void *u;
	void (*csum)(void *u, int status); /* UR_CSUM (NULL: no such rules) */
};

/* The rule's context configuration (deliver and user left to the caller). */
static inline void ur_config(const struct ur_rule *r, struct ofl_gro_config *c)
{
	unsigned i;
	ck_assert_int_eq(ofl_gro_config_default(c), 0);
	c->udp = 1;
	if (r->max_segs)
		c->max_segs = r->max_segs;
	if (r->max_size)
		c->max_size = r->max_size;
	c->udp_nports = r->nports;
	for (i = 0; i < r->nports; i++)
		c->udp_no_merge_ports[i] = r->ports[i];
}

/* The flow every rule starts from. */
static inline void ur_flow(struct gen_tcp *g, int l3)
{
	gen_tcp_init(g, l3);
	g->udp = true;
	g->sport = 4433;
	g->dport = 443;
}

static inline void ur_check(const struct ur_rule *r, int l3, const struct ur_driver *d,
                            const struct ur_step *s)
{
	struct ofl_gro_stats st = d->stats(d->u);
	uint64_t got = 0, want = (uint64_t)s->v;
	switch (s->op) {
	case UR_FLUSH_IS: got = st.flush[s->idx]; break;
	case UR_NORMAL_IS: got = st.normal_why[s->idx]; break;
	case UR_MERGED_IS: got = st.merged; break;
	case UR_HELD_IS: got = st.flows_held; break;
	case UR_FAST_IS: got = st.merged_fast; break;
	case UR_CSUM_SW_IS: got = st.csum_sw; want = d->sw_csum ? want : 0; break;
	case UR_TRIMMED_IS: got = st.padding_trimmed; break;
	default: ck_abort_msg("%s: unknown check %u", r->name, s->op);
	}
	ck_assert_msg(got == want, "%s (IPv%d): check %u [%u] is %llu, want %llu", r->name, l3, s->op,
	              s->idx, (unsigned long long)got, (unsigned long long)want);
}

/* Play rule r over IPv4 or IPv6 through d, making its checks on the way. */
static inline void ur_run(const struct ur_rule *r, int l3, const struct ur_driver *d)
{
	struct gen_tcp g;
	int last = -1000;
	unsigned i, k;
	ur_flow(&g, l3);
	for (i = 0; i < UR_MAX_STEPS && r->steps[i].op != UR_END; i++) {
		const struct ur_step *s = &r->steps[i];
		switch (s->op) {
		case UR_SEND:
		case UR_SEND_FIXED_ID:
			for (k = 0; k < (unsigned)s->v; k++) {
				last = d->send(d->u, &g);
				g.seq += g.payload_len;
				if (s->op == UR_SEND)
					g.ip_id++;
			}
			break;
		case UR_PAYLOAD: g.payload_len = (uint32_t)s->v; break;
		case UR_ZERO_CSUM: g.udp_zero_csum = s->v != 0; break;
		case UR_BAD_CSUM: g.bad_tcp_csum = s->v != 0; break;
		case UR_LEN_DELTA: g.udp_len_delta = s->v; break;
		case UR_TTL: g.ttl = (uint8_t)s->v; break;
		case UR_TOS: g.tos = (uint8_t)s->v; break;
		case UR_DF: g.df = s->v != 0; break;
		case UR_IPID_ADD: g.ip_id = (uint16_t)(g.ip_id + s->v); break;
		case UR_FLOWLABEL: g.flowlabel = (uint32_t)s->v; break;
		case UR_SPORT: g.sport = (uint16_t)s->v; break;
		case UR_DPORT: g.dport = (uint16_t)s->v; break;
		case UR_SPORT_ADD: g.sport = (uint16_t)(g.sport + s->v); break;
		case UR_DPORT_ADD: g.dport = (uint16_t)(g.dport + s->v); break;
		case UR_SADDR_ADD: g.saddr[l3 == 4 ? 3 : 15] = (uint8_t)(g.saddr[l3 == 4 ? 3 : 15] + s->v); break;
		case UR_VLAN:
			g.nvlan = s->v ? 1 : 0;
			g.vlan_tci[0] = (uint16_t)s->v;
			break;
		case UR_IPOPTS:
			g.ip_optlen = (uint8_t)s->v;
			memset(g.ip_opts, 1, (size_t)s->v); /* NOPs */
			break;
		case UR_BAD_IP_CSUM: g.bad_ip_csum = s->v != 0; break;
		case UR_FRAG: g.frag = (uint16_t)s->v; break;
		case UR_PAD_TO: g.pad_to = (uint32_t)s->v; break;
		case UR_DSTOPT: /* next header UDP, PadN of 4 */
			g.ext_nh = 60;
			memset(g.ext, 0, 8);
			g.ext[0] = 17;
			g.ext[2] = 1;
			g.ext[3] = 4;
			g.extlen = 8;
			break;
		case UR_DSTOPT_LAST: g.ext[7] = (uint8_t)s->v; break;
		case UR_CSUM:
			ck_assert_ptr_nonnull(d->csum);
			d->csum(d->u, s->v);
			break;
		case UR_LAST:
			ck_assert_msg(last == s->v, "%s (IPv%d): step %u: result %d, want %d", r->name, l3, i,
			              last, s->v);
			break;
		default: ur_check(r, l3, d, s); break;
		}
	}
}

#endif
