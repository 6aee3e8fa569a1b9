/*
 * none.c - the "none" format (net/dsa/tag_none.c): the switch adds no tag,
 * so the host cannot tell ports apart.  Decode accepts any Ethernet frame
 * (14 bytes or more) and reports no port; encode adds nothing but the
 * padding of a conduit that needs tailroom.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "dsa/dsa_int.h"

DSA_DECODER none_decode(int dir, const struct dsa_frame *f,
                        struct ofl_dsa_meta *m, struct ofl_dsa_view *v)
{
	(void)dir;
	(void)m;
	if (f->len < DSA_ETH_HLEN)
		return OFL_EBADMSG;
	return dsa_view_after_sa(f, 0, v);
}

/* No tag; a conduit that needs tailroom still has the frame padded
 * (dsa_user_xmit pads before any tagger, this one included). */
static int none_encode(int dir, const struct ofl_dsa_meta *m, struct dsa_tx *tx)
{
	(void)dir;
	(void)m;
	if (dsa_tx_check(tx, 0, tx->pad_to, 0))
		return OFL_ENOSPC;
	dsa_tx_pad(tx, tx->pad_to);
	return 0;
}

DSA_CODEC_D(none, none_decode, none_encode);
