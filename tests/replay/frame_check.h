/*
 * frame_check.h - an Ethernet/VLAN/IPv4/IPv6/TCP parser of our own for the
 * replay tests (they must not trust the library's), with checksum checks
 * built on the test support's RFC 1071 sum.
 */
#ifndef OFL_TEST_REPLAY_FRAME_CHECK_H
#define OFL_TEST_REPLAY_FRAME_CHECK_H

#include <stdint.h>

#define FC_KEY_LEN 80u
#define FC_TCP_PSH 0x08u
#define FC_TCP_FIN 0x01u

/** What fc_parse_tcp() found in a frame. */
struct fc_tcp {
	int ipv6;
	uint32_t l3_off, l4_off, payload_off, payload_len;
	uint32_t ip_end;          /**< end of the IP packet (after it: Ethernet padding) */
	uint32_t seq;
	uint8_t flags;            /**< TCP flags byte */
	int csum_checkable;       /**< no IPv6 routing header (pseudo-header would differ) */
	int ip_sane;              /**< IP length field not 0, IPv4 header checksum valid:
	                               what GRO needs to tell the packet's flow */
	uint8_t key[FC_KEY_LEN];  /**< L2 header, addresses, IPv6 flow label, ports: one
	                               direction of a flow as GRO tells flows apart */
};

/**
 * Parse an unfragmented TCP segment over IPv4 or IPv6 (any number of
 * 802.1Q/802.1ad tags; IPv6 hop-by-hop, routing and destination options
 * headers).  Returns 1 when it is one and every length fits in the frame.
 * IPv4 total length / IPv6 payload length 0 mean "the rest of the frame".
 */
int fc_parse_tcp(const uint8_t *f, uint32_t len, struct fc_tcp *t);

/** 1 when the IPv4 header checksum (IPv4 only) and the TCP checksum of a
 *  parsed frame are valid. */
int fc_csums_ok(const uint8_t *f, const struct fc_tcp *t);

/** Rewrite the IPv4 header checksum (IPv4 only) and the TCP checksum of a
 *  parsed frame so that both are valid. */
void fc_fix_csums(uint8_t *f, const struct fc_tcp *t);

#endif
