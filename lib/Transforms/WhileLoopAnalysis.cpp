//===- WhileLoopAnalysis.cpp - the trip count of a while loop -------------===//

#include "WhileLoopAnalysis.h"

#include "TransformUtils.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::hlo;
using runtime::Literal;

//===----------------------------------------------------------------------===//
// Trip count
//===----------------------------------------------------------------------===//

std::optional<int64_t> mlir::hlo::elementIndex(Value v, Value tuple) {
  auto gte = v.getDefiningOp<GetTupleElementOp>();
  if (!gte || gte.getOperand() != tuple)
    return std::nullopt;
  return gte.getIndex();
}

/// XLA's GetGTEOperandIndex: N if every data operand of `op` is a
/// constant or get-tuple-element N of `param` (directly or through a
/// copy), for one N and at least one such operand.
static std::optional<int64_t> inductionIndex(Operation *op, Value param) {
  std::optional<int64_t> index;
  for (Value v : getDataOperands(op)) {
    if (v.getDefiningOp<ConstantOp>())
      continue;
    if (auto copy = v.getDefiningOp<CopyOp>())
      v = copy.getOperand();
    std::optional<int64_t> i = elementIndex(v, param);
    if (!i || (index && *index != *i))
      return std::nullopt;
    index = i;
  }
  return index;
}

namespace {
/// An instruction evaluated on the induction variable: its constant
/// operands are read once, the others stand for the variable.
class VariableFunction {
public:
  /// False if `op` is not evaluated here: it has side effects or control
  /// predecessors, calls a computation, or has a constant operand without
  /// literal.
  bool init(Operation *op) {
    this->op = op;
    if (op->getNumResults() != 1 || !isMemoryEffectFree(op) ||
        hasControlPredecessors(op))
      return false;
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(op))
      if (!uses->empty())
        return false;
    for (Value v : getDataOperands(op)) {
      auto constant = v.getDefiningOp<ConstantOp>();
      if (!constant) {
        constants.emplace_back();
        continue;
      }
      if (constant.isElided())
        return false;
      FailureOr<Literal> value =
          Literal::fromAttr(constant.getValue(), v.getType());
      if (failed(value))
        return false;
      constants.push_back(std::move(*value));
    }
    return true;
  }

  /// True if every operand is a constant.
  bool isConstant() const {
    return llvm::all_of(constants, [](const auto &c) { return c.has_value(); });
  }

  /// The value of the instruction for `variable`.
  FailureOr<Literal> operator()(runtime::Evaluator &evaluator,
                                const Literal *variable) const {
    SmallVector<const Literal *> args;
    for (const std::optional<Literal> &c : constants)
      args.push_back(c ? &*c : variable);
    std::string error;
    return evaluator.evaluate(op, args, error);
  }

private:
  Operation *op = nullptr;
  std::vector<std::optional<Literal>> constants;
};
} // namespace

std::optional<int64_t>
mlir::hlo::bruteForceTripCount(Loop &loop, runtime::Evaluator &evaluator,
                               int64_t maxTrips) {
  Operation *test = loop.cond.getRootValue().getDefiningOp();
  auto root = loop.body.getRootValue().getDefiningOp<TupleOp>();
  auto init = loop.init().getDefiningOp<TupleOp>();
  if (!test || !root || !init)
    return std::nullopt;
  std::optional<int64_t> k = inductionIndex(test, loop.condParam());
  if (!k)
    return std::nullopt;
  Operation *update = root.getInputs()[*k].getDefiningOp();
  if (!update || inductionIndex(update, loop.bodyParam()) != k)
    return std::nullopt;
  VariableFunction condition, step;
  if (!condition.init(test) || !step.init(update))
    return std::nullopt;

  // The init value: a constant, or an instruction of constants.
  Value start = init.getInputs()[*k];
  FailureOr<Literal> value = failure();
  if (auto constant = start.getDefiningOp<ConstantOp>()) {
    if (!constant.isElided())
      value = Literal::fromAttr(constant.getValue(), start.getType());
  } else if (Operation *def = start.getDefiningOp()) {
    VariableFunction initial;
    if (!getDataOperands(def).empty() && initial.init(def) &&
        initial.isConstant())
      value = initial(evaluator, nullptr);
  }
  if (failed(value))
    return std::nullopt;

  for (int64_t trips = 0; trips <= maxTrips; ++trips) {
    FailureOr<Literal> taken = condition(evaluator, &*value);
    if (failed(taken) || !taken->isArray() || taken->getNumElements() != 1)
      return std::nullopt;
    if (taken->isZero(0))
      return trips;
    value = step(evaluator, &*value);
    if (failed(value))
      return std::nullopt;
  }
  return std::nullopt;
}

DenseMap<int64_t, unsigned> mlir::hlo::countElementReads(Loop &loop) {
  DenseMap<int64_t, unsigned> reads;
  for (Value param : {loop.bodyParam(), loop.condParam()})
    for (Operation *user : param.getUsers())
      ++reads[cast<GetTupleElementOp>(user).getIndex()];
  return reads;
}

std::optional<APInt> mlir::hlo::integerConstant(Value v, bool &isSigned) {
  auto constant = v.getDefiningOp<ConstantOp>();
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!constant || constant.isElided() || !type || type.getRank() != 0)
    return std::nullopt;
  auto ints = dyn_cast<DenseIntElementsAttr>(constant.getValue());
  auto element = dyn_cast<IntegerType>(type.getElementType());
  if (!ints || !element || element.getWidth() > 64 || element.getWidth() < 2)
    return std::nullopt;
  isSigned = !element.isUnsigned();
  return ints.getSplatValue<APInt>();
}

/// The data operands of a binary `op`: (element N of `param`, the other).
static std::optional<std::pair<Value, bool>>
otherOperand(Operation *op, Value param, int64_t index) {
  ValueRange operands = getDataOperands(op);
  if (operands.size() != 2)
    return std::nullopt;
  for (int side = 0; side < 2; ++side)
    if (elementIndex(operands[side], param) == index)
      return std::pair{operands[1 - side], side == 1};
  return std::nullopt;
}

std::optional<CountedLoop> mlir::hlo::matchCountedLoop(Loop &loop) {
  auto compare = loop.cond.getRootValue().getDefiningOp<CompareOp>();
  auto root = loop.body.getRootValue().getDefiningOp<TupleOp>();
  auto init = loop.init().getDefiningOp<TupleOp>();
  if (!compare || !root || !init)
    return std::nullopt;
  std::optional<int64_t> k;
  for (Value v : getDataOperands(compare))
    if ((k = elementIndex(v, loop.condParam())))
      break;
  if (!k || *k >= int64_t(root.getInputs().size()))
    return std::nullopt;
  auto add = root.getInputs()[*k].getDefiningOp<AddOp>();
  auto bound = otherOperand(compare, loop.condParam(), *k);
  auto step = add ? otherOperand(add, loop.bodyParam(), *k) : std::nullopt;
  if (!bound || !step)
    return std::nullopt;
  bool signedBound, signedStep, signedInit;
  std::optional<APInt> b = integerConstant(bound->first, signedBound);
  std::optional<APInt> s = integerConstant(step->first, signedStep);
  std::optional<APInt> i = integerConstant(init.getInputs()[*k], signedInit);
  if (!b || !s || !i || b->getBitWidth() != i->getBitWidth())
    return std::nullopt;
  unsigned width = i->getBitWidth();
  auto value = [&](const APInt &v) -> __int128 {
    return signedInit ? __int128(v.getSExtValue()) : __int128(v.getZExtValue());
  };
  __int128 start = value(*i), limit = value(*b), delta = value(*s);
  __int128 lowest = signedInit ? -(__int128(1) << (width - 1)) : 0;
  __int128 highest = signedInit ? (__int128(1) << (width - 1)) - 1
                                : (__int128(1) << width) - 1;
  // The condition as `variable DIR limit`.
  ComparisonDirection dir = compare.getDirection();
  if (bound->second) { // the constant is on the left: mirror
    switch (dir) {
    case ComparisonDirection::LT:
      dir = ComparisonDirection::GT;
      break;
    case ComparisonDirection::LE:
      dir = ComparisonDirection::GE;
      break;
    case ComparisonDirection::GT:
      dir = ComparisonDirection::LT;
      break;
    case ComparisonDirection::GE:
      dir = ComparisonDirection::LE;
      break;
    default:
      break;
    }
  }
  __int128 trips;
  switch (dir) {
  case ComparisonDirection::LT:
  case ComparisonDirection::LE: {
    __int128 last = dir == ComparisonDirection::LT ? limit - 1 : limit;
    if (start > last)
      trips = 0;
    else if (delta <= 0)
      return std::nullopt;
    else
      trips = (last - start) / delta + 1;
    break;
  }
  case ComparisonDirection::GT:
  case ComparisonDirection::GE: {
    __int128 last = dir == ComparisonDirection::GT ? limit + 1 : limit;
    if (start < last)
      trips = 0;
    else if (delta >= 0)
      return std::nullopt;
    else
      trips = (start - last) / -delta + 1;
    break;
  }
  case ComparisonDirection::NE:
    if (delta == 0 || (limit - start) % delta != 0 ||
        (limit - start) / delta < 0)
      return std::nullopt;
    trips = (limit - start) / delta;
    break;
  default:
    return std::nullopt;
  }
  // The variable takes every value up to start + trips * step: none may
  // wrap around, or the loop would run on.
  __int128 end = start + trips * delta;
  if (end < lowest || end > highest || trips > INT64_MAX)
    return std::nullopt;
  return CountedLoop{*k, int64_t(start), int64_t(delta), int64_t(trips)};
}
