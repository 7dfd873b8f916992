//===- EstimateCubSortScratchSize.cpp - size CUB sort scratch -------------===//
//
// XLA-GPU's DevicelessEstimateCubSortScratchSize: each
// `xla.gpu.ext.cub_sort_unassigned_scratch_size` call (hlo-sort-rewriter's)
// gets its scratch and becomes XLA 0.10.2's typed-FFI handler,
//
//   (K[r, n], V[r, n], u8[S]) custom-call(keys, values),
//       custom_call_target="xla.gpu.ext.cub_sort_pairs",
//       api_version=API_VERSION_TYPED_FFI,
//       backend_config={descending = false, batch_size = r : i64}
//
// (`xla.gpu.ext.cub_sort_keys` without values). XLA looks the size up in a
// table measured with CUB on its GPUs; without a device this pass bounds
// what CUB's radix sort asks for: the second buffers of keys and values
// its sort ping-pongs between, its onesweep decoupled look-back state (at
// most 1 KiB per 1024 elements: 256 digit counters per tile of at least
// 1024 elements), its histograms (8 passes of 256 64-bit counters at most)
// and alignment; a batch also stores its rows' offsets after it (XLA's
// layout: the scratch rounded to 4 bytes, then rows + 1 s32 offsets). The
// CUDA runtime compares the size with CUB's own query. Linear.
//
//===----------------------------------------------------------------------===//

#include "CudnnUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "Hlo/Dialect/Hlo/HloCubSortCalls.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOESTIMATECUBSORTSCRATCHSIZE
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// The bound on CUB's scratch for `call`, with the batch's offsets.
int64_t scratchBound(const CubSortCall &call) {
  int64_t elements = call.keys.getNumElements();
  int64_t bytes =
      getShapeByteSize(call.keys).value_or(0) +
      (call.values ? getShapeByteSize(call.values).value_or(0) : 0) +
      llvm::divideCeil(elements, 1024) * 1024 + 8 * 256 * 8 + 4096;
  if (call.rows > 1)
    bytes = llvm::alignTo(bytes, 4) + (call.rows + 1) * 4;
  return bytes;
}

struct EstimateCubSortScratchSizePass
    : ChangeReportingPass<EstimateCubSortScratchSizePass,
                          hlo::impl::HloEstimateCubSortScratchSizeBase> {
  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation())) {
      SmallVector<CustomCallOp> calls;
      comp.walk([&](CustomCallOp c) {
        if (c.getCustomCallTarget() == kCubSortUnassignedTarget)
          calls.push_back(c);
      });
      for (CustomCallOp c : calls)
        if (failed(size(c)))
          return signalPassFailure();
    }
  }

  LogicalResult size(CustomCallOp c) {
    std::string why;
    FailureOr<CubSortCall> call = readCubSortCall(c, why);
    if (failed(call))
      return c.emitError("hlo-estimate-cub-sort-scratch-size: ")
             << kCubSortUnassignedTarget << " " << why;
    MLIRContext *ctx = c.getContext();
    auto tuple = cast<TupleType>(c.getResult().getType());
    SmallVector<Type> types(tuple.getTypes());
    types.back() = scratchType(ctx, scratchBound(*call));
    std::string config;
    llvm::raw_string_ostream os(config);
    os << "{descending = " << (call->descending ? "true" : "false")
       << ", batch_size = " << call->rows << " : i64}";
    // In place: the users read the sorted arrays, whose types stay.
    c.getResult().setType(TupleType::get(ctx, types));
    c.setCustomCallTargetAttr(StringAttr::get(
        ctx, call->values ? kCubSortPairsTarget : kCubSortKeysTarget));
    c.setApiVersionAttr(CustomCallApiVersionAttr::get(
        ctx, CustomCallApiVersion::API_VERSION_TYPED_FFI));
    c->setAttr("backend_config", TextAttr::get(ctx, config));
    ++numSized;
    changed = true;
    return success();
  }
};

} // namespace
