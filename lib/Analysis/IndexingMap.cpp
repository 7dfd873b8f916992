//===- IndexingMap.cpp - affine maps with variable domains ----------------===//
//
// IndexingMap's accessors, its text form and the parser of that form.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/IndexingMap.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/STLExtras.h"
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
    if (var.value) {
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
    // A runtime variable: `hlo: ...` (not resolved) and its access map.
    ++next;
    auto mapItem = peek();
    if (!mapItem)
      return std::nullopt;
    AffineMap accessMap = parseMap(*mapItem, context);
    if (!accessMap)
      return std::nullopt;
    ++next;
    runtimeVars.push_back({*bound, Value(), accessMap});
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
