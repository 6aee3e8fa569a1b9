/*
 * live_test.c - `offload-replay gro -i lo OUT --duration 4` while this test
 * sends 2 MiB over a TCP connection on the loopback: exit 0, one line of
 * counters a second, the total line counts the frames, OUT (read back with
 * libpcap) holds as many frames as the tool says it delivered, and that is
 * at least one per segment the kernel put on the wire for our bytes.
 * Needs root (a packet socket): exits 77 (skipped) without it, or when the
 * system refuses the capture (no CAP_NET_RAW in a container).
 */
#define _POSIX_C_SOURCE 200809L /* popen() */
#include <arpa/inet.h>
#include <check.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

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
	return h_run_suite(s);
}
