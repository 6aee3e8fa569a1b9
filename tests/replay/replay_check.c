/* replay_check.c - see replay_check.h */
#include "replay_check.h"

#include <check.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h" /* gen_csum_fold() */
#include "harness.h"

#define MAX_REPORTED 25
#define LIN_CAP (OFL_GRO_MAX_SIZE_LIMIT + 4096u)

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static void violation(struct rc_run *r, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	int n;

	r->violations++;
	r->total++;
	if (r->violations > MAX_REPORTED)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	n = snprintf(r->report + r->report_len, r->report_cap - r->report_len, "%s [%s]: %s\n",
	             r->file, r->cfg_name, msg);
	if (n > 0 && (size_t)n < r->report_cap - r->report_len)
		r->report_len += (size_t)n;
}

/* Frame number (1-based) of a cookie, or 0 when it is not one of ours. */
static size_t frame_no(struct rc_run *r, const void *cookie)
{
	const struct replay_frame *f = cookie;

	if (f < r->cap->frames || f >= r->cap->frames + r->cap->nframes)
		return 0;
	return replay_cookie_index(r->cap, cookie) + 1;
}

static uint64_t fnv(const uint8_t *p, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

/* Check that frame i of its flow leaves after the earlier ones. */
static void check_order(struct rc_run *r, size_t i)
{
	const uint8_t *key = r->tcp[i].key;
	size_t s = (size_t)fnv(key, FC_KEY_LEN) & (r->nflow_slots - 1);

	while (r->flows[s].used && memcmp(r->flows[s].key, key, FC_KEY_LEN) != 0)
		s = (s + 1) & (r->nflow_slots - 1);
	if (!r->flows[s].used) {
		r->flows[s].used = 1;
		memcpy(r->flows[s].key, key, FC_KEY_LEN);
	} else if (r->flows[s].last > i) {
		violation(r, "frame %zu left after frame %zu of the same flow (reordered)", i + 1,
		          r->flows[s].last + 1);
	}
	r->flows[s].last = i;
}

static void check_normal(struct rc_run *r, const struct ofl_gro_out *o, size_t fi)
{
	const struct replay_frame *f = &r->cap->frames[fi];
	uint32_t pos = 0;
	struct fc_tcp t;

	if (o->hdr_len != 0 || o->len != f->caplen || o->len > LIN_CAP) {
		violation(r, "NORMAL frame %zu: hdr_len %u, len %u, frame %u bytes", fi + 1, o->hdr_len,
		          o->len, f->caplen);
		return;
	}
	for (uint32_t s = 0; s < o->nslices; s++) {
		const struct ofl_slice *sl = &o->slices[s];
		if (sl->len > f->caplen - pos || memcmp(sl->data, f->data + pos, sl->len) != 0) {
			violation(r, "NORMAL frame %zu: slice %u differs from the input", fi + 1, s);
			return;
		}
		memcpy(r->lin + pos, sl->data, sl->len);
		pos += sl->len;
	}
	if (pos != f->caplen)
		violation(r, "NORMAL frame %zu: slices hold %u of %u bytes", fi + 1, pos, f->caplen);
	/* payload out, from the delivered bytes: TCP payload, or the whole frame */
	r->payload_out += fc_parse_tcp(r->lin, pos, &t) ? t.payload_len : pos;
	/* a frame whose IP header GRO cannot trust names no flow: it may
	 * overtake a held segment (Linux: inet_gro_receive stops there too) */
	if (r->is_tcp[fi] && r->tcp[fi].ip_sane)
		check_order(r, fi);
}

/* The expected IP length field of a merged packet (0 above 65535). */
static int ip_len_ok(const uint8_t *h, const struct fc_tcp *t, uint32_t total_len)
{
	uint32_t want = t->ipv6 ? total_len - t->l3_off - 40 : total_len - t->l3_off;
	uint32_t got = (uint32_t)(h[t->l3_off + (t->ipv6 ? 4 : 2)] << 8 | h[t->l3_off + (t->ipv6 ? 5 : 3)]);

	return got == (want > 0xffffu ? 0 : want);
}

/* A GRO packet with seg_count > 1: header fields, linearized checksums. */
static void check_merged_header(struct rc_run *r, const struct ofl_gro_out *o, size_t f0,
                                uint8_t or_flags)
{
	const struct fc_tcp *t = &r->tcp[f0];
	const uint8_t *in = r->cap->frames[f0].data;
	uint32_t ipl = t->l3_off + (t->ipv6 ? 4 : 2), ipc = t->l3_off + 10;
	uint32_t fl = t->l4_off + 13, tc = t->l4_off + 16;

	if (o->l3_off != t->l3_off || o->l4_off != t->l4_off)
		violation(r, "GRO packet of frame %zu: l3_off/l4_off %u/%u, frame has %u/%u", f0 + 1,
		          o->l3_off, o->l4_off, t->l3_off, t->l4_off);
	for (uint32_t b = 0; b < o->hdr_len; b++) {
		if (b == ipl || b == ipl + 1 || b == tc || b == tc + 1 || b == fl)
			continue;
		if (!t->ipv6 && (b == ipc || b == ipc + 1))
			continue;
		if (o->hdr[b] != in[b]) {
			violation(r, "GRO packet of frames %zu..: header byte %u is 0x%02x, first segment's 0x%02x",
			          f0 + 1, b, o->hdr[b], in[b]);
			break;
		}
	}
	uint8_t want_flags = (uint8_t)((in[fl] & ~(FC_TCP_PSH | FC_TCP_FIN)) | or_flags);
	if (o->hdr[fl] != want_flags)
		violation(r, "GRO packet of frames %zu..: TCP flags 0x%02x, want 0x%02x", f0 + 1, o->hdr[fl],
		          want_flags);
	if (!ip_len_ok(o->hdr, t, o->len))
		violation(r, "GRO packet of frames %zu..: wrong IP length field for %u bytes", f0 + 1, o->len);
	if (!(o->gso_type & (t->ipv6 ? OFL_GSO_TCPV6 : OFL_GSO_TCPV4)))
		violation(r, "GRO packet of frames %zu..: gso_type 0x%x", f0 + 1, o->gso_type);

	/* linearized with full checksums: valid, and the payload we expect */
	int n = ofl_gro_linearize(o, r->lin, LIN_CAP, OFL_CSUM_MODE_FULL);
	if (n != (int)o->len) {
		violation(r, "GRO packet of frames %zu..: linearize gave %d for %u bytes", f0 + 1, n, o->len);
		return;
	}
	struct fc_tcp lt;
	if (!fc_parse_tcp(r->lin, o->len, &lt) || lt.payload_off != o->hdr_len ||
	    lt.ip_end != o->len) {
		violation(r, "GRO packet of frames %zu..: linearized frame does not parse as one TCP packet",
		          f0 + 1);
		return;
	}
	if (t->csum_checkable && !fc_csums_ok(r->lin, &lt))
		violation(r, "GRO packet of frames %zu.. (%u segments): bad checksum when linearized", f0 + 1,
		          o->seg_count);
	if (memcmp(r->lin + o->hdr_len, r->payload, o->len - o->hdr_len) != 0)
		violation(r, "GRO packet of frames %zu..: linearized payload differs from the slices", f0 + 1);
	/* CHECKSUM_PARTIAL: fold from csum_start into csum_start + csum_offset */
	if (o->flags & OFL_GRO_OUT_F_CSUM_PARTIAL) {
		n = ofl_gro_linearize(o, r->lin2, LIN_CAP, OFL_CSUM_MODE_PARTIAL);
		uint32_t at = (uint32_t)o->csum_start + o->csum_offset;
		if (n != (int)o->len || at + 2 > o->len || o->csum_start >= o->len) {
			violation(r, "GRO packet of frames %zu..: partial form: %d bytes, csum_start %u offset %u",
			          f0 + 1, n, o->csum_start, o->csum_offset);
			return;
		}
		uint16_t c = (uint16_t)~gen_csum_fold(r->lin2 + o->csum_start, o->len - o->csum_start, 0);
		r->lin2[at] = (uint8_t)(c >> 8);
		r->lin2[at + 1] = (uint8_t)c;
		if (t->csum_checkable && memcmp(r->lin2, r->lin, o->len) != 0)
			violation(r, "GRO packet of frames %zu..: the partial checksum does not complete to the full one",
			          f0 + 1);
	}
}

static void check_gro(struct rc_run *r, const struct ofl_gro_out *o)
{
	size_t *fi = r->fi;
	uint32_t total = 0, pos = 0;
	uint8_t or_flags = 0;

	if (o->seg_count > r->max_segs)
		r->max_segs = o->seg_count;
	for (unsigned j = 0; j < o->seg_count; j++)
		fi[j] = frame_no(r, o->cookies[j]) - 1;
	size_t f0 = fi[0];
	const struct fc_tcp *t0 = &r->tcp[f0];
	/* every segment: TCP of the first one's flow, checksums valid, in sequence */
	for (unsigned j = 0; j < o->seg_count; j++) {
		const struct fc_tcp *t = &r->tcp[fi[j]];
		const uint8_t *d = r->cap->frames[fi[j]].data;
		if (!r->is_tcp[fi[j]] || !t->ip_sane) {
			violation(r, "frame %zu in a GRO packet is not a whole TCP segment with a sound IP header",
			          fi[j] + 1);
			return;
		}
		if (r->cfg->csum_status != OFL_CSUM_UNNECESSARY && t->csum_checkable && !fc_csums_ok(d, t))
			violation(r, "frame %zu has a bad checksum but went through GRO (segment %u of %u)",
			          fi[j] + 1, j + 1, o->seg_count);
		if (memcmp(t->key, t0->key, FC_KEY_LEN) != 0)
			violation(r, "frame %zu merged with frame %zu of another flow", fi[j] + 1, f0 + 1);
		if (t->seq != t0->seq + total)
			violation(r, "frame %zu merged out of sequence (seq %" PRIu32 ", want %" PRIu32 ")",
			          fi[j] + 1, t->seq, t0->seq + total);
		if (j + 1 < o->seg_count ? t->payload_len != o->seg_size : t->payload_len > o->seg_size)
			violation(r, "frame %zu: payload %u, seg_size %u (segment %u of %u)", fi[j] + 1,
			          t->payload_len, o->seg_size, j + 1, o->seg_count);
		or_flags |= t->flags & (FC_TCP_PSH | FC_TCP_FIN);
		total += t->payload_len;
		check_order(r, fi[j]);
	}
	if (r->violations > MAX_REPORTED)
		return;
	if (o->len < o->hdr_len || o->len - o->hdr_len != total || o->hdr_len != t0->payload_off) {
		violation(r, "GRO packet of frames %zu..%zu: len %u hdr_len %u, segments carry %u payload bytes after %u",
		          f0 + 1, fi[o->seg_count - 1] + 1, o->len, o->hdr_len, total, t0->payload_off);
		return;
	}
	/* the slices, grouped by segment, are each segment's payload */
	for (uint32_t s = 0; s < o->nslices; s++) {
		const struct ofl_slice *sl = &o->slices[s];
		if (sl->len > total - pos) {
			violation(r, "GRO packet of frames %zu..: slices longer than the payload", f0 + 1);
			return;
		}
		memcpy(r->payload + pos, sl->data, sl->len);
		if (sl->pkt >= o->seg_count) {
			violation(r, "GRO packet of frames %zu..: slice %u names segment %u of %u", f0 + 1, s,
			          sl->pkt, o->seg_count);
			return;
		}
		pos += sl->len;
	}
	pos = 0;
	for (unsigned j = 0; j < o->seg_count; j++) {
		const struct fc_tcp *t = &r->tcp[fi[j]];
		const uint8_t *want = r->cap->frames[fi[j]].data + t->payload_off;
		uint32_t seg_off = 0;
		/* slice grouping */
		for (uint32_t s = 0, at = 0; s < o->nslices; at += o->slices[s].len, s++) {
			if (o->slices[s].pkt != j)
				continue;
			if (at != pos + seg_off || memcmp(o->slices[s].data, want + seg_off, o->slices[s].len) != 0) {
				violation(r, "GRO packet of frames %zu..: slice %u (segment %u, frame %zu) is not its payload",
				          f0 + 1, s, j, fi[j] + 1);
				return;
			}
			seg_off += o->slices[s].len;
		}
		if (seg_off != t->payload_len)
			violation(r, "frame %zu: its slices hold %u of %u payload bytes", fi[j] + 1, seg_off,
			          t->payload_len);
		/* cut back at seg_size */
		uint32_t cut = (uint32_t)j * o->seg_size;
		uint32_t clen = total - cut < o->seg_size ? total - cut : o->seg_size;
		if (cut > total || clen != t->payload_len || memcmp(r->payload + cut, want, clen) != 0)
			violation(r, "GRO packet of frames %zu..: piece %u cut at seg_size %u is not frame %zu's payload",
			          f0 + 1, j, o->seg_size, fi[j] + 1);
		pos += t->payload_len;
	}
	r->payload_out += total;
	if (o->first_ns != r->rx_ns[f0])
		violation(r, "GRO packet of frames %zu..: first_ns %" PRIu64 ", received at %" PRIu64, f0 + 1,
		          o->first_ns, r->rx_ns[f0]);
	if (!(o->flags & OFL_GRO_OUT_F_CSUM_VERIFIED))
		violation(r, "GRO packet of frames %zu..: flags 0x%x lack CSUM_VERIFIED", f0 + 1, o->flags);
	if (o->seg_count == 1) {
		/* held alone: the frame as it came, less Ethernet padding */
		const uint8_t *in = r->cap->frames[f0].data;
		if (o->len != t0->ip_end || memcmp(o->hdr, in, o->hdr_len) != 0)
			violation(r, "GRO packet of frame %zu alone: %u bytes or header differ from the frame (%u without padding)",
			          f0 + 1, o->len, t0->ip_end);
		int n = ofl_gro_linearize(o, r->lin, LIN_CAP, OFL_CSUM_MODE_FULL);
		if (n != (int)t0->ip_end || memcmp(r->lin, in, t0->ip_end) != 0)
			violation(r, "GRO packet of frame %zu alone: linearized bytes differ from the frame", f0 + 1);
	} else {
		check_merged_header(r, o, f0, or_flags);
	}
}

static void on_out(void *user, const struct ofl_gro_out *o, uint64_t now_ns)
{
	struct rc_run *r = user;
	unsigned ncookies = o->seg_count ? o->seg_count : 1;

	(void)now_ns;
	for (unsigned j = 0; j < ncookies; j++) {
		size_t no = frame_no(r, o->cookies[j]);
		if (!no) {
			violation(r, "a delivered cookie %p is no frame of the capture", o->cookies[j]);
			return;
		}
		if (++r->seen[no - 1] == 2)
			violation(r, "frame %zu delivered twice", no);
	}
	if (o->seg_count == 0)
		check_normal(r, o, frame_no(r, o->cookies[0]) - 1);
	else
		check_gro(r, o);
}

/*
 * The timer contract after every ofl_gro_poll_end(): with no timeout or no
 * work done everything received is out and no deadline is set; otherwise
 * nothing older than the timeout is still held, and the deadline comes no
 * later than the oldest held segment's expiry (and is 0 when nothing is held).
 */
static void on_poll(void *user, unsigned work_done, uint64_t now, uint64_t deadline,
                    size_t received)
{
	struct rc_run *r = user;
	uint64_t t = r->cfg->timeout_ns, oldest = UINT64_MAX;
	size_t held = 0, oldest_i = 0;

	for (size_t i = r->next_undelivered; i < received; i++) {
		if (r->seen[i])
			continue;
		if (!held++) {
			oldest = r->rx_ns[i];
			oldest_i = i;
			r->next_undelivered = i;
		}
	}
	if (!held)
		r->next_undelivered = received;
	if ((t == 0 || work_done == 0) && (held || deadline)) {
		violation(r, "poll_end(%u, %" PRIu64 "): %zu frames still held (frame %zu first), deadline %" PRIu64,
		          work_done, now, held, oldest_i + 1, deadline);
		return;
	}
	if (held && oldest + t < now)
		violation(r, "poll_end(%u, %" PRIu64 "): frame %zu, received at %" PRIu64
		             ", still held past the %" PRIu64 " ns timeout",
		          work_done, now, oldest_i + 1, oldest, t);
	if (held && (deadline == 0 || deadline > oldest + t))
		violation(r, "poll_end(%u, %" PRIu64 "): deadline %" PRIu64 ", but frame %zu (received at %" PRIu64
		             ") expires at %" PRIu64,
		          work_done, now, deadline, oldest_i + 1, oldest, oldest + t);
	if (!held && deadline)
		violation(r, "poll_end(%u, %" PRIu64 "): deadline %" PRIu64 " with nothing held", work_done, now,
		          deadline);
}

static void check_stats(struct rc_run *r, const struct replay_gro_result *res)
{
	const struct ofl_gro_stats *st = &res->stats;
	uint64_t n = r->cap->nframes, normal_why = 0;

	for (unsigned i = 0; i < OFL_GRO_NORMAL__COUNT; i++)
		normal_why += st->normal_why[i];
	if (st->rx_pkts != n || st->merged + st->held + st->normal != n || st->out_segs != n)
		violation(r, "stats: rx_pkts %" PRIu64 ", merged+held+normal %" PRIu64 ", out_segs %" PRIu64
		             " for %" PRIu64 " frames",
		          st->rx_pkts, st->merged + st->held + st->normal, st->out_segs, n);
	if (st->out_pkts != res->out_pkts || st->out_gro_pkts != res->gro_pkts)
		violation(r, "stats: out_pkts %" PRIu64 "/out_gro_pkts %" PRIu64 ", delivered %" PRIu64 "/%" PRIu64,
		          st->out_pkts, st->out_gro_pkts, res->out_pkts, res->gro_pkts);
	if (normal_why != st->normal || st->held != res->gro_pkts)
		violation(r, "stats: normal %" PRIu64 " but reasons add to %" PRIu64 "; held %" PRIu64
		             " but %" PRIu64 " GRO packets",
		          st->normal, normal_why, st->held, res->gro_pkts);
	unsigned batch = r->cfg->batch ? r->cfg->batch : 8;
	if (res->max_list > batch + 1)
		violation(r, "a deliver call with %u packets (normal_batch %u)", res->max_list, batch);
	if (st->flows_held || st->bytes_held || st->api_errors)
		violation(r, "stats: flows_held %u, bytes_held %u, api_errors %" PRIu64 " at the end",
		          st->flows_held, st->bytes_held, st->api_errors);
}

void rc_config_name(const struct rc_config *c, char *buf, size_t cap)
{
	static const char *const csum[] = { "none", "unnecessary", "complete" };
	int n = snprintf(buf, cap, "burst %u, timeout %" PRIu64 " ns, rx csum %s", c->burst,
	                 c->timeout_ns, csum[c->csum_status]);

	if (c->split && n > 0 && (size_t)n < cap)
		n += snprintf(buf + n, cap - (size_t)n, ", split %" PRIu32, c->split);
	if (c->flows && n > 0 && (size_t)n < cap)
		n += snprintf(buf + n, cap - (size_t)n, ", flows %" PRIu32 ", batch %u", c->flows, c->batch);
	if (c->max_size && n > 0 && (size_t)n < cap)
		snprintf(buf + n, cap - (size_t)n, ", max size %" PRIu32, c->max_size);
}

/* Two runs must have taken the same decisions (merged/held/normal, reasons). */
void rc_check_same(struct rc_run *r, const struct replay_gro_result *a,
                       const struct replay_gro_result *b, const struct rc_config *bc)
{
	char bname[128];
	const struct ofl_gro_stats *x = &a->stats, *y = &b->stats;

	rc_config_name(bc, bname, sizeof bname);
	if (x->merged != y->merged || x->held != y->held || x->normal != y->normal ||
	    a->out_pkts != b->out_pkts)
		violation(r, "decided otherwise than [%s]: merged/held/normal/out %" PRIu64 "/%" PRIu64
		             "/%" PRIu64 "/%" PRIu64 " there, %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64 " here",
		          bname, y->merged, y->held, y->normal, b->out_pkts, x->merged, x->held, x->normal,
		          a->out_pkts);
	for (unsigned i = 0; i < OFL_GRO_FLUSH__COUNT; i++)
		if (x->flush[i] != y->flush[i])
			violation(r, "flush reason %s: %" PRIu64 " here, %" PRIu64 " with [%s]",
			          ofl_gro_flush_reason_name(i), x->flush[i], y->flush[i], bname);
	for (unsigned i = 0; i < OFL_GRO_NORMAL__COUNT; i++)
		if (x->normal_why[i] != y->normal_why[i])
			violation(r, "normal reason %s: %" PRIu64 " here, %" PRIu64 " with [%s]",
			          ofl_gro_normal_reason_name(i), x->normal_why[i], y->normal_why[i], bname);
}

void rc_run_config(struct rc_run *r, const struct rc_config *cfg, struct replay_gro_result *res)
{
	struct replay_gro_opts o;
	char err[REPLAY_ERRLEN];
	size_t n = r->cap->nframes;

	r->cfg = cfg;
	rc_config_name(cfg, r->cfg_name, sizeof r->cfg_name);
	r->violations = 0;
	r->payload_in = r->payload_out = r->max_segs = 0;
	memset(r->seen, 0, n * sizeof r->seen[0]);
	r->next_undelivered = 0;
	memset(r->flows, 0, r->nflow_slots * sizeof r->flows[0]);
	replay_gro_opts_default(&o);
	o.burst = cfg->burst;
	o.flush_timeout_ns = cfg->timeout_ns;
	o.csum_status = cfg->csum_status;
	o.split = cfg->split;
	o.flows = cfg->flows;
	o.max_size = cfg->max_size;
	o.batch = cfg->batch;
	/* this checker reads plain TCP segments: the IP-in-IP and GRE merges
	 * (on by default, as in Linux) are checked by gro_tunnel_corpus_test */
	o.ipip = 0;
	o.gre = 0;
	struct replay_gro_hooks hooks = { .out = on_out, .poll = on_poll, .user = r };
	if (replay_gro(r->cap, &o, &hooks, res, err, sizeof err) < 0)
		violation(r, "replay failed: %s", err);
	for (size_t i = 0; i < n; i++) {
		if (r->seen[i] == 0)
			violation(r, "frame %zu never delivered", i + 1);
		r->payload_in += r->is_tcp[i] ? r->tcp[i].payload_len : r->cap->frames[i].caplen;
	}
	if (r->payload_in != r->payload_out)
		violation(r, "payload bytes: %" PRIu64 " in, %" PRIu64 " out", r->payload_in, r->payload_out);
	check_stats(r, res);
}

struct rc_run *rc_new(const struct replay_capture *cap, const char *file)
{
	size_t n = cap->nframes;
	struct rc_run *r = calloc(1, sizeof *r);

	ck_assert_ptr_nonnull(r);
	r->cap = cap;
	r->file = file;
	r->seen = calloc(n + 1, sizeof *r->seen);
	r->tcp = calloc(n + 1, sizeof *r->tcp);
	r->is_tcp = calloc(n + 1, 1);
	r->rx_ns = calloc(n + 1, sizeof *r->rx_ns);
	for (r->nflow_slots = 16; r->nflow_slots < 2 * n; r->nflow_slots *= 2)
		;
	r->flows = calloc(r->nflow_slots, sizeof *r->flows);
	r->lin = malloc(LIN_CAP);
	r->lin2 = malloc(LIN_CAP);
	r->payload = malloc(LIN_CAP);
	r->fi = malloc(65536 * sizeof *r->fi);
	r->report_cap = 64 * 1024;
	r->report = calloc(1, r->report_cap);
	ck_assert(r->seen && r->tcp && r->is_tcp && r->rx_ns && r->flows && r->lin && r->lin2 &&
	          r->payload && r->fi && r->report);
	rc_reparse(r);
	return r;
}

void rc_reparse(struct rc_run *r)
{
	const struct replay_frame *f = r->cap->frames;

	for (size_t i = 0; i < r->cap->nframes; i++) {
		r->is_tcp[i] = (uint8_t)fc_parse_tcp(f[i].data, f[i].caplen, &r->tcp[i]);
		/* the clock of the replay never goes back */
		r->rx_ns[i] = i && r->rx_ns[i - 1] > f[i].ts_ns ? r->rx_ns[i - 1] : f[i].ts_ns;
	}
}

void rc_assert_clean(struct rc_run *r)
{
	if (r->total) {
		/* all of them on stderr; Check's own message must stay short */
		fprintf(stderr, "%s", r->report);
		if (r->report_len > 1500)
			memcpy(r->report + 1500, "...", 4);
	}
	ck_assert_msg(r->total == 0, "%s: %" PRIu64 " conservation violations, first:\n%s", r->file,
	              r->total, r->report);
}

void rc_free(struct rc_run *r)
{
	if (!r)
		return;
	free(r->seen);
	free(r->tcp);
	free(r->is_tcp);
	free(r->rx_ns);
	free(r->flows);
	free(r->lin);
	free(r->lin2);
	free(r->payload);
	free(r->fi);
	free(r->report);
	free(r);
}

/* Read the capture list from MANIFEST.tsv (first column, header row skipped). */
static int load_manifest(struct rc_corpus *c)
{
	char path[8192], line[8192];
	const char *env = getenv("OFL_CORPORA");
	FILE *fp;

	snprintf(c->dir, sizeof c->dir, "%s", env && *env ? env : "../shared/corpora");
	snprintf(path, sizeof path, "%s/MANIFEST.tsv", c->dir);
	fp = fopen(path, "r");
	if (!fp) {
		fprintf(stderr, "cannot open %s (set OFL_CORPORA)\n", path);
		return -1;
	}
	while (fgets(line, sizeof line, fp) && c->nfiles < RC_MAX_FILES) {
		char *tab = strchr(line, '\t');
		if (!tab || strncmp(line, "path\t", 5) == 0)
			continue;
		*tab = '\0';
		c->files[c->nfiles] = malloc(strlen(line) + 1);
		if (!c->files[c->nfiles])
			break;
		strcpy(c->files[c->nfiles++], line);
	}
	fclose(fp);
	return c->nfiles ? 0 : -1;
}

int rc_load_ethernet(const struct rc_corpus *corpus, unsigned i, struct replay_capture *cap)
{
	char path[8192], err[REPLAY_ERRLEN];

	snprintf(path, sizeof path, "%s/%s", corpus->dir, corpus->files[i]);
	ck_assert_msg(replay_capture_read_lax(cap, path, err, sizeof err) == 0, "%s",
	              err);
	if (cap->linktype == REPLAY_LINKTYPE_ETHERNET && cap->nframes > 0)
		return 1;
	replay_capture_free(cap);
	return 0;
}

int rc_corpus_main(struct rc_corpus *corpus, const char *suite, const TTest *test)
{
	if (load_manifest(corpus) < 0)
		return EXIT_FAILURE;
	Suite *s = suite_create(suite);
	TCase *tc = tcase_create("corpus");
	tcase_add_loop_test(tc, test, 0, (int)corpus->nfiles);
	suite_add_tcase(s, tc);
	int rc = h_run_suite(s);
	for (unsigned i = 0; i < corpus->nfiles; i++)
		free(corpus->files[i]);
	return rc;
}
