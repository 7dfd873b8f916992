//===- IndexingMap.h - affine maps with variable domains --------*- C++ -*-===//
//
// An IndexingMap is an mlir::AffineMap together with the domain of its
// variables: a closed interval per dimension variable (d0, d1, ...), per range
// variable and per runtime variable, plus constraints `expr in [lower, upper]`
// over those variables. The map's symbols are the range variables first and
// then the runtime variables: with R range variables, s0 .. s(R-1) are range
// variables and sR, s(R+1), ... are runtime variables.
//
// Text form (print / parseIndexingMap):
//
//   (d0, d1)[s0] -> (d0, s0)
//   domain:
//   d0 in [0, 9]
//   d1 in [0, 19]
//   s0 in [0, 255]
//   (d1 - 3) mod 7 in [0, 0]
//
// A runtime variable's line is followed by two indented lines: `hlo: <value>`
// and the affine map saying which element of the value is read. The one-line
// form joins the lines with ", " (and drops the indentation).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_SUPPORT_INDEXINGMAP_H
#define HLO_SUPPORT_INDEXINGMAP_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace mlir::hlo {

/// A closed interval [lower, upper] of int64_t. Empty when lower > upper.
struct Interval {
  int64_t lower = 0;
  int64_t upper = 0;

  bool isEmpty() const { return lower > upper; }
  bool contains(int64_t v) const { return lower <= v && v <= upper; }
  /// The intersection of both intervals (possibly empty).
  Interval intersect(const Interval &other) const;

  /// Prints `[lower, upper]`.
  void print(llvm::raw_ostream &os) const;
  std::string toString() const;

  bool operator==(const Interval &other) const {
    return lower == other.lower && upper == other.upper;
  }
  bool operator!=(const Interval &other) const { return !(*this == other); }
};

llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const Interval &interval);

/// A variable whose value is known only at run time: `feasibleValues` bounds
/// it, `value` produces it (may be null, e.g. in tests or after parsing) and
/// `map` goes from the indexing map's dimensions to the element of `value`
/// that is read.
struct RuntimeVar {
  Interval feasibleValues;
  Value value;
  AffineMap map;
  /// The text of the `hlo:` line (the producing instruction in HLO text).
  /// Filled by the parser and by whoever wants it printed; not compared.
  std::string hloText = {};

  bool operator==(const RuntimeVar &other) const {
    return feasibleValues == other.feasibleValues && value == other.value &&
           map == other.map;
  }
  bool operator!=(const RuntimeVar &other) const { return !(*this == other); }
};

class IndexingMap {
public:
  /// Constraints in insertion order (deterministic printing).
  using ConstraintMap = llvm::MapVector<AffineExpr, Interval>;

  IndexingMap() = default;
  /// `affineMap` must have dimBounds.size() dims and
  /// rangeVarBounds.size() + runtimeVars.size() symbols.
  IndexingMap(AffineMap affineMap, std::vector<Interval> dimBounds,
              std::vector<Interval> rangeVarBounds,
              std::vector<RuntimeVar> runtimeVars = {},
              ArrayRef<std::pair<AffineExpr, Interval>> constraints = {});

  AffineMap getAffineMap() const { return affineMap; }
  MLIRContext *getContext() const { return affineMap.getContext(); }

  unsigned getNumDims() const { return dimBounds.size(); }
  unsigned getNumRangeVars() const { return rangeVarBounds.size(); }
  unsigned getNumRuntimeVars() const { return runtimeVars.size(); }
  unsigned getNumSymbols() const {
    return getNumRangeVars() + getNumRuntimeVars();
  }
  unsigned getNumResults() const { return affineMap.getNumResults(); }

  ArrayRef<Interval> getDimBounds() const { return dimBounds; }
  const Interval &getDimBound(unsigned i) const { return dimBounds[i]; }
  ArrayRef<Interval> getRangeVarBounds() const { return rangeVarBounds; }
  const Interval &getRangeVarBound(unsigned i) const {
    return rangeVarBounds[i];
  }
  ArrayRef<RuntimeVar> getRuntimeVars() const { return runtimeVars; }
  const RuntimeVar &getRuntimeVar(unsigned i) const { return runtimeVars[i]; }
  /// The bounds of symbol `i`: a range variable's or a runtime variable's.
  const Interval &getSymbolBound(unsigned i) const;

  const ConstraintMap &getConstraints() const { return constraints; }
  unsigned getNumConstraints() const { return constraints.size(); }
  /// Adds `expr in interval`; an existing constraint on the same expression is
  /// intersected with `interval`.
  void addConstraint(AffineExpr expr, Interval interval);

  /// True when some variable's or constraint's interval is empty (so no point
  /// satisfies the domain). False does not mean the domain is non-empty.
  bool isKnownEmpty() const;

  /// Checks the invariants (sizes agree, expressions only use existing
  /// variables); on failure writes the reason to `os`.
  bool verify(llvm::raw_ostream &os) const;

  //===--------------------------------------------------------------------===//
  // Construction helpers
  //===--------------------------------------------------------------------===//

  /// Dimension i in [0, dimSizes[i] - 1], range variable j in
  /// [0, rangeSizes[j] - 1]; no runtime variables.
  static IndexingMap fromSizes(AffineMap affineMap, ArrayRef<int64_t> dimSizes,
                               ArrayRef<int64_t> rangeSizes);
  /// The identity over a tensor of the given shape.
  static IndexingMap getIdentity(ArrayRef<int64_t> shape,
                                 MLIRContext *context);

  //===--------------------------------------------------------------------===//
  // Transformations (all return true when the map changed)
  //===--------------------------------------------------------------------===//

  /// Range-aware simplification of the results and the constraints until a
  /// fixed point: mod/floordiv rewriting, constraint tightening, dropping
  /// always-true constraints. Detected emptiness makes isKnownEmpty() true.
  bool simplify();
  /// Removes range and runtime variables used neither by the results nor by
  /// the constraints (renumbering the rest).
  bool removeUnusedSymbols();
  /// Removes dimension variables used neither by the results nor by the
  /// constraints (renumbering the rest). Changes the map's interface: only for
  /// maps whose dimensions are not matched against another map.
  bool removeUnusedDims();
  /// Replaces a range variable s constrained by `s mod k in [n, n]` with
  /// `s' * k + n` (s' over the matching smaller interval).
  bool rescaleSymbols();
  /// Merges constraints `e mod a in [x, x]` and `e mod b in [y, y]` on the
  /// same expression into one (or finds the domain empty).
  bool mergeModConstraints();

  /// The range of `expr` over the domain (ignoring constraints).
  Interval getRange(AffineExpr expr) const;

  /// The multi-line text form (see the file comment). Each line ends in '\n'.
  void print(llvm::raw_ostream &os) const;
  std::string toString() const;
  /// The lines of print() joined with ", ", without indentation.
  std::string toOneLineString() const;

  /// Structural equality; constraints compare as sets.
  bool operator==(const IndexingMap &other) const;
  bool operator!=(const IndexingMap &other) const { return !(*this == other); }

private:
  /// Marks the variables used by the results, the constraints and the
  /// runtime variables' maps.
  void getUsedVariables(llvm::SmallBitVector &dims,
                        llvm::SmallBitVector &symbols) const;
  /// Substitutes every variable (results, constraints, runtime maps).
  void replaceVariables(ArrayRef<AffineExpr> dimReplacements,
                        ArrayRef<AffineExpr> symReplacements,
                        unsigned numDims, unsigned numSymbols);

  /// The lines of the text form, without indentation or newline; `indented`
  /// marks the lines belonging to a runtime variable.
  std::vector<std::pair<std::string, bool>> getLines() const;

  AffineMap affineMap;
  std::vector<Interval> dimBounds;
  std::vector<Interval> rangeVarBounds;
  std::vector<RuntimeVar> runtimeVars;
  ConstraintMap constraints;
};

llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const IndexingMap &map);

/// The map from `consumer`'s dimensions to `producer`'s results:
/// producer(consumer(d)). `consumer`'s results index `producer`'s dimensions.
/// The composed map's symbols are the producer's range variables, then the
/// consumer's, then the producer's runtime variables, then the consumer's.
/// Constraints of both are kept (the producer's rewritten in the consumer's
/// variables), and each consumer result gets the producer's dimension bound as
/// a constraint. The result is not simplified.
IndexingMap composeIndexingMaps(const IndexingMap &consumer,
                                const IndexingMap &producer);

/// Range-aware simplification of one expression given the bounds of its
/// dimensions and symbols.
AffineExpr simplifyAffineExpr(AffineExpr expr, ArrayRef<Interval> dimBounds,
                              ArrayRef<Interval> symbolBounds);

/// Parses the multi-line or the one-line text form. Returns std::nullopt (and
/// emits no diagnostics) when the text is malformed. A runtime variable's
/// `hlo:` line is read but not resolved: the parsed RuntimeVar has a null
/// value.
std::optional<IndexingMap> parseIndexingMap(llvm::StringRef text,
                                            MLIRContext *context);

} // namespace mlir::hlo

#endif // HLO_SUPPORT_INDEXINGMAP_H
