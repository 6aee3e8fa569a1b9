/*
 * gso_kernel_test.c - our segments against the Linux kernel's software GSO
 * on the same super-packets (tests/fixtures/gso/<name>/OUT.pcap, made once
 * by tests/gso/make-fixtures.sh with kernel-gso on Linux 6.18; the test
 * never runs the kernel).  Every segment must be byte-identical: headers
 * (lengths, IPv4 IDs, sequence numbers, PSH/FIN/CWR, UDP lengths), payload
 * and checksums, with full software checksums and with partial ones
 * completed here.  The committed IN.pcap must also still be what the
 * generator writes.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures.h"
#include "gso_util.h"

size_t mkgso_frame(const struct gso_fixture *x, uint8_t *buf, size_t cap);

static void load(const char *name, const char *file, struct gu_pcap *p)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s/%s", OFL_GSO_FIXTURES, name, file);
	ck_assert_msg(gu_pcap_read(path, p), "cannot read %s", path);
}

START_TEST(test_kernel_fixture)
{
	const struct gso_fixture *x = &gso_fixtures[_i / 2];
	int partial = _i & 1;
	static uint8_t frame[70000];
	struct gu_pcap in, out;
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct gu_segs *sg = calloc(1, sizeof(*sg));
	struct ofl_buf b;
	size_t len = mkgso_frame(x, frame, sizeof(frame));
	unsigned k;
	load(x->name, "IN.pcap", &in);
	load(x->name, "OUT.pcap", &out);
	ck_assert_uint_eq(in.n, 1);
	ck_assert_uint_eq(in.len[0], len);
	ck_assert_mem_eq(in.frame[0], frame, len);
	b.data = in.frame[0];
	b.len = in.len[0];
	ofl_gso_req_default(&req);
	req.type = x->udp ? OFL_GSO_TYPE_UDP_L4 : OFL_GSO_TYPE_TCP;
	req.seg_size = x->mss;
	req.csum = partial ? OFL_CSUM_MODE_PARTIAL : OFL_CSUM_MODE_FULL;
	ck_assert_int_eq(ofl_gso_start(&it, &req, &b, 1), 0);
	ck_assert_int_eq(gu_collect(&it, sg, 3, 256), 0);
	ck_assert_uint_eq(sg->n, out.n);
	for (k = 0; k < sg->n; k++) {
		if (partial)
			gu_complete_csum(sg->frame[k], sg->len[k], sg->seg[k].csum_start, sg->seg[k].csum_offset);
		ck_assert_uint_eq(sg->len[k], out.len[k]);
		ck_assert_msg(memcmp(sg->frame[k], out.frame[k], out.len[k]) == 0, "%s: segment %u differs",
		              x->name, k);
		ck_assert(gu_csums_ok(out.frame[k], out.len[k]));
	}
	gu_segs_free(sg);
	free(sg);
	gu_pcap_free(&in);
	gu_pcap_free(&out);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("gso_kernel");
	TCase *tc = tcase_create("kernel");
	tcase_add_loop_test(tc, test_kernel_fixture, 0, (int)(2 * GSO_NFIXTURES));
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return gu_run(suite());
}
