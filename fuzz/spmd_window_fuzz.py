#!/usr/bin/env python3
"""Random windows on tiles: the partitioner's halo exchanges against the
interpreter.

Each case is a module of one windowed instruction (a reduce-window that
adds or takes the maximum, a 1-D convolution (or a depthwise one), a
pad, a slice, a
select-and-scatter that adds or takes the maximum) with random sizes,
strides, padding (negative too), dilations and interior padding, a
rotation (a concatenate of slices that wrap around: jnp.roll), a
reverse, its operand and result tiled along the windowed dimension over 2, 3 or 4 partitions (evenly or not, sometimes
with a replicated second dimension), or a reduce-window or
select-and-scatter windowed along both dimensions tiled 2x2, run through
`hlo-opt --hlo-spmd-partitioning --hlo-check-semantics` (each partition on
its tiles, the result put together and compared with the whole
program's). Prints each finding (a crash, an error, a changed result)
with its module and a summary of how many cases took halos (a
collective-permute) and how many ran otherwise; exits 1 on a finding.

  python3 fuzz/spmd_window_fuzz.py --opt build/bin/hlo-opt [--cases N]
      [--seed S] [--keep DIR]
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile

HEADER = """HloModule window_case, num_partitions={n}

%add (a: f32[], b: f32[]) -> f32[] {{
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}}

%max (a: f32[], b: f32[]) -> f32[] {{
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %m = f32[] maximum(%a, %b)
}}

%ge (a: f32[], b: f32[]) -> pred[] {{
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %c = pred[] compare(%a, %b), direction=GE
}}

"""


def sharding(n, rank, dim, replicate):
    """Tiles of `n` along `dim` (of `rank`), or of `n // 2` with every tile
    held twice."""
    if replicate and n == 4:
        tiles = [1] * rank
        tiles[dim] = 2
        return "{devices=[%s,2]<=[4] last_tile_dim_replicate}" % ",".join(
            map(str, tiles))
    tiles = [1] * rank
    tiles[dim] = n
    return "{devices=[%s]<=[%d]}" % (",".join(map(str, tiles)), n)


def windowed(size, width, stride, lo, hi, base=1, dilate=1):
    """The result size of a window over `size` elements, or 0."""
    span = (width - 1) * dilate + 1
    padded = lo + hi + (size - 1) * base + 1
    return (padded - span) // stride + 1 if padded >= span else 0


def case2d(rng):
    """A reduce-window or select-and-scatter windowed along both dimensions,
    tiled 2x2 over 4 partitions (the corners of each tile's halo)."""
    rows, cols = rng.randint(2, 12), rng.randint(2, 12)
    s = "{devices=[2,2]<=[4]}"
    kind = rng.choice(["reduce-window 2-d", "select-and-scatter 2-d"])
    body = "  %%x = f32[%d,%d]{1,0} parameter(0), sharding=%s\n" % (rows, cols, s)
    params = ["x: f32[%d,%d]" % (rows, cols)]
    width = [rng.randint(1, 4), rng.randint(1, 4)]
    stride = [rng.randint(1, 3), rng.randint(1, 3)]
    out = [windowed(rows, width[0], stride[0], 0, 0),
           windowed(cols, width[1], stride[1], 0, 0)]
    if min(out) <= 0:
        return None
    window = "size=%dx%d stride=%dx%d" % (*width, *stride)
    if kind.startswith("reduce-window"):
        body += "  %init = f32[] constant(-inf)\n"
        body += ("  ROOT %%r = f32[%d,%d]{1,0} reduce-window(%%x, %%init), "
                 "window={%s}, to_apply=%%max, sharding=%s\n" %
                 (*out, window, s))
        return kind, params, body, 4
    params.append("g: f32[%d,%d]" % tuple(out))
    body += "  %%g = f32[%d,%d]{1,0} parameter(1), sharding=%s\n" % (*out, s)
    body += "  %zero = f32[] constant(0)\n"
    body += ("  ROOT %%r = f32[%d,%d]{1,0} select-and-scatter(%%x, %%g, %%zero), "
             "window={%s}, select=%%ge, scatter=%%add, sharding=%s\n" %
             (rows, cols, window, s))
    return kind, params, body, 4


def case(rng):
    """(kind, module text) of one random case, or None."""
    if rng.random() < 0.1:
        return case2d(rng)
    n = rng.choice([2, 3, 4])
    replicate = rng.random() < 0.2
    size = rng.randint(n, 6 * n)
    kind = rng.choice(["reduce-window", "convolution", "pad", "slice",
                       "select-and-scatter", "rotation", "reverse"])
    s = sharding(n, 2, 0, replicate)
    x = "  %%x = f32[%d,3]{1,0} parameter(0), sharding=%s\n" % (size, s)
    body, params = x, ["x: f32[%d,3]" % size]
    if kind in ("reduce-window", "convolution"):
        width, stride = rng.randint(1, 4), rng.randint(1, 3)
        lo, hi = rng.randint(-1, 3), rng.randint(-1, 3)
        base = rng.choice([1, 1, 1, 2]) if kind == "convolution" else 1
        dilate = rng.choice([1, 1, 2])
        out = windowed(size, width, stride, lo, hi, base, dilate)
        if out <= 0:
            return None
        if kind == "reduce-window":
            window = "size=%dx1 stride=%dx1 pad=%d_%dx0_0" % (width, stride,
                                                              lo, hi)
            if dilate != 1:
                window += " rhs_dilate=%dx1" % dilate
            reducer = rng.choice(["add", "max"])
            init = "0" if reducer == "add" else "-inf"
            body += "  %%init = f32[] constant(%s)\n" % init
            body += ("  ROOT %%r = f32[%d,3]{1,0} reduce-window(%%x, %%init), "
                     "window={%s}, to_apply=%%%s, sharding=%s\n" %
                     (out, window, reducer, s))
            return kind, params, body, n
        # A 1-D convolution: rows spatial, one batch, 3 input features;
        # or a depthwise one (3 feature groups).
        window = "size=%d stride=%d pad=%d_%d" % (width, stride, lo, hi)
        if base != 1:
            window += " lhs_dilate=%d" % base
        if dilate != 1:
            window += " rhs_dilate=%d" % dilate
        s3 = sharding(n, 3, 0, replicate)
        groups = rng.choice([1, 1, 3])
        kin, kout = (1, 3) if groups == 3 else (3, 2)
        params.append("k: f32[%d,%d,%d]" % (width, kin, kout))
        body += ("  %%xr = f32[%d,1,3]{2,1,0} reshape(%%x), sharding=%s\n" %
                 (size, s3))
        body += ("  %%k = f32[%d,%d,%d]{2,1,0} parameter(1), "
                 "sharding={replicated}\n" % (width, kin, kout))
        body += ("  ROOT %%r = f32[%d,1,%d]{2,1,0} convolution(%%xr, %%k), "
                 "window={%s}, dim_labels=0bf_0io->0bf%s, sharding=%s\n" %
                 (out, kout, window,
                  ", feature_group_count=3" if groups == 3 else "", s3))
        return kind, params, body, n
    if kind == "pad":
        lo, hi, interior = rng.randint(-2, 4), rng.randint(-2, 4), \
            rng.choice([0, 0, 1, 2])
        out = lo + hi + size + (size - 1) * interior
        if out <= 0:
            return None
        body += "  %v = f32[] constant(-1)\n"
        body += ("  ROOT %%r = f32[%d,3]{1,0} pad(%%x, %%v), padding=%d_%d_%dx0_0, "
                 "sharding=%s\n" % (out, lo, hi, interior, s))
        return kind, params, body, n
    if kind == "slice":
        start = rng.randint(0, size - 1)
        limit = rng.randint(start + 1, size)
        stride = rng.randint(1, 3)
        out = (limit - start + stride - 1) // stride
        body += ("  ROOT %%r = f32[%d,3]{1,0} slice(%%x), slice={[%d:%d:%d], "
                 "[0:3]}, sharding=%s\n" % (out, start, limit, stride, s))
        return kind, params, body, n
    if kind == "reverse":
        dims = rng.choice(["0", "0", "0,1"])
        body += ("  %%e = f32[%d,3]{1,0} exponential(%%x), sharding=%s\n" %
                 (size, s))
        body += ("  ROOT %%r = f32[%d,3]{1,0} reverse(%%e), dimensions={%s}, "
                 "sharding=%s\n" % (size, dims, s))
        return kind, params, body, n
    if kind == "rotation":
        # A concatenate of slices of x that follow one another, wrapping
        # around at its end (jnp.roll, a pad in wrap mode), or x itself.
        pos, left, pieces = rng.randint(0, size - 1), rng.randint(1, 3 * size), []
        while left > 0:
            length = rng.randint(1, min(left, size - pos))
            if rng.random() < 0.5:
                length = min(left, size - pos)
            name = "%%p%d" % len(pieces)
            if length == size:
                name = "%x"
            else:
                body += ("  %s = f32[%d,3]{1,0} slice(%%x), slice={[%d:%d], "
                         "[0:3]}\n" % (name, length, pos, pos + length))
            pieces.append(name)
            pos, left = (pos + length) % size, left - length
        out = sum(int(line.split("[")[1].split(",")[0])
                  for line in body.splitlines()[1:]) + \
            size * pieces.count("%x")
        body += ("  ROOT %%r = f32[%d,3]{1,0} concatenate(%s), dimensions={0}, "
                 "sharding=%s\n" % (out, ", ".join(pieces), s))
        return kind, params, body, n
    width, stride = rng.randint(1, 4), rng.randint(1, 3)
    out = windowed(size, width, stride, 0, 0)
    if out <= 0:
        return None
    params.append("g: f32[%d,3]" % out)
    body += ("  %%g = f32[%d,3]{1,0} parameter(1), sharding=%s\n" % (out, s))
    body += "  %%zero = f32[] constant(%s)\n" % rng.choice(["0", "-1"])
    body += ("  ROOT %%r = f32[%d,3]{1,0} select-and-scatter(%%x, %%g, %%zero), "
             "window={size=%dx1 stride=%dx1}, select=%%ge, scatter=%%%s, "
             "sharding=%s\n" % (size, width, stride,
                                 rng.choice(["add", "max"]), s))
    return kind, params, body, n


def module(params, body, n):
    result = body.strip().splitlines()[-1].split("=")[1].split()[0]
    return HEADER.format(n=n) + "ENTRY %%main (%s) -> %s {\n%s}\n" % (
        ", ".join(params), result, body)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--opt", default="build/bin/hlo-opt")
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="write each case's module here")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    work = args.keep or tempfile.mkdtemp(prefix="spmd_window_fuzz.")
    os.makedirs(work, exist_ok=True)
    findings, halos, other, done = 0, {}, {}, 0
    while done < args.cases:
        made = case(rng)
        if not made:
            continue
        kind, params, body, n = made
        path = os.path.join(work, "case%d.hlo" % done)
        with open(path, "w") as f:
            f.write(module(params, body, n))
        done += 1
        seed = str(rng.randint(0, 1000))
        try:
            run = subprocess.run(
                [args.opt, path, "--hlo-spmd-partitioning",
                 "--hlo-check-semantics", "--hlo-check-semantics-seed=" + seed,
                 "--output-format=hlo"],
                capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            print("%s: %s: hang" % (path, kind))
            findings += 1
            continue
        if run.returncode != 0:
            lines = run.stderr.strip().splitlines() or ["exit %d" % run.returncode]
            print("%s: %s: %s" % (path, kind, lines[0]))
            findings += 1
            continue
        took = "collective-permute" in run.stdout
        tally = halos if took else other
        tally[kind] = tally.get(kind, 0) + 1
    print("%d cases, %d findings; with halos: %s; otherwise: %s" % (
        done, findings, dict(sorted(halos.items())), dict(sorted(other.items()))))
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
