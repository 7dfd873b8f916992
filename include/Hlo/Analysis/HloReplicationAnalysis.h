//===- HloReplicationAnalysis.h - values equal on every device --*- C++ -*-===//
//
// XLA's HloReplicationAnalysis (without its partial replication): which
// values of a module are the same on every replica (cross-replica mode:
// for each partition, across its replicas) or on every partition
// (cross-partition mode: for each replica, across its partitions). Each
// array leaf of a value (a tuple's elements, flattened) is either
// replicated or not.
//
// Seeds: ENTRY parameters marked `hlo.parameter_replication` (cross-replica
// mode) or with a replicated `hlo.sharding` (cross-partition mode, unless
// parameter_replication says otherwise), constants and iotas,
// partition-id across replicas, replica-id across partitions, all-reduces
// and all-gathers whose groups span every device of the mode. Elementwise
// ops, shape ops, dots, convolutions, reductions, gathers, scatters,
// slices and copies of replicated operands are replicated. Control flow
// propagates: a call's or fusion's parameters take its operands (a
// computation with several callers is not analysed: nothing in it is
// replicated), a while loop's state iterates to a fixed point and its body
// is not replicated when its condition is not, a conditional's result is
// replicated when its branch index and the taken branch's root are. Anything
// else (side effects, sort, the other collectives, custom-calls, rng) is not
// replicated, as in XLA.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_ANALYSIS_HLOREPLICATIONANALYSIS_H
#define HLO_ANALYSIS_HLOREPLICATIONANALYSIS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::hlo {

class ComputationOp;

class HloReplicationAnalysis {
public:
  /// Analyses `module` from its ENTRY computation; with `crossPartition`,
  /// across partitions, else across replicas.
  HloReplicationAnalysis(ModuleOp module, bool crossPartition);

  /// True if every array leaf of `v` is the same on every device of the
  /// mode. False for values outside the computations analysed.
  bool isReplicated(Value v) const;
  /// True if the array leaf `leaf` (tuple leaves in order) of `v` is.
  bool isReplicatedAt(Value v, unsigned leaf) const;

private:
  using Leaves = SmallVector<bool, 1>;

  bool visit(ComputationOp comp, bool unique);
  Leaves compute(Operation *op, bool &changed);
  Leaves callResult(ComputationOp callee, ValueRange operands, bool unique,
                    bool &changed);
  bool meet(Value v, ArrayRef<bool> leaves);
  Leaves leavesOf(Value v) const;
  bool operandsReplicated(Operation *op) const;
  bool collectiveReplicates(Operation *op) const;

  bool crossPartition;
  int64_t numReplicas = 1, numPartitions = 1;
  DenseMap<Value, Leaves> state;
  /// Computations called from more than one place (never analysed).
  llvm::DenseSet<Operation *> shared;
  /// The computations being visited (a guard against recursive calls).
  llvm::SmallPtrSet<Operation *, 8> active;
  std::unique_ptr<SymbolTable> symbols;
};

} // namespace mlir::hlo

#endif // HLO_ANALYSIS_HLOREPLICATIONANALYSIS_H
