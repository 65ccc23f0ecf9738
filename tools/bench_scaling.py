#!/usr/bin/env python3
"""The scaling table of a `make bench THREADS=1,2,4,8,16` run, from its CSV (build/<cc>/bench.csv).

    tools/bench_scaling.py build/gcc/bench.csv [PEER]   (PEER: the peer shown beside ours, default onednn)

One line per bench row (case, shape, dtype): our time at one thread, then at every thread count
our speedup over our own one-thread time, the copy limit's speedup at the same count (the copy of
the same compulsory bytes: what memory lets any kernel reach), our efficiency against that copy,
and the peer's speedup and its time over ours, where the peer measured the row. Standard library
only. A row without a one-thread time is skipped."""
import csv
import sys


def fmt(x, digits=2):
    return "–" if x is None else f"{x:.{digits}f}"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    peer = sys.argv[2] if len(sys.argv) > 2 else "onednn"
    rows = {}
    order = []
    with open(sys.argv[1], newline="") as f:
        for r in csv.DictReader(f):
            key = (r["case"], r["shape"], r["dtype"])
            if key not in rows:
                rows[key] = {}
                order.append(key)
            peers = dict(p.split("=") for p in r["peers"].split(";") if "=" in p)
            rows[key][int(r["threads"])] = {
                "ns": float(r["ns_per_elem"]),
                "copy": float(r["copy_ns_per_elem"]) if r["copy_ns_per_elem"] else None,
                "peer": float(peers[peer]) if peer in peers else None,
            }
    counts = sorted({t for v in rows.values() for t in v})
    multi = [t for t in counts if t > 1]
    head = ["case", "shape", "dtype", "ns 1 thr"]
    head += [f"x{t}" for t in multi] + [f"copy x{t}" for t in multi]
    head += [f"eff {counts[-1]}", f"{peer} x{counts[-1]}", f"{peer}/ours {counts[-1]}"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for key in order:
        by = rows[key]
        if 1 not in by:
            continue
        one = by[1]
        line = [key[0], key[1], key[2], fmt(one["ns"], 3)]
        line += [fmt(one["ns"] / by[t]["ns"], 1) if t in by else "–" for t in multi]
        line += [fmt(one["copy"] / by[t]["copy"], 1) if t in by and one["copy"] and by[t]["copy"] else "–"
                 for t in multi]
        top = by.get(counts[-1])
        line.append(fmt(top["copy"] / top["ns"]) if top and top["copy"] else "–")
        line.append(fmt(one["peer"] / top["peer"], 1) if top and one["peer"] and top["peer"] else "–")
        line.append(fmt(top["peer"] / top["ns"]) if top and top["peer"] else "–")
        print("| " + " | ".join(line) + " |")


if __name__ == "__main__":
    main()
