#!/usr/bin/env bash
# The main job: install what is missing, build, then replay a real bulk TCP
# capture through GRO and print what happened.
#   CAPTURE=path.pcap scripts/demo.sh     (default: the largest bulk TCP capture)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
bash "$top/scripts/deps.sh"
build=${BUILD_DIR:-$top/build}
cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release -DOFL_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target offload-replay >/dev/null
corpora=${OFL_CORPORA:-$top/../shared/corpora}
capture=${CAPTURE:-$corpora/tcp-bulk/suricata-verify__smb2-async-read.pcap}
echo "offload-replay gro $capture $build/demo-gro.pcap"
"$build/tools/offload-replay/offload-replay" gro "$capture" "$build/demo-gro.pcap"
