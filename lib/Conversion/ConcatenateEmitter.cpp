//===- ConcatenateEmitter.cpp - concatenate fusions to kernels ------------===//
//
// XLA's concatenate emitter: a loop fusion whose root is a concatenate
// (after elementwise unary ops) runs one thread per element of the
// concatenate's largest operand (along the concatenated dimension). For each
// operand in turn the thread generates the operand's element at its index
// (where the operand is that long), applies the ops between the concatenate
// and the root, and stores the result at the index shifted by the operand's
// offset: no thread chooses among all operands per element as the loop
// emitter does.
//
//===----------------------------------------------------------------------===//

#include "EmitterUtils.h"

#include "Hlo/Conversion/ScalarLowering.h"

#include <numeric>

using namespace mlir;
using namespace mlir::hlo;

ConcatenateOp mlir::hlo::getConcatenateHero(Value root) {
  Operation *op = root.getDefiningOp();
  // Elementwise unary ops between the concatenate and the root (XLA's
  // intermediate instructions; a copy only when it keeps the layout).
  while (op && !isa<ConcatenateOp>(op)) {
    if (!indexing::isElementwise(op) || isa<TupleOp>(op) ||
        getDataOperands(op).size() != 1 ||
        (isa<CopyOp>(op) &&
         op->getResult(0).getType() != getDataOperands(op)[0].getType()))
      return nullptr;
    op = getDataOperands(op)[0].getDefiningOp();
  }
  return dyn_cast_or_null<ConcatenateOp>(op);
}

FailureOr<gpu::GPUFuncOp>
mlir::hlo::emitConcatenateKernel(Operation *op, gpu::GPUModuleOp module,
                                 StringRef name, SymbolTable &symbols,
                                 const KernelOptions &options) {
  auto fusion = cast<FusionOp>(op);
  auto fused = symbols.lookup<ComputationOp>(fusion.getCalls());
  SmallVector<Value> roots = getFusionRoots(fused);
  ConcatenateOp concat =
      roots.size() == 1 ? getConcatenateHero(roots.front()) : nullptr;
  if (!concat)
    return op->emitError("concatenate emitter: the root is not a "
                         "concatenate");
  auto outType = cast<RankedTensorType>(roots.front().getType());
  // The elementwise ops from the concatenate to the root, in order.
  SmallVector<Operation *> epilogue;
  for (Operation *e = roots.front().getDefiningOp(); e != concat;
       e = getDataOperands(e)[0].getDefiningOp())
    epilogue.insert(epilogue.begin(), e);

  int64_t dim = concat.getDimensions()[0];
  auto operandTypes =
      llvm::map_to_vector(concat->getOperandTypes(),
                          [](Type t) { return cast<RankedTensorType>(t); });
  RankedTensorType largest = *llvm::max_element(
      operandTypes, [&](RankedTensorType a, RankedTensorType b) {
        return a.getDimSize(dim) < b.getDimSize(dim);
      });
  // The iteration space: the largest operand's shape in the output's
  // physical order (consecutive threads write consecutive addresses).
  auto space = RankedTensorType::get(
      largest.getShape(), outType.getElementType(), outType.getEncoding());
  int64_t elements = space.getNumElements();
  // XLA's loop fusion config: one element per thread unless the fusion
  // has more elements than the GPU has threads (H100: 132 SMs of 2048
  // threads), then the loop emitter's unroll (16 bytes over the output
  // element); then a divisor of every operand's length along the
  // concatenated dimension (XLA's), so that a thread's elements belong to
  // one operand when that dimension is the most minor.
  int64_t unroll =
      getLoopUnrollFactor(elements, getElementBytes(outType.getElementType()));
  if (options.unroll > 0)
    unroll = options.unroll;
  for (RankedTensorType t : operandTypes)
    unroll = std::gcd(unroll, t.getDimSize(dim));
  while (unroll > 1 && elements % unroll != 0)
    unroll /= 2;
  unroll = std::max<int64_t>(unroll, 1);
  int64_t work = elements / unroll;
  auto [threads, blocks] = getLaunchDims(work, options.threadsPerBlock);
  // A thread's elements share their index along `dim` when the dimensions
  // more minor than it hold a multiple of `unroll` elements; when `dim` is
  // the most minor they lie in one operand since `unroll` divides every
  // operand's length. Then one test per operand covers them all.
  int64_t minorElements = 1;
  for (int64_t d : getMinorToMajor(space)) {
    if (d == dim)
      break;
    minorElements *= space.getDimSize(d);
  }
  bool uniform = minorElements % unroll == 0 || minorElements == 1;

  OpBuilder b(op->getContext());
  gpu::GPUFuncOp func =
      createKernel(b, op, module, name, TypeRange{outType},
                   {int32_t(threads), 1, 1}, {int32_t(blocks), 1, 1});
  Location loc = func.getLoc();
  ValueRange args = func.getBody().front().getArguments();
  size_t numOperands = fusion.getDataOperands().size();
  Value out = args[numOperands];
  auto constant = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value thread = emitGuardedThreadIndex(b, loc, threads, work);
  ElementGenerator gen(b, loc, symbols, module, args.take_front(numOperands));
  Value first = arith::MulIOp::create(b, loc, thread, constant(unroll));
  SmallVector<SmallVector<Value>> indices;
  for (int64_t u = 0; u < unroll; ++u) {
    Value linear =
        u ? arith::AddIOp::create(b, loc, first, constant(u)).getResult()
          : first;
    indices.push_back(emitLogicalIndex(b, loc, linear, space));
  }

  // Generates operand `k`'s element at `index` through the epilogue and
  // returns it with its output offset.
  int64_t offset = 0;
  auto emitElement =
      [&](Value operand,
          ValueRange index) -> FailureOr<std::pair<Value, Value>> {
    FailureOr<Value> v = gen.emitOne(operand, index);
    if (failed(v))
      return failure();
    Value value = *v;
    for (Operation *e : epilogue) {
      FailureOr<SmallVector<Value>> r = emitScalarOp(b, loc, e, {value});
      if (failed(r))
        return failure();
      value = r->front();
    }
    SmallVector<Value> outIndex(index.begin(), index.end());
    if (offset)
      outIndex[dim] =
          arith::AddIOp::create(b, loc, index[dim], constant(offset));
    return std::make_pair(value, emitPhysicalOffset(b, loc, outIndex, outType));
  };
  for (auto [operand, type] : llvm::zip(concat->getOperands(), operandTypes)) {
    int64_t length = type.getDimSize(dim);
    bool guarded = length < space.getDimSize(dim);
    auto guard = [&](ValueRange index) -> scf::IfOp {
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           index[dim], constant(length));
      auto ifOp = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      return ifOp;
    };
    LogicalResult ok = gen.inScope([&]() -> LogicalResult {
      OpBuilder::InsertionGuard ig(b);
      if (!guarded || uniform) {
        // All elements computed before any is stored, so that LLVM may
        // merge the accesses.
        if (guarded)
          guard(indices.front());
        SmallVector<std::pair<Value, Value>> stores;
        for (ValueRange index : indices) {
          FailureOr<std::pair<Value, Value>> e = emitElement(operand, index);
          if (failed(e))
            return failure();
          stores.push_back(*e);
        }
        for (auto [value, at] : stores)
          memref::StoreOp::create(b, loc, value, out, ValueRange{at});
        return success();
      }
      for (ValueRange index : indices) {
        OpBuilder::InsertionGuard inner(b);
        guard(index);
        FailureOr<std::pair<Value, Value>> e =
            gen.inScope([&] { return emitElement(operand, index); });
        if (failed(e))
          return failure();
        memref::StoreOp::create(b, loc, e->first, out, ValueRange{e->second});
      }
      return success();
    });
    if (failed(ok)) {
      func.erase();
      return failure();
    }
    offset += length;
  }
  return func;
}
