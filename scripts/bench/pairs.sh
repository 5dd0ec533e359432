#!/usr/bin/env bash
# scripts/bench/pairs.sh OLD.jar NEW.jar PAIRS bench-args... -> both jars run at the same time in each pair; new/old per pair
# of main_thread_cpu_s (and process_cpu_s), then the median ratio
if [ $# -lt 4 ] || [ ! -f "$1" ] || [ ! -f "$2" ] || ! [[ "$3" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/bench/pairs.sh OLD.jar NEW.jar PAIRS BENCH [ARGS...]  (both jars must exist; PAIRS a whole number)" >&2
  exit 2
fi
old=$1; new=$2; n=$3; shift 3
d=$(mktemp -d)
for i in $(seq $n); do
  java -XX:+UseParallelGC -jar $old bench "$@" > $d/old 2>/dev/null &
  a=$!
  java -XX:+UseParallelGC -jar $new bench "$@" > $d/new 2>/dev/null &
  b=$!
  wait $a $b
  o=$(awk -F= '/^main_thread_cpu_s=/{print $2}' $d/old); nn=$(awk -F= '/^main_thread_cpu_s=/{print $2}' $d/new)
  po=$(awk -F= '/^process_cpu_s=/{print $2}' $d/old); pn=$(awk -F= '/^process_cpu_s=/{print $2}' $d/new)
  echo "pair $i: main old $o new $nn ratio $(python3 -c "print(round($nn/$o,3))")  process old $po new $pn ratio $(python3 -c "print(round($pn/$po,3))")  load $(cut -d' ' -f1 /proc/loadavg)"
done | tee $d/log
python3 - $d/log <<'P'
import sys,statistics as st,re
r=[float(re.search(r'main old \S+ new \S+ ratio (\S+)',l).group(1)) for l in open(sys.argv[1])]
p=[float(re.search(r'process old \S+ new \S+ ratio (\S+)',l).group(1)) for l in open(sys.argv[1])]
print(f"median main-thread ratio {st.median(r):.3f}, process {st.median(p):.3f} (n={len(r)})")
P
rm -rf $d
