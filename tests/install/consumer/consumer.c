/*
 * consumer.c - the smallest program that uses an installed libofl: one GRO
 * context fed one TCP segment, one GSO request, one DSA lookup.  Built by
 * tests/install/run.cmake through find_package(ofl) and through pkg-config.
 */
#include <ofl/dsa.h>
#include <ofl/gro.h>
#include <ofl/gso.h>

#include <stdio.h>
#include <string.h>

static unsigned delivered;

static void deliver(void *user, const struct ofl_gro_out *pkts, unsigned n)
{
	(void)user;
	(void)pkts;
	delivered += n;
}

int main(void)
{
	static const uint8_t arp[60] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 1, 0x08, 0x06};
	struct ofl_gro_config cfg;
	struct ofl_gro *gro;
	struct ofl_gso_req req;
	const struct ofl_buf buf = {.data = arp, .len = sizeof arp};
	const struct ofl_pkt pkt = {.bufs = &buf, .nbufs = 1, .cookie = &delivered};

	if (strcmp(ofl_version(), OFL_VERSION_STRING) != 0 || ofl_gro_config_default(&cfg) != 0)
		return 1;
	cfg.deliver = deliver;
	if (ofl_gro_create(&cfg, &gro) != 0)
		return 1;
	if (ofl_gro_receive(gro, &pkt, 0) != OFL_GRO_NORMAL || ofl_gro_poll_end(gro, 1, 0, NULL) != 0)
		return 1;
	ofl_gro_destroy(gro);
	if (ofl_gso_req_default(&req) != 0 || ofl_dsa_find("edsa") == NULL || delivered != 1)
		return 1;
	printf("consumer: libofl %s OK\n", ofl_version());
	return 0;
}
