/*
 * gro_udp_corpus_test.c - the UDP captures of the corpus (QUIC, RTP, UFTP:
 * every MANIFEST.tsv row under udp/, and the QUIC one under fragments/)
 * replayed through GRO with UDP GRO on (ofl_gro_config.udp), in several ways
 * (one frame at a time or bursts of 64, checksums to verify or verified by
 * the NIC, one buffer or header + payload buffers), polls of 64 frames:
 *   - every frame comes back exactly once, and per flow (addresses, ports,
 *     protocol) in the order received;
 *   - a frame passed on is byte-identical to its input;
 *   - a merged packet, linearized with the full checksum, has valid IPv4 and
 *     UDP checksums, and cut again by GSO (ofl_gso_start_gro(), UDP_L4)
 *     gives back, byte for byte, the datagrams whose cookies it carries
 *     (their IPv4 ID and header checksum aside: GSO numbers the IDs from the
 *     first; a fixed-ID train was merged too);
 *   - udp/quic-33.pcap (877 same-size datagrams in a run over IPv6) merges;
 *   - in fraglist mode (the ways named so; ofl_gro_config.fraglist) the
 *     same, and each frame of a list packet, walked with
 *     ofl_gro_list_seg(), is byte for byte the datagram received (instead
 *     of the GSO cut, which does not take a list packet).
 * A missing corpus skips (exit 77).
 */
#include <check.h>
#include <ofl/gro.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conserve.h"
#include "gso_util.h"
#include "harness.h"

#define MAX_FILES 32
#define MAX_FLOWS 4096

static char dir[4096];
static char files[MAX_FILES][512];
static unsigned nfiles;

static const struct way {
	const char *name;
	int burst;           /* ofl_gro_receive_burst() of up to 64 frames */
	uint8_t csum_status; /* given with every frame */
	int split;           /* headers (up to the UDP payload) in their own buffer */
	int list;            /* fraglist mode */
} ways[] = {
	{"single/none", 0, OFL_CSUM_NONE, 0, 0},
	{"burst/none", 1, OFL_CSUM_NONE, 0, 0},
	{"burst/unnecessary", 1, OFL_CSUM_UNNECESSARY, 0, 0},
	{"single/none/split", 0, OFL_CSUM_NONE, 1, 0},
	{"burst/unnecessary/split", 1, OFL_CSUM_UNNECESSARY, 1, 0},
	{"burst/none/fraglist", 1, OFL_CSUM_NONE, 0, 1},
	{"single/unnecessary/split/fraglist", 0, OFL_CSUM_UNNECESSARY, 1, 1},
};
#define NWAYS (sizeof(ways) / sizeof(ways[0]))

struct flowlast {
	uint8_t key[64];
	unsigned last;
};

struct run {
	struct gu_pcap cap;
	unsigned *seen;
	struct flowlast *fl;
	unsigned nfl;
	unsigned errors, merged_pkts, merged_segs, gso_checked, csum_unverifiable, list_checked;
	uint8_t *lin;
	struct ofl_gro *gro;
	const char *file, *way;
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void err(struct run *r, const char *fmt, ...)
{
	va_list ap;
	if (r->errors++ >= 10)
		return;
	fprintf(stderr, "%s [%s]: ", r->file, r->way);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void check_order(struct run *r, unsigned idx)
{
	struct c_flow cf;
	unsigned i;
	if (!c_parse_l4(r->cap.frame[idx], r->cap.len[idx], &cf))
		return;
	for (i = 0; i < r->nfl; i++)
		if (memcmp(r->fl[i].key, cf.key, sizeof(cf.key)) == 0)
			break;
	if (i == r->nfl) {
		ck_assert_uint_lt(r->nfl, MAX_FLOWS);
		memcpy(r->fl[i].key, cf.key, sizeof(cf.key));
		r->nfl++;
	} else if (r->fl[i].last > idx) {
		err(r, "frame %u left after frame %u of its flow", idx + 1, r->fl[i].last + 1);
	}
	r->fl[i].last = idx;
}

/* The merged packet o, cut by GSO, against the original datagrams. */
static void check_gso(struct run *r, const struct ofl_gro_out *o)
{
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct gu_segs *sg = calloc(1, sizeof(*sg));
	unsigned k;
	ck_assert_ptr_nonnull(sg);
	ofl_gso_req_default(&req);
	req.type = OFL_GSO_TYPE_UDP_L4;
	req.csum = OFL_CSUM_MODE_FULL;
	ck_assert_int_eq(ofl_gso_start_gro(&it, &req, o), 0);
	ck_assert_int_eq(gu_collect(&it, sg, 2, 512), 0);
	if (sg->n != o->seg_count)
		err(r, "GSO gave %u datagrams of a packet of %u", sg->n, o->seg_count);
	for (k = 0; k < sg->n && k < o->seg_count; k++) {
		unsigned idx = (unsigned)(uintptr_t)o->cookies[k] - 1;
		const uint8_t *orig = r->cap.frame[idx];
		uint8_t *seg = sg->frame[k];
		struct gu_info gi;
		size_t olen;
		ck_assert(gu_parse(orig, r->cap.len[idx], &gi));
		olen = gi.ip.l4_off + gi.l4_len; /* no Ethernet padding */
		if (!gu_csums_ok(orig, olen) && sg->len[k] >= gi.ip.l4_off + 8) {
			/* a sender-side capture (checksum offloaded), trusted as
			 * OFL_CSUM_UNNECESSARY: GSO writes the right checksum */
			memcpy(seg + gi.ip.l4_off + 6, orig + gi.ip.l4_off + 6, 2);
			r->csum_unverifiable++;
		}
		if (gi.ip.l3 == 4 && sg->len[k] >= gi.ip.l3_off + 12) {
			/* the ID and header checksum as the original's */
			memcpy(seg + gi.ip.l3_off + 4, orig + gi.ip.l3_off + 4, 2);
			memcpy(seg + gi.ip.l3_off + 10, orig + gi.ip.l3_off + 10, 2);
		}
		if (sg->len[k] != olen || memcmp(seg, orig, olen) != 0) {
			size_t d = 0;
			while (d < olen && d < sg->len[k] && seg[d] == orig[d])
				d++;
			err(r, "frame %u: GSO datagram %u/%u differs (len %u vs %zu, from byte %zu: %02x vs %02x)", idx + 1,
			    k, sg->n, sg->len[k], olen, d, d < sg->len[k] ? seg[d] : 0, d < olen ? orig[d] : 0);
		}
		r->gso_checked++;
	}
	gu_segs_free(sg);
	free(sg);
}

/* A list packet (fraglist mode): each frame walked back is the datagram
 * received, byte for byte. */
static void check_list(struct run *r, const struct ofl_gro_out *o)
{
	struct ofl_gro_seg sg;
	struct ofl_gso_iter it;
	unsigned k, j;
	/* GSO does not take a list packet (gro_out.h) */
	ck_assert_int_lt(ofl_gso_start_gro(&it, NULL, o), 0);
	for (k = 0; k < o->seg_count; k++) {
		unsigned idx = (unsigned)(uintptr_t)o->cookies[k] - 1;
		size_t pos = 0;
		ck_assert_int_eq(ofl_gro_list_seg(r->gro, o, k, &sg), 0);
		for (j = 0; j < sg.nhdr + sg.npayload; j++) {
			const struct ofl_slice *sl = j < sg.nhdr ? &sg.hdr[j] : &sg.payload[j - sg.nhdr];
			if (pos + sl->len > r->cap.len[idx] || memcmp(sl->data, r->cap.frame[idx] + pos, sl->len) != 0)
				break;
			pos += sl->len;
		}
		if (j < sg.nhdr + sg.npayload || pos != r->cap.len[idx] || sg.len != pos)
			err(r, "frame %u: list frame %u/%u differs", idx + 1, k, o->seg_count);
		r->list_checked++;
	}
}

static void deliver(void *user, const struct ofl_gro_out *pkts, unsigned n)
{
	struct run *r = user;
	unsigned i, j;
	for (i = 0; i < n; i++) {
		const struct ofl_gro_out *o = &pkts[i];
		int len;
		for (j = 0; j < o->ncookies; j++) {
			unsigned idx = (unsigned)(uintptr_t)o->cookies[j] - 1;
			ck_assert_uint_lt(idx, r->cap.n);
			if (r->seen[idx]++)
				err(r, "frame %u delivered twice", idx + 1);
			check_order(r, idx);
		}
		len = ofl_gro_linearize(o, r->lin, 70000, OFL_CSUM_MODE_FULL);
		ck_assert_int_eq(len, (int)o->len);
		if (o->seg_count == 0) {
			unsigned idx = (unsigned)(uintptr_t)o->cookies[0] - 1;
			if (o->len != r->cap.len[idx] || memcmp(r->lin, r->cap.frame[idx], o->len) != 0)
				err(r, "frame %u passed on altered", idx + 1);
			continue;
		}
		if (o->seg_count < 2)
			continue;
		if ((o->gso_type & OFL_GSO_TUNNEL_MASK) == OFL_GSO_FRAGLIST)
			check_list(r, o); /* TCP too */
		if ((o->gso_type & ~OFL_GSO_TUNNEL_MASK) != OFL_GSO_UDP_L4)
			continue; /* a TCP flow of the capture */
		r->merged_pkts++;
		r->merged_segs += o->seg_count;
		if (!gu_csums_ok(r->lin, (size_t)len))
			err(r, "merged packet of frame %u: bad checksum", (unsigned)(uintptr_t)o->cookies[0]);
		if ((o->gso_type & OFL_GSO_TUNNEL_MASK) != OFL_GSO_FRAGLIST)
			check_gso(r, o);
	}
}

static void one_way(struct run *r, const struct way *w)
{
	struct ofl_gro_config cfg;
	struct ofl_gro *gro;
	struct ofl_pkt *pk = calloc(64, sizeof(*pk));
	struct ofl_buf (*b)[2] = calloc(64, sizeof(*b));
	unsigned i = 0;
	ck_assert_ptr_nonnull(pk);
	ck_assert_ptr_nonnull(b);
	ofl_gro_config_default(&cfg);
	cfg.udp = 1;
	cfg.fraglist = (uint8_t)w->list;
	cfg.deliver = deliver;
	cfg.user = r;
	ck_assert_int_eq(ofl_gro_create(&cfg, &gro), 0);
	r->gro = gro;
	r->way = w->name;
	r->nfl = 0;
	memset(r->seen, 0, r->cap.n * sizeof(*r->seen));
	while (i < r->cap.n) {
		unsigned n = 0, k;
		while (n < 64 && i + n < r->cap.n) {
			unsigned idx = i + n;
			struct gu_info gi;
			uint32_t cut = r->cap.len[idx];
			if (w->split && gu_parse(r->cap.frame[idx], r->cap.len[idx], &gi) && gi.ip.proto == 17)
				cut = (uint32_t)(gi.ip.l4_off + 8 < r->cap.len[idx] ? gi.ip.l4_off + 8 : r->cap.len[idx]);
			b[n][0] = (struct ofl_buf){r->cap.frame[idx], cut};
			b[n][1] = (struct ofl_buf){r->cap.frame[idx] + cut, r->cap.len[idx] - cut};
			memset(&pk[n], 0, sizeof(pk[n]));
			pk[n].bufs = b[n];
			pk[n].nbufs = cut < r->cap.len[idx] ? 2 : 1;
			pk[n].csum_status = w->csum_status;
			pk[n].cookie = (void *)(uintptr_t)(idx + 1);
			n++;
		}
		if (w->burst) {
			ck_assert_uint_eq(ofl_gro_receive_burst(gro, pk, n, 0, NULL), n);
		} else {
			for (k = 0; k < n; k++)
				ck_assert_int_ge(ofl_gro_receive(gro, &pk[k], 0), 0);
		}
		ck_assert_int_eq(ofl_gro_poll_end(gro, n, 0, NULL), 0);
		i += n;
	}
	ofl_gro_destroy(gro);
	for (i = 0; i < r->cap.n; i++)
		if (r->seen[i] != 1)
			err(r, "frame %u delivered %u times", i + 1, r->seen[i]);
	free(pk);
	free(b);
}

START_TEST(replay_udp)
{
	struct run r;
	char path[4700];
	size_t w;
	memset(&r, 0, sizeof(r));
	snprintf(path, sizeof(path), "%s/%s", dir, files[_i]);
	r.file = files[_i];
	ck_assert_msg(gu_pcap_read(path, &r.cap), "cannot read %s", path);
	if (r.cap.linktype != 1) {
		printf("%s: link type %u, not Ethernet: not replayed\n", r.file, r.cap.linktype);
		gu_pcap_free(&r.cap);
		return;
	}
	r.seen = calloc(r.cap.n + 1, sizeof(*r.seen));
	r.fl = calloc(MAX_FLOWS, sizeof(*r.fl));
	r.lin = malloc(70000);
	ck_assert(r.seen && r.fl && r.lin);
	for (w = 0; w < NWAYS; w++) {
		unsigned before = r.merged_segs;
		one_way(&r, &ways[w]);
		printf("%s [%s]: %u frames, %u merged packets of %u datagrams so far, %u cut back by GSO (%u "
		       "with the capture's checksum not valid), %u list frames walked back\n",
		       r.file, ways[w].name, r.cap.n, r.merged_pkts, r.merged_segs, r.gso_checked, r.csum_unverifiable,
		       r.list_checked);
		if (strcmp(r.file, "udp/quic-33.pcap") == 0 && ways[w].csum_status == OFL_CSUM_UNNECESSARY)
			/* the 877-datagram run (a sender-side capture: its checksums
			 * are verified only when trusted) at least 800 merged */
			ck_assert_uint_ge(r.merged_segs - before, 800);
	}
	fflush(stdout);
	ck_assert_msg(r.errors == 0, "%s: %u violations", r.file, r.errors);
	free(r.seen);
	free(r.fl);
	free(r.lin);
	gu_pcap_free(&r.cap);
}
END_TEST

/* The corpus rows: udp/..., and the QUIC capture among the fragments. */
static int list_files(void)
{
	const char *c = getenv("OFL_CORPORA");
	char mf[4200], line[8192];
	FILE *fp;
	snprintf(dir, sizeof(dir), "%s", c && *c ? c : "../shared/corpora");
	snprintf(mf, sizeof(mf), "%s/MANIFEST.tsv", dir);
	fp = fopen(mf, "r");
	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp) && nfiles < MAX_FILES) {
		char *tab = strchr(line, '\t');
		if (!tab)
			continue;
		*tab = 0;
		if (strlen(line) >= sizeof(files[0]))
			continue;
		if (strncmp(line, "udp/", 4) == 0 || strstr(line, "quic") != NULL)
			memcpy(files[nfiles++], line, strlen(line) + 1);
	}
	fclose(fp);
	return 0;
}

int main(void)
{
	unsigned i, have33 = 0;
	if (list_files() != 0) {
		fprintf(stderr, "gro_udp_corpus_test: no corpus (OFL_CORPORA/MANIFEST.tsv): skipped\n");
		return 77;
	}
	for (i = 0; i < nfiles; i++)
		have33 |= strcmp(files[i], "udp/quic-33.pcap") == 0;
	if (!have33) {
		fprintf(stderr, "gro_udp_corpus_test: udp/quic-33.pcap not in the corpus\n");
		return 1;
	}
	const struct h_test tests[] = {{replay_udp, (int)nfiles}}; /* nfiles > 0: quic-33 is there */
	return h_run_table("gro_udp_corpus", 600, 0, tests, 1);
}
