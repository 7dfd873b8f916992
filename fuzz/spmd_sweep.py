#!/usr/bin/env python3
"""Partitions modules that were not written for it: every module given
is made a program of `--partitions` partitions whose entry parameters are
tiled along their first dimension that the partition count divides (or
the first dimension, unevenly, with `--uneven`), then run through
`hlo-opt --hlo-spmd-partitioning` with `--hlo-check-semantics`, which runs
the partitioned program on its tiles and compares with the whole one.
Modules whose devices already differ (collectives, partition or replica
ids) are skipped. Prints one line per finding (a crash, a hang, an error
other than the partitioner's "not supported yet" and its rejection of a
module's own shardings of other devices, a changed result) and a summary;
exits 1 if there is a finding.

  python3 fuzz/spmd_sweep.py --opt build/bin/hlo-opt test/Runtime/xla/modules/*.hlo
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

PARAM = re.compile(
    r"^(\s*(?:ROOT\s+)?%?[\w.\-]+\s*=\s*)"
    r"((?:pred|[suf]\d+|bf16|f8\w*|c64|c128)\[([\d,]*)\](?:\{[^}]*\})?)"
    r"(\s+parameter\(\d+\))(.*)$")


def shard(text, partitions, uneven):
    """`text` with num_partitions set and each ENTRY array parameter
    tiled, or None when no parameter can be."""
    entry = text.find("\nENTRY")
    if entry < 0:
        return None
    body_end = text.find("\n}", entry)
    lines = text[entry:body_end].split("\n")
    tiled = 0
    for i, line in enumerate(lines):
        m = PARAM.match(line)
        if not m or "sharding=" in line or not m.group(3):
            continue
        dims = [int(d) for d in m.group(3).split(",")]
        pick = next((k for k, d in enumerate(dims)
                     if d % partitions == 0 and d >= partitions), None)
        if pick is None and uneven:
            pick = next((k for k, d in enumerate(dims) if d > 1), None)
        if pick is None:
            continue
        tiles = ["1"] * len(dims)
        tiles[pick] = str(partitions)
        lines[i] = (m.group(1) + m.group(2) + m.group(4) + m.group(5) +
                    f", sharding={{devices=[{','.join(tiles)}]<=[{partitions}]}}")
        tiled += 1
    if not tiled:
        return None
    head, rest = text[:entry], text[body_end:]
    first = head.find("HloModule")
    if first < 0:
        return None
    eol = head.find("\n", first)
    if eol < 0:
        eol = len(head)
    header = re.sub(r",\s*num_partitions=\d+", "", head[first:eol])
    header = re.sub(r",\s*replica_count=\d+", "", header)
    header += f", num_partitions={partitions}"
    return head[:first] + header + head[eol:] + "\n".join(lines) + rest


def run_one(opt, path, partitions, uneven, timeout, tmp):
    text = open(path).read()
    # A module whose devices already differ (collectives, device ids) is
    # not one program for every partition: XLA takes such instructions only
    # in manual regions.
    device_ops = re.search(
        r"\s(all-reduce|all-gather|all-to-all|reduce-scatter|"
        r"collective-permute|collective-broadcast|ragged-all-to-all|"
        r"partition-id|replica-id|send|recv)(-start)?\(", text)
    sharded = None if device_ops else shard(text, partitions, uneven)
    if sharded is None:
        return path, "skipped", ""
    out = os.path.join(tmp, os.path.basename(path))
    with open(out, "w") as f:
        f.write(sharded)
    cmd = [opt, out, "--hlo-spmd-partitioning", "--hlo-check-semantics",
           "-o", os.devnull]
    try:
        res = subprocess.run(cmd, capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        return path, "hang", ""
    err = res.stderr
    if res.returncode < 0 or "Stack dump" in err:
        return path, "crash", err[-400:]
    if "semantics changed" in err:
        return path, "changed", err[err.index("semantics changed"):][:300]
    if res.returncode != 0:
        if "not supported yet" in err:
            return path, "unsupported", ""
        if "cannot partition by sharding" in err:
            # Its own shardings name other devices than the partitions.
            return path, "rejected", ""
        return path, "error", err.strip()[:300]
    if "semantics check disabled" in err:
        return path, "unchecked", ""
    return path, "ok", ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opt", default="build/bin/hlo-opt")
    ap.add_argument("--partitions", type=int, default=2)
    ap.add_argument("--uneven", action="store_true")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("modules", nargs="+")
    args = ap.parse_args()
    counts = {}
    findings = 0
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        jobs = [pool.submit(run_one, args.opt, m, args.partitions,
                            args.uneven, args.timeout, tmp)
                for m in args.modules]
        for job in jobs:
            path, kind, detail = job.result()
            counts[kind] = counts.get(kind, 0) + 1
            if kind in ("crash", "hang", "changed", "error"):
                findings += 1
                print(f"{kind}: {path}: {detail}")
    print(", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
