/*
 * gso_roundtrip_test.c - GRO and GSO undo each other.
 *
 * GRO then GSO: every bulk TCP capture of the corpus (MANIFEST.tsv rows with
 * link type 1 and an in-order run of at least 50 full-size segments) goes
 * through the GRO engine in polls of 64 frames; every merged packet is cut
 * again by ofl_gso_start_gro() inside the deliver callback (a forwarding
 * path) and each segment must equal, byte for byte, the original frame
 * whose cookie the GRO packet carried (Ethernet padding aside).  Odd files
 * use partial checksums, completed here independently.
 *
 * GRO then GSO through tunnels: VXLAN, Geneve, IP in IP and GRE flows of our
 * generator (gen_tun.h) merged, then cut by the tunnel the packet names.
 *
 * GSO then GRO: generated super-packets (TCP4/TCP6, VLAN or not, fixed or
 * incrementing IDs, 64000 bytes and 80000-byte BIG TCP) are segmented, the
 * segments fed to GRO as header + payload buffers, and GRO must give back one
 * packet equal to the super-packet.
 */
#include <check.h>
#include <ofl/gro.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_tun.h"
#include "gso_util.h"
#include "harness.h"

static const char *corpora(void)
{
	const char *d = getenv("OFL_CORPORA");
	return d ? d : "../shared/corpora";
}

/* ---- GRO then GSO ---- */

struct rt {
	struct gu_pcap *cap;
	int partial;
	int whole; /* compare whole frames (no padding to leave out) */
	unsigned merged_pkts, segs_checked, errors, vnet_checked;
};

/* A merged packet through IP in IP or GRE: no virtio_net_hdr form. */
static int no_vnet_form(unsigned gso_type)
{
	unsigned t = gso_type & OFL_GSO_TUNNEL_MASK;
	return t == OFL_GSO_IPXIP4 || t == OFL_GSO_IPXIP6 || t == OFL_GSO_GRE || t == OFL_GSO_GRE_CSUM;
}

/* The TAP path: the GRO packet written as a TAP device wants it (its
 * virtio_net_hdr, then the frame with the partial checksum), read back by
 * ofl_gso_start_vnet(): the same segments again. */
static void vnet_again(struct rt *r, const struct ofl_gro_out *o, const struct gu_segs *want)
{
	struct ofl_gso_iter it;
	struct ofl_buf b;
	struct gu_segs *sg = calloc(1, sizeof(*sg));
	/* through a UDP tunnel, the 24-byte header of Linux 6.17 */
	unsigned vl = (o->gso_type & OFL_GSO_TUNNEL_MASK) ? OFL_VNET_HDR_TUNNEL_LEN : 10;
	uint8_t *buf = malloc(vl + o->len);
	unsigned k;
	ck_assert_int_eq(ofl_gro_vnet_hdr_le(o, 0, buf, vl), (int)vl);
	ck_assert_int_eq(ofl_gro_linearize(o, buf + vl, o->len, OFL_CSUM_MODE_PARTIAL), (int)o->len);
	b.data = buf;
	b.len = vl + o->len;
	ck_assert_int_eq(ofl_gso_start_vnet(&it, NULL, vl, OFL_GSO_L2_ETH, &b, 1), 0);
	ck_assert_int_eq(gu_collect(&it, sg, 2, 256), 0);
	ck_assert_uint_eq(sg->n, want->n);
	/* virtio_net_hdr has no AccECN and no fixed-ID bit: such packets come
	 * back with CWR on the first segment only, or incrementing IDs */
	for (k = 0; k < sg->n && !(o->gso_type & (OFL_GSO_TCP_ECN | OFL_GSO_TCP_FIXEDID)); k++) {
		/* want's frames have complete checksums by now */
		if (sg->len[k] == want->len[k] && memcmp(sg->frame[k], want->frame[k], sg->len[k]) == 0)
			r->vnet_checked++;
		else if (r->errors++ < 3)
			fprintf(stderr, "virtio_net_hdr path: segment %u differs\n", k);
	}
	gu_segs_free(sg);
	free(sg);
	free(buf);
}

static void rt_deliver(void *user, const struct ofl_gro_out *pkts, unsigned n)
{
	struct rt *r = user;
	unsigned i;
	for (i = 0; i < n; i++) {
		const struct ofl_gro_out *o = &pkts[i];
		struct ofl_gso_req req;
		struct ofl_gso_iter it;
		struct gu_segs *sg;
		unsigned k;
		int rc;
		if (o->seg_count < 2)
			continue;
		r->merged_pkts++;
		ofl_gso_req_default(&req);
		req.csum = r->partial ? OFL_CSUM_MODE_PARTIAL : OFL_CSUM_MODE_FULL;
		rc = ofl_gso_start_gro(&it, &req, o);
		ck_assert_int_eq(rc, 0);
		sg = calloc(1, sizeof(*sg));
		ck_assert_int_eq(gu_collect(&it, sg, 2, 256), 0);
		ck_assert_uint_eq(sg->n, o->seg_count);
		for (k = 0; k < sg->n; k++) {
			unsigned idx = (unsigned)(uintptr_t)o->cookies[k] - 1;
			const uint8_t *orig = r->cap->frame[idx];
			struct gu_info gi;
			size_t olen;
			if (r->whole) {
				olen = r->cap->len[idx];
			} else {
				ck_assert(gu_parse(orig, r->cap->len[idx], &gi));
				olen = gi.ip.l4_off + gi.l4_len; /* without Ethernet padding */
			}
			if (r->partial)
				gu_complete_csum(sg->frame[k], sg->len[k], sg->seg[k].csum_start,
				                 sg->seg[k].csum_offset);
			if (sg->len[k] != olen || memcmp(sg->frame[k], orig, olen) != 0) {
				if (r->errors++ < 3)
					fprintf(stderr, "frame %u: segment %u/%u differs (len %u vs %zu)\n", idx + 1,
					        k, sg->n, sg->len[k], olen);
			}
			r->segs_checked++;
		}
		/* IP in IP and GRE have no virtio_net_hdr form */
		if (!no_vnet_form(o->gso_type))
			vnet_again(r, o, sg);
		gu_segs_free(sg);
		free(sg);
	}
}

struct bulk {
	unsigned n;
	char path[64][256];
};

static void bulk_list(struct bulk *b)
{
	char line[4096], mf[512];
	FILE *fp;
	memset(b, 0, sizeof(*b));
	snprintf(mf, sizeof(mf), "%s/MANIFEST.tsv", corpora());
	fp = fopen(mf, "r");
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp) && b->n < 64) {
		char *f[13];
		char *p = line;
		int c;
		for (c = 0; c < 13 && p; c++) {
			f[c] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = 0;
		}
		if (c < 13 || strcmp(f[5], "1") != 0 || atoi(f[11]) < 50)
			continue;
		c = snprintf(b->path[b->n], sizeof(b->path[0]), "%s/%s", corpora(), f[0]);
		if (c > 0 && (size_t)c < sizeof(b->path[0]))
			b->n++; /* a longer path is left out (not cut) */
	}
	fclose(fp);
}

static struct bulk files;

/* Every frame of cap (one buffer each, cookie = index + 1, time = index)
 * through a new GRO context delivering to deliver(user); with polls, a poll
 * every 64 frames; then a poll that flushes all at end_ns, and destroy. */
static void gro_all_tun(const struct gu_pcap *cap, ofl_gro_deliver_fn deliver, void *user, int polls,
                        uint64_t end_ns, int tun);

static void gro_all(const struct gu_pcap *cap, ofl_gro_deliver_fn deliver, void *user, int polls,
                    uint64_t end_ns)
{
	gro_all_tun(cap, deliver, user, polls, end_ns, 0);
}

/* The same with GRO through a tunnel (GEN_TUN_*: VXLAN on 4789, Geneve on
 * 6081, IP in IP, GRE, VXLAN-GPE on 4790; 0 none). */
static void gro_all_tun(const struct gu_pcap *cap, ofl_gro_deliver_fn deliver, void *user, int polls,
                        uint64_t end_ns, int tun)
{
	struct ofl_gro_config cfg;
	struct ofl_gro *gro;
	struct ofl_buf *bufs = calloc(cap->n ? cap->n : 1, sizeof(*bufs));
	unsigned i;
	ck_assert_ptr_nonnull(bufs);
	ofl_gro_config_default(&cfg);
	cfg.deliver = deliver;
	cfg.user = user;
	if (tun == GEN_TUN_VXLAN)
		cfg.vxlan_ports[cfg.vxlan_nports++] = 4789;
	if (tun == GEN_TUN_GENEVE)
		cfg.geneve_ports[cfg.geneve_nports++] = 6081;
	if (tun == GEN_TUN_VXLAN_GPE)
		cfg.vxlan_gpe_ports[cfg.vxlan_gpe_nports++] = 4790;
	cfg.ipip = tun == GEN_TUN_IPIP;
	cfg.gre = tun == GEN_TUN_GRE;
	ck_assert_int_eq(ofl_gro_create(&cfg, &gro), 0);
	for (i = 0; i < cap->n; i++) {
		struct ofl_pkt p;
		memset(&p, 0, sizeof(p));
		bufs[i].data = cap->frame[i];
		bufs[i].len = cap->len[i];
		p.bufs = &bufs[i];
		p.nbufs = 1;
		p.cookie = (void *)(uintptr_t)(i + 1);
		ck_assert_int_ge(ofl_gro_receive(gro, &p, i), 0);
		if (polls && i % 64 == 63)
			ofl_gro_poll_end(gro, 64, i, NULL);
	}
	ofl_gro_poll_end(gro, 0, end_ns, NULL);
	ofl_gro_destroy(gro);
	free(bufs);
}

START_TEST(test_gro_then_gso)
{
	struct gu_pcap cap;
	struct rt r;
	if ((unsigned)_i >= files.n)
		return;
	ck_assert(gu_pcap_read(files.path[_i], &cap));
	ck_assert_uint_eq(cap.linktype, 1);
	memset(&r, 0, sizeof(r));
	r.cap = &cap;
	r.partial = _i & 1;
	gro_all(&cap, rt_deliver, &r, 1, cap.n);
	fprintf(stderr, "%s: %u frames, %u GRO packets, %u segments given back (%u also through virtio_net_hdr)\n",
	        files.path[_i], cap.n, r.merged_pkts, r.segs_checked, r.vnet_checked);
	ck_assert_uint_eq(r.errors, 0);
	/* suri-crash: PSH on every segment; syn_retransmit_with_ts: 4 trailing
	 * bytes after every full-size segment (GRO passes those on) */
	if (!strstr(files.path[_i], "suri-crash") && !strstr(files.path[_i], "syn_retransmit"))
		ck_assert_uint_gt(r.segs_checked, 50);
	gu_pcap_free(&cap);
}
END_TEST

START_TEST(test_corpus_present)
{
	ck_assert_msg(files.n >= 18, "bulk TCP captures found: %u (OFL_CORPORA=%s)", files.n, corpora());
}
END_TEST

/* ---- GSO then GRO ---- */

static uint8_t sp[200000];

START_TEST(test_gso_then_gro)
{
	int l3 = (_i & 1) ? 6 : 4, vlan = (_i >> 1) & 1, fixed = (_i >> 2) & 1, bigtcp = (_i >> 3) & 1;
	struct gen_tcp g;
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct gu_segs *sg = calloc(1, sizeof(*sg));
	struct ofl_gro_config cfg;
	struct ofl_gro *gro;
	struct h_last bk;
	static struct ofl_buf bufs[GU_MAX_SEGS][OFL_GSO_SEG_MAX_SLICES + 1];
	struct ofl_buf in;
	size_t len;
	unsigned k;
	gen_tcp_init(&g, l3);
	g.payload_len = bigtcp ? 80000 : 64000;
	g.flags = GEN_ACK | GEN_PSH;
	g.nvlan = (uint8_t)vlan;
	g.vlan_tci[0] = 9;
	g.ip_id = 500;
	gen_opt_ts(&g, 77, 88);
	len = gen_tcp_frame(&g, sp, sizeof(sp));
	if (bigtcp)
		gu_bigtcp(sp, 14 + 4u * (unsigned)vlan);
	in.data = sp;
	in.len = (uint32_t)len;
	ofl_gso_req_default(&req);
	req.seg_size = 1448;
	req.flags = fixed ? OFL_GSO_F_FIXED_ID : 0;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &in, 1), 0);
	ck_assert_int_eq(gu_collect(&it, sg, 1, 256), 0);

	h_last_init(&bk, malloc(200000), 200000);
	ofl_gro_config_default(&cfg);
	cfg.deliver = h_last_deliver;
	cfg.user = &bk;
	cfg.max_size = 200000;
	ck_assert_int_eq(ofl_gro_create(&cfg, &gro), 0);
	for (k = 0; k < sg->n; k++) {
		/* header from our copy, payload straight from the super-packet */
		const struct ofl_gso_seg *s = &sg->seg[k];
		struct ofl_pkt p;
		uint32_t j;
		memset(&p, 0, sizeof(p));
		bufs[k][0].data = sg->frame[k];
		bufs[k][0].len = s->hdr_len;
		for (j = 0; j < s->nslices; j++) {
			bufs[k][j + 1].data = s->slices[j].data;
			bufs[k][j + 1].len = s->slices[j].len;
		}
		p.bufs = bufs[k];
		p.nbufs = (uint16_t)(s->nslices + 1);
		p.cookie = (void *)(uintptr_t)(k + 1);
		ck_assert_int_ge(ofl_gro_receive(gro, &p, k), 0);
	}
	ofl_gro_poll_end(gro, 0, 1000, NULL);
	ofl_gro_destroy(gro);
	ck_assert_uint_eq(bk.n, 1);
	ck_assert_uint_eq(bk.segs, sg->n);
	ck_assert_int_eq(bk.len, (int)len);
	ck_assert_mem_eq(bk.lin, sp, len);
	free(bk.lin);
	gu_segs_free(sg);
	free(sg);
}
END_TEST

/* A capture of ten frames the test writes (ten_open), then merged by GRO
 * (through tunnel tun, 0 none) into one packet that GSO must cut back into
 * those ten frames (ten_back: whole frames compared when whole, partial
 * checksums when partial; frees the capture's arrays; returns how many
 * segments the virtio_net_hdr path gave back equal too). */
static void ten_open(struct gu_pcap *cap)
{
	memset(cap, 0, sizeof(*cap));
	cap->n = 10;
	cap->frame = calloc(10, sizeof(*cap->frame));
	cap->len = calloc(10, sizeof(*cap->len));
	ck_assert(cap->frame && cap->len);
}

static unsigned ten_back(struct gu_pcap *cap, int whole, int partial, int tun)
{
	struct rt r;
	memset(&r, 0, sizeof(r));
	r.cap = cap;
	r.whole = whole;
	r.partial = partial;
	gro_all_tun(cap, rt_deliver, &r, 0, 100, tun);
	ck_assert_uint_eq(r.merged_pkts, 1);
	ck_assert_uint_eq(r.segs_checked, 10);
	ck_assert_uint_eq(r.errors, 0);
	free(cap->frame);
	free(cap->len);
	return r.vnet_checked;
}

/* GRO merges CWR segments only with each other (the 2026 AccECN rule) and
 * marks the packet OFL_GSO_TCP_ECN; GSO must then keep CWR on every segment
 * (SKB_GSO_TCP_ACCECN) to give the originals back.  The same for fixed IDs. */
static uint8_t segs_mem[10][2000];

START_TEST(test_gro_then_gso_flags)
{
	struct gu_pcap cap;
	struct gen_tcp g;
	unsigned i;
	ten_open(&cap);
	gen_tcp_init(&g, _i ? 6 : 4);
	g.flags = GEN_ACK | GEN_CWR;
	g.payload_len = 1000;
	g.ip_id = 77; /* stays 77 in every segment: fixed ID (IPv4) */
	for (i = 0; i < 10; i++) {
		g.seq = 5000 + i * 1000;
		if (i == 9)
			g.flags |= GEN_PSH;
		cap.frame[i] = segs_mem[i];
		cap.len[i] = (uint32_t)gen_tcp_frame(&g, segs_mem[i], sizeof(segs_mem[i]));
	}
	(void)ten_back(&cap, 0, 0, 0);
}
END_TEST

/* A forwarding path to a smaller MTU: GRO packets cut again at another
 * segment size give the same byte stream, in valid segments of that size. */
struct resize {
	struct gu_pcap *cap;
	uint32_t mss;
	unsigned pkts, segs;
};

static void resize_deliver(void *user, const struct ofl_gro_out *pkts, unsigned n)
{
	struct resize *z = user;
	unsigned i, k, c;
	for (i = 0; i < n; i++) {
		const struct ofl_gro_out *o = &pkts[i];
		struct ofl_gso_req req;
		struct ofl_gso_iter it;
		struct gu_segs *sg;
		uint8_t *want, *got;
		size_t wl = 0, gl = 0;
		if (o->seg_count < 2)
			continue;
		ofl_gso_req_default(&req);
		req.seg_size = z->mss;
		ck_assert_int_eq(ofl_gso_start_gro(&it, &req, o), 0);
		sg = calloc(1, sizeof(*sg));
		ck_assert_int_eq(gu_collect(&it, sg, 2, 256), 0);
		want = malloc(o->len);
		got = malloc(o->len);
		for (c = 0; c < o->seg_count; c++) {
			unsigned idx = (unsigned)(uintptr_t)o->cookies[c] - 1;
			struct gu_info gi;
			ck_assert(gu_parse(z->cap->frame[idx], z->cap->len[idx], &gi));
			memcpy(want + wl, z->cap->frame[idx] + gi.payload_off, gi.ip.l4_off + gi.l4_len - gi.payload_off);
			wl += gi.ip.l4_off + gi.l4_len - gi.payload_off;
		}
		for (k = 0; k < sg->n; k++) {
			struct gu_info gi;
			ck_assert(gu_parse(sg->frame[k], sg->len[k], &gi));
			ck_assert(gu_csums_ok(sg->frame[k], sg->len[k]));
			ck_assert_uint_le(sg->len[k] - gi.payload_off, z->mss);
			if (k + 1 < sg->n)
				ck_assert_uint_eq(sg->len[k] - gi.payload_off, z->mss);
			memcpy(got + gl, sg->frame[k] + gi.payload_off, sg->len[k] - gi.payload_off);
			gl += sg->len[k] - gi.payload_off;
		}
		ck_assert_uint_eq(gl, wl);
		ck_assert_mem_eq(got, want, wl);
		z->pkts++;
		z->segs += sg->n;
		free(want);
		free(got);
		gu_segs_free(sg);
		free(sg);
	}
}

/* GRO then GSO through each tunnel GRO merges: 10 segments of one flow
 * (both IPv4 IDs advancing) merged into one packet, then cut by
 * ofl_gso_start_gro() with a default request that names no tunnel (the
 * packet's gso_type does): every segment equals its original frame, outer
 * headers, tunnel header and inner headers byte for byte. */
static const struct {
	int type, outer, inner;
	bool udp_csum;
	uint16_t gre_flags, gre_proto; /* GEN_GRE_*; 0: 0x6558 (VXLAN-GPE: its next protocol; 0: 3, Ethernet) */
} tun_rt[] = {
	{GEN_TUN_VXLAN, 4, 4, false, 0, 0}, {GEN_TUN_VXLAN, 4, 4, true, 0, 0}, {GEN_TUN_VXLAN, 4, 6, true, 0, 0},
	{GEN_TUN_VXLAN, 6, 4, true, 0, 0},  {GEN_TUN_VXLAN, 6, 6, true, 0, 0}, {GEN_TUN_GENEVE, 4, 4, false, 0, 0},
	{GEN_TUN_GENEVE, 6, 6, true, 0, 0}, {GEN_TUN_IPIP, 4, 4, false, 0, 0}, {GEN_TUN_IPIP, 4, 6, false, 0, 0},
	{GEN_TUN_IPIP, 6, 4, false, 0, 0},  {GEN_TUN_IPIP, 6, 6, false, 0, 0},
	{GEN_TUN_GRE, 4, 4, false, 0, 0}, {GEN_TUN_GRE, 4, 6, false, GEN_GRE_C, 0},
	{GEN_TUN_GRE, 6, 4, false, GEN_GRE_K, 0x0800}, {GEN_TUN_GRE, 6, 6, false, GEN_GRE_C | GEN_GRE_K, 0x86dd},
	/* VXLAN-GPE: cut as any UDP tunnel (its inner IP header at l3_off) */
	{GEN_TUN_VXLAN_GPE, 4, 4, false, 0, 0}, {GEN_TUN_VXLAN_GPE, 6, 4, true, 0, 1},
	{GEN_TUN_VXLAN_GPE, 4, 6, false, 0, 2},
};
static uint8_t tun_mem[10][2200];

START_TEST(test_gro_then_gso_tunnel)
{
	struct gu_pcap cap;
	struct gen_tcp g;
	struct gen_tun t;
	uint8_t inner[2048];
	unsigned i;
	ten_open(&cap);
	gen_tcp_init(&g, tun_rt[_i].inner);
	g.flags = GEN_ACK;
	g.payload_len = 1000;
	g.ip_id = 100;
	gen_tun_init(&t, tun_rt[_i].type, tun_rt[_i].outer);
	t.udp_csum = tun_rt[_i].udp_csum;
	t.gre_flags = tun_rt[_i].gre_flags;
	if (tun_rt[_i].gre_proto && tun_rt[_i].type == GEN_TUN_VXLAN_GPE)
		t.gpe_np = (uint8_t)tun_rt[_i].gre_proto;
	else if (tun_rt[_i].gre_proto)
		t.gre_proto = tun_rt[_i].gre_proto;
	t.ip_id = 3000;
	for (i = 0; i < 10; i++) {
		size_t il;
		g.seq = 5000 + i * 1000;
		if (i == 9)
			g.flags |= GEN_PSH;
		il = gen_tcp_frame(&g, inner, sizeof(inner));
		cap.frame[i] = tun_mem[i];
		cap.len[i] = (uint32_t)gen_tun_wrap(&t, inner, il, tun_mem[i], sizeof(tun_mem[i]));
		ck_assert_uint_gt(cap.len[i], il);
		g.ip_id++;
		t.ip_id++;
	}
	/* the TAP path too, through the 24-byte header, but for IP in IP and GRE */
	ck_assert_uint_eq(ten_back(&cap, 1, _i & 1, tun_rt[_i].type),
	                  tun_rt[_i].type == GEN_TUN_IPIP || tun_rt[_i].type == GEN_TUN_GRE ? 0 : 10);
}
END_TEST

START_TEST(test_gro_then_gso_resize)
{
	static const uint32_t mss[] = { 536, 1000, 1447, 8948 };
	struct gu_pcap cap;
	struct resize z;
	if (files.n == 0)
		return;
	ck_assert(gu_pcap_read(files.path[files.n > 5 ? 5 : 0], &cap));
	memset(&z, 0, sizeof(z));
	z.cap = &cap;
	z.mss = mss[_i];
	gro_all(&cap, resize_deliver, &z, 1, cap.n);
	ck_assert_uint_gt(z.pkts, 10);
	gu_pcap_free(&cap);
}
END_TEST

int main(void)
{
	bulk_list(&files);
	const struct h_test tests[] = {{test_corpus_present, 0}, {test_gro_then_gso, 64},
		{test_gso_then_gro, 16}, {test_gro_then_gso_flags, 2},
		{test_gro_then_gso_resize, 4},
		{test_gro_then_gso_tunnel, (int)(sizeof tun_rt / sizeof tun_rt[0])}};
	return h_run_table("gso_roundtrip", 300, 0, tests, sizeof tests / sizeof tests[0]);
}
