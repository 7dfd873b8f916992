//===- HloAttrs.cpp - hlo dialect attributes ------------------------------===//

#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloSyntax.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::hlo;
using syntax::Cursor;

#include "Hlo/Dialect/Hlo/HloEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "Hlo/Dialect/Hlo/HloAttrs.cpp.inc"

void HloDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Hlo/Dialect/Hlo/HloAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// LayoutAttr: #hlo.layout<[1, 0], tiles = [[8, 128]], element_size = 4,
//                         memory_space = 1, bounds = [?, 5], extra = "...">
//===----------------------------------------------------------------------===//

SmallVector<ArrayRef<int64_t>> LayoutAttr::getTiles() const {
  SmallVector<ArrayRef<int64_t>> tiles;
  ArrayRef<int64_t> data = getTileData();
  for (int64_t n : getTileSizes()) {
    tiles.push_back(data.take_front(n));
    data = data.drop_front(n);
  }
  return tiles;
}

/// A tile dimension of `*` (combined dimensions) in HLO's `T(2,*)`.
static constexpr int64_t kTileStar = std::numeric_limits<int64_t>::min();

static ParseResult parseBracketList(AsmParser &p, SmallVectorImpl<int64_t> &v,
                                    bool allowDynamic = false,
                                    bool allowStar = false) {
  return p.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
    if (allowDynamic && succeeded(p.parseOptionalQuestion())) {
      v.push_back(ShapedType::kDynamic);
      return success();
    }
    if (allowStar && succeeded(p.parseOptionalStar())) {
      v.push_back(kTileStar);
      return success();
    }
    int64_t x;
    if (p.parseInteger(x))
      return failure();
    v.push_back(x);
    return success();
  });
}

static void printBracketList(AsmPrinter &p, ArrayRef<int64_t> v,
                             bool star = false) {
  p << '[';
  llvm::interleaveComma(v, p, [&](int64_t x) {
    if (star && x == kTileStar)
      p << '*';
    else if (ShapedType::isDynamic(x))
      p << '?';
    else
      p << x;
  });
  p << ']';
}

Attribute LayoutAttr::parse(AsmParser &p, Type) {
  bool hasM2M = true;
  SmallVector<int64_t> m2m, tileSizes, tileData, bounds;
  int64_t elementSize = 0, memorySpace = 0;
  std::string extra;
  if (p.parseLess())
    return {};
  if (succeeded(p.parseOptionalKeyword("none")))
    hasM2M = false;
  else if (parseBracketList(p, m2m))
    return {};
  while (succeeded(p.parseOptionalComma())) {
    StringRef key;
    if (p.parseKeyword(&key) || p.parseEqual())
      return {};
    if (key == "tiles") {
      if (p.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
            size_t before = tileData.size();
            if (parseBracketList(p, tileData, false, /*allowStar=*/true))
              return failure();
            tileSizes.push_back(tileData.size() - before);
            return success();
          }))
        return {};
    } else if (key == "element_size") {
      if (p.parseInteger(elementSize))
        return {};
    } else if (key == "memory_space") {
      if (p.parseInteger(memorySpace))
        return {};
    } else if (key == "bounds") {
      if (parseBracketList(p, bounds, /*allowDynamic=*/true))
        return {};
    } else if (key == "extra") {
      if (p.parseString(&extra))
        return {};
    } else {
      p.emitError(p.getCurrentLocation(), "unknown layout field '")
          << key << "'";
      return {};
    }
  }
  if (p.parseGreater())
    return {};
  return LayoutAttr::get(p.getContext(), hasM2M, m2m, tileSizes, tileData,
                         elementSize, memorySpace, bounds,
                         StringAttr::get(p.getContext(), extra));
}

void LayoutAttr::print(AsmPrinter &p) const {
  p << '<';
  if (getHasMinorToMajor())
    printBracketList(p, getMinorToMajor());
  else
    p << "none";
  if (!getTileSizes().empty()) {
    p << ", tiles = [";
    llvm::interleaveComma(getTiles(), p,
                          [&](ArrayRef<int64_t> t) {
                            printBracketList(p, t, /*star=*/true);
                          });
    p << ']';
  }
  if (getElementSizeInBits())
    p << ", element_size = " << getElementSizeInBits();
  if (getMemorySpace())
    p << ", memory_space = " << getMemorySpace();
  if (!getBounds().empty()) {
    p << ", bounds = ";
    printBracketList(p, getBounds());
  }
  if (getExtra() && !getExtra().getValue().empty()) {
    p << ", extra = \"";
    llvm::printEscapedString(getExtra().getValue(), p.getStream());
    p << '"';
  }
  p << '>';
}

//===----------------------------------------------------------------------===//
// Attributes printed as their HLO spelling: #hlo.window<"{size=3x3}">.
//===----------------------------------------------------------------------===//

template <typename AttrT>
static Attribute parseSyntaxAttr(AsmParser &p) {
  std::string text;
  SMLoc loc = p.getCurrentLocation();
  if (p.parseLess() || p.parseString(&text) || p.parseGreater())
    return {};
  return AttrT::parseHlo(p.getContext(), text,
                         [&]() { return p.emitError(loc); });
}

template <typename AttrT>
static void printSyntaxAttr(AsmPrinter &p, AttrT attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.printHlo(os);
  p << "<\"";
  llvm::printEscapedString(text, p.getStream());
  p << "\">";
}

/// Runs `fn` over the whole text and reports the cursor's error, if any.
static bool finish(Cursor &c, function_ref<InFlightDiagnostic()> emitError) {
  if (!c.failed() && !c.atEnd())
    c.error("unexpected trailing characters '" + c.rest().take_front(20) + "'");
  if (c.failed()) {
    emitError() << c.getError() << " at offset " << c.getErrorOffset()
                << " of '" << c.getText() << "'";
    return false;
  }
  return true;
}

#define HLO_SYNTAX_ATTR_ASM(AttrT)                                             \
  Attribute AttrT::parse(AsmParser &p, Type) {                                 \
    return parseSyntaxAttr<AttrT>(p);                                          \
  }                                                                            \
  void AttrT::print(AsmPrinter &p) const { printSyntaxAttr(p, *this); }

HLO_SYNTAX_ATTR_ASM(WindowAttr)
HLO_SYNTAX_ATTR_ASM(ConvDimensionNumbersAttr)
HLO_SYNTAX_ATTR_ASM(SliceAttr)
HLO_SYNTAX_ATTR_ASM(PaddingAttr)
HLO_SYNTAX_ATTR_ASM(ReplicaGroupsAttr)
HLO_SYNTAX_ATTR_ASM(ShardingAttr)

//===----------------------------------------------------------------------===//
// window={size=3x3 stride=2x2 pad=0_1x0_1 lhs_dilate=.. rhs_dilate=..
//         rhs_reversal=0x1}
//===----------------------------------------------------------------------===//

Attribute WindowAttr::parseHlo(MLIRContext *ctx, StringRef text,
                               function_ref<InFlightDiagnostic()> emitError) {
  Cursor c(text);
  SmallVector<int64_t> size, stride, lo, hi, lhsDil, rhsDil, rev;
  if (c.expect("{")) {
    while (!c.failed() && !c.consumeIf("}")) {
      StringRef key;
      if (!c.parseAttrName(key))
        break;
      if (key == "size") {
        c.parseJoinedInts(size);
      } else if (key == "stride") {
        c.parseJoinedInts(stride);
      } else if (key == "lhs_dilate") {
        c.parseJoinedInts(lhsDil);
      } else if (key == "rhs_dilate") {
        c.parseJoinedInts(rhsDil);
      } else if (key == "rhs_reversal") {
        c.parseJoinedInts(rev);
      } else if (key == "pad") {
        do {
          int64_t l, h;
          if (!c.parseInt(l) || !c.expect("_") || !c.parseInt(h))
            break;
          lo.push_back(l);
          hi.push_back(h);
        } while (c.consumeIf("x"));
      } else {
        c.error("unknown window field '" + key + "'");
      }
      if (c.atEnd() && !c.failed())
        c.error("expected '}'");
    }
  }
  if (!finish(c, emitError))
    return {};
  size_t rank = size.size();
  for (auto *v : {&stride, &lo, &hi, &lhsDil, &rhsDil, &rev}) {
    if (!v->empty() && v->size() != rank) {
      emitError() << "window field has " << v->size()
                  << " entries but size has " << rank;
      return {};
    }
  }
  return WindowAttr::get(ctx, size, stride, lo, hi, lhsDil, rhsDil, rev);
}

void WindowAttr::printHlo(raw_ostream &os) const {
  auto allEqual = [](ArrayRef<int64_t> v, int64_t x) {
    return llvm::all_of(v, [&](int64_t e) { return e == x; });
  };
  os << '{';
  bool first = true;
  auto field = [&](StringRef name, ArrayRef<int64_t> v, int64_t dflt) {
    if (v.empty() || allEqual(v, dflt))
      return;
    os << (first ? "" : " ") << name << '=';
    syntax::printJoined(os, v, "x");
    first = false;
  };
  if (!getSize().empty()) {
    os << "size=";
    syntax::printJoined(os, getSize(), "x");
    first = false;
  }
  field("stride", getStride(), 1);
  if (!getPadLow().empty() &&
      !(allEqual(getPadLow(), 0) && allEqual(getPadHigh(), 0))) {
    os << (first ? "" : " ") << "pad=";
    for (size_t i = 0, e = getPadLow().size(); i < e; ++i)
      os << (i ? "x" : "") << getPadLow()[i] << '_' << getPadHigh()[i];
    first = false;
  }
  field("lhs_dilate", getLhsDilate(), 1);
  field("rhs_dilate", getRhsDilate(), 1);
  field("rhs_reversal", getReversal(), 0);
  os << '}';
}

//===----------------------------------------------------------------------===//
// dim_labels=b01f_01io->b01f
//===----------------------------------------------------------------------===//

namespace {
struct Labels {
  int64_t a = -1, b = -1;
  SmallVector<int64_t> spatial;
};
} // namespace

static bool parseLabels(StringRef s, char ca, char cb, Labels &out,
                        std::string &err) {
  SmallVector<int64_t> spatial(s.size(), -1);
  size_t numSpatial = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char ch = s[i];
    if (ch == ca && out.a < 0) {
      out.a = i;
    } else if (ch == cb && out.b < 0) {
      out.b = i;
    } else if (llvm::isDigit(ch) && size_t(ch - '0') < s.size() &&
               spatial[ch - '0'] < 0) {
      spatial[ch - '0'] = i;
      ++numSpatial;
    } else {
      err = (Twine("unexpected '") + Twine(ch) + "' in dimension labels '" +
             s + "'")
                .str();
      return false;
    }
  }
  if (out.a < 0 || out.b < 0) {
    err = (Twine("dimension labels '") + s + "' need '" + Twine(ca) +
           "' and '" + Twine(cb) + "'")
              .str();
    return false;
  }
  for (size_t i = 0; i < numSpatial; ++i) {
    if (spatial[i] < 0) {
      err = (Twine("spatial dimensions of '") + s + "' are not 0..n-1").str();
      return false;
    }
    out.spatial.push_back(spatial[i]);
  }
  return true;
}

Attribute
ConvDimensionNumbersAttr::parseHlo(MLIRContext *ctx, StringRef text,
                                   function_ref<InFlightDiagnostic()> emitError) {
  text = text.trim();
  auto [lhsKernel, out] = text.split("->");
  auto [lhs, kernel] = lhsKernel.split('_');
  Labels in, k, o;
  std::string err;
  if (lhs.empty() || kernel.empty() || out.empty()) {
    emitError() << "expected dim_labels like 'b01f_01io->b01f', got '" << text
                << "'";
    return {};
  }
  if (!parseLabels(lhs, 'b', 'f', in, err) ||
      !parseLabels(kernel, 'i', 'o', k, err) ||
      !parseLabels(out, 'b', 'f', o, err)) {
    emitError() << err;
    return {};
  }
  if (in.spatial.size() != k.spatial.size() ||
      in.spatial.size() != o.spatial.size()) {
    emitError() << "dim_labels '" << text
                << "' have different spatial ranks for input, kernel, output";
    return {};
  }
  return ConvDimensionNumbersAttr::get(ctx, in.a, in.b, in.spatial, k.a, k.b,
                                       k.spatial, o.a, o.b, o.spatial);
}

static void printLabels(raw_ostream &os, int64_t a, char ca, int64_t b,
                        char cb, ArrayRef<int64_t> spatial) {
  std::string s(2 + spatial.size(), '?');
  s[a] = ca;
  s[b] = cb;
  for (size_t i = 0; i < spatial.size(); ++i)
    s[spatial[i]] = char('0' + i);
  os << s;
}

void ConvDimensionNumbersAttr::printHlo(raw_ostream &os) const {
  printLabels(os, getInputBatch(), 'b', getInputFeature(), 'f',
              getInputSpatial());
  os << '_';
  printLabels(os, getKernelInput(), 'i', getKernelOutput(), 'o',
              getKernelSpatial());
  os << "->";
  printLabels(os, getOutputBatch(), 'b', getOutputFeature(), 'f',
              getOutputSpatial());
}

//===----------------------------------------------------------------------===//
// slice={[0:2], [1:9:2]}
//===----------------------------------------------------------------------===//

Attribute SliceAttr::parseHlo(MLIRContext *ctx, StringRef text,
                              function_ref<InFlightDiagnostic()> emitError) {
  Cursor c(text);
  SmallVector<int64_t> starts, limits, strides;
  if (c.expect("{") && !c.consumeIf("}")) {
    do {
      int64_t s, l, st = 1;
      if (!c.expect("[") || !c.parseInt(s) || !c.expect(":") ||
          !c.parseInt(l))
        break;
      if (c.consumeIf(":") && !c.parseInt(st))
        break;
      if (!c.expect("]"))
        break;
      starts.push_back(s);
      limits.push_back(l);
      strides.push_back(st);
    } while (c.consumeIf(","));
    c.expect("}");
  }
  if (!finish(c, emitError))
    return {};
  return SliceAttr::get(ctx, starts, limits, strides);
}

void SliceAttr::printHlo(raw_ostream &os) const {
  os << '{';
  for (size_t i = 0, e = getStarts().size(); i < e; ++i) {
    os << (i ? ", " : "") << '[' << getStarts()[i] << ':' << getLimits()[i];
    if (getStrides()[i] != 1)
      os << ':' << getStrides()[i];
    os << ']';
  }
  os << '}';
}

//===----------------------------------------------------------------------===//
// padding=0_0x1_2_1
//===----------------------------------------------------------------------===//

Attribute PaddingAttr::parseHlo(MLIRContext *ctx, StringRef text,
                                function_ref<InFlightDiagnostic()> emitError) {
  Cursor c(text);
  SmallVector<int64_t> lo, hi, in;
  if (!c.atEnd()) {
    do {
      int64_t l, h, i = 0;
      if (!c.parseInt(l) || !c.expect("_") || !c.parseInt(h))
        break;
      if (c.consumeIf("_") && !c.parseInt(i))
        break;
      lo.push_back(l);
      hi.push_back(h);
      in.push_back(i);
    } while (c.consumeIf("x"));
  }
  if (!finish(c, emitError))
    return {};
  return PaddingAttr::get(ctx, lo, hi, in);
}

void PaddingAttr::printHlo(raw_ostream &os) const {
  for (size_t i = 0, e = getLow().size(); i < e; ++i) {
    os << (i ? "x" : "") << getLow()[i] << '_' << getHigh()[i];
    if (getInterior()[i])
      os << '_' << getInterior()[i];
  }
}

//===----------------------------------------------------------------------===//
// replica_groups={{0,1},{2,3}}, [2,4]<=[4,2]T(1,0) or
// mesh['x'=2,'y'=2], device_ids=(3,1,0,2) {'y','x':(1)2}
//===----------------------------------------------------------------------===//

/// The product of positive `dims`, if it stays at most 2^24 (so that the
/// groups can be expanded).
static std::optional<int64_t> deviceProduct(ArrayRef<int64_t> dims) {
  constexpr int64_t kMaxDevices = int64_t(1) << 24;
  int64_t n = 1;
  for (int64_t d : dims)
    if (d <= 0 || llvm::MulOverflow(n, d, n) || n > kMaxDevices)
      return std::nullopt;
  return n;
}

/// True when `perm` is empty or a permutation of 0..rank-1.
static bool isPermutationOrEmpty(ArrayRef<int64_t> perm, size_t rank) {
  if (perm.empty())
    return true;
  SmallVector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= int64_t(rank) || seen[p])
      return false;
    seen[p] = true;
  }
  return perm.size() == rank;
}

/// A mesh axis name in single quotes: `'axis_0'`.
static bool parseAxisName(Cursor &c, StringRef &name) {
  if (!c.expect("'"))
    return false;
  StringRef rest = c.rest();
  size_t end = rest.find('\'');
  if (end == StringRef::npos || end == 0)
    return c.error("expected a quoted mesh axis name");
  name = rest.take_front(end);
  c.setPos(c.getPos() + end + 1);
  return true;
}

namespace {
/// The mesh-axes form of replica groups while it is parsed.
struct MeshGroups {
  SmallVector<StringAttr> names;
  SmallVector<int64_t> sizes, deviceIds, deviceReshape, devicePerm;
  SmallVector<int64_t> axisIndex, axisPreSize, axisSize;
};
} // namespace

/// `mesh[...]{...}` after `mesh`; checks the structure (an error names it).
static bool parseMeshGroups(Cursor &c, MLIRContext *ctx, MeshGroups &m) {
  if (!c.expect("["))
    return false;
  do {
    StringRef name;
    int64_t size;
    if (!parseAxisName(c, name) || !c.expect("=") || !c.parseInt(size))
      return false;
    m.names.push_back(StringAttr::get(ctx, name));
    m.sizes.push_back(size);
  } while (c.consumeIf(","));
  if (!c.expect("]"))
    return false;
  if (c.consumeIf(",")) {
    if (!c.expect("device_ids") || !c.expect("=") || !c.expect("("))
      return false;
    if (c.peek() == '[') {
      if (!c.parseIntList(m.deviceReshape, '[', ']') ||
          (c.consumeIf("T") && !c.parseIntList(m.devicePerm, '(', ')')))
        return false;
    } else {
      do {
        int64_t id;
        if (!c.parseInt(id))
          return false;
        m.deviceIds.push_back(id);
      } while (c.consumeIf(","));
    }
    if (!c.expect(")"))
      return false;
  }
  if (!c.expect("{"))
    return false;
  do {
    StringRef name;
    if (!parseAxisName(c, name))
      return false;
    auto it = llvm::find_if(m.names,
                            [&](StringAttr n) { return n.getValue() == name; });
    if (it == m.names.end())
      return c.error("'" + name + "' is not an axis of the mesh");
    int64_t pre = 0, size = 0;
    if (c.consumeIf(":") && (!c.expect("(") || !c.parseInt(pre) ||
                             !c.expect(")") || !c.parseInt(size)))
      return false;
    m.axisIndex.push_back(it - m.names.begin());
    m.axisPreSize.push_back(pre);
    m.axisSize.push_back(size);
  } while (c.consumeIf(","));
  return c.expect("}");
}

/// Checks a parsed mesh form; returns the reason it is malformed.
static std::optional<std::string> checkMeshGroups(const MeshGroups &m) {
  std::optional<int64_t> n = deviceProduct(m.sizes);
  if (!n)
    return "mesh axis sizes must be positive (at most 2^24 devices)";
  for (size_t i = 0; i < m.names.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (m.names[i] == m.names[j])
        return "mesh axis '" + m.names[i].str() + "' is named twice";
  if (!m.deviceIds.empty()) {
    SmallVector<int64_t> sorted(m.deviceIds);
    llvm::sort(sorted);
    for (int64_t i = 0; i < int64_t(sorted.size()); ++i)
      if (sorted[i] != i || int64_t(sorted.size()) != *n)
        return "device_ids must be a permutation of the mesh's " +
               std::to_string(*n) + " devices";
  }
  if (!m.deviceReshape.empty() &&
      (deviceProduct(m.deviceReshape) != n ||
       !isPermutationOrEmpty(m.devicePerm, m.deviceReshape.size())))
    return "device_ids=([dims]T(perm)) needs dimensions of the mesh's "
           "device count and a permutation";
  // Per axis, the (pre-size, size) pieces the groups vary along; they must
  // divide the axis and not overlap.
  for (size_t a = 0; a < m.sizes.size(); ++a) {
    SmallVector<std::pair<int64_t, int64_t>> pieces;
    for (size_t i = 0; i < m.axisIndex.size(); ++i) {
      if (m.axisIndex[i] != int64_t(a))
        continue;
      int64_t pre = m.axisPreSize[i], size = m.axisSize[i];
      if (pre == 0 && size == 0)
        pre = 1, size = m.sizes[a];
      if (pre <= 0 || size <= 0 || m.sizes[a] % pre ||
          (m.sizes[a] / pre) % size)
        return "sub-axis (" + std::to_string(pre) + ")" + std::to_string(size) +
               " does not divide axis '" + m.names[a].str() + "' of size " +
               std::to_string(m.sizes[a]);
      pieces.push_back({pre, size});
    }
    llvm::sort(pieces);
    for (size_t i = 1; i < pieces.size(); ++i)
      if (pieces[i].first % (pieces[i - 1].first * pieces[i - 1].second))
        return "the listed parts of axis '" + m.names[a].str() + "' overlap";
  }
  return std::nullopt;
}

Attribute
ReplicaGroupsAttr::parseHlo(MLIRContext *ctx, StringRef text,
                            function_ref<InFlightDiagnostic()> emitError) {
  Cursor c(text);
  SmallVector<int64_t> sizes, ids, shape, reshape, perm;
  MeshGroups mesh;
  bool iota = c.peek() == '[';
  bool isMesh = !iota && c.consumeIf("mesh");
  if (isMesh) {
    parseMeshGroups(c, ctx, mesh);
  } else if (iota) {
    if (c.parseIntList(shape, '[', ']') && c.expect("<=") &&
        c.parseIntList(reshape, '[', ']') && c.consumeIf("T"))
      c.parseIntList(perm, '(', ')');
  } else if (c.expect("{") && !c.consumeIf("}")) {
    do {
      size_t before = ids.size();
      if (!c.parseIntList(ids))
        break;
      sizes.push_back(ids.size() - before);
    } while (c.consumeIf(","));
    c.expect("}");
  }
  if (!finish(c, emitError))
    return {};
  if (isMesh) {
    if (std::optional<std::string> bad = checkMeshGroups(mesh)) {
      emitError() << "malformed mesh replica groups '" << text << "': " << *bad;
      return {};
    }
    return ReplicaGroupsAttr::get(
        ctx, false, {}, {}, {}, {}, {}, mesh.names, mesh.sizes, mesh.deviceIds,
        mesh.deviceReshape, mesh.devicePerm, mesh.axisIndex, mesh.axisPreSize,
        mesh.axisSize);
  }
  // The iota ids are 0..N-1 for N = product of either list; keep N sane so
  // that expanding the groups stays possible.
  if (iota && (shape.size() != 2 || !deviceProduct(shape) ||
               deviceProduct(shape) != deviceProduct(reshape) ||
               !isPermutationOrEmpty(perm, reshape.size()))) {
    emitError() << "malformed iota replica groups '" << text
                << "': [groups,size]<=[dims] needs positive sizes with "
                   "equal products (at most 2^24) and a permutation";
    return {};
  }
  return ReplicaGroupsAttr::get(ctx, iota, sizes, ids, shape, reshape, perm);
}

void ReplicaGroupsAttr::printHlo(raw_ostream &os) const {
  if (isMesh()) {
    os << "mesh[";
    for (auto [i, name] : llvm::enumerate(getMeshAxisNames()))
      os << (i ? "," : "") << '\'' << name.getValue()
         << "'=" << getMeshAxisSizes()[i];
    os << ']';
    if (!getMeshDeviceIds().empty()) {
      os << ", device_ids=(";
      syntax::printJoined(os, getMeshDeviceIds(), ",");
      os << ')';
    } else if (!getMeshDeviceReshape().empty()) {
      os << ", device_ids=([";
      syntax::printJoined(os, getMeshDeviceReshape(), ",");
      os << ']';
      if (!getMeshDevicePerm().empty()) {
        os << "T(";
        syntax::printJoined(os, getMeshDevicePerm(), ",");
        os << ')';
      }
      os << ')';
    }
    os << " {";
    for (auto [i, axis] : llvm::enumerate(getMeshAxisIndex())) {
      os << (i ? "," : "") << '\'' << getMeshAxisNames()[axis].getValue()
         << '\'';
      if (getMeshAxisSize()[i])
        os << ":(" << getMeshAxisPreSize()[i] << ')' << getMeshAxisSize()[i];
    }
    os << '}';
    return;
  }
  if (getIsIota()) {
    os << '[';
    syntax::printJoined(os, getIotaShape(), ",");
    os << "]<=[";
    syntax::printJoined(os, getIotaReshape(), ",");
    os << ']';
    if (!getIotaPerm().empty()) {
      os << "T(";
      syntax::printJoined(os, getIotaPerm(), ",");
      os << ')';
    }
    return;
  }
  os << '{';
  ArrayRef<int64_t> ids = getIds();
  for (size_t g = 0, e = getGroupSizes().size(); g < e; ++g) {
    os << (g ? "," : "") << '{';
    syntax::printJoined(os, ids.take_front(getGroupSizes()[g]), ",");
    ids = ids.drop_front(getGroupSizes()[g]);
    os << '}';
  }
  os << '}';
}

/// The groups of the mesh-axes form: each device's mesh coordinates split
/// into the listed (sub-)axes, which give its place in its group, and the
/// rest, which names the group.
static SmallVector<SmallVector<int64_t>> meshGroups(ReplicaGroupsAttr attr) {
  ArrayRef<int64_t> axes = attr.getMeshAxisSizes();
  int64_t n = 1;
  for (int64_t s : axes)
    n *= s;
  SmallVector<int64_t> devices;
  if (!attr.getMeshDeviceIds().empty())
    devices.assign(attr.getMeshDeviceIds().begin(),
                   attr.getMeshDeviceIds().end());
  else if (!attr.getMeshDeviceReshape().empty())
    devices =
        expandIotaIds(attr.getMeshDeviceReshape(), attr.getMeshDevicePerm());
  else
    devices = llvm::to_vector(llvm::seq<int64_t>(0, n));
  // (group key, place in the group, device) per mesh position.
  SmallVector<std::tuple<int64_t, int64_t, int64_t>> entries;
  int64_t groupSize = 1;
  for (auto [i, axis] : llvm::enumerate(attr.getMeshAxisIndex()))
    groupSize *=
        attr.getMeshAxisSize()[i] ? attr.getMeshAxisSize()[i] : axes[axis];
  SmallVector<int64_t> coords(axes.size());
  for (int64_t m = 0; m < n; ++m) {
    for (int64_t a = axes.size() - 1, rest = m; a >= 0; --a) {
      coords[a] = rest % axes[a];
      rest /= axes[a];
    }
    SmallVector<int64_t> remaining(coords);
    int64_t place = 0;
    for (auto [i, axis] : llvm::enumerate(attr.getMeshAxisIndex())) {
      int64_t pre = attr.getMeshAxisPreSize()[i],
              size = attr.getMeshAxisSize()[i];
      if (!size)
        pre = 1, size = axes[axis];
      int64_t stride = axes[axis] / (pre * size);
      int64_t digit = coords[axis] / stride % size;
      place = place * size + digit;
      remaining[axis] -= digit * stride;
    }
    int64_t key = 0;
    for (size_t a = 0; a < axes.size(); ++a)
      key = key * axes[a] + remaining[a];
    entries.push_back({key, place, devices[m]});
  }
  llvm::sort(entries);
  SmallVector<SmallVector<int64_t>> groups;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i % groupSize == 0)
      groups.emplace_back();
    groups.back().push_back(std::get<2>(entries[i]));
  }
  return groups;
}

SmallVector<SmallVector<int64_t>> ReplicaGroupsAttr::getGroups() const {
  SmallVector<SmallVector<int64_t>> groups;
  if (isMesh())
    return meshGroups(*this);
  if (!getIsIota()) {
    ArrayRef<int64_t> ids = getIds();
    for (int64_t n : getGroupSizes()) {
      groups.emplace_back(ids.take_front(n));
      ids = ids.drop_front(n);
    }
    return groups;
  }
  // Iota: the ids 0..N-1 reshaped to iotaReshape, transposed by iotaPerm,
  // then read row-major as [numGroups, groupSize].
  SmallVector<int64_t> flat = expandIotaIds(getIotaReshape(), getIotaPerm());
  int64_t groupSize = getIotaShape()[1];
  for (int64_t g = 0; g < getIotaShape()[0]; ++g)
    groups.emplace_back(ArrayRef<int64_t>(flat).slice(g * groupSize, groupSize));
  return groups;
}

//===----------------------------------------------------------------------===//
// Aliasing entries:
//   #hlo.output_operand_alias<output_index = [1], operand = 0,
//                             operand_index = []>
//   #hlo.input_output_alias<output_index = [0], parameter = 1,
//                           parameter_index = [], kind = may-alias>
//   #hlo.buffer_donor<parameter = 1, parameter_index = []>
//===----------------------------------------------------------------------===//

/// `key = [i, ...]`, preceded by a comma unless `first`.
static ParseResult parseKeyedList(AsmParser &p, StringRef key,
                                  SmallVectorImpl<int64_t> &v,
                                  bool first = false) {
  if ((!first && p.parseComma()) || p.parseKeyword(key) || p.parseEqual())
    return failure();
  return parseBracketList(p, v);
}

static ParseResult parseKeyedInt(AsmParser &p, StringRef key, int64_t &v,
                                 bool first = false) {
  if ((!first && p.parseComma()) || p.parseKeyword(key) || p.parseEqual())
    return failure();
  return p.parseInteger(v);
}

static LogicalResult verifyIndex(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef what, ArrayRef<int64_t> index) {
  for (int64_t i : index)
    if (i < 0)
      return emitError() << what << " {" << index
                         << "} has a negative tuple index";
  return success();
}

Attribute OutputOperandAliasAttr::parse(AsmParser &p, Type) {
  SmallVector<int64_t> out, operandIndex;
  int64_t operand;
  SMLoc loc = p.getCurrentLocation();
  if (p.parseLess() || parseKeyedList(p, "output_index", out, true) ||
      parseKeyedInt(p, "operand", operand) ||
      parseKeyedList(p, "operand_index", operandIndex) || p.parseGreater())
    return {};
  return getChecked([&]() { return p.emitError(loc); }, p.getContext(), out,
                    operand, operandIndex);
}

void OutputOperandAliasAttr::print(AsmPrinter &p) const {
  p << "<output_index = ";
  printBracketList(p, getOutputIndex());
  p << ", operand = " << getOperand() << ", operand_index = ";
  printBracketList(p, getOperandIndex());
  p << '>';
}

//===----------------------------------------------------------------------===//
// TextAttr
//===----------------------------------------------------------------------===//

LogicalResult TextAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               StringRef value) {
  Cursor cur(value);
  StringRef raw;
  if (!cur.parseRawValue(raw))
    return emitError() << "#hlo.text is not one HLO attribute value: "
                       << cur.getError() << " at offset "
                       << cur.getErrorOffset();
  if (!cur.atEnd())
    return emitError() << "#hlo.text is not one HLO attribute value: "
                          "unexpected text at offset "
                       << cur.getPos();
  return success();
}

LogicalResult
OutputOperandAliasAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> outputIndex, int64_t operand,
                               ArrayRef<int64_t> operandIndex) {
  if (operand < 0)
    return emitError() << "aliased operand " << operand << " is negative";
  if (failed(verifyIndex(emitError, "output index", outputIndex)))
    return failure();
  return verifyIndex(emitError, "operand index", operandIndex);
}

Attribute InputOutputAliasAttr::parse(AsmParser &p, Type) {
  SmallVector<int64_t> out, paramIndex;
  int64_t param;
  std::optional<AliasKind> kind;
  SMLoc loc = p.getCurrentLocation();
  if (p.parseLess() || parseKeyedList(p, "output_index", out, true) ||
      parseKeyedInt(p, "parameter", param) ||
      parseKeyedList(p, "parameter_index", paramIndex))
    return {};
  if (succeeded(p.parseOptionalComma())) {
    std::string word;
    SMLoc kindLoc = p.getCurrentLocation();
    if (p.parseKeyword("kind") || p.parseEqual() ||
        p.parseKeywordOrString(&word))
      return {};
    kind = symbolizeAliasKind(word);
    if (!kind) {
      p.emitError(kindLoc, "expected may-alias or must-alias");
      return {};
    }
  }
  if (p.parseGreater())
    return {};
  return getChecked([&]() { return p.emitError(loc); }, p.getContext(), out,
                    param, paramIndex, kind);
}

void InputOutputAliasAttr::print(AsmPrinter &p) const {
  p << "<output_index = ";
  printBracketList(p, getOutputIndex());
  p << ", parameter = " << getParameter() << ", parameter_index = ";
  printBracketList(p, getParameterIndex());
  if (getKind()) {
    p << ", kind = ";
    p.printKeywordOrString(stringifyAliasKind(*getKind()));
  }
  p << '>';
}

LogicalResult
InputOutputAliasAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                             ArrayRef<int64_t> outputIndex, int64_t parameter,
                             ArrayRef<int64_t> parameterIndex,
                             std::optional<AliasKind>) {
  if (parameter < 0)
    return emitError() << "aliased parameter " << parameter << " is negative";
  if (failed(verifyIndex(emitError, "output index", outputIndex)))
    return failure();
  return verifyIndex(emitError, "parameter index", parameterIndex);
}

Attribute BufferDonorAttr::parse(AsmParser &p, Type) {
  SmallVector<int64_t> paramIndex;
  int64_t param;
  SMLoc loc = p.getCurrentLocation();
  if (p.parseLess() || parseKeyedInt(p, "parameter", param, true) ||
      parseKeyedList(p, "parameter_index", paramIndex) || p.parseGreater())
    return {};
  return getChecked([&]() { return p.emitError(loc); }, p.getContext(), param,
                    paramIndex);
}

void BufferDonorAttr::print(AsmPrinter &p) const {
  p << "<parameter = " << getParameter() << ", parameter_index = ";
  printBracketList(p, getParameterIndex());
  p << '>';
}

LogicalResult
BufferDonorAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        int64_t parameter, ArrayRef<int64_t> parameterIndex) {
  if (parameter < 0)
    return emitError() << "donated parameter " << parameter << " is negative";
  return verifyIndex(emitError, "parameter index", parameterIndex);
}

//===----------------------------------------------------------------------===//
// #hlo.buffer_allocation<...>, #hlo.buffer_slice<...>
//===----------------------------------------------------------------------===//

LogicalResult
BufferAllocationAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                             int64_t index, int64_t size,
                             BufferAllocationKind kind,
                             std::optional<int64_t> parameter,
                             ArrayRef<int64_t> parameterIndex, bool) {
  if (index < 0 || size < 0)
    return emitError() << "buffer allocation index and size must not be "
                          "negative";
  bool isParameter = kind == BufferAllocationKind::Parameter;
  if (isParameter != parameter.has_value())
    return emitError() << "a buffer allocation names a parameter exactly when "
                          "its kind is parameter";
  if (parameter && *parameter < 0)
    return emitError() << "buffer allocation parameter " << *parameter
                       << " is negative";
  return verifyIndex(emitError, "parameter index", parameterIndex);
}

LogicalResult
BufferSliceAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        int64_t allocation, int64_t offset, int64_t size) {
  if (allocation < 0 || offset < 0 || size < 0)
    return emitError() << "buffer slice allocation, offset and size must not "
                          "be negative";
  return success();
}

//===----------------------------------------------------------------------===//
// #hlo.indexing_map<"(d0) -> (d0), domain: d0 in [0, 9]">
//===----------------------------------------------------------------------===//

Attribute IndexingMapAttr::parse(AsmParser &p, Type) {
  std::string text;
  SMLoc loc = p.getCurrentLocation();
  if (p.parseLess() || p.parseString(&text) || p.parseGreater())
    return {};
  std::optional<IndexingMap> map = parseIndexingMap(text, p.getContext());
  if (!map) {
    p.emitError(loc) << "invalid indexing map '" << text
                     << "': expected '<affine map>, domain: <variable> in "
                        "[<lower>, <upper>], ...'";
    return {};
  }
  std::string reason;
  llvm::raw_string_ostream os(reason);
  if (!map->verify(os)) {
    p.emitError(loc) << "invalid indexing map '" << text << "': " << reason;
    return {};
  }
  return IndexingMapAttr::get(p.getContext(), *map);
}

void IndexingMapAttr::print(AsmPrinter &p) const {
  p << "<\"";
  llvm::printEscapedString(getText(), p.getStream());
  p << "\">";
}

IndexingMap IndexingMapAttr::getMap() const {
  // The text was produced by IndexingMap::toOneLineString: it parses.
  return *parseIndexingMap(getText(), getContext());
}

//===----------------------------------------------------------------------===//
// LayoutAttr as a tensor encoding
//===----------------------------------------------------------------------===//

LogicalResult
LayoutAttr::verifyEncoding(ArrayRef<int64_t> shape, Type elementType,
                           function_ref<InFlightDiagnostic()> emitError) const {
  int64_t rank = shape.size();
  if (getHasMinorToMajor()) {
    ArrayRef<int64_t> m2m = getMinorToMajor();
    if (int64_t(m2m.size()) != rank)
      return emitError() << "layout lists " << m2m.size()
                         << " dimensions for a tensor of rank " << rank;
    SmallVector<bool> seen(rank, false);
    for (int64_t d : m2m) {
      if (d < 0 || d >= rank || seen[d])
        return emitError() << "layout [" << m2m
                           << "] is not a permutation of the dimensions";
      seen[d] = true;
    }
  } else if (!getMinorToMajor().empty()) {
    return emitError() << "a layout without minor_to_major lists dimensions";
  }
  ArrayRef<int64_t> bounds = getBounds();
  if (!bounds.empty()) {
    if (int64_t(bounds.size()) != rank)
      return emitError() << "layout has " << bounds.size()
                         << " bounds for a tensor of rank " << rank;
    for (auto [d, bound] : llvm::enumerate(bounds)) {
      if (ShapedType::isDynamic(bound))
        continue;
      if (!ShapedType::isDynamic(shape[d]))
        return emitError() << "dimension " << d
                           << " has a bound but a static size";
      if (bound < 0)
        return emitError() << "bound " << bound << " of dimension " << d
                           << " is negative";
    }
  }
  int64_t tiled = 0;
  for (int64_t n : getTileSizes()) {
    if (n < 0)
      return emitError() << "a tile of negative rank";
    tiled += n;
  }
  if (tiled != int64_t(getTileData().size()))
    return emitError() << "tile sizes do not add up to the tile data";
  if (getElementSizeInBits() < 0 || getMemorySpace() < 0)
    return emitError() << "element size and memory space are non-negative";
  return success();
}

SmallVector<int64_t> mlir::hlo::getMinorToMajor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return {};
  if (auto layout = dyn_cast_or_null<LayoutAttr>(tensor.getEncoding()))
    if (layout.getHasMinorToMajor() &&
        static_cast<int64_t>(layout.getMinorToMajor().size()) ==
            tensor.getRank())
      return SmallVector<int64_t>(layout.getMinorToMajor());
  SmallVector<int64_t> order;
  for (int64_t d = tensor.getRank() - 1; d >= 0; --d)
    order.push_back(d);
  return order;
}

SmallVector<int64_t> mlir::hlo::getPhysicalStrides(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  SmallVector<int64_t> strides(tensor.getRank(), 0);
  int64_t stride = 1;
  for (int64_t d : getMinorToMajor(type)) {
    strides[d] = stride;
    stride *= tensor.getDimSize(d);
  }
  return strides;
}

bool mlir::hlo::hasRowMajorStrides(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  SmallVector<int64_t> strides = getPhysicalStrides(type);
  int64_t stride = 1;
  for (int64_t d = tensor.getRank() - 1; d >= 0; --d) {
    if (strides[d] != stride)
      return false;
    stride *= tensor.getDimSize(d);
  }
  return true;
}
