# -*- Python -*-
import os
import re
import shlex
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "HLO"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".hlo", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs", "xla", "roundtrip.py",
                   "split_hlo.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.hlo_obj_root, "test")

llvm_config.with_system_environment(["HOME", "PATH", "PYTHONPATH"])
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.use_default_substitutions()

# Third-party HLO text shipped beside the project (never copied into it):
# $HLO_CORPUS_DIR when set, else ../shared/corpus/hlo beside the source tree.
# Without it the tests that need the corpus are unsupported.
corpus = os.path.normpath(
    os.environ.get("HLO_CORPUS_DIR")
    or os.path.join(config.hlo_src_root, "..", "shared", "corpus", "hlo"))
config.substitutions.append(("%corpus", corpus))
# The interpreter itself, not a launcher shim, so that RUN lines (which see
# a reduced environment) get the one with the project's Python packages.
import subprocess
python = shutil.which("python3") or "python3"
try:
    python = subprocess.run([python, "-c", "import sys; print(sys.executable)"],
                            capture_output=True, text=True).stdout.strip() or python
except OSError:
    pass
# Ahead of lit.llvm's own %python (the interpreter running lit).
config.substitutions.insert(0, ("%python", python))
config.substitutions.append(("%srcroot", config.hlo_src_root))
# %split-hlo FILE PREFIX: FILE's `// -----` chunks as PREFIX.N.hlo.
config.substitutions.append(
    ("%split-hlo", python + " " + os.path.join(config.test_source_root,
                                               "split_hlo.py")))
config.substitutions.append(("%objroot", config.hlo_obj_root))
# %cmake and the arguments that configure a downstream project like this
# build (test/Downstream).
config.substitutions.append(("%cmake", shlex.quote(config.cmake)))
downstream_args = [
    "-G", config.cmake_generator,
    "-DCMAKE_MAKE_PROGRAM=" + config.cmake_make_program,
    "-DCMAKE_CXX_COMPILER=" + config.cxx_compiler,
    "-DCMAKE_BUILD_TYPE=" + (config.cmake_build_type or "Release"),
]
if config.cxx_compiler_launcher:
    downstream_args.append("-DCMAKE_CXX_COMPILER_LAUNCHER=" +
                           config.cxx_compiler_launcher)
config.substitutions.append(
    ("%downstream_cmake_args", " ".join(shlex.quote(a) for a in downstream_args)))
if os.path.isdir(corpus):
    config.available_features.add("corpus")
# lit may run under another Python than the one with jax: ask that one.
if subprocess.run([python, "-c", "from jax._src.lib import hlo"],
                  capture_output=True).returncode == 0:
    config.available_features.add("jaxlib")
# A GPU the CUDA runtime can use (hlo-run --list-devices): tests that run
# on it REQUIRE cuda-device; the tests of its absence are UNSUPPORTED there.
hlo_run = os.path.join(config.hlo_tools_dir, "hlo-run")
try:
    devices = subprocess.run([hlo_run, "--list-devices"], capture_output=True,
                             text=True, timeout=60).stdout
except (OSError, subprocess.TimeoutExpired):
    devices = ""
if any(l.startswith("cuda: ") and not l.startswith("cuda: unavailable")
       for l in devices.splitlines()):
    config.available_features.add("cuda-device")
# Several GPUs ("device 0 of N"): the NCCL tests of programs on N devices.
several = re.search(r"device 0 of (\d+)", devices)
for n in (2, 4):
    if several and int(several.group(1)) >= n:
        config.available_features.add("cuda-devices-%d" % n)
# NVIDIA's assembler checks the PTX the kernels lower to.
ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
if os.access(ptxas, os.X_OK):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
# NVIDIA's nvJitLink library, the in-process PTX assembler hlo-embed-ptx
# prefers: in the toolkit, or where the dynamic loader finds it.
cuda_home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH") or \
    "/usr/local/cuda"
if any(os.path.exists(os.path.join(cuda_home, d, "libnvJitLink.so"))
       for d in ("lib64", "lib")) or "libnvJitLink.so" in subprocess.run(
           ["ldconfig", "-p"], capture_output=True, text=True).stdout:
    config.available_features.add("nvjitlink")
# libdevice (the CUDA toolkit's math library) for PTX calling exp, tanh, ...
cuda = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH") or \
    "/usr/local/cuda"
if os.path.isfile(os.path.join(cuda, "nvvm", "libdevice",
                               "libdevice.10.bc")):
    config.available_features.add("libdevice")
# numpy (and ml_dtypes' bfloat16) for the .npy tests of hlo-run.
if subprocess.run([python, "-c", "import numpy, ml_dtypes"],
                  capture_output=True).returncode == 0:
    config.available_features.add("numpy")

# Graphviz draws the SVG of --hlo-view=svg|html; a headless Chromium opens
# the HTML page (test/View).
if shutil.which("dot"):
    config.available_features.add("graphviz")
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if chromium:
    config.available_features.add("chromium")
    config.substitutions.append(("%chromium", chromium))

from lit.llvm.subst import ToolSubst
tool_dirs = [config.hlo_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(
    ["hlo-opt", "hlo-translate",
     # Not inside file names such as test/Runtime/hlo-run-errors.test.
     ToolSubst("hlo-run", pre="-/.", post="-.")], tool_dirs)
config.substitutions.append(("%hlo_unittests", os.path.join(config.hlo_obj_root, "unittests", "HloUnitTests")))
