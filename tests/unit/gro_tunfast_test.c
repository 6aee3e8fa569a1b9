/*
 * gro_tunfast_test.c - header prediction and the train of tunnel flows
 * (src/gro/tunfast.c) against the full path (src/gro/tunnel.c).
 *
 * Six VXLAN segments of one flow (each outer/inner IPv4/IPv6 combination;
 * Geneve without options once), one of them (the second or the fourth) with
 * one header byte changed (bit 0 or bit 7), its IPv4 header checksums left
 * as they are or made valid again, its inner TCP checksum always valid.
 * Fed three ways:
 *   - one frame at a time with a software checksum (OFL_CSUM_NONE): the
 *     full path only (prediction needs a verified checksum): the reference;
 *   - one frame at a time, checksum verified: header prediction first;
 *   - the six as one burst, checksum verified: the train, then prediction.
 * All three must deliver the same packets (segment count, length, bytes
 * with full checksums, cookies) and count the same held, merged, normal
 * and flush reasons.  A changed outer UDP checksum (not 0 now) is
 * verified in software and not with a verified one, a real difference:
 * there the two verified ways must agree and deliver that frame alone (a
 * flow of its own: the outer checksums both 0 or both not).
 *
 * Under a memory checker (OFL_TEST_CHECKER set) every seventh byte only.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ofl/csum.h>
#include <ofl/gro.h>

#include "gen.h"
#include "gen_tun.h"
#include "harness.h"

#define NSEG 6
#define FMAX 1600

struct log {
	char s[4096];
	size_t pos;
	uint8_t lin[70000];
};

static void deliver(void *user, const struct ofl_gro_out *o, unsigned n)
{
	struct log *l = user;
	unsigned i, j;
	for (i = 0; i < n; i++, o++) {
		int w = ofl_gro_linearize(o, l->lin, sizeof(l->lin), OFL_CSUM_MODE_FULL);
		uint32_t h = 2166136261u;
		ck_assert_int_eq(w, (int)o->len);
		for (j = 0; j < o->len; j++)
			h = (h ^ l->lin[j]) * 16777619u;
		l->pos += (size_t)snprintf(l->s + l->pos, sizeof(l->s) - l->pos, "[%u %u %08x t%u:", o->seg_count,
		                           o->len, h, OFL_GRO_OUT_TUN_TYPE(o->flags));
		for (j = 0; j < o->ncookies; j++)
			l->pos += (size_t)snprintf(l->s + l->pos, sizeof(l->s) - l->pos, " %u",
			                           (unsigned)(uintptr_t)o->cookies[j]);
		l->pos += (size_t)snprintf(l->s + l->pos, sizeof(l->s) - l->pos, "]");
		ck_assert_uint_lt(l->pos, sizeof(l->s) - 64);
	}
}

static uint8_t frames[NSEG][FMAX];
static uint32_t flen[NSEG];
static struct ofl_buf fbuf[NSEG];
static struct log logs[3];

/* Header offsets of the frames (the shape tunfast.c predicts). */
struct shape {
	unsigned ol3, il3, ol4, il3_off, il4;
};

/* Make an IPv4 header's checksum (at ip) valid again. */
static void fix_ip4(uint8_t *ip)
{
	uint16_t c;
	ip[10] = ip[11] = 0;
	c = ofl_csum_fold(ofl_csum_partial(ip, 20, 0));
	memcpy(ip + 10, &c, 2);
}

/* Make the inner TCP checksum valid for the frame's bytes as they are. */
static void fix_tcp(uint8_t *f, uint32_t len, const struct shape *s)
{
	uint8_t ph[40];
	uint32_t tl = len - s->il4, sum;
	uint16_t c;
	const uint8_t *ip = f + s->il3_off;
	size_t pl;
	memset(ph, 0, sizeof(ph));
	if (s->il3 == 4) {
		memcpy(ph, ip + 12, 8);
		ph[9] = 6;
		ph[10] = (uint8_t)(tl >> 8);
		ph[11] = (uint8_t)tl;
		pl = 12;
	} else {
		memcpy(ph, ip + 8, 32);
		ph[34] = (uint8_t)(tl >> 8);
		ph[35] = (uint8_t)tl;
		ph[39] = 6;
		pl = 40;
	}
	f[s->il4 + 16] = f[s->il4 + 17] = 0;
	sum = ofl_csum_partial(ph, pl, 0);
	sum = ofl_csum_partial(f + s->il4, tl, sum);
	c = ofl_csum_fold(sum);
	memcpy(f + s->il4 + 16, &c, 2);
}

/* The six segments, frame m with byte off xored with x (x 0: none). */
static void build(int ol3, int il3, int type, unsigned m, uint32_t off, uint8_t x, int fixip, struct shape *s)
{
	static uint8_t inner[FMAX];
	struct gen_tcp in;
	struct gen_tun t;
	unsigned k;
	gen_tcp_init(&in, il3);
	in.payload_len = 1000;
	gen_tun_init(&t, type, ol3);
	s->ol3 = (unsigned)ol3;
	s->il3 = (unsigned)il3;
	s->ol4 = ol3 == 4 ? 34u : 54u;
	s->il3_off = s->ol4 + 30u;
	s->il4 = s->il3_off + (il3 == 4 ? 20u : 40u);
	for (k = 0; k < NSEG; k++) {
		size_t il = gen_tcp_frame(&in, inner, sizeof(inner));
		flen[k] = (uint32_t)gen_tun_wrap(&t, inner, il, frames[k], FMAX);
		ck_assert_uint_gt(flen[k], 0);
		if (k == m && x) {
			frames[k][off] ^= x;
			if (fixip && ol3 == 4)
				fix_ip4(frames[k] + 14);
			if (fixip && il3 == 4)
				fix_ip4(frames[k] + s->il3_off);
			fix_tcp(frames[k], flen[k], s);
		}
		fbuf[k] = (struct ofl_buf){frames[k], flen[k]};
		in.seq += in.payload_len;
		in.ip_id++;
		t.ip_id++;
	}
}

/* Feed the six frames: way 0 one at a time, software checksum; 1 one at a
 * time, verified; 2 one burst, verified.  The log and the counters. */
static void play(int way, int type, struct ofl_gro_stats *st)
{
	struct ofl_gro_config c;
	struct ofl_gro *g;
	struct ofl_pkt p[NSEG];
	unsigned k;
	ofl_gro_config_default(&c);
	c.deliver = deliver;
	c.user = &logs[way];
	if (type == GEN_TUN_VXLAN)
		c.vxlan_ports[c.vxlan_nports++] = 4789;
	else
		c.geneve_ports[c.geneve_nports++] = 6081;
	logs[way].pos = 0;
	logs[way].s[0] = 0;
	ck_assert_int_eq(ofl_gro_create(&c, &g), 0);
	memset(p, 0, sizeof(p));
	for (k = 0; k < NSEG; k++) {
		p[k].bufs = &fbuf[k];
		p[k].nbufs = 1;
		p[k].cookie = (void *)(uintptr_t)k;
		p[k].csum_status = way == 0 ? OFL_CSUM_NONE : OFL_CSUM_UNNECESSARY;
	}
	if (way == 2) {
		ck_assert_uint_eq(ofl_gro_receive_burst(g, p, NSEG, 0, NULL), NSEG);
	} else {
		for (k = 0; k < NSEG; k++)
			ck_assert_int_ge(ofl_gro_receive(g, &p[k], 0), 0);
	}
	ck_assert_int_eq(ofl_gro_flush(g), 0);
	ck_assert_int_eq(ofl_gro_get_stats(g, st, sizeof(*st)), 0);
	ofl_gro_destroy(g);
}

/* The counters that must agree (csum_sw, lookups and merged_fast may not). */
static void same_counts(const struct ofl_gro_stats *a, const struct ofl_gro_stats *b, const char *what)
{
	ck_assert_msg(a->rx_pkts == b->rx_pkts && a->merged == b->merged && a->held == b->held &&
	                  a->normal == b->normal && memcmp(a->flush, b->flush, sizeof(a->flush)) == 0 &&
	                  memcmp(a->normal_why, b->normal_why, sizeof(a->normal_why)) == 0,
	              "%s: counters differ", what);
}

/* _i: outer IPv6 (bit 0), inner IPv6 (bit 1), Geneve (4). */
START_TEST(byte_changed)
{
	int ol3 = (_i & 1) ? 6 : 4, il3 = (_i & 2) ? 6 : 4, type = _i == 4 ? GEN_TUN_GENEVE : GEN_TUN_VXLAN;
	unsigned stride = getenv("OFL_TEST_CHECKER") ? 7u : 1u, m, xi, fixip, predicted = 0;
	uint32_t off, hl;
	struct shape s;
	struct ofl_gro_stats st[3];
	char what[128];
	if (_i == 4)
		ol3 = il3 = 4;
	build(ol3, il3, type, 0, 0, 0, 0, &s);
	hl = s.il4 + 20u;
	/* unchanged: one packet of six segments every way, predicted */
	play(0, type, &st[0]);
	play(1, type, &st[1]);
	play(2, type, &st[2]);
	ck_assert_str_eq(logs[0].s, logs[1].s);
	ck_assert_str_eq(logs[0].s, logs[2].s);
	ck_assert_uint_eq(st[0].merged, NSEG - 1);
	ck_assert_uint_eq(st[0].merged_fast, 0);
	if (ol3 == 4 || il3 == 4) /* (IPv6 in IPv6 is past the prediction's 128 bytes) */
		ck_assert_uint_eq(st[1].merged_fast, NSEG - 1);
	for (m = 1; m < NSEG; m += 2)
		for (off = 0; off < hl; off += stride)
			for (xi = 0; xi < 2; xi++)
				for (fixip = 0; fixip < 2; fixip++) {
					build(ol3, il3, type, m, off, xi ? 0x80 : 0x01, (int)fixip, &s);
					play(0, type, &st[0]);
					play(1, type, &st[1]);
					play(2, type, &st[2]);
					snprintf(what, sizeof(what), "variant %d, frame %u, byte %u ^ 0x%02x%s", _i, m,
					         (unsigned)off, xi ? 0x80 : 0x01, fixip ? ", IP checksums made valid" : "");
					if (off == s.ol4 + 6 || off == s.ol4 + 7) {
						/* the outer UDP checksum (above): not 0 now, so
						 * a flow of its own, alone between the others */
						char alone[32];
						snprintf(alone, sizeof(alone), " t%d: %u]", type, m);
						ck_assert_msg(strstr(logs[1].s, alone) != NULL, "%s: %s", what, logs[1].s);
						ck_assert_str_eq(logs[1].s, logs[2].s);
						same_counts(&st[1], &st[2], what);
						continue;
					}
					ck_assert_msg(strcmp(logs[0].s, logs[1].s) == 0, "%s: single: %s, want %s", what,
					              logs[1].s, logs[0].s);
					ck_assert_msg(strcmp(logs[0].s, logs[2].s) == 0, "%s: burst: %s, want %s", what,
					              logs[2].s, logs[0].s);
					same_counts(&st[0], &st[1], what);
					same_counts(&st[0], &st[2], what);
					predicted += st[1].merged_fast != 0;
				}
	/* the changes that still merge (ID, checksums, urgent pointer, ...)
	 * went through prediction */
	if (ol3 == 4 || il3 == 4)
		ck_assert_uint_gt(predicted, 0);
}
END_TEST

int main(void)
{
	const struct h_test tests[] = {
		{byte_changed, 5},
	};
	return h_run_table("gro_tunfast", 120, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
