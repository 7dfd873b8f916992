//===- TritonFusionUtils.h - `__triton` normalization fusions --*- C++ -*-===//
//
// Private to lib/Transforms: what XLA's GPU compiler may emit with its
// generic Triton emitter (IsTritonSupportedInstruction on Hopper), an
// approximation of its tiling check (SymbolicTileAnalysis with the Triton
// emitter constraints) for normalization fusions, and the kCustom
// `__triton` fusions hlo-softmax-rewriter-triton makes and hlo-priority-fusion
// extends.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_TRITONFUSIONUTILS_H
#define HLO_LIB_TRANSFORMS_TRITONFUSIONUTILS_H

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/SymbolTable.h"

namespace mlir::hlo {

/// XLA's kTritonFusionKind.
inline constexpr llvm::StringLiteral kTritonFusionKind = "__triton";

/// XLA's TritonEmitterConstraints kMaxTensorNumElements: the most elements
/// one tile may hold.
inline constexpr int64_t kMaxTritonTileElements = 1048576;

/// True if Triton handles arrays of element type `type` on Hopper (XLA's
/// IsTritonSupportedDataType): pred, s4-s64, f16, bf16, f32, f64, f8e5m2,
/// f8e4m3fn.
bool isTritonSupportedType(Type type);

/// XLA's IsTritonSupportedInstruction for an instruction outside a nested
/// GEMM fusion (no dots, concatenates or dynamic slices); a fusion is
/// supported when every instruction of its fused computation is, a reduce
/// when its reducer's instructions are.
bool isTritonSupportedInstruction(Operation *op, SymbolTableCollection &tables);

/// True if `op` is a kCustom fusion whose backend_config's
/// fusion_backend_config.kind is `__triton` (XLA's IsGenericTritonFusion).
bool isTritonFusion(Operation *op);

/// Maps a value of a fused computation to the value it stands for outside
/// (a parameter to the fusion's operand, as XLA's HloFusionAdaptor sees
/// through fusions); null: the identity.
using FusedValueResolver = function_ref<Value(Value)>;

/// True if `reduce` reduces one array over its minor-most dimension only,
/// with a constant init (or a supported convert of one; seen through
/// `resolve`): the reductions Triton normalization fusions hold.
bool isTritonRowReduction(ReduceOp reduce, SymbolTableCollection &tables,
                          FusedValueResolver resolve = nullptr);

/// Whether the instructions `ops` (one fused computation, or the ops that
/// would form one) can be tiled by XLA's Triton emitter, approximated: all
/// Triton-supported with static default-layout arrays, every reduce a row
/// reduction whose padded row fits `maxTileElements`, reshapes and
/// bitcasts only adding or removing unit dimensions or keeping the minor
/// one (rows map to rows), no transposes, pads,
/// slices of the minor dimension, or ops with control edges.
bool canTileTritonNormalization(
    ArrayRef<Operation *> ops, SymbolTableCollection &tables,
    int64_t maxTileElements = kMaxTritonTileElements,
    FusedValueResolver resolve = nullptr);

/// The backend_config of a `__triton` fusion whose root has type
/// `rootType`: one row per block (output tile [1,...,1,next_power_of_2(row)];
/// [1,...,1] for a root that is a row reduction's result, each element of
/// which reads one row) and num_warps by the tile size, num_ctas and
/// num_stages 1.
Attribute getTritonFusionConfig(MLIRContext *ctx, Type rootType,
                                bool reducedRoot = false);

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_TRITONFUSIONUTILS_H
