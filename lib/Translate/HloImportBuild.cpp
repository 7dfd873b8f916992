//===- HloImportBuild.cpp - building the module ---------------------------===//
//
// Part of the HLO text importer (see HloImporter.h).
//
//===----------------------------------------------------------------------===//

#include "HloImporter.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::detail;

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

static std::string hloShape(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  printHloShape(os, t);
  return s;
}

/// The size XLA gives dimension `i` of `t`: the bound of a bounded dynamic
/// dimension, kDynamic for an unbounded one.
static int64_t xlaDimSize(RankedTensorType t, int64_t i) {
  if (!ShapedType::isDynamic(t.getDimSize(i)))
    return t.getDimSize(i);
  auto layout = dyn_cast_or_null<LayoutAttr>(t.getEncoding());
  if (layout && static_cast<int64_t>(layout.getBounds().size()) > i)
    return layout.getBounds()[i];
  return ShapedType::kDynamic;
}

/// XLA's ShapeUtil::Compatible: equal shapes, ignoring layouts and whether
/// a bounded dimension is dynamic (its bound is compared; an unbounded one
/// matches any size).
static bool xlaCompatible(Type a, Type b) {
  auto ta = dyn_cast<RankedTensorType>(a);
  auto tb = dyn_cast<RankedTensorType>(b);
  if (ta && tb) {
    if (ta.getElementType() != tb.getElementType() ||
        ta.getRank() != tb.getRank())
      return false;
    // An unbounded dimension (`?`) is compatible with any size.
    for (int64_t i = 0; i < ta.getRank(); ++i) {
      int64_t x = xlaDimSize(ta, i), y = xlaDimSize(tb, i);
      if (x != y && !ShapedType::isDynamic(x) && !ShapedType::isDynamic(y))
        return false;
    }
    return true;
  }
  auto ua = dyn_cast<TupleType>(a);
  auto ub = dyn_cast<TupleType>(b);
  if (ua && ub) {
    if (ua.size() != ub.size())
      return false;
    for (auto [x, y] : llvm::zip(ua.getTypes(), ub.getTypes()))
      if (!xlaCompatible(x, y))
        return false;
    return true;
  }
  return a == b;
}

Location Importer::instrLoc(InstrAst &instr, ArrayRef<AttrAst> attrs) {
  // A nested parameter becomes a block argument: it is placed where the
  // instruction using it starts, so that export prints it before that use.
  size_t at = instr.opcode == "parameter" ? instr.anchor : instr.offset;
  Location nameLoc = NameLoc::get(b.getStringAttr(instr.name), locAt(at));
  for (const AttrAst &a : attrs)
    if (a.name == "metadata")
      if (Attribute md = parseMetadata(a))
        return FusedLoc::get(ctx, {nameLoc}, md);
  return nameLoc;
}

/// XLA's parser finds a called computation among those it has read: a
/// computation is defined before the instructions that call it.
bool Importer::checkCalleesDefined(const AttrAst &attr, Attribute value) {
  auto check = [&](Attribute a) {
    auto ref = dyn_cast<FlatSymbolRefAttr>(a);
    if (!ref || built.count(ref.getValue()))
      return true;
    StringRef name = ref.getValue();
    bool later =
        llvm::any_of(comps, [&](const CompAst &c) { return c.name == name; });
    return error(attr.offset, later ? "computation '" + name +
                                          "' is called before it is defined"
                                    : "computation does not exist: " + name);
  };
  if (auto list = dyn_cast<ArrayAttr>(value))
    return llvm::all_of(list, check);
  return check(value);
}

bool Importer::convertAttrs(StringRef opcode, ArrayRef<AttrAst> attrs,
                            ArrayRef<StringAttr> known, NamedAttrList &out) {
  NamedAttrList unknown;
  for (const AttrAst &a : attrs) {
    if (a.name == "metadata" || a.name == "control-predecessors")
      continue;
    StringRef mlirName;
    const AttrInfo *info = lookupHloAttr(a.name, opcode);
    bool isKnown =
        info && (known.empty() || llvm::any_of(known, [&](StringAttr k) {
                   return k.getValue() == info->mlirName;
                 }));
    if (!isKnown) {
      // Kept verbatim so that nothing in the text is lost.
      unknown.set(b.getStringAttr(a.name), TextAttr::get(ctx, a.value));
      continue;
    }
    Attribute value = convertAttr(opcode, a, mlirName);
    if (!value)
      return failed ? false : error(a.offset, "invalid attribute " + a.name);
    if ((info->kind == AttrKind::Symbol ||
         info->kind == AttrKind::SymbolList) &&
        !checkCalleesDefined(a, value))
      return false;
    if (out.get(mlirName))
      return error(a.offset, "duplicate attribute '" + a.name + "'");
    out.set(mlirName, value);
  }
  if (!unknown.empty())
    out.set("unknown_attrs", unknown.getDictionary(ctx));
  return true;
}

/// The number of data operands of `name` when it is fixed (the op has no
/// variadic data operand group), found by building the op once with more
/// operands than any HLO instruction has and counting what it takes for
/// data. Nothing for other ops or when there is no operand to build with.
std::optional<int64_t> Importer::fixedDataOperands(RegisteredOperationName name,
                                                   ArrayRef<Value> operands) {
  auto *concept = name.getInterface<InstructionOpInterface>();
  if (!concept || concept->getNumLeadingOperands() >= 0 || operands.empty())
    return std::nullopt;
  auto [it, isNew] = fixedOperandCounts.try_emplace(name.getStringRef());
  if (isNew) {
    constexpr int64_t kProbe = 16;
    OperationState state(UnknownLoc::get(ctx), name);
    state.addOperands(SmallVector<Value>(kProbe, operands.front()));
    state.addTypes(NoneType::get(ctx));
    Operation *probe = Operation::create(state);
    it->second =
        kProbe - static_cast<int64_t>(cast<InstructionOpInterface>(probe)
                                          .getControlPredecessors()
                                          .size());
    probe->destroy();
  }
  return it->second;
}

/// `extra` (a layout's verbatim items) without the items XLA's layout
/// equality ignores: `M(n)` (the dynamic shape metadata's prefix bytes) and
/// `D(...)` (the dimensions' level types).
static StringAttr withoutIgnoredItems(StringAttr extra) {
  std::string kept;
  StringRef s = extra.getValue();
  while (!s.empty()) {
    // An item is a name and a parenthesized list: `T(2)`, `SC(0:2)`.
    size_t close = s.find(')');
    StringRef item = close == StringRef::npos ? s : s.take_front(close + 1);
    s = s.drop_front(item.size());
    if (!item.starts_with("M(") && !item.starts_with("D("))
      kept += item.str();
  }
  return StringAttr::get(extra.getContext(), kept);
}

/// `type` as XLA's parser compares an async-update's shape with its
/// operand's: the default layout (row-major) on each array that has none, as
/// XLA's parser gives every array a layout, and none of the items XLA ignores.
static Type comparableLayouts(Type type) {
  MLIRContext *ctx = type.getContext();
  if (auto tuple = dyn_cast<TupleType>(type))
    return TupleType::get(
        ctx, llvm::map_to_vector(tuple.getTypes(), comparableLayouts));
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return type;
  auto layout = dyn_cast_or_null<LayoutAttr>(tensor.getEncoding());
  SmallVector<int64_t> m2m = getMinorToMajor(type);
  layout = layout ? LayoutAttr::get(ctx, true, m2m, layout.getTileSizes(),
                                    layout.getTileData(),
                                    layout.getElementSizeInBits(),
                                    layout.getMemorySpace(), layout.getBounds(),
                                    withoutIgnoredItems(layout.getExtra()))
                  : LayoutAttr::get(ctx, true, m2m, {}, {}, 0, 0, {},
                                    StringAttr::get(ctx, ""));
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               layout);
}

Operation *Importer::createOp(StringRef opcode, InstrAst &instr,
                              ArrayRef<Value> operands, ArrayRef<AttrAst> attrs,
                              Location loc, ArrayRef<Value> controls) {
  auto [it, isNew] = opNames.try_emplace(opcode);
  if (isNew) {
    std::string name = "hlo." + opcode.str();
    std::replace(name.begin(), name.end(), '-', '_');
    if (name != "hlo.computation" && name != "hlo.return")
      it->second = RegisteredOperationName::lookup(name, ctx);
  }
  std::optional<RegisteredOperationName> opName = it->second;
  if (!opName) {
    error(instr.opcodeOffset, "unknown opcode '" + opcode + "'");
    return nullptr;
  }
  if (instr.type)
    instr.type = shapeXlaBuilds(opcode, operands, instr.type);
  OperationState state(loc, *opName);
  addInstructionOperands(state, operands, controls);
  // Without a shape the result type is inferred once the op exists.
  state.addTypes(instr.type ? instr.type : NoneType::get(ctx));
  // Attributes XLA's parser requires where the dialect has a default.
  static const std::pair<StringRef, StringRef> kRequired[] = {
      {"collective-permute", "source_target_pairs"},
      {"collective-permute-start", "source_target_pairs"},
      {"domain", "domain"}};
  for (const auto &[op, required] : kRequired) {
    auto named = [&](const AttrAst &a) { return a.name == required; };
    if (opcode == op && llvm::none_of(attrs, named)) {
      error(instr.opcodeOffset,
            "attribute " + required + " is expected but not seen");
      return nullptr;
    }
  }
  NamedAttrList attributes;
  if (!convertAttrs(opcode, attrs, opName->getAttributeNames(), attributes))
    return nullptr;
  if (opcode == "constant") {
    if (!instr.type) {
      error(instr.opcodeOffset, "a constant needs a shape");
      return nullptr;
    }
    instr.type = withStaticBounds(instr.type);
    state.types.front() = instr.type;
    Cursor cur = sub(instr.literal);
    Attribute literal = parseLiteral(cur, instr.type);
    if (!literal)
      return nullptr;
    if (!cur.atEnd()) {
      error(instr.opcodeOffset, "unexpected text after the literal");
      return nullptr;
    }
    attributes.set("value", literal);
  }
  // XLA's map has no dimensions of its own (its parser reads and drops the
  // attribute): it maps over all dimensions of its operands.
  if (opcode == "map" && !operands.empty())
    if (auto t = dyn_cast<RankedTensorType>(operands.front().getType()))
      attributes.set("dimensions", b.getDenseI64ArrayAttr(llvm::to_vector(
                                       llvm::seq<int64_t>(0, t.getRank()))));
  // XLA's all-to-all names one split dimension when it names any.
  if (opcode == "all-to-all")
    if (auto dims = dyn_cast_or_null<DenseI64ArrayAttr>(
            attributes.get("dimensions"));
        dims && dims.size() != 1) {
      error(instr.opcodeOffset,
            "all-to-all's dimensions must name one dimension (the split "
            "dimension), not " +
                std::to_string(dims.size()));
      return nullptr;
    }
  // An op with a fixed number of data operands would take the extra ones
  // for control predecessors.
  if (std::optional<int64_t> fixed = fixedDataOperands(*opName, operands);
      fixed && static_cast<int64_t>(operands.size()) > *fixed) {
    error(instr.opcodeOffset,
          "expects " + std::to_string(*fixed) + " operands, but has " +
              std::to_string(operands.size()) + " operands (" + opcode.str() +
              ")");
    return nullptr;
  }
  // XLA's parser wants an async-update's shape to be its operand's, layouts
  // included (but for their `M(n)` and `D(...)` items).
  if (opcode == "async-update" && instr.type && operands.size() == 1 &&
      comparableLayouts(instr.type) !=
          comparableLayouts(operands.front().getType())) {
    error(instr.opcodeOffset, "async-update's shape must be its operand's, "
                              "layouts included");
    return nullptr;
  }
  state.addAttributes(attributes);
  Operation *op = Operation::create(state);
  if (!instr.type) {
    Type inferred = inferShape(op, instr);
    if (!inferred) {
      op->destroy();
      return nullptr;
    }
    op->getResult(0).setType(inferred);
  }
  if (!checkParameterReplication(attrs, op->getResult(0).getType())) {
    op->destroy();
    return nullptr;
  }
  return op;
}

/// XLA's parser reads `parameter_replication` on every instruction and
/// checks it against the shape's leaves (on other instructions than
/// parameters it then aborts: there it is kept as an unknown attribute).
bool Importer::checkParameterReplication(ArrayRef<AttrAst> attrs, Type type) {
  for (const AttrAst &a : attrs) {
    if (a.name != "parameter_replication")
      continue;
    if (!a.value.ltrim().starts_with("{"))
      return error(a.offset,
                   "expected '{' to start parameter_replication attribute");
    auto flags = dyn_cast_or_null<DenseBoolArrayAttr>(
        parseStructured(AttrKind::BoolList, a));
    if (!flags)
      return failed
                 ? false
                 : error(a.offset, "invalid attribute parameter_replication");
    int64_t leaves = getNumLeaves(type);
    if (flags.size() != leaves)
      return error(a.offset, "parameter has " + Twine(leaves) +
                                 " leaf buffers, but parameter_replication "
                                 "has " +
                                 Twine(flags.size()) + " elements");
  }
  return true;
}

/// The shape of a set-dimension-size written without one, as XLA's parser
/// infers it: the operand's, the dimension made dynamic with the operand's
/// size as its bound.
Type Importer::setDimensionSizeShape(SetDimensionSizeOp op) {
  auto operand = dyn_cast<RankedTensorType>(op.getOperand().getType());
  ArrayRef<int64_t> dims = op.getDimensions();
  if (!operand || dims.size() != 1 || dims[0] < 0 ||
      dims[0] >= operand.getRank())
    return {};
  int64_t d = dims[0];
  auto layout = dyn_cast_or_null<LayoutAttr>(operand.getEncoding());
  SmallVector<int64_t> shape(operand.getShape());
  SmallVector<int64_t> bounds(operand.getRank(), ShapedType::kDynamic);
  if (layout && !layout.getBounds().empty())
    bounds.assign(layout.getBounds().begin(), layout.getBounds().end());
  if (!ShapedType::isDynamic(shape[d]))
    bounds[d] = shape[d];
  if (ShapedType::isDynamic(bounds[d]))
    return {};
  shape[d] = ShapedType::kDynamic;
  auto newLayout =
      layout
          ? LayoutAttr::get(ctx, layout.getHasMinorToMajor(),
                            layout.getMinorToMajor(), layout.getTileSizes(),
                            layout.getTileData(), layout.getElementSizeInBits(),
                            layout.getMemorySpace(), bounds, layout.getExtra())
          : LayoutAttr::get(ctx, false, {}, {}, {}, 0, 0, bounds,
                            StringAttr::get(ctx, ""));
  return RankedTensorType::get(shape, operand.getElementType(), newLayout);
}

/// The shape XLA's parser gives the instructions it builds from their
/// operands whatever shape is written (send, send-done, recv-done, outfeed,
/// after-all, add-dependency), or from the data part of the written shape
/// (recv, infeed); `declared` for the others.
Type Importer::shapeXlaBuilds(StringRef opcode, ArrayRef<Value> operands,
                              Type declared) {
  // Most instructions are none of these: no types are made for them.
  if (!llvm::is_contained({"send-done", "outfeed", "after-all",
                           "add-dependency", "send", "recv-done", "recv",
                           "infeed"},
                          opcode))
    return declared;
  Type token = TokenType::get(ctx);
  Type context = RankedTensorType::get(
      {}, IntegerType::get(ctx, 32, IntegerType::Unsigned));
  if (opcode == "send-done" || opcode == "outfeed" || opcode == "after-all")
    return token;
  if (opcode == "add-dependency" && !operands.empty())
    return operands.front().getType();
  if (opcode == "send" && !operands.empty())
    return TupleType::get(ctx, {operands.front().getType(), context, token});
  if (opcode == "recv-done" && operands.size() == 1)
    if (auto recv = dyn_cast<TupleType>(operands.front().getType());
        recv && recv.size() == 3)
      return TupleType::get(ctx, {recv.getType(0), token});
  auto written = dyn_cast<TupleType>(declared);
  if (written && written.size() > 0) {
    if (opcode == "recv")
      return TupleType::get(ctx, {written.getType(0), context, token});
    if (opcode == "infeed")
      return TupleType::get(ctx, {written.getType(0), token});
  }
  return declared;
}

/// The result type of `op`, an instruction written without a shape: what
/// its shape rule infers, or the result of the computation it calls, as in
/// XLA's parser. Reports an error and returns null for the instructions HLO
/// cannot infer a shape for (broadcast, reshape, iota, convert, ...).
Type Importer::inferShape(Operation *op, InstrAst &instr) {
  // Shape rules read the op's attributes and operands: a missing required
  // attribute or operand (the op's own invariants say which) is reported
  // first. The placeholder result type fails those invariants too; that is
  // not reported.
  std::string problem;
  {
    ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &d) {
      std::string text = d.str();
      StringRef msg = text;
      size_t at = msg.find("requires attribute ");
      if (problem.empty() && at != StringRef::npos)
        problem = (msg.drop_front(at + strlen("requires ")) + " is required")
                      .str();
      // Too few operands: the shape rule would read past them.
      at = msg.find("operands, but found ");
      if (problem.empty() && at != StringRef::npos)
        problem = msg.split(" op ").second.str();
      return success();
    });
    (void)op->getName().verifyInvariants(op);
  }
  if (!problem.empty()) {
    error(instr.opcodeOffset, problem);
    return Type();
  }
  // The opcodes XLA's parser infers no shape for (jaxlib 0.10.2), though
  // some have a rule here.
  static constexpr StringLiteral kNotInferredByXla[] = {
      "all-gather",
      "all-gather-done",
      "all-gather-start",
      "all-reduce",
      "all-reduce-done",
      "all-reduce-start",
      "all-to-all",
      "async-done",
      "async-start",
      "async-update",
      "bitcast",
      "bitcast-convert",
      "collective-broadcast",
      "collective-permute",
      "collective-permute-done",
      "collective-permute-start",
      "constant",
      "convert",
      "copy-done",
      "copy-start",
      "custom-call",
      "dynamic-reshape",
      "dynamic-slice",
      "dynamic-update-slice",
      "fusion",
      "infeed",
      "iota",
      "outfeed",
      "ragged-all-to-all",
      "recv",
      "recv-done",
      "reduce-precision",
      "reduce-scatter",
      "reshape",
      "rng",
      "rng-bit-generator",
      "rng-get-and-update-state",
      "send",
      "send-done",
      "slice",
      "stochastic-convert"};
  if (llvm::is_contained(kNotInferredByXla, instr.opcode)) {
    error(instr.opcodeOffset, "cannot infer shape for opcode: " + instr.opcode);
    return Type();
  }
  // XLA's shape rule for triangular-solve wants its transpose_a, which an
  // instruction with a shape may leave out.
  if (instr.opcode == "triangular-solve" &&
      !op->getAttr("transpose_a")) {
    error(instr.opcodeOffset,
          "cannot infer the shape of a triangular-solve without transpose_a "
          "(XLA: invalid transpose option): write its shape or transpose_a");
    return Type();
  }
  // XLA's parser infers a reduce-window's shape from its first input and
  // init value only, which fails for several inputs.
  if (auto rw = dyn_cast<ReduceWindowOp>(op); rw && rw.getInputs().size() > 2) {
    error(instr.opcodeOffset,
          "cannot infer the shape of a reduce-window with several inputs: "
          "write it before the opcode");
    return Type();
  }
  if (isa<InferTypeOpInterface>(op)) {
    FailureOr<Type> t = inferInstructionType(op);
    failed |= mlir::failed(t);
    return mlir::failed(t) ? Type() : *t;
  }
  auto calleeResult = [&](StringRef attr) -> Type {
    auto sym = op->getAttrOfType<FlatSymbolRefAttr>(attr);
    auto it = sym ? built.find(sym.getValue()) : built.end();
    return it == built.end() ? Type()
                             : it->second.getFunctionType().getResult(0);
  };
  Type t;
  // A call takes its computation's result, as in XLA's parser (which
  // infers nothing for a fusion).
  if (isa<CallOp>(op))
    t = calleeResult("to_apply");
  else if (auto cond = dyn_cast<ConditionalOp>(op)) {
    SmallVector<FlatSymbolRefAttr> branches = cond.getBranches();
    auto it = branches.empty() || !branches.front()
                  ? built.end()
                  : built.find(branches.front().getValue());
    if (it != built.end())
      t = it->second.getFunctionType().getResult(0);
  } else if (auto sds = dyn_cast<SetDimensionSizeOp>(op)) {
    t = setDimensionSizeShape(sds);
  } else if (auto map = dyn_cast<MapOp>(op)) {
    auto operand =
        map.getInputs().empty()
            ? RankedTensorType()
            : dyn_cast<RankedTensorType>(map.getInputs()[0].getType());
    auto elt = dyn_cast_or_null<RankedTensorType>(calleeResult("to_apply"));
    if (operand && elt)
      t = operand.clone(elt.getElementType());
  }
  if (!t)
    error(instr.opcodeOffset, Twine("cannot infer the shape of '%") +
                                  instr.name + "' (" + instr.opcode +
                                  "): write it before the opcode");
  return t;
}

bool Importer::buildAsyncSugar(CompAst &comp, InstrAst &instr, StringRef base,
                               StringRef suffix,
                               SmallVectorImpl<Value> &operands,
                               ArrayRef<Value> controls, Block &block,
                               Value &result) {
  Location loc = instrLoc(instr, instr.attrs);
  if (suffix != "start") {
    if (operands.size() != 1)
      return error(instr.offset, "'" + instr.opcode.str() +
                                     "' takes the async chain as its operand");
    StringRef opName = suffix == "update" ? "async-update" : "async-done";
    Operation *op =
        createOp(opName, instr, operands, instr.attrs, loc, controls);
    if (!op)
      return false;
    block.push_back(op);
    result = op->getResult(0);
    return true;
  }
  // X-start(...): wrap X in a new computation whose ROOT is X.
  auto tuple = dyn_cast_or_null<TupleType>(instr.type);
  if (!tuple || tuple.size() < 2)
    return error(instr.offset, "'" + instr.opcode.str() +
                                   "' must produce ((operands), output, ...)");
  std::string calleeName = instr.name + ".wrapped";
  while (compNames.contains(calleeName))
    calleeName += "_";
  compNames.insert(calleeName);
  SmallVector<Type> argTypes;
  for (Value v : operands)
    argTypes.push_back(v.getType());
  OpBuilder ob(ctx);
  ob.setInsertionPoint(block.getParentOp());
  auto callee =
      ComputationOp::create(ob, loc, calleeName, ob.getStringAttr("private"),
                            ob.getFunctionType(argTypes, {tuple.getType(1)}),
                            /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr,
                            /*entry=*/false, StringAttr());
  Block *body = new Block();
  callee.getBody().push_back(body);
  SmallVector<Value> args;
  for (auto [i, t] : llvm::enumerate(argTypes))
    args.push_back(body->addArgument(
        t, NameLoc::get(b.getStringAttr("Arg_" + std::to_string(i)),
                        locAt(instr.offset))));
  // The start keeps what is about the chain; the rest is the wrapped op's.
  SmallVector<AttrAst> inner, outer;
  for (const AttrAst &a : instr.attrs)
    (a.name == "async_execution_thread" || a.name == "control-predecessors"
         ? outer
         : inner)
        .push_back(a);
  InstrAst wrapped = instr;
  wrapped.type = tuple.getType(1);
  Operation *op = createOp(base, wrapped, args, inner, loc);
  if (!op)
    return false;
  body->push_back(op);
  ob.setInsertionPointToEnd(body);
  ReturnOp::create(ob, loc, op->getResult(0));
  for (const AttrAst &a : outer)
    if (a.name == "async_execution_thread")
      if (auto thread =
              dyn_cast_or_null<StringAttr>(convertAttr("async-start", a, base)))
        callee.setExecutionThreadAttr(thread);
  Operation *start =
      createOp("async-start", instr, operands, outer, loc, controls);
  if (!start)
    return false;
  start->setAttr("calls", FlatSymbolRefAttr::get(ctx, calleeName));
  block.push_back(start);
  result = start->getResult(0);
  return true;
}

/// Reads `control-predecessors={%a, ...}` into `instr.controls`; each name
/// must be an instruction of the computation.
bool Importer::parseControlPredecessors(InstrAst &instr) {
  for (const AttrAst &a : instr.attrs) {
    if (a.name != "control-predecessors")
      continue;
    Cursor cur = sub(a.value);
    if (!cur.consumeIf("{"))
      return error(a.offset, "expected {%name, ...}");
    if (cur.consumeIf("}"))
      continue;
    do {
      StringRef name;
      cur.skipSpace();
      size_t at = cur.getPos();
      cur.consumeIf("%");
      if (!cur.parseIdentifier(name))
        return error(at, "expected an instruction name");
      if (!nameToIndex.count(name))
        return error(at, "instruction '" + name +
                             "' named in control-predecessors is not "
                             "defined in this computation");
      OperandAst control;
      control.name = name;
      control.offset = at;
      instr.controls.push_back(control);
    } while (cur.consumeIf(","));
    if (!cur.consumeIf("}"))
      return error(cur.getPos(), "expected '}' after control-predecessors");
  }
  return true;
}

bool Importer::buildInstr(CompAst &comp, size_t root, Block &block,
                          SmallVectorImpl<Value> &values) {
  // Iterative depth-first build so that operands defined later in the text
  // are built first without deep recursion.
  // state: 0 unvisited, 1 on the current path, 2 built.
  SmallVector<size_t, 16> stack{root};
  while (!stack.empty()) {
    size_t i = stack.back();
    InstrAst &instr = comp.instrs[i];
    if (state[i] == 2) {
      stack.pop_back();
      continue;
    }
    if (state[i] == 0) {
      state[i] = 1;
      if (!parseControlPredecessors(instr))
        return false;
      for (const OperandAst &operand : llvm::concat<const OperandAst>(
               llvm::reverse(instr.operands), instr.controls)) {
        size_t dep;
        if (operand.nested >= 0) {
          dep = operand.nested;
        } else {
          auto it = nameToIndex.find(operand.name);
          if (it == nameToIndex.end())
            return error(operand.offset,
                         "use of undefined value '%" + operand.name + "'");
          dep = it->second;
        }
        if (state[dep] == 1)
          return error(operand.offset,
                       "instruction '" + instr.name +
                           "' depends on itself (through operands or "
                           "control-predecessors)");
        if (state[dep] == 0)
          stack.push_back(dep);
      }
      continue;
    }
    stack.pop_back();
    SmallVector<Value, 4> operands;
    for (const OperandAst &operand : instr.operands) {
      Value v = values[operand.nested >= 0 ? size_t(operand.nested)
                                           : nameToIndex.lookup(operand.name)];
      if (operand.declared && !xlaCompatible(operand.declared, v.getType()))
        return error(operand.offset,
                     "declared operand shape " + hloShape(operand.declared) +
                         " is not compatible with the shape of '%" +
                         operand.name + "', " + hloShape(v.getType()));
      operands.push_back(v);
    }
    SmallVector<Value, 1> controls;
    for (const OperandAst &c : instr.controls)
      controls.push_back(values[nameToIndex.lookup(c.name)]);
    if (instr.opcode == "constant" && !controls.empty()) {
      // A literal does not run, so ordering it changes nothing.
      emitWarning(locAt(instr.controls.front().offset))
          << "control-predecessors of constant '" << instr.name
          << "' are dropped: a constant does not run";
      controls.clear();
    }
    StringRef opcode = instr.opcode;
    Value result;
    for (StringRef suffix : {"start", "update", "done"}) {
      StringRef base = opcode;
      if (base.consume_back(suffix) && base.consume_back("-") &&
          base != "async" &&
          !hasOwnAsyncOpcodes(base) && base != "send" && base != "recv" &&
          !base.empty()) {
        if (!buildAsyncSugar(comp, instr, base, suffix, operands, controls,
                             block, result))
          return false;
        break;
      }
    }
    if (!result) {
      Operation *op = createOp(opcode, instr, operands, instr.attrs,
                               instrLoc(instr, instr.attrs), controls);
      if (!op)
        return false;
      block.push_back(op);
      result = op->getResult(0);
    }
    values[i] = result;
    state[i] = 2;
  }
  return true;
}

bool Importer::buildComputation(CompAst &comp, ModuleOp module) {
  nameToIndex.clear();
  state.assign(comp.instrs.size(), 0);
  for (auto [i, instr] : llvm::enumerate(comp.instrs)) {
    if (!nameToIndex.try_emplace(instr.name, i).second) {
      // Nested anonymous instructions get unique names, as XLA gives them.
      if (StringRef(instr.name).ends_with(".anon")) {
        std::string base = instr.name;
        for (unsigned n = 1; !nameToIndex.try_emplace(instr.name, i).second;
             ++n)
          instr.name = base + "." + std::to_string(n);
        continue;
      }
      return error(instr.offset,
                   "redefinition of instruction '%" + instr.name + "'");
    }
  }
  if (comp.instrs.empty())
    return error(comp.offset, "computation '" + comp.name + "' is empty");
  // Parameters become block arguments.
  SmallVector<int> paramOf;
  for (auto [i, instr] : llvm::enumerate(comp.instrs)) {
    if (instr.opcode != "parameter")
      continue;
    size_t n = instr.paramNumber;
    if (n >= comp.instrs.size())
      return error(instr.offset, "parameter number " + std::to_string(n) +
                                     " is out of range: the computation has " +
                                     std::to_string(comp.instrs.size()) +
                                     " instructions");
    if (n >= paramOf.size())
      paramOf.resize(n + 1, -1);
    if (paramOf[n] >= 0)
      return error(instr.offset,
                   "duplicate parameter number " + std::to_string(n));
    paramOf[n] = i;
  }
  for (auto [n, i] : llvm::enumerate(paramOf))
    if (i < 0)
      return error(comp.offset, "computation '" + comp.name +
                                    "' has no parameter number " +
                                    std::to_string(n));
  size_t rootIndex = comp.instrs.size();
  for (auto [i, instr] : llvm::enumerate(comp.instrs)) {
    if (!instr.isRoot)
      continue;
    if (rootIndex != comp.instrs.size())
      return error(instr.offset,
                   "computation '" + comp.name + "' has more than one ROOT");
    rootIndex = i;
  }
  if (rootIndex == comp.instrs.size()) {
    // Without ROOT the last (non-nested) instruction is the root.
    for (size_t i = comp.instrs.size(); i-- > 0;)
      if (!StringRef(comp.instrs[i].name).contains(".anon")) {
        rootIndex = i;
        break;
      }
  }

  SmallVector<Type> argTypes;
  SmallVector<Attribute> argAttrs;
  bool anyArgAttrs = false;
  for (int i : paramOf) {
    InstrAst &p = comp.instrs[i];
    if (!p.type)
      return error(p.opcodeOffset, "a parameter needs a shape");
    argTypes.push_back(p.type);
    NamedAttrList converted, attrs;
    if (!convertAttrs("parameter", p.attrs, {}, converted) ||
        !checkParameterReplication(p.attrs, p.type))
      return false;
    for (NamedAttribute a : converted)
      attrs.set(("hlo." + a.getName().getValue()).str(), a.getValue());
    anyArgAttrs |= !attrs.empty();
    argAttrs.push_back(attrs.getDictionary(ctx));
  }
  OpBuilder ob(ctx);
  ob.setInsertionPointToEnd(module.getBody());
  // The result type is the ROOT's, set once the ROOT is built (it may have
  // been written without a shape).
  auto fnType = ob.getFunctionType(argTypes, {NoneType::get(ctx)});
  // Only the ENTRY computation is public: the module's instructions are the
  // only callers of the others (so symbol-dce removes unused ones).
  auto op = ComputationOp::create(
      ob, locAt(comp.offset), comp.name,
      comp.isEntry ? StringAttr() : ob.getStringAttr("private"), fnType,
      anyArgAttrs ? ob.getArrayAttr(argAttrs) : ArrayAttr(), ArrayAttr(),
      comp.isEntry,
      comp.executionThread ? ob.getStringAttr(*comp.executionThread)
                           : StringAttr());
  Block *block = new Block();
  op.getBody().push_back(block);
  SmallVector<Value> values(comp.instrs.size());
  for (int i : paramOf) {
    InstrAst &p = comp.instrs[i];
    values[i] = block->addArgument(p.type, instrLoc(p, p.attrs));
    state[i] = 2;
  }
  for (size_t i = 0; i < comp.instrs.size(); ++i)
    if (state[i] != 2 && !buildInstr(comp, i, *block, values))
      return false;
  Type rootType = values[rootIndex].getType();
  if (comp.declaredResult && !xlaCompatible(comp.declaredResult, rootType))
    return error(comp.declaredResultOffset,
                 "computation '" + comp.name + "' declares result shape " +
                     hloShape(comp.declaredResult) + " but its ROOT has " +
                     hloShape(rootType));
  op.setFunctionType(ob.getFunctionType(argTypes, {rootType}));
  built[comp.name] = op;
  ob.setInsertionPointToEnd(block);
  ReturnOp::create(ob, locAt(comp.instrs[rootIndex].offset), values[rootIndex]);
  return true;
}

bool Importer::buildModule(ModuleOp module) {
  if (!moduleName.empty())
    module.setSymName(moduleName);
  for (const AttrAst &a : headerAttrs) {
    Attribute v = convertModuleAttr(a);
    if (!v)
      return false;
    module->setAttr(("hlo." + a.name).str(), v);
  }
  for (auto &[name, entries] : sections) {
    SmallVector<Attribute> values;
    for (auto &entry : entries)
      values.push_back(TextAttr::get(ctx, entry.second));
    std::string key = "hlo.section." + name.str();
    module->setAttr(key, b.getArrayAttr(values));
  }
  bool haveEntry = llvm::any_of(comps, [](auto &c) { return c.isEntry; });
  if (!haveEntry && !comps.empty())
    comps.back().isEntry = true;
  for (CompAst &comp : comps)
    if (!buildComputation(comp, module))
      return false;
  return true;
}

OwningOpRef<ModuleOp> Importer::run() {
  if (!parseHeader() || !parseSections())
    return nullptr;
  while (!c.atEnd()) {
    comps.emplace_back();
    if (!parseComputation(comps.back()))
      return nullptr;
  }
  if (comps.empty()) {
    error(c.getPos(), "expected at least one computation");
    return nullptr;
  }
  const CompAst *firstEntry = nullptr;
  for (const CompAst &comp : comps) {
    if (!comp.isEntry)
      continue;
    if (firstEntry) {
      error(comp.offset, "more than one ENTRY computation (the first is '" +
                             firstEntry->name + "')");
      return nullptr;
    }
    firstEntry = &comp;
  }
  OwningOpRef<ModuleOp> module = ModuleOp::create(locAt(0));
  if (!buildModule(*module) || failed)
    return nullptr;
  if (mlir::failed(mlir::verify(*module)))
    return nullptr;
  return module;
}
