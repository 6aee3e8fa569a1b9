/* gso_check.c - the Check assertions the GSO tests share (see gso_util.h);
 * apart from gso_util.c, which mkgso (tests/gso/make-fixtures.sh) builds
 * without Check. */
#include <check.h>

#include "gso_util.h"

void gu_segs_same(const struct gu_segs *a, const struct gu_segs *b)
{
	unsigned k;
	ck_assert_uint_eq(a->n, b->n);
	for (k = 0; k < a->n; k++) {
		ck_assert_uint_eq(a->len[k], b->len[k]);
		ck_assert_mem_eq(a->frame[k], b->frame[k], a->len[k]);
	}
}

void gu_seg_layout_same(const struct ofl_gso_seg *a, const struct ofl_gso_seg *b)
{
	ck_assert_uint_eq(a->hdr_len, b->hdr_len);
	ck_assert_uint_eq(a->l3_off, b->l3_off);
	ck_assert_uint_eq(a->l4_off, b->l4_off);
	ck_assert_uint_eq(a->csum_start, b->csum_start);
	ck_assert_uint_eq(a->csum_offset, b->csum_offset);
	ck_assert_uint_eq(a->flags, b->flags);
}

void gu_seg_same_but_slot(const struct ofl_gso_seg *a, const struct ofl_gso_seg *b)
{
	unsigned j;
	gu_seg_layout_same(a, b);
	ck_assert_uint_eq(a->nslices, b->nslices);
	ck_assert_uint_eq(a->payload_len, b->payload_len);
	for (j = 0; j < a->nslices; j++) {
		ck_assert_ptr_eq(a->slices[j].data, b->slices[j].data);
		ck_assert_uint_eq(a->slices[j].len, b->slices[j].len);
		ck_assert_uint_eq(a->slices[j].pkt, b->slices[j].pkt);
		ck_assert_uint_eq(a->slices[j].buf, b->slices[j].buf);
	}
	ck_assert_uint_eq(a->len, b->len);
	ck_assert_uint_eq(a->index, b->index);
	ck_assert_uint_eq(a->nsegs, b->nsegs);
	/* the release range */
	ck_assert_uint_eq(a->release_first, b->release_first);
	ck_assert_uint_eq(a->release_count, b->release_count);
}

void gu_pool_array(struct ofl_gso_pool *p, struct ofl_gso_hbuf *arr, uint8_t *block, uint32_t nslots,
                   uint32_t size)
{
	uint32_t i;
	for (i = 0; i < nslots; i++) {
		arr[i].data = block + (size_t)i * size;
		arr[i].size = size;
		arr[i].offset = 0x1000 + i;
	}
	ck_assert_int_eq(ofl_gso_pool_init_array(p, arr, nslots), 0);
}
