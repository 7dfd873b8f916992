//===- HloShardingCalls.h - custom calls that annotate sharding -*- C++ -*-===//
//
// The custom calls of XLA and Shardy that only say how a value is sharded:
// `Sharding`, `SPMDFullToShardShape`, `SPMDShardToFullShape` and
// `xla.sdy.FuncResultSharding` (one operand, passed on unchanged when the
// program is not partitioned), and `xla.sdy.ShardingGroup` (read by
// nothing). hlo-sharding-remover removes them as XLA's ShardingRemover
// does; the interpreter and hlo-to-thunk take those left as identities.
// A `Sharding` call may leave some dimensions to propagation
// (`unspecified_dims`: read here once, checked by the op's verifier).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOSHARDINGCALLS_H
#define HLO_DIALECT_HLO_HLOSHARDINGCALLS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

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

/// The dimensions a `Sharding` call (`op`, of one array) leaves to
/// sharding propagation: GSPMD's `backend_config="unspecified_dims=[1,3]"`
/// (JAX's `P.UNCONSTRAINED`; Shardy's open dimensions, which
/// hlo-shardy-xla writes so). Propagation may tile them further; the
/// others keep the call's tiles. Empty where the call names none (no such
/// backend_config); failure with `why` where the list is malformed, names
/// a dimension twice or one the array does not have.
FailureOr<SmallVector<int64_t>> readUnspecifiedDims(Operation *op,
                                                    std::string &why);

/// The backend_config text of `dims` (XLA's spelling).
std::string printUnspecifiedDims(ArrayRef<int64_t> dims);

} // namespace mlir::hlo

#endif // HLO_DIALECT_HLO_HLOSHARDINGCALLS_H
