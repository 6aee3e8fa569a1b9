/*
 * gen.h - synthetic traffic of our own for tests and benchmarks: Ethernet
 * (802.1Q/802.1ad tags) + IPv4/IPv6 (options, extension headers) + TCP
 * frames with every header field settable, valid checksums unless asked
 * otherwise, and a payload whose bytes are a function of the flow and the
 * sequence number, so merged payload can be checked byte by byte.
 */
#ifndef OFL_TEST_GEN_H
#define OFL_TEST_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GEN_FIN 0x01
#define GEN_SYN 0x02
#define GEN_RST 0x04
#define GEN_PSH 0x08
#define GEN_ACK 0x10
#define GEN_URG 0x20
#define GEN_ECE 0x40
#define GEN_CWR 0x80

struct gen_tcp {
	int l3;                 /* 4 or 6 */
	uint8_t dst_mac[6], src_mac[6];
	uint8_t nvlan;          /* in-band tags, 0..3 */
	uint16_t vlan_tpid[3];  /* 0x8100 / 0x88a8 */
	uint16_t vlan_tci[3];
	uint8_t saddr[16], daddr[16]; /* IPv4 uses the first 4 bytes */
	uint16_t sport, dport;
	uint32_t seq, ack;
	uint8_t flags;          /* GEN_* */
	uint8_t res;            /* the 4 reserved/AE bits of byte 12 */
	uint16_t window;
	uint8_t opts[40];
	uint8_t optlen;         /* multiple of 4 */
	uint8_t ttl, tos;       /* IPv4 TTL/TOS, IPv6 hop limit/traffic class */
	uint16_t ip_id;
	bool df;
	uint16_t frag;          /* IPv4 frag_off bits other than DF (MF | offset) */
	uint8_t ip_opts[40];
	uint8_t ip_optlen;      /* multiple of 4 */
	uint32_t flowlabel;
	uint8_t ext[64];        /* IPv6 extension headers, chained by ext_nh */
	uint8_t extlen;
	uint8_t ext_nh;         /* next header of the fixed IPv6 header when extlen */
	uint32_t payload_len;
	uint32_t flow_salt;     /* mixed into the payload bytes */
	bool bad_tcp_csum, bad_ip_csum;
	uint32_t pad_to;        /* pad the frame with zeros to at least this */
	uint32_t ip_len_delta;  /* added to the IP length field (malformed tests) */
	/* UDP instead of TCP: an 8-byte UDP header (ports, length, checksum);
	 * seq then only names the payload bytes (the header does not carry it),
	 * bad_tcp_csum spoils the UDP checksum, and the TCP fields are unused.
	 * With IPv6 extension headers the last one's next header must say 17. */
	bool udp;
	bool udp_zero_csum;     /* send UDP checksum 0 (none) */
	int32_t udp_len_delta;  /* added to the UDP length field */
};

/* Defaults: IPv4 or IPv6, 10.0.0.1:1500 -> 10.0.0.2:8000 (fd00::1 / fd00::2),
 * seq 100, ack 100, ACK, window 65535, TTL 64, DF, payload 100. */
void gen_tcp_init(struct gen_tcp *g, int l3);

/* Frame length gen_tcp_frame() will write. */
size_t gen_tcp_len(const struct gen_tcp *g);

/* The rest of an Ethernet header after the MACs at buf: nvlan tags (tpid[k],
 * 0 meaning 0x8100, and tci[k]) and the IPv4 (l3 4) or IPv6 EtherType.
 * Returns the IP header's offset. */
size_t gen_l2(uint8_t *buf, unsigned nvlan, const uint16_t *tpid, const uint16_t *tci, int l3);

/* Write the frame; returns its length, 0 if cap is too small. */
size_t gen_tcp_frame(const struct gen_tcp *g, uint8_t *buf, size_t cap);

/* Payload byte at sequence number seq of the flow identified by salt. */
static inline uint8_t gen_payload_byte(uint32_t salt, uint32_t seq)
{
	uint32_t x = (seq + salt * 0x9e3779b9u) * 2654435761u;
	return (uint8_t)(x >> 24);
}

/* Append the timestamp option (NOP, NOP, TS) to g->opts. */
void gen_opt_ts(struct gen_tcp *g, uint32_t tsval, uint32_t tsecr);

/* Independent RFC 1071 checksum used to verify what the library emits:
 * returns the folded ones'-complement sum (not inverted). */
uint16_t gen_csum_fold(const uint8_t *p, size_t n, uint32_t init);

/* Write the pseudo-header of RFC 768/793 (IPv4: 12 bytes) or RFC 8200
 * section 8.1 (IPv6: 40 bytes, a 32-bit length) for the IP header at ip,
 * upper-layer length len and protocol proto into ph, byte by byte (an
 * independent reference for the library's sums).  Returns its length. */
size_t gen_pseudo_hdr(uint8_t ph[40], const uint8_t *ip, int l3, uint32_t len, uint8_t proto);

/* Verify the IPv4 header checksum and the TCP (or UDP) checksum of a linear
 * frame.  Returns true when both (or the L4 one for IPv6) are valid; a UDP
 * checksum 0 (none sent) is valid over IPv4 only. */
bool gen_frame_csums_ok(const uint8_t *frame, size_t len);

/* Bulk traffic: nflows flows, nseg segments each, interleaved round-robin,
 * each frame written at frames + i * stride, lengths in lens[]. Flow f uses
 * sport 1000+f and salt f. Returns the number of frames. */
size_t gen_bulk(int l3, unsigned nflows, unsigned nseg, uint32_t mss,
                uint8_t *frames, size_t stride, uint32_t *lens);

/* The same with udp true: UDP datagrams of mss payload bytes (valid,
 * nonzero checksums) instead of TCP segments; seq then only salts the
 * payload. */
size_t gen_bulk_proto(int l3, bool udp, unsigned nflows, unsigned nseg, uint32_t mss,
                      uint8_t *frames, size_t stride, uint32_t *lens);

#endif
