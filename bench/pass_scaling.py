#!/usr/bin/env python3
"""How every pass scales with module size, each pass alone.

For each size N of --sizes, generates a module of N instructions
(gen_hlo.py: dense layers with dots, reductions, calls, transposes) and
the same module after `--hlo-gpu-optimize` (scheduled, fused, buffer
assigned: the input of the passes that run after XLA's HLO pipeline, such as
hlo-to-gpu and hlo-to-thunk). Then every pass hlo-opt registers runs alone
on both forms, one process each, with --mlir-timing; the pass's time is the
report's total less parsing and printing (so it includes the verifier runs
the pass triggers). A pass that refuses a form (a precondition) gets `-`.

Prints, per pass and form, the milliseconds at each size and the growth:
the time per instruction at the largest size over that at the previous
size (1.00 = linear, n log n from 10k to 100k is about 1.25; the brief's
goal is linear or n log n). A growth above --flag (default 1.5) whose time
at the largest size is at least --min-ms (default 50) is marked `!`:
something super-linear. Exits 1 if any pass is marked.

  python3 bench/pass_scaling.py --opt build/bin/hlo-opt \\
      [--sizes 1000,10000,100000] [--passes a,b] [--repeat 1] [--markdown]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fuzz"))
from bench_util import table  # noqa: E402
from pass_sweep import SKIP, list_passes  # noqa: E402

GEN = Path(__file__).resolve().parent / "gen_hlo.py"
NOT_THE_PASS = ("Parser", "Output", "Total")


def pass_ms(opt, module, pass_name, timeout, repeat):
    """The fastest of `repeat` runs of `pass_name` alone on `module`, in ms
    (the timing report's total less parsing and printing); None if the pass
    fails or runs past `timeout`."""
    best = None
    for _ in range(repeat):
        cmd = [opt, module, "--" + pass_name, "--mlir-timing", "-o",
               os.devnull]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True,
                               errors="replace", timeout=timeout)
        except subprocess.TimeoutExpired:
            return "timeout"
        if r.returncode:
            return None
        rows = dict((m.group(2), float(m.group(1))) for m in re.finditer(
            r"^\s+([0-9.]+) \(\s*[0-9.]+%\)\s+(\S+)\s*$", r.stderr, re.M))
        if "Total" not in rows:
            return None
        ms = 1000 * (rows["Total"] - sum(rows.get(k, 0)
                                         for k in NOT_THE_PASS[:2]))
        best = ms if best is None else min(best, ms)
    return best


def make_inputs(opt, sizes, workdir):
    """(form, size) -> module path: the generated module and the same after
    --hlo-gpu-optimize."""
    inputs = {}
    for n in sizes:
        pre = os.path.join(workdir, f"gen{n}.hlo")
        subprocess.run([sys.executable, str(GEN), "--instructions", str(n),
                        "-o", pre], check=True)
        post = os.path.join(workdir, f"gen{n}.optimized.mlir")
        subprocess.run([opt, pre, "--hlo-gpu-optimize", "-o", post],
                       check=True)
        inputs[("hlo", n)] = pre
        inputs[("optimized", n)] = post
    return inputs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opt", default="build/bin/hlo-opt")
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--passes", help="comma-separated (default: all)")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--flag", type=float, default=1.5)
    ap.add_argument("--min-ms", type=float, default=50)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()

    sizes = [int(s) for s in args.sizes.split(",")]
    passes = (args.passes.split(",") if args.passes
              else [p for p in list_passes(args.opt) if p not in SKIP])
    rows, flagged = [], []
    with tempfile.TemporaryDirectory() as workdir:
        inputs = make_inputs(args.opt, sizes, workdir)
        for p in passes:
            for form in ("hlo", "optimized"):
                times = []
                for n in sizes:
                    t = pass_ms(args.opt, inputs[(form, n)], p, args.timeout,
                                args.repeat)
                    times.append(t)
                    if not isinstance(t, float):
                        break
                if not isinstance(times[0], float):
                    continue  # the pass does not take this form
                times += [None] * (len(sizes) - len(times))
                cells = [("-" if t is None else t if isinstance(t, str)
                          else f"{t:.1f}") for t in times]
                growth, mark = "-", ""
                if len(sizes) > 1 and all(isinstance(t, float)
                                          for t in times[-2:]):
                    prev, last = times[-2], times[-1]
                    g = (last / sizes[-1]) / max(prev / sizes[-2], 1e-9)
                    growth = f"{g:.2f}"
                    if g > args.flag and last >= args.min_ms:
                        mark = "!"
                if any(t == "timeout" for t in times):
                    mark = "!"
                if mark:
                    flagged.append(f"{p} ({form})")
                rows.append([p, form, *cells, growth + mark])
                print(f"{p} {form} {' '.join(cells)} {growth}{mark}",
                      file=sys.stderr, flush=True)
    head = ["pass", "input", *(f"ms at {n}" for n in sizes),
            f"growth {sizes[-2] if len(sizes) > 1 else ''}->{sizes[-1]}"]
    print(table(head, rows, args.markdown))
    if flagged:
        print("\nsuper-linear: " + ", ".join(flagged))
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
