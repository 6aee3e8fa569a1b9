/*
 * kernel_fixture_test.c - our GRO against the real Linux kernel's, frame by
 * frame, on the committed fixtures of tests/fixtures/kernel/<name>/:
 *   IN.pcap              our synthetic input (tests/kernel/mkseq.c)
 *   OUT.pcap             what Linux 6.18's GRO delivered for it (kernel-gro
 *                        --complete-csum, tests/kernel/make-fixtures.sh)
 *   OUT.pcap.meta.tsv    the kernel's per-frame gso_type / gso_size.
 *
 * Every IN.pcap is fed through the harness (tests/support/harness.h) with
 * flush_timeout 0 and the oracle's NAPI poll boundaries (see feed()); each
 * delivered packet, linearized with full checksums by the harness, must equal
 * the kernel's frame at the same position: same count, lengths and bytes;
 * and merged packets must carry the kernel's gso_size and type.
 *
 * Where the oracle's kernel is limited by its setting, or older than the rule
 * we follow, the expected list is derived from the kernel's frames by an
 * explicit rule instead (struct special below, each with its reason).
 *
 * The tests never run the kernel.  Fixture directory: $OFL_SOURCE_DIR/tests/
 * fixtures/kernel (set by ctest), else the path compiled in.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "conserve.h"
#include "gen.h"
#include "harness.h"

#include <ofl/gro.h>

#ifndef OFL_KERNEL_FIXTURES
#define OFL_KERNEL_FIXTURES "tests/fixtures/kernel"
#endif

#define MAX_FRAMES 512
#define MAX_FIXTURES 128
#define POLL_BUDGET 64

/* ---------------------------------------------------------------------- */
/* A tiny classic-pcap reader (little-endian, microsecond, as written by
 * mkseq and the oracle). */

struct frame {
	uint8_t *data;
	uint32_t len;
};

struct capture {
	unsigned n;
	struct frame f[MAX_FRAMES];
};

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void cap_free(struct capture *c)
{
	unsigned i;
	for (i = 0; i < c->n; i++)
		free(c->f[i].data);
	c->n = 0;
}

static void cap_read(struct capture *c, const char *path)
{
	FILE *fp = fopen(path, "rb");
	uint8_t gh[24], rh[16];
	c->n = 0;
	ck_assert_msg(fp != NULL, "cannot open %s", path);
	ck_assert_msg(fread(gh, 1, 24, fp) == 24, "%s: no pcap header", path);
	ck_assert_msg(rd32(gh) == 0xa1b2c3d4u, "%s: not a little-endian microsecond pcap", path);
	ck_assert_msg(rd32(gh + 20) == 1, "%s: not Ethernet", path);
	while (fread(rh, 1, 16, fp) == 16) {
		uint32_t cl = rd32(rh + 8);
		ck_assert_msg(cl == rd32(rh + 12), "%s: truncated record", path);
		ck_assert_msg(cl <= 70000, "%s: record of %u bytes", path, cl);
		ck_assert_uint_lt(c->n, MAX_FRAMES);
		c->f[c->n].data = malloc(cl ? cl : 1);
		ck_assert_ptr_nonnull(c->f[c->n].data);
		ck_assert_msg(fread(c->f[c->n].data, 1, cl, fp) == cl, "%s: short record", path);
		c->f[c->n].len = cl;
		c->n++;
	}
	fclose(fp);
}

/* gso_type and gso_size columns of OUT.pcap.meta.tsv. */
struct meta {
	unsigned n;
	char gso_type[MAX_FRAMES][16];
	unsigned gso_size[MAX_FRAMES];
};

static void meta_read(struct meta *m, const char *path)
{
	FILE *fp = fopen(path, "r");
	char line[512];
	m->n = 0;
	ck_assert_msg(fp != NULL, "cannot open %s", path);
	while (fgets(line, sizeof(line), fp)) {
		char *col[16], *save = NULL, *t;
		unsigned nc = 0;
		if (line[0] == '#')
			continue;
		for (t = strtok_r(line, "\t\n", &save); t && nc < 16; t = strtok_r(NULL, "\t\n", &save))
			col[nc++] = t;
		ck_assert_msg(nc >= 8, "%s: short line", path);
		ck_assert_uint_lt(m->n, MAX_FRAMES);
		snprintf(m->gso_type[m->n], sizeof(m->gso_type[0]), "%s", col[5]);
		m->gso_size[m->n] = (unsigned)strtoul(col[7], NULL, 10);
		m->n++;
	}
	fclose(fp);
}

/* ---------------------------------------------------------------------- */
/* Deliberate differences from the oracle's kernel.
 *
 * spec: the expected delivered list as groups of the kernel's output frames
 * (of fixture `from`, or of this one), ';' between packets, '+' inside a
 * packet whose segments we merge where the kernel did not (merged
 * independently of the library: payloads concatenated behind the first
 * frame's headers, lengths, PSH/FIN and checksums recomputed); "*" = every
 * frame as it is.  vlan: insert an 802.1Q tag (TCI vlan) into every frame. */

struct special {
	const char *name;
	const char *from;
	const char *spec;
	uint16_t vlan;
	const char *why;
};

static const struct special specials[] = {
	/* The kernel passes a segment of a held flow that it cannot merge up at
	 * once (GRO_NORMAL) and completes the held packet later, so the flow's
	 * bytes reach the stack out of order (oracle README).  We complete the
	 * held packet first: per-flow order is kept (and h_finish checks it). */
	{"bad_tcp_csum", NULL, "1;0;2", 0, "bad TCP checksum delivered after the held flow"},
	{"bad_ip_csum", NULL, "1;0;2", 0, "bad IPv4 checksum delivered after the held flow"},
	{"ip_options", NULL, "1;0;2", 0, "IPv4 options segment delivered after the held flow"},
	{"ip_fragment", NULL, "1;0;2", 0, "IPv4 fragment delivered after the held flow"},
	{"v6_fragment", NULL, "1;0;2", 0, "IPv6 fragment delivered after the held flow"},
	/* 6.18 still flushes on every CWR segment; the 2026 AccECN change
	 * (ab4c8b6f7fcb) lets CWR segments coalesce with each other, which is
	 * the rule we follow: the 3 CWR segments become one packet. */
	{"cwr", NULL, "0;1+2+3;4", 0, "CWR segments coalesce (2026 rule)"},
	/* veth has no RX hash: every flow lands in one GRO bucket of at most 8
	 * packets, so with 9 interleaved flows the kernel merges nothing.  Our
	 * flow table holds them all: each flow becomes one packet, exactly what
	 * the kernel makes of the same frames grouped flow by flow. */
	{"flows9", "flows9_grouped", "*", 0, "9 interleaved flows all merged"},
	/* This kernel has no 8021q, so in-band tagged TCP is not merged; a
	 * kernel with it merges the tagged flow like the untagged one. */
	{"vlan", "vlan_untagged", "*", 100, "802.1Q-tagged flow merged"},
	/* UDP GRO (udpgro_*): as for TCP above, the kernel passes a datagram it
	 * cannot merge up at once and keeps the held train of its flow (which
	 * may even go on merging after it: bad_csum_mid, IPv6, has no IP ID
	 * to break the train); we complete the train first.  Where the IPv4
	 * ID the refused datagram used breaks the kernel's train anyway, only
	 * the order differs. */
	{"udpgro_zero_csum_mid", NULL, "1;0;2", 0, "zero-checksum datagram delivered after the held train"},
	{"udpgro_len_mid", NULL, "1;0;2", 0, "bad-length datagram delivered after the held train"},
	{"udpgro_padded_mid", NULL, "1;0;2", 0, "padded datagram delivered after the held train"},
	{"udpgro_tiny", NULL, "2;0;1", 0, "length-8 datagrams delivered after the held train"},
	{"udpgro_bad_csum_mid", NULL, "in:0+1+2+3;4;5+6+7+8", 0,
	 "bad-checksum datagram ends the held train (the kernel merges around it)"},
};

static const struct special *find_special(const char *name)
{
	size_t i;
	for (i = 0; i < sizeof(specials) / sizeof(specials[0]); i++)
		if (strcmp(specials[i].name, name) == 0)
			return &specials[i];
	return NULL;
}

/* ---------------------------------------------------------------------- */
/* Independent construction of an expected merged frame. */

static uint16_t g16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static void p16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }

/* Offsets of L3 and L4 in a linear Ethernet frame (VLAN tags, IPv6 ext). */
static void offsets(const uint8_t *f, size_t len, size_t *l3, size_t *l4, int *ver)
{
	size_t off = 12;
	while (g16(f + off) == 0x8100 || g16(f + off) == 0x88a8)
		off += 4;
	*ver = g16(f + off) == 0x0800 ? 4 : 6;
	*l3 = off + 2;
	if (*ver == 4) {
		*l4 = *l3 + (f[*l3] & 0xfu) * 4u;
	} else {
		uint8_t nh = f[*l3 + 6];
		*l4 = *l3 + 40;
		while ((nh == 0 || nh == 43 || nh == 60) && *l4 + 8 <= len) {
			nh = f[*l4];
			*l4 += (f[*l4 + 1] + 1u) * 8u;
		}
	}
}

static struct frame merge(const struct frame *parts, unsigned n)
{
	struct frame out;
	struct c_flow cf;
	size_t total = 0, pos, l3, l4, l4len;
	uint8_t flags = 0, proto;
	uint32_t sum;
	unsigned i;
	int ver;
	for (i = 0; i < n; i++) {
		ck_assert(c_parse_l4(parts[i].data, parts[i].len, &cf));
		total += i == 0 ? cf.payload_off + cf.payload_len : cf.payload_len;
	}
	out.data = malloc(total);
	ck_assert_ptr_nonnull(out.data);
	out.len = (uint32_t)total;
	pos = 0;
	proto = cf.udp ? 17 : 6;
	for (i = 0; i < n; i++) {
		c_parse_l4(parts[i].data, parts[i].len, &cf);
		if (i == 0) {
			memcpy(out.data, parts[i].data, cf.payload_off);
			pos = cf.payload_off;
		}
		memcpy(out.data + pos, parts[i].data + cf.payload_off, cf.payload_len);
		pos += cf.payload_len;
	}
	offsets(out.data, total, &l3, &l4, &ver);
	for (i = 0; i < n && proto == 6; i++) {
		size_t a, b;
		int v;
		offsets(parts[i].data, parts[i].len, &a, &b, &v);
		flags |= parts[i].data[b + 13] & (GEN_FIN | GEN_PSH);
	}
	if (proto == 6)
		out.data[l4 + 13] |= flags;
	l4len = total - l4;
	if (ver == 4) {
		uint8_t *ip = out.data + l3;
		size_t ihl = (ip[0] & 0xfu) * 4u;
		p16(ip + 2, (uint16_t)(total - l3));
		p16(ip + 10, 0);
		p16(ip + 10, (uint16_t)~gen_csum_fold(ip, ihl, 0));
		sum = gen_csum_fold(ip + 12, 8, 0) + proto + (uint32_t)l4len;
	} else {
		uint8_t *ip = out.data + l3;
		p16(ip + 4, (uint16_t)(total - l3 - 40));
		sum = gen_csum_fold(ip + 8, 32, 0) + proto + (uint32_t)l4len;
	}
	if (proto == 17) {
		uint16_t c;
		p16(out.data + l4 + 4, (uint16_t)l4len);
		p16(out.data + l4 + 6, 0);
		c = (uint16_t)~gen_csum_fold(out.data + l4, l4len, sum);
		p16(out.data + l4 + 6, c ? c : 0xffff);
		return out;
	}
	p16(out.data + l4 + 16, 0);
	p16(out.data + l4 + 16, (uint16_t)~gen_csum_fold(out.data + l4, l4len, sum));
	return out;
}

static struct frame with_vlan(const struct frame *f, uint16_t tci)
{
	struct frame out;
	out.len = f->len + 4;
	out.data = malloc(out.len);
	ck_assert_ptr_nonnull(out.data);
	memcpy(out.data, f->data, 12);
	p16(out.data + 12, 0x8100);
	p16(out.data + 14, tci);
	memcpy(out.data + 16, f->data + 12, f->len - 12);
	return out;
}

static struct frame copy_frame(const struct frame *f)
{
	struct frame out = {malloc(f->len ? f->len : 1), f->len};
	ck_assert_ptr_nonnull(out.data);
	memcpy(out.data, f->data, f->len);
	return out;
}

/* Build the expected list from the kernel's frames and a spec ("in:" in
 * front: the indexes name the fixture's input frames instead). */
static void expect_from_spec(struct capture *exp, const struct capture *k, const struct capture *input,
                             const char *spec, uint16_t vlan)
{
	const char *p = spec;
	exp->n = 0;
	if (strncmp(p, "in:", 3) == 0) {
		k = input;
		p += 3;
	}
	if (strcmp(spec, "*") == 0) {
		unsigned i;
		for (i = 0; i < k->n; i++)
			exp->f[exp->n++] = vlan ? with_vlan(&k->f[i], vlan) : copy_frame(&k->f[i]);
		return;
	}
	while (*p) {
		struct frame parts[MAX_FRAMES], one;
		unsigned np = 0;
		for (;;) {
			char *e;
			unsigned long idx = strtoul(p, &e, 10);
			ck_assert_msg(e != p && idx < k->n, "bad spec '%s'", spec);
			parts[np++] = k->f[idx];
			p = e;
			if (*p != '+')
				break;
			p++;
		}
		one = np == 1 ? copy_frame(&parts[0]) : merge(parts, np);
		if (vlan) {
			struct frame t = with_vlan(&one, vlan);
			free(one.data);
			one = t;
		}
		exp->f[exp->n++] = one;
		if (*p == ';')
			p++;
	}
}

/* ---------------------------------------------------------------------- */

static char fixdir[1024];
static char *names[MAX_FIXTURES];
static unsigned nnames;

/* Each fixture runs in these buffer layouts and delivery batch sizes; the
 * result must not depend on either. */
static const struct {
	int split;
	uint16_t normal_batch; /* 0: default (8, like the kernel) */
} modes[] = {
	{H_SPLIT_NONE, 0},
	{H_SPLIT_FOUR, 0},
	{H_SPLIT_BYTES, 0},
	{H_SPLIT_NONE, 1},
};
#define NSPLIT (sizeof(modes) / sizeof(modes[0]))

static struct harness H; /* large: keep it off the stack */
static struct capture in, kout, exp_out;
static struct meta kmeta;

static void load_from(const char *dir, const char *name, const char *file, struct capture *c)
{
	char path[1400];
	snprintf(path, sizeof(path), "%s/%s/%s", dir, name, file);
	cap_read(c, path);
}

static void load(const char *name, const char *file, struct capture *c)
{
	load_from(fixdir, name, file, c);
}

/* Fraglist fixtures (fixtures/kernel-fraglist, make-fixtures.sh -l): the
 * inputs of fixtures/kernel through the kernel with rx-gro-list on.  The
 * kernel's merged frame is its chain's head with every payload behind it
 * (what a packet socket copies out of a frag_list skb): its lengths
 * rewritten, its TCP or UDP checksum still the first segment's
 * (CHECKSUM_UNNECESSARY, nothing to finish).  Ours is the same merged
 * packet with the checksum finished (FULL): completed here to compare. */
static char ldir[1100];
static int list_mode;

static void complete_l4(struct frame *f, uint8_t proto)
{
	size_t l3, l4, l4len;
	int ver;
	uint32_t sum;
	unsigned off = proto == 17 ? 6u : 16u;
	offsets(f->data, f->len, &l3, &l4, &ver);
	if (l4 + off + 2 > f->len)
		return;
	l4len = f->len - l4;
	sum = ver == 4 ? gen_csum_fold(f->data + l3 + 12, 8, 0) : gen_csum_fold(f->data + l3 + 8, 32, 0);
	sum += proto + (uint32_t)l4len;
	p16(f->data + l4 + off, 0);
	sum = (uint16_t)~gen_csum_fold(f->data + l4, l4len, sum);
	if (sum == 0 && proto == 17)
		sum = 0xffff;
	p16(f->data + l4 + off, (uint16_t)sum);
}

/* Feed a capture the way the oracle's kernel polled it: the first frame is
 * polled alone, and with gro_flush_timeout 5 ms that poll's end keeps the
 * held packet (only packets older than a jiffy are flushed), so we end no
 * poll there; then polls of 64 frames: after a full-budget poll the kernel
 * flushes everything (HZ < 1000), which ofl_gro_poll_end() does with
 * flush_timeout 0; the last, partial poll is flushed the same way. */
static void feed(struct harness *h, const struct capture *c)
{
	unsigned i, inpoll = 0;
	uint64_t now = 1000000;
	for (i = 0; i < c->n; i++) {
		ck_assert_int_ge(h_rx(h, c->f[i].data, c->f[i].len, now), 0);
		if (i == 0)
			continue;
		if (++inpoll == POLL_BUDGET) {
			ck_assert_int_eq(ofl_gro_poll_end(h->gro, inpoll, now, NULL), 0);
			inpoll = 0;
		}
		now += 1000;
	}
	ck_assert_int_eq(ofl_gro_poll_end(h->gro, inpoll ? inpoll : 1, now, NULL), 0);
}

static void describe(char *buf, size_t cap, const struct capture *c)
{
	size_t pos = 0;
	unsigned i;
	buf[0] = 0;
	for (i = 0; i < c->n && pos + 16 < cap; i++) {
		struct c_flow cf;
		unsigned pl = c_parse_l4(c->f[i].data, c->f[i].len, &cf) ? (unsigned)cf.payload_len : 0;
		pos += (size_t)snprintf(buf + pos, cap - pos, "%s%u/%u", i ? "," : "", c->f[i].len, pl);
	}
}

/* The kernel's frames of fixture name (kernel-fraglist: their merged
 * frames' checksums completed, as ours are). */
static void load_out(const char *name, struct capture *c, struct meta *m)
{
	char mpath[1400];
	unsigned i;
	load_from(list_mode ? ldir : fixdir, name, "OUT.pcap", c);
	snprintf(mpath, sizeof(mpath), "%s/%s/OUT.pcap.meta.tsv", list_mode ? ldir : fixdir, name);
	meta_read(m, mpath);
	ck_assert_uint_eq(m->n, c->n);
	for (i = 0; list_mode && i < c->n; i++)
		if (strcmp(m->gso_type[i], "none") != 0)
			complete_l4(&c->f[i], strcmp(m->gso_type[i], "udp_l4") == 0 ? 17 : 6);
}

static void run_fixture(const char *name, int split, unsigned mode, int list)
{
	const struct special *sp = find_special(name);
	struct ofl_gro_config cfg;
	struct capture ours;
	char kbuf[2048], obuf[2048];
	unsigned i;

	list_mode = list;
	load(name, "IN.pcap", &in);
	ck_assert_uint_gt(in.n, 0);
	ck_assert_uint_lt(in.n, 100); /* one burst at the oracle */
	if (sp) {
		load_out(sp->from ? sp->from : name, &kout, &kmeta);
		expect_from_spec(&exp_out, &kout, &in, sp->spec, sp->vlan);
	} else {
		load_out(name, &exp_out, &kmeta);
	}

	ofl_gro_config_default(&cfg);
	cfg.fraglist = (uint8_t)list; /* (UDP is chained then, udp or not) */
	cfg.flush_timeout_ns = 0;
	/* udpgro_*: recorded with rx-udp-gro-forwarding on */
	cfg.udp = strncmp(name, "udpgro_", 7) == 0;
	if (modes[mode].normal_batch)
		cfg.normal_batch = modes[mode].normal_batch;
	h_init(&H, &cfg, split);
	feed(&H, &in);
	h_finish(&H);

	ours.n = H.nout;
	for (i = 0; i < H.nout && i < MAX_FRAMES; i++) {
		ours.f[i].data = H.out[i].frame;
		ours.f[i].len = H.out[i].len;
	}
	describe(kbuf, sizeof(kbuf), &exp_out);
	describe(obuf, sizeof(obuf), &ours);
	ck_assert_msg(H.nout == exp_out.n, "%s (mode %u%s%s): %u packets delivered, expected %u\n"
	              "  expected len/payload: %s\n  ours:                 %s",
	              name, mode, sp ? ", " : "", sp ? sp->why : "", H.nout, exp_out.n, kbuf, obuf);
	for (i = 0; i < H.nout; i++) {
		const struct frame *e = &exp_out.f[i];
		size_t k = 0;
		if (H.out[i].len == e->len)
			while (k < e->len && H.out[i].frame[k] == e->data[k])
				k++;
		ck_assert_msg(H.out[i].len == e->len && k == e->len,
		              "%s (mode %u): packet %u differs (len %u vs expected %u, first byte %zu)\n"
		              "  expected len/payload: %s\n  ours:                 %s",
		              name, mode, i, H.out[i].len, e->len, k, kbuf, obuf);
		if (!sp) {
			/* The kernel's virtio_net_hdr: merged packets are GSO. */
			int kgso = strcmp(kmeta.gso_type[i], "none") != 0;
			ck_assert_msg(kgso == (H.out[i].seg_count > 1),
			              "%s: packet %u: kernel gso_type %s, our seg_count %u", name, i,
			              kmeta.gso_type[i], H.out[i].seg_count);
			if (kgso) {
				ck_assert_uint_eq(kmeta.gso_size[i], H.out[i].seg_size);
				ck_assert_uint_ne(H.out[i].gso_type &
				                  (strcmp(kmeta.gso_type[i], "tcpv4") == 0   ? OFL_GSO_TCPV4
				                   : strcmp(kmeta.gso_type[i], "udp_l4") == 0 ? OFL_GSO_UDP_L4
				                                                             : OFL_GSO_TCPV6),
				                  0);
				ck_assert_uint_eq(H.out[i].gso_type & OFL_GSO_TUNNEL_MASK, list ? OFL_GSO_FRAGLIST : 0);
			}
		}
	}
	cap_free(&in);
	cap_free(&kout);
	cap_free(&exp_out);
	h_free(&H);
}

START_TEST(test_fixture)
{
	unsigned mode = (unsigned)_i % NSPLIT;
	run_fixture(names[(unsigned)_i / NSPLIT], modes[mode].split, mode, 0);
}
END_TEST

/* Fraglist mode: the same inputs, the kernel with rx-gro-list on (the
 * harness walks every list packet back to its input frames). */
static char *lnames[MAX_FIXTURES];
static unsigned nlnames;

START_TEST(test_fraglist_fixture)
{
	/* one buffer, and one byte per buffer (the rule tables run every
	 * layout in this mode: gro_udp_test, gro_list_test) */
	unsigned mode = (unsigned)_i % 2u ? 2u : 0u;
	run_fixture(lnames[(unsigned)_i / 2u], modes[mode].split, mode, 1);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Tunnels: fixtures/kernel-tunnel (mkseq -t, make-fixtures.sh -t), made by
 * the oracle with a VXLAN device on port 4789 (IP-in-IP and GRE need none);
 * fed to a context with vxlan_ports {4789}, ipip and gre, polled as feed()
 * polls, each delivered frame (ours linearized with full checksums) equal
 * to the kernel's, merged exactly where the kernel merged, with its
 * gso_size.  One deliberate difference: the kernel leaves a merged GRE
 * packet's GRE checksum as the first segment had it (gre_gro_complete does
 * not touch it), we write the merged packet's (gre.c), so the kernel's is
 * recomputed before comparing (complete_gre).
 * (The harness's cut-back reads a tunnel frame as UDP: not used here.) */

static char *tnames[MAX_FIXTURES];
static unsigned ntnames;

/* A merged frame the kernel delivered with the outer UDP checksum seed
 * (IPv4 outer, no VLAN in our fixtures): completed as our FULL mode does. */
static void complete_outer(uint8_t *f, uint32_t len)
{
	uint32_t ol4 = 14u + (f[14] & 0xfu) * 4u, s;
	if (g16(f + 12) != 0x0800 || f[23] != 17 || ol4 + 8 > len || (f[ol4 + 6] | f[ol4 + 7]) == 0)
		return;
	f[ol4 + 6] = f[ol4 + 7] = 0;
	s = gen_csum_fold(f + 26, 8, 0) + 17u + (len - ol4);
	s = (uint16_t)~gen_csum_fold(f + ol4, len - ol4, s);
	if (s == 0)
		s = 0xffff;
	f[ol4 + 6] = (uint8_t)(s >> 8);
	f[ol4 + 7] = (uint8_t)s;
}

/* A merged GRE frame with the C bit (outer IPv4 or IPv6, no VLAN in our
 * fixtures): its GRE checksum written for the whole merged packet, as we
 * deliver it. */
static void complete_gre(uint8_t *f, uint32_t len)
{
	uint32_t et = g16(f + 12), gre, s;
	if (et == 0x0800 && len >= 34 && f[23] == 47)
		gre = 14u + (f[14] & 0xfu) * 4u;
	else if (et == 0x86dd && len >= 54 && f[20] == 47)
		gre = 54;
	else
		return;
	if (gre + 8 > len || !(f[gre] & 0x80))
		return;
	f[gre + 4] = f[gre + 5] = 0;
	s = (uint16_t)~gen_csum_fold(f + gre, len - gre, 0);
	f[gre + 4] = (uint8_t)(s >> 8);
	f[gre + 5] = (uint8_t)s;
}

static struct capture tun_ours;
static unsigned our_segs[MAX_FRAMES], our_size[MAX_FRAMES];

static void tun_deliver(void *user, const struct ofl_gro_out *o, unsigned n)
{
	unsigned i;
	(void)user;
	for (i = 0; i < n; i++) {
		struct frame *f = &tun_ours.f[tun_ours.n];
		ck_assert_uint_lt(tun_ours.n, MAX_FRAMES);
		f->data = malloc(o[i].len ? o[i].len : 1);
		ck_assert_int_eq(ofl_gro_linearize(&o[i], f->data, o[i].len, OFL_CSUM_MODE_FULL), (int)o[i].len);
		f->len = o[i].len;
		our_segs[tun_ours.n] = o[i].seg_count;
		our_size[tun_ours.n] = o[i].seg_size;
		tun_ours.n++;
	}
}

START_TEST(test_tunnel_fixture)
{
	const char *name = tnames[_i];
	unsigned i;
	struct ofl_gro_config cfg;
	struct ofl_gro *g;
	char path[1400];
	snprintf(path, sizeof(path), "%s-tunnel/%s/IN.pcap", fixdir, name);
	cap_read(&in, path);
	snprintf(path, sizeof(path), "%s-tunnel/%s/OUT.pcap", fixdir, name);
	cap_read(&kout, path);
	snprintf(path, sizeof(path), "%s-tunnel/%s/OUT.pcap.meta.tsv", fixdir, name);
	meta_read(&kmeta, path);
	ck_assert_uint_eq(kmeta.n, kout.n);
	ck_assert_uint_lt(in.n, 100);
	ofl_gro_config_default(&cfg);
	cfg.vxlan_nports = 1;
	cfg.vxlan_ports[0] = 4789;
	cfg.ipip = 1;
	cfg.gre = 1;
	cfg.deliver = tun_deliver;
	ck_assert_int_eq(ofl_gro_create(&cfg, &g), 0);
	tun_ours.n = 0;
	for (i = 0; i < in.n; i++) {
		struct ofl_buf b = {in.f[i].data, in.f[i].len};
		struct ofl_pkt pk;
		memset(&pk, 0, sizeof(pk));
		pk.bufs = &b;
		pk.nbufs = 1;
		pk.cookie = (void *)(uintptr_t)i;
		ck_assert_int_ge(ofl_gro_receive(g, &pk, 0), 0);
		/* the oracle's polls, as feed() */
		if (i && i % POLL_BUDGET == 0)
			ofl_gro_poll_end(g, POLL_BUDGET, 0, NULL);
	}
	ofl_gro_poll_end(g, 1, 0, NULL);
	ofl_gro_destroy(g);
	ck_assert_msg(tun_ours.n == kout.n, "%s: %u packets, the kernel %u", name, tun_ours.n, kout.n);
	for (i = 0; i < kout.n; i++) {
		struct frame *k = &kout.f[i], *o = &tun_ours.f[i];
		int kgso = strcmp(kmeta.gso_type[i], "none") != 0;
		if (kgso) {
			complete_outer(k->data, k->len);
			complete_gre(k->data, k->len);
		}
		ck_assert_msg(o->len == k->len && memcmp(o->data, k->data, k->len) == 0,
		              "%s: packet %u differs (len %u, the kernel's %u)", name, i, o->len, k->len);
		ck_assert_msg(kgso == (our_segs[i] > 1), "%s: packet %u: kernel gso_type %s, seg_count %u", name, i,
		              kmeta.gso_type[i], our_segs[i]);
		if (kgso)
			ck_assert_uint_eq(kmeta.gso_size[i], our_size[i]);
	}
	cap_free(&in);
	cap_free(&kout);
	cap_free(&tun_ours);
}
END_TEST

/* Every deliberate difference must name an existing fixture, and there must
 * be enough fixtures. */
START_TEST(test_inventory)
{
	size_t i;
	unsigned j;
	ck_assert_uint_ge(nnames, 15);
	ck_assert_uint_ge(ntnames, 43); /* the VXLAN, IP-in-IP and GRE fixtures (committed) */
	ck_assert_uint_ge(nlnames, 15); /* the fraglist ones */
	for (i = 0; i < sizeof(specials) / sizeof(specials[0]); i++) {
		int found = 0, from = specials[i].from == NULL;
		for (j = 0; j < nnames; j++) {
			found |= strcmp(names[j], specials[i].name) == 0;
			if (specials[i].from)
				from |= strcmp(names[j], specials[i].from) == 0;
		}
		ck_assert_msg(found && from, "fixture for '%s' missing", specials[i].name);
	}
}
END_TEST

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The fixtures of dir (those with the file want), sorted, into list. */
static void scan_dir_for(const char *dir, const char *want, char **list, unsigned *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	if (!d) {
		fprintf(stderr, "kernel_fixture_test: cannot open %s\n", dir);
		return;
	}
	while ((de = readdir(d)) != NULL && *n < MAX_FIXTURES) {
		char path[1400];
		struct stat st;
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s", dir, de->d_name, want);
		if (stat(path, &st) != 0)
			continue;
		list[*n] = malloc(strlen(de->d_name) + 1);
		if (!list[*n])
			break;
		strcpy(list[(*n)++], de->d_name);
	}
	closedir(d);
	qsort(list, *n, sizeof(list[0]), cmp_names);
}

static void scan_dir(const char *dir, char **list, unsigned *n)
{
	scan_dir_for(dir, "IN.pcap", list, n);
}

static void scan_fixtures(void)
{
	const char *src = getenv("OFL_SOURCE_DIR");
	char tdir[1100];
	if (src && *src)
		snprintf(fixdir, sizeof(fixdir), "%s/tests/fixtures/kernel", src);
	else
		snprintf(fixdir, sizeof(fixdir), "%s", OFL_KERNEL_FIXTURES);
	scan_dir(fixdir, names, &nnames);
	snprintf(tdir, sizeof(tdir), "%s-tunnel", fixdir);
	scan_dir(tdir, tnames, &ntnames);
	snprintf(ldir, sizeof(ldir), "%s-fraglist", fixdir);
	scan_dir_for(ldir, "OUT.pcap", lnames, &nlnames);
}

int main(void)
{
	struct h_test tests[] = {{test_inventory, 0}, {test_fixture, 0}, {test_tunnel_fixture, 0},
	                         {test_fraglist_fixture, 0}};
	int failed;
	unsigned i;
	scan_fixtures();
	tests[1].loops = (int)(nnames * NSPLIT);
	tests[2].loops = (int)ntnames;
	tests[3].loops = (int)(nlnames * 2u);
	failed = h_run_table("kernel_fixture", 0, 0, tests, nnames ? 4 : 1);
	for (i = 0; i < nnames; i++)
		free(names[i]);
	for (i = 0; i < ntnames; i++)
		free(tnames[i]);
	for (i = 0; i < nlnames; i++)
		free(lnames[i]);
	return failed != 0;
}
