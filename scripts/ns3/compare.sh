#!/usr/bin/env bash
# Times `./datsim bench stream` against its baseline, ns-3.37's bare point-to-point device moving the same packets
# (scripts/ns3/p2p-stream.cc), in the same session on the same machine, alternating run by run, and prints every
# run, both medians and their ratio.
# Not part of CI. Installs Debian's libns3-dev (ns-3.37) if it is missing; needs g++ and apt-get.
#
#   scripts/ns3/compare.sh [RUNS]      (default 15 runs each, after 2 warm-up runs of each)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
runs="${1:-15}"
out="$root/target/ns3"
mkdir -p "$out"
if [ ! -e /usr/include/ns3/point-to-point-module.h ]; then
  echo "compare: installing libns3-dev (ns-3.37) from Debian ..." >&2
  if [ "$(id -u)" = 0 ]; then apt-get install -y -q libns3-dev >&2; else sudo apt-get install -y -q libns3-dev >&2; fi
fi
bin="$out/p2p-stream"
if [ ! -x "$bin" ] || [ "$root/scripts/ns3/p2p-stream.cc" -nt "$bin" ]; then
  g++ -O2 -std=c++17 "$root/scripts/ns3/p2p-stream.cc" -o "$bin" -lns3-core -lns3-network -lns3-point-to-point
fi
"$root/datsim" bench stream --writes 10 >/dev/null # builds the jar if needed, outside the timing

# Wall time of one run of a command, in milliseconds.
wall_ms() {
  local t0 t1
  t0=$(date +%s%N)
  "$@" >/dev/null
  t1=$(date +%s%N)
  echo $(( (t1 - t0) / 1000000 ))
}

median() {
  sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'
}

echo "ns3: $("$bin")"
echo "datsim: $("$root/datsim" bench stream | grep -E '^(simulated_last_byte_ps|prediction_holds)=' | tr '\n' ' ')"
# Alternate the two, run by run, so that a change in the machine's speed (a shared host) hits both alike.
for i in 1 2; do "$bin" >/dev/null; "$root/datsim" bench stream >/dev/null; done
ns3_runs=()
ds_runs=()
for ((i = 0; i < runs; i++)); do
  ns3_runs+=("$(wall_ms "$bin")")
  ds_runs+=("$(wall_ms "$root/datsim" bench stream)")
done
ns3=$(printf '%s\n' "${ns3_runs[@]}" | median)
ds=$(printf '%s\n' "${ds_runs[@]}" | median)
echo "ns3_runs_ms=${ns3_runs[*]}"
echo "datsim_runs_ms=${ds_runs[*]}"
echo "ns3_median_ms=$ns3"
echo "datsim_median_ms=$ds"
awk -v d="$ds" -v n="$ns3" 'BEGIN {printf "ratio_datsim_to_ns3=%.3f\n", d / n}'
