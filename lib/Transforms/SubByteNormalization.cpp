//===- SubByteNormalization.cpp - packed element sizes in layouts ---------===//
//
// XLA's SubByteNormalization ("sub-byte-size-setter"), which XLA-GPU runs in
// its SET_ELEMENT_SIZE mode three times: after the dot passes of its
// optimization pipeline, right after layout assignment, and at the end of
// "hlo normalization". An array whose elements are stored packed (2- and
// 4-bit types, `getPackedElementBits`) gets that width as its layout's
// element size, `u4[64,32]{1,0:E(4)}`; every other array an element size of
// 0. REMOVE_ELEMENT_SIZE (`remove`) sets every element size to 0.
//
// As XLA's pass does, it rewrites the shape of every instruction of every
// computation, fused ones too (XLA's verifier checks element sizes there),
// and the ENTRY computation layout; here that is every result and block
// argument, each computation's signature and `hlo.entry_computation_layout`.
// An array without a layout is in the default layout, so a packed one gets
// the default layout with its element size. Layouts only: what the module
// computes does not change, and each distinct type is rewritten once.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Transforms/GpuLayoutPasses.h"
#include "LayoutUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSUBBYTESIZESETTER
#include "Hlo/Transforms/GpuLayoutPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
/// The types of a module with their element sizes set (or removed), each
/// distinct type computed once.
class ElementSizes {
public:
  ElementSizes(MLIRContext *ctx, bool remove) : ctx(ctx), remove(remove) {}

  Type operator()(Type type) {
    if (Type known = cache.lookup(type))
      return known;
    // (computed before the insertion: a tuple's elements enter the cache
    // first, which may move its entries)
    Type updated = compute(type);
    cache[type] = updated;
    return updated;
  }

private:
  Type compute(Type type) {
    if (auto tuple = dyn_cast<TupleType>(type))
      return TupleType::get(ctx, map(tuple.getTypes()));
    if (auto fn = dyn_cast<FunctionType>(type))
      return FunctionType::get(ctx, map(fn.getInputs()), map(fn.getResults()));
    auto array = dyn_cast<RankedTensorType>(type);
    if (!array)
      return type;
    return withElementSize(
        array, remove ? 0 : getPackedElementBits(array.getElementType()));
  }

  SmallVector<Type> map(TypeRange types) {
    return llvm::map_to_vector(types, [&](Type t) { return (*this)(t); });
  }

  MLIRContext *ctx;
  bool remove;
  DenseMap<Type, Type> cache;
};

struct SubByteNormalizationPass
    : ChangeReportingPass<SubByteNormalizationPass,
                          hlo::impl::HloSubByteSizeSetterBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    ElementSizes sizes(&getContext(), remove);
    auto update = [&](Value v) {
      Type type = sizes(v.getType());
      if (type == v.getType())
        return;
      v.setType(type);
      ++numUpdated;
      changed = true;
    };
    for (ComputationOp comp : module.getOps<ComputationOp>()) {
      comp.walk([&](Operation *op) {
        for (Region &region : op->getRegions())
          for (Block &block : region)
            for (BlockArgument arg : block.getArguments())
              update(arg);
        for (Value r : op->getResults())
          update(r);
      });
      FunctionType fn = comp.getFunctionType();
      auto updated = cast<FunctionType>(sizes(fn));
      if (updated != fn) {
        comp.setFunctionTypeAttr(TypeAttr::get(updated));
        changed = true;
      }
    }
    StringRef name = "hlo.entry_computation_layout";
    if (auto attr = dyn_cast_or_null<TypeAttr>(module->getAttr(name))) {
      Type updated = sizes(attr.getValue());
      if (updated != attr.getValue()) {
        module->setAttr(name, TypeAttr::get(updated));
        changed = true;
      }
    }
  }
};
} // namespace
