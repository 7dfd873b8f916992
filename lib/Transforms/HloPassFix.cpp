//===- HloPassFix.cpp - run a pipeline to a fixed point -------------------===//
//
// XLA's HloPassFix: a pipeline run again until it changes nothing. A run
// changed nothing if every pass in it preserved all analyses (what the HLO
// passes do when they rewrite nothing), or if the module's
// OperationFingerPrint (operations, operands, attributes, result types and
// locations) equals the one after the previous run.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Transforms/Passes.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/TypeID.h"

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

  /// Cached on the module while no pass changes it: a pass that changed
  /// nothing preserves all analyses (as every HLO pass does), any other
  /// run invalidates it.
  struct Unchanged {
    MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(Unchanged)
    explicit Unchanged(Operation *) {}
  };

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (maxIterations == 0)
      return;
    // A run after which the marker survived changed nothing. Passes that do
    // not say so (foreign ones) are caught by comparing the module's
    // fingerprint with the one after the previous run: hashing the module
    // costs more than a run of most passes, so only runs that may have
    // changed it pay for it.
    std::optional<OperationFingerPrint> previous;
    for (unsigned i = 0; i < maxIterations; ++i) {
      (void)getAnalysis<Unchanged>();
      if (failed(runPipeline(*nested, module)))
        return signalPassFailure();
      if (getCachedAnalysis<Unchanged>()) {
        if (i == 0)
          markAllAnalysesPreserved();
        return;
      }
      OperationFingerPrint after(module);
      if (previous && after == *previous)
        return;
      previous.emplace(after);
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

std::unique_ptr<Pass>
mlir::hlo::createHloFixedPointPass(OpPassManager pipeline,
                                   unsigned maxIterations) {
  return std::make_unique<HloFixedPointPass>(std::move(pipeline),
                                             maxIterations);
}
