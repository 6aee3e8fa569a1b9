/*
 * xdp_frags.bpf.c - the XDP program of examples/af_xdp_gro.c: every frame
 * that arrives on a queue with an AF_XDP socket goes to that socket, the
 * rest to the stack.  Built with clang -target bpf; loaded by the example
 * with libbpf.
 *
 * SEC("xdp.frags") marks it as able to see multi-buffer frames (libbpf
 * loads it with BPF_F_XDP_HAS_FRAGS).  Without that mark veth refuses the
 * program once the MTU is larger than a page can hold, and a frame longer
 * than one buffer never reaches it.  It reads nothing of the frame, so
 * whether the bytes sit in one buffer or several does not matter here: the
 * socket bound with XDP_USE_SG gets one descriptor per buffer.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, 64); /* indexed by RX queue */
	__type(key, __u32);
	__type(value, __u32);
} xsks SEC(".maps");

SEC("xdp.frags")
int xdp_to_xsk(struct xdp_md *ctx)
{
	/* the low bits of flags: the action when the queue has no socket */
	return bpf_redirect_map(&xsks, ctx->rx_queue_index, XDP_PASS);
}

/* The kernel wants a license string; the helpers used are not GPL-only. */
char LICENSE[] SEC("license") = "Dual BSD/GPL";
