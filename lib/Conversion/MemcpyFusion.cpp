//===- MemcpyFusion.cpp - fusions that only copy bytes --------------------===//
//
// XLA's memcpy fusions (a contiguous slice of a parameter: a device-to-
// device copy) and its dynamic-slice fusions of a copy (DynamicSlice
// FusionRewriter's `dynamic_slice_config`: a dynamic-slice or in-place
// dynamic-update-slice whose offsets are affine in a loop's iteration).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Conversion/MemcpyFusion.h"

#include "EmitterUtils.h"
#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Dialect/Thunk/ThunkDialect.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {
/// A counted loop as hlo-while-loop-trip-count-annotator describes it: the
/// induction variable (element `index` of the state) is `init + i * step`
/// at iteration `i` of `trips`.
struct CountedLoop {
  int64_t index, init, step, trips;
};

/// The most iterations whose offsets are evaluated (beyond: a kernel).
constexpr int64_t kMaxTrips = 1 << 16;
/// The most instructions an offset may take to compute.
constexpr unsigned kMaxOffsetOps = 32;

Value skipBitcasts(Value v) {
  while (auto b = v.getDefiningOp<BitcastOp>())
    v = b.getOperand();
  return v;
}

bool isTiled(RankedTensorType t) {
  auto layout = dyn_cast_or_null<LayoutAttr>(t.getEncoding());
  return layout && !layout.getTiles().empty();
}

/// Untiled, dimensions in row-major order.
bool isRowMajor(Type type) {
  if (isTiled(cast<RankedTensorType>(type)))
    return false;
  SmallVector<int64_t> order = getMinorToMajor(type);
  for (auto [i, d] : llvm::enumerate(order))
    if (d != int64_t(order.size() - 1 - i))
      return false;
  return true;
}

/// `v` through bitcasts and reshapes between row-major arrays (which keep
/// every element's byte offset).
Value skipByteIdentities(Value v) {
  for (;;) {
    v = skipBitcasts(v);
    auto reshape = v.getDefiningOp<ReshapeOp>();
    if (!reshape || !isRowMajor(reshape.getType()) ||
        !isRowMajor(reshape.getOperand().getType()))
      return v;
    v = reshape.getOperand();
  }
}

int64_t bytesOf(RankedTensorType t) {
  return t.getNumElements() * thunk::getElementStorageBytes(t.getElementType());
}

/// Whether the elements of `part` (an array of extents `part`'s shape at
/// some start in `whole`) are contiguous in `whole`: in physical order,
/// whole dimensions up to the first partial one, then extents of 1; both
/// untiled with one physical order and byte-sized elements.
bool isContiguousPart(RankedTensorType part, RankedTensorType whole) {
  if (!part || !whole || !part.hasStaticShape() || !whole.hasStaticShape() ||
      isTiled(part) || isTiled(whole) ||
      part.getElementType() != whole.getElementType() ||
      thunk::isPackedElementType(whole.getElementType()) ||
      getMinorToMajor(part) != getMinorToMajor(whole) ||
      part.getNumElements() == 0)
    return false;
  bool partial = false;
  for (int64_t d : getMinorToMajor(whole)) {
    int64_t extent = part.getDimSize(d);
    if (partial && extent != 1)
      return false;
    partial |= extent != whole.getDimSize(d);
  }
  return true;
}

/// The byte offset in `whole` (untiled) of the element at `starts`.
int64_t byteOffset(RankedTensorType whole, ArrayRef<int64_t> starts) {
  int64_t offset = 0;
  for (auto [start, stride] : llvm::zip(starts, getPhysicalStrides(whole)))
    offset += start * stride;
  return offset * thunk::getElementStorageBytes(whole.getElementType());
}

/// The fused computation's parameter `v` is (its index), or none.
std::optional<unsigned> parameterIndex(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getArgNumber();
  return std::nullopt;
}

} // namespace

struct MemcpyFusionAnalysis::State {
  ModuleOp module;
  SymbolTable &symbols;
  /// The counted loop of each computation that is the body of one while
  /// loop and called from nowhere else (built at first need).
  std::optional<DenseMap<Operation *, CountedLoop>> loops;

  State(ModuleOp module, SymbolTable &symbols)
      : module(module), symbols(symbols) {}

  void findLoops();
  /// The value of the scalar integer `v` of the loop body (or of a fusion
  /// in it) at induction variable value `iv`, or none where it depends on
  /// anything but the induction variable and constants.
  std::optional<int64_t> evaluate(Value v, const CountedLoop &loop,
                                  Operation *fusion, int64_t iv);
  /// The byte offset into `whole` of the part at `starts` (clamped as HLO
  /// clamps dynamic starts) at each iteration, as an affine function.
  std::optional<LoopByteOffset> offsets(Operation *fusion, ValueRange starts,
                                        RankedTensorType part,
                                        RankedTensorType whole);
};

void MemcpyFusionAnalysis::State::findLoops() {
  loops.emplace();
  llvm::DenseMap<StringAttr, unsigned> references;
  module.walk([&](Operation *op) {
    op->getAttrDictionary().walk(
        [&](SymbolRefAttr ref) { ++references[ref.getRootReference()]; });
  });
  module.walk([&](WhileOp op) {
    BackendConfigAttr config = readBackendConfig(op->getAttr("backend_config"));
    auto body = symbols.lookup<ComputationOp>(op.getBody());
    if (!config || !body || references.lookup(op.getBodyAttr().getAttr()) != 1)
      return;
    std::optional<int64_t> trips = config.getKnownTripCount();
    Attribute initStep = config.getMember("known_init_step");
    std::optional<int64_t> init = readJsonIntMember(initStep, "init"),
                           step = readJsonIntMember(initStep, "step"),
                           index = readJsonIntMember(
                               config.getMember("known_induction_variable"),
                               "tuple_index");
    if (trips && init && step && index && *trips > 0 && *trips <= kMaxTrips)
      (*loops)[body] = CountedLoop{*index, *init, *step, *trips};
  });
}

/// a < b for integers of `type` as wrapTo holds them (u64 compared as
/// unsigned; narrower unsigned types are zero-extended).
static bool lessThan(IntegerType type, int64_t a, int64_t b) {
  return type.isUnsigned() && type.getWidth() == 64 ? uint64_t(a) < uint64_t(b)
                                                    : a < b;
}

/// `v` as an integer of `type`'s width: truncated, then sign-extended for
/// signed types (and pred), zero-extended for unsigned ones.
static int64_t wrapTo(IntegerType type, int64_t v) {
  unsigned width = type.getWidth();
  if (width >= 64)
    return v;
  if (width == 1)
    return v & 1;
  uint64_t mask = (uint64_t(1) << width) - 1, bits = uint64_t(v) & mask;
  if (!type.isUnsigned() && (bits >> (width - 1)))
    bits |= ~mask;
  return int64_t(bits);
}

std::optional<int64_t>
MemcpyFusionAnalysis::State::evaluate(Value v, const CountedLoop &loop,
                                      Operation *fusion, int64_t iv) {
  // The scalar integer instructions an index is computed with (JAX's
  // negative-index wrap: compare, add, select; clamps, converts), on
  // int64 values kept at their type's width. Not the interpreter, which
  // is the oracle the tests compare the compiled program with.
  DenseMap<Value, int64_t> known;
  unsigned ops = 0;
  std::function<std::optional<int64_t>(Value)> value =
      [&](Value v) -> std::optional<int64_t> {
    if (auto it = known.find(v); it != known.end())
      return it->second;
    auto tensor = dyn_cast<RankedTensorType>(v.getType());
    auto type = tensor && tensor.getRank() == 0
                    ? dyn_cast<IntegerType>(tensor.getElementType())
                    : IntegerType();
    if (!type || type.getWidth() > 64 || ++ops > kMaxOffsetOps)
      return std::nullopt;
    auto operand = [&](unsigned i) {
      return value(getDataOperands(v.getDefiningOp())[i]);
    };
    std::optional<int64_t> result;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      // A parameter of the fused computation: the fusion's operand.
      if (arg.getOwner()->getParentOp() != fusion->getParentOp() &&
          arg.getArgNumber() < getDataOperands(fusion).size())
        result = value(getDataOperands(fusion)[arg.getArgNumber()]);
    } else if (auto gte = v.getDefiningOp<GetTupleElementOp>()) {
      // The induction variable: the loop state's element `index`.
      auto state = dyn_cast<BlockArgument>(gte.getOperand());
      if (state && state.getOwner()->getParentOp() == fusion->getParentOp() &&
          int64_t(gte.getIndex()) == loop.index)
        result = iv;
    } else if (auto constant = v.getDefiningOp<ConstantOp>()) {
      if (auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue());
          dense && dense.getNumElements() == 1)
        result = type.isUnsigned() || type.getWidth() == 1
                     ? int64_t((*dense.begin()).getZExtValue())
                     : (*dense.begin()).getSExtValue();
    } else if (auto compare = v.getDefiningOp<CompareOp>()) {
      auto lhs = operand(0), rhs = operand(1);
      auto element = cast<IntegerType>(
          cast<RankedTensorType>(compare.getLhs().getType()).getElementType());
      if (lhs && rhs) {
        auto less = [&](int64_t a, int64_t b) {
          return lessThan(element, a, b);
        };
        switch (compare.getDirection()) {
        case ComparisonDirection::EQ:
          result = *lhs == *rhs;
          break;
        case ComparisonDirection::NE:
          result = *lhs != *rhs;
          break;
        case ComparisonDirection::LT:
          result = less(*lhs, *rhs);
          break;
        case ComparisonDirection::LE:
          result = !less(*rhs, *lhs);
          break;
        case ComparisonDirection::GT:
          result = less(*rhs, *lhs);
          break;
        case ComparisonDirection::GE:
          result = !less(*lhs, *rhs);
          break;
        }
      }
    } else if (Operation *op = v.getDefiningOp();
               op && isa<AddOp, SubtractOp, MulOp, MaxOp, MinOp, NegOp, ClampOp,
                         SelectOp, ConvertOp>(op)) {
      SmallVector<int64_t> x;
      for (unsigned i = 0, e = getDataOperands(op).size(); i < e; ++i) {
        // Every operand is a scalar integer (or pred) of at most 64 bits.
        std::optional<int64_t> o = operand(i);
        if (!o)
          return std::nullopt;
        x.push_back(*o);
      }
      auto less = [&](int64_t a, int64_t b) { return lessThan(type, a, b); };
      result =
          TypeSwitch<Operation *, int64_t>(op)
              .Case([&](AddOp) { return int64_t(uint64_t(x[0]) + x[1]); })
              .Case([&](SubtractOp) { return int64_t(uint64_t(x[0]) - x[1]); })
              .Case([&](MulOp) {
                return int64_t(uint64_t(x[0]) * uint64_t(x[1]));
              })
              .Case([&](MaxOp) { return less(x[0], x[1]) ? x[1] : x[0]; })
              .Case([&](MinOp) { return less(x[1], x[0]) ? x[1] : x[0]; })
              .Case([&](NegOp) { return int64_t(0 - uint64_t(x[0])); })
              .Case([&](ClampOp) {
                int64_t lo = less(x[1], x[0]) ? x[0] : x[1];
                return less(x[2], lo) ? x[2] : lo;
              })
              .Case([&](SelectOp) { return x[0] ? x[1] : x[2]; })
              .Default([&](Operation *) { return x[0]; }); // convert
    }
    if (!result)
      return std::nullopt;
    result = wrapTo(type, *result);
    known[v] = *result;
    return result;
  };
  std::optional<int64_t> i = value(v);
  // A u64 index beyond int64's range: not an offset this analysis takes.
  auto element =
      cast<IntegerType>(cast<RankedTensorType>(v.getType()).getElementType());
  if (i && *i < 0 && element.isUnsigned())
    return std::nullopt;
  return i;
}

std::optional<LoopByteOffset>
MemcpyFusionAnalysis::State::offsets(Operation *fusion, ValueRange starts,
                                     RankedTensorType part,
                                     RankedTensorType whole) {
  auto body = fusion->getParentOfType<ComputationOp>();
  if (!loops)
    findLoops();
  auto it = loops->find(body);
  if (it == loops->end())
    return std::nullopt;
  const CountedLoop &loop = it->second;
  std::optional<LoopByteOffset> affine;
  SmallVector<int64_t> clamped(starts.size());
  for (int64_t i = 0; i < loop.trips; ++i) {
    // The induction variable wraps as its type does (evaluate).
    int64_t iv =
        int64_t(uint64_t(loop.init) + uint64_t(i) * uint64_t(loop.step));
    for (auto [d, start] : llvm::enumerate(starts)) {
      std::optional<int64_t> s = evaluate(start, loop, fusion, iv);
      if (!s)
        return std::nullopt;
      int64_t last = whole.getDimSize(d) - part.getDimSize(d);
      clamped[d] = std::clamp<int64_t>(*s, 0, last);
    }
    int64_t offset = byteOffset(whole, clamped);
    if (i == 0)
      affine = LoopByteOffset{offset, 0};
    else if (i == 1)
      affine->stride = offset - affine->offset;
    else if (offset != affine->offset + i * affine->stride)
      return std::nullopt;
  }
  return affine;
}

MemcpyFusionAnalysis::MemcpyFusionAnalysis(ModuleOp module,
                                           SymbolTable &symbols)
    : state(std::make_unique<State>(module, symbols)) {}

MemcpyFusionAnalysis::~MemcpyFusionAnalysis() = default;

std::optional<MemcpyFusion> MemcpyFusionAnalysis::get(Operation *op) {
  auto fusion = dyn_cast<FusionOp>(op);
  auto fused = fusion ? state->symbols.lookup<ComputationOp>(fusion.getCalls())
                      : nullptr;
  if (!fused || fused.getBody().empty())
    return std::nullopt;
  SmallVector<Value> roots = getFusionRoots(fused);
  if (roots.size() != 1 || !isStaticArray(roots.front().getType()))
    return std::nullopt;
  Value root = skipBitcasts(roots.front());
  MemcpyFusion memcpy;
  Operation *def = root.getDefiningOp();
  if (isa_and_nonnull<SliceOp, DynamicSliceOp>(def)) {
    // A part of a parameter: its bytes from the part's offset.
    auto from = dyn_cast<RankedTensorType>(def->getOperand(0).getType());
    auto to = dyn_cast<RankedTensorType>(root.getType());
    std::optional<unsigned> param =
        parameterIndex(skipBitcasts(def->getOperand(0)));
    if (!param || !isContiguousPart(to, from))
      return std::nullopt;
    std::optional<LoopByteOffset> source;
    if (auto slice = dyn_cast<SliceOp>(def)) {
      if (llvm::any_of(slice.getSlice().getStrides(),
                       [](int64_t s) { return s != 1; }))
        return std::nullopt;
      source = LoopByteOffset{byteOffset(from, slice.getSlice().getStarts())};
    } else {
      source = state->offsets(
          fusion, cast<DynamicSliceOp>(def).getStartIndices(), to, from);
    }
    if (!source)
      return std::nullopt;
    memcpy.operand = *param;
    memcpy.source = *source;
    memcpy.bytes = bytesOf(to);
    return memcpy;
  }
  if (auto update = root.getDefiningOp<DynamicUpdateSliceOp>()) {
    auto whole = dyn_cast<RankedTensorType>(update.getOperand().getType());
    auto part = dyn_cast<RankedTensorType>(update.getUpdate().getType());
    std::optional<unsigned> buffer =
        parameterIndex(skipBitcasts(update.getOperand()));
    std::optional<unsigned> param =
        parameterIndex(skipByteIdentities(update.getUpdate()));
    if (!buffer || !param || !isContiguousPart(part, whole))
      return std::nullopt;
    std::optional<LoopByteOffset> target =
        state->offsets(fusion, update.getStartIndices(), part, whole);
    if (!target)
      return std::nullopt;
    memcpy.operand = *param;
    memcpy.updated = *buffer;
    memcpy.target = *target;
    memcpy.bytes = bytesOf(part);
    return memcpy;
  }
  return std::nullopt;
}

thunk::TransposeAttr MemcpyFusionAnalysis::getTranspose(Operation *op) {
  auto fusion = dyn_cast<FusionOp>(op);
  auto fused = fusion ? state->symbols.lookup<ComputationOp>(fusion.getCalls())
                      : nullptr;
  if (!fused || fused.getBody().empty() || getDataOperands(fusion).size() != 1)
    return {};
  SmallVector<Value> roots = getFusionRoots(fused);
  if (roots.size() != 1)
    return {};
  auto transpose =
      skipByteIdentities(roots.front()).getDefiningOp<TransposeOp>();
  if (!transpose || !parameterIndex(skipByteIdentities(transpose.getOperand())))
    return {};
  // Every array on the way has its elements in row-major order: the
  // bitcasts and reshapes keep each element's byte offset.
  for (Value v = roots.front();; v = v.getDefiningOp()->getOperand(0)) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !isStaticArray(type) || !isRowMajor(type) ||
        thunk::isPackedElementType(type.getElementType()))
      return {};
    if (isa<BlockArgument>(v))
      break;
  }
  auto operand = cast<RankedTensorType>(transpose.getOperand().getType());
  return thunk::TransposeAttr::get(op->getContext(), operand.getShape(),
                                   transpose.getDimensions());
}
