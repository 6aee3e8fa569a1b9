/*
 * dsa_kernel_rules_test.c - where the codecs follow a rule of the kernel's
 * DSA core or taggers (Linux 6.18) that is not visible in one tag's layout:
 *
 *   - a tag naming a port no switch of the format can have is refused, as
 *     the kernel drops a frame dsa_conduit_find_user() finds no port for
 *     (one test per format whose tag can name one, and a sweep of every
 *     format over mutated tags);
 *   - edsa RX ignores the EtherType and the reserved bytes, as
 *     dsa_rcv_ll() in tag_dsa.c only reads the 4 DSA bytes after them;
 *   - brcm-legacy RX removes the 802.1Q header the BCM63xx internal switch
 *     adds only when its TCI is 0 (brcm_leg_tag_rcv() in tag_brcm.c);
 *   - TX pads to 60 bytes before the tagger whenever the user port needs
 *     tailroom (dsa_user_xmit() in net/dsa/user.c), which is the tagger's
 *     tailroom plus the conduit's (dsa_user_setup_tagger()).
 */
#include <check.h>
#include <ofl/dsa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define HEAD 64u

static void make_frame(uint8_t *f, uint32_t len)
{
	static const uint8_t macs[12] = { 0x02, 0, 0x5e, 1, 2, 3, 0x02, 0, 0x5e, 4, 5, 6 };

	memcpy(f, macs, 12);
	f[12] = 0x08;
	f[13] = 0x00;
	for (uint32_t i = 14; i < len; i++)
		f[i] = (uint8_t)(i * 13 + 5);
}

static const struct ofl_dsa_ops *fmt(const char *name)
{
	const struct ofl_dsa_ops *o = ofl_dsa_find(name);

	ck_assert_msg(o != NULL, "%s", name);
	return o;
}

/* ------------------------------------------------------------------ */
/* Ports out of range                                                  */

/* The fuzz finding of issue 16 (tests/fuzz/regress/dsa/sja1105-meta-port-216):
 * an sja1105 timestamp meta frame whose source port byte says 216.
 * Kernel path (6.18): net/dsa/tag_sja1105.c sja1105_rcv() reads a meta
 * frame's port and switch like any frame's and gives them to
 * dsa_tag_8021q_find_user() (net/dsa/tag_8021q.c), which looks them up with
 * dsa_conduit_find_user() (net/dsa/tag.h); no user port found: dropped. */
START_TEST(sja1105_meta_port)
{
	uint8_t f[24] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22,
	                  0x00, 0x08, 0xff, 0xff, 0x7e, 0xff, 0x7b, 0xfc, 0xd8, 0x90 };
	struct ofl_dsa_meta m;
	struct ofl_dsa_view v;

	ck_assert_int_eq(ofl_dsa_decode(fmt("sja1105"), NULL, OFL_DSA_RX, f, 22, &m, &v),
	                 OFL_EBADMSG);
	ck_assert_uint_eq(m.valid, 0);
	f[20] = 15; /* the last port a switch can have */
	ck_assert_int_eq(ofl_dsa_decode(fmt("sja1105"), NULL, OFL_DSA_RX, f, 22, &m, &v), 0);
	ck_assert_uint_eq(m.port, 15);
	ck_assert(m.flags & OFL_DSA_MF_CONTROL);
	f[20] = 16;
	ck_assert_int_eq(ofl_dsa_decode(fmt("sja1105"), NULL, OFL_DSA_RX, f, 22, &m, &v),
	                 OFL_EBADMSG);
}
END_TEST

/* sja1105 management and timestamp meta frames (no tag_8021q VLAN) go
 * out of line (sja1105_rx_mgmt() in src/dsa/tag_8021q.c): split over
 * buffers, they decode to the single-buffer meta, the view's hdr in
 * view->buf (the head window the multi-buffer decode reads is a copy that
 * dies with the call) and the same untagged bytes.  Kernel path as above:
 * tag_sja1105.c sja1105_rcv(), its link-local and meta-frame branches. */
START_TEST(sja1105_mgmt_bufs)
{
	uint8_t meta_f[22] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22,
	                       0x00, 0x08, 0x12, 0x34, 0x56, 0x78, 0x03, 0x00, 0x0f, 0x01 };
	uint8_t ll_f[64];
	const uint8_t *frames[2] = { meta_f, ll_f };
	const uint32_t lens[2] = { sizeof(meta_f), sizeof(ll_f) };

	make_frame(ll_f, 64);
	ll_f[0] = 0x01, ll_f[1] = 0x80, ll_f[2] = 0xc2, ll_f[3] = 7, ll_f[4] = 1, ll_f[5] = 0x0e;
	for (int i = 0; i < 2; i++) {
		const uint8_t *f = frames[i];
		const uint32_t len = lens[i];
		struct ofl_dsa_meta m1, m2;
		struct ofl_dsa_view v1, v2;
		struct ofl_buf b[3] = { { f, 5 }, { f + 5, 9 }, { f + 14, len - 14 } };
		uint8_t u1[64], u2[64];

		ck_assert_int_eq(ofl_dsa_decode(fmt("sja1105"), NULL, OFL_DSA_RX, f, len, &m1, &v1), 0);
		ck_assert_int_eq(ofl_dsa_decode_bufs(fmt("sja1105"), NULL, OFL_DSA_RX, b, 3, &m2, &v2), 0);
		ck_assert_mem_eq(&m1, &m2, sizeof(m1));
		ck_assert_ptr_eq(v2.hdr, v2.buf);
		ck_assert_uint_eq(v1.hdr_len, v2.hdr_len);
		ck_assert_uint_eq(v1.rest_off, v2.rest_off);
		ck_assert_uint_eq(v1.rest_len, v2.rest_len);
		/* the untagged frame, read after the call */
		memcpy(u1, v1.hdr, v1.hdr_len);
		memcpy(u1 + v1.hdr_len, f + v1.rest_off, v1.rest_len);
		memcpy(u2, v2.hdr, v2.hdr_len);
		memcpy(u2 + v2.hdr_len, f + v2.rest_off, v2.rest_len);
		ck_assert_mem_eq(u1, u2, v1.hdr_len + v1.rest_len);
		ck_assert_uint_eq(m2.port, i == 0 ? 15 : 7);
	}
}
END_TEST

/* sja1105 link-local frames carry the port in DA byte 3 (0..255).
 * Kernel path: net/dsa/tag_sja1105.c sja1105_rcv() (the link-local branch
 * takes port and switch from DA bytes 3 and 4), then the same lookup,
 * dsa_conduit_find_user() in net/dsa/tag.h, drops a port no switch has. */
START_TEST(sja1105_link_local_port)
{
	uint8_t f[64];
	struct ofl_dsa_meta m;

	make_frame(f, 64);
	f[0] = 0x01, f[1] = 0x80, f[2] = 0xc2, f[3] = 15, f[4] = 0, f[5] = 0x0e;
	ck_assert_int_eq(ofl_dsa_decode(fmt("sja1105"), NULL, OFL_DSA_RX, f, 64, &m, NULL), 0);
	ck_assert_uint_eq(m.port, 15);
	f[3] = 16;
	ck_assert_int_eq(ofl_dsa_decode(fmt("sja1105"), NULL, OFL_DSA_RX, f, 64, &m, NULL),
	                 OFL_EBADMSG);
}
END_TEST

/* mxl862xx TX: the sub-interface is port + 16 - CPU port, 5 bits, so with
 * a CPU port of 15 it can name ports up to 30 of a 16-port switch.  Kernel
 * path: net/dsa/tag_mxl862xx.c mxl862_tag_xmit() writes the sub-interface
 * of a user port (always one of the switch's); a port past the switch's is
 * one dsa_conduit_find_user() (net/dsa/tag.h) would not find. */
START_TEST(mxl862xx_tx_port)
{
	const struct ofl_dsa_ops *o = fmt("mxl862xx");
	struct ofl_dsa_params p;
	struct ofl_dsa_meta m = { .valid = OFL_DSA_M_PORT, .port = 15 };
	uint8_t buf[HEAD + 128], f[128];
	uint32_t off = HEAD, len = 60;

	ofl_dsa_params_default(&p);
	p.cpu_port = 15;
	make_frame(buf + HEAD, 60);
	ck_assert_int_eq(ofl_dsa_encode(o, &p, OFL_DSA_TX, &m, buf, sizeof(buf), &off, &len), 0);
	memcpy(f, buf + off, len);
	ck_assert_uint_eq(f[17], 15 + 16 - 15); /* sub-interface of port 15 */
	ck_assert_int_eq(ofl_dsa_decode(o, &p, OFL_DSA_TX, f, len, &m, NULL), 0);
	ck_assert_uint_eq(m.port, 15);
	f[17] = 31; /* port 31 - 16 + 15 = 30 */
	ck_assert_int_eq(ofl_dsa_decode(o, &p, OFL_DSA_TX, f, len, &m, NULL), OFL_EBADMSG);
	f[17] = 16 + 16 - 15; /* the sub-interface of port 16 */
	ck_assert_int_eq(ofl_dsa_decode(o, &p, OFL_DSA_TX, f, len, &m, NULL), OFL_EBADMSG);
	/* and encode refuses to name it */
	m = (struct ofl_dsa_meta){ .valid = OFL_DSA_M_PORT_MASK, .port_mask = 1u << 16 };
	off = HEAD;
	len = 60;
	make_frame(buf + HEAD, 60);
	ck_assert_int_eq(ofl_dsa_encode(o, &p, OFL_DSA_TX, &m, buf, sizeof(buf), &off, &len),
	                 OFL_ENOTSUP);
}
END_TEST

/* Every format, both directions: tags of valid frames with 1 to 3 bytes of
 * the tag area changed (a fixed pseudo-random sequence) either are refused
 * or name a port the format can have.  Kernel path: every tagger's .rcv in
 * net/dsa/tag_*.c ends in dsa_conduit_find_user() (net/dsa/tag.h; through
 * dsa_tag_8021q_find_user() in net/dsa/tag_8021q.c for the tag_8021q
 * formats), which drops the frame when no user port has that number. */
START_TEST(every_port_in_range)
{
	const struct ofl_dsa_ops *o = ofl_dsa_at((size_t)_i);
	uint32_t rng = 0x9e3779b9u + (uint32_t)_i;

	for (int dir = 0; dir <= 1; dir++) {
		unsigned np = dir == OFL_DSA_TX ? o->tx_ports : o->rx_ports;
		struct ofl_dsa_meta em = { .valid = OFL_DSA_M_PORT | OFL_DSA_M_SWITCH,
		                           .port = 1, .switch_id = 1 };
		uint8_t buf[HEAD + 256], t[256], f[256];
		uint32_t off = HEAD, len = 100;

		if (!np)
			continue;
		make_frame(buf + HEAD, 100);
		if (ofl_dsa_encode(o, NULL, dir, &em, buf, sizeof(buf), &off, &len) != 0)
			continue;
		memcpy(t, buf + off, len);
		for (unsigned k = 0; k < 20000; k++) {
			struct ofl_dsa_meta m;
			unsigned nmut = 1 + k % 3;

			memcpy(f, t, len);
			for (unsigned j = 0; j < nmut; j++) {
				uint32_t at;

				rng = rng * 1664525u + 1013904223u;
				/* the head tag area or the last 32 bytes */
				at = (rng >> 8) % 64u;
				if (rng & 1u)
					at = len - 1 - at % 32u;
				f[at] = (uint8_t)(rng >> 24);
			}
			if (ofl_dsa_decode(o, NULL, dir, f, len, &m, NULL) == 0 &&
			    (m.valid & OFL_DSA_M_PORT))
				ck_assert_msg(m.port < np, "%s %s: port %u of %u", o->name,
				              dir ? "tx" : "rx", m.port, np);
		}
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* edsa                                                                */

/* Kernel path (6.18): net/dsa/tag_dsa.c edsa_rcv() pulls the EDSA
 * EtherType and the two reserved bytes without reading them and hands the
 * 4 DSA bytes after them to dsa_rcv_ll(): any value is taken. */
START_TEST(edsa_rx_any_ethertype)
{
	const struct ofl_dsa_ops *o = fmt("edsa");
	struct ofl_dsa_params strict;
	struct ofl_dsa_meta m;
	struct ofl_dsa_view v;
	uint8_t f[72];

	ofl_dsa_params_default(&strict);
	strict.flags = OFL_DSA_P_EDSA_STRICT;
	make_frame(f, 72);
	memmove(f + 20, f + 12, 52);
	f[12] = 0x12, f[13] = 0x34, f[14] = 0xff, f[15] = 0xee; /* not DA DA 00 00 */
	f[16] = 0xc0, f[17] = 3 << 3, f[18] = 0, f[19] = 0;      /* FORWARD, port 3 */
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, OFL_DSA_RX, f, 72, &m, &v), 0);
	ck_assert_uint_eq(m.port, 3);
	ck_assert_uint_eq(m.aux, 0xffee); /* the reserved bytes, as found */
	ck_assert_uint_eq(v.rest_off, 20);
	/* strict: refused until the bytes are right */
	ck_assert_int_eq(ofl_dsa_decode(o, &strict, OFL_DSA_RX, f, 72, &m, &v), OFL_EBADMSG);
	f[12] = 0xda, f[13] = 0xda;
	ck_assert_int_eq(ofl_dsa_decode(o, &strict, OFL_DSA_RX, f, 72, &m, &v), OFL_EBADMSG);
	f[14] = 0, f[15] = 0;
	ck_assert_int_eq(ofl_dsa_decode(o, &strict, OFL_DSA_RX, f, 72, &m, &v), 0);
	/* TX decode: the kernel's xmit always writes DA DA 00 00 */
	f[16] = 0x40; /* FROM_CPU */
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, OFL_DSA_TX, f, 72, &m, &v), 0);
	f[13] = 0xdb;
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, OFL_DSA_TX, f, 72, &m, &v), OFL_EBADMSG);
}
END_TEST

/* Kernel path: net/dsa/tag_dsa.c edsa_xmit() -> dsa_xmit_ll(), which,
 * given a frame that carries an 802.1Q header
 * (skb->protocol ETH_P_8021Q), writes the FROM_CPU tag over that header
 * with the "tagged" bit set and the TCI's CFI bit moved to bit 0 of byte 1,
 * and for edsa puts DA DA 00 00 before it: the frame grows by 4 bytes, not
 * 8.  (test_dsa_fold_vlan in dsa_vectors_test.c has the same for dsa.) */
START_TEST(edsa_tx_fold_vlan)
{
	const struct ofl_dsa_ops *o = fmt("edsa");
	struct ofl_dsa_meta em = { .valid = OFL_DSA_M_PORT, .port = 2 }, m;
	struct ofl_dsa_view v;
	struct ofl_buf pc[2];
	static const uint8_t q[4] = { 0x81, 0x00, 0x30, 0x64 };          /* PCP 1, CFI, VID 100 */
	static const uint8_t tag[8] = { 0xda, 0xda, 0, 0, 0x60, 0x11, 0x20, 0x64 };
	uint8_t base[64], in[68], buf[HEAD + 80];
	uint32_t off = HEAD, len = 68;

	make_frame(base, 64);
	memcpy(in, base, 12);
	memcpy(in + 12, q, 4);
	memcpy(in + 16, base + 12, 52);
	memcpy(buf + HEAD, in, 68);
	ck_assert_int_eq(ofl_dsa_encode(o, NULL, OFL_DSA_TX, &em, buf, sizeof(buf), &off, &len), 0);
	ck_assert_uint_eq(len, 72);
	ck_assert_int_eq(memcmp(buf + off, in, 12), 0);
	ck_assert_int_eq(memcmp(buf + off + 12, tag, 8), 0);
	ck_assert_int_eq(memcmp(buf + off + 20, base + 12, 52), 0);
	/* and back: the 802.1Q header as it was */
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, OFL_DSA_TX, buf + off, len, &m, &v), 0);
	ck_assert_uint_eq(m.port, 2);
	ck_assert(m.flags & OFL_DSA_MF_TAGGED);
	ck_assert_uint_eq(m.vlan_tci, 0x3064);
	ck_assert_int_eq(ofl_dsa_untagged(buf + off, len, &v, pc), 2);
	ck_assert_uint_eq(pc[0].len + pc[1].len, 68);
	ck_assert_int_eq(memcmp(pc[0].data, in, pc[0].len), 0);
	ck_assert_int_eq(memcmp(pc[1].data, in + pc[0].len, pc[1].len), 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* brcm-legacy                                                         */

/* Kernel path: net/dsa/tag_brcm.c brcm_leg_tag_rcv().  In Linux 6.18 it
 * looks at the two 16-bit words right
 * after the 6-byte legacy tag and removes them along with it only if the
 * first is the 802.1Q TPID and the second, the TCI, is zero (its test,
 * quoted: `proto[0] == htons(ETH_P_8021Q) && proto[1] == 0`): VID 0 is what
 * the BCM63xx internal switch uses for untagged traffic, and any other TCI
 * (a VLAN, or a priority-only tag) stays in the frame.  Older kernels
 * removed the 4 bytes whenever the port was itself a DSA conduit
 * (OFL_DSA_P_BRCM_LEGACY_VLAN keeps that). */
static void legacy_rx(const char *name, const uint8_t vlan[4], const struct ofl_dsa_params *p,
                      uint32_t want_rest_off)
{
	const struct ofl_dsa_ops *o = fmt(name);
	static const uint8_t tag[6] = { 0x88, 0x74, 0x00, 0x00, 0x00, 0x04 };
	uint8_t base[60], f[80];
	struct ofl_dsa_meta m;
	struct ofl_dsa_view v;
	struct ofl_buf pc[2];

	make_frame(base, 60);
	memcpy(f, base, 12);
	memcpy(f + 12, tag, 6);
	memcpy(f + 18, vlan, 4);
	memcpy(f + 22, base + 12, 48);
	ck_assert_int_eq(ofl_dsa_decode(o, p, OFL_DSA_RX, f, 70, &m, &v), 0);
	ck_assert_uint_eq(m.port, 4);
	ck_assert_msg(v.rest_off == want_rest_off, "%s %02x%02x %02x%02x: rest at %u, want %u",
	              name, vlan[0], vlan[1], vlan[2], vlan[3], v.rest_off, want_rest_off);
	ck_assert_int_eq(ofl_dsa_untagged(f, 70, &v, pc), 2);
	if (want_rest_off == 22)
		ck_assert_int_eq(memcmp(pc[1].data, base + 12, 48), 0);
	else
		ck_assert_int_eq(memcmp(pc[1].data, vlan, 4), 0);
}

START_TEST(brcm_legacy_vid0)
{
	static const uint8_t vid0[4] = { 0x81, 0x00, 0x00, 0x00 };
	static const uint8_t vid5[4] = { 0x81, 0x00, 0x00, 0x05 };
	static const uint8_t prio[4] = { 0x81, 0x00, 0xa0, 0x00 }; /* PCP 5, VID 0 */
	static const uint8_t dei[4] = { 0x81, 0x00, 0x10, 0x00 };  /* DEI only */
	static const uint8_t qinq[4] = { 0x88, 0xa8, 0x00, 0x00 };
	struct ofl_dsa_params old;
	const char *names[2] = { "brcm-legacy", "brcm-legacy-fcs" };

	ofl_dsa_params_default(&old);
	old.flags = OFL_DSA_P_BRCM_LEGACY_VLAN;
	for (int i = 0; i < 2; i++) {
		legacy_rx(names[i], vid0, NULL, 22);
		legacy_rx(names[i], vid5, NULL, 18);
		legacy_rx(names[i], prio, NULL, 18);
		legacy_rx(names[i], dei, NULL, 18);
		legacy_rx(names[i], qinq, NULL, 18);
		/* before 6.18: whatever the 4 bytes are */
		legacy_rx(names[i], vid5, &old, 22);
		legacy_rx(names[i], qinq, &old, 22);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* TX padding                                                          */

/* Encode an untagged frame of ulen bytes on TX for port 1 (switch 1 where
 * the format carries one) and return the untagged length decode sees. */
static uint32_t tx_untagged_len(const struct ofl_dsa_ops *o, const struct ofl_dsa_params *p,
                                const uint8_t *da, uint32_t ulen)
{
	struct ofl_dsa_meta em = { .valid = OFL_DSA_M_PORT | OFL_DSA_M_SWITCH, .port = 1,
	                           .switch_id = 1 }, m;
	struct ofl_dsa_view v;
	struct ofl_buf pc[2];
	uint8_t buf[HEAD + 256], ref[256];
	uint32_t off = HEAD, len = ulen, head, tail, k;
	int r;

	memset(buf, 0xEE, sizeof(buf));
	make_frame(buf + HEAD, ulen);
	if (da)
		memcpy(buf + HEAD, da, 6);
	r = ofl_dsa_encode(o, p, OFL_DSA_TX, &em, buf, sizeof(buf), &off, &len);
	ck_assert_msg(r == 0, "%s: encode %d", o->name, r);
	ck_assert_int_eq(ofl_dsa_room(o, p, OFL_DSA_TX, ulen, &head, &tail), 0);
	ck_assert_msg(HEAD + ulen + tail >= off + len, "%s: room() too small", o->name);
	r = ofl_dsa_decode(o, p, OFL_DSA_TX, buf + off, len, &m, &v);
	ck_assert_msg(r == 0, "%s: decode %d", o->name, r);
	ck_assert_int_eq(ofl_dsa_untagged(buf + off, len, &v, pc), 2);
	/* the original bytes, then zeros */
	make_frame(ref, ulen);
	ck_assert_msg(pc[0].len == 12 && memcmp(pc[1].data, ref + 12, ulen - 12) == 0,
	              "%s: untagged bytes", o->name);
	for (k = ulen; k < pc[0].len + pc[1].len; k++)
		ck_assert_msg(pc[1].data[k - pc[0].len] == 0, "%s: pad byte %u", o->name, k);
	return pc[0].len + pc[1].len;
}

static uint32_t max_u32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

/* One run per format: the kernel pads to 60 when the tagger needs tailroom
 * (tail taggers, sja1110), to the tagger's own minimum (brcm 64, legacy
 * 66, rtl4a/a5psw 60), and to 60 for every tagger on a conduit with
 * tailroom; frames already long enough are left alone.  Kernel path:
 * net/dsa/user.c dsa_user_xmit() calls eth_skb_pad() before the tagger's
 * xmit when the user port's needed_tailroom is non-zero, and
 * dsa_user_setup_tagger() (same file) sets it to the tagger's
 * needed_tailroom plus the conduit's (p.conduit_tailroom here); the
 * taggers' own minimums are in their xmit (e.g. net/dsa/tag_brcm.c
 * brcm_tag_xmit_ll(), brcm_leg_tag_xmit()). */
START_TEST(tx_pad_per_format)
{
	const struct ofl_dsa_ops *o = ofl_dsa_at((size_t)_i);
	struct ofl_dsa_params p;
	uint32_t want;

	if (!o->tx_ports && o->place != OFL_DSA_PLACE_NONE)
		return;
	if (o->tx_tail)
		ck_assert_msg(o->tx_min_len >= 60, "%s needs tailroom: pads to 60", o->name);
	ofl_dsa_params_default(&p);
	want = max_u32(18, o->tx_min_len);
	ck_assert_uint_eq(tx_untagged_len(o, NULL, NULL, 18), want);
	ck_assert_uint_eq(tx_untagged_len(o, NULL, NULL, 100), 100);
	p.conduit_tailroom = 4;
	want = max_u32(60, o->tx_min_len);
	ck_assert_uint_eq(tx_untagged_len(o, &p, NULL, 18), want);
	ck_assert_uint_eq(tx_untagged_len(o, &p, NULL, 59), want);
	ck_assert_uint_eq(tx_untagged_len(o, &p, NULL, 100), 100);
}
END_TEST

/* sja1110 link-local frames: the trailer follows the padded frame and the
 * header's trailer position says so.  Kernel path: net/dsa/user.c
 * dsa_user_xmit() pads (sja1110 has tailroom), then net/dsa/tag_sja1105.c
 * sja1110_xmit() takes the trailer position from the padded length. */
START_TEST(tx_pad_sja1110_mgmt)
{
	static const uint8_t ll[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e };

	ck_assert_uint_eq(tx_untagged_len(fmt("sja1110"), NULL, ll, 18), 60);
	ck_assert_uint_eq(tx_untagged_len(fmt("sja1110"), NULL, ll, 80), 80);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("dsa_kernel_rules");
	TCase *tp = tcase_create("ports");
	TCase *tr = tcase_create("rx");
	TCase *tt = tcase_create("tx_pad");
	int n = (int)ofl_dsa_count();

	tcase_add_test(tp, sja1105_meta_port);
	tcase_add_test(tp, sja1105_mgmt_bufs);
	tcase_add_test(tp, sja1105_link_local_port);
	tcase_add_test(tp, mxl862xx_tx_port);
	tcase_add_loop_test(tp, every_port_in_range, 0, n);
	tcase_add_test(tr, edsa_rx_any_ethertype);
	tcase_add_test(tr, edsa_tx_fold_vlan);
	tcase_add_test(tr, brcm_legacy_vid0);
	tcase_add_loop_test(tt, tx_pad_per_format, 0, n);
	tcase_add_test(tt, tx_pad_sja1110_mgmt);
	suite_add_tcase(s, tp);
	suite_add_tcase(s, tr);
	suite_add_tcase(s, tt);
	return s;
}

int main(void)
{
	return h_run_suite(suite());
}
