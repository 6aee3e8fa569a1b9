/*
 * group_bufs.c - stage 2's grouping (group.c gro_group()) of a burst whose
 * first frame is in several buffers: its own loop over the header-split
 * frames (lone_bufs.h) of that buffer count, a constant in each copy of the
 * loop, so that the loop keeps its values in registers instead of sharing
 * them with the one-buffer parse.  At the first frame of another shape it
 * leaves the whole burst to gro_group()'s loop, which groups it again from
 * its start in a new generation (every frame gets its record, bs->hl[] and
 * group there; the slots this loop gave slices get theirs back first).
 */
#include "gro/group.h"
#include "gro/lone_bufs.h"

/* Frame i (pkt, b0 bytes at p in its first buffer, tot in all, buffers 1
 * to nb - 1 cut at s: gro_lone_cut()) when its TCP header is at o (34 for
 * IPv4, 54 else; a constant): 0 when it is not a header-split lone record
 * (gro_lone_bufs_parse()'s checks); else its record and slices written, its
 * bytes added, and its group entered: 1 a new group, 2 one seen before. */
static inline OFL_ALWAYS_INLINE unsigned bufs_frame(struct gro_burst *bs, unsigned i, const struct ofl_pkt *pkt,
                                                    const uint8_t *p, uint32_t b0, uint32_t tot,
                                                    struct ofl_slice *s, uint32_t nb, uint32_t o, uint64_t now,
                                                    uint64_t genhi, uint32_t *bytes, uint32_t *rx)
{
	uint32_t hl = gro_lone_bufs_l4(p, b0, tot, o);
	if (!hl)
		return 0;
	gro_lone_bufs_slices(&bs->out[i], s, nb, p, b0, hl);
	bs->hl[i] = (uint8_t)hl;
	gro_lone_write(bs, i, pkt, p, tot, hl, gro_l3l4_word(14, o), 0, now, 0);
	*bytes += tot - hl;
	*rx += tot;
	return 2u - gro_group_enter(bs, i, gro_group_hash(o == 34 ? gro_addr_v4(p) : gro_addr_v6(p), ld32(p + o)),
	                            genhi);
}

/* The end of group_bufs_nb()'s loop, which gave the first i records nb
 * slices each from bs->msl[0] on, the slots' own no longer: bs->nmsl and
 * bs->mtop say so (not 0 and past them), and past the slots an earlier
 * burst's records gave slices when those were not given back (the loop
 * does not reset them: each of its records writes its own; the next
 * gro_group_gen() does).  Returns the new bs->mtop. */
static inline uint32_t bufs_top(struct gro_burst *bs, uint32_t nb, uint32_t i)
{
	uint32_t top = bs->nmsl && bs->mtop > i ? bs->mtop : i;
	bs->nmsl = nb * i | (top != 0);
	bs->mtop = top;
	return top;
}

/* gro_group_bufs() for frames of nb buffers (a constant): record i's
 * slices start at bs->msl[nb * i] (every frame before it took nb). */
static inline OFL_ALWAYS_INLINE int group_bufs_nb(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n,
                                                  uint64_t now, uint32_t nb)
{
	struct gro_burst *bs;
	const uint32_t want = gro_pkt_word_of((uint16_t)nb, OFL_CSUM_UNNECESSARY, 0);
	uint32_t bytes = 0, dup = 0;
	uint32_t rx = 0; /* (at most 256 frames of 0xffff bytes) */
	uint64_t genhi;
	/* more frames than have room for their slices as gro_lone_bufs_parse()
	 * sees it (bs->nmsl at most GRO_LONE_NSL - GRO_LONE_NB: 256 frames of
	 * 4 buffers): the burst goes to gro_group()'s loop */
	if (n > (GRO_LONE_NSL - GRO_LONE_NB) / nb + 1u)
		return -1;
	bs = g->bs;
	genhi = gro_group_gen(bs, 0);
	size_t i, ahead = n > GRO_AHEAD ? n - GRO_AHEAD : 0;
	for (i = 0; i < n; i++) {
		const struct ofl_pkt *pkt = &pkts[i];
		const struct ofl_buf *b = pkt->bufs;
		struct ofl_slice *s = &bs->msl[nb * i];
		const uint8_t *p;
		uint32_t b0, tot;
		uint64_t cut;
		unsigned r;
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
		cut = gro_lone_cut(b, s, nb) + b0;
		if (cut > 0xffffu) /* (UINT32_MAX too) */
			break;
		tot = (uint32_t)cut;
		/* the rest by IP version, the TCP header's offset a constant */
		if (ofl_plain_is_ip4(p))
			r = bufs_frame(bs, (unsigned)i, pkt, p, b0, tot, s, nb, 34, now, genhi, &bytes, &rx);
		else
			r = bufs_frame(bs, (unsigned)i, pkt, p, b0, tot, s, nb, 54, now, genhi, &bytes, &rx);
		if (!r)
			break;
		/* a few interleaved flows: give up early (as gro_group()) */
		if (r == 2 && GRO_GROUP_GIVES_UP(++dup, i)) {
			bufs_top(bs, nb, (uint32_t)i + 1);
			return 0;
		}
	}
	if (i == n) {
		uint32_t top = bufs_top(bs, nb, n);
		int ret = gro_group_end(g, n, dup, bytes, rx);
		bs->mtop = top; /* (gro_group_end() sets n) */
		return ret;
	}
	/* a frame of another shape: gro_group()'s loop takes the burst (and
	 * gives the slots back their own slices first) */
	bufs_top(bs, nb, (uint32_t)i);
	return -1;
}

int gro_group_bufs(struct ofl_gro *g, const struct ofl_pkt *pkts, unsigned n, uint64_t now)
{
	uint32_t nb = pkts[0].nbufs;
	if (nb <= g->cfg.max_bufs) {
		if (nb == 4)
			return group_bufs_nb(g, pkts, n, now, 4);
		if (nb == 2)
			return group_bufs_nb(g, pkts, n, now, 2);
		if (nb == 3)
			return group_bufs_nb(g, pkts, n, now, 3);
	}
	return -1;
}
