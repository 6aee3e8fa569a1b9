/* gso_util.c - see gso_util.h. */
#include "gso_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

void gu_udp_init(struct gu_udp *u, int l3)
{
	memset(u, 0, sizeof(*u));
	u->l3 = l3;
	u->sport = 5000;
	u->dport = 6000;
	u->ip_id = 0x1234;
	u->ttl = 64;
	u->payload_len = 1000;
}

uint8_t gu_two_tags(uint16_t *tpid, uint16_t *tci, int nvlan, uint16_t tci0, uint16_t tci1)
{
	tpid[0] = nvlan == 2 ? 0x88a8 : 0x8100;
	tci[0] = tci0;
	tpid[1] = 0x8100;
	tci[1] = tci1;
	return (uint8_t)nvlan;
}

size_t gu_udp_frame(const struct gu_udp *u, uint8_t *buf, size_t cap)
{
	size_t l3, l4, i, ulen = 8u + u->payload_len;
	size_t len = 14u + 4u * u->nvlan + (u->l3 == 4 ? 20u : 40u) + ulen;
	uint32_t sum;
	uint16_t c;
	if (len > cap)
		return 0;
	memset(buf, 0, len);
	memcpy(buf, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01", 12);
	l3 = gen_l2(buf, u->nvlan, u->vlan_tpid, u->vlan_tci, u->l3);
	if (u->l3 == 4) {
		uint8_t *ip = buf + l3;
		ip[0] = 0x45;
		ip[1] = u->tos;
		put16(ip + 2, 20 + ulen > 0xffff ? 0 : (uint16_t)(20 + ulen)); /* 0: cannot say */
		put16(ip + 4, u->ip_id);
		put16(ip + 6, u->df ? 0x4000 : 0);
		ip[8] = u->ttl;
		ip[9] = 17;
		memcpy(ip + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
		put16(ip + 10, (uint16_t)~gen_csum_fold(ip, 20, 0));
		sum = gen_csum_fold(ip + 12, 8, 0) + 17 + (uint32_t)ulen;
		l4 = l3 + 20;
	} else {
		uint8_t *ip = buf + l3;
		ip[0] = 0x60;
		put16(ip + 4, ulen > 0xffff ? 0 : (uint16_t)ulen);
		ip[6] = 17;
		ip[7] = u->ttl;
		ip[8] = ip[24] = 0xfd;
		ip[23] = 1;
		ip[39] = 2;
		sum = gen_csum_fold(ip + 8, 32, 0) + 17 + (uint32_t)ulen;
		l4 = l3 + 40;
	}
	put16(buf + l4, u->sport);
	put16(buf + l4 + 2, u->dport);
	put16(buf + l4 + 4, ulen > 0xffff ? 0 : (uint16_t)ulen);
	for (i = 0; i < u->payload_len; i++)
		buf[l4 + 8 + i] = gen_payload_byte(u->salt, (uint32_t)i);
	c = (uint16_t)~gen_csum_fold(buf + l4, ulen, sum);
	put16(buf + l4 + 6, c ? c : 0xffff);
	return len;
}

bool gu_parse(const uint8_t *f, size_t len, struct gu_info *gi)
{
	size_t end;
	memset(gi, 0, sizeof(*gi));
	if (!ipwalk(f, len, &gi->ip))
		return false;
	end = gi->ip.end;
	gi->l4_len = end - gi->ip.l4_off;
	gi->payload_off = gi->ip.l4_off;
	if (gi->ip.frag && gi->ip.frag_off)
		return true;
	if (gi->ip.proto == 6) {
		if (gi->ip.l4_off + 20 > end)
			return false;
		gi->payload_off = gi->ip.l4_off + (f[gi->ip.l4_off + 12] >> 4) * 4u;
	} else if (gi->ip.proto == 17) {
		if (gi->ip.l4_off + 8 > end)
			return false;
		gi->payload_off = gi->ip.l4_off + 8;
	}
	return gi->payload_off <= end;
}

bool gu_csums_ok(const uint8_t *f, size_t len)
{
	struct gu_info gi;
	uint32_t sum;
	const uint8_t *ip;
	if (!gu_parse(f, len, &gi))
		return false;
	ip = f + gi.ip.l3_off;
	if (gi.ip.l3 == 4 && gen_csum_fold(ip, (ip[0] & 0xfu) * 4u, 0) != 0xffff)
		return false;
	if (gi.ip.frag)
		return true; /* the L4 checksum covers the whole datagram */
	if (gi.ip.proto != 6 && gi.ip.proto != 17)
		return false;
	if (gi.ip.l3 == 4)
		sum = gen_csum_fold(ip + 12, 8, 0);
	else
		sum = gen_csum_fold(ip + 8, 32, 0);
	sum += gi.ip.proto + (uint32_t)(gi.l4_len & 0xffff) + (uint32_t)(gi.l4_len >> 16);
	if (gi.ip.proto == 17 && get16(f + gi.ip.l4_off + 6) == 0)
		return false; /* we always write one */
	return gen_csum_fold(f + gi.ip.l4_off, gi.l4_len, sum) == 0xffff;
}

void gu_complete_csum(uint8_t *f, size_t len, unsigned start, unsigned offset)
{
	uint16_t c = (uint16_t)~gen_csum_fold(f + start, len - start, 0);
	if (c == 0 && offset == 6)
		c = 0xffff;
	put16(f + start + offset, c);
}

size_t gu_linearize(const struct ofl_gso_seg *s, uint8_t *buf, size_t cap)
{
	int n = ofl_gso_seg_linearize(s, buf, cap);
	return n < 0 ? 0 : (size_t)n;
}

int gu_collect(struct ofl_gso_iter *it, struct gu_segs *out, uint32_t nslots, uint32_t slot_size)
{
	struct ofl_gso_pool pool;
	uint8_t *block = malloc((size_t)nslots * slot_size);
	struct ofl_gso_seg seg;
	int rc;
	memset(out, 0, sizeof(*out));
	if (!block)
		return OFL_ENOMEM;
	rc = ofl_gso_pool_init_block(&pool, block, (size_t)nslots * slot_size, slot_size);
	while (rc == 0 && (rc = ofl_gso_next(it, &pool, &seg)) == 1) {
		unsigned k = out->n;
		rc = 0;
		if (k >= GU_MAX_SEGS) {
			rc = OFL_E2BIG;
			break;
		}
		out->frame[k] = malloc(seg.len);
		out->len[k] = (uint32_t)gu_linearize(&seg, out->frame[k], seg.len);
		out->seg[k] = seg;
		out->n++;
		ofl_gso_pool_put(&pool, &seg.hdr);
	}
	free(block);
	return rc;
}

void gu_segs_free(struct gu_segs *s)
{
	unsigned i;
	for (i = 0; i < s->n; i++)
		free(s->frame[i]);
	s->n = 0;
}

void gu_segs_drop(struct gu_segs *s)
{
	gu_segs_free(s);
	free(s);
}

bool gu_pcap_read(const char *path, struct gu_pcap *p)
{
	struct replay_capture c;
	char err[REPLAY_ERRLEN];
	size_t i;
	memset(p, 0, sizeof(*p));
	if (replay_capture_read_lax(&c, path, err, sizeof(err)) < 0)
		return false;
	p->linktype = c.linktype;
	p->frame = calloc(c.nframes ? c.nframes : 1, sizeof(*p->frame));
	p->len = calloc(c.nframes ? c.nframes : 1, sizeof(*p->len));
	if (!p->frame || !p->len) {
		replay_capture_free(&c);
		gu_pcap_free(p);
		return false;
	}
	for (i = 0; i < c.nframes; i++) {
		const struct replay_frame *fr = &c.frames[i];
		p->frame[p->n] = malloc(fr->caplen ? fr->caplen : 1);
		memcpy(p->frame[p->n], fr->data, fr->caplen);
		p->len[p->n] = fr->caplen;
		p->n++;
	}
	replay_capture_free(&c);
	return true;
}

void gu_pcap_free(struct gu_pcap *p)
{
	unsigned i;
	for (i = 0; i < p->n; i++)
		free(p->frame[i]);
	free(p->frame);
	free(p->len);
	memset(p, 0, sizeof(*p));
}

bool gu_pcap_write(const char *path, uint8_t *const *frames, const uint32_t *lens, unsigned n)
{
	struct replay_outfile w;
	unsigned i;
	if (replay_outfile_open(&w, path, REPLAY_LINKTYPE_ETHERNET, 262144, 0) < 0)
		return false;
	for (i = 0; i < n; i++)
		if (replay_outfile_write(&w, (uint64_t)(i + 1) * 1000000u, frames[i], lens[i], lens[i]) < 0)
			break;
	return replay_outfile_close(&w) == 0;
}


void gu_bigtcp(uint8_t *f, size_t l3_off)
{
	uint8_t *ip = f + l3_off;
	if ((ip[0] >> 4) == 4) {
		uint16_t c;
		ip[2] = ip[3] = 0;
		ip[10] = ip[11] = 0;
		c = (uint16_t)~gen_csum_fold(ip, (ip[0] & 0xfu) * 4u, 0);
		put16(ip + 10, c);
	} else {
		ip[4] = ip[5] = 0;
	}
}
