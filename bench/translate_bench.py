#!/usr/bin/env python3
"""Time hlo-translate's HLO -> MLIR -> HLO round trip against XLA's own
parse + print of the same HLO text, on generated modules and a corpus module.

ours: wall time of separate processes (process startup included):
      import = hlo-translate --hlo-to-mlir IN.hlo -o X.mlir
      export = hlo-translate --mlir-to-hlo X.mlir -o OUT.hlo
      total  = hlo-translate --hlo-to-mlir IN.hlo -o - | hlo-translate --mlir-to-hlo - -o OUT.hlo
      in-memory = hlo-translate --hlo-to-hlo IN.hlo -o OUT.hlo
ours in-process: the --hlo-to-hlo translation's own time (--mlir-timing)
XLA:  in process, hlo.hlo_module_from_text(text) + module.to_string()
Each figure is the minimum of --repeat runs.  Startup is measured separately
as the round trip of a tiny module.

Usage: translate_bench.py --translate PATH [--sizes 1000,10000,100000]
                          [--corpus-file PATH] [--repeat 3] [--markdown]
                          [--corpus-dir DIR [--min-instructions 100]]
Without --translate only the XLA side is measured.  --corpus-dir also
compares the in-process times on every module of DIR that both translate
and that has at least --min-instructions instructions (below that, both
times are under --mlir-timing's 0.1 ms resolution).
"""

import argparse
import math
import os
import platform
import re
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # silence "Invalid stack_frame_id"
from jax._src.lib import hlo  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_hlo  # noqa: E402
from bench_util import best_of, table  # noqa: E402

# $HLO_CORPUS_DIR, else ../shared/corpus/hlo beside the source tree.
CORPUS_DIR = Path(os.environ.get("HLO_CORPUS_DIR") or
                  Path(__file__).resolve().parents[2] / "shared" / "corpus" / "hlo")
DEFAULT_CORPUS = str(CORPUS_DIR / "rocmxla__tools_data__mobilenet_v2_pytorch_xla.hlo")
TINY = """HloModule tiny

ENTRY %main (p: f32[4]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  ROOT %n = f32[4]{0} negate(%p)
}
"""


class TranslateError(Exception):
    pass


def run(cmd, timeout):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if p.returncode:
        msg = (p.stderr.strip().splitlines() or ["(no stderr)"])[0][:200]
        raise TranslateError(f"{Path(cmd[0]).name} {cmd[1]} exited {p.returncode}: {msg}")
    return p


def in_process(translate, src, out, repeat, timeout):
    """Minimum over `repeat` runs of the time --mlir-timing gives the
    translation itself (text in memory to text in memory, the module's
    destruction included): what XLA's figure measures, without process
    startup and file I/O."""
    times = []
    for _ in range(repeat):
        p = run([translate, "--hlo-to-hlo", str(src), "-o", str(out), "--mlir-timing"], timeout)
        m = re.search(r"^\s*([0-9.]+) \([ 0-9.]+%\)\s+HLO text through", p.stderr, re.M)
        if not m:
            raise TranslateError("no --mlir-timing line for the translation")
        times.append(float(m.group(1)))
    return min(times)


def pipeline(translate, src, dst, timeout):
    imp = subprocess.Popen([translate, "--hlo-to-mlir", str(src), "-o", "-"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    exp = subprocess.Popen([translate, "--mlir-to-hlo", "-", "-o", str(dst)],
                           stdin=imp.stdout, stderr=subprocess.DEVNULL)
    imp.stdout.close()  # so that imp gets SIGPIPE if exp dies
    try:
        exp.wait(timeout)
        imp.wait(timeout)
    finally:
        for p in (imp, exp):
            if p.poll() is None:
                p.kill()
                p.wait()
    if imp.returncode or exp.returncode:
        raise TranslateError(f"pipeline exited {imp.returncode}|{exp.returncode}")


def time_ours(translate, src: Path, work: Path, repeat, timeout):
    mlir, out = work / (src.stem + ".mlir"), work / (src.stem + ".out.hlo")
    t_imp = best_of(repeat, lambda: run([translate, "--hlo-to-mlir", str(src), "-o", str(mlir)], timeout))
    t_exp = best_of(repeat, lambda: run([translate, "--mlir-to-hlo", str(mlir), "-o", str(out)], timeout))
    t_all = best_of(repeat, lambda: pipeline(translate, src, out, timeout))
    t_mem = best_of(repeat, lambda: run([translate, "--hlo-to-hlo", str(src), "-o", str(out)], timeout))
    t_proc = in_process(translate, src, out, repeat, timeout)
    return t_imp, t_exp, t_all, t_mem, t_proc


def corpus_ratios(translate, corpus_dir, min_instrs, repeat, timeout, work, setup):
    """(module, instructions, ours in-process / XLA, the same without the
    one-time `setup`) for every module of `corpus_dir` that XLA parses, that
    we translate and that is large enough to time."""
    ratios = []
    for path in sorted(Path(corpus_dir).glob("*.hlo")):
        text = path.read_text()
        try:
            n = count_instructions(text)
        except Exception:  # XLA rejects it (a newer opcode, an extension)
            continue
        if n < min_instrs:
            continue
        try:
            ours = in_process(translate, path, work / "corpus.out.hlo", repeat, timeout)
        except (TranslateError, subprocess.TimeoutExpired):
            continue
        xla = time_xla(text, repeat)
        ratios.append((path.stem, n, ours / xla, max(ours - setup, 0) / xla))
    return ratios


def time_xla(text, repeat):
    return best_of(repeat, lambda: hlo.hlo_module_from_text(text).to_string())


def count_instructions(text):
    return sum(len(c.instructions()) for c in hlo.hlo_module_from_text(text).computations())


def fmt_s(t):
    return "-" if t is None else f"{t:.3f}"


def fmt_x(x):
    return "-" if x is None else f"{x:.2f}"


TABLE_HEAD = ["case", "instrs", "ours import (s)", "ours export (s)", "ours total (s)",
              "ours in-memory (s)", "ours in-process (s)", "XLA (s)", "in-process/XLA",
              "in-memory/XLA", "growth ours", "growth XLA"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--translate", help="path to hlo-translate (omit: XLA side only)")
    ap.add_argument("--sizes", default="1000,10000,100000",
                    help="comma-separated instruction counts of generated modules")
    ap.add_argument("--corpus-file", default=DEFAULT_CORPUS, help="'' to skip")
    ap.add_argument("--corpus-dir", help="also compare every module of this directory")
    ap.add_argument("--min-instructions", type=int, default=100,
                    help="smallest --corpus-dir module compared")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=600, help="seconds per hlo-translate run")
    ap.add_argument("--markdown", action="store_true", help="print a markdown table")
    args = ap.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(",") if s.strip())
    if args.translate and not os.access(args.translate, os.X_OK):
        ap.error(f"not an executable: {args.translate}")

    with tempfile.TemporaryDirectory(prefix="translate_bench_") as tmp:
        work = Path(tmp)
        cases = []  # (label, path, text, instruction count)
        for n in sizes:
            text = gen_hlo.generate(n)
            path = work / f"gen_{n}.hlo"
            path.write_text(text)
            cases.append((f"generated {n}", path, text, n))
        if args.corpus_file:
            path = Path(args.corpus_file)
            text = path.read_text()
            cases.append((path.stem, path, text, count_instructions(text)))
        tiny = work / "tiny.hlo"
        tiny.write_text(TINY)

        startup, errors, rows, base = None, [], [], None
        if args.translate:
            try:
                startup = time_ours(args.translate, tiny, work, args.repeat, args.timeout)
            except (TranslateError, subprocess.TimeoutExpired) as e:
                errors.append(f"tiny: {e}")
        # The in-process time of the tiny module: the context's one-time
        # setup (loading the hlo dialect), which a process pays once and
        # which XLA's figure (a warm Python process) leaves out too.
        setup = startup[4] if startup else 0
        for label, path, text, n in cases:
            print(f"... {label}", file=sys.stderr, flush=True)
            t_xla = time_xla(text, args.repeat)
            ours = (None,) * 5
            if args.translate:
                try:
                    ours = time_ours(args.translate, path, work, args.repeat, args.timeout)
                except (TranslateError, subprocess.TimeoutExpired) as e:
                    errors.append(f"{label}: {e}")
            total, proc = ours[3], ours[4]
            if base is None:  # per-instruction times of the first (smallest) case
                base = (proc / n if proc else None, t_xla / n)
            growth_ours = proc / n / base[0] if proc and base[0] else None
            rows.append([label, n, *map(fmt_s, ours), fmt_s(t_xla),
                         fmt_x(proc / t_xla if proc else None),
                         fmt_x(total / t_xla if total else None),
                         fmt_x(growth_ours), fmt_x(t_xla / n / base[1])])
        ratios = []
        if args.translate and args.corpus_dir:
            print(f"... {args.corpus_dir}", file=sys.stderr, flush=True)
            ratios = corpus_ratios(args.translate, args.corpus_dir, args.min_instructions,
                                   args.repeat, args.timeout, work, setup)

    print(table(TABLE_HEAD, rows, args.markdown))
    print()
    if startup:
        print(f"Startup (tiny module, included in every 'ours' figure): import "
              f"{startup[0]:.3f}s, export {startup[1]:.3f}s, total {startup[2]:.3f}s, "
              f"in-memory {startup[3]:.3f}s.")
    print("in-memory = `hlo-translate --hlo-to-hlo` (parse, build the hlo dialect, verify, "
          "print HLO), the same work as XLA's parse + to_string, as a process; in-process = "
          "the same run's own time (--mlir-timing), without process startup and file I/O, "
          "as XLA's figure is taken; ratios < 1 mean faster than XLA.")
    print(f"min of {args.repeat} runs; growth = time per instruction / that of the first row "
          f"(1.00 everywhere = linear); {platform.machine()}, {os.cpu_count()} CPUs.")
    if ratios:
        def summary(k):
            geomean = math.exp(sum(math.log(max(r[k], 1e-9)) for r in ratios) / len(ratios))
            return f"geometric mean {geomean:.2f}, faster than XLA on " \
                f"{sum(r[k] < 1 for r in ratios)} of {len(ratios)}"
        print(f"\nCorpus ({len(ratios)} modules of >= {args.min_instructions} instructions "
              f"that both translate): in-process/XLA {summary(2)}; without the one-time "
              f"context setup ({setup * 1e3:.1f} ms: the tiny module's in-process time) "
              f"{summary(3)}; slowest (with, without):")
        for name, n, r, r2 in sorted(ratios, key=lambda t: -t[2])[:5]:
            print(f"  {r:.2f}  {r2:.2f}  {name} ({n} instructions)")
    for e in errors:
        print(f"ERROR {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
