//===- TopkEmitter.cpp - XLA-GPU's top-k kernel ---------------------------===//
//
// The kernel of a `__gpu$TopK` custom call (hlo-topk-specializer's, wrapped
// into a fusion of its own): the k best elements of each row of x [batch, n]
// (or [n]) with their s32 indices, best first, as a stable sort by the
// call's "greater than" comparator gives them. One block per row, XLA's
// launch: n / kp threads rounded down to a power of two, at most 1024 (512
// for kp = 16), kp being k rounded up to a power of two, and 32 x kp x 8
// bytes of shared memory.
//
// Elements are compared as (key, index) pairs: the key is the float's
// total-order integer (its bits, the non-sign bits flipped when negative),
// and a tie goes to the smaller index; both in one i64 (`key << 32 |
// ~index`), so that one signed maximum or minimum compares and moves an
// element. Every entry is distinct, so the k best are one set whatever the
// order they are met in. (A comparator comparing the floats directly gets
// keys of x + 0.0, so that -0 and +0 tie as they compare; NaNs, which such
// a comparator does not order, go by their total order.)
//
//  1. Each thread keeps the kp best of the elements tid, tid + T, ... of its
//     row, sorted, in registers (an insertion network of maxima and minima,
//     taken only when an element beats the list's last).
//  2. The lanes of a warp merge their lists in a butterfly: xor shuffles of
//     the partner's list, the kp best of both as the elementwise best of one
//     list and the other reversed (a bitonic sequence) sorted by a bitonic
//     merge network, one step a trip of a loop. After five steps every lane
//     holds its warp's best.
//  3. Lane 0 of each warp writes its list to shared memory; after a barrier
//     the lanes of every warp read one warp's list each and merge them the
//     same way; thread 0 writes the first k, the values read again at their
//     indices (so they keep their bits).
//
//===----------------------------------------------------------------------===//

#include "EmitterUtils.h"

#include "Hlo/Dialect/Hlo/HloTopKCalls.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {

constexpr int64_t kWarpSize = 32;
constexpr int64_t kMaxThreads = 1024;

struct TopkInfo {
  CustomCallOp call;
  RankedTensorType input;
  bool directFloatCompare = false;
  int64_t batch = 1, n = 0, k = 0, kp = 1, threads = kWarpSize;
};

FailureOr<TopkInfo> analyzeTopk(Operation *op, SymbolTable &symbols,
                                std::string &reason) {
  auto fusion = dyn_cast<FusionOp>(op);
  auto fused =
      fusion ? symbols.lookup<ComputationOp>(fusion.getCalls()) : nullptr;
  if (!fused || fused.getBody().empty()) {
    reason = "not a fusion with a fused computation";
    return failure();
  }
  TopkInfo info;
  fused.walk([&](CustomCallOp call) {
    if (call.getCustomCallTarget() == "__gpu$TopK")
      info.call = call;
  });
  if (!info.call) {
    reason = "no __gpu$TopK call";
    return failure();
  }
  // The outputs: the call's (values, indices), in order.
  SmallVector<Value> roots = getFusionRoots(fused);
  if (roots.size() != 2 || llvm::any_of(llvm::enumerate(roots), [&](auto r) {
        auto gte = r.value().template getDefiningOp<GetTupleElementOp>();
        return !gte || gte.getIndex() != r.index() ||
               getDataOperands(gte)[0] != info.call.getResult();
      })) {
    reason = "the outputs are not the __gpu$TopK call's values and indices";
    return failure();
  }
  std::string why;
  FailureOr<TopKCall> call = readTopKCall(info.call, why);
  if (failed(call)) {
    reason = "__gpu$TopK " + why;
    return failure();
  }
  info.input = call->input;
  if (!(info.input.getElementType().isF32() ||
        info.input.getElementType().isBF16()) ||
      info.input.getRank() > 2) {
    reason = "__gpu$TopK takes f32 or bf16 [n] or [batch, n]";
    return failure();
  }
  info.n = call->n;
  info.k = call->k;
  info.batch = call->rows;
  if (info.k < 1 || info.k > 16 ||
      info.n > std::numeric_limits<int32_t>::max() ||
      info.batch > std::numeric_limits<int32_t>::max()) {
    reason = "__gpu$TopK needs 1 <= k <= 16 and n, batch < 2^31";
    return failure();
  }
  // The comparator compares the floats themselves, or their total-order
  // keys (hlo-topk-rewriter took no other).
  auto comparator = symbols.lookup<ComputationOp>(call->comparator.getAttr());
  if (!comparator || comparator.getBody().empty()) {
    reason = "the __gpu$TopK call's comparator is missing";
    return failure();
  }
  info.directFloatCompare = !comparesByTotalOrder(comparator);
  info.kp = int64_t(llvm::PowerOf2Ceil(info.k));
  // XLA's launch: at most 512 threads for lists of 16 (their registers).
  info.threads = std::clamp<int64_t>(
      int64_t(llvm::bit_floor(uint64_t(info.n / info.kp))), kWarpSize,
      info.kp == 16 ? kMaxThreads / 2 : kMaxThreads);
  return info;
}

/// A list of kp entries, best first: each element as one i64,
/// `key << 32 | ~index` (the index's complement as 32 unsigned bits), so
/// that a signed compare orders them by key and then by smaller index.
using Entries = SmallVector<Value>;

class TopkEmitter {
public:
  TopkEmitter(Operation *fusion, SymbolTable &symbols, TopkInfo info)
      : fusion(fusion), symbols(symbols), info(info), b(fusion->getContext()) {}

  FailureOr<gpu::GPUFuncOp> emit(gpu::GPUModuleOp module, StringRef name);

private:
  Value i32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  }
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value max(Value x, Value y) { return arith::MaxSIOp::create(b, loc, x, y); }
  Value min(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }
  /// The list that never beats an element (no element's entry is the
  /// smallest i64: its low half, ~index, is never 0).
  Entries sentinels() {
    return Entries(info.kp, arith::ConstantIntOp::create(
                                b, loc, b.getI64Type(),
                                std::numeric_limits<int64_t>::min()));
  }
  /// The entry of element `v` (f32 or bf16) at `idx` (i32).
  Value entryOf(Value v, Value idx);
  /// The index (i32) of an entry.
  Value indexOf(Value entry) {
    return arith::XOrIOp::create(
        b, loc, arith::TruncIOp::create(b, loc, b.getI32Type(), entry),
        i32(-1));
  }
  /// `list` with `e` inserted in order (its last entry dropped).
  Entries insert(const Entries &list, Value e);
  /// The kp best of `a` and `c` (each sorted), sorted.
  Entries merge(const Entries &a, const Entries &c);
  /// `list` merged with the lists of the lanes `offset`, `offset / 2`,
  /// ..., 1 apart (xor shuffles).
  Entries butterfly(Entries list, int64_t offset);

  Operation *fusion;
  SymbolTable &symbols;
  TopkInfo info;
  OpBuilder b;
  Location loc = UnknownLoc::get(fusion->getContext());
};

} // namespace

Value TopkEmitter::entryOf(Value v, Value idx) {
  Value f = v;
  if (!f.getType().isF32())
    f = arith::ExtFOp::create(b, loc, b.getF32Type(), f);
  if (info.directFloatCompare)
    f = arith::AddFOp::create(
        b, loc, f,
        arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(0.0f)));
  // The total-order key: the bits, all but the sign flipped when negative.
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), f);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, bits, i32(0));
  Value key = arith::SelectOp::create(
      b, loc, negative,
      arith::XOrIOp::create(b, loc, bits,
                            i32(std::numeric_limits<int32_t>::max())),
      bits);
  Type i64 = b.getI64Type();
  Value high =
      arith::ShLIOp::create(b, loc, arith::ExtSIOp::create(b, loc, i64, key),
                            arith::ConstantIntOp::create(b, loc, i64, 32));
  Value low = arith::ExtUIOp::create(
      b, loc, i64, arith::XOrIOp::create(b, loc, idx, i32(-1)));
  return arith::OrIOp::create(b, loc, high, low);
}

Entries TopkEmitter::insert(const Entries &list, Value e) {
  Entries out;
  for (Value old : list) {
    out.push_back(max(e, old));
    e = min(e, old);
  }
  return out;
}

Entries TopkEmitter::merge(const Entries &a, const Entries &c) {
  int64_t kp = info.kp;
  Entries m;
  for (int64_t j = 0; j < kp; ++j)
    m.push_back(max(a[j], c[kp - 1 - j]));
  // A bitonic sequence: its merge network, best first.
  for (int64_t s = kp / 2; s >= 1; s /= 2)
    for (int64_t j = 0; j < kp; ++j) {
      if (j & s)
        continue;
      Value hi = max(m[j], m[j + s]);
      m[j + s] = min(m[j], m[j + s]);
      m[j] = hi;
    }
  return m;
}

Entries TopkEmitter::butterfly(Entries list, int64_t offset) {
  // One step a trip of a loop, its lane offset `offset >> step` (the merge
  // network, kp log kp compares, is most of the kernel's code: unrolled,
  // the PTX was three times as long and ptxas took 2.6x as long).
  int64_t steps = llvm::Log2_64(uint64_t(offset)) + 1;
  auto loop = scf::ForOp::create(b, loc, index(0), index(steps), index(1),
                                 ValueRange(list));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value o = arith::ShRUIOp::create(
      b, loc, i32(offset),
      arith::IndexCastOp::create(b, loc, b.getI32Type(),
                                 loop.getInductionVar()));
  list.assign(loop.getRegionIterArgs().begin(), loop.getRegionIterArgs().end());
  // An entry moves as two 32-bit halves; all halves first, then all
  // shuffles of the step (one phase on the host), then the entries.
  Type i64 = b.getI64Type();
  Value c32 = arith::ConstantIntOp::create(b, loc, i64, 32);
  SmallVector<Value> halves;
  for (Value e : list) {
    halves.push_back(arith::TruncIOp::create(b, loc, b.getI32Type(), e));
    halves.push_back(arith::TruncIOp::create(
        b, loc, b.getI32Type(), arith::ShRUIOp::create(b, loc, e, c32)));
  }
  for (Value &h : halves)
    h = gpu::ShuffleOp::create(b, loc, h, o, i32(kWarpSize),
                               gpu::ShuffleMode::XOR)
            .getShuffleResult();
  Entries other;
  for (unsigned j = 0; j < list.size(); ++j)
    other.push_back(arith::OrIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, i64, halves[2 * j]),
        arith::ShLIOp::create(
            b, loc, arith::ExtUIOp::create(b, loc, i64, halves[2 * j + 1]),
            c32)));
  scf::YieldOp::create(b, loc, merge(list, other));
  return Entries(loop.getResults());
}

FailureOr<gpu::GPUFuncOp> TopkEmitter::emit(gpu::GPUModuleOp module,
                                            StringRef name) {
  auto fused = symbols.lookup<ComputationOp>(cast<FusionOp>(fusion).getCalls());
  SmallVector<Value> roots = getFusionRoots(fused);
  SmallVector<Type> outputTypes = {roots[0].getType(), roots[1].getType()};
  gpu::GPUFuncOp func =
      createKernel(b, fusion, module, name, outputTypes,
                   {int32_t(info.threads), 1, 1}, {int32_t(info.batch), 1, 1});
  loc = func.getLoc();
  int64_t kp = info.kp, numWarps = info.threads / kWarpSize;
  auto space =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto sharedType = MemRefType::get({kWarpSize * kp}, b.getI64Type(),
                                    MemRefLayoutAttrInterface{}, space);
  Value shared = func.addWorkgroupAttribution(sharedType, loc);
  SmallVector<Value> args(func.getArguments());
  unsigned numParams = getDataOperands(fusion).size();
  ArrayRef<Value> outputs = ArrayRef<Value>(args).drop_front(numParams);
  ElementGenerator gen(b, loc, symbols, module,
                       ArrayRef<Value>(args).take_front(numParams));
  Value x = getDataOperands(info.call)[0];
  bool batched = info.input.getRank() == 2;
  Value row = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  auto elementIndex = [&](Value i) {
    return batched ? SmallVector<Value>{row, i} : SmallVector<Value>{i};
  };

  // 1. The thread's kp best, from its elements tid, tid + T, ...: an
  // element beating the list's last is inserted.
  auto loop = scf::ForOp::create(b, loc, tid, index(info.n),
                                 index(info.threads), sentinels());
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value i = loop.getInductionVar();
    Entries current(loop.getRegionIterArgs());
    FailureOr<Value> v =
        gen.inScope([&] { return gen.emitOne(x, elementIndex(i)); });
    if (failed(v)) {
      func.erase();
      return failure();
    }
    Value e =
        entryOf(*v, arith::IndexCastOp::create(b, loc, b.getI32Type(), i));
    Value beats = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, e,
                                        current.back());
    auto ifBeats =
        scf::IfOp::create(b, loc, TypeRange(ValueRange(current)), beats,
                          /*withElseRegion=*/true);
    b.setInsertionPointToStart(&ifBeats.getThenRegion().front());
    scf::YieldOp::create(b, loc, insert(current, e));
    b.setInsertionPointToStart(&ifBeats.getElseRegion().front());
    scf::YieldOp::create(b, loc, current);
    b.setInsertionPointAfter(ifBeats);
    scf::YieldOp::create(b, loc, ifBeats.getResults());
  }
  Entries list(loop.getResults());

  // 2. The warp's best in every lane.
  list = butterfly(list, kWarpSize / 2);

  // 3. Lane 0 of each warp writes them; every warp merges the warps'.
  Value lane = arith::RemUIOp::create(b, loc, tid, index(kWarpSize));
  Value warp = arith::DivUIOp::create(b, loc, tid, index(kWarpSize));
  {
    Value first =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, index(0));
    auto ifFirst = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifFirst.getThenRegion().front());
    Value base = arith::MulIOp::create(b, loc, warp, index(kp));
    for (int64_t j = 0; j < kp; ++j)
      memref::StoreOp::create(
          b, loc, list[j], shared,
          ValueRange{arith::AddIOp::create(b, loc, base, index(j))});
  }
  gpu::BarrierOp::create(b, loc);
  Value hasList = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lane,
                                        index(numWarps));
  Value from = arith::MulIOp::create(
      b, loc, arith::MinUIOp::create(b, loc, lane, index(numWarps - 1)),
      index(kp));
  Entries none = sentinels();
  for (int64_t j = 0; j < kp; ++j) {
    Value at = arith::AddIOp::create(b, loc, from, index(j));
    list[j] = arith::SelectOp::create(
        b, loc, hasList, memref::LoadOp::create(b, loc, shared, at), none[j]);
  }
  if (numWarps > 1)
    list = butterfly(list, int64_t(llvm::PowerOf2Ceil(numWarps)) / 2);

  // Thread 0 writes the first k.
  Value isFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, index(0));
  auto ifFirst = scf::IfOp::create(b, loc, isFirst, /*withElseRegion=*/false);
  b.setInsertionPointToStart(&ifFirst.getThenRegion().front());
  auto valuesType = cast<RankedTensorType>(outputTypes[0]);
  auto indicesType = cast<RankedTensorType>(outputTypes[1]);
  for (int64_t j = 0; j < info.k; ++j) {
    Value idx = indexOf(list[j]);
    Value at = arith::IndexCastOp::create(b, loc, b.getIndexType(), idx);
    FailureOr<Value> v =
        gen.inScope([&] { return gen.emitOne(x, elementIndex(at)); });
    if (failed(v)) {
      func.erase();
      return failure();
    }
    SmallVector<Value> out = elementIndex(index(j));
    memref::StoreOp::create(b, loc, *v, outputs[0],
                            emitPhysicalOffset(b, loc, out, valuesType));
    memref::StoreOp::create(b, loc, idx, outputs[1],
                            emitPhysicalOffset(b, loc, out, indicesType));
  }
  return func;
}

LogicalResult mlir::hlo::canEmitTopkKernel(Operation *fusion,
                                           SymbolTable &symbols,
                                           std::string &reason) {
  return success(succeeded(analyzeTopk(fusion, symbols, reason)));
}

FailureOr<gpu::GPUFuncOp> mlir::hlo::emitTopkKernel(Operation *fusion,
                                                    gpu::GPUModuleOp module,
                                                    StringRef name,
                                                    SymbolTable &symbols,
                                                    const KernelOptions &) {
  std::string reason;
  FailureOr<TopkInfo> info = analyzeTopk(fusion, symbols, reason);
  if (failed(info))
    return fusion->emitError("top-k emitter: ") << reason;
  return TopkEmitter(fusion, symbols, *info).emit(module, name);
}
