#!/usr/bin/env python3
"""Time XLA's pipelines in hlo-opt (--hlo-simplification,
--hlo-optimization) on generated modules of growing size and on the largest
corpus modules, and report how the cost grows with size.

The time is the pipeline's own: the top-level passes' wall time from
`--mlir-timing` (no parsing, printing or process start-up). Per-instruction
time and its ratio to the smallest module's (goal for the largest: <= 1.5,
linear or n log n; XLA's simplification is quadratic in places, xla#7971).

Usage: pipeline_bench.py --opt build/bin/hlo-opt [--sizes 1000,10000,100000]
                         [--corpus-files A.hlo,B.hlo] [--repeat 3] [--markdown]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_hlo  # noqa: E402
from bench_util import table  # noqa: E402

PIPELINES = ["hlo-simplification", "hlo-optimization"]
CORPUS_DIR = Path(os.environ.get("HLO_CORPUS_DIR") or
                  Path(__file__).resolve().parents[2] / "shared" / "corpus" / "hlo")
DEFAULT_CORPUS = ",".join(str(CORPUS_DIR / f) for f in [
    "rocmxla__tools_data__mobilenet_v2_pytorch_xla.hlo",
    "rocmxla__cpu_bench__resnet50_keras_jax_f32.hlo"])
# `    0.0097 ( 33.8%)  HloFixedPoint`: top-level entries are indented by 4.
TIMING = re.compile(r"^ {4}([0-9.]+) \([ 0-9.]+%\)  (\S.*)$", re.M)
NOT_PASSES = {"Parser", "Output", "Rest", "Total"}
INSTRUCTION = re.compile(r"^\s*(ROOT\s+)?%?[\w.\-]+ = ", re.M)


def pipeline_time(opt, path, pipeline, repeat):
    best = None
    for _ in range(repeat):
        p = subprocess.run([opt, str(path), f"--{pipeline}", "-o", os.devnull,
                            "--mlir-timing"], capture_output=True, text=True)
        if p.returncode:
            raise RuntimeError(f"{path.name}: {p.stderr[:300]}")
        # A pipeline a pass runs (hlo-fixed-point's) is listed beside the
        # pass, its time already in the pass's.
        t = sum(float(m.group(1)) for m in TIMING.finditer(p.stderr)
                if m.group(2) not in NOT_PASSES
                and not m.group(2).endswith("Pipeline"))
        best = t if best is None else min(best, t)
    return best


def make_cases(tmp, sizes, corpus_files):
    """(label, path, instructions) per case: a module generated into `tmp`
    for each size of the comma-separated `sizes`, then each existing file of
    the comma-separated `corpus_files` (a warning for a missing one)."""
    cases = []
    for n in sorted(int(s) for s in sizes.split(",") if s.strip()):
        path = Path(tmp) / f"gen_{n}.hlo"
        path.write_text(gen_hlo.generate(n))
        cases.append((f"generated {n}", path, n))
    for f in filter(None, corpus_files.split(",")):
        path = Path(f)
        if path.exists():
            cases.append((path.stem, path,
                          len(INSTRUCTION.findall(path.read_text()))))
        else:
            print(f"warning: {f} not found", file=sys.stderr)
    return cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opt", required=True, help="path to hlo-opt")
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--corpus-files", default=DEFAULT_CORPUS, help="'' to skip")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="pipeline_bench_") as tmp:
        cases = make_cases(tmp, a.sizes, a.corpus_files)
        rows, base = [], {}
        for label, path, n in cases:
            print(f"... {label}", file=sys.stderr, flush=True)
            row = [label, n]
            for pipeline in PIPELINES:
                t = pipeline_time(a.opt, path, pipeline, a.repeat)
                per = t / n
                base.setdefault(pipeline, per)
                row += [f"{t:.3f}", f"{per * 1e6:.2f}",
                        f"{per / base[pipeline]:.2f}"]
            rows.append(row)
    head = ["case", "instrs"]
    for pipeline in PIPELINES:
        head += [f"{pipeline} (s)", "us/instr", "growth"]
    print(table(head, rows, a.markdown))
    print(f"\nmin of {a.repeat} runs; the pipeline's passes only (--mlir-timing); "
          "growth = time per instruction / that of the first row.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
