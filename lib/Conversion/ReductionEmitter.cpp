//===- ReductionEmitter.cpp - reduction fusions to gpu.func kernels -------===//
//
// XLA's reduction emitter. A reduction fusion's heroes are reduces of one
// input shape over the same dimensions; its outputs are the heroes' results
// through an elementwise epilogue, or side outputs of the input's shape
// written while the input is read. The input's dimensions, in physical
// order, fall into kept-major, reduced and kept-minor groups:
//
// - row reduction (no kept-minor dimension: the reduced dimensions are the
//   physically minor ones): `tx` threads reduce one row, `ty` rows per block;
//   each thread loops over the row with stride `tx` (`v` consecutive
//   elements per step, one vector load), then the row's threads combine
//   through warp shuffles, and through shared memory and a second round of
//   shuffles when a row has several warps;
// - column reduction: a block of 32 x 32 threads covers 32 * `v` columns
//   (kept-minor elements) of one kept-major index; thread (x, y) reduces
//   rows y, y + 32, ... of its `v` columns (coalesced across x), the
//   partial results are transposed through a 32 x 33 shared-memory tile
//   (no bank conflicts) and each warp then combines one column's 32
//   partials with shuffles.
//
// Barriers and shuffles are only at the kernel's top level, executed by
// every thread (the host lowering splits kernels there).
//
//===----------------------------------------------------------------------===//

#include "EmitterUtils.h"

#include "Hlo/Conversion/ScalarLowering.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {

class ReductionKernelBuilder {
public:
  ReductionKernelBuilder(const ReductionInfo &info, FusionOp fusion,
                         SymbolTable &symbols)
      : info(info), fusion(fusion), symbols(symbols) {}

  FailureOr<gpu::GPUFuncOp> build(gpu::GPUModuleOp module, StringRef name);

private:
  Value constant(int64_t v) {
    return arith::ConstantIndexOp::create(*b, loc, v);
  }
  void delinearize(Value linear, ArrayRef<int64_t> group,
                   SmallVector<Value> &index) {
    delinearizeGroup(*b, loc, linear, info.inputType.getShape(), group, index);
  }
  /// Folds the elements at input `index` into `accs` (and writes the side
  /// outputs there).
  LogicalResult accumulate(ValueRange index, Value linear,
                           SmallVector<Value> &accs);
  LogicalResult warpReduce(int64_t offset, SmallVector<Value> &accs) {
    return reducers.warpReduce(*b, loc, offset, accs);
  }
  /// Writes the outputs of the kept element `keptIndex` (logical, of the
  /// heroes' result) from its reduced `accs`.
  LogicalResult writeOutputs(ValueRange keptIndex, ValueRange accs);
  /// A loop over `iterations` carrying `accs`, whose step runs `body`
  /// where `guard` (null: always) holds.
  LogicalResult
  loop(int64_t iterations, SmallVector<Value> &accs,
       function_ref<Value(Value)> guard,
       function_ref<LogicalResult(Value, SmallVector<Value> &)> body);
  /// The type of output `k`.
  Type getOutputType(unsigned k) {
    Type t = info.roots[k].getType();
    if (auto tuple = dyn_cast<TupleType>(t))
      return tuple.getType(info.rootElements[k]);
    return t;
  }
  /// A shared-memory array of `shape` for each accumulator.
  SmallVector<Value> sharedArrays(ArrayRef<int64_t> shape);

  const ReductionInfo &info;
  FusionOp fusion;
  SymbolTable &symbols;
  gpu::GPUFuncOp func;
  OpBuilder *b = nullptr;
  Location loc = UnknownLoc::get(fusion->getContext());
  std::unique_ptr<ElementGenerator> gen;
  Reducers reducers;
  SmallVector<Type> accTypes; // the loop's: one set per column of a thread
  SmallVector<Value> outputs;
};

LogicalResult ReductionKernelBuilder::accumulate(ValueRange index, Value linear,
                                                 SmallVector<Value> &accs) {
  if (linear)
    gen->setRoot(index, linear, info.inputType);
  SmallVector<Value> values;
  for (ReduceOp hero : info.heroes) {
    auto operands = getDataOperands(hero);
    for (Value in : operands.take_front(operands.size() / 2)) {
      FailureOr<Value> x = gen->emitOne(in, index);
      if (failed(x))
        return failure();
      values.push_back(*x);
    }
  }
  if (failed(reducers.combine(*b, loc, accs, values)))
    return failure();
  for (auto [k, root] : llvm::enumerate(info.roots)) {
    if (!info.sideOutputs.contains(root))
      continue;
    FailureOr<Value> x = gen->emitOne(root, index);
    if (failed(x))
      return failure();
    auto type = cast<RankedTensorType>(root.getType());
    Value at = linear && sameShapeAndLayout(type, info.inputType)
                   ? linear
                   : emitPhysicalOffset(*b, loc, index, type);
    memref::StoreOp::create(*b, loc, *x, outputs[k], ValueRange{at});
  }
  return success();
}

LogicalResult ReductionKernelBuilder::writeOutputs(ValueRange keptIndex,
                                                   ValueRange accs) {
  unsigned at = 0;
  for (auto [h, hero] : llvm::enumerate(info.heroes)) {
    gen->setOverride(hero->getResult(0), accs.slice(at, reducers.numAccs[h]));
    at += reducers.numAccs[h];
  }
  Value linear = emitPhysicalOffset(*b, loc, keptIndex, info.outputType);
  LogicalResult result = success();
  for (auto [k, root] : llvm::enumerate(info.roots)) {
    if (info.sideOutputs.contains(root))
      continue;
    auto type = cast<RankedTensorType>(getOutputType(k));
    SmallVector<Value> index = sameShapeAndLayout(type, info.outputType)
                                   ? SmallVector<Value>(keptIndex)
                                   : emitLogicalIndex(*b, loc, linear, type);
    FailureOr<SmallVector<Value>> x = gen->emit(root, index);
    if (failed(x)) {
      result = failure();
      break;
    }
    memref::StoreOp::create(*b, loc, (*x)[info.rootElements[k]], outputs[k],
                            ValueRange{linear});
  }
  gen->clearOverrides();
  return result;
}

LogicalResult ReductionKernelBuilder::loop(
    int64_t iterations, SmallVector<Value> &accs,
    function_ref<Value(Value)> guard,
    function_ref<LogicalResult(Value, SmallVector<Value> &)> body) {
  auto forOp = scf::ForOp::create(*b, loc, constant(0), constant(iterations),
                                  constant(1), accs);
  OpBuilder::InsertionGuard g(*b);
  b->setInsertionPointToStart(forOp.getBody());
  Value i = forOp.getInductionVar();
  SmallVector<Value> inner(forOp.getRegionIterArgs());
  Value cond = guard(i);
  LogicalResult ok = success();
  if (!cond) {
    ok = gen->inScope([&] { return body(i, inner); });
    scf::YieldOp::create(*b, loc, inner);
  } else {
    auto ifOp = scf::IfOp::create(*b, loc, TypeRange(accTypes), cond,
                                  /*withElseRegion=*/true);
    scf::YieldOp::create(*b, loc, ifOp.getResults());
    b->setInsertionPointToStart(&ifOp.getElseRegion().front());
    scf::YieldOp::create(*b, loc, forOp.getRegionIterArgs());
    b->setInsertionPointToStart(&ifOp.getThenRegion().front());
    ok = gen->inScope([&] { return body(i, inner); });
    scf::YieldOp::create(*b, loc, inner);
  }
  accs.assign(forOp.getResults().begin(), forOp.getResults().end());
  return ok;
}

SmallVector<Value>
ReductionKernelBuilder::sharedArrays(ArrayRef<int64_t> shape) {
  auto space =
      gpu::AddressSpaceAttr::get(b->getContext(), gpu::AddressSpace::Workgroup);
  SmallVector<Value> arrays;
  for (Type t : accTypes)
    arrays.push_back(func.addWorkgroupAttribution(
        MemRefType::get(shape, t, MemRefLayoutAttrInterface{}, space), loc));
  return arrays;
}

FailureOr<gpu::GPUFuncOp> ReductionKernelBuilder::build(gpu::GPUModuleOp module,
                                                        StringRef name) {
  if (failed(reducers.init(info.heroes, symbols)))
    return failure();
  accTypes = reducers.accTypes;
  int64_t bytes = reducers.getWidestBytes();
  const int64_t warp = 32;
  bool isRow = info.numKeptMinor == 1;
  int64_t numRows = info.numKeptMajor, rowLength = info.numReduced;
  // Launch geometry (XLA's tiling): see the file comment.
  int64_t v = 1, tx = warp, ty = warp, blocks = 0, perMajor = 0;
  if (isRow) {
    std::tie(tx, ty) = getRowTiling(rowLength, numRows);
    if (rowLength >= warp && info.contiguous) {
      v = bytes <= 2 ? 4 : bytes <= 4 ? 2 : 1;
      while (v > 1 && rowLength % v != 0)
        v /= 2;
    }
    blocks = llvm::divideCeil(numRows, ty);
  } else {
    if (info.contiguous && bytes <= 4 && info.numKeptMinor % 2 == 0)
      v = 2;
    perMajor = llvm::divideCeil(info.numKeptMinor, warp * v);
    blocks = info.numKeptMajor * perMajor;
  }
  int64_t threads = tx * ty;
  if (blocks > std::numeric_limits<int32_t>::max())
    return fusion->emitError("reduction emitter: too many blocks");

  OpBuilder builder(fusion->getContext());
  b = &builder;
  SmallVector<Type> outputTypes;
  for (unsigned k = 0; k < info.roots.size(); ++k)
    outputTypes.push_back(getOutputType(k));
  func = createKernel(builder, fusion, module, name, outputTypes,
                      {int32_t(threads), 1, 1}, {int32_t(blocks), 1, 1});
  loc = func.getLoc();
  ValueRange args = func.getArguments();
  unsigned numParams = fusion.getDataOperands().size();
  outputs.assign(args.begin() + numParams, args.end());
  gen = std::make_unique<ElementGenerator>(builder, loc, symbols, module,
                                           args.take_front(numParams));
  auto fail = [&]() -> FailureOr<gpu::GPUFuncOp> {
    func.erase();
    return failure();
  };

  SmallVector<Value> inits;
  for (ReduceOp hero : info.heroes) {
    auto operands = getDataOperands(hero);
    for (Value init : operands.drop_front(operands.size() / 2)) {
      FailureOr<Value> x = gen->emitOne(init, {});
      if (failed(x))
        return fail();
      inits.push_back(*x);
    }
  }
  Value thread = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
  Value block = gpu::BlockIdOp::create(builder, loc, gpu::Dimension::x);
  Value x = arith::RemUIOp::create(builder, loc, thread, constant(tx));
  Value y = arith::DivUIOp::create(builder, loc, thread, constant(tx));
  auto lt = [&](Value a, Value c) {
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, a, c)
        .getResult();
  };
  auto both = [&](Value a, Value c) {
    return a ? arith::AndIOp::create(builder, loc, a, c).getResult() : c;
  };
  SmallVector<Value> index(info.inputType.getRank());
  auto keptIndex = [&] {
    SmallVector<Value> kept;
    for (auto [d, i] : llvm::enumerate(index))
      if (!llvm::is_contained(info.reducedDims, int64_t(d)))
        kept.push_back(i);
    return kept;
  };
  SmallVector<Value> accs = inits;

  if (isRow) {
    // Row `row` of this block's `ty`; `v` elements per step.
    Value row = arith::AddIOp::create(
        builder, loc, arith::MulIOp::create(builder, loc, block, constant(ty)),
        y);
    Value validRow = numRows % ty == 0 ? Value() : lt(row, constant(numRows));
    delinearize(row, info.keptMajorDims, index);
    delinearize(constant(0), info.keptMinorDims, index); // degenerate ones
    int64_t step = tx * v;
    int64_t iterations = llvm::divideCeil(rowLength, step);
    auto guard = [&](Value i) -> Value {
      if (rowLength % step == 0)
        return validRow;
      Value base = arith::MulIOp::create(
          builder, loc,
          arith::AddIOp::create(
              builder, loc,
              arith::MulIOp::create(builder, loc, i, constant(tx)), x),
          constant(v));
      return both(validRow, lt(base, constant(rowLength)));
    };
    if (failed(loop(
            iterations, accs, guard, [&](Value i, SmallVector<Value> &inner) {
              Value base = arith::MulIOp::create(
                  builder, loc,
                  arith::AddIOp::create(
                      builder, loc,
                      arith::MulIOp::create(builder, loc, i, constant(tx)), x),
                  constant(v));
              for (int64_t j = 0; j < v; ++j) {
                Value r =
                    j ? arith::AddIOp::create(builder, loc, base, constant(j))
                            .getResult()
                      : base;
                delinearize(r, info.reducedDims, index);
                Value linear;
                if (info.contiguous)
                  linear = arith::AddIOp::create(
                      builder, loc,
                      arith::MulIOp::create(builder, loc, row,
                                            constant(rowLength)),
                      r);
                if (failed(accumulate(index, linear, inner)))
                  return failure();
              }
              return success();
            })))
      return fail();
    if (failed(reducers.rowReduce(builder, loc, func, x, y, tx, ty, accs)))
      return fail();
    Value writer = both(
        validRow, arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                        x, constant(0)));
    auto ifOp = scf::IfOp::create(builder, loc, writer, false);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
    if (failed(gen->inScope([&] { return writeOutputs(keptIndex(), accs); })))
      return fail();
    return func;
  }

  // Column reduction: thread (x, y) of the 32 x 32 block.
  Value major = arith::DivUIOp::create(builder, loc, block, constant(perMajor));
  Value columnBlock =
      arith::RemUIOp::create(builder, loc, block, constant(perMajor));
  Value blockStart =
      arith::MulIOp::create(builder, loc, columnBlock, constant(warp * v));
  Value column = arith::AddIOp::create(
      builder, loc, blockStart,
      arith::MulIOp::create(builder, loc, x, constant(v)));
  delinearize(major, info.keptMajorDims, index);
  int64_t numColumns = info.numKeptMinor;
  Value validColumn =
      numColumns % (warp * v) == 0 ? Value() : lt(column, constant(numColumns));
  int64_t iterations = llvm::divideCeil(rowLength, warp);
  SmallVector<Value> columnAccs; // v sets of accumulators
  for (int64_t j = 0; j < v; ++j)
    llvm::append_range(columnAccs, inits);
  SmallVector<Type> oneSet = accTypes;
  for (int64_t j = 1; j < v; ++j)
    llvm::append_range(accTypes, oneSet);
  auto guard = [&](Value i) -> Value {
    if (rowLength % warp == 0)
      return validColumn;
    Value r = arith::AddIOp::create(
        builder, loc, arith::MulIOp::create(builder, loc, i, constant(warp)),
        y);
    return both(validColumn, lt(r, constant(rowLength)));
  };
  if (failed(loop(
          iterations, columnAccs, guard,
          [&](Value i, SmallVector<Value> &inner) {
            Value r = arith::AddIOp::create(
                builder, loc,
                arith::MulIOp::create(builder, loc, i, constant(warp)), y);
            delinearize(r, info.reducedDims, index);
            for (int64_t j = 0; j < v; ++j) {
              Value c =
                  j ? arith::AddIOp::create(builder, loc, column, constant(j))
                          .getResult()
                    : column;
              delinearize(c, info.keptMinorDims, index);
              Value linear;
              if (info.contiguous)
                linear = arith::AddIOp::create(
                    builder, loc,
                    arith::MulIOp::create(
                        builder, loc,
                        arith::AddIOp::create(
                            builder, loc,
                            arith::MulIOp::create(builder, loc, major,
                                                  constant(rowLength)),
                            r),
                        constant(numColumns)),
                    c);
              SmallVector<Value> set(inner.begin() + j * oneSet.size(),
                                     inner.begin() + (j + 1) * oneSet.size());
              if (failed(accumulate(index, linear, set)))
                return failure();
              llvm::copy(set, inner.begin() + j * oneSet.size());
            }
            return success();
          })))
    return fail();
  accTypes = oneSet;
  // Transpose the partials through a 32 x 33 tile per accumulator and
  // column of the thread, then reduce each column within a warp.
  SmallVector<SmallVector<Value>> shared;
  for (int64_t j = 0; j < v; ++j)
    shared.push_back(sharedArrays({warp, warp + 1}));
  for (int64_t j = 0; j < v; ++j)
    for (auto [k, array] : llvm::enumerate(shared[j]))
      memref::StoreOp::create(builder, loc, columnAccs[j * oneSet.size() + k],
                              array, ValueRange{y, x});
  gpu::BarrierOp::create(builder, loc);
  SmallVector<SmallVector<Value>> totals(v);
  for (int64_t j = 0; j < v; ++j) {
    for (Value array : shared[j])
      totals[j].push_back(
          memref::LoadOp::create(builder, loc, array, ValueRange{x, y}));
    if (failed(warpReduce(warp / 2, totals[j])))
      return fail();
  }
  // Lane 0 of warp y writes columns blockStart + y * v + j.
  Value lane0 = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, x,
                                      constant(0));
  auto ifOp = scf::IfOp::create(builder, loc, lane0, false);
  builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
  for (int64_t j = 0; j < v; ++j) {
    Value c = arith::AddIOp::create(
        builder, loc, blockStart,
        arith::AddIOp::create(
            builder, loc, arith::MulIOp::create(builder, loc, y, constant(v)),
            constant(j)));
    OpBuilder::InsertionGuard g(builder);
    if (numColumns % (warp * v) != 0) {
      auto inside =
          scf::IfOp::create(builder, loc, lt(c, constant(numColumns)), false);
      builder.setInsertionPointToStart(&inside.getThenRegion().front());
    }
    delinearize(c, info.keptMinorDims, index);
    if (failed(
            gen->inScope([&] { return writeOutputs(keptIndex(), totals[j]); })))
      return fail();
  }
  return func;
}

} // namespace

FailureOr<gpu::GPUFuncOp>
mlir::hlo::emitReductionKernel(Operation *fusion, gpu::GPUModuleOp module,
                               StringRef name, SymbolTable &symbols,
                               const KernelOptions &options) {
  std::string reason;
  FailureOr<ReductionInfo> info =
      analyzeReductionFusion(fusion, symbols, reason);
  if (failed(info))
    return fusion->emitError("reduction emitter: ") << reason;
  ReductionKernelBuilder builder(*info, cast<FusionOp>(fusion), symbols);
  return builder.build(module, name);
}
