/*
 * gso_gre_ipip_kernel_test.c - GSO of GRE and IP in IP against the running
 * kernel's own: tests/fixtures/gso_gre_ipip/NAME/IN.pcap (a TCP super-packet
 * in GRE, inner Ethernet or inner IP with a key, or in IP in IP; outer and
 * inner IPv4/IPv6) and NAME/OUT.pcap, the segments Linux 6.18 made of it in
 * software (SKB_GSO_GRE / SKB_GSO_IPXIP4/6, set by bpf_skb_adjust_room in a tc
 * program: tests/gso/make-gre-ipip-fixtures.sh --kernel).  ofl_gso_start()
 * with the same MSS must give every segment byte for byte (full checksums,
 * as the kernel's software GSO writes them).  A GRE checksum has no kernel
 * fixture: the tc helper cannot ask for SKB_GSO_GRE_CSUM, and virtio_net_hdr
 * has no GRE type (tunnel-tshark.sh has tshark check ours instead).
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "gso_util.h"
#include "harness.h"

static const char *const cases[] = {
	"gre_o4_i4",  "gre_o4_i4_key_ip",  "gre_o4_i6",  "gre_o4_i6_key_ip",
	"gre_o6_i4",  "gre_o6_i4_key_ip",  "gre_o6_i6",  "gre_o6_i6_key_ip",
	"ipip_o4_i4", "ipip_o4_i6",        "ipip_o6_i4", "ipip_o6_i6",
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

START_TEST(test_kernel)
{
	const char *name = cases[_i];
	char path[1024];
	struct gu_pcap in, out;
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct ofl_buf b;
	static struct gu_segs segs;
	unsigned k;
	snprintf(path, sizeof(path), "%s/%s/IN.pcap", OFL_GSO_GRE_IPIP_FIXTURES, name);
	ck_assert_msg(gu_pcap_read(path, &in), "missing fixture %s", path);
	snprintf(path, sizeof(path), "%s/%s/OUT.pcap", OFL_GSO_GRE_IPIP_FIXTURES, name);
	ck_assert_msg(gu_pcap_read(path, &out), "missing fixture %s", path);
	ck_assert_uint_eq(in.n, 1);
	ck_assert_uint_gt(out.n, 1); /* the kernel did segment it */
	ofl_gso_req_default(&req);
	req.seg_size = 1400; /* the fixtures' gso_size */
	req.tunnel = strncmp(name, "gre", 3) == 0 ? OFL_GSO_TUN_GRE : OFL_GSO_TUN_IPIP;
	b.data = in.frame[0];
	b.len = in.len[0];
	ck_assert_msg(ofl_gso_start(&it, &req, &b, 1) == 0, "%s: %s", name, ofl_gso_why_str(ofl_gso_why(&it)));
	ck_assert_int_eq(gu_collect(&it, &segs, 8, 512), 0);
	ck_assert_uint_eq(segs.n, out.n);
	for (k = 0; k < out.n; k++) {
		ck_assert_uint_eq(segs.len[k], out.len[k]);
		ck_assert_msg(memcmp(segs.frame[k], out.frame[k], out.len[k]) == 0, "%s: segment %u differs",
		              name, k);
	}
	gu_segs_free(&segs);
	gu_pcap_free(&in);
	gu_pcap_free(&out);
}
END_TEST

int main(void)
{
	const struct h_test tests[] = {{test_kernel, (int)NCASES}};
	return h_run_table("gso_gre_ipip_kernel", 0, 0, tests, 1);
}
