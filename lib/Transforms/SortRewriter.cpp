//===- SortRewriter.cpp - sorts as CUB radix sort custom calls ------------===//
//
// XLA-GPU's SortRewriter as XLA 0.10.2 runs it: a sort of keys (and values)
// along the last dimension by a comparator of one operand's two parameters
// becomes the custom call `xla.gpu.ext.cub_sort_unassigned_scratch_size`
// (HloCubSortCalls.h) of CUB's radix sort:
//
//   sort(k, v), comparator lt(p0, p1)
//     -> c = (K, V, u8[1]) custom-call(k, v),
//              backend_config={"descending":false}
//        tuple(gte(c, 0), gte(c, 1))
//
// JAX's comparators in NumPy order (each float parameter canonicalized,
// `select(p != p, nan, select(p == 0, 0, p))`, before the compare) sort the
// unsigned synthetic keys XLA builds from the array, the array itself being
// the values; JAX's argsort (the same with an s32 iota along the sort
// dimension) sorts u64 values packing the float's bits above the index.
// Which sorts pay off: XLA's thresholds measured on H100 and A100, keyed by
// the first operand's element width, the rows and the row length. Each sort
// is looked at once: linear.
//
//===----------------------------------------------------------------------===//

#include "CudnnUtils.h"
#include "DynamicPadder.h"
#include "ExpanderUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Dialect/Hlo/HloCubSortCalls.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSORTREWRITER
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// What the comparator says: which operand holds the keys, the direction,
/// and whether it compares NumPy's canonicalized floats.
struct ComparatorInfo {
  unsigned keyOperand = 0;
  bool descending = false;
  bool numpyOrder = false;
  /// Whether the compare is TOTALORDER (floats ordered as CUB orders
  /// them; a FLOAT compare ties -0 and +0).
  bool totalOrder = false;
};

/// The scalar constant `v` is (through a scalar broadcast), as a float.
std::optional<APFloat> constantFloat(Value v) {
  if (auto b = v.getDefiningOp<BroadcastOp>())
    v = getDataOperands(b)[0];
  auto c = v.getDefiningOp<ConstantOp>();
  auto literal = c ? dyn_cast<DenseFPElementsAttr>(c.getValue()) : nullptr;
  if (!literal || literal.getNumElements() != 1)
    return std::nullopt;
  return *literal.value_begin<APFloat>();
}

bool isCompare(Value v, ComparisonDirection direction, Value lhs, Value rhs) {
  auto c = v.getDefiningOp<CompareOp>();
  return c && c.getDirection() == direction && getDataOperands(c)[0] == lhs &&
         getDataOperands(c)[1] == rhs;
}

/// The parameter number of `v` in `body`, or -1.
int64_t parameterNumber(Value v, Block &body) {
  auto arg = dyn_cast<BlockArgument>(v);
  return arg && arg.getOwner() == &body ? int64_t(arg.getArgNumber()) : -1;
}

/// XLA's ParamNumberOfCanonicalizedZerosAndNans: the parameter p of
/// `select(p != p, nan, select(p == 0, 0, p))`, or -1.
int64_t canonicalizedParameter(Value v, Block &body) {
  auto outer = v.getDefiningOp<SelectOp>();
  if (!outer)
    return -1;
  auto o = getDataOperands(outer);
  auto inner = o[2].getDefiningOp<SelectOp>();
  std::optional<APFloat> nan = constantFloat(o[1]);
  if (!inner || !nan || !nan->isNaN())
    return -1;
  auto i = getDataOperands(inner);
  Value p = i[2];
  std::optional<APFloat> zero = constantFloat(i[1]);
  auto isZero = [&](Value c) {
    std::optional<APFloat> z = constantFloat(c);
    return z && z->isZero();
  };
  auto eq = i[0].getDefiningOp<CompareOp>();
  if (!zero || !zero->isZero() ||
      !isCompare(o[0], ComparisonDirection::NE, p, p) || !eq ||
      eq.getDirection() != ComparisonDirection::EQ ||
      getDataOperands(eq)[0] != p || !isZero(getDataOperands(eq)[1]))
    return -1;
  return parameterNumber(p, body);
}

/// XLA's AnalyzeCompareOp on the comparator's root.
std::optional<ComparatorInfo> analyzeComparator(ComputationOp comparator) {
  if (!comparator || comparator.getBody().empty())
    return std::nullopt;
  Block &body = comparator.getBody().front();
  auto compare = comparator.getRootValue().getDefiningOp<CompareOp>();
  if (!compare || compare.getDirection() == ComparisonDirection::EQ ||
      compare.getDirection() == ComparisonDirection::NE)
    return std::nullopt;
  Value lhs = getDataOperands(compare)[0], rhs = getDataOperands(compare)[1];
  ComparatorInfo info;
  int64_t i0 = parameterNumber(lhs, body), i1 = parameterNumber(rhs, body);
  if (i0 < 0 || i1 < 0) {
    i0 = canonicalizedParameter(lhs, body);
    i1 = canonicalizedParameter(rhs, body);
    info.numpyOrder = true;
  }
  int64_t first = std::min(i0, i1);
  if (first < 0 || first % 2 != 0 || std::max(i0, i1) != first + 1)
    return std::nullopt;
  bool greater = compare.getDirection() == ComparisonDirection::GT ||
                 compare.getDirection() == ComparisonDirection::GE;
  info.totalOrder = compare.getComparisonType() == ComparisonType::TOTALORDER;
  info.keyOperand = unsigned(first / 2);
  info.descending = greater != (first != i0);
  return info;
}

/// XLA's IsCubSortFasterOnH100 / IsCubSortFasterOnA100 (its measurements).
bool isCubFaster(bool hopper, int64_t bits, int64_t batch, int64_t n,
                 int64_t sms) {
  auto over = [&](std::initializer_list<std::pair<int64_t, int64_t>> rules) {
    return llvm::any_of(rules, [&](auto r) {
      return batch > r.first && n > (int64_t(1) << r.second);
    });
  };
  if (hopper) {
    switch (bits) {
    case 8:
      return batch == 1 || (n > 1300 && (batch > 8 || n < 26000));
    case 16:
      return (batch == 1 && n > (1 << 9)) ||
             over({{12, 16}, {14, 15}, {16, 14}, {18, 13}, {33, 12}, {66, 11}});
    case 32:
      return (batch == 1 && n > 22000) ||
             over({{26, 17}, {31, 16}, {38, 15}, {44, 14}, {52, 13}}) ||
             (batch > 88 && batch <= sms && n > (1 << 12));
    case 64:
      return (batch == 1 && n > (1 << 17)) ||
             over({{55, 17}, {70, 16}, {92, 15}}) ||
             (((batch > 160 && batch <= 2 * sms) || batch > 354) &&
              n > (1 << 14));
    default:
      return false;
    }
  }
  switch (bits) {
  case 8:
    return batch == 1 || (n > 1000 && (batch > 5 || n < 43000));
  case 16:
    return (batch == 1 && n > (1 << 16)) || over({{9, 17},
                                                  {13, 16},
                                                  {13, 15},
                                                  {13, 14},
                                                  {13, 13},
                                                  {27, 12},
                                                  {54, 11}});
  case 32:
    return (batch == 1 && n > (2 << 14)) ||
           over({{24, 17}, {30, 16}, {36, 15}, {39, 14}, {52, 13}, {144, 12}});
  case 64:
    return (batch == 1 && n > (1 << 16)) ||
           over({{46, 17}, {55, 16}, {72, 15}}) ||
           (((batch > 138 && batch <= 2 * sms) || batch > 289) &&
            n > (1 << 14));
  default:
    return false;
  }
}

struct SortRewriterPass
    : ChangeReportingPass<SortRewriterPass, hlo::impl::HloSortRewriterBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    if (mode != "auto" && mode != "always") {
      getOperation().emitError("hlo-sort-rewriter: mode must be auto or "
                               "always, not '")
          << mode << "'";
      return signalPassFailure();
    }
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (SortOp sort : nonFusionOpsWithoutControlEdges<SortOp>(module))
      rewrite(sort, symbols);
  }

  /// XLA's ShouldRewriteCompatibleSort.
  bool paysOff(RankedTensorType first) {
    int64_t n = first.getShape().back();
    if (n == 0)
      return false;
    if (mode == "always")
      return true;
    int64_t batch = first.getNumElements() / n;
    const GpuDeviceInfo &device = getSelectedGpuDevice();
    int major = device.computeCapabilityMajor;
    if (major >= 8)
      return isCubFaster(/*hopper=*/major >= 9,
                         first.getElementType().getIntOrFloatBitWidth(), batch,
                         n, device.coreCount);
    return first.getNumElements() > 16384;
  }

  void rewrite(SortOp sort, SymbolTable &symbols) {
    ValueRange inputs = sort.getInputs();
    if (inputs.size() != 1 && inputs.size() != 2)
      return;
    auto first = dyn_cast<RankedTensorType>(inputs[0].getType());
    if (!first || !first.hasStaticShape() || first.getRank() < 1 ||
        padder::hasDynamicDims(first) || sort.getDimensions().size() != 1 ||
        sort.getDimensions()[0] != first.getRank() - 1 ||
        !first.getElementType().isIntOrFloat() || !paysOff(first))
      return;
    std::optional<ComparatorInfo> info =
        analyzeComparator(symbols.lookup<ComputationOp>(sort.getToApply()));
    if (!info || info->keyOperand >= inputs.size())
      return;
    Value keys = inputs[info->keyOperand];
    Value values = inputs.size() == 2 ? inputs[1 - info->keyOperand] : Value();
    Type keyType = cast<RankedTensorType>(keys.getType()).getElementType();
    // NumPy order: synthetic keys, the array as values; with an index
    // operand only JAX's argsort, the array's bits packed over the index.
    bool packed = false;
    if (info->numpyOrder) {
      if (!(keyType.isF16() || keyType.isBF16() || keyType.isF32() ||
            keyType.isF64()))
        return;
      if (values) {
        packed = info->keyOperand == 0 &&
                 keyType.getIntOrFloatBitWidth() <= 32 &&
                 isIotaAlong(values, first.getShape(), first.getRank() - 1);
        if (!packed)
          return;
      }
    } else if (isa<FloatType>(keyType) && !info->totalOrder &&
               sort.getIsStable().value_or(false)) {
      // CUB puts -0 before +0, where a stable sort by a FLOAT compare keeps
      // them in input order (XLA rewrites it regardless).
      return;
    } else if (!isCubSortKeyType(keyType) ||
               (values &&
                !isCubSortValueType(cast<RankedTensorType>(values.getType())
                                        .getElementType()))) {
      return;
    }

    MLIRContext *ctx = &getContext();
    OpBuilder b(sort);
    Location loc = derivedLoc(sort.getLoc());
    ExpansionBuilder eb(b, loc);
    Value callKeys = keys, callValues = values;
    if (info->numpyOrder) {
      callKeys = numpyKeys(eb, keys);
      callValues = packed ? packBitsOverIndex(eb, keys, values) : keys;
    }
    SmallVector<Value> operands = {callKeys};
    SmallVector<Type> types = {callKeys.getType()};
    if (callValues) {
      operands.push_back(callValues);
      types.push_back(callValues.getType());
    }
    types.push_back(scratchType(ctx, 1));
    std::string json = std::string("{\"descending\":") +
                       (info->descending ? "true" : "false") + "}";
    Attribute config = BackendConfigAttr::parseJson(ctx, json);
    if (!config)
      config = b.getStringAttr(json);
    Operation *call = createInstruction(
        b, NameLoc::get(b.getStringAttr("custom-call"), loc),
        CustomCallOp::getOperationName(), TupleType::get(ctx, types), operands,
        {b.getNamedAttr("custom_call_target",
                        b.getStringAttr(kCubSortUnassignedTarget)),
         b.getNamedAttr("backend_config", config)});
    if (DictionaryAttr fa = sort.getFrontendAttributesAttr())
      call->setAttr("frontend_attributes", fa);

    Value tuple = call->getResult(0);
    Value replacement;
    if (!values && !info->numpyOrder) {
      replacement = createGte(b, loc, tuple, 0);
    } else if (info->numpyOrder && !packed) {
      replacement = createGte(b, loc, tuple, 1);
    } else {
      Value parts[2];
      if (packed) {
        Value both = createGte(b, loc, tuple, 1);
        parts[0] = unpackBits(eb, both, keys.getType());
        parts[1] = unpackIndex(eb, both, values.getType());
      } else {
        parts[info->keyOperand] = createGte(b, loc, tuple, 0);
        parts[1 - info->keyOperand] = createGte(b, loc, tuple, 1);
      }
      replacement = eb.create(TupleOp::getOperationName(),
                              sort.getResult().getType(), {parts[0], parts[1]});
    }
    sort.getResult().replaceAllUsesWith(replacement);
    eraseWithDeadOperands(sort);
    ++numRewritten;
    changed = true;
  }

  /// XLA's AddNumpySortKey: -0 as +0, every NaN as one NaN, then the bits
  /// as an unsigned integer ordered as the floats (negative values' bits
  /// flipped, the others' sign bit set).
  static Value numpyKeys(ExpansionBuilder &eb, Value x) {
    Type t = ExpansionBuilder::getElementType(x);
    unsigned width = t.getIntOrFloatBitWidth();
    Type u = IntegerType::get(t.getContext(), width, IntegerType::Unsigned);
    Value zero = eb.splatReal(x.getType(), 0.0);
    Value canonicalZeros =
        eb.select(eb.compare(ComparisonDirection::EQ, x, zero), zero, x);
    Value nan = eb.splatReal(x.getType(), std::nan(""));
    Value canonical = eb.select(eb.compare(ComparisonDirection::NE, x, x), nan,
                                canonicalZeros);
    Value negative = eb.compare(ComparisonDirection::LT, canonical, zero);
    Value bits = eb.bitcast(canonical, u);
    Value sign = eb.splatInt(bits.getType(), uint64_t(1) << (width - 1));
    Value flippedSign =
        eb.create(XorOp::getOperationName(), bits.getType(), {sign, bits});
    Value flipped =
        eb.create(NotOp::getOperationName(), bits.getType(), {bits});
    return eb.select(negative, flipped, flippedSign);
  }

  /// u64 values `bits(x) << 32 | bits(index)` (JAX's argsort).
  static Value packBitsOverIndex(ExpansionBuilder &eb, Value x, Value index) {
    MLIRContext *ctx = x.getContext();
    Type t = ExpansionBuilder::getElementType(x);
    Type u64 = IntegerType::get(ctx, 64, IntegerType::Unsigned);
    Value high = eb.convert(
        eb.bitcast(x, IntegerType::get(ctx, t.getIntOrFloatBitWidth(),
                                       IntegerType::Unsigned)),
        u64);
    high = eb.create(ShiftLeftOp::getOperationName(), high.getType(),
                     {high, eb.splatInt(high.getType(), 32)});
    Value low = eb.convert(
        eb.bitcast(index, IntegerType::get(ctx, 32, IntegerType::Unsigned)),
        u64);
    return eb.create(OrOp::getOperationName(), high.getType(), {high, low});
  }

  /// The float of the packed values' high half, of type `type`.
  static Value unpackBits(ExpansionBuilder &eb, Value both, Type type) {
    Type t = cast<RankedTensorType>(type).getElementType();
    Value shifted =
        eb.create(ShiftRightLogicalOp::getOperationName(), both.getType(),
                  {both, eb.splatInt(both.getType(), 32)});
    Value narrow = eb.convert(
        shifted, IntegerType::get(t.getContext(), t.getIntOrFloatBitWidth(),
                                  IntegerType::Unsigned));
    return eb.create(BitcastConvertOp::getOperationName(), type, {narrow});
  }

  /// The s32 index of the packed values' low half, of type `type`.
  static Value unpackIndex(ExpansionBuilder &eb, Value both, Type type) {
    Value narrow = eb.convert(
        both, IntegerType::get(both.getContext(), 32, IntegerType::Unsigned));
    return eb.create(BitcastConvertOp::getOperationName(), type, {narrow});
  }
};

} // namespace
