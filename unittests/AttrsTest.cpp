//===- AttrsTest.cpp - hlo attributes and their HLO spellings -------------===//
//
// parseHlo/printHlo of the attributes whose MLIR form is their HLO spelling
// (window, dim_labels, slice, padding, replica_groups, sharding): accepted
// forms, the typed parameters they produce, print/parse fixed points and the
// errors reported for malformed text. Also LayoutAttr::getTiles,
// ReplicaGroupsAttr::getGroups (checked against an independent expansion of
// the iota form), the sharding accessors (iota device lists, tile counts)
// and the typed backend_config (JSON reading, printing, accessors).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::hlo;

namespace {

using Ints = std::vector<int64_t>;
using Groups = std::vector<std::vector<int64_t>>;

Ints vec(ArrayRef<int64_t> v) { return Ints(v.begin(), v.end()); }

template <typename AttrT> std::string printHlo(AttrT attr) {
  std::string s;
  llvm::raw_string_ostream os(s);
  attr.printHlo(os);
  return s;
}

std::string printMlir(Attribute attr) {
  std::string s;
  llvm::raw_string_ostream os(s);
  attr.print(os);
  return s;
}

class HloAttrTest : public ::testing::Test {
protected:
  HloAttrTest()
      : ctx(MLIRContext::Threading::DISABLED),
        handler(&ctx, [this](Diagnostic &d) {
          diags.push_back(d.str());
          return success();
        }) {
    ctx.loadDialect<HloDialect>();
  }

  /// Parses an HLO spelling; diagnostics land in `diags`.
  template <typename AttrT> AttrT parse(StringRef text) {
    diags.clear();
    Attribute a = AttrT::parseHlo(&ctx, text, [&]() {
      return mlir::emitError(UnknownLoc::get(&ctx));
    });
    if (a) {
      EXPECT_TRUE(diags.empty()) << "'" << text.str()
                                 << "' parsed with diagnostic " << diags[0];
    }
    return llvm::dyn_cast_or_null<AttrT>(a);
  }

  /// Expects `text` to be rejected with exactly one diagnostic that contains
  /// `message`.
  template <typename AttrT>
  void expectError(StringRef text, StringRef message) {
    AttrT a = parse<AttrT>(text);
    EXPECT_FALSE(a) << "'" << text.str() << "' was accepted as '"
                    << printHlo(a) << "'";
    ASSERT_EQ(diags.size(), 1u) << "'" << text.str() << "'";
    EXPECT_NE(diags[0].find(message.str()), std::string::npos)
        << "'" << text.str() << "': diagnostic '" << diags[0]
        << "' lacks '" << message.str() << "'";
  }

  /// Parses `text`, prints it, and checks the printed form is `printed` and
  /// that it reads back and prints the same. Returns the attribute read from
  /// the printed form (the canonical one).
  template <typename AttrT>
  AttrT expectPrints(StringRef text, StringRef printed) {
    AttrT a = parse<AttrT>(text);
    EXPECT_TRUE(a) << "'" << text.str() << "' rejected: "
                   << (diags.empty() ? "" : diags[0]);
    if (!a)
      return a;
    std::string p = printHlo(a);
    EXPECT_EQ(p, printed.str()) << "from '" << text.str() << "'";
    AttrT again = parse<AttrT>(p);
    EXPECT_TRUE(again) << "printed form '" << p << "' rejected: "
                       << (diags.empty() ? "" : diags[0]);
    if (again) {
      EXPECT_EQ(printHlo(again), p);
    }
    return again;
  }

  /// Checks the attribute survives its MLIR spelling (`#hlo.window<"...">`).
  void expectMlirRoundTrip(Attribute a) {
    ASSERT_TRUE(a);
    std::string text = printMlir(a);
    diags.clear();
    Attribute back = mlir::parseAttribute(text, &ctx);
    EXPECT_EQ(back, a) << "MLIR spelling '" << text << "' read back as '"
                       << (back ? printMlir(back) : std::string("<null>"))
                       << "'" << (diags.empty() ? "" : ": " + diags[0]);
  }

  MLIRContext ctx;
  std::vector<std::string> diags;
  ScopedDiagnosticHandler handler;
};

//===----------------------------------------------------------------------===//
// WindowAttr
//===----------------------------------------------------------------------===//

TEST_F(HloAttrTest, WindowAllFields) {
  auto w = parse<WindowAttr>("{size=3x3 stride=2x1 pad=1_1x0_2 lhs_dilate=1x1 "
                             "rhs_dilate=2x2 rhs_reversal=0x1}");
  ASSERT_TRUE(w);
  EXPECT_EQ(vec(w.getSize()), (Ints{3, 3}));
  EXPECT_EQ(vec(w.getStride()), (Ints{2, 1}));
  EXPECT_EQ(vec(w.getPadLow()), (Ints{1, 0}));
  EXPECT_EQ(vec(w.getPadHigh()), (Ints{1, 2}));
  EXPECT_EQ(vec(w.getLhsDilate()), (Ints{1, 1}));
  EXPECT_EQ(vec(w.getRhsDilate()), (Ints{2, 2}));
  EXPECT_EQ(vec(w.getReversal()), (Ints{0, 1}));
  // Fields at their default value are not printed.
  EXPECT_EQ(printHlo(w),
            "{size=3x3 stride=2x1 pad=1_1x0_2 rhs_dilate=2x2 rhs_reversal=0x1}");
}

TEST_F(HloAttrTest, WindowPrintParseFixedPoint) {
  struct Case {
    const char *text, *printed;
  } cases[] = {
      {"{size=3x3}", "{size=3x3}"},
      {"{}", "{}"},
      {"{size=2 stride=2}", "{size=2 stride=2}"},
      {"{stride=2 size=2}", "{size=2 stride=2}"},
      {"{ size=3x3  stride=1x1 pad=0_0x0_0 }", "{size=3x3}"},
      {"{size=3x3 pad=-1_2x0_0}", "{size=3x3 pad=-1_2x0_0}"},
      {"{size=1x1 lhs_dilate=2x1}", "{size=1x1 lhs_dilate=2x1}"},
      {"{size=5 rhs_reversal=1}", "{size=5 rhs_reversal=1}"},
      {"{size=1x2x3 /* c */ rhs_dilate=1x1x1}", "{size=1x2x3}"},
      {"{size=3x3 stride=2x2 pad=1_1x1_1 lhs_dilate=2x2 rhs_dilate=3x3 "
       "rhs_reversal=1x0}",
       "{size=3x3 stride=2x2 pad=1_1x1_1 lhs_dilate=2x2 rhs_dilate=3x3 "
       "rhs_reversal=1x0}"},
  };
  for (const Case &k : cases) {
    auto w = expectPrints<WindowAttr>(k.text, k.printed);
    if (w)
      expectMlirRoundTrip(w);
  }
}

TEST_F(HloAttrTest, WindowErrors) {
  expectError<WindowAttr>("size=3", "expected '{'");
  expectError<WindowAttr>("", "expected '{'");
  expectError<WindowAttr>("{size=3", "expected '}'");
  expectError<WindowAttr>("{size=3x3 stride=2}",
                          "window field has 1 entries but size has 2");
  expectError<WindowAttr>("{size=3 pad=1_1x2_2}",
                          "window field has 2 entries but size has 1");
  expectError<WindowAttr>("{stride=2}",
                          "window field has 1 entries but size has 0");
  expectError<WindowAttr>("{size=3 bogus=1}", "unknown window field 'bogus'");
  expectError<WindowAttr>("{size=3} extra",
                          "unexpected trailing characters 'extra'");
  expectError<WindowAttr>("{size=}", "expected integer");
  expectError<WindowAttr>("{size=3x}", "expected integer");
  expectError<WindowAttr>("{size=3 pad=1}", "expected '_'");
  expectError<WindowAttr>("{size 3}", "expects attribute name");
  // The diagnostic names the offset and the whole spelling.
  expectError<WindowAttr>("{size=3 pad=1}",
                          "expected '_' at offset 13 of '{size=3 pad=1}'");
}

//===----------------------------------------------------------------------===//
// ConvDimensionNumbersAttr (dim_labels)
//===----------------------------------------------------------------------===//

TEST_F(HloAttrTest, ConvDimLabels2D) {
  auto d = parse<ConvDimensionNumbersAttr>("b01f_01io->b01f");
  ASSERT_TRUE(d);
  EXPECT_EQ(d.getInputBatch(), 0);
  EXPECT_EQ(d.getInputFeature(), 3);
  EXPECT_EQ(vec(d.getInputSpatial()), (Ints{1, 2}));
  EXPECT_EQ(d.getKernelInput(), 2);
  EXPECT_EQ(d.getKernelOutput(), 3);
  EXPECT_EQ(vec(d.getKernelSpatial()), (Ints{0, 1}));
  EXPECT_EQ(d.getOutputBatch(), 0);
  EXPECT_EQ(d.getOutputFeature(), 3);
  EXPECT_EQ(vec(d.getOutputSpatial()), (Ints{1, 2}));
  EXPECT_EQ(printHlo(d), "b01f_01io->b01f");
}

TEST_F(HloAttrTest, ConvDimLabelsPermuted) {
  auto d = parse<ConvDimensionNumbersAttr>("fb10_o1i0->1fb0");
  ASSERT_TRUE(d);
  EXPECT_EQ(d.getInputBatch(), 1);
  EXPECT_EQ(d.getInputFeature(), 0);
  // Spatial dimension 0 is at index 3, spatial dimension 1 at index 2.
  EXPECT_EQ(vec(d.getInputSpatial()), (Ints{3, 2}));
  EXPECT_EQ(d.getKernelOutput(), 0);
  EXPECT_EQ(d.getKernelInput(), 2);
  EXPECT_EQ(vec(d.getKernelSpatial()), (Ints{3, 1}));
  EXPECT_EQ(d.getOutputBatch(), 2);
  EXPECT_EQ(d.getOutputFeature(), 1);
  EXPECT_EQ(vec(d.getOutputSpatial()), (Ints{3, 0}));
  EXPECT_EQ(printHlo(d), "fb10_o1i0->1fb0");
}

TEST_F(HloAttrTest, ConvDimLabelsFixedPoint) {
  for (const char *text :
       {"b01f_01io->b01f", "bf01_oi01->bf01", "b10f_10io->b10f", "bf_io->bf",
        "b0f_0io->b0f", "b012f_012io->b012f", "f01b_i01o->01bf"}) {
    auto d = expectPrints<ConvDimensionNumbersAttr>(text, text);
    if (d)
      expectMlirRoundTrip(d);
  }
  expectPrints<ConvDimensionNumbersAttr>("  b01f_01io->b01f\n",
                                         "b01f_01io->b01f");
}

TEST_F(HloAttrTest, ConvDimLabelsErrors) {
  using A = ConvDimensionNumbersAttr;
  expectError<A>("b01f_01io", "expected dim_labels like 'b01f_01io->b01f'");
  expectError<A>("b01f->b01f", "expected dim_labels like");
  expectError<A>("_01io->b01f", "expected dim_labels like");
  expectError<A>("", "expected dim_labels like");
  expectError<A>("b01f_01i->b01f", "dimension labels '01i' need 'i' and 'o'");
  expectError<A>("01f_01io->b01f", "dimension labels '01f' need 'b' and 'f'");
  expectError<A>("b01x_01io->b01f", "unexpected 'x' in dimension labels 'b01x'");
  expectError<A>("b00f_01io->b01f", "unexpected '0' in dimension labels");
  expectError<A>("bbf_io->bf", "unexpected 'b' in dimension labels 'bbf'");
  expectError<A>("b01f_01io->b01f->b01f", "unexpected '-'");
  expectError<A>("b02f_01io->b01f",
                 "spatial dimensions of 'b02f' are not 0..n-1");
  expectError<A>("b01f_0io->b01f", "have different spatial ranks");
  expectError<A>("b01f_01io->bf", "have different spatial ranks");
  expectError<A>("b01f_01io-> b01f", "unexpected ' '");
}

//===----------------------------------------------------------------------===//
// SliceAttr
//===----------------------------------------------------------------------===//

TEST_F(HloAttrTest, Slice) {
  auto s = parse<SliceAttr>("{[0:2], [1:9:2]}");
  ASSERT_TRUE(s);
  EXPECT_EQ(vec(s.getStarts()), (Ints{0, 1}));
  EXPECT_EQ(vec(s.getLimits()), (Ints{2, 9}));
  EXPECT_EQ(vec(s.getStrides()), (Ints{1, 2}));
  EXPECT_EQ(printHlo(s), "{[0:2], [1:9:2]}");
}

TEST_F(HloAttrTest, SliceFixedPoint) {
  struct Case {
    const char *text, *printed;
  } cases[] = {
      {"{[0:2], [1:9:2]}", "{[0:2], [1:9:2]}"},
      {"{}", "{}"},
      {"{ }", "{}"},
      {"{[0:4:1]}", "{[0:4]}"},
      {"{ [ 3 : 7 ] ,[0:1:3] }", "{[3:7], [0:1:3]}"},
      {"{[0:1],[0:1],[0:1],[0:1]}", "{[0:1], [0:1], [0:1], [0:1]}"},
  };
  for (const Case &k : cases) {
    auto s = expectPrints<SliceAttr>(k.text, k.printed);
    if (s)
      expectMlirRoundTrip(s);
  }
}

TEST_F(HloAttrTest, SliceErrors) {
  expectError<SliceAttr>("[0:2]", "expected '{'");
  expectError<SliceAttr>("{[0:2]", "expected '}'");
  expectError<SliceAttr>("{[0]}", "expected ':'");
  expectError<SliceAttr>("{[0:]}", "expected integer");
  expectError<SliceAttr>("{[0:2:]}", "expected integer");
  expectError<SliceAttr>("{[0:2:1:1]}", "expected ']'");
  expectError<SliceAttr>("{[0:2],}", "expected '['");
  expectError<SliceAttr>("{[0:2]} [1:2]", "unexpected trailing characters");
  expectError<SliceAttr>("{(0:2)}", "expected '['");
}

//===----------------------------------------------------------------------===//
// PaddingAttr
//===----------------------------------------------------------------------===//

TEST_F(HloAttrTest, Padding) {
  auto p = parse<PaddingAttr>("0_0x1_2_1");
  ASSERT_TRUE(p);
  EXPECT_EQ(vec(p.getLow()), (Ints{0, 1}));
  EXPECT_EQ(vec(p.getHigh()), (Ints{0, 2}));
  EXPECT_EQ(vec(p.getInterior()), (Ints{0, 1}));
  EXPECT_EQ(printHlo(p), "0_0x1_2_1");
}

TEST_F(HloAttrTest, PaddingFixedPoint) {
  struct Case {
    const char *text, *printed;
  } cases[] = {
      {"0_0x1_2_1", "0_0x1_2_1"},
      {"", ""},
      {"-1_-2", "-1_-2"},
      {"1_1_0", "1_1"},
      {"3_4_5x0_0_0x-1_0_2", "3_4_5x0_0x-1_0_2"},
      {" 1_1 ", "1_1"},
  };
  for (const Case &k : cases) {
    auto p = expectPrints<PaddingAttr>(k.text, k.printed);
    if (p)
      expectMlirRoundTrip(p);
  }
}

TEST_F(HloAttrTest, PaddingErrors) {
  expectError<PaddingAttr>("1", "expected '_'");
  expectError<PaddingAttr>("1_2x", "expected integer");
  expectError<PaddingAttr>("1_2_", "expected integer");
  expectError<PaddingAttr>("a_b", "expected integer");
  expectError<PaddingAttr>("1_2 3", "unexpected trailing characters '3'");
  expectError<PaddingAttr>("1_2_3_4", "unexpected trailing characters '_4'");
  expectError<PaddingAttr>("1_2x3", "expected '_'");
}

//===----------------------------------------------------------------------===//
// ReplicaGroupsAttr
//===----------------------------------------------------------------------===//

Groups groupsOf(ReplicaGroupsAttr a) {
  Groups out;
  for (const SmallVector<int64_t> &g : a.getGroups())
    out.emplace_back(g.begin(), g.end());
  return out;
}

/// XLA's iota replica groups computed the other way round from the
/// attribute: every device id i (0..N-1) has a position in the iota array of
/// shape `reshape`; moving that position through the transpose `perm` gives
/// its position in the transposed array, whose row-major order, cut into rows
/// of `shape[1]`, is the list of groups.
Groups referenceIotaGroups(Ints shape, Ints reshape, Ints perm) {
  size_t rank = reshape.size();
  if (perm.empty())
    for (size_t i = 0; i < rank; ++i)
      perm.push_back(i);
  int64_t total = 1;
  for (int64_t d : reshape)
    total *= d;
  Ints transposedDims(rank);
  for (size_t i = 0; i < rank; ++i)
    transposedDims[i] = reshape[perm[i]];
  Ints flat(total, -1);
  for (int64_t id = 0; id < total; ++id) {
    // Position of `id` in the iota array.
    Ints pos(rank);
    int64_t rem = id;
    for (size_t d = rank; d-- > 0;) {
      pos[d] = rem % reshape[d];
      rem /= reshape[d];
    }
    // Its position in the transposed array: dimension i there is dimension
    // perm[i] here.
    int64_t linear = 0;
    for (size_t i = 0; i < rank; ++i)
      linear = linear * transposedDims[i] + pos[perm[i]];
    flat[linear] = id;
  }
  Groups groups;
  for (int64_t g = 0; g < shape[0]; ++g)
    groups.emplace_back(flat.begin() + g * shape[1],
                        flat.begin() + (g + 1) * shape[1]);
  return groups;
}

TEST_F(HloAttrTest, ReplicaGroupsList) {
  auto r = parse<ReplicaGroupsAttr>("{{0,1},{2,3}}");
  ASSERT_TRUE(r);
  EXPECT_FALSE(r.getIsIota());
  EXPECT_EQ(vec(r.getGroupSizes()), (Ints{2, 2}));
  EXPECT_EQ(vec(r.getIds()), (Ints{0, 1, 2, 3}));
  EXPECT_EQ(groupsOf(r), (Groups{{0, 1}, {2, 3}}));
  EXPECT_EQ(printHlo(r), "{{0,1},{2,3}}");
}

TEST_F(HloAttrTest, ReplicaGroupsListFixedPoint) {
  struct Case {
    const char *text, *printed;
    Groups groups;
  } cases[] = {
      {"{{0,1},{2,3}}", "{{0,1},{2,3}}", {{0, 1}, {2, 3}}},
      {"{}", "{}", {}},
      {"{{}}", "{{}}", {{}}},
      {"{{0,2},{1}}", "{{0,2},{1}}", {{0, 2}, {1}}},
      {" { {3, 1} , {0,2} } ", "{{3,1},{0,2}}", {{3, 1}, {0, 2}}},
      {"{{0,1,2,3,4,5,6,7}}", "{{0,1,2,3,4,5,6,7}}", {{0, 1, 2, 3, 4, 5, 6, 7}}},
  };
  for (const Case &k : cases) {
    auto r = expectPrints<ReplicaGroupsAttr>(k.text, k.printed);
    if (!r)
      continue;
    EXPECT_EQ(groupsOf(r), k.groups) << k.text;
    expectMlirRoundTrip(r);
  }
}

TEST_F(HloAttrTest, ReplicaGroupsIotaTransposed) {
  auto r = parse<ReplicaGroupsAttr>("[2,4]<=[4,2]T(1,0)");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r.getIsIota());
  EXPECT_EQ(vec(r.getIotaShape()), (Ints{2, 4}));
  EXPECT_EQ(vec(r.getIotaReshape()), (Ints{4, 2}));
  EXPECT_EQ(vec(r.getIotaPerm()), (Ints{1, 0}));
  EXPECT_EQ(printHlo(r), "[2,4]<=[4,2]T(1,0)");
  // iota(8) as 4x2 is {{0,1},{2,3},{4,5},{6,7}}; transposed, {{0,2,4,6},
  // {1,3,5,7}}.
  EXPECT_EQ(groupsOf(r), (Groups{{0, 2, 4, 6}, {1, 3, 5, 7}}));
}

TEST_F(HloAttrTest, ReplicaGroupsIotaHandComputed) {
  struct Case {
    const char *text;
    Groups groups;
  } cases[] = {
      {"[1,8]<=[8]", {{0, 1, 2, 3, 4, 5, 6, 7}}},
      {"[4,2]<=[8]", {{0, 1}, {2, 3}, {4, 5}, {6, 7}}},
      {"[8,1]<=[8]", {{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}}},
      {"[2,4]<=[2,4]", {{0, 1, 2, 3}, {4, 5, 6, 7}}},
      {"[4,2]<=[2,4]T(1,0)", {{0, 4}, {1, 5}, {2, 6}, {3, 7}}},
      // iota as 2x2x2 holds 4a+2b+c at (a,b,c); T(2,1,0) puts 4c+2b+a at
      // (a,b,c).
      {"[2,4]<=[2,2,2]T(2,1,0)", {{0, 4, 2, 6}, {1, 5, 3, 7}}},
      // T(0,2,1) puts 4a+2c+b at (a,b,c).
      {"[2,4]<=[2,2,2]T(0,2,1)", {{0, 2, 1, 3}, {4, 6, 5, 7}}},
      {"[1,1]<=[1]", {{0}}},
  };
  for (const Case &k : cases) {
    auto r = expectPrints<ReplicaGroupsAttr>(k.text, k.text);
    if (!r)
      continue;
    EXPECT_EQ(groupsOf(r), k.groups) << k.text;
    EXPECT_EQ(referenceIotaGroups(vec(r.getIotaShape()),
                                  vec(r.getIotaReshape()),
                                  vec(r.getIotaPerm())),
              k.groups)
        << "reference for " << k.text;
    expectMlirRoundTrip(r);
  }
}

TEST_F(HloAttrTest, ReplicaGroupsMesh) {
  // XLA's MeshAxesReplicaGroupList: the groups its unit tests expect.
  struct Case {
    const char *text;
    Groups groups;
  } cases[] = {
      {"mesh['x'=2,'y'=2] {'x'}", {{0, 2}, {1, 3}}},
      {"mesh['x'=2,'y'=2] {'y'}", {{0, 1}, {2, 3}}},
      {"mesh['x'=2,'y'=2] {'x','y'}", {{0, 1, 2, 3}}},
      {"mesh['x'=2,'y'=2] {'y','x'}", {{0, 2, 1, 3}}},
      // A mesh over devices in another order.
      {"mesh['x'=2,'y'=2], device_ids=(3,1,0,2) {'x'}", {{3, 0}, {1, 2}}},
      {"mesh['x'=2,'y'=2], device_ids=(3,1,0,2) {'y'}", {{3, 1}, {0, 2}}},
      // Sub-axes of a 6x6 mesh: (pre)size is the part of the axis after
      // sub-axes of product `pre`.
      {"mesh['a'=6,'b'=6] {'a':(3)2}",
       {{0, 6},
        {1, 7},
        {2, 8},
        {3, 9},
        {4, 10},
        {5, 11},
        {12, 18},
        {13, 19},
        {14, 20},
        {15, 21},
        {16, 22},
        {17, 23},
        {24, 30},
        {25, 31},
        {26, 32},
        {27, 33},
        {28, 34},
        {29, 35}}},
      {"mesh['a'=6,'b'=6] {'b':(1)3}",
       {{0, 2, 4},
        {1, 3, 5},
        {6, 8, 10},
        {7, 9, 11},
        {12, 14, 16},
        {13, 15, 17},
        {18, 20, 22},
        {19, 21, 23},
        {24, 26, 28},
        {25, 27, 29},
        {30, 32, 34},
        {31, 33, 35}}},
      {"mesh['a'=6,'b'=6] {'a':(1)3,'b':(1)3}",
       {{0, 2, 4, 12, 14, 16, 24, 26, 28},
        {1, 3, 5, 13, 15, 17, 25, 27, 29},
        {6, 8, 10, 18, 20, 22, 30, 32, 34},
        {7, 9, 11, 19, 21, 23, 31, 33, 35}}},
      // XLA's tests give these the groups of [2,4]<=[2,2,2]T(1,2,0) and
      // [4,2]<=[2,2,2]T(0,2,1).
      {"mesh['a'=8] {'a':(4)2,'a':(1)2}", {{0, 4, 1, 5}, {2, 6, 3, 7}}},
      {"mesh['a'=8] {'a':(2)2}", {{0, 2}, {1, 3}, {4, 6}, {5, 7}}},
      {"mesh['a'=2,'b'=2], device_ids=([2,2]T(1,0)) {'a'}", {{0, 1}, {2, 3}}},
  };
  for (const Case &k : cases) {
    auto r = expectPrints<ReplicaGroupsAttr>(k.text, k.text);
    if (!r)
      continue;
    EXPECT_TRUE(r.isMesh());
    EXPECT_EQ(groupsOf(r), k.groups) << k.text;
    expectMlirRoundTrip(r);
  }
}

TEST_F(HloAttrTest, ReplicaGroupsMeshErrors) {
  expectError<ReplicaGroupsAttr>("mesh['x'=2] {'y'}",
                                 "'y' is not an axis of the mesh");
  expectError<ReplicaGroupsAttr>("mesh['x'=6] {'x':(4)2}",
                                 "does not divide axis 'x' of size 6");
  expectError<ReplicaGroupsAttr>("mesh['u'=30] {'u':(6)5,'u':(10)3}",
                                 "the listed parts of axis 'u' overlap");
  expectError<ReplicaGroupsAttr>("mesh['x'=2], device_ids=(0,0) {'x'}",
                                 "device_ids must be a permutation");
  expectError<ReplicaGroupsAttr>("mesh['x'=0] {'x'}",
                                 "mesh axis sizes must be positive");
  expectError<ReplicaGroupsAttr>("mesh['x'=2] {x}", "expected '''");
}

TEST_F(HloAttrTest, ReplicaGroupsIotaAgainstReference) {
  // Every transpose of every split of 24 devices into 2..4 dimensions, read
  // as groups of every size that divides 24.
  std::vector<Ints> splits = {{24},       {4, 6},    {6, 4},    {2, 12},
                              {3, 8},     {2, 3, 4}, {4, 3, 2}, {2, 2, 6},
                              {3, 2, 2, 2}, {2, 2, 2, 3}};
  int checked = 0;
  for (const Ints &reshape : splits) {
    Ints perm;
    for (size_t i = 0; i < reshape.size(); ++i)
      perm.push_back(i);
    do {
      for (int64_t groupSize : {1, 2, 3, 4, 6, 8, 12, 24}) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << '[' << 24 / groupSize << ',' << groupSize << "]<=[";
        llvm::interleave(reshape, os, ",");
        os << "]T(";
        llvm::interleave(perm, os, ",");
        os << ')';
        auto r = parse<ReplicaGroupsAttr>(text);
        ASSERT_TRUE(r) << text << ": " << (diags.empty() ? "" : diags[0]);
        EXPECT_EQ(printHlo(r), text);
        EXPECT_EQ(groupsOf(r),
                  referenceIotaGroups({24 / groupSize, groupSize}, reshape,
                                      perm))
            << text;
        ++checked;
      }
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
  EXPECT_GT(checked, 500);
}

TEST_F(HloAttrTest, ReplicaGroupsErrors) {
  using A = ReplicaGroupsAttr;
  expectError<A>("[2,4]<=[4]", "malformed iota replica groups '[2,4]<=[4]'");
  expectError<A>("[8]<=[8]", "malformed iota replica groups");
  expectError<A>("[2,2,2]<=[8]", "malformed iota replica groups");
  expectError<A>("[2,4]<=[4,2]T(1)", "malformed iota replica groups");
  expectError<A>("[2,4]<=[8]T(1,0)", "malformed iota replica groups");
  expectError<A>("[2,4]", "expected '<='");
  expectError<A>("[2,4]<=", "expected '['");
  expectError<A>("[2,4]<=[4,2]T", "expected '('");
  expectError<A>("[2,4]<=[4,2]T(1,0", "expected ')'");
  expectError<A>("[2,4]<=[4,2] x", "unexpected trailing characters 'x'");
  expectError<A>("{{0,1},{2", "expected '}'");
  expectError<A>("{{0,1}{2,3}}", "expected '}'");
  expectError<A>("{0,1}", "expected '{'");
  expectError<A>("{{0,1},}", "expected '{'");
  expectError<A>("", "expected '{'");
  expectError<A>("{{a}}", "expected integer");
}

// The iota form's transpose must be a permutation of the reshape dimensions
// and its dimensions must be positive; otherwise getGroups() reads outside
// the reshape dimensions or yields ids that are not 0..N-1.
TEST_F(HloAttrTest, ReplicaGroupsIotaRejectsInvalidTranspose) {
  using A = ReplicaGroupsAttr;
  expectError<A>("[2,4]<=[4,2]T(0,0)", "malformed iota replica groups");
  expectError<A>("[2,4]<=[4,2]T(5,0)", "malformed iota replica groups");
  expectError<A>("[2,4]<=[4,2]T(-1,0)", "malformed iota replica groups");
}

TEST_F(HloAttrTest, ReplicaGroupsIotaRejectsNonPositiveDims) {
  using A = ReplicaGroupsAttr;
  expectError<A>("[-2,-4]<=[-4,-2]", "malformed iota replica groups");
  expectError<A>("[2,-4]<=[-8]", "malformed iota replica groups");
  expectError<A>("[0,4]<=[0]", "malformed iota replica groups");
}

// Products that overflow int64_t are rejected, not wrapped.
TEST_F(HloAttrTest, ReplicaGroupsIotaRejectsOverflow) {
  using A = ReplicaGroupsAttr;
  expectError<A>("[4294967296,4294967296]<=[2]",
                 "malformed iota replica groups");
  expectError<A>("[1,2]<=[4294967296,4294967296]",
                 "malformed iota replica groups");
}

//===----------------------------------------------------------------------===//
// ShardingAttr
//===----------------------------------------------------------------------===//

TEST_F(HloAttrTest, ShardingValidForms) {
  // Every form prints back as written (XLA's spelling).
  for (const char *text : {
           "{replicated}",
           "{manual}",
           "{unknown}",
           "{maximal device=3}",
           "{maximal device=0}",
           "{devices=[2,2]0,2,1,3}",
           "{devices=[2,4]<=[8]}",
           "{devices=[4,2]<=[2,4]T(1,0)}",
           "{devices=[2,2,2]<=[8] last_tile_dim_replicate}",
           "{devices=[2,1,4]0,1,2,3,4,5,6,7 last_tile_dim_replicate}",
           "{devices=[2,1,2,2]<=[8] last_tile_dims={manual, replicated}}",
           "{devices=[2,2]<=[4] last_tile_dims={unreduced}}",
           "{replicated metadata={op_name=\"a/b\" source_file=\"x.py\"}}",
           "{replicated metadata={{op_name=\"a\"}, {op_name=\"b\"}}}",
           "{manual metadata={}}",
           "{devices=[2]0,1 shard_as 1}",
           "{devices=[2]0,1 shard_like 0}",
           "{unknown shard_as 3 metadata={op_type=\"t\"}}",
           "{{replicated}, {maximal device=0}, {devices=[2,4]<=[8]}}",
           "{{manual}}",
           "{}",
           "{{replicated}, {replicated}, {replicated}, {replicated}, "
           "{replicated}, /*index=5*/{manual}}",
       }) {
    auto s = parse<ShardingAttr>(text);
    ASSERT_TRUE(s) << text << ": " << (diags.empty() ? "" : diags[0]);
    EXPECT_EQ(printHlo(s), text);
    expectMlirRoundTrip(s);
  }
}

TEST_F(HloAttrTest, ShardingNormalizesSpelling) {
  // Spaces, field order and a missing /*index=5*/ are XLA's own on print.
  auto s = parse<ShardingAttr>(
      "{ metadata={op_name=\"x\" op_type=\"y\"}  replicated }");
  ASSERT_TRUE(s);
  EXPECT_EQ(printHlo(s), "{replicated metadata={op_type=\"y\" op_name=\"x\"}}");
  auto t = parse<ShardingAttr>(
      "{ {manual},{manual},{manual},{manual},{manual},{manual}}");
  ASSERT_TRUE(t);
  EXPECT_EQ(printHlo(t), "{{manual}, {manual}, {manual}, {manual}, {manual}, "
                         "/*index=5*/{manual}}");
}

TEST_F(HloAttrTest, ShardingKinds) {
  auto rep = parse<ShardingAttr>("  {replicated}\n");
  ASSERT_TRUE(rep);
  EXPECT_TRUE(rep.isReplicated());
  EXPECT_FALSE(rep.isTuple());
  EXPECT_EQ(rep.getKind(), ShardingKind::Replicated);
  EXPECT_EQ(rep, ShardingAttr::get(&ctx, ShardingKind::Replicated));

  auto tuple = parse<ShardingAttr>("{ {replicated}, {manual}}");
  ASSERT_TRUE(tuple);
  EXPECT_TRUE(tuple.isTuple());
  EXPECT_FALSE(tuple.isReplicated());
  ASSERT_EQ(tuple.getTupleElements().size(), 2u);
  EXPECT_TRUE(tuple.getTupleElements()[1].isManual());
  EXPECT_EQ(tuple.getLeafSharding(1), tuple.getTupleElements()[1]);
  EXPECT_TRUE(
      parse<ShardingAttr>("{{replicated}, {replicated}}").isReplicated());

  auto max = parse<ShardingAttr>("{maximal device=5}");
  ASSERT_TRUE(max);
  EXPECT_TRUE(max.isMaximal());
  EXPECT_EQ(max.getDevice(), 5);
  EXPECT_EQ(max.getDeviceList(), SmallVector<int64_t>({5}));
  EXPECT_EQ(max.getNumDevices(), 1);
  EXPECT_EQ(max, ShardingAttr::get(&ctx, ShardingKind::Maximal, 5));

  auto tiled = parse<ShardingAttr>("{devices=[2,2]0,1,2,3}");
  ASSERT_TRUE(tiled);
  EXPECT_TRUE(tiled.isTiled());
  EXPECT_FALSE(tiled.isIota());
  EXPECT_FALSE(tiled.isReplicated());
  EXPECT_EQ(tiled, ShardingAttr::getTiled(&ctx, {2, 2}, {0, 1, 2, 3}));
}

TEST_F(HloAttrTest, ShardingTileAssignment) {
  // Iota form: 0..7 reshaped to [2,4], transposed to [4,2], read row-major.
  auto s = parse<ShardingAttr>("{devices=[4,2]<=[2,4]T(1,0)}");
  ASSERT_TRUE(s);
  EXPECT_TRUE(s.isIota());
  EXPECT_EQ(s.getTileAssignmentDims(), ArrayRef<int64_t>({4, 2}));
  EXPECT_EQ(s.getDeviceList(), SmallVector<int64_t>({0, 4, 1, 5, 2, 6, 3, 7}));
  EXPECT_EQ(s.getNumDevices(), 8);
  EXPECT_EQ(s.getNumTiles(), 8);
  EXPECT_EQ(s.getTiledDataRank(), 2);
  EXPECT_EQ(s, ShardingAttr::getIota(&ctx, {4, 2}, {2, 4}, {1, 0}));

  // Without a transpose the list is 0..N-1.
  auto plain = parse<ShardingAttr>("{devices=[2,4]<=[8]}");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain.getDeviceList(),
            SmallVector<int64_t>({0, 1, 2, 3, 4, 5, 6, 7}));

  // A three-dimensional transpose.
  auto t3 = parse<ShardingAttr>("{devices=[2,2,2]<=[2,2,2]T(2,0,1)}");
  ASSERT_TRUE(t3);
  EXPECT_EQ(t3.getDeviceList(), SmallVector<int64_t>({0, 2, 4, 6, 1, 3, 5, 7}));

  // Subgroup dimensions are not data dimensions.
  auto partial = parse<ShardingAttr>(
      "{devices=[2,1,2,2]<=[8] last_tile_dims={manual, replicated}}");
  ASSERT_TRUE(partial);
  EXPECT_EQ(partial.getNumSubgroupDims(), 2);
  EXPECT_EQ(partial.getTiledDataRank(), 2);
  EXPECT_EQ(partial.getDataTileDims(), ArrayRef<int64_t>({2, 1}));
  EXPECT_EQ(partial.getNumTiles(), 2);
  EXPECT_EQ(partial.getNumDevices(), 8);
  EXPECT_EQ(partial.getLastTileDims(),
            ArrayRef<ShardingSubgroup>(
                {ShardingSubgroup::Manual, ShardingSubgroup::Replicated}));

  auto rep =
      parse<ShardingAttr>("{devices=[2,2]3,2,1,0 last_tile_dim_replicate}");
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep.getDeviceList(), SmallVector<int64_t>({3, 2, 1, 0}));
  EXPECT_EQ(rep.getNumTiles(), 2);

  // Shard groups and metadata.
  auto g =
      parse<ShardingAttr>("{replicated shard_like 4 metadata={op_name=\"n\"}}");
  ASSERT_TRUE(g);
  EXPECT_EQ(g.getShardGroupKind(), ShardGroupKind::ShardLike);
  EXPECT_EQ(g.getShardGroupId(), 4);
  ASSERT_EQ(g.getMetadata().size(), 1u);
  EXPECT_EQ(g.getMetadata()[0].getAs<StringAttr>("op_name").getValue(), "n");
  EXPECT_EQ(printHlo(g.withMetadata({})), "{replicated shard_like 4}");
}

TEST_F(HloAttrTest, ShardingErrors) {
  using A = ShardingAttr;
  expectError<A>("replicated", "expected '{'");
  expectError<A>("", "expected '{'");
  expectError<A>("{replicated", "expected '}'");
  expectError<A>("{foo=1}", "unknown sharding field 'foo'");
  expectError<A>("{foo}", "expects attribute name");
  expectError<A>("{last_tile_dim_replicate}", "sharding names no kind");
  expectError<A>("{metadata={op_name=\"x\"}}", "sharding names no kind");
  expectError<A>("{maximal}", "expected 'device='");
  expectError<A>("{maximal device=x}", "expected integer");
  expectError<A>("{devices=[2,2]}", "expected integer");
  expectError<A>("{devices=2,2}", "expected '['");
  expectError<A>("{devices=[2]<=[2]T}", "expected '('");
  expectError<A>("{devices=[2]<=[]}", "expected iota reshape dimensions");
  expectError<A>("{devices}", "expects attribute name");
  expectError<A>("{{replicated}", "expected '}'");
  expectError<A>("{{replicated},}", "expected '{'");
  expectError<A>("{{replicated} {manual}}", "expected '}'");
  expectError<A>("{replicated} x", "unexpected trailing characters 'x'");
  expectError<A>("{replicated metadata=op}", "expected '{'");
  expectError<A>("{replicated metadata={op}", "expects attribute name");
  expectError<A>("{replicated metadata={op_name=\"x\"", "expected '}'");
  expectError<A>("{shard_as}", "expected integer");
  expectError<A>("{replicated maximal device=1}",
                 "sharding names more than one kind");
  expectError<A>("{devices=[2,2]0,1,2}", "has 4 tiles but 3 devices");
  expectError<A>("{devices=[2]1,1}", "device 1 appears twice");
  expectError<A>("{devices=[2,2]<=[2,2]T(1,1)}", "is not a permutation");
  expectError<A>("{devices=[4]<=[4] last_tile_dim_replicate "
                 "last_tile_dims={manual}}",
                 "exclude each other");
  expectError<A>("{devices=[2]<=[2] last_tile_dims={manual, replicated}}",
                 "more subgroup dimensions");
  expectError<A>("{devices=[4294967296,4294967296]<=[2]}",
                 "must be positive with a product of at most 2^24");
}

//===----------------------------------------------------------------------===//
// LayoutAttr
//===----------------------------------------------------------------------===//

TEST_F(HloAttrTest, LayoutGetTiles) {
  auto tiles = [&](ArrayRef<int64_t> sizes, ArrayRef<int64_t> data) {
    auto l = LayoutAttr::get(&ctx, true, {1, 0}, sizes, data, 0, 0, {},
                             StringAttr::get(&ctx, ""));
    Groups out;
    for (ArrayRef<int64_t> t : l.getTiles())
      out.push_back(vec(t));
    return out;
  };
  EXPECT_EQ(tiles({}, {}), Groups{});
  EXPECT_EQ(tiles({2}, {8, 128}), (Groups{{8, 128}}));
  EXPECT_EQ(tiles({2, 2}, {8, 128, 2, 1}), (Groups{{8, 128}, {2, 1}}));
  EXPECT_EQ(tiles({1, 1, 2}, {1024, 128, 2, 1}),
            (Groups{{1024}, {128}, {2, 1}}));
  EXPECT_EQ(tiles({0, 1}, {4}), (Groups{{}, {4}}));
}

TEST_F(HloAttrTest, LayoutFromMlirSpelling) {
  auto l = llvm::dyn_cast_or_null<LayoutAttr>(mlir::parseAttribute(
      "#hlo.layout<[1, 0], tiles = [[8, 128], [2, 1]], element_size = 4, "
      "memory_space = 5>",
      &ctx));
  ASSERT_TRUE(l);
  EXPECT_TRUE(l.getHasMinorToMajor());
  EXPECT_EQ(vec(l.getMinorToMajor()), (Ints{1, 0}));
  ASSERT_EQ(l.getTiles().size(), 2u);
  EXPECT_EQ(vec(l.getTiles()[0]), (Ints{8, 128}));
  EXPECT_EQ(vec(l.getTiles()[1]), (Ints{2, 1}));
  EXPECT_EQ(l.getElementSizeInBits(), 4);
  EXPECT_EQ(l.getMemorySpace(), 5);
  expectMlirRoundTrip(l);

  auto none = llvm::dyn_cast_or_null<LayoutAttr>(
      mlir::parseAttribute("#hlo.layout<none>", &ctx));
  ASSERT_TRUE(none);
  EXPECT_FALSE(none.getHasMinorToMajor());
  EXPECT_TRUE(none.getTiles().empty());
}

TEST_F(HloAttrTest, LayoutMlirRoundTrip) {
  StringAttr noExtra = StringAttr::get(&ctx, "");
  int64_t dyn = ShapedType::kDynamic;
  expectMlirRoundTrip(
      LayoutAttr::get(&ctx, true, {0, 1}, {}, {}, 0, 1, {}, noExtra));
  expectMlirRoundTrip(
      LayoutAttr::get(&ctx, true, {0}, {}, {}, 0, 0, {dyn}, noExtra));
  expectMlirRoundTrip(LayoutAttr::get(&ctx, true, {1, 0}, {}, {}, 0, 0,
                                      {dyn, 5}, noExtra));
  expectMlirRoundTrip(LayoutAttr::get(&ctx, true, {0}, {1}, {4}, 0, 0, {},
                                      StringAttr::get(&ctx, "L(2)")));
}

// HLO tiles may hold `*` (XLA's combined dimension), which the importer
// keeps as INT64_MIN; the MLIR spelling of the layout must read back.
TEST_F(HloAttrTest, LayoutCombinedTileDimRoundTrip) {
  int64_t star = std::numeric_limits<int64_t>::min();
  expectMlirRoundTrip(LayoutAttr::get(&ctx, true, {1, 0}, {2}, {star, 128}, 0,
                                      0, {}, StringAttr::get(&ctx, "")));
}

// Layout items kept verbatim may hold quoted text; the MLIR spelling must
// escape it.
TEST_F(HloAttrTest, LayoutExtraWithQuoteRoundTrip) {
  expectMlirRoundTrip(LayoutAttr::get(&ctx, true, {0}, {}, {}, 0, 0, {},
                                      StringAttr::get(&ctx, "X(\"a\")")));
}

} // namespace

//===----------------------------------------------------------------------===//
// BackendConfigAttr
//===----------------------------------------------------------------------===//

namespace {

std::string printJson(BackendConfigAttr attr) {
  std::string s;
  llvm::raw_string_ostream os(s);
  attr.printJson(os);
  return s;
}

TEST_F(HloAttrTest, BackendConfigTypedMembers) {
  // As XLA-GPU writes them: typed where the dialect knows the member.
  const char *json =
      R"({"operation_queue_id":"2","wait_on_operation_queues":["0","1"],)"
      R"("fusion_backend_config":{"kind":"__triton_nested_gemm_fusion",)"
      R"("block_level_fusion_config":{"num_warps":"4","output_tiles":)"
      R"([{"sizes":["16","8"]},{"sizes":["1"]}],"num_ctas":1,"num_stages":3,)"
      R"("is_tma_allowed":false}},"force_earliest_schedule":true,)"
      R"("reification_cost":[],"device_type":"DEVICE_TYPE_INVALID"})";
  BackendConfigAttr c = BackendConfigAttr::parseJson(&ctx, json);
  ASSERT_TRUE(c);
  EXPECT_EQ(printJson(c), json);
  EXPECT_EQ(c.getOperationQueueId(), 2);
  EXPECT_EQ(c.getInts("wait_on_operation_queues"),
            std::optional<ArrayRef<int64_t>>(ArrayRef<int64_t>({0, 1})));
  EXPECT_EQ(c.getBool("force_earliest_schedule"), true);
  EXPECT_EQ(c.getFusionKind(), "__triton_nested_gemm_fusion");
  BackendConfigAttr block = c.getBlockLevelFusionConfig();
  ASSERT_TRUE(block);
  EXPECT_EQ(block.getInt("num_warps"), 4);
  EXPECT_EQ(block.getInt("num_ctas"), 1);
  EXPECT_EQ(block.getInt("num_stages"), 3);
  EXPECT_EQ(block.getOutputTiles(),
            (SmallVector<SmallVector<int64_t>>{{16, 8}, {1}}));
  // Unknown members are verbatim JSON.
  EXPECT_EQ(cast<TextAttr>(c.getMember("device_type")).getValue(),
            "\"DEVICE_TYPE_INVALID\"");
  EXPECT_FALSE(c.getKnownTripCount());
  EXPECT_FALSE(c.getTritonGemmConfig());
}

TEST_F(HloAttrTest, BackendConfigKnownTripCountAndGemm) {
  auto loop = BackendConfigAttr::parseJson(
      &ctx, R"({"known_trip_count":{"n":"7"},"dynamic_variables":[]})");
  ASSERT_TRUE(loop);
  EXPECT_EQ(loop.getKnownTripCount(), 7);

  const char *gemm =
      R"({"gemm_backend_config":{"alpha_real":0.5,"beta":1e-05,)"
      R"("dot_dimension_numbers":{"lhs_contracting_dimensions":["1"],)"
      R"("rhs_contracting_dimensions":["0"],"lhs_batch_dimensions":[],)"
      R"("rhs_batch_dimensions":[]},"epilogue":"BIAS","grad_x":false}})";
  auto g = BackendConfigAttr::parseJson(&ctx, gemm);
  ASSERT_TRUE(g);
  EXPECT_EQ(printJson(g), gemm);
  BackendConfigAttr cfg = g.getGemmBackendConfig();
  ASSERT_TRUE(cfg);
  EXPECT_EQ(cfg.getDouble("alpha_real"), 0.5);
  EXPECT_EQ(cfg.getDouble("beta"), 1e-05);
  EXPECT_EQ(cfg.getString("epilogue"), "BIAS");
  EXPECT_EQ(cfg.getSubConfig("dot_dimension_numbers")
                .getInts("lhs_contracting_dimensions"),
            std::optional<ArrayRef<int64_t>>(ArrayRef<int64_t>({1})));
}

TEST_F(HloAttrTest, BackendConfigFallsBackToText) {
  // Anything whose typed form would print differently is not typed: the
  // importer keeps such text verbatim.
  for (const char *text : {
           R"({ "known_trip_count": {"n":"7"} })",          // spaces
           R"({"known_trip_count":{"n":7}})",               // int64 not quoted
           R"({"gemm_backend_config":{"alpha_real":1.0}})", // number spelling
           R"({sizes:[16]})",                               // not JSON
           R"({"a":1)",                                     // truncated
           R"({"a":1} x)",                                  // trailing text
           R"([1,2])",                                      // not an object
           R"({"fusion_backend_config":{"kind":3}})",       // wrong kind
       })
    EXPECT_FALSE(BackendConfigAttr::parseJson(&ctx, text)) << text;
  EXPECT_TRUE(diags.empty()) << diags.front();
}

TEST_F(HloAttrTest, BackendConfigBuild) {
  // Passes build or change configs; they print as XLA writes them.
  Builder b(&ctx);
  auto trip =
      BackendConfigAttr::get(&ctx, BackendConfigMessage::KnownTripCount,
                             {b.getNamedAttr("n", b.getI64IntegerAttr(12))});
  auto loop =
      BackendConfigAttr::get(&ctx, BackendConfigMessage::Root,
                             {b.getNamedAttr("known_trip_count", trip)});
  EXPECT_EQ(printJson(loop), R"({"known_trip_count":{"n":"12"}})");
  auto queued = loop.withMember("operation_queue_id", b.getI64IntegerAttr(1));
  EXPECT_EQ(printJson(queued),
            R"({"known_trip_count":{"n":"12"},"operation_queue_id":"1"})");
  EXPECT_EQ(queued.withMember("operation_queue_id", b.getI64IntegerAttr(3))
                .getOperationQueueId(),
            3);
  // A typed member must have its kind; a nested message is never quoted.
  auto bad = BackendConfigAttr::getChecked(
      [&]() { return mlir::emitError(UnknownLoc::get(&ctx)); }, &ctx,
      BackendConfigMessage::KnownTripCount, /*quoted=*/true,
      ArrayRef<StringAttr>(), ArrayRef<Attribute>());
  EXPECT_FALSE(bad);
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].find("only a root backend_config can be quoted"),
            std::string::npos);
}

} // namespace
