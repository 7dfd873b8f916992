#!/usr/bin/env bash
# Configures (once) and builds the project into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/build.ninja ]; then
  cmake -G Ninja -S . -B build \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi
cmake --build build
