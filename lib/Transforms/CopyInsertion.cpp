//===- CopyInsertion.cpp - hlo-gpu-copy-insertion -------------------------===//
//
// XLA's CopyInsertion (with its RemoveUnnecessaryCopies folded in: a copy is
// only added where the rules below find it needed). The alias analysis puts
// in one buffer a while loop's state, a conditional's or call's result and
// its computation's root, an in-place instruction's result and operand, an
// aliased ENTRY output and its parameter. Sharing a buffer is only correct
// when no value in it is overwritten while still needed, and when read-only
// memory (constants, ENTRY parameters) is never written. A copy is added
//
// - before a while loop, of a state element whose value is read-only, is
//   read after the loop, or is also another element of the state;
// - at a while body's root, of an element that is read-only, another
//   element of the parameter passed through, repeated, or computed before
//   the last read of the parameter element it replaces (the defining
//   instruction's own read counts unless it writes elementwise or in place
//   over that operand);
// - before an in-place instruction (dynamic-update-slice, scatter, fusions
//   rooted in them, custom calls with output_to_operand_aliasing), of the
//   operand it overwrites when that is read-only, read later, or read by
//   another operand of the same instruction;
// - at the ENTRY root, of an output that is a constant or a parameter (not
//   aliased to that output) or repeated, and of an output aliased to a
//   parameter that is computed before the parameter's last read; at a
//   conditional branch's or called computation's root, of an element that is
//   read-only, passed through from a parameter, or repeated.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "Hlo/Analysis/HloDataflowAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Transforms/BufferAssignmentPasses.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOGPUCOPYINSERTION
#include "Hlo/Transforms/BufferAssignmentPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// Where the data at node `node` of `v` comes from: follows tuple,
/// get-tuple-element and bitcast back to a parameter or a defining op.
std::pair<Value, unsigned> origin(const HloDataflowAnalysis &df, Value v,
                                  unsigned node) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto tuple = dyn_cast<TupleOp>(def)) {
      if (node == 0)
        break;
      ArrayRef<unsigned> nodes = df.getElementNodes(v.getType());
      unsigned i = llvm::upper_bound(nodes, node) - nodes.begin() - 1;
      node -= nodes[i];
      v = tuple.getDataOperands()[i];
    } else if (auto gte = dyn_cast<GetTupleElementOp>(def)) {
      Value t = gte.getDataOperands()[0];
      node += df.getElementNodes(t.getType())[gte.getIndex()];
      v = t;
    } else if (isa<BitcastOp>(def)) {
      v = def->getOperand(0);
    } else {
      break;
    }
  }
  return {v, node};
}

/// The instructions (or terminators) reading node `node` of `v` or a tuple
/// containing it, looking through tuple, get-tuple-element and bitcast.
void collectReaders(const HloDataflowAnalysis &df, Value v, unsigned node,
                    SmallVectorImpl<std::pair<Operation *, unsigned>> &out) {
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    if (auto gte = dyn_cast<GetTupleElementOp>(user)) {
      ArrayRef<unsigned> nodes = df.getElementNodes(v.getType());
      unsigned i = gte.getIndex();
      unsigned end = nodes[i] + getNumSubshapes(gte.getType());
      if (node == 0)
        collectReaders(df, gte.getResult(), 0, out); // reads all of it
      else if (node >= nodes[i] && node < end)
        collectReaders(df, gte.getResult(), node - nodes[i], out);
    } else if (isa<TupleOp>(user)) {
      unsigned base = df.getElementNodes(
          user->getResult(0).getType())[use.getOperandNumber()];
      collectReaders(df, user->getResult(0), base + node, out);
    } else if (isa<BitcastOp>(user)) {
      collectReaders(df, user->getResult(0), node, out);
    } else {
      out.push_back({user, use.getOperandNumber()});
    }
  }
}

/// True if `op` may write its result over operand `operand` as it reads it.
bool writesOverOperand(const HloDataflowAnalysis &dataflow, Operation *op,
                       unsigned operand) {
  if (isElementwise(op) &&
      op->getOperand(operand).getType() == op->getResult(0).getType())
    return true;
  for (auto [in, inNode, outNode] : dataflow.getInPlacePairs(op))
    if (in == operand)
      return true;
  return false;
}

struct CopyInsertionPass
    : ChangeReportingPass<CopyInsertionPass,
                          hlo::impl::HloGpuCopyInsertionBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run();

private:
  bool readOnly(unsigned id) const {
    const HloValue &v = dataflow->getValue(id);
    if (auto arg = dyn_cast<BlockArgument>(v.defined.value))
      return arg.getOwner()->getParentOp() == dataflow->getEntry();
    return v.defined.value.getDefiningOp<ConstantOp>() != nullptr;
  }
  /// Marks leaf `node` of operand `operand` of `op` for a copy.
  void mark(Operation *op, unsigned operand, unsigned node) {
    SmallVector<bool> &mask = plans[{op, operand}];
    if (mask.empty())
      mask.resize(getNumSubshapes(op->getOperand(operand).getType()), false);
    mask[node] = true;
  }
  /// The first leaf of `v` holding each value.
  DenseMap<unsigned, unsigned> firstLeaves(Value v) const {
    DenseMap<unsigned, unsigned> first;
    forEachLeaf(v, [&](unsigned node) {
      for (unsigned id : dataflow->getValueSet(v, node))
        first.try_emplace(id, node);
    });
    return first;
  }
  /// True if a leaf of `v` holds a value also at an earlier leaf.
  bool repeated(Value v, unsigned node,
                const DenseMap<unsigned, unsigned> &first) const {
    return llvm::any_of(dataflow->getValueSet(v, node),
                        [&](unsigned id) { return first.lookup(id) != node; });
  }
  bool readOnlyOrRepeated(Value v, unsigned node,
                          const DenseMap<unsigned, unsigned> &first) const {
    return repeated(v, node, first) ||
           llvm::any_of(dataflow->getValueSet(v, node),
                        [&](unsigned id) { return readOnly(id); });
  }
  void forEachLeaf(Value v, function_ref<void(unsigned)> fn) const {
    forEachSubshape(v.getType(),
                    [&, node = 0u](Type t, ArrayRef<int64_t>) mutable {
                      if (!isa<TupleType>(t))
                        fn(node);
                      ++node;
                    });
  }
  /// True if node `node` of `v` is read after `op`, or by `op` itself unless
  /// `op` writes over it in place.
  bool readAtOrAfter(Value v, unsigned node, Operation *op) const {
    SmallVector<std::pair<Operation *, unsigned>> readers;
    collectReaders(*dataflow, v, node, readers);
    return llvm::any_of(readers, [&](auto reader) {
      auto [user, operand] = reader;
      if (user == op)
        return !writesOverOperand(*dataflow, op, operand);
      return user->getBlock() == op->getBlock() && op->isBeforeInBlock(user);
    });
  }
  void planWhileInit(WhileOp loop);
  void planWhileBody(WhileOp loop);
  void apply();
  void planInPlace(Operation *op);
  void planRoot(ComputationOp comp);
  Value deepCopy(OpBuilder &b, Location loc, Value v, ArrayRef<bool> mask,
                 unsigned node, const DenseMap<unsigned, Value> &early);

  const HloDataflowAnalysis *dataflow = nullptr;
  llvm::MapVector<std::pair<Operation *, unsigned>, SmallVector<bool>> plans;
  /// Leaves of a plan (by node) to copy from a copy of a body parameter
  /// element (by node) made at the start of the body.
  DenseMap<std::pair<Operation *, unsigned>, DenseMap<unsigned, unsigned>>
      fromStart;
};

/// Node `node` of `v`, extracted with get-tuple-element.
static Value extractNode(const HloDataflowAnalysis &df, OpBuilder &b,
                         Location loc, Value v, unsigned node) {
  while (node != 0) {
    ArrayRef<unsigned> nodes = df.getElementNodes(v.getType());
    unsigned i = llvm::upper_bound(nodes, node) - nodes.begin() - 1;
    node -= nodes[i];
    v = createInferred<GetTupleElementOp>(
        b, loc, {v}, {b.getNamedAttr("index", b.getI64IntegerAttr(i))});
  }
  return v;
}

void CopyInsertionPass::planWhileInit(WhileOp loop) {
  Value init = loop.getDataOperands()[0];
  DenseMap<unsigned, unsigned> first = firstLeaves(init);
  forEachLeaf(init, [&](unsigned node) {
    auto [src, srcNode] = origin(*dataflow, init, node);
    SmallVector<std::pair<Operation *, unsigned>> readers;
    collectReaders(*dataflow, src, srcNode, readers);
    bool later = llvm::any_of(readers, [&](auto reader) {
      Operation *user = reader.first;
      return user != loop.getOperation() &&
             user->getBlock() == loop->getBlock() &&
             loop->isBeforeInBlock(user);
    });
    if (later || readOnlyOrRepeated(init, node, first))
      mark(loop, 0, node);
  });
}

void CopyInsertionPass::planWhileBody(WhileOp loop) {
  for (Operation *callee : dataflow->getCallees(loop)) {
    auto body = cast<ComputationOp>(callee);
    if (body.getSymName() != loop.getBody() || body.getNumArguments() != 1)
      continue;
    Value root = body.getRootValue();
    Operation *ret = body.getBody().front().getTerminator();
    BlockArgument param = body.getArgument(0);
    DenseMap<unsigned, unsigned> rootFirst = firstLeaves(root);
    forEachLeaf(root, [&](unsigned node) {
      auto [src, srcNode] = origin(*dataflow, root, node);
      bool need = readOnlyOrRepeated(root, node, rootFirst);
      if (src == param && srcNode != node) {
        // Another element passed through (a swap, a rotation): the root's
        // copies would overwrite elements other copies still read, so the
        // element is copied first at the start of the body.
        need = true;
        fromStart[{ret, 0}][node] = srcNode;
      } else if (Operation *def = src.getDefiningOp())
        need |= readAtOrAfter(param, node, def);
      else
        need = true;
      if (need)
        mark(ret, 0, node);
    });
  }
}

void CopyInsertionPass::planInPlace(Operation *op) {
  for (auto [operand, inNode, outNode] : dataflow->getInPlacePairs(op)) {
    Value v = op->getOperand(operand);
    bool need = llvm::any_of(dataflow->getValueSet(v, inNode),
                             [&](unsigned id) { return readOnly(id); });
    auto [src, srcNode] = origin(*dataflow, v, inNode);
    SmallVector<std::pair<Operation *, unsigned>> readers;
    collectReaders(*dataflow, src, srcNode, readers);
    for (auto [user, number] : readers) {
      if (user == op)
        need |= number != operand;
      else
        need |= user->getBlock() != op->getBlock() || op->isBeforeInBlock(user);
    }
    if (need)
      mark(op, operand, inNode);
  }
}

void CopyInsertionPass::planRoot(ComputationOp comp) {
  Value root = comp.getRootValue();
  Operation *ret = comp.getBody().front().getTerminator();
  bool isEntry = comp == dataflow->getEntry();
  DenseMap<unsigned, unsigned> first = firstLeaves(root);
  // Outputs aliased to a parameter: (output node) -> (parameter, node).
  DenseMap<unsigned, std::pair<unsigned, unsigned>> aliased;
  if (isEntry)
    if (auto aliases = comp->getParentOp()->getAttrOfType<ArrayAttr>(
            "hlo.input_output_alias"))
      for (auto alias : aliases.getAsRange<InputOutputAliasAttr>()) {
        if (alias.getParameter() >= int64_t(comp.getNumArguments()))
          continue;
        Type param = comp.getArgument(alias.getParameter()).getType();
        int64_t in =
            HloDataflowAnalysis::getNode(param, alias.getParameterIndex());
        int64_t out = HloDataflowAnalysis::getNode(root.getType(),
                                                   alias.getOutputIndex());
        if (in >= 0 && out >= 0)
          aliased[out] = {unsigned(alias.getParameter()), unsigned(in)};
      }
  forEachLeaf(root, [&](unsigned node) {
    auto [src, srcNode] = origin(*dataflow, root, node);
    bool need = repeated(root, node, first);
    auto alias = aliased.find(node);
    if (alias != aliased.end()) {
      BlockArgument param = comp.getArgument(alias->second.first);
      if (src != param || srcNode != alias->second.second) {
        Operation *def = src.getDefiningOp();
        need |= !def || readAtOrAfter(param, alias->second.second, def);
      }
    } else {
      need |= readOnlyOrRepeated(root, node, first);
      if (!isEntry)
        need |= isa<BlockArgument>(src);
    }
    if (need)
      mark(ret, 0, node);
  });
}

/// `v` with the leaves `mask` marks (pre-order nodes from `node`) copied.
Value CopyInsertionPass::deepCopy(OpBuilder &b, Location loc, Value v,
                                  ArrayRef<bool> mask, unsigned node,
                                  const DenseMap<unsigned, Value> &early) {
  unsigned size = getNumSubshapes(v.getType());
  if (!llvm::is_contained(mask.slice(node, size), true))
    return v;
  auto tuple = dyn_cast<TupleType>(v.getType());
  if (!tuple)
    return createInferred<CopyOp>(b, loc, {v});
  SmallVector<Value> elements;
  ArrayRef<unsigned> nodes = dataflow->getElementNodes(tuple);
  for (unsigned i = 0; i < tuple.size(); ++i) {
    if (Value src = early.lookup(node + nodes[i])) {
      elements.push_back(createInferred<CopyOp>(b, loc, {src}));
      continue;
    }
    Value e = createInferred<GetTupleElementOp>(
        b, loc, {v}, {b.getNamedAttr("index", b.getI64IntegerAttr(i))});
    elements.push_back(deepCopy(b, loc, e, mask, node + nodes[i], early));
  }
  return createInferred<TupleOp>(b, loc, elements);
}

void CopyInsertionPass::apply() {
  for (auto &[key, mask] : plans) {
    auto [op, operand] = key;
    Value v = op->getOperand(operand);
    Location loc = derivedLoc(v.getLoc());
    // Copies of body parameter elements at the start of the body.
    DenseMap<unsigned, Value> early;
    auto it = fromStart.find(key);
    if (it != fromStart.end()) {
      Block *body = op->getBlock();
      OpBuilder start = OpBuilder::atBlockBegin(body);
      for (auto [node, paramNode] : it->second) {
        Value leaf =
            extractNode(*dataflow, start, loc, body->getArgument(0), paramNode);
        early[node] = createInferred<CopyOp>(start, loc, {leaf});
        ++numCopies;
      }
    }
    OpBuilder b(op);
    Value copied = deepCopy(b, loc, v, mask, 0, early);
    if (copied && copied != v) {
      op->setOperand(operand, copied);
      numCopies += llvm::count(mask, true);
      changed = true;
    }
  }
  plans.clear();
  fromStart.clear();
}

void CopyInsertionPass::run() {
  ModuleOp module = getOperation();
  // Loop states first: once read-only and shared values are copied into a
  // loop, its body's parameter no longer holds them, and the other rules
  // see that.
  {
    HloDataflowAnalysis analysis(module);
    if (!analysis.isAnalyzed())
      return;
    dataflow = &analysis;
    for (Operation *c : analysis.getComputations())
      for (WhileOp loop : cast<ComputationOp>(c).getOps<WhileOp>())
        planWhileInit(loop);
    apply();
  }
  HloDataflowAnalysis analysis(module);
  dataflow = &analysis;
  for (Operation *c : analysis.getComputations()) {
    auto comp = cast<ComputationOp>(c);
    for (Operation &op : comp.getOps()) {
      if (auto loop = dyn_cast<WhileOp>(op))
        planWhileBody(loop);
      else
        planInPlace(&op);
    }
    planRoot(comp);
  }
  apply();
  dataflow = nullptr;
}

} // namespace
