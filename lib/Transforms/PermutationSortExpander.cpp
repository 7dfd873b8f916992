//===- PermutationSortExpander.cpp - inverse permutations as scatters -----===//
//
// XLA's PermutationSortExpander (its pass name: permutation_sort_simplifier;
// XLA-GPU's optimization pipeline, before the comparison expander). The
// argsort of an iota gives, along the sort dimension, a permutation of
// 0..N-1; sorting (that permutation, values) again by the permutation
// ascending computes its inverse applied to the values, which a scatter
// does without sorting:
//
//   s = (f32[64,8732], s32[64,8732]) sort(keys, iota_dim1), dimensions={1}
//   perm = s32[64,8732] get-tuple-element(s), index=1
//   s2 = (s32[64,8732], s32[64,8732]) sort(perm, values), dimensions={1},
//          to_apply=less_than
// ->
//   s2 = tuple(iota_dim1,                   (the sorted permutation)
//              scatter(broadcast(0), concatenate(iota_dim0, perm) as
//                      [64,8732,2] indices, values) replacing each element)
//
// Matched: a sort of two operands whose comparator is `compare(p0, p1),
// direction=LT` on the first operand's two parameters; its first operand a
// get-tuple-element of another sort along the same dimension, of an operand
// that is an integer iota along it. The iota's type must hold N-1 (XLA does
// not check: a narrower one wraps and is no permutation). The scatter's
// computation returns its update, in the values' element type. Left alone:
// dynamic shapes, control edges, fused computations.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

#include "llvm/ADT/Sequence.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOPERMUTATIONSORTEXPANDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// True if `comparator`'s root is `compare(p0, p1), direction=LT`.
static bool isLessThanOnFirst(ComputationOp comparator) {
  if (!comparator || comparator.getBody().empty())
    return false;
  Block &body = comparator.getBody().front();
  auto compare = body.getTerminator()->getOperand(0).getDefiningOp<CompareOp>();
  return compare && body.getNumArguments() >= 2 &&
         compare.getDirection() == ComparisonDirection::LT &&
         compare.getLhs() == body.getArgument(0) &&
         compare.getRhs() == body.getArgument(1);
}

/// True if `keys` is, along `dim`, a permutation of 0..N-1: an element of
/// a sort along `dim` whose operand there is an integer iota along `dim`
/// whose type holds N-1.
static bool isPermutation(Value keys, int64_t dim) {
  auto gte = keys.getDefiningOp<GetTupleElementOp>();
  if (!gte)
    return false;
  auto sort = gte.getOperand().getDefiningOp<SortOp>();
  if (!sort || sort.getInputs().size() < 2 ||
      sort.getDimensions().size() != 1 || sort.getDimensions()[0] != dim)
    return false;
  auto iota = sort.getInputs()[gte.getIndex()].getDefiningOp<IotaOp>();
  if (!iota || iota.getIotaDimension() != dim)
    return false;
  auto type = cast<RankedTensorType>(iota.getType());
  auto element = dyn_cast<IntegerType>(type.getElementType());
  if (!element || element.getWidth() < 2)
    return false;
  unsigned bits = element.getWidth() - (element.isUnsigned() ? 0 : 1);
  return bits >= 63 || type.getDimSize(dim) - 1 <= (int64_t(1) << bits) - 1;
}

/// A new private computation returning its second parameter, a scalar of
/// `sort`'s values (XLA's update_replace_computation).
static FlatSymbolRefAttr replaceComputation(SortOp sort, SymbolTable &symbols) {
  Type element = getElementTypeOrSelf(sort.getInputs()[1].getType());
  auto scalar = RankedTensorType::get({}, element);
  ComputationOp comp =
      createComputation(symbols, sort->getParentOfType<ComputationOp>(),
                        "update_replace_computation", {scalar, scalar},
                        UnknownLoc::get(sort.getContext()));
  OpBuilder b = OpBuilder::atBlockEnd(&comp.getBody().front());
  setComputationResult(comp, b, comp.getArgument(1));
  return FlatSymbolRefAttr::get(comp.getSymNameAttr());
}

/// Replaces `sort` by the iota and scatter of the file comment.
static void expand(SortOp sort, SymbolTable &symbols) {
  Value keys = sort.getInputs()[0], values = sort.getInputs()[1];
  auto keyType = cast<RankedTensorType>(keys.getType());
  auto valueType = cast<RankedTensorType>(values.getType());
  int64_t dim = sort.getDimensions()[0], rank = keyType.getRank();
  OpBuilder b(sort);
  InstBuilder ib(b, derivedLoc(sort.getLoc()));
  auto iota = [&](RankedTensorType type, int64_t d) {
    return ib.create<IotaOp>(
        type, {}, {b.getNamedAttr("iota_dimension", b.getI64IntegerAttr(d))});
  };
  // Indices [..., rank]: the position of each value along every dimension
  // but `dim`, and its key along `dim`.
  SmallVector<int64_t> column(keyType.getShape());
  column.push_back(1);
  auto columnType = RankedTensorType::get(column, keyType.getElementType());
  SmallVector<Value> positions;
  for (int64_t d = 0; d < rank; ++d)
    positions.push_back(d == dim ? ib.reshape(keys, column)
                                 : iota(columnType, d));
  Value indices = positions.front();
  if (rank > 1) {
    SmallVector<int64_t> shape(keyType.getShape());
    shape.push_back(rank);
    indices = ib.create<ConcatenateOp>(
        RankedTensorType::get(shape, keyType.getElementType()), positions,
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({rank}))});
  }
  // The sorted keys and the values in the sort's result types (layouts).
  auto results = cast<TupleType>(sort.getType());
  Value zeros = ib.create<BroadcastOp>(
      results.getType(1), ib.scalar(valueType.getElementType(), 0),
      {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({}))});
  SmallVector<int64_t> all = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  Value scatter = ib.create<ScatterOp>(
      results.getType(1), {zeros, indices, values},
      {b.getNamedAttr("update_window_dims", b.getDenseI64ArrayAttr({})),
       b.getNamedAttr("inserted_window_dims", b.getDenseI64ArrayAttr(all)),
       b.getNamedAttr("scatter_dims_to_operand_dims",
                      b.getDenseI64ArrayAttr(all)),
       b.getNamedAttr("index_vector_dim", b.getI64IntegerAttr(rank)),
       b.getNamedAttr("unique_indices", b.getBoolAttr(true)),
       b.getNamedAttr("to_apply", replaceComputation(sort, symbols))});
  Value sorted = iota(cast<RankedTensorType>(results.getType(0)), dim);
  replaceByNamed(sort, ib.tuple({sorted, scatter}));
}

namespace {
struct PermutationSortExpanderPass
    : ChangeReportingPass<PermutationSortExpanderPass,
                          hlo::impl::HloPermutationSortExpanderBase> {
  void run() {
    SymbolTable symbols(getOperation());
    SmallVector<SortOp> worklist;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](SortOp sort) {
        if (sort.getInputs().size() == 2 && sort.getDimensions().size() == 1 &&
            !hasControlEdges(sort) &&
            isStaticArray(sort.getInputs()[0].getType()) &&
            isStaticArray(sort.getInputs()[1].getType()) &&
            isLessThanOnFirst(
                symbols.lookup<ComputationOp>(sort.getToApply())) &&
            isPermutation(sort.getInputs()[0], sort.getDimensions()[0]))
          worklist.push_back(sort);
      });
    for (SortOp sort : worklist) {
      expand(sort, symbols);
      ++numExpanded;
      changed = true;
    }
  }
};
} // namespace
