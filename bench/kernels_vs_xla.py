#!/usr/bin/env python3
"""Count the GPU kernels of a module compiled by ours and by XLA, side by side.

Ours: `hlo-opt --hlo-optimization` (XLA's optimization pipeline), then the
GPU passes this project has so far (`--hlo-gemm-rewriter`, the reduction
rewrites, `--hlo-priority-fusion`), exported as HLO text; a kernel is a
fusion, a custom call (cuBLAS/cuDNN library call) or any other instruction
that computes something, in the computations that run as a sequence of
kernels (ENTRY, while bodies and conditions, branches, called computations;
not fused computations nor reducers and comparators). Parameters,
constants, tuples, get-tuple-element, bitcasts and reshapes (a bitcast in
the default layout) are not kernels.

XLA: its GPU compiler for an H100, deviceless, through the xla-oracle tool
(`xla_gpu_compile.py`, run as an external program), with Triton GEMMs off
(the configuration seed 002 describes); a kernel is a line of its
fusions.txt (every fusion and library call of the optimized module).

Usage: kernels_vs_xla.py --opt build/bin/hlo-opt [MODULE.hlo ...] [--markdown]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_util import table  # noqa: E402
from pipeline_vs_xla import ORACLE  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_MODULES = [ROOT / "examples" / "mlp.hlo"] + [
    ROOT.parent / "shared" / "corpus" / "hlo" / f for f in [
        "xla__cpu_bench__graphsage_tf.hlo",
        "tfxla__cpu_bench__diffrax_b380012920.hlo",
        "rocmxla__cpu_bench__resnet50_keras_jax_f32.hlo"]]
OUR_PASSES = ["--hlo-optimization", "--hlo-gemm-rewriter",
              "--hlo-reduction-degenerate-dim-remover",
              "--hlo-reduction-dimension-grouper", "--hlo-reduction-splitter",
              "--hlo-gpu-tree-reduction-rewriter", "--hlo-priority-fusion"]
NOT_KERNELS = {"parameter", "constant", "tuple", "get-tuple-element",
               "bitcast", "reshape", "after-all", "while", "conditional",
               "call", "partition-id", "replica-id", "opt-barrier"}
COMPUTATION = re.compile(r"^(ENTRY\s+)?%?([\w.\-]+)\s*(\(.*\))?.*\{\s*$")
INSTRUCTION = re.compile(
    r"^\s*(?:ROOT\s+)?%?[\w.\-]+\s*=\s*.*?\s([a-z][a-z0-9\-]*)\((.*)$")
# Computations that run per element or inside a kernel.
EMBEDDED = re.compile(r"(?:calls|to_apply|called_computations)=\{?%?([\w.\-]+)")
SEQUENTIAL = re.compile(
    r"(?:body|condition|branch_computations|true_computation|"
    r"false_computation)=\{?%?([\w.\-, %]+)\}?")


def count_kernels(hlo_text):
    """Kernels of the HLO text as the module docstring defines them."""
    computations, current = {}, None
    for line in hlo_text.splitlines():
        m = COMPUTATION.match(line)
        if m and "=" not in line.split("{")[0]:
            current = m.group(2)
            computations[current] = []
            continue
        m = INSTRUCTION.match(line)
        if m and current is not None:
            computations[current].append((m.group(1), line))
    embedded = set()
    for instrs in computations.values():
        for opcode, line in instrs:
            if opcode == "call" or SEQUENTIAL.search(line):
                continue
            embedded.update(EMBEDDED.findall(line))
    return sum(1 for name, instrs in computations.items()
               if name not in embedded
               for opcode, _ in instrs if opcode not in NOT_KERNELS)


def ours(opt, path, out):
    p = subprocess.run([opt, str(path), *OUR_PASSES, "--output-format=hlo",
                        "-o", str(out)], capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(p.stderr[:300])
    return count_kernels(out.read_text())


def xla(path, out):
    p = subprocess.run([sys.executable, str(ORACLE), str(path), "-o", str(out),
                        "--opt", "xla_gpu_enable_triton_gemm=false"],
                       capture_output=True, text=True, timeout=900)
    fusions = out / "fusions.txt"
    if p.returncode or not fusions.exists():
        raise RuntimeError((p.stderr or p.stdout)[-300:])
    return sum(1 for line in fusions.read_text().splitlines()
               if line.strip() and not line.startswith("#"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opt", required=True, help="path to hlo-opt")
    ap.add_argument("modules", nargs="*", type=Path, default=DEFAULT_MODULES)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, path in enumerate(a.modules):
            if not path.exists():
                print(f"warning: {path} not found", file=sys.stderr)
                continue
            print(f"... {path.stem}", file=sys.stderr)
            try:
                k_ours = ours(a.opt, path, Path(tmp) / f"ours{i}.hlo")
            except RuntimeError as e:
                k_ours = f"error: {e}"
            try:
                k_xla = xla(path, Path(tmp) / f"xla{i}")
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                k_xla = f"error: {str(e)[:80]}"
            ratio = (f"{k_ours / k_xla:.2f}" if isinstance(k_ours, int) and
                     isinstance(k_xla, int) and k_xla else "")
            rows.append([path.stem, k_ours, k_xla, ratio])
    print(table(["module", "kernels ours", "kernels XLA", "ours/XLA"], rows,
                a.markdown))


if __name__ == "__main__":
    main()
