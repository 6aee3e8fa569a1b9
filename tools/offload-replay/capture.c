/*
 * capture.c - see capture.h.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
/* glibc under -std=c11: u_char and friends for pcap.h, fmemopen() */
#define _DEFAULT_SOURCE

#include "capture.h"

#include <errno.h>
#include <pcap/pcap.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading ------------------------------------------------------------- */

/* Append one record: its bytes to c->bytes, its header to c->frames (data
 * holds the offset until load() is done: the byte buffer still moves). */
static int append(struct replay_capture *c, size_t *bcap, size_t *fcap,
                  const struct pcap_pkthdr *h, const uint8_t *data)
{
	if (c->nframes == *fcap) {
		size_t n = *fcap ? *fcap * 2 : 1024;
		struct replay_frame *nf = realloc(c->frames, n * sizeof *nf);
		if (!nf)
			return -1;
		c->frames = nf;
		*fcap = n;
	}
	if (*bcap - c->nbytes < h->caplen) {
		size_t n = *bcap ? *bcap : 1u << 16;
		while (n - c->nbytes < h->caplen)
			n *= 2;
		uint8_t *nb = realloc(c->bytes, n);
		if (!nb)
			return -1;
		c->bytes = nb;
		*bcap = n;
	}
	memcpy(c->bytes + c->nbytes, data, h->caplen);
	/* with PCAP_TSTAMP_PRECISION_NANO, tv_usec holds nanoseconds */
	uint64_t ns = (uint64_t)h->ts.tv_sec * 1000000000u + (uint64_t)h->ts.tv_usec;
	c->frames[c->nframes++] = (struct replay_frame){
		.data = (const uint8_t *)(uintptr_t)c->nbytes, .caplen = h->caplen, .len = h->len,
		.ts_ns = ns,
	};
	c->nbytes += h->caplen;
	if (h->caplen < h->len)
		c->truncated++;
	if (ns % 1000u)
		c->nano = 1;
	return 0;
}

/* libpcap 1.10's refusal of a pcapng whose interfaces differ: say what to do. */
static void explain_open_error(const char *msg, char *err, size_t errlen)
{
	if (strstr(msg, "different from the"))
		snprintf(err, errlen, "%s (libpcap reads a pcapng only when all its interfaces share one "
		                      "link type and snap length: split it per interface first)", msg);
	else
		snprintf(err, errlen, "%s", msg);
}

/* Every record of an open handle; closes it. */
static int load(struct replay_capture *c, pcap_t *p, char *err, size_t errlen)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	size_t bcap = 0, fcap = 0;
	int rc;

	c->linktype = (uint32_t)pcap_datalink(p);
	c->snaplen = (uint32_t)pcap_snapshot(p);
	/* libpcap reports pcapng as version 1.0, classic pcap as 2.x */
	c->format = pcap_major_version(p) == 1 ? REPLAY_FMT_PCAPNG : REPLAY_FMT_PCAP;
	while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
		if (append(c, &bcap, &fcap, h, data) < 0) {
			snprintf(err, errlen, "out of memory at frame %zu", c->nframes + 1);
			rc = -3;
			break;
		}
	}
	if (rc == -1) {
		char msg[REPLAY_ERRLEN];
		explain_open_error(pcap_geterr(p), msg, sizeof msg);
		snprintf(err, errlen, "frame %zu: %s", c->nframes + 1, msg);
	}
	pcap_close(p);
	if (rc != PCAP_ERROR_BREAK) { /* -2: the end of the file */
		replay_capture_free(c);
		return -1;
	}
	for (size_t i = 0; i < c->nframes; i++)
		c->frames[i].data = c->bytes + (uintptr_t)c->frames[i].data;
	return 0;
}

int replay_capture_read(struct replay_capture *c, const char *path, char *err, size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	char msg[REPLAY_ERRLEN];
	pcap_t *p;

	memset(c, 0, sizeof *c);
	p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, ebuf);
	if (!p) {
		explain_open_error(ebuf, msg, sizeof msg);
		snprintf(err, errlen, "%s: %s", path, msg);
		return -1;
	}
	if (load(c, p, msg, sizeof msg) < 0) {
		snprintf(err, errlen, "%s: %s", path, msg);
		return -1;
	}
	return 0;
}

int replay_capture_parse(struct replay_capture *c, const void *data, size_t len, char *err,
                         size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	FILE *fp;
	pcap_t *p;

	memset(c, 0, sizeof *c);
	if (len == 0) {
		snprintf(err, errlen, "empty capture");
		return -1;
	}
	fp = fmemopen((void *)(uintptr_t)data, len, "rb");
	if (!fp) {
		snprintf(err, errlen, "fmemopen: %s", strerror(errno));
		return -1;
	}
	p = pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO, ebuf);
	if (!p) {
		fclose(fp);
		explain_open_error(ebuf, err, errlen);
		return -1;
	}
	return load(c, p, err, errlen);
}

/* The whole file (or standard input) in memory. */
static int slurp(const char *path, uint8_t **out, size_t *outlen, char *err, size_t errlen)
{
	FILE *fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	do {
		if (len == cap) {
			size_t ncap = cap ? cap * 2 : 1u << 16;
			uint8_t *nb = ncap > cap ? realloc(buf, ncap) : NULL;
			if (!nb) {
				snprintf(err, errlen, "%s: out of memory", path);
				goto fail;
			}
			buf = nb;
			cap = ncap;
		}
		n = fread(buf + len, 1, cap - len, fp);
		len += n;
	} while (n > 0);
	if (ferror(fp)) {
		snprintf(err, errlen, "%s: read error", path);
		goto fail;
	}
	if (fp != stdin)
		fclose(fp);
	*out = buf;
	*outlen = len;
	return 0;
fail:
	if (fp != stdin)
		fclose(fp);
	free(buf);
	return -1;
}

/* libpcap's largest record for most link types (max_snaplen_for_dlt()) */
#define LAX_SNAPLEN 262144u

int replay_capture_read_lax(struct replay_capture *c, const char *path, char *err, size_t errlen)
{
	static const uint32_t magics[] = { 0xa1b2c3d4u, 0xa1b23c4du }; /* us, ns */
	char msg[REPLAY_ERRLEN];
	uint8_t *b;
	size_t len;
	uint32_t snap = 0;
	int swapped = -1;

	memset(c, 0, sizeof *c);
	if (slurp(path, &b, &len, err, errlen) < 0)
		return -1;
	if (len >= 24) {
		uint32_t le = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
		uint32_t be = (uint32_t)b[3] | (uint32_t)b[2] << 8 | (uint32_t)b[1] << 16 | (uint32_t)b[0] << 24;
		for (unsigned i = 0; i < 2; i++)
			if (le == magics[i] || be == magics[i])
				swapped = be == magics[i];
	}
	if (swapped >= 0) { /* classic pcap: the snap length is bytes 16..19 */
		uint8_t *f = b + 16;
		snap = swapped ? (uint32_t)f[0] << 24 | (uint32_t)f[1] << 16 | (uint32_t)f[2] << 8 | f[3]
		               : (uint32_t)f[3] << 24 | (uint32_t)f[2] << 16 | (uint32_t)f[1] << 8 | f[0];
		if (snap < LAX_SNAPLEN) {
			for (unsigned i = 0; i < 4; i++)
				f[swapped ? 3 - i : i] = (uint8_t)(LAX_SNAPLEN >> (8 * i));
		}
	}
	if (replay_capture_parse(c, b, len, msg, sizeof msg) < 0) {
		snprintf(err, errlen, "%s: %s", path, msg);
		free(b);
		return -1;
	}
	free(b);
	if (swapped >= 0)
		c->snaplen = snap; /* the file's own */
	return 0;
}

void replay_capture_free(struct replay_capture *c)
{
	if (!c)
		return;
	free(c->frames);
	free(c->bytes);
	memset(c, 0, sizeof *c);
}

const char *replay_linktype_describe(uint32_t linktype, char *buf, size_t n)
{
	const char *name = pcap_datalink_val_to_name((int)linktype);
	const char *desc = pcap_datalink_val_to_description((int)linktype);

	if (name && desc)
		snprintf(buf, n, "%u (%s, %s)", (unsigned)linktype, name, desc);
	else
		snprintf(buf, n, "%u (unknown to libpcap)", (unsigned)linktype);
	return buf;
}

/* ---- writing ------------------------------------------------------------- */

void replay_outfile_fail(struct replay_outfile *o, const char *msg)
{
	if (!o->failed)
		snprintf(o->err, sizeof o->err, "%s", msg);
	o->failed = 1;
}

static pcap_t *open_dead(struct replay_outfile *o, const char *name, uint32_t linktype,
                         uint32_t snaplen, int nano)
{
	pcap_t *p;

	memset(o, 0, sizeof *o);
	o->path = name;
	o->nano = nano;
	p = pcap_open_dead_with_tstamp_precision((int)linktype, (int)snaplen,
	                                         nano ? PCAP_TSTAMP_PRECISION_NANO
	                                              : PCAP_TSTAMP_PRECISION_MICRO);
	if (!p)
		snprintf(o->err, sizeof o->err, "%s: out of memory", name);
	return p;
}

int replay_outfile_open(struct replay_outfile *o, const char *path, uint32_t linktype,
                        uint32_t snaplen, int nano)
{
	pcap_t *p;

	if (!path) {
		memset(o, 0, sizeof *o);
		return 0;
	}
	p = open_dead(o, path, linktype, snaplen, nano);
	if (!p)
		return -1;
	/* "-" is the standard output (pcap_dump_open()'s own rule) */
	o->dumper = pcap_dump_open(p, path);
	if (!o->dumper) {
		snprintf(o->err, sizeof o->err, "%s", pcap_geterr(p));
		pcap_close(p);
		return -1;
	}
	o->pcap = p;
	return 0;
}

int replay_outfile_open_fp(struct replay_outfile *o, FILE *fp, const char *name, uint32_t linktype,
                           uint32_t snaplen, int nano)
{
	pcap_t *p = open_dead(o, name, linktype, snaplen, nano);

	if (!p)
		return -1;
	o->dumper = pcap_dump_fopen(p, fp);
	if (!o->dumper) {
		snprintf(o->err, sizeof o->err, "%s: %s", name, pcap_geterr(p));
		pcap_close(p);
		return -1;
	}
	o->pcap = p;
	return 0;
}

/* Write the reserved frame, if any. */
static void write_pending(struct replay_outfile *o)
{
	struct pcap_pkthdr h;
	uint64_t sub = o->ts_ns % 1000000000u;

	if (!o->pending)
		return;
	o->pending = 0;
	memset(&h, 0, sizeof h);
	h.ts.tv_sec = (time_t)(o->ts_ns / 1000000000u);
	h.ts.tv_usec = (suseconds_t)(o->nano ? sub : sub / 1000u);
	h.caplen = o->caplen;
	h.len = o->len;
	pcap_dump((u_char *)o->dumper, &h, o->buf);
}

uint8_t *replay_outfile_reserve(struct replay_outfile *o, uint64_t ts_ns, uint32_t caplen,
                                uint32_t len)
{
	char msg[REPLAY_ERRLEN];

	if (!o->dumper || o->failed)
		return NULL;
	write_pending(o);
	if (caplen > len) {
		snprintf(msg, sizeof msg, "%s: a frame of %u bytes is longer than its wire length %u",
		         o->path, (unsigned)caplen, (unsigned)len);
		replay_outfile_fail(o, msg);
		return NULL;
	}
	if (caplen > o->bufcap || !o->buf) {
		size_t n = caplen > 2048 ? caplen : 2048;
		uint8_t *nb = realloc(o->buf, n);
		if (!nb) {
			snprintf(msg, sizeof msg, "%s: out of memory", o->path);
			replay_outfile_fail(o, msg);
			return NULL;
		}
		o->buf = nb;
		o->bufcap = n;
	}
	o->pending = 1;
	o->ts_ns = ts_ns;
	o->caplen = caplen;
	o->len = len;
	return o->buf;
}

int replay_outfile_write(struct replay_outfile *o, uint64_t ts_ns, const void *data, uint32_t caplen,
                         uint32_t len)
{
	uint8_t *p = replay_outfile_reserve(o, ts_ns, caplen, len);

	if (!p)
		return -1;
	memcpy(p, data, caplen);
	return 0;
}

int replay_outfile_close(struct replay_outfile *o)
{
	char msg[REPLAY_ERRLEN];

	if (o->dumper) {
		if (!o->failed)
			write_pending(o);
		FILE *fp = pcap_dump_file((pcap_dumper_t *)o->dumper);
		int bad = pcap_dump_flush((pcap_dumper_t *)o->dumper) != 0 || ferror(fp);
		/* pcap_dump_close() closes the stream; its fclose() result is
		 * lost, hence the flush and the error check first */
		pcap_dump_close((pcap_dumper_t *)o->dumper);
		if (bad) {
			snprintf(msg, sizeof msg, "%s: write error", o->path);
			replay_outfile_fail(o, msg);
		}
		o->dumper = NULL;
	}
	if (o->pcap)
		pcap_close((pcap_t *)o->pcap);
	o->pcap = NULL;
	free(o->buf);
	o->buf = NULL;
	return o->failed ? -1 : 0;
}
