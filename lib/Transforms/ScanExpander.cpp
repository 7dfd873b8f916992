//===- ScanExpander.cpp - scan as a while loop ----------------------------===//
//
// XLA's ScanExpander: `scan(inputs..., inits...)` becomes a counted loop
// over the scan dimension. The loop carries the carries, one buffer per
// output (of the output's type, zeros to start) and the inputs; trip t
// takes element i = t (or length - 1 - t with is_reverse) of each input,
// calls to_apply on those slices and the carries, and writes each output
// slice it returns into row i of its buffer:
//
//   (outs..., carries...) = scan(xs..., inits...), dimensions={d}
// ->
//   for (t = 0; t < n; ++t) {
//     (o..., carries...) = call(ds(xs, i)..., carries...)
//     outs = dus(outs, o, i)...
//   }
//
// The call is left to hlo-call-inliner, which runs next.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

#include <limits>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSCANEXPANDER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
/// A scan's parts: its input and output arrays, carries, dimension and
/// length.
struct ScanParts {
  SmallVector<Value> inputs, inits;
  SmallVector<RankedTensorType> outputTypes;
  SmallVector<Type> resultTypes;
  int64_t dim = 0, length = 0;
};
} // namespace

/// `op`'s parts, if the expansion takes it: num_carries given, static
/// arrays, a length from the inputs or outputs that fits in s32.
static std::optional<ScanParts> readScan(ScanOp op) {
  std::optional<ArrayRef<int64_t>> dims = op.getDimensions();
  if (!op.getNumCarries() || !dims || dims->size() != 1 ||
      hasControlPredecessors(op))
    return std::nullopt;
  ScanParts parts;
  parts.dim = (*dims)[0];
  int64_t numCarries = *op.getNumCarries();
  ValueRange operands = op.getInputs();
  llvm::append_range(parts.inputs, operands.drop_back(numCarries));
  llvm::append_range(parts.inits, operands.take_back(numCarries));
  if (auto tuple = dyn_cast<TupleType>(op.getType()))
    llvm::append_range(parts.resultTypes, tuple.getTypes());
  else
    parts.resultTypes.push_back(op.getType());
  int64_t numOutputs = int64_t(parts.resultTypes.size()) - numCarries;
  if (numOutputs < 0)
    return std::nullopt;
  std::optional<int64_t> length;
  auto take = [&](Type type) {
    auto t = dyn_cast<RankedTensorType>(type);
    if (!t || !t.hasStaticShape() || parts.dim >= t.getRank())
      return false;
    if (length && *length != t.getDimSize(parts.dim))
      return false;
    length = t.getDimSize(parts.dim);
    return true;
  };
  for (Value in : parts.inputs)
    if (!take(in.getType()))
      return std::nullopt;
  for (Type type : ArrayRef(parts.resultTypes).take_front(numOutputs)) {
    if (!take(type))
      return std::nullopt;
    parts.outputTypes.push_back(cast<RankedTensorType>(type));
  }
  for (Value init : parts.inits)
    if (!isStaticArray(init.getType()))
      return std::nullopt;
  if (!length || *length > std::numeric_limits<int32_t>::max())
    return std::nullopt;
  parts.length = *length;
  return parts;
}

/// `shape` without dimension `dim`.
static SmallVector<int64_t> without(ArrayRef<int64_t> shape, int64_t dim) {
  SmallVector<int64_t> r(shape);
  r.erase(r.begin() + dim);
  return r;
}

static void expandScan(ScanOp op, const ScanParts &parts,
                       SymbolTable &symbols) {
  OpBuilder b(op);
  InstBuilder ib(b, derivedLoc(op.getLoc()));
  auto callee = symbols.lookup<ComputationOp>(*op.getToApply());
  Type calleeResult = callee.getFunctionType().getResult(0);
  size_t numCarries = parts.inits.size(), numOutputs = parts.outputTypes.size();
  bool reverse = op.getIsReverse().value_or(false);

  // State: carries, output buffers, inputs.
  SmallVector<Value> init(parts.inits);
  for (RankedTensorType t : parts.outputTypes)
    init.push_back(ib.create<BroadcastOp>(
        t, ib.scalar(t.getElementType(), 0),
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({}))}));
  llvm::append_range(init, parts.inputs);

  auto body = [&](InstBuilder &bb, Value trip,
                  ValueRange state) -> SmallVector<Value> {
    Type s32 = tensorType(trip).getElementType();
    Value i =
        reverse ? bb.create<SubtractOp>(
                      trip.getType(), {bb.scalar(s32, parts.length - 1), trip})
                : trip;
    auto start = [&](int64_t rank) {
      SmallVector<Value> starts(rank, bb.scalar(s32, 0));
      starts[parts.dim] = i;
      return starts;
    };
    SmallVector<Value> args;
    for (Value in : state.drop_front(numCarries + numOutputs)) {
      RankedTensorType t = tensorType(in);
      SmallVector<int64_t> sizes(t.getShape());
      sizes[parts.dim] = 1;
      args.push_back(bb.reshape(bb.dynamicSlice(in, start(t.getRank()), sizes),
                                without(t.getShape(), parts.dim)));
    }
    llvm::append_range(args, state.take_front(numCarries));
    Value call = bb.create<CallOp>(
        calleeResult, args,
        {bb.getBuilder().getNamedAttr("to_apply", op.getToApplyAttr())});
    SmallVector<Value> returned;
    if (numOutputs + numCarries == 1 && !isa<TupleType>(calleeResult))
      returned.push_back(call);
    else
      for (size_t k = 0; k < numOutputs + numCarries; ++k)
        returned.push_back(bb.getTupleElement(call, k));
    SmallVector<Value> next(returned.begin() + numOutputs, returned.end());
    for (auto [k, t] : llvm::enumerate(parts.outputTypes)) {
      SmallVector<int64_t> row(t.getShape());
      row[parts.dim] = 1;
      next.push_back(bb.dynamicUpdateSlice(state[numCarries + k],
                                           bb.reshape(returned[k], row),
                                           start(t.getRank())));
    }
    llvm::append_range(next, state.drop_front(numCarries + numOutputs));
    return next;
  };
  auto parent = op->getParentOfType<ComputationOp>();
  SmallVector<Value> after =
      buildCountedLoop(ib, symbols, parent, "scan", parts.length, init, body,
                       /*numResults=*/numCarries + numOutputs);
  // The scan's order: outputs, then carries.
  SmallVector<Value> results(after.begin() + numCarries, after.end());
  results.append(after.begin(), after.begin() + numCarries);
  for (auto [k, v] : llvm::enumerate(results))
    if (v.getType() != parts.resultTypes[k])
      results[k] = ib.create<CopyOp>(parts.resultTypes[k], v);
  Value result = isa<TupleType>(op.getType()) ? ib.tuple(results) : results[0];
  transferInstructionAttrs(op, result.getDefiningOp());
  op.getResult().replaceAllUsesWith(result);
  op.erase();
}

namespace {
struct ScanExpanderPass
    : ChangeReportingPass<ScanExpanderPass, hlo::impl::HloScanExpanderBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<std::pair<ScanOp, ScanParts>, 2> scans;
    for (ComputationOp comp : nonFusionComputations(module))
      comp.walk([&](ScanOp op) {
        if (std::optional<ScanParts> parts = readScan(op);
            parts && symbols.lookup<ComputationOp>(*op.getToApply()))
          scans.push_back({op, std::move(*parts)});
      });
    for (auto &[op, parts] : scans) {
      expandScan(op, parts, symbols);
      ++numExpanded;
      changed = true;
    }
  }
};
} // namespace
