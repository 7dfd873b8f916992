#!/usr/bin/env bash
# Builds what is missing and runs the whole test suite (lit + gtest).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
status=0
cmake --build build --target check-hlo 2>&1 | tee build/check-hlo.log || status=$?
# One closing line in the plain 'N passed, N failed' form.
passed=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' build/check-hlo.log | tail -1)
failed=$(sed -n 's/^ *Failed *: *\([0-9]*\).*/\1/p' build/check-hlo.log | tail -1)
unsupported=$(sed -n 's/^ *Unsupported *: *\([0-9]*\).*/\1/p' build/check-hlo.log | tail -1)
echo "${passed:-0} passed, ${failed:-0} failed, ${unsupported:-0} skipped"
exit $status
