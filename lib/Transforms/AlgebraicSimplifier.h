//===- AlgebraicSimplifier.h - hlo-algebraic-simplifier's parts -*- C++ -*-===//
//
// Private to lib/Transforms: what the files of hlo-algebraic-simplifier
// share: small helpers, the pattern base that skips instructions with
// control predecessors, and the shape rewrites (slices, concatenates,
// reductions, reduce-windows, dots: AlgebraicSimplifierShapes.cpp), the
// data-movement rewrites (AlgebraicSimplifierMovement.cpp) and the
// elementwise ones (AlgebraicSimplifierElementwise.cpp) that the pass adds
// to its arithmetic ones (AlgebraicSimplifier.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_ALGEBRAICSIMPLIFIER_H
#define HLO_LIB_TRANSFORMS_ALGEBRAICSIMPLIFIER_H

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::hlo::algsimp {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The element type of an array value, or null for tuples and tokens.
inline Type elementTypeOf(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type ? type.getElementType() : Type();
}

inline bool isInteger(Value v) {
  return isa_and_nonnull<IntegerType>(elementTypeOf(v));
}

/// The scalar constant that `v` is all of, as a splat constant or a
/// broadcast of a scalar constant (XLA's `Constant` or
/// `Broadcast(Constant)`), or null.
inline SplatElementsAttr splatOperand(Value v) {
  if (auto b = v.getDefiningOp<BroadcastOp>())
    v = b.getOperand();
  Attribute attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return {};
  return dyn_cast<SplatElementsAttr>(attr);
}

/// The value of `v` if it is a constant splat of a float or integer, or a
/// broadcast of one.
inline std::optional<double> splatValue(Value v) {
  SplatElementsAttr splat = splatOperand(v);
  if (!splat)
    return std::nullopt;
  if (isa<FloatType>(splat.getElementType()))
    return splat.getSplatValue<APFloat>().convertToDouble();
  if (auto it = dyn_cast<IntegerType>(splat.getElementType()))
    return it.isUnsigned()
               ? double(splat.getSplatValue<APInt>().getZExtValue())
               : double(splat.getSplatValue<APInt>().getSExtValue());
  return std::nullopt;
}

/// True if splat constants `a` and `b` of one element type hold a <= b.
inline bool splatLessOrEqual(SplatElementsAttr a, SplatElementsAttr b) {
  Type t = a.getElementType();
  if (t != b.getElementType())
    return false;
  if (isa<FloatType>(t)) {
    APFloat::cmpResult c =
        a.getSplatValue<APFloat>().compare(b.getSplatValue<APFloat>());
    return c == APFloat::cmpLessThan || c == APFloat::cmpEqual;
  }
  auto it = dyn_cast<IntegerType>(t);
  if (!it)
    return false;
  APInt x = a.getSplatValue<APInt>(), y = b.getSplatValue<APInt>();
  return it.isUnsigned() || it.getWidth() == 1 ? x.ule(y) : x.sle(y);
}

/// An array of `type` whose elements are all `scalar` (an integer or float
/// attribute of its element type): a scalar constant broadcast to the shape,
/// as XLA builds it, so that no large literal is made.
inline Value makeSplat(PatternRewriter &rewriter, Location loc, Type type,
                       Attribute scalar) {
  auto rt = cast<RankedTensorType>(type);
  auto scalarType = RankedTensorType::get({}, rt.getElementType());
  auto literal = DenseElementsAttr::get(scalarType, scalar);
  NamedAttribute value = rewriter.getNamedAttr("value", literal);
  if (rt.getRank() == 0)
    return createInstruction(rewriter, loc, ConstantOp::getOperationName(),
                             type, {}, {value})
        ->getResult(0);
  // The broadcast takes the replaced instruction's name; the scalar gets a
  // fresh one (`constant.N`) from the exporter.
  Value c =
      createInstruction(rewriter, rewriter.getUnknownLoc(),
                        ConstantOp::getOperationName(), scalarType, {}, {value})
          ->getResult(0);
  return createInstruction(
             rewriter, loc, BroadcastOp::getOperationName(), type, {c},
             {rewriter.getNamedAttr("dimensions",
                                    rewriter.getDenseI64ArrayAttr({}))})
      ->getResult(0);
}

/// The type of `v` if it is an array of static shape.
inline RankedTensorType staticType(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.hasStaticShape() ? t : RankedTensorType();
}

/// The op defining `v` if it is an `OpT` without control predecessors.
template <typename OpT> inline OpT plainDef(Value v) {
  auto op = v.getDefiningOp<OpT>();
  return op && !hasControlPredecessors(op) ? op : OpT();
}

/// Replaces `op` by `value`, moving its attributes to the op defining
/// `value` when the rewrite made it.
inline void replace(PatternRewriter &rewriter, Operation *op, Value value,
                    bool madeByRewrite) {
  if (madeByRewrite)
    if (Operation *def = value.getDefiningOp())
      transferInstructionAttrs(op, def);
  rewriter.replaceOp(op, value);
}

/// Replaces `op` by zeros of its (array) result type, a broadcast scalar
/// constant taking op's name.
inline void replaceByZeros(PatternRewriter &rewriter, Operation *op) {
  Type type = op->getResult(0).getType();
  replace(rewriter, op,
          makeSplat(rewriter, op->getLoc(), type,
                    rewriter.getZeroAttr(getElementTypeOrSelf(type))),
          true);
}

/// True if `a` and `b` are the same value: one value, or splat constants
/// (or broadcasts of them) of one element and element type.
inline bool sameSplat(Value a, Value b) {
  if (a == b)
    return true;
  SplatElementsAttr x = splatOperand(a), y = splatOperand(b);
  return x && y && x.getElementType() == y.getElementType() &&
         x.getSplatValue<Attribute>() == y.getSplatValue<Attribute>();
}

/// True if no element of `v` is negative (XLA's IsNonNegative, for what
/// it knows): abs, iotas whose values fit, constants of no negative
/// element and broadcasts of them; of floats also exp and A*A. abs of the
/// lowest integer is that integer, which the rewrites asking this leave
/// as they find it (abs(abs(A)) = abs(A); A % 2^k = A & (2^k - 1)).
bool isNonNegative(Value v);

/// The runs of a reshape from shape `a` to shape `b`: consecutive
/// dimensions of both with equal products, as short as can be, in order
/// (a reshape maps each run's elements to its own: row-major order keeps
/// the runs' boundaries). Each run is ([aBegin, aEnd), [bBegin, bEnd)); a
/// run may hold no dimension on one side where the other's are of size 1
/// at the end. Nothing for shapes with a dimension of size 0.
using ReshapeRun =
    std::pair<std::pair<int64_t, int64_t>, std::pair<int64_t, int64_t>>;
std::optional<SmallVector<ReshapeRun>> reshapeRuns(ArrayRef<int64_t> a,
                                                   ArrayRef<int64_t> b);

/// True if `v` is a constant (so an operand XLA's `NonConstant` rejects).
inline bool isConstant(Value v) { return matchPattern(v, m_Constant()); }

/// A pattern over `OpT` that skips instructions with control predecessors.
template <typename OpT> struct HloPattern : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op, PatternRewriter &rewriter) const final {
    if (hasControlPredecessors(op))
      return failure();
    return rewrite(op, rewriter);
  }
  virtual LogicalResult rewrite(OpT op, PatternRewriter &rewriter) const = 0;
};

/// The pass options the shape rewrites read (XLA's option names).
struct ShapeOptions {
  bool dotToMultiply = true;               // enable_dot_to_multiply_rewrite
  bool dotStrengthReduction = true;        // enable_dot_strength_reduction
  bool windowReduceToReduce = true;        // enable_window_reduce_to_reduce_...
  bool unconditionalReduceOfConcat = true; // enable_unconditional_reduce_...
  bool layoutSensitive = false;            // is_layout_sensitive
  int64_t verySmallGatherSize = 4;         // very_small_gather_size
};

/// The scalar add computations that rewrites adding reduces use, one per
/// element type, made on first use (XLA's GetOrCreateScalarAddComputation)
/// and inserted first in the module, through its symbol table.
class ScalarAddComputations {
public:
  explicit ScalarAddComputations(SymbolTable &symbols) : symbols(symbols) {}
  FlatSymbolRefAttr get(Type element);

private:
  SymbolTable &symbols;
  llvm::DenseMap<Type, FlatSymbolRefAttr> made;
};

/// Adds the shape rewrites; the reduce rewrites find reducers in
/// `symbols`, the dot strength reduction adds its reducers through `adds`.
void populateShapePatterns(RewritePatternSet &set, SymbolTable &symbols,
                           ScalarAddComputations &adds,
                           const ShapeOptions &options);

/// Adds the elementwise rewrites (AlgebraicSimplifierElementwise.cpp):
/// A+0, A*1 and A-C for floats too, min/max pairs as clamps, selects on a
/// negated predicate, multiplies by a converted predicate, and XLA's
/// identities of real numbers on log, exp and sqrt.
void populateElementwisePatterns(RewritePatternSet &set);

/// Adds the data-movement rewrites (AlgebraicSimplifierMovement.cpp):
/// scalar broadcasts through permutations and subsets, size-1 dimensions
/// of broadcast operands, gathers, scatters and sorts.
void populateMovementPatterns(RewritePatternSet &set,
                              const ShapeOptions &options);

/// Adds the rewrites by operand values (AlgebraicSimplifierArithmetic.cpp):
/// abs of non-negative values, clamps of clamps, remainders of remainders,
/// quotients of quotients, parts of complex numbers, selects between pred
/// constants, and maps of one instruction (their computations in
/// `symbols`).
void populateArithmeticPatterns(RewritePatternSet &set, SymbolTable &symbols);

/// Adds the convolution rewrites (AlgebraicSimplifierConvolution.cpp): a
/// pad of the input by zeros in the window, a kernel's interior zeros as
/// window dilation, empty operands, and depthwise convolutions as
/// multiplications (and sums, through reducers made by `adds`).
void populateConvolutionPatterns(RewritePatternSet &set,
                                 ScalarAddComputations &adds,
                                 const ShapeOptions &options);

} // namespace mlir::hlo::algsimp

#endif // HLO_LIB_TRANSFORMS_ALGEBRAICSIMPLIFIER_H
