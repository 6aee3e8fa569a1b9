/*
 * dsa_roundtrip_test.c - properties every one of the 34 formats must have,
 * in both directions:
 *   - the registry: ids index the table, names and aliases find the entry,
 *     unknown names give NULL / OFL_ENOENT;
 *   - encode then decode gives back the port, priority and switch for every
 *     port and priority the format can express, and the untagged view is the
 *     original frame padded the way the kernel pads it;
 *   - strip in place, untagged-as-pieces and the multi-buffer decode (split
 *     at several places) all agree;
 *   - every truncation shorter than tag + Ethernet header is refused, and
 *     no truncation reads outside the frame (each one is a fresh exact-size
 *     heap copy, so a sanitizer build catches any over-read);
 *   - encode refuses missing room without touching the buffer, and refuses
 *     ports the format cannot express.
 */
#include <check.h>
#include <ofl/dsa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define HEADROOM 40u
#define BUFSZ 512u

static const uint8_t base_da[6] = { 0x02, 0x00, 0x5e, 0x10, 0x20, 0x30 };
static const uint8_t base_sa[6] = { 0x02, 0x00, 0x5e, 0x40, 0x50, 0x60 };

/* An untagged IPv4-typed frame of len bytes with a recognisable payload. */
static void make_frame(uint8_t *f, uint32_t len)
{
	memcpy(f, base_da, 6);
	memcpy(f + 6, base_sa, 6);
	f[12] = 0x08;
	f[13] = 0x00;
	for (uint32_t i = 14; i < len; i++)
		f[i] = (uint8_t)(i * 7 + 1);
}

START_TEST(test_registry)
{
	const struct ofl_dsa_ops *o;
	size_t n = ofl_dsa_count();

	ck_assert_uint_eq(n, 34);
	for (size_t i = 0; i < n; i++) {
		o = ofl_dsa_at(i);
		ck_assert_ptr_nonnull(o);
		ck_assert_uint_eq(o->id, i);
		ck_assert_ptr_eq(ofl_dsa_by_id((unsigned)i), o);
		ck_assert_ptr_eq(ofl_dsa_find(o->name), o);
		if (o->alias)
			ck_assert_ptr_eq(ofl_dsa_find(o->alias), o);
		ck_assert_ptr_nonnull(o->codec);
	}
	ck_assert_ptr_null(ofl_dsa_at(n));
	ck_assert_ptr_null(ofl_dsa_by_id(34));
	ck_assert_ptr_null(ofl_dsa_find("nope"));
	ck_assert_ptr_null(ofl_dsa_find(NULL));
	ck_assert_ptr_null(ofl_dsa_find("brc"));
	ck_assert_ptr_null(ofl_dsa_find("brcmx"));
	ck_assert_ptr_eq(ofl_dsa_find("edsa\n"), ofl_dsa_by_id(4));
	ck_assert_int_eq(ofl_dsa_lookup("nope", &o), OFL_ENOENT);
	ck_assert_ptr_null(o);
	ck_assert_int_eq(ofl_dsa_lookup(NULL, &o), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_lookup("qca", &o), 0);
	ck_assert_uint_eq(o->id, 10);

	/* the names Linux shows, and the ids of include/net/dsa.h */
	static const struct { const char *name; unsigned id; } known[] = {
		{ "none", 0 }, { "brcm", 1 }, { "brcm-prepend", 2 }, { "dsa", 3 },
		{ "edsa", 4 }, { "gswip", 5 }, { "ksz9477", 6 }, { "ksz9893", 7 },
		{ "lan9303", 8 }, { "mtk", 9 }, { "qca", 10 }, { "trailer", 11 },
		{ "8021q", 12 }, { "sja1105", 13 }, { "ksz8795", 14 }, { "ocelot", 15 },
		{ "ar9331", 16 }, { "rtl4a", 17 }, { "hellcreek", 18 }, { "xrs700x", 19 },
		{ "ocelot-8021q", 20 }, { "seville", 21 }, { "brcm-legacy", 22 },
		{ "sja1110", 23 }, { "rtl8_4", 24 }, { "rtl8_4t", 25 }, { "a5psw", 26 },
		{ "rzn1-a5psw", 26 }, { "lan937x", 27 }, { "vsc73xx-8021q", 28 },
		{ "brcm-legacy-fcs", 29 }, { "yt921x", 30 }, { "gsw1xx", 31 },
		{ "mxl-gsw1xx", 31 }, { "mxl862xx", 32 }, { "mxl862", 32 },
		{ "nxp_netc", 33 }, { "netc", 33 },
	};
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		o = ofl_dsa_find(known[i].name);
		ck_assert_msg(o && o->id == known[i].id, "%s", known[i].name);
	}

	{
		struct ofl_dsa_params p;

		memset(&p, 0xAB, sizeof(p));
		ofl_dsa_params_default(&p);
		ck_assert_uint_eq(p.flags, 0);
		ck_assert_uint_eq(p.tpid, 0);
		ck_assert_uint_eq(p.cpu_port, 0);
		ck_assert_uint_eq(p.num_ports, 0);
	}
}
END_TEST

static void check_meta(const struct ofl_dsa_ops *o, int dir,
                       const struct ofl_dsa_meta *in,
                       const struct ofl_dsa_meta *out, const char *where)
{
	if (o->flags & OFL_DSA_F_NO_PORTS)
		return;
	ck_assert_msg(out->valid & OFL_DSA_M_PORT, "%s: no port", where);
	ck_assert_msg(out->port == in->port, "%s: port %u", where, out->port);
	if (dir == OFL_DSA_TX)
		ck_assert_msg((out->valid & OFL_DSA_M_PORT_MASK) &&
		              out->port_mask == 1u << in->port, "%s: mask", where);
	if ((in->valid & OFL_DSA_M_PRIO) &&
	    (dir == OFL_DSA_TX ? o->tx_prios : o->rx_prios))
		ck_assert_msg((out->valid & OFL_DSA_M_PRIO) && out->prio == in->prio,
		              "%s: prio %u", where, out->prio);
	if (out->valid & OFL_DSA_M_SWITCH)
		ck_assert_msg(out->switch_id == in->switch_id, "%s: switch %u",
		              where, out->switch_id);
	ck_assert_msg(!(out->flags & OFL_DSA_MF_CONTROL), "%s: control", where);
}

/* Decoding the first `len` bytes of a tagged frame from an exact-size heap
 * copy: below the minimum it must be refused. */
static void check_truncations(const struct ofl_dsa_ops *o, int dir,
                              const uint8_t *frame, uint32_t len,
                              const struct ofl_dsa_view *v, const char *where)
{
	uint32_t min = v->tail_len ? 14u + v->tail_len : v->rest_off + 2u;

	if (o->id == 23 && v->tail_len) /* sja1110 trailer: position-checked */
		min = v->rest_off + 2u;
	for (uint32_t l = 0; l < len; l++) {
		uint8_t *cp = malloc(l ? l : 1);
		struct ofl_dsa_meta m;
		struct ofl_dsa_view tv;
		int e;

		ck_assert_ptr_nonnull(cp);
		memcpy(cp, frame, l);
		e = ofl_dsa_decode(o, NULL, dir, cp, l, &m, &tv);
		if (l < min)
			ck_assert_msg(e == OFL_EBADMSG, "%s: truncated to %u gave %d",
			              where, l, e);
		else if (e == 0)
			ck_assert_uint_le(tv.rest_off + tv.rest_len + tv.tail_len, l);
		free(cp);
	}
}

static void check_pieces(const struct ofl_dsa_ops *o, int dir,
                         const uint8_t *tagged, uint32_t tlen,
                         const struct ofl_dsa_meta *meta,
                         const struct ofl_dsa_view *v, const uint8_t *want,
                         uint32_t wlen, const char *where)
{
	struct ofl_buf pc[2];
	uint8_t copy[BUFSZ];
	uint32_t start, slen;
	const uint32_t cuts[] = { 1, 5, 12, 13, 14, 17, 20, 33, tlen / 2, tlen - 3,
	                          tlen - 1 };

	/* pieces */
	ck_assert_int_eq(ofl_dsa_untagged(tagged, tlen, v, pc), 2);
	ck_assert_uint_eq(pc[0].len + pc[1].len, wlen);
	ck_assert_msg(!memcmp(pc[0].data, want, pc[0].len), "%s: head piece", where);
	ck_assert_msg(!memcmp(pc[1].data, want + pc[0].len, pc[1].len),
	              "%s: rest piece", where);
	/* strip in place */
	memcpy(copy, tagged, tlen);
	ck_assert_int_eq(ofl_dsa_strip(copy, tlen, v, &start, &slen), 0);
	ck_assert_uint_eq(slen, wlen);
	ck_assert_msg(!memcmp(copy + start, want, wlen), "%s: strip", where);
	/* split over 2 and 3 buffers */
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		struct ofl_buf b[3];
		struct ofl_dsa_meta m2;
		struct ofl_dsa_view v2;
		uint32_t c = cuts[i];

		if (c == 0 || c >= tlen)
			continue;
		b[0].data = tagged;
		b[0].len = c;
		b[1].data = tagged + c;
		b[1].len = 0;
		b[2].data = tagged + c;
		b[2].len = tlen - c;
		ck_assert_int_eq(ofl_dsa_decode_bufs(o, NULL, dir, b, 3, &m2, &v2), 0);
		ck_assert_msg(!memcmp(&m2, meta, sizeof(m2)), "%s: split %u meta", where, c);
		ck_assert_uint_eq(v2.rest_off, v->rest_off);
		ck_assert_uint_eq(v2.rest_len, v->rest_len);
		ck_assert_uint_eq(v2.hdr_len, v->hdr_len);
		ck_assert_msg(!memcmp(v2.hdr, v->hdr, v->hdr_len), "%s: split hdr", where);
	}
}

static void roundtrip_one(const struct ofl_dsa_ops *o, int dir, unsigned port,
                          int prio, uint32_t flen)
{
	uint8_t buf[BUFSZ], want[BUFSZ], orig[BUFSZ];
	struct ofl_dsa_meta in, out;
	struct ofl_dsa_view v;
	uint32_t off = HEADROOM, len = flen, head, tail, wlen;
	char where[128];
	int e;

	snprintf(where, sizeof(where), "%s %s port %u prio %d len %u", o->name,
	         dir == OFL_DSA_RX ? "RX" : "TX", port, prio, flen);
	memset(buf, 0xEE, sizeof(buf));
	make_frame(buf + off, len);
	memcpy(orig, buf, sizeof(buf));
	memset(&in, 0, sizeof(in));
	in.valid = OFL_DSA_M_PORT | OFL_DSA_M_SWITCH;
	in.port = (uint8_t)port;
	in.switch_id = 1;
	if (prio >= 0) {
		in.valid |= OFL_DSA_M_PRIO;
		in.prio = (uint8_t)prio;
	}

	ck_assert_int_eq(ofl_dsa_room(o, NULL, dir, len, &head, &tail), 0);
	/* no room where the format writes: refused, buffer untouched (room
	 * is an upper bound, so only "none at all" must fail) */
	if (head && o->place != OFL_DSA_PLACE_TAIL) {
		uint32_t o2 = 0, l2 = len;
		uint8_t b2[BUFSZ];

		memcpy(b2, buf + off, len);
		ck_assert_int_eq(ofl_dsa_encode(o, NULL, dir, &in, b2, len + tail,
		                                &o2, &l2), OFL_ENOSPC);
		ck_assert_msg(!memcmp(b2, buf + off, len), "%s: ENOSPC wrote", where);
	}
	if (o->place == OFL_DSA_PLACE_TAIL ||
	    (dir == OFL_DSA_TX && len < o->tx_min_len)) {
		uint32_t o2 = off, l2 = len;

		ck_assert_int_eq(ofl_dsa_encode(o, NULL, dir, &in, buf, off + len,
		                                &o2, &l2), OFL_ENOSPC);
		ck_assert_msg(!memcmp(buf, orig, sizeof(buf)), "%s: ENOSPC wrote", where);
	}

	e = ofl_dsa_encode(o, NULL, dir, &in, buf, sizeof(buf), &off, &len);
	ck_assert_msg(e == 0, "%s: encode %d", where, e);
	ck_assert_uint_le(len, flen + head + tail);
	ck_assert_uint_ge(off, HEADROOM - head);

	e = ofl_dsa_decode(o, NULL, dir, buf + off, len, &out, &v);
	ck_assert_msg(e == 0, "%s: decode %d", where, e);
	check_meta(o, dir, &in, &out, where);

	/* the untagged frame: the original, padded as the kernel pads on TX */
	wlen = flen;
	memcpy(want, orig + HEADROOM, flen);
	if (dir == OFL_DSA_TX && flen < o->tx_min_len) {
		memset(want + flen, 0, o->tx_min_len - flen);
		wlen = o->tx_min_len;
	}
	check_pieces(o, dir, buf + off, len, &out, &v, want, wlen, where);
	if (port == 0 && prio <= 0)
		check_truncations(o, dir, buf + off, len, &v, where);
}

START_TEST(test_roundtrip)
{
	const struct ofl_dsa_ops *o = ofl_dsa_at((size_t)_i);

	for (int dir = OFL_DSA_RX; dir <= OFL_DSA_TX; dir++) {
		unsigned nports = dir == OFL_DSA_TX ? o->tx_ports : o->rx_ports;
		unsigned nprios = dir == OFL_DSA_TX ? o->tx_prios : o->rx_prios;

		if (o->flags & OFL_DSA_F_NO_PORTS) {
			roundtrip_one(o, dir, 0, -1, 60);
			continue;
		}
		ck_assert_uint_gt(nports, 0);
		for (unsigned port = 0; port < nports && port < 256; port++) {
			roundtrip_one(o, dir, port, -1, 60);
			for (unsigned prio = 0; prio < nprios; prio++)
				roundtrip_one(o, dir, port, (int)prio, 98);
		}
		/* short frames get the kernel's padding on TX; a switch never
		 * sends the host less than a minimum Ethernet frame, and some
		 * RX decoders (brcm-legacy, netc) need that much, as in Linux */
		if (dir == OFL_DSA_TX) {
			roundtrip_one(o, dir, 0, -1, 14);
			roundtrip_one(o, dir, nports - 1, -1, 42);
		}
		roundtrip_one(o, dir, 0, -1, 300);
	}
}
END_TEST

START_TEST(test_encode_refuses)
{
	const struct ofl_dsa_ops *o = ofl_dsa_at((size_t)_i);
	uint8_t buf[BUFSZ];
	struct ofl_dsa_meta m;

	if (o->flags & OFL_DSA_F_NO_PORTS)
		return;
	for (int dir = OFL_DSA_RX; dir <= OFL_DSA_TX; dir++) {
		unsigned nports = dir == OFL_DSA_TX ? o->tx_ports : o->rx_ports;
		uint32_t off = HEADROOM, len = 60;
		int e;

		make_frame(buf + off, len);
		memset(&m, 0, sizeof(m));
		m.switch_id = 1;
		m.valid = OFL_DSA_M_SWITCH;
		/* no port at all */
		e = ofl_dsa_encode(o, NULL, dir, &m, buf, sizeof(buf), &off, &len);
		ck_assert_msg(e == OFL_ENOTSUP, "%s dir %d: no port gave %d",
			              o->name, dir, e);
		/* the first port it cannot express */
		if (nports < 256) {
			m.valid |= OFL_DSA_M_PORT;
			m.port = (uint8_t)nports;
			e = ofl_dsa_encode(o, NULL, dir, &m, buf, sizeof(buf), &off, &len);
			ck_assert_msg(e == OFL_ENOTSUP, "%s dir %d: port %u gave %d",
			              o->name, dir, nports, e);
		}
		ck_assert_uint_eq(off, HEADROOM);
		ck_assert_uint_eq(len, 60);
	}
}
END_TEST

START_TEST(test_bad_args)
{
	const struct ofl_dsa_ops *o = ofl_dsa_find("brcm");
	uint8_t f[64] = { 0 };
	struct ofl_dsa_meta m;
	struct ofl_dsa_view v;
	struct ofl_buf b = { f, 64 }, pc[2];
	uint32_t off = 10, len = 40, s, l;

	ck_assert_int_eq(ofl_dsa_decode(NULL, NULL, 0, f, 64, &m, &v), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, 2, f, 64, &m, &v), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, 0, NULL, 64, &m, &v), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, 0, f, 64, NULL, &v), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_decode_bufs(o, NULL, 0, &b, 0, &m, &v), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_decode_bufs(o, NULL, 0, NULL, 1, &m, &v), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_encode(o, NULL, 1, &m, f, 64, &off, NULL), OFL_EINVAL);
	off = 30;
	len = 40; /* beyond the buffer */
	ck_assert_int_eq(ofl_dsa_encode(o, NULL, 1, &m, f, 64, &off, &len), OFL_EINVAL);
	off = 30;
	len = 13; /* shorter than an Ethernet header */
	ck_assert_int_eq(ofl_dsa_encode(o, NULL, 1, &m, f, 64, &off, &len), OFL_EINVAL);
	memset(&v, 0, sizeof(v));
	ck_assert_int_eq(ofl_dsa_untagged(f, 64, &v, pc), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_strip(f, 64, &v, &s, &l), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_room(NULL, NULL, 0, 10, &s, &l), OFL_EINVAL);
	/* a failed decode leaves meta and view zeroed */
	f[12] = 0xE0; /* opcode 7 */
	memset(&m, 0x55, sizeof(m));
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, OFL_DSA_RX, f, 64, &m, &v), OFL_EBADMSG);
	ck_assert_uint_eq(m.valid, 0);
	ck_assert_ptr_null(v.hdr);
}
END_TEST

/* Random bytes, random lengths, random splits: decode never fails in an
 * unexpected way, and a success always describes bytes inside the frame.
 * Each frame is an exact-size heap copy so a sanitizer build sees any
 * over-read. */
START_TEST(test_random_frames)
{
	const struct ofl_dsa_ops *o = ofl_dsa_at((size_t)_i);
	uint32_t seed = 0x9E3779B9u ^ (uint32_t)_i;

	for (int iter = 0; iter < 3000; iter++) {
		uint32_t len, cut;
		uint8_t *f;
		int dir = iter & 1;
		struct ofl_dsa_meta m, m2;
		struct ofl_dsa_view v, v2;
		struct ofl_buf b[2];
		int e, e2;

		seed = seed * 1664525u + 1013904223u;
		len = (seed >> 8) % 130;
		f = malloc(len ? len : 1);
		ck_assert_ptr_nonnull(f);
		for (uint32_t k = 0; k < len; k++) {
			seed = seed * 1664525u + 1013904223u;
			f[k] = (uint8_t)(seed >> 24);
		}
		/* make the format's EtherType/marker bytes likely */
		if (len > 14 && (iter & 2)) {
			struct ofl_dsa_meta em = { .valid = OFL_DSA_M_PORT, .port = 1 };
			uint8_t tmp[256];
			uint32_t off = 40, l = len;

			memcpy(tmp + off, f, len);
			if (ofl_dsa_encode(o, NULL, dir, &em, tmp, sizeof(tmp), &off, &l) == 0 &&
			    l <= len)
				memcpy(f, tmp + off, l);
		}
		e = ofl_dsa_decode(o, NULL, dir, f, len, &m, &v);
		ck_assert(e == 0 || e == OFL_EBADMSG);
		if (e == 0) {
			struct ofl_buf pc[2];

			ck_assert_uint_le(v.rest_off + v.rest_len + v.tail_len, len);
			ck_assert_int_eq(ofl_dsa_untagged(f, len, &v, pc), 2);
		}
		seed = seed * 1664525u + 1013904223u;
		cut = len ? (seed >> 8) % len : 0;
		b[0].data = f;
		b[0].len = cut;
		b[1].data = f + cut;
		b[1].len = len - cut;
		e2 = ofl_dsa_decode_bufs(o, NULL, dir, b, 2, &m2, &v2);
		ck_assert_int_eq(e2, e);
		if (!e)
			ck_assert_mem_eq(&m2, &m, sizeof(m));
		free(f);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("dsa_roundtrip");
	TCase *tc = tcase_create("all formats");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_registry);
	tcase_add_test(tc, test_bad_args);
	tcase_add_loop_test(tc, test_roundtrip, 0, (int)ofl_dsa_count());
	tcase_add_loop_test(tc, test_encode_refuses, 0, (int)ofl_dsa_count());
	tcase_add_loop_test(tc, test_random_frames, 0, (int)ofl_dsa_count());
	suite_add_tcase(s, tc);
	return h_run_suite(s);
}
