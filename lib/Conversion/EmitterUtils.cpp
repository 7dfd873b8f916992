//===- EmitterUtils.cpp - shared parts of the fusion emitters -------------===//
//
// The kernel function and its buffer arguments, launch dimensions, index
// arithmetic between logical indices and physical offsets, output aliases.
//
//===----------------------------------------------------------------------===//

#include "EmitterUtils.h"

#include "Hlo/Conversion/ScalarLowering.h"

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
    func.setArgAttr(i, "llvm.align", b.getI64IntegerAttr(16));
  b.setInsertionPointToStart(&func.getBody().front());
  Operation *ret = gpu::ReturnOp::create(b, loc);
  b.setInsertionPoint(ret);
  return func;
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

void mlir::hlo::setOutputAliases(Operation *kernel, ArrayRef<int64_t> aliases) {
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
