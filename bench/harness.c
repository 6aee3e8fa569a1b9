/* harness.c - see harness.h. */
#define _GNU_SOURCE /* madvise(MADV_HUGEPAGE) */
#include "harness.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "gen.h"
#include "gen_tun.h"

#ifdef OFL_BENCH_HAVE_DSA
#include <ofl/dsa.h>
#endif

uint64_t bh_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static void wr16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }

/* RFC 1624: checksum field update for one 16-bit word changing old -> new. */
static void csum_replace16(uint8_t *field, uint16_t old, uint16_t new_)
{
	uint32_t s = (uint16_t)~rd16(field);
	s += (uint16_t)~old;
	s += new_;
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	wr16(field, (uint16_t)~s);
}

unsigned bh_ring_slots(const struct bh_traffic *t)
{
	const char *env = getenv("OFL_BENCH_RING");
	unsigned n = t->min_slots ? t->min_slots : env ? (unsigned)atoi(env) : BH_RING_MIN;
	unsigned f = t->nflows ? t->nflows : 1;
	/* A multiple of the flow count (so a slot always carries the same flow)
	 * and of the chunk; flow counts here are powers of two. */
	if (n < f)
		n = f;
	n = (n + f - 1) / f * f;
	n = (n + BH_CHUNK - 1) / BH_CHUNK * BH_CHUNK;
	while (n % f)
		n += BH_CHUNK;
	return n;
}

static void set_bufs(struct bh_ring *r, unsigned i)
{
	struct ofl_buf *b = r->bufs + (size_t)i * r->t.nbufs;
	const uint8_t *f = r->slot[i] + r->data_off;
	uint32_t len = r->len[i], h = r->hdr_len, pl = len > h ? len - h : 0;
	if (r->t.nbufs == 1) {
		b[0].data = f;
		b[0].len = len;
	} else if (r->t.nbufs == 2) {
		b[0].data = f;
		b[0].len = h;
		b[1].data = f + h;
		b[1].len = pl;
	} else {
		uint32_t a = pl / 3, c = pl / 3;
		b[0].data = f;
		b[0].len = h;
		b[1].data = f + h;
		b[1].len = a;
		b[2].data = f + h + a;
		b[2].len = c;
		b[3].data = f + h + a + c;
		b[3].len = pl - a - c;
	}
	r->pkts[i].bufs = b;
	r->pkts[i].nbufs = (uint16_t)r->t.nbufs;
	r->pkts[i].cookie = (void *)(uintptr_t)(i + 1);
}

int bh_tag_dsa(const void *dsa, uint8_t *fr, uint32_t *len, uint32_t *shift)
{
#ifdef OFL_BENCH_HAVE_DSA
	const struct ofl_dsa_ops *ops = dsa;
	struct ofl_dsa_meta m;
	struct ofl_dsa_view v;
	uint8_t tmp[BH_STRIDE + 64];
	uint32_t off = 32, l = *len;
	memset(&m, 0, sizeof(m));
	if (ops->rx_ports) {
		m.valid = OFL_DSA_M_PORT;
		m.port = 1;
	}
	memset(tmp, 0, sizeof(tmp));
	memcpy(tmp + off, fr, l);
	if (ofl_dsa_encode(ops, NULL, OFL_DSA_RX, &m, tmp, sizeof(tmp), &off, &l) != 0 ||
	    l > BH_STRIDE || ofl_dsa_decode(ops, NULL, OFL_DSA_RX, tmp + off, l, &m, &v) != 0 ||
	    v.ins_len || v.rest_off < v.hdr_len)
		return -1;
	*shift = v.rest_off - v.hdr_len;
	memcpy(fr, tmp + off, l);
	*len = l;
	return 0;
#else
	(void)dsa;
	(void)fr;
	(void)len;
	(void)shift;
	return -1;
#endif
}

/* Tag frame fr (in a BH_STRIDE buffer) in place with a DSA format, switch ->
 * host layout; the first call sets the ring's offsets from the decode. */
static int tag_frame(struct bh_ring *r, const void *dsa, uint8_t *fr, uint32_t *len, int first)
{
	uint32_t shift;
	if (bh_tag_dsa(dsa, fr, len, &shift) != 0)
		return -1;
	if (first) {
		/* untagged offset k >= hdr_len is tagged rest_off + k - hdr_len */
		r->data_off = 0;
		r->l3_off = 14 + shift;
		r->l4_off = (r->t.l3 == 4 ? 34 : 54) + shift;
		r->hdr_len = r->l4_off + 20;
	}
	return 0;
}

/* Wrap the n frames (flow i % flows) in VXLAN over IPv(l3), in place. */
static int wrap_vxlan(int l3, unsigned flows, uint8_t *frames, uint32_t *lens, unsigned n)
{
	static uint8_t inner[BH_STRIDE];
	struct gen_tun t;
	unsigned i;
	gen_tun_init(&t, GEN_TUN_VXLAN, l3);
	for (i = 0; i < n; i++) {
		uint8_t *f = frames + (size_t)i * BH_STRIDE;
		memcpy(inner, f, lens[i]);
		t.sport = (uint16_t)(40000u + i % flows);
		lens[i] = (uint32_t)gen_tun_wrap(&t, inner, lens[i], f, BH_STRIDE);
		if (!lens[i])
			return -1;
	}
	return 0;
}

int bh_ring_init(struct bh_ring *r, const struct bh_traffic *t, uint8_t **slot_mem)
{
	unsigned n, i, f = t->nflows ? t->nflows : 1;
	uint8_t *tmp;
	uint32_t *lens;
	memset(r, 0, sizeof(*r));
	if ((t->l3 != 4 && t->l3 != 6) || (t->nbufs != 1 && t->nbufs != 2 && t->nbufs != 4))
		return -1;
	r->t = *t;
	r->t.nflows = f;
	n = bh_ring_slots(&r->t);
	r->nslots = n;
	r->nseg = n / f;
	r->slot = calloc(n, sizeof(*r->slot));
	r->len = calloc(n, sizeof(*r->len));
	r->gen = calloc(n, sizeof(*r->gen));
	r->base = malloc((size_t)n * BH_SAVE);
	r->bufs = calloc((size_t)n * t->nbufs, sizeof(*r->bufs));
	r->pkts = calloc(n, sizeof(*r->pkts));
	if (!r->slot || !r->len || !r->gen || !r->base || !r->bufs || !r->pkts)
		goto fail;
	if (slot_mem) {
		for (i = 0; i < n; i++)
			r->slot[i] = slot_mem[i];
	} else {
		/* 64-byte aligned buffers, like a driver's; a page per frame
		 * (BH_STRIDE_PAGE) page aligned, the frame after a headroom */
		const size_t stride = t->stride ? t->stride : BH_STRIDE;
		const size_t head = t->stride == BH_STRIDE_PAGE ? BH_PAGE_HEADROOM : 0u;
		if (stride < head + BH_STRIDE || stride % 64u)
			goto fail;
		const size_t align = t->huge ? 2u << 20 : stride == BH_STRIDE_PAGE ? 4096u : 64u;
		const size_t bytes = ((size_t)n * stride + align - 1) / align * align;
		r->mem = aligned_alloc(align, bytes);
		if (!r->mem)
			goto fail;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
		if (t->huge)
			(void)madvise(r->mem, bytes, MADV_HUGEPAGE); /* (a hint: 4 KiB pages if refused) */
#endif
		for (i = 0; i < n; i++)
			r->slot[i] = r->mem + (size_t)i * stride + head;
	}
	/* gen_bulk writes one contiguous array; copy it into the slots. */
	tmp = malloc((size_t)n * BH_STRIDE);
	lens = malloc((size_t)n * sizeof(*lens));
	if (!tmp || !lens) {
		free(tmp);
		free(lens);
		goto fail;
	}
	r->mss = t->vxlan ? BH_MSS_VXLAN : BH_MSS;
	if ((t->udp && (t->dsa || t->psh)) || (t->vxlan && (t->dsa || t->udp)) ||
	    gen_bulk_proto(t->l3, t->udp != 0, f, r->nseg, r->mss, tmp, BH_STRIDE, lens) != n ||
	    (t->vxlan && wrap_vxlan(t->l3, f, tmp, lens, n) != 0)) {
		free(tmp);
		free(lens);
		goto fail;
	}
	/* through VXLAN: outer Ethernet, IP, UDP and VXLAN first (50 or 70 bytes) */
	r->l3_off = 14u + (t->vxlan ? (t->l3 == 4 ? 50u : 70u) : 0u);
	r->l4_off = r->l3_off + (t->l3 == 4 ? 20u : 40u);
	r->hdr_len = r->l4_off + (t->udp ? 8 : 20);
	if (r->hdr_len > BH_SAVE) { /* (IPv6 in IPv6 through VXLAN) */
		free(tmp);
		free(lens);
		goto fail;
	}
	for (i = 0; i < n; i++) {
		uint8_t *fr = tmp + (size_t)i * BH_STRIDE;
		if (t->psh) {
			uint8_t *th = fr + r->l4_off;
			uint16_t old = rd16(th + 12);
			th[13] |= GEN_PSH;
			csum_replace16(th + 16, old, rd16(th + 12));
		}
		if (t->dsa && tag_frame(r, t->dsa, fr, &lens[i], i == 0) != 0) {
			free(tmp);
			free(lens);
			goto fail;
		}
		memcpy(r->slot[i] + r->data_off, fr, lens[i]);
		memcpy(r->base + (size_t)i * BH_SAVE, fr, BH_SAVE);
		r->len[i] = lens[i];
		set_bufs(r, i);
	}
	free(tmp);
	free(lens);
	return 0;
fail:
	bh_ring_free(r);
	return -1;
}

void bh_ring_free(struct bh_ring *r)
{
	free(r->slot);
	free(r->len);
	free(r->gen);
	free(r->base);
	free(r->bufs);
	free(r->pkts);
	free(r->mem);
	memset(r, 0, sizeof(*r));
}

void bh_ring_set_csum(struct bh_ring *r, uint8_t csum_status)
{
	unsigned i;
	for (i = 0; i < r->nslots; i++)
		r->pkts[i].csum_status = csum_status;
}

void bh_ring_refill(struct bh_ring *r, unsigned first, unsigned n)
{
	unsigned k;
	for (k = 0; k < n; k++) {
		unsigned i = (first + k) % r->nslots;
		const uint8_t *b = r->base + (size_t)i * BH_SAVE;
		uint8_t *fr = r->slot[i] + r->data_off, *th = fr + r->l4_off;
		uint32_t g = ++r->gen[i];
		uint32_t seq0 = (uint32_t)rd16(b + r->l4_off + 4) << 16 | rd16(b + r->l4_off + 6);
		uint32_t seq = seq0 + g * r->nseg * r->mss;
		memcpy(fr, b, BH_SAVE);
		if (!r->t.udp) { /* a datagram: only the IPv4 ID below moves */
			wr16(th + 4, (uint16_t)(seq >> 16));
			wr16(th + 6, (uint16_t)seq);
			csum_replace16(th + 16, (uint16_t)(seq0 >> 16), (uint16_t)(seq >> 16));
			csum_replace16(th + 16, (uint16_t)seq0, (uint16_t)seq);
		}
		if (r->t.l3 == 4) {
			uint8_t *ip = fr + r->l3_off;
			uint16_t id0 = rd16(ip + 4), id = (uint16_t)(id0 + g * r->nseg);
			wr16(ip + 4, id);
			csum_replace16(ip + 10, id0, id);
		}
	}
}

unsigned bh_ring_recycle(struct bh_ring *r, unsigned keep)
{
	unsigned n;
	if (r->dirty <= keep)
		return 0;
	n = r->dirty - keep;
	bh_ring_refill(r, r->dirty_from, n);
	r->dirty_from = (r->dirty_from + n) % r->nslots;
	r->dirty -= n;
	return n;
}

void bh_sink_deliver(void *user, const struct ofl_gro_out *o, unsigned n)
{
	struct bh_sink *s = user;
	uint64_t segs = 0;
	unsigned i;
	for (i = 0; i < n; i++)
		segs += o[i].seg_count ? o[i].seg_count : 1u;
	s->lists++;
	s->pkts += n;
	s->segs += segs;
}

int bh_gro_start(struct bh_gro_run *g, struct bh_ring *r, const struct bh_gro_opts *o)
{
	struct ofl_gro_config c;
	memset(g, 0, sizeof(*g));
	g->r = r;
	g->o = *o;
	ofl_gro_config_default(&c);
	c.max_flows = o->max_flows ? o->max_flows : (r->t.nflows > 64 ? r->t.nflows : 64);
	if (o->max_segs)
		c.max_segs = o->max_segs;
	c.flush_timeout_ns = o->flush_timeout_ns;
	c.hash_key[0] = 0x0123456789abcdefull;
	c.hash_key[1] = 0xfedcba9876543210ull;
	c.deliver = bh_sink_deliver;
	c.user = &g->sink;
	c.udp = r->t.udp ? 1 : 0;
	if (r->t.vxlan)
		c.vxlan_ports[c.vxlan_nports++] = 4789;
#ifdef OFL_BENCH_HAVE_DSA
	if (r->t.dsa && o->dsa_mode == BH_DSA_THROUGH)
		c.dsa = r->t.dsa;
#endif
	if (r->t.dsa && o->dsa_mode != BH_DSA_THROUGH && o->dsa_mode != BH_DSA_STRIP)
		return OFL_EINVAL;
	/* Packets can stay held for the timeout plus one poll. */
	g->keep = o->flush_timeout_ns ? (unsigned)(o->flush_timeout_ns / BH_DT_NS) + 2 * o->poll : 0;
	if (BH_CHUNK % o->poll || g->keep + BH_CHUNK > r->nslots)
		return OFL_EINVAL;
	bh_ring_set_csum(r, o->csum_status);
	bh_ring_recycle(r, 0);
	g->now = 1000000000ull;
	return ofl_gro_create(&c, &g->gro);
}

#ifdef OFL_BENCH_HAVE_DSA
/* Strip-then-GRO: what a driver without tag-aware GRO does per packet. */
static void strip_poll(struct bh_gro_run *g, unsigned first, unsigned n)
{
	struct bh_ring *r = g->r;
	const struct ofl_dsa_ops *ops = r->t.dsa;
	unsigned k;
	for (k = 0; k < n; k++) {
		unsigned i = first + k;
		uint8_t *p = r->slot[i] + r->data_off;
		struct ofl_dsa_meta m;
		struct ofl_dsa_view v;
		struct ofl_buf b;
		struct ofl_pkt pk = r->pkts[i];
		uint32_t start, len;
		if (ofl_dsa_decode(ops, NULL, OFL_DSA_RX, p, r->len[i], &m, &v) != 0 ||
		    ofl_dsa_strip(p, r->len[i], &v, &start, &len) != 0) {
			start = 0;
			len = r->len[i];
		}
		b.data = p + start;
		b.len = len;
		pk.bufs = &b;
		pk.nbufs = 1;
		ofl_gro_receive(g->gro, &pk, g->now);
	}
}
#endif

static void receive_poll(struct bh_gro_run *g, unsigned first, unsigned n)
{
#ifdef OFL_BENCH_HAVE_DSA
	if (g->o.dsa_mode == BH_DSA_STRIP) {
		strip_poll(g, first, n);
		return;
	}
#endif
	ofl_gro_receive_burst(g->gro, g->r->pkts + first, n, g->now, NULL);
}

void bh_gro_chunk(struct bh_gro_run *g)
{
	struct bh_ring *r = g->r;
	unsigned k, poll = g->o.poll;
	for (k = 0; k < BH_CHUNK; k += poll) {
		receive_poll(g, r->pos, poll);
		g->now += (uint64_t)poll * BH_DT_NS;
		ofl_gro_poll_end(g->gro, poll, g->now, NULL);
		r->pos += poll;
		if (r->pos == r->nslots)
			r->pos = 0;
	}
	r->dirty += BH_CHUNK;
	g->rx += BH_CHUNK;
}

int bh_gro_stop(struct bh_gro_run *g, struct ofl_gro_stats *st)
{
	struct ofl_gro_stats s;
	int ok;
	ofl_gro_flush(g->gro);
	ofl_gro_get_stats(g->gro, &s, sizeof s);
	ok = s.rx_pkts == g->rx && g->sink.segs == g->rx && s.out_segs == g->rx;
	if (st)
		*st = s;
	ofl_gro_destroy(g->gro);
	g->gro = NULL;
	bh_ring_recycle(g->r, 0);
	return ok ? 0 : -1;
}
