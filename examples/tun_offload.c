/*
 * tun_offload.c - libofl as the wire between two Linux network namespaces,
 * with the kernel's TSO on one side and GRO'd super-packets on the other.
 *
 * NEEDS ROOT: it creates two private network namespaces and a TAP (with -T:
 * TUN) device in each.  Without root, namespaces or /dev/net/tun it prints
 * why and exits 77 (ctest SKIP_RETURN_CODE).  The namespaces are anonymous (unshare), so they
 * vanish with the process whatever way it ends: nothing to clean up, nothing
 * left behind, and no interface outside them is touched.
 *
 *   ns A: TCP sender --> tap A  ==[ this program ]==>  tap B --> ns B: TCP receiver
 *                         |   read: vnet hdr + TSO super-packet          ^
 *                         |   ofl_gso_start_vnet/next -> MSS segments    |
 *                         |   ofl_gro_receive -> merged packets          |
 *                         |   ofl_gro_linearize(PARTIAL) + vnet_hdr -----'
 *                   (ACKs take the same path from B to A)
 *
 * The TAP devices are opened with IFF_VNET_HDR and TUNSETOFFLOAD (CSUM,
 * TSO4, TSO6, and USO4/USO6 where the kernel accepts them), so the kernel
 * hands us TCP super-packets of up to 64 KiB with a virtio_net_hdr.  A TAP
 * device carries Ethernet frames, which is libofl's packet model, so no
 * header needs to be made up.  A real TCP transfer (64 MiB by default) runs
 * from ns A to ns B; both ends hash the byte stream (FNV-1a 64) and the
 * hashes must match.
 *
 * With -u the transfer is UDP with segmentation offload both ways (QUIC's
 * way of sending): the sender writes trains of up to 64 000 bytes with
 * UDP_SEGMENT (1200-byte datagrams), the receiver reads with UDP_GRO and
 * echoes every read back with UDP_SEGMENT (transfer.h).  The kernel hands
 * each train to the reader as one USO super-packet (virtio_net_hdr
 * GSO_UDP_L4; TUNSETOFFLOAD must take TUN_F_USO4 | TUN_F_USO6, Linux 6.2,
 * or the run is skipped), GSO cuts it into datagrams, GRO (ofl_gro_config.udp
 * on) merges them again, and the merged train is written to the other device
 * with a GSO_UDP_L4 virtio_net_hdr.  Both directions must have carried USO
 * super-packets and merged UDP packets, and the hashes must match.  Addresses are from the benchmarking range 198.18.0.0/15
 * (IPv6: fd00:f1::/64), inside the namespaces only.
 *
 * With -T the devices are TUN devices (IFF_TUN: IP packets, no Ethernet).
 * GSO takes them with ofl_gso_start_vnet(OFL_GSO_L2_NONE) and GRO with a
 * context configured for raw IP (ofl_gro_config.l2 = OFL_L2_NONE): the
 * packets go to GRO as they were read, the segments as [header slot,
 * payload slices], and GRO delivers them from the IP header, ready to be
 * written with ofl_gro_vnet_hdr_le(l2_strip 0).
 *
 * With -x the TCP transfer runs through VXLAN (UDP port 4789, VNI 42): each
 * namespace has a VXLAN device over its TAP device, and the TAP devices
 * carry the VXLAN packets.  The TAP devices take UDP-tunnel GSO
 * (TUN_F_UDP_TUNNEL_GSO | _CSUM, Linux 6.17; EINVAL before, and the run is
 * skipped) with the 24-byte virtio_net_hdr_v1_hash_tunnel (TUNSETVNETHDRSZ
 * 24), so the kernel hands us VXLAN-encapsulated TCP super-packets (a UDP
 * tunnel GSO type, the outer UDP and inner IP offsets in bytes 20-23),
 * ofl_gso_start_vnet() cuts them into VXLAN segments (both header sets in
 * each), GRO merges them through VXLAN (ofl_gro_config.vxlan_ports) and
 * ofl_gro_vnet_hdr_le(..., 24) gives the merged packet the same header
 * form for the other TAP device, whose VXLAN device takes it apart.  The
 * data way must have carried VXLAN super-packets both from and to the
 * kernel.  The underlay has the transfer's IP version (-6: IPv6), or with
 * -X (which implies -x) the other one: IPv4 in VXLAN over IPv6, with -6
 * IPv6 over IPv4.  Outer IPv6 has the outer UDP checksum (GSO_CSUM); outer
 * IPv4 has it with -c, else 0.  The TAP devices' addresses are the
 * underlay; the transfer runs between the VXLAN devices' (198.19.0.0/24,
 * fd00:f2::/64).
 *
 *   usage: tun_offload [-6] [-T] [-u] [-x|-X [-c]] [-m MiB] [-t seconds]
 *
 * Exit: 0 transfer intact, 1 failure or timeout, 77 skipped.
 */
#define _GNU_SOURCE
#include <ofl/csum.h>
#include <ofl/gro.h>
#include <ofl/gso.h>

#include "transfer.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef TUN_F_USO4
#define TUN_F_USO4 0x20 /* Linux 6.2 */
#define TUN_F_USO6 0x40
#endif

#define VNET_MAX 24                   /* virtio_net_hdr_v1_hash_tunnel (-x) */
#define ETH_LEN 14
#define FRAME_MAX (14 + 65535 + 64)   /* Ethernet + largest IP packet */
#define RX_BATCH 16                   /* frames per poll, per direction */
#define POOL_SLOTS 1024               /* header slots (64 KiB / 1448 * 16 < 1024) */
#define SLOT_SIZE 256                 /* Linux TSO_HEADER_SIZE */
#define VXLAN_PORT 4789               /* -x: the IANA port (RFC 7348) */

/* One direction of the wire: frames read from in_fd go out on out_fd. */
struct wire {
	const char *name;
	int in_fd, out_fd;
	struct ofl_gro *gro;
	struct ofl_gso_pool pool;
	struct ofl_gso_hbuf held[POOL_SLOTS]; /* slot of each segment inside GRO */
	_Alignas(64) uint8_t block[POOL_SLOTS * SLOT_SIZE]; /* the header block */
	uint8_t vnet[RX_BATCH][VNET_MAX];   /* each frame's virtio_net_hdr ... */
	uint8_t rx[RX_BATCH][FRAME_MAX];    /* ... and the frame */
	uint8_t tx[VNET_MAX + ETH_LEN + FRAME_MAX];
	/* counters */
	uint64_t frames_in, supers_in, tun_supers_in, segs_cut, csum_finished, bad_in;
	uint64_t pkts_out, gro_pkts_out, gro_segs_out, tun_gro_pkts_out, bytes_out;
	uint64_t kernel_refused, write_drops, errors;
};

static struct wire wires[2];
static int tun; /* -T: TUN devices, raw IP packets */
static int udp; /* -u: a UDP transfer with USO and UDP GRO */
static int vxlan; /* -x: TCP through VXLAN devices over the TAP devices */
static int outer_csum; /* -x -c: the outer UDP checksum on over IPv4 too */
static unsigned vnet_len = 10; /* struct virtio_net_hdr; -x: 24 */
static struct xfer xfer;

/* --- GRO delivery: write every packet to the other device --------------- */

static void deliver(void *user, const struct ofl_gro_out *pkts, unsigned n)
{
	struct wire *w = user;
	for (unsigned i = 0; i < n; i++) {
		const struct ofl_gro_out *o = &pkts[i];
		/* The frame (TAP: Ethernet; TUN: the IP packet, as GRO delivers
		 * it) follows its virtio_net_hdr, little endian (virtio 1.0,
		 * which is also the native order of x86 and ARM hosts); -x: the
		 * 24-byte header, with the UDP-tunnel GSO type and offsets for a
		 * packet merged through VXLAN. */
		uint8_t *vnet = w->tx + ETH_LEN, *frame = vnet + vnet_len;
		int len = ofl_gro_linearize(o, frame, sizeof w->tx - (size_t)(frame - w->tx),
		                            OFL_CSUM_MODE_PARTIAL);
		int vrc = ofl_gro_vnet_hdr_le(o, 0, vnet, vnet_len);
		if (len < 0 || vrc < 0) {
			fprintf(stderr, "%s: deliver: %s\n", w->name, ofl_strerror(len < 0 ? len : vrc));
			w->errors++;
		} else {
			size_t wlen = vnet_len + (size_t)len;
			ssize_t r = write(w->out_fd, vnet, wlen);
			if (r == (ssize_t)wlen) {
				w->pkts_out++;
				w->bytes_out += (uint64_t)len;
				if (o->seg_count >= 1) {
					w->gro_pkts_out++;
					w->gro_segs_out += o->seg_count;
				}
				if (o->seg_count > 1 &&
				    OFL_GRO_OUT_TUN_TYPE(o->flags) == OFL_GRO_TUN_VXLAN)
					w->tun_gro_pkts_out++;
			} else if (r < 0 && errno == EINVAL) {
				w->kernel_refused++; /* the kernel did not like our vnet hdr */
			} else {
				w->write_drops++;
			}
		}
		/* Release: a segment's cookie is its header slot; a frame read
		 * as-is has the wire itself as cookie (nothing to give back). */
		unsigned ncookies = o->seg_count ? o->seg_count : 1;
		for (unsigned c = 0; c < ncookies; c++)
			if (o->cookies[c] != w &&
			    ofl_gso_pool_put(&w->pool, o->cookies[c]) != 0)
				w->errors++;
	}
}

/* --- one frame read from a TAP: cut (GSO) if it is a super-packet, then GRO */

static void gro_one(struct wire *w, const struct ofl_buf *bufs, uint16_t nbufs, void *cookie,
                    uint64_t now)
{
	const struct ofl_pkt pkt = {
		.bufs = bufs,
		.nbufs = nbufs,
		.csum_status = OFL_CSUM_NONE, /* let GRO verify every checksum */
		.cookie = cookie,
	};
	if (ofl_gro_receive(w->gro, &pkt, now) < 0)
		w->errors++; /* not taken: nothing to release (slot put back below) */
}

/* vnet: the frame's virtio_net_hdr; frame: the n bytes the device handed
 * out (TAP: Ethernet frame, TUN: IP packet). */
static void wire_frame(struct wire *w, const uint8_t *vnet, uint8_t *frame, size_t n, uint64_t now)
{
	struct ofl_virtio_net_hdr vh;
	size_t flen = n;
	w->frames_in++;
	if (ofl_gso_vnet_read(vnet, vnet_len, &vh) != 0 || n == 0) {
		w->bad_in++;
		return;
	}

	if (vh.gso_type == 0) {
		/* One frame.  With NEEDS_CSUM its L4 checksum field holds only the
		 * pseudo-header sum: finish it as a NIC would (skb_checksum_help). */
		if (vh.flags & 1u) {
			size_t start = vh.csum_start, field = start + vh.csum_offset;
			if (field + 2 > flen) {
				w->bad_in++;
				return;
			}
			uint16_t c = ofl_csum_fold(ofl_csum_partial(frame + start, flen - start, 0));
			memcpy(frame + field, &c, 2);
			w->csum_finished++;
		}
		const struct ofl_buf b = {.data = frame, .len = (uint32_t)flen};
		gro_one(w, &b, 1, w, now);
		return;
	}

	/* A super-packet: cut it into MSS segments, each one header slot from
	 * the block pool plus payload slices pointing into the frame.  From a
	 * TUN device the segments carry no L2 (OFL_GSO_L2_NONE).  A VXLAN
	 * super-packet (-x: a UDP-tunnel GSO type in the 24-byte header, the
	 * outer UDP and inner IP offsets at its end) is cut the same way: each
	 * segment gets both header sets. */
	struct ofl_gso_req req;
	struct ofl_gso_iter it;
	const struct ofl_buf in[2] = {{.data = vnet, .len = vnet_len},
	                              {.data = frame, .len = (uint32_t)flen}};
	ofl_gso_req_default(&req);
	req.csum = OFL_CSUM_MODE_FULL; /* GRO verifies these: proves GSO right */
	int rc = ofl_gso_start_vnet(&it, &req, vnet_len, tun ? OFL_GSO_L2_NONE : OFL_GSO_L2_ETH,
	                            in, 2);
	if (rc != 0) {
		fprintf(stderr, "%s: gso start: %s\n", w->name, ofl_strerror(rc));
		w->bad_in++;
		return;
	}
	w->supers_in++;
	if (vh.gso_type & (OFL_VNET_GSO_UDP_TUNNEL_IPV4 | OFL_VNET_GSO_UDP_TUNNEL_IPV6))
		w->tun_supers_in++;
	for (;;) {
		struct ofl_gso_seg seg;
		rc = ofl_gso_next(&it, &w->pool, &seg);
		if (rc == 0)
			break;
		if (rc == OFL_EAGAIN) {
			/* Pool empty: everything GRO holds goes out and gives its
			 * slots back; the iterator resumes where it stopped. */
			if (ofl_gro_flush(w->gro) != 0 || ofl_gso_pool_avail(&w->pool) == 0) {
				w->errors++;
				ofl_gso_abort(&it);
				return;
			}
			continue;
		}
		if (rc != 1) {
			fprintf(stderr, "%s: gso next: %s\n", w->name, ofl_strerror(rc));
			w->errors++;
			ofl_gso_abort(&it);
			return;
		}
		/* to GRO as a multi-buffer frame: header slot, slices */
		struct ofl_buf bufs[1 + OFL_GSO_SEG_MAX_SLICES];
		uint16_t nb = 0;
		bufs[nb++] = (struct ofl_buf){.data = seg.hdr.data, .len = seg.hdr_len};
		for (uint32_t i = 0; i < seg.nslices; i++)
			bufs[nb++] = (struct ofl_buf){.data = seg.slices[i].data, .len = seg.slices[i].len};
		w->held[seg.hdr.index] = seg.hdr;
		w->segs_cut++;
		gro_one(w, bufs, nb, &w->held[seg.hdr.index], now);
	}
}

/* One poll of one direction: up to RX_BATCH frames, then the end of the poll
 * (flush timeout 0: everything goes out, so the rx buffers are free again). */
static int wire_poll(struct wire *w)
{
	unsigned got = 0;
	uint64_t now = xfer_now_ns();
	while (got < RX_BATCH) {
		struct iovec iov[2] = {{.iov_base = w->vnet[got], .iov_len = vnet_len},
		                       {.iov_base = w->rx[got], .iov_len = FRAME_MAX}};
		ssize_t r = readv(w->in_fd, iov, 2);
		if (r < 0) {
			if (errno == EAGAIN || errno == EINTR)
				break;
			perror("read tap");
			return -1;
		}
		if (r <= (ssize_t)vnet_len) {
			w->bad_in++;
			continue;
		}
		wire_frame(w, w->vnet[got], w->rx[got], (size_t)r - vnet_len, now);
		got++;
	}
	if (ofl_gro_poll_end(w->gro, got, now, NULL) != 0)
		return -1;
	return 0;
}

static int wire_init(struct wire *w, const char *name, int in_fd, int out_fd)
{
	struct ofl_gro_config cfg;
	w->name = name;
	w->in_fd = in_fd;
	w->out_fd = out_fd;
	if (ofl_gso_pool_init_block(&w->pool, w->block, sizeof w->block, SLOT_SIZE) != 0)
		return -1;
	if (ofl_gro_config_default(&cfg) != 0)
		return -1;
	cfg.deliver = deliver;
	cfg.user = w;
	cfg.l2 = tun ? OFL_L2_NONE : OFL_L2_ETH; /* TUN: packets start at IP */
	cfg.udp = 1; /* UDP trains merge too (the kernel's rx-udp-gro-forwarding) */
	if (vxlan) { /* TCP merged through VXLAN on its port */
		cfg.vxlan_ports[0] = VXLAN_PORT;
		cfg.vxlan_nports = 1;
	}
	return ofl_gro_create(&cfg, &w->gro);
}

/* --- namespaces, TAP devices, addresses (ioctl only: no iproute2 needed) -- */

static int tap_open(const char *name, unsigned *offloads)
{
	struct ifreq ifr = {.ifr_flags = (short)((tun ? IFF_TUN : IFF_TAP) | IFF_NO_PI | IFF_VNET_HDR)};
	int vlen = (int)vnet_len;
	int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", name);
	if (ioctl(fd, TUNSETIFF, &ifr) != 0 || ioctl(fd, TUNSETVNETHDRSZ, &vlen) != 0)
		goto fail;
	/* What we (the reader) accept: checksum offload, TSO, and USO where the
	 * kernel knows it (6.2+; EINVAL before). */
	*offloads = TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6 | TUN_F_USO4 | TUN_F_USO6;
	if (vxlan) {
		/* -x: UDP-tunnel GSO, both outer checksum forms (Linux 6.17;
		 * EINVAL before: the caller skips) */
		*offloads |= OFL_TUN_F_UDP_TUNNEL_GSO | OFL_TUN_F_UDP_TUNNEL_GSO_CSUM;
		if (ioctl(fd, TUNSETOFFLOAD, *offloads) != 0)
			goto fail;
		return fd;
	}
	if (ioctl(fd, TUNSETOFFLOAD, *offloads) != 0) {
		*offloads = TUN_F_CSUM | TUN_F_TSO4 | TUN_F_TSO6;
		if (ioctl(fd, TUNSETOFFLOAD, *offloads) != 0)
			goto fail;
	}
	return fd;
fail:
	{
		int e = errno;
		close(fd);
		errno = e;
	}
	return -1;
}


static void print_wire(const struct wire *w)
{
	struct ofl_gro_stats st;
	if (ofl_gro_get_stats(w->gro, &st, sizeof st) != 0)
		return;
	printf("%s: read %llu frames (%llu TSO/USO super-packets, %llu of them VXLAN, %.1f "
	       "segments each), GSO cut %llu segments; GRO wrote %llu packets (%llu GRO packets "
	       "carrying %llu segments, %llu merged through VXLAN): merge ratio %.1f "
	       "segments/packet; checksums finished %llu, kernel refused %llu, write drops %llu, "
	       "errors %llu\n",
	       w->name, (unsigned long long)w->frames_in, (unsigned long long)w->supers_in,
	       (unsigned long long)w->tun_supers_in,
	       w->supers_in ? (double)w->segs_cut / (double)w->supers_in : 0.0,
	       (unsigned long long)w->segs_cut, (unsigned long long)w->pkts_out,
	       (unsigned long long)w->gro_pkts_out, (unsigned long long)w->gro_segs_out,
	       (unsigned long long)w->tun_gro_pkts_out,
	       w->gro_pkts_out ? (double)w->gro_segs_out / (double)w->gro_pkts_out : 0.0,
	       (unsigned long long)w->csum_finished, (unsigned long long)w->kernel_refused,
	       (unsigned long long)w->write_drops, (unsigned long long)w->errors);
	printf("%s: GRO flushes: psh %llu, max_size %llu, poll_end %llu, seq %llu, udp_cnt %llu; "
	       "normal: no_payload %llu, tcp_csum %llu, udp_csum %llu, udp_zero_csum %llu, "
	       "udp_len %llu\n",
	       w->name, (unsigned long long)st.flush[OFL_GRO_FLUSH_PSH],
	       (unsigned long long)st.flush[OFL_GRO_FLUSH_MAX_SIZE],
	       (unsigned long long)st.flush[OFL_GRO_FLUSH_POLL_END],
	       (unsigned long long)st.flush[OFL_GRO_FLUSH_SEQ],
	       (unsigned long long)st.flush[OFL_GRO_FLUSH_UDP_CNT],
	       (unsigned long long)st.normal_why[OFL_GRO_NORMAL_NO_PAYLOAD],
	       (unsigned long long)st.normal_why[OFL_GRO_NORMAL_TCP_CSUM],
	       (unsigned long long)st.normal_why[OFL_GRO_NORMAL_UDP_CSUM],
	       (unsigned long long)st.normal_why[OFL_GRO_NORMAL_UDP_ZERO_CSUM],
	       (unsigned long long)st.normal_why[OFL_GRO_NORMAL_UDP_LEN]);
}

/* Tcp RetransSegs of /proc/net/snmp open at fd (the namespace it was
 * opened in), or -1. */
static long long tcp_retrans(int fd)
{
	char buf[4096];
	ssize_t n = fd < 0 ? -1 : pread(fd, buf, sizeof buf - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	/* two "Tcp:" lines: the names, then the values in the same order */
	char *names = strstr(buf, "\nTcp:"), *vals = names ? strstr(names + 1, "\nTcp:") : NULL;
	if (!vals)
		return -1;
	unsigned col = 0;
	for (char *t = names + 5; *t && *t != '\n'; col++) {
		while (*t == ' ')
			t++;
		if (strncmp(t, "RetransSegs ", 12) == 0 || strncmp(t, "RetransSegs\n", 12) == 0)
			break;
		while (*t && *t != ' ' && *t != '\n')
			t++;
	}
	char *v = vals + 5;
	for (unsigned i = 0; i <= col; i++) {
		char *end;
		long long x = strtoll(v, &end, 10);
		if (end == v)
			return -1;
		if (i == col)
			return x;
		v = end;
	}
	return -1;
}

/* One namespace's end of the wire, in the current namespace: its TAP (TUN)
 * device with address ip (IPv6 if uv6), and with -x a VXLAN device over it
 * to the other end's address peer, with the address over (IPv6 if v6).
 * Returns the device's fd, or -1 with *code the exit code (77: skipped,
 * said why; 1: failed). */
static int side_open(char side, int uv6, int v6, const char *ip, const char *peer,
                     const char *over, unsigned *off, int *code)
{
	char dev[IFNAMSIZ], vx[IFNAMSIZ];
	snprintf(dev, sizeof dev, "%s%c", tun ? "ofltun" : "ofltap", side);
	snprintf(vx, sizeof vx, "oflvx%c", side);
	*code = 1;
	int fd = tap_open(dev, off);
	if (fd < 0 && (errno == ENOENT || errno == ENODEV || errno == ENXIO || errno == EPERM ||
	               errno == EACCES)) {
		*code = xfer_skip("TAP device with IFF_VNET_HDR (/dev/net/tun)");
		return -1;
	}
	if (fd < 0 && vxlan && errno == EINVAL) {
		printf("SKIP: TUNSETOFFLOAD with TUN_F_UDP_TUNNEL_GSO: %s (Linux 6.17 or later "
		       "needed)\n", strerror(errno));
		*code = XFER_SKIP;
		return -1;
	}
	if (fd < 0) {
		perror("TAP device with IFF_VNET_HDR");
		return -1;
	}
	if (xfer_if_config(dev, uv6, ip, uv6 ? 64 : 24) != 0) {
		perror("configure the TAP device");
		return -1;
	}
	if (!vxlan)
		return fd;
	if (xfer_vxlan_add(vx, 42, uv6, ip, peer, VXLAN_PORT, dev, outer_csum) != 0) {
		if (errno == EOPNOTSUPP || errno == EAFNOSUPPORT) /* no vxlan driver */
			*code = xfer_skip("VXLAN device (ip link add type vxlan)");
		else
			perror("VXLAN device");
		return -1;
	}
	if (xfer_if_config(vx, v6, over, v6 ? 64 : 24) != 0) {
		perror("configure the VXLAN device");
		return -1;
	}
	return fd;
}

int main(int argc, char **argv)
{
	struct xfer_opts o = {.mib = 64, .timeout_s = 120};
	int rc = xfer_options(argc, argv, "6TuxXcm:t:", &o);
	if (rc >= 0)
		return rc;
	int v6 = o.v6;
	int uv6 = v6 ^ o.cross; /* -X: the underlay of the other IP version */
	tun = o.tun;
	udp = o.udp;
	vxlan = o.vxlan | o.cross;
	outer_csum = o.csum;
	if (vxlan && (tun || udp)) {
		fprintf(stderr, "-x and -X run TCP over TAP devices: not with -T or -u\n");
		return 2;
	}
	if (vxlan)
		vnet_len = OFL_VNET_HDR_TUNNEL_LEN;
	unsigned mib = o.mib, timeout_s = o.timeout_s, offA = 0, offB = 0;
	/* the devices' addresses; -x: the TAP devices carry the VXLAN packets
	 * (underlay) and the transfer runs between the VXLAN devices' */
	const char *ipA = uv6 ? "fd00:f1::1" : "198.18.0.1";
	const char *ipB = uv6 ? "fd00:f1::2" : "198.18.0.2";
	const char *ovA = v6 ? "fd00:f2::1" : "198.19.0.1";
	const char *ovB = v6 ? "fd00:f2::2" : "198.19.0.2";
	const char *dstB = vxlan ? ovB : ipB;

	int orig = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (orig < 0)
		return xfer_skip("open /proc/self/ns/net");
	/* namespace A: TAP A, the sender's socket */
	if (unshare(CLONE_NEWNET) != 0)
		return xfer_skip("unshare(CLONE_NEWNET)");
	int tapA = side_open('A', uv6, v6, ipA, ipB, ovA, &offA, &rc);
	if (tapA < 0)
		return rc;
	/* the sender's TCP counters (a procfs file shows the namespace it was
	 * opened in) */
	int snmpA = open("/proc/self/net/snmp", O_RDONLY | O_CLOEXEC);
	int send_sock = udp ? xfer_udp_socket(v6)
	                    : socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	/* namespace B: TAP B, the listening socket */
	if (send_sock < 0 || unshare(CLONE_NEWNET) != 0) {
		perror("socket/unshare");
		return 1;
	}
	int tapB = side_open('B', uv6, v6, ipB, ipA, ovB, &offB, &rc);
	if (tapB < 0)
		return rc;
	int ls = udp ? xfer_udp_bind(v6, dstB) : xfer_listen(v6, dstB);
	if (ls < 0) {
		perror("listen in B");
		return 1;
	}
	if (setns(orig, CLONE_NEWNET) != 0) { /* back home; fds keep their namespaces */
		perror("setns");
		return 1;
	}
	printf("%s offloads accepted: CSUM TSO4 TSO6%s%s; %s transfer %u MiB over %s%s, limit %u s\n",
	       o.tun ? "TUN (IP packets; GSO and GRO take them as raw IP)"
	             : "TAP (Ethernet frames)",
	       (offA & offB & TUN_F_USO4) ? " USO4 USO6" : " (USO refused by this kernel)",
	       vxlan ? " UDP_TUNNEL_GSO(_CSUM), 24-byte vnet header" : "",
	       udp ? "UDP (USO trains, echoed)" : "TCP", mib,
	       v6 ? "IPv6" : "IPv4",
	       !vxlan ? ""
	              : uv6 ? " in VXLAN over IPv6 (outer UDP checksum on)"
	                    : outer_csum ? " in VXLAN over IPv4 (outer UDP checksum on)"
	                                 : " in VXLAN over IPv4 (outer UDP checksum 0)",
	       timeout_s);
	if (udp && !(offA & offB & TUN_F_USO4)) {
		errno = EOPNOTSUPP;
		return xfer_skip("USO on TUN/TAP (TUN_F_USO4 | TUN_F_USO6, Linux 6.2)");
	}

	if (wire_init(&wires[0], "A->B", tapA, tapB) != 0 || wire_init(&wires[1], "B->A", tapB, tapA) != 0) {
		fprintf(stderr, "wire init failed\n");
		return 1;
	}

	uint64_t total = (uint64_t)mib << 20;
	uint64_t t0 = xfer_now_ns(), deadline = t0 + (uint64_t)timeout_s * 1000000000u;
	xfer.udp = udp;
	if (xfer_start(&xfer, ls, send_sock, v6, dstB, total) != 0)
		return 1;

	int failed = 0;
	while (!(xfer.have[0] && xfer.have[1])) {
		struct pollfd pf[4] = {{.fd = tapA, .events = POLLIN}, {.fd = tapB, .events = POLLIN}};
		xfer_pollfds(&xfer, pf + 2);
		if (xfer_now_ns() > deadline) {
			fprintf(stderr, "FAIL: timeout after %u s\n", timeout_s);
			failed = 1;
			break;
		}
		int n = poll(pf, 4, 100);
		if (n < 0 && errno != EINTR) {
			perror("poll");
			failed = 1;
			break;
		}
		if ((pf[0].revents & POLLIN) && wire_poll(&wires[0]) != 0)
			failed = 1;
		if ((pf[1].revents & POLLIN) && wire_poll(&wires[1]) != 0)
			failed = 1;
		if (xfer_poll_results(&xfer, pf + 2) != 0)
			failed = 1;
		if (failed)
			break;
	}
	double secs = (double)(xfer_now_ns() - t0) / 1e9;
	xfer_kill(&xfer);

	print_wire(&wires[0]);
	print_wire(&wires[1]);
	long long retrans = tcp_retrans(snmpA);
	printf("sender's TCP retransmitted %lld segments\n", retrans);
	if (!failed && !xfer_intact(&xfer, total))
		failed = 1;
	if (wires[0].kernel_refused || wires[1].kernel_refused || wires[0].errors ||
	    wires[1].errors)
		failed = 1;
	/* UDP: both ways must have been USO super-packets in and merged UDP
	 * packets out, or the offloads were not what this run tests */
	for (int i = 0; udp && i < 2; i++)
		if (wires[i].supers_in == 0 || wires[i].gro_pkts_out == 0) {
			printf("FAIL: %s carried no USO super-packet or no merged packet\n",
			       wires[i].name);
			failed = 1;
		}
	/* -x: the data way (A->B) must have read VXLAN super-packets from the
	 * kernel and written VXLAN packets merged by GRO back to it */
	if (vxlan && (wires[0].tun_supers_in == 0 || wires[0].tun_gro_pkts_out == 0)) {
		printf("FAIL: A->B read %llu VXLAN super-packets and wrote %llu merged VXLAN packets "
		       "(both must be > 0)\n", (unsigned long long)wires[0].tun_supers_in,
		       (unsigned long long)wires[0].tun_gro_pkts_out);
		failed = 1;
	}
	ofl_gro_destroy(wires[0].gro);
	ofl_gro_destroy(wires[1].gro);
	if (failed) {
		printf("FAIL after %.2f s\n", secs);
		return 1;
	}
	printf("OK: %u MiB intact in %.2f s (%.1f MiB/s), merge ratio A->B %.1f segments/packet\n",
	       mib, secs, (double)mib / secs,
	       wires[0].gro_pkts_out ? (double)wires[0].gro_segs_out / (double)wires[0].gro_pkts_out
	                             : 0.0);
	return 0;
}
