/* output.c - copy a delivered packet into one buffer, finishing the L4
 * checksum when asked (for TUN devices, pcap files, tests). */
#include <ofl/csum.h>

#include "core/cursor.h"
#include "gro/gro_int.h"

/* Through a UDP tunnel with an outer checksum: that one too, over the
 * completed inner packet (the kernel's GSO computes it per segment). */
static void tun_outer_csum(const struct ofl_gro_out *o, uint8_t *d, size_t pos)
{
	struct ofl_gro_tunnel t;
	uint32_t ulen;
	uint16_t c;
	if (ofl_gro_out_tunnel(o, &t) != 1 || !t.outer_udp_csum || t.outer_l4_off + 8u > pos)
		return;
	ulen = (uint32_t)(pos - t.outer_l4_off);
	d[t.outer_l4_off + 6] = d[t.outer_l4_off + 7] = 0;
	c = ofl_csum_fold(ofl_csum_partial(d + t.outer_l4_off, ulen,
	                                   gro_pseudo_sum(d, t.outer_l3, t.outer_l3_off, ulen, 17)));
	if (c == 0)
		c = 0xffff;
	memcpy(d + t.outer_l4_off + 6, &c, 2);
}

int ofl_gro_linearize(const struct ofl_gro_out *o, void *buf, size_t cap,
                      enum ofl_csum_mode mode)
{
	uint8_t *d = buf;
	struct ofl_hcursor h;
	size_t pos;
	if (!o || (!buf && o->len) || o->len > (uint32_t)0x7fffffff ||
	    (mode != OFL_CSUM_MODE_FULL && mode != OFL_CSUM_MODE_PARTIAL))
		return OFL_EINVAL;
	if (cap < o->len)
		return OFL_ENOSPC;
	/* the header and the slices, never more than cap bytes */
	h = ofl_hcur(o->hdr, o->hdr_len, ofl_cur_slices(o->slices, o->nslices, 0), 0);
	pos = ofl_hcur_copy(&h, cap < UINT32_MAX ? (uint32_t)cap : UINT32_MAX, d);
	if (mode == OFL_CSUM_MODE_FULL && (o->flags & OFL_GRO_OUT_F_CSUM_PARTIAL) &&
	    o->csum_start + o->csum_offset + 2u <= pos) {
		/* The field holds the pseudo-header sum: sum over it and the rest. */
		uint16_t c = ofl_csum_fold(ofl_csum_partial(d + o->csum_start, pos - o->csum_start, 0));
		if (c == 0 && o->csum_offset == 6)
			c = 0xffff; /* UDP (its checksum field is at 6): a computed 0 is sent as all ones */
		memcpy(d + o->csum_start + o->csum_offset, &c, 2);
		if (OFL_GRO_OUT_TUN_TYPE(o->flags))
			tun_outer_csum(o, d, pos);
	}
	return (int)pos;
}
