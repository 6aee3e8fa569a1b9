/*
 * group_bufs.c - stage 2's grouping (group.c gro_group()) of a burst whose
 * first frame is in several buffers: its own loop over the header-split
 * frames (lone_bufs.h) of that buffer count, a constant in each copy of the
 * loop, so that the loop keeps its values in registers instead of sharing
 * them with the one-buffer parse.  From the first frame of another shape on
 * every frame is parsed as gro_group() parses it (gro_group_frame(), out of
 * line); a frame gets the same record and group from either.
 */
#include "gro/group.h"
#include "gro/lone_bufs.h"

/* Frames i to n - 1 of the burst, parsed by gro_group_frame() and grouped
 * (a, dup: the counts so far); gro_group_bufs()'s return. */
static int group_rest(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned i, unsigned n, uint64_t now,
                      uint64_t genhi, struct gro_group_acc *a, uint32_t dup)
{
	struct gro_burst *bs = g->bs;
	uint32_t bad = 0;
	for (; i < n; i++) {
		uint32_t h = gro_group_frame(g, i, &pkts[i], now, a, &bad);
		if (h - 1u >= UINT32_MAX - 1u) {
			if (h) {
				bs->mtop = i + 1;
				return 0; /* (UINT32_MAX: not grouped) */
			}
			continue;
		}
		/* (as gro_group()) */
		if (!gro_group_enter(bs, i, h, genhi) && ++dup >= 8 && i < 16) {
			bs->mtop = i + 1;
			return 0;
		}
	}
	return gro_group_end(g, n, bad, dup, a->bytes, a->rx);
}

/* gro_group_bufs() for frames of nb buffers (a constant): record i's
 * slices start at bs->msl[nb * i] (every frame before it took nb). */
static inline OFL_ALWAYS_INLINE int group_bufs_nb(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n,
                                                  uint64_t now, uint64_t genhi, uint32_t nb)
{
	struct gro_burst *bs = g->bs;
	const uint32_t want = gro_pkt_word_of((uint16_t)nb, OFL_CSUM_UNNECESSARY, 0);
	uint32_t bytes = 0, dup = 0;
	uint64_t rx = 0;
	struct gro_group_acc a;
	/* the frames whose slices fit as gro_lone_bufs_parse() sees it
	 * (bs->nmsl at most GRO_LONE_NSL - GRO_LONE_NB), the rest left to
	 * group_rest() */
	unsigned i, m = (GRO_LONE_NSL - GRO_LONE_NB) / nb + 1u;
	unsigned ahead = n > GRO_AHEAD ? n - GRO_AHEAD : 0;
	m = m < n ? m : n;
	for (i = 0; i < m; i++) {
		const struct ofl_pkt *pkt = &pkts[i];
		const struct ofl_buf *b = pkt->bufs;
		struct ofl_slice *s = &bs->msl[nb * i];
		const uint8_t *p;
		uint32_t b0, tot, hl, l4;
		uint64_t addr;
#if defined(__GNUC__)
		/* (as gro_group()'s loop) */
		if (i < ahead && pkts[i + GRO_AHEAD].nbufs && pkts[i + GRO_AHEAD].bufs)
			__builtin_prefetch(pkts[i + GRO_AHEAD].bufs[0].data);
#endif
		/* nb buffers, checksum verified, no hardware VLAN */
		if ((gro_pkt_word(pkt) & GRO_PKT_PLAIN_MASK) != want || !b)
			break;
		p = b[0].data;
		b0 = b[0].len;
		if (!p || b0 < 54u)
			break;
		tot = gro_lone_cut(b, s, nb);
		hl = gro_lone_bufs_hdr(p, b0, tot, s, nb, &bs->out[i], &tot, &l4, &addr);
		if (!hl)
			break;
		bs->hl[i] = (uint8_t)hl;
		gro_lone_write(bs, i, pkt, p, tot, hl, gro_l3l4_word(14, l4), 0, now, 0);
		bytes += tot - hl;
		rx += tot;
		/* a few interleaved flows: give up early (as gro_group()) */
		if (!gro_group_enter(bs, i, gro_group_hash(addr, ld32(p + l4)), genhi) && ++dup >= 8 && i < 16) {
			bs->mtop = i + 1;
			bs->nmsl = nb * (i + 1);
			return 0;
		}
	}
	bs->nmsl = nb * i;
	if (i == n)
		return gro_group_end(g, n, 0, dup, bytes, rx);
	a.rx = rx;
	a.bytes = bytes;
	return group_rest(g, pkts, i, n, now, genhi, &a, dup);
}

int gro_group_bufs(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now, uint64_t genhi)
{
	uint32_t nb = pkts[0].nbufs;
	struct gro_group_acc a = {0, 0};
	if (nb <= g->cfg.max_bufs) {
		if (nb == 4)
			return group_bufs_nb(g, pkts, n, now, genhi, 4);
		if (nb == 2)
			return group_bufs_nb(g, pkts, n, now, genhi, 2);
		if (nb == 3)
			return group_bufs_nb(g, pkts, n, now, genhi, 3);
	}
	return group_rest(g, pkts, 0, n, now, genhi, &a, 0);
}
