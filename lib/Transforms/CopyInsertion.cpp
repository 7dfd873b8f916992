//===- CopyInsertion.cpp - hlo-gpu-copy-insertion -------------------------===//
//
// XLA's CopyInsertion (with its RemoveUnnecessaryCopies folded in: a copy is
// only added where the rules below find it needed). The alias analysis puts
// in one buffer a while loop's state, a conditional's or call's result and
// its computation's root, an in-place instruction's result and operand, an
// aliased ENTRY output and its parameter. Sharing a buffer is only correct
// when no value in it is overwritten while still needed, and when read-only
// memory (constants, ENTRY parameters) is never written. XLA inserts copies
// everywhere before scheduling and removes those whose live ranges do not
// interfere under the order; this pass runs after scheduling, on the final
// order, and adds only the copies its rules find needed. The schedulers are
// told beforehand (hlo-loop-schedule-linearizer, XLA's LoopScheduleLinearizer)
// to run a loop body's reads of a state element before the instruction that
// writes its new value, so the body-root rule rarely fires. A copy is added
//
// - before a while loop, of a state element whose value is read-only (unless
//   the body passes that element through at its own index: it is never
//   written, XLA's "read-only indices"), is read after the loop, or is also
//   another element of the state. Loops are planned outer ones first (one
//   dataflow analysis per nesting depth), so an inner loop sees the copies
//   its outer loop's state got and does not copy again what is no longer
//   read-only or repeated. A loop in a while body that updates the body's
//   parameter element which the body's root takes back from it at the same
//   index keeps that element uncopied; its other readers (the loop at other
//   indices, readers after it) get one copy made before the loop, which
//   replaces both the copy into the loop and the one at the root;
// - at a while body's root, of an element that is read-only, another
//   element of the parameter passed through, repeated, or computed before
//   the last read of the parameter element it replaces (the defining
//   instruction's own read counts unless it writes over that operand:
//   elementwise with the same type, in place, a kLoop fusion whose fused
//   parameter reaches its outputs through elementwise ops only (XLA's
//   CanShareOperandBufferWithUser), or a nested while carrying it at the
//   same index). An element passed through at its own index is never
//   copied: it is not written;
// - before an in-place instruction (dynamic-update-slice, scatter, fusions
//   rooted in them, custom calls with output_to_operand_aliasing), of the
//   operand it overwrites when that is read-only, read later, or read by
//   another operand of the same instruction;
// - at the ENTRY root, of an output that is a constant or a parameter (not
//   aliased to that output) or repeated, and of an output aliased to a
//   parameter that is computed before the parameter's last read; at a
//   called computation's root, of an element that is read-only, passed
//   through from a parameter, or repeated; at a conditional branch's root
//   likewise, except an element the branch returns from its parameter at
//   the same index when the conditional's operand there is not read-only,
//   every read of its values (through any position) is in the branch, is
//   the conditional itself at that operand, or comes before the
//   conditional in its block or through the conditional's result, and
//   every other branch computes that element itself (its root values
//   there are none of the conditional's operands'): the result then takes
//   the operand's buffer, as XLA's copy removal finds when the operand dies
//   at the conditional.
//
//===----------------------------------------------------------------------===//

#include "CopyInsertionUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "Hlo/Analysis/HloDataflowAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Transforms/BufferAssignmentPasses.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

#include <optional>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOGPUCOPYINSERTION
#include "Hlo/Transforms/BufferAssignmentPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

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
  /// True if node `node` of `v` is read after `def`, or by `def` itself
  /// unless `def` writes its result node `resultNode` over what it reads.
  bool readAtOrAfter(Value v, unsigned node, Operation *def,
                     unsigned resultNode) const {
    SmallVector<DataReader> readers;
    collectDataReaders(*dataflow, v, node, readers);
    return llvm::any_of(readers, [&](const DataReader &r) {
      if (r.user == def)
        return !writesOver(def, r.operand, r.node, resultNode);
      return r.user->getBlock() == def->getBlock() &&
             def->isBeforeInBlock(r.user);
    });
  }
  bool writesOver(Operation *op, unsigned operand, unsigned operandNode,
                  unsigned resultNode) const;
  bool fusionWritesOver(FusionOp fusion, unsigned operand,
                        unsigned resultNode) const;
  ComputationOp bodyOf(WhileOp loop) const;
  bool passesThrough(ComputationOp body, unsigned node) const;
  bool branchMayReturnOperand(ComputationOp branch, unsigned node) const;
  bool isWhileBody(ComputationOp comp) const;
  ConditionalOp conditionalOf(ComputationOp branch, unsigned &index) const;
  bool outsideLoops(Operation *op) const;
  bool operandDies(ConditionalOp cond, unsigned index, unsigned node,
                   ComputationOp branch,
                   const llvm::DenseSet<unsigned> &via) const;
  void planRedirect(WhileOp loop);
  bool applyRedirects();
  void planWhileInit(WhileOp loop);
  void planWhileBody(WhileOp loop);
  bool apply();
  void planInPlace(Operation *op);
  void planRoot(ComputationOp comp);
  Value deepCopy(OpBuilder &b, Location loc, Value v, ArrayRef<bool> mask,
                 unsigned node, const DenseMap<unsigned, Value> &early);

  SymbolTable *symbols = nullptr;
  const HloDataflowAnalysis *dataflow = nullptr;
  llvm::MapVector<std::pair<Operation *, unsigned>, SmallVector<bool>> plans;
  /// Leaves of a plan (by node) to copy from a copy of a body parameter
  /// element (by node) made at the start of the body.
  DenseMap<std::pair<Operation *, unsigned>, DenseMap<unsigned, unsigned>>
      fromStart;
  /// Readers of a body parameter element to give one copy of it
  /// (planRedirect).
  struct Redirect {
    Operation *loop;
    Value param;
    unsigned node;
    SmallVector<OpOperand *> operands;
  };
  SmallVector<Redirect> redirects;
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

/// True if the elementwise op `op` has no implicit broadcast of `operand`:
/// they have the same shape.
static bool sameShape(Type a, Type b) {
  auto ra = dyn_cast<RankedTensorType>(a), rb = dyn_cast<RankedTensorType>(b);
  return ra && rb && ra.hasStaticShape() && ra.getShape() == rb.getShape();
}

bool CopyInsertionPass::fusionWritesOver(FusionOp fusion, unsigned operand,
                                         unsigned resultNode) const {
  if (fusion.getKind() != FusionKind::kLoop || !symbols)
    return false;
  Type operandType = fusion->getOperand(operand).getType();
  Type resultType = fusion.getResult().getType();
  if (auto tuple = dyn_cast<TupleType>(resultType)) {
    ArrayRef<unsigned> nodes = dataflow->getElementNodes(tuple);
    const unsigned *it = llvm::find(nodes, resultNode);
    if (resultNode == 0 || it == nodes.end())
      return false;
    resultType = tuple.getType(it - nodes.begin());
  } else if (resultNode != 0) {
    return false;
  }
  if (resultType != operandType || !isStaticArray(operandType))
    return false;
  auto fused = symbols->lookup<ComputationOp>(fusion.getCalls());
  if (!fused || fused.getBody().empty() || operand >= fused.getNumArguments())
    return false;
  // XLA's AreTransitiveUsesElementwiseOrTuple: every element is read by the
  // thread that writes the same element of the output.
  Value root = fused.getRootValue();
  SmallVector<Value> stack{fused.getArgument(operand)};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!stack.empty()) {
    Value v = stack.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (user->hasTrait<OpTrait::IsTerminator>())
        continue;
      if (isa<TupleOp>(user) && user->getResult(0) == root)
        continue;
      if (!isElementwise(user) || user->getNumResults() != 1 ||
          !sameShape(user->getResult(0).getType(), operandType))
        return false;
      if (seen.insert(user).second)
        stack.push_back(user->getResult(0));
    }
  }
  return true;
}

bool CopyInsertionPass::writesOver(Operation *op, unsigned operand,
                                   unsigned operandNode,
                                   unsigned resultNode) const {
  if (isElementwise(op) && operandNode == 0 && resultNode == 0 &&
      op->getOperand(operand).getType() == op->getResult(0).getType())
    return true;
  for (auto [in, inNode, outNode] : dataflow->getInPlacePairs(op))
    if (in == operand && inNode == operandNode && outNode == resultNode)
      return true;
  // A nested loop carries its uncopied init element in its state: its
  // result at that index is written over it.
  if (isa<WhileOp>(op))
    return operand == 0 && operandNode == resultNode;
  if (auto fusion = dyn_cast<FusionOp>(op))
    return operandNode == 0 && fusionWritesOver(fusion, operand, resultNode);
  return false;
}

ComputationOp CopyInsertionPass::bodyOf(WhileOp loop) const {
  for (Operation *callee : dataflow->getCallees(loop)) {
    auto body = cast<ComputationOp>(callee);
    if (body.getSymName() == loop.getBody() && body.getNumArguments() == 1)
      return body;
  }
  return nullptr;
}

/// True if the root of `body` holds its parameter's element at `node`.
bool CopyInsertionPass::passesThrough(ComputationOp body, unsigned node) const {
  auto [src, srcNode] = dataOrigin(*dataflow, body.getRootValue(), node);
  return src == body.getArgument(0) && srcNode == node;
}

/// A loop updating in place the state element of its enclosing loop that
/// the enclosing body's root takes from its result: the enclosing body's
/// parameter element `x` goes into the loop's state at `node`, the root
/// takes the loop's result there back at x's index, and x is also read
/// after the loop starts (by the loop at other indices, or later). The
/// loop then needs x copied in, and the root needs the result copied back
/// (x is still read when it is written). One copy of x made before the
/// loop for those other readers does both (XLA reaches the same with its
/// copy removal): the loop then writes x's bytes, which the root keeps.
void CopyInsertionPass::planRedirect(WhileOp loop) {
  auto body = dyn_cast<ComputationOp>(loop->getParentOp());
  if (!body || !isWhileBody(body) || body.getNumArguments() != 1)
    return;
  BlockArgument param = body.getArgument(0);
  Value root = body.getRootValue();
  Value init = loop.getDataOperands()[0];
  ComputationOp inner = bodyOf(loop);
  if (!inner)
    return;
  forEachLeaf(root, [&](unsigned k) {
    auto [src, srcNode] = dataOrigin(*dataflow, root, k);
    if (src != loop.getResult())
      return;
    unsigned node = srcNode;
    if (node >= getNumSubshapes(init.getType()) || passesThrough(inner, node))
      return;
    auto [from, fromNode] = dataOrigin(*dataflow, init, node);
    if (from != param || fromNode != k)
      return;
    if (llvm::any_of(dataflow->getValueSet(param, k),
                     [&](unsigned id) { return readOnly(id); }))
      return;
    // The readers to give the copy: the loop at other indices, and every
    // reader after it. Each is reached through tuple operands down to the
    // operand holding x's data whole.
    SmallVector<DataReader> readers;
    collectDataReaders(*dataflow, param, k, readers);
    SmallVector<OpOperand *> operands;
    for (const DataReader &r : readers) {
      if (r.user->getBlock() != loop->getBlock())
        return;
      if (r.user == loop.getOperation() ? r.node == node
                                        : !loop->isBeforeInBlock(r.user))
        continue;
      OpOperand *use = &r.user->getOpOperand(r.operand);
      unsigned at = r.node;
      while (at != 0) {
        auto tuple = use->get().getDefiningOp<TupleOp>();
        if (!tuple)
          return;
        ArrayRef<unsigned> nodes = dataflow->getElementNodes(tuple.getType());
        unsigned i = llvm::upper_bound(nodes, at) - nodes.begin() - 1;
        at -= nodes[i];
        use = &tuple->getOpOperand(i);
      }
      if (isa<TupleType>(use->get().getType()))
        return;
      operands.push_back(use);
    }
    if (operands.empty())
      return;
    redirects.push_back({loop, param, k, std::move(operands)});
  });
}

/// Makes the copies planRedirect planned, each before its loop and its
/// first reader.
bool CopyInsertionPass::applyRedirects() {
  for (Redirect &r : redirects) {
    // Before the loop (which writes the element) and every reader.
    Operation *first = r.loop;
    for (OpOperand *use : r.operands)
      if (use->getOwner()->isBeforeInBlock(first))
        first = use->getOwner();
    OpBuilder b(first);
    Location loc = derivedLoc(r.operands.front()->get().getLoc());
    Value leaf = extractNode(*dataflow, b, loc, r.param, r.node);
    Value copy = createInferred<CopyOp>(b, loc, {leaf});
    for (OpOperand *use : r.operands)
      use->set(copy);
    ++numCopies;
    changed = true;
  }
  bool any = !redirects.empty();
  redirects.clear();
  return any;
}

void CopyInsertionPass::planWhileInit(WhileOp loop) {
  Value init = loop.getDataOperands()[0];
  ComputationOp body = bodyOf(loop);
  // Leaves that keep their value without a copy: only one of them may hold
  // a given value (unless it is read-only and never written).
  SmallVector<unsigned> kept;
  forEachLeaf(init, [&](unsigned node) {
    ArrayRef<unsigned> set = dataflow->getValueSet(init, node);
    bool anyReadOnly =
        llvm::any_of(set, [&](unsigned id) { return readOnly(id); });
    if (body && passesThrough(body, node)) {
      // The loop never writes this element: it may stay where it is (XLA's
      // read-only indices). Whoever writes the loop's result there later
      // finds its data's origin through the loop (dataOrigin) and copies
      // if the original is still read; read-only data is copied by every
      // writer.
      if (set.empty() ||
          llvm::all_of(set, [&](unsigned id) { return readOnly(id); }))
        return;
      if (anyReadOnly)
        mark(loop, 0, node);
      else
        kept.push_back(node);
      return;
    }
    auto [src, srcNode] = dataOrigin(*dataflow, init, node);
    SmallVector<DataReader> readers;
    collectDataReaders(*dataflow, src, srcNode, readers);
    bool later = llvm::any_of(readers, [&](const DataReader &r) {
      return r.user != loop.getOperation() &&
             r.user->getBlock() == loop->getBlock() &&
             loop->isBeforeInBlock(r.user);
    });
    if (later || anyReadOnly)
      mark(loop, 0, node);
    else
      kept.push_back(node);
  });
  // A value at two kept leaves: the later ones are copied.
  DenseMap<unsigned, unsigned> first;
  for (unsigned node : kept) {
    bool again = false;
    for (unsigned id : dataflow->getValueSet(init, node))
      again |= !first.try_emplace(id, node).second;
    if (again)
      mark(loop, 0, node);
  }
}

void CopyInsertionPass::planWhileBody(WhileOp loop) {
  ComputationOp body = bodyOf(loop);
  if (!body)
    return;
  Value root = body.getRootValue();
  Operation *ret = body.getBody().front().getTerminator();
  BlockArgument param = body.getArgument(0);
  DenseMap<unsigned, unsigned> rootFirst = firstLeaves(root);
  // Values of elements passed through at their own index (never written,
  // never copied): any other element holding one of them is copied.
  llvm::DenseSet<unsigned> passed;
  forEachLeaf(root, [&](unsigned node) {
    if (passesThrough(body, node))
      passed.insert_range(dataflow->getValueSet(root, node));
  });
  forEachLeaf(root, [&](unsigned node) {
    auto [src, srcNode] = dataOrigin(*dataflow, root, node);
    if (src == param && srcNode == node)
      return;
    bool need = readOnlyOrRepeated(root, node, rootFirst) ||
                llvm::any_of(dataflow->getValueSet(root, node),
                             [&](unsigned id) { return passed.contains(id); });
    if (src == param) {
      // Another element passed through (a swap, a rotation): the root's
      // copies would overwrite elements other copies still read, so the
      // element is copied first at the start of the body.
      need = true;
      fromStart[{ret, 0}][node] = srcNode;
    } else if (Operation *def = src.getDefiningOp()) {
      need |= readAtOrAfter(param, node, def, srcNode);
    } else {
      need = true;
    }
    if (need)
      mark(ret, 0, node);
  });
}

void CopyInsertionPass::planInPlace(Operation *op) {
  for (auto [operand, inNode, outNode] : dataflow->getInPlacePairs(op)) {
    Value v = op->getOperand(operand);
    bool need = llvm::any_of(dataflow->getValueSet(v, inNode),
                             [&](unsigned id) { return readOnly(id); });
    auto [src, srcNode] = dataOrigin(*dataflow, v, inNode);
    SmallVector<DataReader> readers;
    collectDataReaders(*dataflow, src, srcNode, readers);
    for (const DataReader &r : readers) {
      if (r.user == op)
        need |= r.operand != operand;
      else
        need |=
            r.user->getBlock() != op->getBlock() || op->isBeforeInBlock(r.user);
    }
    // Data from a branch's or callee's parameter is the caller's operand:
    // it is written in place only when the conditional's operand dies there.
    if (auto arg = dyn_cast<BlockArgument>(src); arg && !need) {
      auto comp = dyn_cast<ComputationOp>(arg.getOwner()->getParentOp());
      if (comp && comp != dataflow->getEntry() && !isWhileBody(comp)) {
        unsigned index = 0;
        ConditionalOp cond = conditionalOf(comp, index);
        need = !cond || !outsideLoops(cond) ||
               !operandDies(cond, index, srcNode, comp, {});
      }
    }
    if (need)
      mark(op, operand, inNode);
  }
}

/// True if `comp` runs only as the body of while loops.
bool CopyInsertionPass::isWhileBody(ComputationOp comp) const {
  ArrayRef<Operation *> callers = dataflow->getCallers(comp);
  return !callers.empty() && llvm::all_of(callers, [&](Operation *caller) {
    auto loop = dyn_cast<WhileOp>(caller);
    return loop && loop.getBody() == comp.getSymName();
  });
}

/// The conditional running `branch` (its only caller, once), and the
/// branch's number; null otherwise.
ConditionalOp CopyInsertionPass::conditionalOf(ComputationOp branch,
                                               unsigned &index) const {
  ArrayRef<Operation *> callers = dataflow->getCallers(branch);
  if (callers.size() != 1)
    return nullptr;
  auto cond = dyn_cast<ConditionalOp>(callers.front());
  if (!cond)
    return nullptr;
  SmallVector<FlatSymbolRefAttr> names(cond.getBranches());
  auto isThis = [&](FlatSymbolRefAttr n) {
    return n.getValue() == branch.getSymName();
  };
  if (llvm::count_if(names, isThis) != 1 ||
      names.size() + 1 != cond.getDataOperands().size() ||
      dataflow->getCallees(cond).size() != names.size())
    return nullptr;
  index = llvm::find_if(names, isThis) - names.begin();
  return cond;
}

/// True if no while loop runs `op`'s computation (a loop would carry one
/// iteration's values into the next one's positions).
bool CopyInsertionPass::outsideLoops(Operation *op) const {
  for (Operation *comp = op->getParentOp();
       comp != dataflow->getEntry().getOperation();) {
    ArrayRef<Operation *> up = dataflow->getCallers(comp);
    if (up.size() != 1 || isa<WhileOp>(up.front()))
      return false;
    comp = up.front()->getParentOp();
  }
  return true;
}

/// True if the values of `cond`'s operand for branch `index` at `node` are
/// writable and read only before the conditional, by it (there only), in
/// `branch`, or at positions holding one of `via` (values only the
/// conditional's result passes on).
bool CopyInsertionPass::operandDies(ConditionalOp cond, unsigned index,
                                    unsigned node, ComputationOp branch,
                                    const llvm::DenseSet<unsigned> &via) const {
  Value operand = cond.getDataOperands()[index + 1];
  ArrayRef<unsigned> set = dataflow->getValueSet(operand, node);
  if (set.empty())
    return false;
  Block *branchBlock = &branch.getBody().front();
  for (unsigned id : set) {
    if (readOnly(id))
      return false;
    for (const HloUse &use : dataflow->getValue(id).uses) {
      Operation *user = use.user;
      if (user == cond.getOperation()) {
        if (use.operand != index + 1 || use.node != node)
          return false;
        continue;
      }
      if (user->getBlock() == branchBlock ||
          (user->getBlock() == cond->getBlock() && user->isBeforeInBlock(cond)))
        continue;
      if (llvm::any_of(
              dataflow->getValueSet(user->getOperand(use.operand), use.node),
              [&](unsigned v) { return via.contains(v); }))
        continue;
      return false;
    }
  }
  return true;
}

/// True if `branch`, a branch of a conditional returning its parameter's
/// element at `node`, may do so without a copy: the conditional's result
/// then takes the operand's buffer, which must be dead after the
/// conditional, writable, and not given to another branch, and the other
/// branches must write values of their own into it.
bool CopyInsertionPass::branchMayReturnOperand(ComputationOp branch,
                                               unsigned node) const {
  unsigned index = 0;
  ConditionalOp cond = conditionalOf(branch, index);
  if (!cond || !outsideLoops(cond))
    return false;
  // Every other branch defines its own values at `node` (writable, by an
  // instruction of the branch that takes no operand's buffer): they reach
  // no position but the conditional's result and what comes from it.
  llvm::DenseSet<unsigned> operandValues, otherValues;
  for (Value operand : cond.getDataOperands().drop_front())
    for (unsigned n = 0, e = dataflow->getNumNodes(operand); n < e; ++n)
      operandValues.insert_range(dataflow->getValueSet(operand, n));
  for (Operation *callee : dataflow->getCallees(cond)) {
    auto other = cast<ComputationOp>(callee);
    if (other == branch)
      continue;
    Block *otherBlock = &other.getBody().front();
    ArrayRef<unsigned> there =
        dataflow->getValueSet(other.getRootValue(), node);
    if (there.empty() || llvm::any_of(there, [&](unsigned id) {
          Operation *def = dataflow->getValue(id).defined.value.getDefiningOp();
          return operandValues.contains(id) || readOnly(id) || !def ||
                 def->getBlock() != otherBlock ||
                 !dataflow->getInPlacePairs(def).empty();
        }))
      return false;
    otherValues.insert_range(there);
  }
  return !otherValues.empty() &&
         operandDies(cond, index, node, branch, otherValues);
}

void CopyInsertionPass::planRoot(ComputationOp comp) {
  Value root = comp.getRootValue();
  Operation *ret = comp.getBody().front().getTerminator();
  bool isEntry = comp == dataflow->getEntry();
  // A while body's root is the loop's (planWhileBody).
  if (!isEntry && isWhileBody(comp))
    return;
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
    auto [src, srcNode] = dataOrigin(*dataflow, root, node);
    bool need = repeated(root, node, first);
    auto alias = aliased.find(node);
    if (alias != aliased.end()) {
      BlockArgument param = comp.getArgument(alias->second.first);
      if (src != param || srcNode != alias->second.second) {
        Operation *def = src.getDefiningOp();
        need |=
            !def || readAtOrAfter(param, alias->second.second, def, srcNode);
      }
    } else {
      need |= readOnlyOrRepeated(root, node, first);
      if (!isEntry && isa<BlockArgument>(src))
        need |= srcNode != node || !branchMayReturnOperand(comp, node);
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

bool CopyInsertionPass::apply() {
  bool added = false;
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
      changed = added = true;
    }
  }
  plans.clear();
  fromStart.clear();
  return added;
}

void CopyInsertionPass::run() {
  ModuleOp module = getOperation();
  SymbolTable table(module);
  symbols = &table;
  // The rules read value sets, which mix the values of a loop's
  // iterations and of the copies not yet made: computations are taken
  // outer ones first, one nesting depth at a time (one dataflow analysis
  // each, redone only after a depth added copies). Loop states first: once
  // read-only and shared values are copied into a loop, its body's
  // parameter no longer holds them, and the other rules see that.
  std::optional<HloDataflowAnalysis> analysis(std::in_place, module);
  if (!analysis->isAnalyzed()) {
    symbols = nullptr;
    return;
  }
  SmallVector<SmallVector<Operation *>> byDepth;
  DenseMap<Operation *, unsigned> depth;
  for (Operation *c : analysis->getComputations()) {
    unsigned d = depth.lookup(c);
    if (byDepth.size() <= d)
      byDepth.resize(d + 1);
    byDepth[d].push_back(c);
    for (Operation &op : cast<ComputationOp>(c).getOps())
      for (Operation *callee : analysis->getCallees(&op))
        depth.try_emplace(callee, d + 1);
  }
  auto plan = [&](ArrayRef<Operation *> comps,
                  function_ref<void(ComputationOp)> fn) {
    if (!analysis)
      analysis.emplace(module);
    dataflow = &*analysis;
    for (Operation *c : comps)
      fn(cast<ComputationOp>(c));
    if (apply() | applyRedirects())
      analysis.reset();
  };
  for (ArrayRef<Operation *> comps : byDepth) {
    plan(comps, [&](ComputationOp comp) {
      for (WhileOp loop : comp.getOps<WhileOp>())
        planRedirect(loop);
    });
    plan(comps, [&](ComputationOp comp) {
      for (WhileOp loop : comp.getOps<WhileOp>())
        planWhileInit(loop);
    });
  }
  for (ArrayRef<Operation *> comps : byDepth)
    plan(comps, [&](ComputationOp comp) {
      for (Operation &op : comp.getOps()) {
        if (auto loop = dyn_cast<WhileOp>(op))
          planWhileBody(loop);
        else
          planInPlace(&op);
      }
      planRoot(comp);
    });
  dataflow = nullptr;
  symbols = nullptr;
}

} // namespace
