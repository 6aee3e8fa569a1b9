/*
 * gro_dsa_flows_test.c - interleaved flows behind a DSA tag (receive.c
 * gro_tag_cached(): a frame of a held flow found by the recent-flows cache at
 * the untagged frame, before any decode) and frames in four buffers behind
 * a tag (hold.c hold_tag_pred(), predict.h: a header tag's flow predicted
 * in several buffers) against the one-frame path.
 *
 * The same tagged frames go to two contexts: whole (each in one buffer) or
 * in four (the tagged headers in the first, the payload in three more),
 * and with their first 20 bytes in a buffer of their own (the general path,
 * frame by frame).  Every format whose RX tag names a port (header tags
 * before the EtherType, brcm-prepend before the DA, tail tags),
 * dsa_keep_tag 0 and 1, one call per frame and bursts: each context must
 * deliver the same packets in the same order (bytes, every output field
 * but the slices' layout, the tag's metadata, the cookies) and count the
 * same, also with room for four flows only.  The frames: eight flows round robin (six IPv4, two IPv6), in
 * which one segment of flow 3 comes from port 2 (its tag differs, its flow
 * and sequence number the run's: must not merge), flow 1 has a short
 * segment and flow 5 a PSH one; then eight segments of flow 0 in a row (a
 * run), the third from port 2, the seventh short.
 */
#include <check.h>
#include <ofl/dsa.h>
#include <ofl/gro.h>
#include <stdint.h>
#include <string.h>

#include "dsa_rx.h"
#include "gen.h"
#include "harness.h"

#define FLEN 1400
#define NFL 8
#define NSEG 12
#define NFR (NFL * NSEG + 8)
#define SPLIT 20u
#define POLL 32u

static struct dsa_rx_log logs[2];

static uint8_t frames[NFR][FLEN + 128];
static uint32_t lens[NFR], hdrs[NFR]; /* hdrs: the tagged frame's bytes before its payload */

/* Frame n: the untagged frame f (len bytes, pay of payload) tagged by ops
 * from port; 0 when it cannot be. */
static int put(const struct ofl_dsa_ops *ops, unsigned n, const uint8_t *f, uint32_t len, uint32_t pay, unsigned port)
{
	struct ofl_dsa_meta m;
	struct ofl_dsa_view v;
	if (!dsa_rx_tag(ops, frames[n], f, len, port, &lens[n]) ||
	    ofl_dsa_decode(ops, NULL, OFL_DSA_RX, frames[n], lens[n], &m, &v) != 0)
		return 0;
	hdrs[n] = v.rest_off + v.rest_len - pay;
	return 1;
}

/* The frames for ops, the flows' source ports from sport on (how many; 0
 * when it cannot tag them). */
static unsigned make_frames(const struct ofl_dsa_ops *ops, unsigned sport)
{
	struct gen_tcp g[NFL];
	uint8_t f[FLEN];
	unsigned i, k, n = 0;
	for (k = 0; k < NFL; k++) {
		gen_tcp_init(&g[k], k < 6 ? 4 : 6);
		g[k].sport = (uint16_t)(sport + k);
		g[k].payload_len = 1000;
		g[k].flow_salt = k;
		g[k].ip_id = (uint16_t)(100 * k);
	}
	for (i = 0; i < NSEG; i++)
		for (k = 0; k < NFL; k++) {
			struct gen_tcp *t = &g[k];
			uint32_t len;
			t->flags = GEN_ACK | (k == 5 && i == 8 ? GEN_PSH : 0);
			t->payload_len = k == 1 && i == 7 ? 300 : 1000;
			len = (uint32_t)gen_tcp_frame(t, f, sizeof(f));
			/* flow 3's segment 6: port 2, its flow and sequence number the run's */
			if (!put(ops, n++, f, len, t->payload_len, k == 3 && i == 6 ? 2 : 1))
				return 0;
			t->seq += t->payload_len;
			t->ip_id++;
		}
	for (i = 0; i < 8; i++) {
		uint32_t len;
		g[0].payload_len = i == 6 ? 300 : 1000;
		len = (uint32_t)gen_tcp_frame(&g[0], f, sizeof(f));
		/* the third from port 2, the run's flow and sequence number */
		if (!put(ops, n++, f, len, g[0].payload_len, i == 2 ? 2 : 1))
			return 0;
		g[0].seq += g[0].payload_len;
		g[0].ip_id++;
	}
	return n;
}

/* Offer frames [0, n) to g in polls of POLL: lay 0 each frame in one
 * buffer, 1 its first SPLIT bytes in one and the rest in another, 2 its
 * headers in one and its payload in three more; one call per frame, or a
 * burst per poll. */
static void offer(struct ofl_gro *g, unsigned n, int lay, int burst)
{
	static struct ofl_buf b[NFR][4];
	static struct ofl_pkt p[NFR];
	unsigned i;
	memset(p, 0, sizeof(p));
	for (i = 0; i < n; i++) {
		const uint8_t *fi = frames[i];
		p[i].bufs = b[i];
		p[i].cookie = (void *)(uintptr_t)(i + 1);
		p[i].csum_status = OFL_CSUM_UNNECESSARY;
		if (lay == 0) {
			b[i][0] = (struct ofl_buf){fi, lens[i]};
			p[i].nbufs = 1;
		} else if (lay == 1) {
			b[i][0] = (struct ofl_buf){fi, SPLIT};
			b[i][1] = (struct ofl_buf){fi + SPLIT, lens[i] - SPLIT};
			p[i].nbufs = 2;
		} else {
			uint32_t h = hdrs[i], a = (lens[i] - h) / 3;
			b[i][0] = (struct ofl_buf){fi, h};
			b[i][1] = (struct ofl_buf){fi + h, a};
			b[i][2] = (struct ofl_buf){fi + h + a, a};
			b[i][3] = (struct ofl_buf){fi + h + 2 * a, lens[i] - h - 2 * a};
			p[i].nbufs = 4;
		}
	}
	dsa_rx_polls(g, p, n, POLL, burst);
}

/* One context of cfg fed the frames in layout lay: its log (logs[lay ==
 * 1]) and counters. */
static void feed(struct ofl_gro_config *cfg, unsigned n, int lay, int burst, struct ofl_gro_stats *st)
{
	struct ofl_gro *g;
	cfg->max_bufs = 4;
	g = dsa_rx_open(cfg, &logs[lay == 1]);
	offer(g, n, lay, burst);
	dsa_rx_close(g, st);
}

/* _i: format, keep-tag mode, offer mode and layout (one buffer or four) */
START_TEST(flows_as_one_frame)
{
	const struct ofl_dsa_ops *ops = ofl_dsa_at((size_t)_i / 8);
	const struct dsa_rx_log *w = &logs[0], *sp = &logs[1];
	const int lay = (_i >> 2) & 1 ? 2 : 0;
	struct ofl_gro_config cfg;
	struct ofl_gro_stats sw, ss;
	/* (flows in slots of their own in the weave's table, or not; the
	 * last with room for four flows: a new flow held when the table is
	 * full completes the oldest) */
	static const unsigned sports[] = {1000, 1100, 40000, 1000};
	unsigned n, s, most;
	if (!dsa_rx_config(&cfg, ops, _i & 1, dsa_rx_deliver))
		return;
	for (s = 0; s < sizeof(sports) / sizeof(sports[0]); s++) {
		if (!(n = make_frames(ops, sports[s])))
			return;
		if (s == 3)
			cfg.max_flows = 4;
		feed(&cfg, n, lay, (_i >> 1) & 1, &sw);
		feed(&cfg, n, 1, (_i >> 1) & 1, &ss);
		most = dsa_rx_same_logs(w, &sw, sp, &ss, ops->name);
		ck_assert_msg(most >= (s == 3 ? 2u : 4u), "%s: at most %u segments merged (layout %d)", ops->name, most,
		              lay);
	}
}
END_TEST

int main(void)
{
	const struct h_test tests[] = {{flows_as_one_frame, 8 * (int)ofl_dsa_count()}};
	return h_run_table("gro_dsa_flows", 0, 0, tests, 1);
}
