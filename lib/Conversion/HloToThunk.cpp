//===- HloToThunk.cpp - hlo-to-thunk --------------------------------------===//
//
// A scheduled, buffer-assigned module whose fusions have kernels
// (hlo-to-gpu) becomes a thunk program: one `thunk.allocation` per
// allocation of the assignment, the ENTRY computation's instructions in
// schedule order as thunks over `thunk.slice`s, and the HLO computations
// removed. Instructions that only forward buffers (tuple,
// get-tuple-element, bitcast) become nothing, or copies where the
// assignment gave the two sides different slices; while, conditional and
// call lower their computations in place.
//
//===----------------------------------------------------------------------===//

#include "HloToThunk.h"

#include "ConvThunkConfig.h"
#include "EmitterUtils.h"
#include "GemmThunkConfig.h"

#include "Hlo/Analysis/BufferAssignment.h"
#include "Hlo/Conversion/FusionEmitter.h"
#include "Hlo/Conversion/Passes.h"
#include "Hlo/Conversion/ScalarLowering.h"
#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Dialect/Hlo/HloCubSortCalls.h"
#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloFactorizationCalls.h"
#include "Hlo/Dialect/Hlo/HloMemoryAnnotations.h"
#include "Hlo/Dialect/Hlo/HloShardingCalls.h"
#include "Hlo/Dialect/Hlo/HloTileSharding.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Dialect/Thunk/ThunkDialect.h"

#include "mlir/IR/Verifier.h"

#include <functional>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOTOTHUNK
#include "Hlo/Conversion/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// The allocation names of the thunk program: `@alloc<index>`.
std::string allocationName(int64_t index) {
  return "alloc" + std::to_string(index);
}

/// `value` (an array constant of `type`) in physical order as a
/// one-dimensional array of the elements' storage type (pred as i8).
FailureOr<DenseElementsAttr> getPhysicalConstant(DenseElementsAttr value,
                                                 RankedTensorType type) {
  Type element = type.getElementType();
  int64_t n = type.getNumElements();
  MLIRContext *ctx = type.getContext();
  if (element.isInteger(1)) {
    SmallVector<int8_t> bytes;
    for (bool v : value.getValues<bool>())
      bytes.push_back(v);
    if (value.isSplat())
      bytes.assign(n, bytes.front());
    DenseElementsAttr logical = DenseElementsAttr::get(
        RankedTensorType::get({n}, IntegerType::get(ctx, 8)),
        ArrayRef<int8_t>(bytes));
    return getPhysicalConstant(logical,
                               RankedTensorType::get(type.getShape(),
                                                     IntegerType::get(ctx, 8),
                                                     type.getEncoding()));
  }
  if (th::isPackedElementType(element)) {
    // Packed as the kernels read it: element i at bit i * width.
    unsigned width = element.getIntOrFloatBitWidth();
    SmallVector<int64_t> strides = getPhysicalStrides(type);
    SmallVector<int8_t> packed(llvm::divideCeil(n * width, 8), 0);
    SmallVector<int64_t> index(type.getRank(), 0);
    auto bitsOf = [&](int64_t i) {
      if (isa<FloatType>(element))
        return value.getValues<APFloat>()[i].bitcastToAPInt().getZExtValue();
      return value.getValues<APInt>()[i].getZExtValue();
    };
    for (int64_t i = 0; i < n; ++i) {
      int64_t at = 0;
      for (auto [x, stride] : llvm::zip(index, strides))
        at += x * stride;
      uint64_t bits =
          bitsOf(value.isSplat() ? 0 : i) & ((uint64_t(1) << width) - 1);
      packed[at * width / 8] |= int8_t(bits << (at * width % 8));
      for (int64_t d = type.getRank() - 1; d >= 0; --d) {
        if (++index[d] < type.getDimSize(d))
          break;
        index[d] = 0;
      }
    }
    return DenseElementsAttr::get(
        RankedTensorType::get({int64_t(packed.size())},
                              IntegerType::get(ctx, 8)),
        ArrayRef<int8_t>(packed));
  }
  Type storage = getScalarType(element);
  int64_t bytes = storage ? th::getElementStorageBytes(storage) : 0;
  int64_t bits = !storage                 ? 0
                 : storage.isIntOrFloat() ? storage.getIntOrFloatBitWidth()
                                          : 2 * cast<ComplexType>(storage)
                                                    .getElementType()
                                                    .getIntOrFloatBitWidth();
  // Elements of whole bytes, or a byte each holding the low bits (f6: the
  // attribute's raw data and the arrays both keep one byte an element).
  if (!storage || (bytes * 8 != bits && !(bytes == 1 && bits < 8)))
    return failure();
  ArrayRef<char> raw = value.getRawData();
  SmallVector<int64_t> strides = getPhysicalStrides(type);
  std::vector<char> physical(n * bytes);
  SmallVector<int64_t> index(type.getRank(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t offset = 0;
    for (auto [x, stride] : llvm::zip(index, strides))
      offset += x * stride;
    const char *from = raw.data() + (value.isSplat() ? 0 : i * bytes);
    std::copy(from, from + bytes, physical.data() + offset * bytes);
    for (int64_t d = type.getRank() - 1; d >= 0; --d) {
      if (++index[d] < type.getDimSize(d))
        break;
      index[d] = 0;
    }
  }
  return DenseElementsAttr::getFromRawBuffer(
      RankedTensorType::get({n}, storage), physical);
}

} // namespace

MemRefType mlir::hlo::getSignatureType(RankedTensorType type) {
  // A bounded dynamic array: its bytes, as XLA stores it (the elements
  // dense over the runtime sizes, then the sizes).
  if (!type.hasStaticShape())
    return MemRefType::get({getShapeByteSize(type).value_or(0)},
                           IntegerType::get(type.getContext(), 8));
  MemRefLayoutAttrInterface layout;
  if (!hasRowMajorStrides(type))
    layout =
        StridedLayoutAttr::get(type.getContext(), 0, getPhysicalStrides(type));
  return MemRefType::get(type.getShape(), type.getElementType(), layout);
}

FailureOr<Value> ThunkLowering::slice(Operation *at, Value value, unsigned node,
                                      MemRefType type) {
  BufferSliceAttr s = getBufferSlice(value, node);
  if (!s)
    return at->emitError("hlo-to-thunk: a value has no buffer slice; run "
                         "--hlo-buffer-assignment first"),
           failure();
  if (!type) {
    Type t;
    unsigned i = 0;
    forEachSubshape(value.getType(), [&](Type sub, ArrayRef<int64_t>) {
      if (i++ == node)
        t = sub;
    });
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (tensor && !tensor.hasStaticShape() && getShapeByteSize(tensor))
      return slice(at, value, node, getSignatureType(tensor));
    if (!tensor || !tensor.hasStaticShape())
      return at->emitError("hlo-to-thunk: no slice type for ") << t, failure();
    type = getKernelBufferType(tensor);
  }
  int64_t a = s.getAllocation();
  if (a < 0 || a >= int64_t(allocations.size()))
    return at->emitError("hlo-to-thunk: slice of a missing allocation"),
           failure();
  if (th::getStorageBytes(type) > s.getSize())
    return at->emitError("hlo-to-thunk: a buffer slice of ")
               << s.getSize() << " bytes cannot hold " << type,
           failure();
  return sliceOf(at->getLoc(), a, s.getOffset(), type);
}

Value ThunkLowering::sliceOf(Location loc, int64_t allocation, int64_t offset,
                             MemRefType type) {
  Value &cached = slices[{allocation, offset, type}];
  if (!cached) {
    // Slices come first in the program, in the order first used.
    OpBuilder::InsertionGuard guard(b);
    if (lastSlice)
      b.setInsertionPointAfter(lastSlice);
    else
      b.setInsertionPointToStart(&program.getBody().front());
    auto op = th::SliceOp::create(
        b, loc, type,
        FlatSymbolRefAttr::get(allocations[allocation].getSymNameAttr()),
        b.getI64IntegerAttr(offset));
    lastSlice = op;
    cached = op;
  }
  return cached;
}

int64_t ThunkLowering::addTemporaryAllocation(Location loc, int64_t bytes) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfter(allocations.back());
  int64_t index = allocations.size();
  allocations.push_back(th::AllocationOp::create(
      b, loc, b.getStringAttr(allocationName(index)),
      th::AllocationKindAttr::get(b.getContext(), th::AllocationKind::Temp),
      b.getI64IntegerAttr(std::max<int64_t>(bytes, 1)),
      b.getI64IntegerAttr(256), IntegerAttr(), DenseI64ArrayAttr(), UnitAttr(),
      ElementsAttr(), IntegerAttr()));
  return index;
}

FailureOr<SmallVector<Value>> ThunkLowering::leafSlices(Operation *at,
                                                        Value value) {
  SmallVector<unsigned> leaves;
  unsigned i = 0;
  forEachSubshape(value.getType(), [&](Type sub, ArrayRef<int64_t>) {
    if (isa<RankedTensorType>(sub))
      leaves.push_back(i);
    ++i;
  });
  SmallVector<Value> result;
  for (unsigned node : leaves) {
    FailureOr<Value> s = slice(at, value, node);
    if (failed(s))
      return failure();
    result.push_back(*s);
  }
  return result;
}

/// True if slices `x` and `y` are the same bytes, perhaps typed
/// differently (a scatter kernel's output as the integers of its
/// compare-and-swap loop).
static bool sameBytes(Value x, Value y) {
  auto a = x.getDefiningOp<th::SliceOp>();
  auto c = y.getDefiningOp<th::SliceOp>();
  return x == y || (a && c && a.getAllocation() == c.getAllocation() &&
                    a.getOffset() == c.getOffset() &&
                    th::getStorageBytes(cast<MemRefType>(x.getType())) ==
                        th::getStorageBytes(cast<MemRefType>(y.getType())));
}

void ThunkLowering::copy(Location loc, Value from, Value to) {
  if (!sameBytes(from, to))
    th::CopyOp::create(b, loc, from, to);
}

LogicalResult ThunkLowering::copyLeaves(Operation *at, Value from, Value to) {
  FailureOr<SmallVector<Value>> a = leafSlices(at, from);
  FailureOr<SmallVector<Value>> c = leafSlices(at, to);
  if (failed(a) || failed(c))
    return failure();
  for (auto [x, y] : llvm::zip_equal(*a, *c))
    copy(at->getLoc(), x, y);
  return success();
}

LogicalResult ThunkLowering::lowerMemcpy(FusionOp fusion,
                                         const MemcpyFusion &memcpy) {
  Location loc = fusion.getLoc();
  Value operand = getDataOperands(fusion)[memcpy.operand];
  BufferSliceAttr from = getBufferSlice(operand, 0);
  BufferSliceAttr out = getBufferSlice(fusion.getResult(), 0);
  FailureOr<Value> source = slice(fusion, operand);
  FailureOr<Value> target = slice(fusion, fusion.getResult());
  if (!from || !out || failed(source) || failed(target))
    return fusion.emitError("hlo-to-thunk: a value has no buffer slice; "
                            "run --hlo-buffer-assignment first");
  // The bytes read and written: the copied ones at fixed offsets, the
  // whole slices where they move.
  bool moves = memcpy.movesWithLoop();
  auto bytesOf = [](Value v) {
    return th::getStorageBytes(cast<MemRefType>(v.getType()));
  };
  int64_t read = from.getOffset() + (moves ? 0 : memcpy.source.offset);
  int64_t written = out.getOffset() + (moves ? 0 : memcpy.target.offset);
  if (from.getAllocation() == out.getAllocation() &&
      read < written + (moves ? bytesOf(*target) : memcpy.bytes) &&
      written < read + (moves ? bytesOf(*source) : memcpy.bytes))
    return fusion.emitError("hlo-to-thunk: the copied bytes overlap the "
                            "output's");
  // A dynamic-update-slice: the rest of the result is the updated
  // operand's bytes (already there when the two share a slice).
  if (memcpy.updated) {
    FailureOr<Value> whole =
        slice(fusion, getDataOperands(fusion)[*memcpy.updated]);
    if (failed(whole))
      return failure();
    copy(loc, *whole, *target);
  }
  if (moves) {
    th::DynamicCopyOp::create(
        b, loc, *source, memcpy.source.offset, memcpy.source.stride, *target,
        memcpy.target.offset, memcpy.target.stride, memcpy.bytes);
    return success();
  }
  // Fixed offsets: a plain copy between the copied bytes' slices, typed as
  // the result where they are all of it.
  auto partType = memcpy.updated
                      ? MemRefType::get({memcpy.bytes}, b.getI8Type())
                      : cast<MemRefType>(target->getType());
  auto part = [&](BufferSliceAttr at, int64_t offset, Value whole) {
    if (offset == 0 && bytesOf(whole) == memcpy.bytes)
      return whole;
    return sliceOf(loc, at.getAllocation(), at.getOffset() + offset, partType);
  };
  copy(loc, part(from, memcpy.source.offset, *source),
       part(out, memcpy.target.offset, *target));
  return success();
}

LogicalResult ThunkLowering::lowerKernel(FusionOp fusion) {
  auto ref = fusion->getAttrOfType<SymbolRefAttr>("hlo.kernel");
  if (!ref) {
    if (std::optional<MemcpyFusion> memcpy = memcpyFusions.get(fusion))
      return lowerMemcpy(fusion, *memcpy);
    return fusion.emitError("hlo-to-thunk: this fusion has no kernel (no "
                            "emitter takes it; run --hlo-to-gpu first)");
  }
  auto kernel = dyn_cast_or_null<gpu::GPUFuncOp>(
      SymbolTable::lookupSymbolIn(module, ref));
  if (!kernel || !kernel.getKnownBlockSize() || !kernel.getKnownGridSize())
    return fusion.emitError("hlo-to-thunk: '")
           << ref << "' is not a kernel with known launch dimensions";
  // The slices have the kernel's argument types (an emitter may view a
  // buffer as integers, for atomics).
  ArrayRef<Type> argTypes = kernel.getArgumentTypes();
  SmallVector<Value> inputs, outputs;
  SmallVector<std::pair<Value, unsigned>> nodes;
  for (Value operand : getDataOperands(fusion))
    nodes.push_back({operand, 0});
  unsigned node = 0;
  forEachSubshape(fusion.getType(), [&](Type sub, ArrayRef<int64_t>) {
    if (isa<RankedTensorType>(sub))
      nodes.push_back({fusion.getResult(), node});
    ++node;
  });
  if (nodes.size() != argTypes.size())
    return fusion.emitError("hlo-to-thunk: kernel '")
           << ref << "' takes " << argTypes.size() << " buffers, not "
           << nodes.size();
  for (auto [i, pair] : llvm::enumerate(nodes)) {
    auto type = dyn_cast<MemRefType>(argTypes[i]);
    if (!type || !type.hasStaticShape())
      return fusion.emitError("hlo-to-thunk: kernel '")
             << ref << "' takes a buffer that is not a static memref";
    FailureOr<Value> s = slice(fusion, pair.first, pair.second, type);
    if (failed(s))
      return failure();
    (i < getDataOperands(fusion).size() ? inputs : outputs).push_back(*s);
  }
  // An in-place output starts as the operand it aliases.
  for (auto [k, operand] : llvm::enumerate(getOutputAliases(kernel)))
    if (operand >= 0 && k < outputs.size())
      copy(fusion.getLoc(), inputs[operand], outputs[k]);
  th::KernelOp::create(b, fusion.getLoc(), ref, kernel.getKnownGridSizeAttr(),
                       kernel.getKnownBlockSizeAttr(),
                       /*shared_memory=*/b.getI64IntegerAttr(0),
                       memcpyFusions.getTranspose(fusion), inputs, outputs);
  // Kernels launched after it with the same arguments (a sort's stages).
  if (auto then = kernel->getAttrOfType<ArrayAttr>(kThenKernelsAttrName))
    for (Attribute a : then) {
      auto name = dyn_cast<FlatSymbolRefAttr>(a);
      auto next = name ? dyn_cast_or_null<gpu::GPUFuncOp>(
                             SymbolTable::lookupSymbolIn(
                                 kernel->getParentOp(), name.getAttr()))
                       : gpu::GPUFuncOp();
      if (!next || !next.getKnownBlockSize() || !next.getKnownGridSize() ||
          next.getArgumentTypes() != kernel.getArgumentTypes())
        return fusion.emitError("hlo-to-thunk: '")
               << a << "' (after '" << ref
               << "') is not a kernel of the same arguments";
      th::KernelOp::create(b, fusion.getLoc(),
                           SymbolRefAttr::get(ref.getRootReference(), {name}),
                           next.getKnownGridSizeAttr(),
                           next.getKnownBlockSizeAttr(),
                           /*shared_memory=*/b.getI64IntegerAttr(0),
                           /*transpose=*/nullptr, inputs, outputs);
    }
  return success();
}

LogicalResult ThunkLowering::lowerGemm(CustomCallOp call) {
  FailureOr<GemmThunkConfig> config = getGemmThunkConfig(call);
  if (failed(config))
    return failure();
  OperandRange operands = getDataOperands(call);
  bool tuple = config->hasWorkspace;
  FailureOr<Value> lhs = slice(call, operands[0]),
                   rhs = slice(call, operands[1]),
                   out = slice(call, call, tuple ? 1 : 0);
  FailureOr<Value> workspace = tuple ? slice(call, call, 2 + config->hasAmax)
                                     : FailureOr<Value>(Value());
  FailureOr<Value> amax =
      config->hasAmax ? slice(call, call, 2) : FailureOr<Value>(Value());
  if (failed(amax))
    return failure();
  if (failed(lhs) || failed(rhs) || failed(out) || failed(workspace))
    return failure();
  // The bias and the fp8 scales.
  Value bias, aScale, bScale, dScale;
  for (auto [index, value] :
       {std::pair(config->bias, &bias), std::pair(config->aScale, &aScale),
        std::pair(config->bScale, &bScale),
        std::pair(config->dScale, &dScale)}) {
    if (index < 0)
      continue;
    FailureOr<Value> s = slice(call, operands[index]);
    if (failed(s))
      return failure();
    *value = *s;
  }
  Value c;
  if (config->beta != 0) {
    // D = ... + beta * C: C is read where it is (the output's bytes where
    // the GEMM writes over it).
    FailureOr<Value> s = slice(call, operands[2]);
    if (failed(s))
      return failure();
    if (!sameBytes(*s, *out))
      c = *s;
  }
  auto op = th::GemmOp::create(
      b, call.getLoc(), *lhs, *rhs, c, bias, aScale, bScale, dScale, *out,
      *amax, *workspace, config->lhs, config->rhs, config->out,
      b.getF64FloatAttr(config->alphaReal),
      b.getF64FloatAttr(config->alphaImag), b.getF64FloatAttr(config->beta),
      th::GemmEpilogueAttr::get(b.getContext(), config->epilogue),
      b.getI64IntegerAttr(config->algorithm),
      config->tf32 ? b.getUnitAttr() : UnitAttr(),
      config->fastAccum ? b.getUnitAttr() : UnitAttr());
  return mlir::verify(op);
}

LogicalResult ThunkLowering::lowerConvolution(CustomCallOp call) {
  FailureOr<ConvThunkConfig> config = getConvThunkConfig(call);
  if (failed(config))
    return failure();
  // The slice of each forward role: an operand's, or the result's.
  auto sliceOf = [&](Value operand) -> FailureOr<Value> {
    return operand ? slice(call, operand) : slice(call, call, 1);
  };
  FailureOr<Value> input = sliceOf(config->inputOperand),
                   filter = sliceOf(config->filterOperand),
                   output = sliceOf(config->outputOperand);
  if (failed(input) || failed(filter) || failed(output))
    return failure();
  Value bias, side, workspace;
  for (auto [operand, s] :
       {std::pair{config->bias, &bias}, std::pair{config->sideInput, &side}})
    if (operand) {
      FailureOr<Value> v = slice(call, operand);
      if (failed(v))
        return failure();
      *s = *v;
    }
  if (auto tuple = dyn_cast<TupleType>(call.getType());
      tuple && cast<RankedTensorType>(tuple.getType(1)).getNumElements() > 0) {
    FailureOr<Value> v = slice(call, call, 2);
    if (failed(v))
      return failure();
    workspace = *v;
  }
  auto op = th::ConvolutionOp::create(
      b, call.getLoc(), th::ConvKindAttr::get(b.getContext(), config->kind),
      *input, *filter, *output, bias, side, workspace, config->input,
      config->filter, config->output, b.getDenseI64ArrayAttr(config->strides),
      b.getDenseI64ArrayAttr(config->padLow),
      b.getDenseI64ArrayAttr(config->padHigh),
      b.getDenseI64ArrayAttr(config->lhsDilation),
      b.getDenseI64ArrayAttr(config->rhsDilation),
      b.getI64IntegerAttr(config->featureGroupCount),
      config->reversed ? b.getUnitAttr() : UnitAttr(),
      th::ConvActivationAttr::get(b.getContext(), config->activation),
      b.getF64FloatAttr(config->convResultScale),
      b.getF64FloatAttr(config->sideInputScale),
      b.getF64FloatAttr(config->leakyReluAlpha),
      b.getI64IntegerAttr(config->algorithm));
  return mlir::verify(op);
}

LogicalResult ThunkLowering::lowerFft(FftOp op) {
  // cuFFT (and the host runtime) take row-major arrays, as XLA's layout
  // assignment gives an fft; the slices have the arrays' shapes.
  auto rowMajorSlice = [&](Value v) -> FailureOr<Value> {
    auto t = cast<RankedTensorType>(v.getType());
    if (!llvm::equal(getMinorToMajor(t),
                     llvm::reverse(llvm::seq<int64_t>(t.getRank()))))
      return op.emitError("hlo-to-thunk: an fft needs row-major operand and "
                          "result layouts, not ")
             << t, failure();
    return slice(op, v, 0, MemRefType::get(t.getShape(), t.getElementType()));
  };
  FailureOr<Value> input = rowMajorSlice(op.getOperand()),
                   output = rowMajorSlice(op.getResult());
  if (failed(input) || failed(output))
    return failure();
  auto kind = static_cast<th::FftType>(static_cast<int>(op.getFftType()));
  auto thunk = th::FftOp::create(b, op.getLoc(), kind, *input, *output,
                                 op.getFftLength());
  return mlir::verify(thunk);
}

LogicalResult ThunkLowering::lowerCall(Operation *at, ComputationOp callee,
                                       ValueRange operands, Value result) {
  for (auto [operand, param] :
       llvm::zip_equal(operands, callee.getBody().getArguments()))
    if (failed(copyLeaves(at, operand, param)))
      return failure();
  if (failed(lowerComputation(callee)))
    return failure();
  return result ? copyLeaves(at, callee.getRootValue(), result) : success();
}

LogicalResult ThunkLowering::lowerWhile(WhileOp op) {
  auto cond = symbols.lookup<ComputationOp>(op.getCondition());
  auto body = symbols.lookup<ComputationOp>(op.getBody());
  if (!cond || !body)
    return op.emitError("hlo-to-thunk: the loop's computations are missing");
  Value init = getDataOperands(op)[0];
  // The loop state lives in the while's slices; the condition and the body
  // read it through their parameters' (the same slices, or copies).
  if (failed(copyLeaves(op, init, op)))
    return failure();
  auto pred =
      slice(op, cond.getRootValue(), 0, MemRefType::get({1}, b.getI8Type()));
  if (failed(pred))
    return failure();
  std::optional<int64_t> tripCount;
  if (auto config = readBackendConfig(op->getAttr("backend_config")))
    tripCount = config.getKnownTripCount();
  auto loop = th::WhileOp::create(b, op.getLoc(), *pred,
                                  tripCount ? b.getI64IntegerAttr(*tripCount)
                                            : IntegerAttr());
  OpBuilder::InsertionGuard guard(b);
  b.createBlock(&loop.getCondition());
  if (failed(lowerCall(op, cond, op->getResult(0), Value())))
    return failure();
  b.createBlock(&loop.getBody());
  return lowerCall(op, body, op->getResult(0), op->getResult(0));
}

LogicalResult ThunkLowering::lowerConditional(ConditionalOp op) {
  Value selector = op.getBranchIndex();
  auto type = cast<RankedTensorType>(selector.getType());
  Type storage =
      type.getElementType().isInteger(1) ? b.getI8Type() : b.getI32Type();
  auto s = slice(op, selector, 0, MemRefType::get({1}, storage));
  if (failed(s))
    return failure();
  SmallVector<FlatSymbolRefAttr> branches = op.getBranches();
  auto thunk = th::ConditionalOp::create(b, op.getLoc(), *s, branches.size());
  OpBuilder::InsertionGuard guard(b);
  for (auto [i, name] : llvm::enumerate(branches)) {
    auto comp = symbols.lookup<ComputationOp>(name.getAttr());
    if (!comp)
      return op.emitError("hlo-to-thunk: branch ") << name << " is missing";
    b.createBlock(&thunk.getBranches()[i]);
    if (failed(lowerCall(op, comp, op.getBranchOperands()[i], op)))
      return failure();
  }
  return success();
}

LogicalResult ThunkLowering::lowerInstruction(Operation *op) {
  if (isa<ConstantOp>(op))
    return success();
  // A token holds no bytes.
  if (isa<AfterAllOp>(op))
    return success();
  // Identities: annotations of sharding and memory placement.
  if (auto call = dyn_cast<CustomCallOp>(op);
      call &&
      (isShardingPassThroughTarget(call.getCustomCallTarget()) ||
       isMemoryPlacementTarget(call.getCustomCallTarget())) &&
      getDataOperands(op).size() == 1 &&
      getDataOperands(op)[0].getType() == op->getResult(0).getType())
    return copyLeaves(op, getDataOperands(op)[0], op->getResult(0));
  // copy-start copies its operand into element 0 of its (destination,
  // source, context) result; copy-done forwards that element.
  if (isa<CopyStartOp, CopyDoneOp>(op)) {
    Value from = getDataOperands(op)[0];
    bool start = isa<CopyStartOp>(op);
    FailureOr<SmallVector<Value>> a =
        start ? logicalSlices(op, from) : logicalSlices(op, from, 0);
    FailureOr<SmallVector<Value>> c =
        start ? logicalSlices(op, op->getResult(0), 0)
              : logicalSlices(op, op->getResult(0));
    if (failed(a) || failed(c))
      return failure();
    for (auto [x, y] : llvm::zip_equal(*a, *c)) {
      if (cast<MemRefType>(x.getType()).getLayout() !=
          cast<MemRefType>(y.getType()).getLayout())
        return op->emitError("hlo-to-thunk: a copy-start that changes the "
                             "layout has no thunk yet");
      copy(op->getLoc(), x, y);
    }
    return success();
  }
  if (isa<TupleOp, GetTupleElementOp, BitcastOp, CopyOp, OptimizationBarrierOp,
          AddDependencyOp, DomainOp>(op)) {
    // Forwarding: the bytes stay where they are unless the slices differ.
    // A copy that changes the layout is a fusion by now.
    Value from = getDataOperands(op)[0];
    if (isa<TupleOp>(op)) {
      FailureOr<SmallVector<Value>> to = leafSlices(op, op->getResult(0));
      if (failed(to))
        return failure();
      unsigned next = 0;
      for (Value element : getDataOperands(op)) {
        FailureOr<SmallVector<Value>> leaves = leafSlices(op, element);
        if (failed(leaves))
          return failure();
        for (Value leaf : *leaves)
          copy(op->getLoc(), leaf, (*to)[next++]);
      }
      return success();
    }
    if (auto gte = dyn_cast<GetTupleElementOp>(op)) {
      // The element's nodes are a run of the tuple's pre-order nodes.
      auto tuple = cast<TupleType>(from.getType());
      unsigned first = 1;
      for (int64_t i = 0; i < int64_t(gte.getIndex()); ++i)
        first += getNumSubshapes(tuple.getType(i));
      unsigned node = 0;
      LogicalResult result = success();
      forEachSubshape(gte.getType(), [&](Type sub, ArrayRef<int64_t>) {
        if (succeeded(result) && isa<RankedTensorType>(sub)) {
          FailureOr<Value> a = slice(op, from, first + node);
          FailureOr<Value> c = slice(op, gte, node);
          if (failed(a) || failed(c))
            result = failure();
          else
            copy(op->getLoc(), *a, *c);
        }
        ++node;
      });
      return result;
    }
    // (a copy of a token or an opaque value has no layout)
    if (isa<CopyOp>(op) && isa<RankedTensorType>(from.getType()) &&
        getMinorToMajor(from.getType()) !=
            getMinorToMajor(op->getResult(0).getType()))
      return op->emitError("hlo-to-thunk: a copy that changes the layout "
                           "must be a fusion (run the GPU pipeline)");
    return copyLeaves(op, from, op->getResult(0));
  }
  if (auto fusion = dyn_cast<FusionOp>(op))
    return lowerKernel(fusion);
  if (auto call = dyn_cast<CustomCallOp>(op)) {
    StringRef target = call.getCustomCallTarget();
    if (target == "__cublas$gemm" || target == "__cublas$lt$matmul" ||
        target == "__cublas$lt$matmul$f8")
      return lowerGemm(call);
    if (isCudnnConvolution(call))
      return lowerConvolution(call);
    if (target == "__cublas$triangularSolve")
      return lowerTriangularSolve(call);
    if (target == "__cusolver$cholesky")
      return lowerCholesky(call);
    if (isFactorizationTarget(target))
      return lowerFactorization(call);
    if (target.starts_with("lapack_"))
      return lowerLapack(call);
    if (target == "PadToStatic" || target == "SliceToDynamic")
      return lowerDynamicShape(call);
    if (isCubSortTarget(target))
      return lowerCubSort(call);
    if (target == "__gpu$TopK")
      return lowerTopK(call);
    return op->emitError("hlo-to-thunk: custom call '")
           << target << "' has no thunk yet";
  }
  if (auto fft = dyn_cast<FftOp>(op))
    return lowerFft(fft);
  if (isa<TriangularSolveOp>(op))
    return lowerTriangularSolve(op);
  if (isa<InfeedOp, OutfeedOp, SendOp, SendDoneOp, RecvOp, RecvDoneOp>(op))
    return lowerTransfer(op);
  if (isa<ReplicaIdOp, PartitionIdOp>(op))
    return lowerDeviceId(op);
  if (auto rng = dyn_cast<RngGetAndUpdateStateOp>(op))
    return lowerRngGetAndUpdateState(rng);
  if (isArrayCollective(op)) {
    FailureOr<SmallVector<Value>> outputs =
        logicalSlices(op, op->getResult(0));
    if (failed(outputs))
      return failure();
    return lowerCollective(op, getDataOperands(op), *outputs);
  }
  if (isa<AllReduceStartOp, AllGatherStartOp, CollectivePermuteStartOp,
          AsyncStartOp>(op))
    return lowerCollectiveStart(op);
  if (isa<AllReduceDoneOp, AllGatherDoneOp, CollectivePermuteDoneOp,
          AsyncDoneOp>(op))
    return lowerCollectiveDone(op);
  if (auto loop = dyn_cast<WhileOp>(op))
    return lowerWhile(loop);
  if (auto cond = dyn_cast<ConditionalOp>(op))
    return lowerConditional(cond);
  if (auto call = dyn_cast<CallOp>(op)) {
    auto callee = symbols.lookup<ComputationOp>(call.getToApply());
    if (!callee)
      return op->emitError("hlo-to-thunk: the callee is missing");
    return lowerCall(op, callee, getDataOperands(op), op->getResult(0));
  }
  return op->emitError("hlo-to-thunk: `")
         << getOpcode(op) << "` has no thunk yet";
}

LogicalResult ThunkLowering::lowerComputation(ComputationOp comp) {
  for (Operation &op : comp.getBody().front().without_terminator())
    if (failed(lowerInstruction(&op)))
      return failure();
  return success();
}

LogicalResult ThunkLowering::run() {
  ComputationOp entry;
  for (auto comp : module.getOps<ComputationOp>())
    if (comp.getEntry())
      entry = comp;
  auto assignment = module->getAttrOfType<ArrayAttr>("hlo.buffer_allocations");
  if (!entry || !assignment)
    return module.emitError("hlo-to-thunk: needs an ENTRY computation and a "
                            "buffer assignment (run --hlo-gpu-optimize or "
                            "--hlo-buffer-assignment first)");
  // The allocations first, then the kernels, then the program.
  b.setInsertionPointToStart(module.getBody());
  for (Attribute attr : assignment) {
    auto a = cast<BufferAllocationAttr>(attr);
    th::AllocationKind kind =
        static_cast<th::AllocationKind>(static_cast<int>(a.getKind()));
    std::optional<int64_t> parameter = a.getParameter();
    // A tuple parameter's own allocation holds its index table, which no
    // thunk reads (they address the elements' allocations), a token's
    // nothing: scratch here, so that a caller passes the arrays only.
    if (kind == th::AllocationKind::Parameter && parameter &&
        *parameter < int64_t(entry.getNumArguments()) &&
        !isa_and_nonnull<RankedTensorType>(getSubshape(
            entry.getArgumentTypes()[*parameter], a.getParameterIndex()))) {
      kind = th::AllocationKind::Temp;
      parameter.reset();
    }
    auto alloc = th::AllocationOp::create(
        b, module.getLoc(), b.getStringAttr(allocationName(a.getIndex())),
        th::AllocationKindAttr::get(b.getContext(), kind),
        b.getI64IntegerAttr(a.getSize()), b.getI64IntegerAttr(256),
        parameter ? b.getI64IntegerAttr(*parameter) : IntegerAttr(),
        !parameter || a.getParameterIndex().empty()
            ? DenseI64ArrayAttr()
            : b.getDenseI64ArrayAttr(a.getParameterIndex()),
        a.getMaybeLiveOut() && parameter ? b.getUnitAttr() : UnitAttr(),
        ElementsAttr(), IntegerAttr());
    allocations.push_back(alloc);
  }
  // The allocations of arrays in host memory (hlo-host-offloader's `S(5)`;
  // buffer assignment gives them allocations of their own) are the host's.
  auto markHostMemory = [&](Value v) {
    forEachSubshape(v.getType(), [&, node = 0u](Type sub,
                                                ArrayRef<int64_t>) mutable {
      unsigned n = node++;
      if (getMemorySpace(sub) != kHostMemorySpace)
        return;
      if (BufferSliceAttr s = getBufferSlice(v, n))
        allocations[s.getAllocation()].setMemorySpaceAttr(
            b.getI64IntegerAttr(kHostMemorySpace));
    });
  };
  for (auto comp : module.getOps<ComputationOp>()) {
    for (BlockArgument arg : comp.getArguments())
      markHostMemory(arg);
    comp.walk([&](Operation *op) {
      for (Value result : op->getResults())
        markHostMemory(result);
    });
  }
  // Constants: the allocation of each array (each element of a tuple
  // constant) holds its value in physical order.
  LogicalResult status = success();
  module.walk([&](ConstantOp c) {
    if (failed(status))
      return;
    SmallVector<std::pair<unsigned, RankedTensorType>> arrays;
    unsigned node = 0;
    forEachSubshape(c.getType(), [&](Type sub, ArrayRef<int64_t>) {
      if (auto array = dyn_cast<RankedTensorType>(sub)) {
        arrays.push_back({node, array});
      } else if (BufferSliceAttr s = getBufferSlice(c, node)) {
        // A tuple's own bytes (XLA's index table) are read by no thunk:
        // zeros.
        th::AllocationOp alloc = allocations[s.getAllocation()];
        if (alloc.getKind() == th::AllocationKind::Constant &&
            !alloc.getValue())
          alloc.setValueAttr(DenseElementsAttr::get(
              RankedTensorType::get({int64_t(alloc.getSize())}, b.getI8Type()),
              b.getI8IntegerAttr(0)));
      }
      ++node;
    });
    SmallVector<Attribute> values;
    std::function<void(Attribute)> flatten = [&](Attribute v) {
      if (auto elements = dyn_cast<ArrayAttr>(v))
        llvm::for_each(elements, flatten);
      else
        values.push_back(v);
    };
    flatten(c.getValue());
    for (auto [i, array] : llvm::enumerate(arrays)) {
      BufferSliceAttr s = getBufferSlice(c, array.first);
      if (!s)
        continue;
      if (c.isElided()) {
        status = c.emitError("hlo-to-thunk: the constant has an elided "
                             "literal ({...}): no value to embed");
        return;
      }
      auto value = i < values.size() && values.size() == arrays.size()
                       ? dyn_cast<DenseElementsAttr>(values[i])
                       : DenseElementsAttr();
      th::AllocationOp alloc = allocations[s.getAllocation()];
      if (!value || alloc.getKind() != th::AllocationKind::Constant) {
        status = c.emitError("hlo-to-thunk: a constant needs a dense array "
                             "value per array, each in an allocation of "
                             "its own");
        return;
      }
      FailureOr<DenseElementsAttr> physical =
          getPhysicalConstant(value, array.second);
      if (failed(physical)) {
        status = c.emitError("hlo-to-thunk: constant of element type ")
                 << array.second.getElementType() << " is not supported yet";
        return;
      }
      alloc.setValueAttr(*physical);
    }
  });
  if (failed(status))
    return failure();

  b.setInsertionPointToEnd(module.getBody());
  std::tie(numReplicas, numPartitions) = getDeviceCounts(module);
  program = th::ProgramOp::create(b, entry.getLoc(), "main", ArrayAttr(),
                                  ArrayAttr(), ArrayAttr(), ArrayAttr());
  program.setNumReplicas(numReplicas);
  program.setNumPartitions(numPartitions);
  program.setRngSeed(static_cast<int64_t>(rngSeed));
  Block *body = b.createBlock(&program.getBody());
  b.setInsertionPointToEnd(body);
  if (failed(lowerComputation(entry)))
    return failure();
  FailureOr<SmallVector<Value>> results =
      leafSlices(entry, entry.getRootValue());
  if (failed(results))
    return failure();
  th::ReturnOp::create(b, entry.getLoc(), *results);

  // The ENTRY signature, for callers: parameter allocations in order of
  // (parameter, index), then the result's arrays.
  SmallVector<Attribute> argTypes, resultTypes;
  for (th::AllocationOp a : th::getParameterAllocations(module)) {
    int64_t number = *a.getParameter();
    ArrayRef<int64_t> index =
        a.getParameterIndex().value_or(ArrayRef<int64_t>());
    if (number >= int64_t(entry.getArgumentTypes().size()))
      return entry.emitError("hlo-to-thunk: parameter allocation of a "
                             "missing parameter");
    Type t = getSubshape(entry.getArgumentTypes()[number], index);
    auto tensor = dyn_cast_or_null<RankedTensorType>(t);
    if (!tensor)
      return entry.emitError("hlo-to-thunk: a parameter allocation holds "
                             "no array");
    argTypes.push_back(TypeAttr::get(getSignatureType(tensor)));
  }
  forEachSubshape(
      entry.getResultTypes().front(), [&](Type t, ArrayRef<int64_t>) {
        if (auto tensor = dyn_cast<RankedTensorType>(t))
          resultTypes.push_back(TypeAttr::get(getSignatureType(tensor)));
      });
  program.setArgumentTypesAttr(b.getArrayAttr(argTypes));
  program.setResultTypesAttr(b.getArrayAttr(resultTypes));
  setProgramTiles(entry, module);

  // The program is all there is now.
  for (auto comp : llvm::make_early_inc_range(module.getOps<ComputationOp>()))
    comp.erase();
  for (NamedAttribute attr : llvm::to_vector(module->getAttrs()))
    if (attr.getName().getValue().starts_with("hlo."))
      module->removeAttr(attr.getName());
  return success();
}

/// The tiles of an array of type `local` that partitions of `numPartitions`
/// hold of the whole array `global` by `sharding`; null where they are not
/// its tiles.
static th::TilesAttr tilesOf(ShardingAttr sharding, Type global, Type local,
                             int64_t numPartitions) {
  auto whole = dyn_cast_or_null<RankedTensorType>(global);
  auto tile = dyn_cast_or_null<RankedTensorType>(local);
  if (!whole || !tile)
    return {};
  std::optional<TileSharding> t =
      TileSharding::get(sharding, whole.getRank(), numPartitions);
  if (!t || t->shardShape(whole.getShape()) != tile.getShape())
    return {};
  SmallVector<int64_t> of;
  for (int64_t p = 0; p < numPartitions; ++p) {
    int64_t index = 0;
    for (auto [c, n] : llvm::zip(t->getCoords(p), t->getTiles()))
      index = index * n + c;
    of.push_back(index);
  }
  return th::TilesAttr::get(whole.getContext(), whole.getShape(), t->getTiles(),
                            of);
}

void ThunkLowering::setProgramTiles(ComputationOp entry, ModuleOp module) {
  // hlo-spmd-partitioner's record of a partitioned ENTRY's whole arrays
  // (`hlo.global_type`) and their shardings.
  auto wholeResult = entry.getResultAttrOfType<TypeAttr>(0, "hlo.global_type");
  if (numPartitions < 2 || !wholeResult)
    return;
  SmallVector<Attribute> argTiles, resultTiles;
  for (th::AllocationOp a : th::getParameterAllocations(module)) {
    int64_t number = *a.getParameter();
    ArrayRef<int64_t> index =
        a.getParameterIndex().value_or(ArrayRef<int64_t>());
    Type local = getSubshape(entry.getArgumentTypes()[number], index);
    auto whole = entry.getArgAttrOfType<TypeAttr>(number, "hlo.global_type");
    auto sharding =
        entry.getArgAttrOfType<ShardingAttr>(number, "hlo.sharding");
    // (Tuple parameters are whole.)
    th::TilesAttr tiles =
        tilesOf(index.empty() ? sharding : ShardingAttr(),
                index.empty() && whole ? whole.getValue() : local, local,
                numPartitions);
    if (!tiles)
      return;
    argTiles.push_back(tiles);
  }
  auto sharding = entry.getResultAttrOfType<ShardingAttr>(0, "hlo.sharding");
  bool ok = true;
  forEachSubshape(wholeResult.getValue(), [&](Type t, ArrayRef<int64_t> at) {
    if (!isa<RankedTensorType>(t))
      return;
    ShardingAttr leaf = sharding && sharding.isTuple() && !at.empty()
                            ? sharding.getLeafSharding(at.front())
                            : sharding;
    th::TilesAttr tiles =
        tilesOf(leaf, t, getSubshape(entry.getResultTypes().front(), at),
                numPartitions);
    ok &= bool(tiles);
    resultTiles.push_back(tiles);
  });
  if (!ok)
    return;
  OpBuilder b(program);
  program.setArgumentTilesAttr(b.getArrayAttr(argTiles));
  program.setResultTilesAttr(b.getArrayAttr(resultTiles));
}

namespace {
struct HloToThunkPass : hlo::impl::HloToThunkBase<HloToThunkPass> {
  using HloToThunkBase::HloToThunkBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    ThunkLowering lowering(module, symbols, rngSeed);
    if (failed(lowering.run()))
      return signalPassFailure();
    if (deterministic)
      for (auto program : module.getOps<th::ProgramOp>())
        program.setDeterministic(true);
  }
};
} // namespace
