/*
 * dsa_cut_test.c - the prepared decoder (ofl_dsa_decoder_init,
 * ofl_dsa_decode_cut, ofl_dsa_cut_view) against the one-call decode
 * (ofl_dsa_decode), for all 34 formats, both directions, the default
 * params (NULL and all-zero) and params that change decoding (tpid,
 * brcm-legacy VLAN, strict edsa):
 *   - on frames each format encodes for every port it can express, on every
 *     truncation of them and on each byte of the first 48 and the last 8
 *     changed (one bit, then all eight), the return code and meta are the same, and the cut turned
 *     into a view gives the same view (offsets, lengths and the bytes of
 *     hdr, which may be rebuilt);
 *   - the errors the header documents: OFL_EINVAL for a NULL or short
 *     decoder, a NULL ops or an unknown dir, and for a cut that does not fit
 *     the frame; meta all zero after a refused frame.
 * Linked with support/dsa_briefdiff.c, every ofl_dsa_decode() above is also
 * checked against ofl_dsa_decode_brief(); test_brief adds the frames whose
 * brief decode takes the out-of-line path (sja1105 management and meta
 * frames, sja1110 headers, qca MIB frames).
 */
#include <check.h>
#include <ofl/dsa.h>
#include <stdlib.h>
#include <string.h>

#include "dsa_briefdiff.h"
#include "harness.h"

#define HEADROOM 64u
#define BUFSZ 256u

/* An untagged IPv4-typed frame of len bytes with a recognisable payload. */
static void make_frame(uint8_t *f, uint32_t len)
{
	static const uint8_t macs[12] = { 0x02, 0x00, 0x5e, 0x10, 0x20, 0x30,
	                                  0x02, 0x00, 0x5e, 0x40, 0x50, 0x60 };

	memcpy(f, macs, sizeof(macs));
	f[12] = 0x08;
	f[13] = 0x00;
	for (uint32_t i = 14; i < len; i++)
		f[i] = (uint8_t)(i * 7 + 1);
}

/* ck_assert marks its position on every call, which dominates a loop of
 * a million cheap checks: test first, report only a failure. */
#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond))                                                   \
			ck_abort_msg(__VA_ARGS__);                             \
	} while (0)

/* One frame through both decodes: they must agree.  The frame is an
 * exact-size heap copy so that a sanitizer sees any over-read. */
static void agree(const struct ofl_dsa_decoder *d, const struct ofl_dsa_params *p,
                  const uint8_t *src, uint32_t len)
{
	static const struct ofl_dsa_meta zero;
	struct ofl_dsa_meta m1, m2;
	struct ofl_dsa_view v1, v2;
	struct ofl_dsa_cut c;
	uint8_t *fr = malloc(len ? len : 1);
	const char *name = d->ops->name;
	int rc1, rc2;

	CHECK(fr, "malloc");
	memcpy(fr, src, len);
	rc1 = ofl_dsa_decode(d->ops, p, d->dir, fr, len, &m1, &v1);
	memset(&m2, 0xEE, sizeof(m2));
	rc2 = ofl_dsa_decode_cut(d, fr, len, &m2, &c);
	CHECK(rc1 == rc2, "%s dir %u len %u: decode %d, decode_cut %d", name, d->dir, len, rc1,
	      rc2);
	CHECK(memcmp(&m1, &m2, sizeof(m1)) == 0, "%s dir %u len %u: meta differs", name, d->dir,
	      len);
	if (rc1 == 0) {
		CHECK(ofl_dsa_cut_view(d->ops, fr, len, &c, &v2) == 0, "%s: cut_view", name);
		CHECK(v2.hdr_len == v1.hdr_len && v2.mac_off == v1.mac_off &&
		      v2.rest_off == v1.rest_off && v2.rest_len == v1.rest_len &&
		      v2.tag_off == v1.tag_off && v2.tag_len == v1.tag_len &&
		      v2.tail_len == v1.tail_len && v2.ins_len == v1.ins_len &&
		      v2.mac_patched == v1.mac_patched,
		      "%s dir %u len %u: the cut's view differs", name, d->dir, len);
		CHECK(memcmp(v2.hdr, v1.hdr, v1.hdr_len) == 0, "%s: hdr differs", name);
		/* hdr points into the frame exactly when the view's does */
		CHECK((v2.hdr == v2.buf) == (v1.hdr == v1.buf), "%s: hdr placement", name);
	} else {
		CHECK(rc2 == OFL_EBADMSG, "%s: rc %d", name, rc2);
		CHECK(memcmp(&m2, &zero, sizeof(m2)) == 0, "%s: meta not zeroed", name);
	}
	free(fr);
}

/* Every truncation and the flips of one frame. */
static void agree_around(const struct ofl_dsa_decoder *d, const struct ofl_dsa_params *p,
                         const uint8_t *fr, uint32_t len)
{
	uint8_t mut[BUFSZ + HEADROOM];

	for (uint32_t n = 0; n <= len; n++)
		agree(d, p, fr, n);
	for (uint32_t i = 0; i < len; i++) {
		if (i >= 48 && i + 8 < len)
			continue;
		/* one bit (a different one for each byte) and the whole byte */
		for (unsigned k = 0; k < 2; k++) {
			memcpy(mut, fr, len);
			mut[i] ^= k ? 0xFFu : (uint8_t)(1u << (i % 8));
			agree(d, p, mut, len);
		}
	}
}

/* The params of run `k`: 0 NULL, 1 all zero (the defaults), 2 and 3 ones
 * that change what some formats accept. */
static const struct ofl_dsa_params *params_of(unsigned k, struct ofl_dsa_params *p)
{
	ofl_dsa_params_default(p);
	if (k == 0)
		return NULL;
	if (k == 2) {
		p->flags = OFL_DSA_P_BRCM_LEGACY_VLAN | OFL_DSA_P_EDSA_STRICT;
		p->tpid = 0x8100;
	} else if (k == 3) {
		p->flags = OFL_DSA_P_KSZ_PTP;
		p->tpid = 0xDADB;
		p->num_ports = 4;
		p->cpu_port = 1;
	}
	return p;
}

/* All of it for one format. */
static void agree_format(const struct ofl_dsa_ops *ops)
{
	uint8_t buf[BUFSZ + HEADROOM];

	for (int dir = OFL_DSA_RX; dir <= OFL_DSA_TX; dir++) {
		unsigned nports = dir == OFL_DSA_TX ? ops->tx_ports : ops->rx_ports;

		for (unsigned k = 0; k < 4; k++) {
			struct ofl_dsa_params par;
			const struct ofl_dsa_params *p = params_of(k, &par);
			struct ofl_dsa_decoder d;

			ck_assert_int_eq(ofl_dsa_decoder_init(&d, sizeof(d), ops, p, dir), 0);
			ck_assert_ptr_eq(d.ops, ops);
			ck_assert_uint_eq(d.dir, (unsigned)dir);
			/* port 0, the last port, and one in between: each tag
			 * built by encode, its neighbours by truncation and flips */
			for (unsigned q = 0; q < 3; q++) {
				struct ofl_dsa_meta m = { 0 };
				uint32_t off = HEADROOM, len = 64 + q;
				unsigned port = q == 0 ? 0 : q == 1 ? nports / 2 : nports - 1;

				if (nports) {
					m.valid = OFL_DSA_M_PORT;
					m.port = (uint8_t)port;
				}
				if (ops->id == 33) { /* nxp_netc RX: switch id 1 */
					m.valid |= OFL_DSA_M_SWITCH;
					m.switch_id = 1;
				}
				make_frame(buf + off, len);
				if (ofl_dsa_encode(ops, p, dir, &m, buf, sizeof(buf), &off, &len) != 0)
					continue; /* what this format cannot tag */
				agree_around(&d, p, buf + off, len);
			}
		}
	}
}

START_TEST(test_cut_agrees)
{
	for (size_t i = 0; i < ofl_dsa_count(); i++)
		agree_format(ofl_dsa_at(i));
}
END_TEST

START_TEST(test_cut_errors)
{
	const struct ofl_dsa_ops *ops = ofl_dsa_find("brcm");
	struct ofl_dsa_decoder d;
	struct ofl_dsa_meta m;
	struct ofl_dsa_cut c;
	struct ofl_dsa_view v;
	struct ofl_dsa_ops fake;
	uint8_t buf[BUFSZ + HEADROOM], fr[64];
	uint32_t off = HEADROOM, len = 60;

	ck_assert_ptr_nonnull(ops);
	ck_assert_int_eq(ofl_dsa_decoder_init(NULL, sizeof(d), ops, NULL, OFL_DSA_RX), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_decoder_init(&d, sizeof(d) - 1, ops, NULL, OFL_DSA_RX),
	                 OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_decoder_init(&d, sizeof(d), NULL, NULL, OFL_DSA_RX), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_decoder_init(&d, sizeof(d), ops, NULL, 2), OFL_EINVAL);
	fake = *ops;
	fake.codec = NULL;
	ck_assert_int_eq(ofl_dsa_decoder_init(&d, sizeof(d), &fake, NULL, OFL_DSA_RX), OFL_ENOTSUP);

	/* a refused frame: meta zeroed, the cut left alone */
	ck_assert_int_eq(ofl_dsa_decoder_init(&d, sizeof(d), ops, NULL, OFL_DSA_RX), 0);
	memset(fr, 0xFF, sizeof(fr)); /* opcode 7: not a switch -> host tag */
	memset(&m, 0xEE, sizeof(m));
	memset(&c, 0xCC, sizeof(c));
	ck_assert_int_eq(ofl_dsa_decode_cut(&d, fr, sizeof(fr), &m, &c), OFL_EBADMSG);
	ck_assert_uint_eq(m.valid, 0);
	ck_assert_uint_eq(m.port, 0);
	ck_assert_uint_eq(c.mac_off, 0xCCCC);

	/* a good frame, then cuts that do not fit it */
	memset(&m, 0, sizeof(m));
	m.valid = OFL_DSA_M_PORT;
	m.port = 3;
	make_frame(buf + off, len);
	ck_assert_int_eq(ofl_dsa_encode(ops, NULL, OFL_DSA_RX, &m, buf, sizeof(buf), &off, &len), 0);
	ck_assert_int_eq(ofl_dsa_decode_cut(&d, buf + off, len, &m, &c), 0);
	ck_assert_uint_eq(m.port, 3);
	ck_assert_uint_eq(c.mac_off, 0);
	ck_assert_uint_eq(c.rest_off, 16);
	ck_assert_uint_eq(c.tail_len, 0);
	ck_assert_uint_eq(c.ins_len, 0);
	ck_assert_int_eq(ofl_dsa_cut_view(ops, buf + off, len, &c, &v), 0);
	ck_assert_ptr_eq(v.hdr, buf + off);
	ck_assert_uint_eq(v.rest_len, len - 16);
	ck_assert_int_eq(ofl_dsa_cut_view(NULL, buf + off, len, &c, &v), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_cut_view(ops, NULL, len, &c, &v), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_cut_view(ops, buf + off, len, NULL, &v), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_cut_view(ops, buf + off, len, &c, NULL), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_cut_view(ops, buf + off, 15, &c, &v), OFL_EINVAL);
	c.tail_len = (uint16_t)(len - 15);
	ck_assert_int_eq(ofl_dsa_cut_view(ops, buf + off, len, &c, &v), OFL_EINVAL);
	c.tail_len = 0;
	c.ins_len = 5;
	ck_assert_int_eq(ofl_dsa_cut_view(ops, buf + off, len, &c, &v), OFL_EINVAL);
	c.ins_len = 4; /* 16 bytes of hdr need rest_off >= 16: still fits */
	ck_assert_int_eq(ofl_dsa_cut_view(ops, buf + off, len, &c, &v), 0);
	c.rest_off = 15;
	ck_assert_int_eq(ofl_dsa_cut_view(ops, buf + off, len, &c, &v), OFL_EINVAL);
}
END_TEST

/* One frame through the brief decode: rc, port, switch and flags. */
static void brief_is(const char *fmt, const uint8_t *fr, uint32_t len, int rc, unsigned port,
                     unsigned sw, unsigned flags, unsigned patched)
{
	const struct ofl_dsa_ops *ops = ofl_dsa_find(fmt);
	struct ofl_dsa_decoder d;
	struct ofl_dsa_brief b;
	struct ofl_dsa_meta m;
	struct ofl_dsa_view v;
	size_t before = dsa_briefdiff_count();

	ck_assert_ptr_nonnull(ops);
	ck_assert_int_eq(ofl_dsa_decoder_init(&d, sizeof(d), ops, NULL, OFL_DSA_RX), 0);
	ck_assert_int_eq(ofl_dsa_decode_brief(&d, fr, len, &b), rc);
	/* the wrapped full decode compares every field */
	ck_assert_int_eq(ofl_dsa_decode(ops, NULL, OFL_DSA_RX, fr, len, &m, &v), rc);
	ck_assert_uint_eq(dsa_briefdiff_count(), before + 1);
	if (rc)
		return;
	ck_assert_uint_eq(b.valid, OFL_DSA_M_PORT | OFL_DSA_M_SWITCH);
	ck_assert_uint_eq(b.port, port);
	ck_assert_uint_eq(b.switch_id, sw);
	ck_assert_uint_eq(b.flags, flags);
	ck_assert_uint_eq(b.cut.mac_patched, patched);
}

START_TEST(test_brief)
{
	uint8_t f[80];

	/* sja1105 link-local: port and switch in DA bytes 3-4, cleared */
	make_frame(f, 64);
	f[0] = 0x01, f[1] = 0x80, f[2] = 0xc2, f[3] = 3, f[4] = 1, f[5] = 0x0e;
	brief_is("sja1105", f, 64, 0, 3, 1, OFL_DSA_MF_LINK_LOCAL | OFL_DSA_MF_TRAPPED, 1);
	f[3] = 16; /* no such port */
	brief_is("sja1105", f, 64, OFL_EBADMSG, 0, 0, 0, 0);
	brief_is("sja1105", f, 13, OFL_EBADMSG, 0, 0, 0, 0);
	/* sja1105 timestamp meta frame: port 2, switch 1 */
	static const uint8_t mh[14] = { 0x01, 0x80, 0xc2, 0, 0, 0x0e, 0x22, 0x22,
	                                0x22, 0x22, 0x22, 0x22, 0x00, 0x08 };
	memset(f, 0, sizeof(f));
	memcpy(f, mh, sizeof(mh));
	f[20] = 2;
	f[21] = 1;
	brief_is("sja1105", f, 64, 0, 2, 1, OFL_DSA_MF_CONTROL | OFL_DSA_MF_TRAPPED, 0);
	brief_is("sja1105", f, 21, OFL_EBADMSG, 0, 0, 0, 0);
	/* sja1110 header without trailer: source port 5, switch 1 */
	make_frame(f, 64);
	memmove(f + 16, f + 12, 48);
	f[12] = 0xda, f[13] = 0xdc, f[14] = 0x00, f[15] = 0x51;
	brief_is("sja1110", f, 64, 0, 5, 1, OFL_DSA_MF_LINK_LOCAL, 0);
	f[14] = 0x20; /* host only */
	brief_is("sja1110", f, 64, 0, 5, 1,
	         OFL_DSA_MF_LINK_LOCAL | OFL_DSA_MF_HOST_ONLY | OFL_DSA_MF_TRAPPED, 0);
	f[14] = 0x80; /* host-to-switch on RX */
	brief_is("sja1110", f, 64, OFL_EBADMSG, 0, 0, 0, 0);
	/* qca MIB (type 1) and register ACK (type 2) frames: control */
	make_frame(f, 64);
	memmove(f + 14, f + 12, 50);
	f[12] = 0x80, f[13] = 0x42; /* version 2, type 1, port 2 */
	{
		const struct ofl_dsa_ops *q = ofl_dsa_find("qca");
		struct ofl_dsa_decoder d;
		struct ofl_dsa_brief b;

		ck_assert_int_eq(ofl_dsa_decoder_init(&d, sizeof(d), q, NULL, OFL_DSA_RX), 0);
		for (unsigned type = 0; type < 4; type++) {
			f[12] = (uint8_t)(0x80 | type >> 2);
			f[13] = (uint8_t)((type & 3u) << 6 | 2);
			ck_assert_int_eq(ofl_dsa_decode_brief(&d, f, 64, &b), 0);
			ck_assert_uint_eq(b.port, 2);
			ck_assert_uint_eq(b.flags, type == 1 || type == 2 ? OFL_DSA_MF_CONTROL : 0);
		}
	}
}
END_TEST

int main(void)
{
	const TTest *tests[] = { test_cut_agrees, test_cut_errors, test_brief };
	return h_run_tests("dsa_cut", tests, sizeof tests / sizeof tests[0]);
}
