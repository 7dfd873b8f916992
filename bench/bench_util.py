"""Helpers the benchmark scripts share: best-of-N timing, result tables and
the Python that runs XLA's GPU compiler (the oracle)."""

import argparse
import os
import subprocess
import sys
import time


def oracle_python():
    """$XLA_ORACLE_PYTHON (a Python with XLA's GPU plugin, as the oracle's
    README sets up), else this one."""
    return os.environ.get("XLA_ORACLE_PYTHON") or sys.executable


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
    return ap


def scaling_table(passes, rows):
    """Markdown: per size (the first cell of each row), each pass's time in
    ms and per 1000 instructions."""
    return table(["instructions", *passes],
                 [[row[0], *(f"{ms:.1f} ms ({ms / row[0] * 1000:.2f}/1k)"
                             for ms in row[1:])] for row in rows], True)
