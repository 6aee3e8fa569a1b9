/*
 * dsa_opt.h - DSA switch tags in offload-replay: the options shared by
 * dsa-decode, dsa-encode, gro --dsa and gso --dsa (tag format, switch
 * parameters), the link types that name a tag format by themselves, the
 * text form of struct ofl_dsa_meta, per-port counts, and the untagging of a
 * tagged super-packet for GSO.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_REPLAY_DSA_OPT_H
#define OFL_REPLAY_DSA_OPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <ofl/dsa.h>
#include <ofl/gro.h>
#include <ofl/gso.h>

/* pcap link types (LINKTYPE_DSA_TAG_*) whose frames carry a known tag */
#define DSA_LINKTYPE_BRCM 281u         /**< "brcm": Broadcom tag after SA */
#define DSA_LINKTYPE_BRCM_PREPEND 282u /**< "brcm-prepend": before DA */
#define DSA_LINKTYPE_DSA 284u          /**< "dsa": Marvell DSA */
#define DSA_LINKTYPE_EDSA 285u         /**< "edsa": Marvell EDSA */

/* Option ids of the DSA options, above every subcommand's own ids. */
enum {
	DSA_OPT_TAG = 1000,     /**< --tag NAME / --dsa NAME (the table names it) */
	DSA_OPT_KEEP_TAG,       /**< --dsa-keep-tag (gro) */
	DSA_OPT_CPU_PORT,       /**< --cpu-port C */
	DSA_OPT_NUM_PORTS,      /**< --num-ports N */
	DSA_OPT_TPID,           /**< --tpid T */
	DSA_OPT_LEGACY_VLAN,    /**< --brcm-legacy-vlan */
	DSA_OPT_KSZ_PTP,        /**< --ksz-ptp */
};

/* The switch-parameter options, for a subcommand's struct cli_opt table. */
#define DSA_OPT_PARAM_ENTRIES                                                         \
	{ "cpu-port", 0, 1, DSA_OPT_CPU_PORT }, { "num-ports", 0, 1, DSA_OPT_NUM_PORTS }, \
	{ "tpid", 0, 1, DSA_OPT_TPID }, { "brcm-legacy-vlan", 0, 0, DSA_OPT_LEGACY_VLAN }, \
	{ "ksz-ptp", 0, 0, DSA_OPT_KSZ_PTP }

/** The DSA side of a command line. */
struct dsa_opt {
	const char *name;              /**< format named on the command line, or NULL */
	const struct ofl_dsa_ops *ops; /**< the format in use (after dsa_opt_resolve) */
	struct ofl_dsa_params params;  /**< switch parameters */
	int keep_tag;                  /**< gro --dsa-keep-tag */
	int by_linktype;               /**< ops came from the capture's link type */
};

void dsa_opt_init(struct dsa_opt *o);

/**
 * Take one option of the DSA_OPT_* ids (flag is the option's spelling for
 * messages, e.g. "--tag").  Returns 0 (taken), -1 (bad value: message
 * printed, a usage error), 1 (not a DSA option).
 */
int dsa_opt_parse(struct dsa_opt *o, const char *cmd, const char *flag, int id,
                  const char *arg);

/** Print the lines of --help for the switch-parameter options. */
void dsa_opt_usage_params(FILE *fp);

/** The tag format a capture link type stands for (281, 282, 284, 285), or NULL. */
const struct ofl_dsa_ops *dsa_linktype_ops(uint32_t linktype);

/** The link type of a tag format's captures, or 0 when it has none. */
uint32_t dsa_ops_linktype(const struct ofl_dsa_ops *ops);

/**
 * Choose the format for a capture of that link type: a DSA link type names
 * its own (a different --tag/--dsa is a usage error); Ethernet uses the one
 * given (required: without one it is a usage error); other link types are
 * an input error.  With required 0, Ethernet without a format is fine
 * (o->ops stays NULL).  Returns a CLI_EXIT_* code (message printed).
 */
int dsa_opt_resolve(struct dsa_opt *o, const char *cmd, const char *flag, const char *path,
                    uint32_t linktype, int required);

/** Names of OFL_DSA_MF_* bits, "|"-separated ("-" for none). */
void dsa_flags_text(uint32_t flags, char *buf, size_t n);

/**
 * The valid fields of meta as text: "port 2, switch 0, prio 5, cmd 3
 * (forward), vlan 0x0539 (vid 1337 pcp 0), flags trapped".  Returns buf.
 */
const char *dsa_meta_text(const struct ofl_dsa_ops *ops, const struct ofl_dsa_meta *m,
                          char *buf, size_t n);

/** Packets and segments per (switch, port), for gro --dsa. */
#define DSA_PORTS_MAX 64u
struct dsa_ports {
	struct {
		uint8_t has_switch, switch_id, port;
		uint64_t pkts, segs, merged;
	} e[DSA_PORTS_MAX];
	unsigned n;
	uint64_t other_pkts, other_segs; /**< ports past DSA_PORTS_MAX */
	uint64_t no_port;                /**< valid tag without a port */
	uint64_t bad_tag;                /**< delivered without a valid tag */
	uint64_t control;                /**< switch control frames */
	uint64_t dropped;                /**< not written to the output */
};

/** Count one delivered GRO packet. */
void dsa_ports_add(struct dsa_ports *p, const struct ofl_gro_out *out);

/** The per-port table as text (statistics section "dsa"). */
void dsa_ports_print(FILE *fp, const struct dsa_ports *p, const struct dsa_opt *o);

/**
 * GSO through a tag: decode the TX tag of a tagged super-packet once, give
 * the untagged frame as two pieces (bufs[0] may point into *view, which
 * must live as long as bufs) and prepare *d to tag every segment with the
 * same tag.  Returns 0, OFL_EBADMSG (no valid tag), or the error of
 * ofl_gso_dsa_prepare() (the tag cannot be put on segments).
 */
int dsa_gso_untag(const struct dsa_opt *o, const uint8_t *frame, uint32_t len,
                  struct ofl_dsa_view *view, struct ofl_buf bufs[2], struct ofl_gso_dsa *d);

#endif /* OFL_REPLAY_DSA_OPT_H */
