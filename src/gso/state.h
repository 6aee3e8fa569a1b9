/*
 * state.h - what a GSO iterator holds (struct gso_it): the library's view of
 * the caller's struct ofl_gso_iter, an opaque block of OFL_GSO_ITER_SIZE
 * bytes.  Fields here may change in any release; only the block's size and
 * alignment are ABI (checked below).  Public entry points convert with
 * gso_it() / gso_itc(); everything inside src/gso works on struct gso_it.
 */
#ifndef OFL_GSO_STATE_H
#define OFL_GSO_STATE_H

#include <ofl/gso.h>

struct gso_it {
	const void *units;     /* struct ofl_buf[] or struct ofl_slice[] */
	uint32_t nunits;
	const uint8_t *hdr0;   /* GRO input: its header (read at start only) */
	uint32_t hdr0_len;
	uint8_t unit_kind;     /* 0 ofl_buf, 1 ofl_slice, 2 GRO header + slices */
	uint8_t type, csum, l3;
	uint8_t nvlan, done, hbh_cut, l4proto;
	uint8_t why;           /* enum ofl_gso_why of the last start */
	uint16_t flags;
	uint16_t in_hdr_len;   /* headers in the input (after skip) */
	uint16_t hdr_len;      /* headers of a segment (UDP_FRAG: of a non-first one) */
	uint16_t l3_off, l4_off, l3_hlen; /* output coordinates */
	uint16_t ext_len;      /* IPv6 extension header bytes kept */
	uint16_t extra_l2_len, extra_l2_off;
	uint32_t seg_size, nsegs, seg, max_slices;
	uint32_t payload;      /* bytes after the input headers */
	uint32_t skip;         /* bytes before the frame in unit 0 (virtio_net_hdr) */
	uint32_t pay_base;     /* frame offset of the payload (input) */
	uint32_t seq0, ip6_frag_id;
	uint16_t id0;
	uint16_t udp_csum;     /* UDP_FRAG: checksum over the whole datagram */
	uint32_t ps_base;      /* pseudo header: addresses + protocol (16-bit BE words) */
	uint32_t ip_base;      /* IPv4 header without length, ID, frag_off, checksum */
	uint32_t l4_base;      /* L4 header without the per-segment words (0 when no
	                          L4 checksum is computed in software) */
	/* cursor: where segment `seg` starts */
	uint32_t cur_unit, cur_off, rel_next;
	ofl_gso_l2_fn l2_fill;
	void *l2_user;
	/* tunnel (tunnel.c): l3_off/l4_off above are the inner headers' */
	uint8_t tun;           /* enum ofl_gso_tunnel, 0 none */
	uint8_t o_l3;          /* outer IP version */
	uint8_t o_csum;        /* 1: outer UDP / GRE checksum computed per segment */
	uint16_t o_l3_off, o_l4_off, o_id0; /* output coordinates; o_l4_off 0: IP-in-IP */
	uint32_t o_ip_base;    /* outer IPv4 header without length, ID, checksum */
	uint32_t o_ps_base;    /* outer UDP pseudo header without the length */
	uint32_t fend;         /* the fast window (fast.h): segments seg .. fend
	                          - 1; empty (fend <= seg) unless opened by
	                          fast_window(); closed (0) wherever seg, the
	                          cursor or done move otherwise */
	uint8_t tmpl[OFL_GSO_MAX_HDR]; /* the output header template */
	/* the fast window's cache (fast.h, fast_window()), read only while
	   fend > seg, so a start need not clear it */
	uint64_t win_w0;       /* IPv4 bytes 4..11 of segment 0 (stepped back) */
	uint64_t win_wstep;    /* ... and from one segment to the next */
	const uint8_t *win_buf; /* the data of the buffer the window is in */
	uint8_t win_rec[48];   /* its segments' record bytes 32..71 and 80..87 */
	uint8_t win_mode;      /* GSO_WIN_* */
};

_Static_assert(sizeof(struct gso_it) <= sizeof(struct ofl_gso_iter),
               "the GSO iterator state outgrew OFL_GSO_ITER_SIZE (an ABI break)");
_Static_assert(_Alignof(struct gso_it) <= _Alignof(struct ofl_gso_iter),
               "the GSO iterator state needs more alignment than struct ofl_gso_iter");

/* The state inside a caller's iterator (NULL stays NULL). */
static inline struct gso_it *gso_it(struct ofl_gso_iter *it)
{
	return (struct gso_it *)(void *)it;
}

static inline const struct gso_it *gso_itc(const struct ofl_gso_iter *it)
{
	return (const struct gso_it *)(const void *)it;
}

#endif /* OFL_GSO_STATE_H */
