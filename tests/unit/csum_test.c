/* csum_test.c - the checksum routine against an independent byte-wise
 * reference, every length, alignment and odd-offset chain; the IPv4 header
 * test of the plain parse (core/csum_int.h ofl_ip4_sum_ok()) against it. */
#include <check.h>
#include <ofl/csum.h>
#include <stdlib.h>
#include <string.h>

#include "core/csum_int.h"
#include "gen.h"
#include "gro/gro_int.h"
#include "gro/ipv4.h"
#include "harness.h"

static uint8_t buf[9100];

static void fill(unsigned seed)
{
	unsigned i;
	for (i = 0; i < sizeof(buf); i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (uint8_t)(seed >> 16);
	}
}

/* our result as the big-endian folded sum the reference gives */
static uint16_t ours(const uint8_t *p, size_t n)
{
	uint16_t c = (uint16_t)~ofl_csum_fold(ofl_csum_partial(p, n, 0));
	uint8_t b[2];
	memcpy(b, &c, 2);
	return (uint16_t)(b[0] << 8 | b[1]);
}

START_TEST(lengths_and_alignments)
{
	size_t n, a;
	fill(1);
	for (a = 0; a < 8; a++)
		for (n = 0; n < 300; n++) {
			uint16_t r = gen_csum_fold(buf + a, n, 0);
			uint16_t o = ours(buf + a, n);
			/* 0x0000 and 0xffff are both ones'-complement zero */
			if (!((r == 0xffff && o == 0) || (r == 0 && o == 0xffff)))
				ck_assert_uint_eq(r, o);
		}
	for (n = 1400; n < 9001; n += 797)
		ck_assert_uint_eq(gen_csum_fold(buf + 3, n, 0), ours(buf + 3, n));
}
END_TEST

START_TEST(all_ones)
{
	memset(buf, 0xff, sizeof(buf));
	ck_assert_uint_eq(ours(buf, 9000), gen_csum_fold(buf, 9000, 0));
	memset(buf, 0, sizeof(buf));
	ck_assert_uint_eq(ours(buf, 9000), 0);
}
END_TEST

START_TEST(chain_at_odd_offsets)
{
	/* Sum of a buffer cut into pieces of every size equals the whole. */
	size_t cut1, cut2, n = 257;
	fill(7);
	for (cut1 = 0; cut1 <= 20; cut1++)
		for (cut2 = cut1; cut2 <= 40; cut2 += 3) {
			uint32_t s = 0;
			s = ofl_csum_add_at(s, ofl_csum_partial(buf, cut1, 0), 0);
			s = ofl_csum_add_at(s, ofl_csum_partial(buf + cut1, cut2 - cut1, 0), (int)(cut1 & 1));
			s = ofl_csum_add_at(s, ofl_csum_partial(buf + cut2, n - cut2, 0), (int)(cut2 & 1));
			ck_assert_uint_eq(ofl_csum_fold(s), ofl_csum_fold(ofl_csum_partial(buf, n, 0)));
		}
}
END_TEST

START_TEST(ipv4_header_example)
{
	/* RFC 1071-style known header: checksum 0xb861 */
	static const uint8_t ip[20] = {0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
	                               0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7};
	uint16_t c = ofl_csum_fold(ofl_csum_partial(ip, 20, 0));
	uint8_t b[2];
	memcpy(b, &c, 2);
	ck_assert_uint_eq(b[0], 0xb8);
	ck_assert_uint_eq(b[1], 0x61);
}
END_TEST

/* ofl_ip4_sum_ok() against the reference on 20-byte headers (first byte
 * 0x45), right and with one byte changed, their bytes from small to all
 * 0xff: the plain sum of the words, which the test divides by 0xffff with
 * a multiply, from near 0 to its largest. */
START_TEST(ipv4_sum_ok_range)
{
	uint8_t ip[20];
	unsigned seed = 5, t, i;
	for (t = 0; t < 200000; t++) {
		uint8_t hi = (uint8_t)(t % 9 == 0 ? 0xff : t % 3 == 0 ? 0xf0 : t % 3 == 1 ? 0x80 : 0);
		uint16_t c;
		for (i = 0; i < 20; i++) {
			seed = seed * 1103515245u + 12345u;
			ip[i] = (uint8_t)(seed >> 16) | hi;
		}
		ip[0] = 0x45;
		ip[10] = ip[11] = 0;
		c = (uint16_t)~gen_csum_fold(ip, 20, 0);
		ip[10] = (uint8_t)(c >> 8);
		ip[11] = (uint8_t)c;
		ck_assert_msg(ofl_ip4_sum_ok(ip), "right header %u refused", t);
		/* one byte changed (not the first): wrong unless the sum is the same */
		i = 1 + (seed >> 8) % 19;
		ip[i] = (uint8_t)(ip[i] + 1u + (seed >> 4) % 255u);
		ck_assert_int_eq(ofl_ip4_sum_ok(ip), gen_csum_fold(ip, 20, 0) == 0xffff);
	}
}
END_TEST

/* A merged packet's IPv4 header: the checksum updated for the new length
 * (ipv4.h gro_ipv4_complete_len(), the plain completion) against the one
 * summed again (gro_ipv4_complete_hdr()), for right headers: random ones,
 * old lengths near the ends, new lengths past 65535 (written 0), and the
 * headers whose checksum is 0, also sent as 0xffff (the update's sum of
 * old checksum, old length and new length is then 0 when both are 0xffff
 * and the new length is written 0). */
START_TEST(ipv4_len_update)
{
	static const uint32_t lens[] = {20, 40, 1500, 0xfffe, 0xffff, 0x10000, 0x1ffff, 9000};
	uint8_t ip[20], a[20], b[20];
	unsigned seed = 11, t, i;
	for (t = 0; t < 100000; t++) {
		uint16_t c;
		uint32_t l3_len;
		for (i = 0; i < 20; i++) {
			seed = seed * 1103515245u + 12345u;
			ip[i] = (uint8_t)(seed >> 16);
		}
		ip[0] = 0x45;
		if (t % 4 == 0)
			ip[2] = ip[3] = 0xff;
		else if (t % 4 == 1)
			ip[2] = 0, ip[3] = 20;
		ip[10] = ip[11] = 0;
		if (t % 3 == 0) {
			/* the ID chosen so that the checksum is 0 */
			ip[4] = ip[5] = 0;
			c = (uint16_t)~gen_csum_fold(ip, 20, 0);
			ip[4] = (uint8_t)(c >> 8);
			ip[5] = (uint8_t)c;
		}
		c = (uint16_t)~gen_csum_fold(ip, 20, 0);
		if (c == 0 && (t >> 4) % 2)
			c = 0xffff; /* the same sum, the other zero */
		ip[10] = (uint8_t)(c >> 8);
		ip[11] = (uint8_t)c;
		ck_assert(ofl_ip4_sum_ok(ip));
		l3_len = t % 5 < 3 ? lens[(seed >> 8) % 8] : (seed >> 4) % 0x20000u;
		memcpy(a, ip, 20);
		memcpy(b, ip, 20);
		gro_ipv4_complete_len(a, l3_len);
		gro_ipv4_complete_hdr(b, l3_len, 5);
		ck_assert_msg(memcmp(a, b, 20) == 0, "header %u, length %u: %02x%02x, summed %02x%02x", t,
		              (unsigned)l3_len, a[10], a[11], b[10], b[11]);
	}
}
END_TEST

/* gro_pseudo_sum_at() (the completions' TCP and UDP seed) against the
 * pseudo-header summed as bytes: IPv4 and IPv6, TCP and UDP, any offset,
 * addresses all ones or zero, lengths over 16 bits (IPv6's 32-bit length),
 * sums that fold to 0xffff. */
START_TEST(pseudo_sum)
{
	uint8_t hdr[80], ph[40];
	unsigned seed = 7, t, i;
	for (t = 0; t < 200000; t++) {
		unsigned l3 = t & 1 ? 6u : 4u, proto = t & 2 ? 17u : 6u, off = (t >> 2) % 14, n;
		uint8_t *ip = hdr + off;
		uint32_t len;
		uint16_t c, want;
		for (i = 0; i < sizeof hdr; i++) {
			seed = seed * 1103515245u + 12345u;
			hdr[i] = (uint8_t)(t % 7 == 3 ? 0xff : t % 7 == 5 ? 0 : seed >> 16);
		}
		seed = seed * 1103515245u + 12345u;
		len = t % 3 == 0 ? (seed >> 8) & 0xffff : l3 == 6 && t % 3 == 1 ? seed : (seed >> 4) % 9100u;
		if (t % 11 == 0)
			len = l3 == 4 ? 0xffffu : 0xffffffffu;
		if (l3 == 6 && t % 7 == 3) {
			/* all ones but the last address word, chosen (as a
			 * little-endian host adds it) to bring the sum's low 32
			 * bits within 7 of 2^32: the end-around carry of a
			 * 64-bit sum folded to 32 bits */
			uint32_t w = 6u - (uint32_t)(((uint64_t)len + proto) << 8) - (t >> 3) % 7u;
			memcpy(ip + 36, &w, 4);
		}
		n = gen_pseudo_hdr(ph, ip, l3, len, (uint8_t)proto);
		want = gen_csum_fold(ph, n, 0);
		c = (uint16_t)~ofl_csum_fold_inl(gro_pseudo_sum_at(hdr, l3, off, len, proto));
		memcpy(ph, &c, 2);
		ck_assert_msg((unsigned)(ph[0] << 8 | ph[1]) == want, "case %u, IPv%u, length %u: %02x%02x, want %04x", t,
		              l3, (unsigned)len, ph[0], ph[1], want);
	}
}
END_TEST

int main(void)
{
	const TTest *tests[] = {lengths_and_alignments, all_ones, chain_at_odd_offsets, ipv4_header_example,
	                        ipv4_sum_ok_range, ipv4_len_update, pseudo_sum};
	return h_run_tests("csum", tests, sizeof tests / sizeof tests[0]);
}
