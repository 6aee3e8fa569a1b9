/*
 * pcapio_test.c - the pcap/pcapng reader and writer of offload-replay:
 * round trips in both byte orders and both time stamp resolutions, every
 * truncation of a file, corrupted header fields, pcapng blocks written by
 * hand (sections, interfaces, SPB/PB, options), and random corruption.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "pcapio.h"

#define NFRAMES 5

static const uint32_t frame_len[NFRAMES] = { 60, 1514, 0, 33, 9000 };
static const uint64_t frame_ts[NFRAMES] = {
	1700000000123456789ull, 1700000000123457000ull, 1700000001000000000ull,
	1700000001999999999ull, 4000000000000000001ull,
};

static uint8_t frame_byte(unsigned f, uint32_t i)
{
	return (uint8_t)(f * 31u + i * 7u + (i >> 8));
}

static void fill_frame(unsigned f, uint8_t *p)
{
	for (uint32_t i = 0; i < frame_len[f]; i++)
		p[i] = frame_byte(f, i);
}

/* Write NFRAMES frames; frame 3 is cut to 20 bytes of its 33. */
static void write_sample(struct pcapio_writer *w, enum pcapio_format fmt, int nano, int be)
{
	static uint8_t buf[9000];

	ck_assert_int_eq(pcapio_writer_init(w, fmt, 1, 65535, nano, be), PCAPIO_OK);
	for (unsigned f = 0; f < NFRAMES; f++) {
		fill_frame(f, buf);
		uint32_t caplen = f == 3 ? 20 : frame_len[f];
		ck_assert_int_eq(pcapio_write(w, frame_ts[f], buf, caplen, frame_len[f]), PCAPIO_OK);
	}
	ck_assert_uint_eq(w->frames, NFRAMES);
}

static void check_sample(const uint8_t *data, size_t len, enum pcapio_format fmt, int nano, int be)
{
	struct pcapio_reader *r = malloc(sizeof *r);
	struct pcapio_frame f;

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(pcapio_open(r, data, len, 0), PCAPIO_OK);
	ck_assert_int_eq(r->format, fmt);
	ck_assert_int_eq(r->big_endian, be);
	ck_assert_int_eq(r->nano, nano);
	ck_assert_uint_eq(r->linktype, 1);
	ck_assert_uint_eq(r->snaplen, 65535);
	for (unsigned i = 0; i < NFRAMES; i++) {
		ck_assert_int_eq(pcapio_next(r, &f), PCAPIO_OK);
		ck_assert_uint_eq(f.len, frame_len[i]);
		ck_assert_uint_eq(f.caplen, i == 3 ? 20 : frame_len[i]);
		ck_assert_uint_eq(f.ts_ns, nano ? frame_ts[i] : frame_ts[i] / 1000 * 1000);
		ck_assert_uint_eq(f.linktype, 1);
		for (uint32_t j = 0; j < f.caplen; j++)
			ck_assert_uint_eq(f.data[j], frame_byte(i, j));
	}
	ck_assert_int_eq(pcapio_next(r, &f), PCAPIO_END);
	ck_assert_int_eq(pcapio_next(r, &f), PCAPIO_END);
	ck_assert_uint_eq(r->frames, NFRAMES);
	free(r);
}

/* _i: bit 0 big-endian, bit 1 nanosecond, bit 2 pcapng */
START_TEST(round_trip)
{
	struct pcapio_writer w;
	int be = _i & 1, nano = (_i >> 1) & 1;
	enum pcapio_format fmt = (_i & 4) ? PCAPIO_FMT_PCAPNG : PCAPIO_FMT_PCAP;

	write_sample(&w, fmt, nano, be);
	check_sample(w.buf, w.len, fmt, nano, be);
	pcapio_writer_free(&w);
}
END_TEST

START_TEST(magic_bytes)
{
	struct pcapio_writer w;
	static const uint8_t us_le[4] = { 0xd4, 0xc3, 0xb2, 0xa1 }, ns_be[4] = { 0xa1, 0xb2, 0x3c, 0x4d };

	write_sample(&w, PCAPIO_FMT_PCAP, 0, 0);
	ck_assert_mem_eq(w.buf, us_le, 4);
	pcapio_writer_free(&w);
	write_sample(&w, PCAPIO_FMT_PCAP, 1, 1);
	ck_assert_mem_eq(w.buf, ns_be, 4);
	pcapio_writer_free(&w);
}
END_TEST

/*
 * Every prefix of a file: either an error (never a crash or an over-read:
 * each prefix is a copy of exactly its length), or, exactly at a record
 * boundary, the frames before it and then the end.  Every length inside
 * the headers, records and blocks is tried; inside frame data, every 61st.
 */
START_TEST(truncated_everywhere)
{
	struct pcapio_writer w;
	struct pcapio_reader *r = malloc(sizeof *r);
	size_t bounds[NFRAMES + 1], data_from[NFRAMES], data_to[NFRAMES];
	enum pcapio_format fmt = (_i & 4) ? PCAPIO_FMT_PCAPNG : PCAPIO_FMT_PCAP;

	ck_assert_ptr_nonnull(r);
	write_sample(&w, fmt, (_i >> 1) & 1, _i & 1);
	/* record boundaries: read the whole file once */
	ck_assert_int_eq(pcapio_open(r, w.buf, w.len, 0), PCAPIO_OK);
	bounds[0] = r->off;
	for (unsigned k = 0; k < NFRAMES; k++) {
		struct pcapio_frame f;
		ck_assert_int_eq(pcapio_next(r, &f), PCAPIO_OK);
		bounds[k + 1] = r->off;
		data_from[k] = (size_t)(f.data - w.buf);
		data_to[k] = data_from[k] + f.caplen;
	}
	ck_assert_uint_eq(bounds[NFRAMES], w.len);
	for (size_t len = 0; len < w.len; len++) {
		int in_data = 0;
		for (unsigned k = 0; k < NFRAMES; k++)
			in_data |= len > data_from[k] + 1 && len + 1 < data_to[k];
		if (in_data && len % 61 != 0)
			continue;
		uint8_t *copy = malloc(len ? len : 1);
		struct pcapio_frame f;
		int rc;
		unsigned n = 0, at_bound = 0, want = 0;

		ck_assert_ptr_nonnull(copy);
		memcpy(copy, w.buf, len);
		for (unsigned k = 0; k <= NFRAMES; k++)
			if (bounds[k] == len) {
				at_bound = 1;
				want = k;
			}
		if (fmt == PCAPIO_FMT_PCAPNG && len == 28)
			at_bound = 1; /* a lone section header is an empty capture */
		rc = pcapio_open(r, copy, len, 0);
		while (rc == PCAPIO_OK && (rc = pcapio_next(r, &f)) == PCAPIO_OK)
			n++;
		if (at_bound) {
			ck_assert_msg(rc == PCAPIO_END, "prefix %zu: %d (%s)", len, rc, r->err);
			ck_assert_uint_eq(n, want);
		} else {
			ck_assert_msg(rc == PCAPIO_ETRUNC, "prefix %zu: %d (%s)", len, rc, r->err);
			ck_assert_msg(r->err[0] != '\0', "prefix %zu: no message", len);
			if (len > bounds[0])
				ck_assert_msg(strstr(r->err, "frame ") || strstr(r->err, "block "),
				              "prefix %zu: message '%s' names no frame", len, r->err);
		}
		free(copy);
	}
	pcapio_writer_free(&w);
	free(r);
}
END_TEST

/* Read a file to its end or its first error. */
static int read_all(struct pcapio_reader *r, const uint8_t *d, size_t n, unsigned flags,
                    unsigned *frames)
{
	struct pcapio_frame f;
	int rc = pcapio_open(r, d, n, flags);

	*frames = 0;
	while (rc == PCAPIO_OK && (rc = pcapio_next(r, &f)) == PCAPIO_OK)
		(*frames)++;
	return rc;
}

static void put32le(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Classic pcap: the offset of frame k's record header in the sample (LE, us). */
static size_t rec_off(unsigned k)
{
	size_t off = 24;
	for (unsigned i = 0; i < k; i++)
		off += 16 + (i == 3 ? 20 : frame_len[i]);
	return off;
}

START_TEST(classic_bad_fields)
{
	struct pcapio_writer w;
	struct pcapio_reader *r = malloc(sizeof *r);
	unsigned n;

	ck_assert_ptr_nonnull(r);
	write_sample(&w, PCAPIO_FMT_PCAP, 0, 0);
	uint8_t *d = w.buf;

	/* bad magic */
	d[0] ^= 0xff;
	ck_assert_int_eq(read_all(r, d, w.len, 0, &n), PCAPIO_EMAGIC);
	d[0] ^= 0xff;
	/* unsupported version */
	d[4] = 3;
	ck_assert_int_eq(read_all(r, d, w.len, 0, &n), PCAPIO_EFORMAT);
	ck_assert_ptr_nonnull(strstr(r->err, "version 3.4"));
	d[4] = 2;
	/* caplen > snaplen on frame 2 (1514 bytes): lower the snaplen */
	put32le(d + 16, 1000);
	ck_assert_int_eq(read_all(r, d, w.len, 0, &n), PCAPIO_EFORMAT);
	ck_assert_uint_eq(n, 1);
	ck_assert_msg(strstr(r->err, "frame 2 ") && strstr(r->err, "caplen 1514 > snaplen 1000"), "%s",
	              r->err);
	/* ...accepted and counted with the lax flag, and frame 5 (9000) too */
	ck_assert_int_eq(read_all(r, d, w.len, PCAPIO_F_LAX_SNAPLEN, &n), PCAPIO_END);
	ck_assert_uint_eq(n, NFRAMES);
	ck_assert_uint_eq(r->over_snaplen, 2);
	/* snaplen 0: no limit */
	put32le(d + 16, 0);
	ck_assert_int_eq(read_all(r, d, w.len, 0, &n), PCAPIO_END);
	put32le(d + 16, 65535);
	/* caplen past the end of the data on frame 5 */
	put32le(d + rec_off(4) + 8, 9001);
	ck_assert_int_eq(read_all(r, d, w.len, PCAPIO_F_LAX_SNAPLEN, &n), PCAPIO_ETRUNC);
	ck_assert_uint_eq(n, 4);
	ck_assert_msg(strstr(r->err, "frame 5 "), "%s", r->err);
	put32le(d + rec_off(4) + 8, 9000);
	/* microseconds out of range on frame 3 */
	put32le(d + rec_off(2) + 4, 1000000);
	ck_assert_int_eq(read_all(r, d, w.len, 0, &n), PCAPIO_EFORMAT);
	ck_assert_msg(strstr(r->err, "frame 3 "), "%s", r->err);
	/* errors are sticky */
	struct pcapio_frame f;
	ck_assert_int_eq(pcapio_next(r, &f), PCAPIO_EFORMAT);
	put32le(d + rec_off(2) + 4, 999999);
	ck_assert_int_eq(read_all(r, d, w.len, 0, &n), PCAPIO_END);
	ck_assert_uint_eq(n, NFRAMES);
	/* FCS bits above the link type are not part of it */
	put32le(d + 20, 0x14000001u);
	ck_assert_int_eq(read_all(r, d, w.len, 0, &n), PCAPIO_END);
	ck_assert_uint_eq(r->linktype, 1);
	/* misuse */
	ck_assert_int_eq(pcapio_open(NULL, d, w.len, 0), PCAPIO_EINVAL);
	ck_assert_int_eq(pcapio_open(r, NULL, 10, 0), PCAPIO_EINVAL);
	ck_assert_int_eq(pcapio_next(r, NULL), PCAPIO_EINVAL);
	pcapio_writer_free(&w);
	free(r);
}
END_TEST

START_TEST(writer_misuse)
{
	struct pcapio_writer w;
	uint8_t b[4] = { 0 };

	ck_assert_int_eq(pcapio_writer_init(&w, PCAPIO_FMT_PCAP, 1, 100, 0, 0), PCAPIO_OK);
	ck_assert_int_eq(pcapio_write(&w, 0, b, 4, 3), PCAPIO_EINVAL); /* caplen > len */
	ck_assert_int_eq(pcapio_write(&w, 0, NULL, 4, 4), PCAPIO_EINVAL);
	ck_assert_int_eq(pcapio_write(&w, 0, NULL, 0, 0), PCAPIO_OK);
	ck_assert_uint_eq(w.frames, 1);
	pcapio_writer_free(&w);
	ck_assert_int_eq(pcapio_writer_init(&w, PCAPIO_FMT_PCAPNG, 70000, 100, 0, 0), PCAPIO_EINVAL);
	ck_assert_int_eq(pcapio_writer_init(&w, (enum pcapio_format)7, 1, 100, 0, 0), PCAPIO_EINVAL);
}
END_TEST

/* ---- pcapng written by hand ---------------------------------------------- */

struct ng {
	uint8_t b[4096];
	size_t len;
	size_t start; /* of the open block */
	int be;
};

static void ng_u8(struct ng *g, uint8_t v)
{
	ck_assert_uint_lt(g->len, sizeof g->b);
	g->b[g->len++] = v;
}

static void ng_u16(struct ng *g, uint16_t v)
{
	ng_u8(g, (uint8_t)(g->be ? v >> 8 : v));
	ng_u8(g, (uint8_t)(g->be ? v : v >> 8));
}

static void ng_u32(struct ng *g, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		ng_u8(g, (uint8_t)(v >> (8 * (g->be ? 3 - i : i))));
}

static void ng_begin(struct ng *g, uint32_t type)
{
	g->start = g->len;
	ng_u32(g, type);
	ng_u32(g, 0); /* length, set by ng_end */
}

static void ng_end(struct ng *g)
{
	while (g->len % 4)
		ng_u8(g, 0);
	uint32_t blen = (uint32_t)(g->len - g->start + 4);
	ng_u32(g, blen);
	size_t save = g->len;
	g->len = g->start + 4;
	ng_u32(g, blen);
	g->len = save;
}

static void ng_shb(struct ng *g, int be)
{
	g->be = be;
	ng_begin(g, 0x0A0D0D0A);
	ng_u32(g, 0x1A2B3C4D);
	ng_u16(g, 1);
	ng_u16(g, 0);
	ng_u32(g, 0xffffffff);
	ng_u32(g, 0xffffffff);
	ng_end(g);
}

/* IDB; tsresol 0xff = no option; tsoffset written when non-zero */
static void ng_idb(struct ng *g, uint16_t linktype, uint32_t snaplen, unsigned tsresol,
                   uint32_t tsoffset)
{
	ng_begin(g, 1);
	ng_u16(g, linktype);
	ng_u16(g, 0);
	ng_u32(g, snaplen);
	ng_u16(g, 2); /* if_name "eth0" */
	ng_u16(g, 4);
	ng_u32(g, 0x30687465);
	if (tsresol != 0xff) {
		ng_u16(g, 9);
		ng_u16(g, 1);
		ng_u8(g, (uint8_t)tsresol);
		ng_u8(g, 0);
		ng_u16(g, 0);
	}
	if (tsoffset) {
		ng_u16(g, 14);
		ng_u16(g, 8);
		ng_u32(g, g->be ? 0 : tsoffset);
		ng_u32(g, g->be ? tsoffset : 0);
	}
	ng_u16(g, 0);
	ng_u16(g, 0);
	ng_end(g);
}

static void ng_epb(struct ng *g, uint32_t iface, uint64_t ts, uint32_t caplen, uint32_t len,
                   uint8_t fill)
{
	ng_begin(g, 6);
	ng_u32(g, iface);
	ng_u32(g, (uint32_t)(ts >> 32));
	ng_u32(g, (uint32_t)ts);
	ng_u32(g, caplen);
	ng_u32(g, len);
	for (uint32_t i = 0; i < caplen; i++)
		ng_u8(g, fill);
	ng_end(g);
}

static void ng_other(struct ng *g, uint32_t type, unsigned words)
{
	ng_begin(g, type);
	for (unsigned i = 0; i < words; i++)
		ng_u32(g, i);
	ng_end(g);
}

START_TEST(pcapng_blocks)
{
	struct ng *g = calloc(1, sizeof *g);
	struct pcapio_reader *r = malloc(sizeof *r);
	struct pcapio_frame f;

	ck_assert_ptr_nonnull(g);
	ck_assert_ptr_nonnull(r);
	/* section 1, little-endian: two interfaces (us default; ns), NRB
	 * skipped, an EPB on each, an SPB, an obsolete PB, an ISB skipped */
	ng_shb(g, 0);
	ng_idb(g, 1, 128, 0xff, 0);
	ng_other(g, 4, 3); /* name resolution block */
	ng_idb(g, 1, 0, 9, 10);
	ng_epb(g, 0, 1500000000123456ull, 60, 60, 0xaa);
	ng_epb(g, 1, 5, 3, 70, 0xbb); /* 5 ns + 10 s offset */
	ng_begin(g, 3);               /* SPB: len 200, snaplen 128 of iface 0 */
	ng_u32(g, 200);
	for (int i = 0; i < 128; i++)
		ng_u8(g, 0xcc);
	ng_end(g);
	ng_begin(g, 2); /* PB: iface 1, drops 0 */
	ng_u16(g, 1);
	ng_u16(g, 0);
	ng_u32(g, 0);
	ng_u32(g, 7);
	ng_u32(g, 2);
	ng_u32(g, 2);
	ng_u8(g, 0xdd);
	ng_u8(g, 0xdd);
	ng_end(g);
	ng_other(g, 5, 6); /* interface statistics block */
	/* section 2, big-endian: its own interface table, binary resolution 2^-10 */
	ng_shb(g, 1);
	ng_idb(g, 1, 65535, 0x8a, 0);
	ng_epb(g, 0, (3ull << 10) | 512, 14, 14, 0xee);

	ck_assert_int_eq(pcapio_open(r, g->b, g->len, 0), PCAPIO_OK);
	ck_assert_int_eq(r->format, PCAPIO_FMT_PCAPNG);
	ck_assert_uint_eq(r->linktype, 1);
	ck_assert_uint_eq(r->snaplen, 128);
	ck_assert_uint_eq(r->nifaces, 2); /* open reads up to the first packet block */
	ck_assert_int_eq(r->nano, 1);     /* the second interface is ns */
	ck_assert_int_eq(pcapio_next(r, &f), PCAPIO_OK);
	ck_assert_uint_eq(f.caplen, 60);
	ck_assert_uint_eq(f.ts_ns, 1500000000123456000ull);
	ck_assert_uint_eq(f.data[0], 0xaa);
	ck_assert_int_eq(pcapio_next(r, &f), PCAPIO_OK);
	ck_assert_uint_eq(f.iface, 1);
	ck_assert_uint_eq(f.caplen, 3);
	ck_assert_uint_eq(f.len, 70);
	ck_assert_uint_eq(f.ts_ns, 10000000005ull);
	ck_assert_int_eq(pcapio_next(r, &f), PCAPIO_OK); /* SPB: previous time stamp */
	ck_assert_uint_eq(f.caplen, 128);
	ck_assert_uint_eq(f.len, 200);
	ck_assert_uint_eq(f.data[127], 0xcc);
	ck_assert_uint_eq(f.ts_ns, 10000000005ull);
	ck_assert_int_eq(pcapio_next(r, &f), PCAPIO_OK); /* PB */
	ck_assert_uint_eq(f.iface, 1);
	ck_assert_uint_eq(f.caplen, 2);
	ck_assert_uint_eq(f.ts_ns, 10000000007ull);
	ck_assert_int_eq(pcapio_next(r, &f), PCAPIO_OK);
	ck_assert_int_eq(r->big_endian, 1);
	ck_assert_uint_eq(r->nifaces, 1);
	ck_assert_uint_eq(f.caplen, 14);
	ck_assert_uint_eq(f.ts_ns, 3500000000ull);
	ck_assert_int_eq(pcapio_next(r, &f), PCAPIO_END);
	ck_assert_uint_eq(r->frames, 5);
	free(g);
	free(r);
}
END_TEST

/* One pcapng defect per case: the reader must refuse it with a message. */
START_TEST(pcapng_bad)
{
	struct ng *g = calloc(1, sizeof *g);
	struct pcapio_reader *r = malloc(sizeof *r);
	unsigned n;
	int rc, want = PCAPIO_EFORMAT;
	const char *msg = NULL;

	ck_assert_ptr_nonnull(g);
	ck_assert_ptr_nonnull(r);
	ng_shb(g, _i & 1);
	ng_idb(g, 1, 100, 0xff, 0);
	switch (_i >> 1) {
	case 0: /* packet on an undefined interface */
		ng_epb(g, 1, 0, 10, 10, 0);
		msg = "interface 1 not defined";
		break;
	case 1: /* caplen > snaplen */
		ng_epb(g, 0, 0, 101, 101, 0);
		msg = "caplen 101 > snaplen 100";
		break;
	case 2: /* caplen beyond the block */
		ng_epb(g, 0, 0, 8, 8, 0);
		g->b[g->len - 20 + (g->be ? 3 : 0)] = 9; /* caplen: 20 bytes into the 40 */
		msg = "exceeds its block";
		break;
	case 3: /* trailing length differs */
		ng_epb(g, 0, 0, 8, 8, 0);
		g->b[g->len - (g->be ? 1 : 4)] ^= 4;
		msg = "trailing length";
		break;
	case 4: /* length not a multiple of 4 */
		ng_epb(g, 0, 0, 8, 8, 0);
		g->b[g->len - 40 + (g->be ? 7 : 4)] += 1;
		msg = "bad length";
		break;
	case 5: /* an option overruns its block */
		ng_begin(g, 1);
		ng_u16(g, 1);
		ng_u16(g, 0);
		ng_u32(g, 0);
		ng_u16(g, 9);
		ng_u16(g, 200);
		ng_end(g);
		msg = "overruns";
		break;
	case 6: /* a block longer than the data */
		ng_begin(g, 6);
		ng_u32(g, 0);
		ng_end(g);
		g->len -= 4;
		want = PCAPIO_ETRUNC;
		msg = "only";
		break;
	case 7: /* a second SHB with a bad byte-order magic */
		ng_shb(g, g->be);
		g->b[g->len - 20] ^= 0x10;
		msg = "byte-order magic";
		break;
	case 8: /* EPB too short for its fields */
		ng_other(g, 6, 2);
		msg = "block length";
		break;
	default: /* a pcapng version 2 section */
		ng_shb(g, g->be);
		g->b[g->len - 16 + (g->be ? 1 : 0)] = 2;
		msg = "version 2";
		break;
	}
	rc = read_all(r, g->b, g->len, 0, &n);
	ck_assert_msg(rc == want, "case %d: %d (%s)", _i, rc, r->err);
	ck_assert_msg(strstr(r->err, msg), "case %d: '%s' lacks '%s'", _i, r->err, msg);
	free(g);
	free(r);
}
END_TEST

/* Random corruption: never a crash; frames returned stay inside the data. */
START_TEST(random_corruption)
{
	struct pcapio_writer w;
	struct pcapio_reader *r = malloc(sizeof *r);
	uint32_t x = 12345u + (uint32_t)_i;
	enum pcapio_format fmt = (_i & 4) ? PCAPIO_FMT_PCAPNG : PCAPIO_FMT_PCAP;

	ck_assert_ptr_nonnull(r);
	write_sample(&w, fmt, (_i >> 1) & 1, _i & 1);
	uint8_t *copy = malloc(w.len);
	ck_assert_ptr_nonnull(copy);
	for (int iter = 0; iter < 3000; iter++) {
		struct pcapio_frame f;
		int rc;
		memcpy(copy, w.buf, w.len);
		for (int k = 0; k < 1 + iter % 4; k++) {
			x = x * 1103515245u + 12345u;
			size_t pos = (x >> 8) % (iter % 2 ? 64 : w.len); /* headers often */
			x = x * 1103515245u + 12345u;
			copy[pos] = (uint8_t)(x >> 16);
		}
		rc = pcapio_open(r, copy, w.len, iter % 3 == 0 ? PCAPIO_F_LAX_SNAPLEN : 0);
		while (rc == PCAPIO_OK && (rc = pcapio_next(r, &f)) == PCAPIO_OK)
			ck_assert(f.data >= copy && f.data + f.caplen <= copy + w.len);
		ck_assert(rc == PCAPIO_END || (rc < 0 && r->err[0]));
	}
	free(copy);
	pcapio_writer_free(&w);
	free(r);
}
END_TEST

static Suite *pcapio_suite(void)
{
	Suite *s = suite_create("pcapio");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, round_trip, 0, 8);
	tcase_add_test(tc, magic_bytes);
	tcase_add_loop_test(tc, truncated_everywhere, 0, 8);
	tcase_add_test(tc, classic_bad_fields);
	tcase_add_test(tc, writer_misuse);
	tcase_add_test(tc, pcapng_blocks);
	tcase_add_loop_test(tc, pcapng_bad, 0, 20);
	tcase_add_loop_test(tc, random_corruption, 0, 8);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(pcapio_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
