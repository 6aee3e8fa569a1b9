/*
 * dsa_vectors_test.c - byte vectors written by hand from the kernel's
 * taggers (net/dsa/tag_*.c .xmit for TX, .rcv for RX), at least one each
 * way per format, with the padding Linux applies before tagging, plus tags
 * the kernel's .rcv refuses and the special cases (802.1Q folding, mtk TPID
 * overwrite, FCS, timestamps, sja1105/sja1110 management frames, params).
 *
 * A vector is an untagged base frame plus the tag bytes and where they go;
 * the tagged frame is built from those pieces, so each vector checks:
 * encode(base, meta) == tagged bytes (when the vector says so),
 * decode(tagged) gives the listed meta fields and flags exactly, and the
 * untagged view gives back the (padded) base.
 */
#include <check.h>
#include <ofl/dsa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

enum { AT_AFTER_SA, AT_BEFORE_DA, AT_TAIL };

#define RX OFL_DSA_RX
#define TX OFL_DSA_TX
#define MP OFL_DSA_M_PORT
#define MM OFL_DSA_M_PORT_MASK
#define MS OFL_DSA_M_SWITCH
#define MPR OFL_DSA_M_PRIO
#define MC OFL_DSA_M_CMD
#define MCO OFL_DSA_M_CODE
#define MA OFL_DSA_M_AUX
#define MV OFL_DSA_M_VLAN
#define MT OFL_DSA_M_TSTAMP

struct vec {
	const char *fmt;
	int dir;
	int base_len;       /* 18 (short, shows padding) or 60 */
	int at;
	uint8_t tag[24];
	uint8_t tag_len;
	uint8_t pad_to;     /* base padded to this before tagging (0: none) */
	struct ofl_dsa_meta meta; /* encode input = expected decode fields */
	uint32_t flags;     /* expected decode flags, exactly */
	int encode;         /* also compare the encoder's bytes */
};

#define META(v, ...) { .valid = (v), __VA_ARGS__ }

static const struct vec vecs[] = {
	/* brcm: TX opcode 1, TC in byte 0 bits 4:2, port bitmap; pad to 64 */
	{ "brcm", TX, 18, AT_AFTER_SA, { 0x2c, 0x00, 0x00, 0x20 }, 4, 64,
	  META(MP | MM | MPR, .port = 5, .port_mask = 0x20, .prio = 3), 0, 1 },
	{ "brcm", TX, 60, AT_AFTER_SA, { 0x20, 0x00, 0x01, 0x00 }, 4, 64,
	  META(MP | MM, .port = 8, .port_mask = 0x100), 0, 1 },
	/* brcm RX: opcode 0, CID, reason "exception", TC 2, port 5 */
	{ "brcm", RX, 60, AT_AFTER_SA, { 0x00, 0x07, 0x20, 0x45 }, 4, 0,
	  META(MP | MPR | MA | MCO, .port = 5, .prio = 2, .aux = 7, .code = 0x20), 0, 1 },
	{ "brcm-prepend", TX, 18, AT_BEFORE_DA, { 0x20, 0x00, 0x00, 0x01 }, 4, 64,
	  META(MP | MM, .port = 0, .port_mask = 1), 0, 1 },
	{ "brcm-prepend", RX, 60, AT_BEFORE_DA, { 0x00, 0x00, 0x08, 0x03 }, 4, 0,
	  META(MP | MCO, .port = 3, .code = 0x08), 0, 1 },
	/* brcm-legacy: 0x8874, type egress on TX, port in byte 5; pad to 66 */
	{ "brcm-legacy", TX, 18, AT_AFTER_SA, { 0x88, 0x74, 0x40, 0, 0, 0x03 }, 6, 66,
	  META(MP | MM | MC, .port = 3, .port_mask = 8, .cmd = 2), 0, 1 },
	{ "brcm-legacy", RX, 60, AT_AFTER_SA, { 0x88, 0x74, 0x00, 0, 0, 0x04 }, 6, 0,
	  META(MP | MC, .port = 4, .cmd = 0), 0, 1 },
	{ "brcm-legacy-fcs", RX, 60, AT_AFTER_SA, { 0x88, 0x74, 0x00, 0, 0, 0x0c }, 6, 0,
	  META(MP, .port = 12), 0, 1 },
	/* dsa: FROM_CPU dev 0 port 2, untagged, VID 0 */
	{ "dsa", TX, 60, AT_AFTER_SA, { 0x40, 0x10, 0x00, 0x00 }, 4, 0,
	  META(MP | MS | MC | MV, .port = 2, .switch_id = 0, .cmd = 1, .vlan_tci = 0), 0, 1 },
	/* dsa: FORWARD dev 1 port 3, untagged, VID 1337 PCP 5 */
	{ "dsa", RX, 60, AT_AFTER_SA, { 0xc1, 0x18, 0xa5, 0x39 }, 4, 0,
	  META(MP | MS | MPR | MC | MV, .port = 3, .switch_id = 1, .prio = 5, .cmd = 3,
	       .vlan_tci = 0xa539), 0, 1 },
	/* dsa: TO_CPU MGMT_TRAP port 1 (trapped), ARP_MIRROR (not trapped) */
	{ "dsa", RX, 60, AT_AFTER_SA, { 0x00, 0x08, 0x00, 0x00 }, 4, 0,
	  META(MP | MC | MCO, .port = 1, .cmd = 0, .code = 0), OFL_DSA_MF_TRAPPED, 1 },
	{ "dsa", RX, 60, AT_AFTER_SA, { 0x00, 0x0c, 0x00, 0x00 }, 4, 0,
	  META(MP | MC | MCO, .port = 1, .cmd = 0, .code = 4), 0, 1 },
	{ "edsa", TX, 60, AT_AFTER_SA, { 0xda, 0xda, 0, 0, 0x40, 0x10, 0x00, 0x00 }, 8, 0,
	  META(MP | MC | MA, .port = 2, .cmd = 1, .aux = 0), 0, 1 },
	{ "edsa", RX, 60, AT_AFTER_SA, { 0xda, 0xda, 0, 0, 0xc0, 0x00, 0x00, 0x00 }, 8, 0,
	  META(MP | MS | MC, .port = 0, .switch_id = 0, .cmd = 3), 0, 1 },
	/* gswip: TX 4 bytes (CPU, LAN, map enable+select, ports<<1 | DPID_EN),
	 * RX 8 bytes with the port in byte 7 bits 6:4 */
	{ "gswip", TX, 60, AT_BEFORE_DA, { 0x02, 0x00, 0xc0, 0x11 }, 4, 0,
	  META(MP | MM, .port = 3, .port_mask = 8), 0, 1 },
	{ "gswip", RX, 60, AT_BEFORE_DA, { 0, 0, 0, 0, 0, 0, 0, 0x50 }, 8, 0,
	  META(MP, .port = 5), 0, 1 },
	/* ksz9477: TX 16-bit big-endian port bit | prio << 7; pad to 60 */
	{ "ksz9477", TX, 18, AT_TAIL, { 0x00, 0x84 }, 2, 60,
	  META(MP | MM | MPR, .port = 2, .port_mask = 4, .prio = 1), 0, 1 },
	{ "ksz9477", RX, 60, AT_TAIL, { 0x12, 0x34, 0x56, 0x78, 0x83 }, 5, 0,
	  META(MP | MT, .port = 3, .tstamp = 0x12345678), 0, 1 },
	{ "ksz9477", RX, 60, AT_TAIL, { 0x05 }, 1, 0, META(MP, .port = 5), 0, 1 },
	{ "ksz9893", TX, 18, AT_TAIL, { 0x12 }, 1, 60,
	  META(MP | MPR, .port = 1, .prio = 2), 0, 1 },
	{ "ksz9893", RX, 60, AT_TAIL, { 0x02 }, 1, 0, META(MP, .port = 2), 0, 1 },
	{ "ksz8795", TX, 18, AT_TAIL, { 0x02 }, 1, 60, META(MP, .port = 1), 0, 1 },
	{ "ksz8795", RX, 60, AT_TAIL, { 0x02 }, 1, 0, META(MP, .port = 2), 0, 1 },
	{ "lan937x", TX, 60, AT_TAIL, { 0x23, 0x20 }, 2, 0,
	  META(MP | MPR, .port = 5, .prio = 3), 0, 1 },
	{ "lan937x", RX, 60, AT_TAIL, { 0x07 }, 1, 0, META(MP, .port = 7), 0, 1 },
	/* lan9303: VID = port | STP override on TX; RX STP trap bit */
	{ "lan9303", TX, 60, AT_AFTER_SA, { 0x81, 0x00, 0x00, 0x11 }, 4, 0,
	  META(MP, .port = 1), OFL_DSA_MF_OVERRIDE, 1 },
	{ "lan9303", RX, 60, AT_AFTER_SA, { 0x81, 0x00, 0x00, 0x12 }, 4, 0,
	  META(MP | MCO, .port = 2, .code = 2), OFL_DSA_MF_TRAPPED, 1 },
	/* mtk: untagged TX, port bitmap in byte 1; RX port in byte 1 bits 2:0 */
	{ "mtk", TX, 60, AT_AFTER_SA, { 0x00, 0x10, 0x00, 0x00 }, 4, 0,
	  META(MP, .port = 4), 0, 1 },
	{ "mtk", RX, 60, AT_AFTER_SA, { 0x00, 0x05, 0x00, 0x00 }, 4, 0,
	  META(MP, .port = 5), 0, 1 },
	/* qca: version 2; TX from_cpu | port bit; RX type/prio/port */
	{ "qca", TX, 60, AT_AFTER_SA, { 0x80, 0x88 }, 2, 0,
	  META(MP | MPR, .port = 3, .prio = 0), 0, 1 },
	{ "qca", RX, 60, AT_AFTER_SA, { 0x98, 0x02 }, 2, 0,
	  META(MP | MPR | MC, .port = 2, .prio = 3, .cmd = 0), 0, 1 },
	{ "qca", RX, 60, AT_AFTER_SA, { 0x80, 0x40 }, 2, 0,
	  META(MP | MC, .port = 0, .cmd = 1), OFL_DSA_MF_CONTROL, 1 },
	/* trailer: TX 80 | 1<<port | 10 | 00, pad 60; RX 80 | port | 0 | 0 */
	{ "trailer", TX, 18, AT_TAIL, { 0x80, 0x04, 0x10, 0x00 }, 4, 60,
	  META(MP, .port = 2), 0, 1 },
	{ "trailer", RX, 60, AT_TAIL, { 0x80, 0x03, 0x00, 0x00 }, 4, 0,
	  META(MP, .port = 3), 0, 1 },
	/* tag_8021q: VID = 11 RSV | switch << 6 | port, PCP = priority */
	{ "8021q", TX, 60, AT_AFTER_SA, { 0x81, 0x00, 0x4c, 0x43 }, 4, 0,
	  META(MP | MS | MPR, .port = 3, .switch_id = 1, .prio = 2), 0, 1 },
	{ "8021q", RX, 60, AT_AFTER_SA, { 0x81, 0x00, 0x0c, 0x85 }, 4, 0,
	  META(MP | MS, .port = 5, .switch_id = 2), 0, 1 },
	{ "sja1105", TX, 60, AT_AFTER_SA, { 0xda, 0xdb, 0x0c, 0x03 }, 4, 0,
	  META(MP | MS, .port = 3, .switch_id = 0), 0, 1 },
	{ "sja1105", RX, 60, AT_AFTER_SA, { 0xda, 0xdb, 0x0c, 0x01 }, 4, 0,
	  META(MP | MS, .port = 1, .switch_id = 0), 0, 1 },
	{ "sja1105", RX, 60, AT_AFTER_SA, { 0x81, 0x00, 0x0c, 0x01 }, 4, 0,
	  META(MP | MS, .port = 1, .switch_id = 0), 0, 0 },
	{ "ocelot-8021q", TX, 60, AT_AFTER_SA, { 0x81, 0x00, 0x0c, 0x01 }, 4, 0,
	  META(MP, .port = 1), 0, 1 },
	{ "ocelot-8021q", RX, 60, AT_AFTER_SA, { 0x81, 0x00, 0xac, 0x01 }, 4, 0,
	  META(MP | MPR, .port = 1, .prio = 5), 0, 1 },
	{ "vsc73xx-8021q", TX, 60, AT_AFTER_SA, { 0x81, 0x00, 0x2c, 0x02 }, 4, 0,
	  META(MP | MPR, .port = 2, .prio = 1), 0, 1 },
	{ "vsc73xx-8021q", RX, 60, AT_AFTER_SA, { 0x81, 0x00, 0x0c, 0x04 }, 4, 0,
	  META(MP, .port = 4), 0, 1 },
	{ "sja1110", TX, 60, AT_AFTER_SA, { 0xda, 0xdb, 0x0c, 0x01 }, 4, 0,
	  META(MP, .port = 1), 0, 1 },
	/* sja1110 RX in-band header, trap format: port 7:4, switch 3:0 */
	{ "sja1110", RX, 60, AT_AFTER_SA, { 0xda, 0xdc, 0x00, 0x21 }, 4, 0,
	  META(MP | MS, .port = 2, .switch_id = 1), OFL_DSA_MF_LINK_LOCAL, 0 },
	/* ocelot/seville: 4-byte prefix + 16-byte IFH */
	{ "ocelot", TX, 60, AT_BEFORE_DA,
	  { 0x88, 0x80, 0x00, 0x0a, 0x80, 0, 0, 0, 0, 0, 0, 0, 0x04, 0, 0x30, 0, 0, 0x06, 0, 0 },
	  20, 0, META(MP | MPR, .port = 2, .prio = 3), 0, 1 },
	{ "ocelot", RX, 60, AT_BEFORE_DA,
	  { 0x88, 0x80, 0x00, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x20, 0, 0, 0x02, 0x00, 0x64 },
	  20, 0, META(MP | MPR | MV, .port = 4, .prio = 1, .vlan_tci = 0x64), 0, 1 },
	{ "seville", TX, 60, AT_BEFORE_DA,
	  { 0x88, 0x80, 0x00, 0x05, 0x80, 0, 0, 0, 0, 0, 0, 0, 0x08, 0, 0x50, 0, 0, 0, 0, 0 },
	  20, 0, META(MP, .port = 2), 0, 1 },
	{ "seville", RX, 60, AT_BEFORE_DA,
	  { 0x88, 0x80, 0x00, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x48, 0, 0, 0, 0, 0 },
	  20, 0, META(MP, .port = 9), 0, 0 },
	/* ar9331: little-endian, version 1, from_cpu on TX, port number */
	{ "ar9331", TX, 60, AT_BEFORE_DA, { 0x72, 0x40 }, 2, 0,
	  META(MP, .port = 2), 0, 1 },
	{ "ar9331", RX, 60, AT_BEFORE_DA, { 0x33, 0x50 }, 2, 0,
	  META(MP | MPR, .port = 3, .prio = 1), 0, 1 },
	/* rtl4a: 0x8899, protocol A; TX port bitmap, pad to 60 */
	{ "rtl4a", TX, 18, AT_AFTER_SA, { 0x88, 0x99, 0xa0, 0x02 }, 4, 60,
	  META(MP, .port = 1), 0, 1 },
	{ "rtl4a", RX, 60, AT_AFTER_SA, { 0x88, 0x99, 0xa0, 0x03 }, 4, 0,
	  META(MP, .port = 3), 0, 1 },
	{ "hellcreek", TX, 18, AT_TAIL, { 0x04 }, 1, 60, META(MP, .port = 2), 0, 1 },
	{ "hellcreek", RX, 60, AT_TAIL, { 0x02 }, 1, 0, META(MP, .port = 2), 0, 1 },
	{ "xrs700x", TX, 18, AT_TAIL, { 0x04 }, 1, 60, META(MP, .port = 2), 0, 1 },
	{ "xrs700x", RX, 60, AT_TAIL, { 0x04 }, 1, 0, META(MP, .port = 2), 0, 1 },
	/* rtl8_4: 0x8899, protocol 4, LEARN_DIS + port mask on TX; reason 80 */
	{ "rtl8_4", TX, 60, AT_AFTER_SA, { 0x88, 0x99, 0x04, 0x00, 0x00, 0x20, 0x00, 0x04 },
	  8, 0, META(MP, .port = 2), OFL_DSA_MF_LEARN_DIS, 1 },
	{ "rtl8_4", RX, 60, AT_AFTER_SA, { 0x88, 0x99, 0x04, 0x50, 0x00, 0x00, 0x00, 0x03 },
	  8, 0, META(MP | MCO, .port = 3, .code = 80), OFL_DSA_MF_TRAPPED, 1 },
	{ "rtl8_4t", TX, 18, AT_TAIL, { 0x88, 0x99, 0x04, 0x00, 0x00, 0x20, 0x00, 0x04 },
	  8, 60, META(MP, .port = 2), OFL_DSA_MF_LEARN_DIS, 1 },
	{ "rtl8_4t", RX, 60, AT_TAIL, { 0x88, 0x99, 0x04, 0x00, 0x00, 0x00, 0x00, 0x03 },
	  8, 0, META(MP | MCO, .port = 3, .code = 0), 0, 1 },
	/* a5psw: 0xE001, force forward, port bitmap in the last word; pad 60 */
	{ "a5psw", TX, 18, AT_AFTER_SA, { 0xe0, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02 },
	  8, 60, META(MP, .port = 1), 0, 1 },
	{ "a5psw", RX, 60, AT_AFTER_SA, { 0xe0, 0x01, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00 },
	  8, 0, META(MP, .port = 3), 0, 1 },
	/* yt921x: 0x9988, TCI, w2 (code valid), w3 (ports valid | mask) */
	{ "yt921x", TX, 60, AT_AFTER_SA, { 0x99, 0x88, 0x00, 0x00, 0x00, 0x80, 0x80, 0x04 },
	  8, 0, META(MP | MCO | MPR, .port = 2, .code = 0, .prio = 0), 0, 1 },
	{ "yt921x", RX, 60, AT_AFTER_SA, { 0x99, 0x88, 0x00, 0x00, 0x9a, 0xb2, 0x00, 0x00 },
	  8, 0, META(MP | MPR | MCO, .port = 3, .prio = 2, .code = 0x19), OFL_DSA_MF_TRAPPED, 1 },
	/* yt921x RX trapped only for the unknown-unicast and unknown-multicast
	 * codes (0x19, 0x1A) with the code enabled, the frames that
	 * net/dsa/tag_yt921x.c yt921x_tag_rcv() leaves without an offload
	 * forward mark */
	{ "yt921x", RX, 60, AT_AFTER_SA, { 0x99, 0x88, 0x00, 0x00, 0x9a, 0xb4, 0x00, 0x00 },
	  8, 0, META(MP | MPR | MCO, .port = 3, .prio = 2, .code = 0x1a), OFL_DSA_MF_TRAPPED, 1 },
	{ "yt921x", RX, 60, AT_AFTER_SA, { 0x99, 0x88, 0x00, 0x00, 0x9a, 0xb6, 0x00, 0x00 },
	  8, 0, META(MP | MPR | MCO, .port = 3, .prio = 2, .code = 0x1b), 0, 1 },
	{ "yt921x", RX, 60, AT_AFTER_SA, { 0x99, 0x88, 0x00, 0x00, 0x9a, 0xb0, 0x00, 0x00 },
	  8, 0, META(MP | MPR | MCO, .port = 3, .prio = 2, .code = 0x18), 0, 1 },
	{ "yt921x", RX, 60, AT_AFTER_SA, { 0x99, 0x88, 0x00, 0x00, 0x9a, 0x32, 0x00, 0x00 },
	  8, 0, META(MP | MPR, .port = 3, .prio = 2), 0, 0 },
	/* bit 0 of w2 is not part of the code */
	{ "yt921x", RX, 60, AT_AFTER_SA, { 0x99, 0x88, 0x00, 0x00, 0x9a, 0xb5, 0x00, 0x00 },
	  8, 0, META(MP | MPR | MCO, .port = 3, .prio = 2, .code = 0x1a), OFL_DSA_MF_TRAPPED, 0 },
	/* gsw1xx: 0x88C3, map enable | learning off | ports; RX port = w1 15:8 */
	{ "gsw1xx", TX, 60, AT_AFTER_SA, { 0x88, 0xc3, 0x90, 0x02, 0, 0, 0, 0 }, 8, 0,
	  META(MP, .port = 1), OFL_DSA_MF_LEARN_DIS, 1 },
	{ "gsw1xx", RX, 60, AT_AFTER_SA, { 0x88, 0xc3, 0x04, 0x00, 0, 0, 0, 0 }, 8, 0,
	  META(MP, .port = 4), 0, 1 },
	/* mxl862xx: sub-interface = port + 16 - cpu port (default 0) */
	{ "mxl862xx", TX, 60, AT_AFTER_SA, { 0x88, 0xc3, 0, 0, 0, 0x11, 0, 0 }, 8, 0,
	  META(MP, .port = 1), 0, 1 },
	{ "mxl862xx", RX, 60, AT_AFTER_SA, { 0x88, 0xc3, 0, 0, 0, 0, 0, 0x05 }, 8, 0,
	  META(MP, .port = 5), 0, 1 },
	/* netc: 0xFD3A, type, QV|IPV, port << 3 | switch */
	{ "nxp_netc", TX, 60, AT_AFTER_SA, { 0xfd, 0x3a, 0x10, 0x01, 0x11, 0x00 }, 6, 0,
	  META(MP | MS | MPR | MC, .port = 2, .switch_id = 1, .prio = 0, .cmd = 0x10), 0, 1 },
	{ "nxp_netc", RX, 60, AT_AFTER_SA, { 0xfd, 0x3a, 0x00, 0x00, 0x19, 0x00 }, 6, 0,
	  META(MP | MS | MC, .port = 3, .switch_id = 1, .cmd = 0), 0, 1 },
	{ "nxp_netc", RX, 60, AT_AFTER_SA, { 0xfd, 0x3a, 0x20, 0x15, 0x19, 0x00 }, 6, 0,
	  META(MP | MS | MPR | MC, .port = 3, .switch_id = 1, .prio = 5, .cmd = 0x20),
	  OFL_DSA_MF_TRAPPED, 1 },
	{ "none", RX, 60, AT_AFTER_SA, { 0 }, 0, 0, META(0), 0, 1 },
	{ "none", TX, 18, AT_AFTER_SA, { 0 }, 0, 0, META(0), 0, 1 },
};

#define NVECS (sizeof(vecs) / sizeof(vecs[0]))

static void make_base(uint8_t *f, int len)
{
	static const uint8_t hdr[14] = { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 8, 0 };

	memcpy(f, hdr, 14);
	f[14] = 0xde;
	f[15] = 0xad;
	f[16] = 0xbe;
	f[17] = 0xef;
	for (int i = 18; i < len; i++)
		f[i] = (uint8_t)i;
}

/* tagged frame from base (already padded to ulen) and tag */
static uint32_t build(uint8_t *out, const uint8_t *base, uint32_t ulen, int at,
                      const uint8_t *tag, uint32_t tag_len)
{
	switch (at) {
	case AT_BEFORE_DA:
		memcpy(out, tag, tag_len);
		memcpy(out + tag_len, base, ulen);
		break;
	case AT_TAIL:
		memcpy(out, base, ulen);
		memcpy(out + ulen, tag, tag_len);
		break;
	default:
		memcpy(out, base, 12);
		memcpy(out + 12, tag, tag_len);
		memcpy(out + 12 + tag_len, base + 12, ulen - 12);
		break;
	}
	return ulen + tag_len;
}

static void expect_meta(const struct ofl_dsa_meta *want, uint32_t flags,
                        const struct ofl_dsa_meta *got, const char *where)
{
	uint32_t v = want->valid;

	ck_assert_msg((got->valid & v) == v, "%s: valid %x lacks %x", where,
	              got->valid, v);
	ck_assert_msg(got->flags == flags, "%s: flags %x, want %x", where,
	              got->flags, flags);
	if (v & MP)
		ck_assert_msg(got->port == want->port, "%s: port %u", where, got->port);
	if (v & MM)
		ck_assert_msg(got->port_mask == want->port_mask, "%s: mask %x", where,
		              got->port_mask);
	if (v & MS)
		ck_assert_msg(got->switch_id == want->switch_id, "%s: switch", where);
	if (v & MPR)
		ck_assert_msg(got->prio == want->prio, "%s: prio %u", where, got->prio);
	if (v & MC)
		ck_assert_msg(got->cmd == want->cmd, "%s: cmd %u", where, got->cmd);
	if (v & MCO)
		ck_assert_msg(got->code == want->code, "%s: code %u", where, got->code);
	if (v & MA)
		ck_assert_msg(got->aux == want->aux, "%s: aux %u", where, got->aux);
	if (v & MV)
		ck_assert_msg(got->vlan_tci == want->vlan_tci, "%s: tci %x", where,
		              got->vlan_tci);
	if (v & MT)
		ck_assert_msg(got->tstamp == want->tstamp, "%s: tstamp", where);
}

static void check_untagged(const uint8_t *tagged, uint32_t len,
                           const struct ofl_dsa_view *v, const uint8_t *want,
                           uint32_t wlen, const char *where)
{
	struct ofl_buf pc[2];

	ck_assert_int_eq(ofl_dsa_untagged(tagged, len, v, pc), 2);
	ck_assert_msg(pc[0].len + pc[1].len == wlen, "%s: untagged %u bytes, want %u",
	              where, pc[0].len + pc[1].len, wlen);
	ck_assert_msg(!memcmp(pc[0].data, want, pc[0].len) &&
	              !memcmp(pc[1].data, want + pc[0].len, pc[1].len),
	              "%s: untagged bytes", where);
}

START_TEST(test_vector)
{
	const struct vec *x = &vecs[_i];
	const struct ofl_dsa_ops *o = ofl_dsa_find(x->fmt);
	uint8_t base[128] = { 0 }, tagged[160], buf[256];
	uint32_t ulen = (uint32_t)x->base_len, tlen, off = 64, len;
	struct ofl_dsa_meta m;
	struct ofl_dsa_view v;
	char where[96];

	snprintf(where, sizeof(where), "vector %d (%s %s)", _i, x->fmt,
	         x->dir == TX ? "TX" : "RX");
	ck_assert_ptr_nonnull(o);
	make_base(base, x->base_len);
	if (x->pad_to > ulen)
		ulen = x->pad_to; /* base[] is zero beyond base_len */
	tlen = build(tagged, base, ulen, x->at, x->tag, x->tag_len);

	if (x->encode) {
		memset(buf, 0xEE, sizeof(buf));
		make_base(buf + off, x->base_len);
		len = (uint32_t)x->base_len;
		ck_assert_int_eq(ofl_dsa_encode(o, NULL, x->dir, &x->meta, buf,
		                                sizeof(buf), &off, &len), 0);
		ck_assert_msg(len == tlen, "%s: encoded %u bytes, want %u", where, len, tlen);
		ck_assert_msg(!memcmp(buf + off, tagged, tlen), "%s: encoded bytes", where);
	}
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, x->dir, tagged, tlen, &m, &v), 0);
	expect_meta(&x->meta, x->flags, &m, where);
	check_untagged(tagged, tlen, &v, base, ulen, where);
}
END_TEST

/* --- tags the kernel's rcv refuses (and TX layouts .xmit never makes) --- */

struct bad {
	const char *fmt;
	int dir;
	int at;
	uint8_t tag[20];
	uint8_t tag_len;
	const char *why;
};

static const struct bad bads[] = {
	{ "brcm", RX, AT_AFTER_SA, { 0x20, 0, 0, 0x05 }, 4, "opcode 1 on RX" },
	{ "brcm", RX, AT_AFTER_SA, { 0x00, 0, 0x40, 0x05 }, 4, "reserved reason bit 6" },
	{ "brcm", RX, AT_AFTER_SA, { 0x00, 0, 0x80, 0x05 }, 4, "reserved reason bit 7" },
	{ "brcm", TX, AT_AFTER_SA, { 0x00, 0, 0x00, 0x01 }, 4, "opcode 0 on TX" },
	{ "brcm-prepend", RX, AT_BEFORE_DA, { 0x40, 0, 0, 0x01 }, 4, "opcode 2" },
	{ "brcm-legacy", RX, AT_AFTER_SA, { 0x88, 0x75, 0, 0, 0, 1 }, 6, "EtherType" },
	{ "brcm-legacy-fcs", TX, AT_AFTER_SA, { 0x88, 0x74, 0x40, 0x42, 0, 1 }, 6,
	  "length field and FCS do not match" },
	{ "dsa", RX, AT_AFTER_SA, { 0x40, 0x10, 0, 0 }, 4, "FROM_CPU on RX" },
	{ "dsa", RX, AT_AFTER_SA, { 0x80, 0x10, 0, 0 }, 4, "TO_SNIFFER" },
	{ "dsa", RX, AT_AFTER_SA, { 0x00, 0x08, 0x10, 0 }, 4, "FRAME2REG" },
	{ "dsa", RX, AT_AFTER_SA, { 0x00, 0x0e, 0x00, 0 }, 4, "reserved code 6" },
	{ "dsa", RX, AT_AFTER_SA, { 0x00, 0x0e, 0x10, 0 }, 4, "reserved code 7" },
	{ "dsa", TX, AT_AFTER_SA, { 0x00, 0x08, 0, 0 }, 4, "TO_CPU on TX" },
	/* RX takes any EtherType, as the kernel (dsa_kernel_rules_test) */
	{ "edsa", TX, AT_AFTER_SA, { 0xda, 0xdb, 0, 0, 0x40, 0, 0, 0 }, 8, "EtherType on TX" },
	{ "edsa", RX, AT_AFTER_SA, { 0xda, 0xda, 0, 0, 0x40, 0, 0, 0 }, 8, "FROM_CPU" },
	{ "gswip", TX, AT_BEFORE_DA, { 0x02, 0, 0x00, 0x11 }, 4, "no port map enable" },
	{ "lan9303", RX, AT_AFTER_SA, { 0x88, 0xa8, 0, 0x01 }, 4, "TPID" },
	{ "lan937x", TX, AT_TAIL, { 0x00, 0x20 }, 2, "valid bit clear" },
	{ "mtk", TX, AT_AFTER_SA, { 0x03, 0x01, 0, 0 }, 4, "unknown TPID kind" },
	{ "qca", RX, AT_AFTER_SA, { 0x40, 0x02 }, 2, "version 1" },
	{ "qca", RX, AT_AFTER_SA, { 0xc0, 0x02 }, 2, "version 3" },
	{ "qca", TX, AT_AFTER_SA, { 0x80, 0x08 }, 2, "no from-CPU bit" },
	{ "ar9331", RX, AT_BEFORE_DA, { 0x72, 0x40 }, 2, "from-CPU bit on RX" },
	{ "ar9331", RX, AT_BEFORE_DA, { 0x32, 0x00 }, 2, "version 0" },
	{ "ar9331", RX, AT_BEFORE_DA, { 0x32, 0x80 }, 2, "version 2" },
	{ "trailer", RX, AT_TAIL, { 0x81, 0x03, 0, 0 }, 4, "marker" },
	{ "trailer", RX, AT_TAIL, { 0x80, 0x0b, 0, 0 }, 4, "port bits 7:3" },
	{ "trailer", RX, AT_TAIL, { 0x80, 0x03, 0x01, 0 }, 4, "byte 2" },
	{ "trailer", RX, AT_TAIL, { 0x80, 0x03, 0x00, 0x01 }, 4, "byte 3" },
	{ "rtl4a", RX, AT_AFTER_SA, { 0x88, 0x98, 0xa0, 0x03 }, 4, "EtherType" },
	{ "rtl4a", RX, AT_AFTER_SA, { 0x88, 0x99, 0x90, 0x03 }, 4, "protocol 9" },
	{ "rtl8_4", RX, AT_AFTER_SA, { 0x88, 0x98, 0x04, 0, 0, 0, 0, 1 }, 8, "EtherType" },
	{ "rtl8_4", RX, AT_AFTER_SA, { 0x88, 0x99, 0x05, 0, 0, 0, 0, 1 }, 8, "protocol 5" },
	{ "rtl8_4t", RX, AT_TAIL, { 0x88, 0x99, 0x05, 0, 0, 0, 0, 1 }, 8, "protocol 5" },
	{ "xrs700x", RX, AT_TAIL, { 0x00 }, 1, "no port bit" },
	{ "a5psw", RX, AT_AFTER_SA, { 0xe0, 0x02, 0, 3, 0, 0, 0, 0 }, 8, "EtherType" },
	{ "yt921x", RX, AT_AFTER_SA, { 0x99, 0x89, 0, 0, 0x9a, 0xb2, 0, 0 }, 8, "EtherType" },
	{ "yt921x", RX, AT_AFTER_SA, { 0x99, 0x88, 0, 0, 0x1a, 0xb2, 0, 0 }, 8, "port not valid" },
	{ "gsw1xx", RX, AT_AFTER_SA, { 0x88, 0xc4, 4, 0, 0, 0, 0, 0 }, 8, "EtherType" },
	{ "mxl862xx", RX, AT_AFTER_SA, { 0x88, 0xc4, 0, 0, 0, 0, 0, 5 }, 8, "EtherType" },
	{ "nxp_netc", RX, AT_AFTER_SA, { 0xfd, 0x3b, 0, 0, 0x19, 0 }, 6, "TPID" },
	{ "nxp_netc", RX, AT_AFTER_SA, { 0xfd, 0x3a, 0, 0, 0x18, 0 }, 6, "switch id 0" },
	{ "nxp_netc", RX, AT_AFTER_SA, { 0xfd, 0x3a, 0x21, 0, 0x19, 0 }, 6, "To_Host subtype 1" },
	{ "nxp_netc", RX, AT_AFTER_SA, { 0xfd, 0x3a, 0x10, 0, 0x19, 0 }, 6, "To_Port on RX" },
	{ "nxp_netc", RX, AT_AFTER_SA, { 0xfd, 0x3a, 0x30, 0, 0x19, 0 }, 6, "type 3" },
	{ "ocelot-8021q", RX, AT_AFTER_SA, { 0x81, 0x00, 0x00, 0x64 }, 4, "not a tag_8021q VID" },
	{ "ocelot-8021q", RX, AT_AFTER_SA, { 0x81, 0x00, 0x0e, 0x00 }, 4, "bridge VID, no port" },
	{ "ocelot-8021q", RX, AT_AFTER_SA, { 0x88, 0xa8, 0x0c, 0x01 }, 4, "TPID" },
	{ "sja1105", RX, AT_AFTER_SA, { 0 }, 0, "no VLAN, not link-local" },
	{ "sja1110", RX, AT_AFTER_SA, { 0xda, 0xdc, 0x80, 0x21 }, 4, "host-to-switch header on RX" },
	{ "ocelot", TX, AT_BEFORE_DA, { 0x88, 0x80, 0x00, 0x05, 0x80 }, 20, "seville prefix" },
	{ "ocelot", TX, AT_BEFORE_DA, { 0x88, 0x80, 0x00, 0x0a, 0x00 }, 20, "no bypass" },
};

#define NBADS (sizeof(bads) / sizeof(bads[0]))

START_TEST(test_refused)
{
	const struct bad *x = &bads[_i];
	const struct ofl_dsa_ops *o = ofl_dsa_find(x->fmt);
	uint8_t base[128], tagged[160];
	struct ofl_dsa_meta m;
	struct ofl_dsa_view v;
	uint32_t tlen;

	ck_assert_ptr_nonnull(o);
	make_base(base, 66);
	tlen = build(tagged, base, 66, x->at, x->tag, x->tag_len);
	ck_assert_msg(ofl_dsa_decode(o, NULL, x->dir, tagged, tlen, &m, &v) == OFL_EBADMSG,
	              "%s: %s accepted", x->fmt, x->why);
}
END_TEST

/* --- special cases ------------------------------------------------------ */

static void encode_expect(const char *fmt, const struct ofl_dsa_params *p, int dir,
                          const struct ofl_dsa_meta *m, const uint8_t *in,
                          uint32_t ilen, const uint8_t *want, uint32_t wlen)
{
	const struct ofl_dsa_ops *o = ofl_dsa_find(fmt);
	uint8_t buf[256];
	uint32_t off = 64, len = ilen;

	memcpy(buf + off, in, ilen);
	ck_assert_int_eq(ofl_dsa_encode(o, p, dir, m, buf, sizeof(buf), &off, &len), 0);
	ck_assert_uint_eq(len, wlen);
	ck_assert_msg(!memcmp(buf + off, want, wlen), "%s: bytes", fmt);
}

/* Linux folds an 802.1Q header into the DSA tag (CFI moves to byte 1).
 * Kernel path: net/dsa/tag_dsa.c dsa_xmit() -> dsa_xmit_ll(), the
 * skb->protocol == ETH_P_8021Q branch. */
START_TEST(test_dsa_fold_vlan)
{
	const struct ofl_dsa_ops *o = ofl_dsa_find("dsa");
	uint8_t in[64], want[64];
	struct ofl_dsa_meta m = { .valid = MP, .port = 2 }, d;
	struct ofl_dsa_view v;

	make_base(in, 64);
	in[12] = 0x81; in[13] = 0x00; in[14] = 0x30; in[15] = 0x64; /* PCP 1 CFI VID 100 */
	memcpy(want, in, 64);
	want[12] = 0x60; want[13] = 0x11; want[14] = 0x20; want[15] = 0x64;
	encode_expect("dsa", NULL, TX, &m, in, 64, want, 64);
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, TX, want, 64, &d, &v), 0);
	ck_assert(d.flags & OFL_DSA_MF_TAGGED);
	ck_assert_uint_eq(d.vlan_tci, 0x3064);
	check_untagged(want, 64, &v, in, 64, "dsa fold");

	/* RX FORWARD tagged, CFI set: the view rebuilds 81 00 B5 39 */
	{
		uint8_t rx[64], exp[64];
		uint32_t s, l;

		make_base(rx, 64);
		rx[12] = 0xe0; rx[13] = 0x19; rx[14] = 0xa5; rx[15] = 0x39;
		memcpy(exp, rx, 64);
		exp[12] = 0x81; exp[13] = 0x00; exp[14] = 0xb5; exp[15] = 0x39;
		ck_assert_int_eq(ofl_dsa_decode(o, NULL, RX, rx, 64, &d, &v), 0);
		ck_assert(d.flags & OFL_DSA_MF_TAGGED);
		ck_assert_uint_eq(d.port, 3);
		check_untagged(rx, 64, &v, exp, 64, "dsa rx tagged");
		ck_assert_int_eq(ofl_dsa_strip(rx, 64, &v, &s, &l), 0);
		ck_assert_uint_eq(s, 0);
		ck_assert_mem_eq(rx, exp, 64);
	}
}
END_TEST

/* mtk overwrites only the TPID of an 802.1Q frame */
START_TEST(test_mtk_tagged)
{
	const struct ofl_dsa_ops *o = ofl_dsa_find("mtk");
	uint8_t in[64], want[64];
	struct ofl_dsa_meta m = { .valid = MP, .port = 1 }, d;
	struct ofl_dsa_view v;

	make_base(in, 64);
	in[12] = 0x81; in[13] = 0x00; in[14] = 0x00; in[15] = 0x64;
	memcpy(want, in, 64);
	want[12] = 0x01; want[13] = 0x02;
	encode_expect("mtk", NULL, TX, &m, in, 64, want, 64);
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, TX, want, 64, &d, &v), 0);
	ck_assert_uint_eq(d.vlan_tci, 0x64);
	ck_assert_uint_eq(d.port_mask, 2);
	check_untagged(want, 64, &v, in, 64, "mtk tagged");
	/* 802.1ad */
	in[12] = 0x88; in[13] = 0xa8;
	want[12] = 0x02;
	encode_expect("mtk", NULL, TX, &m, in, 64, want, 64);
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, TX, want, 64, &d, &v), 0);
	ck_assert(d.flags & OFL_DSA_MF_VLAN_S);
	check_untagged(want, 64, &v, in, 64, "mtk 802.1ad");
}
END_TEST

/* brcm-legacy-fcs: pad to 66, length in the tag, FCS of the untagged frame */
START_TEST(test_brcm_legacy_fcs)
{
	const struct ofl_dsa_ops *o = ofl_dsa_find("brcm-legacy-fcs");
	static const uint8_t tag[6] = { 0x88, 0x74, 0x40, 0x42, 0x00, 0x03 };
	static const uint8_t fcs[4] = { 0xcb, 0xb9, 0x65, 0x52 }; /* zlib.crc32 */
	uint8_t in[80] = { 0 }, want[80], bad[80];
	struct ofl_dsa_meta m = { .valid = MP, .port = 3 }, d;
	struct ofl_dsa_view v;
	uint32_t n;

	make_base(in, 18);
	n = build(want, in, 66, AT_AFTER_SA, tag, 6);
	memcpy(want + n, fcs, 4);
	n += 4;
	ck_assert_uint_eq(n, 76);
	encode_expect("brcm-legacy-fcs", NULL, TX, &m, in, 18, want, n);
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, TX, want, n, &d, &v), 0);
	ck_assert_uint_eq(d.port, 3);
	ck_assert_uint_eq(v.tail_len, 4);
	check_untagged(want, n, &v, in, 66, "legacy fcs");
	memcpy(bad, want, n);
	bad[n - 1] ^= 1;
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, TX, bad, n, &d, &v), OFL_EBADMSG);
}
END_TEST

/* brcm-legacy with the BCM63xx extra VLAN tag removed with it */
START_TEST(test_brcm_legacy_vlan)
{
	const struct ofl_dsa_ops *o = ofl_dsa_find("brcm-legacy");
	static const uint8_t tag[10] = { 0x88, 0x74, 0, 0, 0, 0x02, 0x81, 0x00, 0x00, 0x01 };
	struct ofl_dsa_params p;
	uint8_t base[64], f[80];
	struct ofl_dsa_meta d;
	struct ofl_dsa_view v;
	uint32_t n;

	ofl_dsa_params_default(&p);
	p.flags = OFL_DSA_P_BRCM_LEGACY_VLAN;
	make_base(base, 60);
	n = build(f, base, 60, AT_AFTER_SA, tag, 10);
	ck_assert_int_eq(ofl_dsa_decode(o, &p, RX, f, n, &d, &v), 0);
	ck_assert_uint_eq(d.port, 2);
	check_untagged(f, n, &v, base, 60, "legacy vlan");
	/* without the flag the VLAN stays in the frame */
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, RX, f, n, &d, &v), 0);
	ck_assert_uint_eq(v.rest_off, 18);
}
END_TEST

/* ksz9477 with hardware timestamping: 4 timestamp bytes before the tag */
START_TEST(test_ksz_ptp)
{
	const struct ofl_dsa_ops *o = ofl_dsa_find("ksz9477");
	static const uint8_t tail[6] = { 0x01, 0x02, 0x03, 0x04, 0x00, 0x02 };
	struct ofl_dsa_params p;
	struct ofl_dsa_meta m = { .valid = MP | MT, .port = 1, .tstamp = 0x01020304 }, d;
	struct ofl_dsa_view v;
	uint8_t base[64], want[80];
	uint32_t n;

	ofl_dsa_params_default(&p);
	p.flags = OFL_DSA_P_KSZ_PTP;
	make_base(base, 60);
	n = build(want, base, 60, AT_TAIL, tail, 6);
	encode_expect("ksz9477", &p, TX, &m, base, 60, want, n);
	ck_assert_int_eq(ofl_dsa_decode(o, &p, TX, want, n, &d, &v), 0);
	ck_assert_uint_eq(d.port, 1);
	ck_assert_uint_eq(d.tstamp, 0x01020304);
	check_untagged(want, n, &v, base, 60, "ksz ptp");
	/* link-local destination: Linux sets the override bit (bit 9) */
	base[0] = 0x01; base[1] = 0x80; base[2] = 0xc2; base[3] = 0; base[4] = 0; base[5] = 0x0e;
	m.valid = MP;
	{
		static const uint8_t t2[2] = { 0x02, 0x02 };

		n = build(want, base, 60, AT_TAIL, t2, 2);
		encode_expect("ksz9477", NULL, TX, &m, base, 60, want, n);
	}
}
END_TEST

/* mxl862xx with the CPU port at 9: sub-interface 1 + 16 - 9 = 8 */
START_TEST(test_mxl862xx_cpu_port)
{
	const struct ofl_dsa_ops *o = ofl_dsa_find("mxl862");
	static const uint8_t tag[8] = { 0x88, 0xc3, 0, 0, 0, 0x08, 0, 0x09 };
	struct ofl_dsa_params p;
	struct ofl_dsa_meta m = { .valid = MP, .port = 1 }, d;
	struct ofl_dsa_view v;
	uint8_t base[64], want[80];
	uint32_t n;

	ofl_dsa_params_default(&p);
	p.cpu_port = 9;
	make_base(base, 60);
	n = build(want, base, 60, AT_AFTER_SA, tag, 8);
	encode_expect("mxl862xx", &p, TX, &m, base, 60, want, n);
	ck_assert_int_eq(ofl_dsa_decode(o, &p, TX, want, n, &d, &v), 0);
	ck_assert_uint_eq(d.port, 1);
	/* another CPU port in params: not this switch's tag */
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, TX, want, n, &d, &v), OFL_EBADMSG);
}
END_TEST

/* tag_8021q: other VLANs carry no port; bridge VIDs; a custom TPID */
START_TEST(test_8021q_variants)
{
	const struct ofl_dsa_ops *q = ofl_dsa_find("8021q");
	const struct ofl_dsa_ops *vsc = ofl_dsa_find("vsc73xx-8021q");
	static const uint8_t plain[4] = { 0x81, 0x00, 0x00, 0x64 };
	static const uint8_t bridge[4] = { 0x81, 0x00, 0x0e, 0x10 };
	static const uint8_t ad[4] = { 0x88, 0xa8, 0x0c, 0x02 };
	struct ofl_dsa_params p;
	struct ofl_dsa_meta m = { .valid = OFL_DSA_M_VBID, .vbid = 5 }, d;
	struct ofl_dsa_view v;
	uint8_t base[64], f[80];
	uint32_t n;

	make_base(base, 60);
	n = build(f, base, 60, AT_AFTER_SA, plain, 4);
	ck_assert_int_eq(ofl_dsa_decode(vsc, NULL, RX, f, n, &d, &v), 0);
	ck_assert_uint_eq(d.valid, MV);
	ck_assert_uint_eq(d.vlan_tci, 0x64);
	ck_assert_uint_eq(v.rest_off, 12); /* the VLAN stays */
	check_untagged(f, n, &v, f, n, "ordinary VLAN");

	n = build(f, base, 60, AT_AFTER_SA, bridge, 4);
	encode_expect("8021q", NULL, TX, &m, base, 60, f, n);
	ck_assert_int_eq(ofl_dsa_decode(q, NULL, TX, f, n, &d, &v), 0);
	ck_assert(!(d.valid & MP));
	ck_assert_uint_eq(d.vbid, 5);
	check_untagged(f, n, &v, base, 60, "bridge VID");

	ofl_dsa_params_default(&p);
	p.tpid = 0x88a8;
	m.valid = MP;
	m.port = 2;
	n = build(f, base, 60, AT_AFTER_SA, ad, 4);
	encode_expect("8021q", &p, TX, &m, base, 60, f, n);
	ck_assert_int_eq(ofl_dsa_decode(q, &p, RX, f, n, &d, &v), 0);
	ck_assert_uint_eq(d.port, 2);
	ck_assert_int_eq(ofl_dsa_decode(q, NULL, RX, f, n, &d, &v), OFL_EBADMSG);
}
END_TEST

/* sja1105: link-local frames carry port/switch in DA bytes 3-4; meta frames */
START_TEST(test_sja1105_mgmt)
{
	const struct ofl_dsa_ops *o = ofl_dsa_find("sja1105");
	uint8_t f[64], want[64], meta_f[64] = { 0 };
	struct ofl_dsa_meta d;
	struct ofl_dsa_view v;
	uint32_t s, l;

	make_base(f, 64);
	f[0] = 0x01; f[1] = 0x80; f[2] = 0xc2; f[3] = 0x03; f[4] = 0x01; f[5] = 0x00;
	memcpy(want, f, 64);
	want[3] = 0;
	want[4] = 0;
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, RX, f, 64, &d, &v), 0);
	ck_assert_uint_eq(d.port, 3);
	ck_assert_uint_eq(d.switch_id, 1);
	ck_assert_uint_eq(d.flags, OFL_DSA_MF_LINK_LOCAL | OFL_DSA_MF_TRAPPED);
	ck_assert_uint_eq(v.mac_patched, 1);
	check_untagged(f, 64, &v, want, 64, "sja1105 link-local");
	ck_assert_int_eq(ofl_dsa_strip(f, 64, &v, &s, &l), 0);
	ck_assert_mem_eq(f + s, want, 64);

	/* the meta follow-up frame */
	static const uint8_t mh[14] = { 0x01, 0x80, 0xc2, 0, 0, 0x0e,
	                                0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x00, 0x08 };
	memcpy(meta_f, mh, 14);
	meta_f[14] = 0x11; meta_f[15] = 0x22; meta_f[16] = 0x33; meta_f[17] = 0x44;
	meta_f[18] = 0x01; meta_f[19] = 0x03; meta_f[20] = 0x02; meta_f[21] = 0x00;
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, RX, meta_f, 64, &d, &v), 0);
	ck_assert(d.flags & OFL_DSA_MF_CONTROL);
	ck_assert_uint_eq(d.tstamp, 0x11223344);
	ck_assert_uint_eq(d.port, 2);
	ck_assert_uint_eq(d.switch_id, 0);
}
END_TEST

/* sja1110: RX timestamp trailer; TX management header + VLAN 4095 + trailer */
START_TEST(test_sja1110_mgmt)
{
	const struct ofl_dsa_ops *o = ofl_dsa_find("sja1110");
	uint8_t base[64], f[128], want[128];
	struct ofl_dsa_meta m = { .valid = MP, .port = 1 }, d;
	struct ofl_dsa_view v;
	uint32_t n;

	make_base(base, 60);
	/* RX: header with trailer, padding starts at 64, 3 pad bytes, trailer */
	memcpy(f, base, 12);
	f[12] = 0xda; f[13] = 0xdc; f[14] = 0x10; f[15] = 0x40;
	memcpy(f + 16, base + 12, 48);
	memset(f + 64, 0xaa, 3);
	for (int i = 0; i < 8; i++)
		f[67 + i] = (uint8_t)(i + 1);
	memset(f + 75, 0, 4);
	f[79] = 0x15;
	n = 80;
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, RX, f, n, &d, &v), 0);
	ck_assert_uint_eq(d.port, 5);
	ck_assert_uint_eq(d.switch_id, 1);
	ck_assert_uint_eq(d.tstamp, 0x0102030405060708ull);
	check_untagged(f, n, &v, base, 60, "sja1110 trailer");
	f[15] = 0x45; /* padding start past the trailer */
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, RX, f, n, &d, &v), OFL_EBADMSG);

	/* TX of a link-local frame */
	base[0] = 0x01; base[1] = 0x80; base[2] = 0xc2; base[3] = 0; base[4] = 0; base[5] = 0x0e;
	memcpy(want, base, 12);
	want[12] = 0xda; want[13] = 0xdc; want[14] = 0x88; want[15] = 0x44; /* pos 68 */
	want[16] = 0xda; want[17] = 0xdb; want[18] = 0x0f; want[19] = 0xff;
	memcpy(want + 20, base + 12, 48);
	want[68] = 0; want[69] = 0; want[70] = 0; want[71] = 0x04;
	encode_expect("sja1110", NULL, TX, &m, base, 60, want, 72);
	ck_assert_int_eq(ofl_dsa_decode(o, NULL, TX, want, 72, &d, &v), 0);
	ck_assert_uint_eq(d.port_mask, 2);
	ck_assert(d.flags & OFL_DSA_MF_LINK_LOCAL);
	check_untagged(want, 72, &v, base, 60, "sja1110 tx mgmt");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("dsa_vectors");
	TCase *tv = tcase_create("vectors");
	TCase *tb = tcase_create("refused");
	TCase *tsp = tcase_create("special");

	tcase_add_loop_test(tv, test_vector, 0, (int)NVECS);
	tcase_add_loop_test(tb, test_refused, 0, (int)NBADS);
	tcase_add_test(tsp, test_dsa_fold_vlan);
	tcase_add_test(tsp, test_mtk_tagged);
	tcase_add_test(tsp, test_brcm_legacy_fcs);
	tcase_add_test(tsp, test_brcm_legacy_vlan);
	tcase_add_test(tsp, test_ksz_ptp);
	tcase_add_test(tsp, test_mxl862xx_cpu_port);
	tcase_add_test(tsp, test_8021q_variants);
	tcase_add_test(tsp, test_sja1105_mgmt);
	tcase_add_test(tsp, test_sja1110_mgmt);
	suite_add_tcase(s, tv);
	suite_add_tcase(s, tb);
	suite_add_tcase(s, tsp);
	return h_run_suite(s);
}
