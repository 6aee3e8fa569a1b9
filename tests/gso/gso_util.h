/*
 * gso_util.h - helpers for the GSO tests: super-packet generators (TCP via
 * tests/support/gen.h, UDP here), an independent checker of IPv4, TCP and
 * UDP checksums (RFC 1071 through gen_csum_fold, not the library's code),
 * segment linearization, and a runner that collects every segment of a
 * super-packet as linear frames.
 */
#ifndef OFL_TEST_GSO_UTIL_H
#define OFL_TEST_GSO_UTIL_H

#include <ofl/gso.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen.h"
#include "ipwalk.h"

#define GU_MAX_SEGS 512
#define GU_FRAME_MAX 9200

struct gu_udp {
	int l3;
	uint8_t nvlan;
	uint16_t vlan_tpid[2], vlan_tci[2];
	uint16_t sport, dport;
	uint16_t ip_id;
	bool df;
	uint8_t ttl, tos;
	uint32_t payload_len;
	uint32_t salt;
};

void gu_udp_init(struct gu_udp *u, int l3);
/* Write the UDP frame (valid checksums); returns its length, 0 if cap is too
 * small.  A length field that cannot hold the length says 0. */
size_t gu_udp_frame(const struct gu_udp *u, uint8_t *buf, size_t cap);
/* Up to two VLAN tags of a generated frame (gen_tcp or gu_udp arrays):
 * nvlan of them, the outer 802.1ad when there are two (else 802.1Q) with
 * tci0, the inner 802.1Q with tci1.  Returns nvlan. */
uint8_t gu_two_tags(uint16_t *tpid, uint16_t *tci, int nvlan, uint16_t tci0, uint16_t tci1);

/* Frame layout found by the independent parser below. */
struct gu_info {
	struct ipwalk ip;    /* the IP layers (ipwalk.h) */
	size_t l4_len;       /* from the transport header to the IP packet's end */
	size_t payload_off;  /* after the TCP or UDP header */
};

/* Parse a linear frame (Ethernet, VLAN tags, IPv4/IPv6, TCP/UDP, IPv6
 * fragment header).  IP lengths 0 (BIG TCP) mean the end of the frame. */
bool gu_parse(const uint8_t *f, size_t len, struct gu_info *gi);

/* Verify the IPv4 header checksum and, for a non-fragment, the TCP/UDP
 * checksum.  Returns true when valid. */
bool gu_csums_ok(const uint8_t *f, size_t len);

/* Finish a CHECKSUM_PARTIAL frame: fold from start to the end into
 * start + offset (the field holds the pseudo-header sum). */
void gu_complete_csum(uint8_t *f, size_t len, unsigned start, unsigned offset);

/* Linearize a segment into buf; returns its length. */
size_t gu_linearize(const struct ofl_gso_seg *s, uint8_t *buf, size_t cap);

/* Collected segments of one super-packet. */
struct gu_segs {
	unsigned n;
	uint8_t *frame[GU_MAX_SEGS];
	uint32_t len[GU_MAX_SEGS];
	struct ofl_gso_seg seg[GU_MAX_SEGS]; /* as returned (slot pointers stale) */
};

/* Run it to the end with a block pool of nslots slots of slot_size bytes,
 * putting each slot back after linearizing.  Returns 0 or the error. */
int gu_collect(struct ofl_gso_iter *it, struct gu_segs *out, uint32_t nslots, uint32_t slot_size);
void gu_segs_free(struct gu_segs *s);
/* gu_segs_free(), then free(s) (segments collected into a malloc'ed s). */
void gu_segs_drop(struct gu_segs *s);
/* Check assertions (gso_check.c): a and b are the same segments, byte for
 * byte. */
void gu_segs_same(const struct gu_segs *a, const struct gu_segs *b);
/* Check assertions (gso_check.c): segment records a and b lay their
 * frames out alike: hdr_len, l3_off, l4_off, csum_start, csum_offset and
 * flags are the same. */
void gu_seg_layout_same(const struct ofl_gso_seg *a, const struct ofl_gso_seg *b);
/* ... and every other field but the header slot (lengths, index, release
 * range, slices) equal (gso_check.c). */
void gu_seg_same_but_slot(const struct ofl_gso_seg *a, const struct ofl_gso_seg *b);
/* A pool of nslots slots of size bytes cut from block, given as an array
 * (ofl_gso_pool_init_array(); arr holds nslots, offsets 0x1000 + i);
 * asserts it is accepted (gso_check.c). */
void gu_pool_array(struct ofl_gso_pool *p, struct ofl_gso_hbuf *arr, uint8_t *block, uint32_t nslots,
                   uint32_t size);

/* Every frame of a capture file (pcap or pcapng through libpcap),
 * copied (free with gu_pcap_free). */
struct gu_pcap {
	unsigned n;
	uint8_t **frame;
	uint32_t *len;
	uint32_t linktype;
};
bool gu_pcap_read(const char *path, struct gu_pcap *p);
void gu_pcap_free(struct gu_pcap *p);
/* Write frames as a classic pcap (Ethernet); returns true on success. */
bool gu_pcap_write(const char *path, uint8_t *const *frames, const uint32_t *lens, unsigned n);

/* Make a frame BIG TCP style: IP length field 0 (IPv4 header checksum
 * fixed).  l3_off: offset of the IP header. */
void gu_bigtcp(uint8_t *f, size_t l3_off);

#endif
