/*
 * dsa_briefdiff.c - ofl_dsa_decode() wrapped: every frame a test decodes is
 * also decoded by ofl_dsa_decode_brief() and compared (dsa_briefdiff.h).
 */
#include "dsa_briefdiff.h"

#include <check.h>
#include <ofl/dsa.h>
#include <stdlib.h>
#include <string.h>

int __real_ofl_dsa_decode(const struct ofl_dsa_ops *ops, const struct ofl_dsa_params *params,
                          int dir, const uint8_t *frame, uint32_t len,
                          struct ofl_dsa_meta *meta, struct ofl_dsa_view *view);
int __wrap_ofl_dsa_decode(const struct ofl_dsa_ops *ops, const struct ofl_dsa_params *params,
                          int dir, const uint8_t *frame, uint32_t len,
                          struct ofl_dsa_meta *meta, struct ofl_dsa_view *view);

static size_t compared; /* test-side bookkeeping, one process per test */

size_t dsa_briefdiff_count(void)
{
	return compared;
}

#define FAIL_IF(cond, ...)                                                     \
	do {                                                                   \
		if (cond)                                                      \
			ck_abort_msg(__VA_ARGS__);                             \
	} while (0)

static void compare(const struct ofl_dsa_ops *ops, const struct ofl_dsa_params *params,
                    int dir, const uint8_t *src, uint32_t len)
{
	const char *name = ops->name;
	struct ofl_dsa_decoder d;
	struct ofl_dsa_meta m, mc;
	struct ofl_dsa_view v, vc;
	struct ofl_dsa_cut c;
	struct ofl_dsa_brief b, untouched;
	uint8_t *fr = malloc(len ? len : 1);
	int rc, rcb, rcc;

	FAIL_IF(!fr, "briefdiff: malloc");
	memcpy(fr, src, len);
	FAIL_IF(ofl_dsa_decoder_init(&d, sizeof(d), ops, params, dir) != 0,
	        "briefdiff %s dir %d: decoder_init", name, dir);
	rc = __real_ofl_dsa_decode(ops, params, dir, fr, len, &m, &v);
	memset(&b, 0xA5, sizeof(b));
	untouched = b;
	rcb = ofl_dsa_decode_brief(&d, fr, len, &b);
	FAIL_IF(rcb != rc, "briefdiff %s dir %d len %u: decode %d, brief %d", name, dir, len, rc,
	        rcb);
	if (rc != 0) {
		FAIL_IF(memcmp(&b, &untouched, sizeof(b)) != 0,
		        "briefdiff %s dir %d len %u: brief written on error", name, dir, len);
		free(fr);
		compared++;
		return;
	}
	FAIL_IF(b.flags != m.flags || b.valid != (m.valid & (OFL_DSA_M_PORT | OFL_DSA_M_SWITCH)) ||
	                b.port != m.port || b.switch_id != m.switch_id,
	        "briefdiff %s dir %d len %u: brief flags %#x valid %#x port %u switch %u, "
	        "meta flags %#x valid %#x port %u switch %u",
	        name, dir, len, b.flags, b.valid, b.port, b.switch_id, m.flags, m.valid, m.port,
	        m.switch_id);
	FAIL_IF(memcmp(b.reserved, untouched.reserved, sizeof(b.reserved)) != 0,
	        "briefdiff %s: reserved written", name);
	rcc = ofl_dsa_decode_cut(&d, fr, len, &mc, &c);
	FAIL_IF(rcc != 0, "briefdiff %s dir %d len %u: decode_cut %d", name, dir, len, rcc);
	FAIL_IF(b.cut.mac_off != c.mac_off || b.cut.rest_off != c.rest_off ||
	                b.cut.tail_len != c.tail_len || b.cut.ins_len != c.ins_len ||
	                b.cut.mac_patched != c.mac_patched ||
	                (c.ins_len <= sizeof(c.ins) && memcmp(b.cut.ins, c.ins, c.ins_len) != 0),
	        "briefdiff %s dir %d len %u: the brief's cut differs from decode_cut's", name, dir,
	        len);
	FAIL_IF(ofl_dsa_cut_view(ops, fr, len, &b.cut, &vc) != 0, "briefdiff %s: cut_view", name);
	FAIL_IF(vc.hdr_len != v.hdr_len || vc.mac_off != v.mac_off || vc.rest_off != v.rest_off ||
	                vc.rest_len != v.rest_len || vc.tag_off != v.tag_off ||
	                vc.tag_len != v.tag_len || vc.tail_len != v.tail_len ||
	                vc.ins_len != v.ins_len || vc.mac_patched != v.mac_patched ||
	                memcmp(vc.hdr, v.hdr, v.hdr_len) != 0,
	        "briefdiff %s dir %d len %u: the brief's view differs", name, dir, len);
	free(fr);
	compared++;
}

int __wrap_ofl_dsa_decode(const struct ofl_dsa_ops *ops, const struct ofl_dsa_params *params,
                          int dir, const uint8_t *frame, uint32_t len,
                          struct ofl_dsa_meta *meta, struct ofl_dsa_view *view)
{
	int rc = __real_ofl_dsa_decode(ops, params, dir, frame, len, meta, view);

	/* what a decoder cannot be prepared for (NULL arguments, unknown
	 * direction, a format without codec) is the full decode's alone */
	if (ops && ops->codec && frame && meta && (dir == OFL_DSA_RX || dir == OFL_DSA_TX) &&
	    rc != OFL_EINVAL)
		compare(ops, params, dir, frame, len);
	return rc;
}
