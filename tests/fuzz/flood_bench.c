/*
 * flood_bench.c - per-packet cost of GRO receive for benign traffic and for
 * a hash flood, run by hand (built as robust_flood_bench in the normal
 * build):
 *
 *     ./tests/robust_flood_bench [packets]
 *
 * Four runs, each of `packets` single-buffer IPv4 TCP segments (64-byte
 * payload, NIC-verified checksums) over 1000 flows that churn through a
 * 1024-entry table, delivered to a callback that only counts:
 *   benign / derived key    flows with consecutive ports
 *   crafted / derived key   flows whose hash under key K lands in one slot
 *   crafted / other key     the same flows, table keyed with K + 1
 *   crafted / key K         the attack when the key is known (what an
 *                           unkeyed or leaked hash would cost)
 * It prints ns per packet (best of 5 runs, CLOCK_MONOTONIC) and probes per
 * lookup.  Times on a shared VM are noisy: compare the rows of one run.
 */
#define _POSIX_C_SOURCE 200809L
#include <ofl/gro.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "flood.h"

#define NFLOWS 1000u
#define FLEN 118u

static unsigned long outs;
static void deliver(void *u, const struct ofl_gro_out *p, unsigned n)
{
	(void)u;
	(void)p;
	outs += n;
}

static uint8_t frames[NFLOWS][4][128];

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void run(const char *name, const uint64_t *key, unsigned long packets)
{
	double best = 1e30, probes = 0;
	int rep;
	for (rep = 0; rep < 5; rep++) {
		struct ofl_gro_config c;
		struct ofl_gro *g;
		struct ofl_gro_stats st;
		struct ofl_pkt p;
		struct ofl_buf b;
		unsigned long i;
		double t0, t;
		ofl_gro_config_default(&c);
		c.deliver = deliver;
		c.max_flows = 1024;
		c.max_segs = 4;
		c.normal_batch = 64;
		if (key) {
			c.hash_key[0] = key[0];
			c.hash_key[1] = key[1];
		}
		if (ofl_gro_create(&c, &g) != 0)
			abort();
		memset(&p, 0, sizeof(p));
		p.bufs = &b;
		p.nbufs = 1;
		p.csum_status = OFL_CSUM_UNNECESSARY;
		b.len = FLEN;
		t0 = now_ns();
		for (i = 0; i < packets; i++) {
			/* flow i % NFLOWS, its (i / NFLOWS) % 4-th segment */
			b.data = frames[i % NFLOWS][(i / NFLOWS) % 4];
			ofl_gro_receive(g, &p, i);
		}
		ofl_gro_flush(g);
		t = (now_ns() - t0) / (double)packets;
		ofl_gro_get_stats(g, &st, sizeof st);
		ofl_gro_destroy(g);
		if (t < best)
			best = t;
		probes = st.lookups ? (double)st.lookup_probes / (double)st.lookups : 0;
	}
	printf("%-26s %8.1f ns/packet  %8.2f probes/lookup\n", name, best, probes);
}

int main(int argc, char **argv)
{
	static const uint64_t K[2] = {0x0123456789abcdefull, 0xfedcba9876543210ull};
	static const uint64_t K1[2] = {0x0123456789abcdeeull, 0xfedcba9876543210ull};
	unsigned long packets = argc > 1 ? strtoul(argv[1], NULL, 0) : 2000000ul;
	static uint32_t sa[NFLOWS];
	static uint16_t sp[NFLOWS];
	unsigned f, k;
	/* benign flows */
	for (f = 0; f < NFLOWS; f++)
		for (k = 0; k < 4; k++)
			flood_frame(frames[f][k], 0x0a000001u, (uint16_t)(1024 + f), 1000 + 64 * k);
	run("benign / derived key", NULL, packets);
	/* crafted: flows whose hash under K lands in slot 0 of the table */
	if (flood_craft(K, 1024, sa, sp, NFLOWS) != NFLOWS)
		return 1;
	for (f = 0; f < NFLOWS; f++)
		for (k = 0; k < 4; k++)
			flood_frame(frames[f][k], sa[f], sp[f], 1000 + 64 * k);
	run("crafted / derived key", NULL, packets);
	run("crafted / other key", K1, packets);
	run("crafted / key known (K)", K, packets);
	printf("(%lu packets per run, %u flows, 1024-entry table, best of 5)\n", packets, NFLOWS);
	return outs ? 0 : 1;
}
