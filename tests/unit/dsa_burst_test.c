/*
 * dsa_burst_test.c - ofl_dsa_decode_brief_burst() and
 * ofl_dsa_decode_packed_burst() against ofl_dsa_decode_brief(), frame by
 * frame (include/ofl/dsa.h promises that out[i] is what the brief decode
 * of frames[i] writes, or its fields packed in one word, and that a frame
 * it refuses gets a zero brief or word, reserved[] never written).
 *
 * For every format, both directions and two sets of params (the defaults,
 * which select the entries compiled for them, and a set with every option
 * on), a pool of frames: the frame tagged for each port and a few meta
 * variants (priority, Marvell TO_CPU with its codes, a trapped rtl8_4
 * frame), each single-bit flip
 * of its first 32 and last 12 bytes, its truncations, random bytes of
 * random length, and the frames whose brief decode leaves the common path
 * (sja1105 link-local and timestamp meta frames, sja1110 control headers,
 * qca MIB and register-ACK frames).  The pool goes through the burst entry
 * in batches of changing sizes (1 to 67) and through the brief entry one
 * frame at a time; every brief, every refusal and the count returned must
 * agree.  The packed burst's fast paths (a table per tag byte) see every
 * flip of the tag bytes this way, each on the frame of normal traffic.  Each frame is an exact-size heap copy, so a sanitizer sees any
 * over-read.  Under a memory checker (OFL_TEST_CHECKER) the flips cover
 * every 5th byte.
 */
#include <check.h>
#include <limits.h>
#include <ofl/dsa.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define HEAD 64u
#define BUFSZ 256u
#define MAXFRAMES 20000u
#define FILL 0xA5u

/* ck_assert marks its position on every call, which dominates a loop of
 * many cheap checks: test first, report only a failure. */
#define EXPECT(cond, ...)                                                      \
	do {                                                                   \
		if (!(cond))                                                   \
			ck_abort_msg(__VA_ARGS__);                             \
	} while (0)

/* The frames of one format, direction and params set, heap copies. */
struct pool {
	struct ofl_buf f[MAXFRAMES];
	unsigned n;
};

static struct pool pool; /* test-local: each test runs in its own process */

static void pool_add(const uint8_t *src, uint32_t len)
{
	uint8_t *c;

	if (pool.n == MAXFRAMES)
		return;
	c = malloc(len ? len : 1); /* data is never NULL (dsa.h) */
	EXPECT(c != NULL, "malloc");
	if (len)
		memcpy(c, src, len);
	pool.f[pool.n++] = (struct ofl_buf){ c, len };
}

static void pool_free(void)
{
	for (unsigned i = 0; i < pool.n; i++)
		free((void *)pool.f[i].data);
	pool.n = 0;
}

static uint32_t rnd_state;

static uint32_t rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 8;
}

/* A 64-byte untagged frame: locally administered MACs, IPv4 EtherType. */
static uint32_t plain_frame(uint8_t *f)
{
	for (unsigned i = 0; i < 64; i++)
		f[i] = (uint8_t)(0x31 * i + 5);
	f[0] = 0x02;
	f[6] = 0x06;
	f[12] = 0x08;
	f[13] = 0x00;
	return 64;
}

/* The tagged frame of meta m (of an 802.1Q-tagged plain frame, VID 0x123,
 * when vlan), its flips and truncations, into the pool. */
static void add_tagged(const struct ofl_dsa_ops *ops, const struct ofl_dsa_params *p, int dir,
                       const struct ofl_dsa_meta *m, unsigned flip_step, int vlan)
{
	uint8_t buf[BUFSZ];
	uint32_t off = HEAD, len;

	memset(buf, 0, sizeof(buf));
	len = plain_frame(buf + HEAD);
	if (vlan)
		memcpy(buf + HEAD + 12, "\x81\x00\x31\x23", 4);
	if (ofl_dsa_encode(ops, p, dir, m, buf, sizeof(buf), &off, &len) != 0)
		return;
	pool_add(buf + off, len);
	for (uint32_t k = 0; k < len; k += k < 40 ? 1 : 9)
		pool_add(buf + off, k);
	for (uint32_t i = 0; i < len; i += flip_step) {
		if (i >= 32 && i + 12 < len)
			continue;
		for (unsigned bit = 0; bit < 8; bit++) {
			buf[off + i] ^= (uint8_t)(1u << bit);
			pool_add(buf + off, len);
			buf[off + i] ^= (uint8_t)(1u << bit);
		}
	}
}

/* The frames that take the brief entry's out-of-line path. */
static void add_rare(void)
{
	uint8_t f[80];

	/* sja1105 link-local: DA 01:80:c2:PP:SS:0e, and a timestamp meta
	 * frame (DA 01:80:c2:00:00:0e, SA 22:..., EtherType 0x0008) */
	plain_frame(f);
	memcpy(f, "\x01\x80\xc2\x02\x01\x0e", 6);
	pool_add(f, 64);
	f[3] = 16;
	pool_add(f, 64);
	memset(f, 0, sizeof(f));
	memcpy(f, "\x01\x80\xc2\x00\x00\x0e\x22\x22\x22\x22\x22\x22\x00\x08", 14);
	f[20] = 3;
	f[21] = 1;
	pool_add(f, 64);
	pool_add(f, 21);
	/* sja1110 header 0xDADC after SA, host-only and not */
	plain_frame(f);
	memmove(f + 16, f + 12, 52);
	f[12] = 0xda, f[13] = 0xdc, f[14] = 0x00, f[15] = 0x31;
	pool_add(f, 68);
	f[14] = 0x20;
	pool_add(f, 68);
	f[14] = 0x80;
	pool_add(f, 68);
	/* qca: version 2, each type 0-3, port 5 */
	plain_frame(f);
	memmove(f + 14, f + 12, 52);
	for (unsigned type = 0; type < 4; type++) {
		f[12] = (uint8_t)(0x80 | type >> 2);
		f[13] = (uint8_t)((type & 3u) << 6 | 5);
		pool_add(f, 66);
	}
}

/* The brief b (refused: rc1 != 0) as the packed word dsa.h documents. */
static uint64_t packed_of(const struct ofl_dsa_brief *b, int rc1)
{
	if (rc1)
		return 0;
	return (uint64_t)b->cut.rest_off | (uint64_t)b->cut.mac_off << 8 |
	       (uint64_t)b->cut.tail_len << 16 | (uint64_t)b->flags << 32 |
	       (uint64_t)b->cut.ins_len << 42 | (uint64_t)b->cut.mac_patched << 45 |
	       (uint64_t)(b->valid & 1u) << 46 | (uint64_t)(b->valid & 4u) << 45 |
	       (uint64_t)b->switch_id << 48 | (uint64_t)b->port << 56;
}

/* Frame j's brief from the burst entry, o, against b, the brief entry's
 * (rc1 its return). */
static void check_brief(const struct ofl_dsa_decoder *d, unsigned j, struct ofl_dsa_brief *b,
                        int rc1, const struct ofl_dsa_brief *o)
{
	const size_t body = offsetof(struct ofl_dsa_brief, reserved);
	const char *name = d->ops->name;

	if (rc1) {
		memset(b, 0, body); /* all of it, ins[] too */
	} else {
		/* ins[] past ins_len is unspecified */
		memcpy(b->cut.ins + b->cut.ins_len, o->cut.ins + b->cut.ins_len,
		       sizeof(b->cut.ins) - b->cut.ins_len);
	}
	EXPECT(memcmp(b, o, body) == 0, "%s dir %u frame %u (len %u, brief %d): burst brief differs",
	       name, d->dir, j, pool.f[j].len, rc1);
	for (unsigned k = 0; k < sizeof(b->reserved); k++)
		EXPECT(o->reserved[k] == FILL, "%s: reserved written", name);
}

/* Frame j's result from the packed burst, o, against b, the brief entry's
 * (rc1 its return): the word, each field through its macro, ins[] (and
 * nothing written there when there are no rebuilt bytes), reserved[]. */
static void check_packed(const struct ofl_dsa_decoder *d, unsigned j,
                         const struct ofl_dsa_brief *b, int rc1, const struct ofl_dsa_packed *o)
{
	const char *name = d->ops->name;
	uint64_t w = o->word;

	/* each field fits its bits: nothing was cut off */
	EXPECT(rc1 || (b->cut.rest_off < 256 && b->cut.mac_off < 256 && b->flags < 0x400 &&
	               b->cut.ins_len < 8 && b->cut.mac_patched < 2 && !(b->valid & ~5u)),
	       "%s: a brief field does not fit the packed word", name);
	EXPECT(w == packed_of(b, rc1),
	       "%s dir %u frame %u (len %u, brief %d): packed word %016llx, brief's %016llx", name,
	       d->dir, j, pool.f[j].len, rc1, (unsigned long long)w,
	       (unsigned long long)packed_of(b, rc1));
	EXPECT(OFL_DSA_PK_PORT(w) == (rc1 ? 0u : b->port) &&
	       OFL_DSA_PK_SWITCH(w) == (rc1 ? 0u : b->switch_id) &&
	       OFL_DSA_PK_FLAGS(w) == (rc1 ? 0u : b->flags) &&
	       OFL_DSA_PK_VALID(w) == (rc1 ? 0u : b->valid) &&
	       OFL_DSA_PK_REST_OFF(w) == (rc1 ? 0u : b->cut.rest_off) &&
	       OFL_DSA_PK_MAC_OFF(w) == (rc1 ? 0u : b->cut.mac_off) &&
	       OFL_DSA_PK_TAIL_LEN(w) == (rc1 ? 0u : b->cut.tail_len) &&
	       OFL_DSA_PK_INS_LEN(w) == (rc1 ? 0u : b->cut.ins_len) &&
	       OFL_DSA_PK_MAC_PATCHED(w) == (rc1 ? 0u : b->cut.mac_patched),
	       "%s frame %u: an OFL_DSA_PK_* macro reads another field", name, j);
	if (!rc1 && b->cut.ins_len)
		EXPECT(memcmp(o->ins, b->cut.ins, b->cut.ins_len) == 0, "%s frame %u: ins differs",
		       name, j);
	for (unsigned k = 0; k < sizeof(o->ins) && (rc1 || !b->cut.ins_len); k++)
		EXPECT(o->ins[k] == FILL, "%s frame %u: ins written", name, j);
	for (unsigned k = 0; k < sizeof(o->reserved); k++)
		EXPECT(o->reserved[k] == FILL, "%s: reserved written", name);
}

/* The whole pool through a burst entry (the packed one when packed) and
 * the brief entry one frame at a time: they must agree.  Batches of
 * changing sizes: 1, 4, 13, 40, 54, ... (brief); 2, 11, 56, 25, 62, 55,
 * 20, 37, ... (packed: every remainder of the fast entry's steps of 8 and
 * of the body's of 4). */
static void compare(const struct ofl_dsa_decoder *d, int packed)
{
	static struct ofl_dsa_brief outb[MAXFRAMES];
	static struct ofl_dsa_packed outp[MAXFRAMES];
	unsigned i = 0, step = packed ? 2 : 1;

	memset(outb, FILL, sizeof(outb[0]) * pool.n);
	memset(outp, FILL, sizeof(outp[0]) * pool.n);
	while (i < pool.n) {
		unsigned n = pool.n - i < step ? pool.n - i : step, refused = 0;
		int rc = packed ? ofl_dsa_decode_packed_burst(d, pool.f + i, n, outp + i)
		                : ofl_dsa_decode_brief_burst(d, pool.f + i, n, outb + i);

		for (unsigned j = i; j < i + n; j++) {
			struct ofl_dsa_brief b;
			int rc1;

			memset(&b, FILL, sizeof(b));
			rc1 = ofl_dsa_decode_brief(d, pool.f[j].data, pool.f[j].len, &b);
			EXPECT(rc1 == 0 || rc1 == OFL_EBADMSG, "%s dir %u: brief %d", d->ops->name,
			       d->dir, rc1);
			refused += rc1 != 0;
			if (packed)
				check_packed(d, j, &b, rc1, &outp[j]);
			else
				check_brief(d, j, &b, rc1, &outb[j]);
		}
		EXPECT(rc >= 0 && (unsigned)rc == refused, "%s dir %u: burst says %d refused, %u",
		       d->ops->name, d->dir, rc, refused);
		i += n;
		step = packed ? step * 5 % 64 + 1 : step * 3 % 67 + 1;
	}
}

START_TEST(test_burst_agrees)
{
	const struct ofl_dsa_ops *ops = ofl_dsa_at((size_t)_i);
	const struct ofl_dsa_params all = { .flags = OFL_DSA_P_BRCM_LEGACY_VLAN |
	                                             OFL_DSA_P_KSZ_PTP | OFL_DSA_P_EDSA_STRICT,
	                                    .tpid = 0x8100,
	                                    .cpu_port = 1,
	                                    .num_ports = 4,
	                                    .conduit_tailroom = 8 };
	const struct ofl_dsa_params *sets[2] = { NULL, &all };
	unsigned flip_step = getenv("OFL_TEST_CHECKER") ? 5 : 1;

	ck_assert_ptr_nonnull(ops);
	for (int dir = OFL_DSA_RX; dir <= OFL_DSA_TX; dir++) {
		for (unsigned s = 0; s < 2; s++) {
			const struct ofl_dsa_params *p = sets[s];
			unsigned nports = dir == OFL_DSA_RX ? ops->rx_ports : ops->tx_ports;
			struct ofl_dsa_decoder d;
			struct ofl_dsa_meta m;

			ck_assert_int_eq(ofl_dsa_decoder_init(&d, sizeof(d), ops, p, dir), 0);
			rnd_state = (uint32_t)_i * 977u + (uint32_t)dir * 31u + s;
			for (unsigned port = 0; port < (nports ? nports : 1) && port < 12; port++) {
				memset(&m, 0, sizeof(m));
				m.valid = OFL_DSA_M_PORT | OFL_DSA_M_SWITCH;
				m.port = (uint8_t)port;
				m.switch_id = (uint8_t)(port & 1u);
				add_tagged(ops, p, dir, &m, port ? 8 : flip_step, 0);
				m.valid |= OFL_DSA_M_PRIO;
				m.prio = (uint8_t)(port & 7u);
				add_tagged(ops, p, dir, &m, 16, 1);
			}
			/* Marvell TO_CPU with each code, and code 80, the
			 * rtl8_4 reason of a trapped frame (which its fast
			 * path leaves to the body; other formats ignore cmd
			 * and code or refuse them) */
			for (unsigned c = 0; c < 9; c++) {
				unsigned code = c < 8 ? c : 80;

				memset(&m, 0, sizeof(m));
				m.valid = OFL_DSA_M_PORT | OFL_DSA_M_CMD | OFL_DSA_M_CODE;
				m.port = 2;
				m.code = (uint16_t)code;
				add_tagged(ops, p, dir, &m, 64, (int)(code & 1u));
			}
			for (unsigned k = 0; k < 300; k++) {
				uint8_t f[96];
				uint32_t len = rnd() % sizeof(f);

				for (uint32_t b = 0; b < len; b++)
					f[b] = (uint8_t)rnd();
				pool_add(f, len);
			}
			add_rare();
			compare(&d, 0);
			compare(&d, 1);
			pool_free();
		}
	}
}
END_TEST

/* A burst entry (the packed one when packed) refuses what dsa.h says it
 * refuses, writing nothing, and takes an empty batch; out is filled with
 * FILL before. */
static int burst_of(int packed, const struct ofl_dsa_decoder *d, const struct ofl_buf *fr,
                    unsigned n, void *out)
{
	return packed ? ofl_dsa_decode_packed_burst(d, fr, n, out)
	              : ofl_dsa_decode_brief_burst(d, fr, n, out);
}

static void check_args(const struct ofl_dsa_decoder *d, const struct ofl_buf fr[2], void *out,
                       int packed)
{
	const uint8_t *o = out;

	ck_assert_int_eq(burst_of(packed, NULL, fr, 2, out), OFL_EINVAL);
	ck_assert_int_eq(burst_of(packed, d, NULL, 2, out), OFL_EINVAL);
	ck_assert_int_eq(burst_of(packed, d, fr, 2, NULL), OFL_EINVAL);
	ck_assert_int_eq(burst_of(packed, d, fr, (unsigned)INT_MAX + 1u, out), OFL_EINVAL);
	ck_assert_int_eq(burst_of(packed, d, NULL, 0, NULL), 0);
	ck_assert_int_eq(burst_of(packed, d, fr, 0, out), 0);
	for (unsigned k = 0; k < 16; k++)
		ck_assert_uint_eq(o[k], FILL); /* nothing written */
}

START_TEST(test_burst_args)
{
	const struct ofl_dsa_ops *ops = ofl_dsa_find("brcm");
	struct ofl_dsa_decoder d;
	struct ofl_dsa_brief out[2];
	uint8_t f[64];
	struct ofl_buf fr[2] = { { f, sizeof(f) }, { f, 3 } };

	plain_frame(f);
	ck_assert_int_eq(ofl_dsa_decoder_init(&d, sizeof(d), ops, NULL, OFL_DSA_RX), 0);
	memset(out, FILL, sizeof(out));
	check_args(&d, fr, out, 0);
	/* the 3-byte frame is refused: zero brief, counted */
	ck_assert_int_eq(ofl_dsa_decode_brief_burst(&d, fr + 1, 1, out + 1), 1);
	ck_assert_uint_eq(out[1].cut.rest_off, 0);
	ck_assert_uint_eq(out[1].port, 0);
	ck_assert_uint_eq(out[1].reserved[0], FILL);
}
END_TEST

START_TEST(test_packed_args)
{
	uint8_t f[64];
	struct ofl_dsa_packed out[2];
	struct ofl_buf fr[2] = { { f, sizeof(f) }, { f, 3 } };
	struct ofl_dsa_decoder d;

	plain_frame(f);
	f[12] = 0xC0 | 3; /* FORWARD from switch 3, port 5, trunk */
	f[13] = 5 << 3 | 0x04;
	ck_assert_int_eq(ofl_dsa_decoder_init(&d, sizeof(d), ofl_dsa_find("dsa"), NULL, OFL_DSA_RX),
	                 0);
	memset(out, FILL, sizeof(out));
	check_args(&d, fr, out, 1);
	/* the FORWARD frame decodes, the 3-byte one is refused: word 0 */
	ck_assert_int_eq(ofl_dsa_decode_packed_burst(&d, fr, 2, out), 1);
	ck_assert_uint_eq(OFL_DSA_PK_PORT(out[0].word), 5);
	ck_assert_uint_eq(OFL_DSA_PK_SWITCH(out[0].word), 3);
	ck_assert_uint_eq(OFL_DSA_PK_FLAGS(out[0].word), OFL_DSA_MF_TRUNK);
	ck_assert_uint_eq(OFL_DSA_PK_VALID(out[0].word), OFL_DSA_M_PORT | OFL_DSA_M_SWITCH);
	ck_assert_uint_eq(OFL_DSA_PK_REST_OFF(out[0].word), 16);
	ck_assert_uint_eq(OFL_DSA_PK_MAC_OFF(out[0].word), 0);
	ck_assert_uint_eq(OFL_DSA_PK_TAIL_LEN(out[0].word), 0);
	ck_assert_uint_eq(OFL_DSA_PK_INS_LEN(out[0].word), 0);
	ck_assert_uint_eq(out[1].word, 0);
	ck_assert_uint_eq(out[1].reserved[0], FILL);
	/* TAGGED: the 802.1Q header rebuilt into ins (TCI 0x0123, CFI from
	 * b1 bit 0) */
	f[12] = 0xC0 | 0x20 | 3;
	f[13] = 5 << 3 | 0x01;
	f[14] = 0x01;
	f[15] = 0x23;
	ck_assert_int_eq(ofl_dsa_decode_packed_burst(&d, fr, 1, out), 0);
	ck_assert_uint_eq(OFL_DSA_PK_INS_LEN(out[0].word), 4);
	ck_assert_uint_eq(OFL_DSA_PK_FLAGS(out[0].word), OFL_DSA_MF_TAGGED);
	ck_assert_mem_eq(out[0].ins, "\x81\x00\x11\x23", 4);
}
END_TEST

H_MAIN("dsa_burst", 0, 0, { test_burst_agrees, (int)ofl_dsa_count() }, { test_burst_args, 0 },
       { test_packed_args, 0 })
