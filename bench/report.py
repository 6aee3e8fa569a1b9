#!/usr/bin/env python3
"""report.py - turn bench/run's raw results into bench/results/latest.md and
the gnuplot plot of GRO ns per packet against the number of flows.

Inputs (all optional; missing ones leave their section out):
  RAW/machine.txt            key=value lines written by bench/run
  RAW/gb.json                Google Benchmark JSON (aggregates; median used)
  RAW/dpdk.json              ofl_dpdk_cmp, one JSON object per line
  RAW/hyperfine_*.json       hyperfine --export-json, with *.stats.json beside
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys


def load_machine(raw):
    m = {}
    try:
        with open(os.path.join(raw, "machine.txt")) as f:
            for line in f:
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    m[k] = v
    except OSError:
        pass
    return m


# The figure each kind of Google Benchmark row is read for.
MAIN_COUNTERS = ("ns_per_pkt", "ns_per_seg", "ns_per_frame", "ns_per_call")

# name -> that row's repetitions (Google Benchmark "iteration" rows), filled
# by load_gb(): the spread of its figure.
REPS = {}


def load_gb(raw):
    """name (without /manual_time, /threads:N kept) -> row dict (median
    aggregate); each repetition's row kept in REPS for the spread."""
    rows = {}
    try:
        with open(os.path.join(raw, "gb.json")) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return rows
    for b in data.get("benchmarks", []):
        if b.get("error_occurred"):
            continue
        name = b.get("run_name", b["name"])
        name = name.replace("/manual_time", "")
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                rows[name] = b
        else:
            REPS.setdefault(name, []).append(b)
            rows.setdefault(name, b)  # (a run without repetitions)
    return rows


def spread(name, key):
    """(min, max) of counter key over the repetitions of row name, or None."""
    v = [r[key] for r in REPS.get(name, []) if isinstance(r.get(key), (int, float))]
    return (min(v), max(v)) if len(v) > 1 else None


def with_spread(value, name, key, unit="", nd=1):
    """'12.4 ns (11.9-13.0)': a median and the min-max of its repetitions."""
    s = spread(name, key)
    txt = f"{value:.{nd}f}{unit}"
    return txt + (f" ({s[0]:.{nd}f}–{s[1]:.{nd}f})" if s else "")


def ratio_spread(r):
    """' (2.80–3.21x)': the range of a side-by-side row's 'faster by' over
    its repetitions (ofl_dpdk_cmp's ratio_min/ratio_max)."""
    lo, hi = r.get("ratio_max"), r.get("ratio_min")
    return f" ({1 / lo:.2f}–{1 / hi:.2f}x)" if lo and hi else ""


def load_dpdk(raw):
    """ofl_dpdk_cmp's rows: dpdk.json, then dpdk4k.json (the burst rows again
    in 4 KB pages when the first ran in 2 MB pages); each row's "mem" says
    which (rows of runners older than it: 4 KB)."""
    rows = []
    for name in ("dpdk.json", "dpdk4k.json"):
        try:
            with open(os.path.join(raw, name)) as f:
                for line in f:
                    line = line.strip()
                    if line:
                        r = json.loads(line)
                        r.setdefault("mem", "4K")
                        rows.append(r)
        except (OSError, ValueError):
            pass
    return rows


PAGES = {"2M": "2 MB", "4K": "4 KB"}


def fmt(v, nd=1):
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.{nd}f}"
    return str(v)


def gro_ns(gb, what, l3, flows, poll, tmo, bufs, csum, extra="", proto="tcp"):
    name = f"gro/{what}/{proto}{l3}/flows:{flows}/poll:{poll}/timeout_us:{tmo}/bufs:{bufs}/csum:{csum}{extra}"
    b = gb.get(name)
    return (b.get("ns_per_pkt"), b) if b else (None, None)


def ratio_cells(q, ok, r=None):
    """'ours / theirs' and 'libofl faster by' cells of a side-by-side row
    (r: its JSON object, for the range over the repetitions)."""
    return f"{q:.3f} | {1 / q if q else 0:.2f}x{ratio_spread(r or {})}{'' if ok else ' (CHECK FAILED)'} |"


def table(w, title, head, rows):
    """A section: the title, a Markdown table whose header is head (a list of
    (name, alignment) pairs: the alignment cell, e.g. "---:"), the rows (each
    a whole line), a blank line."""
    w(title)
    w("| " + " | ".join(n for n, _ in head) + " |")
    w("|" + "|".join(a for _, a in head) + "|")
    for r in rows:
        w(r)
    w("")


def status(ok):
    if isinstance(ok, tuple):  # (library, machine): the threads row
        if ok[0] and not ok[1]:
            return "met by the library (no slowdown per thread); wall clock bounded by the shared cores"
        ok = ok[0]
    return "met" if ok else "**missed**"


def instr_targets(path, add):
    """The instruction-count targets of issues 12, 13 and 16, read from
    bench/instr.sh's output (rows "<label>  <N> instructions/<unit>")."""
    if not os.path.exists(path):
        return
    rows = {}
    with open(path) as f:
        for line in f:
            mm = re.match(r"^(.*\S)\s+(\d+(?:\.\d+)?)\s+instructions/(packet|segment|frame)\s*$", line)
            if mm:
                rows[mm.group(1)] = float(mm.group(2))
            mm = re.match(r"^four buffers / one buffer.*?(\d+\.\d+)x\s*$", line)
            if mm:
                rows["4bufs"] = float(mm.group(1))
    src = "bench/instr.sh"
    for label, need in (("TCP/IPv4, 1 flow", 60), ("TCP/IPv6, 1 flow", 60),
                        ("TCP/IPv4, 64 flows (one packet per flow per poll)", 150),
                        ("TCP/IPv4, 1024 flows (one packet per flow per poll)", 150),
                        ("TCP/IPv4, every packet a new flow (8192 flows)", 150),
                        ("TCP/IPv4, 1 flow, PSH on every packet", 120),
                        ("TCP/IPv4, 64 flows, PSH on every packet", 120),
                        ("UDP/IPv4, 1 flow", 60), ("UDP/IPv6, 1 flow", 60),
                        ("UDP/IPv4, 64 flows (one packet per flow per poll)", 150),
                        ("UDP/IPv6, 64 flows (one packet per flow per poll)", 150),
                        ("TCP/IPv4 64000 B, burst", 50)):
        v = rows.get(label)
        if v is not None:
            unit = "segment" if "B, burst" in label else "packet"
            add(f"{label}: ≤ {need} instructions/{unit}", f"{v:g}", v <= need, src)
    if "4bufs" in rows:
        add("TCP/IPv4, 1 flow, 4 buffers: ≤ 1.25x one buffer (instructions)", f"{rows['4bufs']:.2f}x",
            rows["4bufs"] <= 1.25, src)
    # DSA: per format the cheapest frame-by-frame entry measured (brief, burst...)
    best = {}
    for label, v in rows.items():
        mm = re.match(r"^decode-(brief|burst) (\S+)$", label)
        pk = re.match(r"^decode (\S+)\s+\(packed burst of 32\)$", label)
        if mm or pk:
            fmt_, entry = (mm.group(2), mm.group(1)) if mm else (pk.group(1), "packed burst")
            if fmt_ not in best or v < best[fmt_][0]:
                best[fmt_] = (v, entry)
    if best:
        worst = max(best.items(), key=lambda kv: kv[1][0])
        add("DSA decode: ≤ 30 instructions/frame, worst format", f"{worst[1][0]:g} ({worst[0]}, {worst[1][1]})",
            worst[1][0] <= 30, src)
        named = ("brcm", "dsa", "edsa", "ksz9477", "mtk", "qca", "rtl8_4", "rtl8_4t",
                 "ksz9893", "ksz8795", "lan937x", "trailer", "hellcreek", "xrs700x")
        over = [f"{n} {best[n][0]:g}" for n in named if n in best and best[n][0] > 15]
        add("DSA decode: ≤ 15 instructions/frame for brcm, dsa, edsa, ksz*, mtk, qca, rtl8_4(t) and the tail taggers",
            "all met" if not over else "over: " + ", ".join(over), not over, src)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--plot", required=True)
    a = ap.parse_args()
    m = load_machine(a.raw)
    gb = load_gb(a.raw)
    dp = load_dpdk(a.raw)
    out = []
    w = out.append
    targets = []  # (target, measured, status, source)

    w("# libofl benchmark results\n")
    w(f"Run {m.get('date', '?')} at revision `{m.get('rev', '?')}` by `bench/run`"
      f"{' --quick' if m.get('quick') == '1' else ''}.\n")
    # (lscpu names neither the hypervisor nor the L2 cache on some guests)
    hv = m.get('hypervisor') or ''
    w(f"Machine: **{m.get('model', '?')}**, {m.get('cpus', '?')} vCPUs ({hv + ' ' if hv else ''}VM, "
      f"L2 {m.get('l2') or 'not named by lscpu'}), kernel {m.get('kernel', '?')}, load average at start {m.get('load', '?')}. "
      "This is a 2-core *shared, noisy* VM: other engineers compile and fuzz on it at the same time, "
      "so absolute figures move by ±20 % between runs; ratios taken within one run "
      "(DPDK side by side, buffer layouts) are steadier.\n")
    w(f"Compiler: {m.get('cc', '?')}, Release `-O2`. Google Benchmark {m.get('benchmark', '?')}, "
      f"DPDK {m.get('dpdk', 'none')}, hyperfine {m.get('hyperfine', 'none')}.\n")
    w("Method: traffic comes from our generator (`tests/support/gen.c`, `gen_bulk()`), built before "
      "timing into a receive ring of 1536-byte buffers (4096 slots, or one per flow above that; "
      "65536 for the DPDK context rows). After each chunk of 512 packets, the buffers the engine "
      "has handed back are refilled untimed with the *next* segments of the same flows (sequence numbers and IPv4 IDs "
      "advanced, checksums updated), the way a NIC refills recycled RX buffers: every poll works on fresh packets. "
      "The deliver callback only counts the cookies. `max_flows` is at least the number of flows; at 65536 flows "
      "`max_segs` is 8 (memory: ~1 KB per entry instead of ~6 KB). The simulated clock advances 100 ns per packet "
      "(10 Mpps); the non-zero flush timeout is 200 µs. Each figure is the **median over 512-packet chunks** "
      "(a preempted chunk is an outlier, not a trend), then the median of the repetitions.\n")

    # ---- GRO bulk matrix
    if gb:
        w("## GRO: bulk TCP, one buffer per packet, checksums verified by the NIC\n")
        w("ns per input packet (Mpps in brackets; `segs/out` = input segments per delivered packet).\n")
        w("| L3 | flows | poll 32, timeout 0 | poll 64, timeout 0 | poll 32, 200 µs | poll 64, 200 µs | segs/out (64, 0 / 64, 200 µs) |")
        w("|---|---:|---:|---:|---:|---:|---:|")
        for l3 in (4, 6):
            for f in (1, 8, 64, 1024, 65536):
                cells = []
                for poll, tmo in ((32, 0), (64, 0), (32, 200), (64, 200)):
                    ns, _ = gro_ns(gb, "bulk", l3, f, poll, tmo, 1, "hw")
                    cells.append(f"{ns:.1f} ({1e3 / ns:.1f})" if ns else "–")
                _, b0 = gro_ns(gb, "bulk", l3, f, 64, 0, 1, "hw")
                _, b1 = gro_ns(gb, "bulk", l3, f, 64, 200, 1, "hw")
                so = f"{fmt(b0 and b0.get('segs_per_out'))} / {fmt(b1 and b1.get('segs_per_out'))}"
                w(f"| TCP/IPv{l3} | {f} | " + " | ".join(cells) + f" | {so} |")
        w("")

        w("## GRO: buffer layouts and software checksums (poll 64, timeout 0)\n")
        w("| L3 | flows | 1 buffer | 2 (header split) | 4 (split + 3 frags) | 4 / 1 | sw csum, 1 buffer | sw csum, 4 buffers |")
        w("|---|---:|---:|---:|---:|---:|---:|---:|")
        worst4 = None
        for l3 in (4, 6):
            for f in (1, 64, 1024):
                n1, _ = gro_ns(gb, "bulk", l3, f, 64, 0, 1, "hw")
                n2, _ = gro_ns(gb, "bufs", l3, f, 64, 0, 2, "hw")
                n4, _ = gro_ns(gb, "bufs", l3, f, 64, 0, 4, "hw")
                s1, _ = gro_ns(gb, "swcsum", l3, f, 64, 0, 1, "sw")
                s4, _ = gro_ns(gb, "swcsum", l3, f, 64, 0, 4, "sw")
                r = n4 / n1 if n1 and n4 else None
                if r and (worst4 is None or r > worst4[0]):
                    worst4 = (r, l3, f)
                w(f"| TCP/IPv{l3} | {f} | {fmt(n1)} | {fmt(n2)} | {fmt(n4)} | {fmt(r, 2)} | {fmt(s1)} | {fmt(s4)} |")
        w("")

        h1, _ = gro_ns(gb, "hotring", 4, 1, 64, 0, 1, "hw")
        h64, _ = gro_ns(gb, "hotring", 4, 64, 64, 0, 1, "hw")
        if h1 or h64:
            b1, _ = gro_ns(gb, "bulk", 4, 1, 64, 0, 1, "hw")
            b64, _ = gro_ns(gb, "bulk", 4, 64, 64, 0, 1, "hw")
            w("## GRO: ring size (TCP/IPv4, poll 64, timeout 0)\n")
            w("A 512-slot ring keeps every header in L1/L2: the difference to the 4096-slot ring is "
              "the cost of fetching headers from L3.\n")
            w("| flows | 512 slots (hot) | 4096 slots |")
            w("|---:|---:|---:|")
            w(f"| 1 | {fmt(h1)} | {fmt(b1)} |")
            w(f"| 64 | {fmt(h64)} | {fmt(b64)} |")
            w("")

        pg = [(l3, f) for l3 in (4, 6) for f in (1, 8, 64) if gro_ns(gb, "page4k", l3, f, 64, 0, 1, "hw")[0]]
        if pg:
            w("## GRO: a 4 KiB frame per slot (poll 64, timeout 0)\n")
            w("AF_XDP's default frame size and page-per-packet drivers: every header at the same page offset "
              "(one L1 set) and a page per frame, 4096 pages for the ring, more than the TLB holds. "
              "On transparent huge pages (a hugepage-backed UMEM) the TLB cost goes; what is left over the "
              "1536-byte slots is the cache sets.\n")
            w("| L3 | flows | 1536-byte slots | 4 KiB slots, 4 KiB pages | 4 KiB slots, huge pages |")
            w("|---|---:|---:|---:|---:|")
            for l3, f in pg:
                b, _ = gro_ns(gb, "bulk", l3, f, 64, 0, 1, "hw")
                p4, _ = gro_ns(gb, "page4k", l3, f, 64, 0, 1, "hw")
                ph, _ = gro_ns(gb, "page4k_thp", l3, f, 64, 0, 1, "hw")
                w(f"| TCP/IPv{l3} | {f} | {fmt(b)} | {fmt(p4)} | {fmt(ph)} |")
            w("")

        w("## GRO: traffic that can never merge (poll 64, timeout 0)\n")
        w("| traffic | TCP/IPv4 ns/pkt | TCP/IPv6 ns/pkt |")
        w("|---|---:|---:|")
        nm = {}
        for what, f, label in (("newflow", 65536, "every packet a new flow"), ("psh", 64, "PSH on every packet (64 flows)")):
            v4, _ = gro_ns(gb, what, 4, f, 64, 0, 1, "hw")
            v6, _ = gro_ns(gb, what, 6, f, 64, 0, 1, "hw")
            nm[what] = (v4, v6)
            w(f"| {label} | {fmt(v4)} | {fmt(v6)} |")
        w("")

        udp_rows = []
        for l3 in (4, 6):
            for f in (1, 64):
                hw, bh = gro_ns(gb, "bulk", l3, f, 64, 0, 1, "hw", proto="udp")
                sw, _ = gro_ns(gb, "bulk", l3, f, 64, 0, 1, "sw", proto="udp")
                if hw or sw:
                    udp_rows.append(f"| UDP/IPv{l3} | {f} | {fmt(hw)} | {fmt(sw)} | {fmt(bh and bh.get('segs_per_out'))} |")
        if udp_rows:
            w("## GRO: bulk UDP (ofl_gro_config.udp), 1448-byte datagrams, poll 64, timeout 0\n")
            w("| L3 | flows | ns/pkt, hw csum | ns/pkt, sw csum | segs/out (hw) |")
            w("|---|---:|---:|---:|---:|")
            out.extend(udp_rows)
            w("")

        vx_rows = []
        for f in (1, 64):
            vx, bv = gro_ns(gb, "bulk", 4, f, 64, 0, 1, "hw", proto="vxlan")
            tcp, _ = gro_ns(gb, "bulk", 4, f, 64, 0, 1, "hw")
            if vx:
                ratio = f"{vx / tcp:.2f}x" if tcp else "—"
                vx_rows.append(f"| {f} | {fmt(vx)} | {fmt(tcp)} | {ratio} | {fmt(bv and bv.get('segs_per_out'))} |")
        if vx_rows:
            table(w, "## GRO: TCP/IPv4 through VXLAN (IPv4, UDP 4789, checksum 0), MSS 1398, poll 64, timeout 0\n",
                  [("flows", "---:"), ("ns/pkt VXLAN", "---:"), ("ns/pkt plain TCP", "---:"),
                   ("VXLAN / plain", "---:"), ("segs/out (VXLAN)", "---:")], vx_rows)

        t1 = gb.get("gro/threads/tcp4/flows:64/poll:64/timeout_us:0/bufs:1/csum:hw/threads:1")
        t2 = gb.get("gro/threads/tcp4/flows:64/poll:64/timeout_us:0/bufs:1/csum:hw/threads:2")
        scale_med = scale_wall = None
        if t1 and t2:
            scale_med = 2 * t1["ns_per_pkt"] / t2["ns_per_pkt"]
            if t1.get("items_per_second") and t2.get("items_per_second"):
                scale_wall = t2["items_per_second"] / t1["items_per_second"]
            w("## GRO: one context per thread (TCP/IPv4, 64 flows, poll 64)\n")
            w("| threads | ns/pkt per thread (median chunk) | packets/s, all threads (median chunks) | packets/s, Google Benchmark (wall) |")
            w("|---:|---:|---:|---:|")
            for n, t in ((1, t1), (2, t2)):
                w(f"| {n} | {t['ns_per_pkt']:.1f} | {n * 1e3 / t['ns_per_pkt']:.2f} M | {t.get('items_per_second', 0) / 1e6:.2f} M |")
            w(f"\nScaling: {scale_med:.2f}x from per-thread medians (what the library controls: no shared "
              f"state between contexts); {fmt(scale_wall, 2)}x in wall time, which on this VM is bounded by "
              "the other tenants of the two cores.\n")

        cs = {}
        for n in (64, 1448, 9000):
            b = gb.get(f"csum/partial/bytes:{n}")
            if b:
                cs[n] = b.get("GBps")
        if cs:
            table(w, "## Checksum routine alone (`ofl_csum_partial`, cached buffer)\n",
                  [("bytes", "---:"), ("GB/s", "---:"), ("ns per call", "---:")],
                  (f"| {n} | {fmt(v, 1)} | {fmt(n / v if v else None, 1)} |" for n, v in cs.items()))

    # ---- GSO / DSA rows (when present)
    gso = {k: v for k, v in gb.items() if k.startswith("gso/")}
    if gso:
        table(w, "## GSO\n",
              [("row", "---"), ("ns per segment", "---:"), ("ns per super-packet", "---:"), ("segments", "---:")],
              (f"| `{k}` | {fmt(b.get('ns_per_seg'))} | {fmt(b.get('ns_per_super'))} | {fmt(b.get('segs'), 0)} |"
               for k, b in sorted(gso.items())))
    dsa = {k: v for k, v in gb.items() if k.startswith("dsa/")}
    if dsa:
        w("## DSA tag codecs (switch → host layout), ns per frame\n")
        names = sorted({k.split("/")[2] for k in dsa if k.count("/") == 2})
        w(f"{len(names)} formats (a format missing here could not tag the test frame on RX).\n")
        w("decode: `ofl_dsa_decode()` (meta and view); prepared: `ofl_dsa_decode_cut()` with a decoder")
        w("prepared once (meta and cut); packed: `ofl_dsa_decode_packed_burst()`, bursts of 32 frames, one packed")
        w("word per frame.  Each figure is the median of the repetitions, in brackets their lowest and highest.\n")
        w("| format | decode | prepared | packed burst | encode |")
        w("|---|---:|---:|---:|---:|")

        def dcell(kind, n):
            row = dsa.get(f"dsa/{kind}/{n}", {})
            v = row.get("ns_per_frame")
            return with_spread(v, f"dsa/{kind}/{n}", "ns_per_frame", nd=2) if v is not None else "–"
        for n in names:
            w(f"| {n} | {dcell('decode', n)} | {dcell('decode_cut', n)} | {dcell('decode_packed', n)} "
              f"| {dcell('encode', n)} |")
        w("")
        gt = {k: v for k, v in dsa.items() if k.startswith("dsa/gro/")}
        if gt:
            table(w, "### GRO through the tag vs strip-then-GRO (TCP/IPv4 bulk, poll 64, timeout 0, hw csum)\n",
                  [("row", "---"), ("ns/pkt", "---:"), ("segs/out", "---:")],
                  (f"| `{k}` | {fmt(b.get('ns_per_pkt'))} | {fmt(b.get('segs_per_out'))} |"
                   for k, b in sorted(gt.items())))

    # ---- DPDK
    ratio = {}
    ratio_row = {}
    dgso = [r for r in dp if r.get("area") == "gso"]
    dp = [r for r in dp if r.get("area", "gro") == "gro"]
    if dp:
        w(f"## Side by side with DPDK {m.get('dpdk', '')} (same process, same buffers)\n")
        w("Equal work: DPDK 22.11 has no TCP/IPv6 GRO (it came in 23.07) and never validates "
          "checksums, so only TCP/IPv4 is compared and libofl is given `OFL_CSUM_UNNECESSARY`. DPDK is handed "
          "`packet_type` and `l2/l3/l4_len` as a PMD sets them; libofl parses the headers itself. "
          "`burst` = `rte_gro_reassemble_burst` per poll vs our receive + `ofl_gro_poll_end` with timeout 0; "
          "`ctx` = `rte_gro_reassemble` + `rte_gro_timeout_flush` (200 µs of TSC) per poll vs our context with "
          "a 200 µs timeout. Sides alternate per repetition; medians shown, and in brackets the lowest and "
          "highest ratio of the repetitions. Pages: the mbufs (both sides' buffers) in 2 MB pages (hugetlbfs, "
          "as DPDK runs in production) or in 4 KB pages (`--no-huge`); in 4 KB pages the first touch of each "
          "frame's header, on a page of its own, costs the faster side more (`bench/dpdk_cmp.c`).\n")
        w("| pages | mode | flows | poll | libofl ns/pkt | DPDK ns/pkt | ours / theirs | libofl faster by |")
        w("|---|---|---:|---:|---:|---:|---:|---:|")
        for r in dp:
            q = r["ofl_over_dpdk"]
            ratio[(r["mem"], r["mode"], r["flows"], r["poll"])] = q
            ratio_row[(r["mem"], r["mode"], r["flows"], r["poll"])] = r
            w(f"| {PAGES.get(r['mem'], r['mem'])} | {r['mode']} | {r['flows']} | {r['poll']} | "
              f"{r['ofl_ns_per_pkt']:.1f} | {r['dpdk_ns_per_pkt']:.1f} | " + ratio_cells(q, r.get("ok", True), r))
        w("")

    gso_ratio = {}
    gso_row = {}
    if dgso:
        w("### GSO, TCP/IPv4, MSS 1448, side by side with `rte_gso_segment`\n")
        w("`partial`: ours writes the IPv4 header checksum and the pseudo-header sum (the NIC finishes L4); "
          "`rte_gso_segment` writes no checksum at all. `full`: ours writes every checksum in software; DPDK is "
          "followed by a software pass (`rte_ipv4_cksum` + `rte_ipv4_udptcp_cksum_mbuf`) on every segment. "
          "Both sides give their header buffers back after each super-packet (DPDK: `rte_pktmbuf_free_bulk`).\n")
        w("| checksums | super-packet | segments | libofl ns/seg | DPDK ns/seg | ours / theirs | libofl faster by |")
        w("|---|---:|---:|---:|---:|---:|---:|")
        for r in dgso:
            q = r["ofl_over_dpdk"]
            gso_ratio[(r["mode"], r["payload"])] = q
            gso_row[(r["mode"], r["payload"])] = r
            w(f"| {r['mode']} | {r['payload']} B | {r['segs']:.0f} | {r['ofl_ns_per_seg']:.1f} | {r['dpdk_ns_per_seg']:.1f} | "
              + ratio_cells(q, r.get("ok", True), r))
        w("")

    # ---- hyperfine
    hf = sorted(glob.glob(os.path.join(a.raw, "hyperfine_*.json")))
    hf = [p for p in hf if not p.endswith(".stats.json")]
    if hf:
        w("## Whole process: `offload-replay` under hyperfine\n")
        w("Reads the capture, runs it through the engine and writes the output capture (file I/O included). "
          "GSO input: generated 64000-byte TCP/IPv4 super-packets, cut at MSS 1448 (µs per super-packet).\n")
        w("| command | input | options | frames | mean ms | ± ms | µs per frame |")
        w("|---|---|---|---:|---:|---:|---:|")
        for p in hf:
            try:
                with open(p) as f:
                    res = json.load(f)["results"][0]
            except (OSError, ValueError, KeyError, IndexError):
                continue
            frames = None
            sp = p[:-5] + ".stats.json"
            try:
                with open(sp) as f:
                    txt = f.read()
                mm = re.search(r'"frames_in":\s*(\d+)', txt)
                frames = int(mm.group(1)) if mm else None
            except OSError:
                pass
            cmd = res["command"].split()
            sub = cmd[1] if len(cmd) > 1 else "?"
            inp = os.path.basename(cmd[2]) if len(cmd) > 2 else "?"
            per = res["mean"] * 1e6 / frames if frames else None
            opts = " ".join(cmd[4:]) or "defaults"
            w(f"| {sub} | {inp} | `{opts}` | {fmt(frames)} | {res['mean'] * 1e3:.1f} | {res['stddev'] * 1e3:.1f} | {fmt(per, 2)} |")
        w("")

    # ---- targets
    if gb or dp:
        def add(target, value, ok, src):
            targets.append((target, value, ok, src))
        n1, _ = gro_ns(gb, "bulk", 4, 1, 64, 0, 1, "hw")
        n64, _ = gro_ns(gb, "bulk", 4, 64, 64, 0, 1, "hw")
        n1k, _ = gro_ns(gb, "bulk", 4, 1024, 64, 0, 1, "hw")
        if n1:
            add("GRO TCP/IPv4 bulk, 1 buffer, hw csum, 1 flow: ≤ 8 ns/pkt",
                with_spread(n1, "gro/bulk/tcp4/flows:1/poll:64/timeout_us:0/bufs:1/csum:hw", "ns_per_pkt", " ns"),
                n1 <= 8, "gro/bulk/tcp4/flows:1/poll:64/timeout 0")
        if n64:
            add("… 64 flows: ≤ 15 ns/pkt",
                with_spread(n64, "gro/bulk/tcp4/flows:64/poll:64/timeout_us:0/bufs:1/csum:hw", "ns_per_pkt", " ns"),
                n64 <= 15, "gro/bulk/tcp4/flows:64/poll:64/timeout 0")
        if n1k:
            add("… 1024 flows: ≤ 15 ns/pkt",
                with_spread(n1k, "gro/bulk/tcp4/flows:1024/poll:64/timeout_us:0/bufs:1/csum:hw", "ns_per_pkt", " ns"),
                n1k <= 15, "gro/bulk/tcp4/flows:1024/poll:64/timeout 0")
        # issue 12: >= 5x at 1 flow, >= 4x at 8, 64 and 1024 flows (each
        # kind of page the run has)
        for mem in ("2M", "4K"):
            for f, need in ((1, 5.0), (8, 4.0), (64, 4.0), (1024, 4.0)):
                for poll in (32, 64):
                    k = (mem, "burst", f, poll)
                    q = ratio.get(k)
                    if q:
                        add(f"… vs rte_gro_reassemble_burst, {f} flow(s), poll {poll}, {PAGES[mem]} pages: "
                            f"≥ {need}x faster", f"{1 / q:.2f}x{ratio_spread(ratio_row[k])}", 1 / q >= need,
                            "ofl_dpdk_cmp burst")
        c = gb.get("csum/partial/bytes:1448")
        if c:
            add("Checksum routine, cached 1448 B: ≥ 20 GB/s", f"{c['GBps']:.1f} GB/s", c["GBps"] >= 20, "csum/partial/bytes:1448")
        if gb:
            for what, label in (("newflow", "every packet a new flow"), ("psh", "PSH on every packet")):
                for i, l3 in enumerate((4, 6)):
                    v = nm.get(what, (None, None))[i]
                    if v:
                        add(f"Uncoalescable ({label}), TCP/IPv{l3}: ≤ 12 ns/pkt", f"{v:.1f} ns", v <= 12, f"gro/{what}/tcp{l3}")
            if worst4:
                add("Four-buffer packets: ≤ 1.25x single-buffer (worst row)", f"{worst4[0]:.2f}x (IPv{worst4[1]}, {worst4[2]} flows)",
                    worst4[0] <= 1.25, "gro/bufs vs gro/bulk, poll 64")
            if scale_med:
                add("Two contexts on two threads: ≥ 1.8x packets/s of one",
                    f"{scale_med:.2f}x (per-thread medians) / {fmt(scale_wall, 2)}x (wall clock)",
                    (scale_med >= 1.8, scale_wall is not None and scale_wall >= 1.8), "gro/threads")
        g = gb.get("gso/tcp4/bytes:64000/mss:1448/csum:partial")
        if g:
            add("GSO TCP/IPv4 64000 B, partial csum: ≤ 10 ns/segment",
                with_spread(g["ns_per_seg"], "gso/tcp4/bytes:64000/mss:1448/csum:partial", "ns_per_seg", " ns"),
                g["ns_per_seg"] <= 10, "gso/tcp4/bytes:64000/csum:partial")
        g = gb.get("gso/tcp4/bytes:64000/mss:1448/csum:partial/burst:64")
        if g:
            add("… the same, 64 segments per ofl_gso_next_burst() call",
                with_spread(g["ns_per_seg"], "gso/tcp4/bytes:64000/mss:1448/csum:partial/burst:64", "ns_per_seg", " ns"),
                g["ns_per_seg"] <= 10,
                "gso/tcp4/bytes:64000/csum:partial/burst:64")
        for mode in ("partial", "burst"):
            q = gso_ratio.get((mode, 64000))
            if q:
                add(f"GSO TCP/IPv4 64000 B, partial csum{', burst' if mode == 'burst' else ''}: "
                    "≥ 4x faster than rte_gso_segment (issue 16)", f"{1 / q:.2f}x{ratio_spread(gso_row[(mode, 64000)])}",
                    1 / q >= 4,
                    f"ofl_dpdk_cmp gso {mode} 64000")
        q = gso_ratio.get(("full", 64000))
        if q:
            add("GSO TCP/IPv4 64000 B, full sw csum: ≥ 2x faster than DPDK + sw csum pass",
                f"{1 / q:.2f}x{ratio_spread(gso_row[('full', 64000)])}",
                1 / q >= 2, "ofl_dpdk_cmp gso full 64000")
        for kind, label in (("decode", "DSA decode: ≤ 3 ns/frame (worst format)"),
                            ("decode_packed", "DSA decode, packed burst of 32: about 3 ns/frame (issue 16; worst format)")):
            dd = {k: v["ns_per_frame"] for k, v in gb.items() if k.startswith(f"dsa/{kind}/") and v.get("ns_per_frame")}
            if dd:
                wk = max(dd, key=dd.get)
                add(label, f"{with_spread(dd[wk], wk, 'ns_per_frame', ' ns', 2)} ({wk.split('/')[2]}; best "
                    f"{min(dd.values()):.2f})", dd[wk] <= 3, f"dsa/{kind}/*")
        instr_targets(os.path.join(a.raw, "instr.txt"), add)
        out_t = ["## Targets\n", "| target | measured | status | row |", "|---|---:|---|---|"]
        for t, v, ok, src in targets:
            out_t.append(f"| {t} | {v} | {status(ok)} | `{src}` |")
        out_t.append("")
        out_t.append("Where the time goes in the missed rows (perf profiles, hot functions and lines): "
                     "[bench/PROFILE.md](../PROFILE.md).\n")
        # targets go right after the method paragraph
        out[5:5] = out_t

    # ---- plot
    pts = {}
    for r in dp:
        if r["poll"] in (32,) and r["mem"] == dp[0]["mem"]:  # (dpdk.json's kind of page)
            pts.setdefault(("ofl", r["mode"]), []).append((r["flows"], r["ofl_ns_per_pkt"]))
            pts.setdefault(("dpdk", r["mode"]), []).append((r["flows"], r["dpdk_ns_per_pkt"]))
    for l3 in (4, 6):
        for f in (1, 8, 64, 1024, 65536):
            ns, _ = gro_ns(gb, "bulk", l3, f, 32, 0, 1, "hw")
            if ns:
                pts.setdefault((f"gb{l3}", "burst"), []).append((f, ns))
    if pts and shutil.which("gnuplot"):
        ddir = os.path.dirname(a.plot)
        os.makedirs(ddir, exist_ok=True)
        series = [
            (("ofl", "burst"), "libofl, timeout 0 (same run as DPDK)", "lc rgb '#1f77b4' pt 7"),
            (("dpdk", "burst"), "DPDK rte\\_gro\\_reassemble\\_burst", "lc rgb '#d62728' pt 5"),
            (("ofl", "ctx"), "libofl, 200 us timeout", "lc rgb '#1f77b4' dt 2 pt 6"),
            (("dpdk", "ctx"), "DPDK context + timeout\\_flush", "lc rgb '#d62728' dt 2 pt 4"),
            (("gb6", "burst"), "libofl TCP/IPv6, timeout 0", "lc rgb '#2ca02c' pt 9"),
        ]
        plots = []
        datfiles = []
        for key, title, style in series:
            if key not in pts:
                continue
            fn = os.path.join(a.raw, f"plot_{key[0]}_{key[1]}.dat")
            with open(fn, "w") as f:
                for x, y in sorted(pts[key]):
                    f.write(f"{x} {y}\n")
            datfiles.append(fn)
            plots.append(f"'{fn}' using 1:2 with linespoints {style} lw 2 title '{title}'")
        gp = f"""set terminal pngcairo size 900,560 font ',10'
set output '{a.plot}'
set title "GRO, TCP bulk, poll 32, one buffer, checksums verified: ns per packet vs flows\\n{m.get('model', '')}, {m.get('cpus', '?')} vCPUs, shared noisy VM, {m.get('date', '')}"
set logscale x 2
set logscale y 10
set xlabel 'flows interleaved'
set ylabel 'ns per input packet (median)'
set grid
set key top left
set xrange [0.7:100000]
plot {', '.join(plots)}
"""
        gpf = os.path.join(a.raw, "gro_flows.gp")
        with open(gpf, "w") as f:
            f.write(gp)
        r = subprocess.run(["gnuplot", gpf], capture_output=True, text=True)
        if r.returncode != 0:
            # pngcairo may be missing (gnuplot-nox): fall back to png
            gp = gp.replace("set terminal pngcairo size 900,560 font ',10'", "set terminal png size 900,560")
            with open(gpf, "w") as f:
                f.write(gp)
            r = subprocess.run(["gnuplot", gpf], capture_output=True, text=True)
        if r.returncode == 0:
            w(f"![GRO ns per packet against flows](gro_flows.png)\n")
        else:
            sys.stderr.write(r.stderr)
    instr = os.path.join(a.raw, "instr.txt")
    if os.path.exists(instr):
        w("## Instruction counts (callgrind, exact on a shared machine)\n")
        w("`bash bench/instr.sh` on the same Release build: every library call of the measured "
          "loop, inclusive (bench/PROFILE.md says where they go).\n")
        with open(instr) as f:
            w("```\n" + f.read().rstrip("\n") + "\n```\n")
    spread_rows = []
    for name in sorted(REPS):
        key = next((k for k in MAIN_COUNTERS if name in gb and k in gb[name]), None)
        sp = spread(name, key) if key else None
        if sp:
            spread_rows.append(f"| `{name}` | {key} | {gb[name][key]:.2f} | {sp[0]:.2f} | {sp[1]:.2f} "
                               f"| {len(REPS[name])} |")
    if spread_rows:
        w("## Spread of every timed row\n")
        w("The median of a row's repetitions (the figure in the tables above) and the lowest and highest "
          "repetition; each repetition is itself the median over its 512-packet chunks (DSA: batches).\n")
        w("<details><summary>" + f"{len(spread_rows)} rows" + "</summary>\n")
        table(w, "", [("row", "---"), ("figure", "---"), ("median", "---:"), ("min", "---:"), ("max", "---:"),
                      ("repetitions", "---:")], spread_rows)
        w("</details>\n")
    w("Raw data: `bench/results/raw/` (Google Benchmark JSON, DPDK runner JSON lines, hyperfine JSON, "
      "instr.txt).\n")
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
