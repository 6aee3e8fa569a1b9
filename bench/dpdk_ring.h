/*
 * dpdk_ring.h - ofl_dpdk_cmp's receive ring: one DPDK mbuf per slot of a
 * harness ring (bench/harness.h), the frames in the mbufs' data.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_BENCH_DPDK_RING_H
#define OFL_BENCH_DPDK_RING_H

#include <stdint.h>

#include <rte_mbuf.h>

#include "harness.h"

struct mring {
	struct bh_ring r;
	struct rte_mbuf **m; /* one per slot */
};

/* A pool of n mbufs of room data bytes, packed end to end (dpdk_ring.c
 * says why), or NULL. */
struct rte_mempool *ring_pool(const char *name, unsigned n, uint16_t room);
/* A ring of TCP/IPv4 bulk traffic of flows flows, at least min_slots
 * slots (0: the harness default), in mbufs from pool.  Returns 0 or -1. */
int mring_init(struct mring *mr, struct rte_mempool *pool, unsigned flows, unsigned min_slots);
void mring_free(struct mring *mr);
/* Refill what has been handed back, keeping the last keep slots, and
 * reset those mbufs as a PMD hands them up. */
void mring_recycle(struct mring *mr, unsigned keep);

#endif
