//===- WhileLoopConstantSinking.cpp - constants into loop bodies ----------===//
//
// XLA's WhileLoopConstantSinking (seed 002, section 3.6): a state element
// of a while loop whose init is a constant and that the body passes on
// unchanged is that constant in every iteration, so its reads in the body
// and the condition become a copy of the constant. The body's root still
// passes the element on; hlo-while-loop-simplifier then removes it when
// nothing else reads it. Computations are visited callers first, so that a
// constant sunk into a body reaches the loops nested in it in the same run.
//
// Options as XLA's: `sink-broadcast-of-constants` also sinks a broadcast of
// a constant (copied with its constant); `sink-only-scalar-constants` sinks
// rank-0 values only. Left alone: loops with control edges, loops whose
// condition or body other instructions call too (hlo-flatten-call-graph
// gives each loop its own), and elided literals.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "TransformUtils.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOWHILELOOPCONSTANTSINKING
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
struct WhileLoopConstantSinkingPass
    : ChangeReportingPass<WhileLoopConstantSinkingPass,
                          hlo::impl::HloWhileLoopConstantSinkingBase> {
  using ChangeReportingPass::ChangeReportingPass;

  /// The instructions that make `v` if it may be sunk (a constant, or a
  /// broadcast of one with sink-broadcast-of-constants), operands first.
  SmallVector<Operation *> sinkable(Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || (sinkOnlyScalarConstants && type.getRank() != 0))
      return {};
    Operation *def = v.getDefiningOp();
    if (auto constant = dyn_cast_or_null<ConstantOp>(def))
      return constant.isElided() ? SmallVector<Operation *>()
                                 : SmallVector<Operation *>{def};
    if (!sinkBroadcastOfConstants || !isa_and_nonnull<BroadcastOp>(def) ||
        hasControlPredecessors(def))
      return {};
    auto constant = def->getOperand(0).getDefiningOp<ConstantOp>();
    if (!constant || constant.isElided())
      return {};
    return {constant, def};
  }

  /// Replaces the reads of element `index` of `comp`'s parameter, except
  /// as operand `index` of `keep`, by a copy of `ops`; true if any.
  static bool sinkInto(ComputationOp comp, int64_t index,
                       ArrayRef<Operation *> ops, Operation *keep) {
    Block &block = comp.getBody().front();
    SmallVector<OpOperand *> reads;
    for (Operation *user : block.getArgument(0).getUsers())
      if (auto gte = dyn_cast<GetTupleElementOp>(user))
        if (int64_t(gte.getIndex()) == index)
          for (OpOperand &use : gte->getUses())
            if (use.getOwner() != keep || use.getOperandNumber() != index)
              reads.push_back(&use);
    if (reads.empty())
      return false;
    OpBuilder b = OpBuilder::atBlockBegin(&block);
    IRMapping mapping;
    for (Operation *op : ops)
      b.clone(*op, mapping);
    Value copy = mapping.lookup(ops.back()->getResult(0));
    for (OpOperand *use : reads)
      use->set(copy);
    return true;
  }

  void run() {
    ModuleOp module = getOperation();
    if (!module.walk([](WhileOp) { return WalkResult::interrupt(); })
             .wasInterrupted())
      return;
    SymbolTable symbols(module);
    // How many instructions call each computation.
    DenseMap<Operation *, unsigned> callers;
    for (auto comp : module.getOps<ComputationOp>())
      forEachCallee(comp, symbols, [&](ComputationOp c) { ++callers[c]; });
    SmallVector<ComputationOp> order = calleesFirst(module, symbols);
    for (ComputationOp comp : llvm::reverse(order)) {
      for (auto loop : comp.getBody().getOps<WhileOp>()) {
        auto cond = symbols.lookup<ComputationOp>(loop.getCondition());
        auto body = symbols.lookup<ComputationOp>(loop.getBody());
        auto init = loop->getOperand(0).getDefiningOp<TupleOp>();
        if (!cond || !body || cond == body || callers.lookup(cond) != 1 ||
            callers.lookup(body) != 1 || !init || hasControlPredecessors(loop))
          continue;
        auto root = body.getRootValue().getDefiningOp<TupleOp>();
        if (!root)
          continue;
        Value bodyParam = body.getBody().getArgument(0);
        for (auto [i, v] : llvm::enumerate(init.getInputs())) {
          auto gte = root.getInputs()[i].getDefiningOp<GetTupleElementOp>();
          if (!gte || gte.getOperand() != bodyParam || gte.getIndex() != i)
            continue;
          SmallVector<Operation *> ops = sinkable(v);
          if (ops.empty())
            continue;
          bool inBody = sinkInto(body, i, ops, root);
          bool inCond = sinkInto(cond, i, ops, nullptr);
          if (inBody || inCond) {
            ++numSunk;
            changed = true;
          }
        }
      }
    }
  }
};
} // namespace
