//===- RewriteUtils.cpp - helpers of the expanding passes -----------------===//

#include "RewriteUtils.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "LayoutUtils.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseSet.h"

#include <tuple>

using namespace mlir;
using namespace mlir::hlo;

SmallVector<ComputationOp> mlir::hlo::nonFusionComputations(ModuleOp module) {
  SymbolTable symbols(module);
  llvm::DenseSet<Operation *> fused;
  module.walk([&](FusionOp fusion) {
    if (Operation *callee = symbols.lookup(fusion.getCalls()))
      fused.insert(callee);
  });
  SmallVector<ComputationOp> comps;
  for (auto comp : module.getOps<ComputationOp>())
    if (!fused.contains(comp))
      comps.push_back(comp);
  return comps;
}

Value mlir::hlo::inlineComputation(OpBuilder &builder, ComputationOp callee,
                                   ValueRange inputs) {
  Block &body = callee.getBody().front();
  IRMapping mapping;
  mapping.map(body.getArguments(), inputs);
  for (Operation &op : body.without_terminator())
    builder.clone(op, mapping);
  return mapping.lookupOrDefault(callee.getRootValue());
}

void mlir::hlo::eraseUnreferencedComputations(
    ModuleOp module, const llvm::DenseSet<Operation *> &candidates,
    SymbolTable &symbols) {
  llvm::DenseSet<StringAttr> referenced;
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(&module.getBodyRegion()))
    for (const SymbolTable::SymbolUse &use : *uses)
      referenced.insert(use.getSymbolRef().getRootReference());
  for (Operation *op : candidates) {
    auto comp = cast<ComputationOp>(op);
    if (!comp.getEntry() && !referenced.contains(comp.getSymNameAttr()))
      symbols.erase(comp);
  }
}

/// The metadata dictionary `loc` carries (the importer puts it on a fused
/// location around the instruction's name), or null.
static Attribute findMetadata(Location loc) {
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    if (auto md = dyn_cast_or_null<DictionaryAttr>(fused.getMetadata()))
      return md;
    for (Location inner : fused.getLocations())
      if (Attribute md = findMetadata(inner))
        return md;
    return nullptr;
  }
  if (auto name = dyn_cast<NameLoc>(loc))
    return findMetadata(name.getChildLoc());
  return nullptr;
}

/// The source position `loc` carries (where the instruction is written),
/// or null.
static std::optional<FileLineColLoc> findFilePosition(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return file;
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location inner : fused.getLocations())
      if (std::optional<FileLineColLoc> file = findFilePosition(inner))
        return file;
    return std::nullopt;
  }
  if (auto name = dyn_cast<NameLoc>(loc))
    return findFilePosition(name.getChildLoc());
  return std::nullopt;
}

Location mlir::hlo::derivedLoc(Location loc) {
  MLIRContext *ctx = loc.getContext();
  // The source position stays too, for diagnostics.
  SmallVector<Location, 1> position;
  if (std::optional<FileLineColLoc> file = findFilePosition(loc))
    position.push_back(*file);
  if (Attribute md = findMetadata(loc))
    return FusedLoc::get(ctx, position, md);
  return position.empty() ? Location(UnknownLoc::get(ctx)) : position.front();
}

/// The keys XLA orders element types by, most important first.
static std::tuple<bool, int, int, unsigned, bool> precisionKey(Type type) {
  bool isComplex = false;
  if (auto complex = dyn_cast<ComplexType>(type)) {
    isComplex = true;
    type = complex.getElementType();
  }
  int range = -1, significand = -1;
  if (auto fp = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = fp.getFloatSemantics();
    range = llvm::APFloat::semanticsMaxExponent(sem) + 1;
    significand = static_cast<int>(llvm::APFloat::semanticsPrecision(sem));
  }
  unsigned width = type.getIntOrFloatBitWidth();
  auto integer = dyn_cast<IntegerType>(type);
  // s1 is `si1`; the other signed types are signless, i1 is pred.
  bool isSigned =
      integer && (integer.isSigned() || (integer.isSignless() && width > 1));
  return {isComplex, range, significand, width, isSigned};
}

Type mlir::hlo::higherPrecisionType(Type a, Type b) {
  if (a == b)
    return a;
  auto ka = precisionKey(a), kb = precisionKey(b);
  if (ka > kb)
    return a;
  if (kb > ka)
    return b;
  return nullptr;
}

bool mlir::hlo::isSignedInt(Type t, unsigned width) {
  auto i = dyn_cast<IntegerType>(t);
  return i && i.getWidth() == width && !i.isUnsigned();
}

bool mlir::hlo::isCublasSupportedMatMul(DotOp dot, bool allowMatrixVector) {
  auto lhs = dyn_cast<RankedTensorType>(dot.getLhs().getType());
  auto rhs = dyn_cast<RankedTensorType>(dot.getRhs().getType());
  auto result = dyn_cast<RankedTensorType>(dot.getType());
  if (!lhs || !rhs || !result)
    return false;
  // Whether an operand may be one: std::nullopt if not, else whether it is
  // a matrix (one free dimension of a size other than 1).
  auto side = [](RankedTensorType t, ArrayRef<int64_t> batch,
                 ArrayRef<int64_t> contracting) -> std::optional<bool> {
    if (contracting.size() != 1 || llvm::is_contained(batch, t.getRank() - 1))
      return std::nullopt;
    SmallVector<int64_t> free;
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (!llvm::is_contained(batch, d) && !llvm::is_contained(contracting, d))
        free.push_back(d);
    if (free.size() > 1)
      return std::nullopt;
    return free.size() == 1 && t.getDimSize(free.front()) != 1;
  };
  std::optional<bool> l = side(lhs, orEmpty(dot.getLhsBatchDims()),
                               orEmpty(dot.getLhsContractingDims()));
  std::optional<bool> r = side(rhs, orEmpty(dot.getRhsBatchDims()),
                               orEmpty(dot.getRhsContractingDims()));
  if (!l || !r)
    return false;
  int matrices = int(*l) + int(*r);
  if (matrices == 0 || (matrices == 1 && !allowMatrixVector))
    return false;
  Type out = result.getElementType();
  if (isa<Float8E4M3FNType, Float8E5M2Type>(out) || out.isF16() ||
      out.isBF16() || out.isF32() || out.isF64())
    return true;
  if (auto c = dyn_cast<ComplexType>(out))
    return c.getElementType().isF32() ||
           (c.getElementType().isF64() && matrices == 2);
  if (isSignedInt(out, 32))
    return isSignedInt(lhs.getElementType(), 8) &&
           isSignedInt(rhs.getElementType(), 8);
  return matrices == 2 && isa<Float8E3M4Type, Float8E4M3Type,
                              Float8E4M3FNUZType, Float8E5M2FNUZType>(out);
}

RankedTensorType mlir::hlo::withElementType(Type type, Type element) {
  auto ranked = cast<RankedTensorType>(type);
  auto result =
      RankedTensorType::get(ranked.getShape(), element, ranked.getEncoding());
  auto layout = dyn_cast_or_null<LayoutAttr>(ranked.getEncoding());
  if (!layout || !layout.getElementSizeInBits())
    return result;
  return withElementSize(result, getPackedElementBits(element));
}

/// A new private computation `name` applying `OpT` to two scalars of
/// `element` (parameters `scalar_lhs` and `scalar_rhs`), inserted into
/// `symbols` at `where` (renamed if the name is taken).
template <typename OpT>
static FlatSymbolRefAttr createScalarComputation(SymbolTable &symbols,
                                                 Type element, StringRef name,
                                                 Block::iterator where) {
  MLIRContext *ctx = element.getContext();
  auto scalar = RankedTensorType::get({}, element);
  OpBuilder b(ctx);
  auto comp = ComputationOp::create(
      b, UnknownLoc::get(ctx), name, b.getStringAttr("private"),
      b.getFunctionType({scalar, scalar}, {scalar}),
      /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr,
      /*entry=*/false, StringAttr());
  Block *body = new Block();
  comp.getBody().push_back(body);
  Value lhs =
      body->addArgument(scalar, NameLoc::get(b.getStringAttr("scalar_lhs")));
  Value rhs =
      body->addArgument(scalar, NameLoc::get(b.getStringAttr("scalar_rhs")));
  b.setInsertionPointToEnd(body);
  auto op = createInferred<OpT>(b, UnknownLoc::get(ctx), {lhs, rhs});
  ReturnOp::create(b, UnknownLoc::get(ctx), op.getResult());
  symbols.insert(comp, where);
  return FlatSymbolRefAttr::get(comp.getSymNameAttr());
}

FlatSymbolRefAttr mlir::hlo::createScalarAddComputation(SymbolTable &symbols,
                                                        Type element,
                                                        Block::iterator where) {
  return createScalarComputation<AddOp>(symbols, element,
                                        "scalar_add_computation", where);
}

FlatSymbolRefAttr mlir::hlo::createScalarMaxComputation(SymbolTable &symbols,
                                                        Type element,
                                                        Block::iterator where) {
  return createScalarComputation<MaxOp>(symbols, element,
                                        "scalar_max_computation", where);
}

void mlir::hlo::replaceByNamed(Operation *op, Value value) {
  Operation *named = value.getDefiningOp();
  named->setLoc(op->getLoc());
  transferInstructionAttrs(op, named);
  op->getResult(0).replaceAllUsesWith(value);
  op->erase();
}

ComputationOp mlir::hlo::withIgnoredIndexParameters(ComputationOp comparator,
                                                    SymbolTable &symbols,
                                                    Location loc) {
  SmallVector<Type> params(comparator.getArgumentTypes());
  auto index =
      RankedTensorType::get({}, IntegerType::get(comparator.getContext(), 32));
  params.append({index, index});
  ComputationOp wide = createComputation(symbols, comparator,
                                         comparator.getSymName(), params, loc);
  Block &body = wide.getBody().front();
  OpBuilder b = OpBuilder::atBlockEnd(&body);
  Value root =
      inlineComputation(b, comparator, body.getArguments().take_front(2));
  setComputationResult(wide, b, root);
  return wide;
}

bool mlir::hlo::isIotaAlong(Value v, ArrayRef<int64_t> shape, int64_t dim) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.getElementType().isInteger(32) || type.getShape() != shape)
    return false;
  if (auto iota = v.getDefiningOp<IotaOp>())
    return iota.getIotaDimension() == uint64_t(dim);
  auto broadcast = v.getDefiningOp<BroadcastOp>();
  if (!broadcast || broadcast.getDimensions() != ArrayRef<int64_t>{dim})
    return false;
  auto iota = getDataOperands(broadcast)[0].getDefiningOp<IotaOp>();
  return iota && iota.getIotaDimension() == 0;
}
