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
//   CanShareOperandBufferWithUser), a reduction fusion whose fused
//   parameter reaches the written side output and its reduces so, or a
//   nested while carrying it at the same index). An element passed through at
//   its own index is never copied: it is not written;
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

#include "CopyInsertion.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "Hlo/Transforms/BufferAssignmentPasses.h"

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

  void run() {
    ModuleOp module = getOperation();
    SymbolTable table(module);
    CopyPlanner planner(table);
    // The rules read value sets, which mix the values of a loop's
    // iterations and of the copies not yet made: computations are taken
    // outer ones first, one nesting depth at a time (one dataflow analysis
    // each, redone only after a depth added copies). Loop states first: once
    // read-only and shared values are copied into a loop, its body's
    // parameter no longer holds them, and the other rules see that.
    std::optional<HloDataflowAnalysis> analysis(std::in_place, module);
    if (!analysis->isAnalyzed())
      return;
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
      planner.dataflow = &*analysis;
      for (Operation *c : comps)
        fn(cast<ComputationOp>(c));
      if (planner.apply() | planner.applyRedirects())
        analysis.reset();
    };
    for (ArrayRef<Operation *> comps : byDepth) {
      plan(comps, [&](ComputationOp comp) {
        for (WhileOp loop : comp.getOps<WhileOp>())
          planner.planRedirect(loop);
      });
      plan(comps, [&](ComputationOp comp) {
        for (WhileOp loop : comp.getOps<WhileOp>())
          planner.planWhileInit(loop);
      });
    }
    for (ArrayRef<Operation *> comps : byDepth)
      plan(comps, [&](ComputationOp comp) {
        for (Operation &op : comp.getOps()) {
          if (auto loop = dyn_cast<WhileOp>(op))
            planner.planWhileBody(loop);
          else
            planner.planInPlace(&op);
        }
        planner.planRoot(comp);
      });
    numCopies += planner.copies;
    changed |= planner.copies > 0;
  }
};

} // namespace

/// Node `node` of `v`, extracted with get-tuple-element.
Value CopyPlanner::extractNode(OpBuilder &b, Location loc, Value v,
                               unsigned node) const {
  while (node != 0) {
    ArrayRef<unsigned> nodes = dataflow->getElementNodes(v.getType());
    unsigned i = llvm::upper_bound(nodes, node) - nodes.begin() - 1;
    node -= nodes[i];
    v = createInferred<GetTupleElementOp>(
        b, loc, {v}, {b.getNamedAttr("index", b.getI64IntegerAttr(i))});
  }
  return v;
}

/// `v` with the leaves `mask` marks (pre-order nodes from `node`) copied:
/// from `early`'s value where it has one, as `ready`'s copy where it has
/// one.
Value CopyPlanner::deepCopy(OpBuilder &b, Location loc, Value v,
                            ArrayRef<bool> mask, unsigned node,
                            const DenseMap<unsigned, Value> &early,
                            const DenseMap<unsigned, Value> &ready) {
  unsigned size = getNumSubshapes(v.getType());
  if (!llvm::is_contained(mask.slice(node, size), true))
    return v;
  auto tuple = dyn_cast<TupleType>(v.getType());
  if (!tuple)
    return createInferred<CopyOp>(b, loc, {v});
  SmallVector<Value> elements;
  ArrayRef<unsigned> nodes = dataflow->getElementNodes(tuple);
  for (unsigned i = 0; i < tuple.size(); ++i) {
    if (Value copy = ready.lookup(node + nodes[i])) {
      elements.push_back(copy);
      continue;
    }
    if (Value src = early.lookup(node + nodes[i])) {
      elements.push_back(createInferred<CopyOp>(b, loc, {src}));
      continue;
    }
    Value e = createInferred<GetTupleElementOp>(
        b, loc, {v}, {b.getNamedAttr("index", b.getI64IntegerAttr(i))});
    elements.push_back(
        deepCopy(b, loc, e, mask, node + nodes[i], early, ready));
  }
  return createInferred<TupleOp>(b, loc, elements);
}

bool CopyPlanner::apply() {
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
            extractNode(start, loc, body->getArgument(0), paramNode);
        early[node] = createInferred<CopyOp>(start, loc, {leaf});
        ++copies;
      }
    }
    OpBuilder b(op);
    // Rotations: a1's old value saved at the start, then new[a1] .. new[ak]
    // copied in the cycle's order before the root (each element read
    // before the copy that overwrites it).
    DenseMap<unsigned, Value> ready;
    if (auto c = cycles.find(key); c != cycles.end()) {
      Block *body = op->getBlock();
      Value param = body->getArgument(0);
      OpBuilder start = OpBuilder::atBlockBegin(body);
      for (ArrayRef<unsigned> cycle : c->second) {
        Value saved = createInferred<CopyOp>(
            start, loc, {extractNode(start, loc, param, cycle.front())});
        for (auto [i, node] : llvm::enumerate(cycle)) {
          Value from = i + 1 < cycle.size()
                           ? extractNode(b, loc, param, cycle[i + 1])
                           : saved;
          ready[node] = createInferred<CopyOp>(b, loc, {from});
        }
        copies += cycle.size() + 1;
      }
    }
    Value copied = deepCopy(b, loc, v, mask, 0, early, ready);
    if (copied && copied != v) {
      op->setOperand(operand, copied);
      copies += llvm::count(mask, true) - ready.size();
      added = true;
    }
  }
  plans.clear();
  fromStart.clear();
  cycles.clear();
  return added;
}
