//===- HostDnnl.cpp - convolutions and transposes through oneDNN ---------===//
//
// A convolution, its input gradient or its filter gradient as one oneDNN
// primitive (forward inference, backward data, backward weights). Each
// tensor is described to oneDNN where it lies, by its layout's strides;
// the primitive takes the layouts its kernels run fastest on (format
// `any`: blocked layouts for the JIT kernels of the CPU's vector ISA), and
// a reorder copies a tensor between the two where they differ (the filter
// as a rule, in every run: a parameter may change between runs). oneDNN's
// primitive cache keeps the JIT-compiled primitives from one call to the
// next (making one takes milliseconds, finding it again microseconds).
// A forward_bias_activation convolution's epilogue is the primitive's
// bias and post-ops: a sum (the side input, scaled, put in the output
// first) and an eltwise (the activation).
//
// A kernel that only transposes its input (`#thunk.transpose`) is one
// reorder between two plain layouts, the input's strides permuted.
//
// oneDNN's C API (the project builds without C++ exceptions, which its
// C++ API reports errors with): every status is checked and reported.
//
//===----------------------------------------------------------------------===//

#include "HostDnnl.h"

#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl_debug.h>

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <cstdlib>
#include <vector>

using namespace mlir;
using namespace mlir::thunk;

namespace {

/// One oneDNN object, destroyed with its owner.
template <typename T, dnnl_status_t (*Destroy)(T)> class Owned {
public:
  Owned() = default;
  Owned(const Owned &) = delete;
  Owned &operator=(const Owned &) = delete;
  ~Owned() {
    if (handle)
      Destroy(handle);
  }
  T get() const { return handle; }
  /// Where a create function puts the object.
  T *out() { return &handle; }

private:
  T handle = nullptr;
};
using PrimitiveDesc = Owned<dnnl_primitive_desc_t, dnnl_primitive_desc_destroy>;
using Primitive = Owned<dnnl_primitive_t, dnnl_primitive_destroy>;
using Memory = Owned<dnnl_memory_t, dnnl_memory_destroy>;
using Attr = Owned<dnnl_primitive_attr_t, dnnl_primitive_attr_destroy>;
using PostOps = Owned<dnnl_post_ops_t, dnnl_post_ops_destroy>;
using Stream = Owned<dnnl_stream_t, dnnl_stream_destroy>;

/// The CPU engine, made once and kept for the life of the process (null
/// where oneDNN cannot make one: the convolutions take the im2col path).
dnnl_engine_t cpuEngine() {
  static dnnl_engine_t engine = [] {
    dnnl_engine_t e = nullptr;
    return dnnl_engine_create(&e, dnnl_cpu, 0) == dnnl_success ? e : nullptr;
  }();
  return engine;
}

/// A oneDNN call's status as a result: the failure names the call.
LogicalResult check(dnnl_status_t status, const char *what,
                    std::string &error) {
  if (status == dnnl_success)
    return success();
  error =
      (Twine("oneDNN: ") + what + " failed: " + dnnl_status2str(status)).str();
  return failure();
}

/// Runs a convolution through the primitives it needs, on this thread's
/// stream.
class Runner {
public:
  Runner(std::string &error) : error(error), engine(cpuEngine()) {}

  /// One tensor of the convolution: where it lies and how (`user`), and
  /// where the primitive reads or writes it (`at`, in the primitive's
  /// layout `md`: the tensor itself where the two layouts are the same, a
  /// scratch buffer of this thread otherwise).
  struct Tensor {
    dnnl_memory_desc_t user;
    uint8_t *data;
    const dnnl_memory_desc_t *md = nullptr;
    void *at = nullptr;
    Memory memory;
  };

  /// Makes `t`'s memory in the primitive's layout `md`; an input is
  /// reordered there.
  LogicalResult bind(Tensor &t, const dnnl_memory_desc_t *md,
                     std::vector<char> &scratch, bool input) {
    t.md = md;
    t.at = t.data;
    if (!dnnl_memory_desc_equal(md, &t.user)) {
      size_t bytes = dnnl_memory_desc_get_size(md);
      if (scratch.size() < bytes)
        scratch.resize(bytes);
      t.at = scratch.data();
      if (input && failed(reorder(t.user, t.data, *md, t.at)))
        return failure();
    }
    return check(dnnl_memory_create(t.memory.out(), md, engine, t.at),
                 "memory_create", error);
  }

  /// Copies the elements at `from` (laid out as `fromMd`) to `to` (as
  /// `toMd`).
  LogicalResult reorder(const dnnl_memory_desc_t &fromMd, void *from,
                        const dnnl_memory_desc_t &toMd, void *to) {
    PrimitiveDesc pd;
    Primitive reorder;
    Memory source, target;
    if (failed(check(dnnl_reorder_primitive_desc_create(
                         pd.out(), &fromMd, engine, &toMd, engine, nullptr),
                     "reorder_primitive_desc_create", error)) ||
        failed(check(dnnl_primitive_create(reorder.out(), pd.get()),
                     "primitive_create (reorder)", error)) ||
        failed(check(dnnl_memory_create(source.out(), &fromMd, engine, from),
                     "memory_create", error)) ||
        failed(check(dnnl_memory_create(target.out(), &toMd, engine, to),
                     "memory_create", error)))
      return failure();
    dnnl_exec_arg_t args[] = {{DNNL_ARG_FROM, source.get()},
                              {DNNL_ARG_TO, target.get()}};
    return execute(reorder.get(), args);
  }

  LogicalResult execute(dnnl_primitive_t primitive,
                        ArrayRef<dnnl_exec_arg_t> args) {
    dnnl_stream_t s = stream();
    if (!s)
      return check(dnnl_runtime_error, "stream_create", error);
    return failure(
        failed(check(
            dnnl_primitive_execute(primitive, s, int(args.size()), args.data()),
            "primitive_execute", error)) ||
        failed(check(dnnl_stream_wait(s), "stream_wait", error)));
  }

  std::string &error;
  dnnl_engine_t engine;

private:
  /// This thread's stream (a oneDNN stream is used by one thread at a time;
  /// simulated devices run on threads of their own).
  dnnl_stream_t stream() {
    thread_local Stream s;
    if (!s.get() &&
        dnnl_stream_create(s.out(), engine, dnnl_stream_default_flags) !=
            dnnl_success)
      return nullptr;
    return s.get();
  }
};

/// The oneDNN activation of a fused epilogue (with its alpha and beta).
struct Eltwise {
  dnnl_alg_kind_t kind;
  float alpha = 0, beta = 0;
};
Eltwise eltwiseOf(ConvActivation mode, float leakyAlpha) {
  switch (mode) {
  case ConvActivation::Relu:
    return {dnnl_eltwise_relu};
  case ConvActivation::Relu6:
    return {dnnl_eltwise_clip, 0.0f, 6.0f};
  case ConvActivation::Elu:
    return {dnnl_eltwise_elu, 1.0f};
  case ConvActivation::LeakyRelu:
    return {dnnl_eltwise_relu, leakyAlpha};
  case ConvActivation::Tanh:
    return {dnnl_eltwise_tanh};
  case ConvActivation::Sigmoid:
    return {dnnl_eltwise_logistic};
  case ConvActivation::None:
    break;
  }
  return {dnnl_alg_kind_undef};
}

bool isF32(Value v) {
  return !v || cast<MemRefType>(v.getType()).getElementType().isF32();
}

/// The fewest multiply-adds a convolution takes through oneDNN: a call
/// costs tens of microseconds (the primitive and its reorders found in the
/// caches, OpenMP's threads woken), more than im2col and OpenBLAS take for
/// the smallest ones. HLO_HOST_ONEDNN_MIN_MACS sets it (0: every one
/// oneDNN takes; the tests run both paths so).
int64_t minMultiplyAdds() {
  if (const char *value = std::getenv("HLO_HOST_ONEDNN_MIN_MACS");
      value && *value)
    return std::strtoll(value, nullptr, 10);
  return int64_t(1) << 20;
}

} // namespace

FailureOr<bool> mlir::thunk::runDnnlConvolution(ConvolutionOp conv,
                                                ArrayRef<uint8_t *> buffers,
                                                ArrayRef<int64_t> filterStrides,
                                                std::string &error) {
  ConvTensorAttr inL = conv.getInputLayout(), wL = conv.getFilterLayout(),
                 outL = conv.getOutputLayout();
  ConvKind kind = conv.getKind();
  bool fused = kind == ConvKind::ForwardBiasActivation;
  int64_t rank = inL.getNumSpatialDims();
  // What oneDNN computes as the thunk asks (the rest takes the im2col path).
  if (!isF32(conv.getInput()) || !isF32(conv.getFilter()) ||
      !isF32(conv.getOutput()) || !isF32(conv.getBias()) ||
      !isF32(conv.getSideInput()) || rank < 1 || rank > 3 ||
      conv.getReversed() ||
      (fused && conv.getConvResultScale().convertToDouble() != 1.0) ||
      llvm::any_of(conv.getLhsDilation(), [](int64_t d) { return d != 1; }) ||
      inL.getNumElements() == 0 || wL.getNumElements() == 0 ||
      outL.getNumElements() == 0 ||
      // Multiply-adds: per output element, a filter's worth of one output
      // feature.
      outL.getNumElements() * (wL.getNumElements() / outL.getFeatureSize()) <
          minMultiplyAdds() ||
      !cpuEngine())
    return false;

  // The tensors as oneDNN's (batch, feature, spatial...) dimensions with
  // their strides; a grouped filter as (group, output feature, input
  // feature, spatial...).
  int64_t groups = conv.getFeatureGroupCount();
  int n = int(rank) + 2, wn = n + (groups > 1);
  dnnl_dims_t xDims, xStrides, wDims, wStrides, yDims, yStrides;
  SmallVector<int64_t> xd = inL.getDescriptorDims(),
                       xs = inL.getDescriptorStrides(),
                       wd = wL.getDescriptorDims(), ws(filterStrides),
                       yd = outL.getDescriptorDims(),
                       ys = outL.getDescriptorStrides();
  for (int i = 0; i < n; ++i) {
    xDims[i] = xd[i], xStrides[i] = xs[i];
    yDims[i] = yd[i], yStrides[i] = ys[i];
    wDims[wn - n + i] = wd[i], wStrides[wn - n + i] = ws[i];
  }
  if (groups > 1) {
    wDims[1] = wd[0] / groups;
    wDims[0] = groups, wStrides[0] = wDims[1] * ws[0];
  }
  // The window: oneDNN counts the holes of a dilation, and wants the
  // padding past the input's end that the last output reads (none where
  // the last window ends inside the input, before its last stride: a
  // strided window leaves up to stride - 1 elements unread).
  dnnl_dims_t strides, dilates, padLow, padHigh;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t dilation = conv.getRhsDilation()[d];
    int64_t extent = (wd[2 + d] - 1) * dilation + 1;
    strides[d] = conv.getWindowStrides()[d];
    dilates[d] = dilation - 1;
    padLow[d] = conv.getPaddingLow()[d];
    padHigh[d] = (yd[2 + d] - 1) * strides[d] + extent - xd[2 + d] - padLow[d];
    if (padHigh[d] < 0 && padHigh[d] > -strides[d])
      padHigh[d] = 0;
    // Negative padding (the window skipping input elements) is left to
    // the im2col path.
    if (padLow[d] < 0 || padHigh[d] < 0)
      return false;
  }

  Runner runner(error);
  dnnl_engine_t engine = runner.engine;
  Runner::Tensor x, w, y;
  dnnl_memory_desc_t xAny, wAny, yAny, biasMd;
  // f32 elements where they lie (by strides), or in the layout the
  // primitive picks (no strides: format `any`).
  auto describe = [&](dnnl_memory_desc_t &md, int rank, const int64_t *dims,
                      const int64_t *strides) {
    return check(strides ? dnnl_memory_desc_init_by_strides(&md, rank, dims,
                                                            dnnl_f32, strides)
                         : dnnl_memory_desc_init_by_tag(
                               &md, rank, dims, dnnl_f32, dnnl_format_tag_any),
                 "memory_desc_init", error);
  };
  if (failed(describe(x.user, n, xDims, xStrides)) ||
      failed(describe(w.user, wn, wDims, wStrides)) ||
      failed(describe(y.user, n, yDims, yStrides)) ||
      failed(describe(xAny, n, xDims, nullptr)) ||
      failed(describe(wAny, wn, wDims, nullptr)) ||
      failed(describe(yAny, n, yDims, nullptr)) ||
      failed(check(
          dnnl_memory_desc_init_by_tag(&biasMd, 1, &yDims[1], dnnl_f32, dnnl_x),
          "memory_desc_init", error)))
    return failure();
  x.data = buffers[0], w.data = buffers[1], y.data = buffers[2];
  uint8_t *bias = fused ? buffers[3] : nullptr, *side = buffers[4];
  float sideScale = float(conv.getSideInputScale().convertToDouble());
  bool addSide = fused && side && sideScale != 0.0f;

  // The epilogue: the side input summed into the output, the activation.
  Attr attr;
  PostOps postOps;
  if (fused) {
    Eltwise act = eltwiseOf(conv.getActivation(),
                            float(conv.getLeakyReluAlpha().convertToDouble()));
    if (failed(check(dnnl_primitive_attr_create(attr.out()),
                     "primitive_attr_create", error)) ||
        failed(check(dnnl_post_ops_create(postOps.out()), "post_ops_create",
                     error)) ||
        (addSide &&
         failed(check(dnnl_post_ops_append_sum(postOps.get(), sideScale),
                      "post_ops_append_sum", error))) ||
        (act.kind != dnnl_alg_kind_undef &&
         failed(check(dnnl_post_ops_append_eltwise(
                          postOps.get(), 1.0f, act.kind, act.alpha, act.beta),
                      "post_ops_append_eltwise", error))) ||
        failed(
            check(dnnl_primitive_attr_set_post_ops(attr.get(), postOps.get()),
                  "primitive_attr_set_post_ops", error)))
      return failure();
  }

  // The forward convolution: the primitive itself, or the hint of a
  // gradient's.
  bool forward = kind == ConvKind::Forward || fused;
  dnnl_convolution_desc_t forwardDesc, desc;
  if (failed(check(dnnl_dilated_convolution_forward_desc_init(
                       &forwardDesc,
                       forward ? dnnl_forward_inference : dnnl_forward_training,
                       dnnl_convolution_direct, &xAny, &wAny,
                       bias ? &biasMd : nullptr, &yAny, strides, dilates,
                       padLow, padHigh),
                   "convolution_forward_desc_init", error)))
    return failure();
  PrimitiveDesc hint, pd;
  dnnl_status_t made;
  if (forward) {
    made = dnnl_primitive_desc_create(pd.out(), &forwardDesc, attr.get(),
                                      engine, nullptr);
  } else {
    made = dnnl_primitive_desc_create(hint.out(), &forwardDesc, nullptr, engine,
                                      nullptr);
    if (made == dnnl_success) {
      dnnl_status_t init =
          kind == ConvKind::BackwardInput
              ? dnnl_dilated_convolution_backward_data_desc_init(
                    &desc, dnnl_convolution_direct, &xAny, &wAny, &yAny,
                    strides, dilates, padLow, padHigh)
              : dnnl_dilated_convolution_backward_weights_desc_init(
                    &desc, dnnl_convolution_direct, &xAny, &wAny, nullptr,
                    &yAny, strides, dilates, padLow, padHigh);
      if (failed(check(init, "convolution_backward_desc_init", error)))
        return failure();
      made = dnnl_primitive_desc_create(pd.out(), &desc, nullptr, engine,
                                        hint.get());
    }
  }
  // No implementation for this case: the im2col path takes it.
  if (made == dnnl_unimplemented)
    return false;
  Primitive primitive;
  if (failed(check(made, "primitive_desc_create", error)) ||
      failed(check(dnnl_primitive_create(primitive.out(), pd.get()),
                   "primitive_create", error)))
    return failure();

  // The tensors in the primitive's layouts: the gradient computed is the
  // output (the input for backward_input, the filter for backward_filter).
  auto md = [&](dnnl_query_t what) {
    return dnnl_primitive_desc_query_md(pd.get(), what, 0);
  };
  thread_local std::vector<char> scratch[3];
  bool xIn = kind != ConvKind::BackwardInput,
       wIn = kind != ConvKind::BackwardFilter;
  if (failed(runner.bind(x,
                         md(xIn ? dnnl_query_src_md : dnnl_query_diff_src_md),
                         scratch[0], xIn)) ||
      failed(runner.bind(
          w, md(wIn ? dnnl_query_weights_md : dnnl_query_diff_weights_md),
          scratch[1], wIn)) ||
      failed(runner.bind(
          y, md(forward ? dnnl_query_dst_md : dnnl_query_diff_dst_md),
          scratch[2], !forward)))
    return failure();
  // The side input is where the sum post-op finds it: in the output.
  if (addSide && side != y.at &&
      failed(runner.reorder(y.user, side, *y.md, y.at)))
    return failure();
  Memory biasMemory;
  SmallVector<dnnl_exec_arg_t, 4> args = {
      {xIn ? DNNL_ARG_SRC : DNNL_ARG_DIFF_SRC, x.memory.get()},
      {wIn ? DNNL_ARG_WEIGHTS : DNNL_ARG_DIFF_WEIGHTS, w.memory.get()},
      {forward ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST, y.memory.get()}};
  if (bias) {
    if (failed(
            check(dnnl_memory_create(biasMemory.out(), &biasMd, engine, bias),
                  "memory_create", error)))
      return failure();
    args.push_back({DNNL_ARG_BIAS, biasMemory.get()});
  }
  if (failed(runner.execute(primitive.get(), args)))
    return failure();
  // The result back to its own layout.
  Runner::Tensor &result = !xIn ? x : !wIn ? w : y;
  if (result.at != result.data &&
      failed(runner.reorder(*result.md, result.at, result.user, result.data)))
    return failure();
  return true;
}

FailureOr<bool> mlir::thunk::runDnnlTranspose(TransposeAttr transpose,
                                              int64_t elementBytes,
                                              const uint8_t *from, uint8_t *to,
                                              std::string &error) {
  // Below this many elements the kernel is faster than a call (tens of
  // microseconds: the reorder found in oneDNN's cache, the threads woken).
  constexpr int64_t kMinElements = 1 << 14;
  if (transpose.getNumElements() < kMinElements || !cpuEngine())
    return false;
  ArrayRef<int64_t> shape = transpose.getShape();
  // The input's dimensions of more than one element, renumbered, then
  // runs of them that stay neighbours in the output merged: the fewest
  // dimensions that describe the same copy.
  SmallVector<int64_t> index(shape.size(), -1), extents;
  for (auto [d, extent] : llvm::enumerate(shape))
    if (extent != 1) {
      index[d] = extents.size();
      extents.push_back(extent);
    }
  SmallVector<int64_t> order; // the output's dimensions, as input dimensions
  for (int64_t d : transpose.getPermutation())
    if (index[d] >= 0)
      order.push_back(index[d]);
  // groups[g]: the first input dimension and the extent of the output's
  // group g.
  SmallVector<std::pair<int64_t, int64_t>> groups;
  for (auto [i, d] : llvm::enumerate(order)) {
    if (i > 0 && d == order[i - 1] + 1)
      groups.back().second *= extents[d];
    else
      groups.push_back({d, extents[d]});
  }
  // Elements of 4 bytes are s32, of 1 byte u8; others a trailing
  // dimension of those that does not move.
  int64_t unit = elementBytes % 4 == 0 ? 4 : 1;
  int64_t trailing = elementBytes / unit;
  int n = int(groups.size()) + (trailing > 1);
  if (n > DNNL_MAX_NDIMS)
    return false;
  // Both are row-major, the input over the groups in input order.
  dnnl_dims_t dims, fromStrides, toStrides;
  int64_t stride = trailing;
  for (int g = int(groups.size()) - 1; g >= 0; --g) {
    dims[g] = groups[g].second;
    toStrides[g] = stride;
    stride *= dims[g];
    fromStrides[g] = trailing;
    for (auto [first, extent] : groups)
      if (first > groups[g].first)
        fromStrides[g] *= extent;
  }
  if (trailing > 1) {
    dims[n - 1] = trailing;
    fromStrides[n - 1] = toStrides[n - 1] = 1;
  }
  dnnl_data_type_t type = unit == 4 ? dnnl_s32 : dnnl_u8;
  dnnl_memory_desc_t fromMd, toMd;
  Runner runner(error);
  if (failed(check(
          dnnl_memory_desc_init_by_strides(&fromMd, n, dims, type, fromStrides),
          "memory_desc_init_by_strides", error)) ||
      failed(check(
          dnnl_memory_desc_init_by_strides(&toMd, n, dims, type, toStrides),
          "memory_desc_init_by_strides", error)) ||
      failed(runner.reorder(fromMd, const_cast<uint8_t *>(from), toMd, to)))
    return failure();
  return true;
}
