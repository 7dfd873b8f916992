"""Runs `hlo-translate --hlo-to-hlo` on every .hlo file of a folder and
checks that each is rejected cleanly: exit status 1 and a `file:line:col:
error:` diagnostic, never a crash (fuzzer reproducers live in fuzz/crashes)."""
import pathlib
import re
import subprocess
import sys

translate, folder = sys.argv[1], pathlib.Path(sys.argv[2])
files = sorted(folder.glob("*.hlo"))
bad = []
for f in files:
    r = subprocess.run([translate, "--hlo-to-hlo", str(f), "-o", "/dev/null"],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 1 or not re.search(r"\.hlo:\d+:\d+: error: ", r.stderr):
        bad.append(f"{f.name}: exit {r.returncode}: {r.stderr[:200]}")
for b in bad:
    print("FAIL", b)
print(f"{len(files) - len(bad)} passed, {len(bad)} failed")
sys.exit(1 if bad or not files else 0)
