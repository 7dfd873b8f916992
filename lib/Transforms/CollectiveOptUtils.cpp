//===- CollectiveOptUtils.cpp - a collective sliced at each device's block ===//
//
// XLA's MatchWithDynamicSlice and IsPerIdOffset (collective_opt_utils):
// the groups of a collective read in its mode, and offsets checked by
// evaluating them for every participant.
//
//===----------------------------------------------------------------------===//

#include "CollectiveOptUtils.h"
#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "TransformUtils.h"

using namespace mlir;
using namespace mlir::hlo;

/// The value of a constant with one integer element.
static std::optional<int64_t> scalarConstant(Value v) {
  auto constant = v.getDefiningOp<ConstantOp>();
  auto literal =
      constant ? dyn_cast<DenseIntElementsAttr>(constant.getValue()) : nullptr;
  if (!literal || literal.getNumElements() != 1 ||
      literal.getElementType().isInteger(1))
    return std::nullopt;
  APInt value = *literal.value_begin<APInt>();
  return literal.getElementType().isUnsignedInteger() ? value.getZExtValue()
                                                      : value.getSExtValue();
}

/// `v` through copies, reshapes and bitcasts.
static Value skipMoves(Value v) {
  while (Operation *op = v.getDefiningOp()) {
    if (!isa<CopyOp, ReshapeOp, BitcastOp>(op))
      break;
    v = op->getOperand(0);
  }
  return v;
}

/// The dynamic-slice of a rank-1 s32/u32 constant or iota (a table) that
/// `v` is, through copies, reshapes and bitcasts, or null.
static DynamicSliceOp tableLookup(Value v) {
  auto ds = skipMoves(v).getDefiningOp<DynamicSliceOp>();
  if (!ds || ds.getStartIndices().size() != 1 ||
      !isa_and_nonnull<ConstantOp, IotaOp>(ds.getOperand().getDefiningOp()))
    return nullptr;
  auto type = dyn_cast<RankedTensorType>(ds.getOperand().getType());
  if (!type || type.getRank() != 1 || !type.hasStaticShape() ||
      !type.getElementType().isInteger(32) || ds.getDynamicSliceSizes()[0] != 1)
    return nullptr;
  return ds;
}

/// Entry `index` of the table of `lookup`, or -1 when out of range.
static int64_t tableEntry(DynamicSliceOp lookup, int64_t index) {
  auto type = cast<RankedTensorType>(lookup.getOperand().getType());
  if (index < 0 || index >= type.getDimSize(0))
    return -1;
  auto constant = lookup.getOperand().getDefiningOp<ConstantOp>();
  if (!constant)
    return index; // iota
  auto literal = dyn_cast<DenseIntElementsAttr>(constant.getValue());
  if (!literal)
    return -1;
  APInt value = literal.getValues<APInt>()[index];
  return type.getElementType().isUnsignedInteger() ? value.getZExtValue()
                                                   : value.getSExtValue();
}

/// The table index `index` holds: the id `idOf` reads from it (-1 when it
/// is none), or an entry of a table looked up at such an index; -1
/// otherwise.
static int64_t tableIndex(Value index,
                          llvm::function_ref<int64_t(Value)> idOf) {
  int64_t id = idOf(index);
  if (id >= 0)
    return id;
  DynamicSliceOp lookup = tableLookup(index);
  if (!lookup)
    return -1;
  int64_t inner = tableIndex(lookup.getStartIndices()[0], idOf);
  return inner < 0 ? -1 : tableEntry(lookup, inner);
}

namespace {
enum class Mode { CrossReplica, CrossPartition, GlobalIds };

/// What an all-reduce's groups mean, and how an offset is checked against
/// them (XLA's MatchWithDynamicSlice / IsPerIdOffset).
struct Matcher {
  Mode mode;
  int64_t numReplicas, numPartitions;
  SmallVector<SmallVector<int64_t>> groups; // explicit groups, or empty
  bool iotaGroup;                           // members are 0..groupSize-1
  int64_t groupSize;
  bool orthogonalReplicas = true;

  /// The id `v` holds on the device `id` of a group, or -1 if `v` is not
  /// an id this mode can read.
  int64_t mapId(Value v, int64_t id) const {
    Operation *op = v.getDefiningOp();
    if (!op)
      return -1;
    if (mode == Mode::CrossReplica)
      return isa<ReplicaIdOp>(op) ? id : -1;
    if (mode == Mode::CrossPartition)
      return isa<PartitionIdOp>(op) ? id : -1;
    if (isa<ReplicaIdOp>(op))
      return numPartitions == 1 ? id : -1;
    if (isa<PartitionIdOp>(op)) {
      if (numReplicas == 1)
        return id;
      return orthogonalReplicas ? id % numPartitions : -1;
    }
    // partition-id + replica-id * num_partitions: the flattened id.
    auto isReplicaTimesPartitions = [&](Value x) {
      auto mul = x.getDefiningOp<MulOp>();
      if (!mul)
        return false;
      Value a = mul.getLhs(), b = mul.getRhs();
      return (a.getDefiningOp<ReplicaIdOp>() &&
              scalarConstant(b) == numPartitions) ||
             (b.getDefiningOp<ReplicaIdOp>() &&
              scalarConstant(a) == numPartitions);
    };
    if (auto add = dyn_cast<AddOp>(op)) {
      Value a = add.getLhs(), b = add.getRhs();
      if ((a.getDefiningOp<PartitionIdOp>() && isReplicaTimesPartitions(b)) ||
          (b.getDefiningOp<PartitionIdOp>() && isReplicaTimesPartitions(a)))
        return id;
    }
    return -1;
  }

  /// The table index `index` holds on device `id`, or -1.
  int64_t indexForId(Value index, int64_t id) const {
    return tableIndex(index, [&](Value v) { return mapId(v, id); });
  }

  int64_t memberId(int64_t group, int64_t j) const {
    return iotaGroup ? j : groups[group][j];
  }

  /// True if `offset` is `shardSize * j` on the j-th member of every group.
  bool isPerIdOffset(Value offset, int64_t shardSize) const {
    Operation *op = offset.getDefiningOp();
    auto type = dyn_cast<RankedTensorType>(offset.getType());
    if (!op || !type || !type.hasStaticShape() || type.getNumElements() != 1)
      return false;
    if (auto mul = dyn_cast<MulOp>(op)) {
      std::optional<int64_t> factor = scalarConstant(mul.getRhs());
      Value other = mul.getLhs();
      if (!factor) {
        factor = scalarConstant(mul.getLhs());
        other = mul.getRhs();
      }
      if (!factor || *factor <= 0 || shardSize % *factor != 0)
        return false;
      return isPerIdOffset(other, shardSize / *factor);
    }
    if (shardSize == 1 && iotaGroup) {
      bool identity = true;
      for (int64_t id = 0; id < groupSize && identity; ++id)
        identity = mapId(offset, id) == id;
      if (identity)
        return true;
    }
    if (isa<CopyOp, ReshapeOp, BitcastOp>(op))
      return isPerIdOffset(op->getOperand(0), shardSize);
    if (auto convert = dyn_cast<ConvertOp>(op)) {
      Type from = getElementTypeOrSelf(convert.getOperand().getType());
      Type to = type.getElementType();
      if (from.isInteger() && !from.isInteger(1) && to.isInteger() &&
          from.getIntOrFloatBitWidth() <= to.getIntOrFloatBitWidth())
        return isPerIdOffset(convert.getOperand(), shardSize);
      return false;
    }
    if (auto clamp = dyn_cast<ClampOp>(op)) {
      std::optional<int64_t> lo = scalarConstant(clamp.getMin());
      std::optional<int64_t> hi = scalarConstant(clamp.getMax());
      if (lo != 0 || !hi || *hi < (groupSize - 1) * shardSize)
        return false;
      return isPerIdOffset(clamp.getOperand(), shardSize);
    }
    int64_t numGroups = iotaGroup ? 1 : groups.size();
    if (DynamicSliceOp lookup = tableLookup(offset)) {
      for (int64_t g = 0; g < numGroups; ++g)
        for (int64_t j = 0; j < groupSize; ++j) {
          int64_t index =
              indexForId(lookup.getStartIndices()[0], memberId(g, j));
          if (index < 0 || tableEntry(lookup, index) != shardSize * j)
            return false;
        }
      return true;
    }
    for (int64_t g = 0; g < numGroups; ++g)
      for (int64_t j = 0; j < groupSize; ++j)
        if (mapId(offset, memberId(g, j)) != shardSize * j)
          return false;
    return true;
  }
};
} // namespace

/// The matcher for the groups of `collective`, or nothing if they are not
/// ones XLA matches (constrained layout, non-uniform groups, groups of
/// fewer than two).
static std::optional<Matcher>
makeMatcher(Operation *collective, int64_t numReplicas, int64_t numPartitions) {
  auto flag = [&](StringRef name) { return isFlagSet(collective, name); };
  if (flag("constrain_layout"))
    return std::nullopt;
  Matcher m;
  m.numReplicas = numReplicas;
  m.numPartitions = numPartitions;
  if (auto attr =
          collective->getAttrOfType<ReplicaGroupsAttr>("replica_groups"))
    m.groups = attr.getGroups();
  for (const auto &group : m.groups)
    if (group.size() != m.groups.front().size())
      return std::nullopt;
  bool crossModule = collective->hasAttr("channel_id");
  bool global = flag("use_global_device_ids");
  if (crossModule && numPartitions <= 1)
    return std::nullopt;
  if (!crossModule) {
    m.mode = Mode::CrossReplica;
    m.iotaGroup = m.groups.empty();
    m.groupSize = m.groups.empty() ? numReplicas : m.groups[0].size();
  } else if (global) {
    if (m.groups.empty())
      return std::nullopt;
    m.mode = Mode::GlobalIds;
    m.iotaGroup = false;
    m.groupSize = m.groups[0].size();
    // Orthogonal: each group holds one replica's partitions, every
    // partition at the same position in every group.
    std::vector<int64_t> position(numPartitions, -1);
    for (const auto &group : m.groups)
      for (auto [i, id] : llvm::enumerate(group)) {
        if (id < 0 || id >= numReplicas * numPartitions)
          return std::nullopt;
        int64_t p = id % numPartitions;
        if (position[p] == -1)
          position[p] = i;
        else if (position[p] != int64_t(i) ||
                 id / numPartitions != group[0] / numPartitions)
          m.orthogonalReplicas = false;
      }
  } else {
    // Groups of one replica each: the reduction runs across partitions.
    if (int64_t(m.groups.size()) != numReplicas || m.groups[0].size() != 1)
      return std::nullopt;
    m.mode = Mode::CrossPartition;
    m.iotaGroup = true;
    m.groupSize = numPartitions;
  }
  if (m.groupSize < 2)
    return std::nullopt;
  return m;
}

int64_t mlir::hlo::unmodifiedDim(ArrayRef<int64_t> in, ArrayRef<int64_t> out,
                                 int64_t dim) {
  int64_t before = 1;
  for (int64_t d = 0; d < dim; ++d)
    before *= out[d];
  int64_t prefix = 1;
  for (int64_t d = 0; d < int64_t(in.size()); ++d) {
    if (prefix == before && in[d] == out[dim])
      return d;
    prefix *= in[d];
  }
  return -1;
}

std::optional<OwnBlockSlice>
mlir::hlo::matchOwnBlockSlice(Operation *collective, int64_t numReplicas,
                              int64_t numPartitions) {
  if (getDataOperands(collective).size() != 1 ||
      collective->getNumResults() != 1)
    return std::nullopt;
  Value result = collective->getResult(0);
  auto type = dyn_cast<RankedTensorType>(result.getType());
  if (!type || !type.hasStaticShape() || hasControlPredecessors(collective) ||
      !result.hasOneUse() || llvm::count(type.getShape(), 1) == type.getRank())
    return std::nullopt;
  std::optional<Matcher> m =
      makeMatcher(collective, numReplicas, numPartitions);
  if (!m)
    return std::nullopt;
  // collective -> [reshape ->] dynamic-slice, each the only user.
  OpOperand &use = *result.use_begin();
  Operation *user = use.getOwner();
  auto reshape = dyn_cast<ReshapeOp>(user);
  if (reshape) {
    if (use.getOperandNumber() != 0 || !reshape->hasOneUse() ||
        hasControlPredecessors(reshape))
      return std::nullopt;
    user = reshape->use_begin()->getOwner();
    if (reshape->use_begin()->getOperandNumber() != 0)
      return std::nullopt;
  } else if (use.getOperandNumber() != 0) {
    return std::nullopt;
  }
  auto ds = dyn_cast<DynamicSliceOp>(user);
  if (!ds || hasControlPredecessors(ds))
    return std::nullopt;
  auto inType = dyn_cast<RankedTensorType>(ds.getOperand().getType());
  auto outType = dyn_cast<RankedTensorType>(ds.getType());
  if (!inType || !outType || !inType.hasStaticShape() ||
      !outType.hasStaticShape() ||
      int64_t(ds.getStartIndices().size()) != inType.getRank())
    return std::nullopt;

  // The one sliced dimension.
  int64_t splitDim = -1;
  for (int64_t d = 0; d < inType.getRank(); ++d)
    if (inType.getDimSize(d) != outType.getDimSize(d)) {
      if (splitDim != -1)
        return std::nullopt;
      splitDim = d;
    }
  if (splitDim == -1)
    return std::nullopt;
  int64_t shard = outType.getDimSize(splitDim);
  if (shard == 0 || inType.getDimSize(splitDim) / shard != m->groupSize ||
      !m->isPerIdOffset(ds.getStartIndices()[splitDim], shard))
    return std::nullopt;
  // The split dimension in the collective's shape.
  if (reshape) {
    splitDim = unmodifiedDim(type.getShape(), inType.getShape(), splitDim);
    if (splitDim < 0)
      return std::nullopt;
  }
  return OwnBlockSlice{ds, reshape, splitDim, m->groupSize};
}

std::optional<SmallVector<int64_t>>
mlir::hlo::partitionOffsets(Value offset, int64_t numPartitions) {
  offset = skipMoves(offset);
  int64_t factor = 1;
  if (auto mul = offset.getDefiningOp<MulOp>()) {
    Value other = mul.getLhs();
    std::optional<int64_t> c = scalarConstant(mul.getRhs());
    if (!c) {
      other = mul.getRhs();
      c = scalarConstant(mul.getLhs());
    }
    if (!c)
      return std::nullopt;
    factor = *c;
    offset = skipMoves(other);
  }
  SmallVector<int64_t> values;
  // The partition id itself, converted to an integer of 32 bits or more
  // (XLA's simplifier makes a lookup of {0, k, 2k, ...} `convert(id) * k`).
  if (auto convert = offset.getDefiningOp<ConvertOp>()) {
    auto to = dyn_cast<IntegerType>(getElementTypeOrSelf(convert.getType()));
    if (to && to.getWidth() >= 32 &&
        skipMoves(convert.getOperand()).getDefiningOp<PartitionIdOp>()) {
      for (int64_t p = 0; p < numPartitions; ++p)
        values.push_back(p * factor);
      return values;
    }
  }
  DynamicSliceOp lookup = tableLookup(offset);
  if (!lookup)
    return std::nullopt;
  for (int64_t p = 0; p < numPartitions; ++p) {
    int64_t index = tableIndex(lookup.getStartIndices()[0], [&](Value v) {
      return skipMoves(v).getDefiningOp<PartitionIdOp>() ? p : -1;
    });
    int64_t entry = index < 0 ? -1 : tableEntry(lookup, index);
    if (entry < 0)
      return std::nullopt;
    values.push_back(entry * factor);
  }
  return values;
}

bool mlir::hlo::isFlagSet(Operation *op, StringRef name) {
  auto attr = op->getAttrOfType<BoolAttr>(name);
  return attr && attr.getValue();
}

int64_t mlir::hlo::nextChannelId(ModuleOp module) {
  int64_t next = 1;
  module.walk([&](Operation *op) {
    if (auto id = op->getAttrOfType<IntegerAttr>("channel_id"))
      next = std::max(next, id.getInt() + 1);
  });
  return next;
}

ReplicaGroupsAttr
mlir::hlo::makeReplicaGroups(MLIRContext *ctx,
                             ArrayRef<SmallVector<int64_t>> groups) {
  SmallVector<int64_t> sizes, ids;
  for (const auto &group : groups) {
    sizes.push_back(group.size());
    llvm::append_range(ids, group);
  }
  return ReplicaGroupsAttr::get(ctx, /*isIota=*/false, sizes, ids, {}, {}, {});
}

std::optional<int64_t> mlir::hlo::commonGroupSize(Operation *op,
                                                  int64_t numReplicas,
                                                  int64_t numPartitions,
                                                  bool hasGlobalFlag) {
  std::string error;
  FailureOr<DeviceGroups> groups =
      getDeviceGroups(op, numReplicas, numPartitions, hasGlobalFlag, error);
  if (failed(groups) || groups->empty())
    return std::nullopt;
  int64_t size = groups->front().size();
  for (const auto &group : *groups)
    if (int64_t(group.size()) != size)
      return std::nullopt;
  return size;
}
