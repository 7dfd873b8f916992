#!/usr/bin/env python3
"""How the command-line tools scale with the number of computations.

Generates fusion chains of N computations (the ENTRY computation is a chain
of N fusions, each calling a fused computation of its own) and times, per
size, min of --repeat runs:

  hlo-to-hlo    hlo-translate --hlo-to-hlo IN.hlo -o OUT.hlo
  mlir-to-hlo   hlo-translate --mlir-to-hlo NOLOC.mlir -o OUT.hlo, where
                NOLOC.mlir is the module printed without locations
                (--hlo-to-mlir --mlir-print-debuginfo=false, not timed): the
                export must invent every name (`fusion`, `fusion.1`, ...)
  hlo-opt       hlo-opt IN.hlo --output-format=hlo -o OUT.hlo (no passes)
  XLA           hlo.hlo_module_from_text(text).to_string() in process (jaxlib)

and prints the time per instruction, its ratio between the largest and the
smallest size (1.00 = linear; the goal is <= 1.5) and ours/XLA.

Usage: cli_scaling.py --bin build/bin [--sizes 1000,4000,16000,64000]
                      [--repeat 3] [--timeout 600] [--markdown] [--no-xla]
"""

import argparse
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_util import best_of, table  # noqa: E402

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")


def fusion_chain(n):
    """A module of n fused computations called by a chain of n fusions."""
    shape = "f32[16]{0}"
    lines = [f"HloModule fusion_chain_{n}", ""]
    for i in range(n):
        lines += [
            f"%fused_computation.{i} (param_0.{i}: f32[16]) -> f32[16] {{",
            f"  %param_0.{i} = {shape} parameter(0)",
            f"  %negate.{i} = {shape} negate(%param_0.{i})",
            f"  ROOT %add.{i} = {shape} add(%negate.{i}, %param_0.{i})",
            "}",
            "",
        ]
    lines.append("ENTRY %main (x: f32[16]) -> f32[16] {")
    lines.append(f"  %x = {shape} parameter(0)")
    prev = "%x"
    for i in range(n):
        root = "ROOT " if i == n - 1 else ""
        lines.append(f"  {root}%fusion.{i} = {shape} fusion({prev}), kind=kLoop, "
                     f"calls=%fused_computation.{i}")
        prev = f"%fusion.{i}"
    lines.append("}")
    return "\n".join(lines) + "\n"


def instruction_count(n):
    # Per fused computation: parameter, negate, add; per fusion: one; and %x.
    return 4 * n + 1


class ToolError(Exception):
    pass


def run(cmd, timeout):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if p.returncode:
        msg = (p.stderr.strip().splitlines() or ["(no stderr)"])[0][:200]
        raise ToolError(f"{' '.join(Path(c).name for c in cmd[:2])} exited "
                        f"{p.returncode}: {msg}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True, help="folder with hlo-translate and hlo-opt")
    ap.add_argument("--sizes", default="1000,4000,16000,64000",
                    help="comma-separated numbers of fused computations")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=600, help="seconds per run")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--no-xla", action="store_true", help="skip XLA (no jaxlib)")
    args = ap.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(",") if s.strip())
    translate = str(Path(args.bin) / "hlo-translate")
    opt = str(Path(args.bin) / "hlo-opt")
    for tool in (translate, opt):
        if not os.access(tool, os.X_OK):
            ap.error(f"not an executable: {tool}")
    xla = None
    if not args.no_xla:
        from jax._src.lib import hlo as xla  # noqa: E402

    tools = ["hlo-to-hlo", "mlir-to-hlo", "hlo-opt"] + ([] if args.no_xla else ["XLA"])
    per_instr = {t: {} for t in tools}  # tool -> size -> us per instruction
    rows, errors = [], []
    with tempfile.TemporaryDirectory(prefix="cli_scaling_") as tmp:
        work = Path(tmp)
        for n in sizes:
            print(f"... {n} computations", file=sys.stderr, flush=True)
            text = fusion_chain(n)
            src, noloc, out = work / f"chain_{n}.hlo", work / f"chain_{n}.mlir", work / "out.hlo"
            src.write_text(text)
            instrs = instruction_count(n)
            times = {}
            commands = {
                "hlo-to-hlo": [translate, "--hlo-to-hlo", str(src), "-o", str(out)],
                "mlir-to-hlo": [translate, "--mlir-to-hlo", str(noloc), "-o", str(out)],
                "hlo-opt": [opt, str(src), "--output-format=hlo", "-o", str(out)],
            }
            try:
                run([translate, "--hlo-to-mlir", str(src), "--mlir-print-debuginfo=false",
                     "-o", str(noloc)], args.timeout)
            except (ToolError, subprocess.TimeoutExpired) as e:
                errors.append(f"{n}: preparing the MLIR input: {e}")
            for tool, cmd in commands.items():
                try:
                    times[tool] = best_of(args.repeat, lambda: run(cmd, args.timeout))
                except (ToolError, subprocess.TimeoutExpired) as e:
                    errors.append(f"{n} {tool}: {e}")
            if xla:
                times["XLA"] = best_of(args.repeat,
                                       lambda: xla.hlo_module_from_text(text).to_string())
            row = [n, instrs]
            for tool in tools:
                t = times.get(tool)
                if t is not None:
                    per_instr[tool][n] = t / instrs * 1e6
                row += ["-" if t is None else f"{t:.3f}",
                        "-" if t is None else f"{t / instrs * 1e6:.2f}"]
            for tool in tools[:3]:
                t, x = times.get(tool), times.get("XLA")
                row.append("-" if t is None or x is None else f"{t / x:.2f}")
            rows.append(row)

    head = ["computations", "instrs"]
    for tool in tools:
        head += [f"{tool} (s)", f"{tool} us/instr"]
    head += [f"{tool}/XLA" for tool in tools[:3]] if xla else []
    if not xla:
        rows = [r[:len(head)] for r in rows]
    print(table(head, rows, args.markdown))
    print()
    lo, hi = sizes[0], sizes[-1]
    growth = []
    for tool in tools:
        a, b = per_instr[tool].get(lo), per_instr[tool].get(hi)
        verdict = "-" if a is None or b is None else f"{b / a:.2f}"
        growth.append([tool, verdict])
    print(table(["tool", f"us/instr at {hi} / at {lo} (goal <= 1.5)"], growth,
                args.markdown))
    print()
    print(f"min of {args.repeat} runs; ours are separate processes (start-up "
          f"included), XLA is in process; {platform.machine()}, "
          f"{os.cpu_count()} CPUs.")
    for e in errors:
        print(f"ERROR {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
