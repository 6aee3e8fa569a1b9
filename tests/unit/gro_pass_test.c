/*
 * gro_pass_test.c - frames that can only be passed on, at the head of a
 * burst that arrives with nothing held (src/gro/burst.c pass_run(): PSH,
 * FIN, URG, RST, SYN or no payload, of the plain shape).  Every output
 * record such a burst delivers must be the one the general path writes for
 * the same frames given one at a time: each field of struct ofl_gro_out,
 * the slices (the caller's buffer pointers, lengths, packet and buffer
 * index), the cookies, the delivery lists (normal_batch), the counters and
 * the results.  The bursts put one frame of another kind at each place
 * (first, inside and after the look-ahead, last) among plain PSH frames:
 * the shapes the fast path must leave to the usual one (IP options, a bad
 * IP checksum, a hardware or in-band VLAN tag, several buffers, checksum
 * not verified, a fragment, padding, a TCP header too short or past the
 * frame, IPv6 extension headers, UDP, not IP, a payload over the byte
 * limit, a frame shorter than 54 bytes, bad arguments) and the ones it
 * takes (IPv6, TCP options, no payload, FIN/SYN/RST/URG, a NIC hash).
 * As gro_burst_diff_pass_test the sequences are also replayed in bursts of
 * other sizes (support/burstdiff.h).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "harness.h"

#define NF 20u      /* frames per burst */
#define FCAP 1600u

/* What a context delivered: the records, their slices and cookies copied,
 * and the size of each delivery list. */
#define LOG_MAX 64u
struct log {
	struct ofl_gro_out out[LOG_MAX];
	struct ofl_slice sl[LOG_MAX][4];
	void *ck[LOG_MAX];
	unsigned n, lists, list_n[LOG_MAX];
};

static void log_deliver(void *user, const struct ofl_gro_out *p, unsigned n)
{
	struct log *l = user;
	unsigned i, k;
	ck_assert_uint_lt(l->lists, LOG_MAX);
	l->list_n[l->lists++] = n;
	for (i = 0; i < n; i++) {
		ck_assert_uint_lt(l->n, LOG_MAX);
		ck_assert_uint_le(p[i].nslices, 4);
		ck_assert_uint_eq(p[i].ncookies, 1); /* nothing merges here */
		l->out[l->n] = p[i];
		for (k = 0; k < p[i].nslices; k++)
			l->sl[l->n][k] = p[i].slices[k];
		l->ck[l->n] = p[i].cookies[0];
		l->n++;
	}
}

/* The frames of one burst: their bytes, buffers and packets. */
struct burst {
	uint8_t f[NF][FCAP];
	struct ofl_buf b[NF][4];
	struct ofl_pkt pkt[NF];
};

enum variant {
	V_PLAIN, V_IPV6, V_NOPAY, V_FIN, V_SYN, V_RST, V_URG, V_TCPOPT, V_HASH, /* taken */
	V_NOPSH, V_IPOPT, V_BADIPCSUM, V_IPCSUM1, V_HWVLAN, V_VLAN, V_TWOBUFS, V_CSUM_NONE, V_CSUM_COMPLETE,
	V_CSUM_PARTIAL, V_MF, V_FRAGOFF, V_PADDED, V_LONGIP, V_DOFF4, V_DOFFPAST, V_IPV6EXT, V_IPV6PAD, V_UDP,
	V_UDP6, V_ARP, V_OVERLIMIT, V_SHORT, V_NULLDATA, V_NOBUFS, V_IPV4VER, V_IPV6VER, V_NCOUNT
};

static const char *const vname[V_NCOUNT] = {
	"plain", "IPv6", "no payload", "FIN", "SYN", "RST", "URG", "TCP options", "NIC hash",
	"no PSH", "IP options", "bad IP checksum", "IP checksum off by one", "hardware VLAN", "in-band VLAN",
	"two buffers", "checksum NONE", "checksum COMPLETE", "checksum PARTIAL", "MF", "fragment offset",
	"Ethernet padding", "IP length past the frame", "TCP header 16 bytes", "TCP header past the frame",
	"IPv6 extension header", "IPv6 padding", "UDP", "UDP over IPv6", "ARP", "payload over max_held_bytes",
	"frame of 50 bytes", "NULL data", "no buffers", "IPv4 header length 24 without options",
	"IP version 4 in an IPv6 frame"};

/* The frame of flow f (its own ports), segment k, of variant v in slot i. */
static void make(struct burst *bu, unsigned i, enum variant v, unsigned f)
{
	struct gen_tcp g;
	uint8_t *fr = bu->f[i];
	size_t len;
	struct ofl_pkt *p = &bu->pkt[i];
	gen_tcp_init(&g, v == V_IPV6 || v == V_IPV6EXT || v == V_IPV6PAD || v == V_UDP6 || v == V_IPV6VER ? 6 : 4);
	g.sport = (uint16_t)(3000 + f);
	g.flow_salt = f;
	g.seq = 5000u * f + 1;
	g.ip_id = (uint16_t)(100 + i);
	g.flags = GEN_ACK | GEN_PSH;
	g.payload_len = 100 + 7 * i;
	switch (v) {
	case V_NOPAY:
		g.flags = GEN_ACK;
		g.payload_len = 0;
		break;
	case V_FIN: g.flags = GEN_ACK | GEN_FIN; break;
	case V_SYN: g.flags = GEN_SYN; break;
	case V_RST: g.flags = GEN_RST | GEN_ACK; break;
	case V_URG: g.flags = GEN_URG | GEN_ACK; break;
	case V_TCPOPT:
		g.optlen = 12;
		memset(g.opts, 1, 12);
		break;
	case V_NOPSH: g.flags = GEN_ACK; break;
	case V_IPOPT:
		g.ip_optlen = 4;
		memset(g.ip_opts, 1, 4);
		break;
	case V_BADIPCSUM: g.bad_ip_csum = true; break;
	case V_VLAN:
		g.nvlan = 1;
		g.vlan_tci[0] = 7;
		break;
	case V_MF: g.frag = 0x2000; break;
	case V_FRAGOFF: g.frag = 0x0010; break;
	case V_PADDED:
		g.payload_len = 2;
		g.pad_to = 60;
		break;
	case V_LONGIP: g.ip_len_delta = 4; break;
	case V_IPV6EXT:
		/* a destination options header of 8 bytes, then TCP */
		g.ext[0] = 6;
		g.extlen = 8;
		g.ext_nh = 60;
		break;
	case V_IPV6PAD:
		g.payload_len = 0;
		g.flags = GEN_ACK | GEN_FIN;
		g.pad_to = 80;
		break;
	case V_UDP:
	case V_UDP6:
		g.udp = true;
		g.payload_len = 200;
		break;
	case V_OVERLIMIT: g.payload_len = 1400; break;
	default: break;
	}
	len = gen_tcp_frame(&g, fr, FCAP);
	ck_assert_uint_gt(len, 0);
	switch (v) {
	case V_IPCSUM1: fr[25] ^= 1; break; /* the IPv4 header checksum's low byte */
	case V_DOFF4: fr[46] = 0x40; break;
	case V_DOFFPAST:
		/* no payload, a 60-byte TCP header in a 54-byte frame */
		len = 54;
		fr[16] = 0, fr[17] = 40;
		fr[24] = fr[25] = 0;
		fr[46] = 0xf0;
		{
			/* the IPv4 header checksum again */
			uint32_t s = 0;
			unsigned k;
			for (k = 14; k < 34; k += 2)
				s += (uint32_t)fr[k] << 8 | fr[k + 1];
			while (s >> 16)
				s = (s & 0xffff) + (s >> 16);
			fr[24] = (uint8_t)(~s >> 8);
			fr[25] = (uint8_t)~s;
		}
		break;
	case V_UDP:
	case V_UDP6:
		/* payload bytes where a TCP header would say 20 bytes, PSH */
		fr[v == V_UDP ? 46 : 66] = 0x50;
		fr[v == V_UDP ? 47 : 67] = 0x18;
		break;
	case V_ARP: fr[12] = 0x08, fr[13] = 0x06; break;
	case V_SHORT: len = 50; break;
	case V_IPV4VER: fr[14] = 0x46; break; /* IHL 6, header still 20 bytes long */
	case V_IPV6VER: fr[14] = (uint8_t)(0x40 | (fr[14] & 0x0f)); break;
	default: break;
	}
	memset(p, 0, sizeof(*p));
	p->bufs = bu->b[i];
	p->nbufs = 1;
	p->csum_status = OFL_CSUM_UNNECESSARY;
	p->cookie = (void *)(uintptr_t)(0x1000 + i);
	/* set without their flags: copied as they are */
	p->vlan_tci = (uint16_t)(0x100 + i);
	p->rx_hash = 0xabc00000u + i;
	bu->b[i][0] = (struct ofl_buf){fr, (uint32_t)len};
	switch (v) {
	case V_HASH: p->flags = OFL_PKT_F_HASH; break;
	case V_HWVLAN: p->flags = OFL_PKT_F_VLAN | OFL_PKT_F_HASH; break;
	case V_TWOBUFS:
		bu->b[i][0].len = 30;
		bu->b[i][1] = (struct ofl_buf){fr + 30, (uint32_t)len - 30};
		p->nbufs = 2;
		break;
	case V_CSUM_NONE: p->csum_status = OFL_CSUM_NONE; break;
	case V_CSUM_COMPLETE: p->csum_status = OFL_CSUM_COMPLETE; break;
	case V_CSUM_PARTIAL: p->csum_status = OFL_CSUM_PARTIAL; break;
	case V_NULLDATA: bu->b[i][0].data = NULL; break;
	case V_NOBUFS: p->bufs = NULL; break;
	default: break;
	}
}

static void cfg_of(struct ofl_gro_config *cfg, struct log *l, unsigned batch)
{
	ofl_gro_config_default(cfg);
	cfg->deliver = log_deliver;
	cfg->user = l;
	cfg->normal_batch = (uint16_t)batch;
	cfg->max_held_bytes = 1000; /* V_OVERLIMIT's 1400 bytes do not fit */
	cfg->max_flows = 32;        /* (a small context: created twice a run) */
}

static void stats_of(struct ofl_gro *g, struct ofl_gro_stats *st)
{
	ck_assert_int_eq(ofl_gro_get_stats(g, st, sizeof(*st)), 0);
	/* what gro.h lets a burst count differently */
	st->lookups = st->lookup_probes = st->merged_fast = 0;
	st->api_errors = 0; /* (checked apart: one refused call each) */
}

/* Field by field, the two logs. */
static void compare(const struct log *a, const struct log *b, const char *what)
{
	unsigned i, k;
	ck_assert_msg(a->lists == b->lists, "%s: %u delivery lists, %u one at a time", what, a->lists, b->lists);
	for (i = 0; i < a->lists; i++)
		ck_assert_msg(a->list_n[i] == b->list_n[i], "%s: list %u: %u records, %u one at a time", what, i,
		              a->list_n[i], b->list_n[i]);
	ck_assert_uint_eq(a->n, b->n);
	for (i = 0; i < a->n; i++) {
		const struct ofl_gro_out *x = &a->out[i], *y = &b->out[i];
#define SAME(f) ck_assert_msg(x->f == y->f, "%s: record %u: " #f " differs", what, i)
		SAME(hdr_len);
		SAME(nslices);
		SAME(len);
		SAME(seg_count);
		SAME(seg_size);
		SAME(ncookies);
		SAME(l3_off);
		SAME(l4_off);
		SAME(csum_start);
		SAME(csum_offset);
		SAME(flags);
		SAME(gso_type);
		SAME(vlan_tci);
		SAME(rx_hash);
		SAME(first_ns);
		SAME(dsa);
#undef SAME
		ck_assert_msg((x->hdr == NULL) == (y->hdr == NULL), "%s: record %u: hdr", what, i);
		if (x->hdr_len)
			ck_assert_msg(memcmp(x->hdr, y->hdr, x->hdr_len) == 0, "%s: record %u: hdr bytes", what, i);
		for (k = 0; k < x->nslices; k++) {
			const struct ofl_slice *s = &a->sl[i][k], *t = &b->sl[i][k];
			ck_assert_msg(s->data == t->data && s->len == t->len && s->pkt == t->pkt && s->buf == t->buf,
			              "%s: record %u: slice %u differs", what, i, k);
		}
		ck_assert_msg(a->ck[i] == b->ck[i], "%s: record %u: cookie differs", what, i);
	}
}

/* Burst bu (n frames) through one ofl_gro_receive_burst() call and one frame
 * at a time through ofl_gro_receive(); first (pre) frames given one at a
 * time to both (records already waiting in the delivery list).  Both must
 * take the same frames, deliver the same and count the same. */
static void run(struct burst *bu, unsigned n, unsigned pre, unsigned batch, const char *what)
{
	static struct log la, lb;
	struct ofl_gro_config cfg;
	struct ofl_gro *ga, *gb;
	struct ofl_gro_stats sa, sb;
	unsigned i, taken_a, taken_b = n, errs_b = 0;
	int err_a = 0, err_b = 0;
	memset(&la, 0, sizeof(la));
	memset(&lb, 0, sizeof(lb));
	cfg_of(&cfg, &la, batch);
	ck_assert_int_eq(ofl_gro_create(&cfg, &ga), 0);
	cfg_of(&cfg, &lb, batch);
	ck_assert_int_eq(ofl_gro_create(&cfg, &gb), 0);
	for (i = 0; i < pre; i++)
		ck_assert_int_ge(ofl_gro_receive(ga, &bu->pkt[i], 7), 0);
	taken_a = pre + ofl_gro_receive_burst(ga, bu->pkt + pre, n - pre, 9, &err_a);
	for (i = 0; i < n; i++) {
		int r = ofl_gro_receive(gb, &bu->pkt[i], i < pre ? 7 : 9);
		if (r < 0) {
			/* a burst stops at a refused frame */
			err_b = r;
			errs_b++;
			taken_b = i;
			break;
		}
	}
	ck_assert_msg(taken_a == taken_b, "%s: burst took %u frames, one at a time %u", what, taken_a, taken_b);
	ck_assert_msg(err_a == err_b, "%s: burst error %d, one at a time %d", what, err_a, err_b);
	stats_of(ga, &sa);
	stats_of(gb, &sb);
	ck_assert_msg(memcmp(&sa, &sb, sizeof(sa)) == 0, "%s: counters differ before poll end", what);
	ck_assert_int_eq(ofl_gro_poll_end(ga, n, 11, NULL), 0);
	ck_assert_int_eq(ofl_gro_poll_end(gb, n, 11, NULL), 0);
	stats_of(ga, &sa);
	stats_of(gb, &sb);
	ck_assert_msg(memcmp(&sa, &sb, sizeof(sa)) == 0, "%s: counters differ", what);
	ck_assert_uint_eq(sa.out_segs, taken_a);
	compare(&la, &lb, what);
	ck_assert_uint_eq(la.n, taken_a); /* nothing merged: one record each */
	ofl_gro_destroy(ga);
	ofl_gro_destroy(gb);
}

/* Variant _i at each place of a burst of plain PSH frames: one flow and
 * delivery lists of 8; a new flow per frame, lists of 3 and (past the
 * first frames) two records waiting before the burst.  Under a memory
 * checker (OFL_TEST_CHECKER set: ASan, memcheck) the first and the tenth
 * place only, the first inside and the first after the look-ahead. */
START_TEST(test_variant_everywhere)
{
	static struct burst bu;
	static const unsigned at[] = {0, 9, 1, 8, NF - 1};
	const unsigned nat = getenv("OFL_TEST_CHECKER") ? 2u : (unsigned)(sizeof(at) / sizeof(at[0]));
	enum variant v = (enum variant)_i;
	char what[160];
	unsigned a, k, i;
	for (a = 0; a < nat; a++)
		for (k = 0; k < 2; k++) {
			unsigned pre = k == 1 && at[a] > 2 ? 2 : 0, batch = k ? 3 : 8;
			for (i = 0; i < NF; i++)
				make(&bu, i, i == at[a] ? v : V_PLAIN, k ? i : 0);
			snprintf(what, sizeof(what), "%s at frame %u, %s, normal_batch %u, %u before", vname[v], at[a],
			         k ? "a flow per frame" : "one flow", batch, pre);
			run(&bu, NF, pre, batch, what);
		}
}
END_TEST

/* Every frame of the burst the variant (those the fast path takes: the
 * whole burst passed on; the others: none of it). */
START_TEST(test_variant_all)
{
	static struct burst bu;
	enum variant v = (enum variant)_i;
	char what[96];
	unsigned i;
	for (i = 0; i < NF; i++)
		make(&bu, i, v, i);
	snprintf(what, sizeof(what), "every frame %s", vname[v]);
	run(&bu, NF, 0, 8, what);
	if (getenv("OFL_TEST_CHECKER"))
		return; /* (under a memory checker: the whole burst only) */
	run(&bu, 9, 0, 4, what);
	run(&bu, 1, 0, 8, what);
}
END_TEST

/* A run of taken frames passed on as bursts after a frame was held: the
 * fast path is only for a burst that arrives with nothing held; here a
 * held frame (no PSH) comes first, in its own burst. */
START_TEST(test_after_held)
{
	static struct burst bu;
	static struct log la;
	struct ofl_gro_config cfg;
	struct ofl_gro *g;
	struct ofl_gro_stats st;
	unsigned i;
	int err = 0;
	for (i = 0; i < NF; i++)
		make(&bu, i, i == 0 ? V_NOPSH : V_PLAIN, i);
	memset(&la, 0, sizeof(la));
	cfg_of(&cfg, &la, 8);
	ck_assert_int_eq(ofl_gro_create(&cfg, &g), 0);
	ck_assert_uint_eq(ofl_gro_receive_burst(g, bu.pkt, 1, 1, &err), 1);
	ck_assert_uint_eq(ofl_gro_receive_burst(g, bu.pkt + 1, NF - 1, 2, &err), NF - 1);
	ck_assert_int_eq(err, 0);
	ck_assert_int_eq(ofl_gro_poll_end(g, NF, 3, NULL), 0);
	stats_of(g, &st);
	ck_assert_uint_eq(st.held, 1);
	ck_assert_uint_eq(st.normal, NF - 1);
	ck_assert_uint_eq(st.normal_why[OFL_GRO_NORMAL_FLAGS], NF - 1);
	ck_assert_uint_eq(la.n, NF);
	for (i = 0; i < la.n; i++)
		ck_assert_uint_eq(la.out[i].seg_count, la.ck[i] == bu.pkt[0].cookie ? 1 : 0);
	ofl_gro_destroy(g);
}
END_TEST

/* The records of one burst of taken frames, against the frames themselves
 * (the fields gro_out.h defines for a frame passed on). */
START_TEST(test_record_fields)
{
	static struct burst bu;
	static struct log la;
	struct ofl_gro_config cfg;
	struct ofl_gro *g;
	unsigned i;
	int err = 0;
	for (i = 0; i < NF; i++)
		make(&bu, i, i % 3 == 0 ? V_HASH : i % 3 == 1 ? V_NOPAY : V_IPV6, i);
	memset(&la, 0, sizeof(la));
	cfg_of(&cfg, &la, 8);
	ck_assert_int_eq(ofl_gro_create(&cfg, &g), 0);
	ck_assert_uint_eq(ofl_gro_receive_burst(g, bu.pkt, NF, 42, &err), NF);
	ck_assert_int_eq(err, 0);
	ck_assert_uint_eq(la.lists, 2);
	ck_assert_uint_eq(la.list_n[0], 8);
	ck_assert_uint_eq(la.list_n[1], 8);
	ck_assert_int_eq(ofl_gro_poll_end(g, NF, 43, NULL), 0);
	ck_assert_uint_eq(la.lists, 3);
	ck_assert_uint_eq(la.list_n[2], NF - 16);
	for (i = 0; i < NF; i++) {
		const struct ofl_gro_out *o = &la.out[i];
		const struct ofl_pkt *p = &bu.pkt[i];
		ck_assert_ptr_null(o->hdr);
		ck_assert_uint_eq(o->hdr_len, 0);
		ck_assert_uint_eq(o->nslices, 1);
		ck_assert_ptr_eq(la.sl[i][0].data, p->bufs[0].data);
		ck_assert_uint_eq(la.sl[i][0].len, p->bufs[0].len);
		ck_assert_uint_eq(la.sl[i][0].pkt, 0);
		ck_assert_uint_eq(la.sl[i][0].buf, 0);
		ck_assert_uint_eq(o->len, p->bufs[0].len);
		ck_assert_uint_eq(o->seg_count, 0);
		ck_assert_uint_eq(o->seg_size, 0);
		ck_assert_uint_eq(o->ncookies, 1);
		ck_assert_ptr_eq(la.ck[i], p->cookie);
		ck_assert_uint_eq(o->l3_off, 0);
		ck_assert_uint_eq(o->l4_off, 0);
		ck_assert_uint_eq(o->csum_start, 0);
		ck_assert_uint_eq(o->csum_offset, 0);
		ck_assert_uint_eq(o->flags, OFL_GRO_OUT_F_CSUM_VERIFIED | (i % 3 == 0 ? OFL_GRO_OUT_F_HASH : 0));
		ck_assert_uint_eq(o->gso_type, 0);
		ck_assert_uint_eq(o->vlan_tci, p->vlan_tci);
		ck_assert_uint_eq(o->rx_hash, p->rx_hash);
		ck_assert_uint_eq(o->first_ns, 42);
		ck_assert_ptr_null(o->dsa);
	}
	ofl_gro_destroy(g);
}
END_TEST

int main(void)
{
	const struct h_test tests[] = {
		{test_variant_everywhere, V_NCOUNT},
		{test_variant_all, V_NCOUNT},
		{test_after_held, 0},
		{test_record_fields, 0},
	};
	/* in this process: a fork per test costs more than the test */
	return h_run_table("gro_pass", 0, H_NOFORK, tests, (unsigned)(sizeof(tests) / sizeof(tests[0])));
}
