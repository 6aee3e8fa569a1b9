/*
 * gso_cmd.c - `offload-replay gso IN OUT --mss N [options]`: cut every frame
 * of a capture that is longer than the MTU implied by --mss into segments
 * with libofl's software GSO (header slots from a block pool, payload never
 * copied until it is written out), and pass every other frame unchanged.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <string.h>

#include <ofl/gso.h>

#include "cli.h"
#include "dsa_opt.h"
#include "gso_cmd.h"
#include "l3_link.h"
#include "replay.h"

#define NSLOTS 64u
#define SLOT_SIZE 512u
#define MAX_WARN 10u

enum {
	OPT_HELP = 1,
	OPT_MSS,
	OPT_TYPE,
	OPT_CSUM,
	OPT_FIXED_ID,
	OPT_LAX_SNAPLEN,
	OPT_TUNNEL,
	OPT_TUN_CSUM,
	OPT_INNER_OFF,
	OPT_OUTER_FIXED_ID,
};

static const struct cli_opt gso_opts[] = {
	{ "help", 'h', 0, OPT_HELP },
	{ "mss", 0, 1, OPT_MSS },
	{ "type", 0, 1, OPT_TYPE },
	{ "csum", 0, 1, OPT_CSUM },
	{ "fixed-id", 0, 0, OPT_FIXED_ID },
	{ "lax-snaplen", 0, 0, OPT_LAX_SNAPLEN },
	{ "tunnel", 0, 1, OPT_TUNNEL },
	{ "tun-csum", 0, 1, OPT_TUN_CSUM },
	{ "inner-off", 0, 1, OPT_INNER_OFF },
	{ "outer-fixed-id", 0, 0, OPT_OUTER_FIXED_ID },
	{ "dsa", 0, 1, DSA_OPT_TAG },
	DSA_OPT_PARAM_ENTRIES,
	{ NULL, 0, 0, 0 },
};

static const char *const type_names[] = {
	[OFL_GSO_TYPE_AUTO] = "auto",
	[OFL_GSO_TYPE_TCP] = "tcp",
	[OFL_GSO_TYPE_UDP_L4] = "udp-l4",
	[OFL_GSO_TYPE_UDP_FRAG] = "udp-frag",
};

static const char *const tunnel_names[] = {
	[OFL_GSO_TUN_NONE] = "none",   [OFL_GSO_TUN_VXLAN] = "vxlan", [OFL_GSO_TUN_GENEVE] = "geneve",
	[OFL_GSO_TUN_GRE] = "gre",     [OFL_GSO_TUN_IPIP] = "ipip",   [OFL_GSO_TUN_UDP] = "udp",
};
static const char *const tun_csum_names[] = {
	[OFL_GSO_TUN_CSUM_AUTO] = "auto",
	[OFL_GSO_TUN_CSUM_ZERO] = "zero",
	[OFL_GSO_TUN_CSUM_ON] = "on",
};

/* The index of arg in names (n of them), or -1 with a message. */
static int name_index(const char *opt, const char *arg, const char *const *names, unsigned n)
{
	unsigned i;
	for (i = 0; i < n; i++)
		if (strcmp(arg, names[i]) == 0)
			return (int)i;
	fprintf(stderr, "%s gso: %s does not know '%s'\n", CLI_PROG, opt, arg);
	return -1;
}

void replay_gso_usage(FILE *fp)
{
	fprintf(fp,
	        "usage: %s gso IN OUT --mss N [options]\n"
	        "  Segments every frame of IN (pcap or pcapng through libpcap, '-' standard\n"
	        "  input; Ethernet, a DSA link type, or raw IP: RAW, IPV4, IPV6, NULL, LOOP,\n"
	        "  LINUX_SLL, LINUX_SLL2) that is longer than\n"
	        "  the MTU implied by --mss (its own IP and TCP/UDP headers plus N bytes) with\n"
	        "  software GSO, and writes the segments, or the frame unchanged, to OUT\n"
	        "  (classic pcap, same time stamps, same link type; RAW for raw-IP input,\n"
	        "  whose pseudo-headers are dropped; '-' standard output, the statistics then\n"
	        "  on standard error).  BIG TCP frames (IP length 0) are taken.\n"
	        "  Frames that cannot be cut (tunnels, IP fragments, frames cut by the snap\n"
	        "  length...) are written unchanged and named on standard error.\n"
	        "  --mss N                 payload bytes per segment (TCP MSS, UDP payload per\n"
	        "                          datagram; udp-frag: N + 8 rounded down to 8 bytes of\n"
	        "                          IP payload per fragment, the same MTU)\n"
	        "  --type auto|tcp|udp-l4|udp-frag\n"
	        "                          what to do (default auto: TCP -> tcp, UDP -> udp-frag,\n"
	        "                          which keeps each datagram whole for the receiver)\n"
	        "  --csum full|partial     write every L4 checksum (default), or leave the\n"
	        "                          pseudo-header sum as CHECKSUM_PARTIAL hardware wants\n"
	        "  --fixed-id              IPv4: keep the ID of the super-packet in every segment\n"
	        "  --tunnel none|vxlan|geneve|gre|ipip|udp\n"
	        "                          the super-packets are TCP in that tunnel: each segment\n"
	        "                          gets both header sets (default none: tunnels refused)\n"
	        "  --tun-csum auto|zero|on outer UDP checksum: as the frame's is set (default),\n"
	        "                          0, or computed\n"
	        "  --inner-off N           the inner IP header's offset (required with udp)\n"
	        "  --outer-fixed-id        keep the outer IPv4 ID in every segment\n"
	        "  --lax-snaplen           read frames longer than the file's snap length whole\n"
	        "                          (up to 262144 bytes; libpcap, like tcpdump, cuts\n"
	        "                          them to the snap length otherwise)\n"
	        "  --dsa NAME              the frames are super-packets tagged for a switch port\n"
	        "                          (tx layout of format NAME; link types 281, 282, 284,\n"
	        "                          285 name their own): each is untagged, segmented, and\n"
	        "                          every segment carries the same tag; frames without a\n"
	        "                          valid tag are written unchanged\n"
	        "  --cpu-port C, --num-ports N, --tpid T, --brcm-legacy-vlan, --ksz-ptp\n"
	        "                          switch parameters (see dsa-decode --help)\n"
	        "  -h, --help              this help\n",
	        CLI_PROG);
}

struct gso_cmd {
	const char *in_path, *out_path; /* "-": standard input, output */
	struct ofl_gso_req req;
	uint32_t mss;
	struct dsa_opt dsa;
	int lax; /* --lax-snaplen */
	uint32_t l2_len; /* bytes before the IP header of a plain frame (14, raw IP 0) */
};

static int parse_args(struct gso_cmd *g, int argc, char **argv)
{
	struct cli_parser p;
	const char *arg, *pos[2];
	unsigned npos = 0, i;
	uint64_t v;
	int id;

	memset(g, 0, sizeof *g);
	dsa_opt_init(&g->dsa);
	ofl_gso_req_default(&g->req);
	cli_parser_init(&p, argc, argv, gso_opts, "gso");
	while ((id = cli_next(&p, &arg)) != CLI_OPT_END) {
		switch (id) {
		case CLI_OPT_ERROR:
			return -1;
		case CLI_OPT_POSITIONAL:
			if (cli_positional("gso", arg, pos, &npos, 2) < 0)
				return -1;
			break;
		case OPT_HELP:
			replay_gso_usage(stdout);
			return 1;
		case OPT_MSS:
			if (cli_u64("--mss", arg, 1, 65535, &v) < 0)
				return -1;
			g->mss = (uint32_t)v;
			break;
		case OPT_TYPE:
			for (i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
				if (strcmp(arg, type_names[i]) == 0)
					break;
			if (i == sizeof type_names / sizeof type_names[0]) {
				fprintf(stderr, "%s gso: --type wants auto, tcp, udp-l4 or udp-frag, not '%s'\n",
				        CLI_PROG, arg);
				return -1;
			}
			g->req.type = (uint8_t)i;
			break;
		case OPT_CSUM: {
			enum ofl_csum_mode m;
			if (cli_csum_mode("gso", arg, &m) < 0)
				return -1;
			g->req.csum = (uint8_t)m;
			break;
		}
		case OPT_FIXED_ID:
		case OPT_OUTER_FIXED_ID:
			g->req.flags |= id == OPT_FIXED_ID ? OFL_GSO_F_FIXED_ID : OFL_GSO_F_OUTER_FIXED_ID;
			break;
		case OPT_LAX_SNAPLEN:
			g->lax = 1;
			break;
		case OPT_TUNNEL:
		case OPT_TUN_CSUM: {
			int t = id == OPT_TUNNEL
			                ? name_index("--tunnel", arg, tunnel_names,
			                             sizeof tunnel_names / sizeof tunnel_names[0])
			                : name_index("--tun-csum", arg, tun_csum_names,
			                             sizeof tun_csum_names / sizeof tun_csum_names[0]);
			if (t < 0)
				return -1;
			if (id == OPT_TUNNEL)
				g->req.tunnel = (uint8_t)t;
			else
				g->req.tun_csum = (uint8_t)t;
			break;
		}
		case OPT_INNER_OFF:
			if (cli_u64("--inner-off", arg, 2, 65534, &v) < 0)
				return -1;
			g->req.inner_off = (uint16_t)v;
			break;
		default:
			if (dsa_opt_parse(&g->dsa, "gso", "--dsa", id, arg) != 0)
				return -1;
			break;
		}
	}
	if (npos != 2) {
		fprintf(stderr, "%s gso: needs IN and OUT\n", CLI_PROG);
		return -1;
	}
	if (!g->mss) {
		fprintf(stderr, "%s gso: --mss is required\n", CLI_PROG);
		return -1;
	}
	g->in_path = pos[0];
	g->out_path = pos[1];
	return 0;
}

struct gso_stats {
	uint64_t frames, bytes, segmented, segments, unchanged, refused, seg_bytes;
	uint64_t refused_by[11]; /* by -error code */
	uint64_t dsa_bad_tag;    /* --dsa: no valid tx tag (or one segments cannot carry) */
};

/* One frame into the output file unchanged (NULL file: nothing). */
static void out_frame(struct replay_outfile *o, const struct replay_frame *f)
{
	uint8_t *p = replay_outfile_reserve(o, f->ts_ns, f->caplen, f->len);
	if (p)
		memcpy(p, f->data, f->caplen);
}

/* One segment: its header slot, then its slices, copied only here. */
static void out_seg(struct replay_outfile *o, uint64_t ts, const struct ofl_gso_seg *s)
{
	uint8_t *p = replay_outfile_reserve(o, ts, s->len, s->len);
	if (p)
		ofl_gso_seg_linearize(s, p, s->len);
}

/* One frame: segment it when it is a super-packet, else pass it on. */
static int one_frame(const struct gso_cmd *g, const struct replay_frame *f, uint64_t idx,
                     struct ofl_gso_pool *pool, struct replay_outfile *o, struct gso_stats *st)
{
	struct ofl_gso_req req = g->req;
	struct ofl_gso_iter it;
	struct ofl_gso_counts cnt;
	struct ofl_gso_seg seg;
	struct ofl_buf b[2] = { { f->data, f->caplen } };
	uint32_t nb = 1;
	struct ofl_dsa_view dv;
	struct ofl_gso_dsa dd;
	int rc;

	st->frames++;
	st->bytes += f->caplen;
	req.seg_size = g->mss;
	if (req.type == OFL_GSO_TYPE_UDP_FRAG)
		req.seg_size = (g->mss + 8u) & ~7u;
	if (g->dsa.ops) {
		/* a tagged super-packet: segment it untagged, tag every segment */
		if (dsa_gso_untag(&g->dsa, f->data, f->caplen, &dv, b, &dd) != 0) {
			st->dsa_bad_tag++;
			out_frame(o, f);
			return 0;
		}
		nb = 2;
		ofl_gso_req_set_dsa(&req, &dd);
	}
	rc = f->caplen < f->len ? OFL_EBADMSG : ofl_gso_start(&it, &req, b, nb);
	if (rc == 0 && ofl_gso_count(&it, &cnt, sizeof cnt) == 0 && cnt.type == OFL_GSO_TYPE_UDP_FRAG &&
	    req.type == OFL_GSO_TYPE_AUTO) {
		/* AUTO chose fragmentation: N + 8 bytes (rounded to 8) per fragment */
		req.type = OFL_GSO_TYPE_UDP_FRAG;
		req.seg_size = (g->mss + 8u) & ~7u;
		rc = ofl_gso_start(&it, &req, b, nb);
	}
	if (rc == 0 && ofl_gso_count(&it, &cnt, sizeof cnt) == 0 && cnt.segs == 1)
		rc = 1; /* fits the MTU */
	if (rc != 0) {
		/* not a super-packet, or one we cannot cut */
		if (rc < 0 && f->len > g->mss + g->l2_len + 40u) {
			if (st->refused < MAX_WARN)
				fprintf(stderr, "%s gso: frame %llu (%u bytes): not segmented: %s\n", CLI_PROG,
				        (unsigned long long)idx + 1, (unsigned)f->len,
				        f->caplen < f->len ? "cut by the snap length" : ofl_gso_why_str(ofl_gso_why(&it)));
			st->refused++;
			if (-rc < 11)
				st->refused_by[-rc]++;
		} else {
			st->unchanged++;
		}
		out_frame(o, f);
		return 0;
	}
	st->segmented++;
	while ((rc = ofl_gso_next(&it, pool, &seg)) == 1) {
		if (g->dsa.ops && (rc = ofl_gso_dsa_finish(&dd, &seg)) < 0) {
			ofl_gso_pool_put(pool, &seg.hdr);
			break;
		}
		st->segments++;
		st->seg_bytes += seg.len;
		out_seg(o, f->ts_ns, &seg);
		ofl_gso_pool_put(pool, &seg.hdr);
	}
	if (rc < 0) {
		fprintf(stderr, "%s gso: frame %llu: %s\n", CLI_PROG, (unsigned long long)idx + 1, ofl_strerror(rc));
		return -1;
	}
	return 0;
}

/* A raw-IP link type (l3_link.h): frames pointed past their pseudo-header,
 * segmented as IP packets (req.l2 = OFL_L2_NONE), OUT LINKTYPE_RAW; any
 * other: the DSA tag format and the link type checks of dsa_opt_resolve(). */
static int resolve_input(struct gso_cmd *g, struct replay_capture *cap)
{
	int skip = l3_link_skip(cap->linktype);

	g->l2_len = 14;
	if (skip < 0)
		return dsa_opt_resolve(&g->dsa, "gso", "--dsa", g->in_path, cap->linktype, 0);
	if (g->dsa.name || g->dsa.ops) {
		char lname[128];
		fprintf(stderr, "%s gso: %s: link type %s carries IP packets, no DSA tags: --dsa does not apply\n",
		        CLI_PROG, g->in_path, replay_linktype_describe(cap->linktype, lname, sizeof lname));
		return CLI_EXIT_USAGE;
	}
	l3_link_strip(cap, (unsigned)skip);
	g->req.l2 = OFL_L2_NONE;
	g->l2_len = 0;
	return CLI_EXIT_OK;
}

int replay_gso_main(int argc, char **argv)
{
	static uint8_t slots[NSLOTS * SLOT_SIZE];
	struct gso_cmd g;
	struct replay_capture cap;
	struct ofl_gso_pool pool;
	struct replay_outfile o;
	struct gso_stats st;
	char err[REPLAY_ERRLEN];
	uint32_t snap;
	size_t i;
	int rc = parse_args(&g, argc, argv);

	if (rc != 0)
		return cli_args_exit("gso", rc);
	if ((g.lax ? replay_capture_read_lax : replay_capture_read)(&cap, g.in_path, err, sizeof err) < 0) {
		fprintf(stderr, "%s gso: %s\n", CLI_PROG, err);
		return CLI_EXIT_FAIL;
	}
	rc = resolve_input(&g, &cap);
	if (rc != CLI_EXIT_OK) {
		replay_capture_free(&cap);
		return rc;
	}
	memset(&st, 0, sizeof st);
	snap = cap.snaplen ? cap.snaplen : 262144u;
	for (i = 0; i < cap.nframes; i++)
		if (cap.frames[i].caplen > snap)
			snap = cap.frames[i].caplen;
	if (replay_outfile_open(&o, g.out_path, cap.linktype, snap, cap.nano) < 0) {
		fprintf(stderr, "%s gso: %s\n", CLI_PROG, o.err);
		replay_capture_free(&cap);
		return CLI_EXIT_FAIL;
	}
	ofl_gso_pool_init_block(&pool, slots, sizeof slots, SLOT_SIZE);
	rc = 0;
	for (i = 0; i < cap.nframes && rc == 0; i++)
		rc = one_frame(&g, &cap.frames[i], i, &pool, &o, &st);
	if (replay_outfile_close(&o) < 0) {
		fprintf(stderr, "%s gso: %s\n", CLI_PROG, o.err);
		rc = -1;
	}
	if (rc == 0 && st.refused > MAX_WARN)
		fprintf(stderr, "%s gso: %llu more frames not segmented\n", CLI_PROG,
		        (unsigned long long)(st.refused - MAX_WARN));
	if (rc == 0) {
		/* the capture may be on standard output: the report is not */
		FILE *fp = strcmp(g.out_path, "-") == 0 ? stderr : stdout;
		fprintf(fp, "offload-replay gso: %s -> %s\n", g.in_path, g.out_path);
		fprintf(fp, "  mss %u, type %s, csum %s%s\n", g.mss, type_names[g.req.type],
		       g.req.csum == OFL_CSUM_MODE_FULL ? "full" : "partial",
		       (g.req.flags & OFL_GSO_F_FIXED_ID) ? ", fixed IPv4 ID" : "");
		fprintf(fp, "  %-28s %12llu\n", "frames in", (unsigned long long)st.frames);
		fprintf(fp, "  %-28s %12llu\n", "bytes in", (unsigned long long)st.bytes);
		fprintf(fp, "  %-28s %12llu\n", "super-packets segmented", (unsigned long long)st.segmented);
		fprintf(fp, "  %-28s %12llu\n", "segments out", (unsigned long long)st.segments);
		fprintf(fp, "  %-28s %12llu\n", "segment bytes out", (unsigned long long)st.seg_bytes);
		fprintf(fp, "  %-28s %12llu\n", "frames passed unchanged", (unsigned long long)st.unchanged);
		fprintf(fp, "  %-28s %12llu\n", "oversized, not segmented", (unsigned long long)st.refused);
		if (g.dsa.ops)
			fprintf(fp, "  %-28s %12llu\n", "no valid tag (unchanged)", (unsigned long long)st.dsa_bad_tag);
		for (i = 1; i < 11; i++)
			if (st.refused_by[i])
				fprintf(fp, "    %-26s %12llu\n", ofl_strerror(-(int)i), (unsigned long long)st.refused_by[i]);
		if (fflush(fp) != 0)
			rc = -1;
	}
	replay_capture_free(&cap);
	return rc == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}
