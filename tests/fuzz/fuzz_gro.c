/*
 * fuzz_gro.c - libFuzzer target for the GRO engine (ofl_gro_*).
 *
 * The input is a configuration followed by a program of operations:
 * receive a raw frame (optionally with its IPv4/TCP checksums fixed up so
 * it can merge), receive a generated TCP segment (or UDP datagram: UDP GRO
 * is on when configuration bit 0x40 of byte 8 says so) of one of four flows
 * (in order, retransmitted, out of order, with flags, options, VLAN tags),
 * end a poll, flush, flush old entries, step the clock, misuse the API, and
 * re-enter the context from the deliver callback.  Every frame is split
 * over buffers at fuzzed points, each buffer its own heap block, so a read
 * one byte past any buffer is an AddressSanitizer report.
 *
 * Checked while it runs (abort on failure):
 *   - every cookie is delivered exactly once, each delivery list has
 *     1..normal_batch+1 packets, and per flow the cookies come back in the
 *     order they went in;
 *   - a NORMAL packet's slices are its own buffers, byte for byte;
 *   - a GRO packet's slices point inside the buffers of the segments whose
 *     cookies it carries, len = hdr_len + sum of slices, the linearized
 *     frame parses (independent parser), its checksums are valid when
 *     segments were merged, and cut at seg_size it gives back each
 *     segment's payload in order (payload bytes out = in);
 *   - GRO then GSO: segmenting each merged packet at its seg_size gives back
 *     every original segment's payload (when the library has GSO);
 *   - the counters add up (rx = merged + held + normal, out_segs = rx,
 *     flush reasons = GRO packets, api_errors = refusals seen), the table
 *     never holds more than max_flows entries, and nothing is allocated
 *     after create (counting struct ofl_mem).
 *
 * Burst mode (bit 0x20 of the first configuration byte): frames are queued
 * and handed over with ofl_gro_receive_burst(), as a driver's poll does: a
 * burst ends at its size (bits 0x40/0x80: 64, 2, 5 or 17 frames) and before
 * any other operation (poll end, clock step, flush, ...).  A second context
 * with the same configuration takes the same frames one ofl_gro_receive()
 * at a time (its per-frame results drive the checks above) and the same
 * operations; both must deliver the same packets (cookies, slices, headers,
 * sizes, flags, in the same delivery lists), return the same deadlines and
 * flush counts, and end with the same counters (gro.h's promise).
 */
#include <ofl/csum.h>
#include <ofl/dsa.h>
#include <ofl/gro.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#ifdef OFL_FUZZ_HAVE_GSO
#include <ofl/gso.h>
#endif

#include "conserve.h"
#include "fz.h"
#include "gather.h"
#include "gen.h"
#include "gen_tun.h"

#define MAX_FRAMES 200
#define MAX_PIECES 20
#define MAX_RAW 2048
#define KEYLEN 96

struct inpkt {
	uint8_t *frame; /* linear copy */
	uint32_t len;
	uint8_t *uf;    /* the frame GRO works on: untagged with a DSA format, else = frame */
	uint32_t ulen;
	bool tagok;     /* DSA format configured and the tag decodes */
	struct ofl_dsa_meta meta;
	void *blk[MAX_PIECES]; /* the buffers, each its own heap block */
	struct ofl_buf bufs[MAX_PIECES];
	unsigned nbufs;
	unsigned seen;
	int flow;       /* index in flows[] when the frame is TCP (order checked), else -1 */
	bool tcp;
	struct c_flow cf;
	uint64_t t;
	uint8_t pflags;
	uint16_t vlan_tci;
	uint32_t rx_hash;
};

/* A growing byte record of deliveries. */
struct rec {
	uint8_t *b;
	size_t n, cap;
};

struct flowrec {
	uint8_t key[KEYLEN];
	int last; /* last delivered cookie index */
};

struct genflow {
	uint32_t seq, ack;
	uint16_t ipid;
	uint32_t tsval;
};

struct st {
	struct ofl_gro *gro;
	struct ofl_gro_config cfg;
	struct fz_mem mem;
	struct inpkt pk[MAX_FRAMES];
	unsigned npk;
	struct flowrec flows[MAX_FRAMES];
	unsigned nflows;
	struct genflow gf[4];
	uint64_t now;
	uint64_t api_errors;   /* refusals we caused */
	int reenter;           /* deliver callback tries to re-enter */
	unsigned lists;
	/* burst mode: the queued frames and the one-frame-at-a-time twin */
	bool burst;
	bool tun;              /* VXLAN port 4789 and Geneve port 6081 configured */
	bool nodev;            /* IP-in-IP and GRE merged (ofl_gro_config ipip, gre) */
	unsigned bmax;
	struct ofl_pkt q[64];
	unsigned nq;
	struct ofl_gro *single;
	struct fz_mem mem1;
	struct rec out_burst, out_single; /* what each delivered, serialized */
	uint8_t lin[OFL_GRO_MAX_SIZE_LIMIT + 512];
	uint8_t lin2[OFL_GRO_MAX_SIZE_LIMIT + 512];
};

static struct st *S;

/* ---- independent flow identity (c_parse key + what the library also keys on) ---- */

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

/* The extension headers of the IPv6 header at ip (as far as the frame and
 * the payload length hold them): a hash of their bytes and their length.
 * The kernel (and the library) merge only packets whose extension headers
 * are byte for byte the same, so they are part of the flow. */
static void v6_ext_hash(const uint8_t *f, size_t len, size_t ip, uint32_t *hash, uint32_t *total)
{
	size_t l4 = ip + 40, end = ip + 40 + rd16(f + ip + 4);
	uint8_t nh = f[ip + 6];
	uint32_t h = 2166136261u, n = 0;
	if (end > len)
		end = len;
	while ((nh == 0 || nh == 43 || nh == 60) && l4 + 8 <= end) {
		size_t el = (f[l4 + 1] + 1u) * 8u, i;
		if (l4 + el > end)
			break;
		for (i = 0; i < el; i++)
			h = (h ^ f[l4 + i]) * 16777619u;
		n += (uint32_t)el;
		nh = f[l4];
		l4 += el;
	}
	*hash = h;
	*total = n;
}

/* The same for the inner packet of a tunnel (an IP packet at in of
 * EtherType et, or an Ethernet frame at in for et 0x6558), folded into the
 * inner parse's key: the outer frame's key (flow_key()) sees only the
 * outer header's. */
static void inner_ext_fold(const uint8_t *f, size_t len, size_t in, uint16_t et, struct c_flow *cf)
{
	uint32_t w[2];
	size_t k;
	if (et == 0x6558) {
		for (in += 12; in + 4 <= len && (rd16(f + in) == 0x8100 || rd16(f + in) == 0x88a8); in += 4)
			;
		if (in + 2 > len)
			return;
		et = rd16(f + in);
		in += 2;
	}
	if (et != 0x86dd || in + 40 > len)
		return;
	v6_ext_hash(f, len, in, &w[0], &w[1]);
	for (k = 0; k < 8; k++)
		cf->key[8 + k] ^= (uint8_t)(w[k / 4] >> (8 * (k % 4)));
}

/* The independent parse of a frame as the context takes it: TCP, UDP too
 * with cfg.udp, and with the tunnel ports a UDP frame to 4789 (VXLAN) or
 * 6081 (Geneve, version 0, OAM clear, Ethernet payload) is its inner TCP
 * segment: payload offset into the whole frame, and the outer side (the
 * outer parse's key: MACs, VLAN tags, addresses, ports; an IPv6 flow label,
 * a zero or non-zero UDP checksum, the tunnel header) folded into the key,
 * as the library's flow is the inner and the outer one together; and the
 * inner IPv6 extension headers, which flow_key() sees only for the outer
 * header (regress/gro/geneve-inner-ipv6-ext-headers-flow: two inner
 * segments that differ only by a destination-options header are two flows,
 * as in the kernel's ipv6_gro_receive(), and their order is not kept). */
/* c_parse() of an IP packet of EtherType et (n bytes at ip), behind an
 * Ethernet header of zeros; payload_off counts that header. */
static bool c_parse_ip(const uint8_t *ip, size_t n, uint16_t et, struct c_flow *cf)
{
	static uint8_t tmp[70000];
	if (n + 14 > sizeof(tmp))
		return false;
	memset(tmp, 0, 12);
	tmp[12] = (uint8_t)(et >> 8);
	tmp[13] = (uint8_t)et;
	memcpy(tmp + 14, ip, n);
	return c_parse(tmp, n + 14, cf);
}

/* The same for IP-in-IP and GRE (version 0, no flag but C and K, payload
 * IPv4, IPv6 or Ethernet): the inner packet (an IP one behind an Ethernet
 * header of zeros), the outer side (MACs, VLAN tags, outer addresses and
 * protocol, an IPv6 flow label, the GRE flags, type and key) folded into
 * the key.  False: not such a frame, or not TCP inside. */
static bool fz_parse_nodev(const uint8_t *f, size_t len, struct c_flow *cf)
{
	size_t off = 12, ip, l4, in, k;
	uint64_t h = 0x84222325cbf29ce4ull;
	uint16_t et;
	uint8_t proto;
	while (off + 4 <= len && (rd16(f + off) == 0x8100 || rd16(f + off) == 0x88a8))
		off += 4;
	if (off + 2 > len)
		return false;
	ip = off + 2;
	if (rd16(f + off) == 0x0800 && ip + 20 <= len) {
		proto = f[ip + 9];
		l4 = ip + (f[ip] & 0xfu) * 4u;
		for (k = ip + 12; k < ip + 20; k++)
			h = (h ^ f[k]) * 0x100000001b3ull;
	} else if (rd16(f + off) == 0x86dd && ip + 40 <= len) {
		proto = f[ip + 6];
		l4 = ip + 40;
		h = (h ^ ((uint64_t)(f[ip + 1] & 0xf) << 16 | rd16(f + ip + 2))) * 0x100000001b3ull;
		for (k = ip + 8; k < ip + 40; k++)
			h = (h ^ f[k]) * 0x100000001b3ull;
	} else {
		return false;
	}
	if (proto == 4 || proto == 41) {
		in = l4;
		et = proto == 4 ? 0x0800 : 0x86dd;
	} else if (proto == 47 && l4 + 4 <= len && !(rd16(f + l4) & ~0xa000u)) {
		et = rd16(f + l4 + 2);
		in = l4 + 4u + (f[l4] & 0x80 ? 4u : 0u) + (f[l4] & 0x20 ? 4u : 0u);
		if (et != 0x6558 && et != 0x0800 && et != 0x86dd)
			return false;
		/* flags, type and the key; not the checksum section */
		for (k = l4; k < l4 + 4; k++)
			h = (h ^ f[k]) * 0x100000001b3ull;
		for (k = in - (f[l4] & 0x20 ? 4u : 0u); k < in && k < len; k++)
			h = (h ^ f[k]) * 0x100000001b3ull;
	} else {
		return false;
	}
	if (in >= len)
		return false;
	if (!(et == 0x6558 ? c_parse(f + in, len - in, cf) : c_parse_ip(f + in, len - in, et, cf)))
		return false;
	inner_ext_fold(f, len, in, et, cf);
	h = (h ^ proto) * 0x100000001b3ull;
	for (k = 0; k < ip; k++)
		h = (h ^ f[k]) * 0x100000001b3ull;
	for (k = 0; k < 8; k++)
		cf->key[k] ^= (uint8_t)(h >> (8 * k));
	cf->payload_off += et == 0x6558 ? in : in - 14;
	return true;
}

static bool fz_parse(const struct st *s, const uint8_t *f, size_t len, struct c_flow *cf)
{
	struct c_flow o;
	if (s->nodev && fz_parse_nodev(f, len, cf))
		return true;
	size_t uh, th, in, k;
	uint64_t h = 0xcbf29ce484222325ull;
	if (s->tun && c_parse_l4(f, len, &o) && o.udp && o.payload_off >= 8 + 34) {
		uint16_t dport;
		uh = o.payload_off - 8;
		th = o.payload_off;
		dport = rd16(f + uh + 2);
		/* (a Geneve header GRO refuses: plain UDP; an IP payload is
		 * parsed behind an Ethernet header of zeros) */
		uint16_t gp = th + 4 <= len ? rd16(f + th + 2) : 0;
		bool gip = dport == 6081 && (gp == 0x0800 || gp == 0x86dd);
		if (th + 8 <= len && (dport == 4789 || (dport == 6081 && !(f[th] >> 6) && !(f[th + 1] & 0x80) &&
		                                        (gp == 0x6558 || gip)))) {
			bool ok;
			in = th + 8 + (dport == 6081 ? (f[th] & 0x3fu) * 4u : 0u);
			if (gip && in < len) {
				ok = c_parse_ip(f + in, len - in, gp, cf);
			} else {
				ok = !gip && in < len && c_parse(f + in, len - in, cf);
			}
			if (ok) {
				inner_ext_fold(f, len, in, gip ? gp : 0x6558, cf);
				for (k = 0; k < sizeof(o.key); k++)
					h = (h ^ o.key[k]) * 0x100000001b3ull;
				for (k = th; k < in; k++)
					h = (h ^ f[k]) * 0x100000001b3ull;
				h = (h ^ (uint64_t)((f[uh + 6] | f[uh + 7]) != 0)) * 0x100000001b3ull;
				/* an outer IPv6 flow label (untagged or one tag) */
				for (k = 12; k <= 16 && k + 6 <= uh; k += 4) {
					if (rd16(f + k) == 0x86dd) {
						h = (h ^ ((uint64_t)(f[k + 3] & 0xf) << 16 | rd16(f + k + 4))) *
						    0x100000001b3ull;
						break;
					}
					if (rd16(f + k) != 0x8100 && rd16(f + k) != 0x88a8)
						break;
				}
				for (k = 0; k < 8; k++)
					cf->key[k] ^= (uint8_t)(h >> (8 * k));
				cf->payload_off += gip ? in - 14 : in;
				return true;
			}
		}
	}
	return s->cfg.udp || s->cfg.fraglist ? c_parse_l4(f, len, cf) : c_parse(f, len, cf);
}

static void flow_key(const struct inpkt *in, uint8_t key[KEYLEN])
{
	const uint8_t *f = in->uf;
	size_t len = in->ulen, off = 12, k = 64;
	memset(key, 0, KEYLEN);
	memcpy(key, in->cf.key, 64);
	key[k++] = (uint8_t)(in->pflags & OFL_PKT_F_VLAN);
	if (in->pflags & OFL_PKT_F_VLAN) {
		key[k++] = (uint8_t)(in->vlan_tci >> 8);
		key[k++] = (uint8_t)in->vlan_tci;
	} else {
		k += 2;
	}
	while (off + 4 <= len && (rd16(f + off) == 0x8100 || rd16(f + off) == 0x88a8)) {
		if (k < 75)
			key[k++] = f[off + 1];
		off += 4;
	}
	k = 76;
	if (off + 2 + 40 <= len && rd16(f + off) == 0x86dd) {
		const uint8_t *ip = f + off + 2;
		uint32_t h, n;
		key[k++] = ip[0] & 0xf0;
		key[k++] = ip[1] & 0x0f;
		key[k++] = ip[2];
		key[k++] = ip[3];
		v6_ext_hash(f, len, off + 2, &h, &n);
		memcpy(key + k, &h, 4);
		memcpy(key + k + 4, &n, 4);
	}
	if (in->tagok) {
		/* the library keys on the tag's switch, port and VLAN too */
		uint32_t v = in->meta.valid & (OFL_DSA_M_PORT | OFL_DSA_M_SWITCH | OFL_DSA_M_VLAN);
		key[88] = 1;
		key[89] = (uint8_t)v;
		key[90] = v & OFL_DSA_M_PORT ? in->meta.port : 0;
		key[91] = v & OFL_DSA_M_SWITCH ? in->meta.switch_id : 0;
		key[92] = (uint8_t)(v & OFL_DSA_M_VLAN ? in->meta.vlan_tci >> 8 : 0);
		key[93] = (uint8_t)(v & OFL_DSA_M_VLAN ? in->meta.vlan_tci : 0);
	}
}

static int flow_of(struct st *s, struct inpkt *in)
{
	uint8_t key[KEYLEN];
	unsigned i;
	flow_key(in, key);
	for (i = 0; i < s->nflows; i++)
		if (memcmp(s->flows[i].key, key, KEYLEN) == 0)
			return (int)i;
	memcpy(s->flows[s->nflows].key, key, KEYLEN);
	s->flows[s->nflows].last = -1;
	return (int)s->nflows++;
}

/* ---- checksum fix-up of raw frames so that fuzzed frames can merge ---- */

static void fix_csums(uint8_t *f, size_t len)
{
	size_t off = 12, l3, l4 = 0, l4len = 0;
	uint32_t sum = 0;
	uint16_t c;
	uint8_t proto = 0;
	while (off + 4 <= len && (rd16(f + off) == 0x8100 || rd16(f + off) == 0x88a8))
		off += 4;
	if (off + 2 > len)
		return;
	l3 = off + 2;
	if (rd16(f + off) == 0x0800 && l3 + 20 <= len) {
		size_t ihl = (f[l3] & 0xfu) * 4u, tot = rd16(f + l3 + 2);
		if (ihl < 20 || l3 + ihl > len)
			return;
		f[l3 + 10] = f[l3 + 11] = 0;
		c = ofl_csum_fold(ofl_csum_partial(f + l3, ihl, 0));
		memcpy(f + l3 + 10, &c, 2);
		if (tot < ihl || l3 + tot > len || (rd16(f + l3 + 6) & 0x1fff))
			return;
		proto = f[l3 + 9];
		l4 = l3 + ihl;
		l4len = tot - ihl;
		sum = ofl_csum_partial(f + l3 + 12, 8, 0);
	} else if (rd16(f + off) == 0x86dd && l3 + 40 <= len) {
		size_t end = l3 + 40 + rd16(f + l3 + 4);
		uint8_t nh = f[l3 + 6];
		if (end > len)
			return;
		l4 = l3 + 40;
		while ((nh == 0 || nh == 43 || nh == 60) && l4 + 8 <= end) {
			size_t el = (f[l4 + 1] + 1u) * 8u;
			nh = f[l4];
			l4 += el;
		}
		if (l4 > end)
			return;
		proto = nh;
		l4len = end - l4;
		sum = ofl_csum_partial(f + l3 + 8, 32, 0);
	} else {
		return;
	}
	if (proto != 6 || l4len < 20) /* TCP only */
		return;
	{
		uint8_t tail[8] = {0, 0, 0, 0, 0, 0, 0, 6};
		tail[0] = (uint8_t)(l4len >> 24);
		tail[1] = (uint8_t)(l4len >> 16);
		tail[2] = (uint8_t)(l4len >> 8);
		tail[3] = (uint8_t)l4len;
		sum = ofl_csum_partial(tail, 8, sum);
	}
	f[l4 + 16] = f[l4 + 17] = 0;
	c = ofl_csum_fold(ofl_csum_partial(f + l4, l4len, sum));
	memcpy(f + l4 + 16, &c, 2);
}

/* ---- delivery ---------------------------------------------------------- */

static struct inpkt *cookie_pkt(struct st *s, void *c)
{
	struct inpkt *in = c;
	FZ_CHECKF(in >= s->pk && in < s->pk + s->npk, "cookie %p is not one we gave", c);
	FZ_CHECK(((const uint8_t *)in - (const uint8_t *)s->pk) % sizeof(*in) == 0);
	return in;
}

static void check_reenter(struct st *s)
{
	struct ofl_pkt p;
	struct ofl_buf b = {s->lin, 60};
	uint64_t dl = 1;
	memset(&p, 0, sizeof(p));
	p.bufs = &b;
	p.nbufs = 1;
	memset(s->lin, 0, 60);
	FZ_CHECK(ofl_gro_receive(s->gro, &p, s->now) == OFL_ESTATE);
	FZ_CHECK(ofl_gro_flush(s->gro) == OFL_ESTATE);
	FZ_CHECK(ofl_gro_flush_older(s->gro, s->now, 0) == OFL_ESTATE);
	FZ_CHECK(ofl_gro_poll_end(s->gro, 0, s->now, &dl) == OFL_ESTATE);
	FZ_CHECK(dl == 0);
	s->api_errors += 4;
	s->reenter = 0;
}

#ifdef OFL_FUZZ_HAVE_GSO
/* GRO then GSO (the forwarding path): segmenting a merged packet at its
 * seg_size gives back every original segment's payload, in order. */
static void gro_then_gso(struct st *s, const struct ofl_gro_out *o)
{
	static uint8_t block[4 * 512];
	struct ofl_gso_iter it;
	struct ofl_gso_pool pool;
	struct ofl_gso_seg g;
	uint32_t k = 0, i;
	int rc = ofl_gso_start_gro(&it, NULL, o);
	FZ_CHECKF(rc == 0, "GSO refuses a GRO packet of %u segments: %d", o->seg_count, rc);
	FZ_CHECK(ofl_gso_pool_init_block(&pool, block, sizeof(block), 512) == 0);
	while ((rc = ofl_gso_next(&it, &pool, &g)) == 1) {
		struct inpkt *in;
		uint32_t pos = 0;
		FZ_CHECKF(k < o->seg_count, "GSO made more than the %u segments GRO merged", o->seg_count);
		in = cookie_pkt(s, o->cookies[k]);
		FZ_CHECKF(g.payload_len == in->cf.payload_len, "GSO segment %u: %u bytes, GRO took %zu", k,
		          g.payload_len, in->cf.payload_len);
		for (i = 0; i < g.nslices; i++) {
			FZ_CHECK(pos + g.slices[i].len <= in->cf.payload_len);
			FZ_CHECKF(memcmp(g.slices[i].data, in->uf + in->cf.payload_off + pos, g.slices[i].len) == 0,
			          "GSO segment %u differs from the segment GRO took", k);
			pos += g.slices[i].len;
		}
		FZ_CHECK(ofl_gso_pool_put(&pool, &g.hdr) == 0);
		k++;
	}
	FZ_CHECKF(rc == 0, "GSO next: %d", rc);
	FZ_CHECKF(k == o->seg_count, "GSO gave %u segments back of %u", k, o->seg_count);
}
#endif

/* Is the slice inside buffer sl->buf of packet `in`? */
static void check_slice_in(const struct inpkt *in, const struct ofl_slice *sl, unsigned i)
{
	const struct ofl_buf *b;
	FZ_CHECKF(sl->buf < in->nbufs, "slice %u names buffer %u of %u", i, sl->buf, in->nbufs);
	b = &in->bufs[sl->buf];
	FZ_CHECKF(sl->len > 0 && sl->data >= b->data && sl->data + sl->len <= b->data + b->len,
	          "slice %u (len %u) outside buffer %u (len %u)", i, sl->len, sl->buf, b->len);
}

/* Fraglist mode: each frame of a list packet, walked with
 * ofl_gro_list_seg(), is its input frame byte for byte, in its buffers. */
static void check_list(struct st *s, const struct ofl_gro_out *o)
{
	struct ofl_gro_seg sg;
	unsigned i, k;
	for (i = 0; i < o->seg_count; i++) {
		struct inpkt *in = cookie_pkt(s, o->cookies[i]);
		uint32_t pos = 0;
		FZ_CHECK(ofl_gro_list_seg(s->gro, o, i, &sg) == 0);
		FZ_CHECK(sg.cookie == o->cookies[i] && sg.len == in->len && sg.npayload >= 1);
		for (k = 0; k < sg.nhdr + sg.npayload; k++) {
			const struct ofl_slice *sl = k < sg.nhdr ? &sg.hdr[k] : &sg.payload[k - sg.nhdr];
			check_slice_in(in, sl, k);
			FZ_CHECK(sl->pkt == i && pos + sl->len <= in->len);
			FZ_CHECKF(memcmp(sl->data, in->frame + pos, sl->len) == 0, "list frame %u differs", i);
			pos += sl->len;
		}
		FZ_CHECK(pos == in->len);
	}
	FZ_CHECK(ofl_gro_list_seg(s->gro, o, o->seg_count, &sg) == OFL_EINVAL);
}

static void check_gro_pkt(struct st *s, const struct ofl_gro_out *o)
{
	struct c_flow cf;
	uint32_t i, sum = 0, pos, flen;
	const uint8_t *fr;
	bool keep = s->cfg.dsa && s->cfg.dsa_keep_tag;
	int w;
	FZ_CHECK(o->hdr && o->hdr_len > 0 && o->hdr_len <= OFL_GRO_MAX_HDR + 16u);
	/* a TCP header, or (UDP GRO on) an 8-byte UDP header */
	FZ_CHECK(o->l3_off < o->l4_off && o->l4_off + (s->cfg.udp || s->cfg.fraglist ? 8u : 20u) <= o->hdr_len);
	FZ_CHECK(o->flags & OFL_GRO_OUT_F_CSUM_VERIFIED);
	for (i = 0; i < o->nslices; i++) {
		const struct ofl_slice *sl = &o->slices[i];
		if (keep && sl->buf == 0xffff && i + 1 == o->nslices) {
			sum += sl->len; /* the tail tag, in library memory */
			continue;
		}
		FZ_CHECKF(sl->pkt < o->seg_count, "slice %u of segment %u, %u segments", i, sl->pkt,
		          o->seg_count);
		check_slice_in(cookie_pkt(s, o->cookies[sl->pkt]), sl, i);
		if (i)
			FZ_CHECK(sl->pkt >= o->slices[i - 1].pkt);
		sum += sl->len;
	}
	FZ_CHECKF(o->len == o->hdr_len + sum, "len %u, hdr %u + slices %u", o->len, o->hdr_len, sum);
	w = ofl_gro_linearize(o, s->lin, sizeof(s->lin), OFL_CSUM_MODE_FULL);
	FZ_CHECK(w == (int)o->len);
	fr = s->lin;
	flen = o->len;
	if (s->cfg.dsa) {
		struct inpkt *first = cookie_pkt(s, o->cookies[0]);
		FZ_CHECK(o->dsa != NULL && first->tagok);
		FZ_CHECK(memcmp(o->dsa, &first->meta, sizeof(first->meta)) == 0);
	} else {
		FZ_CHECK(o->dsa == NULL);
	}
	if (keep) {
		/* delivered with the first segment's tag: untag it to check */
		struct ofl_dsa_meta m;
		struct ofl_dsa_view v;
		struct ofl_buf pc[2];
		int rc = ofl_dsa_decode(s->cfg.dsa, &s->cfg.dsa_params, OFL_DSA_RX, s->lin, o->len, &m, &v);
		FZ_CHECKF(rc == 0, "%s: a GRO packet delivered with its tag does not decode (%d)",
		          s->cfg.dsa->name, rc);
		FZ_CHECK(ofl_dsa_untagged(s->lin, o->len, &v, pc) == 2);
		flen = gather(pc, 2, s->lin2);
		fr = s->lin2;
	}
	FZ_CHECKF(fz_parse(s, fr, flen, &cf), "GRO packet (%u segments) does not parse", o->seg_count);
	{
		struct ofl_gro_tunnel t;
		int tr = ofl_gro_out_tunnel(o, &t);
		FZ_CHECK(tr == (OFL_GRO_OUT_TUN_TYPE(o->flags) ? 1 : 0));
		FZ_CHECK(!tr || ((s->tun || s->nodev) && t.inner_l4_off == o->l4_off && cf.payload_off == o->hdr_len));
	}
	if (o->seg_count > 1) {
		FZ_CHECKF(OFL_GRO_OUT_TUN_TYPE(o->flags) ? gen_tun_csums_ok(fr, flen) : gen_frame_csums_ok(fr, flen),
		          "bad checksum in a GRO packet of %u segments (%u bytes, hdr %u, payload %zu, seg_size %u, %s%s)",
		          o->seg_count, flen, o->hdr_len, cf.payload_len, o->seg_size,
		          s->cfg.dsa ? s->cfg.dsa->name : "no DSA", keep ? " keep tag" : "");
		/* partial form, except with a kept tail tag: then the library
		 * finishes the checksum itself (the tag follows the payload) */
		if (keep && s->cfg.dsa->place == OFL_DSA_PLACE_TAIL) {
			FZ_CHECK(!(o->flags & OFL_GRO_OUT_F_CSUM_PARTIAL));
		} else {
			FZ_CHECK(o->flags & OFL_GRO_OUT_F_CSUM_PARTIAL);
			FZ_CHECK(o->csum_start == o->l4_off && o->csum_offset == (cf.udp ? 6 : 16));
		}
		if (s->cfg.fraglist && !OFL_GRO_OUT_TUN_TYPE(o->flags)) {
			FZ_CHECK((o->gso_type & OFL_GSO_TUNNEL_MASK) == OFL_GSO_FRAGLIST && o->seg_count <= 64);
			check_list(s, o);
		}
		if (cf.udp) {
			FZ_CHECK((s->cfg.udp || s->cfg.fraglist) && (o->gso_type & ~OFL_GSO_TUNNEL_MASK) == OFL_GSO_UDP_L4 &&
			         o->seg_count <= 64);
		} else {
			FZ_CHECK(((o->gso_type & OFL_GSO_TCPV4) != 0) != ((o->gso_type & OFL_GSO_TCPV6) != 0));
			FZ_CHECK(!!(o->gso_type & OFL_GSO_TCPV4) == ((o->hdr[o->l3_off] >> 4) == 4));
		}
	} else {
		/* Nothing joined: the original (untagged) frame. */
		struct inpkt *in = cookie_pkt(s, o->cookies[0]);
		FZ_CHECK(flen <= in->ulen);
		FZ_CHECK(memcmp(fr, in->uf, flen) == 0);
	}
	pos = (uint32_t)cf.payload_off;
	for (i = 0; i < o->seg_count; i++) {
		struct inpkt *in = cookie_pkt(s, o->cookies[i]);
		FZ_CHECKF(in->tcp, "segment %u of a GRO packet is not TCP to an independent parser", i);
		if (i + 1 < o->seg_count)
			FZ_CHECK(in->cf.payload_len == o->seg_size);
		else
			FZ_CHECK(in->cf.payload_len <= o->seg_size || o->seg_count == 1);
		FZ_CHECK(pos + in->cf.payload_len <= flen);
		FZ_CHECKF(memcmp(fr + pos, in->uf + in->cf.payload_off, in->cf.payload_len) == 0,
		          "payload of segment %u differs", i);
		FZ_CHECK(memcmp(cf.key, in->cf.key, sizeof(cf.key)) == 0);
		pos += (uint32_t)in->cf.payload_len;
		if (i)
			FZ_CHECK(o->cookies[i] > o->cookies[i - 1]);
	}
	FZ_CHECKF(pos == cf.payload_off + cf.payload_len, "payload out %u != in %zu",
	          pos - (uint32_t)cf.payload_off, cf.payload_len);
	{
		struct inpkt *first = cookie_pkt(s, o->cookies[0]);
		FZ_CHECK(o->first_ns == first->t);
		FZ_CHECK(!!(o->flags & OFL_GRO_OUT_F_VLAN) == !!(first->pflags & OFL_PKT_F_VLAN));
		if (first->pflags & OFL_PKT_F_VLAN)
			FZ_CHECK(o->vlan_tci == first->vlan_tci);
	}
#ifdef OFL_FUZZ_HAVE_GSO
	if (o->seg_count > 1 && !s->cfg.dsa && (o->gso_type & OFL_GSO_TUNNEL_MASK) != OFL_GSO_FRAGLIST)
		gro_then_gso(s, o); /* through a tunnel too: cut as the tunnel it names (a list: walked) */
#endif
	/* The other output helpers accept what the engine produced. */
	{
		struct ofl_virtio_net_hdr vh;
		if (OFL_GRO_OUT_TUN_TYPE(o->flags) && (o->flags & OFL_GRO_OUT_F_CSUM_PARTIAL)) {
			FZ_CHECK(ofl_gro_vnet_hdr(o, 14, &vh) == OFL_ENOTSUP); /* no 10-byte form */
		} else if (o->l3_off >= 14) {
			FZ_CHECK(ofl_gro_vnet_hdr(o, 14, &vh) == 0);
			if (o->seg_count > 1 && (o->flags & OFL_GRO_OUT_F_CSUM_PARTIAL))
				FZ_CHECK(vh.gso_size == o->seg_size && vh.hdr_len == o->hdr_len - 14);
		}
		/* through VXLAN or Geneve, the 24-byte header names the tunnel */
		if (o->seg_count > 1 && (o->flags & OFL_GRO_OUT_F_CSUM_PARTIAL) &&
		    ((o->gso_type & OFL_GSO_TUNNEL_MASK) == OFL_GSO_UDP_TUNNEL ||
		     (o->gso_type & OFL_GSO_TUNNEL_MASK) == OFL_GSO_UDP_TUNNEL_CSUM)) {
			uint8_t v24[OFL_VNET_HDR_TUNNEL_LEN];
			struct ofl_virtio_net_hdr_tunnel vt;
			struct ofl_gro_tunnel t;
			FZ_CHECK(ofl_gro_vnet_hdr_le(o, 0, v24, sizeof(v24)) == (int)sizeof(v24));
			FZ_CHECK(ofl_vnet_hdr_tunnel_read(v24, sizeof(v24), &vt) == 0);
			FZ_CHECK(ofl_gro_out_tunnel(o, &t) == 1);
			FZ_CHECK(vt.outer_th_offset == t.outer_l4_off && vt.inner_nh_offset == t.inner_l3_off);
			FZ_CHECK(vt.hdr.gso_type & (OFL_VNET_GSO_UDP_TUNNEL_IPV4 | OFL_VNET_GSO_UDP_TUNNEL_IPV6));
			FZ_CHECK(vt.hdr.gso_size == o->seg_size && vt.hdr.csum_start == o->csum_start);
		}
		if (o->seg_count > 1)
			FZ_CHECK(ofl_gro_linearize(o, s->lin, sizeof(s->lin), OFL_CSUM_MODE_PARTIAL) ==
			         (int)o->len);
		FZ_CHECK(ofl_gro_linearize(o, s->lin, o->len - 1, OFL_CSUM_MODE_FULL) == OFL_ENOSPC);
	}
}

static void rec_put(struct rec *r, const void *d, size_t n)
{
	if (r->n + n > r->cap) {
		r->cap = (r->n + n) * 2 + 1024;
		r->b = realloc(r->b, r->cap);
		FZ_CHECK(r->b);
	}
	memcpy(r->b + r->n, d, n);
	r->n += n;
}

/* One delivery list, as the burst/single comparison sees it: every field,
 * the header bytes, the slices (the same buffers in both contexts, so the
 * pointers themselves), the cookies. */
static void rec_list(struct rec *r, const struct ofl_gro_out *pk, unsigned n)
{
	unsigned i, k;
	rec_put(r, &n, sizeof(n));
	for (i = 0; i < n; i++) {
		const struct ofl_gro_out *o = &pk[i];
		uint64_t f[8];
		f[0] = (uint64_t)o->hdr_len << 32 | o->nslices;
		f[1] = (uint64_t)o->len << 32 | (uint32_t)o->seg_count << 16 | o->seg_size;
		f[2] = (uint64_t)o->ncookies << 32 | (uint32_t)o->l3_off << 16 | o->l4_off;
		f[3] = (uint64_t)o->csum_start << 48 | (uint64_t)o->csum_offset << 32 |
		       (uint32_t)o->flags << 24 | (uint32_t)o->gso_type << 16 | o->vlan_tci;
		f[4] = o->rx_hash;
		f[5] = o->first_ns;
		f[6] = o->dsa != NULL;
		f[7] = 0;
		rec_put(r, f, sizeof(f));
		if (o->dsa)
			rec_put(r, o->dsa, sizeof(*o->dsa));
		if (o->hdr_len)
			rec_put(r, o->hdr, o->hdr_len);
		for (k = 0; k < o->nslices; k++) {
			const struct ofl_slice *sl = &o->slices[k];
			uintptr_t a = sl->buf == 0xffff ? 0 : (uintptr_t)sl->data;
			uint32_t w[3] = {sl->len, sl->pkt, sl->buf};
			rec_put(r, &a, sizeof(a));
			rec_put(r, w, sizeof(w));
			if (sl->buf == 0xffff) /* library memory: its bytes */
				rec_put(r, sl->data, sl->len);
		}
		for (k = 0; k < o->ncookies; k++)
			rec_put(r, &o->cookies[k], sizeof(o->cookies[k]));
	}
}

static void deliver_single(void *user, const struct ofl_gro_out *pk, unsigned n)
{
	struct st *s = user;
	rec_list(&s->out_single, pk, n);
}

static void deliver(void *user, const struct ofl_gro_out *pk, unsigned n)
{
	struct st *s = user;
	unsigned i, j;
	FZ_CHECKF(n >= 1 && n <= s->cfg.normal_batch + 1u, "list of %u packets, batch %u", n,
	          s->cfg.normal_batch);
	s->lists++;
	if (s->burst)
		rec_list(&s->out_burst, pk, n);
	if (s->reenter)
		check_reenter(s);
	for (i = 0; i < n; i++) {
		const struct ofl_gro_out *o = &pk[i];
		unsigned nc = o->seg_count ? o->seg_count : 1;
		FZ_CHECK(o->cookies);
		for (j = 0; j < nc; j++) {
			struct inpkt *in = cookie_pkt(s, o->cookies[j]);
			in->seen++;
			FZ_CHECKF(in->seen == 1, "cookie %d delivered twice", (int)(in - s->pk));
			if (in->flow >= 0) {
				struct flowrec *fr = &s->flows[in->flow];
				FZ_CHECKF(fr->last < (int)(in - s->pk), "flow %d: frame %d after %d", in->flow,
				          (int)(in - s->pk), fr->last);
				fr->last = (int)(in - s->pk);
			}
		}
		if (o->seg_count == 0 && o->hdr_len == 0) {
			/* untouched: its own buffers */
			struct inpkt *in = cookie_pkt(s, o->cookies[0]);
			uint32_t sum = 0;
			FZ_CHECK(o->len == in->len);
			FZ_CHECK(o->nslices == in->nbufs);
			for (j = 0; j < o->nslices; j++) {
				FZ_CHECK(o->slices[j].data == in->bufs[j].data);
				FZ_CHECK(o->slices[j].len == in->bufs[j].len);
				FZ_CHECK(o->slices[j].buf == j && o->slices[j].pkt == 0);
				sum += o->slices[j].len;
			}
			FZ_CHECK(sum == o->len);
			FZ_CHECK(ofl_gro_linearize(o, s->lin, sizeof(s->lin), OFL_CSUM_MODE_FULL) ==
			         (int)o->len);
			FZ_CHECK(memcmp(s->lin, in->frame, in->len) == 0);
			if (s->cfg.dsa && o->dsa)
				FZ_CHECK(in->tagok && memcmp(o->dsa, &in->meta, sizeof(in->meta)) == 0);
		} else if (o->seg_count == 0) {
			/* DSA, untagged mode: the untagged frame as hdr + slices */
			struct inpkt *in = cookie_pkt(s, o->cookies[0]);
			uint32_t sum = 0;
			FZ_CHECK(s->cfg.dsa && !s->cfg.dsa_keep_tag && o->dsa && in->tagok);
			FZ_CHECK(memcmp(o->dsa, &in->meta, sizeof(in->meta)) == 0);
			FZ_CHECK(o->hdr && o->hdr_len >= 12 && o->hdr_len <= 16);
			for (j = 0; j < o->nslices; j++) {
				FZ_CHECK(o->slices[j].pkt == 0);
				check_slice_in(in, &o->slices[j], j);
				sum += o->slices[j].len;
			}
			FZ_CHECK(o->len == o->hdr_len + sum);
			FZ_CHECK(ofl_gro_linearize(o, s->lin, sizeof(s->lin), OFL_CSUM_MODE_FULL) ==
			         (int)o->len);
			FZ_CHECKF(o->len == in->ulen && memcmp(s->lin, in->uf, in->ulen) == 0,
			          "untagged NORMAL frame differs from the tag view (%u vs %u bytes)", o->len,
			          in->ulen);
		} else {
			check_gro_pkt(s, o);
		}
	}
}

/* ---- feeding frames ------------------------------------------------------ */

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void check_stats(struct st *s)
{
	struct ofl_gro_stats g;
	FZ_CHECK(ofl_gro_get_stats(s->gro, &g, sizeof g) == 0);
	FZ_CHECKF(g.flows_held <= s->cfg.max_flows, "%u flows held, max %u", g.flows_held,
	          s->cfg.max_flows);
	FZ_CHECK(g.rx_pkts == g.merged + g.held + g.normal);
	FZ_CHECK(g.api_errors == s->api_errors);
	FZ_CHECK(g.out_segs <= g.rx_pkts);
}

static void took(struct inpkt *in, int r, const struct ofl_gro_stats *bef,
                 const struct ofl_gro_stats *aft);
static void submit(struct st *s);

/* Feed frame bytes f[0..len) with options from the stream. */
static void feed(struct st *s, struct fz *z, const uint8_t *f, size_t len, bool fix)
{
	struct inpkt *in;
	struct ofl_pkt p;
	uint8_t opt = fz_u8(z), csm = fz_u8(z);
	unsigned want = opt % 8u, i, nb = 0;
	uint32_t cuts[MAX_PIECES + 1];
	struct ofl_gro_stats before, after;
	int r;
	if (s->npk == MAX_FRAMES)
		return;
	memset(&before, 0, sizeof(before));
	memset(&after, 0, sizeof(after));
	in = &s->pk[s->npk];
	memset(in, 0, sizeof(*in));
	in->frame = malloc(len ? len : 1);
	FZ_CHECK(in->frame);
	memcpy(in->frame, f, len);
	in->len = (uint32_t)len;
	if (fix)
		fix_csums(in->frame, len);
	/* buffers: want extra cut points (fuzzed), or one byte per buffer */
	if (opt & 0x80) {
		want = (unsigned)(len < 18 ? len : 18);
	}
	for (i = 0; i < want; i++) {
		if (opt & 0x80)
			cuts[i] = i + 1;
		else
			cuts[i] = len ? fz_u16(z) % (uint32_t)(len + 1) : 0;
	}
	qsort(cuts, want, sizeof(cuts[0]), cmp_u32);
	cuts[want] = (uint32_t)len;
	{
		uint32_t prev = 0;
		for (i = 0; i <= want; i++) {
			uint32_t pl = cuts[i] - prev;
			if (pl || (opt & 0x40)) {
				/* zero-length buffers: NULL or a real pointer */
				in->blk[nb] = pl || (csm & 0x10) ? malloc(pl ? pl : 1) : NULL;
				if (pl)
					memcpy(in->blk[nb], in->frame + prev, pl);
				in->bufs[nb].data = in->blk[nb];
				in->bufs[nb].len = pl;
				nb++;
			}
			prev = cuts[i];
		}
		if (nb == 0) {
			in->blk[0] = malloc(1);
			in->bufs[0].data = in->blk[0];
			in->bufs[0].len = 0;
			nb = 1;
		}
	}
	in->nbufs = nb;
	in->t = s->now;
	in->uf = in->frame;
	in->ulen = in->len;
	if (s->cfg.dsa) {
		struct ofl_dsa_view v;
		if (ofl_dsa_decode(s->cfg.dsa, &s->cfg.dsa_params, OFL_DSA_RX, in->frame, in->len, &in->meta,
		                   &v) == 0) {
			struct ofl_buf pc[2];
			FZ_CHECK(ofl_dsa_untagged(in->frame, in->len, &v, pc) == 2);
			in->tagok = true;
			in->ulen = pc[0].len + pc[1].len;
			in->uf = malloc(in->ulen);
			FZ_CHECK(in->uf);
			gather(pc, 2, in->uf);
		}
	}
	/* with UDP GRO on, a UDP datagram is GRO's as a TCP segment is */
	in->tcp = fz_parse(s, in->uf, in->ulen, &in->cf);
	in->flow = -1;
	memset(&p, 0, sizeof(p));
	p.bufs = in->bufs;
	p.nbufs = (uint16_t)nb;
	p.csum_status = (uint8_t)(csm & 3);
	if (p.csum_status == 3) {
		p.csum_status = OFL_CSUM_COMPLETE;
		p.csum = fz_u16(z);
	} else if (p.csum_status == OFL_CSUM_COMPLETE) {
		p.csum = len > 14 ? (uint16_t)~ofl_csum_fold(ofl_csum_partial(in->frame + 14, len - 14, 0)) : 0;
	}
	if (csm & 0x20) {
		p.flags |= OFL_PKT_F_VLAN;
		p.vlan_tci = (uint16_t)(csm & 0x40 ? 5 : 7);
	}
	if (csm & 0x80) {
		p.flags |= OFL_PKT_F_HASH;
		p.rx_hash = 0x1234;
	}
	in->pflags = p.flags;
	in->vlan_tci = p.vlan_tci;
	in->rx_hash = p.rx_hash;
	p.cookie = in;
	s->npk++;
	if (s->burst && nb <= s->cfg.max_bufs) {
		s->q[s->nq++] = p;
		if (s->nq == s->bmax)
			submit(s);
		return;
	}
	if (s->burst) {
		/* refused: what is queued goes first, then the refusal of a
		 * burst of one (nothing taken, the error returned) */
		int err = 0;
		submit(s);
		r = ofl_gro_receive_burst(s->gro, &p, 1, s->now, &err) == 0 ? err : 0;
	} else {
		FZ_CHECK(ofl_gro_get_stats(s->gro, &before, sizeof before) == 0);
		r = ofl_gro_receive(s->gro, &p, s->now);
		FZ_CHECK(ofl_gro_get_stats(s->gro, &after, sizeof after) == 0);
	}
	if (nb > s->cfg.max_bufs) {
		FZ_CHECKF(r == OFL_E2BIG, "%u buffers, max %u: %d", nb, s->cfg.max_bufs, r);
		s->api_errors++;
		s->npk--; /* not taken: still ours */
		for (i = 0; i < nb; i++)
			free(in->blk[i]);
		if (in->uf != in->frame)
			free(in->uf);
		free(in->frame);
		return;
	}
	took(in, r, &before, &after);
}

/* What ofl_gro_receive() said of a frame it took (r, the counters around
 * the call): checked, and the flow whose order the deliveries keep. */
static void took(struct inpkt *in, int r, const struct ofl_gro_stats *bef,
                 const struct ofl_gro_stats *aft)
{
	const struct ofl_gro_stats before = *bef, after = *aft;
	FZ_CHECKF(r == OFL_GRO_MERGED || r == OFL_GRO_HELD || r == OFL_GRO_NORMAL, "receive: %d", r);
	FZ_CHECK(after.rx_pkts == before.rx_pkts + 1 && after.rx_bytes == before.rx_bytes + in->len);
	if (r == OFL_GRO_NORMAL) {
		unsigned k, why = OFL_GRO_NORMAL__COUNT;
		for (k = 0; k < OFL_GRO_NORMAL__COUNT; k++)
			if (after.normal_why[k] != before.normal_why[k]) {
				FZ_CHECK(why == OFL_GRO_NORMAL__COUNT && after.normal_why[k] == before.normal_why[k] + 1);
				why = k;
			}
		FZ_CHECK(why < OFL_GRO_NORMAL__COUNT);
		/* Frames the library identified as TCP keep their order within
		 * their flow; the others (malformed IP...) are not ordered. */
		if (in->tcp && (why == OFL_GRO_NORMAL_TCP_CSUM || why == OFL_GRO_NORMAL_NO_PAYLOAD ||
		                why == OFL_GRO_NORMAL_FLAGS || why == OFL_GRO_NORMAL_IP_CSUM ||
		                why == OFL_GRO_NORMAL_IP_OPTIONS || why == OFL_GRO_NORMAL_PADDED ||
		                why == OFL_GRO_NORMAL_UDP_CSUM || why == OFL_GRO_NORMAL_UDP_ZERO_CSUM ||
		                why == OFL_GRO_NORMAL_UDP_LEN || why == OFL_GRO_NORMAL_UDP_PORT))
			in->flow = flow_of(S, in);
	} else {
		FZ_CHECKF(in->tcp, "a frame the library %s is not TCP to an independent parser",
		          r == OFL_GRO_HELD ? "held" : "merged");
		in->flow = flow_of(S, in);
	}
}

/* Burst mode: the queued frames, first one at a time into the twin context
 * (whose results say which flow each frame's order belongs to), then as one
 * ofl_gro_receive_burst() call into the context under test. */
static void submit(struct st *s)
{
	unsigned i, n = s->nq, got;
	int err = 1;
	if (!n)
		return;
	for (i = 0; i < n; i++) {
		struct ofl_gro_stats before, after;
		int r;
		FZ_CHECK(ofl_gro_get_stats(s->single, &before, sizeof before) == 0);
		r = ofl_gro_receive(s->single, &s->q[i], s->now);
		FZ_CHECK(ofl_gro_get_stats(s->single, &after, sizeof after) == 0);
		took(s->q[i].cookie, r, &before, &after);
	}
	got = ofl_gro_receive_burst(s->gro, s->q, n, s->now, &err);
	FZ_CHECKF(got == n && err == 0, "burst took %u of %u (%d)", got, n, err);
	s->nq = 0;
}

static void feed_raw(struct st *s, struct fz *z, bool fix)
{
	uint16_t len = fz_u16(z) % MAX_RAW;
	const uint8_t *d;
	uint8_t tmp[MAX_RAW];
	size_t got = fz_take(z, len, &d);
	memcpy(tmp, d, got);
	feed(s, z, tmp, got, fix);
}

static void feed_gen(struct st *s, struct fz *z)
{
	struct gen_tcp g;
	static uint8_t buf[12000];
	uint8_t a = fz_u8(z), b = fz_u8(z), c = fz_u8(z), d = fz_u8(z);
	unsigned fl = a & 3;
	struct genflow *gf = &s->gf[fl];
	size_t n;
	gen_tcp_init(&g, a & 4 ? 6 : 4);
	if (a & 0x40) {
		/* a UDP datagram (GRO takes it with cfg.udp): checksum 0, a
		 * length field one short, destination port 53 (never merged) */
		g.udp = true;
		g.udp_zero_csum = (b & 0x40) != 0;
		g.udp_len_delta = (b & 0x80) && (c & 1) ? -1 : 0;
		if ((b & 0x80) && (c & 2))
			g.dport = 53;
	}
	g.saddr[3] ^= (uint8_t)fl;
	g.saddr[15] ^= (uint8_t)fl;
	g.sport = (uint16_t)(1000 + fl);
	g.flow_salt = fl;
	g.nvlan = (uint8_t)((a >> 3) & 3);
	g.vlan_tci[0] = 10;
	g.vlan_tci[1] = 20;
	g.vlan_tci[2] = 30;
	if (a & 0x20)
		g.vlan_tpid[0] = 0x88a8;
	switch (b & 7) {
	case 0: case 1: case 2: case 3: g.payload_len = 1448; break;
	case 4: g.payload_len = fz_u16(z) % 1600; break;
	case 5: g.payload_len = fz_u16(z) % 9000; break;
	case 6: g.payload_len = 0; break;
	default: g.payload_len = 1 + (b >> 3); break;
	}
	switch ((b >> 3) & 7) {
	case 0: case 1: case 2: case 3: g.seq = gf->seq; break;
	case 4: g.seq = gf->seq - g.payload_len; break;   /* retransmit */
	case 5: g.seq = gf->seq + fz_u16(z); break;       /* gap */
	case 6: g.seq = fz_u32(z); break;
	default: g.seq = gf->seq - 1; break;
	}
	gf->seq = g.seq + g.payload_len;
	g.flags = GEN_ACK;
	if (c & 0x80)
		g.flags = (uint8_t)(c & 0x7f) | (c & 1 ? GEN_CWR : 0);
	if (c & 0x40)
		gf->ack += 1000;
	g.ack = gf->ack;
	if (d & 1) {
		gen_opt_ts(&g, gf->tsval, 7);
		if (d & 2)
			gf->tsval++;
	}
	if (d & 4)
		gf->ipid++;
	else if (d & 8)
		gf->ipid += 7;
	g.ip_id = gf->ipid;
	g.df = !(d & 0x10);
	if (d & 0x20)
		g.ttl = 63;
	if ((d & 0xc0) == 0xc0) {
		g.bad_tcp_csum = (c & 2) != 0;
		g.bad_ip_csum = (c & 4) != 0;
		if (c & 8) {
			g.ip_opts[0] = 1;
			g.ip_opts[1] = 1;
			g.ip_opts[2] = 1;
			g.ip_opts[3] = 0;
			g.ip_optlen = 4;
		}
		if ((c & 0x10) && g.l3 == 6) {
			g.ext_nh = 60; /* destination options, 8 bytes */
			g.ext[0] = g.udp ? 17 : 6;
			g.ext[1] = 0;
			g.ext[2] = 1;
			g.ext[3] = 4;
			g.extlen = 8;
		}
		if (c & 0x20)
			g.pad_to = 60 + (c & 0x40 ? 40u : 0u);
	}
	n = gen_tcp_frame(&g, buf + 64, sizeof(buf) - 128);
	if (n && (s->tun || s->nodev) && (a & 0x80) && n < 9000) {
		/* in VXLAN or Geneve: outer family, checksum, VNI, source port
		 * and Geneve options from one more byte, per flow; with
		 * IP-in-IP and GRE on (and bit 0x40 of it when both are),
		 * IP-in-IP or GRE (its C, K bits and IP payload from the same
		 * bits) */
		static uint8_t inner[9100];
		struct gen_tun t;
		uint8_t e = fz_u8(z);
		bool nodev = s->nodev && (!s->tun || (e & 0x40));
		memcpy(inner, buf + 64, n);
		if (nodev)
			gen_tun_init(&t, e & 1 ? GEN_TUN_IPIP : GEN_TUN_GRE, e & 2 ? 6 : 4);
		else
			gen_tun_init(&t, e & 1 ? GEN_TUN_GENEVE : GEN_TUN_VXLAN, e & 2 ? 6 : 4);
		t.gre_flags = (uint16_t)((e & 4 ? GEN_GRE_C : 0u) | (e & 8 ? GEN_GRE_K : 0u));
		if (e & 32 && !(g.nvlan))
			t.gre_proto = g.l3 == 4 ? 0x0800 : 0x86dd;
		t.udp_csum = (e & 4) != 0;
		t.vni = 42u + (e & 8 ? fl : 0u);
		t.sport = (uint16_t)(40000u + (e & 16 ? fl : 0u));
		t.ip_id = gf->ipid;
		t.gnv_optlen = e & 32 ? 8 : 0;
		t.gnv_opts[3] = (uint8_t)(e >> 6);
		t.ttl = (uint8_t)(e & 0x80 ? 63 : 64);
		n = gen_tun_wrap(&t, inner, n, buf + 64, sizeof(buf) - 128);
	}
	if (n && s->cfg.dsa && !(d & 0x80 && c & 0x80)) {
		/* from a switch port: tag it as the switch would (RX layout) */
		struct ofl_dsa_meta m;
		uint32_t off = 64, len = (uint32_t)n;
		memset(&m, 0, sizeof(m));
		m.valid = OFL_DSA_M_PORT;
		m.port = (uint8_t)(fl & 1);
		if (ofl_dsa_encode(s->cfg.dsa, &s->cfg.dsa_params, OFL_DSA_RX, &m, buf, sizeof(buf), &off,
		                   &len) == 0) {
			feed(s, z, buf + off, len, false);
			return;
		}
	}
	if (n)
		feed(s, z, buf + 64, n, false);
}

static void misuse(struct st *s, struct fz *z)
{
	struct ofl_pkt p;
	struct ofl_buf b[2] = {{NULL, 10}, {NULL, 0}};
	unsigned got;
	int err = 0;
	/* cases 1 to 3: no buffers; a buffer of NULL data with length 10; a
	 * buffer count without buffers */
	static const struct {
		bool bufs;
		uint16_t nbufs;
	} bad[3] = {{true, 0}, {true, 1}, {false, 1}};
	unsigned c = fz_u8(z) % 5;
	memset(&p, 0, sizeof(p));
	switch (c) {
	case 0:
		FZ_CHECK(ofl_gro_receive(s->gro, NULL, s->now) == OFL_EINVAL);
		break;
	case 1:
	case 2:
	case 3:
		p.bufs = bad[c - 1].bufs ? b : NULL;
		p.nbufs = bad[c - 1].nbufs;
		FZ_CHECK(ofl_gro_receive(s->gro, &p, s->now) == OFL_EINVAL);
		break;
	default:
		got = ofl_gro_receive_burst(s->gro, NULL, 3, s->now, &err);
		FZ_CHECK(got == 0 && err == OFL_EINVAL);
		break;
	}
	s->api_errors++;
}

/* The end of a burst-mode run: the twin flushed too, the same deliveries
 * and counters (all but lookups, merged_fast and the refusals, which only
 * the context under test saw). */
static void burst_same_as_single(struct st *s, const struct ofl_gro_stats *g)
{
	struct ofl_gro_stats a = *g, b;
	FZ_CHECK(ofl_gro_flush(s->single) == 0);
	FZ_CHECK(ofl_gro_get_stats(s->single, &b, sizeof b) == 0);
	a.lookups = b.lookups = 0;
	a.lookup_probes = b.lookup_probes = 0;
	a.merged_fast = b.merged_fast = 0;
	a.api_errors = b.api_errors = 0;
	FZ_CHECKF(s->out_burst.n == s->out_single.n &&
	              (!s->out_burst.n || memcmp(s->out_burst.b, s->out_single.b, s->out_burst.n) == 0),
	          "bursts and single frames delivered differently (%zu vs %zu record bytes)",
	          s->out_burst.n, s->out_single.n);
	FZ_CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	ofl_gro_destroy(s->single);
	s->single = NULL;
	FZ_CHECK(s->mem1.live_bytes == 0 && s->mem1.frees == s->mem1.allocs);
	free(s->out_burst.b);
	free(s->out_single.b);
	memset(&s->out_burst, 0, sizeof(s->out_burst));
	memset(&s->out_single, 0, sizeof(s->out_single));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz z = {data, size};
	struct st *s;
	struct ofl_gro_stats g;
	unsigned i, k;
	uint64_t flushes = 0;
	size_t allocs_after_create;
	s = S = fz_state(S, sizeof(*S));
	memset(s, 0, offsetof(struct st, lin));
	fz_mem_init(&s->mem);
	FZ_CHECK(ofl_gro_config_default(&s->cfg) == 0);
	/* IP-in-IP and GRE (on by default since config version 6): as bit
	 * 0x10 of byte 8 says below */
	s->cfg.ipip = 0;
	s->cfg.gre = 0;
	{
		uint8_t b0 = fz_u8(&z), b1 = fz_u8(&z), b2 = fz_u8(&z), b3 = fz_u8(&z), b4 = fz_u8(&z);
		uint16_t ms = fz_u16(&z);
		uint8_t b7 = fz_u8(&z), b8, b9;
		s->cfg.max_flows = 1u + (b0 & 15);
		s->cfg.max_segs = (uint16_t)(1u + b1 % 80);
		s->cfg.max_bufs = (uint16_t)(1u + b2 % 17);
		s->cfg.normal_batch = (uint16_t)(1u + b3 % 16);
		s->cfg.flush_timeout_ns = b4 & 1 ? 0 : (uint64_t)(b4 >> 1) * 1000u;
		s->cfg.max_size = ms & 0x8000 ? 65535u : 1280u + (uint32_t)(ms % 128u) * 4096u;
		if (s->cfg.max_size > OFL_GRO_MAX_SIZE_LIMIT)
			s->cfg.max_size = OFL_GRO_MAX_SIZE_LIMIT;
		s->cfg.max_held_bytes = b7 == 255 ? 4u << 20 : (b7 + 1u) * 512u;
		if (b0 & 0x10)
			s->cfg.hash_key[0] = 1; /* a fixed key */
		if (b0 & 0x20) {
			static const unsigned sizes[4] = {64, 2, 5, 17};
			s->burst = true;
			s->bmax = sizes[b0 >> 6];
		}
		b8 = fz_u8(&z);
		b9 = fz_u8(&z);
		if (b8 & 0x40) {
			/* UDP GRO, port 53 never merged */
			s->cfg.udp = 1;
			s->cfg.udp_nports = 1;
			s->cfg.udp_no_merge_ports[0] = 53;
		}
		if (b8 & 0x20) {
			/* GRO through VXLAN and Geneve (tunnel.c) */
			s->tun = true;
			s->cfg.vxlan_nports = 1;
			s->cfg.vxlan_ports[0] = 4789;
			s->cfg.geneve_nports = 1;
			s->cfg.geneve_ports[0] = 6081;
		}
		if (b8 & 0x10) {
			/* GRO through IP-in-IP and GRE (tunnel.c, gre.c) */
			s->nodev = true;
			s->cfg.ipip = 1;
			s->cfg.gre = 1;
		}
		if ((b8 & 0x88) == 0x08)
			s->cfg.fraglist = 1; /* fraglist mode (list.c; not with a DSA format) */
		if (b8 & 0x80) {
			/* GRO through a DSA tag format */
			s->cfg.dsa = ofl_dsa_at(b9 % ofl_dsa_count());
			s->cfg.dsa_keep_tag = b8 & 1;
			s->cfg.dsa_params.flags = (b8 >> 1) & 3u;
		}
	}
	s->cfg.deliver = deliver;
	s->cfg.user = s;
	s->cfg.mem = &s->mem.mem;
	{
		int rc = ofl_gro_create(&s->cfg, &s->gro);
		if (rc != 0 && s->cfg.dsa) {
			/* a format GRO does not take (tail tag longer than it keeps) */
			FZ_CHECKF(rc == OFL_EINVAL, "create with %s: %d", s->cfg.dsa->name, rc);
			FZ_CHECK(s->mem.live_bytes == 0);
			s->cfg.dsa = NULL;
			rc = ofl_gro_create(&s->cfg, &s->gro);
		}
		FZ_CHECKF(rc == 0, "create: %d", rc);
	}
	if (s->burst) {
		/* the twin: the same configuration, its own allocator */
		struct ofl_gro_config c1 = s->cfg;
		fz_mem_init(&s->mem1);
		c1.deliver = deliver_single;
		c1.mem = &s->mem1.mem;
		FZ_CHECK(ofl_gro_create(&c1, &s->single) == 0);
	}
	allocs_after_create = s->mem.allocs;
	s->now = 1000000;
	for (k = 0; z.n && k < 4 * MAX_FRAMES && s->npk < MAX_FRAMES; k++) {
		uint8_t op = fz_u8(&z);
		uint64_t dl = 0;
		/* every operation but a frame or a misuse ends a burst */
		if (s->burst && op % 12 >= 7 && op % 12 <= 10)
			submit(s);
		switch (op % 12) {
		case 0: case 1: case 2:
			feed_raw(s, &z, op & 0x10);
			break;
		case 3: case 4: case 5: case 6:
			feed_gen(s, &z);
			break;
		case 7: {
			unsigned work = fz_u8(&z) % 4;
			FZ_CHECK(ofl_gro_poll_end(s->gro, work, s->now, op & 0x10 ? NULL : &dl) == 0);
			if (s->burst) {
				uint64_t d1 = 0;
				FZ_CHECK(ofl_gro_poll_end(s->single, work, s->now, &d1) == 0);
				FZ_CHECKF(op & 0x10 || d1 == dl, "poll end: deadline %llu, single frames %llu",
				          (unsigned long long)dl, (unsigned long long)d1);
			}
			if (s->cfg.flush_timeout_ns == 0 || work == 0) {
				FZ_CHECK(ofl_gro_get_stats(s->gro, &g, sizeof g) == 0 && g.flows_held == 0);
				FZ_CHECK(dl == 0);
			} else if (!(op & 0x10)) {
				FZ_CHECK(ofl_gro_get_stats(s->gro, &g, sizeof g) == 0);
				FZ_CHECK((dl != 0) == (g.flows_held != 0));
				if (dl)
					FZ_CHECK(dl > s->now - (s->now >= s->cfg.flush_timeout_ns ? s->cfg.flush_timeout_ns : s->now));
			}
			break;
		}
		case 8:
			s->now += (uint64_t)fz_u16(&z) * (op & 0x10 ? 1000u : 1u);
			break;
		case 9: {
			uint64_t age = (uint64_t)fz_u16(&z) * 100u;
			int n = ofl_gro_flush_older(s->gro, s->now, age);
			FZ_CHECK(n >= 0);
			if (s->burst)
				FZ_CHECK(ofl_gro_flush_older(s->single, s->now, age) == n);
			flushes++;
			break;
		}
		case 10:
			if (op & 0x10) {
				FZ_CHECK(ofl_gro_flush(s->gro) == 0);
				FZ_CHECK(!s->burst || ofl_gro_flush(s->single) == 0);
				FZ_CHECK(ofl_gro_get_stats(s->gro, &g, sizeof g) == 0);
				FZ_CHECK(g.flows_held == 0 && g.bytes_held == 0 && g.out_segs == g.rx_pkts);
			} else {
				s->reenter = 1;
			}
			break;
		default:
			misuse(s, &z);
			break;
		}
		check_stats(s);
	}
	(void)flushes;
	submit(s);
	FZ_CHECKF(s->mem.allocs == allocs_after_create, "allocated on the packet path: %zu -> %zu",
	          allocs_after_create, s->mem.allocs);
	s->reenter = 0;
	FZ_CHECK(ofl_gro_flush(s->gro) == 0);
	FZ_CHECK(ofl_gro_get_stats(s->gro, &g, sizeof g) == 0);
	if (s->burst)
		burst_same_as_single(s, &g);
	FZ_CHECK(g.flows_held == 0 && g.bytes_held == 0);
	FZ_CHECK(g.out_segs == g.rx_pkts && g.rx_pkts == s->npk);
	{
		uint64_t nf = 0, nn = 0;
		for (k = 0; k < OFL_GRO_FLUSH__COUNT; k++)
			nf += g.flush[k];
		for (k = 0; k < OFL_GRO_NORMAL__COUNT; k++)
			nn += g.normal_why[k];
		FZ_CHECK(nf == g.held && nf == g.out_gro_pkts);
		FZ_CHECK(nn == g.normal && g.out_pkts == g.out_gro_pkts + g.normal);
	}
	ofl_gro_destroy(s->gro);
	FZ_CHECK(s->mem.live_bytes == 0 && s->mem.frees == s->mem.allocs);
	for (i = 0; i < s->npk; i++) {
		FZ_CHECKF(s->pk[i].seen == 1, "cookie %u delivered %u times", i, s->pk[i].seen);
		for (k = 0; k < s->pk[i].nbufs; k++)
			free(s->pk[i].blk[k]);
		if (s->pk[i].uf != s->pk[i].frame)
			free(s->pk[i].uf);
		free(s->pk[i].frame);
	}
	return 0;
}
