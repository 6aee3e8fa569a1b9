/*
 * dsa.c - GSO through a DSA tag: each segment of a super-packet for switch
 * port P carries P's tag, as the kernel's tagger would write it on each
 * frame after software GSO.
 *
 * The tag is computed once, by letting the format's own encoder tag a
 * 100-byte dummy frame (long enough that no padding rule applies) and
 * reading back which bytes it added before and after it; per segment the
 * head bytes are copied into the header slot (through the request's extra
 * L2 hook) and the tail bytes become a slice.  Formats whose tag depends on
 * the frame's own bytes are refused.
 */
#include <ofl/gso.h>
#include <string.h>

#define DUMMY_LEN 100u

int ofl_gso_dsa_prepare(struct ofl_gso_dsa *d, const struct ofl_dsa_ops *ops,
                        const struct ofl_dsa_params *params, const struct ofl_dsa_meta *meta)
{
	uint8_t buf[64 + DUMMY_LEN + 64];
	uint32_t off = 64, len = DUMMY_LEN, head, tail;
	int r;
	if (!d || !ops || !meta)
		return OFL_EINVAL;
	memset(d, 0, sizeof(*d));
	if (ops->place == OFL_DSA_PLACE_NONE || (ops->flags & OFL_DSA_F_TX_FCS))
		return OFL_ENOTSUP;
	memset(buf, 0, sizeof(buf));
	buf[off + 12] = 0x08; /* an IPv4 EtherType, no VLAN */
	r = ofl_dsa_encode(ops, params, OFL_DSA_TX, meta, buf, sizeof(buf), &off, &len);
	if (r)
		return r;
	head = 64 - off;
	if (len < DUMMY_LEN + head)
		return OFL_ENOTSUP;
	tail = len - DUMMY_LEN - head;
	if (head > sizeof(d->head) || tail > sizeof(d->tail) || ops->tx_min_len > sizeof(d->zeros))
		return OFL_ENOTSUP;
	d->ops = ops;
	d->head_len = (uint8_t)head;
	d->tail_len = (uint8_t)tail;
	d->min_len = ops->tx_min_len;
	if (ops->place == OFL_DSA_PLACE_BEFORE_DA) {
		d->head_off = 0;
		memcpy(d->head, buf + off, head);
	} else {
		d->head_off = 12; /* after SA: the MACs moved back by head bytes */
		memcpy(d->head, buf + off + 12, head);
	}
	memcpy(d->tail, buf + off + head + DUMMY_LEN, tail);
	return 0;
}

static int fill_head(void *user, uint8_t *hdr, uint32_t hdr_len, uint32_t seg_index)
{
	const struct ofl_gso_dsa *d = user;
	(void)seg_index;
	if ((uint32_t)d->head_off + d->head_len > hdr_len)
		return -1;
	memcpy(hdr + d->head_off, d->head, d->head_len);
	return 0;
}

int ofl_gso_req_set_dsa(struct ofl_gso_req *req, const struct ofl_gso_dsa *d)
{
	if (!req || !d || !d->ops)
		return OFL_EINVAL;
	req->extra_l2_len = d->head_len;
	req->extra_l2_off = d->head_off;
	req->l2_fill = d->head_len ? fill_head : NULL;
	req->l2_user = (void *)(uintptr_t)d;
	if (d->tail_len)
		req->csum = OFL_CSUM_MODE_FULL;
	return 0;
}

int ofl_gso_dsa_finish(const struct ofl_gso_dsa *d, struct ofl_gso_seg *seg)
{
	uint32_t untagged, pad = 0, need;
	if (!d || !d->ops || !seg || seg->len < d->head_len)
		return OFL_EINVAL;
	untagged = seg->len - d->head_len;
	if (untagged < d->min_len)
		pad = d->min_len - untagged;
	need = (pad ? 1u : 0u) + (d->tail_len ? 1u : 0u);
	if (seg->nslices + need > OFL_GSO_SEG_MAX_SLICES)
		return OFL_ENOSPC;
	if (pad) {
		struct ofl_slice *s = &seg->slices[seg->nslices++];
		s->data = d->zeros;
		s->len = pad;
		s->pkt = 0;
		s->buf = 0xffff;
	}
	if (d->tail_len) {
		struct ofl_slice *s = &seg->slices[seg->nslices++];
		s->data = d->tail;
		s->len = d->tail_len;
		s->pkt = 0;
		s->buf = 0xffff;
	}
	seg->payload_len += pad + d->tail_len;
	seg->len += pad + d->tail_len;
	return 0;
}
