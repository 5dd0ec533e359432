#!/usr/bin/env python3
"""Writes topologies in HPCC's format (third.cc's TOPOLOGY_FILE) for held-out runs of the validation matrix.

    scripts/hpcc/topology.py rates FILE HOST_RATE UP_RATE [DELAY]   HPCC's fat.txt (or any file) with every host link
        at HOST_RATE and every other link at UP_RATE (and every delay DELAY, if given), e.g. `rates fat.txt 25Gbps
        100Gbps` for HPCC's fat-tree at 25 Gb/s host links;
    scripts/hpcc/topology.py leafspine LEAVES HOSTS_PER_LEAF SPINES HOST_RATE UP_RATE DELAY   a two-tier leaf-spine:
        hosts 0..N-1 (N = LEAVES x HOSTS_PER_LEAF), then the leaves, then the spines; every leaf linked once to every
        spine, e.g. `leafspine 8 16 2 100Gbps 400Gbps 2000ns` (128 hosts, 2:1 oversubscribed).

The file goes to standard output: first line nodes, switches, links; second line the switch numbers; then one line
per link `a b rate delay error_rate`.
"""
import sys


def rates(path, host_rate, up_rate, delay=None):
    with open(path) as f:
        lines = [l.split() for l in f if l.strip()]
    nodes, switches, links = (int(x) for x in lines[0][:3])
    sw = set(int(x) for x in lines[1])
    out = [" ".join(lines[0]), " ".join(lines[1])]
    for a, b, rate, d, err in (l[:5] for l in lines[2:2 + links]):
        host = int(a) not in sw or int(b) not in sw
        out.append(f"{a} {b} {host_rate if host else up_rate} {delay or d} {err}")
    return out


def leafspine(leaves, per_leaf, spines, host_rate, up_rate, delay):
    hosts = leaves * per_leaf
    leaf = [hosts + i for i in range(leaves)]
    spine = [hosts + leaves + i for i in range(spines)]
    links = [f"{h} {leaf[h // per_leaf]} {host_rate} {delay} 0.000000" for h in range(hosts)]
    links += [f"{l} {s} {up_rate} {delay} 0.000000" for l in leaf for s in spine]
    return [f"{hosts + leaves + spines} {leaves + spines} {len(links)}", " ".join(str(x) for x in leaf + spine)] + links


def main(argv):
    if len(argv) >= 4 and argv[0] == "rates":
        out = rates(*argv[1:5])
    elif len(argv) == 7 and argv[0] == "leafspine":
        out = leafspine(int(argv[1]), int(argv[2]), int(argv[3]), argv[4], argv[5], argv[6])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1:])
