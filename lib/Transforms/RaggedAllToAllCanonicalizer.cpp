//===- RaggedAllToAllCanonicalizer.cpp - 64-bit ragged offsets ------------===//
//
// XLA's RaggedAllToAllCanonicalizer (first in "collective-optimizations"):
// a ragged-all-to-all reads its offsets and sizes (operands 2 to 5) as s64:
//
//   %r = f32[16] ragged-all-to-all(%in, %out, s32[2] %io, s32[2] %ss,
//                                  s32[2] %oo, s32[2] %rs)
// ->
//   %r = f32[16] ragged-all-to-all(%in, %out, s64[2] convert(%io), ...)
//
// The instruction is changed in place: its name, attributes and control
// edges stay.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLORAGGEDALLTOALLCANONICALIZER
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
/// The operands of a ragged-all-to-all that hold offsets and sizes.
constexpr unsigned kFirstOffsets = 2, kNumOffsets = 4;

struct RaggedAllToAllCanonicalizerPass
    : ChangeReportingPass<RaggedAllToAllCanonicalizerPass,
                          hlo::impl::HloRaggedAllToAllCanonicalizerBase> {
  void run() {
    SmallVector<RaggedAllToAllOp> worklist;
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      comp.walk([&](RaggedAllToAllOp op) { worklist.push_back(op); });
    for (RaggedAllToAllOp op : worklist)
      if (rewrite(op)) {
        ++numRewritten;
        changed = true;
      }
  }

  static bool rewrite(RaggedAllToAllOp op) {
    OperandRange inputs = op.getInputs();
    if (inputs.size() != kFirstOffsets + kNumOffsets)
      return false;
    OpBuilder b(op);
    Type s64 = b.getIntegerType(64);
    // One convert per value (the send and receive sizes are often one).
    llvm::SmallDenseMap<Value, Value, 4> converted;
    for (unsigned i = kFirstOffsets; i < kFirstOffsets + kNumOffsets; ++i) {
      Value v = inputs[i];
      Type element = getElementTypeOrSelf(v.getType());
      if (!isa<RankedTensorType>(v.getType()) || !element.isInteger() ||
          element == s64)
        continue;
      Value &wide = converted[v];
      if (!wide)
        wide = ConvertOp::create(b, derivedLoc(op.getLoc()),
                                 withElementType(v.getType(), s64), v);
      op.getInputsMutable()[i].set(wide);
    }
    return !converted.empty();
  }
};
} // namespace
