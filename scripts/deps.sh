#!/usr/bin/env bash
# Install what building and testing libofl needs on Debian 12 (run as root).
# Skips apt-get when everything is already there.
set -euo pipefail
pkgs=(build-essential cmake pkg-config check libsubunit-dev libpcap-dev clang llvm doxygen
      libclang-rt-14-dev tcpdump valgrind abigail-tools help2man dpkg-dev)
pkgs+=(tshark) # an independent dissector checks what GSO writes through tunnels (tests/gso/tunnel-tshark.sh)
pkgs+=(libxdp-dev libbpf-dev) # examples/af_xdp_gro: AF_XDP sockets (libxdp) and its XDP program (libbpf; clang above)
if [ "${1:-}" = "--bench" ]; then
  pkgs+=(libbenchmark-dev hyperfine gnuplot dpdk-dev)
fi
# --arm64: the AArch64 cross build and its tests under qemu-user
# (scripts/cross-arm64.sh): the cross compiler, the emulator and the target's
# Check and libpcap, from Debian's arm64 archive (multiarch)
if [ "${1:-}" = "--arm64" ]; then
  pkgs=(gcc-aarch64-linux-gnu qemu-user check:arm64 libpcap-dev:arm64)
  dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
