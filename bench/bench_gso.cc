// bench_gso.cc - Google Benchmark rows for GSO: ns per segment and per
// super-packet, TCP/IPv4, TCP/IPv6 and UDP L4 (UDP_SEGMENT) at MSS 1448,
// with partial (NIC finishes the L4 checksum) and full software checksums.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <vector>

extern "C" {
#include "gso_harness.h"
#include "harness.h"
}

#include "bench_rows.h"

namespace {

struct GsoRow {
	int l3, udp;
	uint32_t payload;
	bool full;
};

void run_gso(benchmark::State &st, GsoRow row)
{
	bh_gso *g = bh_gso_new(row.l3, row.udp, row.payload, 1448, row.full);
	if (!g) {
		st.SkipWithError("gso init");
		return;
	}
	const unsigned per = 16; // super-packets per timed sample
	std::vector<uint64_t> t;
	t.reserve(1 << 16);
	uint64_t segs = 0, supers = 0;
	bool bad = false;
	for (auto _ : st) {
		uint64_t t0 = bh_now_ns(), n = 0;
		for (unsigned i = 0; i < per; i++) {
			unsigned s = bh_gso_one(g);
			bad |= s == 0;
			n += s;
		}
		uint64_t t1 = bh_now_ns();
		st.SetIterationTime((double)(t1 - t0) * 1e-9);
		t.push_back(t1 - t0);
		segs += n;
		supers += per;
	}
	bh_gso_free(g);
	if (bad) {
		st.SkipWithError("a super-packet was refused");
		return;
	}
	std::nth_element(t.begin(), t.begin() + (long)(t.size() / 2), t.end());
	double med = t.empty() ? 0 : (double)t[t.size() / 2];
	double seg_per_super = supers ? (double)segs / (double)supers : 0;
	st.SetItemsProcessed((int64_t)segs);
	st.counters["segs"] = seg_per_super;
	st.counters["ns_per_super"] = med / per;
	st.counters["ns_per_seg"] = seg_per_super > 0 ? med / per / seg_per_super : 0;
}

} // namespace

void register_gso_rows(void)
{
	for (int udp : {0, 1})
		for (int l3 : {4, 6})
			for (uint32_t bytes : {64000u, 9000u})
				for (bool full : {false, true}) {
					char b[128];
					std::snprintf(b, sizeof b, "gso/%s%d/bytes:%u/mss:1448/csum:%s",
					              udp ? "udp" : "tcp", l3, bytes, full ? "full" : "partial");
					GsoRow r{l3, udp, bytes, full};
					benchmark::RegisterBenchmark(b, [r](benchmark::State &st) { run_gso(st, r); })
					    ->UseManualTime();
				}
}
