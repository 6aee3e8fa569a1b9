/*
 * gro_report.c - see gro_report.h.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "gro_report.h"

#include <inttypes.h>

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static const char *format_name(enum replay_format f)
{
	return f == REPLAY_FMT_PCAPNG ? "pcapng" : "pcap";
}

/* ---- text ---------------------------------------------------------------- */

#define LABEL "  %-28s"

static void line(FILE *fp, const char *label, uint64_t v)
{
	fprintf(fp, LABEL " %12" PRIu64 "\n", label, v);
}

void gro_report_text(FILE *fp, const struct gro_report *r)
{
	const struct replay_gro_result *res = r->res;
	const struct ofl_gro_stats *st = &res->stats;
	const struct replay_gro_opts *o = r->opts;

	fprintf(fp, "offload-replay gro: %s -> %s\n", r->in_path, r->out_path ? r->out_path : "(none)");
	fprintf(fp, "  burst %u, flush timeout %" PRIu64 " ns, batch %u, max size %" PRIu32
	            ", flows %" PRIu32 ",\n  rx checksum %s, split %" PRIu32 ", output checksums %s\n",
	        o->burst, o->flush_timeout_ns, o->batch, o->max_size, o->flows, r->rx_csum, o->split,
	        r->csum);
	if (o->budget_flush)
		fprintf(fp, "  kernel NAPI polling: first poll of %u, full polls flush, clock frozen\n",
		        o->first_burst);
	if (o->fraglist)
		fprintf(fp, "  fraglist mode (rx-gro-list): TCP and UDP chained as received\n");
	fprintf(fp, "input (%s%s)\n", format_name(r->cap->format), r->cap->nano ? ", ns" : "");
	line(fp, "frames in", r->cap->nframes);
	line(fp, "cut by the snaplen", r->cap->truncated);
	line(fp, "bytes in", st->rx_bytes);
	fprintf(fp, "engine\n");
	line(fp, "merged", st->merged);
	line(fp, "  by header prediction", st->merged_fast);
	line(fp, "held", st->held);
	line(fp, "normal", st->normal);
	line(fp, "polls", res->polls);
	line(fp, "flush timer fires", res->timer_fires);
	line(fp, "deliver calls", st->out_lists);
	line(fp, "software checksums", st->csum_sw);
	line(fp, "padding trimmed", st->padding_trimmed);
	if (st->api_errors)
		line(fp, "API errors", st->api_errors);
	fprintf(fp, "output\n");
	line(fp, "packets out", res->out_pkts);
	line(fp, "GRO packets (segs >= 1)", res->gro_pkts);
	line(fp, "merged packets (segs > 1)", res->merged_pkts);
	line(fp, "normal packets", res->out_pkts - res->gro_pkts);
	line(fp, "bytes out", res->out_bytes);
	fprintf(fp, LABEL " %12.2f\n", "segments per GRO packet", ratio(res->gro_segs, res->gro_pkts));
	fprintf(fp, LABEL " %12.2f\n", "segments per merged packet",
	        ratio(res->merged_segs, res->merged_pkts));
	fprintf(fp, "flush reasons\n");
	for (unsigned i = 0; i < OFL_GRO_FLUSH__COUNT; i++)
		if (st->flush[i])
			line(fp, ofl_gro_flush_reason_name(i), st->flush[i]);
	fprintf(fp, "normal reasons\n");
	for (unsigned i = 0; i < OFL_GRO_NORMAL__COUNT; i++)
		if (st->normal_why[i])
			line(fp, ofl_gro_normal_reason_name(i), st->normal_why[i]);
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_str(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c < 0x20)
			fprintf(fp, "\\u%04x", c);
		else
			fputc(c, fp);
	}
	fputc('"', fp);
}

static void json_u64(FILE *fp, const char *name, uint64_t v, int last)
{
	fprintf(fp, "\"%s\": %" PRIu64 "%s", name, v, last ? "" : ", ");
}

void gro_report_json(FILE *fp, const struct gro_report *r)
{
	const struct replay_gro_result *res = r->res;
	const struct ofl_gro_stats *st = &res->stats;
	const struct replay_gro_opts *o = r->opts;

	fputs("{\"input\": ", fp);
	json_str(fp, r->in_path);
	fputs(", \"output\": ", fp);
	if (r->out_path)
		json_str(fp, r->out_path);
	else
		fputs("null", fp);
	fprintf(fp, ", \"format\": \"%s\", ", format_name(r->cap->format));
	fputs("\"options\": {", fp);
	json_u64(fp, "burst", o->burst, 0);
	json_u64(fp, "flush_timeout_ns", o->flush_timeout_ns, 0);
	json_u64(fp, "batch", o->batch, 0);
	json_u64(fp, "max_size", o->max_size, 0);
	json_u64(fp, "flows", o->flows, 0);
	json_u64(fp, "split", o->split, 0);
	json_u64(fp, "kernel_napi", (uint64_t)o->budget_flush, 0);
	json_u64(fp, "fraglist", o->fraglist, 0);
	fprintf(fp, "\"rx_csum\": \"%s\", \"csum\": \"%s\"}, ", r->rx_csum, r->csum);
	fputs("\"replay\": {", fp);
	json_u64(fp, "frames_in", r->cap->nframes, 0);
	json_u64(fp, "frames_truncated", r->cap->truncated, 0);
	json_u64(fp, "polls", res->polls, 0);
	json_u64(fp, "timer_fires", res->timer_fires, 0);
	json_u64(fp, "packets_out", res->out_pkts, 0);
	json_u64(fp, "bytes_out", res->out_bytes, 0);
	json_u64(fp, "gro_packets", res->gro_pkts, 0);
	json_u64(fp, "gro_segments", res->gro_segs, 0);
	json_u64(fp, "merged_packets", res->merged_pkts, 0);
	json_u64(fp, "merged_segments", res->merged_segs, 0);
	fprintf(fp, "\"segs_per_gro_packet\": %.4f}, ", ratio(res->gro_segs, res->gro_pkts));
	json_u64(fp, "rx_pkts", st->rx_pkts, 0);
	json_u64(fp, "rx_bytes", st->rx_bytes, 0);
	json_u64(fp, "merged", st->merged, 0);
	json_u64(fp, "merged_fast", st->merged_fast, 0);
	json_u64(fp, "held", st->held, 0);
	json_u64(fp, "normal", st->normal, 0);
	json_u64(fp, "out_pkts", st->out_pkts, 0);
	json_u64(fp, "out_gro_pkts", st->out_gro_pkts, 0);
	json_u64(fp, "out_segs", st->out_segs, 0);
	json_u64(fp, "out_lists", st->out_lists, 0);
	json_u64(fp, "padding_trimmed", st->padding_trimmed, 0);
	json_u64(fp, "csum_sw", st->csum_sw, 0);
	json_u64(fp, "api_errors", st->api_errors, 0);
	fputs("\"flush\": {", fp);
	for (unsigned i = 0; i < OFL_GRO_FLUSH__COUNT; i++)
		json_u64(fp, ofl_gro_flush_reason_name(i), st->flush[i], i + 1 == OFL_GRO_FLUSH__COUNT);
	fputs("}, \"normal_why\": {", fp);
	for (unsigned i = 0; i < OFL_GRO_NORMAL__COUNT; i++)
		json_u64(fp, ofl_gro_normal_reason_name(i), st->normal_why[i], i + 1 == OFL_GRO_NORMAL__COUNT);
	fputs("}, ", fp);
	json_u64(fp, "lookup_probes", st->lookup_probes, 0);
	json_u64(fp, "lookups", st->lookups, 0);
	json_u64(fp, "flows_held", st->flows_held, 0);
	json_u64(fp, "bytes_held", st->bytes_held, 1);
	fputs("}\n", fp);
}
