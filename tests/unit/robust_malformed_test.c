/*
 * robust_malformed_test.c - every capture in $OFL_CORPORA/malformed
 * (truncated, inconsistent-length and fuzzer-found packets collected from
 * other projects' test suites) through the library:
 *   - GRO with the conservation harness (every cookie back exactly once,
 *     NORMAL packets byte for byte, payload per flow in order), with the
 *     frames in one buffer, in four, and one byte per buffer for the
 *     headers; raw-IP captures (link types 228/229) get an Ethernet header;
 *   - GSO: ofl_gso_start() on every frame (TCP and AUTO) either refuses
 *     with a documented code or segments it completely, the payload handed
 *     out adding up to the frame's;
 *   - DSA: every format decodes every frame in both directions to 0 or
 *     OFL_EBADMSG, with the view inside the frame.
 * Fails when the corpus is not there.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <dirent.h>
#include <ofl/dsa.h>
#include <ofl/gro.h>
#include <ofl/gso.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "capture.h"

/* every capture libpcap reads (one it refuses is libpcap's business) */
struct cap {
	char name[256];
	struct replay_capture c;
};

static struct cap caps[128];
static unsigned ncaps;
static struct harness H;

static int load(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL && ncaps < 128) {
		char path[8192], err[REPLAY_ERRLEN];
		if (e->d_name[0] == '.' || !strstr(e->d_name, ".pcap"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (replay_capture_read_lax(&caps[ncaps].c, path, err, sizeof(err)) == 0) {
			snprintf(caps[ncaps].name, sizeof(caps[ncaps].name), "%s", e->d_name);
			ncaps++;
		}
	}
	closedir(d);
	return 0;
}

/* The frame as Ethernet: raw IPv4/IPv6 captures get a made-up header. */
static size_t as_eth(const struct replay_frame *f, uint32_t linktype, uint8_t *out, size_t cap)
{
	size_t n = f->caplen;
	if (linktype == REPLAY_LINKTYPE_ETHERNET) {
		if (n > cap)
			n = cap;
		memcpy(out, f->data, n);
		return n;
	}
	if (n + 14 > cap)
		n = cap - 14;
	memset(out, 0, 12);
	out[0] = 2;
	out[6] = 2;
	out[11] = 1;
	if (linktype == 229 || (n && (f->data[0] >> 4) == 6)) {
		out[12] = 0x86;
		out[13] = 0xdd;
	} else {
		out[12] = 0x08;
		out[13] = 0x00;
	}
	memcpy(out + 14, f->data, n);
	return n + 14;
}

static uint8_t frame[70000];

START_TEST(gro_conservation)
{
	static const int splits[] = {H_SPLIT_NONE, H_SPLIT_FOUR, H_SPLIT_BYTES, H_SPLIT_EMPTY};
	unsigned c, frames = 0;
	for (c = 0; c < ncaps; c++) {
		const struct replay_capture *cc = &caps[c].c;
		size_t i;
		h_init(&H, NULL, splits[_i]);
		for (i = 0; i < cc->nframes && H.nin < H_MAX_IN - 1; i++) {
			size_t n = as_eth(&cc->frames[i], cc->linktype, frame, sizeof(frame));
			int r = h_rx(&H, frame, n, cc->frames[i].ts_ns);
			ck_assert_msg(r >= 0, "%s frame %zu: %d", caps[c].name, i + 1, r);
			frames++;
		}
		h_finish(&H);
		h_free(&H);
	}
	ck_assert_uint_gt(frames, 0);
}
END_TEST

START_TEST(gso_each_frame)
{
	unsigned c, started = 0, refused = 0;
	static uint8_t block[16 * 512];
	for (c = 0; c < ncaps; c++) {
		const struct replay_capture *cc = &caps[c].c;
		for (size_t i = 0; i < cc->nframes; i++) {
			size_t n = as_eth(&cc->frames[i], cc->linktype, frame, sizeof(frame));
			int t;
			for (t = 0; t < 2; t++) {
				struct ofl_gso_req req;
				struct ofl_gso_iter it;
				struct ofl_gso_counts cnt;
				struct ofl_gso_pool pool;
				struct ofl_gso_seg seg;
				struct ofl_buf b = {frame, (uint32_t)n};
				uint64_t pay = 0;
				uint32_t k = 0;
				int rc;
				ofl_gso_req_default(&req);
				req.type = t ? OFL_GSO_TYPE_AUTO : OFL_GSO_TYPE_TCP;
				req.seg_size = 536;
				rc = ofl_gso_start(&it, &req, &b, 1);
				if (rc != 0) {
					ck_assert_msg(rc == OFL_EINVAL || rc == OFL_EPROTO || rc == OFL_EBADMSG ||
					              rc == OFL_ENOTSUP || rc == OFL_E2BIG,
					              "%s: start gave %d", caps[c].name, rc);
					refused++;
					continue;
				}
				started++;
				ck_assert_int_eq(ofl_gso_count(&it, &cnt, sizeof cnt), 0);
				ck_assert_int_eq(ofl_gso_pool_init_block(&pool, block, sizeof(block), 512), 0);
				while ((rc = ofl_gso_next(&it, &pool, &seg)) == 1) {
					ck_assert_uint_eq(seg.index, k);
					ck_assert_uint_le(seg.len, n + OFL_GSO_MAX_HDR);
					pay += seg.payload_len;
					k++;
					ck_assert_int_eq(ofl_gso_pool_put(&pool, &seg.hdr), 0);
				}
				ck_assert_int_eq(rc, 0);
				ck_assert_uint_eq(k, cnt.segs);
				ck_assert_uint_le(pay, n);
			}
		}
	}
	printf("malformed: GSO started %u, refused %u\n", started, refused);
	ck_assert_uint_gt(refused, 0);
}
END_TEST

START_TEST(dsa_each_frame)
{
	unsigned c, ok = 0, bad = 0;
	size_t i, nf = ofl_dsa_count();
	for (c = 0; c < ncaps; c++) {
		const struct replay_capture *cc = &caps[c].c;
		for (size_t fi = 0; fi < cc->nframes; fi++) {
			const struct replay_frame f = cc->frames[fi];
			/* an exact-size copy: a read past it is a sanitizer report */
			uint8_t *cp = malloc(f.caplen ? f.caplen : 1);
			memcpy(cp, f.data, f.caplen);
			for (i = 0; i < nf; i++) {
				int dir;
				for (dir = 0; dir < 2; dir++) {
					struct ofl_dsa_meta m;
					struct ofl_dsa_view v;
					int rc = ofl_dsa_decode(ofl_dsa_at(i), NULL, dir, cp, f.caplen, &m, &v);
					ck_assert(rc == 0 || rc == OFL_EBADMSG);
					if (rc == 0) {
						struct ofl_buf pc[2];
						ck_assert_int_eq(ofl_dsa_untagged(cp, f.caplen, &v, pc), 2);
						ok++;
					} else {
						bad++;
					}
				}
			}
			free(cp);
		}
	}
	printf("malformed: DSA decodes %u accepted, %u refused\n", ok, bad);
	ck_assert_uint_gt(ok + bad, 0);
}
END_TEST

int main(void)
{
	const char *corp = getenv("OFL_CORPORA");
	char dir[4096];
	const struct h_test tests[] = {{gro_conservation, 4}, {gso_each_frame, 0}, {dsa_each_frame, 0}};
	snprintf(dir, sizeof(dir), "%s/malformed", corp ? corp : "../shared/corpora");
	if (load(dir) != 0 || ncaps == 0) {
		printf("robust_malformed_test: no captures in %s: the corpus is missing\n", dir);
		return EXIT_FAILURE;
	}
	printf("robust_malformed_test: %u captures from %s\n", ncaps, dir);
	return h_run_table("robust_malformed", 300, 0, tests, sizeof tests / sizeof tests[0]);
}
