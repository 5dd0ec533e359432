#!/usr/bin/env bash
# The example uDAPL program provider/examples/hello.c, built with gcc and run on two simulated hosts through
# `datsim exec`: the server on host A, the client on host B (docs/bridge-guide.md). CI runs it.
# Usage: provider/run-hello.sh OUT    (then ./datsim view OUT shows the run's timeline)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: provider/run-hello.sh OUT}"
command -v gcc >/dev/null && [ -f /usr/include/dat2/udat.h ] \
  || { echo "run-hello: needs gcc and libdapl-dev (Debian: apt-get install dapl2-utils libdapl-dev gcc make)" >&2; exit 2; }
make -s -C "$root/provider" all examples/hello
mkdir -p "$(dirname "$out")"
"$root/datsim" serve "$root/provider/examples/two-hosts.json" --out "$out" --processes 2 &
serve=$!
until [ -S "$out/datsim.sock" ]; do
  kill -0 "$serve" 2>/dev/null || { echo "run-hello: datsim serve ended before it listened" >&2; exit 1; }
  sleep 0.2
done
"$root/datsim" exec --socket "$out/datsim.sock" --host A -- "$root/provider/examples/hello" datsim-A server \
  > >(tee "$out/hello-server.log") 2>&1 &
server=$!
# the client connects once the server's service point exists (its "waiting" line), up to 60 s
for _ in $(seq 600); do
  grep -q "waiting for a connection" "$out/hello-server.log" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
rc=0
"$root/datsim" exec --socket "$out/datsim.sock" --host B -- "$root/provider/examples/hello" datsim-B 127.0.1.1 || rc=$?
wait "$server" || rc=$?
wait "$serve" || rc=$?
grep -q 'server: received "hello from the client"' "$out/hello-server.log" || rc=1
echo "run-hello: exit $rc; the timeline: $root/datsim view $out"
exit $rc
