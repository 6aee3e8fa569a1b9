// bench_gro.cc - Google Benchmark rows for GRO and the checksum routine: a
// thin wrapper around the C harness (harness.h), which drives the C API.
//
// GRO rows time only the receive/poll-end calls of one chunk of BH_CHUNK
// packets (manual timing); the ring refill between chunks is outside.
// Items are input packets, so items_per_second is packets per second.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "harness.h"
#include <ofl/csum.h>
#include <ofl/gro.h>
#ifdef OFL_BENCH_HAVE_DSA
#include <ofl/dsa.h>
#endif
}

#include "bench_rows.h"

namespace {

struct RingKey {
	int l3;
	unsigned flows, nbufs, min_slots;
	int psh;
	const void *dsa;
	int udp;
	int vxlan;
	unsigned stride;
	int huge;
	bool operator==(const RingKey &o) const
	{
		return l3 == o.l3 && flows == o.flows && nbufs == o.nbufs && psh == o.psh &&
		       min_slots == o.min_slots && dsa == o.dsa && udp == o.udp && vxlan == o.vxlan &&
		       stride == o.stride && huge == o.huge;
	}
};

// One cached ring per thread: rows with the same traffic run back to back.
struct RingCache {
	RingKey key{};
	bool have = false;
	bh_ring ring{};
	~RingCache()
	{
		if (have)
			bh_ring_free(&ring);
	}
	bh_ring *get(const RingKey &k)
	{
		if (have && key == k)
			return &ring;
		if (have)
			bh_ring_free(&ring);
		have = false;
		bh_traffic t{};
		t.l3 = k.l3;
		t.nflows = k.flows;
		t.nbufs = k.nbufs;
		t.psh = k.psh;
		t.min_slots = k.min_slots;
		t.dsa = k.dsa;
		t.udp = k.udp;
		t.vxlan = k.vxlan;
		t.stride = k.stride;
		t.huge = k.huge;
		if (bh_ring_init(&ring, &t, nullptr) != 0)
			return nullptr;
		key = k;
		have = true;
		return &ring;
	}
};

thread_local RingCache ring_cache;

// Per-chunk times.  The machine is a shared 2-core VM: a chunk that was
// preempted takes several times longer, so rows report the median chunk
// (ns_per_pkt) beside Google Benchmark's mean.
struct Samples {
	std::vector<uint64_t> v;
	Samples() { v.reserve(1 << 16); }
	void add(uint64_t ns) { v.push_back(ns); }
	double median()
	{
		if (v.empty())
			return 0;
		std::nth_element(v.begin(), v.begin() + (long)(v.size() / 2), v.end());
		return (double)v[v.size() / 2];
	}
};

struct GroRow {
	int l3;
	unsigned flows, poll, nbufs;
	uint64_t timeout_ns;
	bool sw_csum;
	int psh;
	const void *dsa = nullptr; // tagged ring (struct ofl_dsa_ops)
	int dsa_mode = 0;          // BH_DSA_THROUGH or BH_DSA_STRIP
	unsigned min_slots = 0;    // ring size (0: BH_RING_MIN)
	int udp = 0;               // UDP datagrams, UDP GRO on
	int vxlan = 0;             // TCP in VXLAN, port 4789 configured
	unsigned stride = 0;       // slot stride (0: BH_STRIDE; BH_STRIDE_PAGE)
	int huge = 0;              // ring memory in transparent huge pages
};

void run_gro(benchmark::State &st, GroRow row)
{
	RingKey k{row.l3, row.flows, row.nbufs, row.min_slots, row.psh, row.dsa, row.udp, row.vxlan, row.stride, row.huge};
	bh_ring *r = ring_cache.get(k);
	if (!r) {
		st.SkipWithError("ring");
		return;
	}
	bh_gro_opts o{};
	o.poll = row.poll;
	o.flush_timeout_ns = row.timeout_ns;
	// 65536 flows: ~6 KB per entry at max_segs 128 would be 400 MB; 8 is plenty
	// (an entry is flushed by the timeout long before 8 segments arrive).
	o.max_segs = row.flows >= 65536 ? 8 : 0;
	o.csum_status = row.sw_csum ? OFL_CSUM_NONE : OFL_CSUM_UNNECESSARY;
	o.dsa_mode = row.dsa_mode;
	bh_gro_run g;
	if (bh_gro_start(&g, r, &o) != 0) {
		st.SkipWithError("create");
		return;
	}
	Samples chunks;
	for (auto _ : st) {
		uint64_t t0 = bh_now_ns();
		bh_gro_chunk(&g);
		uint64_t t1 = bh_now_ns();
		st.SetIterationTime((double)(t1 - t0) * 1e-9);
		chunks.add(t1 - t0);
		bh_gro_recycle(&g);
	}
	ofl_gro_stats s;
	uint64_t rx = g.rx;
	uint64_t outp = g.sink.pkts;
	if (bh_gro_stop(&g, &s) != 0) {
		st.SkipWithError("packets lost or duplicated");
		return;
	}
	st.SetItemsProcessed((int64_t)rx);
	// Counters are per thread (averaged over threads in the threads rows).
	const auto avg = benchmark::Counter::kAvgThreads;
	st.counters["ns_per_pkt"] = benchmark::Counter(chunks.median() / BH_CHUNK, avg);
	st.counters["segs_per_out"] = benchmark::Counter(outp ? (double)rx / (double)outp : 0, avg);
	st.counters["merged_pct"] =
	    benchmark::Counter(rx ? 100.0 * (double)s.merged / (double)rx : 0, avg);
	st.counters["normal_pct"] =
	    benchmark::Counter(rx ? 100.0 * (double)s.normal / (double)rx : 0, avg);
}

void run_csum(benchmark::State &st, size_t len)
{
	std::vector<uint8_t> buf(len + 64);
	for (size_t i = 0; i < buf.size(); i++)
		buf[i] = (uint8_t)(i * 131u + 7u);
	const uint8_t *p = buf.data();
	uint32_t s = 0;
	const int reps = 64; // calls per timed sample
	Samples t;
	for (auto _ : st) {
		uint64_t t0 = bh_now_ns();
		for (int i = 0; i < reps; i++) {
			benchmark::DoNotOptimize(p);
			s = ofl_csum_partial(p, len, s);
			benchmark::DoNotOptimize(s);
		}
		uint64_t t1 = bh_now_ns();
		st.SetIterationTime((double)(t1 - t0) * 1e-9);
		t.add(t1 - t0);
	}
	st.SetBytesProcessed((int64_t)st.iterations() * reps * (int64_t)len);
	double ns = t.median() / reps;
	st.counters["ns_per_call"] = ns;
	st.counters["GBps"] = ns > 0 ? (double)len / ns : 0;
}

std::string gro_name(const char *what, const GroRow &r)
{
	char b[160];
	std::snprintf(b, sizeof b, "gro/%s/%s%d/flows:%u/poll:%u/timeout_us:%u/bufs:%u/csum:%s", what,
	              r.udp ? "udp" : r.vxlan ? "vxlan" : "tcp", r.l3, r.flows, r.poll, (unsigned)(r.timeout_ns / 1000), r.nbufs,
	              r.sw_csum ? "sw" : "hw");
	return b;
}

benchmark::internal::Benchmark *add_gro(const char *what, GroRow r)
{
	return benchmark::RegisterBenchmark(gro_name(what, r).c_str(),
	                                    [r](benchmark::State &st) { run_gro(st, r); })
	    ->UseManualTime();
}

} // namespace

void register_gro_rows(void)
{
	const unsigned flows[] = {1, 8, 64, 1024, 65536};
	const uint64_t tmo = 200000; // 200 us, a common gro_flush_timeout
	// Bulk matrix: single buffer, checksums verified by "hardware".
	for (int l3 : {4, 6})
		for (unsigned f : flows)
			for (unsigned poll : {32u, 64u})
				for (uint64_t t : {(uint64_t)0, tmo})
					add_gro("bulk", GroRow{l3, f, poll, 1, t, false, 0});
	// Buffer layouts: header split (2), header split + 3 page fragments (4).
	for (int l3 : {4, 6})
		for (unsigned f : {1u, 64u, 1024u})
			for (unsigned nb : {2u, 4u})
				add_gro("bufs", GroRow{l3, f, 64, nb, 0, false, 0});
	// Checksums verified in software.
	for (int l3 : {4, 6})
		for (unsigned f : {1u, 64u, 1024u})
			for (unsigned nb : {1u, 4u})
				add_gro("swcsum", GroRow{l3, f, 64, nb, 0, true, 0});
	// Ring size: 512 slots keep every header in L1/L2 (the engine's own cost),
	// against the 4096-slot ring of the other rows.
	for (unsigned f : {1u, 64u}) {
		GroRow r{4, f, 64, 1, 0, false, 0};
		r.min_slots = BH_CHUNK;
		add_gro("hotring", r);
	}
	// A 4 KiB frame per slot (AF_XDP's default frame size, page-per-packet
	// drivers): every header at the same page offset, in one L1 set, and
	// a page (a TLB entry) per frame: 4096 of them for the ring.  page4k
	// on 4 KiB pages, page4k_thp on transparent huge pages (a hugepage-
	// backed UMEM); compare with the bulk rows (1536-byte slots).
	for (int huge : {0, 1})
		for (int l3 : {4, 6})
			for (unsigned f : {1u, 8u, 64u}) {
				GroRow r{l3, f, 64, 1, 0, false, 0};
				r.stride = BH_STRIDE_PAGE;
				r.huge = huge;
				add_gro(huge ? "page4k_thp" : "page4k", r);
			}
	// Traffic that can never merge.
	for (int l3 : {4, 6}) {
		add_gro("newflow", GroRow{l3, 65536, 64, 1, 0, false, 0});
		add_gro("psh", GroRow{l3, 64, 64, 1, 0, false, 1});
	}
	// UDP GRO (ofl_gro_config.udp): 1448-byte datagrams, bulk and software checksums.
	for (int l3 : {4, 6})
		for (unsigned f : {1u, 64u})
			for (bool sw : {false, true}) {
				GroRow r{l3, f, 64, 1, 0, sw, 0};
				r.udp = 1;
				add_gro("bulk", r);
			}
	// TCP in VXLAN (issue 14): IPv4 in IPv4, outer UDP checksum 0, bulk.
	for (unsigned f : {1u, 64u}) {
		GroRow r{4, f, 64, 1, 0, false, 0};
		r.vxlan = 1;
		add_gro("bulk", r);
	}
	// One context per thread (each thread its own ring and context).
	for (int th : {1, 2})
		add_gro("threads", GroRow{4, 64, 64, 1, 0, false, 0})->Threads(th);
#ifdef OFL_BENCH_HAVE_DSA
	// GRO through a DSA tag vs decode + strip in place, then GRO (TCP/IPv4).
	for (const char *fmt : {"edsa", "brcm-prepend", "ksz9477", "8021q"}) {
		const ofl_dsa_ops *ops = ofl_dsa_find(fmt);
		if (!ops)
			continue;
		for (unsigned f : {1u, 64u}) {
			for (int mode : {BH_DSA_THROUGH, BH_DSA_STRIP}) {
				GroRow r{4, f, 64, 1, 0, false, 0, ops, mode};
				char b[160];
				std::snprintf(b, sizeof b, "dsa/gro/%s/flows:%u/%s", fmt, f,
				              mode == BH_DSA_THROUGH ? "through_tag" : "strip_then_gro");
				benchmark::RegisterBenchmark(b, [r](benchmark::State &st) { run_gro(st, r); })
				    ->UseManualTime();
			}
		}
	}
#endif
	// The checksum routine alone.
	for (size_t len : {(size_t)64, (size_t)1448, (size_t)9000}) {
		char b[64];
		std::snprintf(b, sizeof b, "csum/partial/bytes:%zu", len);
		benchmark::RegisterBenchmark(b, [len](benchmark::State &st) { run_csum(st, len); })
		    ->UseManualTime();
	}
}
