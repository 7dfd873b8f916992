//===- HloShardy.h - Shardy's shardings in JAX's HLO ------------*- C++ -*-===//
//
// JAX lowers with Shardy and writes its shardings into the HLO it hands XLA
// as frontend attributes in the sdy dialect's syntax (XLA's Shardy
// round-trip form): the module's meshes (`xla.sdy.meshes`), each value's
// sharding (`xla.sdy.sharding`: `#sdy.sharding<@mesh, [{"x"}, {}]>` or
// `#sdy.sharding_per_value<[...]>`), and around each shard_map the
// shardings of its operands and results and the axes it makes manual
// (`xla.sdy.in_shardings`, `xla.sdy.out_shardings`, `xla.sdy.manual_axes`).
// This reads them and converts them to HLO shardings as XLA's Shardy
// export does. Used by hlo-shardy-xla and by the interpreter, which runs
// shard_maps before they are partitioned.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOSHARDY_H
#define HLO_DIALECT_HLO_HLOSHARDY_H

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace mlir::hlo {

/// The names JAX's Shardy round-trip form uses: the module's meshes, a
/// value's sharding, a shard_map's calls and their attributes.
constexpr llvm::StringLiteral kSdyMeshes = "xla.sdy.meshes";
constexpr llvm::StringLiteral kSdySharding = "xla.sdy.sharding";
constexpr llvm::StringLiteral kSdyInShardings = "xla.sdy.in_shardings";
constexpr llvm::StringLiteral kSdyOutShardings = "xla.sdy.out_shardings";
constexpr llvm::StringLiteral kSdyManualAxes = "xla.sdy.manual_axes";
/// A sharding group member's id (`0 : i64`).
constexpr llvm::StringLiteral kSdyShardingGroupId = "xla.sdy.sharding_group_id";
constexpr llvm::StringLiteral kSdyGlobalToLocal = "xla.sdy.GlobalToLocalShape";
constexpr llvm::StringLiteral kSdyLocalToGlobal = "xla.sdy.LocalToGlobalShape";

/// A mesh: named axes (major to minor) and, when not the iota order, the
/// device of each mesh position. No axes and one device: a maximal mesh.
struct SdyMesh {
  SmallVector<std::string> axisNames;
  SmallVector<int64_t> axisSizes;
  SmallVector<int64_t> deviceIds;
  int64_t getNumDevices() const;
  /// The size of axis `name`, or 0 when the mesh has no such axis.
  int64_t getAxisSize(StringRef name) const;
};

/// An axis or a sub-axis (`"x":(preSize)size`; size 0: the whole axis).
struct SdyAxisRef {
  std::string name;
  int64_t preSize = 1;
  int64_t size = 0;
};

/// A value's sharding: the axes sharding each dimension (major to minor),
/// whether propagation may shard it further (open: `{?}`), the axes it is
/// explicitly replicated and unreduced over. Priorities do not change the
/// sharding and are not kept.
struct SdyTensorSharding {
  /// The mesh's name (`@mesh`), or empty for an inline mesh.
  std::string meshName;
  std::optional<SdyMesh> inlineMesh;
  SmallVector<SmallVector<SdyAxisRef>> dims;
  SmallVector<bool> open;
  SmallVector<SdyAxisRef> replicated, unreduced;
  /// Whether it leaves the value free: an array's dimensions all open,
  /// no axis named (a sharding constraint that constrains nothing).
  bool isFree() const;
};

/// `{name = #sdy.mesh<...>, ...}` (the module's `xla.sdy.meshes`).
FailureOr<llvm::StringMap<SdyMesh>> parseSdyMeshes(StringRef text,
                                                   std::string &error);
/// `#sdy.sharding<...>` (one value) or `#sdy.sharding_per_value<[...]>`.
FailureOr<std::vector<SdyTensorSharding>> parseSdyShardings(StringRef text,
                                                            std::string &error);
/// `#sdy<manual_axes{"x", "y"}>`.
FailureOr<SmallVector<std::string>> parseSdyManualAxes(StringRef text,
                                                       std::string &error);

/// `sharding` of an array of rank `rank` on `mesh` as an HLO sharding, the
/// axes `manual` manual (XLA's Shardy export): the tile assignment has the
/// dimensions' axes, then the manual axes (a manual subgroup), then the
/// rest (a replicated subgroup); `{manual}` when every axis is manual and
/// no dimension sharded, `{replicated}` when no axis shards anything,
/// `{maximal device=N}` on a maximal mesh.
FailureOr<ShardingAttr> toHloSharding(MLIRContext *ctx,
                                      const SdyTensorSharding &sharding,
                                      int64_t rank, const SdyMesh &mesh,
                                      ArrayRef<std::string> manual,
                                      std::string &error);

/// The module's meshes, read once; shardings of ops converted by them.
class SdyShardings {
public:
  /// The meshes of `module` (none when it has no `xla.sdy.meshes`).
  static FailureOr<SdyShardings> get(Operation *module, std::string &error);
  const llvm::StringMap<SdyMesh> &getMeshes() const { return meshes; }

  /// The HLO shardings of the frontend attribute `key` of `frontendAttrs`
  /// (Shardy's syntax), one per type of `types` (a tuple type takes one
  /// Shardy sharding per element), with the axes `manual` manual; empty
  /// when there is no such attribute.
  FailureOr<SmallVector<ShardingAttr>> convert(MLIRContext *ctx,
                                               DictionaryAttr frontendAttrs,
                                               StringRef key, TypeRange types,
                                               ArrayRef<std::string> manual,
                                               std::string &error) const;

  /// The manual axes `xla.sdy.manual_axes` of `frontendAttrs` names.
  static FailureOr<SmallVector<std::string>>
  manualAxes(DictionaryAttr frontendAttrs, std::string &error);

  /// The mesh `name`, or null.
  const SdyMesh *lookup(StringRef name) const;

private:
  llvm::StringMap<SdyMesh> meshes;
};

} // namespace mlir::hlo

#endif // HLO_DIALECT_HLO_HLOSHARDY_H
