/* harness.c - see harness.h */
#include "harness.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ofl/csum.h>

#include "conserve.h"
#include "gen.h"

/* Slices to one buffer. */
static size_t h_gather(const struct ofl_slice *s, uint32_t n, uint8_t *to, size_t cap)
{
	size_t pos = 0;
	for (uint32_t k = 0; k < n; k++) {
		ck_assert_uint_le(pos + s[k].len, cap);
		memcpy(to + pos, s[k].data, s[k].len);
		pos += s[k].len;
	}
	return pos;
}

/* A list packet (fraglist mode): every frame it chains, walked with
 * ofl_gro_list_seg(), is byte for byte the frame fed, its slices in that
 * frame's buffers; any other packet is refused by the walk. */
static void h_check_list(struct harness *h, const struct ofl_gro_out *o)
{
	struct ofl_gro_seg sg;
	unsigned j;
	if ((o->gso_type & OFL_GSO_TUNNEL_MASK) != OFL_GSO_FRAGLIST || o->seg_count < 2) {
		ck_assert_int_eq(ofl_gro_list_seg(h->gro, o, 0, &sg), OFL_EINVAL);
		return;
	}
	ck_assert_msg(h->cfg.version >= 7 && h->cfg.fraglist, "a list packet without fraglist mode");
	for (j = 0; j < o->seg_count; j++) {
		uintptr_t c = (uintptr_t)o->cookies[j];
		uint8_t *f;
		size_t n;
		ck_assert_int_eq(ofl_gro_list_seg(h->gro, o, j, &sg), 0);
		ck_assert_ptr_eq(sg.cookie, o->cookies[j]);
		ck_assert_uint_eq(sg.len, h->in_len[c]);
		ck_assert_uint_ge(sg.npayload, 1);
		f = malloc(sg.len);
		ck_assert_ptr_nonnull(f);
		n = h_gather(sg.hdr, sg.nhdr, f, sg.len);
		ck_assert_uint_eq(n, sg.hdr_len);
		n += h_gather(sg.payload, sg.npayload, f + n, sg.len - n);
		ck_assert_uint_eq(n, sg.len);
		ck_assert_msg(memcmp(f, h->in[c], n) == 0, "list frame %u (input %u) differs", j, (unsigned)c);
		free(f);
		for (uint32_t k = 0; k < sg.nhdr; k++)
			ck_assert_uint_eq(sg.hdr[k].pkt, j);
		for (uint32_t k = 0; k < sg.npayload; k++)
			ck_assert_uint_eq(sg.payload[k].pkt, j);
	}
	ck_assert_int_eq(ofl_gro_list_seg(h->gro, o, o->seg_count, &sg), OFL_EINVAL);
}

static void h_deliver(void *user, const struct ofl_gro_out *pkts, unsigned n)
{
	struct harness *h = user;
	unsigned i, j, segs = 0;
	ck_assert_uint_ge(n, 1);
	for (i = 0; i < n; i++) {
		const struct ofl_gro_out *o = &pkts[i];
		struct h_out *ho;
		unsigned ncookies = o->ncookies;
		struct c_flow cf;
		int w;
		ck_assert_uint_lt(h->nout, H_MAX_OUT);
		ck_assert_uint_eq(o->ncookies, o->seg_count ? o->seg_count : 1u);
		ho = &h->out[h->nout];
		memset(ho, 0, sizeof(*ho));
		ho->frame = malloc(o->len ? o->len : 1);
		ck_assert_ptr_nonnull(ho->frame);
		w = ofl_gro_linearize(o, ho->frame, o->len, OFL_CSUM_MODE_FULL);
		ck_assert_int_eq(w, (int)o->len);
		ho->len = o->len;
		ho->seg_count = o->seg_count;
		ho->seg_size = o->seg_size;
		ho->flags = o->flags;
		ho->gso_type = o->gso_type;
		ho->list = h->nlists;
		ho->first_cookie = (uint32_t)(uintptr_t)o->cookies[0];
		segs += ncookies;
		for (j = 0; j < ncookies; j++) {
			uintptr_t c = (uintptr_t)o->cookies[j];
			ck_assert_uint_lt(c, h->nin);
			h->seen[c]++;
			h->out_of[c] = h->nout;
			ck_assert_msg(h->seen[c] == 1, "cookie %u delivered twice", (unsigned)c);
		}
		if (c_parse_l4(ho->frame, ho->len, &cf))
			ho->payload = (uint32_t)cf.payload_len;
		if (o->seg_count == 0) {
			uintptr_t c = (uintptr_t)o->cookies[0];
			ck_assert_uint_eq(o->hdr_len, 0);
			ck_assert_uint_eq(ho->len, h->in_len[c]);
			ck_assert_msg(memcmp(ho->frame, h->in[c], ho->len) == 0, "NORMAL packet %u altered",
			              (unsigned)c);
		} else {
			/* Cut back at seg_size: each piece is its segment's payload. */
			size_t pos;
			ck_assert_msg(c_parse_l4(ho->frame, ho->len, &cf), "GRO packet does not parse");
			if (o->seg_count > 1)
				ck_assert_msg(gen_frame_csums_ok(ho->frame, ho->len), "bad checksum in merged packet");
			pos = cf.payload_off;
			for (j = 0; j < o->seg_count; j++) {
				uintptr_t c = (uintptr_t)o->cookies[j];
				struct c_flow ci;
				ck_assert(c_parse_l4(h->in[c], h->in_len[c], &ci));
				if (j + 1 < o->seg_count)
					ck_assert_uint_eq(ci.payload_len, o->seg_size);
				else
					ck_assert_uint_le(ci.payload_len, o->seg_size);
				ck_assert_uint_le(pos + ci.payload_len, ho->len);
				ck_assert_msg(memcmp(ho->frame + pos, h->in[c] + ci.payload_off, ci.payload_len) == 0,
				              "payload of segment %u differs", j);
				ck_assert_uint_eq(memcmp(cf.key, ci.key, sizeof(cf.key)), 0);
				pos += ci.payload_len;
			}
			ck_assert_uint_eq(pos, cf.payload_off + cf.payload_len);
			h_check_list(h, o);
		}
		h->nout++;
	}
	h->list_pkts[h->nlists] = n;
	h->list_segs[h->nlists] = segs;
	h->nlists++;
}

void h_init(struct harness *h, const struct ofl_gro_config *cfg, int split)
{
	memset(h, 0, sizeof(*h));
	if (cfg)
		h->cfg = *cfg;
	else
		ofl_gro_config_default(&h->cfg);
	h->cfg.deliver = h_deliver;
	h->cfg.user = h;
	h->split = split;
	ck_assert_int_eq(ofl_gro_create(&h->cfg, &h->gro), 0);
}

struct ofl_gro *h_gro_batch1(ofl_gro_deliver_fn deliver, void *user)
{
	struct ofl_gro_config cfg;
	struct ofl_gro *g;
	ofl_gro_config_default(&cfg);
	cfg.deliver = deliver;
	cfg.user = user;
	cfg.normal_batch = 1;
	ck_assert_int_eq(ofl_gro_create(&cfg, &g), 0);
	return g;
}

int h_lin_both(const struct ofl_gro_out *p, uint8_t *full, uint8_t *part, size_t cap)
{
	int len = ofl_gro_linearize(p, full, cap, OFL_CSUM_MODE_FULL);
	ck_assert_int_eq(ofl_gro_linearize(p, part, cap, OFL_CSUM_MODE_PARTIAL), len);
	return len;
}

unsigned h_cap_one(struct h_cap *c, const struct ofl_gro_out *p)
{
	unsigned k = c->n++;
	ck_assert_uint_lt(k, H_CAP_MAX);
	ck_assert_uint_le(p->nslices, H_CAP_SLICES);
	c->out[k] = p[0];
	memcpy(c->sl[k], p->slices, p->nslices * sizeof(struct ofl_slice));
	c->len[k] = h_lin_both(p, c->full[k], c->part[k], sizeof(c->full[k]));
	c->vrc[k] = ofl_gro_vnet_hdr(p, 14, &c->vh[k]);
	return k;
}

void h_cap_deliver(void *user, const struct ofl_gro_out *p, unsigned n)
{
	unsigned i;
	for (i = 0; i < n; i++)
		h_cap_one(user, &p[i]);
}

void h_last_init(struct h_last *l, uint8_t *lin, size_t cap)
{
	memset(l, 0, sizeof(*l));
	l->lin = lin;
	l->cap = cap;
}

void h_last_deliver(void *user, const struct ofl_gro_out *p, unsigned n)
{
	struct h_last *l = user;
	unsigned i;
	for (i = 0; i < n; i++) {
		l->n++;
		l->segs = p[i].seg_count;
		l->len = ofl_gro_linearize(&p[i], l->lin, l->cap, OFL_CSUM_MODE_FULL);
		ck_assert_int_eq(l->len, (int)p[i].len);
	}
}

int h_receive1(struct ofl_gro *g, uint8_t *frame, size_t len, int csum_status, uint64_t now)
{
	struct ofl_buf b = {frame, (uint32_t)len};
	struct ofl_pkt p;
	memset(&p, 0, sizeof(p));
	p.bufs = &b;
	p.nbufs = 1;
	p.csum_status = (uint8_t)csum_status;
	p.cookie = frame;
	return ofl_gro_receive(g, &p, now);
}

static size_t hdr_end(const uint8_t *f, size_t len)
{
	struct c_flow cf;
	if (c_parse_l4(f, len, &cf))
		return cf.payload_off;
	return len < 54 ? len : 54;
}

int h_rx(struct harness *h, const uint8_t *frame, size_t len, uint64_t now)
{
	unsigned i = h->nin, nb = 0;
	struct ofl_buf *b;
	struct ofl_pkt pkt;
	uint8_t *copy;
	ck_assert_uint_lt(i, H_MAX_IN);
	copy = malloc(len ? len : 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, frame, len);
	h->in[i] = copy;
	h->in_len[i] = (uint32_t)len;
	b = h->bufs[i];
	switch (h->split) {
	case H_SPLIT_HDR:
	case H_SPLIT_EMPTY: {
		size_t he = hdr_end(copy, len);
		if (h->split == H_SPLIT_EMPTY)
			b[nb++] = (struct ofl_buf){copy, 0};
		b[nb++] = (struct ofl_buf){copy, (uint32_t)he};
		if (h->split == H_SPLIT_EMPTY)
			b[nb++] = (struct ofl_buf){copy + he, 0};
		b[nb++] = (struct ofl_buf){copy + he, (uint32_t)(len - he)};
		break;
	}
	case H_SPLIT_FOUR: {
		size_t he = hdr_end(copy, len), a = len < 14 ? len : 14, half;
		if (he < a)
			he = a;
		half = he + (len - he) / 2;
		b[nb++] = (struct ofl_buf){copy, (uint32_t)a};
		b[nb++] = (struct ofl_buf){copy + a, (uint32_t)(he - a)};
		b[nb++] = (struct ofl_buf){copy + he, (uint32_t)(half - he)};
		b[nb++] = (struct ofl_buf){copy + half, (uint32_t)(len - half)};
		break;
	}
	case H_SPLIT_BYTES: {
		size_t k, n1 = h->cfg.max_bufs - 1u;
		if (n1 > 80)
			n1 = 80;
		if (n1 > len)
			n1 = len;
		for (k = 0; k < n1; k++)
			b[nb++] = (struct ofl_buf){copy + k, 1};
		b[nb++] = (struct ofl_buf){copy + n1, (uint32_t)(len - n1)};
		break;
	}
	default:
		b[nb++] = (struct ofl_buf){copy, (uint32_t)len};
	}
	h->nbufs[i] = nb;
	memset(&pkt, 0, sizeof(pkt));
	pkt.bufs = b;
	pkt.nbufs = (uint16_t)nb;
	pkt.csum_status = h->csum_status;
	if (h->nic_csum)
		pkt.csum_status = gen_frame_csums_ok(copy, len) ? OFL_CSUM_UNNECESSARY : OFL_CSUM_NONE;
	if (h->complete_auto && pkt.csum_status == OFL_CSUM_COMPLETE && len >= 14)
		pkt.csum = (uint16_t)~ofl_csum_fold(ofl_csum_partial(copy + 14, len - 14, 0));
	pkt.cookie = (void *)(uintptr_t)i;
	h->nin++;
	h->last_result = ofl_gro_receive(h->gro, &pkt, now);
	if (h->last_result < 0) {
		h->nin--; /* not taken */
		free(copy);
		h->in[i] = NULL;
	}
	return h->last_result;
}

int h_rx_gen(struct harness *h, const struct gen_tcp *g, uint64_t now)
{
	uint8_t buf[70000];
	size_t n = gen_tcp_frame(g, buf, sizeof(buf));
	ck_assert_uint_gt(n, 0);
	return h_rx(h, buf, n, now);
}

struct hflow {
	uint8_t key[64];
	uint8_t *in, *out;
	size_t nin, nout, cap_in, cap_out;
};

static void append(uint8_t **p, size_t *n, size_t *cap, const uint8_t *d, size_t len)
{
	if (!len)
		return;
	if (*n + len > *cap) {
		*cap = (*n + len) * 2 + 64;
		*p = realloc(*p, *cap);
		ck_assert_ptr_nonnull(*p);
	}
	memcpy(*p + *n, d, len);
	*n += len;
}

static struct hflow *find_flow(struct hflow *fl, unsigned *nfl, const uint8_t *key)
{
	unsigned i;
	for (i = 0; i < *nfl; i++)
		if (memcmp(fl[i].key, key, 64) == 0)
			return &fl[i];
	memset(&fl[*nfl], 0, sizeof(fl[0]));
	memcpy(fl[*nfl].key, key, 64);
	return &fl[(*nfl)++];
}

int h_send(struct harness *h, struct gen_tcp *g, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		h_rx_gen(h, g, 0);
		g->seq += g->payload_len;
		g->ip_id++;
	}
	return h->last_result;
}

struct ofl_gro_stats h_stats(struct harness *h)
{
	struct ofl_gro_stats st;
	ck_assert_ptr_nonnull(h->gro);
	ck_assert_int_eq(ofl_gro_get_stats(h->gro, &st, sizeof st), 0);
	return st;
}

void h_finish(struct harness *h)
{
	unsigned i, nfl = 0;
	struct hflow *fl;
	ofl_gro_destroy(h->gro);
	h->gro = NULL;
	for (i = 0; i < h->nin; i++)
		ck_assert_msg(h->seen[i] == 1, "cookie %u delivered %u times", i, h->seen[i]);
	fl = calloc(h->nin + h->nout + 1, sizeof(*fl));
	ck_assert_ptr_nonnull(fl);
	for (i = 0; i < h->nin; i++) {
		struct c_flow cf;
		if (c_parse_l4(h->in[i], h->in_len[i], &cf)) {
			struct hflow *f = find_flow(fl, &nfl, cf.key);
			append(&f->in, &f->nin, &f->cap_in, h->in[i] + cf.payload_off, cf.payload_len);
		}
	}
	for (i = 0; i < h->nout; i++) {
		struct c_flow cf;
		if (c_parse_l4(h->out[i].frame, h->out[i].len, &cf)) {
			struct hflow *f = find_flow(fl, &nfl, cf.key);
			append(&f->out, &f->nout, &f->cap_out, h->out[i].frame + cf.payload_off, cf.payload_len);
		}
	}
	for (i = 0; i < nfl; i++) {
		ck_assert_uint_eq(fl[i].nin, fl[i].nout);
		ck_assert_msg(fl[i].nin == 0 || memcmp(fl[i].in, fl[i].out, fl[i].nin) == 0,
		              "flow %u: payload order or bytes differ", i);
		free(fl[i].in);
		free(fl[i].out);
	}
	free(fl);
}

void h_free(struct harness *h)
{
	unsigned i;
	if (h->gro)
		ofl_gro_destroy(h->gro);
	for (i = 0; i < h->nin; i++)
		free(h->in[i]);
	for (i = 0; i < h->nout; i++)
		free(h->out[i].frame);
	memset(h, 0, sizeof(*h));
}

void h_done(struct harness *h, const char *want)
{
	char got[4096];
	h_finish(h);
	if (want)
		ck_assert_str_eq(h_payloads(h, got, sizeof got), want);
	h_free(h);
}

const char *h_payloads(struct harness *h, char *buf, size_t cap)
{
	size_t pos = 0;
	unsigned i;
	buf[0] = 0;
	for (i = 0; i < h->nout && pos < cap; i++) {
		struct c_flow cf;
		if (!c_parse_l4(h->out[i].frame, h->out[i].len, &cf) || (cf.udp && !h->cfg.udp))
			continue;
		pos += (size_t)snprintf(buf + pos, cap - pos, "%s%u", pos ? "," : "", h->out[i].payload);
	}
	return buf;
}

static int run_suite(Suite *s, unsigned flags)
{
	SRunner *sr = srunner_create(s);
	int failed;
	if (flags & H_NOFORK)
		srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

int h_run_suite(Suite *s)
{
	return run_suite(s, 0);
}

int h_run_table(const char *name, unsigned timeout, unsigned flags, const struct h_test *tests, unsigned n)
{
	return h_run_table_fixture(name, timeout, flags, NULL, NULL, tests, n);
}

int h_run_table_fixture(const char *name, unsigned timeout, unsigned flags, void (*setup)(void),
                        void (*teardown)(void), const struct h_test *tests, unsigned n)
{
	Suite *s = suite_create(name);
	TCase *tc = tcase_create(name);
	if (timeout)
		tcase_set_timeout(tc, timeout);
	if (setup || teardown)
		tcase_add_checked_fixture(tc, setup, teardown);
	for (unsigned i = 0; i < n; i++) {
		if (tests[i].loops)
			tcase_add_loop_test(tc, tests[i].test, 0, tests[i].loops);
		else
			tcase_add_test(tc, tests[i].test);
	}
	suite_add_tcase(s, tc);
	return run_suite(s, flags);
}

int h_run_tests(const char *name, const TTest *const *tests, unsigned n)
{
	struct h_test t[64];
	if (n > 64) {
		fprintf(stderr, "h_run_tests: %u tests, at most 64\n", n);
		return EXIT_FAILURE;
	}
	for (unsigned i = 0; i < n; i++) {
		t[i].test = tests[i];
		t[i].loops = 0;
	}
	return h_run_table(name, 0, 0, t, n);
}
