/*
 * af_xdp_gro.c - GRO on multi-buffer frames received through an AF_XDP
 * socket (XDP_USE_SG, Linux >= 6.6), the way a userspace stack would use it:
 * each 9000-MTU frame arrives as several UMEM chunks, goes to GRO as a
 * buffer list (no copy), and its chunks go back to the fill ring only when
 * GRO hands its cookie back.
 *
 * NEEDS ROOT: it creates two private network namespaces joined by a veth
 * pair (both MTU 9000); without root, namespaces, BPF, AF_XDP or
 * multi-buffer AF_XDP in the kernel it prints why and exits 77 (ctest
 * SKIP_RETURN_CODE).  The namespaces are anonymous and go away with the
 * process, however it ends; nothing outside them is touched.
 *
 *   ns A: AF_PACKET sender -- ofl-va ==veth== ofl-vb -- ns B
 *                                                 |
 *                  XDP program xdp_frags.bpf.o (SEC("xdp.frags")): every
 *                  frame to the XSKMAP slot of its queue
 *                                                 |
 *                  AF_XDP socket on ofl-vb queue 0, XDP_COPY | XDP_USE_SG,
 *                  UMEM chunks of 2048 (-c 4096) bytes, each holding its
 *                  size less 256 bytes of XDP headroom: a 9014-byte frame
 *                  is 6 (3) descriptors, XDP_PKT_CONTD on all but the last
 *                                                 |
 *                  ofl_gro_receive_burst() per batch of descriptors; the
 *                  deliver callback checks each packet and refills the fill
 *                  ring with the chunks of every cookie it is given
 *
 * The traffic: a real TCP connection cannot run here (the socket takes the
 * frames away from ns B's stack, so nothing would ever be acknowledged), so
 * the program crafts the bulk transfer itself: -f TCP/IPv4 flows, MSS-sized
 * segments (MTU 9000: 8960 bytes of payload) of xorshift data with correct
 * checksums, sent into ofl-va from ns A through an AF_PACKET socket.  It
 * sends in rounds (14 segments of each flow, flow after flow, at most 112) and
 * waits until every frame of a round came out of the socket before sending
 * the next, so nothing is lost to a full ring; a round is one GRO poll
 * (ofl_gro_poll_end() at its end).  The checksum status is NONE (AF_XDP
 * says nothing about it): GRO verifies every checksum across the chunks.
 *
 * Conservation, checked at the end: per flow, every payload byte arrives
 * once, in sequence order, with the sender's FNV-1a hash; every frame sent
 * is received and every segment delivered (GRO out_segs == rx_pkts); every
 * UMEM chunk is back in the fill ring; the socket dropped nothing.
 *
 *   usage: af_xdp_gro [-m MiB] [-f flows] [-c chunk size] [-t seconds] [-p xdp_frags.bpf.o]
 *
 * Exit: 0 merged and conserved, 1 failure, 77 skipped.
 */
#define _GNU_SOURCE
#include <ofl/csum.h>
#include <ofl/gro.h>

#include "transfer.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <linux/if_xdp.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <xdp/xsk.h>

/* Multi-buffer AF_XDP (Linux 6.6 UAPI); older if_xdp.h (Debian 12's) lack them. */
#ifndef XDP_USE_SG
#define XDP_USE_SG (1 << 4) /* bind flag: one descriptor per buffer of a frame */
#endif
#ifndef XDP_PKT_CONTD
#define XDP_PKT_CONTD (1 << 0) /* desc option: the frame goes on in the next one */
#endif

#ifndef OFL_XDP_PROG_PATH
#define OFL_XDP_PROG_PATH "xdp_frags.bpf.o"
#endif

#define MTU 9000u
#define MSS (MTU - 20u - 20u)  /* IPv4 + TCP without options */
#define HDR_LEN (14u + 20u + 20u)
#define NUM_CHUNKS 4096u       /* UMEM: 8 or 16 MiB */
#define MAX_FRAGS 18u          /* descriptors per frame the kernel may use (17 frags + 1) */
#define BATCH 64u              /* descriptors read at once */
#define ROUND_SEGS 14u         /* segments per flow per round: two full GRO packets */
#define ROUND_FRAMES 112u      /* frames per round: 672 chunks at most, fewer than the
                                  UMEM's and than veth's 256-frame ring */
#define MAX_FLOWS 64u
#define BASE_PORT 40000u
#define MAX_HIST 256u

/* One received frame: its chunks, as GRO sees them and as the fill ring
 * wants them back.  Indexed by the frame's first chunk; the cookie. */
struct frame {
	unsigned n;
	int in_gro;   /* handed to GRO, cookie not yet back */
	struct ofl_buf bufs[MAX_FRAGS];
	uint64_t addr[MAX_FRAGS];
};

struct flow {
	/* sender */
	uint64_t x, total, sent, tx_hash;
	uint32_t tx_seq;
	uint16_t ip_id;
	/* receiver */
	uint64_t rx_bytes, rx_hash;
	uint32_t rx_seq;
};

struct app {
	unsigned chunk;
	uint8_t *umem_area;
	size_t umem_size;
	struct xsk_ring_prod fq;
	struct xsk_ring_cons cq, rx;
	struct frame *frames;    /* NUM_CHUNKS, by first chunk */
	struct frame *cur;       /* a frame whose last descriptor is still to come */
	unsigned nflows, next_flow;
	struct flow flows[MAX_FLOWS];
	uint8_t src_mac[6], dst_mac[6];
	/* counters */
	uint64_t tx_frames, rx_frames, rx_descs, multi_frames, max_descs;
	uint64_t chunks_out;     /* chunks handed to GRO and not yet back in the fill ring */
	uint64_t out_pkts, merged_pkts, merged_segs, normal_pkts;
	uint64_t other, bad;     /* not our flows; our flows, but wrong */
	uint64_t copied;         /* slices that do not point into the UMEM */
	uint64_t seg_hist[MAX_HIST + 1];
};

static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint32_t get32(const uint8_t *p) { return (uint32_t)get16(p) << 16 | get16(p + 2); }
static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 8); p[1] = (uint8_t)v; }
static void put32(uint8_t *p, uint32_t v) { put16(p, v >> 16); put16(p + 2, v); }

/* --- receive side ------------------------------------------------------- */

/* The chunks of a frame go back to the kernel.  The fill ring holds every
 * chunk of the UMEM, so there is always room. */
static int refill(struct app *a, struct frame *f)
{
	uint32_t idx = 0;
	if (!f->in_gro || xsk_ring_prod__reserve(&a->fq, f->n, &idx) != f->n)
		return -1; /* a cookie handed back twice, or a full fill ring */
	f->in_gro = 0;
	for (unsigned i = 0; i < f->n; i++)
		*xsk_ring_prod__fill_addr(&a->fq, idx + i) = f->addr[i];
	xsk_ring_prod__submit(&a->fq, f->n);
	a->chunks_out -= f->n;
	return 0;
}

/* Check one delivered packet against its flow and hash its payload.  The
 * headers are in hdr (GRO packet) or at the start of the first slice
 * (NORMAL: the frame as received; its first chunk holds them). */
static void account(struct app *a, const struct ofl_gro_out *o)
{
	const uint8_t *h = o->hdr_len ? o->hdr : o->slices[0].data;
	uint32_t hl = o->hdr_len ? o->hdr_len : o->slices[0].len;
	if (hl < HDR_LEN || get16(h + 12) != ETH_P_IP || h[14] != 0x45 || h[23] != 6) {
		a->other++;
		return;
	}
	const uint8_t *ip = h + 14, *tcp = ip + 20;
	unsigned port = get16(tcp), doff = (unsigned)(tcp[12] >> 4) * 4u;
	if (port < BASE_PORT || port >= BASE_PORT + a->nflows || 14u + 20u + doff > hl) {
		a->other++;
		return;
	}
	struct flow *fl = &a->flows[port - BASE_PORT];
	uint32_t skip = o->hdr_len ? 0 : 14u + 20u + doff; /* payload offset in the slices */
	uint32_t paylen = (uint32_t)get16(ip + 2) - 20u - doff, have = 0;
	for (uint32_t i = 0; i < o->nslices; i++) {
		const uint8_t *p = o->slices[i].data;
		if (p < a->umem_area || p + o->slices[i].len > a->umem_area + a->umem_size)
			a->copied++; /* every payload byte must still be in its UMEM chunk */
		have += o->slices[i].len;
	}
	/* the IP length (rewritten by GRO) must match the bytes, and the
	 * payload must start where this flow stands */
	if (have - skip != paylen || get32(tcp + 4) != fl->rx_seq) {
		a->bad++;
		return;
	}
	for (uint32_t i = 0; i < o->nslices; i++) {
		uint32_t off = skip < o->slices[i].len ? skip : o->slices[i].len;
		skip -= off;
		fl->rx_hash = xfer_fnv1a(fl->rx_hash, o->slices[i].data + off, o->slices[i].len - off);
	}
	fl->rx_seq += paylen;
	fl->rx_bytes += paylen;
}

static void deliver(void *user, const struct ofl_gro_out *pkts, unsigned n)
{
	struct app *a = user;
	for (unsigned i = 0; i < n; i++) {
		const struct ofl_gro_out *o = &pkts[i];
		account(a, o);
		a->out_pkts++;
		if (o->seg_count == 0)
			a->normal_pkts++;
		if (o->seg_count > 1) {
			a->merged_pkts++;
			a->merged_segs += o->seg_count;
		}
		a->seg_hist[o->seg_count < MAX_HIST ? o->seg_count : MAX_HIST]++;
		/* GRO is done with these frames: their chunks can be filled again */
		for (uint32_t k = 0; k < o->ncookies; k++)
			if (refill(a, o->cookies[k]) != 0)
				a->bad++;
	}
}

/* Read what the socket has: descriptors into frames, frames into GRO.
 * Returns the frames completed, or -1. */
static int rx_batch(struct app *a, struct ofl_gro *gro)
{
	struct ofl_pkt pkts[BATCH];
	unsigned npkts = 0;
	uint32_t idx = 0;
	unsigned n = xsk_ring_cons__peek(&a->rx, BATCH, &idx);
	int rc = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct xdp_desc *d = xsk_ring_cons__rx_desc(&a->rx, idx + i);
		uint64_t base = d->addr - d->addr % a->chunk; /* aligned mode: chunk start */
		if (!a->cur) {
			a->cur = &a->frames[base / a->chunk];
			a->cur->n = 0;
		}
		struct frame *f = a->cur;
		/* neither can happen: the kernel's limit is 18, and it only
		 * fills chunks that came back from GRO */
		if (f->n == MAX_FRAGS || f->in_gro) {
			fprintf(stderr, "FAIL: a frame of more than %u descriptors, or in a chunk "
			        "GRO still holds\n", MAX_FRAGS);
			return -1;
		}
		f->addr[f->n] = base;
		f->bufs[f->n] = (struct ofl_buf){.data = xsk_umem__get_data(a->umem_area, d->addr),
		                                 .len = d->len};
		f->n++;
		a->chunks_out++;
		a->rx_descs++;
		if (d->options & XDP_PKT_CONTD)
			continue; /* the frame goes on in the next descriptor */
		f->in_gro = 1;
		pkts[npkts++] = (struct ofl_pkt){
			.bufs = f->bufs,
			.nbufs = (uint16_t)f->n,
			.csum_status = OFL_CSUM_NONE,
			.cookie = f,
		};
		a->multi_frames += f->n > 1;
		if (f->n > a->max_descs)
			a->max_descs = f->n;
		a->cur = NULL;
	}
	/* the descriptors are copied out; the chunks stay ours until refilled */
	xsk_ring_cons__release(&a->rx, n);
	a->rx_frames += npkts;
	if (npkts == 0)
		return 0;
	int err = 0;
	unsigned taken = ofl_gro_receive_burst(gro, pkts, npkts, xfer_now_ns(), &err);
	if (taken < npkts) {
		fprintf(stderr, "FAIL: GRO refused a frame (%d)\n", err);
		for (unsigned i = taken; i < npkts; i++)
			refill(a, pkts[i].cookie);
		rc = -1;
	}
	return rc < 0 ? rc : (int)npkts;
}

/* --- send side: crafted TCP/IPv4 segments ------------------------------- */

/* The next segment of flow fi into frame; returns its length (0: flow done). */
static uint32_t build_segment(struct app *a, unsigned fi, uint8_t *frame)
{
	struct flow *fl = &a->flows[fi];
	uint32_t paylen = fl->total - fl->sent < MSS ? (uint32_t)(fl->total - fl->sent) : MSS;
	if (paylen == 0)
		return 0;
	uint8_t *ip = frame + 14, *tcp = ip + 20, *pay = tcp + 20;
	memcpy(frame, a->dst_mac, 6);
	memcpy(frame + 6, a->src_mac, 6);
	put16(frame + 12, ETH_P_IP);
	memset(ip, 0, 40);
	ip[0] = 0x45;
	put16(ip + 2, 40u + paylen);
	put16(ip + 4, fl->ip_id++);
	put16(ip + 6, 0x4000); /* DF */
	ip[8] = 64;
	ip[9] = 6;
	put32(ip + 12, 0xc6120101); /* 198.18.1.1 -> 198.18.1.2 */
	put32(ip + 16, 0xc6120102);
	uint16_t c = ofl_csum_fold(ofl_csum_partial(ip, 20, 0));
	memcpy(ip + 10, &c, 2);
	put16(tcp, BASE_PORT + fi);
	put16(tcp + 2, XFER_PORT);
	put32(tcp + 4, fl->tx_seq);
	put32(tcp + 8, 1);    /* ack_seq: the receiver never sends anything */
	tcp[12] = 5 << 4;     /* doff 5 */
	tcp[13] = 0x10;       /* ACK only: PSH would end every GRO train */
	put16(tcp + 14, 512); /* window */
	for (uint32_t i = 0; i < paylen; i += 8) { /* xorshift64, as transfer.h sends */
		fl->x ^= fl->x << 13;
		fl->x ^= fl->x >> 7;
		fl->x ^= fl->x << 17;
		memcpy(pay + i, &fl->x, paylen - i < 8 ? paylen - i : 8);
	}
	uint8_t pseudo[12];
	memcpy(pseudo, ip + 12, 8);
	put16(pseudo + 8, 6);
	put16(pseudo + 10, 20u + paylen);
	c = ofl_csum_fold(ofl_csum_partial(tcp, 20u + paylen, ofl_csum_partial(pseudo, 12, 0)));
	memcpy(tcp + 16, &c, 2);
	fl->tx_hash = xfer_fnv1a(fl->tx_hash, pay, paylen);
	fl->tx_seq += paylen;
	fl->sent += paylen;
	return HDR_LEN + paylen;
}

/* One round: ROUND_SEGS segments of each unfinished flow, flow after flow
 * (from where the last round stopped), at most ROUND_FRAMES frames.
 * Returns the frames sent (0: every flow is done), or -1. */
static int send_round(struct app *a, int ps, uint8_t *frame)
{
	int sent = 0;
	for (unsigned k = 0; k < a->nflows && sent + ROUND_SEGS <= ROUND_FRAMES; k++) {
		unsigned fi = a->next_flow;
		a->next_flow = (fi + 1) % a->nflows;
		for (unsigned i = 0; i < ROUND_SEGS; i++) {
			uint32_t len = build_segment(a, fi, frame);
			if (len == 0)
				break;
			if (send(ps, frame, len, 0) != (ssize_t)len) {
				perror("FAIL: AF_PACKET send");
				return -1;
			}
			sent++;
		}
	}
	a->tx_frames += (uint64_t)sent;
	return sent;
}

/* --- plumbing ----------------------------------------------------------- */

/* MTU, IPv6 off (no router solicitations or the like on the link), the
 * IPv4 address the crafted frames carry, up; *mac = its MAC address.  In
 * the current namespace. */
static int link_setup(const char *ifname, const char *addr, uint8_t mac[6])
{
	char path[128];
	struct ifreq ifr = {.ifr_mtu = (int)MTU};
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), rc = -1;
	if (s < 0)
		return -1;
	snprintf(path, sizeof path, "/proc/sys/net/ipv6/conf/%s/disable_ipv6", ifname);
	(void)xfer_write_sysctl(path, "1"); /* a kernel without IPv6 has no such file */
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", ifname);
	if (ioctl(s, SIOCSIFMTU, &ifr) == 0 && ioctl(s, SIOCGIFHWADDR, &ifr) == 0) {
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
		rc = xfer_if_config(ifname, 0, addr, 24);
	}
	close(s);
	return rc;
}

/* A skip (exit 77) for what the kernel lacks, a failure for anything else. */
static int kernel_lacks(int err)
{
	return err == EOPNOTSUPP || err == EINVAL || err == ENOSYS || err == EAFNOSUPPORT ||
	       err == EPERM || err == EPROTONOSUPPORT;
}

/* Load the XDP program and attach it to ifname in native (driver) mode.
 * Returns the XSKMAP fd, or -1 with errno set. */
static int xdp_attach(const char *path, unsigned ifindex, struct bpf_object **objp)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	int err;
	if (!obj) {
		err = errno;
		fprintf(stderr, "cannot open %s (built next to this program; -p to give it)\n", path);
		errno = err;
		return -1;
	}
	*objp = obj;
	struct bpf_program *prog = bpf_object__find_program_by_name(obj, "xdp_to_xsk");
	struct bpf_map *map = bpf_object__find_map_by_name(obj, "xsks");
	if (!prog || !map) {
		errno = ENOENT;
		return -1;
	}
	if ((err = bpf_object__load(obj)) != 0 ||
	    (err = bpf_xdp_attach((int)ifindex, bpf_program__fd(prog), XDP_FLAGS_DRV_MODE, NULL)) != 0) {
		errno = -err;
		return -1;
	}
	return bpf_map__fd(map);
}

static void usage(const char *argv0)
{
	fprintf(stderr, "usage: %s [-m MiB] [-f flows] [-c 2048|4096] [-t seconds] [-p xdp_frags.bpf.o]\n",
	        argv0);
}

int main(int argc, char **argv)
{
	unsigned mib = 64, timeout_s = 60, nflows = 4, chunk = 2048;
	const char *prog_path = OFL_XDP_PROG_PATH;
	int opt;
	while ((opt = getopt(argc, argv, "m:f:c:t:p:")) != -1) {
		if (opt == 'm')
			mib = (unsigned)strtoul(optarg, NULL, 10);
		else if (opt == 'f')
			nflows = (unsigned)strtoul(optarg, NULL, 10);
		else if (opt == 'c')
			chunk = (unsigned)strtoul(optarg, NULL, 10);
		else if (opt == 't')
			timeout_s = (unsigned)strtoul(optarg, NULL, 10);
		else if (opt == 'p')
			prog_path = optarg;
		else {
			usage(argv[0]);
			return 2;
		}
	}
	if (mib == 0 || nflows == 0 || nflows > MAX_FLOWS || (chunk != 2048 && chunk != 4096)) {
		usage(argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid() != 0) {
		errno = EPERM;
		return xfer_skip("not root");
	}

	/* namespace B (receiver), kept by an fd; the process never goes back */
	if (unshare(CLONE_NEWNET) != 0)
		return xfer_skip("unshare(CLONE_NEWNET)");
	int nsB = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	struct app *a = calloc(1, sizeof *a);
	uint8_t *frame = malloc(14u + MTU);
	if (!a || !frame)
		return 1;
	a->chunk = chunk;
	a->nflows = nflows;
	/* namespace A (sender): the veth pair, its peer going to B; the AF_PACKET socket */
	if (nsB < 0 || unshare(CLONE_NEWNET) != 0 || xfer_veth_add("ofl-va", "ofl-vb", nsB) != 0 ||
	    link_setup("ofl-va", "198.18.1.1", a->src_mac) != 0) {
		perror("namespace A");
		return 1;
	}
	struct sockaddr_ll sll = {.sll_family = AF_PACKET, .sll_ifindex = (int)if_nametoindex("ofl-va")};
	int ps = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0); /* protocol 0: send only */
	if (ps < 0 || bind(ps, (struct sockaddr *)&sll, sizeof sll) != 0) {
		perror("AF_PACKET socket");
		return 1;
	}
	/* namespace B (receiver): XDP program, UMEM, AF_XDP socket */
	if (setns(nsB, CLONE_NEWNET) != 0 || link_setup("ofl-vb", "198.18.1.2", a->dst_mac) != 0) {
		perror("namespace B");
		return 1;
	}
	unsigned ifindex = if_nametoindex("ofl-vb");
	struct bpf_object *obj = NULL;
	int map_fd = xdp_attach(prog_path, ifindex, &obj);
	if (map_fd < 0) {
		int err = errno;
		if (kernel_lacks(err))
			return xfer_skip("XDP program with frags (SEC(\"xdp.frags\")) on a veth");
		fprintf(stderr, "FAIL: XDP program %s: %s\n", prog_path, strerror(err));
		return 1;
	}

	size_t umem_size = (size_t)NUM_CHUNKS * chunk;
	a->umem_size = umem_size;
	a->umem_area = mmap(NULL, umem_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	a->frames = calloc(NUM_CHUNKS, sizeof *a->frames);
	if (a->umem_area == MAP_FAILED || !a->frames)
		return 1;
	/* a chunk a page: without huge pages every frame costs a TLB miss
	   (docs/guide.md, "The RX path"); a hint, refused on some systems */
	(void)madvise(a->umem_area, umem_size, MADV_HUGEPAGE);
	struct xsk_umem *umem;
	struct xsk_socket *xsk;
	const struct xsk_umem_config ucfg = {
		.fill_size = NUM_CHUNKS, /* every chunk fits: refilling never waits */
		.comp_size = 64,
		.frame_size = chunk,
		.frame_headroom = 0,
	};
	const struct xsk_socket_config scfg = {
		.rx_size = NUM_CHUNKS,
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD, /* our program, not libxdp's */
		.xdp_flags = XDP_FLAGS_DRV_MODE,
		.bind_flags = XDP_COPY | XDP_USE_SG, /* veth has no zero-copy mode */
	};
	int err = xsk_umem__create(&umem, a->umem_area, umem_size, &a->fq, &a->cq, &ucfg);
	if (err == 0)
		err = xsk_socket__create(&xsk, "ofl-vb", 0, umem, &a->rx, NULL, &scfg);
	if (err != 0) {
		errno = -err;
		if (kernel_lacks(-err))
			return xfer_skip("AF_XDP socket with XDP_USE_SG (Linux >= 6.6)");
		perror("FAIL: AF_XDP socket");
		return 1;
	}
	if ((err = xsk_socket__update_xskmap(xsk, map_fd)) != 0) {
		fprintf(stderr, "FAIL: XSKMAP update: %s\n", strerror(-err));
		return 1;
	}
	uint32_t idx = 0;
	if (xsk_ring_prod__reserve(&a->fq, NUM_CHUNKS, &idx) != NUM_CHUNKS)
		return 1;
	for (unsigned i = 0; i < NUM_CHUNKS; i++)
		*xsk_ring_prod__fill_addr(&a->fq, idx + i) = (uint64_t)i * chunk;
	xsk_ring_prod__submit(&a->fq, NUM_CHUNKS);

	struct ofl_gro_config cfg;
	struct ofl_gro *gro;
	if (ofl_gro_config_default(&cfg) != 0)
		return 1;
	cfg.deliver = deliver;
	cfg.user = a;
	if (ofl_gro_create(&cfg, &gro) != 0)
		return 1;

	uint64_t total = (uint64_t)mib << 20;
	for (unsigned fi = 0; fi < nflows; fi++) {
		struct flow *fl = &a->flows[fi];
		fl->total = total / nflows + (fi == nflows - 1 ? total % nflows : 0);
		fl->x = 0x9e3779b97f4a7c15ull + fi;
		fl->tx_hash = fl->rx_hash = XFER_FNV_INIT;
		/* flow 0 starts just below 2^32: its sequence numbers wrap */
		fl->tx_seq = fl->rx_seq = fi == 0 ? 0xfffe0000u : 0x01000000u * fi;
		fl->ip_id = (uint16_t)(fi * 1000u);
	}
	printf("%u MiB in %u TCP/IPv4 flows of %u-byte segments, MTU %u veth, AF_XDP (XDP_USE_SG) "
	       "on ofl-vb queue 0, UMEM %u chunks of %u bytes\n",
	       mib, nflows, MSS, MTU, NUM_CHUNKS, chunk);

	int xfd = xsk_socket__fd(xsk), failed = 0;
	uint64_t t0 = xfer_now_ns(), deadline = t0 + (uint64_t)timeout_s * 1000000000u;
	unsigned rounds = 0;
	for (;;) {
		int n = send_round(a, ps, frame);
		if (n <= 0) {
			failed = n < 0;
			break;
		}
		/* one round = one poll: every frame of it through GRO, then poll end */
		while (a->rx_frames < a->tx_frames && !failed) {
			struct pollfd pf = {.fd = xfd, .events = POLLIN};
			if (xfer_now_ns() > deadline) {
				fprintf(stderr, "FAIL: %llu of %llu frames received after %u s\n",
				        (unsigned long long)a->rx_frames, (unsigned long long)a->tx_frames,
				        timeout_s);
				failed = 1;
			} else if (poll(&pf, 1, 100) < 0 && errno != EINTR) {
				perror("poll");
				failed = 1;
			} else if (rx_batch(a, gro) < 0) {
				failed = 1;
			}
		}
		if (ofl_gro_poll_end(gro, (unsigned)n, xfer_now_ns(), NULL) != 0 || failed) {
			failed = 1;
			break;
		}
		rounds++;
	}
	double secs = (double)(xfer_now_ns() - t0) / 1e9;

	struct xdp_statistics xs = {0};
	socklen_t xl = sizeof xs;
	if (getsockopt(xfd, SOL_XDP, XDP_STATISTICS, &xs, &xl) != 0)
		memset(&xs, 0, sizeof xs);
	struct ofl_gro_stats st;
	ofl_gro_get_stats(gro, &st, sizeof st);
	ofl_gro_destroy(gro); /* anything still held is delivered (and refilled) here */

	printf("sent %llu frames in %u rounds; received %llu frames as %llu descriptors "
	       "(%llu frames multi-buffer, up to %llu descriptors each); socket drops %llu, "
	       "ring full %llu, fill ring empty %llu\n",
	       (unsigned long long)a->tx_frames, rounds, (unsigned long long)a->rx_frames,
	       (unsigned long long)a->rx_descs, (unsigned long long)a->multi_frames,
	       (unsigned long long)a->max_descs, (unsigned long long)xs.rx_dropped,
	       (unsigned long long)xs.rx_ring_full, (unsigned long long)xs.rx_fill_ring_empty_descs);
	printf("GRO: %llu packets out, %llu merged from %llu segments (%.2f segments each), "
	       "%llu normal; %llu checksums verified in software\n",
	       (unsigned long long)a->out_pkts, (unsigned long long)a->merged_pkts,
	       (unsigned long long)a->merged_segs,
	       a->merged_pkts ? (double)a->merged_segs / (double)a->merged_pkts : 0.0,
	       (unsigned long long)a->normal_pkts, (unsigned long long)st.csum_sw);
	printf("segments per packet:");
	for (unsigned s = 0; s <= MAX_HIST; s++)
		if (a->seg_hist[s])
			printf(" %u%s x %llu", s, s == 0 ? " (normal)" : s == MAX_HIST ? "+" : "",
			       (unsigned long long)a->seg_hist[s]);
	printf("\n");

	int conserved = !failed && a->bad == 0 && a->other == 0 && a->copied == 0 &&
	                a->rx_frames == a->tx_frames && st.out_segs == st.rx_pkts &&
	                st.rx_pkts == a->tx_frames && a->chunks_out == 0 && xs.rx_dropped == 0 &&
	                xs.rx_ring_full == 0;
	for (unsigned fi = 0; fi < nflows; fi++) {
		const struct flow *fl = &a->flows[fi];
		int ok = fl->rx_bytes == fl->total && fl->sent == fl->total && fl->rx_hash == fl->tx_hash;
		if (!ok || nflows <= 8)
			printf("flow %u: sent %llu bytes, fnv1a64 %016llx; received %llu bytes, fnv1a64 "
			       "%016llx%s\n",
			       fi, (unsigned long long)fl->sent, (unsigned long long)fl->tx_hash,
			       (unsigned long long)fl->rx_bytes, (unsigned long long)fl->rx_hash,
			       ok ? "" : " MISMATCH");
		conserved &= ok;
	}
	if (a->bad || a->other || a->copied)
		printf("%llu packets out of sequence or of a wrong length (or cookies handed back "
		       "twice), %llu not of our flows, %llu slices outside the UMEM\n",
		       (unsigned long long)a->bad, (unsigned long long)a->other,
		       (unsigned long long)a->copied);
	printf("%s after %.2f s: %s\n", conserved && a->merged_pkts ? "OK" : "FAIL", secs,
	       conserved ? "every byte accounted for, every chunk back in the fill ring"
	                 : "conservation broken");

	xsk_socket__delete(xsk);
	xsk_umem__delete(umem);
	bpf_xdp_detach((int)ifindex, XDP_FLAGS_DRV_MODE, NULL);
	bpf_object__close(obj);
	munmap(a->umem_area, umem_size);
	free(a->frames);
	free(a);
	free(frame);
	close(ps);
	close(nsB);
	return conserved && st.merged ? 0 : 1;
}
