#!/usr/bin/env python3
"""Write HLO modules whose collectives can overlap compute, the workloads
the latency-hiding scheduler is for (bench/lhs_vs_xla.py).

- `dp`: a data-parallel training step of an L-layer MLP (tanh layers,
  x[B,W] times w_i[W,W]): forward, backward, and an all-reduce of every
  weight gradient across the replicas, each as soon as it is computed, then
  the SGD update. Layer i's all-reduce can run while layers i-1..1 are
  differentiated.
- `fsdp`: the forward pass of the same MLP with its weights sharded over
  the replicas (FSDP / ZeRO-3): every layer all-gathers its weight first;
  the all-gather of layer i+1 can run while layer i computes.

Usage: gen_collectives.py {dp,fsdp} [--layers L] [--width W] [--batch B]
       [--replicas R] [-o FILE]
"""

import argparse
import sys


def dp(layers, width, batch, replicas):
    w, b = width, batch
    lines = [f"HloModule dp_mlp_{layers}x{w}, replica_count={replicas}", "",
             "add {", "  x = f32[] parameter(0)", "  y = f32[] parameter(1)",
             "  ROOT s = f32[] add(x, y)", "}", "", "ENTRY step {",
             f"  x = f32[{b},{w}] parameter(0)"]
    for i in range(1, layers + 1):
        lines.append(f"  w{i} = f32[{w},{w}] parameter({i})")
    lines.append(f"  lr = f32[] constant(0.01)")
    lines.append(f"  one = f32[] constant(1)")
    lines.append(f"  ones = f32[{b},{w}] broadcast(one), dimensions={{}}")
    h = "x"
    for i in range(1, layers + 1):
        lines.append(f"  z{i} = f32[{b},{w}] dot({h}, w{i}), "
                     "lhs_contracting_dims={1}, rhs_contracting_dims={0}")
        lines.append(f"  h{i} = f32[{b},{w}] tanh(z{i})")
        h = f"h{i}"
    # d loss / d h_L = h_L (loss = sum(h_L^2) / 2).
    g = h
    for i in range(layers, 0, -1):
        prev = "x" if i == 1 else f"h{i - 1}"
        lines.append(f"  sq{i} = f32[{b},{w}] multiply(h{i}, h{i})")
        lines.append(f"  dt{i} = f32[{b},{w}] subtract(ones, sq{i})")
        lines.append(f"  gz{i} = f32[{b},{w}] multiply({g}, dt{i})")
        lines.append(f"  dw{i} = f32[{w},{w}] dot({prev}, gz{i}), "
                     "lhs_contracting_dims={0}, rhs_contracting_dims={0}")
        lines.append(f"  ar{i} = f32[{w},{w}] all-reduce(dw{i}), "
                     f"replica_groups={{{{{','.join(map(str, range(replicas)))}}}}}, "
                     "to_apply=add")
        lines.append(f"  lrb{i} = f32[{w},{w}] broadcast(lr), dimensions={{}}")
        lines.append(f"  st{i} = f32[{w},{w}] multiply(lrb{i}, ar{i})")
        lines.append(f"  nw{i} = f32[{w},{w}] subtract(w{i}, st{i})")
        if i > 1:
            lines.append(f"  gh{i - 1} = f32[{b},{w}] dot(gz{i}, w{i}), "
                         "lhs_contracting_dims={1}, rhs_contracting_dims={1}")
            g = f"gh{i - 1}"
    outs = ", ".join(f"nw{i}" for i in range(1, layers + 1))
    shapes = ", ".join(f"f32[{w},{w}]" for _ in range(layers))
    lines.append(f"  ROOT r = ({shapes}) tuple({outs})")
    lines.append("}")
    return "\n".join(lines) + "\n"


def fsdp(layers, width, batch, replicas):
    w, b = width, batch
    shard = w // replicas
    lines = [f"HloModule fsdp_mlp_{layers}x{w}, replica_count={replicas}", "",
             "ENTRY forward {", f"  x = f32[{b},{w}] parameter(0)"]
    for i in range(1, layers + 1):
        lines.append(f"  shard{i} = f32[{shard},{w}] parameter({i})")
    h = "x"
    group = ",".join(map(str, range(replicas)))
    for i in range(1, layers + 1):
        lines.append(f"  w{i} = f32[{w},{w}] all-gather(shard{i}), "
                     f"dimensions={{0}}, replica_groups={{{{{group}}}}}")
        lines.append(f"  z{i} = f32[{b},{w}] dot({h}, w{i}), "
                     "lhs_contracting_dims={1}, rhs_contracting_dims={0}")
        root = "ROOT " if i == layers else ""
        lines.append(f"  {root}h{i} = f32[{b},{w}] tanh(z{i})")
        h = f"h{i}"
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=["dp", "fsdp"])
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--width", type=int, default=1024)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--replicas", type=int, default=2)
    ap.add_argument("-o", "--output")
    args = ap.parse_args()
    text = (dp if args.kind == "dp" else fsdp)(args.layers, args.width,
                                                args.batch, args.replicas)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
