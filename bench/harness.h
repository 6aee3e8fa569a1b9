/*
 * harness.h - the benchmarks' traffic and GRO driving loop, in C so the
 * Google Benchmark wrapper (bench_*.cc) and the DPDK runner (dpdk_cmp.c)
 * drive the library the same way on the same bytes.
 *
 * Traffic is a receive ring of nslots frame buffers filled once by the
 * test generator (tests/support/gen.c, gen_bulk_proto()): nflows bulk TCP
 * (or UDP) flows interleaved round-robin, MSS 1448.  When a chunk of slots has been
 * processed and every packet in it handed back, bh_ring_refill() writes the
 * *next* frames of the same flows into those buffers, as a NIC does into
 * recycled RX buffers: sequence numbers and IPv4 IDs advance by one ring
 * turn and both checksums are updated incrementally.  So every poll works
 * on fresh packets that continue their flows; nothing is merged twice.
 * Refills run outside the timed region.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_BENCH_HARNESS_H
#define OFL_BENCH_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include <ofl/gro.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BH_MSS 1448u
#define BH_MSS_VXLAN 1398u  /* inner MSS of a 1500-byte underlay MTU (VXLAN, IPv4) */
#define BH_STRIDE 1536u      /* bytes per frame buffer (IPv6 frame: 1522) */
#define BH_SAVE 128u         /* header bytes restored on refill */
#define BH_CHUNK 512u        /* packets per timed chunk (multiple of every poll size) */
#define BH_RING_MIN 4096u    /* ring slots, like a large NIC RX ring */
#define BH_DT_NS 100u        /* simulated arrival gap: 10 Mpps */

struct bh_traffic {
	int l3;             /* 4 or 6 */
	unsigned nflows;    /* flows interleaved round-robin */
	unsigned nbufs;     /* 1, 2 (header split) or 4 (header + 3 page fragments) */
	int psh;            /* PSH on every segment */
	unsigned min_slots; /* ring size at least this (0: BH_RING_MIN) */
	const void *dsa;    /* const struct ofl_dsa_ops *: tag every frame (switch ->
	                       host layout) with this format; NULL: untagged */
	int udp;            /* UDP datagrams of BH_MSS bytes instead of TCP (no dsa);
	                       GRO then runs with ofl_gro_config.udp on */
	int vxlan;          /* the TCP frames (BH_MSS_VXLAN bytes of payload) in
	                       VXLAN over the same L3 (UDP 4789, checksum 0, an
	                       outer source port per flow, the outer IPv4 ID
	                       fixed); GRO then knows port 4789 (no dsa, udp) */
	unsigned stride;    /* bytes from one slot to the next in the ring's own
	                       memory (0: BH_STRIDE).  BH_STRIDE_PAGE: a 4 KiB
	                       frame per slot with the frame BH_PAGE_HEADROOM bytes
	                       in, as AF_XDP's default frames and page-per-packet
	                       drivers lay them out: every header then at one page
	                       offset (one set of the L1 data cache) */
	int huge;           /* the ring's own memory asked as transparent huge
	                       pages (madvise MADV_HUGEPAGE, where the system has
	                       it), as a hugepage-backed AF_XDP UMEM */
};

#define BH_STRIDE_PAGE 4096u
#define BH_PAGE_HEADROOM 256u /* XDP_PACKET_HEADROOM */

struct bh_ring {
	struct bh_traffic t;
	unsigned nslots;     /* multiple of nflows and of BH_CHUNK */
	unsigned nseg;       /* segments of each flow in one ring turn */
	uint8_t *mem;        /* own frame memory, or NULL */
	uint8_t **slot;      /* frame of each slot */
	uint32_t *len;       /* frame length */
	uint32_t *gen;       /* ring turns each slot has been refilled */
	uint8_t *base;       /* BH_SAVE header bytes of each slot as generated */
	struct ofl_buf *bufs;/* nslots * nbufs */
	struct ofl_pkt *pkts;/* nslots */
	unsigned data_off;   /* frame start in each slot (headroom for a prepended tag) */
	unsigned l3_off, l4_off, hdr_len; /* (through VXLAN: the inner ones) */
	unsigned mss;        /* payload of a segment */
	unsigned pos;        /* next slot to receive */
	unsigned dirty_from; /* oldest slot received but not yet refilled */
	unsigned dirty;      /* slots received but not yet refilled */
};

/* Tag the untagged frame fr (*len bytes, in a BH_STRIDE buffer) in place
 * switch -> host with dsa (const struct ofl_dsa_ops *; port 1 when the
 * format has ports), as the tagged rings are; *shift: how much later its IP
 * header now begins.  Returns 0, or -1 (no DSA in this build, a format
 * that cannot tag it so, or more than BH_STRIDE bytes). */
int bh_tag_dsa(const void *dsa, uint8_t *fr, uint32_t *len, uint32_t *shift);

/* Build the ring.  slot_mem: nslots frame buffers of at least BH_STRIDE bytes
 * (the DPDK runner passes mbuf data), or NULL to allocate.  Use
 * bh_ring_slots() to learn nslots first.  Returns 0 or -1. */
unsigned bh_ring_slots(const struct bh_traffic *t);
int bh_ring_init(struct bh_ring *r, const struct bh_traffic *t, uint8_t **slot_mem);
void bh_ring_free(struct bh_ring *r);
/* Mark every packet's checksum status (OFL_CSUM_*). */
void bh_ring_set_csum(struct bh_ring *r, uint8_t csum_status);
/* Write the next generation into slots [first, first + n) (n <= nslots, wraps). */
void bh_ring_refill(struct bh_ring *r, unsigned first, unsigned n);
/* Refill received slots while more than keep are outstanding (keep = packets
 * that may still be held by the consumer).  Returns the number refilled. */
unsigned bh_ring_recycle(struct bh_ring *r, unsigned keep);

/* What the deliver callback does: what a driver must, count the cookies. */
struct bh_sink {
	uint64_t lists, pkts, segs;
};
void bh_sink_deliver(void *user, const struct ofl_gro_out *o, unsigned n);

struct bh_gro_opts {
	unsigned poll;             /* packets per poll (32, 64) */
	uint64_t flush_timeout_ns; /* 0, or held across polls that long */
	uint32_t max_flows;        /* 0: max(64, nflows) */
	uint16_t max_segs;         /* 0: default 128 */
	uint8_t csum_status;       /* OFL_CSUM_UNNECESSARY or OFL_CSUM_NONE */
	int dsa_mode;              /* tagged ring: BH_DSA_THROUGH or BH_DSA_STRIP */
};

#define BH_DSA_THROUGH 1 /* GRO configured with the tag format */
#define BH_DSA_STRIP 2   /* per packet: ofl_dsa_decode + ofl_dsa_strip, then GRO */

struct bh_gro_run {
	struct bh_ring *r;
	struct ofl_gro *gro;
	struct bh_sink sink;
	struct bh_gro_opts o;
	unsigned keep;             /* packets that may still be held */
	uint64_t now;              /* simulated clock */
	uint64_t rx;               /* packets received */
};

/* Create the context (untimed).  Returns 0 or a negative OFL_E* code. */
int bh_gro_start(struct bh_gro_run *g, struct bh_ring *r, const struct bh_gro_opts *o);
/* Timed part: receive the next BH_CHUNK packets in polls, ending each poll. */
void bh_gro_chunk(struct bh_gro_run *g);
/* Untimed part: give the NIC back what GRO has handed back. */
static inline void bh_gro_recycle(struct bh_gro_run *g) { bh_ring_recycle(g->r, g->keep); }
/* Flush, check that every packet came back exactly once, destroy, refill
 * what is left.  Returns 0, or -1 when packets went missing. */
int bh_gro_stop(struct bh_gro_run *g, struct ofl_gro_stats *st);

/* Monotonic nanoseconds. */
uint64_t bh_now_ns(void);

#ifdef __cplusplus
}
#endif
#endif
