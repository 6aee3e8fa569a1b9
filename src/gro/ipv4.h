/*
 * ipv4.h - the kernel's IPv4 rules for a held flow (include/net/gro.h
 * inet_gro_flush): TTL, TOS (ECN included) and DF must be equal; the IP ID
 * either increments by one per segment or, decided on the second segment,
 * stays fixed; switching between the two ends the flow.  Since 2025 a fixed
 * ID is accepted with DF clear too.
 */
#ifndef OFL_GRO_IPV4_H
#define OFL_GRO_IPV4_H

#include "core/csum_int.h"
#include "gro/gro_int.h"

/*
 * The length rule (net/ipv4/af_inet.c inet_gro_receive, and its IPv6 twin in
 * ipv6.h): the IP length field must equal the frame's L3 length (the GRO
 * length), or the segment is not merged and the held packet of its flow is
 * completed (the kernel's flush; seen on Linux 6.18 by the kernel-oracle
 * fixtures pad_tail, pad_v4_mid, pad_v4_each).  The parser already refuses a
 * length longer than the frame and bytes after the IP packet of a frame that
 * is not of minimum size (MALFORMED, fixtures len_v4_long, len_v6_long,
 * pad_v6_mid); what reaches GRO with the lengths apart is a minimum-size
 * frame with Ethernet padding (ofl_hdrs.trimmed).
 */
static inline int gro_ip_len_nomerge(const struct ofl_hdrs *h)
{
	return h->l3_end != h->frame_len;
}

/* The ID rule of one IPv4 header of a flow: segment nsegs (counted from 0)
 * carries ID id; id0 is the first segment's, *fixed the decision taken on
 * the second segment.  1 when it breaks the rule. */
static inline int gro_id_breaks(uint16_t id, uint16_t id0, uint8_t *fixed, uint32_t nsegs)
{
	uint16_t id_off = (uint16_t)(id - id0);
	if (nsegs == 1 && id_off == 0)
		*fixed = 1;
	return id_off != (uint16_t)(*fixed ? 0u : nsegs);
}

/* The IP ID rule alone (header prediction compared the rest). */
static inline uint32_t gro_ipv4_id_nomerge(const uint8_t *ip, struct gro_item *it)
{
	if (gro_id_breaks(ofl_get16(ip + 4), it->id0, &it->fixedid, it->nsegs))
		return NM(OFL_GRO_FLUSH_IPID);
	return 0;
}

static inline uint32_t gro_ipv4_nomerge(const uint8_t *ip, struct gro_item *it)
{
	const uint8_t *ip2 = it->hdr + it->l3_off;
	if (ip[1] != ip2[1] || ip[8] != ip2[8] || ((ip[6] ^ ip2[6]) & 0x40))
		return NM(OFL_GRO_FLUSH_TTL_TOS_DF);
	return gro_ipv4_id_nomerge(ip, it);
}

/* inet_gro_complete (the layer's completion, ipv4.c): the merged packet's
 * total length, 0 above 65535 as Linux BIG TCP writes it, and the header
 * checksum over ihl 32-bit words (5, no options: the sum written out). */
static inline uint16_t gro_ipv4_tot_len(uint32_t l3_len)
{
	/* (as a mask, not a choice: GCC wrote a choice's bytes one by one) */
	return (uint16_t)(l3_len & (0u - (uint32_t)(l3_len <= 0xffffu)));
}
static inline OFL_ALWAYS_INLINE void gro_ipv4_complete_hdr(uint8_t *ip, uint32_t l3_len, unsigned ihl)
{
	uint16_t c;
	ofl_put16(ip + 2, gro_ipv4_tot_len(l3_len));
	ip[10] = ip[11] = 0;
	c = (uint16_t)~(ihl == 5 ? ofl_csum_ip4_fold(ip) : ofl_csum_words_fold(ip, ihl));
	memcpy(ip + 10, &c, 2);
}

/*
 * The same for a header whose checksum is right, as every IPv4 header an
 * entry holds is (the parse, ofl_parse_plain() and the run's expected word
 * check it; merging never writes it): only the length changes, so the
 * checksum is updated for it (RFC 1624) instead of summed again.  The
 * value is the one gro_ipv4_complete_hdr() writes: with S the sum of the
 * new header's other words, ~old_c + ~old_len + new_len is S modulo
 * 0xffff; 3 * 0xffff - old_c - old_len + new_len is never 0, so its
 * end-around fold is S's own, in [1, 0xffff] (a header's sum is not 0).
 * Sixteen-bit words in memory order: the fold commutes with the byte swap.
 */
static inline OFL_ALWAYS_INLINE void gro_ipv4_complete_len(uint8_t *ip, uint32_t l3_len)
{
	uint16_t old_len, old_c, new_len, tot = gro_ipv4_tot_len(l3_len), c;
	uint8_t b[2];
	memcpy(&old_len, ip + 2, 2);
	memcpy(&old_c, ip + 10, 2);
	b[0] = (uint8_t)(tot >> 8);
	b[1] = (uint8_t)tot;
	memcpy(&new_len, b, 2);
	c = ofl_csum_fold_inl(3u * 0xffffu - old_c - old_len + new_len);
	memcpy(ip + 2, &new_len, 2);
	memcpy(ip + 10, &c, 2);
}

#endif
