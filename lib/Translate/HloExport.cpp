//===- HloExport.cpp - the hlo dialect to HLO text ------------------------===//
//
// Prints a module of the hlo dialect as HLO text the way XLA prints it by
// default: `%`-prefixed names taken from locations, shapes with layouts,
// attributes in XLA's order, metadata recovered from fused locations, and
// `op-start`/`op-done` for async chains that wrap a single instruction.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloSyntax.h"
#include "Hlo/Translate/HloText.h"
#include "HloTextCommon.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::hlo;
using syntax::printQuoted;

namespace {

class Exporter {
public:
  Exporter(ModuleOp module, raw_ostream &os, const HloExportOptions &options)
      : module(module), os(os), options(options) {}
  LogicalResult run();
  /// `value`'s instruction (an op or a parameter) on one line, without the
  /// `%` of names, indentation, ROOT or newline.
  void printInstruction(Value value);
  /// The names of every parameter and instruction result.
  const DenseMap<Value, StringRef> &getNames() {
    prepare();
    return names;
  }

private:
  /// Names the module's values once (the exporter's module does not change
  /// while it lives).
  void prepare();
  bool prepared = false;
  void assignNames();
  StringRef uniqueName(StringRef base);
  /// `name` if it is an HLO name, else a sanitized copy in `saver`.
  StringRef sanitized(StringRef name);
  /// The printed name of the computation whose symbol is `sym`.
  StringRef compName(StringRef sym) const;
  void printHeader(ComputationOp entry);
  void printComputation(ComputationOp comp);
  /// The computations in the order to print them: each after those it
  /// calls, as XLA's parser requires.
  SmallVector<ComputationOp> calleesFirst();
  void printParameter(ComputationOp comp, BlockArgument arg, bool isRoot);
  void printOp(Operation *op, bool isRoot);
  /// `op`'s attributes for printing: inherent and discardable ones, and its
  /// control predecessors as `control_predecessors` (a list of names).
  SmallVector<NamedAttribute> attrsToPrint(Operation *op);
  void printAttrs(Operation *op, ArrayRef<NamedAttribute> attrs,
                  Location loc);
  void printAttrValue(const AttrInfo &info, Attribute value);
  void printMetadata(Location loc);
  bool isSugaredStart(AsyncStartOp start);
  Operation *wrappedOp(AsyncStartOp start);

public:
  static void printType(raw_ostream &os, Type t, bool withLayout = true);
  /// printType with layouts, memoized per type.
  void printShape(Type t);
  static void printLiteral(raw_ostream &os, Attribute literal, Type type);

private:
  ModuleOp module;
  raw_ostream &os;
  HloExportOptions options;
  DenseMap<Value, StringRef> names;
  llvm::BumpPtrAllocator nameStorage;
  llvm::StringSaver saver{nameStorage};
  DenseMap<Type, std::string> shapeText;
  /// Every name given so far, and the computation (counted from 1) that
  /// last took it from a location; kGenerated for generated names.
  DenseMap<StringRef, unsigned> usedNames;
  static constexpr unsigned kGenerated = ~0u;
  /// Per base name, the last suffix uniqueName tried: `base.1` up to
  /// `base.<lastSuffix>` are all taken.
  llvm::StringMap<unsigned> lastSuffix;
  /// How often each computation is referenced; counted on first use (only
  /// modules with async chains need it).
  std::optional<llvm::StringMap<unsigned>> symbolUses;
  const llvm::StringMap<unsigned> &getSymbolUses();
  /// Computation symbol -> printed name (an HLO identifier, unique).
  llvm::StringMap<std::string> compNames;
  llvm::StringSet<> skipComputations;
  /// Printed before instruction names ("" for printInstruction).
  StringRef namePrefix = "%";
  LogicalResult status = success();

  friend struct mlir::hlo::HloInstructionPrinter::Impl;
  friend class mlir::hlo::HloInstructionPrinter;
};

} // namespace

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

/// The HLO instruction name carried by a location, if any.
static std::optional<StringRef> nameOf(Location loc) {
  if (auto n = dyn_cast<NameLoc>(loc))
    return n.getName().getValue();
  if (auto f = dyn_cast<FusedLoc>(loc))
    for (Location inner : f.getLocations())
      if (auto n = nameOf(inner))
        return n;
  return std::nullopt;
}

StringRef Exporter::uniqueName(StringRef base) {
  if (usedNames.try_emplace(base, kGenerated).second)
    return base;
  // `base.1`, `base.2`, ... in order, but each base resumes after the last
  // suffix it tried: every name below it is already taken, so a module of N
  // unnamed `fusion`s costs O(N), not O(N^2).
  unsigned &suffix = lastSuffix[base];
  StringRef name;
  do
    name = saver.save(base + "." + Twine(++suffix));
  while (!usedNames.try_emplace(name, kGenerated).second);
  return name;
}

using syntax::sanitizeHloName;

StringRef Exporter::sanitized(StringRef name) {
  if (syntax::isHloName(name))
    return name;
  return saver.save(sanitizeHloName(name));
}

StringRef Exporter::compName(StringRef sym) const {
  auto it = compNames.find(sym);
  return it == compNames.end() ? sym : StringRef(it->second);
}

void Exporter::assignNames() {
  // A symbol may hold any string; HLO text needs an identifier. Computation
  // names are unique among computations.
  llvm::StringSet<> compUsed;
  llvm::StringMap<unsigned> compSuffix;
  for (auto comp : module.getOps<ComputationOp>()) {
    std::string base = sanitizeHloName(comp.getSymName());
    std::string name = base;
    unsigned &suffix = compSuffix[base];
    while (!compUsed.insert(name).second)
      name = base + "." + std::to_string(++suffix);
    compNames[comp.getSymName()] = name;
  }

  // Names from locations are kept as they are, even when two computations
  // share one (XLA's parser makes them unique the way XLA does). Values
  // without a name, or whose name repeats within a computation, get a fresh
  // name unique in the module. Names are not copied: those from locations
  // live in the context, the others in `saver`.
  struct Unnamed {
    Value value;
    StringRef base; // Empty: the opcode (or Arg_N for a parameter).
  };
  SmallVector<Unnamed> unnamed;
  unsigned compIndex = 0;
  auto take = [&](Value v, Location loc) {
    std::optional<StringRef> raw = nameOf(loc);
    if (!raw) {
      unnamed.push_back({v, StringRef()});
      return;
    }
    StringRef name = sanitized(*raw);
    // usedNames maps a name to the computation that last took it.
    auto [it, inserted] = usedNames.try_emplace(name, compIndex);
    if (!inserted && it->second == compIndex) {
      unnamed.push_back({v, name});
      return;
    }
    it->second = compIndex;
    names[v] = name;
  };
  for (auto comp : module.getOps<ComputationOp>()) {
    ++compIndex;
    if (skipComputations.contains(comp.getSymName()))
      continue;
    for (BlockArgument arg : comp.getBody().getArguments())
      take(arg, arg.getLoc());
    comp.walk([&](Operation *op) {
      if (!isa<ReturnOp>(op) && op->getNumResults() == 1)
        take(op->getResult(0), op->getLoc());
    });
  }
  for (auto [value, base] : unnamed) {
    if (base.empty()) {
      if (auto arg = dyn_cast<BlockArgument>(value))
        base = saver.save("Arg_" + Twine(arg.getArgNumber()));
      else
        base = saver.save(getOpcode(value.getDefiningOp()));
    }
    names[value] = uniqueName(base);
  }
}

/// The line and column of the HLO text a location points into, if any.
static std::optional<std::pair<unsigned, unsigned>> sourcePos(Location loc) {
  if (auto f = dyn_cast<FileLineColLoc>(loc))
    return std::make_pair(f.getLine(), f.getColumn());
  if (auto n = dyn_cast<NameLoc>(loc))
    return sourcePos(n.getChildLoc());
  if (auto f = dyn_cast<FusedLoc>(loc))
    for (Location inner : f.getLocations())
      if (auto pos = sourcePos(inner))
        return pos;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Types and literals
//===----------------------------------------------------------------------===//

/// The layout items kept verbatim ("" when there are none).
static StringRef extraOf(LayoutAttr layout) {
  return layout.getExtra() ? layout.getExtra().getValue() : StringRef();
}

static void printLayout(raw_ostream &os, LayoutAttr layout) {
  os << '{';
  syntax::printJoined(os, layout.getMinorToMajor(), ",");
  // Items this dialect does not model keep XLA's order: `D(..)` before the
  // tiles, the others after the memory space.
  StringRef extra = extraOf(layout);
  StringRef before = extra.starts_with("D(") ? extra.take_front(extra.find(')') + 1)
                                              : StringRef();
  StringRef after = extra.drop_front(before.size());
  bool items = !layout.getTileSizes().empty() ||
               layout.getElementSizeInBits() || layout.getMemorySpace() ||
               !extraOf(layout).empty();
  if (items) {
    os << ':' << before;
    if (!layout.getTileSizes().empty()) {
      os << 'T';
      for (ArrayRef<int64_t> tile : layout.getTiles()) {
        os << '(';
        llvm::interleave(
            tile, os,
            [&](int64_t v) {
              if (v == std::numeric_limits<int64_t>::min())
                os << '*';
              else
                os << v;
            },
            ",");
        os << ')';
      }
    }
    if (layout.getElementSizeInBits())
      os << "E(" << layout.getElementSizeInBits() << ')';
    if (layout.getMemorySpace())
      os << "S(" << layout.getMemorySpace() << ')';
    os << after;
  }
  os << '}';
}

void Exporter::printShape(Type t) {
  auto [it, inserted] = shapeText.try_emplace(t);
  if (inserted) {
    llvm::raw_string_ostream ss(it->second);
    printType(ss, t);
  }
  os << it->second;
}

void Exporter::printType(raw_ostream &os, Type t, bool withLayout) {
  if (auto tuple = dyn_cast<TupleType>(t)) {
    os << '(';
    llvm::interleaveComma(tuple.getTypes(), os,
                          [&](Type e) { printType(os, e, withLayout); });
    os << ')';
    return;
  }
  if (isa<TokenType, hlo::OpaqueType>(t)) {
    os << getElementTypeName(t) << "[]";
    return;
  }
  auto rt = cast<RankedTensorType>(t);
  auto layout = dyn_cast_or_null<LayoutAttr>(rt.getEncoding());
  os << getElementTypeName(rt.getElementType()) << '[';
  for (int64_t i = 0; i < rt.getRank(); ++i) {
    if (i)
      os << ',';
    if (layout && layout.isBounded(i))
      os << "<=" << layout.getBounds()[i];
    else if (rt.isDynamicDim(i))
      os << '?';
    else
      os << rt.getDimSize(i);
  }
  os << ']';
  // Scalars print a layout only when it says more than `{}`.
  if (withLayout && layout && layout.getHasMinorToMajor() &&
      (rt.getRank() > 0 || !layout.getTileSizes().empty() ||
       layout.getElementSizeInBits() || layout.getMemorySpace() ||
       !extraOf(layout).empty()))
    printLayout(os, layout);
}

/// The spelling XLA uses: `%g` with the fewest digits, from 6 up, that
/// reads back to exactly `v` (so 240, 0.1, 65504, 1e+300).
static std::string shortestFloat(const APFloat &v) {
  bool losesInfo;
  APFloat wide = v;
  wide.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
  double d = wide.convertToDouble();
  char buf[64];
  for (int digits = 6; digits <= 17; ++digits) {
    snprintf(buf, sizeof(buf), "%.*g", digits, d);
    APFloat back(v.getSemantics());
    auto status = back.convertFromString(buf, APFloat::rmNearestTiesToEven);
    if (!status) {
      llvm::consumeError(status.takeError());
      continue;
    }
    if (back.bitwiseIsEqual(v))
      break;
  }
  return buf;
}

static void printFloat(raw_ostream &os, const APFloat &v) {
  if (v.isInfinity()) {
    os << (v.isNegative() ? "-inf" : "inf");
    return;
  }
  if (v.isNaN()) {
    os << (v.isNegative() ? "-nan" : "nan");
    APFloat canonical = APFloat::getQNaN(v.getSemantics(), v.isNegative());
    if (canonical.bitcastToAPInt() != v.bitcastToAPInt()) {
      unsigned mantBits = APFloat::semanticsPrecision(v.getSemantics()) - 1;
      APInt payload = v.bitcastToAPInt().trunc(mantBits);
      os << "(0x" << llvm::toString(payload, 16, false, false) << ')';
    }
    return;
  }
  os << shortestFloat(v);
}

void Exporter::printLiteral(raw_ostream &os, Attribute literal, Type type) {
  if (!literal || isa<UnitAttr, DistinctAttr>(literal)) {
    os << "{...}";
    return;
  }
  if (auto tuple = dyn_cast<ArrayAttr>(literal)) {
    auto tt = cast<TupleType>(type);
    os << "( ";
    for (size_t i = 0; i < tuple.size(); ++i) {
      if (i)
        os << ", ";
      printLiteral(os, tuple[i], tt.getType(i));
    }
    os << " )";
    return;
  }
  auto elts = cast<DenseElementsAttr>(literal);
  auto rt = cast<RankedTensorType>(elts.getType());
  Type elt = rt.getElementType();
  SmallVector<std::string> scalars;
  int64_t n = rt.getNumElements();
  scalars.reserve(n);
  auto add = [&](auto fn) {
    std::string s;
    llvm::raw_string_ostream ss(s);
    fn(ss);
    scalars.push_back(std::move(s));
  };
  if (elt.isInteger(1) && cast<IntegerType>(elt).isSignless()) {
    for (bool v : elts.getValues<bool>())
      add([&](raw_ostream &s) { s << (v ? "true" : "false"); });
  } else if (auto it = dyn_cast<IntegerType>(elt)) {
    for (APInt v : elts.getValues<APInt>())
      add([&](raw_ostream &s) {
        s << llvm::toString(v, 10, !it.isUnsigned());
      });
  } else if (isa<FloatType>(elt)) {
    for (APFloat v : elts.getValues<APFloat>())
      add([&](raw_ostream &s) { printFloat(s, v); });
  } else if (isa<ComplexType>(elt)) {
    for (std::complex<APFloat> v : elts.getValues<std::complex<APFloat>>())
      add([&](raw_ostream &s) {
        s << '(';
        printFloat(s, v.real());
        s << ", ";
        printFloat(s, v.imag());
        s << ')';
      });
  }
  if (rt.getRank() == 0) {
    os << scalars[0];
    return;
  }
  // Nested braces, row-major.
  ArrayRef<int64_t> shape = rt.getShape();
  size_t next = 0;
  std::function<void(size_t)> level = [&](size_t dim) {
    bool inner = dim + 1 == shape.size();
    os << (inner || dim == 0 ? "{" : "{ ");
    if (dim == 0 && !inner)
      os << ' ';
    for (int64_t i = 0; i < shape[dim]; ++i) {
      if (i)
        os << ", ";
      if (inner)
        os << scalars[next++];
      else
        level(dim + 1);
    }
    os << (inner ? "}" : " }");
  };
  level(0);
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

static void printIndex(raw_ostream &os, ArrayRef<int64_t> index) {
  os << '{';
  syntax::printJoined(os, index, ",");
  os << '}';
}

static void printBools(raw_ostream &os, DenseBoolArrayAttr values) {
  os << '{';
  llvm::interleave(
      values.asArrayRef(), os, [&](bool v) { os << (v ? "true" : "false"); },
      ",");
  os << '}';
}

/// `shape literal`, or `( shape literal, ... )` for tuples.
static void printTypedLiteral(raw_ostream &os, Type type, Attribute value) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    auto values = cast<ArrayAttr>(value);
    os << "( ";
    for (size_t i = 0; i < tuple.size(); ++i) {
      if (i)
        os << ", ";
      printTypedLiteral(os, tuple.getType(i), values[i]);
    }
    os << " )";
    return;
  }
  Exporter::printType(os, type);
  // XLA's parser reads a `{` that follows the shape as its layout: an array
  // without one gets the default, so that the literal is not taken for it.
  auto tensor = dyn_cast<RankedTensorType>(type);
  auto layout =
      tensor ? dyn_cast_or_null<LayoutAttr>(tensor.getEncoding()) : nullptr;
  if (tensor && tensor.getRank() > 0 &&
      !(layout && layout.getHasMinorToMajor())) {
    os << '{';
    llvm::interleave(llvm::reverse(llvm::seq<int64_t>(tensor.getRank())), os,
                     ",");
    os << '}';
  }
  os << ' ';
  Exporter::printLiteral(os, value, type);
}

static StringRef enumSpelling(Attribute a) {
  if (auto e = dyn_cast<ComparisonDirectionAttr>(a))
    return stringifyComparisonDirection(e.getValue());
  if (auto e = dyn_cast<ComparisonTypeAttr>(a))
    return stringifyComparisonType(e.getValue());
  if (auto e = dyn_cast<FusionKindAttr>(a))
    return stringifyFusionKind(e.getValue());
  if (auto e = dyn_cast<FftTypeAttr>(a))
    return stringifyFftType(e.getValue());
  if (auto e = dyn_cast<RngDistributionAttr>(a))
    return stringifyRngDistribution(e.getValue());
  if (auto e = dyn_cast<RngAlgorithmAttr>(a))
    return stringifyRngAlgorithm(e.getValue());
  if (auto e = dyn_cast<TransposeAttr>(a))
    return stringifyTranspose(e.getValue());
  if (auto e = dyn_cast<CustomCallApiVersionAttr>(a))
    return stringifyCustomCallApiVersion(e.getValue());
  if (auto e = dyn_cast<CustomCallScheduleAttr>(a))
    return stringifyCustomCallSchedule(e.getValue());
  if (auto e = dyn_cast<PrecisionAttr>(a))
    return stringifyPrecision(e.getValue());
  if (auto e = dyn_cast<DotAlgorithmAttr>(a))
    return stringifyDotAlgorithm(e.getValue());
  if (auto s = dyn_cast<StringAttr>(a))
    return s.getValue();
  return "";
}

void Exporter::printAttrValue(const AttrInfo &info, Attribute value) {
  switch (info.kind) {
  case AttrKind::IntList:
    os << '{';
    syntax::printJoined(os, cast<DenseI64ArrayAttr>(value).asArrayRef(), ",");
    os << '}';
    return;
  case AttrKind::Int:
    os << cast<IntegerAttr>(value).getInt();
    return;
  case AttrKind::Float: {
    os << shortestFloat(cast<FloatAttr>(value).getValue());
    return;
  }
  case AttrKind::Bool:
    os << (cast<BoolAttr>(value).getValue() ? "true" : "false");
    return;
  case AttrKind::Enum:
    os << enumSpelling(value);
    return;
  case AttrKind::String:
    printQuoted(os, cast<StringAttr>(value).getValue());
    return;
  case AttrKind::BackendConfig:
    if (auto typed = dyn_cast<BackendConfigAttr>(value)) {
      if (!typed.getQuoted()) {
        typed.printJson(os);
        return;
      }
      std::string json;
      llvm::raw_string_ostream js(json);
      typed.printJson(js);
      printQuoted(os, json);
      return;
    }
    [[fallthrough]];
  case AttrKind::Text:
    if (auto s = dyn_cast<StringAttr>(value))
      printQuoted(os, s.getValue());
    else
      os << cast<TextAttr>(value).getValue();
    return;
  case AttrKind::Window:
    cast<WindowAttr>(value).printHlo(os);
    return;
  case AttrKind::ConvDims:
    cast<ConvDimensionNumbersAttr>(value).printHlo(os);
    return;
  case AttrKind::Slice:
    cast<SliceAttr>(value).printHlo(os);
    return;
  case AttrKind::Padding:
    cast<PaddingAttr>(value).printHlo(os);
    return;
  case AttrKind::ReplicaGroups:
    cast<ReplicaGroupsAttr>(value).printHlo(os);
    return;
  case AttrKind::Sharding:
    cast<ShardingAttr>(value).printHlo(os);
    return;
  case AttrKind::Symbol:
    os << '%' << compName(cast<FlatSymbolRefAttr>(value).getValue());
    return;
  case AttrKind::SymbolList:
  case AttrKind::NameList:
    os << '{';
    llvm::interleaveComma(cast<ArrayAttr>(value), os, [&](Attribute a) {
      if (auto sym = dyn_cast<FlatSymbolRefAttr>(a))
        os << '%' << compName(sym.getValue());
      else
        os << '%' << cast<StringAttr>(a).getValue();
    });
    os << '}';
    return;
  case AttrKind::Pairs:
  case AttrKind::IntLists:
    os << '{';
    llvm::interleave(
        cast<ArrayAttr>(value), os,
        [&](Attribute a) {
          os << '{';
          syntax::printJoined(os, cast<DenseI64ArrayAttr>(a).asArrayRef(),
                              ",");
          os << '}';
        },
        ",");
    os << '}';
    return;
  case AttrKind::StringDict:
    os << '{';
    llvm::interleave(
        cast<DictionaryAttr>(value), os,
        [&](NamedAttribute a) {
          StringRef key = a.getName().getValue();
          if (syntax::isHloName(key))
            os << key;
          else
            printQuoted(os, key);
          os << '=';
          printQuoted(os, cast<StringAttr>(a.getValue()).getValue());
        },
        ",");
    os << '}';
    return;
  case AttrKind::Shape:
    printType(os, cast<TypeAttr>(value).getValue());
    return;
  case AttrKind::ShapeList:
    os << '{';
    llvm::interleaveComma(cast<ArrayAttr>(value), os, [&](Attribute a) {
      printType(os, cast<TypeAttr>(a).getValue());
    });
    os << '}';
    return;
  case AttrKind::PrecisionList:
    os << '{';
    llvm::interleave(
        cast<ArrayAttr>(value), os,
        [&](Attribute a) { os << enumSpelling(a); }, ",");
    os << '}';
    return;
  case AttrKind::BoolList:
    printBools(os, cast<DenseBoolArrayAttr>(value));
    return;
  case AttrKind::Statistics: {
    auto dict = cast<DictionaryAttr>(value);
    os << '{';
    bool first = true;
    if (auto vi = dict.getAs<IntegerAttr>("visualizing_index")) {
      os << "visualizing_index=" << vi.getInt();
      first = false;
    }
    for (NamedAttribute a : dict) {
      if (a.getName() == "visualizing_index")
        continue;
      os << (first ? "" : ",") << a.getName().getValue() << '=';
      if (auto f = dyn_cast<FloatAttr>(a.getValue()))
        os << shortestFloat(f.getValue());
      first = false;
    }
    os << '}';
    return;
  }
  case AttrKind::Accuracy: {
    auto dict = cast<DictionaryAttr>(value);
    if (auto mode = dict.getAs<StringAttr>("mode")) {
      os << "{mode=" << mode.getValue() << '}';
      return;
    }
    os << "{tolerance={";
    bool first = true;
    for (StringRef key : {"atol", "rtol", "ulps"}) {
      Attribute v = dict.get(key);
      if (!v)
        continue;
      os << (first ? "" : ",") << key << '=';
      if (auto f = dyn_cast<FloatAttr>(v))
        os << shortestFloat(f.getValue());
      else
        os << cast<IntegerAttr>(v).getInt();
      first = false;
    }
    os << "}}";
    return;
  }
  case AttrKind::Aliasing:
    os << '{';
    llvm::interleaveComma(
        cast<ArrayAttr>(value).getAsRange<OutputOperandAliasAttr>(), os,
        [&](OutputOperandAliasAttr e) {
          printIndex(os, e.getOutputIndex());
          os << ": (" << e.getOperand() << ", ";
          printIndex(os, e.getOperandIndex());
          os << ')';
        });
    os << '}';
    return;
  case AttrKind::Domain: {
    auto dict = cast<DictionaryAttr>(value);
    os << '{';
    bool first = true;
    if (auto kind = dict.getAs<StringAttr>("kind")) {
      os << "kind=";
      printQuoted(os, kind.getValue());
      first = false;
    }
    for (StringRef key : {"entry", "exit"})
      if (auto sh = dict.getAs<ShardingAttr>(key)) {
        os << (first ? "" : ", ") << key << '=';
        sh.printHlo(os);
        first = false;
      }
    os << '}';
    return;
  }
  case AttrKind::TypedLiteral: {
    auto dict = cast<DictionaryAttr>(value);
    printTypedLiteral(os, dict.getAs<TypeAttr>("shape").getValue(),
                      dict.get("value"));
    return;
  }
  }
}

/// The metadata dictionary a location carries: the first one found depth
/// first. The importer puts it on a fused location around the name; fusing
/// such locations again (`FusedLoc::get` of two of them, as a pass that
/// merges ops may do) nests them in a fused location without metadata.
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

void Exporter::printMetadata(Location loc) {
  DictionaryAttr md = metadataOf(loc);
  if (!md)
    return;
  os << ", metadata={";
  syntax::printOpMetadata(os, md);
  os << '}';
}

/// True if `v` is the attribute class the table promises for `kind`.
static bool kindMatches(AttrKind kind, Attribute v) {
  switch (kind) {
  case AttrKind::IntList: return isa<DenseI64ArrayAttr>(v);
  case AttrKind::Int: return isa<IntegerAttr>(v) && !isa<BoolAttr>(v);
  case AttrKind::Float: return isa<FloatAttr>(v);
  case AttrKind::Bool: return isa<BoolAttr>(v);
  case AttrKind::Enum: return !enumSpelling(v).empty();
  case AttrKind::String: return isa<StringAttr>(v);
  case AttrKind::BackendConfig:
    return isa<StringAttr, TextAttr, BackendConfigAttr>(v);
  case AttrKind::Text: return isa<StringAttr, TextAttr>(v);
  case AttrKind::Window: return isa<WindowAttr>(v);
  case AttrKind::ConvDims: return isa<ConvDimensionNumbersAttr>(v);
  case AttrKind::Slice: return isa<SliceAttr>(v);
  case AttrKind::Padding: return isa<PaddingAttr>(v);
  case AttrKind::ReplicaGroups: return isa<ReplicaGroupsAttr>(v);
  case AttrKind::Sharding: return isa<ShardingAttr>(v);
  case AttrKind::Symbol: return isa<FlatSymbolRefAttr>(v);
  case AttrKind::SymbolList:
  case AttrKind::NameList:
  case AttrKind::ShapeList:
  case AttrKind::PrecisionList:
    return isa<ArrayAttr>(v);
  case AttrKind::Pairs:
  case AttrKind::IntLists: {
    auto array = dyn_cast<ArrayAttr>(v);
    return array && llvm::all_of(array, llvm::IsaPred<DenseI64ArrayAttr>);
  }
  case AttrKind::Aliasing:
    return isa<ArrayAttr>(v) &&
           llvm::all_of(cast<ArrayAttr>(v),
                        llvm::IsaPred<OutputOperandAliasAttr>);
  case AttrKind::BoolList: return isa<DenseBoolArrayAttr>(v);
  case AttrKind::Statistics:
  case AttrKind::Accuracy:
  case AttrKind::Domain: return isa<DictionaryAttr>(v);
  case AttrKind::TypedLiteral: {
    auto d = dyn_cast<DictionaryAttr>(v);
    return d && d.getAs<TypeAttr>("shape") && d.get("value");
  }
  case AttrKind::StringDict: return isa<DictionaryAttr>(v);
  case AttrKind::Shape: return isa<TypeAttr>(v);
  }
  return false;
}

/// The attributes of `op`, inherent and discardable, without building a
/// dictionary (operand segment sizes are the operands' structure, not HLO
/// attributes).
static SmallVector<NamedAttribute> collectAttrs(Operation *op) {
  SmallVector<NamedAttribute> attrs;
  if (std::optional<RegisteredOperationName> name = op->getRegisteredInfo())
    for (StringAttr key : name->getAttributeNames())
      if (std::optional<Attribute> v = op->getInherentAttr(key);
          v && *v && key.getValue() != "operandSegmentSizes")
        attrs.push_back({key, *v});
  for (NamedAttribute a : op->getDiscardableAttrs())
    attrs.push_back(a);
  return attrs;
}

void Exporter::printAttrs(Operation *op, ArrayRef<NamedAttribute> attrs,
                          Location loc) {
  ArrayRef<AttrInfo> table = getAttrTable();
  static const size_t metadataRank =
      lookupHloAttr("backend_config") - table.data();
  SmallVector<std::pair<size_t, Attribute>, 8> known;
  DictionaryAttr unknown;
  for (NamedAttribute a : attrs) {
    // XLA does not print an empty backend_config.
    if (a.getName() == "backend_config")
      if (auto s = dyn_cast<StringAttr>(a.getValue()); s && s.empty())
        continue;
    if (a.getName() == "unknown_attrs") {
      unknown = dyn_cast<DictionaryAttr>(a.getValue());
      continue;
    }
    // Buffer assignment slices (of instructions, and of parameters, whose
    // attribute names come here without "hlo.") and the whole arrays of a
    // partitioned program's parameters (hlo-spmd-partitioner's) are not
    // HLO text.
    if (a.getName() == "hlo.buffer_slices" || a.getName() == "buffer_slices" ||
        a.getName() == "global_type")
      continue;
    const AttrInfo *info =
        lookupMlirAttr(a.getName().getValue(), [&](const AttrInfo &i) {
          return kindMatches(i.kind, a.getValue());
        });
    if (!info) {
      status = op->emitError("attribute '")
               << a.getName().getValue() << "' has no HLO spelling";
      continue;
    }
    if (!kindMatches(info->kind, a.getValue())) {
      status = op->emitError("cannot print attribute '")
               << info->mlirName << "' of unexpected kind " << a.getValue();
      continue;
    }
    known.push_back({size_t(info - table.data()), a.getValue()});
  }
  llvm::sort(known, [](auto &x, auto &y) { return x.first < y.first; });
  bool printedMetadata = false;
  for (auto &[rank, value] : known) {
    if (!printedMetadata && rank >= metadataRank) {
      if (options.printMetadata)
        printMetadata(loc);
      printedMetadata = true;
    }
    os << ", " << table[rank].hloName << '=';
    printAttrValue(table[rank], value);
  }
  if (!printedMetadata && options.printMetadata)
    printMetadata(loc);
  if (unknown)
    for (NamedAttribute a : unknown)
      os << ", " << a.getName().getValue() << '='
         << cast<TextAttr>(a.getValue()).getValue();
}

//===----------------------------------------------------------------------===//
// Async sugar
//===----------------------------------------------------------------------===//

Operation *Exporter::wrappedOp(AsyncStartOp start) {
  auto callee =
      module.lookupSymbol<ComputationOp>(start.getCallsAttr().getValue());
  if (!callee)
    return nullptr;
  Block &body = callee.getBody().front();
  if (!llvm::hasSingleElement(body.without_terminator()))
    return nullptr;
  Operation *op = &body.front();
  if (op->getNumResults() != 1 || callee.getRootValue() != op->getResult(0) ||
      op->getNumOperands() != body.getNumArguments())
    return nullptr;
  for (auto [operand, arg] : llvm::zip(op->getOperands(), body.getArguments()))
    if (operand != arg)
      return nullptr;
  if (op->getNumRegions() || isa<AsyncStartOp, AsyncUpdateOp, AsyncDoneOp>(op))
    return nullptr;
  return op;
}

bool Exporter::isSugaredStart(AsyncStartOp start) {
  return options.asyncSugar && wrappedOp(start) &&
         getSymbolUses().lookup(start.getCallsAttr().getValue()) == 1;
}

/// The start of the chain an update or done belongs to.
static AsyncStartOp chainStart(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto s = dyn_cast<AsyncStartOp>(def))
      return s;
    if (auto u = dyn_cast<AsyncUpdateOp>(def)) {
      v = u.getOperand();
      continue;
    }
    return {};
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Module, computations, instructions
//===----------------------------------------------------------------------===//

void Exporter::printHeader(ComputationOp entry) {
  os << "HloModule ";
  if (auto name = module.getSymName())
    os << sanitizeHloName(*name);
  else
    os << "module_" << compName(entry.getSymName());
  static const char *const order[] = {
      "is_scheduled",
      "input_output_alias",
      "buffer_donor",
      "entry_computation_layout",
      "allow_spmd_sharding_propagation_to_parameters",
      "allow_spmd_sharding_propagation_to_output",
      "replica_count",
      "num_partitions",
      "frontend_attributes"};
  auto print = [&](StringRef key, Attribute v) {
    os << ", " << key << '=';
    if (auto t = dyn_cast<TypeAttr>(v)) {
      auto fn = cast<FunctionType>(t.getValue());
      os << "{(";
      llvm::interleave(fn.getInputs(), os, [&](Type x) { printType(os, x); },
                       ", ");
      os << ")->";
      printType(os, fn.getResult(0));
      os << '}';
    } else if (auto bv = dyn_cast<BoolAttr>(v)) {
      os << (bv.getValue() ? "true" : "false");
    } else if (auto i = dyn_cast<IntegerAttr>(v)) {
      os << i.getInt();
    } else if (auto d = dyn_cast<DictionaryAttr>(v)) {
      printAttrValue(*lookupHloAttr("frontend_attributes"), d);
    } else if (auto bools = dyn_cast<DenseBoolArrayAttr>(v)) {
      printBools(os, bools);
    } else if (auto entries = dyn_cast<ArrayAttr>(v)) {
      // input_output_alias / buffer_donor
      os << "{ ";
      llvm::interleaveComma(entries, os, [&](Attribute a) {
        if (auto e = dyn_cast<InputOutputAliasAttr>(a)) {
          printIndex(os, e.getOutputIndex());
          os << ": (" << e.getParameter() << ", ";
          printIndex(os, e.getParameterIndex());
          if (e.getKind())
            os << ", " << stringifyAliasKind(*e.getKind());
          os << ')';
          return;
        }
        auto d = dyn_cast<BufferDonorAttr>(a);
        if (!d)
          return;
        os << '(' << d.getParameter() << ", ";
        printIndex(os, d.getParameterIndex());
        os << ')';
      });
      os << " }";
    } else if (auto txt = dyn_cast<TextAttr>(v)) {
      os << txt.getValue();
    }
  };
  DictionaryAttr attrs = module->getAttrDictionary();
  bool haveLayout = false;
  for (const char *key : order) {
    std::string name = std::string("hlo.") + key;
    if (StringRef(key) == "entry_computation_layout" && !attrs.get(name) &&
        entry) {
      // XLA always prints the entry layout; derive it from the signature.
      print(key, TypeAttr::get(entry.getFunctionType()));
      haveLayout = true;
      continue;
    }
    if (Attribute v = attrs.get(name))
      print(key, v);
  }
  (void)haveLayout;
  for (NamedAttribute a : attrs) {
    StringRef key = a.getName().getValue();
    // A buffer assignment is not HLO text (XLA writes it to its own file).
    if (!key.consume_front("hlo.") || key.starts_with("section.") ||
        llvm::is_contained(order, key) || key == "buffer_allocations")
      continue;
    print(key, a.getValue());
  }
  os << "\n\n";
  for (StringRef section :
       {"FileNames", "FunctionNames", "FileLocations", "StackFrames"}) {
    auto entries = module->getAttrOfType<ArrayAttr>(
        ("hlo.section." + section).str());
    if (!entries)
      continue;
    os << section << '\n';
    for (auto [i, e] : llvm::enumerate(entries))
      os << i + 1 << ' ' << cast<TextAttr>(e).getValue() << '\n';
    os << '\n';
  }
}

SmallVector<NamedAttribute> Exporter::attrsToPrint(Operation *op) {
  SmallVector<NamedAttribute> attrs = collectAttrs(op);
  auto inst = dyn_cast<InstructionOpInterface>(op);
  if (!inst || inst.getControlPredecessors().empty())
    return attrs;
  Builder b(op->getContext());
  SmallVector<Attribute> preds;
  for (Value v : inst.getControlPredecessors())
    preds.push_back(b.getStringAttr(names[v]));
  attrs.push_back(b.getNamedAttr("control_predecessors", b.getArrayAttr(preds)));
  return attrs;
}

void Exporter::printOp(Operation *op, bool isRoot) {
  os << "  " << (isRoot ? "ROOT " : "") << namePrefix << names[op->getResult(0)]
     << " = ";
  printShape(op->getResult(0).getType());
  os << ' ';
  auto printOperands = [&](ValueRange operands) {
    os << '(';
    llvm::interleaveComma(operands, os,
                          [&](Value v) { os << namePrefix << names[v]; });
    os << ')';
  };
  if (auto start = dyn_cast<AsyncStartOp>(op); start && isSugaredStart(start)) {
    Operation *wrapped = wrappedOp(start);
    os << getOpcode(wrapped) << "-start";
    printOperands(getDataOperands(op));
    // The wrapped instruction's attributes, then the start's own.
    NamedAttrList merged(collectAttrs(wrapped));
    for (NamedAttribute a : attrsToPrint(op))
      if (a.getName() != "calls")
        merged.set(a.getName(), a.getValue());
    printAttrs(op, merged.getAttrs(), op->getLoc());
    os << '\n';
    return;
  }
  if (isa<AsyncUpdateOp, AsyncDoneOp>(op)) {
    AsyncStartOp start = chainStart(op->getOperand(0));
    if (start && isSugaredStart(start)) {
      os << getOpcode(wrappedOp(start))
         << (isa<AsyncUpdateOp>(op) ? "-update" : "-done");
      printOperands(getDataOperands(op));
      SmallVector<NamedAttribute> rest;
      for (NamedAttribute a : attrsToPrint(op))
        if (a.getName() != "calls")
          rest.push_back(a);
      printAttrs(op, rest, op->getLoc());
      os << '\n';
      return;
    }
  }
  std::string opcode = getOpcode(op);
  os << opcode;
  if (auto constant = dyn_cast<ConstantOp>(op)) {
    os << '(';
    printLiteral(os, constant.getValueAttr(), constant.getType());
    os << ')';
  } else {
    printOperands(getDataOperands(op));
  }
  SmallVector<NamedAttribute> attrs = attrsToPrint(op);
  if (isa<ConstantOp>(op)) // The literal is printed as the operand.
    llvm::erase_if(attrs, [](NamedAttribute a) { return a.getName() == "value"; });
  printAttrs(op, attrs, op->getLoc());
  os << '\n';
}

void Exporter::printParameter(ComputationOp comp, BlockArgument arg,
                              bool isRoot) {
  os << "  " << (isRoot ? "ROOT " : "") << namePrefix << names[arg] << " = ";
  printType(os, arg.getType());
  os << " parameter(" << arg.getArgNumber() << ')';
  NamedAttrList argAttrs;
  if (DictionaryAttr dict = comp.getArgAttrDict(arg.getArgNumber()))
    for (NamedAttribute a : dict)
      argAttrs.set(a.getName().getValue().drop_front(strlen("hlo.")),
                   a.getValue());
  printAttrs(comp, argAttrs.getAttrs(), arg.getLoc());
  os << '\n';
}

void Exporter::printComputation(ComputationOp comp) {
  Block &body = comp.getBody().front();
  if (comp.getEntry())
    os << "ENTRY ";
  os << '%' << compName(comp.getSymName()) << " (";
  llvm::interleaveComma(body.getArguments(), os, [&](BlockArgument arg) {
    os << names[arg] << ": ";
    printType(os, arg.getType(), /*withLayout=*/false);
  });
  os << ") -> ";
  printType(os, comp.getFunctionType().getResult(0), /*withLayout=*/false);
  os << " {\n";
  Value root = comp.getRootValue();
  auto printParam = [&](BlockArgument arg) {
    printParameter(comp, arg, root == arg);
  };
  // Parameters keep their place among the instructions when locations say
  // where they were in the HLO text; the others come first. A parameter is
  // printed no later than its first use.
  llvm::SmallPtrSet<void *, 8> printed;
  auto release = [&](BlockArgument arg) {
    if (printed.insert(arg.getAsOpaquePointer()).second)
      printParam(arg);
  };
  SmallVector<std::pair<std::pair<unsigned, unsigned>, BlockArgument>> pending;
  for (BlockArgument arg : body.getArguments()) {
    if (auto pos = sourcePos(arg.getLoc()))
      pending.push_back({*pos, arg});
    else
      release(arg);
  }
  llvm::stable_sort(pending, [](auto &a, auto &b) { return a.first < b.first; });
  size_t nextParam = 0;
  for (Operation &op : body.without_terminator()) {
    if (auto pos = sourcePos(op.getLoc()))
      while (nextParam < pending.size() && pending[nextParam].first <= *pos)
        release(pending[nextParam++].second);
    for (Value operand : op.getOperands())
      if (auto arg = dyn_cast<BlockArgument>(operand);
          arg && arg.getOwner() == &body)
        release(arg);
    printOp(&op, op.getNumResults() == 1 && op.getResult(0) == root);
  }
  for (; nextParam < pending.size(); ++nextParam)
    release(pending[nextParam].second);
  os << '}';
  if (auto thread = comp.getExecutionThreadAttr()) {
    os << ", execution_thread=";
    printQuoted(os, thread.getValue());
  }
  os << "\n\n";
}

const llvm::StringMap<unsigned> &Exporter::getSymbolUses() {
  if (symbolUses)
    return *symbolUses;
  symbolUses.emplace();
  for (auto comp : module.getOps<ComputationOp>()) {
    comp.walk([&](Operation *op) {
      // Not op->getAttrs(): that builds a dictionary of the properties.
      for (NamedAttribute a : collectAttrs(op)) {
        if (auto sym = dyn_cast<FlatSymbolRefAttr>(a.getValue()))
          ++(*symbolUses)[sym.getValue()];
        else if (auto arr = dyn_cast<ArrayAttr>(a.getValue()))
          for (Attribute e : arr)
            if (auto sym = dyn_cast<FlatSymbolRefAttr>(e))
              ++(*symbolUses)[sym.getValue()];
      }
    });
  }
  return *symbolUses;
}

void Exporter::prepare() {
  if (prepared)
    return;
  prepared = true;
  // Computations wrapped by printed async sugar are not printed.
  module.walk([&](AsyncStartOp start) {
    if (isSugaredStart(start))
      skipComputations.insert(start.getCallsAttr().getValue());
  });
  assignNames();
}

LogicalResult Exporter::run() {
  ComputationOp entry;
  for (auto comp : module.getOps<ComputationOp>()) {
    if (comp.getEntry()) {
      if (entry)
        return comp.emitError("more than one ENTRY computation: ")
               << entry.getSymName() << " and " << comp.getSymName();
      entry = comp;
    }
  }
  for (Operation &op : *module.getBody()) {
    if (!isa<ComputationOp>(op))
      return op.emitError("HLO export supports only hlo.computation at the "
                          "module level, found ")
             << op.getName();
  }
  if (!entry)
    return module.emitError("HLO export needs an ENTRY computation "
                            "(hlo.computation with the 'entry' attribute)");
  // Passes may leave ops of other dialects in a computation (a cast of a
  // conversion in progress, say); HLO text has no spelling for them.
  for (auto comp : module.getOps<ComputationOp>()) {
    WalkResult walk = comp.getBody().walk([&](Operation *op) {
      if (isa<ReturnOp, InstructionOpInterface>(op))
        return WalkResult::advance();
      op->emitError("HLO export supports only hlo instructions in a "
                    "computation, found ")
          << op->getName();
      return WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  prepare();
  printHeader(entry);
  for (ComputationOp comp : calleesFirst())
    if (!skipComputations.contains(comp.getSymName()))
      printComputation(comp);
  return status;
}

SmallVector<ComputationOp> Exporter::calleesFirst() {
  // A depth-first post-order over the module's order: what the module's
  // order already puts before its callers stays where it is, and a
  // computation a pass appended moves before its first caller. Iterative,
  // as call chains may be deep.
  SymbolTable symbols(module);
  SmallVector<ComputationOp> order;
  DenseSet<Operation *> seen;
  SmallVector<std::pair<ComputationOp, SmallVector<ComputationOp>>> stack;
  auto push = [&](ComputationOp comp) {
    if (!seen.insert(comp).second)
      return;
    SmallVector<ComputationOp> callees;
    if (auto uses = SymbolTable::getSymbolUses(&comp.getBody()))
      for (const SymbolTable::SymbolUse &use : *uses)
        if (auto callee = symbols.lookup<ComputationOp>(
                use.getSymbolRef().getRootReference()))
          callees.push_back(callee);
    std::reverse(callees.begin(), callees.end());
    stack.push_back({comp, std::move(callees)});
  };
  for (auto comp : module.getOps<ComputationOp>()) {
    push(comp);
    while (!stack.empty()) {
      auto &[top, callees] = stack.back();
      if (callees.empty()) {
        order.push_back(top);
        stack.pop_back();
        continue;
      }
      ComputationOp next = callees.pop_back_val();
      push(next);
    }
  }
  return order;
}

void Exporter::printInstruction(Value value) {
  prepare();
  namePrefix = "";
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (auto comp = dyn_cast<ComputationOp>(arg.getOwner()->getParentOp()))
      printParameter(comp, arg, /*isRoot=*/false);
  } else {
    printOp(value.getDefiningOp(), /*isRoot=*/false);
  }
}

DenseMap<Value, std::string> mlir::hlo::getHloInstructionNames(ModuleOp module) {
  std::string ignored;
  llvm::raw_string_ostream os(ignored);
  Exporter exporter(module, os, HloExportOptions());
  DenseMap<Value, std::string> names;
  for (auto [value, name] : exporter.getNames())
    names[value] = name.str();
  return names;
}

void mlir::hlo::printHloShape(raw_ostream &os, Type type) {
  Exporter::printType(os, type);
}

LogicalResult mlir::hlo::exportHloText(ModuleOp module, raw_ostream &os,
                                       const HloExportOptions &options) {
  Exporter exporter(module, os, options);
  return exporter.run();
}

std::string mlir::hlo::printHloInstruction(Value value) {
  Operation *scope = isa<BlockArgument>(value)
                         ? cast<BlockArgument>(value).getOwner()->getParentOp()
                         : value.getDefiningOp();
  auto module = scope ? scope->getParentOfType<ModuleOp>() : ModuleOp();
  if (!module)
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  HloExportOptions options;
  options.printMetadata = false;
  Exporter exporter(module, os, options);
  exporter.printInstruction(value);
  return StringRef(text).trim().str();
}

//===----------------------------------------------------------------------===//
// HloInstructionPrinter
//===----------------------------------------------------------------------===//

struct mlir::hlo::HloInstructionPrinter::Impl {
  explicit Impl(ModuleOp module)
      : module(module), exporter(module, stream, HloExportOptions()) {
    exporter.prepare();
  }

  using Attributes = SmallVector<std::pair<std::string, std::string>>;
  /// The printed attributes among `attrs` (see getAttributes).
  Attributes print(Operation *op, ArrayRef<NamedAttribute> attrs);

  ModuleOp module;
  std::string buffer;
  llvm::raw_string_ostream stream{buffer};
  Exporter exporter;
  /// printInstruction's: without metadata, made on first use.
  std::string lineBuffer;
  llvm::raw_string_ostream lineStream{lineBuffer};
  std::unique_ptr<Exporter> lines;
};

HloInstructionPrinter::Impl::Attributes
HloInstructionPrinter::Impl::print(Operation *op,
                                   ArrayRef<NamedAttribute> attrs) {
  ArrayRef<AttrInfo> table = getAttrTable();
  SmallVector<std::pair<size_t, Attribute>, 8> known;
  Attributes result;
  DictionaryAttr unknown;
  for (NamedAttribute a : attrs) {
    StringRef name = a.getName().getValue();
    if (name == "unknown_attrs") {
      unknown = dyn_cast<DictionaryAttr>(a.getValue());
      continue;
    }
    if (name == "backend_config")
      if (auto s = dyn_cast<StringAttr>(a.getValue()); s && s.empty())
        continue;
    if (isa<ConstantOp>(op) && name == "value")
      continue;
    const AttrInfo *info = lookupMlirAttr(name, [&](const AttrInfo &i) {
      return kindMatches(i.kind, a.getValue());
    });
    if (!info || info->kind == AttrKind::Symbol ||
        info->kind == AttrKind::SymbolList ||
        !kindMatches(info->kind, a.getValue()))
      continue;
    known.push_back({size_t(info - table.data()), a.getValue()});
  }
  llvm::sort(known, [](auto &x, auto &y) { return x.first < y.first; });
  for (auto &[rank, value] : known) {
    buffer.clear();
    exporter.printAttrValue(table[rank], value);
    result.push_back({table[rank].hloName.str(), buffer});
  }
  if (unknown)
    for (NamedAttribute a : unknown)
      if (auto text = dyn_cast<TextAttr>(a.getValue()))
        result.push_back({a.getName().str(), text.getValue().str()});
  return result;
}

HloInstructionPrinter::HloInstructionPrinter(ModuleOp module)
    : impl(std::make_unique<Impl>(module)) {}

HloInstructionPrinter::~HloInstructionPrinter() = default;

std::string HloInstructionPrinter::printInstruction(Value value) {
  if (!impl->lines) {
    HloExportOptions options;
    options.printMetadata = false;
    impl->lines =
        std::make_unique<Exporter>(impl->module, impl->lineStream, options);
  }
  impl->lineBuffer.clear();
  impl->lines->printInstruction(value);
  return StringRef(impl->lineBuffer).trim().str();
}

StringRef HloInstructionPrinter::getName(Value value) const {
  return impl->exporter.names.lookup(value);
}

StringRef HloInstructionPrinter::getComputationName(StringRef symbol) const {
  return impl->exporter.compName(symbol);
}

bool HloInstructionPrinter::isPrinted(StringRef symbol) const {
  return !impl->exporter.skipComputations.contains(symbol);
}

std::string HloInstructionPrinter::getOpcode(Operation *op) {
  Exporter &e = impl->exporter;
  if (auto start = dyn_cast<AsyncStartOp>(op); start && e.isSugaredStart(start))
    return hlo::getOpcode(e.wrappedOp(start)) + "-start";
  if (isa<AsyncUpdateOp, AsyncDoneOp>(op)) {
    AsyncStartOp start = chainStart(op->getOperand(0));
    if (start && e.isSugaredStart(start))
      return hlo::getOpcode(e.wrappedOp(start)) +
             (isa<AsyncUpdateOp>(op) ? "-update" : "-done");
  }
  return hlo::getOpcode(op);
}

SmallVector<std::pair<std::string, std::string>>
HloInstructionPrinter::getAttributes(Operation *op) {
  Exporter &e = impl->exporter;
  if (auto start = dyn_cast<AsyncStartOp>(op);
      start && e.isSugaredStart(start)) {
    NamedAttrList merged(collectAttrs(e.wrappedOp(start)));
    for (NamedAttribute a : collectAttrs(op))
      merged.set(a.getName(), a.getValue());
    return impl->print(op, merged.getAttrs());
  }
  return impl->print(op, collectAttrs(op));
}

SmallVector<std::pair<std::string, std::string>>
HloInstructionPrinter::getAttributes(BlockArgument arg) {
  auto comp = dyn_cast<ComputationOp>(arg.getOwner()->getParentOp());
  if (!comp)
    return {};
  NamedAttrList argAttrs;
  if (DictionaryAttr dict = comp.getArgAttrDict(arg.getArgNumber()))
    for (NamedAttribute a : dict)
      argAttrs.set(a.getName().getValue().drop_front(strlen("hlo.")),
                   a.getValue());
  return impl->print(comp, argAttrs.getAttrs());
}

void HloInstructionPrinter::printLiteral(raw_ostream &os, Attribute literal,
                                         Type type) {
  Exporter::printLiteral(os, literal, type);
}

DictionaryAttr HloInstructionPrinter::getMetadata(Location loc) {
  return metadataOf(loc);
}
