#!/usr/bin/env python3
"""Our kernels' PTX next to XLA's, through NVIDIA's assembler.

Ours: `hlo-opt MODULE --hlo-gpu-optimize --hlo-to-ptx=allow-unsupported
--output-format=ptx` (the fusions an emitter takes; today the loop
emitter's). XLA: the PTX its GPU compiler writes for an H100 (xla-oracle,
Triton GEMMs off), all of its kernels. Both through `ptxas -v` for the target each names (XLA's: sm_90a):
per module the kernels, the largest register count, the spilled bytes, and
the widest global load and store (bits) seen in any kernel.

Usage: ptx_vs_xla.py --opt build/bin/hlo-opt [MODULE.hlo ...] [--markdown]
"""

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_util import defined_constants, table  # noqa: E402
from kernels_vs_xla import DEFAULT_MODULES  # noqa: E402
from pipeline_vs_xla import ORACLE  # noqa: E402

PTXAS = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
ENTRY = re.compile(r"Compiling entry function '([^']+)'")
REGS = re.compile(r"Used (\d+) registers")
SPILL = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")
WIDTH = re.compile(r"\b(ld|st)\.global(?:\.\w+)*?\.(v[248])?\.?[bfsu](\d+)")


def ptx_stats(paths):
    kernels, regs, spills, widest = 0, 0, 0, {"ld": 0, "st": 0}
    for path in paths:
        text = Path(path).read_text()
        for m in WIDTH.finditer(text):
            lanes = int(m.group(2)[1:]) if m.group(2) else 1
            widest[m.group(1)] = max(widest[m.group(1)], lanes * int(m.group(3)))
        target = re.search(r"^\.target\s+(\w+)", text, re.M)
        arch = target.group(1) if target else "sm_90"
        p = subprocess.run([PTXAS, f"-arch={arch}", "-v", str(path), "-o",
                            "/dev/null"], capture_output=True, text=True)
        if p.returncode:
            raise RuntimeError(f"ptxas rejects {path}: {p.stderr[-300:]}")
        kernels += len(ENTRY.findall(p.stderr))
        regs = max([regs] + [int(r) for r in REGS.findall(p.stderr)])
        spills += sum(int(a) + int(b) for a, b in SPILL.findall(p.stderr))
    return kernels, regs, spills, widest["ld"], widest["st"]


def ours(opt, path, tmp):
    ptx = tmp / "ours.ptx"
    p = subprocess.run([opt, str(path), "--hlo-gpu-optimize",
                        "--hlo-to-ptx=allow-unsupported",
                        "--output-format=ptx", "-o", str(ptx)],
                       capture_output=True, text=True)
    if p.returncode:
        if "no PTX in the module" in p.stderr:
            return 0, 0, 0, 0, 0
        raise RuntimeError(p.stderr[-300:])
    return ptx_stats([ptx])


def xla(path, out):
    p = subprocess.run([sys.executable, str(ORACLE), str(path), "-o", str(out),
                        "--opt", "xla_gpu_enable_triton_gemm=false"],
                       capture_output=True, text=True, timeout=900)
    files = sorted((out / "ptx").glob("*.ptx"))
    if p.returncode or not files:
        raise RuntimeError((p.stderr or p.stdout)[-300:])
    return ptx_stats(files)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opt", required=True, help="path to hlo-opt")
    ap.add_argument("modules", nargs="*", type=Path, default=DEFAULT_MODULES)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    rows = []
    for path in a.modules:
        if not path.exists():
            continue
        with tempfile.TemporaryDirectory() as tmp:
            path = defined_constants(path, tmp)
            print(f"... {path.stem}", file=sys.stderr)
            try:
                o = ours(a.opt, path, Path(tmp))
                x = xla(path, Path(tmp) / "xla")
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                rows.append([path.stem, f"error: {str(e)[:100]}"] + [""] * 9)
                continue
        rows.append([path.stem, o[0], x[0], o[1], x[1], o[2], x[2],
                     o[3], x[3], o[4], x[4]])
    print(table(["module", "kernels ours", "kernels XLA", "max regs ours",
                 "max regs XLA", "spill B ours", "spill B XLA",
                 "widest ld ours", "widest ld XLA", "widest st ours",
                 "widest st XLA"], rows, a.markdown))


if __name__ == "__main__":
    main()
