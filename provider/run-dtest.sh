#!/usr/bin/env bash
# dapl's dtest, unmodified, on two simulated hosts: builds provider/libdatsim.so, starts `datsim serve` on
# provider/examples/two-hosts.json writing into OUT, runs dtest's server on host A and its client on host B through
# `datsim exec`, and waits for all three. Then `./datsim view OUT` shows the run's timeline (docs/bridge.md).
# Usage: provider/run-dtest.sh OUT [DTEST_ARGS...]   (default DTEST_ARGS: -B 10 -b 65536; e.g. -D, -w or -W too)
# FABRIC=FILE serves another fabric file (provider/examples/two-hosts-deep.json has the queues dtest -B 100000 needs).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: provider/run-dtest.sh OUT [DTEST_ARGS...]}"
shift
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(-B 10 -b 65536)
command -v dtest >/dev/null || { echo "run-dtest: dtest not found (Debian: apt-get install dapl2-utils libdapl-dev gcc make)" >&2; exit 2; }
make -s -C "$root/provider"
mkdir -p "$(dirname "$out")"
"$root/datsim" serve "${FABRIC:-$root/provider/examples/two-hosts.json}" --provider "$root/provider/libdatsim.so" --out "$out" --processes 2 --grace 20 &
serve=$!
until [ -S "$out/datsim.sock" ]; do
  kill -0 "$serve" 2>/dev/null || { echo "run-dtest: datsim serve ended before it listened" >&2; exit 1; }
  sleep 0.2
done
# The server's output goes to the terminal and to OUT/dtest-server.log; the client starts once the server waits for it
# (up to 60 s: a fixed pause lost the race on a loaded machine, and the client then gave up on the server's TCP port).
"$root/datsim" exec --socket "$out/datsim.sock" --host A -- dtest -P datsim-A -s "${args[@]}" \
  > >(tee "$out/dtest-server.log") 2>&1 &
server=$!
for _ in $(seq 600); do
  grep -q "waiting for client" "$out/dtest-server.log" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
rc=0
"$root/datsim" exec --socket "$out/datsim.sock" --host B -- dtest -P datsim-B -h 127.0.1.1 "${args[@]}" || rc=$?
wait "$server" || rc=$?
wait "$serve" || rc=$?
echo "run-dtest: exit $rc; the timeline: $root/datsim view $out"
exit $rc
