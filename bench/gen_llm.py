#!/usr/bin/env python3
"""Writes the HLO text of a real LLM training step (JAX, jaxlib's HLO).

A decoder-only transformer (token + position embeddings, `--layers` blocks of
pre-norm multi-head causal attention and a GELU MLP, final norm, tied output
projection, softmax cross-entropy) and one SGD step: forward, backward and
update, as `jax.jit(step).lower(...)` hands it to XLA (before XLA's
optimizations). Each layer adds about 315 instructions: the default 130
layers give 41k instructions and 3.2 MB of text, the size of a framework's
training-step dump.

Usage: gen_llm.py [--layers 130] [--width 256] [--heads 4] [--seq 128]
                  [--batch 4] [--vocab 1024] -o OUT.hlo
"""

import argparse
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("JAX_PLATFORMS", "cpu")
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402


def init(key, a):
    keys = iter(jax.random.split(key, 8 * a.layers + 4))
    normal = lambda *shape: 0.02 * jax.random.normal(next(keys), shape)  # noqa
    d = a.width
    params = {"tok": normal(a.vocab, d), "pos": normal(a.seq, d),
              "norm": jnp.ones(d), "blocks": []}
    for _ in range(a.layers):
        params["blocks"].append({
            "ln1": jnp.ones(d), "ln2": jnp.ones(d),
            "qkv": normal(d, 3 * d), "proj": normal(d, d),
            "up": normal(d, 4 * d), "down": normal(4 * d, d)})
    return params


def layer_norm(x, g):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) * jax.lax.rsqrt(var + 1e-5) * g


def forward(params, tokens, a):
    b, t = tokens.shape
    h = a.width // a.heads
    x = params["tok"][tokens] + params["pos"][:t]
    mask = jnp.tril(jnp.ones((t, t), bool))
    for blk in params["blocks"]:
        y = layer_norm(x, blk["ln1"]) @ blk["qkv"]
        q, k, v = jnp.split(y.reshape(b, t, 3, a.heads, h), 3, axis=2)
        q, k, v = (z[:, :, 0].transpose(0, 2, 1, 3) for z in (q, k, v))
        s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(h)
        s = jnp.where(mask, s, -1e9)
        o = jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, -1), v)
        x = x + o.transpose(0, 2, 1, 3).reshape(b, t, -1) @ blk["proj"]
        y = jax.nn.gelu(layer_norm(x, blk["ln2"]) @ blk["up"])
        x = x + y @ blk["down"]
    return layer_norm(x, params["norm"]) @ params["tok"].T


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name, default in [("layers", 130), ("width", 256), ("heads", 4),
                          ("seq", 128), ("batch", 4), ("vocab", 1024)]:
        p.add_argument("--" + name, type=int, default=default)
    p.add_argument("-o", "--output", required=True)
    a = p.parse_args()

    def loss(params, tokens):
        logits = forward(params, tokens[:, :-1], a)
        logp = jax.nn.log_softmax(logits, -1)
        target = jax.nn.one_hot(tokens[:, 1:], a.vocab)
        return -(logp * target).sum(-1).mean()

    def step(params, tokens):
        value, grads = jax.value_and_grad(loss)(params, tokens)
        params = jax.tree_util.tree_map(lambda w, g: w - 1e-3 * g, params,
                                        grads)
        return params, value

    params = init(jax.random.PRNGKey(0), a)
    tokens = jnp.zeros((a.batch, a.seq + 1), jnp.int32)
    text = jax.jit(step).lower(params, tokens).compiler_ir(
        "hlo").as_hlo_text()
    with open(a.output, "w") as f:
        f.write(text)
    count = sum(1 for line in text.splitlines() if " = " in line)
    print(f"{a.output}: {count} instructions, {len(text)} bytes",
          file=sys.stderr)


if __name__ == "__main__":
    main()
