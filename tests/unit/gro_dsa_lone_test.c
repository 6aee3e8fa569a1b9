/*
 * gro_dsa_lone_test.c - frames behind a DSA tag alone in their flow in a
 * burst, held as lone records (dsa_group.c), against the one-frame path
 * (receive.c: decode, tagged_new_flow(), an entry completed at poll end).
 *
 * The same tagged frames go to two contexts of one configuration: one
 * burst call per batch, and one ofl_gro_receive() per frame.  Both must
 * deliver the same packets in the same lists (bytes, every output field,
 * the slices' bytes, packet and buffer index, the tag's metadata, the
 * cookies) and end with the same counters (but lookups, lookup_probes and
 * merged_fast).  Formats: a tag between the MACs and the EtherType (edsa,
 * dsa), one before the DA (brcm-prepend), a tail tag (ksz9477), qca (a
 * switch control frame); dsa_keep_tag 0 and 1.  The frames: flows on two
 * ports, IPv4 and IPv6 (a TCP option too), most alone in their batch, some
 * with two frames in it, a PSH frame, a pure ACK, a frame whose tag does
 * not decode, one with its checksum not verified, one in two buffers.
 * Batches of a poll: one burst per poll, two bursts per poll (the second
 * meets the first's lone records: they become entries first), and a
 * context of 4 flows (a full table).
 */
#include <check.h>
#include <ofl/dsa.h>
#include <ofl/gro.h>
#include <stdint.h>
#include <string.h>

#include "dsa_rx.h"
#include "gen.h"
#include "harness.h"

#define MAXO 512
#define FLEN 1700
#define NFR 160
#define NFL 24

struct out {
	uint8_t hdr[256];
	struct ofl_gro_out o; /* (its pointers not kept) */
	struct ofl_dsa_meta meta;
	uint32_t nsl;
	struct {
		uintptr_t data;
		uint32_t len;
		uint16_t pkt, buf;
		uint8_t head[32]; /* its first bytes */
	} sl[8];
	uintptr_t cookie[8];
	unsigned list; /* the delivery list it came in */
};

struct col {
	unsigned n, lists;
	struct out out[MAXO];
};

static struct col cb, cs;

static void deliver(void *user, const struct ofl_gro_out *p, unsigned n)
{
	struct col *c = user;
	unsigned i, k;
	c->lists++;
	for (i = 0; i < n; i++) {
		struct out *o = &c->out[c->n++];
		ck_assert_uint_le(c->n, MAXO);
		memset(o, 0, sizeof(*o));
		o->o = p[i];
		o->list = c->lists;
		ck_assert_uint_le(p[i].hdr_len, sizeof(o->hdr));
		if (p[i].hdr_len)
			memcpy(o->hdr, p[i].hdr, p[i].hdr_len);
		if (p[i].dsa)
			o->meta = *p[i].dsa;
		ck_assert_uint_le(p[i].ncookies, 8);
		for (k = 0; k < p[i].ncookies; k++)
			o->cookie[k] = (uintptr_t)p[i].cookies[k];
		ck_assert_uint_le(p[i].nslices, 8);
		o->nsl = p[i].nslices;
		for (k = 0; k < p[i].nslices; k++) {
			/* the frames do not move: a slice's address in one is
			 * comparable (not one of the context's own: a tail tag) */
			o->sl[k].data = p[i].slices[k].buf == 0xffff ? 0 : (uintptr_t)p[i].slices[k].data;
			o->sl[k].len = p[i].slices[k].len;
			memcpy(o->sl[k].head, p[i].slices[k].data,
			       p[i].slices[k].len < 32 ? p[i].slices[k].len : 32);
			o->sl[k].pkt = p[i].slices[k].pkt;
			o->sl[k].buf = p[i].slices[k].buf;
		}
	}
}

static uint8_t frames[NFR][FLEN + 128];
static uint32_t lens[NFR];

/* The frames for ops (how many; 0 when the format cannot tag them). */
static unsigned make_frames(const struct ofl_dsa_ops *ops)
{
	struct gen_tcp fl[NFL];
	uint8_t f[FLEN];
	unsigned i, n = 0, k;
	for (k = 0; k < NFL; k++) {
		gen_tcp_init(&fl[k], k % 4 == 3 ? 6 : 4);
		fl[k].sport = (uint16_t)(2000 + k);
		fl[k].payload_len = 200 + 37 * k;
		fl[k].flow_salt = k;
		if (k == 5) {
			/* timestamps: a 32-byte TCP header */
			fl[k].optlen = 12;
			memcpy(fl[k].opts, "\x01\x01\x08\x0a\x00\x00\x00\x01\x00\x00\x00\x02", 12);
		}
	}
	for (i = 0; i < 140; i++) {
		/* mostly a new flow each frame (24 flows: a flow once in a
		 * poll of 16), every seventh frame the flow before it again
		 * (two frames in a poll); flow 2 on port 2 */
		unsigned fi = i % 7 == 6 ? (i - 1) % NFL : i % NFL;
		struct gen_tcp *g = &fl[fi];
		/* (a pure ACK at 40: its payload length back after it) */
		uint32_t pay = g->payload_len, len;
		g->flags = GEN_ACK | (i == 25 || i == 90 ? GEN_PSH : 0);
		g->payload_len = i == 40 ? 0 : pay;
		len = (uint32_t)gen_tcp_frame(g, f, sizeof(f));
		if (!dsa_rx_tag(ops, frames[n], f, len, 1 + (fi == 2), lens + n))
			return 0;
		n++;
		g->seq += g->payload_len;
		g->ip_id++;
		g->payload_len = pay;
		if (i == 60 || i == 110) {
			/* a frame whose tag does not decode (shorter than any
			 * tag), and for qca a MIB frame (type 1): a switch
			 * control frame, of the flow before */
			memset(frames[n], 0xa5, 8);
			lens[n++] = 8;
			if (strcmp(ops->name, "qca") == 0)
				lens[n] = dsa_rx_qca_mib(frames[n], f, len), n++;
		}
	}
	return n;
}

/* Offer frames [0, n) to g in polls of per frames, each poll in bursts of
 * at most half (two calls) when split, else one; or one call per frame.
 * Frame 33 comes with its checksum not verified, frame 77 in two buffers;
 * every frame with an RX hash. */
static void offer(struct ofl_gro *g, unsigned n, unsigned per, int split, int burst)
{
	static struct ofl_buf b[NFR][2];
	struct ofl_pkt p[NFR];
	unsigned i, j;
	uint64_t now = 1000;
	memset(p, 0, sizeof(p));
	for (i = 0; i < n; i++) {
		uint32_t s = i == 77 ? 30 : lens[i];
		b[i][0] = (struct ofl_buf){frames[i], s};
		b[i][1] = (struct ofl_buf){frames[i] + s, lens[i] - s};
		p[i].bufs = b[i];
		p[i].nbufs = s < lens[i] ? 2 : 1;
		p[i].cookie = (void *)(uintptr_t)(i + 1);
		p[i].csum_status = i == 33 ? OFL_CSUM_NONE : OFL_CSUM_UNNECESSARY;
		p[i].flags = OFL_PKT_F_HASH;
		p[i].rx_hash = 0x1000u + i;
	}
	for (i = 0; i < n; i += per, now += 1000) {
		unsigned m = n - i < per ? n - i : per, h = split ? (m + 1) / 2 : m;
		if (burst) {
			ck_assert_uint_eq(ofl_gro_receive_burst(g, p + i, h, now, NULL), h);
			if (h < m)
				ck_assert_uint_eq(ofl_gro_receive_burst(g, p + i + h, m - h, now, NULL), m - h);
		} else {
			for (j = 0; j < m; j++)
				ck_assert_int_ge(ofl_gro_receive(g, &p[i + j], now), 0);
		}
		ck_assert_int_eq(ofl_gro_poll_end(g, m, now, NULL), 0);
	}
}

static void same_out(const struct out *a, const struct out *b, const char *name, unsigned k)
{
	const struct ofl_gro_out *x = &a->o, *y = &b->o;
	unsigned c;
	ck_assert_msg(a->list == b->list, "%s: output %u's list", name, k);
	ck_assert_msg(x->hdr_len == y->hdr_len && memcmp(a->hdr, b->hdr, x->hdr_len) == 0, "%s: output %u's header",
	              name, k);
	ck_assert_msg((x->hdr != NULL) == (y->hdr != NULL), "%s: output %u's hdr pointer", name, k);
	ck_assert_msg(dsa_rx_same_fields(x, y), "%s: output %u's fields", name, k);
	ck_assert_msg((x->dsa != NULL) == (y->dsa != NULL) && memcmp(&a->meta, &b->meta, sizeof(a->meta)) == 0,
	              "%s: output %u's metadata", name, k);
	ck_assert_msg(a->nsl == b->nsl && memcmp(a->sl, b->sl, sizeof(a->sl)) == 0, "%s: output %u's slices", name, k);
	for (c = 0; c < x->ncookies; c++)
		ck_assert_msg(a->cookie[c] == b->cookie[c], "%s: output %u's cookies", name, k);
}

static const char *const fmts[] = {"edsa", "dsa", "brcm-prepend", "ksz9477", "qca"};

/* _i: format, keep-tag mode, polls (one burst of 16, two bursts of 8
 * each, 4 flows at most) */
START_TEST(lone_as_one_frame)
{
	const struct ofl_dsa_ops *ops = ofl_dsa_find(fmts[_i / 6]);
	int keep = _i & 1, mode = (_i >> 1) % 3;
	struct ofl_gro_config cfg;
	struct ofl_gro_stats sb, ss;
	struct ofl_gro *gb, *gs;
	unsigned n, k, lone = 0;
	ck_assert_ptr_nonnull(ops);
	n = make_frames(ops);
	ck_assert_uint_gt(n, 0);
	ofl_gro_config_default(&cfg);
	cfg.dsa = ops;
	cfg.dsa_keep_tag = (uint8_t)keep;
	cfg.deliver = deliver;
	if (mode == 2)
		cfg.max_flows = 4;
	memset(&cb, 0, sizeof(cb));
	memset(&cs, 0, sizeof(cs));
	cfg.user = &cb;
	ck_assert_int_eq(ofl_gro_create(&cfg, &gb), 0);
	cfg.user = &cs;
	ck_assert_int_eq(ofl_gro_create(&cfg, &gs), 0);
	offer(gb, n, 16, mode == 1, 1);
	offer(gs, n, 16, mode == 1, 0);
	ck_assert_int_eq(ofl_gro_get_stats(gb, &sb, sizeof(sb)), 0);
	ck_assert_int_eq(ofl_gro_get_stats(gs, &ss, sizeof(ss)), 0);
	ofl_gro_destroy(gb);
	ofl_gro_destroy(gs);
	ck_assert_msg(cb.n == cs.n, "%s: %u outputs in bursts, %u one by one", ops->name, cb.n, cs.n);
	for (k = 0; k < cb.n; k++) {
		same_out(&cb.out[k], &cs.out[k], ops->name, k);
		lone += cb.out[k].o.seg_count == 1 && cb.out[k].o.dsa != NULL;
	}
	ck_assert_msg(lone > 20, "%s: %u single segments behind the tag", ops->name, lone);
	sb.lookups = ss.lookups = sb.lookup_probes = ss.lookup_probes = sb.merged_fast = ss.merged_fast = 0;
	ck_assert_msg(memcmp(&sb, &ss, sizeof(sb)) == 0, "%s: counters", ops->name);
	ck_assert_uint_eq(sb.rx_pkts, n);
	ck_assert_uint_eq(sb.out_segs, n);
}
END_TEST

int main(void)
{
	const struct h_test tests[] = {{lone_as_one_frame, 6 * (int)(sizeof(fmts) / sizeof(fmts[0]))}};
	return h_run_table("gro_dsa_lone", 0, 0, tests, 1);
}
