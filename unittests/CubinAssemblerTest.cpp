//===- CubinAssemblerTest.cpp - PTX to cubin, both assemblers -------------===//
//
// Each assembler the machine has (nvJitLink, ptxas) turns a small kernel
// into a cubin and rejects bad PTX and unknown chips with its own
// messages; tests of one that is not found are skipped.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Conversion/CubinAssembler.h"

#include "gtest/gtest.h"

#include <thread>

using namespace mlir;
using namespace mlir::hlo;

namespace {

constexpr const char *kKernel = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry store_one(.param .u64 out) {
  .reg .b64 %rd<3>;
  .reg .f32 %f<2>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.f32 %f1, 0f3F800000;
  st.global.f32 [%rd2], %f1;
  ret;
}
)";

class CubinAssemblerTest : public testing::TestWithParam<const char *> {
protected:
  void SetUp() override {
    std::string error;
    assembler = CubinAssembler::find(GetParam(), "", error);
    if (!assembler)
      GTEST_SKIP() << error;
  }
  std::optional<CubinAssembler> assembler;
};

TEST_P(CubinAssemblerTest, AssemblesAKernel) {
  EXPECT_EQ(assembler->getKind() == CubinAssembler::Kind::NvJitLink,
            StringRef(GetParam()) == "nvjitlink");
  std::string error;
  FailureOr<std::string> cubin = assembler->assemble(kKernel, "sm_90", error);
  ASSERT_TRUE(succeeded(cubin)) << error;
  EXPECT_TRUE(StringRef(*cubin).starts_with("\x7f"
                                            "ELF"));
  EXPECT_TRUE(StringRef(*cubin).contains(".text.store_one"));
}

TEST_P(CubinAssemblerTest, SeveralThreadsAtOnce) {
  std::string errors[4];
  FailureOr<std::string> cubins[4] = {failure(), failure(), failure(),
                                      failure()};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      cubins[i] = assembler->assemble(kKernel, "sm_90a", errors[i]);
    });
  for (std::thread &t : threads)
    t.join();
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(succeeded(cubins[i])) << errors[i];
    EXPECT_EQ(*cubins[i], *cubins[0]);
  }
}

TEST_P(CubinAssemblerTest, BadPtxIsAnErrorWithTheAssemblersMessage) {
  std::string text = kKernel;
  text.replace(text.find("st.global.f32"), 13, "st.global.q32");
  std::string error;
  EXPECT_TRUE(failed(assembler->assemble(text, "sm_90", error)));
  EXPECT_NE(error.find("failed"), std::string::npos) << error;
  EXPECT_NE(error.find("q32"), std::string::npos) << error;
}

// Names that are no chip, and chips the assembler does not know, are
// errors, never the end of the process (nvJitLink exits on sm_1 to sm_9).
TEST_P(CubinAssemblerTest, UnknownChipIsAnError) {
  for (StringRef chip : {"sm_1", "sm_9", "sm_", "sm90", "sm_90A", "compute_90",
                         "sm_999", "sm_35"}) {
    std::string error;
    EXPECT_TRUE(failed(assembler->assemble(kKernel, chip, error)))
        << chip.str();
    EXPECT_NE(error.find("-arch=" + chip.str() + " failed"), std::string::npos)
        << error;
  }
}

INSTANTIATE_TEST_SUITE_P(Assemblers, CubinAssemblerTest,
                         testing::Values("nvjitlink", "ptxas"));

TEST(CubinAssemblerFindTest, UnknownAssemblerIsAnError) {
  std::string error;
  EXPECT_FALSE(CubinAssembler::find("nvcc", "", error));
  EXPECT_EQ(error, "unknown PTX assembler 'nvcc' (auto, nvjitlink or ptxas)");
}

TEST(CubinAssemblerFindTest, AutoPrefersNvJitLink) {
  std::string error;
  std::optional<CubinAssembler> any = CubinAssembler::find("auto", "", error);
  if (!any)
    GTEST_SKIP() << error;
  std::optional<CubinAssembler> library =
      CubinAssembler::find("nvjitlink", "", error);
  EXPECT_EQ(any->getKind(), library ? CubinAssembler::Kind::NvJitLink
                                    : CubinAssembler::Kind::Ptxas);
}

} // namespace
