//===- SortEmitter.cpp - sorts to bitonic sort kernels --------------------===//
//
// XLA's sort emitter: a sort (wrapped into a fusion of its own by
// hlo-fusion-wrapper) is a bitonic sorting network along its dimension, run
// as a sequence of kernels. Stage s of the network compares element i with
// i ^ mask for the masks 2^(s+1) - 1, 2^(s-1), ..., 2, 1, and swaps the two
// where the comparator says the later one goes first. Consecutive masks
// below the tile size only compare elements of one tile: one kernel loads
// each tile into shared memory, runs all of those masks with a barrier
// between them, and stores the tile back. A mask at or above the tile size
// is a kernel of its own that compares pairs in global memory. The first
// kernel is always a tiled one: it reads the sort's operands (through the
// element generator, so an iota fused into the sort costs no buffer) and
// writes the outputs, which every later kernel sorts in place. A tiled
// kernel runs its masks in loops over the stages and their levels (the mask
// computed from both), so that the comparator is emitted once a kernel.
//
//===----------------------------------------------------------------------===//

#include "EmitterUtils.h"

#include "Hlo/Conversion/ScalarLowering.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// XLA's limits for an H100: threads per block, static shared memory per
/// block, and the elements each thread of a tiled kernel loads.
constexpr int64_t kMaxThreadsPerBlock = 1024;
constexpr int64_t kSharedMemoryPerBlock = 48 * 1024;
constexpr int64_t kUnroll = 4;
/// Threads per block of a kernel for one mask (XLA's loop launch).
constexpr int64_t kUntiledThreadsPerBlock = 128;

/// The masks of a tiled kernel: those of the stages [firstStage, endStage),
/// each from level `top` (the stage itself where negative) down to 0. Level
/// m of stage s has the mask 2^(s+1) - 1 where m = s, else 2^m; its pairs
/// are blocks of 2^m elements and the next block.
struct TiledMasks {
  int64_t firstStage = 0, endStage = 0, top = -1;
};

struct SortInfo {
  SortOp sort;
  ComputationOp comparator;
  RankedTensorType type; // the keys' (every operand's shape and layout)
  int64_t dim = 0, size = 1, rows = 1, numStages = 0, tile = 1;
};

FailureOr<SortInfo> analyzeSort(Operation *op, SymbolTable &symbols,
                                std::string &reason) {
  auto fusion = dyn_cast<FusionOp>(op);
  auto fused =
      fusion ? symbols.lookup<ComputationOp>(fusion.getCalls()) : nullptr;
  if (!fused || fused.getBody().empty()) {
    reason = "not a fusion with a fused computation";
    return failure();
  }
  SmallVector<Value> roots = getFusionRoots(fused);
  SortInfo info;
  Value root = fused.getRootValue();
  info.sort = root.getDefiningOp<SortOp>();
  if (!info.sort) {
    // A variadic sort's outputs: get-tuple-element k of the sort, in order.
    for (auto [k, r] : llvm::enumerate(roots)) {
      auto gte = r.getDefiningOp<GetTupleElementOp>();
      auto sort =
          gte ? getDataOperands(gte)[0].getDefiningOp<SortOp>() : SortOp();
      if (!sort || gte.getIndex() != k || (info.sort && sort != info.sort)) {
        reason = "the outputs are not a sort's results in order";
        return failure();
      }
      info.sort = sort;
    }
    if (!info.sort || roots.size() != info.sort.getInputs().size()) {
      reason = "the outputs are not all of a sort's results";
      return failure();
    }
  }
  info.comparator = symbols.lookup<ComputationOp>(info.sort.getToApply());
  if (!info.comparator || info.comparator.getBody().empty()) {
    reason = "the sort's comparator is missing";
    return failure();
  }
  ValueRange inputs = info.sort.getInputs();
  info.type = dyn_cast<RankedTensorType>(inputs[0].getType());
  if (!info.type || !info.type.hasStaticShape() ||
      info.sort.getDimensions().size() != 1) {
    reason = "the sort's keys are not a static array sorted along one "
             "dimension";
    return failure();
  }
  int64_t totalBytes = 0;
  for (Value v : inputs) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t || !sameShapeAndLayout(t, info.type) ||
        !getScalarType(t.getElementType()).isIntOrFloat()) {
      reason = "the sort's operands differ in shape or layout, or are not "
               "integers or floats";
      return failure();
    }
    totalBytes += getElementBytes(t.getElementType());
  }
  // The outputs' types: the roots', or the elements of a variadic sort's
  // tuple at the root (XLA's optimized dumps hold such fusions).
  SmallVector<Type> outputTypes;
  for (Value r : roots)
    if (auto tuple = dyn_cast<TupleType>(r.getType()))
      llvm::append_range(outputTypes, tuple.getTypes());
    else
      outputTypes.push_back(r.getType());
  for (Type t : outputTypes) {
    auto array = dyn_cast<RankedTensorType>(t);
    if (!array || !sameShapeAndLayout(array, info.type)) {
      reason = "an output's layout differs from the keys'";
      return failure();
    }
  }
  info.dim = info.sort.getDimensions()[0];
  info.size = info.type.getDimSize(info.dim);
  if (info.type.getNumElements() == 0) {
    reason = "the sort has no elements";
    return failure();
  }
  info.rows = info.type.getNumElements() / info.size;
  info.numStages = llvm::Log2_64_Ceil(info.size);
  // XLA's tile: a power of two that fits the threads of a block (kUnroll
  // elements each) and the shared memory, and no larger than the padded
  // dimension.
  int64_t tile = std::min({kMaxThreadsPerBlock * kUnroll,
                           kSharedMemoryPerBlock / totalBytes,
                           int64_t(1) << info.numStages});
  info.tile = int64_t(1) << llvm::Log2_64(std::max<int64_t>(tile, 1));
  return info;
}

/// Emits kernels for one sort.
class SortEmitter {
public:
  SortEmitter(Operation *fusion, gpu::GPUModuleOp module, SymbolTable &symbols,
              SortInfo info)
      : fusion(fusion), module(module), symbols(symbols), info(info),
        b(fusion->getContext()) {}

  /// The tiled kernel for `masks` (reading the sort's operands when
  /// `first`, else the outputs).
  FailureOr<gpu::GPUFuncOp> emitTiled(StringRef name, TiledMasks masks,
                                      bool first);
  /// The kernel for level `level` of stage `stage`, in global memory.
  FailureOr<gpu::GPUFuncOp> emitUntiled(StringRef name, int64_t stage,
                                        int64_t level);

private:
  Value constant(int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  /// The offset of (row, 0) and the logical index of the row's other
  /// dimensions (the sort dimension's entry left null).
  Value emitRowBase(Value row, SmallVectorImpl<Value> &index);
  /// Compare-and-swap of the pair `pair` for `mask` of level `level` (pairs
  /// of blocks of 2^level elements) among `bound` elements (index values):
  /// `load(k, i)` / `store(k, i, v)` access operand k.
  LogicalResult
  emitCompareAndSwap(Value pair, Value level, Value mask, Value bound,
                     function_ref<Value(unsigned, Value)> load,
                     function_ref<void(unsigned, Value, Value)> store);
  SmallVector<Type> outputTypes() {
    return SmallVector<Type>(info.sort.getInputs().getTypes());
  }

  Operation *fusion;
  gpu::GPUModuleOp module;
  SymbolTable &symbols;
  SortInfo info;
  OpBuilder b;
  Location loc = UnknownLoc::get(fusion->getContext());
};

} // namespace

Value SortEmitter::emitRowBase(Value row, SmallVectorImpl<Value> &index) {
  index.assign(info.type.getRank(), Value());
  SmallVector<int64_t> strides = getPhysicalStrides(info.type);
  Value base = constant(0);
  Value rest = row;
  for (int64_t d : getMinorToMajor(info.type)) {
    if (d == info.dim)
      continue;
    int64_t size = info.type.getDimSize(d);
    index[d] = arith::RemUIOp::create(b, loc, rest, constant(size));
    rest = arith::DivUIOp::create(b, loc, rest, constant(size));
    base = arith::AddIOp::create(
        b, loc, base,
        arith::MulIOp::create(b, loc, index[d], constant(strides[d])));
  }
  return base;
}

LogicalResult SortEmitter::emitCompareAndSwap(
    Value pair, Value level, Value mask, Value bound,
    function_ref<Value(unsigned, Value)> load,
    function_ref<void(unsigned, Value, Value)> store) {
  // Pairs compare a block of 2^level elements with the next block: for a
  // mask 2^(level+1) - 1 the next block reversed, for a power of two
  // element by element. The pair's first element is the pair's number
  // with a 0 inserted at bit `level`.
  Value low = arith::AndIOp::create(
      b, loc, pair,
      arith::SubIOp::create(b, loc,
                            arith::ShLIOp::create(b, loc, constant(1), level),
                            constant(1)));
  Value high =
      arith::ShLIOp::create(b, loc, arith::ShRUIOp::create(b, loc, pair, level),
                            arith::AddIOp::create(b, loc, level, constant(1)));
  Value i = arith::OrIOp::create(b, loc, high, low);
  Value j = arith::XOrIOp::create(b, loc, i, mask);
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, j, bound);
  auto ifInside = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifInside.getThenRegion().front());
  // The comparator's parameters: (operand k at j, operand k at i) for each
  // k; true means j's elements go first.
  unsigned n = info.sort.getInputs().size();
  SmallVector<Value> atI, atJ, args;
  for (unsigned k = 0; k < n; ++k) {
    atJ.push_back(load(k, j));
    atI.push_back(load(k, i));
    args.push_back(atJ.back());
    args.push_back(atI.back());
  }
  FailureOr<SmallVector<Value>> less =
      emitScalarComputation(b, loc, info.comparator.getBody(), args);
  if (failed(less))
    return failure();
  Value swap = less->front();
  if (!swap.getType().isInteger(1))
    return fusion->emitError("sort emitter: the comparator does not return "
                             "a predicate");
  auto ifSwap = scf::IfOp::create(b, loc, swap, /*withElseRegion=*/false);
  b.setInsertionPointToStart(&ifSwap.getThenRegion().front());
  for (unsigned k = 0; k < n; ++k) {
    store(k, i, atJ[k]);
    store(k, j, atI[k]);
  }
  return success();
}

FailureOr<gpu::GPUFuncOp> SortEmitter::emitTiled(StringRef name,
                                                 TiledMasks masks, bool first) {
  int64_t tile = info.tile;
  int64_t perThread = std::min(kUnroll, tile);
  int64_t threads = std::max<int64_t>(1, tile / kUnroll);
  int64_t tilesPerRow = llvm::divideCeil(info.size, tile);
  int64_t blocks = info.rows * tilesPerRow;
  if (blocks > std::numeric_limits<int32_t>::max())
    return fusion->emitError("sort emitter: too many blocks");
  gpu::GPUFuncOp func =
      createKernel(b, fusion, module, name, outputTypes(),
                   {int32_t(threads), 1, 1}, {int32_t(blocks), 1, 1});
  loc = func.getLoc();
  auto space =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  SmallVector<Value> tiles;
  for (Type t : outputTypes())
    tiles.push_back(func.addWorkgroupAttribution(
        MemRefType::get(
            {tile}, getScalarType(cast<RankedTensorType>(t).getElementType()),
            MemRefLayoutAttrInterface{}, space),
        loc));
  SmallVector<Value> args(func.getArguments());
  unsigned numParams = getDataOperands(fusion).size();
  ArrayRef<Value> outputs = ArrayRef<Value>(args).drop_front(numParams);
  ElementGenerator gen(b, loc, symbols, module,
                       ArrayRef<Value>(args).take_front(numParams));
  int64_t sortStride = getPhysicalStrides(info.type)[info.dim];

  // Which tile of which row: the block's index split; its elements in the
  // sort dimension are [start, start + bound).
  Value blockId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value row = arith::DivUIOp::create(b, loc, blockId, constant(tilesPerRow));
  Value start = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, blockId, constant(tilesPerRow)),
      constant(tile));
  SmallVector<Value> rowIndex;
  Value rowBase = emitRowBase(row, rowIndex);
  Value bound = arith::MinUIOp::create(
      b, loc, constant(tile),
      arith::SubIOp::create(b, loc, constant(info.size), start));

  // Each thread moves `perThread` consecutive elements between the
  // buffers and the tile: `fn` gets each one's position in the tile and in
  // the sort dimension, where that is inside the row.
  auto forEachOwnElement =
      [&](function_ref<LogicalResult(Value pos, Value at)> fn) {
        for (int64_t u = 0; u < perThread; ++u) {
          Value pos = arith::AddIOp::create(
              b, loc,
              arith::MulIOp::create(b, loc, threadId, constant(perThread)),
              constant(u));
          Value inside = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ult, pos, bound);
          auto ifOp =
              scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(&ifOp.getThenRegion().front());
          if (failed(fn(pos, arith::AddIOp::create(b, loc, start, pos))))
            return failure();
        }
        return success();
      };
  // The linear offset of element `at` of the row in an output buffer.
  auto offsetOf = [&](Value at) -> Value {
    return arith::AddIOp::create(
        b, loc, rowBase,
        arith::MulIOp::create(b, loc, at, constant(sortStride)));
  };

  // Load: from the fusion's operands in the first kernel, from the outputs
  // the earlier kernels wrote in the others.
  LogicalResult loaded = forEachOwnElement([&](Value pos, Value at) {
    for (auto [k, operand] : llvm::enumerate(info.sort.getInputs())) {
      Value v;
      if (first) {
        SmallVector<Value> index(rowIndex);
        index[info.dim] = at;
        FailureOr<Value> e =
            gen.inScope([&] { return gen.emitOne(operand, index); });
        if (failed(e))
          return failure();
        v = *e;
      } else {
        v = memref::LoadOp::create(b, loc, outputs[k],
                                   ValueRange{offsetOf(at)});
      }
      memref::StoreOp::create(b, loc, v, tiles[k], ValueRange{pos});
    }
    return success();
  });
  if (failed(loaded)) {
    func.erase();
    return failure();
  }
  gpu::BarrierOp::create(b, loc);

  // The masks, each pair of the tile compared by one thread: loops over the
  // stages and their levels, which every thread runs alike.
  int64_t pairsPerThread = std::max<int64_t>(1, perThread / 2);
  bool compared = true;
  if (masks.endStage > masks.firstStage) {
    OpBuilder::InsertionGuard guard(b);
    auto stages = scf::ForOp::create(b, loc, constant(masks.firstStage),
                                     constant(masks.endStage), constant(1));
    b.setInsertionPointToStart(stages.getBody());
    Value stage = stages.getInductionVar();
    Value top = masks.top < 0 ? stage : constant(masks.top);
    auto levels = scf::ForOp::create(
        b, loc, constant(0), arith::AddIOp::create(b, loc, top, constant(1)),
        constant(1));
    b.setInsertionPointToStart(levels.getBody());
    Value level = arith::SubIOp::create(b, loc, top, levels.getInductionVar());
    Value one = constant(1);
    Value mask = arith::SelectOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, level, stage),
        arith::SubIOp::create(
            b, loc,
            arith::ShLIOp::create(b, loc, one,
                                  arith::AddIOp::create(b, loc, stage, one)),
            one),
        arith::ShLIOp::create(b, loc, one, level));
    for (int64_t q = 0; q < pairsPerThread; ++q) {
      Value pair = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, threadId, constant(pairsPerThread)),
          constant(q));
      if (failed(emitCompareAndSwap(
              pair, level, mask, bound,
              [&](unsigned k, Value i) -> Value {
                return memref::LoadOp::create(b, loc, tiles[k], ValueRange{i});
              },
              [&](unsigned k, Value i, Value v) {
                memref::StoreOp::create(b, loc, v, tiles[k], ValueRange{i});
              }))) {
        compared = false;
        break;
      }
    }
    gpu::BarrierOp::create(b, loc);
  }
  if (!compared) {
    func.erase();
    return failure();
  }

  // Store.
  (void)forEachOwnElement([&](Value pos, Value at) {
    Value offset = offsetOf(at);
    for (unsigned k = 0; k < tiles.size(); ++k) {
      Value v = memref::LoadOp::create(b, loc, tiles[k], ValueRange{pos});
      memref::StoreOp::create(b, loc, v, outputs[k], ValueRange{offset});
    }
    return success();
  });
  return func;
}

FailureOr<gpu::GPUFuncOp>
SortEmitter::emitUntiled(StringRef name, int64_t stage, int64_t level) {
  int64_t mask =
      level == stage ? (int64_t(2) << stage) - 1 : int64_t(1) << level;
  // Each thread compares kUnroll consecutive pairs of one row (half of the
  // padded dimension's elements are the first of a pair).
  int64_t pairs = int64_t(1) << (info.numStages - 1);
  int64_t perRow = llvm::divideCeil(pairs, kUnroll);
  int64_t work = info.rows * perRow;
  auto [threads, blocks] = getLaunchDims(work, kUntiledThreadsPerBlock);
  if (blocks > std::numeric_limits<int32_t>::max())
    return fusion->emitError("sort emitter: too many blocks");
  gpu::GPUFuncOp func =
      createKernel(b, fusion, module, name, outputTypes(),
                   {int32_t(threads), 1, 1}, {int32_t(blocks), 1, 1});
  loc = func.getLoc();
  SmallVector<Value> args(func.getArguments());
  unsigned numParams = getDataOperands(fusion).size();
  ArrayRef<Value> outputs = ArrayRef<Value>(args).drop_front(numParams);
  int64_t sortStride = getPhysicalStrides(info.type)[info.dim];
  Value linear = emitGuardedThreadIndex(b, loc, threads, work);
  Value row = arith::DivUIOp::create(b, loc, linear, constant(perRow));
  Value first = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, linear, constant(perRow)),
      constant(kUnroll));
  SmallVector<Value> rowIndex;
  Value rowBase = emitRowBase(row, rowIndex);
  auto address = [&](Value i) -> Value {
    return arith::AddIOp::create(
        b, loc, rowBase,
        arith::MulIOp::create(b, loc, i, constant(sortStride)));
  };
  for (int64_t u = 0; u < kUnroll; ++u) {
    Value pair = arith::AddIOp::create(b, loc, first, constant(u));
    OpBuilder::InsertionGuard guard(b);
    if (pairs % kUnroll != 0) {
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           pair, constant(pairs));
      auto ifOp = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
      b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    }
    if (failed(emitCompareAndSwap(
            pair, constant(level), constant(mask), constant(info.size),
            [&](unsigned k, Value i) -> Value {
              return memref::LoadOp::create(b, loc, outputs[k],
                                            ValueRange{address(i)});
            },
            [&](unsigned k, Value i, Value v) {
              memref::StoreOp::create(b, loc, v, outputs[k],
                                      ValueRange{address(i)});
            }))) {
      func.erase();
      return failure();
    }
  }
  return func;
}

LogicalResult mlir::hlo::canEmitSortKernel(Operation *fusion,
                                           SymbolTable &symbols,
                                           std::string &reason) {
  return success(succeeded(analyzeSort(fusion, symbols, reason)));
}

FailureOr<gpu::GPUFuncOp> mlir::hlo::emitSortKernel(Operation *fusion,
                                                    gpu::GPUModuleOp module,
                                                    StringRef name,
                                                    SymbolTable &symbols,
                                                    const KernelOptions &) {
  std::string reason;
  FailureOr<SortInfo> info = analyzeSort(fusion, symbols, reason);
  if (failed(info))
    return fusion->emitError("sort emitter: ") << reason;
  // XLA's kernels: the masks below the tile size gathered into tiled
  // kernels (the whole stages below it first, then the last levels of each
  // later stage), each larger one a kernel of its own.
  struct Kernel {
    TiledMasks tiled;
    int64_t stage = -1, level = -1; // untiled when stage >= 0
  };
  int64_t tileStages = llvm::Log2_64(info->tile);
  SmallVector<Kernel> kernels;
  kernels.push_back({{0, std::min(info->numStages, tileStages), -1}});
  for (int64_t stage = tileStages; stage < info->numStages; ++stage) {
    for (int64_t level = stage; level >= tileStages; --level)
      kernels.push_back({{}, stage, level});
    if (tileStages > 0)
      kernels.push_back({{stage, stage + 1, tileStages - 1}});
  }
  SortEmitter emitter(fusion, module, symbols, *info);
  SmallVector<Attribute> then;
  gpu::GPUFuncOp firstKernel;
  SymbolTable kernelSymbols(module);
  for (auto [i, plan] : llvm::enumerate(kernels)) {
    // XLA's names: the first kernel's, then `name__1`, `name__2`, ...
    std::string kernelName = name.str();
    for (unsigned suffix = i;
         i && (kernelName == name.str() || kernelSymbols.lookup(kernelName));
         ++suffix)
      kernelName = name.str() + "__" + std::to_string(suffix);
    FailureOr<gpu::GPUFuncOp> kernel =
        plan.stage < 0
            ? emitter.emitTiled(kernelName, plan.tiled, /*first=*/i == 0)
            : emitter.emitUntiled(kernelName, plan.stage, plan.level);
    if (failed(kernel)) {
      if (firstKernel)
        for (Attribute a : then)
          if (Operation *k =
                  kernelSymbols.lookup(cast<FlatSymbolRefAttr>(a).getValue()))
            k->erase();
      if (firstKernel)
        firstKernel.erase();
      return failure();
    }
    kernelSymbols.insert(*kernel);
    if (i == 0)
      firstKernel = *kernel;
    else
      then.push_back(FlatSymbolRefAttr::get(*kernel));
  }
  if (!then.empty())
    firstKernel->setAttr(kThenKernelsAttrName,
                         ArrayAttr::get(fusion->getContext(), then));
  return firstKernel;
}
