/*
 * dsa_corpus_test.c - the four tag formats tcpdump can read (brcm,
 * brcm-prepend, dsa, edsa) against real captures in $OFL_CORPORA/dsa:
 * every frame must decode, and the fields must equal what
 * `tcpdump -e -n -r FILE` prints for the same frame (direction/opcode,
 * switch, port or port map, traffic class, reason code, VLAN, the MACs and
 * the EtherType of the untagged frame).
 *
 * When tcpdump is not installed the comparison is skipped with a notice and
 * the test exits 77 (reported as skipped by ctest), never as a pass.
 */
/* libpcap headers use u_int/u_char and this file uses popen(): POSIX + BSD */
#define _DEFAULT_SOURCE

#include <check.h>
#include <ofl/dsa.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define MAX_PKTS 64

struct corpus_file {
	const char *name;
	int dlt;
	const char *format;
	unsigned npkts; /* from MANIFEST.tsv */
};

static const struct corpus_file files[] = {
	{ "brcm-tag.pcap", 281, "brcm", 23 },
	{ "libpcap__brcm-tag.pcap", 281, "brcm", 15 },
	{ "brcm-tag-stp.pcap", 281, "brcm", 4 },
	{ "brcm-tag-prepend.pcap", 282, "brcm-prepend", 15 },
	{ "dsa.pcap", 284, "dsa", 8 },
	{ "dsa-high-vid.pcap", 284, "dsa", 4 },
	{ "edsa.pcap", 285, "edsa", 10 },
	{ "edsa-high-vid.pcap", 285, "edsa", 4 },
};

#define NFILES (sizeof(files) / sizeof(files[0]))

struct decoded {
	int dir;
	struct ofl_dsa_meta meta;
	uint8_t da[6], sa[6];
	unsigned etype;   /* EtherType/length of the untagged frame */
};

static int have_tcpdump = -1;
static int have_corpus = -1;

static const char *corpora_dir(void)
{
	const char *d = getenv("OFL_CORPORA");

	return d && *d ? d : "../shared/corpora";
}

static void path_of(const struct corpus_file *cf, char *buf, size_t n)
{
	snprintf(buf, n, "%s/dsa/%s", corpora_dir(), cf->name);
}

static unsigned decode_file(const struct corpus_file *cf, struct decoded *out)
{
	char path[1024], err[PCAP_ERRBUF_SIZE];
	const struct ofl_dsa_ops *ops = ofl_dsa_find(cf->format);
	struct pcap_pkthdr *h;
	const u_char *data;
	unsigned n = 0;
	pcap_t *p;
	int r;

	ck_assert_ptr_nonnull(ops);
	path_of(cf, path, sizeof(path));
	p = pcap_open_offline(path, err);
	ck_assert_msg(p != NULL, "%s: %s", path, err);
	ck_assert_int_eq(pcap_datalink(p), cf->dlt);
	while ((r = pcap_next_ex(p, &h, &data)) == 1) {
		struct ofl_dsa_view v;
		struct ofl_buf piece[2];
		struct decoded *d = &out[n];
		int e;

		ck_assert_uint_lt(n, MAX_PKTS);
		d->dir = OFL_DSA_RX;
		e = ofl_dsa_decode(ops, NULL, OFL_DSA_RX, data, h->caplen, &d->meta, &v);
		if (e == OFL_EBADMSG) {
			d->dir = OFL_DSA_TX;
			e = ofl_dsa_decode(ops, NULL, OFL_DSA_TX, data, h->caplen,
			                   &d->meta, &v);
		}
		ck_assert_msg(e == 0, "%s frame %u: decode %d", cf->name, n + 1, e);
		ck_assert_int_eq(ofl_dsa_untagged(data, h->caplen, &v, piece), 2);
		memcpy(d->da, piece[0].data, 6);
		memcpy(d->sa, piece[0].data + 6, 6);
		if (piece[0].len >= 14)
			d->etype = (unsigned)piece[0].data[12] << 8 | piece[0].data[13];
		else
			d->etype = (unsigned)piece[1].data[0] << 8 | piece[1].data[1];

		/* the multi-buffer decode of the same frame, split in 3, agrees */
		{
			struct ofl_buf b[3];
			struct ofl_dsa_meta m2;
			struct ofl_dsa_view v2;
			uint32_t a = h->caplen / 3, c = h->caplen / 2;

			b[0].data = data;
			b[0].len = a;
			b[1].data = data + a;
			b[1].len = c - a;
			b[2].data = data + c;
			b[2].len = h->caplen - c;
			ck_assert_int_eq(ofl_dsa_decode_bufs(ops, NULL, d->dir, b, 3,
			                                     &m2, &v2), 0);
			ck_assert_mem_eq(&m2, &d->meta, sizeof(m2));
			ck_assert_uint_eq(v2.rest_off, v.rest_off);
			ck_assert_uint_eq(v2.rest_len, v.rest_len);
			ck_assert_mem_eq(v2.hdr, v.hdr, v.hdr_len);
		}
		n++;
	}
	ck_assert_int_eq(r, PCAP_ERROR_BREAK);
	pcap_close(p);
	return n;
}

/* --- what tcpdump prints ------------------------------------------------ */

static int find_int(const char *line, const char *key, long *val)
{
	const char *s = strstr(line, key);
	char *end;

	if (!s)
		return 0;
	*val = strtol(s + strlen(key), &end, 0);
	return end != s + strlen(key);
}

/* the first "aa:bb:cc:dd:ee:ff > 11:22:33:44:55:66" in the line */
static int find_macs(const char *line, uint8_t sa[6], uint8_t da[6])
{
	for (const char *s = line; *s; s++) {
		unsigned a[12];

		if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x > %2x:%2x:%2x:%2x:%2x:%2x",
		           &a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6], &a[7],
		           &a[8], &a[9], &a[10], &a[11]) == 12) {
			for (int i = 0; i < 6; i++) {
				sa[i] = (uint8_t)a[i];
				da[i] = (uint8_t)a[6 + i];
			}
			return 1;
		}
	}
	return 0;
}

/* the inner EtherType: the last "ethertype NAME (0xXXXX)" */
static long find_etype(const char *line)
{
	const char *s = line, *last = NULL;

	while ((s = strstr(s, "ethertype ")) != NULL) {
		last = s;
		s++;
	}
	if (!last)
		return -1;
	s = strstr(last, "(0x");
	return s ? strtol(s + 1, NULL, 16) : -1;
}

/* tcpdump's text for a Broadcom reason code (print-brcmtag.c): one name per
 * single-bit value, "reserved" for anything else */
static const char *brcm_rc_text(unsigned rc)
{
	switch (rc) {
	case 0x01: return "mirror";
	case 0x02: return "MAC learning";
	case 0x04: return "switching";
	case 0x08: return "prot term";
	case 0x10: return "prot snoop";
	case 0x20: return "exception";
	default: return "reserved";
	}
}

static void check_brcm_line(const char *line, const struct decoded *d,
                            const char *where)
{
	long v;

	ck_assert_msg(strstr(line, "BRCM tag OP: "), "%s: %s", where, line);
	if (d->dir == OFL_DSA_RX) {
		char want[160];

		ck_assert_msg(strstr(line, "OP: EG,"), "%s: RX decode of %s", where, line);
		ck_assert_msg(find_int(line, "CID: ", &v) && v == d->meta.aux, "%s CID", where);
		ck_assert_msg(find_int(line, "TC: ", &v) && v == d->meta.prio, "%s TC", where);
		ck_assert_msg(find_int(line, "port: ", &v) && v == d->meta.port, "%s port", where);
		ck_assert(d->meta.valid & OFL_DSA_M_PORT);
		snprintf(want, sizeof(want), "RC: %s, TC:", brcm_rc_text(d->meta.code));
		ck_assert_msg(strstr(line, want), "%s: want \"%s\" in %s", where, want, line);
	} else {
		ck_assert_msg(strstr(line, "OP: IG,"), "%s: TX decode of %s", where, line);
		/* tcpdump prints bits 4:2 of the second byte as TC; Linux
		 * (brcm_tag_xmit_ll) writes the traffic class into bits 4:2 of
		 * the first byte, which is what meta.prio holds.  Compare the
		 * byte tcpdump reads (meta.aux), and the opcode byte apart. */
		ck_assert_msg(find_int(line, "TC: ", &v) && v == ((d->meta.aux >> 2) & 7),
		              "%s TC", where);
		ck_assert_uint_lt(d->meta.prio, 8);
		ck_assert_msg(find_int(line, "DST map: ", &v) && v == (long)d->meta.port_mask,
		              "%s DST map", where);
		ck_assert_msg(find_int(line, "TS: ", &v) && v == (d->meta.aux >> 7), "%s TS", where);
		ck_assert_msg((d->meta.aux & 3) != 0 || strstr(line, "TE: None"), "%s TE", where);
	}
}

static void check_dsa_line(const char *line, const struct decoded *d,
                           const char *where, int edsa)
{
	static const char *modes[] = { "To CPU", "From CPU", "To Sniffer", "Forward" };
	char want[64];
	long v;

	if (edsa)
		ck_assert_msg(strstr(line, "Marvell EDSA ethertype 0xdada") &&
		              strstr(line, "rsvd 0 0") && d->meta.aux == 0,
		              "%s: %s", where, line);
	else
		ck_assert_msg(strstr(line, "Marvell DSA mode"), "%s: %s", where, line);
	snprintf(want, sizeof(want), "mode %s,", modes[d->meta.cmd & 3]);
	ck_assert_msg(strstr(line, want), "%s: want \"%s\"", where, want);
	ck_assert_int_eq(d->dir, d->meta.cmd == OFL_DSA_MV_FROM_CPU ? OFL_DSA_TX
	                                                            : OFL_DSA_RX);
	ck_assert_msg(find_int(line, "dev ", &v) && v == d->meta.switch_id, "%s dev", where);
	ck_assert_msg(find_int(line, "port ", &v) && v == d->meta.port, "%s port", where);
	ck_assert_msg(strstr(line, (d->meta.flags & OFL_DSA_MF_TAGGED) ? " tagged," : " untagged,"),
	              "%s tagged", where);
	ck_assert_msg(find_int(line, "VID ", &v) && v == (d->meta.vlan_tci & 0xFFF),
	              "%s VID %ld vs %u", where, v, d->meta.vlan_tci & 0xFFF);
	ck_assert_msg(find_int(line, "FPri ", &v) && v == d->meta.prio, "%s FPri", where);
}

static int tcpdump_available(void)
{
	if (have_tcpdump < 0)
		have_tcpdump = system("tcpdump --version >/dev/null 2>&1") == 0;
	return have_tcpdump;
}

START_TEST(test_corpus_file)
{
	const struct corpus_file *cf = &files[_i];
	struct decoded d[MAX_PKTS];
	char path[1024], cmd[1200], line[4096];
	unsigned n, lines = 0;
	FILE *fp;

	if (!have_corpus)
		return;
	n = decode_file(cf, d);
	ck_assert_uint_eq(n, cf->npkts);
	if (!tcpdump_available())
		return;

	path_of(cf, path, sizeof(path));
	snprintf(cmd, sizeof(cmd), "tcpdump -e -n -r '%s' 2>/dev/null", path);
	fp = popen(cmd, "r");
	ck_assert_ptr_nonnull(fp);
	while (fgets(line, sizeof(line), fp)) {
		const struct decoded *x = &d[lines];
		char where[128];
		uint8_t sa[6], da[6];
		long et;

		ck_assert_uint_lt(lines, n);
		snprintf(where, sizeof(where), "%s frame %u", cf->name, lines + 1);
		if (cf->dlt == 281 || cf->dlt == 282)
			check_brcm_line(line, x, where);
		else
			check_dsa_line(line, x, where, cf->dlt == 285);
		ck_assert_msg(find_macs(line, sa, da), "%s: no MACs", where);
		ck_assert_msg(!memcmp(sa, x->sa, 6) && !memcmp(da, x->da, 6),
		              "%s: MACs differ", where);
		et = find_etype(line);
		if (x->etype >= 0x600)
			ck_assert_msg(et == (long)x->etype, "%s: ethertype %lx vs %x",
			              where, et, x->etype);
		else
			ck_assert_msg(strstr(line, "802.3"), "%s: 802.3 frame", where);
		lines++;
	}
	ck_assert_int_eq(pclose(fp), 0);
	ck_assert_uint_eq(lines, n);
}
END_TEST

int main(void)
{
	char probe[1024];
	Suite *s = suite_create("dsa_corpus");
	TCase *tc = tcase_create("captures");

	path_of(&files[0], probe, sizeof(probe));
	have_corpus = access(probe, R_OK) == 0;
	if (!have_corpus) {
		printf("dsa_corpus_test: %s not readable: the corpus is missing\n", probe);
		return EXIT_FAILURE;
	}
	if (!tcpdump_available())
		printf("NOTICE: tcpdump not installed: comparison with tcpdump SKIPPED "
		       "(frames are still decoded)\n");
	tcase_add_loop_test(tc, test_corpus_file, 0, (int)NFILES);
	suite_add_tcase(s, tc);
	if (h_run_suite(s) != EXIT_SUCCESS)
		return EXIT_FAILURE;
	return have_tcpdump ? EXIT_SUCCESS : 77;
}
