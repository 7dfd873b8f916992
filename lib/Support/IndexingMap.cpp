//===- IndexingMap.cpp - affine maps with variable domains ----------------===//
//
// IndexingMap's accessors, its text form and the parser of that form.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Support/IndexingMap.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cassert>

using namespace mlir;
using namespace mlir::hlo;

//===----------------------------------------------------------------------===//
// Interval
//===----------------------------------------------------------------------===//

Interval Interval::intersect(const Interval &other) const {
  return {std::max(lower, other.lower), std::min(upper, other.upper)};
}

void Interval::print(llvm::raw_ostream &os) const {
  os << '[' << lower << ", " << upper << ']';
}

std::string Interval::toString() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return s;
}

llvm::raw_ostream &mlir::hlo::operator<<(llvm::raw_ostream &os,
                                         const Interval &interval) {
  interval.print(os);
  return os;
}

//===----------------------------------------------------------------------===//
// IndexingMap
//===----------------------------------------------------------------------===//

IndexingMap::IndexingMap(AffineMap affineMap, std::vector<Interval> dimBounds,
                         std::vector<Interval> rangeVarBounds,
                         std::vector<RuntimeVar> runtimeVars,
                         ArrayRef<std::pair<AffineExpr, Interval>> constraints)
    : affineMap(affineMap), dimBounds(std::move(dimBounds)),
      rangeVarBounds(std::move(rangeVarBounds)),
      runtimeVars(std::move(runtimeVars)) {
  assert(affineMap && "IndexingMap needs an affine map");
  assert(affineMap.getNumDims() == getNumDims() &&
         "one interval per dimension variable");
  assert(affineMap.getNumSymbols() == getNumSymbols() &&
         "one interval per range or runtime variable");
  for (const auto &[expr, interval] : constraints)
    addConstraint(expr, interval);
}

const Interval &IndexingMap::getSymbolBound(unsigned i) const {
  if (i < getNumRangeVars())
    return rangeVarBounds[i];
  return runtimeVars[i - getNumRangeVars()].feasibleValues;
}

void IndexingMap::addConstraint(AffineExpr expr, Interval interval) {
  auto [it, inserted] = constraints.insert({expr, interval});
  if (!inserted)
    it->second = it->second.intersect(interval);
}

bool IndexingMap::isKnownEmpty() const {
  auto empty = [](const Interval &i) { return i.isEmpty(); };
  return llvm::any_of(dimBounds, empty) ||
         llvm::any_of(rangeVarBounds, empty) ||
         llvm::any_of(
             runtimeVars,
             [](const RuntimeVar &v) { return v.feasibleValues.isEmpty(); }) ||
         llvm::any_of(constraints,
                      [](const auto &c) { return c.second.isEmpty(); });
}

static std::string printToString(AffineMap map) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (map)
    map.print(os);
  else
    os << "<<NULL AFFINE MAP>>";
  return s;
}

std::vector<std::pair<std::string, bool>> IndexingMap::getLines() const {
  std::vector<std::pair<std::string, bool>> lines;
  lines.push_back({printToString(affineMap), false});
  lines.push_back({"domain:", false});
  for (auto [i, bound] : llvm::enumerate(dimBounds))
    lines.push_back(
        {"d" + std::to_string(i) + " in " + bound.toString(), false});
  for (auto [i, bound] : llvm::enumerate(rangeVarBounds))
    lines.push_back(
        {"s" + std::to_string(i) + " in " + bound.toString(), false});
  for (auto [i, var] : llvm::enumerate(runtimeVars)) {
    lines.push_back({"s" + std::to_string(getNumRangeVars() + i) + " in " +
                         var.feasibleValues.toString(),
                     false});
    std::string hlo = "hlo: ";
    if (!var.hloText.empty()) {
      hlo += var.hloText;
    } else if (var.value) {
      llvm::raw_string_ostream os(hlo);
      var.value.printAsOperand(os, OpPrintingFlags());
    } else {
      hlo += "NULL";
    }
    lines.push_back({std::move(hlo), true});
    lines.push_back({printToString(var.map), true});
  }
  for (const auto &[expr, interval] : constraints) {
    std::string line;
    llvm::raw_string_ostream os(line);
    expr.print(os);
    os << " in " << interval;
    lines.push_back({std::move(line), false});
  }
  return lines;
}

void IndexingMap::print(llvm::raw_ostream &os) const {
  for (const auto &[line, indented] : getLines())
    os << (indented ? "  " : "") << line << '\n';
}

std::string IndexingMap::toString() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return s;
}

std::string IndexingMap::toOneLineString() const {
  auto lines = getLines();
  // "<map>, domain: <line>, <line>, ..."
  std::string s = lines[0].first + ", " + lines[1].first;
  for (size_t i = 2; i < lines.size(); ++i)
    s += (i == 2 ? " " : ", ") + lines[i].first;
  return s;
}

bool IndexingMap::operator==(const IndexingMap &other) const {
  if (affineMap != other.affineMap || dimBounds != other.dimBounds ||
      rangeVarBounds != other.rangeVarBounds ||
      runtimeVars != other.runtimeVars ||
      constraints.size() != other.constraints.size())
    return false;
  for (const auto &[expr, interval] : constraints) {
    auto it = other.constraints.find(expr);
    if (it == other.constraints.end() || it->second != interval)
      return false;
  }
  return true;
}

llvm::raw_ostream &mlir::hlo::operator<<(llvm::raw_ostream &os,
                                         const IndexingMap &map) {
  map.print(os);
  return os;
}

//===----------------------------------------------------------------------===//
// Construction, verification, removal of variables
//===----------------------------------------------------------------------===//

IndexingMap IndexingMap::fromSizes(AffineMap affineMap,
                                   ArrayRef<int64_t> dimSizes,
                                   ArrayRef<int64_t> rangeSizes) {
  auto toBounds = [](ArrayRef<int64_t> sizes) {
    std::vector<Interval> bounds;
    for (int64_t size : sizes)
      bounds.push_back({0, size - 1});
    return bounds;
  };
  return IndexingMap(affineMap, toBounds(dimSizes), toBounds(rangeSizes));
}

IndexingMap IndexingMap::getIdentity(ArrayRef<int64_t> shape,
                                     MLIRContext *context) {
  return fromSizes(AffineMap::getMultiDimIdentityMap(shape.size(), context),
                   shape, {});
}

bool IndexingMap::verify(llvm::raw_ostream &os) const {
  if (!affineMap) {
    os << "no affine map";
    return false;
  }
  if (affineMap.getNumDims() != getNumDims()) {
    os << "the affine map has " << affineMap.getNumDims() << " dims but "
       << getNumDims() << " dimension variables are bounded";
    return false;
  }
  if (affineMap.getNumSymbols() != getNumSymbols()) {
    os << "the affine map has " << affineMap.getNumSymbols()
       << " symbols but there are " << getNumSymbols()
       << " range and runtime variables";
    return false;
  }
  for (const RuntimeVar &var : runtimeVars) {
    if (!var.map || var.map.getNumDims() != getNumDims() ||
        (var.map.getNumSymbols() != 0 &&
         var.map.getNumSymbols() != getNumSymbols())) {
      os << "a runtime variable's map must take the indexing map's "
            "dimensions (and optionally its symbols)";
      return false;
    }
  }
  for (const auto &[expr, interval] : constraints) {
    bool bad = false;
    expr.walk([&](AffineExpr e) {
      if (auto dim = dyn_cast<AffineDimExpr>(e))
        bad |= dim.getPosition() >= getNumDims();
      if (auto sym = dyn_cast<AffineSymbolExpr>(e))
        bad |= sym.getPosition() >= getNumSymbols();
    });
    if (bad) {
      os << "constraint '" << expr << "' uses an undefined variable";
      return false;
    }
  }
  return true;
}

/// Marks in `dims` / `symbols` the variables `expr` uses.
static void collectUsed(AffineExpr expr, llvm::SmallBitVector &dims,
                        llvm::SmallBitVector &symbols) {
  expr.walk([&](AffineExpr e) {
    if (auto dim = dyn_cast<AffineDimExpr>(e))
      dims.set(dim.getPosition());
    else if (auto sym = dyn_cast<AffineSymbolExpr>(e))
      symbols.set(sym.getPosition());
  });
}

void IndexingMap::getUsedVariables(llvm::SmallBitVector &dims,
                                   llvm::SmallBitVector &symbols) const {
  dims.resize(getNumDims());
  symbols.resize(getNumSymbols());
  for (AffineExpr result : affineMap.getResults())
    collectUsed(result, dims, symbols);
  for (const auto &[expr, interval] : constraints)
    collectUsed(expr, dims, symbols);
  for (const RuntimeVar &var : runtimeVars)
    for (AffineExpr result : var.map.getResults()) {
      // Runtime maps may only read dims of the indexing map; their symbols
      // count as used too.
      llvm::SmallBitVector varDims(getNumDims());
      llvm::SmallBitVector varSymbols(var.map.getNumSymbols());
      collectUsed(result, varDims, varSymbols);
      for (unsigned s : varSymbols.set_bits())
        symbols.set(s);
    }
}

void IndexingMap::replaceVariables(ArrayRef<AffineExpr> dimReplacements,
                                   ArrayRef<AffineExpr> symReplacements,
                                   unsigned numDims, unsigned numSymbols) {
  affineMap = affineMap.replaceDimsAndSymbols(dimReplacements, symReplacements,
                                              numDims, numSymbols);
  for (RuntimeVar &var : runtimeVars) {
    if (var.map.getNumSymbols() == 0) {
      var.map = var.map.replaceDimsAndSymbols(dimReplacements, {}, numDims, 0);
      continue;
    }
    var.map = var.map.replaceDimsAndSymbols(dimReplacements, symReplacements,
                                            numDims, numSymbols);
  }
  ConstraintMap old = std::move(constraints);
  constraints.clear();
  for (const auto &[expr, interval] : old)
    addConstraint(expr.replaceDimsAndSymbols(dimReplacements, symReplacements),
                  interval);
}

bool IndexingMap::removeUnusedSymbols() {
  llvm::SmallBitVector dims, symbols;
  getUsedVariables(dims, symbols);
  if (symbols.all())
    return false;
  MLIRContext *context = getContext();
  SmallVector<AffineExpr> dimReplacements, symReplacements;
  for (unsigned i = 0; i < getNumDims(); ++i)
    dimReplacements.push_back(getAffineDimExpr(i, context));
  std::vector<Interval> newRangeVars;
  std::vector<RuntimeVar> newRuntimeVars;
  unsigned next = 0;
  for (unsigned i = 0; i < getNumSymbols(); ++i) {
    if (!symbols.test(i)) {
      symReplacements.push_back(getAffineConstantExpr(0, context));
      continue;
    }
    symReplacements.push_back(getAffineSymbolExpr(next++, context));
    if (i < getNumRangeVars())
      newRangeVars.push_back(rangeVarBounds[i]);
    else
      newRuntimeVars.push_back(runtimeVars[i - getNumRangeVars()]);
  }
  rangeVarBounds = std::move(newRangeVars);
  runtimeVars = std::move(newRuntimeVars);
  replaceVariables(dimReplacements, symReplacements, getNumDims(), next);
  return true;
}

bool IndexingMap::removeUnusedDims() {
  llvm::SmallBitVector dims, symbols;
  getUsedVariables(dims, symbols);
  // Runtime variables' maps take the dims as arguments: they use them too.
  for (const RuntimeVar &var : runtimeVars)
    for (AffineExpr result : var.map.getResults()) {
      llvm::SmallBitVector varSymbols(var.map.getNumSymbols());
      collectUsed(result, dims, varSymbols);
    }
  if (dims.all())
    return false;
  MLIRContext *context = getContext();
  SmallVector<AffineExpr> dimReplacements, symReplacements;
  for (unsigned i = 0; i < getNumSymbols(); ++i)
    symReplacements.push_back(getAffineSymbolExpr(i, context));
  std::vector<Interval> newDims;
  for (unsigned i = 0; i < getNumDims(); ++i) {
    if (!dims.test(i)) {
      dimReplacements.push_back(getAffineConstantExpr(0, context));
      continue;
    }
    dimReplacements.push_back(getAffineDimExpr(newDims.size(), context));
    newDims.push_back(dimBounds[i]);
  }
  dimBounds = std::move(newDims);
  replaceVariables(dimReplacements, symReplacements, dimBounds.size(),
                   getNumSymbols());
  return true;
}

//===----------------------------------------------------------------------===//
// Composition
//===----------------------------------------------------------------------===//

IndexingMap mlir::hlo::composeIndexingMaps(const IndexingMap &consumer,
                                           const IndexingMap &producer) {
  assert(consumer.getNumResults() == producer.getNumDims() &&
         "the consumer's results index the producer's dimensions");
  MLIRContext *context = consumer.getContext();
  unsigned pRange = producer.getNumRangeVars();
  unsigned cRange = consumer.getNumRangeVars();
  unsigned pRuntime = producer.getNumRuntimeVars();
  unsigned cRuntime = consumer.getNumRuntimeVars();
  unsigned numDims = consumer.getNumDims();
  unsigned numSymbols = pRange + cRange + pRuntime + cRuntime;

  // Symbols: [producer range, consumer range, producer rt, consumer rt].
  SmallVector<AffineExpr> dims, cSyms, pSyms;
  for (unsigned i = 0; i < numDims; ++i)
    dims.push_back(getAffineDimExpr(i, context));
  for (unsigned i = 0; i < cRange; ++i)
    cSyms.push_back(getAffineSymbolExpr(pRange + i, context));
  for (unsigned i = 0; i < cRuntime; ++i)
    cSyms.push_back(
        getAffineSymbolExpr(pRange + cRange + pRuntime + i, context));
  for (unsigned i = 0; i < pRange; ++i)
    pSyms.push_back(getAffineSymbolExpr(i, context));
  for (unsigned i = 0; i < pRuntime; ++i)
    pSyms.push_back(getAffineSymbolExpr(pRange + cRange + i, context));

  // The consumer's results in the composed variables feed the producer.
  AffineMap consumerMap = consumer.getAffineMap().replaceDimsAndSymbols(
      dims, cSyms, numDims, numSymbols);
  SmallVector<AffineExpr> producerDims(consumerMap.getResults());
  AffineMap composed = producer.getAffineMap().replaceDimsAndSymbols(
      producerDims, pSyms, numDims, numSymbols);

  std::vector<Interval> rangeVars(producer.getRangeVarBounds().begin(),
                                  producer.getRangeVarBounds().end());
  llvm::append_range(rangeVars, consumer.getRangeVarBounds());

  // Runtime variables keep reading the same element: their maps now start
  // from the composed dimensions (through the consumer's results).
  auto rebase = [&](AffineMap map, ArrayRef<AffineExpr> dimExprs,
                    ArrayRef<AffineExpr> symExprs) {
    AffineMap rebased =
        map.replaceDimsAndSymbols(dimExprs, symExprs, numDims, numSymbols);
    bool usesSymbols = llvm::any_of(rebased.getResults(), [&](AffineExpr e) {
      return llvm::any_of(llvm::seq<unsigned>(0, numSymbols),
                          [&](unsigned s) { return e.isFunctionOfSymbol(s); });
    });
    if (usesSymbols)
      return rebased;
    return AffineMap::get(numDims, 0, rebased.getResults(), context);
  };
  std::vector<RuntimeVar> runtimeVars;
  for (RuntimeVar var : producer.getRuntimeVars()) {
    SmallVector<AffineExpr> varSyms =
        var.map.getNumSymbols() ? pSyms : SmallVector<AffineExpr>();
    var.map = rebase(var.map, producerDims, varSyms);
    runtimeVars.push_back(std::move(var));
  }
  for (RuntimeVar var : consumer.getRuntimeVars()) {
    SmallVector<AffineExpr> varSyms =
        var.map.getNumSymbols() ? cSyms : SmallVector<AffineExpr>();
    var.map = rebase(var.map, dims, varSyms);
    runtimeVars.push_back(std::move(var));
  }

  std::vector<Interval> dimBounds(consumer.getDimBounds().begin(),
                                  consumer.getDimBounds().end());
  IndexingMap result(composed, dimBounds, std::move(rangeVars),
                     std::move(runtimeVars));
  for (const auto &[expr, interval] : consumer.getConstraints())
    result.addConstraint(expr.replaceDimsAndSymbols(dims, cSyms), interval);
  for (const auto &[expr, interval] : producer.getConstraints())
    result.addConstraint(expr.replaceDimsAndSymbols(producerDims, pSyms),
                         interval);
  // The producer is defined on its dimension bounds only.
  for (auto [i, expr] : llvm::enumerate(producerDims)) {
    Interval bound = producer.getDimBound(i);
    Interval r = result.getRange(expr);
    if (r.lower < bound.lower || r.upper > bound.upper)
      result.addConstraint(expr, bound);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

namespace {

/// Splits `text` into items at newlines and at commas outside (), [] and {}.
/// Items are trimmed; empty items are dropped. Returns false on unbalanced
/// brackets.
bool splitItems(StringRef text, SmallVectorImpl<StringRef> &items) {
  int depth = 0;
  size_t start = 0;
  auto flush = [&](size_t end) {
    StringRef item = text.slice(start, end).trim();
    if (!item.empty())
      items.push_back(item);
    start = end + 1;
  };
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0)
        return false;
    } else if (c == '\n' || (c == ',' && depth == 0)) {
      // A newline inside brackets would be malformed.
      if (depth != 0)
        return false;
      flush(i);
    }
  }
  if (depth != 0)
    return false;
  flush(text.size());
  return true;
}

/// Parses `[lower, upper]` (the whole of `text`).
std::optional<Interval> parseInterval(StringRef text) {
  text = text.trim();
  if (!text.consume_front("[") || !text.consume_back("]"))
    return std::nullopt;
  auto [lhs, rhs] = text.split(',');
  lhs = lhs.trim();
  rhs = rhs.trim();
  Interval interval;
  if (lhs.getAsInteger(10, interval.lower) ||
      rhs.getAsInteger(10, interval.upper))
    return std::nullopt;
  return interval;
}

/// Parses `<name> in [lower, upper]` where the name must be `expectedName`.
std::optional<Interval> parseVarLine(StringRef item, StringRef expectedName) {
  if (!item.consume_front(expectedName) || !item.consume_front(" in "))
    return std::nullopt;
  return parseInterval(item);
}

/// Parses an affine map in MLIR's syntax with diagnostics suppressed.
AffineMap parseMap(StringRef text, MLIRContext *context) {
  std::string attrText = ("affine_map<" + text + ">").str();
  size_t numRead = 0;
  Attribute attr = parseAttribute(attrText, context, Type(), &numRead,
                                  /*isKnownNullTerminated=*/true);
  if (!attr || numRead != attrText.size())
    return AffineMap();
  auto mapAttr = dyn_cast<AffineMapAttr>(attr);
  return mapAttr ? mapAttr.getValue() : AffineMap();
}

/// Parses an affine expression over `numDims` dims and `numSymbols` symbols.
AffineExpr parseExpr(StringRef text, unsigned numDims, unsigned numSymbols,
                     MLIRContext *context) {
  std::string mapText;
  llvm::raw_string_ostream os(mapText);
  os << '(';
  for (unsigned i = 0; i < numDims; ++i)
    os << (i ? ", " : "") << 'd' << i;
  os << ')';
  if (numSymbols) {
    os << '[';
    for (unsigned i = 0; i < numSymbols; ++i)
      os << (i ? ", " : "") << 's' << i;
    os << ']';
  }
  os << " -> (" << text << ')';
  AffineMap map = parseMap(mapText, context);
  if (!map || map.getNumResults() != 1)
    return AffineExpr();
  return map.getResult(0);
}

} // namespace

std::optional<IndexingMap> mlir::hlo::parseIndexingMap(StringRef text,
                                                       MLIRContext *context) {
  // The MLIR parser reports errors through the context: keep them quiet.
  ScopedDiagnosticHandler silence(context,
                                  [](Diagnostic &) { return success(); });

  SmallVector<StringRef> items;
  if (!splitItems(text, items) || items.size() < 2)
    return std::nullopt;

  AffineMap affineMap = parseMap(items[0], context);
  if (!affineMap)
    return std::nullopt;

  // "domain:" may be followed by the first variable in the one-line form.
  StringRef domain = items[1];
  if (!domain.consume_front("domain:"))
    return std::nullopt;
  domain = domain.trim();
  size_t next = 2;
  if (!domain.empty()) {
    items[1] = domain;
    next = 1;
  }
  auto peek = [&]() -> std::optional<StringRef> {
    if (next < items.size())
      return items[next];
    return std::nullopt;
  };

  unsigned numDims = affineMap.getNumDims();
  unsigned numSymbols = affineMap.getNumSymbols();

  std::vector<Interval> dimBounds;
  for (unsigned i = 0; i < numDims; ++i) {
    auto item = peek();
    if (!item)
      return std::nullopt;
    auto bound = parseVarLine(*item, "d" + std::to_string(i));
    if (!bound)
      return std::nullopt;
    dimBounds.push_back(*bound);
    ++next;
  }

  std::vector<Interval> rangeVarBounds;
  std::vector<RuntimeVar> runtimeVars;
  for (unsigned i = 0; i < numSymbols; ++i) {
    auto item = peek();
    if (!item)
      return std::nullopt;
    auto bound = parseVarLine(*item, "s" + std::to_string(i));
    if (!bound)
      return std::nullopt;
    ++next;
    auto hlo = peek();
    if (!hlo || !hlo->starts_with("hlo:")) {
      // A range variable; they all come before the runtime variables.
      if (!runtimeVars.empty())
        return std::nullopt;
      rangeVarBounds.push_back(*bound);
      continue;
    }
    // A runtime variable: `hlo: ...` (kept as text) and its access map.
    StringRef hloText = hlo->drop_front(4).trim();
    ++next;
    auto mapItem = peek();
    if (!mapItem)
      return std::nullopt;
    AffineMap accessMap = parseMap(*mapItem, context);
    if (!accessMap)
      return std::nullopt;
    ++next;
    runtimeVars.push_back({*bound, Value(), accessMap, hloText.str()});
  }

  SmallVector<std::pair<AffineExpr, Interval>> constraints;
  for (; next < items.size(); ++next) {
    StringRef item = items[next];
    size_t pos = item.rfind(" in ");
    if (pos == StringRef::npos)
      return std::nullopt;
    auto interval = parseInterval(item.drop_front(pos + 4));
    if (!interval)
      return std::nullopt;
    AffineExpr expr =
        parseExpr(item.take_front(pos), numDims, numSymbols, context);
    if (!expr)
      return std::nullopt;
    constraints.push_back({expr, *interval});
  }

  return IndexingMap(affineMap, std::move(dimBounds), std::move(rangeVarBounds),
                     std::move(runtimeVars), constraints);
}
