//===- HloAliasAnalysis.cpp - HLO values grouped into buffers -------------===//

#include "Hlo/Analysis/HloAliasAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "llvm/ADT/EquivalenceClasses.h"

using namespace mlir;
using namespace mlir::hlo;

HloAliasAnalysis::HloAliasAnalysis(Operation *, AnalysisManager &am)
    : dataflow(am.getAnalysis<HloDataflowAnalysis>()) {
  run();
}

HloAliasAnalysis::HloAliasAnalysis(const HloDataflowAnalysis &dataflow)
    : dataflow(dataflow) {
  run();
}

void HloAliasAnalysis::run() {
  ArrayRef<HloValue> values = dataflow.getValues();
  llvm::EquivalenceClasses<unsigned> classes;
  for (const HloValue &v : values)
    classes.insert(v.id);
  auto unionAll = [&](ArrayRef<unsigned> a, ArrayRef<unsigned> b) {
    for (unsigned x : a)
      for (unsigned y : b)
        classes.unionSets(x, y);
  };
  // One position, one buffer: every value a position may hold.
  for (const HloValue &v : values)
    for (const HloPosition &p : v.positions) {
      ArrayRef<unsigned> set = dataflow.getValueSet(p.value, p.node);
      if (set.size() > 1 && set.front() == v.id)
        unionAll(set.take_front(), set.drop_front());
    }
  // In-place instructions write into their operand's buffer.
  for (Operation *comp : dataflow.getComputations())
    for (Operation &op : cast<ComputationOp>(comp).getOps())
      for (auto [operand, inNode, outNode] : dataflow.getInPlacePairs(&op))
        unionAll(dataflow.getValueSet(op.getOperand(operand), inNode),
                 dataflow.getValueSet(op.getResult(0), outNode));
  // The module's input_output_alias.
  ComputationOp entry = dataflow.getEntry();
  auto aliases = entry ? entry->getParentOp()->getAttrOfType<ArrayAttr>(
                             "hlo.input_output_alias")
                       : ArrayAttr();
  for (Attribute a : aliases ? aliases.getValue() : ArrayRef<Attribute>()) {
    auto alias = dyn_cast<InputOutputAliasAttr>(a);
    if (!alias || alias.getParameter() >= int64_t(entry.getNumArguments()))
      continue;
    Value param = entry.getArgument(alias.getParameter());
    Value root = entry.getRootValue();
    int64_t in = HloDataflowAnalysis::getNode(param.getType(),
                                              alias.getParameterIndex());
    int64_t out =
        HloDataflowAnalysis::getNode(root.getType(), alias.getOutputIndex());
    if (in >= 0 && out >= 0)
      unionAll(dataflow.getValueSet(param, in),
               dataflow.getValueSet(root, out));
  }
  // Buffers numbered by their smallest value.
  bufferOfValue.assign(values.size(), ~0u);
  for (const HloValue &v : values) {
    unsigned leader = classes.getLeaderValue(v.id);
    if (bufferOfValue[leader] == ~0u) {
      bufferOfValue[leader] = buffers.size();
      buffers.push_back({unsigned(buffers.size()), {}});
    }
    bufferOfValue[v.id] = bufferOfValue[leader];
    buffers[bufferOfValue[v.id]].values.push_back(v.id);
  }
}

const HloBuffer *HloAliasAnalysis::getBufferAt(Value value,
                                               unsigned node) const {
  ArrayRef<unsigned> set = dataflow.getValueSet(value, node);
  return set.empty() ? nullptr : &getBufferOfValue(set.front());
}
