#!/usr/bin/env python3
"""The validation matrix in one table, from the outputs of scripts/hpcc/matrix.sh.

    scripts/hpcc/matrix_table.py OUT_DIR [--min-flows N]

For every run with HPCC's FCT file (OUT_DIR/hpcc/RUN.fct) and datsim's fct.csv of each model (OUT_DIR/datsim/MODEL-RUN),
one row per size bucket: the flows, HPCC's p50/p95/p99 of FCT / standalone_fct, and each model's difference from
them in percent; then, for the hpcc-ns3 model, how many cells (p50, p95, p99 of buckets with at least --min-flows
flows, default 100) are within 10% of HPCC's, and which are not. If runs with other seeds exist
(OUT_DIR/datsim/hpcc-ns3-RUN-sSEED), each cell outside 10% also gets the range of datsim's figure over the seeds; if
HPCC's simulator was run with other ns-3 run numbers (OUT_DIR/hpcc/RUN-rN.fct, matrix.sh's HPCC_SEEDS), HPCC's range
over them too, and the count of cells outside 10% whose datsim figure lies within HPCC's own range. Every cell
outside 10% also gets the distribution-free 95% confidence interval of HPCC's quantile (from the order statistics of
its flows in that bucket: the sampling error of, say, a p99 over 469 flows, which is set by its 5 largest), and the
count of those whose datsim figure lies inside it.
"""
import math
import re
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_fct import BUCKETS, PCTS, pct, read_datsim, read_hpcc  # noqa: E402

MODELS = ("hpcc-ns3", "datsim")


def quantile_ci(sorted_values, p, level=0.95):
    """The distribution-free confidence interval of the p-th percentile: order statistics x_(l) <= x_(u) such that
    P(l <= B < u) >= level for B ~ Binomial(n, p/100), the count of values below the true quantile (exact binomial
    terms, summed outwards from the mode)."""
    n = len(sorted_values)
    q = p / 100
    if n == 0 or q <= 0 or q >= 1:
        return float("nan"), float("nan")

    def pmf(k):
        return math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                        + k * math.log(q) + (n - k) * math.log(1 - q))
    lo = hi = min(n, max(0, int(n * q)))
    mass = pmf(lo)
    while mass < level and (lo > 0 or hi < n):
        down = pmf(lo - 1) if lo > 0 else -1
        up = pmf(hi + 1) if hi < n else -1
        if up >= down:
            hi += 1
            mass += up
        else:
            lo -= 1
            mass += down
    # B in [lo, hi]: the quantile lies between the (lo)-th and (hi+1)-th smallest values (1-based), clamped
    return sorted_values[max(0, lo - 1)], sorted_values[min(n - 1, hi)]


def ratios(hpcc, datsim):
    out = {b[0]: [] for b in BUCKETS}
    for key, hl in hpcc.items():
        bucket = next(b[0] for b in BUCKETS if b[1] <= key[2] < b[2])
        if datsim is None:
            out[bucket] += [fct / st for _, fct, st in hl]
            continue
        for (_, _, st), (_, dfct) in zip(hl, datsim.get(key, [])):
            if dfct is not None:
                out[bucket].append(dfct / 1000 / st)
    return {k: sorted(v) for k, v in out.items()}


def main(argv):
    min_flows = 100
    if "--min-flows" in argv:
        i = argv.index("--min-flows")
        min_flows = int(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    out = argv[0]
    if not os.path.isdir(os.path.join(out, "hpcc")):
        print(f"matrix_table: {out}/hpcc is not a directory (OUT_DIR is matrix.sh's output directory)", file=sys.stderr)
        sys.exit(2)
    names = os.listdir(os.path.join(out, "hpcc"))
    runs = sorted(f[:-4] for f in names if f.endswith(".fct") and not re.search(r"-r[0-9]+\.fct$", f))
    within_hpcc = 0
    within_ci = 0
    order = {"dcqcn": 0, "hp": 1, "dctcp": 2, "timely": 3}
    runs.sort(key=lambda r: (r.split("-")[1][:-2], r.split("-")[1][-2:], order.get(r.split("-")[0], 9)))
    print("| run | bucket | flows | HPCC p50 / p95 / p99 | hpcc-ns3 vs HPCC | datsim vs HPCC |")
    print("|---|---|---:|---|---|---|")
    within = total = 0
    outside = []
    perflow = []
    for run in runs:
        h = read_hpcc(os.path.join(out, "hpcc", run + ".fct"))
        hr = ratios(h, None)
        models = {}
        for m in MODELS:
            f = os.path.join(out, "datsim", f"{m}-{run}", "fct.csv")
            models[m] = ratios(h, read_datsim(f)) if os.path.exists(f) else None
        f = os.path.join(out, "datsim", f"hpcc-ns3-{run}", "fct.csv")
        if os.path.exists(f):
            d = read_datsim(f)
            r = sorted(df / 1000 / hf for key, hl in h.items() for (_, hf, _), (_, df) in zip(hl, d.get(key, []))
                       if df is not None)
            if r:
                share = lambda t: 100 * sum(1 for x in r if abs(x - 1) <= t) / len(r)  # noqa: E731
                perflow.append(f"| {run} | {len(r)} | {r[len(r) // 2]:.3f} | {share(0.01):.0f}% | {share(0.05):.0f}% |"
                               f" {share(0.20):.0f}% |")
        hseeds = [ratios(read_hpcc(os.path.join(out, "hpcc", f)), None) for f in sorted(names)
                  if re.fullmatch(re.escape(run) + r"-r[0-9]+\.fct", f)]
        seeds = []
        for d in sorted(os.listdir(os.path.join(out, "datsim"))):
            if d.startswith(f"hpcc-ns3-{run}-s") and os.path.exists(os.path.join(out, "datsim", d, "fct.csv")):
                seeds.append(ratios(h, read_datsim(os.path.join(out, "datsim", d, "fct.csv"))))
        for b in BUCKETS:
            name = b[0]
            hv = hr[name]
            if not hv:
                continue
            hp = [pct(hv, p) for p in PCTS]
            cells = []
            for m in MODELS:
                if models[m] is None:
                    cells.append("")
                    continue
                dp = [pct(models[m][name], p) for p in PCTS]
                cells.append(" / ".join(f"{(d / x - 1) * 100:+.0f}%" for d, x in zip(dp, hp)))
                if m == "hpcc-ns3" and len(hv) >= min_flows:
                    for p, d, x in zip(PCTS, dp, hp):
                        total += 1
                        if abs(d / x - 1) <= 0.10:
                            within += 1
                        else:
                            spread = [pct(s[name], p) for s in seeds]
                            rng = (f"; seeds {min(spread + [d]):.2f}-{max(spread + [d]):.2f}" if spread else "")
                            hspread = [pct(s[name], p) for s in hseeds] + [x]
                            if len(hspread) > 1:
                                rng += f"; HPCC's run numbers {min(hspread):.2f}-{max(hspread):.2f}"
                                if min(hspread) <= d <= max(hspread):
                                    within_hpcc += 1
                                    rng += ": datsim within HPCC's own range"
                            lo, hi = quantile_ci(hv, p)
                            rng += f"; HPCC's 95% CI {lo:.2f}-{hi:.2f}"
                            if lo <= d <= hi:
                                within_ci += 1
                                rng += ": datsim inside"
                            outside.append(f"{run} {name} p{p}: HPCC {x:.2f}, datsim {d:.2f} "
                                           f"({(d / x - 1) * 100:+.1f}%{rng})")
            star = "" if len(hv) >= min_flows else "*"
            print(f"| {run} | {name}{star} | {len(hv)} | {' / '.join(f'{x:.2f}' for x in hp)} | {cells[0]} |"
                  f" {cells[1]} |")
    print()
    print(f"hpcc-ns3: {within} of {total} cells (p50, p95, p99 of buckets with >= {min_flows} flows) within 10% of"
          f" HPCC's simulator.")
    for o in outside:
        print(f"- {o}")
    if outside:
        print(f"Of the {len(outside)} outside, {within_ci} lie within the 95% confidence interval of HPCC's own quantile"
              f" (order statistics of its flows in that bucket: how far a tail drawn from that many flows is"
              f" determined).")
    if within_hpcc:
        print(f"Of the {len(outside)} outside, {within_hpcc} lie within the range HPCC's own figure spans over its ns-3"
              f" run numbers (its ECN marks drawn anew).")
    if perflow:
        print()
        print("Flow by flow (hpcc-ns3): datsim's FCT over HPCC's for the same flow.")
        print()
        print("| run | flows | median | within 1% | within 5% | within 20% |")
        print("|---|---:|---:|---:|---:|---:|")
        for line in perflow:
            print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
