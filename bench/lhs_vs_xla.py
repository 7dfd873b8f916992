#!/usr/bin/env python3
"""The latency-hiding scheduler against XLA's, side by side, and its cost
at 1k / 10k / 100k instructions.

Schedules: modules whose collectives can overlap compute
(`gen_collectives.py`: a data-parallel training step with one all-reduce
per weight gradient, an FSDP forward with one all-gather per layer) go
through XLA's GPU compiler (the xla-oracle tool, H100, deviceless, Triton
GEMMs off) and through ours (`hlo-opt --hlo-gpu-optimize`, with and without
`hlo-latency-hiding-scheduler`). Each optimized, scheduled module is then
measured by one measure, ours: `hlo-opt --hlo-test-print-schedule-time`
(GpuLatencyEstimator's forward simulation of the ENTRY order: the GPU
performance model for kernels, 5 us + bytes / 300 GB/s per transfer, one
collective in flight). Columns: estimated time (us) and time waited at
dones; the ratio is ours / XLA's estimated time.

Scaling: `dp` modules of about N instructions (layers of width 64) through
`hlo-gpu-async-collective-conversion`, `hlo-memory-scheduler` and
`hlo-latency-hiding-scheduler`; the last one's own time (--mlir-timing).

Usage: lhs_vs_xla.py --bin build/bin [--sizes 1000,10000,100000]
       [--no-xla] [--markdown]
"""

import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_util import (oracle_python, scaling_parser, scaling_table,  # noqa: E402
                        table, time_pass)
from gen_collectives import dp, fsdp  # noqa: E402
from pipeline_vs_xla import ORACLE  # noqa: E402

MODULES = {
    "dp 4x4096": lambda: dp(4, 4096, 4096, 2),
    "dp 8x2048": lambda: dp(8, 2048, 8192, 8),
    "fsdp 4x4096": lambda: fsdp(4, 4096, 4096, 2),
    "fsdp 8x8192": lambda: fsdp(8, 8192, 2048, 8),
}


def schedule_time(opt, path):
    r = subprocess.run([opt, str(path), "--hlo-test-print-schedule-time",
                        "-o", "/dev/null"], capture_output=True, text=True,
                       check=True)
    for line in r.stdout.splitlines():
        m = re.search(r"makespan=([0-9.e+]+) exposed=([0-9.e+]+) pairs=(\d+)",
                      line)
        if m:  # ENTRY comes last in both exports
            last = (float(m.group(1)), float(m.group(2)), int(m.group(3)))
    return last


def ours(opt, src, tmp, name, lhs):
    out = Path(tmp) / f"{name}.ours.{lhs}.hlo"
    subprocess.run([opt, str(src),
                    f"--pass-pipeline=builtin.module(hlo-gpu-optimize"
                    f"{{latency-hiding={str(lhs).lower()}}})",
                    "--output-format=hlo", "-o", str(out)], check=True)
    return schedule_time(opt, out)


def xla(opt, src, tmp, name):
    out = Path(tmp) / f"{name}.xla"
    r = subprocess.run([oracle_python(), str(ORACLE), str(src), "-o", str(out),
                        "--opt", "xla_gpu_enable_triton_gemm=false"],
                       capture_output=True, text=True)
    if r.returncode:
        print(r.stderr[-2000:], file=sys.stderr)
        return None
    return schedule_time(opt, out / "optimized_hlo.txt")


def scaling(opt, sizes, repeat):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            layers = max(1, size // 14)
            src = Path(tmp) / f"dp{size}.hlo"
            src.write_text(dp(layers, 64, 64, 2))
            n = sum(1 for line in src.read_text().splitlines()
                    if " = " in line)
            cmd = [opt, str(src), "--hlo-gpu-async-collective-conversion",
                   "--hlo-memory-scheduler", "--hlo-latency-hiding-scheduler",
                   "--mlir-timing", "-o", "/dev/null"]
            ms = time_pass(cmd, "HloLatencyHidingScheduler", repeat)
            rows.append([n, ms])
    return rows


def main():
    ap = scaling_parser(__doc__.splitlines()[0])
    ap.add_argument("--no-xla", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    opt = str(Path(args.bin) / "hlo-opt")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in MODULES.items():
            stem = name.replace(" ", "_")
            src = Path(tmp) / f"{stem}.hlo"
            src.write_text(make())
            with_lhs = ours(opt, src, tmp, stem, True)
            without = ours(opt, src, tmp, stem, False)
            theirs = None if args.no_xla else xla(opt, src, tmp, stem)
            cell = lambda t: f"{t[0]:.0f} / {t[1]:.0f}" if t else "-"  # noqa
            ratio = f"{with_lhs[0] / theirs[0]:.3f}" if theirs else "-"
            rows.append([name, cell(theirs), cell(with_lhs), cell(without),
                         ratio])
    print(table(["module", "XLA us / waited", "ours us / waited",
                 "ours without LHS", "ours / XLA"], rows, args.markdown))
    print()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    print(scaling_table(["hlo-latency-hiding-scheduler"],
                        scaling(opt, sizes, args.repeat)))


if __name__ == "__main__":
    main()
