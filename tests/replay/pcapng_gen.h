/*
 * pcapng_gen.h - a minimal pcapng writer for the tests: libpcap 1.10 writes
 * no pcapng, and the tests need pcapng inputs (either byte order, with
 * nanosecond resolution, with interfaces of differing link types).
 * Blocks: one Section Header, Interface Descriptions, Enhanced Packets.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_TEST_PCAPNG_GEN_H
#define OFL_TEST_PCAPNG_GEN_H

#include <stddef.h>
#include <stdint.h>

struct pcapng_gen {
	uint8_t *buf;  /**< the file so far (malloc'd; free() it) */
	size_t len, cap;
	int be;        /**< big-endian blocks */
};

/** Start a file: the Section Header Block in that byte order. */
void pcapng_gen_init(struct pcapng_gen *g, int big_endian);

/** An Interface Description Block; nano: if_tsresol 9 (else the default 6). */
void pcapng_gen_iface(struct pcapng_gen *g, uint16_t linktype, uint32_t snaplen, int nano);

/** An Enhanced Packet Block on interface iface; ts in the interface's units. */
void pcapng_gen_packet(struct pcapng_gen *g, uint32_t iface, uint64_t ts, const void *data,
                       uint32_t caplen, uint32_t len);

/** Write the file to path; returns 0 or -1. */
int pcapng_gen_save(const struct pcapng_gen *g, const char *path);

#endif /* OFL_TEST_PCAPNG_GEN_H */
