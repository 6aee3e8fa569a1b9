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
 * the frame's own bytes are refused, but for the 802.1Q header dsa, edsa
 * and mtk fold into their tag (below).
 *
 * Padding: the kernel pads every frame to 60 bytes before the tagger when
 * the user port needs tailroom (a tail tagger, sja1110, or a conduit with
 * tailroom) and such a port offers no hardware segmentation, so each
 * segment is padded on its own; ofl_dsa_room() says how much for a short
 * frame, which is the minimum every segment is padded to here.
 *
 * A super-packet carrying an 802.1Q header: dsa and edsa (tag_dsa.c,
 * dsa_xmit_ll) turn that header into their tag instead of adding one in
 * front of it: the tag's byte 0 gets the "tagged" bit, byte 1 bit 0 the
 * CFI, bytes 2-3 the rest of the frame's TCI; mtk (tag_mtk.c) overwrites
 * the TPID with its tag type and port byte and keeps the TCI.  The segment
 * comes out of the iterator as MACs | tag | 802.1Q | ...; finish rewrites
 * the tag that way and closes the 4-byte gap, as ofl_dsa_encode() would
 * for each segment.
 */
#include <ofl/gso.h>
#include <string.h>

#define DUMMY_LEN 100u
#define ETH_MACS 12u
#define VLAN_HLEN 4u
#define TAG_ID_DSA 3u  /* DSA_TAG_PROTO_DSA_VALUE */
#define TAG_ID_EDSA 4u /* DSA_TAG_PROTO_EDSA_VALUE */
#define TAG_ID_MTK 9u  /* DSA_TAG_PROTO_MTK_VALUE */

int ofl_gso_dsa_prepare(struct ofl_gso_dsa *d, const struct ofl_dsa_ops *ops,
                        const struct ofl_dsa_params *params, const struct ofl_dsa_meta *meta)
{
	uint8_t buf[64 + DUMMY_LEN + 64];
	uint32_t off = 64, len = DUMMY_LEN, head, tail, pad;
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
	/* the padding of a 14-byte frame: how far encode pads any frame */
	r = ofl_dsa_room(ops, params, OFL_DSA_TX, 14, NULL, &pad);
	if (r)
		return r;
	pad = pad > ops->tx_tail ? 14 + pad - ops->tx_tail : 0;
	if (head > sizeof(d->head) || tail > sizeof(d->tail) || pad > sizeof(d->zeros))
		return OFL_ENOTSUP;
	d->ops = ops;
	d->head_len = (uint8_t)head;
	d->tail_len = (uint8_t)tail;
	d->min_len = (uint8_t)pad;
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

/* The 802.1Q header right after an after-SA tag of a format that folds it,
 * or NULL. */
static uint8_t *vlan_to_fold(const struct ofl_gso_dsa *d, const struct ofl_gso_seg *seg)
{
	unsigned id = d->ops->id;
	uint8_t *q;

	if ((id != TAG_ID_DSA && id != TAG_ID_EDSA && id != TAG_ID_MTK) || d->head_off != ETH_MACS ||
	    seg->hdr_len < ETH_MACS + d->head_len + VLAN_HLEN + 2u)
		return NULL;
	q = seg->hdr.data + ETH_MACS + d->head_len;
	if (q[0] == 0x81 && q[1] == 0x00)
		return q;
	if (id == TAG_ID_MTK && q[0] == 0x88 && q[1] == 0xa8)
		return q;
	return NULL;
}

/* Turn MACs | tag | 802.1Q header q | ... into the folded form and close
 * the 4-byte gap in the header slot. */
static void fold_vlan(const struct ofl_gso_dsa *d, struct ofl_gso_seg *seg, uint8_t *q)
{
	uint8_t *t = q - 4; /* the 4 tag bytes that take the 802.1Q header's place */
	uint32_t after = (uint32_t)(q - seg->hdr.data) + VLAN_HLEN;

	if (d->ops->id == TAG_ID_MTK) {
		t[0] = q[0] == 0x81 ? 1 : 2; /* the frame's TPID, 0x8100 or 0x88A8 */
		t[2] = q[2];
		t[3] = q[3];
	} else {
		t[0] |= 0x20;                             /* tagged */
		t[1] = (uint8_t)((t[1] & ~1u) | ((q[2] >> 4) & 1u)); /* CFI */
		t[2] = (uint8_t)(q[2] & ~0x10u);
		t[3] = q[3];
	}
	memmove(q, q + VLAN_HLEN, seg->hdr_len - after);
	seg->hdr_len -= VLAN_HLEN;
	seg->len -= VLAN_HLEN;
	seg->l3_off = (uint16_t)(seg->l3_off - VLAN_HLEN);
	if (seg->l4_off)
		seg->l4_off = (uint16_t)(seg->l4_off - VLAN_HLEN);
	if (seg->flags & OFL_GSO_SEG_F_CSUM_PARTIAL)
		seg->csum_start = (uint16_t)(seg->csum_start - VLAN_HLEN);
}

int ofl_gso_dsa_finish(const struct ofl_gso_dsa *d, struct ofl_gso_seg *seg)
{
	uint32_t untagged, pad = 0, need;
	uint8_t *q;
	if (!d || !d->ops || !seg || seg->len < d->head_len)
		return OFL_EINVAL;
	/* the kernel pads the frame it hands the tagger, 802.1Q header included */
	untagged = seg->len - d->head_len;
	if (untagged < d->min_len)
		pad = d->min_len - untagged;
	need = (pad ? 1u : 0u) + (d->tail_len ? 1u : 0u);
	if (seg->nslices + need > OFL_GSO_SEG_MAX_SLICES)
		return OFL_ENOSPC;
	q = vlan_to_fold(d, seg);
	if (q)
		fold_vlan(d, seg, q);
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
