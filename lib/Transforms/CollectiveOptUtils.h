//===- CollectiveOptUtils.h - what the collective passes share -*- C++ -*-====//
//
// Private to lib/Transforms: pieces of XLA's collective_opt_utils and
// hlo_query. MatchWithDynamicSlice, shared by the reduce-scatter creator and
// the all-gather dynamic-slice simplifier: a collective whose one user, on
// each participant, takes the participant's own block along one dimension,
//   dynamic-slice(collective(x), ..., offset(id), ...)   [or through a
//                                                          reshape].
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_COLLECTIVEOPTUTILS_H
#define HLO_LIB_TRANSFORMS_COLLECTIVEOPTUTILS_H

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace mlir::hlo {

/// A collective sliced at each participant's block (matchOwnBlockSlice).
struct OwnBlockSlice {
  DynamicSliceOp slice;
  /// The collective's one user when it is a reshape the slice reads.
  ReshapeOp reshape;
  /// The sliced dimension, in the collective's result.
  int64_t splitDim;
  /// Participants of each group.
  int64_t groupSize;
};

/// The dynamic-slice that takes each participant's own block of the result
/// of `collective` (an all-reduce or all-gather of one array, static
/// shape, no constrained layout, one user, some dimension larger than 1,
/// groups of equal size and at least two), directly or through one
/// reshape that leaves the sliced dimension alone. The slice cuts one
/// dimension into blocks, one per participant, and its offset there must
/// be provably `block * (position of the device in its group)` on every
/// device: the id itself (replica-id, partition-id, or the flattened id
/// partition-id + replica-id * num_partitions, as the collective's mode
/// reads its groups), a table lookup (dynamic-slice of a constant s32/u32
/// array or an iota at such an index), and multiplications by a constant,
/// clamps that cannot bind, widening converts, copies, reshapes and
/// bitcasts of those; the offsets are evaluated for every participant.
/// Nothing otherwise. `numReplicas` and `numPartitions` are the module's.
std::optional<OwnBlockSlice> matchOwnBlockSlice(Operation *collective,
                                                int64_t numReplicas,
                                                int64_t numPartitions);

/// The value `offset` (a scalar or one-element integer array) holds on each
/// partition 0..numPartitions-1 of a module of one replica, when it is a
/// table lookup at the partition id (a dynamic-slice of a constant s32/u32
/// array or an iota, at partition-id or at another such lookup) or the
/// partition id converted to an integer of at least 32 bits, through
/// copies, reshapes and bitcasts, times at most one constant (XLA's
/// table-lookup offsets of its permuted-slice match, and the form XLA's
/// simplifier gives a table 0, k, 2k, ...); nullopt otherwise.
std::optional<SmallVector<int64_t>> partitionOffsets(Value offset,
                                                     int64_t numPartitions);

/// The dimension of a reshape's operand (shape `in`) that its result
/// dimension `dim` (shape `out`) is: same size, same number of elements
/// before it; -1 if none.
int64_t unmodifiedDim(ArrayRef<int64_t> in, ArrayRef<int64_t> out, int64_t dim);

/// The size all groups of collective `op` share (devices taking part
/// together; `hasGlobalFlag` as `getDeviceGroups` reads them), or nothing
/// when the sizes differ or the groups cannot be read.
std::optional<int64_t> commonGroupSize(Operation *op, int64_t numReplicas,
                                       int64_t numPartitions,
                                       bool hasGlobalFlag);

/// True if `op` carries the boolean attribute `name` set to true
/// (`use_global_device_ids`, `constrain_layout`).
bool isFlagSet(Operation *op, StringRef name);

/// `replica_groups` listing `groups` (list form).
ReplicaGroupsAttr makeReplicaGroups(MLIRContext *ctx,
                                    ArrayRef<SmallVector<int64_t>> groups);

/// True if an instruction of `module` among `OpTs` has a constrained
/// layout (XLA's passes then leave the module alone).
template <typename... OpTs> bool hasConstrainedLayout(ModuleOp module) {
  return module
      .walk([](Operation *op) {
        return isa<OpTs...>(op) && isFlagSet(op, "constrain_layout")
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// One past the largest channel id of `module` (at least 1): the first id
/// a pass may give a new collective (XLA's hlo_query::NextChannelId).
int64_t nextChannelId(ModuleOp module);

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_COLLECTIVEOPTUTILS_H
