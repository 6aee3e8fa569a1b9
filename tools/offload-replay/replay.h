/*
 * replay.h - the replay core of offload-replay, also linked by the tests
 * (static library ofl_replaycore): run the GRO engine over a capture loaded
 * by capture.h, with the capture's time stamps as the clock, like a NAPI
 * driver would.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef OFL_REPLAY_REPLAY_H
#define OFL_REPLAY_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <ofl/gro.h>

#include "capture.h"

/** replay_gro(): the engine refused the configuration (an option out of range) */
#define REPLAY_ECONFIG (-2)

/** Options of a GRO replay (0 = the library's default where noted). */
struct replay_gro_opts {
	unsigned burst;            /**< frames per poll; 0 = one poll for the whole capture */
	uint64_t flush_timeout_ns; /**< ofl_gro_config.flush_timeout_ns */
	unsigned batch;            /**< ofl_gro_config.normal_batch; 0 = default */
	uint32_t max_size;         /**< ofl_gro_config.max_size; 0 = default */
	uint32_t flows;            /**< ofl_gro_config.max_flows; 0 = default */
	uint8_t csum_status;       /**< what the simulated NIC reports for every frame:
	                                OFL_CSUM_NONE (GRO verifies), OFL_CSUM_UNNECESSARY,
	                                or OFL_CSUM_COMPLETE (the replay computes the sum) */
	uint32_t split;            /**< feed frames longer than this as two buffers split
	                                at this offset (multi-buffer input); 0 = one buffer */
	/* Linux NAPI as the kernel oracle's veth shows it (see --kernel-napi): */
	unsigned first_burst;      /**< frames in the first poll (those that had arrived);
	                                0 = burst */
	int budget_flush;          /**< a poll that used its whole budget (burst frames)
	                                flushes everything (napi_poll with HZ < 1000)
	                                instead of ofl_gro_poll_end() */
	int frozen_clock;          /**< every frame arrives at the first one's time
	                                (sent back to back), ignoring its time stamp */
	/* GRO through a DSA tag (ofl_gro_config.dsa, dsa_params, dsa_keep_tag): */
	const struct ofl_dsa_ops *dsa;  /**< tag format of every frame; NULL = none */
	struct ofl_dsa_params dsa_params; /**< with dsa (all zero: the defaults) */
	int dsa_keep_tag;          /**< deliver as received instead of untagged */
	uint8_t l2;                /**< ofl_gro_config.l2: OFL_L2_NONE for frames
	                                that start at the IP header (l3_link.h) */
	uint8_t udp;               /**< ofl_gro_config.udp: merge UDP datagrams too (--udp) */
	uint8_t vxlan_nports;      /**< ofl_gro_config.vxlan_ports (--vxlan-port) */
	uint8_t geneve_nports;     /**< ofl_gro_config.geneve_ports (--geneve-port) */
	uint16_t vxlan_ports[OFL_GRO_TUN_PORTS_MAX];
	uint16_t geneve_ports[OFL_GRO_TUN_PORTS_MAX];
	uint8_t ipip;              /**< ofl_gro_config.ipip: 1 (default, --ipip) or
	                                0 (--no-ipip) */
	uint8_t gre;               /**< ofl_gro_config.gre: 1 (default, --gre) or
	                                0 (--no-gre) */
	uint8_t fraglist;          /**< ofl_gro_config.fraglist (--fraglist) */
	uint8_t vxlan_gpe_nports;  /**< ofl_gro_config.vxlan_gpe_ports (--vxlan-gpe-port) */
	uint16_t vxlan_gpe_ports[OFL_GRO_TUN_PORTS_MAX];
};

/** Default replay options: burst 64 (like NAPI), OFL_CSUM_NONE, one buffer per
 *  frame, library defaults otherwise (IP-in-IP and GRE merged, as Linux). */
void replay_gro_opts_default(struct replay_gro_opts *o);

/** The engine configuration of these options (deliver and user left for
 *  the caller to set). */
void replay_gro_config(const struct replay_gro_opts *o, struct ofl_gro_config *cfg);

/** What a GRO replay did, besides the engine's own counters. */
struct replay_gro_result {
	struct ofl_gro_stats stats; /**< the engine's counters at the end */
	uint64_t polls;             /**< ofl_gro_poll_end() calls with work done */
	uint64_t timer_fires;       /**< simulated flush timers */
	uint64_t out_pkts;          /**< delivered packets */
	uint64_t out_bytes;         /**< their lengths (ofl_gro_out.len) */
	uint64_t gro_pkts;          /**< of which GRO packets (seg_count >= 1) */
	uint64_t gro_segs;          /**< segments in them */
	uint64_t merged_pkts;       /**< GRO packets with seg_count > 1 */
	uint64_t merged_segs;       /**< segments in them */
	unsigned max_list;          /**< most packets in one deliver callback */
};

/**
 * Called for every delivered packet, in delivery order, with the replay
 * clock (ns) at delivery.  The cookie of every segment is the address of
 * its struct replay_frame in the capture (use replay_cookie_index()).
 */
typedef void (*replay_gro_out_fn)(void *user, const struct ofl_gro_out *out, uint64_t now_ns);

/**
 * Called after every ofl_gro_poll_end() with its arguments and result:
 * work_done (0 for the flush timer), now_ns, the deadline it returned, and
 * how many frames had been received by then (frames[0..received)).
 */
typedef void (*replay_gro_poll_fn)(void *user, unsigned work_done, uint64_t now_ns,
                                   uint64_t deadline_ns, size_t received);

/** What a replay reports to, as it happens (members may be NULL). */
struct replay_gro_hooks {
	replay_gro_out_fn out;
	replay_gro_poll_fn poll;
	void *user;
};

/**
 * Replay the capture through a new GRO context.  Polls of o->burst frames:
 * each frame is received at its time stamp (the clock never goes back),
 * then ofl_gro_poll_end(work_done, time of the poll's last frame).  When a
 * deadline is returned and the next frame is not earlier (or the capture
 * ends), the timer fires: ofl_gro_poll_end(0, deadline).  At the end
 * everything is flushed and the context destroyed.
 * Returns 0; REPLAY_ECONFIG when ofl_gro_create() refused the options as out
 * of range; -1 when the engine refused another call (message in err).
 */
int replay_gro(const struct replay_capture *c, const struct replay_gro_opts *o,
               const struct replay_gro_hooks *hooks, struct replay_gro_result *res, char *err,
               size_t errlen);

/**
 * The sum a NIC reporting CHECKSUM_COMPLETE gives for a frame (ofl_pkt.csum):
 * the 16-bit ones'-complement sum of everything after the 14-byte Ethernet
 * header, words taken in memory order (as Linux's skb->csum), folded.
 */
uint16_t replay_complete_csum(const uint8_t *frame, uint32_t len);

/** The same from byte from on (0 for a raw IP packet). */
uint16_t replay_complete_csum_from(const uint8_t *frame, uint32_t len, uint32_t from);

/** Index in c->frames of the frame a delivered cookie stands for. */
size_t replay_cookie_index(const struct replay_capture *c, const void *cookie);

#endif /* OFL_REPLAY_REPLAY_H */
