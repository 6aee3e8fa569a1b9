/* frame_check.c - see frame_check.h */
#include "frame_check.h"

#include <string.h>

#include "gen.h" /* gen_csum_fold(): the test support's own RFC 1071 sum */

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Append n bytes to the key at *k (stops at the key's end). */
static void key_add(struct fc_tcp *t, uint32_t *k, const uint8_t *p, uint32_t n)
{
	if (n > FC_KEY_LEN - *k)
		n = FC_KEY_LEN - *k;
	memcpy(t->key + *k, p, n);
	*k += n;
}

int fc_parse_tcp(const uint8_t *f, uint32_t len, struct fc_tcp *t)
{
	uint32_t off = 12, k = 0, iplen, thl;
	uint8_t proto;

	memset(t, 0, sizeof *t);
	t->csum_checkable = 1;
	while (off + 4 <= len && (be16(f + off) == 0x8100 || be16(f + off) == 0x88a8))
		off += 4;
	if (off + 2 > len)
		return 0;
	/* MAC addresses and tags, at most 36 bytes of them, then L3/L4 identity */
	key_add(t, &k, f, off < 36 ? off : 36);
	k = 36;
	t->l3_off = off + 2;
	if (be16(f + off) == 0x0800) {
		const uint8_t *ip = f + t->l3_off;
		uint32_t ihl;
		if (t->l3_off + 20 > len || (ip[0] >> 4) != 4)
			return 0;
		ihl = (ip[0] & 0xfu) * 4u;
		iplen = be16(ip + 2);
		t->ip_sane = iplen != 0;
		if (iplen == 0)
			iplen = len - t->l3_off;
		if (ihl < 20 || iplen < ihl || t->l3_off + iplen > len)
			return 0;
		t->ip_sane = t->ip_sane && gen_csum_fold(ip, ihl, 0) == 0xffff;
		if (be16(ip + 6) & 0x3fffu) /* MF or an offset */
			return 0;
		proto = ip[9];
		key_add(t, &k, ip + 12, 8);
		t->l4_off = t->l3_off + ihl;
		t->ip_end = t->l3_off + iplen;
	} else if (be16(f + off) == 0x86dd) {
		const uint8_t *ip = f + t->l3_off;
		if (t->l3_off + 40 > len || (ip[0] >> 4) != 6)
			return 0;
		t->ipv6 = 1;
		iplen = be16(ip + 4);
		t->ip_sane = iplen != 0;
		if (iplen == 0)
			iplen = len - t->l3_off - 40;
		if (t->l3_off + 40 + iplen > len)
			return 0;
		proto = ip[6];
		key_add(t, &k, ip + 8, 32);
		/* the flow label is part of a flow's identity for GRO (Linux: a
		 * different label is another flow, not a flush) */
		uint8_t label[3] = { (uint8_t)(ip[1] & 0x0fu), ip[2], ip[3] };
		key_add(t, &k, label, 3);
		t->l4_off = t->l3_off + 40;
		t->ip_end = t->l3_off + 40 + iplen;
		while (proto == 0 || proto == 43 || proto == 60) {
			uint32_t el;
			if (t->l4_off + 8 > t->ip_end)
				return 0;
			el = (f[t->l4_off + 1] + 1u) * 8u;
			if (el > t->ip_end - t->l4_off)
				return 0;
			if (proto == 43)
				t->csum_checkable = 0;
			proto = f[t->l4_off];
			t->l4_off += el;
		}
	} else {
		return 0;
	}
	if (proto != 6 || t->l4_off + 20 > t->ip_end)
		return 0;
	thl = (f[t->l4_off + 12] >> 4) * 4u;
	if (thl < 20 || thl > t->ip_end - t->l4_off)
		return 0;
	key_add(t, &k, f + t->l4_off, 4);
	t->seq = be32(f + t->l4_off + 4);
	t->flags = f[t->l4_off + 13];
	t->payload_off = t->l4_off + thl;
	t->payload_len = t->ip_end - t->payload_off;
	return 1;
}

/* Sum of the TCP pseudo-header. */
static uint32_t pseudo_sum(const uint8_t *f, const struct fc_tcp *t)
{
	uint32_t tcplen = t->ip_end - t->l4_off;
	uint32_t sum = t->ipv6 ? gen_csum_fold(f + t->l3_off + 8, 32, 0)
	                       : gen_csum_fold(f + t->l3_off + 12, 8, 0);

	return sum + 6u + (tcplen >> 16) + (tcplen & 0xffffu);
}

int fc_csums_ok(const uint8_t *f, const struct fc_tcp *t)
{
	if (!t->ipv6 && gen_csum_fold(f + t->l3_off, (f[t->l3_off] & 0xfu) * 4u, 0) != 0xffff)
		return 0;
	return gen_csum_fold(f + t->l4_off, t->ip_end - t->l4_off, pseudo_sum(f, t)) == 0xffff;
}

static void put_csum(uint8_t *p, uint16_t folded)
{
	uint16_t c = (uint16_t)~folded;
	p[0] = (uint8_t)(c >> 8);
	p[1] = (uint8_t)c;
}

void fc_fix_csums(uint8_t *f, const struct fc_tcp *t)
{
	if (!t->ipv6) {
		uint8_t *ip = f + t->l3_off;
		ip[10] = ip[11] = 0;
		put_csum(ip + 10, gen_csum_fold(ip, (ip[0] & 0xfu) * 4u, 0));
	}
	f[t->l4_off + 16] = f[t->l4_off + 17] = 0;
	put_csum(f + t->l4_off + 16, gen_csum_fold(f + t->l4_off, t->ip_end - t->l4_off, pseudo_sum(f, t)));
}
