#!/usr/bin/env python3
"""Random convolutions through passes, against the interpreter.

Each case is a module of one convolution with random sizes (kernels
larger than the input half the time), strides, padding (negative too),
base and window dilation, window reversal, feature groups and dimension
labels, run through `hlo-opt --pass-pipeline=builtin.module(PASSES)
--hlo-check-semantics` (the interpreter runs the module before and after
and compares). The default passes are the algebraic simplifier's
convolution rewrites (XLA's SwapConvOperands, FoldConvInputPad, ...)
followed by hlo-gpu-conv-rewriter, so the cuDNN calls made of swapped
convolutions run too. With `--run HLO_RUN` each case is also compiled
by the whole GPU compiler and run on the host runtime against the
interpreter (`hlo-run --device=host --check`: cuDNN calls, and the loop
kernels of the convolutions cuDNN cannot run). Prints each finding (a
crash, an error, a changed result) with its module and how many cases ended with the operands swapped;
exits 1 on a finding.

  python3 fuzz/conv_fuzz.py --opt build/bin/hlo-opt [--cases N] [--seed S]
      [--passes P] [--run build/bin/hlo-run] [--keep DIR]
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile

LABELS = {1: ["b0f_0io->b0f", "bf0_oi0->bf0", "f0b_i0o->0bf"],
          2: ["b01f_01io->b01f", "bf01_oi01->bf01", "01bf_o01i->f01b"]}


def place(labels, sizes):
    """The shape `labels` (one part of dim_labels) gives the named sizes."""
    return [sizes[c] for c in labels]


def case(rng):
    """A random convolution module, or None where the shapes do not fit."""
    rank = rng.choice([1, 2])
    labels = rng.choice(LABELS[rank])
    lhs_l, rest = labels.split("_")
    rhs_l, out_l = rest.split("->")
    groups = rng.choice([1, 1, 1, 2])
    batch, feat = rng.randint(1, 2), groups * rng.randint(1, 2)
    outf = groups * rng.randint(1, 2)
    big_kernel = rng.random() < 0.5
    ins, ks, outs, fields = [], [], [], {k: [] for k in
                                         ("size", "stride", "pad", "lhs_dilate",
                                          "rhs_dilate", "rhs_reversal")}
    for _ in range(rank):
        n = rng.randint(1, 4)
        k = rng.randint(n + 1, n + 5) if big_kernel else rng.randint(1, n)
        s, ld, rd = rng.choice([1, 1, 2, 3]), rng.choice([1, 1, 2]), \
            rng.choice([1, 1, 2])
        lo, hi = rng.randint(-1, k + 1), rng.randint(-1, k + 1)
        padded = (n - 1) * ld + 1 + lo + hi
        window = (k - 1) * rd + 1
        if padded < window:
            return None
        ins.append(n), ks.append(k), outs.append((padded - window) // s + 1)
        fields["size"].append(str(k)), fields["stride"].append(str(s))
        fields["pad"].append(f"{lo}_{hi}")
        fields["lhs_dilate"].append(str(ld)), fields["rhs_dilate"].append(str(rd))
        fields["rhs_reversal"].append(str(rng.choice([0, 0, 1])))
    digits = "0123456789"[:rank]
    lhs = place(lhs_l, {"b": batch, "f": feat, **dict(zip(digits, ins))})
    rhs = place(rhs_l, {"i": feat // groups, "o": outf,
                        **dict(zip(digits, ks))})
    out = place(out_l, {"b": batch, "f": outf, **dict(zip(digits, outs))})
    window = " ".join(f"{k}={'x'.join(v)}" for k, v in fields.items())
    shape = lambda dims: "f32[" + ",".join(map(str, dims)) + "]"
    extra = f", feature_group_count={groups}" if groups > 1 else ""
    return (f"HloModule conv_case\n\nENTRY main {{\n"
            f"  x = {shape(lhs)} parameter(0)\n"
            f"  k = {shape(rhs)} parameter(1)\n"
            f"  ROOT c = {shape(out)} convolution(x, k), window={{{window}}}, "
            f"dim_labels={labels}{extra}\n}}\n")


def check(command, path, text, what=""):
    """Runs `command`; prints a finding (the module and the tail of the
    output) and returns None where it fails or hangs, else its stdout."""
    try:
        p = subprocess.run(command, capture_output=True, text=True,
                           timeout=300)
    except subprocess.TimeoutExpired:
        print(f"== finding{what} ({path}): timeout\n{text}")
        return None
    if p.returncode != 0:
        print(f"== finding{what} ({path}):\n{text}"
              f"{(p.stdout + p.stderr)[-2000:]}")
        return None
    return p.stdout


def check_passes(opt, passes, path, text):
    """`passes` on the module at `path` against the interpreter."""
    return check([opt, path, f"--pass-pipeline=builtin.module({passes})",
                  "--hlo-check-semantics", "--output-format=hlo"], path, text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--opt", required=True)
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--passes",
                    default="hlo-algebraic-simplifier,hlo-gpu-conv-rewriter")
    ap.add_argument("--run", help="hlo-run: also run each case compiled")
    ap.add_argument("--keep", help="write every case here")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    findings = swapped = ran = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = a.keep or tmp
        os.makedirs(folder, exist_ok=True)
        while ran < a.cases:
            text = case(rng)
            if text is None:
                continue
            path = os.path.join(folder, f"case{ran}.hlo")
            ran += 1
            with open(path, "w") as f:
                f.write(text)
            out = check_passes(a.opt, a.passes, path, text)
            if out is not None and a.run and check(
                    [a.run, path, "--device=host", "--random-inputs",
                     "--check"], path, text, ", compiled") is None:
                out = None
            if out is None:
                findings += 1
                continue
            swapped += any(f"{op}(%{first}" in out
                           for op in ("convolution", "custom-call")
                           for first in ("k", "reverse"))
    print(f"{ran} cases ({swapped} with the operands swapped), "
          f"{findings} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
