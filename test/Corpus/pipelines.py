"""Runs XLA's pipelines (hlo-opt --hlo-simplification, --hlo-optimization,
--hlo-gpu-optimize) over every HLO file of some folders and checks each
result:

- hlo-opt succeeds (the module verifies after every pass);
- XLA's parser (jaxlib) accepts the exported HLO text;
- where the reference interpreter can run the original on random inputs,
  the optimized module gives the same results (hlo-run --compare), except
  for modules with `rng`, whose values the rng expander changes; for
  hlo-gpu-optimize also on one flat arena, every value in the slice buffer
  assignment gave it (hlo-run --arena), and with its fusions run by their
  kernels compiled for the host (hlo-run --device=host-kernels) and as a
  whole thunk program on the host runtime (hlo-run --device=host);
- no module grows by more than the expanding passes add (EXPANDERS), and
  the instruction count of the whole set drops (not checked for the
  pipelines that fuse).

Prints one line per pipeline with the totals (modules, instructions before
and after, modules compared, and per pass the instructions it added or
removed,
from the --hlo-dump-to files: each file is the module after a pass that
changed it), the figures of docs/status.md. Exit status 1 on any failure.
"""
import argparse
import collections
import os
import pathlib
import re
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
from jax._src.lib import hlo as xla_hlo  # noqa: E402

PIPELINES = ["hlo-simplification", "hlo-optimization", "hlo-gpu-optimize"]
# The results are compared with the original's at its own precision, so the
# GPU pipeline runs without hlo-simplify-fp-conversions (XLA's
# xla_allow_excess_precision), which drops roundings the module asks for
# (f32 -> bf16 -> f32) by design; its own test checks it apart.
OPTIONS = {"hlo-gpu-optimize": "=allow-excess-precision=false"}
# Pipelines that fuse: a fusion's computation adds parameters, so their
# instruction counts are reported but not checked.
FUSING = {"hlo-gpu-optimize"}
MULTI_DEVICE = re.compile(r"(replica_count|num_partitions)=([2-9]|\d\d)")
# Passes that rewrite an instruction into several by design (XLA's
# expanders and casts): a module may grow by what they add, no more. The
# dot strength reduction makes a vector dot a multiply and a reduce (with
# transposes, broadcasts and converts around them); the algebraic simplifier
# has XLA's own form of it (off in the GPU pipelines) and the size-1
# dimension removal of dots (reshapes around the dot). The conditional
# canonicalizer wraps branch parameters, roots and operands in tuples, the
# reduce-window rewriter makes a long scan a tree of short ones, the dot
# merger makes two dots sharing an operand one dot of a concatenate and two
# slices (as XLA's DotMerger does on remat_offload).
EXPANDERS = {"hlo-conditional-canonicalizer", "hlo-reduce-window-rewriter",
             "hlo-dot-merger",
             "hlo-dot-decomposer", "hlo-batchnorm-expander",
             "hlo-dot-strength-reduction",
             "hlo-algebraic-simplifier",
             "hlo-scatter-expander", "hlo-gpu-scatter-expander",
             "hlo-gather-expander", "hlo-operand-upcaster",
             "hlo-result-caster", "hlo-comparison-expander",
             "hlo-logistic-expander", "hlo-stochastic-convert-decomposer",
             "hlo-rng-expander", "hlo-rng-bit-generator-expander",
             "hlo-dynamic-padder", "hlo-stable-sort-expander",
             "hlo-topk-decomposer"}
INSTRUCTION = re.compile(r"^\s*(ROOT\s+)?%?[\w.\-]+ = ", re.M)
RNG = re.compile(r"\brng\(")
AFTER_PASS = re.compile(r"\.\d{4}\.after_([\w-]+)\.hlo$")


def count(text):
    """Instructions of a module as XLA's parser counts them (nested operand
    instructions included); the `name = ` lines if XLA rejects the text."""
    try:
        module = xla_hlo.hlo_module_from_text(text)
        return sum(len(c.instructions()) for c in module.computations())
    except Exception:  # noqa: BLE001 (XLA's parser error)
        return len(INSTRUCTION.findall(text))


def xla_accepts(text):
    try:
        xla_hlo.hlo_module_from_text(text)
        return None
    except Exception as e:  # noqa: BLE001 (XLA's parser error)
        return str(e)


def removed_per_pass(dump, before):
    """{pass: instructions removed} from the files of --hlo-dump-to, in the
    order the passes ran (the file names sort that way)."""
    removed, last = collections.Counter(), before
    for f in sorted(dump.glob("*.after_*.hlo")):
        m = AFTER_PASS.search(f.name)
        n = count(f.read_text())
        removed[m.group(1)] += last - n
        last = n
    return removed


def run(cmd, timeout=600):
    """The finished process; None if it ran past `timeout` seconds."""
    try:
        return subprocess.run(cmd, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="folder of hlo-opt, hlo-run")
    ap.add_argument("--out", required=True)
    ap.add_argument("--max-compare-bytes", type=int, default=64 << 20,
                    help="skip the interpreter comparison of larger files")
    ap.add_argument("--run-timeout", type=float, default=20,
                    help="seconds the interpreter may take on the original "
                         "module; slower modules are not compared")
    ap.add_argument("folders", nargs="+")
    a = ap.parse_args()
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    opt, hlo_run = f"{a.bin}/hlo-opt", f"{a.bin}/hlo-run"
    files = sorted(f for d in a.folders for f in pathlib.Path(d).glob("*.hlo"))
    failures = []
    runnable = {}  # file -> whether the interpreter runs the original
    for pipeline in PIPELINES:
        before = after = compared = arena = kernels = 0
        on_host = on_host_tried = 0
        fused_on_host = fused_total = 0
        stats = collections.Counter()
        for f in files:
            text = f.read_text(errors="replace")
            dst = out / f"{f.stem}.{pipeline}.hlo"
            dump = out / f"{f.stem}.{pipeline}.dump"
            r = run([opt, str(f), f"--{pipeline}{OPTIONS.get(pipeline, '')}",
                     "--output-format=hlo",
                     f"--hlo-dump-to={dump}", "-o", str(dst)])
            if r is None:
                failures.append(f"{f.name} {pipeline}: hlo-opt timed out")
                continue
            if r.returncode:
                failures.append(f"{f.name} {pipeline}: hlo-opt exited "
                                f"{r.returncode}: {r.stderr[:300]}")
                continue
            result = dst.read_text()
            n0, n1 = count(text), count(result)
            removed = removed_per_pass(dump, n0)
            stats.update(removed)
            before, after = before + n0, after + n1
            expanded = sum(-n for p, n in removed.items()
                           if p in EXPANDERS and n < 0)
            if pipeline not in FUSING and n1 - n0 > expanded:
                failures.append(f"{f.name} {pipeline}: grew from {n0} to {n1} "
                                f"({expanded} added by expanders)")
            # Checked only where XLA's parser (this jaxlib) reads the original.
            error = xla_accepts(result)
            if error and not xla_accepts(text):
                failures.append(f"{f.name} {pipeline}: XLA's parser rejects "
                                f"the result: {error[:300]}")
                continue
            if f.stat().st_size > a.max_compare_bytes:
                continue
            # rng's values are the implementation's (XLA's and the
            # interpreter's differ too): hlo-rng-expander changes them.
            if RNG.search(text):
                continue
            # The original must run first; modules the interpreter cannot
            # run (or take inputs for), or not within --run-timeout, are not
            # compared.
            if f not in runnable:
                base = run([hlo_run, str(f), "--random-inputs", "--seed=1"],
                           a.run_timeout)
                runnable[f] = base is not None and base.returncode == 0
            if not runnable[f]:
                continue
            c = run([hlo_run, str(f), "--random-inputs", "--seed=1",
                     f"--compare={dst}", "--atol=1e-4", "--rtol=1e-4"])
            compared += 1
            if c is None or c.returncode:
                why = "timed out" if c is None else (c.stdout + c.stderr)[-300:]
                failures.append(f"{f.name} {pipeline}: results differ: {why}")
            if pipeline not in FUSING:
                continue
            # The fused, scheduled module on one flat arena, every value in
            # its assigned slice (the exported text has no slices: assign
            # them again over its order, which is the schedule). The arena
            # and the host runtime run each device on an arena of its own.
            multi_device = MULTI_DEVICE.search(text.split("\n", 1)[0])
            assigned = out / f"{f.stem}.{pipeline}.mlir"
            r = run([opt, str(dst), "--hlo-flatten-call-graph",
                     "--hlo-gpu-copy-insertion", "--hlo-buffer-assignment",
                     "-o", str(assigned)])
            c = r if r is None or r.returncode else run(
                [hlo_run, str(assigned), "--arena", "--random-inputs",
                 "--seed=1", f"--compare={f}", "--atol=1e-4", "--rtol=1e-4"])
            arena += 1
            if c is None or c.returncode:
                why = "timed out" if c is None else (c.stdout + c.stderr)[-300:]
                failures.append(f"{f.name} {pipeline}: on the arena: {why}")
            # The host runtime holds static shapes (the arena bounded
            # dynamic ones too).
            if "<=" in text:
                continue
            # The whole compiled program (hlo-to-gpu, hlo-to-thunk) on the
            # host runtime: a module with what has no thunk yet is counted,
            # wrong results fail.
            if r is not None and not r.returncode:
                c = run([hlo_run, str(assigned), "--device=host",
                         "--random-inputs", "--seed=1", f"--compare={f}",
                         "--atol=1e-4", "--rtol=1e-4"])
                on_host_tried += 1
                if c is not None and not c.returncode:
                    on_host += 1
                elif c is None or "the GPU compiler failed" not in c.stderr:
                    why = ("timed out" if c is None else
                           (c.stdout + c.stderr)[-300:])
                    failures.append(f"{f.name} {pipeline}: on the host "
                                    f"runtime: {why}")
            # Its fusions run by their kernels compiled for the host (those
            # the emitters take), the rest by the interpreter (one device).
            if multi_device:
                continue
            c = run([hlo_run, str(dst), "--device=host-kernels",
                     "--random-inputs", "--seed=1", f"--compare={f}",
                     "--atol=1e-4", "--rtol=1e-4"])
            kernels += 1
            if c is None or c.returncode:
                why = "timed out" if c is None else (c.stdout + c.stderr)[-300:]
                failures.append(f"{f.name} {pipeline}: on host kernels: {why}")
            else:
                m = re.search(r"(\d+) of (\d+) fusions run by their kernels",
                              c.stderr)
                if m:
                    fused_on_host += int(m.group(1))
                    fused_total += int(m.group(2))
        summary = ", ".join(f"{k} {-v:+d}" for k, v in sorted(stats.items())
                            if v)
        on_arena = f", {arena} run on the arena" if arena else ""
        if kernels:
            on_arena += (f" and {kernels} with their fusions on host kernels "
                         f"({fused_on_host} of {fused_total} fusions); "
                         f"{on_host} of {on_host_tried} compiled and run on "
                         f"the host runtime")
        print(f"{pipeline}: {len(files)} modules, {before} -> {after} "
              f"instructions, {compared} compared with the interpreter"
              f"{on_arena}; "
              f"instructions added (+) or removed (-) per pass: {summary}")
        if pipeline not in FUSING and after >= before:
            failures.append(f"{pipeline}: the instruction count did not drop")
    for f in failures:
        print("FAIL", f)
    if not files:
        print("no .hlo files found")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
