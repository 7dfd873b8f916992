//===- HloDeviceGroups.h - the devices a collective joins -------*- C++ -*-===//
//
// Which devices of a module run by `numReplicas` x `numPartitions` devices
// take part together in a collective: XLA's collective group modes read
// from `replica_groups`, `channel_id` and `use_global_device_ids`. Devices
// are named by their id `replica * numPartitions + partition`. The
// interpreter's collectives and hlo-to-thunk share these rules.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLODEVICEGROUPS_H
#define HLO_DIALECT_HLO_HLODEVICEGROUPS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir::hlo {

using DeviceGroups = SmallVector<SmallVector<int64_t>>;

/// The ids 0..N-1 (N the product of `dims`) laid out as `dims`, transposed
/// by `perm` (none when empty) and read row-major: the devices of XLA's
/// iota tile assignments (`<=[4,2]T(1,0)`), replica groups and meshes.
SmallVector<int64_t> expandIotaIds(ArrayRef<int64_t> dims,
                                   ArrayRef<int64_t> perm);

/// True for the seven collectives over arrays that one instruction runs to
/// completion: all-reduce, all-gather, reduce-scatter, all-to-all,
/// ragged-all-to-all, collective-permute and collective-broadcast (not their
/// -start/-done forms, send/recv or collective-reduce). They are what
/// hlo-to-thunk lowers to one collective thunk, alone or as the computation
/// of an async-start.
bool isArrayCollective(Operation *op);

/// The module's `hlo.replica_count` and `hlo.num_partitions`: (replicas,
/// partitions), each 1 when absent or below.
std::pair<int64_t, int64_t> getDeviceCounts(Operation *module);

/// The groups of collective `op` as device ids, in group order. No
/// channel_id: `replica_groups` lists replica ids, one group per listed
/// group and partition. A channel_id on an op without the global flag
/// (`hasGlobalFlag` false: all-to-all, collective-permute,
/// collective-broadcast): partition ids, one group per listed group and
/// replica. A channel_id with use_global_device_ids=false: replica ids, a
/// group holding those replicas on every partition (replica-major).
/// use_global_device_ids=true: device ids. No groups listed means every id
/// of the mode. Fails (with `error`) on an id out of range or a device in
/// no group or in two.
FailureOr<DeviceGroups> getDeviceGroups(Operation *op, int64_t numReplicas,
                                        int64_t numPartitions,
                                        bool hasGlobalFlag, std::string &error);

/// collective-permute's `pairs` (source, target) as device ids: replica ids
/// on every partition (no channel_id on `op`), or partition ids on every
/// replica (with one). Fails (with `error`) on an id out of range.
FailureOr<SmallVector<std::pair<int64_t, int64_t>>>
getDevicePairs(Operation *op, ArrayAttr pairs, int64_t numReplicas,
               int64_t numPartitions, std::string &error);

/// The channel of a send, recv, send-done or recv-done: its channel_id
/// (none where the instruction has none) and whether it talks to the host
/// (is_host_transfer).
struct TransferChannel {
  std::optional<int64_t> id;
  bool host = false;
};
TransferChannel getTransferChannel(Operation *op);

/// The devices a `send` or `recv` between devices pairs up: XLA's
/// `_xla_send_recv_source_target_pairs` frontend attribute
/// (`"{{0,1},{1,2}}"`: partition ids on every replica when the op has a
/// channel_id, else replica ids on every partition, as collective-permute's
/// pairs) as (source, target) device ids. std::nullopt for a host transfer
/// or an op without the attribute (its channel then stays on its device).
/// Fails (with `error`) on text that is not a list of pairs, an id out of
/// range, or a device that is the source, or the target, of two pairs.
FailureOr<std::optional<SmallVector<std::pair<int64_t, int64_t>>>>
getSendRecvPairs(Operation *op, int64_t numReplicas, int64_t numPartitions,
                 std::string &error);

} // namespace mlir::hlo

#endif // HLO_DIALECT_HLO_HLODEVICEGROUPS_H
