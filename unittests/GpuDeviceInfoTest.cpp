//===- GpuDeviceInfoTest.cpp - the GPU device descriptions ----------------===//

#include "Hlo/Analysis/GpuDeviceInfo.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {

GpuDeviceInfo builtin(llvm::StringRef name) {
  llvm::Expected<GpuDeviceInfo> info = GpuDeviceInfo::getBuiltin(name);
  EXPECT_TRUE(bool(info)) << name.str();
  if (!info) {
    llvm::consumeError(info.takeError());
    return {};
  }
  return *info;
}

TEST(GpuDeviceInfoTest, BuiltinFigures) {
  GpuDeviceInfo h100 = builtin("h100");
  EXPECT_EQ(h100.coreCount, 132);
  EXPECT_EQ(h100.memoryBandwidth, 3352320000000);
  EXPECT_EQ(h100.computeCapabilityMajor, 9);
  EXPECT_EQ(h100.sharedMemoryPerBlockOptin, 232448);
  GpuDeviceInfo a100 = builtin("a100");
  EXPECT_EQ(a100.coreCount, 108);
  EXPECT_DOUBLE_EQ(a100.clockRateGhz, 1.41);
  EXPECT_EQ(builtin("h200").memoryBandwidth, 4800000000000);
}

TEST(GpuDeviceInfoTest, RatesPerElementType) {
  MLIRContext context;
  Builder b(&context);
  GpuDeviceInfo h100 = builtin("h100");
  // Tensor cores: BF16 989 TFLOPS dense, FP8 twice that; FP32 scalar 66.9
  // (FLOP per ns: clock * ops per clock * 2 * SMs * units).
  std::optional<ExecutionUnitRate> bf16 = h100.getMatrixRate(b.getBF16Type());
  ASSERT_TRUE(bf16.has_value());
  EXPECT_NEAR(bf16->peakFlopsPerNs(h100.coreCount), 989170.3, 1);
  std::optional<ExecutionUnitRate> fp8 =
      h100.getMatrixRate(b.getType<Float8E4M3FNType>());
  ASSERT_TRUE(fp8.has_value());
  EXPECT_NEAR(fp8->peakFlopsPerNs(h100.coreCount),
              2 * bf16->peakFlopsPerNs(h100.coreCount), 1);
  std::optional<ExecutionUnitRate> f32 = h100.getScalarRate(b.getF32Type());
  ASSERT_TRUE(f32.has_value());
  EXPECT_NEAR(f32->peakFlopsPerNs(h100.coreCount), 66908.16, 0.01);
  // The A100 has no FP8 units.
  EXPECT_FALSE(builtin("a100").getMatrixRate(b.getType<Float8E4M3FNType>()));
  EXPECT_EQ(getXlaPrimitiveType(b.getF32Type()), 11);
  EXPECT_EQ(getXlaPrimitiveType(b.getIntegerType(8)), 2);
  EXPECT_EQ(
      getXlaPrimitiveType(IntegerType::get(&context, 8, IntegerType::Unsigned)),
      6);
}

TEST(GpuDeviceInfoTest, TextRoundTrip) {
  for (llvm::StringRef name : GpuDeviceInfo::getBuiltinNames()) {
    GpuDeviceInfo info = builtin(name);
    std::string text = info.toText();
    llvm::Expected<GpuDeviceInfo> back = GpuDeviceInfo::parse(text, "rt");
    ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
    EXPECT_EQ(back->toText(), text);
  }
}

TEST(GpuDeviceInfoTest, Errors) {
  auto message = [](llvm::StringRef text) {
    llvm::Expected<GpuDeviceInfo> info = GpuDeviceInfo::parse(text, "f");
    if (info)
      return std::string("ok");
    return llvm::toString(info.takeError());
  };
  EXPECT_EQ(message("core_count: -1"),
            "f:1: field 'core_count': expected a non-negative integer, got "
            "'-1'");
  EXPECT_EQ(message("core_count: 1 fpus_per_core: 1 clock_rate_ghz: 1"),
            "f: field 'memory_bandwidth' is missing or zero");
  EXPECT_EQ(message("gpu_device_info {"), "f:1: missing '}'");
  EXPECT_EQ(message("core_count 4"), "f:1: expected ':' after 'core_count'");
  llvm::Expected<GpuDeviceInfo> unknown = GpuDeviceInfo::get("v100");
  ASSERT_FALSE(bool(unknown));
  EXPECT_EQ(llvm::toString(unknown.takeError()),
            "unknown GPU 'v100' (built-in: h100, h200, a100; or a target "
            "file)");
}

} // namespace
