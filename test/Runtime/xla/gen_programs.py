#!/usr/bin/env python3
"""Generates the HLO modules of the XLA oracle (test/Runtime/xla/modules).

Each program below is a small real JAX program. For each we store the HLO
that jax.jit(f).lower(*args) gives before XLA's optimizations
(`NAME.hlo`), and for some also what XLA's CPU compiler makes of it
(`NAME.cpu_opt.hlo`: fusions, layouts, backend configs). Metadata is not
printed (it only adds bytes). `manifest.json` records, per module, how
compare_xla.py must draw each parameter (index ranges, positive values,
...) and any tolerance that differs from the per-dtype default.

Run by hand when the programs change (needs jax); CI only runs
compare_xla.py on the stored modules:

    python3 test/Runtime/xla/gen_programs.py [--out DIR]
"""

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from jax.scipy import linalg as jsp_linalg  # noqa: E402
from jax._src.lib import hlo  # noqa: E402

PROGRAMS = []


class Arg:
    """A parameter: shape, dtype and how compare_xla.py draws it."""

    def __init__(self, shape, dtype, draw=None):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.draw = draw  # None: the dtype's default (see compare_xla.py)

    def example(self):
        return np.zeros(self.shape, self.dtype)


def f32(*shape, draw=None):
    return Arg(shape, np.float32, draw)


def bf16(*shape, draw=None):
    return Arg(shape, ml_dtypes.bfloat16, draw)


def f16(*shape, draw=None):
    return Arg(shape, np.float16, draw)


def s32(*shape, draw=None):
    return Arg(shape, np.int32, draw)


def u32(*shape, draw=None):
    return Arg(shape, np.uint32, draw)


def u8(*shape, draw=None):
    return Arg(shape, np.uint8, draw)


def f8e4m3fn(*shape, draw=None):
    return Arg(shape, ml_dtypes.float8_e4m3fn, draw)


def f8e5m2(*shape, draw=None):
    return Arg(shape, ml_dtypes.float8_e5m2, draw)


def f8e8m0fnu(*shape, draw=None):
    return Arg(shape, ml_dtypes.float8_e8m0fnu, draw)


def pred(*shape):
    return Arg(shape, np.bool_, None)


def ints(low, high):
    """Integers uniform in [low, high] (both included)."""
    return {"int": [low, high]}


def uniform(low, high):
    return {"uniform": [low, high]}


def c64(*shape, draw=None):
    return Arg(shape, np.complex64, draw)


def program(name, *args, optimized=False, cuda=False, atol=None, rtol=None):
    """`cuda`: also store JAX's lowering for CUDA (`NAME.cuda.hlo`, its
    library calls are cuSOLVER's), which XLA CPU cannot run: the oracle runs
    the program's CPU lowering on the same inputs."""
    def register(fn):
        PROGRAMS.append(dict(name=name, fn=fn, args=args, optimized=optimized,
                             cuda=cuda, atol=atol, rtol=rtol))
        return fn
    return register


#===----------------------------------------------------------------------===#
# Models
#===----------------------------------------------------------------------===#

@program("mlp", f32(8, 32), f32(32, 64), f32(64), f32(64, 10), f32(10),
         optimized=True)
def mlp(x, w1, b1, w2, b2):
    h = jax.nn.relu(x @ w1 + b1)
    return jax.nn.softmax(h @ w2 + b2, axis=-1)


@program("mlp_bf16", bf16(4, 16), bf16(16, 32), bf16(32), bf16(32, 8),
         optimized=True)
def mlp_bf16(x, w1, b1, w2):
    h = jax.nn.gelu(x @ w1 + b1)
    return h @ w2


@program("attention", f32(2, 4, 16, 8), f32(2, 4, 16, 8), f32(2, 4, 16, 8),
         optimized=True)
def attention(q, k, v):
    scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(8.0)
    n = q.shape[2]
    causal = lax.broadcasted_iota(jnp.int32, (n, n), 0) >= \
        lax.broadcasted_iota(jnp.int32, (n, n), 1)
    scores = jnp.where(causal, scores, -1e9)
    weights = jax.nn.softmax(scores, axis=-1)
    return jnp.einsum("bhqk,bhkd->bhqd", weights, v)


@program("layernorm", f32(8, 64), f32(64), f32(64), optimized=True)
def layernorm(x, gamma, beta):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + 1e-5) * gamma + beta


@program("softmax", f32(4, 33), optimized=True)
def softmax(x):
    return jax.nn.softmax(x * 4.0, axis=-1), jax.nn.log_softmax(x, axis=0)


@program("conv_block", f32(2, 8, 8, 3), f32(3, 3, 3, 8), f32(8),
         f32(3, 3, 1, 8), optimized=True)
def conv_block(x, w, b, dw):
    dn = ("NHWC", "HWIO", "NHWC")
    y = lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=dn)
    y = jax.nn.relu(y + b)
    # Depthwise, strided.
    y = lax.conv_general_dilated(y, dw, (2, 2), ((1, 1), (1, 1)),
                                 dimension_numbers=dn, feature_group_count=8)
    pooled = lax.reduce_window(y, -jnp.inf, lax.max, (1, 2, 2, 1),
                               (1, 2, 2, 1), "VALID")
    mean = lax.reduce_window(y, 0.0, lax.add, (1, 3, 3, 1), (1, 1, 1, 1),
                             "SAME") / 9.0
    return pooled, mean


@program("transformer_block", f32(2, 16, 32), f32(32), f32(32),
         f32(32, 96), f32(32, 32), f32(32), f32(32), f32(32, 128), f32(128),
         f32(128, 32), optimized=True, atol=1e-4, rtol=1e-4)
def transformer_block(x, g1, b1, wqkv, wo, g2, b2, w1, c1, w2):
    """A pre-norm decoder block: causal multi-head attention and a GELU
    MLP, each with a residual."""
    def norm(h, g, b):
        mean = jnp.mean(h, axis=-1, keepdims=True)
        var = jnp.mean((h - mean) ** 2, axis=-1, keepdims=True)
        return (h - mean) * lax.rsqrt(var + 1e-5) * g + b
    batch, seq, dim = x.shape
    heads = 4
    q, k, v = jnp.split(norm(x, g1, b1) @ wqkv, 3, axis=-1)
    split = lambda t: t.reshape(batch, seq, heads, dim // heads)
    scores = jnp.einsum("bqhd,bkhd->bhqk", split(q), split(k))
    causal = jnp.tril(jnp.ones((seq, seq), bool))
    weights = jax.nn.softmax(jnp.where(causal, scores / 4.0, -1e9), axis=-1)
    attn = jnp.einsum("bhqk,bkhd->bqhd", weights, split(v))
    x = x + attn.reshape(batch, seq, dim) @ wo
    return x + jax.nn.gelu(norm(x, g2, b2) @ w1 + c1) @ w2


@program("resnet_block", f32(2, 8, 8, 16), f32(3, 3, 16, 16), f32(16),
         f32(16), f32(3, 3, 16, 16), f32(16), f32(16), optimized=True,
         atol=1e-4, rtol=1e-4)
def resnet_block(x, w1, s1, o1, w2, s2, o2):
    """A ResNet basic block in inference form: conv, folded batch norm
    (scale and offset), ReLU, conv, batch norm, residual, ReLU."""
    dn = ("NHWC", "HWIO", "NHWC")
    y = lax.conv_general_dilated(x, w1, (1, 1), "SAME", dimension_numbers=dn)
    y = jax.nn.relu(y * s1 + o1)
    y = lax.conv_general_dilated(y, w2, (1, 1), "SAME", dimension_numbers=dn)
    return jax.nn.relu(y * s2 + o2 + x)


@program("conv_grad", f32(2, 6, 6, 2), f32(3, 3, 2, 4))
def conv_grad(x, w):
    def loss(x, w):
        y = lax.conv_general_dilated(x, w, (2, 2), "SAME",
                                     rhs_dilation=(1, 1),
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return jnp.sum(jnp.tanh(y) ** 2)
    return jax.grad(loss, argnums=(0, 1))(x, w)


@program("conv_dilated", f32(1, 2, 9, 9), f32(4, 2, 3, 3))
def conv_dilated(x, w):
    # NCHW / OIHW, window dilation, asymmetric padding, base dilation.
    y = lax.conv_general_dilated(x, w, (1, 2), ((2, 1), (0, 2)),
                                 lhs_dilation=(1, 2), rhs_dilation=(2, 1))
    return y


@program("maxpool_grad", f32(2, 6, 6, 3))
def maxpool_grad(x):
    def pool(x):
        return lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1),
                                 (1, 2, 2, 1), "VALID")
    y, vjp = jax.vjp(pool, x)
    return vjp(jnp.ones_like(y) * 0.5)[0]


#===----------------------------------------------------------------------===#
# Loops and control flow
#===----------------------------------------------------------------------===#

# The sums of tanh outputs cancel (values near 0 after ten steps): XLA's
# fast tanh (f32 polynomial) and the interpreter's (f64, rounded) drift
# apart by ~1e-6 absolute.
@program("scan_rnn", f32(10, 4, 8), f32(8, 16), f32(16, 16), f32(4, 16),
         optimized=True, atol=1e-5)
def scan_rnn(xs, w, u, h0):
    def step(h, x):
        h = jnp.tanh(x @ w + h @ u)
        return h, jnp.sum(h, axis=-1)
    return lax.scan(step, h0, xs)


@program("fori_power_iteration", f32(16, 16), f32(16))
def fori_power_iteration(a, v):
    m = a @ a.T

    def body(i, v):
        w = m @ v
        return w / jnp.sqrt(jnp.sum(w * w) + 1e-6)
    return lax.fori_loop(0, 12, body, v)


@program("while_collatz", s32(16, draw=ints(1, 40)))
def while_collatz(x):
    def cond(state):
        x, steps, i = state
        return jnp.logical_and(jnp.any(x != 1), i < 200)

    def body(state):
        x, steps, i = state
        odd = (x % 2) == 1
        done = x == 1
        nx = jnp.where(done, x, jnp.where(odd, 3 * x + 1, x // 2))
        return nx, steps + (~done).astype(jnp.int32), i + 1
    return lax.while_loop(cond, body, (x, jnp.zeros_like(x), 0))


@program("cond_switch", pred(), s32(draw=ints(-2, 4)), f32(6))
def cond_switch(p, i, x):
    a = lax.cond(p, lambda x: jnp.sin(x) * 2.0, lambda x: x - 1.0, x)
    b = lax.switch(i, [lambda x: x + 1.0, lambda x: x * x,
                       lambda x: jnp.exp(x), lambda x: -x], x)
    return a, b


#===----------------------------------------------------------------------===#
# Sort, gather, scatter
#===----------------------------------------------------------------------===#

@program("sort", f32(5, 16), s32(5, 16), optimized=True)
def sort(x, k):
    return (jnp.sort(x, axis=-1), jnp.argsort(x, axis=0),
            jnp.sort(k, axis=1, descending=True),
            lax.sort((k, x), dimension=1, num_keys=1, is_stable=True))


@program("sort_large", f32(30000), s32(30000), u8(64, 4096), s32(64, 4096))
def sort_large(x, k, b, v):
    # Sorts XLA-GPU gives CUB's radix sort on an H100 (hlo-sort-rewriter):
    # NumPy order, JAX's argsort (keys packed with the indices), integers
    # descending, and 8-bit keys with values (ties kept in order).
    return (jnp.sort(x), jnp.argsort(x), jnp.sort(k, descending=True),
            lax.sort((b, v), dimension=1, num_keys=1, is_stable=True))


@program("top_k", f32(4, 12))
def top_k(x):
    return lax.top_k(x, 3)


@program("top_k_vocab", f32(8, 32768), bf16(2, 50000))
def top_k_vocab(logits, scores):
    # A language model's sampling step: the 8 largest of each row of logits
    # over a vocabulary, and the 10 best bf16 scores (XLA-GPU runs both on
    # its top-k kernel).
    return lax.top_k(logits, 8), lax.top_k(scores, 10)


@program("scaled_dot", f8e4m3fn(16, 64), f8e4m3fn(64, 32),
         f8e8m0fnu(16, 2, draw=uniform(0.25, 4)),
         f8e8m0fnu(2, 32, draw=uniform(0.25, 4)), f8e5m2(2, 8, 64),
         f8e4m3fn(2, 64, 4), f8e8m0fnu(2, 8, 2, draw=uniform(0.25, 4)),
         f8e8m0fnu(2, 1, 4, draw=uniform(0.25, 4)))
def scaled_dot(a, b, sa, sb, c, d, sc, sd):
    # MXFP8 matrix products (jax.lax.scaled_dot: a composite call XLA-GPU's
    # CompositeRewriter makes a scaled-dot), one plain and one batched.
    def dot(x, y, sx, sy):
        return lax.scaled_dot(x, y, lhs_scale=sx, rhs_scale=sy,
                              preferred_element_type=jnp.float32)
    return dot(a, b, sa, sb), dot(c, d, sc, sd)


@program("remat_offload", f32(16, 32), f32(32, 32), cuda=True, atol=1e-5,
         rtol=1e-4)
def remat_offload(x, w):
    # A gradient through jax.checkpoint whose policy offloads the named
    # activation to pinned host memory and back: the CUDA lowering's
    # annotate_device_placement calls, which XLA-GPU's host offloading
    # passes make copies between memory spaces (the CPU lowering has none).
    from jax.ad_checkpoint import checkpoint_name

    def layer(x, w):
        y = checkpoint_name(jnp.sin(x @ w), "act")
        return jnp.tanh(y @ w)
    policy = jax.checkpoint_policies.save_and_offload_only_these_names(
        names_which_can_be_saved=[], names_which_can_be_offloaded=["act"],
        offload_src="device", offload_dst="pinned_host")
    step = jax.checkpoint(layer, policy=policy)
    return jax.grad(lambda w: jnp.sum(step(x, w)))(w)


@program("gather", f32(10, 6), s32(4, draw=ints(0, 9)),
         s32(3, draw=ints(-2, 12)), s32(10, 2, draw=ints(0, 5)),
         s32(draw=ints(-3, 12)), optimized=True)
def gather(x, idx, wild, along, start):
    rows = x[idx]
    cols = x[:, jnp.clip(idx, 0, 5)]
    # Out-of-range indices: jnp clamps (mode="clip") or fills ("fill").
    clipped = jnp.take(x, wild, axis=0, mode="clip")
    filled = jnp.take(x, wild, axis=0, mode="fill", fill_value=-7.0)
    taken = jnp.take_along_axis(x, along, axis=1)
    window = lax.dynamic_slice(x, (start, 1), (3, 4))
    return rows, cols, clipped, filled, taken, window


@program("scatter", f32(10, 6), s32(5, draw=ints(0, 9)), f32(5, 6),
         s32(draw=ints(-3, 12)), optimized=True)
def scatter(x, idx, upd, start):
    added = x.at[idx].add(upd)          # duplicate indices accumulate
    maxed = x.at[idx].max(upd)
    fixed = jnp.array([7, 2, 4], jnp.int32)
    setted = x.at[fixed].set(upd[:3])   # distinct indices
    multiplied = x.at[idx, 2].multiply(upd[:, 0])
    updated = lax.dynamic_update_slice(x, upd[:2, :3], (start, start))
    return added, maxed, setted, multiplied, updated


#===----------------------------------------------------------------------===#
# Element types
#===----------------------------------------------------------------------===#

@program("int32_arith", s32(32), s32(32))
def int32_arith(a, b):
    # HLO semantics of division by zero and of the most negative value.
    # (Behind a select on the inputs (never above 1000), so that neither
    # JAX nor the StableHLO folder evaluates them while lowering: the
    # folder traps on INT_MIN / -1.)
    edge = jnp.where(a[:4] > 1000, a[:4], jnp.array([-2**31, 7, -7, 0], jnp.int32))
    dens = jnp.where(b[:4] > 1000, b[:4], jnp.array([-1, 0, 2, 0], jnp.int32))
    return (a + b, a - b, a * b * 1000003, lax.div(a, b), lax.rem(a, b),
            jnp.floor_divide(a, b), jnp.remainder(a, b), jnp.maximum(a, b),
            jnp.abs(a), jnp.sign(b), lax.div(edge, dens), lax.rem(edge, dens),
            lax.integer_pow(a, 3))


@program("uint8_ops", u8(24), u8(24, draw=ints(0, 12)))
def uint8_ops(a, b):
    return (a + b * 37, a - b, a * b, lax.div(a, b), lax.rem(a, b),
            lax.shift_left(a, b), lax.shift_right_logical(a, b),
            jnp.minimum(a, b), a.astype(jnp.int32) * 3,
            (a.astype(jnp.float32) / 3.0).astype(jnp.uint8))


@program("bool_logic", pred(20), pred(20), f32(20))
def bool_logic(p, q, x):
    return (jnp.logical_and(p, q), jnp.logical_or(p, q), p ^ q, ~p,
            jnp.where(p, x, -x), jnp.any(p), jnp.all(q | p),
            (x > 0) == p, p.astype(jnp.int32) + q.astype(jnp.int32))


@program("f16_elementwise", f16(64), f16(64))
def f16_elementwise(a, b):
    return (a * b + a, jnp.exp(a), jnp.tanh(b), a / (jnp.abs(b) + 1),
            jnp.maximum(a, b), a.astype(jnp.float32) * 2)


@program("bf16_chain", bf16(8, 16), bf16(16))
def bf16_chain(x, y):
    z = x * y + 1.0
    return z, jnp.sum(z, axis=1), jax.nn.sigmoid(z).astype(jnp.float32)


@program("bitwise", s32(32), s32(32, draw=ints(-2, 40)), u32(32))
def bitwise(a, s, u):
    sh = s.astype(jnp.uint32)
    return (a & 0x5A5A, a | s, a ^ s, ~a, lax.shift_left(a, s),
            lax.shift_right_arithmetic(a, s), lax.shift_right_logical(a, s),
            lax.population_count(a), lax.shift_left(u, sh),
            lax.shift_right_logical(u, sh), u ^ (u >> 3),
            lax.population_count(u))


@program("clz", s32(32, draw=ints(-2**31, 2**31 - 1)), u8(16))
def clz(a, b):
    return lax.clz(a), lax.clz(b)


@program("convert", f32(40, draw=uniform(-300, 300)), s32(40))
def convert(x, i):
    return (x.astype(jnp.int32), i.astype(jnp.float32) / 3,
            x.astype(jnp.bfloat16), x.astype(jnp.float16),
            jnp.clip(x, 0, 255).astype(jnp.uint8), i.astype(jnp.int8),
            (x > 0).astype(jnp.float32), lax.bitcast_convert_type(x, jnp.int32),
            lax.bitcast_convert_type(i, jnp.float32) * 0,
            jnp.round(x), jnp.floor(x), jnp.ceil(x), lax.round(x, lax.RoundingMethod.AWAY_FROM_ZERO))


@program("math", f32(64, draw=uniform(-3, 3)), f32(64, draw=uniform(0.05, 4)))
def math(x, p):
    return (jnp.exp(x), jnp.log(p), jnp.log1p(p), jnp.expm1(x), jnp.sqrt(p),
            lax.rsqrt(p), jnp.cbrt(x), jnp.tanh(x), jax.nn.sigmoid(x),
            jnp.sin(x), jnp.cos(x), jnp.arctan2(x, p), jnp.power(p, x),
            lax.erf(x), jnp.sign(x), jnp.abs(x), jnp.fmod(x, p),
            jnp.isfinite(jnp.log(x)), jnp.tan(x * 0.4), lax.atan2(p, x))


@program("complex", f32(8), f32(8), f32(8))
def complex_ops(re, im, w):
    z = lax.complex(re, im)
    y = z * lax.complex(w, re) + jnp.conj(z)
    return (jnp.real(y), jnp.imag(y), jnp.abs(z), jnp.exp(z), y / (z + 2.0))


@program("fft", f32(16), f32(4, 8))
def fft(x, y):
    return jnp.fft.fft(x.astype(jnp.complex64)), jnp.fft.rfft(y, axis=-1), \
        jnp.fft.ifft2(y.astype(jnp.complex64))


@program("rng_threefry", u32(2, draw={"int": [0, 2**32 - 1]}))
def rng_threefry(key):
    # Threefry2x32 is plain HLO on the CPU (shifts, xors, adds on u32); each
    # call costs ~15 KB of HLO text, hence only two.
    return jax.random.normal(key, (4, 8)), jax.random.bits(key, (8,))


#===----------------------------------------------------------------------===#
# Reductions and shapes
#===----------------------------------------------------------------------===#

@program("reductions", f32(6, 7, 8), s32(6, 7), optimized=True)
def reductions(x, k):
    return (jnp.sum(x, axis=(0, 2)), jnp.max(x, axis=1), jnp.min(x),
            jnp.prod(x[:, :, :3] + 1.5, axis=2), jnp.mean(x, axis=0),
            jnp.argmax(x, axis=2), jnp.argmin(x, axis=0), jnp.sum(k, axis=1),
            jnp.max(k), jnp.var(x, axis=-1))


@program("cumulative", f32(5, 12), s32(5, 12))
def cumulative(x, k):
    return (jnp.cumsum(x, axis=1), jnp.cumprod(x * 0.5 + 1, axis=0),
            lax.cummax(x, axis=1), jnp.cumsum(k, axis=0),
            lax.cummin(k, axis=1, reverse=True))


@program("dot_general", f32(3, 4, 5), f32(3, 5, 6), f32(2, 3, 4, 5),
         s32(4, 6), s32(6, 3), bf16(8, 16), bf16(16, 4))
def dot_general(a, b, c, i, j, p, q):
    return (jnp.einsum("bij,bjk->bik", a, b),
            jnp.einsum("hbqd,bkd->bhqk", c, a),
            jnp.einsum("bij,bij->b", a, a),
            i @ j, jnp.outer(a[0, 0], b[0, 0]), a[0] @ b[0, :, 0],
            lax.dot(p, q, preferred_element_type=jnp.float32))


@program("reshape_transpose", f32(2, 3, 4, 5), optimized=True)
def reshape_transpose(x):
    y = jnp.transpose(x, (2, 0, 3, 1)).reshape(4, 30)
    z = jnp.transpose(y.reshape(4, 5, 6), (1, 2, 0))[::2, 1:5, :]
    w = jnp.concatenate([z, jnp.flip(z, axis=1)], axis=2)
    p = jnp.pad(w, ((1, 0), (0, 2), (1, 1)), constant_values=-1.0)
    q = lax.pad(x[0], 0.5, ((0, 0, 1), (1, -1, 0), (0, 1, 2)))
    return p, jnp.broadcast_to(x[:, :1, :, :1], (2, 3, 4, 5)).reshape(-1), q


@program("iota_onehot", s32(8, draw=ints(-1, 10)), f32(5, 5))
def iota_onehot(labels, x):
    oh = jax.nn.one_hot(labels, 10)
    tril = jnp.tril(x)
    eye = jnp.eye(5, 7, k=1, dtype=jnp.int32)
    ar = jnp.arange(12, dtype=jnp.float32).reshape(3, 4) * 0.5
    return oh, tril, eye, ar, lax.iota(jnp.uint8, 7)


@program("clamp_select", f32(30), f32(30), f32(30))
def clamp_select(x, lo, hi):
    return (jnp.clip(x, -0.5, 0.5), lax.clamp(lo, x, lo + jnp.abs(hi)),
            jnp.where(x > lo, x, hi), lax.select(x < 0, lo, hi),
            jnp.minimum(jnp.maximum(x, lo), hi))


#===----------------------------------------------------------------------===#
# Linear algebra: JAX's LU, Cholesky, QR, eigh, SVD, eig, Schur, Hessenberg
# and tridiagonal calls (LAPACK on the CPU, cuSOLVER, cuSPARSE and JAX's
# hybrid eig in the .cuda.hlo lowering; Schur and Hessenberg have no GPU
# lowering). Eigenvectors, singular and Schur vectors are unique up to sign;
# both sides run LAPACK's routines, which choose the same.
#===----------------------------------------------------------------------===#

@program("linalg_solve", f32(4, 4), f32(4, 2), f32(2, 3, 3), cuda=True,
         atol=1e-4, rtol=1e-4)
def linalg_solve(a, b, c):
    a = a + 4.0 * jnp.eye(4, dtype=a.dtype)
    c = c + 3.0 * jnp.eye(3, dtype=c.dtype)
    sign, logdet = jnp.linalg.slogdet(c)
    return jnp.linalg.solve(a, b), jnp.linalg.inv(c), jnp.linalg.det(a), \
        sign, logdet


@program("linalg_lu", f32(5, 3), f32(2, 3, 4), cuda=True, atol=1e-5,
         rtol=1e-4)
def linalg_lu(a, b):
    return lax.linalg.lu(a), lax.linalg.lu(b)


@program("linalg_eigh", f32(2, 4, 4), c64(3, 3), cuda=True, atol=1e-4,
         rtol=1e-3)
def linalg_eigh(a, h):
    w, v = jnp.linalg.eigh(a)
    wc, vc = jnp.linalg.eigh(h, UPLO="U")
    return w, v, jnp.linalg.eigvalsh(a), wc, vc


@program("linalg_svd", f32(5, 3), f32(3, 5), cuda=True, atol=1e-4,
         rtol=1e-3)
def linalg_svd(a, b):
    u, s, vt = jnp.linalg.svd(a)
    ur, sr, vtr = jnp.linalg.svd(b, full_matrices=False)
    return u, s, vt, ur, sr, vtr, jnp.linalg.svd(a, compute_uv=False)


@program("linalg_eig", f32(4, 4), c64(3, 3), cuda=True, atol=1e-4,
         rtol=1e-3)
def linalg_eig(a, c):
    w, v = jnp.linalg.eig(a)
    wl, vl, vr = lax.linalg.eig(c, compute_left_eigenvectors=True)
    return w, v, jnp.linalg.eigvals(a), wl, vl, vr


@program("linalg_cholesky", f32(4, 4), c64(2, 3, 3), f32(4, 2), cuda=True,
         atol=1e-4, rtol=1e-3)
def linalg_cholesky(a, c, b):
    a = a @ a.T + 4.0 * jnp.eye(4, dtype=a.dtype)
    c = c @ jnp.conj(jnp.swapaxes(c, -1, -2)) + 3.0 * jnp.eye(3, dtype=c.dtype)
    l = jnp.linalg.cholesky(a)
    return l, jnp.linalg.cholesky(c), jsp_linalg.cho_solve((l, True), b), \
        jsp_linalg.cholesky(a, lower=False)


@program("linalg_qr", f32(5, 3), f32(2, 3, 4), c64(3, 3), cuda=True,
         atol=1e-4, rtol=1e-3)
def linalg_qr(a, b, c):
    q, r = jnp.linalg.qr(a)
    qf, rf = jnp.linalg.qr(a, mode="complete")
    qb, rb = jnp.linalg.qr(b)
    qc, rc = jnp.linalg.qr(c)
    return q, r, qf, rf, qb, rb, qc, rc, jnp.linalg.qr(b, mode="r")


@program("linalg_schur", f32(4, 4), c64(3, 3), atol=1e-4, rtol=1e-3)
def linalg_schur(a, c):
    t, z = jsp_linalg.schur(a)
    tc, zc = jsp_linalg.schur(c)
    return t, z, tc, zc, jsp_linalg.sqrtm(a + 4.0 * jnp.eye(4, dtype=a.dtype))


@program("linalg_hessenberg", f32(5, 5), c64(2, 3, 3), atol=1e-4, rtol=1e-3)
def linalg_hessenberg(a, c):
    h, q = jsp_linalg.hessenberg(a, calc_q=True)
    return h, q, jsp_linalg.hessenberg(c)


@program("linalg_tridiagonal", f32(4, 4), c64(2, 3, 3), cuda=True,
         atol=1e-4, rtol=1e-3)
def linalg_tridiagonal(a, c):
    a = a + a.T
    c = c + jnp.conj(jnp.swapaxes(c, -1, -2))
    return lax.linalg.tridiagonal(a), lax.linalg.tridiagonal(c, lower=False)


@program("linalg_tridiagonal_solve", f32(5), f32(5), f32(5), f32(5, 2),
         f32(3, 4), cuda=True, atol=1e-4, rtol=1e-3)
def linalg_tridiagonal_solve(dl, d, du, b, e):
    d = d + 4.0
    dl = dl.at[0].set(0.0)
    du = du.at[-1].set(0.0)
    # A batch of three 4 x 4 systems of one right-hand side each.
    x = lax.linalg.tridiagonal_solve(dl, d, du, b)
    dlb = jnp.stack([dl[:4], dl[1:], e[0]]).at[:, 0].set(0.0)
    dub = jnp.stack([du[:4], du[1:], e[1]]).at[:, -1].set(0.0)
    db = jnp.stack([d[:4], d[1:], e[2] + 5.0])
    return x, lax.linalg.tridiagonal_solve(dlb, db, dub, e[:, :, None])


@program("linalg_composite", f32(5, 3), f32(5, 2), f32(4, 4), f32(6),
         f32(5), cuda=True, atol=1e-3, rtol=1e-3)
def linalg_composite(a, b, m, d, e):
    """Library functions built on the calls above: pinv and lstsq (SVD),
    expm (LU and triangular solves), polar (QDWH: QR, Cholesky), the
    eigenvalues of a symmetric tridiagonal matrix (bisection, plain HLO),
    matrix_rank."""
    x, _, rank, sv = jnp.linalg.lstsq(a, b)
    u, p = jsp_linalg.polar(m + 4.0 * jnp.eye(4, dtype=m.dtype))
    w = jsp_linalg.eigh_tridiagonal(d + 3.0, e, eigvals_only=True)
    return (jnp.linalg.pinv(a), x, rank, sv, jsp_linalg.expm(0.25 * m), u, p,
            w, jnp.linalg.matrix_rank(a))


#===----------------------------------------------------------------------===#
# Output
#===----------------------------------------------------------------------===#

def module_text(module_text_from_xla):
    """Reprints XLA's HLO without metadata (large constants in full)."""
    module = hlo.hlo_module_from_text(module_text_from_xla)
    options = hlo.HloPrintOptions()
    options.print_metadata = False
    options.print_large_constants = True
    return module.to_string(options)


def draws(args):
    return [a.draw for a in args]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parent / "modules")
    parser.add_argument("--only", nargs="*", help="program names")
    options = parser.parse_args()
    options.out.mkdir(parents=True, exist_ok=True)

    manifest = {}
    total = 0
    for p in PROGRAMS:
        if options.only and p["name"] not in options.only:
            continue
        examples = [a.example() for a in p["args"]]
        lowered = jax.jit(p["fn"]).lower(*examples)
        variants = [("", lowered.compiler_ir("hlo").as_hlo_text())]
        if p["optimized"]:
            variants.append((".cpu_opt", lowered.compile().as_text()))
        if p["cuda"]:
            for_cuda = jax.jit(p["fn"]).trace(*examples).lower(
                lowering_platforms=("cuda",))
            variants.append((".cuda", for_cuda.compiler_ir("hlo").as_hlo_text()))
        for suffix, text in variants:
            name = p["name"] + suffix
            text = module_text(text)
            if suffix == ".cpu_opt" and "custom-call" in text:
                print(f"  {name}: has custom-calls, not stored", file=sys.stderr)
                continue
            path = options.out / f"{name}.hlo"
            path.write_text(text)
            total += len(text)
            entry = {"inputs": draws(p["args"]), "program": p["name"]}
            if suffix == ".cuda":
                entry["lowered"] = "JAX %s for CUDA" % jax.__version__
                entry["xla_reference"] = p["name"] + ".hlo"
            elif suffix:
                entry["optimized"] = "XLA CPU (jaxlib %s)" % jax.__version__
                # XLA cannot always compile its own optimized output again
                # (bitcasts before layout assignment): the oracle runs the
                # program's unoptimized module instead, same parameters.
                entry["xla_reference"] = p["name"] + ".hlo"
            if p["atol"] is not None:
                entry["atol"] = p["atol"]
            if p["rtol"] is not None:
                entry["rtol"] = p["rtol"]
            manifest[name] = entry
            print(f"{name}: {len(text)} bytes")
    manifest_path = options.out / "manifest.json"
    if options.only and manifest_path.exists():
        old = json.loads(manifest_path.read_text())
        old.update(manifest)
        manifest = old
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    print(f"{len(manifest)} modules in the manifest, {total} bytes written")


if __name__ == "__main__":
    main()
