//===- ScalarFunction.cpp - called computations on scalars ----------------===//
//
// Reducers, comparators, map bodies and scatter combiners run once per
// element. A body made of scalar elementwise ops, constants and a final
// tuple is compiled to a register program (one scalar literal per value)
// and run without the interpreter's environment; anything else (or element
// types the program does not handle) goes through Interp::call.
//
// A widened program (for tree reductions) computes in f32 where the body
// computes in one float type narrower than f32: the way XLA's CPU backend
// normalizes f16/bf16 reductions to f32.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::runtime::eval;

/// The element type of a scalar tensor type, or null.
static Type scalarElementType(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  return rt && rt.getRank() == 0 ? rt.getElementType() : Type();
}

/// The one float type narrower than f32 of every value in `body`, or null.
static FloatType narrowFloatType(Block &body) {
  FloatType narrow;
  auto same = [&](Value v) {
    auto ft = dyn_cast_or_null<FloatType>(scalarElementType(v.getType()));
    if (!ft || ft.getWidth() >= 32 || (narrow && ft != narrow))
      return false;
    narrow = ft;
    return true;
  };
  for (BlockArgument arg : body.getArguments())
    if (!same(arg))
      return {};
  for (Operation &op : body.without_terminator())
    if (!isa<TupleOp>(op) && !llvm::all_of(op.getResults(), same))
      return {};
  return narrow;
}

bool ScalarFunction::compile(Block &body, bool widen) {
  Type f32 = Float32Type::get(body.getParentOp()->getContext());
  // Only a body in one narrow float type is widened.
  widened = widen && narrowFloatType(body);
  auto regType = [&](Type elt) { return widened ? f32 : elt; };
  llvm::DenseMap<Value, unsigned> reg;
  for (BlockArgument arg : body.getArguments()) {
    Type elt = scalarElementType(arg.getType());
    if (!elt)
      return false;
    elt = regType(elt);
    reg[arg] = regs.size();
    regs.push_back(Literal::array(elt, {}));
  }
  numParams = regs.size();
  Value root = body.getTerminator()->getOperand(0);
  for (Operation &op : body.without_terminator()) {
    if (auto tuple = dyn_cast<TupleOp>(&op)) {
      if (tuple.getResult() != root)
        return false;
      for (Value v : tuple.getInputs()) {
        auto it = reg.find(v);
        if (it == reg.end())
          return false;
        resultRegs.push_back(it->second);
      }
      continue;
    }
    Type elt = scalarElementType(op.getResult(0).getType());
    if (!elt)
      return false;
    if (auto c = dyn_cast<ConstantOp>(&op)) {
      auto value = Literal::fromAttr(c.getValueAttr(), c.getType());
      if (failed(value))
        return false;
      reg[c.getResult()] = regs.size();
      regs.push_back(Literal::array(regType(elt), {}));
      convertElement(*value, 0, regs.back(), 0);
      continue;
    }
    auto fn = ElementwiseFn::get(&op);
    if (!fn || getDataOperands(&op).size() > 3)
      return false;
    Instr instr{*fn, {}, static_cast<unsigned>(regs.size())};
    for (Value v : getDataOperands(&op)) {
      auto it = reg.find(v);
      if (it == reg.end())
        return false;
      instr.args.push_back(it->second);
    }
    reg[op.getResult(0)] = regs.size();
    regs.push_back(Literal::array(regType(elt), {}));
    program.push_back(std::move(instr));
  }
  if (resultRegs.empty()) {
    auto it = reg.find(root);
    if (it == reg.end() || isa<TupleType>(root.getType()))
      return false;
    resultRegs.push_back(it->second);
  }
  return true;
}

FailureOr<ScalarFunction> ScalarFunction::get(Interp &interp, Operation *caller,
                                              StringRef callee, bool widen) {
  auto comp = interp.lookup(caller, callee);
  if (failed(comp))
    return failure();
  ScalarFunction f;
  f.interp = &interp;
  f.caller = caller;
  f.comp = *comp;
  Type resultType = comp->getResultTypes()[0];
  if (auto tt = dyn_cast<TupleType>(resultType))
    f.numResults = tt.size();
  if (Type elt = scalarElementType(resultType))
    f.pred = Literal::array(elt, {});
  f.compiled = f.compile(comp->getBody().front(), widen);
  f.widened = f.widened && f.compiled;
  if (!f.compiled) {
    f.regs.clear();
    f.program.clear();
    f.resultRegs.clear();
  }
  return f;
}

bool ScalarFunction::runProgram(ArrayRef<const Literal *> args,
                                ArrayRef<int64_t> argIdx) {
  if (args.size() != numParams)
    return false;
  for (unsigned k = 0; k < numParams; ++k) {
    if (args[k]->getElementType() == regs[k].getElementType())
      regs[k].copyElement(0, *args[k], argIdx[k]);
    else if (widened)
      convertElement(*args[k], argIdx[k], regs[k], 0);
    else
      return false;
  }
  const Literal *in[3];
  static const int64_t zeros[3] = {0, 0, 0};
  for (const Instr &instr : program) {
    for (size_t i = 0; i < instr.args.size(); ++i)
      in[i] = &regs[instr.args[i]];
    if (!instr.fn.apply(ArrayRef<const Literal *>(in, instr.args.size()),
                        ArrayRef<int64_t>(zeros, instr.args.size()),
                        regs[instr.out], 0))
      return false;
  }
  return true;
}

/// Stores scalar `value` (element 0) into out[k], converting when the
/// element types differ.
static void store(Literal &out, int64_t k, const Literal &value) {
  if (out.getElementType() == value.getElementType())
    out.copyElement(k, value, 0);
  else
    convertElement(value, 0, out, k);
}

LogicalResult ScalarFunction::apply(ArrayRef<const Literal *> args,
                                    ArrayRef<int64_t> argIdx,
                                    ArrayRef<Literal *> results,
                                    ArrayRef<int64_t> outIdx) {
  if (compiled) {
    if (runProgram(args, argIdx)) {
      for (size_t k = 0; k < results.size() && k < resultRegs.size(); ++k)
        store(*results[k], outIdx[k], regs[resultRegs[k]]);
      return success();
    }
    compiled = false; // not evaluable directly: interpret from now on
  }
  std::vector<Literal> scalars;
  for (auto [a, i] : llvm::zip(args, argIdx))
    scalars.push_back(scalarAt(*a, i));
  FailureOr<Literal> r =
      interp->call(caller, comp.getSymName(), std::move(scalars));
  if (failed(r))
    return failure();
  if (r->isArray()) {
    store(*results[0], outIdx[0], *r);
    return success();
  }
  for (auto [k, e] : llvm::enumerate(r->getElements()))
    if (k < results.size())
      store(*results[k], outIdx[k], e);
  return success();
}

FailureOr<bool> ScalarFunction::test(ArrayRef<const Literal *> args,
                                     ArrayRef<int64_t> argIdx) {
  if (!pred.isArray())
    return FailureOr<bool>(
        interp->fail(caller, "the comparator must return a pred scalar"));
  Literal *outs[] = {&pred};
  int64_t outIdx[] = {0};
  if (failed(apply(args, argIdx, outs, outIdx)))
    return failure();
  return !pred.isZero(0);
}

Fold::Fold(ScalarFunction &f, MutableArrayRef<Literal> accumulators,
           Operands inputs)
    : f(f), n(accumulators.size()), argIdx(2 * accumulators.size()),
      outIdx(accumulators.size()) {
  for (Literal &a : accumulators) {
    args.push_back(&a);
    outs.push_back(&a);
  }
  args.append(inputs.begin(), inputs.end());
}

LogicalResult Fold::operator()(int64_t at, int64_t from) {
  for (size_t k = 0; k < n; ++k) {
    argIdx[k] = at;
    argIdx[n + k] = from;
    outIdx[k] = at;
  }
  return f.apply(args, argIdx, outs, outIdx);
}
