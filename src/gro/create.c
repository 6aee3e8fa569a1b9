/*
 * create.c - the context: configuration defaults, create (one allocation per
 * array, at create time), destroy, counters and the names of the reasons.
 */
#include <stddef.h>
#include <string.h>

#include "core/entropy.h"
#include "core/mem.h"
#include "core/sized.h"
#include "gro/layer.h"
#include "gro/list.h"
#include "gro/stage.h"
#include "gro/tcp.h"
#include "gro/tunfast.h"
#include "gro/tunnel.h"

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
	cfg->ipip = 1; /* built into Linux, always on */
	cfg->gre = 1;
	ofl_dsa_params_default(&cfg->dsa_params);
	return 0;
}

/* ---- create / destroy --------------------------------------------------- */

/* Header prediction's masks, one per layer stack: which bytes of a plain
 * header the next segment must repeat, derived from the layers' holes
 * (layer.h). */
static void pred_masks(struct ofl_gro *g)
{
	unsigned s;
	_Static_assert(sizeof(g->pmask) / sizeof(g->pmask[0]) == GRO_NSTACKS, "a mask per stack");
	for (s = 0; s < GRO_NSTACKS; s++)
		gro_stack_pred_mask(&gro_stacks[s], g->pmask[s]);
	gro_tun_masks(g);
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

/* The bytes of each of the context's arrays (GA_*); 0: not needed. */
static void array_sizes(const struct ofl_gro_config *cfg, uint32_t nitems, uint32_t max_slices, int list,
                        uint32_t *nslots, size_t *sz)
{
	uint32_t nout = cfg->normal_batch + 1u; /* delivery records */

	sz[GA_ITEMS] = ofl_mul_size(nitems, sizeof(struct gro_item));
	sz[GA_COLD] = cfg->dsa ? ofl_mul_size(nitems, sizeof(struct gro_cold)) : 0;
	sz[GA_SLICES] = ofl_mul_size(ofl_mul_size(nitems, max_slices), sizeof(struct ofl_slice));
	sz[GA_COOKIES] = ofl_mul_size(ofl_mul_size(nitems, cfg->max_segs), sizeof(void *));
	sz[GA_OUTS] = ofl_mul_size(nout, sizeof(struct ofl_gro_out));
	sz[GA_OSLICES] = ofl_mul_size(ofl_mul_size(nout, cfg->max_bufs), sizeof(struct ofl_slice));
	sz[GA_OCOOKIES] = ofl_mul_size(nout, sizeof(void *));
	/* lone records (group.c): with timeout 0, where the fast path runs,
	 * or behind a DSA tag in untagged mode (dsa_group.c: a slot per frame
	 * after the struct) */
	sz[GA_BS] = cfg->flush_timeout_ns == 0 && (!cfg->dsa || !cfg->dsa_keep_tag) &&
	                    (cfg->version == 1 || cfg->l2 != OFL_L2_NONE) && !list
	                ? sizeof(struct gro_burst) + (cfg->dsa ? GRO_BURST_MAX * sizeof(struct gro_tag_slot) : 0)
	                : 0;
	sz[GA_TAB] = ofl_flowtab_size(cfg->max_flows, nslots);
	/* fraglist mode (list.c): the segments' own headers */
	sz[GA_LHS] = list ? ofl_mul_size(ofl_mul_size(nitems, gro_list_cap(cfg)), sizeof(struct ofl_slice)) : 0;
	sz[GA_LIDX] = list ? ofl_mul_size(ofl_mul_size(nitems, GRO_LIDX), sizeof(uint32_t)) : 0;
}

/* One zeroed array of size bytes, or NULL for none (size 0); a failure
 * clears *ok. */
static void *array_alloc(const struct ofl_mem *mem, size_t size, int *ok)
{
	void *p = size ? ofl_mem_zalloc(mem, size, 64) : NULL;

	if (size && !p)
		*ok = 0;
	return p;
}

/* Gives back every array (a NULL one is skipped by ofl_mem_free), then the
 * context itself. */
static void free_context(struct ofl_gro *g, const struct ofl_mem *mem)
{
	const size_t *sz = g->arr_size;

	ofl_mem_free(mem, g->items, sz[GA_ITEMS]);
	ofl_mem_free(mem, g->cold, sz[GA_COLD]);
	ofl_mem_free(mem, g->slices, sz[GA_SLICES]);
	ofl_mem_free(mem, g->cookies, sz[GA_COOKIES]);
	ofl_mem_free(mem, g->outs, sz[GA_OUTS]);
	ofl_mem_free(mem, g->oslices, sz[GA_OSLICES]);
	ofl_mem_free(mem, g->ocookies, sz[GA_OCOOKIES]);
	ofl_mem_free(mem, g->bs, sz[GA_BS]);
	ofl_mem_free(mem, g->tab_mem, sz[GA_TAB]);
	ofl_mem_free(mem, g->lhs, sz[GA_LHS]);
	ofl_mem_free(mem, g->lidx, sz[GA_LIDX]);
	ofl_mem_free(mem, g, sizeof(*g));
}

int ofl_gro_create(const struct ofl_gro_config *cfg, struct ofl_gro **out)
{
	struct ofl_gro *g;
	const struct ofl_mem *mem;
	uint32_t nslots, i, nitems, max_slices;
	size_t *sz;
	int list, ok = 1;
	uint64_t key[2];
	if (!cfg || !out || !cfg->deliver || cfg->version < 1 || cfg->version > OFL_GRO_CONFIG_VERSION ||
	    cfg->max_flows == 0 || cfg->max_flows > (1u << 24) || cfg->max_segs == 0 ||
	    cfg->max_bufs == 0 || cfg->normal_batch == 0 || cfg->max_size < 1280 ||
	    cfg->max_size > OFL_GRO_MAX_SIZE_LIMIT || cfg->max_held_bytes == 0)
		return OFL_EINVAL;
	if (cfg->mem && (!cfg->mem->alloc || !cfg->mem->free))
		return OFL_EINVAL;
	if (cfg->dsa && (cfg->dsa_keep_tag > 1 || cfg->dsa->rx_tail > sizeof(((struct gro_cold *)0)->tailbuf)))
		return OFL_EINVAL;
	if (cfg->version >= 2 && (cfg->l2 > OFL_L2_NONE || (cfg->l2 == OFL_L2_NONE && cfg->dsa)))
		return OFL_EINVAL;
	if (cfg->version >= 3 && (cfg->udp > 1 || cfg->udp_nports > OFL_GRO_UDP_PORTS_MAX))
		return OFL_EINVAL;
	if (cfg->version >= 4 && gro_tunnel_check_config(cfg) != 0)
		return OFL_EINVAL;
	if (cfg->version >= 5 && cfg->ipip > 1)
		return OFL_EINVAL;
	if (cfg->version >= 6 && cfg->gre > 1)
		return OFL_EINVAL;
	if (cfg->version >= 7 && (cfg->fraglist > 1 || (cfg->fraglist && cfg->dsa)))
		return OFL_EINVAL;
	list = cfg->version >= 7 && cfg->fraglist;
	if (derive_key(cfg, key) != 0)
		return OFL_EINVAL; /* no key configured and none from the system */
	*out = NULL;
	nitems = cfg->max_flows + cfg->normal_batch + 1u;
	max_slices = 2u * cfg->max_segs + cfg->max_bufs + 1u; /* + a tail tag */
	mem = cfg->mem;
	g = ofl_mem_zalloc(mem, sizeof(*g), 64);
	if (!g)
		return OFL_ENOMEM;
	sz = g->arr_size;
	array_sizes(cfg, nitems, max_slices, list, &nslots, sz);
	if (cfg->version == 1) {
		/* a version 1 struct ends before l2: Ethernet */
		memcpy(&g->cfg, cfg, offsetof(struct ofl_gro_config, l2));
		g->cfg.l2 = OFL_L2_ETH;
	} else if (cfg->version == 2) {
		/* a version 2 struct ends before udp: no UDP GRO (zeroed) */
		memcpy(&g->cfg, cfg, offsetof(struct ofl_gro_config, udp));
	} else if (cfg->version == 3) {
		/* a version 3 struct ends before the tunnel ports: none (zeroed) */
		memcpy(&g->cfg, cfg, offsetof(struct ofl_gro_config, vxlan_nports));
	} else if (cfg->version == 4) {
		/* a version 4 struct ends before ipip: no IP-in-IP (zeroed) */
		memcpy(&g->cfg, cfg, offsetof(struct ofl_gro_config, ipip));
	} else if (cfg->version == 5) {
		/* a version 5 struct ends before gre: no GRE (zeroed) */
		memcpy(&g->cfg, cfg, offsetof(struct ofl_gro_config, gre));
	} else if (cfg->version == 6) {
		/* a version 6 struct ends before fraglist: off (zeroed) */
		memcpy(&g->cfg, cfg, offsetof(struct ofl_gro_config, fraglist));
	} else if (cfg->version == 7) {
		/* a version 7 struct ends before the VXLAN-GPE ports: none (zeroed) */
		memcpy(&g->cfg, cfg, offsetof(struct ofl_gro_config, vxlan_gpe_nports));
	} else {
		g->cfg = *cfg;
	}
	g->cfg.version = OFL_GRO_CONFIG_VERSION;
	g->raw = g->cfg.l2 == OFL_L2_NONE;
	g->full_only = (uint8_t)(g->cfg.dsa || g->raw || list);
	g->udp_tun = (g->cfg.vxlan_nports | g->cfg.geneve_nports | g->cfg.vxlan_gpe_nports) != 0;
	g->items = array_alloc(mem, sz[GA_ITEMS], &ok);
	g->cold = array_alloc(mem, sz[GA_COLD], &ok);
	g->slices = array_alloc(mem, sz[GA_SLICES], &ok);
	g->cookies = array_alloc(mem, sz[GA_COOKIES], &ok);
	g->outs = array_alloc(mem, sz[GA_OUTS], &ok);
	g->oslices = array_alloc(mem, sz[GA_OSLICES], &ok);
	g->ocookies = array_alloc(mem, sz[GA_OCOOKIES], &ok);
	g->bs = array_alloc(mem, sz[GA_BS], &ok);
	g->tab_mem = array_alloc(mem, sz[GA_TAB], &ok);
	g->lhs = array_alloc(mem, sz[GA_LHS], &ok);
	g->lidx = array_alloc(mem, sz[GA_LIDX], &ok);
	if (!ok) {
		free_context(g, mem);
		return OFL_ENOMEM;
	}
	g->nitems = nitems;
	g->max_slices = max_slices;
	for (i = 0; i < nitems; i++) {
		g->items[i].next = i + 1 < nitems ? i + 1 : GRO_NONE;
		g->items[i].sl = gro_slices(g, i);
		g->items[i].ck = gro_cookies(g, i);
	}
	g->free_head = 0;
	g->age_head = g->age_tail = g->pend_head = g->pend_tail = g->last = GRO_NONE;
	ofl_flowtab_init(&g->tab, g->tab_mem, nslots, key);
	pred_masks(g);
	if (g->bs) {
		gro_burst_init(g->bs);
		if (g->cfg.dsa)
			g->bs->tag = (struct gro_tag_slot *)(void *)(g->bs + 1);
	}
	for (i = 0; i < GRO_RCACHE; i++)
		g->rcache[i] = GRO_NONE;
	*out = g;
	return 0;
}

void ofl_gro_destroy(struct ofl_gro *g)
{
	if (!g || g->in_cb)
		return;
	gro_flush_all(g, OFL_GRO_FLUSH_EXPLICIT);
	free_context(g, g->cfg.mem);
}

int ofl_gro_get_stats(const struct ofl_gro *g, struct ofl_gro_stats *st, size_t size)
{
	struct ofl_gro_stats snap;

	if (!g || !st || !size)
		return OFL_EINVAL;
	snap = g->st;
	snap.flows_held = gro_nflows(g);
	snap.bytes_held = g->held_bytes;
	ofl_copy_sized(st, size, &snap, sizeof(snap)); /* an older or newer caller's struct */
	return 0;
}

_Static_assert(OFL_GRO_FLUSH__COUNT <= OFL_GRO_REASON_SLOTS, "a flush reason past the stats array");
_Static_assert(OFL_GRO_NORMAL__COUNT <= OFL_GRO_REASON_SLOTS, "a normal reason past the stats array");

const char *ofl_gro_flush_reason_name(unsigned r)
{
	static const char *const names[OFL_GRO_FLUSH__COUNT] = {
		"flags", "ack", "options", "seq", "size", "ttl_tos_df", "ip_id", "ip6_ext", "csum",
		"not_gro", "max_size", "max_segs", "psh", "fin_urg_rst_syn", "short", "table_full",
		"timeout", "poll_end", "explicit", "udp_cnt", "tun_outer", "csum_state",
	};
	return r < OFL_GRO_FLUSH__COUNT ? names[r] : "?";
}

const char *ofl_gro_normal_reason_name(unsigned r)
{
	static const char *const names[OFL_GRO_NORMAL__COUNT] = {
		"not_ip", "not_tcp", "malformed", "vlan_depth", "hdr_too_long", "ip_options",
		"ip_csum", "fragment", "ip6_ext", "tcp_csum", "no_payload", "flags", "bad_tag",
		"dsa_control", "over_limit", "padded", "udp_csum", "udp_zero_csum", "udp_len", "udp_port",
		"tun_outer", "tun_csum", "tun_hdr", "tun_inner", "csum_state",
	};
	return r < OFL_GRO_NORMAL__COUNT ? names[r] : "?";
}
