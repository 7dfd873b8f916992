//===- ScalarLowering.h - HLO elementwise ops to arith/math -----*- C++ -*-===//
//
// The scalar lowering every fusion emitter uses: one elementwise hlo op (or a
// whole scalar computation: a reducer, a comparator, a map body) becomes
// arith / math / complex ops on scalars, with the semantics of the reference
// interpreter (lib/Runtime/Interpreter, the oracle).
//
// Scalars are carried as builtin types: pred as i1, sN and uN as signless iN
// (whether a value is unsigned is read from the hlo op's tensor types), the
// float types as themselves and c64/c128 as complex<f32>/complex<f64>.
// Floats narrower than f32 (f16, bf16, the f8 variants) are computed in f32
// and rounded back to their type, as XLA's GPU backend does; the only ops
// left on them are arith.extf / arith.truncf to and from f32 or f64,
// arith.bitcast and arith.select (populateNarrowFloatExpansionPatterns turns
// the conversions into integer ops for targets without them).
//
// The rules are listed in docs/kernels.md.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_CONVERSION_SCALARLOWERING_H
#define HLO_CONVERSION_SCALARLOWERING_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Region.h"
#include "mlir/Support/LLVM.h"

#include <memory>

namespace mlir {
class Pass;
} // namespace mlir

namespace mlir::hlo {

/// The scalar type an HLO element type is carried as (uiN/siN -> iN, every
/// other type unchanged).
Type getScalarType(Type hloElementType);

/// Emits the scalar form of the elementwise hlo op `hloOp` on `operands`
/// (its data operands as scalars of getScalarType of their element types;
/// rank-0 or not, only the element types of the op matter). Returns the
/// scalar results, or emits an error on `hloOp` and fails when the op or its
/// element types are not handled; nothing is emitted then.
FailureOr<SmallVector<Value>>
emitScalarOp(OpBuilder &b, Location loc, Operation *hloOp, ValueRange operands);

/// Inlines the scalar computation `computation` (the body of an
/// hlo.computation whose values are all rank-0 arrays, or a tuple of them as
/// the root) op by op with `args` for its parameters. Returns the root's
/// scalars (one per tuple element for a tuple root). Fails with an error on
/// the first op it cannot take.
FailureOr<SmallVector<Value>> emitScalarComputation(OpBuilder &b, Location loc,
                                                    Region &computation,
                                                    ValueRange args);

/// Patterns that rewrite arith.extf / arith.truncf from and to floats
/// narrower than 32 bits that LLVM cannot convert on every target (f16,
/// bf16, every f8, f6 and f4 variant; sources and results of f32 or f64)
/// into integer operations with the reference interpreter's rules: round to
/// nearest even, overflow to inf (or NaN for types without inf, the largest
/// value for types without either), NaN to NaN (-0 for types without NaN);
/// f8E8M0FNU by its own rule (NarrowFloatExpansion.cpp). With
/// `onlyBelow16Bits`, only the types narrower than 16 bits (LLVM converts
/// f16 and bf16 on NVPTX).
void populateNarrowFloatExpansionPatterns(RewritePatternSet &patterns,
                                          bool onlyBelow16Bits = false);

/// A pass applying populateNarrowFloatExpansionPatterns (without folding:
/// it would merge an extf into the truncf built from it).
std::unique_ptr<Pass> createExpandNarrowFloatsPass(bool onlyBelow16Bits);

} // namespace mlir::hlo

#endif // HLO_CONVERSION_SCALARLOWERING_H
