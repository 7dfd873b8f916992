//===- HloImportLiterals.cpp - shapes and literals ------------------------===//
//
// Part of the HLO text importer (see HloImporter.h).
//
//===----------------------------------------------------------------------===//

#include "HloImporter.h"

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::detail;

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

static StringRef arrayShapeSpelling(StringRef rest);

/// Skips spaces if a layout follows them: `{` then a number (a negative
/// one too) or `:` (as XLA's parser looks ahead; `{` alone may open a
/// computation's body).
static bool spacedLayoutFollows(Cursor &cur) {
  size_t save = cur.getPos();
  cur.skipSpace();
  size_t brace = cur.getPos();
  if (cur.consumeIf("{")) {
    cur.skipSpace();
    char next = cur.peek();
    StringRef rest = cur.rest();
    // A number (a negative one too: one token for XLA's lexer) or `:`.
    if (llvm::isDigit(next) || next == ':' ||
        (next == '-' && rest.size() > 1 && llvm::isDigit(rest[1]))) {
      cur.setPos(brace);
      return true;
    }
  }
  cur.setPos(save);
  return false;
}

bool Importer::parseShape(Cursor &cur, Type &type, bool spacedLayout) {
  cur.skipSpace();
  NestingGuard guard(*this, cur.getPos());
  if (!guard.ok)
    return false;
  if (cur.consumeIf("(")) {
    SmallVector<Type> elts;
    if (!cur.consumeIf(")")) {
      do {
        Type t;
        cur.skipSpace();
        size_t at = cur.getPos();
        ++tupleDepth;
        bool ok = parseShape(cur, t, spacedLayout);
        --tupleDepth;
        if (!ok)
          return false;
        // XLA validates a tuple's elements: an array's bytes must fit in
        // int64 (an array on its own only needs its element count to).
        if (auto tensor = dyn_cast<RankedTensorType>(t);
            tensor && tensor.hasStaticShape()) {
          std::optional<unsigned> bits =
              getElementBitWidth(tensor.getElementType());
          int64_t bytes;
          if (bits &&
              llvm::MulOverflow(tensor.getNumElements(),
                                int64_t(std::max(1u, *bits / 8)), bytes))
            return error(at, "the tuple element's bytes overflow int64");
          // Nor can it size an element tiled by a tile of extent 0.
          if (auto layout = dyn_cast_or_null<LayoutAttr>(tensor.getEncoding());
              layout && llvm::is_contained(layout.getTileData(), 0))
            return error(at, "the tuple element's layout has a tile "
                             "dimension of 0");
        }
        elts.push_back(t);
      } while (cur.consumeIf(","));
      if (!cur.expect(")"))
        return error(cur.getErrorOffset(), cur.getError());
    }
    type = TupleType::get(ctx, elts);
    return true;
  }
  // Array shapes repeat a lot: reuse the type built for the same spelling.
  StringRef spelling = arrayShapeSpelling(cur.rest());
  size_t start = cur.getPos();
  if (!spelling.empty()) {
    auto it = shapeCache.find(spelling);
    // Not when a layout follows after spaces: the spelling is incomplete.
    cur.setPos(start + spelling.size());
    bool spaced = spacedLayout && spacedLayoutFollows(cur);
    cur.setPos(start + spelling.size());
    if (it != shapeCache.end() && !spaced) {
      type = it->second;
      return true;
    }
    cur.setPos(start);
  }
  if (!parseArrayShape(cur, type, spacedLayout))
    return false;
  // Not index or pointer types: the same spelling may be refused in a tuple.
  if (!spelling.empty() && cur.getPos() == start + spelling.size() &&
      spelling.find_first_of("#*") == StringRef::npos)
    shapeCache.try_emplace(spelling, type);
  return true;
}

/// The text of the array shape at the start of `rest` (`f32[2,3]{1,0}`), or
/// empty if it is not one spelled without spaces.
static StringRef arrayShapeSpelling(StringRef rest) {
  size_t open = rest.find_first_of("[ ({,");
  if (open == StringRef::npos || rest[open] != '[')
    return {};
  size_t close = rest.find_first_of("] ", open);
  if (close == StringRef::npos || rest[close] != ']')
    return {};
  size_t end = close + 1;
  if (end < rest.size() && rest[end] == '{') {
    size_t brace = rest.find_first_of("} ", end);
    if (brace == StringRef::npos || rest[brace] != '}')
      return {};
    end = brace + 1;
  }
  return rest.take_front(end);
}

bool Importer::parseArrayShape(Cursor &cur, Type &type, bool spacedLayout) {
  size_t start = cur.getPos();
  StringRef name;
  if (!cur.parseIdentifier(name))
    return error(cur.getErrorOffset(), "expected shape");
  Type elt = parseElementType(ctx, name);
  if (!elt)
    return error(start, "unknown element type '" + name + "'");
  if (!cur.expect("["))
    return error(cur.getErrorOffset(), cur.getError());
  SmallVector<int64_t> dims, bounds;
  bool anyBounded = false;
  if (!cur.consumeIf("]")) {
    do {
      if (cur.consumeIf("?")) {
        dims.push_back(ShapedType::kDynamic);
        bounds.push_back(ShapedType::kDynamic);
        continue;
      }
      bool bounded = cur.consumeIf("<=");
      int64_t d;
      if (!cur.parseInt(d))
        return error(cur.getErrorOffset(), cur.getError());
      if (d < 0)
        return error(start, "negative dimension size in shape");
      dims.push_back(bounded ? ShapedType::kDynamic : d);
      bounds.push_back(bounded ? d : ShapedType::kDynamic);
      anyBounded |= bounded;
    } while (cur.consumeIf(","));
    if (!cur.expect("]"))
      return error(cur.getErrorOffset(), cur.getError());
  }
  if (isa<TokenType, hlo::OpaqueType>(elt)) {
    if (!dims.empty())
      return error(start, "'" + name + "' shapes have no dimensions");
    type = elt;
    return true;
  }
  // Like XLA, reject shapes whose element count does not fit in int64.
  int64_t elements = 1;
  for (auto [d, bound] : llvm::zip(dims, bounds)) {
    int64_t size = ShapedType::isDynamic(d) ? bound : d;
    if (ShapedType::isDynamic(size))
      continue;
    if (llvm::MulOverflow(elements, size, elements))
      return error(start, "shape has more than 2^63 elements");
  }
  LayoutAttr layout;
  // A layout follows directly: `f32[2]{0}` (not `f32[2] {1, 2}`, a literal),
  // or after spaces where no literal can follow; there, as in XLA's parser,
  // `{` starts a layout only when a number or `:` follows it. (Directly
  // after the dimensions `{}` is an empty layout, which XLA rejects: the
  // unit tests' generators write `f64[]{}`.)
  bool haveLayout = cur.rest().starts_with("{") ||
                    (spacedLayout && spacedLayoutFollows(cur));
  if (haveLayout) {
    if (!parseLayout(cur, bounds, anyBounded, layout))
      return false;
  } else if (anyBounded) {
    layout = LayoutAttr::get(ctx, false, {}, {}, {}, 0, 0, bounds,
                             StringAttr::get(ctx, ""));
  }
  type = RankedTensorType::get(dims, elt, layout);
  return true;
}

bool Importer::parseLayout(Cursor &cur, ArrayRef<int64_t> bounds,
                           bool anyBounded, LayoutAttr &layout) {
  size_t start = cur.getPos();
  SmallVector<int64_t> m2m, tileSizes, tileData;
  int64_t elementSize = 0, memorySpace = 0;
  std::string extra;
  if (!cur.expect("{"))
    return error(cur.getErrorOffset(), cur.getError());
  // Spaces, line breaks and comments may stand between the numbers, as
  // between any of XLA's tokens.
  if (cur.peek() != '}' && cur.peek() != ':') {
    do {
      int64_t d;
      if (!cur.parseInt(d))
        return error(cur.getErrorOffset(), cur.getError());
      m2m.push_back(d);
    } while (cur.consumeIf(","));
  }
  if (cur.consumeIf(":")) {
    while (!cur.atEnd() && cur.peek() != '}') {
      if (cur.consumeIf("T")) {
        while (cur.peek() == '(') {
          size_t before = tileData.size();
          if (!cur.expect("("))
            break;
          do {
            if (cur.consumeIf("*")) {
              tileData.push_back(std::numeric_limits<int64_t>::min());
              continue;
            }
            int64_t v;
            if (!cur.parseInt(v))
              return error(cur.getErrorOffset(), cur.getError());
            tileData.push_back(v);
          } while (cur.consumeIf(","));
          if (!cur.expect(")"))
            return error(cur.getErrorOffset(), cur.getError());
          tileSizes.push_back(tileData.size() - before);
        }
      } else if (cur.consumeIf("E(")) {
        if (!cur.parseInt(elementSize) || !cur.expect(")"))
          return error(cur.getErrorOffset(), cur.getError());
      } else if (cur.consumeIf("S(")) {
        if (!cur.parseInt(memorySpace) || !cur.expect(")"))
          return error(cur.getErrorOffset(), cur.getError());
      } else {
        // Other layout items (L(..), P(..), SC(..), ...) are kept verbatim.
        size_t itemStart = cur.getPos();
        StringRef word, group;
        bool typeItem = cur.consumeIf("#") || cur.consumeIf("*");
        if (!typeItem && !cur.parseIdentifier(word))
          return error(itemStart, "malformed layout item");
        if (!cur.parseBalanced(group))
          return error(itemStart, "malformed layout item");
        // XLA's parser refuses index (`#(...)`) and pointer (`*(...)`)
        // types in the layouts of tuple elements.
        if (typeItem && tupleDepth) {
          Type t = parseElementType(ctx, group.drop_front().drop_back().trim());
          auto it = dyn_cast_or_null<IntegerType>(t);
          return error(itemStart,
                       it && it.isUnsigned()
                           ? "a tuple element's layout has no index or "
                             "pointer type"
                           : "expecting an unsigned integer type");
        }
        extra += cur.getText().slice(itemStart, cur.getPos()).str();
      }
    }
  }
  if (!cur.expect("}"))
    return error(cur.getErrorOffset(), cur.getError());
  size_t rank = bounds.size();
  if (rank == 0 && tileSizes.empty() && !elementSize && !memorySpace &&
      extra.empty() && m2m.empty())
    return true; // `f32[]{}` is the default scalar layout.
  if (m2m.size() != rank)
    return error(start, "layout {" + std::to_string(m2m.size()) +
                            " dims} does not match the shape's rank " +
                            std::to_string(rank));
  SmallVector<bool> seen(rank, false);
  for (int64_t d : m2m) {
    if (d < 0 || d >= int64_t(rank) || seen[d])
      return error(start, "layout is not a permutation of the dimensions");
    seen[d] = true;
  }
  layout = LayoutAttr::get(
      ctx, true, m2m, tileSizes, tileData, elementSize, memorySpace,
      anyBounded ? bounds : ArrayRef<int64_t>(), StringAttr::get(ctx, extra));
  return true;
}

//===----------------------------------------------------------------------===//
// Literals
//===----------------------------------------------------------------------===//

StringRef mlir::hlo::detail::scanScalarToken(Cursor &cur) {
  cur.skipSpace();
  StringRef rest = cur.rest();
  size_t n = 0;
  while (n < rest.size()) {
    char ch = rest[n];
    if (ch == ',' || ch == '}' || ch == ')' || ch == ' ' || ch == '\n' ||
        ch == '\t' || ch == '\r' || ch == '/' || ch == '{')
      break;
    if (ch == '(') { // nan(0x...)
      size_t close = rest.find(')', n);
      n = close == StringRef::npos ? rest.size() : close + 1;
      break;
    }
    ++n;
  }
  cur.setPos(cur.getPos() + n);
  return rest.take_front(n);
}

NumberToken mlir::hlo::detail::classifyNumber(StringRef tok) {
  bool negative = tok.consume_front("-");
  if (tok == "nan")
    return NumberToken::Nan;
  if (tok == "inf")
    return NumberToken::Inf;
  StringRef intPart = tok.take_while(llvm::isDigit);
  StringRef rest = tok.drop_front(intPart.size());
  if (rest.empty()) {
    // XLA's lexer has integer tokens from -2^63 to 2^64-1.
    APInt v;
    if (intPart.empty() || intPart.getAsInteger(10, v) ||
        v.getActiveBits() > 64)
      return NumberToken::None;
    if (negative && v.getActiveBits() == 64 &&
        !v.zextOrTrunc(64).isMinSignedValue())
      return NumberToken::None;
    return NumberToken::Int;
  }
  bool point = rest.consume_front(".");
  StringRef fraction = rest.take_while(llvm::isDigit);
  rest = rest.drop_front(fraction.size());
  // Only a `-` lets a number start with its point (`-.5`, not `.5`).
  if (intPart.empty() && !(negative && point && !fraction.empty()))
    return NumberToken::None;
  if (rest.consume_front("e") || rest.consume_front("E")) {
    if (!rest.consume_front("+"))
      rest.consume_front("-");
    return !rest.empty() && llvm::all_of(rest, llvm::isDigit)
               ? NumberToken::Decimal
               : NumberToken::None;
  }
  return point && rest.empty() ? NumberToken::Decimal : NumberToken::None;
}

/// True if number token `tok` (no sign) is zero: no nonzero digit before
/// its exponent.
static bool isZeroToken(StringRef tok) {
  StringRef mantissa = tok.take_until([](char c) { return c == 'e' || c == 'E'; });
  return llvm::all_of(mantissa, [](char c) { return c == '0' || c == '.'; });
}

static std::optional<APFloat> parseFloatToken(StringRef tok,
                                              const llvm::fltSemantics &sem,
                                              std::string &err) {
  bool neg = tok.consume_front("-");
  if (!neg)
    tok.consume_front("+");
  // Where the type has no infinity or NaN, the value is what XLA's parser
  // makes of it (its conversion from double): an infinity becomes NaN, or
  // the largest value when there is no NaN either (f4e2m1fn), and a NaN
  // there becomes a zero of the other sign.
  if (tok == "inf") {
    if (APFloat::semanticsHasInf(sem))
      return APFloat::getInf(sem, neg);
    return APFloat::semanticsHasNaN(sem) ? APFloat::getQNaN(sem, neg)
                                         : APFloat::getLargest(sem, neg);
  }
  if (tok.starts_with("nan")) {
    if (!APFloat::semanticsHasNaN(sem)) {
      if (tok != "nan") {
        err = "this floating-point type has no NaN";
        return std::nullopt;
      }
      return APFloat::getZero(sem, !neg);
    }
    StringRef payload = tok.drop_front(3);
    if (payload.empty())
      return APFloat::getQNaN(sem, neg);
    uint64_t bits;
    if (!payload.consume_front("(0x") || !payload.consume_back(")") ||
        payload.getAsInteger(16, bits)) {
      err = "malformed NaN payload";
      return std::nullopt;
    }
    // As in XLA: a payload is not zero (`nan(0x0)` is no token), and only
    // types with IEEE NaNs (those with infinities) take one that fits their
    // significand.
    if (bits == 0) {
      err = "unexpected token type in a literal";
      return std::nullopt;
    }
    unsigned mantBits = APFloat::semanticsPrecision(sem) - 1;
    if (!APFloat::semanticsHasInf(sem) || (mantBits < 64 && bits >> mantBits)) {
      err = "NaN payload 0x" + payload.str() +
            " does not fit this floating-point type";
      return std::nullopt;
    }
    // The payload is the significand bits, quiet bit included.
    unsigned width = APFloat::semanticsSizeInBits(sem);
    APInt all = APFloat::getQNaN(sem, neg).bitcastToAPInt();
    APInt mantMask = APInt::getLowBitsSet(width, mantBits);
    APInt value = (all & ~mantMask) | (APInt(width, bits) & mantMask);
    return APFloat(sem, value);
  }
  APFloat value(sem);
  auto status = value.convertFromString(tok, APFloat::rmNearestTiesToEven);
  if (!status) {
    llvm::consumeError(status.takeError());
    err = "invalid floating-point literal '" + tok.str() + "'";
    return std::nullopt;
  }
  // f8e8m0fnu (powers of two from 2^-127: no zero, no sign) takes no zero
  // and no negative value, as XLA's parser (which rounds smaller positive
  // ones up to 2^-127).
  bool unsignedType = &sem == &APFloat::Float8E8M0FNU();
  if ((*status & APFloat::opOverflow) ||
      (unsignedType && (neg || isZeroToken(tok)))) {
    err = "value " + std::string(neg ? "-" : "") + tok.str() +
          " is out of range for the element type";
    return std::nullopt;
  }
  if (neg)
    value.changeSign();
  return value;
}

/// True if XLA's lexer reads `tok` as one token a literal may hold: a
/// number, inf, nan (with a payload `nan(0x...)`), true or false.
static bool isLiteralToken(StringRef tok) {
  if (classifyNumber(tok) != NumberToken::None || tok == "true" ||
      tok == "false")
    return true;
  tok.consume_front("-");
  return tok.starts_with("nan(");
}

bool Importer::parseScalar(Cursor &cur, Type elt, SmallVectorImpl<APInt> &ints,
                           SmallVectorImpl<APFloat> &floats,
                           SmallVectorImpl<std::complex<APFloat>> &complexes) {
  cur.skipSpace();
  size_t at = cur.getPos();
  std::string err;
  if (auto complex = dyn_cast<ComplexType>(elt)) {
    auto &sem = cast<FloatType>(complex.getElementType()).getFloatSemantics();
    if (!cur.expect("("))
      return error(cur.getErrorOffset(), "expected '(' of a complex literal");
    StringRef reTok = scanScalarToken(cur);
    if (!isLiteralToken(reTok))
      return error(at, "unexpected token type in a literal");
    auto re = parseFloatToken(reTok, sem, err);
    if (!re || !cur.expect(","))
      return error(at, err.empty() ? "malformed complex literal" : err);
    size_t imAt = cur.getPos();
    StringRef imTok = scanScalarToken(cur);
    if (!isLiteralToken(imTok))
      return error(imAt, "unexpected token type in a literal");
    auto im = parseFloatToken(imTok, sem, err);
    if (!im || !cur.expect(")"))
      return error(at, err.empty() ? "malformed complex literal" : err);
    complexes.emplace_back(*re, *im);
    return true;
  }
  StringRef tok = scanScalarToken(cur);
  if (tok.empty())
    return error(at, "expected a literal value");
  if (!isLiteralToken(tok))
    return error(at, "unexpected token type in a literal");
  if (auto ft = dyn_cast<FloatType>(elt)) {
    auto v = parseFloatToken(tok, ft.getFloatSemantics(), err);
    if (!v)
      return error(at, err);
    floats.push_back(*v);
    return true;
  }
  auto it = cast<IntegerType>(elt);
  unsigned width = it.getWidth();
  if (width == 1 && it.isSignless()) {
    // pred: true/false, or an integer where nonzero is true (as XLA reads).
    APInt v;
    bool neg = tok.starts_with("-");
    if (tok == "true" || tok == "false")
      ints.push_back(APInt(1, tok == "true"));
    else if (!tok.drop_front(neg).getAsInteger(10, v))
      ints.push_back(APInt(1, !v.isZero()));
    else
      return error(at, "invalid pred literal '" + tok + "'");
    return true;
  }
  bool neg = tok.consume_front("-");
  APInt v;
  if (tok.getAsInteger(10, v))
    return error(at, "invalid integer literal '" + tok + "'");
  // `-0` is zero, which XLA takes for an unsigned type too.
  if (neg && it.isUnsigned() && !v.isZero())
    return error(at, "negative value for an unsigned type");
  bool fits;
  if (it.isUnsigned())
    fits = v.getActiveBits() <= width;
  else if (neg)
    fits = v.getActiveBits() < width ||
           (v.getActiveBits() == width && v.isPowerOf2());
  else
    fits = v.getActiveBits() < width;
  if (!fits)
    return error(at, "literal value " + tok + " does not fit in " +
                         std::to_string(width) + " bits");
  v = v.zextOrTrunc(width);
  if (neg)
    v.negate();
  ints.push_back(v);
  return true;
}

/// `type` with its bounded dynamic dimensions made static at their bounds:
/// XLA's parser gives a literal (and a constant) the static shape.
Type mlir::hlo::detail::withStaticBounds(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    SmallVector<Type> elts;
    for (Type t : tuple.getTypes())
      elts.push_back(withStaticBounds(t));
    return TupleType::get(type.getContext(), elts);
  }
  auto tensor = dyn_cast<RankedTensorType>(type);
  auto layout =
      tensor ? dyn_cast_or_null<LayoutAttr>(tensor.getEncoding()) : nullptr;
  if (!layout || layout.getBounds().empty())
    return type;
  SmallVector<int64_t> dims(tensor.getShape());
  for (auto [i, d] : llvm::enumerate(dims))
    if (layout.isBounded(i))
      d = layout.getBounds()[i];
  auto staticLayout =
      LayoutAttr::get(type.getContext(), layout.getHasMinorToMajor(),
                      layout.getMinorToMajor(), layout.getTileSizes(),
                      layout.getTileData(), layout.getElementSizeInBits(),
                      layout.getMemorySpace(), {}, layout.getExtra());
  bool plain = !staticLayout.getHasMinorToMajor() &&
               staticLayout.getTileSizes().empty() &&
               !staticLayout.getElementSizeInBits() &&
               !staticLayout.getMemorySpace() &&
               staticLayout.getExtra().getValue().empty();
  return RankedTensorType::get(dims, tensor.getElementType(),
                               plain ? Attribute() : staticLayout);
}

Attribute Importer::parseArrayLiteral(Cursor &cur, RankedTensorType type) {
  auto plain = RankedTensorType::get(type.getShape(), type.getElementType());
  SmallVector<APInt> ints;
  SmallVector<APFloat> floats;
  SmallVector<std::complex<APFloat>> complexes;
  Type elt = type.getElementType();
  int64_t rank = type.getRank();
  for (int64_t d : type.getShape())
    if (ShapedType::isDynamic(d)) {
      error(cur.getPos(), "literal of a dynamic shape");
      return {};
    }
  // Nested braces, one level per dimension; counts are checked at the end
  // of each level.
  std::function<bool(int64_t)> level = [&](int64_t dim) -> bool {
    if (dim == rank)
      return parseScalar(cur, elt, ints, floats, complexes);
    if (!cur.expect("{"))
      return error(cur.getErrorOffset(), cur.getError());
    // XLA's parser skips commas between the items of an array literal:
    // `{1 2}`, `{1,,2}` and `{1, 2,}` all read as `{1, 2}`.
    int64_t count = 0;
    while (true) {
      while (cur.consumeIf(","))
        ;
      if (cur.consumeIf("}"))
        break;
      if (cur.atEnd())
        return error(cur.getPos(), "expected '}'");
      if (!level(dim + 1))
        return false;
      ++count;
    }
    if (count != type.getDimSize(dim))
      return error(cur.getPos(), "literal has " + std::to_string(count) +
                                     " elements in dimension " +
                                     std::to_string(dim) + ", shape says " +
                                     std::to_string(type.getDimSize(dim)));
    return true;
  };
  if (!level(0))
    return {};
  if (isa<ComplexType>(elt))
    return DenseElementsAttr::get(plain, complexes);
  if (isa<FloatType>(elt))
    return DenseElementsAttr::get(plain, floats);
  if (elt.isInteger(1)) {
    SmallVector<bool> bools;
    for (const APInt &v : ints)
      bools.push_back(!v.isZero());
    return DenseElementsAttr::get(plain, bools);
  }
  return DenseElementsAttr::get(plain, ints);
}

Attribute Importer::parseLiteral(Cursor &cur, Type type) {
  cur.skipSpace();
  NestingGuard guard(*this, cur.getPos());
  if (!guard.ok)
    return {};
  // Elided (`{...}`): values unknown, and distinct from every other
  // literal. As in XLA's parser, only for arrays of rank 1 or more.
  auto rankedType = dyn_cast<RankedTensorType>(type);
  if (cur.rest().starts_with("{...}") && rankedType &&
      rankedType.getRank() > 0) {
    cur.setPos(cur.getPos() + 5);
    return DistinctAttr::create(b.getUnitAttr());
  }
  if (auto tuple = dyn_cast<TupleType>(type)) {
    if (!cur.expect("("))
      return error(cur.getErrorOffset(), "expected '(' of a tuple literal"),
             Attribute();
    SmallVector<Attribute> elts;
    for (size_t i = 0; i < tuple.size(); ++i) {
      // XLA's parser takes the comma between elements as optional.
      if (i)
        cur.consumeIf(",");
      // Tuple elements may repeat their shape: `( s32[4]{0} {...}, ... )`.
      if (cur.peek() != '(' && startsShapeAt(cur, ctx)) {
        Type ignored;
        if (!parseShape(cur, ignored))
          return {};
      }
      Attribute elt = parseLiteral(cur, tuple.getType(i));
      if (!elt)
        return {};
      elts.push_back(elt);
    }
    if (!cur.expect(")"))
      return error(cur.getErrorOffset(), cur.getError()), Attribute();
    return b.getArrayAttr(elts);
  }
  if (!rankedType) {
    error(cur.getPos(), "constant of a type without literals");
    return {};
  }
  return parseArrayLiteral(cur, rankedType);
}
