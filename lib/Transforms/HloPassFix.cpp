//===- HloPassFix.cpp - run a pipeline to a fixed point -------------------===//
//
// XLA's HloPassFix: a pipeline run again until it changes nothing. The
// module's OperationFingerPrint (operations, operands, attributes, result
// types and locations) before and after a run tells whether it changed.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Transforms/Passes.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOFIXEDPOINT
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct HloFixedPointPass : hlo::impl::HloFixedPointBase<HloFixedPointPass> {
  using HloFixedPointBase::HloFixedPointBase;

  HloFixedPointPass(OpPassManager inner, unsigned maxIters)
      : nested(std::move(inner)) {
    maxIterations = maxIters;
    // The option holds the body of `builtin.module(...)`.
    std::string text;
    llvm::raw_string_ostream os(text);
    nested->printAsTextualPipeline(os);
    StringRef body = text;
    if (body.consume_front("builtin.module(") && body.consume_back(")"))
      text = body.str();
    pipeline = text;
    fromOption = false;
  }

  LogicalResult initialize(MLIRContext *context) override {
    if (!fromOption)
      return success();
    nested.emplace(ModuleOp::getOperationName());
    std::string errors;
    llvm::raw_string_ostream os(errors);
    if (failed(parsePassPipeline(pipeline, *nested, os)))
      return emitError(UnknownLoc::get(context))
             << "hlo-fixed-point: invalid pipeline '" << pipeline
             << "': " << errors;
    return success();
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    if (nested)
      nested->getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (maxIterations == 0)
      return;
    for (unsigned i = 0; i < maxIterations; ++i) {
      OperationFingerPrint before(module);
      if (failed(runPipeline(*nested, module)))
        return signalPassFailure();
      if (OperationFingerPrint(module) == before)
        return;
    }
    // At the module's location: emitting on the op would print it whole.
    mlir::emitWarning(module.getLoc())
        << "hlo-fixed-point: the pipeline still changed the module after "
        << static_cast<unsigned>(maxIterations)
        << " runs (max-iterations); stopping there";
  }

  std::optional<OpPassManager> nested;
  /// Built from the `pipeline` option (in initialize), not from C++.
  bool fromOption = true;
};
} // namespace

std::unique_ptr<Pass> mlir::hlo::createHloFixedPointPass(OpPassManager pipeline,
                                                         unsigned maxIterations) {
  return std::make_unique<HloFixedPointPass>(std::move(pipeline),
                                             maxIterations);
}
