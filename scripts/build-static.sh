#!/usr/bin/env bash
# Builds hlo-run, hlo-opt and the unit tests with LLVM, OpenBLAS and
# libstdc++ linked statically (HLO_STATIC_LLVM) into build-static/, stripped
# copies in build-static/pack/{bin,unittests}: programs that run on any
# x86-64 Linux with glibc 2.36 or later, zlib and zstd, such as a GPU
# machine without LLVM 22 (docs/cuda.md). The CUDA driver and cuBLASLt are
# opened at run time from the machine's own installation.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build-static/build.ninja ]; then
  cmake -G Ninja -S . -B build-static \
    -DCMAKE_BUILD_TYPE=Release -DHLO_STATIC_LLVM=ON \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi
cmake --build build-static --target hlo-run hlo-opt HloUnitTests
mkdir -p build-static/pack/bin build-static/pack/unittests
for tool in hlo-run hlo-opt; do
  strip -o build-static/pack/bin/$tool build-static/bin/$tool
done
strip -o build-static/pack/unittests/HloUnitTests \
  build-static/unittests/HloUnitTests
