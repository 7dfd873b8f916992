//===- HostDnnl.h - convolutions and transposes through oneDNN --*- C++ -*-===//
//
// The host runtime's convolutions and transposes through oneDNN
// (HostDnnl.cpp), built where CMake finds oneDNN (HLO_HAVE_DNNL: not in the
// static tools, which carry no oneDNN); the other convolutions run as
// im2col and OpenBLAS GEMMs (HostConvolution.cpp), the other transposes as
// their kernels.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_RUNTIME_HOST_HOSTDNNL_H
#define HLO_LIB_RUNTIME_HOST_HOSTDNNL_H

#include "Hlo/Dialect/Thunk/ThunkDialect.h"

#include <string>

namespace mlir::thunk {

/// Runs `conv` on the bytes of its slices (`buffers`: input, filter,
/// output, bias, side input, workspace) through oneDNN where oneDNN computes
/// what it asks (f32 tensors, 1 to 3 spatial dimensions, no base dilation,
/// an unreversed window, a result scale of 1) and where it is faster: at
/// least HLO_HOST_ONEDNN_MIN_MACS multiply-adds (2^20 when unset). `true` when
/// it ran, `false` when it is left to the im2col path (nothing written then); a
/// failure with `error` when oneDNN fails while running it. The filter is
/// read with `filterStrides` (in its layout's descriptor order: the
/// layout's own, or those runHostConvolution was given).
FailureOr<bool> runDnnlConvolution(ConvolutionOp conv,
                                   ArrayRef<uint8_t *> buffers,
                                   ArrayRef<int64_t> filterStrides,
                                   std::string &error);

/// Makes `transpose` (a `thunk.kernel`'s: the row-major array of its
/// extents at `from`, elements of `elementBytes` bytes, permuted into the
/// row-major array at `to`) with oneDNN's reorder, where it has at least
/// 2^14 elements and at most DNNL_MAX_NDIMS dimensions once merged: `true`
/// when it ran, `false` when the kernel is left to make it; a failure with
/// `error` when oneDNN fails while running it. The two must not overlap.
FailureOr<bool> runDnnlTranspose(TransposeAttr transpose, int64_t elementBytes,
                                 const uint8_t *from, uint8_t *to,
                                 std::string &error);

} // namespace mlir::thunk

#endif // HLO_LIB_RUNTIME_HOST_HOSTDNNL_H
