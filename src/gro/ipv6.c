/* ipv6.c - IPv6 completion (ipv6_gro_complete): payload length, 0 above
 * 65535 as Linux BIG TCP writes it. */
#include "gro/gro_int.h"

void gro_ipv6_complete(struct gro_item *it)
{
	uint32_t pl = it->l3_len - 40u;
	ofl_put16(it->hdr + it->l3_off + 4, (uint16_t)(pl > 0xffffu ? 0 : pl));
}
