/* conserve.h - flow identity and payload extraction from a linear frame,
 * independent of the library's parser (tests must not trust it). */
#ifndef OFL_TEST_CONSERVE_H
#define OFL_TEST_CONSERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct c_flow {
	uint8_t key[64];    /* l3, addresses, ports, VLAN tags, MACs, L4 protocol */
	bool tcp;
	bool udp;           /* c_parse_l4() only */
	uint32_t seq;
	size_t payload_off; /* TCP (UDP) payload offset in the frame */
	size_t payload_len; /* from the IP length (padding excluded) */
};

/* Parse Ethernet/VLAN/IPv4/IPv6(+ext)/TCP. Returns false when not TCP or
 * malformed (then only key is meaningful, zeroed). */
bool c_parse(const uint8_t *f, size_t len, struct c_flow *cf);

/* The same, also taking UDP (udp set; payload after the 8-byte header, its
 * length from the IP length).  A UDP flow's key differs from the TCP flow's
 * of the same addresses and ports. */
bool c_parse_l4(const uint8_t *f, size_t len, struct c_flow *cf);

#endif
