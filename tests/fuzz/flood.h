/*
 * flood.h - the flows of the hash-flood test and benchmark
 * (tests/unit/robust_hashflood_test.c, tests/fuzz/flood_bench.c): one IPv4
 * TCP segment of flow (saddr, sport) -> 10.0.0.2:80, and the GRO engine's
 * flow key for it (the packing of struct ofl_flow_key in src/core/flowtab.h,
 * as build_key() in src/gro/engine.c fills it for a plain IPv4 frame without
 * VLAN or tag), so flows can be crafted to collide under a known key.
 */
#ifndef OFL_FUZZ_FLOOD_H
#define OFL_FUZZ_FLOOD_H

#include <stdlib.h>
#include <string.h>

#include "core/flowtab.h"
#include "gen.h"

/* Write the segment (64-byte payload at seq) at f (>= 128 bytes). */
static inline size_t flood_frame(uint8_t *f, uint32_t saddr, uint16_t sport, uint32_t seq)
{
	struct gen_tcp g;
	gen_tcp_init(&g, 4);
	g.saddr[0] = (uint8_t)(saddr >> 24);
	g.saddr[1] = (uint8_t)(saddr >> 16);
	g.saddr[2] = (uint8_t)(saddr >> 8);
	g.saddr[3] = (uint8_t)saddr;
	g.sport = sport;
	g.dport = 80;
	g.seq = seq;
	g.payload_len = 64;
	return gen_tcp_frame(&g, f, 128);
}

/* flood_frame() without the generator: patch a template (made once) and
 * redo the IPv4 header checksum; the TCP checksum is left stale (feed with
 * OFL_CSUM_UNNECESSARY). */
static inline void flood_patch(uint8_t *f, const uint8_t *tmpl, uint32_t saddr, uint16_t sport,
                               uint32_t seq)
{
	uint16_t c;
	memcpy(f, tmpl, 118);
	f[26] = (uint8_t)(saddr >> 24);
	f[27] = (uint8_t)(saddr >> 16);
	f[28] = (uint8_t)(saddr >> 8);
	f[29] = (uint8_t)saddr;
	f[34] = (uint8_t)(sport >> 8);
	f[35] = (uint8_t)sport;
	f[38] = (uint8_t)(seq >> 24);
	f[39] = (uint8_t)(seq >> 16);
	f[40] = (uint8_t)(seq >> 8);
	f[41] = (uint8_t)seq;
	f[24] = f[25] = 0;
	c = (uint16_t)~gen_csum_fold(f + 14, 20, 0);
	f[24] = (uint8_t)(c >> 8);
	f[25] = (uint8_t)c;
}

/* The key words of the frames of flood_frame(). */
static inline void flood_key(uint32_t saddr, uint16_t sport, struct ofl_flow_key *k)
{
	static uint8_t tmpl[128];
	static int init;
	uint8_t f[128];
	uint32_t lo;
	uint64_t w;
	if (!init) {
		flood_frame(tmpl, 0, 0, 0);
		init = 1;
	}
	flood_patch(f, tmpl, saddr, sport, 0);
	memset(k, 0, sizeof(*k));
	memcpy(&w, f, 8);            /* MAC bytes 0-7 */
	k->w[0] = w;
	memcpy(&lo, f + 8, 4);       /* MAC bytes 8-11, L3 = 4 */
	k->w[1] = lo | (uint64_t)4 << 56;
	memcpy(&lo, f + 34, 4);      /* TCP ports */
	k->w[2] = (uint64_t)lo << 32;
	memcpy(&w, f + 26, 8);       /* IPv4 source and destination */
	k->w[3] = w;
}

/* Flow i of the crafted set: the i-th (saddr, sport) in enumeration order
 * whose hash under seed lands in slot 0 of a table for max_flows entries.
 * Fills sa[]/sp[] with n flows; returns how many were found. */
static inline unsigned flood_craft(const uint64_t seed[2], uint32_t max_flows, uint32_t *sa,
                                   uint16_t *sp, unsigned n)
{
	struct ofl_flowtab t;
	uint32_t nslots, s;
	size_t sz = ofl_flowtab_size(max_flows, &nslots);
	uint32_t *mem = (uint32_t *)malloc(sz);
	unsigned got = 0;
	if (!mem)
		return 0;
	ofl_flowtab_init(&t, mem, nslots, seed);
	for (s = 0; got < n && s < 200000000u; s++) {
		struct ofl_flow_key k;
		uint32_t a = 0xc0a80000u + (s >> 16);
		uint16_t p = (uint16_t)(s & 0xffff);
		flood_key(a, p, &k);
		if ((ofl_flow_hash(&t, &k) & t.mask) == 0) {
			sa[got] = a;
			sp[got] = p;
			got++;
		}
	}
	free(mem);
	return got;
}

#endif
