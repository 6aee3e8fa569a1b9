/* ipwalk.c - see ipwalk.h. */
#include "ipwalk.h"

#include <string.h>

static uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

static bool walk4(const uint8_t *f, size_t len, struct ipwalk *w)
{
	size_t off = w->l3_off, ihl, tot;
	uint16_t fo;
	if (off + 20 > len)
		return false;
	ihl = (f[off] & 0xfu) * 4u;
	tot = be16(f + off + 2);
	if (tot == 0)
		tot = len - off;
	if (ihl < 20 || off + tot > len || tot < ihl)
		return false;
	w->l3 = 4;
	w->proto = f[off + 9];
	fo = be16(f + off + 6);
	w->frag = (fo & 0x3fff) != 0;
	w->frag_off = (uint32_t)(fo & 0x1fff) * 8u;
	w->more = (fo & 0x2000) != 0;
	w->frag_id = be16(f + off + 4);
	w->l4_off = off + ihl;
	w->end = off + tot;
	return true;
}

static bool walk6(const uint8_t *f, size_t len, struct ipwalk *w)
{
	size_t off = w->l3_off, pl, l4;
	uint8_t nh;
	if (off + 40 > len)
		return false;
	pl = be16(f + off + 4);
	if (pl == 0)
		pl = len - off - 40;
	if (off + 40 + pl > len)
		return false;
	w->l3 = 6;
	w->end = off + 40 + pl;
	nh = f[off + 6];
	l4 = off + 40;
	while (nh == 0 || nh == 43 || nh == 60 || nh == 44) {
		size_t el = nh == 44 ? 8u : 0;
		if (l4 + 8 > w->end)
			return false;
		if (nh == 44) {
			uint16_t x = be16(f + l4 + 2);
			w->frag = true;
			w->frag_off = x & 0xfff8u;
			w->more = x & 1;
			w->frag_id = (uint32_t)be16(f + l4 + 4) << 16 | be16(f + l4 + 6);
		} else {
			el = (f[l4 + 1] + 1u) * 8u;
		}
		if (l4 + el > w->end)
			return false;
		nh = f[l4];
		l4 += el;
	}
	w->proto = nh;
	w->l4_off = l4;
	return true;
}

bool ipwalk(const uint8_t *f, size_t len, struct ipwalk *w)
{
	size_t off = 12;
	uint16_t et;
	memset(w, 0, sizeof(*w));
	while (off + 4 <= len && (be16(f + off) == 0x8100 || be16(f + off) == 0x88a8)) {
		w->nvlan++;
		off += 4;
	}
	if (off + 2 > len)
		return false;
	et = be16(f + off);
	w->l3_off = off + 2;
	if (et == 0x0800)
		return walk4(f, len, w);
	if (et == 0x86dd)
		return walk6(f, len, w);
	return false;
}
