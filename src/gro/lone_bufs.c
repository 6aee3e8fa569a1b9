/*
 * lone_bufs.c - lone records of frames in several buffers (lone_bufs.h):
 * the slots given back their constant fields, the buffers of a record
 * rebuilt when it is settled into an entry.
 */
#include "gro/lone_bufs.h"

void gro_lone_bufs_reset(struct gro_burst *bs)
{
	uint32_t k, n = bs->mtop;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 4
#endif
	for (k = 0; k < n; k++) {
		bs->out[k].slices = &bs->sl[k];
		bs->out[k].nslices = 1;
	}
	bs->mtop = 0;
	bs->nmsl = 0;
}

uint32_t gro_lone_bufs_of(const struct ofl_gro_out *o, struct ofl_pkt *pkt, struct ofl_buf *b)
{
	const struct ofl_slice *s = o->slices;
	uint32_t k = 0, nb = 1;
	/* the first buffer: the header, then the payload's first slice when
	 * it is that buffer's rest; each later buffer one slice (none was
	 * empty: gro_lone_bufs_parse()) */
	b[0].data = o->hdr;
	b[0].len = o->hdr_len;
	if (s[0].buf == 0)
		b[0].len += s[k++].len;
	for (; k < o->nslices; k++) {
		b[nb].data = s[k].data;
		b[nb].len = s[k].len;
		nb++;
	}
	pkt->bufs = b;
	pkt->nbufs = (uint16_t)nb;
	return b[0].len;
}
