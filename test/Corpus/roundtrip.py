"""Round-trips every HLO file of a folder through hlo-translate.

For each file: HLO -> MLIR -> HLO (export 1) -> MLIR -> HLO (export 2).
Every step must succeed and export 2 must equal export 1 byte for byte.
"""
import argparse
import pathlib
import subprocess
import sys


def run(translate, args):
    return subprocess.run([translate] + args, capture_output=True, text=True,
                          timeout=300)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--translate", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("folder")
    a = p.parse_args()
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    files = sorted(pathlib.Path(a.folder).glob("*.hlo"))
    failed = []
    for f in files:
        stem = out / f.stem
        steps = [
            ["--hlo-to-mlir", str(f), "-o", f"{stem}.1.mlir"],
            ["--mlir-to-hlo", f"{stem}.1.mlir", "-o", f"{stem}.1.hlo"],
            ["--hlo-to-mlir", f"{stem}.1.hlo", "-o", f"{stem}.2.mlir"],
            ["--mlir-to-hlo", f"{stem}.2.mlir", "-o", f"{stem}.2.hlo"],
        ]
        for step in steps:
            r = run(a.translate, step)
            if r.returncode != 0:
                failed.append((f.name, " ".join(step[:1]), r.stderr[:500]))
                break
        else:
            if (pathlib.Path(f"{stem}.1.hlo").read_text() !=
                    pathlib.Path(f"{stem}.2.hlo").read_text()):
                failed.append((f.name, "fixed point", "exports differ"))
    for name, step, why in failed:
        print(f"FAIL {name} ({step}): {why}")
    print(f"{len(files) - len(failed)} passed, {len(failed)} failed")
    if not files:
        print("no .hlo files found")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
