//===- RewriteUtils.h - helpers of the expanding passes ---------*- C++ -*-===//
//
// Private to lib/Transforms: what the passes that expand one instruction
// into several (batch-norm expander, dot decomposer, operand upcaster,
// result caster, algebraic simplifier) share: the computations they visit,
// a location for the instructions they add, XLA's order of element types by
// precision, XLA-GPU's test for a cuBLAS matmul and the scalar add
// computation of the reduces they add; and
// what the inlining passes share: a computation's instructions copied to
// a call site, and the removal of computations nothing names any more.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_REWRITEUTILS_H
#define HLO_LIB_TRANSFORMS_REWRITEUTILS_H

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "TransformUtils.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::hlo {

/// The computations of `module` that no fusion calls (XLA's
/// MakeNonfusionComputations: the expanders leave fused computations alone).
SmallVector<ComputationOp> nonFusionComputations(ModuleOp module);

/// The `OpT` instructions of the non-fusion computations of `module`
/// without control edges (which the rewrites leave alone), collected
/// before any is rewritten.
template <typename OpT>
SmallVector<OpT> nonFusionOpsWithoutControlEdges(ModuleOp module) {
  SmallVector<OpT> ops;
  for (ComputationOp comp : nonFusionComputations(module))
    comp.walk([&](OpT op) {
      if (!hasControlEdges(op))
        ops.push_back(op);
    });
  return ops;
}

/// The location of an instruction added in place of the one at `loc`: the
/// same HLO metadata (XLA copies it to derived instructions) and source
/// position (for diagnostics), but not its name, which stays with the
/// instruction that takes its place.
Location derivedLoc(Location loc);

/// `loc` without the instruction name it may carry (its source position
/// and metadata as they are), for the instructions a rewrite adds: the
/// exporter names them afresh, and the one replacing an instruction takes
/// its name.
inline Location unnamed(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getChildLoc();
  return loc;
}

/// Replaces `op` (one result) by `value`, whose instruction was made for
/// it and takes its place: op's location (name, metadata) and
/// attributes; then erases `op`.
void replaceByNamed(Operation *op, Value value);

/// XLA's `primitive_util::HigherPrecisionType`: of two element types, the
/// one that holds the other's values best (complex over real, then float
/// range, float precision, bit width, signed over unsigned). Null when
/// neither wins (two distinct types XLA ranks equally).
Type higherPrecisionType(Type a, Type b);

/// True if `t` is an integer of `width` bits that is signed or signless
/// (HLO's s8, s32, ...).
bool isSignedInt(Type t, unsigned width);

/// XLA-GPU's IsCublasSupportedMatMul: `dot` is a matrix multiplication of
/// a shape and result type cuBLAS runs (each operand with one contracting
/// dimension, at most one other that is not a batch dimension, no batch
/// dimension last; a result of an f8, f16, bf16, f32, f64 or c64 type, or
/// s32 of two s8 operands); an operand whose one free dimension has size 1,
/// or none, is a vector, and matrix-vector products count only with
/// `allowMatrixVector`.
bool isCublasSupportedMatMul(DotOp dot, bool allowMatrixVector);

/// `type` (an array type) with element type `element`, layout kept (its
/// element size, where it names one, becomes the packed width of `element`,
/// 0 for types stored in whole bytes).
RankedTensorType withElementType(Type type, Type element);

/// Whether `v` is an s32 iota along `dim` of `shape`, or a broadcast of a
/// rank-1 iota into `dim` (XLA's HasIota, the iota's dimension checked):
/// the index operand of a sort that tracks positions.
bool isIotaAlong(Value v, ArrayRef<int64_t> shape, int64_t dim);

/// A new private computation `scalar_add_computation` adding two scalars of
/// `element` (XLA's scalar add computation, parameters `scalar_lhs` and
/// `scalar_rhs`), inserted into `symbols` at `where` (the end when null;
/// renamed if the name is taken).
FlatSymbolRefAttr createScalarAddComputation(SymbolTable &symbols, Type element,
                                             Block::iterator where = {});

/// The same, `scalar_max_computation` taking the maximum of two scalars.
FlatSymbolRefAttr createScalarMaxComputation(SymbolTable &symbols, Type element,
                                             Block::iterator where = {});

/// The scalar add computations of a module, one per element type, made
/// (at the module's end) on first use: for expansions that sum.
class ScalarAdders {
public:
  explicit ScalarAdders(SymbolTable &symbols) : symbols(symbols) {}
  FlatSymbolRefAttr operator()(Type element) {
    FlatSymbolRefAttr &add = made[element];
    if (!add)
      add = createScalarAddComputation(symbols, element);
    return add;
  }

private:
  SymbolTable &symbols;
  DenseMap<Type, FlatSymbolRefAttr> made;
};

/// A new comparator computation next to `comparator` (of two value
/// parameters) taking two more s32 (index) parameters, which it ignores: for
/// a sort that carries an index operand along (top-k).
ComputationOp withIgnoredIndexParameters(ComputationOp comparator,
                                         SymbolTable &symbols, Location loc);

/// Copies the instructions of `callee` at `builder`'s insertion point,
/// `inputs` in place of its parameters; returns the copy of its root.
Value inlineComputation(OpBuilder &builder, ComputationOp callee,
                        ValueRange inputs);

/// Erases from `symbols` the computations among `candidates` that are not
/// ENTRY and that no symbol use of `module` names any more.
void eraseUnreferencedComputations(
    ModuleOp module, const llvm::DenseSet<Operation *> &candidates,
    SymbolTable &symbols);

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_REWRITEUTILS_H
