# -*- Python -*-
import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "HLO"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".hlo", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs", "xla", "roundtrip.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.hlo_obj_root, "test")

llvm_config.with_system_environment(["HOME", "PATH", "PYTHONPATH"])
llvm_config.use_default_substitutions()

# Third-party HLO text shipped beside the project (never copied into it).
corpus = os.path.normpath(os.path.join(config.hlo_src_root, "..", "shared",
                                       "corpus", "hlo"))
config.substitutions.append(("%corpus", corpus))
config.substitutions.append(("%python", shutil.which("python3") or "python3"))
config.substitutions.append(("%srcroot", config.hlo_src_root))
if os.path.isdir(corpus):
    config.available_features.add("corpus")
try:
    import jax._src.lib.hlo  # noqa: F401
    config.available_features.add("jaxlib")
except Exception:
    pass

tool_dirs = [config.hlo_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["hlo-opt", "hlo-translate"], tool_dirs)
