#!/usr/bin/env bash
# Golden outputs: run every example, lesson, litmus test and study scenario with one jar and keep what they write,
# so a refactoring can show that it changed no output byte (issue 26's "byte-identical before and after").
#
#   scripts/golden.sh capture JAR DIR   run everything with JAR (e.g. a copy of scenarios/target/datsim.jar made
#                                       before the change) and keep the outputs in DIR
#   scripts/golden.sh compare DIR1 DIR2 list every file that differs (exit 1 if one does)
#
# Each run gets the same seed. The simulator's own outputs are compared (events.jsonl, summary.json, trace.json,
# fct.csv and the like); wall-clock fields of summary.json are removed first.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-}"
case "$mode" in
  capture)
    jar="$2"; out="$3"
    [ -f "$jar" ] || { echo "golden: no jar $jar" >&2; exit 2; }
    mkdir -p "$out"
    files=(scenarios/examples/*.json scenarios/litmus/*.json scenarios/lab/*/hazard.json scenarios/lab/*/fix.json
           studies/scenarios/*.json)
    for f in "${files[@]}"; do
      name=$(echo "$f" | sed 's#/#_#g; s#\.json$##')
      dir="$out/$name"
      rm -rf "$dir"
      java -XX:+UseParallelGC -jar "$jar" run "$f" --out "$dir" --seed 7 >"$out/$name.stdout" 2>"$out/$name.stderr" \
        || echo "exit $?" >>"$out/$name.stderr"
      if [ -f "$dir/events.jsonl" ]; then
        rm -f "$dir/trace.json"
        java -jar "$jar" view "$dir" >/dev/null 2>&1 || true
        rm -f "$dir"/*.html "$dir"/*.svg
      fi
      if [ -f "$dir/summary.json" ]; then
        python3 - "$dir/summary.json" <<'EOF'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if not any(w in k for w in ("wall", "elapsed_s", "events_per_s", "_ms_wall", "heap"))}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o
json.dump(strip(d), open(p, "w"), indent=1, sort_keys=True)
EOF
      fi
      sed -i "s#$out/##g; s/wall time [0-9.]* [a-z]*/wall time N/g" "$out/$name.stdout"
    done
    echo "golden: ${#files[@]} scenarios captured in $out"
    ;;
  compare)
    a="$2"; b="$3"
    if diff -rq "$a" "$b"; then echo "golden: identical"; else exit 1; fi
    ;;
  *)
    sed -n 2,10p "$0" >&2; exit 2 ;;
esac
