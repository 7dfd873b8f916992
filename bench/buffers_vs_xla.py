#!/usr/bin/env python3
"""Memory of a compiled module, ours and XLA's, side by side.

Ours: `hlo-opt` with the pipeline given (default: `--hlo-gpu-optimize`,
which ends with copy insertion, scheduling and buffer assignment), then
`--hlo-dump-buffer-assignment`. XLA: its GPU compiler for an H100,
deviceless, through the xla-oracle tool (`xla_gpu_compile.py`), Triton
GEMMs off; its `buffer_assignment.txt`.

Columns: the temp allocation (XLA's `preallocated-temp`; every temporary
is packed into it) in KiB, ours and XLA's and their ratio; our lower bound
(the peak of live temporary bytes over our schedule, so `temp ours / bound`
is our fragmentation); the bytes of all allocations (parameters, constants,
outputs, temp); the copies in each optimized module (`copy` and
`copy-start` instructions outside fused computations).

Usage: buffers_vs_xla.py --opt build/bin/hlo-opt [MODULE.hlo ...] [--markdown]
"""

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_util import defined_constants, table  # noqa: E402
from kernels_vs_xla import DEFAULT_MODULES  # noqa: E402
from pipeline_vs_xla import ORACLE  # noqa: E402

ALLOCATION = re.compile(r"^allocation \d+: size (\d+)(.*):$")
TEMP_LINE = re.compile(r"^Temp bytes: (\d+) \(lower bound (\d+)\)")
COMPUTATION = re.compile(r"^(ENTRY\s+)?%?([\w.\-]+)\s*(\(.*\))?.*\{\s*$")
FUSED = re.compile(r"calls=%?([\w.\-]+)")
COMMENT = re.compile(r"/\*.*?\*/")
COPY = re.compile(r"=\s*\S.*?\s(copy|copy-start)\(")


def allocations(text):
    """(total bytes, temp bytes) of a buffer-assignment listing."""
    total = temp = 0
    for line in text.splitlines():
        m = ALLOCATION.match(line)
        if not m:
            continue
        size, rest = int(m.group(1)), m.group(2)
        if "thread-local" in rest:
            continue
        total += size
        if "preallocated-temp" in rest:
            temp += size
    return total, temp


def copies(hlo_text):
    """copy / copy-start instructions outside fused computations."""
    hlo_text = COMMENT.sub("", hlo_text)  # XLA writes /*index=5*/ in shapes
    fused = set(FUSED.findall(hlo_text))
    count, current = 0, None
    for line in hlo_text.splitlines():
        m = COMPUTATION.match(line)
        if m and "=" not in line.split("{")[0]:
            current = m.group(2)
            continue
        if current not in fused and COPY.search(line):
            count += 1
    return count


def ours(opt, pipeline, path, tmp):
    hlo = tmp / "ours.hlo"
    p = subprocess.run([opt, str(path), *pipeline, "--output-format=hlo",
                        "-o", str(hlo), "--hlo-dump-buffer-assignment"],
                       capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(p.stderr[-300:])
    total, temp = allocations(p.stdout)
    bound = next((int(m.group(2)) for m in map(TEMP_LINE.match,
                  p.stdout.splitlines()) if m), 0)
    return total, temp, bound, copies(hlo.read_text())


def xla(path, out):
    p = subprocess.run([sys.executable, str(ORACLE), str(path), "-o", str(out),
                        "--opt", "xla_gpu_enable_triton_gemm=false"],
                       capture_output=True, text=True, timeout=900)
    listing = out / "buffer_assignment.txt"
    if p.returncode or not listing.exists():
        raise RuntimeError((p.stderr or p.stdout)[-300:])
    total, temp = allocations(listing.read_text())
    return total, temp, copies((out / "optimized_hlo.txt").read_text())


def kib(n):
    return f"{n / 1024:.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opt", required=True, help="path to hlo-opt")
    ap.add_argument("--pipeline", default="--hlo-gpu-optimize",
                    help="hlo-opt options before the dump (space separated)")
    ap.add_argument("modules", nargs="*", type=Path, default=DEFAULT_MODULES)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    rows = []
    for path in a.modules:
        if not path.exists():
            print(f"warning: {path} not found", file=sys.stderr)
            continue
        with tempfile.TemporaryDirectory() as tmp:
            path = defined_constants(path, tmp)
            print(f"... {path.stem}", file=sys.stderr)
            try:
                t_ours, temp_ours, bound, c_ours = ours(
                    a.opt, a.pipeline.split(), path, Path(tmp))
                t_xla, temp_xla, c_xla = xla(path, Path(tmp) / "xla")
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                rows.append([path.stem, f"error: {str(e)[:100]}"] + [""] * 8)
                continue
        rows.append([path.stem, kib(temp_ours), kib(temp_xla),
                     f"{temp_ours / temp_xla:.2f}" if temp_xla else "-",
                     kib(bound), kib(t_ours), kib(t_xla),
                     f"{t_ours / t_xla:.2f}" if t_xla else "-", c_ours, c_xla])
    print(table(["module", "temp KiB ours", "temp KiB XLA", "ours/XLA",
                 "bound KiB", "total KiB ours", "total KiB XLA", "ours/XLA",
                 "copies ours", "copies XLA"], rows, a.markdown))


if __name__ == "__main__":
    main()
