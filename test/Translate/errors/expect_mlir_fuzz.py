"""Runs the MLIR fuzzer's reproducers (fuzz/crashes/mlir/*.mlir) through
`hlo-opt` (parse, verify, print) and `hlo-translate --mlir-to-hlo` (parse,
verify, export). The first line of each file says what must happen:

  // expect: error   both tools exit with status 1 and an `error:` diagnostic
  // expect: export-error
                     valid IR (hlo-opt succeeds) that HLO text cannot hold:
                     hlo-translate exits with status 1 and a diagnostic
  // expect: ok      both succeed, and the exported HLO text imports again
                     (`hlo-translate --hlo-to-hlo`)

Never a crash."""
import pathlib
import subprocess
import sys

opt, translate, folder = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
files = sorted(folder.glob("*.mlir"))
bad = []


def run(cmd, text=None):
    return subprocess.run(cmd, input=text, capture_output=True, text=True,
                          errors="replace", timeout=120)


for f in files:
    # Reproducers may hold bytes that are not UTF-8 (a fuzzed name).
    lines = f.read_bytes().decode("utf-8", "replace").splitlines()
    first = lines[0] if lines else ""
    expect = first.removeprefix("// expect:").strip()
    if expect not in ("error", "export-error", "ok"):
        bad.append(f"{f.name}: no `// expect: error|export-error|ok` first line")
        continue
    runs = [run([opt, str(f), "-o", "/dev/null"]),
            run([translate, "--mlir-to-hlo", str(f)])]
    for i, r in enumerate(runs):
        if expect == "error" or (expect == "export-error" and i == 1):
            if r.returncode != 1 or " error: " not in r.stderr:
                bad.append(f"{f.name}: {r.args[0]}: exit {r.returncode}: "
                           f"{r.stderr[:300]}")
        elif r.returncode != 0:
            bad.append(f"{f.name}: {r.args[0]}: exit {r.returncode}: "
                       f"{r.stderr[:300]}")
    if expect == "ok" and runs[1].returncode == 0:
        r = run([translate, "--hlo-to-hlo", "-", "-o", "/dev/null"],
                runs[1].stdout)
        if r.returncode != 0:
            bad.append(f"{f.name}: its export does not import: exit "
                       f"{r.returncode}: {r.stderr[:300]}")
for b in bad:
    print("FAIL", b)
print(f"{len(files)} files, {len(bad)} failures")
sys.exit(1 if bad or not files else 0)
