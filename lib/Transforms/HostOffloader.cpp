//===- HostOffloader.cpp - arrays moved to host memory --------------------===//
//
// XLA's HostOffloader (its "post-layout_assignment" pipeline). After
// hlo-convert-memory-placement-to-internal-annotations, JAX's offloading
// reads
//
//   h = f32[64,128]{1,0} custom-call(x), custom_call_target="MoveToHost"
//   t = (f32[64,128]{1,0}, ...) tuple(h, ...)
//   b = (f32[64,128]{1,0}, ...) opt-barrier(t)
//   g = f32[64,128]{1,0} get-tuple-element(b), index=0
//   d = f32[64,128]{1,0} custom-call(g), custom_call_target="MoveToDevice"
//
// and becomes, as in XLA,
//
//   h = f32[64,128]{1,0:S(5)} copy(x)
//   t = (f32[64,128]{1,0:S(5)}, ...) tuple(h, ...)
//   ...
//   d = f32[64,128]{1,0} copy(g)
//
// Which arrays live in host memory is a forward propagation over array
// positions (an SSA value and a node of its shape tree, numbered in
// pre-order): it starts at the moves to the host and at the ENTRY
// parameters the entry layout places there, and follows the instructions
// that only pass arrays on (tuple, get-tuple-element, bitcast, reshapes
// that are bitcasts, opt-barrier, add-dependency, domain, while loops'
// state, calls, conditionals) and the in-place dynamic-update-slice. A
// move read only as the update of dynamic-update-slices (JAX's offloaded
// scan outputs: `dynamic-update-slice(buffer, reshape(MoveToHost(x)), i)`)
// starts the propagation at those updates instead: the buffer lives in
// host memory and the update is written into it from the device.
//
// A position with several sources (a loop's state: its operand and its
// body's root; a callee's root; the in-place buffer) is in host memory
// when one source is; the others are copied into host memory where they
// enter (XLA creates an uninitialized host buffer for a scan's output; a
// copy of the initial value is as correct and costs one transfer). Readers
// of host arrays other than those instructions read a copy on the device,
// except dynamic-slice and slice, which read host memory in place (their
// results are on the device), as XLA's slices that end an offload do.
//
//===----------------------------------------------------------------------===//

#include "CudnnUtils.h"
#include "LayoutUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloMemoryAnnotations.h"
#include "Hlo/Transforms/HostOffloadPasses.h"

#include "llvm/ADT/MapVector.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOHOSTOFFLOADER
#include "Hlo/Transforms/HostOffloadPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// An array position: a value and a node of its shape tree.
using Position = std::pair<Value, unsigned>;

/// Shape-tree nodes of types, computed once per type.
class ShapeNodes {
public:
  unsigned count(Type type) {
    auto tuple = dyn_cast<TupleType>(type);
    if (!tuple)
      return 1;
    return starts(tuple).back();
  }
  /// The first node of element `i` of `tuple`.
  unsigned elementNode(TupleType tuple, unsigned i) { return starts(tuple)[i]; }
  /// Calls `fn` on each array leaf of `type` with its node.
  void forEachLeaf(Type type, function_ref<void(Type, unsigned)> fn,
                   unsigned base = 0) {
    auto tuple = dyn_cast<TupleType>(type);
    if (!tuple)
      return fn(type, base);
    for (auto [i, element] : llvm::enumerate(tuple.getTypes()))
      forEachLeaf(element, fn, base + elementNode(tuple, i));
  }
  Type typeAt(Type type, unsigned node) {
    while (auto tuple = dyn_cast<TupleType>(type)) {
      if (node == 0)
        return type;
      ArrayRef<unsigned> s = starts(tuple);
      unsigned i = llvm::upper_bound(s, node) - s.begin() - 1;
      node -= s[i];
      type = tuple.getType(i);
    }
    return type;
  }
  /// The shape index of `node` in `type`, as XLA prints it (`{1,0}`).
  std::string indexAt(Type type, unsigned node) {
    std::string index;
    while (auto tuple = dyn_cast<TupleType>(type)) {
      if (node == 0)
        break;
      ArrayRef<unsigned> s = starts(tuple);
      unsigned i = llvm::upper_bound(s, node) - s.begin() - 1;
      index += (index.empty() ? "" : ",") + std::to_string(i);
      node -= s[i];
      type = tuple.getType(i);
    }
    return "{" + index + "}";
  }
  /// `type` with the array at `node` replaced by `fn` of it.
  Type rewriteAt(Type type, unsigned node, function_ref<Type(Type)> fn) {
    auto tuple = dyn_cast<TupleType>(type);
    if (!tuple)
      return fn(type);
    ArrayRef<unsigned> s = starts(tuple);
    unsigned i = llvm::upper_bound(s, node) - s.begin() - 1;
    SmallVector<Type> elements(tuple.getTypes());
    elements[i] = rewriteAt(elements[i], node - s[i], fn);
    return TupleType::get(type.getContext(), elements);
  }

private:
  /// Element start nodes of `tuple`, then its node count.
  ArrayRef<unsigned> starts(TupleType tuple) {
    auto it = cache.find(tuple);
    if (it != cache.end())
      return it->second;
    SmallVector<unsigned> s{1};
    for (Type element : tuple.getTypes())
      s.push_back(s.back() + count(element));
    return cache[tuple] = std::move(s);
  }
  DenseMap<Type, SmallVector<unsigned>> cache;
};

/// Whether `v` is read, through bitcasts and copies only, as the update of
/// dynamic-update-slices, which it then collects.
bool onlyUpdatesSlices(Value v, SmallVectorImpl<DynamicUpdateSliceOp> &dus) {
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    auto reshape = dyn_cast<ReshapeOp>(user);
    if (isa<BitcastOp, CopyOp>(user) ||
        (reshape && reshapeIsBitcast(
                        cast<RankedTensorType>(reshape.getOperand().getType()),
                        cast<RankedTensorType>(reshape.getType())))) {
      if (!onlyUpdatesSlices(user->getResult(0), dus))
        return false;
      continue;
    }
    auto update = dyn_cast<DynamicUpdateSliceOp>(user);
    if (!update || use.getOperandNumber() != 1)
      return false;
    dus.push_back(update);
  }
  return !v.use_empty();
}

struct HostOffloaderPass
    : ChangeReportingPass<HostOffloaderPass, hlo::impl::HloHostOffloaderBase> {
  void run();

private:
  /// Places the arrays of `moves` and of the entry layout's host memory
  /// space in host memory (the pass but for MoveToDevice calls of device
  /// arrays).
  LogicalResult offload(ModuleOp module, ComputationOp entry,
                        FunctionType layout, ArrayRef<CustomCallOp> moves);
  /// Calls `fn` on each position that operand `operand` of `user` at `node`
  /// passes on to; false if `user` does not pass that operand on.
  bool forEachFlow(Operation *user, unsigned operand, unsigned node,
                   function_ref<void(Value, unsigned)> fn);
  /// `v` with the arrays at `nodes` copied to the type `leafType` gives.
  Value convert(OpBuilder &b, Location loc, Value v, unsigned base,
                ArrayRef<unsigned> nodes, function_ref<Type(unsigned)> leaf);

  ShapeNodes shapes;
  SymbolTable *symbols = nullptr;
  /// The while, call and conditional ops running each computation.
  DenseMap<Operation *, SmallVector<Operation *, 1>> callers;
};

bool HostOffloaderPass::forEachFlow(Operation *user, unsigned operand,
                                    unsigned node,
                                    function_ref<void(Value, unsigned)> fn) {
  if (operand >= getDataOperands(user).size())
    return false;
  auto callee = [&](StringRef name) {
    return symbols->lookup<ComputationOp>(name);
  };
  if (auto tuple = dyn_cast<TupleOp>(user)) {
    fn(tuple.getResult(),
       shapes.elementNode(cast<TupleType>(tuple.getType()), operand) + node);
    return true;
  }
  if (auto gte = dyn_cast<GetTupleElementOp>(user)) {
    auto tuple = cast<TupleType>(gte.getOperand().getType());
    unsigned index = gte.getIndex();
    unsigned start = shapes.elementNode(tuple, index);
    if (node >= start && node < start + shapes.count(tuple.getType(index)))
      fn(gte.getResult(), node - start);
    return true;
  }
  if (isa<BitcastOp, OptimizationBarrierOp, DomainOp>(user) ||
      (isa<AddDependencyOp>(user) && operand == 0)) {
    fn(user->getResult(0), node);
    return true;
  }
  if (auto reshape = dyn_cast<ReshapeOp>(user)) {
    if (!reshapeIsBitcast(
            cast<RankedTensorType>(reshape.getOperand().getType()),
            cast<RankedTensorType>(reshape.getType())))
      return false;
    fn(reshape.getResult(), node);
    return true;
  }
  if (isa<DynamicUpdateSliceOp>(user) && operand == 0) {
    fn(user->getResult(0), node);
    return true;
  }
  if (auto loop = dyn_cast<WhileOp>(user)) {
    fn(callee(loop.getBody()).getArgument(0), node);
    fn(callee(loop.getCondition()).getArgument(0), node);
    fn(loop->getResult(0), node);
    return true;
  }
  if (auto call = dyn_cast<CallOp>(user)) {
    fn(callee(call.getToApply()).getArgument(operand), node);
    return true;
  }
  if (auto cond = dyn_cast<ConditionalOp>(user)) {
    if (operand == 0)
      return false;
    fn(callee(cond.getBranches()[operand - 1].getValue()).getArgument(0), node);
    return true;
  }
  if (isa<ReturnOp>(user)) {
    Operation *computation = user->getParentOp();
    for (Operation *caller : callers.lookup(computation)) {
      auto loop = dyn_cast<WhileOp>(caller);
      if (loop &&
          loop.getCondition() == cast<ComputationOp>(computation).getSymName())
        continue;
      if (loop) {
        ComputationOp body = callee(loop.getBody());
        fn(body.getArgument(0), node);
        fn(callee(loop.getCondition()).getArgument(0), node);
      }
      fn(caller->getResult(0), node);
    }
    return true;
  }
  return false;
}

Value HostOffloaderPass::convert(OpBuilder &b, Location loc, Value v,
                                 unsigned base, ArrayRef<unsigned> nodes,
                                 function_ref<Type(unsigned)> leaf) {
  auto tuple = dyn_cast<TupleType>(v.getType());
  unsigned end = base + shapes.count(v.getType());
  if (llvm::none_of(nodes, [&](unsigned n) { return n >= base && n < end; }))
    return v;
  if (!tuple) {
    ++numCopies;
    return createCopy(b, loc, v, leaf(base));
  }
  SmallVector<Value> elements;
  for (unsigned i = 0, e = tuple.size(); i < e; ++i)
    elements.push_back(convert(b, loc, createGte(b, loc, v, i),
                               base + shapes.elementNode(tuple, i), nodes,
                               leaf));
  return createInferred<TupleOp>(
             b, NameLoc::get(b.getStringAttr("tuple"), derivedLoc(loc)),
             elements)
      ->getResult(0);
}

void HostOffloaderPass::run() {
  ModuleOp module = getOperation();
  ComputationOp entry;
  for (auto comp : module.getOps<ComputationOp>())
    if (comp->hasAttr("entry"))
      entry = comp;
  if (!entry)
    return;
  SmallVector<CustomCallOp> moves;
  module.walk([&](CustomCallOp call) {
    if (call.getCustomCallTarget() == kMoveToHostTarget)
      moves.push_back(call);
  });
  auto entryLayout =
      module->getAttrOfType<TypeAttr>("hlo.entry_computation_layout");
  auto layout = entryLayout ? dyn_cast<FunctionType>(entryLayout.getValue())
                            : FunctionType();
  if (layout && (layout.getNumInputs() != entry.getNumArguments() ||
                 layout.getNumResults() != 1))
    layout = FunctionType();
  auto inHostMemory = [&](Type type) {
    bool host = false;
    shapes.forEachLeaf(type, [&](Type leaf, unsigned) {
      host |= getMemorySpace(leaf) == kHostMemorySpace;
    });
    return host;
  };
  bool hostLayout =
      llvm::any_of(entry.getFunctionType().getInputs(), inHostMemory) ||
      (layout && (llvm::any_of(layout.getInputs(), inHostMemory) ||
                  llvm::any_of(layout.getResults(), inHostMemory)));
  if ((!moves.empty() || hostLayout) &&
      failed(offload(module, entry, layout, moves)))
    return signalPassFailure();
  // MoveToDevice calls of device arrays move nothing.
  module.walk([&](CustomCallOp move) {
    if (move.getCustomCallTarget() != kMoveToDeviceTarget)
      return;
    OperandRange in = getDataOperands(move);
    if (in.size() != 1 || in[0].getType() != move->getResult(0).getType())
      return;
    move->getResult(0).replaceAllUsesWith(in[0]);
    move.erase();
    changed = true;
  });
}

LogicalResult HostOffloaderPass::offload(ModuleOp module, ComputationOp entry,
                                         FunctionType layout,
                                         ArrayRef<CustomCallOp> moves) {
  SymbolTable table(module);
  symbols = &table;
  callers.clear();
  module.walk([&](Operation *op) {
    if (auto loop = dyn_cast<WhileOp>(op)) {
      callers[symbols->lookup(loop.getBody())].push_back(op);
      callers[symbols->lookup(loop.getCondition())].push_back(op);
    } else if (auto call = dyn_cast<CallOp>(op)) {
      callers[symbols->lookup(call.getToApply())].push_back(op);
    } else if (auto cond = dyn_cast<ConditionalOp>(op)) {
      for (FlatSymbolRefAttr branch : cond.getBranches())
        callers[symbols->lookup(branch.getValue())].push_back(op);
    }
  });
  changed = true;

  // The starts: moves to the host and host parameters, each with the
  // instruction named in diagnostics.
  llvm::MapVector<Position, Operation *> host;
  SmallVector<Position> work;
  auto seed = [&](Position p, Operation *origin) {
    if (host.insert({p, origin}).second)
      work.push_back(p);
  };
  for (CustomCallOp move : moves) {
    OperandRange in = getDataOperands(move);
    if (in.size() != 1 || in[0].getType() != move->getResult(0).getType() ||
        !isa<RankedTensorType>(in[0].getType()))
      return move.emitError("custom call ")
             << kMoveToHostTarget
             << " must have exactly one array operand of its result's type";
    Value x = in[0];
    SmallVector<DynamicUpdateSliceOp> updates;
    OpBuilder b(move);
    if (onlyUpdatesSlices(move->getResult(0), updates)) {
      move->getResult(0).replaceAllUsesWith(x);
      for (DynamicUpdateSliceOp dus : updates)
        seed({dus.getResult(), 0}, dus);
    } else {
      Value copy = createCopy(b, move.getLoc(), x,
                              withMemorySpace(x.getType(), kHostMemorySpace));
      ++numCopies;
      move->getResult(0).replaceAllUsesWith(copy);
      seed({copy, 0}, copy.getDefiningOp());
    }
    move.erase();
  }
  for (BlockArgument arg : entry.getArguments())
    shapes.forEachLeaf(layout ? layout.getInput(arg.getArgNumber())
                              : arg.getType(),
                       [&](Type leaf, unsigned node) {
                         if (getMemorySpace(leaf) == kHostMemorySpace)
                           seed({arg, node}, entry);
                       });

  // Everything the starts reach.
  while (!work.empty()) {
    Position p = work.pop_back_val();
    Operation *origin = host.lookup(p);
    for (OpOperand &use : p.first.getUses())
      forEachFlow(use.getOwner(), use.getOperandNumber(), p.second,
                  [&](Value v, unsigned node) {
                    seed({v, node}, origin);
                  });
  }

  // ENTRY's outputs: host arrays only where the entry layout says so, which
  // may also ask for host outputs the program computes on the device.
  auto ret = cast<ReturnOp>(entry.front().getTerminator());
  Value root = ret.getRoot();
  Type resultLayout = layout ? layout.getResult(0) : root.getType();
  // (user, operand) -> the nodes to copy into host memory there.
  llvm::MapVector<std::pair<Operation *, unsigned>, SmallVector<unsigned>>
      toHost;
  bool misplaced = false;
  shapes.forEachLeaf(resultLayout, [&](Type leaf, unsigned node) {
    bool wanted = getMemorySpace(leaf) == kHostMemorySpace;
    auto it = host.find({root, node});
    if (it != host.end() && !wanted && !misplaced) {
      misplaced = true;
      it->second->emitError("array moved to host memory here is returned "
                            "from the entry computation but the entry "
                            "computation layout does not place its output ")
          << shapes.indexAt(resultLayout, node) << " in host memory (S("
          << kHostMemorySpace << "))";
    }
    if (wanted && it == host.end())
      toHost[{ret, 0}].push_back(node);
  });
  if (misplaced)
    return failure();

  // Where a device array meets a host position (a loop state, a callee's
  // root, an in-place buffer), it is copied into host memory.
  module.walk([&](Operation *op) {
    if (!isa<WhileOp, CallOp, ConditionalOp, ReturnOp, DynamicUpdateSliceOp>(
            op))
      return;
    for (unsigned k = 0, e = getDataOperands(op).size(); k < e; ++k) {
      Value operand = op->getOperand(k);
      shapes.forEachLeaf(operand.getType(), [&](Type, unsigned node) {
        if (host.contains({operand, node}))
          return;
        bool meets = false;
        forEachFlow(op, k, node, [&](Value v, unsigned n) {
          meets |= host.contains({v, n});
        });
        if (meets)
          toHost[{op, k}].push_back(node);
      });
    }
  });

  // The device types, then the host positions' types.
  DenseMap<Value, Type> deviceType;
  for (auto &[p, origin] : host) {
    deviceType.try_emplace(p.first, p.first.getType());
    p.first.setType(shapes.rewriteAt(p.first.getType(), p.second, [](Type t) {
      return withMemorySpace(t, kHostMemorySpace);
    }));
    ++numHostArrays;
  }
  for (auto &[use, nodes] : toHost) {
    auto [user, k] = use;
    OpBuilder b(user);
    Value v = user->getOperand(k);
    user->setOperand(
        k, convert(b, user->getLoc(), v, 0, nodes, [&](unsigned node) {
          return withMemorySpace(shapes.typeAt(v.getType(), node),
                                 kHostMemorySpace);
        }));
  }

  // Readers of host arrays: MoveToDevice becomes a copy to the device;
  // slices read in place; the rest read a device copy.
  llvm::MapVector<std::pair<Operation *, unsigned>, SmallVector<unsigned>>
      toDevice;
  SmallVector<CustomCallOp> toErase;
  for (auto &[p, origin] : host) {
    auto [v, node] = p;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      unsigned k = use.getOperandNumber();
      if (k >= getDataOperands(user).size() || user == ret.getOperation() ||
          forEachFlow(user, k, node, [](Value, unsigned) {}) ||
          (isa<DynamicSliceOp, SliceOp>(user) && k == 0) || isa<CopyOp>(user))
        continue;
      auto call = dyn_cast<CustomCallOp>(user);
      if (call && call.getCustomCallTarget() == kMoveToDeviceTarget &&
          node == 0) {
        toErase.push_back(cast<CustomCallOp>(user));
        continue;
      }
      toDevice[{user, k}].push_back(node);
    }
  }
  for (auto &[use, nodes] : toDevice) {
    auto [user, k] = use;
    OpBuilder b(user);
    Value v = user->getOperand(k);
    Type device = deviceType.lookup(v);
    user->setOperand(
        k, convert(b, user->getLoc(), v, 0, nodes,
                   [&](unsigned node) { return shapes.typeAt(device, node); }));
  }
  for (CustomCallOp move : toErase) {
    OpBuilder b(move);
    Value x = getDataOperands(move)[0];
    ++numCopies;
    move->getResult(0).replaceAllUsesWith(
        createCopy(b, move.getLoc(), x, move->getResult(0).getType()));
    move.erase();
  }

  // Signatures follow their parameters' and roots' new types.
  for (auto comp : module.getOps<ComputationOp>()) {
    auto ret = cast<ReturnOp>(comp.front().getTerminator());
    auto type =
        FunctionType::get(&getContext(), comp.front().getArgumentTypes(),
                          {ret.getRoot().getType()});
    if (type != comp.getFunctionType())
      comp.setFunctionType(type);
  }
  return success();
}

} // namespace
