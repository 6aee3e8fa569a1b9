/*
 * parse.h - one bounds-checked pass over L2/L3/L4 headers, shared by GRO,
 * GSO and DSA.  Works on a contiguous view of the first bytes of a packet:
 * the first buffer itself when it holds the headers, otherwise a bounded
 * scratch copy of at most OFL_PARSE_MAX_HDR bytes (the payload is never
 * copied).  Every offset is from the start of the frame.
 */
#ifndef OFL_CORE_PARSE_H
#define OFL_CORE_PARSE_H

#include <ofl/pkt.h>
#include <stdbool.h>
#include <string.h>

#include "core/csum_int.h"
#include "core/cursor.h"

#define OFL_PARSE_MAX_HDR 256u
#define OFL_ETH_HLEN 14u
#define OFL_ETH_ZLEN 60u

/* Outcome of ofl_parse(): OK, or why the frame is not TCP that GRO/GSO can
 * take.  Values match enum ofl_gro_normal_reason where they overlap. */
enum ofl_parse_status {
	OFL_PARSE_NOT_IP = 0,
	OFL_PARSE_NOT_TCP,
	OFL_PARSE_MALFORMED,
	OFL_PARSE_VLAN_DEPTH,
	OFL_PARSE_HDR_TOO_LONG,
	OFL_PARSE_IP_OPTIONS,
	OFL_PARSE_IP_CSUM,
	OFL_PARSE_FRAGMENT,
	OFL_PARSE_IP6_EXT,
	OFL_PARSE_OK = 100,
};

/* What one pass learns.  l4_ok says whether the TCP ports (and so a flow
 * identity) are known even when status is not OK. */
struct ofl_hdrs {
	uint8_t status;       /* enum ofl_parse_status */
	uint8_t l3;           /* 4, 6 or 0 */
	uint8_t l4proto;      /* IPPROTO_* of the transport header */
	uint8_t nvlan;        /* in-band VLAN tags (0..2) */
	uint8_t l4_ok;        /* TCP header present and sane */
	uint8_t trimmed;      /* Ethernet padding after the IP packet ignored */
	uint8_t short_view;   /* a header ran past the view, not past the frame:
	                         parse again over a longer view */
	uint8_t raw;          /* parsed by ofl_parse_raw(): no link header */
	uint16_t l2_len;      /* MAC header incl. VLAN tags (= l3_off) */
	uint16_t l3_off, l4_off, hdr_len; /* hdr_len = payload offset */
	uint16_t ip6_ext_len; /* IPv6 extension header bytes before TCP */
	uint16_t vlan_tpid[2], vlan_tci[2];
	uint32_t l3_end;      /* frame offset where the IP packet ends */
	uint32_t frame_len;   /* end of the (untagged) frame's content */
	uint32_t et_off;      /* where the EtherType/VLAN tags start (12) */
	uint32_t payload_len; /* l3_end - hdr_len */
};

/* Contiguous view of a packet's first bytes. */
struct ofl_view {
	const uint8_t *p;
	uint32_t len;         /* bytes valid at p (<= frame length) */
};

/* View of the first min(want, total) bytes: the first buffer itself when
 * it is long enough, else a copy gathered into scratch (>= want bytes).
 * Callers that can parse first over the first buffer alone (header split:
 * it usually holds exactly the headers) do so and gather only when
 * ofl_hdrs.short_view says it was too short. */
static inline struct ofl_view ofl_view_make(const struct ofl_buf *b, unsigned n, uint32_t total,
                                            uint8_t *scratch, uint32_t want)
{
	struct ofl_view v;
	if (n == 1 || b[0].len >= want || b[0].len >= total) {
		v.p = b[0].data;
		v.len = b[0].len;
		return v;
	}
	v.len = total < want ? total : want;
	ofl_bufs_copy(b, n, 0, v.len, scratch);
	v.p = scratch;
	return v;
}

/* Parse Ethernet II, up to two 802.1Q/802.1ad tags, IPv4 or IPv6 (with the
 * extension headers GRO walks: hop-by-hop, routing, destination options),
 * and TCP.  frame_len is the packet's full length; v covers its start.
 * Verifies the IPv4 header checksum.  Always fills h; returns h->status. */
int ofl_parse(const struct ofl_view *v, uint32_t frame_len, struct ofl_hdrs *h);

/* The same for a frame whose Ethernet header is not at the start (behind a
 * DSA tag): the EtherType (or first VLAN tag) is at et_off and the untagged
 * frame's content ends at end; the MAC addresses are wherever the caller
 * says.  Offsets in h are from the start of the view, like ofl_parse(). */
int ofl_parse_at(const struct ofl_view *v, uint32_t end, uint32_t et_off, struct ofl_hdrs *h);

/* The same for a packet that starts at its IP header (raw IP: a TUN device,
 * OFL_L2_NONE): IPv4 or IPv6 by the first nibble (anything else NOT_IP),
 * then as ofl_parse(); l2_len, l3_off and et_off are 0, nvlan 0.  Bytes
 * after the IP packet are judged as an Ethernet frame's padding would be,
 * the packet counted with a 14-byte Ethernet header (raw set). */
int ofl_parse_raw(const struct ofl_view *v, uint32_t frame_len, struct ofl_hdrs *h);

/* The same for a packet whose IP header (EtherType et: IPv4 or IPv6,
 * anything else NOT_IP) starts off bytes into the view and whose content
 * ends at end: the inner packet of a tunnel that carries IP (Geneve with an
 * IP protocol type, GRE, IP-in-IP).  Offsets in h are from the start of
 * the view; l2_len = l3_off = off, et_off = off - 2 (off >= 2), nvlan 0;
 * bytes between the IP packet's end and end are judged as the padding of
 * an Ethernet frame of that content would be. */
int ofl_parse_l3_at(const struct ofl_view *v, uint32_t end, uint32_t off, uint16_t et, struct ofl_hdrs *h);

static inline uint16_t ofl_get16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static inline uint32_t ofl_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline void ofl_put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static inline void ofl_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

/*
 * The plain shape up to the transport header, its two halves: untagged
 * Ethernet with IPv4 without options or fragment bits and with a valid
 * header checksum (ofl_plain_is_ip4(), then ofl_plain_ip4_rest()), or
 * IPv6 without extension headers (ofl_plain_is_ip6(): the next header is
 * the transport protocol), the IP packet ending exactly at frame_len.
 * Each reads only the fixed IP header's first 20 bytes (the frame's first
 * 34), which the caller has checked are there.
 */
static inline int ofl_plain_is_ip4(const uint8_t *p)
{
	/* EtherType, version and length in one word */
	static const uint8_t v4[4] = {0x08, 0x00, 0x45, 0}, v4m[4] = {0xff, 0xff, 0xff, 0};
	uint32_t w, m4, w4;
	memcpy(&w, p + 12, 4);
	memcpy(&w4, v4, 4);
	memcpy(&m4, v4m, 4);
	return (w & m4) == w4;
}

/* The IPv4 header at ip (ofl_plain_is_ip4()) of a frame of frame_len
 * bytes: no fragment bits (MF, offset), its total length ending at
 * frame_len (compared in memory order), a valid header checksum. */
static inline int ofl_plain_ip4_rest(const uint8_t *ip, uint32_t frame_len)
{
	static const uint8_t frag[2] = {0x3f, 0xff};
	uint32_t tot = frame_len - 14u;
	uint8_t be[2] = {(uint8_t)(tot >> 8), (uint8_t)tot};
	uint16_t fm, f, t, want;
	memcpy(&fm, frag, 2);
	memcpy(&f, ip + 6, 2);
	memcpy(&t, ip + 2, 2);
	memcpy(&want, be, 2);
	return !(f & fm) && tot <= 0xffffu && t == want && ofl_ip4_sum_ok(ip);
}

static inline int ofl_plain_is_ip6(const uint8_t *p, uint32_t frame_len)
{
	return ofl_get16(p + 12) == 0x86ddu && (p[14] >> 4) == 6 && 54u + ofl_get16(p + 18) == frame_len;
}

/*
 * The plain shape up to the transport header in one pass (the halves
 * above), transport protocol a or b, its fixed header within the first
 * buflen bytes at p.  Returns the transport header's offset (34 or 54)
 * with its protocol in *proto, or 0 when the frame is anything else
 * (another protocol fails before the IPv4 header is summed).  Nothing of
 * the transport header is checked to be there (ofl_plain_l4() does).
 */
static inline uint32_t ofl_plain_ip(const uint8_t *p, uint32_t buflen, uint32_t frame_len, unsigned a, unsigned b,
                                    unsigned *proto)
{
	if (buflen < 34u)
		return 0;
	if (ofl_plain_is_ip4(p)) {
		if ((p[23] != a && p[23] != b) || !ofl_plain_ip4_rest(p + 14, frame_len))
			return 0;
		*proto = p[23];
		return 34;
	}
	if (ofl_plain_is_ip6(p, frame_len) && (p[20] == a || p[20] == b)) {
		*proto = p[20];
		return 54;
	}
	return 0;
}

/* The plain shape (ofl_plain_ip()) with transport protocol proto, the IP
 * packet holding at least min_l4 bytes of its header, all of them within
 * the first buflen bytes at p.  Returns the transport header's offset (34
 * or 54), or 0 when the frame is anything else. */
static inline uint32_t ofl_plain_l4(const uint8_t *p, uint32_t buflen, uint32_t frame_len, uint8_t proto,
                                    uint32_t min_l4)
{
	unsigned got;
	uint32_t l4 = ofl_plain_ip(p, buflen, frame_len, proto, proto, &got);
	return l4 && l4 + min_l4 <= frame_len && l4 + min_l4 <= buflen ? l4 : 0;
}

/* The TCP header of a plain frame at offset o (ofl_plain_ip(), protocol
 * 6): its length, or 0 when it is shorter than 20 bytes or runs past the
 * frame or the first buflen bytes. */
static inline uint32_t ofl_plain_tcp_at(const uint8_t *p, uint32_t buflen, uint32_t frame_len, uint32_t o)
{
	uint32_t lim = frame_len < buflen ? frame_len : buflen, thl;
	if (o + 20u > lim)
		return 0;
	thl = (p[o + 12] >> 2) & 0x3cu;
	return thl >= 20u && o + thl <= lim ? thl : 0;
}

/* The plain shape with TCP (ofl_plain_ip()): the TCP header's length, its
 * offset in *l4; 0 when the frame is anything else. */
static inline uint32_t ofl_plain_tcp(const uint8_t *p, uint32_t buflen, uint32_t frame_len, uint32_t *l4)
{
	unsigned proto;
	uint32_t o = ofl_plain_ip(p, buflen, frame_len, 6, 6, &proto), thl;
	if (!o || !(thl = ofl_plain_tcp_at(p, buflen, frame_len, o)))
		return 0;
	*l4 = o;
	return thl;
}

/* The plain shape with TCP: returns 1 with h filled exactly as ofl_parse()
 * would fill it (status OK), or 0 when the frame is anything else
 * (ofl_parse() decides it then). */
static inline int ofl_parse_plain_at(const uint8_t *p, uint32_t buflen, uint32_t frame_len, uint32_t base,
                                     struct ofl_hdrs *h);
static inline int ofl_parse_plain(const uint8_t *p, uint32_t buflen, uint32_t frame_len,
                                  struct ofl_hdrs *h)
{
	return ofl_parse_plain_at(p, buflen, frame_len, 0, h);
}

/* The same over a frame that starts base bytes into the caller's view (an
 * untagged frame behind a DSA tag): the offsets in h count from the view,
 * as ofl_parse_at() gives them. */
static inline int ofl_parse_plain_at(const uint8_t *p, uint32_t buflen, uint32_t frame_len, uint32_t base,
                                     struct ofl_hdrs *h)
{
	uint32_t l4, thl = ofl_plain_tcp(p, buflen, frame_len, &l4);
	if (!thl)
		return 0;
	*h = (struct ofl_hdrs){
		.status = OFL_PARSE_OK,
		.l3 = l4 == 34 ? 4 : 6,
		.l4proto = 6,
		.l4_ok = 1,
		.l2_len = (uint16_t)(base + 14),
		.l3_off = (uint16_t)(base + 14),
		.l4_off = (uint16_t)(base + l4),
		.hdr_len = (uint16_t)(base + l4 + thl),
		.l3_end = base + frame_len,
		.frame_len = base + frame_len,
		.et_off = base + 12,
		.payload_len = frame_len - l4 - thl,
	};
	return 1;
}

/* The plain shape with UDP (ofl_plain_l4(), the 8-byte UDP header in the
 * IP packet and within buflen): returns 1 with h filled exactly as
 * ofl_parse() fills it for such a frame (status NOT_TCP, the UDP header's
 * offset in l4_off, hdr_len and payload_len 0), or 0 when the frame is
 * anything else.  The UDP header's own fields are not read (GRO's rules
 * for them: src/gro/udp.h). */
static inline int ofl_parse_plain_udp(const uint8_t *p, uint32_t buflen, uint32_t frame_len, struct ofl_hdrs *h)
{
	uint32_t l4 = ofl_plain_l4(p, buflen, frame_len, 17, 8);
	if (!l4)
		return 0;
	*h = (struct ofl_hdrs){
		.status = OFL_PARSE_NOT_TCP,
		.l3 = l4 == 34 ? 4 : 6,
		.l4proto = 17,
		.l2_len = 14,
		.l3_off = 14,
		.l4_off = (uint16_t)l4,
		.l3_end = frame_len,
		.frame_len = frame_len,
		.et_off = 12,
	};
	return 1;
}

#endif
