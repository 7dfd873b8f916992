//===- ScatterSimplifier.cpp - scatters in canonical form -----------------===//
//
// XLA's ScatterSimplifier (XLA-GPU runs it in its simplification loop,
// between the gather expander and the scatter expander, and after layout
// normalization). A scatter is canonical when its indices are a [N, K]
// matrix (index_vector_dim 1), scatter_dims_to_operand_dims is 0..K-1, no
// window dimension is inserted and its updates are [N, window] with the
// window in the operand's dimension order: update_window_dims 1..rank.
// Any other scatter becomes
//
//   operands' = transpose(operand, P), P = scatter_dims_to_operand_dims
//               then the other dimensions in order;
//   indices'  = the index vectors as the rows of a [N, K] matrix;
//   updates'  = updates with the scatter dimensions first, flattened to N,
//               size-1 dimensions at the inserted window dimensions,
//               then the window transposed by P;
//   transpose(scatter(operands', indices', updates'), P^-1)
//
// (each result of a variadic scatter transposed back; no transpose for the
// identity). The new scatter keeps the combiner, sortedness and
// uniqueness; the last instruction takes the scatter's name. Left alone:
// scatters with batching dimensions (hlo-batched-gather-scatter-normalizer
// removes them first), dynamic shapes, control edges, fused computations.
// The instructions made have no layout: in the pipelines it runs before
// layout assignment.
//
//===----------------------------------------------------------------------===//

#include "GatherScatterUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSCATTERSIMPLIFIER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// XLA's ScatterSimplifier::InstructionMatchesPattern, for the scatters
/// this pass can rewrite.
static bool isSimplifiable(ScatterOp op) {
  if (hasControlPredecessors(op) || isControlPredecessor(op) ||
      !orEmpty(op.getInputBatchingDims()).empty())
    return false;
  ScatterParts parts(op);
  auto isStatic = [](Value v) { return isStaticArray(v.getType()); };
  if (!llvm::all_of(parts.operands, isStatic) || !isStatic(parts.indices) ||
      !llvm::all_of(parts.updates, isStatic) ||
      !llvm::all_of(op->getResultTypes(), [](Type t) {
        auto tuple = dyn_cast<TupleType>(t);
        return tuple ? llvm::all_of(tuple.getTypes(), isStaticArray)
                     : isStaticArray(t);
      }))
    return false;
  int64_t indicesRank = tensorType(parts.indices).getRank();
  int64_t scatterDims =
      tensorType(parts.updates[0]).getRank() - op.getUpdateWindowDims().size();
  return int64_t(op.getIndexVectorDim()) != indicesRank - 1 ||
         scatterDims > 1 ||
         !isIdentityPermutation(op.getScatterDimsToOperandDims()) ||
         llvm::is_contained(op.getUpdateWindowDims(), 0) ||
         !op.getInsertedWindowDims().empty();
}

static void simplify(ScatterOp op) {
  ScatterParts parts(op);
  ArrayRef<int64_t> windowDims = op.getUpdateWindowDims();
  ArrayRef<int64_t> inserted = op.getInsertedWindowDims();
  ArrayRef<int64_t> toOperand = op.getScatterDimsToOperandDims();
  int64_t rank = tensorType(parts.operands[0]).getRank();

  // P: the indexed dimensions first, then the others in order.
  SmallVector<int64_t> perm(toOperand);
  llvm::append_range(perm, dimsExcept(rank, toOperand));
  SmallVector<int64_t> inverse = inversePermutation(perm);

  OpBuilder b(op);
  InstBuilder ib(b, derivedLoc(op.getLoc()));
  RankedTensorType indicesType = tensorType(parts.indices);
  WindowIndexing w{indicesType.getShape(),
                   int64_t(op.getIndexVectorDim()),
                   toOperand,
                   {},
                   {},
                   rank,
                   indicesType.getElementType()};
  Value indices = canonicalizeIndices(ib, w, parts.indices);
  int64_t n = tensorType(indices).getDimSize(0);

  SmallVector<int64_t> updatePerm = {0};
  for (int64_t p : perm)
    updatePerm.push_back(p + 1);
  SmallVector<Value> updates;
  for (Value update : parts.updates) {
    RankedTensorType type = tensorType(update);
    // The scatter dimensions first, then the window.
    SmallVector<int64_t> moved = dimsExcept(type.getRank(), windowDims);
    llvm::append_range(moved, windowDims);
    Value v = ib.transpose(update, moved);
    // [N, window in operand order with 1 at the inserted dimensions].
    SmallVector<int64_t> shape = {n};
    for (int64_t d = 0, j = 0; d < rank; ++d)
      shape.push_back(llvm::is_contained(inserted, d)
                          ? 1
                          : type.getDimSize(windowDims[j++]));
    v = ib.reshape(v, shape);
    updates.push_back(ib.transpose(v, updatePerm));
  }
  SmallVector<Value> operands;
  for (Value operand : parts.operands)
    operands.push_back(ib.transpose(operand, perm));

  SmallVector<Type> resultTypes;
  for (Value operand : operands)
    resultTypes.push_back(operand.getType());
  bool variadic = operands.size() > 1;
  Type resultType = variadic
                        ? Type(TupleType::get(op.getContext(), resultTypes))
                        : resultTypes[0];
  SmallVector<Value> newOperands(operands);
  newOperands.push_back(indices);
  llvm::append_range(newOperands, updates);
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr("update_window_dims",
                     b.getDenseI64ArrayAttr(
                         llvm::to_vector(llvm::seq<int64_t>(1, rank + 1)))),
      b.getNamedAttr("inserted_window_dims", b.getDenseI64ArrayAttr({})),
      b.getNamedAttr("scatter_dims_to_operand_dims",
                     b.getDenseI64ArrayAttr(llvm::to_vector(llvm::seq<int64_t>(
                         0, static_cast<int64_t>(toOperand.size()))))),
      b.getNamedAttr("index_vector_dim", b.getI64IntegerAttr(1)),
      b.getNamedAttr("to_apply", op.getToApplyAttr())};
  for (StringRef name : {"indices_are_sorted", "unique_indices"})
    if (Attribute a = op->getAttr(name))
      attrs.push_back(b.getNamedAttr(name, a));
  Value scatter = ib.create<ScatterOp>(resultType, newOperands, attrs);

  Value result = scatter;
  if (!isIdentityPermutation(perm)) {
    SmallVector<Value> back;
    for (size_t i = 0; i < operands.size(); ++i)
      back.push_back(ib.transpose(
          variadic ? ib.getTupleElement(scatter, i) : scatter, inverse));
    result = variadic ? ib.tuple(back) : back[0];
  }
  // The replacement keeps the scatter's result type (its layouts) and name.
  result.setType(op.getType());
  replaceByNamed(op, result);
}

namespace {
struct ScatterSimplifierPass
    : ChangeReportingPass<ScatterSimplifierPass,
                          hlo::impl::HloScatterSimplifierBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    SmallVector<ScatterOp> worklist;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](ScatterOp op) {
        if (isSimplifiable(op))
          worklist.push_back(op);
      });
    for (ScatterOp op : worklist) {
      simplify(op);
      ++numSimplified;
      changed = true;
    }
  }
};
} // namespace
