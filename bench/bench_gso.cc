// bench_gso.cc - Google Benchmark rows for GSO: ns per segment and per
// super-packet, TCP/IPv4, TCP/IPv6 and UDP L4 (UDP_SEGMENT) at MSS 1448,
// with partial (NIC finishes the L4 checksum) and full software checksums;
// one ofl_gso_next() per segment, and rows ending in /burst:N with
// ofl_gso_next_burst() of N segments per call.
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
	unsigned burst; // 0: ofl_gso_next() per segment; else ofl_gso_next_burst() of this many
};

void run_gso(benchmark::State &st, GsoRow row)
{
	bh_gso *g = bh_gso_new(row.l3, row.udp, row.payload, 1448, row.full);
	if (!g || bh_gso_set_burst(g, row.burst) != 0) {
		bh_gso_free(g);
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
				for (bool full : {false, true})
					// one ofl_gso_next() per segment (the row name without a
					// suffix), then ofl_gso_next_burst() of 32 and (TCP/IPv4
					// 64000) 64 segments, as a driver posts them
					for (unsigned burst : {0u, 32u, 64u}) {
						if (burst == 64 && (udp || l3 != 4 || bytes != 64000))
							continue;
						char b[128];
						int m = std::snprintf(b, sizeof b, "gso/%s%d/bytes:%u/mss:1448/csum:%s",
						                      udp ? "udp" : "tcp", l3, bytes,
						                      full ? "full" : "partial");
						if (burst && m > 0 && (size_t)m < sizeof b)
							std::snprintf(b + m, sizeof b - (size_t)m, "/burst:%u", burst);
						GsoRow r{l3, udp, bytes, full, burst};
						benchmark::RegisterBenchmark(b, [r](benchmark::State &st) { run_gso(st, r); })
						    ->UseManualTime();
					}
}
