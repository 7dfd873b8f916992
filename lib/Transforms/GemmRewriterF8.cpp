//===- GemmRewriterF8.cpp - the fp8 operands of cuBLASLt GEMMs ------------===//
//
// XLA's GemmRewriter, fp8 part (its MatchFp8Param and the operand half of
// CreateF8CustomCall): a dot operand is an fp8 value, possibly converted
// to a wider float, scaled by a scalar (a multiply, or a divide whose
// reciprocal cuBLASLt multiplies by), and reshaped by ops that commute with
// the dequantization. cuBLASLt reads the fp8 value itself with its scale:
// the shape ops are applied again to it, then, before Blackwell, an
// operand whose contracting dimension is not physically most minor is
// transposed (cuBLASLt's fp8 kernels take A row-major and B column-major),
// and its two matrix dimensions are padded with zeros to multiples of 16.
//
//===----------------------------------------------------------------------===//

#include "GemmRewriterF8.h"
#include "AlgebraicSimplifier.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::hlo;

bool mlir::hlo::isF8(Type t) {
  return isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
             Float8E5M2FNUZType, Float8E4M3B11FNUZType, Float8E4M3Type,
             Float8E3M4Type, Float8E8M0FNUType>(t);
}

Value mlir::hlo::broadcastScalarOperand(Value v) {
  auto bcast = v.getDefiningOp<BroadcastOp>();
  if (!bcast || hasControlPredecessors(bcast))
    return nullptr;
  auto t = dyn_cast<RankedTensorType>(bcast.getOperand().getType());
  return t && t.getRank() == 0 ? bcast.getOperand() : nullptr;
}

bool mlir::hlo::isConstantOne(Value v) {
  auto cst = v.getDefiningOp<ConstantOp>();
  auto dense = cst ? dyn_cast<DenseElementsAttr>(cst.getValue()) : nullptr;
  return dense && dense.getNumElements() == 1 &&
         cast<ShapedType>(dense.getType()).getRank() == 0 &&
         dense.getElementType().isF32() &&
         (*dense.value_begin<APFloat>()).isExactlyValue(1.0);
}

static Type elementOf(Value v) { return getElementTypeOrSelf(v.getType()); }

/// The fp8 value `v` converts, if `v` is `convert(fp8)`.
static Value convertedFp8(Value v) {
  auto convert = v.getDefiningOp<ConvertOp>();
  if (!convert || hasControlPredecessors(convert) ||
      !isF8(elementOf(convert.getOperand())))
    return nullptr;
  return convert.getOperand();
}

/// True if `v` is a broadcast scalar constant zero.
static bool isBroadcastZero(Value v) {
  Value scalar = broadcastScalarOperand(v);
  std::optional<double> zero =
      scalar ? algsimp::splatValue(scalar) : std::nullopt;
  return zero && *zero == 0;
}

/// The operand of `op` on an fp8 operand's path if `op` commutes with the
/// dequantization (XLA's list): shape ops, dynamic-slice, a pad with zeros,
/// a select against a broadcast zero, collectives of one array with `spmd`.
static std::optional<unsigned> commutingOperand(Operation *op, bool spmd) {
  Value result = op->getResult(0);
  if (isa<CopyOp, ReshapeOp, TransposeOp, SliceOp, BroadcastOp, DynamicSliceOp>(
          op) ||
      (isa<BitcastOp>(op) && elementOf(op->getOperand(0)) == elementOf(result)))
    return 0;
  if (auto pad = dyn_cast<PadOp>(op)) {
    std::optional<double> value = algsimp::splatValue(pad.getPaddingValue());
    return value && *value == 0 ? std::optional<unsigned>(0) : std::nullopt;
  }
  if (auto select = dyn_cast<SelectOp>(op)) {
    if (isBroadcastZero(select.getOnFalse()))
      return 1;
    if (isBroadcastZero(select.getOnTrue()))
      return 2;
    return std::nullopt;
  }
  if (spmd && isa<AllGatherOp, AllToAllOp, CollectivePermuteOp>(op) &&
      op->getNumOperands() == 1 && isa<RankedTensorType>(result.getType()))
    return 0;
  return std::nullopt;
}

std::optional<Fp8Operand> mlir::hlo::matchFp8Operand(Value v, bool spmd) {
  Fp8Operand x;
  Value cur = v;
  while (!isF8(elementOf(cur))) {
    Operation *def = cur.getDefiningOp();
    if (!def || hasControlPredecessors(def))
      return std::nullopt;
    if (std::optional<unsigned> index = commutingOperand(def, spmd)) {
      x.ops.push_back({def, *index});
      cur = def->getOperand(*index);
      continue;
    }
    if (Value fp8 = convertedFp8(cur)) {
      x.fp8 = fp8;
      break;
    }
    if (auto mul = dyn_cast<MulOp>(def)) {
      for (auto [c, s] : {std::pair(mul.getLhs(), mul.getRhs()),
                          std::pair(mul.getRhs(), mul.getLhs())})
        if (Value fp8 = convertedFp8(c))
          if (Value scale = broadcastScalarOperand(s)) {
            x.fp8 = fp8;
            x.scale = scale;
            break;
          }
    } else if (auto div = dyn_cast<DivOp>(def)) {
      if (Value fp8 = convertedFp8(div.getLhs()))
        if (Value scale = broadcastScalarOperand(div.getRhs())) {
          x.fp8 = fp8;
          x.scale = scale;
          x.divide = true;
        }
    }
    if (!x.fp8)
      return std::nullopt;
    break;
  }
  if (!x.fp8)
    x.fp8 = cur;
  std::reverse(x.ops.begin(), x.ops.end());
  return x;
}

bool mlir::hlo::fp8TypesSupported(Type a, Type b, Type out) {
  bool aE4 = isa<Float8E4M3FNType>(a), bE4 = isa<Float8E4M3FNType>(b);
  bool aE5 = isa<Float8E5M2Type>(a), bE5 = isa<Float8E5M2Type>(b);
  if (!(aE4 || aE5) || !(bE4 || bE5) || (aE5 && bE5))
    return false;
  if (out.isBF16() || out.isF16() || out.isF32() || isa<Float8E4M3FNType>(out))
    return true;
  return isa<Float8E5M2Type>(out) && aE4 != bE4;
}

/// A named location for an instruction the rewrite adds.
static Location named(OpBuilder &b, StringRef name, Location loc) {
  return NameLoc::get(b.getStringAttr(name), derivedLoc(loc));
}

static Value constantScalar(OpBuilder &b, Location loc, Type element,
                            double value) {
  auto scalar = RankedTensorType::get({}, element);
  Attribute attr =
      value == 0 ? b.getZeroAttr(element) : b.getFloatAttr(element, value);
  return createInstruction(
             b, named(b, "constant", loc), ConstantOp::getOperationName(),
             scalar, {},
             {b.getNamedAttr("value", DenseElementsAttr::get(
                                          scalar, cast<TypedAttr>(attr)))})
      ->getResult(0);
}

Value mlir::hlo::buildFp8Operand(OpBuilder &b, Location loc,
                                 const Fp8Operand &x, int64_t numBatch,
                                 int64_t &contracting, bool contractingMinor) {
  Type f8 = elementOf(x.fp8);
  Value cur = x.fp8;
  // The commuting ops again, on the fp8 value; the pad value and the
  // select's zeros converted to fp8, as XLA does.
  for (auto [op, index] : x.ops) {
    // The operand that becomes fp8 besides the path's: none, the pad value
    // or the select's zeros.
    std::optional<unsigned> other;
    if (isa<PadOp>(op))
      other = 1;
    else if (isa<SelectOp>(op))
      other = index == 1 ? 2 : 1;
    Value converted;
    if (other) {
      Value v = op->getOperand(*other);
      converted = createInstruction(b, named(b, "convert", loc),
                                    ConvertOp::getOperationName(),
                                    withElementType(v.getType(), f8), {v})
                      ->getResult(0);
    }
    Operation *moved = b.clone(*op);
    moved->setOperand(index, cur);
    if (other)
      moved->setOperand(*other, converted);
    moved->getResult(0).setType(
        withElementType(op->getResult(0).getType(), f8));
    cur = moved->getResult(0);
  }
  auto type = cast<RankedTensorType>(cur.getType());
  SmallVector<int64_t> order = getMinorToMajor(type);
  int64_t minor = order.empty() ? type.getRank() - 1 : order.front();
  if (contractingMinor && minor != contracting) {
    // Swap the two matrix dimensions, keeping the layout: the contracting
    // data is then physically most minor.
    SmallVector<int64_t> perm = llvm::to_vector(
                             llvm::seq<int64_t>(0, type.getRank())),
                         shape(type.getShape());
    std::swap(perm[numBatch], perm[numBatch + 1]);
    std::swap(shape[numBatch], shape[numBatch + 1]);
    cur = createInstruction(
              b, named(b, "transpose", loc), TransposeOp::getOperationName(),
              RankedTensorType::get(shape, f8, type.getEncoding()), {cur},
              {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(perm))})
              ->getResult(0);
    contracting = contracting == numBatch ? numBatch + 1 : numBatch;
    type = cast<RankedTensorType>(cur.getType());
  }
  SmallVector<int64_t> low(type.getRank(), 0), high(type.getRank(), 0),
      interior(type.getRank(), 0), shape(type.getShape());
  bool pad = false;
  for (int64_t d = numBatch; d < type.getRank(); ++d) {
    high[d] = llvm::alignTo(shape[d], 16) - shape[d];
    shape[d] += high[d];
    pad |= high[d] != 0;
  }
  if (!pad)
    return cur;
  Value zero = constantScalar(b, loc, f8, 0);
  return createInstruction(
             b, named(b, "pad", loc), PadOp::getOperationName(),
             RankedTensorType::get(shape, f8, type.getEncoding()), {cur, zero},
             {b.getNamedAttr("padding", PaddingAttr::get(b.getContext(), low,
                                                         high, interior))})
      ->getResult(0);
}

Value mlir::hlo::buildFp8Scale(OpBuilder &b, Location loc, Value scale,
                               bool divide, Value &one) {
  if (!scale) {
    if (!one)
      one = constantScalar(b, loc, b.getF32Type(), 1);
    return one;
  }
  Type element = elementOf(scale);
  if (divide)
    scale = createInferred<DivOp>(b, named(b, "divide", loc),
                                  {constantScalar(b, loc, element, 1), scale})
                .getResult();
  if (!element.isF32())
    scale = createInstruction(
                b, named(b, "convert", loc), ConvertOp::getOperationName(),
                RankedTensorType::get({}, b.getF32Type()), {scale})
                ->getResult(0);
  return scale;
}
