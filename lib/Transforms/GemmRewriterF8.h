//===- GemmRewriterF8.h - the fp8 operands of cuBLASLt GEMMs ----*- C++ -*-===//
//
// Private to lib/Transforms: what hlo-gemm-rewriter needs to make an fp8
// dot a `__cublas$lt$matmul$f8` call (XLA's GemmRewriter, fp8 part): the
// fp8 value and scale behind each dot operand, the element types cuBLASLt
// multiplies, and the operands as cuBLASLt reads them (contracting
// dimension most minor, dimensions padded to multiples of 16).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_GEMMREWRITERF8_H
#define HLO_LIB_TRANSFORMS_GEMMREWRITERF8_H

#include "Hlo/Dialect/Hlo/HloDialect.h"

namespace mlir::hlo {

/// The custom-call target of cuBLASLt's fp8 GEMM.
inline constexpr llvm::StringLiteral kLtF8Target = "__cublas$lt$matmul$f8";

/// True for the 8-bit float types.
bool isF8(Type t);

/// A dot operand as an fp8 value: `fp8` itself, or `convert(fp8)`, or
/// `convert(fp8) * broadcast(scale)` / `convert(fp8) / broadcast(scale)`
/// (`divide`), followed by `ops` (shape ops that commute with the
/// dequantization: bitcast, copy, reshape, transpose, slice, broadcast; in
/// the order applied).
struct Fp8Operand {
  Value fp8;
  Value scale; // null: unscaled
  bool divide = false;
  /// The ops that commute with the dequantization, from the fp8 value on,
  /// each with the index of its operand on the path (select: 1 or 2).
  SmallVector<std::pair<Operation *, unsigned>> ops;
};

/// The fp8 form of dot operand `v`, if it has one. With `spmd` (a module
/// of several partitions) all-gathers, all-to-alls and collective-permutes
/// of one array move onto the fp8 value too, as XLA's with SPMD
/// partitioning.
std::optional<Fp8Operand> matchFp8Operand(Value v, bool spmd);

/// True if cuBLASLt multiplies fp8 `a` x `b` into `out` (XLA's table for
/// CUDA: e4m3fn and e5m2, not both e5m2; e5m2 results only of mixed
/// operands).
bool fp8TypesSupported(Type a, Type b, Type out);

/// Builds fp8 operand `x` of a dot with `numBatch` leading batch dimensions
/// before `builder`'s point: its ops again on the fp8 value, then (with
/// `contractingMinor`) a transpose that makes its contracting dimension
/// (`contracting`, updated) physically most minor, then a pad of its two
/// matrix dimensions to multiples of 16.
Value buildFp8Operand(OpBuilder &builder, Location loc, const Fp8Operand &x,
                      int64_t numBatch, int64_t &contracting,
                      bool contractingMinor);

/// `scale` as the f32 scalar cuBLASLt multiplies by: `1 / scale` where
/// `divide`, converted to f32; `one` (an f32 constant 1, created on first
/// use) where `scale` is null.
Value buildFp8Scale(OpBuilder &builder, Location loc, Value scale, bool divide,
                    Value &one);

/// The scalar `v` broadcasts, if `v` is a broadcast of a rank-0 value.
Value broadcastScalarOperand(Value v);

/// True if `v` is a rank-0 f32 constant 1.
bool isConstantOne(Value v);

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_GEMMREWRITERF8_H
