//===- ThunkDialect.h - thunk dialect ---------------------------*- C++ -*-===//
//
// The thunk dialect: a compiled HLO program as allocations, slices and
// thunks (ThunkBase.td, docs/thunk.md).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_THUNK_THUNKDIALECT_H
#define HLO_DIALECT_THUNK_THUNKDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::OpTrait::thunk {
/// The thunks that exchange data between the devices of a program
/// (ThunkCollectiveOps.td): the runtimes meet the devices in them.
template <typename ConcreteType>
class CollectiveThunk : public TraitBase<ConcreteType, CollectiveThunk> {};
} // namespace mlir::OpTrait::thunk

#include "Hlo/Dialect/Thunk/ThunkEnums.h.inc"
#include "Hlo/Dialect/Thunk/ThunkOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Hlo/Dialect/Thunk/ThunkAttrs.h.inc"

#define GET_OP_CLASSES
#include "Hlo/Dialect/Thunk/ThunkOps.h.inc"

namespace mlir::thunk {
/// The `memory_space` of an allocation in host memory (XLA's `S(5)`).
constexpr int64_t kHostMemorySpace = 5;
/// Whether `op` is a collective thunk (all-reduce, all-gather,
/// reduce-scatter, all-to-all, ragged-all-to-all, collective-permute,
/// collective-broadcast).
inline bool isCollectiveThunk(Operation *op) {
  return op->hasTrait<OpTrait::thunk::CollectiveThunk>();
}
/// The bytes one element of `type` takes in a slice: a whole number of
/// bytes (an `i1` takes one, a complex number twice its part's).
int64_t getElementStorageBytes(Type type);
/// True for element types a slice holds packed, as XLA stores them: the
/// integers and floats of 2 and 4 bits (element i at bit i * width, from
/// the low bits of byte 0). Others take whole bytes (`i1` and the 6-bit
/// floats, which XLA's GPU compiler does not take, one each).
bool isPackedElementType(Type type);
/// The bytes a static-shaped memref covers in a slice.
int64_t getStorageBytes(MemRefType type);
/// The same for an array of `shape` and `element`, without making a type:
/// what the runtimes' device threads ask (a context that runs without
/// threads does not lock its uniquers).
int64_t getStorageBytes(ArrayRef<int64_t> shape, Type element);
/// The parameter allocations of a thunk program's module in the order of
/// its `argument_types`: by parameter number, then index in the parameter.
SmallVector<AllocationOp> getParameterAllocations(ModuleOp module);
} // namespace mlir::thunk

#endif // HLO_DIALECT_THUNK_THUNKDIALECT_H
