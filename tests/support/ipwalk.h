/* ipwalk.h - the tests' own walk from an Ethernet frame to its transport
 * header, independent of the library's parser (tests must not trust it).
 * conserve.c (flow identity), gen.c (checksum check) and the GSO tests'
 * gso_util.c build on it. */
#ifndef OFL_TEST_IPWALK_H
#define OFL_TEST_IPWALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ipwalk {
	int l3;            /* 4 or 6 */
	unsigned nvlan;    /* 802.1Q / 802.1ad tags from offset 12, 4 bytes each */
	size_t l3_off;     /* the IP header */
	size_t l4_off;     /* after the IPv4 options or the IPv6 extension headers */
	size_t end;        /* where the IP packet ends (an IP length of 0, BIG
	                    * TCP, means the frame's end) */
	uint8_t proto;     /* IPv4 protocol; IPv6: the header after hop-by-hop,
	                    * routing, destination options and fragment headers */
	bool frag;         /* an IPv4 fragment or an IPv6 fragment header */
	uint32_t frag_off; /* in bytes */
	bool more;         /* MF / M */
	uint32_t frag_id;  /* IPv4 ID or IPv6 fragment identification */
};

/* Walk f (len bytes): Ethernet, VLAN tags, IPv4 (header length and total
 * length within the frame) or IPv6 (payload length and every extension
 * header within the frame).  Returns false for anything else. */
bool ipwalk(const uint8_t *f, size_t len, struct ipwalk *w);

#endif
