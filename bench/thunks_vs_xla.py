#!/usr/bin/env python3
"""Count the thunks of our compiled program and of XLA's, side by side.

Ours: `hlo-opt MODULE --hlo-gpu-pipeline` (the whole GPU compiler) writes a
thunk program; each `thunk.*` operation of its `thunk.program` is counted
where it stands (a loop body once): `thunk.kernel` is a kernel launch,
`thunk.gemm`, `thunk.convolution`, `thunk.fft`, the factorization,
triangular-solve, collective and transfer thunks library calls (`OURS`),
`thunk.copy` and `thunk.memset` copies, `thunk.while` and `thunk.conditional` control flow
(a `thunk.command_buffer` is a wrapper, as XLA's are below: the thunks it
holds are counted, not it; XLA's deviceless compile forms none). Dynamic counts (modules with
control flow): `hlo-run MODULE --random-inputs --device=host` runs the
program on the host runtime and its note says how many kernels, GEMMs,
copies and memsets ran (each loop's body once per iteration, its condition
too unless the loop has a known trip count, as on the GPU;
the branch taken once).

XLA: its GPU compiler for an H100, deviceless, through the xla-oracle tool
(`xla_gpu_compile.py`, Triton GEMMs off: the cuBLAS configuration our
pipeline follows; a module of several replicas or partitions on as many
devices, `bench_util.xla_compile_devices`, since the tool compiles for
one), whose `thunk_sequence.txt` lists the thunks, nested under
their while (condition, body) and conditional (branch_N) thunks. Kinds:
kKernel/kCustomKernel are kernel launches; kGemm, kCublasLtMatmul,
kConvolution, kFft, kCubSort and the other library thunks library calls;
kCopy, kMemset32BitValue, kMemzero copies; kWhile, kConditional,
kCommandBuffer control flow. A kDynamicSliceFusion (or kSequential) thunk
is a wrapper: the thunks it holds are counted, not it (the first of them
printed on the wrapper's line). Dynamic counts
(launches per run): a while with a known trip count (`known_trip_count` in
the backend config of its HLO instruction; the k-th kWhile of the sequence,
in order, is the k-th while of the scheduled module visited the same way)
runs its body that many times and its condition never (XLA's WhileThunk);
a while without one gives no dynamic count (`?`); a conditional gives a
range from its cheapest to its dearest branch.

The oracle's outputs are cached in build/xla-thunks/<module>/ (rerun when
the module is newer). Totals are kernels + library calls + copies +
control-flow thunks (static) and kernels + library calls + copies
(dynamic). Then the modules where ours launches more than XLA (statically
or per run), with what tells why: the kernels only one side has (names
without their numeric suffixes), loop conditions ours runs every iteration
where XLA knows the trip count, copies. Last, the modules our compiler
rejects, with the first line of its error.

Usage: thunks_vs_xla.py [--bin build/bin] [MODULE.hlo ...] [--markdown]
                        [--no-run] [--cache DIR]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_util import (defined_constants, device_counts,  # noqa: E402
                        oracle_python, table, xla_compile_devices)
from kernels_vs_xla import DEFAULT_MODULES as KERNEL_MODULES  # noqa: E402
from kernels_vs_xla import JAX_MODULES  # noqa: E402
from pipeline_vs_xla import ORACLE  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
# kernels_vs_xla.py's modules, then every other JAX model of
# test/Runtime/xla/modules (not XLA CPU's optimized copies).
DEFAULT_MODULES = KERNEL_MODULES + [
    p for p in sorted(JAX_MODULES.glob("*.hlo"))
    if ".cpu_opt" not in p.name and p not in KERNEL_MODULES]
CATEGORIES = ["kernels", "library", "copies", "control"]

#===----------------------------------------------------------------------===#
# Modules and the oracle's cache
#===----------------------------------------------------------------------===#


def module_names(paths):
    """A name per module: its stem, with its folder where stems collide."""
    stems = Counter(p.stem for p in paths)
    return [p.stem if stems[p.stem] == 1 else f"{p.parent.name}/{p.stem}"
            for p in paths]


def oracle(path, name, cache):
    """The oracle's folder for `path` (compiled once, cached)."""
    out = cache / name.replace("/", "_")
    seq = out / "thunk_sequence.txt"
    failed = out / "oracle_error.txt"
    mtime = path.stat().st_mtime
    if seq.exists() and seq.stat().st_mtime >= mtime:
        return out
    if failed.exists() and failed.stat().st_mtime >= mtime:
        raise RuntimeError(failed.read_text())
    shutil.rmtree(out, ignore_errors=True)
    print(f"... XLA {name}", file=sys.stderr, flush=True)
    # XLA's phase timers are INFO logs, which compare_xla's
    # TF_CPP_MIN_LOG_LEVEL would hide from the oracle.
    env = {k: v for k, v in os.environ.items()
           if k != "TF_CPP_MIN_LOG_LEVEL"}
    devices, partitions = device_counts(path.read_text())
    if devices > 1:
        # The oracle tool compiles for one device: XLA on the module's own.
        p = xla_compile_devices(path, out / "dump", devices, partitions,
                                options=["xla_gpu_enable_triton_gemm=false"])
        for suffix, name in [("thunk_sequence.txt", "thunk_sequence.txt"),
                             ("gpu_after_optimizations.txt",
                              "optimized_hlo.txt")]:
            found = sorted((out / "dump").glob(f"*{suffix}"))
            if found:
                shutil.copy(found[0], out / name)
    else:
        p = subprocess.run([oracle_python(), str(ORACLE), str(path), "-o",
                            str(out),
                            "--opt", "xla_gpu_enable_triton_gemm=false",
                            "--quiet"], capture_output=True, text=True,
                           timeout=900, env=env)
    if p.returncode or not seq.exists():
        message = first_line((p.stderr or p.stdout).strip().splitlines()[-1:])
        out.mkdir(parents=True, exist_ok=True)
        failed.write_text(message)
        raise RuntimeError(message)
    return out


def first_line(lines):
    """The first line of an error, a long `loc(...)` cut short."""
    line = lines[0] if lines else "no output"
    m = re.match(r"^(?:<unknown>:0: )?error: loc\((.*)\): (.*)$", line)
    if m:
        name = re.match(r'^"([^"]*)"', m.group(1))
        line = f"{name.group(1) if name else m.group(1)[:40]}: {m.group(2)}"
    # Paths as the source tree and the corpus name them, wherever they are.
    line = line.replace(f"{ROOT}/", "").replace(f"{ROOT.parent}/", "../")
    return line[:200]

#===----------------------------------------------------------------------===#
# XLA's thunk sequence
#===----------------------------------------------------------------------===#


THUNK_LINE = re.compile(r"^( *)\d+: (k\w+)\s+\[[^\]]*\]\s*(\S*)")
# XLA prints a wrapper's first thunk on the wrapper's own line, after the
# wrapper's links.
INLINE_THUNK = re.compile(r"\s+\[[^\]]*\]\s+\d+: (k\w+)\s+\[[^\]]*\]\s*(\S*)")
LABEL_LINE = re.compile(r"^( *)(\w+):\s*$")
WRAPPERS = {"kDynamicSliceFusion", "kSequential"}
CONTROL = {"kWhile", "kConditional", "kCommandBuffer"}
COPIES = {"kCopy", "kMemset32BitValue", "kMemzero", "kDeviceToDeviceCopy",
          "kDeviceToHostCopy", "kHostToDeviceCopy"}


class Thunk:
    def __init__(self, kind, name, indent):
        self.kind, self.name, self.indent = kind, name, indent
        self.regions = {}  # label -> [Thunk]
        self.label = ""
        self.trip_count = None


def parse_sequence(text):
    """The top-level thunks of a thunk_sequence.txt, nested as it shows."""
    top, stack = [], []
    for line in text.splitlines():
        m = LABEL_LINE.match(line)
        if m:
            while stack and stack[-1].indent > len(m.group(1)):
                stack.pop()
            if stack:
                stack[-1].label = m.group(2)
                stack[-1].regions.setdefault(m.group(2), [])
            continue
        m = THUNK_LINE.match(line)
        if not m:
            continue
        thunk = Thunk(m.group(2), m.group(3), len(m.group(1)))
        while stack and stack[-1].indent >= thunk.indent:
            stack.pop()
        if stack:
            parent = stack[-1]
            parent.regions.setdefault(parent.label, []).append(thunk)
        else:
            top.append(thunk)
        stack.append(thunk)
        if first := INLINE_THUNK.match(line, m.end(2)):
            thunk.regions.setdefault("", []).append(
                Thunk(first.group(1), first.group(2), thunk.indent + 2))
    return top


def category(kind):
    if kind.endswith("Kernel"):
        return "kernels"
    if kind in COPIES:
        return "copies"
    if kind in CONTROL:
        return "control"
    return "library"


def walk(thunks):
    for t in thunks:
        yield t
        for region in t.regions.values():
            yield from walk(region)


def xla_trip_counts(optimized_hlo):
    """known_trip_count (or None) of each while, in the order the thunk
    emitter visits them: the schedule, a while's condition then body."""
    computations, current = {}, None
    for line in optimized_hlo.splitlines():
        m = re.match(r"^(ENTRY )?%?([\w.\-]+) [(].*[{]\s*$", line)
        if m:
            current = m.group(2)
            computations[current] = []
            if m.group(1):
                computations["__entry__"] = computations[current]
            continue
        if current is None:
            continue
        m = re.match(r"\s*(?:ROOT )?%?[\w.\-]+ = .*? (while|conditional|call)"
                     r"\(", line)
        if m:
            computations[current].append((m.group(1), line))
    order = []

    def visit(name, seen):
        if name not in computations or name in seen:
            return
        for opcode, line in computations[name]:
            if opcode == "while":
                n = re.search(r'"known_trip_count":\{"n":"(\d+)"', line)
                order.append(int(n.group(1)) if n else None)
                for key in ("condition", "body"):
                    c = re.search(key + r"=%?([\w.\-]+)", line)
                    if c:
                        visit(c.group(1), seen | {name})
            elif opcode == "conditional":
                b = re.search(r"branch_computations=\{([^}]*)\}", line)
                names = (b.group(1).split(",") if b else re.findall(
                    r"(?:true|false)_computation=%?([\w.\-]+)", line))
                for c in names:
                    visit(c.strip().lstrip("%"), seen | {name})
            else:
                c = re.search(r"to_apply=%?([\w.\-]+)", line)
                if c:
                    visit(c.group(1), seen | {name})

    visit("__entry__", set())
    return order


def static_counts(thunks):
    counts = Counter()
    for t in walk(thunks):
        if t.kind not in WRAPPERS:
            counts[category(t.kind)] += 1
    return counts


def dynamic_counts(thunks, iterations=None):
    """(low, high) launches per category per run, or None (a while without
    a known trip count). `iterations`: the iterations of a while without
    one (its condition runs once more, as XLA's WhileThunk does)."""
    low, high = Counter(), Counter()
    for t in thunks:
        if t.kind == "kWhile":
            n, cond = t.trip_count, (Counter(), Counter())
            if n is None:
                if iterations is None:
                    return None
                n = iterations
                cond = dynamic_counts(t.regions.get("condition", []))
            body = dynamic_counts(t.regions.get("body", []))
            if body is None or cond is None:
                return None
            extra = 1 if t.trip_count is None else 0
            for c in CATEGORIES:
                low[c] += n * body[0][c] + (n + extra) * cond[0][c]
                high[c] += n * body[1][c] + (n + extra) * cond[1][c]
        elif t.regions and t.kind not in WRAPPERS:  # conditional
            branches = [dynamic_counts(r) for r in t.regions.values()]
            if any(b is None for b in branches):
                return None
            for c in CATEGORIES:
                low[c] += min(b[0][c] for b in branches)
                high[c] += max(b[1][c] for b in branches)
        elif t.kind in WRAPPERS:
            inner = dynamic_counts([x for r in t.regions.values() for x in r])
            if inner is None:
                return None
            low.update(inner[0])
            high.update(inner[1])
        elif category(t.kind) != "control":
            low[category(t.kind)] += 1
            high[category(t.kind)] += 1
    return low, high


def xla(path, name, cache):
    """XLA's thunks: static counts, dynamic (low, high) or None, kernel
    names, loops [(trip count or None, condition kernels)]."""
    out = oracle(path, name, cache)
    thunks = parse_sequence((out / "thunk_sequence.txt").read_text())
    loops = [t for t in walk(thunks) if t.kind == "kWhile"]
    trips = xla_trip_counts((out / "optimized_hlo.txt").read_text())
    if len(trips) == len(loops):
        for t, n in zip(loops, trips):
            t.trip_count = n
    kernels = Counter(base_name(t.name) for t in walk(thunks)
                      if category(t.kind) == "kernels")
    gemms = [line for line in (out / "optimized_hlo.txt").read_text()
             .splitlines() if "__cublas$" in line]
    return {"static": static_counts(thunks), "dynamic": dynamic_counts(thunks),
            "thunks": thunks, "kernel_names": kernels,
            "loops": [t.trip_count for t in loops],
            "gemm_folds": gemm_folds(gemms, XLA_BETA, XLA_EPILOGUE)}

#===----------------------------------------------------------------------===#
# Our thunk program
#===----------------------------------------------------------------------===#


OUR_OP = re.compile(r"^\s*(?:%\S+ = )?thunk\.(\w+)")
OUR_KERNEL = re.compile(r"thunk\.kernel @\w+::@([\w.$\-]+)")
OUR_BETA = re.compile(r"\bbeta = (?!0\.0+e\+00)")
OUR_EPILOGUE = re.compile(r"#thunk<epilogue (\w+)>")
XLA_BETA = re.compile(r'"beta":(?!0[,}])')
XLA_EPILOGUE = re.compile(r'"epilogue":"(?!DEFAULT)(\w+)"')
# Our thunks by XLA's categories: the kernels XLA emits for the dynamic
# shape calls and the RNG state are kernels here too; every other call of a
# library (cuBLAS, cuDNN, cuFFT, cuSOLVER, cuSPARSE, NCCL, transfers) is a
# library call, as `category` counts XLA's.
OURS = {"kernel": "kernels", "pad_to_static": "kernels",
        "slice_to_dynamic": "kernels", "rng_get_and_update_state": "kernels",
        "top_k": "kernels",
        "copy": "copies", "dynamic_copy": "copies", "memset": "copies",
        "while": "control", "conditional": "control"}
OURS.update(dict.fromkeys(
    ["gemm", "convolution", "fft", "triangular_solve", "cholesky", "qr",
     "householder_product", "lu", "lu_pivots_to_permutation", "eigh", "eig",
     "svd", "schur", "hessenberg", "tridiagonal", "tridiagonal_solve",
     "all_reduce", "all_gather", "reduce_scatter", "all_to_all",
     "ragged_all_to_all", "collective_permute", "collective_broadcast",
     "collective_done", "device_id", "send", "recv", "infeed", "outfeed"],
    "library"))
NOTE = re.compile(r"note: .*?: (\d+) kernel launches, (\d+) GEMMs, (\d+) "
                  r"copies, (\d+) loop iterations on a \d+-byte arena; "
                  r"(\d+) memsets, \d+ conditionals(?:, (\d+) convolutions)?"
                  r"(?:, (\d+) FFTs)?")
LEFT_OUT = re.compile(r"(\d+) filter transposes left out")


def base_name(name):
    """A kernel's name without the suffix that makes it unique."""
    return re.sub(r"([._]\d+)+$", "", name)


def compile_ours(opt, path, out, timeout=600):
    p = subprocess.run([opt, str(path), "--hlo-gpu-pipeline", "-o", str(out)],
                       capture_output=True, text=True, timeout=timeout)
    if p.returncode:
        raise RuntimeError(first_line(p.stderr.strip().splitlines()))


def gemm_folds(lines, beta, epilogue):
    """What the GEMMs of `lines` fold in: {"beta": GEMMs accumulating into
    their output, epilogue name: GEMMs with it}."""
    folds = Counter()
    for line in lines:
        if beta.search(line):
            folds["beta"] += 1
        folds.update(e.lower() for e in epilogue.findall(line))
    return folds


def parse_program(text):
    """Static counts, kernel names, and per while without a known trip count
    its condition's kernels (those with one run no condition, as XLA's)."""
    counts, names = Counter(), Counter()
    in_program = False
    # Open regions: [op name, region index, kernels in it, trip count known].
    stack = []
    condition_kernels = []
    for line in text.splitlines():
        if re.match(r"^\s*thunk\.program\b", line):
            in_program = True
            continue
        if not in_program:
            continue
        stripped = line.strip()
        if stripped.startswith("}"):
            if not stack:
                break  # the program's end
            op, index, kernels, known = stack.pop()
            if op == "while" and index == 0 and not known:
                condition_kernels.append(kernels)
            if stripped.endswith("{"):  # `} body {` or `}, {`
                stack.append([op, index + 1, 0, known])
            continue
        m = OUR_OP.match(line)
        if not m:
            continue
        op = m.group(1)
        if op in OURS:
            counts[OURS[op]] += 1
        if op == "kernel":
            names[base_name(OUR_KERNEL.search(line).group(1))] += 1
            for region in stack:
                region[2] += 1
        if stripped.endswith("{"):
            stack.append([op, 0, 0, "trip_count" in line])
    return counts, names, condition_kernels


def run_ours(run, path, timeout=600):
    """Launches per run on the host runtime, by category, and iterations."""
    p = subprocess.run([run, str(path), "--random-inputs", "--device=host"],
                       capture_output=True, text=True, timeout=timeout)
    m = NOTE.search(p.stderr)
    if p.returncode or not m:
        raise RuntimeError(first_line(p.stderr.strip().splitlines()))
    kernels, gemms, copies, iterations, memsets, convolutions, ffts = (
        int(g or 0) for g in m.groups())
    # The program's launches: the host runtime leaves out the transposes
    # that only lay out a convolution's filter, a GPU launches them.
    if left := LEFT_OUT.search(p.stderr):
        kernels += int(left.group(1))
    return Counter(kernels=kernels, library=gemms + convolutions + ffts,
                   copies=copies + memsets), iterations


def ours(bin_dir, path, tmp):
    out = tmp / "program.mlir"
    compile_ours(bin_dir / "hlo-opt", path, out)
    text = out.read_text()
    static, names, conditions = parse_program(text)
    gemms = [line for line in text.splitlines() if "thunk.gemm " in line]
    return {"static": static, "kernel_names": names,
            "condition_kernels": conditions,
            "gemm_folds": gemm_folds(gemms, OUR_BETA, OUR_EPILOGUE)}

#===----------------------------------------------------------------------===#
# Tables
#===----------------------------------------------------------------------===#


def ratio(a, b):
    return f"{a / b:.2f}" if b else ("1.00" if a == b else "-")


def total(counts, categories):
    return sum(counts[c] for c in categories)


def range_text(low, high):
    return str(low) if low == high else f"{low}-{high}"


def causes(o, x, run):
    """What tells why ours launches more than XLA's."""
    out = []
    mine, theirs = o["kernel_names"], x["kernel_names"]
    only_ours = mine - theirs
    only_xla = theirs - mine
    if only_ours:
        out.append("kernels only ours has: " + ", ".join(
            f"{k}" + (f" x{n}" if n > 1 else "")
            for k, n in sorted(only_ours.items())))
    if only_xla:
        out.append("only XLA's: " + ", ".join(
            f"{k}" + (f" x{n}" if n > 1 else "")
            for k, n in sorted(only_xla.items())))
    extra = o["static"]["kernels"] - x["static"]["kernels"]
    fewer_copies = x["static"]["copies"] - o["static"]["copies"]
    if extra > 0 and fewer_copies > 0:
        out.append(f"XLA makes {min(extra, fewer_copies)} of them copies "
                   f"(kCopy: its copy fusions, contiguous and dynamic slices), ours "
                   f"kernels")
    folds = x["gemm_folds"] - o["gemm_folds"]
    if folds:
        out.append("XLA's GEMMs fold in more: " + ", ".join(
            f"{'accumulation into the output (beta != 0, an add)' if k == 'beta' else k + ' epilogue'}"
            f" x{n}" for k, n in sorted(folds.items())) +
            f" (ours: {dict(o['gemm_folds']) or 'none'})")
    conditions = sum(o["condition_kernels"])
    if conditions and x["loops"] and all(n is not None for n in x["loops"]):
        iterations = run[1] if run and run[0] != "error" else None
        per_loop = set(o["condition_kernels"])
        extra = ""
        if iterations is not None and len(per_loop) == 1:
            loops = len(o["condition_kernels"])
            extra = (f": {per_loop.pop() * (iterations + loops)} launches "
                     f"per run ({iterations} iterations + {loops} exits)")
        out.append(f"loop conditions: ours runs its {conditions} condition "
                   f"kernel(s) every iteration; XLA knows the trip counts "
                   f"({', '.join(map(str, x['loops']))}) and runs none"
                   + extra)
    if o["static"]["copies"] > x["static"]["copies"]:
        out.append(f"copies: {o['static']['copies']} thunks, XLA "
                   f"{x['static']['copies']}")
    if o["static"]["control"] > x["static"]["control"]:
        out.append(f"control flow: {o['static']['control']} thunks, XLA "
                   f"{x['static']['control']}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", type=Path, default=ROOT / "build" / "bin",
                    help="folder of hlo-opt and hlo-run")
    ap.add_argument("modules", nargs="*", type=Path, default=DEFAULT_MODULES)
    ap.add_argument("--cache", type=Path,
                    default=ROOT / "build" / "xla-thunks",
                    help="where the oracle's outputs are kept")
    ap.add_argument("--no-run", action="store_true",
                    help="static counts only (no host runs)")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    paths = [p for p in a.modules if p.exists()]
    for p in a.modules:
        if not p.exists():
            print(f"warning: {p} not found", file=sys.stderr)
    static_rows, dynamic_rows, more, failures, xla_failures = [], [], [], [], []
    sums = {"ours": Counter(), "xla": Counter()}
    with tempfile.TemporaryDirectory(prefix="thunks-") as tmp:
        paths = [defined_constants(p, tmp) for p in paths]
        for path, name in zip(paths, module_names(paths)):
            print(f"... {name}", file=sys.stderr, flush=True)
            try:
                x = xla(path, name, a.cache)
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                xla_failures.append((name, str(e)))
                continue
            try:
                o = ours(a.bin, path, Path(tmp))
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                failures.append((name, str(e)))
                continue
            run = None
            if not a.no_run:
                try:
                    run = run_ours(a.bin / "hlo-run", path)
                except (RuntimeError, subprocess.TimeoutExpired) as e:
                    run = ("error", str(e))
            os_, xs = o["static"], x["static"]
            sums["ours"].update(os_)
            sums["xla"].update(xs)
            row = [name]
            for c in CATEGORIES:
                row += [os_[c], xs[c]]
            row += [total(os_, CATEGORIES), total(xs, CATEGORIES),
                    ratio(total(os_, CATEGORIES), total(xs, CATEGORIES))]
            static_rows.append(row)
            launched = CATEGORIES[:3]
            dyn = x["dynamic"]
            has_control = os_["control"] or xs["control"]
            if run and run[0] != "error" and has_control:
                counts, iterations = run
                trips = "-" if not x["loops"] else ",".join(
                    "?" if n is None else str(n) for n in x["loops"])
                if (dyn is None and len(x["loops"]) == 1 and
                        len(o["condition_kernels"]) == 1):
                    # One loop on each side, its trip count unknown to
                    # XLA: as many iterations as ours ran.
                    dyn = dynamic_counts(x["thunks"], iterations)
                    trips = f"? ({iterations}*)"
                drow = [name, iterations, trips]
                for c in launched:
                    drow += [counts[c], "?" if dyn is None else
                             range_text(dyn[0][c], dyn[1][c])]
                t_ours = total(counts, launched)
                if dyn is None:
                    drow += [t_ours, "?", "-"]
                else:
                    lo, hi = total(dyn[0], launched), total(dyn[1], launched)
                    drow += [t_ours, range_text(lo, hi),
                             ratio(t_ours, hi) if lo == hi else
                             f"{t_ours / hi:.2f}-{t_ours / lo:.2f}"
                             if lo else "-"]
                dynamic_rows.append(drow)
            elif run and run[0] == "error":
                dynamic_rows.append([name, f"host run failed: {run[1]}"] +
                                    [""] * 9)
            more_static = os_["kernels"] > xs["kernels"]
            more_dynamic = (run and run[0] != "error" and dyn is not None and
                            run[0]["kernels"] > dyn[1]["kernels"])
            if more_static or more_dynamic:
                dyn_text = ""
                if more_dynamic:
                    dyn_text = (f"; per run {run[0]['kernels']} vs "
                                f"{range_text(dyn[0]['kernels'], dyn[1]['kernels'])}")
                more.append((name, f"{os_['kernels']} vs {xs['kernels']} "
                             f"kernels{dyn_text}", causes(o, x, run)))
    head = ["module"]
    for c in CATEGORIES:
        head += [f"{c} ours", "XLA"]
    head += ["total ours", "XLA", "ours/XLA"]
    sum_row = ["**all**" if a.markdown else "ALL"]
    for c in CATEGORIES:
        sum_row += [sums["ours"][c], sums["xla"][c]]
    sum_row += [total(sums["ours"], CATEGORIES), total(sums["xla"], CATEGORIES),
                ratio(total(sums["ours"], CATEGORIES),
                      total(sums["xla"], CATEGORIES))]
    print("Static thunks (in the program; a loop body once):\n")
    print(table(head, static_rows + [sum_row], a.markdown))
    if dynamic_rows:
        print("\nLaunches per run, modules with control flow (elsewhere "
              "they are the static counts; ours: counted by the host "
              "runtime on random inputs; XLA: from known trip counts, a "
              "range over "
              "conditional branches; `? (N*)`: one loop without a known "
              "trip count, taken to run as many iterations as ours did, its "
              "condition once more):\n")
        dhead = ["module", "iterations ours", "trip counts XLA"]
        for c in CATEGORIES[:3]:
            dhead += [f"{c} ours", "XLA"]
        dhead += ["total ours", "XLA", "ours/XLA"]
        print(table(dhead, dynamic_rows, a.markdown))
    compiled = len(static_rows)
    print(f"\nModules: {len(paths)}; XLA compiled {len(paths) - len(xla_failures)}"
          f", ours {compiled} of them; ours launches no more kernels than "
          f"XLA (static and per run) in {compiled - len(more)} of {compiled}.")
    if more:
        print("\nMore kernel launches than XLA:\n")
        for name, what, why in more:
            print(f"- {name}: {what}" + "".join(f"\n  - {w}" for w in why))
    if failures:
        print(f"\nOur compiler rejects {len(failures)} of "
              f"{len(paths) - len(xla_failures)}:\n")
        for name, error in failures:
            print(f"- {name}: {error}")
    if xla_failures:
        print(f"\nXLA rejects {len(xla_failures)}:\n")
        for name, error in xla_failures:
            print(f"- {name}: {error}")


if __name__ == "__main__":
    main()
