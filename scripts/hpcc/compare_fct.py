#!/usr/bin/env python3
"""Sets datsim's flow completion times beside HPCC's simulator's, flow by flow, on the same flows.

    scripts/hpcc/compare_fct.py HPCC_FCT_FILE LABEL=DATSIM_FCT_CSV [LABEL=DATSIM_FCT_CSV ...] [--min-flows N] [--md]

HPCC_FCT_FILE is the FCT output of HPCC's simulator (third.cc's qp_finish: `sip dip sport dport size_bytes start_ns
fct_ns standalone_fct_ns`, IPs 0x0b000001 + (node << 8)); each DATSIM_FCT_CSV a datsim fct.csv of the same flow file
(`datsim bench hpcc --flows ...`). Flows are matched by (source, destination, size) in start order. Every FCT, both
simulators', is divided by HPCC's standalone_fct of that flow (its formula: the pair's base RTT plus the bytes with
its 48-byte headers at the bottleneck rate), so the ratios are on one scale. Prints, per size bucket (datsim's: <10KB,
10KB-100KB, 100KB-1MB, >1MB), the flows matched and p50/p95/p99 (nearest rank) for HPCC and each datsim run, and each
datsim figure's difference from HPCC's in percent. A bucket with fewer than --min-flows flows (default 100) is marked
with '*' (its tail percentiles rest on a handful of flows). Exit 2 on a missing file or an unreadable line.
"""
import csv
import math
import sys

BUCKETS = [("<10KB", 0, 10_000), ("10KB-100KB", 10_000, 100_000), ("100KB-1MB", 100_000, 1_000_000),
           (">1MB", 1_000_000, 1 << 62)]
PCTS = (50, 95, 99)


def fail(msg):
    print("compare_fct: " + msg, file=sys.stderr)
    sys.exit(2)


def node(ip_hex):
    return (int(ip_hex, 16) - 0x0B000001) >> 8


def read_hpcc(path):
    flows = {}
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                p = line.split()
                if not p:
                    continue
                if len(p) != 8:
                    fail(f"{path}:{n}: expected 8 fields, found {len(p)}")
                try:
                    src, dst, size = node(p[0]), node(p[1]), int(p[4])
                    start, fct, standalone = int(p[5]), int(p[6]), int(p[7])
                except ValueError as e:
                    fail(f"{path}:{n}: {e}")
                flows.setdefault((src, dst, size), []).append((start, fct, standalone))
    except OSError as e:
        fail(str(e))
    for v in flows.values():
        v.sort()
    return flows


def read_datsim(path):
    flows = {}
    try:
        with open(path, newline="") as f:
            for n, row in enumerate(csv.DictReader(f), 2):
                try:
                    src, dst = int(row["src"].lstrip("h")), int(row["dst"].lstrip("h"))
                    size, start = int(row["size_bytes"]), int(row["start_ps"])
                    fct = int(row["fct_ps"]) if row["fct_ps"] else None
                except (KeyError, ValueError) as e:
                    fail(f"{path}:{n}: {e}")
                flows.setdefault((src, dst, size), []).append((start, fct))
    except OSError as e:
        fail(str(e))
    for v in flows.values():
        v.sort()
    return flows


def pct(sorted_values, p):
    if not sorted_values:
        return float("nan")
    k = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[k - 1]


def main(argv):
    md = "--md" in argv
    argv = [a for a in argv if a != "--md"]
    min_flows = 100
    if "--min-flows" in argv:
        i = argv.index("--min-flows")
        min_flows = int(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) < 2 or any("=" not in a for a in argv[1:]):
        fail("usage: compare_fct.py HPCC_FCT_FILE LABEL=DATSIM_FCT_CSV ... [--min-flows N] [--md]")
    hpcc = read_hpcc(argv[0])
    runs = [(a.split("=", 1)[0], read_datsim(a.split("=", 1)[1])) for a in argv[1:]]
    # ratios[label][bucket] = list of fct / standalone
    ratios = {"hpcc": {b[0]: [] for b in BUCKETS}}
    for label, _ in runs:
        ratios[label] = {b[0]: [] for b in BUCKETS}
    unmatched = {label: 0 for label, _ in runs}
    for key, hl in hpcc.items():
        bucket = next(b[0] for b in BUCKETS if b[1] <= key[2] < b[2])
        for _, fct, standalone in hl:
            ratios["hpcc"][bucket].append(fct / standalone)
        for label, d in runs:
            dl = d.get(key, [])
            if len(dl) != len(hl):
                unmatched[label] += abs(len(dl) - len(hl))
            for (hstart, _, standalone), (dstart, dfct) in zip(hl, dl):
                if dfct is None:
                    unmatched[label] += 1
                    continue
                ratios[label][bucket].append(dfct / 1000 / standalone)
    labels = ["hpcc"] + [label for label, _ in runs]
    head = ["bucket", "flows"] + [f"{l} p{p}" for l in labels for p in PCTS] \
        + [f"{l} vs hpcc p{p}" for l in labels[1:] for p in PCTS]
    rows = []
    for b in BUCKETS:
        name = b[0]
        hv = sorted(ratios["hpcc"][name])
        if not hv:
            continue
        row = [name + ("*" if len(hv) < min_flows else ""), str(len(hv))]
        figs = {}
        for l in labels:
            v = sorted(ratios[l][name])
            figs[l] = [pct(v, p) for p in PCTS]
            row += [f"{x:.3f}" for x in figs[l]]
        for l in labels[1:]:
            row += [f"{(d / h - 1) * 100:+.1f}%" for d, h in zip(figs[l], figs["hpcc"])]
        rows.append(row)
    if md:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        print("\t".join(head))
        for r in rows:
            print("\t".join(r))
    for label, n in unmatched.items():
        if n:
            print(f"compare_fct: {label}: {n} flows of HPCC's output unmatched or unfinished in datsim's",
                  file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
