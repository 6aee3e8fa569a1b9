/* gen.c - synthetic frames for tests and benchmarks (see gen.h). */
#include "gen.h"
#include "ipwalk.h"

#include <string.h>

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

uint16_t gen_csum_fold(const uint8_t *p, size_t n, uint32_t init)
{
	uint64_t s = init;
	size_t i;
	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

size_t gen_pseudo_hdr(uint8_t ph[40], const uint8_t *ip, int l3, uint32_t len, uint8_t proto)
{
	memset(ph, 0, 40);
	if (l3 == 4) {
		memcpy(ph, ip + 12, 8);
		ph[9] = proto;
		put16(ph + 10, (uint16_t)len);
		return 12;
	}
	memcpy(ph, ip + 8, 32);
	put32(ph + 32, len);
	ph[39] = proto;
	return 40;
}

void gen_tcp_init(struct gen_tcp *g, int l3)
{
	static const uint8_t dmac[6] = {0x02, 0, 0, 0, 0, 2}, smac[6] = {0x02, 0, 0, 0, 0, 1};
	memset(g, 0, sizeof(*g));
	g->l3 = l3;
	memcpy(g->dst_mac, dmac, 6);
	memcpy(g->src_mac, smac, 6);
	if (l3 == 4) {
		const uint8_t s[4] = {10, 0, 0, 1}, d[4] = {10, 0, 0, 2};
		memcpy(g->saddr, s, 4);
		memcpy(g->daddr, d, 4);
	} else {
		g->saddr[0] = g->daddr[0] = 0xfd;
		g->saddr[15] = 1;
		g->daddr[15] = 2;
	}
	g->sport = 1500;
	g->dport = 8000;
	g->seq = 100;
	g->ack = 100;
	g->flags = GEN_ACK;
	g->window = 65535;
	g->ttl = 64;
	g->df = true;
	g->payload_len = 100;
}

void gen_opt_ts(struct gen_tcp *g, uint32_t tsval, uint32_t tsecr)
{
	uint8_t *o = g->opts + g->optlen;
	o[0] = 1;
	o[1] = 1;
	o[2] = 8;
	o[3] = 10;
	put32(o + 4, tsval);
	put32(o + 8, tsecr);
	g->optlen = (uint8_t)(g->optlen + 12);
}

static size_t l3_hlen(const struct gen_tcp *g)
{
	return g->l3 == 4 ? 20u + g->ip_optlen : 40u + g->extlen;
}

size_t gen_l2(uint8_t *buf, unsigned nvlan, const uint16_t *tpid, const uint16_t *tci, int l3)
{
	size_t off = 12;
	unsigned k;
	for (k = 0; k < nvlan; k++, off += 4) {
		put16(buf + off, tpid[k] ? tpid[k] : 0x8100);
		put16(buf + off + 2, tci[k]);
	}
	put16(buf + off, l3 == 4 ? 0x0800 : 0x86dd);
	return off + 2;
}

size_t gen_tcp_len(const struct gen_tcp *g)
{
	size_t n = 14u + 4u * g->nvlan + l3_hlen(g) + (g->udp ? 8u : 20u + g->optlen) + g->payload_len;
	return n < g->pad_to ? g->pad_to : n;
}

size_t gen_tcp_frame(const struct gen_tcp *g, uint8_t *buf, size_t cap)
{
	size_t len = gen_tcp_len(g), l3, l4, i;
	size_t thl = g->udp ? 8u : 20u + g->optlen, l4len = thl + g->payload_len;
	uint8_t proto = g->udp ? 17 : 6;
	uint32_t sum;
	if (len > cap)
		return 0;
	memset(buf, 0, len);
	memcpy(buf, g->dst_mac, 6);
	memcpy(buf + 6, g->src_mac, 6);
	l3 = gen_l2(buf, g->nvlan, g->vlan_tpid, g->vlan_tci, g->l3);
	l4 = l3 + l3_hlen(g);
	if (g->l3 == 4) {
		uint8_t *ip = buf + l3;
		ip[0] = (uint8_t)(0x40 | ((20u + g->ip_optlen) / 4));
		ip[1] = g->tos;
		put16(ip + 2, (uint16_t)(20u + g->ip_optlen + l4len + g->ip_len_delta));
		put16(ip + 4, g->ip_id);
		put16(ip + 6, (uint16_t)((g->df ? 0x4000 : 0) | g->frag));
		ip[8] = g->ttl;
		ip[9] = proto;
		memcpy(ip + 12, g->saddr, 4);
		memcpy(ip + 16, g->daddr, 4);
		memcpy(ip + 20, g->ip_opts, g->ip_optlen);
		put16(ip + 10, (uint16_t)~gen_csum_fold(ip, 20u + g->ip_optlen, 0));
		if (g->bad_ip_csum)
			ip[10] ^= 0x5a;
		sum = gen_csum_fold(ip + 12, 8, 0) + proto + (uint32_t)l4len;
	} else {
		uint8_t *ip = buf + l3;
		put32(ip, 0x60000000u | (uint32_t)g->tos << 20 | (g->flowlabel & 0xfffff));
		put16(ip + 4, (uint16_t)(g->extlen + l4len + g->ip_len_delta));
		ip[6] = g->extlen ? g->ext_nh : proto;
		ip[7] = g->ttl;
		memcpy(ip + 8, g->saddr, 16);
		memcpy(ip + 24, g->daddr, 16);
		memcpy(ip + 40, g->ext, g->extlen);
		sum = gen_csum_fold(ip + 8, 32, 0) + proto + (uint32_t)l4len;
	}
	if (g->udp) {
		uint8_t *uh = buf + l4;
		uint16_t c;
		put16(uh, g->sport);
		put16(uh + 2, g->dport);
		put16(uh + 4, (uint16_t)((int32_t)l4len + g->udp_len_delta));
		for (i = 0; i < g->payload_len; i++)
			uh[8 + i] = gen_payload_byte(g->flow_salt, g->seq + (uint32_t)i);
		/* the sum with the length field as sent (a spoilt one too) */
		c = (uint16_t)~gen_csum_fold(uh, l4len, sum);
		put16(uh + 6, g->udp_zero_csum ? 0 : c ? c : 0xffff);
		if (g->bad_tcp_csum)
			uh[6] ^= 0x33;
		return len;
	}
	{
		uint8_t *th = buf + l4;
		put16(th, g->sport);
		put16(th + 2, g->dport);
		put32(th + 4, g->seq);
		put32(th + 8, g->ack);
		th[12] = (uint8_t)((thl / 4) << 4 | (g->res & 0xf));
		th[13] = g->flags;
		put16(th + 14, g->window);
		memcpy(th + 20, g->opts, g->optlen);
		for (i = 0; i < g->payload_len; i++)
			th[thl + i] = gen_payload_byte(g->flow_salt, g->seq + (uint32_t)i);
		put16(th + 16, (uint16_t)~gen_csum_fold(th, l4len, sum));
		if (g->bad_tcp_csum)
			th[16] ^= 0x33;
	}
	return len;
}

bool gen_frame_csums_ok(const uint8_t *f, size_t len)
{
	struct ipwalk w;
	size_t off, l4len;
	uint32_t sum;
	if (!ipwalk(f, len, &w))
		return false;
	off = w.l3_off;
	l4len = w.end - w.l4_off;
	if (w.l3 == 4) {
		if (l4len < (w.proto == 17 ? 8u : 20u))
			return false;
		if (gen_csum_fold(f + off, w.l4_off - off, 0) != 0xffff)
			return false;
		if (w.proto == 17 && get16(f + w.l4_off + 6) == 0)
			return true; /* UDP without a checksum */
		sum = gen_csum_fold(f + off + 12, 8, 0);
	} else {
		if (w.frag)
			return false;
		sum = gen_csum_fold(f + off + 8, 32, 0);
	}
	if (w.proto != 6 && w.proto != 17)
		return false;
	return gen_csum_fold(f + w.l4_off, l4len, sum + w.proto + (uint32_t)l4len) == 0xffff;
}

size_t gen_bulk(int l3, unsigned nflows, unsigned nseg, uint32_t mss, uint8_t *frames,
                size_t stride, uint32_t *lens)
{
	return gen_bulk_proto(l3, false, nflows, nseg, mss, frames, stride, lens);
}

size_t gen_bulk_proto(int l3, bool udp, unsigned nflows, unsigned nseg, uint32_t mss,
                      uint8_t *frames, size_t stride, uint32_t *lens)
{
	struct gen_tcp g;
	size_t n = 0;
	unsigned s, f;
	gen_tcp_init(&g, l3);
	g.udp = udp;
	g.payload_len = mss;
	for (s = 0; s < nseg; s++) {
		for (f = 0; f < nflows; f++) {
			g.sport = (uint16_t)(1000 + f);
			g.saddr[l3 == 4 ? 2 : 13] = (uint8_t)(f >> 16);
			g.saddr[l3 == 4 ? 1 : 12] = (uint8_t)(f >> 24);
			g.flow_salt = f;
			g.seq = 1000 + s * mss;
			g.ip_id = (uint16_t)(s + f);
			lens[n] = (uint32_t)gen_tcp_frame(&g, frames + n * stride, stride);
			n++;
		}
	}
	return n;
}
