/*
 * dsa.h - DSA switch-tag codecs: the CPU-port tag formats of Linux DSA.
 *
 * A switch managed by Linux DSA marks every frame it exchanges with the
 * host's Ethernet port (the "conduit") with a tag saying which front-panel
 * port the frame came from or must go to.  This module reads and writes
 * those tags for all 34 formats Linux knows, without the kernel:
 *
 *   decode   switch -> host (RX) or host -> switch (TX) frame: checks the
 *            tag, fills struct ofl_dsa_meta (switch, port, priority, reason
 *            ...) and struct ofl_dsa_view, a description of the untagged
 *            frame.  Nothing is written; nothing is copied except at most
 *            16 header bytes into the view.
 *   strip    turns a writable single-buffer tagged frame into the untagged
 *            frame in place by moving at most 16 bytes (the kernel's way).
 *   untagged gives the untagged frame as 2 ofl_buf pieces, writing nothing.
 *   encode   tags an untagged frame in place in a caller buffer that has
 *            headroom/tailroom, applying the kernel's padding rules first.
 *
 * Each format is described by a const struct ofl_dsa_ops found by name
 * (ofl_dsa_find, the string /sys/class/net/&lt;conduit&gt;/dsa/tagging shows) or
 * by the kernel's DSA_TAG_PROTO_*_VALUE number (ofl_dsa_by_id).
 *
 * Directions.  OFL_DSA_RX is the switch-to-host layout, the one the
 * kernel's .rcv parses; decoding it follows the kernel's rules exactly and
 * refuses (OFL_EBADMSG) what .rcv drops for a reason visible in the bytes.
 * OFL_DSA_TX is the host-to-switch layout the kernel's .xmit writes.
 * Decoding TX frames is for captures and tests; encoding RX frames is for
 * switch simulators and tests.  Many formats use different layouts in the
 * two directions, so the caller always says which one it means.
 *
 * What the library cannot know (which ports exist, bridge state) it leaves
 * to the caller: a decoded port number is what the tag says, and decode
 * refuses (OFL_EBADMSG) one that no switch of the format can have (at or
 * above ops->rx_ports on RX, ops->tx_ports on TX), as the kernel drops a
 * frame whose port it finds no user netdev for; it would additionally drop
 * frames for existing ports that have none.
 *
 * Where this library is stricter than Linux's .rcv, because Linux trusts
 * the switch configuration and a library cannot: brcm-legacy(-fcs) requires
 * EtherType 0x8874, lan9303 TPID 0x8100, and rtl4a refuses
 * (instead of passing through) frames without EtherType 0x8899.  Frames the
 * kernel hands to the switch driver instead of the stack (qca MIB and
 * register ACKs, sja1105/sja1110 timestamp meta frames) decode with
 * OFL_DSA_MF_CONTROL set: do not deliver them.
 *
 * Per-frame use on RX (e.g. in front of GRO):
 *
 *     struct ofl_dsa_meta m;  struct ofl_dsa_view v;  struct ofl_buf pc[2];
 *     if (ofl_dsa_decode(ops, &params, OFL_DSA_RX, data, len, &m, &v) != 0 ||
 *         (m.flags & OFL_DSA_MF_CONTROL))
 *             ... not for the stack ...
 *     key.switch_id = m.switch_id;  key.port = m.port;   (if M_PORT valid)
 *     ofl_dsa_untagged(data, len, &v, pc);   untagged = pc[0] then pc[1]
 *
 * decode touches only the tag bytes and the 12 MAC bytes; nothing is
 * copied except when bytes must be rebuilt (at most 16, into view->buf).
 *
 * The same with the work per frame cut to the tag's own (about half the
 * instructions): prepare a decoder once, then per frame get meta and a
 * 12-byte cut, and the view only when wanted:
 *
 *     struct ofl_dsa_decoder d;  struct ofl_dsa_cut c;
 *     ofl_dsa_decoder_init(&d, sizeof d, ops, &params, OFL_DSA_RX);
 *     if (ofl_dsa_decode_cut(&d, data, len, &m, &c) != 0 || ...)
 *     untagged = data[c.mac_off .. +12] (+ c.ins) + data[c.rest_off ..
 *                len - c.tail_len], or ofl_dsa_cut_view(ops, data, len, &c, &v)
 *
 * and narrower still, when only port, switch and flags of meta are read
 * (fewer instructions: brcm 14 instead of 25, sja1105 30 instead of 46):
 *
 *     struct ofl_dsa_brief b;
 *     if (ofl_dsa_decode_brief(&d, data, len, &b) != 0 ||
 *         (b.flags & OFL_DSA_MF_CONTROL))
 *             ... not for the stack ...
 *     key.port = b.port;  (if b.valid & OFL_DSA_M_PORT)  untagged: b.cut
 *
 * or the same for a batch of frames in one call (ofl_dsa_decode_brief_burst:
 * a refused frame's brief is zero, its cut.rest_off 0).
 *
 * Threading: everything here is a pure function of its arguments; no
 * global mutable state, no allocation.  All offsets and lengths are bytes.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_DSA_H
#define OFL_DSA_H

#include "ofl.h"
#include "pkt.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Where a format puts its tag. */
enum ofl_dsa_place {
	OFL_DSA_PLACE_NONE = 0,      /**< no tag at all ("none") */
	OFL_DSA_PLACE_BEFORE_DA = 1, /**< prepended: tag | DA | SA | type */
	OFL_DSA_PLACE_AFTER_SA = 2,  /**< DA | SA | tag | type (the tag often
	                                  starts with its own EtherType) */
	OFL_DSA_PLACE_TAIL = 3,      /**< DA | SA | type | ... | tag (before FCS) */
	OFL_DSA_PLACE_VLAN = 4,      /**< an 802.1Q-shaped tag after SA whose
	                                  VID encodes switch and port (tag_8021q) */
};

/** Which layout a frame uses. */
enum ofl_dsa_dir {
	OFL_DSA_RX = 0, /**< switch -> host (kernel .rcv) */
	OFL_DSA_TX = 1, /**< host -> switch (kernel .xmit) */
};

/* struct ofl_dsa_ops.flags: properties, named for what they mean to a
 * driver, so nobody has to switch on format ids. */
#define OFL_DSA_F_PROMISC   0x0001u /**< the conduit must accept frames whose
                                         DA it does not own: the tag shifts or
                                         hides the destination MAC */
#define OFL_DSA_F_SW_CSUM   0x0002u /**< TX: finish any pending L4 checksum
                                         before encode (the tag is appended
                                         after the payload, so NIC checksum
                                         offload would cover it) */
#define OFL_DSA_F_HIDES_L3  0x0004u /**< a plain Ethernet parser looking at the
                                         tagged frame does not find the real
                                         EtherType at offset 12 (or 12 after
                                         802.1Q): strip or decode first */
#define OFL_DSA_F_VAR_LEN   0x0008u /**< the RX tag length depends on the tag's
                                         contents (timestamps, tag type) */
#define OFL_DSA_F_TX_FCS    0x0010u /**< TX: encode appends the Ethernet FCS
                                         of the untagged frame itself */
#define OFL_DSA_F_NO_PORTS  0x0020u /**< the format carries no port at all */
#define OFL_DSA_F_CTRL      0x0040u /**< RX may carry switch control frames
                                         (OFL_DSA_MF_CONTROL) */

struct ofl_dsa_codec; /* internal */

/**
 * A tag format.  All instances live in a const table inside the library;
 * pointers to them stay valid for the life of the process.
 *
 * Lengths are upper bounds in bytes.  rx_head/tx_head count bytes before
 * the untagged frame's EtherType that are not part of it (for AFTER_SA and
 * VLAN formats they sit between SA and the EtherType, for BEFORE_DA before
 * DA); rx_tail/tx_tail count bytes after the untagged frame.
 */
struct ofl_dsa_ops {
	const char *name;   /**< the kernel tagger's .name, e.g. "brcm" */
	const char *alias;  /**< a second accepted name, or NULL */
	uint16_t id;        /**< DSA_TAG_PROTO_*_VALUE from include/net/dsa.h */
	uint8_t place;      /**< enum ofl_dsa_place */
	uint8_t rx_head;    /**< max tag bytes before the frame on RX */
	uint8_t rx_tail;    /**< max tag bytes after the frame on RX */
	uint8_t tx_head;    /**< headroom encode needs on TX */
	uint8_t tx_tail;    /**< tailroom encode needs on TX, padding excluded */
	uint8_t tx_min_len; /**< TX: the untagged frame is zero-padded to this
	                         length before tagging (0: no padding): the
	                         tagger's own minimum, or 60 when the tagger
	                         needs tailroom (tx_tail > 0), the kernel's
	                         rule.  A conduit with tailroom raises it to 60
	                         (ofl_dsa_params.conduit_tailroom) */
	uint8_t rx_prios;   /**< RX: priorities 0 .. rx_prios-1 (0: none) */
	uint8_t tx_prios;   /**< TX: priorities 0 .. tx_prios-1 (0: none) */
	uint16_t rx_ports;  /**< RX: source port numbers the tag can express
	                         are 0 .. rx_ports-1 (0: none) */
	uint16_t tx_ports;  /**< TX: destination ports 0 .. tx_ports-1 */
	uint32_t flags;     /**< OFL_DSA_F_* */
	const struct ofl_dsa_codec *codec; /**< internal */
};

/** Number of formats in the registry (34). */
OFL_API size_t ofl_dsa_count(void);

/** The i-th format, 0 <= i < ofl_dsa_count(), in increasing id order (the
 *  table is indexed by id: ofl_dsa_at(i)->id == i).  NULL when out of range. */
OFL_API const struct ofl_dsa_ops *ofl_dsa_at(size_t i);

/** Format by kernel name or alias (exact, case-sensitive): "brcm",
 *  "a5psw" (alias "rzn1-a5psw"), "gsw1xx" ("mxl-gsw1xx"), "mxl862xx"
 *  ("mxl862"), "nxp_netc" ("netc") ...  A trailing newline, as read from
 *  sysfs, is ignored.  NULL if name is NULL or unknown. */
OFL_API const struct ofl_dsa_ops *ofl_dsa_find(const char *name);

/** Same as ofl_dsa_find(), as an int: 0 and *out set, or OFL_EINVAL (NULL
 *  argument) or OFL_ENOENT (unknown name; *out set to NULL). */
OFL_API int ofl_dsa_lookup(const char *name, const struct ofl_dsa_ops **out);

/** Format by DSA_TAG_PROTO_*_VALUE; NULL if unknown. */
OFL_API const struct ofl_dsa_ops *ofl_dsa_by_id(unsigned id);

/* ------------------------------------------------------------------ */
/* Switch-dependent parameters                                         */

/* ofl_dsa_params.flags */
#define OFL_DSA_P_BRCM_LEGACY_VLAN 0x1u /**< brcm-legacy(-fcs) RX: the 4 bytes
                                             after the Broadcom tag are an
                                             802.1Q header removed with it,
                                             whatever its TCI (kernels before
                                             6.18, on a switch below another
                                             DSA switch).  Without the flag,
                                             as Linux 6.18: removed only when
                                             they are 0x8100 with TCI 0 */
#define OFL_DSA_P_KSZ_PTP          0x2u /**< ksz9477/ksz9893/lan937x TX:
                                             hardware timestamping is on, so a
                                             4-byte timestamp field precedes
                                             the tail tag (meta.tstamp, raw) */
#define OFL_DSA_P_EDSA_STRICT      0x4u /**< edsa RX: refuse a tag whose first
                                             4 bytes are not DA DA 00 00 (the
                                             kernel checks neither the
                                             EtherType nor the reserved bytes,
                                             and neither does the default) */

/**
 * Bytes that depend on how the switch is wired, not on the frame.  Fill with
 * ofl_dsa_params_default() and change what differs; pass NULL anywhere a
 * params pointer is taken to use the defaults.
 */
struct ofl_dsa_params {
	uint32_t flags;      /**< OFL_DSA_P_*; default 0 */
	uint16_t tpid;       /**< tag_8021q formats: the TPID written on TX and
	                          accepted on RX.  0 (default) = the kernel's:
	                          0x8100, or 0xDADB (ETH_P_DSA_8021Q) for sja1105
	                          and sja1110, which also accept 0x8100 on RX */
	uint8_t cpu_port;    /**< mxl862xx: index of the CPU port the conduit
	                          is attached to; default 0 */
	uint8_t num_ports;   /**< ocelot/seville TX: the switch's port count,
	                          written as the injection source port.  0
	                          (default) = 6 for ocelot (VSC9959), 10 for
	                          seville (VSC9953) */
	uint16_t conduit_tailroom; /**< TX: tailroom the conduit's driver asks
	                          for (its netdev's needed_tailroom); default 0.
	                          Non-zero makes encode pad every frame to 60
	                          bytes before tagging, as the kernel's
	                          dsa_user_xmit() does whenever the user port
	                          needs tailroom (tagger's plus conduit's) */
};

/** Fill *p with the defaults documented above.  p must not be NULL. */
OFL_API void ofl_dsa_params_default(struct ofl_dsa_params *p);

/* ------------------------------------------------------------------ */
/* Metadata                                                            */

/* ofl_dsa_meta.valid: which fields hold something */
#define OFL_DSA_M_PORT      0x0001u /**< port */
#define OFL_DSA_M_PORT_MASK 0x0002u /**< port_mask */
#define OFL_DSA_M_SWITCH    0x0004u /**< switch_id */
#define OFL_DSA_M_PRIO      0x0008u /**< prio */
#define OFL_DSA_M_CMD       0x0010u /**< cmd */
#define OFL_DSA_M_CODE      0x0020u /**< code */
#define OFL_DSA_M_AUX       0x0040u /**< aux */
#define OFL_DSA_M_VLAN      0x0080u /**< vlan_tci */
#define OFL_DSA_M_VBID      0x0100u /**< vbid */
#define OFL_DSA_M_TSTAMP    0x0200u /**< tstamp */

/* ofl_dsa_meta.flags: booleans (valid on their own) */
#define OFL_DSA_MF_TRAPPED    0x0001u /**< RX: trapped to the host, not
                                           forwarded by hardware: the kernel
                                           would leave offload_fwd_mark clear */
#define OFL_DSA_MF_TAGGED     0x0002u /**< dsa/edsa: the frame carried an
                                           802.1Q tag, folded into the DSA
                                           tag (vlan_tci); the untagged view
                                           gets the 802.1Q header back */
#define OFL_DSA_MF_TRUNK      0x0004u /**< dsa/edsa FORWARD: port is a trunk
                                           (LAG) id, not a port */
#define OFL_DSA_MF_OVERRIDE   0x0008u /**< TX: override port state/blocking
                                           (ksz, lan9303: STP override);
                                           ksz encode also sets it for
                                           link-local destinations, as Linux */
#define OFL_DSA_MF_LOOKUP     0x0010u /**< TX: let the switch look the
                                           destination up (lan9303 ALR, ksz
                                           lookup); no port is sent */
#define OFL_DSA_MF_LEARN_DIS  0x0020u /**< TX: do not learn the SA */
#define OFL_DSA_MF_CONTROL    0x0040u /**< RX: a switch control frame (qca MIB
                                           or register ACK, sja1105/sja1110
                                           timestamp meta frame) that the
                                           kernel hands to the switch driver,
                                           never to the stack */
#define OFL_DSA_MF_LINK_LOCAL 0x0080u /**< sja1105/sja1110: management frame
                                           (link-local DA); RX port came from
                                           DA bytes 3-4 or the SJA1110 header */
#define OFL_DSA_MF_HOST_ONLY  0x0100u /**< sja1110 RX: sent to the host only */
#define OFL_DSA_MF_VLAN_S     0x0200u /**< ocelot RX: classified tag is an
                                           S-tag (802.1ad); mtk TX: 0x88A8 */

/** Marvell DSA commands (meta.cmd for dsa/edsa). */
enum ofl_dsa_mv_cmd {
	OFL_DSA_MV_TO_CPU = 0,
	OFL_DSA_MV_FROM_CPU = 1,
	OFL_DSA_MV_TO_SNIFFER = 2,
	OFL_DSA_MV_FORWARD = 3,
};

/**
 * What a tag says.  Decode sets exactly the bits of `valid` for fields it
 * filled (others are zeroed); encode reads only the fields the format can
 * carry and ignores the rest.  Field meaning per format is in the comments
 * of src/dsa/&lt;family&gt;.c; the common ones:
 *   port       RX: source port; TX: the single destination port (decode sets
 *              it when the mask has exactly one bit)
 *   port_mask  TX: destination port bitmap (encode uses it when
 *              OFL_DSA_M_PORT_MASK is valid, otherwise 1 << port)
 *   switch_id  device index in a cascade (dsa, edsa, tag_8021q, netc, sja)
 *   prio       traffic class / priority / PCP
 *   cmd        frame kind: Marvell cmd, Broadcom opcode, qca/ar9331 type,
 *              netc type<<4|subtype, brcm-legacy type, ocelot rew_op
 *   code       reason: Broadcom reason code, Marvell TO_CPU code, Realtek
 *              reason, yt921x code
 *   aux        Broadcom classification id, ocelot CPU queue mask
 *   vlan_tci   the VLAN TCI a tag carries (dsa/edsa, mtk TX, ocelot, yt921x,
 *              tag_8021q formats: the whole tag TCI)
 *   vbid       tag_8021q virtual bridge id (no port when non-zero)
 *   tstamp     a raw hardware timestamp exactly as the tag carries it
 */
struct ofl_dsa_meta {
	uint32_t valid;     /**< OFL_DSA_M_* */
	uint32_t flags;     /**< OFL_DSA_MF_* */
	uint32_t port_mask; /**< TX destination port bitmap */
	uint8_t switch_id;  /**< device index in a cascade */
	uint8_t port;       /**< RX source port / TX single destination port */
	uint8_t prio;       /**< traffic class, priority or PCP */
	uint8_t cmd;        /**< frame kind (see above) */
	uint16_t code;      /**< reason or trap code */
	uint16_t aux;       /**< classification id, CPU queue mask */
	uint16_t vlan_tci;  /**< the VLAN TCI the tag carries */
	uint16_t vbid;      /**< tag_8021q virtual bridge id */
	uint64_t tstamp;    /**< raw hardware timestamp */
};

/* ------------------------------------------------------------------ */
/* Decode                                                              */

/**
 * The untagged frame, described over the tagged one.  The untagged frame is
 *
 *     hdr[0 .. hdr_len)  followed by  frame[rest_off .. rest_off + rest_len)
 *
 * where hdr is 12 MAC bytes, plus up to 4 bytes (an 802.1Q header the
 * kernel rebuilds from a dsa/edsa or mtk tag, in ins[]).  `hdr` points
 * either into the tagged frame (at mac_off) or into this view's own buf[]
 * (when bytes had to be rebuilt or, for the multi-buffer decode, copied):
 * it is valid while both the frame and this struct are.  Do not copy the
 * struct and use the copy's hdr; call ofl_dsa_untagged() on the original.
 */
struct ofl_dsa_view {
	const uint8_t *hdr;  /**< 12 MAC bytes (+ ins_len rebuilt bytes) */
	uint32_t hdr_len;    /**< 12 + ins_len */
	uint32_t mac_off;    /**< offset of DA in the tagged frame */
	uint32_t rest_off;   /**< where the untagged frame continues */
	uint32_t rest_len;   /**< how much of it */
	uint32_t tag_off;    /**< offset of the head tag (or of the tail tag
	                          for TAIL formats) in the tagged frame */
	uint16_t tag_len;    /**< head tag bytes (0 for none/tail) */
	uint16_t tail_len;   /**< bytes cut from the end (tail tag, trailer,
	                          timestamps, padding before a trailer) */
	uint8_t ins_len;     /**< 0 or 2 or 4 */
	uint8_t mac_patched; /**< 1 when the MACs differ from the frame's (sja1105
	                          link-local RX: DA bytes 3-4 are cleared) */
	uint8_t buf[16];     /**< backing store for hdr when needed */
};

/**
 * Decode one tagged frame held in one contiguous buffer.
 *
 * ops     the format (not NULL).
 * params  switch parameters or NULL for the defaults.
 * dir     OFL_DSA_RX or OFL_DSA_TX: which layout to expect.
 * frame   the tagged frame from the first byte (tag or DA) to the last byte
 *         before the FCS; read only, only during the call (but view->hdr may
 *         point into it afterwards).
 * meta    out (not NULL): zeroed, then filled.
 * view    out (may be NULL when only meta is wanted).
 *
 * Returns 0, or
 *   OFL_EINVAL   ops, frame or meta NULL, or dir unknown;
 *   OFL_EBADMSG  the frame is too short for the tag, or the tag is not what
 *                the format requires (EtherType, version, opcode, reserved
 *                code, trailer marker...).  Every read is bounds-checked.
 * A frame that decodes but carries no port (tag_8021q bridge VID, "none")
 * returns 0 without OFL_DSA_M_PORT in meta->valid.
 */
OFL_API int ofl_dsa_decode(const struct ofl_dsa_ops *ops,
                           const struct ofl_dsa_params *params, int dir,
                           const uint8_t *frame, uint32_t len,
                           struct ofl_dsa_meta *meta, struct ofl_dsa_view *view);

/**
 * Decode a tagged frame split over nbufs buffers (as struct ofl_pkt holds
 * it).  Reads the first and last bytes through a bounded scratch copy on
 * the stack; the view's hdr always points into view->buf and rest_off/
 * rest_len are offsets in the concatenated frame.  Same returns as
 * ofl_dsa_decode(); OFL_EINVAL also for bufs NULL or nbufs 0, OFL_E2BIG
 * if the total length does not fit in 32 bits.
 */
OFL_API int ofl_dsa_decode_bufs(const struct ofl_dsa_ops *ops,
                                const struct ofl_dsa_params *params, int dir,
                                const struct ofl_buf *bufs, unsigned nbufs,
                                struct ofl_dsa_meta *meta,
                                struct ofl_dsa_view *view);

/**
 * The untagged frame of a single-buffer decode as at most 2 pieces, writing
 * nothing: out[0] = view->hdr (12 or 16 bytes), out[1] = the rest.  frame
 * must be the buffer passed to ofl_dsa_decode().  Returns the number of
 * pieces (2), or OFL_EINVAL for NULL arguments or a view that does not fit
 * len.  The pieces point into frame and view.
 */
OFL_API int ofl_dsa_untagged(const uint8_t *frame, uint32_t len,
                             const struct ofl_dsa_view *view,
                             struct ofl_buf out[2]);

/**
 * Strip in place, as the kernel does: writes view->hdr (at most 16 bytes)
 * right before frame[rest_off] and returns through *start and *out_len the
 * untagged frame, which now starts at frame + *start.  Only the 16 bytes
 * before rest_off are written.  Returns 0 or OFL_EINVAL (NULL arguments, or
 * a view that does not fit len).
 */
OFL_API int ofl_dsa_strip(uint8_t *frame, uint32_t len,
                          const struct ofl_dsa_view *view, uint32_t *start,
                          uint32_t *out_len);

/* ------------------------------------------------------------------ */
/* Prepared decode: the per-frame path                                 */

/**
 * Where the untagged frame lies in a tagged frame of one contiguous buffer,
 * in 12 bytes (what struct ofl_dsa_view says, without its pointer and the
 * fields derived from the format).  The untagged frame is
 *
 *     frame[mac_off .. mac_off + 12)     the MACs; when mac_patched, DA
 *                                        bytes 3 and 4 read as 0
 *     ins[0 .. ins_len)                  rebuilt bytes (an 802.1Q header
 *                                        or TPID, dsa/edsa/mtk)
 *     frame[rest_off .. len - tail_len)  the rest
 *
 * ins[] holds ins_len bytes; the bytes past them are unspecified.  It
 * holds no pointer, so it may be copied and kept as long as the frame is.
 * ofl_dsa_cut_view() turns it into a struct ofl_dsa_view.
 */
struct ofl_dsa_cut {
	uint16_t mac_off;    /**< offset of DA in the tagged frame */
	uint16_t rest_off;   /**< where the untagged frame continues (12 +
	                          the head tag's length, for every format) */
	uint16_t tail_len;   /**< bytes cut from the end */
	uint8_t ins_len;     /**< 0, 2 or 4 */
	uint8_t mac_patched; /**< 1: DA bytes 3-4 are 0 in the untagged frame
	                          (sja1105/sja1110 link-local RX) */
	uint8_t ins[4];      /**< the rebuilt bytes */
};

/**
 * The short result of ofl_dsa_decode_brief(): what a receive path needs of
 * a tag to deliver the frame (which port, which switch, whether it is for
 * the stack) and where the untagged frame lies, in 20 bytes.  Each field
 * equals the one of the same name that ofl_dsa_decode_cut() gives for the
 * same frame and decoder: cut is its cut, flags its meta.flags (every
 * OFL_DSA_MF_* fits in 16 bits), valid its meta.valid & (OFL_DSA_M_PORT |
 * OFL_DSA_M_SWITCH), port and switch_id its meta.port and meta.switch_id
 * (0 when their valid bit is clear).  The other meta fields (priority,
 * codes, VLAN, timestamp...) are not computed.
 */
struct ofl_dsa_brief {
	struct ofl_dsa_cut cut; /**< where the untagged frame lies */
	uint16_t flags;         /**< OFL_DSA_MF_* */
	uint8_t valid;          /**< OFL_DSA_M_PORT and OFL_DSA_M_SWITCH only */
	uint8_t switch_id;      /**< device index in a cascade */
	uint8_t port;           /**< RX source port / TX destination port */
	uint8_t reserved[3];    /**< not written */
};

struct ofl_dsa_decoder;

/** Internal: the type of a format's prepared decode entry. */
typedef int (*ofl_dsa_decode_fn)(const struct ofl_dsa_decoder *d,
                                 const uint8_t *frame, uint32_t len,
                                 struct ofl_dsa_meta *meta,
                                 struct ofl_dsa_cut *cut);

/** Internal: the type of a format's brief decode entry. */
typedef int (*ofl_dsa_brief_fn)(const struct ofl_dsa_decoder *d,
                                const uint8_t *frame, uint32_t len,
                                struct ofl_dsa_brief *out);

/**
 * One format, one direction and one set of parameters, resolved once
 * (ofl_dsa_decoder_init) so that each frame goes straight to the format's
 * code (ofl_dsa_decode_cut).  The caller owns the storage (stack, its own
 * context struct); the library keeps no reference to it and allocates
 * nothing.  The fields are written by ofl_dsa_decoder_init() only: read
 * ops, dir and params if useful, change none of them (fn is internal).
 * A decoder holds a copy of the parameters and a pointer to the library's
 * constant format table: it may be copied, and is valid until the library
 * is unloaded.  Any number of threads may use one decoder at once.
 */
struct ofl_dsa_decoder {
	ofl_dsa_decode_fn fn;          /**< internal: the format's entry */
	const struct ofl_dsa_ops *ops; /**< the format */
	struct ofl_dsa_params params;  /**< a copy of the parameters */
	uint8_t dir;                   /**< OFL_DSA_RX or OFL_DSA_TX */
	uint8_t reserved[7];           /**< 0 */
	ofl_dsa_brief_fn brief;        /**< internal: the format's brief entry */
};

/**
 * Prepare d to decode frames of format ops in direction dir with params
 * (copied; NULL for the defaults).  size is sizeof(struct ofl_dsa_decoder)
 * as the caller was compiled with it.
 * Returns 0, or OFL_EINVAL (d or ops NULL, dir unknown, or size smaller
 * than this library's struct ofl_dsa_decoder; nothing written),
 * OFL_ENOTSUP (ops has no codec: not one of ofl_dsa_at()'s formats).
 */
OFL_API int ofl_dsa_decoder_init(struct ofl_dsa_decoder *d, size_t size,
                                 const struct ofl_dsa_ops *ops,
                                 const struct ofl_dsa_params *params, int dir);

/**
 * Decode one tagged frame held in one contiguous buffer with a prepared
 * decoder: the same checks and the same meta as ofl_dsa_decode(d->ops,
 * &d->params, d->dir, frame, len, meta, view), and the untagged frame as a
 * cut instead of a view (ofl_dsa_cut_view() gives the view).
 *
 * This is the per-frame entry: it checks no argument.  d must have been
 * set by ofl_dsa_decoder_init() (0 returned); meta and cut must point to
 * writable structs; frame must hold len bytes (it is read only, only during
 * the call).  meta is written whole: the fields of meta->valid filled, the
 * others zero.  cut is written on success only.
 *
 * Returns 0, or OFL_EBADMSG (the frame is too short for the tag, or the
 * tag is not what the format requires; meta is then all zero).
 */
OFL_API int ofl_dsa_decode_cut(const struct ofl_dsa_decoder *d,
                               const uint8_t *frame, uint32_t len,
                               struct ofl_dsa_meta *meta,
                               struct ofl_dsa_cut *cut);

/**
 * The per-frame decode at its narrowest: the same checks and the same
 * return as ofl_dsa_decode_cut(d, frame, len, ...), but only port, switch,
 * flags and the cut are computed and written (struct ofl_dsa_brief says
 * how each equals the full decode's).  Use it where the frame goes on by
 * port (in front of GRO, a bridge) and the other meta fields are not read;
 * decode the rare frame that needs them again with ofl_dsa_decode_cut().
 *
 * Checks no argument, like ofl_dsa_decode_cut(): d set by
 * ofl_dsa_decoder_init() (0 returned), out writable, frame holding len
 * bytes (read only, only during the call).  *out is written on success
 * only (its reserved[] bytes never).
 *
 * Returns 0, or OFL_EBADMSG (the frame is too short for the tag, or the
 * tag is not what the format requires; *out untouched).
 */
OFL_API int ofl_dsa_decode_brief(const struct ofl_dsa_decoder *d,
                                 const uint8_t *frame, uint32_t len,
                                 struct ofl_dsa_brief *out);

/**
 * The brief decode of n frames in one call: for each i < n, out[i] is what
 * ofl_dsa_decode_brief(d, frames[i].data, frames[i].len, &out[i]) would
 * write, and a frame it would refuse (OFL_EBADMSG) gets out[i] zeroed, all
 * but reserved[] (so out[i].cut.rest_off is 0, which no decoded frame has:
 * rest_off is at least 12).  One call and one check of the arguments per
 * batch, where ofl_dsa_decode_brief() is a call per frame; out[i] and
 * frames[i] are read and written in order, one frame at a time.
 *
 * d set by ofl_dsa_decoder_init() (0 returned).  frames[0 .. n) are read
 * only, during the call: each data points to len readable bytes and is not
 * NULL (not even when len is 0).  out[0 .. n) is written, every field but
 * reserved[], which is never written; out may not overlap frames.  Nothing
 * is kept after the call.
 *
 * Returns the number of frames refused (0 to n), or OFL_EINVAL (d NULL, or
 * n > 0 with frames or out NULL, or n > INT_MAX: nothing written).
 */
OFL_API int ofl_dsa_decode_brief_burst(const struct ofl_dsa_decoder *d,
                                       const struct ofl_buf *frames,
                                       unsigned n,
                                       struct ofl_dsa_brief *out);

/*
 * The packed brief: a struct ofl_dsa_brief in one 64-bit word (plus the
 * rebuilt bytes beside it), so that a batch decode writes one word per
 * frame.  Bit fields of ofl_dsa_packed.word, each read with its macro:
 *
 *   bits  0- 7  cut.rest_off      (0: the frame was refused; a decoded
 *                                  frame's is at least 12)
 *   bits  8-15  cut.mac_off
 *   bits 16-31  cut.tail_len      (all 16 bits: an sja1110 trailer with
 *                                  padding cuts more than a tag)
 *   bits 32-41  flags             (OFL_DSA_MF_*: every one is below 0x400)
 *   bits 42-44  cut.ins_len       (0, 2 or 4)
 *   bit  45     cut.mac_patched
 *   bit  46     valid & OFL_DSA_M_PORT
 *   bit  47     valid & OFL_DSA_M_SWITCH
 *   bits 48-55  switch_id
 *   bits 56-63  port
 *
 * rest_off and mac_off fit in 8 bits: rest_off is 12 plus the head tag
 * (ops->rx_head, tx_head: at most 20 bytes, 24 behind an sja1110 header).
 */
/** cut.rest_off of a packed word (0: the frame was refused) */
#define OFL_DSA_PK_REST_OFF(w)    ((unsigned)((w) & 0xFFu))
/** cut.mac_off of a packed word */
#define OFL_DSA_PK_MAC_OFF(w)     ((unsigned)((w) >> 8 & 0xFFu))
/** cut.tail_len of a packed word */
#define OFL_DSA_PK_TAIL_LEN(w)    ((unsigned)((w) >> 16 & 0xFFFFu))
/** cut.ins_len of a packed word (0, 2 or 4) */
#define OFL_DSA_PK_INS_LEN(w)     ((unsigned)((w) >> 42 & 0x7u))
/** cut.mac_patched of a packed word */
#define OFL_DSA_PK_MAC_PATCHED(w) ((unsigned)((w) >> 45 & 0x1u))
/** valid of a packed word (OFL_DSA_M_PORT, OFL_DSA_M_SWITCH) */
#define OFL_DSA_PK_VALID(w)       ((unsigned)(((w) >> 46 & 0x1u) | ((w) >> 45 & 0x4u)))
/** flags of a packed word (OFL_DSA_MF_*) */
#define OFL_DSA_PK_FLAGS(w)       ((unsigned)((w) >> 32 & 0x3FFu))
/** switch_id of a packed word */
#define OFL_DSA_PK_SWITCH(w)      ((unsigned)((w) >> 48 & 0xFFu))
/** port of a packed word */
#define OFL_DSA_PK_PORT(w)        ((unsigned)((w) >> 56 & 0xFFu))

/**
 * One frame's result of ofl_dsa_decode_packed_burst(): word holds what
 * struct ofl_dsa_brief holds but the rebuilt bytes (see the OFL_DSA_PK_*
 * macros above), ins the rebuilt bytes (cut.ins).
 */
struct ofl_dsa_packed {
	uint64_t word;       /**< the fields, OFL_DSA_PK_*(word); 0 when the
	                          frame was refused */
	uint8_t ins[4];      /**< the rebuilt bytes: written (all four) only
	                          when the word's ins_len is not 0; the bytes
	                          past ins_len are unspecified */
	uint8_t reserved[4]; /**< never written */
};

/**
 * The brief decode of n frames in one call, each frame's result packed in
 * one 64-bit word: for each i < n, out[i].word holds exactly the fields
 * ofl_dsa_decode_brief(d, frames[i].data, frames[i].len, &b) gives in b
 * (OFL_DSA_PK_PORT(word) == b.port, OFL_DSA_PK_REST_OFF(word) ==
 * b.cut.rest_off, and so on for every field but reserved[]), and
 * out[i].ins[0 .. ins_len) holds b.cut.ins[0 .. ins_len); a frame the
 * brief decode refuses (OFL_EBADMSG) gets out[i].word 0 and its ins[]
 * untouched, as has a decoded frame with ins_len 0.  The same checks as ofl_dsa_decode_brief(); what differs is
 * the output, one word where the brief is written as three, which is what
 * a loop over a batch of frames pays for per frame.
 *
 * d set by ofl_dsa_decoder_init() (0 returned).  frames[0 .. n) are read
 * only, during the call: each data points to len readable bytes and is not
 * NULL (not even when len is 0).  out[0 .. n) is written in order (word
 * always, ins[] as said above, reserved[] never); out may not overlap
 * frames.  Nothing is kept after the call.
 *
 * Returns the number of frames refused (0 to n), or OFL_EINVAL (d NULL, or
 * n > 0 with frames or out NULL, or n > INT_MAX: nothing written).
 */
OFL_API int ofl_dsa_decode_packed_burst(const struct ofl_dsa_decoder *d,
                                        const struct ofl_buf *frames,
                                        unsigned n,
                                        struct ofl_dsa_packed *out);

/**
 * The view of a cut: fills *view exactly as ofl_dsa_decode() of the same
 * frame would have (hdr points into frame, or into view->buf when bytes
 * are rebuilt or patched), for ofl_dsa_untagged() and ofl_dsa_strip().
 * ops is the decoder's format (it says where a tail tag is), frame and len
 * the frame decoded.  Returns 0, or OFL_EINVAL (a NULL argument, or a cut
 * that does not fit len: not one decoded from this frame; view untouched).
 */
OFL_API int ofl_dsa_cut_view(const struct ofl_dsa_ops *ops,
                             const uint8_t *frame, uint32_t len,
                             const struct ofl_dsa_cut *cut,
                             struct ofl_dsa_view *view);

/* ------------------------------------------------------------------ */
/* Encode                                                              */

/**
 * Room encode needs for an untagged frame of len bytes: *head bytes before
 * it, *tail bytes after it (padding + tail tag + FCS).  Either out pointer
 * may be NULL.  Returns 0 or OFL_EINVAL.
 */
OFL_API int ofl_dsa_room(const struct ofl_dsa_ops *ops,
                         const struct ofl_dsa_params *params, int dir,
                         uint32_t len, uint32_t *head, uint32_t *tail);

/**
 * Tag an untagged Ethernet frame in place.
 *
 * buf[0 .. size) is the caller's buffer; the untagged frame (DA first, no
 * FCS) is at buf[*off .. *off + *len).  Bytes before *off are headroom,
 * bytes after the frame are tailroom; both are the caller's and encode may
 * write all of them that it reports through ofl_dsa_room().  On success
 * *off and *len describe the tagged frame.  TX first zero-pads to
 * ops->tx_min_len, or to at least 60 bytes when params->conduit_tailroom
 * is non-zero (the kernel's rules), then writes the tag: after-SA tags
 * move the 12 MAC bytes back, prepended tags go before DA, tail tags after
 * the frame.  dsa/edsa fold an existing 802.1Q header at offset 12 into the
 * tag and mtk overwrites its TPID, as Linux does.  meta is read only.
 *
 * Returns 0, or
 *   OFL_EINVAL   NULL pointers, unknown dir, *off + *len > size, a frame
 *                shorter than 14 bytes, or one whose 802.1Q header (TPID
 *                0x8100 at offset 12) is cut short, for the formats that read
 *                it (dsa, edsa, mtk: shorter than 18 bytes);
 *   OFL_ENOSPC   not enough headroom or tailroom (nothing was written);
 *   OFL_ENOTSUP  meta asks for something the format cannot express in this
 *                direction (port or switch out of range, empty port mask,
 *                a bit the tag has no room for); nothing was written.
 */
OFL_API int ofl_dsa_encode(const struct ofl_dsa_ops *ops,
                           const struct ofl_dsa_params *params, int dir,
                           const struct ofl_dsa_meta *meta, uint8_t *buf,
                           uint32_t size, uint32_t *off, uint32_t *len);

#ifdef __cplusplus
}
#endif
#endif /* OFL_DSA_H */
