#!/usr/bin/env python3
"""Writes HLO modules whose ENTRY is one large fusion, for indexing_bench.py.

  python3 bench/gen_fusion.py --kind elementwise --ops 1000 -o /tmp/f.hlo

Kinds (N = --ops instructions inside the fused computation, parameters
excluded):
  elementwise  a chain alternating unary ops and binary ops with one of the
               fusion's two parameters, f32[64,128];
  reshape      a chain of reshapes cycling f32[64,128] -> [128,64] -> [8192]
               -> [32,256] -> [64,128], with an add of a parameter every 4th
               op so every step has a consumer map to compose;
  softmax      chained softmax blocks of 7 ops (reduce max, broadcast,
               subtract, exponential, reduce add, broadcast, divide) over
               f32[8,64,128]: every block reads its input through two maps.
"""
import argparse
import sys


def elementwise(n):
    shape = "f32[64,128]"
    body, prev = [], "p0"
    unary = ["exponential", "negate", "tanh", "abs"]
    for i in range(n):
        name = f"e{i}"
        if i % 2 == 0:
            body.append(f"{name} = {shape} {unary[(i // 2) % 4]}({prev})")
        else:
            body.append(f"{name} = {shape} add({prev}, p{1 if i % 4 == 1 else 0})")
        prev = name
    return [shape, shape], body, prev, shape


def reshape(n):
    cycle = ["f32[128,64]", "f32[8192]", "f32[32,256]", "f32[64,128]"]
    body, prev, shape = [], "p0", "f32[64,128]"
    for i in range(n):
        name = f"r{i}"
        if i % 4 == 3 and shape == "f32[64,128]":
            body.append(f"{name} = {shape} add({prev}, p1)")
        else:
            shape = cycle[i % 4]
            body.append(f"{name} = {shape} reshape({prev})")
        prev = name
    if shape != "f32[64,128]":
        body.append(f"rfinal = f32[64,128] reshape({prev})")
        prev = "rfinal"
    return ["f32[64,128]", "f32[64,128]"], body, prev, "f32[64,128]"


def softmax(n):
    full, red = "f32[8,64,128]", "f32[8,64]"
    body, prev = [], "p0"
    body.append("ninf = f32[] constant(-inf)")
    body.append("zero = f32[] constant(0)")
    for b in range(max(1, n // 7)):
        body += [
            f"mx{b} = {red} reduce({prev}, ninf), dimensions={{2}}, to_apply=max",
            f"bmx{b} = {full} broadcast(mx{b}), dimensions={{0,1}}",
            f"sub{b} = {full} subtract({prev}, bmx{b})",
            f"ex{b} = {full} exponential(sub{b})",
            f"sm{b} = {red} reduce(ex{b}, zero), dimensions={{2}}, to_apply=add",
            f"bsm{b} = {full} broadcast(sm{b}), dimensions={{0,1}}",
            f"div{b} = {full} divide(ex{b}, bsm{b})",
        ]
        prev = f"div{b}"
    return [full, full], body, prev, full


def module(kind, n):
    params, body, root, shape = {"elementwise": elementwise,
                                 "reshape": reshape,
                                 "softmax": softmax}[kind](n)
    lines = ["HloModule fusion_bench", ""]
    for op, init in (("max", ""), ("add", "")):
        lines += [f"{op} {{", "  a = f32[] parameter(0)",
                  "  b = f32[] parameter(1)",
                  f"  ROOT r = f32[] {'maximum' if op == 'max' else 'add'}(a, b)",
                  "}", ""]
    lines.append("fused {")
    for i, p in enumerate(params):
        lines.append(f"  p{i} = {p} parameter({i})")
    for inst in body[:-1]:
        lines.append("  " + inst)
    lines.append("  ROOT " + body[-1])
    lines += ["}", "", "ENTRY main {"]
    for i, p in enumerate(params):
        lines.append(f"  a{i} = {p} parameter({i})")
    args = ", ".join(f"a{i}" for i in range(len(params)))
    lines.append(f"  ROOT f = {shape} fusion({args}), kind=kLoop, calls=fused")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kind", choices=["elementwise", "reshape", "softmax"],
                    required=True)
    ap.add_argument("--ops", type=int, required=True)
    ap.add_argument("-o", "--output")
    args = ap.parse_args()
    text = module(args.kind, args.ops)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
