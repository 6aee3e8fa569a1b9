/*
 * parse.c - the one header parser (Ethernet, VLAN, IPv4, IPv6, TCP; or a
 * raw IP packet, from its IP header on).
 *
 * Every read is checked against the view; a header that runs past the view
 * is MALFORMED when the frame really ends there, HDR_TOO_LONG when only the
 * bounded view does.  The first reason found is kept, but parsing goes on
 * as far as it safely can so that the TCP ports (the flow identity) are
 * known even for a packet GRO will not take: the engine uses them to flush
 * a held packet of the same flow first and so keep per-flow order.
 */
#include "core/parse.h"

#include "core/csum_int.h"

#define ETH_P_IP 0x0800u
#define ETH_P_IPV6 0x86ddu
#define ETH_P_8021Q 0x8100u
#define ETH_P_8021AD 0x88a8u
#define IPPROTO_TCP_ 6u

static inline void note(struct ofl_hdrs *h, int st)
{
	if (h->status == OFL_PARSE_OK)
		h->status = (uint8_t)st;
}

/* Is [0, end) inside the view?  If not, record why and return false. */
static inline int have(const struct ofl_view *v, struct ofl_hdrs *h, uint32_t end, int *why)
{
	if (end <= v->len)
		return 1;
	if (end <= h->frame_len) {
		h->short_view = 1;
		*why = OFL_PARSE_HDR_TOO_LONG;
	} else {
		*why = OFL_PARSE_MALFORMED;
	}
	return 0;
}

/* Padding after the IP packet is only accepted on minimum-size frames. */
static int check_end(struct ofl_hdrs *h)
{
	if (h->l3_end > h->frame_len)
		return OFL_PARSE_MALFORMED;
	if (h->l3_end < h->frame_len) {
		/* the untagged frame's length, whatever tag sits before it
		 * (raw IP: as if behind an Ethernet header) */
		uint32_t flen = h->raw ? h->frame_len + OFL_ETH_HLEN : h->frame_len - h->et_off + 12u;
		if (flen > OFL_ETH_ZLEN + 4u * h->nvlan)
			return OFL_PARSE_MALFORMED;
		h->trimmed = 1;
	}
	return OFL_PARSE_OK;
}

static int parse_ipv4(const struct ofl_view *v, struct ofl_hdrs *h, uint32_t off)
{
	const uint8_t *ip = v->p + off;
	uint32_t ihl, tot;
	int why;
	if (!have(v, h, off + 20, &why))
		return why;
	ihl = (ip[0] & 0xfu) * 4u;
	tot = ofl_get16(ip + 2);
	if ((ip[0] >> 4) != 4 || ihl < 20 || tot < ihl)
		return OFL_PARSE_MALFORMED;
	h->l3 = 4;
	h->l4proto = ip[9];
	h->l3_end = off + tot;
	note(h, check_end(h));
	if (!have(v, h, off + ihl, &why))
		return why;
	if (ofl_csum_words_fold(ip, ihl / 4) != 0xffff)
		note(h, OFL_PARSE_IP_CSUM);
	if (ihl != 20)
		note(h, OFL_PARSE_IP_OPTIONS);
	if (ofl_get16(ip + 6) & 0x3fffu) {
		note(h, OFL_PARSE_FRAGMENT);
		if (ofl_get16(ip + 6) & 0x1fffu)
			return OFL_PARSE_FRAGMENT; /* no transport header here */
	}
	h->l4_off = (uint16_t)(off + ihl);
	return OFL_PARSE_OK;
}

static int parse_ipv6(const struct ofl_view *v, struct ofl_hdrs *h, uint32_t off)
{
	const uint8_t *ip = v->p + off;
	uint32_t plen, l4 = off + 40;
	uint8_t nh;
	int why;
	if (!have(v, h, off + 40, &why))
		return why;
	plen = ofl_get16(ip + 4);
	if ((ip[0] >> 4) != 6 || plen == 0) /* plen 0: jumbogram, not for GRO */
		return OFL_PARSE_MALFORMED;
	h->l3 = 6;
	h->l3_end = off + 40 + plen;
	note(h, check_end(h));
	nh = ip[6];
	while (nh == 0 || nh == 43 || nh == 60) {
		uint32_t el;
		if (l4 + 8 > h->l3_end)
			return OFL_PARSE_MALFORMED;
		if (!have(v, h, l4 + 8, &why))
			return why;
		el = (v->p[l4 + 1] + 1u) * 8u;
		if (l4 + el > h->l3_end)
			return OFL_PARSE_MALFORMED;
		nh = v->p[l4];
		l4 += el;
	}
	if (l4 - off - 40 > 0xffffu)
		return OFL_PARSE_HDR_TOO_LONG;
	/* extension bytes GRO compares: those before any fragment header */
	h->ip6_ext_len = (uint16_t)(l4 - off - 40);
	if (nh == 44) {
		/* Never merged; but a first fragment still names its flow, so
		 * walk on to the transport header for the flow identity. */
		uint16_t fo;
		note(h, OFL_PARSE_FRAGMENT);
		if (l4 + 8 > h->l3_end)
			return OFL_PARSE_MALFORMED;
		if (!have(v, h, l4 + 8, &why))
			return why;
		fo = ofl_get16(v->p + l4 + 2);
		nh = v->p[l4];
		l4 += 8;
		if (fo & 0xfff8u)
			return OFL_PARSE_FRAGMENT; /* not the first: no TCP header */
	}
	h->l4proto = nh;
	if (nh == 51 || nh == 135 || nh == 139 || nh == 140)
		return OFL_PARSE_IP6_EXT;
	if (l4 > 0xffffu)
		return OFL_PARSE_HDR_TOO_LONG;
	h->l4_off = (uint16_t)l4;
	return OFL_PARSE_OK;
}

static int parse_tcp(const struct ofl_view *v, struct ofl_hdrs *h)
{
	uint32_t l4 = h->l4_off, thl;
	int why;
	if (l4 + 20 > h->l3_end)
		return OFL_PARSE_MALFORMED;
	if (!have(v, h, l4 + 20, &why))
		return why;
	thl = (v->p[l4 + 12] >> 4) * 4u;
	if (thl < 20 || l4 + thl > h->l3_end)
		return OFL_PARSE_MALFORMED;
	if (!have(v, h, l4 + thl, &why))
		return why;
	h->l4_ok = 1;
	h->hdr_len = (uint16_t)(l4 + thl);
	h->payload_len = h->l3_end - h->hdr_len;
	return OFL_PARSE_OK;
}

static int parse_l3(const struct ofl_view *v, struct ofl_hdrs *h, uint16_t et, uint32_t off);

int ofl_parse(const struct ofl_view *v, uint32_t frame_len, struct ofl_hdrs *h)
{
	return ofl_parse_at(v, frame_len, 12, h);
}

int ofl_parse_at(const struct ofl_view *v, uint32_t frame_len, uint32_t et_off, struct ofl_hdrs *h)
{
	uint32_t off = et_off;
	uint16_t et;
	int st;
	memset(h, 0, sizeof(*h));
	h->status = OFL_PARSE_OK;
	h->frame_len = frame_len;
	h->et_off = et_off;
	if (et_off > 0xffffu - 64 || frame_len < et_off + 2)
		return h->status = OFL_PARSE_MALFORMED;
	if (!have(v, h, et_off + 2, &st))
		return h->status = (uint8_t)st;
	et = ofl_get16(v->p + off);
	while (et == ETH_P_8021Q || et == ETH_P_8021AD) {
		if (h->nvlan == 2)
			return h->status = OFL_PARSE_VLAN_DEPTH;
		if (!have(v, h, off + 6, &st))
			return h->status = (uint8_t)st;
		h->vlan_tpid[h->nvlan] = et;
		h->vlan_tci[h->nvlan] = ofl_get16(v->p + off + 2);
		h->nvlan++;
		off += 4;
		et = ofl_get16(v->p + off);
	}
	off += 2;
	h->l2_len = h->l3_off = (uint16_t)off;
	return parse_l3(v, h, et, off);
}

int ofl_parse_raw(const struct ofl_view *v, uint32_t frame_len, struct ofl_hdrs *h)
{
	int st;
	memset(h, 0, sizeof(*h));
	h->status = OFL_PARSE_OK;
	h->frame_len = frame_len;
	h->raw = 1;
	if (frame_len == 0)
		return h->status = OFL_PARSE_MALFORMED;
	if (!have(v, h, 1, &st))
		return h->status = (uint8_t)st;
	switch (v->p[0] >> 4) {
	case 4:
		return parse_l3(v, h, ETH_P_IP, 0);
	case 6:
		return parse_l3(v, h, ETH_P_IPV6, 0);
	default:
		return parse_l3(v, h, 0, 0);
	}
}

int ofl_parse_l3_at(const struct ofl_view *v, uint32_t end, uint32_t off, uint16_t et, struct ofl_hdrs *h)
{
	memset(h, 0, sizeof(*h));
	h->status = OFL_PARSE_OK;
	h->frame_len = end;
	if (off < 2 || off > 0xffffu - 64 || end <= off)
		return h->status = OFL_PARSE_MALFORMED;
	h->et_off = off - 2;
	h->l2_len = h->l3_off = (uint16_t)off;
	return parse_l3(v, h, et, off);
}

/* From the L3 header on (et: its EtherType, at offset off). */
static int parse_l3(const struct ofl_view *v, struct ofl_hdrs *h, uint16_t et, uint32_t off)
{
	int st;
	if (et == ETH_P_IP)
		st = parse_ipv4(v, h, off);
	else if (et == ETH_P_IPV6)
		st = parse_ipv6(v, h, off);
	else
		st = OFL_PARSE_NOT_IP;
	if (st != OFL_PARSE_OK) {
		note(h, st);
		return h->status;
	}
	if (h->l4proto != IPPROTO_TCP_) {
		note(h, OFL_PARSE_NOT_TCP);
		return h->status;
	}
	st = parse_tcp(v, h);
	note(h, st);
	return h->status;
}
