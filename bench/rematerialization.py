#!/usr/bin/env python3
"""What hlo-rematerialization saves, and how its time grows with size.

1. For a few corpus modules, `hlo-opt --hlo-gpu-optimize` with
   `--hlo-memory-limit` at 90%, 75% and 50% of the module's peak (XLA's
   measure, read from the pass's remark in a first run at a 1-byte limit,
   which also shows how far rematerialization can go): the peak before and
   after, the instructions cloned (of which moves; negative: clones undone
   because the peak did not drop), the limit met or not, and the temp
   allocation of the buffer assignment that follows.
2. On the chains of layer-norm blocks of fusion_passes_scaling.py (fused by
   priority fusion, scheduled), the pass's own wall time (--mlir-timing) at
   1k, 10k and 100k instructions, under a limit of 50% of the peak and of
   1 byte (over the limit everywhere: the most work), per 1000 instructions.

Usage: rematerialization.py --bin build/bin [--corpus ../shared/corpus/hlo]
                            [--sizes 1000,10000,100000]
"""

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fusion_passes_scaling import module  # noqa: E402

MODULES = [
    "rocmxla__cpu_bench__resnet50_keras_jax_f32.hlo",
    "rocmxla__tools_data__mobilenet_v2_pytorch_xla.hlo",
    "tfxla__cpu_bench__diffrax_b380012920.hlo",
    "tfxla__cpu_bench__depthwise_conv_3x3_bf16.hlo",
]
REMARK = re.compile(r"remark: rematerialization: peak memory (\d+)"
                    r"(?: -> (\d+))? bytes \(limit (\d+)\)[,:] "
                    r"(?:(\d+) instructions rematerialized \((\d+) moved\))?"
                    r"(?:(\d+) rematerializations raised it)?")
TEMP = re.compile(r"Temp bytes: (\d+)")
TIMING = re.compile(r"^\s*([\d.]+) .*HloRematerialization\s*$", re.M)


def remat(opt, src, args):
    """Runs hlo-opt; returns (before, after, cloned, moved, stderr)."""
    r = subprocess.run([opt, str(src), *args,
                        "--mlir-print-op-on-diagnostic=false",
                        "-o", "/dev/null"],
                       capture_output=True, text=True, check=True)
    m = REMARK.search(r.stderr)
    if not m:
        return None, None, 0, 0, r.stderr
    before = int(m.group(1))
    after = int(m.group(2)) if m.group(2) else before
    # Undone clones (the peak did not drop) count as negative.
    cloned = int(m.group(4) or 0) - int(m.group(6) or 0)
    return before, after, cloned, int(m.group(5) or 0), r.stderr


def corpus_table(opt, corpus, tmp):
    print("| module | limit | peak before | peak after | cloned (moves) "
          "| met | temp bytes |")
    print("|---|---:|---:|---:|---:|---|---:|")
    for name in MODULES:
        src = Path(corpus) / name
        if not src.exists():
            continue
        dump = Path(tmp) / "ba.txt"
        peak, lowest, cloned, moved, _ = remat(
            opt, src, ["--hlo-gpu-optimize", "--hlo-memory-limit=1"])
        if peak is None:
            continue
        print(f"| {name} | 1 B | {peak} | {lowest} | {cloned} ({moved}) "
              f"| no | |", flush=True)
        for pct in (100, 90, 75, 50):
            limit = peak * pct // 100
            _, after, cloned, moved, _ = remat(
                opt, src, ["--hlo-gpu-optimize",
                           f"--hlo-memory-limit={limit}",
                           f"--hlo-dump-buffer-assignment=file={dump}"])
            temp = TEMP.search(dump.read_text())
            after = peak if after is None else after
            print(f"| | {pct}% | {peak} | {after} | {cloned} ({moved}) "
                  f"| {'yes' if after <= limit else 'no'} "
                  f"| {temp.group(1) if temp else '?'} |", flush=True)


def scaling_table(opt, sizes, tmp):
    print()
    print("| instructions | peak | time at 50% | per 1k | time at 1 B "
          "| per 1k | cloned at 1 B (-: undone) |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for size in sizes:
        src = Path(tmp) / f"ln{size}.hlo"
        src.write_text(module(max(1, size // 25)))
        sched = Path(tmp) / f"ln{size}.sched.hlo"
        subprocess.run([opt, str(src), "--hlo-priority-fusion",
                        "--hlo-memory-scheduler", "--output-format=hlo",
                        "-o", str(sched)], check=True)
        cells = []
        peak, cloned = None, 0
        for limit in ("half", "1"):
            if limit == "half":
                peak, *_ = remat(opt, sched,
                                 ["--hlo-rematerialization=memory-limit=1"])
                value = peak // 2
            else:
                value = 1
            _, _, n, _, err = remat(
                opt, sched, [f"--hlo-rematerialization=memory-limit={value}",
                             "--mlir-timing"])
            cloned = n
            ms = float(TIMING.search(err).group(1)) * 1000
            cells += [f"{ms:.0f} ms", f"{ms / size * 1000:.1f} ms"]
        print(f"| {size} | {peak} | " + " | ".join(cells) + f" | {cloned} |",
              flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--corpus", default="../shared/corpus/hlo")
    ap.add_argument("--sizes", default="1000,10000,100000")
    args = ap.parse_args()
    opt = str(Path(args.bin) / "hlo-opt")
    with tempfile.TemporaryDirectory() as tmp:
        corpus_table(opt, args.corpus, tmp)
        scaling_table(opt, [int(s) for s in args.sizes.split(",")], tmp)


if __name__ == "__main__":
    main()
