#!/usr/bin/env bash
# The bridge's speed: starts `datsim serve` on provider/examples/two-hosts.json, runs provider/bench (N forwarded
# DAT calls, default 300000) on host A, and prints calls_per_second= and the load average (docs/bridge.md, Speed).
# Usage: provider/bench.sh [N [SERVE_OPTIONS...]]   (e.g. --spin-us 0; DATSIM_SHM=0 forces the socket)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
make -s -C provider all bench
out="$(mktemp -d)"
n="${1:-300000}"
[ $# -gt 0 ] && shift
./datsim serve provider/examples/two-hosts.json --out "$out" --processes 1 "$@" >"$out/serve.log" 2>&1 &
serve=$!
until [ -S "$out/datsim.sock" ]; do
  kill -0 "$serve" 2>/dev/null || { cat "$out/serve.log" >&2; exit 1; }
  sleep 0.1
done
DAT_OVERRIDE="$out/dat.conf" provider/bench datsim-A "$n"
wait "$serve"
echo "transport=$(grep -o "attached to host A .*, through [a-z ]*" "$out/serve.log" | sed "s/.*through //")"
echo "load_average=$(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$out"
