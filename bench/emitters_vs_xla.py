#!/usr/bin/env python3
"""Our kernels next to XLA's, one emitter at a time.

Each module of bench/emitters/ is a plain (unfused) HLO module whose one
fusion goes to one emitter kind in both compilers. The same module is fed to
both:

- ours: `hlo-opt M --hlo-gpu-optimize --hlo-to-ptx --output-format=ptx`
  (and `--hlo-to-gpu` for the launch dimensions); where our fusion passes
  leave the module without a kernel (they do not fuse it as XLA does), ours
  compiles XLA's own fused module instead (`optimized_hlo.txt`, through
  `--hlo-buffer-assignment --hlo-to-gpu`, no `--hlo-gpu-optimize`): the
  column "input" says which;
- XLA: its GPU compiler for an H100 through the xla-oracle (Triton GEMMs
  off): `ptx/` and the launch dimensions of `thunk_sequence.txt`. Cached in
  build/xla-emitters/<module>/ (rerun when the module is newer).

Kernels are paired by name, or in order, when both sides have as many;
else all of one side's kernels face all of the other's in one row (XLA's
three loop kernels where ours fuses horizontally). Per pair:

- launch: grid x block (x only: both emitters launch 1-D; several
  kernels: their grids joined by `+`);
- elems/thread: the case's work elements (the output's for loop-like
  kernels, the input's for reductions, the update's for DUS and scatter)
  over the threads launched;
- instrs: PTX instructions in each entry's body (static count: lines that
  end in `;`, no directives or labels);
- instrs/elem: the instructions all threads run over the work elements. A
  thread runs its body once where it has no loop (then this is instrs over
  elems/thread). With a loop (a branch back to an earlier label) it is an
  estimate, marked `~`: the code outside the loop once, the loop body once
  per iteration, an iteration covering the elements its global loads read
  (the loop with the most loaded lanes); `>=` where the loop loads nothing
  (a compare-and-swap retry loop, counted once);
- ld / st: the widest global load and store in bits, `nc` when that load
  is `ld.global.nc` (read-only path); atomics count as stores (`atom`);
- regs / spill: `ptxas -v` for the target the PTX names (ours sm_90, XLA's
  sm_90a): registers and spill bytes (stores + loads).

Usage: emitters_vs_xla.py --opt build/bin/hlo-opt [--markdown] [CASE ...]
"""

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_util import oracle_python, table  # noqa: E402
from pipeline_vs_xla import ORACLE  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MODULES = ROOT / "bench" / "emitters"
CACHE = ROOT / "build" / "xla-emitters"
PTXAS = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"

# case: (emitter kind, work elements)
CASES = {
    "loop_elementwise": ("loop", 1024 * 4096),
    "loop_broadcast": ("loop", 1024 * 4096),
    "row_reduce": ("reduction (row)", 1024 * 4096),
    "row_reduce_short": ("reduction (row, 8)", 4096 * 8),
    "column_reduce": ("reduction (column)", 4096 * 1024),
    "argmax": ("reduction (variadic)", 1024 * 4096),
    "transpose_f32_2d": ("transpose", 1024 * 2048),
    "transpose_f32_021": ("transpose", 64 * 128 * 96),
    "transpose_f32_210": ("transpose", 64 * 128 * 96),
    "transpose_f16_2d": ("transpose", 1024 * 2048),
    "transpose_f16_021": ("transpose", 64 * 128 * 96),
    "transpose_f16_210": ("transpose", 64 * 128 * 96),
    "concatenate": ("concatenate", 1024 * 4096),
    "input_slices": ("input slices", 1000 + 2000 + 3000),
    "dynamic_update_slice": ("in-place DUS", 256 * 1024),
    "scatter": ("scatter", 4000 * 64),
    "topk": ("top-k", 8 * 32768),
}

ENTRY = re.compile(r"^\.(?:visible|weak)?\s*\.entry\s+(\w+)\(", re.M)
LABEL = re.compile(r"^(\$\w+):")
BRANCH = re.compile(r"\bbra(?:\.uni)?\s+(\$\w+);")
ACCESS = re.compile(r"^(?:@!?%\w+\s+)?(ld|st|atom|red)((?:\.\w+)*)")
FUNC = re.compile(r"gpu\.func @(\w+)\(.*known_block_size = array<i32: (\d+), "
                  r"(\d+), (\d+)>, known_grid_size = array<i32: (\d+), (\d+), "
                  r"(\d+)>")
THUNK = re.compile(r"(\w+) grid: \[(\d+), (\d+), (\d+)\] threads: \[(\d+), "
                   r"(\d+), (\d+)\]")


def entries(text):
    """{name: body lines} of a PTX module's kernel entries."""
    out = {}
    starts = list(ENTRY.finditer(text))
    for m in starts:
        open_ = text.index("\n{", m.end())
        close = text.find("\n}", open_)
        out[m.group(1)] = [l.strip() for l in
                           text[open_ + 2:close].splitlines()]
    return out


def access_bits(suffix):
    """Bits moved by one global access with these suffixes (.nc.v4.f32)."""
    parts = [p for p in suffix.split(".")[1:] if p not in
             ("global", "relaxed", "sys", "gpu", "cta", "acquire",
              "release", "acq_rel")]
    lanes = next((int(p[1:]) for p in parts if re.fullmatch(r"v\d", p)), 1)
    width = next((int(p[1:]) for p in reversed(parts)
                  if re.fullmatch(r"[bfsu]\d+", p)), 0)
    return lanes * width, "nc" in parts, lanes


def body_stats(lines):
    """Instructions, loops and the widest global accesses of a kernel."""
    instrs = []  # (line, is global load, lanes loaded)
    labels = {}
    loops = []
    for line in lines:
        if not line or line.startswith(("//", ".", "{", "}")):
            continue
        m = LABEL.match(line)
        if m:
            labels[m.group(1)] = len(instrs)
            continue
        if not line.endswith(";"):
            continue
        b = BRANCH.search(line)
        if b and b.group(1) in labels:
            loops.append((labels[b.group(1)], len(instrs) + 1))
        instrs.append(line)
    widest = {"ld": (0, False), "st": (0, False)}
    loaded = []
    for line in instrs:
        m = ACCESS.match(line)
        if not m or ".global" not in m.group(2):
            loaded.append(0)
            continue
        bits, nc, lanes = access_bits(m.group(2))
        kind = "ld" if m.group(1) == "ld" else "st"
        if (bits, nc) > widest[kind]:
            widest[kind] = (bits, nc)
        loaded.append(lanes if kind == "ld" else 0)
    return instrs, loops, loaded, widest


def per_thread(instrs, loops, loaded, elems_per_thread):
    """Instructions one thread runs (estimated) and whether it is estimated:
    the body once without loops; with loops, the code outside the loop once
    and the loop body once per iteration, an iteration covering the elements
    its global loads read (the loop with the most loaded lanes; a loop that
    loads nothing, a compare-and-swap retry loop, counts once)."""
    if not loops:
        return len(instrs), ""
    begin, end = max(loops, key=lambda l: sum(loaded[l[0]:l[1]]))
    per_iter = sum(loaded[begin:end])
    if not per_iter:
        return len(instrs), ">="
    body = end - begin
    trips = max(elems_per_thread / per_iter, 1)
    return len(instrs) - body + body * trips, "~"


def ptxas(path):
    """{kernel: (registers, spill bytes)} from `ptxas -v`."""
    text = Path(path).read_text()
    target = re.search(r"^\.target\s+(\w+)", text, re.M)
    arch = target.group(1) if target else "sm_90"
    p = subprocess.run([PTXAS, f"-arch={arch}", "-v", str(path), "-o",
                        "/dev/null"], capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(f"ptxas rejects {path}: {p.stderr[-300:]}")
    out, name = {}, None
    for line in p.stderr.splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m:
            name = m.group(1)
            out[name] = [0, 0]
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads",
                      line)
        if m and name:
            out[name][1] = int(m.group(1)) + int(m.group(2))
        m = re.search(r"Used (\d+) registers", line)
        if m and name:
            out[name][0] = int(m.group(1))
    return out


def kernels(ptx_paths, launches):
    """[(name, launch (grid, block), stats...)] of PTX files."""
    out = []
    for path in ptx_paths:
        text = Path(path).read_text()
        regs = ptxas(path)
        for name, lines in entries(text).items():
            out.append((name, launches.get(name), body_stats(lines),
                        regs.get(name, (0, 0))))
    return out


def xla(case, module):
    out = CACHE / case
    seq = out / "thunk_sequence.txt"
    if not seq.exists() or seq.stat().st_mtime < module.stat().st_mtime:
        shutil.rmtree(out, ignore_errors=True)
        print(f"... XLA {case}", file=sys.stderr)
        p = subprocess.run([oracle_python(), str(ORACLE), str(module), "-o",
                            str(out),
                            "--opt", "xla_gpu_enable_triton_gemm=false"],
                           capture_output=True, text=True, timeout=900)
        if p.returncode or not seq.exists():
            raise RuntimeError((p.stderr or p.stdout)[-300:])
    launches = {}
    for m in THUNK.finditer(seq.read_text()):
        g = [int(x) for x in m.group(2, 3, 4)]
        b = [int(x) for x in m.group(5, 6, 7)]
        launches[m.group(1)] = (g, b)
    return kernels(sorted((out / "ptx").glob("*.ptx")), launches), out


def ours(opt, module, passes, tmp):
    """Our kernels for `module` with `passes` before the kernel pipeline."""
    p = subprocess.run([opt, str(module), *passes, "--hlo-to-gpu"],
                       capture_output=True, text=True)
    if p.returncode:
        return []
    launches = {}
    for m in FUNC.finditer(p.stdout):
        b = [int(x) for x in m.group(2, 3, 4)]
        g = [int(x) for x in m.group(5, 6, 7)]
        launches[m.group(1)] = (g, b)
    if not launches:
        return []
    ptx = tmp / "ours.ptx"
    p = subprocess.run([opt, str(module), *passes, "--hlo-to-ptx",
                        "--output-format=ptx", "-o", str(ptx)],
                       capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(p.stderr[-300:])
    return kernels([ptx], launches)


def pair(a, b):
    """Pairs of kernel lists: by name or in order when both sides have as
    many kernels, else all of one side against all of the other."""
    if len(a) != len(b):
        return [(a, b)]
    names = {k[0]: k for k in b}
    if all(k[0] in names for k in a):
        return [([k], [names[k[0]]]) for k in a]
    return [([x], [y]) for x, y in zip(a, b)]


def threads_of(launch):
    n = 1
    for d in launch[0] + launch[1]:
        n *= d
    return n


def cells(ks, elements):
    """Table cells of one or several kernels doing `elements` of work."""
    if not ks:
        return ["-"] * 7
    if any(k[1] is None for k in ks):
        return ["?"] * 7
    threads = sum(threads_of(k[1]) for k in ks)
    ept = elements / threads
    launch = "+".join(str(k[1][0][0]) for k in ks) + f"x{ks[0][1][1][0]}"
    total, marks = 0, set()
    for _, launch_k, (instrs, loops, loaded, _), _ in ks:
        n, mark = per_thread(instrs, loops, loaded, ept)
        total += n * threads_of(launch_k)
        marks.add(mark)
    mark = max(marks, key=len)
    widest = {"ld": (0, False), "st": (0, False)}
    for k in ks:
        for d in widest:
            widest[d] = max(widest[d], k[2][3][d])
    ld = f"{widest['ld'][0]}{' nc' if widest['ld'][1] else ''}"
    return [launch, f"{ept:.3g}", "+".join(str(len(k[2][0])) for k in ks),
            f"{mark}{total / elements:.1f}", ld, str(widest["st"][0]),
            f"{max(k[3][0] for k in ks)}/{sum(k[3][1] for k in ks)}"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opt", required=True, help="path to hlo-opt")
    ap.add_argument("cases", nargs="*", default=list(CASES))
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    rows = []
    for case in a.cases:
        kind, elements = CASES[case]
        module = MODULES / f"{case}.hlo"
        print(f"... {case}", file=sys.stderr)
        try:
            theirs, out = xla(case, module)
            with tempfile.TemporaryDirectory() as tmp:
                source = "plain"
                mine = ours(a.opt, module, ["--hlo-gpu-optimize"], Path(tmp))
                if not mine:
                    source = "XLA's fusion"
                    mine = ours(a.opt, out / "optimized_hlo.txt",
                                ["--hlo-buffer-assignment"],
                                Path(tmp))
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            rows.append([case, kind, f"error: {str(e)[:100]}"] + [""] * 7)
            continue
        for o, x in pair(mine, theirs):
            o_cells, x_cells = cells(o, elements), cells(x, elements)
            rows.append([case, kind, source] + [
                f"{p} / {q}" for p, q in zip(o_cells, x_cells)])
    print(table(["case", "emitter", "input", "launch", "elems/thread",
                 "instrs", "instrs/elem", "widest ld", "widest st",
                 "regs/spill B"], rows, a.markdown))


if __name__ == "__main__":
    main()
