/*
 * tx_ring.c - a driver's TX path with libofl software TSO/GSO.
 *
 * A simulated NIC has a ring of RING descriptors and, like the drivers that
 * use Linux's net/core/tso.c (mvneta, fec, otx2...), one DMA-coherent header
 * block cut into TSO_HEADER_SIZE slots (ofl_gso_pool_init_block): each
 * segment is one header descriptor pointing at its slot (bus address = the
 * block's DMA base + slot offset) plus one descriptor per payload slice,
 * pointing into the super-packet's own buffers (no payload copy).
 *
 * The driver's xmit asks ofl_gso_count() how many descriptors a packet will
 * use, then posts segment after segment; when the ring cannot take the next
 * segment it stops the queue, the NIC completes what it has sent (which
 * gives the header slots back), and the same iterator resumes.  At the end
 * every packet must have used exactly the descriptors count promised, and
 * the NIC checks every frame it put on the wire: IPv4 header checksum, the
 * L4 checksum it finished itself (checksum offload: OFL_CSUM_MODE_PARTIAL),
 * lengths, and the payload against the original at the TCP sequence number
 * (or UDP datagram index).
 *
 * No root, no devices: runs anywhere.
 */
#include <ofl/csum.h>
#include <ofl/gso.h>

#include <stdio.h>
#include <string.h>

#define RING 48               /* descriptors */
#define HDR_SLOT 256          /* Linux TSO_HEADER_SIZE */
#define DMA_BASE 0x80000000ull /* bus address of the header block (made up) */
#define DESC_F_SOP 0x1u       /* first descriptor of a frame: the header */
#define DESC_F_EOP 0x2u       /* last descriptor of a frame */
#define DESC_F_CSUM 0x4u      /* finish the L4 checksum (csum_start/offset) */

struct txd { /* what the NIC reads */
	uint64_t addr;
	const uint8_t *va; /* payload: the simulation's stand-in for a DMA mapping */
	uint32_t len;
	uint16_t flags, csum_start, csum_offset;
};

struct nic {
	struct txd ring[RING];
	struct ofl_gso_hbuf slot_of[RING]; /* driver side: header slot per SOP desc */
	unsigned prod, cons;               /* free running */
	_Alignas(64) uint8_t hdr_block[RING * HDR_SLOT]; /* "coherent DMA block" */
	struct ofl_gso_pool pool;
	/* the NIC's view */
	uint8_t frame[16384];
	uint32_t flen;
	unsigned frames, bad, stops;
	const uint8_t *payload; /* the original payload of the packet in flight */
	uint32_t payload_len, seq0, seg_size;
	int v6, udp;
};

static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint32_t get32(const uint8_t *p) { return (uint32_t)get16(p) << 16 | get16(p + 2); }
static void put16(uint8_t *p, unsigned v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put32(uint8_t *p, uint32_t v) { put16(p, v >> 16); put16(p + 2, v & 0xffff); }

/* --- the NIC: sends (checks) one frame, then completes its descriptors -- */

static int l4_csum_ok(const uint8_t *f, uint32_t len, int v6, unsigned l4off, unsigned proto)
{
	uint8_t ph[8] = {0};
	uint32_t l4len = len - l4off, sum;
	if (v6) {
		sum = ofl_csum_partial(f + 14 + 8, 32, 0);
		put32(ph, l4len);
		ph[7] = (uint8_t)proto;
	} else {
		sum = ofl_csum_partial(f + 14 + 12, 8, 0);
		put16(ph + 2, l4len);
		ph[1] = (uint8_t)proto;
	}
	sum = ofl_csum_partial(ph, v6 ? 8 : 4, sum);
	return ofl_csum_fold(ofl_csum_partial(f + l4off, l4len, sum)) == 0;
}

static void nic_check_frame(struct nic *n, const struct txd *sop)
{
	uint8_t *f = n->frame;
	unsigned l4off = n->v6 ? 14 + 40 : 14 + 20, hl = n->udp ? 8 : (unsigned)(f[l4off + 12] >> 4) * 4;
	uint32_t plen = n->flen - l4off - hl, off;
	int ok = 1;
	if (sop->flags & DESC_F_CSUM) { /* checksum offload, as the hardware does it */
		uint16_t c = ofl_csum_fold(ofl_csum_partial(f + sop->csum_start, n->flen - sop->csum_start, 0));
		if (n->udp && c == 0)
			c = 0xffff;
		memcpy(f + sop->csum_start + sop->csum_offset, &c, 2);
	}
	if (n->v6)
		ok &= get16(f + 14 + 4) == n->flen - 14 - 40;
	else
		ok &= get16(f + 14 + 2) == n->flen - 14 && ofl_csum_fold(ofl_csum_partial(f + 14, 20, 0)) == 0;
	ok &= l4_csum_ok(f, n->flen, n->v6, l4off, n->udp ? 17 : 6);
	if (n->udp) {
		off = get16(f + l4off + hl) * n->seg_size; /* datagram number, first 2 bytes */
		ok &= get16(f + l4off + 4) == plen + 8;
	} else {
		off = get32(f + l4off + 4) - n->seq0;
	}
	ok &= off + plen <= n->payload_len && memcmp(f + l4off + hl, n->payload + off, plen) == 0;
	n->frames++;
	n->bad += !ok;
}

/* The NIC sends up to `budget` descriptors and reports them complete; the
 * driver's completion handler gives each header slot back to the pool. */
static void nic_tx_complete(struct nic *n, unsigned budget)
{
	while (budget-- && n->cons != n->prod) {
		const struct txd *d = &n->ring[n->cons % RING];
		if (d->flags & DESC_F_SOP) {
			memcpy(n->frame, n->hdr_block + (d->addr - DMA_BASE), d->len); /* "DMA" */
			n->flen = d->len;
		} else {
			memcpy(n->frame + n->flen, d->va, d->len);
			n->flen += d->len;
		}
		if (d->flags & DESC_F_EOP) {
			/* find this frame's SOP to read its offload fields */
			unsigned i = n->cons;
			while (!(n->ring[i % RING].flags & DESC_F_SOP))
				i--;
			nic_check_frame(n, &n->ring[i % RING]);
		}
		if (d->flags & DESC_F_SOP && ofl_gso_pool_put(&n->pool, &n->slot_of[n->cons % RING]) != 0)
			n->bad++;
		n->cons++;
	}
}

/* --- the driver's xmit ---------------------------------------------------- */

static unsigned ring_free(const struct nic *n) { return RING - (n->prod - n->cons); }

/* Post one super-packet; returns the descriptors used, or -1. */
static int xmit(struct nic *n, const struct ofl_gso_req *req, const struct ofl_buf *bufs,
                uint32_t nbufs, struct ofl_gso_counts *cnt)
{
	struct ofl_gso_iter it;
	struct ofl_gso_seg seg;
	int rc, used = 0;
	if ((rc = ofl_gso_start(&it, req, bufs, nbufs)) != 0 || (rc = ofl_gso_count(&it, cnt, sizeof *cnt)) != 0 ||
	    (rc = ofl_gso_check_pool(&it, &n->pool)) != 0) {
		fprintf(stderr, "gso: %s\n", ofl_strerror(rc));
		return -1;
	}
	for (;;) {
		/* Room for the next segment?  A segment needs 1 + its slices; the
		 * most any segment needs is 1 + max_slices. */
		if (ring_free(n) < 1 + cnt->max_slices) {
			n->stops++;           /* netif_stop_queue() */
			nic_tx_complete(n, RING / 3); /* ... TX-complete interrupt ... */
			continue;             /* netif_wake_queue(): resume */
		}
		rc = ofl_gso_next(&it, &n->pool, &seg);
		if (rc == 0)
			return used;
		if (rc == OFL_EAGAIN) { /* no header slot free: same as a full ring */
			n->stops++;
			nic_tx_complete(n, RING / 3);
			continue;
		}
		if (rc != 1) {
			fprintf(stderr, "gso next: %s\n", ofl_strerror(rc));
			ofl_gso_abort(&it);
			return -1;
		}
		struct txd *d = &n->ring[n->prod % RING];
		*d = (struct txd){
			.addr = DMA_BASE + seg.hdr.offset,
			.len = seg.hdr_len,
			.flags = (uint16_t)(DESC_F_SOP | (seg.flags & OFL_GSO_SEG_F_CSUM_PARTIAL ? DESC_F_CSUM : 0)),
			.csum_start = seg.csum_start,
			.csum_offset = seg.csum_offset,
		};
		n->slot_of[n->prod % RING] = seg.hdr;
		n->prod++;
		for (uint32_t i = 0; i < seg.nslices; i++) {
			d = &n->ring[n->prod++ % RING];
			*d = (struct txd){.addr = (uint64_t)(uintptr_t)seg.slices[i].data,
			                  .va = seg.slices[i].data,
			                  .len = seg.slices[i].len};
		}
		d->flags |= DESC_F_EOP;
		used += 1 + (int)seg.nslices;
	}
}

/* --- super-packets, as a stack would hand them to the driver ------------- */

static uint8_t payload[65536];

/* Headers (Ethernet, IPv4 or IPv6, TCP with a timestamp option or UDP) plus
 * the first `inhead` payload bytes in head; returns the head length. */
static uint32_t make_head(uint8_t *h, int v6, int udp, uint32_t plen, uint32_t inhead, uint32_t seq)
{
	unsigned l3 = v6 ? 40 : 20, l4 = udp ? 8 : 32;
	uint8_t *ip = h + 14, *th = ip + l3;
	memset(h, 0, 14 + l3 + l4);
	memcpy(h, "\x02\0\0\0\0\x02\x02\0\0\0\0\x01", 12);
	put16(h + 12, v6 ? 0x86dd : 0x0800);
	if (v6) {
		ip[0] = 0x60;
		put16(ip + 4, l4 + plen);
		ip[6] = udp ? 17 : 6;
		ip[7] = 64;
		memcpy(ip + 8, "\xfd\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x01", 16);
		memcpy(ip + 24, "\xfd\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x02", 16);
	} else {
		ip[0] = 0x45;
		put16(ip + 2, 20 + l4 + plen);
		put16(ip + 4, 0x1234);
		put16(ip + 6, 0x4000);
		ip[8] = 64;
		ip[9] = udp ? 17 : 6;
		memcpy(ip + 12, "\xc6\x12\0\x01\xc6\x12\0\x02", 8); /* 198.18.0.1 -> .2 */
		uint16_t c = ofl_csum_fold(ofl_csum_partial(ip, 20, 0));
		memcpy(ip + 10, &c, 2);
	}
	put16(th, 40000);
	put16(th + 2, 5001);
	if (udp) {
		put16(th + 4, 8 + plen);
	} else {
		put32(th + 4, seq);
		put32(th + 8, 1);
		th[12] = 8 << 4; /* 32-byte header: NOP NOP timestamp */
		th[13] = 0x18;   /* ACK PSH */
		put16(th + 14, 512);
		memcpy(th + 20, "\x01\x01\x08\x0a\0\0\0\x01\0\0\0\x02", 12);
	}
	memcpy(h + 14 + l3 + l4, payload, inhead);
	return 14 + l3 + l4 + inhead;
}

struct test_pkt {
	const char *name;
	int v6, udp;
	uint32_t plen, seg_size;
};

int main(void)
{
	static struct nic n;
	static const struct test_pkt pkts[] = {
		{.name = "TCP/IPv4 64000 B, MSS 1448", .plen = 64000, .seg_size = 1448},
		{.name = "TCP/IPv6 60000 B, MSS 1428", .v6 = 1, .plen = 60000, .seg_size = 1428},
		{.name = "TCP/IPv4 20000 B, MSS 536", .plen = 20000, .seg_size = 536},
		{.name = "UDP_L4/IPv4 12000 B, 1200 per datagram", .udp = 1, .plen = 12000, .seg_size = 1200},
	};
	unsigned failed = 0;

	for (uint32_t i = 0; i < sizeof payload; i++)
		payload[i] = (uint8_t)(i * 7u + (i >> 9));
	if (ofl_gso_pool_init_block(&n.pool, n.hdr_block, sizeof n.hdr_block, HDR_SLOT) != 0)
		return 1;
	printf("ring %u descriptors, header block %u slots of %u bytes at bus 0x%llx\n", RING,
	       (unsigned)(sizeof n.hdr_block / HDR_SLOT), HDR_SLOT, (unsigned long long)DMA_BASE);

	for (unsigned p = 0; p < sizeof pkts / sizeof pkts[0]; p++) {
		const struct test_pkt *t = &pkts[p];
		static uint8_t head[256];
		struct ofl_gso_req req;
		struct ofl_gso_counts cnt;
		const uint32_t seq = 1000000 + p;
		if (t->udp) /* number the datagrams so the NIC can place them */
			for (uint32_t k = 0; k * t->seg_size < t->plen; k++)
				put16(payload + k * t->seg_size, k);
		/* like an skb: a linear head (headers + 100 bytes), two page fragments */
		uint32_t hlen = make_head(head, t->v6, t->udp, t->plen, 100, seq);
		uint32_t cut = 100 + (t->plen - 100) / 3;
		const struct ofl_buf bufs[3] = {
			{.data = head, .len = hlen},
			{.data = payload + 100, .len = cut - 100},
			{.data = payload + cut, .len = t->plen - cut},
		};
		ofl_gso_req_default(&req);
		req.type = t->udp ? OFL_GSO_TYPE_UDP_L4 : OFL_GSO_TYPE_TCP;
		req.seg_size = t->seg_size;
		req.csum = OFL_CSUM_MODE_PARTIAL; /* the NIC finishes L4 checksums */
		n.payload = payload;
		n.payload_len = t->plen;
		n.seq0 = seq;
		n.seg_size = t->seg_size;
		n.v6 = t->v6;
		n.udp = t->udp;
		unsigned frames0 = n.frames, bad0 = n.bad, stops0 = n.stops;
		int used = xmit(&n, &req, bufs, 3, &cnt);
		nic_tx_complete(&n, RING); /* drain before the next packet's NIC checks */
		int ok = used >= 0 && (uint32_t)used == cnt.descs && n.frames - frames0 == cnt.segs &&
		         n.bad == bad0 && ofl_gso_pool_avail(&n.pool) == sizeof n.hdr_block / HDR_SLOT;
		printf("%-40s %2u segments: ofl_gso_count promised %3u descriptors, used %3d; "
		       "queue stopped %u times; %u frames checked on the wire: %s\n",
		       t->name, cnt.segs, cnt.descs, used, n.stops - stops0, n.frames - frames0,
		       ok ? "ok" : "WRONG");
		failed += !ok;
	}
	printf("%s: %u frames sent, %u bad\n", failed ? "FAIL" : "OK", n.frames, n.bad);
	return failed ? 1 : 0;
}
