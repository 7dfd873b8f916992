//===- InputSlicesEmitter.cpp - input-slices fusions to kernels -----------===//
//
// XLA's input-slices emitter, for the fusions horizontal fusion makes: every
// output is an unstrided slice of a value of one shape (usually one
// concatenate). One thread per element of that shape, in its physical
// order: the thread generates the sliced values' elements at its index and
// stores each into every output whose slice holds the index.
//
//===----------------------------------------------------------------------===//

#include "EmitterUtils.h"

#include "Hlo/Conversion/ScalarLowering.h"

using namespace mlir;
using namespace mlir::hlo;

FailureOr<gpu::GPUFuncOp>
mlir::hlo::emitInputSlicesKernel(Operation *op, gpu::GPUModuleOp module,
                                 StringRef name, SymbolTable &symbols,
                                 const KernelOptions &options) {
  auto fusion = cast<FusionOp>(op);
  auto fused = symbols.lookup<ComputationOp>(fusion.getCalls());
  SmallVector<Value> roots = getFusionRoots(fused);
  SmallVector<SliceOp> slices;
  SmallVector<Type> outputs;
  for (Value r : roots) {
    auto slice = r.getDefiningOp<SliceOp>();
    if (!slice)
      return op->emitError("input-slices emitter: an output is not a slice");
    slices.push_back(slice);
    outputs.push_back(slice.getType());
  }
  // The iteration space: the first slice's operand, in its layout's order.
  auto input = cast<RankedTensorType>(slices.front().getOperand().getType());
  int64_t elements = input.getNumElements();
  // XLA unrolls only outputs narrower than a byte (two s4 per thread).
  int64_t narrowest = 64;
  for (Type t : outputs) {
    Type scalar = getScalarType(cast<RankedTensorType>(t).getElementType());
    int64_t bits =
        isa<ComplexType>(scalar) ? 64 : scalar.getIntOrFloatBitWidth();
    narrowest = std::min(narrowest, std::max<int64_t>(bits, 1));
  }
  int64_t unroll = llvm::divideCeil(8, narrowest);
  if (options.unroll > 0)
    unroll = options.unroll;
  while (unroll > 1 && elements % unroll != 0)
    unroll /= 2;
  int64_t work = elements / unroll;
  auto [threads, blocks] = getLaunchDims(work, options.threadsPerBlock);

  OpBuilder b(op->getContext());
  gpu::GPUFuncOp func =
      createKernel(b, op, module, name, outputs, {int32_t(threads), 1, 1},
                   {int32_t(blocks), 1, 1});
  Location loc = func.getLoc();
  ValueRange args = func.getBody().front().getArguments();
  size_t numOperands = fusion.getDataOperands().size();
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value thread = emitGuardedThreadIndex(b, loc, threads, work);
  ElementGenerator gen(b, loc, symbols, module, args.take_front(numOperands));
  Value first = arith::MulIOp::create(b, loc, thread, constant(unroll));
  for (int64_t u = 0; u < unroll; ++u) {
    Value linear =
        u ? arith::AddIOp::create(b, loc, first, constant(u)).getResult()
          : first;
    SmallVector<Value> index = emitLogicalIndex(b, loc, linear, input);
    gen.setRoot(index, linear, input);
    // Each sliced value's element once (slices of one value share it); every
    // index is inside the input, so no read leaves its buffer.
    SmallVector<Value> elementsOf;
    for (SliceOp slice : slices) {
      FailureOr<Value> v = gen.emitOne(slice.getOperand(), index);
      if (failed(v)) {
        func.erase();
        return failure();
      }
      elementsOf.push_back(*v);
    }
    for (auto [k, slice] : llvm::enumerate(slices)) {
      SliceAttr bounds = slice.getSlice();
      auto outType = cast<RankedTensorType>(outputs[k]);
      Value inside;
      SmallVector<Value> outIndex;
      for (auto [d, i] : llvm::enumerate(index)) {
        int64_t start = bounds.getStarts()[d], limit = bounds.getLimits()[d];
        auto require = [&](arith::CmpIPredicate pred, int64_t bound) {
          Value c = arith::CmpIOp::create(b, loc, pred, i, constant(bound));
          inside =
              inside ? arith::AndIOp::create(b, loc, inside, c).getResult() : c;
        };
        if (start > 0)
          require(arith::CmpIPredicate::uge, start);
        if (limit < input.getDimSize(d))
          require(arith::CmpIPredicate::ult, limit);
        outIndex.push_back(
            start
                ? arith::SubIOp::create(b, loc, i, constant(start)).getResult()
                : i);
      }
      OpBuilder::InsertionGuard guard(b);
      if (inside) {
        auto ifOp = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      }
      Value offset = emitPhysicalOffset(b, loc, outIndex, outType);
      memref::StoreOp::create(b, loc, elementsOf[k], args[numOperands + k],
                              ValueRange{offset});
    }
  }
  return func;
}
