/*
 * gso_instr.c - instructions per segment of software GSO, for callgrind.
 *
 * Segments generated super-packets (bench/gso_harness.c, the same traffic
 * and loop as the timed gso/ rows) ROUNDS times over: ofl_gso_start(), then
 * ofl_gso_next() per segment or ofl_gso_next_burst() of 64, then the header
 * slots back to the pool as a TX completion would (all inside bh_gso_one()),
 * and prints how many segments it cut.  Under
 *   valgrind --tool=callgrind ofl_gso_instr L3 PROTO PAYLOAD MODE
 * the inclusive instructions of the ofl_ calls made by bh_gso_one() divided
 * by that number are the library's instructions per segment (bench/instr.sh
 * reads them from the call edges, so nested calls count once and no debug
 * information is needed).
 *   L3       4 or 6
 *   PROTO    tcp (MSS 1448), vxlan (TCP in VXLAN over IPv4, MSS 1448) or udp
 *            (UDP_L4, 1448 bytes per datagram)
 *   PAYLOAD  L4 payload bytes per super-packet
 *   MODE     iter (ofl_gso_next, a BLOCK pool, slots back by
 *            ofl_gso_pool_put_burst), burst (ofl_gso_next_burst of 64, the
 *            fastest way a driver has: a RING pool, the slots back by
 *            ofl_gso_pool_put_oldest, the packet's end seen in the burst's
 *            last segment) or burst-block (the same bursts from a BLOCK
 *            pool, slots back by ofl_gso_pool_put_burst), iter-ring (the
 *            same from a RING pool, the slots back by
 *            ofl_gso_pool_put_oldest() as in burst)
 * Checksums are partial (the NIC finishes them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gso_harness.h"

#define ROUNDS 400u

int main(int argc, char **argv)
{
	int l3 = argc > 1 ? atoi(argv[1]) : 4;
	int udp = argc > 2 && strcmp(argv[2], "udp") == 0;
	int vxlan = argc > 2 && strcmp(argv[2], "vxlan") == 0;
	uint32_t payload = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 64000u;
	int burst = argc > 4 && strncmp(argv[4], "burst", 5) == 0;
	int ring = argc > 4 && (strcmp(argv[4], "burst") == 0 || strstr(argv[4], "-ring") != NULL);
	unsigned long segs;
	unsigned r, first;
	struct bh_gso *g;
	if ((l3 != 4 && l3 != 6) || payload == 0) {
		fprintf(stderr, "usage: %s 4|6 tcp|vxlan|udp PAYLOAD iter|iter-ring|burst|burst-block\n", argv[0]);
		return 2;
	}
	g = bh_gso_new(l3, udp, payload, 1448, 0);
	if (!g || bh_gso_set_burst(g, burst ? BH_GSO_MAX_BURST : 0) != 0 || (ring && bh_gso_set_ring(g) != 0) ||
	    (vxlan && bh_gso_set_vxlan(g) != 0))
		return 1;
	/* bh_gso_new() cut one super-packet already (untimed check): count
	 * it too, every super-packet here has the same number of segments */
	first = bh_gso_one(g);
	if (first == 0)
		return 1;
	segs = 2u * first;
	for (r = 1; r < ROUNDS; r++) {
		unsigned n = bh_gso_one(g);
		if (n == 0)
			return 1;
		segs += n;
	}
	bh_gso_free(g);
	printf("segments %lu\n", segs);
	return 0;
}
