#!/usr/bin/env python3
"""Replays XLA's temp-buffer heap with our heap simulator and compares offsets.

    python3 bench/heap_vs_xla.py OUT_DIR... [--bench build/bin/hlo-heap-simulator-bench]
                                 [--alignment 256] [--verbose] [--markdown]

OUT_DIR is a folder written by the XLA oracle
(../shared/tools/xla-oracle/xla_gpu_compile.py MODULE.hlo -o OUT_DIR): its
buffer_assignment.txt gives the values of the `preallocated-temp` allocation
with their sizes and offsets, dump/*-live-range.txt their live ranges (XLA's
HloLiveRange times) and dump/*-buffer-assignment-values.txt their uses.

Each temp value becomes one buffer of `--input` for hlo-heap-simulator-bench.
Left out: tuple-shaped values (XLA gives each index table its own slot in
front of the heap) and zero-size values. Sharing is read back from XLA's
result: a value may share an operand of its instruction that dies where it
starts if XLA put both at the same offset. Values of one HloBuffer (while
loop state) are not grouped (that needs the alias analysis), so modules with
loops show differences there. Offsets are compared relative to the lowest
heap offset.
"""

import argparse
import glob
import os
import re
import subprocess
import sys


def first(pattern):
    found = glob.glob(pattern)
    if not found:
        raise FileNotFoundError(pattern)
    return found[0]


def load(out_dir):
    assignment = open(os.path.join(out_dir, "buffer_assignment.txt")).read()
    live = open(first(os.path.join(out_dir, "dump", "*-live-range.txt"))).read()
    values_text = open(
        first(os.path.join(out_dir, "dump", "*-buffer-assignment-values.txt"))
    ).read()

    ranges = {
        m.group(1): (int(m.group(2)), int(m.group(3)))
        for m in re.finditer(r"^\s+(\S+\{[0-9,]*\}):(\d+)-(\d+)$", live, re.M)
    }
    blocks = re.split(r"^allocation ", assignment, flags=re.M)
    temps = [b for b in blocks if "preallocated-temp" in b.split("\n")[0]]
    if len(temps) != 1:
        return None
    values = []  # (id, instruction, live-range key, size, offset)
    for m in re.finditer(
        r"value: <(\d+) (\S+) @0> \(size=(\d+),offset=(\d+)\): (.)", temps[0]
    ):
        size = int(m.group(3))
        if m.group(5) == "(" or size == 0:
            continue
        name = m.group(2)
        key = name if "{" in name else name + "{}"
        values.append((int(m.group(1)), name.split("{")[0], key, size, int(m.group(4))))
    if not values:
        return None
    base = min(v[4] for v in values)
    values = [(i, inst, key, size, off - base) for i, inst, key, size, off in values]

    operands = {}  # instruction -> [(operand number, value id)]
    for m in re.finditer(
        r"^<(\d+) \S+ @0>\n positions:\n(?:  .*\n)* uses:\n((?:  .*\n)*)",
        values_text,
        re.M,
    ):
        for use in m.group(2).strip().split("\n"):
            u = re.match(r"\s*(\S+), operand (\d+)", use)
            if u:
                operands.setdefault(u.group(1), []).append((int(u.group(2)), int(m.group(1))))
    return values, ranges, operands


def compare(out_dir, bench, alignment, verbose):
    loaded = load(out_dir)
    if loaded is None:
        return None
    values, ranges, operands = loaded
    by_id = {v[0]: v for v in values}
    lines, shares, missing = [], 0, 0
    for vid, inst, key, size, off in values:
        if key not in ranges:
            missing += 1
            continue
        start, end = ranges[key]
        share = [
            o
            for _, o in sorted(operands.get(inst, []))
            if o in by_id
            and o != vid
            and ranges.get(by_id[o][2], (0, -1))[1] == start
            and by_id[o][4] == off
        ]
        shares += bool(share)
        line = f"{vid} {size} 1 {start}-{end}"
        if share:
            line += " " + ",".join(map(str, share))
        lines.append(line)
    result = subprocess.run(
        [bench, "--input=-", f"--alignment={alignment}"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    header = result[0].split()
    ours = {int(a): int(b) for a, b in (l.split() for l in result[1:] if l.strip())}
    same = sum(1 for v in values if ours.get(v[0]) == v[4])
    xla_heap = max(v[3] + v[4] for v in values)
    if verbose:
        for v in values:
            if v[0] in ours and ours[v[0]] != v[4]:
                print(f"  {v[1]} ({v[0]}): xla {v[4]}, ours {ours[v[0]]}, live {ranges.get(v[2])}")
    return {
        "module": os.path.basename(os.path.normpath(out_dir)),
        "values": len(values) - missing,
        "shared": shares,
        "xla_heap": xla_heap,
        "ours_heap": int(header[1]),
        "peak": int(header[3]),
        "packing": header[5],
        "same": same,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--bench", default="build/bin/hlo-heap-simulator-bench")
    parser.add_argument("--alignment", type=int, default=256)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    rows = []
    for d in args.dirs:
        row = compare(d, args.bench, args.alignment, args.verbose)
        if row is None:
            print(f"{d}: no preallocated-temp values", file=sys.stderr)
            continue
        rows.append(row)
        if not args.markdown:
            print(
                f"{row['module']}: {row['values']} values ({row['shared']} shared), "
                f"heap xla {row['xla_heap']} ours {row['ours_heap']} "
                f"(peak {row['peak']}, {row['packing']}), "
                f"same offsets {row['same']}/{row['values']}"
            )
    if args.markdown:
        print("| module | values | shared | XLA heap | our heap | peak | packing | same offsets |")
        print("|---|---:|---:|---:|---:|---:|---|---:|")
        for r in rows:
            print(
                f"| {r['module']} | {r['values']} | {r['shared']} | {r['xla_heap']} | "
                f"{r['ours_heap']} | {r['peak']} | {r['packing']} | {r['same']}/{r['values']} |"
            )


if __name__ == "__main__":
    main()
