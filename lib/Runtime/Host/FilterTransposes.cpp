//===- FilterTransposes.cpp - convolutions reading untransposed filters ---===//
//
// Which filter transposes the host runtime leaves out (FilterTransposes.h):
// each thunk's reads and writes as byte ranges of the arena (from its
// memory effects), and for a transpose the thunks after it: the first to
// touch its output must be a convolution reading it as its filter, none
// before it may write the transpose's input, and none after it may read
// the output until it is written again.
//
//===----------------------------------------------------------------------===//

#include "FilterTransposes.h"

using namespace mlir;
using namespace mlir::thunk;

namespace {

/// The most thunks looked at after a transpose, and after its convolution:
/// beyond them it is kept (so that the plan's cost grows linearly with the
/// program; ResNet-50's scans are at most 100 long).
constexpr size_t kMaxThunksScanned = 4096;

/// `ranges` without the bytes of `r`.
void subtract(SmallVectorImpl<ByteRange> &ranges, ByteRange r) {
  SmallVector<ByteRange> left;
  for (ByteRange s : ranges) {
    if (!overlap(s, r)) {
      left.push_back(s);
      continue;
    }
    if (s.first < r.first)
      left.push_back({s.first, r.first});
    if (r.second < s.second)
      left.push_back({r.second, s.second});
  }
  ranges.assign(left.begin(), left.end());
}

} // namespace

FailureOr<SmallVector<int64_t, 5>>
mlir::thunk::getTransposeInputStrides(TransposeAttr transpose,
                                      ArrayRef<int64_t> extents,
                                      ArrayRef<int64_t> strides) {
  ArrayRef<int64_t> shape = transpose.getShape(),
                    permutation = transpose.getPermutation();
  int64_t rank = shape.size();
  if (extents.size() != strides.size())
    return failure();
  // Row-major strides of the input; extents and strides of the output.
  SmallVector<int64_t> inStrides(rank), outExtents(rank), outStrides(rank);
  for (int64_t d = rank - 1, in = 1, out = 1; d >= 0; --d) {
    inStrides[d] = in;
    in *= shape[d];
    outExtents[d] = shape[permutation[d]];
    outStrides[d] = out;
    out *= outExtents[d];
  }
  // Per output dimension, the largest index the view's dimensions in it
  // reach together (at most its extent less one: no carry into the next).
  SmallVector<int64_t> reach(rank, 0);
  SmallVector<int64_t, 5> result(extents.size(), 0);
  int64_t outer = 1;
  for (auto [i, extent, stride] : llvm::enumerate(extents, strides)) {
    if (extent == 1)
      continue;
    auto k = llvm::find_if(llvm::seq<int64_t>(0, rank), [&](int64_t k) {
      return outExtents[k] > 1 && stride >= outStrides[k] &&
             stride < outStrides[k] * outExtents[k] &&
             stride % outStrides[k] == 0;
    });
    if (k == llvm::seq<int64_t>(0, rank).end())
      return failure();
    int64_t step = stride / outStrides[*k];
    reach[*k] += step * (extent - 1);
    if (reach[*k] >= outExtents[*k])
      return failure();
    result[i] = step * inStrides[permutation[*k]];
    outer = std::max(outer, result[i] * extent);
  }
  for (auto [extent, stride] : llvm::zip(extents, result))
    if (extent == 1)
      stride = outer;
  return result;
}

SmallVector<FoldedFilterTranspose>
mlir::thunk::findFoldedFilterTransposes(ArrayRef<Operation *> sequence,
                                        function_ref<ByteRange(Value)> range,
                                        function_ref<bool(Value)> liveOut) {
  size_t n = sequence.size();
  std::vector<ThunkAccess> accesses;
  for (Operation *op : sequence)
    accesses.push_back(getThunkAccess(op, range));

  auto fold = [&](size_t i) -> std::optional<FoldedFilterTranspose> {
    auto kernel = dyn_cast<KernelOp>(sequence[i]);
    if (!kernel || !kernel.getTransposeAttr())
      return std::nullopt;
    Value output = kernel.getOutputs()[0];
    ByteRange from = range(kernel.getInputs()[0]), to = range(output);
    if (overlap(from, to))
      return std::nullopt;
    // The first thunk after it to touch its output, with its input
    // unchanged until then.
    size_t j = i + 1, end = std::min(n, i + 1 + kMaxThunksScanned);
    for (; j < end && !accesses[j].touches(to); ++j)
      if (accesses[j].mayWrite(from))
        return std::nullopt;
    if (j == end || accesses[j].any)
      return std::nullopt;
    auto conv = dyn_cast<ConvolutionOp>(sequence[j]);
    if (!conv || conv.getKind() == ConvKind::BackwardFilter ||
        range(conv.getFilter()) != to || accesses[j].mayWrite(from))
      return std::nullopt;
    for (OpOperand &operand : conv->getOpOperands())
      if (&operand != &conv.getFilterMutable() &&
          overlap(range(operand.get()), to))
        return std::nullopt;
    // Nothing after the convolution reads the output before writing it.
    SmallVector<ByteRange> unwritten{to};
    size_t k = j + 1;
    end = std::min(n, j + 1 + kMaxThunksScanned);
    for (; k < end && !unwritten.empty(); ++k) {
      if (llvm::any_of(unwritten, [&](ByteRange r) {
            return accesses[k].any || overlapAny(accesses[k].reads, r) ||
                   overlapAny(accesses[k].mayWrites, r);
          }))
        return std::nullopt;
      for (ByteRange w : accesses[k].writes)
        subtract(unwritten, w);
    }
    if (!unwritten.empty() && (k < n || liveOut(output)))
      return std::nullopt;
    ConvTensorAttr layout = conv.getFilterLayout();
    FailureOr<SmallVector<int64_t, 5>> strides = getTransposeInputStrides(
        kernel.getTransposeAttr(), layout.getDescriptorDims(),
        layout.getDescriptorStrides());
    if (failed(strides))
      return std::nullopt;
    return FoldedFilterTranspose{i, j, std::move(*strides)};
  };

  SmallVector<FoldedFilterTranspose> folded;
  for (size_t i = 0; i < n; ++i)
    if (std::optional<FoldedFilterTranspose> f = fold(i))
      folded.push_back(std::move(*f));
  return folded;
}
