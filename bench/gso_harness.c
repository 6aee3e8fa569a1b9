/* gso_harness.c - see gso_harness.h. */
#include "gso_harness.h"

#include <stdlib.h>
#include <string.h>

#include <ofl/gso.h>

#include "gen.h"

#define BH_GSO_NPKT 8u     /* distinct super-packets segmented in turn */
#define BH_GSO_SLOTS 256u  /* header slots (256 B each) */

struct bh_gso {
	int l3, udp;
	uint32_t payload, mss;
	int full_csum;
	uint8_t *frames[BH_GSO_NPKT];
	uint32_t lens[BH_GSO_NPKT];
	struct ofl_buf bufs[BH_GSO_NPKT];
	struct ofl_gso_req req;
	struct ofl_gso_pool pool;
	uint8_t *pool_mem;
	struct ofl_gso_hbuf held[BH_GSO_SLOTS];
	unsigned next;
	unsigned burst; /* 0: ofl_gso_next(); else ofl_gso_next_burst() of this many */
	int ring;       /* RING pool, slots back by ofl_gso_pool_put_oldest() */
	uint64_t segs, bytes;
	struct ofl_gso_seg segv[BH_GSO_MAX_BURST];
};

static void wr16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }

uint32_t bh_udp_frame(int l3, uint32_t payload, uint8_t *buf, uint32_t cap)
{
	/* Take the generator's TCP frame for the same addresses and turn its
	 * L4 into UDP (8-byte header), recomputing the lengths and checksums. */
	struct gen_tcp g;
	uint32_t l3o = 14, l4o = l3 == 4 ? 34 : 54, ulen = 8 + payload, len = l4o + ulen, sum, i;
	uint8_t *ip = buf + l3o, *uh = buf + l4o;
	if (len > cap)
		return 0;
	gen_tcp_init(&g, l3);
	g.payload_len = 0;
	if (!gen_tcp_frame(&g, buf, cap))
		return 0;
	for (i = 0; i < payload; i++)
		uh[8 + i] = gen_payload_byte(7, i);
	wr16(uh, 1500);
	wr16(uh + 2, 9000);
	wr16(uh + 4, (uint16_t)ulen);
	wr16(uh + 6, 0);
	if (l3 == 4) {
		ip[9] = 17;
		wr16(ip + 2, (uint16_t)(20 + ulen));
		wr16(ip + 10, 0);
		wr16(ip + 10, (uint16_t)~gen_csum_fold(ip, 20, 0));
		sum = gen_csum_fold(ip + 12, 8, 0) + 17 + ulen;
	} else {
		ip[6] = 17;
		wr16(ip + 4, (uint16_t)ulen);
		sum = gen_csum_fold(ip + 8, 32, 0) + 17 + ulen;
	}
	wr16(uh + 6, (uint16_t)~gen_csum_fold(uh, ulen, sum));
	return len;
}

struct bh_gso *bh_gso_new(int l3, int udp, uint32_t payload, uint32_t mss, int full_csum)
{
	unsigned i;
	struct bh_gso *g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->l3 = l3;
	g->udp = udp;
	g->payload = payload;
	g->mss = mss;
	g->full_csum = full_csum;
	for (i = 0; i < BH_GSO_NPKT; i++) {
		uint32_t cap = payload + 128;
		g->frames[i] = aligned_alloc(64, (cap + 63) / 64 * 64);
		if (!g->frames[i])
			goto fail;
		if (udp) {
			g->lens[i] = bh_udp_frame(l3, payload, g->frames[i], cap);
		} else {
			struct gen_tcp t;
			gen_tcp_init(&t, l3);
			t.payload_len = payload;
			t.flow_salt = i;
			t.seq = 1000 + i * payload;
			t.ip_id = (uint16_t)(i * 100);
			g->lens[i] = (uint32_t)gen_tcp_frame(&t, g->frames[i], cap);
		}
		if (!g->lens[i])
			goto fail;
		g->bufs[i].data = g->frames[i];
		g->bufs[i].len = g->lens[i];
	}
	ofl_gso_req_default(&g->req);
	g->req.type = udp ? OFL_GSO_TYPE_UDP_L4 : OFL_GSO_TYPE_TCP;
	g->req.csum = (uint8_t)(full_csum ? OFL_CSUM_MODE_FULL : OFL_CSUM_MODE_PARTIAL);
	g->req.seg_size = mss;
	g->pool_mem = aligned_alloc(64, BH_GSO_SLOTS * 256u);
	if (!g->pool_mem || ofl_gso_pool_init_block(&g->pool, g->pool_mem, BH_GSO_SLOTS * 256u, 256) != 0)
		goto fail;
	/* one untimed try, so a bad request shows before timing */
	if (bh_gso_one(g) == 0)
		goto fail;
	g->segs = g->bytes = 0;
	return g;
fail:
	bh_gso_free(g);
	return NULL;
}

void bh_gso_free(struct bh_gso *g)
{
	unsigned i;
	if (!g)
		return;
	for (i = 0; i < BH_GSO_NPKT; i++)
		free(g->frames[i]);
	free(g->pool_mem);
	free(g);
}

int bh_gso_set_burst(struct bh_gso *g, unsigned n)
{
	if (!g || n > BH_GSO_MAX_BURST)
		return -1;
	g->burst = n;
	return 0;
}

/* What a driver does with a segment: post hdr + slices (here: count). */
static inline void post(struct bh_gso *g, const struct ofl_gso_seg *seg, unsigned *n)
{
	g->bytes += seg->len;
	if (*n < BH_GSO_SLOTS)
		g->held[*n] = seg->hdr;
	(*n)++;
}

unsigned bh_gso_one(struct bh_gso *g)
{
	struct ofl_gso_iter it;
	struct ofl_gso_seg seg;
	unsigned n = 0, i = g->next, k;
	int rc;
	g->next = (g->next + 1) % BH_GSO_NPKT;
	if (ofl_gso_start(&it, &g->req, &g->bufs[i], 1) != 0)
		return 0;
	if (g->burst) {
		/* a burst whose last segment has OFL_GSO_SEG_F_LAST ends the
		 * packet (no call to find it done) */
		while ((rc = ofl_gso_next_burst(&it, &g->pool, g->segv, g->burst)) > 0) {
			for (k = 0; k < (unsigned)rc; k++)
				post(g, &g->segv[k], &n);
			if (g->segv[rc - 1].flags & OFL_GSO_SEG_F_LAST) {
				rc = 0;
				break;
			}
		}
	} else {
		while ((rc = ofl_gso_next(&it, &g->pool, &seg)) == 1)
			post(g, &seg, &n);
	}
	/* TX completion: the header slots go back (a RING pool: the n oldest,
	 * no slot records) */
	if (g->ring)
		ofl_gso_pool_put_oldest(&g->pool, n);
	else
		ofl_gso_pool_put_burst(&g->pool, g->held, n < BH_GSO_SLOTS ? n : BH_GSO_SLOTS);
	if (rc != 0)
		return 0;
	g->segs += n;
	return n;
}

int bh_gso_set_ring(struct bh_gso *g)
{
	if (!g || ofl_gso_pool_init_ring(&g->pool, g->pool_mem, BH_GSO_SLOTS * 256u, 256) != 0)
		return -1;
	g->ring = 1;
	return 0;
}

/* Wrap every super-packet in VXLAN over IPv4 (outer Ethernet, IPv4, UDP to
 * 4789 with checksum 0, the 8-byte VXLAN header: 50 bytes in front of the
 * frame, which bh_gso_new() left room for) and cut it as a VXLAN tunnel. */
int bh_gso_set_vxlan(struct bh_gso *g)
{
	static const uint8_t outer[50] = {
		0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01, 0x08, 0x00, /* Ethernet */
		0x45, 0, 0, 0, 0x12, 0x34, 0x40, 0, 64, 17, 0, 0, 192, 0, 2, 1, 192, 0, 2, 2, /* IPv4 */
		0xc0, 0x00, 0x12, 0xb5, 0, 0, 0, 0,                     /* UDP 49152 -> 4789 */
		0x08, 0, 0, 0, 0x00, 0x00, 0x2a, 0,                      /* VXLAN, VNI 42 */
	};
	unsigned i;
	if (!g || g->udp)
		return -1;
	for (i = 0; i < BH_GSO_NPKT; i++) {
		uint8_t *f = g->frames[i];
		uint32_t len = g->lens[i] + 50u;
		memmove(f + 50, f, g->lens[i]);
		memcpy(f, outer, 50);
		wr16(f + 16, (uint16_t)(len - 14u));
		wr16(f + 24, (uint16_t)~gen_csum_fold(f + 14, 20, 0));
		wr16(f + 38, (uint16_t)(len - 34u));
		g->lens[i] = g->bufs[i].len = len;
	}
	g->req.tunnel = OFL_GSO_TUN_VXLAN;
	return bh_gso_one(g) ? 0 : -1;
}
