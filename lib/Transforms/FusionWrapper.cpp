//===- FusionWrapper.cpp - hlo-fusion-wrapper -----------------------------===//
//
// XLA's GPU FusionWrapper: every instruction left unfused that needs a
// kernel becomes a fusion of its own, so that each kernel of the program is
// a fusion's (hlo-to-gpu emits kernels for fusions only).
//
//===----------------------------------------------------------------------===//

#include "FusionUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "Hlo/Dialect/Hlo/HloTopKCalls.h"
#include "Hlo/Transforms/GpuFusionPasses.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOFUSIONWRAPPER
#include "Hlo/Transforms/GpuFusionPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// Instructions that run as a kernel of their own when no fusion took
/// them.
bool needsKernel(Operation *op, bool topkKernel) {
  // XLA-GPU's top-k kernel call (hlo-topk-specializer's): the emitted
  // kernel's when asked for or when thunk.top_k cannot take it.
  if (auto call = dyn_cast<CustomCallOp>(op);
      call && call.getCustomCallTarget() == "__gpu$TopK") {
    std::string why;
    FailureOr<TopKCall> topk = readTopKCall(call, why);
    return topkKernel || failed(topk) || !isTopKKernelCall(*topk, why);
  }
  if (isa<ConstantOp, TupleOp, GetTupleElementOp, BitcastOp, CopyOp,
          CustomCallOp, FusionOp, WhileOp, ConditionalOp, CallOp, ReturnOp,
          DomainOp, ReplicaIdOp, PartitionIdOp, GetDimensionSizeOp,
          SetDimensionSizeOp, FftOp, TriangularSolveOp, CholeskyOp>(op))
    return false;
  // Collectives, async pairs, host transfers, rng state: their thunks are
  // not kernels (every such op has side effects in the dialect).
  if (op->getNumResults() != 1 || !isMemoryEffectFree(op))
    return false;
  // Arrays in and out (a variadic reduce's tuple of arrays too).
  auto isStaticArray = [](Type t) {
    auto array = dyn_cast<RankedTensorType>(t);
    return array && array.hasStaticShape();
  };
  Type type = op->getResult(0).getType();
  auto tuple = dyn_cast<TupleType>(type);
  return (tuple ? llvm::all_of(tuple.getTypes(), isStaticArray)
                : isStaticArray(type)) &&
         llvm::all_of(getDataOperands(op).getTypes(), isStaticArray);
}

/// An iota whose only users are sorts: fused into their kernels.
bool isFusedIntoSorts(Operation *op) {
  return isa<IotaOp>(op) && !op->use_empty() &&
         llvm::all_of(op->getUsers(),
                      [](Operation *user) { return isa<SortOp>(user); });
}

struct FusionWrapperPass
    : ChangeReportingPass<FusionWrapperPass, hlo::impl::HloFusionWrapperBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SymbolTableCollection tables;
    llvm::StringMap<unsigned> suffixes;
    for (ComputationOp comp : getFusibleComputations(module, symbols)) {
      SmallVector<Operation *> wrap;
      for (Operation &op : comp.getBody().front())
        if (needsKernel(&op, topkKernel) && !isFusedIntoSorts(&op))
          wrap.push_back(&op);
      for (Operation *op : wrap) {
        std::string opcode = isa<CustomCallOp>(op) ? "topk" : getOpcode(op);
        bool input = isa<ReduceOp, ScatterOp>(op);
        // The fusion keeps the instruction's source location and metadata.
        Location where = unnamed(op->getLoc());
        FusionOp fusion = wrapInFusion(op, symbols, tables, comp);
        MLIRContext *ctx = fusion.getContext();
        auto fused = symbols.lookup<ComputationOp>(fusion.getCalls());
        // A variadic reduce's results leave the fused computation as a
        // tuple of its elements (the emitters' multi-output form).
        Value root = fused.getRootValue();
        if (auto tuple = dyn_cast<TupleType>(root.getType())) {
          Operation *ret = fused.getBody().front().getTerminator();
          OpBuilder b(ret);
          SmallVector<Value> elements;
          for (unsigned i = 0; i < tuple.size(); ++i)
            elements.push_back(createInferred<GetTupleElementOp>(
                b, ret->getLoc(), {root},
                {b.getNamedAttr("index", b.getI64IntegerAttr(i))}));
          ret->setOperand(0,
                          createInferred<TupleOp>(b, ret->getLoc(), elements));
        }
        // XLA's SortIotaFusion: a sort's iota operands are computed in its
        // kernel (the element generator), not in kernels of their own.
        // (A table of its own: `tables` does not see the renames below.)
        SymbolTableCollection fresh;
        if (isa<SortOp>(op))
          for (Value operand : llvm::to_vector(getDataOperands(fusion)))
            if (auto iota = operand.getDefiningOp<IotaOp>()) {
              fuseProducerInto(iota, fusion, fresh);
              if (iota->use_empty())
                iota->erase();
            }
        // Reductions and scatters are input fusions (their emitters');
        // the rest loops.
        setFusionConfig(fusion, input ? FusionKind::kInput : FusionKind::kLoop);
        // Renamed in the table only: the fusion is its one user.
        symbols.remove(fused);
        fused.setSymName(uniqueSymbolName("wrapped_" + opcode + "_computation",
                                          symbols, suffixes));
        symbols.insert(fused);
        fusion.setCallsAttr(FlatSymbolRefAttr::get(fused.getSymNameAttr()));
        fusion->setLoc(
            NameLoc::get(StringAttr::get(ctx, "wrapped_" + opcode), where));
        ++numWrapped;
        changed = true;
      }
    }
  }
};

} // namespace
