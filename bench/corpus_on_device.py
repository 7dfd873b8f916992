#!/usr/bin/env python3
"""Every module of some folders compiled by our GPU compiler and run on a
device (`hlo-run M --random-inputs --device=DEVICE --compare M`: the
results against the reference interpreter on the original module), in
parallel. Prints one line per module (match, differs, compile error,
runtime error, skipped, timeout) and the counts, the figures of
docs/cuda.md and docs/status.md.

Skipped: modules for several devices (replica_count / num_partitions > 1)
and modules with rng, whose values are the implementation's choice.

Usage: corpus_on_device.py --bin build/bin [--device cuda|host]
                           [--jobs 8] [--timeout 120] FILES_OR_DIRS...
"""

import argparse
import collections
import concurrent.futures
import pathlib
import re
import subprocess
import sys

MULTI_DEVICE = re.compile(r"(replica_count|num_partitions)=([2-9]|\d\d)")
RNG = re.compile(r"\brng\(")


def classify(runner, device, path, timeout):
    text = path.read_text(errors="replace")
    if MULTI_DEVICE.search(text):
        return "skipped", "several devices"
    if RNG.search(text):
        return "skipped", "rng"
    args = [str(runner), str(path), "--random-inputs", f"--device={device}",
            "--compare", str(path)]
    try:
        p = subprocess.run(args, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", f"over {timeout} s"
    lines = p.stderr.splitlines() + p.stdout.splitlines()
    errors = [l.replace("hlo-run: error: ", "") for l in lines if "error:" in l]
    if p.returncode == 0:
        return "match", next((l for l in lines if l.startswith("match:")), "")
    message = (errors or lines or [f"exit status {p.returncode}"])[-1][:200]
    if "results differ" in message:
        return "differs", message
    if "the GPU compiler failed" in message:
        return "compile error", message
    if "has no HLO shape" in message or "parameter" in message and \
            "give --input" in message:
        return "skipped", message
    return "runtime error", message


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="+", type=pathlib.Path)
    ap.add_argument("--bin", type=pathlib.Path, required=True)
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--jobs", type=int, default=8)
    ap.add_argument("--timeout", type=int, default=120)
    args = ap.parse_args()
    files = []
    for p in args.paths:
        files += sorted(p.glob("*.hlo")) if p.is_dir() else [p]
    counts = collections.Counter()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        jobs = {pool.submit(classify, args.bin / "hlo-run", args.device, f,
                            args.timeout): f for f in files}
        results = {jobs[j]: j.result()
                   for j in concurrent.futures.as_completed(jobs)}
    for f in files:
        status, detail = results[f]
        counts[status] += 1
        print(f"{status:13} {f.name}: {detail}", flush=True)
    print(f"{len(files)} modules on {args.device}: " +
          ", ".join(f"{n} {s}" for s, n in counts.most_common()))
    return 1 if counts["differs"] or counts["runtime error"] else 0


if __name__ == "__main__":
    sys.exit(main())
