/* conserve.c - an independent minimal parser used to check conservation. */
#include "conserve.h"

#include <string.h>

static uint16_t g16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

static bool parse_any(const uint8_t *f, size_t len, struct c_flow *cf, bool udp_too);

bool c_parse(const uint8_t *f, size_t len, struct c_flow *cf)
{
	return parse_any(f, len, cf, false);
}

bool c_parse_l4(const uint8_t *f, size_t len, struct c_flow *cf)
{
	return parse_any(f, len, cf, true);
}

static bool parse_any(const uint8_t *f, size_t len, struct c_flow *cf, bool udp_too)
{
	size_t off = 12, l4, iplen, nv = 0;
	uint8_t proto;
	memset(cf, 0, sizeof(*cf));
	if (len >= 12)
		memcpy(cf->key + 37, f, 12);
	while (off + 4 <= len && (g16(f + off) == 0x8100 || g16(f + off) == 0x88a8)) {
		if (nv < 3)
			memcpy(cf->key + 49 + 2 * nv, f + off + 2, 2);
		nv++;
		off += 4;
	}
	cf->key[56] = (uint8_t)nv;
	if (off + 2 > len)
		return false;
	if (g16(f + off) == 0x0800) {
		size_t ihl;
		off += 2;
		if (off + 20 > len)
			return false;
		ihl = (f[off] & 0xfu) * 4u;
		iplen = g16(f + off + 2);
		if (iplen == 0)
			iplen = len - off;
		proto = f[off + 9];
		cf->key[0] = 4;
		memcpy(cf->key + 1, f + off + 12, 8);
		if (ihl < 20 || off + iplen > len || iplen < ihl)
			return false;
		if (g16(f + off + 6) & 0x3fff)
			return false; /* fragment */
		l4 = off + ihl;
		iplen -= ihl;
	} else if (g16(f + off) == 0x86dd) {
		off += 2;
		if (off + 40 > len)
			return false;
		iplen = g16(f + off + 4);
		if (iplen == 0)
			iplen = len - off - 40;
		proto = f[off + 6];
		cf->key[0] = 6;
		memcpy(cf->key + 1, f + off + 8, 32);
		l4 = off + 40;
		if (l4 + iplen > len)
			return false;
		while (proto == 0 || proto == 43 || proto == 60) {
			size_t el;
			if (iplen < 8)
				return false;
			el = (f[l4 + 1] + 1u) * 8u;
			if (el > iplen)
				return false;
			proto = f[l4];
			l4 += el;
			iplen -= el;
		}
	} else {
		return false;
	}
	if (udp_too && proto == 17 && iplen >= 8) {
		memcpy(cf->key + 33, f + l4, 4);
		cf->key[57] = 17;
		cf->udp = true;
		cf->payload_off = l4 + 8;
		cf->payload_len = iplen - 8;
		return true;
	}
	if (proto != 6 || iplen < 20)
		return false;
	memcpy(cf->key + 33, f + l4, 4);
	{
		size_t thl = (f[l4 + 12] >> 4) * 4u;
		if (thl < 20 || thl > iplen)
			return false;
		cf->tcp = true;
		cf->seq = (uint32_t)g16(f + l4 + 4) << 16 | g16(f + l4 + 6);
		cf->payload_off = l4 + thl;
		cf->payload_len = iplen - thl;
	}
	return true;
}
