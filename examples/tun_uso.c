/*
 * tun_uso.c - UDP segmentation offload (USO) from a TUN device: the kernel
 * hands the reader one large UDP datagram train with a virtio_net_hdr of
 * gso_type VIRTIO_NET_HDR_GSO_UDP_L4, and libofl cuts it into the datagrams
 * the sender asked for, as a NIC with USO would.
 *
 * NEEDS ROOT: it creates a private network namespace (gone with the process)
 * holding one TUN device, opened with IFF_VNET_HDR and TUNSETOFFLOAD
 * TUN_F_CSUM | TUN_F_USO4 | TUN_F_USO6 (Linux >= 6.2; the kernel takes the
 * two USO bits only together).  Without root, namespaces, /dev/net/tun or
 * USO on TUN it prints why and exits 77 (ctest SKIP_RETURN_CODE).  Debian
 * 12's headers (Linux 6.1) lack TUN_F_USO4/6 and VIRTIO_NET_HDR_GSO_UDP_L4:
 * <ofl/vnet.h> has their ABI values (OFL_TUN_F_USO4, OFL_VNET_GSO_UDP_L4).
 *
 *   UDP socket, UDP_SEGMENT 1200 --sendto 10 000 bytes--> route via ofluso0
 *        |  TUN read: virtio_net_hdr (NEEDS_CSUM, UDP_L4, gso_size 1200)
 *        |            + one IP packet carrying all 10 000 bytes
 *        '--> ofl_gso_start_vnet(OFL_GSO_L2_NONE) / ofl_gso_next()
 *             -> 9 IP packets: 8 datagrams of 1200 bytes and one of 400
 *
 * Each datagram is checked here without the library: IP version and
 * lengths, IPv4 header checksum, UDP length and checksum (RFC 1071 over the
 * pseudo-header), and its payload against what was sent, in order.
 *
 *   usage: tun_uso [-6]
 *
 * Exit: 0 every datagram right, 1 failure, 77 skipped.
 */
#define _GNU_SOURCE
#include <ofl/gso.h>
#include <ofl/vnet.h>

#include "transfer.h"

#include <linux/if_tun.h>
#include <netinet/udp.h>
#include <sched.h>

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103 /* <linux/udp.h>, Linux 4.18 */
#endif

#define DEV "ofluso0"
#define GSO_SIZE 1200u
#define TOTAL 10000u
#define VNET_LEN 10u
#define PORT 9000

/* RFC 1071 sum of n bytes from p, added to s (big-endian words). */
static uint32_t sum16(const uint8_t *p, size_t n, uint32_t s)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	return s;
}

static uint16_t fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffffu) + (s >> 16);
	return (uint16_t)s;
}

/* One datagram of the train: n bytes at p, payload expected at want.
 * Returns its UDP payload length, or -1 (message printed). */
static int check_datagram(const uint8_t *p, uint32_t n, const uint8_t *want, uint32_t left)
{
	uint32_t l4, ulen, s;
	if ((p[0] >> 4) == 4) {
		l4 = (p[0] & 15u) * 4u;
		if (n < l4 + 8 || (uint32_t)(p[2] << 8 | p[3]) != n || fold(sum16(p, l4, 0)) != 0xffff ||
		    p[9] != 17) {
			fprintf(stderr, "bad IPv4 header\n");
			return -1;
		}
		s = sum16(p + 12, 8, 17);
	} else {
		l4 = 40;
		if (n < l4 + 8 || (uint32_t)(p[4] << 8 | p[5]) + 40u != n || p[6] != 17) {
			fprintf(stderr, "bad IPv6 header\n");
			return -1;
		}
		s = sum16(p + 8, 32, 17);
	}
	ulen = (uint32_t)(p[l4 + 4] << 8 | p[l4 + 5]);
	if (ulen != n - l4 || ulen - 8 > left || (p[l4 + 2] << 8 | p[l4 + 3]) != PORT) {
		fprintf(stderr, "bad UDP length %u (packet %u, header %u)\n", ulen, n, l4);
		return -1;
	}
	s += ulen;
	if (fold(sum16(p + l4, ulen, s)) != 0xffff) {
		fprintf(stderr, "bad UDP checksum\n");
		return -1;
	}
	if (memcmp(p + l4 + 8, want, ulen - 8) != 0) {
		fprintf(stderr, "payload differs\n");
		return -1;
	}
	return (int)(ulen - 8);
}

static int tun_open(void)
{
	struct ifreq ifr = {.ifr_flags = IFF_TUN | IFF_NO_PI | IFF_VNET_HDR};
	int vlen = VNET_LEN;
	int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", DEV);
	if (ioctl(fd, TUNSETIFF, &ifr) != 0 || ioctl(fd, TUNSETVNETHDRSZ, &vlen) != 0 ||
	    ioctl(fd, TUNSETOFFLOAD, OFL_TUN_F_CSUM | OFL_TUN_F_USO4 | OFL_TUN_F_USO6) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* Read the train from the TUN device (other packets, such as IPv6 MLD
 * reports, are passed over) into buf; returns its length or -1. */
static ssize_t read_train(int fd, uint8_t *buf, size_t cap)
{
	uint64_t deadline = xfer_now_ns() + 3000000000u;
	while (xfer_now_ns() < deadline) {
		struct pollfd pf = {.fd = fd, .events = POLLIN};
		ssize_t r;
		if (poll(&pf, 1, 100) <= 0)
			continue;
		r = read(fd, buf, cap);
		if (r > (ssize_t)(VNET_LEN + 48) && buf[VNET_LEN + 9] == 17) /* IPv4 UDP */
			return r;
		if (r > (ssize_t)(VNET_LEN + 48) && (buf[VNET_LEN] >> 4) == 6 && buf[VNET_LEN + 6] == 17)
			return r;
	}
	fprintf(stderr, "no UDP packet from %s within 3 s\n", DEV);
	return -1;
}

int main(int argc, char **argv)
{
	struct xfer_opts o = {0};
	int rc = xfer_options(argc, argv, "6", &o);
	if (rc >= 0)
		return rc;
	int v6 = o.v6;
	static uint8_t buf[VNET_LEN + 65600], sent[TOTAL], lin[2048], slots[64 * 256];

	if (unshare(CLONE_NEWNET) != 0)
		return xfer_skip("unshare(CLONE_NEWNET)");
	int tfd = tun_open();
	if (tfd < 0 && errno == EINVAL)
		return xfer_skip("TUNSETOFFLOAD with TUN_F_USO4 | TUN_F_USO6 (Linux >= 6.2)");
	if (tfd < 0)
		return xfer_skip("TUN device with IFF_VNET_HDR (/dev/net/tun)");
	if (xfer_if_config(DEV, v6, v6 ? "fd00:f6::1" : "198.18.6.1", v6 ? 64 : 24) != 0) {
		perror("configure " DEV);
		return 1;
	}

	/* the sender: one sendto() of TOTAL bytes, cut into GSO_SIZE datagrams */
	int s = socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int gso = GSO_SIZE;
	struct sockaddr_storage to;
	socklen_t tolen;
	memset(&to, 0, sizeof to);
	if (v6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&to;
		a->sin6_family = AF_INET6;
		a->sin6_port = htons(PORT);
		inet_pton(AF_INET6, "fd00:f6::2", &a->sin6_addr);
		tolen = sizeof *a;
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)&to;
		a->sin_family = AF_INET;
		a->sin_port = htons(PORT);
		inet_pton(AF_INET, "198.18.6.2", &a->sin_addr);
		tolen = sizeof *a;
	}
	for (unsigned i = 0; i < TOTAL; i++)
		sent[i] = (uint8_t)(i * 7u + (i >> 8));
	if (s < 0 || setsockopt(s, SOL_UDP, UDP_SEGMENT, &gso, sizeof gso) != 0) {
		perror("UDP socket with UDP_SEGMENT");
		return 1;
	}
	/* an IPv6 address stays tentative for a moment after the device comes
	 * up (the kernel finishes "DAD" off a work queue even with accept_dad
	 * 0): EADDRNOTAVAIL until then */
	ssize_t w;
	uint64_t until = xfer_now_ns() + 2000000000u;
	while ((w = sendto(s, sent, TOTAL, 0, (struct sockaddr *)&to, tolen)) < 0 && errno == EADDRNOTAVAIL &&
	       xfer_now_ns() < until)
		poll(NULL, 0, 10);
	if (w != (ssize_t)TOTAL) {
		perror("sendto");
		return 1;
	}

	ssize_t n = read_train(tfd, buf, sizeof buf);
	if (n < 0)
		return 1;
	struct ofl_virtio_net_hdr vh;
	ofl_gso_vnet_read(buf, VNET_LEN, &vh);
	printf("%s: read %zd bytes: virtio_net_hdr flags %u gso_type %u gso_size %u hdr_len %u "
	       "csum_start %u csum_offset %u\n", DEV, n, vh.flags, vh.gso_type, vh.gso_size, vh.hdr_len,
	       vh.csum_start, vh.csum_offset);
	if (vh.gso_type != OFL_VNET_GSO_UDP_L4 || vh.gso_size != GSO_SIZE ||
	    !(vh.flags & OFL_VNET_F_NEEDS_CSUM)) {
		fprintf(stderr, "FAIL: expected one UDP_L4 train (gso_type %u, gso_size %u, NEEDS_CSUM)\n",
		        OFL_VNET_GSO_UDP_L4, GSO_SIZE);
		return 1;
	}

	/* the NIC's part: cut it */
	struct ofl_gso_iter it;
	struct ofl_gso_pool pool;
	struct ofl_gso_seg seg;
	const struct ofl_buf in = {.data = buf, .len = (uint32_t)n};
	uint32_t pos = 0, nseg = 0;
	if (ofl_gso_pool_init_block(&pool, slots, sizeof slots, 256) != 0)
		return 1;
	rc = ofl_gso_start_vnet(&it, NULL, VNET_LEN, OFL_GSO_L2_NONE, &in, 1);
	if (rc != 0) {
		fprintf(stderr, "FAIL: ofl_gso_start_vnet: %s (%s)\n", ofl_strerror(rc),
		        ofl_gso_why_str(ofl_gso_why(&it)));
		return 1;
	}
	while ((rc = ofl_gso_next(&it, &pool, &seg)) == 1) {
		uint32_t len = seg.hdr_len;
		memcpy(lin, seg.hdr.data, seg.hdr_len);
		for (uint32_t i = 0; i < seg.nslices; i++) {
			memcpy(lin + len, seg.slices[i].data, seg.slices[i].len);
			len += seg.slices[i].len;
		}
		int got = seg.l3_off == 0 ? check_datagram(lin, len, sent + pos, TOTAL - pos) : -1;
		if (got < 0) {
			fprintf(stderr, "FAIL: datagram %u\n", nseg);
			return 1;
		}
		pos += (uint32_t)got;
		nseg++;
		ofl_gso_pool_put(&pool, &seg.hdr);
	}
	if (rc != 0 || pos != TOTAL || nseg != (TOTAL + GSO_SIZE - 1) / GSO_SIZE) {
		fprintf(stderr, "FAIL: %u datagrams, %u bytes (rc %d)\n", nseg, pos, rc);
		return 1;
	}
	printf("OK: %s USO train of %u bytes cut into %u datagrams (%u x %u + %u), checksums and "
	       "payload verified\n", v6 ? "IPv6" : "IPv4", TOTAL, nseg, nseg - 1, GSO_SIZE,
	       TOTAL - (nseg - 1) * GSO_SIZE);
	close(s);
	close(tfd);
	return 0;
}
