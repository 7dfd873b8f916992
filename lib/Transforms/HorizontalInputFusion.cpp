//===- HorizontalInputFusion.cpp - independent reductions in one kernel ---===//
//
// XLA's GPU HorizontalInputFusion (seed 002, section 3.9). For every
// instruction (in program order), its operands that are reduction kernels
// (reduces from or to contiguous dimensions, fusions around them) read by
// it alone (or also by the computation's root) are independent of one
// another: none can reach another, since each one's only reader comes
// after all of them. They are sorted by their heroes' input shapes (rank,
// dimensions, then instruction count, then program order), so equal
// shapes are neighbours, wrapped in kInput fusions when they are plain
// reduces, and each is merged into the current anchor when their shapes
// are compatible and the fusion fits the budget (XLA's
// ShapesCompatibleForMultiOutputFusion and FusionFitsInBudget); otherwise
// it becomes the anchor. One kernel launch then does the work of several.
//
//===----------------------------------------------------------------------===//

#include "FusionUtils.h"
#include "GpuFusible.h"
#include "TransformUtils.h"

#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuFusionPasses.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

#include <tuple>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOHORIZONTALINPUTFUSION
#include "Hlo/Transforms/GpuFusionPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// XLA's LatestNonGteAncestor: `v`'s definition, through get-tuple-elements.
static Operation *latestNonGteAncestor(Value v) {
  Operation *def = v.getDefiningOp();
  while (auto gte = dyn_cast_or_null<GetTupleElementOp>(def))
    def = gte.getOperand().getDefiningOp();
  return def;
}

/// XLA's IsConsumerTheOnlyNonRootUser: every reader of `op` (through
/// get-tuple-elements) is `consumer` or the computation's root.
static bool isConsumerTheOnlyNonRootUser(Operation *op, Operation *consumer,
                                         Operation *root) {
  return llvm::all_of(op->getUsers(), [&](Operation *user) {
    if (isa<GetTupleElementOp>(user))
      return isConsumerTheOnlyNonRootUser(user, consumer, root);
    return user == consumer || user == root;
  });
}

namespace {

/// The pass's work on one module.
struct HorizontalInputFusionImpl {
  HorizontalInputFusionImpl(ModuleOp module, int64_t maxOperands)
      : module(module), maxOperands(maxOperands) {}

  ModuleOp module;
  int64_t maxOperands;
  int64_t numHorizontalFusions = 0;
  bool changed = false;
  ModuleOp getOperation() { return module; }
  MLIRContext &getContext() { return *module.getContext(); }

  SymbolTableCollection tables;
  SymbolTable *symbols = nullptr;
  DenseSet<Operation *> touched;

  void run() {
    ModuleOp module = getOperation();
    symbols = &tables.getSymbolTable(module);
    GpuFusible fusible(tables, getSelectedGpuDevice(), maxOperands);
    SmallVector<ComputationOp> comps = getFusibleComputations(module, *symbols);
    for (ComputationOp comp : comps)
      fuseComputation(comp, fusible);
    llvm::StringMap<unsigned> suffixes;
    for (ComputationOp comp : comps)
      for (auto fusion : comp.getBody().front().getOps<FusionOp>())
        if (touched.contains(fusion))
          nameFusion(fusion, *symbols, tables, suffixes);
  }

  /// The input shape of `op`'s real hero (XLA's
  /// GetInputShapeForMultiOutputFusion); null without operands.
  static Type inputShape(Operation *op, GpuFusible &fusible) {
    Operation *hero = fusible.realHero(op);
    return hero && hero->getNumOperands() ? hero->getOperand(0).getType()
                                          : Type();
  }

  void fuseComputation(ComputationOp comp, GpuFusible &fusible) {
    Block &block = comp.getBody().front();
    SmallVector<Operation *> order;
    for (Operation &op : block)
      order.push_back(&op);
    DenseMap<Operation *, int64_t> position;
    for (auto [i, op] : llvm::enumerate(order))
      position[op] = i;

    for (Operation *consumer : order) {
      // The root may have been fused into a kernel: look it up each time.
      Operation *root = block.getTerminator()->getOperand(0).getDefiningOp();
      if (root && !root->hasOneUse())
        root = nullptr;
      // Candidates: the reduction kernels only `consumer` (or the root)
      // reads.
      llvm::SetVector<Operation *> candidates;
      for (Value v : getDataOperands(consumer)) {
        Operation *pred = latestNonGteAncestor(v);
        if (!pred || pred->getBlock() != &block || !fusible.isFusible(pred) ||
            !fusible.isInputFusibleReduction(pred))
          continue;
        if (isa<TupleType>(pred->getResult(0).getType()) &&
            !onlyElementsRead(pred->getResult(0)))
          continue;
        if (isConsumerTheOnlyNonRootUser(pred, consumer, root))
          candidates.insert(pred);
      }
      if (candidates.size() <= 1)
        continue;
      SmallVector<Operation *> sorted = candidates.takeVector();
      auto key = [&](Operation *op) {
        auto shape =
            dyn_cast_or_null<RankedTensorType>(inputShape(op, fusible));
        SmallVector<int64_t> dims;
        if (shape)
          dims.assign(shape.getShape().begin(), shape.getShape().end());
        auto pos = position.find(op);
        return std::make_tuple(dims.size(), dims, fusible.instructionCount(op),
                               pos == position.end() ? int64_t(-1)
                                                     : pos->second);
      };
      llvm::stable_sort(
          sorted, [&](Operation *a, Operation *b) { return key(a) < key(b); });

      // Plain reduces become kInput fusions.
      for (Operation *&op : sorted) {
        if (isa<FusionOp>(op))
          continue;
        Operation *where = op->getParentOfType<ComputationOp>();
        FusionOp fusion = wrapInFusion(op, *symbols, tables, where);
        setFusionConfig(fusion, FusionKind::kInput);
        touched.insert(fusion);
        op = fusion;
        changed = true;
      }

      size_t anchor = 0;
      for (size_t j = 1; j < sorted.size(); ++j) {
        Operation *a = sorted[anchor], *b = sorted[j];
        if (!fusible.shapesCompatibleForMultiOutputFusion(a, b) ||
            !fusible.fusionFitsInBudget(a, b,
                                        /*isConsumerProducerFusion=*/false)) {
          anchor = j;
          continue;
        }
        fusible.invalidate(a);
        fusible.invalidate(b);
        touched.erase(a);
        touched.erase(b);
        FusionOp fusion =
            fuseIntoMultiOutputInOrder(b, cast<FusionOp>(a), *symbols, tables);
        setFusionConfig(fusion, FusionKind::kInput);
        sorted[anchor] = fusion;
        touched.insert(fusion);
        ++numHorizontalFusions;
        changed = true;
      }
    }
  }
};

struct HorizontalInputFusionPass
    : ChangeReportingPass<HorizontalInputFusionPass,
                          hlo::impl::HloHorizontalInputFusionBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    HorizontalInputFusionImpl impl(getOperation(), maxOperands);
    impl.run();
    changed = impl.changed;
    numHorizontalFusions += impl.numHorizontalFusions;
  }
};

} // namespace
