//===- FusionMerger.cpp - loop fusions into all their users ---------------===//
//
// XLA's GPU FusionMerger (seed 002, section 2.4), the pass that ran after
// GpuInstructionFusion before priority fusion replaced both. In program
// order, a kLoop fusion is merged into every one of its users (a copy of
// its fused instructions per user; a user that is not a fusion is wrapped
// in one first) and erased, when:
//  - every user can take it (XLA's IsProducerConsumerFusible: the user is
//    a loop-fusible consumer or a reduction kernel, not a bitcast, not
//    multi-output, nothing in place) and fits the budget (XLA's
//    FusionFitsInBudget for a producer-consumer fusion, and at most
//    `max-fused-instructions` instructions: XLA's "huge IR" check);
//  - it does not transpose most of its data while a user is a reduction
//    kernel (XLA's TransposesMostData: reads would not coalesce);
//  - the cost model says the merged kernels are not slower than the
//    producer's kernel and its users' (XLA's EstimateRunTimes).
// Then a producer's operands are read by each user instead of the
// producer's output: fewer kernels, less memory traffic.
//
//===----------------------------------------------------------------------===//

#include "FusionUtils.h"
#include "GpuFusible.h"
#include "TransformUtils.h"

#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Analysis/GpuPerformanceModel.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuFusionPasses.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

#include <cmath>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOFUSIONMERGER
#include "Hlo/Transforms/GpuFusionPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// XLA's IsPhysicallyTransposing for one fused instruction.
static bool transposes(Operation *op) {
  if (isa<CopyOp>(op))
    return true;
  if (auto transpose = dyn_cast<TransposeOp>(op))
    for (auto [i, p] : llvm::enumerate(transpose.getDimensions()))
      if (p != int64_t(i))
        return true;
  return false;
}

namespace {

/// The pass's work on one module.
struct FusionMergerImpl {
  FusionMergerImpl(ModuleOp module, int64_t maxOperands,
                   int64_t maxFusedInstructions)
      : module(module), maxOperands(maxOperands),
        maxFusedInstructions(maxFusedInstructions) {}

  ModuleOp module;
  int64_t maxOperands;
  int64_t maxFusedInstructions;
  int64_t numMerged = 0;
  bool changed = false;
  ModuleOp getOperation() { return module; }
  MLIRContext &getContext() { return *module.getContext(); }

  SymbolTableCollection tables;
  SymbolTable *symbols = nullptr;
  std::unique_ptr<GpuFusible> fusible;
  std::unique_ptr<GpuPerformanceModel> model;
  DenseSet<Operation *> touched;

  void run() {
    ModuleOp module = getOperation();
    symbols = &tables.getSymbolTable(module);
    fusible = std::make_unique<GpuFusible>(tables, getSelectedGpuDevice(),
                                           maxOperands);
    model = std::make_unique<GpuPerformanceModel>(getSelectedGpuDevice());
    model->setSymbolTables(&tables);
    SmallVector<ComputationOp> comps = getFusibleComputations(module, *symbols);
    for (ComputationOp comp : comps) {
      SmallVector<FusionOp> producers(
          comp.getBody().front().getOps<FusionOp>());
      for (FusionOp producer : producers)
        if (shouldMerge(producer))
          mergeIntoAllUsers(producer);
    }
    llvm::StringMap<unsigned> suffixes;
    for (ComputationOp comp : comps)
      for (auto fusion : comp.getBody().front().getOps<FusionOp>())
        if (touched.contains(fusion))
          nameFusion(fusion, *symbols, tables, suffixes);
  }

  /// XLA's TransposesMostData: transposing instructions produce at least
  /// half of the fusion's elements.
  bool transposesMostData(FusionOp fusion) {
    double score = 0;
    double total = staticElementCount(fusion.getType());
    for (Operation &op : fusible->body(fusion)->without_terminator())
      if (transposes(&op)) {
        score += staticElementCount(op.getResult(0).getType()) / total;
        if (score >= 0.5)
          return true;
      }
    return false;
  }

  /// XLA's IsProducerConsumerFusible for a loop fusion producer.
  bool canTake(Operation *user) {
    if (!fusible->isFusible(user) || isa<BitcastOp>(user) ||
        isMultiOutputFusion(user, tables) || fusible->hasInPlaceOp(user))
      return false;
    if (fusible->isInputFusibleReduction(user) || fusible->isLoopFusion(user))
      return true;
    if (isa<FusionOp>(user))
      return false;
    return isa<ReduceOp>(user) ||
           (isElementwise(user) && !getDataOperands(user).empty()) ||
           isa<BroadcastOp, ConcatenateOp, DynamicSliceOp, GatherOp, PadOp,
               ReduceWindowOp, ReshapeOp, ReverseOp, SliceOp, TransposeOp>(
               user);
  }

  bool shouldMerge(FusionOp producer) {
    if (producer->use_empty() || !fusible->isFusible(producer) ||
        !fusible->isLoopFusion(producer) || isa<TupleType>(producer.getType()))
      return false;
    llvm::SetVector<Operation *> users;
    for (Operation *user : producer->getUsers()) {
      if (user->hasTrait<OpTrait::IsTerminator>() || !canTake(user))
        return false;
      users.insert(user);
    }
    bool reductionUser = llvm::any_of(users, [&](Operation *user) {
      return fusible->isInputFusibleReduction(user);
    });
    if (reductionUser && transposesMostData(producer))
      return false;
    for (Operation *user : users) {
      if (!fusible->fusionFitsInBudget(user, producer,
                                       /*isConsumerProducerFusion=*/true))
        return false;
      if (fusible->instructionCount(user) +
              fusible->instructionCount(producer) >
          maxFusedInstructions)
        return false;
    }
    FusionRunTimes times =
        model->estimateFusionBenefit(producer, users.getArrayRef());
    return std::isfinite(times.fusedUs) && std::isfinite(times.unfusedUs) &&
           times.fusedUs <= times.unfusedUs;
  }

  void mergeIntoAllUsers(FusionOp producer) {
    llvm::SetVector<Operation *> users(producer->getUsers().begin(),
                                       producer->getUsers().end());
    bool input = false;
    for (Operation *user : users) {
      model->invalidate(user);
      fusible->invalidate(user);
      touched.erase(user);
      input = fusible->isInputFusibleReduction(user);
      auto fusion = dyn_cast<FusionOp>(user);
      if (!fusion)
        fusion = wrapInFusion(user, *symbols, tables,
                              user->getParentOfType<ComputationOp>());
      fuseProducerInto(producer, fusion, tables);
      setFusionConfig(fusion, input ? FusionKind::kInput : FusionKind::kLoop);
      touched.insert(fusion);
    }
    Operation *comp = fusible->body(producer)->getParentOp();
    model->invalidate(producer);
    fusible->invalidate(producer);
    touched.erase(producer);
    producer->erase();
    symbols->erase(comp);
    ++numMerged;
    changed = true;
  }
};

struct FusionMergerPass
    : ChangeReportingPass<FusionMergerPass, hlo::impl::HloFusionMergerBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    FusionMergerImpl impl(getOperation(), maxOperands, maxFusedInstructions);
    impl.run();
    changed = impl.changed;
    numMerged += impl.numMerged;
  }
};

} // namespace
