//===- LlvmNarrowFloats.cpp - hlo-llvm-narrow-floats-as-integers ----------===//
//
// On the host JIT's LLVM dialect, f16 and bf16 values that only move
// (loads, stores, selects, phis, constants, bit casts, vector element
// moves) become i16 values, so that LLVM's x86 code generator, which keeps
// such floats promoted and miscompiles some of their selects (LLVM 22), sees
// none. See the pass description (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOLLVMNARROWFLOATSASINTEGERS
#include "Hlo/Conversion/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;

namespace {

/// The integer type of `t`'s bits where `t` is f16 or bf16 or a vector of
/// them, else null.
Type asInteger(Type t) {
  auto element = [](Type e) -> Type {
    return isa<Float16Type, BFloat16Type>(e)
               ? IntegerType::get(e.getContext(), 16)
               : Type();
  };
  if (Type i = element(t))
    return i;
  if (auto v = dyn_cast<VectorType>(t))
    if (Type i = element(v.getElementType()))
      return v.clone(i);
  return nullptr;
}

/// Ops that move their values without reading them as numbers: integers of
/// the same bits serve them alike.
bool movesOnly(Operation *op) {
  return isa<LLVM::LoadOp, LLVM::StoreOp, LLVM::SelectOp, LLVM::FreezeOp,
             LLVM::PoisonOp, LLVM::UndefOp, LLVM::ZeroOp, LLVM::ConstantOp,
             LLVM::BitcastOp, LLVM::BrOp, LLVM::CondBrOp, LLVM::SwitchOp,
             LLVM::ExtractElementOp, LLVM::InsertElementOp,
             LLVM::ShuffleVectorOp>(op);
}

/// The same bits as an integer constant attribute of type `type`, or null.
Attribute integerBits(Attribute value, Type type) {
  if (auto f = dyn_cast<FloatAttr>(value))
    return IntegerAttr::get(type, f.getValue().bitcastToAPInt());
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    return dense.bitcast(cast<VectorType>(type).getElementType());
  return nullptr;
}

void convert(LLVM::LLVMFuncOp func) {
  if (func.isExternal())
    return;
  // The values to retype (non-entry block arguments and the results of ops
  // that only move), and the uses that must see the other type after.
  SmallVector<Value> retyped;
  SmallVector<OpOperand *> toFloat, toInteger;
  auto note = [&](Value v, bool retype) {
    if (!asInteger(v.getType()))
      return;
    if (retype)
      retyped.push_back(v);
    for (OpOperand &use : v.getUses())
      if (retype != movesOnly(use.getOwner()))
        (retype ? toFloat : toInteger).push_back(&use);
  };
  Block *entry = &func.getBody().front();
  func.walk([&](Operation *op) {
    bool moves = movesOnly(op);
    if (auto constant = dyn_cast<LLVM::ConstantOp>(op))
      moves = asInteger(constant.getType()) &&
              integerBits(constant.getValue(), asInteger(constant.getType()));
    for (Value result : op->getResults())
      note(result, moves);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (&block != entry)
          for (BlockArgument arg : block.getArguments())
            note(arg, true);
  });
  DenseMap<Value, Type> narrowTypes;
  for (Value v : retyped) {
    narrowTypes[v] = v.getType();
    v.setType(asInteger(v.getType()));
    if (auto constant = v.getDefiningOp<LLVM::ConstantOp>())
      constant.setValueAttr(integerBits(constant.getValue(), v.getType()));
  }
  OpBuilder b(func.getContext());
  for (OpOperand *use : toFloat) {
    b.setInsertionPoint(use->getOwner());
    Value v = use->get();
    use->set(LLVM::BitcastOp::create(b, v.getLoc(), narrowTypes.lookup(v), v));
  }
  DenseMap<Value, Value> asInt;
  for (OpOperand *use : toInteger) {
    Value v = use->get();
    Value &i = asInt[v];
    if (!i) {
      b.setInsertionPointAfterValue(v);
      i = LLVM::BitcastOp::create(b, v.getLoc(), asInteger(v.getType()), v);
    }
    use->set(i);
  }
  // Bit casts between equal types (i16 -> bf16 -> i16 was a round trip).
  func.walk([](LLVM::BitcastOp cast) {
    if (cast.getArg().getType() == cast.getType()) {
      cast.replaceAllUsesWith(cast.getArg());
      cast.erase();
    }
  });
}

struct LlvmNarrowFloatsAsIntegersPass
    : hlo::impl::HloLlvmNarrowFloatsAsIntegersBase<
          LlvmNarrowFloatsAsIntegersPass> {
  void runOnOperation() override {
    getOperation().walk([](LLVM::LLVMFuncOp func) { convert(func); });
  }
};

} // namespace
