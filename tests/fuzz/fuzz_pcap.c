/*
 * fuzz_pcap.c - libFuzzer target for the capture reader of offload-replay
 * (tools/offload-replay/pcapio.h): the input is a whole pcap or pcapng file.
 *
 * Checked: every frame returned lies inside the input and caplen bytes fit;
 * frame numbers count up; an error is sticky (the next call returns it
 * again) and leaves a NUL-terminated message; the reader ends within a
 * bounded number of calls; and every frame read back after writing it with
 * the writer (pcap and pcapng, both byte orders) is the same bytes, lengths
 * and (nanosecond pcapng) time stamp.
 */
#include <stdlib.h>
#include <string.h>

#include "fz.h"
#include "pcapio.h"

#define MAX_FR 512

struct rec {
	size_t off;
	uint32_t caplen, len;
	uint64_t ts;
};

static struct pcapio_reader R, R2;

static void roundtrip(const uint8_t *in, const struct rec *fr, unsigned n, enum pcapio_format fmt,
                      int be, uint32_t linktype)
{
	struct pcapio_writer w;
	struct pcapio_frame f;
	unsigned i, nw = 0;
	int rc;
	if (fmt == PCAPIO_FMT_PCAPNG && linktype > 0xffffu)
		return;
	FZ_CHECK(pcapio_writer_init(&w, fmt, linktype, 0, 1, be) == PCAPIO_OK);
	for (i = 0; i < n; i++) {
		if (fr[i].caplen > fr[i].len)
			continue;
		FZ_CHECK(pcapio_write(&w, fr[i].ts, in + fr[i].off, fr[i].caplen, fr[i].len) == PCAPIO_OK);
		nw++;
	}
	FZ_CHECK(w.frames == nw);
	rc = pcapio_open(&R2, w.buf, w.len, 0);
	FZ_CHECKF(rc == PCAPIO_OK, "re-reading our own file: %s", R2.err);
	for (i = 0; i < n; i++) {
		if (fr[i].caplen > fr[i].len)
			continue;
		rc = pcapio_next(&R2, &f);
		FZ_CHECKF(rc == PCAPIO_OK, "frame %u of our own file: %d %s", i, rc, R2.err);
		FZ_CHECK(f.caplen == fr[i].caplen && f.len == fr[i].len);
		FZ_CHECK(f.caplen == 0 || memcmp(f.data, in + fr[i].off, f.caplen) == 0);
		FZ_CHECK(f.linktype == linktype);
		if (fmt == PCAPIO_FMT_PCAPNG)
			FZ_CHECKF(f.ts_ns == fr[i].ts, "ts %llu != %llu", (unsigned long long)f.ts_ns,
			          (unsigned long long)fr[i].ts);
	}
	FZ_CHECK(pcapio_next(&R2, &f) == PCAPIO_END);
	pcapio_writer_free(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rec fr[MAX_FR];
	struct pcapio_frame f;
	unsigned n = 0, calls = 0;
	uint32_t lt = 0;
	int rc, mixed = 0;
	unsigned flags = size && (data[size - 1] & 1) ? PCAPIO_F_LAX_SNAPLEN : 0;
	uint8_t *copy = malloc(size ? size : 1); /* exact size: ASan sees overreads */
	FZ_CHECK(copy);
	memcpy(copy, data, size);
	rc = pcapio_open(&R, copy, size, flags);
	FZ_CHECK(R.err[PCAPIO_ERRLEN - 1] == 0 || memchr(R.err, 0, PCAPIO_ERRLEN));
	if (rc != PCAPIO_OK) {
		FZ_CHECKF(rc < 0 && rc >= PCAPIO_EINVAL, "open: %d", rc);
		FZ_CHECK(R.err[0] != 0);
		FZ_CHECK(pcapio_next(&R, &f) == rc); /* sticky */
		free(copy);
		return 0;
	}
	for (;;) {
		FZ_CHECKF(++calls <= size + 2, "reader did not end after %u calls on %zu bytes", calls, size);
		memset(&f, 0xa5, sizeof(f));
		rc = pcapio_next(&R, &f);
		if (rc != PCAPIO_OK)
			break;
		FZ_CHECK(R.frames == (uint64_t)calls);
		FZ_CHECKF(f.caplen == 0 || (f.data >= copy && f.data + f.caplen <= copy + size),
		          "frame %u (caplen %u) outside the input", calls, f.caplen);
		if (f.caplen) {
			/* touch both ends: a frame past the input is an ASan report */
			volatile uint8_t ends = (uint8_t)(f.data[0] ^ f.data[f.caplen - 1]);
			(void)ends;
		}
		if (!(flags & PCAPIO_F_LAX_SNAPLEN) && R.format == PCAPIO_FMT_PCAP && R.snaplen)
			FZ_CHECK(f.caplen <= R.snaplen);
		if (n == 0)
			lt = f.linktype;
		else if (f.linktype != lt)
			mixed = 1;
		if (n < MAX_FR) {
			fr[n].off = (size_t)(f.caplen ? f.data - copy : 0);
			fr[n].caplen = f.caplen;
			fr[n].len = f.len;
			fr[n].ts = f.ts_ns;
			n++;
		}
	}
	if (rc != PCAPIO_END) {
		FZ_CHECKF(rc < 0 && rc >= PCAPIO_EINVAL, "next: %d", rc);
		FZ_CHECK(memchr(R.err, 0, PCAPIO_ERRLEN) != NULL && R.err[0] != 0);
		FZ_CHECK(pcapio_next(&R, &f) == rc);
	} else {
		FZ_CHECK(pcapio_next(&R, &f) == PCAPIO_END);
	}
	if (n && !mixed) {
		roundtrip(copy, fr, n, PCAPIO_FMT_PCAPNG, 0, lt);
		roundtrip(copy, fr, n, PCAPIO_FMT_PCAPNG, 1, lt);
		roundtrip(copy, fr, n, PCAPIO_FMT_PCAP, 1, lt);
	}
	free(copy);
	return 0;
}
