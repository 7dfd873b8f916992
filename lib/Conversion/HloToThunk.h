//===- HloToThunk.h - hlo-to-thunk, private -------------------*- C++ -*-===//
//
// The lowering of a scheduled, buffer-assigned HLO module to a thunk
// program (HloToThunk.cpp; collectives in HloToThunkCollectives.cpp,
// linear-algebra library calls in HloToThunkSolvers.cpp, host transfers
// and channels in HloToThunkTransfers.cpp, bounded dynamic arrays in
// HloToThunkDynamic.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_CONVERSION_HLOTOTHUNK_H
#define HLO_LIB_CONVERSION_HLOTOTHUNK_H

#include "Hlo/Conversion/MemcpyFusion.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Thunk/ThunkDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

#include <tuple>

namespace mlir::hlo {
namespace th = mlir::thunk;

/// The memref type a caller sees for array `type`: its shape and element
/// type, its layout as strides (none for the default, row-major one).
MemRefType getSignatureType(RankedTensorType type);

/// Lowers one module; every failure has been reported at its instruction.
class ThunkLowering {
public:
  ThunkLowering(ModuleOp module, SymbolTable &symbols, uint64_t rngSeed)
      : module(module), symbols(symbols), memcpyFusions(module, symbols),
        b(module.getContext()), rngSeed(rngSeed) {}

  LogicalResult run();

private:
  /// The program's `argument_tiles` and `result_tiles` where `entry` is a
  /// partitioned program that records its whole arrays.
  void setProgramTiles(ComputationOp entry, ModuleOp module);
  LogicalResult lowerComputation(ComputationOp comp);
  LogicalResult lowerInstruction(Operation *op);
  LogicalResult lowerKernel(FusionOp fusion);
  /// A memcpy fusion (MemcpyFusion.h): a copy, or a dynamic copy in a loop.
  LogicalResult lowerMemcpy(FusionOp fusion, const MemcpyFusion &memcpy);
  LogicalResult lowerGemm(CustomCallOp call);
  LogicalResult lowerConvolution(CustomCallOp call);
  LogicalResult lowerFft(FftOp op);
  // cuBLAS trsm and cuSOLVER potrf (HloToThunkSolvers.cpp).
  /// triangular-solve or its `__cublas$triangularSolve` custom call.
  LogicalResult lowerTriangularSolve(Operation *op);
  /// The `__cusolver$cholesky` custom call.
  LogicalResult lowerCholesky(CustomCallOp call);
  /// XLA CPU's LAPACK calls: `lapack_?geqrf_ffi`, `lapack_?orgqr_ffi` /
  /// `?ungqr`, `lapack_?trsm_ffi`.
  LogicalResult lowerLapack(CustomCallOp call);
  /// JAX's LU, eigh and SVD calls (HloFactorizationCalls.h).
  LogicalResult lowerFactorization(CustomCallOp call);
  /// XLA-GPU's CUB sort calls (HloToThunkSort.cpp).
  LogicalResult lowerCubSort(CustomCallOp call);
  LogicalResult lowerTopK(CustomCallOp call);
  /// The custom calls PadToStatic and SliceToDynamic
  /// (HloToThunkDynamic.cpp).
  LogicalResult lowerDynamicShape(CustomCallOp call);
  /// infeed, outfeed, send, send-done, recv, recv-done
  /// (HloToThunkTransfers.cpp).
  LogicalResult lowerTransfer(Operation *op);
  /// The slice of array node `node` of `value` as column-major matrices; an
  /// error unless its layout is the Fortran one.
  FailureOr<Value> fortranSlice(Operation *at, Value value, unsigned node = 0);
  LogicalResult lowerWhile(WhileOp op);
  LogicalResult lowerConditional(ConditionalOp op);
  // Collectives (HloToThunkCollectives.cpp).
  /// The thunk of collective `op` (a collective, its -start form, or the
  /// root of an async computation) reading the arrays of `operands` and
  /// writing the slices `outputs`.
  /// `asyncId`: the thunk only starts the collective (its done waits).
  LogicalResult lowerCollective(Operation *op, ValueRange operands,
                                ArrayRef<Value> outputs,
                                std::optional<int64_t> asyncId = {});
  /// async-start of a collective, or an -start op: the collective's thunk.
  LogicalResult lowerCollectiveStart(Operation *op);
  /// The -done of a start: copies of its result where the slices differ.
  LogicalResult lowerCollectiveDone(Operation *op);
  /// replica-id and partition-id.
  LogicalResult lowerDeviceId(Operation *op);
  LogicalResult lowerRngGetAndUpdateState(RngGetAndUpdateStateOp op);
  /// The slices of the arrays of `value` (of element `element` of its tuple
  /// when given), typed with their logical shapes and layouts.
  FailureOr<SmallVector<Value>>
  logicalSlices(Operation *at, Value value,
                std::optional<unsigned> element = std::nullopt);
  /// Lowers `callee` where its parameters take `operands` and its root
  /// gives `results` (the calling instruction's result), with copies where
  /// the two sides' slices differ.
  LogicalResult lowerCall(Operation *at, ComputationOp callee,
                          ValueRange operands, Value result);

  /// The slice of array node `node` of `value` as memref type `type`
  /// (the kernel buffer type when null).
  FailureOr<Value> slice(Operation *at, Value value, unsigned node = 0,
                         MemRefType type = {});
  /// The slice of type `type` at `offset` of allocation `allocation`.
  Value sliceOf(Location loc, int64_t allocation, int64_t offset,
                MemRefType type);
  /// A temporary allocation of `bytes` of the runtime's own, beyond the
  /// buffer assignment's (which no other value shares); its index.
  int64_t addTemporaryAllocation(Location loc, int64_t bytes);
  /// The recv of channel `channel` (none: null).
  RecvOp recvOfChannel(int64_t channel);
  /// The slices (of types `types`, in an allocation of their own, made at
  /// first use) that hold the value a send between devices delivers on
  /// `channel` until its recv-done reads it.
  SmallVector<Value> channelStaging(Location loc, int64_t channel,
                                    TypeRange types);
  /// The slices of every array of `value`'s shape, in pre-order.
  FailureOr<SmallVector<Value>> leafSlices(Operation *at, Value value);
  /// Copies `from`'s arrays to `to`'s where their slices differ.
  LogicalResult copyLeaves(Operation *at, Value from, Value to);
  void copy(Location loc, Value from, Value to);

  ModuleOp module;
  SymbolTable &symbols;
  MemcpyFusionAnalysis memcpyFusions;
  /// The element of each lowered start op's result that holds its outputs
  /// (none: all of it).
  DenseMap<Operation *, std::optional<unsigned>> startOutputs;
  /// The async_id of each start lowered to an asynchronous collective
  /// thunk (not those XLA made synchronous), and the next id.
  DenseMap<Operation *, int64_t> asyncIds;
  int64_t nextAsyncId = 0;
  /// The devices the program runs on (the module's replica_count and
  /// num_partitions).
  int64_t numReplicas = 1, numPartitions = 1;
  OpBuilder b;
  uint64_t rngSeed;
  th::ProgramOp program;
  /// thunk.slice ops, made once each at the program's start.
  DenseMap<std::tuple<int64_t, int64_t, Type>, Value> slices;
  Operation *lastSlice = nullptr;
  SmallVector<th::AllocationOp> allocations;
  /// Each channel's recv, and the staging slices of each channel whose
  /// send is between devices.
  std::optional<DenseMap<int64_t, RecvOp>> recvs;
  DenseMap<int64_t, SmallVector<Value>> staging;
};

} // namespace mlir::hlo

#endif // HLO_LIB_CONVERSION_HLOTOTHUNK_H
