#!/usr/bin/env bash
# The validation matrix against HPCC's simulator (issue 25): algorithms x traces x loads on HPCC's fat-tree, with flows
# from HPCC's own traffic_gen.py and CDFs; runs HPCC's simulator and datsim (`bench hpcc`, both --model hpcc-ns3 and
# datsim's own host model) on the same flow files and prints, per run and size bucket, p50/p95/p99 of FCT divided by
# HPCC's standalone_fct for each (scripts/hpcc/compare_fct.py). Not part of CI: one HPCC run takes minutes.
#
#   scripts/hpcc/matrix.sh HPCC_CHECKOUT OUT_DIR
#
# HPCC_CHECKOUT is a checkout of alibaba-edu/High-Precision-Congestion-Control whose simulation/ is built (see
# scripts/hpcc/compare.sh for the build). Environment (defaults in brackets):
#   ALGOS ["dcqcn hp dctcp timely"] (run.py's names)  TRACES ["WebSearch FbHdp"] (traffic_gen's TRACE_distribution.txt,
#   or TRACE.txt: AliStorage2019, GoogleRPC2008)  LOADS ["30 50 70"]
#   DURATION [0.005] (seconds of arrivals)  SEED [25] (traffic_gen.py's random.seed)  MODELS ["hpcc-ns3 datsim"]
#   SEEDS ["1"]: datsim's --seed for each of its runs (ECN marking draws from it: several seeds show how far the tails
#   move from the marks alone; runs other than seed 1 go in datsim/MODEL-RUN-sSEED, the tables use seed 1)
#   HPCC_SEEDS ["1"]: ns-3 run numbers (RngRun, which draws HPCC's ECN marks) for HPCC's runs: runs other than 1 go in
#   hpcc/RUN-rN.fct, and the table gives HPCC's own range over them beside datsim's (how far a tail moves from the
#   marks alone, in the simulator compared with)
#   STEPS ["hpcc datsim table"]: which steps to run (HPCC's runs, datsim's runs, the tables)
#   HPCC_MONITOR [0]: 1 keeps run.py's queue-length monitor (every 100 ns from 2 s to 3 s simulated: most of HPCC's
#   run time, and no effect on its FCTs); 0 runs it once.
# Outputs in OUT_DIR: flows/, hpcc/ (HPCC's FCT files and logs), datsim/ (fct.csv, summary.json, key=value output per
# run), times.tsv (per run: who, run, wall seconds, CPU seconds (user + system), load average) and matrix.md. A run whose output exists is not run again.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
checkout="${1:?usage: scripts/hpcc/matrix.sh HPCC_CHECKOUT OUT_DIR}"
out="${2:?usage: scripts/hpcc/matrix.sh HPCC_CHECKOUT OUT_DIR}"
sim="$checkout/simulation"
gen="$checkout/traffic_gen"
[ -x "$sim/build/scratch/third" ] || { echo "matrix: $sim/build/scratch/third is not built (see scripts/hpcc/compare.sh)" >&2; exit 2; }
[ -f "$gen/traffic_gen.py" ] || { echo "matrix: $gen/traffic_gen.py is missing" >&2; exit 2; }
ALGOS="${ALGOS:-dcqcn hp dctcp timely}"
TRACES="${TRACES:-WebSearch FbHdp}"
LOADS="${LOADS:-30 50 70}"
DURATION="${DURATION:-0.005}"
SEED="${SEED:-25}"
MODELS="${MODELS:-hpcc-ns3 datsim}"
SEEDS="${SEEDS:-1}"
HPCC_SEEDS="${HPCC_SEEDS:-1}"
HPCC_MONITOR="${HPCC_MONITOR:-0}"
STEPS=" ${STEPS:-hpcc datsim table} "
mkdir -p "$out/flows" "$out/hpcc" "$out/datsim"
out="$(cd "$out" && pwd)"
# datsim's runs use one copy of the jar, frozen at the first run into OUT_DIR (delete it to take a new build): a source
# edited meanwhile would otherwise rebuild the jar between runs.
"$root/datsim" --version >/dev/null # builds the jar if needed, outside the timing
[ -s "$out/datsim.jar" ] || cp "$root/scenarios/target/datsim.jar" "$out/datsim.jar"
jvm=(-XX:+UseParallelGC)
grep -qE '\[(always|madvise)\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null && jvm+=(-XX:+UseTransparentHugePages)
sed '/os.system("\.\/waf --run/d' "$sim/run.py" >"$out/run-config.py"
cp "$sim/mix/fat.txt" "$out/fat.txt" 2>/dev/null || true
touch "$out/times.tsv"

datsim_cc() { case "$1" in hp) echo hpcc ;; *) echo "$1" ;; esac; }

for trace in $TRACES; do
  for load in $LOADS; do
    name="${trace}${load}"
    flows="$out/flows/$name.txt"
    cdf="${trace}_distribution.txt"
    [ -f "$gen/$cdf" ] || cdf="$trace.txt" # traffic_gen's other CDFs: AliStorage2019, GoogleRPC2008
    if [ ! -s "$flows" ]; then
      (cd "$gen" && PYENV_VERSION=2.7.18 python2 -c "
import random, sys
random.seed($SEED)
sys.argv = ['traffic_gen.py', '-c', '$cdf', '-n', '320', '-l', '0.$load', '-b', '100G',
            '-t', '$DURATION', '-o', '$flows']
execfile('traffic_gen.py')
")
    fi
    cp "$flows" "$sim/mix/$name.txt"
    for algo in $ALGOS; do
      run="${algo}-${name}"
      for rng in $HPCC_SEEDS; do
        fct="$out/hpcc/$run.fct"
        [ "$rng" = 1 ] || fct="$out/hpcc/$run-r$rng.fct"
        if [[ "$STEPS" == *" hpcc "* ]] && [ ! -s "$fct" ]; then
          (cd "$sim" && PYENV_VERSION=2.7.18 python2 "$out/run-config.py" --cc "$algo" --trace "$name" --bw 100 --topo fat >/dev/null)
          cc="$algo"; [ "$algo" = hp ] && cc=hp95
          conf="$sim/mix/config_fat_${name}_${cc}.txt"
          if [ "$HPCC_MONITOR" = 0 ]; then
            sed -i 's/^QLEN_MON_END .*/QLEN_MON_END 2000000000/' "$conf"
          fi
          t0=$(date +%s%N)
          TIMEFORMAT='%U %S'
          cpu=$( { time (cd "$sim" && NS_GLOBAL_VALUE="RngRun=$rng" LD_LIBRARY_PATH=build ./build/scratch/third "$conf" \
            >"${fct%.fct}.log" 2>&1) ; } 2>&1 )
          t1=$(date +%s%N)
          mv "$sim/mix/fct_fat_${name}_${cc}.txt" "$fct"
          rm -f "$sim/mix/mix_fat_${name}_${cc}.tr" "$sim/mix/pfc_fat_${name}_${cc}.txt" "$sim/mix/qlen_fat_${name}_${cc}.txt"
          printf 'hpcc\t%s\t%s\t%s\t%s\n' "$run${fct##*"$run"}" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", (b - a) / 1e9}')" \
            "$(echo "$cpu" | awk '{printf "%.2f", $1 + $2}')" "$(cut -d' ' -f1 /proc/loadavg)" >>"$out/times.tsv"
        fi
      done
      for model in $MODELS; do
        for seed in $SEEDS; do
          d="$out/datsim/$model-$run"
          [ "$seed" = 1 ] || d="$d-s$seed"
          if [[ "$STEPS" == *" datsim "* ]] && [ ! -s "$d/fct.csv" ]; then
            java "${jvm[@]}" -jar "$out/datsim.jar" bench hpcc --model "$model" --cc "$(datsim_cc "$algo")" \
              --topology "$out/fat.txt" --flows "$flows" --seed "$seed" --no-ideal --out "$d" >"$d.kv" 2>"$d.err" || true
            printf 'datsim-%s\t%s\t%s\t%s\t%s\n' "$model" "$run${d##*"$run"}" "$(sed -n 's/^process_wall_s=//p' "$d.kv")" \
              "$(sed -n 's/^process_cpu_s=//p' "$d.kv")" "$(cut -d' ' -f1 /proc/loadavg)" >>"$out/times.tsv"
          fi
        done
      done
    done
  done
done

[[ "$STEPS" == *" table "* ]] || exit 0
{
  echo "# FCT / HPCC's standalone_fct, per size bucket: HPCC's simulator and datsim on the same flows"
  echo
  echo "Flows from HPCC's traffic_gen.py (seed $SEED, $DURATION s of arrivals, 320 hosts at 100 Gb/s) on HPCC's fat.txt."
  echo "Buckets marked * have fewer than 100 flows. Differences are datsim's figure over HPCC's, less 1."
  for trace in $TRACES; do
    for load in $LOADS; do
      for algo in $ALGOS; do
        run="${algo}-${trace}${load}"
        [ -s "$out/hpcc/$run.fct" ] || continue
        args=()
        for model in $MODELS; do
          [ -s "$out/datsim/$model-$run/fct.csv" ] && args+=("$model=$out/datsim/$model-$run/fct.csv")
        done
        [ ${#args[@]} -gt 0 ] || continue
        echo
        echo "## $run"
        echo
        python3 "$root/scripts/hpcc/compare_fct.py" "$out/hpcc/$run.fct" "${args[@]}" --md
      done
    done
  done
} >"$out/matrix.md"
echo "matrix: $out/matrix.md"
