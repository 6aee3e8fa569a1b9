/*
 * dsa_instr.c - instructions per frame of DSA decode, for callgrind.
 *
 * Tags a 1502-byte TCP/IPv4 frame from the generator (tests/support/gen.c)
 * for source port 1 in the switch -> host layout (OFL_DSA_RX, the layout a
 * driver decodes on receive) with ofl_dsa_encode(), then decodes it FRAMES
 * times, as a driver in front of GRO would, and prints how many frames it
 * decoded:
 *   ofl_dsa_instr FORMAT        ofl_dsa_decode_cut() with a decoder prepared
 *                               once (params NULL): meta and the cut
 *   ofl_dsa_instr FORMAT view   ofl_dsa_decode() with a view, params NULL
 *   ofl_dsa_instr FORMAT brief  ofl_dsa_decode_brief() with the prepared
 *                               decoder: port, switch, flags and the cut
 *   ofl_dsa_instr FORMAT burst  ofl_dsa_decode_brief_burst(), BURST frames
 *                               a call
 *   ofl_dsa_instr FORMAT packed ofl_dsa_decode_packed_burst(), BURST frames
 *                               a call
 * Under valgrind --tool=callgrind, the inclusive instruction count of
 * ofl_dsa_decode_cut (ofl_dsa_decode, ofl_dsa_decode_brief,
 * ofl_dsa_decode_brief_burst, ofl_dsa_decode_packed_burst) divided by that number is the library's cost
 * per frame (bench/instr.sh prints it per format).
 * Exits 2 for an unknown format, 3 for one that cannot tag this frame.
 */
#include <ofl/dsa.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"

#define FRAMES 4096u
#define HEAD 64u
#define BURST 32u /* frames per ofl_dsa_decode_brief_burst() call */

static uint8_t buf[HEAD + 2048 + 64];

int main(int argc, char **argv)
{
	const struct ofl_dsa_ops *ops = argc > 1 ? ofl_dsa_find(argv[1]) : NULL;
	struct ofl_dsa_meta meta, m;
	struct ofl_dsa_view v;
	struct ofl_dsa_cut c;
	struct ofl_dsa_decoder d;
	struct ofl_dsa_brief b, bb[BURST];
	struct ofl_dsa_packed pk[BURST];
	struct ofl_buf fb[BURST];
	struct gen_tcp g;
	int view = argc > 2 && strcmp(argv[2], "view") == 0;
	int brief = argc > 2 && strcmp(argv[2], "brief") == 0;
	int packed = argc > 2 && strcmp(argv[2], "packed") == 0;
	int burst = packed || (argc > 2 && strcmp(argv[2], "burst") == 0);
	uint32_t off = HEAD, len, acc = 0;
	size_t n;
	unsigned i;

	if (!ops) {
		fprintf(stderr, "usage: %s FORMAT\n", argv[0]);
		return 2;
	}
	gen_tcp_init(&g, 4);
	g.payload_len = 1448;
	n = gen_tcp_frame(&g, buf + HEAD, sizeof(buf) - HEAD - 64);
	if (!n)
		return 1;
	len = (uint32_t)n;
	memset(&meta, 0, sizeof(meta));
	if (ops->rx_ports) {
		meta.valid = OFL_DSA_M_PORT;
		meta.port = ops->rx_ports > 1 ? 1 : 0;
	}
	if (ops->id == 33) { /* nxp_netc: RX needs a non-zero switch id */
		meta.valid |= OFL_DSA_M_SWITCH;
		meta.switch_id = 1;
	}
	if (ofl_dsa_encode(ops, NULL, OFL_DSA_RX, &meta, buf, sizeof(buf), &off, &len) != 0 ||
	    ofl_dsa_decode(ops, NULL, OFL_DSA_RX, buf + off, len, &m, &v) != 0 ||
	    ofl_dsa_decoder_init(&d, sizeof(d), ops, NULL, OFL_DSA_RX) != 0)
		return 3;
	for (i = 0; brief && i < FRAMES; i++) {
		acc += (uint32_t)ofl_dsa_decode_brief(&d, buf + off, len, &b) + b.port +
		       b.cut.rest_off;
	}
	for (i = 0; i < BURST; i++)
		fb[i] = (struct ofl_buf){ buf + off, len };
	for (i = 0; packed && i < FRAMES; i += BURST) {
		acc += (uint32_t)ofl_dsa_decode_packed_burst(&d, fb, BURST, pk) +
		       (uint32_t)OFL_DSA_PK_PORT(pk[0].word) +
		       OFL_DSA_PK_REST_OFF(pk[BURST - 1].word);
	}
	for (i = 0; burst && !packed && i < FRAMES; i += BURST) {
		acc += (uint32_t)ofl_dsa_decode_brief_burst(&d, fb, BURST, bb) + bb[0].port +
		       bb[BURST - 1].cut.rest_off;
	}
	if (burst) {
		printf("frames %u\n", FRAMES);
		return acc == 0xFFFFFFFFu;
	}
	for (i = 0; !view && !brief && i < FRAMES; i++) {
		acc += (uint32_t)ofl_dsa_decode_cut(&d, buf + off, len, &m, &c) +
		       m.port + c.rest_off;
	}
	for (i = 0; view && i < FRAMES; i++) {
		/* what a driver reads afterwards */
		acc += (uint32_t)ofl_dsa_decode(ops, NULL, OFL_DSA_RX, buf + off, len, &m, &v) +
		       m.port + v.rest_off;
	}
	/* the calls of the counted entry: ofl_dsa_decode() also ran once
	 * before the loop (the check above); the other entries only in it
	 * (printing FRAMES + 1 for them too made their rows one low) */
	printf("frames %u\n", view ? FRAMES + 1 : FRAMES);
	return acc == 0xFFFFFFFFu;
}
