/*
 * gso_only.c - a GSO-only program: it includes ofl/gso.h alone (which must
 * not bring in ofl/gro.h) and refers to every GSO entry point, and is linked
 * against the static library; tests/install.cmake (gso_links_without_gro)
 * then checks that no ofl_gro_ symbol came along.
 */
#include <ofl/gso.h>

#include <stdio.h>

#ifdef OFL_GRO_H
#error "ofl/gso.h includes ofl/gro.h"
#endif

typedef void (*any_fn)(void);

int main(void)
{
	/* every entry point referenced, so each of their objects is linked */
	static const any_fn fns[] = {
		(any_fn)ofl_gso_pool_init_block, (any_fn)ofl_gso_pool_init_freelist,
		(any_fn)ofl_gso_pool_init_array, (any_fn)ofl_gso_pool_seek,
		(any_fn)ofl_gso_pool_get,        (any_fn)ofl_gso_pool_put,
		(any_fn)ofl_gso_req_default,     (any_fn)ofl_gso_start,
		(any_fn)ofl_gso_start_gro,       (any_fn)ofl_gso_vnet_read,
		(any_fn)ofl_gso_req_from_vnet,   (any_fn)ofl_gso_start_vnet,
		(any_fn)ofl_gso_count,           (any_fn)ofl_gso_check_pool,
		(any_fn)ofl_gso_next,            (any_fn)ofl_gso_next_burst,
		(any_fn)ofl_gso_unnext,          (any_fn)ofl_gso_run,
		(any_fn)ofl_gso_abort,           (any_fn)ofl_gso_dsa_prepare,
		(any_fn)ofl_gso_req_set_dsa,     (any_fn)ofl_gso_dsa_finish,
	};
	static const unsigned char vnet[10] = { 1, 1, 54, 0, 0xa8, 0x05, 34, 0, 16, 0 };
	struct ofl_virtio_net_hdr vh;
	struct ofl_gso_req req;
	unsigned i, n = 0;
	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		n += fns[i] != NULL;
	if (ofl_gso_req_default(&req) != 0 || ofl_gso_vnet_read(vnet, sizeof(vnet), &vh) != 0 ||
	    ofl_gso_req_from_vnet(&vh, &req) != 1 || req.seg_size != 1448) {
		printf("gso_only: FAILED\n");
		return 1;
	}
	printf("gso_only: %u entry points linked, segment size %u from a virtio_net_hdr\n", n,
	       (unsigned)req.seg_size);
	return 0;
}
