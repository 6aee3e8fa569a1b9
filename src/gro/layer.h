/*
 * layer.h - the protocol layers of the GRO engine and the stacks of them a
 * flow is made of (the kernel's chain of gro_receive/gro_complete, flattened
 * into a table at hold time).
 *
 * A layer is one file (eth.c, ipv4.c, ipv6.c, tcp.c, udp.c, tunnel.c,
 * gre.c) that defines one struct gro_layer: how long its header is in the plain shape header
 * prediction covers, which of those bytes may differ from one segment to the
 * next (its "holes": the fields its own rules check, as the length, ID and
 * checksum of IPv4 or the sequence number of TCP), and how a merged packet's
 * header is completed.  A stack (layers.c) is the layers of one kind of
 * flow, outermost first; the prediction masks are derived from the stacks at
 * create time (create.c) and completion walks the flow's stack (deliver.c).
 *
 * Raw-IP input (OFL_L2_NONE) is the stacks without the Ethernet layer: IP
 * is the first layer, parsed by ofl_parse_raw() (core/parse.c).
 *
 * Adding a layer: a file with its struct gro_layer, a value in enum
 * gro_stack_id and a row in gro_stacks[] for each stack it appears in (the
 * prediction masks' array is sized by hand: a static assert in create.c
 * says when it must grow); its parse into the flow key is still
 * core/parse.c's and receive.c's.  docs/guide.md, "Inside the engine",
 * walks through the steps.
 */
#ifndef OFL_GRO_LAYER_H
#define OFL_GRO_LAYER_H

#include "gro/gro_int.h"

/* Bytes [off, off + len) of a layer's header may differ between segments;
 * keep: the bits of each of them still compared (0: none). */
struct gro_hole {
	uint8_t off, len, keep;
};

#define GRO_LAYER_HOLES 4

struct gro_layer {
	const char *name;
	uint8_t plain_len;   /* header bytes in the shape prediction covers */
	uint8_t fixed_len;   /* 1: the header is always plain_len bytes, what
	                        follows it is payload (UDP); 0: it may grow
	                        (TCP options), compared whole */
	uint8_t nholes;
	struct gro_hole holes[GRO_LAYER_HOLES];
	/* rewrite the merged packet's header of this layer (NULL: nothing) */
	void (*complete)(struct gro_item *it);
};

extern const struct gro_layer gro_layer_eth, gro_layer_ipv4, gro_layer_ipv6, gro_layer_tcp, gro_layer_udp,
    gro_layer_tun, gro_layer_gre;

/* The stacks, indexed by struct gro_item.stack (and the prediction masks,
 * struct ofl_gro.pmask, by the same index). */
enum gro_stack_id {
	GRO_STACK_TCP4 = 0, /* Ethernet, IPv4, TCP */
	GRO_STACK_TCP6 = 1,
	GRO_STACK_RAW4 = 2, /* raw-IP input (OFL_L2_NONE): IPv4, TCP */
	GRO_STACK_RAW6 = 3,
	GRO_STACK_UDP4 = 4, /* Ethernet, IPv4, UDP (udp.c; predicted when plain: udp.h) */
	GRO_STACK_UDP6 = 5,
	GRO_STACK_RAWUDP4 = 6, /* raw-IP input: IPv4, UDP */
	GRO_STACK_RAWUDP6 = 7,
	GRO_STACK_TUN4 = 8, /* outer headers and tunnel (tunnel.c), inner IPv4, TCP
	                     * (VXLAN/Geneve flows predicted by tunfast.c), then
	                     * the GRE checksum (gre.c; never predicted) */
	GRO_STACK_TUN6 = 9,
	GRO_NSTACKS
};
#define GRO_STACK_MAX 4

struct gro_stack {
	uint8_t n;
	const struct gro_layer *layer[GRO_STACK_MAX];
};

extern const struct gro_stack gro_stacks[GRO_NSTACKS];

/* The stack of a flow of L3 4 or 6 over TCP, over Ethernet (raw 0) or
 * first in the packet (raw 1). */
static inline uint8_t gro_stack_of_l3(unsigned l3, unsigned raw)
{
	return (uint8_t)((l3 == 4 ? GRO_STACK_TCP4 : GRO_STACK_TCP6) + 2u * raw);
}

/* The same for a flow of the L4 protocol of a parse (6 TCP, 17 UDP). */
static inline uint8_t gro_stack_of(const struct ofl_hdrs *h, unsigned raw)
{
	return (uint8_t)(gro_stack_of_l3(h->l3, raw) + (h->l4proto == 17 ? GRO_STACK_UDP4 : 0));
}

/* Is the stack a UDP one (udp.c)? */
static inline int gro_stack_udp(unsigned stack)
{
	return stack >= GRO_STACK_UDP4 && stack <= GRO_STACK_RAWUDP6;
}

/* Is the stack a tunnel one (tunnel.c)? */
static inline int gro_stack_tun(unsigned stack)
{
	return stack >= GRO_STACK_TUN4;
}

/* Where a flow's L4 checksum field sits in its L4 header. */
static inline unsigned gro_stack_csum_off(unsigned stack)
{
	return gro_stack_udp(stack) ? 6u : 16u;
}

/* Complete a merged packet's headers, outermost layer first. */
static inline void gro_stack_complete(struct gro_item *it)
{
	const struct gro_stack *s = &gro_stacks[it->stack];
	unsigned i;
	for (i = 0; i < s->n; i++)
		if (s->layer[i]->complete)
			s->layer[i]->complete(it);
}

/* Fill a prediction mask (GRO_PRED_MAX bytes) for a stack: 0xff where the
 * next segment must repeat the held header, the holes' keep bits elsewhere,
 * 0 past the header when the last layer has a fixed length (its payload).
 * Returns the plain header length of the stack. */
unsigned gro_stack_pred_mask(const struct gro_stack *s, uint8_t *mask);
/* The same for n layers, outermost first (a tunnel's longer stack:
 * tunfast.c). */
unsigned gro_layers_pred_mask(const struct gro_layer *const *layer, unsigned n, uint8_t *mask);

#endif
