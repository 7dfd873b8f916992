#!/usr/bin/env python3
"""How the fusion passes after priority fusion scale with module size.

Generates a chain of layer-norm blocks (25 instructions each: two sibling
row reductions of the block's input, the statistics, the normalization, and
two small independent outputs read by the root tuple), fuses it with
hlo-priority-fusion (not timed), then times each pass on the fused module
with MLIR's --mlir-timing (the pass's own wall time, parsing and printing
excluded):

  hlo-multi-output-fusion, hlo-fusion-merger, hlo-horizontal-loop-fusion,
  hlo-horizontal-input-fusion, hlo-variadic-op-splitter

and prints ms per pass and per 1000 instructions at each size (equal
columns = linear), the fastest of --repeat runs.

Usage: fusion_passes_scaling.py --bin build/bin [--sizes 1000,10000,100000]
                               [--repeat 3]
"""

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_util import run_scaling  # noqa: E402

PASSES = ["hlo-multi-output-fusion", "hlo-fusion-merger",
          "hlo-horizontal-loop-fusion", "hlo-horizontal-input-fusion",
          "hlo-variadic-op-splitter"]


def block(i, x):
    s, v = "f32[64,32]", "f32[64]"
    return [
        f"  sum_{i} = {v} reduce({x}, zero), dimensions={{1}}, to_apply=add",
        f"  xx_{i} = {s} multiply({x}, {x})",
        f"  sumsq_{i} = {v} reduce(xx_{i}, zero), dimensions={{1}}, to_apply=add",
        f"  nb_{i} = {v} broadcast(n), dimensions={{}}",
        f"  mean_{i} = {v} divide(sum_{i}, nb_{i})",
        f"  meansq_{i} = {v} divide(sumsq_{i}, nb_{i})",
        f"  mean2_{i} = {v} multiply(mean_{i}, mean_{i})",
        f"  var_{i} = {v} subtract(meansq_{i}, mean2_{i})",
        f"  epsb_{i} = {v} broadcast(eps), dimensions={{}}",
        f"  ve_{i} = {v} add(var_{i}, epsb_{i})",
        f"  rstd_{i} = {v} rsqrt(ve_{i})",
        f"  meanb_{i} = {s} broadcast(mean_{i}), dimensions={{0}}",
        f"  rstdb_{i} = {s} broadcast(rstd_{i}), dimensions={{0}}",
        f"  c_{i} = {s} subtract({x}, meanb_{i})",
        f"  nrm_{i} = {s} multiply(c_{i}, rstdb_{i})",
        f"  gb_{i} = {s} broadcast(gamma), dimensions={{1}}",
        f"  bb_{i} = {s} broadcast(beta), dimensions={{1}}",
        f"  sc_{i} = {s} multiply(nrm_{i}, gb_{i})",
        f"  out_{i} = {s} add(sc_{i}, bb_{i})",
        f"  side_{i} = {v} negate(mean_{i})",
        f"  side2_{i} = {v} abs(rstd_{i})",
        f"  e_{i} = {s} exponential({x})",
        f"  d_{i} = {s} add(out_{i}, e_{i})",
        f"  sq_{i} = {v} sqrt(ve_{i})",
        f"  mx_{i} = {v} maximum(side_{i}, sq_{i})",
    ]


def module(blocks):
    lines = ["HloModule ln_chain", "", "add {", "  a = f32[] parameter(0)",
             "  b = f32[] parameter(1)", "  ROOT s = f32[] add(a, b)", "}", "",
             "ENTRY main {", "  x = f32[64,32] parameter(0)",
             "  gamma = f32[32] parameter(1)", "  beta = f32[32] parameter(2)",
             "  zero = f32[] constant(0)", "  n = f32[] constant(32)",
             "  eps = f32[] constant(1e-05)"]
    x, outs = "x", []
    for i in range(blocks):
        lines += block(i, x)
        x = f"d_{i}"
        outs += [f"side2_{i}", f"mx_{i}"]
    outs.append(x)
    types = ", ".join(["f32[64]"] * (len(outs) - 1) + ["f32[64,32]"])
    lines.append(f"  ROOT t = ({types}) tuple({', '.join(outs)})")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    def source(tmp, size, flag, opt):
        # Every pass runs on the module after priority fusion, made once
        # per size.
        fused = tmp / f"ln{size}.fused.hlo"
        if not fused.exists():
            src = tmp / f"ln{size}.hlo"
            src.write_text(module(max(1, size // 25)))
            subprocess.run([opt, str(src), "--hlo-priority-fusion",
                            "--output-format=hlo", "-o", str(fused)],
                           check=True)
        return fused

    run_scaling(__doc__, PASSES, source)


if __name__ == "__main__":
    main()
