//===- HloToThunkSolvers.cpp - hlo-to-thunk: linear algebra calls ---------===//
//
// The linear-algebra library calls of a GPU module as thunks:
//   - `__cublas$triangularSolve` (XLA's TriangularSolveRewriter) and a
//     plain `triangular-solve`: b copied into the result's slice, then
//     `thunk.triangular_solve` there in place (XLA's TriangularSolveThunk);
//   - `__cusolver$cholesky`: the operand copied into the factor's slice,
//     then `thunk.cholesky` in place, writing the info array (XLA's
//     CholeskyThunk).
//   - XLA CPU's LAPACK triangular solve `lapack_?trsm_ffi` (as the cuBLAS
//     call: `thunk.triangular_solve`, its options from the call's side /
//     uplo / trans_x / diag characters).
//   - JAX's factorization calls on XLA CPU and GPU
//     (HloFactorizationCalls.h): the operand copied into the result's
//     first element, then `thunk.lu`, `thunk.cholesky`, `thunk.qr`,
//     `thunk.householder_product`, `thunk.eigh`, `thunk.svd`,
//     `thunk.schur`, `thunk.hessenberg` or `thunk.tridiagonal` in place;
//     `thunk.eig` reads the operand where it is; the tridiagonal solve
//     copies b into the solutions' slice for `thunk.tridiagonal_solve`
//     (LAPACK's call returns its dl, d, du as given); counts nothing sorts
//     or fails (QR's info, Schur's sdim) are set to zero;
//     `cu_lu_pivots_to_permutation` as `thunk.lu_pivots_to_permutation`.
//     cuSOLVER's gesvd of a transposed wide matrix reads the row-major
//     arrays as the column-major transposes they are.
// The libraries read column-major matrices: the arrays must have the
// Fortran layout (layout assignment gives them that, and XLA CPU's calls
// constrain their operands so).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Dialect/Hlo/HloFactorizationCalls.h"
#include "HloToThunk.h"

#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::hlo;

/// Whether `type` is an array of column-major matrices, a row-major batch
/// of them: minor-to-major {r-2, r-1, r-3, ..., 0}.
static bool hasFortranLayout(Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  if (!t || t.getRank() < 2)
    return false;
  int64_t r = t.getRank();
  SmallVector<int64_t> want = {r - 2, r - 1};
  for (int64_t d = r - 3; d >= 0; --d)
    want.push_back(d);
  return getMinorToMajor(t) == want;
}

FailureOr<Value> ThunkLowering::fortranSlice(Operation *at, Value value,
                                             unsigned node) {
  Type type = value.getType();
  if (auto tuple = dyn_cast<TupleType>(type))
    type = tuple.getType(node - 1);
  if (!hasFortranLayout(type))
    return at->emitError("hlo-to-thunk: the library reads column-major "
                         "matrices: ")
               << type << " needs the Fortran layout (run layout assignment)",
           failure();
  return slice(at, value, node, getSignatureType(cast<RankedTensorType>(type)));
}

LogicalResult ThunkLowering::lowerTriangularSolve(Operation *op) {
  bool leftSide, lower, unitDiagonal;
  Transpose transpose;
  // The solution is the result, or element 0 of the custom call's tuple.
  unsigned node = 0;
  if (auto t = dyn_cast<TriangularSolveOp>(op)) {
    leftSide = t.getLeftSide().value_or(false);
    lower = t.getLower().value_or(false);
    unitDiagonal = t.getUnitDiagonal().value_or(false);
    transpose = t.getTransposeA().value_or(Transpose::NO_TRANSPOSE);
  } else {
    auto call = cast<CustomCallOp>(op);
    auto config = readBackendConfig(call.getBackendConfigAttr());
    std::optional<Transpose> trans =
        config ? symbolizeTranspose(
                     config.getString("transpose_a").value_or("NO_TRANSPOSE"))
               : std::nullopt;
    if (!trans || getDataOperands(op).size() != 2 ||
        !isa<TupleType>(call.getType()))
      return op->emitError("hlo-to-thunk: __cublas$triangularSolve needs "
                           "operands (a, b), a (result, scratch) tuple and "
                           "TriangularSolveOptions as its backend_config");
    leftSide = config.getBool("left_side").value_or(false);
    lower = config.getBool("lower").value_or(false);
    unitDiagonal = config.getBool("unit_diagonal").value_or(false);
    transpose = *trans;
    node = 1;
  }
  ValueRange operands = getDataOperands(op);
  FailureOr<Value> a = fortranSlice(op, operands[0]),
                   rhs = fortranSlice(op, operands[1]),
                   x = fortranSlice(op, op->getResult(0), node);
  if (failed(a) || failed(rhs) || failed(x))
    return failure();
  copy(op->getLoc(), *rhs, *x);
  th::TrsmTranspose trans =
      transpose == Transpose::TRANSPOSE ? th::TrsmTranspose::Transpose
      : transpose == Transpose::ADJOINT ? th::TrsmTranspose::Adjoint
                                        : th::TrsmTranspose::None;
  auto unit = [&](bool set) { return set ? b.getUnitAttr() : UnitAttr(); };
  auto thunk = th::TriangularSolveOp::create(
      b, op->getLoc(), *a, *x, unit(leftSide), unit(lower), unit(unitDiagonal),
      th::TrsmTransposeAttr::get(b.getContext(), trans));
  return mlir::verify(thunk);
}

LogicalResult ThunkLowering::lowerCholesky(CustomCallOp call) {
  auto tuple = dyn_cast<TupleType>(call.getType());
  auto config = readBackendConfig(call.getBackendConfigAttr());
  if (!tuple || tuple.size() != 3 || getDataOperands(call).size() != 1 ||
      !config)
    return call.emitError("hlo-to-thunk: __cusolver$cholesky needs one "
                          "operand, a (factor, workspace, info) tuple and "
                          "CholeskyOptions as its backend_config");
  FailureOr<Value> a = fortranSlice(call, getDataOperands(call)[0]),
                   factor = fortranSlice(call, call, 1);
  if (failed(a) || failed(factor))
    return failure();
  auto infoType = cast<RankedTensorType>(tuple.getType(2));
  FailureOr<Value> info = slice(
      call, call, 3,
      MemRefType::get({infoType.getNumElements()}, infoType.getElementType()));
  if (failed(info))
    return failure();
  Value workspace;
  auto wsType = cast<RankedTensorType>(tuple.getType(1));
  if (wsType.getNumElements() > 0) {
    FailureOr<Value> ws = slice(call, call, 2);
    if (failed(ws))
      return failure();
    workspace = *ws;
  }
  copy(call.getLoc(), *a, *factor);
  auto thunk = th::CholeskyOp::create(
      b, call.getLoc(), *factor, *info, workspace,
      config.getBool("lower").value_or(false) ? b.getUnitAttr() : UnitAttr());
  return mlir::verify(thunk);
}

LogicalResult ThunkLowering::lowerLapack(CustomCallOp call) {
  StringRef target = call.getCustomCallTarget();
  // lapack_<type letter><routine>.
  StringRef routine = target.substr(StringRef("lapack_?").size());
  ValueRange operands = getDataOperands(call);
  auto tuple = dyn_cast<TupleType>(call.getType());
  Location loc = call.getLoc();
  if (routine == "trsm_ffi") {
    Attribute config = call.getBackendConfigAttr();
    char side = readFfiCharOption(config, "side", 'L');
    char uplo = readFfiCharOption(config, "uplo", 'L');
    char trans = readFfiCharOption(config, "trans_x", 'N');
    char diag = readFfiCharOption(config, "diag", 'N');
    if (operands.size() != 2 || tuple || !StringRef("LR").contains(side) ||
        !StringRef("LU").contains(uplo) || !StringRef("NTC").contains(trans) ||
        !StringRef("NU").contains(diag))
      return call.emitError("hlo-to-thunk: ")
             << target
             << " needs operands (a, b), the result x and LAPACK's side, "
                "uplo, trans_x and diag characters (alpha other than 1 is "
                "not supported yet)";
    FailureOr<Value> a = fortranSlice(call, operands[0]),
                     rhs = fortranSlice(call, operands[1]),
                     x = fortranSlice(call, call.getResult(), 0);
    if (failed(a) || failed(rhs) || failed(x))
      return failure();
    copy(loc, *rhs, *x);
    auto unit = [&](bool set) { return set ? b.getUnitAttr() : UnitAttr(); };
    th::TrsmTranspose t = trans == 'N'   ? th::TrsmTranspose::None
                          : trans == 'T' ? th::TrsmTranspose::Transpose
                                         : th::TrsmTranspose::Adjoint;
    auto thunk = th::TriangularSolveOp::create(
        b, loc, *a, *x, unit(side == 'L'), unit(uplo == 'L'), unit(diag == 'U'),
        th::TrsmTransposeAttr::get(b.getContext(), t));
    return mlir::verify(thunk);
  }
  return call.emitError("hlo-to-thunk: custom call '")
         << target << "' has no thunk yet";
}

/// The slice type reading the row-major matrices of `type` (minor-to-major
/// {r-1, r-2, ..., 0}) as their column-major transposes: the two minor
/// dimensions swapped.
static FailureOr<MemRefType> transposedFortranType(Operation *at, Type type) {
  auto t = cast<RankedTensorType>(type);
  int64_t r = t.getRank();
  SmallVector<int64_t> rowMajor;
  for (int64_t d = r - 1; d >= 0; --d)
    rowMajor.push_back(d);
  if (getMinorToMajor(t) != rowMajor)
    return at->emitError("hlo-to-thunk: a transposed SVD reads row-major "
                         "matrices: ")
               << t << " needs the default layout",
           failure();
  // The row-major strides with the two minor dimensions swapped.
  SmallVector<int64_t> shape(t.getShape()), strides = getPhysicalStrides(t);
  std::swap(shape[r - 1], shape[r - 2]);
  std::swap(strides[r - 1], strides[r - 2]);
  return MemRefType::get(
      shape, t.getElementType(),
      StridedLayoutAttr::get(at->getContext(), /*offset=*/0, strides));
}

LogicalResult ThunkLowering::lowerFactorization(CustomCallOp call) {
  std::string why;
  FailureOr<FactorizationCall> fc = readFactorizationCall(call, why);
  if (failed(fc))
    return call.emitError("hlo-to-thunk: ") << why;
  // XLA's Eigh call has no info array for the thunk's.
  if (fc->kind == FactorizationCall::Kind::Eigh && !fc->hasInfo)
    return call.emitError("hlo-to-thunk: XLA's Eigh call has no thunk "
                          "(hlo-gpusolver-rewriter makes it cuSOLVER's syevd "
                          "call)");
  Location loc = call.getLoc();
  Value operand = getDataOperands(call)[0], result = call.getResult();
  using Kind = FactorizationCall::Kind;
  if (fc->kind == Kind::PivotsToPermutation) {
    FailureOr<Value> pivots =
                         slice(call, operand, 0, getSignatureType(fc->operand)),
                     permutation =
                         slice(call, result, 0,
                               getSignatureType(
                                   cast<RankedTensorType>(call.getType())));
    if (failed(pivots) || failed(permutation))
      return failure();
    return mlir::verify(
        th::LuPivotsToPermutationOp::create(b, loc, *pivots, *permutation));
  }
  auto unit = [&](bool set) { return set ? b.getUnitAttr() : UnitAttr(); };
  auto plainOperand = [&](unsigned i) {
    Value v = getDataOperands(call)[i];
    return slice(call, v, 0,
                 getSignatureType(cast<RankedTensorType>(v.getType())));
  };
  // A result (node > 0: tuple element node - 1) in its own layout.
  auto plain = [&](unsigned node) {
    Type type = call.getType();
    if (node)
      type = cast<TupleType>(type).getType(node - 1);
    return slice(call, result, node,
                 getSignatureType(cast<RankedTensorType>(type)));
  };
  if (fc->kind == Kind::HouseholderProduct) {
    FailureOr<Value> a = fortranSlice(call, operand),
                     q = fortranSlice(call, result), tau = plainOperand(1);
    if (failed(a) || failed(q) || failed(tau))
      return failure();
    copy(loc, *a, *q);
    return mlir::verify(th::HouseholderProductOp::create(b, loc, *q, *tau));
  }
  if (fc->kind == Kind::TridiagonalSolve) {
    // b copied into the solutions' slice; LAPACK's (dl, d, du, b, info)
    // returns dl, d and du as given.
    unsigned xNode = fc->hasInfo ? 4 : 0;
    SmallVector<Value> diagonals;
    for (unsigned i = 0; i < 3; ++i) {
      FailureOr<Value> in = plainOperand(i);
      if (failed(in))
        return failure();
      diagonals.push_back(*in);
      if (!fc->hasInfo)
        continue;
      FailureOr<Value> out =
          slice(call, result, i + 1, cast<MemRefType>(in->getType()));
      if (failed(out))
        return failure();
      copy(loc, *in, *out);
    }
    FailureOr<Value> rhs = fortranSlice(call, getDataOperands(call)[3]),
                     x = fortranSlice(call, result, xNode);
    if (failed(rhs) || failed(x))
      return failure();
    Value info;
    if (fc->hasInfo) {
      FailureOr<Value> i = plain(5);
      if (failed(i))
        return failure();
      info = *i;
    }
    copy(loc, *rhs, *x);
    return mlir::verify(th::TridiagonalSolveOp::create(
        b, loc, diagonals[0], diagonals[1], diagonals[2], *x, info));
  }
  auto tuple = cast<TupleType>(call.getType());
  if (fc->kind == Kind::Eig) {
    // (wr, wi, vl, vr, info) or (w, vl, vr, info); the operand is read only.
    // cuSOLVER's (a, w, vl, vr, info): the operand copied into a's slice,
    // read from there.
    bool split = tuple.size() == 5 && !fc->packed;
    SmallVector<Value> slices;
    for (unsigned node = 0; node <= tuple.size(); ++node) {
      bool matrix = (node >= tuple.size() - 2 && node < tuple.size()) ||
                    (fc->packed && node == 1);
      FailureOr<Value> s = node == 0 ? fortranSlice(call, operand)
                           : matrix  ? fortranSlice(call, result, node)
                                     : plain(node);
      if (failed(s))
        return failure();
      slices.push_back(*s);
    }
    if (fc->packed) {
      // slices[1] is a's: the thunk reads the operand's copy there.
      copy(loc, slices[0], slices[1]);
      slices.erase(slices.begin());
    }
    bool packed = fc->packed && !isa<ComplexType>(fc->operand.getElementType());
    auto thunk = th::EigOp::create(
        b, loc, slices[0], slices[1], split ? slices[2] : Value(),
        slices[slices.size() - 3], slices[slices.size() - 2], slices.back(),
        unit(fc->left), unit(fc->right), unit(packed));
    return mlir::verify(thunk);
  }
  // The matrices (operand and the results of matrix type) as the library
  // reads them.
  auto matrices = [&](Value value, unsigned node) -> FailureOr<Value> {
    if (!fc->transposed)
      return fortranSlice(call, value, node);
    Type type = node ? tuple.getType(node - 1) : value.getType();
    FailureOr<MemRefType> memref = transposedFortranType(call, type);
    if (failed(memref))
      return failure();
    return slice(call, value, node, *memref);
  };
  FailureOr<Value> a = matrices(operand, 0), out = matrices(result, 1);
  if (failed(a) || failed(out))
    return failure();
  copy(loc, *a, *out);
  // The plain results from `first` on.
  auto plains = [&](unsigned first) -> FailureOr<SmallVector<Value>> {
    SmallVector<Value> values;
    for (unsigned node = first; node <= tuple.size(); ++node) {
      FailureOr<Value> v = plain(node);
      if (failed(v))
        return failure();
      values.push_back(*v);
    }
    return values;
  };
  auto zero = [&](Value v) { th::MemsetOp::create(b, loc, v, 0); };
  Operation *thunk = nullptr;
  bool allVectors = fc->vectors == FactorizationCall::Vectors::All;
  switch (fc->kind) {
  case Kind::Lu:
  case Kind::Eigh:
  case Kind::Cholesky:
  case Kind::Qr:
  case Kind::Hessenberg:
  case Kind::Tridiagonal: {
    FailureOr<SmallVector<Value>> rest = plains(2);
    if (failed(rest))
      return failure();
    ArrayRef<Value> r = *rest;
    if (fc->kind == Kind::Lu)
      thunk = th::LuOp::create(b, loc, *out, r[0], r[1]);
    else if (fc->kind == Kind::Eigh)
      thunk = th::EighOp::create(b, loc, *out, r[0], r[1], unit(fc->lower),
                                 unit(allVectors));
    else if (fc->kind == Kind::Cholesky)
      thunk =
          th::CholeskyOp::create(b, loc, *out, r[0], Value(), unit(fc->lower));
    else if (fc->kind == Kind::Qr)
      thunk = th::QrOp::create(b, loc, *out, r[0]);
    else if (fc->kind == Kind::Hessenberg)
      thunk =
          th::HessenbergOp::create(b, loc, *out, r[0], r[1], fc->low, fc->high);
    else
      thunk = th::TridiagonalOp::create(b, loc, *out, r[0], r[1], r[2], r[3],
                                        unit(fc->lower));
    // geqrf's info: LAPACK and cuSOLVER report no failure.
    if (fc->kind == Kind::Qr && fc->hasInfo)
      zero(r[1]);
    return mlir::verify(thunk);
  }
  case Kind::Schur: {
    // (t, vs, wr, wi, sdim, info) or (t, vs, w, sdim, info).
    FailureOr<Value> vs = fortranSlice(call, result, 2);
    FailureOr<SmallVector<Value>> rest = plains(3);
    if (failed(vs) || failed(rest))
      return failure();
    ArrayRef<Value> r = *rest;
    bool split = r.size() == 4;
    thunk = th::SchurOp::create(b, loc, *out, *vs, r[0], split ? r[1] : Value(),
                                r.back(), unit(allVectors));
    zero(r[r.size() - 2]); // sdim: nothing is sorted
    return mlir::verify(thunk);
  }
  default:
    break;
  }
  // SVD: the factors' slices as the library writes them (their shapes
  // unchecked when none are computed).
  bool none = fc->vectors == FactorizationCall::Vectors::None;
  FailureOr<Value> s = plain(2), info = plain(5),
                   u = none ? plain(3) : matrices(result, 3),
                   v = none ? plain(4) : matrices(result, 4);
  if (failed(s) || failed(info) || failed(u) || failed(v))
    return failure();
  th::SvdVectors vectors = none         ? th::SvdVectors::None
                           : allVectors ? th::SvdVectors::All
                                        : th::SvdVectors::Reduced;
  thunk = th::SvdOp::create(b, loc, *out, *s, *u, *v, *info,
                            th::SvdVectorsAttr::get(b.getContext(), vectors),
                            unit(fc->qrIteration), unit(fc->adjointV));
  return mlir::verify(thunk);
}
