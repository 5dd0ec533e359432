#!/usr/bin/env bash
# Times `./datsim bench hpcc --cc dcqcn` against HPCC's own simulator (ns-3.17, alibaba-edu/High-Precision-Congestion-
# Control) on the same files, on the same machine, alternating run by run (issue 12: datsim in at most a fifth of
# HPCC's wall time). Builds HPCC's simulator if it is not built (about 25 minutes on 2 cores; waf needs Python 2,
# e.g. pyenv's 2.7.18), checks that its FCT output is the anchor's, byte for byte, and prints every run and the
# ratios. Not part of CI.
#
#   scripts/hpcc/compare.sh HPCC_SIMULATION_DIR [RUNS]   (the `simulation/` directory of an HPCC checkout; 2 runs)
# HPCC_ANCHORS (default /work/shared/anchors/hpcc) holds fat.topology, ws30-5ms.flows, config-dcqcn.txt and
# fct-dcqcn-ws30-5ms.txt.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
sim="${1:?usage: scripts/hpcc/compare.sh HPCC_SIMULATION_DIR [RUNS]}"
runs="${2:-2}"
anchors="${HPCC_ANCHORS:-/work/shared/anchors/hpcc}"
for f in fat.topology ws30-5ms.flows config-dcqcn.txt fct-dcqcn-ws30-5ms.txt; do
  [ -f "$anchors/$f" ] || { echo "compare: $anchors/$f is missing (set HPCC_ANCHORS)" >&2; exit 2; }
done
[ -f "$sim/waf" ] || { echo "compare: $sim is not HPCC's simulation/ directory (no waf there)" >&2; exit 2; }
cd "$sim"
if [ ! -x build/scratch/third ]; then
  echo "compare: building HPCC's simulator in $sim (about 25 minutes on 2 cores) ..." >&2
  export CXXFLAGS="-O2 -std=gnu++11 -fpermissive -Wno-error -w" PYENV_VERSION=2.7.18
  python2 ./waf configure --build-profile=optimized --disable-python --disable-examples --disable-tests >&2
  python2 ./waf build -j2 >&2
fi
# The configuration names its files under mix/ (as HPCC's run.py writes it).
cp "$anchors/fat.topology" mix/fat.txt
cp "$anchors/ws30-5ms.flows" mix/ws30.txt
cp "$anchors/config-dcqcn.txt" mix/config-datsim-compare.txt
"$root/datsim" --version >/dev/null # builds the jar if needed, outside the timing
out="$(mktemp -d)"
for i in $(seq "$runs"); do
  d=$("$root/datsim" bench hpcc --cc dcqcn --out "$out/datsim-$i" | sed -n 's/^process_wall_s=//p')
  t0=$(date +%s%N)
  LD_LIBRARY_PATH=build ./build/scratch/third mix/config-datsim-compare.txt >"$out/hpcc-$i.log" 2>&1
  t1=$(date +%s%N)
  h=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", (b - a) / 1e9}')
  cmp -s mix/fct_fat_ws30_dcqcn.txt "$anchors/fct-dcqcn-ws30-5ms.txt" \
    || { echo "compare: HPCC's FCT output differs from the anchor's: not the same run" >&2; exit 1; }
  echo "run=$i hpcc_wall_s=$h datsim_process_wall_s=$d hpcc_over_datsim=$(awk -v a="$h" -v b="$d" 'BEGIN {printf "%.2f", a / b}') load=$(cut -d' ' -f1 /proc/loadavg)"
done
rm -rf "$out"
