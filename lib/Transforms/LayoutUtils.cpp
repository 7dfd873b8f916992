//===- LayoutUtils.cpp - layouts for the GPU layout passes ----------------===//

#include "LayoutUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::hlo;

SmallVector<int64_t> mlir::hlo::defaultMinorToMajor(int64_t rank) {
  SmallVector<int64_t> m2m;
  for (int64_t d = rank - 1; d >= 0; --d)
    m2m.push_back(d);
  return m2m;
}

bool mlir::hlo::isDefaultMinorToMajor(ArrayRef<int64_t> m2m) {
  int64_t rank = m2m.size();
  for (int64_t i = 0; i < rank; ++i)
    if (m2m[i] != rank - 1 - i)
      return false;
  return true;
}

bool mlir::hlo::hasNaturalElementSize(LayoutAttr layout, Type element) {
  int64_t size = layout.getElementSizeInBits();
  unsigned width = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
  return size == 0 || (width < 8 && size == width);
}

RankedTensorType mlir::hlo::withShapeOf(RankedTensorType type,
                                        ArrayRef<int64_t> shape) {
  Type element = type.getElementType();
  auto layout = dyn_cast_or_null<LayoutAttr>(type.getEncoding());
  if (!layout || !layout.getElementSizeInBits() ||
      !hasNaturalElementSize(layout, element))
    return RankedTensorType::get(shape, element);
  MLIRContext *ctx = type.getContext();
  return RankedTensorType::get(shape, element,
                               LayoutAttr::get(ctx, /*hasMinorToMajor=*/false,
                                               {}, {}, {},
                                               layout.getElementSizeInBits(), 0,
                                               {}, StringAttr::get(ctx, "")));
}

bool mlir::hlo::hasPlainLayout(Type type) {
  auto rt = dyn_cast<RankedTensorType>(type);
  if (!rt)
    return false;
  Attribute encoding = rt.getEncoding();
  if (!encoding)
    return true;
  auto layout = dyn_cast<LayoutAttr>(encoding);
  return layout && layout.getTileSizes().empty() &&
         hasNaturalElementSize(layout, rt.getElementType()) &&
         layout.getMemorySpace() == 0 &&
         (!layout.getExtra() || layout.getExtra().getValue().empty());
}

RankedTensorType mlir::hlo::withElementSize(RankedTensorType type,
                                            int64_t bits) {
  MLIRContext *ctx = type.getContext();
  Attribute encoding = type.getEncoding();
  auto layout = dyn_cast_or_null<LayoutAttr>(encoding);
  if ((encoding && !layout) || (!layout && !bits) ||
      (layout && layout.getElementSizeInBits() == bits))
    return type;
  if (!layout)
    return RankedTensorType::get(
        type.getShape(), type.getElementType(),
        LayoutAttr::get(ctx, /*hasMinorToMajor=*/true,
                        defaultMinorToMajor(type.getRank()), {}, {}, bits,
                        /*memorySpace=*/0, {}, StringAttr::get(ctx, "")));
  SmallVector<int64_t> m2m(layout.getMinorToMajor());
  bool hasMinorToMajor = layout.getHasMinorToMajor();
  if (bits && !hasMinorToMajor) {
    m2m = defaultMinorToMajor(type.getRank());
    hasMinorToMajor = true;
  }
  return RankedTensorType::get(
      type.getShape(), type.getElementType(),
      LayoutAttr::get(ctx, hasMinorToMajor, m2m, layout.getTileSizes(),
                      layout.getTileData(), bits, layout.getMemorySpace(),
                      layout.getBounds(), layout.getExtra()));
}

Type mlir::hlo::withMinorToMajor(Type type, ArrayRef<int64_t> m2m) {
  auto rt = dyn_cast<RankedTensorType>(type);
  if (!rt || rt.getRank() == 0 || int64_t(m2m.size()) != rt.getRank())
    return type;
  MLIRContext *ctx = type.getContext();
  ArrayRef<int64_t> bounds;
  int64_t memorySpace = 0, elementSize = 0;
  if (auto old = dyn_cast_or_null<LayoutAttr>(rt.getEncoding())) {
    bounds = old.getBounds();
    memorySpace = old.getMemorySpace();
    if (hasNaturalElementSize(old, rt.getElementType()))
      elementSize = old.getElementSizeInBits();
  }
  // The importer's spelling of the same layout (an empty `extra`), so that
  // equal layouts are equal types.
  auto layout =
      LayoutAttr::get(ctx, /*hasMinorToMajor=*/true, m2m, {}, {}, elementSize,
                      memorySpace, bounds, StringAttr::get(ctx, ""));
  return RankedTensorType::get(rt.getShape(), rt.getElementType(), layout);
}

Type mlir::hlo::withMemorySpace(Type type, int64_t space) {
  auto rt = dyn_cast<RankedTensorType>(type);
  if (!rt)
    return type;
  MLIRContext *ctx = type.getContext();
  auto old = dyn_cast_or_null<LayoutAttr>(rt.getEncoding());
  SmallVector<int64_t> m2m = getMinorToMajor(rt);
  auto layout =
      old ? LayoutAttr::get(ctx, /*hasMinorToMajor=*/true, m2m,
                            old.getTileSizes(), old.getTileData(),
                            old.getElementSizeInBits(), space, old.getBounds(),
                            old.getExtra())
          : LayoutAttr::get(ctx, /*hasMinorToMajor=*/true, m2m, {}, {}, 0,
                            space, {}, StringAttr::get(ctx, ""));
  return RankedTensorType::get(rt.getShape(), rt.getElementType(), layout);
}

Type mlir::hlo::withDefaultLayouts(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    SmallVector<Type> elements;
    for (Type t : tuple.getTypes())
      elements.push_back(withDefaultLayouts(t));
    return TupleType::get(type.getContext(), elements);
  }
  if (auto rt = dyn_cast<RankedTensorType>(type))
    return withMinorToMajor(type, defaultMinorToMajor(rt.getRank()));
  return type;
}

bool mlir::hlo::sameLayouts(Type a, Type b) {
  auto ta = dyn_cast<TupleType>(a), tb = dyn_cast<TupleType>(b);
  if (ta || tb) {
    if (!ta || !tb || ta.size() != tb.size())
      return false;
    for (auto [x, y] : llvm::zip(ta.getTypes(), tb.getTypes()))
      if (!sameLayouts(x, y))
        return false;
    return true;
  }
  auto ra = dyn_cast<RankedTensorType>(a), rb = dyn_cast<RankedTensorType>(b);
  if (!ra || !rb)
    return true;
  return getMinorToMajor(ra) == getMinorToMajor(rb);
}

SmallVector<int64_t> mlir::hlo::deleteDimensions(ArrayRef<int64_t> m2m,
                                                 ArrayRef<int64_t> removed) {
  SmallVector<int64_t> out;
  for (int64_t d : m2m)
    if (!llvm::is_contained(removed, d))
      out.push_back(d -
                    llvm::count_if(removed, [&](int64_t r) { return r < d; }));
  return out;
}

SmallVector<int64_t> mlir::hlo::physicalShape(RankedTensorType type) {
  SmallVector<int64_t> m2m = getMinorToMajor(type);
  SmallVector<int64_t> dims;
  for (int64_t d : llvm::reverse(m2m))
    dims.push_back(type.getDimSize(d));
  return dims;
}

RankedTensorType mlir::hlo::normalizedType(RankedTensorType type) {
  SmallVector<int64_t> dims = physicalShape(type);
  return cast<RankedTensorType>(withMinorToMajor(
      withShapeOf(type, dims), defaultMinorToMajor(dims.size())));
}

SmallVector<int64_t>
mlir::hlo::transposeResultLayout(ArrayRef<int64_t> operandM2M,
                                 ArrayRef<int64_t> perm) {
  SmallVector<int64_t> resultOf = inversePermutation(perm);
  SmallVector<int64_t> m2m;
  for (int64_t d : operandM2M)
    m2m.push_back(resultOf[d]);
  return m2m;
}

SmallVector<int64_t>
mlir::hlo::transposeOperandLayout(ArrayRef<int64_t> resultM2M,
                                  ArrayRef<int64_t> perm) {
  SmallVector<int64_t> m2m;
  for (int64_t d : resultM2M)
    m2m.push_back(perm[d]);
  return m2m;
}

bool mlir::hlo::samePhysicalOrder(ArrayRef<int64_t> shape, ArrayRef<int64_t> a,
                                  ArrayRef<int64_t> b) {
  auto nonDegenerate = [&](ArrayRef<int64_t> m2m) {
    SmallVector<int64_t> kept;
    for (int64_t d : m2m)
      if (shape[d] != 1)
        kept.push_back(d);
    return kept;
  };
  return nonDegenerate(a) == nonDegenerate(b);
}

std::optional<SmallVector<int64_t>>
mlir::hlo::alignLayout(ArrayRef<int64_t> from, ArrayRef<int64_t> fromM2M,
                       ArrayRef<int64_t> to) {
  for (int64_t s : llvm::concat<const int64_t>(from, to))
    if (ShapedType::isDynamic(s))
      return std::nullopt;
  if (llvm::is_contained(from, 0) || llvm::is_contained(to, 0))
    return defaultMinorToMajor(to.size());
  SmallVector<int64_t> fromDims, toDims;
  for (auto [d, s] : llvm::enumerate(from))
    if (s != 1)
      fromDims.push_back(d);
  for (auto [d, s] : llvm::enumerate(to))
    if (s != 1)
      toDims.push_back(d);
  // Physical position (0 = most minor) of each non-degenerate dimension.
  SmallVector<int64_t> pos(from.size(), -1);
  int64_t p = 0;
  for (int64_t d : fromM2M)
    if (from[d] != 1)
      pos[d] = p++;
  // Groups of consecutive dimensions of equal products.
  struct Group {
    SmallVector<int64_t> from, to;
  };
  SmallVector<Group> groups;
  size_t i = 0, j = 0;
  while (i < fromDims.size() || j < toDims.size()) {
    Group g;
    int64_t pf = 1, pt = 1;
    do {
      if ((pf <= pt && i < fromDims.size()) || j >= toDims.size()) {
        if (i >= fromDims.size())
          return std::nullopt;
        pf *= from[fromDims[i]];
        g.from.push_back(fromDims[i++]);
      } else {
        pt *= to[toDims[j]];
        g.to.push_back(toDims[j++]);
      }
    } while (pf != pt);
    groups.push_back(std::move(g));
  }
  // Each group of the source must be physically contiguous in row-major
  // order; the groups keep their physical order in the result.
  SmallVector<std::pair<int64_t, size_t>> order;
  for (auto [k, g] : llvm::enumerate(groups)) {
    int64_t minor = pos[g.from.back()];
    for (size_t t = 0; t < g.from.size(); ++t)
      if (pos[g.from[g.from.size() - 1 - t]] != minor + int64_t(t))
        return std::nullopt;
    order.push_back({minor, k});
  }
  llvm::sort(order);
  SmallVector<int64_t> m2m;
  for (auto [minor, k] : order)
    for (int64_t d : llvm::reverse(groups[k].to))
      m2m.push_back(d);
  // Size-1 dimensions: just more major than the nearest higher dimension.
  for (auto [d, s] : llvm::enumerate(to)) {
    if (s != 1)
      continue;
    int64_t best = -1;
    for (auto [k, e] : llvm::enumerate(m2m))
      if (e > int64_t(d) && (best < 0 || e < m2m[best]))
        best = k;
    m2m.insert(m2m.begin() + (best + 1), d);
  }
  return m2m;
}

bool mlir::hlo::reshapeIsBitcast(RankedTensorType in, RankedTensorType out) {
  if (in.getElementType() != out.getElementType() || !in.hasStaticShape() ||
      !out.hasStaticShape())
    return false;
  std::optional<SmallVector<int64_t>> aligned =
      alignLayout(in.getShape(), getMinorToMajor(in), out.getShape());
  if (!aligned)
    return false;
  if (in.getNumElements() == 0)
    return true;
  return samePhysicalOrder(out.getShape(), *aligned, getMinorToMajor(out));
}

bool mlir::hlo::sameArrayType(Type a, Type b) {
  if (a == b)
    return true;
  auto ra = dyn_cast<RankedTensorType>(a), rb = dyn_cast<RankedTensorType>(b);
  if (!ra || !rb || ra.getShape() != rb.getShape() ||
      ra.getElementType() != rb.getElementType() || !hasPlainLayout(ra) ||
      !hasPlainLayout(rb) || !ra.hasStaticShape())
    return false;
  return getMinorToMajor(ra) == getMinorToMajor(rb);
}

static Location namedLoc(Location loc, StringRef name) {
  return NameLoc::get(StringAttr::get(loc.getContext(), name), derivedLoc(loc));
}

Value mlir::hlo::createBitcast(OpBuilder &b, Location loc, Value v, Type type) {
  if (v.getType() == type)
    return v;
  return createInstruction(b, namedLoc(loc, "bitcast"),
                           BitcastOp::getOperationName(), type, {v})
      ->getResult(0);
}

Value mlir::hlo::createCopy(OpBuilder &b, Location loc, Value v, Type type) {
  return createInstruction(b, namedLoc(loc, "copy"), CopyOp::getOperationName(),
                           type, {v})
      ->getResult(0);
}

Value mlir::hlo::createTranspose(OpBuilder &b, Location loc, Value v,
                                 ArrayRef<int64_t> perm, Type type) {
  return createInstruction(
             b, namedLoc(loc, "transpose"), TransposeOp::getOperationName(),
             type, {v},
             {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(perm))})
      ->getResult(0);
}

bool mlir::hlo::keepsOperandLayout(Operation *op) {
  if (isa<CopyOp>(op))
    return false;
  // Collectives that move whole arrays keep their layout too (NCCL moves
  // bytes); all-gather and reduce-scatter make their dimension major.
  return isElementwise(op) ||
         isa<SliceOp, PadOp, ConcatenateOp, ReverseOp, DynamicSliceOp,
             DynamicUpdateSliceOp, ReduceWindowOp, ReducePrecisionOp,
             AllReduceOp, AllReduceStartOp, AllToAllOp, CollectivePermuteOp,
             CollectivePermuteStartOp, CollectiveBroadcastOp>(op);
}

SmallVector<int64_t> mlir::hlo::layoutFromOperands(Operation *op) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t rank = type.getRank();
  OperandRange data = getDataOperands(op);
  auto rankOf = [](Value v) {
    auto rt = dyn_cast<RankedTensorType>(v.getType());
    return rt ? rt.getRank() : -1;
  };
  if (keepsOperandLayout(op) || isa<CopyOp, ScatterOp>(op)) {
    for (Value v : data)
      if (rankOf(v) == rank)
        return getMinorToMajor(v.getType());
  } else if (auto t = dyn_cast<TransposeOp>(op)) {
    return transposeResultLayout(getMinorToMajor(data[0].getType()),
                                 t.getDimensions());
  } else if (auto g = dyn_cast<GetTupleElementOp>(op)) {
    auto tuple = cast<TupleType>(data[0].getType());
    Type element = tuple.getType(g.getIndex());
    if (isa<RankedTensorType>(element))
      return getMinorToMajor(element);
  } else if (isa<ReshapeOp>(op)) {
    auto in = cast<RankedTensorType>(data[0].getType());
    if (in.hasStaticShape() && type.hasStaticShape())
      if (std::optional<SmallVector<int64_t>> aligned =
              alignLayout(in.getShape(), getMinorToMajor(in), type.getShape()))
        return *aligned;
  } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
    ArrayRef<int64_t> reduced = reduce.getDimensions();
    SmallVector<int64_t> m2m;
    for (int64_t d : getMinorToMajor(data[0].getType())) {
      if (llvm::is_contained(reduced, d))
        continue;
      m2m.push_back(d -
                    llvm::count_if(reduced, [&](int64_t r) { return r < d; }));
    }
    if (int64_t(m2m.size()) == rank)
      return m2m;
  }
  return defaultMinorToMajor(rank);
}

/// True if `t` is an array of rank > 0 whose type writes no layout.
static bool lacksLayout(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  if (!rt || rt.getRank() == 0)
    return false;
  auto layout = dyn_cast_or_null<LayoutAttr>(rt.getEncoding());
  return !rt.getEncoding() || (layout && !layout.getHasMinorToMajor());
}

static bool tupleLacksLayout(Type t) {
  if (auto tuple = dyn_cast<TupleType>(t))
    return llvm::any_of(tuple.getTypes(), tupleLacksLayout);
  return lacksLayout(t);
}

bool mlir::hlo::assignMissingLayouts(ModuleOp module) {
  bool changed = false;
  for (ComputationOp comp : nonFusionComputations(module)) {
    // Only in computations laid out: elsewhere (no layout assignment ran)
    // a layout would leave the ROOT unlike the computation's result type.
    if (llvm::any_of(comp.getArgumentTypes(), tupleLacksLayout) ||
        llvm::any_of(comp.getResultTypes(), tupleLacksLayout))
      continue;
    for (Operation &op : comp.getBody().front().without_terminator()) {
      if (op.getNumResults() != 1)
        continue;
      Value r = op.getResult(0);
      Type type = r.getType();
      if (lacksLayout(type)) {
        r.setType(withMinorToMajor(type, layoutFromOperands(&op)));
        changed = true;
      } else if (isa<TupleOp>(op) && tupleLacksLayout(type)) {
        SmallVector<Type> elements;
        for (Value v : getDataOperands(&op))
          elements.push_back(v.getType());
        r.setType(TupleType::get(op.getContext(), elements));
        changed = true;
      }
    }
  }
  return changed;
}
