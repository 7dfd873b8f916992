#!/usr/bin/env python3
"""Indexing maps of large fusions: cost, its growth, and the ratio to import.

  python3 bench/indexing_bench.py --bench build/bin/hlo-indexing-bench \
      [--sizes 100,300,1000,3000] [--kinds elementwise,reshape,softmax] \
      [--repeat 3] [--markdown]

For each kind and size, gen_fusion.py writes a module whose ENTRY is one
fusion of that many ops; hlo-indexing-bench imports it and computes the
fusion's output-to-input and input-to-output maps. Reported per case: import
time (our HLO importer on the same file, the in-run baseline), indexing time,
their ratio, microseconds per fused op, the number of distinct maps, and the
growth exponent k of indexing time ~ ops^k against the previous size.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", required=True)
    ap.add_argument("--sizes", default="100,300,1000,3000")
    ap.add_argument("--kinds", default="elementwise,reshape,softmax")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.kinds.split(","):
            previous = None
            for n in sizes:
                path = os.path.join(tmp, f"{kind}_{n}.hlo")
                subprocess.run([sys.executable, os.path.join(HERE, "gen_fusion.py"),
                                "--kind", kind, "--ops", str(n), "-o", path],
                               check=True)
                out = subprocess.run([args.bench, f"--repeat={args.repeat}", path],
                                     check=True, capture_output=True, text=True)
                r = json.loads(out.stdout.strip().splitlines()[-1])
                growth = ""
                if previous:
                    growth = "%.2f" % (math.log(r["indexing_s"] / previous[1]) /
                                       math.log(n / previous[0]))
                previous = (n, r["indexing_s"])
                rows.append((kind, n, r["import_s"] * 1e3, r["indexing_s"] * 1e3,
                             r["indexing_s"] / r["import_s"],
                             r["indexing_s"] * 1e6 / n, r["maps"], growth))

    head = ("kind", "fused ops", "import ms", "indexing ms", "indexing/import",
            "us/op", "maps", "growth k")
    fmt = lambda row: [row[0], str(row[1]), "%.2f" % row[2], "%.2f" % row[3],
                       "%.2fx" % row[4], "%.1f" % row[5], str(row[6]), row[7]]
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for row in rows:
            print("| " + " | ".join(fmt(row)) + " |")
    else:
        print("%-12s %9s %10s %12s %16s %8s %6s %9s" % head)
        for row in rows:
            print("%-12s %9s %10s %12s %16s %8s %6s %9s" % tuple(fmt(row)))


if __name__ == "__main__":
    main()
