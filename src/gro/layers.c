/*
 * layers.c - the table of layer stacks (layer.h): which layers a flow is
 * made of, outermost first, and the prediction mask derived from them.
 */
#include <string.h>

#include "gro/layer.h"

const struct gro_stack gro_stacks[GRO_NSTACKS] = {
	[GRO_STACK_TCP4] = {3, {&gro_layer_eth, &gro_layer_ipv4, &gro_layer_tcp}},
	[GRO_STACK_TCP6] = {3, {&gro_layer_eth, &gro_layer_ipv6, &gro_layer_tcp}},
	[GRO_STACK_RAW4] = {2, {&gro_layer_ipv4, &gro_layer_tcp}},
	[GRO_STACK_RAW6] = {2, {&gro_layer_ipv6, &gro_layer_tcp}},
	[GRO_STACK_UDP4] = {3, {&gro_layer_eth, &gro_layer_ipv4, &gro_layer_udp}},
	[GRO_STACK_UDP6] = {3, {&gro_layer_eth, &gro_layer_ipv6, &gro_layer_udp}},
	[GRO_STACK_RAWUDP4] = {2, {&gro_layer_ipv4, &gro_layer_udp}},
	[GRO_STACK_RAWUDP6] = {2, {&gro_layer_ipv6, &gro_layer_udp}},
	[GRO_STACK_TUN4] = {4, {&gro_layer_tun, &gro_layer_ipv4, &gro_layer_tcp, &gro_layer_gre}},
	[GRO_STACK_TUN6] = {4, {&gro_layer_tun, &gro_layer_ipv6, &gro_layer_tcp, &gro_layer_gre}},
};

unsigned gro_stack_pred_mask(const struct gro_stack *s, uint8_t *mask)
{
	return gro_layers_pred_mask(s->layer, s->n, mask);
}

unsigned gro_layers_pred_mask(const struct gro_layer *const *layer, unsigned n, uint8_t *mask)
{
	unsigned i, h, off = 0;
	memset(mask, 0xff, GRO_PRED_MAX);
	for (i = 0; i < n; i++) {
		const struct gro_layer *l = layer[i];
		for (h = 0; h < l->nholes; h++)
			memset(mask + off + l->holes[h].off, l->holes[h].keep, l->holes[h].len);
		off += l->plain_len;
	}
	if (n && layer[n - 1]->fixed_len)
		memset(mask + off, 0, GRO_PRED_MAX - off);
	return off;
}
