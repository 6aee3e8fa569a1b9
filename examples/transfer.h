/*
 * transfer.h - helpers shared by the examples that run a real TCP (or UDP) transfer
 * between two private network namespaces (tun_offload.c, af_packet_gro.c):
 * the two ends as child processes, a hash of the byte stream, and the
 * interface plumbing (ioctl and rtnetlink only: no iproute2 needed).  Not part of libofl.  Linux only.
 *
 * The namespaces are anonymous (unshare(CLONE_NEWNET)) and kept open by file
 * descriptors: they disappear with the process, however it ends.
 */
#ifndef OFL_EXAMPLES_TRANSFER_H
#define OFL_EXAMPLES_TRANSFER_H

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define XFER_SKIP 77 /* ctest SKIP_RETURN_CODE */
#define XFER_PORT 5001
#define XFER_FNV_INIT 0xcbf29ce484222325ull

/* What each end reports through its pipe. */
struct xfer_result {
	uint64_t bytes, hash; /* bytes moved, FNV-1a 64 of them */
	int err;              /* errno of the first failure, 0 if none */
};

static inline uint64_t xfer_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline int xfer_skip(const char *what)
{
	printf("SKIP: %s: %s (needs root and network namespaces)\n", what, strerror(errno));
	return XFER_SKIP;
}

/* Command line [-6] [-T] [-u] [-x|-X [-c]] [-m MiB] [-t seconds] (those in
 * optstring), then the root check.  Returns -1 to go on, or the exit code
 * (2 usage, 77 not root). */
struct xfer_opts {
	int v6, tun, udp, vxlan, cross, csum;
	unsigned mib, timeout_s;
};

static inline int xfer_options(int argc, char **argv, const char *optstring, struct xfer_opts *o)
{
	const struct {
		int c;
		int *on;
	} flags[] = {{'6', &o->v6}, {'T', &o->tun}, {'u', &o->udp}, {'x', &o->vxlan}, {'X', &o->cross}, {'c', &o->csum}};
	int opt;
	while ((opt = getopt(argc, argv, optstring)) != -1) {
		size_t k;
		for (k = 0; k < sizeof flags / sizeof flags[0] && flags[k].c != opt; k++)
			;
		if (k < sizeof flags / sizeof flags[0])
			*flags[k].on = 1;
		else if (opt == 'm')
			o->mib = (unsigned)strtoul(optarg, NULL, 10);
		else if (opt == 't')
			o->timeout_s = (unsigned)strtoul(optarg, NULL, 10);
		else {
			fprintf(stderr, "usage: %s%s%s%s%s [-m MiB] [-t seconds]\n", argv[0],
			        strchr(optstring, '6') ? " [-6]" : "", strchr(optstring, 'T') ? " [-T]" : "",
			        strchr(optstring, 'u') ? " [-u]" : "",
			        strchr(optstring, 'X') ? " [-x|-X [-c]]" : strchr(optstring, 'x') ? " [-x [-c]]" : "");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid() != 0) {
		errno = EPERM;
		return xfer_skip("not root");
	}
	return -1;
}

static inline uint64_t xfer_fnv1a(uint64_t h, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static inline int xfer_make_addr(int v6, const char *ip, struct sockaddr_storage *ss, socklen_t *sl)
{
	memset(ss, 0, sizeof *ss);
	if (v6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;
		a->sin6_family = AF_INET6;
		a->sin6_port = htons(XFER_PORT);
		*sl = sizeof *a;
		return inet_pton(AF_INET6, ip, &a->sin6_addr) == 1 ? 0 : -1;
	}
	struct sockaddr_in *a = (struct sockaddr_in *)ss;
	a->sin_family = AF_INET;
	a->sin_port = htons(XFER_PORT);
	*sl = sizeof *a;
	return inet_pton(AF_INET, ip, &a->sin_addr) == 1 ? 0 : -1;
}

/* Bind s to ip:XFER_PORT, waiting up to 3 s for an IPv6 address to leave
 * the tentative state.  Returns 0 or -1 (errno). */
static inline int xfer_bind(int s, int v6, const char *ip)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	if (xfer_make_addr(v6, ip, &ss, &sl) != 0)
		return -1;
	for (int tries = 0; bind(s, (struct sockaddr *)&ss, sl) != 0; tries++) {
		if (errno != EADDRNOTAVAIL || tries == 300)
			return -1;
		usleep(10000);
	}
	return 0;
}

/* A listening socket on ip:XFER_PORT in the current namespace (xfer_bind). */
static inline int xfer_listen(int v6, const char *ip)
{
	int one = 1;
	int s = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
	    xfer_bind(s, v6, ip) != 0)
		goto fail;
	if (listen(s, 1) == 0)
		return s;
fail:
	if (s >= 0)
		close(s);
	return -1;
}

static inline void xfer_report(int fd, const struct xfer_result *r)
{
	if (write(fd, r, sizeof *r) != (ssize_t)sizeof *r)
		_exit(2);
	_exit(r->err ? 1 : 0);
}

/* --- interfaces: addresses by ioctl, a veth pair by rtnetlink ------------ */

static inline int xfer_write_sysctl(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t r = write(fd, val, strlen(val));
	close(fd);
	return r == (ssize_t)strlen(val) ? 0 : -1;
}

/* Bring ifname (in the current namespace) up with one address. */
static inline int xfer_if_config(const char *ifname, int v6, const char *addr, unsigned prefix)
{
	struct ifreq ifr;
	int rc = -1;
	int s = socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	memset(&ifr, 0, sizeof ifr);
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", ifname);
	if (v6) {
		/* struct in6_ifreq of <linux/ipv6.h>, padded to an ifreq (what
		 * valgrind expects SIOCSIFADDR to read) */
		union {
			struct {
				struct in6_addr addr;
				uint32_t prefixlen;
				int ifindex;
			} r6;
			struct ifreq pad;
		} u;
		char path[128];
		memset(&u, 0, sizeof u);
		u.r6.prefixlen = prefix;
		u.r6.ifindex = (int)if_nametoindex(ifname);
		snprintf(path, sizeof path, "/proc/sys/net/ipv6/conf/%s/accept_dad", ifname);
		if (xfer_write_sysctl(path, "0") != 0 || inet_pton(AF_INET6, addr, &u.r6.addr) != 1 ||
		    ioctl(s, SIOCSIFADDR, &u) != 0)
			goto out;
	} else {
		struct sockaddr_in sin = {.sin_family = AF_INET};
		if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1)
			goto out;
		memcpy(&ifr.ifr_addr, &sin, sizeof sin);
		if (ioctl(s, SIOCSIFADDR, &ifr) != 0)
			goto out;
		sin.sin_addr.s_addr = htonl(~0u << (32 - prefix));
		memcpy(&ifr.ifr_netmask, &sin, sizeof sin);
		if (ioctl(s, SIOCSIFNETMASK, &ifr) != 0)
			goto out;
	}
	if (ioctl(s, SIOCGIFFLAGS, &ifr) != 0)
		goto out;
	ifr.ifr_flags = (short)(ifr.ifr_flags | IFF_UP);
	rc = ioctl(s, SIOCSIFFLAGS, &ifr);
out:
	close(s);
	return rc;
}

static inline struct rtattr *xfer_nl_attr(struct nlmsghdr *nh, unsigned short type, const void *data,
                                          size_t len)
{
	struct rtattr *rta = (struct rtattr *)((char *)nh + NLMSG_ALIGN(nh->nlmsg_len));
	rta->rta_type = type;
	rta->rta_len = (unsigned short)RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(rta), data, len);
	nh->nlmsg_len = NLMSG_ALIGN(nh->nlmsg_len) + RTA_ALIGN(rta->rta_len);
	return rta;
}

static inline void xfer_nl_end(struct nlmsghdr *nh, struct rtattr *nest)
{
	nest->rta_len = (unsigned short)((char *)nh + nh->nlmsg_len - (char *)nest);
}

/* A request of RTM_NEWLINK (create, exclusive, acknowledged) for a new
 * link called name, in req; its IFLA_LINKINFO nest, kind `kind` opened, is
 * returned with the IFLA_INFO_DATA nest opened in *data. */
union xfer_nl_msg {
	struct nlmsghdr nh;
	char buf[1024];
};

static inline struct rtattr *xfer_nl_newlink(union xfer_nl_msg *req, const char *name, const char *kind,
                                             struct rtattr **data)
{
	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC};
	memset(req, 0, sizeof *req);
	req->nh.nlmsg_len = NLMSG_LENGTH(sizeof ifi);
	req->nh.nlmsg_type = RTM_NEWLINK;
	req->nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK;
	req->nh.nlmsg_seq = 1;
	memcpy(NLMSG_DATA(&req->nh), &ifi, sizeof ifi);
	xfer_nl_attr(&req->nh, IFLA_IFNAME, name, strlen(name) + 1);
	struct rtattr *info = xfer_nl_attr(&req->nh, IFLA_LINKINFO, NULL, 0);
	xfer_nl_attr(&req->nh, IFLA_INFO_KIND, kind, strlen(kind) + 1);
	*data = xfer_nl_attr(&req->nh, IFLA_INFO_DATA, NULL, 0);
	return info;
}

/* Send req to the kernel (rtnetlink, the current namespace) and wait for its
 * acknowledgement.  Returns 0, or -1 with errno (the kernel's answer). */
static inline int xfer_nl_talk(const union xfer_nl_msg *req)
{
	union xfer_nl_msg ack;
	struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
	int rc = -1;
	int s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (s < 0)
		return -1;
	if (sendto(s, req, req->nh.nlmsg_len, 0, (const struct sockaddr *)&kernel, sizeof kernel) < 0)
		goto out;
	ssize_t n = recv(s, &ack, sizeof ack, 0);
	if (n >= (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr)) && ack.nh.nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = NLMSG_DATA(&ack.nh);
		errno = -e->error;
		rc = e->error == 0 ? 0 : -1;
	}
out:
	close(s);
	return rc;
}

/* `ip link add name type veth peer name peer netns <peer_ns_fd>`, in the
 * current namespace, by one RTM_NEWLINK. */
static inline int xfer_veth_add(const char *name, const char *peer, int peer_ns_fd)
{
	union xfer_nl_msg req;
	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC};
	struct rtattr *data, *info = xfer_nl_newlink(&req, name, "veth", &data);
	struct rtattr *pr = xfer_nl_attr(&req.nh, VETH_INFO_PEER, &ifi, sizeof ifi);
	xfer_nl_attr(&req.nh, IFLA_IFNAME, peer, strlen(peer) + 1);
	xfer_nl_attr(&req.nh, IFLA_NET_NS_FD, &peer_ns_fd, sizeof peer_ns_fd);
	xfer_nl_end(&req.nh, pr);
	xfer_nl_end(&req.nh, data);
	xfer_nl_end(&req.nh, info);
	return xfer_nl_talk(&req);
}

/* `ip link add name type vxlan id vni local LOCAL remote REMOTE dstport port
 * dev link [udpcsum]`, in the current namespace: a VXLAN device whose
 * packets go to REMOTE over link.  Outer IPv6 (v6) always has its UDP
 * checksum (RFC 6935 zero checksums off, the kernel's default); outer
 * IPv4 has it only with udp_csum.  Returns 0, or -1 with errno. */
static inline int xfer_vxlan_add(const char *name, uint32_t vni, int v6, const char *local,
                                 const char *remote, uint16_t port, const char *link, int udp_csum)
{
	union xfer_nl_msg req;
	unsigned char a[16], b[16];
	uint32_t ifindex = if_nametoindex(link);
	uint16_t port_be = htons(port);
	uint8_t csum = udp_csum ? 1 : 0;
	if (ifindex == 0 || inet_pton(v6 ? AF_INET6 : AF_INET, local, a) != 1 ||
	    inet_pton(v6 ? AF_INET6 : AF_INET, remote, b) != 1) {
		errno = EINVAL;
		return -1;
	}
	struct rtattr *data, *info = xfer_nl_newlink(&req, name, "vxlan", &data);
	xfer_nl_attr(&req.nh, IFLA_VXLAN_ID, &vni, sizeof vni);
	xfer_nl_attr(&req.nh, v6 ? IFLA_VXLAN_LOCAL6 : IFLA_VXLAN_LOCAL, a, v6 ? 16 : 4);
	xfer_nl_attr(&req.nh, v6 ? IFLA_VXLAN_GROUP6 : IFLA_VXLAN_GROUP, b, v6 ? 16 : 4);
	xfer_nl_attr(&req.nh, IFLA_VXLAN_LINK, &ifindex, sizeof ifindex);
	xfer_nl_attr(&req.nh, IFLA_VXLAN_PORT, &port_be, sizeof port_be);
	if (!v6)
		xfer_nl_attr(&req.nh, IFLA_VXLAN_UDP_CSUM, &csum, sizeof csum);
	xfer_nl_end(&req.nh, data);
	xfer_nl_end(&req.nh, info);
	return xfer_nl_talk(&req);
}

/* Connect s to ip:XFER_PORT.  Returns 0 or an errno value. */
static inline int xfer_connect(int s, int v6, const char *ip)
{
	struct sockaddr_storage to;
	socklen_t tolen;
	if (xfer_make_addr(v6, ip, &to, &tolen) != 0)
		return EINVAL;
	/* an IPv6 address is usable a moment after its link is up (DAD work) */
	for (int tries = 0; connect(s, (const struct sockaddr *)&to, tolen) != 0; tries++) {
		if ((errno != EADDRNOTAVAIL && errno != ENETUNREACH) || tries == 300)
			return errno;
		usleep(10000);
	}
	return 0;
}

/* n bytes of xorshift64 output (data that does not compress), state *x. */
static inline void xfer_fill(uint64_t *x, uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i += 8) {
		*x ^= *x << 13;
		*x ^= *x >> 7;
		*x ^= *x << 17;
		memcpy(p + i, x, n - i < 8 ? n - i : 8);
	}
}

/* Sender: connect s (created in the sending namespace) to ip:XFER_PORT and
 * write `total` bytes of xorshift data, then wait for the receiver's close. */
static inline void xfer_run_sender(int s, int v6, const char *ip, uint64_t total, int out)
{
	static uint8_t chunk[64 * 1024];
	struct xfer_result r = {.hash = XFER_FNV_INIT};
	uint64_t x = 0x9e3779b97f4a7c15ull;
	if ((r.err = xfer_connect(s, v6, ip)) != 0)
		xfer_report(out, &r);
	while (r.bytes < total) {
		size_t n = sizeof chunk;
		if (total - r.bytes < n)
			n = (size_t)(total - r.bytes);
		xfer_fill(&x, chunk, n);
		r.hash = xfer_fnv1a(r.hash, chunk, n);
		for (size_t off = 0; off < n;) {
			ssize_t w = write(s, chunk + off, n - off);
			if (w < 0) {
				if (errno == EINTR)
					continue;
				r.err = errno;
				xfer_report(out, &r);
			}
			off += (size_t)w;
		}
		r.bytes += n;
	}
	if (shutdown(s, SHUT_WR) != 0)
		r.err = errno;
	while (read(s, chunk, sizeof chunk) > 0) /* every byte acknowledged */
		;
	xfer_report(out, &r);
}

/* Receiver: accept one connection on ls, read to the end, hash. */
static inline void xfer_run_receiver(int ls, int out)
{
	static uint8_t buf[256 * 1024];
	struct xfer_result r = {.hash = XFER_FNV_INIT};
	int s = accept(ls, NULL, NULL);
	if (s < 0) {
		r.err = errno;
		xfer_report(out, &r);
	}
	for (;;) {
		ssize_t n = read(s, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r.err = n < 0 ? errno : 0;
			break;
		}
		r.hash = xfer_fnv1a(r.hash, buf, (size_t)n);
		r.bytes += (uint64_t)n;
	}
	close(s);
	xfer_report(out, &r);
}

/* --- UDP with segmentation offload (tun_offload -u) ----------------------
 *
 * Stop and wait, one train at a time: the sender writes a train of up to
 * 64 000 bytes with UDP_SEGMENT (XFER_UDP_GSO-byte datagrams, the last one
 * shorter when the length is no multiple), the receiver reads with UDP_GRO,
 * hashes and writes every read back with UDP_SEGMENT, and the sender waits
 * for the whole train to come back before the next one.  So large UDP
 * trains cross the wire both ways, nothing is in flight beyond one train
 * (no loss from full queues), and a lost or damaged datagram shows as a
 * timeout or a hash mismatch.  Payload: the same xorshift stream as TCP. */
#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103 /* <linux/udp.h>, Linux 4.18 */
#endif
#ifndef UDP_GRO
#define UDP_GRO 104 /* <linux/udp.h>, Linux 5.0 */
#endif
#ifndef SOL_UDP
#define SOL_UDP 17
#endif
#define XFER_UDP_GSO 1200u      /* datagram payload (QUIC's usual size) */
#define XFER_UDP_TRAIN 64000u   /* largest train */
#define XFER_UDP_WAIT_S 5       /* a train must come back within this */

/* A UDP socket for the receiver: bound to ip:XFER_PORT, UDP_GRO on, and
 * UDP_SEGMENT on for the echo. */
static inline int xfer_udp_bind(int v6, const char *ip)
{
	int one = 1, gso = XFER_UDP_GSO, buf = 4 << 20;
	int s = socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s >= 0 && (setsockopt(s, SOL_UDP, UDP_GRO, &one, sizeof one) != 0 ||
	               setsockopt(s, SOL_UDP, UDP_SEGMENT, &gso, sizeof gso) != 0 ||
	               setsockopt(s, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof buf) != 0 ||
	               xfer_bind(s, v6, ip) != 0)) {
		close(s);
		return -1;
	}
	return s;
}

/* The sender's UDP socket, UDP_SEGMENT and UDP_GRO on (created in its
 * namespace; connected by the sender). */
static inline int xfer_udp_socket(int v6)
{
	int one = 1, gso = XFER_UDP_GSO, buf = 4 << 20;
	int s = socket(v6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s >= 0 && (setsockopt(s, SOL_UDP, UDP_SEGMENT, &gso, sizeof gso) != 0 ||
	               setsockopt(s, SOL_UDP, UDP_GRO, &one, sizeof one) != 0 ||
	               setsockopt(s, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof buf) != 0)) {
		close(s);
		return -1;
	}
	return s;
}

/* Length of train i: 64 000 bytes less a varying amount, so that most
 * trains end in a shorter datagram and some are an exact multiple. */
static inline size_t xfer_udp_train_len(uint64_t i)
{
	return XFER_UDP_TRAIN - (size_t)((i * 1237u) % (7u * XFER_UDP_GSO));
}

/* Sender: `total` bytes in trains; each must come back whole and in order.
 * Reports the hash of what it sent; err EBADMSG if an echo differed,
 * ETIMEDOUT if one did not come back. */
static inline void xfer_run_udp_sender(int s, int v6, const char *ip, uint64_t total, int out)
{
	static uint8_t train[XFER_UDP_TRAIN], back[65536];
	struct xfer_result r = {.hash = XFER_FNV_INIT};
	struct timeval tv = {.tv_sec = XFER_UDP_WAIT_S};
	uint64_t x = 0x9e3779b97f4a7c15ull;
	if (setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0)
		r.err = errno;
	else
		r.err = xfer_connect(s, v6, ip);
	if (r.err)
		xfer_report(out, &r);
	for (uint64_t i = 0; r.bytes < total; i++) {
		size_t n = xfer_udp_train_len(i);
		if (total - r.bytes < n)
			n = (size_t)(total - r.bytes);
		xfer_fill(&x, train, n);
		ssize_t w;
		/* the first send may meet an unresolved neighbour: retried */
		for (int tries = 0; (w = send(s, train, n, 0)) < 0; tries++) {
			if ((errno != EINTR && errno != EAGAIN && errno != ENOBUFS) || tries == 300) {
				r.err = errno;
				xfer_report(out, &r);
			}
			usleep(1000);
		}
		if ((size_t)w != n) {
			r.err = EMSGSIZE;
			xfer_report(out, &r);
		}
		r.hash = xfer_fnv1a(r.hash, train, n);
		r.bytes += n;
		for (size_t got = 0; got < n;) { /* the echo, in order */
			ssize_t m = recv(s, back, sizeof back, 0);
			if (m < 0 && errno == EINTR)
				continue;
			if (m < 0) {
				r.err = errno == EAGAIN ? ETIMEDOUT : errno;
				xfer_report(out, &r);
			}
			if ((size_t)m > n - got || memcmp(back, train + got, (size_t)m) != 0) {
				r.err = EBADMSG;
				xfer_report(out, &r);
			}
			got += (size_t)m;
		}
	}
	xfer_report(out, &r);
}

/* Receiver: read `total` bytes with UDP_GRO (each read may be a merged
 * train), hash them, write each read back to its sender with UDP_SEGMENT. */
static inline void xfer_run_udp_receiver(int s, uint64_t total, int out)
{
	static uint8_t buf[65536];
	struct xfer_result r = {.hash = XFER_FNV_INIT};
	while (r.bytes < total) {
		struct sockaddr_storage from;
		socklen_t fl = sizeof from;
		ssize_t n = recvfrom(s, buf, sizeof buf, 0, (struct sockaddr *)&from, &fl);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r.err = errno;
			break;
		}
		r.hash = xfer_fnv1a(r.hash, buf, (size_t)n);
		r.bytes += (uint64_t)n;
		while (sendto(s, buf, (size_t)n, 0, (struct sockaddr *)&from, fl) != n) {
			if (errno != EINTR && errno != EAGAIN && errno != ENOBUFS) {
				r.err = errno;
				xfer_report(out, &r);
			}
			usleep(1000);
		}
	}
	close(s);
	xfer_report(out, &r);
}

/* The two ends as child processes (killed with the parent: PDEATHSIG). */
struct xfer {
	int udp;         /* set before xfer_start: the UDP ends above */
	pid_t pid[2];    /* receiver, sender */
	int fd[2];       /* their result pipes */
	int have[2];
	struct xfer_result res[2];
};

static struct xfer *xfer_running; /* for the signal handler */

static inline void xfer_kill(struct xfer *x)
{
	for (int i = 0; i < 2; i++)
		if (x->pid[i] > 0) {
			kill(x->pid[i], SIGKILL);
			waitpid(x->pid[i], NULL, 0);
			x->pid[i] = -1;
		}
}

static inline void xfer_on_signal(int sig)
{
	(void)sig;
	if (xfer_running)
		xfer_kill(xfer_running); /* the namespaces go with the last process in them */
	_exit(1);
}

/* Start both ends (x->udp chooses TCP or UDP ends: listen_sock is then the
 * receiver's bound UDP socket); SIGINT/SIGTERM then kill them.  Returns 0,
 * or -1 (said why). */
static inline int xfer_start(struct xfer *x, int listen_sock, int send_sock, int v6, const char *ip,
                             uint64_t total)
{
	struct sigaction sa = {.sa_handler = xfer_on_signal};
	x->pid[0] = x->pid[1] = -1;
	xfer_running = x;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	for (int i = 0; i < 2; i++) {
		int p[2];
		x->have[i] = 0;
		if (pipe2(p, O_CLOEXEC) != 0 || (x->pid[i] = fork()) < 0) {
			perror("pipe/fork");
			xfer_kill(x);
			return -1;
		}
		if (x->pid[i] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(p[0]);
			if (i == 0 && x->udp)
				xfer_run_udp_receiver(listen_sock, total, p[1]);
			else if (i == 0)
				xfer_run_receiver(listen_sock, p[1]);
			else if (x->udp)
				xfer_run_udp_sender(send_sock, v6, ip, total, p[1]);
			else
				xfer_run_sender(send_sock, v6, ip, total, p[1]);
			_exit(1);
		}
		close(p[1]);
		x->fd[i] = p[0];
	}
	close(listen_sock);
	close(send_sock);
	return 0;
}

/* Read the result of end i once its pipe is readable; -1 if it died. */
static inline int xfer_collect(struct xfer *x, int i)
{
	x->have[i] = 1;
	return read(x->fd[i], &x->res[i], sizeof x->res[i]) == (ssize_t)sizeof x->res[i] ? 0 : -1;
}

/* Poll entries for the result pipes of the ends still running. */
static inline void xfer_pollfds(const struct xfer *x, struct pollfd pf[2])
{
	for (int i = 0; i < 2; i++)
		pf[i] = (struct pollfd){.fd = x->have[i] ? -1 : x->fd[i], .events = POLLIN};
}

/* After poll(): collect what the ends reported.  Returns -1 if one died. */
static inline int xfer_poll_results(struct xfer *x, const struct pollfd pf[2])
{
	int rc = 0;
	for (int i = 0; i < 2; i++)
		if (!x->have[i] && pf[i].revents && xfer_collect(x, i) != 0) {
			fprintf(stderr, "FAIL: the %s died\n", i ? "sender" : "receiver");
			rc = -1;
		}
	return rc;
}

/* Both ends finished, the same bytes on both sides, `total` of them. */
static inline int xfer_intact(const struct xfer *x, uint64_t total)
{
	const struct xfer_result *rr = &x->res[0], *rs = &x->res[1];
	printf("sender: %llu bytes, fnv1a64 %016llx%s%s; receiver: %llu bytes, fnv1a64 %016llx%s%s\n",
	       (unsigned long long)rs->bytes, (unsigned long long)rs->hash, rs->err ? ", error " : "",
	       rs->err ? strerror(rs->err) : "", (unsigned long long)rr->bytes,
	       (unsigned long long)rr->hash, rr->err ? ", error " : "", rr->err ? strerror(rr->err) : "");
	return !rs->err && !rr->err && rs->bytes == total && rr->bytes == total && rr->hash == rs->hash;
}

#endif
