/* flowtab.c - see flowtab.h. */
#include "core/flowtab.h"

#include <stdint.h>

size_t ofl_flowtab_size(uint32_t max_entries, uint32_t *nslots)
{
	uint32_t n = 8;
	while (n < 2u * max_entries && n < (1u << 30))
		n <<= 1;
	*nslots = n;
	return (size_t)n * sizeof(uint64_t);
}

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void ofl_flowtab_init(struct ofl_flowtab *t, void *mem, uint32_t nslots, const uint64_t seed[2])
{
	uint64_t s = seed[0] ^ (seed[1] * 0x9e3779b97f4a7c15ull);
	unsigned i;
	t->slot = mem;
	t->mask = nslots - 1;
	t->count = 0;
	memset(mem, 0, (size_t)nslots * sizeof(uint64_t));
	for (i = 0; i <= OFL_KEY_WORDS; i++)
		t->k[i] = splitmix64(&s);
	t->k_zero47 = 0;
	for (i = 4; i < 8; i++)
		t->k_zero47 += (t->k[i] & 0xffffffffu) * (t->k[i] >> 32);
}

uint32_t ofl_flowtab_find_chain(const struct ofl_flowtab *t, uint32_t hash, const struct ofl_flow_key *key,
                                ofl_flowtab_key_fn keyof, void *ctx, uint64_t *probes)
{
	uint32_t i = hash & t->mask, n = 0;
	for (;;) {
		uint64_t e = t->slot[i];
		n++;
		if (e == 0)
			break;
		if ((uint32_t)(e >> 32) == hash && ofl_flow_key_eq(keyof(ctx, (uint32_t)e - 1), key)) {
			*probes += n;
			return (uint32_t)e - 1;
		}
		i = (i + 1) & t->mask;
	}
	*probes += n;
	return UINT32_MAX;
}

void ofl_flowtab_clear(struct ofl_flowtab *t)
{
	memset(t->slot, 0, ((size_t)t->mask + 1u) * sizeof(uint64_t));
	t->count = 0;
}

int ofl_flowtab_remove(struct ofl_flowtab *t, uint32_t hash, uint32_t value)
{
	uint32_t i = hash & t->mask, j;
	while ((uint32_t)t->slot[i] != value + 1u) {
		if (!t->slot[i])
			return -1;
		i = (i + 1) & t->mask;
	}
	/* Backward-shift deletion keeps every probe chain unbroken. */
	j = i;
	for (;;) {
		uint32_t home;
		j = (j + 1) & t->mask;
		if (!t->slot[j])
			break;
		home = (uint32_t)(t->slot[j] >> 32) & t->mask;
		/* Move j into the hole at i unless its home lies in (i, j]. */
		if (((j - home) & t->mask) >= ((j - i) & t->mask)) {
			t->slot[i] = t->slot[j];
			i = j;
		}
	}
	t->slot[i] = 0;
	t->count--;
	return 0;
}
