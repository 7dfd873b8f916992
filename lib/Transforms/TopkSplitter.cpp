//===- TopkSplitter.cpp - long TopK rows as several rows ------------------===//
//
// XLA-GPU's TopKSplitter: a `TopK` call of one row of n elements (`[n]` or
// `[1, n]`), n at least the threshold (1M elements by default) and a
// multiple of 1024, k at most sqrt(n), takes the top k of B rows of n / B
// (B = min(2^floor(log2(n / threshold)), 1024)), then the top k of those
// B x k candidates:
//   part    = TopK(reshape(x) : [B, n / B])
//   indices = gte(part, 1) + broadcast(iota(B) * (n / B))
//   sorted  = stable sort(reshape(gte(part, 0)), reshape(indices)) by the
//             comparator
//   result  = (reshape(slice(gte(sorted, 0))), reshape(slice(gte(sorted, 1))))
// so that XLA's top-k kernel (hlo-topk-specializer) runs B blocks where it
// ran one. The candidates of a row come best first, rows in index order, so
// the stable sort keeps ties in index order. A comparator of the values
// alone is given two index parameters it ignores. Local to each call:
// linear.
//
//===----------------------------------------------------------------------===//

#include "CudnnUtils.h"
#include "ExpanderUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTopKCalls.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"

#include "llvm/ADT/bit.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOTOPKSPLITTER
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// XLA's limits: n a multiple of this, at most this many rows.
constexpr int64_t kRequiredAlignment = 1024;
constexpr int64_t kMaximumBatchSize = 1024;

struct TopkSplitterPass
    : ChangeReportingPass<TopkSplitterPass, hlo::impl::HloTopkSplitterBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<CustomCallOp> calls;
    for (ComputationOp comp : nonFusionComputations(module))
      comp.walk([&](CustomCallOp call) {
        if (call.getCustomCallTarget() == "TopK" && !hasControlEdges(call))
          calls.push_back(call);
      });
    widened.clear();
    for (CustomCallOp call : calls)
      split(call, symbols);
  }

  /// Each comparator of the values alone with its index parameters added,
  /// made once.
  llvm::DenseMap<ComputationOp, ComputationOp> widened;

  void split(CustomCallOp call, SymbolTable &symbols) {
    std::string why;
    FailureOr<TopKCall> topk = readTopKCall(call, why);
    // One row: [n] or [1, n].
    if (failed(topk) || topk->input.getRank() > 2 || topk->rows != 1)
      return;
    Value x = getDataOperands(call)[0];
    RankedTensorType type = topk->input;
    auto tuple = cast<TupleType>(call.getResult().getType());
    ArrayAttr callees = call.getCalledComputationsAttr();
    int64_t n = topk->n, k = topk->k;
    if (k * k > n || n % kRequiredAlignment != 0 || n < splitThreshold ||
        splitThreshold < 1)
      return;
    auto comparator = symbols.lookup<ComputationOp>(topk->comparator.getAttr());
    if (!comparator || (comparator.getNumArguments() != 2 &&
                        comparator.getNumArguments() != 4))
      return;
    int64_t rows = std::min<int64_t>(
        int64_t(llvm::bit_floor(uint64_t(n / splitThreshold))),
        kMaximumBatchSize);
    // (XLA also "splits" a row of exactly the threshold into one row.)
    if (rows < 2)
      return;
    int64_t part = n / rows;

    MLIRContext *ctx = &getContext();
    OpBuilder b(call);
    Location loc = call.getLoc();
    ExpansionBuilder eb(b, derivedLoc(loc));
    Type element = type.getElementType(), s32 = IntegerType::get(ctx, 32);
    auto arrayType = [&](ArrayRef<int64_t> shape, Type t) {
      return rowMajorTypeLike(type, shape, t);
    };
    auto reshape = [&](Value v, Type t) {
      return eb.create(ReshapeOp::getOperationName(), t, {v});
    };
    Value rowsOf = reshape(x, arrayType({rows, part}, element));
    Operation *parts = createInstruction(
        b, loc, CustomCallOp::getOperationName(),
        TupleType::get(
            ctx, {arrayType({rows, k}, element), arrayType({rows, k}, s32)}),
        {rowsOf},
        {b.getNamedAttr("custom_call_target", b.getStringAttr("TopK")),
         b.getNamedAttr("called_computations", callees)});
    Value partValues = createGte(b, derivedLoc(loc), parts->getResult(0), 0);
    Value partIndices = createGte(b, derivedLoc(loc), parts->getResult(0), 1);
    // Each row's indices moved to where the row starts in x.
    Type rowIds = arrayType({rows}, s32);
    Value starts = eb.elementwise<MulOp>(
        {eb.create(IotaOp::getOperationName(), rowIds, {},
                   {b.getNamedAttr("iota_dimension", b.getI64IntegerAttr(0))}),
         eb.splatInt(rowIds, uint64_t(part))});
    Value shifted = eb.elementwise<AddOp>(
        {partIndices,
         eb.create(
             BroadcastOp::getOperationName(), partIndices.getType(), {starts},
             {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({0}))})});
    // The best k of the candidates, best first, ties in index order.
    if (comparator.getNumArguments() == 2) {
      ComputationOp &wide = widened[comparator];
      if (!wide)
        wide = withIgnoredIndexParameters(comparator, symbols, loc);
      comparator = wide;
    }
    SmallVector<Value> candidates = {
        reshape(partValues, arrayType({rows * k}, element)),
        reshape(shifted, arrayType({rows * k}, s32))};
    // Named as XLA's instructions are; the call's metadata kept.
    auto named = [&](StringRef name) {
      return NameLoc::get(b.getStringAttr(name), derivedLoc(loc));
    };
    auto sort = createInferred<SortOp>(
        b, named("sort"), candidates,
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({0})),
         b.getNamedAttr("to_apply",
                        FlatSymbolRefAttr::get(comparator.getSymNameAttr())),
         b.getNamedAttr("is_stable", b.getBoolAttr(true))});
    if (!sort)
      return;
    SmallVector<Value> results;
    for (int64_t i = 0; i < 2; ++i) {
      Value sorted = createGte(b, derivedLoc(loc), sort.getResult(), i);
      Value first = eb.create(
          SliceOp::getOperationName(), arrayType({k}, i ? s32 : element),
          {sorted},
          {b.getNamedAttr("slice", SliceAttr::get(ctx, {0}, {k}, {1}))});
      results.push_back(first.getType() == tuple.getType(i)
                            ? first
                            : reshape(first, tuple.getType(i)));
    }
    Value replacement =
        createInstruction(b, named("tuple"), TupleOp::getOperationName(), {},
                          results)
            ->getResult(0);
    call.getResult().replaceAllUsesWith(replacement);
    call.erase();
    ++numSplit;
    changed = true;
  }
};

} // namespace
