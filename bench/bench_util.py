"""Helpers the benchmark scripts share: best-of-N timing, result tables and
the Python that runs XLA's GPU compiler (the oracle)."""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def oracle_python():
    """$XLA_ORACLE_PYTHON (a Python with XLA's GPU plugin, as the oracle's
    README sets up), else this one."""
    return os.environ.get("XLA_ORACLE_PYTHON") or sys.executable


TARGETS = (Path(__file__).resolve().parents[2] / "shared" / "tools" /
           "xla-oracle" / "targets")

# Run by the oracle's Python: XLA's GPU compiler (deviceless, H100) on as
# many devices as a module's replicas times partitions, which the oracle
# tool (one device) does not do. Arguments: the target file, the HLO file,
# the dump folder, devices, partitions, the pass-dump regex ("" for none),
# "1" for use_spmd_partitioning, then NAME=VALUE debug options.
MULTI_DEVICE_CHILD = r"""
import os, sys
os.environ["JAX_PLATFORMS"] = "cpu"
from jax.experimental import topologies
from jax._src.interpreters import mlir as jmlir
from jax._src.lib import xla_client as xc
from jax._src.lib.mlir import ir
from jaxlib import _hlo, _jax
target, hlo, dump, devices, partitions, passes, spmd = sys.argv[1:8]
topo = topologies.get_topology_desc(
    platform="cuda", topology_name="", target_config=open(target).read(),
    topology="1x1x" + devices)
module = _hlo.hlo_module_from_text(open(hlo).read())
comp = _hlo.XlaComputation(module.as_serialized_hlo_module_proto())
with jmlir.make_ir_context():
    mlir = ir.Module.parse(_jax.mlir.xla_computation_to_mlir_module(comp))
opts = xc.CompileOptions()
opts.num_partitions = int(partitions)
opts.num_replicas = int(devices) // int(partitions)
opts.executable_build_options.use_spmd_partitioning = spmd == "1"
debug = opts.executable_build_options.debug_options
debug.xla_gpu_cuda_data_dir = "/usr/local/cuda"
debug.xla_dump_to = dump
debug.xla_dump_hlo_as_text = True
if passes:
    debug.xla_dump_hlo_pass_re = passes
overrides = []
for kv in sys.argv[8:]:
    k, v = kv.split("=", 1)
    overrides.append((k, v == "true" if v in ("true", "false") else v))
opts.env_option_overrides = overrides
topo.devices[0].client.compile(
    mlir, executable_devices=_jax.DeviceList(tuple(topo.devices)),
    compile_options=opts)
"""


def device_counts(text):
    """(devices, partitions) of an HLO module's header line."""
    head = next((line for line in text.splitlines()
                 if line.startswith("HloModule")), "")

    def count(key):
        m = re.search(rf"\b{key}=(\d+)", head)
        return int(m.group(1)) if m else 1
    partitions = count("num_partitions")
    return count("replica_count") * partitions, partitions


def xla_compile_devices(hlo, dump, devices, partitions, pass_re="",
                        spmd=False, options=(), target="h100_sxm",
                        timeout=900):
    """Compiles `hlo` with XLA's GPU compiler on `devices` devices
    (`partitions` of them per replica) into the dump folder `dump`;
    `options`: NAME=VALUE debug options. The finished process."""
    return subprocess.run(
        [oracle_python(), "-c", MULTI_DEVICE_CHILD,
         str(TARGETS / f"{target}.txtpb"), str(hlo), str(dump), str(devices),
         str(partitions), pass_re, "1" if spmd else "0", *options],
        capture_output=True, text=True, timeout=timeout)


ELIDED = re.compile(
    r"\b(pred|[suf]\d+|bf16|f8\w*)\[([\d,]*)\](\{[^}]*\})?(\s*)"
    r"constant\(\{\.\.\.\}\)")


def _literal(elt, dims, start=0):
    """A nested HLO literal of shape `dims`: element i (row-major) is i, or
    i mod 128 for integers and i mod 2 for pred."""
    if not dims:
        if elt == "pred":
            return str(start % 2)
        return str(start if elt[0] in "bf" else start % 128)
    inner = 1
    for d in dims[1:]:
        inner *= d
    return "{" + ", ".join(_literal(elt, dims[1:], start + k * inner)
                           for k in range(dims[0])) + "}"


def defined_constants(path, tmp):
    """`path`, or where it holds elided array constants (`constant({...})`),
    a copy in the folder `tmp` with defined values in their place.

    XLA's parser fills an elided literal with the 32-bit words of a counter
    that runs across the whole process (0, 1, 2, ... on from the last elided
    literal it read), so what its constant folding and simplifier make of
    such a module depends on what the process parsed before; ours keeps the
    literal unknown. A comparison gives both compilers the same values."""
    text = Path(path).read_text()
    if "constant({...})" not in text:
        return Path(path)

    def fill(m):
        dims = [int(d) for d in m.group(2).split(",") if d]
        return (f"{m.group(1)}[{m.group(2)}]{m.group(3) or ''}{m.group(4)}"
                f"constant({_literal(m.group(1), dims)})")

    out = Path(tmp) / f"{Path(path).stem}.defined.hlo"
    out.write_text(ELIDED.sub(fill, text))
    return out


def best_of(repeat, fn):
    """Minimum wall time of fn() over `repeat` runs."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def time_pass(cmd, p, repeat):
    """The fastest of `repeat` runs of `cmd` (an hlo-opt command line with
    --mlir-timing): the pass `p`'s own time in ms, from MLIR's timing
    report on stderr."""
    best = float("nan")
    name = p.replace("-", "").lower()
    for _ in range(max(1, repeat)):
        r = subprocess.run(cmd, capture_output=True, text=True, check=True)
        ms = float("nan")
        for line in r.stderr.splitlines():
            fields = line.split()
            if fields and name in line.lower().replace("-", ""):
                ms = float(fields[0]) * 1000
        if ms != ms:
            print(r.stderr, file=sys.stderr)
        elif best != best or ms < best:
            best = ms
    return best


def table(head, rows, markdown):
    """`rows` under the column names `head`, as markdown or aligned text."""
    cells = [[str(c) for c in r] for r in rows]
    if markdown:
        out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        return "\n".join(out + ["| " + " | ".join(r) + " |" for r in cells])
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(head)]
    fmt = lambda r: "  ".join(c.ljust(w) if i == 0 else c.rjust(w)  # noqa: E731
                              for i, (c, w) in enumerate(zip(r, widths)))
    return "\n".join([fmt(head), fmt(["-" * w for w in widths])] + [fmt(r) for r in cells])


def scaling_parser(description):
    """The options of a pass-scaling benchmark: the tools' folder, the module
    sizes, the runs per pass and size."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs per pass and size; the fastest counts")
    ap.add_argument("--only", default=None,
                    help="comma-separated pass names: time only these")
    return ap


def run_scaling(doc, passes, source):
    """The main of a pass-scaling benchmark (`doc`: its docstring, whose
    first line describes it). For each size of --sizes and each pass flag
    of `passes` (as hlo-opt takes it, without `--`: `hlo-dce` or
    `hlo-all-reduce-combiner=threshold-bytes=1024`), `source(tmp, size,
    flag, opt)` gives the module file to time it on (written under `tmp`;
    `opt` is hlo-opt); prints the pass's own time per size
    (scaling_table)."""
    args = scaling_parser(doc.splitlines()[0]).parse_args()
    opt = str(Path(args.bin) / "hlo-opt")
    if args.only:
        passes = [f for f in passes if f.split("=")[0] in args.only.split(",")]
    names = [flag.split("=")[0] for flag in passes]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            row = [size]
            for flag, name in zip(passes, names):
                src = source(Path(tmp), size, flag, opt)
                row.append(time_pass([opt, str(src), f"--{flag}",
                                      "--mlir-timing", "-o", "/dev/null"],
                                     name, args.repeat))
            rows.append(row)
    print(scaling_table(names, rows))


def scaling_table(passes, rows):
    """Markdown: per size (the first cell of each row), each pass's time in
    ms and per 1000 instructions."""
    return table(["instructions", *passes],
                 [[row[0], *(f"{ms:.1f} ms ({ms / row[0] * 1000:.2f}/1k)"
                             for ms in row[1:])] for row in rows], True)
