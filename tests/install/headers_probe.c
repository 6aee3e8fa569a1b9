/*
 * headers_probe.c - every public header together, one call into each,
 * compiled as C11 and as C++11 (tests/install/headers.cmake) and linked
 * against the shared library: in C++ a declaration outside extern "C" is
 * mangled and does not link.
 */
#include <ofl/csum.h>
#include <ofl/dsa.h>
#include <ofl/gro.h>
#include <ofl/gro_out.h>
#include <ofl/gso.h>
#include <ofl/ofl.h>
#include <ofl/pkt.h>
#include <ofl/vnet.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
	struct ofl_gro_config gcfg;
	struct ofl_gso_req req;
	static const unsigned char hello[2] = {0x45, 0x00};
	int bad = 0;
	if (strcmp(ofl_version(), OFL_VERSION_STRING) != 0)
		bad |= 1;
	if (ofl_gro_config_default(&gcfg) != 0 || ofl_gso_req_default(&req) != 0)
		bad |= 2;
	if (ofl_dsa_find("dsa") == NULL)
		bad |= 4;
	unsigned short folded = ofl_csum_fold(ofl_csum_partial(hello, sizeof hello, 0));
	unsigned char stored[2];
	memcpy(stored, &folded, 2); /* memory order: the complement of 45 00 */
	if (stored[0] != 0xba || stored[1] != 0xff)
		bad |= 8;
	printf("probe: version %s, %s\n", ofl_version(), bad ? "FAILED" : "every header callable");
	return bad;
}
