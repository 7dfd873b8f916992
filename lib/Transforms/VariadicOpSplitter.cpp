//===- VariadicOpSplitter.cpp - concatenates with fewer operands ----------===//
//
// XLA's GPU VariadicOpSplitter: a kernel's parameter space is limited, so a
// concatenate with more than kMaxParameters (128) operands becomes a tree of
// concatenates. Each round concatenates consecutive groups of 128 operands;
// a last group of fewer than 128 operands is carried to the next round as
// it is (unless it is the first group), where it joins the new
// concatenates. Rounds repeat until one concatenate is left, which takes
// the original's place.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuFusionPasses.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOVARIADICOPSPLITTER
#include "Hlo/Transforms/GpuFusionPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// A concatenate of `operands` like `concat` (its dimension, layout and
/// metadata), of the size their shapes add up to, at `loc`.
Value concatLike(OpBuilder &b, ConcatenateOp concat, ValueRange operands,
                 Location loc) {
  int64_t dim = concat.getDimensions()[0];
  auto type = cast<RankedTensorType>(concat.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = 0;
  for (Value v : operands)
    shape[dim] += cast<RankedTensorType>(v.getType()).getDimSize(dim);
  auto newType =
      RankedTensorType::get(shape, type.getElementType(), type.getEncoding());
  Operation *op = createInstruction(
      b, loc, ConcatenateOp::getOperationName(), newType, operands,
      {b.getNamedAttr("dimensions", concat.getDimensionsAttr())});
  return op->getResult(0);
}

struct VariadicOpSplitterPass
    : ChangeReportingPass<VariadicOpSplitterPass,
                          hlo::impl::HloVariadicOpSplitterBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    if (maxOperands < 2)
      return;
    SmallVector<ConcatenateOp> worklist;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](ConcatenateOp op) {
        if (static_cast<int64_t>(op.getInputs().size()) > maxOperands &&
            !hasControlPredecessors(op) && isStaticArray(op.getType()) &&
            llvm::all_of(op.getInputs().getTypes(), isStaticArray))
          worklist.push_back(op);
      });
    for (ConcatenateOp op : worklist)
      split(op);
  }

  void split(ConcatenateOp concat) {
    OpBuilder b(concat);
    // The new concatenates are named like XLA's clones (`cat.1`, `cat.2`);
    // the last one takes the original's place and name.
    StringRef name;
    if (auto nameLoc = dyn_cast<NameLoc>(concat->getLoc()))
      name = nameLoc.getName().getValue();
    if (name.empty())
      name = "concatenate";
    unsigned created = 0;
    auto nextLoc = [&]() -> Location {
      return NameLoc::get(b.getStringAttr(name + "." + Twine(++created)),
                          derivedLoc(concat->getLoc()));
    };
    size_t group = static_cast<size_t>(maxOperands);
    SmallVector<Value> operands(concat.getInputs());
    while (operands.size() > group) {
      SmallVector<Value> next;
      for (size_t offset = 0; offset < operands.size(); offset += group) {
        ArrayRef<Value> rest = ArrayRef(operands).drop_front(offset);
        if (offset > 0 && rest.size() < group) {
          llvm::append_range(next, rest);
          break;
        }
        next.push_back(
            concatLike(b, concat, rest.take_front(group), nextLoc()));
      }
      operands = std::move(next);
    }
    // The last round's concatenate takes the original's place.
    Value root = concatLike(b, concat, operands, concat->getLoc());
    for (StringRef attr : {"sharding", "frontend_attributes"})
      if (Attribute value = concat->getAttr(attr))
        root.getDefiningOp()->setAttr(attr, value);
    concat.getResult().replaceAllUsesWith(root);
    concat->erase();
    ++numSplit;
    changed = true;
  }
};

} // namespace
