/*
 * mkpcap.c - write a capture of generated traffic (tests/support/gen.c) for
 * the whole-process timings of offload-replay.
 *
 *   ofl_mkpcap OUT.pcap bulk L3 FLOWS SEGS      interleaved bulk TCP, MSS 1448
 *   ofl_mkpcap OUT.pcap super L3 BYTES COUNT    TCP super-packets of BYTES bytes
 *                                               (frame length) for GSO
 *
 * Classic pcap, Ethernet link type, one microsecond between frames.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

static int put_hdr(FILE *f)
{
	const uint32_t h[6] = {0xa1b2c3d4u, 2u | 4u << 16, 0, 0, 262144, 1};
	return fwrite(h, sizeof h, 1, f) == 1 ? 0 : -1;
}

static int put_rec(FILE *f, uint64_t usec, const uint8_t *p, uint32_t len)
{
	uint32_t r[4];
	r[0] = (uint32_t)(usec / 1000000u);
	r[1] = (uint32_t)(usec % 1000000u);
	r[2] = len;
	r[3] = len;
	if (fwrite(r, sizeof r, 1, f) != 1 || fwrite(p, len, 1, f) != 1)
		return -1;
	return 0;
}

static unsigned long num(const char *s)
{
	char *e;
	unsigned long v = strtoul(s, &e, 10);
	if (!*s || *e) {
		fprintf(stderr, "ofl_mkpcap: not a number: %s\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	FILE *f;
	int l3, rc = 0;
	if (argc != 6 || (strcmp(argv[2], "bulk") && strcmp(argv[2], "super"))) {
		fprintf(stderr, "usage: ofl_mkpcap OUT bulk 4|6 FLOWS SEGS\n"
		                "       ofl_mkpcap OUT super 4|6 BYTES COUNT\n");
		return 2;
	}
	l3 = (int)num(argv[3]);
	if (l3 != 4 && l3 != 6) {
		fprintf(stderr, "ofl_mkpcap: L3 is 4 or 6\n");
		return 2;
	}
	f = fopen(argv[1], "wb");
	if (!f || put_hdr(f)) {
		perror(argv[1]);
		return 1;
	}
	if (strcmp(argv[2], "bulk") == 0) {
		unsigned flows = (unsigned)num(argv[4]), segs = (unsigned)num(argv[5]), s;
		const size_t stride = 1536;
		uint8_t *buf = malloc(stride * flows);
		uint32_t *lens = malloc(sizeof(*lens) * flows);
		struct gen_tcp g;
		if (!buf || !lens || flows == 0)
			return 1;
		/* gen_bulk one round at a time: segment s of every flow. */
		gen_tcp_init(&g, l3);
		for (s = 0; s < segs && !rc; s++) {
			unsigned fl;
			if (s == 0) {
				gen_bulk(l3, flows, 1, 1448, buf, stride, lens);
			} else {
				for (fl = 0; fl < flows; fl++) {
					g.payload_len = 1448;
					g.sport = (uint16_t)(1000 + fl);
					g.saddr[l3 == 4 ? 2 : 13] = (uint8_t)(fl >> 16);
					g.saddr[l3 == 4 ? 1 : 12] = (uint8_t)(fl >> 24);
					g.flow_salt = fl;
					g.seq = 1000 + s * 1448u;
					g.ip_id = (uint16_t)(s + fl);
					lens[fl] = (uint32_t)gen_tcp_frame(&g, buf + fl * stride, stride);
				}
			}
			for (fl = 0; fl < flows && !rc; fl++)
				rc = put_rec(f, (uint64_t)s * flows + fl, buf + fl * stride, lens[fl]);
		}
		free(buf);
		free(lens);
	} else {
		unsigned bytes = (unsigned)num(argv[4]), count = (unsigned)num(argv[5]), i;
		struct gen_tcp g;
		uint8_t *buf;
		gen_tcp_init(&g, l3);
		g.payload_len = 0;
		if (bytes < gen_tcp_len(&g) || bytes > 65535 + 14) {
			fprintf(stderr, "ofl_mkpcap: BYTES out of range\n");
			return 2;
		}
		g.payload_len = bytes - (uint32_t)gen_tcp_len(&g);
		buf = malloc(bytes);
		if (!buf)
			return 1;
		for (i = 0; i < count && !rc; i++) {
			size_t n;
			g.seq = 1000 + i * g.payload_len;
			g.ip_id = (uint16_t)i;
			n = gen_tcp_frame(&g, buf, bytes);
			rc = put_rec(f, i, buf, (uint32_t)n);
		}
		free(buf);
	}
	if (fclose(f) || rc) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
