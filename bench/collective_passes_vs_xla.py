#!/usr/bin/env python3
"""A collective pass against XLA's, module by module, on several devices.

The xla-oracle tool compiles for one device; the collective passes need a
module's partitions. This script compiles each module of a lit test file
(modules split at `// -----`, CHECK lines ignored) with XLA's GPU compiler
(the oracle's plugin, deviceless, H100, a topology of as many devices as
the module's `num_partitions` x `replica_count`), dumps the module after
XLA's pass (`--xla-pass`, its dump name), runs ours on it (`--pass`,
`hlo-opt`), and prints side by side what each made of the module: whether
it changed, and the number of instructions of each opcode of `--count`.

Usage: collective_passes_vs_xla.py TEST.hlo --pass hlo-all-gather-pad-ds-simplifier
       --xla-pass all-gather-pad-ds-simplifier [--count collective-permute,all-gather]
       [--bin build/bin] [--markdown]

XLA's own pipeline runs before its pass (its simplifier may rewrite what
the pass looks for, as it makes `table[partition-id]` of a table 0, k, 2k
... into `convert(partition-id) * k`); ours runs alone on the module as
written. XLA's input goes through the StableHLO round trip, which drops
frontend attributes (`collective_group_key`). Some XLA passes act only
with `--spmd` (XLA's use_spmd_partitioning: its all-reduce simplifier on
cross-partition all-reduces). Needs $XLA_ORACLE_PYTHON or /tmp/xlagpu-venv (the oracle's
setup_venv.sh).
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_util import table  # noqa: E402

TARGET = (Path(__file__).resolve().parents[2] / "shared" / "tools" /
          "xla-oracle" / "targets" / "h100_sxm.txtpb")

# Run by the oracle's Python: compile argv[2] for argv[4] devices
# (partitions argv[5]), dumping the passes matching argv[6] into argv[3];
# argv[7] "1" sets XLA's use_spmd_partitioning.
CHILD = r"""
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
debug.xla_dump_hlo_pass_re = passes
topo.devices[0].client.compile(
    mlir, executable_devices=_jax.DeviceList(tuple(topo.devices)),
    compile_options=opts)
"""


def modules(path):
    """The modules of a lit test file, CHECK and RUN lines dropped."""
    text = Path(path).read_text()
    for chunk in re.split(r"^// -----\s*$", text, flags=re.M):
        lines = [ln for ln in chunk.splitlines()
                 if not re.match(r"\s*//", ln)]
        body = "\n".join(lines).strip()
        if body.startswith("HloModule"):
            yield body + "\n"


def header_count(text, key):
    m = re.search(rf"\b{key}=(\d+)", text.splitlines()[0])
    return int(m.group(1)) if m else 1


INSTR = re.compile(r"^\s*(ROOT\s+)?%([\w.\-]+)\s*=\s*(.*)$")


def entry_counts(text, opcodes):
    """Per opcode, the instructions of the ENTRY computation of `text` (HLO)
    that are it and that its root uses (XLA's passes leave dead
    instructions to a later DCE)."""
    entry = text[text.index("ENTRY"):]
    entry = entry[:entry.index("\n}")]
    defs, root = {}, None
    for line in entry.splitlines()[1:]:
        m = INSTR.match(line)
        if m:
            defs[m.group(2)] = m.group(3)
            if m.group(1):
                root = m.group(2)
    live, work = set(), [root]
    while work:
        name = work.pop()
        if name in live or name not in defs:
            continue
        live.add(name)
        work += re.findall(r"%([\w.\-]+)", defs[name])
    return {op: sum(1 for n in live
                    if re.match(rf"\S+\s+{re.escape(op)}\(", defs[n]))
            for op in opcodes}


def xla_run(python, hlo, devices, partitions, xla_pass, spmd, tmp):
    """XLA's module before and after `xla_pass`, or an error line."""
    dump = Path(tmp) / "dump"
    res = subprocess.run(
        [python, "-c", CHILD, str(TARGET), str(hlo), str(dump),
         str(devices), str(partitions), re.escape(xla_pass),
         "1" if spmd else "0"],
        capture_output=True, text=True)
    if res.returncode != 0:
        return "error: " + res.stderr.strip().splitlines()[-1][:100]
    after = sorted(glob.glob(str(dump / f"*.after_{xla_pass}.*.txt")))
    before = sorted(glob.glob(str(dump / f"*.before_{xla_pass}.txt")))
    if not after or not before:
        return "error: no dump around the pass"
    return Path(before[0]).read_text(), Path(after[0]).read_text()


def ours_run(opt, hlo, our_pass):
    """Our module before and after `our_pass`, or an error line."""
    out = []
    for flags in ([], [f"--{our_pass}"]):
        res = subprocess.run([opt, str(hlo), *flags, "--output-format=hlo"],
                             capture_output=True, text=True)
        if res.returncode != 0:
            return "error: " + res.stderr.strip()[:100]
        out.append(res.stdout)
    return tuple(out)


def describe(run, opcodes):
    """`unchanged`, or `changed:` and the instruction counts after."""
    if isinstance(run, str):
        return run
    before, after = run
    if before == after:
        return "unchanged"
    counts = entry_counts(after, opcodes)
    return "changed: " + ", ".join(f"{n} {op}" for op, n in counts.items())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("test")
    ap.add_argument("--pass", dest="our_pass", required=True)
    ap.add_argument("--xla-pass", required=True)
    ap.add_argument("--count", default="collective-permute,all-gather")
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--spmd", action="store_true",
                    help="XLA's use_spmd_partitioning, as JAX sets it (its "
                    "partitioner then rejects some hand-written modules)")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    python = os.environ.get("XLA_ORACLE_PYTHON", "/tmp/xlagpu-venv/bin/python")
    opcodes = a.count.split(",")
    opt = str(Path(a.bin) / "hlo-opt")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, text in enumerate(modules(a.test)):
            name = text.split()[1].rstrip(",")
            hlo = Path(tmp) / f"m{i}.hlo"
            hlo.write_text(text)
            partitions = header_count(text, "num_partitions")
            devices = partitions * header_count(text, "replica_count")
            xla = xla_run(python, hlo, devices, partitions, a.xla_pass,
                          a.spmd, Path(tmp) / str(i))
            rows.append([name, describe(xla, opcodes),
                         describe(ours_run(opt, hlo, a.our_pass), opcodes)])
    if not rows:
        sys.exit(f"error: {a.test} holds no HLO module (`HloModule ...`)")
    print(table(["module", "XLA", "ours"], rows, a.markdown))


if __name__ == "__main__":
    main()
