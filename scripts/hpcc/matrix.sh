#!/usr/bin/env bash
# The validation matrix against HPCC's simulator (issue 25): algorithms x traces x loads on HPCC's fat-tree, with flows
# from HPCC's own traffic_gen.py and CDFs (or on another topology: TOPO, BW); runs HPCC's simulator and datsim (`bench hpcc`, both --model hpcc-ns3 and
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
#   TOPO [fat]: run.py's --topo, the topology HPCC_CHECKOUT/simulation/mix/TOPO.txt (scripts/hpcc/topology.py writes
#   others); traffic_gen's -n is its host count (nodes less switches, from its first line). Other than fat, the flow
#   files in mix/ are named TOPO_TRACELOAD.txt (not to overwrite fat's).
#   BW [100]: run.py's --bw and traffic_gen's -b (Gb/s); every host link of TOPO must run at BW and every other link at
#   BW or 4 x BW (run.py's KMAX_MAP, KMIN_MAP and PMAX_MAP name only these two rates), else a located error, exit 2:
#   `bench hpcc` derives run.py's settings from the topology's host links, so the two would differ silently.
# Outputs in OUT_DIR: flows/, hpcc/ (HPCC's FCT files and logs; RUN.pfc: its PFC pauses received and the time ports
# spent paused, summed), datsim/ (fct.csv, summary.json, key=value output per
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
TOPO="${TOPO:-fat}"
BW="${BW:-100}"
STEPS=" ${STEPS:-hpcc datsim table} "
topo_file="$sim/mix/$TOPO.txt"
[ -f "$topo_file" ] || { echo "matrix: TOPO=$TOPO: $topo_file is missing" >&2; exit 2; }
[[ "$BW" =~ ^[1-9][0-9]*$ ]] || { echo "matrix: BW=$BW: expected whole Gb/s, e.g. 100" >&2; exit 2; }
# the host count, and every link's rate against run.py's --bw (its maps name BW and 4 x BW only; third.cc asserts)
hosts=$(awk -v f="$topo_file" -v bw="$BW" '
  function gbps(r,   v) {
    v = r; sub(/[A-Za-z\/]+$/, "", v)
    if (r ~ /Gbps$|Gb\/s$/) return v; if (r ~ /Mbps$|Mb\/s$/) return v / 1000; if (r ~ /Tbps$|Tb\/s$/) return v * 1000
    if (r ~ /Kbps$|Kb\/s$/) return v / 1e6; return v / 1e9 }
  NF == 0 { next }
  ++n == 1 { nodes = $1; nsw = $2; next }
  n == 2 { for (i = 1; i <= NF; i++) sw[$i] = 1; next }
  { host = !($1 in sw) || !($2 in sw); g = gbps($3)
    if (host && g != bw) { printf "matrix: BW=%s (run.py'"'"'s --bw, traffic_gen'"'"'s -b) but %s:%d: host link %s %s runs at %s; set BW to its rate\n", bw, f, FNR, $1, $2, $3 > "/dev/stderr"; bad = 1; exit }
    if (!host && g != bw && g != 4 * bw) { printf "matrix: BW=%s: %s:%d: link %s %s runs at %s, but run.py'"'"'s KMAX_MAP, KMIN_MAP and PMAX_MAP name only %s and %s Gb/s (third.cc would stop: \"must set kmin for each link speed\")\n", bw, f, FNR, $1, $2, $3, bw, 4 * bw > "/dev/stderr"; bad = 1; exit } }
  END { if (!bad) print nodes - nsw; exit bad }' "$topo_file") || exit 2
mkdir -p "$out/flows" "$out/hpcc" "$out/datsim"
out="$(cd "$out" && pwd)"
# datsim's runs use one copy of the jar, frozen at the first run into OUT_DIR (delete it to take a new build): a source
# edited meanwhile would otherwise rebuild the jar between runs.
"$root/datsim" --version >/dev/null # builds the jar if needed, outside the timing
[ -s "$out/datsim.jar" ] || cp "$root/scenarios/target/datsim.jar" "$out/datsim.jar"
jvm=(-XX:+UseParallelGC)
grep -qE '\[(always|madvise)\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null && jvm+=(-XX:+UseTransparentHugePages)
sed '/os.system("\.\/waf --run/d' "$sim/run.py" >"$out/run-config.py"
cp "$topo_file" "$out/$TOPO.txt"
touch "$out/times.tsv"

datsim_cc() { case "$1" in hp) echo hpcc ;; *) echo "$1" ;; esac; }

for trace in $TRACES; do
  for load in $LOADS; do
    name="${trace}${load}"
    mixname="$name" # the flow file's name in HPCC's mix/ (run.py's --trace)
    [ "$TOPO" = fat ] || mixname="${TOPO}_$name"
    flows="$out/flows/$name.txt"
    cdf="${trace}_distribution.txt"
    [ -f "$gen/$cdf" ] || cdf="$trace.txt" # traffic_gen's other CDFs: AliStorage2019, GoogleRPC2008
    if [ ! -s "$flows" ]; then
      (cd "$gen" && PYENV_VERSION=2.7.18 python2 -c "
import random, sys
random.seed($SEED)
sys.argv = ['traffic_gen.py', '-c', '$cdf', '-n', '$hosts', '-l', '0.$load', '-b', '${BW}G',
            '-t', '$DURATION', '-o', '$flows']
execfile('traffic_gen.py')
")
    fi
    [[ "$STEPS" != *" hpcc "* ]] || cp "$flows" "$sim/mix/$mixname.txt" # HPCC's run reads it there
    for algo in $ALGOS; do
      run="${algo}-${name}"
      for rng in $HPCC_SEEDS; do
        fct="$out/hpcc/$run.fct"
        [ "$rng" = 1 ] || fct="$out/hpcc/$run-r$rng.fct"
        if [[ "$STEPS" == *" hpcc "* ]] && [ ! -s "$fct" ]; then
          (cd "$sim" && PYENV_VERSION=2.7.18 python2 "$out/run-config.py" --cc "$algo" --trace "$mixname" --bw "$BW" --topo "$TOPO" >/dev/null)
          cc="$algo"; [ "$algo" = hp ] && cc=hp95
          conf="$sim/mix/config_${TOPO}_${mixname}_${cc}.txt"
          if [ "$HPCC_MONITOR" = 0 ]; then
            sed -i 's/^QLEN_MON_END .*/QLEN_MON_END 2000000000/' "$conf"
          fi
          t0=$(date +%s%N)
          TIMEFORMAT='%U %S'
          cpu=$( { time (cd "$sim" && NS_GLOBAL_VALUE="RngRun=$rng" LD_LIBRARY_PATH=build ./build/scratch/third "$conf" \
            >"${fct%.fct}.log" 2>&1) ; } 2>&1 )
          t1=$(date +%s%N)
          mv "$sim/mix/fct_${TOPO}_${mixname}_${cc}.txt" "$fct"
          # HPCC's PFC trace (time, node, node type, port, 1 pause or 0 resume, per receiving port) in one line
          awk '{ k = $2 " " $4; if ($5 == 1) { n++; if (!(k in at)) at[k] = $1 } else if (k in at) { t += $1 - at[k]; delete at[k] } }
            END { for (k in at) open_++; printf "pauses=%d paused_ns=%d still_paused=%d\n", n, t, open_ }' \
            "$sim/mix/pfc_${TOPO}_${mixname}_${cc}.txt" >"${fct%.fct}.pfc" 2>/dev/null || true
          rm -f "$sim/mix/mix_${TOPO}_${mixname}_${cc}.tr" "$sim/mix/pfc_${TOPO}_${mixname}_${cc}.txt" \
            "$sim/mix/qlen_${TOPO}_${mixname}_${cc}.txt"
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
              --topology "$out/$TOPO.txt" --flows "$flows" --seed "$seed" --no-ideal --out "$d" >"$d.kv" 2>"$d.err" || true
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
  echo "Flows from HPCC's traffic_gen.py (seed $SEED, $DURATION s of arrivals, $hosts hosts at $BW Gb/s) on $TOPO.txt."
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
