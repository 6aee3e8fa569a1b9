/*
 * dsa_cmd.c - `offload-replay dsa-decode IN [OUT] [--tag NAME]` prints what
 * the DSA tag of every frame says (or why it has none) and can write the
 * untagged frames; `offload-replay dsa-encode IN OUT --tag NAME --port N`
 * tags every frame of an Ethernet capture.  Both use the library's codecs
 * (ofl_dsa_decode, ofl_dsa_untagged, ofl_dsa_encode) and nothing else.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "dsa_cmd.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <ofl/dsa.h>

#include "cli.h"
#include "dsa_opt.h"
#include "replay.h"

#define DEFAULT_SNAPLEN 262144u
#define MAX_WARN 10u

enum {
	OPT_HELP = 1,
	OPT_DIR,
	OPT_LAX_SNAPLEN,
	OPT_PORT,
	OPT_SWITCH,
	OPT_PRIORITY,
};

/* --dir: rx, tx, or auto (decode only: RX layout first, TX when it refuses) */
#define DIR_AUTO 2

static int parse_dir(const char *cmd, const char *arg, int allow_auto, int *dir)
{
	if (strcmp(arg, "rx") == 0)
		*dir = OFL_DSA_RX;
	else if (strcmp(arg, "tx") == 0)
		*dir = OFL_DSA_TX;
	else if (allow_auto && strcmp(arg, "auto") == 0)
		*dir = DIR_AUTO;
	else {
		fprintf(stderr, "%s %s: --dir wants %s, not '%s'\n", CLI_PROG, cmd,
		        allow_auto ? "rx, tx or auto" : "tx or rx", arg);
		return -1;
	}
	return 0;
}

/* The options dsa-decode and dsa-encode share: the positionals, --help,
 * --dir, --lax-snaplen and the tag options (dsa_opt). */
#define COMMON_OPT_ENTRIES                                                                      \
	{ "help", 'h', 0, OPT_HELP }, { "tag", 0, 1, DSA_OPT_TAG }, { "dir", 0, 1, OPT_DIR },    \
	{ "lax-snaplen", 0, 0, OPT_LAX_SNAPLEN }, DSA_OPT_PARAM_ENTRIES
struct common_args {
	const char *cmd;
	void (*usage)(FILE *fp);
	int allow_auto; /* --dir auto */
	int *dir, *lax;
	struct dsa_opt *dsa;
	const char *pos[2]; /* the positionals (NULL: not given) */
	unsigned npos;
};

/* Option id with its argument: 0 taken, 1 --help (usage printed), -1 an
 * error (printed). */
static int common_arg(struct common_args *c, int id, const char *arg)
{
	switch (id) {
	case CLI_OPT_ERROR:
		return -1;
	case CLI_OPT_POSITIONAL:
		return cli_positional(c->cmd, arg, c->pos, &c->npos, 2) < 0 ? -1 : 0;
	case OPT_HELP:
		c->usage(stdout);
		return 1;
	case OPT_DIR:
		return parse_dir(c->cmd, arg, c->allow_auto, c->dir) < 0 ? -1 : 0;
	case OPT_LAX_SNAPLEN:
		*c->lax = 1;
		return 0;
	default:
		return dsa_opt_parse(c->dsa, c->cmd, "--tag", id, arg) != 0 ? -1 : 0;
	}
}

/* The lines of --help for the options of common_arg() but --tag and --dir. */
static void common_usage_end(FILE *fp)
{
	fprintf(fp, "  --lax-snaplen           read frames longer than the file's snap length whole\n"
	            "                          (up to 262144 bytes; libpcap, like tcpdump, cuts\n"
	            "                          them to the snap length otherwise)\n");
	dsa_opt_usage_params(fp);
	fprintf(fp, "  -h, --help              this help\n");
}

/* Parse a whole command line of opts (*c->dir starting as dir0): the
 * options of common_arg() here, every other through own(self, id, arg)
 * first (0 taken, -1 a bad value, printed; 1 not its option); at least
 * min_pos positionals (IN, OUT).  Returns 0, 1 (--help shown) or -1 (a
 * usage error, printed). */
static int common_parse(struct common_args *c, int argc, char **argv, const struct cli_opt *opts, int dir0,
                        unsigned min_pos, int (*own)(void *self, int id, const char *arg), void *self)
{
	struct cli_parser p;
	const char *arg;
	int id, r;

	dsa_opt_init(c->dsa);
	*c->dir = dir0;
	cli_parser_init(&p, argc, argv, opts, c->cmd);
	while ((id = cli_next(&p, &arg)) != CLI_OPT_END) {
		r = own ? own(self, id, arg) : 1;
		if (r == 1)
			r = common_arg(c, id, arg);
		if (r != 0)
			return r;
	}
	if (c->npos < min_pos) {
		fprintf(stderr, "%s %s: needs %s\n", CLI_PROG, c->cmd, min_pos == 1 ? "IN" : "IN and OUT");
		return -1;
	}
	return 0;
}

static const char *dir_name(int dir)
{
	return dir == OFL_DSA_RX ? "rx" : dir == OFL_DSA_TX ? "tx" : "auto";
}

/* Snap length for an output whose frames grow by at most grow bytes. */
static uint32_t out_snaplen(const struct replay_capture *cap, uint32_t grow)
{
	uint32_t snap = cap->snaplen ? cap->snaplen : DEFAULT_SNAPLEN;

	for (size_t i = 0; i < cap->nframes; i++)
		if (cap->frames[i].caplen + grow > snap)
			snap = cap->frames[i].caplen + grow;
	return snap;
}

static int read_capture(const char *cmd, const char *path, int lax, struct replay_capture *cap)
{
	char err[REPLAY_ERRLEN];

	if ((lax ? replay_capture_read_lax : replay_capture_read)(cap, path, err, sizeof err) < 0) {
		fprintf(stderr, "%s %s: %s\n", CLI_PROG, cmd, err);
		return -1;
	}
	return 0;
}

/* Where the report goes: not where the capture goes ("-": standard output). */
static FILE *report_stream(const char *out_path)
{
	return out_path && strcmp(out_path, "-") == 0 ? stderr : stdout;
}

/* ======================================================================== */
/* dsa-decode                                                                */

static const struct cli_opt decode_opts[] = {
	COMMON_OPT_ENTRIES,
	{ NULL, 0, 0, 0 },
};

void dsa_decode_usage(FILE *fp)
{
	fprintf(fp,
	        "usage: %s dsa-decode IN [OUT] [--tag NAME] [--dir rx|tx|auto] [options]\n"
	        "  Prints one line per frame of IN (pcap or pcapng, '-' standard input): its\n"
	        "  number (from 1), the\n"
	        "  direction of the tag's layout (rx: switch to host, tx: host to switch) and the\n"
	        "  fields the tag holds (port, port mask, switch, prio, cmd, code, aux, vlan,\n"
	        "  vbid, tstamp, flags by name), or '-' and why the frame carries no valid tag.\n"
	        "  Lines starting with '#' are a header and a summary.  With OUT, the untagged\n"
	        "  frames are written to it (classic pcap, Ethernet; frames without a valid tag\n"
	        "  are left out; '-' standard output, the lines then on standard error).\n"
	        "  Exit status 0 even when frames carry no valid tag.\n"
	        "  --tag NAME              the tag format, as /sys/class/net/*/dsa/tagging names\n"
	        "                          it (brcm, dsa, edsa, ksz9477, mtk, ocelot, ...);\n"
	        "                          needed for Ethernet captures; link types 281 (brcm),\n"
	        "                          282 (brcm-prepend), 284 (dsa), 285 (edsa) name their own\n"
	        "  --dir rx|tx|auto        layout to decode (default auto: rx, else tx)\n",
	        CLI_PROG);
	common_usage_end(fp);
}

struct decode_cmd {
	const char *in_path, *out_path;
	struct dsa_opt dsa;
	int dir;
	int lax; /* --lax-snaplen */
};

static int decode_args(struct decode_cmd *d, int argc, char **argv)
{
	struct common_args c = { "dsa-decode", dsa_decode_usage, 1, &d->dir, &d->lax, &d->dsa, { NULL, NULL }, 0 };
	int r;

	memset(d, 0, sizeof *d);
	r = common_parse(&c, argc, argv, decode_opts, DIR_AUTO, 1, NULL, NULL);
	d->in_path = c.pos[0];
	d->out_path = c.pos[1];
	return r;
}

/* Decode in one layout, or in auto mode RX first and TX when RX refuses. */
static int decode_one(const struct decode_cmd *d, const uint8_t *data, uint32_t len, int *dir,
                      struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	int rc;

	*dir = d->dir == DIR_AUTO ? OFL_DSA_RX : d->dir;
	rc = ofl_dsa_decode(d->dsa.ops, &d->dsa.params, *dir, data, len, m, v);
	if (rc == OFL_EBADMSG && d->dir == DIR_AUTO) {
		*dir = OFL_DSA_TX;
		rc = ofl_dsa_decode(d->dsa.ops, &d->dsa.params, *dir, data, len, m, v);
	}
	return rc;
}

/* Why a frame has no valid tag, with the bytes where the tag should be. */
static void why_no_tag(const struct decode_cmd *d, const struct replay_frame *f, int rc, char *buf,
                       size_t n)
{
	const struct ofl_dsa_ops *ops = d->dsa.ops;
	int rx = d->dir != OFL_DSA_TX, tx = d->dir != OFL_DSA_RX;
	unsigned head = 0, tail = 0, need, off, cnt, i;
	size_t len;

	if (rx) {
		head = ops->rx_head;
		tail = ops->rx_tail;
	}
	if (tx) {
		if (!rx || ops->tx_head > head)
			head = ops->tx_head;
		if (!rx || ops->tx_tail > tail)
			tail = ops->tx_tail;
	}
	if (rc != OFL_EBADMSG) {
		snprintf(buf, n, "ofl_dsa_decode: %s", ofl_strerror(rc));
		return;
	}
	if (f->caplen < 14) {
		snprintf(buf, n, "too short for an Ethernet frame (%" PRIu32 " bytes)", f->caplen);
		return;
	}
	if (ops->place == OFL_DSA_PLACE_TAIL && f->caplen < f->len) {
		snprintf(buf, n, "cut by the snap length (%" PRIu32 " of %" PRIu32
		                 " bytes): the tail tag is not in the capture", f->caplen, f->len);
		return;
	}
	need = 14u + (rx && tx ? (ops->rx_head < ops->tx_head ? ops->rx_head : ops->tx_head) : head) +
	       (rx && tx ? (ops->rx_tail < ops->tx_tail ? ops->rx_tail : ops->tx_tail) : tail);
	if (!(ops->flags & OFL_DSA_F_VAR_LEN) && f->caplen < need) {
		snprintf(buf, n, "too short for a %s tag (%" PRIu32 " bytes, %u needed)", ops->name,
		         f->caplen, need);
		return;
	}
	len = (size_t)snprintf(buf, n, "not a valid %s tag in the %s layout", ops->name,
	                       rx && tx ? "rx or tx" : rx ? "rx" : "tx");
	switch (ops->place) {
	case OFL_DSA_PLACE_BEFORE_DA:
		off = 0;
		cnt = head;
		break;
	case OFL_DSA_PLACE_TAIL:
		cnt = tail < f->caplen ? tail : f->caplen;
		off = f->caplen - cnt;
		break;
	case OFL_DSA_PLACE_NONE:
		return;
	default:
		off = 12;
		cnt = head;
		break;
	}
	if (cnt > 16)
		cnt = 16;
	if (off + cnt > f->caplen)
		cnt = f->caplen - off;
	if (len >= n || !cnt)
		return;
	len += (size_t)snprintf(buf + len, n - len, ": bytes at offset %u:", off);
	for (i = 0; i < cnt && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, " %02x", f->data[off + i]);
}

int dsa_decode_main(int argc, char **argv)
{
	struct decode_cmd d;
	struct replay_capture cap;
	struct replay_outfile o;
	uint64_t nrx = 0, ntx = 0, nbad = 0, nout = 0;
	char text[512];
	int rc = decode_args(&d, argc, argv);
	FILE *fp = report_stream(d.out_path);

	if (rc != 0)
		return cli_args_exit("dsa-decode", rc);
	if (read_capture("dsa-decode", d.in_path, d.lax, &cap) < 0)
		return CLI_EXIT_FAIL;
	rc = dsa_opt_resolve(&d.dsa, "dsa-decode", "--tag", d.in_path, cap.linktype, 1);
	if (rc != CLI_EXIT_OK) {
		replay_capture_free(&cap);
		return rc;
	}
	/* untagged frames are at most 4 bytes longer (a rebuilt 802.1Q header) */
	if (replay_outfile_open(&o, d.out_path, REPLAY_LINKTYPE_ETHERNET, out_snaplen(&cap, 4),
	                        cap.nano) < 0) {
		fprintf(stderr, "%s dsa-decode: %s\n", CLI_PROG, o.err);
		replay_capture_free(&cap);
		return CLI_EXIT_FAIL;
	}
	fprintf(fp, "# %s: link type %" PRIu32 ", %zu frames, tag %s (%s), direction %s\n", d.in_path,
	       cap.linktype, cap.nframes, d.dsa.ops->name,
	       d.dsa.by_linktype ? "from the link type" : "--tag", dir_name(d.dir));
	for (size_t i = 0; i < cap.nframes; i++) {
		const struct replay_frame *f = &cap.frames[i];
		struct ofl_dsa_meta m;
		struct ofl_dsa_view v;
		struct ofl_buf pc[2];
		int dir;

		rc = decode_one(&d, f->data, f->caplen, &dir, &m, &v);
		if (rc == 0 && ofl_dsa_untagged(f->data, f->caplen, &v, pc) != 2)
			rc = OFL_EBADMSG;
		if (rc != 0) {
			why_no_tag(&d, f, rc, text, sizeof text);
			fprintf(fp, "%zu -: no valid tag: %s\n", i + 1, text);
			nbad++;
			continue;
		}
		uint32_t ulen = pc[0].len + pc[1].len;
		uint32_t wire = f->len >= f->caplen ? f->len - f->caplen + ulen : ulen;
		fprintf(fp, "%zu %s: %s; %" PRIu32 " -> %" PRIu32 " bytes\n", i + 1, dir_name(dir),
		       dsa_meta_text(d.dsa.ops, &m, text, sizeof text), f->caplen, ulen);
		if (dir == OFL_DSA_RX)
			nrx++;
		else
			ntx++;
		uint8_t *p = replay_outfile_reserve(&o, f->ts_ns, ulen, wire);
		if (p) {
			memcpy(p, pc[0].data, pc[0].len);
			memcpy(p + pc[0].len, pc[1].data, pc[1].len);
			nout++;
		}
	}
	fprintf(fp, "# %zu frames: %" PRIu64 " rx, %" PRIu64 " tx, %" PRIu64 " without a valid tag", cap.nframes,
	       nrx, ntx, nbad);
	if (d.out_path)
		fprintf(fp, "; %" PRIu64 " untagged frames written to %s", nout, d.out_path);
	fprintf(fp, "\n");
	rc = CLI_EXIT_OK;
	if (replay_outfile_close(&o) < 0) {
		fprintf(stderr, "%s dsa-decode: %s\n", CLI_PROG, o.err);
		rc = CLI_EXIT_FAIL;
	}
	if (fflush(fp) != 0)
		rc = CLI_EXIT_FAIL;
	replay_capture_free(&cap);
	return rc;
}

/* ======================================================================== */
/* dsa-encode                                                                */

static const struct cli_opt encode_opts[] = {
	COMMON_OPT_ENTRIES,
	{ "port", 0, 1, OPT_PORT },
	{ "switch", 0, 1, OPT_SWITCH },
	{ "priority", 0, 1, OPT_PRIORITY },
	{ NULL, 0, 0, 0 },
};

void dsa_encode_usage(FILE *fp)
{
	fprintf(fp,
	        "usage: %s dsa-encode IN OUT --tag NAME --port N [--switch S] [--priority P]\n"
	        "                  [--dir tx|rx] [options]\n"
	        "  Tags every frame of IN (pcap or pcapng, Ethernet) with the tag format NAME\n"
	        "  for one switch port, as the kernel's tagger writes it (short frames padded\n"
	        "  first where the format wants it), and writes them to OUT (classic pcap, same\n"
	        "  time stamps) with link type 281 (brcm), 282 (brcm-prepend), 284 (dsa) or\n"
	        "  285 (edsa) when the format has one, else Ethernet.  Frames that cannot be\n"
	        "  tagged (shorter than 14 bytes; cut by the snap length where a tail tag or\n"
	        "  padding would land inside them) are left out and named on standard error.\n"
	        "  --tag NAME              the tag format (brcm, dsa, edsa, ksz9477, mtk, ...)\n"
	        "  --port N                the destination port (tx) or source port (rx)\n"
	        "  --switch S              switch (device) index in a cascade (default 0)\n"
	        "  --priority P            traffic class / priority (default: the format's 0)\n"
	        "  --dir tx|rx             layout: host to switch (default) or switch to host\n",
	        CLI_PROG);
	common_usage_end(fp);
}

struct encode_cmd {
	const char *in_path, *out_path;
	struct dsa_opt dsa;
	struct ofl_dsa_meta meta;
	int dir, port_given;
	int lax; /* --lax-snaplen */
};

/* dsa-encode's own options (common_parse()'s own): the tag fields it sets,
 * each a number from 0 to 255 and a valid bit. */
static int encode_opt(void *self, int id, const char *arg)
{
	static const struct {
		int id;
		const char *flag;
		uint32_t valid;
	} fields[3] = {
		{ OPT_PORT, "--port", OFL_DSA_M_PORT },
		{ OPT_SWITCH, "--switch", OFL_DSA_M_SWITCH },
		{ OPT_PRIORITY, "--priority", OFL_DSA_M_PRIO },
	};
	struct encode_cmd *e = self;
	uint8_t *const at[3] = { &e->meta.port, &e->meta.switch_id, &e->meta.prio };
	uint64_t v;

	for (unsigned i = 0; i < 3; i++) {
		if (fields[i].id != id)
			continue;
		if (cli_u64(fields[i].flag, arg, 0, UINT8_MAX, &v) < 0)
			return -1;
		*at[i] = (uint8_t)v;
		e->meta.valid |= fields[i].valid;
		e->port_given |= id == OPT_PORT;
		return 0;
	}
	return 1;
}

static int encode_args(struct encode_cmd *e, int argc, char **argv)
{
	struct common_args c = { "dsa-encode", dsa_encode_usage, 0, &e->dir, &e->lax, &e->dsa, { NULL, NULL }, 0 };
	int r;

	memset(e, 0, sizeof *e);
	r = common_parse(&c, argc, argv, encode_opts, OFL_DSA_TX, 2, encode_opt, e);
	if (r == 0 && !e->dsa.ops) {
		fprintf(stderr, "%s dsa-encode: --tag NAME is required\n", CLI_PROG);
		r = -1;
	}
	e->in_path = c.pos[0];
	e->out_path = c.pos[1];
	return r;
}

/* What the format can say in this layout; prints why not (a usage error). */
static int encode_check(const struct encode_cmd *e)
{
	const struct ofl_dsa_ops *ops = e->dsa.ops;
	unsigned ports = e->dir == OFL_DSA_TX ? ops->tx_ports : ops->rx_ports;
	unsigned prios = e->dir == OFL_DSA_TX ? ops->tx_prios : ops->rx_prios;
	uint8_t buf[64 + 100 + 64];
	uint32_t off = 64, len = 100;
	int rc;

	if (!(ops->flags & OFL_DSA_F_NO_PORTS)) {
		if (!e->port_given) {
			fprintf(stderr, "%s dsa-encode: --port N is required for %s tags\n", CLI_PROG, ops->name);
			return -1;
		}
		if (e->meta.port >= ports) {
			fprintf(stderr, "%s dsa-encode: %s %s tags carry ports 0 to %u, not %u\n", CLI_PROG,
			        ops->name, dir_name(e->dir), ports ? ports - 1 : 0, e->meta.port);
			return -1;
		}
	}
	if ((e->meta.valid & OFL_DSA_M_PRIO) && e->meta.prio >= prios) {
		if (prios)
			fprintf(stderr, "%s dsa-encode: %s %s tags carry priorities 0 to %u, not %u\n", CLI_PROG,
			        ops->name, dir_name(e->dir), prios - 1, e->meta.prio);
		else
			fprintf(stderr, "%s dsa-encode: %s %s tags carry no priority\n", CLI_PROG, ops->name,
			        dir_name(e->dir));
		return -1;
	}
	/* the rest (switch range, ...) as the codec sees it, on a dummy frame */
	memset(buf, 0, sizeof buf);
	buf[off + 12] = 0x08;
	rc = ofl_dsa_encode(ops, &e->dsa.params, e->dir, &e->meta, buf, sizeof buf, &off, &len);
	if (rc != 0) {
		fprintf(stderr, "%s dsa-encode: %s %s tags cannot say this (port %u%s): %s\n", CLI_PROG,
		        ops->name, dir_name(e->dir), e->meta.port,
		        (e->meta.valid & OFL_DSA_M_SWITCH) ? ", --switch" : "", ofl_strerror(rc));
		return -1;
	}
	return 0;
}

int dsa_encode_main(int argc, char **argv)
{
	struct encode_cmd e;
	struct replay_capture cap;
	struct replay_outfile o;
	uint64_t ntag = 0, nskip = 0;
	uint32_t head = 0, tail = 0, lt;
	uint8_t *buf = NULL;
	size_t bufcap = 0;
	char lname[128];
	int rc = encode_args(&e, argc, argv);
	FILE *fp = report_stream(e.out_path);

	if (rc == 0 && encode_check(&e) < 0)
		rc = -1;
	if (rc != 0)
		return cli_args_exit("dsa-encode", rc);
	if (read_capture("dsa-encode", e.in_path, e.lax, &cap) < 0)
		return CLI_EXIT_FAIL;
	if (cap.linktype != REPLAY_LINKTYPE_ETHERNET) {
		const struct ofl_dsa_ops *has = dsa_linktype_ops(cap.linktype);
		if (has)
			fprintf(stderr, "%s dsa-encode: %s: link type %" PRIu32 ": its frames carry %s tags "
			                "already (dsa-decode IN OUT untags them)\n",
			        CLI_PROG, e.in_path, cap.linktype, has->name);
		else
			fprintf(stderr, "%s dsa-encode: %s: link type %s is not supported (only Ethernet, 1)\n",
			        CLI_PROG, e.in_path, replay_linktype_describe(cap.linktype, lname, sizeof lname));
		replay_capture_free(&cap);
		return CLI_EXIT_FAIL;
	}
	ofl_dsa_room(e.dsa.ops, &e.dsa.params, e.dir, 0, &head, &tail);
	{
		/* the most a frame can grow: head, tail and padding */
		uint32_t grow = head + tail + e.dsa.ops->tx_min_len + 64u;
		lt = dsa_ops_linktype(e.dsa.ops);
		if (!lt)
			lt = REPLAY_LINKTYPE_ETHERNET;
		if (replay_outfile_open(&o, e.out_path, lt,
		                        out_snaplen(&cap, grow), cap.nano) < 0) {
			fprintf(stderr, "%s dsa-encode: %s\n", CLI_PROG, o.err);
			replay_capture_free(&cap);
			return CLI_EXIT_FAIL;
		}
	}
	rc = CLI_EXIT_OK;
	for (size_t i = 0; i < cap.nframes; i++) {
		const struct replay_frame *f = &cap.frames[i];
		uint32_t off, len, need;
		const char *why = NULL;
		int r;

		if (ofl_dsa_room(e.dsa.ops, &e.dsa.params, e.dir, f->caplen, &head, &tail) != 0) {
			why = "no room";
		} else if (f->caplen < f->len &&
		           (e.dsa.ops->place == OFL_DSA_PLACE_TAIL || f->caplen < e.dsa.ops->tx_min_len)) {
			why = "cut by the snap length, and the tag or padding would go after the cut";
		} else {
			need = head + f->caplen + tail;
			if (need > bufcap) {
				uint8_t *nb = realloc(buf, need);
				if (!nb) {
					fprintf(stderr, "%s dsa-encode: out of memory\n", CLI_PROG);
					rc = CLI_EXIT_FAIL;
					break;
				}
				buf = nb;
				bufcap = need;
			}
			memset(buf, 0, need);
			memcpy(buf + head, f->data, f->caplen);
			off = head;
			len = f->caplen;
			r = ofl_dsa_encode(e.dsa.ops, &e.dsa.params, e.dir, &e.meta, buf, need, &off, &len);
			if (r == 0) {
				uint32_t wire = f->len > f->caplen ? f->len + (len - f->caplen) : len;
				uint8_t *p = replay_outfile_reserve(&o, f->ts_ns, len, wire);
				if (p)
					memcpy(p, buf + off, len);
				ntag++;
				continue;
			}
			why = r == OFL_EINVAL ? "shorter than an Ethernet header, or a truncated 802.1Q header"
			                      : ofl_strerror(r);
		}
		if (nskip < MAX_WARN)
			fprintf(stderr, "%s dsa-encode: frame %zu (%" PRIu32 " bytes): not tagged: %s\n", CLI_PROG,
			        i + 1, f->caplen, why);
		nskip++;
	}
	free(buf);
	if (nskip > MAX_WARN)
		fprintf(stderr, "%s dsa-encode: %" PRIu64 " more frames not tagged\n", CLI_PROG,
		        nskip - MAX_WARN);
	if (replay_outfile_close(&o) < 0) {
		fprintf(stderr, "%s dsa-encode: %s\n", CLI_PROG, o.err);
		rc = CLI_EXIT_FAIL;
	}
	if (rc == CLI_EXIT_OK) {
		fprintf(fp, "offload-replay dsa-encode: %s -> %s (link type %" PRIu32 ")\n", e.in_path,
		       e.out_path, lt);
		fprintf(fp, "  tag %s, %s layout, port %u", e.dsa.ops->name, dir_name(e.dir), e.meta.port);
		if (e.meta.valid & OFL_DSA_M_SWITCH)
			fprintf(fp, ", switch %u", e.meta.switch_id);
		if (e.meta.valid & OFL_DSA_M_PRIO)
			fprintf(fp, ", priority %u", e.meta.prio);
		fprintf(fp, "\n  %-28s %12zu\n  %-28s %12" PRIu64 "\n  %-28s %12" PRIu64 "\n", "frames in",
		       cap.nframes, "frames tagged", ntag, "frames not tagged", nskip);
		if (fflush(fp) != 0)
			rc = CLI_EXIT_FAIL;
	}
	replay_capture_free(&cap);
	return rc;
}
