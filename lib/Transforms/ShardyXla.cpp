//===- ShardyXla.cpp - Shardy's round-trip form read into HLO shardings ---===//
//
// XLA's ShardyXLA pass on the module JAX hands XLA, without Shardy's own
// propagation (hlo-sharding-propagation's work here): the shardings JAX
// wrote in Shardy's syntax (HloShardy.h) become HLO shardings, and each
// shard_map's `xla.sdy.GlobalToLocalShape` / `xla.sdy.LocalToGlobalShape`
// pair becomes GSPMD's manual region: copies in the operand shardings,
// `SPMDFullToShardShape`, the body in manual shardings,
// `SPMDShardToFullShape`.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloShardingCalls.h"
#include "Hlo/Dialect/Hlo/HloShardy.h"
#include "Hlo/Transforms/CollectivePasses.h"

#include "llvm/ADT/SetVector.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSHARDYXLA
#include "Hlo/Transforms/CollectivePasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

static constexpr StringLiteral kBodyPrefix = "xla.sdy.manual_computation_body";

/// `attrs` without `keys` (null when nothing is left).
static DictionaryAttr without(DictionaryAttr attrs, ArrayRef<StringRef> keys) {
  if (!attrs)
    return {};
  SmallVector<NamedAttribute> kept;
  for (NamedAttribute a : attrs)
    if (!llvm::is_contained(keys, a.getName().getValue()))
      kept.push_back(a);
  return kept.empty() ? DictionaryAttr()
                      : DictionaryAttr::get(attrs.getContext(), kept);
}

static void setFrontendAttrs(Operation *op, DictionaryAttr attrs) {
  if (attrs)
    op->setAttr("frontend_attributes", attrs);
  else
    op->removeAttr("frontend_attributes");
}

/// `{manual}` for `type` (one per element of a tuple).
static ShardingAttr manualFor(MLIRContext *ctx, Type type) {
  auto manual = ShardingAttr::get(ctx, ShardingKind::Manual);
  auto tuple = dyn_cast<TupleType>(type);
  if (!tuple)
    return manual;
  return ShardingAttr::getTuple(
      ctx, SmallVector<ShardingAttr>(tuple.size(), manual));
}

namespace {

struct ShardyXlaPass
    : ChangeReportingPass<ShardyXlaPass, hlo::impl::HloShardyXlaBase> {
  void run() {
    ModuleOp module = getOperation();
    std::string error;
    FailureOr<SdyShardings> meshes = SdyShardings::get(module, error);
    if (failed(meshes)) {
      emitError(module.getLoc()) << "hlo-shardy-xla: xla.sdy.meshes: " << error;
      return signalPassFailure();
    }
    sdy = &*meshes;
    bodyAxes.clear();
    // The manual axes of each shard_map body, from the calls of it.
    WalkResult walk = module.walk([&](CustomCallOp call) {
      if (call.getCustomCallTarget() != kSdyLocalToGlobal)
        return WalkResult::advance();
      for (Value v : getDataOperands(call)) {
        Operation *def = v.getDefiningOp();
        if (auto gte = dyn_cast_or_null<GetTupleElementOp>(def))
          def = gte.getOperand().getDefiningOp();
        if (!isBodyCall(def))
          continue;
        auto body = cast<CallOp>(def);
        FailureOr<SmallVector<std::string>> axes =
            SdyShardings::manualAxes(call.getFrontendAttributesAttr(), error);
        if (failed(axes)) {
          call.emitError("hlo-shardy-xla: ") << error;
          return WalkResult::interrupt();
        }
        bodyAxes[body.getToApply()] = *axes;
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    regionAxes(module);
    for (auto comp : module.getOps<ComputationOp>()) {
      auto it = axesOf.find(comp.getSymName());
      ArrayRef<std::string> manual;
      bool allManual = false;
      if (it != axesOf.end() && !it->second.empty()) {
        manual = it->second;
        allManual = everyAxis(manual);
      }
      if (comp.getEntry() && failed(convertArguments(comp)))
        return signalPassFailure();
      SmallVector<Operation *> ops;
      for (Operation &op : comp.getBody().front().without_terminator())
        ops.push_back(&op);
      LogicalResult result = success();
      for (Operation *op : ops)
        if (!dead.contains(op) && failed(convert(op, manual, allManual))) {
          result = failure();
          break;
        }
      for (Operation *op : dead)
        op->erase();
      dead.clear();
      if (failed(result))
        return signalPassFailure();
    }
    if (auto attrs =
            module->getAttrOfType<DictionaryAttr>("hlo.frontend_attributes");
        attrs && attrs.contains(kSdyMeshes)) {
      if (DictionaryAttr rest = without(attrs, {kSdyMeshes}))
        module->setAttr("hlo.frontend_attributes", rest);
      else
        module->removeAttr("hlo.frontend_attributes");
      changed = true;
    }
  }

  /// The manual axes of the computations of manual regions (`axesOf`),
  /// from the entry down: a shard_map body's are those of the region it
  /// is in and its own (a shard_map nested in one manual over some axes,
  /// as JAX writes `axis_index` there, is manual over both); the bodies
  /// and conditions of loops, the branches of conditionals and the other
  /// computations called there are in the caller's region. A computation
  /// called from regions manual over different axes keeps its own.
  void regionAxes(ModuleOp module) {
    axesOf.clear();
    SymbolTable symbols(module);
    SmallVector<ComputationOp> work;
    for (auto comp : module.getOps<ComputationOp>())
      if (comp.getEntry()) {
        axesOf[comp.getSymName()] = {};
        work.push_back(comp);
      }
    DenseSet<StringRef> mixed;
    while (!work.empty()) {
      ComputationOp comp = work.pop_back_val();
      SmallVector<std::string> outer = axesOf[comp.getSymName()];
      auto reach = [&](StringRef callee) {
        auto own = bodyAxes.find(callee);
        SmallVector<std::string> axes =
            own == bodyAxes.end() ? outer : joined(outer, own->second);
        auto [it, added] = axesOf.try_emplace(callee, axes);
        if (!added) {
          if (it->second != axes && mixed.insert(callee).second)
            it->second = own != bodyAxes.end() ? own->second
                                               : SmallVector<std::string>();
          return;
        }
        if (auto c = symbols.lookup<ComputationOp>(callee))
          work.push_back(c);
      };
      for (Operation &op : comp.getBody().front()) {
        if (auto call = dyn_cast<CallOp>(op)) {
          reach(call.getToApply());
        } else if (auto loop = dyn_cast<WhileOp>(op)) {
          reach(loop.getBody());
          reach(loop.getCondition());
        } else if (auto cond = dyn_cast<ConditionalOp>(op)) {
          for (FlatSymbolRefAttr branch : cond.getBranches())
            reach(branch.getValue());
        }
      }
    }
  }

  /// The axes of `a` and `b`, in the order of the mesh that has them all
  /// (as Shardy lists manual axes).
  SmallVector<std::string> joined(ArrayRef<std::string> a,
                                  ArrayRef<std::string> b) {
    SmallVector<std::string> axes(a);
    for (const std::string &x : b)
      if (!llvm::is_contained(axes, x))
        axes.push_back(x);
    for (const auto &mesh : sdy->getMeshes()) {
      ArrayRef<std::string> names = mesh.second.axisNames;
      if (!llvm::all_of(axes, [&](const std::string &x) {
            return llvm::is_contained(names, x);
          }))
        continue;
      llvm::sort(axes, [&](const std::string &x, const std::string &y) {
        return llvm::find(names, x) < llvm::find(names, y);
      });
      break;
    }
    return axes;
  }

  /// Whether `axes` are every axis of the module's meshes (a shard_map
  /// over every axis: its values are `{manual}`).
  bool everyAxis(ArrayRef<std::string> axes) {
    for (const auto &mesh : sdy->getMeshes())
      for (const std::string &name : mesh.second.axisNames)
        if (!llvm::is_contained(axes, name))
          return false;
    return true;
  }

  LogicalResult convertArguments(ComputationOp entry) {
    for (unsigned i = 0, e = entry.getNumArguments(); i < e; ++i) {
      auto attrs =
          entry.getArgAttrOfType<DictionaryAttr>(i, "hlo.frontend_attributes");
      std::string error;
      FailureOr<SmallVector<ShardingAttr>> s =
          sdy->convert(&getContext(), attrs, kSdySharding,
                       entry.getArgumentTypes()[i], {}, error);
      if (failed(s))
        return entry.emitError("hlo-shardy-xla: parameter ")
               << i << ": " << error;
      if (s->empty())
        continue;
      entry.setArgAttr(i, "hlo.sharding", s->front());
      if (DictionaryAttr rest = without(attrs, {kSdySharding}))
        entry.setArgAttr(i, "hlo.frontend_attributes", rest);
      else
        entry.removeArgAttr(i, "hlo.frontend_attributes");
      ++numShardings;
      changed = true;
    }
    return success();
  }

  /// The shardings of `key` of `op`'s frontend attributes for `types`.
  FailureOr<SmallVector<ShardingAttr>> shardings(Operation *op, StringRef key,
                                                 TypeRange types,
                                                 ArrayRef<std::string> manual) {
    std::string error;
    auto attrs = op->getAttrOfType<DictionaryAttr>("frontend_attributes");
    FailureOr<SmallVector<ShardingAttr>> s =
        sdy->convert(&getContext(), attrs, key, types, manual, error);
    if (failed(s))
      return op->emitError("hlo-shardy-xla: ") << key << ": " << error;
    return s;
  }

  /// The Shardy sharding of `op` if it is a `Sharding` call of one array
  /// (a sharding constraint).
  static std::optional<SdyTensorSharding> constraintOf(Operation *op,
                                                       DictionaryAttr attrs) {
    auto call = dyn_cast<CustomCallOp>(op);
    if (!call || call.getCustomCallTarget() != "Sharding" || !attrs ||
        getDataOperands(op).size() != 1)
      return std::nullopt;
    // (Of one array; the layouts may differ.)
    auto in = dyn_cast<RankedTensorType>(getDataOperands(op)[0].getType());
    auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!in || !out || in.getShape() != out.getShape() ||
        in.getElementType() != out.getElementType())
      return std::nullopt;
    auto text = attrs.getAs<StringAttr>(kSdySharding);
    std::string error;
    FailureOr<std::vector<SdyTensorSharding>> parsed =
        text ? parseSdyShardings(text.getValue(), error)
             : FailureOr<std::vector<SdyTensorSharding>>(failure());
    if (failed(parsed) || parsed->size() != 1 ||
        parsed->front().dims.size() != static_cast<size_t>(in.getRank()))
      return std::nullopt;
    return parsed->front();
  }

  /// A sharding constraint whose Shardy sharding leaves some dimensions
  /// open says so as GSPMD does (`unspecified_dims`, as JAX writes
  /// P.UNCONSTRAINED for GSPMD): hlo-sharding-propagation may tile them
  /// further, as Shardy's propagation would.
  static void markOpenDims(Operation *op, const SdyTensorSharding &s) {
    SmallVector<int64_t> open;
    for (auto [d, o] : llvm::enumerate(s.open))
      if (o)
        open.push_back(d);
    if (open.empty() || op->hasAttr("backend_config"))
      return;
    op->setAttr("backend_config",
                StringAttr::get(op->getContext(), printUnspecifiedDims(open)));
  }

  /// A member of a sharding group (`xla.sdy.ShardingGroup`: Shardy's form
  /// of JAX's shard_alike) as GSPMD writes it: its value goes on through a
  /// `Sharding` call `{unknown shard_as N}`, which hlo-sharding-propagation
  /// gives the group's one sharding. A call whose group id does not read
  /// as a number stays (read by nothing).
  void convertShardingGroup(CustomCallOp call) {
    DictionaryAttr attrs = call.getFrontendAttributesAttr();
    auto id = attrs ? attrs.getAs<StringAttr>(kSdyShardingGroupId) : nullptr;
    OperandRange in = getDataOperands(call);
    int64_t group;
    if (!id || in.size() != 1 || !isa<RankedTensorType>(in[0].getType()) ||
        id.getValue().split(':').first.trim().getAsInteger(10, group))
      return;
    Value v = in[0];
    OpBuilder b(call);
    if (Operation *def = v.getDefiningOp())
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(v.getParentBlock());
    MLIRContext *ctx = &getContext();
    auto sharding =
        ShardingAttr::get(ctx, ShardingKind::Unknown, 0, {}, {}, {}, {}, false,
                          {}, ShardGroupKind::ShardAs, group, {}, {});
    Value member =
        InstBuilder(b, call.getLoc())
            .create<CustomCallOp>(v.getType(), {v},
                                  {b.getNamedAttr("custom_call_target",
                                                  b.getStringAttr("Sharding")),
                                   b.getNamedAttr("sharding", sharding)});
    v.replaceUsesWithIf(member, [&](OpOperand &use) {
      auto user = dyn_cast<CustomCallOp>(use.getOwner());
      return use.getOwner() != member.getDefiningOp() &&
             !(user && user.getCustomCallTarget() == kShardingGroupTarget);
    });
    call->dropAllReferences();
    dead.insert(call);
    changed = true;
  }

  LogicalResult convert(Operation *op, ArrayRef<std::string> manual,
                        bool allManual) {
    if (auto call = dyn_cast<CustomCallOp>(op)) {
      StringRef target = call.getCustomCallTarget();
      if (target == kSdyGlobalToLocal || target == kSdyLocalToGlobal)
        return convertShardMap(call, target == kSdyGlobalToLocal);
      if (target == kShardingGroupTarget) {
        convertShardingGroup(call);
        return success();
      }
    }
    if (op->getNumResults() != 1)
      return success();
    auto attrs = op->getAttrOfType<DictionaryAttr>("frontend_attributes");
    // JAX marks the body call (and the elements taken of its tuple) not
    // inlinable; a manual region can be.
    auto gte = dyn_cast<GetTupleElementOp>(op);
    if (isBodyCall(op) ||
        (gte && isBodyCall(gte.getOperand().getDefiningOp()))) {
      setFrontendAttrs(op, without(attrs, {"inlineable"}));
      attrs = op->getAttrOfType<DictionaryAttr>("frontend_attributes");
    }
    if (auto call = dyn_cast<CallOp>(op); call && isBodyCall(call)) {
      auto it = axesOf.find(call.getToApply());
      if (it != axesOf.end() && everyAxis(it->second) &&
          (!attrs || !attrs.contains(kSdySharding))) {
        op->setAttr("sharding",
                    manualFor(&getContext(), op->getResultTypes()[0]));
        changed = true;
        return success();
      }
    }
    // A sharding constraint that leaves its array free (every dimension
    // open, no axis named: JAX writes them in shard_map bodies) constrains
    // nothing (Shardy's propagation, here hlo-sharding-propagation,
    // decides), so it goes.
    std::optional<SdyTensorSharding> constraint = constraintOf(op, attrs);
    if (constraint && constraint->isFree()) {
      // (A copy where it changes the layout.)
      Value in = getDataOperands(op)[0];
      if (in.getType() != op->getResult(0).getType()) {
        OpBuilder b(op);
        in = InstBuilder(b, op->getLoc())
                 .create<CopyOp>(op->getResult(0).getType(), {in});
      }
      op->getResult(0).replaceAllUsesWith(in);
      dead.insert(op);
      changed = true;
      return success();
    }
    FailureOr<SmallVector<ShardingAttr>> s =
        shardings(op, kSdySharding, op->getResultTypes(), manual);
    if (failed(s))
      return failure();
    if (!s->empty()) {
      op->setAttr("sharding", s->front());
      if (constraint)
        markOpenDims(op, *constraint);
      setFrontendAttrs(op, without(attrs, {kSdySharding}));
      ++numShardings;
      changed = true;
    } else if (allManual && !op->hasAttr("sharding")) {
      op->setAttr("sharding",
                  manualFor(&getContext(), op->getResultTypes()[0]));
      changed = true;
    }
    return success();
  }

  static bool isBodyCall(Operation *op) {
    auto call = dyn_cast_or_null<CallOp>(op);
    return call && call.getToApply().starts_with(kBodyPrefix);
  }

  /// A shard_map's entry (`toLocal`) or exit: each operand copied in the
  /// sharding it has on this side, then made the other side's shape.
  LogicalResult convertShardMap(CustomCallOp call, bool toLocal) {
    std::string error;
    auto attrs = call.getFrontendAttributesAttr();
    FailureOr<SmallVector<std::string>> own =
        SdyShardings::manualAxes(attrs, error);
    if (failed(own))
      return call.emitError("hlo-shardy-xla: ") << error;
    // The global side is in the region the shard_map is in (manual over
    // `outer`), the local side manual over those axes and its own.
    SmallVector<std::string> outer =
        axesOf.lookup(call->getParentOfType<ComputationOp>().getSymName());
    SmallVector<std::string> manual = joined(outer, *own);
    OperandRange in = getDataOperands(call);
    TypeRange inTypes = in.getTypes();
    Type resultType = call->getResult(0).getType();
    SmallVector<Type> outTypes;
    if (auto tuple = dyn_cast<TupleType>(resultType); tuple && in.size() != 1)
      llvm::append_range(outTypes, tuple.getTypes());
    else
      outTypes.push_back(resultType);
    if (outTypes.size() != in.size())
      return call.emitError("hlo-shardy-xla: ")
             << in.size() << " operands for " << outTypes.size() << " results";
    // The shardings of the global side, and of the local side.
    StringRef key = toLocal ? kSdyInShardings : kSdyOutShardings;
    TypeRange globalTypes = toLocal ? inTypes : TypeRange(outTypes);
    FailureOr<SmallVector<ShardingAttr>> global =
        shardings(call, key, globalTypes, outer);
    FailureOr<SmallVector<ShardingAttr>> local =
        shardings(call, key, globalTypes, manual);
    if (failed(global) || failed(local))
      return failure();
    if (global->size() != in.size())
      return call.emitError("hlo-shardy-xla: no ") << key;
    OpBuilder b(call);
    InstBuilder ib(b, call.getLoc());
    SmallVector<Value> results;
    for (auto [i, v] : llvm::enumerate(in)) {
      ShardingAttr before = toLocal ? (*global)[i] : (*local)[i];
      ShardingAttr after = toLocal ? (*local)[i] : (*global)[i];
      Value copy = ib.create<CopyOp>(v.getType(), {v},
                                     {b.getNamedAttr("sharding", before)});
      StringRef target =
          toLocal ? "SPMDFullToShardShape" : "SPMDShardToFullShape";
      results.push_back(ib.create<CustomCallOp>(
          outTypes[i], {copy},
          {b.getNamedAttr("custom_call_target", b.getStringAttr(target)),
           b.getNamedAttr("sharding", after)}));
    }
    Value result = call->getResult(0);
    if (outTypes.size() == 1 && outTypes[0] == resultType) {
      result.replaceAllUsesWith(results[0]);
    } else {
      for (Operation *user : llvm::make_early_inc_range(result.getUsers()))
        if (auto gte = dyn_cast<GetTupleElementOp>(user)) {
          gte.getResult().replaceAllUsesWith(results[gte.getIndex()]);
          gte->dropAllReferences();
          dead.insert(gte);
        }
      if (!result.use_empty())
        result.replaceAllUsesWith(ib.tuple(results));
    }
    call->dropAllReferences();
    dead.insert(call);
    numManual += toLocal;
    changed = true;
    return success();
  }

  const SdyShardings *sdy = nullptr;
  /// Instructions replaced, erased after their computation's walk.
  llvm::SetVector<Operation *> dead;
  /// The manual axes of each shard_map body computation (its own), and
  /// those of each computation of a manual region (`regionAxes`).
  DenseMap<StringRef, SmallVector<std::string>> bodyAxes, axesOf;
};

} // namespace
