//===- SoftmaxRewriterTriton.cpp - normalization diamonds to Triton -------===//
//
// XLA's GPU SoftmaxRewriterTriton (XLA 0.10.2): each normalization
// "diamond" (a producer P, a row reduction of P or of a trivial chain from
// P, a broadcast of it back along the row, and an elementwise binary root
// combining the P side with the broadcast) becomes a kCustom `__triton`
// fusion. Diamonds are matched on the unchanged module first, then fused in
// reverse program order (the root of one diamond may be the producer of the
// next). Priority fusion merges adjacent diamonds and their neighbours
// later. Work is linear in the module: each match walks single-user chains.
//
//===----------------------------------------------------------------------===//

#include "ReductionUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "TritonFusionUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuFusionPasses.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSOFTMAXREWRITERTRITON
#include "Hlo/Transforms/GpuFusionPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// One matched diamond: its root and producer, and the instructions the
/// match walked through (the ones the fusion takes).
struct Diamond {
  Operation *root;
  Value producer;
  llvm::SetVector<Operation *> walked;
};

class DiamondMatcher {
public:
  DiamondMatcher(SymbolTableCollection &tables, int64_t maxRow)
      : tables(tables), maxRow(maxRow) {}

  /// The diamond rooted at `root`, if it is one.
  std::optional<Diamond> match(Operation *root);

private:
  SymbolTableCollection &tables;
  int64_t maxRow;

  static unsigned numUsers(Operation *op) {
    llvm::SmallPtrSet<Operation *, 4> users(op->getUsers().begin(),
                                            op->getUsers().end());
    return users.size();
  }
  static bool isParameter(Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && isa<ComputationOp>(arg.getOwner()->getParentOp());
  }
  /// XLA's IsBroadcastOfScalarConstant or IsBroadcastOfParameter; also
  /// through bitcasts and reshapes of a broadcast of a scalar constant
  /// (this project's simplifier leaves `bitcast(broadcast(c))` where XLA's
  /// has `broadcast(c)`).
  static bool isSplat(Value v) {
    while (isa_and_nonnull<BitcastOp, ReshapeOp>(v.getDefiningOp()) &&
           getDataOperands(v.getDefiningOp())[0].getDefiningOp<BroadcastOp>()) {
      v = getDataOperands(v.getDefiningOp())[0];
      auto in = getDataOperands(v.getDefiningOp())[0];
      auto type = dyn_cast<RankedTensorType>(in.getType());
      if (!in.getDefiningOp<ConstantOp>() || !type || type.getRank() != 0)
        return false;
    }
    auto broadcast = v.getDefiningOp<BroadcastOp>();
    if (!broadcast)
      return false;
    Value in = getDataOperands(broadcast)[0];
    if (isParameter(in))
      return true;
    auto constant = in.getDefiningOp<ConstantOp>();
    auto type = dyn_cast<RankedTensorType>(in.getType());
    return constant && type && type.getRank() == 0;
  }
  bool isTriviallyFusible(Value v);
  /// XLA's ChooseOperandForFusionProcessing: the first non-splat operand.
  static Value chooseOperand(Operation *op) {
    OperandRange operands = getDataOperands(op);
    if (operands.size() > 1 && isSplat(operands[0]))
      return operands[1];
    return operands[0];
  }
  /// XLA's TrivialEdge: from `v` through trivially fusible ops (recorded in
  /// `walked`) to the first value `stop` accepts.
  std::optional<Value> trivialEdge(Value v, function_ref<bool(Value)> stop,
                                   llvm::SetVector<Operation *> &walked);
  bool isTriviallyConnected(Value producer, Value consumer,
                            llvm::SetVector<Operation *> &walked);
};

} // namespace

bool DiamondMatcher::isTriviallyFusible(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op || op->getNumResults() != 1 || numUsers(op) > 1 ||
      hasControlPredecessors(op) || isControlPredecessor(op) ||
      !hasDefaultLayout(v.getType()))
    return false;
  if (isa<BitcastOp>(op))
    return true;
  if (!isElementwise(op))
    return false;
  OperandRange operands = getDataOperands(op);
  if (operands.size() == 1)
    return isTritonSupportedInstruction(op, tables);
  if (operands.size() == 2 && (operands[0] == operands[1] ||
                               isSplat(operands[0]) != isSplat(operands[1])))
    return isTritonSupportedInstruction(op, tables);
  return false;
}

std::optional<Value>
DiamondMatcher::trivialEdge(Value v, function_ref<bool(Value)> stop,
                            llvm::SetVector<Operation *> &walked) {
  while (!stop(v)) {
    if (!isTriviallyFusible(v))
      return std::nullopt;
    walked.insert(v.getDefiningOp());
    v = chooseOperand(v.getDefiningOp());
  }
  return v;
}

/// XLA's IsTriviallyConnectedProducerOf.
bool DiamondMatcher::isTriviallyConnected(
    Value producer, Value consumer, llvm::SetVector<Operation *> &walked) {
  if (producer == consumer)
    return true;
  Operation *producerOp = producer.getDefiningOp();
  auto sameKind = [&](Value v) {
    Operation *op = v.getDefiningOp();
    return producerOp ? op && op->getName() == producerOp->getName()
                      : isParameter(v);
  };
  while (std::optional<Value> found = trivialEdge(consumer, sameKind, walked)) {
    if (*found == producer)
      return true;
    if (!isTriviallyFusible(*found))
      return false;
    walked.insert(found->getDefiningOp());
    consumer = getDataOperands(found->getDefiningOp())[0];
  }
  return false;
}

std::optional<Diamond> DiamondMatcher::match(Operation *root) {
  if (root->getNumResults() != 1 || !isElementwise(root) ||
      getDataOperands(root).size() != 2 || hasControlPredecessors(root) ||
      !hasDefaultLayout(root->getResult(0).getType()) ||
      !isTritonSupportedInstruction(root, tables))
    return std::nullopt;
  Diamond d;
  d.root = root;
  auto isBroadcast = [](Value v) {
    return bool(v.getDefiningOp<BroadcastOp>());
  };
  auto isReduce = [](Value v) { return bool(v.getDefiningOp<ReduceOp>()); };
  std::optional<Value> b =
      trivialEdge(getDataOperands(root)[1], isBroadcast, d.walked);
  if (!b)
    return std::nullopt;
  auto broadcast = b->getDefiningOp<BroadcastOp>();
  std::optional<Value> r =
      trivialEdge(getDataOperands(broadcast)[0], isReduce, d.walked);
  if (!r)
    return std::nullopt;
  auto reduce = r->getDefiningOp<ReduceOp>();
  if (!hasDefaultLayout(broadcast.getType()) || reduce->getNumResults() != 1 ||
      !hasDefaultLayout(reduce->getResult(0).getType()) ||
      !isTritonRowReduction(reduce, tables) || numUsers(broadcast) != 1 ||
      numUsers(reduce) != 1 || hasControlPredecessors(broadcast) ||
      hasControlPredecessors(reduce))
    return std::nullopt;
  // The broadcast must add the row (the minor-most dimension).
  auto bType = cast<RankedTensorType>(broadcast.getType());
  if (bType.getRank() == 0 ||
      llvm::is_contained(orEmpty(broadcast.getDimensions()),
                         bType.getRank() - 1))
    return std::nullopt;
  d.walked.insert(broadcast);
  d.walked.insert(reduce);

  Value producer = reduce.getInputs()[0];
  while (isTriviallyFusible(producer)) {
    d.walked.insert(producer.getDefiningOp());
    producer = chooseOperand(producer.getDefiningOp());
  }
  if (!hasDefaultLayout(producer.getType()))
    return std::nullopt;
  Value lhs = getDataOperands(root)[0];
  if (!isTriviallyConnected(producer, lhs, d.walked))
    return std::nullopt;
  if (producer != lhs &&
      (!lhs.getDefiningOp() || numUsers(lhs.getDefiningOp()) != 1))
    return std::nullopt;
  d.producer = producer;
  d.walked.insert(root);
  // XLA's CanSymbolicTileAnalysisTileDiamond, approximated.
  if (!canTileTritonNormalization(d.walked.getArrayRef(), tables, maxRow))
    return std::nullopt;
  return d;
}

namespace {
struct SoftmaxRewriterTritonPass
    : ChangeReportingPass<SoftmaxRewriterTritonPass,
                          hlo::impl::HloSoftmaxRewriterTritonBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run();
  void fuse(Diamond &d, SymbolTable &symbols,
            llvm::StringMap<unsigned> &suffixes,
            llvm::DenseSet<Operation *> &erased);
};
} // namespace

/// True if `v`'s instruction goes into the fusion as a copy: one the match
/// walked, a scalar constant, a convert of one, or a broadcast of a scalar
/// constant or of a parameter.
static bool copiedIntoFusion(Operation *op, const Diamond &d) {
  if (d.walked.contains(op))
    return true;
  auto scalar = [](Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    return type && type.hasStaticShape() && type.getNumElements() == 1 &&
           v.getDefiningOp<ConstantOp>();
  };
  if (isa<ConstantOp>(op))
    return scalar(op->getResult(0));
  if (isa<ConvertOp>(op))
    return scalar(getDataOperands(op)[0]);
  if (isa<BitcastOp, ReshapeOp>(op)) {
    auto broadcast = getDataOperands(op)[0].getDefiningOp<BroadcastOp>();
    return broadcast && scalar(getDataOperands(broadcast)[0]);
  }
  if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
    Value in = getDataOperands(broadcast)[0];
    auto arg = dyn_cast<BlockArgument>(in);
    return scalar(in) ||
           (arg && isa<ComputationOp>(arg.getOwner()->getParentOp()));
  }
  return false;
}

void SoftmaxRewriterTritonPass::fuse(Diamond &d, SymbolTable &symbols,
                                     llvm::StringMap<unsigned> &suffixes,
                                     llvm::DenseSet<Operation *> &erased) {
  MLIRContext *ctx = &getContext();
  Operation *root = d.root;

  // The fusion's operands (P first) and the copied instructions in
  // operands-first order.
  llvm::SetVector<Value> params;
  params.insert(d.producer);
  SmallVector<Operation *> copied;
  llvm::DenseSet<Operation *> seen;
  std::function<void(Value)> visit = [&](Value v) {
    if (v == d.producer)
      return;
    Operation *op = v.getDefiningOp();
    if (!op || !copiedIntoFusion(op, d)) {
      params.insert(v);
      return;
    }
    if (!seen.insert(op).second)
      return;
    for (Value operand : getDataOperands(op))
      visit(operand);
    copied.push_back(op);
  };
  visit(root->getResult(0));

  // The fused computation, before the computation holding the root.
  auto parent = root->getParentOfType<ComputationOp>();
  OpBuilder b(ctx);
  SmallVector<Type> argTypes;
  for (Value v : params)
    argTypes.push_back(v.getType());
  Type resultType = root->getResult(0).getType();
  auto comp = ComputationOp::create(
      b, UnknownLoc::get(ctx), "triton_softmax_computation",
      b.getStringAttr("private"), b.getFunctionType(argTypes, {resultType}),
      /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr, /*entry=*/false,
      StringAttr());
  Block *body = new Block();
  comp.getBody().push_back(body);
  IRMapping mapping;
  for (auto [i, v] : llvm::enumerate(params))
    mapping.map(
        v, body->addArgument(v.getType(), NameLoc::get(StringAttr::get(
                                              ctx, "parameter_" + Twine(i)))));
  b.setInsertionPointToEnd(body);
  for (Operation *op : copied)
    b.clone(*op, mapping);
  ReturnOp::create(b, UnknownLoc::get(ctx), mapping.lookup(root->getResult(0)));
  // XLA's names: `triton_softmax_computation`, then `.1`, `.2`, ...
  comp.setSymName(
      uniqueSymbolName("triton_softmax_computation", symbols, suffixes));
  symbols.insert(comp, Block::iterator(parent));

  // The fusion takes the root's place.
  b.setInsertionPoint(root);
  Location loc = NameLoc::get(StringAttr::get(ctx, "triton_softmax"),
                              derivedLoc(root->getLoc()));
  NamedAttribute attrs[] = {
      b.getNamedAttr("calls", FlatSymbolRefAttr::get(comp.getSymNameAttr())),
      b.getNamedAttr("kind", FusionKindAttr::get(ctx, FusionKind::kCustom))};
  Operation *fusion =
      createInstruction(b, loc, FusionOp::getOperationName(), resultType,
                        params.getArrayRef(), attrs);
  fusion->setAttr("backend_config", getTritonFusionConfig(ctx, resultType));
  root->getResult(0).replaceAllUsesWith(fusion->getResult(0));

  // The copied instructions nothing else reads any more.
  for (Operation *op : llvm::reverse(copied)) {
    if (!op->use_empty() || isControlPredecessor(op))
      continue;
    erased.insert(op);
    op->erase();
  }
}

void SoftmaxRewriterTritonPass::run() {
  ModuleOp module = getOperation();
  SymbolTableCollection tables;
  SymbolTable &symbols = tables.getSymbolTable(module);

  // Computations custom calls call are left alone (XLA's rule).
  llvm::DenseSet<Operation *> calledByCustomCalls;
  module.walk([&](CustomCallOp call) {
    if (ArrayAttr callees = call.getCalledComputationsAttr())
      for (auto ref : callees.getAsRange<SymbolRefAttr>())
        if (Operation *callee = symbols.lookup(ref.getRootReference()))
          calledByCustomCalls.insert(callee);
  });

  DiamondMatcher matcher(tables, maxRowElements);
  SmallVector<Diamond> diamonds;
  for (ComputationOp comp : nonFusionComputations(module)) {
    if (calledByCustomCalls.contains(comp) || comp.getBody().empty())
      continue;
    for (Operation &op : comp.getBody().front().without_terminator())
      if (std::optional<Diamond> d = matcher.match(&op))
        diamonds.push_back(std::move(*d));
  }

  // Last first: a diamond whose root is the next one's producer is fused
  // after it, so the next fusion reads this one's fusion.
  llvm::DenseSet<Operation *> erased;
  llvm::StringMap<unsigned> suffixes;
  for (Diamond &d : llvm::reverse(diamonds)) {
    if (llvm::any_of(d.walked,
                     [&](Operation *op) { return erased.contains(op); }))
      continue;
    fuse(d, symbols, suffixes, erased);
    ++numDiamonds;
    changed = true;
  }
}
