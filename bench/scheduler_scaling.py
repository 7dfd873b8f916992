#!/usr/bin/env python3
"""How hlo-memory-scheduler scales with module size, and what it saves.

Two generated modules per size (parsing and printing excluded, the pass's
own wall time from --mlir-timing):
- ln: the chain of layer-norm blocks of fusion_passes_scaling.py (25
  instructions each), unfused;
- interleaved: 16 independent chains (broadcast, then elementwise ops on
  f32[4096], then a reduce to a scalar), written round-robin so that the
  program order holds every chain's temporaries at once.
For each it times the pass with each algorithm (default runs all three) and
prints the temporaries' lower bound (the peak of live bytes of the temporary
buffers, hlo-dump-buffer-assignment) before and after the default schedule.

Usage: scheduler_scaling.py --bin build/bin [--sizes 1000,10000,100000]
"""

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fusion_passes_scaling import module as ln_module  # noqa: E402

ALGORITHMS = ["default", "list", "dfs", "post-order"]
OPS = ["exponential", "negate", "tanh", "abs", "sqrt", "log"]


def interleaved(size, chains=16):
    length = max(1, size // chains - 2)
    lines = ["HloModule interleaved", "", "add {", "  a = f32[] parameter(0)",
             "  b = f32[] parameter(1)", "  ROOT s = f32[] add(a, b)", "}", "",
             "ENTRY main {", "  p = f32[] parameter(0)",
             "  zero = f32[] constant(0)"]
    for c in range(chains):
        lines.append(f"  c{c}_0 = f32[4096] broadcast(p), dimensions={{}}")
    for k in range(1, length):
        for c in range(chains):
            op = OPS[(k + c) % len(OPS)]
            lines.append(f"  c{c}_{k} = f32[4096] {op}(c{c}_{k - 1})")
    for c in range(chains):
        lines.append(f"  r{c} = f32[] reduce(c{c}_{length - 1}, zero), "
                     "dimensions={0}, to_apply=add")
    acc = "r0"
    for c in range(1, chains):
        lines.append(f"  s{c} = f32[] add({acc}, r{c})")
        acc = f"s{c}"
    lines.append(f"  ROOT out = f32[] copy({acc})")
    lines.append("}")
    return "\n".join(lines) + "\n"


def timed(opt, src, pipeline):
    r = subprocess.run([opt, str(src), *pipeline, "--mlir-timing",
                        "-o", "/dev/null"], capture_output=True, text=True,
                       check=True)
    for line in r.stderr.splitlines():
        if "HloMemoryScheduler" in line:
            return float(line.split()[0]) * 1000
    print(r.stderr, file=sys.stderr)
    return float("nan")


def lower_bound(opt, src, schedule):
    passes = (["--hlo-memory-scheduler"] if schedule else []) + [
        "--hlo-buffer-assignment=check=false",
        "--hlo-dump-buffer-assignment=file=-"]
    r = subprocess.run([opt, str(src), *passes, "-o", "/dev/null"],
                       capture_output=True, text=True, check=True)
    m = re.search(r"lower bound (\d+)", r.stdout)
    return int(m.group(1)) if m else -1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--sizes", default="1000,10000,100000")
    args = ap.parse_args()
    opt = str(Path(args.bin) / "hlo-opt")
    sizes = [int(s) for s in args.sizes.split(",")]
    print("| module | instructions | " + " | ".join(ALGORITHMS) +
          " | temp lower bound before -> after |")
    print("|---" * (len(ALGORITHMS) + 3) + "|")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ["ln", "interleaved"]:
            for size in sizes:
                text = (ln_module(max(1, size // 25)) if kind == "ln" else
                        interleaved(size))
                src = Path(tmp) / f"{kind}{size}.hlo"
                src.write_text(text)
                cells = []
                for alg in ALGORITHMS:
                    ms = timed(opt, src, [f"--hlo-memory-scheduler=algorithm={alg}"])
                    cells.append(f"{ms:.1f} ms ({ms / size * 1000:.2f}/1k)")
                before = lower_bound(opt, src, False)
                after = lower_bound(opt, src, True)
                print(f"| {kind} | {size} | " + " | ".join(cells) +
                      f" | {before} -> {after} |", flush=True)


if __name__ == "__main__":
    main()
