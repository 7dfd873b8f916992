//===- HorizontalLoopFusion.cpp - small independent kernels as one --------===//
//
// XLA's GPU HorizontalLoopFusion. Small kernels are bound by their launch
// latency; independent ones that feed the same instruction can run as one.
// For each instruction (last first, new fusions revisited), the kLoop
// fusions and elementwise ops among its operands that only it (or the
// computation's root) reads are sorted (output element type, number of
// outputs, instruction count, output size) and cut into spans of equal
// output type and count (at most 32 outputs per span, 64 for plain ops, and
// 4000 bytes of kernel parameters at 8 bytes per operand or output):
//
//  1. spans of equal output shapes become one kLoop fusion whose root tuple
//     holds every output (fusion by fusion);
//  2. what is left (any shapes, parameters not shared between candidates)
//     becomes one kInput fusion that flattens each output to rank 1,
//     concatenates the i-th outputs of all candidates and returns slices of
//     the concatenations (XLA's sliced input fusion).
//
// The users read get-tuple-elements, bitcast back to the output shape
// when it is not of rank 1 (as XLA does, even where the shape is the same).
//
//===----------------------------------------------------------------------===//

#include "FusionUtils.h"
#include "GpuFusible.h"
#include "ReductionUtils.h"
#include "TransformUtils.h"

#include "Hlo/Analysis/GpuLatencyEstimator.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuFusionPasses.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

#include <tuple>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOHORIZONTALLOOPFUSION
#include "Hlo/Transforms/GpuFusionPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The order of XLA's PrimitiveType enum for the common element types (the
/// sort key of the candidates); others after them.
static int primitiveTypeOrder(Type t) {
  if (t.isInteger(1))
    return 1;
  if (auto i = dyn_cast<IntegerType>(t)) {
    int base = i.isUnsigned() ? 6 : 2;
    switch (i.getWidth()) {
    case 8:
      return base;
    case 16:
      return base + 1;
    case 32:
      return base + 2;
    case 64:
      return base + 3;
    default:
      return 100 + i.getWidth();
    }
  }
  if (t.isF16())
    return 10;
  if (t.isF32())
    return 11;
  if (t.isF64())
    return 12;
  if (t.isBF16())
    return 16;
  if (auto c = dyn_cast<ComplexType>(t))
    return c.getElementType().isF32() ? 15 : 18;
  return 200;
}

static Operation *latestNonGteAncestor(Value v) {
  Operation *def = v.getDefiningOp();
  while (auto gte = dyn_cast_or_null<GetTupleElementOp>(def))
    def = gte.getOperand().getDefiningOp();
  return def;
}

static bool isConsumerTheOnlyNonRootUser(Operation *op, Operation *consumer,
                                         Operation *root) {
  return llvm::all_of(op->getUsers(), [&](Operation *user) {
    if (isa<GetTupleElementOp>(user))
      return isConsumerTheOnlyNonRootUser(user, consumer, root);
    return user == consumer || user == root;
  });
}

namespace {

/// The pass's work on one module.
struct HorizontalLoopFusionImpl {
  HorizontalLoopFusionImpl(ModuleOp module) : module(module) {}

  ModuleOp module;
  int64_t numHorizontalFusions = 0;
  bool changed = false;
  ModuleOp getOperation() { return module; }
  MLIRContext &getContext() { return *module.getContext(); }

  SymbolTableCollection tables;
  SymbolTable *symbols = nullptr;
  std::unique_ptr<GpuFusible> fusible;
  DenseSet<Operation *> touched;
  DenseSet<Operation *> erased;

  void run() {
    ModuleOp module = getOperation();
    symbols = &tables.getSymbolTable(module);
    fusible = std::make_unique<GpuFusible>(tables, getSelectedGpuDevice(),
                                           /*maxOperands=*/96);
    SmallVector<ComputationOp> comps = getFusibleComputations(module, *symbols);
    for (ComputationOp comp : comps)
      fuseComputation(comp);
    llvm::StringMap<unsigned> suffixes;
    for (ComputationOp comp : comps)
      for (auto fusion : comp.getBody().front().getOps<FusionOp>())
        if (touched.contains(fusion))
          nameFusion(fusion, *symbols, tables, suffixes);
  }

  /// The outputs of a candidate (the op's result, or a fusion's outputs).
  SmallVector<Value> outputsOf(Operation *op) {
    if (auto fusion = dyn_cast<FusionOp>(op))
      return getFusionOutputs(fusion, tables);
    return {op->getResult(0)};
  }

  /// XLA's HasOnlyRowMajorLayout: the fused outputs are flattened in
  /// logical order, which is their physical order only in the default
  /// layout; every array of `op` (of its fused computation) must have it.
  bool hasOnlyRowMajorLayout(Operation *op) {
    auto isRowMajor = [](Type t) {
      return !isa<RankedTensorType>(t) || hasDefaultLayout(t);
    };
    auto fusion = dyn_cast<FusionOp>(op);
    if (!fusion)
      return llvm::all_of(op->getResultTypes(), isRowMajor);
    Block *body = getFusedBody(fusion, tables);
    if (!body || !llvm::all_of(body->getArgumentTypes(), isRowMajor))
      return false;
    for (Operation &inner : *body)
      if (!llvm::all_of(inner.getResultTypes(), isRowMajor))
        return false;
    return true;
  }

  /// XLA's IsFusibleCandidate, and (ours) not a reader of a collective or
  /// an asynchronous done: one horizontal kernel would wait for the last of
  /// the transfers its members read, undoing the latency-hiding
  /// scheduler's overlap (a data-parallel step's weight updates).
  bool isFusibleCandidate(Operation *op) {
    if (!fusible->isFusible(op) || !hasOnlyRowMajorLayout(op))
      return false;
    if (llvm::any_of(getDataOperands(op), [](Value v) {
          Operation *def = v.getDefiningOp();
          return def && (getAsyncStartOfDone(def) ||
                         isa<AllReduceOp, AllGatherOp, CollectivePermuteOp,
                             ReduceScatterOp, AllToAllOp>(def));
        }))
      return false;
    if (isElementwise(op) && !getDataOperands(op).empty())
      return true;
    if (!fusible->isLoopFusion(op))
      return false;
    SmallVector<Value> outputs = outputsOf(op);
    // Arrays only: a fusion whose root is a variadic op's tuple (a variadic
    // reduce-window in XLA's optimized dumps) is left alone.
    if (outputs.empty() || llvm::any_of(outputs, [](Value v) {
          return !isa<RankedTensorType>(v.getType());
        }))
      return false;
    if (isa<TupleType>(op->getResult(0).getType()) &&
        !onlyElementsRead(op->getResult(0)))
      return false;
    Type first = getElementTypeOrSelf(outputs.front().getType());
    return llvm::all_of(outputs, [&](Value v) {
      return getElementTypeOrSelf(v.getType()) == first;
    });
  }

  /// XLA's IsProfitableFusionCandidate: launch-latency bound.
  bool isProfitable(Operation *op, bool sliced) {
    int64_t shapeThreshold = sliced ? 128 * 2048 : 8192 * 8192;
    int64_t countThreshold = sliced ? 30 : 128;
    if (staticElementCount(outputsOf(op).front().getType()) > shapeThreshold)
      return false;
    return !isa<FusionOp>(op) ||
           fusible->instructionCount(op) <= countThreshold;
  }

  void fuseComputation(ComputationOp comp) {
    Block &block = comp.getBody().front();
    SmallVector<Operation *> stack;
    for (Operation &op : block)
      stack.push_back(&op);
    while (!stack.empty()) {
      Operation *consumer = stack.pop_back_val();
      if (erased.contains(consumer))
        continue;
      fuseConsumerOperands(consumer, /*sliced=*/false, stack);
      fuseConsumerOperands(consumer, /*sliced=*/true, stack);
    }
  }

  void fuseConsumerOperands(Operation *consumer, bool sliced,
                            SmallVector<Operation *> &stack) {
    Block *block = consumer->getBlock();
    // The root counts as a reader only when the return alone reads it.
    Operation *root = block->getTerminator()->getOperand(0).getDefiningOp();
    if (root && !root->hasOneUse())
      root = nullptr;
    llvm::SetVector<Operation *> all;
    for (Value v : getDataOperands(consumer)) {
      Operation *pred = latestNonGteAncestor(v);
      if (pred && pred->getBlock() == block && isFusibleCandidate(pred))
        all.insert(pred);
    }
    SmallVector<Operation *> candidates;
    for (Operation *op : all) {
      if (!isConsumerTheOnlyNonRootUser(op, consumer, root) ||
          !isProfitable(op, sliced))
        continue;
      // A parameter shared with another candidate could not alias the
      // output through the concatenation.
      if (sliced && llvm::any_of(getDataOperands(op), [&](Value v) {
            return isa<BlockArgument>(v) &&
                   llvm::any_of(v.getUsers(), [&](Operation *u) {
                     return u != op && all.contains(u);
                   });
          }))
        continue;
      candidates.push_back(op);
    }
    auto key = [&](Operation *op) {
      SmallVector<Value> outputs = outputsOf(op);
      return std::make_tuple(
          primitiveTypeOrder(getElementTypeOrSelf(outputs.front().getType())),
          outputs.size(), fusible->instructionCount(op),
          staticElementCount(outputs.front().getType()));
    };
    llvm::stable_sort(candidates, [&](Operation *a, Operation *b) {
      return key(a) < key(b);
    });

    size_t pos = 0;
    while (pos < candidates.size()) {
      size_t left = pos, right = pos;
      int64_t maxBatch = sliced || isa<FusionOp>(candidates[left]) ? 32 : 64;
      int64_t outputs = 0, ioSize = 0;
      SmallVector<Value> leftOutputs = outputsOf(candidates[left]);
      Type leftElement = getElementTypeOrSelf(leftOutputs.front().getType());
      for (; right < candidates.size(); ++right) {
        SmallVector<Value> rightOutputs = outputsOf(candidates[right]);
        if (getElementTypeOrSelf(rightOutputs.front().getType()) !=
                leftElement ||
            rightOutputs.size() != leftOutputs.size())
          break;
        auto l = cast<RankedTensorType>(leftOutputs.front().getType());
        auto r = cast<RankedTensorType>(rightOutputs.front().getType());
        if (!sliced && (l.getShape() != r.getShape() ||
                        getMinorToMajor(l) != getMinorToMajor(r)))
          break;
        outputs += rightOutputs.size();
        if (outputs >= maxBatch)
          break;
        ioSize +=
            getDataOperands(candidates[right]).size() + rightOutputs.size();
        if (ioSize * 8 >= 4000)
          break;
      }
      if (left == right)
        ++right;
      pos = right;
      if (right - left < 2)
        continue;
      fuse(ArrayRef(candidates).slice(left, right - left), sliced, stack);
    }
  }

  /// Replaces `span` by one horizontal fusion.
  void fuse(ArrayRef<Operation *> span, bool sliced,
            SmallVector<Operation *> &stack) {
    MLIRContext *ctx = &getContext();
    Operation *last = span.front();
    for (Operation *op : span)
      if (last->isBeforeInBlock(op))
        last = op;
    // What reads a candidate before the last one moves after the new
    // fusion (candidates do not read each other).
    llvm::SetVector<Operation *> toMoveSet;
    for (Operation *op : span)
      for (Operation *user : usersBefore(op, last))
        toMoveSet.insert(user);
    SmallVector<Operation *> toMove = toMoveSet.takeVector();
    llvm::sort(toMove, [](Operation *x, Operation *y) {
      return x->isBeforeInBlock(y);
    });
    // Plain ops become kLoop fusions of their own.
    SmallVector<FusionOp> fusions;
    for (Operation *op : span) {
      if (auto fusion = dyn_cast<FusionOp>(op)) {
        fusions.push_back(fusion);
        continue;
      }
      bool wasLast = op == last;
      erased.insert(op);
      FusionOp fusion = wrapInFusion(op, *symbols, tables,
                                     op->getParentOfType<ComputationOp>());
      fusions.push_back(fusion);
      if (wasLast)
        last = fusion;
    }

    // The fused computation: parameters param_<i>_<j>, each body copied.
    OpBuilder b(ctx);
    SmallVector<Value> operands;
    for (FusionOp fusion : fusions)
      llvm::append_range(operands, fusion.getInputs());
    auto comp = ComputationOp::create(
        b, UnknownLoc::get(ctx), "horizontally_fused_computation",
        b.getStringAttr("private"), b.getFunctionType({}, {}),
        /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr, /*entry=*/false,
        StringAttr());
    Block *body = new Block();
    comp.getBody().push_back(body);
    b.setInsertionPointToEnd(body);
    SmallVector<SmallVector<Value>> outputs;
    for (auto [i, fusion] : llvm::enumerate(fusions)) {
      Block *inner = getFusedBody(fusion, tables);
      IRMapping mapping;
      for (auto [j, arg] : llvm::enumerate(inner->getArguments()))
        mapping.map(arg, body->addArgument(
                             arg.getType(),
                             NameLoc::get(StringAttr::get(
                                 ctx, "param_" + Twine(i) + "_" + Twine(j)))));
      SmallVector<Value> innerOutputs = getFusionOutputs(fusion, tables);
      Operation *innerRoot =
          inner->getTerminator()->getOperand(0).getDefiningOp();
      bool tupleRoot = isa_and_nonnull<TupleOp>(innerRoot);
      for (Operation &op : inner->without_terminator())
        if (!(tupleRoot && &op == innerRoot))
          b.clone(op, mapping);
      SmallVector<Value> mapped;
      for (Value v : innerOutputs)
        mapped.push_back(mapping.lookupOrDefault(v));
      outputs.push_back(mapped);
    }
    size_t numOutputs = outputs.front().size();
    SmallVector<Value> rootOperands(numOutputs * fusions.size());
    if (!sliced) {
      for (size_t i = 0; i < numOutputs; ++i)
        for (size_t j = 0; j < fusions.size(); ++j)
          rootOperands[numOutputs * j + i] = outputs[j][i];
    } else {
      for (size_t i = 0; i < numOutputs; ++i) {
        SmallVector<Value> flat;
        for (size_t j = 0; j < fusions.size(); ++j) {
          Value v = outputs[j][i];
          auto type = cast<RankedTensorType>(v.getType());
          if (type.getRank() != 1) {
            auto flatType = RankedTensorType::get({type.getNumElements()},
                                                  type.getElementType());
            v = createInstruction(b,
                                  NameLoc::get(StringAttr::get(ctx, "reshape")),
                                  ReshapeOp::getOperationName(), flatType, v)
                    ->getResult(0);
          }
          flat.push_back(v);
        }
        Value concat =
            createInstruction(
                b, NameLoc::get(StringAttr::get(ctx, "concatenate")),
                ConcatenateOp::getOperationName(), Type(), flat,
                {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({0}))})
                ->getResult(0);
        int64_t start = 0;
        for (size_t j = 0; j < fusions.size(); ++j) {
          int64_t limit = start + staticElementCount(outputs[j][i].getType());
          auto slice = SliceAttr::get(ctx, {start}, {limit}, {1});
          rootOperands[numOutputs * j + i] =
              createInstruction(b, NameLoc::get(StringAttr::get(ctx, "slice")),
                                SliceOp::getOperationName(), Type(), concat,
                                {b.getNamedAttr("slice", slice)})
                  ->getResult(0);
          start = limit;
        }
      }
    }
    Operation *tuple =
        createInstruction(b, NameLoc::get(StringAttr::get(ctx, "tuple")),
                          TupleOp::getOperationName(), Type(), rootOperands);
    ReturnOp::create(b, UnknownLoc::get(ctx), tuple->getResult(0));
    Type resultType = tuple->getResult(0).getType();
    // The parameters' types are the fused computations' (which may leave
    // out the layouts their fusions' operands have).
    comp.setFunctionType(
        b.getFunctionType(body->getArgumentTypes(), {resultType}));
    symbols->insert(comp,
                    Block::iterator(last->getParentOfType<ComputationOp>()));

    // The fusion after the last candidate; users read its elements.
    b.setInsertionPointAfter(last);
    FusionKind kind = sliced ? FusionKind::kInput : FusionKind::kLoop;
    NamedAttribute attrs[] = {
        b.getNamedAttr("calls", FlatSymbolRefAttr::get(comp.getSymNameAttr())),
        b.getNamedAttr("kind", FusionKindAttr::get(ctx, kind))};
    auto fusion = cast<FusionOp>(createInstruction(
        b, NameLoc::get(StringAttr::get(ctx, "fusion")),
        FusionOp::getOperationName(), resultType, operands, attrs));
    setFusionConfig(fusion, kind);
    erased.erase(fusion);
    b.setInsertionPointAfter(fusion);
    int64_t id = 0;
    for (auto [j, old] : llvm::enumerate(fusions)) {
      SmallVector<Value> values;
      for (Value output : getFusionOutputs(old, tables)) {
        Value v =
            createInstruction(
                b, NameLoc::get(StringAttr::get(ctx, "get-tuple-element")),
                GetTupleElementOp::getOperationName(), Type(),
                fusion.getResult(),
                {b.getNamedAttr("index", b.getI64IntegerAttr(id++))})
                ->getResult(0);
        auto type = cast<RankedTensorType>(output.getType());
        if (type.getRank() != 1)
          v = createInstruction(
                  b, NameLoc::get(StringAttr::get(ctx, "bitcast")),
                  BitcastOp::getOperationName(), output.getType(), v)
                  ->getResult(0);
        values.push_back(v);
      }
      Value replacement =
          values.size() == 1
              ? values.front()
              : createInstruction(b,
                                  NameLoc::get(StringAttr::get(ctx, "tuple")),
                                  TupleOp::getOperationName(), Type(), values)
                    ->getResult(0);
      Operation *oldComp = getFusedBody(old, tables)->getParentOp();
      old.getResult().replaceAllUsesWith(replacement);
      fusible->invalidate(old);
      touched.erase(old);
      erased.insert(old);
      old->erase();
      symbols->erase(oldComp);
    }
    Operation *anchor = &*std::prev(b.getInsertionPoint());
    for (Operation *op : toMove) {
      op->moveAfter(anchor);
      anchor = op;
    }
    dedupOperands(fusion);
    touched.insert(fusion);
    stack.push_back(fusion);
    ++numHorizontalFusions;
    changed = true;
  }

  /// XLA's DeduplicateFusionOperands: one parameter per distinct operand.
  void dedupOperands(FusionOp fusion) {
    Block *body = getFusedBody(fusion, tables);
    DenseMap<Value, unsigned> first;
    llvm::BitVector drop(body->getNumArguments());
    for (auto [i, v] : llvm::enumerate(fusion.getInputs())) {
      auto [it, inserted] = first.try_emplace(v, i);
      if (!inserted) {
        body->getArgument(i).replaceAllUsesWith(body->getArgument(it->second));
        drop.set(i);
      }
    }
    if (drop.none())
      return;
    body->eraseArguments(drop);
    for (int i = drop.size() - 1; i >= 0; --i)
      if (drop.test(i))
        fusion.getInputsMutable().erase(i);
    auto comp = cast<ComputationOp>(body->getParentOp());
    comp.setFunctionType(FunctionType::get(
        &getContext(), body->getArgumentTypes(), comp.getResultTypes()));
  }
};

struct HorizontalLoopFusionPass
    : ChangeReportingPass<HorizontalLoopFusionPass,
                          hlo::impl::HloHorizontalLoopFusionBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    HorizontalLoopFusionImpl impl(getOperation());
    impl.run();
    changed = impl.changed;
    numHorizontalFusions += impl.numHorizontalFusions;
  }
};

} // namespace
