// bench_dsa.cc - Google Benchmark rows for the DSA tag codecs: decode and
// encode, ns per frame, for every format (switch -> host layout, OFL_DSA_RX:
// what a driver decodes on receive; encode of the same layout is what a
// switch simulator writes).  Frames: a 1502-byte TCP/IPv4 frame from the
// generator, tagged by ofl_dsa_encode() before timing.  Each row reports
// the median ns per frame of its batches and, as the spread on a shared
// machine, the 10th and 90th percentiles (ns_p10, ns_p90).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "gen.h"
#include "harness.h"
#include <ofl/dsa.h>
}

#include "bench_rows.h"

namespace {

const unsigned kBatch = 256;  // frames per timed sample (clock reads < 0.2 ns per frame)
const uint32_t kHead = 64;    // headroom in each buffer
const uint32_t kSize = 1664;  // buffer size (frame + head/tailroom)

struct Frames {
	std::vector<uint8_t> mem;  // kBatch buffers of kSize
	std::vector<uint8_t> plain; // the untagged frame
	uint32_t off = 0, len = 0;  // tagged frame in each buffer
	uint32_t plain_len = 0;
	ofl_dsa_meta meta{};
};

bool make_plain(Frames &f)
{
	gen_tcp g;
	gen_tcp_init(&g, 4);
	g.payload_len = 1448;
	f.plain.resize(2048);
	f.plain_len = (uint32_t)gen_tcp_frame(&g, f.plain.data(), f.plain.size());
	return f.plain_len != 0;
}

// Tag the plain frame into buffer i; returns 0 or an OFL_E* code.
int tag_into(const ofl_dsa_ops *ops, Frames &f, unsigned i)
{
	uint8_t *b = f.mem.data() + (size_t)i * kSize;
	std::memset(b, 0, kSize);
	std::memcpy(b + kHead, f.plain.data(), f.plain_len);
	uint32_t off = kHead, len = f.plain_len;
	int rc = ofl_dsa_encode(ops, nullptr, OFL_DSA_RX, &f.meta, b, kSize, &off, &len);
	f.off = off;
	f.len = len;
	return rc;
}

bool setup(const ofl_dsa_ops *ops, Frames &f)
{
	if (!make_plain(f))
		return false;
	f.mem.assign((size_t)kBatch * kSize, 0);
	f.meta = ofl_dsa_meta{};
	if (ops->rx_ports) {
		f.meta.valid = OFL_DSA_M_PORT;
		f.meta.port = (uint8_t)(ops->rx_ports > 1 ? 1 : 0);
	}
	// Some formats need a switch id (nxp_netc: non-zero on RX).
	if (tag_into(ops, f, 0) != 0) {
		f.meta.valid |= OFL_DSA_M_SWITCH;
		f.meta.switch_id = 1;
	}
	for (unsigned i = 0; i < kBatch; i++)
		if (tag_into(ops, f, i) != 0)
			return false;
	ofl_dsa_meta m;
	ofl_dsa_view v;
	return ofl_dsa_decode(ops, nullptr, OFL_DSA_RX, f.mem.data() + f.off, f.len, &m, &v) == 0;
}

// The q-quantile (0 <= q <= 1) of the samples (reorders them).
double quantile(std::vector<uint64_t> &t, double q)
{
	if (t.empty())
		return 0;
	size_t k = (size_t)(q * (double)(t.size() - 1));
	std::nth_element(t.begin(), t.begin() + (long)k, t.end());
	return (double)t[k];
}

// The median per frame and, as its spread, the 10th and 90th percentiles.
void set_counters(benchmark::State &st, std::vector<uint64_t> &t)
{
	st.counters["ns_per_frame"] = quantile(t, 0.5) / kBatch;
	st.counters["ns_p10"] = quantile(t, 0.1) / kBatch;
	st.counters["ns_p90"] = quantile(t, 0.9) / kBatch;
}

// Times body(f), the work on one batch of kBatch frames (it returns what a
// driver reads, so that nothing is optimised away); prep(f) runs untimed
// before each batch.
template <typename Prep, typename Body> void time_batches(benchmark::State &st,
                                                          const ofl_dsa_ops *ops, Prep prep,
                                                          Body body)
{
	Frames f;
	if (!setup(ops, f)) {
		st.SkipWithError("setup");
		return;
	}
	std::vector<uint64_t> t;
	t.reserve(1 << 16);
	uint32_t acc = 0;
	for (auto _ : st) {
		prep(f);
		uint64_t t0 = bh_now_ns();
		acc += body(f);
		uint64_t t1 = bh_now_ns();
		benchmark::DoNotOptimize(acc);
		st.SetIterationTime((double)(t1 - t0) * 1e-9);
		t.push_back(t1 - t0);
	}
	st.SetItemsProcessed((int64_t)st.iterations() * kBatch);
	set_counters(st, t);
}

// Times decode_one(p, len) over the batch; it returns what a driver reads.
template <typename Decode> void time_decode(benchmark::State &st, const ofl_dsa_ops *ops,
                                            Decode decode_one)
{
	time_batches(st, ops, [](Frames &) {}, [&decode_one](Frames &f) {
		uint32_t acc = 0;
		for (unsigned i = 0; i < kBatch; i++)
			acc += decode_one(f.mem.data() + (size_t)i * kSize + f.off, f.len);
		return acc;
	});
}

// ofl_dsa_decode(): one call, meta and the full view.
void run_decode(benchmark::State &st, const ofl_dsa_ops *ops)
{
	time_decode(st, ops, [ops](const uint8_t *p, uint32_t len) {
		ofl_dsa_meta m;
		ofl_dsa_view v;
		int rc = ofl_dsa_decode(ops, nullptr, OFL_DSA_RX, p, len, &m, &v);
		return (uint32_t)rc + m.port + v.rest_off; // what a driver reads
	});
}

// A decoder prepared once for ops on RX (params NULL), or the row skipped.
bool prepare(benchmark::State &st, const ofl_dsa_ops *ops, ofl_dsa_decoder &d)
{
	if (ofl_dsa_decoder_init(&d, sizeof(d), ops, nullptr, OFL_DSA_RX) == 0)
		return true;
	st.SkipWithError("decoder_init");
	return false;
}

// ofl_dsa_decode_cut() with a prepared decoder: meta and the cut.
void run_decode_cut(benchmark::State &st, const ofl_dsa_ops *ops)
{
	ofl_dsa_decoder d;
	if (prepare(st, ops, d))
		time_decode(st, ops, [&d](const uint8_t *p, uint32_t len) {
			ofl_dsa_meta m;
			ofl_dsa_cut c;
			return (uint32_t)ofl_dsa_decode_cut(&d, p, len, &m, &c) + m.port + c.rest_off;
		});
}

// ofl_dsa_decode_brief() with a prepared decoder: port, switch, flags and
// the cut.
void run_decode_brief(benchmark::State &st, const ofl_dsa_ops *ops)
{
	ofl_dsa_decoder d;
	if (prepare(st, ops, d))
		time_decode(st, ops, [&d](const uint8_t *p, uint32_t len) {
			ofl_dsa_brief b;
			return (uint32_t)ofl_dsa_decode_brief(&d, p, len, &b) + b.port + b.cut.rest_off;
		});
}

// The burst entries: the batch in calls of kBurst frames (the frames'
// descriptors built once, as a driver's RX ring holds them); burst(d,
// frames) decodes kBurst frames and reads of each result the fields
// run_decode_brief reads.
const unsigned kBurst = 32;
static_assert(kBatch % kBurst == 0, "whole bursts per batch");

template <typename Burst>
void run_bursts(benchmark::State &st, const ofl_dsa_ops *ops, Burst burst)
{
	ofl_dsa_decoder d;
	std::vector<ofl_buf> descs(kBatch);
	if (!prepare(st, ops, d))
		return;
	time_batches(
	    st, ops,
	    [&descs](Frames &f) {
		    for (unsigned i = 0; i < kBatch; i++)
			    descs[i] = ofl_buf{ f.mem.data() + (size_t)i * kSize + f.off, f.len };
	    },
	    [&d, &descs, &burst](Frames &) {
		    uint32_t acc = 0;
		    for (unsigned i = 0; i < kBatch; i += kBurst)
			    acc += burst(&d, &descs[i]);
		    return acc;
	    });
}

// ofl_dsa_decode_brief_burst(): a struct ofl_dsa_brief per frame.
uint32_t brief_burst(const ofl_dsa_decoder *d, const ofl_buf *frames)
{
	ofl_dsa_brief b[kBurst];
	uint32_t acc = (uint32_t)ofl_dsa_decode_brief_burst(d, frames, kBurst, b);
	for (const ofl_dsa_brief &x : b)
		acc += x.port + x.cut.rest_off;
	return acc;
}

// ofl_dsa_decode_packed_burst(): one packed word per frame.
uint32_t packed_burst(const ofl_dsa_decoder *d, const ofl_buf *frames)
{
	ofl_dsa_packed pk[kBurst];
	uint32_t acc = (uint32_t)ofl_dsa_decode_packed_burst(d, frames, kBurst, pk);
	for (const ofl_dsa_packed &x : pk)
		acc += OFL_DSA_PK_PORT(x.word) + OFL_DSA_PK_REST_OFF(x.word);
	return acc;
}

void run_decode_burst(benchmark::State &st, const ofl_dsa_ops *ops)
{
	run_bursts(st, ops, brief_burst);
}

void run_decode_packed(benchmark::State &st, const ofl_dsa_ops *ops)
{
	run_bursts(st, ops, packed_burst);
}

void run_encode(benchmark::State &st, const ofl_dsa_ops *ops)
{
	time_batches(
	    st, ops,
	    [](Frames &f) {
		    // fresh untagged frames (untimed): restore the bytes encode moved
		    for (unsigned i = 0; i < kBatch; i++) {
			    uint8_t *b = f.mem.data() + (size_t)i * kSize;
			    std::memcpy(b + kHead, f.plain.data(), 64);
			    std::memset(b + kHead + f.plain_len, 0, kSize - kHead - f.plain_len);
		    }
	    },
	    [ops](Frames &f) {
		    uint32_t acc = 0;
		    for (unsigned i = 0; i < kBatch; i++) {
			    uint8_t *b = f.mem.data() + (size_t)i * kSize;
			    uint32_t off = kHead, len = f.plain_len;
			    int rc = ofl_dsa_encode(ops, nullptr, OFL_DSA_RX, &f.meta, b, kSize, &off,
			                            &len);
			    acc += (uint32_t)rc + off + len;
		    }
		    return acc;
	    });
}

// The rows of each format, in this order: dsa/<kind>/<format>.
const struct {
	const char *kind;
	void (*run)(benchmark::State &, const ofl_dsa_ops *);
} kRows[] = {
	{ "decode", run_decode },           { "decode_cut", run_decode_cut },
	{ "decode_brief", run_decode_brief }, { "decode_burst", run_decode_burst },
	{ "decode_packed", run_decode_packed }, { "encode", run_encode },
};

} // namespace

void register_dsa_rows(void)
{
	for (size_t i = 0; i < ofl_dsa_count(); i++) {
		const ofl_dsa_ops *ops = ofl_dsa_at(i);
		if (!ops)
			continue;
		Frames probe;
		if (!setup(ops, probe))
			continue; // a format that cannot tag this frame on RX (noted by its absence)
		for (const auto &r : kRows) {
			void (*run)(benchmark::State &, const ofl_dsa_ops *) = r.run;
			benchmark::RegisterBenchmark(
			    ("dsa/" + std::string(r.kind) + "/" + ops->name).c_str(),
			    [run, ops](benchmark::State &st) { run(st, ops); })
			    ->UseManualTime();
		}
	}
}
