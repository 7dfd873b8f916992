#!/usr/bin/env python3
"""Random dots of transposes through passes, against the interpreter.

Each case is a module of one dot in DotDecomposer's form (0 to 3 batch
dimensions first, then LHS [M, K] and RHS [K, N]) whose operands are
transposes by one random permutation (the batch dimensions shuffled, the
last two kept or swapped), sometimes with operand precisions, run through
`hlo-opt --pass-pipeline=builtin.module(PASSES) --hlo-check-semantics`
(default: hlo-algebraic-simplifier, whose RemoveTransposesFromDotOperands
and TransposeOfDot rewrite them). Prints each finding (a crash, an error,
a changed result) with its module and how many cases lost their
operands' transposes; exits 1 on a finding.

  python3 fuzz/dot_fuzz.py --opt build/bin/hlo-opt [--cases N] [--seed S]
      [--passes P]
"""

import argparse
import os
import random
import sys
import tempfile

from conv_fuzz import check_passes


def shape(dims):
    return "f32[" + ",".join(map(str, dims)) + "]"


def braces(dims):
    return "{" + ",".join(map(str, dims)) + "}"


def case(rng):
    """A random dot of transposes."""
    nb = rng.randint(0, 3)
    rank = nb + 2
    perm = list(range(nb))
    rng.shuffle(perm)
    perm += [rank - 1, rank - 2] if rng.random() < 0.5 else [rank - 2,
                                                             rank - 1]
    batch = [rng.randint(1, 3) for _ in range(nb)]
    m, k, n = (rng.randint(1, 4) for _ in range(3))
    lhs, rhs = batch + [m, k], batch + [k, n]  # the transposes' shapes
    # Transpose dimension i is operand dimension perm[i].
    a, b = [0] * rank, [0] * rank
    for i, p in enumerate(perm):
        a[p], b[p] = lhs[i], rhs[i]
    dims = braces(range(nb))
    batch_dims = (f", lhs_batch_dims={dims}, rhs_batch_dims={dims}"
                  if nb else "")
    precision = (", operand_precision={highest,default}"
                 if rng.random() < 0.3 else "")
    return (f"HloModule dot_case\n\nENTRY main {{\n"
            f"  a = {shape(a)} parameter(0)\n"
            f"  b = {shape(b)} parameter(1)\n"
            f"  ta = {shape(lhs)} transpose(a), dimensions={braces(perm)}\n"
            f"  tb = {shape(rhs)} transpose(b), dimensions={braces(perm)}\n"
            f"  ROOT d = {shape(batch + [m, n])} dot(ta, tb){batch_dims}, "
            f"lhs_contracting_dims={{{rank - 1}}}, "
            f"rhs_contracting_dims={{{rank - 2}}}{precision}\n}}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--opt", required=True)
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--passes", default="hlo-algebraic-simplifier")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    findings = rewritten = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.hlo")
        for _ in range(a.cases):
            text = case(rng)
            with open(path, "w") as f:
                f.write(text)
            out = check_passes(a.opt, a.passes, path, text)
            if out is None:
                findings += 1
                continue
            rewritten += "transpose(%a)" not in out
    print(f"{a.cases} cases ({rewritten} without the operands' transposes), "
          f"{findings} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
