//===- Convolution.cpp - convolution --------------------------------------===//
//
// convolution(lhs, rhs) as HLO defines it: dim_labels name the batch,
// feature and spatial dimensions of the input (lhs), the kernel (rhs) and
// the output. Output element (b, f, o...) is the sum, over the kernel
// window k... and the input features i of f's feature group, of
//   lhs[b', g * I + i, p...] * rhs[f, i, k'...]
// where, per spatial dimension d,
//   q_d = o_d * stride_d + k_d * rhs_dilation_d - pad_low_d
// must be a multiple of lhs_dilation_d with p_d = q_d / lhs_dilation_d
// inside the input (any other q_d reads a padding or dilation zero),
// k'_d = K_d - 1 - k_d where the window is reversed (k_d otherwise),
// I = the kernel's input feature size, g = f / (F / feature_group_count)
// and b' = (f / (F / batch_group_count)) * B + b for output sizes F, B.
//
// Float convolutions (the ones that matter for size) run on copies of the
// operands transposed to [batch, spatial..., feature] and
// [output feature, spatial..., input feature], so that the innermost loop is
// a contiguous dot product; the window positions that read the input are
// tabulated once per spatial dimension, and large outputs are split over
// threads (each output element is computed by one thread in a fixed order,
// so the result does not depend on the thread count). Products are summed
// in double and rounded once to the result type. Other element types go
// element by element through the Accumulator.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::runtime::eval;

namespace {
/// Everything about a convolution that does not depend on the values.
struct ConvGeometry {
  ConvDimensionNumbersAttr dn;
  SmallVector<int64_t> stride, padLow, lhsDil, rhsDil, kernelSize, inSize,
      outSize;
  SmallVector<bool> reversed;
  int64_t outFeatures, outBatch, groupInputs, featuresPerGroup,
      featuresPerBatchGroup;

  size_t spatialRank() const { return kernelSize.size(); }
  /// The input position read in spatial dimension `d` by output position
  /// `o` and window position `k`, or -1 for a padding or dilation zero.
  int64_t inputPos(size_t d, int64_t o, int64_t k) const {
    int64_t q = o * stride[d] + k * rhsDil[d] - padLow[d];
    if (q < 0 || q % lhsDil[d] != 0 || q / lhsDil[d] >= inSize[d])
      return -1;
    return q / lhsDil[d];
  }
  /// The kernel position used by window position `k` of dimension `d`.
  int64_t kernelPos(size_t d, int64_t k) const {
    return reversed[d] ? kernelSize[d] - 1 - k : k;
  }
  /// The lhs batch and first input feature read by output (b, f).
  int64_t lhsBatch(int64_t b, int64_t f) const {
    return (f / featuresPerBatchGroup) * outBatch + b;
  }
  int64_t firstInput(int64_t f) const {
    return (f / featuresPerGroup) * groupInputs;
  }
};
} // namespace

static FailureOr<ConvGeometry>
getGeometry(Interp &interp, Operation *op, WindowAttr w,
            ConvDimensionNumbersAttr dn, int64_t fgc, int64_t bgc,
            const Literal &lhs, const Literal &rhs, const Literal &out) {
  ConvGeometry g;
  g.dn = dn;
  for (size_t d = 0, e = g.dn.getInputSpatial().size(); d < e; ++d) {
    g.stride.push_back(w ? attrAt(w.getStride(), d, 1) : 1);
    g.padLow.push_back(w ? attrAt(w.getPadLow(), d, 0) : 0);
    g.lhsDil.push_back(w ? attrAt(w.getLhsDilate(), d, 1) : 1);
    g.rhsDil.push_back(w ? attrAt(w.getRhsDilate(), d, 1) : 1);
    g.reversed.push_back(w && attrAt(w.getReversal(), d, 0) != 0);
    g.kernelSize.push_back(rhs.getShape()[g.dn.getKernelSpatial()[d]]);
    g.inSize.push_back(lhs.getShape()[g.dn.getInputSpatial()[d]]);
    g.outSize.push_back(out.getShape()[g.dn.getOutputSpatial()[d]]);
  }
  g.outFeatures = out.getShape()[g.dn.getOutputFeature()];
  g.outBatch = out.getShape()[g.dn.getOutputBatch()];
  g.groupInputs = rhs.getShape()[g.dn.getKernelInput()];
  if (fgc < 1 || bgc < 1 || g.outFeatures % fgc != 0 ||
      g.outFeatures % bgc != 0 ||
      lhs.getShape()[g.dn.getInputFeature()] != g.groupInputs * fgc ||
      lhs.getShape()[g.dn.getInputBatch()] != g.outBatch * bgc ||
      rhs.getShape()[g.dn.getKernelOutput()] != g.outFeatures)
    return interp.fail(op, "the group counts do not fit the shapes");
  for (size_t d = 0; d < g.spatialRank(); ++d)
    if (g.stride[d] < 1 || g.lhsDil[d] < 1 || g.rhsDil[d] < 1)
      return interp.fail(op, "strides and dilations must be positive");
  g.featuresPerGroup = g.outFeatures / fgc;
  g.featuresPerBatchGroup = g.outFeatures / bgc;
  return g;
}

/// Element by element, for any element type.
static Literal convolveElements(const ConvGeometry &g, const Literal &lhs,
                                const Literal &rhs, Literal out) {
  const ConvDimensionNumbersAttr &dn = g.dn;
  SmallVector<int64_t> ls = stridesOf(lhs.getShape());
  SmallVector<int64_t> rs = stridesOf(rhs.getShape());
  int64_t kernelCount = numElements(g.kernelSize);
  Accumulator acc(out.getElementKind());
  SmallVector<int64_t> o(out.getRank(), 0), k(g.spatialRank(), 0);
  for (int64_t linear = 0, e = out.getNumElements(); linear < e;
       ++linear, nextIndex(o, out.getShape())) {
    int64_t f = o[dn.getOutputFeature()];
    acc.reset();
    std::fill(k.begin(), k.end(), 0);
    for (int64_t i = 0; i < kernelCount; ++i, nextIndex(k, g.kernelSize)) {
      int64_t li =
          g.lhsBatch(o[dn.getOutputBatch()], f) * ls[dn.getInputBatch()] +
          g.firstInput(f) * ls[dn.getInputFeature()];
      int64_t ri = f * rs[dn.getKernelOutput()];
      bool inside = true;
      for (size_t d = 0; d < g.spatialRank() && inside; ++d) {
        int64_t p = g.inputPos(d, o[dn.getOutputSpatial()[d]], k[d]);
        inside = p >= 0;
        li += p * ls[dn.getInputSpatial()[d]];
        ri += g.kernelPos(d, k[d]) * rs[dn.getKernelSpatial()[d]];
      }
      if (!inside)
        continue;
      for (int64_t j = 0; j < g.groupInputs; ++j)
        acc.add(lhs, li + j * ls[dn.getInputFeature()], rhs,
                ri + j * rs[dn.getKernelInput()]);
    }
    acc.store(out, linear);
  }
  return out;
}

/// Float operands and result, on transposed copies (see the file comment).
static Literal convolveReals(Interp &interp, const ConvGeometry &g,
                             const Literal &lhs, const Literal &rhs,
                             Literal out) {
  const ConvDimensionNumbersAttr &dn = g.dn;
  size_t rank = g.spatialRank();
  // L: [batch, input spatial..., feature]; R: [output feature, kernel
  // spatial..., input feature]; O: [batch, output spatial..., feature].
  SmallVector<int64_t> lOrder{dn.getInputBatch()}, rOrder{dn.getKernelOutput()},
      oOrder{dn.getOutputBatch()};
  llvm::append_range(lOrder, dn.getInputSpatial());
  llvm::append_range(rOrder, dn.getKernelSpatial());
  llvm::append_range(oOrder, dn.getOutputSpatial());
  lOrder.push_back(dn.getInputFeature());
  rOrder.push_back(dn.getKernelInput());
  oOrder.push_back(dn.getOutputFeature());
  std::vector<double> L = transposedReals(lhs, lOrder);
  std::vector<double> R = transposedReals(rhs, rOrder);
  SmallVector<int64_t> lShape{lhs.getShape()[dn.getInputBatch()]};
  llvm::append_range(lShape, g.inSize);
  lShape.push_back(lhs.getShape()[dn.getInputFeature()]);
  SmallVector<int64_t> rShape{g.outFeatures};
  llvm::append_range(rShape, g.kernelSize);
  rShape.push_back(g.groupInputs);
  SmallVector<int64_t> lStride = stridesOf(lShape), rStride = stridesOf(rShape);

  // Per spatial dimension and output position: the (L offset, R offset)
  // of every window position that reads the input, in window order.
  struct Taps {
    SmallVector<int64_t> begin; // per output position, into offsets
    std::vector<std::pair<int64_t, int64_t>> offsets;
  };
  SmallVector<Taps> taps(rank);
  for (size_t d = 0; d < rank; ++d) {
    for (int64_t o = 0; o < g.outSize[d]; ++o) {
      taps[d].begin.push_back(taps[d].offsets.size());
      for (int64_t k = 0; k < g.kernelSize[d]; ++k) {
        int64_t p = g.inputPos(d, o, k);
        if (p >= 0)
          taps[d].offsets.emplace_back(p * lStride[d + 1],
                                       g.kernelPos(d, k) * rStride[d + 1]);
      }
    }
    taps[d].begin.push_back(taps[d].offsets.size());
  }

  int64_t positions = numElements(g.outSize);
  std::vector<double> O(g.outBatch * positions * g.outFeatures);
  // Output rows [first, last) of [batch * output positions].
  auto work = [&](int64_t first, int64_t last) {
    std::vector<std::pair<int64_t, int64_t>> window;
    SmallVector<int64_t> pos(rank), count(rank);
    for (int64_t row = first; row < last; ++row) {
      int64_t b = row / positions;
      for (int64_t rest = row % positions, d = rank - 1; d >= 0; --d) {
        pos[d] = rest % g.outSize[d];
        rest /= g.outSize[d];
      }
      // The window positions of this output position: the product of the
      // per-dimension taps.
      window.assign(1, {0, 0});
      for (size_t d = 0; d < rank; ++d) {
        ArrayRef<std::pair<int64_t, int64_t>> dimTaps =
            ArrayRef(taps[d].offsets)
                .slice(taps[d].begin[pos[d]],
                       taps[d].begin[pos[d] + 1] - taps[d].begin[pos[d]]);
        size_t n = window.size();
        window.resize(n * dimTaps.size());
        for (size_t i = n; i-- > 0;) {
          auto [lo, ro] = window[i];
          for (size_t t = 0; t < dimTaps.size(); ++t)
            window[i * dimTaps.size() + t] = {lo + dimTaps[t].first,
                                              ro + dimTaps[t].second};
        }
      }
      double *outRow = &O[row * g.outFeatures];
      for (int64_t f = 0; f < g.outFeatures; ++f) {
        const double *l = &L[g.lhsBatch(b, f) * lStride[0] + g.firstInput(f)];
        const double *r = &R[f * rStride[0]];
        double sum = 0.0;
        for (auto [lo, ro] : window)
          for (int64_t j = 0; j < g.groupInputs; ++j)
            sum += l[lo + j] * r[ro + j];
        outRow[f] = sum;
      }
    }
  };
  double macs =
      static_cast<double>(O.size()) * numElements(g.kernelSize) * g.groupInputs;
  parallelRows(interp, g.outBatch * positions, macs, work);
  forEachTransposed(out.getShape(), oOrder,
                    [&](int64_t i, int64_t j) { out.setFloat(j, O[i]); });
  return out;
}

FailureOr<Literal> eval::convolution(Interp &interp, ConvolutionOp op,
                                     const Literal &lhs, const Literal &rhs) {
  auto result = makeResult(interp, op);
  if (failed(result))
    return failure();
  return convolution(interp, op, op.getWindowAttr(), op.getDimLabels(),
                     op.getFeatureGroupCount().value_or(1),
                     op.getBatchGroupCount().value_or(1), lhs, rhs,
                     std::move(*result));
}

FailureOr<Literal> eval::convolution(Interp &interp, Operation *op,
                                     WindowAttr window,
                                     ConvDimensionNumbersAttr dn,
                                     int64_t featureGroups, int64_t batchGroups,
                                     const Literal &lhs, const Literal &rhs,
                                     Literal result) {
  auto geometry = getGeometry(interp, op, window, dn, featureGroups,
                              batchGroups, lhs, rhs, result);
  if (failed(geometry))
    return failure();
  bool reals = lhs.getElementKind() == ElementKind::Float &&
               rhs.getElementKind() == ElementKind::Float &&
               result.getElementKind() == ElementKind::Float;
  if (!reals)
    return convolveElements(*geometry, lhs, rhs, std::move(result));
  return convolveReals(interp, *geometry, lhs, rhs, std::move(result));
}
