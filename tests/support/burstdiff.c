/* burstdiff.c - see burstdiff.h */
#include "burstdiff.h"

#include <check.h>
#include <inttypes.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ofl/gro.h>

/* The real entry points (GNU ld / lld --wrap) and our wrappers of them. */
#define BD_ENTRY(ret, name, args) ret __real_##name args; ret __wrap_##name args;
BD_ENTRY(int, ofl_gro_create, (const struct ofl_gro_config *cfg, struct ofl_gro **out))
BD_ENTRY(void, ofl_gro_destroy, (struct ofl_gro *gro))
BD_ENTRY(int, ofl_gro_receive, (struct ofl_gro *gro, const struct ofl_pkt *pkt, uint64_t now_ns))
BD_ENTRY(unsigned, ofl_gro_receive_burst,
         (struct ofl_gro *gro, const struct ofl_pkt *pkts, unsigned n, uint64_t now_ns, int *err))
BD_ENTRY(int, ofl_gro_poll_end,
         (struct ofl_gro *gro, unsigned work_done, uint64_t now_ns, uint64_t *deadline_ns))
BD_ENTRY(int, ofl_gro_flush, (struct ofl_gro *gro))
BD_ENTRY(int, ofl_gro_flush_older, (struct ofl_gro *gro, uint64_t now_ns, uint64_t max_age_ns))

/* Burst sizes tried; 0 = a whole run of consecutive frames in one call.
 * Under a memory checker (OFL_TEST_CHECKER set, as .ci/sanitize.sh and
 * .ci/valgrind.sh do: a 10-20x slowdown) only the first BD_NSIZES_CHECKED
 * sizes run: a small odd burst and the largest; the plain gcc and clang
 * stages run them all. */
static const unsigned bd_burst_sizes[] = {3, 64, 1, 0, 2, 7, 16};
#define BD_NSIZES (sizeof bd_burst_sizes / sizeof bd_burst_sizes[0])
#define BD_NSIZES_CHECKED 2u

/* Every replay creates a context (a few hundred KB of arrays at the default
 * configuration) and destroys it: thousands a test.  glibc serves blocks
 * that large with mmap and returns them at free, so each replay faulted
 * its pages in afresh (most of these tests' time went to the kernel).
 * Kept in the heap, a freed context's memory serves the next one. */
#ifdef __GLIBC__
__attribute__((constructor)) static void bd_keep_heap(void)
{
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
}
#endif

/* A growing byte vector. */
struct bd_vec {
	uint8_t *p;
	size_t n, cap;
};

/* Freed vectors' memory, kept for the next vectors: every recording (a
 * context of the test) and every replay's output grow vectors of up to a
 * few MB by doubling, and blocks that large come from mmap and go back at
 * free (ASan's allocator, which the constructor above does not reach):
 * growing them afresh for each recording faulted their pages in again,
 * and under ASan gro_burst_diff_span_test spent more system time (mmap,
 * munmap, madvise) than user time. */
#define BD_SPARES 32
static struct bd_vec bd_spare[BD_SPARES];

/* The smallest spare block of at least need bytes, else the largest, else
 * none (cap 0); taken out of the spares. */
static struct bd_vec spare_take(size_t need)
{
	struct bd_vec v = {0};
	unsigned i, fit = BD_SPARES, big = BD_SPARES;
	for (i = 0; i < BD_SPARES; i++) {
		size_t c = bd_spare[i].cap;
		if (c >= need && (fit == BD_SPARES || c < bd_spare[fit].cap))
			fit = i;
		if (c && (big == BD_SPARES || c > bd_spare[big].cap))
			big = i;
	}
	if (fit == BD_SPARES)
		fit = big;
	if (fit < BD_SPARES) {
		v = bd_spare[fit];
		memset(&bd_spare[fit], 0, sizeof(bd_spare[fit]));
	}
	return v;
}

static void vec_put(struct bd_vec *v, const void *d, size_t len)
{
	if (v->n + len > v->cap) {
		size_t cap;
		if (!v->cap) {
			struct bd_vec s = spare_take(len);
			v->p = s.p;
			v->cap = s.cap;
		}
		cap = v->cap ? v->cap : 4096;
		while (cap < v->n + len)
			cap *= 2;
		if (cap != v->cap) {
			v->p = realloc(v->p, cap);
			ck_assert_ptr_nonnull(v->p);
			v->cap = cap;
		}
	}
	if (len)
		memcpy(v->p + v->n, d, len);
	v->n += len;
}

/* v's memory kept as a spare (in place of a smaller one when all are
 * taken), v empty. */
static void vec_free(struct bd_vec *v)
{
	unsigned i, k = 0;
	for (i = 1; i < BD_SPARES; i++)
		if (bd_spare[i].cap < bd_spare[k].cap)
			k = i;
	if (v->cap > bd_spare[k].cap) {
		free(bd_spare[k].p);
		bd_spare[k] = (struct bd_vec){v->p, 0, v->cap};
	} else {
		free(v->p);
	}
	memset(v, 0, sizeof(*v));
}

enum bd_kind { EV_RX, EV_POLL_END, EV_FLUSH, EV_FLUSH_OLDER };

struct bd_event {
	uint8_t kind;
	unsigned work;    /* poll_end */
	uint64_t now, age;
	size_t call;      /* EV_RX: index of the recorded call (a burst call is one) */
	size_t frame;     /* EV_RX: index into frames */
};

struct bd_frame {
	struct ofl_pkt meta; /* bufs NULL; nbufs, checksum, flags, cookie */
	size_t buf0;         /* its first entry in buf_off / buf_len */
};

/* What one run delivered, serialized (the comparison is a memcmp). */
struct bd_out {
	struct bd_vec bytes;
	struct bd_vec starts; /* size_t offset of each record, for messages */
	size_t npkts;
};

/* The replays' allocator.  Each replay creates a context and destroys it,
 * thousands a test, and a context's arrays are a few hundred KB: blocks
 * that large come from mmap in ASan's allocator (and glibc's unless the
 * constructor above changes that) and go back at free, so every replay
 * faulted its pages in afresh: under ASan, gro_burst_diff_span_test spent
 * more system time than user time.  A replay context (one whose test gave
 * no allocator of its own) takes its blocks from this cache: a freed block
 * is kept for the next request of the same size and alignment.  Each block
 * is still its own allocation (ASan's redzones between arrays stay);
 * ofl_mem_zalloc() zeroes what it is given.  The test's own run, which the
 * replays are compared with, uses its own allocator as given. */
#define BD_CACHE_BLOCKS 64
/* every block is allocated aligned to at least this (free is not told the
 * alignment asked): a request for more is never served from the cache */
#define BD_CACHE_ALIGN 64u
struct bd_block {
	void *p;
	size_t size;
};
static struct bd_block bd_cache[BD_CACHE_BLOCKS];

static void *bd_cache_alloc(void *user, size_t size, size_t align)
{
	unsigned i;
	(void)user;
	if (align < BD_CACHE_ALIGN)
		align = BD_CACHE_ALIGN;
	for (i = 0; i < BD_CACHE_BLOCKS && align == BD_CACHE_ALIGN; i++)
		if (bd_cache[i].p && bd_cache[i].size == size) {
			void *p = bd_cache[i].p;
			bd_cache[i].p = NULL;
			return p;
		}
	return aligned_alloc(align, (size + align - 1) / align * align);
}

static void bd_cache_free(void *user, void *ptr, size_t size)
{
	unsigned i;
	(void)user;
	if (!ptr)
		return;
	for (i = 0; i < BD_CACHE_BLOCKS; i++)
		if (!bd_cache[i].p) {
			bd_cache[i] = (struct bd_block){ptr, size};
			return;
		}
	free(ptr);
}

static const struct ofl_mem bd_cache_mem = {NULL, bd_cache_alloc, bd_cache_free};

/* Fixed part of one delivered packet (zeroed first: no stray padding bytes). */
struct bd_pkt_rec {
	uint32_t tag; /* 'P' packet, 'L' delivery list, 'E' poll end, 'O' flush_older */
	uint32_t hdr_len, nslices, len, ncookies;
	uint16_t seg_count, seg_size, l3_off, l4_off, csum_start, csum_offset, vlan_tci;
	uint8_t flags, gso_type, has_dsa;
	uint32_t rx_hash;
	uint64_t first_ns, aux;
};

struct bd_recorder {
	struct ofl_gro *gro;
	struct ofl_gro_config cfg; /* as the test gave it */
	struct bd_vec events;      /* struct bd_event */
	struct bd_vec frames;      /* struct bd_frame */
	struct bd_vec buf_off;     /* size_t per buffer; SIZE_MAX: a NULL pointer */
	struct bd_vec buf_len;     /* uint32_t per buffer */
	struct bd_vec arena;       /* the bytes of every buffer */
	size_t ncalls;
	struct bd_out orig;        /* what the test's own run delivered */
};

#define BD_MAX_CTX 16
static struct bd_recorder *bd_live[BD_MAX_CTX];
/* > 0 inside a call into the library (its deliver callback, a library
 * function calling another entry point) or during the replays: such calls
 * are passed through, not recorded. */
static int bd_depth;
static struct bd_totals bd_tot;

void bd_get_totals(struct bd_totals *t)
{
	*t = bd_tot;
}

static struct bd_recorder *bd_find(const struct ofl_gro *g)
{
	unsigned i;
	if (!g)
		return NULL;
	for (i = 0; i < BD_MAX_CTX; i++)
		if (bd_live[i] && bd_live[i]->gro == g)
			return bd_live[i];
	return NULL;
}

static void out_put_pkt(struct bd_out *o, const struct ofl_gro_out *p)
{
	struct bd_pkt_rec r;
	uint32_t k;
	size_t at = o->bytes.n;
	memset(&r, 0, sizeof(r));
	r.tag = 'P';
	r.hdr_len = p->hdr_len;
	r.nslices = p->nslices;
	r.len = p->len;
	r.ncookies = p->ncookies;
	r.seg_count = p->seg_count;
	r.seg_size = p->seg_size;
	r.l3_off = p->l3_off;
	r.l4_off = p->l4_off;
	r.csum_start = p->csum_start;
	r.csum_offset = p->csum_offset;
	r.vlan_tci = p->vlan_tci;
	r.flags = p->flags;
	r.gso_type = p->gso_type;
	r.has_dsa = p->dsa != NULL;
	r.rx_hash = p->rx_hash;
	r.first_ns = p->first_ns;
	vec_put(&o->starts, &at, sizeof(at));
	vec_put(&o->bytes, &r, sizeof(r));
	if (p->hdr_len)
		vec_put(&o->bytes, p->hdr, p->hdr_len);
	for (k = 0; k < p->nslices; k++) {
		const struct ofl_slice *s = &p->slices[k];
		uint32_t f[3] = {s->len, s->pkt, s->buf};
		vec_put(&o->bytes, f, sizeof(f));
		if (s->len)
			vec_put(&o->bytes, s->data, s->len);
	}
	for (k = 0; k < p->ncookies; k++) {
		uintptr_t c = (uintptr_t)p->cookies[k];
		vec_put(&o->bytes, &c, sizeof(c));
	}
	if (p->dsa)
		vec_put(&o->bytes, p->dsa, sizeof(*p->dsa));
	o->npkts++;
}

static void out_put_mark(struct bd_out *o, uint32_t tag, uint64_t value)
{
	struct bd_pkt_rec r;
	size_t at = o->bytes.n;
	memset(&r, 0, sizeof(r));
	r.tag = tag;
	r.aux = value;
	vec_put(&o->starts, &at, sizeof(at));
	vec_put(&o->bytes, &r, sizeof(r));
}

static void out_deliver(struct bd_out *o, const struct ofl_gro_out *pkts, unsigned n)
{
	unsigned i;
	out_put_mark(o, 'L', n);
	for (i = 0; i < n; i++)
		out_put_pkt(o, &pkts[i]);
}

/* Empty o, keeping its memory. */
static void out_reset(struct bd_out *o)
{
	o->bytes.n = 0;
	o->starts.n = 0;
	o->npkts = 0;
}

static void out_free(struct bd_out *o)
{
	vec_free(&o->bytes);
	vec_free(&o->starts);
	o->npkts = 0;
}

/* The test's context delivers here first, then to the test. */
static void bd_orig_deliver(void *user, const struct ofl_gro_out *pkts, unsigned n)
{
	struct bd_recorder *r = user;
	out_deliver(&r->orig, pkts, n);
	r->cfg.deliver(r->cfg.user, pkts, n);
}

static void bd_replay_deliver(void *user, const struct ofl_gro_out *pkts, unsigned n)
{
	out_deliver(user, pkts, n);
}

/* --- recording --------------------------------------------------------- */

static void rec_frame(struct bd_recorder *r, const struct ofl_pkt *p, uint64_t now, size_t call)
{
	struct bd_frame f;
	struct bd_event e;
	unsigned b;
	memset(&f, 0, sizeof(f));
	f.meta = *p;
	f.meta.bufs = NULL;
	f.buf0 = r->buf_len.n / sizeof(uint32_t);
	for (b = 0; b < p->nbufs; b++) {
		size_t off = p->bufs[b].data ? r->arena.n : SIZE_MAX;
		uint32_t len = p->bufs[b].len;
		if (p->bufs[b].data)
			vec_put(&r->arena, p->bufs[b].data, len);
		vec_put(&r->buf_off, &off, sizeof(off));
		vec_put(&r->buf_len, &len, sizeof(len));
	}
	memset(&e, 0, sizeof(e));
	e.kind = EV_RX;
	e.now = now;
	e.call = call;
	e.frame = r->frames.n / sizeof(struct bd_frame);
	vec_put(&r->frames, &f, sizeof(f));
	vec_put(&r->events, &e, sizeof(e));
}

/* Take back the last `drop` frames recorded (not taken by the library). */
static void rec_unframe(struct bd_recorder *r, size_t drop)
{
	while (drop--) {
		struct bd_frame *f = (struct bd_frame *)r->frames.p + r->frames.n / sizeof(*f) - 1;
		size_t first = f->buf0;
		if (f->meta.nbufs) {
			size_t off = SIZE_MAX;
			unsigned b;
			for (b = 0; b < f->meta.nbufs && off == SIZE_MAX; b++)
				off = ((size_t *)r->buf_off.p)[first + b];
			if (off != SIZE_MAX)
				r->arena.n = off;
		}
		r->buf_off.n = first * sizeof(size_t);
		r->buf_len.n = first * sizeof(uint32_t);
		r->frames.n -= sizeof(*f);
		r->events.n -= sizeof(struct bd_event);
	}
}

static void rec_event(struct bd_recorder *r, uint8_t kind, unsigned work, uint64_t now, uint64_t age)
{
	struct bd_event e;
	memset(&e, 0, sizeof(e));
	e.kind = kind;
	e.work = work;
	e.now = now;
	e.age = age;
	vec_put(&r->events, &e, sizeof(e));
}

static void rec_free(struct bd_recorder *r)
{
	unsigned i;
	for (i = 0; i < BD_MAX_CTX; i++)
		if (bd_live[i] == r)
			bd_live[i] = NULL;
	vec_free(&r->events);
	vec_free(&r->frames);
	vec_free(&r->buf_off);
	vec_free(&r->buf_len);
	vec_free(&r->arena);
	out_free(&r->orig);
	free(r);
}

/* --- replaying ---------------------------------------------------------- */

enum bd_mode { M_EXACT, M_SINGLE, M_BURST };

struct bd_replay {
	const struct bd_recorder *r;
	struct ofl_buf *bufs;  /* every recorded buffer, pointing into the arena */
	struct ofl_pkt *pkts;  /* every recorded frame */
	int one_now;           /* every run of consecutive frames has one time */
};

static void replay_prepare(struct bd_replay *rp, const struct bd_recorder *r)
{
	size_t nb = r->buf_len.n / sizeof(uint32_t), nf = r->frames.n / sizeof(struct bd_frame), i;
	const size_t *off = (const size_t *)r->buf_off.p;
	const uint32_t *len = (const uint32_t *)r->buf_len.p;
	const struct bd_frame *fr = (const struct bd_frame *)r->frames.p;
	rp->r = r;
	rp->bufs = calloc(nb + 1, sizeof(*rp->bufs));
	rp->pkts = calloc(nf + 1, sizeof(*rp->pkts));
	ck_assert_ptr_nonnull(rp->bufs);
	ck_assert_ptr_nonnull(rp->pkts);
	for (i = 0; i < nb; i++) {
		rp->bufs[i].data = off[i] == SIZE_MAX ? NULL : r->arena.p + off[i];
		rp->bufs[i].len = len[i];
	}
	for (i = 0; i < nf; i++) {
		rp->pkts[i] = fr[i].meta;
		rp->pkts[i].bufs = rp->bufs + fr[i].buf0;
	}
	/* one frame per call at burst size s gives each frame its chunk's first
	   time (replay_run()): when no run's times differ, every size gives
	   the same calls and that replay is made once */
	rp->one_now = 1;
	{
		const struct bd_event *ev = (const struct bd_event *)r->events.p;
		size_t nev = r->events.n / sizeof(*ev);
		for (i = 1; i < nev && rp->one_now; i++)
			if (ev[i].kind == EV_RX && ev[i - 1].kind == EV_RX && ev[i].now != ev[i - 1].now)
				rp->one_now = 0;
	}
}

static void replay_free(struct bd_replay *rp)
{
	free(rp->bufs);
	free(rp->pkts);
}

static const char *mode_name(enum bd_mode m)
{
	return m == M_EXACT ? "as recorded" : m == M_SINGLE ? "one frame per call" : "burst calls";
}

/* Play the recording once; what was delivered goes to o, the counters at the
 * end (before destroy) to st. */
static void replay_run(const struct bd_replay *rp, enum bd_mode mode, unsigned bsize,
                       struct bd_out *o, struct ofl_gro_stats *st)
{
	const struct bd_recorder *r = rp->r;
	const struct bd_event *ev = (const struct bd_event *)r->events.p;
	size_t nev = r->events.n / sizeof(*ev), i = 0;
	struct ofl_gro_config cfg = r->cfg;
	struct ofl_gro *g = NULL;
	cfg.deliver = bd_replay_deliver;
	cfg.user = o;
	if (!cfg.mem)
		cfg.mem = &bd_cache_mem;
	ck_assert_int_eq(__real_ofl_gro_create(&cfg, &g), 0);
	while (i < nev) {
		const struct bd_event *e = &ev[i];
		if (e->kind == EV_RX) {
			/* the run: consecutive frames (of one recorded call in M_EXACT) */
			size_t j = i + 1, n;
			while (j < nev && ev[j].kind == EV_RX && (mode != M_EXACT || ev[j].call == e->call))
				j++;
			n = j - i;
			if (mode == M_EXACT && (e->call & 1u) == 0) {
				/* a recorded single call (even call ids; burst calls odd) */
				int rc = __real_ofl_gro_receive(g, &rp->pkts[e->frame], e->now);
				ck_assert_msg(rc >= 0, "replay: frame %zu refused (%d)", e->frame, rc);
			} else if (mode == M_EXACT) {
				int err = 0;
				unsigned took = __real_ofl_gro_receive_burst(g, &rp->pkts[e->frame], (unsigned)n,
				                                             e->now, &err);
				ck_assert_msg(took == n, "replay: burst took %u of %zu (%d)", took, n, err);
			} else {
				size_t k = 0;
				while (k < n) {
					size_t c = bsize && n - k > bsize ? bsize : n - k, q;
					uint64_t now = ev[i + k].now;
					if (mode == M_BURST) {
						int err = 0;
						unsigned took = __real_ofl_gro_receive_burst(
						    g, &rp->pkts[ev[i + k].frame], (unsigned)c, now, &err);
						ck_assert_msg(took == c, "replay: burst took %u of %zu (%d)", took, c, err);
					} else {
						for (q = 0; q < c; q++) {
							int rc = __real_ofl_gro_receive(g, &rp->pkts[ev[i + k + q].frame], now);
							ck_assert_msg(rc >= 0, "replay: frame %zu refused (%d)",
							              ev[i + k + q].frame, rc);
						}
					}
					k += c;
				}
			}
			i = j;
			continue;
		}
		if (e->kind == EV_POLL_END) {
			uint64_t deadline = 0;
			int rc = __real_ofl_gro_poll_end(g, e->work, e->now, &deadline);
			out_put_mark(o, 'E', (uint64_t)(int64_t)rc ^ (deadline << 8));
		} else if (e->kind == EV_FLUSH) {
			out_put_mark(o, 'F', (uint64_t)(int64_t)__real_ofl_gro_flush(g));
		} else {
			out_put_mark(o, 'O', (uint64_t)(int64_t)__real_ofl_gro_flush_older(g, e->now, e->age));
		}
		i++;
	}
	ck_assert_int_eq(ofl_gro_get_stats(g, st, sizeof *st), 0);
	__real_ofl_gro_destroy(g);
}

/* Record idx of o, in words. */
static void describe(const struct bd_out *o, size_t idx, char *buf, size_t cap)
{
	const size_t *starts = (const size_t *)o->starts.p;
	size_t nrec = o->starts.n / sizeof(size_t);
	struct bd_pkt_rec r;
	if (idx >= nrec) {
		snprintf(buf, cap, "(nothing)");
		return;
	}
	memcpy(&r, o->bytes.p + starts[idx], sizeof(r));
	if (r.tag == 'P') {
		/* the first cookie: after the header bytes and the slices */
		size_t at = starts[idx] + sizeof(r) + r.hdr_len;
		uintptr_t c = 0;
		uint32_t k, f[3];
		for (k = 0; k < r.nslices; k++) {
			memcpy(f, o->bytes.p + at, sizeof(f));
			at += sizeof(f) + f[0];
		}
		if (r.ncookies)
			memcpy(&c, o->bytes.p + at, sizeof(c));
		snprintf(buf, cap,
		         "packet len %u hdr_len %u seg_count %u seg_size %u nslices %u first cookie %#" PRIxPTR
		         " flags %#x gso_type %#x first_ns %" PRIu64,
		         r.len, r.hdr_len, r.seg_count, r.seg_size, r.nslices, c, r.flags, r.gso_type,
		         r.first_ns);
	} else
		snprintf(buf, cap, "mark '%c' value %" PRIu64, (char)r.tag, r.aux);
}

/* Counters that may differ: lookups (gro.h allows it) and refused calls (not
 * recorded, so never replayed). */
static void stats_norm(struct ofl_gro_stats *st)
{
	st->api_errors = 0;
	st->lookups = 0;
	st->lookup_probes = 0;
	st->merged_fast = 0;
}

static void compare(const struct bd_out *a, const struct ofl_gro_stats *sa, const char *na,
                    const struct bd_out *b, const struct ofl_gro_stats *sb, const char *nb,
                    unsigned bsize)
{
	struct ofl_gro_stats x = *sa, y = *sb;
	if (a->bytes.n != b->bytes.n || (a->bytes.n && memcmp(a->bytes.p, b->bytes.p, a->bytes.n) != 0)) {
		const size_t *s1 = (const size_t *)a->starts.p, *s2 = (const size_t *)b->starts.p;
		size_t n1 = a->starts.n / sizeof(size_t), n2 = b->starts.n / sizeof(size_t), k = 0;
		char d1[256], d2[256];
		while (k < n1 && k < n2) {
			size_t e1 = k + 1 < n1 ? s1[k + 1] : a->bytes.n, e2 = k + 1 < n2 ? s2[k + 1] : b->bytes.n;
			if (e1 - s1[k] != e2 - s2[k] || memcmp(a->bytes.p + s1[k], b->bytes.p + s2[k], e1 - s1[k]))
				break;
			k++;
		}
		describe(a, k, d1, sizeof(d1));
		describe(b, k, d2, sizeof(d2));
		ck_abort_msg("burst size %u: output record %zu differs:\n  %s: %s\n  %s: %s", bsize, k, na,
		             d1, nb, d2);
	}
	stats_norm(&x);
	stats_norm(&y);
	if (memcmp(&x, &y, sizeof(x)) != 0) {
		const uint64_t *p = (const uint64_t *)(const void *)&x, *q = (const uint64_t *)(const void *)&y;
		size_t k;
		for (k = 0; k < sizeof(x) / 8 && p[k] == q[k]; k++)
			;
		ck_abort_msg("burst size %u: counters differ at word %zu: %s %" PRIu64 ", %s %" PRIu64, bsize,
		             k, na, p[k], nb, q[k]);
	}
}

/* Replay r exactly, then as bursts and single calls of every size (the
 * single calls once when the size cannot change them: one_now). */
static void bd_check(struct bd_recorder *r, const struct ofl_gro_stats *orig_st)
{
	struct bd_replay rp;
	struct bd_out exact = {0};
	struct ofl_gro_stats st_exact;
	unsigned s, nsizes = getenv("OFL_TEST_CHECKER") ? BD_NSIZES_CHECKED : BD_NSIZES;
	replay_prepare(&rp, r);
	replay_run(&rp, M_EXACT, 0, &exact, &st_exact);
	/* the recording is complete (and GRO deterministic) */
	compare(&r->orig, orig_st, "test's run", &exact, &st_exact, mode_name(M_EXACT), 0);
	/* the two outputs keep their memory from one size to the next: growing
	   them afresh for every replay cost more (page faults, copies) than the
	   replays themselves */
	struct bd_out single = {0}, burst = {0};
	struct ofl_gro_stats st_single;
	memset(&st_single, 0, sizeof st_single);
	for (s = 0; s < nsizes; s++) {
		struct ofl_gro_stats st2;
		if (s == 0 || !rp.one_now) {
			out_reset(&single);
			replay_run(&rp, M_SINGLE, bd_burst_sizes[s], &single, &st_single);
		}
		out_reset(&burst);
		replay_run(&rp, M_BURST, bd_burst_sizes[s], &burst, &st2);
		compare(&single, &st_single, mode_name(M_SINGLE), &burst, &st2, mode_name(M_BURST),
		        bd_burst_sizes[s]);
		bd_tot.replays++;
	}
	out_free(&single);
	out_free(&burst);
	out_free(&exact);
	replay_free(&rp);
	bd_tot.contexts++;
	bd_tot.frames += r->frames.n / sizeof(struct bd_frame);
}

/* --- the wrapped entry points ------------------------------------------ */

int __wrap_ofl_gro_create(const struct ofl_gro_config *cfg, struct ofl_gro **out)
{
	struct bd_recorder *r;
	struct ofl_gro_config c;
	unsigned i;
	int rc;
	if (bd_depth || !cfg || !out || !cfg->deliver)
		return __real_ofl_gro_create(cfg, out);
	r = calloc(1, sizeof(*r));
	ck_assert_ptr_nonnull(r);
	r->cfg = *cfg;
	c = *cfg;
	c.deliver = bd_orig_deliver;
	c.user = r;
	rc = __real_ofl_gro_create(&c, out);
	if (rc != 0) {
		free(r);
		return rc;
	}
	r->gro = *out;
	for (i = 0; i < BD_MAX_CTX && bd_live[i]; i++)
		;
	ck_assert_msg(i < BD_MAX_CTX, "burstdiff: more than %d contexts at once", BD_MAX_CTX);
	bd_live[i] = r;
	return 0;
}

void __wrap_ofl_gro_destroy(struct ofl_gro *gro)
{
	struct bd_recorder *r = bd_depth ? NULL : bd_find(gro);
	struct ofl_gro_stats st;
	if (!r) {
		__real_ofl_gro_destroy(gro);
		return;
	}
	ck_assert_int_eq(ofl_gro_get_stats(gro, &st, sizeof st), 0);
	bd_depth++;
	__real_ofl_gro_destroy(gro);
	bd_check(r, &st);
	bd_depth--;
	rec_free(r);
}

int __wrap_ofl_gro_receive(struct ofl_gro *gro, const struct ofl_pkt *pkt, uint64_t now_ns)
{
	struct bd_recorder *r = bd_depth ? NULL : bd_find(gro);
	int rc;
	if (!r || !pkt || !pkt->bufs)
		return __real_ofl_gro_receive(gro, pkt, now_ns);
	/* copied before the call: the deliver callback may release the buffers */
	rec_frame(r, pkt, now_ns, 2 * r->ncalls++);
	bd_depth++;
	rc = __real_ofl_gro_receive(gro, pkt, now_ns);
	bd_depth--;
	if (rc < 0)
		rec_unframe(r, 1);
	return rc;
}

unsigned __wrap_ofl_gro_receive_burst(struct ofl_gro *gro, const struct ofl_pkt *pkts, unsigned n,
                                      uint64_t now_ns, int *err)
{
	struct bd_recorder *r = bd_depth ? NULL : bd_find(gro);
	size_t call;
	unsigned i, took;
	if (!r || !pkts)
		return __real_ofl_gro_receive_burst(gro, pkts, n, now_ns, err);
	call = 2 * r->ncalls++ + 1;
	for (i = 0; i < n; i++) {
		if (!pkts[i].bufs)
			break;
		rec_frame(r, &pkts[i], now_ns, call);
	}
	bd_depth++;
	took = __real_ofl_gro_receive_burst(gro, pkts, n, now_ns, err);
	bd_depth--;
	ck_assert_uint_le(took, i);
	rec_unframe(r, i - took);
	return took;
}

int __wrap_ofl_gro_poll_end(struct ofl_gro *gro, unsigned work_done, uint64_t now_ns,
                            uint64_t *deadline_ns)
{
	struct bd_recorder *r = bd_depth ? NULL : bd_find(gro);
	uint64_t d = 0;
	int rc;
	if (!r)
		return __real_ofl_gro_poll_end(gro, work_done, now_ns, deadline_ns);
	rec_event(r, EV_POLL_END, work_done, now_ns, 0);
	bd_depth++;
	rc = __real_ofl_gro_poll_end(gro, work_done, now_ns, &d);
	bd_depth--;
	out_put_mark(&r->orig, 'E', (uint64_t)(int64_t)rc ^ (d << 8));
	if (deadline_ns)
		*deadline_ns = d;
	return rc;
}

int __wrap_ofl_gro_flush(struct ofl_gro *gro)
{
	struct bd_recorder *r = bd_depth ? NULL : bd_find(gro);
	int rc;
	if (!r)
		return __real_ofl_gro_flush(gro);
	rec_event(r, EV_FLUSH, 0, 0, 0);
	bd_depth++;
	rc = __real_ofl_gro_flush(gro);
	bd_depth--;
	out_put_mark(&r->orig, 'F', (uint64_t)(int64_t)rc);
	return rc;
}

int __wrap_ofl_gro_flush_older(struct ofl_gro *gro, uint64_t now_ns, uint64_t max_age_ns)
{
	struct bd_recorder *r = bd_depth ? NULL : bd_find(gro);
	int rc;
	if (!r)
		return __real_ofl_gro_flush_older(gro, now_ns, max_age_ns);
	rec_event(r, EV_FLUSH_OLDER, 0, now_ns, max_age_ns);
	bd_depth++;
	rc = __real_ofl_gro_flush_older(gro, now_ns, max_age_ns);
	bd_depth--;
	out_put_mark(&r->orig, 'O', (uint64_t)(int64_t)rc);
	return rc;
}
