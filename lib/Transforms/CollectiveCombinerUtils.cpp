//===- CollectiveCombinerUtils.cpp - what the combiners share -------------===//

#include "CollectiveCombinerUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"
#include "WhileLoopUtils.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <map>
#include <queue>
#include <set>
#include <vector>

using namespace mlir;
using namespace mlir::hlo;

int64_t mlir::hlo::collectiveByteSize(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    int64_t bytes = 0;
    for (Type t : tuple.getTypes())
      bytes += collectiveByteSize(t);
    return bytes;
  }
  auto rt = dyn_cast<RankedTensorType>(type);
  if (!rt || !rt.hasStaticShape() || !rt.getElementType().isIntOrFloat())
    return 0;
  int64_t bits = rt.getElementType().getIntOrFloatBitWidth();
  return rt.getNumElements() * ((bits + 7) / 8);
}

std::optional<std::string> mlir::hlo::collectiveKey(Operation *op,
                                                    StringRef extra) {
  if (getDataOperands(op).size() != 1 || op->getNumResults() != 1 ||
      !isStaticArray(op->getResult(0).getType()) ||
      hasControlPredecessors(op) || isControlPredecessor(op))
    return std::nullopt;
  if (auto c = op->getAttrOfType<BoolAttr>("constrain_layout"))
    if (c.getValue())
      return std::nullopt;
  std::string key;
  llvm::raw_string_ostream os(key);
  os << op->getName().getStringRef() << '|' << extra << '|'
     << (op->hasAttr("channel_id") ? "cross-module" : "cross-replica") << '|';
  if (auto g = op->getAttrOfType<BoolAttr>("use_global_device_ids"))
    os << g.getValue();
  os << '|';
  if (auto groups = op->getAttrOfType<ReplicaGroupsAttr>("replica_groups"))
    for (const auto &group : groups.getGroups()) {
      os << '{';
      for (int64_t id : group)
        os << id << ',';
      os << '}';
    }
  return key;
}

FlatSymbolRefAttr mlir::hlo::retypedReducer(SymbolTable &symbols,
                                            FlatSymbolRefAttr reducer,
                                            Type type, StringRef suffix,
                                            Operation *user) {
  auto old = symbols.lookup<ComputationOp>(reducer.getValue());
  Operation *root = old.getRootValue().getDefiningOp();
  auto scalar = RankedTensorType::get({}, type);
  Location loc = UnknownLoc::get(type.getContext());
  ComputationOp comp = createComputation(
      symbols, user->getParentOfType<ComputationOp>(),
      (reducer.getValue() + suffix).str(), {scalar, scalar}, loc);
  Block &body = comp.getBody().front();
  OpBuilder b = OpBuilder::atBlockEnd(&body);
  Operation *op =
      createInstruction(b, loc, root->getName().getStringRef(), scalar,
                        {body.getArgument(0), body.getArgument(1)}, {});
  setComputationResult(comp, b, op->getResult(0));
  return FlatSymbolRefAttr::get(comp.getSymNameAttr());
}

bool mlir::hlo::isCollectiveReduction(Operation *op) {
  if (isa<AddOp, MulOp, MinOp, MaxOp>(op))
    return true;
  return isa<AndOp, OrOp>(op) &&
         getElementTypeOrSelf(op->getResult(0).getType()).isInteger(1);
}

int64_t mlir::hlo::rewriteCollectiveReductions(
    ModuleOp module, function_ref<bool(Operation *)> rewrite) {
  SmallVector<Operation *> candidates;
  module.walk([&](Operation *op) {
    if (isCollectiveReduction(op) && op->getNumOperands() == 2)
      candidates.push_back(op);
  });
  return llvm::count_if(candidates, rewrite);
}

Attribute mlir::hlo::collectiveGroupKey(Operation *op) {
  auto attrs = op->getAttrOfType<DictionaryAttr>("frontend_attributes");
  return attrs ? attrs.get("collective_group_key") : Attribute();
}

std::optional<std::string>
mlir::hlo::reductionKind(SymbolTable &symbols, FlatSymbolRefAttr computation) {
  auto comp = symbols.lookup<ComputationOp>(computation.getValue());
  if (!comp || comp.getBody().front().getNumArguments() != 2)
    return std::nullopt;
  Block &body = comp.getBody().front();
  Operation *root = comp.getRootValue().getDefiningOp();
  if (!root || root->getBlock() != &body ||
      !isa<AddOp, MulOp, MinOp, MaxOp, AndOp, OrOp, XorOp>(root))
    return std::nullopt;
  OperandRange operands = getDataOperands(root);
  Value a = body.getArgument(0), b = body.getArgument(1);
  if (!((operands[0] == a && operands[1] == b) ||
        (operands[0] == b && operands[1] == a)))
    return std::nullopt;
  std::string kind;
  llvm::raw_string_ostream os(kind);
  os << root->getName().getStringRef() << ' ' << root->getResult(0).getType();
  return kind;
}

namespace {
/// Program-order labels of a block's instructions that stay valid while
/// instructions move: a run of moved or new instructions is labelled
/// between its new neighbours' labels, and the whole block is relabelled
/// only when that gap is used up (MLIR's own order, isBeforeInBlock,
/// renumbers the block after most moves of a batch).
class OrderLabels {
public:
  explicit OrderLabels(Block &block) : block(block) { relabel(); }
  uint64_t operator[](Operation *op) const {
    auto it = labels.find(op);
    assert(it != labels.end() && "unlabelled instruction");
    return it->second;
  }
  void erase(Operation *op) { labels.erase(op); }
  /// Labels the contiguous run `first` .. `last` of the block.
  void place(Operation *first, Operation *last) {
    uint64_t count = 1;
    for (Operation *op = first; op != last; op = op->getNextNode())
      ++count;
    Operation *prev = first->getPrevNode(), *next = last->getNextNode();
    uint64_t lo = prev ? (*this)[prev] : 0;
    uint64_t hi = next ? (*this)[next] : std::numeric_limits<uint64_t>::max();
    uint64_t step = (hi - lo) / (count + 1);
    if (step == 0) {
      relabel();
      return;
    }
    uint64_t label = lo;
    for (Operation *op = first;; op = op->getNextNode()) {
      label += step;
      labels[op] = label;
      if (op == last)
        break;
    }
  }

private:
  void relabel() {
    size_t size = block.getOperations().size();
    labels.reserve(size);
    uint64_t stride = (std::numeric_limits<uint64_t>::max() / 2) / (size + 1);
    uint64_t label = 0;
    for (Operation &op : block)
      labels[&op] = label += stride;
  }
  Block &block;
  llvm::DenseMap<Operation *, uint64_t> labels;
};

/// Orders instructions by their current labels.
struct ByLabel {
  const OrderLabels *labels;
  bool operator()(Operation *a, Operation *b) const {
    return (*labels)[a] < (*labels)[b];
  }
};
} // namespace

/// combineByKey on one computation.
static int64_t combineInComputation(
    ComputationOp comp,
    function_ref<std::optional<std::string>(Operation *)> key,
    function_ref<SmallVector<Value>(ArrayRef<Operation *>, OpBuilder &)>
        combine,
    int64_t thresholdBytes, int64_t thresholdCount) {
  Block &body = comp.getBody().front();
  Operation *terminator =
      body.mightHaveTerminator() ? body.getTerminator() : nullptr;
  OrderLabels labels(body);
  using OrderedSet = std::set<Operation *, ByLabel>;
  // The candidates not yet combined (nor given up), with their keys
  // numbered: all of them, and those of each key, in program order.
  llvm::DenseMap<Operation *, unsigned> keyOf;
  llvm::StringMap<unsigned> keyNumbers;
  OrderedSet remaining(ByLabel{&labels});
  std::vector<OrderedSet> byKey;
  for (Operation &op : body.without_terminator())
    if (std::optional<std::string> k = key(&op)) {
      auto [it, inserted] = keyNumbers.try_emplace(*k, keyNumbers.size());
      if (inserted)
        byKey.emplace_back(ByLabel{&labels});
      keyOf[&op] = it->second;
      remaining.insert(&op);
      byKey[it->second].insert(&op);
    }
  auto drop = [&](Operation *op) {
    byKey[keyOf[op]].erase(op);
    remaining.erase(op);
    keyOf.erase(op);
  };

  // Each group starts at the first remaining candidate and takes the
  // following candidates of its key, in program order, until a threshold
  // or one that depends on a member. The instructions that depend on the
  // members are found from the members' users, in program order (a heap of
  // labels), only as far as the candidate being looked at: the cost of a
  // group is its candidates and the dependents it moves or stops at, not
  // the instructions between its members.
  int64_t combined = 0;
  using Pending = std::pair<uint64_t, Operation *>;
  while (!remaining.empty()) {
    OrderedSet &candidates = byKey[keyOf[*remaining.begin()]];
    SmallVector<Operation *> members;
    llvm::DenseSet<Operation *> dependent; // on a member, transitively
    SmallVector<Operation *> dependentOrder;
    std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>>
        pending; // users of dependent instructions
    auto addUsers = [&](Operation *op) {
      for (Operation *user : op->getUsers())
        if (user->getBlock() == &body && user != terminator)
          pending.push({labels[user], user});
    };
    size_t dependentBeforeLast = 0;
    int64_t bytes = 0;
    while (!candidates.empty()) {
      Operation *op = *candidates.begin();
      // Every instruction before `op` that depends on a member.
      uint64_t at = labels[op];
      while (!pending.empty() && pending.top().first < at) {
        Operation *user = pending.top().second;
        pending.pop();
        if (!dependent.insert(user).second)
          continue;
        dependentOrder.push_back(user);
        addUsers(user);
      }
      int64_t size = collectiveByteSize(op->getResult(0).getType());
      if (size > thresholdBytes) {
        // Never combined with anything.
        drop(op);
        continue;
      }
      bool dependsOnMember = llvm::any_of(op->getOperands(), [&](Value v) {
        Operation *def = v.getDefiningOp();
        return def && dependent.contains(def);
      });
      if (bytes + size > thresholdBytes || dependsOnMember)
        break;
      drop(op);
      members.push_back(op);
      dependent.insert(op);
      addUsers(op);
      dependentBeforeLast = dependentOrder.size();
      bytes += size;
      if (int64_t(members.size()) >= thresholdCount)
        break;
    }
    if (members.size() < 2)
      continue;

    Operation *last = members.back();
    Operation *beforeLast = last->getPrevNode();
    OpBuilder builder(last);
    SmallVector<Value> replacements = combine(members, builder);
    // Everything the combine step created sits right before `last`.
    Operation *firstNew = beforeLast->getNextNode();
    Operation *anchor = last->getPrevNode();
    for (auto [member, replacement] : llvm::zip(members, replacements))
      member->getResult(0).replaceAllUsesWith(replacement);
    for (Operation *member : members) {
      labels.erase(member);
      member->erase();
    }
    // The dependents before `last` move after the replacements; candidates
    // among them leave the ordered sets while their labels change.
    SmallVector<Operation *> movedCandidates;
    for (Operation *op :
         ArrayRef(dependentOrder).take_front(dependentBeforeLast)) {
      if (keyOf.count(op)) {
        byKey[keyOf[op]].erase(op);
        remaining.erase(op);
        movedCandidates.push_back(op);
      }
      op->moveAfter(anchor);
      anchor = op;
    }
    labels.place(firstNew, anchor);
    for (Operation *op : movedCandidates) {
      byKey[keyOf[op]].insert(op);
      remaining.insert(op);
    }
    ++combined;
  }
  return combined;
}

int64_t mlir::hlo::combineByKey(
    ModuleOp module, function_ref<std::optional<std::string>(Operation *)> key,
    function_ref<SmallVector<Value>(ArrayRef<Operation *>, OpBuilder &)>
        combine,
    int64_t thresholdBytes, int64_t thresholdCount) {
  if (thresholdBytes <= 0 || thresholdCount <= 0)
    return 0;
  int64_t groups = 0;
  for (ComputationOp comp : nonFusionComputations(module))
    groups += combineInComputation(comp, key, combine, thresholdBytes,
                                   thresholdCount);
  return groups;
}

/// The metadata dictionary of `loc`, or null.
static DictionaryAttr metadataOf(Location loc) {
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    if (auto md = dyn_cast_or_null<DictionaryAttr>(fused.getMetadata()))
      return md;
    for (Location inner : fused.getLocations())
      if (DictionaryAttr md = metadataOf(inner))
        return md;
    return nullptr;
  }
  if (auto name = dyn_cast<NameLoc>(loc))
    return metadataOf(name.getChildLoc());
  return nullptr;
}

/// XLA's merged op_name: the common prefix up to a '/', then the distinct
/// rests as `(a:b:c)`; one name when all are equal.
static std::string mergeOpNames(ArrayRef<std::string> names) {
  if (names.size() == 1)
    return names.front();
  StringRef prefix = names.front();
  for (StringRef n : names.drop_front()) {
    size_t i = 0;
    while (i < prefix.size() && i < n.size() && prefix[i] == n[i])
      ++i;
    prefix = prefix.take_front(i);
  }
  size_t slash = prefix.rfind('/');
  prefix =
      slash == StringRef::npos ? StringRef() : prefix.take_front(slash + 1);
  if (llvm::all_of(names, [&](const std::string &n) { return n == names[0]; }))
    return names.front();
  std::string merged = prefix.str() + "(";
  for (auto [i, n] : llvm::enumerate(names)) {
    if (i)
      merged += ":";
    merged += StringRef(n).drop_front(prefix.size()).str();
  }
  return merged + ")";
}

Location mlir::hlo::combinedLoc(ArrayRef<Operation *> members, StringRef name) {
  MLIRContext *ctx = members.front()->getContext();
  Location base = derivedLoc(members.front()->getLoc());
  DictionaryAttr first = metadataOf(members.front()->getLoc());
  SmallVector<std::string> opNames, sources;
  for (Operation *m : members) {
    DictionaryAttr md = metadataOf(m->getLoc());
    if (!md)
      continue;
    if (auto n = md.getAs<StringAttr>("op_name"))
      if (!n.getValue().empty())
        opNames.push_back(n.getValue().str());
    if (auto f = md.getAs<StringAttr>("source_file"))
      if (!f.getValue().empty()) {
        int64_t line = 0;
        if (auto l = md.getAs<IntegerAttr>("source_line"))
          line = l.getInt();
        sources.push_back(f.getValue().str() + ":" + std::to_string(line));
      }
  }
  if (first && (!opNames.empty() || !sources.empty())) {
    NamedAttrList attrs(first);
    if (!sources.empty()) {
      attrs.set("source_file", StringAttr::get(ctx, llvm::join(sources, ",")));
      attrs.erase("source_line");
      attrs.erase("source_end_line");
    }
    if (!opNames.empty())
      attrs.set("op_name", StringAttr::get(ctx, mergeOpNames(opNames)));
    base = FusedLoc::get(ctx, {}, attrs.getDictionary(ctx));
  }
  return NameLoc::get(StringAttr::get(ctx, name), base);
}

void mlir::hlo::setCombinedAttrs(Operation *combined,
                                 ArrayRef<Operation *> members) {
  MLIRContext *ctx = combined->getContext();
  std::map<std::string, std::set<std::string>> values;
  for (Operation *m : members)
    if (auto fa = m->getAttrOfType<DictionaryAttr>("frontend_attributes"))
      for (NamedAttribute a : fa)
        if (auto s = dyn_cast<StringAttr>(a.getValue()))
          values[a.getName().str()].insert(s.getValue().str());
  if (!values.empty()) {
    SmallVector<NamedAttribute> merged;
    for (const auto &[k, vs] : values)
      merged.push_back(NamedAttribute(
          StringAttr::get(ctx, k),
          StringAttr::get(ctx, llvm::join(vs.begin(), vs.end(), ","))));
    combined->setAttr("frontend_attributes", DictionaryAttr::get(ctx, merged));
  }
  Builder b(ctx);
  combined->setAttr(
      "backend_config",
      BackendConfigAttr::get(
          ctx, BackendConfigMessage::Root,
          {b.getNamedAttr("operation_queue_id", b.getI64IntegerAttr(0)),
           b.getNamedAttr("force_earliest_schedule", b.getBoolAttr(false)),
           b.getNamedAttr("reification_cost", TextAttr::get(ctx, "[]")),
           b.getNamedAttr("device_type",
                          TextAttr::get(ctx, "\"DEVICE_TYPE_INVALID\""))}));
}

int64_t mlir::hlo::mostFrequentDim(ArrayRef<Operation *> members,
                                   function_ref<int64_t(Operation *)> dimOf) {
  SmallVector<int64_t> frequency;
  int64_t minRank = std::numeric_limits<int64_t>::max();
  for (Operation *m : members) {
    int64_t dim = dimOf(m);
    if (int64_t(frequency.size()) <= dim)
      frequency.resize(dim + 1, 0);
    ++frequency[dim];
    minRank = std::min(
        minRank, cast<RankedTensorType>(m->getResult(0).getType()).getRank());
  }
  int64_t best =
      std::max_element(frequency.begin(), frequency.end()) - frequency.begin();
  return best < minRank ? best : 0;
}

RankedTensorType mlir::hlo::swapDims(RankedTensorType type, int64_t a,
                                     int64_t b) {
  SmallVector<int64_t> shape(type.getShape());
  std::swap(shape[a], shape[b]);
  SmallVector<int64_t> minorToMajor = getMinorToMajor(type);
  for (int64_t &d : minorToMajor)
    d = d == a ? b : d == b ? a : d;
  auto old = dyn_cast_or_null<LayoutAttr>(type.getEncoding());
  auto layout = LayoutAttr::get(
      type.getContext(), /*hasMinorToMajor=*/true, minorToMajor, {}, {}, 0,
      old ? old.getMemorySpace() : 0, {}, StringAttr());
  return RankedTensorType::get(shape, type.getElementType(), layout);
}

SmallVector<NamedAttribute> mlir::hlo::sharedCollectiveAttrs(Operation *first) {
  SmallVector<NamedAttribute> attrs;
  for (StringRef name :
       {"replica_groups", "channel_id", "use_global_device_ids"})
    if (Attribute a = first->getAttr(name))
      attrs.push_back(
          NamedAttribute(StringAttr::get(first->getContext(), name), a));
  return attrs;
}

SmallVector<Value> mlir::hlo::combineIntoTuple(ArrayRef<Operation *> members,
                                               OpBuilder &builder,
                                               StringRef opName, StringRef name,
                                               ArrayRef<NamedAttribute> attrs) {
  MLIRContext *ctx = builder.getContext();
  SmallVector<Value> operands;
  SmallVector<Type> types;
  for (Operation *m : members) {
    operands.push_back(getDataOperands(m)[0]);
    types.push_back(m->getResult(0).getType());
  }
  Operation *combined =
      createInstruction(builder, combinedLoc(members, name), opName,
                        TupleType::get(ctx, types), operands, attrs);
  setCombinedAttrs(combined, members);
  SmallVector<Value> replacements;
  for (auto [i, m] : llvm::enumerate(members))
    replacements.push_back(
        createInstruction(
            builder,
            NameLoc::get(StringAttr::get(ctx, "get-tuple-element"),
                         derivedLoc(m->getLoc())),
            GetTupleElementOp::getOperationName(), types[i],
            {combined->getResult(0)},
            {builder.getNamedAttr("index", builder.getI64IntegerAttr(i))})
            ->getResult(0));
  return replacements;
}

SmallVector<Value>
mlir::hlo::combineAlongDim(ArrayRef<Operation *> members, OpBuilder &builder,
                           StringRef opName, StringRef name, int64_t dim,
                           function_ref<int64_t(Operation *)> dimOf,
                           ArrayRef<NamedAttribute> extraAttrs) {
  MLIRContext *ctx = builder.getContext();
  SmallVector<Value> operands;
  SmallVector<Type> types;
  for (Operation *m : members) {
    Value operand = getDataOperands(m)[0];
    auto resultType = cast<RankedTensorType>(m->getResult(0).getType());
    int64_t own = dimOf(m);
    if (own != dim) {
      auto type = swapDims(cast<RankedTensorType>(operand.getType()), own, dim);
      operand = createInstruction(
                    builder, NameLoc::get(StringAttr::get(ctx, "bitcast")),
                    BitcastOp::getOperationName(), type, {operand})
                    ->getResult(0);
      resultType = swapDims(resultType, own, dim);
    }
    operands.push_back(operand);
    types.push_back(resultType);
  }
  SmallVector<NamedAttribute> attrs(extraAttrs);
  attrs.push_back(
      builder.getNamedAttr("dimensions", builder.getDenseI64ArrayAttr(dim)));
  llvm::append_range(attrs, sharedCollectiveAttrs(members.front()));
  Operation *combined =
      createInstruction(builder, combinedLoc(members, name), opName,
                        TupleType::get(ctx, types), operands, attrs);
  setCombinedAttrs(combined, members);
  SmallVector<Value> replacements;
  for (auto [i, m] : llvm::enumerate(members)) {
    Location memberLoc = derivedLoc(m->getLoc());
    bool permuted = dimOf(m) != dim;
    Location gteLoc = permuted ? Location(UnknownLoc::get(ctx)) : memberLoc;
    Value v =
        createInstruction(
            builder,
            NameLoc::get(StringAttr::get(ctx, "get-tuple-element"), gteLoc),
            GetTupleElementOp::getOperationName(), types[i],
            {combined->getResult(0)},
            {builder.getNamedAttr("index", builder.getI64IntegerAttr(i))})
            ->getResult(0);
    if (permuted)
      v = createInstruction(
              builder, NameLoc::get(StringAttr::get(ctx, "bitcast"), memberLoc),
              BitcastOp::getOperationName(), m->getResult(0).getType(), {v})
              ->getResult(0);
    replacements.push_back(v);
  }
  return replacements;
}
