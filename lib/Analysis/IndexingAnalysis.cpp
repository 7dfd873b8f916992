//===- IndexingAnalysis.cpp - indexing maps of hlo ops --------------------===//
//
// The public entry points: which family an op belongs to, the checks every
// op goes through first (static shapes, valid indices), the shared helpers
// and the deterministic order of maps. The families themselves live in
// IndexingOps.cpp (one op at a time), IndexingWindowOps.cpp (reductions,
// windows, dot, convolution, gather) and FusionIndexing.cpp (composition
// through called computations).
//
//===----------------------------------------------------------------------===//

#include "IndexingAnalysisImpl.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::indexing;

//===----------------------------------------------------------------------===//
// OperandIndexing
//===----------------------------------------------------------------------===//

OperandIndexing OperandIndexing::unknown(std::string reason) {
  OperandIndexing result;
  result.unknownReason = reason.empty() ? "unknown" : std::move(reason);
  return result;
}

void OperandIndexing::insert(const IndexingMap &map) {
  if (!llvm::is_contained(maps, map))
    maps.push_back(map);
}

void mlir::hlo::sortIndexingMaps(SmallVectorImpl<IndexingMap> &maps) {
  // The order compares printed maps: not worth printing one alone.
  if (maps.size() < 2)
    return;
  SmallVector<std::pair<std::string, unsigned>> keys;
  keys.reserve(maps.size());
  for (auto [i, map] : llvm::enumerate(maps))
    keys.push_back({map.toString(), unsigned(i)});
  llvm::stable_sort(keys, [&](const auto &a, const auto &b) {
    unsigned sa = maps[a.second].getNumSymbols();
    unsigned sb = maps[b.second].getNumSymbols();
    if (sa != sb)
      return sa > sb;
    return a.first < b.first;
  });
  SmallVector<IndexingMap> sorted;
  sorted.reserve(maps.size());
  for (const auto &key : keys)
    sorted.push_back(maps[key.second]);
  maps.assign(sorted.begin(), sorted.end());
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::optional<SmallVector<int64_t>> indexing::getStaticShape(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return std::nullopt;
  return SmallVector<int64_t>(tensor.getShape());
}

SmallVector<int64_t> indexing::shapeOf(Value value) {
  return getStaticShape(value.getType()).value_or(SmallVector<int64_t>());
}

Type indexing::getOutputType(Operation *op, unsigned output) {
  Type type = op->getResult(0).getType();
  if (auto tuple = dyn_cast<TupleType>(type))
    return output < tuple.size() ? tuple.getType(output) : Type();
  return type;
}

SmallVector<int64_t> indexing::outputShape(Operation *op, unsigned output) {
  return getStaticShape(getOutputType(op, output))
      .value_or(SmallVector<int64_t>());
}

IndexingMap indexing::makeMap(MLIRContext *context, ArrayRef<int64_t> dimSizes,
                              ArrayRef<int64_t> rangeSizes,
                              ArrayRef<AffineExpr> results,
                              std::vector<RuntimeVar> runtimeVars) {
  std::vector<Interval> dims, ranges;
  for (int64_t size : dimSizes)
    dims.push_back({0, size - 1});
  for (int64_t size : rangeSizes)
    ranges.push_back({0, size - 1});
  AffineMap map =
      AffineMap::get(dimSizes.size(), rangeSizes.size() + runtimeVars.size(),
                     results, context);
  return IndexingMap(map, std::move(dims), std::move(ranges),
                     std::move(runtimeVars));
}

IndexingMap indexing::identityMap(MLIRContext *context,
                                  ArrayRef<int64_t> shape) {
  SmallVector<AffineExpr> results;
  for (unsigned i = 0; i < shape.size(); ++i)
    results.push_back(getAffineDimExpr(i, context));
  return makeMap(context, shape, {}, results);
}

IndexingMap indexing::toScalarMap(MLIRContext *context,
                                  ArrayRef<int64_t> shape) {
  return makeMap(context, shape, {}, {});
}

IndexingMap indexing::scalarToAllMap(MLIRContext *context,
                                     ArrayRef<int64_t> shape) {
  SmallVector<AffineExpr> results;
  for (unsigned i = 0; i < shape.size(); ++i)
    results.push_back(getAffineSymbolExpr(i, context));
  return makeMap(context, {}, shape, results);
}

OperandIndexing indexing::single(IndexingMap map) {
  OperandIndexing result;
  result.maps.push_back(std::move(map));
  return result;
}

InstructionIndexing indexing::allUnknown(unsigned count,
                                         const std::string &reason) {
  InstructionIndexing result;
  result.indexing.assign(count, OperandIndexing::unknown(reason));
  return result;
}

static int64_t product(ArrayRef<int64_t> sizes) {
  int64_t p = 1;
  for (int64_t s : sizes)
    p *= s;
  return p;
}

SmallVector<AffineExpr> indexing::reshapeExprs(MLIRContext *context,
                                               ArrayRef<int64_t> from,
                                               ArrayRef<int64_t> to,
                                               ArrayRef<AffineExpr> fromIndex,
                                               bool &needsSimplify) {
  // Without elements there is no index to map: any result will do.
  if (product(from) == 0 || product(to) == 0)
    return SmallVector<AffineExpr>(to.size(),
                                   getAffineConstantExpr(0, context));
  // Split both shapes into consecutive groups with equal element counts:
  // inside a group the index is linearized and delinearized; across groups
  // the dimensions are independent.
  struct Group {
    unsigned fromBegin, fromEnd, toBegin, toEnd;
  };
  SmallVector<Group> groups;
  unsigned i = 0, j = 0;
  while (i < from.size() || j < to.size()) {
    Group g{i, i, j, j};
    int64_t pFrom = 1, pTo = 1;
    if (i < from.size())
      pFrom *= from[i++];
    if (j < to.size())
      pTo *= to[j++];
    while (pFrom != pTo) {
      if (pFrom < pTo && i < from.size())
        pFrom *= from[i++];
      else if (pTo < pFrom && j < to.size())
        pTo *= to[j++];
      else
        break; // Element counts differ: the verifier rejects this.
    }
    g.fromEnd = i;
    g.toEnd = j;
    groups.push_back(g);
  }

  auto nonUnit = [](ArrayRef<int64_t> sizes, unsigned begin, unsigned end) {
    return llvm::count_if(sizes.slice(begin, end - begin),
                          [](int64_t s) { return s != 1; });
  };
  SmallVector<AffineExpr> result;
  for (const Group &g : groups) {
    if (nonUnit(from, g.fromBegin, g.fromEnd) > 1 &&
        nonUnit(to, g.toBegin, g.toEnd) > 1)
      needsSimplify = true;
    // The linear index within the group (dimensions of size 1 only ever
    // hold index 0).
    AffineExpr linear = getAffineConstantExpr(0, context);
    int64_t stride = 1;
    for (unsigned k = g.fromEnd; k-- > g.fromBegin;) {
      if (from[k] == 1)
        continue;
      linear = fromIndex[k] * stride + linear;
      stride *= from[k];
    }
    // Delinearize into the `to` dimensions of the group; the outermost one
    // needs no `mod`.
    int64_t toStride = product(to.slice(g.toBegin, g.toEnd - g.toBegin));
    bool outermost = true;
    for (unsigned k = g.toBegin; k < g.toEnd; ++k) {
      toStride /= to[k];
      if (to[k] == 1) {
        result.push_back(getAffineConstantExpr(0, context));
        continue;
      }
      AffineExpr e = linear.floorDiv(toStride);
      if (!outermost)
        e = e % to[k];
      outermost = false;
      result.push_back(e);
    }
  }
  return result;
}

IndexingMap indexing::composeSimplified(const IndexingMap &consumer,
                                        const IndexingMap &producer) {
  // An identity producer changes nothing when its domain holds every index
  // the consumer produces.
  if (producer.getAffineMap().isIdentity() && producer.getNumSymbols() == 0 &&
      producer.getNumConstraints() == 0 &&
      llvm::all_of(llvm::enumerate(consumer.getAffineMap().getResults()),
                   [&](auto result) {
                     Interval r = consumer.getRange(result.value());
                     Interval b = producer.getDimBound(result.index());
                     return b.lower <= r.lower && r.upper <= b.upper;
                   }))
    return consumer;
  IndexingMap composed = composeIndexingMaps(consumer, producer);
  composed.simplify();
  composed.removeUnusedSymbols();
  return composed;
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

/// True if `type` is a static array, a token, opaque, or a tuple of those.
static bool isStaticType(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::all_of(tuple.getTypes(), isStaticType);
  if (isa<TensorType>(type))
    return getStaticShape(type).has_value();
  return true;
}

/// Why `op` has no indexing maps at all, or an empty string.
static std::string whyNoMaps(Operation *op) {
  if (op->getNumResults() != 1)
    return "not an instruction with one result";
  for (Value v : getDataOperands(op))
    if (!isStaticType(v.getType()))
      return "dynamic or unranked shape";
  if (!isStaticType(op->getResult(0).getType()))
    return "dynamic or unranked shape";
  return "";
}

unsigned mlir::hlo::getNumIndexingOutputs(Operation *op) {
  if (op->getNumResults() != 1)
    return 1;
  if (auto tuple = dyn_cast<TupleType>(op->getResult(0).getType()))
    return tuple.size();
  return 1;
}

/// The reason ops of a kind have no maps, or null.
static const char *unsupportedReason(Operation *op) {
  if (isa<WhileOp>(op))
    return "while: the body runs an unknown number of times";
  if (isa<ConditionalOp>(op))
    return "conditional: the branch is chosen at run time";
  if (isa<CustomCallOp>(op))
    return "custom-call: the target is opaque";
  if (isa<AllToAllOp, RaggedAllToAllOp, ReduceScatterOp, CollectiveBroadcastOp,
          CollectivePermuteOp, CollectiveReduceOp, ShuffleOp, AllReduceStartOp,
          AllReduceDoneOp, AllGatherStartOp, AllGatherDoneOp,
          CollectivePermuteStartOp, CollectivePermuteDoneOp>(op))
    return "collective: not modelled";
  if (isa<RngOp, RngBitGeneratorOp>(op))
    return "rng: not modelled";
  if (isa<InfeedOp, OutfeedOp, SendOp, SendDoneOp, RecvOp, RecvDoneOp>(op))
    return "host transfer: not modelled";
  if (isa<ScatterOp, SelectAndScatterOp>(op))
    return "scatter: writes depend on run-time indices";
  if (isa<DynamicReshapeOp, GetDimensionSizeOp, SetDimensionSizeOp>(op))
    return "dynamic shapes: not modelled";
  return nullptr;
}

InstructionIndexing mlir::hlo::computeOutputToInputIndexing(Operation *op,
                                                            unsigned output) {
  unsigned numOperands = getDataOperands(op).size();
  std::string why = whyNoMaps(op);
  if (!why.empty())
    return allUnknown(numOperands, why);
  if (output >= getNumIndexingOutputs(op))
    return allUnknown(numOperands, "no output " + std::to_string(output));
  if (const char *reason = unsupportedReason(op))
    return allUnknown(numOperands, reason);
  if (isElementwise(op))
    return elementwiseOutputToInput(op, output);
  if (isPassThrough(op))
    return passThroughOutputToInput(op, output);
  return llvm::TypeSwitch<Operation *, InstructionIndexing>(op)
      .Case([](BitcastConvertOp o) { return bitcastConvertOutputToInput(o); })
      .Case([](BroadcastOp o) { return broadcastOutputToInput(o); })
      .Case([](TransposeOp o) { return transposeOutputToInput(o); })
      .Case([](ReverseOp o) { return reverseOutputToInput(o); })
      .Case([](SliceOp o) { return sliceOutputToInput(o); })
      .Case([](ReshapeOp o) { return reshapeOutputToInput(o); })
      .Case([](BitcastOp o) { return bitcastOutputToInput(o); })
      .Case([](ConcatenateOp o) { return concatenateOutputToInput(o); })
      .Case([](PadOp o) { return padOutputToInput(o); })
      .Case([](DynamicSliceOp o) { return dynamicSliceOutputToInput(o); })
      .Case([](DynamicUpdateSliceOp o) {
        return dynamicUpdateSliceOutputToInput(o);
      })
      .Case([](GatherOp o) { return gatherOutputToInput(o); })
      .Case([&](ReduceOp o) { return reduceOutputToInput(o, output); })
      .Case([&](ReduceWindowOp o) {
        return reduceWindowOutputToInput(o, output);
      })
      .Case([&](SortOp o) { return sortOutputToInput(o, output); })
      .Case([](DotOp o) { return dotOutputToInput(o); })
      .Case([](ScaledDotOp o) { return scaledDotOutputToInput(o); })
      .Case([](AllGatherOp o) { return allGatherOutputToInput(o); })
      .Case([](ConvolutionOp o) { return convolutionOutputToInput(o); })
      .Case<FusionOp, CallOp, AsyncStartOp>(
          [&](Operation *o) { return calledOutputToInput(o, output); })
      .Default([&](Operation *o) {
        return allUnknown(numOperands,
                          getOpcode(o) + ": no indexing map defined");
      });
}

InstructionIndexing mlir::hlo::computeInputToOutputIndexing(Operation *op,
                                                            unsigned operand) {
  unsigned numOutputs = getNumIndexingOutputs(op);
  std::string why = whyNoMaps(op);
  if (!why.empty())
    return allUnknown(numOutputs, why);
  if (operand >= getDataOperands(op).size())
    return allUnknown(numOutputs, "no operand " + std::to_string(operand));
  if (const char *reason = unsupportedReason(op))
    return allUnknown(numOutputs, reason);
  if (isElementwise(op))
    return elementwiseInputToOutput(op, operand);
  if (isPassThrough(op))
    return passThroughInputToOutput(op, operand);
  return llvm::TypeSwitch<Operation *, InstructionIndexing>(op)
      .Case([](BitcastConvertOp o) { return bitcastConvertInputToOutput(o); })
      .Case([](BroadcastOp o) { return broadcastInputToOutput(o); })
      .Case([](TransposeOp o) { return transposeInputToOutput(o); })
      .Case([](ReverseOp o) { return reverseInputToOutput(o); })
      .Case([](SliceOp o) { return sliceInputToOutput(o); })
      .Case([](ReshapeOp o) { return reshapeInputToOutput(o); })
      .Case([](BitcastOp o) { return bitcastInputToOutput(o); })
      .Case(
          [&](ConcatenateOp o) { return concatenateInputToOutput(o, operand); })
      .Case([&](PadOp o) { return padInputToOutput(o, operand); })
      .Case([&](DynamicSliceOp o) {
        return dynamicSliceInputToOutput(o, operand);
      })
      .Case([&](DynamicUpdateSliceOp o) {
        return dynamicUpdateSliceInputToOutput(o, operand);
      })
      .Case([&](GatherOp o) { return gatherInputToOutput(o, operand); })
      .Case([&](ReduceOp o) { return reduceInputToOutput(o, operand); })
      .Case([&](ReduceWindowOp o) {
        return reduceWindowInputToOutput(o, operand);
      })
      .Case([&](SortOp o) { return sortInputToOutput(o, operand); })
      .Case([&](DotOp o) { return dotInputToOutput(o, operand); })
      .Case([&](ScaledDotOp o) { return scaledDotInputToOutput(o, operand); })
      .Case([](AllGatherOp o) { return allGatherInputToOutput(o); })
      .Case(
          [&](ConvolutionOp o) { return convolutionInputToOutput(o, operand); })
      .Case<FusionOp, CallOp, AsyncStartOp>(
          [&](Operation *o) { return calledInputToOutput(o, operand); })
      .Default([&](Operation *o) {
        return allUnknown(numOutputs,
                          getOpcode(o) + ": no indexing map defined");
      });
}
