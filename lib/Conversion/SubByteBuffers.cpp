//===- SubByteBuffers.cpp - hlo-lower-sub-byte-buffers --------------------===//
//
// Kernel arguments of 2- and 4-bit elements become the packed bytes XLA
// stores them in (element i at bit i * w, counting from byte 0's low bit),
// with their loads and stores rewritten as byte accesses and shifts. A
// function may pass such an argument on to another (a host kernel's
// function to its blocks function), which packs it too.
//
// A store updates its element's bits in an atomic read-modify-write of the
// byte (the byte's other elements may be another thread's), except where
// one thread stores all the elements of a byte together (the loop
// emitter's threads write whole bytes of sub-byte outputs): those stores
// become one plain store of the byte.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Conversion/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOLOWERSUBBYTEBUFFERS
#include "Hlo/Conversion/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;

namespace {

/// The accesses of one packed buffer (`packed`, of i8) to an element of
/// `width` bits and type `element`.
class PackedAccess {
public:
  PackedAccess(Value packed, Type element)
      : packed(packed), element(element),
        width(element.getIntOrFloatBitWidth()) {}

  /// Replaces each group of stores in one block that writes all the
  /// elements of one byte, with no other memory access between them but
  /// stores to other arguments, by one plain store of the byte: at indices x, x
  /// + 1, ..., x + perByte - 1 where x is an `arith.muli` by a multiple of
  /// perByte (so the byte is x / perByte) and the others `arith.addi` of x and
  /// a constant.
  void storeWholeBytes() {
    int64_t perByte = 8 / width;
    SmallVector<memref::StoreOp> stores;
    for (Operation *user : packed.getUsers())
      if (auto store = dyn_cast<memref::StoreOp>(user);
          store && store.getMemRef() == packed)
        stores.push_back(store);
    // The stores at a multiple of perByte.
    SmallVector<memref::StoreOp> aligned;
    for (memref::StoreOp store : stores) {
      Value index = store.getIndices().front();
      auto mul = index.getDefiningOp<arith::MulIOp>();
      if (!mul)
        continue;
      std::optional<int64_t> factor = getConstantIntValue(mul.getRhs());
      if (!factor)
        factor = getConstantIntValue(mul.getLhs());
      if (factor && *factor % perByte == 0)
        aligned.push_back(store);
    }
    // x + k for each store at x + k.
    DenseMap<std::pair<Value, int64_t>, memref::StoreOp> byOffset;
    for (memref::StoreOp store : stores) {
      auto add = store.getIndices().front().getDefiningOp<arith::AddIOp>();
      if (!add)
        continue;
      for (auto [base, offset] : {std::pair{add.getLhs(), add.getRhs()},
                                  std::pair{add.getRhs(), add.getLhs()}})
        if (std::optional<int64_t> k = getConstantIntValue(offset))
          byOffset[{base, *k}] = store;
    }
    for (memref::StoreOp first : aligned) {
      Value x = first.getIndices().front();
      Block *block = first->getBlock();
      SmallVector<memref::StoreOp> group{first};
      for (int64_t k = 1; k < perByte; ++k) {
        memref::StoreOp next = byOffset.lookup({x, k});
        if (!next || next->getBlock() != block)
          break;
        group.push_back(next);
      }
      if (int64_t(group.size()) != perByte)
        continue;
      auto before = [](memref::StoreOp a, memref::StoreOp b) {
        return a->isBeforeInBlock(b);
      };
      Operation *firstInBlock = *llvm::min_element(group, before);
      Operation *last = *llvm::max_element(group, before);
      SmallPtrSet<Operation *, 4> members;
      for (memref::StoreOp store : group)
        members.insert(store);
      // The byte is written where the last of them was: nothing between
      // may touch memory but stores to other arguments (the kernels'
      // buffers do not alias: `llvm.noalias`), as the loop emitter's stores
      // of several outputs interleave.
      bool between = false;
      for (Operation *op = firstInBlock->getNextNode(); op != last && !between;
           op = op->getNextNode()) {
        auto store = dyn_cast<memref::StoreOp>(op);
        between = !members.contains(op) && !isMemoryEffectFree(op) &&
                  !(store && store.getMemRef() != packed &&
                    isa<BlockArgument>(store.getMemRef()));
      }
      if (between)
        continue;
      OpBuilder b(last);
      Location loc = last->getLoc();
      auto i8 = b.getI8Type();
      Value byte;
      for (auto [k, store] : llvm::enumerate(group)) {
        Value bits = store.getValueToStore();
        if (isa<FloatType>(element))
          bits =
              arith::BitcastOp::create(b, loc, b.getIntegerType(width), bits);
        Value placed = arith::ExtUIOp::create(b, loc, i8, bits);
        if (k)
          placed = arith::ShLIOp::create(
              b, loc, placed,
              arith::ConstantIntOp::create(b, loc, i8, k * width));
        byte = byte ? arith::OrIOp::create(b, loc, byte, placed).getResult()
                    : placed;
      }
      Value at = arith::DivUIOp::create(
          b, loc, x, arith::ConstantIndexOp::create(b, loc, perByte));
      wholeBytes.insert(
          memref::StoreOp::create(b, loc, byte, packed, ValueRange{at}));
      for (memref::StoreOp store : group)
        store->erase();
    }
  }

  /// Replaces `op` (an access of the unpacked buffer) by accesses of the
  /// packed one.
  LogicalResult rewrite(Operation *op) {
    if (wholeBytes.contains(op))
      return success();
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      locate(b, loc, load.getIndices().front());
      Value byte = memref::LoadOp::create(b, loc, packed, byteIndex);
      load.replaceAllUsesWith(extract(b, loc, byte));
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      locate(b, loc, store.getIndices().front());
      update(b, loc, [&](OpBuilder &, Location, Value) {
        return store.getValueToStore();
      });
    } else if (auto rmw = dyn_cast<memref::AtomicRMWOp>(op)) {
      locate(b, loc, rmw.getIndices().front());
      arith::AtomicRMWKind kind = rmw.getKind();
      Value byte = update(b, loc, [&](OpBuilder &nb, Location nloc, Value old) {
        if (kind == arith::AtomicRMWKind::assign)
          return rmw.getValue();
        return arith::getReductionOp(kind, nb, nloc, old, rmw.getValue());
      });
      // Both yield the value memory held before (the byte's, here).
      rmw.replaceAllUsesWith(extract(b, loc, byte));
    } else if (auto rmw = dyn_cast<memref::GenericAtomicRMWOp>(op)) {
      locate(b, loc, rmw.getIndices().front());
      Value byte = update(b, loc, [&](OpBuilder &nb, Location, Value old) {
        // The original body, on the element's old value.
        IRMapping map;
        map.map(rmw.getCurrentValue(), old);
        Value yielded;
        for (Operation &inner : rmw.getBody()->getOperations()) {
          if (auto yield = dyn_cast<memref::AtomicYieldOp>(inner)) {
            yielded = map.lookupOrDefault(yield.getResult());
            break;
          }
          nb.clone(inner, map);
        }
        return yielded;
      });
      rmw.replaceAllUsesWith(extract(b, loc, byte));
    } else if (isa<func::CallOp>(op)) {
      // Passed on to a function that packs it too (checked by
      // packArguments).
      return success();
    } else {
      return op->emitError("hlo-lower-sub-byte-buffers: a buffer of ")
             << width << "-bit elements can only be loaded and stored";
    }
    op->erase();
    return success();
  }

private:
  /// Sets the byte index and the element's shift (i8) for element `index`.
  void locate(OpBuilder &b, Location loc, Value index) {
    int64_t perByte = 8 / width;
    auto constant = [&](int64_t v) {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    byteIndex = arith::DivUIOp::create(b, loc, index, constant(perByte));
    Value within = arith::RemUIOp::create(b, loc, index, constant(perByte));
    Value bit = arith::MulIOp::create(b, loc, within, constant(width));
    shift = arith::IndexCastUIOp::create(b, loc, b.getI8Type(), bit);
  }

  /// The element at `shift` of `byte`, as a value of the element type.
  Value extract(OpBuilder &b, Location loc, Value byte) {
    Value bits =
        arith::TruncIOp::create(b, loc, b.getIntegerType(width),
                                arith::ShRUIOp::create(b, loc, byte, shift));
    if (isa<FloatType>(element))
      return arith::BitcastOp::create(b, loc, element, bits);
    return bits;
  }

  /// Replaces the element's bits by those of `compute(old element)`, in one
  /// atomic update of its byte; returns the byte memory held before.
  Value update(OpBuilder &b, Location loc,
               function_ref<Value(OpBuilder &, Location, Value)> compute) {
    auto i8 = b.getI8Type();
    Value ones = arith::ConstantIntOp::create(b, loc, i8, (1 << width) - 1);
    Value keep = arith::XOrIOp::create(
        b, loc, arith::ShLIOp::create(b, loc, ones, shift),
        arith::ConstantIntOp::create(b, loc, i8, -1));
    auto rmw = memref::GenericAtomicRMWOp::create(b, loc, packed,
                                                  ValueRange{byteIndex});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(rmw.getBody());
    Value old = rmw.getCurrentValue();
    Value value = compute(b, loc, extract(b, loc, old));
    if (isa<FloatType>(element))
      value = arith::BitcastOp::create(b, loc, b.getIntegerType(width), value);
    Value placed = arith::ShLIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, i8, value), shift);
    Value merged = arith::OrIOp::create(
        b, loc, arith::AndIOp::create(b, loc, old, keep), placed);
    memref::AtomicYieldOp::create(b, loc, merged);
    return rmw.getResult();
  }

  Value packed;
  Type element;
  unsigned width;
  Value byteIndex, shift;
  /// The plain stores of whole bytes (storeWholeBytes), already packed.
  SmallPtrSet<Operation *, 8> wholeBytes;
};

/// Packs the sub-byte buffer arguments of `func`.
LogicalResult packArguments(FunctionOpInterface func) {
  if (func.isExternal())
    return success();
  Block &entry = func.getFunctionBody().front();
  bool changed = false;
  for (BlockArgument arg : entry.getArguments()) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || !thunk::isPackedElementType(type.getElementType()))
      continue;
    Type element = type.getElementType();
    unsigned width = element.getIntOrFloatBitWidth();
    auto fail = [&](const Twine &why) {
      return func.emitError("hlo-lower-sub-byte-buffers: argument ")
             << arg.getArgNumber() << " (" << type << "): " << why;
    };
    if (type.getRank() != 1 || !type.getLayout().isIdentity() ||
        !type.hasStaticShape())
      return fail("only static one-dimensional buffers are packed");
    int64_t bytes = llvm::divideCeil(type.getNumElements() * width, 8);
    auto packedType =
        MemRefType::get({bytes}, IntegerType::get(func.getContext(), 8),
                        MemRefLayoutAttrInterface(), type.getMemorySpace());
    // Calls in the module pass the buffer on from an argument of their
    // caller, packed too; a call that passes it to another function gives
    // it where that function's argument packs it too.
    if (std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(
            func.getOperation(), func->getParentOp())) {
      for (const SymbolTable::SymbolUse &use : *uses) {
        auto call = dyn_cast<func::CallOp>(use.getUser());
        auto from =
            call ? dyn_cast<BlockArgument>(call.getOperand(arg.getArgNumber()))
                 : BlockArgument();
        if (!from || !isa<FunctionOpInterface>(from.getOwner()->getParentOp()))
          return fail("the function is called with a buffer that is not "
                      "its caller's argument: it would not be packed");
      }
    }
    for (Operation *user : arg.getUsers()) {
      auto call = dyn_cast<func::CallOp>(user);
      if (!call)
        continue;
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      for (OpOperand &operand : call->getOpOperands()) {
        if (operand.get() != arg)
          continue;
        // The callee's argument, packed already or not yet.
        Type taken = callee && !callee.isExternal()
                         ? callee.getArgumentTypes()[operand.getOperandNumber()]
                         : Type();
        if (taken != type && taken != packedType)
          return fail("passed to a function that does not take it as the "
                      "same buffer");
      }
    }
    arg.setType(packedType);
    PackedAccess access(arg, element);
    access.storeWholeBytes();
    for (Operation *user : llvm::make_early_inc_range(arg.getUsers()))
      if (failed(access.rewrite(user)))
        return failure();
    changed = true;
  }
  if (changed)
    func.setType(FunctionType::get(func.getContext(), entry.getArgumentTypes(),
                                   func.getResultTypes()));
  return success();
}

struct LowerSubByteBuffersPass
    : hlo::impl::HloLowerSubByteBuffersBase<LowerSubByteBuffersPass> {
  void runOnOperation() override {
    Operation *top = getOperation();
    WalkResult result = top->walk([&](FunctionOpInterface func) {
      // Kernels, host functions and the functions they call.
      auto hostFunc = dyn_cast<func::FuncOp>(func.getOperation());
      if (!isa<gpu::GPUFuncOp>(func.getOperation()) &&
          !(hostFunc && (hostFunc.isPublic() ||
                         !SymbolTable::symbolKnownUseEmpty(hostFunc, top))))
        return WalkResult::advance();
      return failed(packArguments(func)) ? WalkResult::interrupt()
                                         : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
