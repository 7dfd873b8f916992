//===- HloOps.cpp - hlo dialect ops ---------------------------------------===//
//
// Op verifiers delegate HLO's shape rules to HloTypeInference; this file
// checks what is specific to the op (attribute arity, called computations).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloEffects.h"
#include "Hlo/Dialect/Hlo/HloShardingCalls.h"
#include "Hlo/Dialect/Hlo/HloTransformerEngineCalls.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace mlir::hlo;

#define GET_OP_CLASSES
#include "Hlo/Dialect/Hlo/HloOps.cpp.inc"

//===----------------------------------------------------------------------===//
// ComputationOp
//===----------------------------------------------------------------------===//

ParseResult ComputationOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType = [](Builder &b, ArrayRef<Type> args, ArrayRef<Type> res,
                          function_interface_impl::VariadicFlag,
                          std::string &) {
    return b.getFunctionType(args, res);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void ComputationOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

Value ComputationOp::getRootValue() {
  return cast<ReturnOp>(getBody().front().getTerminator()).getRoot();
}

LogicalResult ComputationOp::verify() {
  if (getBody().empty())
    return emitOpError("needs a body");
  Block &block = getBody().front();
  if (block.getNumArguments() != getFunctionType().getNumInputs())
    return emitOpError("has ")
           << block.getNumArguments() << " parameters but its type lists "
           << getFunctionType().getNumInputs();
  for (auto [arg, type] :
       llvm::zip(block.getArgumentTypes(), getFunctionType().getInputs()))
    if (arg != type)
      return emitOpError("parameter type ")
             << arg << " does not match the signature's " << type;
  if (getFunctionType().getNumResults() != 1)
    return emitOpError("must have exactly one result (its ROOT)");
  for (Type type : getFunctionType().getInputs())
    if (!isHloValueType(type))
      return emitOpError("parameter type ")
             << type
             << " is not an HLO shape (a tensor of an HLO element "
                "type, a tuple, a token or an opaque)";
  if (!isHloValueType(getFunctionType().getResult(0)))
    return emitOpError("result type ")
           << getFunctionType().getResult(0)
           << " is not an HLO shape (a tensor of an HLO element type, a "
              "tuple, a token or an opaque)";
  auto ret = block.empty() ? ReturnOp() : dyn_cast<ReturnOp>(block.back());
  if (!ret)
    return emitOpError("must end with hlo.return");
  if (ret.getRoot().getType() != getFunctionType().getResult(0))
    return ret.emitOpError("ROOT type ")
           << ret.getRoot().getType() << " does not match the result type "
           << getFunctionType().getResult(0);
  return success();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

template <typename OpT> static auto err(OpT op) {
  return [op]() mutable { return op->emitOpError(); };
}

/// Finds the computation `sym` names (null when `sym` is). Called computations
/// are checked in verifySymbolUses, which MLIR runs once the op is in a
/// symbol table, with a SymbolTableCollection: each lookup is then a hash
/// lookup, and verification stays linear in the module.
static FailureOr<ComputationOp> resolveCallee(Operation *op,
                                              SymbolTableCollection &symbols,
                                              StringRef what,
                                              FlatSymbolRefAttr sym) {
  if (!sym)
    return ComputationOp();
  auto callee = symbols.lookupNearestSymbolFrom<ComputationOp>(op, sym);
  if (!callee)
    return op->emitOpError(what) << " refers to unknown computation " << sym;
  if (callee.getEntry())
    return op->emitOpError(what)
           << " refers to the ENTRY computation " << sym
           << ", which no instruction may call";
  return callee;
}

/// Checks that `sym` names a computation and, when the caller passes them,
/// that its parameters and result have the given types.
static LogicalResult
checkCallee(Operation *op, SymbolTableCollection &symbols, StringRef what,
            FlatSymbolRefAttr sym,
            std::optional<SmallVector<Type>> args = std::nullopt,
            std::optional<Type> result = std::nullopt) {
  FailureOr<ComputationOp> callee = resolveCallee(op, symbols, what, sym);
  if (failed(callee))
    return failure();
  if (!*callee || (!args && !result))
    return success();
  std::optional<TypeRange> argRange;
  if (args)
    argRange = TypeRange(*args);
  return verifySignature([op]() { return op->emitOpError(); }, what,
                         callee->getFunctionType(), argRange, result);
}

/// Checks a reducer `(acc..., x...) -> acc...` (see verifyReducer) of
/// arrays `inits` and `inputs`.
static LogicalResult checkReducer(Operation *op, SymbolTableCollection &symbols,
                                  StringRef what, FlatSymbolRefAttr sym,
                                  TypeRange inits, TypeRange inputs) {
  FailureOr<ComputationOp> callee = resolveCallee(op, symbols, what, sym);
  if (failed(callee) || !*callee)
    return callee;
  SmallVector<Type> accs, elts;
  for (Type t : llvm::concat<const Type>(inits, inputs))
    if (!isa<RankedTensorType>(t))
      return op->emitOpError("reduces arrays only, got ") << t;
  for (Type t : inits)
    accs.push_back(
        RankedTensorType::get({}, cast<ShapedType>(t).getElementType()));
  for (Type t : inputs)
    elts.push_back(cast<ShapedType>(t).getElementType());
  return verifyReducer([op]() { return op->emitOpError(); }, what,
                       callee->getFunctionType(), accs, elts);
}

static LogicalResult verifyOutputToOperandAliasing(Operation *op,
                                                   ArrayAttr aliasing,
                                                   TypeRange operands,
                                                   Type result);

static ArrayRef<int64_t> orEmpty(std::optional<ArrayRef<int64_t>> v) {
  return v ? *v : ArrayRef<int64_t>();
}

static Type scalarOf(Type t) {
  if (auto shaped = dyn_cast<ShapedType>(t))
    return RankedTensorType::get({}, shaped.getElementType());
  return t;
}

static Type predScalar(MLIRContext *ctx) {
  return RankedTensorType::get({}, IntegerType::get(ctx, 1));
}

static Type u32Scalar(MLIRContext *ctx) {
  return RankedTensorType::get(
      {}, IntegerType::get(ctx, 32, IntegerType::Unsigned));
}

/// `result` is `expected` ignoring layouts.
static LogicalResult checkResultType(Operation *op, Type result, Type expected,
                                     StringRef why) {
  if (typesCompatible(result, expected))
    return success();
  return op->emitOpError("result type ")
         << result << " should be " << expected << " (" << why << ")";
}

static LogicalResult checkToken(Operation *op, StringRef what, Type t) {
  if (isa<TokenType>(t))
    return success();
  return op->emitOpError(what) << " must be a token, got " << t;
}

/// The users of `v` that read it as data (not as a control predecessor).
static SmallVector<Operation *> dataUsers(Value v) {
  SmallVector<Operation *> users;
  for (OpOperand &use : v.getUses()) {
    auto inst = dyn_cast<InstructionOpInterface>(use.getOwner());
    if (!inst || use.getOperandNumber() < inst.getDataOperands().size())
      users.push_back(use.getOwner());
  }
  return users;
}

/// A -start op has exactly one user, its -done op.
template <typename DoneT>
static LogicalResult verifyStartUser(Operation *op, StringRef doneName) {
  SmallVector<Operation *> users = dataUsers(op->getResult(0));
  if (users.size() != 1)
    return op->emitOpError("must have exactly one user (its ")
           << doneName << "), has " << users.size();
  Operation *user = users.front();
  if (!isa<DoneT>(user))
    return op->emitOpError("is used by '")
           << user->getName() << "'; only " << doneName << " may";
  return success();
}

/// A -done op's operand is produced by its -start op.
template <typename StartT>
static LogicalResult verifyDoneOperand(Operation *op, Value operand,
                                       StringRef startName) {
  if (!isa_and_nonnull<StartT>(operand.getDefiningOp()))
    return op->emitOpError("operand must be produced by ") << startName;
  return success();
}

/// The result of a -done op: the start's result, or element 1 of the start's
/// legacy (operand, result, ...) tuple.
static LogicalResult verifyDoneResult(Operation *op, Type start, Type result) {
  if (typesCompatible(result, start))
    return success();
  auto tt = dyn_cast<TupleType>(start);
  if (tt && tt.size() >= 2 && typesCompatible(result, tt.getType(1)))
    return success();
  return op->emitOpError("result type ")
         << result << " must be the start's result " << start
         << " or its element 1";
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult ConvertOp::verify() {
  return verifySameShape(err(*this), {getOperand().getType()}, getType(),
                         /*sameElementType=*/false);
}

LogicalResult BitcastConvertOp::verify() {
  auto in = dyn_cast<RankedTensorType>(getOperand().getType());
  auto out = dyn_cast<RankedTensorType>(getType());
  if (!in || !out)
    return emitOpError("operand and result must be arrays");
  std::optional<unsigned> inBits = getElementBitWidth(in.getElementType());
  std::optional<unsigned> outBits = getElementBitWidth(out.getElementType());
  if (!inBits || !outBits)
    return emitOpError("element types must have a bit width");
  ArrayRef<int64_t> a = in.getShape(), b = out.getShape();
  if (*inBits == *outBits)
    return verifySameShape(err(*this), {in}, out, false);
  if (*inBits > *outBits) {
    // One more minor result dimension of size inBits/outBits.
    if (*inBits % *outBits || b.size() != a.size() + 1 ||
        !dimsCompatible(b.back(), *inBits / *outBits) ||
        !shapesCompatible(
            in, RankedTensorType::get(b.drop_back(), in.getElementType())))
      return emitOpError("converting ")
             << *inBits << "-bit to " << *outBits
             << "-bit elements needs the operand dimensions plus a minor "
                "result dimension of "
             << *inBits / *outBits;
    return success();
  }
  if (*outBits % *inBits || a.size() != b.size() + 1 ||
      !dimsCompatible(a.back(), *outBits / *inBits) ||
      !shapesCompatible(
          out, RankedTensorType::get(a.drop_back(), out.getElementType())))
    return emitOpError("converting ")
           << *inBits << "-bit to " << *outBits
           << "-bit elements needs the result dimensions plus a minor operand "
              "dimension of "
           << *outBits / *inBits;
  return success();
}

LogicalResult StochasticConvertOp::verify() {
  Type operand = getOperand().getType(), random = getRandom().getType();
  if (failed(
          verifySameShape(err(*this), {operand, random}, getType(), false)) ||
      failed(verifyElementKind(err(*this), "operand", operand, kFloatKind)) ||
      failed(verifyElementKind(err(*this), "random", random, kUnsignedKind)))
    return failure();
  unsigned a = *getElementBitWidth(cast<ShapedType>(operand).getElementType());
  unsigned b = *getElementBitWidth(cast<ShapedType>(random).getElementType());
  if (a != b)
    return emitOpError("random bits (")
           << b << "-bit) must be as wide as the operand elements (" << a
           << "-bit)";
  return success();
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

LogicalResult BroadcastOp::verify() {
  return verifyBroadcast(err(*this), getOperand().getType(), getType(),
                         orEmpty(getDimensions()));
}
LogicalResult ReshapeOp::verify() {
  return verifyReshape(err(*this), getOperand().getType(), getType());
}
LogicalResult DynamicReshapeOp::verify() {
  return verifyDynamicReshape(err(*this), getOperand().getType(),
                              getOutputDims().getTypes(), getType());
}
LogicalResult IotaOp::verify() {
  return verifyIota(err(*this), getType(), getIotaDimension());
}

/// The shape of a literal attribute must be the result type.
static LogicalResult verifyLiteral(Operation *op, Attribute literal,
                                   Type type) {
  if (!literal)
    return success();
  if (auto elts = dyn_cast<ElementsAttr>(literal)) {
    auto rt = dyn_cast<RankedTensorType>(type);
    if (!rt)
      return op->emitOpError("array literal for non-array type ") << type;
    auto lt = cast<ShapedType>(elts.getType());
    if (lt.getShape() != rt.getShape() ||
        lt.getElementType() != rt.getElementType())
      return op->emitOpError("literal of type ")
             << elts.getType() << " does not match " << type;
    return success();
  }
  if (auto tuple = dyn_cast<ArrayAttr>(literal)) {
    auto tt = dyn_cast<TupleType>(type);
    if (!tt || tt.size() != tuple.size())
      return op->emitOpError("tuple literal of ")
             << tuple.size() << " elements does not match type " << type;
    for (auto [elt, ty] : llvm::zip(tuple, tt.getTypes()))
      if (failed(verifyLiteral(op, elt, ty)))
        return failure();
    return success();
  }
  if (isa<DistinctAttr>(literal))
    return success(); // An elided literal or tuple element ({...}).
  return op->emitOpError("unsupported literal attribute ") << literal;
}

LogicalResult ConstantOp::verify() {
  return verifyLiteral(*this, getValueAttr(), getType());
}
LogicalResult SetDimensionSizeOp::verify() {
  return verifySetDimensionSize(err(*this), getOperand().getType(),
                                getSize().getType(), getType(),
                                getDimensions());
}

//===----------------------------------------------------------------------===//
// Tuples, control and calls
//===----------------------------------------------------------------------===//

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return checkCallee(*this, symbols, "to_apply", getToApplyAttr(),
                     SmallVector<Type>(getInputs().getTypes()), getType());
}
LogicalResult FusionOp::verify() {
  return verifyOutputToOperandAliasing(*this, getOutputToOperandAliasingAttr(),
                                       getInputs().getTypes(), getType());
}
LogicalResult FusionOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return checkCallee(*this, symbols, "calls", getCallsAttr(),
                     SmallVector<Type>(getInputs().getTypes()), getType());
}

LogicalResult MapOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one operand");
  Type first = getInputs()[0].getType();
  auto firstDims = getDims(first, err(*this), "operand");
  if (failed(firstDims))
    return failure();
  for (auto [i, t] : llvm::enumerate(getInputs().getTypes())) {
    if (failed(getDims(t, err(*this), "operand")))
      return failure();
    if (!shapesCompatible(t, first))
      return emitOpError("operand ")
             << i << " of type " << t << " must have operand 0's dimensions";
  }
  if (!shapesCompatible(getType(), first))
    return emitOpError("result type ")
           << getType() << " must have the operands' dimensions";
  if (auto dims = getDimensions()) {
    bool identity = dims->size() == firstDims->size();
    for (size_t i = 0; identity && i < dims->size(); ++i)
      identity = (*dims)[i] == int64_t(i);
    if (!identity)
      return emitOpError("dimensions must list all operand dimensions in "
                         "order, got [")
             << *dims << "]";
  }
  return success();
}
LogicalResult MapOp::verifySymbolUses(SymbolTableCollection &symbols) {
  SmallVector<Type> scalars;
  for (Type t : getInputs().getTypes())
    scalars.push_back(scalarOf(t));
  return checkCallee(*this, symbols, "to_apply", getToApplyAttr(), scalars,
                     scalarOf(getType()));
}

LogicalResult WhileOp::verifySymbolUses(SymbolTableCollection &symbols) {
  Type t = getOperand().getType();
  if (failed(checkCallee(*this, symbols, "condition", getConditionAttr(),
                         SmallVector<Type>{t}, predScalar(getContext()))))
    return failure();
  return checkCallee(*this, symbols, "body", getBodyAttr(),
                     SmallVector<Type>{t}, t);
}

SmallVector<FlatSymbolRefAttr> ConditionalOp::getBranches() {
  SmallVector<FlatSymbolRefAttr> branches;
  if (auto arr = getBranchComputationsAttr()) {
    for (Attribute a : arr)
      branches.push_back(dyn_cast<FlatSymbolRefAttr>(a));
  } else if (getTrueComputationAttr() && getFalseComputationAttr()) {
    branches = {getTrueComputationAttr(), getFalseComputationAttr()};
  }
  return branches;
}

LogicalResult ConditionalOp::verify() {
  auto idx = dyn_cast<RankedTensorType>(getBranchIndex().getType());
  if (!idx || idx.getRank() != 0 ||
      !(idx.getElementType().isInteger(1) ||
        idx.getElementType().isSignlessInteger(32)))
    return emitOpError("branch index must be a pred[] or s32[] scalar, got ")
           << getBranchIndex().getType();
  bool isPred = idx.getElementType().isInteger(1);
  SmallVector<FlatSymbolRefAttr> branches;
  if (auto arr = getBranchComputationsAttr()) {
    if (getTrueComputationAttr() || getFalseComputationAttr())
      return emitOpError("takes either branch_computations or "
                         "true_/false_computation, not both");
    for (Attribute a : arr) {
      auto flat = dyn_cast<FlatSymbolRefAttr>(a);
      if (!flat)
        return emitOpError("branch computation ")
               << a << " must be a flat symbol reference";
      branches.push_back(flat);
    }
  } else if (getTrueComputationAttr() && getFalseComputationAttr()) {
    if (!isPred)
      return emitOpError("true_/false_computation need a pred branch index");
    branches = {getTrueComputationAttr(), getFalseComputationAttr()};
  } else {
    return emitOpError("needs branch_computations or true_/false_computation");
  }
  if (branches.empty())
    return emitOpError("needs at least one branch");
  if (isPred && branches.size() != 2)
    return emitOpError("with a pred branch index needs exactly 2 branches, "
                       "got ")
           << branches.size();
  if (branches.size() != getBranchOperands().size())
    return emitOpError("has ")
           << branches.size() << " branches but " << getBranchOperands().size()
           << " branch operands";
  return success();
}
LogicalResult ConditionalOp::verifySymbolUses(SymbolTableCollection &symbols) {
  for (auto [i, b] : llvm::enumerate(getBranches()))
    if (failed(checkCallee(*this, symbols, "branch " + std::to_string(i), b,
                           SmallVector<Type>{getBranchOperands()[i].getType()},
                           getType())))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions, windows and sorting
//===----------------------------------------------------------------------===//

/// Splits N inputs followed by N init values.
static LogicalResult splitInputsInits(Operation *op, ValueRange all,
                                      TypeRange &inputs, TypeRange &inits) {
  if (all.empty() || all.size() % 2)
    return op->emitOpError("needs N inputs followed by N init values, got ")
           << all.size() << " operands";
  size_t n = all.size() / 2;
  inputs = TypeRange(all).take_front(n);
  inits = TypeRange(all).drop_front(n);
  return success();
}

LogicalResult ReduceOp::verifySymbolUses(SymbolTableCollection &symbols) {
  TypeRange inputs, inits;
  if (failed(splitInputsInits(*this, getInputs(), inputs, inits)))
    return failure();
  return checkReducer(*this, symbols, "to_apply", getToApplyAttr(), inits,
                      inputs);
}

LogicalResult
ReduceWindowOp::verifySymbolUses(SymbolTableCollection &symbols) {
  TypeRange inputs, inits;
  if (failed(splitInputsInits(*this, getInputs(), inputs, inits)))
    return failure();
  return checkReducer(*this, symbols, "to_apply", getToApplyAttr(), inits,
                      inputs);
}

LogicalResult
SelectAndScatterOp::verifySymbolUses(SymbolTableCollection &symbols) {
  Type operand = getOperand().getType();
  if (failed(
          checkCallee(*this, symbols, "select", getSelectAttr(),
                      SmallVector<Type>{scalarOf(operand), scalarOf(operand)},
                      predScalar(getContext()))))
    return failure();
  return checkReducer(*this, symbols, "scatter", getScatterAttr(),
                      TypeRange{getInitValue().getType()},
                      TypeRange{getSource().getType()});
}

LogicalResult SortOp::verifySymbolUses(SymbolTableCollection &symbols) {
  SmallVector<Type> args;
  for (Type t : getInputs().getTypes()) {
    args.push_back(scalarOf(t));
    args.push_back(scalarOf(t));
  }
  return checkCallee(*this, symbols, "to_apply", getToApplyAttr(), args,
                     predScalar(getContext()));
}

//===----------------------------------------------------------------------===//
// Linear algebra, gather/scatter, batch norm, RNG
//===----------------------------------------------------------------------===//

LogicalResult ScatterOp::verifySymbolUses(SymbolTableCollection &symbols) {
  size_t k = (getInputs().size() - 1) / 2;
  return checkReducer(*this, symbols, "to_apply", getToApplyAttr(),
                      TypeRange(getInputs()).take_front(k),
                      TypeRange(getInputs()).take_back(k));
}

LogicalResult RngOp::verify() {
  return verifyRng(err(*this), getInputs().getTypes(), getType(),
                   getDistribution());
}
LogicalResult RngBitGeneratorOp::verify() {
  return verifyRngBitGenerator(err(*this), getOperand().getType(), getType());
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

/// The participants of a collective with replica groups `groups`, following
/// XLA's group modes: with a channel id and use_global_device_ids unset or
/// false on an op that has the flag, each group of replicas also spans every
/// partition, so the group size is only a factor of the participant count.
static FailureOr<ShardCount> collectiveShards(Operation *op,
                                              ReplicaGroupsAttr groups,
                                              std::optional<int64_t> channelId,
                                              std::optional<bool> globalIds,
                                              bool uniform) {
  auto size = verifyReplicaGroups([op]() { return op->emitOpError(); }, groups,
                                  uniform);
  if (failed(size))
    return failure();
  if (globalIds.value_or(false) && !channelId)
    return op->emitOpError("use_global_device_ids needs a channel_id");
  // XLA's flattened-id mode names every device; its verifier and StableHLO's
  // reject it without groups.
  if (globalIds.value_or(false) && !*size)
    return op->emitOpError(
        "use_global_device_ids needs replica_groups listing the devices");
  ShardCount shards;
  shards.groupSize = *size;
  shards.exact = !channelId || globalIds.value_or(false);
  return shards;
}

/// all-reduce and all-reduce-start: groups, result = operands, reducer.
template <typename OpT> static LogicalResult verifyAllReduceLike(OpT op) {
  if (failed(collectiveShards(op, op.getReplicaGroupsAttr(), op.getChannelId(),
                              op.getUseGlobalDeviceIds(), false)))
    return failure();
  for (Type t : op.getInputs().getTypes())
    if (!isa<RankedTensorType>(t))
      return op.emitOpError("operands must be arrays, got ") << t;
  return checkResultType(op, op.getType(),
                         packTuple(op.getContext(), op.getInputs().getTypes()),
                         "the operand types");
}

/// Each operand is reduced by `to_apply`.
template <typename OpT>
static LogicalResult checkElementwiseReducer(OpT op,
                                             SymbolTableCollection &symbols) {
  for (Type t : op.getInputs().getTypes())
    if (failed(checkReducer(op, symbols, "to_apply", op.getToApplyAttr(),
                            TypeRange{t}, TypeRange{t})))
      return failure();
  return success();
}

LogicalResult AllReduceOp::verify() { return verifyAllReduceLike(*this); }
LogicalResult AllReduceOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return checkElementwiseReducer(*this, symbols);
}
LogicalResult
AllReduceStartOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return checkElementwiseReducer(*this, symbols);
}
LogicalResult
ReduceScatterOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return checkElementwiseReducer(*this, symbols);
}

LogicalResult AllReduceStartOp::verify() {
  if (failed(verifyAllReduceLike(*this)))
    return failure();
  return verifyStartUser<AllReduceDoneOp>(*this, "all_reduce_done");
}

LogicalResult AllGatherOp::verify() {
  auto shards = collectiveShards(*this, getReplicaGroupsAttr(), getChannelId(),
                                 getUseGlobalDeviceIds(), true);
  if (failed(shards))
    return failure();
  return verifyAllGather(err(*this), getInputs().getTypes(), getType(),
                         getDimensions(), *shards);
}

LogicalResult AllGatherStartOp::verify() {
  auto shards = collectiveShards(*this, getReplicaGroupsAttr(), getChannelId(),
                                 getUseGlobalDeviceIds(), true);
  if (failed(shards))
    return failure();
  // Legacy form: ((operands), (results)); current form: the results.
  Type operands = packTuple(getContext(), getInputs().getTypes());
  Type gathered = getType();
  auto tt = dyn_cast<TupleType>(getType());
  if (tt && tt.size() == 2 && typesCompatible(tt.getType(0), operands))
    gathered = tt.getType(1);
  if (failed(verifyAllGather(err(*this), getInputs().getTypes(), gathered,
                             getDimensions(), *shards)))
    return failure();
  return verifyStartUser<AllGatherDoneOp>(*this, "all_gather_done");
}

LogicalResult ReduceScatterOp::verify() {
  auto shards = collectiveShards(*this, getReplicaGroupsAttr(), getChannelId(),
                                 getUseGlobalDeviceIds(), true);
  if (failed(shards))
    return failure();
  return verifyReduceScatter(err(*this), getInputs().getTypes(), getType(),
                             getDimensions(), *shards);
}

LogicalResult AllToAllOp::verify() {
  // all-to-all has no use_global_device_ids: with a channel id its groups
  // list partitions.
  auto shards = collectiveShards(*this, getReplicaGroupsAttr(), getChannelId(),
                                 std::nullopt, true);
  if (failed(shards))
    return failure();
  shards->exact = true;
  return verifyAllToAll(err(*this), getInputs().getTypes(), getType(),
                        orEmpty(getDimensions()), *shards);
}

LogicalResult CollectiveBroadcastOp::verify() {
  if (failed(collectiveShards(*this, getReplicaGroupsAttr(), getChannelId(),
                              getUseGlobalDeviceIds(), false)))
    return failure();
  return checkResultType(*this, getType(),
                         packTuple(getContext(), getInputs().getTypes()),
                         "the operand types");
}

/// source_target_pairs as lists of ids, in `chunks` chunks.
static LogicalResult checkPairs(Operation *op, std::optional<ArrayAttr> attr,
                                int64_t chunks) {
  if (!attr || !*attr)
    return success();
  SmallVector<ArrayRef<int64_t>> pairs;
  for (Attribute a : *attr) {
    auto pair = dyn_cast<DenseI64ArrayAttr>(a);
    if (!pair)
      return op->emitOpError("source_target_pairs entry ")
             << a << " must be an array<i64: source, target>";
    pairs.push_back(pair.asArrayRef());
  }
  return verifySourceTargetPairs([op]() { return op->emitOpError(); }, pairs,
                                 chunks);
}

/// What collective-permute and its start have in common: the pairs, and
/// the operands of the in-place form or of the arrays permuted together.
/// Through `buffer`, the output buffer type of the in-place form, else the
/// operand's type or (XLA's combined form) the tuple of the operands' types.
template <typename OpT>
static LogicalResult verifyCollectivePermute(OpT op, Type &buffer) {
  auto err = [&]() { return op.emitOpError(); };
  int64_t chunks = 1;
  TypeRange inputs = op.getInputs().getTypes();
  if (!isInPlacePermute(inputs)) {
    if (op.getSliceSizes())
      return op.emitOpError("slice_sizes is only for the in-place form "
                            "(four operands)");
    for (Type t : inputs)
      if (!isa<RankedTensorType>(t))
        return op.emitOpError("operand ")
               << t
               << " must be an array (the in-place form takes four "
                  "operands: input, output, input and output start "
                  "indices)";
    buffer = inputs.size() == 1 ? inputs[0]
                                : TupleType::get(op.getContext(), inputs);
  } else {
    FailureOr<InPlacePermute> form =
        verifyInPlacePermute(err, inputs, op.getSliceSizesAttr());
    if (failed(form))
      return failure();
    chunks = form->entries;
    buffer = inputs[1];
  }
  return checkPairs(op, op.getSourceTargetPairs(), chunks);
}

/// What the result type of a collective-permute is checked against.
static StringRef permuteResultName(TypeRange inputs) {
  if (isInPlacePermute(inputs))
    return "the output buffer type";
  return inputs.size() == 1 ? "the operand type" : "the operands' types";
}

LogicalResult CollectivePermuteOp::verify() {
  Type buffer;
  if (failed(verifyCollectivePermute(*this, buffer)))
    return failure();
  return checkResultType(*this, getType(), buffer,
                         permuteResultName(getInputs().getTypes()));
}

LogicalResult CollectivePermuteStartOp::verify() {
  Type buffer;
  if (failed(verifyCollectivePermute(*this, buffer)))
    return failure();
  // Legacy form: (operand(s) or input buffer, result, u32 context...);
  // current form: the result.
  TypeRange inputs = getInputs().getTypes();
  Type in = isInPlacePermute(inputs) ? inputs[0] : buffer;
  auto tt = dyn_cast<TupleType>(getType());
  if (tt && tt.size() >= 2 && !typesCompatible(getType(), buffer)) {
    if (!typesCompatible(tt.getType(0), in) ||
        !typesCompatible(tt.getType(1), buffer))
      return emitOpError("result type ")
             << getType() << " should start with (operand, result) of types ("
             << in << ", " << buffer << ")";
  } else if (failed(checkResultType(*this, getType(), buffer,
                                    permuteResultName(inputs)))) {
    return failure();
  }
  return verifyStartUser<CollectivePermuteDoneOp>(*this,
                                                  "collective_permute_done");
}

//===----------------------------------------------------------------------===//
// -done ops and copy-start
//===----------------------------------------------------------------------===//

LogicalResult AllReduceDoneOp::verify() {
  if (failed(verifyDoneOperand<AllReduceStartOp>(*this, getOperand(),
                                                 "all_reduce_start")))
    return failure();
  return checkResultType(*this, getType(), getOperand().getType(),
                         "the start's result type");
}

LogicalResult AllGatherDoneOp::verify() {
  if (failed(verifyDoneOperand<AllGatherStartOp>(*this, getOperand(),
                                                 "all_gather_start")))
    return failure();
  return verifyDoneResult(*this, getOperand().getType(), getType());
}

LogicalResult CollectivePermuteDoneOp::verify() {
  if (failed(verifyDoneOperand<CollectivePermuteStartOp>(
          *this, getOperand(), "collective_permute_start")))
    return failure();
  return verifyDoneResult(*this, getOperand().getType(), getType());
}

LogicalResult CopyStartOp::verify() {
  Type in = getOperand().getType();
  MLIRContext *ctx = getContext();
  if (failed(checkResultType(*this, getType(),
                             TupleType::get(ctx, {in, in, u32Scalar(ctx)}),
                             "(destination, source, u32 context)")))
    return failure();
  return verifyStartUser<CopyDoneOp>(*this, "copy_done");
}

LogicalResult CopyDoneOp::verify() {
  if (failed(verifyDoneOperand<CopyStartOp>(*this, getOperand(), "copy_start")))
    return failure();
  auto tt = dyn_cast<TupleType>(getOperand().getType());
  if (!tt || tt.size() != 3 || !typesCompatible(getType(), tt.getType(0)))
    return emitOpError("result type ")
           << getType() << " must be element 0 of the copy_start tuple";
  return success();
}

//===----------------------------------------------------------------------===//
// Point-to-point and host transfer
//===----------------------------------------------------------------------===//

/// send and recv produce (data, u32 context, token).
static LogicalResult checkTransferTuple(Operation *op, StringRef what, Type t,
                                        std::optional<Type> data) {
  auto tt = dyn_cast<TupleType>(t);
  MLIRContext *ctx = op->getContext();
  if (!tt || tt.size() != 3 ||
      !typesCompatible(tt.getType(1), u32Scalar(ctx)) ||
      !isa<TokenType>(tt.getType(2)))
    return op->emitOpError(what)
           << " must be a (data, u32[] context, token) tuple, got " << t;
  if (data && !typesCompatible(tt.getType(0), *data))
    return op->emitOpError(what) << " element 0 " << tt.getType(0)
                                 << " must be the data type " << *data;
  return success();
}

/// A -done op's channel id matches its start's (both have none, as XLA's
/// parser requires, or the same).
template <typename DoneT> static LogicalResult checkChannel(DoneT done) {
  // XLA's parser takes a send's or a recv's context for either done (and
  // compares the channels).
  Operation *def = done.getOperand().getDefiningOp();
  std::optional<int64_t> startChannel;
  if (auto send = dyn_cast_or_null<SendOp>(def))
    startChannel = send.getChannelId();
  else if (auto recv = dyn_cast_or_null<RecvOp>(def))
    startChannel = recv.getChannelId();
  else
    return success();
  if (startChannel == done.getChannelId())
    return success();
  if (!startChannel || !done.getChannelId())
    return done.emitOpError(done.getChannelId()
                                ? "has a channel_id but its start has none"
                                : "has no channel_id but its start has one");
  return done.emitOpError("channel_id ")
         << *done.getChannelId() << " differs from its start's "
         << *startChannel;
}

LogicalResult SendOp::verify() {
  if (failed(checkToken(*this, "token operand", getToken().getType())))
    return failure();
  return checkTransferTuple(*this, "result", getType(), getOperand().getType());
}
LogicalResult SendDoneOp::verify() {
  if (failed(checkTransferTuple(*this, "operand", getOperand().getType(),
                                std::nullopt)) ||
      failed(checkToken(*this, "result", getType())))
    return failure();
  return checkChannel(*this);
}
LogicalResult RecvOp::verify() {
  if (failed(checkToken(*this, "operand", getOperand().getType())))
    return failure();
  return checkTransferTuple(*this, "result", getType(), std::nullopt);
}
LogicalResult RecvDoneOp::verify() {
  if (failed(checkTransferTuple(*this, "operand", getOperand().getType(),
                                std::nullopt)))
    return failure();
  Type data = cast<TupleType>(getOperand().getType()).getType(0);
  if (failed(checkResultType(
          *this, getType(),
          TupleType::get(getContext(), {data, TokenType::get(getContext())}),
          "(data, token)")))
    return failure();
  return checkChannel(*this);
}
LogicalResult InfeedOp::verify() {
  if (failed(checkToken(*this, "operand", getOperand().getType())))
    return failure();
  auto tt = dyn_cast<TupleType>(getType());
  if (!tt || tt.size() != 2 || !isa<TokenType>(tt.getType(1)))
    return emitOpError("result must be a (data, token) tuple, got ")
           << getType();
  return success();
}
LogicalResult OutfeedOp::verify() {
  if (failed(checkToken(*this, "token operand", getToken().getType())) ||
      failed(checkToken(*this, "result", getType())))
    return failure();
  if (auto shape = getOutfeedShape())
    if (!isHloValueType(*shape) ||
        !typesCompatible(*shape, getOperand().getType()))
      return emitOpError("outfeed_shape ")
             << *shape << " must match the operand type "
             << getOperand().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Async (seed 001)
//===----------------------------------------------------------------------===//

/// Opcodes that have their own -start/-done forms and so may not be wrapped.
static bool hasOwnAsyncForm(Operation *op) {
  return isa<CopyOp, AllReduceOp, AllGatherOp, CollectivePermuteOp, SendOp,
             RecvOp, CopyStartOp, AllReduceStartOp, AllGatherStartOp,
             CollectivePermuteStartOp, SendDoneOp, RecvDoneOp>(op);
}

/// Each start or update has exactly one user, an update or done.
static LogicalResult verifyAsyncUser(Operation *op) {
  SmallVector<Operation *> users = dataUsers(op->getResult(0));
  if (users.size() != 1)
    return op->emitOpError("must have exactly one user (an async_update or "
                           "async_done), has ")
           << users.size();
  Operation *user = users.front();
  if (!isa<AsyncUpdateOp, AsyncDoneOp>(user))
    return op->emitOpError("is used by '")
           << user->getName() << "'; only async_update or async_done may";
  return success();
}

/// The operand of an update or done comes from a start or update.
static LogicalResult verifyAsyncOperand(Operation *op, Value v) {
  if (!isa_and_nonnull<AsyncStartOp, AsyncUpdateOp>(v.getDefiningOp()))
    return op->emitOpError("operand must be produced by async_start or "
                           "async_update");
  return success();
}

/// Walks back to the start of the chain `v` belongs to.
static AsyncStartOp findStart(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto start = dyn_cast<AsyncStartOp>(def))
      return start;
    if (auto update = dyn_cast<AsyncUpdateOp>(def)) {
      v = update.getOperand();
      continue;
    }
    break;
  }
  return {};
}

/// An update or done that names `calls` or a thread names its start's.
static LogicalResult verifySameChain(Operation *op, Value operand,
                                     FlatSymbolRefAttr calls,
                                     StringAttr thread) {
  AsyncStartOp start = findStart(operand);
  if (!start)
    return success();
  if (calls && calls != start.getCallsAttr())
    return op->emitOpError("calls ")
           << calls << " differs from its start's " << start.getCallsAttr();
  if (thread && start.getAsyncExecutionThreadAttr() &&
      thread != start.getAsyncExecutionThreadAttr())
    return op->emitOpError("async_execution_thread ")
           << thread << " differs from its start's "
           << start.getAsyncExecutionThreadAttr();
  return success();
}

LogicalResult AsyncStartOp::verify() {
  auto tt = dyn_cast<TupleType>(getType());
  if (!tt || tt.size() < 2)
    return emitOpError("result must be a tuple ((operands), outputs, "
                       "context...), got ")
           << getType();
  auto ops = dyn_cast<TupleType>(tt.getType(0));
  if (!ops || !typesCompatible(
                  ops, TupleType::get(getContext(), getInputs().getTypes())))
    return emitOpError("tuple element 0 ")
           << tt.getType(0) << " must be the tuple of operand types";
  return verifyAsyncUser(*this);
}

LogicalResult AsyncStartOp::verifySymbolUses(SymbolTableCollection &symbols) {
  FailureOr<ComputationOp> callee =
      resolveCallee(*this, symbols, "calls", getCallsAttr());
  if (failed(callee))
    return failure();
  auto tt = cast<TupleType>(getType());
  if (failed(verifySignature(err(*this), "calls", callee->getFunctionType(),
                             TypeRange(getInputs().getTypes()), tt.getType(1))))
    return failure();
  if (auto thread = getAsyncExecutionThreadAttr())
    if (auto calleeThread = callee->getExecutionThreadAttr())
      if (thread != calleeThread)
        return emitOpError("async_execution_thread ")
               << thread << " differs from the execution_thread "
               << calleeThread << " of " << getCallsAttr();
  Region &body = callee->getBody();
  if (body.empty() || body.front().empty())
    return success();
  auto ret = dyn_cast<ReturnOp>(body.front().back());
  if (!ret)
    return success();
  if (Operation *rootOp = ret.getRoot().getDefiningOp())
    if (hasOwnAsyncForm(rootOp))
      return emitOpError("may not wrap '")
             << rootOp->getName() << "', which has its own -start/-done form";
  return success();
}

LogicalResult AsyncUpdateOp::verify() {
  if (failed(verifyAsyncOperand(*this, getOperand())))
    return failure();
  if (!typesCompatible(getOperand().getType(), getType()))
    return emitOpError("result type ")
           << getType() << " must equal the operand type "
           << getOperand().getType();
  if (failed(verifySameChain(*this, getOperand(), getCallsAttr(),
                             getAsyncExecutionThreadAttr())))
    return failure();
  return verifyAsyncUser(*this);
}

LogicalResult AsyncDoneOp::verify() {
  if (failed(verifyAsyncOperand(*this, getOperand())))
    return failure();
  auto tt = dyn_cast<TupleType>(getOperand().getType());
  if (!tt || tt.size() < 2 || !typesCompatible(tt.getType(1), getType()))
    return emitOpError("result type ")
           << getType() << " must be element 1 of the start's tuple";
  return verifySameChain(*this, getOperand(), getCallsAttr(),
                         getAsyncExecutionThreadAttr());
}

LogicalResult AsyncUpdateOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return resolveCallee(*this, symbols, "calls", getCallsAttr());
}
LogicalResult AsyncDoneOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return resolveCallee(*this, symbols, "calls", getCallsAttr());
}

//===----------------------------------------------------------------------===//
// Module-wide rules, checked once from the ENTRY computation
//===----------------------------------------------------------------------===//

LogicalResult ComputationOp::verifySymbolUses(SymbolTableCollection &) {
  // A fused computation belongs to its fusion (XLA's verifier: the fused
  // computation's fusion instruction is the one calling it), so a pass that
  // edits it changes one fusion. One walk of the module, from ENTRY only.
  Operation *module = (*this)->getParentOp();
  if (!getEntry() || !module)
    return success();
  DenseMap<StringAttr, FusionOp> callers;
  WalkResult walk = module->walk([&](FusionOp fusion) {
    auto [it, inserted] =
        callers.try_emplace(fusion.getCallsAttr().getAttr(), fusion);
    if (inserted)
      return WalkResult::advance();
    InFlightDiagnostic diag = fusion.emitOpError("calls fused computation ")
                              << fusion.getCallsAttr()
                              << ", which another fusion calls too; a fused "
                                 "computation has exactly one caller";
    diag.attachNote(it->second.getLoc()) << "the other fusion";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// Aliasing, custom calls, scan and the newer ops
//===----------------------------------------------------------------------===//

static LogicalResult verifyOutputToOperandAliasing(Operation *op,
                                                   ArrayAttr aliasing,
                                                   TypeRange operands,
                                                   Type result) {
  if (!aliasing)
    return success();
  // The entries are #hlo.output_operand_alias (checked by the attribute's
  // constraint and verifier); here they are checked against the types.
  for (auto entry : aliasing.getAsRange<OutputOperandAliasAttr>()) {
    ArrayRef<int64_t> output = entry.getOutputIndex();
    ArrayRef<int64_t> operandIndex = entry.getOperandIndex();
    int64_t n = entry.getOperand();
    if (n >= int64_t(operands.size()))
      return op->emitOpError("output_to_operand_aliasing names operand ")
             << n << " but the instruction has " << operands.size();
    Type out = getSubshape(result, output);
    Type in = getSubshape(operands[n], operandIndex);
    if (!out)
      return op->emitOpError("output_to_operand_aliasing output index {")
             << output << "} is not in the result " << result;
    if (!in)
      return op->emitOpError("output_to_operand_aliasing operand index {")
             << operandIndex << "} is not in operand " << n;
    if (!typesCompatible(out, in))
      return op->emitOpError("output_to_operand_aliasing makes ")
             << out << " alias " << in << "; they must have the same shape";
  }
  return success();
}

LogicalResult CustomCallOp::verify() {
  if (auto constraints = getOperandLayoutConstraintsAttr()) {
    if (constraints.size() != getInputs().size())
      return emitOpError("operand_layout_constraints has ")
             << constraints.size() << " shapes for " << getInputs().size()
             << " operands";
    for (auto [i, c] : llvm::enumerate(constraints))
      if (!isHloValueType(cast<TypeAttr>(c).getValue()) ||
          !typesCompatible(cast<TypeAttr>(c).getValue(),
                           getInputs()[i].getType()))
        return emitOpError("operand_layout_constraints entry ")
               << i << " " << cast<TypeAttr>(c).getValue()
               << " does not match operand type " << getInputs()[i].getType();
  }
  if (DictionaryAttr literal = getLiteralAttr())
    if (failed(verifyLiteral(*this, literal.get("value"),
                             literal.getAs<TypeAttr>("shape").getValue())))
      return failure();
  if (getCustomCallTarget() == "Sharding") {
    std::string why;
    if (failed(readUnspecifiedDims(*this, why)))
      return emitOpError("Sharding: ") << why;
  }
  if (getCustomCallTarget() == kTeScaledSoftmaxForward) {
    std::string why;
    if (failed(readTeScaledSoftmaxCall(*this, why)))
      return emitOpError(kTeScaledSoftmaxForward) << ": " << why;
  }
  return verifyOutputToOperandAliasing(*this, getOutputToOperandAliasingAttr(),
                                       getInputs().getTypes(), getType());
}

LogicalResult
CustomCallOp::verifySymbolUses(SymbolTableCollection &symbols) {
  if (auto called = getCalledComputationsAttr())
    for (Attribute a : called) {
      auto sym = dyn_cast<FlatSymbolRefAttr>(a);
      if (!sym)
        return emitOpError("called_computations entry ")
               << a << " must be a flat symbol reference";
      if (failed(resolveCallee(*this, symbols, "called_computations", sym)))
        return failure();
    }
  return resolveCallee(*this, symbols, "to_apply", getToApplyAttr());
}

void CustomCallOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (!getCustomCallHasSideEffect().value_or(false))
    return;
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

LogicalResult BitcastOp::verify() {
  auto in = dyn_cast<RankedTensorType>(getOperand().getType());
  auto out = dyn_cast<RankedTensorType>(getType());
  if (!in || !out)
    return emitOpError("operand and result must be arrays, got ")
           << getOperand().getType() << " and " << getType();
  if (bitcastKeepsMemory(in, out))
    return success();
  return emitOpError("changes the size from ")
         << *getBitcastBytes(in) << " to " << *getBitcastBytes(out)
         << " bytes; a bitcast keeps the number of bytes";
}

LogicalResult ScanOp::verify() {
  std::optional<ArrayRef<int64_t>> dims = getDimensions();
  if (!dims || dims->size() != 1)
    return emitOpError("needs exactly one scan dimension (dimensions={d})");
  if (!getToApplyAttr())
    return emitOpError("needs a to_apply computation");
  int64_t carries = int64_t(getNumCarries().value_or(0));
  int64_t numOperands = getInputs().size();
  if (carries < 0 || carries > numOperands)
    return emitOpError("num_carries ")
           << carries << " is not in [0, " << numOperands << "]";
  int64_t dim = (*dims)[0];
  std::optional<int64_t> length;
  // Without num_carries the split of inputs and carries is unknown.
  for (Value in : getInputs().drop_back(getNumCarries() ? carries
                                                        : numOperands)) {
    auto t = dyn_cast<RankedTensorType>(in.getType());
    if (!t || dim < 0 || dim >= t.getRank())
      return emitOpError("input of type ")
             << in.getType() << " has no scan dimension " << dim;
    if (length && !dimsCompatible(*length, t.getDimSize(dim)))
      return emitOpError("inputs differ in the size of dimension ") << dim;
    length = t.getDimSize(dim);
  }
  SmallVector<Type> results = unpackTuple(getType());
  if (int64_t(results.size()) < carries)
    return emitOpError("result has fewer elements than num_carries (")
           << carries << ")";
  for (auto [k, in] :
       llvm::enumerate(getInputs().take_back(carries).getTypes()))
    if (!typesCompatible(in, results[results.size() - carries + k]))
      return emitOpError("carry ")
             << k << " of type " << in << " differs from its result type "
             << results[results.size() - carries + k];
  return success();
}

LogicalResult ScanOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return resolveCallee(*this, symbols, "to_apply", getToApplyAttr());
}

Type mlir::hlo::getScaledDotOperandType(Type operand, Type scale) {
  unsigned a = operand.getIntOrFloatBitWidth(),
           b = scale.getIntOrFloatBitWidth();
  if (a < 16 && b < 16)
    return BFloat16Type::get(operand.getContext());
  if (operand == scale)
    return operand;
  if (a == b)
    return Float32Type::get(operand.getContext());
  return a > b ? operand : scale;
}

LogicalResult ScaledDotOp::verify() {
  if (getInputs().size() != 4)
    return emitOpError("needs lhs, rhs, lhs_scale and rhs_scale, got ")
           << getInputs().size() << " operands";
  for (auto [x, scale] : {std::pair{0, 2}, std::pair{1, 3}}) {
    auto t = dyn_cast<RankedTensorType>(getInputs()[x].getType());
    auto s = dyn_cast<RankedTensorType>(getInputs()[scale].getType());
    // A scalar scale leaves its operand unscaled (as XLA's parser and GPU
    // compiler take it).
    if (t && s && s.getRank() == 0)
      continue;
    if (!t || !s || t.getRank() != s.getRank())
      return emitOpError("operand ")
             << scale << " must be a scale of operand " << x
             << "'s rank or a scalar, got " << getInputs()[scale].getType();
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (!t.isDynamicDim(d) && !s.isDynamicDim(d) &&
          (s.getDimSize(d) < 1 || t.getDimSize(d) % s.getDimSize(d)))
        return emitOpError("scale dimension ")
               << d << " of operand " << scale << " does not divide operand "
               << x << "'s";
  }
  FailureOr<Type> dot =
      inferDot(err(*this), getLhs().getType(), getRhs().getType(),
               orEmpty(getLhsBatchDims()), orEmpty(getLhsContractingDims()),
               orEmpty(getRhsBatchDims()), orEmpty(getRhsContractingDims()));
  if (failed(dot))
    return failure();
  return verifyInferredType(err(*this), *dot, getType(),
                            /*anyElementType=*/true);
}

LogicalResult RaggedDotOp::verify() {
  if (getInputs().size() != 3)
    return emitOpError("needs lhs, rhs and group_sizes, got ")
           << getInputs().size() << " operands";
  auto lhs = dyn_cast<RankedTensorType>(getInputs()[0].getType());
  auto rhs = dyn_cast<RankedTensorType>(getInputs()[1].getType());
  auto sizes = dyn_cast<RankedTensorType>(getInputs()[2].getType());
  if (!lhs || !rhs || !isa_and_nonnull<RankedTensorType>(getType()))
    return emitOpError("lhs, rhs and the result must be arrays");
  if (!sizes || !isa<IntegerType>(sizes.getElementType()) ||
      sizes.getElementType().isInteger(1) || sizes.getRank() < 1)
    return emitOpError("group_sizes must be an integer array, got ")
           << getInputs()[2].getType();
  ArrayRef<int64_t> ragged = orEmpty(getLhsRaggedDims());
  if (ragged.size() != 1 || ragged[0] < 0 || ragged[0] >= lhs.getRank())
    return emitOpError("lhs_ragged_dims must name one lhs dimension");
  bool contracting = llvm::is_contained(orEmpty(getLhsContractingDims()),
                                        ragged[0]);
  bool batch = llvm::is_contained(orEmpty(getLhsBatchDims()), ragged[0]);
  ArrayRef<int64_t> group = orEmpty(getRhsGroupDims());
  if (!contracting && !batch &&
      (group.size() != 1 || group[0] < 0 || group[0] >= rhs.getRank()))
    return emitOpError("a ragged non-contracting dimension needs one rhs "
                       "group dimension");
  for (ArrayRef<int64_t> dims :
       {orEmpty(getLhsBatchDims()), orEmpty(getLhsContractingDims())})
    for (int64_t d : dims)
      if (d < 0 || d >= lhs.getRank())
        return emitOpError("lhs dimension ") << d << " is out of range";
  for (ArrayRef<int64_t> dims :
       {orEmpty(getRhsBatchDims()), orEmpty(getRhsContractingDims())})
    for (int64_t d : dims)
      if (d < 0 || d >= rhs.getRank())
        return emitOpError("rhs dimension ") << d << " is out of range";
  return success();
}

LogicalResult RaggedAllToAllOp::verify() {
  if (getInputs().size() != 6)
    return emitOpError("needs input, output, input_offsets, send_sizes, "
                       "output_offsets and recv_sizes, got ")
           << getInputs().size() << " operands";
  auto input = dyn_cast<RankedTensorType>(getInputs()[0].getType());
  auto output = dyn_cast<RankedTensorType>(getInputs()[1].getType());
  if (!input || !output || input.getRank() != output.getRank() ||
      input.getRank() < 1 || input.getElementType() != output.getElementType())
    return emitOpError("input and output must be arrays of one element type "
                       "and rank, got ")
           << input << " and " << output;
  Type offsets = getInputs()[2].getType();
  for (Value v : getInputs().drop_front(2)) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t || !isa<IntegerType>(t.getElementType()) ||
        !typesCompatible(v.getType(), offsets))
      return emitOpError("offsets and sizes must be integer arrays of one "
                         "shape, got ")
             << v.getType();
  }
  if (failed(collectiveShards(*this, getReplicaGroupsAttr(), getChannelId(),
                              getUseGlobalDeviceIds(), false)))
    return failure();
  return checkResultType(*this, getType(), output, "the output's type");
}

LogicalResult CollectiveReduceOp::verify() {
  return verifyAllReduceLike(*this);
}
LogicalResult
CollectiveReduceOp::verifySymbolUses(SymbolTableCollection &symbols) {
  return checkElementwiseReducer(*this, symbols);
}

LogicalResult ShuffleOp::verify() {
  for (Type t : getInputs().getTypes())
    if (!isa<RankedTensorType>(t))
      return emitOpError("operands must be arrays, got ") << t;
  if (failed(collectiveShards(*this, getReplicaGroupsAttr(), getChannelId(),
                              getUseGlobalDeviceIds(), true)))
    return failure();
  return checkResultType(*this, getType(),
                         packTuple(getContext(), getInputs().getTypes()),
                         "the operand types");
}

//===----------------------------------------------------------------------===//
// Effects of ops that call computations
//===----------------------------------------------------------------------===//

/// The computations `op` runs, if it is a call, while or conditional.
static std::optional<SmallVector<FlatSymbolRefAttr>> getCallees(Operation *op) {
  if (auto call = dyn_cast<CallOp>(op))
    return SmallVector<FlatSymbolRefAttr>{call.getToApplyAttr()};
  if (auto loop = dyn_cast<WhileOp>(op))
    return SmallVector<FlatSymbolRefAttr>{loop.getConditionAttr(),
                                          loop.getBodyAttr()};
  if (auto cond = dyn_cast<ConditionalOp>(op))
    return cond.getBranches();
  return std::nullopt;
}

/// isEffectFree with `lookup` finding computations; `inQuery` holds those
/// already asked about (effect-free, or on the current path).
static bool
isEffectFree(Operation *op,
             function_ref<ComputationOp(Operation *, FlatSymbolRefAttr)> lookup,
             llvm::SmallPtrSetImpl<Operation *> &inQuery) {
  std::optional<SmallVector<FlatSymbolRefAttr>> callees = getCallees(op);
  if (!callees)
    return isMemoryEffectFree(op);
  for (FlatSymbolRefAttr sym : *callees) {
    ComputationOp comp = sym ? lookup(op, sym) : ComputationOp();
    if (!comp)
      return false;
    if (!inQuery.insert(comp).second)
      continue;
    for (Operation &inner : comp.getBody().getOps())
      if (!isEffectFree(&inner, lookup, inQuery))
        return false;
  }
  return true;
}

bool mlir::hlo::isEffectFree(Operation *op, SymbolTable &symbols) {
  llvm::SmallPtrSet<Operation *, 8> inQuery;
  return ::isEffectFree(
      op,
      [&](Operation *, FlatSymbolRefAttr sym) {
        return symbols.lookup<ComputationOp>(sym.getAttr());
      },
      inQuery);
}

/// Adds a read and a write if running `op`'s computations may have effects.
static void addCalleeEffects(
    Operation *op,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  llvm::SmallPtrSet<Operation *, 8> inQuery;
  auto lookup = [](Operation *from, FlatSymbolRefAttr sym) {
    return SymbolTable::lookupNearestSymbolFrom<ComputationOp>(from, sym);
  };
  if (!::isEffectFree(op, lookup, inQuery)) {
    effects.emplace_back(MemoryEffects::Read::get());
    effects.emplace_back(MemoryEffects::Write::get());
  }
}

void CallOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addCalleeEffects(*this, effects);
}
void WhileOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addCalleeEffects(*this, effects);
}
void ConditionalOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addCalleeEffects(*this, effects);
}

//===----------------------------------------------------------------------===//
// Folding
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValueAttr(); }
