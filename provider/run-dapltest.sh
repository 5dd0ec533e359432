#!/usr/bin/env bash
# dapltest's transaction test, unmodified, on two simulated hosts with the serve line of docs/bridge-guide.md (the
# default grace): its server on host A, the test client and then the quit client on host B, all through
# `datsim exec`. CI runs it beside other work, so that the documented line is known to pass on a loaded machine.
# Usage: provider/run-dapltest.sh OUT [ITERATIONS]   (default 1000: enough simulated time for dapltest's stats)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: provider/run-dapltest.sh OUT [ITERATIONS]}"
iters="${2:-1000}"
command -v dapltest >/dev/null || { echo "run-dapltest: dapltest not found (Debian: apt-get install dapl2-utils)" >&2; exit 2; }
make -s -C "$root/provider"
mkdir -p "$(dirname "$out")"
"$root/datsim" serve "$root/provider/examples/two-hosts.json" --provider "$root/provider/libdatsim.so" --out "$out" \
  --processes 2 > "$out.serve.log" 2>&1 &
serve=$!
until [ -S "$out/datsim.sock" ]; do
  kill -0 "$serve" 2>/dev/null || { echo "run-dapltest: datsim serve ended before it listened" >&2; exit 1; }
  sleep 0.2
done
exe=("$root/datsim" exec --socket "$out/datsim.sock")
"${exe[@]}" --host A -- dapltest -T S -D datsim-A > "$out/dapltest-server.log" 2>&1 &
server=$!
for _ in $(seq 600); do
  grep -q "Service Point Ready" "$out/dapltest-server.log" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
rc=0
"${exe[@]}" --host B -- dapltest -T T -s 127.0.1.1 -D datsim-B -i "$iters" -t 1 -w 2 -V client SR 4096 1 \
  server RW 4096 1 server RR 4096 1 > "$out/dapltest-client.log" 2>&1 || rc=$?
"${exe[@]}" --host B -- dapltest -T Q -s 127.0.1.1 -D datsim-B > "$out/dapltest-quit.log" 2>&1 || true
wait "$server" || rc=$?
kill "$serve" 2>/dev/null || true  # the quit client attached as a third program: serve does not end by itself
wait "$serve" 2>/dev/null || true
grep -q "End of Work -- Client Exiting" "$out/dapltest-client.log" && ! grep -qi "error" "$out/dapltest-client.log" \
  || { cat "$out/dapltest-client.log" >&2; rc=1; }
echo "run-dapltest: exit $rc ($(grep -m1 'Stats ----' "$out/dapltest-client.log" || echo 'no stats'))"
exit $rc
