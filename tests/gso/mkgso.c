/*
 * mkgso.c - write the input super-packet of every kernel GSO fixture
 * (tests/gso/fixtures.h) as DIR/<name>/IN.pcap and print one line per
 * fixture: "name mss type" (type as kernel-gso --type wants it).
 *
 *     mkgso DIR [NAME...]
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fixtures.h"
#include "gso_util.h"

/* Build fixture x's frame into buf; returns its length. */
size_t mkgso_frame(const struct gso_fixture *x, uint8_t *buf, size_t cap);

size_t mkgso_frame(const struct gso_fixture *x, uint8_t *buf, size_t cap)
{
	if (x->udp) {
		struct gu_udp u;
		gu_udp_init(&u, x->l3);
		u.payload_len = x->payload;
		u.nvlan = x->nvlan;
		u.vlan_tci[0] = 100;
		u.vlan_tpid[0] = x->tpid0;
		u.vlan_tci[1] = 200;
		u.df = x->df;
		u.salt = 11;
		return gu_udp_frame(&u, buf, cap);
	} else {
		struct gen_tcp g;
		gen_tcp_init(&g, x->l3);
		g.payload_len = x->payload;
		g.flags = x->flags;
		g.nvlan = x->nvlan;
		g.vlan_tci[0] = 100;
		g.df = x->df;
		g.ip_id = 100;
		g.seq = 0x10000000u;
		g.flow_salt = 5;
		memset(g.ip_opts, 1, sizeof(g.ip_opts));
		g.ip_optlen = x->ip_optlen;
		if (x->ts)
			gen_opt_ts(&g, 123456, 654321);
		if (x->dstopts) {
			static const uint8_t dst[8] = { 6, 0, 1, 4, 0, 0, 0, 0 }; /* PadN */
			memcpy(g.ext, dst, 8);
			g.extlen = 8;
			g.ext_nh = 60;
		}
		return gen_tcp_frame(&g, buf, cap);
	}
}

#ifndef MKGSO_NO_MAIN
int main(int argc, char **argv)
{
	static uint8_t frame[70000];
	char path[1024];
	unsigned i;
	int j;
	if (argc < 2) {
		fprintf(stderr, "usage: mkgso DIR [NAME...]\n");
		return 2;
	}
	for (i = 0; i < GSO_NFIXTURES; i++) {
		const struct gso_fixture *x = &gso_fixtures[i];
		uint8_t *fp[1] = { frame };
		uint32_t len;
		int want = argc == 2;
		for (j = 2; j < argc; j++)
			want |= strcmp(argv[j], x->name) == 0;
		if (!want)
			continue;
		len = (uint32_t)mkgso_frame(x, frame, sizeof(frame));
		snprintf(path, sizeof(path), "%s/%s", argv[1], x->name);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/%s/IN.pcap", argv[1], x->name);
		if (!len || !gu_pcap_write(path, fp, &len, 1)) {
			fprintf(stderr, "mkgso: cannot write %s\n", path);
			return 1;
		}
		printf("%s %u %s%d\n", x->name, x->mss, x->udp ? "udp" : "tcp", x->l3);
	}
	return 0;
}
#endif
