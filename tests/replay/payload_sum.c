/*
 * payload_sum.c - see payload_sum.h.
 */
#include "payload_sum.h"

#include <check.h>
#include <string.h>

struct flow_sum *flow_of(struct summary *s, const uint8_t *key)
{
	for (unsigned i = 0; i < s->nflows; i++)
		if (memcmp(s->flows[i].key, key, FC_KEY_LEN) == 0)
			return &s->flows[i];
	ck_assert_uint_lt(s->nflows, PS_MAX_FLOWS);
	struct flow_sum *f = &s->flows[s->nflows++];
	memcpy(f->key, key, FC_KEY_LEN);
	f->hash = 1469598103934665603ull;
	return f;
}

void summarize(const struct replay_capture *c, struct summary *s)
{
	memset(s, 0, sizeof *s);
	for (size_t i = 0; i < c->nframes; i++) {
		const struct replay_frame *fr = &c->frames[i];
		struct fc_tcp t;
		if (!fc_parse_tcp(fr->data, fr->caplen, &t))
			continue;
		if (t.csum_checkable && !fc_csums_ok(fr->data, &t))
			s->bad_csums++;
		struct flow_sum *f = flow_of(s, t.key);
		for (uint32_t b = 0; b < t.payload_len; b++)
			f->hash = (f->hash ^ fr->data[t.payload_off + b]) * 1099511628211ull;
		f->bytes += t.payload_len;
		s->payload += t.payload_len;
	}
}
