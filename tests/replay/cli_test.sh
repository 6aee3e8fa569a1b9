#!/bin/sh
# cli_test.sh BIN CORPORA TMPDIR - exit codes and messages of offload-replay.
# 0 success, 1 unreadable/invalid input or output, 2 bad usage.
BIN=$1
CORPORA=$2
TMP=${3:-/tmp}/replay_cli_test.$$
mkdir -p "$TMP" || exit 1
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0

# expect NAME CODE PATTERN-ON-STDOUT|- PATTERN-ON-STDERR|- -- ARGS...
expect() {
	name=$1 want=$2 out_pat=$3 err_pat=$4
	shift 5
	"$BIN" "$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	ok=1
	[ "$got" -eq "$want" ] || ok=0
	[ "$out_pat" = - ] || grep -q -e "$out_pat" "$TMP/out" || ok=0
	[ "$err_pat" = - ] || grep -q -e "$err_pat" "$TMP/err" || ok=0
	if [ $ok = 1 ]; then
		pass=$((pass + 1))
		echo "ok - $name"
	else
		fail=$((fail + 1))
		echo "not ok - $name: exit $got (want $want); stdout/stderr:"
		sed 's/^/    /' "$TMP/out" "$TMP/err" | head -20
	fi
}

# pcap files of our own: an empty Ethernet capture, an empty RAW (101)
# one, a truncated header, and garbage
hdr() { printf '\324\303\262\241\002\000\004\000\000\000\000\000\000\000\000\000\377\377\000\000'; }
{ hdr; printf '\001\000\000\000'; } >"$TMP/empty.pcap"
{ hdr; printf '\145\000\000\000'; } >"$TMP/raw.pcap"
hdr | head -c 10 >"$TMP/short.pcap"
printf 'this is not a capture at all' >"$TMP/junk.pcap"
# one 60-byte frame whose record says 100 bytes were captured
{ hdr; printf '\001\000\000\000'; printf '\000\000\000\000\000\000\000\000\144\000\000\000\144\000\000\000'; head -c 60 /dev/zero; } >"$TMP/cut.pcap"

expect "--help" 0 "usage: offload-replay COMMAND" - -- --help
expect "-h" 0 "gro IN OUT" - -- -h
expect "gro --help" 0 "--flush-timeout-ns" - -- gro --help
expect "gro -h" 0 "OUT '-' writes no capture" - -- gro -h
expect "--version" 0 "^offload-replay [0-9][0-9]*\.[0-9]" - -- --version
expect "no arguments" 2 - "usage:" --
expect "unknown command" 2 - "unknown command 'frobnicate'" -- frobnicate
expect "unknown option" 2 - "unknown option '--bogus'" -- gro --bogus "$TMP/empty.pcap" -
expect "missing OUT" 2 - "needs IN and OUT" -- gro "$TMP/empty.pcap"
expect "extra argument" 2 - "unexpected argument" -- gro "$TMP/empty.pcap" - more
expect "--burst abc" 2 - "--burst wants" -- gro --burst abc "$TMP/empty.pcap" -
expect "--burst -1" 2 - "--burst wants" -- gro --burst -1 "$TMP/empty.pcap" -
expect "--burst without value" 2 - "needs a value" -- gro "$TMP/empty.pcap" - --burst
expect "--max-size 100" 2 - "--max-size wants" -- gro --max-size 100 "$TMP/empty.pcap" -
expect "--batch 0" 2 - "--batch wants" -- gro --batch=0 "$TMP/empty.pcap" -
expect "--csum maybe" 2 - "--csum wants" -- gro --csum maybe "$TMP/empty.pcap" -
expect "--stats xml" 2 - "--stats wants" -- gro --stats xml "$TMP/empty.pcap" -
expect "--rx-csum maybe" 2 - "--rx-csum wants" -- gro --rx-csum maybe "$TMP/empty.pcap" -
expect "--split x" 2 - "--split wants" -- gro --split x "$TMP/empty.pcap" -
expect "flag with a value" 2 - "takes no value" -- gro --lax-snaplen=1 "$TMP/empty.pcap" -
expect "--flows beyond the engine" 2 - "engine refused --flows 4294967295" -- gro --flows 4294967295 "$TMP/empty.pcap" -
expect "missing file" 1 - "/nonexistent/in.pcap" -- gro /nonexistent/in.pcap -
expect "junk file" 1 - "junk.pcap: unknown file magic" -- gro "$TMP/junk.pcap" -
expect "short header" 1 - "short.pcap: file header truncated" -- gro "$TMP/short.pcap" -
expect "frame past the end" 1 - "cut.pcap: frame 1 .*caplen 100" -- gro "$TMP/cut.pcap" -
expect "unsupported link type" 1 - "raw.pcap: link type 101 is not supported" -- gro "$TMP/raw.pcap" -
expect "unwritable output" 1 - "/nonexistent/out.pcap" -- gro "$TMP/empty.pcap" /nonexistent/out.pcap
if [ -w /dev/full ]; then
	expect "write error" 1 - "/dev/full: write error" -- gro "$TMP/empty.pcap" /dev/full
fi
expect "empty capture" 0 "frames in  *0" - -- gro "$TMP/empty.pcap" "$TMP/o.pcap"
expect "empty capture json" 0 '"rx_pkts": 0' - -- gro --stats json "$TMP/empty.pcap" -
if [ -f "$TMP/o.pcap" ] && [ "$(wc -c <"$TMP/o.pcap")" -eq 24 ]; then
	pass=$((pass + 1)); echo "ok - empty output is a bare pcap header"
else
	fail=$((fail + 1)); echo "not ok - empty output is a bare pcap header"
fi

# subcommands of other areas, when the build has them
if "$BIN" --help | grep -q '^  gso '; then
	expect "gso --help" 0 "gso IN OUT --mss N" - -- gso --help
	expect "gso without --mss" 2 - "--mss is required" -- gso "$TMP/empty.pcap" -
fi

# a real capture: human text and JSON (parsed when python3 is there)
CAP="$CORPORA/tcp-bulk/suricata-verify__bug-4663.pcap"
if [ -f "$CAP" ]; then
	expect "corpus text" 0 "segments per GRO packet" - -- gro "$CAP" "$TMP/c.pcap" --flush-timeout-ns 1000000
	expect "corpus --trace" 0 - "out [0-9]*: GRO [0-9]* segs of 1448, [0-9]* bytes, frames [0-9]*-[0-9]*" -- gro --trace "$CAP" -
	expect "corpus --kernel-napi" 0 "kernel NAPI polling: first poll of 1" - -- gro --kernel-napi "$CAP" -
	expect "corpus rx-csum/split" 0 "rx checksum complete, split 60" - -- gro --rx-csum complete --split 60 "$CAP" -
	expect "corpus json" 0 '"normal_why": {' - -- gro --stats=json --burst 0 --csum partial "$CAP" -
	if command -v python3 >/dev/null 2>&1; then
		if python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["rx_pkts"] == d["replay"]["frames_in"] > 0 and "poll_end" in d["flush"]' <"$TMP/out"; then
			pass=$((pass + 1)); echo "ok - JSON parses"
		else
			fail=$((fail + 1)); echo "not ok - JSON parses"
		fi
	fi
else
	echo "# $CAP missing: corpus cases skipped"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
