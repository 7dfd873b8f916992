//===- KernelsToHost.cpp - hlo-gpu-kernels-to-host ------------------------===//
//
// A kernel with known launch dimensions becomes a host function that runs
// its body once per (block, thread): a `scf.for` loop over the grid's
// blocks around loops over the block's threads, the GPU index ops replaced
// by the loop variables. The loop over the blocks is a function of its own,
// `<kernel>.blocks`, taking the range of (linear) blocks to run after the
// kernel's arguments; the kernel's function calls it for the whole grid.
// Where the blocks are independent (several, no atomic updates) it is
// public, and the host runtime gives ranges of blocks to several threads.
//
// Threads that synchronize (gpu.barrier, gpu.shuffle, at the top level of the
// body, or in `scf.for` loops there, which every thread runs alike: they are
// unrolled first) split the body into phases: per block, each phase runs as its
// own loop nest over the block's threads, so every thread has finished one
// phase before any starts the next. Values that live across phases are kept in
// per-thread arrays; a shuffle reads its partner's slot of the array of its
// operand. Workgroup attributions are one buffer that the blocks reuse in
// turn (blocks run one after another), private attributions one per thread.
//
//===----------------------------------------------------------------------===//

#include "EmitterUtils.h"

#include "Hlo/Conversion/HostJit.h"
#include "Hlo/Conversion/Passes.h"

#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/FoldUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOGPUKERNELSTOHOST
#include "Hlo/Conversion/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

constexpr int64_t kSubgroupSize = 32;
/// The most trips of a loop with barriers or shuffles the host form
/// unrolls (a bitonic sort's masks: at most 78 a kernel).
constexpr uint64_t kMaxUnrolledTrips = 1024;

/// The GPU ops whose values the host form computes from the loop variables
/// and the launch dimensions (anywhere in the body).
bool isIndexOp(Operation *op) {
  return isa<gpu::BlockIdOp, gpu::ThreadIdOp, gpu::BlockDimOp, gpu::GridDimOp,
             gpu::GlobalIdOp, gpu::LaneIdOp, gpu::SubgroupIdOp,
             gpu::SubgroupSizeOp, gpu::NumSubgroupsOp>(op);
}

/// `type` without a `#gpu.address_space` (memrefs), else `type`.
Type stripAddressSpace(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref ||
      !isa_and_nonnull<gpu::AddressSpaceAttr>(memref.getMemorySpace()))
    return type;
  return MemRefType::get(memref.getShape(), memref.getElementType(),
                         memref.getLayout());
}

/// Whether values of `type` can be kept in a per-thread array.
bool isCarriable(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    type = vector.getElementType();
  if (auto complex = dyn_cast<ComplexType>(type))
    type = complex.getElementType();
  return isa<IntegerType, FloatType, IndexType>(type);
}

/// Whether `kernel` updates memory atomically: its blocks may then meet in
/// the same elements, and run one after another on the host (in the same
/// order every run, so float sums do not change from run to run).
bool usesAtomics(gpu::GPUFuncOp kernel) {
  return kernel
      .walk([](Operation *op) {
        return isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(op)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

class KernelToHost {
public:
  KernelToHost(gpu::GPUFuncOp kernel, OpBuilder &b)
      : kernel(kernel), body(kernel.getBody().front()), b(b),
        loc(kernel.getLoc()) {}

  /// Checks the kernel and splits it into phases; emits nothing.
  LogicalResult analyze();
  /// Builds the host function at the end of `module`.
  void emit(ModuleOp module);

private:
  LogicalResult unrollSynchronizingLoops();
  LogicalResult checkOps();
  void splitPhases();
  LogicalResult planCrossPhaseValue(Value value, unsigned phase,
                                    Operation *user);
  Value constant(int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  void emitPhase(unsigned phase, ArrayRef<Value> blockIds);
  Value importValue(Value value, IRMapping &map, Value linear);
  void emitShuffle(gpu::ShuffleOp shuffle, IRMapping &map, Value linear);
  void replaceIndexOps(Block *threadBody, ArrayRef<Value> blockIds,
                       ArrayRef<Value> threadIds, Value linear);

  gpu::GPUFuncOp kernel;
  Block &body;
  OpBuilder &b;
  Location loc;
  int64_t blockSize[3], gridSize[3], numThreads = 1;
  /// The body's ops (barriers dropped) by phase.
  SmallVector<SmallVector<Operation *>> phases;
  DenseMap<Operation *, unsigned> phaseOf;
  /// Values of top-level ops used in later phases that are kept in
  /// per-thread arrays (the others are recomputed: constants, index ops).
  llvm::SetVector<Value> carried;
  // The host function's buffers.
  DenseMap<Value, Value> carryArrays;
  SmallVector<Value> workgroupBuffers, privateBuffers;
  SmallVector<Value> funcArgs;
  Value zero, one;
};

/// Whether `op` holds a barrier or a shuffle.
bool synchronizes(Operation *op) {
  return op
      ->walk([](Operation *inner) {
        return isa<gpu::BarrierOp, gpu::ShuffleOp>(inner)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The loops at the top of the body that hold barriers or shuffles (which
/// every thread of a block runs the same number of times, as any loop around
/// them on a GPU must) are unrolled, so that their barriers and shuffles are
/// at the top level, where the body splits into phases. Their trip counts
/// must be constants. After each round what the unrolled trips compute from
/// their induction variables is folded to constants: the bounds of the
/// loops they held (unrolled in the next round) and the shuffles' offsets,
/// which the phases then recompute instead of keeping per thread.
LogicalResult KernelToHost::unrollSynchronizingLoops() {
  OperationFolder folder(kernel.getContext());
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation &op :
         llvm::make_early_inc_range(body.without_terminator())) {
      auto loop = dyn_cast<scf::ForOp>(op);
      if (!loop || !synchronizes(loop))
        continue;
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (!trips)
        return loop.emitError("hlo-gpu-kernels-to-host: a loop holding "
                              "barriers or shuffles needs a constant trip "
                              "count on the host");
      // Each trip becomes phases of its own: a bound on what that costs.
      if (trips->getZExtValue() > kMaxUnrolledTrips)
        return loop.emitError("hlo-gpu-kernels-to-host: a loop holding "
                              "barriers or shuffles runs ")
               << trips->getZExtValue() << " times, more than the "
               << kMaxUnrolledTrips << " the host form unrolls";
      if (failed(loopUnrollFull(loop)))
        return loop.emitError("hlo-gpu-kernels-to-host: the loop could not "
                              "be unrolled");
      changed = true;
    }
    if (changed)
      for (Operation &op :
           llvm::make_early_inc_range(body.without_terminator()))
        (void)folder.tryToFold(&op);
  }
  return success();
}

LogicalResult KernelToHost::checkOps() {
  WalkResult result = kernel.walk([&](Operation *op) {
    if (isa<gpu::BarrierOp, gpu::ShuffleOp>(op) &&
        op->getParentOp() != kernel) {
      op->emitError("hlo-gpu-kernels-to-host: '")
          << op->getName() << "' inside '" << op->getParentOp()->getName()
          << "': barriers and shuffles must be at the top level of the "
             "kernel body or in loops there (every thread of a block "
             "executes each of them)";
      return WalkResult::interrupt();
    }
    if (op != kernel.getOperation() &&
        isa_and_nonnull<gpu::GPUDialect>(op->getDialect()) && !isIndexOp(op) &&
        !isa<gpu::BarrierOp, gpu::ShuffleOp, gpu::ReturnOp>(op)) {
      op->emitError("hlo-gpu-kernels-to-host: '")
          << op->getName() << "' is not supported on the host";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void KernelToHost::splitPhases() {
  phases.emplace_back();
  for (Operation &op : body.without_terminator()) {
    if (isa<gpu::BarrierOp>(op)) {
      if (!phases.back().empty())
        phases.emplace_back();
      continue;
    }
    // A shuffle needs the values of all threads: a new phase when its
    // operand is computed in this one.
    if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op)) {
      Operation *def = shuffle.getValue().getDefiningOp();
      if (def && def->getBlock() == &body &&
          phaseOf.lookup(def) == phases.size() - 1 &&
          !def->hasTrait<OpTrait::ConstantLike>() && !phases.back().empty())
        phases.emplace_back();
    }
    phaseOf[&op] = phases.size() - 1;
    phases.back().push_back(&op);
  }
  if (phases.size() > 1 && phases.back().empty())
    phases.pop_back();
}

/// Decides how `value`, used in `phase` (by `user`), gets there.
LogicalResult KernelToHost::planCrossPhaseValue(Value value, unsigned phase,
                                                Operation *user) {
  Operation *def = value.getDefiningOp();
  // Arguments, attributions and values of the same region need nothing.
  if (!def || def->getBlock() != &body || phaseOf.lookup(def) == phase)
    return success();
  if (isa<gpu::ShuffleOp>(user) &&
      value == cast<gpu::ShuffleOp>(user).getValue() &&
      !def->hasTrait<OpTrait::ConstantLike>()) {
    carried.insert(value);
    return success();
  }
  // Recomputed where used.
  if (def->hasTrait<OpTrait::ConstantLike>() || isIndexOp(def))
    return success();
  if (isCarriable(value.getType())) {
    carried.insert(value);
    return success();
  }
  // Side-effect-free ops on values that cannot be kept in an array
  // (memref.get_global, views) are recomputed from their operands.
  if (isPure(def) && def->getNumRegions() == 0) {
    for (Value operand : def->getOperands())
      if (failed(planCrossPhaseValue(operand, phase, user)))
        return failure();
    return success();
  }
  return user->emitError("hlo-gpu-kernels-to-host: a value of type ")
         << value.getType() << " from '" << def->getName()
         << "' is used across a barrier or shuffle";
}

LogicalResult KernelToHost::analyze() {
  std::optional<ArrayRef<int32_t>> block = kernel.getKnownBlockSize();
  std::optional<ArrayRef<int32_t>> grid = kernel.getKnownGridSize();
  if (!block || !grid)
    return kernel.emitError("hlo-gpu-kernels-to-host: the kernel has no "
                            "known_block_size and known_grid_size");
  if (!kernel.getBody().hasOneBlock())
    return kernel.emitError("hlo-gpu-kernels-to-host: only single-block "
                            "kernels are supported");
  for (int d = 0; d < 3; ++d) {
    blockSize[d] = (*block)[d];
    gridSize[d] = (*grid)[d];
    numThreads *= blockSize[d];
  }
  if (failed(unrollSynchronizingLoops()) || failed(checkOps()))
    return failure();
  splitPhases();
  for (auto [index, ops] : llvm::enumerate(phases)) {
    for (Operation *op : ops) {
      WalkResult result = op->walk([&](Operation *user) {
        for (Value operand : user->getOperands())
          if (failed(planCrossPhaseValue(operand, index, user)))
            return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (result.wasInterrupted())
        return failure();
    }
  }
  // A private attribution is one buffer per thread when threads take turns:
  // a row of an array, which only loads and stores take.
  if (phases.size() > 1) {
    for (BlockArgument arg : kernel.getPrivateAttributions())
      for (Operation *user : arg.getUsers())
        if (!isa<memref::LoadOp, memref::StoreOp, memref::AtomicRMWOp>(user))
          return user->emitError("hlo-gpu-kernels-to-host: a private "
                                 "attribution of a kernel with barriers or "
                                 "shuffles may only be loaded and stored");
  }
  return success();
}

/// The value of `value` (of an earlier phase) in the phase being emitted.
Value KernelToHost::importValue(Value value, IRMapping &map, Value linear) {
  if (Value mapped = map.lookupOrNull(value))
    return mapped;
  Value result;
  if (Value array = carryArrays.lookup(value)) {
    result = memref::LoadOp::create(b, loc, array, linear);
  } else {
    // Recomputed (constants, index ops, pure ops on such values).
    Operation *def = value.getDefiningOp();
    for (Value operand : def->getOperands())
      importValue(operand, map, linear);
    result =
        b.clone(*def, map)->getResult(cast<OpResult>(value).getResultNumber());
  }
  map.map(value, result);
  return result;
}

/// gpu.shuffle as NVVM lowers it (convert-gpu-to-nvvm): shfl.sync with
/// member mask (2^width - 1), clamp width - 1 (up: 32 - width) and segment
/// mask 0. For lane l, offset o and clamp c (both modulo 32) the source lane
/// j and `valid` are
///   xor: j = l ^ o,  valid = j <= c      down: j = l + o, valid = j <= c
///   up:  j = l - o,  valid = j >= c      idx:  j = o,     valid = j <= c
/// and an invalid j reads the thread's own value. A source beyond the
/// block's threads is invalid too (the hardware reads an undefined value).
void KernelToHost::emitShuffle(gpu::ShuffleOp shuffle, IRMapping &map,
                               Value linear) {
  Type i32 = b.getI32Type();
  auto i32Constant = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, i32, v);
  };
  Value own = map.lookup(shuffle.getValue());
  Value offset = map.lookup(shuffle.getOffset());
  Value width = map.lookup(shuffle.getWidth());
  Value laneIndex =
      arith::RemUIOp::create(b, loc, linear, constant(kSubgroupSize));
  Value warpBase = arith::SubIOp::create(b, loc, linear, laneIndex);
  Value lane = arith::IndexCastOp::create(b, loc, i32, laneIndex);
  Value mask = i32Constant(kSubgroupSize - 1);
  Value bval = arith::AndIOp::create(b, loc, offset, mask);
  Value clamp;
  if (shuffle.getMode() == gpu::ShuffleMode::UP)
    clamp = arith::SubIOp::create(b, loc, i32Constant(kSubgroupSize), width);
  else
    clamp = arith::SubIOp::create(b, loc, width, i32Constant(1));
  clamp = arith::AndIOp::create(b, loc, clamp, mask);
  Value source, valid;
  switch (shuffle.getMode()) {
  case gpu::ShuffleMode::XOR:
    source = arith::XOrIOp::create(b, loc, lane, bval);
    break;
  case gpu::ShuffleMode::DOWN:
    source = arith::AddIOp::create(b, loc, lane, bval);
    break;
  case gpu::ShuffleMode::UP:
    source = arith::SubIOp::create(b, loc, lane, bval);
    break;
  case gpu::ShuffleMode::IDX:
    source = bval;
    break;
  }
  valid = arith::CmpIOp::create(b, loc,
                                shuffle.getMode() == gpu::ShuffleMode::UP
                                    ? arith::CmpIPredicate::sge
                                    : arith::CmpIPredicate::sle,
                                source, clamp);
  Value partner = arith::AddIOp::create(
      b, loc, warpBase,
      arith::IndexCastOp::create(b, loc, b.getIndexType(), source));
  Value inBlock = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        partner, constant(numThreads));
  valid = arith::AndIOp::create(b, loc, valid, inBlock);
  Value result = own;
  if (Value array = carryArrays.lookup(shuffle.getValue())) {
    Value slot = arith::SelectOp::create(b, loc, valid, partner, linear);
    result = memref::LoadOp::create(b, loc, array, slot);
  }
  map.map(shuffle.getShuffleResult(), result);
  map.map(shuffle.getValid(), valid);
}

void KernelToHost::replaceIndexOps(Block *threadBody, ArrayRef<Value> blockIds,
                                   ArrayRef<Value> threadIds, Value linear) {
  SmallVector<Operation *> indexOps;
  threadBody->walk([&](Operation *op) {
    if (isIndexOp(op))
      indexOps.push_back(op);
  });
  for (Operation *op : indexOps) {
    b.setInsertionPoint(op);
    auto dim = [](auto op) { return unsigned(op.getDimension()); };
    Value value =
        TypeSwitch<Operation *, Value>(op)
            .Case([&](gpu::BlockIdOp id) { return blockIds[dim(id)]; })
            .Case([&](gpu::ThreadIdOp id) { return threadIds[dim(id)]; })
            .Case(
                [&](gpu::BlockDimOp d) { return constant(blockSize[dim(d)]); })
            .Case([&](gpu::GridDimOp d) { return constant(gridSize[dim(d)]); })
            .Case([&](gpu::GlobalIdOp id) -> Value {
              Value base = arith::MulIOp::create(b, loc, blockIds[dim(id)],
                                                 constant(blockSize[dim(id)]));
              return arith::AddIOp::create(b, loc, base, threadIds[dim(id)]);
            })
            .Case([&](gpu::LaneIdOp) -> Value {
              return arith::RemUIOp::create(b, loc, linear,
                                            constant(kSubgroupSize));
            })
            .Case([&](gpu::SubgroupIdOp) -> Value {
              return arith::DivUIOp::create(b, loc, linear,
                                            constant(kSubgroupSize));
            })
            .Case([&](gpu::SubgroupSizeOp) { return constant(kSubgroupSize); })
            .Case([&](gpu::NumSubgroupsOp) {
              return constant(llvm::divideCeil(numThreads, kSubgroupSize));
            })
            .Default([](Operation *) { return Value(); });
    op->getResult(0).replaceAllUsesWith(value);
    op->erase();
  }
}

void KernelToHost::emitPhase(unsigned phase, ArrayRef<Value> blockIds) {
  Value threadIds[3];
  for (int d = 2; d >= 0; --d) {
    auto loop = scf::ForOp::create(b, loc, zero, constant(blockSize[d]), one);
    b.setInsertionPointToStart(loop.getBody());
    threadIds[d] = loop.getInductionVar();
  }
  Block *threadBody = b.getInsertionBlock();
  // The linear thread id x + bx * (y + by * z) (erased when unused).
  Value by = constant(blockSize[1]);
  Value z = arith::MulIOp::create(b, loc, by, threadIds[2]);
  Value yz = arith::AddIOp::create(b, loc, threadIds[1], z);
  Value bx = constant(blockSize[0]);
  Value yzx = arith::MulIOp::create(b, loc, bx, yz);
  Value linear = arith::AddIOp::create(b, loc, threadIds[0], yzx);

  IRMapping map;
  for (auto [from, to] : llvm::zip_equal(
           kernel.getArguments().take_front(kernel.getNumArguments()),
           funcArgs))
    map.map(from, to);
  for (auto [from, to] :
       llvm::zip(kernel.getWorkgroupAttributions(), workgroupBuffers))
    map.map(from, to);
  // Private attributions: with several phases, their accesses get the
  // thread's row of a per-thread array (below).
  for (auto [from, array] :
       llvm::zip(kernel.getPrivateAttributions(), privateBuffers))
    map.map(from, array);

  // Values of earlier phases, then the phase's ops.
  for (Operation *op : phases[phase])
    op->walk([&](Operation *user) {
      for (Value operand : user->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (def && def->getBlock() == &body && phaseOf.lookup(def) != phase)
          importValue(operand, map, linear);
      }
    });
  for (Operation *op : phases[phase]) {
    if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op))
      emitShuffle(shuffle, map, linear);
    else
      b.clone(*op, map);
  }
  // Values later phases use.
  for (Operation *op : phases[phase])
    for (Value result : op->getResults())
      if (Value array = carryArrays.lookup(result))
        memref::StoreOp::create(b, loc, map.lookup(result), array,
                                ValueRange{linear});

  if (phases.size() > 1 && !privateBuffers.empty()) {
    DenseSet<Value> arrays(llvm::from_range, privateBuffers);
    threadBody->walk([&](Operation *op) {
      if (auto load = dyn_cast<memref::LoadOp>(op);
          load && arrays.contains(load.getMemRef()))
        op->insertOperands(1, linear);
      else if (auto store = dyn_cast<memref::StoreOp>(op);
               store && arrays.contains(store.getMemRef()))
        op->insertOperands(2, linear);
      else if (auto rmw = dyn_cast<memref::AtomicRMWOp>(op);
               rmw && arrays.contains(rmw.getMemref()))
        op->insertOperands(2, linear);
    });
  }
  replaceIndexOps(threadBody, blockIds, threadIds, linear);
  if (linear.use_empty())
    for (Value v : {linear, yzx, bx, yz, z, by})
      v.getDefiningOp()->erase();
}

void KernelToHost::emit(ModuleOp module) {
  b.setInsertionPointToEnd(module.getBody());
  SmallVector<Type> argTypes;
  for (Type type : kernel.getArgumentTypes())
    argTypes.push_back(stripAddressSpace(type));
  int64_t numBlocks = gridSize[0] * gridSize[1] * gridSize[2];

  // The kernel's function runs every block through its blocks function.
  SmallVector<Type> blocksArgTypes(argTypes);
  blocksArgTypes.append(2, b.getIndexType());
  auto func = func::FuncOp::create(b, loc, kernel.getName(),
                                   b.getFunctionType(argTypes, {}));
  auto blocksFunc =
      func::FuncOp::create(b, loc, (kernel.getName() + kHostBlocksSuffix).str(),
                           b.getFunctionType(blocksArgTypes, {}));
  // Public (called by the runtime with ranges of blocks) where the blocks
  // are independent (HostRuntime.cpp).
  if (numBlocks < 2 || usesAtomics(kernel))
    blocksFunc.setPrivate();
  else
    // Compiled once, not also inlined into the kernel's function.
    blocksFunc->setAttr("passthrough",
                        b.getArrayAttr({b.getStringAttr("noinline")}));
  // The outputs that alias operands (EmitterUtils.h) stay known.
  if (Attribute aliases = kernel->getAttr(kOutputAliasesAttrName))
    func->setAttr(kOutputAliasesAttrName, aliases);
  // So do the kernels launched after it (a sort's; the same names).
  if (Attribute then = kernel->getAttr(kThenKernelsAttrName))
    func->setAttr(kThenKernelsAttrName, then);
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  SmallVector<Value> callArgs(entry->getArguments());
  callArgs.push_back(arith::ConstantIndexOp::create(b, loc, 0));
  callArgs.push_back(arith::ConstantIndexOp::create(b, loc, numBlocks));
  func::CallOp::create(b, loc, blocksFunc, callArgs);
  func::ReturnOp::create(b, loc);

  entry = blocksFunc.addEntryBlock();
  funcArgs.assign(entry->args_begin(), entry->args_end() - 2);
  Value firstBlock = entry->getArgument(argTypes.size()),
        endBlock = entry->getArgument(argTypes.size() + 1);
  b.setInsertionPointToStart(entry);

  // Buffers, once for all blocks (which run one after another).
  for (BlockArgument arg : kernel.getWorkgroupAttributions())
    workgroupBuffers.push_back(memref::AllocaOp::create(
        b, loc, cast<MemRefType>(stripAddressSpace(arg.getType()))));
  for (BlockArgument arg : kernel.getPrivateAttributions()) {
    auto type = cast<MemRefType>(stripAddressSpace(arg.getType()));
    if (phases.size() > 1) {
      SmallVector<int64_t> shape{numThreads};
      llvm::append_range(shape, type.getShape());
      type = MemRefType::get(shape, type.getElementType());
    }
    privateBuffers.push_back(memref::AllocaOp::create(b, loc, type));
  }
  for (Value value : carried)
    carryArrays[value] = memref::AllocaOp::create(
        b, loc, MemRefType::get({numThreads}, value.getType()));

  // A loop over the blocks [firstBlock, endBlock) of the grid (numbered x
  // fastest, z slowest); then a loop nest over the block's threads per
  // phase.
  zero = constant(0);
  one = constant(1);
  auto loop = scf::ForOp::create(b, loc, firstBlock, endBlock, one);
  b.setInsertionPointToStart(loop.getBody());
  Value linearBlock = loop.getInductionVar();
  Value blockIds[3] = {linearBlock, zero, zero};
  if (gridSize[1] * gridSize[2] > 1) {
    Value gx = constant(gridSize[0]), gy = constant(gridSize[1]);
    Value yz = arith::DivUIOp::create(b, loc, linearBlock, gx);
    blockIds[0] = arith::RemUIOp::create(b, loc, linearBlock, gx);
    blockIds[1] = arith::RemUIOp::create(b, loc, yz, gy);
    blockIds[2] = arith::DivUIOp::create(b, loc, yz, gy);
  }
  Block *blockBody = b.getInsertionBlock();
  for (unsigned phase = 0; phase < phases.size(); ++phase) {
    b.setInsertionPoint(blockBody->getTerminator());
    emitPhase(phase, blockIds);
  }
  b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(b, loc);

  // Memrefs in GPU address spaces (views of attributions, allocas in the
  // private space) are plain memrefs on the host.
  blocksFunc.walk([](Operation *op) {
    for (Value result : op->getResults())
      result.setType(stripAddressSpace(result.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(stripAddressSpace(arg.getType()));
  });
}

struct GpuKernelsToHostPass
    : hlo::impl::HloGpuKernelsToHostBase<GpuKernelsToHostPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(module.getContext());
    for (auto gpuModule :
         llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>())) {
      for (auto kernel :
           llvm::make_early_inc_range(gpuModule.getOps<gpu::GPUFuncOp>())) {
        if (!kernel.isKernel())
          continue;
        KernelToHost converter(kernel, b);
        if (failed(converter.analyze()))
          return signalPassFailure();
        converter.emit(module);
        kernel.erase();
      }
      // Globals (array constants) move to the top module.
      for (Operation &op :
           llvm::make_early_inc_range(gpuModule.getBody()->getOperations()))
        if (isa<memref::GlobalOp>(op))
          op.moveBefore(module.getBody(), module.getBody()->end());
      if (gpuModule.getBody()->empty())
        gpuModule.erase();
    }
    // Fusions name their kernel's host function now.
    SymbolTable table(module);
    module.walk([&](Operation *op) {
      auto ref = op->getAttrOfType<SymbolRefAttr>("hlo.kernel");
      if (ref && ref.getNestedReferences().size() == 1 &&
          table.lookup<func::FuncOp>(ref.getLeafReference()))
        op->setAttr("hlo.kernel",
                    FlatSymbolRefAttr::get(ref.getLeafReference()));
    });
    if (module.getOps<gpu::GPUModuleOp>().empty())
      module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
  }
};

} // namespace
