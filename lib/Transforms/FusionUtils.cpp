//===- FusionUtils.cpp - building fusions ---------------------------------===//
//
// A fusion is built in two steps (as XLA builds one from a consumer): the
// consumer is wrapped in a fusion of its own, then each producer is merged
// into the fused computation, taking the place of the parameters it fed.
// The fused computation is edited in place, so extending a fusion costs the
// size of the producer, not of the fusion.
//
//===----------------------------------------------------------------------===//

#include "FusionUtils.h"
#include "GpuFusible.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

#include <set>

using namespace mlir;
using namespace mlir::hlo;

Block *mlir::hlo::getFusedBody(FusionOp fusion, SymbolTableCollection &tables) {
  auto comp = tables.lookupNearestSymbolFrom<ComputationOp>(
      fusion, fusion.getCallsAttr().getAttr());
  if (!comp || comp.getBody().empty())
    return nullptr;
  return &comp.getBody().front();
}

/// The root of `op`'s fused computation, or `op` itself.
static Operation *fusionRoot(Operation *op, SymbolTableCollection &tables) {
  auto fusion = dyn_cast<FusionOp>(op);
  if (!fusion)
    return op;
  Block *body = getFusedBody(fusion, tables);
  if (!body)
    return op;
  Operation *root = body->getTerminator()->getOperand(0).getDefiningOp();
  return root ? root : op;
}

Operation *mlir::hlo::getFusionHero(Operation *op,
                                    SymbolTableCollection &tables) {
  Operation *root = fusionRoot(op, tables);
  for (Operation *walk = root; walk;) {
    if (isa<ReduceOp>(walk))
      return walk;
    bool intermediate = isa<BitcastOp, ReshapeOp>(walk) ||
                        (isElementwise(walk) && walk->getNumOperands() == 1);
    if (!intermediate || walk->getNumOperands() != 1)
      break;
    walk = walk->getOperand(0).getDefiningOp();
  }
  return root;
}

/// A name for parameter `i` of a fused computation, as XLA's (`param_0`).
static Location paramLoc(MLIRContext *ctx, unsigned i) {
  return NameLoc::get(StringAttr::get(ctx, "param_" + Twine(i)));
}

FusionOp mlir::hlo::wrapInFusion(Operation *op, SymbolTable &symbols,
                                 SymbolTableCollection &tables,
                                 Operation *where) {
  MLIRContext *ctx = op->getContext();
  llvm::SetVector<Value> operands;
  for (Value v : getDataOperands(op))
    operands.insert(v);
  SmallVector<Type> argTypes;
  for (Value v : operands)
    argTypes.push_back(v.getType());
  Type resultType = op->getResult(0).getType();

  OpBuilder b(ctx);
  auto comp = ComputationOp::create(
      b, UnknownLoc::get(ctx), "fused_computation", b.getStringAttr("private"),
      b.getFunctionType(argTypes, {resultType}), /*arg_attrs=*/nullptr,
      /*res_attrs=*/nullptr, /*entry=*/false, StringAttr());
  Block *body = new Block();
  comp.getBody().push_back(body);
  IRMapping mapping;
  for (auto [i, v] : llvm::enumerate(operands))
    mapping.map(v, body->addArgument(v.getType(), paramLoc(ctx, i)));
  b.setInsertionPointToEnd(body);
  Operation *clone = b.clone(*op, mapping);
  // Control edges stay outside: the fusion takes the instruction's (as XLA's
  // FusionWrapper moves them), and its control successors by the uses.
  SmallVector<Value> control(
      cast<InstructionOpInterface>(op).getControlPredecessors());
  cast<InstructionOpInterface>(clone).getControlPredecessorsMutable().clear();
  ReturnOp::create(b, UnknownLoc::get(ctx), clone->getResult(0));
  symbols.insert(comp, where ? Block::iterator(where) : Block::iterator());

  b.setInsertionPoint(op);
  Location loc =
      NameLoc::get(StringAttr::get(ctx, "fusion"), derivedLoc(op->getLoc()));
  NamedAttribute attrs[] = {
      b.getNamedAttr("calls", FlatSymbolRefAttr::get(comp.getSymNameAttr())),
      b.getNamedAttr("kind", FusionKindAttr::get(ctx, FusionKind::kLoop))};
  auto fusion = cast<FusionOp>(
      createInstruction(b, loc, FusionOp::getOperationName(), resultType,
                        operands.getArrayRef(), attrs));
  if (Attribute sharding = op->getAttr("sharding"))
    fusion->setAttr("sharding", sharding);
  fusion.getControlPredecessorsMutable().assign(control);
  op->getResult(0).replaceAllUsesWith(fusion.getResult());
  op->erase();
  return fusion;
}

void mlir::hlo::fuseProducerInto(Operation *producer, FusionOp fusion,
                                 SymbolTableCollection &tables) {
  Block *body = getFusedBody(fusion, tables);
  auto comp = cast<ComputationOp>(body->getParentOp());
  MLIRContext *ctx = fusion.getContext();
  Value produced = producer->getResult(0);

  // The parameters `producer` feeds; the producer's operands as parameters
  // (existing ones reused, new ones appended).
  SmallVector<unsigned> fedArgs;
  DenseMap<Value, unsigned> argOf;
  for (auto [i, v] : llvm::enumerate(fusion.getInputs())) {
    if (v == produced)
      fedArgs.push_back(i);
    else
      argOf.try_emplace(v, i);
  }
  auto argFor = [&](Value v) -> Value {
    auto [it, inserted] = argOf.try_emplace(v, body->getNumArguments());
    if (inserted) {
      body->addArgument(v.getType(), paramLoc(ctx, body->getNumArguments()));
      fusion.getInputsMutable().append(v);
    }
    return body->getArgument(it->second);
  };

  // Copy the producer (its fused instructions) to the top of the body.
  OpBuilder b = OpBuilder::atBlockBegin(body);
  IRMapping mapping;
  Value replacement;
  if (auto producerFusion = dyn_cast<FusionOp>(producer)) {
    Block *inner = getFusedBody(producerFusion, tables);
    for (auto [arg, v] :
         llvm::zip(inner->getArguments(), producerFusion.getInputs()))
      mapping.map(arg, argFor(v));
    for (Operation &op : inner->without_terminator())
      b.clone(op, mapping);
    replacement = mapping.lookup(inner->getTerminator()->getOperand(0));
  } else {
    for (Value v : getDataOperands(producer))
      mapping.map(v, argFor(v));
    replacement = b.clone(*producer, mapping)->getResult(0);
  }

  // The fed parameters are gone: their uses take the copy.
  for (unsigned i : fedArgs)
    body->getArgument(i).replaceAllUsesWith(replacement);
  llvm::BitVector erased(body->getNumArguments());
  for (unsigned i : fedArgs)
    erased.set(i);
  body->eraseArguments(erased);
  for (unsigned i : llvm::reverse(fedArgs))
    fusion.getInputsMutable().erase(i);
  for (auto [i, arg] : llvm::enumerate(body->getArguments()))
    arg.setLoc(paramLoc(ctx, i));
  comp.setFunctionType(
      FunctionType::get(ctx, body->getArgumentTypes(), comp.getResultTypes()));
}

void mlir::hlo::setFusionKindAndConfig(FusionOp fusion,
                                       SymbolTableCollection &tables) {
  // XLA's ChooseFusionKind: reductions and scatters are input fusions.
  bool input = isa<ReduceOp, ScatterOp>(getFusionHero(fusion, tables));
  setFusionConfig(fusion, input ? FusionKind::kInput : FusionKind::kLoop);
}

void mlir::hlo::setFusionConfig(FusionOp fusion, FusionKind kind) {
  MLIRContext *ctx = fusion.getContext();
  bool input = kind == FusionKind::kInput;
  fusion.setKindAttr(FusionKindAttr::get(ctx, kind));
  std::string json =
      (Twine("{\"operation_queue_id\":\"0\",") +
       "\"wait_on_operation_queues\":[]," +
       "\"fusion_backend_config\":{\"kind\":\"" + (input ? "kInput" : "kLoop") +
       "\"},\"force_earliest_schedule\":false}")
          .str();
  Attribute config = BackendConfigAttr::parseJson(ctx, json);
  fusion->setAttr("backend_config",
                  config ? config : StringAttr::get(ctx, json));
}

/// XLA's IsIntermediate: an elementwise op (a copy only when it keeps the
/// layout), a bitcast or a reshape, with 1 to `maxOperands` operands.
static bool isIntermediate(Operation *op, unsigned maxOperands) {
  unsigned n = op->getNumOperands();
  if (n == 0 || n > maxOperands)
    return false;
  if (isa<CopyOp>(op))
    return op->getOperand(0).getType() == op->getResult(0).getType();
  return isElementwise(op) || isa<BitcastOp, ReshapeOp>(op);
}

/// The one instruction satisfying `pred` that `from` reaches through
/// intermediates of up to three operands, when nothing but such
/// intermediates (and the root tuple) uses its result; else null.
static Operation *findHero(Operation *from,
                           function_ref<bool(Operation *)> pred) {
  Operation *hero = nullptr;
  SetVector<Operation *> queue;
  queue.insert(from);
  for (size_t i = 0; i < queue.size(); ++i) {
    Operation *op = queue[i];
    if (pred(op)) {
      if (hero)
        return nullptr;
      hero = op;
      continue;
    }
    if (isIntermediate(op, 3))
      for (Value v : op->getOperands())
        if (Operation *def = v.getDefiningOp())
          queue.insert(def);
  }
  if (!hero)
    return nullptr;
  SetVector<Operation *> users;
  users.insert_range(hero->getUsers());
  for (size_t i = 0; i < users.size(); ++i) {
    Operation *user = users[i];
    if (isa<TupleOp, ReturnOp>(user))
      continue;
    if (!isIntermediate(user, 3))
      return nullptr;
    users.insert_range(user->getUsers());
  }
  return hero;
}

/// XLA's FindNonTrivialHero: from `root` followed back through
/// single-operand intermediates while their operand is computed in the
/// fusion, a tiled transpose or a concatenate reached through intermediates
/// of up to three operands if there is exactly one; else the reduce that
/// walk ends at, else `root`.
static Operation *nonTrivialHero(Operation *root) {
  Operation *hero = root;
  while (isIntermediate(hero, 1) && hero->getOperand(0).getDefiningOp())
    hero = hero->getOperand(0).getDefiningOp();
  if (Operation *transpose = findHero(hero, isTiledTranspose))
    return transpose;
  if (Operation *concat =
          findHero(hero, [](Operation *op) { return isa<ConcatenateOp>(op); }))
    return concat;
  return isa<ReduceOp>(hero) ? hero : root;
}

void mlir::hlo::nameFusion(FusionOp fusion, SymbolTable &symbols,
                           SymbolTableCollection &tables,
                           llvm::StringMap<unsigned> &suffixes) {
  MLIRContext *ctx = fusion.getContext();
  // The heroes of the roots (a root tuple's elements), sorted, '-' as '_'.
  std::set<std::string> heroes;
  Block *body = getFusedBody(fusion, tables);
  if (!body)
    return;
  Operation *root = body->getTerminator()->getOperand(0).getDefiningOp();
  SmallVector<Operation *> roots;
  if (auto tuple = dyn_cast_or_null<TupleOp>(root)) {
    for (Value v : tuple.getOperands())
      if (Operation *def = v.getDefiningOp())
        roots.push_back(def);
  } else if (root) {
    roots.push_back(root);
  }
  for (Operation *r : roots) {
    Operation *hero = nonTrivialHero(r);
    std::string opcode = getOpcode(hero);
    std::replace(opcode.begin(), opcode.end(), '-', '_');
    heroes.insert(opcode);
  }
  std::string joined = llvm::join(heroes, "_");
  if (joined.empty())
    joined = "parameter";
  StringRef kind = fusion.getKind() == FusionKind::kInput ? "input" : "loop";

  fusion->setLoc(
      NameLoc::get(StringAttr::get(ctx, kind + "_" + joined + "_fusion"),
                   unnamed(fusion.getLoc())));

  auto comp = cast<ComputationOp>(body->getParentOp());
  std::string base = "fused_" + joined;
  if (comp.getSymName() == base)
    return;
  // Unique like XLA: `fused_add`, `fused_add.1`, ...
  std::string name = uniqueSymbolName(base, symbols, suffixes);
  symbols.remove(comp);
  comp.setSymName(name);
  symbols.insert(comp);
  fusion.setCallsAttr(FlatSymbolRefAttr::get(comp.getSymNameAttr()));
}

SmallVector<ComputationOp>
mlir::hlo::getFusibleComputations(ModuleOp module, SymbolTable &symbols) {
  DenseSet<Operation *> embedded;
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(&module.getBodyRegion()))
    for (const SymbolTable::SymbolUse &use : *uses)
      if (!isa<WhileOp, ConditionalOp, CallOp>(use.getUser()))
        if (Operation *callee =
                symbols.lookup(use.getSymbolRef().getRootReference()))
          embedded.insert(callee);
  SmallVector<ComputationOp> comps;
  for (auto comp : module.getOps<ComputationOp>())
    if (!embedded.contains(comp) && !comp.getBody().empty())
      comps.push_back(comp);
  return comps;
}

/// The root tuple of a multi-output fusion's body, or null.
static TupleOp rootTuple(Block *body) {
  Value root = body->getTerminator()->getOperand(0);
  return dyn_cast_or_null<TupleOp>(root.getDefiningOp());
}

SmallVector<Value> mlir::hlo::getFusionOutputs(FusionOp fusion,
                                               SymbolTableCollection &tables) {
  Block *body = getFusedBody(fusion, tables);
  if (!body)
    return {};
  if (TupleOp tuple = rootTuple(body))
    return llvm::to_vector(tuple.getInputs());
  return {body->getTerminator()->getOperand(0)};
}

bool mlir::hlo::isMultiOutputFusion(Operation *op,
                                    SymbolTableCollection &tables) {
  auto fusion = dyn_cast<FusionOp>(op);
  if (!fusion)
    return false;
  Block *body = getFusedBody(fusion, tables);
  return body && rootTuple(body);
}

/// A get-tuple-element of `tuple` at `index`, named as XLA names the ones
/// its multi-output fusion creates.
static Value createGte(OpBuilder &b, Value tuple, int64_t index) {
  MLIRContext *ctx = b.getContext();
  Location loc = NameLoc::get(StringAttr::get(ctx, "get-tuple-element"));
  return createInstruction(
             b, loc, GetTupleElementOp::getOperationName(), Type(), tuple,
             {b.getNamedAttr("index", b.getI64IntegerAttr(index))})
      ->getResult(0);
}

FusionOp mlir::hlo::withOutputs(FusionOp fusion, ArrayRef<Value> outputs,
                                Operation *oldTuple) {
  MLIRContext *ctx = fusion.getContext();
  Block *body = Value(outputs.front()).getParentBlock();
  OpBuilder b(body->getTerminator());
  Location tupleLoc = oldTuple ? oldTuple->getLoc()
                               : NameLoc::get(StringAttr::get(ctx, "tuple"));
  Operation *tuple = createInstruction(b, tupleLoc, TupleOp::getOperationName(),
                                       Type(), outputs);
  body->getTerminator()->setOperand(0, tuple->getResult(0));
  if (oldTuple && oldTuple->use_empty())
    oldTuple->erase();
  Type resultType = tuple->getResult(0).getType();
  cast<ComputationOp>(body->getParentOp())
      .setFunctionType(
          FunctionType::get(ctx, body->getArgumentTypes(), {resultType}));
  b.setInsertionPoint(fusion);
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute attr : fusion->getAttrDictionary())
    if (attr.getName() != "operandSegmentSizes")
      attrs.push_back(attr);
  return cast<FusionOp>(
      createInstruction(b, fusion->getLoc(), FusionOp::getOperationName(),
                        resultType, llvm::to_vector(fusion.getInputs()),
                        attrs));
}

FusionOp mlir::hlo::fuseIntoMultiOutput(Operation *src, FusionOp dst,
                                        SymbolTable &symbols,
                                        SymbolTableCollection &tables) {
  MLIRContext *ctx = dst.getContext();
  Block *body = getFusedBody(dst, tables);
  Value produced = src->getResult(0);

  // dst's outputs, and whether its users already read elements.
  TupleOp oldTuple = rootTuple(body);
  bool dstWasTuple = static_cast<bool>(oldTuple);
  SmallVector<Value> outputs;
  if (oldTuple)
    llvm::append_range(outputs, oldTuple.getInputs());
  else
    outputs.push_back(body->getTerminator()->getOperand(0));
  int64_t firstSrcOutput = outputs.size();

  // Parameters: the ones src feeds, and one per distinct operand.
  SmallVector<unsigned> fedArgs;
  DenseMap<Value, unsigned> argOf;
  for (auto [i, v] : llvm::enumerate(dst.getInputs())) {
    if (v == produced)
      fedArgs.push_back(i);
    else
      argOf.try_emplace(v, i);
  }
  auto argFor = [&](Value v) -> Value {
    auto [it, inserted] = argOf.try_emplace(v, body->getNumArguments());
    if (inserted) {
      body->addArgument(v.getType(), paramLoc(ctx, body->getNumArguments()));
      dst.getInputsMutable().append(v);
    }
    return body->getArgument(it->second);
  };

  // Copy src: at the top of the body when it feeds parameters, else before
  // the root.
  OpBuilder b(ctx);
  if (!fedArgs.empty())
    b.setInsertionPointToStart(body);
  else if (oldTuple)
    b.setInsertionPoint(oldTuple);
  else
    b.setInsertionPoint(body->getTerminator());
  IRMapping mapping;
  SmallVector<Value> srcOutputs;
  bool srcWasTuple = false;
  Operation *srcComp = nullptr;
  if (auto srcFusion = dyn_cast<FusionOp>(src)) {
    Block *inner = getFusedBody(srcFusion, tables);
    srcComp = inner->getParentOp();
    for (auto [arg, v] :
         llvm::zip(inner->getArguments(), srcFusion.getInputs()))
      mapping.map(arg, argFor(v));
    TupleOp innerTuple = rootTuple(inner);
    srcWasTuple = static_cast<bool>(innerTuple);
    for (Operation &op : inner->without_terminator())
      if (&op != innerTuple.getOperation())
        b.clone(op, mapping);
    if (innerTuple)
      for (Value v : innerTuple.getInputs())
        srcOutputs.push_back(mapping.lookupOrDefault(v));
    else
      srcOutputs.push_back(
          mapping.lookupOrDefault(inner->getTerminator()->getOperand(0)));
  } else {
    for (Value v : getDataOperands(src))
      mapping.map(v, argFor(v));
    srcOutputs.push_back(b.clone(*src, mapping)->getResult(0));
  }

  // The fed parameters take the copy.
  if (!fedArgs.empty()) {
    for (unsigned i : fedArgs)
      body->getArgument(i).replaceAllUsesWith(srcOutputs.front());
    llvm::BitVector erased(body->getNumArguments());
    for (unsigned i : fedArgs)
      erased.set(i);
    body->eraseArguments(erased);
    for (unsigned i : llvm::reverse(fedArgs))
      dst.getInputsMutable().erase(i);
    for (auto [i, arg] : llvm::enumerate(body->getArguments()))
      arg.setLoc(paramLoc(ctx, i));
  }

  // The new root tuple and the fusion returning it.
  llvm::append_range(outputs, srcOutputs);
  FusionOp fusion = withOutputs(dst, outputs, oldTuple);

  // Users read elements.
  b.setInsertionPointAfter(fusion);
  if (dstWasTuple) {
    dst.getResult().replaceAllUsesWith(fusion.getResult());
  } else if (!dst.getResult().use_empty()) {
    Value gte = createGte(b, fusion.getResult(), 0);
    dst.getResult().replaceAllUsesWith(gte);
  }
  if (srcWasTuple) {
    for (Operation *user : llvm::make_early_inc_range(src->getUsers())) {
      auto gte = cast<GetTupleElementOp>(user);
      gte.setIndex(gte.getIndex() + firstSrcOutput);
      gte->setOperand(0, fusion.getResult());
    }
  } else if (!produced.use_empty()) {
    Value gte = createGte(b, fusion.getResult(), firstSrcOutput);
    produced.replaceAllUsesWith(gte);
  }
  dst->erase();
  src->erase();
  if (srcComp)
    symbols.erase(srcComp);
  return fusion;
}
