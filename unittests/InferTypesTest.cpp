//===- InferTypesTest.cpp - result-type inference and builders ------------===//
//
// Builders that take no result type (`createInferred`, the ODS builders of
// InferTypeOpInterface ops) produce the type HLO's shape rules give, reject
// operands the rules reject (a diagnostic, nothing created), and agree with
// the verifier: every op built this way verifies.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace mlir::hlo;

namespace {

class InferTypesTest : public ::testing::Test {
protected:
  InferTypesTest() : b(&ctx) {
    ctx.loadDialect<HloDialect>();
    module = ModuleOp::create(b.getUnknownLoc());
    auto fnType = b.getFunctionType({f32(2, 3), f32(2, 3)}, {f32(2, 3)});
    comp = ComputationOp::create(b, b.getUnknownLoc(), "main", StringAttr(),
                                 fnType, ArrayAttr(), ArrayAttr(),
                                 /*entry=*/true, StringAttr());
    module.push_back(comp);
    block = new Block();
    comp.getBody().push_back(block);
    x = block->addArgument(f32(2, 3), b.getUnknownLoc());
    y = block->addArgument(f32(2, 3), b.getUnknownLoc());
    b.setInsertionPointToEnd(block);
  }
  ~InferTypesTest() override { module->erase(); }

  Type f32(ArrayRef<int64_t> dims) {
    return RankedTensorType::get(dims, b.getF32Type());
  }
  Type f32(int64_t a, int64_t c) { return f32({a, c}); }
  std::string str(Type t) {
    std::string s;
    llvm::raw_string_ostream os(s);
    t.print(os);
    return s;
  }

  MLIRContext ctx;
  OpBuilder b;
  ModuleOp module;
  ComputationOp comp;
  Block *block;
  Value x, y;
};

TEST_F(InferTypesTest, ElementwiseAndCompare) {
  Location loc = b.getUnknownLoc();
  auto add = createInferred<AddOp>(b, loc, {x, y});
  ASSERT_TRUE(add);
  EXPECT_EQ(add.getType(), f32(2, 3));
  auto cmp = createInferred<CompareOp>(
      b, loc, {x, y},
      {b.getNamedAttr("direction", ComparisonDirectionAttr::get(
                                       &ctx, ComparisonDirection::LT))});
  ASSERT_TRUE(cmp);
  EXPECT_EQ(str(cmp.getType()), "tensor<2x3xi1>");
  // The ODS builder of an InferTypeOpInterface op needs no result type.
  auto neg = NegOp::create(b, loc, ValueRange{add}, ArrayRef<NamedAttribute>{});
  EXPECT_EQ(neg.getType(), f32(2, 3));
}

TEST_F(InferTypesTest, ShapeOps) {
  Location loc = b.getUnknownLoc();
  auto t = createInferred<TransposeOp>(
      b, loc, {x},
      {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({1, 0}))});
  ASSERT_TRUE(t);
  // As in XLA, the result keeps the operand's physical (default) layout.
  EXPECT_EQ(str(t.getType()), "tensor<3x2xf32, #hlo.layout<[0, 1]>>");
  auto dot = createInferred<DotOp>(
      b, loc, {x, t},
      {b.getNamedAttr("lhs_contracting_dims", b.getDenseI64ArrayAttr({1})),
       b.getNamedAttr("rhs_contracting_dims", b.getDenseI64ArrayAttr({0}))});
  ASSERT_TRUE(dot);
  EXPECT_EQ(dot.getType(), f32(2, 2));
  auto cat = createInferred<ConcatenateOp>(
      b, loc, {x, dot},
      {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({1}))});
  ASSERT_TRUE(cat);
  EXPECT_EQ(cat.getType(), f32(2, 5));
  auto tuple = createInferred<TupleOp>(b, loc, {x, cat});
  ASSERT_TRUE(tuple);
  auto gte = createInferred<GetTupleElementOp>(
      b, loc, {tuple}, {b.getNamedAttr("index", b.getI64IntegerAttr(1))});
  ASSERT_TRUE(gte);
  EXPECT_EQ(gte.getType(), f32(2, 5));
  ReturnOp::create(b, loc, x);
  // Everything built with an inferred type verifies.
  EXPECT_TRUE(succeeded(verify(module.getOperation())));
}

TEST_F(InferTypesTest, RejectedOperandsCreateNothing) {
  Location loc = b.getUnknownLoc();
  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    message = d.str();
    return success();
  });
  auto t = createInferred<TransposeOp>(
      b, loc, {x},
      {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({0, 0}))});
  EXPECT_FALSE(t);
  EXPECT_NE(message.find("must be a permutation"), std::string::npos)
      << message;
  EXPECT_TRUE(block->empty());
  // broadcast's result is not determined by its operand.
  auto bcast = createInferred<BroadcastOp>(
      b, loc, {x},
      {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({0, 1}))});
  EXPECT_FALSE(bcast);
  EXPECT_NE(message.find("no result type rule"), std::string::npos) << message;
  EXPECT_TRUE(block->empty());
}

} // namespace
