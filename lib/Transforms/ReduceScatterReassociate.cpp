//===- ReduceScatterReassociate.cpp - one reduce-scatter of a sum ---------===//
//
// XLA's ReduceScatterReassociate (XLA-GPU's "collective-optimizations",
// right after the all-reduce reassociation): an elementwise reduction of
// two reduce-scatters that reduce and scatter the same way is one
// reduce-scatter of the reduction of their operands:
//
//   add(reduce-scatter(x), reduce-scatter(y)) -> reduce-scatter(add(x, y))
//
// Both operands are reduce-scatters (nothing between), each with that one
// user, whose reduction is the instruction's op and type (add, multiply,
// minimum, maximum; and, or of pred) and which agree on the scatter
// dimension, channel or not, global device ids, replica groups, the
// `collective_group_key` frontend attribute, and `_scheduling_group_id` where
// both have one (the new one keeps it only when both have it). The new
// reduce-scatter takes the first one's name and attributes (the reduction
// keeps its own name) and, when it has
// a channel id, a new one (one past the module's largest, as XLA). Chains
// and trees become one reduce-scatter in one run. Left alone: modules with
// a layout-constrained reduce-scatter (XLA), control edges.
//
//===----------------------------------------------------------------------===//

#include "CollectiveCombinerUtils.h"
#include "CollectiveOptUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOREDUCESCATTERREASSOCIATE
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// `v`'s defining reduce-scatter if it is the only instruction reading it.
static ReduceScatterOp soleReduceScatter(Value v) {
  auto rs = v.getDefiningOp<ReduceScatterOp>();
  return rs && hasOneUser(v) ? rs : nullptr;
}

static Attribute schedulingGroup(Operation *op) {
  auto attrs = op->getAttrOfType<DictionaryAttr>("frontend_attributes");
  return attrs ? attrs.get("_scheduling_group_id") : Attribute();
}

/// `op`'s frontend attributes without `_scheduling_group_id`.
static void dropSchedulingGroup(Operation *op) {
  auto attrs = op->getAttrOfType<DictionaryAttr>("frontend_attributes");
  if (!attrs)
    return;
  NamedAttrList kept(attrs);
  kept.erase("_scheduling_group_id");
  if (kept.empty())
    op->removeAttr("frontend_attributes");
  else
    op->setAttr("frontend_attributes", kept.getDictionary(op->getContext()));
}

namespace {
struct ReduceScatterReassociatePass
    : ChangeReportingPass<ReduceScatterReassociatePass,
                          hlo::impl::HloReduceScatterReassociateBase> {
  void run() {
    ModuleOp module = getOperation();
    if (hasConstrainedLayout<ReduceScatterOp>(module))
      return;
    nextChannelId = hlo::nextChannelId(module);
    SymbolTable symbols(module);
    int64_t n = rewriteCollectiveReductions(
        module, [&](Operation *inst) { return reassociate(inst, symbols); });
    numReassociated += n;
    changed = n > 0;
  }

  bool reassociate(Operation *inst, SymbolTable &symbols) {
    if (!isStaticArray(inst->getResult(0).getType()) || hasControlEdges(inst))
      return false;
    ReduceScatterOp rs0 = soleReduceScatter(inst->getOperand(0));
    ReduceScatterOp rs1 = soleReduceScatter(inst->getOperand(1));
    if (!rs0 || !rs1 || rs0.getDimensions() != rs1.getDimensions())
      return false;
    std::optional<std::string> key0 = collectiveKey(rs0, ""),
                               key1 = collectiveKey(rs1, "");
    std::optional<std::string> kind0 =
        reductionKind(symbols, rs0.getToApplyAttr());
    auto comp = symbols.lookup<ComputationOp>(rs0.getToApply());
    if (!key0 || key0 != key1 || !kind0 ||
        kind0 != reductionKind(symbols, rs1.getToApplyAttr()) || !comp ||
        collectiveGroupKey(rs0) != collectiveGroupKey(rs1))
      return false;
    Attribute group0 = schedulingGroup(rs0), group1 = schedulingGroup(rs1);
    if (group0 && group1 && group0 != group1)
      return false;
    Operation *root = comp.getRootValue().getDefiningOp();
    Value x = rs0.getInputs()[0], y = rs1.getInputs()[0];
    if (root->getName() != inst->getName() ||
        getElementTypeOrSelf(root->getResult(0).getType()) !=
            getElementTypeOrSelf(inst->getResult(0).getType()) ||
        x.getType() != y.getType())
      return false;

    // The reduction of the operands, then the scatter of it.
    OpBuilder b(inst);
    Operation *sum = b.clone(*inst);
    sum->setOperands({x, y});
    sum->getResult(0).setType(x.getType());
    auto combined = cast<ReduceScatterOp>(b.clone(*rs0));
    combined->setOperand(0, sum->getResult(0));
    combined.getResult().setType(inst->getResult(0).getType());
    if (combined->hasAttr("channel_id"))
      combined->setAttr("channel_id", b.getI64IntegerAttr(nextChannelId++));
    if (!group0 || !group1)
      dropSchedulingGroup(combined);
    inst->getResult(0).replaceAllUsesWith(combined.getResult());
    inst->erase();
    rs0->erase();
    if (rs1 != rs0)
      rs1->erase();
    return true;
  }

  int64_t nextChannelId = 1;
};
} // namespace
