/*
 * robust_badinput_test.c - the bad-input catalogue: every malformed input
 * and every API misuse has a defined outcome, checked here.
 *
 * GRO (table gro_bad[], one Check loop test per row, run through the
 * conservation harness so the packet must also come back exactly once and
 * byte for byte): a malformed frame is never an error; it is passed on
 * untouched (OFL_GRO_NORMAL) and counted under its reason in
 * stats.normal_why[].  Rows marked udp are UDP datagrams to a context with
 * UDP GRO on (ofl_gro_config.udp): every UDP refusal reason (length field
 * longer, shorter, 0, 8; checksum 0 on IPv4 and IPv6; bad checksum; a
 * no-merge port; header cut; padding).  Some rows are valid oddities that must still be
 * taken (padding, zero-length buffers, two VLAN tags).  Then loops: a frame
 * truncated at every byte of its headers (IPv4, IPv6, VLAN), and a frame
 * split into buffers at every byte of its headers (and around zero-length
 * buffers), which must merge exactly like the unsplit one.
 *
 * GSO (table gso_bad[]): segment size 0, 1, 65535, 65536; super-packets over
 * max_segs and over the largest frame; truncated, fragmented, three VLAN
 * tags, wrong type; each returns its named error with nothing emitted (or
 * segments correctly).  DSA: every format refuses every frame shorter than
 * an Ethernet header and every tagged frame cut short of its tag.
 *
 * API misuse: NULL pointers, zero counts, zero-sized pools, re-entry: an
 * error code, never a crash, and GRO counts every refusal in api_errors.
 */
#include <check.h>
#include <ofl/dsa.h>
#include <ofl/gro.h>
#include <ofl/gso.h>
#include <stdlib.h>
#include <string.h>

#include "conserve.h"
#include "gen.h"
#include "harness.h"

static struct harness H;

/* ------------------------------------------------------------------------ */
/* GRO: one malformed frame per row                                          */

typedef void (*mut_fn)(struct gen_tcp *g);
typedef size_t (*post_fn)(uint8_t *f, size_t len);

struct gro_row {
	const char *name;
	int l3;        /* 4 or 6: the generated frame before mut/post */
	mut_fn mut;    /* change the generator's fields (may be NULL) */
	post_fn post;  /* change the bytes; returns the new length (may be NULL) */
	int split;     /* enum h_split */
	int result;    /* OFL_GRO_NORMAL, OFL_GRO_HELD, or an OFL_E* error */
	int why;       /* normal_why[] reason for OFL_GRO_NORMAL */
	int udp;       /* 0 TCP; UDP_ON: a UDP datagram, UDP GRO on; UDP_PORT_SET:
	                  the same with its destination port never merged */
};
enum { UDP_ON = 1, UDP_PORT_SET = 2 };

static uint16_t g16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static void p16(uint8_t *p, unsigned v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }

/* Re-do the IPv4 header checksum after editing the header at 14. */
static void ip4_fix(uint8_t *f)
{
	unsigned ihl = (f[14] & 15u) * 4u;
	if (ihl < 20)
		ihl = 20;
	f[24] = f[25] = 0;
	p16(f + 24, (uint16_t)~gen_csum_fold(f + 14, ihl, 0));
}

static size_t empty(uint8_t *f, size_t len) { (void)f; (void)len; return 0; }
static size_t only13(uint8_t *f, size_t len) { (void)f; (void)len; return 13; }
static size_t eth_only(uint8_t *f, size_t len) { (void)f; (void)len; return 14; }
static size_t ihl4(uint8_t *f, size_t len) { f[14] = 0x44; ip4_fix(f); return len; }
static size_t ihl0(uint8_t *f, size_t len) { f[14] = 0x40; ip4_fix(f); return len; }
static size_t ipver5(uint8_t *f, size_t len) { f[14] = 0x55; ip4_fix(f); return len; }
static size_t ipver6_in_v4(uint8_t *f, size_t len) { f[14] = 0x65; ip4_fix(f); return len; }
static size_t tot_plus1(uint8_t *f, size_t len) { p16(f + 16, g16(f + 16) + 1u); ip4_fix(f); return len; }
static size_t tot_max(uint8_t *f, size_t len) { p16(f + 16, 0xffff); ip4_fix(f); return len; }
static size_t tot_minus1(uint8_t *f, size_t len) { p16(f + 16, g16(f + 16) - 1u); ip4_fix(f); return len; }
static size_t tot_lt_ihl(uint8_t *f, size_t len) { p16(f + 16, 19); ip4_fix(f); return len; }
static size_t tot_zero(uint8_t *f, size_t len) { p16(f + 16, 0); ip4_fix(f); return len; }
static size_t tot_no_tcp(uint8_t *f, size_t len) { p16(f + 16, 30); ip4_fix(f); return len; }
static size_t doff4(uint8_t *f, size_t len) { f[14 + 20 + 12] = 0x40; return len; }
static size_t doff0(uint8_t *f, size_t len) { f[14 + 20 + 12] = 0x00; return len; }
static size_t doff_past(uint8_t *f, size_t len) { f[14 + 20 + 12] = 0xf0; return len; }
static size_t doff_past6(uint8_t *f, size_t len) { f[14 + 40 + 12] = 0xf0; return len; }
static size_t plen_plus1(uint8_t *f, size_t len) { p16(f + 18, g16(f + 18) + 1u); return len; }
static size_t plen_minus1(uint8_t *f, size_t len) { p16(f + 18, g16(f + 18) - 1u); return len; }
static size_t plen_zero(uint8_t *f, size_t len) { p16(f + 18, 0); return len; }
static size_t plen_small(uint8_t *f, size_t len) { p16(f + 18, 10); return len; }
static size_t v6ver4(uint8_t *f, size_t len) { f[14] = 0x40 | (f[14] & 15); return len; }
static size_t arp(uint8_t *f, size_t len) { p16(f + 12, 0x0806); return len; }
static size_t udp4(uint8_t *f, size_t len) { f[14 + 9] = 17; ip4_fix(f); return len; }
static size_t icmp6(uint8_t *f, size_t len) { f[14 + 6] = 58; return len; }
static size_t vlan_cut(uint8_t *f, size_t len) { (void)len; p16(f + 12, 0x8100); return 15; }
static size_t ip_hdr_cut(uint8_t *f, size_t len) { (void)f; (void)len; return 14 + 19; }
static size_t tcp_hdr_cut(uint8_t *f, size_t len) { (void)f; (void)len; return 14 + 20 + 19; }

/* IPv6 extension headers written by hand after the fixed header. */
static size_t v6_ext(uint8_t *f, size_t len, const uint8_t *ext, size_t n, uint8_t first)
{
	/* move the TCP header and payload back by n */
	memmove(f + 54 + n, f + 54, len - 54);
	memcpy(f + 54, ext, n);
	f[20] = first;
	p16(f + 18, g16(f + 18) + (unsigned)n);
	return len + n;
}
static size_t ext_runs_past(uint8_t *f, size_t len)
{
	/* hop-by-hop claiming 256 * 8 bytes: past the frame */
	static const uint8_t e[8] = {6, 255, 0, 0, 0, 0, 0, 0};
	return v6_ext(f, len, e, 8, 0);
}
static size_t ext_cut(uint8_t *f, size_t len)
{
	/* a routing header cut by the end of the frame (plen covers 4 bytes of it) */
	p16(f + 18, 4);
	f[20] = 43;
	(void)len;
	return 54 + 4;
}
static size_t ext_loop(uint8_t *f, size_t len)
{
	/* destination options that name themselves as next header, over and
	 * over, until the packet ends: no TCP header is ever reached */
	uint8_t e[8 * 30];
	unsigned i;
	memset(e, 0, sizeof(e));
	for (i = 0; i < 30; i++)
		e[8 * i] = 60;
	len = v6_ext(f, len, e, sizeof(e), 60);
	p16(f + 18, 8 * 30); /* the payload is just the chain */
	return 54 + 8 * 30;
}
static size_t ext_long(uint8_t *f, size_t len)
{
	/* 30 destination-option headers (240 bytes) then TCP: headers > 256 */
	uint8_t e[8 * 30];
	unsigned i;
	memset(e, 0, sizeof(e));
	for (i = 0; i < 30; i++)
		e[8 * i] = i == 29 ? 6 : 60;
	return v6_ext(f, len, e, sizeof(e), 60);
}
static size_t ext_frag(uint8_t *f, size_t len)
{
	static const uint8_t e[8] = {6, 0, 0, 0, 0, 0, 0, 1}; /* offset 0, MF 0 */
	return v6_ext(f, len, e, 8, 44);
}
static size_t ext_ah(uint8_t *f, size_t len)
{
	static const uint8_t e[16] = {6, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0};
	return v6_ext(f, len, e, 16, 51);
}
static size_t ext_ok(uint8_t *f, size_t len)
{
	static const uint8_t e[8] = {6, 0, 1, 4, 0, 0, 0, 0}; /* dest opts, PadN */
	return v6_ext(f, len, e, 8, 60);
}
static size_t trailing(uint8_t *f, size_t len)
{
	memset(f + len, 0xab, 8); /* 8 bytes after the IP packet on a big frame */
	return len + 8;
}

static void m_vlan3(struct gen_tcp *g) { g->nvlan = 3; }
static void m_vlan2(struct gen_tcp *g) { g->nvlan = 2; g->vlan_tpid[0] = 0x88a8; }
static void m_ipopts(struct gen_tcp *g) { g->ip_optlen = 4; g->ip_opts[0] = 1; g->ip_opts[1] = 1; g->ip_opts[2] = 1; }
static void m_badip(struct gen_tcp *g) { g->bad_ip_csum = true; }
static void m_badtcp(struct gen_tcp *g) { g->bad_tcp_csum = true; }
static void m_mf(struct gen_tcp *g) { g->frag = 0x2000; }
static void m_fragoff(struct gen_tcp *g) { g->frag = 0x0010; }
static void m_pureack(struct gen_tcp *g) { g->payload_len = 0; }
static void m_syn(struct gen_tcp *g) { g->flags = GEN_SYN; }
static void m_rst(struct gen_tcp *g) { g->flags = GEN_RST | GEN_ACK; }
static void m_fin(struct gen_tcp *g) { g->flags = GEN_FIN | GEN_ACK; }
static void m_psh(struct gen_tcp *g) { g->flags = GEN_PSH | GEN_ACK; }
static void m_urg(struct gen_tcp *g) { g->flags = GEN_URG | GEN_ACK; }
static void m_pad(struct gen_tcp *g) { g->payload_len = 2; g->pad_to = 60; }
static void m_pad_vlan(struct gen_tcp *g) { g->payload_len = 2; g->nvlan = 1; g->pad_to = 64; }
static void m_tiny(struct gen_tcp *g) { g->payload_len = 1; }
static void m_big(struct gen_tcp *g) { g->payload_len = 9000; }
static void m_maxopts(struct gen_tcp *g) { g->optlen = 40; memset(g->opts, 1, 40); }
static void m_ipopts40(struct gen_tcp *g) { g->ip_optlen = 40; memset(g->ip_opts, 1, 40); }
/* UDP length field against the real length (payload 100: 108 bytes), with
 * a checksum that matches the field as sent, so the length rule decides */
static void m_ulen_plus1(struct gen_tcp *g) { g->udp_len_delta = 1; }
static void m_ulen_minus1(struct gen_tcp *g) { g->udp_len_delta = -1; }
static void m_ulen_zero(struct gen_tcp *g) { g->udp_len_delta = -(int32_t)(8 + g->payload_len); }
static void m_ulen_8(struct gen_tcp *g) { g->udp_len_delta = -(int32_t)g->payload_len; }
static void m_uzero(struct gen_tcp *g) { g->udp_zero_csum = true; }
/* IPv4 total length ending 7 bytes into the UDP header, frame cut there */
static size_t udp_hdr_cut(uint8_t *f, size_t len) { (void)len; p16(f + 16, 27); ip4_fix(f); return 14 + 27; }

#define N_ OFL_GRO_NORMAL
static const struct gro_row gro_bad[] = {
	{"empty frame", 4, NULL, empty, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"13 bytes", 4, NULL, only13, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"Ethernet header only", 4, NULL, eth_only, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv4 header cut", 4, NULL, ip_hdr_cut, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"TCP header cut", 4, NULL, tcp_hdr_cut, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv4 IHL 4 (< 5)", 4, NULL, ihl4, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv4 IHL 0", 4, NULL, ihl0, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv4 version 5", 4, NULL, ipver5, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv4 EtherType, version 6", 4, NULL, ipver6_in_v4, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv4 total length > frame", 4, NULL, tot_plus1, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv4 total length 65535", 4, NULL, tot_max, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv4 total length < frame", 4, NULL, tot_minus1, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv4 total length < IHL", 4, NULL, tot_lt_ihl, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv4 total length 0", 4, NULL, tot_zero, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv4 length ends inside TCP", 4, NULL, tot_no_tcp, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"bytes after the IP packet", 4, NULL, trailing, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"TCP data offset 4 (< 5)", 4, NULL, doff4, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"TCP data offset 0", 4, NULL, doff0, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"TCP data offset past the end", 4, m_tiny, doff_past, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"TCP6 data offset past the end", 6, m_tiny, doff_past6, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv6 payload length > frame", 6, NULL, plen_plus1, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv6 payload length < frame", 6, NULL, plen_minus1, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv6 payload length 0", 6, NULL, plen_zero, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv6 payload length < TCP header", 6, NULL, plen_small, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv6 EtherType, version 4", 6, NULL, v6ver4, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv6 extension runs past the frame", 6, NULL, ext_runs_past, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv6 extension cut by the end", 6, NULL, ext_cut, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv6 extension chain that loops to the end", 6, NULL, ext_loop, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv6 extension chain > 256 bytes", 6, NULL, ext_long, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_HDR_TOO_LONG, 0},
	{"IPv6 fragment header", 6, NULL, ext_frag, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_FRAGMENT, 0},
	{"IPv6 AH", 6, NULL, ext_ah, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_IP6_EXT, 0},
	{"three VLAN tags", 4, m_vlan3, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_VLAN_DEPTH, 0},
	{"three VLAN tags, IPv6", 6, m_vlan3, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_VLAN_DEPTH, 0},
	{"VLAN tag cut", 4, NULL, vlan_cut, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, 0},
	{"IPv4 options", 4, m_ipopts, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_IP_OPTIONS, 0},
	{"IPv4 40 bytes of options", 4, m_ipopts40, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_IP_OPTIONS, 0},
	{"bad IPv4 header checksum", 4, m_badip, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_IP_CSUM, 0},
	{"bad TCP checksum", 4, m_badtcp, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_TCP_CSUM, 0},
	{"bad TCP checksum, IPv6", 6, m_badtcp, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_TCP_CSUM, 0},
	{"bad TCP checksum, split buffers", 4, m_badtcp, NULL, H_SPLIT_FOUR, N_, OFL_GRO_NORMAL_TCP_CSUM, 0},
	{"IPv4 first fragment (MF)", 4, m_mf, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_FRAGMENT, 0},
	{"IPv4 fragment offset", 4, m_fragoff, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_FRAGMENT, 0},
	{"ARP EtherType", 4, NULL, arp, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_NOT_IP, 0},
	{"UDP", 4, NULL, udp4, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_NOT_TCP, 0},
	{"ICMPv6", 6, NULL, icmp6, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_NOT_TCP, 0},
	{"pure ACK", 4, m_pureack, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_NO_PAYLOAD, 0},
	{"SYN with data", 4, m_syn, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_FLAGS, 0},
	{"RST with data", 4, m_rst, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_FLAGS, 0},
	{"FIN with data", 6, m_fin, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_FLAGS, 0},
	{"PSH first segment", 4, m_psh, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_FLAGS, 0},
	{"URG", 4, m_urg, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_FLAGS, 0},
	/* Ethernet padding after the IP packet: never merged (the kernel's
	 * length rule, src/gro/ipv4.h) */
	{"padded minimum frame", 4, m_pad, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_PADDED, 0},
	{"padded minimum frame with a VLAN tag", 4, m_pad_vlan, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_PADDED, 0},
	/* UDP with UDP GRO on: each refusal goes up alone, counted */
	{"UDP length > datagram", 4, m_ulen_plus1, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_UDP_LEN, UDP_ON},
	{"UDP length < datagram", 4, m_ulen_minus1, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_UDP_LEN, UDP_ON},
	{"UDP6 length < datagram", 6, m_ulen_minus1, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_UDP_LEN, UDP_ON},
	{"UDP length 0", 4, m_ulen_zero, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_UDP_LEN, UDP_ON},
	{"UDP6 length 0", 6, m_ulen_zero, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_UDP_LEN, UDP_ON},
	{"UDP length 8 (header only) on a datagram with data", 4, m_ulen_8, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_UDP_LEN, UDP_ON},
	{"empty UDP datagram (length 8)", 6, m_pureack, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_UDP_LEN, UDP_ON},
	{"UDP checksum 0", 4, m_uzero, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_UDP_ZERO_CSUM, UDP_ON},
	{"UDP6 checksum 0", 6, m_uzero, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_UDP_ZERO_CSUM, UDP_ON},
	{"bad UDP checksum", 4, m_badtcp, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_UDP_CSUM, UDP_ON},
	{"bad UDP6 checksum, split buffers", 6, m_badtcp, NULL, H_SPLIT_FOUR, N_, OFL_GRO_NORMAL_UDP_CSUM, UDP_ON},
	{"UDP to a no-merge port", 4, NULL, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_UDP_PORT, UDP_PORT_SET},
	{"UDP6 to a no-merge port", 6, NULL, NULL, H_SPLIT_FOUR, N_, OFL_GRO_NORMAL_UDP_PORT, UDP_PORT_SET},
	{"UDP header cut", 4, NULL, udp_hdr_cut, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_MALFORMED, UDP_ON},
	{"padded minimum UDP frame", 4, m_pad, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_PADDED, UDP_ON},
	{"UDP with IPv4 options", 4, m_ipopts, NULL, H_SPLIT_NONE, N_, OFL_GRO_NORMAL_IP_OPTIONS, UDP_ON},
	{"UDP datagram (taken)", 6, NULL, NULL, H_SPLIT_FOUR, OFL_GRO_HELD, 0, UDP_ON},
	/* valid oddities: taken */
	{"two VLAN tags (802.1ad + 802.1Q)", 6, m_vlan2, NULL, H_SPLIT_NONE, OFL_GRO_HELD, 0, 0},
	{"IPv6 destination options", 6, NULL, ext_ok, H_SPLIT_NONE, OFL_GRO_HELD, 0, 0},
	{"zero-length buffers between the pieces", 4, NULL, NULL, H_SPLIT_EMPTY, OFL_GRO_HELD, 0, 0},
	{"one byte per buffer", 6, NULL, NULL, H_SPLIT_BYTES, OFL_GRO_HELD, 0, 0},
	{"40 bytes of TCP options", 4, m_maxopts, NULL, H_SPLIT_NONE, OFL_GRO_HELD, 0, 0},
	{"9000-byte segment", 4, m_big, NULL, H_SPLIT_FOUR, OFL_GRO_HELD, 0, 0},
};
#define N_GRO_BAD (int)(sizeof(gro_bad) / sizeof(gro_bad[0]))

static uint8_t fbuf[16384];

/* The context of a row: defaults, or UDP GRO on (and the generator's
 * destination port 8000 never merged for UDP_PORT_SET). */
static void row_init(const struct gro_row *r)
{
	struct ofl_gro_config cfg;
	if (!r->udp) {
		h_init(&H, NULL, r->split);
		return;
	}
	ck_assert_int_eq(ofl_gro_config_default(&cfg), 0);
	cfg.udp = 1;
	if (r->udp == UDP_PORT_SET) {
		cfg.udp_nports = 1;
		cfg.udp_no_merge_ports[0] = 8000;
	}
	h_init(&H, &cfg, r->split);
}

static void row_gen_init(const struct gro_row *r, struct gen_tcp *g)
{
	gen_tcp_init(g, r->l3);
	g->udp = r->udp != 0;
}

static size_t make(const struct gro_row *r)
{
	struct gen_tcp g;
	size_t n;
	row_gen_init(r, &g);
	if (r->mut)
		r->mut(&g);
	memset(fbuf, 0, sizeof(fbuf));
	n = gen_tcp_frame(&g, fbuf, sizeof(fbuf) - 512);
	ck_assert_uint_gt(n, 0);
	if (r->post)
		n = r->post(fbuf, n);
	return n;
}

START_TEST(gro_bad_row)
{
	const struct gro_row *r = &gro_bad[_i];
	struct ofl_gro_stats st;
	size_t n = make(r);
	int res;
	row_init(r);
	res = h_rx(&H, fbuf, n, 1000);
	ck_assert_msg(res == r->result, "%s: result %d, expected %d", r->name, res, r->result);
	ck_assert_int_eq(ofl_gro_get_stats(H.gro, &st, sizeof st), 0);
	if (r->result == OFL_GRO_NORMAL) {
		ck_assert_msg(st.normal_why[r->why] == 1, "%s: normal reason %s not counted (%s: %llu)",
		              r->name, ofl_gro_normal_reason_name((unsigned)r->why),
		              ofl_gro_normal_reason_name((unsigned)r->why),
		              (unsigned long long)st.normal_why[r->why]);
		ck_assert_uint_eq(st.normal, 1);
		ck_assert_uint_eq(st.api_errors, 0);
	}
	if (r->result == OFL_GRO_HELD)
		ck_assert_uint_eq(st.flows_held, 1);
	/* every cookie back once, NORMAL byte for byte, payload conserved */
	h_finish(&H);
	h_free(&H);
}
END_TEST

/* A held flow, then the malformed frame of the same flow, then the next
 * good segment: the malformed one never merges and nothing is lost.  (Run
 * for the rows whose frame still names the flow.) */
START_TEST(gro_bad_row_mid_flow)
{
	const struct gro_row *r = &gro_bad[_i];
	struct gen_tcp g;
	size_t n;
	/* (a no-merge port holds nothing, so there is no flow to interrupt) */
	if (r->result != OFL_GRO_NORMAL || r->l3 == 0 || r->udp == UDP_PORT_SET)
		return;
	row_init(r);
	row_gen_init(r, &g);
	ck_assert_int_eq(h_rx_gen(&H, &g, 1), OFL_GRO_HELD);
	n = make(r);
	ck_assert_int_eq(h_rx(&H, fbuf, n, 2), OFL_GRO_NORMAL);
	g.seq += 100;
	ck_assert_int_ge(h_rx_gen(&H, &g, 3), 0);
	h_finish(&H);
	h_free(&H);
}
END_TEST

/* Truncated at every byte of the headers (and a few into the payload). */
static void trunc_all(int l3, uint8_t nvlan)
{
	struct gen_tcp g;
	size_t n, k, hl;
	uint8_t full[2000];
	gen_tcp_init(&g, l3);
	g.nvlan = nvlan;
	n = gen_tcp_frame(&g, full, sizeof(full));
	hl = 14u + 4u * nvlan + (l3 == 4 ? 20u : 40u) + 20u;
	for (k = 0; k < hl + 8 && k < n; k++) {
		struct ofl_gro_stats st;
		h_init(&H, NULL, k & 1 ? H_SPLIT_FOUR : H_SPLIT_NONE);
		ck_assert_int_eq(h_rx(&H, full, k, 5), OFL_GRO_NORMAL);
		ck_assert_int_eq(ofl_gro_get_stats(H.gro, &st, sizeof st), 0);
		ck_assert_msg(st.normal_why[OFL_GRO_NORMAL_MALFORMED] == 1,
		              "IPv%d, %u tags, cut at %zu: not counted malformed", l3, nvlan, k);
		h_finish(&H);
		h_free(&H);
	}
}

START_TEST(truncated_every_byte)
{
	trunc_all(4, 0);
	trunc_all(6, 0);
	trunc_all(4, 1);
	trunc_all(6, 2);
}
END_TEST

/* Headers split at every byte across buffers (two pieces, and three with
 * a zero-length buffer in the middle): the two segments merge exactly as
 * the unsplit ones do. */
static void split_run(const uint8_t *f1, size_t n1, const uint8_t *f2, size_t n2, size_t cut,
                      int empty_mid, struct h_last *c)
{
	struct ofl_gro_config cfg;
	struct ofl_gro *gro;
	struct ofl_buf b[3];
	struct ofl_pkt p;
	const uint8_t *fs[2] = {f1, f2};
	size_t ns[2] = {n1, n2};
	unsigned k;
	h_last_init(c, c->lin, c->cap);
	ofl_gro_config_default(&cfg);
	cfg.deliver = h_last_deliver;
	cfg.user = c;
	ck_assert_int_eq(ofl_gro_create(&cfg, &gro), 0);
	for (k = 0; k < 2; k++) {
		memset(&p, 0, sizeof(p));
		if (cut == 0) {
			b[0] = (struct ofl_buf){fs[k], (uint32_t)ns[k]};
			p.nbufs = 1;
		} else if (!empty_mid) {
			b[0] = (struct ofl_buf){fs[k], (uint32_t)cut};
			b[1] = (struct ofl_buf){fs[k] + cut, (uint32_t)(ns[k] - cut)};
			p.nbufs = 2;
		} else {
			b[0] = (struct ofl_buf){fs[k], (uint32_t)cut};
			b[1] = (struct ofl_buf){k ? NULL : fs[k] + cut, 0};
			b[2] = (struct ofl_buf){fs[k] + cut, (uint32_t)(ns[k] - cut)};
			p.nbufs = 3;
		}
		p.bufs = b;
		p.cookie = (void *)(uintptr_t)(k + 1);
		ck_assert_int_eq(ofl_gro_receive(gro, &p, 10), k ? OFL_GRO_MERGED : OFL_GRO_HELD);
	}
	ofl_gro_destroy(gro);
}

START_TEST(split_every_byte)
{
	int l3 = _i ? 6 : 4;
	struct gen_tcp g;
	uint8_t f1[1600], f2[1600];
	size_t n1, n2, cut, hl;
	static uint8_t ref_lin[8192], got_lin[8192];
	struct h_last ref, got;
	gen_tcp_init(&g, l3);
	gen_opt_ts(&g, 5, 6);
	g.nvlan = 1;
	g.payload_len = 1000;
	n1 = gen_tcp_frame(&g, f1, sizeof(f1));
	g.seq += 1000;
	g.ip_id++;
	n2 = gen_tcp_frame(&g, f2, sizeof(f2));
	h_last_init(&ref, ref_lin, sizeof(ref_lin));
	h_last_init(&got, got_lin, sizeof(got_lin));
	split_run(f1, n1, f2, n2, 0, 0, &ref);
	ck_assert_uint_eq(ref.n, 1);
	ck_assert_uint_eq(ref.segs, 2);
	hl = 18u + (l3 == 4 ? 20u : 40u) + 32u;
	for (cut = 1; cut <= hl + 4; cut++) {
		int e;
		for (e = 0; e < 2; e++) {
			split_run(f1, n1, f2, n2, cut, e, &got);
			ck_assert_msg(got.n == 1 && got.segs == 2 && got.len == ref.len &&
			              memcmp(got.lin, ref.lin, (size_t)ref.len) == 0,
			              "IPv%d split at %zu%s: different result", l3, cut, e ? " (+ empty)" : "");
		}
	}
}
END_TEST

/* ------------------------------------------------------------------------ */
/* GSO                                                                       */

struct gso_row {
	const char *name;
	int l3;
	uint8_t type;
	uint32_t seg_size;
	uint32_t max_segs;
	mut_fn mut;
	post_fn post;
	int result;      /* of ofl_gso_start */
	uint32_t nsegs;  /* when result is 0 */
};

static size_t udp_post(uint8_t *f, size_t len)
{
	/* turn the generated TCP frame into UDP (IPv4 at 14) */
	f[14 + 9] = 17;
	ip4_fix(f);
	p16(f + 34 + 4, (unsigned)(len - 34));
	f[34 + 6] = f[34 + 7] = 0;
	return len;
}
static size_t udp_post_bad_len(uint8_t *f, size_t len)
{
	len = udp_post(f, len);
	p16(f + 34 + 4, (unsigned)(len - 34 - 1));
	return len;
}
static void m_1000(struct gen_tcp *g) { g->payload_len = 1000; }

static const struct gso_row gso_bad[] = {
	{"segment size 0", 4, OFL_GSO_TYPE_TCP, 0, 0, m_1000, NULL, OFL_EINVAL, 0},
	{"segment size 1", 4, OFL_GSO_TYPE_TCP, 1, 0, m_1000, NULL, 0, 1000},
	{"segment size 1, IPv6", 6, OFL_GSO_TYPE_AUTO, 1, 0, m_1000, NULL, 0, 1000},
	{"segment size 65495 (largest an IPv4 packet carries)", 4, OFL_GSO_TYPE_TCP, 65495, 0, m_1000, NULL, 0, 1},
	{"segment size 65535 (more than IPv4 carries)", 4, OFL_GSO_TYPE_TCP, 65535, 0, m_1000, NULL, OFL_EINVAL, 0},
	{"segment size 65536", 4, OFL_GSO_TYPE_TCP, 65536, 0, m_1000, NULL, OFL_EINVAL, 0},
	{"segment size 2^32-1", 6, OFL_GSO_TYPE_TCP, 0xffffffffu, 0, m_1000, NULL, OFL_EINVAL, 0},
	{"more segments than max_segs", 4, OFL_GSO_TYPE_TCP, 100, 9, m_1000, NULL, OFL_E2BIG, 0},
	{"exactly max_segs", 4, OFL_GSO_TYPE_TCP, 100, 10, m_1000, NULL, 0, 10},
	{"UDP L4 over its default segment limit", 4, OFL_GSO_TYPE_UDP_L4, 4, 0, m_1000, udp_post, OFL_E2BIG, 0},
	{"UDP_FRAG size not a multiple of 8", 4, OFL_GSO_TYPE_UDP_FRAG, 100, 0, m_1000, udp_post, OFL_EINVAL, 0},
	{"UDP length field wrong", 4, OFL_GSO_TYPE_UDP_L4, 100, 0, m_1000, udp_post_bad_len, OFL_EBADMSG, 0},
	{"TCP type on UDP", 4, OFL_GSO_TYPE_TCP, 100, 0, m_1000, udp_post, OFL_EPROTO, 0},
	{"UDP type on TCP", 4, OFL_GSO_TYPE_UDP_L4, 100, 0, m_1000, NULL, OFL_EPROTO, 0},
	{"IP length > frame (truncated)", 4, OFL_GSO_TYPE_TCP, 100, 0, m_1000, tot_plus1, OFL_EBADMSG, 0},
	{"IPv6 length > frame", 6, OFL_GSO_TYPE_TCP, 100, 0, m_1000, plen_plus1, OFL_EBADMSG, 0},
	{"TCP data offset 4", 4, OFL_GSO_TYPE_TCP, 100, 0, m_1000, doff4, OFL_EPROTO, 0},
	{"IPv4 fragment", 4, OFL_GSO_TYPE_TCP, 100, 0, m_mf, NULL, OFL_ENOTSUP, 0},
	{"three VLAN tags", 4, OFL_GSO_TYPE_TCP, 100, 0, m_vlan3, NULL, OFL_ENOTSUP, 0},
	{"ARP", 4, OFL_GSO_TYPE_AUTO, 100, 0, NULL, arp, OFL_EPROTO, 0},
	{"13 bytes", 4, OFL_GSO_TYPE_TCP, 100, 0, NULL, only13, OFL_EPROTO, 0},
	{"empty", 4, OFL_GSO_TYPE_TCP, 100, 0, NULL, empty, OFL_EPROTO, 0},
	{"IPv6 extension chain > 256 bytes", 6, OFL_GSO_TYPE_TCP, 100, 0, NULL, ext_long, OFL_ENOTSUP, 0},
};
#define N_GSO_BAD (int)(sizeof(gso_bad) / sizeof(gso_bad[0]))

START_TEST(gso_bad_row)
{
	const struct gso_row *r = &gso_bad[_i];
	struct gen_tcp g;
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct ofl_gso_counts cnt;
	struct ofl_buf b;
	size_t n;
	int rc;
	gen_tcp_init(&g, r->l3);
	if (r->mut)
		r->mut(&g);
	memset(fbuf, 0, sizeof(fbuf));
	n = gen_tcp_frame(&g, fbuf, sizeof(fbuf) - 512);
	if (r->post)
		n = r->post(fbuf, n);
	ck_assert_int_eq(ofl_gso_req_default(&req), 0);
	req.type = r->type;
	req.seg_size = r->seg_size;
	req.max_segs = r->max_segs;
	b.data = fbuf;
	b.len = (uint32_t)n;
	rc = ofl_gso_start(&it, &req, &b, 1);
	ck_assert_msg(rc == r->result, "%s: start %d (%s), expected %d", r->name, rc, ofl_strerror(rc),
	              r->result);
	if (rc == 0) {
		static uint8_t block[64 * 320];
		struct ofl_gso_pool pool;
		struct ofl_gso_seg seg;
		uint32_t segs = 0, pay = 0;
		ck_assert_int_eq(ofl_gso_count(&it, &cnt, sizeof cnt), 0);
		ck_assert_uint_eq(cnt.segs, r->nsegs);
		ck_assert_int_eq(ofl_gso_pool_init_block(&pool, block, sizeof(block), 320), 0);
		while ((rc = ofl_gso_next(&it, &pool, &seg)) == 1) {
			ck_assert_uint_eq(seg.index, segs);
			pay += seg.payload_len;
			segs++;
			ck_assert_int_eq(ofl_gso_pool_put(&pool, &seg.hdr), 0);
		}
		ck_assert_int_eq(rc, 0);
		ck_assert_uint_eq(segs, r->nsegs);
		ck_assert_uint_eq(pay, 1000);
	} else {
		/* nothing to emit after a refused start */
		static uint8_t block[2 * 320];
		struct ofl_gso_pool pool;
		struct ofl_gso_seg seg;
		ck_assert_int_eq(ofl_gso_pool_init_block(&pool, block, sizeof(block), 320), 0);
		rc = ofl_gso_next(&it, &pool, &seg);
		ck_assert_msg(rc == 0 || rc == OFL_EINVAL, "%s: next after a refused start: %d", r->name, rc);
		ck_assert_uint_eq(ofl_gso_pool_avail(&pool), 2);
	}
}
END_TEST

/* A super-packet over the largest frame GSO takes (16 MiB): E2BIG. */
START_TEST(gso_frame_too_big)
{
	struct gen_tcp g;
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct ofl_buf b[2];
	static uint8_t big[1 << 16];
	size_t n;
	gen_tcp_init(&g, 4);
	n = gen_tcp_frame(&g, fbuf, sizeof(fbuf));
	b[0].data = fbuf;
	b[0].len = (uint32_t)n;
	b[1].data = big;
	b[1].len = 0xffffffffu - (uint32_t)n; /* never read: refused before */
	ofl_gso_req_default(&req);
	req.seg_size = 1000;
	ck_assert_int_eq(ofl_gso_start(&it, &req, b, 2), OFL_E2BIG);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* DSA: frames shorter than their tag                                        */

START_TEST(dsa_short_frames)
{
	size_t i, n = ofl_dsa_count();
	uint8_t un[60], buf[256];
	for (i = 0; i < 60; i++)
		un[i] = (uint8_t)(i + 1);
	un[12] = 0x08;
	un[13] = 0;
	for (i = 0; i < n; i++) {
		const struct ofl_dsa_ops *ops = ofl_dsa_at(i);
		int dir;
		for (dir = 0; dir < 2; dir++) {
			struct ofl_dsa_meta m;
			struct ofl_dsa_view v;
			uint32_t len, off = 64, tl = 60, k, taglen;
			/* shorter than an Ethernet header: always refused */
			for (len = 0; len < 14; len++) {
				uint8_t *f = malloc(len ? len : 1);
				memcpy(f, un, len);
				ck_assert_msg(ofl_dsa_decode(ops, NULL, dir, f, len, &m, &v) == OFL_EBADMSG,
				              "%s dir %d: %u bytes not refused", ops->name, dir, len);
				free(f);
			}
			/* a tagged frame cut anywhere before tag + 14 bytes: refused */
			memset(buf, 0, sizeof(buf));
			memcpy(buf + off, un, tl);
			memset(&m, 0, sizeof(m));
			m.valid = OFL_DSA_M_PORT;
			m.port = 1;
			if (ops->place == OFL_DSA_PLACE_NONE ||
			    ofl_dsa_encode(ops, NULL, dir, &m, buf, sizeof(buf), &off, &tl) != 0)
				continue;
			/* the tag's own bytes, from a decode of the whole frame */
			{
				struct ofl_dsa_view fv;
				if (ofl_dsa_decode(ops, NULL, dir, buf + off, tl, &m, &fv) != 0)
					continue;
				taglen = fv.tag_len + fv.tail_len;
			}
			for (k = 0; k < 14 + taglen && k < tl; k++) {
				uint8_t *f = malloc(k ? k : 1);
				int rc;
				if (ops->place == OFL_DSA_PLACE_TAIL)
					memcpy(f, buf + off + tl - k, k); /* keep the tail: cut the head */
				else
					memcpy(f, buf + off, k);
				rc = ofl_dsa_decode(ops, NULL, dir, f, k, &m, &v);
				ck_assert_msg(rc == OFL_EBADMSG, "%s dir %d: %u of %u bytes gave %d", ops->name, dir,
				              k, tl, rc);
				free(f);
			}
		}
	}
}
END_TEST

/* ------------------------------------------------------------------------ */
/* API misuse                                                                */

static void nop_deliver(void *u, const struct ofl_gro_out *p, unsigned n) { (void)u; (void)p; (void)n; }
static void *null_alloc(void *u, size_t s, size_t a) { (void)u; (void)s; (void)a; return NULL; }
static void null_free(void *u, void *p, size_t s) { (void)u; (void)p; (void)s; }

START_TEST(gro_create_misuse)
{
	struct ofl_gro_config c;
	struct ofl_gro *g = (struct ofl_gro *)&c;
	struct ofl_mem bad = {NULL, NULL, null_free}, fail = {NULL, null_alloc, null_free};
	ck_assert_int_eq(ofl_gro_config_default(NULL), OFL_EINVAL);
#define TRY(stmt, err) \
	do { \
		ofl_gro_config_default(&c); \
		c.deliver = nop_deliver; \
		stmt; \
		ck_assert_int_eq(ofl_gro_create(&c, &g), err); \
	} while (0)
	TRY(c.deliver = NULL, OFL_EINVAL);
	TRY(c.version = 0, OFL_EINVAL);
	TRY(c.max_flows = 0, OFL_EINVAL);
	TRY(c.max_segs = 0, OFL_EINVAL);
	TRY(c.max_bufs = 0, OFL_EINVAL);
	TRY(c.normal_batch = 0, OFL_EINVAL);
	TRY(c.max_held_bytes = 0, OFL_EINVAL);
	TRY(c.max_size = 1279, OFL_EINVAL);
	TRY(c.max_size = OFL_GRO_MAX_SIZE_LIMIT + 1, OFL_EINVAL);
	TRY(c.mem = &bad, OFL_EINVAL);
	TRY(c.mem = &fail, OFL_ENOMEM);
#undef TRY
	ofl_gro_config_default(&c);
	c.deliver = nop_deliver;
	ck_assert_int_eq(ofl_gro_create(NULL, &g), OFL_EINVAL);
	ck_assert_int_eq(ofl_gro_create(&c, NULL), OFL_EINVAL);
	ofl_gro_destroy(NULL);
}
END_TEST

START_TEST(gro_call_misuse)
{
	struct ofl_gro_config c;
	struct ofl_gro *g;
	struct ofl_gro_stats st;
	struct ofl_pkt p;
	struct ofl_buf b[20];
	uint8_t f[64] = {0};
	struct ofl_gro_out o;
	struct ofl_virtio_net_hdr vh;
	uint64_t dl = 7;
	int err = 0;
	unsigned i, refusals = 0;
	ofl_gro_config_default(&c);
	c.deliver = nop_deliver;
	c.max_bufs = 4;
	ck_assert_int_eq(ofl_gro_create(&c, &g), 0);
	for (i = 0; i < 20; i++)
		b[i] = (struct ofl_buf){f, 3};
	memset(&p, 0, sizeof(p));
	/* every refused call: an error code and a counter */
	ck_assert_int_eq(ofl_gro_receive(g, NULL, 0), OFL_EINVAL);
	refusals++;
	p.bufs = NULL;
	p.nbufs = 1;
	ck_assert_int_eq(ofl_gro_receive(g, &p, 0), OFL_EINVAL);
	refusals++;
	p.bufs = b;
	p.nbufs = 0;
	ck_assert_int_eq(ofl_gro_receive(g, &p, 0), OFL_EINVAL);
	refusals++;
	p.nbufs = 5;
	ck_assert_int_eq(ofl_gro_receive(g, &p, 0), OFL_E2BIG);
	refusals++;
	p.nbufs = 20;
	ck_assert_int_eq(ofl_gro_receive(g, &p, 0), OFL_E2BIG);
	refusals++;
	b[1].data = NULL;
	p.nbufs = 2;
	ck_assert_int_eq(ofl_gro_receive(g, &p, 0), OFL_EINVAL);
	refusals++;
	ck_assert_uint_eq(ofl_gro_receive_burst(g, NULL, 4, 0, &err), 0);
	refusals++;
	ck_assert_int_eq(err, OFL_EINVAL);
	ck_assert_uint_eq(ofl_gro_receive_burst(g, &p, 1, 0, &err), 0);
	refusals++;
	ck_assert_int_eq(err, OFL_EINVAL);
	ck_assert_int_eq(ofl_gro_get_stats(g, &st, sizeof st), 0);
	ck_assert_uint_eq(st.api_errors, refusals);
	ck_assert_uint_eq(st.rx_pkts, 0);
	/* NULL context */
	ck_assert_int_eq(ofl_gro_receive(NULL, &p, 0), OFL_EINVAL);
	ck_assert_int_eq(ofl_gro_flush(NULL), OFL_EINVAL);
	ck_assert_int_eq(ofl_gro_flush_older(NULL, 0, 0), OFL_EINVAL);
	ck_assert_int_eq(ofl_gro_poll_end(NULL, 1, 0, &dl), OFL_EINVAL);
	ck_assert_uint_eq(dl, 0);
	ck_assert_int_eq(ofl_gro_get_stats(NULL, &st, sizeof st), OFL_EINVAL);
	ck_assert_int_eq(ofl_gro_get_stats(g, NULL, sizeof(struct ofl_gro_stats)), OFL_EINVAL);
	ck_assert_uint_eq(ofl_gro_receive_burst(NULL, &p, 1, 0, &err), 0);
	ck_assert_int_eq(err, OFL_EINVAL);
	/* output helpers */
	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(ofl_gro_linearize(NULL, f, sizeof(f), OFL_CSUM_MODE_FULL), OFL_EINVAL);
	o.len = 10;
	ck_assert_int_eq(ofl_gro_linearize(&o, NULL, 100, OFL_CSUM_MODE_FULL), OFL_EINVAL);
	ck_assert_int_eq(ofl_gro_linearize(&o, f, 9, OFL_CSUM_MODE_FULL), OFL_ENOSPC);
	ck_assert_int_eq(ofl_gro_linearize(&o, f, sizeof(f), (enum ofl_csum_mode)7), OFL_EINVAL);
	ck_assert_int_eq(ofl_gro_vnet_hdr(NULL, 0, &vh), OFL_EINVAL);
	ck_assert_int_eq(ofl_gro_vnet_hdr(&o, 0, NULL), OFL_EINVAL);
	ck_assert_str_eq(ofl_gro_flush_reason_name(1000), "?");
	ck_assert_str_eq(ofl_gro_normal_reason_name(1000), "?");
	ck_assert_ptr_nonnull(ofl_strerror(-1000));
	ck_assert_ptr_nonnull(ofl_strerror(1000));
	ofl_gro_destroy(g);
}
END_TEST

/* Re-entering the context from its deliver callback: OFL_ESTATE, counted. */
static struct ofl_gro *reent_g;
static int reent_seen;
static void reent_deliver(void *u, const struct ofl_gro_out *p, unsigned n)
{
	struct ofl_pkt pk;
	struct ofl_buf b = {p[0].slices[0].data, p[0].slices[0].len};
	uint64_t dl = 3;
	(void)u;
	(void)n;
	memset(&pk, 0, sizeof(pk));
	pk.bufs = &b;
	pk.nbufs = 1;
	ck_assert_int_eq(ofl_gro_receive(reent_g, &pk, 0), OFL_ESTATE);
	ck_assert_int_eq(ofl_gro_flush(reent_g), OFL_ESTATE);
	ck_assert_int_eq(ofl_gro_flush_older(reent_g, 0, 0), OFL_ESTATE);
	ck_assert_int_eq(ofl_gro_poll_end(reent_g, 0, 0, &dl), OFL_ESTATE);
	ofl_gro_destroy(reent_g); /* refused silently: the context lives on */
	reent_seen++;
}

START_TEST(gro_reentry)
{
	struct ofl_gro_config c;
	struct ofl_gro_stats st;
	struct ofl_pkt p;
	struct ofl_buf b;
	struct gen_tcp g;
	uint8_t f[200];
	ofl_gro_config_default(&c);
	c.deliver = reent_deliver;
	c.normal_batch = 1;
	ck_assert_int_eq(ofl_gro_create(&c, &reent_g), 0);
	gen_tcp_init(&g, 4);
	g.payload_len = 0;
	b.data = f;
	b.len = (uint32_t)gen_tcp_frame(&g, f, sizeof(f));
	memset(&p, 0, sizeof(p));
	p.bufs = &b;
	p.nbufs = 1;
	ck_assert_int_eq(ofl_gro_receive(reent_g, &p, 0), OFL_GRO_NORMAL);
	ck_assert_int_eq(reent_seen, 1);
	ck_assert_int_eq(ofl_gro_get_stats(reent_g, &st, sizeof st), 0);
	ck_assert_uint_eq(st.api_errors, 4);
	ofl_gro_destroy(reent_g);
}
END_TEST

static int nget(void *u, struct ofl_gso_hbuf *hb) { (void)u; (void)hb; return 1; }
static void nput(void *u, const struct ofl_gso_hbuf *hb) { (void)u; (void)hb; }

START_TEST(gso_misuse)
{
	struct ofl_gso_pool pool;
	struct ofl_gso_hbuf hb, slots[2];
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct ofl_gso_seg seg;
	struct ofl_gso_counts cnt;
	struct ofl_virtio_net_hdr vh;
	struct ofl_buf b = {fbuf, 100};
	uint8_t block[1024];
	uint32_t emitted = 5;
	struct ofl_gso_callbacks cb = {NULL, NULL};
	/* zero-sized and too-small pools */
	ck_assert_int_eq(ofl_gso_pool_init_block(&pool, block, 0, 64), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_init_block(&pool, block, 63, 64), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_init_block(&pool, block, sizeof(block), 63), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_init_block(&pool, block, sizeof(block), 0), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_init_block(&pool, NULL, sizeof(block), 64), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_init_block(NULL, block, sizeof(block), 64), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_init_array(&pool, slots, 0), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_init_array(&pool, NULL, 2), OFL_EINVAL);
	slots[0] = (struct ofl_gso_hbuf){block, 64, 0, 0, NULL};
	slots[1] = (struct ofl_gso_hbuf){NULL, 64, 0, 0, NULL};
	ck_assert_int_eq(ofl_gso_pool_init_array(&pool, slots, 2), OFL_EINVAL);
	slots[1] = (struct ofl_gso_hbuf){block + 64, 32, 0, 0, NULL};
	ck_assert_int_eq(ofl_gso_pool_init_array(&pool, slots, 2), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_init_freelist(&pool, 64, NULL, nput, NULL), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_init_freelist(&pool, 64, nget, NULL, NULL), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_init_freelist(&pool, 0, nget, nput, NULL), OFL_EINVAL);
	/* a pool that was never initialised */
	memset(&pool, 0, sizeof(pool));
	ck_assert_int_eq(ofl_gso_pool_get(&pool, &hb), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_get(NULL, &hb), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_pool_put(NULL, &hb), OFL_EINVAL);
	ck_assert_uint_eq(ofl_gso_pool_avail(NULL), 0);
	ck_assert_uint_eq(ofl_gso_pool_slot_size(NULL), 0);
	ck_assert_int_eq(ofl_gso_pool_seek(&pool, 0), OFL_EINVAL);
	/* a put the pool never handed out */
	ck_assert_int_eq(ofl_gso_pool_init_block(&pool, block, sizeof(block), 64), 0);
	hb = (struct ofl_gso_hbuf){block, 64, 0, 0, NULL};
	ck_assert_int_eq(ofl_gso_pool_put(&pool, &hb), OFL_EINVAL);
	hb.index = 999;
	ck_assert_int_eq(ofl_gso_pool_put(&pool, &hb), OFL_EINVAL);
	/* requests and iterators */
	ck_assert_int_eq(ofl_gso_req_default(NULL), OFL_EINVAL);
	ofl_gso_req_default(&req);
	req.seg_size = 100;
	ck_assert_int_eq(ofl_gso_start(NULL, &req, &b, 1), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_start(&it, NULL, &b, 1), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_start(&it, &req, NULL, 1), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 0), OFL_EINVAL);
	b.data = NULL;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EINVAL);
	b.data = fbuf;
	req.version = 99;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EINVAL);
	ofl_gso_req_default(&req);
	req.seg_size = 100;
	req.type = 9;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EINVAL);
	req.type = 0;
	req.csum = 5;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EINVAL);
	req.csum = 0;
	req.flags = 0x100;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_start_gro(&it, NULL, NULL), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 11, OFL_GSO_L2_ETH, &b, 1), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, 10, 7, &b, 1), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_vnet_read(NULL, 10, &vh), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_vnet_read(fbuf, 9, &vh), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_req_from_vnet(NULL, &req), OFL_EINVAL);
	memset(&it, 0, sizeof(it)); /* never started */
	ck_assert_int_eq(ofl_gso_next(&it, &pool, &seg), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_next(NULL, &pool, &seg), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_count(&it, &cnt, sizeof cnt), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_count(NULL, &cnt, sizeof cnt), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_check_pool(NULL, &pool), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_unnext(&it, &pool, &seg), OFL_EINVAL);
	ck_assert_int_eq(ofl_gso_run(&it, &pool, &cb, &emitted), OFL_EINVAL);
	ck_assert_uint_eq(emitted, 0);
	ck_assert_int_eq(ofl_gso_abort(NULL), OFL_EINVAL);
}
END_TEST

START_TEST(dsa_misuse)
{
	const struct ofl_dsa_ops *ops = ofl_dsa_at(0), *o2;
	struct ofl_dsa_meta m;
	struct ofl_dsa_view v;
	struct ofl_buf b = {fbuf, 60}, pc[2];
	uint32_t off = 0, len = 60, s, l, head, tail;
	memset(fbuf, 0, 100);
	ck_assert_ptr_nonnull(ops);
	ck_assert_ptr_null(ofl_dsa_at(ofl_dsa_count()));
	ck_assert_ptr_null(ofl_dsa_find(NULL));
	ck_assert_ptr_null(ofl_dsa_find("no-such-tagger"));
	ck_assert_ptr_null(ofl_dsa_find(""));
	ck_assert_ptr_null(ofl_dsa_by_id(60000));
	ck_assert_int_eq(ofl_dsa_lookup(NULL, &o2), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_lookup("brcm", NULL), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_lookup("no-such-tagger", &o2), OFL_ENOENT);
	ck_assert_ptr_null(o2);
	ck_assert_int_eq(ofl_dsa_decode(NULL, NULL, 0, fbuf, 60, &m, &v), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_decode(ops, NULL, 2, fbuf, 60, &m, &v), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_decode(ops, NULL, 0, NULL, 60, &m, &v), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_decode(ops, NULL, 0, fbuf, 60, NULL, &v), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_decode_bufs(ops, NULL, 0, NULL, 1, &m, &v), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_decode_bufs(ops, NULL, 0, &b, 0, &m, &v), OFL_EINVAL);
	b.data = NULL;
	ck_assert_int_eq(ofl_dsa_decode_bufs(ops, NULL, 0, &b, 1, &m, &v), OFL_EINVAL);
	memset(&v, 0, sizeof(v));
	ck_assert_int_eq(ofl_dsa_untagged(fbuf, 60, &v, pc), OFL_EINVAL); /* hdr NULL */
	ck_assert_int_eq(ofl_dsa_untagged(NULL, 60, &v, pc), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_strip(fbuf, 60, &v, &s, &l), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_strip(fbuf, 60, NULL, &s, &l), OFL_EINVAL);
	v.hdr = fbuf;
	v.hdr_len = 12;
	v.rest_off = 50;
	v.rest_len = 20; /* past the frame */
	ck_assert_int_eq(ofl_dsa_untagged(fbuf, 60, &v, pc), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_strip(fbuf, 60, &v, &s, &l), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_room(NULL, NULL, 0, 60, &head, &tail), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_room(ops, NULL, 3, 60, &head, &tail), OFL_EINVAL);
	memset(&m, 0, sizeof(m));
	ck_assert_int_eq(ofl_dsa_encode(ops, NULL, 0, NULL, fbuf, 100, &off, &len), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_encode(ops, NULL, 0, &m, NULL, 100, &off, &len), OFL_EINVAL);
	ck_assert_int_eq(ofl_dsa_encode(ops, NULL, 0, &m, fbuf, 100, NULL, &len), OFL_EINVAL);
	len = 13;
	ck_assert_int_eq(ofl_dsa_encode(ops, NULL, 0, &m, fbuf, 100, &off, &len), OFL_EINVAL);
	off = 90;
	len = 60; /* past the buffer */
	ck_assert_int_eq(ofl_dsa_encode(ops, NULL, 0, &m, fbuf, 100, &off, &len), OFL_EINVAL);
	/* no headroom: ENOSPC for every format that needs some */
	{
		size_t i;
		for (i = 0; i < ofl_dsa_count(); i++) {
			const struct ofl_dsa_ops *o = ofl_dsa_at(i);
			uint32_t f_off = 0, f_len = 60;
			int rc;
			if (!o->tx_head)
				continue;
			m.valid = OFL_DSA_M_PORT;
			m.port = 0;
			rc = ofl_dsa_encode(o, NULL, OFL_DSA_TX, &m, fbuf, 100, &f_off, &f_len);
			ck_assert_msg(rc == OFL_ENOSPC, "%s: no headroom gave %d", o->name, rc);
			ck_assert_uint_eq(f_off, 0);
			ck_assert_uint_eq(f_len, 60);
		}
	}
}
END_TEST

H_MAIN("robust_badinput", 120, 0, {gro_bad_row, N_GRO_BAD}, {gro_bad_row_mid_flow, N_GRO_BAD},
	{truncated_every_byte, 0}, {split_every_byte, 2}, {gso_bad_row, N_GSO_BAD},
	{gso_frame_too_big, 0}, {dsa_short_frames, 0}, {gro_create_misuse, 0}, {gro_call_misuse, 0},
	{gro_reentry, 0}, {gso_misuse, 0}, {dsa_misuse, 0})
