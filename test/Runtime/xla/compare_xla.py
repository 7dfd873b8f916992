#!/usr/bin/env python3
"""XLA as the oracle of the reference interpreter (hlo-run).

For each HLO module (files, or the *.hlo of directories):
  1. XLA parses it; modules XLA cannot run on one CPU device, or that hlo-run
     cannot be given inputs for, are SKIPped with the reason (custom-calls,
     host transfers, tuple/token/dynamic parameters, too large, XLA refuses
     to compile it ...);
  2. random inputs are drawn (fixed seed per module; floats uniform in
     [-1, 1), signed integers in [-8, 8], unsigned in [0, 16], pred 0/1,
     unless the module's manifest entry says otherwise: index ranges,
     positive values ...) and written as .npy files;
  3. XLA CPU runs the module. Fusions become calls first: XLA's CPU
     compiler wants the backend configs it writes itself, so an optimized
     module goes through XLA's pipeline again as plain HLO; for XLA's own
     optimized output the manifest names the program's unoptimized module
     as `xla_reference`. A module whose collectives address several
     replicas or partitions runs on that many CPU devices (at most 8), each
     with the same inputs, and hlo-run gets the same --replicas /
     --partitions; the first device's results are compared;
  4. `hlo-run MODULE --input ... --output-dir D` runs it on the interpreter
     (or, with --device=host, compiled by the GPU compiler and run by the
     host runtime, with --allow-excess-precision=false as XLA below);
  5. the results are compared per dtype: integers and pred exactly, f32
     |a-b| <= 1e-6 + 1e-5 max(|a|,|b|), f16/bf16/f8 looser (TOLERANCES);
     NaN matches NaN. XLA runs with --xla_allow_excess_precision=false, so
     that it rounds f16/bf16 results after every op as HLO says.

Modules listed in the expected-failures file (`NAME reason`, one a line)
are XFAIL when they fail and XPASS (an error: remove them from the list)
when they match. Prints one line per module and last
`N matched / M; X expected failures, S skipped, F failed` (M = modules
run); exits 1 on a failure or an XPASS.

Usage: compare_xla.py --runner PATH/hlo-run [--device host] [--manifest M.json]
                      [--expected-failures F]... [--report R.md]
                      [--timeout S] [--max-elements N] FILES_OR_DIRS...
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("JAX_PLATFORMS", "cpu")
# 64-bit inputs (u64, f64, s64) must reach XLA as they are.
os.environ.setdefault("JAX_ENABLE_X64", "1")
# HLO semantics round every op's result to its type; by default XLA's CPU
# compiler keeps f16/bf16 chains in f32 ("excess precision"), which is not
# what the module says.
# Eight CPU devices for modules with collectives over several replicas or
# partitions.
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                           " --xla_allow_excess_precision=false"
                           " --xla_force_host_platform_device_count=8").strip()
MAX_DEVICES = 8

import jax  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from jax._src.lib import _jax, hlo  # noqa: E402
from jax._src.lib import xla_client as xc  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec  # noqa: E402

# (atol, rtol) per result dtype; integers and pred compare exactly.
TOLERANCES = {
    "float64": (1e-12, 1e-12),
    "float32": (1e-6, 1e-5),
    "complex128": (1e-12, 1e-12),
    "complex64": (1e-6, 1e-5),
    # About two units in the last place (transcendentals: XLA computes in
    # f32 and rounds, the interpreter in f64 and rounds).
    "float16": (1e-3, 2e-3),
    "bfloat16": (8e-3, 1.6e-2),
}
# f8 / f6 / f4 types: a few units in the last place.
NARROW_FLOAT_TOLERANCE = (0.25, 0.25)

# Opcodes that make a module unrunnable here, with the reason.
UNRUNNABLE = {
    "custom-call": "custom-call",
    "infeed": "host transfer (infeed)",
    "outfeed": "host transfer (outfeed)",
    "send": "host transfer (send)",
    "recv": "host transfer (recv)",
    "send-done": "host transfer (send)",
    "recv-done": "host transfer (recv)",
    # Random numbers whose values are the implementation's choice.
    "rng": "rng (values are implementation-defined)",
    "rng-get-and-update-state": "rng state (values are implementation-defined)",
}


# Custom calls that are not skipped: JAX's linear algebra on XLA CPU (LAPACK,
# which XLA CPU runs) and on XLA GPU (cuSOLVER, cuSPARSE), XLA's own QR
# and Eigh calls (which XLA CPU expands with its QrExpander and
# EighExpander), and JAX's memory
# placements (a module of `.cuda.hlo` whose manifest entry names its CPU
# lowering as the reference XLA runs).
RUNNABLE_CUSTOM_CALL = re.compile(
    r"lapack_[sdcz]\w+_ffi|annotate_device_placement|"
    r"cusolver_(getrf|potrf|geqrf|orgqr|syevd|sytrd|gesvdj?|geev)_ffi|"
    r"cusparse_gtsv2_ffi|cu_lu_pivots_to_permutation|cuhybrid_eig_(real|comp)|"
    r"Qr|ProductOfElementaryHouseholderReflectors|Eigh")
CUSTOM_CALL_TARGET = re.compile(r'custom_call_target="([^"]*)"')

# `constant({...})`: XLA's printer left the data out; its parser makes some up.
ELIDED_CONSTANT = re.compile(r"constant\(\{\.\.\.\}\)")


class Skip(Exception):
    pass


def first_line(message):
    lines = [l.strip() for l in str(message).splitlines() if l.strip()]
    useful = [l for l in lines if "error" in l.lower()] or lines
    return (useful[0] if useful else "(no message)")[:240]


#===----------------------------------------------------------------------===#
# XLA
#===----------------------------------------------------------------------===#

def end_of_string(text, k):
    """The index after the quoted string starting at text[k] (escapes)."""
    k += 1
    while text[k] != '"':
        k += 2 if text[k] == "\\" else 1
    return k + 1


def strip_attribute(text, name, keep=()):
    """Removes `, name=VALUE` (VALUE a quoted string or balanced braces),
    except on the lines that contain one of `keep`."""
    out, i, key = [], 0, ", " + name + "="
    while True:
        j = text.find(key, i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:j])
        k = j + len(key)
        end = text.find("\n", j)
        line = text[text.rfind("\n", 0, j) + 1:end if end >= 0 else len(text)]
        if any(k in line for k in keep):
            out.append(key)
            i = k
            continue
        if text[k] == '"':
            k = end_of_string(text, k)
        elif text[k] == "{":
            depth = 0
            while True:
                c = text[k]
                if c == '"':
                    k = end_of_string(text, k) - 1
                elif c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                    if depth == 0:
                        k += 1
                        break
                k += 1
        else:
            k = re.compile(r"[,\n]").search(text, k).start()
        i = k


def defuse(text):
    """Fusions as calls of the fused computations, without backend configs:
    XLA's CPU compiler rejects fusions it did not make itself. Typed FFI
    calls keep theirs: it holds the handler's attributes; so do XLA's Eigh
    calls (their options)."""
    text = strip_attribute(text, "backend_config",
                           keep=("API_VERSION_TYPED_FFI",
                                 'custom_call_target="Eigh"'))
    text = re.sub(r"\bfusion\(", "call(", text)
    text = re.sub(r"\bkind=k\w+,\s*calls=", "to_apply=", text)
    return text


COLLECTIVE = re.compile(
    r"\b(all-reduce|all-gather|all-to-all|reduce-scatter|collective-permute|"
    r"collective-broadcast|ragged-all-to-all)(-start)?\(")


def devices_needed(text):
    """(replicas, partitions) the collectives of a module address: device
    ids in replica_groups / source_target_pairs, read as replica ids
    without channel_id or with use_global_device_ids=true, else as
    partition ids (XLA's group modes). The header's num_partitions is not
    used: with sharding annotations it describes an SPMD program, whose
    devices each compute a shard."""
    replicas = partitions = 1
    for line in text.splitlines():
        if not COLLECTIVE.search(line):
            continue
        count = 0
        m = re.search(r"replica_groups=\[[\d,]+\]<=\[([\d,]+)\]", line)
        if m:
            count = int(np.prod([int(d) for d in m.group(1).split(",")]))
        for key in ("replica_groups", "source_target_pairs"):
            m = re.search(key + r"=(\{[\d,{} ]*\})", line)
            if m:
                ids = [int(i) for i in re.findall(r"\d+", m.group(1))]
                count = max([count] + [i + 1 for i in ids])
        if not count:
            continue
        cross_partition = "channel_id=" in line and \
            "use_global_device_ids=true" not in line
        if cross_partition:
            partitions = max(partitions, count)
        else:
            replicas = max(replicas, count)
    return replicas, partitions


class Xla:
    def __init__(self):
        self.backend = jax.devices("cpu")[0].client
        self.device = self.backend.local_devices()[0]
        # XLA CPU's LAPACK calls find their routines (scipy's) once JAX has
        # set them up, as it does for the modules it exports and reloads.
        from jax._src.lax import linalg
        linalg.initialize_lapack()

    def compile(self, text, replicas=1, partitions=1):
        module = hlo.hlo_module_from_text(defuse(text))
        stablehlo = _jax.mlir.hlo_to_stablehlo(
            module.as_serialized_hlo_module_proto())
        options = xc.CompileOptions()
        count = replicas * partitions
        if count > 1:
            options.num_replicas = replicas
            options.num_partitions = partitions
            options.device_assignment = xc.DeviceAssignment.create(
                np.arange(count, dtype=np.int32).reshape(replicas, partitions))
            # XLA CPU runs several partitions only as SPMD programs; without
            # sharding annotations every instruction stays replicated.
            options.executable_build_options.use_spmd_partitioning = \
                partitions > 1
        devices = self.backend.local_devices()[:count]
        executable = self.backend.compile_and_load(
            stablehlo, xc.DeviceList(tuple(devices)), options)
        return executable, devices

    def run(self, compiled, arguments):
        """The results of the first device (every device gets the same
        arguments)."""
        executable, devices = compiled
        if len(devices) == 1:
            buffers = [jax.device_put(a, self.device) for a in arguments]
            return [np.asarray(r) for r in executable.execute(buffers)]
        mesh = Mesh(np.array(devices), ("d",))
        replicated = NamedSharding(mesh, PartitionSpec())
        buffers = [jax.device_put(a, replicated) for a in arguments]
        results = executable.execute_sharded(buffers)
        return [np.asarray(shards[0]) for shards in
                results.disassemble_into_single_device_arrays()]


#===----------------------------------------------------------------------===#
# Inputs
#===----------------------------------------------------------------------===#

def opcodes(module):
    for computation in module.computations():
        for instruction in computation.instructions():
            yield instruction


def check_runnable(module, text):
    for instruction in opcodes(module):
        name = instruction.opcode.name  # kCustomCall
        spelled = re.sub(r"(?<!^)([A-Z])", r"-\1", name[1:]).lower()
        if spelled == "custom-call" and all(
                RUNNABLE_CUSTOM_CALL.fullmatch(target)
                for target in CUSTOM_CALL_TARGET.findall(text)):
            continue
        if spelled in UNRUNNABLE:
            raise Skip(UNRUNNABLE[spelled])


def draw(shape, rng, spec):
    dtype = np.dtype(shape.numpy_dtype())
    dims = tuple(shape.dimensions())
    if spec and "int" in spec:
        low, high = spec["int"]
        return rng.integers(low, high, size=dims, endpoint=True,
                            dtype=np.int64).astype(dtype)
    if spec and "uniform" in spec:
        low, high = spec["uniform"]
        return rng.uniform(low, high, size=dims).astype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=dims).astype(np.bool_)
    if np.issubdtype(dtype, np.complexfloating):
        return (rng.uniform(-1, 1, size=dims) +
                1j * rng.uniform(-1, 1, size=dims)).astype(dtype)
    if dtype.kind == "i" or dtype.name.startswith("int"):
        return rng.integers(-8, 8, size=dims, endpoint=True).astype(dtype)
    if dtype.kind == "u" or dtype.name.startswith("uint"):
        return rng.integers(0, 16, size=dims, endpoint=True).astype(dtype)
    # f16 f32 f64 bf16 f8 ...: uniform in [-1, 1), rounded to the type.
    return rng.uniform(-1, 1, size=dims).astype(np.float32).astype(dtype)


def make_inputs(name, module, entry, max_elements):
    computation = hlo.XlaComputation(module.as_serialized_hlo_module_proto())
    shapes = computation.program_shape().parameter_shapes()
    specs = (entry or {}).get("inputs") or [None] * len(shapes)
    if len(specs) != len(shapes):
        raise RuntimeError(f"manifest lists {len(specs)} inputs, the module "
                           f"has {len(shapes)} parameters")
    total = 0
    for i, shape in enumerate(shapes):
        if shape.is_tuple() or shape.is_token():
            raise Skip(f"parameter {i} is a tuple or token (no .npy form)")
        if shape.is_dynamic():
            raise Skip(f"parameter {i} has a dynamic shape")
        total += int(np.prod(shape.dimensions(), dtype=np.int64))
    if total > max_elements:
        raise Skip(f"{total} input elements (limit {max_elements})")
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return [draw(s, rng, spec) for s, spec in zip(shapes, specs)]


#===----------------------------------------------------------------------===#
# Comparison
#===----------------------------------------------------------------------===#

def tolerance_for(dtype, entry):
    atol, rtol = TOLERANCES.get(dtype.name, NARROW_FLOAT_TOLERANCE)
    if entry:
        atol = entry.get("atol", atol)
        rtol = entry.get("rtol", rtol)
    return atol, rtol


def is_float(dtype):
    # ml_dtypes' types (bfloat16, float8_*) have kind 'V'.
    return dtype.kind in "fc" or dtype.name.startswith("float") or \
        dtype.name == "bfloat16"


def compare_array(ours, ref, entry):
    """(ok, max abs diff, max rel diff, first mismatch text)."""
    if ours.dtype != ref.dtype:
        if ours.dtype.kind == "V" and ours.dtype.itemsize == ref.dtype.itemsize:
            ours = ours.view(ref.dtype)  # bf16, f8: raw bytes in the .npy
        elif ref.dtype.name in ("int4", "uint4", "int2", "uint2") and \
                ours.dtype.kind in "iu":
            pass  # sub-byte integers come back as int8/uint8 values
        else:
            return False, 0, 0, f"dtype {ours.dtype} vs XLA's {ref.dtype}"
    if ours.shape != ref.shape:
        return False, 0, 0, f"shape {ours.shape} vs XLA's {ref.shape}"
    if not is_float(ref.dtype):
        a, b = ours.astype(np.int64), ref.astype(np.int64)
        bad = np.flatnonzero(a != b)
        diff = float(np.max(np.abs(a - b))) if a.size else 0.0
        if bad.size:
            i = np.unravel_index(bad[0], a.shape)
            return False, diff, 0, (f"{bad.size} elements differ, first at "
                                    f"{list(map(int, i))}: {a[i]} vs XLA's {b[i]}")
        return True, 0, 0, ""
    atol, rtol = tolerance_for(ref.dtype, entry)
    wide = np.complex128 if np.issubdtype(ref.dtype, np.complexfloating) \
        else np.float64
    a, b = ours.astype(wide), ref.astype(wide)
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    same = (a == b) | (nan_a & nan_b)
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.where(same, 0.0, np.abs(a - b))
        err = np.where(np.isnan(err), np.inf, err)
        scale = np.maximum(np.abs(a), np.abs(b))
        scale = np.where(np.isnan(scale), np.inf, scale)
        rel = np.where(err == 0, 0.0,
                       np.where((scale == 0) | np.isinf(scale), np.inf,
                                err / np.where(scale == 0, 1, scale)))
        bad = ~same & ~(np.isfinite(err) & (err <= atol + rtol * scale))
    max_abs = float(err.max()) if err.size else 0.0
    max_rel = float(rel.max()) if rel.size else 0.0
    if bad.any():
        flat = np.flatnonzero(bad)
        i = np.unravel_index(flat[0], a.shape)
        return False, max_abs, max_rel, (
            f"{flat.size} elements beyond atol {atol:g} rtol {rtol:g}, first "
            f"at {list(map(int, i))}: {a[i]} vs XLA's {b[i]}")
    return True, max_abs, max_rel, ""


#===----------------------------------------------------------------------===#
# Driver
#===----------------------------------------------------------------------===#

def run_interpreter(runner, path, inputs, workdir, timeout, devices=(1, 1),
                    device="interpreter", extra=()):
    args = [runner, str(path), f"--replicas={devices[0]}",
            f"--partitions={devices[1]}", f"--device={device}", *extra]
    if device != "interpreter":
        args.append("--allow-excess-precision=false")
    for i, value in enumerate(inputs):
        file = workdir / f"input_{i}.npy"
        np.save(file, value, allow_pickle=False)
        args.append(f"--input={file}")
    out = workdir / "out"
    args += ["--output-dir", str(out)]
    start = time.perf_counter()
    try:
        proc = subprocess.run(args, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"hlo-run timed out after {timeout} s")
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        message = proc.stderr.strip().splitlines()
        errors = [l for l in message if "error" in l] or message or \
            [f"exit status {proc.returncode}"]
        raise RuntimeError("hlo-run: " + errors[-1][:300].replace(
            "hlo-run: error: ", ""))
    results = []
    while (out / f"result_{len(results)}.npy").exists():
        results.append(np.load(out / f"result_{len(results)}.npy"))
    return results, seconds


def flatten_xla(results):
    flat = []
    for r in results:
        if isinstance(r, (list, tuple)):
            flat.extend(flatten_xla(r))
        else:
            flat.append(r)
    return flat


def check_module(path, xla, runner, manifest, options):
    """Returns (status PASS/FAIL/SKIP, detail, seconds of hlo-run)."""
    name = path.stem
    entry = manifest.get(name)
    text = path.read_text()
    try:
        module = hlo.hlo_module_from_text(text)
    except Exception as e:  # noqa: BLE001 - jaxlib raises its own types
        raise Skip("XLA cannot parse it: " + first_line(e))
    check_runnable(module, text)
    if ELIDED_CONSTANT.search(text):
        raise Skip("elided constants ({...}): the values are not in the text")
    inputs = make_inputs(name, module, entry, options.max_elements)
    reference = text
    if entry and entry.get("xla_reference"):
        reference = (path.parent / entry["xla_reference"]).read_text()
    devices = devices_needed(text)
    if devices[0] * devices[1] > MAX_DEVICES:
        raise Skip(f"needs {devices[0]} replicas x {devices[1]} partitions "
                   f"(more than {MAX_DEVICES} devices)")
    try:
        executable = xla.compile(reference, *devices)
        expected = flatten_xla(xla.run(executable, inputs))
    except Exception as e:  # noqa: BLE001
        raise Skip("XLA CPU cannot run it: " + first_line(e))
    with tempfile.TemporaryDirectory(prefix="hlo-oracle-") as tmp:
        try:
            ours, seconds = run_interpreter(runner, path, inputs, Path(tmp),
                                            options.timeout, devices,
                                            options.device,
                                            options.runner_arg)
        except RuntimeError as e:
            return "FAIL", str(e), 0.0
    if len(ours) != len(expected):
        return "FAIL", (f"{len(ours)} results, XLA has {len(expected)}"), seconds
    worst_abs = worst_rel = 0.0
    for i, (a, b) in enumerate(zip(ours, expected)):
        ok, max_abs, max_rel, why = compare_array(a, b, entry)
        worst_abs, worst_rel = max(worst_abs, max_abs), max(worst_rel, max_rel)
        if not ok:
            return "FAIL", f"result {i} ({b.dtype}{list(b.shape)}): {why}", seconds
    return "PASS", (f"max abs diff {worst_abs:.3g}, max rel diff "
                    f"{worst_rel:.3g}"), seconds


def read_expected_failures(paths):
    expected = {}
    for path in paths or []:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, _, reason = line.partition(" ")
            expected[name.removesuffix(".hlo")] = reason.strip()
    return expected


def collect(paths):
    files = []
    for p in map(Path, paths):
        files.extend(sorted(p.glob("*.hlo")) if p.is_dir() else [p])
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runner", required=True, help="path to hlo-run")
    parser.add_argument("--manifest", type=Path,
                        help="input draws and tolerances per module "
                             "(default: manifest.json beside the modules)")
    parser.add_argument("--expected-failures", type=Path, action="append",
                        help="a file of expected failures (repeatable)")
    parser.add_argument("--report", type=Path, help="write a markdown table")
    parser.add_argument("--device", default="interpreter",
                        help="hlo-run's --device: interpreter (default), "
                             "host (the GPU compiler's thunk program on "
                             "the host runtime), host-kernels, cuda")
    parser.add_argument("--runner-arg", action="append", default=[],
                        help="one more argument for hlo-run (repeatable), "
                             "such as --expand-cholesky")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--max-elements", type=int, default=1 << 22)
    parser.add_argument("paths", nargs="+")
    options = parser.parse_args()

    files = collect(options.paths)
    manifest = {}
    manifest_path = options.manifest
    if manifest_path is None:
        for p in map(Path, options.paths):
            if p.is_dir() and (p / "manifest.json").exists():
                manifest_path = p / "manifest.json"
    if manifest_path:
        manifest = json.loads(manifest_path.read_text())
    expected_failures = read_expected_failures(options.expected_failures)

    xla = Xla()
    counts = dict(PASS=0, FAIL=0, XFAIL=0, XPASS=0, SKIP=0)
    rows = []
    total_seconds = 0.0
    start = time.perf_counter()
    for path in files:
        name = path.stem
        try:
            status, detail, seconds = check_module(path, xla, options.runner,
                                                   manifest, options)
        except Skip as e:
            status, detail, seconds = "SKIP", str(e), 0.0
        total_seconds += seconds
        if name in expected_failures:
            if status == "FAIL":
                status, detail = "XFAIL", f"{expected_failures[name]} ({detail})"
            elif status == "PASS":
                status, detail = "XPASS", ("listed as an expected failure ("
                                           f"{expected_failures[name]}) but "
                                           "matches: remove it from the list")
        counts[status] += 1
        rows.append((name, status, detail, seconds))
        print(f"{status:5} {name}: {detail}" +
              (f" [{seconds:.2f} s]" if seconds else ""), flush=True)

    ran = counts["PASS"] + counts["FAIL"] + counts["XFAIL"] + counts["XPASS"]
    summary = (f"{counts['PASS']} matched / {ran}; {counts['XFAIL']} expected "
               f"failures, {counts['SKIP']} skipped, "
               f"{counts['FAIL'] + counts['XPASS']} failed")
    print(f"# hlo-run time {total_seconds:.1f} s, total "
          f"{time.perf_counter() - start:.1f} s")
    print(summary)
    if options.report:
        with open(options.report, "w") as f:
            f.write("| module | result | detail | hlo-run s |\n|---|---|---|---|\n")
            for name, status, detail, seconds in rows:
                f.write(f"| `{name}` | {status} | {detail.replace('|', '/')} | "
                        f"{seconds:.2f} |\n")
            f.write(f"\n{summary}\n")
    return 1 if counts["FAIL"] or counts["XPASS"] else 0


if __name__ == "__main__":
    sys.exit(main())
