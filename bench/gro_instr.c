/*
 * gro_instr.c - instructions per packet of the GRO engine, for callgrind.
 *
 * Runs generated TCP (or UDP) bulk traffic (tests/support/gen.c) through
 * ofl_gro_receive_burst() + ofl_gro_poll_end() in polls of 64, 20 times over
 * the same frames, and prints how many packets it fed.  Every library call
 * of the measured loop is made from one function, measured_polls(); under
 *   valgrind --tool=callgrind ofl_gro_instr FLOWS [L3] [NBUFS] [PSH] [PROTO] [list]
 * the inclusive cost of the calls measured_polls() makes divided by that
 * number is the library's instructions per packet, a figure that does not
 * move with the load of a shared machine (bench/instr.sh sums those calls
 * from the callgrind file for the rows of bench/PROFILE.md).
 *   FLOWS  interleaved flows, round robin (8192 frames in all)
 *   L3     4 (default) or 6
 *   NBUFS  1 (default), 2 or 4: headers in the first buffer, the payload in
 *          one or three more (header split + page fragments)
 *   PSH    1: PSH on every segment (nothing can be held; TCP only)
 *   PROTO  tcp (default); udp: 1448-byte UDP datagrams, UDP GRO on
 *          (ofl_gro_config.udp); vxlan: the TCP frames wrapped in VXLAN
 *          (gen_tun.h) over the same L3 as the inner one, UDP port 4789
 *          (ofl_gro_config.vxlan_ports), an outer source port per flow,
 *          outer UDP checksum 0, both IPv4 IDs advancing;
 *          dsa:FMT: the TCP frames tagged switch -> host with the DSA format
 *          FMT (ofl_dsa_find(), e.g. dsa:edsa, dsa:brcm-prepend,
 *          dsa:ksz9477, dsa:8021q; port 1 when the format has ports) by
 *          bench/harness.c bh_tag_dsa(), as the timed dsa/gro rows, and
 *          ofl_gro_config.dsa set (GRO through the tag, untagged output)
 *   list   fraglist mode (ofl_gro_config.fraglist, Linux's rx-gro-list):
 *          every segment keeps its own headers (TCP or UDP)
 * Checksums are marked verified by the NIC, the flush timeout is 0.  The
 * environment variable OFL_INSTR_POLL sets another poll size (1..256; the
 * rows of bench/instr.sh use the default, 64).
 */
#include <ofl/gro.h>
#ifdef OFL_BENCH_HAVE_DSA
#include <ofl/dsa.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "gen_tun.h"
#include "harness.h"

#define TOTAL 8192u
#define STRIDE 1600u
#define POLL 64u /* frames a poll, unless OFL_INSTR_POLL says otherwise */
#define ROUNDS 20u

static void count_out(void *user, const struct ofl_gro_out *p, unsigned n)
{
	(void)p;
	*(unsigned long *)user += n;
}

/* The measured loop: every call it makes is library code (instr.sh counts
 * the calls made from this function, inclusive, and nothing else). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void measured_polls(struct ofl_gro *g, const struct ofl_pkt *pkts, size_t n, unsigned poll)
{
	unsigned r;
	size_t i;
	for (r = 0; r < ROUNDS; r++)
		for (i = 0; i < n; i += poll) {
			unsigned m = (unsigned)(n - i < poll ? n - i : poll);
			ofl_gro_receive_burst(g, pkts + i, m, 0, NULL);
			ofl_gro_poll_end(g, m, 0, NULL);
		}
}

/* Wrap the n frames (flow i % flows, segment i / flows) in VXLAN over
 * IPv(l3), in place. */
static int wrap_vxlan(unsigned l3, unsigned flows, uint8_t *frames, uint32_t *lens, size_t n)
{
	static uint8_t inner[STRIDE];
	struct gen_tun t;
	size_t i;
	gen_tun_init(&t, GEN_TUN_VXLAN, (int)l3);
	for (i = 0; i < n; i++) {
		uint8_t *f = frames + i * STRIDE;
		memcpy(inner, f, lens[i]);
		t.sport = (uint16_t)(40000u + i % flows);
		t.ip_id = (uint16_t)(i / flows + i % flows);
		lens[i] = (uint32_t)gen_tun_wrap(&t, inner, lens[i], f, STRIDE);
		if (!lens[i])
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned flows = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
	unsigned l3 = argc > 2 ? (unsigned)atoi(argv[2]) : 4;
	unsigned nb = argc > 3 ? (unsigned)atoi(argv[3]) : 1;
	unsigned psh = argc > 4 ? (unsigned)atoi(argv[4]) : 0;
	int udp = argc > 5 && strcmp(argv[5], "udp") == 0;
	int vxlan = argc > 5 && strcmp(argv[5], "vxlan") == 0;
	int list = argc > 6 && strcmp(argv[6], "list") == 0;
	const char *dsa = argc > 5 && strncmp(argv[5], "dsa:", 4) == 0 ? argv[5] + 4 : NULL;
	const void *dops = NULL;
	uint32_t shift = 0; /* the tag's bytes before the IP header */
	uint32_t outer = vxlan ? (l3 == 4 ? 50u : 70u) : 0u; /* outer headers + VXLAN */
	const char *pe = getenv("OFL_INSTR_POLL");
	unsigned poll = pe ? (unsigned)atoi(pe) : POLL;
	unsigned nseg;
	unsigned long outs = 0;
	size_t n, i;
	uint8_t *frames;
	uint32_t *lens;
	struct ofl_buf *bufs;
	struct ofl_pkt *pkts;
	struct ofl_gro_config cfg;
	struct ofl_gro *g;
	if (flows == 0 || flows > TOTAL || (l3 != 4 && l3 != 6) || (nb != 1 && nb != 2 && nb != 4) ||
	    (udp && psh) || (list && vxlan) || (list && dsa) || poll == 0 || poll > 256) {
		fprintf(stderr,
		        "usage: [OFL_INSTR_POLL=1..256] %s FLOWS [4|6] [1|2|4] [0|1] [tcp|udp|vxlan|dsa:FMT] [list]\n",
		        argv[0]);
		return 2;
	}
	if (dsa) {
#ifdef OFL_BENCH_HAVE_DSA
		dops = ofl_dsa_find(dsa);
#endif
		if (!dops) {
			fprintf(stderr, "%s: no DSA format %s\n", argv[0], dsa);
			return 2;
		}
	}
	nseg = TOTAL / flows < 2 ? 2 : TOTAL / flows;
	frames = malloc((size_t)STRIDE * flows * nseg);
	lens = malloc(sizeof(*lens) * flows * nseg);
	bufs = malloc(sizeof(*bufs) * 4 * flows * nseg);
	pkts = calloc((size_t)flows * nseg, sizeof(*pkts));
	if (!frames || !lens || !bufs || !pkts)
		return 1;
	n = gen_bulk_proto(l3, udp != 0, flows, nseg, 1448, frames, STRIDE, lens);
	if (vxlan && wrap_vxlan(l3, flows, frames, lens, n) != 0)
		return 1;
	for (i = 0; dops && i < n; i++)
		if (bh_tag_dsa(dops, frames + i * STRIDE, &lens[i], &shift) != 0)
			return 1;
	for (i = 0; i < n; i++) {
		uint8_t *f = frames + i * STRIDE;
		uint32_t l4 = outer + shift + (l3 == 4 ? 34u : 54u);
		uint32_t hl = l4 + (udp ? 8u : (uint32_t)(f[l4 + 12] >> 4) * 4u);
		struct ofl_buf *b = &bufs[4 * i];
		if (psh)
			f[l4 + 13] |= 0x08;
		pkts[i].bufs = b;
		pkts[i].csum_status = OFL_CSUM_UNNECESSARY;
		if (nb == 1) {
			b[0] = (struct ofl_buf){f, lens[i]};
			pkts[i].nbufs = 1;
		} else if (nb == 2) {
			/* header split, the payload in one page */
			b[0] = (struct ofl_buf){f, hl};
			b[1] = (struct ofl_buf){f + hl, lens[i] - hl};
			pkts[i].nbufs = 2;
		} else {
			uint32_t pl = lens[i] - hl, a = pl / 3;
			b[0] = (struct ofl_buf){f, hl};
			b[1] = (struct ofl_buf){f + hl, a};
			b[2] = (struct ofl_buf){f + hl + a, a};
			b[3] = (struct ofl_buf){f + hl + 2 * a, pl - 2 * a};
			pkts[i].nbufs = 4;
		}
	}
	ofl_gro_config_default(&cfg);
	cfg.deliver = count_out;
	cfg.user = &outs;
	cfg.udp = (uint8_t)udp;
	cfg.fraglist = (uint8_t)list;
	if (vxlan)
		cfg.vxlan_ports[cfg.vxlan_nports++] = 4789;
#ifdef OFL_BENCH_HAVE_DSA
	cfg.dsa = dops;
#endif
	cfg.max_flows = flows < 64 ? 64 : flows;
	/* a fixed flow-hash key: the table's probes, and so the counts, are
	 * the same in every run */
	cfg.hash_key[0] = 0x0123456789abcdefull;
	cfg.hash_key[1] = 0xfedcba9876543210ull;
	if (ofl_gro_create(&cfg, &g) != 0)
		return 1;
	measured_polls(g, pkts, n, poll);
	ofl_gro_destroy(g);
	printf("packets %zu\ndelivered %lu\n", n * ROUNDS, outs);
	free(frames);
	free(lens);
	free(bufs);
	free(pkts);
	return outs ? 0 : 1;
}
