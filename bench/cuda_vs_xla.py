#!/usr/bin/env python3
"""Our compiled programs on a GPU (the CUDA runtime) next to XLA's GPU
compiler and runtime (jaxlib's CUDA client), on the same inputs, run where
a GPU is lent (scripts/device-check.sh).

Per module (thunks_vs_xla.py's modules and the memory-bound kernels of
bench/emitters), inputs drawn as test/Runtime/xla/compare_xla.py draws them:

  ours:  `hlo-run MODULE --input ... --device=cuda --time --repeat N`:
         compiled once (our GPU compiler to PTX; the driver JITs it), run N
         times; `device` is the thunks' time between two CUDA events of
         the fastest run (parameters copied in and results copied out are
         not counted), `run` the whole run's wall time with those copies;
  XLA:   jaxlib's CUDA client compiles the same HLO text (fusions made
         calls, as compare_xla.py does for XLA CPU) and executes it N times
         back to back on inputs already on the GPU, then waits: the time per
         execution (dispatch overlapped with the GPU, as a JAX step loop
         runs), the fastest of three such batches.

Columns: our device time, XLA's, their ratio (goal: at most 1), our
results against XLA's (compare_xla's tolerances; XLA computes f32 dots in
TF32 by default on Hopper, so those differ unless `--strict`), and for memory-bound
modules the bytes of parameters and results over our device time as a
fraction of a device-to-device copy's bandwidth (goal: at least 85%).
The last row gives geometric means.

Usage: cuda_vs_xla.py [--bin build/bin] [MODULE.hlo ...] [--repeat 20]
                      [--markdown]
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ["JAX_PLATFORMS"] = "cuda,cpu"
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "test" / "Runtime" / "xla"))
import compare_xla  # noqa: E402
import jax  # noqa: E402
import numpy as np  # noqa: E402
from bench_util import table  # noqa: E402
from jax._src.lib import _jax, hlo  # noqa: E402
from jax._src.lib import xla_client as xc  # noqa: E402
from thunks_vs_xla import DEFAULT_MODULES, module_names  # noqa: E402

MANIFEST = ROOT / "test" / "Runtime" / "xla" / "modules" / "manifest.json"
MEMORY_BOUND = sorted((ROOT / "bench" / "emitters").glob("*.hlo"))
TIMES = re.compile(r"compile time ([0-9.eE+-]+) s, run time ([0-9.eE+-]+) s, "
                   r"device time ([0-9.eE+-]+) s")


class XlaGpu:
    def __init__(self):
        self.device = jax.devices("cuda")[0]
        self.backend = self.device.client

    def compile(self, text):
        module = hlo.hlo_module_from_text(compare_xla.defuse(text))
        stablehlo = _jax.mlir.hlo_to_stablehlo(
            module.as_serialized_hlo_module_proto())
        return self.backend.compile_and_load(
            stablehlo, xc.DeviceList((self.device,)), xc.CompileOptions())

    def time(self, executable, inputs, repeat):
        """(results, seconds per execution)."""
        buffers = [jax.device_put(a, self.device) for a in inputs]
        results = executable.execute(buffers)
        jax.block_until_ready(results)
        best = math.inf
        for _ in range(3):
            start = time.perf_counter()
            for _ in range(repeat):
                out = executable.execute(buffers)
            jax.block_until_ready(out)
            best = min(best, (time.perf_counter() - start) / repeat)
        return [np.asarray(r) for r in results], best


def copy_bandwidth():
    """Bytes read and written per second by a 1 GiB device-to-device copy
    (PyTorch, where installed), else None."""
    try:
        import torch
    except ImportError:
        return None
    n = 1 << 30
    src = torch.empty(n, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    for _ in range(3):
        dst.copy_(src)
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(10):
        dst.copy_(src)
    torch.cuda.synchronize()
    return 2 * n * 10 / (time.perf_counter() - start)


def run_ours(runner, path, inputs, workdir, repeat):
    """(results, device s, run s, compile s)."""
    args = [str(runner), str(path), "--device=cuda", "--time",
            f"--repeat={repeat}", "--output-dir", str(workdir / "out")]
    for i, value in enumerate(inputs):
        f = workdir / f"input_{i}.npy"
        np.save(f, value, allow_pickle=False)
        args.append(f"--input={f}")
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    if p.returncode:
        errors = [l for l in p.stderr.splitlines() if "error" in l]
        raise RuntimeError((errors or p.stderr.splitlines() or ["?"])[-1]
                           .replace("hlo-run: error: ", "")[:200])
    m = TIMES.search(p.stderr)
    out, results = workdir / "out", []
    while (out / f"result_{len(results)}.npy").exists():
        results.append(np.load(out / f"result_{len(results)}.npy"))
    return results, float(m[3]), float(m[2]), float(m[1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("modules", nargs="*", type=Path)
    ap.add_argument("--bin", type=Path, default=ROOT / "build" / "bin")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--strict", action="store_true",
                    help="XLA without TF32 (cuBLAS's NVIDIA_TF32_OVERRIDE=0, "
                    "no Triton GEMMs): f32 dots then compare at f32 "
                    "tolerances; slower XLA, for checking results only")
    args = ap.parse_args()
    if args.strict:
        os.environ["NVIDIA_TF32_OVERRIDE"] = "0"
        os.environ["XLA_FLAGS"] += " --xla_gpu_enable_triton_gemm=false"
    # The corpus beside the checkout may be missing (a lent GPU machine).
    paths = args.modules or [p for p in DEFAULT_MODULES + MEMORY_BOUND
                             if p.exists()]
    names = module_names(paths)
    manifest = json.loads(MANIFEST.read_text())
    xla = XlaGpu()
    bandwidth = copy_bandwidth()
    print(f"device: {xla.device.device_kind}; copy bandwidth "
          f"{bandwidth / 1e9:.0f} GB/s" if bandwidth else
          f"device: {xla.device.device_kind}", flush=True)
    rows, ratios, fractions = [], [], []
    for path, name in zip(paths, names):
        entry = manifest.get(path.stem)
        text = path.read_text()
        try:
            module = hlo.hlo_module_from_text(text)
            compare_xla.check_runnable(module)
            inputs = compare_xla.make_inputs(path.stem, module, entry, 1 << 28)
        except Exception as e:  # noqa: BLE001 - jaxlib raises its own types
            rows.append([name, "-", "-", "-", "skipped: " +
                         compare_xla.first_line(e)[:60], "-", "-"])
            continue
        expected, theirs, verdict = None, None, "match"
        try:
            expected, theirs = xla.time(xla.compile(text), inputs, args.repeat)
            expected = compare_xla.flatten_xla(expected)
        except Exception as e:  # noqa: BLE001
            verdict = "XLA: " + compare_xla.first_line(e)[:60]
        with tempfile.TemporaryDirectory(prefix="cuda-vs-xla-") as tmp:
            try:
                ours, device, run, compile_s = run_ours(
                    args.bin / "hlo-run", path, inputs, Path(tmp), args.repeat)
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                rows.append([name, "-", f"{theirs * 1e6:.1f}" if theirs else
                             "-", "-", "ours: " + str(e)[:80], "-", "-"])
                continue
        if expected is None:
            rows.append([name, f"{device * 1e6:.1f}", "-", "-", verdict,
                         f"{run * 1e6:.1f}", ""])
            continue
        if len(ours) != len(expected):
            verdict = f"{len(ours)} results vs {len(expected)}"
        for a, b in zip(ours, expected):
            ok, _, rel, why = compare_xla.compare_array(a, b, entry)
            if not ok:
                verdict = "differs: " + why[:60]
                break
        moved = sum(a.nbytes for a in inputs) + sum(b.nbytes for b in expected)
        fraction = ""
        if bandwidth and path in MEMORY_BOUND and device > 0:
            f = moved / device / bandwidth
            fractions.append(f)
            fraction = f"{f:.0%}"
        ratio = device / theirs if theirs > 0 else math.inf
        ratios.append(ratio)
        rows.append([name, f"{device * 1e6:.1f}", f"{theirs * 1e6:.1f}",
                     f"{ratio:.2f}", verdict, f"{run * 1e6:.1f}", fraction])
        print(f"{name}: ours {device * 1e6:.1f} us (run {run * 1e6:.1f}, "
              f"compile {compile_s:.2f} s), XLA {theirs * 1e6:.1f} us, "
              f"{verdict}", file=sys.stderr, flush=True)
    geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else 0  # noqa: E731
    rows.append(["geomean", "", "", f"{geo(ratios):.2f}", "", "",
                 f"{geo(fractions):.0%}" if fractions else ""])
    print(table(["module", "ours us", "XLA us", "ours/XLA", "results",
                 "ours run us", "% copy bw"], rows, args.markdown))


if __name__ == "__main__":
    main()
