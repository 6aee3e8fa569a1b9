/*
 * fixtures.h - the super-packets of the kernel GSO fixtures, shared by the
 * generator (tests/gso/mkgso.c, run by tests/gso/make-fixtures.sh) and the
 * test that compares our segments with the kernel's
 * (tests/unit/gso_kernel_test.c).  One super-packet per fixture directory
 * tests/fixtures/gso/<name>/ (IN.pcap, OUT.pcap from kernel-gso --mss).
 */
#ifndef OFL_TEST_GSO_FIXTURES_H
#define OFL_TEST_GSO_FIXTURES_H

#include <stdint.h>

struct gso_fixture {
	const char *name;
	int l3;            /* 4 or 6 */
	int udp;           /* 0 TCP, 1 UDP (segmented as UDP_L4) */
	uint32_t payload;
	uint32_t mss;
	uint8_t flags;     /* TCP flags (GEN_*) */
	uint8_t nvlan;     /* 802.1Q tags */
	uint8_t ip_optlen; /* IPv4 options (NOPs) */
	uint8_t df;        /* IPv4 DF */
	uint8_t ts;        /* TCP timestamp option */
	uint8_t dstopts;   /* IPv6: an 8-byte destination options header */
	uint16_t tpid0;    /* TPID of the outer tag (0: 802.1Q, 0x8100); an inner
	                      second tag is 802.1Q */
};

#define GSO_FIXTURE_ACK 0x10
#define GSO_FIXTURE_PSH 0x08
#define GSO_FIXTURE_FIN 0x01
#define GSO_FIXTURE_CWR 0x80

static const struct gso_fixture gso_fixtures[] = {
	{ "tcp4_64k_psh", 4, 0, 64000, 1448, GSO_FIXTURE_ACK | GSO_FIXTURE_PSH, 0, 0, 1, 1, 0, 0 },
	{ "tcp4_fin", 4, 0, 20001, 1448, GSO_FIXTURE_ACK | GSO_FIXTURE_PSH | GSO_FIXTURE_FIN, 0, 0, 1, 1, 0, 0 },
	{ "tcp4_cwr", 4, 0, 9000, 1448, GSO_FIXTURE_ACK | GSO_FIXTURE_CWR | GSO_FIXTURE_PSH, 0, 0, 1, 0, 0, 0 },
	{ "tcp4_nodf_ipopts", 4, 0, 12000, 1000, GSO_FIXTURE_ACK, 0, 8, 0, 0, 0, 0 },
	{ "tcp4_mss536", 4, 0, 5000, 536, GSO_FIXTURE_ACK | GSO_FIXTURE_PSH, 0, 0, 1, 1, 0, 0 },
	{ "tcp4_vlan", 4, 0, 16000, 1448, GSO_FIXTURE_ACK | GSO_FIXTURE_PSH, 1, 0, 1, 1, 0, 0 },
	{ "tcp6_64k_psh", 6, 0, 64000, 1428, GSO_FIXTURE_ACK | GSO_FIXTURE_PSH, 0, 0, 0, 1, 0, 0 },
	{ "tcp6_fin", 6, 0, 10001, 1000, GSO_FIXTURE_ACK | GSO_FIXTURE_PSH | GSO_FIXTURE_FIN, 0, 0, 0, 0, 0, 0 },
	{ "tcp6_cwr", 6, 0, 7000, 1428, GSO_FIXTURE_ACK | GSO_FIXTURE_CWR, 0, 0, 0, 1, 0, 0 },
	{ "tcp6_dstopts", 6, 0, 10000, 1000, GSO_FIXTURE_ACK | GSO_FIXTURE_PSH, 0, 0, 0, 1, 1, 0 },
	{ "tcp6_vlan", 6, 0, 16000, 1428, GSO_FIXTURE_ACK | GSO_FIXTURE_PSH, 1, 0, 0, 1, 0, 0 },
	{ "udp4_l4", 4, 1, 10000, 1400, 0, 0, 0, 1, 0, 0, 0 },
	{ "udp4_l4_tail", 4, 1, 14001, 1472, 0, 0, 0, 0, 0, 0, 0 },
	{ "udp4_l4_max", 4, 1, 12800, 100, 0, 0, 0, 1, 0, 0, 0 }, /* UDP_MAX_SEGMENTS: 128 */
	{ "udp6_l4", 6, 1, 9000, 1200, 0, 0, 0, 0, 0, 0, 0 },
	{ "udp6_l4_vlan", 6, 1, 6000, 1400, 0, 1, 0, 0, 0, 0, 0 },
	/* issue 13: the shorter last datagram over IPv6, UDP over 802.1Q on
	 * IPv4 and over 802.1ad + 802.1Q (QinQ) on both */
	{ "udp6_l4_tail", 6, 1, 14001, 1452, 0, 0, 0, 0, 0, 0, 0 },
	{ "udp4_l4_vlan", 4, 1, 8000, 1472, 0, 1, 0, 1, 0, 0, 0 },
	{ "udp4_l4_qinq", 4, 1, 7001, 1200, 0, 2, 0, 1, 0, 0, 0x88a8 },
	{ "udp6_l4_qinq", 6, 1, 5000, 1000, 0, 2, 0, 0, 0, 0, 0x88a8 },
};

#define GSO_NFIXTURES (sizeof(gso_fixtures) / sizeof(gso_fixtures[0]))

#endif
