//===- GpuPerformanceModel.h - XLA's GPU cost model -------------*- C++ -*-===//
//
// XLA's GPU cost model (GpuHloCostAnalysis and GpuPerformanceModel) over the
// hlo dialect: the FLOPs of an instruction or fusion, the bytes it reads
// from each operand (counted through the indexing maps: how many times each
// operand element is read) and writes, whether the reads coalesce, and from
// those, on a GpuDeviceInfo, the estimated compute, memory and run time of
// the kernel; plus the "unfused vs fused" comparison priority fusion makes
// for a producer and its consumers. Formulas: docs/gpu-cost-model.md.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_ANALYSIS_GPUPERFORMANCEMODEL_H
#define HLO_ANALYSIS_GPUPERFORMANCEMODEL_H

#include "Hlo/Analysis/GpuDeviceInfo.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"

#include <cstdint>

namespace mlir::hlo {

/// How a kernel reads one operand.
struct OperandRead {
  Value operand;
  /// Bytes read, counting every re-read (XLA's n_bytes_total).
  int64_t bytesTotal = 0;
  /// Bytes read at least once: min(operand size, bytesTotal) (n_bytes_net).
  int64_t bytesNet = 0;
  /// Consecutive threads read consecutive elements of the minor dimension.
  bool coalesced = true;
};

/// XLA's EstimateRunTimeData; times in microseconds. `execUs` combines
/// compute and memory time and excludes the launch overhead; `totalUs`
/// adds it.
struct EstimateRunTimeData {
  bool isKernel = true; // false: no kernel runs (constant, tuple, bitcast...)
  int64_t flops = 0;
  int64_t bytesRead = 0;
  int64_t bytesWritten = 0;
  int64_t numBlocks = 0;
  int64_t numThreadsPerBlock = 0;
  double computeUs = 0;
  double readUs = 0;
  double writeUs = 0;
  double execUs = 0;
  double totalUs = 0;
  llvm::SmallVector<OperandRead> reads;

  double memoryUs() const { return readUs + writeUs; }
};

struct GpuPerformanceModelOptions {
  /// 1: compute and memory overlap perfectly (run time = the larger); 0: no
  /// overlap (the sum). XLA's default is 1; priority fusion uses 0.95.
  double memoryComputeParallelism = 1.0;

  static GpuPerformanceModelOptions priorityFusion() {
    GpuPerformanceModelOptions options;
    options.memoryComputeParallelism = 0.95;
    return options;
  }
};

/// XLA's GpuPerformanceModelBase::RunTimes, in microseconds.
struct FusionRunTimes {
  double unfusedUs = 0;
  double fusedUs = 0;
  /// Positive when fusing saves time.
  double benefitUs() const { return unfusedUs - fusedUs; }
};

class GpuPerformanceModel {
public:
  explicit GpuPerformanceModel(const GpuDeviceInfo &device,
                               GpuPerformanceModelOptions options = {})
      : device(device), options(options) {}

  const GpuDeviceInfo &getDevice() const { return device; }

  /// XLA's flop count of `op` (GpuHloCostAnalysis): elementwise ops cost
  /// XLA's per-opcode cycle counts per element, dot 2*M*N*K, reduce the
  /// reducer's cost per reduced element, a fusion the sum over its fused
  /// instructions weighted by how often each is computed.
  int64_t getFlops(Operation *op);

  /// How many times, on average, `op` reads each element of operand
  /// `operandIndex` (XLA's operand utilization), from its indexing maps.
  double getOperandUtilization(Operation *op, unsigned operandIndex);

  /// `op` run as one kernel (an unfused instruction or a fusion).
  const EstimateRunTimeData &estimateRunTime(Operation *op);

  /// XLA's EstimateRunTimesForPriorityFusion: `producer` and `consumers` as
  /// separate kernels, against `producer` fused into each consumer (one
  /// kernel per consumer; `multiOutput` keeps the producer's own output).
  FusionRunTimes estimateFusionBenefit(Operation *producer,
                                       llvm::ArrayRef<Operation *> consumers,
                                       bool multiOutput = false);

  /// The time of `producer` fused into `consumer` as one kernel, without
  /// the launch overhead (XLA's EstimateRunTimeForFusion).
  double estimateFusedRunTimeUs(Operation *producer, Operation *consumer);

  /// Forgets what is cached for `op` (and, for a fusion, its fused
  /// computation): call it before `op` is erased or its fused computation
  /// changes (a pass that fuses, like XLA's cost analysis RevisitInstruction).
  void invalidate(Operation *op);

  /// Looks called computations up in `tables` (hash lookups) rather than by
  /// a walk of the module's symbols: a pass that queries many fusions of a
  /// large module sets it. Null (the default): walk.
  void setSymbolTables(SymbolTableCollection *tables) { symbolTables = tables; }

  /// How many elements `op` reads from each operand (every output, every
  /// re-read counted) and whether those reads coalesce, from its indexing
  /// maps.
  struct OperandAccess {
    llvm::SmallVector<double> reads;
    llvm::SmallVector<bool> coalesced;
  };
  const OperandAccess &getOperandAccess(Operation *op);

private:
  struct FlopInfo;
  double computationFlops(Operation *computation);
  /// `computeOnce`: every fused value is computed once and kept (a Triton
  /// fusion's tiles), rather than once per use.
  void fusionUtilizations(Operation *fusion,
                          llvm::DenseMap<Value, double> &utilization,
                          double &flops, bool computeOnce = false);
  double computeTimeUs(Operation *op, int64_t flops, int64_t numBlocks,
                       int64_t threadsPerBlock);
  double readTimeUs(int64_t numBlocks, int64_t bytesNet, int64_t bytesTotal,
                    Type elementType, bool coalesced) const;
  double combineUs(double computeUs, double memoryUs) const;

  const GpuDeviceInfo &device;
  GpuPerformanceModelOptions options;
  SymbolTableCollection *symbolTables = nullptr;
  llvm::DenseMap<Operation *, EstimateRunTimeData> cache;
  llvm::DenseMap<Operation *, double> computationFlopsCache;
  /// getOperandAccess's cache, keyed by opcode, attributes and types.
  llvm::DenseMap<llvm::ArrayRef<const void *>, OperandAccess> accessCache;
  llvm::BumpPtrAllocator keyStorage;
  OperandAccess uncachedAccess;
};

/// The size in bytes of a value of `type` (tensors, tuples of them); 0 for
/// tokens.
int64_t getTypeSizeInBytes(Type type);

} // namespace mlir::hlo

#endif // HLO_ANALYSIS_GPUPERFORMANCEMODEL_H
