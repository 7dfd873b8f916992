#!/usr/bin/env python3
"""Throughput of the reference interpreter (hlo-run) next to XLA CPU.

Modules are generated with JAX (jax.jit(f).lower(...), HLO before XLA's
optimizations) at a few sizes: an elementwise chain, a matmul, a
convolution and a reduction. Both sides run the same module on the same
kind of inputs:

  ours: `hlo-run MODULE --random-inputs --time --repeat R`, the fastest run
        as hlo-run measures it (parsing and process start-up excluded);
  XLA:  the module compiled once by XLA's CPU client, the fastest of R
        executions (inputs already on the device).

Work units: elementwise = result elements, matmul/conv = multiply-adds,
reduce = input elements; "per s" is units per second. The ratio is
interpreter time / XLA time. Finally two large corpus modules are timed
(hlo-run only, one run each, with the peak resident memory): ResNet-50 and
MobileNet-v2, the largest (`--corpus-file F.hlo`, repeatable, replaces them).

Usage: interpreter_bench.py --runner PATH/hlo-run [--repeat 3]
                            [--corpus-file F.hlo ...] [--quick]
"""

import argparse
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test" / "Runtime" / "xla"))
import compare_xla  # noqa: E402

# $HLO_CORPUS_DIR, else ../shared/corpus/hlo beside the source tree.
CORPUS_DIR = Path(os.environ.get("HLO_CORPUS_DIR") or
                  Path(__file__).resolve().parents[2] / "shared" / "corpus" / "hlo")
# ResNet-50 inference and MobileNet-v2 training (the largest corpus module).
DEFAULT_CORPUS = [CORPUS_DIR / "rocmxla__cpu_bench__resnet50_keras_jax_f32.hlo",
                  CORPUS_DIR / "rocmxla__tools_data__mobilenet_v2_pytorch_xla.hlo"]


def elementwise(x):
    y = x * 1.5 + 0.25
    y = jnp.tanh(y) * x - jnp.exp(-jnp.abs(x))
    return jnp.maximum(y, 0.0) + jnp.sqrt(jnp.abs(y) + 1.0)


def matmul(a, b):
    return a @ b


def conv(x, w):
    return lax.conv_general_dilated(x, w, (1, 1), "SAME",
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"))


def reduce(x):
    return jnp.sum(x, axis=-1)


def cases(quick):
    f32 = np.float32
    sizes = [1 << 12, 1 << 16] if quick else [1 << 12, 1 << 16, 1 << 20]
    for n in sizes:
        yield ("elementwise (8 ops)", f"f32[{n}]", elementwise,
               [np.zeros(n, f32)], n)
    for n in ([32, 64] if quick else [32, 64, 128]):
        yield ("matmul", f"{n}x{n} @ {n}x{n}", matmul,
               [np.zeros((n, n), f32)] * 2, n ** 3)
    for s in ([8, 16] if quick else [8, 16, 32]):
        c = 16
        yield ("conv 3x3", f"1x{s}x{s}x{c} * 3x3x{c}x{c}", conv,
               [np.zeros((1, s, s, c), f32), np.zeros((3, 3, c, c), f32)],
               s * s * c * c * 9)
    for n in ([64, 512] if quick else [64, 512, 4096]):
        yield ("reduce (sum, last axis)", f"f32[{n},1024]", reduce,
               [np.zeros((n, 1024), f32)], n * 1024)


def hlo_text(fn, args):
    return jax.jit(fn).lower(*args).compiler_ir("hlo").as_hlo_text()


def time_ours(runner, path, repeat, timeout=600, peak=None):
    """hlo-run's best run time; stores the peak RSS in GB in peak[0]."""
    command = [runner, str(path), "--random-inputs", "--time", "--repeat",
               str(repeat), "--output-dir", str(path.parent / "out")]
    if peak is not None and Path("/usr/bin/time").exists():
        command = ["/usr/bin/time", "-f", "peak-rss-kb %M"] + command
    proc = subprocess.run(command, capture_output=True, text=True,
                          timeout=timeout)
    if proc.returncode:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1][:200])
    match = re.search(r"run time ([0-9.eE+-]+) s", proc.stderr)
    rss = re.search(r"peak-rss-kb (\d+)", proc.stderr)
    if peak is not None and rss:
        peak[0] = int(rss.group(1)) / 1e6
    return float(match.group(1))


def time_xla(xla, text, args, repeat):
    executable, _ = xla.compile(text)
    buffers = [jax.device_put(a, xla.device) for a in args]
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for r in executable.execute(buffers):
            r.block_until_ready()
        best = min(best, time.perf_counter() - start)
    return best


def rate(units, seconds):
    value = units / seconds
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= scale:
            return f"{value / scale:.3g} {suffix}"
    return f"{value:.3g}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runner", required=True)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--corpus-file", action="append", type=Path)
    parser.add_argument("--quick", action="store_true",
                        help="two sizes per kind")
    options = parser.parse_args()

    xla = compare_xla.Xla()
    rows = []
    with tempfile.TemporaryDirectory(prefix="hlo-bench-") as tmp:
        for i, (kind, shape, fn, args, units) in enumerate(cases(options.quick)):
            text = hlo_text(fn, args)
            path = Path(tmp) / f"case{i}.hlo"
            path.write_text(text)
            try:
                ours = time_ours(options.runner, path, options.repeat)
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                rows.append((kind, shape, units, None, None, str(e)))
                continue
            theirs = time_xla(xla, text, args, options.repeat)
            rows.append((kind, shape, units, ours, theirs, ""))
            print(f"# {kind} {shape}: ours {ours:.4g} s, XLA {theirs:.4g} s",
                  file=sys.stderr, flush=True)

    header = ("| kind | shape | units | hlo-run s | hlo-run units/s | "
              "XLA CPU s | XLA units/s | ratio |")
    print(f"# {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} CPUs, jaxlib {jax.__version__}, "
          f"best of {options.repeat}")
    print(header)
    print("|" + "---|" * 8)
    for kind, shape, units, ours, theirs, error in rows:
        if ours is None:
            print(f"| {kind} | {shape} | {units} | failed: {error} | | | | |")
            continue
        print(f"| {kind} | {shape} | {units} | {ours:.4g} | {rate(units, ours)} "
              f"| {theirs:.3g} | {rate(units, theirs)} | {ours / theirs:.2g}x |")

    print("\n| corpus module | HLO text | hlo-run s | peak memory |")
    print("|---|---|---|---|")
    for corpus in options.corpus_file or DEFAULT_CORPUS:
        if not corpus.exists():
            print(f"| `{corpus.stem}` | not found | | |")
            continue
        with tempfile.TemporaryDirectory(prefix="hlo-bench-") as tmp:
            copy = Path(tmp) / corpus.name
            copy.write_text(corpus.read_text())
            peak = [None]
            try:
                seconds = time_ours(options.runner, copy, 1, timeout=1800,
                                    peak=peak)
                memory = f"{peak[0]:.1f} GB" if peak[0] else ""
                print(f"| `{corpus.stem}` | {corpus.stat().st_size // 1024} KB "
                      f"| {seconds:.3g} | {memory} |", flush=True)
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                print(f"| `{corpus.stem}` | | failed: {e} | |", flush=True)


if __name__ == "__main__":
    main()
