//===- HostConvolution.cpp - thunk.convolution on the CPU -----------------===//
//
// `thunk.convolution` as im2col and OpenBLAS GEMMs, one per feature group,
// where oneDNN does not take it (HostDnnl.cpp: f32 convolutions, in builds
// with oneDNN).
// Every (batch, output position) row of the column matrix holds the input
// elements each (input feature, filter position) reads, zero where the
// window falls in padding or between dilated elements; then
//   forward:         out[row, o]  = cols[row, :] . filter[o, :]
//   backward_filter: dw[o, :]     = sum over rows of dy[row, o] cols[row, :]
//   backward_input:  dcols[row, :] = sum over o of dy[row, o] filter[o, :],
//                    scattered back (added) to the input positions read.
// Every tensor is addressed through its layout's strides, so any layout
// works. f16 and bf16 are widened to f32 and rounded back (f64 stays f64);
// the fused epilogue rounds to the element type after each step, as the
// HLO instructions it replaces do. i8 convolutions sum exactly in double
// (DGEMM), run their epilogue in f32 and store an i8 output saturated and
// rounded toward zero (the clamp and convert they replace).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Thunk/ThunkDialect.h"
#include "Hlo/Runtime/Host/HostRuntime.h"

#include "HostFloat.h"
#ifdef HLO_HAVE_DNNL
#include "HostDnnl.h"
#endif

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace mlir;
using namespace mlir::thunk;

namespace {

/// Elements of one type as T: i8 exactly (stores saturate toward zero, NaN
/// to 0), f64 as double, the other floats through float. The kind is
/// decided once: loads and stores run per element.
template <typename T> struct Codec {
  enum Kind { I8, F64, F32, Narrow };
  Codec(Type type)
      : type(type), kind(type.isInteger(8) ? I8
                         : type.isF64()    ? F64
                         : type.isF32()    ? F32
                                           : Narrow),
        narrow(type) {}
  Type type;
  Kind kind;
  /// f16 and bf16 (kind Narrow).
  FloatCodec narrow;

  /// Whether the elements are T itself (f32 for float, f64 for double).
  bool isNative() const { return kind == (sizeof(T) == 4 ? F32 : F64); }

  T load(const uint8_t *base, int64_t i) const {
    switch (kind) {
    case I8:
      return T(int8_t(base[i]));
    case F64: {
      double d;
      std::memcpy(&d, base + 8 * i, 8);
      return T(d);
    }
    case F32: {
      float f;
      std::memcpy(&f, base + 4 * i, 4);
      return T(f);
    }
    case Narrow:
      break;
    }
    return T(narrow.load(base, i));
  }
  void store(uint8_t *base, int64_t i, T x) const {
    switch (kind) {
    case I8: {
      double v = std::isnan(x) ? 0.0 : std::trunc(double(x));
      base[i] = uint8_t(int8_t(std::clamp(v, -128.0, 127.0)));
      return;
    }
    case F64: {
      double d = double(x);
      std::memcpy(base + 8 * i, &d, 8);
      return;
    }
    case F32: {
      float f = float(x);
      std::memcpy(base + 4 * i, &f, 4);
      return;
    }
    case Narrow:
      narrow.store(base, i, float(x));
      return;
    }
  }
  /// `x` rounded to the element type.
  T round(T x) const {
    if (kind == F64 || (kind == F32 && sizeof(T) == 4))
      return x;
    uint8_t bytes[8] = {};
    store(bytes, 0, x);
    return load(bytes, 0);
  }
};

/// Calls `f(load)` with `load(i)` reading element `i` of `base` as `codec`
/// does: a plain typed read where the elements are T's own type, so the
/// loops over it (the im2col gathers) have no per-element dispatch.
template <typename T, typename F>
void withLoader(const Codec<T> &codec, const uint8_t *base, F f) {
  if (codec.isNative()) {
    const T *typed = reinterpret_cast<const T *>(base);
    f([typed](int64_t i) { return typed[i]; });
    return;
  }
  f([&codec, base](int64_t i) { return codec.load(base, i); });
}

/// Row-major C[m, n] = op(A) op(B) with op(A) m x k, op(B) k x n.
void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
          const float *a, const float *b, float *c) {
  cblas_sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
              transB ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a,
              transA ? m : k, b, transB ? k : n, 0.0f, c, n);
}
void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
          const double *a, const double *b, double *c) {
  cblas_dgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
              transB ? CblasTrans : CblasNoTrans, m, n, k, 1.0, a,
              transA ? m : k, b, transB ? k : n, 0.0, c, n);
}

double activate(ConvActivation mode, double x, double alpha) {
  switch (mode) {
  case ConvActivation::None:
    return x;
  case ConvActivation::Relu:
    return x < 0 ? 0.0 : x;
  case ConvActivation::Relu6:
    return std::min(std::max(x, 0.0), 6.0);
  case ConvActivation::Elu:
    return x > 0 ? x : std::expm1(x);
  case ConvActivation::LeakyRelu:
    return x > 0 ? x : alpha * x;
  case ConvActivation::Tanh:
    return std::tanh(x);
  case ConvActivation::Sigmoid:
    return 1.0 / (1.0 + std::exp(-x));
  }
  return x;
}

/// Calls `f(linear, index)` for every index of `extents`, row-major.
template <typename F> void forEachIndex(ArrayRef<int64_t> extents, F f) {
  int64_t total = 1;
  for (int64_t e : extents)
    total *= e;
  SmallVector<int64_t> index(extents.size(), 0);
  for (int64_t i = 0; i < total; ++i) {
    f(i, ArrayRef<int64_t>(index));
    for (int64_t d = int64_t(extents.size()) - 1; d >= 0; --d) {
      if (++index[d] < extents[d])
        break;
      index[d] = 0;
    }
  }
}

template <typename T>
LogicalResult run(ConvolutionOp conv, ArrayRef<uint8_t *> buffers,
                  ArrayRef<int64_t> filterStrides) {
  ConvTensorAttr inL = conv.getInputLayout(), wL = conv.getFilterLayout(),
                 outL = conv.getOutputLayout();
  // The input and filter; the output; the arithmetic of the epilogue (the
  // output's type, f32 for an i8 output).
  Codec<T> codec{conv.getInput().getType().getElementType()};
  Codec<T> out{conv.getOutput().getType().getElementType()};
  Codec<T> work{out.type.isInteger(8) ? Float32Type::get(conv.getContext())
                                      : out.type};
  uint8_t *x = buffers[0], *w = buffers[1], *y = buffers[2];
  int64_t rank = inL.getNumSpatialDims();
  SmallVector<int64_t> xs = inL.getDescriptorStrides(), ws(filterStrides),
                       ys = outL.getDescriptorStrides();
  SmallVector<int64_t> inSize, kSize, outSize;
  for (int64_t d = 0; d < rank; ++d) {
    inSize.push_back(inL.getSpatialSize(d));
    kSize.push_back(wL.getSpatialSize(d));
    outSize.push_back(outL.getSpatialSize(d));
  }
  int64_t groups = conv.getFeatureGroupCount();
  int64_t batch = inL.getBatchSize();
  int64_t cg = inL.getFeatureSize() / groups;
  int64_t og = outL.getFeatureSize() / groups;
  int64_t numK = 1, numP = 1;
  for (int64_t d = 0; d < rank; ++d) {
    numK *= kSize[d];
    numP *= outSize[d];
  }
  ArrayRef<int64_t> stride = conv.getWindowStrides(),
                    padLow = conv.getPaddingLow(),
                    lhsDil = conv.getLhsDilation(),
                    rhsDil = conv.getRhsDilation();
  // The input offset (spatial part) each (output position, filter
  // position) reads, -1 for padding; the filter's and output's spatial
  // offsets.
  std::vector<int64_t> inOffset(numP * numK), wOffset(numK), outOffset(numP);
  // A reversed window reads the filter flipped.
  bool reversed = conv.getReversed();
  forEachIndex(kSize, [&](int64_t k, ArrayRef<int64_t> ki) {
    int64_t off = 0;
    for (int64_t d = 0; d < rank; ++d)
      off += (reversed ? kSize[d] - 1 - ki[d] : ki[d]) * ws[2 + d];
    wOffset[k] = off;
  });
  forEachIndex(outSize, [&](int64_t p, ArrayRef<int64_t> pi) {
    int64_t off = 0;
    for (int64_t d = 0; d < rank; ++d)
      off += pi[d] * ys[2 + d];
    outOffset[p] = off;
    forEachIndex(kSize, [&](int64_t k, ArrayRef<int64_t> ki) {
      int64_t in = 0;
      for (int64_t d = 0; d < rank; ++d) {
        int64_t pos = pi[d] * stride[d] + ki[d] * rhsDil[d] - padLow[d];
        if (pos < 0 || pos % lhsDil[d] || pos / lhsDil[d] >= inSize[d]) {
          in = -1;
          break;
        }
        in += pos / lhsDil[d] * xs[2 + d];
      }
      inOffset[p * numK + k] = in;
    });
  });

  int64_t rows = batch * numP, ck = cg * numK;
  std::vector<T> cols(rows * ck), filter(og * ck), dy(rows * og);
  std::vector<T> acc; // backward_input's sums, by input offset
  ConvKind kind = conv.getKind();
  if (kind == ConvKind::BackwardInput)
    acc.assign(inL.getNumElements(), T(0));
  for (int64_t g = 0; g < groups; ++g) {
    // The operands of the group's GEMM.
    if (kind != ConvKind::BackwardInput)
      withLoader(codec, x, [&](auto load) {
        for (int64_t n = 0; n < batch; ++n)
          for (int64_t p = 0; p < numP; ++p)
            for (int64_t c = 0; c < cg; ++c) {
              int64_t base = n * xs[0] + (g * cg + c) * xs[1];
              T *row = &cols[(n * numP + p) * ck + c * numK];
              const int64_t *offsets = &inOffset[p * numK];
              for (int64_t k = 0; k < numK; ++k)
                row[k] = offsets[k] < 0 ? T(0) : load(base + offsets[k]);
            }
      });
    if (kind != ConvKind::BackwardFilter)
      withLoader(codec, w, [&](auto load) {
        for (int64_t o = 0; o < og; ++o)
          for (int64_t c = 0; c < cg; ++c)
            for (int64_t k = 0; k < numK; ++k)
              filter[o * ck + c * numK + k] =
                  load((g * og + o) * ws[0] + c * ws[1] + wOffset[k]);
      });
    if (kind == ConvKind::BackwardInput || kind == ConvKind::BackwardFilter)
      withLoader(codec, y, [&](auto load) {
        for (int64_t n = 0; n < batch; ++n)
          for (int64_t p = 0; p < numP; ++p)
            for (int64_t o = 0; o < og; ++o)
              dy[(n * numP + p) * og + o] =
                  load(n * ys[0] + (g * og + o) * ys[1] + outOffset[p]);
      });

    switch (kind) {
    case ConvKind::Forward:
    case ConvKind::ForwardBiasActivation: {
      gemm(false, true, rows, og, ck, cols.data(), filter.data(), dy.data());
      bool fused = kind == ConvKind::ForwardBiasActivation;
      if (!fused && out.isNative()) {
        // The GEMM's result is the output: scattered to its layout.
        T *typed = reinterpret_cast<T *>(y);
        for (int64_t n = 0; n < batch; ++n)
          for (int64_t p = 0; p < numP; ++p) {
            T *at = typed + n * ys[0] + g * og * ys[1] + outOffset[p];
            const T *from = &dy[(n * numP + p) * og];
            for (int64_t o = 0; o < og; ++o)
              at[o * ys[1]] = from[o];
          }
        break;
      }
      Codec<T> biasCodec{fused ? conv.getBias().getType().getElementType()
                               : work.type};
      double scale = conv.getConvResultScale().convertToDouble();
      double sideScale = conv.getSideInputScale().convertToDouble();
      double alpha = conv.getLeakyReluAlpha().convertToDouble();
      ConvActivation mode = conv.getActivation();
      uint8_t *bias = buffers[3], *side = buffers[4];
      for (int64_t n = 0; n < batch; ++n)
        for (int64_t p = 0; p < numP; ++p)
          for (int64_t o = 0; o < og; ++o) {
            int64_t feature = g * og + o;
            int64_t at = n * ys[0] + feature * ys[1] + outOffset[p];
            T v = work.round(dy[(n * numP + p) * og + o]);
            if (fused) {
              if (scale != 1.0)
                v = work.round(T(v * scale));
              v = work.round(v + biasCodec.load(bias, feature));
              if (side && sideScale != 0.0) {
                T s = out.load(side, at);
                if (sideScale != 1.0)
                  s = work.round(T(s * sideScale));
                v = work.round(v + s);
              }
              if (mode != ConvActivation::None)
                v = work.round(T(activate(mode, v, alpha)));
            }
            out.store(y, at, v);
          }
      break;
    }
    case ConvKind::BackwardFilter:
      gemm(true, false, og, ck, rows, dy.data(), cols.data(), filter.data());
      for (int64_t o = 0; o < og; ++o)
        for (int64_t c = 0; c < cg; ++c)
          for (int64_t k = 0; k < numK; ++k)
            codec.store(w, (g * og + o) * ws[0] + c * ws[1] + wOffset[k],
                        filter[o * ck + c * numK + k]);
      break;
    case ConvKind::BackwardInput:
      gemm(false, false, rows, ck, og, dy.data(), filter.data(), cols.data());
      for (int64_t n = 0; n < batch; ++n)
        for (int64_t p = 0; p < numP; ++p)
          for (int64_t c = 0; c < cg; ++c) {
            int64_t base = n * xs[0] + (g * cg + c) * xs[1];
            const T *row = &cols[(n * numP + p) * ck + c * numK];
            const int64_t *offsets = &inOffset[p * numK];
            for (int64_t k = 0; k < numK; ++k)
              if (offsets[k] >= 0)
                acc[base + offsets[k]] += row[k];
          }
      break;
    }
  }
  if (kind == ConvKind::BackwardInput)
    for (int64_t i = 0, e = acc.size(); i < e; ++i)
      codec.store(x, i, acc[i]);
  return success();
}

} // namespace

LogicalResult mlir::thunk::runHostConvolution(Operation *op,
                                              ArrayRef<uint8_t *> buffers,
                                              std::string &error,
                                              StringRef *library,
                                              ArrayRef<int64_t> filterStrides) {
  auto conv = dyn_cast<ConvolutionOp>(op);
  if (!conv || buffers.size() != 6) {
    error = "runHostConvolution: expected a thunk.convolution and its six "
            "buffers";
    return failure();
  }
  // The filter's strides: the layout's, or those given.
  SmallVector<int64_t> ws = filterStrides.empty()
                                ? conv.getFilterLayout().getDescriptorStrides()
                                : llvm::to_vector(filterStrides);
#ifdef HLO_HAVE_DNNL
  FailureOr<bool> ranByDnnl = runDnnlConvolution(conv, buffers, ws, error);
  if (failed(ranByDnnl))
    return failure();
  if (*ranByDnnl) {
    if (library)
      *library = "oneDNN";
    return success();
  }
#endif
  if (library)
    *library = "OpenBLAS";
  Type element = conv.getInput().getType().getElementType();
  if (element.isF64() || element.isInteger(8))
    return run<double>(conv, buffers, ws);
  if (element.isF32() || element.isF16() || element.isBF16())
    return run<float>(conv, buffers, ws);
  error = "thunk.convolution: element type is not supported on the host";
  return failure();
}
