/*
 * fuzz_dsa.c - libFuzzer target for every DSA tag format, decode and encode
 * (ofl_dsa_decode, _decode_bufs, _decoder_init, _decode_cut, _cut_view,
 * _untagged, _strip, _room, _encode).
 *
 * Input: format index, direction and switch parameters, a meta for encode,
 * split points, then the frame.  For the chosen format (all 34 are reached
 * through the index byte) it checks:
 *   - decode returns 0 or OFL_EBADMSG, never reads outside the frame (an
 *     exact-size heap copy); on 0 the view fits the frame, untagged() gives
 *     hdr + rest, strip() in place gives the same bytes, and the multi-buffer
 *     decode of the frame split at fuzzed points (each piece its own heap
 *     block) gives the same result, meta and untagged bytes; so does the
 *     prepared decoder (its cut turned into a view gives the same view);
 *   - encode of the fuzzed frame with the fuzzed meta returns 0, OFL_EINVAL
 *     (frame < 14 bytes), OFL_ENOSPC or OFL_ENOTSUP; it writes nothing
 *     outside the room ofl_dsa_room() reported (canary bytes around it) and
 *     nothing at all when it fails; when it succeeds the tagged frame
 *     decodes in the same direction to the same port and gives back the
 *     untagged frame (zero-padded to the format's minimum on TX).
 */
#include <ofl/dsa.h>
#include <stdlib.h>
#include <string.h>

#include "fz.h"
#include "gather.h"

#define MAXF 2048
#define CANARY 0xA5

static void check_view(const struct ofl_dsa_ops *ops, const uint8_t *fr, uint32_t len,
                       const struct ofl_dsa_view *v)
{
	FZ_CHECKF(v->hdr_len == 12u + v->ins_len, "%s: hdr_len %u ins_len %u", ops->name, v->hdr_len,
	          v->ins_len);
	FZ_CHECK(v->ins_len == 0 || v->ins_len == 2 || v->ins_len == 4);
	FZ_CHECKF(v->rest_off <= len && v->rest_len <= len - v->rest_off, "%s: rest %u+%u of %u",
	          ops->name, v->rest_off, v->rest_len, len);
	FZ_CHECK(v->rest_off >= v->hdr_len);
	FZ_CHECK(v->hdr != NULL);
	FZ_CHECKF((v->hdr >= fr && v->hdr + v->hdr_len <= fr + len) ||
	          (v->hdr >= v->buf && v->hdr + v->hdr_len <= v->buf + sizeof(v->buf)),
	          "%s: hdr points nowhere", ops->name);
	FZ_CHECKF(v->mac_off + 12u <= len, "%s: mac_off %u of %u", ops->name, v->mac_off, len);
	FZ_CHECKF(v->hdr_len + v->rest_len + v->tag_len + v->tail_len <= len + v->ins_len + 16u,
	          "%s: view covers more than the frame", ops->name);
}

/* Untagged bytes of a single-buffer decode into out; returns the length. */
static uint32_t untagged(const uint8_t *fr, uint32_t len, const struct ofl_dsa_view *v,
                         uint8_t *out)
{
	struct ofl_buf pc[2];
	FZ_CHECK(ofl_dsa_untagged(fr, len, v, pc) == 2);
	FZ_CHECK(pc[0].data == v->hdr && pc[0].len == v->hdr_len);
	FZ_CHECK(pc[1].data == fr + v->rest_off && pc[1].len == v->rest_len);
	return gather(pc, 2, out);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz z = {data, size};
	const struct ofl_dsa_ops *ops;
	struct ofl_dsa_params par;
	struct ofl_dsa_meta m, m2, em;
	struct ofl_dsa_view v, v2;
	static uint8_t un[MAXF + 64], un2[MAXF + 64], enc[MAXF + 512];
	uint8_t *fr, sel, pb, nsplit;
	uint32_t len, cuts[9];
	const uint8_t *src;
	int dir, rc, rc2;
	unsigned i;
	size_t cnt = ofl_dsa_count();
	FZ_CHECK(cnt > 0);
	sel = fz_u8(&z);
	ops = ofl_dsa_at(sel % cnt);
	FZ_CHECK(ops && ops->id == sel % cnt);
	FZ_CHECK(ofl_dsa_find(ops->name) == ops && ofl_dsa_by_id(ops->id) == ops);
	pb = fz_u8(&z);
	dir = pb & 1 ? OFL_DSA_TX : OFL_DSA_RX;
	ofl_dsa_params_default(&par);
	par.flags = (pb >> 1) & 3;
	par.tpid = pb & 8 ? (pb & 16 ? 0x8100 : 0xdadb) : 0;
	par.cpu_port = (uint8_t)(pb >> 5);
	{
		uint8_t b = fz_u8(&z);

		par.num_ports = b & 15;
		par.conduit_tailroom = (b >> 4) & 3; /* 0 or a conduit's tailroom */
		if (b & 0x40)
			par.flags |= OFL_DSA_P_EDSA_STRICT;
	}
	memset(&em, 0, sizeof(em));
	em.valid = fz_u16(&z);
	em.flags = fz_u16(&z);
	em.port_mask = fz_u32(&z);
	em.switch_id = fz_u8(&z) & 7;
	em.port = fz_u8(&z);
	em.prio = fz_u8(&z) & 7;
	em.cmd = fz_u8(&z);
	em.code = fz_u8(&z);
	em.vlan_tci = fz_u16(&z);
	nsplit = fz_u8(&z) % 8;
	for (i = 0; i < nsplit; i++)
		cuts[i] = fz_u16(&z);
	len = (uint32_t)fz_take(&z, MAXF, &src);
	fr = malloc(len ? len : 1);
	FZ_CHECK(fr);
	if (len)
		memcpy(fr, src, len);

	/* ---- decode ---- */
	rc = ofl_dsa_decode(ops, &par, dir, fr, len, &m, &v);
	FZ_CHECKF(rc == 0 || rc == OFL_EBADMSG, "%s decode: %d", ops->name, rc);
	if (rc == 0) {
		uint32_t ul, s, ol;
		uint8_t *cp;
		check_view(ops, fr, len, &v);
		if (m.valid & OFL_DSA_M_PORT) {
			uint16_t np = dir == OFL_DSA_TX ? ops->tx_ports : ops->rx_ports;
			FZ_CHECKF(np == 0 || m.port < np, "%s: port %u of %u", ops->name, m.port, np);
		}
		ul = untagged(fr, len, &v, un);
		/* strip in place on a copy gives the same bytes */
		cp = malloc(len);
		FZ_CHECK(cp);
		memcpy(cp, fr, len);
		{
			struct ofl_dsa_view vc = v;
			/* hdr may point into fr: strip works on the copy */
			if (v.hdr >= fr && v.hdr < fr + len)
				vc.hdr = cp + (v.hdr - fr);
			else
				vc.hdr = vc.buf;
			FZ_CHECK(ofl_dsa_strip(cp, len, &vc, &s, &ol) == 0);
		}
		FZ_CHECK(ol == ul && s + ol <= len);
		FZ_CHECKF(memcmp(cp + s, un, ul) == 0, "%s: strip differs from untagged", ops->name);
		free(cp);
		(void)m2;
	}
	/* ---- the prepared decoder agrees: same rc, same meta, the cut gives
	 * the same view ---- */
	{
		struct ofl_dsa_decoder d;
		struct ofl_dsa_meta mc;
		struct ofl_dsa_cut c;
		struct ofl_dsa_view vc;

		FZ_CHECK(ofl_dsa_decoder_init(&d, sizeof(d), ops, &par, dir) == 0);
		rc2 = ofl_dsa_decode_cut(&d, fr, len, &mc, &c);
		FZ_CHECKF(rc2 == rc, "%s: decode %d, decode_cut %d", ops->name, rc, rc2);
		FZ_CHECKF(memcmp(&m, &mc, sizeof(m)) == 0, "%s: meta differs in decode_cut",
		          ops->name);
		if (rc == 0) {
			FZ_CHECK(ofl_dsa_cut_view(ops, fr, len, &c, &vc) == 0);
			FZ_CHECKF(vc.hdr_len == v.hdr_len && vc.mac_off == v.mac_off &&
			          vc.rest_off == v.rest_off && vc.rest_len == v.rest_len &&
			          vc.tag_off == v.tag_off && vc.tag_len == v.tag_len &&
			          vc.tail_len == v.tail_len && vc.ins_len == v.ins_len &&
			          vc.mac_patched == v.mac_patched,
			          "%s: the cut's view differs", ops->name);
			FZ_CHECKF(memcmp(vc.hdr, v.hdr, v.hdr_len) == 0, "%s: the cut's hdr differs",
			          ops->name);
		}
		/* the brief decode: same rc, meta's port, switch and flags,
		 * decode_cut's cut; nothing written on error */
		{
			struct ofl_dsa_brief b, b0;

			memset(&b, 0x5A, sizeof(b));
			b0 = b;
			rc2 = ofl_dsa_decode_brief(&d, fr, len, &b);
			FZ_CHECKF(rc2 == rc, "%s: decode %d, decode_brief %d", ops->name, rc, rc2);
			if (rc != 0) {
				FZ_CHECKF(memcmp(&b, &b0, sizeof(b)) == 0, "%s: brief written on error",
				          ops->name);
			} else {
				FZ_CHECKF(b.flags == m.flags && b.port == m.port &&
				          b.switch_id == m.switch_id &&
				          b.valid == (m.valid & (OFL_DSA_M_PORT | OFL_DSA_M_SWITCH)),
				          "%s: brief fields differ from meta", ops->name);
				FZ_CHECKF(b.cut.mac_off == c.mac_off && b.cut.rest_off == c.rest_off &&
				          b.cut.tail_len == c.tail_len && b.cut.ins_len == c.ins_len &&
				          b.cut.mac_patched == c.mac_patched &&
				          memcmp(b.cut.ins, c.ins, c.ins_len) == 0,
				          "%s: brief cut differs from decode_cut's", ops->name);
			}
			/* the burst: the frame and its first half in one
			 * call, each brief as the brief entry's, a refused
			 * frame's zero (reserved[] never written) */
			{
				struct ofl_buf two[2] = { { fr, len }, { fr, len / 2 } };
				struct ofl_dsa_brief bb[2], bh = b0;
				const size_t body = offsetof(struct ofl_dsa_brief, reserved);
				int rch = ofl_dsa_decode_brief(&d, fr, len / 2, &bh), nb;

				if (rc != 0)
					memset(&b, 0, body);
				if (rch != 0)
					memset(&bh, 0, body);
				memset(bb, 0x5A, sizeof(bb));
				nb = ofl_dsa_decode_brief_burst(&d, two, 2, bb);
				/* a decoded frame's ins[] past ins_len is
				 * unspecified (a refused one's is zero) */
				if (rc == 0)
					memcpy(bb[0].cut.ins + b.cut.ins_len, b.cut.ins + b.cut.ins_len,
					       sizeof(b.cut.ins) - b.cut.ins_len);
				if (rch == 0)
					memcpy(bb[1].cut.ins + bh.cut.ins_len,
					       bh.cut.ins + bh.cut.ins_len,
					       sizeof(bh.cut.ins) - bh.cut.ins_len);
				FZ_CHECKF(nb == (rc != 0) + (rch != 0), "%s: burst refused %d",
				          ops->name, nb);
				FZ_CHECKF(memcmp(&bb[0], &b, sizeof(b)) == 0 &&
				          memcmp(&bb[1], &bh, sizeof(bh)) == 0,
				          "%s: burst brief differs from decode_brief's", ops->name);
				/* the packed burst: the same two briefs, each
				 * as one word (0 refused), ins[] as the cut's
				 * and written only when ins_len is not 0 */
				{
					struct ofl_dsa_packed pk[2];
					const struct ofl_dsa_brief *want[2] = { &b, &bh };
					int np;

					memset(pk, 0x5A, sizeof(pk));
					np = ofl_dsa_decode_packed_burst(&d, two, 2, pk);
					FZ_CHECKF(np == nb, "%s: packed burst refused %d, burst %d",
					          ops->name, np, nb);
					for (i = 0; i < 2; i++) {
						const struct ofl_dsa_brief *x = want[i];
						uint64_t w = (uint64_t)x->cut.rest_off |
						             (uint64_t)x->cut.mac_off << 8 |
						             (uint64_t)x->cut.tail_len << 16 |
						             (uint64_t)x->flags << 32 |
						             (uint64_t)x->cut.ins_len << 42 |
						             (uint64_t)x->cut.mac_patched << 45 |
						             (uint64_t)(x->valid & 1u) << 46 |
						             (uint64_t)(x->valid & 4u) << 45 |
						             (uint64_t)x->switch_id << 48 |
						             (uint64_t)x->port << 56;

						FZ_CHECKF(pk[i].word == w,
						          "%s: packed word differs from the brief", ops->name);
						FZ_CHECKF(x->cut.ins_len ?
						          memcmp(pk[i].ins, x->cut.ins, x->cut.ins_len) == 0 :
						          memcmp(pk[i].ins, "\x5a\x5a\x5a\x5a", 4) == 0,
						          "%s: packed ins differs", ops->name);
						FZ_CHECKF(memcmp(pk[i].reserved, "\x5a\x5a\x5a\x5a", 4) == 0,
						          "%s: packed reserved written", ops->name);
					}
				}
			}
		}
	}
	/* ---- multi-buffer decode agrees ---- */
	{
		struct ofl_buf b[9];
		void *blk[9];
		uint32_t prev = 0, nb = 0;
		for (i = 0; i < nsplit; i++)
			cuts[i] = len ? cuts[i] % (len + 1) : 0;
		qsort(cuts, nsplit, sizeof(cuts[0]), cmp_u32);
		cuts[nsplit] = len;
		for (i = 0; i <= nsplit; i++) {
			uint32_t pl = cuts[i] - prev;
			blk[nb] = pl ? malloc(pl) : NULL;
			if (pl)
				memcpy(blk[nb], fr + prev, pl);
			b[nb].data = blk[nb];
			b[nb].len = pl;
			nb++;
			prev = cuts[i];
		}
		rc2 = ofl_dsa_decode_bufs(ops, &par, dir, b, nb, &m2, &v2);
		FZ_CHECKF(rc2 == rc, "%s: decode %d, decode_bufs %d (%u buffers)", ops->name, rc, rc2, nb);
		if (rc == 0) {
			FZ_CHECKF(memcmp(&m, &m2, sizeof(m)) == 0, "%s: meta differs between decodes", ops->name);
			FZ_CHECK(v2.hdr >= v2.buf && v2.hdr + v2.hdr_len <= v2.buf + sizeof(v2.buf));
			FZ_CHECK(v2.hdr_len == v.hdr_len && v2.rest_off == v.rest_off &&
			         v2.rest_len == v.rest_len && v2.tag_off == v.tag_off &&
			         v2.tag_len == v.tag_len && v2.tail_len == v.tail_len);
			FZ_CHECKF(memcmp(v2.hdr, v.hdr, v.hdr_len) == 0, "%s: hdr differs between decodes",
			          ops->name);
		}
		for (i = 0; i < nb; i++)
			free(blk[i]);
	}

	/* ---- encode the input as an untagged frame with the fuzzed meta ---- */
	{
		uint32_t head = 0, tail = 0, off, el, room_lo, room_hi, k;
		uint8_t *eb = enc;
		FZ_CHECK(ofl_dsa_room(ops, &par, dir, len, &head, &tail) == 0);
		FZ_CHECK(head <= 255 && tail <= 512);
		off = 32 + head;
		memset(eb, CANARY, sizeof(enc));
		if (len)
			memcpy(eb + off, fr, len);
		room_lo = off - head;
		room_hi = off + len + tail;
		{
			uint32_t eo = off;
			el = len;
			rc = ofl_dsa_encode(ops, &par, dir, &em, eb, room_hi, &eo, &el);
			/* EINVAL: a frame shorter than 14 bytes, or (mtk) one whose
			 * 802.1Q/802.1ad header at 12 is cut (< 18 bytes; dsa.h does
			 * not list this case: reported) */
			FZ_CHECKF(rc == 0 || rc == OFL_ENOSPC || rc == OFL_ENOTSUP ||
			          (rc == OFL_EINVAL && (len < 14 || (len < 18 && (fr[12] == 0x81 || fr[12] == 0x88) &&
			                                             (fr[13] == 0x00 || fr[13] == 0xa8)))),
			          "%s encode: %d (len %u)", ops->name, rc, len);
			for (k = 0; k < room_lo; k++)
				FZ_CHECKF(eb[k] == CANARY, "%s: encode wrote %u bytes before its room", ops->name,
				          room_lo - k);
			for (k = room_hi; k < sizeof(enc); k++)
				FZ_CHECK(eb[k] == CANARY);
			if (rc != 0) {
				FZ_CHECKF(eo == off && el == len, "%s: failed encode moved the frame", ops->name);
				for (k = room_lo; k < room_hi; k++)
					FZ_CHECKF(k >= off && k < off + len ? eb[k] == fr[k - off] : eb[k] == CANARY,
					          "%s: failed encode (%d) wrote byte %u", ops->name, rc, k);
			} else {
				uint8_t *t;
				uint32_t ul;
				FZ_CHECK(eo >= room_lo && eo + el <= room_hi);
				t = malloc(el);
				FZ_CHECK(t);
				memcpy(t, eb + eo, el);
				rc2 = ofl_dsa_decode(ops, &par, dir, t, el, &m2, &v2);
				/* brcm-legacy RX removes a VLAN header after its tag that
				 * encode did not write (always with LEGACY_VLAN; without,
				 * when the frame's own 802.1Q header has TCI 0): no round
				 * trip there. */
				int vlan_gone = dir == OFL_DSA_RX && (ops->id == 22 || ops->id == 29) &&
				                ((par.flags & OFL_DSA_P_BRCM_LEGACY_VLAN) ||
				                 (len >= 16 && fr[12] == 0x81 && fr[13] == 0 && fr[14] == 0 &&
				                  fr[15] == 0));
				if (rc2 == 0 && !vlan_gone) {
					check_view(ops, t, el, &v2);
					ul = untagged(t, el, &v2, un2);
					FZ_CHECKF(ul >= len, "%s: untagged %u shorter than the original %u", ops->name, ul,
					          len);
					/* dsa/edsa fold a VLAN header and give it back: same bytes */
					FZ_CHECKF(memcmp(un2, fr, len) == 0, "%s: round trip changed the frame", ops->name);
					for (k = len; k < ul; k++)
						FZ_CHECKF(un2[k] == 0, "%s: padding byte %u not zero", ops->name, k);
					if ((em.valid & OFL_DSA_M_PORT) && !(em.valid & OFL_DSA_M_PORT_MASK) &&
					    (m2.valid & OFL_DSA_M_PORT) && !(em.flags & OFL_DSA_MF_LOOKUP))
						FZ_CHECKF(m2.port == em.port, "%s: port %u came back as %u", ops->name,
						          em.port, m2.port);
				}
				free(t);
			}
		}
	}
	free(fr);
	return 0;
}
