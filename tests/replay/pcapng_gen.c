/*
 * pcapng_gen.c - see pcapng_gen.h.  Aborts when memory runs out (a test).
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "pcapng_gen.h"

#include "growbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put(struct pcapng_gen *g, const void *p, size_t n) { growbuf_put(&g->buf, &g->len, &g->cap, p, n); }

static void u16(struct pcapng_gen *g, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
	if (g->be) {
		b[0] = (uint8_t)(v >> 8);
		b[1] = (uint8_t)v;
	}
	put(g, b, 2);
}

static void u32(struct pcapng_gen *g, uint32_t v)
{
	if (g->be) {
		u16(g, (uint16_t)(v >> 16));
		u16(g, (uint16_t)v);
	} else {
		u16(g, (uint16_t)v);
		u16(g, (uint16_t)(v >> 16));
	}
}

void pcapng_gen_init(struct pcapng_gen *g, int big_endian)
{
	memset(g, 0, sizeof *g);
	g->be = big_endian;
	u32(g, 0x0A0D0D0Au); /* SHB */
	u32(g, 28);
	u32(g, 0x1A2B3C4Du); /* byte-order magic */
	u16(g, 1);
	u16(g, 0);
	u32(g, 0xFFFFFFFFu); /* section length: unknown */
	u32(g, 0xFFFFFFFFu);
	u32(g, 28);
}

void pcapng_gen_iface(struct pcapng_gen *g, uint16_t linktype, uint32_t snaplen, int nano)
{
	uint32_t total = 20 + (nano ? 12 : 0);
	static const uint8_t pad[3];

	u32(g, 1); /* IDB */
	u32(g, total);
	u16(g, linktype);
	u16(g, 0);
	u32(g, snaplen);
	if (nano) {
		u16(g, 9); /* if_tsresol */
		u16(g, 1);
		put(g, (const uint8_t[]){ 9 }, 1);
		put(g, pad, 3);
		u16(g, 0); /* opt_endofopt */
		u16(g, 0);
	}
	u32(g, total);
}

void pcapng_gen_packet(struct pcapng_gen *g, uint32_t iface, uint64_t ts, const void *data,
                       uint32_t caplen, uint32_t len)
{
	static const uint8_t pad[3];
	uint32_t padded = (caplen + 3u) & ~3u;
	uint32_t total = 32 + padded;

	u32(g, 6); /* EPB */
	u32(g, total);
	u32(g, iface);
	u32(g, (uint32_t)(ts >> 32));
	u32(g, (uint32_t)ts);
	u32(g, caplen);
	u32(g, len);
	put(g, data, caplen);
	put(g, pad, padded - caplen);
	u32(g, total);
}

int pcapng_gen_save(const struct pcapng_gen *g, const char *path)
{
	FILE *fp = fopen(path, "wb");
	int rc = 0;

	if (!fp)
		return -1;
	if (fwrite(g->buf, 1, g->len, fp) != g->len)
		rc = -1;
	if (fclose(fp) != 0)
		rc = -1;
	return rc;
}
