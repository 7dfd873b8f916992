//===- FusionIndexing.cpp - indexing maps through called computations -----===//
//
// fusion, call and async-start run a computation on their operands; their
// maps are the maps of that computation's instructions composed along every
// path between a parameter and the root.
//
// Values of the computation are tracked together with a tuple element
// index: (value, k) is element k of a tuple value, or the value itself when
// k = 0 and it is an array. get-tuple-element, tuple and the tuple
// pass-through ops (copy, opt-barrier, ... of a tuple) move between
// elements; every other op reads and writes element 0.
//
// Output-to-input walks the computation from the root to the parameters
// (reverse program order: every user of a value is done before the value);
// input-to-output walks from one parameter to the root (program order). At
// each op the maps reaching it are composed with the op's own maps, each
// composition is simplified and stripped of unused symbols, and equal maps
// are kept once. An op whose map is unknown makes everything behind it
// unknown with its reason.
//
//===----------------------------------------------------------------------===//

#include "IndexingAnalysisImpl.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::indexing;

namespace {

/// Element `element` of `value`.
using Key = std::pair<Value, unsigned>;

/// The maps from one index space (the called computation's output, or one
/// of its parameters) to the elements of the computation's values.
class Propagation {
public:
  OperandIndexing &at(Key key) { return maps[key]; }
  const OperandIndexing *find(Key key) const {
    auto it = maps.find(key);
    return it == maps.end() ? nullptr : &it->second;
  }
  std::optional<OperandIndexing> lookup(Key key) const {
    if (const OperandIndexing *found = find(key))
      return *found;
    return std::nullopt;
  }

  /// Adds `consumer` composed with each map of `producer` to `target`; an
  /// unknown `producer` makes `target` unknown.
  void addComposed(Key target, const IndexingMap &consumer,
                   const OperandIndexing &producer) {
    OperandIndexing &t = maps[target];
    if (t.isUnknown())
      return;
    if (producer.isUnknown()) {
      t = OperandIndexing::unknown(producer.unknownReason);
      return;
    }
    for (const IndexingMap &map : producer.maps) {
      // Defensive: maps of different index spaces never compose.
      if (consumer.getNumResults() != map.getNumDims()) {
        t = OperandIndexing::unknown("maps of different ranks meet");
        return;
      }
      t.insert(composeSimplified(consumer, map));
    }
  }

  /// Makes `target` unknown (keeping the first reason).
  void markUnknown(Key target, const std::string &reason) {
    OperandIndexing &t = maps[target];
    if (!t.isUnknown())
      t = OperandIndexing::unknown(reason);
  }

private:
  llvm::DenseMap<Key, OperandIndexing> maps;
};

} // namespace

/// The computation `op` runs, or null.
static ComputationOp getCallee(Operation *op) {
  FlatSymbolRefAttr callee;
  if (auto fusion = dyn_cast<FusionOp>(op))
    callee = fusion.getCallsAttr();
  else if (auto call = dyn_cast<CallOp>(op))
    callee = call.getToApplyAttr();
  else if (auto start = dyn_cast<AsyncStartOp>(op))
    callee = start.getCallsAttr();
  if (!callee)
    return {};
  return indexing::lookupCallee(op, callee);
}

/// The computations whose indexing this thread is composing. HLO forbids
/// recursion but the IR can hold a recursive call graph: a call back into
/// one of them is unknown instead of endless.
static thread_local llvm::SmallPtrSet<Operation *, 8> composing;

SymbolTableCollection *&indexing::activeSymbolTables() {
  static thread_local SymbolTableCollection *tables = nullptr;
  return tables;
}

ComputationOp indexing::lookupCallee(Operation *op, FlatSymbolRefAttr ref) {
  if (SymbolTableCollection *tables = activeSymbolTables())
    return tables->lookupNearestSymbolFrom<ComputationOp>(op, ref.getAttr());
  return SymbolTable::lookupNearestSymbolFrom<ComputationOp>(op, ref);
}

/// The number of elements tracked for a value of type `type`.
static unsigned numElements(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return tuple.size();
  return 1;
}

/// Ops whose output K is element K of their (tuple) operand 0.
static bool isElementPassThrough(Operation *op) {
  return isa<CopyOp, OptimizationBarrierOp, DomainOp, AsyncUpdateOp>(op) &&
         isa<TupleType>(op->getResult(0).getType());
}

/// The element of operand `operand` that output `output` of `op` reads.
static unsigned operandElement(Operation *op, unsigned operand,
                               unsigned output) {
  if (auto gte = dyn_cast<GetTupleElementOp>(op))
    return gte.getIndex();
  if (isElementPassThrough(op))
    return output;
  (void)operand;
  return 0;
}

//===----------------------------------------------------------------------===//
// Output to input
//===----------------------------------------------------------------------===//

/// Maps from element `rootElement` of `comp`'s root (an array of shape
/// `shape`) to each of `comp`'s parameters.
static InstructionIndexing computationOutputToInput(ComputationOp comp,
                                                    unsigned rootElement,
                                                    ArrayRef<int64_t> shape) {
  MLIRContext *ctx = comp.getContext();
  Block &body = comp.getBody().front();
  Propagation prop;
  prop.at({comp.getRootValue(), rootElement}).insert(identityMap(ctx, shape));

  for (Operation &op : llvm::reverse(body.without_terminator())) {
    if (op.getNumResults() != 1)
      continue;
    Value result = op.getResult(0);
    unsigned numOutputs = getNumIndexingOutputs(&op);
    for (unsigned k = 0; k < numOutputs; ++k) {
      // A copy: adding to the operands' entries may move this one.
      std::optional<OperandIndexing> reaching = prop.lookup({result, k});
      if (!reaching)
        continue;
      if (reaching->isUnknown()) {
        for (auto [i, operand] : llvm::enumerate(getDataOperands(&op)))
          prop.markUnknown({operand, operandElement(&op, i, k)},
                           reaching->unknownReason);
        continue;
      }
      InstructionIndexing own = computeOutputToInputIndexing(&op, k);
      for (auto [i, operand] : llvm::enumerate(getDataOperands(&op))) {
        Key target{operand, operandElement(&op, i, k)};
        const OperandIndexing &step = own.indexing[i];
        if (!step.isUnknown() && step.maps.empty())
          continue; // Output k does not read this operand.
        for (const IndexingMap &map : reaching->maps)
          prop.addComposed(target, map, step);
      }
    }
  }

  InstructionIndexing result;
  for (BlockArgument arg : body.getArguments()) {
    OperandIndexing merged;
    // One OperandIndexing per operand cannot say which element of a tuple
    // operand a map reads.
    if (numElements(arg.getType()) > 1 &&
        llvm::any_of(llvm::seq(0u, numElements(arg.getType())),
                     [&](unsigned e) {
                       return prop.find({arg, e});
                     })) {
      result.indexing.push_back(OperandIndexing::unknown(
          "a tuple operand of the called computation"));
      continue;
    }
    for (unsigned e = 0, n = numElements(arg.getType()); e < n; ++e) {
      const OperandIndexing *found = prop.find({arg, e});
      if (!found)
        continue;
      if (found->isUnknown()) {
        merged = *found;
        break;
      }
      for (const IndexingMap &map : found->maps)
        merged.insert(map);
    }
    sortIndexingMaps(merged.maps);
    result.indexing.push_back(std::move(merged));
  }
  return result;
}

InstructionIndexing indexing::calledOutputToInput(Operation *op,
                                                  unsigned output) {
  unsigned numOperands = getDataOperands(op).size();
  ComputationOp comp = getCallee(op);
  if (!comp)
    return allUnknown(numOperands, "the called computation is missing");
  if (comp.getBody().front().getNumArguments() != numOperands)
    return allUnknown(numOperands, "the called computation's parameters "
                                   "do not match the operands");
  if (!composing.insert(comp).second)
    return allUnknown(numOperands, "recursive call");
  auto leave = llvm::make_scope_exit([&] { composing.erase(comp); });
  std::optional<SmallVector<int64_t>> shape =
      getStaticShape(getOutputType(op, output));
  if (!shape)
    return allUnknown(numOperands,
                      "output " + std::to_string(output) + " is not an array");
  if (isa<AsyncStartOp>(op)) {
    // ((operands...), result, context...): only the result is computed.
    if (output != 1)
      return allUnknown(numOperands, "async-start: output " +
                                         std::to_string(output) +
                                         " is not the wrapped result");
    if (isa<TupleType>(comp.getRootValue().getType()))
      return allUnknown(numOperands, "async-start: tuple result");
    return computationOutputToInput(comp, 0, *shape);
  }
  unsigned rootElement = getNumIndexingOutputs(op) > 1 ? output : 0;
  return computationOutputToInput(comp, rootElement, *shape);
}

//===----------------------------------------------------------------------===//
// Input to output
//===----------------------------------------------------------------------===//

/// Whether element `element` of an operand of `op` reaches output `output`.
static bool reaches(Operation *op, unsigned element, unsigned output) {
  if (auto gte = dyn_cast<GetTupleElementOp>(op))
    return element == gte.getIndex();
  if (isElementPassThrough(op))
    return element == output;
  return true;
}

/// Maps from parameter `param` of `comp` to each element of its root.
static SmallVector<OperandIndexing> computationInputToOutput(ComputationOp comp,
                                                             unsigned param) {
  MLIRContext *ctx = comp.getContext();
  Block &body = comp.getBody().front();
  BlockArgument arg = body.getArgument(param);
  Value root = comp.getRootValue();
  unsigned numRootElements = numElements(root.getType());
  // One map set per output cannot say which element of a tuple parameter it
  // starts from.
  if (numElements(arg.getType()) > 1)
    return SmallVector<OperandIndexing>(
        numRootElements,
        OperandIndexing::unknown("a tuple operand of the called computation"));
  Propagation prop;
  for (unsigned e = 0, n = numElements(arg.getType()); e < n; ++e) {
    Type type = arg.getType();
    if (auto tuple = dyn_cast<TupleType>(type))
      type = tuple.getType(e);
    if (std::optional<SmallVector<int64_t>> shape = getStaticShape(type))
      prop.at({arg, e}).insert(identityMap(ctx, *shape));
    else
      prop.markUnknown({arg, e}, "parameter element is not an array");
  }

  for (Operation &op : body.without_terminator()) {
    if (op.getNumResults() != 1)
      continue;
    Value result = op.getResult(0);
    unsigned numOutputs = getNumIndexingOutputs(&op);
    for (auto [i, operand] : llvm::enumerate(getDataOperands(&op))) {
      std::optional<InstructionIndexing> own;
      for (unsigned e = 0, n = numElements(operand.getType()); e < n; ++e) {
        // A copy: adding to the result's entries may move this one.
        std::optional<OperandIndexing> reaching = prop.lookup({operand, e});
        if (!reaching)
          continue;
        if (!own && !reaching->isUnknown())
          own = computeInputToOutputIndexing(&op, i);
        for (unsigned k = 0; k < numOutputs; ++k) {
          if (!reaches(&op, e, k))
            continue;
          if (reaching->isUnknown()) {
            prop.markUnknown({result, k}, reaching->unknownReason);
            continue;
          }
          const OperandIndexing &step = own->indexing[k];
          if (!step.isUnknown() && step.maps.empty())
            continue; // This operand does not reach output k.
          for (const IndexingMap &map : reaching->maps)
            prop.addComposed({result, k}, map, step);
        }
      }
    }
  }

  SmallVector<OperandIndexing> outputs;
  for (unsigned k = 0; k < numRootElements; ++k) {
    OperandIndexing found;
    if (const OperandIndexing *f = prop.find({root, k}))
      found = *f;
    sortIndexingMaps(found.maps);
    outputs.push_back(std::move(found));
  }
  return outputs;
}

InstructionIndexing indexing::calledInputToOutput(Operation *op,
                                                  unsigned operand) {
  unsigned numOutputs = getNumIndexingOutputs(op);
  ComputationOp comp = getCallee(op);
  if (!comp)
    return allUnknown(numOutputs, "the called computation is missing");
  if (comp.getBody().front().getNumArguments() != getDataOperands(op).size())
    return allUnknown(numOutputs, "the called computation's parameters "
                                  "do not match the operands");
  if (!composing.insert(comp).second)
    return allUnknown(numOutputs, "recursive call");
  auto leave = llvm::make_scope_exit([&] { composing.erase(comp); });
  SmallVector<OperandIndexing> rootMaps =
      computationInputToOutput(comp, operand);
  InstructionIndexing result;
  if (isa<AsyncStartOp>(op)) {
    // ((operands...), result, context...): only the result is computed.
    result = allUnknown(numOutputs, "async-start: not the wrapped result");
    if (numOutputs > 1 && rootMaps.size() == 1)
      result.indexing[1] = rootMaps[0];
    return result;
  }
  if (rootMaps.size() != numOutputs)
    return allUnknown(numOutputs, "the called computation's root does not "
                                  "match the outputs");
  result.indexing.assign(rootMaps.begin(), rootMaps.end());
  return result;
}
