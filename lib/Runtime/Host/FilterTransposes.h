//===- FilterTransposes.h - convolutions reading untransposed filters -*- C++
//-*-===//
//
// XLA's GPU compiler lays a convolution's filter out for cuDNN with a
// transpose before the convolution (ResNet-50: one per convolution, over
// the weights). On the host, oneDNN then lays the filter out again in its
// own blocked layout: the weights are copied twice per run. Where nothing
// else reads the transposed filter, the host runtime leaves the transpose
// out and lets the convolution read the transpose's input with permuted
// strides (FilterTransposes.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_RUNTIME_HOST_FILTERTRANSPOSES_H
#define HLO_LIB_RUNTIME_HOST_FILTERTRANSPOSES_H

#include "ThunkAccess.h"

namespace mlir::thunk {

/// A convolution whose filter can be read where its transpose reads it.
struct FoldedFilterTranspose {
  /// The positions in the sequence of the transpose kernel and the
  /// convolution.
  size_t transpose, convolution;
  /// The filter's strides in elements in the transpose's input, in the
  /// order of the filter layout's descriptor (output feature, input
  /// feature, spatial...).
  SmallVector<int64_t, 5> filterStrides;
};

/// The strides in the input of `transpose` of the dimensions (`extents`,
/// with `strides` in elements) of a view of its output, where each
/// dimension of more than one element lies within one dimension of the
/// output (unit dimensions get the outermost stride); failure otherwise.
FailureOr<SmallVector<int64_t, 5>>
getTransposeInputStrides(TransposeAttr transpose, ArrayRef<int64_t> extents,
                         ArrayRef<int64_t> strides);

/// The transposes of `sequence` (a program's body: the thunks it runs
/// one after another; `range` gives a slice's bytes in the arena as
/// [begin, end), `liveOut` whether its bytes outlive the program) that
/// need not run: a kernel with a `#thunk.transpose` whose output is next
/// read by a convolution, as its filter and whole, and by nothing after it
/// until overwritten (or the program's end, where not live out), and whose
/// input nothing writes in between. The convolution then reads the input
/// with the strides returned.
SmallVector<FoldedFilterTranspose>
findFoldedFilterTransposes(ArrayRef<Operation *> sequence,
                           function_ref<ByteRange(Value)> range,
                           function_ref<bool(Value)> liveOut);

} // namespace mlir::thunk

#endif // HLO_LIB_RUNTIME_HOST_FILTERTRANSPOSES_H
