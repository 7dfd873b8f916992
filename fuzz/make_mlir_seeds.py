#!/usr/bin/env python3
"""Builds the seed directory of HloMlirFuzzer (see README.md).

Usage: fuzz/make_mlir_seeds.py BIN_DIR OUT_DIR [HLO_DIR...]

BIN_DIR holds a built hlo-opt and hlo-translate (e.g. build/bin). The seeds
are MLIR files:

- every `// -----` chunk of test/Dialect/Hlo/*.mlir and test/Translate/*.mlir,
  as written (`lit-*`) and in the generic op form (`lit-*-generic`), printed
  without verification so that the invalid_*.mlir chunks reach the
  verifiers with the attributes the custom parser would have rejected;
- every .hlo file of HLO_DIR (default: ../shared/corpus/hlo beside the
  repository, or $HLO_CORPUS_DIR, and examples/), converted with
  `hlo-translate --hlo-to-mlir`, in the custom form with locations
  (`hlo-*`, names and metadata) and in the generic form (`hlo-*-generic`).

Chunks and files that a tool rejects are still kept in the form written.
"""
import hashlib
import os
import pathlib
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    bindir, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    opt, translate = bindir / "hlo-opt", bindir / "hlo-translate"
    hlo_dirs = [pathlib.Path(d) for d in sys.argv[3:]]
    if not hlo_dirs:
        corpus = os.environ.get("HLO_CORPUS_DIR",
                                root.parent / "shared" / "corpus" / "hlo")
        hlo_dirs = [pathlib.Path(corpus), root / "examples"]
    out.mkdir(parents=True, exist_ok=True)
    seen = set()
    counts = {}

    def write(kind, name, text):
        if not text.strip():
            return
        digest = hashlib.sha1(text.encode()).hexdigest()[:10]
        if digest in seen:
            return
        seen.add(digest)
        (out / f"{kind}-{name}-{digest}.mlir").write_text(text)
        counts[kind] = counts.get(kind, 0) + 1

    def run(cmd, text=None):
        r = subprocess.run(cmd, input=text, capture_output=True, text=True,
                           timeout=120)
        return r.stdout if r.returncode == 0 else None

    generic = [str(opt), "--mlir-print-op-generic",
               "--mlir-very-unsafe-disable-verifier-on-parsing",
               "--verify-each=false"]

    lit = sorted((root / "test" / "Dialect" / "Hlo").glob("*.mlir")) + sorted(
        (root / "test" / "Translate").glob("*.mlir"))
    for f in lit:
        for i, chunk in enumerate(f.read_text().split("// -----")):
            # Drop the RUN/CHECK lines: they only grow the input.
            lines = [l for l in chunk.splitlines()
                     if not l.lstrip().startswith(("// RUN", "// CHECK"))]
            chunk = "\n".join(lines) + "\n"
            name = f"{f.stem}-{i}"
            write("lit", name, chunk)
            g = run(generic + ["-"], chunk)
            if g:
                write("lit-generic", name, g)

    for d in hlo_dirs:
        for f in sorted(d.glob("*.hlo")):
            m = run([str(translate), "--hlo-to-mlir", "--mlir-print-debuginfo",
                     str(f)])
            if m:
                write("hlo", f.stem, m)
            g = run([str(opt), "--mlir-print-op-generic", str(f)])
            if g:
                write("hlo-generic", f.stem, g)

    for kind, n in sorted(counts.items()):
        print(f"{kind}: {n}")
    print(f"{sum(counts.values())} seeds in {out}")


main()
