#!/usr/bin/env python3
"""How scheduling, copy insertion and buffer assignment scale with size.

On the chains of layer-norm blocks of fusion_passes_scaling.py (25
instructions each), fused by priority fusion, one hlo-opt run of
`--hlo-memory-scheduler --hlo-gpu-copy-insertion --hlo-buffer-assignment`
(dataflow, alias analysis, live ranges, heap simulator and the independent
check inside the last) with --mlir-timing: each pass's own wall time, and
per 1000 instructions, so that the growth along a column shows.

Usage: buffer_assignment_scaling.py --bin build/bin [--sizes 1000,10000,100000]
"""

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fusion_passes_scaling import module  # noqa: E402

PASSES = {"hlo-memory-scheduler": "HloMemoryScheduler",
          "hlo-gpu-copy-insertion": "CopyInsertion",
          "hlo-buffer-assignment": "BufferAssignment"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--sizes", default="1000,10000,100000")
    args = ap.parse_args()
    opt = str(Path(args.bin) / "hlo-opt")
    print("| instructions | " + " | ".join(PASSES) + " |")
    print("|---" * (len(PASSES) + 1) + "|")
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            src = Path(tmp) / f"ln{size}.hlo"
            src.write_text(module(max(1, size // 25)))
            fused = Path(tmp) / f"ln{size}.fused.hlo"
            subprocess.run([opt, str(src), "--hlo-priority-fusion",
                            "--output-format=hlo", "-o", str(fused)],
                           check=True)
            r = subprocess.run([opt, str(fused), *(f"--{p}" for p in PASSES),
                                "--mlir-timing", "-o", "/dev/null"],
                               capture_output=True, text=True, check=True)
            cells = []
            for name in PASSES.values():
                ms = next((float(line.split()[0]) * 1000
                           for line in r.stderr.splitlines()
                           if line.rstrip().endswith(name)), float("nan"))
                cells.append(f"{ms:.1f} ms ({ms / size * 1000:.2f}/1k)")
            print(f"| {size} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
