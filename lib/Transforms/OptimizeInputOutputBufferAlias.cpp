//===- OptimizeInputOutputBufferAlias.cpp - donated buffers as outputs ----===//
//
// XLA's OptimizeInputOutputBufferAlias as XLA-GPU runs it (its "layout
// assignment" pipeline, registered buffer donors only): the parameter
// buffers the module header donates (`buffer_donor`, JAX's donate_argnums
// where JAX could not pair the buffer with an output itself) become
// outputs' buffers (`input_output_alias`, may-alias), so buffer assignment
// writes those outputs in place of the donated parameters.
//
// Donors are the donated array buffers no alias names yet, donees the
// array buffers of the ENTRY result no alias names yet; both are sorted by
// size in bytes, largest first (stable), and paired greedily with two
// cursors wherever the sizes are equal: the larger a donee, the earlier it
// is served. A paired donor leaves `buffer_donor`. Sizes are taken with
// the layouts the ENTRY signature has (after layout assignment).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Transforms/GpuLayoutPasses.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOOPTIMIZEINPUTOUTPUTBUFFERALIAS
#include "Hlo/Transforms/GpuLayoutPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
/// A buffer of the ENTRY signature: a parameter's (`parameter` >= 0) or
/// the result's (-1), at tuple index `index`, of `bytes` bytes.
struct Buffer {
  int64_t parameter;
  SmallVector<int64_t> index;
  int64_t bytes;
};

struct OptimizeInputOutputBufferAliasPass
    : ChangeReportingPass<OptimizeInputOutputBufferAliasPass,
                          hlo::impl::HloOptimizeInputOutputBufferAliasBase> {
  void run() {
    ModuleOp module = getOperation();
    auto donors = module->getAttrOfType<ArrayAttr>("hlo.buffer_donor");
    ComputationOp entry = entryComputation(module);
    if (!donors || donors.empty() || !entry)
      return;
    FunctionType fn = entry.getFunctionType();
    SmallVector<Attribute> aliases;
    if (auto existing =
            module->getAttrOfType<ArrayAttr>("hlo.input_output_alias"))
      llvm::append_range(aliases, existing);
    auto aliased = [&](int64_t parameter, ArrayRef<int64_t> index,
                       bool output) {
      return llvm::any_of(aliases, [&](Attribute a) {
        auto alias = cast<InputOutputAliasAttr>(a);
        return output ? alias.getOutputIndex() == index
                      : alias.getParameter() == parameter &&
                            alias.getParameterIndex() == index;
      });
    };

    // Donor array buffers in parameter order (XLA's walk of the
    // parameters' shapes), and the result's array buffers, not aliased yet.
    SmallVector<Buffer> donorBuffers, doneeBuffers;
    auto bytesOf = [](Type type) -> std::optional<int64_t> {
      auto array = dyn_cast_or_null<RankedTensorType>(type);
      if (!array || !array.hasStaticShape())
        return std::nullopt;
      return getShapeByteSize(array);
    };
    for (auto donor : donors.getAsRange<BufferDonorAttr>()) {
      int64_t p = donor.getParameter();
      ArrayRef<int64_t> index = donor.getParameterIndex();
      std::optional<int64_t> bytes =
          bytesOf(getSubshape(fn.getInput(p), index));
      if (bytes && !aliased(p, index, /*output=*/false))
        donorBuffers.push_back({p, llvm::to_vector(index), *bytes});
    }
    llvm::stable_sort(donorBuffers, [](const Buffer &a, const Buffer &b) {
      return std::tie(a.parameter, a.index) < std::tie(b.parameter, b.index);
    });
    forEachSubshape(fn.getResult(0), [&](Type sub, ArrayRef<int64_t> index) {
      std::optional<int64_t> bytes = bytesOf(sub);
      if (bytes && !aliased(-1, index, /*output=*/true))
        doneeBuffers.push_back({-1, llvm::to_vector(index), *bytes});
    });
    auto bySize = [](const Buffer &a, const Buffer &b) {
      return a.bytes > b.bytes;
    };
    llvm::stable_sort(donorBuffers, bySize);
    llvm::stable_sort(doneeBuffers, bySize);

    MLIRContext *ctx = module.getContext();
    SmallVector<std::pair<int64_t, SmallVector<int64_t>>> paired;
    for (size_t d = 0, e = 0;
         d < donorBuffers.size() && e < doneeBuffers.size();) {
      const Buffer &donor = donorBuffers[d], &donee = doneeBuffers[e];
      if (donor.bytes > donee.bytes) {
        ++d;
      } else if (donor.bytes < donee.bytes) {
        ++e;
      } else {
        aliases.push_back(
            InputOutputAliasAttr::get(ctx, donee.index, donor.parameter,
                                      donor.index, AliasKind::MayAlias));
        paired.push_back({donor.parameter, donor.index});
        ++d;
        ++e;
        ++numAliased;
      }
    }
    if (paired.empty())
      return;
    SmallVector<Attribute> remaining;
    for (auto donor : donors.getAsRange<BufferDonorAttr>())
      if (!llvm::is_contained(
              paired,
              std::make_pair(donor.getParameter(),
                             llvm::to_vector(donor.getParameterIndex()))))
        remaining.push_back(donor);
    if (remaining.empty())
      module->removeAttr("hlo.buffer_donor");
    else
      module->setAttr("hlo.buffer_donor", ArrayAttr::get(ctx, remaining));
    module->setAttr("hlo.input_output_alias", ArrayAttr::get(ctx, aliases));
    changed = true;
  }
};
} // namespace
