/*
 * pcapio.c - classic pcap and pcapng reader and writer on memory buffers.
 *
 * Classic pcap (libpcap's savefile.c/sf-pcap.c layout):
 *
 *   file header (24): magic | major(2) minor(2) | thiszone | sigfigs | snaplen | network
 *   record (16 + caplen): ts_sec | ts_usec or ts_nsec | caplen | len | data
 *
 * pcapng (draft-ietf-opsawg-pcapng): a sequence of blocks
 *
 *   type(4) | total length(4) | body | total length(4)     (length % 4 == 0)
 *
 * in the byte order given by the byte-order magic of the section's SHB.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "pcapio.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCAP_MAGIC_US 0xa1b2c3d4u
#define PCAP_MAGIC_NS 0xa1b23c4du
#define PCAP_HDR_LEN 24u
#define PCAP_REC_LEN 16u
#define PCAP_VERSION_MAJOR 2u
#define PCAP_VERSION_MINOR 4u
/* libpcap's LT_LINKTYPE(): the upper bits of "network" carry FCS info */
#define PCAP_LINKTYPE_MASK 0x03FFFFFFu

#define NG_BT_SHB 0x0A0D0D0Au
#define NG_BT_IDB 0x00000001u
#define NG_BT_PB 0x00000002u  /* obsolete Packet Block */
#define NG_BT_SPB 0x00000003u
#define NG_BT_EPB 0x00000006u
#define NG_BOM 0x1A2B3C4Du
#define NG_BLOCK_MIN 12u  /* type, length, trailing length */
#define NG_SHB_MIN 28u    /* + BOM, major, minor, section length */
#define NG_IDB_MIN 20u    /* + linktype, reserved, snaplen */
#define NG_EPB_MIN 32u    /* + iface, ts high, ts low, caplen, len (PB: iface and drops 16 bits) */
#define NG_SPB_MIN 16u    /* + len */
#define NG_VERSION_MAJOR 1u
#define NG_OPT_ENDOFOPT 0u
#define NG_OPT_IF_TSRESOL 9u
#define NG_OPT_IF_TSOFFSET 14u
#define NG_TSRESOL_US 6u
#define NG_TSRESOL_NS 9u
#define NG_TSRESOL_BINARY 0x80u

#define NS_PER_S 1000000000ull

static uint16_t get16(const uint8_t *p, int be)
{
	return be ? (uint16_t)((unsigned)p[0] << 8 | p[1]) : (uint16_t)((unsigned)p[1] << 8 | p[0]);
}

static uint32_t get32(const uint8_t *p, int be)
{
	if (be)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static uint64_t get64(const uint8_t *p, int be)
{
	uint64_t a = get32(p, be), b = get32(p + 4, be);

	return be ? (a << 32 | b) : (b << 32 | a);
}

static void put16(uint8_t *p, uint16_t v, int be)
{
	p[be ? 0 : 1] = (uint8_t)(v >> 8);
	p[be ? 1 : 0] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v, int be)
{
	for (int i = 0; i < 4; i++)
		p[be ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

static uint32_t swap32(uint32_t v)
{
	return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

static uint32_t pad4(uint32_t n)
{
	return (n + 3u) & ~3u;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail(struct pcapio_reader *r, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof r->err, fmt, ap);
	va_end(ap);
	r->status = status;
	return status;
}

const char *pcapio_strerror(int status)
{
	switch (status) {
	case PCAPIO_OK: return "success";
	case PCAPIO_END: return "end of capture";
	case PCAPIO_EMAGIC: return "not a pcap or pcapng file";
	case PCAPIO_ETRUNC: return "truncated capture";
	case PCAPIO_EFORMAT: return "invalid capture";
	case PCAPIO_ENOMEM: return "out of memory";
	case PCAPIO_EINVAL: return "invalid argument";
	default: return "unknown status";
	}
}

/* A frame longer than the snaplen: error, or counted with PCAPIO_F_LAX_SNAPLEN. */
static int over_snaplen_ok(struct pcapio_reader *r)
{
	if (!(r->flags & PCAPIO_F_LAX_SNAPLEN))
		return 0;
	r->over_snaplen++;
	return 1;
}

/* ---- classic pcap ------------------------------------------------------ */

static int pcap_open(struct pcapio_reader *r, uint32_t magic_le)
{
	const uint8_t *p = r->data;

	r->format = PCAPIO_FMT_PCAP;
	if (magic_le == PCAP_MAGIC_US || magic_le == PCAP_MAGIC_NS) {
		r->big_endian = 0;
		r->nano = magic_le == PCAP_MAGIC_NS;
	} else {
		r->big_endian = 1;
		r->nano = swap32(magic_le) == PCAP_MAGIC_NS;
	}
	if (r->len < PCAP_HDR_LEN)
		return fail(r, PCAPIO_ETRUNC, "file header truncated: %zu of %u bytes", r->len,
		            PCAP_HDR_LEN);
	uint16_t major = get16(p + 4, r->big_endian), minor = get16(p + 6, r->big_endian);
	if (major != PCAP_VERSION_MAJOR)
		return fail(r, PCAPIO_EFORMAT, "unsupported pcap version %u.%u", major, minor);
	r->snaplen = get32(p + 16, r->big_endian);
	r->linktype = get32(p + 20, r->big_endian) & PCAP_LINKTYPE_MASK;
	r->off = PCAP_HDR_LEN;
	return PCAPIO_OK;
}

static int pcap_next(struct pcapio_reader *r, struct pcapio_frame *f)
{
	uint64_t no = r->frames + 1;
	size_t left = r->len - r->off;
	const uint8_t *p = r->data + r->off;
	int be = r->big_endian;

	if (left == 0)
		return PCAPIO_END;
	if (left < PCAP_REC_LEN)
		return fail(r, PCAPIO_ETRUNC, "frame %" PRIu64 " at offset %zu: record header truncated (%zu of %u bytes)",
		            no, r->off, left, PCAP_REC_LEN);
	uint32_t sec = get32(p, be), frac = get32(p + 4, be);
	uint32_t caplen = get32(p + 8, be), len = get32(p + 12, be);
	uint32_t frac_max = r->nano ? 1000000000u : 1000000u;
	if (frac >= frac_max)
		return fail(r, PCAPIO_EFORMAT, "frame %" PRIu64 " at offset %zu: sub-second time stamp %u out of range",
		            no, r->off, frac);
	if (r->snaplen != 0 && caplen > r->snaplen && !over_snaplen_ok(r))
		return fail(r, PCAPIO_EFORMAT, "frame %" PRIu64 " at offset %zu: caplen %u > snaplen %u",
		            no, r->off, caplen, r->snaplen);
	if (caplen > left - PCAP_REC_LEN)
		return fail(r, PCAPIO_ETRUNC, "frame %" PRIu64 " at offset %zu: caplen %u but only %zu bytes left",
		            no, r->off, caplen, left - PCAP_REC_LEN);
	f->data = p + PCAP_REC_LEN;
	f->caplen = caplen;
	f->len = len;
	f->ts_ns = (uint64_t)sec * NS_PER_S + (r->nano ? frac : (uint64_t)frac * 1000u);
	f->linktype = r->linktype;
	f->iface = 0;
	r->off += PCAP_REC_LEN + caplen;
	return PCAPIO_OK;
}

/* ---- pcapng -------------------------------------------------------------- */

/* Time stamp units of an interface to nanoseconds. */
static uint64_t ng_ts_ns(const struct pcapio_iface *ifc, uint64_t ts)
{
	unsigned n = ifc->tsresol & 0x7fu;
	uint64_t ns;

	if (ifc->tsresol & NG_TSRESOL_BINARY) {
		/* 2^-n seconds: split so that frac * 1e9 cannot overflow */
		uint64_t sec = n >= 64 ? 0 : ts >> n;
		uint64_t frac = n >= 64 ? ts : ts & ((UINT64_C(1) << n) - 1u);
		unsigned fbits = n;
		if (fbits > 34) {
			frac = fbits - 34 >= 64 ? 0 : frac >> (fbits - 34);
			fbits = 34;
		}
		ns = sec * NS_PER_S + ((frac * NS_PER_S) >> fbits);
	} else if (n <= 9) {
		uint64_t mul = 1;
		for (unsigned i = n; i < 9; i++)
			mul *= 10u;
		ns = ts * mul;
	} else {
		uint64_t div = 1;
		for (unsigned i = 9; i < n && i < 28; i++)
			div *= 10u;
		ns = n - 9 > 19 ? 0 : ts / div;
	}
	return ns + (uint64_t)ifc->tsoffset_s * NS_PER_S;
}

/* Is the interface's resolution finer than a microsecond? */
static int ng_is_nano(uint8_t tsresol)
{
	unsigned n = tsresol & 0x7fu;

	return (tsresol & NG_TSRESOL_BINARY) ? n > 19 : n > NG_TSRESOL_US;
}

/* Walk the options of a block body part; fill ifc (may be NULL) from IDB options. */
static int ng_options(struct pcapio_reader *r, const uint8_t *p, uint32_t n, size_t block_off,
                      struct pcapio_iface *ifc)
{
	uint32_t q = 0;
	int be = r->big_endian;

	while (n - q >= 4) {
		uint16_t code = get16(p + q, be), olen = get16(p + q + 2, be);
		if (code == NG_OPT_ENDOFOPT)
			break;
		if (pad4(olen) > n - q - 4)
			return fail(r, PCAPIO_EFORMAT, "block at offset %zu: option %u of %u bytes overruns the block",
			            block_off, code, olen);
		if (ifc && code == NG_OPT_IF_TSRESOL && olen >= 1)
			ifc->tsresol = p[q + 4];
		if (ifc && code == NG_OPT_IF_TSOFFSET && olen >= 8)
			ifc->tsoffset_s = (int64_t)get64(p + q + 4, be);
		q += 4 + pad4(olen);
	}
	return PCAPIO_OK;
}

static int ng_shb(struct pcapio_reader *r, const uint8_t *p, uint32_t blen)
{
	if (blen < NG_SHB_MIN)
		return fail(r, PCAPIO_EFORMAT, "section header at offset %zu: length %u < %u", r->off, blen,
		            NG_SHB_MIN);
	uint16_t major = get16(p + 12, r->big_endian), minor = get16(p + 14, r->big_endian);
	if (major != NG_VERSION_MAJOR)
		return fail(r, PCAPIO_EFORMAT, "section header at offset %zu: unsupported pcapng version %u.%u",
		            r->off, major, minor);
	r->nifaces = 0;
	return ng_options(r, p + 24, blen - NG_SHB_MIN, r->off, NULL);
}

static int ng_idb(struct pcapio_reader *r, const uint8_t *p, uint32_t blen)
{
	if (blen < NG_IDB_MIN)
		return fail(r, PCAPIO_EFORMAT, "interface block at offset %zu: length %u < %u", r->off, blen,
		            NG_IDB_MIN);
	if (r->nifaces >= PCAPIO_MAX_IFACES)
		return fail(r, PCAPIO_EFORMAT, "interface block at offset %zu: more than %u interfaces",
		            r->off, PCAPIO_MAX_IFACES);
	struct pcapio_iface *ifc = &r->ifaces[r->nifaces];
	ifc->linktype = get16(p + 8, r->big_endian);
	ifc->snaplen = get32(p + 12, r->big_endian);
	ifc->tsresol = NG_TSRESOL_US;
	ifc->tsoffset_s = 0;
	int rc = ng_options(r, p + 16, blen - NG_IDB_MIN, r->off, ifc);
	if (rc < 0)
		return rc;
	if (ng_is_nano(ifc->tsresol))
		r->nano = 1;
	if (r->linktype == PCAPIO_LINKTYPE_UNKNOWN) {
		r->linktype = ifc->linktype;
		r->snaplen = ifc->snaplen;
	}
	r->nifaces++;
	return PCAPIO_OK;
}

/* A packet block: check the interface, lengths against the block and the snaplen. */
static int ng_packet(struct pcapio_reader *r, struct pcapio_frame *f, uint32_t iface,
                     uint64_t ts, const uint8_t *data, uint32_t caplen, uint32_t len,
                     uint32_t room)
{
	uint64_t no = r->frames + 1;

	if (iface >= r->nifaces)
		return fail(r, PCAPIO_EFORMAT, "frame %" PRIu64 " at offset %zu: interface %u not defined (%u known)",
		            no, r->off, iface, r->nifaces);
	const struct pcapio_iface *ifc = &r->ifaces[iface];
	if (caplen > room)
		return fail(r, PCAPIO_EFORMAT, "frame %" PRIu64 " at offset %zu: caplen %u exceeds its block (%u bytes)",
		            no, r->off, caplen, room);
	if (ifc->snaplen != 0 && caplen > ifc->snaplen && !over_snaplen_ok(r))
		return fail(r, PCAPIO_EFORMAT, "frame %" PRIu64 " at offset %zu: caplen %u > snaplen %u",
		            no, r->off, caplen, ifc->snaplen);
	f->data = data;
	f->caplen = caplen;
	f->len = len;
	f->ts_ns = ng_ts_ns(ifc, ts);
	f->linktype = ifc->linktype;
	f->iface = iface;
	return PCAPIO_OK;
}

/*
 * Process pcapng blocks from r->off.  Returns PCAPIO_OK with *f filled when a
 * packet block was read, PCAPIO_END at the end of the data, or an error.
 * With f NULL, stops (PCAPIO_OK) before the first packet block instead.
 */
static int ng_next(struct pcapio_reader *r, struct pcapio_frame *f)
{
	for (;;) {
		size_t left = r->len - r->off;
		const uint8_t *p = r->data + r->off;
		int rc = PCAPIO_OK;

		if (left == 0)
			return PCAPIO_END;
		if (left < 8)
			return fail(r, PCAPIO_ETRUNC, "block at offset %zu: header truncated (%zu of 8 bytes)",
			            r->off, left);
		uint32_t type = get32(p, r->big_endian);
		if (type == NG_BT_SHB) {
			if (left < NG_BLOCK_MIN)
				return fail(r, PCAPIO_ETRUNC, "section header at offset %zu truncated (%zu bytes)",
				            r->off, left);
			uint32_t bom = get32(p + 8, 0);
			if (bom == NG_BOM)
				r->big_endian = 0;
			else if (bom == swap32(NG_BOM))
				r->big_endian = 1;
			else
				return fail(r, PCAPIO_EFORMAT, "section header at offset %zu: bad byte-order magic 0x%08x",
				            r->off, bom);
		}
		uint32_t blen = get32(p + 4, r->big_endian);
		if (blen < NG_BLOCK_MIN || blen % 4 != 0)
			return fail(r, PCAPIO_EFORMAT, "block at offset %zu: bad length %u", r->off, blen);
		if (blen > left)
			return fail(r, PCAPIO_ETRUNC, "block at offset %zu: length %u but only %zu bytes left",
			            r->off, blen, left);
		if (get32(p + blen - 4, r->big_endian) != blen)
			return fail(r, PCAPIO_EFORMAT, "block at offset %zu: trailing length %u differs from %u",
			            r->off, get32(p + blen - 4, r->big_endian), blen);
		uint32_t min = type == NG_BT_SPB ? NG_SPB_MIN : NG_EPB_MIN; /* PB: as EPB */
		int is_packet = type == NG_BT_EPB || type == NG_BT_SPB || type == NG_BT_PB;
		if (is_packet && !f)
			return PCAPIO_OK;
		if (is_packet && blen < min)
			return fail(r, PCAPIO_EFORMAT, "frame %" PRIu64 " at offset %zu: block length %u < %u",
			            r->frames + 1, r->off, blen, min);

		int be = r->big_endian;
		switch (type) {
		case NG_BT_SHB:
			rc = ng_shb(r, p, blen);
			break;
		case NG_BT_IDB:
			rc = ng_idb(r, p, blen);
			break;
		case NG_BT_EPB:
		case NG_BT_PB:
			/* one layout but the interface id: 32 bits, or 16 and 16 of drops */
			rc = ng_packet(r, f, type == NG_BT_EPB ? get32(p + 8, be) : get16(p + 8, be),
			               (uint64_t)get32(p + 12, be) << 32 | get32(p + 16, be), p + 28,
			               get32(p + 20, be), get32(p + 24, be), blen - NG_EPB_MIN);
			break;
		case NG_BT_SPB: {
			/* no caplen field: the data is the original length cut by the
			 * snaplen and the block; no time stamp: keep the previous one */
			uint32_t len = get32(p + 8, be), caplen = len, room = blen - NG_SPB_MIN;
			if (r->nifaces > 0 && r->ifaces[0].snaplen != 0 && caplen > r->ifaces[0].snaplen)
				caplen = r->ifaces[0].snaplen;
			if (caplen > room)
				caplen = room;
			rc = ng_packet(r, f, 0, 0, p + 12, caplen, len, room);
			if (rc == PCAPIO_OK)
				f->ts_ns = r->last_ts_ns;
			break;
		}
		default:
			break; /* NRB, ISB, DSB, custom...: not needed */
		}
		if (rc < 0)
			return rc;
		r->off += blen;
		if (is_packet)
			return PCAPIO_OK;
	}
}

/* ---- reader API ---------------------------------------------------------- */

int pcapio_open(struct pcapio_reader *r, const void *data, size_t len, unsigned flags)
{
	if (!r)
		return PCAPIO_EINVAL;
	memset(r, 0, offsetof(struct pcapio_reader, ifaces));
	r->err[0] = '\0';
	r->data = data;
	r->len = len;
	r->linktype = PCAPIO_LINKTYPE_UNKNOWN;
	r->flags = flags;
	if (!data && len)
		return fail(r, PCAPIO_EINVAL, "no data");
	if (len < 4)
		return fail(r, PCAPIO_ETRUNC, "file header truncated: %zu bytes", len);
	uint32_t magic = get32(r->data, 0);
	if (magic == PCAP_MAGIC_US || magic == PCAP_MAGIC_NS || swap32(magic) == PCAP_MAGIC_US ||
	    swap32(magic) == PCAP_MAGIC_NS)
		return pcap_open(r, magic);
	if (magic != NG_BT_SHB)
		return fail(r, PCAPIO_EMAGIC, "unknown file magic 0x%08x", magic);
	r->format = PCAPIO_FMT_PCAPNG;
	/* the SHB and the interface blocks before the first packet */
	int rc = ng_next(r, NULL);
	if (rc == PCAPIO_END && r->off == 0)
		return fail(r, PCAPIO_ETRUNC, "empty file");
	return rc < 0 ? rc : PCAPIO_OK;
}

int pcapio_next(struct pcapio_reader *r, struct pcapio_frame *f)
{
	if (!r || !f)
		return PCAPIO_EINVAL;
	if (r->status < 0)
		return r->status;
	if (!r->format)
		return fail(r, PCAPIO_EINVAL, "reader not open");
	int rc = r->format == PCAPIO_FMT_PCAP ? pcap_next(r, f) : ng_next(r, f);
	if (rc == PCAPIO_OK) {
		r->frames++;
		r->last_ts_ns = f->ts_ns;
	}
	return rc;
}

/* ---- writer -------------------------------------------------------------- */

static uint8_t *w_grow(struct pcapio_writer *w, size_t n)
{
	if (n > SIZE_MAX - w->len)
		return NULL;
	if (w->len + n > w->cap) {
		size_t cap = w->cap ? w->cap : 4096;
		while (cap < w->len + n) {
			if (cap > SIZE_MAX / 2)
				return NULL;
			cap *= 2;
		}
		uint8_t *nb = realloc(w->buf, cap);
		if (!nb)
			return NULL;
		w->buf = nb;
		w->cap = cap;
	}
	uint8_t *p = w->buf + w->len;
	w->len += n;
	return p;
}

int pcapio_writer_init(struct pcapio_writer *w, enum pcapio_format format, uint32_t linktype,
                       uint32_t snaplen, int nano, int big_endian)
{
	if (!w || (format != PCAPIO_FMT_PCAP && format != PCAPIO_FMT_PCAPNG))
		return PCAPIO_EINVAL;
	if (format == PCAPIO_FMT_PCAPNG && linktype > 0xffffu)
		return PCAPIO_EINVAL;
	memset(w, 0, sizeof *w);
	w->format = format;
	w->big_endian = big_endian ? 1 : 0;
	w->nano = nano ? 1 : 0;
	w->linktype = linktype;
	w->snaplen = snaplen;
	int be = w->big_endian;
	uint8_t *p;
	if (format == PCAPIO_FMT_PCAP) {
		if (!(p = w_grow(w, PCAP_HDR_LEN)))
			return PCAPIO_ENOMEM;
		put32(p, w->nano ? PCAP_MAGIC_NS : PCAP_MAGIC_US, be);
		put16(p + 4, PCAP_VERSION_MAJOR, be);
		put16(p + 6, PCAP_VERSION_MINOR, be);
		put32(p + 8, 0, be);  /* thiszone */
		put32(p + 12, 0, be); /* sigfigs */
		put32(p + 16, snaplen, be);
		put32(p + 20, linktype, be);
		return PCAPIO_OK;
	}
	/* SHB with no options, then an IDB with if_tsresol */
	const uint32_t idb_len = NG_IDB_MIN + 8u + 4u;
	if (!(p = w_grow(w, NG_SHB_MIN + idb_len)))
		return PCAPIO_ENOMEM;
	put32(p, NG_BT_SHB, be);
	put32(p + 4, NG_SHB_MIN, be);
	put32(p + 8, NG_BOM, be);
	put16(p + 12, NG_VERSION_MAJOR, be);
	put16(p + 14, 0, be);
	memset(p + 16, 0xff, 8); /* section length unknown */
	put32(p + 24, NG_SHB_MIN, be);
	p += NG_SHB_MIN;
	put32(p, NG_BT_IDB, be);
	put32(p + 4, idb_len, be);
	put16(p + 8, (uint16_t)linktype, be);
	put16(p + 10, 0, be);
	put32(p + 12, snaplen, be);
	put16(p + 16, NG_OPT_IF_TSRESOL, be);
	put16(p + 18, 1, be);
	p[20] = w->nano ? NG_TSRESOL_NS : NG_TSRESOL_US;
	p[21] = p[22] = p[23] = 0;
	put16(p + 24, NG_OPT_ENDOFOPT, be);
	put16(p + 26, 0, be);
	put32(p + 28, idb_len, be);
	return PCAPIO_OK;
}

uint8_t *pcapio_write_reserve(struct pcapio_writer *w, uint64_t ts_ns, uint32_t caplen,
                              uint32_t len)
{
	if (!w || caplen > len || caplen > UINT32_MAX - NG_EPB_MIN - 3u)
		return NULL;
	int be = w->big_endian;
	uint64_t units = w->nano ? ts_ns : ts_ns / 1000u;
	uint8_t *p;
	if (w->format == PCAPIO_FMT_PCAP) {
		uint64_t per_s = w->nano ? NS_PER_S : 1000000u;
		if (!(p = w_grow(w, PCAP_REC_LEN + (size_t)caplen)))
			return NULL;
		put32(p, (uint32_t)(units / per_s), be);
		put32(p + 4, (uint32_t)(units % per_s), be);
		put32(p + 8, caplen, be);
		put32(p + 12, len, be);
		w->frames++;
		return p + PCAP_REC_LEN;
	}
	uint32_t blen = NG_EPB_MIN + pad4(caplen);
	if (!(p = w_grow(w, blen)))
		return NULL;
	put32(p, NG_BT_EPB, be);
	put32(p + 4, blen, be);
	put32(p + 8, 0, be);
	put32(p + 12, (uint32_t)(units >> 32), be);
	put32(p + 16, (uint32_t)units, be);
	put32(p + 20, caplen, be);
	put32(p + 24, len, be);
	memset(p + 28 + caplen, 0, pad4(caplen) - caplen);
	put32(p + blen - 4, blen, be);
	w->frames++;
	return p + 28;
}

int pcapio_write(struct pcapio_writer *w, uint64_t ts_ns, const void *data, uint32_t caplen,
                 uint32_t len)
{
	if (!w || (!data && caplen))
		return PCAPIO_EINVAL;
	uint8_t *p = pcapio_write_reserve(w, ts_ns, caplen, len);
	if (!p)
		return caplen > len ? PCAPIO_EINVAL : PCAPIO_ENOMEM;
	if (caplen)
		memcpy(p, data, caplen);
	return PCAPIO_OK;
}

void pcapio_writer_free(struct pcapio_writer *w)
{
	if (!w)
		return;
	free(w->buf);
	w->buf = NULL;
	w->len = w->cap = 0;
}
