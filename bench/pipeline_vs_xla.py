#!/usr/bin/env python3
"""Time hlo-opt --hlo-optimization (or another pipeline, --pipeline) next
to XLA's own HLO passes (XLA's GPU compiler, deviceless) on the same
modules. With --pipeline hlo-gpu-optimize (optimization through
post-fusion optimization) the column to read is ours/XLA passes: XLA's
RunHloPasses spans the same pipelines and also the scheduling and
buffer-assignment preparation this project does not run yet.

Ours: the pipeline's own time from `--mlir-timing` (as in pipeline_bench.py),
and the part of it spent in the simplification fixed point (HloFixedPoint).

XLA: each module is compiled for an H100 without a GPU by the xla-oracle tool
(`xla_gpu_compile.py`, run as an external program; its venv must exist, see
its setup_venv.sh). From its output we read
  * RunHloPasses: XLA's own timer around all its HLO passes (its log),
  * the span of XLA's "optimization" pipeline and the duration of its
    "simplification" fixed point inside it, from the per-pass start/end
    timestamps XLA writes with --xla_dump_module_metadata.

Usage: pipeline_vs_xla.py --opt build/bin/hlo-opt [--pipeline hlo-gpu-optimize]
           [--sizes 1000,10000,100000]
           [--corpus-files A.hlo,B.hlo] [--repeat 3] [--xla-repeat 3]
           [--xla-timeout 400] [--oracle PATH] [--markdown]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_util import table  # noqa: E402
from pipeline_bench import CORPUS_DIR, NOT_PASSES, TIMING, make_cases  # noqa: E402

ORACLE = (Path(__file__).resolve().parents[2] / "shared" / "tools" /
          "xla-oracle" / "xla_gpu_compile.py")
# The largest corpus modules (by instruction count) that XLA's GPU compiler
# accepts; tfxla__cpu_bench__jax_issue_26021 (605 instructions) is larger
# than graphsage but calls a CPU-only LAPACK custom call.
DEFAULT_CORPUS = ",".join(str(CORPUS_DIR / f) for f in [
    "rocmxla__tools_data__mobilenet_v2_pytorch_xla.hlo",
    "rocmxla__cpu_bench__resnet50_keras_jax_f32.hlo",
    "tfxla__cpu_bench__diffrax_b380012920.hlo",
    "xla__cpu_bench__graphsage_tf.hlo"])
# One pass record of XLA's module metadata dump (HloPassMetadata, text proto).
PASS_RECORD = re.compile(
    r'pass_name: "([^"]*)"\s+pipeline_name: "([^"]*)".*?'
    r"start_timestamp_usec: (\d+)\s+end_timestamp_usec: (\d+)", re.S)
# XLA's HLO -> StableHLO round trip (what the oracle must hand the PJRT
# client) has no conversion for `copy`; a same-shape reshape computes the
# same values and, like the copy, is removed by XLA's first simplifier run.
COPY = re.compile(r"(?<= )copy\(")
# XLA's scoped timer line, one per compile: `GpuCompiler::RunHloPasses for M
# time: 1.41 min (84622055 us) (...)`; the count in parentheses is exact.
RUN_HLO_PASSES = re.compile(
    r"GpuCompiler::RunHloPasses for .*? time: .*?\((\d+) us\)")


def ours(opt, path, repeat, pipeline):
    """(pipeline seconds, simplification fixed point seconds), min of runs."""
    best = None
    for _ in range(repeat):
        p = subprocess.run([opt, str(path), f"--{pipeline}", "-o",
                            os.devnull, "--mlir-timing"],
                           capture_output=True, text=True)
        if p.returncode:
            raise RuntimeError(f"{path.name}: {p.stderr[:300]}")
        total = fixed = 0.0
        for m in TIMING.finditer(p.stderr):
            name, t = m.group(2), float(m.group(1))
            # The fixed point's inner pipeline is listed beside it, its time
            # already in HloFixedPoint's.
            if name in NOT_PASSES or name.endswith("Pipeline"):
                continue
            total += t
            if name == "HloFixedPoint":
                fixed += t
        if best is None or total < best[0]:
            best = (total, fixed)
    return best


def xla_phases(metadata_text):
    """(optimization pipeline span, simplification duration) in seconds."""
    opt_start = opt_end = None
    simp = 0.0
    for name, pipeline, start, end in PASS_RECORD.findall(metadata_text):
        start, end = int(start), int(end)
        if pipeline != "optimization":
            continue
        if name == "pipeline-start" and opt_start is None:
            opt_start = start
        opt_end = end if opt_end is None else max(opt_end, end)
        if name == "simplification":
            simp += end - start
    if opt_start is None:
        return None, None
    return (opt_end - opt_start) * 1e-6, simp * 1e-6


def xla(oracle, path, tmp, runs, timeout):
    """XLA's timers for one module, each the minimum over `runs` compiles (one
    process each, so that every compile writes its pass timestamps): a dict,
    or an error string."""
    fixed_text, copies = COPY.subn("reshape(", path.read_text())
    src = Path(tmp) / f"xla_{path.stem}.hlo"
    src.write_text(fixed_text)
    out = Path(tmp) / f"xla_out_{path.stem}"
    cmd = [sys.executable, str(oracle), str(src), "-o", str(out),
           "--repeat", "0", "--quiet", "--opt", "xla_dump_module_metadata=true"]
    best = {}
    for _ in range(max(1, runs)):
        try:
            p = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            return f"timeout ({timeout} s)"
        if p.returncode:
            lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
            return "failed: " + (lines[-1][:200] if lines
                                 else f"rc {p.returncode}")
        # The timer is read from the log: compile_times.json's parser drops
        # timers printed in minutes.
        log = (out / "xla_log.txt").read_text(errors="replace")
        passes = [int(us) * 1e-6 for us in RUN_HLO_PASSES.findall(log)]
        meta = sorted((out / "dump").glob("*.metadata.textproto"))
        opt_s, simp_s = (xla_phases(meta[0].read_text()) if meta
                         else (None, None))
        got = {"hlo_passes": min(passes) if passes else None,
               "optimization": opt_s, "simplification": simp_s}
        for k, v in got.items():
            if v is not None:
                best[k] = min(best.get(k, v), v)
    best["copies"] = copies
    return best


def fmt(x, spec):
    return "-" if x is None else format(x, spec)


def ratio(a, b):
    return None if a is None or not b else a / b


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opt", required=True, help="path to hlo-opt")
    ap.add_argument("--pipeline", default="hlo-optimization",
                    help="our pipeline to time (hlo-gpu-optimize: all)")
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--corpus-files", default=DEFAULT_CORPUS, help="'' to skip")
    ap.add_argument("--repeat", type=int, default=3,
                    help="hlo-opt runs per module (minimum taken)")
    ap.add_argument("--xla-repeat", type=int, default=3,
                    help="XLA compiles per module of at most --xla-repeat-max "
                         "instructions (larger ones: one)")
    ap.add_argument("--xla-repeat-max", type=int, default=20000)
    ap.add_argument("--xla-timeout", type=int, default=400,
                    help="seconds per XLA compile (the first one that times "
                         "out ends that module's XLA side)")
    ap.add_argument("--oracle", default=str(ORACLE),
                    help="xla_gpu_compile.py; '' to skip XLA")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    if a.oracle and not Path(a.oracle).exists():
        print(f"warning: {a.oracle} not found, XLA not measured",
              file=sys.stderr)
        a.oracle = ""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pipeline_vs_xla_") as tmp:
        cases = make_cases(tmp, a.sizes, a.corpus_files)
        results, notes = [], []
        for label, path, n in cases:
            print(f"... {label}", file=sys.stderr, flush=True)
            mine = ours(a.opt, path, a.repeat, a.pipeline)
            theirs = "not measured"
            if a.oracle:
                reps = a.xla_repeat if n <= a.xla_repeat_max else 1
                theirs = xla(a.oracle, path, tmp, reps, a.xla_timeout)
            if isinstance(theirs, str):
                notes.append(f"{label}: XLA {theirs}")
                theirs = {}
            elif theirs["copies"]:
                notes.append(f"{label}: {theirs['copies']} copy -> reshape "
                             "for XLA's StableHLO round trip")
            results.append((label, n, mine, theirs))

    first = {}  # per-instruction times of the first generated row
    times, scaling = [], []
    for label, n, (t, fixed), x in results:
        per = {"ours": t / n}
        for k in ("hlo_passes", "optimization"):
            if x.get(k) is not None:
                per[k] = x[k] / n
        if label.startswith("generated"):
            for k, v in per.items():
                first.setdefault(k, v)
        times.append([
            label, n, f"{t:.3f}", f"{fixed:.3f}",
            fmt(x.get("hlo_passes"), ".3f"),
            fmt(x.get("optimization"), ".3f"),
            fmt(x.get("simplification"), ".3f"),
            fmt(ratio(t, x.get("hlo_passes")), ".3f"),
            fmt(ratio(t, x.get("optimization")), ".2f"),
            fmt(ratio(fixed, x.get("simplification")), ".2f")])
        scaling.append(
            [label, n] +
            [fmt(per[k] * 1e6 if k in per else None, ".2f")
             for k in ("ours", "hlo_passes", "optimization")] +
            [fmt(ratio(per.get(k), first.get(k)), ".2f")
             for k in ("ours", "hlo_passes", "optimization")])
    print(table(["case", "instrs", "ours (s)", "ours simp (s)",
                 "XLA passes (s)", "XLA opt (s)", "XLA simp (s)",
                 "ours/XLA passes", "ours/XLA opt", "ours/XLA simp"],
                times, a.markdown))
    print()
    print(table(["case", "instrs", "ours us/instr", "XLA passes us/instr",
                 "XLA opt us/instr", "growth ours", "growth XLA passes",
                 "growth XLA opt"], scaling, a.markdown))
    gen = [r for r in results if r[0].startswith("generated")]
    if len(gen) >= 2:
        (l0, n0, m0, x0), (l1, n1, m1, x1) = gen[0], gen[-1]
        parts = [f"ours {ratio(m1[0] / n1, m0[0] / n0):.2f}",
                 f"ours simp {fmt(ratio(m1[1] / n1, m0[1] / n0), '.2f')}"]
        for k, name in (("hlo_passes", "XLA HLO passes"),
                        ("optimization", "XLA opt"),
                        ("simplification", "XLA simp")):
            g = (ratio(x1[k] / n1, x0[k] / n0)
                 if x0.get(k) and x1.get(k) else None)
            parts.append(f"{name} {fmt(g, '.2f')}")
        print(f"\n{n1}/{n0} growth (time per instruction at {n1} / at {n0}): "
              + ", ".join(parts))
    print(f"\nours: min of {a.repeat} runs; XLA: HLO passes = min of its "
          "RunHloPasses timer, opt/simp = its 'optimization' pipeline / "
          "'simplification' fixed point from its pass timestamps, each the "
          f"min of {a.xla_repeat} compiles (1 above {a.xla_repeat_max} "
          "instructions); growth = time per instruction / that of the first "
          "generated row.")
    for note in notes:
        print(f"note: {note}")
    print(f"total bench time {time.perf_counter() - start:.0f} s",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
