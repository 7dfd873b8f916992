//===- CopyFusion.cpp - hlo-copy-fusion -----------------------------------===//
//
// XLA's GPU CopyFusion: a copy of a fusion's output (copy insertion's, in
// the ENTRY computation) becomes one more output of the fusion, so one
// kernel writes both buffers. See the pass description
// (BufferAssignmentPasses.td).
//
//===----------------------------------------------------------------------===//

#include "CudnnUtils.h"
#include "FusionUtils.h"
#include "GpuFusible.h"
#include "TransformUtils.h"

#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Transforms/BufferAssignmentPasses.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCOPYFUSION
#include "Hlo/Transforms/BufferAssignmentPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// XLA's OnlyElementwiseOpsReachableFromParams: from the parameters of
/// `body`, only ops elementwise on the operand reached (not copies),
/// bitcasts and tuples.
bool onlyElementwiseFromParams(Block *body) {
  SmallVector<Value> work(body->getArguments());
  llvm::DenseSet<Operation *> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (user->hasTrait<OpTrait::IsTerminator>())
        continue;
      bool passes = isa<BitcastOp, TupleOp>(user) ||
                    (isElementwise(user) && !isa<CopyOp>(user));
      if (!passes)
        return false;
      if (seen.insert(user).second)
        llvm::append_range(work, user->getResults());
    }
  }
  return true;
}

/// A copy of one fusion output, reached through at most one
/// get-tuple-element and one bitcast.
struct Candidate {
  Operation *copy;
  Operation *bitcast = nullptr;
  int64_t output = 0;
};

struct CopyFusionPass
    : ChangeReportingPass<CopyFusionPass, hlo::impl::HloCopyFusionBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    SymbolTableCollection tables;
    GpuFusible fusible(tables, getSelectedGpuDevice(), /*maxOperands=*/96);
    module.walk([&](FusionOp f) { ++calls[f.getCallsAttr().getAttr()]; });
    for (auto comp : module.getOps<ComputationOp>()) {
      if (!comp.getEntry() || comp.getBody().empty())
        continue;
      SmallVector<FusionOp> fusions;
      for (Operation &op : comp.getBody().front())
        if (auto fusion = dyn_cast<FusionOp>(op))
          fusions.push_back(fusion);
      for (FusionOp fusion : fusions)
        fuseCopies(fusion, fusible, tables);
    }
  }

  /// How many fusions call each fused computation.
  llvm::DenseMap<StringAttr, unsigned> calls;

  void fuseCopies(FusionOp fusion, GpuFusible &fusible,
                  SymbolTableCollection &tables) {
    Block *body = fusible.body(fusion);
    if (!body || !onlyElementwiseFromParams(body) || hasControlEdges(fusion))
      return;
    // A fused computation another fusion calls too stays as it is.
    if (calls.lookup(fusion.getCallsAttr().getAttr()) != 1)
      return;
    Operation *root = body->getTerminator()->getOperand(0).getDefiningOp();
    auto rootTuple = dyn_cast_or_null<TupleOp>(root);
    SmallVector<Value> outputs = getFusionOutputs(fusion, tables);
    if (outputs.empty())
      return;
    auto isReduction = [&](Value v) {
      Operation *def = v.getDefiningOp();
      return def && fusible.isUnnestedReduction(def);
    };
    if ((root && (fusible.isUnnestedReduction(root) || isa<ScatterOp>(root))) ||
        (rootTuple && llvm::all_of(outputs, [](Value v) {
           return isa_and_nonnull<SliceOp>(v.getDefiningOp());
         })))
      return;
    // The sort emitter writes a sort's results and nothing else (a sort
    // fusion without parameters, of an iota, passes the elementwise test).
    if (llvm::any_of(outputs, [](Value v) {
          return isa_and_nonnull<SortOp>(v.getDefiningOp());
        }))
      return;
    unsigned inPlace = llvm::count_if(outputs, [](Value v) {
      return isa_and_nonnull<DynamicUpdateSliceOp>(v.getDefiningOp());
    });
    if (inPlace && (!rootTuple || inPlace == outputs.size()))
      return;

    SmallVector<Candidate> candidates;
    for (Operation *user : fusion->getUsers()) {
      Candidate c{user};
      if (auto gte = dyn_cast<GetTupleElementOp>(user)) {
        if (!rootTuple || !gte->hasOneUse() ||
            isReduction(outputs[gte.getIndex()]))
          continue;
        c.output = gte.getIndex();
        c.copy = *gte->getUsers().begin();
      } else if (rootTuple) {
        continue;
      }
      if (isa<BitcastOp>(c.copy) && c.copy->hasOneUse()) {
        c.bitcast = c.copy;
        c.copy = *c.copy->getUsers().begin();
      }
      if (!isa<CopyOp>(c.copy) ||
          c.copy->getResult(0).getType() != c.copy->getOperand(0).getType() ||
          isa<TupleType>(c.copy->getResult(0).getType()) ||
          hasControlEdges(c.copy) ||
          !fusible.fusionFitsInBudget(fusion, c.copy,
                                      /*isConsumerProducerFusion=*/false))
        continue;
      candidates.push_back(c);
    }
    if (candidates.empty())
      return;

    // The copies, cloned into the fused computation on their outputs.
    OpBuilder inside(body->getTerminator());
    SmallVector<Value> newOutputs(outputs);
    for (const Candidate &c : candidates) {
      Value v = outputs[c.output];
      for (Operation *op : {c.bitcast, c.copy}) {
        if (!op)
          continue;
        Operation *clone = inside.clone(*op);
        clone->setOperand(0, v);
        v = clone->getResult(0);
      }
      newOutputs.push_back(v);
    }
    Operation *fused = withOutputs(fusion, newOutputs, rootTuple);
    OpBuilder b(fused);
    for (auto [i, c] : llvm::enumerate(candidates)) {
      b.setInsertionPoint(c.copy);
      Value gte = createGte(b, c.copy->getLoc(), fused->getResult(0),
                            outputs.size() + i);
      c.copy->getResult(0).replaceAllUsesWith(gte);
      c.copy->erase();
      if (c.bitcast)
        c.bitcast->erase();
    }
    if (rootTuple) {
      for (Operation *user : llvm::make_early_inc_range(fusion->getUsers()))
        if (user->use_empty())
          user->erase(); // the get-tuple-element that read a fused copy
        else
          user->setOperand(0, fused->getResult(0));
    } else if (!fusion->use_empty()) {
      b.setInsertionPointAfter(fused);
      Value gte = createGte(b, fusion->getLoc(), fused->getResult(0), 0);
      fusion->getResult(0).replaceAllUsesWith(gte);
    }
    fusion->erase();
    numFused += candidates.size();
    changed = true;
  }
};

} // namespace
