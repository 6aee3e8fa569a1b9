/*
 * engine.c - the GRO context: receive, hold, merge, complete, batched
 * delivery, flushes and the flush timer.  The per-protocol rules live in
 * ipv4.h, ipv6.h and tcp.h; completion in ipv4.c, ipv6.c and tcp.c.
 */
#include <string.h>

#include "core/csum_int.h"
#include "core/entropy.h"
#include "core/mem.h"
#include "gro/gro_int.h"
#include "gro/ipv4.h"
#include "gro/ipv6.h"
#include "gro/tcp.h"

#include <ofl/csum.h>

int ofl_gro_config_default(struct ofl_gro_config *cfg)
{
	if (!cfg)
		return OFL_EINVAL;
	memset(cfg, 0, sizeof(*cfg));
	cfg->version = OFL_GRO_CONFIG_VERSION;
	cfg->max_flows = 64;
	cfg->max_held_bytes = 4u << 20;
	cfg->max_size = 65535;
	cfg->max_segs = 128;
	cfg->max_bufs = 17;
	cfg->normal_batch = 8;
	ofl_dsa_params_default(&cfg->dsa_params);
	return 0;
}

/* What the DSA tag of the frame in hand said (GRO through the tag). */
struct rx_tag {
	int has;
	struct ofl_dsa_meta meta;
	struct ofl_dsa_view view;
};

/* ---- entry lists -------------------------------------------------------- */

static uint32_t item_alloc(struct ofl_gro *g)
{
	uint32_t i = g->free_head;
	/* The pool is sized so this never fails: max_flows held plus at most
	 * normal_batch pending, plus one. */
	g->free_head = g->items[i].next;
	return i;
}

static void age_unlink(struct ofl_gro *g, struct gro_item *it)
{
	if (it->prev != GRO_NONE)
		g->items[it->prev].next = it->next;
	else
		g->age_head = it->next;
	if (it->next != GRO_NONE)
		g->items[it->next].prev = it->prev;
	else
		g->age_tail = it->prev;
}

static void fill_out(struct ofl_gro *g, uint32_t idx, struct ofl_gro_out *o)
{
	/* every field assigned: no memset of the whole struct per packet */
	struct gro_item *it = &g->items[idx];
	int gro = it->nsegs != 0, merged = it->nsegs > 1;
	int partial = merged && !it->csum_done;
	o->slices = gro_slices(g, idx);
	o->nslices = it->nslices;
	o->cookies = gro_cookies(g, idx);
	o->ncookies = gro ? it->nsegs : 1u;
	o->vlan_tci = it->vlan_tci;
	o->rx_hash = it->rx_hash;
	o->first_ns = it->first_ns;
	o->dsa = it->has_meta ? &it->meta : NULL;
	o->hdr = it->hdr_len ? it->hdr : NULL;
	o->hdr_len = it->hdr_len;
	o->seg_count = it->nsegs;
	o->seg_size = gro ? it->seg_size : 0;
	o->len = gro ? it->hdr_len + it->payload + it->tail_len : it->frame_len;
	o->l3_off = gro ? it->l3_off : 0;
	o->l4_off = gro ? it->l4_off : 0;
	o->flags = (uint8_t)(it->out_flags | (partial ? OFL_GRO_OUT_F_CSUM_PARTIAL : 0));
	o->csum_start = partial ? it->l4_off : 0;
	o->csum_offset = partial ? 16 : 0;
	o->gso_type = merged ? (uint8_t)((it->l3 == 4 ? OFL_GSO_TCPV4 : OFL_GSO_TCPV6) |
	                                 (it->l3 == 4 && it->fixedid ? OFL_GSO_TCP_FIXEDID : 0) |
	                                 (it->cwr ? OFL_GSO_TCP_ECN : 0))
	                     : 0;
}

/* Hand the delivery list to the caller and recycle its entries. */
static void deliver_pending(struct ofl_gro *g)
{
	uint32_t i, n = 0, segs = 0;
	if (g->pend_head == GRO_NONE)
		return;
	for (i = g->pend_head; i != GRO_NONE; i = g->items[i].next) {
		fill_out(g, i, &g->outs[n]);
		segs += g->items[i].nsegs ? g->items[i].nsegs : 1u;
		if (g->items[i].nsegs)
			g->st.out_gro_pkts++;
		n++;
	}
	g->st.out_pkts += n;
	g->st.out_segs += segs;
	g->st.out_lists++;
	g->in_cb = 1;
	g->cfg.deliver(g->cfg.user, g->outs, n);
	g->in_cb = 0;
	for (i = g->pend_head; i != GRO_NONE;) {
		uint32_t nx = g->items[i].next;
		g->items[i].state = GRO_FREE;
		g->items[i].next = g->free_head;
		g->free_head = i;
		i = nx;
	}
	g->pend_head = g->pend_tail = GRO_NONE;
	g->pend_segs = g->pend_n = 0;
}

/* Append to the delivery list; a list of normal_batch segments goes out. */
static void pend_push(struct ofl_gro *g, uint32_t idx)
{
	struct gro_item *it = &g->items[idx];
	it->state = GRO_PENDING;
	it->next = GRO_NONE;
	if (g->pend_tail == GRO_NONE)
		g->pend_head = idx;
	else
		g->items[g->pend_tail].next = idx;
	g->pend_tail = idx;
	g->pend_n++;
	g->pend_segs += it->nsegs ? it->nsegs : 1u;
	if (g->pend_segs >= g->cfg.normal_batch)
		deliver_pending(g);
}

/* Keep-tag mode with a tail tag: the tag follows the payload, so a checksum
 * "from csum_start to the end" would cover it.  Finish the TCP checksum here
 * instead (as Linux finishes it before a tail tagger runs). */
static void finish_csum(struct ofl_gro *g, uint32_t idx)
{
	struct gro_item *it = &g->items[idx];
	const struct ofl_slice *sl = gro_slices(g, idx);
	uint32_t s = ofl_csum_partial(it->hdr + it->l4_off, (size_t)(it->hdr_len - it->l4_off), 0);
	uint32_t done = it->hdr_len - it->l4_off, i;
	uint16_t c;
	for (i = 0; i < it->nslices; i++) {
		s = ofl_csum_add_at(s, ofl_csum_partial(sl[i].data, sl[i].len, 0), (int)(done & 1));
		done += sl[i].len;
	}
	c = ofl_csum_fold(s);
	memcpy(it->hdr + it->l4_off + 16, &c, 2);
	it->csum_done = 1;
}

/* Complete a held entry: rewrite its header and queue it for delivery. */
static inline void complete_x(struct ofl_gro *g, uint32_t idx, unsigned reason, int in_table)
{
	struct gro_item *it = &g->items[idx];
	if (in_table)
		ofl_flowtab_remove(&g->tab, it->hash, idx);
	age_unlink(g, it);
	g->held_bytes -= it->payload;
	g->st.flush[reason]++;
	if (g->last == idx)
		g->last = GRO_NONE;
	if (it->nsegs > 1) {
		if (it->l3 == 4)
			gro_ipv4_complete(it);
		else
			gro_ipv6_complete(it);
		gro_tcp_complete(it);
		if (it->tail_len)
			finish_csum(g, idx);
	}
	if (it->tail_len) {
		/* keep-tag mode with a tail tag: the first segment's tag ends it */
		struct ofl_slice *sl = &gro_slices(g, idx)[it->nslices++];
		sl->data = it->tailbuf;
		sl->len = it->tail_len;
		sl->pkt = 0;
		sl->buf = 0xffff;
	}
	pend_push(g, idx);
}

static OFL_NOINLINE void complete(struct ofl_gro *g, uint32_t idx, unsigned reason)
{
	complete_x(g, idx, reason, 1);
}

static void flush_all(struct ofl_gro *g, unsigned reason)
{
	int in_table = 1;
	/* every entry leaves the table: clearing it at once beats a removal
	 * per entry once it is an eighth full */
	if (g->tab.count && (uint64_t)g->tab.count * 8u >= (uint64_t)g->tab.mask + 1u) {
		ofl_flowtab_clear(&g->tab);
		in_table = 0;
	}
	while (g->age_head != GRO_NONE)
		complete_x(g, g->age_head, reason, in_table);
	deliver_pending(g);
}

/* ---- create / destroy --------------------------------------------------- */

/* Header prediction's masks: which bytes of a plain Ethernet + IPv4/IPv6 +
 * TCP header the next segment must repeat.  Not compared: the IP length,
 * ID and header checksum (IPv4) or payload length (IPv6), the TCP sequence
 * number, FIN and PSH, the TCP checksum and urgent pointer. */
#define PRED_FLAGS ((uint8_t)~(TCP_FIN | TCP_PSH))
static void pred_masks(struct ofl_gro *g)
{
	static const struct {
		uint8_t l3, off, len, val;
	} holes[] = {
		{4, 16, 4, 0},    {4, 24, 2, 0},    {4, 38, 4, 0},
		{4, 47, 1, PRED_FLAGS}, {4, 50, 4, 0},    {6, 18, 2, 0},
		{6, 58, 4, 0},    {6, 67, 1, PRED_FLAGS}, {6, 70, 4, 0},
	};
	unsigned i;
	memset(g->pmask, 0xff, sizeof(g->pmask));
	for (i = 0; i < sizeof(holes) / sizeof(holes[0]); i++)
		memset(&g->pmask[holes[i].l3 == 6][holes[i].off], holes[i].val, holes[i].len);
}

/* The flow-hash key: the configured one, else 16 random bytes from the
 * system (core/entropy.c; none in a freestanding build).  0 or -1. */
static int derive_key(const struct ofl_gro_config *cfg, uint64_t key[2])
{
	if (cfg->hash_key[0] || cfg->hash_key[1]) {
		key[0] = cfg->hash_key[0];
		key[1] = cfg->hash_key[1];
		return 0;
	}
	return ofl_entropy(key, 2 * sizeof(uint64_t));
}

int ofl_gro_create(const struct ofl_gro_config *cfg, struct ofl_gro **out)
{
	struct ofl_gro *g;
	uint32_t nslots, i, nitems, max_slices;
	size_t sz_items, sz_slices, sz_cookies, sz_outs, sz_tab;
	uint64_t key[2];
	if (!cfg || !out || !cfg->deliver || cfg->version != OFL_GRO_CONFIG_VERSION ||
	    cfg->max_flows == 0 || cfg->max_flows > (1u << 24) || cfg->max_segs == 0 ||
	    cfg->max_bufs == 0 || cfg->normal_batch == 0 || cfg->max_size < 1280 ||
	    cfg->max_size > OFL_GRO_MAX_SIZE_LIMIT || cfg->max_held_bytes == 0)
		return OFL_EINVAL;
	if (cfg->mem && (!cfg->mem->alloc || !cfg->mem->free))
		return OFL_EINVAL;
	if (cfg->dsa && (cfg->dsa_keep_tag > 1 || cfg->dsa->rx_tail > sizeof(((struct gro_item *)0)->tailbuf)))
		return OFL_EINVAL;
	if (derive_key(cfg, key) != 0)
		return OFL_EINVAL; /* no key configured and none from the system */
	*out = NULL;
	nitems = cfg->max_flows + cfg->normal_batch + 1u;
	max_slices = 2u * cfg->max_segs + cfg->max_bufs + 1u; /* + a tail tag */
	sz_items = ofl_mul_size(nitems, sizeof(struct gro_item));
	sz_slices = ofl_mul_size(ofl_mul_size(nitems, max_slices), sizeof(struct ofl_slice));
	sz_cookies = ofl_mul_size(ofl_mul_size(nitems, cfg->max_segs), sizeof(void *));
	sz_outs = ofl_mul_size(cfg->normal_batch + 1u, sizeof(struct ofl_gro_out));
	sz_tab = ofl_flowtab_size(cfg->max_flows, &nslots);
	g = ofl_mem_zalloc(cfg->mem, sizeof(*g), 64);
	if (!g)
		return OFL_ENOMEM;
	g->cfg = *cfg;
	g->alloc_size = sizeof(*g);
	g->items = ofl_mem_zalloc(cfg->mem, sz_items, 64);
	g->slices = ofl_mem_zalloc(cfg->mem, sz_slices, 64);
	g->cookies = ofl_mem_zalloc(cfg->mem, sz_cookies, 64);
	g->outs = ofl_mem_zalloc(cfg->mem, sz_outs, 64);
	g->tab_mem = ofl_mem_zalloc(cfg->mem, sz_tab, 64);
	g->tab_size = sz_tab;
	if (!g->items || !g->slices || !g->cookies || !g->outs || !g->tab_mem) {
		ofl_mem_free(cfg->mem, g->items, sz_items);
		ofl_mem_free(cfg->mem, g->slices, sz_slices);
		ofl_mem_free(cfg->mem, g->cookies, sz_cookies);
		ofl_mem_free(cfg->mem, g->outs, sz_outs);
		ofl_mem_free(cfg->mem, g->tab_mem, sz_tab);
		ofl_mem_free(cfg->mem, g, sizeof(*g));
		return OFL_ENOMEM;
	}
	g->nitems = nitems;
	g->max_slices = max_slices;
	for (i = 0; i < nitems; i++)
		g->items[i].next = i + 1 < nitems ? i + 1 : GRO_NONE;
	g->free_head = 0;
	g->age_head = g->age_tail = g->pend_head = g->pend_tail = g->last = GRO_NONE;
	ofl_flowtab_init(&g->tab, g->tab_mem, nslots, key);
	pred_masks(g);
	for (i = 0; i < GRO_RCACHE; i++)
		g->rcache[i] = GRO_NONE;
	*out = g;
	return 0;
}

void ofl_gro_destroy(struct ofl_gro *g)
{
	const struct ofl_mem *mem;
	size_t nitems;
	if (!g || g->in_cb)
		return;
	flush_all(g, OFL_GRO_FLUSH_EXPLICIT);
	mem = g->cfg.mem;
	nitems = g->nitems;
	ofl_mem_free(mem, g->items, nitems * sizeof(struct gro_item));
	ofl_mem_free(mem, g->slices, nitems * g->max_slices * sizeof(struct ofl_slice));
	ofl_mem_free(mem, g->cookies, nitems * g->cfg.max_segs * sizeof(void *));
	ofl_mem_free(mem, g->outs, (g->cfg.normal_batch + 1u) * sizeof(struct ofl_gro_out));
	ofl_mem_free(mem, g->tab_mem, g->tab_size);
	ofl_mem_free(mem, g, sizeof(*g));
}

/* ---- receive ------------------------------------------------------------ */

static const struct ofl_flow_key *key_of(void *ctx, uint32_t v)
{
	return &((struct ofl_gro *)ctx)->items[v].key;
}

static inline uint64_t ld64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}
static inline uint32_t ld32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* The recent-flows cache: a slot per frame from bytes 26-37 (IPv4
 * addresses and ports, part of IPv6 addresses), naming the entry last held
 * or merged for them.  Only a hint: try_predict() checks the entry is held
 * and compares the whole header. */
static inline uint32_t rcache_slot(const uint8_t *p)
{
	uint32_t x = ld32(p + 26) ^ ld32(p + 30) ^ ld32(p + 34);
	return (x * 0x9e3779b1u) >> (32 - GRO_RCACHE_BITS);
}

/* A cache value: the entry and the frame's bytes 34-37 (IPv4 ports), so
 * that most misses are seen without touching the entry. */
static inline uint64_t rcache_val(const uint8_t *p, uint32_t idx)
{
	return (uint64_t)ld32(p + 34) << 32 | idx;
}

/* Build the flow key in registers (see flowtab.h for the packing). */
static void build_key(const struct ofl_pkt *pkt, const uint8_t *mac, const uint8_t *p,
                      const struct ofl_hdrs *h, const struct rx_tag *tag, struct ofl_flow_key *k)
{
	const uint8_t *ip = p + h->l3_off;
	uint64_t l2 = (uint64_t)h->nvlan << 1 | (uint64_t)(h->vlan_tpid[0] == 0x88a8) << 3 |
	              (uint64_t)(h->vlan_tpid[1] == 0x88a8) << 4;
	uint64_t hwv = 0;
	if (pkt->flags & OFL_PKT_F_VLAN) {
		hwv = pkt->vlan_tci;
		l2 |= 1;
	}
	k->w[0] = ld64(mac);
	k->w[1] = ld32(mac + 8) | hwv << 32 | l2 << 48 | (uint64_t)h->l3 << 56;
	k->w[2] = (uint64_t)h->vlan_tci[0] | (uint64_t)h->vlan_tci[1] << 16 |
	          (uint64_t)ld32(p + h->l4_off) << 32;
	k->w[8] = 0;
	if (tag && tag->has) {
		/* switch and port are part of the flow: two ports never merge */
		const struct ofl_dsa_meta *m = &tag->meta;
		uint32_t valid = m->valid & (OFL_DSA_M_PORT | OFL_DSA_M_SWITCH | OFL_DSA_M_VLAN);
		k->w[8] = 1ull << 63 | (uint64_t)valid << 40 |
		          (uint64_t)(valid & OFL_DSA_M_VLAN ? m->vlan_tci : 0) << 16 |
		          (uint64_t)(valid & OFL_DSA_M_SWITCH ? m->switch_id : 0) << 8 |
		          (valid & OFL_DSA_M_PORT ? m->port : 0);
	}
	if (h->l3 == 4) {
		k->w[3] = ld64(ip + 12);
		k->w[4] = k->w[5] = k->w[6] = k->w[7] = 0;
	} else {
		uint64_t ext = 0;
		k->w[3] = ld64(ip + 8);
		k->w[4] = ld64(ip + 16);
		k->w[5] = ld64(ip + 24);
		k->w[6] = ld64(ip + 32);
		if (h->ip6_ext_len)
			ext = (uint32_t)h->ip6_ext_len << 16 ^ ofl_csum_partial(ip + 40, h->ip6_ext_len, 0);
		k->w[7] = (ofl_get32(ip) & 0xf00fffffu) | ext << 32;
	}
}

/* Lookup when the key's hash is known already. */
static uint32_t lookup_hashed(struct ofl_gro *g, const struct ofl_flow_key *k, uint32_t hash)
{
	if (g->last != GRO_NONE && g->items[g->last].hash == hash &&
	    ofl_flow_key_eq(&g->items[g->last].key, k))
		return g->last;
	g->st.lookups++;
	return ofl_flowtab_find(&g->tab, hash, k, key_of, g, &g->st.lookup_probes);
}

static uint32_t lookup(struct ofl_gro *g, const struct ofl_flow_key *k, uint32_t *hash)
{
	if (g->last != GRO_NONE && ofl_flow_key_eq(&g->items[g->last].key, k)) {
		*hash = g->items[g->last].hash;
		return g->last;
	}
	*hash = ofl_flow_hash(&g->tab, k);
	g->st.lookups++;
	return ofl_flowtab_find(&g->tab, *hash, k, key_of, g, &g->st.lookup_probes);
}

/* The pieces of the bytes [off, off + len) of a packet's buffers: written to
 * out (at most cap of them) when out is not NULL; returns how many there
 * are, or UINT32_MAX when they do not fit in cap. */
static uint32_t slices_of(const struct ofl_pkt *pkt, uint32_t off, uint32_t len, uint16_t seg,
                          struct ofl_slice *out, uint32_t cap)
{
	uint32_t n = 0;
	unsigned b;
	for (b = 0; b < pkt->nbufs && len; b++) {
		uint32_t bl = pkt->bufs[b].len, take;
		if (off >= bl) {
			off -= bl;
			continue;
		}
		take = bl - off < len ? bl - off : len;
		if (out) {
			if (n == cap)
				return UINT32_MAX;
			out[n].data = pkt->bufs[b].data + off;
			out[n].len = take;
			out[n].pkt = seg;
			out[n].buf = (uint16_t)b;
		}
		n++;
		len -= take;
		off = 0;
	}
	return n;
}

/* Record the payload bytes [off, off + len) of the packet as slices of the
 * entry (the caller checked there is room: count_slices()). */
static int add_slices(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint32_t off,
                      uint32_t len, uint16_t seg)
{
	struct gro_item *it = &g->items[idx];
	uint32_t n = slices_of(pkt, off, len, seg, gro_slices(g, idx) + it->nslices,
	                       g->max_slices - it->nslices);
	if (n == UINT32_MAX)
		return -1;
	it->nslices = (uint16_t)(it->nslices + n);
	return 0;
}

/* Count of payload slices a packet needs (the buffers it spans). */
static uint32_t count_slices(const struct ofl_pkt *pkt, uint32_t off, uint32_t len)
{
	if (pkt->nbufs == 1)
		return len ? 1 : 0;
	return slices_of(pkt, off, len, 0, NULL, 0);
}

static uint8_t pkt_out_flags(const struct ofl_pkt *pkt)
{
	return (uint8_t)((pkt->flags & OFL_PKT_F_VLAN ? OFL_GRO_OUT_F_VLAN : 0) |
	                 (pkt->flags & OFL_PKT_F_HASH ? OFL_GRO_OUT_F_HASH : 0));
}

/* Queue a frame GRO does not take.  Untouched, except that with a DSA
 * format in untagged mode a frame with a valid tag is described untagged:
 * its 12-16 MAC/VLAN bytes in hdr, the rest as slices of its buffers. */
static int pass_normal(struct ofl_gro *g, const struct ofl_pkt *pkt, uint32_t total,
                       unsigned why, uint64_t now, const struct rx_tag *tag)
{
	uint32_t idx = item_alloc(g);
	struct gro_item *it = &g->items[idx];
	struct ofl_slice *s = gro_slices(g, idx);
	unsigned b;
	it->nsegs = 0;
	it->hdr_len = 0;
	it->tail_len = 0;
	it->out_flags = (uint8_t)((pkt->csum_status == OFL_CSUM_UNNECESSARY ? OFL_GRO_OUT_F_CSUM_VERIFIED : 0) |
	                          pkt_out_flags(pkt));
	it->vlan_tci = pkt->vlan_tci;
	it->rx_hash = pkt->rx_hash;
	it->first_ns = now;
	it->has_meta = tag && tag->has;
	if (it->has_meta)
		it->meta = tag->meta;
	gro_cookies(g, idx)[0] = pkt->cookie;
	g->st.normal++;
	g->st.normal_why[why]++;
	if (it->has_meta && !g->cfg.dsa_keep_tag) {
		const struct ofl_dsa_view *dv = &tag->view;
		memcpy(it->hdr, dv->hdr, dv->hdr_len);
		it->hdr_len = (uint16_t)dv->hdr_len;
		it->frame_len = dv->hdr_len + dv->rest_len;
		it->nslices = 0;
		add_slices(g, idx, pkt, dv->rest_off, dv->rest_len, 0);
		pend_push(g, idx);
		return OFL_GRO_NORMAL;
	}
	it->frame_len = total;
	it->nslices = pkt->nbufs;
	for (b = 0; b < pkt->nbufs; b++) {
		s[b].data = pkt->bufs[b].data;
		s[b].len = pkt->bufs[b].len;
		s[b].pkt = 0;
		s[b].buf = (uint16_t)b;
	}
	pend_push(g, idx);
	return OFL_GRO_NORMAL;
}

/* Make room for a new entry: the table holds max_flows and max_held_bytes. */
static void make_room(struct ofl_gro *g, uint32_t payload)
{
	while (g->age_head != GRO_NONE &&
	       (g->tab.count >= g->cfg.max_flows || g->held_bytes + payload > g->cfg.max_held_bytes))
		complete(g, g->age_head, OFL_GRO_FLUSH_TABLE_FULL);
}

/* Where the header copy of an entry starts, relative to the frame: the
 * frame itself, or (untagged mode) the untagged frame. */
static int32_t hdr_shift(const struct ofl_gro *g, const struct ofl_hdrs *h, const struct rx_tag *tag)
{
	if (!tag->has || g->cfg.dsa_keep_tag)
		return 0;
	return (int32_t)h->et_off - (int32_t)tag->view.hdr_len;
}

/* The end of holding a new entry: what comes from the packet, the age
 * list (newest at the tail), the table. */
static inline int hold_link(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint32_t hash,
                            uint32_t len, uint64_t now)
{
	struct gro_item *it = &g->items[idx];
	it->out_flags = (uint8_t)(OFL_GRO_OUT_F_CSUM_VERIFIED | pkt_out_flags(pkt));
	it->vlan_tci = pkt->vlan_tci;
	it->rx_hash = pkt->rx_hash;
	it->first_ns = now;
	it->state = GRO_HELD;
	gro_cookies(g, idx)[0] = pkt->cookie;
	it->next = GRO_NONE;
	it->prev = g->age_tail;
	if (g->age_tail == GRO_NONE)
		g->age_head = idx;
	else
		g->items[g->age_tail].next = idx;
	g->age_tail = idx;
	ofl_flowtab_insert(&g->tab, hash, idx);
	g->held_bytes += len;
	g->last = idx;
	g->st.held++;
	return OFL_GRO_HELD;
}

static int hold_new(struct ofl_gro *g, const struct ofl_pkt *pkt, const struct ofl_view *v,
                    const struct ofl_hdrs *h, const struct rx_tag *tag,
                    const struct ofl_flow_key *k, uint32_t hash, uint64_t now)
{
	uint32_t idx;
	struct gro_item *it;
	const uint8_t *th = v->p + h->l4_off;
	int32_t sh = hdr_shift(g, h, tag);
	make_room(g, h->payload_len);
	idx = item_alloc(g);
	it = &g->items[idx];
	it->key = *k;
	it->hash = hash;
	it->l3 = h->l3;
	it->hdr_len = (uint16_t)(h->hdr_len - sh);
	it->l3_off = (uint16_t)(h->l3_off - sh);
	it->l4_off = (uint16_t)(h->l4_off - sh);
	if (sh || (tag->has && !g->cfg.dsa_keep_tag)) {
		uint32_t mh = tag->view.hdr_len;
		memcpy(it->hdr, tag->view.hdr, mh);
		memcpy(it->hdr + mh, v->p + h->et_off, h->hdr_len - h->et_off);
	} else {
		memcpy(it->hdr, v->p, h->hdr_len);
	}
	it->tail_len = 0;
	it->csum_done = 0;
	if (tag->has && g->cfg.dsa_keep_tag && tag->view.tail_len) {
		it->tail_len = (uint8_t)tag->view.tail_len;
		/* the tail tag follows the untagged frame's content */
		ofl_bufs_copy(pkt->bufs, pkt->nbufs, h->frame_len, it->tail_len, it->tailbuf);
	}
	it->has_meta = (uint8_t)tag->has;
	if (tag->has)
		it->meta = tag->meta;
	it->fast = (uint8_t)(!(pkt->flags & OFL_PKT_F_VLAN) && it->l3_off == 14 && h->ip6_ext_len == 0 &&
	                     it->hdr_len <= GRO_PRED_MAX && it->l4_off == (h->l3 == 4 ? 34u : 54u));
	it->rawpre_len = it->rawtail_len = 0;
	if (tag->has) {
		/* behind a tag: predicted when the next frame repeats the
		 * first one's bytes up to the EtherType and its tail tag
		 * (one buffer, untagged mode, MACs as in the frame) */
		const struct ofl_dsa_view *dv = &tag->view;
		if (!g->cfg.dsa_keep_tag && pkt->nbufs == 1 && dv->ins_len == 0 && !dv->mac_patched &&
		    dv->rest_off >= 12 && dv->rest_off <= GRO_RAWPRE_MAX && dv->tail_len <= GRO_RAWTAIL_MAX &&
		    dv->hdr_len == 12) {
			const uint8_t *tail = v->p + (pkt->bufs[0].len - dv->tail_len);
			unsigned t;
			it->rawpre_len = (uint8_t)dv->rest_off;
			/* a fixed-size copy (the headers after rawpre_len make the
			 * frame longer than GRO_RAWPRE_MAX): a variable one
			 * compiles to "rep movsb" */
			_Static_assert(GRO_RAWPRE_MAX == 48, "the frame holds a plain header: 54 bytes");
			memcpy(it->rawpre, v->p, 16);
			memcpy(it->rawpre + 16, v->p + 16, 16);
			memcpy(it->rawpre + 32, v->p + 32, 16);
			it->rawtail_len = (uint8_t)dv->tail_len;
			for (t = 0; t < dv->tail_len; t++)
				it->rawtail[t] = tail[t];
		} else {
			it->fast = 0;
		}
	}
	it->seg_size = (uint16_t)(h->payload_len > 0xffffu ? 0xffffu : h->payload_len);
	it->nsegs = 1;
	it->nslices = 0;
	it->payload = h->payload_len;
	it->l3_len = h->l3_end - h->l3_off;
	it->next_seq = ofl_get32(th + 4) + h->payload_len;
	it->id0 = h->l3 == 4 ? ofl_get16(v->p + h->l3_off + 4) : 0;
	it->fixedid = 0;
	it->fin_psh = 0;
	it->cwr = (th[13] & TCP_CWR) != 0;
	if (pkt->nbufs == 1 && h->payload_len) {
		struct ofl_slice *sl = gro_slices(g, idx);
		*sl = (struct ofl_slice){pkt->bufs[0].data + h->hdr_len, h->payload_len, 0, 0};
		it->nslices = 1;
	} else {
		add_slices(g, idx, pkt, h->hdr_len, h->payload_len, 0);
	}
	if (v->len >= 38)
		g->rcache[rcache_slot(v->p)] = rcache_val(v->p, idx);
	return hold_link(g, idx, pkt, hash, h->payload_len, now);
}

/* Copy a plain header (n >= 54 bytes) in 16-byte pieces, the last one
 * overlapping: a variable-length memcpy() of 54-128 bytes becomes
 * "rep movs" here, whose start-up costs more than the copy. */
static inline void copy_hdr(uint8_t *dst, const uint8_t *src, uint32_t n)
{
	uint32_t o;
	memcpy(dst, src, 16);
	memcpy(dst + 16, src + 16, 16);
	memcpy(dst + 32, src + 32, 16);
	for (o = 48; o + 16 < n; o += 16)
		memcpy(dst + o, src + o, 16);
	memcpy(dst + n - 16, src + n - 16, 16);
}

/* Hold a new flow of the plain shape (ofl_parse_plain() filled h; the
 * headers are in the first buffer): hold_new() without the tag cases. */
static int hold_plain(struct ofl_gro *g, const struct ofl_pkt *pkt, const uint8_t *p,
                      const struct ofl_hdrs *h, const struct ofl_flow_key *k, uint32_t hash, uint64_t now)
{
	const uint8_t *th = p + h->l4_off;
	uint32_t idx, len = h->payload_len, hl = h->hdr_len;
	struct gro_item *it;
	struct ofl_slice *sl;
	if (g->tab.count >= g->cfg.max_flows)
		make_room(g, len);
	idx = item_alloc(g);
	it = &g->items[idx];
	copy_hdr(it->hdr, p, hl);
	ofl_flow_key_copy(&it->key, k);
	it->hash = hash;
	it->l3 = h->l3;
	it->hdr_len = (uint16_t)hl;
	it->l3_off = 14;
	it->l4_off = h->l4_off;
	it->tail_len = 0;
	it->csum_done = 0;
	it->has_meta = 0;
	it->fast = (uint8_t)(hl <= GRO_PRED_MAX);
	it->rawpre_len = it->rawtail_len = 0;
	it->seg_size = (uint16_t)len; /* the frame is at most 0xffff bytes */
	it->nsegs = 1;
	it->payload = len;
	it->l3_len = h->l3_end - 14;
	it->next_seq = ofl_get32(th + 4) + len;
	it->id0 = h->l3 == 4 ? ofl_get16(p + 18) : 0;
	it->fixedid = 0;
	it->fin_psh = 0;
	it->cwr = (th[13] & TCP_CWR) != 0;
	if (pkt->nbufs == 1) {
		sl = gro_slices(g, idx);
		sl->data = p + hl;
		sl->len = len;
		sl->pkt = 0;
		sl->buf = 0;
		it->nslices = 1;
	} else {
		it->nslices = 0;
		add_slices(g, idx, pkt, hl, len, 0);
	}
	g->rcache[rcache_slot(p)] = rcache_val(p, idx);
	return hold_link(g, idx, pkt, hash, len, now);
}

static unsigned first_reason(uint32_t nm)
{
	return (unsigned)__builtin_ctz(nm);
}

static inline int check_args(struct ofl_gro *g, const struct ofl_pkt *pkt)
{
	unsigned b;
	if (pkt && pkt->nbufs == 1 && pkt->bufs && (pkt->bufs[0].data || !pkt->bufs[0].len) && !g->in_cb)
		return 0; /* the common case */
	if (!pkt || !pkt->bufs || pkt->nbufs == 0)
		return OFL_EINVAL;
	if (g->in_cb)
		return OFL_ESTATE;
	if (pkt->nbufs > g->cfg.max_bufs)
		return OFL_E2BIG;
	for (b = 0; b < pkt->nbufs; b++)
		if (!pkt->bufs[b].data && pkt->bufs[b].len)
			return OFL_EINVAL;
	return 0;
}

/* Decode the frame's DSA tag once.  Returns -1 when the frame was passed on
 * (no valid tag, or a switch control frame). */
static int decode_tag(struct ofl_gro *g, const struct ofl_pkt *pkt, uint32_t total,
                      struct rx_tag *tag, uint64_t now)
{
	int r;
	if (pkt->nbufs == 1)
		r = ofl_dsa_decode(g->cfg.dsa, &g->cfg.dsa_params, OFL_DSA_RX, pkt->bufs[0].data,
		                   pkt->bufs[0].len, &tag->meta, &tag->view);
	else
		r = ofl_dsa_decode_bufs(g->cfg.dsa, &g->cfg.dsa_params, OFL_DSA_RX, pkt->bufs,
		                        pkt->nbufs, &tag->meta, &tag->view);
	if (r != 0) {
		tag->has = 0;
		pass_normal(g, pkt, total, OFL_GRO_NORMAL_BAD_TAG, now, NULL);
		return -1;
	}
	tag->has = 1;
	if (tag->meta.flags & OFL_DSA_MF_CONTROL) {
		pass_normal(g, pkt, total, OFL_GRO_NORMAL_DSA_CONTROL, now, tag);
		return -1;
	}
	return 0;
}

/* The segment just merged ends its train: complete the entry. */
static OFL_NOINLINE void end_train(struct ofl_gro *g, uint32_t idx, uint8_t flags)
{
	if (flags & TCP_PSH)
		complete(g, idx, OFL_GRO_FLUSH_PSH);
	else if (flags & (TCP_FIN | TCP_URG | TCP_RST | TCP_SYN))
		complete(g, idx, OFL_GRO_FLUSH_FIN_URG_RST_SYN);
	else
		complete(g, idx, OFL_GRO_FLUSH_SHORT);
}

/* Account a merged segment whose slices are recorded, and end the train
 * on a short segment or PSH/FIN/URG/RST/SYN (tcp_gro_receive's final check). */
static inline int merge_tail(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, uint32_t len,
                             uint8_t flags)
{
	struct gro_item *it = &g->items[idx];
	gro_cookies(g, idx)[it->nsegs] = pkt->cookie;
	it->nsegs++;
	it->payload += len;
	it->l3_len += len;
	it->next_seq += len;
	it->fin_psh |= flags & (TCP_FIN | TCP_PSH);
	g->held_bytes += len;
	g->last = idx;
	g->st.merged++;
	if ((flags & (TCP_PSH | TCP_FIN | TCP_URG | TCP_RST | TCP_SYN)) || len < it->seg_size)
		end_train(g, idx, flags);
	return OFL_GRO_MERGED;
}

static inline uint16_t ld16(const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return v;
}

/* Non-zero when the header bytes [from, hl) at p differ from the held
 * header h0 where the mask m says they must be equal: 16-byte blocks, the
 * last 16 bytes overlapping (a plain header is at least 54 bytes).  from
 * is 0, or 12 behind a DSA tag, whose MACs were compared with the tag (p
 * is then where the untagged frame's bytes would start). */
static inline uint64_t pred_diff(const uint8_t *p, const uint8_t *h0, const uint8_t *m, uint32_t from,
                                 uint32_t hl)
{
	uint32_t o;
#if defined(__GNUC__)
	typedef uint64_t v2 __attribute__((vector_size(16)));
	v2 a, b, c, d = {0, 0};
#define PV(o)                                                                                      \
	(memcpy(&a, p + (o), 16), memcpy(&b, h0 + (o), 16), memcpy(&c, m + (o), 16), d |= (a ^ b) & c)
	/* blocks that fit any plain header (hl >= 54) need no test: two from
	 * byte 12, three from byte 0 (from is a constant at each call) */
	PV(from);
	PV(from + 16);
	if (from == 0)
		PV(32);
	for (o = from == 0 ? 48 : from + 32; o + 16 < hl; o += 16)
		PV(o);
	PV(hl - 16);
#undef PV
	return d[0] | d[1];
#else
	uint64_t d = 0;
#define PW(o) ((ld64(p + (o)) ^ ld64(h0 + (o))) & ld64(m + (o)))
	for (o = from; o + 8 < hl; o += 8)
		d |= PW(o);
	d |= PW(hl - 8);
#undef PW
	return d;
#endif
}

/* Bytes before the untagged frame's EtherType beyond the 12 MAC bytes: the
 * DSA tag's, for an entry predicted behind one (0 otherwise). */
static inline uint32_t tag_pre(const struct gro_item *it)
{
	return it->rawpre_len ? it->rawpre_len - 12u : 0;
}

/* Does the frame (buflen bytes at p) carry the entry's TCP ports where its
 * shape has them?  The cheap first check of header prediction. */
static inline int same_ports_at(const struct gro_item *it, const uint8_t *p, uint32_t buflen)
{
	uint32_t o = tag_pre(it) + it->l4_off;
	return buflen >= o + 4 && ld32(p + o) == ld32(it->hdr + it->l4_off);
}

/* Does the tagged frame p (total bytes, one buffer) repeat the entry's
 * first segment up to the untagged EtherType (tag, MACs) and in its tail
 * tag?  The tag decodes the same then: same port, same metadata. */
static inline int tag_same(const struct gro_item *it, const uint8_t *p, uint32_t total)
{
	uint32_t n = it->rawpre_len, t = it->rawtail_len, o;
	uint64_t d = ld64(p + n - 8) ^ ld64(it->rawpre + n - 8);
	for (o = 0; o + 8 < n; o += 8)
		d |= ld64(p + o) ^ ld64(it->rawpre + o);
	for (o = 0; o < t; o++)
		d |= (uint64_t)(p[total - t + o] ^ it->rawtail[o]);
	return d == 0;
}

static inline uint32_t sat_sub(uint32_t a, uint32_t b)
{
	return a > b ? a - b : 0;
}

/* Header prediction's end for a frame in several buffers (header split):
 * room for its slices, the IP ID rule, then the merge. */
static OFL_NOINLINE int predict_bufs(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt,
                                     const uint8_t *ip, uint32_t len, uint8_t flags)
{
	struct gro_item *it = &g->items[idx];
	uint32_t hl = it->hdr_len;
	if (it->nslices + count_slices(pkt, hl, len) + 1u > g->max_slices ||
	    (it->l3 == 4 && gro_ipv4_id_nomerge(ip, it)))
		return 0;
	add_slices(g, idx, pkt, hl, len, it->nsegs);
	g->st.rx_pkts++;
	g->st.rx_bytes += hl + len;
	g->st.merged_fast++;
	merge_tail(g, idx, pkt, len, flags);
	return 1;
}

/* Header prediction proper: the frame (headers in p, the first buffer)
 * against the held entry idx.  Every header byte the kernel's rules want
 * equal is compared under the context's byte mask for the entry's L3 in
 * 8-byte words (MACs, ethertype, addresses and ports included, so this is
 * also the flow check); the bytes that change per segment (IP length, ID
 * and checksum, TCP sequence, FIN/PSH, checksum, urgent pointer) are
 * checked by their own rules after. */
static inline int predict(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const uint8_t *p,
                          uint32_t total)
{
	struct gro_item *it = &g->items[idx];
	const uint8_t *h0 = it->hdr, *m, *ip, *th;
	uint32_t hl = it->hdr_len, len;
	struct ofl_slice *sl;
	if (!it->fast || pkt->bufs[0].len < hl)
		return 0;
	m = g->pmask[it->l3 == 6];
	if (it->rawpre_len) {
		/* behind a DSA tag: the same tag (and MACs), then the untagged
		 * header from its EtherType on */
		uint32_t pre = tag_pre(it);
		if (pkt->nbufs != 1 || pkt->bufs[0].len < hl + pre ||
		    !tag_same(it, p, total) || pred_diff(p + pre, h0, m, 12, hl))
			return 0;
		p += pre;
		total -= pre + it->rawtail_len;
	} else if (pred_diff(p, h0, m, 0, hl)) {
		return 0;
	}
	ip = p + 14;
	th = p + it->l4_off;
	len = total - hl;
	if (len - 1u >= it->seg_size || ofl_get32(th + 4) != it->next_seq)
		return 0;
	if (it->l3 == 4) {
		if (ofl_get16(ip + 2) != total - 14 || ofl_csum_ip4_fold(ip) != 0xffff)
			return 0;
	} else if (ofl_get16(ip + 4) != total - 54) {
		return 0;
	}
	if (it->l3_len + len > g->cfg.max_size || it->nsegs == g->cfg.max_segs ||
	    g->held_bytes + len > g->cfg.max_held_bytes)
		return 0;
	if (pkt->nbufs != 1)
		return predict_bufs(g, idx, pkt, ip, len, th[13]);
	if (it->nslices + 2u > g->max_slices || (it->l3 == 4 && gro_ipv4_id_nomerge(ip, it)))
		return 0;
	sl = &gro_slices(g, idx)[it->nslices++];
	sl->data = p + hl;
	sl->len = len;
	sl->pkt = it->nsegs;
	sl->buf = 0;
	g->st.rx_pkts++;
	g->st.rx_bytes += pkt->bufs[0].len;
	g->st.merged_fast++;
	merge_tail(g, idx, pkt, len, th[13]);
	return 1;
}

/*
 * The fast path: a frame whose headers are all in its first buffer, with a
 * hardware-verified checksum, that looks like plain Ethernet + IPv4 (no
 * options) or IPv6 (no extension headers) + TCP is first predicted against
 * the entry of the last merge (one flow's train costs no key and no hash);
 * failing that its flow key is built from fixed offsets and looked up, and
 * a held entry of the same plain shape is predicted against.  Anything
 * unexpected returns 0 and the full path decides: this path only ever
 * accepts packets the full path would merge into the same entry (returns 1:
 * OFL_GRO_MERGED).
 */
/* What the fast path learnt of a frame it did not merge, for the full path
 * to reuse: the flow key (built when the frame looked plain), its hash and
 * table lookup (skipped while nothing is held), and the whole parse when
 * the frame is the plain shape (ofl_parse_plain()). */
struct fast_key {
	uint8_t valid;  /* k holds the key build_key() would build */
	uint8_t hashed; /* hash is k's hash */
	uint8_t looked; /* idx is k's entry (or GRO_NONE) in the table */
	uint8_t plain;  /* h holds the parse */
	uint32_t hash, idx;
	struct ofl_flow_key k;
	struct ofl_hdrs h;
};

/* Returns OFL_GRO_MERGED or OFL_GRO_HELD when it took the frame, -1 when
 * the full path decides (with what fk learnt). */
/* The flow key of a frame that looks plain (the words build_key() would
 * write for it); 0 when it does not. */
static inline int plain_key(const uint8_t *p, uint32_t b0, struct ofl_flow_key *k)
{
	const uint8_t *ip = p + 14;
	uint16_t et = ld16(p + 12);
	k->w[0] = ld64(p);
	k->w[8] = 0;
	if (et == ld16((const uint8_t *)"\x08\x00")) {
		if (ip[0] != 0x45)
			return 0;
		k->w[1] = ld32(p + 8) | 4ull << 56;
		k->w[2] = (uint64_t)ld32(p + 34) << 32;
		k->w[3] = ld64(ip + 12);
		k->w[4] = k->w[5] = k->w[6] = k->w[7] = 0;
		return 4;
	}
	if (et == ld16((const uint8_t *)"\x86\xdd") && b0 >= 74 && ip[6] == 6) {
		k->w[1] = ld32(p + 8) | 6ull << 56;
		k->w[2] = (uint64_t)ld32(p + 54) << 32;
		k->w[3] = ld64(ip + 8);
		k->w[4] = ld64(ip + 16);
		k->w[5] = ld64(ip + 24);
		k->w[6] = ld64(ip + 32);
		k->w[7] = ofl_get32(ip) & 0xf00fffffu;
		return 6;
	}
	return 0;
}

static inline int fast_path(struct ofl_gro *g, const struct ofl_pkt *pkt, uint32_t total,
                            struct fast_key *fk, int tried_last, uint64_t now)
{
	struct ofl_flow_key *kp = &fk->k;
	uint32_t idx = GRO_NONE, b0 = pkt->bufs[0].len;
	const uint8_t *p;
	/* the headers must be in the first buffer (one buffer, or header split) */
	if (pkt->csum_status != OFL_CSUM_UNNECESSARY || (pkt->flags & OFL_PKT_F_VLAN) || b0 < 54 ||
	    total > 0xffffu)
		return -1;
	p = pkt->bufs[0].data;
	if (g->tab.count) {
		int l3;
		if (!tried_last && g->last != GRO_NONE && predict(g, g->last, pkt, p, total))
			return OFL_GRO_MERGED;
		l3 = plain_key(p, b0, kp);
		if (!l3)
			return -1;
		/* no compare with the last entry's key first: the packet did
		 * not predict against it, so it is most likely another flow */
		fk->hash = l3 == 4 ? ofl_flow_hash_v4(&g->tab, kp) : ofl_flow_hash(&g->tab, kp);
		g->st.lookups++;
		idx = ofl_flowtab_find(&g->tab, fk->hash, kp, key_of, g, &g->st.lookup_probes);
		fk->valid = fk->hashed = 1;
	}
	/* else nothing is held: no entry to find, and no key or hash unless
	 * the frame is held (PSH-only traffic never builds one) */
	fk->looked = 1;
	fk->idx = idx;
	if (idx != GRO_NONE) {
		if (idx != g->last && predict(g, idx, pkt, p, total))
			return OFL_GRO_MERGED;
		return -1;
	}
	fk->plain = (uint8_t)ofl_parse_plain(p, b0, total, &fk->h);
	if (fk->plain) {
		/* a new flow of the plain shape: held here when the full path
		 * would hold it (payload, no flag that passes it on, within
		 * the byte bound) */
		const struct ofl_hdrs *h = &fk->h;
		uint32_t len = h->payload_len;
		uint8_t flags = p[h->l4_off + 13];
		if (g->held_bytes + len > g->cfg.max_held_bytes)
			return -1; /* the full path makes room first */
		g->st.rx_pkts++;
		g->st.rx_bytes += total;
		if (!len || (flags & (TCP_FIN | TCP_URG | TCP_RST | TCP_SYN | TCP_PSH)))
			/* no held packet of this flow to go first: passed on */
			return pass_normal(g, pkt, total, len ? OFL_GRO_NORMAL_FLAGS : OFL_GRO_NORMAL_NO_PAYLOAD,
			                   now, NULL);
		if (!fk->hashed) {
			plain_key(p, b0, kp); /* a plain frame has one */
			fk->hash = h->l3 == 4 ? ofl_flow_hash_v4(&g->tab, kp) : ofl_flow_hash(&g->tab, kp);
		}
		return hold_plain(g, pkt, p, h, kp, fk->hash, now);
	}
	return -1;
}

/* Offer a frame the caller's arguments were checked for; tried_last: the
 * burst loop predicted it against the last entry already. */
static int receive(struct ofl_gro *g, const struct ofl_pkt *pkt, uint64_t now, int tried_last)
{
	struct ofl_hdrs h;
	struct ofl_view v;
	struct ofl_flow_key k;
	struct rx_tag tag;
	struct fast_key fk;
	uint32_t total, idx, hash = 0, nm = 0, len, et_off = 12, end;
	const uint8_t *th, *mac;
	int csum_status;
	uint8_t flags;
	total = pkt->nbufs == 1 ? pkt->bufs[0].len : ofl_pkt_len(pkt->bufs, pkt->nbufs);
	fk.valid = fk.hashed = fk.looked = fk.plain = 0;
	if (!g->cfg.dsa) {
		int r = fast_path(g, pkt, total, &fk, tried_last, now);
		if (r >= 0)
			return r;
	} else if (!tried_last && g->last != GRO_NONE && pkt->csum_status == OFL_CSUM_UNNECESSARY &&
	           !(pkt->flags & OFL_PKT_F_VLAN) && pkt->nbufs == 1 && total <= 0xffffu &&
	           predict(g, g->last, pkt, pkt->bufs[0].data, total)) {
		return OFL_GRO_MERGED; /* the next segment behind the same tag */
	}
	g->st.rx_pkts++;
	g->st.rx_bytes += total;
	end = total;
	tag.has = 0;
	csum_status = pkt->csum_status;
	if (g->cfg.dsa) {
		if (decode_tag(g, pkt, total, &tag, now) < 0)
			return OFL_GRO_NORMAL;
		et_off = tag.view.rest_off;
		end = tag.view.rest_off + tag.view.rest_len;
		if (csum_status == OFL_CSUM_COMPLETE)
			csum_status = OFL_CSUM_NONE; /* the NIC's sum covered the tag */
	}
	/* Parse over the first buffer; gather a bounded copy of the headers
	 * only when they run past it. */
	v.p = pkt->bufs[0].data;
	v.len = pkt->bufs[0].len;
	if (fk.plain) {
		h = fk.h;
	} else if (tag.has && tag.view.hdr_len == 12 && tag.view.rest_off >= 12 && v.len >= tag.view.rest_off &&
	           ofl_parse_plain_at(v.p + (tag.view.rest_off - 12), v.len - (tag.view.rest_off - 12),
	                              end - (tag.view.rest_off - 12), tag.view.rest_off - 12, &h)) {
		/* behind a tag, a plain untagged frame: the one-pass parse,
		 * offsets from the tagged frame's start */
	} else {
		ofl_parse_at(&v, end, et_off, &h);
		if (h.short_view && pkt->nbufs > 1) {
			v = ofl_view_make(pkt->bufs, pkt->nbufs, total, g->scratch, OFL_GRO_SCRATCH);
			ofl_parse_at(&v, end, et_off, &h);
		}
	}
	mac = tag.has ? tag.view.hdr : v.p;
	if (h.status != OFL_PARSE_OK ||
	    h.hdr_len - hdr_shift(g, &h, &tag) > (int32_t)OFL_GRO_MAX_HDR) {
		unsigned why = h.status == OFL_PARSE_OK ? (unsigned)OFL_GRO_NORMAL_HDR_TOO_LONG : h.status;
		if (h.l4_ok) {
			/* Same flow as a held packet: that one goes first. */
			build_key(pkt, mac, v.p, &h, &tag, &k);
			idx = lookup(g, &k, &hash);
			if (idx != GRO_NONE)
				complete(g, idx, OFL_GRO_FLUSH_NOT_GRO);
		}
		return pass_normal(g, pkt, total, why, now, &tag);
	}
	len = h.payload_len;
	th = v.p + h.l4_off;
	flags = th[13];
	if (fk.valid && h.nvlan == 0 && h.l3_off == 14 && h.ip6_ext_len == 0 &&
	    h.l4_off == (h.l3 == 4 ? 34 : 54)) {
		k = fk.k; /* the same words build_key() would write */
		hash = fk.hash;
	} else {
		build_key(pkt, mac, v.p, &h, &tag, &k);
		fk.valid = fk.hashed = fk.looked = 0;
	}
	if (h.trimmed)
		g->st.padding_trimmed++;
	/* The kernel's length rule (ipv4.h, gro_ip_len_nomerge): a segment
	 * whose IP packet ends before the frame (Ethernet padding) is not
	 * merged and the held packet of its flow goes first.  Before the TCP
	 * checksum, which the kernel does not verify for such a frame.  Header
	 * prediction and the train never take one: they compare the IP length
	 * field with the frame's length. */
	if (len && gro_ip_len_nomerge(&h)) {
		idx = lookup(g, &k, &hash);
		if (idx != GRO_NONE)
			complete(g, idx, OFL_GRO_FLUSH_NOT_GRO);
		return pass_normal(g, pkt, total, OFL_GRO_NORMAL_PADDED, now, &tag);
	}
	if (len && csum_status != OFL_CSUM_UNNECESSARY)
		g->st.csum_sw++;
	if (len && !gro_tcp_csum_ok(pkt, csum_status, &v, &h)) {
		idx = lookup(g, &k, &hash);
		if (idx != GRO_NONE)
			complete(g, idx, OFL_GRO_FLUSH_CSUM);
		return pass_normal(g, pkt, total, OFL_GRO_NORMAL_TCP_CSUM, now, &tag);
	}
	if (g->held_bytes + len > g->cfg.max_held_bytes) {
		make_room(g, len);
		fk.looked = 0; /* entries may have gone */
	}
	if (fk.looked)
		idx = fk.idx; /* hash too, unless the table was empty */
	else if (fk.hashed)
		idx = lookup_hashed(g, &k, hash);
	else
		idx = lookup(g, &k, &hash), fk.hashed = 1;
	if (idx != GRO_NONE) {
		struct gro_item *it = &g->items[idx];
		nm = gro_tcp_nomerge(th, it, len);
		if (h.l3 == 4)
			nm |= gro_ipv4_nomerge(v.p + h.l3_off, it);
		else
			nm |= gro_ipv6_nomerge(v.p + h.l3_off, it, h.ip6_ext_len);
		if (!nm) {
			if (it->l3_len + len > g->cfg.max_size)
				nm = NM(OFL_GRO_FLUSH_MAX_SIZE);
			else if (it->nsegs == g->cfg.max_segs ||
			         it->nslices + count_slices(pkt, h.hdr_len, len) + 1u > g->max_slices)
				nm = NM(OFL_GRO_FLUSH_MAX_SEGS);
		}
		if (!nm) {
			add_slices(g, idx, pkt, h.hdr_len, len, it->nsegs);
			return merge_tail(g, idx, pkt, len, flags);
		}
		complete(g, idx, first_reason(nm));
	}
	/* New flow entry (the kernel's mss = 1 path). */
	if (len == 0)
		return pass_normal(g, pkt, total, OFL_GRO_NORMAL_NO_PAYLOAD, now, &tag);
	if (flags & (TCP_FIN | TCP_URG | TCP_RST | TCP_SYN | TCP_PSH))
		return pass_normal(g, pkt, total, OFL_GRO_NORMAL_FLAGS, now, &tag);
	if (len > g->cfg.max_held_bytes)
		return pass_normal(g, pkt, total, OFL_GRO_NORMAL_OVER_LIMIT, now, &tag);
	if (!fk.hashed)
		hash = ofl_flow_hash(&g->tab, &k);
	return hold_new(g, pkt, &v, &h, &tag, &k, hash, now);
}

/*
 * A train: after a packet merged into entry idx by header prediction, the
 * packets that follow it in the burst are most often the next segments of
 * the same flow.  This loop takes them with the entry's state in locals
 * (next sequence number, segment and slice counts, byte budget, expected IP
 * ID) and writes it back once, when the train stops: at a packet that does
 * not predict (left to the caller, untouched), at the end of the burst, or
 * at a segment that ends the train (merged, then the entry completed).
 * Same checks as predict(); returns how many packets it took.
 */
/* The packet fields a train segment must have (one buffer, checksum
 * verified, no hardware VLAN) as one 32-bit compare, whatever the byte
 * order; *nb_mask: the mask without nbufs. */
static void train_pkt_word(uint32_t *want_w, uint32_t *mask_w, uint32_t *nb_mask)
{
	struct ofl_pkt want, mask;
	memset(&want, 0, sizeof(want));
	memset(&mask, 0, sizeof(mask));
	want.nbufs = 1;
	want.csum_status = OFL_CSUM_UNNECESSARY;
	mask.nbufs = 0xffff;
	mask.csum_status = 0xff;
	mask.flags = OFL_PKT_F_VLAN;
	memcpy(want_w, &want.nbufs, 4);
	memcpy(mask_w, &mask.nbufs, 4);
	mask.nbufs = 0;
	memcpy(nb_mask, &mask.nbufs, 4);
}

/* train() for one L3 (v4 is a constant in each copy). */
static inline OFL_ALWAYS_INLINE unsigned train_l3(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts,
                                           unsigned i, unsigned n, const int v4, const int tagged)
{
	struct gro_item *it = &g->items[idx];
	const uint8_t *h0 = it->hdr, *m = g->pmask[!v4];
	const uint32_t hl = it->hdr_len, l4 = it->l4_off, mss = it->seg_size;
	const uint32_t lenoff = v4 ? 14u : 54u, lenpos = v4 ? 16u : 18u;
	/* behind a DSA tag: bytes before the untagged EtherType beyond the
	 * 12 MAC bytes, and the tail tag */
	const uint32_t pre = tagged ? tag_pre(it) : 0, tl = tagged ? it->rawtail_len : 0;
	struct ofl_slice *sl = gro_slices(g, idx);
	void **ck = gro_cookies(g, idx);
	uint32_t seq = it->next_seq, nsegs = it->nsegs, nsl = it->nslices, added = 0;
	uint32_t room = sat_sub(g->cfg.max_size, it->l3_len);
	uint32_t hroom = sat_sub(g->cfg.max_held_bytes, g->held_bytes);
	/* segments and slices the entry may still take */
	uint32_t seg_end = g->cfg.max_segs, sl_end = g->max_slices - 1u;
	uint16_t id = (uint16_t)(it->id0 + (it->fixedid ? 0u : nsegs)), idinc = it->fixedid ? 0u : 1u;
	/* the IPv4 header sum without length, ID and checksum: the same for
	 * every segment that predicts (all its other bytes equal the held
	 * header's) */
	uint64_t ipsum = v4 ? (uint64_t)ld16(h0 + 14) + ld32(h0 + 20) + ld32(h0 + 26) + ld32(h0 + 30) : 0;
	uint32_t pw_want, pw_mask, pw_nb;
	unsigned start = i;
	uint8_t end = 0, fl = 0;
	train_pkt_word(&pw_want, &pw_mask, &pw_nb);
	for (; i < n; i++) {
		const struct ofl_pkt *pkt = &pkts[i];
		const struct ofl_buf *b = pkt->bufs;
		const uint8_t *p, *th;
		uint32_t tot, len, pw, nsl_pkt = 1;
		memcpy(&pw, &pkt->nbufs, 4);
		if (!b)
			break;
#if defined(__GNUC__)
		if (i + GRO_AHEAD < n) {
			const struct ofl_buf *nb = pkts[i + GRO_AHEAD].bufs;
			if (nb && pkts[i + GRO_AHEAD].nbufs)
				__builtin_prefetch(nb->data);
		}
#endif
		p = b->data;
		tot = b->len;
		if ((pw & pw_mask) != pw_want) {
			if (tagged)
				break;
			/* several buffers (header split, page fragments): what
			 * check_args() would refuse is left to the full path */
			unsigned k, nb = pkt->nbufs;
			if ((pw & pw_nb) != (pw_want & pw_nb) || nb > g->cfg.max_bufs || nb == 0)
				break;
			for (k = 1; k < nb && (b[k].data || !b[k].len); k++)
				tot += b[k].len;
			if (k < nb || tot > 0xffffu || b->len < hl)
				break;
			nsl_pkt = 0; /* counted below */
		}
		if (!p || tot < hl + pre + tl || tot > 0xffffu)
			break;
		if (tagged) {
			if (!tag_same(it, p, tot) || pred_diff(p + pre, h0, m, 12, hl))
				break;
			p += pre;
			tot -= pre + tl;
		} else if (pred_diff(p, h0, m, 0, hl)) {
			break;
		}
		th = p + l4;
		len = tot - hl;
		if (len - 1u >= mss || ofl_get32(th + 4) != seq ||
		    ofl_get16(p + lenpos) + lenoff != tot || nsegs >= seg_end || nsl >= sl_end)
			break;
		if (v4) {
			uint64_t s2 = ipsum + ld32(p + 16) + ld16(p + 24);
			s2 = (s2 & 0xffffffffu) + (s2 >> 32);
			s2 = (s2 & 0xffff) + (s2 >> 16);
			s2 = (s2 & 0xffff) + (s2 >> 16);
			s2 = (s2 & 0xffff) + (s2 >> 16);
			if (s2 != 0xffff || ofl_get16(p + 18) != id)
				break;
		}
		if (len > room || len > hroom) {
			/* mergeable but for the size: the full path flushes the
			 * entry (max_size) or makes room first (held bytes) */
			if (len > room && len <= hroom)
				end = 2;
			break;
		}
		if (nsl_pkt) {
			sl[nsl].data = p + hl;
			sl[nsl].len = len;
			sl[nsl].pkt = (uint16_t)nsegs;
			sl[nsl].buf = 0;
		} else {
			/* the payload is the first buffer's rest and every
			 * later buffer (checked above to sum to len) */
			const struct ofl_buf *bb = pkt->bufs;
			unsigned k, nb = pkt->nbufs;
			if (nsl + nb > sl_end)
				break;
			if (bb[0].len > hl)
				sl[nsl + nsl_pkt++] = (struct ofl_slice){bb[0].data + hl, bb[0].len - hl, (uint16_t)nsegs, 0};
			for (k = 1; k < nb; k++)
				if (bb[k].len)
					sl[nsl + nsl_pkt++] =
					    (struct ofl_slice){bb[k].data, bb[k].len, (uint16_t)nsegs, (uint16_t)k};
		}
		id = (uint16_t)(id + idinc);
		ck[nsegs] = pkt->cookie;
		nsl += nsl_pkt;
		nsegs++;
		seq += len;
		room -= len;
		hroom -= len;
		added += len;
		fl = th[13];
		if ((fl & (TCP_PSH | TCP_FIN | TCP_URG | TCP_RST | TCP_SYN)) || len < mss) {
			end = 1;
			i++;
			break;
		}
	}
	it->next_seq = seq;
	it->nslices = (uint16_t)nsl;
	it->payload += added;
	it->l3_len += added;
	it->fin_psh |= fl & (TCP_FIN | TCP_PSH);
	g->held_bytes += added;
	g->st.rx_pkts += i - start;
	g->st.rx_bytes += added + (uint64_t)(nsegs - it->nsegs) * (hl + pre + tl);
	g->st.merged += i - start;
	g->st.merged_fast += i - start;
	it->nsegs = (uint16_t)nsegs;
	if (end == 1)
		end_train(g, idx, fl);
	else if (end == 2)
		complete(g, idx, OFL_GRO_FLUSH_MAX_SIZE);
	return i - start;
}

static unsigned train(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkts, unsigned i,
                      unsigned n)
{
	const struct gro_item *it = &g->items[idx];
	if (it->rawpre_len)
		return it->l3 == 4 ? train_l3(g, idx, pkts, i, n, 1, 1) : train_l3(g, idx, pkts, i, n, 0, 1);
	return it->l3 == 4 ? train_l3(g, idx, pkts, i, n, 1, 0) : train_l3(g, idx, pkts, i, n, 0, 0);
}

/* Does the frame carry the entry's TCP ports where a plain header has them
 * (a hint: a train of one frame costs more than it saves)? */
static inline int same_ports(const struct gro_item *it, const struct ofl_pkt *pkt)
{
	return pkt->nbufs && pkt->bufs && pkt->bufs[0].data &&
	       same_ports_at(it, pkt->bufs[0].data, pkt->bufs[0].len);
}

/* Header prediction of a frame (headers in its first buffer, checksum
 * verified, no hardware VLAN, at least 54 bytes there) against entry idx,
 * the ports first: another flow fails there, cheaply. */
static inline int try_predict(struct ofl_gro *g, uint32_t idx, const struct ofl_pkt *pkt, const uint8_t *p,
                              uint32_t len)
{
	const struct gro_item *it = &g->items[idx];
	return it->state == GRO_HELD && it->fast && pkt->bufs[0].len >= it->hdr_len + tag_pre(it) &&
	       len <= 0xffffu && same_ports_at(it, p, pkt->bufs[0].len) && predict(g, idx, pkt, p, len);
}

int ofl_gro_receive(struct ofl_gro *g, const struct ofl_pkt *pkt, uint64_t now)
{
	int err;
	if (!g)
		return OFL_EINVAL;
	err = check_args(g, pkt);
	if (err) {
		g->st.api_errors++;
		return err;
	}
	return receive(g, pkt, now, 0);
}

unsigned ofl_gro_receive_burst(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n,
                               uint64_t now, int *err)
{
	unsigned i;
	int e = 0;
	if (!g || (!pkts && n) || (g->in_cb && n)) {
		e = !g || !pkts ? OFL_EINVAL : OFL_ESTATE;
		if (g)
			g->st.api_errors++;
		n = 0;
	}
	for (i = 0; i < n; i++) {
		const struct ofl_pkt *pkt = &pkts[i];
		int r, tried = 0;
#if defined(__GNUC__)
		/* the first touch of a received header is a cache miss: start it
		 * a few packets ahead, as poll-mode drivers do */
		if (i + GRO_AHEAD < n && pkts[i + GRO_AHEAD].nbufs && pkts[i + GRO_AHEAD].bufs &&
		    pkts[i + GRO_AHEAD].bufs[0].data) {
			/* (an empty first buffer may be NULL: no d + 64 then) */
			const uint8_t *d = pkts[i + GRO_AHEAD].bufs[0].data;
			__builtin_prefetch(d);
			__builtin_prefetch(d + 64);
		}
#endif
		r = check_args(g, pkt);
		if (r) {
			g->st.api_errors++;
			e = r;
			break;
		}
		/* the next segment of a train: header prediction against the
		 * last entry, or against the entry the recent-flows cache names
		 * for the frame's addresses and ports, then the train loop */
		if (g->tab.count && pkt->csum_status == OFL_CSUM_UNNECESSARY && !(pkt->flags & OFL_PKT_F_VLAN) &&
		    pkt->bufs[0].len >= 54) {
			const uint8_t *p = pkt->bufs[0].data;
			uint32_t len = pkt->nbufs == 1 ? pkt->bufs[0].len : ofl_pkt_len(pkt->bufs, pkt->nbufs);
			uint32_t idx = g->last, again;
			uint64_t hint;
			if (idx != GRO_NONE && try_predict(g, idx, pkt, p, len))
				goto merged;
			hint = g->rcache[rcache_slot(p)];
			again = (uint32_t)hint;
			if ((uint32_t)(hint >> 32) == ld32(p + 34) && again != idx && again != GRO_NONE &&
			    try_predict(g, again, pkt, p, len)) {
				idx = again;
				goto merged;
			}
			tried = idx != GRO_NONE;
			goto slow;
merged:
			/* a train when the next frame looks like the same flow
			 * (and the entry did not just complete) */
			if (g->last == idx && i + 1 < n && same_ports(&g->items[idx], &pkts[i + 1]))
				i += train(g, idx, pkts, i + 1, n);
			continue;
		}
slow:
		receive(g, pkt, now, tried);
	}
	if (err)
		*err = e;
	return i;
}

/* ---- flushes and the timer ---------------------------------------------- */

static int check_ctx(struct ofl_gro *g)
{
	if (!g)
		return OFL_EINVAL;
	if (g->in_cb) {
		g->st.api_errors++;
		return OFL_ESTATE;
	}
	return 0;
}

static int flush_older(struct ofl_gro *g, uint64_t now, uint64_t age)
{
	int n = 0;
	while (g->age_head != GRO_NONE) {
		uint64_t t = g->items[g->age_head].first_ns;
		if (t > now || now - t < age)
			break;
		complete(g, g->age_head, OFL_GRO_FLUSH_TIMEOUT);
		n++;
	}
	return n;
}

int ofl_gro_flush(struct ofl_gro *g)
{
	int err = check_ctx(g);
	if (err)
		return err;
	flush_all(g, OFL_GRO_FLUSH_EXPLICIT);
	return 0;
}

int ofl_gro_flush_older(struct ofl_gro *g, uint64_t now, uint64_t max_age)
{
	int n, err = check_ctx(g);
	if (err)
		return err;
	n = flush_older(g, now, max_age);
	deliver_pending(g);
	return n;
}

int ofl_gro_poll_end(struct ofl_gro *g, unsigned work_done, uint64_t now, uint64_t *deadline)
{
	uint64_t t = g ? g->cfg.flush_timeout_ns : 0;
	int err = check_ctx(g);
	if (deadline)
		*deadline = 0;
	if (err)
		return err;
	if (t == 0 || work_done == 0) {
		flush_all(g, OFL_GRO_FLUSH_POLL_END);
		return 0;
	}
	flush_older(g, now, t);
	deliver_pending(g);
	if (deadline && g->age_head != GRO_NONE)
		*deadline = g->items[g->age_head].first_ns + t;
	return 0;
}

int ofl_gro_get_stats(const struct ofl_gro *g, struct ofl_gro_stats *st)
{
	if (!g || !st)
		return OFL_EINVAL;
	*st = g->st;
	st->flows_held = g->tab.count;
	st->bytes_held = g->held_bytes;
	return 0;
}

const char *ofl_gro_flush_reason_name(unsigned r)
{
	static const char *const names[OFL_GRO_FLUSH__COUNT] = {
		"flags", "ack", "options", "seq", "size", "ttl_tos_df", "ip_id", "ip6_ext", "csum",
		"not_gro", "max_size", "max_segs", "psh", "fin_urg_rst_syn", "short", "table_full",
		"timeout", "poll_end", "explicit",
	};
	return r < OFL_GRO_FLUSH__COUNT ? names[r] : "?";
}

const char *ofl_gro_normal_reason_name(unsigned r)
{
	static const char *const names[OFL_GRO_NORMAL__COUNT] = {
		"not_ip", "not_tcp", "malformed", "vlan_depth", "hdr_too_long", "ip_options",
		"ip_csum", "fragment", "ip6_ext", "tcp_csum", "no_payload", "flags", "bad_tag",
		"dsa_control", "over_limit", "padded",
	};
	return r < OFL_GRO_NORMAL__COUNT ? names[r] : "?";
}
