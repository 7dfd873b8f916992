#!/usr/bin/env bash
# Runs on a lent GPU machine, from the repository root, with .gpu-carry/
# carried (scripts/device-pack.sh): the CUDA tests (lit's cuda-device tests
# and the CUDA unit tests), bench/cuda_vs_xla.py and bench/gpu_bandwidth.py.
# Logs go to $OUT (the device tool's folder) or ./gpu-out.
#
#   device run: scripts/device-check.sh [lit|unit|bench|bandwidth|corpus]...
#   (default: all; corpus needs .gpu-carry/corpus, which device-pack.sh
#   copies from ../shared/corpus/hlo)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/gpu-out}
mkdir -p "$out"
tools=$PWD/build-device
rm -rf "$tools" && mkdir -p "$tools" && tar -C "$tools" -xJf .gpu-carry/tools.tar.xz
export LD_LIBRARY_PATH="$tools/llvm/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# cuBLASLt and cuDNN: the system's, else the CUDA wheels' that PyTorch and
# JAX use.
wheels=$(python3 -c 'import nvidia, os; print(os.path.dirname(nvidia.__path__[0]))' 2>/dev/null)
if ! ldconfig -p | grep -q 'libcublasLt.so.13' &&
   [ ! -e /usr/local/cuda/lib64/libcublasLt.so.13 ]; then
  export HLO_CUBLASLT_LIBRARY=$(find "${wheels:-/usr}" -name 'libcublasLt.so.13*' 2>/dev/null | head -1)
fi
if ! ldconfig -p | grep -q 'libcudnn.so.9' &&
   [ ! -e /usr/local/cuda/lib64/libcudnn.so.9 ]; then
  export HLO_CUDNN_LIBRARY=$(find "${wheels:-/usr}" -name 'libcudnn.so.9*' 2>/dev/null | head -1)
fi
{ nvidia-smi; echo "HLO_CUBLASLT_LIBRARY=${HLO_CUBLASLT_LIBRARY:-}";
  echo "HLO_CUDNN_LIBRARY=${HLO_CUDNN_LIBRARY:-}";
  "$tools/bin/hlo-run" --list-devices; } 2>&1 | tee "$out/device.txt"
steps=${*:-lit unit bench bandwidth corpus}
status=0
for step in $steps; do
  case $step in
  lit)
    # lit over the source tree's tests, configured for the carried tools.
    mkdir -p "$tools/build/test"
    cat > "$tools/build/test/lit.site.cfg.py" <<CFG
config.llvm_tools_dir = "$tools/llvm/bin"
config.hlo_obj_root = "$tools/build"
config.hlo_tools_dir = "$tools/bin"
config.hlo_src_root = "$PWD"
config.cmake = "cmake"
config.cmake_generator = "Ninja"
config.cmake_make_program = "ninja"
config.cxx_compiler = "c++"
config.cxx_compiler_launcher = ""
config.cmake_build_type = "Release"
import lit.llvm
lit.llvm.initialize(lit_config, config)
lit_config.load_config(config, "$PWD/test/lit.cfg.py")
CFG
    mkdir -p "$tools/build/unittests"
    ln -sf "$tools/unittests/HloUnitTests" "$tools/build/unittests/HloUnitTests"
    PYTHONPATH="$tools/lit" python3 -c 'import sys; from lit.main import main; sys.argv[0] = "lit"; main()' -v \
      "$tools/build/test/Runtime/hlo-run-cuda.test" \
      "$tools/build/test/Runtime/hlo-run-cuda-unavailable.test" \
      "$tools/build/test/Runtime/hlo-run-host.test" 2>&1 | tee "$out/lit.log"
    [ "${PIPESTATUS[0]}" = 0 ] || status=1 ;;
  unit)
    "$tools/unittests/HloUnitTests" --gtest_filter='CudaRuntimeTest.*' \
      2>&1 | tail -40 | tee "$out/unit.log"
    [ "${PIPESTATUS[0]}" = 0 ] || status=1 ;;
  bench)
    PYTHONUNBUFFERED=1 python3 bench/cuda_vs_xla.py --bin "$tools/bin" \
      --markdown 2>&1 | tee "$out/bench.md"
    [ "${PIPESTATUS[0]}" = 0 ] || status=1 ;;
  bandwidth)
    PYTHONUNBUFFERED=1 python3 bench/gpu_bandwidth.py --bin "$tools/bin" \
      --markdown 2>&1 | tee "$out/bandwidth.md"
    [ "${PIPESTATUS[0]}" = 0 ] || status=1 ;;
  corpus)
    PYTHONUNBUFFERED=1 python3 bench/corpus_on_device.py --bin "$tools/bin" \
      --device cuda --jobs 8 --timeout 120 .gpu-carry/corpus 2>&1 |
      tee "$out/corpus.log"
    [ "${PIPESTATUS[0]}" = 0 ] || status=1 ;;
  esac
done
exit $status
