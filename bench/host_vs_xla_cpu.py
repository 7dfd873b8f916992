#!/usr/bin/env python3
"""Our compiled program on the host runtime next to XLA CPU and the
interpreter, and our GPU compiler's compile time next to XLA's.

Run time, per module (the modules of thunks_vs_xla.py), on the same inputs
(drawn as test/Runtime/xla/compare_xla.py draws them, with the manifest's
ranges, written as .npy files), the fastest of `--repeat` runs each:

  host:        `hlo-run MODULE --input ... --device=host --time --repeat N`:
               compiled once (the GPU compiler, then the kernels by LLVM's
               JIT for the host), then run N times; the run time is the
               thunk program's only (the arena laid out and filled,
               parameters copied in, thunks, results copied out), the
               compile is reported apart (`host compile`);
  XLA CPU:     jaxlib's CPU client compiles the same HLO text once (as
               compare_xla.py does: fusions made calls, StableHLO, excess
               precision off) and executes it N times (inputs already on
               the device, until the results are ready);
  interpreter: `hlo-run MODULE --input ... --time --repeat N`.

Ratios: host / XLA CPU (goal: at most 1) and host / interpreter; the last
row gives their geometric means.

Compile time, per module: our whole GPU compiler, `hlo-opt MODULE
--hlo-gpu-pipeline -o /dev/null` (HLO text to the thunk program with the
kernels' PTX and, where ptxas is found, their cubin), as the process's
wall time (start-up, loading libLLVM, parsing and printing included) and
in process (`--mlir-timing`'s total: parsing, every pass, printing; not
the process start-up nor the context's set-up), warm in process (the same
total for the module compiled again in the same process, after a first
compile: `--split-input-file` over copies of it), and the same pipeline
without the cubin (`hlo-embed-ptx{cubin=false}`), in process; each the
fastest of `--compile-repeat` runs; against XLA's GPU compile (the
xla-oracle's fastest of its warm compiles without dumps, from
compile_times.json: HLO passes, LLVM, PTX and ptxas to a cubin, in
process, after a first compile in the same process; measured when the
cache was filled) and, for context, XLA's own RunHloPasses timer. Goal:
ours at most half of XLA's; the warm in-process figure with the cubin is
the one measured as XLA's is (the cold one also pays for the first use of
the code in the process: dialects loaded, pages faulted in, symbols
bound).

Usage: host_vs_xla_cpu.py [--bin build/bin] [MODULE.hlo ...] [--repeat 5]
                          [--compile-repeat 3] [--cache DIR] [--markdown]
                          [--compile-only]
"""

import argparse
import json
import math
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test" /
                    "Runtime" / "xla"))
import compare_xla  # noqa: E402  (sets XLA_FLAGS, JAX_PLATFORMS=cpu)
import jax  # noqa: E402
import numpy as np  # noqa: E402
from bench_util import table  # noqa: E402
from jax._src.lib import hlo  # noqa: E402
from thunks_vs_xla import (DEFAULT_MODULES, ROOT, first_line,  # noqa: E402
                           module_names, oracle)

MANIFEST = ROOT / "test" / "Runtime" / "xla" / "modules" / "manifest.json"
TIMES = re.compile(r"compile time ([0-9.eE+-]+) s, run time ([0-9.eE+-]+) s")
RUN_TIME = re.compile(r"run time ([0-9.eE+-]+) s")


def hlo_run(runner, path, inputs, out, extra, timeout):
    args = [str(runner), str(path), *[f"--input={f}" for f in inputs],
            "--output-dir", str(out), "--time", *extra]
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    if p.returncode:
        errors = [l for l in p.stderr.splitlines() if "error" in l]
        raise RuntimeError(first_line(errors or p.stderr.splitlines())
                           .replace("hlo-run: error: ", ""))
    return p.stderr


def time_host(runner, path, inputs, out, repeat, timeout):
    """(compile s, fastest run s) on the host runtime."""
    m = TIMES.search(hlo_run(runner, path, inputs, out,
                             ["--device=host", "--repeat", str(repeat)],
                             timeout))
    return float(m.group(1)), float(m.group(2))


def time_interpreter(runner, path, inputs, out, repeat, timeout):
    m = RUN_TIME.search(hlo_run(runner, path, inputs, out,
                                ["--repeat", str(repeat)], timeout))
    return float(m.group(1))


def time_xla_cpu(xla, text, arguments, repeat):
    executable, _ = xla.compile(text)
    # A module with input/output aliases donates its parameters to the run:
    # it gets fresh buffers each time, put before the clock starts (XLA
    # executes faster on buffers it has seen, so the others keep theirs).
    donates = "input_output_alias" in text
    buffers = None
    best = math.inf
    for _ in range(repeat):
        if buffers is None or donates:
            buffers = [jax.device_put(a, xla.device) for a in arguments]
            for b in buffers:
                b.block_until_ready()
        start = time.perf_counter()
        for r in executable.execute(buffers):
            r.block_until_ready()
        best = min(best, time.perf_counter() - start)
    return best


# hlo-gpu-pipeline without the cubin (the kernels' PTX only).
PTX_ONLY = ("--pass-pipeline=builtin.module(hlo-gpu-optimize,hlo-to-gpu,"
            "hlo-to-thunk,hlo-command-buffer-scheduling,"
            "hlo-embed-ptx{cubin=false})")
MLIR_TOTAL = re.compile(r"Total Execution Time: ([0-9.eE+-]+) seconds")


def time_compile(opt, path, passes, repeat, timeout):
    """(fastest wall time, fastest in-process time from --mlir-timing) s."""
    best, inside = math.inf, math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        p = subprocess.run([str(opt), str(path), *passes, "-o", os.devnull,
                            "--mlir-timing"],
                           capture_output=True, text=True, timeout=timeout)
        best = min(best, time.perf_counter() - start)
        if p.returncode:
            raise RuntimeError(first_line(p.stderr.strip().splitlines()))
        if m := MLIR_TOTAL.search(p.stderr):
            inside = min(inside, float(m.group(1)))
    return best, (inside if inside < math.inf else None)


def time_warm(opt, path, repeat, timeout):
    """Our in-process compile when warm, as XLA's oracle times its
    compiles: the module `repeat` + 1 times in one hlo-opt process
    (--split-input-file), the fastest --mlir-timing total after the first
    (the dialects loaded, the code paged in; each compile still parses the
    text, loads libdevice and runs ptxas)."""
    text = path.read_text()
    with tempfile.NamedTemporaryFile("w", suffix=path.suffix) as f:
        f.write("\n// -----\n".join([text] * (repeat + 1)))
        f.flush()
        p = subprocess.run([str(opt), f.name, "--split-input-file",
                            "--hlo-gpu-pipeline", "-o", os.devnull,
                            "--mlir-timing"],
                           capture_output=True, text=True, timeout=timeout)
    if p.returncode:
        raise RuntimeError(first_line(p.stderr.strip().splitlines()))
    totals = [float(t) for t in MLIR_TOTAL.findall(p.stderr)]
    return min(totals[1:]) if len(totals) > 1 else None


def xla_gpu_compile(path, name, cache):
    """XLA's fastest GPU compile and RunHloPasses (s), of the oracle's
    compiles without dumps."""
    times = json.loads((oracle(path, name, cache) /
                        "compile_times.json").read_text())
    compiles = times.get("compile_s_repeats_no_dump") or [None]
    passes = [t.get("GpuCompiler::RunHloPasses")
              for t in times.get("xla_phase_timers_per_compile", [])[1:]]
    passes = [p for p in passes if p is not None]
    return min(compiles), min(passes) if passes else None


def ms(x):
    return "-" if x is None else f"{x * 1e3:.3g}"


def ratio(a, b):
    return "-" if a is None or not b else f"{a / b:.2f}"


def geomean(pairs):
    logs = [math.log(a / b) for a, b in pairs if a and b]
    return f"{math.exp(sum(logs) / len(logs)):.2f}" if logs else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", type=Path, default=ROOT / "build" / "bin")
    ap.add_argument("modules", nargs="*", type=Path, default=DEFAULT_MODULES)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--compile-repeat", type=int, default=3)
    ap.add_argument("--cache", type=Path, default=ROOT / "build" / "xla-thunks")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--max-elements", type=int, default=1 << 22)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--compile-only", action="store_true",
                    help="only the compile times (no runs)")
    a = ap.parse_args()
    manifest = json.loads(MANIFEST.read_text()) if MANIFEST.exists() else {}
    runner, opt = a.bin / "hlo-run", a.bin / "hlo-opt"
    xla = compare_xla.Xla()
    paths = [p for p in a.modules if p.exists()]
    run_rows, compile_rows, failures = [], [], []
    vs_xla, vs_interp, compile_ratios, ptx_ratios = [], [], [], []
    inside_ratios, warm_ratios = [], []
    for path, name in zip(paths, module_names(paths)):
        print(f"... {name}", file=sys.stderr, flush=True)
        # Compile times.
        try:
            ours, inside = time_compile(opt, path, ["--hlo-gpu-pipeline"],
                                        a.compile_repeat, a.timeout)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            failures.append((name, f"hlo-gpu-pipeline: {e}"))
            continue
        try:
            _, to_ptx = time_compile(opt, path, [PTX_ONLY], a.compile_repeat,
                                     a.timeout)
        except (RuntimeError, subprocess.TimeoutExpired):
            to_ptx = None
        try:
            warm = time_warm(opt, path, a.compile_repeat, a.timeout)
        except (RuntimeError, subprocess.TimeoutExpired):
            warm = None
        try:
            xla_s, xla_passes = xla_gpu_compile(path, name, a.cache)
        except (RuntimeError, subprocess.TimeoutExpired):
            xla_s = xla_passes = None
        compile_rows.append([name, ms(ours), ms(inside), ms(warm),
                             ms(to_ptx), ms(xla_s), ms(xla_passes),
                             ratio(ours, xla_s), ratio(inside, xla_s),
                             ratio(warm, xla_s), ratio(to_ptx, xla_s)])
        compile_ratios.append((ours, xla_s))
        inside_ratios.append((inside, xla_s))
        warm_ratios.append((warm, xla_s))
        ptx_ratios.append((to_ptx, xla_s))
        if a.compile_only:
            continue
        # Run times.
        text = path.read_text()
        try:
            module = hlo.hlo_module_from_text(text)
            arguments = compare_xla.make_inputs(name, module,
                                                manifest.get(path.stem),
                                                a.max_elements)
        except Exception as e:  # noqa: BLE001 - jaxlib's and Skip
            run_rows.append([name, f"no inputs: {first_line(str(e).splitlines())}"]
                            + [""] * 6)
            continue
        with tempfile.TemporaryDirectory(prefix="host-bench-") as tmp:
            inputs = []
            for i, value in enumerate(arguments):
                inputs.append(Path(tmp) / f"input_{i}.npy")
                np.save(inputs[-1], value, allow_pickle=False)
            try:
                host_compile, host = time_host(runner, path, inputs,
                                               Path(tmp) / "host", a.repeat,
                                               a.timeout)
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                failures.append((name, f"--device=host: {e}"))
                continue
            try:
                interp = time_interpreter(runner, path, inputs,
                                          Path(tmp) / "interp", a.repeat,
                                          a.timeout)
            except (RuntimeError, subprocess.TimeoutExpired):
                interp = None
        try:
            xla_cpu = time_xla_cpu(xla, text, arguments, a.repeat)
        except Exception:  # noqa: BLE001 - XLA refuses the module
            xla_cpu = None
        run_rows.append([name, ms(host), ms(xla_cpu), ratio(host, xla_cpu),
                         ms(interp), ratio(host, interp), ms(host_compile)])
        vs_xla.append((host, xla_cpu))
        vs_interp.append((host, interp))
    mean = "geomean" if not a.markdown else "**geomean**"
    print(f"# {platform.machine()}, {os.cpu_count()} CPUs, jaxlib "
          f"{jax.__version__}; run times: fastest of {a.repeat}; compile "
          f"times: fastest of {a.compile_repeat} (ours), XLA's fastest of "
          f"its oracle's compiles\n")
    if not a.compile_only:
        print(table(["module", "host ms", "XLA CPU ms", "host/XLA CPU",
                     "interpreter ms", "host/interpreter", "host compile ms"],
                    run_rows + [[mean, "", "", geomean(vs_xla), "",
                                 geomean(vs_interp), ""]], a.markdown))
        print()
    print(table(["module", "ours pipeline ms", "in process ms",
                 "warm in process ms", "no cubin, in process ms",
                 "XLA GPU compile ms", "XLA HLO passes ms", "pipeline/XLA",
                 "in process/XLA", "warm/XLA", "no cubin/XLA"],
                compile_rows + [[mean, "", "", "", "", "", "",
                                 geomean(compile_ratios),
                                 geomean(inside_ratios),
                                 geomean(warm_ratios),
                                 geomean(ptx_ratios)]], a.markdown))
    if not a.compile_only:
        slower = [r[0] for r in run_rows if r[3] not in ("-", "") and
                  float(r[3]) > 1]
        print(f"\nHost runtime slower than XLA CPU on {len(slower)} of "
              f"{len(vs_xla)} modules"
              + (f": {', '.join(slower)}" if slower else ""))
    for column, what in ((7, "wall time"), (8, "in process"),
                         (9, "warm in process")):
        over = [r[0] for r in compile_rows
                if r[column] != "-" and float(r[column]) > 0.5]
        print(f"Compile ({what}) above half of XLA's on {len(over)} of "
              f"{len(compile_rows)} modules" + (f": {', '.join(over)}"
                                                if over else ""))
    if failures:
        print(f"\nNot run ({len(failures)}):\n")
        for name, error in failures:
            print(f"- {name}: {error}")


if __name__ == "__main__":
    main()
