/*
 * gro_live.c - see gro_live.h.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
/* glibc under -std=c11: u_char for pcap.h, poll(), sigaction(), clock_gettime() */
#define _DEFAULT_SOURCE

#include "gro_live.h"

#include <inttypes.h>
#include <pcap/pcap.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* a 64 KiB IP packet and its link header (loopback's MTU is 65536): wire
 * frames are smaller, and a smaller slot puts more frames in the ring */
#define LIVE_SNAPLEN 65600u
/* how long one wait for frames lasts: the stop flag and the clock are
 * looked at this often */
#define LIVE_WAIT_MS 100
/* the kernel's ring: room for a few hundred frames of 64 KiB (loopback) */
#define LIVE_BUFFER (32 << 20)

struct gro_live {
	pcap_t *p;
	int nano;
	unsigned skip; /* pseudo-header bytes before the IP header (raw-IP link types) */
	/* the frames of one poll */
	uint8_t *bytes;
	size_t blen, bcap;
	struct replay_frame *frames;
	unsigned n, max;
	/* the run */
	replay_gro_out_fn out;
	void *user;
	uint64_t now;
	uint64_t dropped; /* by the kernel (pcap_stats()), at the end */
};

/* Set by SIGINT and SIGTERM: the only static of the tool, as a signal
 * handler has nowhere else to write. */
static volatile sig_atomic_t live_stop;

static void on_signal(int sig)
{
	(void)sig;
	live_stop = 1;
}

struct gro_live *gro_live_open(const char *iface, char *err, size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	struct gro_live *l = calloc(1, sizeof *l);
	int rc;

	if (!l) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	l->p = pcap_create(iface, ebuf);
	if (!l->p) {
		snprintf(err, errlen, "%s: %s", iface, ebuf);
		free(l);
		return NULL;
	}
	pcap_set_snaplen(l->p, (int)LIVE_SNAPLEN);
	pcap_set_immediate_mode(l->p, 1);
	pcap_set_timeout(l->p, LIVE_WAIT_MS);
	pcap_set_buffer_size(l->p, LIVE_BUFFER);
	l->nano = pcap_set_tstamp_precision(l->p, PCAP_TSTAMP_PRECISION_NANO) == 0;
	rc = pcap_activate(l->p);
	if (rc < 0) {
		snprintf(err, errlen, "%s: %s (%s)", iface, pcap_statustostr(rc), pcap_geterr(l->p));
		gro_live_close(l);
		return NULL;
	}
	if (pcap_setnonblock(l->p, 1, ebuf) < 0) {
		snprintf(err, errlen, "%s: %s", iface, ebuf);
		gro_live_close(l);
		return NULL;
	}
	l->nano = pcap_get_tstamp_precision(l->p) == PCAP_TSTAMP_PRECISION_NANO;
	return l;
}

uint32_t gro_live_linktype(const struct gro_live *l)
{
	return (uint32_t)pcap_datalink(l->p);
}

uint32_t gro_live_snaplen(const struct gro_live *l)
{
	return (uint32_t)pcap_snapshot(l->p);
}

int gro_live_nano(const struct gro_live *l)
{
	return l->nano;
}

uint64_t gro_live_dropped(const struct gro_live *l)
{
	return l->dropped;
}

void gro_live_skip(struct gro_live *l, unsigned skip)
{
	l->skip = skip;
}

void gro_live_close(struct gro_live *l)
{
	if (!l)
		return;
	if (l->p)
		pcap_close(l->p);
	free(l->bytes);
	free(l->frames);
	free(l);
}

/* One captured frame into the poll's buffer. */
static void on_frame(u_char *user, const struct pcap_pkthdr *h, const u_char *data)
{
	struct gro_live *l = (struct gro_live *)user;
	uint64_t ns = (uint64_t)h->ts.tv_sec * 1000000000u +
	              (uint64_t)h->ts.tv_usec * (l->nano ? 1u : 1000u);

	uint32_t s = h->caplen < l->skip ? h->caplen : l->skip, caplen = h->caplen - s;

	if (l->n == l->max || l->bcap - l->blen < caplen)
		return; /* cannot happen: the buffer holds max frames of the snap length */
	memcpy(l->bytes + l->blen, data + s, caplen);
	l->frames[l->n++] = (struct replay_frame){
		.data = l->bytes + l->blen, .caplen = caplen, .len = h->len > l->skip ? h->len - l->skip : 0,
		.ts_ns = ns,
	};
	l->blen += caplen;
}

static void live_deliver(void *user, const struct ofl_gro_out *pkts, unsigned n)
{
	struct gro_live *l = user;

	for (unsigned i = 0; i < n; i++)
		if (l->out)
			l->out(l->user, &pkts[i], l->now);
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One line: what happened since the last one. */
static void print_counters(FILE *fp, unsigned second, const struct ofl_gro_stats *now,
                           const struct ofl_gro_stats *before)
{
	uint64_t gro = now->out_gro_pkts - before->out_gro_pkts;
	uint64_t segs = now->out_segs - before->out_segs - (now->out_pkts - before->out_pkts - gro);

	fprintf(fp, "%5us  frames in %9" PRIu64 "  merged %9" PRIu64 "  packets out %9" PRIu64
	            "  segments per GRO packet %6.2f\n",
	        second, now->rx_pkts - before->rx_pkts, now->merged - before->merged,
	        now->out_pkts - before->out_pkts, gro ? (double)segs / (double)gro : 0.0);
	fflush(fp);
}

/* Feed the poll's frames, end the poll, deliver everything. */
static int run_poll(struct gro_live *l, struct ofl_gro *gro, const struct replay_gro_opts *o,
                    char *err, size_t errlen)
{
	struct ofl_buf bufs[64];
	struct ofl_pkt pkts[64];
	unsigned done = 0;
	int rc = 0;

	while (done < l->n) {
		unsigned k = l->n - done < 64 ? l->n - done : 64;
		for (unsigned i = 0; i < k; i++) {
			const struct replay_frame *f = &l->frames[done + i];
			bufs[i] = (struct ofl_buf){ .data = f->data, .len = f->caplen };
			pkts[i] = (struct ofl_pkt){ .bufs = &bufs[i], .nbufs = 1, .csum_status = o->csum_status,
			                            .cookie = (void *)(uintptr_t)f };
			if (o->csum_status == OFL_CSUM_COMPLETE) {
				/* a raw IP packet is summed from its first byte */
				uint32_t from = o->l2 == OFL_L2_NONE ? 0 : 14u; /* Ethernet */
				if (f->caplen >= from && f->caplen)
					pkts[i].csum = replay_complete_csum_from(f->data, f->caplen, from);
				else
					pkts[i].csum_status = OFL_CSUM_NONE;
			}
			if (f->ts_ns > l->now)
				l->now = f->ts_ns;
		}
		if (ofl_gro_receive_burst(gro, pkts, k, l->now, &rc) < k) {
			snprintf(err, errlen, "ofl_gro_receive: %s", ofl_strerror(rc));
			return -1;
		}
		done += k;
	}
	rc = ofl_gro_poll_end(gro, l->n, l->now, NULL);
	if (rc == 0)
		rc = ofl_gro_flush(gro); /* nothing may stay: the buffer is reused */
	if (rc < 0) {
		snprintf(err, errlen, "end of poll: %s", ofl_strerror(rc));
		return -1;
	}
	l->n = 0;
	l->blen = 0;
	return 0;
}

int gro_live_run(struct gro_live *l, const struct replay_gro_opts *o, unsigned seconds,
                 replay_gro_out_fn out, void *user, FILE *report, struct ofl_gro_stats *stats,
                 char *err, size_t errlen)
{
	struct ofl_gro_config cfg;
	struct ofl_gro *gro;
	struct ofl_gro_stats st, last;
	struct sigaction sa, old_int, old_term;
	struct pollfd pfd;
	uint64_t start, next, end;
	unsigned second = 0;
	int rc;

	memset(stats, 0, sizeof *stats);
	l->max = o->burst ? o->burst : 64;
	l->bcap = (size_t)l->max * gro_live_snaplen(l);
	l->bytes = malloc(l->bcap);
	l->frames = calloc(l->max, sizeof *l->frames);
	if (!l->bytes || !l->frames) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	l->out = out;
	l->user = user;
	replay_gro_config(o, &cfg);
	cfg.deliver = live_deliver;
	cfg.user = l;
	rc = ofl_gro_create(&cfg, &gro);
	if (rc < 0) {
		snprintf(err, errlen, "ofl_gro_create: %s", ofl_strerror(rc));
		return rc == OFL_EINVAL ? REPLAY_ECONFIG : -1;
	}
	pfd.fd = pcap_get_selectable_fd(l->p);
	pfd.events = POLLIN;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	live_stop = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	memset(&last, 0, sizeof last);
	start = monotonic_ns();
	next = start + 1000000000u;
	end = seconds ? start + (uint64_t)seconds * 1000000000u : 0;
	rc = 0;
	while (!live_stop && rc == 0) {
		int n;
		if (pfd.fd >= 0)
			(void)poll(&pfd, 1, LIVE_WAIT_MS);
		/* what has arrived, up to a poll's worth */
		do
			n = pcap_dispatch(l->p, (int)(l->max - l->n), on_frame, (u_char *)l);
		while (n > 0 && l->n < l->max);
		if (n < 0 && n != PCAP_ERROR_BREAK) {
			snprintf(err, errlen, "%s", pcap_geterr(l->p));
			rc = -1;
			break;
		}
		if (l->n)
			rc = run_poll(l, gro, o, err, errlen);
		uint64_t t = monotonic_ns();
		while (rc == 0 && t >= next) {
			ofl_gro_get_stats(gro, &st, sizeof st);
			print_counters(report, ++second, &st, &last);
			last = st;
			next += 1000000000u;
		}
		if (end && t >= end)
			break;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	{
		struct pcap_stat ps;
		if (pcap_stats(l->p, &ps) == 0)
			l->dropped = (uint64_t)ps.ps_drop + ps.ps_ifdrop;
	}
	if (rc == 0 && ofl_gro_flush(gro) < 0)
		rc = -1;
	ofl_gro_get_stats(gro, stats, sizeof *stats);
	ofl_gro_destroy(gro);
	return rc;
}
