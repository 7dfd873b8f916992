//===- InterpreterTestUtil.h - fixture of the interpreter tests -*- C++ -*-===//
//
// The fixture shared by the interpreter's unit tests: an MLIR context with
// the hlo dialect, helpers that run HLO text and return the result as HLO
// literal text, and scalar computations and per-replica values used by
// several tests.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_UNITTESTS_INTERPRETERTESTUTIL_H
#define HLO_UNITTESTS_INTERPRETERTESTUTIL_H

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Runtime/Interpreter.h"
#include "Hlo/Runtime/Literal.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <string>

namespace interpreter_test {

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;

class InterpreterTest : public ::testing::Test {
protected:
  InterpreterTest()
      : ctx(makeRegistry(), MLIRContext::Threading::DISABLED),
        handler(&ctx, [this](Diagnostic &d) {
          diagnostics += d.str() + "\n";
          return success();
        }) {}

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerHloTranslateDialects(registry);
    return registry;
  }

  /// Runs HLO module text; the result literal's text or "error: ...".
  std::string run(StringRef hlo, ArrayRef<Literal> args = {},
                  InterpreterOptions options = {}) {
    diagnostics.clear();
    OwningOpRef<ModuleOp> module = importHloText(hlo, &ctx);
    if (!module)
      return "import failed: " + diagnostics;
    std::string error;
    FailureOr<Literal> result = runtime::run(*module, args, options, error);
    if (failed(result))
      return "error: " + error;
    return result->toString();
  }

  /// Runs an entry computation whose body is `body` (instructions, ROOT
  /// last) with no parameters.
  std::string runBody(StringRef body, InterpreterOptions options = {}) {
    return run(("HloModule m\nENTRY e {\n" + body + "\n}\n").str(), {},
               options);
  }

  /// A literal from a constant of `shape` with `value` (HLO literal text).
  Literal lit(StringRef shape, StringRef value) {
    std::string text = ("HloModule m\nENTRY e {\n  ROOT c = " + shape +
                        " constant(" + value + ")\n}\n")
                           .str();
    OwningOpRef<ModuleOp> module = importHloText(text, &ctx);
    EXPECT_TRUE(module) << diagnostics;
    std::string error;
    FailureOr<Literal> result = runtime::run(*module, {}, {}, error);
    EXPECT_TRUE(succeeded(result)) << error;
    return succeeded(result) ? *result : Literal();
  }

  MLIRContext ctx;
  ScopedDiagnosticHandler handler;
  std::string diagnostics;
};

/// Scalar computations shared by the tests below.
inline const char *kScalarComputations = R"(
HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
addi {
  x = s32[] parameter(0)
  y = s32[] parameter(1)
  ROOT s = s32[] add(x, y)
}
max {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] maximum(x, y)
}
ge {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = pred[] compare(x, y), direction=GE
}
lt {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = pred[] compare(x, y), direction=LT
}
)";

inline std::string withComputations(StringRef entry, StringRef more = "") {
  return (kScalarComputations + more + ("ENTRY e {\n" + entry + "\n}\n")).str();
}

/// Runs `entry` with `replicas` replicas and `partitions` partitions; the
/// result is replica 0, partition 0's.
inline InterpreterOptions devices(int64_t replicas, int64_t partitions = 1) {
  InterpreterOptions options;
  options.numReplicas = replicas;
  options.numPartitions = partitions;
  return options;
}

/// f32[4] {10r, 10r + 1, 10r + 2, 10r + 3} on replica r.
inline const char *kPerReplica =
    "r = u32[] replica-id()\nrf = f32[] convert(r)\nten = f32[] constant(10)\n"
    "t = f32[] multiply(rf, ten)\ntb = f32[4] broadcast(t), dimensions={}\n"
    "io = f32[4] iota(), iota_dimension=0\nx = f32[4] add(tb, io)\n";

} // namespace interpreter_test

#endif // HLO_UNITTESTS_INTERPRETERTESTUTIL_H
