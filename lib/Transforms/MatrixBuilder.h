//===- MatrixBuilder.h - steps of the solver expanders ----------*- C++ -*-===//
//
// Private to lib/Transforms: what the factorization expanders (QR,
// Cholesky) build their loop steps from. A batch of matrices (batch
// dimensions first) of a float or complex element type, and a builder of
// the instructions on whole arrays of that batch: iotas along a matrix
// dimension, broadcasts, masks, real and imaginary parts, sums and dots
// over a matrix dimension, a column and an element picked by an s32 scalar.
// Every shape is static; the arrays made have no layout.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_MATRIXBUILDER_H
#define HLO_LIB_TRANSFORMS_MATRIXBUILDER_H

#include "WhileLoopUtils.h"

namespace mlir::hlo {

/// A batch of m x n matrices of `element`, whose real part is `real`
/// (`element` itself for a float type).
struct MatrixBatch {
  SmallVector<int64_t> batch;
  int64_t m = 0, n = 0;
  Type element, real;

  /// Reads `type`'s batch, matrix size and element type: a static array of
  /// rank >= 2 of a float or complex-of-float type.
  static std::optional<MatrixBatch> read(Type type) {
    auto a = dyn_cast<RankedTensorType>(type);
    if (!a || !a.hasStaticShape() || a.getRank() < 2)
      return std::nullopt;
    MatrixBatch s;
    s.element = s.real = a.getElementType();
    if (auto complex = dyn_cast<ComplexType>(s.element))
      s.real = complex.getElementType();
    if (!isa<FloatType>(s.real))
      return std::nullopt;
    s.batch.assign(a.getShape().begin(), a.getShape().end() - 2);
    s.m = a.getShape()[a.getRank() - 2];
    s.n = a.getShape().back();
    return s;
  }

  int64_t rank() const { return int64_t(batch.size()) + 2; }
  bool isComplex() const { return element != real; }
  /// batch..., then `dims`.
  SmallVector<int64_t> shape(ArrayRef<int64_t> dims) const {
    SmallVector<int64_t> s(batch);
    s.append(dims.begin(), dims.end());
    return s;
  }
  /// The dimension numbers 0 ... batch - 1, then `dims` shifted past them.
  SmallVector<int64_t> dimsWith(ArrayRef<int64_t> dims) const {
    SmallVector<int64_t> d;
    for (int64_t i = 0, e = batch.size(); i < e; ++i)
      d.push_back(i);
    for (int64_t i : dims)
      d.push_back(int64_t(batch.size()) + i);
    return d;
  }
};

/// Instructions on whole arrays of the batch `s` (`dims` below are the
/// sizes after the batch dimensions).
class MatrixBuilder {
public:
  /// `adder` gives the scalar add computation of an element type (for
  /// `sum`; may be null where nothing is summed).
  MatrixBuilder(InstBuilder &ib, const MatrixBatch &s,
                function_ref<FlatSymbolRefAttr(Type)> adder = nullptr)
      : ib(ib), b(ib.getBuilder()), s(s), adder(adder) {}

  RankedTensorType type(ArrayRef<int64_t> dims, Type element) {
    return RankedTensorType::get(s.shape(dims), element);
  }
  /// The s32 iota along matrix dimension `dim` of the batch of `dims`.
  Value iota(ArrayRef<int64_t> dims, int64_t dim) {
    return ib.create<IotaOp>(
        type(dims, b.getI32Type()), {},
        {b.getNamedAttr("iota_dimension",
                        b.getI64IntegerAttr(int64_t(s.batch.size()) + dim))});
  }
  /// `v` (batch dimensions first) broadcast to the batch of `dims`, its
  /// other dimensions mapped to the matrix dimensions `map`.
  Value broadcast(Value v, ArrayRef<int64_t> dims, ArrayRef<int64_t> map) {
    return ib.create<BroadcastOp>(
        type(dims, tensorType(v).getElementType()), v,
        {b.getNamedAttr("dimensions",
                        b.getDenseI64ArrayAttr(s.dimsWith(map)))});
  }
  /// `v`, which has no batch dimensions, broadcast to the batch of `dims`,
  /// its dimensions mapped to the matrix dimensions `map`.
  Value broadcastToBatch(Value v, ArrayRef<int64_t> dims,
                         ArrayRef<int64_t> map) {
    SmallVector<int64_t> shifted;
    for (int64_t d : map)
      shifted.push_back(int64_t(s.batch.size()) + d);
    return ib.create<BroadcastOp>(
        type(dims, tensorType(v).getElementType()), v,
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(shifted))});
  }
  /// The scalar `v` broadcast to the batch of `dims`.
  Value splatScalar(Value v, ArrayRef<int64_t> dims) {
    return ib.create<BroadcastOp>(
        type(dims, tensorType(v).getElementType()), v,
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({}))});
  }
  /// `value` of the element type, broadcast to the batch of `dims`.
  Value splat(int64_t value, ArrayRef<int64_t> dims) {
    return ib.splat(s.element, value, s.shape(dims));
  }
  bool isComplex() const { return s.isComplex(); }
  /// The real and imaginary parts of `v`; the complex of two real arrays.
  Value re(Value v) { return part<RealOp>(v); }
  Value im(Value v) { return part<ImagOp>(v); }
  Value complex(Value re, Value im) {
    return ib.create<ComplexOp>(
        RankedTensorType::get(tensorType(re).getShape(), s.element), {re, im});
  }
  /// The real `v` as the element type (`v` itself for real types).
  Value fromReal(Value v) {
    if (!isComplex())
      return v;
    return complex(v, ib.splat(s.real, 0, tensorType(v).getShape()));
  }
  /// `v` itself for real types.
  Value conj(Value v) {
    return isComplex() ? complex(re(v), unary<NegOp>(im(v))) : v;
  }
  /// |v|^2, of the real type.
  Value absSquared(Value v) {
    if (!isComplex())
      return binary<MulOp>(v, v);
    Value r = re(v), i = im(v);
    return binary<AddOp>(binary<MulOp>(r, r), binary<MulOp>(i, i));
  }
  template <typename OpT> Value binary(Value x, Value y) {
    return ib.create<OpT>(x.getType(), {x, y});
  }
  template <typename OpT> Value unary(Value x) {
    return ib.create<OpT>(x.getType(), {x});
  }
  Value select(Value p, Value x, Value y) {
    return ib.create<SelectOp>(x.getType(), {p, x, y});
  }
  /// The sum of `v` over its matrix dimension `dim`.
  Value sum(Value v, int64_t dim) {
    SmallVector<int64_t> shape(tensorType(v).getShape());
    Type element = tensorType(v).getElementType();
    int64_t d = int64_t(s.batch.size()) + dim;
    shape.erase(shape.begin() + d);
    return ib.create<ReduceOp>(
        RankedTensorType::get(shape, element), {v, ib.scalar(element, 0)},
        {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({d})),
         b.getNamedAttr("to_apply", adder(element))});
  }
  /// The batched dot of `x` and `y` over their last dimensions, each
  /// operand's other matrix dimension (if any) in the result in turn;
  /// operand precision highest, as XLA's solver expansions ask.
  Value dotLast(Value x, Value y) {
    int64_t nb = s.batch.size();
    SmallVector<int64_t> batchDims = s.dimsWith({}), shape(s.batch);
    for (Value v : {x, y}) {
      ArrayRef<int64_t> dims = tensorType(v).getShape();
      if (int64_t(dims.size()) == nb + 2)
        shape.push_back(dims[nb]);
    }
    int64_t lc = tensorType(x).getRank() - 1, rc = tensorType(y).getRank() - 1;
    auto highest = PrecisionAttr::get(b.getContext(), Precision::Highest);
    return ib.create<DotOp>(
        RankedTensorType::get(shape, s.element), {x, y},
        {b.getNamedAttr("lhs_batch_dims", b.getDenseI64ArrayAttr(batchDims)),
         b.getNamedAttr("lhs_contracting_dims", b.getDenseI64ArrayAttr({lc})),
         b.getNamedAttr("rhs_batch_dims", b.getDenseI64ArrayAttr(batchDims)),
         b.getNamedAttr("rhs_contracting_dims", b.getDenseI64ArrayAttr({rc})),
         b.getNamedAttr("operand_precision",
                        b.getArrayAttr({highest, highest}))});
  }
  /// The static slice of matrices `v` of rows [r0, r1) and columns
  /// [c0, c1).
  Value block(Value v, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    SmallVector<int64_t> starts(s.batch.size(), 0), limits(s.batch);
    starts.append({r0, c0});
    limits.append({r1, c1});
    SmallVector<int64_t> strides(starts.size(), 1);
    return ib.create<SliceOp>(
        type({r1 - r0, c1 - c0}, tensorType(v).getElementType()), v,
        {b.getNamedAttr(
            "slice", SliceAttr::get(b.getContext(), starts, limits, strides))});
  }
  /// `v` with the matrices `update` written at row `r` and column `c`.
  Value setBlock(Value v, Value update, int64_t r, int64_t c) {
    SmallVector<Value> starts(s.batch.size(), ib.scalar(b.getI32Type(), 0));
    starts.push_back(ib.scalar(b.getI32Type(), r));
    starts.push_back(ib.scalar(b.getI32Type(), c));
    return ib.dynamicUpdateSlice(v, update, starts);
  }
  /// The conjugate transpose of the matrices `v` (the transpose for real
  /// types).
  Value adjoint(Value v) {
    SmallVector<int64_t> perm = s.dimsWith({1, 0});
    return conj(ib.transpose(v, perm));
  }

  /// Column `j` (an s32 scalar) of the m x n matrices `matrix`, [batch, m].
  Value column(Value matrix, Value j) {
    SmallVector<Value> starts(s.rank(), ib.scalar(b.getI32Type(), 0));
    starts.back() = j;
    return ib.reshape(ib.dynamicSlice(matrix, starts, s.shape({s.m, 1})),
                      s.shape({s.m}));
  }
  /// Row `i` (an s32 scalar) of the m x n matrices `matrix`, [batch, n].
  Value row(Value matrix, Value i) {
    SmallVector<Value> starts(s.rank(), ib.scalar(b.getI32Type(), 0));
    starts[s.batch.size()] = i;
    return ib.reshape(ib.dynamicSlice(matrix, starts, s.shape({1, s.n})),
                      s.shape({s.n}));
  }
  /// Element `j` of each row of `v`, [batch, len] -> [batch].
  Value at(Value v, Value j) {
    SmallVector<Value> starts(s.batch.size() + 1, ib.scalar(b.getI32Type(), 0));
    starts.back() = j;
    return ib.reshape(ib.dynamicSlice(v, starts, s.shape({1})), s.batch);
  }

  InstBuilder &ib;
  OpBuilder &b;
  const MatrixBatch &s;
  function_ref<FlatSymbolRefAttr(Type)> adder;

private:
  template <typename OpT> Value part(Value v) {
    return ib.create<OpT>(
        RankedTensorType::get(tensorType(v).getShape(), s.real), {v});
  }
};

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_MATRIXBUILDER_H
