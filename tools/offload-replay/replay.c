/*
 * replay.c - see replay.h.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "replay.h"

#include <stdio.h>
#include <string.h>

#define REPLAY_ETH_HLEN 14u
/* frames per ofl_gro_receive_burst() call at most */
#define RX_CHUNK 64u

/* ---- GRO replay ---------------------------------------------------------- */

void replay_gro_opts_default(struct replay_gro_opts *o)
{
	memset(o, 0, sizeof *o);
	o->burst = 64;
	o->ipip = 1;
	o->gre = 1;
}

uint16_t replay_complete_csum(const uint8_t *frame, uint32_t len)
{
	return replay_complete_csum_from(frame, len, REPLAY_ETH_HLEN);
}

uint16_t replay_complete_csum_from(const uint8_t *frame, uint32_t len, uint32_t from)
{
	uint64_t s = 0;
	uint16_t w;
	uint32_t i = from;

	for (; i + 1 < len; i += 2) {
		memcpy(&w, frame + i, 2);
		s += w;
	}
	if (i < len) {
		uint8_t last[2] = { frame[i], 0 };
		memcpy(&w, last, 2);
		s += w;
	}
	while (s >> 16)
		s = (s & 0xffffu) + (s >> 16);
	return (uint16_t)s;
}

size_t replay_cookie_index(const struct replay_capture *c, const void *cookie)
{
	return (size_t)((const struct replay_frame *)cookie - c->frames);
}

void replay_gro_config(const struct replay_gro_opts *o, struct ofl_gro_config *cfg)
{
	ofl_gro_config_default(cfg);
	cfg->flush_timeout_ns = o->flush_timeout_ns;
	if (o->batch)
		cfg->normal_batch = (uint16_t)o->batch;
	if (o->max_size)
		cfg->max_size = o->max_size;
	if (o->flows)
		cfg->max_flows = o->flows;
	cfg->l2 = o->l2;
	cfg->udp = o->udp;
	cfg->vxlan_nports = o->vxlan_nports;
	cfg->geneve_nports = o->geneve_nports;
	memcpy(cfg->vxlan_ports, o->vxlan_ports, sizeof(cfg->vxlan_ports));
	memcpy(cfg->geneve_ports, o->geneve_ports, sizeof(cfg->geneve_ports));
	cfg->ipip = o->ipip;
	cfg->gre = o->gre;
	cfg->fraglist = o->fraglist;
	cfg->vxlan_gpe_nports = o->vxlan_gpe_nports;
	memcpy(cfg->vxlan_gpe_ports, o->vxlan_gpe_ports, sizeof(cfg->vxlan_gpe_ports));
	if (o->dsa) {
		cfg->dsa = o->dsa;
		cfg->dsa_params = o->dsa_params;
		cfg->dsa_keep_tag = o->dsa_keep_tag ? 1 : 0;
	}
}

struct gro_run {
	const struct replay_gro_hooks *hooks;
	uint64_t now;
	struct replay_gro_result *res;
};

static void gro_deliver(void *user, const struct ofl_gro_out *pkts, unsigned n)
{
	struct gro_run *run = user;
	struct replay_gro_result *res = run->res;

	if (n > res->max_list)
		res->max_list = n;
	for (unsigned i = 0; i < n; i++) {
		const struct ofl_gro_out *o = &pkts[i];
		res->out_pkts++;
		res->out_bytes += o->len;
		if (o->seg_count >= 1) {
			res->gro_pkts++;
			res->gro_segs += o->seg_count;
		}
		if (o->seg_count > 1) {
			res->merged_pkts++;
			res->merged_segs += o->seg_count;
		}
		if (run->hooks->out)
			run->hooks->out(run->hooks->user, o, run->now);
	}
}

/* The time stamp clock of the replay: never goes back. */
static void clock_to(struct gro_run *run, uint64_t t)
{
	if (t > run->now)
		run->now = t;
}

/* ofl_gro_poll_end() at the replay clock, reported to the poll hook. */
static int poll_end(struct gro_run *run, struct ofl_gro *gro, unsigned work, uint64_t *deadline,
                    size_t received)
{
	int rc = ofl_gro_poll_end(gro, work, run->now, deadline);

	if (rc == 0 && run->hooks->poll)
		run->hooks->poll(run->hooks->user, work, run->now, *deadline, received);
	return rc;
}

int replay_gro(const struct replay_capture *c, const struct replay_gro_opts *o,
               const struct replay_gro_hooks *hooks, struct replay_gro_result *res, char *err,
               size_t errlen)
{
	static const struct replay_gro_hooks no_hooks;
	struct ofl_gro_config cfg;
	struct ofl_gro *gro = NULL;
	struct gro_run run = { .hooks = hooks ? hooks : &no_hooks, .res = res };
	uint64_t deadline = 0;
	size_t i = 0;
	int rc;

	memset(res, 0, sizeof *res);
	replay_gro_config(o, &cfg);
	cfg.deliver = gro_deliver;
	cfg.user = &run;
	rc = ofl_gro_create(&cfg, &gro);
	if (rc < 0) {
		snprintf(err, errlen, "ofl_gro_create: %s", ofl_strerror(rc));
		return rc == OFL_EINVAL ? REPLAY_ECONFIG : -1;
	}
	if (c->nframes)
		run.now = c->frames[0].ts_ns;
	while (i < c->nframes) {
		size_t budget = i == 0 && o->first_burst ? o->first_burst : o->burst;
		size_t end = budget && c->nframes - i > budget ? i + budget : c->nframes;
		unsigned work = (unsigned)(end - i);

		/* Frames go in as ofl_gro_receive_burst() calls, as a driver's
		 * poll would: one per run of frames with the same clock, at
		 * most RX_CHUNK at a time (both the same as frame by frame). */
		while (i < end) {
			struct ofl_buf bufs[RX_CHUNK][2];
			struct ofl_pkt pkts[RX_CHUNK];
			size_t first = i;
			unsigned n = 0, took;
			for (; i < end && n < RX_CHUNK; i++, n++) {
				const struct replay_frame *f = &c->frames[i];
				struct ofl_pkt *pkt = &pkts[n];
				if (n && !o->frozen_clock && f->ts_ns > run.now)
					break; /* the clock moves: a new burst */
				bufs[n][0] = (struct ofl_buf){ .data = f->data, .len = f->caplen };
				*pkt = (struct ofl_pkt){
					.bufs = bufs[n], .nbufs = 1, .csum_status = o->csum_status,
					.cookie = (void *)(uintptr_t)f,
				};
				if (o->split && f->caplen > o->split) {
					bufs[n][0].len = o->split;
					bufs[n][1] = (struct ofl_buf){ .data = f->data + o->split,
					                               .len = f->caplen - o->split };
					pkt->nbufs = 2;
				}
				if (o->csum_status == OFL_CSUM_COMPLETE) {
					/* a raw IP packet is summed from its first byte */
					uint32_t from = o->l2 == OFL_L2_NONE ? 0 : REPLAY_ETH_HLEN;
					if (f->caplen >= from && f->caplen)
						pkt->csum = replay_complete_csum_from(f->data, f->caplen, from);
					else
						pkt->csum_status = OFL_CSUM_NONE; /* no L3 to sum */
				}
				if (!o->frozen_clock)
					clock_to(&run, f->ts_ns);
			}
			took = ofl_gro_receive_burst(gro, pkts, n, run.now, &rc);
			if (took < n) {
				snprintf(err, errlen, "frame %zu: ofl_gro_receive: %s", first + took + 1,
				         ofl_strerror(rc));
				goto fail;
			}
		}
		if (o->budget_flush && work == o->burst) {
			/* the whole budget used: the kernel flushes everything */
			rc = ofl_gro_flush(gro);
			deadline = 0;
			if (rc == 0 && run.hooks->poll)
				run.hooks->poll(run.hooks->user, work, run.now, deadline, i);
		} else {
			rc = poll_end(&run, gro, work, &deadline, i);
		}
		if (rc < 0)
			goto fail_poll;
		res->polls++;
		if (deadline && (i == c->nframes || c->frames[i].ts_ns >= deadline)) {
			/* the flush timer fires before the next poll */
			clock_to(&run, deadline);
			rc = poll_end(&run, gro, 0, &deadline, i);
			if (rc < 0)
				goto fail_poll;
			res->timer_fires++;
		}
	}
	rc = ofl_gro_flush(gro);
	if (rc < 0) {
		snprintf(err, errlen, "ofl_gro_flush: %s", ofl_strerror(rc));
		goto fail;
	}
	ofl_gro_get_stats(gro, &res->stats, sizeof res->stats);
	ofl_gro_destroy(gro);
	return 0;
fail_poll:
	snprintf(err, errlen, "after frame %zu: end of poll: %s", i, ofl_strerror(rc));
fail:
	ofl_gro_destroy(gro);
	return -1;
}
