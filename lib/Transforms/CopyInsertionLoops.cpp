//===- CopyInsertionLoops.cpp - copies for while loops -------------------===//
//
// The while-loop rules of hlo-gpu-copy-insertion (CopyInsertion.cpp): the
// state going into a loop, the body's root, and one copy shared by a loop
// in a body and that body's root.
//
//===----------------------------------------------------------------------===//

#include "CopyInsertion.h"
#include "RewriteUtils.h"

using namespace mlir;
using namespace mlir::hlo;

ComputationOp CopyPlanner::bodyOf(WhileOp loop) const {
  for (Operation *callee : dataflow->getCallees(loop)) {
    auto body = cast<ComputationOp>(callee);
    if (body.getSymName() == loop.getBody() && body.getNumArguments() == 1)
      return body;
  }
  return nullptr;
}

/// True if the root of `body` holds its parameter's element at `node`.
bool CopyPlanner::passesThrough(ComputationOp body, unsigned node) const {
  auto [src, srcNode] = dataOrigin(*dataflow, body.getRootValue(), node);
  return src == body.getArgument(0) && srcNode == node;
}

/// True if `comp` runs only as the body of while loops.
bool CopyPlanner::isWhileBody(ComputationOp comp) const {
  ArrayRef<Operation *> callers = dataflow->getCallers(comp);
  return !callers.empty() && llvm::all_of(callers, [&](Operation *caller) {
    auto loop = dyn_cast<WhileOp>(caller);
    return loop && loop.getBody() == comp.getSymName();
  });
}

/// True if no while loop runs `op`'s computation (a loop would carry one
/// iteration's values into the next one's positions).
bool CopyPlanner::outsideLoops(Operation *op) const {
  for (Operation *comp = op->getParentOp();
       comp != dataflow->getEntry().getOperation();) {
    ArrayRef<Operation *> up = dataflow->getCallers(comp);
    if (up.size() != 1 || isa<WhileOp>(up.front()))
      return false;
    comp = up.front()->getParentOp();
  }
  return true;
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
void CopyPlanner::planRedirect(WhileOp loop) {
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
bool CopyPlanner::applyRedirects() {
  for (Redirect &r : redirects) {
    // Before the loop (which writes the element) and every reader.
    Operation *first = r.loop;
    for (OpOperand *use : r.operands)
      if (use->getOwner()->isBeforeInBlock(first))
        first = use->getOwner();
    OpBuilder b(first);
    Location loc = derivedLoc(r.operands.front()->get().getLoc());
    Value leaf = extractNode(b, loc, r.param, r.node);
    Value copy = createInferred<CopyOp>(b, loc, {leaf});
    for (OpOperand *use : r.operands)
      use->set(copy);
    ++copies;
  }
  bool any = !redirects.empty();
  redirects.clear();
  return any;
}

void CopyPlanner::planWhileInit(WhileOp loop) {
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

void CopyPlanner::planWhileBody(WhileOp loop) {
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
  // Elements that take another parameter element, each a different one,
  // none passed through: rotations, whose cycles take k + 1 copies. (Their
  // value sets share values through the loop whatever the order; the data
  // in one iteration is a permutation. Read-only data in the state is
  // copied into the loop's own buffers on the way in: planWhileInit.)
  llvm::MapVector<unsigned, unsigned> rotated;
  DenseMap<unsigned, unsigned> takers;
  forEachLeaf(root, [&](unsigned node) {
    auto [src, srcNode] = dataOrigin(*dataflow, root, node);
    if (src != param || srcNode == node ||
        llvm::any_of(dataflow->getValueSet(root, node),
                     [&](unsigned id) { return passed.contains(id); }))
      return;
    rotated[node] = srcNode;
    ++takers[srcNode];
  });
  rotated.remove_if([&](auto &entry) { return takers[entry.second] > 1; });
  llvm::DenseSet<unsigned> inCycle;
  for (auto [first, unused] : rotated) {
    SmallVector<unsigned> cycle{first};
    for (unsigned at = rotated.lookup(first); at != first;
         at = rotated.lookup(at)) {
      if (!rotated.count(at) || inCycle.contains(at) ||
          cycle.size() > rotated.size()) {
        cycle.clear();
        break;
      }
      cycle.push_back(at);
    }
    if (cycle.size() < 2 || inCycle.contains(first))
      continue;
    inCycle.insert_range(cycle);
    cycles[{ret, 0}].push_back(std::move(cycle));
  }
  forEachLeaf(root, [&](unsigned node) {
    auto [src, srcNode] = dataOrigin(*dataflow, root, node);
    if (src == param && srcNode == node)
      return;
    bool need = readOnlyOrRepeated(root, node, rootFirst) ||
                llvm::any_of(dataflow->getValueSet(root, node),
                             [&](unsigned id) { return passed.contains(id); });
    if (inCycle.contains(node)) {
      need = true; // copied in its cycle's order (apply)
    } else if (src == param) {
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
