#!/usr/bin/env python3
"""Memory-bound kernels against a device-to-device copy, on inputs large
enough that launch latency does not count.

bench/emitters' modules move 16-50 MB, a few microseconds of an H100's
bandwidth: the CUDA events around one such kernel time mostly its launch
and tail (cuda_vs_xla.py measured 0-65% of copy bandwidth there). This
script builds the same kinds of kernels (elementwise, broadcast, row and
column reduction, 2-D transpose, concatenate) over arrays of --rows x
--cols f32 (default 16384 x 4096: 256 MiB an array), and a module that is
one copy of such an array (a `thunk.copy`: the driver's device-to-device
copy, the reference). Each runs as

  hlo-run MODULE --random-inputs --device=DEVICE --time --repeat N

and its bandwidth is the bytes of its parameters and results over the
device time of the fastest run; the table gives it in GB/s and as a
fraction of the copy's (the issue's goal for memory-bound fusions: at
least 85%). With --device=host it checks the script itself (and the host
runtime's bandwidth) where there is no GPU.

Usage: gpu_bandwidth.py [--bin build/bin] [--device cuda] [--rows 16384]
                        [--cols 4096] [--repeat 10] [--markdown]
"""

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_util import table  # noqa: E402

ADD = """add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

"""

# name -> ENTRY body over R x C arrays (H = R / 2); the first is the
# reference.
MODULES = {
    "copy": """  p0 = f32[{R},{C}] parameter(0)
  ROOT c = f32[{R},{C}] copy(p0)""",
    "loop_elementwise": """  p0 = f32[{R},{C}] parameter(0)
  p1 = f32[{R},{C}] parameter(1)
  m = f32[{R},{C}] multiply(p0, p1)
  ROOT a = f32[{R},{C}] add(m, p0)""",
    "loop_broadcast": """  p0 = f32[{R},{C}] parameter(0)
  p1 = f32[{C}] parameter(1)
  b = f32[{R},{C}] broadcast(p1), dimensions={{1}}
  ROOT a = f32[{R},{C}] add(p0, b)""",
    "row_reduce": """  p0 = f32[{R},{C}] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[{R}] reduce(p0, z), dimensions={{1}}, to_apply=add""",
    "column_reduce": """  p0 = f32[{R},{C}] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[{C}] reduce(p0, z), dimensions={{0}}, to_apply=add""",
    "transpose_f32_2d": """  p0 = f32[{R},{C}] parameter(0)
  t = f32[{C},{R}] transpose(p0), dimensions={{1,0}}
  ROOT n = f32[{C},{R}] negate(t)""",
    "concatenate": """  p0 = f32[{H},{C}] parameter(0)
  p1 = f32[{H},{C}] parameter(1)
  c = f32[{R},{C}] concatenate(p0, p1), dimensions={{0}}
  ROOT n = f32[{R},{C}] negate(c)""",
}

DEVICE_TIME = re.compile(r"device time ([0-9.eE+-]+) s")


def module_text(name, rows, cols):
    body = MODULES[name].format(R=rows, C=cols, H=rows // 2)
    return (f"HloModule {name}\n\n" + (ADD if "to_apply" in body else "") +
            "ENTRY main {\n" + body + "\n}\n")


def bytes_moved(text):
    """Bytes of the parameters and the result (f32)."""
    total = 0
    for line in text.splitlines():
        if "parameter(" in line or line.lstrip().startswith("ROOT"):
            dims = re.search(r"f32\[([0-9,]*)\]", line).group(1)
            n = 1
            for d in filter(None, dims.split(",")):
                n *= int(d)
            total += 4 * n
    return total


def device_seconds(runner, path, device, repeat, workdir):
    p = subprocess.run(
        [str(runner), str(path), "--random-inputs", f"--device={device}",
         "--time", f"--repeat={repeat}", "--output-dir",
         str(workdir / "out")], capture_output=True, text=True, timeout=900)
    m = DEVICE_TIME.search(p.stderr)
    if p.returncode or not m:
        lines = p.stderr.strip().splitlines() or ["no output"]
        raise RuntimeError(lines[-1][:200])
    return float(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", type=Path, default=Path("build/bin"))
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--rows", type=int, default=16384)
    ap.add_argument("--cols", type=int, default=4096)
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    runner = args.bin / "hlo-run"

    rows, reference, failed = [], None, False
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for name in MODULES:
            text = module_text(name, args.rows, args.cols)
            path = workdir / f"{name}.hlo"
            path.write_text(text)
            moved = bytes_moved(text)
            try:
                seconds = device_seconds(runner, path, args.device,
                                         args.repeat, workdir)
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                failed = True
                rows.append([name, f"{moved / 2**20:.0f}", "-", "-", "-"])
                print(f"error: {name}: {e}", file=sys.stderr)
                continue
            rate = moved / seconds
            if reference is None:
                reference = rate
            rows.append([name, f"{moved / 2**20:.0f}",
                         f"{seconds * 1e6:.1f}", f"{rate / 1e9:.1f}",
                         f"{rate / reference:.2f}" if reference else "-"])
    print(f"device: {args.device}; arrays f32[{args.rows},{args.cols}]; "
          f"fastest of {args.repeat} runs")
    print(table(["module", "MiB moved", "device us", "GB/s",
                 "of copy"], rows, args.markdown))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
