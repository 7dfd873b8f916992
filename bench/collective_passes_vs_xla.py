#!/usr/bin/env python3
"""A collective pass against XLA's, module by module, on several devices.

The xla-oracle tool compiles for one device; the collective passes need a
module's partitions. This script compiles each module of a lit test file
(modules split at `// -----`, CHECK lines ignored; an .mlir test's
modules printed as HLO by hlo-opt) with XLA's GPU compiler
(`bench_util.xla_compile_devices`: the oracle's plugin, deviceless, H100,
as many devices as the module's `num_partitions` x `replica_count`), takes
XLA's module just before and after its pass (`--xla-pass`, its dump name),
runs ours alone on the module (`--pass`, `hlo-opt`), and prints side by
side what each made of it: whether it changed, and the live instructions
of each opcode of `--count` in the ENTRY computation.

Usage: collective_passes_vs_xla.py TEST.hlo --pass hlo-all-gather-pad-ds-simplifier
       --xla-pass all-gather-pad-ds-simplifier [--count collective-permute,all-gather]
       [--bin build/bin] [--spmd] [--markdown]

XLA's own pipeline runs before its pass (its simplifier may rewrite what
the pass looks for, as it makes `table[partition-id]` of a table 0, k, 2k
... into `convert(partition-id) * k`); ours runs on the module as written.
XLA's input goes through the StableHLO round trip, which drops frontend
attributes (`collective_group_key`). Some XLA passes act only with
`--spmd` (XLA's use_spmd_partitioning: its all-reduce simplifier on
cross-partition all-reduces). Needs $XLA_ORACLE_PYTHON: a Python with XLA's
GPU plugin (the oracle's setup_venv.sh makes one).
"""

import argparse
import glob
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_util import device_counts, table, xla_compile_devices  # noqa: E402

def modules(path, opt):
    """The modules of a lit test file as HLO text, CHECK and RUN lines
    dropped (an .mlir test's through `hlo-opt --output-format=hlo`)."""
    text = Path(path).read_text()
    for chunk in re.split(r"^// -----\s*$", text, flags=re.M):
        lines = [ln for ln in chunk.splitlines()
                 if not re.match(r"\s*//", ln)]
        body = "\n".join(lines).strip()
        if path.endswith(".mlir") and body:
            res = subprocess.run([opt, "-", "--output-format=hlo"],
                                 input=body, capture_output=True, text=True)
            body = res.stdout.strip() if res.returncode == 0 else ""
        if body.startswith("HloModule"):
            yield body + "\n"


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
    # The result type (a tuple's has spaces), then the opcode.
    return {op: sum(1 for n in live
                    if re.match(rf"(\(.*?\)|\S+)\s+{re.escape(op)}\(",
                                defs[n]))
            for op in opcodes}


def xla_run(hlo, devices, partitions, xla_pass, spmd, tmp):
    """XLA's module before and after `xla_pass`, or an error line."""
    dump = Path(tmp) / "dump"
    res = xla_compile_devices(hlo, dump, devices, partitions,
                              re.escape(xla_pass), spmd)
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
    opcodes = a.count.split(",")
    opt = str(Path(a.bin) / "hlo-opt")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, text in enumerate(modules(a.test, opt)):
            name = text.split()[1].rstrip(",")
            hlo = Path(tmp) / f"m{i}.hlo"
            hlo.write_text(text)
            devices, partitions = device_counts(text)
            xla = xla_run(hlo, devices, partitions, a.xla_pass, a.spmd,
                          Path(tmp) / str(i))
            rows.append([name, describe(xla, opcodes),
                         describe(ours_run(opt, hlo, a.our_pass), opcodes)])
    if not rows:
        sys.exit(f"error: {a.test} holds no HLO module (`HloModule ...`)")
    print(table(["module", "XLA", "ours"], rows, a.markdown))


if __name__ == "__main__":
    main()
