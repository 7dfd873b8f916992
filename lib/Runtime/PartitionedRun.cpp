//===- PartitionedRun.cpp - whole arrays in, tiles per partition ----------===//
//
// PartitionedRun.h.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Runtime/PartitionedRun.h"

#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTileSharding.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;

/// Calls `fn(i, w)` for each element i of a tile of `tileShape` at
/// `offsets` in an array of `shape` that is inside the array (at its
/// element w).
static void forTileElements(ArrayRef<int64_t> shape, const Literal &tile,
                            ArrayRef<int64_t> offsets,
                            function_ref<void(int64_t, ArrayRef<int64_t>)> fn) {
  SmallVector<int64_t> index;
  for (int64_t i = 0, e = tile.getNumElements(); i < e; ++i) {
    index = tile.delinearize(i);
    bool inside = true;
    for (auto [x, o, size] : llvm::zip(index, offsets, shape)) {
      x += o;
      inside &= x < size;
    }
    if (inside)
      fn(i, index);
  }
}

/// The tiles of `sharding` an array of `shape` splits into on
/// `numPartitions` partitions (each partition's offsets), or nothing.
static std::optional<SmallVector<SmallVector<int64_t>>>
tileOffsets(ShardingAttr sharding, ArrayRef<int64_t> shape,
            int64_t numPartitions, SmallVectorImpl<int64_t> &shardShape) {
  std::optional<TileSharding> tiles =
      TileSharding::get(sharding, shape.size(), numPartitions);
  if (!tiles)
    return std::nullopt;
  shardShape = tiles->shardShape(shape);
  SmallVector<SmallVector<int64_t>> offsets;
  for (int64_t p = 0; p < numPartitions; ++p) {
    offsets.emplace_back();
    for (auto [c, size] : llvm::zip(tiles->getCoords(p), shardShape))
      offsets.back().push_back(c * size);
  }
  return offsets;
}

Literal runtime::tileOf(const Literal &whole, ArrayRef<int64_t> offsets,
                        ArrayRef<int64_t> shape) {
  Literal tile = Literal::array(whole.getElementType(), shape);
  forTileElements(whole.getShape(), tile, offsets,
                  [&](int64_t i, ArrayRef<int64_t> w) {
                    tile.copyElement(i, whole, whole.linearize(w));
                  });
  return tile;
}

void runtime::putTile(Literal &whole, const Literal &tile,
                      ArrayRef<int64_t> offsets) {
  forTileElements(whole.getShape(), tile, offsets,
                  [&](int64_t i, ArrayRef<int64_t> w) {
                    whole.copyElement(whole.linearize(w), tile, i);
                  });
}

static ComputationOp entryOf(ModuleOp module) {
  for (auto computation : module.getOps<ComputationOp>())
    if (computation.getEntry())
      return computation;
  return {};
}

std::optional<std::vector<std::vector<Literal>>>
runtime::partitionArguments(ModuleOp module, ArrayRef<Literal> whole) {
  auto [replicas, partitions] = getDeviceCounts(module);
  ComputationOp entry = entryOf(module);
  if (!entry || partitions < 2 || entry.getNumArguments() != whole.size())
    return std::nullopt;
  std::vector<std::vector<Literal>> devices(replicas * partitions);
  for (auto [i, arg] : llvm::enumerate(whole)) {
    Type type = entry.getArgumentTypes()[i];
    if (arg.hasType(type)) {
      for (auto &args : devices)
        args.push_back(arg);
      continue;
    }
    auto tensor = dyn_cast<RankedTensorType>(type);
    auto sharding = entry.getArgAttrOfType<ShardingAttr>(i, "hlo.sharding");
    SmallVector<int64_t> shard;
    std::optional<SmallVector<SmallVector<int64_t>>> offsets;
    if (tensor && arg.isArray())
      offsets = tileOffsets(sharding, arg.getShape(), partitions, shard);
    if (!offsets || ArrayRef<int64_t>(shard) != tensor.getShape() ||
        tensor.getElementType() != arg.getElementType())
      return std::nullopt;
    for (auto [d, args] : llvm::enumerate(devices))
      args.push_back(tileOf(arg, (*offsets)[d % partitions], shard));
  }
  return devices;
}

FailureOr<std::vector<Literal>>
runtime::assembleResults(ModuleOp module, ArrayRef<Literal> local,
                         ArrayRef<Literal> like) {
  auto [replicas, partitions] = getDeviceCounts(module);
  ComputationOp entry = entryOf(module);
  Value root = entry.getBody().back().getTerminator()->getOperand(0);
  ShardingAttr sharding;
  if (auto arg = dyn_cast<BlockArgument>(root))
    sharding = entry.getArgAttrOfType<ShardingAttr>(arg.getArgNumber(),
                                                    "hlo.sharding");
  else
    sharding = root.getDefiningOp()->getAttrOfType<ShardingAttr>("sharding");
  std::vector<Literal> results;
  for (int64_t r = 0; r < replicas; ++r) {
    Literal whole = like[r * partitions];
    bool tuple = whole.isTuple();
    MutableArrayRef<Literal> leaves =
        tuple ? MutableArrayRef<Literal>(whole.getElements())
              : MutableArrayRef<Literal>(whole);
    for (auto [i, leaf] : llvm::enumerate(leaves)) {
      if (!leaf.isArray())
        continue;
      ShardingAttr leafSharding = sharding && sharding.isTuple()
                                      ? sharding.getLeafSharding(i)
                                      : sharding;
      SmallVector<int64_t> shard;
      auto offsets =
          tileOffsets(leafSharding, leaf.getShape(), partitions, shard);
      if (!offsets)
        return failure();
      for (int64_t p = 0; p < partitions; ++p) {
        const Literal &device = local[r * partitions + p];
        if (device.isTuple() != tuple)
          return failure();
        Literal part = tuple ? device.getElements()[i] : device;
        if (!part.isArray() || part.getShape() != ArrayRef<int64_t>(shard))
          return failure();
        putTile(leaf, part, (*offsets)[p]);
      }
    }
    results.push_back(std::move(whole));
  }
  return results;
}
