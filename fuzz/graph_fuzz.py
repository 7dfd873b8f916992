#!/usr/bin/env python3
"""Random HLO programs through the whole GPU compiler, against the
interpreter (and, with --xla, against XLA CPU).

Each case is a random module: a graph of 4 to 40 instructions (elementwise
ops, broadcasts, reductions of small and of long rows and columns,
transposes, reshapes, slices, pads, concatenations, reverses, iotas, dots,
dynamic slices and updates, selects, sums over windows, sorts, bf16 round
trips), its values shared between users, and one to three results. The
generator works from the result shapes back: to make a value of a shape it
picks an op and makes the operands that op needs, or reuses a value of
that shape made before, so every module verifies by construction and the
fusion passes see shared producers, multi-output candidates and chains of
reshapes and transposes.

Each case is compiled by the GPU compiler (the whole of
--hlo-gpu-pipeline: simplification, fusion, layouts, scheduling, buffer
assignment, the kernel emitters) and run on the host runtime against the
interpreter on the same random inputs (`hlo-run --device=host
--random-inputs --check`). A crash, a compile error or a result beyond
the tolerance is a finding: the module and the tail of the output are
printed, and with --keep the module stays there. With --xla the cases are
then run by test/Runtime/xla/compare_xla.py: XLA CPU against the
interpreter, and against the host runtime, on its own inputs.

  python3 fuzz/graph_fuzz.py --run build/bin/hlo-run [--cases N]
      [--seed S] [--keep DIR] [--xla] [--atol A] [--rtol R]

Exits 1 on a finding.
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile
from math import prod

from conv_fuzz import check

# Elements of the largest value a case makes (inputs included).
MAX_ELEMENTS = 1 << 15
UNARY = ["negate", "abs", "tanh", "exponential", "sine", "floor", "sign",
         "logistic", "cosine"]
BINARY = ["add", "subtract", "multiply", "maximum", "minimum", "divide"]
# What a value rounded to bf16 or f16, or given to exp, sin or cos, is made
# of: ops whose results every correct implementation computes alike (no
# sums, whose order may differ, and no transcendentals, whose last bit may),
# so that neither the rounding nor the function can turn a difference
# within the tolerance into one beyond it.
EXACT_UNARY = ["negate", "abs", "floor", "sign"]
EXACT_BINARY = ["multiply", "maximum", "minimum"]
COMPARE = ["LT", "GT", "GE", "EQ", "NE"]


def shape_text(dims, ty="f32", layout=None):
    text = f"{ty}[{','.join(map(str, dims))}]"
    if layout is not None:
        text += "{" + ",".join(map(str, layout)) + "}"
    return text


class Builder:
    """One random module, built from the results back."""

    def __init__(self, rng):
        self.rng = rng
        self.lines = []  # the entry's instructions, in order
        self.params = []  # (name, type text)
        self.made = {}  # dims -> names of f32 values of those dims
        self.exact = 0  # > 0 while making a value of exact ops only (EXACT_*)
        self.exact_values = set()  # the values made of exact ops only
        self.count = 0
        self.budget = rng.randint(4, 40)
        self.computations = {}

    def name(self, base):
        self.count += 1
        return f"{base}.{self.count}"

    def emit(self, base, dims, text, ty="f32"):
        n = self.name(base)
        self.lines.append(f"  {n} = {shape_text(dims, ty)} {text}")
        if ty == "f32":
            self.made.setdefault(tuple(dims), []).append(n)
        if self.exact or text.startswith("iota"):
            self.exact_values.add(n)
        return n

    def layout(self, dims):
        """A random layout (minor to major) for a fifth of the values of
        rank 2 or more, else None (the default)."""
        if len(dims) < 2 or self.rng.random() < 0.8:
            return None
        order = list(range(len(dims)))
        self.rng.shuffle(order)
        return order

    def param(self, dims, ty="f32"):
        n = f"p{len(self.params)}"
        self.params.append((n, shape_text(dims, ty, self.layout(dims))))
        if ty == "f32":
            self.made.setdefault(tuple(dims), []).append(n)
        self.exact_values.add(n)
        return n

    def reducer(self, kind):
        name = f"{kind}_f32"
        if name not in self.computations:
            self.computations[name] = (
                f"{name} {{\n  a = f32[] parameter(0)\n"
                f"  b = f32[] parameter(1)\n"
                f"  ROOT r = f32[] {kind}(a, b)\n}}\n")
        return name

    def init(self, kind):
        """The identity of reducer `kind`, a new scalar constant."""
        value = {"add": "0", "maximum": "-inf", "minimum": "inf"}[kind]
        return self.emit("init", [], f"constant({value})")

    def comparator(self):
        name = "less_f32"
        if name not in self.computations:
            self.computations[name] = (
                f"{name} {{\n  a = f32[] parameter(0)\n"
                f"  b = f32[] parameter(1)\n"
                f"  ROOT r = pred[] compare(a, b), direction=LT, "
                f"type=TOTALORDER\n}}\n")
        return name

    def index(self):
        """An s32 scalar: a parameter (random inputs are in [-8, 8], which
        dynamic slices clamp) or a constant."""
        if self.rng.random() < 0.5:
            return self.param([], "s32")
        return self.emit("i", [], f"constant({self.rng.randint(-2, 6)})",
                         "s32")

    # Each op below makes a value of `dims` from operands it asks `value`
    # for; it returns None where it cannot make that shape.

    def unary(self, dims):
        op = self.rng.choice(EXACT_UNARY if self.exact else UNARY)
        # The error of a sum grows with its size; exp, sin and cos of a
        # large sum would turn it into a relative error beyond the
        # tolerance: their operand is made of exact ops only.
        sensitive = op in ("exponential", "sine", "cosine")
        self.exact += sensitive
        src = self.value(dims)
        self.exact -= sensitive
        return self.emit(op, dims, f"{op}({src})")

    def binary(self, dims):
        op = self.rng.choice(EXACT_BINARY if self.exact else BINARY)
        a, b = self.value(dims), self.value(dims)
        return self.emit(op, dims, f"{op}({a}, {b})")

    def select(self, dims):
        a, b = self.value(dims), self.value(dims)
        d = self.rng.choice(COMPARE)
        p = self.emit("compare", dims, f"compare({a}, {b}), direction={d}",
                      "pred")
        return self.emit("select", dims,
                         f"select({p}, {self.value(dims)}, {b})")

    def broadcast(self, dims):
        keep = sorted(self.rng.sample(range(len(dims)),
                                      self.rng.randint(0, len(dims))))
        if len(keep) == len(dims) and dims:
            keep.pop(self.rng.randrange(len(keep)))
        src = self.value([dims[k] for k in keep])
        return self.emit("broadcast", dims,
                         f"broadcast({src}), dimensions={{"
                         f"{','.join(map(str, keep))}}}")

    def reduce(self, dims):
        rank = len(dims)
        if rank >= 4:
            return None
        big = self.rng.random() < 0.4
        extra = self.rng.randint(1, 2 if rank < 3 else 1)
        sizes = [self.rng.choice([1, 3, 8, 33]) for _ in range(extra)]
        if big:
            sizes[0] = self.rng.choice([128, 257, 1024, 4096])
        operand = list(dims)
        reduced = []
        for s in sizes:
            at = self.rng.randint(0, len(operand))
            operand.insert(at, s)
            reduced = [r + (r >= at) for r in reduced] + [at]
        if prod(operand) > MAX_ELEMENTS:
            return None
        kind = self.rng.choice(["maximum", "minimum"] if self.exact else
                               ["add", "add", "maximum", "minimum"])
        src = self.value(operand)
        c = self.init(kind)
        return self.emit("reduce", dims,
                         f"reduce({src}, {c}), dimensions={{"
                         f"{','.join(map(str, sorted(reduced)))}}}, "
                         f"to_apply={self.reducer(kind)}")

    def transpose(self, dims):
        if len(dims) < 2:
            return None
        perm = list(range(len(dims)))
        self.rng.shuffle(perm)
        # result dim i is operand dim perm[i]
        operand = [0] * len(dims)
        for i, p in enumerate(perm):
            operand[p] = dims[i]
        src = self.value(operand)
        return self.emit("transpose", dims,
                         f"transpose({src}), dimensions={{"
                         f"{','.join(map(str, perm))}}}")

    def reshape(self, dims):
        total = prod(dims)
        # Another factorization: merge or split dimensions of `dims`.
        operand = list(dims)
        if len(operand) >= 2 and self.rng.random() < 0.5:
            i = self.rng.randrange(len(operand) - 1)
            operand[i:i + 2] = [operand[i] * operand[i + 1]]
        else:
            i = self.rng.randrange(len(operand)) if operand else 0
            d = operand[i] if operand else 1
            divisors = [f for f in range(1, d + 1) if d % f == 0]
            f = self.rng.choice(divisors)
            operand[i:i + 1] = [f, d // f]
        if self.rng.random() < 0.3:
            operand = operand + [1]
        assert prod(operand) == total
        if operand == list(dims) or len(operand) > 4:
            return None
        return self.emit("reshape", dims, f"reshape({self.value(operand)})")

    def slice(self, dims):
        spans, operand = [], []
        for d in dims:
            stride = self.rng.choice([1, 1, 2])
            start = self.rng.randint(0, 3)
            limit = start + (d - 1) * stride + 1
            size = limit + self.rng.randint(0, 3)
            operand.append(size)
            spans.append(f"[{start}:{limit}:{stride}]")
        if prod(operand) > MAX_ELEMENTS:
            return None
        return self.emit("slice", dims, f"slice({self.value(operand)}), "
                         f"slice={{{','.join(spans)}}}")

    def pad(self, dims):
        if not dims:
            return None
        operand, config = [], []
        for d in dims:
            # low + high + n + (n - 1) * interior = d; low and high may be
            # negative (they cut).
            interior = self.rng.choice([0, 0, 1])
            n = self.rng.randint(1, d + 2)
            rest = d - n - (n - 1) * interior
            low = self.rng.randint(min(0, rest) - 1, max(0, rest) + 1)
            operand.append(n)
            config.append(f"{low}_{rest - low}" +
                          (f"_{interior}" if interior else ""))
        c = self.emit("padv", [], f"constant({self.rng.choice(['0', '1.5'])})")
        return self.emit("pad", dims, f"pad({self.value(operand)}, {c}), "
                         f"padding={'x'.join(config)}")

    def concatenate(self, dims):
        if not dims:
            return None
        axis = self.rng.randrange(len(dims))
        if dims[axis] < 2:
            return None
        cuts = sorted(self.rng.sample(range(1, dims[axis]),
                                      min(dims[axis] - 1,
                                          self.rng.randint(1, 3))))
        parts, last = [], 0
        for c in cuts + [dims[axis]]:
            part = list(dims)
            part[axis] = c - last
            parts.append(self.value(part))
            last = c
        return self.emit("concatenate", dims,
                         f"concatenate({', '.join(parts)}), "
                         f"dimensions={{{axis}}}")

    def reverse(self, dims):
        if not dims:
            return None
        axes = sorted(self.rng.sample(range(len(dims)),
                                      self.rng.randint(1, len(dims))))
        return self.emit("reverse", dims, f"reverse({self.value(dims)}), "
                         f"dimensions={{{','.join(map(str, axes))}}}")

    def iota(self, dims):
        if not dims:
            return None
        axis = self.rng.randrange(len(dims))
        return self.emit("iota", dims, f"iota(), iota_dimension={axis}")

    def dot(self, dims):
        if len(dims) < 1 or len(dims) > 3 or self.exact:
            return None
        # The batch dimensions, then at most one free dimension of each
        # side; the contracting dimension before or after the free one.
        nbatch = self.rng.randint(0, len(dims) - 1)
        batch, free = dims[:nbatch], dims[nbatch:]
        if len(free) > 2:
            return None
        nl = 1 if len(free) == 2 else self.rng.randint(0, len(free))
        lfree, rfree = free[:nl], free[nl:]
        k = self.rng.choice([1, 4, 16, 64])
        kl, kr = self.rng.random() < 0.5, self.rng.random() < 0.5
        lhs = batch + ([k] + lfree if kl else lfree + [k])
        rhs = batch + ([k] + rfree if kr else rfree + [k])
        if prod(lhs) > MAX_ELEMENTS or prod(rhs) > MAX_ELEMENTS:
            return None
        lc = nbatch if kl else len(lhs) - 1
        rc = nbatch if kr else len(rhs) - 1
        bd = ",".join(map(str, range(nbatch)))
        a, b = self.value(lhs), self.value(rhs)
        return self.emit("dot", dims, f"dot({a}, {b}), "
                         f"lhs_batch_dims={{{bd}}}, rhs_batch_dims={{{bd}}}, "
                         f"lhs_contracting_dims={{{lc}}}, "
                         f"rhs_contracting_dims={{{rc}}}")

    def dynamic_slice(self, dims):
        if not dims:
            return None
        operand = [d + self.rng.randint(0, 4) for d in dims]
        if prod(operand) > MAX_ELEMENTS:
            return None
        src = self.value(operand)
        idx = [self.index() for _ in dims]
        return self.emit("dynamic-slice", dims,
                         f"dynamic-slice({src}, {', '.join(idx)}), "
                         f"dynamic_slice_sizes={{{','.join(map(str, dims))}}}")

    def dynamic_update_slice(self, dims):
        if not dims:
            return None
        update = [self.rng.randint(1, d) for d in dims]
        src, upd = self.value(dims), self.value(update)
        idx = [self.index() for _ in dims]
        return self.emit("dynamic-update-slice", dims,
                         f"dynamic-update-slice({src}, {upd}, "
                         f"{', '.join(idx)})")

    def reduce_window(self, dims):
        if not dims or len(dims) > 3:
            return None
        operand, size, stride = [], [], []
        for d in dims:
            w, s = self.rng.choice([1, 2, 3]), self.rng.choice([1, 1, 2])
            operand.append((d - 1) * s + w)
            size.append(str(w))
            stride.append(str(s))
        if prod(operand) > MAX_ELEMENTS:
            return None
        kind = "maximum" if self.exact else self.rng.choice(["add", "maximum"])
        src = self.value(operand)
        c = self.init(kind)
        return self.emit("reduce-window", dims,
                         f"reduce-window({src}, {c}), window={{size="
                         f"{'x'.join(size)} stride={'x'.join(stride)}}}, "
                         f"to_apply={self.reducer(kind)}")

    def sort(self, dims):
        if not dims:
            return None
        axis = self.rng.randrange(len(dims))
        return self.emit("sort", dims, f"sort({self.value(dims)}), "
                         f"dimensions={{{axis}}}, "
                         f"to_apply={self.comparator()}")

    def narrow(self, dims):
        """A round trip through bf16 or f16, with an add in that type half
        of the time."""
        ty = self.rng.choice(["bf16", "f16"])
        self.exact += 1
        src = self.value(dims)
        self.exact -= 1
        n = self.name("convert")
        self.lines.append(f"  {n} = {shape_text(dims, ty)} convert({src})")
        if self.rng.random() < 0.5:
            m = self.name("add")
            self.lines.append(f"  {m} = {shape_text(dims, ty)} add({n}, {n})")
            n = m
        return self.emit("convert", dims, f"convert({n})")

    def clamp(self, dims):
        lo, hi = sorted(self.rng.sample([-2, -1, -0.5, 0, 0.5, 1, 3], 2))
        a = self.emit("lo", [], f"constant({lo})")
        b = self.emit("hi", [], f"constant({hi})")
        if dims:
            a = self.emit("lo", dims, f"broadcast({a}), dimensions={{}}")
            b = self.emit("hi", dims, f"broadcast({b}), dimensions={{}}")
        return self.emit("clamp", dims, f"clamp({a}, {self.value(dims)}, {b})")

    def integers(self, dims):
        """Some s32 arithmetic on floor(4 * clamp(x)), back to f32."""
        self.exact += 1
        src = self.clamp(dims)
        self.exact -= 1
        four = self.emit("four", dims, "broadcast(f32[] constant(4)), "
                         "dimensions={}")
        scaled = self.emit("multiply", dims, f"multiply({src}, {four})")
        ty = shape_text(dims, "s32")
        n = self.name("convert")
        self.lines.append(f"  {n} = {ty} convert({scaled})")
        for _ in range(self.rng.randint(1, 3)):
            op = self.rng.choice(["add", "multiply", "and", "xor", "divide",
                                  "remainder", "shift-left", "maximum"])
            k = self.name("k")
            value = self.rng.randint(1, 5)
            self.lines.append(f"  {k} = {ty} broadcast(s32[] constant("
                              f"{value})), dimensions={{}}")
            m = self.name(op)
            self.lines.append(f"  {m} = {ty} {op}({n}, {k})")
            n = m
        return self.emit("convert", dims, f"convert({n})")

    def argmax(self, dims):
        """The index of the largest element along a new dimension (NaN the
        largest, ties to the smaller index: a total order, so the result
        does not depend on the order of the reduction, as JAX's argmax), as
        a float: a reduce of two arrays."""
        if len(dims) > 2:
            return None
        size = self.rng.choice([2, 5, 33, 300])
        at = self.rng.randint(0, len(dims))
        operand = dims[:at] + [size] + dims[at:]
        if prod(operand) > MAX_ELEMENTS:
            return None
        self.exact += 1
        values = self.value(operand)
        self.exact -= 1
        iota = self.name("iota")
        self.lines.append(f"  {iota} = {shape_text(operand, 's32')} iota(), "
                          f"iota_dimension={at}")
        ninf = self.init("maximum")
        zero = self.name("zero")
        self.lines.append(f"  {zero} = s32[] constant(0)")
        r, i = self.name("argmax"), self.name("index")
        self.lines.append(
            f"  {r} = ({shape_text(dims)}, {shape_text(dims, 's32')}) "
            f"reduce({values}, {iota}, {ninf}, {zero}), dimensions={{{at}}}, "
            f"to_apply={self.argmax_computation()}")
        self.lines.append(f"  {i} = {shape_text(dims, 's32')} "
                          f"get-tuple-element({r}), index=1")
        return self.emit("convert", dims, f"convert({i})")

    def argmax_computation(self):
        name = "argmax_f32"
        self.computations.setdefault(name, f"""{name} {{
  a = f32[] parameter(0)
  i = s32[] parameter(1)
  b = f32[] parameter(2)
  j = s32[] parameter(3)
  an = pred[] compare(a, a), direction=NE
  bn = pred[] compare(b, b), direction=NE
  nb = pred[] not(bn)
  anan = pred[] and(an, nb)
  above = pred[] compare(a, b), direction=GT
  gt = pred[] or(above, anan)
  same = pred[] compare(a, b), direction=EQ
  nans = pred[] and(an, bn)
  eq = pred[] or(same, nans)
  lt = pred[] compare(i, j), direction=LT
  tie = pred[] and(eq, lt)
  take = pred[] or(gt, tie)
  v = f32[] select(take, a, b)
  k = s32[] select(take, i, j)
  ROOT r = (f32[], s32[]) tuple(v, k)
}}
""")
        return name

    def gather(self, dims):
        """Rows of a table at s32 indices (clamped into the table)."""
        if not dims or len(dims) > 3:
            return None
        rows, rest = dims[0], dims[1:]
        table = [self.rng.randint(1, 12)] + rest
        idx = self.param([rows, 1], "s32")
        src = self.value(table)
        offsets = ",".join(str(d + 1) for d in range(len(rest)))
        sizes = ",".join(map(str, [1] + rest))
        return self.emit("gather", dims, f"gather({src}, {idx}), "
                         f"offset_dims={{{offsets}}}, "
                         f"collapsed_slice_dims={{0}}, start_index_map={{0}}, "
                         f"index_vector_dim=1, slice_sizes={{{sizes}}}")

    def scatter(self, dims):
        """Rows added to (or maxed into) a table at s32 indices; those out
        of the table are skipped."""
        if not dims or len(dims) > 3:
            return None
        rest = dims[1:]
        count = self.rng.randint(1, 6)
        kind = "maximum" if self.exact else self.rng.choice(["add", "maximum"])
        src, updates = self.value(dims), self.value([count] + rest)
        idx = self.param([count, 1], "s32")
        window = ",".join(str(d + 1) for d in range(len(rest)))
        return self.emit("scatter", dims,
                         f"scatter({src}, {idx}, {updates}), "
                         f"update_window_dims={{{window}}}, "
                         f"inserted_window_dims={{0}}, "
                         f"scatter_dims_to_operand_dims={{0}}, "
                         f"index_vector_dim=1, to_apply={self.reducer(kind)}")

    def loop(self, dims):
        """A counted while loop: v = v / 2 + x, a few times."""
        if self.exact:
            return None
        x, v = self.value(dims), self.value(dims)
        t = shape_text(dims)
        state = f"(s32[], {t}, {t})"
        trips = self.rng.randint(1, 5)
        key = f"{len(self.computations)}"
        body, cond = f"body_{key}", f"cond_{key}"
        self.computations[body] = f"""{body} {{
  t = {state} parameter(0)
  i = s32[] get-tuple-element(t), index=0
  v = {t} get-tuple-element(t), index=1
  x = {t} get-tuple-element(t), index=2
  one = s32[] constant(1)
  j = s32[] add(i, one)
  half = {t} broadcast(f32[] constant(0.5)), dimensions={{}}
  m = {t} multiply(v, half)
  w = {t} add(m, x)
  ROOT r = {state} tuple(j, w, x)
}}
"""
        self.computations[cond] = f"""{cond} {{
  t = {state} parameter(0)
  i = s32[] get-tuple-element(t), index=0
  n = s32[] constant({trips})
  ROOT c = pred[] compare(i, n), direction=LT
}}
"""
        zero, start = self.name("zero"), self.name("state")
        w = self.name("while")
        self.lines += [f"  {zero} = s32[] constant(0)",
                       f"  {start} = {state} tuple({zero}, {v}, {x})",
                       f"  {w} = {state} while({start}), condition={cond}, "
                       f"body={body}"]
        return self.emit("result", dims, f"get-tuple-element({w}), index=1")

    OPS = {"unary": 3, "binary": 4, "select": 1, "broadcast": 3,
           "reduce": 3, "transpose": 2, "reshape": 2, "slice": 1, "pad": 1,
           "concatenate": 1, "reverse": 1, "iota": 1, "dot": 1,
           "dynamic_slice": 1, "dynamic_update_slice": 1,
           "reduce_window": 1, "sort": 1, "narrow": 1, "clamp": 1,
           "integers": 1, "argmax": 1, "gather": 1, "scatter": 1, "loop": 1}

    def value(self, dims):
        """A value of `dims`: reused, a new parameter or constant, or a new
        op (while the budget lasts)."""
        dims = list(dims)
        made = [n for n in self.made.get(tuple(dims), [])
                if not self.exact or n in self.exact_values]
        if made and self.rng.random() < 0.3:
            return self.rng.choice(made)
        if self.budget <= 0 or prod(dims) > MAX_ELEMENTS:
            if self.rng.random() < 0.1:
                return self.emit("constant", dims,
                                 f"constant({self.rng.choice(['2', '-0.5'])})"
                                 if not dims else
                                 f"broadcast(f32[] constant(0.25)), "
                                 f"dimensions={{}}")
            return self.param(dims)
        self.budget -= 1
        ops, weights = zip(*self.OPS.items())
        for _ in range(8):
            op = self.rng.choices(ops, weights)[0]
            made = getattr(self, op)(dims)
            if made is not None:
                return made
        return self.param(dims)

    def module(self):
        results = []
        for _ in range(self.rng.choice([1, 1, 2, 3])):
            rank = self.rng.choice([0, 1, 2, 2, 3, 3, 4])
            dims = [self.rng.choice([1, 2, 3, 4, 5, 8, 16, 17, 32])
                    for _ in range(rank)]
            while prod(dims) > 4096:
                dims[dims.index(max(dims))] //= 2
            results.append((self.value(dims), dims))
        body = list(self.lines)
        if len(results) == 1:
            dims = results[0][1]
            out = shape_text(dims, layout=self.layout(dims))
            root = f"  ROOT out = {out} copy({results[0][0]})"
        else:
            types = ", ".join(shape_text(d, layout=self.layout(d))
                              for _, d in results)
            root = f"  ROOT out = ({types}) tuple(" \
                   f"{', '.join(n for n, _ in results)})"
        params = [f"  {n} = {t} parameter({i})"
                  for i, (n, t) in enumerate(self.params)]
        return ("HloModule graph_case\n\n" +
                "".join(c + "\n" for c in self.computations.values()) +
                "ENTRY main {\n" + "\n".join(params + body + [root]) +
                "\n}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run", required=True, help="hlo-run")
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="write every case here")
    ap.add_argument("--atol", default="1e-4")
    ap.add_argument("--rtol", default="1e-4")
    ap.add_argument("--xla", action="store_true",
                    help="also compare with XLA CPU (compare_xla.py)")
    a = ap.parse_args()
    findings = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = a.keep or tmp
        os.makedirs(folder, exist_ok=True)
        for n in range(a.cases):
            text = Builder(random.Random(f"{a.seed}-{n}")).module()
            path = os.path.join(folder, f"case{n}.hlo")
            with open(path, "w") as f:
                f.write(text)
            findings += check(
                [a.run, path, "--device=host", "--random-inputs", "--check",
                 "--allow-excess-precision=false",
                 "--atol", a.atol, "--rtol", a.rtol], path, text) is None
        if a.xla:
            script = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                  "..", "test", "Runtime", "xla",
                                  "compare_xla.py")
            for device in ([], ["--device", "host"]):
                findings += subprocess.run(
                    [sys.executable, script, "--runner", a.run, *device,
                     folder]).returncode != 0
    print(f"{a.cases} cases, {findings} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
