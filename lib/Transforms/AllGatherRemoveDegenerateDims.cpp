//===- AllGatherRemoveDegenerateDims.cpp - all-gathers without 1s ---------===//
//
// XLA's AllGatherRemoveDegenerateDims (in "collective-optimizations", after
// the all-gather broadcast reorder): the GPU gathers along the major
// dimension, so the size-1 dimensions around the gathered one are removed
// before layout assignment:
//
//   %ag = f32[1,16,1,128] all-gather(f32[1,4,1,128] %p), dimensions={1}
// ->
//   %ag = f32[16,128] all-gather(f32[4,128] reshape(%p)), dimensions={0}
//   users read f32[1,16,1,128] reshape(%ag)
//
// A size-1 dimension before the gathered one is removed only when every
// operand has it (they share the gathered dimension's index); one after it
// from each operand that has it. The gathered dimension itself stays. A
// tuple result is taken apart with get-tuple-element, each element reshaped
// back, and put together again with a tuple.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOALLGATHERREMOVEDEGENERATEDIMS
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct AllGatherRemoveDegenerateDimsPass
    : ChangeReportingPass<AllGatherRemoveDegenerateDimsPass,
                          hlo::impl::HloAllGatherRemoveDegenerateDimsBase> {
  void run() {
    SmallVector<AllGatherOp> worklist;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](AllGatherOp ag) { worklist.push_back(ag); });
    for (AllGatherOp ag : worklist)
      if (rewrite(ag)) {
        ++numRewritten;
        changed = true;
      }
  }

  bool rewrite(AllGatherOp ag) {
    if (ag.getConstrainLayout().value_or(false) || hasControlEdges(ag) ||
        ag.getDimensions().size() != 1 || ag.getInputs().empty())
      return false;
    int64_t dim = ag.getDimensions()[0];
    SmallVector<RankedTensorType> operandTypes, resultTypes;
    for (Value input : ag.getInputs()) {
      auto type = dyn_cast<RankedTensorType>(input.getType());
      if (!type || !type.hasStaticShape() || dim < 0 || dim >= type.getRank())
        return false;
      operandTypes.push_back(type);
    }
    Type resultType = ag.getResult().getType();
    if (auto tuple = dyn_cast<TupleType>(resultType)) {
      for (Type t : tuple.getTypes())
        if (auto rt = dyn_cast<RankedTensorType>(t))
          resultTypes.push_back(rt);
    } else if (auto rt = dyn_cast<RankedTensorType>(resultType)) {
      resultTypes.push_back(rt);
    }
    if (resultTypes.size() != operandTypes.size())
      return false;
    int64_t shards = resultTypes[0].getDimSize(dim) /
                     std::max<int64_t>(operandTypes[0].getDimSize(dim), 1);

    // Dimensions before `dim` of size 1 in every operand, counted once.
    SmallVector<int64_t> major;
    for (int64_t i = 0; i < dim; ++i)
      if (llvm::all_of(operandTypes, [&](RankedTensorType t) {
            return t.getDimSize(i) == 1;
          }))
        major.push_back(i);

    OpBuilder b(ag);
    Location loc = derivedLoc(ag.getLoc());
    bool removed = false;
    SmallVector<Value> inputs;
    SmallVector<Type> newResults;
    for (auto [input, type] : llvm::zip(ag.getInputs(), operandTypes)) {
      SmallVector<int64_t> kept;
      for (int64_t i = 0, e = type.getRank(); i < e; ++i) {
        bool degenerate = i < dim ? llvm::is_contained(major, i)
                                  : i > dim && type.getDimSize(i) == 1;
        if (!degenerate)
          kept.push_back(type.getDimSize(i));
      }
      if (int64_t(kept.size()) == type.getRank()) {
        inputs.push_back(input);
      } else {
        removed = true;
        inputs.push_back(ReshapeOp::create(
            b, loc, RankedTensorType::get(kept, type.getElementType()), input));
      }
      kept[dim - major.size()] *= shards;
      newResults.push_back(RankedTensorType::get(kept, type.getElementType()));
    }
    if (!removed)
      return false;

    auto gathered = cast<AllGatherOp>(b.clone(*ag));
    gathered.getInputsMutable().assign(inputs);
    gathered.setDimensions({dim - int64_t(major.size())});
    bool isTuple = isa<TupleType>(resultType);
    gathered.getResult().setType(
        isTuple ? TupleType::get(b.getContext(), newResults) : newResults[0]);
    SmallVector<Value> restored;
    for (auto [i, type] : llvm::enumerate(resultTypes)) {
      Value element = gathered.getResult();
      if (isTuple)
        element =
            createInstruction(b, loc, GetTupleElementOp::getOperationName(),
                              newResults[i], {element},
                              {b.getNamedAttr("index", b.getI64IntegerAttr(i))})
                ->getResult(0);
      restored.push_back(ReshapeOp::create(b, loc, type, element));
    }
    Value replacement = restored[0];
    if (isTuple)
      replacement = createInstruction(b, loc, TupleOp::getOperationName(),
                                      resultType, restored)
                        ->getResult(0);
    ag.getResult().replaceAllUsesWith(replacement);
    ag.erase();
    return true;
  }
};
} // namespace
