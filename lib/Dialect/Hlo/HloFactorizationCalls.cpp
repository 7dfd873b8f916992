//===- HloFactorizationCalls.cpp - JAX's linear algebra calls -------------===//
//
// The target names, options and result shapes of JAX's linear algebra FFI
// calls (jaxlib's lapack, gpu_solver and gpu_sparse kernels; the attributes
// as JAX writes them: LAPACK's characters `mode`, `uplo`, `sort` as ui8 and
// gehrd's `low`, `high` as i32, cuSOLVER's booleans).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloFactorizationCalls.h"
#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::hlo;

using Kind = FactorizationCall::Kind;
using Vectors = FactorizationCall::Vectors;

namespace {
/// A target's kind and, for LAPACK's, its routine's element letter.
struct Target {
  Kind kind;
  char letter = 0; // s, d, c, z; 0 for the GPU's (any solver type)
  bool cusolver = false; // a GPU call (cuSOLVER's, cuSPARSE's, JAX's own)
  bool gesvdj = false;
  bool gesvd = false;
  bool geev = false; // cuSOLVER's geev: (a, w, vl, vr, info)
  bool xla = false;  // XLA's client library's own (Qr, Eigh, ...)
};
} // namespace

static std::optional<Target> parseTarget(StringRef target) {
  if (target == "cu_lu_pivots_to_permutation")
    return Target{Kind::PivotsToPermutation, 0, true};
  if (target == "cuhybrid_eig_real" || target == "cuhybrid_eig_comp")
    return Target{Kind::Eig, 0, true};
  if (target == "cusolver_geev_ffi")
    return Target{Kind::Eig, 0, true, false, false, true};
  if (target == "cusparse_gtsv2_ffi")
    return Target{Kind::TridiagonalSolve, 0, true};
  // XLA's client library's calls (XLA's QrExpander and EighExpander expand
  // them).
  if (target == "Qr")
    return Target{Kind::Qr, 0, true, false, false, false, true};
  if (target == "ProductOfElementaryHouseholderReflectors")
    return Target{Kind::HouseholderProduct, 0, true, false, false, false, true};
  if (target == "Eigh")
    return Target{Kind::Eigh, 0, true, false, false, false, true};
  if (target.consume_front("cusolver_") && target.consume_back("_ffi")) {
    std::optional<Kind> kind = llvm::StringSwitch<std::optional<Kind>>(target)
                                   .Case("getrf", Kind::Lu)
                                   .Case("potrf", Kind::Cholesky)
                                   .Case("geqrf", Kind::Qr)
                                   .Case("orgqr", Kind::HouseholderProduct)
                                   .Case("syevd", Kind::Eigh)
                                   .Case("sytrd", Kind::Tridiagonal)
                                   .Default(std::nullopt);
    if (kind)
      return Target{*kind, 0, true};
    if (target == "gesvd" || target == "gesvdj")
      return Target{Kind::Svd, 0, true, target == "gesvdj", target == "gesvd"};
    return std::nullopt;
  }
  if (!target.consume_front("lapack_") || !target.consume_back("_ffi") ||
      target.size() < 2 || !StringRef("sdcz").contains(target.front()))
    return std::nullopt;
  char letter = target.front();
  bool complex = letter == 'c' || letter == 'z';
  StringRef routine = target.drop_front();
  std::optional<Kind> kind =
      llvm::StringSwitch<std::optional<Kind>>(routine)
          .Case("getrf", Kind::Lu)
          .Case("potrf", Kind::Cholesky)
          .Case("geqrf", Kind::Qr)
          .Case(complex ? "ungqr" : "orgqr", Kind::HouseholderProduct)
          .Case(complex ? "heevd" : "syevd", Kind::Eigh)
          .Case("geev", Kind::Eig)
          .Case("gees", Kind::Schur)
          .Case("gehrd", Kind::Hessenberg)
          .Case(complex ? "hetrd" : "sytrd", Kind::Tridiagonal)
          .Case("gtsv", Kind::TridiagonalSolve)
          .Default(std::nullopt);
  if (kind)
    return Target{*kind, letter};
  if (routine == "gesdd" || routine == "gesvd")
    return Target{Kind::Svd, letter, false, false, routine == "gesvd"};
  return std::nullopt;
}

bool mlir::hlo::isFactorizationTarget(StringRef target) {
  return parseTarget(target).has_value();
}

/// The element letter of LAPACK's routines for `t`, 0 for none.
static char letterOf(Type t) {
  if (t.isF32())
    return 's';
  if (t.isF64())
    return 'd';
  if (auto c = dyn_cast<ComplexType>(t))
    return c.getElementType().isF32()   ? 'c'
           : c.getElementType().isF64() ? 'z'
                                        : 0;
  return 0;
}

static Type realPart(Type t) {
  if (auto c = dyn_cast<ComplexType>(t))
    return c.getElementType();
  return t;
}

FailureOr<FactorizationCall>
mlir::hlo::readFactorizationCall(CustomCallOp call, std::string &why) {
  StringRef name = call.getCustomCallTarget();
  std::optional<Target> target = parseTarget(name);
  auto fail = [&](const Twine &reason) -> FailureOr<FactorizationCall> {
    why = (name + ": " + reason).str();
    return failure();
  };
  if (!target)
    return fail("not a factorization call");
  OperandRange operands = getDataOperands(call);
  unsigned numOperands = target->kind == Kind::HouseholderProduct ? 2
                         : target->kind == Kind::TridiagonalSolve ? 4
                                                                  : 1;
  SmallVector<RankedTensorType> operandTypes;
  for (Value v : operands) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t || !t.hasStaticShape() || t.getRank() < 1)
      break;
    operandTypes.push_back(t);
  }
  if (operands.size() != numOperands || operandTypes.size() != numOperands)
    return fail(numOperands == 1 ? "expected one operand, a static array"
                : numOperands == 2
                    ? "expected two operands (a, tau), static arrays"
                    : "expected four operands (dl, d, du, b), static arrays");
  FactorizationCall fc;
  fc.kind = target->kind;
  RankedTensorType operand = fc.kind == Kind::TridiagonalSolve
                                 ? operandTypes.back()
                                 : operandTypes.front();
  fc.operand = operand;
  ArrayRef<int64_t> shape = operand.getShape();
  Type element = operand.getElementType();
  MLIRContext *ctx = call.getContext();
  Type i32 = IntegerType::get(ctx, 32);
  auto array = [&](ArrayRef<int64_t> dims, Type t) {
    return RankedTensorType::get(dims, t);
  };
  // Result types compared without layouts.
  auto same = [](Type actual, RankedTensorType expected) {
    auto t = dyn_cast<RankedTensorType>(actual);
    return t && t.getShape() == expected.getShape() &&
           t.getElementType() == expected.getElementType();
  };

  if (fc.kind == Kind::PivotsToPermutation) {
    auto result = dyn_cast<RankedTensorType>(call.getType());
    if (!element.isSignlessInteger(32) || !result ||
        !result.getElementType().isSignlessInteger(32) ||
        result.getRank() != operand.getRank() ||
        result.getShape().drop_back() != shape.drop_back() ||
        result.getShape().back() < shape.back())
      return fail("expected s32[..., k] pivots and an s32[..., m] "
                  "permutation with the same batch dimensions, m >= k");
    fc.batch = operand.getNumElements() / std::max<int64_t>(1, shape.back());
    fc.m = result.getShape().back();
    fc.n = shape.back();
    return fc;
  }

  if (operand.getRank() < 2 || !letterOf(element) ||
      (target->letter && target->letter != letterOf(element)))
    return fail(target->letter
                    ? llvm::formatv("expected a batch of {0} matrices",
                                    target->letter == 's'   ? "f32"
                                    : target->letter == 'd' ? "f64"
                                    : target->letter == 'c' ? "c64"
                                                            : "c128")
                          .str()
                    : std::string("expected a batch of f32, f64, c64 or "
                                  "c128 matrices"));
  ArrayRef<int64_t> batchDims = shape.drop_back(2);
  fc.m = shape[shape.size() - 2];
  fc.n = shape.back();
  fc.batch = 1;
  for (int64_t d : batchDims)
    fc.batch *= d;
  auto withBatch = [&](ArrayRef<int64_t> minor) {
    SmallVector<int64_t> dims(batchDims);
    dims.append(minor.begin(), minor.end());
    return dims;
  };
  auto tuple = dyn_cast<TupleType>(call.getType());
  Attribute config = call.getBackendConfigAttr();
  RankedTensorType info = array(batchDims, i32);

  if (fc.kind == Kind::TridiagonalSolve) {
    // dl, d, du: m values per system; b: m x nrhs.
    RankedTensorType diagonal = array(withBatch({fc.m}), element);
    for (RankedTensorType t : ArrayRef(operandTypes).drop_back())
      if (!same(t, diagonal))
        return fail(llvm::formatv("expected dl, d and du of shape {0}, b's "
                                  "batch of m values",
                                  diagonal)
                        .str());
    Type bType = call.getType();
    fc.hasInfo = !target->cusolver;
    if (fc.hasInfo) {
      if (!tuple || tuple.size() != 5 || !same(tuple.getType(0), diagonal) ||
          !same(tuple.getType(1), diagonal) ||
          !same(tuple.getType(2), diagonal) || !same(tuple.getType(4), info))
        return fail("expected the results (dl, d, du, b, info s32[...])");
      bType = tuple.getType(3);
    }
    if (!same(bType, operand))
      return fail("expected the solutions of b's shape");
    return fc;
  }

  if (fc.kind == Kind::Lu) {
    if (!tuple || tuple.size() != 3 || !same(tuple.getType(0), operand) ||
        !same(tuple.getType(1), array(withBatch({fc.k()}), i32)) ||
        !same(tuple.getType(2), info))
      return fail("expected the results (a, pivots s32[..., min(m, n)], "
                  "info s32[...])");
    return fc;
  }

  // The triangle a call reads: cuSOLVER's `lower`, LAPACK's `uplo`.
  auto readLower = [&]() -> LogicalResult {
    if (target->cusolver) {
      fc.lower = readFfiBoolOption(config, "lower").value_or(true);
      return success();
    }
    char uplo = readFfiCharOption(config, "uplo", 'L');
    fc.lower = uplo == 'L';
    return success(uplo == 'L' || uplo == 'U');
  };
  RankedTensorType real = array(withBatch({fc.n}), realPart(element));
  RankedTensorType reflectors =
      array(withBatch({std::max<int64_t>(fc.n - 1, 0)}), element);

  if (fc.kind == Kind::Cholesky) {
    if (fc.m != fc.n)
      return fail("expected square matrices");
    if (failed(readLower()))
      return fail("uplo must be 'L' or 'U'");
    if (!tuple || tuple.size() != 2 || !same(tuple.getType(0), operand) ||
        !same(tuple.getType(1), info))
      return fail("expected the results (a, info s32[...])");
    return fc;
  }

  if (fc.kind == Kind::Qr) {
    fc.hasInfo = tuple && tuple.size() == 3;
    if (!tuple || tuple.size() < 2 || tuple.size() > 3 ||
        !same(tuple.getType(0), operand) ||
        !same(tuple.getType(1), array(withBatch({fc.k()}), element)) ||
        (fc.hasInfo && !same(tuple.getType(2), info)))
      return fail("expected the results (a, tau[, info s32[...]]) with "
                  "min(m, n) scales per matrix");
    return fc;
  }

  if (fc.kind == Kind::HouseholderProduct) {
    RankedTensorType tau = operandTypes[1];
    fc.reflectors = tau.getShape().back();
    if (tau.getElementType() != element ||
        tau.getShape().drop_back() != batchDims || fc.m < fc.n ||
        fc.reflectors > fc.n)
      return fail("expected m x n matrices, m >= n, and tau of their type "
                  "with at most n scales per matrix");
    if (!same(call.getType(), operand))
      return fail("expected the result q of a's shape");
    return fc;
  }

  if (fc.kind == Kind::Schur) {
    if (fc.m != fc.n)
      return fail("expected square matrices");
    char mode = readFfiCharOption(config, "mode", 'V');
    char sort = readFfiCharOption(config, "sort", 'N');
    if (!StringRef("VN").contains(mode))
      return fail("mode must be 'V' or 'N'");
    if (sort != 'N')
      return fail("sorting the eigenvalues (sort other than 'N') is not "
                  "supported");
    fc.vectors = mode == 'V' ? Vectors::All : Vectors::None;
    // Real matrices: (t, vs, wr, wi, sdim, info); complex: (t, vs, w, sdim,
    // info).
    bool complex = isa<ComplexType>(element);
    unsigned size = complex ? 5 : 6;
    RankedTensorType values = array(withBatch({fc.n}), element);
    if (!tuple || tuple.size() != size || !same(tuple.getType(0), operand) ||
        !same(tuple.getType(1), operand) || !same(tuple.getType(2), values) ||
        (!complex && !same(tuple.getType(3), values)) ||
        !same(tuple.getType(size - 2), info) ||
        !same(tuple.getType(size - 1), info))
      return fail(complex ? "expected the results (t, vs, w, sdim s32[...], "
                            "info s32[...])"
                          : "expected the results (t, vs, wr, wi, sdim "
                            "s32[...], info s32[...])");
    return fc;
  }

  if (fc.kind == Kind::Hessenberg) {
    if (fc.m != fc.n)
      return fail("expected square matrices");
    fc.low = readFfiIntOption(config, "low").value_or(1);
    fc.high = readFfiIntOption(config, "high").value_or(fc.n);
    if (fc.n > 0 ? fc.low < 1 || fc.low > fc.high || fc.high > fc.n
                 : fc.low != 1 || fc.high != 0)
      return fail(llvm::formatv("low and high must satisfy 1 <= low <= high "
                                "<= n ({0}), not {1} and {2}",
                                fc.n, fc.low, fc.high)
                      .str());
    if (!tuple || tuple.size() != 3 || !same(tuple.getType(0), operand) ||
        !same(tuple.getType(1), reflectors) || !same(tuple.getType(2), info))
      return fail("expected the results (a, tau with n - 1 scales per "
                  "matrix, info s32[...])");
    return fc;
  }

  if (fc.kind == Kind::Tridiagonal) {
    if (fc.m != fc.n)
      return fail("expected square matrices");
    if (failed(readLower()))
      return fail("uplo must be 'L' or 'U'");
    RankedTensorType offDiagonal =
        array(withBatch({std::max<int64_t>(fc.n - 1, 0)}), realPart(element));
    if (!tuple || tuple.size() != 5 || !same(tuple.getType(0), operand) ||
        !same(tuple.getType(1), real) || !same(tuple.getType(2), offDiagonal) ||
        !same(tuple.getType(3), reflectors) || !same(tuple.getType(4), info))
      return fail("expected the results (a, d with n and e with n - 1 real "
                  "values per matrix, tau, info s32[...])");
    return fc;
  }

  if (fc.kind == Kind::Eigh && target->xla) {
    // XLA's call: (v, w), backend_config "lower,sort_eigenvalues,max_iter,
    // tol" as its client library writes it.
    if (fc.m != fc.n)
      return fail("expected square matrices");
    auto text = dyn_cast_or_null<StringAttr>(config);
    SmallVector<StringRef> fields;
    if (text)
      text.getValue().split(fields, ',');
    int lower = 0, sort = 0;
    double tol = 0;
    int64_t maxIter = 0;
    if (fields.size() != 4 || fields[0].trim().getAsInteger(10, lower) ||
        fields[1].trim().getAsInteger(10, sort) ||
        fields[2].trim().getAsInteger(10, maxIter) ||
        fields[3].trim().getAsDouble(tol))
      return fail("expected the backend_config \"lower,sort_eigenvalues,"
                  "max_iter,tol\"");
    fc.lower = lower != 0;
    fc.sortEigenvalues = sort != 0;
    fc.maxIterations = maxIter;
    fc.tolerance = tol;
    fc.hasInfo = false;
    if (!tuple || tuple.size() != 2 || !same(tuple.getType(0), operand) ||
        !same(tuple.getType(1), real))
      return fail("expected the results (v, w) with n real eigenvalues per "
                  "matrix");
    return fc;
  }

  if (fc.kind == Kind::Eigh) {
    if (fc.m != fc.n)
      return fail("expected square matrices");
    char mode = readFfiCharOption(config, "mode", 'V');
    if (failed(readLower()) || !StringRef("VN").contains(mode))
      return fail("mode must be 'V' or 'N' and uplo 'L' or 'U'");
    if (!target->cusolver)
      fc.vectors = mode == 'V' ? Vectors::All : Vectors::None;
    if (!tuple || tuple.size() != 3 || !same(tuple.getType(0), operand) ||
        !same(tuple.getType(1), real) || !same(tuple.getType(2), info))
      return fail("expected the results (a, w, info s32[...]) with n real "
                  "eigenvalues per matrix");
    return fc;
  }

  if (fc.kind == Kind::Eig) {
    if (fc.m != fc.n)
      return fail("expected square matrices");
    if (target->cusolver) {
      fc.left = readFfiBoolOption(config, "left").value_or(false);
      fc.right = readFfiBoolOption(config, "right").value_or(true);
    } else {
      char left = readFfiCharOption(config, "compute_left", 'N');
      char right = readFfiCharOption(config, "compute_right", 'V');
      if (!StringRef("VN").contains(left) || !StringRef("VN").contains(right))
        return fail("compute_left and compute_right must be 'V' or 'N'");
      fc.left = left == 'V';
      fc.right = right == 'V';
    }
    // Real matrices: (wr, wi, vl, vr, info); complex: (w, vl, vr, info);
    // cuSOLVER's: (a, w, vl, vr, info), w complex, vectors of a's type.
    bool complex = isa<ComplexType>(element);
    fc.packed = target->geev;
    Type vectorType =
        complex || fc.packed ? element : ComplexType::get(element);
    RankedTensorType values = array(withBatch({fc.n}), element),
                     vectors = array(withBatch({fc.n, fc.n}), vectorType);
    if (fc.packed) {
      if (!tuple || tuple.size() != 5 || !same(tuple.getType(0), operand) ||
          !same(tuple.getType(1),
                array(withBatch({fc.n}),
                      complex ? element : ComplexType::get(element))) ||
          !same(tuple.getType(2), vectors) ||
          !same(tuple.getType(3), vectors) || !same(tuple.getType(4), info))
        return fail("expected the results (a, w complex, vl, vr of a's type, "
                    "info s32[...])");
      return fc;
    }
    unsigned size = complex ? 4 : 5;
    if (!tuple || tuple.size() != size || !same(tuple.getType(0), values) ||
        (!complex && !same(tuple.getType(1), values)) ||
        !same(tuple.getType(size - 3), vectors) ||
        !same(tuple.getType(size - 2), vectors) ||
        !same(tuple.getType(size - 1), info))
      return fail(complex ? "expected the results (w, vl, vr, info s32[...])"
                          : "expected the results (wr, wi, vl, vr, info "
                            "s32[...]), the vectors complex");
    return fc;
  }

  // SVD.
  fc.qrIteration = target->gesvd;
  if (target->cusolver) {
    bool uv = readFfiBoolOption(config, "compute_uv").value_or(true);
    bool full = readFfiBoolOption(config, "full_matrices").value_or(true);
    fc.vectors = !uv ? Vectors::None : full ? Vectors::All : Vectors::Reduced;
    fc.adjointV = target->gesvdj;
    fc.transposed = !target->gesvdj &&
                    readFfiBoolOption(config, "transposed").value_or(false);
  } else {
    char mode = readFfiCharOption(config, "mode", 'A');
    if (!StringRef("ASN").contains(mode))
      return fail("mode must be 'A', 'S' or 'N'");
    fc.vectors = mode == 'A'   ? Vectors::All
                 : mode == 'S' ? Vectors::Reduced
                               : Vectors::None;
  }
  if (fc.transposed)
    std::swap(fc.m, fc.n);
  if (!tuple || tuple.size() != 5 || !same(tuple.getType(0), operand) ||
      !same(tuple.getType(1), array(withBatch({fc.k()}), realPart(element))) ||
      !same(tuple.getType(4), info))
    return fail("expected the results (a, s, u, v, info s32[...]) with "
                "min(m, n) real singular values per matrix");
  if (fc.vectors == Vectors::None)
    return fc;
  // The factors' shapes: U m x (m or k), V^H (n or k) x n, V its adjoint;
  // transposed calls give the transposes.
  bool all = fc.vectors == Vectors::All;
  int64_t uCols = all ? fc.m : fc.k(), vRows = all ? fc.n : fc.k();
  SmallVector<int64_t> u = withBatch({fc.m, uCols}),
                       v = fc.adjointV ? withBatch({fc.n, vRows})
                                       : withBatch({vRows, fc.n});
  if (fc.transposed) {
    std::swap(u[u.size() - 1], u[u.size() - 2]);
    std::swap(v[v.size() - 1], v[v.size() - 2]);
  }
  if (!same(tuple.getType(2), array(u, element)) ||
      !same(tuple.getType(3), array(v, element)))
    return fail(llvm::formatv("expected u of shape {0} and {1} of shape {2}",
                              array(u, element), fc.adjointV ? "v" : "v^H",
                              array(v, element))
                    .str());
  return fc;
}
