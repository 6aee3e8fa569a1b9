/*
 * live_test.c - `offload-replay gro -i lo OUT --duration 4` while this test
 * sends 2 MiB over a TCP connection on the loopback: exit 0, one line of
 * counters a second, the total line counts the frames, OUT (read back with
 * libpcap) holds as many frames as the tool says it delivered, and that is
 * at least one per segment the kernel put on the wire for our bytes.
 *
 * `offload-replay gro -i TUN OUT` on an L3 interface: a TUN device (link
 * type RAW) in a private network namespace, into which this test writes a
 * train of TCP segments per IPv4 and IPv6 flow while the tool is stopped
 * (SIGSTOP), so they wait in its ring and reach GRO in one poll: the tool
 * takes the device as raw IP, OUT is LINKTYPE_RAW with IP packets from the
 * first byte, GRO merged, and every payload byte of both flows is in OUT.
 *
 * Needs root (a packet socket; the TUN test also a network namespace and
 * /dev/net/tun): exits 77 (skipped) without it.
 */
#define _GNU_SOURCE /* popen(), unshare() */
#include <arpa/inet.h>
#include <check.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pcap/pcap.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gen.h"
#include "harness.h"
#include "replay.h"

#define SEND_BYTES (2u << 20)

/* A TCP connection on 127.0.0.1 carrying SEND_BYTES, received as it goes. */
static void loopback_transfer(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof a;
	static char buf[65536];
	int ls = socket(AF_INET, SOCK_STREAM, 0), cs, ss;
	size_t sent = 0, got = 0;
	ssize_t n;

	ck_assert_int_ge(ls, 0);
	ck_assert_int_eq(bind(ls, (struct sockaddr *)&a, sizeof a), 0);
	ck_assert_int_eq(listen(ls, 1), 0);
	ck_assert_int_eq(getsockname(ls, (struct sockaddr *)&a, &alen), 0);
	cs = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_eq(connect(cs, (struct sockaddr *)&a, sizeof a), 0);
	ss = accept(ls, NULL, NULL);
	ck_assert_int_ge(ss, 0);
	while (sent < SEND_BYTES) {
		n = send(cs, buf, 16384, 0);
		ck_assert_int_gt(n, 0);
		sent += (size_t)n;
		while ((n = recv(ss, buf, sizeof buf, MSG_DONTWAIT)) > 0)
			got += (size_t)n;
	}
	close(cs);
	while ((n = recv(ss, buf, sizeof buf, 0)) > 0)
		got += (size_t)n;
	ck_assert_uint_eq(got, SEND_BYTES);
	close(ss);
	close(ls);
}

START_TEST(live_loopback)
{
	char cmd[8192], line[512], out[4096], err[REPLAY_ERRLEN];
	uint64_t in = 0, merged = 0, pkts = 0, dropped = 0;
	unsigned seconds = 0;
	struct replay_capture c;
	FILE *p;
	int st;

	snprintf(out, sizeof out, "%s/replay_live_out.pcap", REPLAY_TMPDIR);
	snprintf(cmd, sizeof cmd, "'%s' gro -i lo --duration 4 '%s' 2>&1", OFFLOAD_REPLAY_BIN, out);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(fgets(line, sizeof line, p));
	ck_assert_msg(strstr(line, "live on lo"), "%s", line); /* capturing from here */
	loopback_transfer();
	while (fgets(line, sizeof line, p)) {
		unsigned s;
		if (sscanf(line, "%us ", &s) == 1 && strstr(line, "frames in"))
			seconds = s;
		sscanf(line, "total frames in %" SCNu64 " merged %" SCNu64 " packets out %" SCNu64
		             " dropped by the kernel %" SCNu64, &in, &merged, &pkts, &dropped);
	}
	st = pclose(p);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "exit status %d", st);
	ck_assert_uint_ge(seconds, 3);
	/* at least the data segments: 2 MiB in frames of at most 64 KiB */
	ck_assert_uint_ge(in + dropped, SEND_BYTES / 65536);
	ck_assert_uint_le(pkts, in);
	ck_assert_msg(replay_capture_read(&c, out, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(c.nframes, pkts);
	printf("live: %" PRIu64 " frames in, %" PRIu64 " merged, %" PRIu64 " out, %" PRIu64
	       " dropped by the kernel\n", in, merged, pkts, dropped);
	replay_capture_free(&c);
}
END_TEST

#define TUN_SEGS 30
#define TUN_MSS 1000

/* A TUN device (IP packets, no packet information) named name, up. */
static int tun_up(const char *name)
{
	struct ifreq ifr;
	int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC), s;
	ck_assert_msg(fd >= 0, "open /dev/net/tun");
	memset(&ifr, 0, sizeof ifr);
	ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", name);
	ck_assert_int_eq(ioctl(fd, TUNSETIFF, &ifr), 0);
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	ck_assert_int_ge(s, 0);
	ck_assert_int_eq(ioctl(s, SIOCGIFFLAGS, &ifr), 0);
	ifr.ifr_flags |= IFF_UP;
	ck_assert_int_eq(ioctl(s, SIOCSIFFLAGS, &ifr), 0);
	close(s);
	return fd;
}

/* TCP payload bytes of a raw IP packet to port 8000 (gen.h's flows), or 0. */
static uint32_t tcp_payload(const uint8_t *p, uint32_t len)
{
	uint32_t l4, iplen;
	if (len >= 20 && (p[0] >> 4) == 4 && p[9] == 6) {
		l4 = (p[0] & 15u) * 4u;
		iplen = (uint32_t)(p[2] << 8 | p[3]);
	} else if (len >= 40 && (p[0] >> 4) == 6 && p[6] == 6) {
		l4 = 40;
		iplen = 40u + (uint32_t)(p[4] << 8 | p[5]);
	} else {
		return 0;
	}
	if (iplen > len || l4 + 20 > iplen || (p[l4 + 2] << 8 | p[l4 + 3]) != 8000)
		return 0;
	return iplen - l4 - (p[l4 + 12] >> 4) * 4u;
}

START_TEST(live_tun)
{
	char out[4096], err[REPLAY_ERRLEN], line[512];
	uint64_t in = 0, merged = 0, pkts = 0, dropped = 0, bytes = 0;
	struct replay_capture c;
	int fds[2], st, tfd;
	pid_t pid;
	FILE *r;
	size_t i;

	ck_assert_msg(unshare(CLONE_NEWNET) == 0, "unshare(CLONE_NEWNET)");
	tfd = tun_up("ofltun0");
	snprintf(out, sizeof out, "%s/replay_live_tun.pcap", REPLAY_TMPDIR);
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		execl(OFFLOAD_REPLAY_BIN, OFFLOAD_REPLAY_BIN, "gro", "-i", "ofltun0", "--duration", "3", out,
		      (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	r = fdopen(fds[0], "r");
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(fgets(line, sizeof line, r));
	ck_assert_msg(strstr(line, "live on ofltun0"), "%s", line);
	/* stopped, so that the train waits in the ring and arrives in one poll */
	ck_assert_int_eq(kill(pid, SIGSTOP), 0);
	ck_assert_int_eq(waitpid(pid, &st, WUNTRACED), pid);
	ck_assert(WIFSTOPPED(st));
	for (int l3 = 4; l3 <= 6; l3 += 2) {
		struct gen_tcp g;
		uint8_t f[2000];
		gen_tcp_init(&g, l3);
		g.flags = GEN_ACK;
		g.payload_len = TUN_MSS;
		g.ip_id = 10;
		for (unsigned k = 0; k < TUN_SEGS; k++) {
			size_t n;
			g.seq = 1 + k * TUN_MSS;
			n = gen_tcp_frame(&g, f, sizeof f);
			ck_assert_int_eq(write(tfd, f + 14, n - 14), (ssize_t)(n - 14)); /* no Ethernet */
			g.ip_id++;
		}
	}
	ck_assert_int_eq(kill(pid, SIGCONT), 0);
	while (fgets(line, sizeof line, r))
		sscanf(line, "total frames in %" SCNu64 " merged %" SCNu64 " packets out %" SCNu64
		             " dropped by the kernel %" SCNu64, &in, &merged, &pkts, &dropped);
	fclose(r);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "exit status %d", st);
	close(tfd);
	ck_assert_uint_eq(dropped, 0);
	ck_assert_uint_ge(in, 2 * TUN_SEGS);
	ck_assert_uint_gt(merged, 0);
	ck_assert_msg(replay_capture_read(&c, out, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(c.linktype, DLT_RAW);
	ck_assert_uint_eq(c.nframes, pkts);
	ck_assert_uint_lt(pkts, in);
	for (i = 0; i < c.nframes; i++)
		bytes += tcp_payload(c.frames[i].data, c.frames[i].caplen);
	ck_assert_uint_eq(bytes, 2u * TUN_SEGS * TUN_MSS);
	printf("live TUN: %" PRIu64 " frames in, %" PRIu64 " merged, %" PRIu64 " out\n", in, merged, pkts);
	replay_capture_free(&c);
}
END_TEST

int main(void)
{
	Suite *s;
	TCase *tc;

	if (geteuid() != 0) {
		printf("replay_live_test: not root (a packet socket on lo): skipped\n");
		return 77;
	}
	s = suite_create("replay_live");
	tc = tcase_create("lo");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, live_loopback);
	suite_add_tcase(s, tc);
	tc = tcase_create("tun");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, live_tun);
	suite_add_tcase(s, tc);
	return h_run_suite(s);
}
