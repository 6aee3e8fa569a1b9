/*
 * pool.c - header buffer pools over caller-owned memory: a block cut into
 * slots (free slots chained through their own first bytes, so no side
 * table), a free list behind the caller's get/put callbacks, and the
 * caller's array of slots used in ring order.
 */
#include <stddef.h>
#include <string.h>

#include "gso/gso_int.h"

static void block_set_link(struct ofl_gso_pool *p, uint32_t i, uint32_t nx)
{
	memcpy(p->base + (size_t)i * p->slot_size, &nx, 4);
}

/* A pool of this kind and slot size, every other field 0 (the inits). */
static void pool_reset(struct ofl_gso_pool *pool, uint32_t kind, uint32_t slot_size)
{
	memset(pool, 0, sizeof(*pool));
	pool->kind = kind;
	pool->slot_size = slot_size;
}

/* A BLOCK or RING pool over [base, base + size): 0, or OFL_EINVAL with
 * the pool untouched. */
static int pool_cut(struct ofl_gso_pool *pool, uint32_t kind, void *base, size_t size, uint32_t slot_size)
{
	size_t n;
	if (!pool || !base || slot_size < GSO_MIN_SLOT)
		return OFL_EINVAL;
	n = size / slot_size;
	if (n == 0 || n > 0x7fffffffu)
		return OFL_EINVAL;
	pool_reset(pool, kind, slot_size);
	pool->nslots = pool->nfree = (uint32_t)n;
	pool->base = base;
	return 0;
}

int ofl_gso_pool_init_block(struct ofl_gso_pool *pool, void *base, size_t size, uint32_t slot_size)
{
	uint32_t i;
	int rc = pool_cut(pool, OFL_GSO_POOL_BLOCK, base, size, slot_size);
	if (rc != 0)
		return rc;
	for (i = 0; i < pool->nslots; i++)
		block_set_link(pool, i, i + 1 < pool->nslots ? i + 1 : GSO_BLOCK_END);
	return 0;
}

int ofl_gso_pool_init_ring(struct ofl_gso_pool *pool, void *base, size_t size, uint32_t slot_size)
{
	return pool_cut(pool, OFL_GSO_POOL_RING, base, size, slot_size);
}

int ofl_gso_pool_init_freelist(struct ofl_gso_pool *pool, uint32_t slot_size, ofl_gso_get_fn get,
                               ofl_gso_put_fn put, void *user)
{
	if (!pool || !get || !put || slot_size < GSO_MIN_SLOT)
		return OFL_EINVAL;
	pool_reset(pool, OFL_GSO_POOL_FREELIST, slot_size);
	pool->get = get;
	pool->put = put;
	pool->user = user;
	return 0;
}

int ofl_gso_pool_init_array(struct ofl_gso_pool *pool, const struct ofl_gso_hbuf *slots, uint32_t n)
{
	uint32_t i, min = UINT32_MAX;
	if (!pool || !slots || n == 0 || n > 0x7fffffffu)
		return OFL_EINVAL;
	for (i = 0; i < n; i++) {
		if (!slots[i].data)
			return OFL_EINVAL;
		if (slots[i].size < min)
			min = slots[i].size;
	}
	if (min < GSO_MIN_SLOT)
		return OFL_EINVAL;
	pool_reset(pool, OFL_GSO_POOL_ARRAY, min);
	pool->nslots = pool->nfree = n;
	pool->slots = slots;
	return 0;
}

int ofl_gso_pool_seek(struct ofl_gso_pool *pool, uint32_t index)
{
	if (!pool || pool->kind != OFL_GSO_POOL_ARRAY || index >= pool->nslots)
		return OFL_EINVAL;
	if (pool->nfree != pool->nslots)
		pool->seeked = 1;
	pool->head = index;
	return 0;
}

int ofl_gso_pool_get(struct ofl_gso_pool *pool, struct ofl_gso_hbuf *hb)
{
	if (!pool || !hb)
		return OFL_EINVAL;
	switch (pool->kind) {
	case OFL_GSO_POOL_BLOCK:
		return gso_block_get(pool, hb);
	case OFL_GSO_POOL_FREELIST:
		memset(hb, 0, sizeof(*hb));
		if (pool->get(pool->user, hb) != 0)
			return OFL_EAGAIN;
		if (!hb->data || hb->size < pool->slot_size) {
			pool->put(pool->user, hb);
			return OFL_EINVAL;
		}
		return 0;
	case OFL_GSO_POOL_ARRAY:
		if (pool->nfree == 0)
			return OFL_EAGAIN;
		*hb = pool->slots[pool->head];
		hb->index = pool->head;
		pool->head = pool->head + 1 == pool->nslots ? 0 : pool->head + 1;
		pool->nfree--;
		return 0;
	case OFL_GSO_POOL_RING:
		return gso_ring_get(pool, hb);
	default:
		return OFL_EINVAL;
	}
}

/* Where slot i of an ARRAY or RING pool starts. */
static const uint8_t *ordered_slot(const struct ofl_gso_pool *pool, uint32_t i)
{
	if (pool->kind == OFL_GSO_POOL_RING)
		return pool->base + (size_t)i * pool->slot_size;
	return pool->slots[i].data;
}

int ofl_gso_pool_put(struct ofl_gso_pool *pool, const struct ofl_gso_hbuf *hb)
{
	if (!pool || !hb)
		return OFL_EINVAL;
	if (pool->kind == OFL_GSO_POOL_BLOCK)
		return gso_block_put(pool, hb);
	switch (pool->kind) {
	case OFL_GSO_POOL_FREELIST:
		pool->put(pool->user, hb);
		return 0;
	case OFL_GSO_POOL_ARRAY:
	case OFL_GSO_POOL_RING: {
		/* slots in use: the nslots - nfree before head, oldest first */
		uint32_t used = pool->nslots - pool->nfree;
		uint32_t oldest = (pool->head + pool->nfree) % pool->nslots;
		uint32_t newest = pool->head ? pool->head - 1 : pool->nslots - 1;
		if (hb->index >= pool->nslots || used == 0 || hb->data != ordered_slot(pool, hb->index))
			return OFL_EINVAL;
		if (pool->seeked) {
			if (++pool->nfree == pool->nslots)
				pool->seeked = 0;
			return 0;
		}
		if (hb->index == oldest) {
			pool->nfree++;          /* sent: the ring's tail moves on */
		} else if (hb->index == newest) {
			pool->head = newest;    /* taken back (unnext): handed out again next */
			pool->nfree++;
		} else {
			return OFL_EINVAL;
		}
		return 0;
	}
	default:
		return OFL_EINVAL;
	}
}

/* Are the m slots hb consecutive slots of the block, the first at d with
 * index x, each next one dstep bytes and xstep slots on (data and index
 * compared; the slot size is not checked, as in gso_block_put())? */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \
	UINTPTR_MAX == UINT64_MAX
typedef uint64_t pool_v2 __attribute__((vector_size(16)));
_Static_assert(offsetof(struct ofl_gso_hbuf, data) == 0 && offsetof(struct ofl_gso_hbuf, size) == 8 &&
                       offsetof(struct ofl_gso_hbuf, index) == 12,
               "block_consecutive() reads data, size and index as 16 bytes");
static int block_consecutive(const struct ofl_gso_hbuf *hb, unsigned m, const uint8_t *d, uint32_t x,
                             uint64_t dstep, uint32_t xstep)
{
	/* four slots a step: their first 16 bytes (data; size, index) against
	 * the expected ones, the differences or-ed together */
	const pool_v2 one = { dstep, (uint64_t)xstep << 32 }, two = one + one, four = two + two;
	const struct ofl_gso_hbuf *const quads = hb + (m & ~3u), *const end = hb + m;
	pool_v2 e0 = { (uint64_t)(uintptr_t)d, (uint64_t)x << 32 }, e1 = e0 + one, e2 = e0 + two, e3 = e1 + two;
	pool_v2 acc = { 0, 0 }, v0, v1, v2, v3;
	for (; hb != quads; hb += 4) {
		memcpy(&v0, hb, 16);
		memcpy(&v1, hb + 1, 16);
		memcpy(&v2, hb + 2, 16);
		memcpy(&v3, hb + 3, 16);
		acc |= (v0 ^ e0) | (v1 ^ e1) | (v2 ^ e2) | (v3 ^ e3);
		e0 += four;
		e1 += four;
		e2 += four;
		e3 += four;
	}
	for (; hb != end; hb++) {
		memcpy(&v0, hb, 16);
		acc |= v0 ^ e0;
		e0 += one;
	}
	return (acc[0] | (acc[1] >> 32)) == 0;
}
#else
static int block_consecutive(const struct ofl_gso_hbuf *hb, unsigned m, const uint8_t *d, uint32_t x,
                             uint64_t dstep, uint32_t xstep)
{
	uintptr_t acc = 0, e = (uintptr_t)d;
	unsigned i;
	for (i = 0; i < m; i++, e += (uintptr_t)dstep, x += xstep)
		acc |= ((uintptr_t)hb[i].data ^ e) | (hb[i].index ^ x);
	return acc == 0;
}
#endif

/* Fewer slots than this go back by the loop of ofl_gso_pool_put_burst():
 * the up-front check costs more than it saves (callgrind, bench/instr.sh:
 * 7 slots, the 9000-byte rows, were 3 instructions a segment dearer). */
#define GSO_PUT_RUN_MIN 16u

/* ofl_gso_pool_put_burst()'s common case on a BLOCK pool: m >= 2 slots
 * (no more than are in use) that are consecutive, x0, x0 + 1, ... or x0,
 * x0 - 1, ..., each at its slot start (how a burst's slots come back when
 * they were handed out in order): all checked first, then each slot's
 * link is the one put before it, stepped, with no check or load per slot.
 * The same free list as one put each.  0: not such slots, nothing done. */
static int block_put_run(struct ofl_gso_pool *pool, const struct ofl_gso_hbuf *hbs, unsigned m)
{
	const uint32_t x0 = hbs[0].index, ns = pool->nslots, slot = pool->slot_size, n1 = m - 1u;
	const uint32_t up = hbs[1].index == x0 + 1u;
	const uint32_t xs = up ? 1u : UINT32_MAX;
	/* (m >= 2 slots fit the block, so a slot's size fits ptrdiff_t) */
	const ptrdiff_t ds = up ? (ptrdiff_t)slot : -(ptrdiff_t)slot;
	uint8_t *d;
	uint32_t x, i;
	if (x0 >= ns || (!up && hbs[1].index != x0 - 1u) || (up ? ns - 1u - x0 < n1 : x0 < n1))
		return 0;
	d = pool->base + (size_t)x0 * slot;
	if (!block_consecutive(hbs, m, d, x0, (uint64_t)(int64_t)ds, xs))
		return 0;
	memcpy(d, &pool->head, 4);
	x = x0;
	for (i = n1 >> 2; i; i--) { /* four a step */
		const uint32_t x1 = x + xs, x2 = x1 + xs, x3 = x2 + xs;
		memcpy(d + ds, &x, 4);
		memcpy(d + 2 * ds, &x1, 4);
		memcpy(d + 3 * ds, &x2, 4);
		memcpy(d + 4 * ds, &x3, 4);
		d += 4 * ds;
		x = x3 + xs;
	}
	for (i = n1 & 3u; i; i--) {
		memcpy(d + ds, &x, 4);
		d += ds;
		x += xs;
	}
	pool->head = x;
	pool->nfree += m;
	return 1;
}

int ofl_gso_pool_put_burst(struct ofl_gso_pool *pool, const struct ofl_gso_hbuf *hbs, unsigned n)
{
	unsigned i;
	if (!pool || (!hbs && n))
		return OFL_EINVAL;
	if (n == 0)
		return 0; /* (hbs may be NULL: no pointer arithmetic on it) */
	if (pool->kind == OFL_GSO_POOL_BLOCK) {
		/* gso_block_put() with the list head in a register; "no more puts
		 * than slots in use" bounds the loop instead of a test per slot */
		uint8_t *const base = pool->base;
		const uint32_t slot = pool->slot_size, ns = pool->nslots;
		const unsigned used = pool->nfree < ns ? ns - pool->nfree : 0u;
		const unsigned m = n < used ? n : used;
		const struct ofl_gso_hbuf *hb = hbs, *const end = hbs + m, *const pairs = hbs + (m & ~1u);
		uint32_t head;
		if (m >= GSO_PUT_RUN_MIN && block_put_run(pool, hbs, m))
			return (int)m;
		head = pool->head;
		/* two slots a step (half the loop's bookkeeping); a pair that
		 * fails a check is left to the loop below, which stops at the
		 * first bad slot */
		for (; hb != pairs; hb += 2) {
			const uint32_t x0 = hb[0].index, x1 = hb[1].index;
			uint8_t *d0 = hb[0].data, *d1 = hb[1].data;
			if (x0 >= ns || x1 >= ns || d0 != base + (size_t)x0 * slot || d1 != base + (size_t)x1 * slot)
				break;
			memcpy(d0, &head, 4);
			memcpy(d1, &x0, 4);
			head = x1;
		}
		for (; hb != end; hb++) {
			const uint32_t x = hb->index;
			uint8_t *d = hb->data;
			if (x >= ns || d != base + (size_t)x * slot)
				break;
			memcpy(d, &head, 4);
			head = x;
		}
		i = (unsigned)(hb - hbs);
		pool->head = head;
		pool->nfree += i;
		return (int)i;
	}
	for (i = 0; i < n; i++)
		if (ofl_gso_pool_put(pool, &hbs[i]) != 0)
			break;
	return (int)i;
}

int ofl_gso_pool_put_oldest(struct ofl_gso_pool *pool, uint32_t n)
{
	if (!pool || (pool->kind != OFL_GSO_POOL_ARRAY && pool->kind != OFL_GSO_POOL_RING) ||
	    n > pool->nslots - pool->nfree)
		return OFL_EINVAL;
	pool->nfree += n;
	if (pool->nfree == pool->nslots)
		pool->seeked = 0; /* nothing in use: the ring order holds again */
	return 0;
}

int gso_pool_unget(struct ofl_gso_pool *pool, const struct ofl_gso_hbuf *hb)
{
	/* An ARRAY or RING pool with one slot in use cannot tell "sent" from
	 * "taken back" in ofl_gso_pool_put(); the library knows it takes the
	 * newest back, so the slot is handed out again next as documented. */
	if (pool && hb && (pool->kind == OFL_GSO_POOL_ARRAY || pool->kind == OFL_GSO_POOL_RING) &&
	    !pool->seeked && pool->nfree < pool->nslots && hb->index < pool->nslots &&
	    hb->data == ordered_slot(pool, hb->index) &&
	    hb->index == (pool->head ? pool->head - 1 : pool->nslots - 1)) {
		pool->head = hb->index;
		pool->nfree++;
		return 0;
	}
	return ofl_gso_pool_put(pool, hb);
}

uint32_t ofl_gso_pool_avail(const struct ofl_gso_pool *pool)
{
	if (!pool)
		return 0;
	if (pool->kind == OFL_GSO_POOL_FREELIST)
		return UINT32_MAX;
	return pool->nfree;
}

uint32_t ofl_gso_pool_slot_size(const struct ofl_gso_pool *pool)
{
	return pool ? pool->slot_size : 0;
}
