/*
 * outdigest.h - what a GRO context delivered, folded into one digest (an
 * FNV-1a style hash): every field of each packet, its header bytes, its
 * payload slices (bytes, packet and buffer index) and cookies, list by
 * list, with the counts.  Two contexts fed the same frames in different
 * ways (bursts, single frames) must end with equal digests.
 */
#ifndef OFL_TEST_OUTDIGEST_H
#define OFL_TEST_OUTDIGEST_H

#include <stddef.h>
#include <stdint.h>

#include <ofl/gro.h>

struct seen {
	uint64_t h;
	unsigned lists, pkts, segs, ecn; /* ecn: merged packets with OFL_GSO_TCP_ECN */
};

static inline void seen_mix(struct seen *s, const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t k;
	for (k = 0; k < n; k++)
		s->h = (s->h ^ b[k]) * 0x100000001b3ull;
}

/* One delivered packet into the digest. */
static inline void seen_one(struct seen *s, const struct ofl_gro_out *o)
{
	uint64_t f[] = {o->len,     o->seg_count, o->seg_size,   o->flags,     o->hdr_len,     o->ncookies,
	                o->nslices, o->l3_off,    o->l4_off,     o->csum_start, o->csum_offset, o->gso_type,
	                o->vlan_tci, o->rx_hash,  o->first_ns};
	const struct ofl_slice *sl = o->slices, *end = o->slices + o->nslices;
	seen_mix(s, f, sizeof f);
	if (o->hdr_len)
		seen_mix(s, o->hdr, o->hdr_len);
	for (; sl < end; sl++) {
		seen_mix(s, sl->data, sl->len);
		seen_mix(s, &sl->pkt, sizeof sl->pkt);
		seen_mix(s, &sl->buf, sizeof sl->buf);
	}
	seen_mix(s, o->cookies, o->ncookies * sizeof o->cookies[0]);
	s->segs += o->seg_count;
	s->ecn += (o->gso_type & OFL_GSO_TCP_ECN) != 0;
}

/* A deliver callback (ofl_gro_deliver_fn): a list of n into the digest
 * (user: a struct seen). */
static inline void seen_deliver(void *user, const struct ofl_gro_out *p, unsigned n)
{
	struct seen *s = user;
	const struct ofl_gro_out *o;
	s->lists++;
	s->pkts += n;
	seen_mix(s, &n, sizeof n);
	for (o = p; o < p + n; o++)
		seen_one(s, o);
}

#endif
