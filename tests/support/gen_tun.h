/*
 * gen_tun.h - our synthetic traffic (gen.h) wrapped in a UDP tunnel: outer
 * Ethernet (an optional 802.1Q tag), IPv4 or IPv6, UDP, then a VXLAN or
 * Geneve header, then the inner frame gen_tcp_frame() wrote (whole, or from
 * its IP header for a Geneve IP payload); or IP-in-IP: the outer IP header
 * (protocol 4 or 41 by the inner version) right before the inner IP packet;
 * or GRE: the outer IP header (protocol 47), a GRE header with the
 * checksum, key and sequence fields its flags ask for, then the inner
 * frame (payload type 0x6558) or its IP packet.  Every outer field is settable;
 * lengths and checksums valid unless asked otherwise.
 */
#ifndef OFL_TEST_GEN_TUN_H
#define OFL_TEST_GEN_TUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { GEN_TUN_VXLAN = 1, GEN_TUN_GENEVE = 2, GEN_TUN_IPIP = 3 /* no UDP: the inner IP packet */,
       GEN_TUN_GRE = 4 /* no UDP: GRE */, GEN_TUN_VXLAN_GPE = 5 /* UDP 4790, VXLAN-GPE */ };

/* GRE flag word bits (gen_tun.gre_flags) */
#define GEN_GRE_C 0x8000u /* checksum (with the reserved half: 4 bytes) */
#define GEN_GRE_R 0x4000u /* routing (RFC 1701; the generator writes its 4-byte
                           * checksum/offset section, no routing entries) */
#define GEN_GRE_K 0x2000u /* key */
#define GEN_GRE_S 0x1000u /* sequence number */

struct gen_tun {
	int type;               /* GEN_TUN_* */
	int l3;                 /* outer 4 or 6 */
	uint8_t dst_mac[6], src_mac[6];
	bool vlan;              /* an 802.1Q tag (vlan_tci) */
	uint16_t vlan_tci;
	uint8_t saddr[16], daddr[16];
	uint8_t ttl, tos;       /* IPv4 TTL/TOS, IPv6 hop limit/traffic class */
	uint16_t ip_id;
	bool df;
	uint32_t flowlabel;
	uint8_t ip_opts[40];
	uint8_t ip_optlen;      /* multiple of 4 */
	uint16_t sport, dport;
	bool udp_csum;          /* compute the UDP checksum (else 0) */
	bool bad_udp_csum;      /* ... and spoil it */
	int32_t udp_len_delta;  /* added to the UDP length field */
	uint8_t vxlan_flags;    /* default 0x08 (I); VXLAN-GPE 0x0c (I, P) */
	uint8_t gpe_np;         /* VXLAN-GPE next protocol: 3 Ethernet (default),
	                           1 IPv4, 2 IPv6 (the inner frame's Ethernet header
	                           dropped), anything else: the inner frame whole */
	uint32_t vni;           /* VXLAN / Geneve VNI */
	uint8_t gnv_ver;        /* Geneve version (default 0) */
	uint8_t gnv_flags;      /* 0x80 OAM, 0x40 critical */
	uint16_t gnv_proto;     /* default 0x6558; 0x0800/0x86dd: IP payload */
	uint8_t gnv_opts[128];
	uint8_t gnv_optlen;     /* multiple of 4, at most 252 */
	int gnv_optlen_delta;   /* added to the length field (past the packet) */
	uint16_t gre_flags;     /* GRE flag word (GEN_GRE_*, version in bits 0-2) */
	uint16_t gre_proto;     /* GRE payload type; default 0x6558, 0x0800/0x86dd:
	                           IP payload (the inner frame's Ethernet header
	                           dropped), anything else: the inner frame whole */
	uint32_t gre_key, gre_seq;
	bool bad_gre_csum;      /* spoil the GRE checksum (with GEN_GRE_C) */
};

/* Defaults: VXLAN, Geneve or VXLAN-GPE over IPv4 or IPv6, 192.168.0.1 -> 192.168.0.2
 * (fd01::1 -> fd01::2), UDP 40000 -> 4789 / 6081 / 4790, checksum 0, VNI 42, TTL
 * 64, DF, ID 1000; GRE without flags (key 42 when GEN_GRE_K is set). */
void gen_tun_init(struct gen_tun *t, int type, int l3);
/* Wrap the inner Ethernet frame (inner_len bytes) into buf; returns the
 * frame's length, 0 when cap is too small.  A Geneve IP payload (gnv_proto
 * not 0x6558) and IP-in-IP drop the inner frame's 14-byte Ethernet header
 * (the inner frame must be untagged then). */
size_t gen_tun_wrap(const struct gen_tun *t, const uint8_t *inner, size_t inner_len, uint8_t *buf, size_t cap);
/* Verify a linear tunnelled frame's checksums: the outer IPv4 header, the
 * outer UDP checksum unless 0 (over IPv6 too: RFC 6935), a GRE checksum,
 * the inner IP header and TCP (UDP) checksum; Geneve is told by its port
 * (6081 or 6082 in our traffic), VXLAN-GPE by 4790.  true when all are valid. */
bool gen_tun_csums_ok(const uint8_t *frame, size_t len);

#endif
