/*
 * harness.h - drive a GRO context from tests and check conservation.
 *
 * The harness owns a copy of every frame it feeds (so buffers stay valid
 * until delivery), optionally split over several buffers, uses the frame
 * index as the cookie, records every delivered packet linearized with full
 * checksums, and at h_finish() asserts (Check ck_assert) that:
 *   - every cookie came back exactly once;
 *   - per flow (addresses, ports), the TCP (UDP) payload bytes delivered equal the
 *     payload bytes fed, in the same order;
 *   - NORMAL packets are byte-identical to their input;
 *   - every GRO packet with seg_count > 1 cut at seg_size gives back the
 *     payloads of the segments whose cookies it carries, in order, and its
 *     linearized frame has valid checksums.
 */
#ifndef OFL_TEST_HARNESS_H
#define OFL_TEST_HARNESS_H

#include <ofl/gro.h>
#include <stdbool.h>

#define H_MAX_IN 4096
#define H_MAX_OUT 4096

/* Split modes for h->split. */
enum h_split {
	H_SPLIT_NONE = 0,
	H_SPLIT_HDR,      /* headers / payload (header split) */
	H_SPLIT_FOUR,     /* four buffers: 14 | rest of headers | half payload | rest */
	H_SPLIT_BYTES,    /* first 80 bytes one byte per buffer (up to max_bufs-1) */
	H_SPLIT_EMPTY,    /* zero-length buffers between the pieces of H_SPLIT_HDR */
};

struct h_out {
	uint8_t *frame;      /* linearized, full checksums */
	uint32_t len;
	uint16_t seg_count;  /* 0 = NORMAL */
	uint16_t seg_size;
	uint32_t payload;    /* TCP (UDP) payload bytes (0 for others) */
	uint32_t first_cookie;
	uint8_t flags, gso_type;
	unsigned list;       /* index of the deliver call */
};

struct harness {
	struct ofl_gro *gro;
	struct ofl_gro_config cfg;
	int split;
	unsigned nin;
	uint8_t *in[H_MAX_IN];
	uint32_t in_len[H_MAX_IN];
	struct ofl_buf bufs[H_MAX_IN][20];
	unsigned nbufs[H_MAX_IN];
	unsigned seen[H_MAX_IN];
	unsigned out_of[H_MAX_IN]; /* output index that carried cookie i */
	unsigned nout;
	struct h_out out[H_MAX_OUT];
	unsigned nlists;
	unsigned list_pkts[H_MAX_OUT];
	unsigned list_segs[H_MAX_OUT];
	uint8_t csum_status;       /* given to every packet */
	uint8_t nic_csum;          /* like a NIC with RX checksum offload: valid
	                              frames OFL_CSUM_UNNECESSARY, others NONE
	                              (overrides csum_status) */
	int last_result;
	uint8_t complete_auto;     /* with csum_status OFL_CSUM_COMPLETE: the
	                              frame's sum (after the Ethernet header)
	                              given with it, as a NIC would */
};

/* Run a Check suite with normal output; the process exit status (0 when
 * every test passed).  The main() of every unit test. */
struct Suite;
int h_run_suite(struct Suite *s);
/* The same for a suite of one test case holding the n tests (START_TEST
 * names), named name: main() in one line for a small test file. */
struct TTest;
int h_run_tests(const char *name, const struct TTest *const *tests, unsigned n);

/* A test of h_run_table(): run once (loops 0, as tcase_add_test()) or
 * loops times with _i = 0 .. loops - 1 (as tcase_add_loop_test()). */
struct h_test {
	const struct TTest *test;
	int loops;
};
/* h_run_tests() for a table of tests, some of them loops; timeout: seconds
 * per test (0: Check's default); flags: H_NOFORK runs the tests in order in
 * this process (tests that share files). */
#define H_NOFORK 1u
int h_run_table(const char *name, unsigned timeout, unsigned flags, const struct h_test *tests, unsigned n);
/* The same with a checked fixture: setup before and teardown after each
 * test, in the test's process (either may be NULL). */
int h_run_table_fixture(const char *name, unsigned timeout, unsigned flags, void (*setup)(void),
                        void (*teardown)(void), const struct h_test *tests, unsigned n);
/* A test file's main(): H_MAIN("name", timeout, flags, {test, loops}, ...)
 * runs the table of h_test rows given as the remaining arguments;
 * H_MAIN_FIXTURE(name, timeout, setup, teardown, rows...) with a fixture. */
#define H_MAIN_FIXTURE(name, timeout, setup, teardown, ...)                                   \
	int main(void)                                                                         \
	{                                                                                      \
		const struct h_test h_main_tests_[] = {__VA_ARGS__};                          \
		return h_run_table_fixture(name, timeout, 0, setup, teardown, h_main_tests_,   \
		                           (unsigned)(sizeof h_main_tests_ / sizeof h_main_tests_[0])); \
	}
#define H_MAIN(name, timeout, flags, ...)                                                      \
	int main(void)                                                                         \
	{                                                                                      \
		const struct h_test h_main_tests_[] = {__VA_ARGS__};                          \
		return h_run_table(name, timeout, flags, h_main_tests_,                        \
		                   (unsigned)(sizeof h_main_tests_ / sizeof h_main_tests_[0])); \
	}

/* cfg may be NULL for defaults; cfg->deliver/user are replaced. */
void h_init(struct harness *h, const struct ofl_gro_config *cfg, int split);
/* A GRO context of the default configuration with normal_batch 1 (every
 * completed packet goes out at once) delivering to deliver(user, ...). */
struct ofl_gro *h_gro_batch1(ofl_gro_deliver_fn deliver, void *user);
/* What a GRO context delivered, recorded by h_cap_one()/h_cap_deliver():
 * each packet's struct and slices, its frame linearized with full and with
 * partial checksums (h_lin_both), and its 12-byte virtio header
 * for a TUN device (ofl_gro_vnet_hdr, l2_strip 14) with that call's result
 * in vrc. */
#define H_CAP_MAX 16
#define H_CAP_SLICES 64
struct h_cap {
	struct ofl_gro_out out[H_CAP_MAX];
	struct ofl_slice sl[H_CAP_MAX][H_CAP_SLICES];
	uint8_t full[H_CAP_MAX][70000], part[H_CAP_MAX][70000];
	int len[H_CAP_MAX];
	int vrc[H_CAP_MAX];
	struct ofl_virtio_net_hdr vh[H_CAP_MAX];
	unsigned n;
};
/* Records p as c's next packet and returns its index. */
unsigned h_cap_one(struct h_cap *c, const struct ofl_gro_out *p);
/* A deliver callback recording every packet into user, a struct h_cap. */
void h_cap_deliver(void *user, const struct ofl_gro_out *p, unsigned n);
/* p linearized into full with full checksums and into part with partial
 * ones (both cap bytes); checks both give the same length and returns it. */
int h_lin_both(const struct ofl_gro_out *p, uint8_t *full, uint8_t *part, size_t cap);
/* The last packet a GRO context delivered, kept by h_last_deliver() (user:
 * a struct h_last): how many came, the last one's seg_count and length,
 * and its frame linearized with full checksums into lin (cap bytes; the
 * linearized length is asserted to be the packet's). */
struct h_last {
	uint8_t *lin;
	size_t cap;
	unsigned n;
	uint16_t segs;
	int len;
};
/* Nothing delivered yet, into lin (cap bytes, the caller's). */
void h_last_init(struct h_last *l, uint8_t *lin, size_t cap);
void h_last_deliver(void *user, const struct ofl_gro_out *p, unsigned n);
/* Offer frame (len bytes, one buffer, not copied: it must stay until
 * delivered; the packet's cookie) to g with that csum_status (OFL_CSUM_*).
 * Returns ofl_gro_receive()'s result. */
int h_receive1(struct ofl_gro *g, uint8_t *frame, size_t len, int csum_status, uint64_t now);
/* Feed one frame (copied). Returns ofl_gro_receive()'s result. */
int h_rx(struct harness *h, const uint8_t *frame, size_t len, uint64_t now);
/* Feed a generated frame. */
struct gen_tcp;
int h_rx_gen(struct harness *h, const struct gen_tcp *g, uint64_t now);
/* Feed n generated frames: after each, seq advances by the payload and the
 * IPv4 ID by one.  Returns the last ofl_gro_receive() result. */
int h_send(struct harness *h, struct gen_tcp *g, unsigned n);
/* The context's counters (after h_finish(): the last ones it had). */
struct ofl_gro_stats h_stats(struct harness *h);
/* Flush all, destroy the context, check conservation. */
void h_finish(struct harness *h);
void h_free(struct harness *h);
/* The end of a test: h_finish(), then (want not NULL) the payload lengths
 * delivered, as h_payloads() writes them, must be want; then h_free(). */
void h_done(struct harness *h, const char *want);
/* TCP payload lengths of the deliveries in order, as a string "200,100"
 * (NORMAL and GRO alike; only frames of TCP flows, and of UDP flows when
 * the context merges UDP: cfg.udp). */
const char *h_payloads(struct harness *h, char *buf, size_t cap);

#endif
