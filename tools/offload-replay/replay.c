/*
 * replay.c - see replay.h.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "replay.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- loading ------------------------------------------------------------- */

int replay_capture_parse(struct replay_capture *c, const void *data, size_t len,
                         unsigned pcap_flags, char *err, size_t errlen)
{
	struct pcapio_reader *r;
	struct pcapio_frame f;
	size_t cap = 0;
	int rc;

	memset(c, 0, sizeof *c);
	r = malloc(sizeof *r); /* big (interface table): not on the stack */
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = pcapio_open(r, data, len, pcap_flags);
	while (rc == PCAPIO_OK && (rc = pcapio_next(r, &f)) == PCAPIO_OK) {
		if (c->nframes == 0) {
			c->linktype = f.linktype;
		} else if (f.linktype != c->linktype) {
			snprintf(err, errlen, "frame %zu: link type %" PRIu32 " differs from the first frame's %" PRIu32,
			         c->nframes + 1, f.linktype, c->linktype);
			rc = PCAPIO_EFORMAT;
			break;
		}
		if (c->nframes == cap) {
			size_t ncap = cap ? cap * 2 : 1024;
			struct replay_frame *nf = realloc(c->frames, ncap * sizeof *nf);
			if (!nf) {
				snprintf(err, errlen, "out of memory at frame %zu", c->nframes + 1);
				rc = PCAPIO_ENOMEM;
				break;
			}
			c->frames = nf;
			cap = ncap;
		}
		c->frames[c->nframes++] = (struct replay_frame){
			.data = f.data, .caplen = f.caplen, .len = f.len, .ts_ns = f.ts_ns,
		};
		if (f.caplen < f.len)
			c->truncated++;
	}
	if (rc < 0 && r->err[0])
		snprintf(err, errlen, "%s", r->err);
	c->format = r->format;
	if (c->nframes == 0)
		c->linktype = r->linktype;
	c->snaplen = r->snaplen;
	c->nano = r->nano;
	c->over_snaplen = r->over_snaplen;
	free(r);
	if (rc < 0) {
		free(c->frames);
		c->frames = NULL;
		c->nframes = 0;
		return -1;
	}
	return 0;
}

/* Read a whole file (works for pipes and special files too). */
static int read_all(const char *path, uint8_t **out, size_t *outlen, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;

	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (len == cap) {
			size_t ncap = cap ? cap * 2 : 1u << 16;
			uint8_t *nb = ncap > cap ? realloc(buf, ncap) : NULL;
			if (!nb) {
				snprintf(err, errlen, "%s: out of memory", path);
				break;
			}
			buf = nb;
			cap = ncap;
		}
		size_t n = fread(buf + len, 1, cap - len, fp);
		len += n;
		if (n == 0) {
			if (ferror(fp)) {
				snprintf(err, errlen, "%s: read error", path);
				break;
			}
			fclose(fp);
			*out = buf;
			*outlen = len;
			return 0;
		}
	}
	fclose(fp);
	free(buf);
	return -1;
}

int replay_capture_read(struct replay_capture *c, const char *path, unsigned pcap_flags,
                        char *err, size_t errlen)
{
	uint8_t *bytes;
	size_t n;
	char msg[REPLAY_ERRLEN];

	memset(c, 0, sizeof *c);
	if (read_all(path, &bytes, &n, err, errlen) < 0)
		return -1;
	if (replay_capture_parse(c, bytes, n, pcap_flags, msg, sizeof msg) < 0) {
		snprintf(err, errlen, "%s: %s", path, msg);
		free(bytes);
		return -1;
	}
	c->bytes = bytes;
	c->nbytes = n;
	return 0;
}

void replay_capture_free(struct replay_capture *c)
{
	if (!c)
		return;
	free(c->frames);
	free(c->bytes);
	memset(c, 0, sizeof *c);
}

#define REPLAY_ETH_HLEN 14u
/* frames per ofl_gro_receive_burst() call at most */
#define RX_CHUNK 64u

/* ---- GRO replay ---------------------------------------------------------- */

void replay_gro_opts_default(struct replay_gro_opts *o)
{
	memset(o, 0, sizeof *o);
	o->burst = 64;
}

uint16_t replay_complete_csum(const uint8_t *frame, uint32_t len)
{
	uint64_t s = 0;
	uint16_t w;
	uint32_t i = REPLAY_ETH_HLEN;

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
	ofl_gro_config_default(&cfg);
	cfg.flush_timeout_ns = o->flush_timeout_ns;
	if (o->batch)
		cfg.normal_batch = (uint16_t)o->batch;
	if (o->max_size)
		cfg.max_size = o->max_size;
	if (o->flows)
		cfg.max_flows = o->flows;
	cfg.deliver = gro_deliver;
	cfg.user = &run;
	if (o->dsa) {
		cfg.dsa = o->dsa;
		cfg.dsa_params = o->dsa_params;
		cfg.dsa_keep_tag = o->dsa_keep_tag ? 1 : 0;
	}
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
					if (f->caplen >= REPLAY_ETH_HLEN)
						pkt->csum = replay_complete_csum(f->data, f->caplen);
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
	ofl_gro_get_stats(gro, &res->stats);
	ofl_gro_destroy(gro);
	return 0;
fail_poll:
	snprintf(err, errlen, "after frame %zu: end of poll: %s", i, ofl_strerror(rc));
fail:
	ofl_gro_destroy(gro);
	return -1;
}

/* ---- output capture file ------------------------------------------------- */

/* Written out whenever this much is buffered. */
#define OUTFILE_DRAIN_BYTES (1u << 20)

void replay_outfile_fail(struct replay_outfile *o, const char *msg)
{
	if (!o->failed)
		snprintf(o->err, sizeof o->err, "%s", msg);
	o->failed = 1;
}

static void outfile_drain(struct replay_outfile *o)
{
	char msg[REPLAY_ERRLEN];

	if (o->w.len && !o->failed && fwrite(o->w.buf, 1, o->w.len, o->fp) != o->w.len) {
		snprintf(msg, sizeof msg, "%s: write error", o->path);
		replay_outfile_fail(o, msg);
	}
	o->w.len = 0;
}

int replay_outfile_open(struct replay_outfile *o, const char *path, uint32_t linktype,
                        uint32_t snaplen, int nano)
{
	memset(o, 0, sizeof *o);
	o->path = path;
	if (!path)
		return 0;
	if (pcapio_writer_init(&o->w, PCAPIO_FMT_PCAP, linktype, snaplen, nano, 0) != PCAPIO_OK) {
		snprintf(o->err, sizeof o->err, "%s: out of memory", path);
		return -1;
	}
	o->fp = fopen(path, "wb");
	if (!o->fp) {
		snprintf(o->err, sizeof o->err, "%s: %s", path, strerror(errno));
		pcapio_writer_free(&o->w);
		return -1;
	}
	return 0;
}

uint8_t *replay_outfile_reserve(struct replay_outfile *o, uint64_t ts_ns, uint32_t caplen,
                                uint32_t len)
{
	char msg[REPLAY_ERRLEN];
	uint8_t *p;

	if (!o->fp || o->failed)
		return NULL;
	if (o->w.len >= OUTFILE_DRAIN_BYTES)
		outfile_drain(o);
	p = pcapio_write_reserve(&o->w, ts_ns, caplen, len);
	if (!p) {
		snprintf(msg, sizeof msg, "%s: out of memory", o->path);
		replay_outfile_fail(o, msg);
	}
	return o->failed ? NULL : p;
}

int replay_outfile_close(struct replay_outfile *o)
{
	char msg[REPLAY_ERRLEN];

	if (o->fp) {
		outfile_drain(o);
		if (fclose(o->fp) != 0) {
			snprintf(msg, sizeof msg, "%s: write error", o->path);
			replay_outfile_fail(o, msg);
		}
		o->fp = NULL;
	}
	pcapio_writer_free(&o->w);
	return o->failed ? -1 : 0;
}
