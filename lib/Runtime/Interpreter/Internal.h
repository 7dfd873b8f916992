//===- Internal.h - reference interpreter internals -------------*- C++ -*-===//
//
// Shared by the op-family files of the interpreter: the per-device
// interpreter state (`Interp`), the module-wide state shared by all
// simulated devices, and small helpers over shapes and indices.
//
// Each family file exposes one `evalXxxOp` function that returns
// std::nullopt for ops it does not handle, a failure (with the device's
// error set) or the op's value.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_RUNTIME_INTERPRETER_INTERNAL_H
#define HLO_LIB_RUNTIME_INTERPRETER_INTERNAL_H

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Runtime/Interpreter.h"
#include "Hlo/Runtime/Literal.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"

#include <atomic>
#include <cmath>
#include <complex>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::hlo::runtime::eval {

using Operands = ArrayRef<const Literal *>;
using EvalResult = std::optional<FailureOr<Literal>>;

class Rendezvous;

/// Per computation: the values that die after each instruction.
struct ComputationInfo {
  ComputationOp op;
  /// deaths[i]: values last used by the i-th instruction of the body.
  std::vector<SmallVector<Value, 2>> deaths;
};

/// State shared by all simulated devices of one run. Built before the
/// devices start and read-only afterwards, except the synchronized parts.
struct SharedState {
  /// Without `liveness`, no value is freed before its computation returns
  /// (the Evaluator: the module's bodies may change between evaluations).
  SharedState(ModuleOp module, const InterpreterOptions &options,
              bool liveness = true);
  ~SharedState();

  ModuleOp module;
  InterpreterOptions options;
  int64_t numDevices;
  /// options.maxLiveBytes with the default resolved (0: none).
  int64_t liveBytesLimit;
  llvm::StringMap<ComputationInfo> computations;
  llvm::DenseMap<Operation *, ComputationInfo *> infoByOp;
  /// Exchanges collective operands between devices (null with one device).
  std::shared_ptr<Rendezvous> rendezvous;
  std::atomic<int64_t> whileIterations{0};
};

/// One simulated device: evaluates computations op by op.
class Interp {
public:
  Interp(SharedState &shared, int64_t replica, int64_t partition)
      : shared(shared), replica(replica), partition(partition) {}

  /// Runs `comp` on `args` (one per parameter, types already checked).
  FailureOr<Literal> runComputation(ComputationOp comp,
                                    std::vector<Literal> args);
  /// Runs the computation named `callee` for instruction `caller`, checking
  /// the argument types.
  FailureOr<Literal> call(Operation *caller, StringRef callee,
                          std::vector<Literal> args);
  FailureOr<ComputationOp> lookup(Operation *caller, StringRef callee);

  /// Records `message` about `op` (the first error wins) and fails.
  LogicalResult fail(Operation *op, const Twine &message);
  FailureOr<Literal> error(Operation *op, const Twine &message) {
    return FailureOr<Literal>(fail(op, message));
  }

  SharedState &shared;
  int64_t replica;
  int64_t partition;
  std::string errorMessage;
  /// Counter mixed into rng results so that each rng op call differs.
  uint64_t rngCalls = 0;
  /// rng-get-and-update-state's state (starts at the seed).
  uint64_t rngState = 0;
  bool rngStateInitialized = false;
  /// Bytes of the values held in the environments of this device.
  int64_t liveBytes = 0;
  /// Data sent by send, by channel id, for recv.
  std::map<int64_t, std::deque<Literal>> mailbox;
  /// The next infeed value to read, and the values written by outfeed.
  size_t infeedNext = 0;
  std::vector<Literal> outfeed;
  /// Host transfers: the next value the host gives each channel, and what
  /// the device sent to the host, in order.
  std::map<int64_t, size_t> fromHostNext;
  std::vector<std::pair<int64_t, Literal>> toHost;
  /// Runtime sizes of the dynamic dimensions of array values produced by
  /// set-dimension-size and dynamic-reshape (and elementwise ops of them),
  /// where they differ from the bounds; values without an entry are at
  /// their bounds. See Shape.cpp.
  llvm::DenseMap<Value, SmallVector<int64_t, 4>> runtimeSizes;

  /// The value of one instruction on the values of its data operands.
  FailureOr<Literal> evalOp(Operation *op, Operands operands);

private:
  unsigned depth = 0;
};

/// An elementwise op (unary, binary, compare, select, clamp, convert, a
/// bitcast-convert between element types of one width)
/// prepared for repeated evaluation on scalars.
class ElementwiseFn {
public:
  /// The function of `op`, or std::nullopt if it is not such an op.
  static std::optional<ElementwiseFn> get(Operation *op);
  /// out[outIdx] = op(args[i][argIdx[i]]...); false if the element types
  /// are not supported.
  bool apply(ArrayRef<const Literal *> args, ArrayRef<int64_t> argIdx,
             Literal &out, int64_t outIdx) const;

private:
  enum class Kind : uint8_t { Unary, Binary, Select, Clamp, Convert, Bitcast };
  Kind kind = Kind::Unary;
  uint8_t code = 0;
  uint8_t direction = 0;
  bool totalOrder = false;
};

/// A called computation applied to scalars (reducers, comparators, map and
/// scatter combiners). A body made only of scalar elementwise ops and
/// constants (ending in a scalar or a tuple of scalars) is compiled once to
/// a small register program; any other body is interpreted per call.
class ScalarFunction {
public:
  /// With `widen`, a body computing in one float type narrower than f32
  /// is compiled to compute in f32 (it takes and returns f32 or its own
  /// type); isWidened() tells whether that happened.
  static FailureOr<ScalarFunction> get(Interp &interp, Operation *caller,
                                       StringRef callee, bool widen = false);
  bool isWidened() const { return widened; }
  /// results[k][outIdx[k]] = f(args[0][argIdx[0]], ...). Results are arrays
  /// of the computation's result element types.
  LogicalResult apply(ArrayRef<const Literal *> args, ArrayRef<int64_t> argIdx,
                      ArrayRef<Literal *> results, ArrayRef<int64_t> outIdx);
  /// For comparators: f(args...) as a bool.
  FailureOr<bool> test(ArrayRef<const Literal *> args,
                       ArrayRef<int64_t> argIdx);
  unsigned getNumResults() const { return numResults; }

private:
  struct Instr {
    ElementwiseFn fn;
    SmallVector<unsigned, 3> args;
    unsigned out;
  };
  bool compile(Block &body, bool widen);
  bool runProgram(ArrayRef<const Literal *> args, ArrayRef<int64_t> argIdx);

  Interp *interp = nullptr;
  Operation *caller = nullptr;
  ComputationOp comp;
  unsigned numResults = 1;
  /// The register program: parameters first, then constants and results.
  bool compiled = false;
  bool widened = false;
  unsigned numParams = 0;
  std::vector<Literal> regs;
  std::vector<Instr> program;
  SmallVector<unsigned, 4> resultRegs;
  Literal pred; // comparator result
};

/// The reducer idiom of reduce, reduce-window and scatter: n accumulators
/// (the op's results) folded with n inputs by a computation of 2n scalar
/// parameters (accumulators first) and n results.
class Fold {
public:
  Fold(ScalarFunction &f, MutableArrayRef<Literal> accumulators,
       Operands inputs);
  /// accumulators[k][at] = f(accumulators[0..n)[at], inputs[0..n)[from]).
  LogicalResult operator()(int64_t at, int64_t from);

private:
  ScalarFunction &f;
  size_t n;
  SmallVector<const Literal *> args;
  SmallVector<Literal *> outs;
  SmallVector<int64_t> argIdx, outIdx;
};

//===----------------------------------------------------------------------===//
// Op families (one file each).
//===----------------------------------------------------------------------===//

EvalResult evalControlOp(Interp &, Operation *, Operands); // Control.cpp
EvalResult evalElementwiseOp(Interp &, Operation *,
                             Operands);                     // Elementwise.cpp
EvalResult evalConvertOp(Interp &, Operation *, Operands);  // Convert.cpp
EvalResult evalShapeOp(Interp &, Operation *, Operands);    // Shape.cpp
EvalResult evalIndexingOp(Interp &, Operation *, Operands); // GatherScatter.cpp
EvalResult evalReduceOp(Interp &, Operation *, Operands);   // Reduce.cpp
EvalResult evalLinalgOp(Interp &, Operation *, Operands);   // Linalg.cpp
EvalResult evalSolverOp(Interp &, Operation *, Operands);   // Solvers.cpp
EvalResult evalCollectiveOp(Interp &, Operation *, Operands); // Collectives.cpp
EvalResult evalShardMapBoundary(Interp &, CustomCallOp, Operands);
/// A send between devices (Collectives.cpp): every device meets there; for
/// each (source, target) device pair the target receives the source's
/// `data`, a device that is no target zeros. Returns what this device
/// receives.
FailureOr<Literal> sendToPeers(Interp &interp, Operation *send,
                               const Literal &data,
                               ArrayRef<std::pair<int64_t, int64_t>> pairs);
EvalResult evalRngOp(Interp &, Operation *, Operands);        // Rng.cpp

/// The tiles of `type`'s layout (empty without a layout or tiles).
inline SmallVector<ArrayRef<int64_t>> tilesOf(Type type) {
  auto layout =
      dyn_cast_or_null<LayoutAttr>(cast<RankedTensorType>(type).getEncoding());
  if (!layout)
    return {};
  return layout.getTiles();
}

/// Where the elements of an array of `shape` lie in memory under a tiled
/// layout, as XLA defines tiling: the dimensions in major-to-minor order
/// are padded to multiples of the first tile's sizes (a tile of rank k
/// covers the k minor-most dimensions; missing leading dimensions count
/// as 1), each tiled dimension splits into (index / tile, index % tile)
/// with the tile parts becoming the minor-most dimensions, the next tile
/// applies to that shape in turn, and memory is the final shape in
/// row-major order.
struct TiledLayout {
  SmallVector<int64_t> order; // major to minor
  SmallVector<ArrayRef<int64_t>> tiles;
  /// The number of elements of memory, padding included.
  int64_t size = 1;

  TiledLayout(ArrayRef<int64_t> shape, ArrayRef<int64_t> minorToMajor,
              SmallVector<ArrayRef<int64_t>> tiles)
      : order(llvm::reverse(minorToMajor)), tiles(std::move(tiles)) {
    SmallVector<int64_t> sizes, index;
    for (int64_t d : order)
      sizes.push_back(shape[d]);
    index.assign(sizes.size(), 0);
    tile(sizes, index);
    for (int64_t s : sizes)
      size *= s;
  }

  /// The memory position of the element at logical `index`.
  int64_t offset(ArrayRef<int64_t> logical, ArrayRef<int64_t> shape) const {
    SmallVector<int64_t> sizes, index;
    for (int64_t d : order) {
      sizes.push_back(shape[d]);
      index.push_back(logical[d]);
    }
    tile(sizes, index);
    int64_t at = 0;
    for (auto [i, s] : llvm::zip(index, sizes))
      at = at * s + i;
    return at;
  }

  /// False if a tile has a `*` (combined) dimension, which is not modelled.
  bool isSupported() const {
    return llvm::all_of(tiles, [](ArrayRef<int64_t> t) {
      return llvm::all_of(t, [](int64_t v) { return v > 0; });
    });
  }

private:
  void tile(SmallVector<int64_t> &sizes, SmallVector<int64_t> &index) const {
    for (ArrayRef<int64_t> t : tiles) {
      size_t k = t.size();
      if (sizes.size() < k) {
        sizes.insert(sizes.begin(), k - sizes.size(), 1);
        index.insert(index.begin(), k - index.size(), 0);
      }
      size_t first = sizes.size() - k;
      for (size_t j = 0; j < k; ++j) {
        sizes.push_back(t[j]);
        index.push_back(index[first + j] % t[j]);
        sizes[first + j] = llvm::divideCeil(sizes[first + j], t[j]);
        index[first + j] /= t[j];
      }
    }
  }
};

/// bitcast (Bitcast.cpp).
FailureOr<Literal> bitcast(Interp &, Operation *, const Literal &in);

/// convolution (Convolution.cpp).
FailureOr<Literal> convolution(Interp &, ConvolutionOp, const Literal &lhs,
                               const Literal &rhs);
/// The Cholesky factor of each matrix of `a` (lower: L L^H = a, else
/// U^H U = a; NaN where not positive definite) into `result` (Solvers.cpp).
Literal cholesky(bool lower, const Literal &a, Literal result);
/// triangular-solve's arithmetic (Solvers.cpp): `b` solved against the
/// triangle of `a` that `lower` names, into `result` (of `b`'s type).
Literal triangularSolve(bool leftSide, bool lower, bool unitDiagonal,
                        Transpose transposeA, const Literal &a,
                        const Literal &b, Literal result);
/// A convolution given by its attributes (the cuDNN custom calls), into
/// `result` (its shape and element type); errors name `op`.
FailureOr<Literal> convolution(Interp &, Operation *op, WindowAttr window,
                               ConvDimensionNumbersAttr dn,
                               int64_t featureGroups, int64_t batchGroups,
                               const Literal &lhs, const Literal &rhs,
                               Literal result);

/// Sums products of elements in the result's arithmetic.
class Accumulator {
public:
  explicit Accumulator(ElementKind kind) : kind(kind) {}
  void reset() {
    real = 0.0;
    cplx = 0.0;
    integer = 0;
  }
  void add(const Literal &a, int64_t i, const Literal &b, int64_t j) {
    switch (kind) {
    case ElementKind::Float:
      real += a.getFloat(i) * b.getFloat(j);
      break;
    case ElementKind::Complex:
      cplx += a.getComplex(i) * b.getComplex(j);
      break;
    case ElementKind::Pred:
      integer |= (!a.isZero(i) && !b.isZero(j));
      break;
    default:
      integer += static_cast<uint64_t>(a.getInt(i)) *
                 static_cast<uint64_t>(b.getInt(j));
      break;
    }
  }
  void store(Literal &out, int64_t k) const {
    switch (kind) {
    case ElementKind::Float:
      out.setFloat(k, real);
      break;
    case ElementKind::Complex:
      out.setComplex(k, cplx);
      break;
    default:
      out.setInt(k, static_cast<int64_t>(integer));
      break;
    }
  }

private:
  ElementKind kind;
  double real = 0.0;
  std::complex<double> cplx = 0.0;
  uint64_t integer = 0;
};

/// Runtime dimension sizes (Shape.cpp): before `op` runs, fails if it reads
/// a value with runtime sizes below its bounds and is not one of the ops
/// that know them; after it ran, records its result's runtime sizes when
/// an elementwise op carries them over. Called only while some value of
/// the device has runtime sizes.
LogicalResult checkRuntimeSizes(Interp &interp, Operation *op);
void propagateRuntimeSizes(Interp &interp, Operation *op);
/// XLA's custom calls between the two forms of a dynamic array,
/// `SliceToDynamic` and `PadToStatic`; std::nullopt for other targets.
EvalResult evalDynamicShapeCustomCall(Interp &interp, CustomCallOp op,
                                      Operands operands);
/// XLA's cuBLAS GEMM custom calls, `__cublas$gemm` and
/// `__cublas$lt$matmul`, computed from their gemm_backend_config
/// (Linalg.cpp); std::nullopt for other targets.
EvalResult evalGemmCustomCall(Interp &interp, CustomCallOp op,
                              Operands operands);
/// The block-scaled quantization custom calls of JAX's MX and NVFP4
/// formats (`__op$quantize`, `__op$dequantize`, `__op$block_scaled_dot`;
/// BlockScaling.cpp); std::nullopt for other targets.
EvalResult evalBlockScalingCustomCall(Interp &interp, CustomCallOp op,
                                      Operands operands);
/// XLA's cuDNN convolutions, cuSOLVER Cholesky and cuBLAS triangular-solve
/// custom calls (`__cudnn$conv*`, `__cusolver$cholesky`,
/// `__cublas$triangularSolve`), computed from their window, dim_labels and
/// backend_config (LibraryCalls.cpp); std::nullopt for other
/// targets.
EvalResult evalLibraryCustomCall(Interp &interp, CustomCallOp op,
                                 Operands operands);
/// XLA's top-k custom calls (`TopK`, of hlo-topk-rewriter, and
/// `__gpu$TopK`, of hlo-topk-specializer): the first k of each row of a
/// stable sort by the called comparator (Reduce.cpp).
EvalResult evalTopKCustomCall(Interp &interp, CustomCallOp op,
                              Operands operands);
/// Transformer Engine's scaled softmax call (`te_scaled_softmax_forward_ffi`,
/// HloTransformerEngineCalls.h): softmax(scale * x) over the last
/// dimension, in f32 as TE computes it, rounded to the result's type
/// (Reduce.cpp).
EvalResult evalTransformerEngineCustomCall(Interp &interp, CustomCallOp op,
                                           Operands operands);
/// XLA-GPU's CUB radix sort calls (`xla.gpu.ext.cub_sort_*`, of
/// hlo-sort-rewriter): each row stably sorted by CUB's order of the keys,
/// values along, the scratch zeros (Reduce.cpp).
EvalResult evalCubSortCustomCall(Interp &interp, CustomCallOp op,
                                 Operands operands);
/// XLA CPU's LAPACK FFI custom calls (`lapack_?geqrf_ffi`,
/// `lapack_?orgqr_ffi` / `lapack_?ungqr_ffi`, `lapack_?trsm_ffi`), as LAPACK
/// defines them (Solvers.cpp); std::nullopt for other targets.
EvalResult evalLapackCustomCall(Interp &interp, CustomCallOp op,
                                Operands operands);
/// JAX's LU, eigh and SVD calls on XLA CPU and GPU
/// (HloFactorizationCalls.h; Factorizations.cpp); std::nullopt for other
/// targets.
EvalResult evalFactorizationCall(Interp &interp, CustomCallOp op,
                                 Operands operands);
/// The elements of `in` within the runtime `sizes` (each at most `in`'s
/// dimension), as an array of shape `sizes`.
Literal sliceToRuntimeShape(const Literal &in, ArrayRef<int64_t> sizes);

/// convert of one element: out[k] = convert(in[i]) (see Convert.cpp).
void convertElement(const Literal &in, int64_t i, Literal &out, int64_t k);
/// reduce-precision of one value of float type `type`.
double reducePrecision(double v, Type type, int64_t exponentBits,
                       int64_t mantissaBits);

/// Creates the rendezvous for `shared` when it has several devices.
std::shared_ptr<Rendezvous> makeRendezvous(int64_t numDevices);
/// Wakes every device waiting in the rendezvous with a failure.
void abortRendezvous(Rendezvous &rendezvous);
/// Tells the rendezvous that a device has finished its run.
void finishRendezvous(Rendezvous &rendezvous);
/// Runs `device(d)` (success or failure) for every device d of `shared`
/// (replica-major), each in a thread of its own; a failing device aborts
/// the rendezvous so that no other waits forever. On failure, `error` is
/// the message of the lowest device that failed of its own accord (the
/// others stopped because of it), so that it does not depend on timing,
/// prefixed with its replica and partition; `errorOf(d)` is device d's.
LogicalResult
runDevicesInThreads(SharedState &shared,
                    llvm::function_ref<LogicalResult(int64_t)> device,
                    llvm::function_ref<StringRef(int64_t)> errorOf,
                    std::string &error);

//===----------------------------------------------------------------------===//
// Helpers.
//===----------------------------------------------------------------------===//

/// The instruction name (from the location) or the opcode.
std::string describe(Operation *op);
/// An HLO shape spelling of a type, for messages (`f32[2,3]`, tuples...).
std::string typeToString(Type type);

/// The static shape of `op`'s result (an array), or an error.
FailureOr<SmallVector<int64_t>> resultShape(Interp &interp, Operation *op);
/// A zero-filled literal of `op`'s result type, or an error.
FailureOr<Literal> makeResult(Interp &interp, Operation *op);
/// The result element type of `op` (an array result).
Type resultElementType(Operation *op);

/// Row-major strides of `shape`.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape);
/// Advances a multi-index in row-major order; false after the last one.
bool nextIndex(MutableArrayRef<int64_t> index, ArrayRef<int64_t> shape);
/// Element count of a shape.
int64_t numElements(ArrayRef<int64_t> shape);

/// Calls fn(i, j) for every element of `shape` transposed by `order`: i
/// counts the transposed (row-major) positions, j is the row-major position
/// of the same element in `shape`, where dimension d of the transposed
/// array is dimension order[d] of `shape`.
template <typename Fn>
void forEachTransposed(ArrayRef<int64_t> shape, ArrayRef<int64_t> order,
                       Fn fn) {
  SmallVector<int64_t> strides = stridesOf(shape), size, step;
  for (int64_t d : order) {
    size.push_back(shape[d]);
    step.push_back(strides[d]);
  }
  SmallVector<int64_t> idx(order.size(), 0);
  int64_t j = 0;
  for (int64_t i = 0, n = numElements(shape); i < n; ++i) {
    fn(i, j);
    for (int64_t d = static_cast<int64_t>(order.size()) - 1; d >= 0; --d) {
      j += step[d];
      if (++idx[d] < size[d])
        break;
      j -= step[d] * size[d];
      idx[d] = 0;
    }
  }
}

/// Calls `fn(resultIndex, linear)` for every element of `out`.
template <typename Fn> void forEachElement(const Literal &out, Fn fn) {
  int64_t n = out.getNumElements();
  if (n == 0)
    return;
  SmallVector<int64_t> index(out.getRank(), 0);
  int64_t linear = 0;
  do {
    fn(ArrayRef<int64_t>(index), linear++);
  } while (nextIndex(index, out.getShape()));
}

/// Calls `fn(base, stride, length)` for each 1-D line along `dim` of
/// `shape`: elements base + i * stride, i < length.
template <typename Fn>
LogicalResult forEachLine(ArrayRef<int64_t> shape, int64_t dim, Fn fn) {
  SmallVector<int64_t> strides = stridesOf(shape);
  SmallVector<int64_t> outer(shape);
  outer[dim] = 1;
  SmallVector<int64_t> idx(shape.size(), 0);
  for (int64_t i = 0, e = numElements(outer); i < e;
       ++i, nextIndex(idx, outer)) {
    int64_t base = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      base += idx[d] * strides[d];
    if (failed(fn(base, strides[dim], shape[dim])))
      return failure();
  }
  return success();
}

/// `l`'s elements as doubles, transposed by `order` (see forEachTransposed).
std::vector<double> transposedReals(const Literal &l, ArrayRef<int64_t> order);

/// Runs work(first, last) on consecutive ranges covering [0, rows), split
/// over the machine's threads when `cost` (multiply-adds) is large enough
/// and the run has one simulated device (several devices already run in a
/// thread each). Each row must be computed independently of the others.
void parallelRows(Interp &interp, int64_t rows, double cost,
                  llvm::function_ref<void(int64_t, int64_t)> work);

/// The `i`-th attribute list of an optional DenseI64ArrayAttr.
inline ArrayRef<int64_t> orEmpty(std::optional<ArrayRef<int64_t>> a) {
  return a ? *a : ArrayRef<int64_t>();
}

/// The runtime dimension sizes of `value` (its static shape, dynamic
/// dimensions at their bounds, unless a runtime size was recorded).
SmallVector<int64_t> runtimeShape(Interp &interp, Value value,
                                  const Literal &literal);

/// values[d], or `dflt` past the end (window attributes may list fewer
/// dimensions than the operand has).
inline int64_t attrAt(ArrayRef<int64_t> values, size_t d, int64_t dflt) {
  return d < values.size() ? values[d] : dflt;
}

/// Element `i` of an index operand, signed or unsigned as its type says, as
/// XLA's compiled code reads start indices (XLA's constant folding alone
/// reads a u32 dynamic-slice index as s32); a u64 past int64's range is
/// int64's maximum.
int64_t indexValue(const Literal &l, int64_t i = 0);

/// A literal scalar from element `i` of `l`.
Literal scalarAt(const Literal &l, int64_t i);

/// Bytes held by a literal's elements (tuples: all their arrays).
int64_t footprint(const Literal &l);

/// HLO's maximum and minimum of floats: NaN if either is (the first NaN),
/// +0 above -0.
inline double floatMax(double x, double y) {
  if (std::isnan(x))
    return x;
  if (std::isnan(y))
    return y;
  if (x == y)
    return std::signbit(x) ? y : x;
  return x > y ? x : y;
}
inline double floatMin(double x, double y) {
  if (std::isnan(x))
    return x;
  if (std::isnan(y))
    return y;
  if (x == y)
    return std::signbit(x) ? x : y;
  return x < y ? x : y;
}

/// Total-order key of a float (-nan < -inf < ... < -0 < +0 < ... < nan).
int64_t totalOrderKey(double v);

/// `x` with each element times the element of `scale` covering it (scale
/// index d = x index d / blocks[d]); each factor and product rounded to
/// `type`, as the converts and multiply of a dequantization round them
/// (BlockScaling.cpp; block-scaled custom calls and scaled-dot).
Literal scaleByBlocks(const Literal &x, const Literal &scale, Type type,
                      ArrayRef<int64_t> blocks);

/// Checks dimension numbers that no verifier checked (scaled-dot,
/// ragged-dot, custom calls): dims in range, paired dims of equal size, and
/// the result shape batch + lhs free + rhs free (after `lead` leading dims)
/// (Linalg.cpp).
LogicalResult checkDotDims(Interp &interp, Operation *op, const Literal &lhs,
                           const Literal &rhs, const Literal &out,
                           ArrayRef<int64_t> lb, ArrayRef<int64_t> lc,
                           ArrayRef<int64_t> rb, ArrayRef<int64_t> rc,
                           ArrayRef<int64_t> rhsExtra = {}, int64_t lead = 0);

/// out = dot(lhs, rhs) with the given dimension numbers, accumulated in
/// double (int64, complex double) and rounded once (Linalg.cpp).
FailureOr<Literal> dotInto(Interp &interp, Operation *op, const Literal &lhs,
                           const Literal &rhs, Literal out,
                           ArrayRef<int64_t> lb, ArrayRef<int64_t> lc,
                           ArrayRef<int64_t> rb, ArrayRef<int64_t> rc);

} // namespace mlir::hlo::runtime::eval

#endif // HLO_LIB_RUNTIME_INTERPRETER_INTERNAL_H
