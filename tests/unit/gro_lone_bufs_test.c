/*
 * gro_lone_bufs_test.c - frames in several buffers alone in their flow in a
 * burst (src/gro/lone_bufs.h): with flush timeout 0 and nothing held, a
 * frame whose headers are all in its first buffer (header split, page
 * fragments) is held as a lone record with its own slices.  It must leave
 * exactly as the entry the full path holds: the sequences here go through
 * ofl_gro_receive() one frame at a time and, as
 * gro_burst_diff_lone_bufs_test, again as bursts (support/burstdiff.h),
 * which must deliver the same lists (header bytes, slices with their
 * pkt/buf fields, cookies) and end with the same counters.  Many flows, 1
 * to 9 buffers, cut at the end of the headers, inside them (Ethernet, IP,
 * TCP header), inside the payload, with empty buffers (NULL or not) and an
 * empty last buffer; flows that meet again in the next burst of the same
 * poll (the lone records settled into entries and merged into), flows
 * twice in a burst, PSH, IPv4 and IPv6, the byte limit, a full table.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <ofl/gro.h>

#include "gen.h"

#define NFLOWS 48u
#define MAXB 12u
#define FRAME_CAP 2048u
#define NFRAMES 1024u

struct ctx {
	struct ofl_gro *g;
	uint8_t *arena;  /* NFRAMES frames of FRAME_CAP bytes, alive until destroy */
	unsigned used;
	struct gen_tcp fl[NFLOWS];
	uint64_t sent_bytes, sent_segs; /* offered */
	uint64_t bytes, segs, pkts;     /* delivered */
	unsigned mangle;                /* other(): how frames are spoilt, 0 none */
	int no_empty;                   /* shrink(): no frame passed on with an empty buffer */
};

static void deliver(void *user, const struct ofl_gro_out *o, unsigned n)
{
	struct ctx *c = user;
	unsigned i, k;
	for (i = 0; i < n; i++) {
		uint32_t len = o[i].hdr_len;
		for (k = 0; k < o[i].nslices; k++) {
			/* held, a slice a buffer with payload: none empty
			 * (a frame passed on keeps its empty buffers) */
			ck_assert(!c->no_empty || o[i].slices[k].len > 0);
			len += o[i].slices[k].len;
		}
		ck_assert_uint_eq(o[i].len, len);
		c->pkts++;
		c->segs += o[i].seg_count ? o[i].seg_count : 1u;
		c->bytes += len;
	}
}

/* Flow f: its own ports, payload bytes and IP version. */
static void flow(struct gen_tcp *g, unsigned f)
{
	gen_tcp_init(g, f % 3 == 2 ? 6 : 4);
	g->sport = (uint16_t)(3000 + f);
	g->flow_salt = f;
	g->seq = 1000u * f;
	g->ip_id = (uint16_t)(11 * f);
	g->payload_len = 1000u + 37u * (f % 9);
	if (f % 5 == 4)
		gen_opt_ts(g, 100 + f, 7); /* a longer TCP header */
}

static void ctx_init(struct ctx *c, uint32_t max_flows, uint32_t max_held_bytes)
{
	struct ofl_gro_config cfg;
	unsigned f;
	memset(c, 0, sizeof(*c));
	ofl_gro_config_default(&cfg);
	cfg.deliver = deliver;
	cfg.user = c;
	cfg.flush_timeout_ns = 0;
	cfg.max_bufs = MAXB;
	if (max_flows)
		cfg.max_flows = max_flows;
	if (max_held_bytes)
		cfg.max_held_bytes = max_held_bytes;
	ck_assert_int_eq(ofl_gro_create(&cfg, &c->g), 0);
	for (f = 0; f < NFLOWS; f++)
		flow(&c->fl[f], f);
	c->arena = calloc(NFRAMES, FRAME_CAP);
	ck_assert_ptr_nonnull(c->arena);
}

static void ctx_done(struct ctx *c)
{
	ofl_gro_destroy(c->g);
	/* every byte of every frame left once (the headers of merged
	 * segments aside: counted by the burst-diff build) */
	ck_assert_uint_le(c->bytes, c->sent_bytes);
	ck_assert_uint_eq(c->segs, c->sent_segs);
	free(c->arena);
}

/* The cuts of layout c of a frame of len bytes with hl header bytes: cut
 * points (a buffer ends at each), n of them; *null_empty: empty buffers
 * have NULL data. */
static unsigned layout(unsigned c, uint32_t len, uint32_t hl, uint32_t *cut, int *null_empty)
{
	uint32_t pl = len - hl;
	*null_empty = 0;
	switch (c % 16) {
	case 0: /* one buffer */
		return 0;
	case 1: /* header split */
		cut[0] = hl;
		return 1;
	case 2: /* header split + 3 page fragments */
		cut[0] = hl, cut[1] = hl + pl / 3, cut[2] = hl + 2 * (pl / 3);
		return 3;
	case 3: /* header split + 4 */
		cut[0] = hl, cut[1] = hl + 100, cut[2] = hl + 200, cut[3] = hl + 300;
		return 4;
	case 4: /* headers and some payload, then one more */
		cut[0] = hl + 10;
		return 1;
	case 5: /* headers and some payload, then three more */
		cut[0] = hl + 7, cut[1] = hl + 500, cut[2] = hl + 900;
		return 3;
	case 6: /* inside the headers: after Ethernet */
		cut[0] = 14, cut[1] = hl + 50;
		return 2;
	case 7: /* inside the TCP header */
		cut[0] = hl - 1;
		return 1;
	case 8: /* 20 bytes before the headers' end */
		cut[0] = hl - 20, cut[1] = hl + 300;
		return 2;
	case 9: /* an empty buffer after the headers */
		cut[0] = hl, cut[1] = hl, cut[2] = hl + 200;
		return 3;
	case 10: /* the same, its data NULL */
		cut[0] = hl, cut[1] = hl, cut[2] = hl + 200;
		*null_empty = 1;
		return 3;
	case 11: /* an empty last buffer */
		cut[0] = hl, cut[1] = len;
		return 2;
	case 12: /* eight buffers (the most a lone record takes) */
		cut[0] = hl, cut[1] = hl + 50, cut[2] = hl + 100, cut[3] = hl + 150, cut[4] = hl + 200,
		cut[5] = hl + 250, cut[6] = hl + 300;
		return 7;
	case 13: /* nine buffers */
		cut[0] = hl, cut[1] = hl + 50, cut[2] = hl + 100, cut[3] = hl + 150, cut[4] = hl + 200,
		cut[5] = hl + 250, cut[6] = hl + 300, cut[7] = hl + 350;
		return 8;
	case 14: /* inside the IP header */
		cut[0] = 20, cut[1] = hl;
		return 2;
	default: /* header split, the payload in one page */
		cut[0] = hl;
		return 1;
	}
}

/* The layout of flow f's segment in round r of case i: cases 0-7 cut
 * every frame after its headers (a frame cut inside them, whose flow
 * cannot be told from its first buffer, leaves the whole burst ungrouped:
 * group.c), but flow 5's inside its TCP header past the ports, and in the
 * odd cases flow 9's 20 bytes before the headers' end; cases 8 and up any
 * layout. */
static unsigned pick(unsigned i, unsigned f, unsigned r)
{
	static const unsigned after[] = {0, 1, 2, 3, 4, 5, 9, 10, 11, 12, 13, 15};
	if (i >= 8)
		return f + r * 5 + i;
	if (f == 5)
		return 7;
	if (f == 9 && (i & 1))
		return 8;
	return after[(f + r + i) % (sizeof after / sizeof after[0])];
}

/* Flow f's frame at fr (IP version l3) made, in mangle round m, a frame
 * that is not a plain TCP segment for some flows: the IP protocol (IPv4,
 * its header checksum made good again) or IPv6 next header another (UDP,
 * UDP GRO off: passed on; or 59, no next header), an IPv4 header whose
 * checksum is wrong or that carries MF or a fragment offset; the others
 * left as they are. */
static void mangle(uint8_t *fr, unsigned l3, unsigned f, unsigned m)
{
	uint16_t sum;
	switch ((f + m) % 6) {
	case 0:
		fr[l3 == 4 ? 23 : 20] = 17;
		break;
	case 1:
		fr[l3 == 4 ? 23 : 20] = 59;
		break;
	case 2:
		if (l3 == 4)
			fr[24] ^= 0x10; /* the checksum wrong */
		return;
	case 3:
		if (l3 == 4)
			fr[20] |= (uint8_t)(m & 1 ? 0x20 : 0x01); /* MF, or an offset */
		break;
	default:
		return;
	}
	if (l3 == 4) {
		fr[24] = fr[25] = 0;
		sum = (uint16_t)~gen_csum_fold(fr + 14, 20, 0);
		fr[24] = (uint8_t)(sum >> 8);
		fr[25] = (uint8_t)sum;
	}
}

/* The buffer lists of the frames offered (alive with the arena). */
static struct ofl_buf all_bufs[NFRAMES][MAXB];

/* Build flow f's next segment in layout lay and offer it (one frame). */
static void send(struct ctx *c, unsigned f, unsigned lay, uint64_t now)
{
	struct gen_tcp *g = &c->fl[f];
	uint8_t *fr = c->arena + (size_t)c->used * FRAME_CAP;
	struct ofl_buf *b = all_bufs[c->used];
	uint32_t cut[MAXB], len, hl, at = 0;
	unsigned n, k, nb = 0;
	int null_empty;
	struct ofl_pkt pkt;
	ck_assert_uint_lt(c->used, NFRAMES);
	c->used++;
	len = (uint32_t)gen_tcp_frame(g, fr, FRAME_CAP);
	ck_assert_uint_gt(len, 0);
	if (c->mangle)
		mangle(fr, g->l3, f, c->mangle);
	hl = (g->l3 == 4 ? 34u : 54u) + 20u + g->optlen;
	n = layout(lay, len, hl, cut, &null_empty);
	for (k = 0; k < n; k++) {
		b[nb].data = fr + at;
		b[nb].len = cut[k] - at;
		if (!b[nb].len && null_empty)
			b[nb].data = NULL;
		at = cut[k];
		nb++;
	}
	b[nb].data = fr + at;
	b[nb].len = len - at;
	if (!b[nb].len && null_empty)
		b[nb].data = NULL;
	nb++;
	memset(&pkt, 0, sizeof(pkt));
	pkt.bufs = b;
	pkt.nbufs = (uint16_t)nb;
	pkt.csum_status = OFL_CSUM_UNNECESSARY;
	pkt.cookie = fr;
	ck_assert_int_ge(ofl_gro_receive(c->g, &pkt, now), 0);
	c->sent_bytes += len;
	c->sent_segs++;
	g->seq += g->payload_len;
	g->ip_id++;
}

/* Every flow's next segment in round lr's layouts of case i (pick()),
 * with PSH (passed on, not held) where (f + r) % psh is 4. */
static void every_flow(struct ctx *c, unsigned i, unsigned r, unsigned lr, unsigned psh, uint64_t now)
{
	unsigned f;
	for (f = 0; f < NFLOWS; f++) {
		if ((f + r) % psh == 4)
			c->fl[f].flags |= GEN_PSH;
		send(c, f, pick(i, f, lr), now);
		c->fl[f].flags &= (uint8_t)~GEN_PSH;
	}
}

static void poll_end(struct ctx *c, uint64_t now)
{
	uint64_t dl = 0;
	ck_assert_int_eq(ofl_gro_poll_end(c->g, 1, now, &dl), 0);
}

/* Every flow once per poll, each in its own layout (rotating per poll): the
 * lone records of several buffers, and the frames cut inside their headers
 * beside them. */
START_TEST(one_per_poll)
{
	struct ctx c;
	unsigned r;
	ctx_init(&c, 0, 0);
	for (r = 0; r < 6; r++) {
		every_flow(&c, (unsigned)_i, r, r, 11, 10 + r);
		poll_end(&c, 10 + r);
	}
	ctx_done(&c);
}
END_TEST

/* A buffer with payload but no data among frames that would all be lone
 * records, offered as one burst: an API error at that frame, the frames
 * before it taken, the rest offered again after it. */
START_TEST(null_data)
{
	struct ctx c;
	struct ofl_pkt pkts[20];
	struct ofl_buf b[20][4];
	unsigned f, bad = 6 + (unsigned)_i * 5, got;
	int err = 0;
	ctx_init(&c, 0, 0);
	for (f = 0; f < 20; f++) {
		struct gen_tcp *g = &c.fl[f];
		uint8_t *fr = c.arena + (size_t)c.used++ * FRAME_CAP;
		uint32_t len = (uint32_t)gen_tcp_frame(g, fr, FRAME_CAP);
		uint32_t hl = (g->l3 == 4 ? 34u : 54u) + 20u + g->optlen;
		b[f][0] = (struct ofl_buf){fr, hl};
		b[f][1] = (struct ofl_buf){fr + hl, 100};
		b[f][2] = (struct ofl_buf){f == bad ? NULL : fr + hl + 100, 100};
		b[f][3] = (struct ofl_buf){fr + hl + 200, len - hl - 200};
		memset(&pkts[f], 0, sizeof(pkts[f]));
		pkts[f].bufs = b[f];
		pkts[f].nbufs = 4;
		pkts[f].csum_status = OFL_CSUM_UNNECESSARY;
		pkts[f].cookie = fr;
		if (f != bad) {
			c.sent_bytes += len;
			c.sent_segs++;
		}
	}
	got = ofl_gro_receive_burst(c.g, pkts, 20, 5, &err);
	ck_assert_uint_eq(got, bad);
	ck_assert_int_eq(err, OFL_EINVAL);
	ck_assert_uint_eq(ofl_gro_receive_burst(c.g, pkts + bad + 1, 19 - bad, 5, &err), 19 - bad);
	ck_assert_int_eq(err, 0);
	poll_end(&c, 5);
	ctx_done(&c);
}
END_TEST

/* Each flow twice in a poll, its second segment a round later: a burst
 * taking the first round holds lone records that the next burst settles
 * into entries, the second segment merged into them; some PSH. */
START_TEST(meet_again)
{
	struct ctx c;
	unsigned f, r;
	ctx_init(&c, 0, 0);
	for (r = 0; r < 4; r++) {
		for (f = 0; f < NFLOWS; f++)
			send(&c, f, pick((unsigned)_i, f, r), 20 + r);
		every_flow(&c, (unsigned)_i, r, r + 3, 7, 20 + r);
		poll_end(&c, 20 + r);
	}
	ctx_done(&c);
}
END_TEST

/* Header-split frames that are not plain TCP segments (mangle()) among
 * lone records, each flow once a poll: passed on or taken by the full
 * path, as one frame at a time. */
START_TEST(other)
{
	struct ctx c;
	unsigned r;
	ctx_init(&c, 0, 0);
	for (r = 0; r < 6; r++) {
		c.mangle = 1 + r + (unsigned)_i;
		every_flow(&c, 2 * (unsigned)_i, r, r, 1000, 40 + r);
		poll_end(&c, 40 + r);
	}
	ctx_done(&c);
}
END_TEST

/* Flows interleaved in short runs (some twice in a burst, none alone), a
 * small table and a small byte limit: lone records beside the full path,
 * moved down among the lone records, the limits reached mid-burst. */
START_TEST(mixed_limits)
{
	struct ctx c;
	unsigned f, r;
	ctx_init(&c, (unsigned)_i & 1 ? 20u : 0u, (unsigned)_i & 1 ? 0u : 30000u);
	for (r = 0; r < 6; r++) {
		for (f = 0; f < NFLOWS; f++) {
			unsigned k = (f * 7 + r) % NFLOWS;
			send(&c, k, pick((unsigned)_i, k, r), 30 + r);
			if (k % 6 == r % 6) /* its flow twice in a row */
				send(&c, k, pick((unsigned)_i, k, r + 1), 30 + r);
		}
		poll_end(&c, 30 + r);
	}
	ctx_done(&c);
}
END_TEST

/* Flow g's next segment as frame pkt of a burst in nb buffers (1 to 4):
 * its headers and first bytes of payload in the first buffer, buffer e
 * (1 to nb - 1; 0 for none) empty (its data NULL when nul), the rest of
 * the payload cut in the others. */
static void shaped_frame(struct ctx *c, struct gen_tcp *g, unsigned nb, uint32_t first, unsigned e, int nul,
                         struct ofl_pkt *pkt, struct ofl_buf *b)
{
	uint8_t *fr = c->arena + (size_t)c->used++ * FRAME_CAP;
	uint32_t len = (uint32_t)gen_tcp_frame(g, fr, FRAME_CAP);
	uint32_t hl = (g->l3 == 4 ? 34u : 54u) + 20u + g->optlen, at = hl + first, k, last = nb - 1;
	ck_assert_uint_lt(c->used, NFRAMES);
	ck_assert_uint_gt(len, hl + first + 300u);
	if (last == e)
		last--;
	b[0] = (struct ofl_buf){fr, last ? at : len};
	for (k = 1; k < nb; k++) {
		uint32_t l = k == e ? 0 : k < last ? 100u : len - at;
		b[k] = (struct ofl_buf){k == e && nul ? NULL : fr + at, l};
		at += l;
	}
	memset(pkt, 0, sizeof(*pkt));
	pkt->bufs = b;
	pkt->nbufs = (uint16_t)nb;
	pkt->csum_status = OFL_CSUM_UNNECESSARY;
	pkt->cookie = fr;
	c->sent_bytes += len;
	c->sent_segs++;
	g->seq += g->payload_len;
	g->ip_id++;
}

/* Flow g's next segment as frame k of a burst (pkts, bufs): its headers in
 * the first buffer and its payload cut in nb - 1 more (nb 1 to 4). */
static void burst_frame(struct ctx *c, struct gen_tcp *g, unsigned nb, struct ofl_pkt *pkt, struct ofl_buf *b)
{
	shaped_frame(c, g, nb, 0, 0, 0, pkt, b);
}

/* A burst of n frames offered whole (every frame taken, no error), then
 * the poll's end. */
static void offer(struct ctx *c, const struct ofl_pkt *pkts, unsigned n, uint64_t now)
{
	int err = 0;
	ck_assert_uint_eq(ofl_gro_receive_burst(c->g, pkts, n, now, &err), n);
	ck_assert_int_eq(err, 0);
	poll_end(c, now);
}

/* A burst whose first frames are lone records in several buffers and
 * whose next frames are one flow's, so many that the grouping gives up
 * early (group.c: a few interleaved flows); then, after the poll's end, a
 * burst of one-buffer lone records in the same slots: the slots must have
 * been given back their own slices (lone_bufs.h gro_lone_bufs_reset()). */
START_TEST(give_up_then_one)
{
	struct ctx c;
	struct ofl_pkt pkts[24];
	struct ofl_buf b[24][4];
	unsigned k, lone = 2 + (unsigned)_i, n = lone + 10;
	int err = 0;
	ctx_init(&c, 0, 0);
	for (k = 0; k < n; k++)
		burst_frame(&c, &c.fl[k < lone ? k : lone], k < lone ? 2 + k % 3 : 1, &pkts[k], b[k]);
	ck_assert_uint_eq(ofl_gro_receive_burst(c.g, pkts, n, 5, &err), n);
	poll_end(&c, 5);
	for (k = 0; k < 20; k++)
		burst_frame(&c, &c.fl[k], 1, &pkts[k], b[k]);
	ck_assert_uint_eq(ofl_gro_receive_burst(c.g, pkts, 20, 6, &err), 20);
	poll_end(&c, 6);
	ctx_done(&c);
}
END_TEST

/* Long bursts of header-split frames of one buffer count (2, 3 or 4: the
 * grouping's own loop for them, group_bufs.c), each frame its own flow:
 * all of them, 256 (the last frames past that loop's slice bound for 4
 * buffers); a flow twice in a row, then a one-buffer frame and a frame of
 * another count (the rest grouped by the general loop); one flow ten times
 * from the fourth frame (the grouping gives up in that loop); 60 flows,
 * then the same flows' next segments in one buffer (one group from either
 * loop).  Before them a burst of one-buffer frames, some passed on; after
 * them one of one-buffer lone records, in the same slots. */
START_TEST(one_count)
{
	static struct gen_tcp fl[256];
	static struct ofl_pkt pkts[256];
	static struct ofl_buf b[256][4];
	struct ctx c;
	unsigned k, nb = 2 + (unsigned)_i % 3, v = (unsigned)_i / 3, n = v ? 120 : 256;
	ctx_init(&c, 300, 0);
	for (k = 0; k < 256; k++)
		flow(&fl[k], k);
	/* first one-buffer frames, some with PSH (passed on: the slot's
	 * mark 1, which the next burst must not find) */
	for (k = 0; k < 40; k++) {
		fl[k].flags = (uint8_t)(k % 3 == 1 ? GEN_PSH : 0);
		burst_frame(&c, &fl[k], 1, &pkts[k], b[k]);
		fl[k].flags = 0;
	}
	offer(&c, pkts, 40, 4);
	for (k = 0; k < n; k++) {
		unsigned f = v == 2 && k >= 3 && k < 13 ? 3 : v == 3 ? k % 60 : v == 1 && k == 30 ? 29 : k, m = nb;
		if ((v == 1 && k == 60) || (v == 3 && k >= 60))
			m = 1;
		if (v == 1 && k == 90)
			m = nb == 4 ? 2 : nb + 1;
		burst_frame(&c, &fl[f], m, &pkts[k], b[k]);
	}
	offer(&c, pkts, n, 5);
	for (k = 0; k < 40; k++)
		burst_frame(&c, &fl[k], 1, &pkts[k], b[k]);
	offer(&c, pkts, 40, 6);
	ctx_done(&c);
}
END_TEST

/* Bursts that shrink, of header-split frames of one count (2, 3 or 4).
 * First 64 lone records; then a shorter burst, in a part of their slots
 * (group_bufs.c leaves the others' slices to the next reset), its frame 7
 * with payload in the first buffer; its other frames all alike (v 0), or
 * one with an empty buffer in the middle, its data NULL (v 2) or not (v
 * 1), or the first with PSH (v 3), or one flow ten times from the fourth
 * frame (v 4, a give-up).  Then 64 one-buffer records in those slots, and
 * 64 header-split ones. */
START_TEST(shrink)
{
	struct ctx c;
	unsigned k, nb = 2 + (unsigned)_i % 3, v = (unsigned)_i / 3, n = 20 + 3 * (unsigned)_i;
	static struct ofl_buf b[64][4];
	static struct ofl_pkt pkts[64];
	static struct gen_tcp fl[128];
	ctx_init(&c, 300, 0);
	c.no_empty = 1;
	for (k = 0; k < 128; k++)
		flow(&fl[k], k);
	for (k = 0; k < 64; k++)
		shaped_frame(&c, &fl[k], nb, 0, 0, 0, &pkts[k], b[k]);
	offer(&c, pkts, 64, 4);
	for (k = 0; k < n; k++) {
		unsigned f = v == 4 && k >= 3 && k < 13 ? 64 : 64 + k, e = (v == 1 || v == 2) && k == 11 ? 1 : 0;
		fl[f].flags = (uint8_t)(v == 3 && k == 0 ? GEN_PSH : 0);
		shaped_frame(&c, &fl[f], nb, k == 7 ? 30u : 0u, e, v == 2, &pkts[k], b[k]);
		fl[f].flags = 0;
	}
	offer(&c, pkts, n, 5);
	for (k = 0; k < 64; k++)
		burst_frame(&c, &fl[k], 1, &pkts[k], b[k]);
	offer(&c, pkts, 64, 6);
	for (k = 0; k < 64; k++)
		shaped_frame(&c, &fl[k], nb, 0, 0, 0, &pkts[k], b[k]);
	offer(&c, pkts, 64, 7);
	ctx_done(&c);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gro_lone_bufs");
	TCase *tc = tcase_create("core");
	tcase_add_loop_test(tc, one_per_poll, 0, 16);
	tcase_add_loop_test(tc, meet_again, 0, 10);
	tcase_add_loop_test(tc, null_data, 0, 3);
	tcase_add_loop_test(tc, mixed_limits, 0, 10);
	tcase_add_loop_test(tc, other, 0, 4);
	tcase_add_loop_test(tc, give_up_then_one, 0, 4);
	tcase_add_loop_test(tc, one_count, 0, 12);
	tcase_add_loop_test(tc, shrink, 0, 15);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
