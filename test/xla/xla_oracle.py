#!/usr/bin/env python3
"""Round-trip oracle: XLA itself judges hlo-translate's HLO -> MLIR -> HLO.

For each .hlo file (directories are searched for *.hlo):
  1. XLA must parse the original, else SKIP ("original rejected by XLA");
  2. hlo-translate --hlo-to-mlir, then --mlir-to-hlo (temporary files);
  3. XLA must parse our exported text;
  4. XLA's to_string() of our export must equal XLA's to_string() of the
     original (after NORMALIZERS, which is empty on purpose).

to_string() elides constants of more than 10 elements as `{...}`, which would
hide wrong constant data, so both sides are printed with print_large_constants
-- except when the original itself has `{...}` constants: XLA's parser fills
those with arbitrary data that differs from parse to parse.

Prints one line per file and a last line `N passed, M failed, K skipped`;
exits 1 if anything failed.

Usage: xla_oracle.py --translate PATH/hlo-translate [--report FILE.md]
                     [--keep DIR] [--timeout S] FILES_OR_DIRS...

As a library: compare_hlo(original_text, exported_text) -> Verdict.
"""

import argparse
import dataclasses
import difflib
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # silence "Invalid stack_frame_id"
from jax._src.lib import hlo  # noqa: E402

# Text -> text rewrites applied to both XLA prints before comparing.  Only for
# things that are legitimately arbitrary; none are known to be needed yet.
NORMALIZERS: list[Callable[[str], str]] = []

DIFF_LINES = 15
DIFF_LINE_WIDTH = 200  # entry_computation_layout lines can be 10k+ chars


@dataclasses.dataclass
class Verdict:
    status: str          # "PASS", "FAIL" or "SKIP"
    reason: str = ""
    diff: list[str] = dataclasses.field(default_factory=list)


class XlaRejected(Exception):
    pass


def _first_line(msg: str) -> str:
    lines = [l.strip() for l in str(msg).splitlines() if l.strip()]
    # XLA: "INVALID_ARGUMENT: Syntax error when trying to parse the text as a
    # HloModule:\nwas parsing 5:78: error: ..." -- the second line is the news.
    useful = [l for l in lines if l.startswith("was parsing")] or lines
    return useful[0][:300] if useful else "(no message)"


def xla_parse(text: str):
    """XLA's HloModule for an HLO text module; raises XlaRejected."""
    try:
        return hlo.hlo_module_from_text(text)
    except Exception as e:  # jaxlib raises JaxRuntimeError (XlaRuntimeError)
        raise XlaRejected(_first_line(e)) from None


def xla_print(text: str, large_constants: bool = False) -> str:
    """XLA's canonical print of an HLO text module; raises XlaRejected."""
    module = xla_parse(text)
    options = hlo.HloPrintOptions()
    options.print_large_constants = large_constants
    return module.to_string(options)


def normalize(text: str, normalizers=None) -> str:
    for fn in NORMALIZERS if normalizers is None else normalizers:
        text = fn(text)
    return text


def text_diff(expected: str, actual: str, limit=DIFF_LINES) -> tuple[list[str], int]:
    """First `limit` lines of a unified diff, and the number of +/- lines."""
    lines = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                      "xla(original)", "xla(ours)", lineterm="", n=1))
    changed = sum(1 for l in lines[2:] if l[:1] in "+-")
    out = [l if len(l) <= DIFF_LINE_WIDTH else l[:DIFF_LINE_WIDTH] + " [...]"
           for l in lines[:limit]]
    return out + (["..."] if len(lines) > limit else []), changed


def compare_hlo(original: str, exported: str, normalizers=None) -> Verdict:
    """Compares two HLO texts the way XLA sees them (steps 1, 3, 4 above)."""
    full = "{...}" not in original
    try:
        want = xla_print(original, full)
    except XlaRejected as e:
        return Verdict("SKIP", f"original rejected by XLA: {e}")
    try:
        got = xla_print(exported, full)
    except XlaRejected as e:
        return Verdict("FAIL", f"XLA rejects our export: {e}")
    want, got = normalize(want, normalizers), normalize(got, normalizers)
    if want == got:
        return Verdict("PASS")
    diff, changed = text_diff(want, got)
    return Verdict("FAIL", f"XLA prints differ ({changed} lines +/-)", diff)


def run_translate(translate: str, mode: str, src: Path, dst: Path, timeout: float):
    """Runs hlo-translate; returns None or a one-line failure reason."""
    cmd = [translate, mode, str(src), "-o", str(dst)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"timeout after {timeout:g}s"
    if p.returncode == 0:
        return None
    if p.returncode < 0:
        what = f"killed by {signal.Signals(-p.returncode).name}"
    else:
        what = f"exit {p.returncode}"
    return f"{what}: {_first_line(p.stderr)}"


def check_file(path: Path, translate: str, timeout: float, keep: Path | None) -> Verdict:
    original = path.read_text()
    try:  # Step 1 first: don't bother hlo-translate with what XLA rejects.
        xla_parse(original)
    except XlaRejected as e:
        return Verdict("SKIP", f"original rejected by XLA: {e}")
    with tempfile.TemporaryDirectory(prefix="xla_oracle_") as tmp:
        work = keep if keep else Path(tmp)
        mlir, out = work / (path.stem + ".mlir"), work / (path.stem + ".out.hlo")
        for mode, src, dst, stage in (("--hlo-to-mlir", path, mlir, "import"),
                                      ("--mlir-to-hlo", mlir, out, "export")):
            err = run_translate(translate, mode, src, dst, timeout)
            if err:
                return Verdict("FAIL", f"{stage} failed ({err})")
        return compare_hlo(original, out.read_text())


def collect(paths: list[str]) -> list[Path]:
    files = []
    for p in map(Path, paths):
        files += sorted(p.glob("*.hlo")) if p.is_dir() else [p]
    return files


def write_report(path: Path, results: list[tuple[Path, Verdict]], summary: str):
    esc = lambda s: s.replace("|", "\\|").replace("\n", " ")  # noqa: E731
    rows = ["| file | result | detail |", "|---|---|---|"]
    rows += [f"| `{f.name}` | {v.status} | {esc(v.reason)} |" for f, v in results]
    path.write_text("# XLA round-trip oracle\n\n" + "\n".join(rows) + f"\n\n**{summary}**\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--translate", required=True, help="path to hlo-translate")
    ap.add_argument("--report", type=Path, help="write a markdown table here")
    ap.add_argument("--keep", type=Path, help="keep the .mlir/.hlo intermediates in this dir")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per hlo-translate run")
    ap.add_argument("files", nargs="+", help=".hlo files or directories")
    args = ap.parse_args()
    if not os.access(args.translate, os.X_OK):
        ap.error(f"not an executable: {args.translate}")
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)

    results = []
    for f in collect(args.files):
        v = check_file(f, args.translate, args.timeout, args.keep)
        results.append((f, v))
        print(f"{v.status} {f.name}" + (f": {v.reason}" if v.reason else ""), flush=True)
        for line in v.diff:
            print("    " + line)
    count = {s: sum(v.status == s for _, v in results) for s in ("PASS", "FAIL", "SKIP")}
    summary = f"{count['PASS']} passed, {count['FAIL']} failed, {count['SKIP']} skipped"
    if args.report:
        write_report(args.report, results, summary)
    print(summary)
    return 1 if count["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
