"""Usage: HLO_OPT FOLDER... Runs HLO_OPT --hlo-test-print-indexing on every
.hlo file of the folders; fails (naming the files) when any run exits
non-zero."""
import glob
import os
import subprocess
import sys

failures = []
hlo_opt = sys.argv[1]
files = sorted(f for folder in sys.argv[2:]
               for f in glob.glob(os.path.join(folder, "*.hlo")))
for path in files:
    run = subprocess.run([hlo_opt, path, "--hlo-test-print-indexing",
                          "-o", os.devnull],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    if run.returncode != 0:
        failures.append(f"{path}: exit {run.returncode}\n{run.stderr[-2000:]}")
print(f"{len(files) - len(failures)} / {len(files)} modules")
if failures or not files:
    print("\n".join(failures) or "no modules found")
    sys.exit(1)
