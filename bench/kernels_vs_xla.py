#!/usr/bin/env python3
"""Count the GPU kernels of a module compiled by ours and by XLA, side by
side, the library calls among them, and the bytes the kernels move.

Ours: `hlo-opt --hlo-gpu-optimize` (XLA's pipelines from optimization to
post-fusion optimization), exported as HLO text; a kernel is a
fusion, a custom call (cuBLAS/cuDNN library call) or any other instruction
that computes something, in the computations that run as a sequence of
kernels (ENTRY, while bodies and conditions, branches, called computations;
not fused computations nor reducers and comparators). Parameters,
constants, tuples, get-tuple-element, bitcasts and reshapes (a bitcast in
the default layout) are not kernels, nor are copies: after layout
normalization a copy keeps its layout and runs as a device-to-device
memcpy, as XLA's copies do (its fusions.txt lists none of them);
bench/buffers_vs_xla.py counts them.

XLA: its GPU compiler for an H100, deviceless, through the xla-oracle tool
(`xla_gpu_compile.py`, run as an external program), with Triton GEMMs off
(the configuration seed 002 describes); its optimized module's kernels are
counted by the same rule as ours (until 2026-11-29 they were the lines of
its fusions.txt, which leaves out instructions that are not fusions or
custom calls: FFTs, sorts, select-and-scatters, ... that XLA emits on their
own, so modules with those compared unfairly against us).

Library calls: the custom calls to cuBLAS (`__cublas$...`), cuDNN
(`__cudnn$...`) and cuSOLVER (`__cusolver$...`) in each optimized module.

Bytes: both optimized modules are imported into the dialect and measured by
the same analysis, the cost model's (`hlo-opt --hlo-test-print-cost`): for
each kernel of the entry computation, the bytes it reads (each distinct
operand's elements read at least once) plus the bytes it writes.

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
from bench_util import defined_constants, table  # noqa: E402
from pipeline_vs_xla import ORACLE  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
JAX_MODULES = ROOT / "test" / "Runtime" / "xla" / "modules"
DEFAULT_MODULES = [ROOT / "examples" / "mlp.hlo"] + [
    JAX_MODULES / f"{m}.hlo" for m in [
        "mlp_bf16", "layernorm", "softmax", "attention", "transformer_block",
        "conv_block", "resnet_block"]] + [
    ROOT.parent / "shared" / "corpus" / "hlo" / f for f in [
        "xla__cpu_bench__graphsage_tf.hlo",
        "tfxla__cpu_bench__diffrax_b380012920.hlo",
        "rocmxla__cpu_bench__resnet50_keras_jax_f32.hlo"]]
OUR_PASSES = ["--hlo-gpu-optimize"]
NOT_KERNELS = {"parameter", "constant", "tuple", "get-tuple-element",
               "bitcast", "reshape", "after-all", "while", "conditional",
               "call", "partition-id", "replica-id", "opt-barrier", "copy",
               "copy-start", "copy-done"}
COMPUTATION = re.compile(r"^(ENTRY\s+)?%?([\w.\-]+)\s*(\(.*\))?.*\{\s*$")
INSTRUCTION = re.compile(
    r"^\s*(?:ROOT\s+)?%?[\w.\-]+\s*=\s*.*?\s([a-z][a-z0-9\-]*)\((.*)$")
# Computations that run per element or inside a kernel.
EMBEDDED = re.compile(
    r"(?:calls|to_apply|called_computations|select|scatter)=\{?%?([\w.\-]+)")
SEQUENTIAL = re.compile(
    r"(?:body|condition|branch_computations|true_computation|"
    r"false_computation)=\{?%?([\w.\-, %]+)\}?")


def count_kernels(hlo_text):
    """Kernels of the HLO text as the module docstring defines them."""
    computations, current = {}, None
    for line in hlo_text.splitlines():
        # XLA writes /*index=N*/ comments into long tuple shapes.
        line = re.sub(r"/\*.*?\*/", "", line)
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


LIBRARY_CALL = re.compile(r'custom_call_target="__(cublas|cudnn|cusolver)')
COST_KERNEL = re.compile(r"^%\S+: flops=\d+ read=\d+ written=(\d+)")
COST_OPERAND = re.compile(r"^  operand \d+ .* net=(\d+)")


def library_calls(hlo_text):
    """{library: number of custom calls to it}."""
    calls = {}
    for m in LIBRARY_CALL.finditer(hlo_text):
        calls[m.group(1)] = calls.get(m.group(1), 0) + 1
    return calls


def bytes_moved(opt, path):
    """Bytes the entry computation's kernels read and write (module doc)."""
    p = subprocess.run([opt, str(path), "--hlo-test-print-cost", "-o",
                        os.devnull], capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(p.stderr[:300])
    total = 0
    for line in p.stdout.splitlines():
        m = COST_KERNEL.match(line) or COST_OPERAND.match(line)
        if m:
            total += int(m.group(1))
    return total


def ours(opt, path, out):
    p = subprocess.run([opt, str(path), *OUR_PASSES, "--output-format=hlo",
                        "-o", str(out)], capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(p.stderr[:300])
    text = out.read_text()
    return count_kernels(text), library_calls(text), bytes_moved(opt, out)


def xla(opt, path, out):
    p = subprocess.run([sys.executable, str(ORACLE), str(path), "-o", str(out),
                        "--opt", "xla_gpu_enable_triton_gemm=false"],
                       capture_output=True, text=True, timeout=900)
    optimized = out / "optimized_hlo.txt"
    if p.returncode or not optimized.exists():
        raise RuntimeError((p.stderr or p.stdout)[-300:])
    text = optimized.read_text()
    return count_kernels(text), library_calls(text), bytes_moved(opt, optimized)


def calls_text(calls):
    return " ".join(f"{k} {v}" for k, v in sorted(calls.items())) or "-"


def mib(n):
    return f"{n / 2**20:.2f}"


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
            path = defined_constants(path, tmp)
            print(f"... {path.stem}", file=sys.stderr)
            try:
                k_ours, c_ours, b_ours = ours(a.opt, path,
                                              Path(tmp) / f"ours{i}.hlo")
            except RuntimeError as e:
                rows.append([path.stem, f"error: {str(e)[:80]}"] + [""] * 7)
                continue
            try:
                k_xla, c_xla, b_xla = xla(a.opt, path, Path(tmp) / f"xla{i}")
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                rows.append([path.stem, k_ours, f"error: {str(e)[:80]}"] +
                            [""] * 6)
                continue
            rows.append([path.stem, k_ours, k_xla,
                         f"{k_ours / k_xla:.2f}" if k_xla else "",
                         calls_text(c_ours), calls_text(c_xla), mib(b_ours),
                         mib(b_xla), f"{b_ours / b_xla:.2f}" if b_xla else ""])
    print(table(["module", "kernels ours", "kernels XLA", "ours/XLA",
                 "library calls ours", "library calls XLA", "MiB ours",
                 "MiB XLA", "ours/XLA"], rows, a.markdown))


if __name__ == "__main__":
    main()
