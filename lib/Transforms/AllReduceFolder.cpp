//===- AllReduceFolder.cpp - one all-reduce for two in a row --------------===//
//
// XLA's AllReduceFolder:
//   all-reduce(all-reduce(x, groups0), groups1) -> all-reduce(x, groups)
// where, for each participant, `groups` holds the participants whose `x`
// reaches its result through the two reductions. The fold is exact only if
// each of those contributes once and every participant of a new group has
// the same contributors (foldReplicaGroups). The two all-reduces must agree
// on everything but their groups: the kind of reduction (XLA's
// AllReduceKey: the reducer's root opcode and type), channel or not, global
// device ids or not. One walk over each computation; the module is skipped
// when an all-reduce has a constrained layout, as in XLA.
//
//===----------------------------------------------------------------------===//

#include "CollectiveOptUtils.h"
#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "TransformUtils.h"

#include "llvm/ADT/DenseMap.h"

#include <map>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOALLREDUCEFOLDER
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The groups that `inner` followed by `outer` amount to, or nothing if no
/// single all-reduce computes the same (a participant would contribute
/// twice, or two participants of a group would see different sets).
static std::optional<DeviceGroups>
foldReplicaGroups(const DeviceGroups &inner, const DeviceGroups &outer) {
  int64_t numIds = 0;
  for (const auto &group : inner)
    for (int64_t id : group) {
      if (id < 0)
        return std::nullopt;
      numIds = std::max(numIds, id + 1);
    }
  // The inner group of each id; each id in one group.
  std::vector<int64_t> innerGroup(numIds, -1);
  for (auto [g, group] : llvm::enumerate(inner))
    for (int64_t id : group) {
      if (innerGroup[id] != -1)
        return std::nullopt;
      innerGroup[id] = g;
    }

  // For each outer group, the ids contributing to its members' results
  // (union of their inner groups, each id at most once). Equal sets get one
  // number; `setOf[id]` is the number of the set reaching id's result.
  std::map<std::vector<bool>, int64_t> setNumbers;
  std::vector<int64_t> setOf(numIds, -1);
  for (const auto &group : outer) {
    std::vector<bool> contributors(numIds, false);
    for (int64_t id : group) {
      if (id < 0 || id >= numIds || innerGroup[id] == -1)
        return std::nullopt;
      for (int64_t c : inner[innerGroup[id]]) {
        if (contributors[c])
          return std::nullopt;
        contributors[c] = true;
      }
    }
    int64_t number =
        setNumbers.try_emplace(contributors, setNumbers.size()).first->second;
    for (int64_t id : group)
      setOf[id] = number;
  }

  // Each set is a group if all of its members see exactly that set.
  DeviceGroups result;
  for (const auto &[contributors, number] : setNumbers) {
    SmallVector<int64_t> &group = result.emplace_back();
    for (int64_t id = 0; id < numIds; ++id)
      if (contributors[id]) {
        if (setOf[id] != number)
          return std::nullopt;
        group.push_back(id);
      }
  }
  llvm::sort(result, [](const auto &a, const auto &b) {
    return a.front() < b.front();
  });
  return result;
}

/// The reduction of a simple reducer: the opcode, attributes and type of
/// the one instruction of a two-parameter computation that combines the
/// parameters. Null if the reducer is anything else.
static Operation *simpleReduction(AllReduceOp ar, SymbolTable &symbols) {
  auto comp = symbols.lookup<ComputationOp>(ar.getToApply());
  if (!comp || comp.getBody().front().getNumArguments() != 2)
    return nullptr;
  Block &body = comp.getBody().front();
  if (!llvm::hasSingleElement(body.without_terminator()))
    return nullptr;
  Operation *root = &body.front();
  if (root->getNumResults() != 1 || root->getResult(0) != comp.getRootValue())
    return nullptr;
  OperandRange operands = getDataOperands(root);
  Value a = body.getArgument(0), b = body.getArgument(1);
  if (operands.size() != 2 || !((operands[0] == a && operands[1] == b) ||
                                (operands[0] == b && operands[1] == a)))
    return nullptr;
  return root;
}

/// True if both reductions are the same operation (XLA compares the root
/// opcode and element type; the attributes are compared as well).
static bool sameReduction(Operation *a, Operation *b) {
  return a && b && a->getName() == b->getName() &&
         a->getResult(0).getType() == b->getResult(0).getType() &&
         a->getAttrDictionary() == b->getAttrDictionary();
}

/// The non-empty replica groups of `ar`, or nothing.
static std::optional<DeviceGroups> explicitGroups(AllReduceOp ar) {
  ReplicaGroupsAttr attr = ar.getReplicaGroupsAttr();
  if (!attr)
    return std::nullopt;
  DeviceGroups groups = attr.getGroups();
  if (groups.empty() || llvm::any_of(groups, [](auto &g) { return g.empty(); }))
    return std::nullopt;
  return groups;
}

namespace {
struct AllReduceFolderPass
    : ChangeReportingPass<AllReduceFolderPass,
                          hlo::impl::HloAllReduceFolderBase> {
  void run() {
    ModuleOp module = getOperation();
    if (hasConstrainedLayout<AllReduceOp, AllReduceStartOp>(module))
      return;
    int64_t nextChannel = nextChannelId(module);
    int64_t numPartitions = 1;
    if (auto p = module->getAttrOfType<IntegerAttr>("hlo.num_partitions"))
      numPartitions = p.getInt();

    SymbolTable symbols(module);
    for (auto comp : module.getOps<ComputationOp>()) {
      for (Operation &op :
           llvm::make_early_inc_range(comp.getBody().getOps())) {
        auto outer = dyn_cast<AllReduceOp>(op);
        if (!outer || outer.getInputs().size() != 1)
          continue;
        auto inner = outer.getInputs()[0].getDefiningOp<AllReduceOp>();
        if (!inner || inner.getInputs().size() != 1 || !inner->hasOneUse() ||
            hasControlPredecessors(outer) || hasControlPredecessors(inner))
          continue;
        bool channel = inner.getChannelId().has_value();
        bool global = inner.getUseGlobalDeviceIds().value_or(false);
        if (channel != outer.getChannelId().has_value() ||
            global != outer.getUseGlobalDeviceIds().value_or(false) ||
            (channel && !global && numPartitions > 1))
          continue;
        if (!sameReduction(simpleReduction(inner, symbols),
                           simpleReduction(outer, symbols)))
          continue;
        std::optional<DeviceGroups> innerGroups = explicitGroups(inner);
        std::optional<DeviceGroups> outerGroups = explicitGroups(outer);
        if (!innerGroups || !outerGroups)
          continue;
        std::optional<DeviceGroups> groups =
            foldReplicaGroups(*innerGroups, *outerGroups);
        if (!groups)
          continue;

        OpBuilder builder(outer);
        SmallVector<NamedAttribute> attrs = {
            builder.getNamedAttr("to_apply", inner.getToApplyAttr()),
            builder.getNamedAttr(
                "replica_groups",
                makeReplicaGroups(builder.getContext(), *groups))};
        if (channel)
          attrs.push_back(builder.getNamedAttr(
              "channel_id", builder.getI64IntegerAttr(nextChannel++)));
        if (auto g = inner.getUseGlobalDeviceIdsAttr())
          attrs.push_back(builder.getNamedAttr("use_global_device_ids", g));
        Operation *folded = createInstruction(
            builder, outer.getLoc(), AllReduceOp::getOperationName(),
            outer.getType(), inner.getInputs(), attrs);
        transferInstructionAttrs(outer, folded);
        outer.getResult().replaceAllUsesWith(folded->getResult(0));
        outer.erase();
        inner.erase();
        ++numFolded;
        changed = true;
      }
    }
  }
};
} // namespace
