/*
 * gro_cmd.c - `offload-replay gro IN OUT [options]`: feed the frames of a
 * capture to the GRO engine in NAPI-like polls, with the capture's time
 * stamps as the clock, write every delivered packet as one frame and print
 * what happened.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <inttypes.h>
#include <string.h>

#include <ofl/gro.h>

#include "cli.h"
#include "dsa_opt.h"
#include "gro_live.h"
#include "gro_report.h"
#include "l3_link.h"
#include "replay.h"

/* gro_flush_timeout of the kernel oracle's receiving veth */
#define KERNEL_NAPI_TIMEOUT_NS 5000000u

enum {
	OPT_HELP = 1,
	OPT_BURST,
	OPT_TIMEOUT,
	OPT_BATCH,
	OPT_MAX_SIZE,
	OPT_FLOWS,
	OPT_CSUM,
	OPT_STATS,
	OPT_LAX_SNAPLEN,
	OPT_RX_CSUM,
	OPT_SPLIT,
	OPT_TRACE,
	OPT_KERNEL_NAPI,
	OPT_IFACE,
	OPT_DURATION,
	OPT_UDP,
	OPT_VXLAN_PORT,
	OPT_GENEVE_PORT,
	OPT_IPIP,
	OPT_NO_IPIP,
	OPT_GRE,
	OPT_NO_GRE,
	OPT_FRAGLIST,
	OPT_UDP_FRAGLIST,
	OPT_VXLAN_GPE_PORT,
};

static const struct cli_opt gro_opts[] = {
	{ "help", 'h', 0, OPT_HELP },
	{ "burst", 0, 1, OPT_BURST },
	{ "flush-timeout-ns", 0, 1, OPT_TIMEOUT },
	{ "batch", 0, 1, OPT_BATCH },
	{ "max-size", 0, 1, OPT_MAX_SIZE },
	{ "flows", 0, 1, OPT_FLOWS },
	{ "csum", 0, 1, OPT_CSUM },
	{ "stats", 0, 1, OPT_STATS },
	{ "lax-snaplen", 0, 0, OPT_LAX_SNAPLEN },
	{ "rx-csum", 0, 1, OPT_RX_CSUM },
	{ "split", 0, 1, OPT_SPLIT },
	{ "trace", 0, 0, OPT_TRACE },
	{ "kernel-napi", 0, 0, OPT_KERNEL_NAPI },
	{ "interface", 'i', 1, OPT_IFACE },
	{ "duration", 0, 1, OPT_DURATION },
	{ "udp", 0, 0, OPT_UDP },
	{ "vxlan-port", 0, 1, OPT_VXLAN_PORT },
	{ "geneve-port", 0, 1, OPT_GENEVE_PORT },
	{ "ipip", 0, 0, OPT_IPIP },
	{ "no-ipip", 0, 0, OPT_NO_IPIP },
	{ "gre", 0, 0, OPT_GRE },
	{ "no-gre", 0, 0, OPT_NO_GRE },
	{ "fraglist", 0, 0, OPT_FRAGLIST },
	{ "udp-fraglist", 0, 0, OPT_UDP_FRAGLIST },
	{ "vxlan-gpe-port", 0, 1, OPT_VXLAN_GPE_PORT },
	{ "dsa", 0, 1, DSA_OPT_TAG },
	{ "dsa-keep-tag", 0, 0, DSA_OPT_KEEP_TAG },
	DSA_OPT_PARAM_ENTRIES,
	{ NULL, 0, 0, 0 },
};

void gro_cmd_usage(FILE *fp)
{
	fprintf(fp,
	        "usage: %s gro IN OUT [options]\n"
	        "       %s gro -i IFACE OUT [--duration S] [options]\n"
	        "  Feeds the frames of IN (any capture file libpcap reads: pcap or pcapng;\n"
	        "  link type Ethernet or a DSA tag, or raw IP: RAW, IPV4, IPV6, NULL, LOOP,\n"
	        "  LINUX_SLL, LINUX_SLL2, their pseudo-header skipped) to the GRO engine in\n"
	        "  polls, with the capture's time stamps as the clock, and writes every\n"
	        "  delivered packet as one frame, in delivery order, time-stamped with the\n"
	        "  clock at delivery, to OUT (classic pcap, same link type, RAW for raw-IP\n"
	        "  input; nanosecond time stamps if some in IN are not whole microseconds).\n"
	        "  IN '-' is standard input, OUT '-' standard output\n"
	        "  (the statistics then go to standard error); OUT /dev/null writes nothing.\n"
	        "  Frames cut by the snap length are fed as captured (GRO passes them on as\n"
	        "  malformed) and counted.\n"
	        "  --burst N             frames per poll (default 64, like NAPI; 0 = one poll\n"
	        "                        for the whole capture)\n"
	        "  --flush-timeout-ns T  gro_flush_timeout: keep packets held across polls up to\n"
	        "                        T ns; the flush timer fires when the next frame is not\n"
	        "                        earlier than the deadline (default 0)\n"
	        "  --batch N             delivery list size in segments (gro_normal_batch, default 8)\n"
	        "  --max-size B          largest merged IP packet, 1280..%u (default 65535)\n"
	        "  --flows N             flow entries held at once (default 64)\n"
	        "  --csum full|partial   checksums of merged packets in OUT: complete (default), or\n"
	        "                        the pseudo-header sum as CHECKSUM_PARTIAL leaves it\n"
	        "  --stats text|json     statistics on standard output (standard error when OUT\n"
	        "                        is '-') as aligned text (default)\n"
	        "                        or one JSON object (names as in struct ofl_gro_stats)\n"
	        "  --rx-csum none|unnecessary|complete\n"
	        "                        checksum status the simulated NIC reports: nothing\n"
	        "                        verified (default; GRO checks in software), verified\n"
	        "                        (sender-side captures with offloaded checksums merge),\n"
	        "                        or the CHECKSUM_COMPLETE sum, computed by the replay\n"
	        "  --split N             feed frames longer than N bytes as two buffers split at\n"
	        "                        byte N (multi-buffer input; default: one buffer)\n"
	        "  --lax-snaplen         read frames longer than the file's snap length whole\n"
	        "                        (up to 262144 bytes; libpcap, like tcpdump, cuts them\n"
	        "                        to the snap length otherwise)\n"
	        "  --trace               one line per delivered packet on standard error: time,\n"
	        "                        kind, segments, length and the input frame numbers\n"
	        "  --kernel-napi         poll like Linux NAPI under the kernel oracle's\n"
	        "                        kernel-gro (frames back to back, time stamps ignored;\n"
	        "                        first poll of one frame, then of --burst; a poll that\n"
	        "                        uses its whole budget flushes everything; flush\n"
	        "                        timeout 5 ms unless given), for comparing outputs\n"
	        "  --udp                 merge UDP datagrams too (QUIC, VPNs), as Linux does with\n"
	        "                        rx-udp-gro-forwarding on (ofl_gro_config.udp); the UDP\n"
	        "                        reasons (udp_csum, udp_zero_csum, udp_len, udp_cnt...)\n"
	        "                        are counted in the statistics\n"
	        "  --vxlan-port P        merge TCP through VXLAN on UDP port P (4789; Linux's\n"
	        "                        driver default 8472), as Linux does where a VXLAN\n"
	        "                        device listens (ofl_gro_config.vxlan_ports); up to 4\n"
	        "  --geneve-port P       the same through Geneve on port P (6081); up to 4\n"
	        "  --vxlan-gpe-port P    the same through VXLAN-GPE on port P (4790; next\n"
	        "                        protocol IPv4, IPv6 or Ethernet); up to 4.\n"
	        "                        The tun_* reasons are counted in the statistics\n"
	        "  --ipip, --no-ipip     merge TCP through IP-in-IP (4in4, SIT 6in4, 4in6, 6in6),\n"
	        "                        as Linux always does (ofl_gro_config.ipip; on unless\n"
	        "                        --no-ipip)\n"
	        "  --gre, --no-gre       merge TCP through GRE (version 0, checksum and key\n"
	        "                        allowed; IPv4, IPv6 or Ethernet payload), as Linux\n"
	        "                        always does (ofl_gro_config.gre; on unless --no-gre)\n"
	        "  --fraglist            fraglist mode, Linux's rx-gro-list (ofl_gro_config.fraglist):\n"
	        "                        TCP and UDP trains chained as received (UDP too, without\n"
	        "                        --udp, as the kernel does); OUT holds each list packet\n"
	        "                        as its merged packet, the trace names it a list, and the\n"
	        "                        csum_state reasons are counted in the statistics\n"
	        "  --udp-fraglist        --udp --fraglist\n"
	        "  --dsa NAME            the frames carry DSA tags of format NAME (brcm, dsa,\n"
	        "                        edsa, ...; link types 281, 282, 284, 285 name their\n"
	        "                        own): GRO per switch port, packets untagged in OUT\n"
	        "                        (Ethernet; frames without a valid tag left out), and\n"
	        "                        per-port counts in the text statistics\n"
	        "  --dsa-keep-tag        deliver as received: OUT keeps IN's link type and tags\n"
	        "  --cpu-port C, --num-ports N, --tpid T, --brcm-legacy-vlan, --ksz-ptp\n"
	        "                        switch parameters (see dsa-decode --help)\n"
	        "  -i, --interface IFACE live: GRO on the frames of IFACE as they arrive, through\n"
	        "                        libpcap in immediate mode (needs CAP_NET_RAW), polls of\n"
	        "                        at most --burst frames, nothing held across polls; one\n"
	        "                        line of counters a second on standard output (standard\n"
	        "                        error when OUT is '-'); Ctrl-C ends.  Link types as\n"
	        "                        for files: an L3 device (TUN: RAW) is fed as raw IP\n"
	        "                        and OUT is RAW.  Not with --trace,\n"
	        "                        --split, --kernel-napi or --flush-timeout-ns\n"
	        "  --duration S          live: stop after S seconds\n"
	        "  -h, --help            this help\n",
	        CLI_PROG, CLI_PROG, OFL_GRO_MAX_SIZE_LIMIT);
}

struct gro_cmd {
	const char *in_path;
	const char *out_path; /* "-": standard output */
	struct replay_gro_opts opts;
	enum ofl_csum_mode csum;
	int json;
	int trace;
	int lax;                /* --lax-snaplen */
	const char *iface;      /* -i: live capture */
	unsigned duration;      /* --duration, seconds (0: until a signal) */
	struct dsa_opt dsa;
};

static const char *const rx_csum_names[] = {
	[OFL_CSUM_NONE] = "none",
	[OFL_CSUM_UNNECESSARY] = "unnecessary",
	[OFL_CSUM_COMPLETE] = "complete",
};

static int parse_rx_csum(const char *arg, uint8_t *status)
{
	for (unsigned i = 0; i < sizeof rx_csum_names / sizeof rx_csum_names[0]; i++)
		if (strcmp(arg, rx_csum_names[i]) == 0) {
			*status = (uint8_t)i;
			return 0;
		}
	fprintf(stderr, "%s gro: --rx-csum wants none, unnecessary or complete, not '%s'\n", CLI_PROG, arg);
	return -1;
}

/* Parse the command line; returns -1 (usage error), 0, or 1 (help shown). */
static int parse_args(struct gro_cmd *g, int argc, char **argv)
{
	struct cli_parser p;
	struct ofl_gro_config def;
	const char *arg, *pos[2];
	unsigned npos = 0;
	uint64_t v;
	int id, kernel_napi = 0, timeout_given = 0;

	memset(g, 0, sizeof *g);
	dsa_opt_init(&g->dsa);
	replay_gro_opts_default(&g->opts);
	ofl_gro_config_default(&def);
	g->opts.batch = def.normal_batch;
	g->opts.max_size = def.max_size;
	g->opts.flows = def.max_flows;
	g->csum = OFL_CSUM_MODE_FULL;
	cli_parser_init(&p, argc, argv, gro_opts, "gro");
	while ((id = cli_next(&p, &arg)) != CLI_OPT_END) {
		switch (id) {
		case CLI_OPT_ERROR:
			return -1;
		case CLI_OPT_POSITIONAL:
			if (cli_positional("gro", arg, pos, &npos, 2) < 0)
				return -1;
			break;
		case OPT_HELP:
			gro_cmd_usage(stdout);
			return 1;
		case OPT_BURST:
			if (cli_u64("--burst", arg, 0, UINT32_MAX, &v) < 0)
				return -1;
			g->opts.burst = (unsigned)v;
			break;
		case OPT_TIMEOUT:
			if (cli_u64("--flush-timeout-ns", arg, 0, UINT64_MAX, &v) < 0)
				return -1;
			g->opts.flush_timeout_ns = v;
			timeout_given = 1;
			break;
		case OPT_BATCH:
			if (cli_u64("--batch", arg, 1, UINT16_MAX, &v) < 0)
				return -1;
			g->opts.batch = (unsigned)v;
			break;
		case OPT_MAX_SIZE:
			if (cli_u64("--max-size", arg, 1280, OFL_GRO_MAX_SIZE_LIMIT, &v) < 0)
				return -1;
			g->opts.max_size = (uint32_t)v;
			break;
		case OPT_FLOWS:
			if (cli_u64("--flows", arg, 1, UINT32_MAX, &v) < 0)
				return -1;
			g->opts.flows = (uint32_t)v;
			break;
		case OPT_CSUM:
			if (cli_csum_mode("gro", arg, &g->csum) < 0)
				return -1;
			break;
		case OPT_STATS:
			if (strcmp(arg, "json") == 0) {
				g->json = 1;
			} else if (strcmp(arg, "text") == 0) {
				g->json = 0;
			} else {
				fprintf(stderr, "%s gro: --stats wants text or json, not '%s'\n", CLI_PROG, arg);
				return -1;
			}
			break;
		case OPT_RX_CSUM:
			if (parse_rx_csum(arg, &g->opts.csum_status) < 0)
				return -1;
			break;
		case OPT_SPLIT:
			if (cli_u64("--split", arg, 0, UINT32_MAX, &v) < 0)
				return -1;
			g->opts.split = (uint32_t)v;
			break;
		case OPT_TRACE:
			g->trace = 1;
			break;
		case OPT_KERNEL_NAPI:
			kernel_napi = 1;
			break;
		case OPT_LAX_SNAPLEN:
			g->lax = 1;
			break;
		case OPT_UDP:
			g->opts.udp = 1;
			break;
		case OPT_IPIP:
		case OPT_NO_IPIP:
			g->opts.ipip = id == OPT_IPIP;
			break;
		case OPT_GRE:
		case OPT_NO_GRE:
			g->opts.gre = id == OPT_GRE;
			break;
		case OPT_UDP_FRAGLIST:
			g->opts.udp = 1;
			/* fall through */
		case OPT_FRAGLIST:
			g->opts.fraglist = 1;
			break;
		case OPT_VXLAN_PORT:
		case OPT_GENEVE_PORT:
		case OPT_VXLAN_GPE_PORT: {
			static const char *const name[] = {"VXLAN", "Geneve", "VXLAN-GPE"};
			static const char *const opt[] = {"--vxlan-port", "--geneve-port", "--vxlan-gpe-port"};
			int k = id == OPT_VXLAN_PORT ? 0 : id == OPT_GENEVE_PORT ? 1 : 2;
			uint8_t *np = k == 0 ? &g->opts.vxlan_nports : k == 1 ? &g->opts.geneve_nports : &g->opts.vxlan_gpe_nports;
			uint16_t *ports = k == 0 ? g->opts.vxlan_ports : k == 1 ? g->opts.geneve_ports : g->opts.vxlan_gpe_ports;
			if (cli_u64(opt[k], arg, 1, 65535, &v) < 0)
				return -1;
			if (*np == OFL_GRO_TUN_PORTS_MAX) {
				fprintf(stderr, "%s gro: at most %u %s ports\n", CLI_PROG, OFL_GRO_TUN_PORTS_MAX, name[k]);
				return -1;
			}
			ports[(*np)++] = (uint16_t)v;
			break;
		}
		case OPT_IFACE:
			g->iface = arg;
			break;
		case OPT_DURATION:
			if (cli_u64("--duration", arg, 1, UINT32_MAX, &v) < 0)
				return -1;
			g->duration = (unsigned)v;
			break;
		default:
			if (dsa_opt_parse(&g->dsa, "gro", "--dsa", id, arg) != 0)
				return -1;
			break;
		}
	}
	if (g->iface) {
		if (npos != 1) {
			fprintf(stderr, "%s gro: -i IFACE needs OUT, and no IN\n", CLI_PROG);
			return -1;
		}
		if (g->trace || g->opts.split || kernel_napi || g->opts.flush_timeout_ns) {
			fprintf(stderr, "%s gro: -i IFACE takes no --trace, --split, --kernel-napi or "
			                "--flush-timeout-ns\n", CLI_PROG);
			return -1;
		}
		g->out_path = pos[0];
		return 0;
	}
	if (g->duration) {
		fprintf(stderr, "%s gro: --duration is for -i IFACE\n", CLI_PROG);
		return -1;
	}
	if (npos != 2) {
		fprintf(stderr, "%s gro: needs IN and OUT\n", CLI_PROG);
		return -1;
	}
	if (kernel_napi) {
		g->opts.first_burst = 1;
		g->opts.budget_flush = 1;
		g->opts.frozen_clock = 1;
		if (!timeout_given)
			g->opts.flush_timeout_ns = KERNEL_NAPI_TIMEOUT_NS;
	}
	g->in_path = pos[0];
	g->out_path = pos[1];
	return 0;
}

/* Where delivered packets go: linearized straight into the output buffer. */
struct gro_sink {
	const struct replay_capture *cap;
	FILE *trace;              /* NULL: no trace */
	uint64_t nout;            /* packets delivered so far */
	struct replay_outfile out;
	enum ofl_csum_mode csum;
	int dsa, dsa_untagged;    /* --dsa; untagged delivery (OUT is Ethernet) */
	struct dsa_ports ports;
};

/* "frames 12-20 25" for a delivered packet's cookies (frame numbers from 1) */
static void trace_packet(const struct gro_sink *s, const struct ofl_gro_out *out, uint64_t now_ns)
{
	unsigned n = out->seg_count ? out->seg_count : 1;

	fprintf(s->trace, "%" PRIu64 ".%09" PRIu64 " out %" PRIu64 ": ", now_ns / 1000000000u,
	        now_ns % 1000000000u, s->nout);
	if (out->seg_count)
		fprintf(s->trace, "GRO %u seg%s of %u, %u bytes, %sframe%s", out->seg_count,
		        out->seg_count > 1 ? "s" : "", out->seg_size, (unsigned)out->len,
		        (out->gso_type & OFL_GSO_TUNNEL_MASK) == OFL_GSO_FRAGLIST ? "list of " : "", n > 1 ? "s" : "");
	else
		fprintf(s->trace, "normal, %u bytes, frame", (unsigned)out->len);
	for (unsigned i = 0; i < n;) {
		size_t first = replay_cookie_index(s->cap, out->cookies[i]) + 1, last = first;
		for (i++; i < n && replay_cookie_index(s->cap, out->cookies[i]) + 1 == last + 1; i++)
			last++;
		if (last > first)
			fprintf(s->trace, " %zu-%zu", first, last);
		else
			fprintf(s->trace, " %zu", first);
	}
	fputc('\n', s->trace);
}

static void sink_packet(void *user, const struct ofl_gro_out *out, uint64_t now_ns)
{
	struct gro_sink *s = user;
	uint32_t wire = out->len;
	uint8_t *p;
	int n;

	s->nout++;
	if (s->trace)
		trace_packet(s, out, now_ns);
	if (s->dsa) {
		dsa_ports_add(&s->ports, out);
		if (s->dsa_untagged && !out->dsa) {
			s->ports.dropped++; /* still tagged: not an Ethernet frame */
			return;
		}
	}
	if (out->seg_count == 0) {
		/* a NORMAL frame keeps the wire length of a frame cut by the snaplen */
		const struct replay_frame *f = out->cookies[0];
		if (f->len > wire)
			wire = f->len;
	}
	p = replay_outfile_reserve(&s->out, now_ns, out->len, wire);
	if (!p)
		return; /* no output file, or it failed already */
	n = ofl_gro_linearize(out, p, out->len, s->csum);
	if (n != (int)out->len) {
		char msg[REPLAY_ERRLEN];
		snprintf(msg, sizeof msg, "ofl_gro_linearize: %s (%d for a %u-byte packet)",
		         n < 0 ? ofl_strerror(n) : "short", n, (unsigned)out->len);
		replay_outfile_fail(&s->out, msg);
	}
}

/* Snap length of the output: the input's, raised to fit any merged packet. */
static uint32_t out_snaplen(const struct replay_capture *cap, uint32_t max_size)
{
	uint32_t snap = cap->snaplen;

	if (snap < max_size + OFL_GRO_MAX_HDR)
		snap = max_size + OFL_GRO_MAX_HDR;
	for (size_t i = 0; i < cap->nframes; i++)
		if (cap->frames[i].caplen > snap)
			snap = cap->frames[i].caplen;
	return snap;
}

static int sink_open(struct gro_sink *s, const struct gro_cmd *g, const struct replay_capture *cap)
{
	memset(s, 0, sizeof *s);
	s->cap = cap;
	s->trace = g->trace ? stderr : NULL;
	s->csum = g->csum;
	s->dsa = g->dsa.ops != NULL;
	s->dsa_untagged = s->dsa && !g->dsa.keep_tag;
	if (replay_outfile_open(&s->out, g->out_path,
	                        s->dsa_untagged ? REPLAY_LINKTYPE_ETHERNET : cap->linktype,
	                        out_snaplen(cap, g->opts.max_size),
	                        cap->nano) < 0) {
		fprintf(stderr, "%s gro: %s\n", CLI_PROG, s->out.err);
		return -1;
	}
	return 0;
}

/* Write what is left and close; returns -1 (message printed) on failure. */
static int sink_close(struct gro_sink *s)
{
	if (replay_outfile_close(&s->out) < 0) {
		fprintf(stderr, "%s gro: %s\n", CLI_PROG, s->out.err);
		return -1;
	}
	return 0;
}

/* The tag format from --dsa and the link type into the replay options. */
static int resolve_dsa(struct gro_cmd *g, const char *name, uint32_t linktype)
{
	int rc = dsa_opt_resolve(&g->dsa, "gro", "--dsa", name, linktype, 0);

	if (rc == CLI_EXIT_OK && g->dsa.keep_tag && !g->dsa.ops) {
		fprintf(stderr, "%s gro: --dsa-keep-tag needs --dsa NAME (or a DSA link type)\n", CLI_PROG);
		rc = CLI_EXIT_USAGE;
	}
	g->opts.dsa = g->dsa.ops;
	g->opts.dsa_params = g->dsa.params;
	g->opts.dsa_keep_tag = g->dsa.keep_tag;
	return rc;
}

/* A raw-IP link type (l3_link.h): fed as raw IP (*skip: the pseudo-header
 * bytes each frame is pointed past), the output LINKTYPE_RAW; any other
 * (*skip -1): the DSA tag format and the link type checks of resolve_dsa().
 * name: the file or interface, for messages. */
static int resolve_input(struct gro_cmd *g, const char *name, uint32_t linktype, int *skip)
{
	*skip = l3_link_skip(linktype);
	if (*skip < 0)
		return resolve_dsa(g, name, linktype);
	if (g->dsa.ops || g->dsa.keep_tag) {
		char lname[128];
		fprintf(stderr, "%s gro: %s: link type %s carries IP packets, no DSA tags: --dsa does not apply\n",
		        CLI_PROG, name, replay_linktype_describe(linktype, lname, sizeof lname));
		return CLI_EXIT_USAGE;
	}
	g->opts.l2 = OFL_L2_NONE;
	return CLI_EXIT_OK;
}

/* gro -i IFACE OUT: see gro_live.h. */
static int live_main(struct gro_cmd *g)
{
	char err[REPLAY_ERRLEN];
	struct replay_capture cap; /* the interface's link type, snap length, resolution */
	struct gro_sink sink;
	struct ofl_gro_stats st;
	FILE *fp = strcmp(g->out_path, "-") == 0 ? stderr : stdout;
	struct gro_live *l = gro_live_open(g->iface, err, sizeof err);
	int rc, skip;

	if (!l) {
		fprintf(stderr, "%s gro: %s\n", CLI_PROG, err);
		return CLI_EXIT_FAIL;
	}
	memset(&cap, 0, sizeof cap);
	cap.linktype = gro_live_linktype(l);
	cap.snaplen = gro_live_snaplen(l);
	cap.nano = gro_live_nano(l);
	rc = resolve_input(g, g->iface, cap.linktype, &skip);
	if (rc == CLI_EXIT_OK && skip >= 0) {
		/* an L3 device (TUN: RAW) or the cooked "any": raw IP */
		gro_live_skip(l, (unsigned)skip);
		cap.linktype = l3_link_out_linktype();
	}
	if (rc == CLI_EXIT_OK && sink_open(&sink, g, &cap) < 0)
		rc = CLI_EXIT_FAIL;
	if (rc != CLI_EXIT_OK) {
		gro_live_close(l);
		return rc;
	}
	fprintf(fp, "offload-replay gro: live on %s -> %s\n", g->iface, g->out_path);
	fflush(fp);
	rc = gro_live_run(l, &g->opts, g->duration, sink_packet, &sink, fp, &st, err, sizeof err);
	if (rc < 0)
		fprintf(stderr, "%s gro: %s: %s\n", CLI_PROG, g->iface, err);
	if (sink_close(&sink) < 0 && rc == 0)
		rc = -1;
	if (rc == 0)
		fprintf(fp, "total  frames in %9" PRIu64 "  merged %9" PRIu64 "  packets out %9" PRIu64
		            "  dropped by the kernel %" PRIu64 "\n",
		        st.rx_pkts, st.merged, st.out_pkts, gro_live_dropped(l));
	gro_live_close(l);
	return rc == 0 ? CLI_EXIT_OK : rc == REPLAY_ECONFIG ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
}

int gro_cmd_run(int argc, char **argv)
{
	struct gro_cmd g;
	struct replay_capture cap;
	struct replay_gro_result res;
	struct gro_sink sink;
	char err[REPLAY_ERRLEN];
	int skip;
	int rc = parse_args(&g, argc, argv);

	if (rc != 0)
		return cli_args_exit("gro", rc);
	if (g.iface)
		return live_main(&g);
	if ((g.lax ? replay_capture_read_lax : replay_capture_read)(&cap, g.in_path, err, sizeof err) < 0) {
		fprintf(stderr, "%s gro: %s\n", CLI_PROG, err);
		return CLI_EXIT_FAIL;
	}
	rc = resolve_input(&g, g.in_path, cap.linktype, &skip);
	if (rc != CLI_EXIT_OK) {
		replay_capture_free(&cap);
		return rc;
	}
	if (skip >= 0)
		l3_link_strip(&cap, (unsigned)skip);
	if (sink_open(&sink, &g, &cap) < 0) {
		replay_capture_free(&cap);
		return CLI_EXIT_FAIL;
	}
	struct replay_gro_hooks hooks = { .out = sink_packet, .user = &sink };
	rc = replay_gro(&cap, &g.opts, &hooks, &res, err, sizeof err);
	if (rc == REPLAY_ECONFIG)
		fprintf(stderr, "%s gro: the engine refused --flows %" PRIu32 ", --batch %u or --max-size %" PRIu32
		                " (%s)\n", CLI_PROG, g.opts.flows, g.opts.batch, g.opts.max_size, err);
	else if (rc < 0)
		fprintf(stderr, "%s gro: %s: %s\n", CLI_PROG, g.in_path, err);
	if (sink_close(&sink) < 0 && rc == 0)
		rc = -1;
	if (rc == 0) {
		struct gro_report rep = {
			.in_path = g.in_path, .out_path = g.out_path, .cap = &cap, .opts = &g.opts,
			.csum = g.csum == OFL_CSUM_MODE_FULL ? "full" : "partial",
			.rx_csum = rx_csum_names[g.opts.csum_status], .res = &res,
		};
		/* the capture may be on standard output: the report is not */
		FILE *fp = strcmp(g.out_path, "-") == 0 ? stderr : stdout;
		if (g.json)
			gro_report_json(fp, &rep);
		else
			gro_report_text(fp, &rep);
		if (!g.json && g.dsa.ops)
			dsa_ports_print(fp, &sink.ports, &g.dsa);
		if (fflush(fp) != 0)
			rc = -1;
	}
	replay_capture_free(&cap);
	return rc == 0 ? CLI_EXIT_OK : rc == REPLAY_ECONFIG ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
}
