//===- CopyInsertionUtils.h - while-state helpers of copy insertion -*- C++
//-*-//
//
// Private to lib/Transforms: where the data at a node of a value comes from
// and who reads it, looking through tuple, get-tuple-element and bitcast
// (which forward data without reading it). Shared by hlo-gpu-copy-insertion
// and hlo-loop-schedule-linearizer.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_COPYINSERTIONUTILS_H
#define HLO_LIB_TRANSFORMS_COPYINSERTIONUTILS_H

#include "Hlo/Analysis/HloDataflowAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"

namespace mlir::hlo {

/// An instruction (or terminator) reading data: operand `operand` of `user`
/// at node `node` of that operand's shape tree.
struct DataReader {
  Operation *user;
  unsigned operand;
  unsigned node;
};

std::pair<Value, unsigned> dataOrigin(const HloDataflowAnalysis &df, Value v,
                                      unsigned node);

/// The body of `loop` if the dataflow analysis covers it and its root holds
/// its parameter's element at `node` (the loop never writes that element).
inline bool whilePassesThrough(const HloDataflowAnalysis &df, WhileOp loop,
                               unsigned node) {
  for (Operation *callee : df.getCallees(loop)) {
    auto body = cast<ComputationOp>(callee);
    if (body.getSymName() != loop.getBody() || body.getNumArguments() != 1 ||
        body.getBody().empty())
      continue;
    auto [src, srcNode] = dataOrigin(df, body.getRootValue(), node);
    return src == body.getArgument(0) && srcNode == node;
  }
  return false;
}

/// Where the data at node `node` of `v` comes from: follows tuple,
/// get-tuple-element, bitcast and the elements a while loop passes through
/// unchanged back to a parameter or a defining op.
inline std::pair<Value, unsigned> dataOrigin(const HloDataflowAnalysis &df,
                                             Value v, unsigned node) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto loop = dyn_cast<WhileOp>(def)) {
      if (!whilePassesThrough(df, loop, node))
        break;
      v = loop.getDataOperands()[0];
      continue;
    }
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

/// The position of operand `operand` (of type `type`) in the result of an
/// asynchronous start that holds its operands in element {0} until its done
/// (the dataflow analysis' forwarding), if it does. An operand the start
/// writes over in place (an asynchronous ragged-all-to-all's output) is
/// the in-place rules' to see, not held.
inline std::optional<unsigned> startHolds(const HloDataflowAnalysis &df,
                                          Operation *start, unsigned operand,
                                          Type type) {
  if (!isa<AsyncStartOp, AllGatherStartOp, CollectivePermuteStartOp, SendOp>(
          start))
    return std::nullopt;
  for (auto [in, inNode, outNode] : df.getInPlacePairs(start))
    if (in == operand)
      return std::nullopt;
  auto result = dyn_cast<TupleType>(start->getResult(0).getType());
  if (!result || result.size() == 0)
    return std::nullopt;
  unsigned base = df.getElementNodes(result)[0];
  Type zero = result.getType(0);
  if (zero == type && operand == 0)
    return base;
  auto held = dyn_cast<TupleType>(zero);
  if (held && operand < held.size() && held.getType(operand) == type)
    return base + df.getElementNodes(held)[operand];
  return std::nullopt;
}

/// The instructions (or terminators) reading node `node` of `v` or a tuple
/// containing it, looking through tuple, get-tuple-element and bitcast,
/// and through the result of an asynchronous start holding it (whose done
/// reads it when the transfer ends). Control edges are not reads.
inline void collectDataReaders(const HloDataflowAnalysis &df, Value v,
                               unsigned node,
                               SmallVectorImpl<DataReader> &out) {
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    auto inst = dyn_cast<InstructionOpInterface>(user);
    if (inst && use.getOperandNumber() >= inst.getDataOperands().size())
      continue; // a control edge
    if (auto gte = dyn_cast<GetTupleElementOp>(user)) {
      ArrayRef<unsigned> nodes = df.getElementNodes(v.getType());
      unsigned i = gte.getIndex();
      unsigned end = nodes[i] + getNumSubshapes(gte.getType());
      if (node == 0)
        collectDataReaders(df, gte.getResult(), 0, out); // reads all of it
      else if (node >= nodes[i] && node < end)
        collectDataReaders(df, gte.getResult(), node - nodes[i], out);
    } else if (isa<TupleOp>(user)) {
      unsigned base = df.getElementNodes(
          user->getResult(0).getType())[use.getOperandNumber()];
      collectDataReaders(df, user->getResult(0), base + node, out);
    } else if (isa<BitcastOp>(user)) {
      collectDataReaders(df, user->getResult(0), node, out);
    } else {
      out.push_back({user, use.getOperandNumber(), node});
      if (std::optional<unsigned> held =
              startHolds(df, user, use.getOperandNumber(), v.getType()))
        collectDataReaders(df, user->getResult(0), *held + node, out);
    }
  }
}

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_COPYINSERTIONUTILS_H
