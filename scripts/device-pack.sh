#!/usr/bin/env bash
# Packs what scripts/device-check.sh needs on a lent GPU machine into
# .gpu-carry/ (ignored by git; the device tool's `carry`): the static tools
# and unit tests (scripts/build-static.sh), LLVM's FileCheck, `not` and
# `count`, lit, and the HLO corpus (../shared/corpus/hlo). Debian's
# FileCheck names libz3 but uses none of it: an empty library of that name
# stands in (the real one would not fit the carry's 64 MiB).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-static.sh
grep -qx '/.gpu-carry/' .git/info/exclude 2>/dev/null ||
  echo '/.gpu-carry/' >> .git/info/exclude
stage=build-static/carry
chmod -R u+w .gpu-carry 2>/dev/null || true
rm -rf "$stage" .gpu-carry
mkdir -p "$stage/llvm/bin" "$stage/llvm/lib" .gpu-carry
cp -r build-static/pack/bin build-static/pack/unittests "$stage/"
cp /usr/lib/llvm-22/bin/FileCheck /usr/lib/llvm-22/bin/not /usr/lib/llvm-22/bin/count \
  "$stage/llvm/bin/"
z3=$(ldd /usr/lib/llvm-22/bin/FileCheck | awk '/libz3/ {print $1}')
if [ -n "$z3" ]; then
  echo 'void hlo_empty_z3(void) {}' | cc -shared -x c - -o "$stage/llvm/lib/$z3" \
    -Wl,-soname,"$z3"
fi
cp -r /usr/lib/llvm-22/utils/lit "$stage/lit"
tar -C "$stage" -cf - . | xz -9 -T2 > .gpu-carry/tools.tar.xz
# The third-party HLO corpus beside the checkout, if there is one.
if [ -d ../shared/corpus/hlo ]; then
  cp -r ../shared/corpus/hlo .gpu-carry/corpus && chmod -R u+w .gpu-carry/corpus
fi
ls -l .gpu-carry/tools.tar.xz
