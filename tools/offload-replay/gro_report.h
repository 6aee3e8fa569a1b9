/*
 * gro_report.h - what `offload-replay gro` prints: aligned text, or one JSON
 * object whose engine counters carry the names of struct ofl_gro_stats.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_REPLAY_GRO_REPORT_H
#define OFL_REPLAY_GRO_REPORT_H

#include <stdio.h>

#include "replay.h"

struct gro_report {
	const char *in_path;
	const char *out_path;               /**< NULL: no capture written */
	const struct replay_capture *cap;
	const struct replay_gro_opts *opts;
	const char *csum;                   /**< "full" or "partial" */
	const char *rx_csum;                /**< "none", "unnecessary" or "complete" */
	const struct replay_gro_result *res;
};

void gro_report_text(FILE *fp, const struct gro_report *r);
void gro_report_json(FILE *fp, const struct gro_report *r);

#endif /* OFL_REPLAY_GRO_REPORT_H */
