/*
 * gso_kernel_test.c - our segments against the Linux kernel's software GSO
 * on the same super-packets (tests/fixtures/gso/<name>/OUT.pcap, made once
 * by tests/gso/make-fixtures.sh with kernel-gso on Linux 6.18; the test
 * never runs the kernel).  Every segment must be byte-identical: headers
 * (lengths, IPv4 IDs, sequence numbers, PSH/FIN/CWR, UDP lengths), payload
 * and checksums, with full software checksums and with partial ones
 * completed here.  The committed IN.pcap must also still be what the
 * generator writes.
 *
 * The same super-packets without their Ethernet header, as a TUN device
 * hands them out, must give the kernel's segments without theirs: through
 * ofl_gso_start() with req.l2 = OFL_L2_NONE, and through
 * ofl_gso_start_vnet(OFL_GSO_L2_NONE) behind the virtio_net_hdr the kernel
 * writes (NEEDS_CSUM, gso_type TCPV4, TCPV6 or UDP_L4 = 5, the partial
 * checksum seed in the L4 checksum field).  Tagged fixtures are left out
 * (an IP packet carries no VLAN tag).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures.h"
#include "gso_util.h"
#include "harness.h"

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

/* The packet's L4 checksum field as virtio NEEDS_CSUM leaves it: the
 * pseudo-header sum, not inverted (independent of the library). */
static void seed_csum(uint8_t *ip, uint32_t len, uint32_t l4_off, int udp)
{
	uint8_t ph[40];
	uint32_t l4len = len - l4_off, n;
	uint16_t c;
	if ((ip[0] >> 4) == 4) {
		memcpy(ph, ip + 12, 8);
		n = 8;
	} else {
		memcpy(ph, ip + 8, 32);
		n = 32;
	}
	ph[n] = 0;
	ph[n + 1] = (uint8_t)(udp ? 17 : 6);
	ph[n + 2] = (uint8_t)(l4len >> 8);
	ph[n + 3] = (uint8_t)l4len;
	c = gen_csum_fold(ph, n + 4, 0); /* folded, not inverted */
	ip[l4_off + (udp ? 6 : 16)] = (uint8_t)(c >> 8);
	ip[l4_off + (udp ? 7 : 17)] = (uint8_t)c;
}

START_TEST(test_kernel_fixture_tun)
{
	const struct gso_fixture *x = &gso_fixtures[_i / 2];
	int vnet = _i & 1;
	struct gu_pcap in, out;
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	struct gu_segs *sg;
	struct gu_info gi;
	struct ofl_buf b[2];
	uint8_t vh[10], *ip;
	uint32_t iplen, l4;
	unsigned k;
	if (x->nvlan)
		return;
	sg = calloc(1, sizeof(*sg));
	load(x->name, "IN.pcap", &in);
	load(x->name, "OUT.pcap", &out);
	ck_assert(gu_parse(in.frame[0], in.len[0], &gi));
	ip = in.frame[0] + 14;
	iplen = in.len[0] - 14;
	l4 = (uint32_t)gi.ip.l4_off - 14;
	ofl_gso_req_default(&req);
	if (vnet) {
		/* virtio_net_hdr, little endian: NEEDS_CSUM, gso_type, hdr_len,
		 * gso_size, csum_start, csum_offset */
		uint32_t hl = (uint32_t)gi.payload_off - 14;
		vh[0] = 1;
		vh[1] = x->udp ? 5 : x->l3 == 4 ? 1 : 4;
		vh[2] = (uint8_t)hl;
		vh[3] = (uint8_t)(hl >> 8);
		vh[4] = (uint8_t)x->mss;
		vh[5] = (uint8_t)(x->mss >> 8);
		vh[6] = (uint8_t)l4;
		vh[7] = (uint8_t)(l4 >> 8);
		vh[8] = (uint8_t)(x->udp ? 6 : 16);
		vh[9] = 0;
		seed_csum(ip, iplen, l4, x->udp);
		b[0] = (struct ofl_buf){ vh, 10 };
		b[1] = (struct ofl_buf){ ip, iplen };
		ck_assert_int_eq(ofl_gso_start_vnet(&it, &req, 10, OFL_GSO_L2_NONE, b, 2), 0);
	} else {
		req.type = x->udp ? OFL_GSO_TYPE_UDP_L4 : OFL_GSO_TYPE_TCP;
		req.seg_size = x->mss;
		req.l2 = OFL_L2_NONE;
		b[0] = (struct ofl_buf){ ip, iplen };
		ck_assert_int_eq(ofl_gso_start(&it, &req, b, 1), 0);
	}
	ck_assert_int_eq(gu_collect(&it, sg, 3, 256), 0);
	ck_assert_uint_eq(sg->n, out.n);
	for (k = 0; k < sg->n; k++) {
		ck_assert_uint_eq(sg->seg[k].l3_off, 0);
		ck_assert_uint_eq(sg->len[k] + 14, out.len[k]);
		ck_assert_msg(memcmp(sg->frame[k], out.frame[k] + 14, sg->len[k]) == 0,
		              "%s (TUN%s): segment %u differs", x->name, vnet ? ", virtio_net_hdr" : "", k);
	}
	gu_segs_free(sg);
	free(sg);
	gu_pcap_free(&in);
	gu_pcap_free(&out);
}
END_TEST

H_MAIN("gso_kernel", 0, 0, {test_kernel_fixture, (int)(2 * GSO_NFIXTURES)},
	{test_kernel_fixture_tun, (int)(2 * GSO_NFIXTURES)})
