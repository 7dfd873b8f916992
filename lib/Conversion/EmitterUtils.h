//===- EmitterUtils.h - shared parts of the fusion emitters -----*- C++ -*-===//
//
// What every fusion emitter uses: the element generator (an element of any
// value of a fused computation at a logical index, from the indexing maps and
// the scalar lowering), the kernel function with its buffer arguments, and
// index arithmetic between logical indices and physical offsets.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_CONVERSION_EMITTERUTILS_H
#define HLO_LIB_CONVERSION_EMITTERUTILS_H

#include "Hlo/Analysis/IndexingAnalysis.h"
#include "Hlo/Conversion/FusionEmitter.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>

namespace mlir::hlo {

/// Generates elements of the values of one fused computation inside a
/// kernel, from the root back to the parameters (`params`: the kernel's
/// operand buffers, one per parameter).
class ElementGenerator {
public:
  ElementGenerator(OpBuilder &b, Location loc, SymbolTable &symbols,
                   gpu::GPUModuleOp module, ValueRange params)
      : b(b), loc(loc), symbols(symbols), module(module), params(params) {
    scopes.emplace_back();
  }

  /// The elements of `v` (one, or one per element of a tuple-valued
  /// instruction such as a variadic reduce) at logical index `index`.
  FailureOr<SmallVector<Value>> emit(Value v, ValueRange index);

  /// The output element being generated: its logical index and its offset
  /// in `type`'s physical order. A parameter of `type` read at exactly that
  /// index (through elementwise instructions) is read at that offset, so
  /// that the unrolled elements' addresses are visibly consecutive.
  void setRoot(ValueRange index, Value linear, RankedTensorType type) {
    rootIndex.assign(index.begin(), index.end());
    rootLinear = linear;
    rootType = type;
  }

  FailureOr<Value> emitOne(Value v, ValueRange index) {
    FailureOr<SmallVector<Value>> r = emit(v, index);
    if (failed(r))
      return failure();
    return r->front();
  }

  /// Runs `fn` with a fresh cache scope (values made inside a region do
  /// not dominate the code after it).
  template <typename Fn> auto inScope(Fn fn) {
    scopes.emplace_back();
    auto result = fn();
    scopes.pop_back();
    return result;
  }

private:
  using Key = std::pair<void *, std::vector<void *>>;

  FailureOr<SmallVector<Value>> generate(Value v, ValueRange index);
  FailureOr<SmallVector<Value>> emitConstant(ConstantOp op, ValueRange index);
  FailureOr<Value> emitIota(IotaOp op, ValueRange index);
  FailureOr<SmallVector<Value>> emitDataMovement(Operation *op,
                                                 ValueRange index);
  FailureOr<SmallVector<Value>> emitReduce(ReduceOp op, ValueRange index);
  /// The operand index `map` gives for `index`, or failure (with an
  /// error) for runtime variables that cannot be generated.
  FailureOr<SmallVector<Value>> applyMap(const IndexingMap &map,
                                         ValueRange dims, ValueRange ranges);
  /// The conjunction of `map`'s domain (where narrower than `shape`) and
  /// constraints at `dims` (null: always true).
  Value constraintsHold(const IndexingMap &map, ValueRange dims,
                        ValueRange symbols, ArrayRef<int64_t> shape);
  Value indexConst(int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }

  OpBuilder &b;
  Location loc;
  SymbolTable &symbols;
  gpu::GPUModuleOp module;
  ValueRange params;
  std::vector<std::map<Key, SmallVector<Value>>> scopes;
  unsigned numGlobals = 0;
  SmallVector<Value> rootIndex;
  Value rootLinear;
  RankedTensorType rootType;
};

/// The outputs of a fused computation: its root, or a tuple root's elements.
SmallVector<Value> getFusionRoots(ComputationOp fused);

/// The location of a kernel's ops: its name and the fusion's place in the
/// HLO text (the fusion's other location parts, HLO metadata, mean nothing
/// to LLVM's debug info).
Location getKernelLocation(Operation *fusion, StringRef name);

/// A kernel `name` in `module` for `fusion`: one buffer argument
/// (getKernelBufferType) per operand, then per type of `outputs`, each
/// marked 16-byte aligned (XLA's allocations are 256-byte aligned), with
/// launch dimensions `block` and `grid` (x, y, z). The body is one block
/// ending in `gpu.return`; `b` is left before the return.
gpu::GPUFuncOp createKernel(OpBuilder &b, Operation *fusion,
                            gpu::GPUModuleOp module, StringRef name,
                            TypeRange outputs, ArrayRef<int32_t> block,
                            ArrayRef<int32_t> grid);

/// The offset of logical `index` in `type`'s physical (layout) order.
Value emitPhysicalOffset(OpBuilder &b, Location loc, ValueRange index,
                         RankedTensorType type);

/// The logical index of the element at physical offset `linear` of `type`.
SmallVector<Value> emitLogicalIndex(OpBuilder &b, Location loc, Value linear,
                                    RankedTensorType type);

/// In-place outputs: the kernel attribute `hlo.output_aliases` holds, for
/// each output k, the index of the kernel operand whose buffer output k
/// shares (-1: none). Such a kernel writes only some elements of the output
/// (a scatter's scattered elements, a dynamic-update-slice's update) and
/// reads the rest as the operand left them: where the runtime gives the
/// output its own buffer, it copies the operand into it before the launch.
/// The attribute is absent when no output aliases an operand.
void setOutputAliases(Operation *kernel, ArrayRef<int64_t> aliases);
/// The aliases of `kernel`'s outputs (empty without the attribute).
SmallVector<int64_t> getOutputAliases(Operation *kernel);
constexpr StringLiteral kOutputAliasesAttrName = "hlo.output_aliases";

/// The size in bytes of an element of `type` (its scalar type; pred: 1).
int64_t getElementBytes(Type elementType);

} // namespace mlir::hlo

#endif // HLO_LIB_CONVERSION_EMITTERUTILS_H
