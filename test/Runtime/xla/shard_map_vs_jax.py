#!/usr/bin/env python3
"""JAX programs with shard_map and sharded arguments, run by JAX (XLA CPU
on simulated devices) and by this project, compared.

Each program below is jitted on a mesh of 4 host devices; XLA's dump
before optimizations (the HLO JAX hands XLA: Shardy's round-trip form,
shard_maps as xla.sdy calls) is run with the same whole arguments

  - by the interpreter as it is (shard_map boundaries on 4 simulated
    partitions, nothing partitioned): `hlo-run MODULE`;
  - partitioned (`hlo-run MODULE --spmd`: hlo-spmd-partitioning, each
    partition on its tiles);
  - partitioned and compiled to thunks on the host runtime
    (`hlo-run MODULE --spmd --device=host`);

and each result is compared with JAX's. The table also counts the
collectives (all-gather, all-reduce, reduce-scatter, all-to-all,
collective-permute) that hlo-spmd-partitioning leaves and that XLA's
partitioner leaves (its dump after spmd-partitioning). Exits 1 on a
mismatch or an error. Needs jax (scripts/setup.sh installs it; lit runs
it as test/Runtime/shard-map-vs-jax.test):

  python3 test/Runtime/xla/shard_map_vs_jax.py [--hlo-run build/bin/hlo-run]
      [--keep DIR] [--gspmd]

With --gspmd JAX lowers without Shardy (GSPMD's form of the same
programs: Sharding calls, manual shardings), and XLA partitions with its
GSPMD pipeline.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def programs(jax, jnp, P, shard_map, mesh, mesh1):
    """(name, function, [(shape, partition spec)]) of each program."""
    lax = jax.lax
    out = []

    def add(name, fn, *args):
        out.append((name, fn, list(args)))

    def matmul_psum(x, w):
        body = lambda a, b: lax.psum(a @ b, "model")
        y = shard_map(body, mesh=mesh, in_specs=(P("data", "model"),
                      P("model", None)), out_specs=P("data", None))(x, w)
        return jnp.tanh(y)
    add("matmul_psum", matmul_psum, ((8, 16), P("data", "model")),
        ((16, 4), P("model", None)))

    def partial_axes(x, w):
        body = lambda a, b: lax.psum(a @ b, "model")
        y = shard_map(body, mesh=mesh, in_specs=(P(None, "model"),
                      P("model", None)), out_specs=P(),
                      axis_names={"model"})(x, w)
        return jnp.tanh(y)
    add("partial_axes", partial_axes, ((8, 16), P("data", "model")),
        ((16, 4), P("model", None)))

    # Shard_maps over "model" whose bodies "data" partitions: an MLP on
    # the batch's rows, a ring over "model" of a sharding constraint's
    # tiles, a transpose whose tiles a constraint moves.
    def partial_mlp(x, w1, w2):
        def body(a, b, c):
            return lax.psum(jnp.tanh(a @ b) @ c, "model")
        y = shard_map(body, mesh=mesh, in_specs=(P(), P(None, "model"),
                      P("model", None)), out_specs=P(),
                      axis_names={"model"})(x, w1, w2)
        return y * 2.0
    add("partial_mlp", partial_mlp, ((8, 16), P("data", None)),
        ((16, 8), P(None, "model")), ((8, 16), P("model", None)))

    def partial_ring(x):
        def body(a):
            a = jax.lax.with_sharding_constraint(
                jnp.sin(a), P("data", None))
            return lax.ppermute(a, "model", [(0, 1), (1, 0)]) + a
        return shard_map(body, mesh=mesh, in_specs=P(None, "model"),
                         out_specs=P(None, "model"),
                         axis_names={"model"})(x)
    add("partial_ring", partial_ring, ((8, 8), P("data", "model")))

    def partial_transpose(x):
        def body(a):
            b = jax.lax.with_sharding_constraint(a.T * 2.0, P("data", None))
            return lax.psum(b, "model")
        return shard_map(body, mesh=mesh, in_specs=P(None, "model"),
                         out_specs=P(), axis_names={"model"})(x)
    add("partial_transpose", partial_transpose, ((8, 8), P("data", "model")))

    # Shard_maps over "model" with a loop and a conditional in their
    # bodies, which "data" partitions too.
    def partial_scan(x, w):
        def body(a, b):
            i = lax.axis_index("model").astype(jnp.float32)

            def step(c, _):
                return jnp.tanh(c @ b + i), None
            c, _ = lax.scan(step, a * (i + 1.0), None, length=3)
            return lax.psum(c, "model")
        y = shard_map(body, mesh=mesh, in_specs=(P(), P()), out_specs=P(),
                      axis_names={"model"})(x, w)
        return y * 2.0
    add("partial_scan", partial_scan, ((8, 16), P("data", None)),
        ((16, 16), P()))

    # A pipeline over "model" (each stage its own weights, the activations
    # passed on by a ppermute in a loop), its rows split by "data".
    def partial_pipeline(x, w):
        def body(a, b):
            i = lax.axis_index("model").astype(jnp.float32)

            def step(_, c):
                c = jnp.tanh(c @ b[0] + i)
                return lax.ppermute(c, "model", [(0, 1), (1, 0)])
            return lax.fori_loop(0, 4, step, a * (i + 1.0))
        return shard_map(body, mesh=mesh, in_specs=(P(), P("model")),
                         out_specs=P("model"), axis_names={"model"})(x, w)
    add("partial_pipeline", partial_pipeline, ((8, 16), P("data", None)),
        ((2, 16, 16), P("model")))

    def partial_cond(x, w):
        def body(a, b):
            i = lax.axis_index("model")
            c = lax.cond(i == 0, lambda v: jnp.sin(v @ b),
                         lambda v: jnp.cos(v) * 3.0, a)
            return lax.psum(c, "model")
        return shard_map(body, mesh=mesh, in_specs=(P(), P()), out_specs=P(),
                         axis_names={"model"})(x, w)
    add("partial_cond", partial_cond, ((8, 16), P("data", None)),
        ((16, 16), P()))

    def collectives(x, y):
        def body(a, b):
            s = lax.psum(jnp.sum(a), ("data", "model"))
            g = lax.all_gather(b, "data", tiled=True)
            p = lax.ppermute(a, "model", [(0, 1), (1, 0)])
            return a * s, g, p
        a, b, c = shard_map(body, mesh=mesh, in_specs=(P("data", "model"),
                            P("data")), out_specs=(P("data", "model"),
                            P(None), P("data", "model")),
                            check_vma=False)(x, y)
        return a + c, b * 2
    add("collectives", collectives, ((8, 16), P("data", "model")),
        ((8,), P("data")))

    def reduce_scatter(x):
        body = lambda a: lax.psum_scatter(a, "model", scatter_dimension=0,
                                          tiled=True)
        return shard_map(body, mesh=mesh, in_specs=P(None, "data"),
                         out_specs=P("model", "data"))(x) * 3.0
    add("reduce_scatter", reduce_scatter, ((8, 8), P(None, "data")))

    def all_to_all(x):
        body = lambda a: lax.all_to_all(a, "x", 1, 0, tiled=True)
        return shard_map(body, mesh=mesh1, in_specs=P("x", None),
                         out_specs=P(None, "x"))(x)
    add("all_to_all", all_to_all, ((8, 8), P("x", None)))

    def axis_index(x):
        def body(a):
            i = lax.axis_index("model").astype(jnp.float32)
            return a + i * 10.0
        return shard_map(body, mesh=mesh, in_specs=P("data", "model"),
                         out_specs=P("data", "model"))(x)
    add("axis_index", axis_index, ((4, 8), P("data", "model")))

    def loop(x):
        def body(a):
            def step(i, acc):
                return acc + lax.psum(jnp.sin(acc), "data") * 0.1
            return lax.fori_loop(0, 3, step, a)
        return shard_map(body, mesh=mesh, in_specs=P("data", None),
                         out_specs=P("data", None))(x)
    add("loop", loop, ((8, 4), P("data", None)))

    def around(x, w):
        h = jnp.maximum(x @ w, 0.0)
        body = lambda a: a - lax.pmean(jnp.mean(a, axis=0), "data")
        y = shard_map(body, mesh=mesh, in_specs=P("data", None),
                      out_specs=P("data", None))(h)
        return jnp.sum(y * y, axis=1)
    add("around", around, ((8, 16), P("data", None)),
        ((16, 8), P(None, None)))

    def sharded_only(x, w):
        return jnp.tanh(x @ w).sum(axis=0)
    add("sharded_only", sharded_only, ((8, 16), P("data", "model")),
        ((16, 4), P("model", None)))

    # Sharded programs without shard_map: XLA's propagation and ours decide.
    def attention(x, wq, wk, wv, wo):
        q = (x @ wq).reshape(4, 8, 2, 8)
        k = (x @ wk).reshape(4, 8, 2, 8)
        v = (x @ wv).reshape(4, 8, 2, 8)
        a = jax.nn.softmax(jnp.einsum("bqhd,bkhd->bhqk", q, k) / 4.0, -1)
        o = jnp.einsum("bhqk,bkhd->bqhd", a, v).reshape(4, 8, 16)
        return o @ wo
    add("attention", attention, ((4, 8, 16), P("data", None, None)),
        ((16, 16), P(None, "model")), ((16, 16), P(None, "model")),
        ((16, 16), P(None, "model")), ((16, 16), P("model", None)))

    def layernorm_mlp(x, g, w1, w2):
        m = jnp.mean(x, -1, keepdims=True)
        v = jnp.mean((x - m) ** 2, -1, keepdims=True)
        h = (x - m) / jnp.sqrt(v + 1e-5) * g
        return jax.nn.gelu(h @ w1) @ w2
    add("layernorm_mlp", layernorm_mlp, ((8, 16), P("data", None)),
        ((16,), P(None)), ((16, 32), P(None, "model")),
        ((32, 16), P("model", None)))

    def embedding(table, ids):
        return jnp.take(table, ids, axis=0).sum(axis=1)
    out.append(("embedding", embedding,
                [((16, 8), P("model", None)), ((8, 4), P("data", None), "ids")]))

    def embedding_grad(table, ids, g):
        def loss(t):
            return jnp.sum(jnp.tanh(jnp.take(t, ids, axis=0)) * g)
        return jax.grad(loss)(table)
    out.append(("embedding_grad", embedding_grad,
                [((16, 8), P(None, "model")), ((8, 4), P("data", None), "ids"),
                 ((8, 4, 8), P("data", None, "model"))]))

    out.append(("vocab_grad", embedding_grad,
                [((16, 8), P("model", None)), ((8, 4), P("data", None), "ids"),
                 ((8, 4, 8), P("data", None, None))]))

    def scatter_rows(x, ids, u):
        return x.at[ids].add(u)
    out.append(("scatter_rows", scatter_rows,
                [((16, 8), P(None, "model")), ((6,), P(), "ids"),
                 ((6, 8), P(None, "model"))]))

    def cross_entropy(logits, labels):
        lp = jax.nn.log_softmax(logits, -1)
        return -jnp.mean(jnp.sum(lp * labels, -1))
    add("cross_entropy", cross_entropy, ((8, 16), P("data", "model")),
        ((8, 16), P("data", "model")))

    def conv(x, k):
        return lax.conv_general_dilated(x, k, (1, 1), "SAME",
                                        dimension_numbers=("NHWC", "HWIO",
                                                           "NHWC"))
    add("conv", conv, ((4, 6, 6, 4), P("data", None, None, None)),
        ((3, 3, 4, 8), P(None, None, None, "model")))

    def scan_rnn(xs, w):
        def step(h, x):
            h = jnp.tanh(h @ w + x)
            return h, h
        return lax.scan(step, jnp.zeros((8, 16)), xs)[1]
    add("scan_rnn", scan_rnn, ((5, 8, 16), P(None, "data", None)),
        ((16, 16), P(None, "model")))

    def scan_layers(x, ws):
        def layer(h, w):
            return jax.nn.relu(h @ w), None
        return lax.scan(layer, x, ws)[0]
    add("scan_layers", scan_layers, ((8, 16), P("data", None)),
        ((3, 16, 16), P(None, None, "model")))

    def while_max(x):
        return lax.while_loop(lambda v: jnp.max(v) < 50.0,
                              lambda v: v * 2.0 + 1.0, jnp.abs(x) + 1.0)
    add("while_max", while_max, ((8, 16), P("data", "model")))

    def nested_scan(xs, w):
        def outer(h, x):
            def inner(g, _):
                return jnp.tanh(g * w + x), None
            return lax.scan(inner, h, None, length=2)[0], h.sum()
        return lax.scan(outer, jnp.ones((8, 16)), xs)
    add("nested_scan", nested_scan, ((4, 8, 16), P(None, "data", "model")),
        ((8, 16), P("data", "model")))

    def cond_branches(x, w):
        return lax.cond(jnp.sum(x) > 0, lambda a: jnp.tanh(a @ w),
                        lambda a: -(a @ w), x)
    add("cond_branches", cond_branches, ((8, 16), P("data", None)),
        ((16, 8), P(None, "model")))

    def fsdp_grad(x, w1, w2):
        def loss(ws):
            h = jax.nn.relu(x @ ws[0])
            return jnp.mean((h @ ws[1]) ** 2)
        return jax.grad(loss)((w1, w2))
    add("fsdp_grad", fsdp_grad, ((8, 16), P("data", None)),
        ((16, 32), P("data", "model")), ((32, 4), P("model", None)))

    def conv_spatial(x, k):
        y = jax.nn.relu(lax.conv_general_dilated(
            x, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")))
        y = lax.reduce_window(y, -jnp.inf, lax.max, (1, 3, 3, 1),
                              (1, 1, 1, 1), "SAME")
        return lax.reduce_window(y, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1),
                                 "VALID")
    add("conv_spatial", conv_spatial,
        ((2, 8, 8, 3), P(None, "data", "model", None)), ((3, 3, 3, 4), P()))

    def conv_strided(x, k):
        return lax.conv_general_dilated(
            x, k, (2, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    add("conv_strided", conv_strided,
        ((2, 16, 6, 3), P(None, ("data", "model"), None, None)),
        ((3, 3, 3, 4), P()))

    def conv_grad(x, k):
        def loss(x, k):
            y = jnp.tanh(lax.conv_general_dilated(
                x, k, (1, 1), "SAME",
                dimension_numbers=("NHWC", "HWIO", "NHWC")))
            return jnp.sum(y * y)
        return jax.grad(loss, argnums=(0, 1))(x, k)
    add("conv_grad", conv_grad,
        ((2, 8, 8, 3), P(None, "data", "model", None)), ((3, 3, 3, 4), P()))

    def conv_dp_grad(x, k):  # its own name: XLA's dump is found by it
        return conv_grad(x, k)
    add("conv_dp_grad", conv_dp_grad,
        ((4, 6, 6, 3), P(("data", "model"), None, None, None)),
        ((3, 3, 3, 4), P()))

    def pool_grad(x):
        def loss(x):
            y = lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1),
                                  (1, 2, 2, 1), "VALID")
            return jnp.sum(jnp.sin(y))
        return jax.grad(loss)(x)
    add("pool_grad", pool_grad, ((2, 8, 8, 3), P(None, "data", "model", None)))

    def cnn_grad(x, k):
        def loss(x, k):
            y = jax.nn.relu(lax.conv_general_dilated(
                x, k, (2, 2), "SAME",
                dimension_numbers=("NHWC", "HWIO", "NHWC")))
            y = lax.reduce_window(y, -jnp.inf, lax.max, (1, 3, 3, 1),
                                  (1, 2, 2, 1), "SAME")
            return jnp.sum(jnp.sin(y))
        return jax.grad(loss, argnums=(0, 1))(x, k)
    add("cnn_grad", cnn_grad,
        ((2, 32, 8, 3), P(None, ("data", "model"), None, None)),
        ((3, 3, 3, 4), P()))

    # A depthwise convolution (feature groups) by batch and by channels.
    def depthwise(x, k):
        y = lax.conv_general_dilated(
            x, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"),
            feature_group_count=8)
        return jnp.tanh(y)
    add("depthwise", depthwise, ((4, 8, 8, 8), P("data", None, None, "model")),
        ((3, 3, 1, 8), P(None, None, None, "model")))

    # Its gradient, data-parallel: the kernel's a convolution with batch
    # groups.
    def depthwise_grad(x, k):
        def loss(x, k):
            return jnp.sum(jnp.tanh(depthwise(x, k)))
        return jax.grad(loss, argnums=(0, 1))(x, k)
    add("depthwise_grad", depthwise_grad,
        ((4, 8, 8, 8), P("data", None, None, None)), ((3, 3, 1, 8), P()))

    def misc(x, y):
        c = jnp.concatenate([x, y], axis=1)
        s = jnp.cumsum(c, axis=0)
        t = jnp.sort(c, axis=1)
        a = jnp.argmax(c, axis=1).astype(jnp.float32)
        d = lax.dynamic_slice_in_dim(c, 2, 4, axis=0)
        return s[:, ::2] + t[:, 1::2], a, d.T
    add("misc", misc, ((8, 6), P("data", None)), ((8, 6), P("data", "model")))

    def roll(x):
        return (jnp.roll(x, 3, axis=0) * 2.0 + jnp.roll(x, -1, axis=1) +
                jnp.roll(jnp.sin(x), (11, 2), axis=(0, 1)))
    add("roll", roll, ((16, 8), P("data", "model")))

    def wrap_update(x, y, i):
        w = jnp.pad(x, ((1, 2), (0, 0)), mode="wrap") * 1.5
        return w, lax.dynamic_update_slice_in_dim(x, y, i[0], axis=0)
    add("wrap_update", wrap_update, ((16, 8), P("data", "model")),
        ((4, 8), P()), ((1,), P(), "int"))

    # Sharding constraints leaving dimensions to propagation
    # (P.UNCONSTRAINED: Shardy's open dimensions): the first keeps the
    # dot's "model" tiles along its open dimension, the second gives up
    # those along its closed one.
    def unconstrained(x, w):
        from jax.sharding import NamedSharding
        y = jnp.tanh(x @ w)
        a = jax.lax.with_sharding_constraint(
            y, NamedSharding(mesh, P("data", P.UNCONSTRAINED)))
        b = jax.lax.with_sharding_constraint(
            y, NamedSharding(mesh, P(P.UNCONSTRAINED, None)))
        return jnp.sum(a * 2.0, axis=1), jnp.exp(b)
    add("unconstrained", unconstrained, ((8, 16), P("data", None)),
        ((16, 8), P(None, "model")))

    # shard_alike: one sharding for two values (Shardy's sharding group;
    # GSPMD's `{unknown shard_as 0}` constraints).
    def alike(x, y):
        from jax.experimental.shard_alike import shard_alike
        a, b = shard_alike(jnp.tanh(x), jnp.sin(y))
        return a + 1.0, b * 2.0
    add("shard_alike", alike, ((8, 8), P("data", "model")), ((8, 8), P()))
    return out


# Programs whose result XLA CPU's partitioned program gets wrong: compared
# with the program on one device instead. depthwise_grad: XLA 0.10.2 sums
# the partial kernel gradients of the data-parallel batch-grouped
# convolution over all 4 partitions ({0,1,2,3}), where only "data" (2)
# split the batch, so its kernel gradient is twice the true one.
XLA_WRONG = {"depthwise_grad"}

COLLECTIVE = re.compile(r"[\]}] (all-gather|all-reduce|reduce-scatter|"
                        r"all-to-all|collective-permute)(-start)?\(")


def collectives(hlo_text):
    """The collectives of an HLO module's text (once each: XLA's dumps
    print some instructions twice)."""
    seen = set()
    for line in hlo_text.splitlines():
        if COLLECTIVE.search(line):
            seen.add(line.strip())
    return len(seen)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--hlo-run", default="build/bin/hlo-run",
                    help="the hlo-run to check")
    ap.add_argument("--keep", help="keep the modules and arrays here")
    ap.add_argument("--atol", type=float, default=1e-4)
    ap.add_argument("--only", nargs="*", help="run these programs only")
    ap.add_argument("--gspmd", action="store_true",
                    help="lower without Shardy (GSPMD's form: Sharding "
                         "calls, manual shardings)")
    args = ap.parse_args()
    work = Path(args.keep or tempfile.mkdtemp(prefix="shard_map_vs_jax."))
    work.mkdir(parents=True, exist_ok=True)
    dump = work / "dump"
    shutil.rmtree(dump, ignore_errors=True)
    os.environ["XLA_FLAGS"] = ("--xla_force_host_platform_device_count=4 "
                               f"--xla_dump_to={dump} "
                               "--xla_dump_hlo_pass_re=spmd-partitioning")
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import shard_map
    from jax.sharding import NamedSharding, PartitionSpec as P
    if args.gspmd:
        jax.config.update("jax_use_shardy_partitioner", False)

    # Automatic axes: XLA's propagation decides what the program leaves open.
    auto = jax.sharding.AxisType.Auto
    mesh = jax.make_mesh((2, 2), ("data", "model"), axis_types=(auto, auto))
    mesh1 = jax.make_mesh((4,), ("x",), axis_types=(auto,))
    hlo_run = args.hlo_run
    rng = np.random.default_rng(0)
    runs = [("interpreter", []), ("--spmd", ["--spmd"]),
            ("--spmd --device=host", ["--spmd", "--device=host"])]
    rows, bad = [], 0
    for name, fn, specs in programs(jax, jnp, P, shard_map, mesh, mesh1):
        if args.only and name not in args.only:
            continue
        m = mesh1 if name == "all_to_all" else mesh
        inputs, paths = [], []
        for i, (shape, spec, *kind) in enumerate(specs):
            a = (rng.integers(0, specs[0][0][0], shape).astype(np.int32)
                 if kind else rng.standard_normal(shape).astype(np.float32))
            p = work / f"{name}.arg{i}.npy"
            np.save(p, a)
            paths.append(str(p))
            inputs.append(jax.device_put(a, NamedSharding(m, spec)))
        # (Files of this program only: two programs may share a function.)
        before = set(dump.glob("*")) if dump.exists() else set()
        want = jax.tree.leaves(jax.jit(fn)(*inputs))
        new = [f for f in dump.glob("*before_optimizations.txt")
               if f not in before and f"jit_{fn.__name__}." in f.name]
        module = work / f"{name}.hlo"
        module.write_text(sorted(new)[-1].read_text())
        xla = [f for f in dump.glob(f"*jit_{fn.__name__}.*")
               if "after_spmd-partitioning" in f.name and f not in before]
        if name in XLA_WRONG:
            want = jax.tree.leaves(jax.jit(fn)(
                *[np.load(p) for p in paths]))
        ours = subprocess.run(
            [args.hlo_run.replace("hlo-run", "hlo-opt"), str(module),
             "--hlo-spmd-partitioning", "--output-format=hlo"],
            capture_output=True, text=True, timeout=600).stdout
        row = [name, f"{collectives(ours)} / " +
               (str(collectives(xla[0].read_text())) if xla else "-")]
        for label, flags in runs:
            out = work / f"{name}.{label.replace(' ', '_').strip('-')}"
            res = subprocess.run([hlo_run, str(module), "--input", *paths,
                                  "--output-dir", str(out), *flags],
                                 capture_output=True, text=True, timeout=600)
            if res.returncode:
                row.append("error: " + res.stderr.strip().splitlines()[-1])
                bad += 1
                continue
            diff = max(float(np.max(np.abs(
                np.load(out / f"result_{i}.npy") - np.asarray(w))))
                for i, w in enumerate(want)) if len(want) > 1 else float(
                np.max(np.abs(np.load(out / "result_0.npy") -
                              np.asarray(want[0]))))
            row.append(f"{diff:.1e}" + ("" if diff <= args.atol else " MISMATCH"))
            bad += diff > args.atol
        rows.append(row)
    print("| program | collectives (ours / XLA) | " +
          " | ".join(label for label, _ in runs) + " |")
    print("|---" * (len(runs) + 2) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print(f"\n{len(rows)} programs, {bad} failures; max abs difference from "
          f"JAX's result (XLA CPU, 4 devices), atol {args.atol}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
