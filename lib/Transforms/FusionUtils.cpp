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
  MLIRContext *ctx = fusion.getContext();
  bool input = isa<ReduceOp>(getFusionHero(fusion, tables));
  FusionKind kind = input ? FusionKind::kInput : FusionKind::kLoop;
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
    Operation *hero = r;
    for (Operation *walk = r; walk;) {
      if (isa<ReduceOp>(walk)) {
        hero = walk;
        break;
      }
      bool intermediate = isa<BitcastOp, ReshapeOp>(walk) ||
                          (isElementwise(walk) && walk->getNumOperands() == 1);
      if (!intermediate || walk->getNumOperands() != 1)
        break;
      walk = walk->getOperand(0).getDefiningOp();
    }
    std::string opcode = getOpcode(hero);
    std::replace(opcode.begin(), opcode.end(), '-', '_');
    heroes.insert(opcode);
  }
  std::string joined = llvm::join(heroes, "_");
  if (joined.empty())
    joined = "parameter";
  StringRef kind = fusion.getKind() == FusionKind::kInput ? "input" : "loop";

  Location loc = fusion.getLoc();
  Location child = UnknownLoc::get(ctx);
  if (auto name = dyn_cast<NameLoc>(loc))
    child = name.getChildLoc();
  fusion->setLoc(NameLoc::get(
      StringAttr::get(ctx, kind + "_" + joined + "_fusion"), child));

  auto comp = cast<ComputationOp>(body->getParentOp());
  std::string base = "fused_" + joined;
  if (comp.getSymName() == base)
    return;
  // Unique like XLA: `fused_add`, `fused_add.1`, ...
  unsigned &next = suffixes[base];
  std::string name = base;
  if (next)
    name = base + "." + std::to_string(next);
  while (symbols.lookup(name))
    name = base + "." + std::to_string(++next);
  ++next;
  symbols.remove(comp);
  comp.setSymName(name);
  symbols.insert(comp);
  fusion.setCallsAttr(FlatSymbolRefAttr::get(comp.getSymNameAttr()));
}
