/*
 * dpdk_ring.c - the receive ring of ofl_dpdk_cmp in DPDK mbufs: the
 * generator's frames (harness.c) written into mbuf data, which both sides
 * read.  See dpdk_ring.h.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "dpdk_ring.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf_pool_ops.h>
#include <rte_mempool.h>

/* The receive ring's mbufs, packed as a DPDK application's are in hugepage
 * memory.  EAL runs here without hugepages, on 4 KiB pages, and a pool made
 * by rte_pktmbuf_pool_create() then keeps every object inside one page (it
 * must assume a device may DMA into it), so each 2.3 KB mbuf takes a page of
 * its own: every frame and every mbuf header starts at the same offset in
 * its page and all of them fall in the same few cache sets (one set of an
 * 8-way L1, 16 of the L2's).  No device DMAs here (--no-pci), so the pool
 * is told its objects need not be IOVA-contiguous and packs them end to end
 * (a stride of 37 cache lines), as hugepages would.  Both sides read these
 * same mbufs. */
struct rte_mempool *ring_pool(const char *name, unsigned n, uint16_t room)
{
	struct rte_pktmbuf_pool_private priv;
	struct rte_mempool *mp;
	memset(&priv, 0, sizeof priv);
	priv.mbuf_data_room_size = room;
	mp = rte_mempool_create_empty(name, n, (unsigned)sizeof(struct rte_mbuf) + room, 0,
	                              (unsigned)sizeof priv, SOCKET_ID_ANY, RTE_MEMPOOL_F_NO_IOVA_CONTIG);
	if (!mp)
		return NULL;
	if (rte_mempool_set_ops_byname(mp, rte_mbuf_best_mempool_ops(), NULL) != 0) {
		rte_mempool_free(mp);
		return NULL;
	}
	rte_pktmbuf_pool_init(mp, &priv);
	if (rte_mempool_populate_default(mp) < 0) {
		rte_mempool_free(mp);
		return NULL;
	}
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	return mp;
}

static void mbuf_reset(struct mring *mr, unsigned i)
{
	struct rte_mbuf *m = mr->m[i];
	m->data_off = RTE_PKTMBUF_HEADROOM;
	m->data_len = (uint16_t)mr->r.len[i];
	m->pkt_len = mr->r.len[i];
	m->nb_segs = 1;
	m->next = NULL;
	m->packet_type = RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4 | RTE_PTYPE_L4_TCP;
	m->l2_len = 14;
	m->l3_len = 20;
	m->l4_len = 20;
	m->ol_flags = RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD;
}

int mring_init(struct mring *mr, struct rte_mempool *pool, unsigned flows, unsigned min_slots)
{
	struct bh_traffic t;
	unsigned n, i;
	memset(&t, 0, sizeof t);
	t.l3 = 4;
	t.nflows = flows;
	t.nbufs = 1;
	t.min_slots = min_slots;
	n = bh_ring_slots(&t);
	uint8_t **mem = calloc(n, sizeof(*mem));
	mr->m = calloc(n, sizeof(*mr->m));
	if (!mem || !mr->m || rte_pktmbuf_alloc_bulk(pool, mr->m, n) != 0) {
		fprintf(stderr, "ofl_dpdk_cmp: cannot get %u mbufs\n", n);
		free(mem);
		free(mr->m);
		return -1;
	}
	for (i = 0; i < n; i++) {
		/* the harness writes up to BH_STRIDE bytes a slot */
		if (rte_pktmbuf_tailroom(mr->m[i]) < BH_STRIDE)
			break;
		mem[i] = rte_pktmbuf_mtod(mr->m[i], uint8_t *);
	}
	if (i < n || bh_ring_init(&mr->r, &t, mem) != 0) {
		fprintf(stderr, "ofl_dpdk_cmp: %s\n", i < n ? "mbufs too small for the ring" : "no ring");
		rte_pktmbuf_free_bulk(mr->m, n);
		free(mem);
		free(mr->m);
		return -1;
	}
	free(mem);
	for (i = 0; i < n; i++)
		mbuf_reset(mr, i);
	return 0;
}

void mring_free(struct mring *mr)
{
	unsigned i;
	for (i = 0; i < mr->r.nslots; i++)
		mbuf_reset(mr, i);
	rte_pktmbuf_free_bulk(mr->m, mr->r.nslots);
	bh_ring_free(&mr->r);
	free(mr->m);
}

/* Refill what has been handed back, keeping the last keep slots. */
void mring_recycle(struct mring *mr, unsigned keep)
{
	unsigned from = mr->r.dirty_from, n = bh_ring_recycle(&mr->r, keep), k;
	for (k = 0; k < n; k++)
		mbuf_reset(mr, (from + k) % mr->r.nslots);
}
