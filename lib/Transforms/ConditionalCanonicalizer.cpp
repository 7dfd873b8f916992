//===- ConditionalCanonicalizer.cpp - conditionals on tuples --------------===//
//
// XLA's ConditionalCanonicalizer (XLA-GPU's "optimization" pipeline, after
// the logistic expander): every conditional passes tuples to its branches
// and gets a tuple back.
//
//  - A branch whose parameter is not a tuple takes a one-element tuple and
//    reads its element with a get-tuple-element at the start; one whose
//    root is not a tuple returns a one-element tuple of it.
//  - A branch operand that is not a tuple is passed as a one-element
//    tuple; a conditional whose result is not a tuple returns a
//    one-element tuple, read by a get-tuple-element that takes its uses.
//
// A branch computation that another kind of instruction calls too (a
// `call`, a `map`...) is copied first, once, and the conditionals run the
// copy; branch computations shared by conditionals are rewritten once.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

#include "llvm/ADT/DenseSet.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCONDITIONALCANONICALIZER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// True if `branch` already takes and returns tuples.
static bool isCanonical(ComputationOp branch) {
  return branch.getArgumentTypes().size() == 1 &&
         isa<TupleType>(branch.getArgumentTypes()[0]) &&
         isa<TupleType>(branch.getFunctionType().getResult(0));
}

/// Makes `branch` take and return tuples (its parameter read through a
/// get-tuple-element, its root wrapped in a tuple).
static void canonicalizeBranch(ComputationOp branch) {
  MLIRContext *ctx = branch.getContext();
  Block &body = branch.getBody().front();
  BlockArgument param = body.getArgument(0);
  if (!isa<TupleType>(param.getType())) {
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    Type element = param.getType();
    param.setType(TupleType::get(ctx, {element}));
    // A sharding written for the array parameter does not fit the tuple.
    branch.removeArgAttrsAttr();
    InstBuilder ib(b, derivedLoc(param.getLoc()));
    Value gte = ib.getTupleElement(param, 0);
    param.replaceAllUsesExcept(gte, gte.getDefiningOp());
  }
  Operation *ret = body.getTerminator();
  Value root = ret->getOperand(0);
  if (!isa<TupleType>(root.getType())) {
    OpBuilder b(ret);
    InstBuilder ib(b, derivedLoc(root.getLoc()));
    ret->setOperand(0, ib.tuple({root}));
  }
  branch.setFunctionType(FunctionType::get(ctx, {param.getType()},
                                           {ret->getOperand(0).getType()}));
}

/// Passes the operands of `cond` as tuples and makes its result a tuple.
/// True if anything changed.
static bool canonicalizeCall(ConditionalOp cond) {
  OpBuilder b(cond);
  InstBuilder ib(b, derivedLoc(cond.getLoc()));
  bool changed = false;
  for (OpOperand &operand : cond.getBranchOperandsMutable()) {
    if (isa<TupleType>(operand.get().getType()))
      continue;
    operand.set(ib.tuple({operand.get()}));
    changed = true;
  }
  Value result = cond.getResult();
  if (isa<TupleType>(result.getType()))
    return changed;
  Type type = result.getType();
  result.setType(TupleType::get(cond.getContext(), {type}));
  b.setInsertionPointAfter(cond);
  Value gte = ib.getTupleElement(result, 0);
  result.replaceAllUsesExcept(gte, gte.getDefiningOp());
  return true;
}

namespace {
struct ConditionalCanonicalizerPass
    : ChangeReportingPass<ConditionalCanonicalizerPass,
                          hlo::impl::HloConditionalCanonicalizerBase> {
  void run() {
    ModuleOp module = getOperation();
    SmallVector<ConditionalOp> conds;
    for (ComputationOp comp : nonFusionComputations(module))
      comp.walk([&](ConditionalOp cond) { conds.push_back(cond); });
    if (conds.empty())
      return;

    // The computations some instruction other than a conditional names.
    llvm::DenseSet<StringAttr> calledElsewhere;
    module.walk([&](Operation *op) {
      if (isa<ConditionalOp>(op))
        return;
      for (NamedAttribute attr : op->getAttrs())
        attr.getValue().walk([&](SymbolRefAttr ref) {
          calledElsewhere.insert(ref.getRootReference());
        });
    });

    SymbolTable symbols(module);
    DenseMap<StringAttr, ComputationOp> copies;
    llvm::DenseSet<Operation *> done;
    for (ConditionalOp cond : conds) {
      SmallVector<FlatSymbolRefAttr> refs = cond.getBranches();
      SmallVector<Attribute> newRefs;
      bool renamed = false;
      for (FlatSymbolRefAttr ref : refs) {
        auto branch = symbols.lookup<ComputationOp>(ref.getAttr());
        if (!isCanonical(branch) && calledElsewhere.contains(ref.getAttr())) {
          ComputationOp &copy = copies[ref.getAttr()];
          if (!copy) {
            copy = cast<ComputationOp>(branch->clone());
            copy.setPrivate();
            copy.setEntry(false);
            symbols.insert(copy, std::next(Block::iterator(branch)));
            ++numBranchesCopied;
          }
          branch = copy;
          renamed = true;
        }
        if (done.insert(branch).second && !isCanonical(branch)) {
          canonicalizeBranch(branch);
          changed = true;
        }
        newRefs.push_back(FlatSymbolRefAttr::get(branch.getSymNameAttr()));
      }
      if (renamed) {
        if (cond.getBranchComputations()) {
          cond.setBranchComputationsAttr(
              ArrayAttr::get(cond.getContext(), newRefs));
        } else {
          cond.setTrueComputationAttr(cast<FlatSymbolRefAttr>(newRefs[0]));
          cond.setFalseComputationAttr(cast<FlatSymbolRefAttr>(newRefs[1]));
        }
        changed = true;
      }
      if (canonicalizeCall(cond)) {
        ++numCanonicalized;
        changed = true;
      }
    }
  }
};
} // namespace
