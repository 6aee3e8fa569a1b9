/*
 * af_packet_gro.c - GRO on frames received from a veth through an AF_PACKET
 * TPACKET_V3 ring, the way a userspace stack (or a capture tool) would.
 *
 * NEEDS ROOT: it creates two private network namespaces joined by a veth
 * pair; without root or namespaces it prints why and
 * exits 77 (ctest SKIP_RETURN_CODE).  The namespaces are anonymous and go
 * away with the process, however it ends; nothing outside them is touched.
 *
 *   ns A: TCP sender -- ofl-va ==veth== ofl-vb -- ns B: TCP receiver
 *                                         |
 *                        AF_PACKET TPACKET_V3 ring on ofl-vb (RX only)
 *                                         |
 *                       one ring block = one poll: ofl_gro_receive() each
 *                       frame, ofl_gro_poll_end(), give the block back
 *
 * TSO and GSO are turned off on ofl-va (ethtool ioctls), so the frames on the
 * veth are MSS-sized, as from a NIC.  Nothing is written anywhere: the program
 * counts what GRO merged.  The checksum status comes from the ring: a frame
 * sent by a local stack carries TP_STATUS_CSUMNOTREADY (CHECKSUM_PARTIAL: its
 * checksum was left to an offload and never computed, the field holds the
 * pseudo-header seed) and is OFL_CSUM_PARTIAL, which GRO takes as verified
 * without summing it and keeps partial in what it delivers;
 * TP_STATUS_CSUM_VALID (a NIC verified it) is OFL_CSUM_UNNECESSARY; the rest
 * OFL_CSUM_NONE (GRO verifies in software).
 *
 *   usage: af_packet_gro [-m MiB] [-t seconds]
 *
 * Exit: 0 frames merged and the transfer intact, 1 failure, 77 skipped.
 */
#define _GNU_SOURCE
#include <ofl/gro.h>

#include "transfer.h"

#include <linux/ethtool.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#define BLOCK_SIZE (1u << 18)
#define BLOCK_NR 16u
#define FRAME_SIZE 2048u

struct counts {
	uint64_t frames, pkts_out, gro_pkts, gro_segs, merged_pkts, merged_segs, max_segs;
	uint64_t rx_partial, rx_valid, out_partial; /* checksum states in and out */
};

static struct xfer xfer;

static void deliver(void *user, const struct ofl_gro_out *pkts, unsigned n)
{
	struct counts *c = user;
	for (unsigned i = 0; i < n; i++) {
		/* a stack would build its packet from hdr + slices here */
		c->pkts_out++;
		if (pkts[i].seg_count >= 1) {
			c->gro_pkts++;
			c->gro_segs += pkts[i].seg_count;
		}
		if (pkts[i].seg_count > 1) {
			c->merged_pkts++;
			c->merged_segs += pkts[i].seg_count;
		}
		if (pkts[i].seg_count > c->max_segs)
			c->max_segs = pkts[i].seg_count;
		/* a merged packet is always partial; a lone segment received
		 * partial stays so (ofl_gro_out.flags); a NORMAL one received
		 * partial says it with CSUM_RX_PARTIAL */
		if (pkts[i].flags & (OFL_GRO_OUT_F_CSUM_PARTIAL | OFL_GRO_OUT_F_CSUM_RX_PARTIAL))
			c->out_partial++;
	}
}

/* TSO and GSO off on ifname (legacy ethtool commands, still supported). */
static int offloads_off(const char *ifname)
{
	static const uint32_t cmds[] = {ETHTOOL_STSO, ETHTOOL_SGSO};
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), rc = 0;
	if (s < 0)
		return -1;
	for (unsigned i = 0; i < 2; i++) {
		struct ethtool_value ev = {.cmd = cmds[i], .data = 0};
		struct ifreq ifr = {.ifr_data = (char *)&ev};
		snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", ifname);
		rc |= ioctl(s, SIOCETHTOOL, &ifr);
	}
	close(s);
	return rc;
}

/* RX ring on ifname: TPACKET_V3, outgoing frames ignored. */
static int ring_open(const char *ifname, uint8_t **ring)
{
	int v = TPACKET_V3, one = 1;
	struct tpacket_req3 req = {
		.tp_block_size = BLOCK_SIZE,
		.tp_block_nr = BLOCK_NR,
		.tp_frame_size = FRAME_SIZE,
		.tp_frame_nr = BLOCK_SIZE / FRAME_SIZE * BLOCK_NR,
		.tp_retire_blk_tov = 2, /* ms: a block is handed over after this even if not full */
	};
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = (int)if_nametoindex(ifname),
	};
	int s = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
	if (s < 0 || sll.sll_ifindex == 0 ||
	    setsockopt(s, SOL_PACKET, PACKET_VERSION, &v, sizeof v) != 0 ||
	    setsockopt(s, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof one) != 0 ||
	    setsockopt(s, SOL_PACKET, PACKET_RX_RING, &req, sizeof req) != 0)
		return -1;
	*ring = mmap(NULL, (size_t)BLOCK_SIZE * BLOCK_NR, PROT_READ | PROT_WRITE, MAP_SHARED, s, 0);
	if (*ring == MAP_FAILED || bind(s, (struct sockaddr *)&sll, sizeof sll) != 0)
		return -1;
	return s;
}

/* One ring block = one poll.  Returns the frames it held. */
static unsigned block_poll(struct ofl_gro *gro, struct tpacket_block_desc *bd, struct counts *c)
{
	uint64_t now = xfer_now_ns();
	unsigned n = bd->hdr.bh1.num_pkts;
	struct tpacket3_hdr *h = (struct tpacket3_hdr *)((uint8_t *)bd + bd->hdr.bh1.offset_to_first_pkt);
	for (unsigned i = 0; i < n; i++) {
		const struct ofl_buf buf = {.data = (uint8_t *)h + h->tp_mac, .len = h->tp_snaplen};
		struct ofl_pkt pkt = {
			.bufs = &buf,
			.nbufs = 1,
			.csum_status = (h->tp_status & TP_STATUS_CSUMNOTREADY) ? OFL_CSUM_PARTIAL
			               : (h->tp_status & TP_STATUS_CSUM_VALID) ? OFL_CSUM_UNNECESSARY
			                                                       : OFL_CSUM_NONE,
			.rx_hash = h->hv1.tp_rxhash,
			.cookie = h, /* the frame's bytes stay in the block until delivered */
		};
		c->rx_partial += pkt.csum_status == OFL_CSUM_PARTIAL;
		c->rx_valid += pkt.csum_status == OFL_CSUM_UNNECESSARY;
		if (h->tp_status & TP_STATUS_VLAN_VALID) {
			pkt.flags |= OFL_PKT_F_VLAN;
			pkt.vlan_tci = (uint16_t)h->hv1.tp_vlan_tci;
		}
		if (ofl_gro_receive(gro, &pkt, now) < 0)
			fprintf(stderr, "gro receive refused a frame\n");
		c->frames++;
		h = (struct tpacket3_hdr *)((uint8_t *)h + h->tp_next_offset);
	}
	/* flush timeout 0: everything held goes out now, so the block is free */
	if (ofl_gro_poll_end(gro, n, now, NULL) != 0)
		fprintf(stderr, "gro poll_end failed\n");
	return n;
}

int main(int argc, char **argv)
{
	struct xfer_opts o = {.mib = 16, .timeout_s = 60};
	int rc = xfer_options(argc, argv, "m:t:", &o);
	if (rc >= 0)
		return rc;
	unsigned mib = o.mib, timeout_s = o.timeout_s;
	int orig = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (orig < 0)
		return xfer_skip("open /proc/self/ns/net");
	/* namespace B (receiver), kept by an fd */
	if (unshare(CLONE_NEWNET) != 0)
		return xfer_skip("unshare(CLONE_NEWNET)");
	int nsB = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	/* namespace A (sender), with the veth pair whose peer goes to B */
	if (nsB < 0 || unshare(CLONE_NEWNET) != 0 || xfer_veth_add("ofl-va", "ofl-vb", nsB) != 0 ||
	    xfer_if_config("ofl-va", 0, "198.18.1.1", 24) != 0 || offloads_off("ofl-va") != 0) {
		perror("namespace A");
		return 1;
	}
	int send_sock = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (send_sock < 0 || setns(nsB, CLONE_NEWNET) != 0 ||
	    xfer_if_config("ofl-vb", 0, "198.18.1.2", 24) != 0) {
		perror("namespace B");
		return 1;
	}
	uint8_t *ring = NULL;
	int ps = ring_open("ofl-vb", &ring);
	int ls = xfer_listen(0, "198.18.1.2");
	if (ps < 0 || ls < 0 || setns(orig, CLONE_NEWNET) != 0) {
		perror("ring/listen");
		return 1;
	}

	struct counts c = {0};
	struct ofl_gro_config cfg;
	struct ofl_gro *gro;
	if (ofl_gro_config_default(&cfg) != 0)
		return 1;
	cfg.deliver = deliver;
	cfg.user = &c;
	if (ofl_gro_create(&cfg, &gro) != 0)
		return 1;

	uint64_t total = (uint64_t)mib << 20;
	uint64_t t0 = xfer_now_ns(), deadline = t0 + (uint64_t)timeout_s * 1000000000u;
	if (xfer_start(&xfer, ls, send_sock, 0, "198.18.1.2", total) != 0)
		return 1;
	printf("TCP transfer of %u MiB over veth, TPACKET_V3 ring %u x %u KiB on ofl-vb\n", mib,
	       BLOCK_NR, BLOCK_SIZE >> 10);

	unsigned blk = 0, blocks = 0;
	int failed = 0;
	while (!(xfer.have[0] && xfer.have[1]) && !failed) {
		struct pollfd pf[3] = {{.fd = ps, .events = POLLIN}};
		xfer_pollfds(&xfer, pf + 1);
		if (xfer_now_ns() > deadline) {
			fprintf(stderr, "FAIL: timeout after %u s\n", timeout_s);
			failed = 1;
			break;
		}
		if (poll(pf, 3, 100) < 0 && errno != EINTR) {
			perror("poll");
			failed = 1;
		}
		for (;;) { /* every block the kernel handed over */
			struct tpacket_block_desc *bd = (void *)(ring + (size_t)blk * BLOCK_SIZE);
			if (!(__atomic_load_n(&bd->hdr.bh1.block_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER))
				break;
			block_poll(gro, bd, &c);
			__atomic_store_n(&bd->hdr.bh1.block_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
			blk = (blk + 1) % BLOCK_NR;
			blocks++;
		}
		if (xfer_poll_results(&xfer, pf + 1) != 0)
			failed = 1;
	}
	double secs = (double)(xfer_now_ns() - t0) / 1e9;
	xfer_kill(&xfer);

	struct tpacket_stats_v3 ts;
	socklen_t tl = sizeof ts;
	if (getsockopt(ps, SOL_PACKET, PACKET_STATISTICS, &ts, &tl) != 0)
		memset(&ts, 0, sizeof ts);
	struct ofl_gro_stats st;
	ofl_gro_get_stats(gro, &st, sizeof st);
	ofl_gro_destroy(gro);
	printf("ring: %u blocks, %llu frames (ring drops %u); GRO: %llu packets out, %llu super-packets "
	       "merged from %llu segments (%.1f segments each, largest %llu); merged %llu, held %llu, "
	       "normal %llu\n",
	       blocks, (unsigned long long)c.frames, ts.tp_drops, (unsigned long long)c.pkts_out,
	       (unsigned long long)c.merged_pkts, (unsigned long long)c.merged_segs,
	       c.merged_pkts ? (double)c.merged_segs / (double)c.merged_pkts : 0.0,
	       (unsigned long long)c.max_segs, (unsigned long long)st.merged,
	       (unsigned long long)st.held, (unsigned long long)st.normal);
	printf("checksums: %llu frames partial (TP_STATUS_CSUMNOTREADY), %llu verified "
	       "(TP_STATUS_CSUM_VALID), %llu none; %llu packets delivered partial\n",
	       (unsigned long long)c.rx_partial, (unsigned long long)c.rx_valid,
	       (unsigned long long)(c.frames - c.rx_partial - c.rx_valid), (unsigned long long)c.out_partial);
	if (!failed && !xfer_intact(&xfer, total))
		failed = 1;
	if (!failed && (c.merged_pkts == 0 || st.out_segs != st.rx_pkts))
		failed = 1;
	printf("%s after %.2f s\n", failed ? "FAIL" : "OK", secs);
	return failed;
}
