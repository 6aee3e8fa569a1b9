/*
 * gro_dsa_run_test.c - the run of a train behind a DSA tag (dsa_run.c
 * gro_train_tagged(): full segments of one buffer whose tag bytes repeat
 * the entry's first frame's) against the one-frame path.
 *
 * The same tagged frames go to two contexts: whole, each in one buffer (held,
 * predicted and trained behind the tag: the run), and with their first 20
 * bytes in a buffer of their own (the general path, frame by frame).  Every
 * format whose RX tag names a port (header tags before the EtherType,
 * brcm-prepend before the DA, tail tags), dsa_keep_tag 0 and 1, one call per
 * frame and bursts, the default max_size and one that fills an entry every
 * few segments: each context must deliver the same packets in the same
 * order (bytes, every output field but the slices' layout, the tag's
 * metadata, the cookies) and count the same.  The frames: a long IPv4 run
 * on port 1 in which one segment comes from port 2 (its tag differs, its
 * flow and sequence number the run's: must not merge), a short segment and
 * a PSH one ending trains, then an IPv6 run on port 2.
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
#define NFR 96
#define SPLIT 20u
#define POLL 32u

static struct dsa_rx_log logs[2];

static uint8_t frames[NFR][FLEN + 128];
static uint32_t lens[NFR];

/* The frames for ops (how many; 0 when it cannot tag them). */
static unsigned make_frames(const struct ofl_dsa_ops *ops)
{
	struct gen_tcp g4, g6;
	uint8_t f[FLEN];
	unsigned i, n = 0;
	gen_tcp_init(&g4, 4);
	gen_tcp_init(&g6, 6);
	g4.sport = 1000;
	g6.sport = 2000;
	g4.payload_len = g6.payload_len = 1000;
	g6.flow_salt = 1;
	for (i = 0; i < 60; i++) {
		uint32_t len;
		g4.flags = GEN_ACK | (i == 44 ? GEN_PSH : 0);
		g4.payload_len = i == 30 ? 400 : 1000;
		len = (uint32_t)gen_tcp_frame(&g4, f, sizeof(f));
		/* frame 20: port 2, the flow and sequence number the run's */
		if (!dsa_rx_tag(ops, frames[n], f, len, i == 20 ? 2 : 1, &lens[n]))
			return 0;
		n++;
		g4.seq += g4.payload_len;
		g4.ip_id++;
	}
	for (i = 0; i < 30; i++) {
		uint32_t len;
		g6.flags = GEN_ACK;
		len = (uint32_t)gen_tcp_frame(&g6, f, sizeof(f));
		if (!dsa_rx_tag(ops, frames[n], f, len, 2, &lens[n]))
			return 0;
		n++;
		g6.seq += g6.payload_len;
	}
	return n;
}

/* Offer frames [0, n) to g in polls of POLL: each frame in one buffer, or
 * its first SPLIT bytes in one and the rest in another (sp); one call per
 * frame, or a burst per poll. */
static void offer(struct ofl_gro *g, unsigned n, int sp, int burst)
{
	static struct ofl_buf b[NFR][2];
	static struct ofl_pkt p[NFR];
	dsa_rx_offer(g, frames[0], sizeof(frames[0]), lens, n, sp ? SPLIT : 0, POLL, burst, b, p);
}

/* One context of cfg fed the frames whole or split (sp), in calls or
 * bursts: its log (logs[sp]) and counters. */
static void feed(struct ofl_gro_config *cfg, unsigned n, int sp, int burst, struct ofl_gro_stats *st)
{
	struct ofl_gro *g = dsa_rx_open(cfg, &logs[sp]);
	offer(g, n, sp, burst);
	dsa_rx_close(g, st);
}

/* _i: format, keep-tag mode, offer mode and max_size */
START_TEST(run_as_one_frame)
{
	const struct ofl_dsa_ops *ops = ofl_dsa_at((size_t)_i / 8);
	const struct dsa_rx_log *w = &logs[0], *sp = &logs[1];
	struct ofl_gro_config cfg;
	struct ofl_gro_stats sw, ss;
	unsigned n, most;
	if (!dsa_rx_config(&cfg, ops, _i & 1, dsa_rx_deliver) || !(n = make_frames(ops)))
		return;
	if ((_i >> 2) & 1)
		cfg.max_size = 7000; /* an entry full after six segments */
	feed(&cfg, n, 0, (_i >> 1) & 1, &sw);
	feed(&cfg, n, 1, (_i >> 1) & 1, &ss);
	most = dsa_rx_same_logs(w, &sw, sp, &ss, ops->name);
	ck_assert_msg(most >= (cfg.max_size == 7000 ? 6u : 8u), "%s: at most %u segments merged", ops->name, most);
}
END_TEST

int main(void)
{
	const struct h_test tests[] = {{run_as_one_frame, 8 * (int)ofl_dsa_count()}};
	return h_run_table("gro_dsa_run", 0, 0, tests, 1);
}
