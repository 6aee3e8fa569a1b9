/*
 * dsa_opt.c - see dsa_opt.h.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "dsa_opt.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "cli.h"

void dsa_opt_init(struct dsa_opt *o)
{
	memset(o, 0, sizeof *o);
	ofl_dsa_params_default(&o->params);
}

/* A number in decimal or, with 0x, hexadecimal, in [0, max] (max at most
 * UINT16_MAX). */
static int parse_num(const char *cmd, const char *flag, const char *s, unsigned long max, uint16_t *out)
{
	char *end;
	unsigned long v;

	if (s[0] < '0' || s[0] > '9')
		goto bad;
	v = strtoul(s, &end, 0);
	if (*end != '\0' || v > max)
		goto bad;
	*out = (uint16_t)v;
	return 0;
bad:
	fprintf(stderr, "%s %s: %s wants a number from 0 to %lu (0x for hexadecimal), not '%s'\n",
	        CLI_PROG, cmd, flag, max, s);
	return -1;
}

/* parse_num() of a number from 0 to 255. */
static int parse_u8(const char *cmd, const char *flag, const char *s, uint8_t *out)
{
	uint16_t v;

	if (parse_num(cmd, flag, s, UINT8_MAX, &v) < 0)
		return -1;
	*out = (uint8_t)v;
	return 0;
}

int dsa_opt_parse(struct dsa_opt *o, const char *cmd, const char *flag, int id,
                  const char *arg)
{
	switch (id) {
	case DSA_OPT_TAG:
		o->name = arg;
		o->ops = ofl_dsa_find(arg);
		if (!o->ops) {
			fprintf(stderr, "%s %s: %s: unknown tag format '%s'; one of:", CLI_PROG, cmd, flag,
			        arg);
			for (size_t i = 0; i < ofl_dsa_count(); i++)
				fprintf(stderr, "%s %s", i ? "," : "", ofl_dsa_at(i)->name);
			fputc('\n', stderr);
			return -1;
		}
		return 0;
	case DSA_OPT_KEEP_TAG:
		o->keep_tag = 1;
		return 0;
	case DSA_OPT_CPU_PORT:
		return parse_u8(cmd, "--cpu-port", arg, &o->params.cpu_port);
	case DSA_OPT_NUM_PORTS:
		return parse_u8(cmd, "--num-ports", arg, &o->params.num_ports);
	case DSA_OPT_TPID:
		return parse_num(cmd, "--tpid", arg, UINT16_MAX, &o->params.tpid);
	case DSA_OPT_LEGACY_VLAN:
		o->params.flags |= OFL_DSA_P_BRCM_LEGACY_VLAN;
		return 0;
	case DSA_OPT_KSZ_PTP:
		o->params.flags |= OFL_DSA_P_KSZ_PTP;
		return 0;
	default:
		return 1;
	}
}

void dsa_opt_usage_params(FILE *fp)
{
	fprintf(fp,
	        "  switch parameters (struct ofl_dsa_params; numbers may be 0x hexadecimal):\n"
	        "  --cpu-port C            mxl862xx: the CPU port the conduit is on (default 0)\n"
	        "  --num-ports N           ocelot/seville TX: the switch's port count (default 0:\n"
	        "                          the kernel's 6 or 10)\n"
	        "  --tpid T                tag_8021q formats: the TPID (default 0: the kernel's)\n"
	        "  --brcm-legacy-vlan      brcm-legacy RX: drop the VLAN tag after it, any TCI (<6.18)\n"
	        "  --ksz-ptp               ksz9477/ksz9893/lan937x TX: a PTP timestamp field\n");
}

static const struct {
	uint32_t linktype;
	const char *name;
} linktypes[] = {
	{ DSA_LINKTYPE_BRCM, "brcm" },
	{ DSA_LINKTYPE_BRCM_PREPEND, "brcm-prepend" },
	{ DSA_LINKTYPE_DSA, "dsa" },
	{ DSA_LINKTYPE_EDSA, "edsa" },
};

#define NLINKTYPES (sizeof linktypes / sizeof linktypes[0])

const struct ofl_dsa_ops *dsa_linktype_ops(uint32_t linktype)
{
	for (size_t i = 0; i < NLINKTYPES; i++)
		if (linktypes[i].linktype == linktype)
			return ofl_dsa_find(linktypes[i].name);
	return NULL;
}

uint32_t dsa_ops_linktype(const struct ofl_dsa_ops *ops)
{
	for (size_t i = 0; ops && i < NLINKTYPES; i++)
		if (strcmp(linktypes[i].name, ops->name) == 0)
			return linktypes[i].linktype;
	return 0;
}

int dsa_opt_resolve(struct dsa_opt *o, const char *cmd, const char *flag, const char *path,
                    uint32_t linktype, int required)
{
	const struct ofl_dsa_ops *lt = dsa_linktype_ops(linktype);

	if (lt) {
		if (o->ops && o->ops != lt) {
			fprintf(stderr, "%s %s: %s has link type %" PRIu32 ", whose frames carry %s tags, not %s\n",
			        CLI_PROG, cmd, path, linktype, lt->name, o->ops->name);
			return CLI_EXIT_USAGE;
		}
		o->ops = lt;
		o->by_linktype = 1;
		return CLI_EXIT_OK;
	}
	if (linktype != REPLAY_LINKTYPE_ETHERNET) {
		/* raw IP, Linux cooked (v1, v2), BSD loopback and every other
		 * link type: refused in one line naming it (libpcap's name) */
		char lname[128];
		fprintf(stderr, "%s %s: %s: link type %s is not supported (only Ethernet, 1, and the "
		                "DSA link types 281, 282, 284, 285)\n", CLI_PROG, cmd, path,
		        replay_linktype_describe(linktype, lname, sizeof lname));
		return CLI_EXIT_FAIL;
	}
	if (!o->ops && required) {
		fprintf(stderr, "%s %s: %s is an Ethernet capture: say which tag its frames carry with %s NAME\n",
		        CLI_PROG, cmd, path, flag);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

/* ---- text -------------------------------------------------------------- */

static const char *const flag_names[] = {
	"trapped", "tagged", "trunk", "override", "lookup",
	"learn_dis", "control", "link_local", "host_only", "vlan_s",
};

void dsa_flags_text(uint32_t flags, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < 32; i++) {
		if (!(flags & (1u << i)))
			continue;
		char name[16];
		const char *s = name;
		if (i < sizeof flag_names / sizeof flag_names[0])
			s = flag_names[i];
		else
			snprintf(name, sizeof name, "0x%x", 1u << i);
		int w = snprintf(buf + len, n - len, "%s%s", len ? "|" : "", s);
		if (w < 0 || (size_t)w >= n - len)
			break;
		len += (size_t)w;
	}
	if (!len)
		snprintf(buf, n, "-");
}

static int is_marvell(const struct ofl_dsa_ops *ops)
{
	return ops && (strcmp(ops->name, "dsa") == 0 || strcmp(ops->name, "edsa") == 0);
}

static int is_brcm4(const struct ofl_dsa_ops *ops)
{
	return ops && (strcmp(ops->name, "brcm") == 0 || strcmp(ops->name, "brcm-prepend") == 0);
}

static const char *cmd_name(const struct ofl_dsa_ops *ops, unsigned cmd)
{
	static const char *const mv[] = { "to_cpu", "from_cpu", "to_sniffer", "forward" };
	static const char *const brcm[] = { "egress", "ingress" };

	if (is_marvell(ops) && cmd < 4)
		return mv[cmd];
	if (is_brcm4(ops) && cmd < 2)
		return brcm[cmd];
	return NULL;
}

/* Marvell TO_CPU codes; Broadcom reason bits (tcpdump's words). */
static void code_name(const struct ofl_dsa_ops *ops, unsigned code, char *buf, size_t n)
{
	static const char *const mv[] = { "mgmt_trap", "frame2reg", "igmp_mld_trap", "policy_trap",
	                                  "arp_mirror", "policy_mirror" };
	static const char *const brcm[] = { "mirror", "mac_learning", "switching",
	                                    "prot_term", "prot_snoop", "exception" };

	buf[0] = '\0';
	if (is_marvell(ops) && code < 6) {
		snprintf(buf, n, "%s", mv[code]);
	} else if (is_brcm4(ops)) {
		size_t len = 0;
		for (unsigned i = 0; i < 6; i++)
			if (code & (1u << i)) {
				int w = snprintf(buf + len, n - len, "%s%s", len ? "|" : "", brcm[i]);
				if (w < 0 || (size_t)w >= n - len)
					break;
				len += (size_t)w;
			}
	}
}

struct textbuf {
	char *buf;
	size_t n, len;
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void add(struct textbuf *t, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (t->len + 1 >= t->n)
		return;
	if (t->len) {
		w = snprintf(t->buf + t->len, t->n - t->len, ", ");
		t->len += w > 0 && (size_t)w < t->n - t->len ? (size_t)w : 0;
	}
	va_start(ap, fmt);
	w = vsnprintf(t->buf + t->len, t->n - t->len, fmt, ap);
	va_end(ap);
	if (w > 0)
		t->len += (size_t)w < t->n - t->len ? (size_t)w : t->n - t->len - 1;
}

const char *dsa_meta_text(const struct ofl_dsa_ops *ops, const struct ofl_dsa_meta *m,
                          char *buf, size_t n)
{
	struct textbuf t = { buf, n, 0 };
	char name[96];

	buf[0] = '\0';
	if (m->valid & OFL_DSA_M_PORT)
		add(&t, "port %u", m->port);
	if (m->valid & OFL_DSA_M_PORT_MASK)
		add(&t, "port mask 0x%" PRIx32, m->port_mask);
	if (m->valid & OFL_DSA_M_SWITCH)
		add(&t, "switch %u", m->switch_id);
	if (m->valid & OFL_DSA_M_PRIO)
		add(&t, "prio %u", m->prio);
	if (m->valid & OFL_DSA_M_CMD) {
		const char *c = cmd_name(ops, m->cmd);
		if (c)
			add(&t, "cmd %u (%s)", m->cmd, c);
		else
			add(&t, "cmd %u", m->cmd);
	}
	if (m->valid & OFL_DSA_M_CODE) {
		code_name(ops, m->code, name, sizeof name);
		if (name[0])
			add(&t, "code 0x%x (%s)", m->code, name);
		else
			add(&t, "code 0x%x", m->code);
	}
	if (m->valid & OFL_DSA_M_AUX)
		add(&t, "aux 0x%x", m->aux);
	if (m->valid & OFL_DSA_M_VLAN)
		add(&t, "vlan 0x%04x (vid %u pcp %u)", m->vlan_tci, m->vlan_tci & 0xfffu,
		    (unsigned)m->vlan_tci >> 13);
	if (m->valid & OFL_DSA_M_VBID)
		add(&t, "vbid %u", m->vbid);
	if (m->valid & OFL_DSA_M_TSTAMP)
		add(&t, "tstamp 0x%" PRIx64, m->tstamp);
	if (m->flags) {
		dsa_flags_text(m->flags, name, sizeof name);
		add(&t, "flags %s", name);
	}
	if (!t.len)
		add(&t, "no fields");
	return buf;
}

/* ---- per-port counts ---------------------------------------------------- */

void dsa_ports_add(struct dsa_ports *p, const struct ofl_gro_out *out)
{
	const struct ofl_dsa_meta *m = out->dsa;
	unsigned segs = out->seg_count ? out->seg_count : 1;
	uint8_t has_sw, sw;
	unsigned i;

	if (!m) {
		p->bad_tag++;
		return;
	}
	if (m->flags & OFL_DSA_MF_CONTROL) {
		p->control++;
		return;
	}
	if (!(m->valid & OFL_DSA_M_PORT)) {
		p->no_port++;
		return;
	}
	has_sw = (m->valid & OFL_DSA_M_SWITCH) ? 1 : 0;
	sw = has_sw ? m->switch_id : 0;
	for (i = 0; i < p->n; i++)
		if (p->e[i].has_switch == has_sw && p->e[i].switch_id == sw && p->e[i].port == m->port)
			break;
	if (i == p->n) {
		if (p->n == DSA_PORTS_MAX) {
			p->other_pkts++;
			p->other_segs += segs;
			return;
		}
		p->n++;
		p->e[i].has_switch = has_sw;
		p->e[i].switch_id = sw;
		p->e[i].port = m->port;
	}
	p->e[i].pkts++;
	p->e[i].segs += segs;
	if (out->seg_count > 1)
		p->e[i].merged++;
}

void dsa_ports_print(FILE *fp, const struct dsa_ports *p, const struct dsa_opt *o)
{
	char label[64];

	fprintf(fp, "dsa (%s tag%s, %s delivery)\n", o->ops->name,
	        o->by_linktype ? " from the link type" : "", o->keep_tag ? "tagged" : "untagged");
	fprintf(fp, "  %-28s %12s %12s %12s\n", "port", "packets", "segments", "merged");
	for (unsigned i = 0; i < p->n; i++) {
		if (p->e[i].has_switch)
			snprintf(label, sizeof label, "switch %u port %u", p->e[i].switch_id, p->e[i].port);
		else
			snprintf(label, sizeof label, "port %u", p->e[i].port);
		fprintf(fp, "  %-28s %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n", label, p->e[i].pkts,
		        p->e[i].segs, p->e[i].merged);
	}
	if (p->other_pkts)
		fprintf(fp, "  %-28s %12" PRIu64 " %12" PRIu64 "\n", "more ports", p->other_pkts,
		        p->other_segs);
	fprintf(fp, "  %-28s %12" PRIu64 "\n", "tag without a port", p->no_port);
	fprintf(fp, "  %-28s %12" PRIu64 "\n", "switch control frames", p->control);
	fprintf(fp, "  %-28s %12" PRIu64 "\n", "no valid tag", p->bad_tag);
	if (p->dropped)
		fprintf(fp, "  %-28s %12" PRIu64 "\n", "  not written (untagged OUT)", p->dropped);
}

/* ---- GSO through a tag --------------------------------------------------- */

int dsa_gso_untag(const struct dsa_opt *o, const uint8_t *frame, uint32_t len,
                  struct ofl_dsa_view *view, struct ofl_buf bufs[2], struct ofl_gso_dsa *d)
{
	struct ofl_dsa_meta m;
	int rc = ofl_dsa_decode(o->ops, &o->params, OFL_DSA_TX, frame, len, &m, view);

	if (rc == 0 && (m.valid & OFL_DSA_M_PORT_MASK) && (m.valid & OFL_DSA_M_PORT))
		m.valid &= ~(uint32_t)OFL_DSA_M_PORT_MASK; /* one port: say it as a port */
	if (rc == 0)
		rc = ofl_dsa_untagged(frame, len, view, bufs) == 2 ? 0 : OFL_EBADMSG;
	if (rc == 0)
		rc = ofl_gso_dsa_prepare(d, o->ops, &o->params, &m);
	return rc;
}
