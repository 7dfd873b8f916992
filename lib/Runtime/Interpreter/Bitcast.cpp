//===- Bitcast.cpp - bitcast ----------------------------------------------===//
//
// bitcast reinterprets the operand's memory with the result's shape and
// layout: each result element reads the operand element at the same memory
// position. Positions follow the layouts' minor_to_major orders (row-major
// without a layout) and their tiles (XLA's tiled layouts, TiledLayout
// below; a `*` tile dimension is an error). With different element types
// of the same width the bits carry over; between element sizes in memory
// (a packed sub-byte array and bytes) the bits are repacked. Literals
// themselves are logical and row-major, so this is the one op that reads
// layouts.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "Hlo/Dialect/Hlo/HloTypeInference.h"

#include "llvm/ADT/BitVector.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::runtime::eval;


/// bitcast between layouts with tiles: each result element reads the
/// operand element at the same memory position (padding reads as zero).
static FailureOr<Literal> tiledBitcast(Interp &interp, Operation *op,
                                       const Literal &in, Literal out) {
  TiledLayout inLayout(in.getShape(),
                       getMinorToMajor(op->getOperand(0).getType()),
                       tilesOf(op->getOperand(0).getType()));
  TiledLayout outLayout(out.getShape(),
                        getMinorToMajor(op->getResult(0).getType()),
                        tilesOf(op->getResult(0).getType()));
  if (!inLayout.isSupported() || !outLayout.isSupported())
    return interp.error(op, "tiles with a combined ('*') dimension are not "
                            "supported");
  if (inLayout.size != outLayout.size)
    return interp.error(op, "the operand and the result take different "
                            "amounts of memory under their tiled layouts");
  std::vector<int64_t> source(inLayout.size, -1);
  forEachElement(in, [&](ArrayRef<int64_t> index, int64_t linear) {
    source[inLayout.offset(index, in.getShape())] = linear;
  });
  bool sameType = in.getElementType() == out.getElementType();
  forEachElement(out, [&](ArrayRef<int64_t> index, int64_t linear) {
    int64_t from = source[outLayout.offset(index, out.getShape())];
    if (from < 0)
      return;
    if (sameType)
      out.copyElement(linear, in, from);
    else
      out.setBits(linear, in.getBits(from));
  });
  return std::move(out);
}

/// The bits an element of array type `type` takes in memory
/// (getElementStorageBits: XLA's `E(4)` of a packed sub-byte array, else a
/// byte for a narrower element, else its width).
static int64_t storageBits(Type type) {
  return mlir::hlo::getElementStorageBits(cast<RankedTensorType>(type))
      .value_or(0);
}

/// The logical index of the element at physical position `physical` of
/// `shape` under `minorToMajor`.
static void logicalIndex(int64_t physical, ArrayRef<int64_t> shape,
                         ArrayRef<int64_t> minorToMajor,
                         SmallVectorImpl<int64_t> &index) {
  index.assign(shape.size(), 0);
  for (int64_t d : minorToMajor) {
    index[d] = physical % shape[d];
    physical /= shape[d];
  }
}

/// bitcast between element sizes in memory (XLA's bitcast of a packed
/// `u4[18]{0:E(4)}` to `s8[9]`): the operand's elements laid end to end in
/// physical order, each in its storage bits from the low bits of byte 0,
/// and the result's read back the same way.
static FailureOr<Literal> repackingBitcast(Operation *op, const Literal &in,
                                           Literal out) {
  Type inType = op->getOperand(0).getType(),
       outType = op->getResult(0).getType();
  int64_t inBits = storageBits(inType), outBits = storageBits(outType);
  unsigned inWidth = runtime::getElementBitWidth(in.getElementType());
  unsigned outWidth = runtime::getElementBitWidth(out.getElementType());
  llvm::BitVector memory(in.getNumElements() * inBits);
  SmallVector<int64_t> index;
  SmallVector<int64_t> inOrder = getMinorToMajor(inType);
  for (int64_t p = 0; p < in.getNumElements(); ++p) {
    logicalIndex(p, in.getShape(), inOrder, index);
    APInt bits = in.getBits(in.linearize(index));
    for (unsigned b = 0; b < inWidth && b < inBits; ++b)
      if (bits[b])
        memory.set(p * inBits + b);
  }
  SmallVector<int64_t> outOrder = getMinorToMajor(outType);
  for (int64_t p = 0; p < out.getNumElements(); ++p) {
    APInt bits(outWidth, 0);
    for (unsigned b = 0; b < outWidth && b < outBits; ++b)
      if (memory.test(p * outBits + b))
        bits.setBit(b);
    logicalIndex(p, out.getShape(), outOrder, index);
    out.setBits(out.linearize(index), bits);
  }
  return std::move(out);
}

FailureOr<Literal> eval::bitcast(Interp &interp, Operation *op,
                                 const Literal &in) {
  auto result = makeResult(interp, op);
  if (failed(result))
    return failure();
  Literal &out = *result;
  bool complex = in.getElementKind() == ElementKind::Complex ||
                 out.getElementKind() == ElementKind::Complex;
  if (!complex && tilesOf(op->getOperand(0).getType()).empty() &&
      tilesOf(op->getResult(0).getType()).empty() &&
      storageBits(op->getOperand(0).getType()) !=
          storageBits(op->getResult(0).getType()) &&
      in.getNumElements() * storageBits(op->getOperand(0).getType()) ==
          out.getNumElements() * storageBits(op->getResult(0).getType()))
    return repackingBitcast(op, in, std::move(out));
  if (in.getNumElements() != out.getNumElements() ||
      runtime::getElementBitWidth(in.getElementType()) !=
          runtime::getElementBitWidth(out.getElementType()) ||
      (in.getElementKind() == ElementKind::Complex) !=
          (out.getElementKind() == ElementKind::Complex))
    return interp.error(op, "bitcast must keep the element count and width");
  if (!tilesOf(op->getOperand(0).getType()).empty() ||
      !tilesOf(op->getResult(0).getType()).empty())
    return tiledBitcast(interp, op, in, std::move(out));
  bool sameType = in.getElementType() == out.getElementType();
  SmallVector<int64_t> inOrder = getMinorToMajor(op->getOperand(0).getType());
  SmallVector<int64_t> outOrder = getMinorToMajor(op->getResult(0).getType());
  // Physical strides of the result.
  SmallVector<int64_t> outStride(out.getRank());
  int64_t s = 1;
  for (int64_t d : outOrder) {
    outStride[d] = s;
    s *= out.getShape()[d];
  }
  SmallVector<int64_t> src(in.getRank());
  forEachElement(out, [&](ArrayRef<int64_t> r, int64_t linear) {
    int64_t physical = 0;
    for (int64_t d = 0; d < out.getRank(); ++d)
      physical += r[d] * outStride[d];
    for (int64_t d : inOrder) {
      int64_t size = in.getShape()[d];
      src[d] = physical % size;
      physical /= size;
    }
    int64_t from = in.linearize(src);
    if (sameType)
      out.copyElement(linear, in, from);
    else
      out.setBits(linear, in.getBits(from));
  });
  return std::move(out);
}
