/*
 * dpdk_cmp.c - ofl_dpdk_cmp: libofl and DPDK side by side, in one process,
 * on the same generated frames in the same buffers (DPDK mbufs; libofl gets
 * ofl_bufs pointing at the mbuf data).
 *
 *   GRO burst:  ofl_gro_receive_burst + ofl_gro_poll_end (timeout 0)
 *               vs rte_gro_reassemble_burst
 *   GRO ctx:    ofl_gro with a 200 us flush timeout (simulated clock)
 *               vs rte_gro_reassemble + rte_gro_timeout_flush (200 us of TSC)
 *   GSO:        ofl_gso_start/next (burst: next_burst of 64), TCP/IPv4 at MSS 1448, partial checksums
 *               vs rte_gso_segment (which writes no checksum at all); full
 *               software checksums vs rte_gso_segment + rte_ipv4_cksum +
 *               rte_ipv4_udptcp_cksum_mbuf on every segment.  Both sides
 *               hand their header buffers back per super-packet.
 *
 * Equal work: DPDK 22.11 has no TCP/IPv6 GRO (added in 23.07) and never
 * validates checksums, so only TCP/IPv4 rows are compared and libofl is
 * told OFL_CSUM_UNNECESSARY.  DPDK is given what a PMD would set
 * (packet_type, l2/l3/l4_len); libofl parses the headers itself.
 * Deliver on both sides = count the segments handed back.
 *
 * Memory (--mem): DPDK's mbufs in 2 MB pages (hugetlbfs, --in-memory), as
 * DPDK runs in production, or in 4 KB pages (--no-huge, DPDK's test mode).
 * The kind matters to the faster side: on a 2-vCPU KVM guest the first touch
 * of a frame's header on a page of its own (the ring's 4096 frames of ~2.2 KB)
 * cost libofl 0.5-0.8 ns a packet more in 4 KB pages (8 flows), DPDK
 * nothing that showed (its ~30 ns of work a packet hides it).  auto (the default): 2 MB
 * pages when enough are free and hugetlbfs is mounted, else 4 KB; the
 * header line and each JSON row say which ("mem").
 *
 * Each row alternates the two sides for --reps repetitions; a repetition
 * reports the median per-chunk time (BH_CHUNK packets), which discounts
 * chunks preempted on this shared machine; the row reports the median of
 * the repetitions.  Output: one JSON object per row (--json FILE) and a
 * table on stdout.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_gro.h>
#include <rte_gso.h>
#include <rte_ip.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_version.h>

#include "gen.h"
#include "harness.h"
#include "dpdk_ring.h"
#ifdef OFL_BENCH_HAVE_GSO
#include "gso_harness.h"
#endif

#ifndef DPDK_VERSION_STR
#define DPDK_VERSION_STR "?"
#endif

#define TIMEOUT_NS 200000u

static struct rte_mempool *g_pool;
static unsigned g_reps = 5;
static double g_min_s = 0.08; /* timed seconds per repetition and side */
static FILE *g_json;
static int g_side; /* 0: both sides alternately; 1: libofl only; 2: DPDK only */
static const char *g_mem = "4K"; /* the mbufs' page size: "2M" or "4K" */

/* ---- timing ----------------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The spread of a row's repetitions (each array sorted): the fastest and
 * slowest of each side and the lowest and highest ratio, as JSON fields. */
static const char *spread_json(const double *a, const double *b, const double *ra)
{
	static char buf[160];
	snprintf(buf, sizeof buf,
	         "\"ofl_min\":%.3f,\"ofl_max\":%.3f,\"dpdk_min\":%.3f,\"dpdk_max\":%.3f,"
	         "\"ratio_min\":%.4f,\"ratio_max\":%.4f,",
	         a[0], a[g_reps - 1], b[0], b[g_reps - 1], ra[0], ra[g_reps - 1]);
	return buf;
}


struct side {
	void (*chunk)(void *c);
	void (*recycle)(void *c);
	void *c;
};

/* Median ns per packet over chunks (at least 32, until g_min_s is timed). */
static double measure(const struct side *s)
{
	size_t cap = 1 << 16, n = 0;
	uint64_t *t = malloc(cap * sizeof(*t)), total = 0;
	double med;
	while ((n < 32 || total < (uint64_t)(g_min_s * 1e9)) && n < cap) {
		uint64_t t0 = bh_now_ns(), t1;
		s->chunk(s->c);
		t1 = bh_now_ns();
		t[n++] = t1 - t0;
		total += t1 - t0;
		s->recycle(s->c);
	}
	qsort(t, n, sizeof(*t), cmp_u64);
	med = (double)t[n / 2] / BH_CHUNK;
	free(t);
	return med;
}

/* ---- libofl side ------------------------------------------------------------ */

struct ours {
	struct bh_gro_run g;
};

static void ours_chunk(void *c) { bh_gro_chunk(&((struct ours *)c)->g); }
static void ours_recycle(void *c) { bh_gro_recycle(&((struct ours *)c)->g); }

static double run_ours(struct mring *mr, unsigned poll, uint64_t timeout_ns, int *bad)
{
	struct ours o;
	struct bh_gro_opts opt = {0};
	struct side s = {ours_chunk, ours_recycle, &o};
	double ns;
	opt.poll = poll;
	opt.flush_timeout_ns = timeout_ns;
	opt.max_segs = mr->r.t.nflows >= 65536 ? 8 : 0;
	opt.csum_status = OFL_CSUM_UNNECESSARY;
	if (bh_gro_start(&o.g, &mr->r, &opt) != 0) {
		*bad = 1;
		return 0;
	}
	/* the mbufs were reset by the DPDK side's refill; ofl only reads bytes */
	ns = measure(&s);
	if (bh_gro_stop(&o.g, NULL) != 0)
		*bad = 1;
	return ns;
}

/* ---- DPDK side -------------------------------------------------------------- */

struct theirs {
	struct mring *mr;
	unsigned poll, keep;
	struct rte_gro_param param;
	void *ctx;              /* heavyweight mode */
	uint64_t timeout_cycles;
	uint64_t rx, segs;
	struct rte_mbuf *burst[64];
	struct rte_mbuf *out[1024];
};

static inline void count_out(struct theirs *d, struct rte_mbuf **p, unsigned n)
{
	unsigned i;
	for (i = 0; i < n; i++)
		d->segs += p[i]->nb_segs;
}

static void dpdk_burst_chunk(void *c)
{
	struct theirs *d = c;
	struct bh_ring *r = &d->mr->r;
	unsigned k;
	for (k = 0; k < BH_CHUNK; k += d->poll) {
		uint16_t nb;
		memcpy(d->burst, d->mr->m + r->pos, d->poll * sizeof(d->burst[0]));
		nb = rte_gro_reassemble_burst(d->burst, (uint16_t)d->poll, &d->param);
		count_out(d, d->burst, nb);
		r->pos = (r->pos + d->poll) % r->nslots;
	}
	r->dirty += BH_CHUNK;
	d->rx += BH_CHUNK;
}

static void dpdk_ctx_chunk(void *c)
{
	struct theirs *d = c;
	struct bh_ring *r = &d->mr->r;
	unsigned k;
	for (k = 0; k < BH_CHUNK; k += d->poll) {
		uint16_t nb, nf;
		memcpy(d->burst, d->mr->m + r->pos, d->poll * sizeof(d->burst[0]));
		nb = rte_gro_reassemble(d->burst, (uint16_t)d->poll, d->ctx);
		count_out(d, d->burst, nb);
		do {
			nf = rte_gro_timeout_flush(d->ctx, d->timeout_cycles, RTE_GRO_TCP_IPV4, d->out,
			                           (uint16_t)(sizeof d->out / sizeof d->out[0]));
			count_out(d, d->out, nf);
		} while (nf == sizeof d->out / sizeof d->out[0]);
		r->pos = (r->pos + d->poll) % r->nslots;
	}
	r->dirty += BH_CHUNK;
	d->rx += BH_CHUNK;
}

static void dpdk_recycle(void *c)
{
	struct theirs *d = c;
	mring_recycle(d->mr, d->keep);
}

static double run_theirs(struct mring *mr, unsigned poll, int ctx_mode, int *bad)
{
	struct theirs d;
	struct side s = {ctx_mode ? dpdk_ctx_chunk : dpdk_burst_chunk, dpdk_recycle, &d};
	double ns;
	memset(&d, 0, sizeof d);
	d.mr = mr;
	d.poll = poll;
	d.param.gro_types = RTE_GRO_TCP_IPV4;
	mring_recycle(mr, 0);
	if (ctx_mode) {
		unsigned f = mr->r.t.nflows;
		d.param.max_flow_num = (uint16_t)(f < 64 ? 64 : f > 65535 ? 65535 : f);
		d.param.max_item_per_flow = (uint16_t)(f >= 1024 ? 8 : 128);
		d.param.socket_id = 0;
		d.ctx = rte_gro_ctx_create(&d.param);
		if (!d.ctx) {
			*bad = 1;
			return 0;
		}
		d.timeout_cycles = rte_get_tsc_hz() / 1000000u * (TIMEOUT_NS / 1000u);
		/* packets stay in the context for 200 us of real time: refill
		 * only the oldest chunk, a whole ring turn later */
		d.keep = mr->r.nslots - BH_CHUNK;
	} else {
		d.param.max_flow_num = (uint16_t)poll;
		d.param.max_item_per_flow = (uint16_t)poll;
		d.keep = 0;
	}
	ns = measure(&s);
	if (ctx_mode) {
		uint16_t nf;
		do {
			nf = rte_gro_timeout_flush(d.ctx, 0, RTE_GRO_TCP_IPV4, d.out,
			                           (uint16_t)(sizeof d.out / sizeof d.out[0]));
			count_out(&d, d.out, nf);
		} while (nf);
		rte_gro_ctx_destroy(d.ctx);
	}
	if (d.segs != d.rx) {
		fprintf(stderr, "ofl_dpdk_cmp: DPDK handed back %llu of %llu packets\n",
		        (unsigned long long)d.segs, (unsigned long long)d.rx);
		*bad = 1;
	}
	mring_recycle(mr, 0);
	return ns;
}


/* ---- GSO ------------------------------------------------------------------- */
#ifdef OFL_BENCH_HAVE_GSO

#define GSO_PER 16u /* super-packets per timed sample */

struct gso_theirs {
	struct rte_mbuf *in;
	struct rte_gso_ctx ctx;
	int csum;
	uint64_t segs;
	struct rte_mbuf *out[64];
};

static struct rte_mempool *g_big, *g_direct, *g_indirect;

static double gso_median(uint64_t *t, size_t n)
{
	qsort(t, n, sizeof(*t), cmp_u64);
	return (double)t[n / 2];
}

/* ns per segment, ours (burst: ofl_gso_next_burst() of BH_GSO_MAX_BURST,
 * else ofl_gso_next()) */
static double gso_ours(uint32_t payload, int full, int burst, double *segs_per)
{
	struct bh_gso *g = bh_gso_new(4, 0, payload, 1448, full);
	size_t cap = 1 << 16, n = 0;
	uint64_t *t = malloc(cap * sizeof(*t)), total = 0, segs = 0, supers = 0;
	double med;
	if (!g || !t || bh_gso_set_burst(g, burst ? BH_GSO_MAX_BURST : 0) != 0) {
		bh_gso_free(g);
		free(t);
		return 0;
	}
	while ((n < 32 || total < (uint64_t)(g_min_s * 1e9)) && n < cap) {
		uint64_t t0 = bh_now_ns(), t1;
		unsigned i;
		for (i = 0; i < GSO_PER; i++)
			segs += bh_gso_one(g);
		t1 = bh_now_ns();
		supers += GSO_PER;
		t[n++] = t1 - t0;
		total += t1 - t0;
	}
	*segs_per = (double)segs / (double)supers;
	med = gso_median(t, n) / GSO_PER / *segs_per;
	free(t);
	bh_gso_free(g);
	return med;
}

static void gso_reset_in(struct rte_mbuf *m, uint32_t len)
{
	m->data_off = RTE_PKTMBUF_HEADROOM;
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	m->nb_segs = 1;
	m->next = NULL;
	m->l2_len = 14;
	m->l3_len = 20;
	m->l4_len = 20;
	m->tso_segsz = 1448;
	m->ol_flags = RTE_MBUF_F_TX_TCP_SEG | RTE_MBUF_F_TX_IPV4;
}

/* ns per segment, DPDK: rte_gso_segment (+ a software checksum pass), then
 * the segments are freed (TX completion) */
static double gso_theirs(uint32_t payload, int full, int *bad)
{
	struct gso_theirs d;
	struct gen_tcp gt;
	uint32_t len;
	size_t cap = 1 << 16, n = 0;
	uint64_t *t = malloc(cap * sizeof(*t)), total = 0, supers = 0;
	double med;
	memset(&d, 0, sizeof d);
	d.in = rte_pktmbuf_alloc(g_big);
	if (!d.in || !t) {
		*bad = 1;
		free(t);
		return 0;
	}
	gen_tcp_init(&gt, 4);
	gt.payload_len = payload;
	len = (uint32_t)gen_tcp_frame(&gt, rte_pktmbuf_mtod(d.in, uint8_t *),
	                              rte_pktmbuf_tailroom(d.in) + d.in->data_len);
	d.ctx.direct_pool = g_direct;
	d.ctx.indirect_pool = g_indirect;
	d.ctx.flag = 0;
	d.ctx.gso_types = RTE_ETH_TX_OFFLOAD_TCP_TSO;
	d.ctx.gso_size = (uint16_t)(1448 + 54);
	while ((n < 32 || total < (uint64_t)(g_min_s * 1e9)) && n < cap) {
		uint64_t t0, t1;
		unsigned i;
		t0 = bh_now_ns();
		for (i = 0; i < GSO_PER; i++) {
			int k, ns;
			gso_reset_in(d.in, len);
			ns = rte_gso_segment(d.in, &d.ctx, d.out, 64);
			if (ns <= 0) {
				*bad = 1;
				break;
			}
			if (full) {
				for (k = 0; k < ns; k++) {
					struct rte_mbuf *m = d.out[k];
					struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, 14);
					uint16_t *tcsum = (uint16_t *)((uint8_t *)ip + 20 + 16);
					ip->hdr_checksum = 0;
					ip->hdr_checksum = rte_ipv4_cksum(ip);
					*tcsum = 0;
					*tcsum = rte_ipv4_udptcp_cksum_mbuf(m, ip, 34);
				}
			}
			d.segs += (uint64_t)ns;
			rte_pktmbuf_free_bulk(d.out, (unsigned)ns);
		}
		t1 = bh_now_ns();
		supers += GSO_PER;
		t[n++] = t1 - t0;
		total += t1 - t0;
		if (*bad)
			break;
	}
	med = supers && d.segs ? gso_median(t, n) / GSO_PER / ((double)d.segs / (double)supers) : 0;
	rte_pktmbuf_free(d.in);
	free(t);
	return med;
}

static void gso_row(uint32_t payload, int full, int burst)
{
	const char *mode = full ? "full" : burst ? "burst" : "partial";
	double a[16], b[16], ra[16], segs = 0;
	int bad = 0;
	unsigned i;
	for (i = 0; i < g_reps; i++) {
		a[i] = gso_ours(payload, full, burst, &segs);
		b[i] = gso_theirs(payload, full, &bad);
		ra[i] = b[i] > 0 ? a[i] / b[i] : 0;
	}
	qsort(a, g_reps, sizeof(double), cmp_dbl);
	qsort(b, g_reps, sizeof(double), cmp_dbl);
	qsort(ra, g_reps, sizeof(double), cmp_dbl);
	printf("gso %-7s tcp4 %5u B mss 1448 (%4.1f segs)  ofl %7.1f ns/seg  dpdk%s %7.1f ns/seg  ofl/dpdk %.3f"
	       "  (ofl %.2fx faster)%s\n",
	       mode, payload, segs, a[g_reps / 2], full ? "+sw csum" : "", b[g_reps / 2],
	       ra[g_reps / 2], ra[g_reps / 2] > 0 ? 1.0 / ra[g_reps / 2] : 0, bad ? "  CHECK FAILED" : "");
	if (g_json)
		fprintf(g_json,
		        "{\"area\":\"gso\",\"mem\":\"%s\",\"mode\":\"%s\",\"l3\":4,\"payload\":%u,\"mss\":1448,\"segs\":%.2f,"
		        "\"reps\":%u,\"ofl_ns_per_seg\":%.3f,\"dpdk_ns_per_seg\":%.3f,\"ofl_over_dpdk\":%.4f,"
		        "%s\"ok\":%s}\n",
		        g_mem, mode, payload, segs, g_reps, a[g_reps / 2], b[g_reps / 2],
		        ra[g_reps / 2], spread_json(a, b, ra), bad ? "false" : "true");
	fflush(stdout);
}

static int gso_pools(void)
{
	g_big = rte_pktmbuf_pool_create("ofl_big", 15, 0, 0, 65535, SOCKET_ID_ANY);
	g_direct = rte_pktmbuf_pool_create("ofl_gso_d", 1023, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
	                                   SOCKET_ID_ANY);
	g_indirect = rte_pktmbuf_pool_create("ofl_gso_i", 1023, 0, 0, 0, SOCKET_ID_ANY);
	return g_big && g_direct && g_indirect ? 0 : -1;
}
#endif

/* ---- rows ------------------------------------------------------------------- */

static void row(const char *mode, unsigned flows, unsigned poll)
{
	int ctx_mode = strcmp(mode, "ctx") == 0, bad = 0;
	struct mring mr;
	double a[16], b[16], ra[16], ours, theirs, ratio;
	unsigned i;
	/* ctx rows hold packets for 200 us of real time: a 65536-slot ring */
	if (mring_init(&mr, g_pool, flows, ctx_mode ? 65536 : 0) != 0) {
		fprintf(stderr, "ofl_dpdk_cmp: ring for %u flows failed\n", flows);
		return;
	}
	for (i = 0; i < g_reps; i++) {
		a[i] = g_side != 2 ? run_ours(&mr, poll, ctx_mode ? TIMEOUT_NS : 0, &bad) : 0;
		b[i] = g_side != 1 ? run_theirs(&mr, poll, ctx_mode, &bad) : 0;
		ra[i] = b[i] > 0 ? a[i] / b[i] : 0;
	}
	qsort(a, g_reps, sizeof(double), cmp_dbl);
	qsort(b, g_reps, sizeof(double), cmp_dbl);
	qsort(ra, g_reps, sizeof(double), cmp_dbl);
	ours = a[g_reps / 2];
	theirs = b[g_reps / 2];
	ratio = ra[g_reps / 2];
	printf("gro %-5s tcp4 flows %-6u poll %-3u  ofl %8.1f ns/pkt  dpdk %8.1f ns/pkt  ofl/dpdk %.3f"
	       "  (ofl %.2fx faster)%s\n",
	       mode, flows, poll, ours, theirs, ratio, ratio > 0 ? 1.0 / ratio : 0, bad ? "  CHECK FAILED" : "");
	if (g_json)
		fprintf(g_json,
		        "{\"area\":\"gro\",\"mem\":\"%s\",\"mode\":\"%s\",\"l3\":4,\"flows\":%u,\"poll\":%u,"
		        "\"timeout_ns\":%u,\"ring\":%u,\"reps\":%u,\"ofl_ns_per_pkt\":%.3f,"
		        "\"dpdk_ns_per_pkt\":%.3f,\"ofl_over_dpdk\":%.4f,%s\"ok\":%s}\n",
		        g_mem, mode, flows, poll, ctx_mode ? TIMEOUT_NS : 0, mr.r.nslots, g_reps, ours, theirs,
		        ratio, spread_json(a, b, ra), bad ? "false" : "true");
	fflush(stdout);
	mring_free(&mr);
}

#define EAL_MB 512u  /* -m: the memory DPDK reserves at start (MB) */
#define EAL_MB_S "512" /* (the same, as EAL's argument) */

/* Are there EAL_MB of free 2 MB pages, and a hugetlbfs mount?  (auto) */
static int huge_ready(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	unsigned long free_pages = 0, kb = 0;
	int mounted = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		sscanf(line, "HugePages_Free: %lu", &free_pages);
		sscanf(line, "Hugepagesize: %lu kB", &kb);
	}
	fclose(f);
	f = fopen("/proc/mounts", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (strstr(line, " hugetlbfs "))
			mounted = 1;
	fclose(f);
	/* (a margin over -m for the GSO pools and DPDK's own) */
	return mounted && kb == 2048 && free_pages * 2 >= EAL_MB + 64;
}

int main(int argc, char **argv)
{
	/* eal[1]: --no-huge (4 KB pages) or --in-memory (2 MB pages, no
	 * files left behind) */
	char *eal[] = {"ofl_dpdk_cmp", "--no-huge", "--no-pci", "-m", EAL_MB_S, "--no-shconf",
	               "--no-telemetry", "-l", "0", "--log-level=lib.*:error", NULL};
	const char *mem = "auto";
	int i, quick = 0;
	const char *json = NULL, *only = NULL;
	unsigned only_flows = 0, only_poll = 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0)
			quick = 1;
		else if (strcmp(argv[i], "--json") == 0 && i + 1 < argc)
			json = argv[++i];
		else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
			g_reps = (unsigned)atoi(argv[++i]);
		else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
			only = argv[++i];
		else if (strcmp(argv[i], "--flows") == 0 && i + 1 < argc)
			only_flows = (unsigned)atoi(argv[++i]);
		else if (strcmp(argv[i], "--poll") == 0 && i + 1 < argc)
			only_poll = (unsigned)atoi(argv[++i]);
		else if (strcmp(argv[i], "--mem") == 0 && i + 1 < argc &&
		         (strcmp(argv[i + 1], "auto") == 0 || strcmp(argv[i + 1], "2m") == 0 ||
		          strcmp(argv[i + 1], "4k") == 0))
			mem = argv[++i];
		else if (strcmp(argv[i], "--side") == 0 && i + 1 < argc) {
			i++;
			g_side = strcmp(argv[i], "ofl") == 0 ? 1 : strcmp(argv[i], "dpdk") == 0 ? 2 : 0;
		} else {
			fprintf(stderr, "usage: ofl_dpdk_cmp [--quick] [--reps N] [--json FILE] "
			                "[--only burst|ctx|gso] [--flows N] [--poll 32|64] "
			                "[--side ofl|dpdk|both] [--mem auto|2m|4k]\n");
			return 2;
		}
	}
	if (g_reps < 1 || g_reps > 15)
		g_reps = 5;
	if (quick) {
		g_reps = 3;
		g_min_s = 0.03;
	}
	if (strcmp(mem, "2m") == 0 || (strcmp(mem, "auto") == 0 && huge_ready())) {
		eal[1] = "--in-memory";
		g_mem = "2M";
	}
	if (rte_eal_init((int)(sizeof eal / sizeof eal[0]) - 1, eal) < 0) {
		fprintf(stderr, "ofl_dpdk_cmp: rte_eal_init failed (%s pages)\n", g_mem);
		return 1;
	}
	g_pool = ring_pool("ofl_ring", 65536 + 8192, RTE_MBUF_DEFAULT_BUF_SIZE);
	if (!g_pool) {
		fprintf(stderr, "ofl_dpdk_cmp: no mbuf pool\n");
		return 1;
	}
	if (json) {
		g_json = fopen(json, "w");
		if (!g_json) {
			perror(json);
			return 1;
		}
	}
	printf("# DPDK %s (rte_version: %s); libofl %s; TSC %llu Hz; %u reps, median chunk of %u pkts; "
	       "mbufs in %s pages\n",
	       DPDK_VERSION_STR, rte_version(), ofl_version(), (unsigned long long)rte_get_tsc_hz(),
	       g_reps, BH_CHUNK, strcmp(g_mem, "2M") == 0 ? "2 MB (hugetlbfs)" : "4 KB (--no-huge)");
	{
		const unsigned flows[] = {1, 8, 64, 1024, 65536};
		unsigned f, p;
		if (!only || strcmp(only, "burst") == 0)
			for (p = 32; p <= 64; p += 32)
				for (f = 0; f < 5; f++)
					if ((!only_flows || only_flows == flows[f]) && (!only_poll || only_poll == p))
						row("burst", flows[f], p);
		if (!only || strcmp(only, "ctx") == 0)
			for (f = 0; f < 5; f++)
				if ((!only_flows || only_flows == flows[f]) && (!only_poll || only_poll == 32))
					row("ctx", flows[f], 32);
	}
#ifdef OFL_BENCH_HAVE_GSO
	if (!only || strcmp(only, "gso") == 0) {
		if (gso_pools() != 0) {
			fprintf(stderr, "ofl_dpdk_cmp: no GSO mbuf pools\n");
		} else {
			gso_row(64000, 0, 0);
			gso_row(64000, 0, 1);
			gso_row(64000, 1, 0);
			gso_row(9000, 0, 0);
			gso_row(9000, 0, 1);
			gso_row(9000, 1, 0);
		}
	}
#endif
	if (g_json)
		fclose(g_json);
	rte_mempool_free(g_pool);
	rte_eal_cleanup();
	return 0;
}
