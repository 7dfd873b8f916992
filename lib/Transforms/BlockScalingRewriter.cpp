//===- BlockScalingRewriter.cpp - block-scaled formats as HLO -------------===//
//
// XLA-GPU's BlockScalingRewriter. JAX's block-scaled formats (MXFP8:
// f8e4m3fn or f8e5m2 values with an f8e8m0fnu scale per block of 32
// along the last dimension; NVFP4: f4e2m1fn values with f8e4m3fn scales
// per block of 16) reach XLA as three custom calls, which this pass
// replaces by the ordinary instructions that compute them:
//
//   __op$dequantize(x, s) -> y:
//     y = convert(x) * reshape(broadcast(convert(s)))   (the scale repeated
//                                                        over its block)
//   __op$quantize(x) -> (q, s):
//     amax = reduce(reshape(x) to blocks, max |.|), s = convert(amax / emax)
//     (emax: the largest power of two of q's range), q = convert(x / s)
//   __op$block_scaled_dot(lhs, rhs, lhs_scale[, rhs_scale[, global]]):
//     dot(dequantize(lhs), dequantize(rhs)) [* broadcast(global)],
//     contracting the last dimensions (the first is a batch dimension at
//     rank 3); the scales are sliced first where they are padded.
//
// XLA builds each expansion as a computation that it calls; here the
// instructions take the custom call's place, so that fusion merges the
// dequantization into one kernel per operand (XLA 0.10.2 leaves the call's
// computation to kernels of one instruction each). XLA's cuDNN block-scaled
// dot (Blackwell) is not made. After layout assignment the new arrays take
// the default layout, which the operands must have (the custom calls'
// operand_layout_constraints).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "LayoutUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "llvm/ADT/APFloat.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOBLOCKSCALINGREWRITER
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// Builds the expansion of one custom call before it.
class Expander {
public:
  Expander(CustomCallOp call, SymbolTable &symbols)
      : call(call), symbols(symbols), b(call), loc(derivedLoc(call.getLoc())) {
    for (Value v : getDataOperands(call))
      laidOut |= bool(cast<RankedTensorType>(v.getType()).getEncoding());
  }

  LogicalResult fail(const Twine &why) {
    return call.emitError(call.getCustomCallTarget() + ": " + why);
  }

  /// An array of `shape` and `element`, laid out by default after layout
  /// assignment.
  RankedTensorType arrayType(ArrayRef<int64_t> shape, Type element) {
    auto t = RankedTensorType::get(shape, element);
    return laidOut ? cast<RankedTensorType>(withDefaultLayouts(t)) : t;
  }
  Value create(StringRef name, Type type, ValueRange operands,
               ArrayRef<NamedAttribute> attrs = {}) {
    return createInstruction(b, loc, name, type, operands, attrs)->getResult(0);
  }
  Value convert(Value v, Type element) {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getElementType() == element)
      return v;
    return create(ConvertOp::getOperationName(),
                  arrayType(t.getShape(), element), {v});
  }
  Value reshape(Value v, ArrayRef<int64_t> shape) {
    return create(
        ReshapeOp::getOperationName(),
        arrayType(shape, cast<RankedTensorType>(v.getType()).getElementType()),
        {v});
  }
  Value broadcast(Value v, ArrayRef<int64_t> shape, ArrayRef<int64_t> dims) {
    return create(
        BroadcastOp::getOperationName(),
        arrayType(shape, cast<RankedTensorType>(v.getType()).getElementType()),
        {v}, {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(dims))});
  }
  template <typename OpT> Value binary(Value x, Value y) {
    return create(OpT::getOperationName(), x.getType(), {x, y});
  }
  Value scalar(Type element, double value) {
    auto type = RankedTensorType::get({}, element);
    auto literal = DenseElementsAttr::get(type, b.getFloatAttr(element, value));
    return create(ConstantOp::getOperationName(), type, {},
                  {b.getNamedAttr("value", literal)});
  }

  /// `s` (one scale per block of `block` along the last dimension)
  /// repeated over its blocks to `shape`.
  Value spread(Value s, ArrayRef<int64_t> shape, int64_t block) {
    auto st = cast<RankedTensorType>(s.getType());
    SmallVector<int64_t> blocks(st.getShape());
    blocks.push_back(block);
    SmallVector<int64_t> dims =
        llvm::to_vector(llvm::seq<int64_t>(0, st.getRank()));
    return reshape(broadcast(s, blocks, dims), shape);
  }

  /// `x` times its block scales `s`, in `element`; `block` from the
  /// backend config if set (the scales may then be padded), else the
  /// ratio of the last dimensions.
  FailureOr<Value> dequantize(Value x, Value s, Type element,
                              std::optional<int64_t> block) {
    auto xt = cast<RankedTensorType>(x.getType());
    auto st = cast<RankedTensorType>(s.getType());
    int64_t rank = xt.getRank();
    if (rank < 1 || st.getRank() != rank || !xt.hasStaticShape() ||
        !st.hasStaticShape())
      return fail("a scale must be a static array of its operand's rank");
    int64_t k = xt.getDimSize(rank - 1), ks = st.getDimSize(rank - 1);
    int64_t size = block ? *block : (ks > 0 && k % ks == 0 ? k / ks : 0);
    if (size <= 0 || k % size != 0 || k / size > ks)
      return fail("the scales do not divide the last dimension (" + Twine(k) +
                  ") into blocks");
    // The scales of the operand's rows and blocks only.
    SmallVector<int64_t> used(xt.getShape());
    used[rank - 1] = k / size;
    for (int64_t d = 0; d < rank; ++d)
      if (st.getDimSize(d) < used[d])
        return fail("a scale is smaller than its operand");
    if (used != st.getShape()) {
      SmallVector<int64_t> zeros(rank, 0), ones(rank, 1);
      s = create(SliceOp::getOperationName(),
                 arrayType(used, st.getElementType()), {s},
                 {b.getNamedAttr("slice", SliceAttr::get(b.getContext(), zeros,
                                                         used, ones))});
    }
    Value wide = convert(x, element);
    Value scales = spread(convert(s, element), xt.getShape(), size);
    return binary<MulOp>(wide, scales);
  }

  FailureOr<Value> expandDequantize() {
    OperandRange operands = getDataOperands(call);
    auto type = dyn_cast<RankedTensorType>(call.getType());
    if (operands.size() != 2 || !type ||
        type.getShape() !=
            cast<RankedTensorType>(operands[0].getType()).getShape())
      return fail("takes (input, scale) and returns an array of the input's "
                  "shape");
    return dequantize(operands[0], operands[1], type.getElementType(),
                      std::nullopt);
  }

  FailureOr<Value> expandQuantize() {
    OperandRange operands = getDataOperands(call);
    auto tuple = dyn_cast<TupleType>(call.getType());
    auto qt = tuple && tuple.size() == 2
                  ? dyn_cast<RankedTensorType>(tuple.getType(0))
                  : RankedTensorType();
    auto st = tuple && tuple.size() == 2
                  ? dyn_cast<RankedTensorType>(tuple.getType(1))
                  : RankedTensorType();
    if (operands.size() != 1 || !qt || !st)
      return fail("takes an input and returns (quantized, scale)");
    Value x = operands[0];
    auto xt = cast<RankedTensorType>(x.getType());
    int64_t rank = xt.getRank();
    auto qe = dyn_cast<FloatType>(qt.getElementType());
    auto xe = dyn_cast<FloatType>(xt.getElementType());
    if (rank < 1 || !xt.hasStaticShape() || qt.getShape() != xt.getShape() ||
        st.getRank() != rank || !qe || !xe ||
        st.getShape().drop_back() != xt.getShape().drop_back())
      return fail("the results must be the input's shape and its scales");
    int64_t k = xt.getDimSize(rank - 1), ks = st.getDimSize(rank - 1);
    if (ks <= 0 || k % ks != 0)
      return fail("the scales do not divide the last dimension (" + Twine(k) +
                  ") into blocks");
    int64_t block = k / ks;
    // amax of each block: reduce(blocks, 0, max(|a|, |b|)).
    SmallVector<int64_t> blocks(st.getShape());
    blocks.push_back(block);
    Value amax = reduceAmax(reshape(x, blocks), st.getShape(), rank);
    // Over 2^(emax) of the quantized format, in the input's type.
    double emax = std::ldexp(
        1.0, llvm::APFloat::semanticsMaxExponent(qe.getFloatSemantics()));
    Value norm =
        binary<DivOp>(amax, broadcast(scalar(xe, emax), st.getShape(), {}));
    Value scale = convert(norm, st.getElementType());
    Value wide = spread(convert(scale, xe), xt.getShape(), block);
    Value q = convert(binary<DivOp>(x, wide), qe);
    return create(TupleOp::getOperationName(), call.getType(), {q, scale});
  }

  /// The largest magnitude over the last dimension of `blocks`.
  Value reduceAmax(Value blocks, ArrayRef<int64_t> shape, int64_t dim) {
    Type element = cast<RankedTensorType>(blocks.getType()).getElementType();
    auto scalarType = RankedTensorType::get({}, element);
    // The reducer: max(abs(a), abs(b)), a computation of the module.
    OpBuilder mb(b.getContext());
    auto comp = ComputationOp::create(
        mb, loc, "amax", mb.getStringAttr("private"),
        mb.getFunctionType({scalarType, scalarType}, {scalarType}),
        /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr, /*entry=*/false,
        StringAttr());
    Block *body = new Block();
    comp.getBody().push_back(body);
    Value lhs = body->addArgument(scalarType, loc);
    Value rhs = body->addArgument(scalarType, loc);
    mb.setInsertionPointToEnd(body);
    auto abs = [&](Value v) {
      return createInstruction(mb, loc, AbsOp::getOperationName(), scalarType,
                               {v})
          ->getResult(0);
    };
    Value max = createInstruction(mb, loc, MaxOp::getOperationName(),
                                  scalarType, {abs(lhs), abs(rhs)})
                    ->getResult(0);
    ReturnOp::create(mb, loc, max);
    symbols.insert(comp,
                   Block::iterator(call->getParentOfType<ComputationOp>()));
    Value zero = scalar(element, 0);
    return create(
        ReduceOp::getOperationName(), arrayType(shape, element), {blocks, zero},
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({dim})),
         b.getNamedAttr("to_apply",
                        FlatSymbolRefAttr::get(comp.getSymNameAttr()))});
  }

  FailureOr<Value> expandDot() {
    OperandRange operands = getDataOperands(call);
    auto type = dyn_cast<RankedTensorType>(call.getType());
    if (operands.size() < 3 || operands.size() > 5 || !type)
      return fail("takes (lhs, rhs, lhs_scale[, rhs_scale[, global_scale]]) "
                  "and returns an array");
    Type element = type.getElementType();
    int64_t rank = cast<RankedTensorType>(operands[0].getType()).getRank();
    if ((rank != 2 && rank != 3) ||
        cast<RankedTensorType>(operands[1].getType()).getRank() != rank)
      return fail("lhs and rhs must be of rank 2 or 3");
    std::optional<int64_t> block = readBlockScaledDotBlockSize(call);
    FailureOr<Value> lhs = dequantize(operands[0], operands[2], element, block);
    if (failed(lhs))
      return failure();
    Value rhs = operands[1];
    if (operands.size() >= 4) {
      FailureOr<Value> r = dequantize(rhs, operands[3], element, block);
      if (failed(r))
        return failure();
      rhs = *r;
    }
    SmallVector<NamedAttribute> dims = {
        b.getNamedAttr("lhs_contracting_dims",
                       b.getDenseI64ArrayAttr({rank - 1})),
        b.getNamedAttr("rhs_contracting_dims",
                       b.getDenseI64ArrayAttr({rank - 1}))};
    if (rank == 3) {
      dims.push_back(
          b.getNamedAttr("lhs_batch_dims", b.getDenseI64ArrayAttr({0})));
      dims.push_back(
          b.getNamedAttr("rhs_batch_dims", b.getDenseI64ArrayAttr({0})));
    }
    Operation *dot = createInstruction(b, loc, DotOp::getOperationName(),
                                       Type(), {*lhs, rhs}, dims);
    if (!dot || !sameArrayType(dot->getResult(0).getType(), type))
      return fail("the result is not the dot of its operands");
    dot->getResult(0).setType(type);
    Value result = dot->getResult(0);
    if (operands.size() == 5) {
      auto gt = cast<RankedTensorType>(operands[4].getType());
      if (gt.getRank() != 0 || gt.getElementType() != element)
        return fail("the global scale must be a scalar of the result's type");
      result =
          binary<MulOp>(result, broadcast(operands[4], type.getShape(), {}));
    }
    return result;
  }

  /// The replacement of the call, or failure (with a diagnostic).
  FailureOr<Value> expand() {
    for (Value v : getDataOperands(call)) {
      auto t = cast<RankedTensorType>(v.getType());
      if (laidOut && !sameArrayType(t, withDefaultLayouts(t)))
        return fail("operands must have the default layout");
    }
    StringRef target = call.getCustomCallTarget();
    if (target == "__op$dequantize")
      return expandDequantize();
    if (target == "__op$quantize")
      return expandQuantize();
    return expandDot();
  }

private:
  CustomCallOp call;
  SymbolTable &symbols;
  OpBuilder b;
  Location loc;
  bool laidOut = false;
};

struct BlockScalingRewriterPass
    : ChangeReportingPass<BlockScalingRewriterPass,
                          hlo::impl::HloBlockScalingRewriterBase> {
  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<CustomCallOp> calls;
    for (ComputationOp comp : nonFusionComputations(module))
      for (CustomCallOp call : comp.getBody().getOps<CustomCallOp>())
        if (llvm::is_contained({StringRef("__op$quantize"),
                                StringRef("__op$dequantize"),
                                StringRef("__op$block_scaled_dot")},
                               call.getCustomCallTarget()) &&
            !hasControlEdges(call))
          calls.push_back(call);
    for (CustomCallOp call : calls) {
      FailureOr<Value> result = Expander(call, symbols).expand();
      if (failed(result))
        return signalPassFailure();
      replaceByNamed(call, *result);
      ++numExpanded;
      changed = true;
    }
  }
};

} // namespace
