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
 * protocol, ports, IPv6 flow label and extension headers). */
struct ofl_flow_key {
	uint8_t mac[12];
	uint16_t vlan[2];     /* in-band TCIs */
	uint16_t hw_vlan;     /* hardware-stripped TCI */
	uint8_t l2flags;      /* bit0 hw vlan, bits1-2 nvlan, bit3/4 tag i is 802.1ad */
	uint8_t l3;           /* 4 or 6 */
	uint8_t addr[32];     /* IPv4: saddr, daddr in the first 8 bytes */
	uint8_t ports[4];     /* sport, dport as on the wire */
	uint32_t v6_label;    /* IPv6 version + flow label word (& 0xF00FFFFF) */
	uint32_t v6_ext;      /* IPv6 extension bytes: length << 24 ^ their sum */
	uint32_t tag;         /* DSA switch id and port, 0 without a tag format */
	uint32_t pad;
};

_Static_assert(sizeof(struct ofl_flow_key) == OFL_KEY_WORDS * 8, "flow key size");

struct ofl_flowtab {
	uint32_t *slot;       /* value + 1, 0 = empty */
	uint32_t *slot_hash;
	uint32_t mask;
	uint32_t count;
	uint64_t k[OFL_KEY_WORDS + 1]; /* hash key */
};

/* Bytes the table needs for at most max_entries entries. */
size_t ofl_flowtab_size(uint32_t max_entries, uint32_t *nslots);
/* mem: ofl_flowtab_size() bytes; key: two words of seed (expanded). */
void ofl_flowtab_init(struct ofl_flowtab *t, void *mem, uint32_t nslots, const uint64_t seed[2]);

static inline uint32_t ofl_flow_hash(const struct ofl_flowtab *t, const struct ofl_flow_key *key)
{
	/* NH (UMAC's universal hash): sum of (w_lo + k_lo) * (w_hi + k_hi)
	 * over the key words, independent multiplies that pipeline. */
	uint64_t w[OFL_KEY_WORDS], acc = t->k[OFL_KEY_WORDS];
	unsigned i;
	memcpy(w, key, sizeof(w));
	for (i = 0; i < OFL_KEY_WORDS; i++) {
		uint64_t x = w[i] + t->k[i];
		acc += (x & 0xffffffffu) * (x >> 32);
	}
	acc ^= acc >> 29;
	acc *= 0xbf58476d1ce4e5b9ull;
	return (uint32_t)(acc >> 32);
}

static inline int ofl_flow_key_eq(const struct ofl_flow_key *a, const struct ofl_flow_key *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

/* Callback giving the key of an entry, for comparison during lookup. */
typedef const struct ofl_flow_key *(*ofl_flowtab_key_fn)(void *ctx, uint32_t value);

/* Find key: returns value or UINT32_MAX; *probes += slots inspected. */
uint32_t ofl_flowtab_find(const struct ofl_flowtab *t, uint32_t hash, const struct ofl_flow_key *key,
                          ofl_flowtab_key_fn keyof, void *ctx, uint64_t *probes);
/* Insert (key must not be present; table must not be full). */
void ofl_flowtab_insert(struct ofl_flowtab *t, uint32_t hash, uint32_t value);
/* Remove value stored under hash. Returns 0, or -1 if absent. */
int ofl_flowtab_remove(struct ofl_flowtab *t, uint32_t hash, uint32_t value);

#endif
