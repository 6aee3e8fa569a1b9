/*
 * parse_fast_diff_test.c - the one-pass parse of plain frames
 * (ofl_parse_plain / ofl_parse_plain_at, and ofl_parse_plain_udp for UDP,
 * src/core/parse.h) against the full
 * parser (ofl_parse / ofl_parse_at) on every frame of every Ethernet capture
 * of $OFL_CORPORA.
 *
 * For each frame, with the first buffer holding the whole frame, exactly
 * the headers, and 54 / 74 bytes, and again behind a 4-byte prefix (a frame
 * behind a DSA tag, base 4):
 *   - whenever the fast parse accepts the frame, every field of its
 *     struct ofl_hdrs equals the full parser's;
 *   - it accepts exactly the frames it promises to: the full parser says OK,
 *     no VLAN tag, IPv4 without options or IPv6 without extension headers,
 *     the IP packet ending at the frame's end, the headers within the buffer.
 * Frames cut by the capture's snap length are given with their captured
 * length, as the replay feeds them.
 *
 * No corpus ($OFL_CORPORA or ../shared/corpora, with MANIFEST.tsv): the test
 * fails.
 */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "replay_check.h"

#define PREFIX 4u

static struct rc_corpus corpus;

/* Fields of h in a fixed form (the struct has padding). */
static void describe(const struct ofl_hdrs *h, char *buf, size_t cap)
{
	snprintf(buf, cap,
	         "status %u l3 %u l4proto %u nvlan %u l4_ok %u trimmed %u short_view %u l2_len %u "
	         "l3_off %u l4_off %u hdr_len %u ip6_ext_len %u l3_end %" PRIu32 " frame_len %" PRIu32
	         " et_off %" PRIu32 " payload_len %" PRIu32,
	         h->status, h->l3, h->l4proto, h->nvlan, h->l4_ok, h->trimmed, h->short_view, h->l2_len,
	         h->l3_off, h->l4_off, h->hdr_len, h->ip6_ext_len, h->l3_end, h->frame_len, h->et_off,
	         h->payload_len);
}

/* Would ofl_parse_plain() take this frame, from the full parse's view? */
static int plain_shape(const struct ofl_hdrs *full, uint32_t base, uint32_t buflen)
{
	uint32_t l4 = full->l3 == 4 ? 34u : 54u;
	return full->status == OFL_PARSE_OK && full->nvlan == 0 && full->l3_off == base + 14 &&
	       full->l4_off == base + l4 && full->ip6_ext_len == 0 && full->l3_end == full->frame_len &&
	       full->hdr_len <= base + buflen && buflen >= (full->l3 == 4 ? 54u : 74u);
}

/* Would ofl_parse_plain_udp() take this frame (the whole of it in the
 * buffer), from the full parse's view? */
static int plain_udp_shape(const struct ofl_hdrs *full, uint32_t buflen)
{
	uint32_t l4 = full->l3 == 4 ? 34u : 54u;
	return full->status == OFL_PARSE_NOT_TCP && full->l4proto == 17 && full->nvlan == 0 && full->l3_off == 14 &&
	       full->l4_off == l4 && full->ip6_ext_len == 0 && full->l3_end == full->frame_len &&
	       l4 + 8u <= full->l3_end && l4 + 8u <= buflen;
}

struct counts {
	uint64_t tried, accepted, udp;
};

/* One frame of len bytes starting base bytes into the view p (its first
 * base bytes a stand-in tag), the fast parse given buflen of its bytes. */
static void check_one(const char *file, size_t fi, const uint8_t *p, uint32_t base, uint32_t len,
                      uint32_t buflen, struct counts *c)
{
	struct ofl_hdrs full, fast;
	struct ofl_view v = {p, base + len};
	int ok, want;
	char d1[512], d2[512];
	memset(&full, 0, sizeof(full));
	memset(&fast, 0, sizeof(fast));
	ofl_parse_at(&v, base + len, base + 12, &full);
	ok = ofl_parse_plain_at(p + base, buflen, len, base, &fast);
	want = plain_shape(&full, base, buflen);
	c->tried++;
	if (ok != want) {
		describe(&full, d1, sizeof(d1));
		ck_abort_msg("%s frame %zu (base %u, buffer %u of %u bytes): fast parse %s, full parse: %s", file,
		             fi + 1, base, buflen, len, ok ? "accepts" : "refuses", d1);
	}
	if (base == 0) {
		/* the UDP twin (group.c's lone datagrams) */
		struct ofl_hdrs fu;
		int uok;
		memset(&fu, 0, sizeof(fu));
		uok = ofl_parse_plain_udp(p, buflen, len, &fu);
		describe(&full, d1, sizeof(d1));
		ck_assert_msg(uok == plain_udp_shape(&full, buflen), "%s frame %zu (buffer %u of %u bytes): UDP parse %s, full parse: %s",
		              file, fi + 1, buflen, len, uok ? "accepts" : "refuses", d1);
		if (uok) {
			c->udp++;
			describe(&fu, d2, sizeof(d2));
			ck_assert_msg(strcmp(d1, d2) == 0, "%s frame %zu (buffer %u): UDP parse differs:\n  full %s\n  fast %s",
			              file, fi + 1, buflen, d1, d2);
		}
	}
	if (!ok)
		return;
	c->accepted++;
	describe(&full, d1, sizeof(d1));
	describe(&fast, d2, sizeof(d2));
	ck_assert_msg(strcmp(d1, d2) == 0, "%s frame %zu (base %u, buffer %u): fast parse differs:\n  full %s\n  fast %s",
	              file, fi + 1, base, buflen, d1, d2);
}

START_TEST(corpus_file)
{
	struct replay_capture cap;
	struct counts c = {0, 0, 0};
	uint8_t *buf = NULL;
	size_t cap_buf = 0, i;

	if (!rc_load_ethernet(&corpus, (unsigned)_i, &cap))
		return;
	for (i = 0; i < cap.nframes; i++) {
		const struct replay_frame *f = &cap.frames[i];
		uint32_t len = f->caplen, sizes[4], k;
		struct ofl_hdrs full;
		struct ofl_view v = {f->data, len};
		if (cap_buf < len + PREFIX) {
			cap_buf = (len + PREFIX) * 2;
			buf = realloc(buf, cap_buf);
			ck_assert_ptr_nonnull(buf);
		}
		/* the buffer sizes: all of it, exactly the headers, 54, 74 */
		ofl_parse(&v, len, &full);
		sizes[0] = len;
		sizes[1] = full.status == OFL_PARSE_OK && full.hdr_len <= len ? full.hdr_len : len;
		sizes[2] = len < 54 ? len : 54;
		sizes[3] = len < 74 ? len : 74;
		for (k = 0; k < 4; k++) {
			check_one(corpus.files[_i], i, f->data, 0, len, sizes[k], &c);
			/* behind a prefix (a DSA tag's place), offsets from the view */
			memset(buf, 0xa5, PREFIX);
			memcpy(buf + PREFIX, f->data, len);
			check_one(corpus.files[_i], i, buf, PREFIX, len, sizes[k], &c);
		}
	}
	printf("%s: %zu frames, fast parse accepted %" PRIu64 " of %" PRIu64 " tries (UDP %" PRIu64
	       "), all as the full parse\n",
	       corpus.files[_i], cap.nframes, c.accepted, c.tried, c.udp);
	fflush(stdout);
	free(buf);
	replay_capture_free(&cap);
}
END_TEST

int main(void)
{
	return rc_corpus_main(&corpus, "parse_fast_diff", corpus_file);
}
