//===- HloShardingCalls.h - custom calls that annotate sharding -*- C++ -*-===//
//
// The custom calls of XLA and Shardy that only say how a value is sharded:
// `Sharding`, `SPMDFullToShardShape`, `SPMDShardToFullShape` and
// `xla.sdy.FuncResultSharding` (one operand, passed on unchanged when the
// program is not partitioned), and `xla.sdy.ShardingGroup` (read by
// nothing). hlo-sharding-remover removes them as XLA's ShardingRemover
// does; the interpreter and hlo-to-thunk take those left as identities.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOSHARDINGCALLS_H
#define HLO_DIALECT_HLO_HLOSHARDINGCALLS_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::hlo {

/// The target of XLA's and Shardy's sharding groups: a dangling call.
constexpr llvm::StringLiteral kShardingGroupTarget = "xla.sdy.ShardingGroup";

/// Whether `target` names a custom call that passes its one operand on
/// unchanged in an unpartitioned program.
inline bool isShardingPassThroughTarget(llvm::StringRef target) {
  return llvm::is_contained({llvm::StringRef("Sharding"),
                             llvm::StringRef("SPMDFullToShardShape"),
                             llvm::StringRef("SPMDShardToFullShape"),
                             llvm::StringRef("xla.sdy.FuncResultSharding")},
                            target);
}

} // namespace mlir::hlo

#endif // HLO_DIALECT_HLO_HLOSHARDINGCALLS_H
