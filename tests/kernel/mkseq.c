/*
 * mkseq.c - write the input captures of the kernel GRO fixtures.
 *
 *     mkseq OUTDIR            writes OUTDIR/<name>/IN.pcap for every sequence
 *     mkseq OUTDIR NAME...    only the named sequences
 *     mkseq -l                lists the names
 *     mkseq -t OUTDIR [NAME...]  the tunnel sequences instead (VXLAN, IP-in-IP; their
 *                             fixtures: tests/fixtures/kernel-tunnel,
 *                             make-fixtures.sh -t)
 *
 * Every sequence is our own synthetic traffic (tests/support/gen.c): classic
 * pcap, Ethernet, microsecond timestamps 1 us apart, fewer than 100 frames so
 * that the kernel oracle delivers it to GRO as one burst, every frame at most
 * 1514 bytes (the oracle's veth has MTU 1500).  tests/kernel/make-fixtures.sh
 * runs this and then the real kernel on each capture; the outputs are
 * committed under tests/fixtures/kernel/ and compared by
 * tests/kernel/kernel_fixture_test.c.
 *
 * Unless a sequence says otherwise: IPv4 10.0.0.1:1500 -> 10.0.0.2:8000,
 * DF, TTL 64, IP ID +1 per segment, window 501, ack 5000, TCP timestamps
 * (NOP, NOP, TS) constant, 1448-byte segments (1500-byte IP packets);
 * IPv6 fd00::1 -> fd00::2 with 1428-byte segments.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen.h"
#include "gen_tun.h"

#define MSS4 1448u
#define MSS6 1428u
/* VXLAN: inner IP + TCP with timestamps + 1388 = 1440 bytes, so that the
 * frame over IPv4 is 1504 bytes (a 1500-byte underlay MTU) */
#define TUN_MSS 1388u

static const char *outdir;
static FILE *pf;
static unsigned nframes;
static char cur[64];
static uint8_t frame[2048];

static void le16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void le32(uint8_t *p, uint32_t v)
{
	le16(p, (uint16_t)v);
	le16(p + 2, (uint16_t)(v >> 16));
}

static void die(const char *what)
{
	fprintf(stderr, "mkseq: %s: %s: %s\n", cur, what, strerror(errno));
	exit(1);
}

static void begin(const char *name)
{
	char path[1024];
	uint8_t gh[24];
	snprintf(cur, sizeof(cur), "%s", name);
	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	if (mkdir(path, 0777) != 0 && errno != EEXIST)
		die("mkdir");
	snprintf(path, sizeof(path), "%s/%s/IN.pcap", outdir, name);
	pf = fopen(path, "wb");
	if (!pf)
		die("open");
	le32(gh, 0xa1b2c3d4u);
	le16(gh + 4, 2);
	le16(gh + 6, 4);
	le32(gh + 8, 0);
	le32(gh + 12, 0);
	le32(gh + 16, 65535);
	le32(gh + 20, 1); /* LINKTYPE_ETHERNET */
	if (fwrite(gh, 1, sizeof(gh), pf) != sizeof(gh))
		die("write");
	nframes = 0;
}

static void emit_bytes(size_t n);

static void emit(const struct gen_tcp *g)
{
	emit_bytes(gen_tcp_frame(g, frame, sizeof(frame)));
}

/* The inner segment in, wrapped by t (VXLAN over IPv4). */
static void emit_tun(const struct gen_tcp *in, const struct gen_tun *t)
{
	static uint8_t inner[2048];
	size_t il = gen_tcp_frame(in, inner, sizeof(inner));
	emit_bytes(il ? gen_tun_wrap(t, inner, il, frame, sizeof(frame)) : 0);
}

/* Write the n bytes of frame as the next record. */
static void emit_bytes(size_t n)
{
	uint8_t rh[16];
	if (n == 0 || n > 1514) {
		fprintf(stderr, "mkseq: %s: frame %u has %zu bytes\n", cur, nframes, n);
		exit(1);
	}
	le32(rh, 1700000000u);
	le32(rh + 4, nframes);
	le32(rh + 8, (uint32_t)n);
	le32(rh + 12, (uint32_t)n);
	if (fwrite(rh, 1, sizeof(rh), pf) != sizeof(rh) || fwrite(frame, 1, n, pf) != n)
		die("write");
	nframes++;
}

static void end(void)
{
	if (fclose(pf) != 0)
		die("close");
	if (nframes >= 100) {
		fprintf(stderr, "mkseq: %s: %u frames (must stay under 100)\n", cur, nframes);
		exit(1);
	}
	printf("%s %u\n", cur, nframes);
}

/* Emit one segment and step to the next: seq += payload, IP ID + 1. */
static void seg(struct gen_tcp *g)
{
	emit(g);
	g->seq += g->payload_len;
	g->ip_id++;
}

static void segs(struct gen_tcp *g, unsigned n)
{
	while (n--)
		seg(g);
}

static void init4(struct gen_tcp *g)
{
	gen_tcp_init(g, 4);
	g->seq = 1000;
	g->ack = 5000;
	g->window = 501;
	g->ip_id = 100;
	gen_opt_ts(g, 7000, 9000);
	g->payload_len = MSS4;
}

static void init6(struct gen_tcp *g)
{
	gen_tcp_init(g, 6);
	g->seq = 1000;
	g->ack = 5000;
	g->window = 501;
	gen_opt_ts(g, 7000, 9000);
	g->payload_len = MSS6;
}

/* --- the sequences ------------------------------------------------------ */

/* TS value ticks every 4 segments (as a sender's clock would). */
static void s_ts_change(void)
{
	struct gen_tcp g;
	unsigned i;
	init4(&g);
	for (i = 0; i < 12; i++) {
		g.optlen = 0;
		gen_opt_ts(&g, 7000 + i / 4, 9000);
		seg(&g);
	}
}

/* Segments 6 and 7 swapped. */
static void s_out_of_order(void)
{
	struct gen_tcp g, g6;
	init4(&g);
	segs(&g, 5);
	g6 = g;
	g.seq += g.payload_len;
	g.ip_id++;
	seg(&g);
	emit(&g6);
	segs(&g, 5);
}

/* The 6th segment carries an IPv4 option (router alert). */
static void s_ip_options(void)
{
	static const uint8_t ra[4] = {0x94, 0x04, 0x00, 0x00};
	struct gen_tcp g;
	init4(&g);
	segs(&g, 5);
	memcpy(g.ip_opts, ra, 4);
	g.ip_optlen = 4;
	g.payload_len -= 4;
	seg(&g);
	g.ip_optlen = 0;
	g.payload_len = MSS4;
	segs(&g, 4);
}

/* The 6th segment is an IPv4 first fragment (MF). */
static void s_ip_fragment(void)
{
	struct gen_tcp g;
	init4(&g);
	segs(&g, 5);
	g.frag = 0x2000;
	g.df = false;
	seg(&g);
	g.frag = 0;
	g.df = true;
	segs(&g, 4);
}

/* All IP IDs equal (DF=1): fixed-ID mode merges. */
static void s_ipid_fixed(void)
{
	struct gen_tcp g;
	unsigned i;
	init4(&g);
	for (i = 0; i < 12; i++) {
		g.ip_id = 4242;
		seg(&g);
	}
}

/* IP IDs: 4 incrementing, 4 fixed, 4 incrementing. */
static void s_ipid_switch(void)
{
	struct gen_tcp g;
	unsigned i;
	init4(&g);
	segs(&g, 4);
	for (i = 0; i < 4; i++) {
		g.ip_id = 300;
		seg(&g);
	}
	g.ip_id = 400;
	segs(&g, 4);
}

/* DF=0 with fixed IP IDs (coalesced since the 2025 rule). */
static void s_ipid_df0_fixed(void)
{
	struct gen_tcp g;
	unsigned i;
	init4(&g);
	g.df = false;
	for (i = 0; i < 10; i++) {
		g.ip_id = 77;
		seg(&g);
	}
}

static void dstopts(struct gen_tcp *g, uint8_t v)
{
	/* Destination options: next header TCP, length 0 (8 bytes), one
	 * option of the experimental type 0x1e (skip if unknown), 4 bytes. */
	const uint8_t d[8] = {6, 0, 0x1e, 4, 0, 0, 0, v};
	memcpy(g->ext, d, 8);
	g->extlen = 8;
	g->ext_nh = 60;
	g->payload_len = MSS6 - 8;
}

/* The 6th segment is an IPv6 first fragment (fragment header, M=1). */
static void s_v6_fragment(void)
{
	static const uint8_t fh[8] = {6, 0, 0x00, 0x01, 0, 0, 0x12, 0x34};
	struct gen_tcp g;
	init6(&g);
	segs(&g, 5);
	memcpy(g.ext, fh, 8);
	g.extlen = 8;
	g.ext_nh = 44;
	g.payload_len = MSS6 - 8;
	seg(&g);
	g.extlen = 0;
	g.payload_len = MSS6;
	segs(&g, 4);
}

static void flow_of(struct gen_tcp *g, unsigned f, int l3)
{
	if (l3 == 4)
		init4(g);
	else
		init6(g);
	g->sport = (uint16_t)(40000 + f);
	g->flow_salt = f;
	g->seq = 1000 + 77777u * f;
	g->ip_id = (uint16_t)(1000 * f);
}

/* nflows IPv4 flows (at most 9), nseg segments each, interleaved round
 * robin. */
static void interleaved(unsigned nflows, unsigned nseg)
{
	struct gen_tcp g[9];
	unsigned f, i;
	for (f = 0; f < nflows; f++)
		flow_of(&g[f], f, 4);
	for (i = 0; i < nseg; i++)
		for (f = 0; f < nflows; f++)
			seg(&g[f]);
}

/* The same 63 frames as flows9, grouped flow by flow: what the kernel does
 * with it is what flows9 should give with a proper flow table. */
static void s_flows9_grouped(void)
{
	struct gen_tcp g;
	unsigned f;
	for (f = 0; f < 9; f++) {
		flow_of(&g, f, 4);
		segs(&g, 7);
	}
}

/* Data interleaved with the reverse direction's pure ACKs, and one
 * zero-payload duplicate ACK of the data flow itself after segment 6. */
static void s_pure_acks(void)
{
	struct gen_tcp g, r, d;
	unsigned i;
	init4(&g);
	gen_tcp_init(&r, 4);
	memcpy(r.saddr, g.daddr, 4);
	memcpy(r.daddr, g.saddr, 4);
	r.sport = 8000;
	r.dport = 1500;
	r.seq = 5000;
	r.ack = 1000;
	r.window = 2000;
	r.ip_id = 9000;
	r.payload_len = 0;
	gen_opt_ts(&r, 9000, 7000);
	for (i = 0; i < 12; i++) {
		seg(&g);
		if (i % 2 == 1) {
			r.ack = g.seq;
			seg(&r);
		}
		if (i == 5) {
			d = g;
			d.payload_len = 0;
			seg(&d);
			g.ip_id = d.ip_id;
		}
	}
}

/* 12 segments in an 802.1Q tag (VLAN 100). */
static void s_vlan(void)
{
	struct gen_tcp g;
	init4(&g);
	g.nvlan = 1;
	g.vlan_tpid[0] = 0x8100;
	g.vlan_tci[0] = 100;
	g.payload_len = MSS4 - 4;
	segs(&g, 12);
}

/* 100-byte segments without options and a 1-byte tail padded to 60. */
static void s_pad_tail(void)
{
	struct gen_tcp g;
	init4(&g);
	g.optlen = 0;
	g.payload_len = 100;
	segs(&g, 4);
	g.payload_len = 1;
	g.pad_to = 60;
	seg(&g);
}

/* IP length shorter than the frame (Ethernet padding of minimum-size frames,
 * trailing bytes) or longer than it, in the middle of a flow: the kernel's
 * inet_gro_receive / ipv6_gro_receive compare the length field with the GRO
 * length. */

/* 100-byte segments, a 1-byte one padded to 60 mid-stream, 100-byte ones. */
static void s_pad_v4_mid(void)
{
	struct gen_tcp g;
	init4(&g);
	g.optlen = 0;
	g.payload_len = 100;
	segs(&g, 4);
	g.payload_len = 1;
	g.pad_to = 60;
	seg(&g);
	g.payload_len = 100;
	g.pad_to = 0;
	segs(&g, 4);
}

/* 5-byte segments, every frame padded to 60 (one byte of padding each). */
static void s_pad_v4_each(void)
{
	struct gen_tcp g;
	init4(&g);
	g.optlen = 0;
	g.payload_len = 5;
	g.pad_to = 60;
	segs(&g, 6);
}

/* The IPv6 twin: a full segment with 4 bytes after the payload_len mid-stream
 * (1400-byte segments: the frame with the extra bytes stays within 1514). */
static void s_pad_v6_mid(void)
{
	struct gen_tcp g;
	init6(&g);
	g.payload_len = 1400;
	segs(&g, 4);
	g.pad_to = (uint32_t)gen_tcp_len(&g) + 4;
	seg(&g);
	g.pad_to = 0;
	segs(&g, 4);
}

/* The IP length (IPv4 total length, IPv6 payload length) 8 bytes longer
 * than the frame, mid-stream. */
/* A SYN-less mid-stream RST after 4 segments, then 4 more. */
static void s_rst_mid(void)
{
	struct gen_tcp g, r;
	init4(&g);
	segs(&g, 4);
	r = g;
	r.flags = GEN_RST | GEN_ACK;
	r.payload_len = 0;
	seg(&r);
	g.ip_id = r.ip_id;
	segs(&g, 4);
}

/* An IPv4 and an IPv6 flow interleaved. */
static void s_mixed_v4_v6(void)
{
	struct gen_tcp g[2];
	unsigned i;
	flow_of(&g[0], 0, 4);
	flow_of(&g[1], 1, 6);
	for (i = 0; i < 12; i++) {
		seg(&g[0]);
		seg(&g[1]);
	}
}

/* The 4th segment is sent again after the 6th (a retransmission). */
static void s_dup_segment(void)
{
	struct gen_tcp g, r;
	init4(&g);
	segs(&g, 3);
	r = g;
	segs(&g, 3);
	r.ip_id = g.ip_id++;
	emit(&r);
	segs(&g, 5);
}

/* Connection start: SYN, then data. */
static void s_syn_data(void)
{
	struct gen_tcp g, s;
	init4(&g);
	s = g;
	s.flags = GEN_SYN;
	s.seq = g.seq - 1;
	s.ack = 0;
	s.payload_len = 0;
	emit(&s);
	g.ip_id++;
	segs(&g, 8);
}

/* A SACK block appears from the 6th segment on (option length changes). */
static void s_sack_mid(void)
{
	static const uint8_t sack[12] = {1, 1, 5, 10, 0, 0, 0x40, 0, 0, 0, 0x50, 0};
	struct gen_tcp g;
	init4(&g);
	g.payload_len = MSS4 - 12;
	segs(&g, 5);
	memcpy(g.opts + g.optlen, sack, 12);
	g.optlen = (uint8_t)(g.optlen + 12);
	segs(&g, 5);
}

/* Small interactive writes: PSH on every segment. */
static void s_psh_each(void)
{
	struct gen_tcp g;
	init4(&g);
	g.payload_len = 200;
	g.flags |= GEN_PSH;
	segs(&g, 6);
}

/* A raw frame of our own (not TCP): written as is. */
static void emit_raw(const uint8_t *f, size_t n)
{
	uint8_t rh[16];
	le32(rh, 1700000000u);
	le32(rh + 4, nframes);
	le32(rh + 8, (uint32_t)n);
	le32(rh + 12, (uint32_t)n);
	if (fwrite(rh, 1, sizeof(rh), pf) != sizeof(rh) || fwrite(f, 1, n, pf) != n)
		die("write");
	nframes++;
}

static void put16be(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }

/* IPv4 UDP datagram 10.0.0.1:5000 -> 10.0.0.2:6000 with a valid checksum. */
static size_t udp4(uint8_t *f, uint16_t id, uint16_t len)
{
	static const uint8_t mac[12] = {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1};
	uint8_t *ip = f + 14, *u = f + 34;
	uint32_t sum;
	unsigned i;
	memset(f, 0, 42u + len);
	memcpy(f, mac, 12);
	put16be(f + 12, 0x0800);
	ip[0] = 0x45;
	put16be(ip + 2, (uint16_t)(28 + len));
	put16be(ip + 4, id);
	put16be(ip + 6, 0x4000);
	ip[8] = 64;
	ip[9] = 17;
	ip[12] = 10, ip[15] = 1;
	ip[16] = 10, ip[19] = 2;
	put16be(ip + 10, (uint16_t)~gen_csum_fold(ip, 20, 0));
	put16be(u, 5000);
	put16be(u + 2, 6000);
	put16be(u + 4, (uint16_t)(8 + len));
	for (i = 0; i < len; i++)
		u[8 + i] = (uint8_t)(i * 7 + id);
	sum = gen_csum_fold(ip + 12, 8, 0) + 17 + 8u + len;
	put16be(u + 6, (uint16_t)~gen_csum_fold(u, 8u + len, sum));
	return 42u + len;
}

/* A TCP flow interleaved with UDP datagrams and an ARP request. */
static void s_udp_arp_mixed(void)
{
	static const uint8_t arp[42] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 1, 0x08, 0x06,
		0, 1, 0x08, 0, 6, 4, 0, 1, 2, 0, 0, 0, 0, 1, 10, 0, 0, 1,
		0, 0, 0, 0, 0, 0, 10, 0, 0, 9};
	struct gen_tcp g;
	uint8_t f[512];
	unsigned i;
	init4(&g);
	for (i = 0; i < 10; i++) {
		seg(&g);
		if (i % 2 == 0)
			emit_raw(f, udp4(f, (uint16_t)(500 + i), 200));
		if (i == 5)
			emit_raw(arp, sizeof(arp));
	}
}


/* --- UDP GRO (names udpgro_*: the oracle runs with rx-udp-gro-forwarding
 * on and no UDP socket, the test with ofl_gro_config.udp 1) -------------- */

/* UDP 10.0.0.1:40000 -> 10.0.0.2:443 (fd00::1 / fd00::2), DF, TTL 64, IP ID
 * +1 per datagram, payload bytes named by seq. */
static void initu(struct gen_tcp *g, int l3, uint32_t len)
{
	gen_tcp_init(g, l3);
	g->udp = true;
	g->sport = 40000;
	g->dport = 443;
	g->seq = 1000;
	g->ip_id = 100;
	g->payload_len = len;
}

/* A 4-byte datagram in a minimum-size frame (Ethernet padding) mid-train. */
static void s_udpgro_padded_mid(void)
{
	struct gen_tcp g;
	initu(&g, 4, 200);
	segs(&g, 4);
	g.payload_len = 4;
	g.pad_to = 60;
	seg(&g);
	g.payload_len = 200;
	g.pad_to = 0;
	segs(&g, 4);
}

/* Two flows (source ports) interleaved, and a TCP flow of the same
 * addresses and ports as the first. */
static void s_udpgro_flows_tcp(void)
{
	struct gen_tcp a, b, t;
	unsigned i;
	initu(&a, 4, 1000);
	initu(&b, 4, 1000);
	b.sport = 40001;
	b.flow_salt = 1;
	init4(&t);
	t.sport = 40000;
	t.dport = 443;
	t.payload_len = 1000;
	for (i = 0; i < 6; i++) {
		seg(&a);
		seg(&b);
		seg(&t);
	}
}

/* --- the sequences of one flow that one change makes, as a table ------- */

/* A change to the next segments of a flow. */
enum what {
	W_NONE,
	W_FLAG_SET,    /* TCP flags v set */
	W_FLAG_CLR,    /* TCP flags v cleared */
	W_WINDOW,      /* receive window v */
	W_ACK_ADD,     /* acknowledgment number + v */
	W_SEQ_SKIP,    /* one segment's worth of sequence numbers skipped */
	W_IPID_ADD,    /* IPv4 ID + v */
	W_TTL,         /* TTL / hop limit v */
	W_TOS,         /* TOS / traffic class v */
	W_PAYLOAD,     /* payload of v bytes */
	W_BAD_L4_CSUM, /* TCP / UDP checksum wrong (v 1) or right (v 0) */
	W_BAD_IP_CSUM, /* IPv4 header checksum wrong (v 1) or right (v 0) */
	W_ZERO_CSUM,   /* UDP checksum 0, none sent (v 1) */
	W_IP_LEN,      /* v added to the IP length field */
	W_UDP_LEN,     /* v added to the UDP length field */
	W_FLOWLABEL,   /* IPv6 flow label v */
	W_DSTOPT,      /* an IPv6 destination options header with value v (dstopts) */
};

struct change {
	enum what what;
	int32_t v;
};

static void apply(struct gen_tcp *g, struct change c)
{
	switch (c.what) {
	case W_NONE: break;
	case W_FLAG_SET: g->flags |= (uint8_t)c.v; break;
	case W_FLAG_CLR: g->flags &= (uint8_t)~c.v; break;
	case W_WINDOW: g->window = (uint16_t)c.v; break;
	case W_ACK_ADD: g->ack += (uint32_t)c.v; break;
	case W_SEQ_SKIP: g->seq += g->payload_len; break;
	case W_IPID_ADD: g->ip_id = (uint16_t)(g->ip_id + c.v); break;
	case W_TTL: g->ttl = (uint8_t)c.v; break;
	case W_TOS: g->tos = (uint8_t)c.v; break;
	case W_PAYLOAD: g->payload_len = (uint32_t)c.v; break;
	case W_BAD_L4_CSUM: g->bad_tcp_csum = c.v != 0; break;
	case W_BAD_IP_CSUM: g->bad_ip_csum = c.v != 0; break;
	case W_ZERO_CSUM: g->udp_zero_csum = c.v != 0; break;
	case W_IP_LEN: g->ip_len_delta = (uint32_t)c.v; break;
	case W_UDP_LEN: g->udp_len_delta = c.v; break;
	case W_FLOWLABEL: g->flowlabel = (uint32_t)c.v; break;
	case W_DSTOPT: dstopts(g, (uint8_t)c.v); break;
	}
}

/* One flow ('4', '6': TCP as init4/init6 make it; 'u', 'U': UDP over IPv4
 * / IPv6 as initu makes it, datagrams of plen bytes) changed by first,
 * then before segments, the change, changed segments, the undo (W_NONE:
 * none), after segments. */
struct step {
	char flow;
	unsigned flows; /* when not 0: that many IPv4 flows interleaved, before
	                   segments each (interleaved()), nothing else */
	uint32_t plen;
	struct change first;
	unsigned before;
	struct change change;
	unsigned changed;
	struct change undo;
	unsigned after;
};

static void run_step(const struct step *st)
{
	struct gen_tcp g;
	if (st->flows) {
		interleaved(st->flows, st->before);
		return;
	}
	if (st->flow == '4')
		init4(&g);
	else if (st->flow == '6')
		init6(&g);
	else
		initu(&g, st->flow == 'u' ? 4 : 6, st->plen);
	apply(&g, st->first);
	segs(&g, st->before);
	apply(&g, st->change);
	segs(&g, st->changed);
	apply(&g, st->undo);
	segs(&g, st->after);
}

/* Every sequence: a function, or (fn NULL) a step. */
struct seq {
	const char *name;
	void (*fn)(void);
	struct step step;
};

static const struct seq seqs[] = {
	/* 90 in-order segments, PSH on the last: 64 KiB limit and poll boundary. */
	{"bulk_v4", .step = {.flow = '4', .before = 89, .change = {W_FLAG_SET, GEN_PSH},
	                     .after = 1}},
	{"bulk_v6", .step = {.flow = '6', .before = 89, .change = {W_FLAG_SET, GEN_PSH},
	                     .after = 1}},
	/* 12 segments, PSH on the 5th. */
	{"psh_mid", .step = {.flow = '4', .before = 4, .change = {W_FLAG_SET, GEN_PSH}, .changed = 1,
	                     .undo = {W_FLAG_CLR, GEN_PSH}, .after = 7}},
	/* Receive window changes from the 6th segment on. */
	{"window_change", .step = {.flow = '4', .before = 5, .change = {W_WINDOW, 509},
	                           .after = 7}},
	/* Acknowledgment number advances from the 6th segment on. */
	{"ack_change", .step = {.flow = '4', .before = 5, .change = {W_ACK_ADD, 1000}, .after = 7}},
	{"ts_change", .fn = s_ts_change},
	/* The 6th segment is lost: sequence gap. */
	{"seq_gap", .step = {.flow = '4', .before = 5, .change = {W_SEQ_SKIP, 0}, .after = 6}},
	{"out_of_order", .fn = s_out_of_order},
	/* The 6th segment has a bad TCP checksum. */
	{"bad_tcp_csum", .step = {.flow = '4', .before = 5, .change = {W_BAD_L4_CSUM, 1},
	                          .changed = 1, .undo = {W_BAD_L4_CSUM, 0}, .after = 4}},
	/* The 6th segment has a bad IPv4 header checksum. */
	{"bad_ip_csum", .step = {.flow = '4', .before = 5, .change = {W_BAD_IP_CSUM, 1},
	                         .changed = 1, .undo = {W_BAD_IP_CSUM, 0}, .after = 4}},
	{"ip_options", .fn = s_ip_options},
	{"ip_fragment", .fn = s_ip_fragment},
	{"ipid_fixed", .fn = s_ipid_fixed},
	{"ipid_switch", .fn = s_ipid_switch},
	{"ipid_df0_fixed", .fn = s_ipid_df0_fixed},
	/* TTL changes from the 6th segment on. */
	{"ttl_change", .step = {.flow = '4', .before = 5, .change = {W_TTL, 63}, .after = 5}},
	/* ECT(0) traffic, the 6th segment marked CE. */
	{"tos_ecn", .step = {.flow = '4', .first = {W_TOS, 0x02}, .before = 5,
	                     .change = {W_TOS, 0x03}, .changed = 1, .undo = {W_TOS, 0x02},
	                     .after = 4}},
	/* DSCP changes (AF11 -> CS0) from the 6th segment on. */
	{"tos_dscp", .step = {.flow = '4', .first = {W_TOS, 0x28}, .before = 5, .change = {W_TOS, 0},
	                      .after = 5}},
	/* IPv6 traffic class changes from the 6th segment on. */
	{"v6_tclass", .step = {.flow = '6', .before = 5, .change = {W_TOS, 0xb8}, .after = 5}},
	/* IPv6 hop limit changes from the 6th segment on. */
	{"v6_hoplimit", .step = {.flow = '6', .before = 5, .change = {W_TTL, 63}, .after = 5}},
	/* IPv6 flow label changes from the 6th segment on (a different flow). */
	{"v6_flowlabel", .step = {.flow = '6', .first = {W_FLOWLABEL, 0x12345}, .before = 5,
	                          .change = {W_FLOWLABEL, 0x54321}, .after = 5}},
	/* Identical destination options header on every segment. */
	{"v6_ext_same", .step = {.flow = '6', .first = {W_DSTOPT, 1}, .before = 10}},
	/* The destination option's value changes from the 6th segment on. */
	{"v6_ext_diff", .step = {.flow = '6', .first = {W_DSTOPT, 1}, .before = 5,
	                         .change = {W_DSTOPT, 2}, .after = 5}},
	{"v6_fragment", .fn = s_v6_fragment},
	/* 4 flows, 12 segments each, interleaved round robin. */
	{"flows4", .step = {.flow = '4', .flows = 4, .before = 12}},
	/* 9 flows, 7 segments each, interleaved: more flows than the kernel's
	 * one-bucket, 8-packet limit on this veth. */
	{"flows9", .step = {.flow = '4', .flows = 9, .before = 7}},
	{"flows9_grouped", .fn = s_flows9_grouped},
	{"pure_acks", .fn = s_pure_acks},
	/* 3 segments, 3 with CWR, 3 without. */
	{"cwr", .step = {.flow = '4', .before = 3, .change = {W_FLAG_SET, GEN_CWR}, .changed = 3,
	                 .undo = {W_FLAG_CLR, GEN_CWR}, .after = 3}},
	/* 6 full segments, a 500-byte one, 6 full ones. */
	{"small_tail", .step = {.flow = '4', .before = 6, .change = {W_PAYLOAD, 500}, .changed = 1,
	                        .undo = {W_PAYLOAD, MSS4}, .after = 6}},
	/* 45 x 1448 + 323 bytes: the merged IP packet is exactly 65535 bytes. */
	{"boundary64k_fit", .step = {.flow = '4', .before = 45,
	                             .change = {W_PAYLOAD, 65535 - 52 - 45 * MSS4}, .after = 1}},
	/* 45 x 1448 + 324 bytes: one byte too many, the tail stays alone. */
	{"boundary64k_over", .step = {.flow = '4', .before = 45,
	                              .change = {W_PAYLOAD, 65536 - 52 - 45 * MSS4}, .after = 1}},
	{"vlan", .fn = s_vlan},
	/* The same traffic untagged (what vlan should merge like). */
	{"vlan_untagged", .step = {.flow = '4', .change = {W_PAYLOAD, MSS4 - 4}, .after = 12}},
	/* 8 segments, the last with FIN (and data). */
	{"fin_end", .step = {.flow = '4', .before = 7, .change = {W_FLAG_SET, GEN_FIN},
	                     .after = 1}},
	{"pad_tail", .fn = s_pad_tail},
	{"pad_v4_mid", .fn = s_pad_v4_mid},
	{"pad_v4_each", .fn = s_pad_v4_each},
	{"pad_v6_mid", .fn = s_pad_v6_mid},
	/* IP length 8 bytes past the frame on the 5th segment */
	{"len_v4_long", .step = {.flow = '4', .before = 4, .change = {W_IP_LEN, 8}, .changed = 1,
	                         .undo = {W_IP_LEN, 0}, .after = 4}},
	/* IP length 8 bytes past the frame on the 5th segment */
	{"len_v6_long", .step = {.flow = '6', .before = 4, .change = {W_IP_LEN, 8}, .changed = 1,
	                         .undo = {W_IP_LEN, 0}, .after = 4}},
	{"rst_mid", .fn = s_rst_mid},
	/* Exactly 8 interleaved flows: the most the kernel's one bucket holds. */
	{"flows8", .step = {.flow = '4', .flows = 8, .before = 8}},
	{"mixed_v4_v6", .fn = s_mixed_v4_v6},
	{"dup_segment", .fn = s_dup_segment},
	{"syn_data", .fn = s_syn_data},
	/* ECE on every segment (an ECN echo in progress): merges. */
	{"ece_all", .step = {.flow = '4', .change = {W_FLAG_SET, GEN_ECE}, .after = 10}},
	{"sack_mid", .fn = s_sack_mid},
	/* URG (with data) on the 5th segment. */
	{"urg_mid", .step = {.flow = '4', .before = 4, .change = {W_FLAG_SET, GEN_URG}, .changed = 1,
	                     .undo = {W_FLAG_CLR, GEN_URG}, .after = 4}},
	{"psh_each", .fn = s_psh_each},
	{"udp_arp_mixed", .fn = s_udp_arp_mixed},
	/* 80 datagrams of 1000 bytes: 64 per train (UDP_GRO_CNT_MAX), poll ends. */
	{"udpgro_bulk_v4", .step = {.flow = 'u', .plen = 1000, .before = 80}},
	/* 60 datagrams of 1400 bytes over IPv6: the 64 KiB limit (46 fit). */
	{"udpgro_bulk_v6", .step = {.flow = 'U', .plen = 1400, .before = 60}},
	/* A shorter datagram is merged and ends the train. */
	{"udpgro_short_mid", .step = {.flow = 'u', .plen = 1000, .before = 5,
	                              .change = {W_PAYLOAD, 300}, .changed = 1,
	                              .undo = {W_PAYLOAD, 1000}, .after = 4}},
	/* A larger datagram than the first is not merged: it starts a train. */
	{"udpgro_larger", .step = {.flow = 'U', .plen = 500, .before = 3,
	                           .change = {W_PAYLOAD, 1000}, .after = 4}},
	/* Zero checksum (none sent) on the 5th datagram. */
	{"udpgro_zero_csum_mid", .step = {.flow = 'u', .plen = 1000, .before = 4,
	                                  .change = {W_ZERO_CSUM, 1}, .changed = 1,
	                                  .undo = {W_ZERO_CSUM, 0}, .after = 4}},
	/* Every datagram without a checksum: nothing merged. */
	{"udpgro_zero_csum_all", .step = {.flow = 'u', .plen = 1000, .change = {W_ZERO_CSUM, 1},
	                                  .after = 6}},
	/* A bad UDP checksum on the 5th datagram. */
	{"udpgro_bad_csum_mid", .step = {.flow = 'U', .plen = 1000, .before = 4,
	                                 .change = {W_BAD_L4_CSUM, 1}, .changed = 1,
	                                 .undo = {W_BAD_L4_CSUM, 0}, .after = 4}},
	/* The 5th datagram's UDP length is one byte short of the datagram (its checksum valid
	 * over the bytes sent). */
	{"udpgro_len_mid", .step = {.flow = 'u', .plen = 1000, .before = 4,
	                            .change = {W_UDP_LEN, -1}, .changed = 1, .undo = {W_UDP_LEN, 0},
	                            .after = 4}},
	{"udpgro_padded_mid", .fn = s_udpgro_padded_mid},
	/* TTL changes from the 5th datagram on (the IP rules of TCP). */
	{"udpgro_ttl", .step = {.flow = 'u', .plen = 1000, .before = 4, .change = {W_TTL, 63},
	                        .after = 4}},
	/* The IPv4 ID jumps on the 5th datagram. */
	{"udpgro_ipid_jump", .step = {.flow = 'u', .plen = 1000, .before = 4,
	                              .change = {W_IPID_ADD, 10}, .after = 4}},
	/* The IPv6 traffic class changes on the 5th datagram. */
	{"udpgro_v6_tclass", .step = {.flow = 'U', .plen = 1000, .before = 4,
	                              .change = {W_TOS, 0x20}, .after = 4}},
	{"udpgro_flows_tcp", .fn = s_udpgro_flows_tcp},
	/* Datagrams of 1 byte, then a UDP length of 8 (no payload). */
	{"udpgro_tiny", .step = {.flow = 'U', .plen = 1, .before = 5, .change = {W_PAYLOAD, 0},
	                         .after = 2}},
};

/* --- VXLAN (mkseq -t) ---------------------------------------------------- */

/* n segments: sequence numbers and both IPv4 IDs advance */
static void tsegs(struct gen_tcp *in, struct gen_tun *t, unsigned n)
{
	while (n--) {
		emit_tun(in, t);
		in->seq += in->payload_len;
		in->ip_id++;
		t->ip_id++;
	}
}

static void tinit(struct gen_tcp *in, struct gen_tun *t, int outer, int inner)
{
	gen_tcp_init(in, inner);
	in->seq = 1000;
	in->ack = 5000;
	in->window = 501;
	in->ip_id = 100;
	gen_opt_ts(in, 7000, 9000);
	in->payload_len = inner == 4 ? TUN_MSS : TUN_MSS - 20u;
	gen_tun_init(t, GEN_TUN_VXLAN, outer);
	t->ip_id = 3000;
}


#define BULK(fn, o, i)                                                                             \
	static void fn(void)                                                                       \
	{                                                                                          \
		struct gen_tcp in;                                                                 \
		struct gen_tun t;                                                                  \
		tinit(&in, &t, o, i);                                                               \
		tsegs(&in, &t, 30);                                                                 \
	}
BULK(s_bulk_4in4, 4, 4)
BULK(s_bulk_6in4, 4, 6)
#undef BULK

/* a change of one field at the 11th of 20 segments */
#define CHANGE_AT_11(fn, stmt)                                                                     \
	static void fn(void)                                                                       \
	{                                                                                          \
		struct gen_tcp in;                                                                 \
		struct gen_tun t;                                                                  \
		tinit(&in, &t, 4, 4);                                                               \
		tsegs(&in, &t, 10);                                                                 \
		stmt;                                                                              \
		tsegs(&in, &t, 10);                                                                 \
	}
CHANGE_AT_11(s_outer_ttl, t.ttl = 63)
CHANGE_AT_11(s_outer_tos, t.tos = 0x10)
CHANGE_AT_11(s_outer_df, t.df = false)
CHANGE_AT_11(s_outer_ipid_jump, t.ip_id = (uint16_t)(t.ip_id + 7))
CHANGE_AT_11(s_outer_sport, t.sport = 40001)
CHANGE_AT_11(s_vni, t.vni = 43)
CHANGE_AT_11(s_inner_psh, in.flags |= GEN_PSH)
CHANGE_AT_11(s_inner_seq_gap, in.seq += 1)
CHANGE_AT_11(s_outer_csum_on, t.udp_csum = true)
#undef CHANGE_AT_11

static void s_outer_ipid_fixed(void)
{
	struct gen_tcp in;
	struct gen_tun t;
	unsigned k;
	tinit(&in, &t, 4, 4);
	for (k = 0; k < 20; k++) {
		emit_tun(&in, &t);
		in.seq += in.payload_len;
		in.ip_id++;
	}
}

static void s_outer_csum(void)
{
	struct gen_tcp in;
	struct gen_tun t;
	tinit(&in, &t, 4, 4);
	t.udp_csum = true;
	tsegs(&in, &t, 20);
}

static void s_vni_interleaved(void)
{
	struct gen_tcp in, in2;
	struct gen_tun t, t2;
	unsigned k;
	tinit(&in, &t, 4, 4);
	tinit(&in2, &t2, 4, 4);
	t2.vni = 43;
	for (k = 0; k < 20; k++) {
		tsegs(&in, &t, 1);
		tsegs(&in2, &t2, 1);
	}
}

/* 60 segments: the 64 KiB limit on the outer IP packet */
static void s_limit64k(void)
{
	struct gen_tcp in;
	struct gen_tun t;
	tinit(&in, &t, 4, 4);
	tsegs(&in, &t, 60);
}

static void s_other_port(void)
{
	struct gen_tcp in;
	struct gen_tun t;
	tinit(&in, &t, 4, 4);
	t.dport = 4790;
	tsegs(&in, &t, 10);
}

/* Through a tunnel of no device (the kernel's IP-in-IP, SIT, ip6ip6 and GRE
 * GRO are built in): 10 segments after pre, a change (stmt), 10 more */
#define NODEV(fn, type_, o, i, pre, stmt)                                                          \
	static void fn(void)                                                                       \
	{                                                                                          \
		struct gen_tcp in;                                                                 \
		struct gen_tun t;                                                                  \
		tinit(&in, &t, o, i);                                                              \
		t.type = type_;                                                                    \
		pre;                                                                               \
		tsegs(&in, &t, 10);                                                                \
		stmt;                                                                              \
		tsegs(&in, &t, 10);                                                                \
	}
/* IP-in-IP: 4in4, 6in4 (SIT), 4in6, 6in6 */
#define IPIP(fn, o, i, stmt) NODEV(fn, GEN_TUN_IPIP, o, i, (void)0, stmt)
IPIP(s_ipip_4in4, 4, 4, (void)0)
IPIP(s_ipip_6in4, 4, 6, (void)0)
IPIP(s_ipip_4in6, 6, 4, (void)0)
IPIP(s_ipip_6in6, 6, 6, (void)0)
IPIP(s_ipip_outer_ttl, 4, 4, t.ttl = 63)
IPIP(s_ipip_outer_ipid_jump, 4, 4, t.ip_id = (uint16_t)(t.ip_id + 7))
IPIP(s_ipip_6in6_hoplimit, 6, 6, t.ttl = 63)
#undef IPIP

/* GRE: payload type Ethernet (teb) or IP */
#define GRE(fn, o, i, pre, stmt) NODEV(fn, GEN_TUN_GRE, o, i, pre, stmt)
#define GRE_IP (t.gre_proto = in.l3 == 4 ? 0x0800 : 0x86dd)
GRE(s_gre_teb_4in4, 4, 4, (void)0, (void)0)
GRE(s_gre_teb_6in6, 6, 6, (void)0, (void)0)
GRE(s_gre_ip_4in4, 4, 4, GRE_IP, (void)0)
GRE(s_gre_ip_6in4, 4, 6, GRE_IP, (void)0)
GRE(s_gre_ip_4in6, 6, 4, GRE_IP, (void)0)
GRE(s_gre_ip_6in6, 6, 6, GRE_IP, (void)0)
GRE(s_gre_key, 4, 4, t.gre_flags = GEN_GRE_K, (void)0)
GRE(s_gre_key_change, 4, 4, t.gre_flags = GEN_GRE_K, t.gre_key = 43)
GRE(s_gre_csum, 4, 4, t.gre_flags = GEN_GRE_C, (void)0)
GRE(s_gre_csum_key_6in6, 6, 6, (GRE_IP, t.gre_flags = GEN_GRE_C | GEN_GRE_K), (void)0)
GRE(s_gre_csum_added, 4, 4, (void)0, t.gre_flags = GEN_GRE_C)
GRE(s_gre_seq, 4, 4, t.gre_flags = GEN_GRE_S, (void)0)
GRE(s_gre_ver1, 4, 4, t.gre_flags = 1, (void)0)
GRE(s_gre_routing, 4, 4, t.gre_flags = GEN_GRE_R, (void)0)
GRE(s_gre_erspan, 4, 4, t.gre_proto = 0x88be, (void)0)
GRE(s_gre_outer_ttl, 4, 4, (void)0, t.ttl = 63)
GRE(s_gre_outer_ipid_jump, 4, 4, (void)0, t.ip_id = (uint16_t)(t.ip_id + 7))
GRE(s_gre_inner_seq_gap, 4, 4, t.gre_flags = GEN_GRE_K, in.seq += 1)
#undef GRE
#undef NODEV
#undef GRE_IP

/* A bad GRE checksum on a flow's first segment: passed on, the rest merged
 * (a later one would make the kernel deliver it before the packet it still
 * holds, which we complete first) */
static void s_gre_bad_csum_first(void)
{
	struct gen_tcp in;
	struct gen_tun t;
	tinit(&in, &t, 4, 4);
	t.type = GEN_TUN_GRE;
	t.gre_flags = GEN_GRE_C;
	t.bad_gre_csum = true;
	tsegs(&in, &t, 1);
	t.bad_gre_csum = false;
	tsegs(&in, &t, 19);
}

/* 60 segments through GRE: the 64 KiB limit */
static void s_gre_limit64k(void)
{
	struct gen_tcp in;
	struct gen_tun t;
	tinit(&in, &t, 4, 4);
	t.type = GEN_TUN_GRE;
	t.gre_flags = GEN_GRE_C | GEN_GRE_K;
	tsegs(&in, &t, 60);
}

static const struct seq tun_seqs[] = {
	{"vxlan_bulk_4in4", .fn = s_bulk_4in4},
	{"vxlan_bulk_6in4", .fn = s_bulk_6in4},
	{"vxlan_outer_ttl", .fn = s_outer_ttl},
	{"vxlan_outer_tos", .fn = s_outer_tos},
	{"vxlan_outer_df", .fn = s_outer_df},
	{"vxlan_outer_ipid_jump", .fn = s_outer_ipid_jump},
	{"vxlan_outer_ipid_fixed", .fn = s_outer_ipid_fixed},
	{"vxlan_outer_sport", .fn = s_outer_sport},
	{"vxlan_outer_csum", .fn = s_outer_csum},
	{"vxlan_outer_csum_on", .fn = s_outer_csum_on},
	{"vxlan_vni", .fn = s_vni},
	{"vxlan_vni_interleaved", .fn = s_vni_interleaved},
	{"vxlan_inner_psh", .fn = s_inner_psh},
	{"vxlan_inner_seq_gap", .fn = s_inner_seq_gap},
	{"vxlan_limit64k", .fn = s_limit64k},
	{"vxlan_other_port", .fn = s_other_port},
	{"ipip_4in4", .fn = s_ipip_4in4},
	{"ipip_6in4", .fn = s_ipip_6in4},
	{"ipip_4in6", .fn = s_ipip_4in6},
	{"ipip_6in6", .fn = s_ipip_6in6},
	{"ipip_outer_ttl", .fn = s_ipip_outer_ttl},
	{"ipip_outer_ipid_jump", .fn = s_ipip_outer_ipid_jump},
	{"ipip_6in6_hoplimit", .fn = s_ipip_6in6_hoplimit},
	{"gre_teb_4in4", .fn = s_gre_teb_4in4},
	{"gre_teb_6in6", .fn = s_gre_teb_6in6},
	{"gre_ip_4in4", .fn = s_gre_ip_4in4},
	{"gre_ip_6in4", .fn = s_gre_ip_6in4},
	{"gre_ip_4in6", .fn = s_gre_ip_4in6},
	{"gre_ip_6in6", .fn = s_gre_ip_6in6},
	{"gre_key", .fn = s_gre_key},
	{"gre_key_change", .fn = s_gre_key_change},
	{"gre_csum", .fn = s_gre_csum},
	{"gre_csum_key_6in6", .fn = s_gre_csum_key_6in6},
	{"gre_csum_added", .fn = s_gre_csum_added},
	{"gre_bad_csum_first", .fn = s_gre_bad_csum_first},
	{"gre_seq", .fn = s_gre_seq},
	{"gre_ver1", .fn = s_gre_ver1},
	{"gre_routing", .fn = s_gre_routing},
	{"gre_erspan", .fn = s_gre_erspan},
	{"gre_outer_ttl", .fn = s_gre_outer_ttl},
	{"gre_outer_ipid_jump", .fn = s_gre_outer_ipid_jump},
	{"gre_inner_seq_gap", .fn = s_gre_inner_seq_gap},
	{"gre_limit64k", .fn = s_gre_limit64k},
};

int main(int argc, char **argv)
{
	const struct seq *list = seqs;
	size_t i, n = sizeof(seqs) / sizeof(seqs[0]);
	int a;
	if (argc == 2 && strcmp(argv[1], "-l") == 0) {
		for (i = 0; i < n; i++)
			printf("%s\n", seqs[i].name);
		return 0;
	}
	if (argc >= 2 && strcmp(argv[1], "-t") == 0) {
		list = tun_seqs;
		n = sizeof(tun_seqs) / sizeof(tun_seqs[0]);
		argc--;
		argv++;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: mkseq [-t] OUTDIR [NAME...] | mkseq -l\n");
		return 2;
	}
	outdir = argv[1];
	for (i = 0; i < n; i++) {
		int want = argc == 2;
		for (a = 2; a < argc; a++)
			if (strcmp(argv[a], list[i].name) == 0)
				want = 1;
		if (!want)
			continue;
		begin(list[i].name);
		if (list[i].fn)
			list[i].fn();
		else
			run_step(&list[i].step);
		end();
	}
	return 0;
}
