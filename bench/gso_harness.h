/*
 * gso_harness.h - GSO rows' traffic and loop (C), shared by the Google
 * Benchmark wrapper and the DPDK runner.
 *
 * A few distinct super-packets (TCP from tests/support/gen.c; UDP built here
 * with gen_csum_fold) are generated before timing and segmented in turn; the
 * library never writes its input, so each is fresh.  Header slots come from
 * a BLOCK pool and are put back after the whole super-packet, as a TX
 * completion would; the consumer only counts segments and bytes.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_BENCH_GSO_HARNESS_H
#define OFL_BENCH_GSO_HARNESS_H

#include <stdint.h>


#ifdef __cplusplus
extern "C" {
#endif

/* Opaque: its definition (with <ofl/gso.h>) stays in C, because gso.h
 * declares a function and a struct both named ofl_gso_count, which C++
 * -Wshadow rejects. */
struct bh_gso;

/* l3 4/6; udp 0 (TCP, MSS mss) or 1 (UDP_L4, seg_size mss); payload bytes of
 * L4 payload per super-packet.  Returns NULL on failure. */
struct bh_gso *bh_gso_new(int l3, int udp, uint32_t payload, uint32_t mss, int full_csum);
void bh_gso_free(struct bh_gso *g);
/* Segment with ofl_gso_next_burst() in bursts of n (1..BH_GSO_MAX_BURST)
 * from now on; 0: one ofl_gso_next() per segment (the default).  Returns 0,
 * or -1 for a bad n. */
#define BH_GSO_MAX_BURST 64u
int bh_gso_set_burst(struct bh_gso *g, unsigned n);
/* Header slots from a RING pool from now on (ofl_gso_pool_init_ring() over
 * the same memory), given back after each super-packet by
 * ofl_gso_pool_put_oldest() (a driver that completes its TX ring in order);
 * default: a BLOCK pool and ofl_gso_pool_put_burst() of the slot records.
 * Returns 0, or -1. */
int bh_gso_set_ring(struct bh_gso *g);
/* Timed part: segment the next super-packet; returns its segments (0 on error). */
unsigned bh_gso_one(struct bh_gso *g);
/* Write a frame the generator has no function for: UDP over IPv4/IPv6. */
uint32_t bh_udp_frame(int l3, uint32_t payload, uint8_t *buf, uint32_t cap);
/* TCP only: put every super-packet in VXLAN over IPv4 (UDP checksum 0)
 * and cut it as a VXLAN tunnel from now on.  Returns 0, or -1. */
int bh_gso_set_vxlan(struct bh_gso *g);

#ifdef __cplusplus
}
#endif
#endif
