//===- GpuDeviceInfo.cpp - built-in GPUs and the target file reader -------===//
//
// The built-in descriptions are written in the same text format the reader
// takes from files (XLA's GpuTargetConfigProto text), so both go through
// one path. Figures: XLA's target specs (h100_sxm, h200, a100_sxm_80) for
// the device limits and, for H100/H200, the unit rates; the A100 unit rates
// are NVIDIA's published peak figures (XLA's a100 spec has none), expressed
// as units per SM and operations per clock.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/GpuDeviceInfo.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ManagedStatic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>

using namespace mlir;
using namespace mlir::hlo;
using llvm::Expected;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Built-in descriptions
//===----------------------------------------------------------------------===//

// H100 SXM: the scalar and matrix rates of XLA's h100_sxm spec. Keys are
// XLA PrimitiveType numbers: S8 2, S32 4, U32 8, F16 10, F32 11, F64 12,
// BF16 16, F8E5M2 19, F8E4M3FN 20, F8E4M3B11FNUZ 23, F8E5M2FNUZ 24,
// F8E4M3FNUZ 25, F8E4M3 28, F8E3M4 29, F8E8M0FNU 33, F4E2M1FN 35, 36.
#define HLO_HOPPER_RATES                                                       \
  "scalar_unit_description {\n"                                                \
  "  rate_infos { key: 4 value { clock_rate_ghz: 1.98 units_per_core: 64 "     \
  "ops_per_clock: 1 } }\n"                                                     \
  "  rate_infos { key: 8 value { clock_rate_ghz: 1.98 units_per_core: 64 "     \
  "ops_per_clock: 1 } }\n"                                                     \
  "  rate_infos { key: 10 value { clock_rate_ghz: 1.98 units_per_core: 128 "   \
  "ops_per_clock: 2 } }\n"                                                     \
  "  rate_infos { key: 11 value { clock_rate_ghz: 1.98 units_per_core: 128 "   \
  "ops_per_clock: 1 } }\n"                                                     \
  "  rate_infos { key: 12 value { clock_rate_ghz: 1.98 units_per_core: 64 "    \
  "ops_per_clock: 1 } }\n"                                                     \
  "  rate_infos { key: 16 value { clock_rate_ghz: 1.98 units_per_core: 128 "   \
  "ops_per_clock: 2 } }\n"                                                     \
  "}\n"                                                                        \
  "matrix_unit_description {\n"                                                \
  "  rate_infos { key: 2 value { clock_rate_ghz: 1.8295201 units_per_core: 4 " \
  "ops_per_clock: 1024 } }\n"                                                  \
  "  rate_infos { key: 6 value { clock_rate_ghz: 1.8295201 units_per_core: 4 " \
  "ops_per_clock: 1024 } }\n"                                                  \
  "  rate_infos { key: 10 value { clock_rate_ghz: 1.8295201 "                  \
  "units_per_core: 4 ops_per_clock: 512 } }\n"                                 \
  "  rate_infos { key: 11 value { clock_rate_ghz: 1.8295201 "                  \
  "units_per_core: 4 ops_per_clock: 256 } }\n"                                 \
  "  rate_infos { key: 12 value { clock_rate_ghz: 1.98 units_per_core: 4 "     \
  "ops_per_clock: 32 } }\n"                                                    \
  "  rate_infos { key: 16 value { clock_rate_ghz: 1.8295201 "                  \
  "units_per_core: 4 ops_per_clock: 512 } }\n"                                 \
  "  rate_infos { key: 19 value { clock_rate_ghz: 1.8295201 "                  \
  "units_per_core: 4 ops_per_clock: 1024 } }\n"                                \
  "  rate_infos { key: 20 value { clock_rate_ghz: 1.8295201 "                  \
  "units_per_core: 4 ops_per_clock: 1024 } }\n"                                \
  "  rate_infos { key: 23 value { clock_rate_ghz: 1.8295201 "                  \
  "units_per_core: 4 ops_per_clock: 1024 } }\n"                                \
  "  rate_infos { key: 24 value { clock_rate_ghz: 1.8295201 "                  \
  "units_per_core: 4 ops_per_clock: 1024 } }\n"                                \
  "  rate_infos { key: 25 value { clock_rate_ghz: 1.8295201 "                  \
  "units_per_core: 4 ops_per_clock: 1024 } }\n"                                \
  "  rate_infos { key: 28 value { clock_rate_ghz: 1.8295201 "                  \
  "units_per_core: 4 ops_per_clock: 1024 } }\n"                                \
  "  rate_infos { key: 29 value { clock_rate_ghz: 1.8295201 "                  \
  "units_per_core: 4 ops_per_clock: 1024 } }\n"                                \
  "}\n"

#define HLO_HOPPER_LIMITS                                                      \
  "threads_per_block_limit: 1024 threads_per_warp: 32\n"                       \
  "shared_memory_per_block: 49152 shared_memory_per_core: 233472\n"            \
  "shared_memory_per_block_optin: 232448\n"                                    \
  "threads_per_core_limit: 2048 core_count: 132 fpus_per_core: 128\n"          \
  "block_dim_limit_x: 2147483647 block_dim_limit_y: 65535 "                    \
  "block_dim_limit_z: 65535\n"                                                 \
  "thread_dim_limit_x: 1024 thread_dim_limit_y: 1024 thread_dim_limit_z: 64\n" \
  "l2_cache_size: 52428800 clock_rate_ghz: 1.98\n"                             \
  "cuda_compute_capability { major: 9 minor: 0 }\n"                            \
  "registers_per_core_limit: 65536 registers_per_block_limit: 65536\n"

static constexpr const char kH100[] =
    "gpu_device_info {\n"
    "name: \"NVIDIA H100 80GB HBM3\"\n" HLO_HOPPER_LIMITS
    "memory_bandwidth: 3352320000000 device_memory_size: "
    "84942979072\n" HLO_HOPPER_RATES "}\n";

static constexpr const char kH200[] =
    "gpu_device_info {\n"
    "name: \"NVIDIA H200 141GB HBM3e\"\n" HLO_HOPPER_LIMITS
    "memory_bandwidth: 4800000000000 device_memory_size: "
    "151397597184\n" HLO_HOPPER_RATES "}\n";

// A100 SXM 80 GB. Peak rates at 1.41 GHz on 108 SMs: FP64 9.7 TFLOPS (32
// units), FP32 19.5 (64), FP16 78 (128 x 2), BF16 39 (128), INT32 19.5 TOPS
// (64); tensor cores (4 per SM): FP16/BF16 312 TFLOPS (256 FMA/clock), TF32
// 156 (128), FP64 19.5 (16), INT8 624 TOPS (512). No FP8.
static constexpr const char kA100[] =
    "gpu_device_info {\n"
    "name: \"NVIDIA A100-SXM4-80GB\"\n"
    "threads_per_block_limit: 1024 threads_per_warp: 32\n"
    "shared_memory_per_block: 49152 shared_memory_per_core: 167936\n"
    "shared_memory_per_block_optin: 166912\n"
    "threads_per_core_limit: 2048 core_count: 108 fpus_per_core: 64\n"
    "block_dim_limit_x: 2147483647 block_dim_limit_y: 65535 "
    "block_dim_limit_z: 65535\n"
    "thread_dim_limit_x: 1024 thread_dim_limit_y: 1024 thread_dim_limit_z: 64\n"
    "memory_bandwidth: 2039040000000 l2_cache_size: 41943040\n"
    "clock_rate_ghz: 1.41 device_memory_size: 85100068864\n"
    "cuda_compute_capability { major: 8 minor: 0 }\n"
    "registers_per_core_limit: 65536 registers_per_block_limit: 65536\n"
    "scalar_unit_description {\n"
    "  rate_infos { key: 4 value { clock_rate_ghz: 1.41 units_per_core: 64 "
    "ops_per_clock: 1 } }\n"
    "  rate_infos { key: 10 value { clock_rate_ghz: 1.41 units_per_core: 128 "
    "ops_per_clock: 2 } }\n"
    "  rate_infos { key: 11 value { clock_rate_ghz: 1.41 units_per_core: 64 "
    "ops_per_clock: 1 } }\n"
    "  rate_infos { key: 12 value { clock_rate_ghz: 1.41 units_per_core: 32 "
    "ops_per_clock: 1 } }\n"
    "  rate_infos { key: 16 value { clock_rate_ghz: 1.41 units_per_core: 128 "
    "ops_per_clock: 1 } }\n"
    "}\n"
    "matrix_unit_description {\n"
    "  rate_infos { key: 2 value { clock_rate_ghz: 1.41 units_per_core: 4 "
    "ops_per_clock: 512 } }\n"
    "  rate_infos { key: 6 value { clock_rate_ghz: 1.41 units_per_core: 4 "
    "ops_per_clock: 512 } }\n"
    "  rate_infos { key: 10 value { clock_rate_ghz: 1.41 units_per_core: 4 "
    "ops_per_clock: 256 } }\n"
    "  rate_infos { key: 11 value { clock_rate_ghz: 1.41 units_per_core: 4 "
    "ops_per_clock: 128 } }\n"
    "  rate_infos { key: 12 value { clock_rate_ghz: 1.41 units_per_core: 4 "
    "ops_per_clock: 16 } }\n"
    "  rate_infos { key: 16 value { clock_rate_ghz: 1.41 units_per_core: 4 "
    "ops_per_clock: 256 } }\n"
    "}\n"
    "}\n";

static constexpr llvm::StringLiteral kBuiltinNames[] = {"h100", "h200", "a100"};

//===----------------------------------------------------------------------===//
// Text format
//===----------------------------------------------------------------------===//

namespace {

/// One field of protobuf text: `name: value` or `name { fields }`.
struct Field {
  std::string name;
  std::string value; // scalars: the token (strings unquoted)
  bool isString = false;
  unsigned line = 0;
  std::vector<Field> fields; // messages
  bool isMessage = false;
};

class TextParser {
public:
  TextParser(StringRef text, StringRef bufferName)
      : text(text), bufferName(bufferName) {}

  llvm::Error parseFields(std::vector<Field> &out, bool nested) {
    while (true) {
      skipSpace();
      if (pos >= text.size()) {
        if (nested)
          return error("missing '}'");
        return llvm::Error::success();
      }
      if (text[pos] == '}') {
        if (!nested)
          return error("unexpected '}'");
        ++pos;
        return llvm::Error::success();
      }
      Field field;
      field.line = line;
      field.name = identifier().str();
      if (field.name.empty())
        return error("expected a field name");
      skipSpace();
      bool colon = consume(':');
      skipSpace();
      if (consume('{') || consume('<')) {
        field.isMessage = true;
        if (llvm::Error err = parseFields(field.fields, /*nested=*/true))
          return err;
      } else {
        if (!colon)
          return error("expected ':' after '" + field.name + "'");
        if (pos < text.size() && (text[pos] == '"' || text[pos] == '\'')) {
          char quote = text[pos++];
          size_t end = text.find(quote, pos);
          if (end == StringRef::npos)
            return error("unterminated string");
          field.value = text.slice(pos, end).str();
          field.isString = true;
          pos = end + 1;
        } else {
          size_t start = pos;
          while (pos < text.size() &&
                 (llvm::isAlnum(text[pos]) || text[pos] == '.' ||
                  text[pos] == '-' || text[pos] == '+' || text[pos] == '_'))
            ++pos;
          if (start == pos)
            return error("expected a value for '" + field.name + "'");
          field.value = text.slice(start, pos).str();
        }
      }
      skipSpace();
      (void)(consume(',') || consume(';'));
      out.push_back(std::move(field));
    }
  }

  llvm::Error error(const llvm::Twine &message) const {
    return llvm::createStringError(bufferName + ":" + llvm::Twine(line) + ": " +
                                   message);
  }

private:
  void skipSpace() {
    while (pos < text.size()) {
      char c = text[pos];
      if (c == '\n') {
        ++line;
        ++pos;
      } else if (llvm::isSpace(c)) {
        ++pos;
      } else if (c == '#') {
        while (pos < text.size() && text[pos] != '\n')
          ++pos;
      } else {
        break;
      }
    }
  }
  bool consume(char c) {
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  StringRef identifier() {
    size_t start = pos;
    while (pos < text.size() && (llvm::isAlnum(text[pos]) || text[pos] == '_'))
      ++pos;
    return text.slice(start, pos);
  }

  StringRef text;
  std::string bufferName;
  size_t pos = 0;
  unsigned line = 1;
};

/// Interprets parsed fields as a GpuDeviceInfo.
class Reader {
public:
  explicit Reader(StringRef bufferName) : bufferName(bufferName) {}

  llvm::Error error(const Field &field, const llvm::Twine &message) const {
    return llvm::createStringError(bufferName + ":" + llvm::Twine(field.line) +
                                   ": field '" + field.name + "': " + message);
  }

  llvm::Error readInt(const Field &field, int64_t &out) const {
    if (field.isMessage || field.isString ||
        StringRef(field.value).getAsInteger(10, out) || out < 0)
      return error(field, "expected a non-negative integer, got '" +
                              field.value + "'");
    return llvm::Error::success();
  }
  llvm::Error readDouble(const Field &field, double &out) const {
    if (field.isMessage || field.isString ||
        StringRef(field.value).getAsDouble(out) || !(out >= 0))
      return error(field,
                   "expected a non-negative number, got '" + field.value + "'");
    return llvm::Error::success();
  }

  llvm::Error
  readRates(const Field &message,
            SmallVectorImpl<std::pair<int, ExecutionUnitRate>> &out) {
    for (const Field &entry : message.fields) {
      if (entry.name != "rate_infos" || !entry.isMessage)
        return error(entry, "expected 'rate_infos { key: N value { ... } }'");
      int64_t key = -1;
      ExecutionUnitRate rate;
      bool hasValue = false;
      for (const Field &f : entry.fields) {
        if (f.name == "key") {
          if (llvm::Error err = readInt(f, key))
            return err;
        } else if (f.name == "value" && f.isMessage) {
          hasValue = true;
          for (const Field &v : f.fields) {
            llvm::Error err = llvm::Error::success();
            if (v.name == "clock_rate_ghz")
              err = readDouble(v, rate.clockRateGhz);
            else if (v.name == "units_per_core")
              err = readInt(v, rate.unitsPerCore);
            else if (v.name == "ops_per_clock")
              err = readInt(v, rate.opsPerClock);
            else
              err = error(v, "unknown rate field");
            if (err)
              return err;
          }
        } else {
          return error(f, "unknown rate_infos field");
        }
      }
      if (key < 0 || !hasValue)
        return error(entry, "a rate needs 'key' and 'value'");
      out.emplace_back(int(key), rate);
    }
    return llvm::Error::success();
  }

  llvm::Error readDeviceInfo(const std::vector<Field> &fields,
                             GpuDeviceInfo &info) {
    const std::map<std::string, int64_t *> ints = {
        {"threads_per_block_limit", &info.threadsPerBlockLimit},
        {"threads_per_warp", &info.threadsPerWarp},
        {"shared_memory_per_block", &info.sharedMemoryPerBlock},
        {"shared_memory_per_core", &info.sharedMemoryPerCore},
        {"shared_memory_per_block_optin", &info.sharedMemoryPerBlockOptin},
        {"threads_per_core_limit", &info.threadsPerCoreLimit},
        {"core_count", &info.coreCount},
        {"fpus_per_core", &info.fpusPerCore},
        {"block_dim_limit_x", &info.blockDimLimit[0]},
        {"block_dim_limit_y", &info.blockDimLimit[1]},
        {"block_dim_limit_z", &info.blockDimLimit[2]},
        {"thread_dim_limit_x", &info.threadDimLimit[0]},
        {"thread_dim_limit_y", &info.threadDimLimit[1]},
        {"thread_dim_limit_z", &info.threadDimLimit[2]},
        {"memory_bandwidth", &info.memoryBandwidth},
        {"l2_cache_size", &info.l2CacheSize},
        {"device_memory_size", &info.deviceMemorySize},
        {"registers_per_core_limit", &info.registersPerCoreLimit},
        {"registers_per_block_limit", &info.registersPerBlockLimit},
    };
    // GpuDeviceInfoProto fields the model does not use.
    static const llvm::StringLiteral ignored[] = {
        "device_vendor",
        "platform_version",
        "model_str",
        "device_address_bits",
        "pcie_bandwidth",
        "ecc_enabled",
        "driver_version",
        "runtime_version",
        "compile_time_toolkit_version",
        "dnn_version",
        "cub_version",
        "device_interconnect_info",
        "rocm_compute_capability",
        "collective_memory_granularity",
        "numa_node",
        "pci_bus_id",
        "l1_cache_size_per_core"};
    for (const Field &f : fields) {
      llvm::Error err = llvm::Error::success();
      if (auto it = ints.find(f.name); it != ints.end()) {
        err = readInt(f, *it->second);
      } else if (f.name == "clock_rate_ghz") {
        err = readDouble(f, info.clockRateGhz);
      } else if (f.name == "name") {
        info.name = f.value;
      } else if (f.name == "cuda_compute_capability") {
        for (const Field &c : f.fields) {
          int64_t v = 0;
          if (c.name == "major" || c.name == "minor") {
            if ((err = readInt(c, v)))
              return err;
            (c.name == "major" ? info.computeCapabilityMajor
                               : info.computeCapabilityMinor) = int(v);
          } else if (c.name != "feature_extension") {
            return error(c, "unknown compute capability field");
          }
        }
      } else if (f.name == "scalar_unit_description") {
        err = readRates(f, info.scalarUnitRates);
      } else if (f.name == "matrix_unit_description") {
        err = readRates(f, info.matrixUnitRates);
      } else if (!llvm::is_contained(ignored, f.name)) {
        err = error(f, "unknown GpuDeviceInfoProto field");
      }
      if (err)
        return err;
    }
    return llvm::Error::success();
  }

  std::string bufferName;
};

} // namespace

Expected<GpuDeviceInfo> GpuDeviceInfo::parse(StringRef text,
                                             StringRef bufferName) {
  std::vector<Field> fields;
  TextParser parser(text, bufferName);
  if (llvm::Error err = parser.parseFields(fields, /*nested=*/false))
    return std::move(err);

  GpuDeviceInfo info;
  Reader reader(bufferName);
  const Field *deviceInfo = nullptr;
  for (const Field &f : fields)
    if (f.name == "gpu_device_info" && f.isMessage)
      deviceInfo = &f;
  if (deviceInfo) {
    // A GpuTargetConfigProto: only gpu_device_info (and the project's
    // kernel_launch_overhead_us) matter.
    if (llvm::Error err = reader.readDeviceInfo(deviceInfo->fields, info))
      return std::move(err);
    if (info.name.empty())
      for (const Field &f : fields)
        if (f.name == "device_description_str")
          info.name = f.value;
  } else {
    std::vector<Field> own;
    for (const Field &f : fields)
      if (f.name != "kernel_launch_overhead_us")
        own.push_back(f);
    if (llvm::Error err = reader.readDeviceInfo(own, info))
      return std::move(err);
  }
  for (const Field &f : fields)
    if (f.name == "kernel_launch_overhead_us")
      if (llvm::Error err = reader.readDouble(f, info.kernelLaunchOverheadUs))
        return std::move(err);

  // The fields the cost model divides by.
  auto require = [&](StringRef name, bool ok) -> llvm::Error {
    if (ok)
      return llvm::Error::success();
    return llvm::createStringError(bufferName + ": field '" + name +
                                   "' is missing or zero");
  };
  if (llvm::Error err = require("core_count", info.coreCount > 0))
    return std::move(err);
  if (llvm::Error err = require("fpus_per_core", info.fpusPerCore > 0))
    return std::move(err);
  if (llvm::Error err = require("clock_rate_ghz", info.clockRateGhz > 0))
    return std::move(err);
  if (llvm::Error err = require("memory_bandwidth", info.memoryBandwidth > 0))
    return std::move(err);
  if (info.name.empty())
    info.name = bufferName.str();
  return info;
}

static void printRates(llvm::raw_ostream &os, StringRef name,
                       ArrayRef<std::pair<int, ExecutionUnitRate>> rates) {
  if (rates.empty())
    return;
  os << "  " << name << " {\n";
  for (const auto &[key, rate] : rates)
    os << "    rate_infos { key: " << key
       << " value { clock_rate_ghz: " << rate.clockRateGhz
       << " units_per_core: " << rate.unitsPerCore
       << " ops_per_clock: " << rate.opsPerClock << " } }\n";
  os << "  }\n";
}

std::string GpuDeviceInfo::toText() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "gpu_device_info {\n";
  os << "  name: \"" << name << "\"\n";
  os << "  cuda_compute_capability { major: " << computeCapabilityMajor
     << " minor: " << computeCapabilityMinor << " }\n";
  auto field = [&](StringRef key, auto value) {
    os << "  " << key << ": " << value << "\n";
  };
  field("core_count", coreCount);
  field("fpus_per_core", fpusPerCore);
  field("clock_rate_ghz", clockRateGhz);
  field("memory_bandwidth", memoryBandwidth);
  field("device_memory_size", deviceMemorySize);
  field("l2_cache_size", l2CacheSize);
  field("shared_memory_per_block", sharedMemoryPerBlock);
  field("shared_memory_per_block_optin", sharedMemoryPerBlockOptin);
  field("shared_memory_per_core", sharedMemoryPerCore);
  field("registers_per_core_limit", registersPerCoreLimit);
  field("registers_per_block_limit", registersPerBlockLimit);
  field("threads_per_block_limit", threadsPerBlockLimit);
  field("threads_per_warp", threadsPerWarp);
  field("threads_per_core_limit", threadsPerCoreLimit);
  field("block_dim_limit_x", blockDimLimit[0]);
  field("block_dim_limit_y", blockDimLimit[1]);
  field("block_dim_limit_z", blockDimLimit[2]);
  field("thread_dim_limit_x", threadDimLimit[0]);
  field("thread_dim_limit_y", threadDimLimit[1]);
  field("thread_dim_limit_z", threadDimLimit[2]);
  printRates(os, "scalar_unit_description", scalarUnitRates);
  printRates(os, "matrix_unit_description", matrixUnitRates);
  os << "}\n";
  os << "kernel_launch_overhead_us: " << kernelLaunchOverheadUs << "\n";
  return text;
}

ArrayRef<llvm::StringLiteral> GpuDeviceInfo::getBuiltinNames() {
  return kBuiltinNames;
}

Expected<GpuDeviceInfo> GpuDeviceInfo::getBuiltin(StringRef name) {
  const char *text = llvm::StringSwitch<const char *>(name)
                         .Case("h100", kH100)
                         .Case("h200", kH200)
                         .Case("a100", kA100)
                         .Default(nullptr);
  if (!text)
    return llvm::createStringError("unknown GPU '" + name + "' (built-in: " +
                                   llvm::join(getBuiltinNames(), ", ") +
                                   "; or a target file)");
  return parse(text, name);
}

Expected<GpuDeviceInfo> GpuDeviceInfo::get(StringRef nameOrFile) {
  if (llvm::is_contained(getBuiltinNames(), nameOrFile) ||
      (!nameOrFile.contains('/') && !nameOrFile.contains('.') &&
       !llvm::sys::fs::exists(nameOrFile)))
    return getBuiltin(nameOrFile);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(nameOrFile, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError("cannot read GPU target file '" +
                                   nameOrFile +
                                   "': " + buffer.getError().message());
  return parse((*buffer)->getBuffer(), nameOrFile);
}

//===----------------------------------------------------------------------===//
// Element types and rates
//===----------------------------------------------------------------------===//

int mlir::hlo::getXlaPrimitiveType(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type)) {
    Type element = complex.getElementType();
    return element.isF32() ? 15 : element.isF64() ? 18 : -1;
  }
  if (auto integer = dyn_cast<IntegerType>(type)) {
    unsigned width = integer.getWidth();
    bool isUnsigned = integer.isUnsigned();
    if (width == 1)
      return 1;
    switch (width) {
    case 2:
      return isUnsigned ? 27 : 26;
    case 4:
      return isUnsigned ? 22 : 21;
    case 8:
      return isUnsigned ? 6 : 2;
    case 16:
      return isUnsigned ? 7 : 3;
    case 32:
      return isUnsigned ? 8 : 4;
    case 64:
      return isUnsigned ? 9 : 5;
    default:
      return -1;
    }
  }
  if (type.isF16())
    return 10;
  if (type.isF32())
    return 11;
  if (type.isF64())
    return 12;
  if (type.isBF16())
    return 16;
  if (isa<Float8E5M2Type>(type))
    return 19;
  if (isa<Float8E4M3FNType>(type))
    return 20;
  if (isa<Float8E4M3B11FNUZType>(type))
    return 23;
  if (isa<Float8E5M2FNUZType>(type))
    return 24;
  if (isa<Float8E4M3FNUZType>(type))
    return 25;
  if (isa<Float8E4M3Type>(type))
    return 28;
  if (isa<Float8E3M4Type>(type))
    return 29;
  if (isa<Float4E2M1FNType>(type))
    return 32;
  if (isa<Float8E8M0FNUType>(type))
    return 33;
  return -1;
}

static std::optional<ExecutionUnitRate>
findRate(ArrayRef<std::pair<int, ExecutionUnitRate>> rates, Type type) {
  int key = getXlaPrimitiveType(type);
  for (const auto &[k, rate] : rates)
    if (k == key)
      return rate;
  return std::nullopt;
}

std::optional<ExecutionUnitRate>
GpuDeviceInfo::getScalarRate(Type elementType) const {
  return findRate(scalarUnitRates, elementType);
}

std::optional<ExecutionUnitRate>
GpuDeviceInfo::getMatrixRate(Type elementType) const {
  return findRate(matrixUnitRates, elementType);
}

//===----------------------------------------------------------------------===//
// --hlo-gpu-device
//===----------------------------------------------------------------------===//

namespace {
struct GpuDeviceCLOptions {
  llvm::cl::opt<std::string> device{
      "hlo-gpu-device",
      llvm::cl::desc("The GPU that GPU passes and the cost model target: "
                     "h100 (default), h200, a100, or a GpuTargetConfigProto "
                     "text file (docs/gpu-cost-model.md)"),
      llvm::cl::value_desc("h100|h200|a100|FILE"), llvm::cl::init("h100")};
  llvm::cl::opt<std::string> chip{
      "hlo-gpu-chip",
      llvm::cl::desc("The GPU architecture kernels are compiled for (sm_80, "
                     "sm_90, sm_90a, sm_100, ...; default: the compute "
                     "capability of --hlo-gpu-device)"),
      llvm::cl::value_desc("sm_NN[a]"), llvm::cl::init("")};
};
} // namespace

static llvm::ManagedStatic<GpuDeviceCLOptions> clOptions;
static std::unique_ptr<GpuDeviceInfo> selectedDevice;
static std::string selectedChip;

void mlir::hlo::registerGpuDeviceCLOptions() { *clOptions; }

llvm::Error mlir::hlo::loadGpuDeviceFromCLOptions() {
  std::string name = clOptions.isConstructed() ? clOptions->device.getValue()
                                               : std::string("h100");
  Expected<GpuDeviceInfo> device = GpuDeviceInfo::get(name);
  if (!device)
    return llvm::createStringError("--hlo-gpu-device: " +
                                   toString(device.takeError()));
  selectedDevice = std::make_unique<GpuDeviceInfo>(std::move(*device));
  selectedChip.clear();
  if (clOptions.isConstructed() && !clOptions->chip.empty()) {
    StringRef chip = clOptions->chip.getValue();
    StringRef digits = chip;
    bool prefixed = digits.consume_front("sm_");
    digits.consume_back("a");
    if (!prefixed || digits.empty() || !llvm::all_of(digits, llvm::isDigit))
      return llvm::createStringError(
          "--hlo-gpu-chip: `" + chip.str() +
          "` is not a GPU architecture (sm_80, sm_90, sm_90a, sm_100, ...)");
    selectedChip = chip.str();
  }
  return llvm::Error::success();
}

std::string mlir::hlo::getSelectedGpuChip() {
  if (!selectedChip.empty())
    return selectedChip;
  const GpuDeviceInfo &device = getSelectedGpuDevice();
  return "sm_" + std::to_string(device.computeCapabilityMajor) +
         std::to_string(device.computeCapabilityMinor);
}

const GpuDeviceInfo &mlir::hlo::getSelectedGpuDevice() {
  if (selectedDevice)
    return *selectedDevice;
  static const GpuDeviceInfo h100 = llvm::cantFail(GpuDeviceInfo::get("h100"));
  return h100;
}

static int64_t selectedMemoryLimit = -1;

void mlir::hlo::setSelectedMemoryLimit(int64_t bytes) {
  selectedMemoryLimit = bytes;
}

int64_t mlir::hlo::getSelectedMemoryLimit() { return selectedMemoryLimit; }
