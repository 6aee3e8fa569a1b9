/*
 * eth.c - the Ethernet layer: MAC addresses and EtherType are part of the
 * flow (compared whole by header prediction, in the flow key otherwise);
 * VLAN tags and a DSA tag in front of it are parsed by core/parse.c and the
 * DSA codecs and also belong to the flow key.  Nothing to complete.
 */
#include "gro/layer.h"

const struct gro_layer gro_layer_eth = {
	.name = "eth",
	.plain_len = 14,
	.nholes = 0,
	.complete = NULL,
};
