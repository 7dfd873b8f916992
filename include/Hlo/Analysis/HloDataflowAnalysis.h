//===- HloDataflowAnalysis.h - HLO values and their positions --*- C++ -*-===//
//
// XLA's HloDataflowAnalysis (non-SSA form, as buffer assignment uses it): the
// HLO values a module defines, one per (instruction, shape index) that
// creates new data, and for every position (an SSA value of a computation
// that runs as a sequence of kernels, and a node of its shape tree) the set
// of values that may be there.
//
// What defines and what forwards:
// - tuple defines its pointer table ({}) and forwards each operand to its
//   element; get-tuple-element, bitcast, add-dependency, opt-barrier, domain,
//   all-reduce-done and async-update forward their operand;
// - while: its result, its body's and condition's parameter hold the union
//   of its operand's and its body root's values (the loop's state);
//   conditional: each branch parameter holds its operand's values, the
//   result the union of the branch roots'; call: the callee's parameters
//   hold the operands', the result the callee root's;
// - copy-start (dest, src, context) forwards its operand to {1};
//   copy-done forwards {0} of its copy-start; async-start forwards its
//   operands to {0, i}, async-done its start's {1}; all-gather-start and
//   collective-permute-start forward their operands to {0}, their -done the
//   start's {1}; send forwards its operand to {0}, recv-done its recv's {0};
// - everything else defines a value at every node of its shape, ENTRY
//   parameters too. In-place ops (dynamic-update-slice, scatter, fusions
//   rooted in them, `output_to_operand_aliasing`) define new values that
//   the alias analysis puts in their operand's buffer.
//
// Computations analyzed: ENTRY and what it reaches through while,
// conditional and call. Fused computations, reducers, comparators and
// async-wrapped computations run inside one instruction and are not.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_ANALYSIS_HLODATAFLOWANALYSIS_H
#define HLO_ANALYSIS_HLODATAFLOWANALYSIS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <tuple>
#include <utility>
#include <vector>

namespace mlir::hlo {

class ComputationOp;

/// A node of a value's shape tree, numbered in pre-order (0: the value
/// itself, then each tuple element's subtree).
struct HloPosition {
  Value value;
  unsigned node = 0;
  bool operator==(const HloPosition &o) const {
    return value == o.value && node == o.node;
  }
};

/// An instruction reading a value: operand `operand` of `user`, at node
/// `node` of that operand's shape. A computation's ROOT is used by the
/// computation's terminator.
struct HloUse {
  Operation *user = nullptr;
  unsigned operand = 0;
  unsigned node = 0;
};

/// One HLO value: defined at `defined` (shape index `index`, subshape
/// `type`), found at `positions`, read by `uses`.
struct HloValue {
  unsigned id = 0;
  HloPosition defined;
  SmallVector<int64_t, 2> index;
  Type type;
  SmallVector<HloPosition, 2> positions;
  SmallVector<HloUse, 2> uses;
  /// In the ENTRY computation's result.
  bool liveOut = false;
};

class HloDataflowAnalysis {
public:
  /// Analyzes `module`; `isAnalyzed` is false when it has no ENTRY
  /// computation.
  explicit HloDataflowAnalysis(ModuleOp module);
  explicit HloDataflowAnalysis(Operation *module)
      : HloDataflowAnalysis(cast<ModuleOp>(module)) {}
  ~HloDataflowAnalysis();
  HloDataflowAnalysis(HloDataflowAnalysis &&) = default;

  struct ShapeNodes;

  bool isAnalyzed() const { return entry != nullptr; }
  ComputationOp getEntry() const;
  /// The computations analyzed, callers before callees, ENTRY first.
  ArrayRef<Operation *> getComputations() const { return computations; }
  /// True for the computations analyzed.
  bool isSequential(Operation *computation) const {
    return sequential.contains(computation);
  }

  /// The instructions (while, conditional, call) that run an analyzed
  /// computation other than ENTRY.
  ArrayRef<Operation *> getCallers(Operation *computation) const {
    auto it = callers.find(computation);
    return it == callers.end() ? ArrayRef<Operation *>() : it->second;
  }
  /// The analyzed computations a while, conditional or call runs (body
  /// before condition, branches in order); empty for other ops.
  SmallVector<Operation *, 2> getCallees(Operation *op) const;

  ArrayRef<HloValue> getValues() const { return values; }
  const HloValue &getValue(unsigned id) const { return values[id]; }
  /// The values at node `node` of `value` (sorted ids); empty for an SSA
  /// value outside the computations analyzed.
  ArrayRef<unsigned> getValueSet(Value value, unsigned node = 0) const;
  /// The value defined at (value, node), if one is.
  const HloValue *getDefinedValue(Value value, unsigned node = 0) const;
  /// The number of nodes of `value`'s shape tree.
  unsigned getNumNodes(Value value) const;
  /// The first node of each element of a tuple type, relative to the
  /// tuple's node 0 (empty for other types); computed once per type.
  ArrayRef<unsigned> getElementNodes(Type type) const;

  /// The (operand number, operand node, result node) pairs of an in-place
  /// instruction: its result at the result node must be written into the
  /// operand's buffer at the operand node (XLA's in-place input/output
  /// pairs).
  SmallVector<std::tuple<unsigned, unsigned, unsigned>>
  getInPlacePairs(Operation *op) const;

  /// Pre-order node of shape index `index` in `type`; -1 if absent.
  static int64_t getNode(Type type, ArrayRef<int64_t> index);

private:
  using ValueSet = SmallVector<unsigned, 1>;
  void collectComputations(ModuleOp module);
  void assignSlots();
  void defineValues();
  bool propagate(Operation *computation);
  bool assign(Value dst, unsigned dstNode, ArrayRef<ValueSet> src);
  ArrayRef<ValueSet> sets(Value v, unsigned node = 0) const;
  void computePositionsAndUses();

  Operation *entry = nullptr;
  std::unique_ptr<SymbolTable> symbols;
  std::unique_ptr<ShapeNodes> shapeNodes;
  std::vector<Operation *> computations;
  llvm::DenseMap<Operation *, unsigned> sequential;
  /// Callers of each analyzed non-ENTRY computation.
  llvm::DenseMap<Operation *, SmallVector<Operation *, 1>> callers;
  llvm::DenseMap<Value, unsigned> firstSlot;
  std::vector<ValueSet> slots;
  std::vector<HloValue> values;
  llvm::DenseMap<std::pair<Value, unsigned>, unsigned> defined;
};

} // namespace mlir::hlo

#endif // HLO_ANALYSIS_HLODATAFLOWANALYSIS_H
