//===- WindowUtils.h - a window's fields, spelled out -----------*- C++ -*-===//
//
// Private to lib/Transforms: a mutable copy of an HLO window (convolution,
// reduce-window, select-and-scatter) with every field written out per
// spatial dimension, which the attribute leaves empty at its defaults.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_WINDOWUTILS_H
#define HLO_LIB_TRANSFORMS_WINDOWUTILS_H

#include "Hlo/Dialect/Hlo/HloDialect.h"

namespace mlir::hlo {

/// A window's fields over `rank` dimensions, each at its default where the
/// attribute (or the whole window) leaves it out.
struct WindowFields {
  SmallVector<int64_t> size, stride, padLow, padHigh, lhsDilate, rhsDilate,
      reversal;

  WindowFields() = default;
  /// `w` (may be null) for `rank` dimensions.
  WindowFields(WindowAttr w, size_t rank) {
    auto fill = [&](SmallVector<int64_t> &out, ArrayRef<int64_t> in,
                    int64_t dflt) {
      for (size_t d = 0; d < rank; ++d)
        out.push_back(d < in.size() ? in[d] : dflt);
    };
    fill(size, w ? w.getSize() : ArrayRef<int64_t>(), 1);
    fill(stride, w ? w.getStride() : ArrayRef<int64_t>(), 1);
    fill(padLow, w ? w.getPadLow() : ArrayRef<int64_t>(), 0);
    fill(padHigh, w ? w.getPadHigh() : ArrayRef<int64_t>(), 0);
    fill(lhsDilate, w ? w.getLhsDilate() : ArrayRef<int64_t>(), 1);
    fill(rhsDilate, w ? w.getRhsDilate() : ArrayRef<int64_t>(), 1);
    fill(reversal, w ? w.getReversal() : ArrayRef<int64_t>(), 0);
  }

  WindowAttr toAttr(MLIRContext *ctx) const {
    return WindowAttr::get(ctx, size, stride, padLow, padHigh, lhsDilate,
                           rhsDilate, reversal);
  }
  size_t rank() const { return size.size(); }

  /// True if every element of `v` is `x`.
  static bool all(ArrayRef<int64_t> v, int64_t x) {
    return llvm::all_of(v, [&](int64_t e) { return e == x; });
  }
  bool padded() const { return !all(padLow, 0) || !all(padHigh, 0); }
  bool hasBaseDilation() const { return !all(lhsDilate, 1); }
  bool hasWindowDilation() const { return !all(rhsDilate, 1); }
  bool hasSymmetricPadding() const { return padLow == padHigh; }
  bool hasNegativePadding() const {
    return llvm::any_of(padLow, [](int64_t v) { return v < 0; }) ||
           llvm::any_of(padHigh, [](int64_t v) { return v < 0; });
  }
};

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_WINDOWUTILS_H
