/*
 * gro_run_bufs_test.c - the run of frames in several buffers
 * (src/gro/run_bufs.c) against the frame-at-a-time path.  One flow of NSEG
 * segments, each frame in 1 to 5 buffers, its first buffer ending at
 * several points (inside the headers: the run must not take it; at their
 * end: header split; inside the payload), and in the middle frame one rule
 * broken (a sequence gap, an IP ID step, a bad IP checksum, TTL, TOS, DF,
 * flow label, PSH, FIN, ACK number, window, a TCP option, another port,
 * another address (a byte in the compare's block at 32), a
 * short or long segment, Ethernet padding, a length field past the frame
 * (or four buffers 24 bytes short that add up to a full segment when a
 * length is counted twice),
 * an unverified checksum, a hardware VLAN tag) or its buffers changed (an
 * empty or NULL later buffer, a NULL one with bytes, one buffer fewer, the
 * headers split across buffers, the same bytes split otherwise (alone, or
 * with the previous frame's sequence number or IP ID), a NULL first
 * buffer, a byte of padding in the last buffer but one or the last, a
 * NULL buffer array with the buffer count kept;
 * with four buffers (and two: the same header split, four frames an
 * iteration where four buffers take two) that frame is also the fourth to the sixth,
 * where the run takes frames two at a time, the eleventh or twelfth,
 * whose packet words and buffer arrays the run checks two at a time
 * eight frames early and which it takes two at a time past the frames
 * with eight after them, or the last, checked by the one frame between
 * those two loops, or the second or third, where a run starts and
 * run_bufs.c's split4_ok() picks its copy from that frame), under three
 * configurations (default; few
 * segments; a small max_size).  Each case is fed once as one burst (the
 * train and its runs) and once frame by frame (ofl_gro_receive(): no
 * train); every delivered ofl_gro_out field, header byte, slice (address,
 * length, segment, buffer) and cookie, the calls' results and the
 * counters must be the same.
 * The same for one UDP flow (UDP GRO on: run_bufs.c gro_run_bufs_udp(),
 * run_split_udp.c at the header split), IPv4 and IPv6, with the changes
 * that mean something for a datagram and three of its own: a zero
 * checksum, a UDP length one short, every checksum of the flow 0.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ofl/gro.h>

#include "gen.h"
#include "harness.h"

#define NSEG 16u
/* the frame whose rule is broken (7; with four or two buffers also 3 to 5, 10, 11, 15, 1, 2) */
static unsigned mid = 7;
#define MSS 1000u
#define FRAME 1400u
#define LOGMAX 16384u

/* What one path delivered, flattened: every field of every ofl_gro_out. */
struct log {
	uint64_t v[LOGMAX];
	unsigned n;
};

static void put(struct log *l, uint64_t x)
{
	if (l->n < LOGMAX)
		l->v[l->n] = x;
	l->n++;
}

static void collect(void *user, const struct ofl_gro_out *o, unsigned n)
{
	struct log *l = user;
	unsigned k, j;
	for (k = 0; k < n; k++) {
		put(l, o[k].hdr_len);
		put(l, o[k].nslices);
		put(l, o[k].len);
		put(l, o[k].seg_count);
		put(l, o[k].seg_size);
		put(l, o[k].ncookies);
		put(l, o[k].l3_off);
		put(l, o[k].l4_off);
		put(l, o[k].csum_start);
		put(l, o[k].csum_offset);
		put(l, o[k].flags);
		put(l, o[k].gso_type);
		put(l, o[k].vlan_tci);
		put(l, o[k].rx_hash);
		put(l, o[k].first_ns);
		put(l, o[k].dsa != NULL);
		put(l, o[k].hdr != NULL);
		for (j = 0; o[k].hdr && j < o[k].hdr_len; j++)
			put(l, o[k].hdr[j]);
		for (j = 0; j < o[k].nslices; j++) {
			put(l, (uint64_t)(uintptr_t)o[k].slices[j].data);
			put(l, o[k].slices[j].len);
			put(l, o[k].slices[j].pkt);
			put(l, o[k].slices[j].buf);
		}
		for (j = 0; j < o[k].ncookies; j++)
			put(l, (uint64_t)(uintptr_t)o[k].cookies[j]);
	}
}

enum mut {
	M_NONE, M_SEQ_GAP, M_SEQ_BACK, M_ID_STEP, M_IP_CSUM, M_TTL, M_TOS, M_DF, M_FLOWLABEL, M_PSH, M_FIN, M_ACK,
	M_WINDOW, M_TSOPT, M_PORT, M_ADDR, M_SHORT, M_LONG, M_PAD, M_LEN_PAST, M_CSUM_NONE, M_VLAN, M_EMPTY_BUF, M_NULL_BUF,
	M_NULL_BYTES, M_FEWER_BUFS, M_HDR_SPLIT, M_SHORT_SPLIT, M_RESPLIT, M_RESPLIT0, M_NULL_FIRST, M_RESPLIT_BACK,
	M_RESPLIT_IDBACK, M_PAD_MID, M_PAD_LAST, M_NULL_ARRAY, NMUT,
	/* UDP only */
	M_ZERO = NMUT, M_ULEN, M_ZERO_ALL, NMUT_UDP
};
/* The changes that mean something for a UDP datagram (no sequence
 * number, flags, ACK, window or TCP option). */
static int udp_mut(enum mut m)
{
	return m != M_SEQ_GAP && m != M_SEQ_BACK && m != M_PSH && m != M_FIN && m != M_ACK && m != M_WINDOW &&
	       m != M_TSOPT && m != M_RESPLIT_BACK;
}
/* a UDP flow (make(), feed()) */
static int udp;

static uint8_t frames[NSEG][FRAME + 64];
static uint32_t flen[NSEG];
static struct ofl_buf bufs[NSEG][6];
static struct ofl_pkt pkts[NSEG];

/* The flow: NSEG full segments with TCP timestamps (opt) or none, the last
 * short; frame mid changed as m says. */
static void make(int l3, int opt, enum mut m)
{
	struct gen_tcp g;
	uint32_t k;
	gen_tcp_init(&g, l3);
	g.seq = 0xfffff000u; /* wraps inside the flow */
	g.ip_id = 0x1234;
	g.udp = udp != 0;
	g.udp_zero_csum = m == M_ZERO_ALL;
	if (opt) {
		static const uint8_t ts[12] = {1, 1, 8, 10, 0, 0, 0, 9, 0, 0, 0, 7};
		memcpy(g.opts, ts, sizeof ts);
		g.optlen = 12;
	}
	for (k = 0; k < NSEG; k++) {
		struct gen_tcp f = g;
		f.payload_len = k == NSEG - 1 ? MSS / 3 : MSS;
		if (k == mid) {
			switch (m) {
			case M_SEQ_GAP: f.seq += 1; break;
			case M_SEQ_BACK: f.seq -= MSS; break;
			case M_ID_STEP: f.ip_id = (uint16_t)(f.ip_id + 2); break;
			case M_IP_CSUM: f.bad_ip_csum = true; break;
			case M_TTL: f.ttl--; break;
			case M_TOS: f.tos ^= 4; break;
			case M_DF: f.df = false; break;
			case M_FLOWLABEL: f.flowlabel ^= 1; break;
			case M_PSH: f.flags |= GEN_PSH; break;
			case M_FIN: f.flags |= GEN_FIN; break;
			case M_ACK: f.ack += 1; break;
			case M_WINDOW: f.window--; break;
			case M_TSOPT: f.opts[7] ^= opt ? 1 : 0; f.optlen = opt ? 12 : 4; if (!opt) memset(f.opts, 1, 4); break;
			case M_PORT: f.dport++; break;
			/* a byte the AVX2 compare reads in its block at 32 only,
			 * with timestamps (IPv4) or without (IPv6) */
			case M_ADDR: if (l3 == 4) f.daddr[3] ^= 1; else f.saddr[15] ^= 1; break;
			case M_SHORT: f.payload_len = MSS - 1; break;
			case M_LONG: f.payload_len = MSS + 1; break;
			case M_PAD: f.pad_to = FRAME + 8; break;
			case M_LEN_PAST: f.ip_len_delta = 4; break;
			/* with the buffers split otherwise (lay_mid()): the
			 * previous frame's sequence number or IP ID */
			case M_RESPLIT_BACK: f.seq -= MSS; break;
			case M_RESPLIT_IDBACK: f.ip_id = (uint16_t)(f.ip_id - 1); break;
			case M_ZERO: f.udp_zero_csum = true; break;
			case M_ULEN: f.udp_len_delta = -1; break;
			default: break;
			}
		}
		flen[k] = (uint32_t)gen_tcp_frame(&f, frames[k], sizeof frames[k]);
		ck_assert_uint_gt(flen[k], 0);
		if (k == mid && (m == M_PAD_MID || m == M_PAD_LAST)) {
			/* one byte of Ethernet padding (lay_mid() puts it) */
			f.pad_to = flen[k] + 1;
			flen[k] = (uint32_t)gen_tcp_frame(&f, frames[k], sizeof frames[k]);
		}
		g.seq += f.payload_len;
		g.ip_id++;
	}
}

/* Frame k in nb buffers, the first ending at byte sp (at most the frame),
 * the rest in nb - 1 buffers of uneven lengths (the last the longest). */
static void lay_out(unsigned k, unsigned nb, uint32_t sp)
{
	const uint8_t *f = frames[k];
	uint32_t rest, off, j;
	struct ofl_buf *b = bufs[k];
	if (sp > flen[k])
		sp = flen[k];
	memset(&pkts[k], 0, sizeof pkts[k]);
	pkts[k].bufs = b;
	pkts[k].nbufs = (uint16_t)nb;
	pkts[k].csum_status = OFL_CSUM_UNNECESSARY;
	pkts[k].cookie = (void *)(uintptr_t)(0x100 + k);
	if (nb == 1) {
		b[0] = (struct ofl_buf){f, flen[k]};
		return;
	}
	b[0] = (struct ofl_buf){f, sp};
	rest = flen[k] - sp;
	off = sp;
	for (j = 1; j < nb; j++) {
		uint32_t l = j == nb - 1 ? flen[k] - off : rest / nb + 7 * j;
		if (l > flen[k] - off)
			l = flen[k] - off;
		b[j] = (struct ofl_buf){f + off, l};
		off += l;
	}
}

/* Frame mid's buffers or metadata changed as m says. */
static void lay_mid(enum mut m, unsigned nb, uint32_t hl)
{
	struct ofl_pkt *p = &pkts[mid];
	struct ofl_buf *b = bufs[mid];
	switch (m) {
	case M_CSUM_NONE:
		p->csum_status = OFL_CSUM_NONE;
		break;
	case M_VLAN:
		p->flags |= OFL_PKT_F_VLAN;
		p->vlan_tci = 5;
		break;
	case M_EMPTY_BUF:
	case M_NULL_BUF:
		if (nb >= 3) {
			b[1].len += b[2].len;
			b[2].len = 0;
			if (m == M_NULL_BUF)
				b[2].data = NULL;
		}
		break;
	case M_NULL_BYTES:
		if (nb >= 2)
			b[nb - 1].data = NULL;
		break;
	case M_FEWER_BUFS:
		if (nb >= 3) {
			b[nb - 2].len += b[nb - 1].len;
			p->nbufs--;
		}
		break;
	case M_HDR_SPLIT:
		if (nb >= 2)
			lay_out(mid, nb, hl - 5);
		break;
	case M_SHORT_SPLIT:
		/* four buffers 24 bytes short of what the IP length says,
		 * the second one and twice the third adding up to the full
		 * rest (the sum must take each once) */
		if (nb == 4) {
			uint32_t r = b[1].len + b[2].len + b[3].len, b1 = b[1].len - ((r - b[1].len) & 1u);
			b[1].len = b1;
			b[2].data = b[1].data + b1;
			b[2].len = (r - b1) / 2;
			b[3].data = b[2].data + b[2].len;
			b[3].len = r - 24 - b1 - b[2].len;
		}
		break;
	case M_RESPLIT:
	case M_RESPLIT_BACK:
	case M_RESPLIT_IDBACK:
		/* the same bytes, 5 moved from the second buffer to the third */
		if (nb >= 3 && b[1].len > 5) {
			b[1].len -= 5;
			b[2].data -= 5;
			b[2].len += 5;
		}
		break;
	case M_RESPLIT0:
		/* the same bytes, the second buffer's first in the first */
		if (nb >= 2 && b[1].len > 1) {
			b[0].len++;
			b[1].data++;
			b[1].len--;
		}
		break;
	case M_NULL_FIRST:
		b[0].data = NULL;
		break;
	case M_NULL_ARRAY:
		p->bufs = NULL; /* its buffer count kept */
		break;
	case M_PAD_MID:
	case M_PAD_LAST:
		/* laid out as the frame before, one buffer (the last but one,
		 * or the last) a byte longer: the padding */
		if (nb >= 3) {
			uint32_t off = 0, j, x = m == M_PAD_MID ? nb - 2 : nb - 1;
			for (j = 0; j < nb; j++) {
				b[j].data = frames[mid] + off;
				b[j].len = bufs[mid - 1][j].len + (j == x);
				off += b[j].len;
			}
		}
		break;
	default:
		break;
	}
}

struct result {
	struct log log;
	struct ofl_gro_stats st;
	unsigned taken;
	int err;
};

static struct result res[2];

/* cfgv 0: defaults; 1: max_segs 5; 2: max_size 4000 (and 4 buffers at
 * most: a frame of 5 is the caller's error). */
static void feed(struct result *r, int burst, unsigned cfgv)
{
	struct ofl_gro_config cfg;
	struct ofl_gro *gro;
	unsigned k;
	memset(r, 0, sizeof *r);
	ofl_gro_config_default(&cfg);
	cfg.deliver = collect;
	cfg.user = &r->log;
	cfg.udp = (uint8_t)(udp != 0);
	if (cfgv == 1)
		cfg.max_segs = 5;
	if (cfgv == 2) {
		cfg.max_size = 4000;
		cfg.max_bufs = 4;
	}
	ck_assert_int_eq(ofl_gro_create(&cfg, &gro), 0);
	if (burst) {
		r->taken = ofl_gro_receive_burst(gro, pkts, NSEG, 1000, &r->err);
	} else {
		for (k = 0; k < NSEG; k++) {
			int e = ofl_gro_receive(gro, &pkts[k], 1000);
			if (e < 0) {
				r->err = e;
				break;
			}
		}
		r->taken = k;
	}
	ck_assert_int_eq(ofl_gro_poll_end(gro, r->taken, 1000, NULL), 0);
	ck_assert_int_eq(ofl_gro_flush(gro), 0);
	ck_assert_int_eq(ofl_gro_get_stats(gro, &r->st, sizeof r->st), 0);
	ofl_gro_destroy(gro);
	ck_assert_uint_le(r->log.n, LOGMAX);
}

/* The counters both paths must agree on: all but the lookups, which
 * merges header prediction decided and how the deliveries were batched
 * (everything is out: the gauges are 0). */
static void same_stats(struct ofl_gro_stats x, struct ofl_gro_stats y)
{
	x.out_lists = y.out_lists = 0;
	x.lookup_probes = y.lookup_probes = 0;
	x.lookups = y.lookups = 0;
	x.merged_fast = y.merged_fast = 0;
	ck_assert_mem_eq(&x, &y, sizeof x);
}

/* One case: both paths, compared; returns the segments delivered in the
 * largest packet (the run's reach). */
static unsigned one_case(int l3, int opt, unsigned nb, uint32_t sp, enum mut m, unsigned cfgv)
{
	uint32_t hl = (l3 == 4 ? 54u : 74u) - (udp ? 12u : 0u) + (opt ? 12u : 0u), k;
	unsigned j;
	make(l3, opt, m);
	for (k = 0; k < NSEG; k++)
		lay_out(k, nb, hl + sp - 8u);
	lay_mid(m, nb, hl);
	feed(&res[0], 1, cfgv);
	feed(&res[1], 0, cfgv);
	ck_assert_msg(res[0].taken == res[1].taken && res[0].err == res[1].err,
	              "l3 %d opt %d nb %u split %u mut %d cfg %u: took %u err %d burst, %u err %d single", l3, opt, nb,
	              hl + sp - 8u, (int)m, cfgv, res[0].taken, res[0].err, res[1].taken, res[1].err);
	for (j = 0; j < res[0].log.n && j < res[1].log.n; j++)
		if (res[0].log.v[j] != res[1].log.v[j])
			break;
	ck_assert_msg(j == res[0].log.n && j == res[1].log.n,
	              "l3 %d opt %d nb %u split %u mut %d cfg %u: output differs at word %u of %u/%u", l3, opt, nb,
	              hl + sp - 8u, (int)m, cfgv, j, res[0].log.n, res[1].log.n);
	same_stats(res[0].st, res[1].st);
	return res[0].st.out_segs ? (unsigned)res[0].st.merged : 0;
}

/* Every case of IPv(l3), TCP timestamps (opt) or none, a UDP flow (u) or
 * TCP, each fed both ways and compared (one_case()).  The first buffer ends 8 bytes inside the headers, at their end, or 1 or 300
 * bytes into the payload.  Under a memory checker (OFL_TEST_CHECKER: ASan,
 * memcheck) the default configuration only, the first buffer ending at
 * the headers' end or 1 byte after. */
static void all_cases(int l3, int opt, int u)
{
	static const uint32_t splits[] = {0, 8, 9, 308};
	const int checker = getenv("OFL_TEST_CHECKER") != NULL;
	const unsigned ncfg = checker ? 1 : 3, s0 = checker ? 1 : 0, s1 = checker ? 3 : 4;
	unsigned nb, s, m, c, merged_clean = 0;
	udp = u;
	for (c = 0; c < ncfg; c++)
		for (nb = 1; nb <= 5; nb++)
			for (s = s0; s < s1; s++)
				for (m = 0; m < (u ? NMUT_UDP : NMUT); m++) {
					/* with four or two buffers the changed frame
					 * also where run_bufs.c takes frames in pairs
					 * (two buffers: in fours; UDP, run_split_udp.c:
					 * in pairs, checked eight early) */
					static const unsigned mids[] = {7, 3, 4, 5, 10, 11, 15, 1, 2};
					unsigned got = 0, x;
					if (u && m < NMUT && !udp_mut((enum mut)m))
						continue;
					for (x = 0; x < ((nb == 4 || nb == 2) && !checker ? 9u : 1u); x++) {
						mid = mids[x];
						got = one_case(l3, opt, nb, splits[s], (enum mut)m, c);
						if (m == M_NONE && c == 0 && x == 0)
							merged_clean += got == NSEG - 1;
						if (m == M_ZERO_ALL && c == 0 && x == 0)
							ck_assert_uint_eq(got, 0); /* no datagram merged */
					}
				}
	udp = 0;
	/* the clean flow merges whole (the first frame held, the rest
	 * merged) in every layout */
	ck_assert_uint_eq(merged_clean, 5 * (s1 - s0));
}

/* _i: 0 IPv4, 1 IPv6, 2 IPv4 with TCP timestamps, 3 IPv6 with them. */
START_TEST(burst_equals_frames)
{
	all_cases(_i & 1 ? 6 : 4, _i >> 1, 0);
}
END_TEST

/* UDP: _i 0 IPv4, 1 IPv6; the first buffer as above, the changes that
 * mean something for a datagram (udp_mut()) and the UDP ones. */
START_TEST(udp_burst_equals_frames)
{
	all_cases(_i & 1 ? 6 : 4, 0, 1);
}
END_TEST

H_MAIN("gro_run_bufs", 0, 0, {burst_equals_frames, 4}, {udp_burst_equals_frames, 2})
