//===- SubByteCollectiveNormalization.cpp - packed collectives as s8 ------===//
//
// XLA's SubByteCollectiveNormalization (XLA-GPU runs it first in its
// "post-layout_assignment" pipeline): a collective that only moves data
// (all-gather, all-to-all, collective-broadcast, collective-permute), of one
// packed sub-byte array (2- or 4-bit elements with that element size in the
// layout, `s4[4,8]{1,0:E(4)}`), moves the bytes instead, as s8, which the
// collective libraries have a type for:
//
//   s4[4,8]{1,0:E(4)} %a
//   %b  = s4[4,4,2]{2,1,0:E(4)} bitcast(%a)      the minor-most dimension
//   %c  = s8[4,4]{1,0} bitcast-convert(%b)         split, r = 8 / width
//   %ag = s8[8,4]{1,0} all-gather(%c), dimensions={0}
//   %d  = s4[8,4,2]{2,1,0:E(4)} bitcast-convert(%ag)
//   %e  = s4[8,8]{1,0:E(4)} bitcast(%d)             the original result
//
// The new dimension of r elements is the most minor of the bitcast's layout,
// so each byte holds r consecutive elements of the minor-most dimension,
// which must be a multiple of r (XLA's CanBeRepresentedAs). An all-to-all
// with a split dimension needs that dimension to be a multiple of the group
// size times r, as XLA asks. Tuple results and collectives of several
// operands (combined or in-place permutes, variadic all-to-alls) are left
// alone, as in XLA.
//
//===----------------------------------------------------------------------===//

#include "CollectiveOptUtils.h"
#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Transforms/CollectivePasses.h"
#include "LayoutUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSUBBYTECOLLECTIVENORMALIZATION
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// Bytes stand for this many elements of a packed array of `type`, whose
/// layout names the packed size and whose minor-most dimension holds a
/// whole number of bytes; 0 otherwise.
static int64_t elementsPerByte(Type type) {
  auto array = dyn_cast<RankedTensorType>(type);
  if (!array || !array.hasStaticShape() || array.getRank() == 0)
    return 0;
  auto layout = dyn_cast_or_null<LayoutAttr>(array.getEncoding());
  unsigned bits = getPackedElementBits(array.getElementType());
  if (!bits || !layout || layout.getElementSizeInBits() != bits ||
      !layout.getTileSizes().empty() || !layout.getBounds().empty())
    return 0;
  int64_t ratio = 8 / bits;
  int64_t minor = getMinorToMajor(array).front();
  return array.getDimSize(minor) % ratio == 0 ? ratio : 0;
}

/// `type` (a packed array) with its minor-most dimension counted in bytes:
/// as s8 (`bytes`, the layout without an element size), or in its own
/// element type with a trailing dimension of `ratio` elements, the most
/// minor in the layout.
static RankedTensorType inBytes(RankedTensorType type, int64_t ratio,
                                bool bytes) {
  MLIRContext *ctx = type.getContext();
  SmallVector<int64_t> m2m = getMinorToMajor(type);
  SmallVector<int64_t> shape(type.getShape());
  shape[m2m.front()] /= ratio;
  auto layout = cast<LayoutAttr>(type.getEncoding());
  int64_t elementSize = 0;
  Type element = IntegerType::get(ctx, 8);
  if (!bytes) {
    m2m.insert(m2m.begin(), type.getRank());
    shape.push_back(ratio);
    elementSize = layout.getElementSizeInBits();
    element = type.getElementType();
  }
  return RankedTensorType::get(
      shape, element,
      LayoutAttr::get(ctx, /*hasMinorToMajor=*/true, m2m, {}, {}, elementSize,
                      layout.getMemorySpace(), {}, StringAttr::get(ctx, "")));
}

namespace {
struct SubByteCollectiveNormalizationPass
    : ChangeReportingPass<SubByteCollectiveNormalizationPass,
                          hlo::impl::HloSubByteCollectiveNormalizationBase> {
  void run() {
    ModuleOp module = getOperation();
    auto [numReplicas, numPartitions] = getDeviceCounts(module);
    SmallVector<Operation *> worklist;
    for (ComputationOp comp : nonFusionComputations(module))
      comp.walk([&](Operation *op) {
        if (isa<AllGatherOp, AllToAllOp, CollectiveBroadcastOp,
                CollectivePermuteOp>(op))
          worklist.push_back(op);
      });
    for (Operation *op : worklist) {
      int64_t ratio = takes(op, numReplicas, numPartitions);
      if (!ratio || hasControlEdges(op))
        continue;
      rewrite(op, ratio);
      ++numRewritten;
      changed = true;
    }
  }

  /// The elements per byte of the collective's one packed array, or 0 when
  /// it stays as it is.
  static int64_t takes(Operation *op, int64_t numReplicas,
                       int64_t numPartitions) {
    if (op->getNumOperands() != 1 || op->getNumResults() != 1 ||
        !isa<RankedTensorType>(op->getResult(0).getType()))
      return 0;
    int64_t ratio = elementsPerByte(op->getOperand(0).getType());
    if (!ratio || !elementsPerByte(op->getResult(0).getType()))
      return 0;
    auto all = dyn_cast<AllToAllOp>(op);
    if (!all || !all.getDimensions() || all.getDimensions()->empty())
      return ratio;
    int64_t split = all.getDimensions()->front();
    std::optional<int64_t> group = commonGroupSize(
        op, numReplicas, numPartitions, /*hasGlobalFlag=*/false);
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    if (!group || split < 0 || split >= type.getRank() ||
        type.getDimSize(split) % (*group * ratio) != 0)
      return 0;
    return ratio;
  }

  static void rewrite(Operation *op, int64_t ratio) {
    OpBuilder b(op);
    Location loc = derivedLoc(op->getLoc());
    auto convert = [&](Value v, Type type) {
      return createInstruction(b, loc, BitcastConvertOp::getOperationName(),
                               type, {v})
          ->getResult(0);
    };
    auto operandType = cast<RankedTensorType>(op->getOperand(0).getType());
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Value split = createBitcast(b, loc, op->getOperand(0),
                                inBytes(operandType, ratio, /*bytes=*/false));
    Value bytes = convert(split, inBytes(operandType, ratio, /*bytes=*/true));
    Operation *moved = b.clone(*op);
    moved->setLoc(loc);
    moved->setOperand(0, bytes);
    moved->getResult(0).setType(inBytes(resultType, ratio, /*bytes=*/true));
    Value unpacked = convert(moved->getResult(0),
                             inBytes(resultType, ratio, /*bytes=*/false));
    replaceByNamed(op, createBitcast(b, loc, unpacked, resultType));
  }
};
} // namespace
