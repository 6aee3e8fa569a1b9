/* conserve.c - an independent minimal parser used to check conservation. */
#include "conserve.h"
#include "ipwalk.h"

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
	struct ipwalk w;
	size_t l4, iplen, i;
	uint8_t proto;
	memset(cf, 0, sizeof(*cf));
	if (!ipwalk(f, len, &w) || w.frag)
		return false;
	memcpy(cf->key + 37, f, 12);
	for (i = 0; i < w.nvlan && i < 3; i++)
		memcpy(cf->key + 49 + 2 * i, f + 14 + 4 * i, 2);
	cf->key[56] = (uint8_t)w.nvlan;
	cf->key[0] = (uint8_t)w.l3;
	if (w.l3 == 4)
		memcpy(cf->key + 1, f + w.l3_off + 12, 8);
	else
		memcpy(cf->key + 1, f + w.l3_off + 8, 32);
	proto = w.proto;
	l4 = w.l4_off;
	iplen = w.end - l4;
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
