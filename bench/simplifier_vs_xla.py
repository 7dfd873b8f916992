#!/usr/bin/env python3
"""Our simplification pipeline next to XLA's on small modules, one
instruction kind per module (bench/simplifier_probes/: a rewrite of XLA's
AlgebraicSimplifier each), to find the rewrites XLA makes and we do not.

Ours: `hlo-opt M --pass-pipeline=builtin.module(hlo-simplification)`.
XLA: its GPU compiler for an H100, deviceless (the xla-oracle's Python,
$XLA_ORACLE_PYTHON), the module after its first "simplification" fixed
point (its pass dump). For each module the instructions of the ENTRY
computation are counted by opcode on both sides (parameters, constants
and tuples apart) and compared; a module is "same" when the counts are.

Usage: simplifier_vs_xla.py --opt build/bin/hlo-opt [--markdown]
                            [FILES... (default: bench/simplifier_probes)]
"""

import argparse
import collections
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_util import table, xla_compile_devices  # noqa: E402

PROBES = Path(__file__).resolve().parent / "simplifier_probes"
NOT_COUNTED = {"parameter", "constant", "tuple"}
OPCODE = re.compile(r"= (?:\([^=]*\)|\S+) ([a-z][a-z0-9\-]*)\(")


def opcodes(text):
    """Opcode counts of the ENTRY computation of HLO text."""
    entry = re.search(r"^ENTRY[^\n]*\n(.*?)^}", text, re.S | re.M)
    counts = collections.Counter()
    for line in entry.group(1).splitlines() if entry else []:
        m = OPCODE.search(line)
        if m and m.group(1) not in NOT_COUNTED:
            counts[m.group(1)] += 1
    return counts


def xla_after_simplification(hlo, tmp):
    """XLA's module after its first simplification fixed point, or None."""
    dump = Path(tmp) / hlo.stem
    xla_compile_devices(hlo, dump, 1, 1, pass_re="^simplification$")
    after = sorted(dump.glob("*.after_simplification.before_*.txt"))
    return after[0].read_text() if after else None


def ours(opt, hlo):
    p = subprocess.run([opt, str(hlo), "--output-format=hlo",
                        "--pass-pipeline=builtin.module(hlo-simplification)"],
                       capture_output=True, text=True)
    return p.stdout if p.returncode == 0 else None


def show(counts):
    return " ".join(f"{k}:{v}" for k, v in sorted(counts.items())) or "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--opt", required=True)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    files = a.files or sorted(PROBES.glob("*.hlo"))
    rows, same = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for hlo in files:
            xla, mine = xla_after_simplification(hlo, tmp), ours(a.opt, hlo)
            if xla is None or mine is None:
                rows.append([hlo.stem, "error" if xla is None else "",
                             "error" if mine is None else "", "-"])
                continue
            x, o = opcodes(xla), opcodes(mine)
            same += x == o
            rows.append([hlo.stem, show(x), show(o),
                         "same" if x == o else "differs"])
    print(table(["module", "XLA", "ours", ""], rows, a.markdown))
    print(f"\nsame instructions as XLA on {same} of {len(files)} modules")


if __name__ == "__main__":
    main()
