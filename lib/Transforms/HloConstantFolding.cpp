//===- HloConstantFolding.cpp - evaluate instructions of constants -------===//
//
// XLA's HloConstantFolding: an instruction whose operands are known is
// evaluated by the reference interpreter (lib/Runtime) and replaced by a
// constant holding its value. As in XLA:
// - an instruction qualifies if at least one of its data operands is a
//   constant and the others are known: constants, or broadcasts and iotas
//   (of known operands) evaluated on the way;
// - broadcasts and iotas are not folded themselves (they would turn a
//   scalar into a large literal), nor tuples (a tuple literal helps no
//   backend), after-all, fft (slow to evaluate), while loops (XLA's
//   evaluator runs none of their iterations here), custom-calls, and
//   instructions whose value depends on the device or the run: side
//   effects, replica-id, partition-id, or a called computation holding
//   one of these;
// - the result and the operands (in elements, operands summed) must stay
//   within `max-elements` (XLA's 45 million);
// - instructions of fused computations are left alone (XLA folds
//   non-fusion computations only), and so are instructions with control
//   predecessors or used as one, and dynamic shapes.
// What the interpreter cannot evaluate is left as it is.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Runtime/Interpreter.h"
#include "Hlo/Transforms/Passes.h"
#include "TransformUtils.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCONSTANTFOLDING
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;
using runtime::Literal;

/// True if `type` is a static array or a tuple of them (tokens excluded).
static bool isStaticValueType(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::all_of(tuple.getTypes(), isStaticValueType);
  return isStaticArray(type);
}

/// Elements of an array type; 0 for anything else.
static int64_t numElements(Type type) {
  return isStaticArray(type) ? cast<RankedTensorType>(type).getNumElements()
                             : 0;
}

/// Ops that are never folded, whatever their operands (see the header).
static bool isNeverFolded(Operation *op) {
  return isa<ConstantOp, BroadcastOp, IotaOp, TupleOp, AfterAllOp, FftOp,
             WhileOp, CustomCallOp, ReplicaIdOp, PartitionIdOp>(op);
}

/// Ops whose value may differ between devices or runs even when their
/// operands are known; a computation holding one is not evaluated either.
static bool dependsOnDevice(Operation *op) {
  return isa<WhileOp, CustomCallOp, ReplicaIdOp, PartitionIdOp>(op) ||
         !isMemoryEffectFree(op);
}

namespace {
struct ConstantFolder {
  ConstantFolder(ModuleOp module, int64_t maxElements)
      : evaluator(module), maxElements(maxElements) {}

  /// True if `comp` may not be evaluated: it holds an op that depends on
  /// the device, or calls such a computation (memoized; only computations
  /// that candidates call are looked at).
  bool isUnfoldable(ComputationOp comp, SymbolTable &symbols) {
    auto [it, inserted] = unfoldable.try_emplace(comp, false);
    if (!inserted)
      return it->second; // Known, or in progress (a recursive call graph).
    bool bad = llvm::any_of(comp.getBody().getOps(), [](Operation &op) {
      return !isa<ReturnOp>(op) && dependsOnDevice(&op);
    });
    if (!bad)
      forEachCallee(comp, symbols, [&](ComputationOp callee) {
        bad = bad || isUnfoldable(callee, symbols);
      });
    unfoldable[comp] = bad;
    return bad;
  }

  /// True if `op` (in a non-fused computation) may be replaced by its value.
  bool isCandidate(Operation *op, SymbolTable &symbols) {
    if (!isa<InstructionOpInterface>(op) || op->getNumResults() != 1 ||
        isNeverFolded(op) || hasControlPredecessors(op) ||
        isControlPredecessor(op) || !isStaticValueType(op->getResultTypes()[0]))
      return false;
    OperandRange operands = getDataOperands(op);
    if (!operands.empty() && llvm::none_of(operands, [](Value v) {
          return isa_and_nonnull<ConstantOp>(v.getDefiningOp());
        }))
      return false;
    int64_t operandElements = 0;
    for (Value v : operands) {
      if (!isStaticValueType(v.getType()))
        return false;
      operandElements += numElements(v.getType());
    }
    if (std::max(operandElements, numElements(op->getResultTypes()[0])) >
        maxElements)
      return false;
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(op))
      for (const SymbolTable::SymbolUse &use : *uses) {
        auto callee = symbols.lookup<ComputationOp>(
            use.getSymbolRef().getRootReference());
        if (!callee || isUnfoldable(callee, symbols))
          return false;
      }
    return isMemoryEffectFree(op);
  }

  /// The value of `v` if it is known: a constant with a literal, or a
  /// broadcast or iota of known values (evaluated here, not folded).
  const Literal *known(Value v) {
    auto it = values.find(v);
    if (it != values.end())
      return &it->second;
    Operation *def = v.getDefiningOp();
    FailureOr<Literal> value = failure();
    if (auto constant = dyn_cast_or_null<ConstantOp>(def)) {
      if (!constant.isElided())
        value = Literal::fromAttr(constant.getValue(), v.getType());
    } else if (isa_and_nonnull<BroadcastOp, IotaOp>(def) &&
               !hasControlPredecessors(def) &&
               numElements(v.getType()) <= maxElements) {
      value = evaluate(def);
    }
    if (failed(value))
      return nullptr;
    return &values.try_emplace(v, std::move(*value)).first->second;
  }

  /// The value of `op` if its operands are known.
  FailureOr<Literal> evaluate(Operation *op) {
    SmallVector<const Literal *> args;
    for (Value v : getDataOperands(op)) {
      const Literal *arg = known(v);
      if (!arg)
        return failure();
      args.push_back(arg);
    }
    std::string error;
    return evaluator.evaluate(op, args, error);
  }

  /// Replaces `op` by a constant of its value; false if it has none.
  bool fold(Operation *op) {
    FailureOr<Literal> value = evaluate(op);
    if (failed(value))
      return false;
    Attribute literal = value->toAttr(op->getContext());
    if (!literal)
      return false;
    OpBuilder builder(op);
    Operation *constant = createInstruction(
        builder, op->getLoc(), ConstantOp::getOperationName(),
        op->getResultTypes()[0], {}, {builder.getNamedAttr("value", literal)});
    if (!constant)
      return false;
    transferInstructionAttrs(op, constant);
    op->getResult(0).replaceAllUsesWith(constant->getResult(0));
    // Chains of folds read the value again: keep it rather than re-read the
    // literal from the attribute.
    values.try_emplace(constant->getResult(0), std::move(*value));
    op->erase();
    return true;
  }

  runtime::Evaluator evaluator;
  int64_t maxElements;
  DenseMap<Operation *, bool> unfoldable;
  DenseMap<Value, Literal> values;
};

struct HloConstantFoldingPass
    : ChangeReportingPass<HloConstantFoldingPass,
                          hlo::impl::HloConstantFoldingBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    DenseSet<Operation *> fused;
    module.walk([&](FusionOp fusion) {
      if (Operation *callee = symbols.lookup(fusion.getCalls()))
        fused.insert(callee);
    });
    ConstantFolder folder(module, maxElements);
    for (auto comp : module.getOps<ComputationOp>()) {
      if (fused.contains(comp))
        continue;
      for (Operation &op :
           llvm::make_early_inc_range(comp.getBody().getOps())) {
        if (!folder.isCandidate(&op, symbols) || !folder.fold(&op))
          continue;
        ++numFolded;
        changed = true;
      }
    }
  }
};
} // namespace
