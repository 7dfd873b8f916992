#!/usr/bin/env python3
"""How every pass scales with module size, each pass alone.

For each size N of --sizes, generates a module of N instructions
(gen_hlo.py: dense layers with dots, reductions, calls, transposes), the
same module after `--hlo-gpu-optimize` (scheduled, fused, buffer assigned:
the input of the passes that run after XLA's HLO pipeline, such as
hlo-to-gpu and hlo-to-thunk) and a chain of while loops and conditionals
(`control`, computations of their own), and with `--forms ...,offload` a
chain of moves to host memory and back, with `sort` a chain of sorts and
CUB sort calls, with `qr` a chain of XLA's QR calls, with `cholesky` a
chain of cholesky instructions, with `eigh` a chain of XLA's Eigh calls.
Then every pass
hlo-opt registers
runs alone on each form (--forms), one process each, with --mlir-timing:
the pass's time is its
row of the timing report (which includes the verifier run after it), or,
for a pass whose row has another name (MLIR's canonicalize is
"Canonicalizer"), the report's total less parsing and printing. A pass
that refuses a form (a precondition) is left out for that form.

Growth is the time per instruction at the largest size over that at the
previous size: 1.00 is linear, n log n from 10k to 100k about 1.25. On
this machine even a pass that only walks the module grows by about 1.5
from 10k to 100k instructions (the module leaves the caches), so a pass is
marked `!` (super-linear) when its growth is more than --flag (default
1.5) times the median growth of all passes on that form, its time at the
largest size is at least --min-ms (default 50), and the mark survives a
second measurement (the fastest of --confirm runs, default 3, at the two
largest sizes). Exits 1 if any pass is marked.

  python3 bench/pass_scaling.py --opt build/bin/hlo-opt \\
      [--sizes 1000,10000,100000] [--passes a,b] [--markdown]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fuzz"))
from bench_util import table  # noqa: E402
from pass_sweep import SKIP, list_passes  # noqa: E402

GEN = Path(__file__).resolve().parent / "gen_hlo.py"
TIMING_ROW = re.compile(r"^\s+([0-9.]+) \(\s*[0-9.]+%\)\s+(\S+)\s*$", re.M)


def pass_ms(opt, module, pass_name, timeout, repeat):
    """The fastest of `repeat` runs of `pass_name` alone on `module`, in ms;
    None if the pass fails, "timeout" if it runs past `timeout`."""
    best = None
    for _ in range(repeat):
        cmd = [opt, module, "--" + pass_name, "--mlir-timing", "-o",
               os.devnull]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True,
                               errors="replace", timeout=timeout)
        except subprocess.TimeoutExpired:
            return "timeout"
        rows = {name: float(s) for s, name in TIMING_ROW.findall(r.stderr)}
        if r.returncode or "Total" not in rows:
            return None
        key = pass_name.replace("-", "").lower()
        own = [s for name, s in rows.items() if name.lower() == key]
        ms = 1000 * (own[0] if own else rows["Total"] - rows.get("Parser", 0)
                     - rows.get("Output", 0))
        best = ms if best is None else min(best, ms)
    return best


def control_flow(n):
    """A module of about n instructions: a chain of blocks, each a counted
    while loop (a condition and a body computation of its own) and a
    conditional on the loop's result (two branch computations), 27
    instructions a block."""
    lines, entry = ["HloModule control_flow", ""], []
    state = "(s32[], f32[64])"
    entry.append("  x0 = f32[64] parameter(0)")
    for i in range((n - 2) // 27):
        x = f"x{i}"
        lines += [
            f"cond{i} {{", f"  s = {state} parameter(0)",
            "  i = s32[] get-tuple-element(s), index=0",
            "  n = s32[] constant(4)",
            "  ROOT lt = pred[] compare(i, n), direction=LT", "}", "",
            f"body{i} {{", f"  s = {state} parameter(0)",
            "  i = s32[] get-tuple-element(s), index=0",
            "  x = f32[64] get-tuple-element(s), index=1",
            "  one = s32[] constant(1)", "  i1 = s32[] add(i, one)",
            "  c = f32[] constant(0.5)",
            "  cb = f32[64] broadcast(c), dimensions={}",
            "  y = f32[64] multiply(x, cb)", "  z = f32[64] add(y, x)",
            f"  ROOT t = {state} tuple(i1, z)", "}", "",
            f"on_true{i} {{", "  x = f32[64] parameter(0)",
            "  ROOT n = f32[64] negate(x)", "}", "",
            f"on_false{i} {{", "  x = f32[64] parameter(0)",
            "  ROOT e = f32[64] exponential(x)", "}", ""]
        entry += [
            f"  zero{i} = s32[] constant(0)",
            f"  init{i} = {state} tuple(zero{i}, {x})",
            f"  w{i} = {state} while(init{i}), condition=cond{i}, "
            f"body=body{i}",
            f"  r{i} = f32[64] get-tuple-element(w{i}), index=1",
            f"  h{i} = f32[1] slice(r{i}), slice={{[0:1]}}",
            f"  hs{i} = f32[] reshape(h{i})",
            f"  zf{i} = f32[] constant(0)",
            f"  p{i} = pred[] compare(hs{i}, zf{i}), direction=GT",
            f"  x{i + 1} = f32[64] conditional(p{i}, r{i}, r{i}), "
            f"true_computation=on_true{i}, false_computation=on_false{i}"]
    entry[-1] = entry[-1].replace(f"  x{(n - 2) // 27} =", "  ROOT out =")
    return "\n".join(lines + ["ENTRY main {"] + entry + ["}", ""])


def offload(n):
    """A module of about n instructions: a chain of JAX's offloaded
    residuals, each moved to host memory, passed through a tuple and an
    opt-barrier and moved back (hlo-host-offloader's input), 7 instructions
    a link."""
    lines = ["HloModule offload", "", "ENTRY main {",
             "  x0 = f32[64]{0} parameter(0)"]
    pair = "(f32[64]{0}, f32[64]{0})"
    for i in range((n - 1) // 7):
        lines += [
            f"  s{i} = f32[64]{{0}} sine(x{i})",
            f"  m{i} = f32[64]{{0}} custom-call(s{i}), "
            'custom_call_target="MoveToHost"',
            f"  t{i} = {pair} tuple(m{i}, x{i})",
            f"  b{i} = {pair} opt-barrier(t{i})",
            f"  g{i} = f32[64]{{0}} get-tuple-element(b{i}), index=0",
            f"  d{i} = f32[64]{{0}} custom-call(g{i}), "
            'custom_call_target="MoveToDevice"',
            f"  x{i + 1} = f32[64]{{0}} add(d{i}, s{i})"]
    lines[-1] = lines[-1].replace(f"  x{(n - 1) // 7} =", "  ROOT out =")
    return "\n".join(lines + ["}", ""])


def sorts(n):
    """A module of about n instructions: a chain of sorts hlo-sort-rewriter
    gives CUB (rows of 32768 f32 in JAX's NumPy order) next to CUB calls
    whose scratch hlo-estimate-cub-sort-scratch-size sizes, 4 instructions
    a link; one comparator for all."""
    lines = ["HloModule sorts", "", "numpy_lt {",
             "  p0 = f32[] parameter(0)", "  p1 = f32[] parameter(1)",
             "  nan = f32[] constant(nan)", "  zero = f32[] constant(0)"]
    for p in ("p0", "p1"):
        lines += [f"  ne.{p} = pred[] compare({p}, {p}), direction=NE",
                  f"  eq.{p} = pred[] compare({p}, zero), direction=EQ",
                  f"  z.{p} = f32[] select(eq.{p}, zero, {p})",
                  f"  c.{p} = f32[] select(ne.{p}, nan, z.{p})"]
    lines += ["  ROOT lt = pred[] compare(c.p0, c.p1), direction=LT, "
              "type=TOTALORDER", "}", "", "ENTRY main {",
              "  x0 = f32[32768]{0} parameter(0)"]
    call = "(f32[32768]{0}, u8[1]{0})"
    for i in range((n - 1) // 4):
        lines += [
            f"  s{i} = f32[32768]{{0}} sort(x{i}), dimensions={{0}}, "
            "is_stable=true, to_apply=numpy_lt",
            f"  c{i} = {call} custom-call(x{i}), custom_call_target="
            '"xla.gpu.ext.cub_sort_unassigned_scratch_size", '
            'backend_config={"descending":true}',
            f"  g{i} = f32[32768]{{0}} get-tuple-element(c{i}), index=0",
            f"  x{i + 1} = f32[32768]{{0}} add(s{i}, g{i})"]
    lines[-1] = lines[-1].replace(f"  x{(n - 1) // 4} =", "  ROOT out =")
    return "\n".join(lines + ["}", ""])


def qrs(n):
    """A module of about n instructions: a chain of XLA's QR calls (Qr and
    the Householder product of its result, 6 instructions a link), each of
    which hlo-qr-expander makes two loops of about 120 instructions."""
    lines = ["HloModule qrs", "", "ENTRY main {",
             "  x0 = f32[4,16,8]{2,1,0} parameter(0)"]
    for i in range((n - 1) // 6):
        lines += [
            f"  q{i} = (f32[4,16,8]{{2,1,0}}, f32[4,8]{{1,0}}) "
            f'custom-call(x{i}), custom_call_target="Qr"',
            f"  r{i} = f32[4,16,8]{{2,1,0}} get-tuple-element(q{i}), index=0",
            f"  t{i} = f32[4,8]{{1,0}} get-tuple-element(q{i}), index=1",
            f"  p{i} = f32[4,16,8]{{2,1,0}} custom-call(r{i}, t{i}), "
            'custom_call_target="ProductOfElementaryHouseholderReflectors"',
            f"  a{i} = f32[4,16,8]{{2,1,0}} add(p{i}, r{i})",
            f"  x{i + 1} = f32[4,16,8]{{2,1,0}} add(a{i}, x{i})"]
    lines[-1] = lines[-1].replace(f"  x{(n - 1) // 6} =", "  ROOT out =")
    return "\n".join(lines + ["}", ""])


def choleskys(n):
    """A module of about n instructions: a chain of cholesky instructions
    (2 instructions a link), each of which hlo-cholesky-expander makes a
    loop of about 40 instructions."""
    lines = ["HloModule choleskys", "", "ENTRY main {",
             "  x0 = f32[4,16,16]{2,1,0} parameter(0)"]
    for i in range((n - 1) // 2):
        lines += [
            f"  c{i} = f32[4,16,16]{{2,1,0}} cholesky(x{i}), lower=true",
            f"  x{i + 1} = f32[4,16,16]{{2,1,0}} add(c{i}, x{i})"]
    lines[-1] = lines[-1].replace(f"  x{(n - 1) // 2} =", "  ROOT out =")
    return "\n".join(lines + ["}", ""])


def eighs(n):
    """A module of about n instructions: a chain of XLA's Eigh calls (3
    instructions a link), each of which hlo-eigh-expander makes two nested
    loops and a sort, about 170 instructions in five computations."""
    lines = ["HloModule eighs", "", "ENTRY main {",
             "  x0 = f32[4,8,8]{2,1,0} parameter(0)"]
    for i in range((n - 1) // 3):
        lines += [
            f"  e{i} = (f32[4,8,8]{{2,1,0}}, f32[4,8]{{1,0}}) custom-call(x{i}), "
            'custom_call_target="Eigh", backend_config="1,1,100,1e-06"',
            f"  v{i} = f32[4,8,8]{{2,1,0}} get-tuple-element(e{i}), index=0",
            f"  x{i + 1} = f32[4,8,8]{{2,1,0}} add(v{i}, x{i})"]
    lines[-1] = lines[-1].replace(f"  x{(n - 1) // 3} =", "  ROOT out =")
    return "\n".join(lines + ["}", ""])


GENERATED_FORMS = {"control": control_flow, "offload": offload,
                   "sort": sorts, "qr": qrs, "cholesky": choleskys,
                   "eigh": eighs}


def make_inputs(opt, sizes, forms, workdir):
    """(form, size) -> module path: the generated module (`hlo`), the same
    after --hlo-gpu-optimize (`optimized`), loops and conditionals
    (`control`)."""
    inputs = {}
    for n in sizes:
        pre = os.path.join(workdir, f"gen{n}.hlo")
        subprocess.run([sys.executable, str(GEN), "--instructions", str(n),
                        "-o", pre], check=True)
        inputs[("hlo", n)] = pre
        if "optimized" in forms:
            post = os.path.join(workdir, f"gen{n}.optimized.mlir")
            subprocess.run([opt, pre, "--hlo-gpu-optimize", "-o", post],
                           check=True)
            inputs[("optimized", n)] = post
        # The generated forms (control always).
        for form, generate in GENERATED_FORMS.items():
            if form != "control" and form not in forms:
                continue
            path = os.path.join(workdir, f"{form}{n}.hlo")
            with open(path, "w") as f:
                f.write(generate(n))
            inputs[(form, n)] = path
    return inputs


def growth(times, sizes):
    """Time per instruction at the last size over that at the one before."""
    if len(sizes) < 2 or not all(isinstance(t, float) for t in times[-2:]):
        return None
    return (times[-1] / sizes[-1]) / max(times[-2] / sizes[-2], 1e-6)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opt", default="build/bin/hlo-opt")
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--passes", help="comma-separated (default: all)")
    ap.add_argument("--forms", default="hlo,optimized,control",
                    help="which inputs: hlo, optimized, control, "
                         "offload, sort, qr, cholesky, eigh")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--flag", type=float, default=1.5)
    ap.add_argument("--min-ms", type=float, default=50)
    ap.add_argument("--confirm", type=int, default=3)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()

    sizes = [int(s) for s in args.sizes.split(",")]
    forms = args.forms.split(",")
    passes = (args.passes.split(",") if args.passes
              else [p for p in list_passes(args.opt) if p not in SKIP])
    results = {}  # (pass, form) -> times per size
    with tempfile.TemporaryDirectory() as workdir:
        inputs = make_inputs(args.opt, sizes, forms, workdir)
        for p in passes:
            for form in forms:
                times = []
                for n in sizes:
                    times.append(pass_ms(args.opt, inputs[(form, n)], p,
                                         args.timeout, 1))
                    if not isinstance(times[-1], float):
                        break
                if not isinstance(times[0], float):
                    continue  # the pass does not take this form
                times += [None] * (len(sizes) - len(times))
                results[(p, form)] = times
                print(p, form, times, file=sys.stderr, flush=True)
        median = {}
        for form in forms:
            gs = sorted(g for (p, f), ts in results.items() if f == form
                        for g in [growth(ts, sizes)] if g is not None)
            median[form] = gs[len(gs) // 2] if gs else 1.0

        def suspect(key):
            times = results[key]
            if "timeout" in times:
                return True
            g = growth(times, sizes)
            return (g is not None and g > args.flag * median[key[1]]
                    and times[-1] >= args.min_ms)

        for key in [k for k in results if suspect(k)]:
            if "timeout" in results[key]:
                continue
            for i in (-2, -1):
                results[key][i] = pass_ms(args.opt, inputs[(key[1], sizes[i])],
                                          key[0], args.timeout, args.confirm)
    flagged = [f"{p} ({form})" for (p, form) in results if suspect((p, form))]
    rows = []
    for (p, form), times in results.items():
        g = growth(times, sizes)
        cells = ["-" if t is None else t if isinstance(t, str) else f"{t:.1f}"
                 for t in times]
        mark = "!" if f"{p} ({form})" in flagged else ""
        rows.append([p, form, *cells,
                     ("-" if g is None else f"{g:.2f}") + mark])
    head = ["pass", "input", *(f"ms at {n}" for n in sizes),
            f"growth {sizes[-2] if len(sizes) > 1 else ''}->{sizes[-1]}"]
    print(table(head, rows, args.markdown))
    print("\nmedian growth: " + ", ".join(f"{form} {m:.2f}"
                                          for form, m in median.items()))
    if flagged:
        print("super-linear: " + ", ".join(flagged))
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
