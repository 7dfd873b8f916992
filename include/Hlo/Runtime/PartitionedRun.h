//===- PartitionedRun.h - whole arrays in, tiles per partition --*- C++ -*-===//
//
// A partitioned program (hlo-spmd-partitioner's result) runs on each
// partition's tiles: its entry parameters have the tile shapes of their
// shardings (`hlo.sharding`), and the ROOT's sharding lays its result out
// over the partitions. These give each device its tiles of whole
// arguments and put the devices' results together again: for
// --hlo-check-semantics and for `hlo-run --spmd` on every runtime.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_RUNTIME_PARTITIONEDRUN_H
#define HLO_RUNTIME_PARTITIONEDRUN_H

#include "Hlo/Runtime/Literal.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <vector>

namespace mlir::hlo::runtime {

/// The tile of extents `shape` of array `whole` at `offsets` (elements
/// past the array's end 0: an uneven tile).
Literal tileOf(const Literal &whole, ArrayRef<int64_t> offsets,
               ArrayRef<int64_t> shape);

/// Writes the elements of `tile` that lie inside array `whole` at
/// `offsets`.
void putTile(Literal &whole, const Literal &tile, ArrayRef<int64_t> offsets);

/// Each device's arguments (replica-major) of `module`, a partitioned
/// program, from the arguments `whole` of the program it was partitioned
/// from: every entry parameter whose type is not its argument's must have
/// the tile shape of its sharding and gets its partition's tile (elements
/// past an uneven array's end 0); the others the whole argument. Nothing
/// when the signature is not of that form or the module has one partition.
std::optional<std::vector<std::vector<Literal>>>
partitionArguments(ModuleOp module, ArrayRef<Literal> whole);

/// The whole result of each replica of partitioned program `module` from
/// its devices' results `local` (replica-major), laid out by the sharding
/// of the entry's ROOT (`sharding` of the instruction, `hlo.sharding` of a
/// parameter); `like` (one per device) gives the whole shapes. Fails when
/// the ROOT's sharding does not give the local shapes.
FailureOr<std::vector<Literal>> assembleResults(ModuleOp module,
                                                ArrayRef<Literal> local,
                                                ArrayRef<Literal> like);

} // namespace mlir::hlo::runtime

#endif // HLO_RUNTIME_PARTITIONEDRUN_H
