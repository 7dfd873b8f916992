//===- SchedulingUtils.h - what the schedulers share ------------*- C++ -*-===//
//
// Private to lib/Transforms: a computation's instructions as a dependence
// graph (data operands and control predecessors) with the buffers
// (HloAliasAnalysis) each one reads and defines, the peak of live bytes of
// an order of them, and moving a block's ops to an order. Used by
// hlo-memory-scheduler and hlo-latency-hiding-scheduler.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_SCHEDULINGUTILS_H
#define HLO_LIB_TRANSFORMS_SCHEDULINGUTILS_H

#include "Hlo/Analysis/HloAliasAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include <string>
#include <vector>

namespace mlir::hlo {

/// One computation's instructions, numbered in their current order.
struct ScheduleGraph {
  /// A buffer as the computation sees it.
  struct Buffer {
    int64_t size = 0;
    /// Present at a parameter (live from the start) or holding a constant:
    /// the list scheduler does not count it (XLA's IgnoreBuffer).
    bool ignored = false;
    bool atParameter = false;
    /// Holds a constant: not counted in the peak either (XLA's heap
    /// simulator leaves constants out unless told otherwise).
    bool constant = false;
    /// Held by the ROOT: live to the end.
    bool liveOut = false;
  };
  struct Node {
    Operation *op = nullptr;
    /// Unique instructions of the computation among the data operands.
    SmallVector<unsigned, 2> operands;
    /// Data operands in operand order (with repeats), for the walks.
    SmallVector<unsigned, 2> operandList;
    /// Unique control predecessors.
    SmallVector<unsigned, 1> controlPreds;
    /// Unique data users (the ROOT's `return` excluded) and control
    /// successors.
    SmallVector<unsigned, 2> users;
    SmallVector<unsigned, 1> controlSuccs;
    /// Unique buffers read through the data operands / defined (a value of
    /// the op in a buffer that none of its operands holds).
    SmallVector<unsigned, 2> uses;
    SmallVector<unsigned, 1> defs;
    /// Buffers of the op's result (all of them, defined or forwarded).
    SmallVector<unsigned, 2> resultBuffers;
    bool isConstant = false;
  };

  /// Builds the graph of `computation` (`symbols`: the module's table);
  /// fails (returns false) when the block holds an op that is not an HLO
  /// instruction.
  bool build(ComputationOp computation, const HloAliasAnalysis &alias,
             SymbolTable &symbols);

  /// Peak over `order` (node ids) of the bytes of the buffers live at once
  /// (constants left out): a buffer lives from its first position (a parameter:
  /// the start) to its last read (the ROOT's: the end), both included; a
  /// live-out buffer from the start to the end (its allocation is its own).
  int64_t peakBytes(ArrayRef<unsigned> order) const;

  /// The instruction name (its location's name), for tie breaks.
  std::string name(unsigned node) const;

  mutable ComputationOp computation;
  std::vector<Node> nodes;
  std::vector<Buffer> buffers;
  /// The node of the ROOT instruction, -1 when ROOT is a parameter.
  int64_t root = -1;
};

/// Moves the ops of `graph`'s block to `order` (node ids, a topological
/// order). Returns true if the order changed.
bool applySchedule(const ScheduleGraph &graph, ArrayRef<unsigned> order);

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_SCHEDULINGUTILS_H
