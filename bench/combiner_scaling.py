#!/usr/bin/env python3
"""How the collective combiners scale with module size.

Generates a module of blocks (12 instructions each): an elementwise chain
feeds, per block, one all-reduce, one all-gather and one reduce-scatter whose
replica groups cycle through three values, and one collective-permute whose
pairs do (three grouping keys per opcode, interleaved), and four
accumulation chains consume their results (so every
combined group has dependents between its members that must move after the
combined instruction). Every seventh block's input reads the all-reduce
accumulator, so the next collectives depend on all earlier ones (the
dependency rule breaks groups there). Small byte thresholds (four members a
group) make many groups. Times each pass with MLIR's --mlir-timing (the
pass's own wall time, parsing and printing excluded):

  hlo-all-reduce-combiner, hlo-all-gather-combiner,
  hlo-reduce-scatter-combiner, hlo-collective-permute-combiner

and prints ms per pass and per 1000 instructions at each size (equal
columns = linear), the fastest of --repeat runs.

Usage: combiner_scaling.py --bin build/bin [--sizes 1000,10000,100000]
                           [--repeat 3]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_util import run_scaling  # noqa: E402

# Pass, its options (four members a group by bytes).
PASSES = [("hlo-all-reduce-combiner", "threshold-bytes=1024"),
          ("hlo-all-gather-combiner", "threshold-bytes=2048"),
          ("hlo-reduce-scatter-combiner", "threshold-bytes=512"),
          ("hlo-collective-permute-combiner", "threshold-bytes=1024")]

GROUPS = ["{{0,1},{2,3}}", "{{0,2},{1,3}}", "{{0,3},{1,2}}"]
PAIRS = ["{{0,1},{1,2},{2,3},{3,0}}", "{{0,2},{2,0}}", "{{1,3},{3,1}}"]


def block(i):
    v, w, h = "f32[64]", "f32[128]", "f32[32]"
    prev = f"e_{i - 1}" if i else "p"
    src = f"acc_{i - 1}" if i and i % 7 == 0 else "p"
    acc = f"acc_{i - 1}" if i else "z64"
    hh = f"h_{i - 1}" if i else "z32"
    ww = f"w_{i - 1}" if i else "z128"
    pp = f"q_{i - 1}" if i else "z64"
    g = [GROUPS[(i + k) % 3] for k in range(3)]
    return [
        f"  e_{i} = {v} add({prev}, {src})",
        f"  ar_{i} = {v} all-reduce(e_{i}), to_apply=add, "
        f"replica_groups={g[0]}",
        f"  ag_{i} = {w} all-gather(e_{i}), dimensions={{0}}, "
        f"replica_groups={g[1]}",
        f"  rs_{i} = {h} reduce-scatter(e_{i}), dimensions={{0}}, "
        f"to_apply=add, replica_groups={g[2]}",
        f"  s_{i} = {v} multiply(ar_{i}, e_{i})",
        f"  acc_{i} = {v} add({acc}, s_{i})",
        f"  g_{i} = {w} negate(ag_{i})",
        f"  r_{i} = {h} abs(rs_{i})",
        f"  h_{i} = {h} add({hh}, r_{i})",
        f"  w_{i} = {w} add({ww}, g_{i})",
        f"  cp_{i} = {v} collective-permute(e_{i}), "
        f"source_target_pairs={PAIRS[i % 3]}",
        f"  q_{i} = {v} add({pp}, cp_{i})",
    ]


def module(blocks):
    lines = ["HloModule combiners, replica_count=4", "", "add {",
             "  a = f32[] parameter(0)", "  b = f32[] parameter(1)",
             "  ROOT s = f32[] add(a, b)", "}", "", "ENTRY main {",
             "  p = f32[64] parameter(0)", "  zero = f32[] constant(0)",
             "  z64 = f32[64] broadcast(zero), dimensions={}",
             "  z128 = f32[128] broadcast(zero), dimensions={}",
             "  z32 = f32[32] broadcast(zero), dimensions={}"]
    for i in range(blocks):
        lines += block(i)
    last = blocks - 1
    lines.append(f"  ROOT t = (f32[64], f32[32], f32[128], f32[64]) "
                 f"tuple(acc_{last}, h_{last}, w_{last}, q_{last})")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    def source(tmp, size, flag, opt):
        src = tmp / f"coll{size}.hlo"
        if not src.exists():
            src.write_text(module(max(1, size // 12)))
        return src

    run_scaling(__doc__, [f"{p}={opts}" for p, opts in PASSES], source)


if __name__ == "__main__":
    main()
