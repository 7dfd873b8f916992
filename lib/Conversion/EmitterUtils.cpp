//===- EmitterUtils.cpp - shared parts of the fusion emitters -------------===//
//
// The kernel function and its buffer arguments, launch dimensions, index
// arithmetic between logical indices and physical offsets, output aliases,
// and the reducers of reductions combined across a warp.
//
//===----------------------------------------------------------------------===//

#include "EmitterUtils.h"

#include "Hlo/Analysis/BufferAssignment.h"
#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Conversion/ScalarLowering.h"

#include "mlir/Dialect/Complex/IR/Complex.h"

using namespace mlir;
using namespace mlir::hlo;

SmallVector<Value> mlir::hlo::getFusionRoots(ComputationOp fused) {
  Value root = fused.getRootValue();
  if (auto tuple = root.getDefiningOp<TupleOp>())
    return SmallVector<Value>(tuple.getDataOperands());
  return {root};
}

Location mlir::hlo::getKernelLocation(Operation *fusion, StringRef name) {
  Location file = UnknownLoc::get(fusion->getContext());
  fusion->getLoc()->walk([&](Location l) {
    if (isa<FileLineColLoc>(l)) {
      file = l;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return NameLoc::get(StringAttr::get(fusion->getContext(), name), file);
}

/// The buffer slices of a fusion's kernel arguments (operands, then
/// outputs: a tuple result's elements), or none where buffers are not
/// assigned.
static std::optional<SmallVector<BufferSliceAttr>>
getArgumentSlices(Operation *fusion, size_t numOutputs) {
  SmallVector<BufferSliceAttr> slices;
  for (Value operand : getDataOperands(fusion))
    slices.push_back(getBufferSlice(operand, 0));
  unsigned first = 0;
  if (fusion->getNumResults() == 1 &&
      isa<TupleType>(fusion->getResult(0).getType()))
    first = 1; // node 0 is the tuple itself
  for (size_t i = 0; i < numOutputs; ++i) {
    Value result = fusion->getResult(first ? 0 : i);
    slices.push_back(getBufferSlice(result, first + (first ? i : 0)));
  }
  if (llvm::any_of(slices, [](BufferSliceAttr s) { return !s; }))
    return std::nullopt;
  return slices;
}

static bool overlap(BufferSliceAttr a, BufferSliceAttr b) {
  return a.getAllocation() == b.getAllocation() &&
         a.getOffset() < b.getOffset() + b.getSize() &&
         b.getOffset() < a.getOffset() + a.getSize();
}

/// Marks arguments as LLVM's NVPTX back end needs them to read inputs
/// through the read-only data cache (`ld.global.nc`, as XLA's kernels do):
/// where buffers are assigned, every input `llvm.readonly` and every
/// argument `llvm.noalias` whose slice shares no byte with another
/// argument's where one of the two is an output (an in-place output and
/// its operand share their slice: neither is noalias). Without assigned
/// buffers nothing is marked.
static void markArguments(OpBuilder &b, gpu::GPUFuncOp func, Operation *fusion,
                          size_t numOutputs) {
  std::optional<SmallVector<BufferSliceAttr>> slices =
      getArgumentSlices(fusion, numOutputs);
  if (!slices)
    return;
  size_t numInputs = slices->size() - numOutputs;
  for (size_t i = 0; i < slices->size(); ++i) {
    bool aliased = false;
    for (size_t j = 0; j < slices->size() && !aliased; ++j)
      aliased = i != j && (i >= numInputs || j >= numInputs) &&
                overlap((*slices)[i], (*slices)[j]);
    if (!aliased)
      func.setArgAttr(i, "llvm.noalias", b.getUnitAttr());
    if (i < numInputs)
      func.setArgAttr(i, "llvm.readonly", b.getUnitAttr());
  }
}

gpu::GPUFuncOp mlir::hlo::createKernel(OpBuilder &b, Operation *fusion,
                                       gpu::GPUModuleOp module, StringRef name,
                                       TypeRange outputs,
                                       ArrayRef<int32_t> block,
                                       ArrayRef<int32_t> grid) {
  Location loc = getKernelLocation(fusion, name);
  SmallVector<Type> argTypes;
  for (Value operand : getDataOperands(fusion))
    argTypes.push_back(getKernelBufferType(operand.getType()));
  for (Type t : outputs)
    argTypes.push_back(getKernelBufferType(t));
  b.setInsertionPointToEnd(module.getBody());
  auto func =
      gpu::GPUFuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr(block));
  func.setKnownGridSizeAttr(b.getDenseI32ArrayAttr(grid));
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    func.setArgAttr(i, "llvm.align",
                    b.getI64IntegerAttr(kKernelArgumentAlignment));
  markArguments(b, func, fusion, outputs.size());
  b.setInsertionPointToStart(&func.getBody().front());
  Operation *ret = gpu::ReturnOp::create(b, loc);
  b.setInsertionPoint(ret);
  return func;
}

Value mlir::hlo::emitClampedStart(OpBuilder &b, Location loc, Value raw,
                                  Type element, int64_t lo, int64_t hi) {
  Value lower = arith::ConstantIndexOp::create(b, loc, lo);
  Value upper = arith::ConstantIndexOp::create(b, loc, hi);
  if (element.isUnsignedInteger() || element.isInteger(1)) {
    // Zero-extended, so at least 0: an unsigned minimum with `hi` (a
    // 64-bit index of 2^63 or more is taken as large, not negative).
    Value i = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), raw);
    i = arith::MinUIOp::create(b, loc, i, upper);
    return arith::MaxSIOp::create(b, loc, i, lower);
  }
  Value i = arith::IndexCastOp::create(b, loc, b.getIndexType(), raw);
  i = arith::MaxSIOp::create(b, loc, i, lower);
  return arith::MinSIOp::create(b, loc, i, upper);
}

Value mlir::hlo::emitPhysicalOffset(OpBuilder &b, Location loc,
                                    ValueRange index, RankedTensorType type) {
  Value offset = arith::ConstantIndexOp::create(b, loc, 0);
  for (auto [i, stride] : llvm::zip(index, getPhysicalStrides(type)))
    offset = arith::AddIOp::create(
        b, loc, offset,
        arith::MulIOp::create(b, loc, i,
                              arith::ConstantIndexOp::create(b, loc, stride)));
  return offset;
}

SmallVector<Value> mlir::hlo::emitLogicalIndex(OpBuilder &b, Location loc,
                                               Value linear,
                                               RankedTensorType type) {
  SmallVector<Value> index(type.getRank());
  int64_t stride = 1;
  for (int64_t dim : getMinorToMajor(type)) {
    Value q = arith::DivUIOp::create(
        b, loc, linear, arith::ConstantIndexOp::create(b, loc, stride));
    index[dim] = arith::RemUIOp::create(
        b, loc, q,
        arith::ConstantIndexOp::create(b, loc, type.getDimSize(dim)));
    stride *= type.getDimSize(dim);
  }
  return index;
}

void mlir::hlo::delinearizeGroup(OpBuilder &b, Location loc, Value linear,
                                 ArrayRef<int64_t> shape,
                                 ArrayRef<int64_t> group,
                                 MutableArrayRef<Value> index) {
  int64_t stride = 1;
  for (auto [i, d] : llvm::enumerate(llvm::reverse(group))) {
    Value q = stride == 1 ? linear
                          : arith::DivUIOp::create(
                                b, loc, linear,
                                arith::ConstantIndexOp::create(b, loc, stride))
                                .getResult();
    index[d] =
        i + 1 == group.size()
            ? q
            : arith::RemUIOp::create(
                  b, loc, q, arith::ConstantIndexOp::create(b, loc, shape[d]))
                  .getResult();
    stride *= shape[d];
  }
}

void mlir::hlo::setOutputAliases(Operation *kernel, ArrayRef<int64_t> aliases) {
  // A runtime may pass an output and the operand it aliases in one buffer:
  // neither is noalias then (createKernel's marks from the slices).
  if (auto func = dyn_cast<gpu::GPUFuncOp>(kernel)) {
    unsigned firstOutput = func.getNumArguments() - aliases.size();
    for (auto [k, a] : llvm::enumerate(aliases))
      if (a >= 0) {
        func.removeArgAttr(a, "llvm.noalias");
        func.removeArgAttr(firstOutput + k, "llvm.noalias");
      }
  }
  if (llvm::all_of(aliases, [](int64_t a) { return a < 0; })) {
    kernel->removeAttr(kOutputAliasesAttrName);
    return;
  }
  kernel->setAttr(kOutputAliasesAttrName,
                  DenseI64ArrayAttr::get(kernel->getContext(), aliases));
}

SmallVector<int64_t> mlir::hlo::getOutputAliases(Operation *kernel) {
  auto attr = kernel->getAttrOfType<DenseI64ArrayAttr>(kOutputAliasesAttrName);
  if (!attr)
    return {};
  return SmallVector<int64_t>(attr.asArrayRef());
}

int64_t mlir::hlo::getElementBytes(Type elementType) {
  Type scalar = getScalarType(elementType);
  if (auto complex = dyn_cast<ComplexType>(scalar))
    return 2 * llvm::divideCeil(
                   complex.getElementType().getIntOrFloatBitWidth(), 8);
  return llvm::divideCeil(scalar.getIntOrFloatBitWidth(), 8);
}

int64_t mlir::hlo::getLoopUnrollFactor(int64_t elements, int64_t widestBytes) {
  const GpuDeviceInfo &device = getSelectedGpuDevice();
  if (elements < device.coreCount * device.threadsPerCoreLimit)
    return 1;
  return std::max<int64_t>(1, 16 / widestBytes);
}

MemRefType mlir::hlo::getKernelBufferType(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return MemRefType::get({tensor.getNumElements()},
                         getScalarType(tensor.getElementType()));
}

std::pair<int64_t, int64_t> mlir::hlo::getLaunchDims(int64_t work,
                                                     int64_t threadsPerBlock) {
  int64_t threads = std::max<int64_t>(1, std::min(threadsPerBlock, work));
  int64_t blocks = std::max<int64_t>(1, llvm::divideCeil(work, threads));
  return {threads, blocks};
}

Value mlir::hlo::emitGuardedThreadIndex(OpBuilder &b, Location loc,
                                        int64_t threadsPerBlock, int64_t work) {
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value blockId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value thread = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, blockId, constant(threadsPerBlock)),
      threadId);
  Value inBounds = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         thread, constant(work));
  auto ifOp = scf::IfOp::create(b, loc, inBounds, /*withElseRegion=*/false);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  return thread;
}

Value mlir::hlo::shuffleXor(OpBuilder &b, Location loc, Value v,
                            int32_t offset) {
  Type t = v.getType();
  Type i32 = b.getI32Type();
  auto shuffle = [&](Value x) {
    return gpu::ShuffleOp::create(b, loc, x, offset, /*width=*/32,
                                  gpu::ShuffleMode::XOR)
        .getShuffleResult();
  };
  if (auto complex = dyn_cast<ComplexType>(t)) {
    Value re = shuffleXor(b, loc, complex::ReOp::create(b, loc, v), offset);
    Value im = shuffleXor(b, loc, complex::ImOp::create(b, loc, v), offset);
    return complex::CreateOp::create(b, loc, t, re, im);
  }
  if (t == i32 || t.isF32())
    return shuffle(v);
  unsigned width = t.getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(width);
  Value bits = isa<FloatType>(t)
                   ? Value(arith::BitcastOp::create(b, loc, intType, v))
                   : v;
  Value result;
  if (width < 32) {
    Value wide = arith::ExtUIOp::create(b, loc, i32, bits);
    result = arith::TruncIOp::create(b, loc, intType, shuffle(wide));
  } else {
    // 64 bits: the two halves (both computed before either shuffle, so
    // that on the host the two shuffles are one phase).
    Value c32 = arith::ConstantIntOp::create(b, loc, intType, 32);
    Value loBits = arith::TruncIOp::create(b, loc, i32, bits);
    Value hiBits = arith::TruncIOp::create(
        b, loc, i32, arith::ShRUIOp::create(b, loc, bits, c32));
    Value lo = shuffle(loBits);
    Value hi = shuffle(hiBits);
    result = arith::OrIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, intType, lo),
        arith::ShLIOp::create(
            b, loc, arith::ExtUIOp::create(b, loc, intType, hi), c32));
  }
  return isa<FloatType>(t) ? Value(arith::BitcastOp::create(b, loc, t, result))
                           : result;
}

LogicalResult Reducers::init(ArrayRef<ReduceOp> reduces, SymbolTable &symbols) {
  for (ReduceOp reduce : reduces) {
    auto reducer = symbols.lookup<ComputationOp>(reduce.getToApply());
    if (!reducer)
      return reduce->emitError("reducer not found");
    computations.push_back(reducer);
    auto operands = getDataOperands(reduce);
    unsigned n = operands.size() / 2;
    numAccs.push_back(n);
    for (Value init : operands.drop_front(n))
      accTypes.push_back(getScalarType(getElementTypeOrSelf(init.getType())));
  }
  return success();
}

int64_t Reducers::getWidestBytes() const {
  int64_t bytes = 1;
  for (Type t : accTypes)
    bytes = std::max(bytes, getElementBytes(t));
  return bytes;
}

LogicalResult Reducers::combine(OpBuilder &b, Location loc,
                                MutableArrayRef<Value> accs,
                                ValueRange values) const {
  unsigned at = 0;
  for (auto [h, reducer] : llvm::enumerate(computations)) {
    ComputationOp computation = reducer;
    SmallVector<Value> args(accs.slice(at, numAccs[h]));
    llvm::append_range(args, values.slice(at, numAccs[h]));
    FailureOr<SmallVector<Value>> r =
        emitScalarComputation(b, loc, computation.getBody(), args);
    if (failed(r))
      return failure();
    llvm::copy(*r, accs.begin() + at);
    at += numAccs[h];
  }
  return success();
}

LogicalResult Reducers::warpReduce(OpBuilder &b, Location loc, int64_t offset,
                                   MutableArrayRef<Value> accs) const {
  for (; offset >= 1; offset /= 2) {
    SmallVector<Value> other;
    for (Value acc : accs)
      other.push_back(shuffleXor(b, loc, acc, int32_t(offset)));
    if (failed(combine(b, loc, accs, other)))
      return failure();
  }
  return success();
}

LogicalResult Reducers::rowReduce(OpBuilder &b, Location loc,
                                  gpu::GPUFuncOp func, Value x, Value y,
                                  int64_t tx, int64_t ty,
                                  MutableArrayRef<Value> accs) const {
  const int64_t warp = 32;
  if (failed(warpReduce(b, loc, std::min(tx, warp) / 2, accs)))
    return failure();
  if (tx <= warp)
    return success();
  // One partial per warp of the row, through shared memory.
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  int64_t warps = tx / warp;
  auto space =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  SmallVector<Value> shared;
  for (Type t : accTypes)
    shared.push_back(func.addWorkgroupAttribution(
        MemRefType::get({ty, warps}, t, MemRefLayoutAttrInterface{}, space),
        loc));
  Value lane = arith::RemUIOp::create(b, loc, x, constant(warp));
  Value warpId = arith::DivUIOp::create(b, loc, x, constant(warp));
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                      constant(0));
  auto ifOp = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    for (auto [acc, array] : llvm::zip(accs, shared))
      memref::StoreOp::create(b, loc, acc, array, ValueRange{y, warpId});
  }
  gpu::BarrierOp::create(b, loc);
  Value slot = arith::RemUIOp::create(b, loc, lane, constant(warps));
  for (auto [acc, array] : llvm::zip(accs, shared))
    acc = memref::LoadOp::create(b, loc, array, ValueRange{y, slot});
  return warpReduce(b, loc, warps / 2, accs);
}

std::pair<int64_t, int64_t> mlir::hlo::getRowTiling(int64_t rowLength,
                                                    int64_t numRows) {
  const int64_t warp = 32;
  int64_t tx =
      rowLength < warp
          ? int64_t(llvm::PowerOf2Ceil(std::max<int64_t>(rowLength, 1)))
          // A power of two (the warps' partials combine by xor shuffles).
          : std::clamp<int64_t>(
                llvm::PowerOf2Ceil(llvm::divideCeil(rowLength, 16)), warp,
                1024);
  return {tx, std::clamp<int64_t>(256 / tx, 1, numRows)};
}
