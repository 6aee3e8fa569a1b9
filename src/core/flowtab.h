/*
 * flowtab.h - the bounded flow table: a keyed hash (per-context random key,
 * so a remote sender cannot aim collisions) over a fixed-size flow key, and
 * open addressing with linear probing in a power-of-two array at most half
 * full.  Values are small integers (the caller's entry indexes).
 */
#ifndef OFL_CORE_FLOWTAB_H
#define OFL_CORE_FLOWTAB_H

#include <ofl/ofl.h>
#include <string.h>

#define OFL_KEY_WORDS 9

/* Flow identity: everything that must be equal for two packets to be the
 * same flow (Linux: hash, device, VLAN, full MAC header, addresses,
 * protocol, ports, IPv6 flow label and extension headers), packed into
 * words that are built in registers and compared as words:
 *   w[0]   MAC bytes 0-7
 *   w[1]   MAC bytes 8-11 | hardware VLAN TCI << 32 | L2 flags << 48 |
 *          UDP (bit 55, gro/udp.h) | L3 << 56
 *   w[2]   in-band VLAN TCIs (2 x 16 bits) | TCP or UDP ports << 32
 *   w[3-6] addresses (IPv4: source and destination in w[3])
 *   w[7]   IPv6 version/flow-label word | extension-header digest << 32
 *   w[8]   DSA switch id and port (0 without a tag format) */
struct ofl_flow_key {
	uint64_t w[OFL_KEY_WORDS];
};

_Static_assert(sizeof(struct ofl_flow_key) == OFL_KEY_WORDS * 8, "flow key size");

struct ofl_flowtab {
	uint64_t *slot;       /* hash << 32 | (value + 1); 0 = empty: one load
	                         tells both whether a slot matches and what it holds */
	uint32_t mask;
	uint32_t count;
	uint64_t k[OFL_KEY_WORDS + 1]; /* hash key */
	uint64_t k_zero47;    /* what key words 4-7 add to the hash when they
	                         are 0 (every IPv4 key) */
};

/* Bytes the table needs for at most max_entries entries. */
size_t ofl_flowtab_size(uint32_t max_entries, uint32_t *nslots);
/* mem: ofl_flowtab_size() bytes; key: two words of seed (expanded). */
void ofl_flowtab_init(struct ofl_flowtab *t, void *mem, uint32_t nslots, const uint64_t seed[2]);

static inline uint32_t ofl_flow_hash(const struct ofl_flowtab *t, const struct ofl_flow_key *key)
{
	/* NH (UMAC's universal hash): sum of (w_lo + k_lo) * (w_hi + k_hi)
	 * over the key words, independent multiplies that pipeline. */
	uint64_t acc = t->k[OFL_KEY_WORDS];
	unsigned i;
	for (i = 0; i < OFL_KEY_WORDS; i++) {
		uint64_t x = key->w[i] + t->k[i];
		acc += (x & 0xffffffffu) * (x >> 32);
	}
	acc ^= acc >> 29;
	acc *= 0xbf58476d1ce4e5b9ull;
	return (uint32_t)(acc >> 32);
}

/* The same value as ofl_flow_hash() for a key whose words 4-7 are 0 (IPv4:
 * the addresses fit in word 3), with their terms taken from k_zero47. */
static inline uint32_t ofl_flow_hash_v4(const struct ofl_flowtab *t, const struct ofl_flow_key *key)
{
	uint64_t acc = t->k[OFL_KEY_WORDS] + t->k_zero47;
#define NH_TERM(i) ((((key->w[i] + t->k[i]) & 0xffffffffu) * ((key->w[i] + t->k[i]) >> 32)))
	acc += NH_TERM(0) + NH_TERM(1) + NH_TERM(2) + NH_TERM(3) + NH_TERM(8);
#undef NH_TERM
	acc ^= acc >> 29;
	acc *= 0xbf58476d1ce4e5b9ull;
	return (uint32_t)(acc >> 32);
}

/* The key's hash: ofl_flow_hash_v4() when v4 is not 0 (an IPv4 key),
 * else ofl_flow_hash(); the same value either way. */
static inline uint32_t ofl_flow_hash_ip(const struct ofl_flowtab *t, const struct ofl_flow_key *key, int v4)
{
	return v4 ? ofl_flow_hash_v4(t, key) : ofl_flow_hash(t, key);
}

static inline int ofl_flow_key_eq(const struct ofl_flow_key *a, const struct ofl_flow_key *b)
{
	/* 64-bit loads on purpose: the new packet's key was just written
	 * with 64-bit stores, and the 16-byte loads a vectorised compare uses
	 * cannot be forwarded from them (the bench profile showed 40 % of the
	 * lookup waiting on the first such load).  volatile keeps each load
	 * separate and 8 bytes wide. */
	const volatile uint64_t *x = a->w, *y = b->w;
	uint64_t d = (x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2]);
	d |= (x[3] ^ y[3]) | (x[4] ^ y[4]) | (x[5] ^ y[5]);
	d |= (x[6] ^ y[6]) | (x[7] ^ y[7]) | (x[8] ^ y[8]);
	_Static_assert(OFL_KEY_WORDS == 9, "unrolled for 9 words");
	return d == 0;
}

/* Copy a key that was just built: 8-byte loads, which the CPU can forward
 * from the 8-byte stores that wrote it (a struct copy's 16-byte loads
 * cannot, and stall). */
static inline void ofl_flow_key_copy(struct ofl_flow_key *dst, const struct ofl_flow_key *src)
{
	const volatile uint64_t *x = src->w;
	uint64_t *y = dst->w;
	y[0] = x[0], y[1] = x[1], y[2] = x[2], y[3] = x[3], y[4] = x[4];
	y[5] = x[5], y[6] = x[6], y[7] = x[7], y[8] = x[8];
	_Static_assert(OFL_KEY_WORDS == 9, "unrolled for 9 words");
}

/* Callback giving the key of an entry, for comparison during lookup. */
typedef const struct ofl_flow_key *(*ofl_flowtab_key_fn)(void *ctx, uint32_t value);

/* ofl_flowtab_find() past its first look: the probe from the home slot
 * hash & mask, which the caller found not empty (flowtab.c). */
uint32_t ofl_flowtab_find_chain(const struct ofl_flowtab *t, uint32_t hash, const struct ofl_flow_key *key,
                                ofl_flowtab_key_fn keyof, void *ctx, uint64_t *probes);

/* Find key: returns value or UINT32_MAX; *probes += slots inspected.  A
 * new flow's home slot is mostly empty (the table is at most half full):
 * that miss is told here, without a call. */
static inline uint32_t ofl_flowtab_find(const struct ofl_flowtab *t, uint32_t hash, const struct ofl_flow_key *key,
                                        ofl_flowtab_key_fn keyof, void *ctx, uint64_t *probes)
{
	if (t->slot[hash & t->mask] == 0) {
		*probes += 1;
		return UINT32_MAX;
	}
	return ofl_flowtab_find_chain(t, hash, key, keyof, ctx, probes);
}

/* Insert (key must not be present; table must not be full). */
static inline void ofl_flowtab_insert(struct ofl_flowtab *t, uint32_t hash, uint32_t value)
{
	uint32_t i = hash & t->mask;
	while (t->slot[i])
		i = (i + 1) & t->mask;
	t->slot[i] = (uint64_t)hash << 32 | (value + 1u);
	t->count++;
}
/* Remove every entry. */
void ofl_flowtab_clear(struct ofl_flowtab *t);
/* Remove value stored under hash. Returns 0, or -1 if absent. */
int ofl_flowtab_remove(struct ofl_flowtab *t, uint32_t hash, uint32_t value);
/* Remove value stored under hash from a table that every value is leaving
 * (one after the other, nothing looked up or inserted until the last has
 * left): its slot emptied, nothing moved.  The chains of the values still
 * in it may have holes then, so a value is looked for past empty slots, at
 * most once round the table.  Cheaper than ofl_flowtab_remove() by the
 * backward shift. */
static inline void ofl_flowtab_drop(struct ofl_flowtab *t, uint32_t hash, uint32_t value)
{
	uint32_t i = hash & t->mask, n;
	for (n = 0; n <= t->mask; n++, i = (i + 1) & t->mask) {
		if ((uint32_t)t->slot[i] == value + 1u) {
			t->slot[i] = 0;
			t->count--;
			return;
		}
	}
}

#endif
