//===- AllReduceReassociate.cpp - one all-reduce of a combination ---------===//
//
// XLA's AllReduceReassociate (XLA-GPU's "collective-optimizations", after
// the all-reduce folder): an elementwise reduction of two all-reduces that
// reduce the same way is one all-reduce of the reduction:
//
//   add(all-reduce(x), all-reduce(y)) -> all-reduce(add(x, y))
//
// The instruction (add, multiply, minimum or maximum; and, or of pred) must
// be the all-reduces' own reduction, and the all-reduces must agree on
// channel or not, global device ids, replica groups and
// `collective_group_key`; each has that one user. Between an all-reduce and
// the instruction may stand single-user reshapes, slices and pads whose
// padding value is the reduction's identity (they then apply to x and y);
// taken only when the all-reduces move at least as many elements as the
// new one (a pad could make it bigger). The new all-reduce takes the first
// one's name and attributes, and a new channel id where it has one (as XLA
// 0.10.2). Chains and trees of reductions become one all-reduce in one
// run: instructions are visited in program order and see the all-reduces
// made before them.
//
// XLA's form through dynamic-slices of the all-reduces at the same start
// indices, whose offsets may differ from device to device:
//
//   add(ds(all-reduce(x), s), ds(all-reduce(y), s))
//     -> ds(all-reduce(add(x, y)), s)
//
// which hlo-reduce-scatter-creator then makes one reduce-scatter.
//
// With `reassociate-converted` (XLA-GPU's default), a value-preserving
// convert right on each all-reduce may stand between it and the
// instruction: the sum is then reduced in the wide type, with a promoted
// reducer `<reducer>_reassoc_promoted`. The module is left alone when an
// all-reduce has a constrained layout (XLA).
//
//===----------------------------------------------------------------------===//

#include "CollectiveCombinerUtils.h"
#include "CollectiveOptUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "ReductionUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOALLREDUCEREASSOCIATE
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// True if every value of `from` is one of `to` (XLA's CastPreservesValues,
/// for floats and integers).
static bool preservesValues(Type from, Type to) {
  if (from == to)
    return true;
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  if (fromFloat && toFloat)
    return APFloat::isRepresentableBy(fromFloat.getFloatSemantics(),
                                      toFloat.getFloatSemantics());
  auto fromInt = dyn_cast<IntegerType>(from);
  auto toInt = dyn_cast<IntegerType>(to);
  if (!fromInt || !toInt || fromInt.getWidth() == 1)
    return false;
  if (fromInt.isUnsigned() == toInt.isUnsigned())
    return toInt.getWidth() >= fromInt.getWidth();
  return fromInt.isUnsigned() && toInt.getWidth() > fromInt.getWidth();
}

/// The all-reduce `v` comes from through single-user reshapes, slices and
/// pads by `inst`'s identity, itself of one user, or through one
/// single-user convert right on it (then `convert`); else null.
static AllReduceOp lookThrough(Value v, Operation *inst, ConvertOp &convert) {
  if (auto c = v.getDefiningOp<ConvertOp>()) {
    auto ar = c.getOperand().getDefiningOp<AllReduceOp>();
    if (!ar || !hasOneUser(v) || !hasOneUser(c.getOperand()) ||
        hasControlEdges(c) || hasControlEdges(ar))
      return nullptr;
    convert = c;
    return ar;
  }
  while (true) {
    Operation *def = v.getDefiningOp();
    if (!def || !hasOneUser(v) || hasControlEdges(def))
      return nullptr;
    if (auto allReduce = dyn_cast<AllReduceOp>(def))
      return allReduce;
    if (auto pad = dyn_cast<PadOp>(def)) {
      if (!isIdentityOf(inst, pad.getPaddingValue()))
        return nullptr;
    } else if (!isa<ReshapeOp, SliceOp>(def)) {
      return nullptr;
    }
    v = def->getOperand(0);
  }
}

static int64_t elements(Value v) {
  return cast<RankedTensorType>(v.getType()).getNumElements();
}

/// The dynamic-slice `v` is, of an all-reduce (each with one user and no
/// control edges); else null.
static DynamicSliceOp sliceOfAllReduce(Value v) {
  auto ds = v.getDefiningOp<DynamicSliceOp>();
  if (!ds || !hasOneUser(v) || hasControlEdges(ds))
    return nullptr;
  auto ar = ds.getOperand().getDefiningOp<AllReduceOp>();
  if (!ar || !hasOneUser(ar.getResult()) || hasControlEdges(ar))
    return nullptr;
  return ds;
}

namespace {
struct AllReduceReassociatePass
    : ChangeReportingPass<AllReduceReassociatePass,
                          hlo::impl::HloAllReduceReassociateBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    if (hasConstrainedLayout<AllReduceOp>(module))
      return;
    SymbolTable symbols(module);
    nextChannel = nextChannelId(module);
    int64_t n = rewriteCollectiveReductions(
        module, [&](Operation *inst) { return reassociate(inst, symbols); });
    numReassociated += n;
    changed = n > 0;
  }

  bool reassociate(Operation *inst, SymbolTable &symbols) {
    if (!isStaticArray(inst->getResult(0).getType()) || hasControlEdges(inst))
      return false;
    if (reassociateSlices(inst, symbols))
      return true;
    ConvertOp convert0, convert1;
    AllReduceOp ar0 = lookThrough(inst->getOperand(0), inst, convert0);
    AllReduceOp ar1 = lookThrough(inst->getOperand(1), inst, convert1);
    if (!ar0 || !ar1)
      return false;
    // Through converts (XLA-GPU's converted all-reduces): reduced in the
    // wide type, each convert value-preserving and from the same type.
    Type wide = getElementTypeOrSelf(inst->getResult(0).getType());
    bool promoted = convert0 || convert1;
    if (promoted) {
      if (!reassociateConverted)
        return false;
      Type from = nullptr;
      for (ConvertOp c : {convert0, convert1}) {
        if (!c)
          continue;
        Type narrow = getElementTypeOrSelf(c.getOperand().getType());
        if (!preservesValues(narrow, wide) || (from && from != narrow))
          return false;
        from = narrow;
      }
    }
    if (!reduceAlike(ar0, ar1, inst, symbols, promoted, wide))
      return false;
    Value result = inst->getResult(0);
    int64_t moved = elements(ar0.getResult()) +
                    (ar0 != ar1 ? elements(ar1.getResult()) : 0);
    if (moved < elements(result))
      return false;

    SmallVector<OpOperand *> uses =
        llvm::map_to_vector(result.getUses(), [](OpOperand &u) { return &u; });
    ar0.getResult().replaceAllUsesWith(ar0.getInputs()[0]);
    if (ar1 != ar0)
      ar1.getResult().replaceAllUsesWith(ar1.getInputs()[0]);
    OpBuilder b(inst->getContext());
    b.setInsertionPointAfter(inst);
    AllReduceOp combined = cloneOn(b, ar0, result);
    if (promoted)
      combined.setToApplyAttr(retypedReducer(symbols, ar0.getToApplyAttr(),
                                             wide, "_reassoc_promoted", inst));
    for (OpOperand *use : uses)
      use->set(combined.getResult());
    ar0->erase();
    if (ar1 != ar0)
      ar1->erase();
    return true;
  }

  /// True if `ar0` and `ar1` are the same kind of all-reduce (channel or
  /// not, global ids, groups, group key), reducing with `inst`'s op (and
  /// type, unless `promoted`: reduced in `wide`).
  static bool reduceAlike(AllReduceOp ar0, AllReduceOp ar1, Operation *inst,
                          SymbolTable &symbols, bool promoted, Type wide) {
    std::optional<std::string> key0 = collectiveKey(ar0, ""),
                               key1 = collectiveKey(ar1, "");
    std::optional<std::string> kind0 =
                                   reductionKind(symbols, ar0.getToApplyAttr()),
                               kind1 =
                                   reductionKind(symbols, ar1.getToApplyAttr());
    auto comp = symbols.lookup<ComputationOp>(ar0.getToApply());
    if (!key0 || key0 != key1 || !kind0 || !kind1 || !comp ||
        collectiveGroupKey(ar0) != collectiveGroupKey(ar1))
      return false;
    Operation *root = comp.getRootValue().getDefiningOp();
    return root->getName() == inst->getName() &&
           StringRef(*kind0).split(' ').first ==
               StringRef(*kind1).split(' ').first &&
           (promoted ||
            (kind0 == kind1 &&
             getElementTypeOrSelf(root->getResult(0).getType()) == wide));
  }

  /// A clone of `ar` at `b` reducing `input`, with a new channel id where
  /// `ar` has one.
  AllReduceOp cloneOn(OpBuilder &b, AllReduceOp ar, Value input) {
    auto combined = cast<AllReduceOp>(b.clone(*ar));
    combined->setOperand(0, input);
    combined.getResult().setType(input.getType());
    if (combined.getChannelId())
      combined.setChannelId(nextChannel++);
    return combined;
  }

  /// op(ds(all-reduce(x), s), ds(all-reduce(y), s)) with the same start
  /// indices and sizes -> ds(all-reduce(op(x, y)), s): `inst` becomes
  /// op(x, y) and keeps its name, the all-reduce and the slice follow.
  bool reassociateSlices(Operation *inst, SymbolTable &symbols) {
    DynamicSliceOp ds0 = sliceOfAllReduce(inst->getOperand(0));
    DynamicSliceOp ds1 = sliceOfAllReduce(inst->getOperand(1));
    if (!ds0 || !ds1 || ds0.getStartIndices() != ds1.getStartIndices() ||
        ds0.getDynamicSliceSizes() != ds1.getDynamicSliceSizes())
      return false;
    auto ar0 = ds0.getOperand().getDefiningOp<AllReduceOp>();
    auto ar1 = ds1.getOperand().getDefiningOp<AllReduceOp>();
    Value x = ar0.getInputs()[0], y = ar1.getInputs()[0];
    if (x.getType() != y.getType() || !isStaticArray(x.getType()) ||
        !reduceAlike(ar0, ar1, inst, symbols, /*promoted=*/false,
                     getElementTypeOrSelf(inst->getResult(0).getType())))
      return false;
    Value result = inst->getResult(0);
    SmallVector<OpOperand *> uses =
        llvm::map_to_vector(result.getUses(), [](OpOperand &u) { return &u; });
    inst->setOperands({x, y});
    result.setType(x.getType());
    OpBuilder b(inst->getContext());
    b.setInsertionPointAfter(inst);
    AllReduceOp combined = cloneOn(b, ar0, result);
    auto slice = cast<DynamicSliceOp>(b.clone(*ds0));
    slice.getOperandMutable().assign(combined.getResult());
    for (OpOperand *use : uses)
      use->set(slice.getResult());
    // The same slice (or all-reduce) on both sides is erased once.
    ds0->erase();
    if (ds1 != ds0)
      ds1->erase();
    ar0->erase();
    if (ar1 != ar0)
      ar1->erase();
    return true;
  }

  int64_t nextChannel = 1;
};
} // namespace
