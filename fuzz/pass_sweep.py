#!/usr/bin/env python3
"""Runs every pass hlo-opt registers, alone, on every given module.

Each (pass, module) is one `hlo-opt MODULE --PASS` process (with
`--check-semantics`: `--hlo-check-semantics --PASS`). A pass may refuse a
module with an error (a precondition: no schedule, no buffer assignment);
what counts is a crash (a signal, an LLVM stack dump), a hang past the
timeout, and, with --check-semantics, a pass that changes the interpreter's
results. Prints one line per finding and a summary; exits 1 if there is a
finding.

  python3 fuzz/pass_sweep.py --opt build/bin/hlo-opt ../shared/corpus/hlo/*.hlo
  python3 fuzz/pass_sweep.py --opt build/bin/hlo-opt --check-semantics \\
      test/Runtime/xla/modules/*.hlo
"""

import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys

# Passes that print or view instead of transforming, the test pass that
# breaks semantics on purpose and the one that replaces scalar computations
# by func.func.
SKIP = {"print-ir", "print-op-stats", "view-op-graph", "snapshot-op-locations",
        "hlo-test-break-semantics", "hlo-test-lower-scalar"}


def list_passes(opt):
    out = subprocess.run([opt, "--list-passes"], capture_output=True,
                         text=True, check=True).stdout
    return [m.group(1) for m in re.finditer(r"^  --([a-z0-9-]+)", out, re.M)]


def run_one(opt, pass_name, module, flags, timeout):
    cmd = [opt, module] + flags + ["--" + pass_name, "-o", os.devnull]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True,
                           errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", ""
    if r.returncode < 0 or "Stack dump" in r.stderr:
        return "crash", r.stderr
    if "semantics changed by pass" in r.stderr:
        return "semantics", r.stderr
    return ("error" if r.returncode else "ok"), ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opt", default="build/bin/hlo-opt")
    parser.add_argument("--check-semantics", action="store_true")
    parser.add_argument("--passes", help="comma-separated (default: all)")
    parser.add_argument("--split-input-file", action="store_true",
                        help="each `// -----` chunk of a module apart")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("modules", nargs="+")
    args = parser.parse_args()

    passes = (args.passes.split(",") if args.passes
              else [p for p in list_passes(args.opt) if p not in SKIP])
    flags = (["--hlo-check-semantics"] if args.check_semantics else []) + (
        ["--split-input-file"] if args.split_input_file else [])
    jobs = [(p, m) for m in args.modules for p in passes]
    counts = collections.Counter()
    findings = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = pool.map(
            lambda job: run_one(args.opt, job[0], job[1], flags,
                                args.timeout), jobs)
        for (pass_name, module), (outcome, stderr) in zip(jobs, results):
            counts[outcome] += 1
            if outcome in ("ok", "error"):
                continue
            findings += 1
            first = next((line for line in stderr.splitlines()
                          if "error" in line or "#4 " in line), "")
            print(f"{outcome}: --{pass_name} {module}: {first[:300]}",
                  flush=True)
    print(f"{len(passes)} passes x {len(args.modules)} modules: " +
          ", ".join(f"{counts[k]} {k}" for k in
                    ("ok", "error", "crash", "timeout", "semantics")))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
