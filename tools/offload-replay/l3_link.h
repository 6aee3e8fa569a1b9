/*
 * l3_link.h - the link types whose frames offload-replay gro and gso feed
 * to the engine as raw IP (ofl_gro_config.l2, ofl_gso_req.l2 =
 * OFL_L2_NONE; gro -i on an L3 interface too): the packet starts at
 * the IP header, after a pseudo-header of fixed length that is skipped by
 * pointing the frame past it (no copy).
 *
 *   RAW (LINKTYPE_RAW 101; DLT_RAW 12, or 14 on some BSDs), IPV4 (228),
 *   IPV6 (229): nothing to skip;
 *   NULL (0) and LOOP (108): a 4-byte address family (the writer's byte
 *   order for NULL, network order for LOOP; IPv4 2, IPv6 24, 28 or 30
 *   depending on the writer's OS);
 *   LINUX_SLL (113): 16 bytes; LINUX_SLL2 (276): 20 bytes.
 *
 * The family or protocol field is not read: the IP version in the first
 * nibble decides (every family value for IPv6 in either byte order is
 * taken), and a frame that is not IP (an ARP frame of a cooked capture) is
 * passed on untouched like any frame GRO does not take.  The output of such
 * a capture is LINKTYPE_RAW.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_REPLAY_L3_LINK_H
#define OFL_REPLAY_L3_LINK_H

#include <stdint.h>

#include "capture.h"

/** Bytes of pseudo-header before the IP header for a raw-IP link type
 *  (DLT_ value, as pcap_datalink() gives it), or -1 for any other. */
int l3_link_skip(uint32_t linktype);

/** The DLT_ value of the output of a raw-IP input (libpcap writes it as
 *  LINKTYPE_RAW, 101). */
uint32_t l3_link_out_linktype(void);

/** Point every frame of c past skip bytes (caplen and len reduced; a frame
 *  shorter than that is left empty) and set c->linktype to the output's. */
void l3_link_strip(struct replay_capture *c, unsigned skip);

#endif
