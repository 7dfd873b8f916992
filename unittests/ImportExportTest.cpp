//===- ImportExportTest.cpp - HLO text importer and exporter --------------===//
//
// importHloText on small modules held in strings: what it builds, and the
// null result plus one file:line:col diagnostic it gives for bad input.
// exportHloText: import -> export -> import -> export reaches a fixed point,
// also through the MLIR text form of the module.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::hlo;

namespace {

struct Diag {
  DiagnosticSeverity severity;
  std::string message;
  std::string file;
  unsigned line = 0, col = 0;
};

class HloImportExportTest : public ::testing::Test {
protected:
  HloImportExportTest()
      : ctx(makeRegistry(), MLIRContext::Threading::DISABLED),
        handler(&ctx, [this](Diagnostic &d) {
          Diag out{d.getSeverity(), d.str(), "", 0, 0};
          if (auto loc = d.getLocation()->findInstanceOf<FileLineColLoc>()) {
            out.file = loc.getFilename().str();
            out.line = loc.getLine();
            out.col = loc.getColumn();
          }
          diags.push_back(out);
          return success();
        }) {}

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerHloTranslateDialects(registry);
    return registry;
  }

  OwningOpRef<ModuleOp> import(StringRef text, StringRef name = "test.hlo") {
    diags.clear();
    return importHloText(text, &ctx, name);
  }

  std::string firstDiag() const {
    return diags.empty() ? std::string("<no diagnostic>") : diags[0].message;
  }

  /// Imports `text` expecting success and no diagnostics.
  OwningOpRef<ModuleOp> importOk(StringRef text) {
    OwningOpRef<ModuleOp> m = import(text);
    EXPECT_TRUE(m) << "import failed: " << firstDiag() << "\n" << text.str();
    EXPECT_TRUE(diags.empty()) << firstDiag();
    return m;
  }

  std::string exportText(ModuleOp m) {
    std::string s;
    llvm::raw_string_ostream os(s);
    diags.clear();
    EXPECT_TRUE(succeeded(exportHloText(m, os))) << "export failed: "
                                                 << firstDiag();
    return s;
  }

  /// Imports `text`, expecting failure with exactly one error located at
  /// test.hlo:line:col (any column if `col` is 0) whose message contains
  /// `message`.
  void expectImportError(StringRef text, unsigned line, unsigned col,
                         StringRef message) {
    OwningOpRef<ModuleOp> m = import(text);
    EXPECT_FALSE(m) << "accepted:\n" << text.str();
    ASSERT_EQ(diags.size(), 1u) << "first: " << firstDiag() << "\n"
                                << text.str();
    const Diag &d = diags[0];
    EXPECT_EQ(d.severity, DiagnosticSeverity::Error);
    EXPECT_NE(d.message.find(message.str()), std::string::npos)
        << "diagnostic '" << d.message << "' lacks '" << message.str() << "'";
    EXPECT_EQ(d.file, "test.hlo");
    EXPECT_EQ(d.line, line) << d.message;
    if (col) {
      EXPECT_EQ(d.col, col) << d.message;
    }
  }

  /// import -> export -> import -> export gives the same text twice, and so
  /// does going through the module's MLIR text form. Returns the export.
  std::string expectFixedPoint(StringRef text) {
    OwningOpRef<ModuleOp> m1 = importOk(text);
    if (!m1)
      return "";
    std::string e1 = exportText(*m1);
    OwningOpRef<ModuleOp> m2 = import(e1, "export1.hlo");
    EXPECT_TRUE(m2) << "export does not re-import: " << firstDiag() << "\n"
                    << e1;
    if (!m2)
      return e1;
    std::string e2 = exportText(*m2);
    EXPECT_EQ(e1, e2) << "export is not a fixed point";

    // hlo-translate --hlo-to-mlir | hlo-translate --mlir-to-hlo.
    std::string mlirText;
    llvm::raw_string_ostream os(mlirText);
    m1->print(os, OpPrintingFlags().enableDebugInfo(true, false));
    diags.clear();
    OwningOpRef<ModuleOp> m3 = parseSourceString<ModuleOp>(mlirText, &ctx);
    EXPECT_TRUE(m3) << "MLIR form does not parse: " << firstDiag() << "\n"
                    << mlirText;
    if (m3) {
      EXPECT_EQ(exportText(*m3), e1) << "through MLIR:\n" << mlirText;
    }
    return e1;
  }

  static size_t countOps(ModuleOp m, StringRef name) {
    size_t n = 0;
    m->walk([&](Operation *op) { n += op->getName().getStringRef() == name; });
    return n;
  }

  MLIRContext ctx;
  std::vector<Diag> diags;
  ScopedDiagnosticHandler handler;
};

const char *kNegate = R"(HloModule m

ENTRY main {
  p = f32[2] parameter(0)
  ROOT n = f32[2] negate(p)
}
)";

//===----------------------------------------------------------------------===//
// Import
//===----------------------------------------------------------------------===//

TEST_F(HloImportExportTest, ImportsSmallModule) {
  OwningOpRef<ModuleOp> m = importOk(kNegate);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->getSymName(), "m");
  EXPECT_EQ(countOps(*m, "hlo.computation"), 1u);
  EXPECT_EQ(countOps(*m, "hlo.negate"), 1u);
  // Locations point into the named buffer.
  auto loc = dyn_cast<FileLineColLoc>(m->getLoc());
  ASSERT_TRUE(loc);
  EXPECT_EQ(loc.getFilename(), "test.hlo");
  EXPECT_EQ(loc.getLine(), 1u);
}

TEST_F(HloImportExportTest, ImportsFromSourceMgr) {
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(kNegate, "sm.hlo"),
                        llvm::SMLoc());
  diags.clear();
  OwningOpRef<ModuleOp> m = importHloText(sm, &ctx);
  ASSERT_TRUE(m) << firstDiag();
  auto loc = dyn_cast<FileLineColLoc>(m->getLoc());
  ASSERT_TRUE(loc);
  EXPECT_EQ(loc.getFilename(), "sm.hlo");
}

TEST_F(HloImportExportTest, ImportsWithoutHeaderAndWithComments) {
  OwningOpRef<ModuleOp> m = importOk(R"(
// A leading comment.
/* A block
   comment. */
ENTRY %e (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0) // trailing comment
  %b = f32[] parameter(1)
  ROOT %s = f32[] /* inline */ add(%a, %b)
}
)");
  ASSERT_TRUE(m);
  EXPECT_EQ(countOps(*m, "hlo.add"), 1u);
}

TEST_F(HloImportExportTest, ImportsCalledComputations) {
  OwningOpRef<ModuleOp> m = importOk(R"(HloModule calls

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

ENTRY main {
  v = f32[8] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(v, z), dimensions={0}, to_apply=add
}
)");
  ASSERT_TRUE(m);
  EXPECT_EQ(countOps(*m, "hlo.computation"), 2u);
  EXPECT_EQ(countOps(*m, "hlo.reduce"), 1u);
  EXPECT_EQ(countOps(*m, "hlo.constant"), 1u);
}

TEST_F(HloImportExportTest, ImportsTiledLayout) {
  OwningOpRef<ModuleOp> m = importOk(R"(HloModule layouts

ENTRY main {
  ROOT b = s4[64]{0:T(1024)(128)(2,1)E(4)S(1)} parameter(0)
}
)");
  ASSERT_TRUE(m);
  LayoutAttr layout;
  m->walk([&](Operation *op) {
    for (Region &r : op->getRegions())
      for (Block &b : r)
        for (BlockArgument a : b.getArguments())
          if (auto t = dyn_cast<RankedTensorType>(a.getType()))
            if (auto l = dyn_cast_or_null<LayoutAttr>(t.getEncoding()))
              layout = l;
  });
  ASSERT_TRUE(layout);
  ASSERT_EQ(layout.getTiles().size(), 3u);
  EXPECT_EQ(layout.getTiles()[0], ArrayRef<int64_t>({1024}));
  EXPECT_EQ(layout.getTiles()[1], ArrayRef<int64_t>({128}));
  EXPECT_EQ(layout.getTiles()[2], ArrayRef<int64_t>({2, 1}));
  EXPECT_EQ(layout.getElementSizeInBits(), 4);
  EXPECT_EQ(layout.getMemorySpace(), 1);
}

TEST_F(HloImportExportTest, LooksLikeHloText) {
  EXPECT_TRUE(looksLikeHloText(kNegate));
  EXPECT_TRUE(looksLikeHloText("  // c\nENTRY e {"));
  EXPECT_TRUE(looksLikeHloText("%comp (a: f32[]) -> f32[] {"));
  EXPECT_FALSE(looksLikeHloText("module {\n}"));
  EXPECT_FALSE(looksLikeHloText("func.func @f() { return }"));
  EXPECT_FALSE(looksLikeHloText(""));
}

//===----------------------------------------------------------------------===//
// Import errors: null module, one diagnostic at file:line:col.
//===----------------------------------------------------------------------===//

TEST_F(HloImportExportTest, ErrorUnknownOpcode) {
  expectImportError(R"(HloModule m

ENTRY main {
  p = f32[2] parameter(0)
  ROOT n = f32[2] frobnicate(p)
}
)",
                    5, 19, "unknown opcode 'frobnicate'");
}

TEST_F(HloImportExportTest, ErrorUndefinedOperand) {
  expectImportError(R"(HloModule m

ENTRY main {
  p = f32[2] parameter(0)
  ROOT n = f32[2] negate(q)
}
)",
                    5, 26, "use of undefined value '%q'");
}

TEST_F(HloImportExportTest, ErrorMalformedShape) {
  expectImportError(R"(HloModule m

ENTRY main {
  p = f32[2 parameter(0)
  ROOT n = f32[2] negate(p)
}
)",
                    4, 13, "expected ']'");
}

TEST_F(HloImportExportTest, ErrorLayoutRank) {
  expectImportError(R"(HloModule m

ENTRY main {
  p = f32[2]{1,0} parameter(0)
  ROOT n = f32[2] negate(p)
}
)",
                    4, 13, "layout {2 dims} does not match the shape's rank 1");
}

TEST_F(HloImportExportTest, ErrorUnterminatedComputation) {
  expectImportError("HloModule m\n\nENTRY main {\n"
                    "  p = f32[2] parameter(0)\n"
                    "  ROOT n = f32[2] negate(p)\n",
                    6, 1, "expected '}' to end computation 'main'");
}

TEST_F(HloImportExportTest, ErrorEmptyText) {
  expectImportError("", 1, 1, "expected at least one computation");
}

TEST_F(HloImportExportTest, ErrorTwoEntries) {
  expectImportError(R"(HloModule m
ENTRY a {
  ROOT p = f32[] parameter(0)
}
ENTRY b {
  ROOT p = f32[] parameter(0)
}
)",
                    5, 1, "more than one ENTRY computation");
}

TEST_F(HloImportExportTest, ErrorRedefinition) {
  expectImportError(R"(HloModule m

ENTRY main {
  p = f32[2] parameter(0)
  p = f32[2] parameter(1)
  ROOT n = f32[2] add(p, p)
}
)",
                    5, 3, "redefinition of instruction '%p'");
}

TEST_F(HloImportExportTest, ErrorVerifierShapeMismatch) {
  expectImportError(R"(HloModule m

ENTRY main {
  p = f32[2] parameter(0)
  ROOT n = f32[3] negate(p)
}
)",
                    5, 3, "does not match the inferred type");
}

TEST_F(HloImportExportTest, ErrorMalformedAttribute) {
  expectImportError(
      R"(HloModule m

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

ENTRY main {
  p = f32[2] parameter(0)
  ROOT n = f32[2] all-reduce(p), replica_groups=[2,4]<=[4], to_apply=add
}
)",
      11, 34, "malformed iota replica groups '[2,4]<=[4]'");
}

// Errors found inside a literal must point at the literal (line 4), not at
// the same offset counted from the start of the file.
TEST_F(HloImportExportTest, ErrorInLiteralPointsAtLiteral) {
  const char *outOfRange = R"(HloModule m

ENTRY main {
  c = s32[] constant(9999999999)
  ROOT n = s32[] negate(c)
}
)";
  EXPECT_FALSE(import(outOfRange));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("does not fit in 32 bits"),
            std::string::npos)
      << diags[0].message;
  EXPECT_EQ(diags[0].line, 4u) << diags[0].message;
  EXPECT_EQ(diags[0].col, 22u) << diags[0].message;

  const char *tooMany = R"(HloModule m

ENTRY main {
  c = f32[2] constant({1, 2, 3})
  ROOT n = f32[2] negate(c)
}
)";
  EXPECT_FALSE(import(tooMany));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("literal has 3 elements in dimension 0"),
            std::string::npos)
      << diags[0].message;
  EXPECT_EQ(diags[0].line, 4u) << diags[0].message;
}

/// `abs(f32[] abs(f32[] ... p))`, `depth` instructions deep in all.
std::string nestedOperands(int depth) {
  std::string s = "ENTRY e {\n  p = f32[] parameter(0)\n  ROOT r = f32[] ";
  for (int i = 1; i < depth; ++i)
    s += "abs(f32[] ";
  s += "abs(p";
  s += std::string(depth, ')');
  return s + "\n}\n";
}

std::string nestedTupleShape(int depth) {
  return "ENTRY e {\n  ROOT p = " + std::string(depth, '(') + "f32[]" +
         std::string(depth, ')') + " parameter(0)\n}\n";
}

std::string nestedTupleLiteral(int depth) {
  return "ENTRY e {\n  ROOT c = " + std::string(depth, '(') + "f32[]" +
         std::string(depth, ')') + " constant(" + std::string(depth, '(') +
         "1" + std::string(depth, ')') + ")\n}\n";
}

TEST_F(HloImportExportTest, ModerateNestingImports) {
  expectFixedPoint(nestedOperands(40));
  expectFixedPoint(nestedTupleShape(40));
  expectFixedPoint(nestedTupleLiteral(40));
}

// Deeply nested operands, tuple shapes and tuple literals are rejected with
// a diagnostic instead of overflowing the stack (fuzz/crashes/stack_overflow_*).
TEST_F(HloImportExportTest, ErrorDeepNesting) {
  for (int depth : {300, 20000}) {
    expectImportError(nestedOperands(depth), 3, 0, "nesting deeper than");
    expectImportError(nestedTupleShape(depth), 2, 0, "nesting deeper than");
    expectImportError(nestedTupleLiteral(depth), 2, 0, "nesting deeper than");
  }
}

TEST_F(HloImportExportTest, ErrorShapeElementCountOverflow) {
  expectImportError(R"(ENTRY e {
  b = f32[4294967296,4294967296] parameter(0)
  ROOT r = f32[8] reshape(b)
}
)",
                    2, 7, "shape has more than 2^63 elements");
}

//===----------------------------------------------------------------------===//
// Export
//===----------------------------------------------------------------------===//

TEST_F(HloImportExportTest, ExportsSmallModule) {
  OwningOpRef<ModuleOp> m = importOk(kNegate);
  ASSERT_TRUE(m);
  // XLA ends every computation with a blank line; compare without it.
  EXPECT_EQ(StringRef(exportText(*m)).rtrim().str() + "\n", R"(HloModule m, entry_computation_layout={(f32[2])->f32[2]}

ENTRY %main (p: f32[2]) -> f32[2] {
  %p = f32[2] parameter(0)
  ROOT %n = f32[2] negate(%p)
}
)");
}

TEST_F(HloImportExportTest, ExportWithoutEntryFails) {
  OwningOpRef<ModuleOp> m = ModuleOp::create(UnknownLoc::get(&ctx));
  std::string s;
  llvm::raw_string_ostream os(s);
  diags.clear();
  EXPECT_TRUE(failed(exportHloText(*m, os)));
  ASSERT_FALSE(diags.empty());
  EXPECT_NE(diags[0].message.find("ENTRY"), std::string::npos)
      << diags[0].message;
}

//===----------------------------------------------------------------------===//
// Round trips: export(import(export(import(x)))) == export(import(x)).
//===----------------------------------------------------------------------===//

TEST_F(HloImportExportTest, FixedPointElementwise) {
  std::string e = expectFixedPoint(kNegate);
  EXPECT_NE(e.find("ROOT %n = f32[2] negate(%p)"), std::string::npos) << e;
}

TEST_F(HloImportExportTest, FixedPointCallsReduceDotLiteral) {
  std::string e = expectFixedPoint(R"(HloModule calls

%max (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %m = f32[] maximum(%a, %b)
}

%relu (x: f32[8,64]) -> f32[8,64] {
  %x = f32[8,64]{1,0} parameter(0)
  %c = f32[] constant(0)
  %bc = f32[8,64]{1,0} broadcast(%c), dimensions={}
  ROOT %r = f32[8,64]{1,0} maximum(%x, %bc)
}

ENTRY %main (x: f32[8,32], w: f32[32,64]) -> (f32[8], s32[2,2]) {
  %x = f32[8,32]{1,0} parameter(0)
  %w = f32[32,64]{1,0} parameter(1)
  %d = f32[8,64]{1,0} dot(%x, %w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %h = f32[8,64]{1,0} call(%d), to_apply=%relu
  %init = f32[] constant(-inf)
  %red = f32[8]{0} reduce(%h, %init), dimensions={1}, to_apply=%max
  %lit = s32[2,2]{1,0} constant({ { 1, 2 }, { 3, 4 } })
  ROOT %t = (f32[8]{0}, s32[2,2]{1,0}) tuple(%red, %lit)
}
)");
  EXPECT_NE(e.find("to_apply=%relu"), std::string::npos) << e;
  EXPECT_NE(e.find("constant({ {1, 2}, {3, 4} })"), std::string::npos) << e;
}

TEST_F(HloImportExportTest, FixedPointStructuredAttributes) {
  const char *text = R"(HloModule features, num_partitions=8

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}

ENTRY %main (img: f32[1,4,8,8], k: f32[4,4,3,3], v: f32[16]) -> (f32[1,4,8,8], f32[8], f32[20], f32[16], f32[4]) {
  %img = f32[1,4,8,8]{3,2,1,0} parameter(0)
  %k = f32[4,4,3,3]{3,2,1,0} parameter(1)
  %conv = f32[1,4,8,8]{3,2,1,0} convolution(%img, %k), window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01, metadata={op_name="jit(f)/conv" source_file="f.py" source_line=3}
  %v = f32[16]{0} parameter(2), sharding={replicated}
  %sl = f32[8]{0} slice(%v), slice={[0:16:2]}
  %zero = f32[] constant(0)
  %pd = f32[20]{0} pad(%v, %zero), padding=1_3
  %ar = f32[16]{0} all-reduce(%v), replica_groups=[2,4]<=[4,2]T(1,0), to_apply=%add
  %rw = f32[4]{0} reduce-window(%v, %zero), window={size=4 stride=4}, to_apply=%add
  ROOT %t = (f32[1,4,8,8]{3,2,1,0}, f32[8]{0}, f32[20]{0}, f32[16]{0}, f32[4]{0}) tuple(%conv, %sl, %pd, %ar, %rw)
}
)";
  std::string e = expectFixedPoint(text);
  // Everything after the header is printed as written.
  StringRef body = StringRef(text).split('\n').second.rtrim();
  EXPECT_TRUE(StringRef(e).rtrim().ends_with(body)) << e;
  OwningOpRef<ModuleOp> m = importOk(text);
  ASSERT_TRUE(m);
  EXPECT_EQ(countOps(*m, "hlo.convolution"), 1u);
  // The typed attributes are on the ops.
  size_t windows = 0, groups = 0;
  m->walk([&](Operation *op) {
    for (NamedAttribute a : op->getAttrs()) {
      windows += isa<WindowAttr>(a.getValue());
      if (auto g = dyn_cast<ReplicaGroupsAttr>(a.getValue())) {
        ++groups;
        EXPECT_EQ(g.getGroups().size(), 2u);
      }
    }
  });
  EXPECT_EQ(windows, 2u);
  EXPECT_EQ(groups, 1u);
}

TEST_F(HloImportExportTest, FixedPointLayoutsAndShardings) {
  std::string e = expectFixedPoint(R"(HloModule layouts, num_partitions=8

ENTRY %main (a: f32[16,256], b: s4[64], c: f32[2,3], d: f32[8,16]) -> (f32[16,256], s4[64], f32[2,3], f32[8,16], pred[]) {
  %a = f32[16,256]{1,0:T(8,128)} parameter(0)
  %b = s4[64]{0:T(1024)(128)(2,1)E(4)} parameter(1)
  %c = f32[2,3]{0,1:S(1)} parameter(2)
  %d = f32[8,16]{1,0} parameter(3), sharding={devices=[2,4]<=[8]}
  %n = f32[8,16]{1,0} negate(%d), sharding={devices=[4,2]<=[2,4]T(1,0)}
  %p = pred[] constant(true)
  ROOT %r = (f32[16,256]{1,0:T(8,128)}, s4[64]{0:T(1024)(128)(2,1)E(4)}, f32[2,3]{0,1:S(1)}, f32[8,16]{1,0}, pred[]) tuple(%a, %b, %c, %n, %p), sharding={{replicated}, {replicated}, {replicated}, {manual}, {maximal device=0}}
}
)");
  EXPECT_NE(e.find("s4[64]{0:T(1024)(128)(2,1)E(4)}"), std::string::npos) << e;
  EXPECT_NE(e.find("sharding={devices=[4,2]<=[2,4]T(1,0)}"), std::string::npos)
      << e;
}

TEST_F(HloImportExportTest, FixedPointFromNonCanonicalSpelling) {
  // No `%`, no header layout, spaces and comments, default window fields:
  // the first export canonicalizes, the second one changes nothing.
  std::string e = expectFixedPoint(R"(HloModule   loose

sum   {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT  s = f32[]  add( x , y )
}

ENTRY  main  {
  v = f32[16]   parameter(0)   // the input
  z = f32[] constant( 0 )
  rw = f32[4] reduce-window(v, z), window={ size=4  stride=4 pad=0_0 lhs_dilate=1 }, to_apply=sum
  ROOT r = f32[4] /* done */ negate(rw)
}
)");
  EXPECT_NE(e.find("window={size=4 stride=4}"), std::string::npos) << e;
}

// `*` in a tile (XLA's combined dimension) survives HLO text, and must
// survive the MLIR text form too (hlo-translate --hlo-to-mlir | --mlir-to-hlo).
TEST_F(HloImportExportTest, FixedPointCombinedTileDim) {
  std::string e = expectFixedPoint(R"(HloModule tiles

ENTRY %main (a: f32[4,256]) -> f32[4,256] {
  ROOT %a = f32[4,256]{1,0:T(2,128)(*,1)} parameter(0)
}
)");
  EXPECT_NE(e.find("{1,0:T(2,128)(*,1)}"), std::string::npos) << e;
}

} // namespace
