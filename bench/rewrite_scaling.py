#!/usr/bin/env python3
"""How passes that rewrite one instruction at a time scale when they rewrite
every one they can.

Each pass gets a module of N instructions made of blocks it rewrites all
of, chained so that each block reads the previous one:

  hlo-simplify-fp-conversions    f32 -> bf16 -> f32 round trips, each
                                 result also summed (3 a block)
  hlo-convolution-4d-expander    convolutions over four spatial dimensions,
                                 two of size 1 (2 a block)
  hlo-convolution-pred-expander  pred convolutions, or-ed together (2)
  hlo-permutation-sort-expander  argsort of an iota, sorted again by the
                                 permutation (6)
  hlo-scatter-slice-simplifier   scatters into N+1 elements, an elementwise
                                 op, a slice back to N (5)
  hlo-all-reduce-promotion       u16 all-reduces (2)
  hlo-all-reduce-reassociate     all-reduces summed pairwise (3)
  hlo-reduce-scatter-reassociate reduce-scatters summed pairwise (4)
  hlo-all-gather-remove-degenerate-dims  all-gathers of [1,4,1,8],
                                 sliced back and summed (3)
  hlo-all-gather-dynamic-slice-simplifier  all-gathers each replica
                                 slices its own block of (3)
  hlo-all-reduce-simplifier      sums over replicas of replicated values
                                 (2; the replication analysis runs once)
  hlo-while-loop-all-reduce-code-motion  loops summing an all-reduce
                                 (15 a loop: entry, condition and body)
  hlo-ragged-dot-rewriter        ragged-dots (2)
  hlo-all-gather-optimizer       sums of two all-gathers, sliced (4)
  hlo-collective-quantizer       bf16 all-gathers between f8 converts (4)
  hlo-all-gather-pad-ds-simplifier  all-gathers over 8 partitions,
                                 padded, the window holding them sliced
                                 out on partition 0 (4; the table shared)
  hlo-all-reduce-splitter        all-reduces over 8 partitions, each
                                 partition's quarter sliced out (3; one
                                 all-reduce over the first groups makes
                                 them profitable)
  hlo-ragged-all-to-all-canonicalizer  ragged-all-to-alls with s32
                                 offsets and sizes (1; the offsets shared)
  hlo-dot-operand-converter      s8 x bf16 dots, each result converted
                                 back to s8 for the next (2)
  hlo-sub-byte-size-setter       u4 nots and xors (2)
  hlo-sub-byte-collective-normalization  s4 all-gathers, sliced back (2)
  hlo-float-normalization        s4 negates and f8e4m3fn exponentials (2)
  hlo-topk-rewriter              sorts of [4,1024] by "greater than", their
                                 first 8 sliced and padded back (3)
  hlo-topk-specializer           TopK calls of [4,1024], k = 8, their values
                                 padded back (3)
  hlo-topk-splitter              TopK calls of one row of 2048, k = 4, with
                                 split-threshold=1024, padded back (3)
  hlo-scan-expander              running sums of f32[16] (2 a scan; 24
                                 after the rewrite: loop, condition, body)
  hlo-collective-pipeliner       loops writing a reduce-scatter into a
                                 slice of their state (26 a loop: entry,
                                 condition, body; 42 after the rewrite)
  hlo-sharding-propagation       tanh and negate steps on an f32[64,16]
                                 parameter tiled by rows over 4 partitions,
                                 every twentieth a roll by 3 rows (slices
                                 and a concatenate)
  hlo-spmd-partitioner           the same, every instruction with a
                                 sharding, every tenth step tiled by columns
                                 instead (an all-gather and a dynamic-slice
                                 each way; the rolls collective-permutes)
  hlo-shardy-xla                 tanh steps on an f32[64,16], each with
                                 Shardy's sharding, every tenth a shard_map
                                 instead (entry call, negate, exit call)

and prints ms per pass and per 1000 instructions at each size (equal
columns = linear), the fastest of --repeat runs (MLIR's --mlir-timing: the
pass's own time, parsing and printing excluded).

Usage: rewrite_scaling.py --bin build/bin [--sizes 1000,10000,100000]
                          [--repeat 3] [--only PASS,...]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_util import run_scaling  # noqa: E402

ADD = ["add {", "  a = f32[] parameter(0)", "  b = f32[] parameter(1)",
       "  ROOT s = f32[] add(a, b)", "}"]
OR = ["or {", "  a = pred[] parameter(0)", "  b = pred[] parameter(1)",
      "  ROOT s = pred[] or(a, b)", "}"]
LT = ["lt {", "  a = s32[] parameter(0)", "  b = s32[] parameter(1)",
      "  c = s32[] parameter(2)", "  d = s32[] parameter(3)",
      "  ROOT l = pred[] compare(a, b), direction=LT", "}"]


def fp(n):
    body = ["  x = f32[16] parameter(0)", "  a_0 = f32[16] negate(x)"]
    for i in range(1, n // 3):
        body += [f"  b_{i} = bf16[16] convert(a_{i - 1})",
                 f"  f_{i} = f32[16] convert(b_{i})",
                 f"  a_{i} = f32[16] add(a_{i - 1}, f_{i})"]
    return [], body, f"a_{n // 3 - 1}", "f32[16]"


def conv4d(n):
    body = ["  x = f32[1,8,1,8,2,3] parameter(0)",
            "  k = f32[3,1,3,1,3,3] parameter(1)",
            "  a_0 = f32[3,1,6,1,6,2] parameter(2)"]
    for i in range(1, n // 2):
        body += [f"  c_{i} = f32[3,1,6,1,6,2] convolution(x, k), "
                 "window={size=1x3x1x3}, dim_labels=0123bf_i0123o->f0123b",
                 f"  a_{i} = f32[3,1,6,1,6,2] add(a_{i - 1}, c_{i})"]
    return [], body, f"a_{n // 2 - 1}", "f32[3,1,6,1,6,2]"


def pred(n):
    body = ["  x = pred[2,8,8,3] parameter(0)",
            "  k = pred[3,3,3,3] parameter(1)",
            "  a_0 = pred[2,8,8,3] parameter(2)"]
    for i in range(1, n // 2):
        body += [f"  c_{i} = pred[2,8,8,3] convolution(a_{i - 1}, k), "
                 "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f",
                 f"  a_{i} = pred[2,8,8,3] or(a_{i - 1}, c_{i})"]
    return [], body, f"a_{n // 2 - 1}", "pred[2,8,8,3]"


def perm(n):
    body = ["  k = s32[4,16] parameter(0)",
            "  i = s32[4,16] iota(), iota_dimension=1",
            "  a_0 = s32[4,16] negate(k)"]
    t = "(s32[4,16], s32[4,16])"
    for j in range(1, n // 6):
        body += [f"  s_{j} = {t} sort(a_{j - 1}, i), dimensions={{1}}, "
                 "to_apply=lt",
                 f"  p_{j} = s32[4,16] get-tuple-element(s_{j}), index=1",
                 f"  r_{j} = {t} sort(p_{j}, i), dimensions={{1}}, "
                 "to_apply=lt",
                 f"  q_{j} = s32[4,16] get-tuple-element(r_{j}), index=1",
                 f"  m_{j} = s32[4,16] multiply(q_{j}, p_{j})",
                 f"  a_{j} = s32[4,16] add(a_{j - 1}, m_{j})"]
    return LT, body, f"a_{n // 6 - 1}", "s32[4,16]"


def scatter(n):
    body = ["  idx = s32[4] parameter(0)", "  zero = f32[] constant(0)",
            "  base = f32[9] broadcast(zero), dimensions={}",
            "  a_0 = f32[4] parameter(1)"]
    for i in range(1, n // 5):
        body += [f"  s_{i} = f32[9] scatter(base, idx, a_{i - 1}), "
                 "update_window_dims={}, inserted_window_dims={0}, "
                 "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                 "to_apply=add",
                 f"  e_{i} = f32[9] abs(s_{i})",
                 f"  l_{i} = f32[8] slice(e_{i}), slice={{[0:8]}}",
                 f"  h_{i} = f32[4] slice(l_{i}), slice={{[2:6]}}",
                 f"  a_{i} = f32[4] add(a_{i - 1}, h_{i})"]
    return ADD, body, f"a_{n // 5 - 1}", "f32[4]"


def promote(n):
    body = ["  a_0 = u16[16] parameter(0)"]
    for i in range(1, n // 2):
        body += [f"  r_{i} = u16[16] all-reduce(a_{i - 1}), replica_groups={{}}, "
                 "to_apply=add16",
                 f"  a_{i} = u16[16] add(a_{i - 1}, r_{i})"]
    add16 = ["add16 {", "  a = u16[] parameter(0)", "  b = u16[] parameter(1)",
             "  ROOT s = u16[] add(a, b)", "}"]
    return add16, body, f"a_{n // 2 - 1}", "u16[16]"


def reassociate(n):
    body = ["  x = f32[16] parameter(0)", "  a_0 = f32[16] negate(x)"]
    for i in range(1, n // 3):
        body += [f"  r_{i} = f32[16] all-reduce(a_{i - 1}), replica_groups={{}}, "
                 "to_apply=add",
                 f"  q_{i} = f32[16] all-reduce(x), replica_groups={{}}, "
                 "to_apply=add",
                 f"  a_{i} = f32[16] add(r_{i}, q_{i})"]
    return ADD, body, f"a_{n // 3 - 1}", "f32[16]"


def scatter_pairs(n):
    body = ["  x = f32[32] parameter(0)", "  a_0 = f32[16] parameter(1)"]
    for i in range(1, n // 4):
        body += [f"  r_{i} = f32[16] reduce-scatter(x), dimensions={{0}}, "
                 "replica_groups={}, to_apply=add",
                 f"  q_{i} = f32[16] reduce-scatter(x), dimensions={{0}}, "
                 "replica_groups={}, to_apply=add",
                 f"  s_{i} = f32[16] add(r_{i}, q_{i})",
                 f"  a_{i} = f32[16] add(a_{i - 1}, s_{i})"]
    return ADD, body, f"a_{n // 4 - 1}", "f32[16]"


def degenerate(n):
    body = ["  a_0 = f32[1,4,1,8] parameter(0)"]
    for i in range(1, n // 3):
        body += [f"  g_{i} = f32[1,8,1,8] all-gather(a_{i - 1}), "
                 "replica_groups={}, dimensions={1}",
                 f"  s_{i} = f32[1,4,1,8] slice(g_{i}), "
                 "slice={[0:1], [2:6], [0:1], [0:8]}",
                 f"  a_{i} = f32[1,4,1,8] add(a_{i - 1}, s_{i})"]
    return [], body, f"a_{n // 3 - 1}", "f32[1,4,1,8]"


def own_block(n):
    body = ["  a_0 = f32[4,4] parameter(0)", "  rid = u32[] replica-id()",
            "  id = s32[] convert(rid)", "  four = s32[] constant(4)",
            "  off = s32[] multiply(id, four)", "  zero = s32[] constant(0)"]
    for i in range(1, n // 3):
        body += [f"  g_{i} = f32[8,4] all-gather(a_{i - 1}), "
                 "replica_groups={}, dimensions={0}",
                 f"  d_{i} = f32[4,4] dynamic-slice(g_{i}, off, zero), "
                 "dynamic_slice_sizes={4,4}",
                 f"  a_{i} = f32[4,4] add(a_{i - 1}, d_{i})"]
    return [], body, f"a_{n // 3 - 1}", "f32[4,4]"


def replicated(n):
    body = ["  a_0 = f32[16] parameter(0), parameter_replication={true}"]
    for i in range(1, n // 2):
        body += [f"  r_{i} = f32[16] all-reduce(a_{i - 1}), "
                 "replica_groups={}, to_apply=add",
                 f"  a_{i} = f32[16] add(a_{i - 1}, r_{i})"]
    return ADD, body, f"a_{n // 2 - 1}", "f32[16]"


def sharded(n, annotate=True):
    """Elementwise steps on an f32[64,16] tiled by rows over 4 partitions,
    every tenth step tiled by columns instead (a reshard each way), every
    twentieth a roll by 3 rows (two slices and a concatenate: a rotation),
    with the shardings on every instruction (annotate) or on the parameter
    only.
    """
    body = ["  a_0 = f32[64,16] parameter(0), sharding={devices=[4,1]<=[4]}"]
    for i in range(1, n):
        tiles = "[1,4]" if (i // 10) % 2 else "[4,1]"
        sharding = f", sharding={{devices={tiles}<=[4]}}" if annotate else ""
        if i % 20 == 5:
            body += [f"  l_{i} = f32[3,16] slice(a_{i - 1}), "
                     "slice={[61:64], [0:16]}",
                     f"  f_{i} = f32[61,16] slice(a_{i - 1}), "
                     "slice={[0:61], [0:16]}",
                     f"  a_{i} = f32[64,16] concatenate(l_{i}, f_{i}), "
                     f"dimensions={{0}}{sharding}"]
            continue
        op = "tanh" if i % 2 else "negate"
        body.append(f"  a_{i} = f32[64,16] {op}(a_{i - 1}){sharding}")
    return [], body, f"a_{n - 1}", "f32[64,16]"


def shardy(n):
    """Tanh steps on an f32[64,16] with Shardy's sharding of each (by rows
    over "x"), every tenth step a shard_map over "x" instead: its entry
    and exit calls around a negate of the local f32[16,16]."""
    rows = r'[{\"x\"}, {}]'
    one = r'#sdy.sharding<@mesh, ' + rows + '>'
    per_value = r'#sdy.sharding_per_value<[<@mesh, ' + rows + '>]>'
    manual = r'xla.sdy.manual_axes="#sdy<manual_axes{\"x\"}>"'
    body = [f'  a_0 = f32[64,16] parameter(0), '
            f'frontend_attributes={{xla.sdy.sharding="{one}"}}']
    i = 1
    while i < n:
        if i % 10 == 0 and i + 3 <= n:
            body += [
                f'  a_{i} = f32[16,16] custom-call(a_{i - 1}), '
                f'custom_call_target="xla.sdy.GlobalToLocalShape", '
                f'frontend_attributes={{xla.sdy.in_shardings="{per_value}",'
                f'{manual}}}',
                f'  a_{i + 1} = f32[16,16] negate(a_{i})',
                f'  a_{i + 2} = f32[64,16] custom-call(a_{i + 1}), '
                f'custom_call_target="xla.sdy.LocalToGlobalShape", '
                f'frontend_attributes={{xla.sdy.out_shardings="{per_value}",'
                f'{manual}}}']
            i += 3
            continue
        body.append(f'  a_{i} = f32[64,16] tanh(a_{i - 1}), '
                    f'frontend_attributes={{xla.sdy.sharding="{per_value}"}}')
        i += 1
    return [], body, f"a_{n - 1}", "f32[64,16]"


def unannotated(n):
    return sharded(n, annotate=False)


def loops(n):
    t = "(s32[], f32[16], f32[16])"
    comps, body = [], ["  zero = s32[] constant(0)",
                       "  x = f32[16] parameter(0)", "  a_0 = f32[16] negate(x)"]
    for i in range(1, n // 15):
        comps += [f"cond_{i} {{", f"  p = {t} parameter(0)",
                  "  c = s32[] get-tuple-element(p), index=0",
                  "  n = s32[] constant(3)",
                  "  ROOT lt = pred[] compare(c, n), direction=LT", "}",
                  f"body_{i} {{", f"  p = {t} parameter(0)",
                  "  c = s32[] get-tuple-element(p), index=0",
                  "  v = f32[16] get-tuple-element(p), index=1",
                  "  acc = f32[16] get-tuple-element(p), index=2",
                  "  r = f32[16] all-reduce(v), replica_groups={}, "
                  "to_apply=add",
                  "  s = f32[16] add(r, acc)", "  one = s32[] constant(1)",
                  "  c1 = s32[] add(c, one)",
                  f"  ROOT out = {t} tuple(c1, v, s)", "}"]
        body += [f"  i_{i} = {t} tuple(zero, x, a_{i - 1})",
                 f"  w_{i} = {t} while(i_{i}), condition=cond_{i}, "
                 f"body=body_{i}",
                 f"  a_{i} = f32[16] get-tuple-element(w_{i}), index=2"]
    return ADD + comps, body, f"a_{n // 15 - 1}", "f32[16]"


def ragged(n):
    body = ["  w = f32[2,8,8] parameter(0)", "  g = s32[2] parameter(1)",
            "  a_0 = f32[16,8] parameter(2)"]
    for i in range(1, n // 2):
        body += [f"  r_{i} = f32[16,8] ragged-dot(a_{i - 1}, w, g), "
                 "lhs_contracting_dims={1}, rhs_contracting_dims={1}, "
                 "lhs_ragged_dims={0}, rhs_group_dims={0}",
                 f"  a_{i} = f32[16,8] add(a_{i - 1}, r_{i})"]
    return [], body, f"a_{n // 2 - 1}", "f32[16,8]"


def ragged_a2a(n):
    body = ["  a_0 = f32[16,8] parameter(0)", "  o = s32[2] parameter(1)",
            "  z = s32[2] parameter(2)"]
    for i in range(1, n):
        body += [f"  a_{i} = f32[16,8] ragged-all-to-all(a_{i - 1}, a_0, o, z, "
                 "o, z), replica_groups={{0,1}}"]
    return [], body, f"a_{n - 1}", "f32[16,8]"


def mixed_dots(n):
    body = ["  w = bf16[8,8] parameter(0)", "  a_0 = s8[4,8] parameter(1)"]
    for i in range(1, n // 2):
        body += [f"  d_{i} = f32[4,8] dot(a_{i - 1}, w), "
                 "lhs_contracting_dims={1}, rhs_contracting_dims={0}",
                 f"  a_{i} = s8[4,8] convert(d_{i})"]
    return [], body, f"a_{n // 2 - 1}", "s8[4,8]"


def packed(n):
    body = ["  a_0 = u4[64] parameter(0)"]
    for i in range(1, n // 2):
        body += [f"  b_{i} = u4[64] not(a_{i - 1})",
                 f"  a_{i} = u4[64] xor(b_{i}, a_{i - 1})"]
    return [], body, f"a_{n // 2 - 1}", "u4[64]"


def packed_gathers(n):
    body = ["  a_0 = s4[4,8]{1,0:E(4)} parameter(0)"]
    for i in range(1, n // 2):
        body += [f"  g_{i} = s4[8,8]{{1,0:E(4)}} all-gather(a_{i - 1}), "
                 "replica_groups={}, dimensions={0}",
                 f"  a_{i} = s4[4,8]{{1,0:E(4)}} slice(g_{i}), "
                 "slice={[2:6], [0:8]}"]
    return [], body, f"a_{n // 2 - 1}", "s4[4,8]{1,0:E(4)}"


def narrow(n):
    body = ["  a_0 = s4[16] parameter(0)", "  f_0 = f8e4m3fn[16] parameter(1)"]
    for i in range(1, n // 2):
        body += [f"  a_{i} = s4[16] negate(a_{i - 1})",
                 f"  f_{i} = f8e4m3fn[16] exponential(f_{i - 1})"]
    return [], body, f"a_{n // 2 - 1}", "s4[16]"


def gather_pairs(n):
    body = ["  x = f32[4,4] parameter(0)", "  a_0 = f32[4,4] negate(x)"]
    for i in range(1, n // 4):
        body += [f"  l_{i} = f32[8,4] all-gather(a_{i - 1}), "
                 "replica_groups={}, dimensions={0}",
                 f"  r_{i} = f32[8,4] all-gather(x), replica_groups={{}}, "
                 "dimensions={0}",
                 f"  s_{i} = f32[8,4] add(l_{i}, r_{i})",
                 f"  a_{i} = f32[4,4] slice(s_{i}), slice={{[0:4], [0:4]}}"]
    return [], body, f"a_{n // 4 - 1}", "f32[4,4]"


def quantized(n):
    body = ["  a_0 = bf16[4,4] parameter(0)"]
    for i in range(1, n // 4):
        body += [f"  g_{i} = bf16[8,4] all-gather(a_{i - 1}), "
                 "replica_groups={}, dimensions={0}",
                 f"  c_{i} = f8e4m3fn[8,4] convert(g_{i})",
                 f"  w_{i} = bf16[8,4] convert(c_{i})",
                 f"  a_{i} = bf16[4,4] slice(w_{i}), slice={{[4:8], [0:4]}}"]
    return [], body, f"a_{n // 4 - 1}", "bf16[4,4]"


def split(n):
    body = ["  a_0 = f32[16] parameter(0)",
            "  first = f32[16] all-reduce(a_0), replica_groups={{0,1,2,3},"
            "{4,5,6,7}}, use_global_device_ids=true, channel_id=1, "
            "to_apply=add",
            "  table = s32[8] constant({0,1,2,3,0,1,2,3})",
            "  pid = u32[] partition-id()",
            "  id = s32[1] dynamic-slice(table, pid), dynamic_slice_sizes={1}",
            "  four = s32[] constant(4)", "  r = s32[] reshape(id)",
            "  off = s32[] multiply(r, four)"]
    for i in range(1, n // 3):
        body += [f"  r_{i} = f32[16] all-reduce(a_{i - 1}), "
                 "replica_groups={{0,1,2,3,4,5,6,7}}, "
                 f"use_global_device_ids=true, channel_id={i + 1}, "
                 "to_apply=add",
                 f"  d_{i} = f32[4] dynamic-slice(r_{i}, off), "
                 "dynamic_slice_sizes={4}",
                 f"  a_{i} = f32[16] concatenate(d_{i}, d_{i}, d_{i}, d_{i}), "
                 "dimensions={0}"]
    return ADD, body, f"a_{n // 3 - 1}", "f32[16]"


def padded_gathers(n):
    body = ["  a_0 = f32[2] parameter(0)", "  zero = f32[] constant(0)",
            "  table = s32[8] constant({0,16,32,48,48,48,48,48})",
            "  pid = u32[] partition-id()",
            "  id = s32[1] dynamic-slice(table, pid), dynamic_slice_sizes={1}",
            "  off = s32[] reshape(id)"]
    for i in range(1, n // 4):
        body += [f"  g_{i} = f32[16] all-gather(a_{i - 1}), "
                 "replica_groups=[1,8]<=[8], dimensions={0}, "
                 f"use_global_device_ids=true, channel_id={i}",
                 f"  p_{i} = f32[64] pad(g_{i}, zero), padding=0_48",
                 f"  d_{i} = f32[16] dynamic-slice(p_{i}, off), "
                 "dynamic_slice_sizes={16}",
                 f"  a_{i} = f32[2] slice(d_{i}), slice={{[0:2]}}"]
    return [], body, f"a_{n // 4 - 1}", "f32[2]"


GT = ["gt {", "  a = f32[] parameter(0)", "  b = f32[] parameter(1)",
      "  ROOT c = pred[] compare(a, b), direction=GT", "}"]


def topk_chain(call):
    """Blocks of a top-8 of [4,1024] (`call` of the block's input and
    index), padded back to [4,1024] for the next."""
    def make(n):
        body = ["  a_0 = f32[4,1024] parameter(0)", "  z = f32[] constant(0)"]
        for i in range(1, n // 3):
            body += call(i) + [
                f"  a_{i} = f32[4,1024] pad(t_{i}, z), padding=0_0x0_1016"]
        return GT, body, f"a_{n // 3 - 1}", "f32[4,1024]"
    return make


sorts = topk_chain(lambda i: [
    f"  s_{i} = f32[4,1024] sort(a_{i - 1}), dimensions={{1}}, to_apply=gt",
    f"  t_{i} = f32[4,8] slice(s_{i}), slice={{[0:4], [0:8]}}"])
topk_calls = topk_chain(lambda i: [
    f"  c_{i} = (f32[4,8], s32[4,8]) custom-call(a_{i - 1}), "
    "custom_call_target=\"TopK\", called_computations={gt}",
    f"  t_{i} = f32[4,8] get-tuple-element(c_{i}), index=0"])


def row_calls(n):
    body = ["  a_0 = f32[2048] parameter(0)", "  z = f32[] constant(0)"]
    for i in range(1, n // 3):
        body += [f"  c_{i} = (f32[4], s32[4]) custom-call(a_{i - 1}), "
                 "custom_call_target=\"TopK\", called_computations={gt}",
                 f"  t_{i} = f32[4] get-tuple-element(c_{i}), index=0",
                 f"  a_{i} = f32[2048] pad(t_{i}, z), padding=0_2044"]
    return GT, body, f"a_{n // 3 - 1}", "f32[2048]"


def pipelined(n):
    t = "(s32[], f32[8,8], f32[4,4,8])"
    comps, body = [], ["  zero = s32[] constant(0)", "  z = f32[] constant(0)",
                       "  x = f32[8,8] parameter(0)",
                       "  o = f32[4,4,8] broadcast(z), dimensions={}",
                       "  a_0 = f32[4,4,8] negate(o)"]
    for i in range(1, n // 26):
        comps += [f"cond_{i} {{", f"  p = {t} parameter(0)",
                  "  c = s32[] get-tuple-element(p), index=0",
                  "  n = s32[] constant(4)",
                  "  ROOT lt = pred[] compare(c, n), direction=LT", "}",
                  f"body_{i} {{", f"  p = {t} parameter(0)",
                  "  c = s32[] get-tuple-element(p), index=0",
                  "  v = f32[8,8] get-tuple-element(p), index=1",
                  "  b = f32[4,4,8] get-tuple-element(p), index=2",
                  "  zero = s32[] constant(0)",
                  "  m = f32[8,8] multiply(v, v)",
                  "  r = f32[4,8] reduce-scatter(m), replica_groups={{0,1}}, "
                  "dimensions={0}, to_apply=add",
                  "  s = f32[1,4,8] reshape(r)",
                  "  u = f32[4,4,8] dynamic-update-slice(b, s, c, zero, zero)",
                  "  one = s32[] constant(1)", "  c1 = s32[] add(c, one)",
                  f"  ROOT out = {t} tuple(c1, v, u)", "}"]
        body += [f"  i_{i} = {t} tuple(zero, x, a_{i - 1})",
                 f"  w_{i} = {t} while(i_{i}), condition=cond_{i}, "
                 f"body=body_{i}",
                 f"  a_{i} = f32[4,4,8] get-tuple-element(w_{i}), index=2"]
    return ADD + comps, body, f"a_{n // 26 - 1}", "f32[4,4,8]"


def scans(n):
    comps = ["sum {", "  x = f32[] parameter(0)", "  c = f32[] parameter(1)",
             "  s = f32[] add(x, c)", "  ROOT t = (f32[], f32[]) tuple(s, s)",
             "}"]
    body = ["  a_0 = f32[16] parameter(0)", "  z = f32[] constant(0)"]
    for i in range(1, n // 3):
        body += [f"  s_{i} = (f32[16], f32[]) scan(a_{i - 1}, z), "
                 "dimensions={0}, num_carries=1, to_apply=sum",
                 f"  a_{i} = f32[16] get-tuple-element(s_{i}), index=0"]
    return comps, body, f"a_{n // 3 - 1}", "f32[16]"


PASSES = [("hlo-simplify-fp-conversions", fp),
          ("hlo-convolution-4d-expander", conv4d),
          ("hlo-convolution-pred-expander", pred),
          ("hlo-permutation-sort-expander", perm),
          ("hlo-scatter-slice-simplifier", scatter),
          ("hlo-all-reduce-promotion", promote),
          ("hlo-all-reduce-reassociate", reassociate),
          ("hlo-reduce-scatter-reassociate", scatter_pairs),
          ("hlo-all-gather-remove-degenerate-dims", degenerate),
          ("hlo-all-gather-dynamic-slice-simplifier", own_block),
          ("hlo-all-reduce-simplifier", replicated),
          ("hlo-while-loop-all-reduce-code-motion", loops),
          ("hlo-ragged-dot-rewriter", ragged),
          ("hlo-all-gather-optimizer", gather_pairs),
          ("hlo-collective-quantizer", quantized),
          ("hlo-all-gather-pad-ds-simplifier", padded_gathers),
          ("hlo-all-reduce-splitter", split),
          ("hlo-ragged-all-to-all-canonicalizer", ragged_a2a),
          ("hlo-dot-operand-converter", mixed_dots),
          ("hlo-sub-byte-size-setter", packed),
          ("hlo-sub-byte-collective-normalization", packed_gathers),
          ("hlo-float-normalization", narrow),
          ("hlo-topk-rewriter", sorts),
          ("hlo-topk-specializer", topk_calls),
          ("hlo-topk-splitter=split-threshold=1024", row_calls),
          ("hlo-collective-pipeliner", pipelined),
          ("hlo-scan-expander", scans),
          ("hlo-sharding-propagation", unannotated),
          ("hlo-spmd-partitioner", sharded),
          ("hlo-shardy-xla", shardy)]


def module(make, n):
    comps, body, root, type_ = make(n)
    extra = OR if make is pred else []
    devices = ("num_partitions=8" if make in (split, padded_gathers)
               else "num_partitions=4" if make in (sharded, unannotated)
               else 'num_partitions=4, frontend_attributes={xla.sdy.meshes='
               '{mesh = #sdy.mesh<["x"=4]>}}' if make is shardy
               else "replica_count=2")
    lines = [f"HloModule rewrites, {devices}", ""] + comps + extra + ["", "ENTRY main {"]
    lines += body + [f"  ROOT out = {type_} copy({root})", "}"]
    return "\n".join(lines) + "\n"


def main():
    makers = dict(PASSES)

    def source(tmp, size, p, opt):
        src = tmp / f"{p}{size}.hlo"
        src.write_text(module(makers[p], size))
        return src

    run_scaling(__doc__, [p for p, _ in PASSES], source)


if __name__ == "__main__":
    main()
