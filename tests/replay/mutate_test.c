/*
 * mutate_test.c - the corpus replay with damage: for every Ethernet capture
 * of $OFL_CORPORA, rounds in which a few TCP frames get one header field
 * changed (flags, sequence and ack numbers, window, options, data offset,
 * TTL/TOS/ID/DF, traffic class/flow label/hop limit, IP length), get cut
 * short, or are swapped with or duplicated over their neighbour; most have
 * their checksums made valid again so that GRO's merge rules, not the
 * checksum, decide.  Each round is replayed in six configurations and
 * checked for conservation (replay_check.h); the NIC's CHECKSUM_COMPLETE sum
 * with split buffers must give the very decisions of one buffer and
 * software checksums, and NIC-verified frames in one buffer (the engine's
 * header prediction) those of split buffers (the full parse).  Deterministic: a violation names the file, the round
 * and the damage done, so it can be replayed (OFL_MUTATE_ONLY="FILE ROUND"
 * also writes that round's capture).  OFL_MUTATE_SCALE=N runs N times as
 * many rounds.
 */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay_check.h"

#define FRAMES_PER_FILE 8000u /* replayed frames per configuration and file */
#define MAX_ROUNDS 30u
#define MS 1000000ull

static const struct rc_config configs[] = {
	{ 1, 0, .same_as = -1 },
	{ 64, MS, .same_as = -1 },
	{ 64, MS, .split = 54, .csum_status = OFL_CSUM_COMPLETE, .same_as = 1 },
	{ 0, 100 * MS, .flows = 4, .batch = 2, .same_as = -1 },
	/* NIC-verified: header prediction (one buffer) against the full parse */
	{ 64, MS, .csum_status = OFL_CSUM_UNNECESSARY, .same_as = -1 },
	{ 64, MS, .csum_status = OFL_CSUM_UNNECESSARY, .split = 54, .same_as = 4 },
};
#define NCONFIGS (sizeof configs / sizeof configs[0])

/* The capture list, read by main() before the suite runs. */
static struct rc_corpus corpus;

static uint32_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 33);
}

static void add16(uint8_t *p, int d)
{
	uint16_t v = (uint16_t)((p[0] << 8 | p[1]) + d);
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void add32(uint8_t *p, uint32_t d)
{
	uint32_t v = ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]) + d;
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (24 - 8 * i));
}

/*
 * Damage frame i (a TCP frame as parsed in t); returns what was done.
 * Frames are entries of c->frames whose bytes are our own copy.
 */
static const char *damage(struct replay_capture *c, size_t i, const struct fc_tcp *t, uint64_t *s)
{
	struct replay_frame *fr = &c->frames[i];
	uint8_t *f = (uint8_t *)(uintptr_t)fr->data;
	uint8_t *ip = f + t->l3_off, *th = f + t->l4_off;
	static const uint8_t flag_bits[] = { 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80 };

	switch (rnd(s) % 14) {
	case 0:
		th[13] ^= flag_bits[rnd(s) % 8];
		return "TCP flag";
	case 1:
		add32(th + 4, rnd(s) % 2 ? t->payload_len : (uint32_t)-1);
		return "seq";
	case 2:
		add32(th + 8, 1);
		return "ack";
	case 3:
		add16(th + 14, 1);
		return "window";
	case 4:
		if (t->payload_off - t->l4_off > 20) {
			th[20 + rnd(s) % (t->payload_off - t->l4_off - 20)] ^= (uint8_t)(1 + rnd(s) % 255);
			return "TCP option byte";
		}
		th[12] = (uint8_t)(th[12] + 0x10); /* one more word of "options" */
		return "data offset";
	case 5:
		if (t->ipv6)
			ip[7] ^= 1; /* hop limit */
		else
			ip[8] ^= 1; /* TTL */
		return "TTL/hop limit";
	case 6:
		if (t->ipv6)
			ip[1] ^= 0x10; /* traffic class, low nibble of byte 0 / high of byte 1 */
		else
			ip[1] ^= 0x04; /* TOS */
		return "TOS/traffic class";
	case 7:
		if (t->ipv6) {
			ip[3] ^= 1; /* flow label */
			return "flow label";
		}
		add16(ip + 4, (int)(rnd(s) % 3) - 1);
		return "IP ID";
	case 8:
		if (!t->ipv6) {
			ip[6] ^= 0x40;
			return "DF";
		}
		ip[0] ^= 0x01; /* traffic class, high nibble */
		return "traffic class";
	case 9:
		add16(ip + (t->ipv6 ? 4 : 2), -(int)(1 + rnd(s) % 8));
		return "IP length shorter";
	case 10:
		if (fr->caplen > 1)
			fr->caplen -= 1 + rnd(s) % (fr->caplen < 40 ? fr->caplen - 1 : 40);
		return "cut short";
	case 11:
		if (i + 1 < c->nframes) {
			struct replay_frame tmp = c->frames[i];
			c->frames[i] = c->frames[i + 1];
			c->frames[i + 1] = tmp;
			c->frames[i + 1].ts_ns = c->frames[i].ts_ns;
			c->frames[i].ts_ns = tmp.ts_ns;
		}
		return "swapped with the next frame";
	case 12:
		if (i + 1 < c->nframes) {
			uint64_t ts = c->frames[i + 1].ts_ns;
			c->frames[i + 1] = c->frames[i];
			c->frames[i + 1].ts_ns = ts;
		}
		return "duplicated over the next frame";
	default:
		th[13] |= 0x08;
		return "PSH";
	}
}

/* Write the (damaged) frames as a pcap file. */
static void dump(const struct replay_capture *c, const char *path)
{
	struct replay_outfile w;

	ck_assert_msg(replay_outfile_open(&w, path, c->linktype, 262144, c->nano) == 0, "%s", w.err);
	for (size_t i = 0; i < c->nframes; i++) {
		const struct replay_frame *f = &c->frames[i];
		ck_assert_int_eq(replay_outfile_write(&w, f->ts_ns, f->data, f->caplen,
		                                      f->len > f->caplen ? f->len : f->caplen),
		                 0);
	}
	ck_assert_msg(replay_outfile_close(&w) == 0, "%s", w.err);
}

START_TEST(mutate_file)
{
	struct replay_capture cap;

	if (!rc_load_ethernet(&corpus, (unsigned)_i, &cap))
		return;
	size_t n = cap.nframes;
	struct rc_run *r = rc_new(&cap, corpus.files[_i]);
	size_t ntcp = 0;
	for (size_t i = 0; i < n; i++)
		ntcp += r->is_tcp[i];
	if (ntcp == 0) {
		rc_free(r);
		replay_capture_free(&cap);
		return;
	}
	/* pristine copies to start every round from */
	uint8_t *bytes = malloc(cap.nbytes);
	struct replay_frame *frames = malloc(n * sizeof *frames);
	struct fc_tcp *tcp = malloc(n * sizeof *tcp);
	uint8_t *is_tcp = malloc(n);
	struct replay_gro_result *res = calloc(NCONFIGS, sizeof *res);
	char *log = malloc(8192);
	ck_assert(bytes && frames && tcp && is_tcp && res && log);
	memcpy(bytes, cap.bytes, cap.nbytes);
	memcpy(frames, cap.frames, n * sizeof *frames);
	memcpy(tcp, r->tcp, n * sizeof *tcp);
	memcpy(is_tcp, r->is_tcp, n);

	unsigned rounds = FRAMES_PER_FILE / (unsigned)n;
	rounds = rounds < 2 ? 2 : rounds > MAX_ROUNDS ? MAX_ROUNDS : rounds;
	const char *scale = getenv("OFL_MUTATE_SCALE"); /* longer soaks: more rounds */
	if (scale && atoi(scale) > 1)
		rounds *= (unsigned)atoi(scale);
	size_t per_round = ntcp / 100 + 1;
	if (per_round > 50)
		per_round = 50;
	/* OFL_MUTATE_ONLY="FILE ROUND": that round alone, and the damaged
	 * capture written to replay_mutate_round.pcap for a closer look */
	const char *only = getenv("OFL_MUTATE_ONLY");
	unsigned first = 0;
	if (only) {
		size_t fl = strcspn(only, " ");
		if (fl != strlen(corpus.files[_i]) || strncmp(only, corpus.files[_i], fl) != 0 || !only[fl])
			goto out;
		first = (unsigned)atoi(only + fl + 1);
		rounds = first + 1;
	}
	for (unsigned round = first; round < rounds; round++) {
		uint64_t seed = (uint64_t)_i * 1000003u + round;
		size_t loglen = 0;
		uint64_t before = r->total;

		memcpy(cap.bytes, bytes, cap.nbytes);
		memcpy(cap.frames, frames, n * sizeof *frames);
		for (size_t k = 0; k < per_round; k++) {
			size_t i = rnd(&seed) % n;
			if (!is_tcp[i])
				continue;
			const char *what = damage(&cap, i, &tcp[i], &seed);
			struct fc_tcp t;
			int fixed = 0;
			/* most damaged frames get valid checksums again */
			if (rnd(&seed) % 8 != 0 && fc_parse_tcp(cap.frames[i].data, cap.frames[i].caplen, &t)) {
				fc_fix_csums((uint8_t *)(uintptr_t)cap.frames[i].data, &t);
				fixed = 1;
			}
			int w = snprintf(log + loglen, 8192 - loglen, " frame %zu: %s%s;", i + 1, what,
			                 fixed ? "" : " (checksums left)");
			if (w > 0 && (size_t)w < 8192 - loglen)
				loglen += (size_t)w;
		}
		rc_reparse(r);
		for (size_t c = 0; c < NCONFIGS; c++) {
			rc_run_config(r, &configs[c], &res[c]);
			if (configs[c].same_as >= 0)
				rc_check_same(r, &res[c], &res[configs[c].same_as], &configs[configs[c].same_as]);
		}
		if (r->total != before || only)
			fprintf(stderr, "%s round %u (OFL_MUTATE_ONLY=\"%s %u\"):%s\n", corpus.files[_i], round,
			        corpus.files[_i], round, log);
		if (only)
			dump(&cap, "replay_mutate_round.pcap");
	}
	printf("%s: %u rounds of %zu damaged frames, %" PRIu64 " violations\n", corpus.files[_i], rounds,
	       per_round, r->total);
	fflush(stdout);
out:
	/* the capture's own bytes back before it is freed */
	memcpy(cap.frames, frames, n * sizeof *frames);
	rc_assert_clean(r);
	free(bytes);
	free(frames);
	free(tcp);
	free(is_tcp);
	free(res);
	free(log);
	rc_free(r);
	replay_capture_free(&cap);
}
END_TEST

int main(void)
{
	return rc_corpus_main(&corpus, "replay_mutate", mutate_file);
}
