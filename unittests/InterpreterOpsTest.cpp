//===- InterpreterOpsTest.cpp - interpreter op families
//---------------------===//
//
// Called computations and control flow, reductions, windows, sorting,
// gather/scatter, dot, convolution and the linear-algebra ops of the
// reference interpreter, with hand-computed expected literals.
//
//===----------------------------------------------------------------------===//

#include "InterpreterTestUtil.h"

using namespace interpreter_test;

namespace {

//===----------------------------------------------------------------------===//
// Tuples, calls and control flow.
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, CallAndParameters) {
  const char *hlo = R"(
HloModule m
twice {
  x = f32[2] parameter(0)
  ROOT y = f32[2] add(x, x)
}
ENTRY e {
  p = f32[2] parameter(0)
  q = s32[] parameter(1)
  c = f32[2] call(p), to_apply=twice
  ROOT t = (f32[2], s32[]) tuple(c, q)
}
)";
  EXPECT_EQ(run(hlo, {lit("f32[2]", "{1.5, -2}"), lit("s32[]", "7")}),
            "(f32[2], s32[]) ({3, -4}, 7)");
}

TEST_F(InterpreterTest, WhileLoop) {
  // Sums 1..10.
  const char *hlo = R"(
HloModule m
cond {
  s = (s32[], s32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(10)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], s32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  acc = s32[] get-tuple-element(s), index=1
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  acc1 = s32[] add(acc, i1)
  ROOT r = (s32[], s32[]) tuple(i1, acc1)
}
ENTRY e {
  z = s32[] constant(0)
  init = (s32[], s32[]) tuple(z, z)
  w = (s32[], s32[]) while(init), condition=cond, body=body
  ROOT sum = s32[] get-tuple-element(w), index=1
}
)";
  EXPECT_EQ(run(hlo), "s32[] 55");
  InterpreterOptions options;
  options.maxWhileIterations = 5;
  EXPECT_NE(run(hlo, {}, options).find("more than 5 while-loop iterations"),
            std::string::npos);
}

TEST_F(InterpreterTest, Conditional) {
  const char *hlo = R"(
HloModule m
neg {
  x = f32[] parameter(0)
  ROOT y = f32[] negate(x)
}
dbl {
  x = f32[] parameter(0)
  ROOT y = f32[] add(x, x)
}
ident {
  x = f32[] parameter(0)
  ROOT y = f32[] copy(x)
}
ENTRY e {
  i = s32[] parameter(0)
  p = pred[] parameter(1)
  x = f32[] constant(3)
  a = f32[] conditional(i, x, x, x), branch_computations={neg, dbl, ident}
  b = f32[] conditional(p, x, x), true_computation=neg, false_computation=dbl
  ROOT t = (f32[], f32[]) tuple(a, b)
}
)";
  EXPECT_EQ(run(hlo, {lit("s32[]", "1"), lit("pred[]", "true")}),
            "(f32[], f32[]) (6, -3)");
  EXPECT_EQ(run(hlo, {lit("s32[]", "0"), lit("pred[]", "false")}),
            "(f32[], f32[]) (-3, 6)");
  // Out-of-range indices run the last branch.
  EXPECT_EQ(run(hlo, {lit("s32[]", "7"), lit("pred[]", "false")}),
            "(f32[], f32[]) (3, 6)");
  EXPECT_EQ(run(hlo, {lit("s32[]", "-1"), lit("pred[]", "false")}),
            "(f32[], f32[]) (3, 6)");
}

TEST_F(InterpreterTest, MapAndFusion) {
  const char *hlo = R"(
HloModule m
muladd {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  m = f32[] multiply(x, y)
  ROOT r = f32[] add(m, x)
}
fused {
  a = f32[3] parameter(0)
  b = f32[3] parameter(1)
  ROOT s = f32[3] subtract(a, b)
}
ENTRY e {
  a = f32[3] constant({1, 2, 3})
  b = f32[3] constant({4, 5, 6})
  m = f32[3] map(a, b), dimensions={0}, to_apply=muladd
  ROOT f = f32[3] fusion(m, a), kind=kLoop, calls=fused
}
)";
  // m = a*b + a = {5, 12, 21}; f = m - a = {4, 10, 18}.
  EXPECT_EQ(run(hlo), "f32[3] {4, 10, 18}");
}

TEST_F(InterpreterTest, AsyncChainRunsSynchronously) {
  const char *hlo = R"(
HloModule m
region {
  x = f32[2] parameter(0)
  ROOT y = f32[2] negate(x)
}
ENTRY e {
  a = f32[2] constant({1, -2})
  s = ((f32[2]), f32[2], s32[]) async-start(a), calls=region
  u = ((f32[2]), f32[2], s32[]) async-update(s)
  d = f32[2] async-done(u)
  cs = (f32[2], f32[2], u32[]) copy-start(d)
  cd = f32[2] copy-done(cs)
  ROOT t = (f32[2], f32[2]) tuple(d, cd)
}
)";
  EXPECT_EQ(run(hlo), "(f32[2], f32[2]) ({-1, 2}, {-1, 2})");
}

TEST_F(InterpreterTest, AsyncSugar) {
  const char *hlo = R"(
HloModule m
ENTRY e {
  a = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
  s = ((f32[2,3]), f32[3,2], s32[]) transpose-start(a), dimensions={1,0}
  ROOT d = f32[3,2] transpose-done(s)
}
)";
  EXPECT_EQ(run(hlo), "f32[3,2] {{1, 4}, {2, 5}, {3, 6}}");
}

//===----------------------------------------------------------------------===//
// Reductions, windows, sorting.
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, Reduce) {
  EXPECT_EQ(run(withComputations(
                "a = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
                "z = f32[] constant(0)\n"
                "ROOT r = f32[2] reduce(a, z), dimensions={1}, to_apply=add")),
            "f32[2] {6, 15}");
  EXPECT_EQ(run(withComputations(
                "a = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
                "z = f32[] constant(10)\n"
                "ROOT r = f32[] reduce(a, z), dimensions={0,1}, to_apply=add")),
            "f32[] 31");
  EXPECT_EQ(run(withComputations(
                "a = f32[2,3] constant({{1, 9, 3}, {4, 5, 6}})\n"
                "z = f32[] constant(-inf)\n"
                "ROOT r = f32[3] reduce(a, z), dimensions={0}, to_apply=max")),
            "f32[3] {4, 9, 6}");
}

TEST_F(InterpreterTest, VariadicReduceArgmax) {
  const char *hlo = R"(
HloModule m
argmax {
  a = f32[] parameter(0)
  b = s32[] parameter(1)
  c = f32[] parameter(2)
  d = s32[] parameter(3)
  ge = pred[] compare(a, c), direction=GE
  v = f32[] select(ge, a, c)
  i = s32[] select(ge, b, d)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
ENTRY e {
  x = f32[4] constant({3, 7, 7, 1})
  i = s32[4] iota(), iota_dimension=0
  ninf = f32[] constant(-inf)
  m1 = s32[] constant(-1)
  ROOT r = (f32[], s32[]) reduce(x, i, ninf, m1), dimensions={0},
      to_apply=argmax
}
)";
  EXPECT_EQ(run(hlo), "(f32[], s32[]) (7, 1)");
}

TEST_F(InterpreterTest, ReduceWindow) {
  EXPECT_EQ(run(withComputations(
                "a = f32[4] constant({1, 2, 3, 4})\nz = f32[] constant(0)\n"
                "ROOT r = f32[3] reduce-window(a, z), window={size=2}, "
                "to_apply=add")),
            "f32[3] {3, 5, 7}");
  EXPECT_EQ(run(withComputations(
                "a = f32[4] constant({1, 2, 3, 4})\nz = f32[] constant(0)\n"
                "ROOT r = f32[5] reduce-window(a, z), window={size=2 "
                "pad=1_1}, to_apply=add")),
            "f32[5] {1, 3, 5, 7, 4}");
  // Base dilation {1, _, 2, _, 3}; holes are skipped.
  EXPECT_EQ(run(withComputations(
                "a = f32[3] constant({1, 2, 3})\nz = f32[] constant(0)\n"
                "ROOT r = f32[4] reduce-window(a, z), window={size=2 "
                "lhs_dilate=2}, to_apply=add")),
            "f32[4] {1, 2, 2, 3}");
  // Window dilation: taps 0 and 2.
  EXPECT_EQ(run(withComputations(
                "a = f32[4] constant({1, 2, 3, 4})\nz = f32[] constant(0)\n"
                "ROOT r = f32[2] reduce-window(a, z), window={size=2 "
                "rhs_dilate=2}, to_apply=add")),
            "f32[2] {4, 6}");
  // 2x2 max pooling with stride 2.
  EXPECT_EQ(run(withComputations(
                "a = f32[4,4] constant({{1, 2, 3, 4}, {5, 6, 7, 8}, "
                "{9, 10, 11, 12}, {13, 14, 15, 16}})\n"
                "z = f32[] constant(-inf)\n"
                "ROOT r = f32[2,2] reduce-window(a, z), window={size=2x2 "
                "stride=2x2}, to_apply=max")),
            "f32[2,2] {{6, 8}, {14, 16}}");
}

TEST_F(InterpreterTest, SelectAndScatter) {
  EXPECT_EQ(run(withComputations(
                "a = f32[4] constant({1, 5, 2, 8})\n"
                "s = f32[2] constant({10, 20})\nz = f32[] constant(0)\n"
                "ROOT r = f32[4] select-and-scatter(a, s, z), "
                "window={size=2 stride=2}, select=ge, scatter=add")),
            "f32[4] {0, 10, 0, 20}");
  // Overlapping windows both select the 5.
  EXPECT_EQ(run(withComputations(
                "a = f32[3] constant({1, 5, 2})\n"
                "s = f32[2] constant({10, 20})\nz = f32[] constant(0)\n"
                "ROOT r = f32[3] select-and-scatter(a, s, z), "
                "window={size=2}, select=ge, scatter=add")),
            "f32[3] {0, 30, 0}");
}

TEST_F(InterpreterTest, SortWithComparator) {
  EXPECT_EQ(run(withComputations(
                "a = f32[5] constant({3, 1, 2, -inf, 0.5})\n"
                "ROOT r = f32[5] sort(a), dimensions={0}, to_apply=lt")),
            "f32[5] {-inf, 0.5, 1, 2, 3}");
  EXPECT_EQ(run(withComputations(
                "a = f32[2,3] constant({{3, 1, 2}, {0, 5, 4}})\n"
                "ROOT r = f32[2,3] sort(a), dimensions={1}, to_apply=ge")),
            "f32[2,3] {{3, 2, 1}, {5, 4, 0}}");
  EXPECT_EQ(run(withComputations(
                "a = f32[2,3] constant({{3, 1, 2}, {0, 5, 4}})\n"
                "ROOT r = f32[2,3] sort(a), dimensions={0}, to_apply=lt")),
            "f32[2,3] {{0, 1, 2}, {3, 5, 4}}");
  // Keys and values; a stable sort keeps equal keys in order.
  const char *hlo = R"(
HloModule m
cmp {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT
}
ENTRY e {
  k = f32[4] constant({3, 1, 2, 1})
  v = s32[4] constant({0, 1, 2, 3})
  ROOT r = (f32[4], s32[4]) sort(k, v), dimensions={0}, is_stable=true,
      to_apply=cmp
}
)";
  EXPECT_EQ(run(hlo), "(f32[4], s32[4]) ({1, 1, 2, 3}, {1, 3, 2, 0})");
}

TEST_F(InterpreterTest, TopK) {
  EXPECT_EQ(runBody("a = f32[2,5] constant({{1, 5, 3, 5, 2}, {0, -1, 9, 8, "
                    "7}})\n"
                    "ROOT t = (f32[2,3], s32[2,3]) topk(a), k=3, largest=true"),
            "(f32[2,3], s32[2,3]) ({{5, 5, 3}, {9, 8, 7}}, {{1, 3, 2}, "
            "{2, 3, 4}})");
}

//===----------------------------------------------------------------------===//
// Gather and scatter.
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, Gather) {
  const char *rows = "a = s32[3,3] constant({{1, 2, 3}, {4, 5, 6}, {7, 8, "
                     "9}})\n";
  EXPECT_EQ(runBody(std::string(rows) +
                    "i = s32[2] constant({0, 2})\n"
                    "ROOT g = s32[2,3] gather(a, i), offset_dims={1}, "
                    "collapsed_slice_dims={0}, start_index_map={0}, "
                    "index_vector_dim=1, slice_sizes={1,3}"),
            "s32[2,3] {{1, 2, 3}, {7, 8, 9}}");
  // Start indices are clamped so that the slice fits.
  EXPECT_EQ(runBody(std::string(rows) +
                    "i = s32[2] constant({5, -1})\n"
                    "ROOT g = s32[2,3] gather(a, i), offset_dims={1}, "
                    "collapsed_slice_dims={0}, start_index_map={0}, "
                    "index_vector_dim=1, slice_sizes={1,3}"),
            "s32[2,3] {{7, 8, 9}, {1, 2, 3}}");
  // 2x2 patches at index vectors (0, 0) and (1, 1).
  EXPECT_EQ(runBody(std::string(rows) +
                    "i = s32[2,2] constant({{0, 0}, {1, 1}})\n"
                    "ROOT g = s32[2,2,2] gather(a, i), offset_dims={1,2}, "
                    "collapsed_slice_dims={}, start_index_map={0,1}, "
                    "index_vector_dim=1, slice_sizes={2,2}"),
            "s32[2,2,2] {{{1, 2}, {4, 5}}, {{5, 6}, {8, 9}}}");
  // Batching dims: row b of the operand indexed by indices[b].
  EXPECT_EQ(runBody(std::string(rows) +
                    "i = s32[3,1] constant({{2}, {0}, {1}})\n"
                    "ROOT g = s32[3] gather(a, i), offset_dims={}, "
                    "collapsed_slice_dims={1}, start_index_map={1}, "
                    "operand_batching_dims={0}, "
                    "start_indices_batching_dims={0}, "
                    "index_vector_dim=1, slice_sizes={1,1}"),
            "s32[3] {3, 4, 8}");
}

TEST_F(InterpreterTest, Scatter) {
  const char *add = R"(
HloModule m
add {
  x = s32[] parameter(0)
  y = s32[] parameter(1)
  ROOT s = s32[] add(x, y)
}
)";
  // Repeated indices accumulate; out-of-bounds updates are skipped.
  EXPECT_EQ(run(std::string(add) + R"(
ENTRY e {
  a = s32[5] constant({1, 2, 3, 4, 5})
  i = s32[4,1] constant({{0}, {2}, {0}, {5}})
  u = s32[4] constant({10, 20, 30, 40})
  ROOT s = s32[5] scatter(a, i, u), update_window_dims={},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, to_apply=add
})"),
            "s32[5] {41, 2, 23, 4, 5}");
  // A row window; the window at row 2 would not fit... at row 1 it does.
  EXPECT_EQ(run(std::string(add) + R"(
ENTRY e {
  a = s32[3,3] constant({{0, 0, 0}, {0, 0, 0}, {0, 0, 0}})
  i = s32[2] constant({1, 3})
  u = s32[2,3] constant({{1, 2, 3}, {4, 5, 6}})
  ROOT s = s32[3,3] scatter(a, i, u), update_window_dims={1},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, to_apply=add
})"),
            "s32[3,3] {{0, 0, 0}, {1, 2, 3}, {0, 0, 0}}");
}

TEST_F(InterpreterTest, VariadicScatter) {
  const char *hlo = R"(
HloModule m
both {
  a = s32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = f32[] parameter(3)
  s = s32[] add(a, c)
  m = f32[] multiply(b, d)
  ROOT t = (s32[], f32[]) tuple(s, m)
}
ENTRY e {
  x = s32[3] constant({1, 1, 1})
  y = f32[3] constant({1, 1, 1})
  i = s32[2,1] constant({{2}, {2}})
  u = s32[2] constant({5, 6})
  v = f32[2] constant({2, 3})
  ROOT s = (s32[3], f32[3]) scatter(x, y, i, u, v), update_window_dims={},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, to_apply=both
}
)";
  EXPECT_EQ(run(hlo), "(s32[3], f32[3]) ({1, 1, 12}, {1, 1, 6})");
}

//===----------------------------------------------------------------------===//
// Dot, convolution and linear algebra.
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, Dot) {
  EXPECT_EQ(runBody("a = f32[2,2] constant({{1, 2}, {3, 4}})\n"
                    "b = f32[2,2] constant({{5, 6}, {7, 8}})\n"
                    "ROOT d = f32[2,2] dot(a, b), lhs_contracting_dims={1}, "
                    "rhs_contracting_dims={0}"),
            "f32[2,2] {{19, 22}, {43, 50}}");
  EXPECT_EQ(runBody("a = f32[2,1,2] constant({{{1, 2}}, {{5, 6}}})\n"
                    "b = f32[2,2,1] constant({{{3}, {4}}, {{7}, {8}}})\n"
                    "ROOT d = f32[2,1,1] dot(a, b), lhs_batch_dims={0}, "
                    "rhs_batch_dims={0}, lhs_contracting_dims={2}, "
                    "rhs_contracting_dims={1}"),
            "f32[2,1,1] {{{11}}, {{83}}}");
  EXPECT_EQ(runBody("a = s8[3] constant({100, 100, -128})\n"
                    "b = s8[3] constant({100, 2, 1})\n"
                    "ROOT d = s32[] dot(a, b), lhs_contracting_dims={0}, "
                    "rhs_contracting_dims={0}"),
            "s32[] 10072");
  // Outer product: no contracting dims; bf16 operands, f32 result.
  EXPECT_EQ(runBody("a = bf16[2] constant({1, 2})\n"
                    "b = bf16[3] constant({1, 0.5, 3})\n"
                    "ROOT d = f32[2,3] dot(a, b)"),
            "f32[2,3] {{1, 0.5, 3}, {2, 1, 6}}");
}

TEST_F(InterpreterTest, RaggedAndScaledDot) {
  // Rows {0}, {1, 2} use rhs[0], rhs[1]; row 3 is past the groups.
  EXPECT_EQ(runBody("a = f32[4,3] constant({{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, "
                    "{9, 10, 11}})\n"
                    "b = f32[2,3,2] constant({{{0, 1}, {2, 3}, {4, 5}}, "
                    "{{6, 7}, {8, 9}, {10, 11}}})\n"
                    "g = s32[2] constant({1, 2})\n"
                    "ROOT d = f32[4,2] ragged-dot(a, b, g), "
                    "lhs_contracting_dims={1}, rhs_contracting_dims={1}, "
                    "lhs_ragged_dims={0}, rhs_group_dims={0}"),
            "f32[4,2] {{10, 13}, {100, 112}, {172, 193}, {0, 0}}");
  // Ragged contracting dimension: a leading group dimension.
  EXPECT_EQ(runBody("a = f32[2,4] constant({{1, 1, 1, 1}, {1, 2, 3, 4}})\n"
                    "b = f32[4,3] constant({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, "
                    "{1, 1, 1}})\n"
                    "g = s32[2] constant({1, 3})\n"
                    "ROOT d = f32[2,2,3] ragged-dot(a, b, g), "
                    "lhs_contracting_dims={1}, rhs_contracting_dims={0}, "
                    "lhs_ragged_dims={1}"),
            "f32[2,2,3] {{{1, 0, 0}, {1, 0, 0}}, {{1, 2, 2}, {4, 6, 7}}}");
  // Group sizes per batch element: batch 0 puts both rows in group 0,
  // batch 1 its row 0 in group 1 and row 1 in none.
  EXPECT_EQ(runBody("a = f32[2,2,1] constant({{{1}, {2}}, {{3}, {4}}})\n"
                    "b = f32[2,2,1,1] constant({{{{10}}, {{20}}}, "
                    "{{{30}}, {{40}}}})\n"
                    "g = s32[2,2] constant({{2, 0}, {0, 1}})\n"
                    "ROOT d = f32[2,2,1] ragged-dot(a, b, g), "
                    "lhs_batch_dims={0}, rhs_batch_dims={0}, "
                    "lhs_contracting_dims={2}, rhs_contracting_dims={2}, "
                    "lhs_ragged_dims={1}, rhs_group_dims={1}"),
            "f32[2,2,1] {{{10}, {20}}, {{120}, {0}}}");
  // Scales cover blocks of 2 along the contracting dimension.
  EXPECT_EQ(runBody("a = f32[2,4] constant({{1, 1, 1, 1}, {1, 1, 1, 1}})\n"
                    "as = f32[2,2] constant({{1, 2}, {3, 4}})\n"
                    "b = f32[4,1] constant({{1}, {1}, {1}, {1}})\n"
                    "bs = f32[2,1] constant({{1}, {10}})\n"
                    "ROOT d = f32[2,1] scaled-dot(a, b, as, bs), "
                    "lhs_contracting_dims={1}, rhs_contracting_dims={0}"),
            "f32[2,1] {{42}, {86}}");
}

TEST_F(InterpreterTest, Convolution) {
  const char *x = "x = f32[1,1,5] constant({{{1, 2, 3, 4, 5}}})\n"
                  "k = f32[1,1,3] constant({{{1, 0, -1}}})\n";
  auto conv = [&](StringRef resultShape, StringRef window) {
    return runBody(
        (x + ("ROOT c = " + resultShape + " convolution(x, k), window={" +
              window + "}, dim_labels=bf0_oi0->bf0"))
            .str());
  };
  EXPECT_EQ(conv("f32[1,1,3]", "size=3"), "f32[1,1,3] {{{-2, -2, -2}}}");
  EXPECT_EQ(conv("f32[1,1,5]", "size=3 pad=1_1"),
            "f32[1,1,5] {{{-2, -2, -2, -2, 4}}}");
  EXPECT_EQ(conv("f32[1,1,2]", "size=3 stride=2"), "f32[1,1,2] {{{-2, -2}}}");
  EXPECT_EQ(conv("f32[1,1,1]", "size=3 rhs_dilate=2"), "f32[1,1,1] {{{-4}}}");
  EXPECT_EQ(conv("f32[1,1,3]", "size=3 rhs_reversal=1"),
            "f32[1,1,3] {{{2, 2, 2}}}");
  // Base dilation {1, 0, 2, 0, 3} with kernel {1, 1}.
  EXPECT_EQ(runBody("x = f32[1,1,3] constant({{{1, 2, 3}}})\n"
                    "k = f32[1,1,2] constant({{{1, 1}}})\n"
                    "ROOT c = f32[1,1,4] convolution(x, k), "
                    "window={size=2 lhs_dilate=2}, dim_labels=bf0_oi0->bf0"),
            "f32[1,1,4] {{{1, 2, 2, 3}}}");
}

TEST_F(InterpreterTest, GroupedConvolution) {
  // Two feature groups: output feature g reads input feature g.
  EXPECT_EQ(runBody("x = f32[1,2,3] constant({{{1, 2, 3}, {4, 5, 6}}})\n"
                    "k = f32[2,1,1] constant({{{2}}, {{3}}})\n"
                    "ROOT c = f32[1,2,3] convolution(x, k), window={size=1}, "
                    "dim_labels=bf0_oi0->bf0, feature_group_count=2"),
            "f32[1,2,3] {{{2, 4, 6}, {12, 15, 18}}}");
  // Two batch groups: output feature g reads input batches g*2 .. g*2+1.
  EXPECT_EQ(runBody("x = f32[4,1,1] constant({{{1}}, {{2}}, {{3}}, {{4}}})\n"
                    "k = f32[2,1,1] constant({{{1}}, {{1}}})\n"
                    "ROOT c = f32[2,2,1] convolution(x, k), window={size=1}, "
                    "dim_labels=bf0_oi0->bf0, batch_group_count=2"),
            "f32[2,2,1] {{{1}, {3}}, {{2}, {4}}}");
  // NHWC / HWIO 2-D convolution summing 2x2 windows over 2 input features.
  EXPECT_EQ(runBody("x = f32[1,2,2,2] constant({{{{1, 10}, {2, 20}}, "
                    "{{3, 30}, {4, 40}}}})\n"
                    "k = f32[2,2,2,1] constant({{{{1}, {1}}, {{1}, {1}}}, "
                    "{{{1}, {1}}, {{1}, {1}}}})\n"
                    "ROOT c = f32[1,1,1,1] convolution(x, k), "
                    "window={size=2x2}, dim_labels=b01f_01io->b01f"),
            "f32[1,1,1,1] {{{{110}}}}");
}

TEST_F(InterpreterTest, TriangularSolveAndCholesky) {
  const char *a = "a = f32[2,2] constant({{2, 7}, {1, 1}})\n";
  EXPECT_EQ(runBody(std::string(a) +
                    "b = f32[2,1] constant({{2}, {3}})\n"
                    "ROOT x = f32[2,1] triangular-solve(a, b), "
                    "left_side=true, lower=true, "
                    "transpose_a=NO_TRANSPOSE"),
            "f32[2,1] {{1}, {2}}");
  EXPECT_EQ(runBody(std::string(a) +
                    "b = f32[2,1] constant({{2}, {3}})\n"
                    "ROOT x = f32[2,1] triangular-solve(a, b), "
                    "left_side=true, lower=true, transpose_a=TRANSPOSE"),
            "f32[2,1] {{-0.5}, {3}}");
  EXPECT_EQ(runBody(std::string(a) +
                    "b = f32[1,2] constant({{4, 1}})\n"
                    "ROOT x = f32[1,2] triangular-solve(a, b), "
                    "left_side=false, lower=true, "
                    "transpose_a=NO_TRANSPOSE"),
            "f32[1,2] {{1.5, 1}}");
  EXPECT_EQ(runBody(std::string(a) +
                    "b = f32[2,1] constant({{2}, {3}})\n"
                    "ROOT x = f32[2,1] triangular-solve(a, b), "
                    "left_side=true, lower=true, unit_diagonal=true, "
                    "transpose_a=NO_TRANSPOSE"),
            "f32[2,1] {{2}, {1}}");
  EXPECT_EQ(runBody("a = f32[2,2] constant({{4, 9}, {2, 5}})\n"
                    "ROOT l = f32[2,2] cholesky(a), lower=true"),
            "f32[2,2] {{2, 0}, {1, 2}}");
  EXPECT_EQ(runBody("a = f32[2,2] constant({{4, 2}, {9, 5}})\n"
                    "ROOT u = f32[2,2] cholesky(a), lower=false"),
            "f32[2,2] {{2, 1}, {0, 2}}");
  // Not positive definite (read from the lower triangle): all NaN.
  EXPECT_EQ(runBody("a = f32[2,2] constant({{4, 2}, {9, 5}})\n"
                    "ROOT u = f32[2,2] cholesky(a), lower=true"),
            "f32[2,2] {{nan, nan}, {nan, nan}}");
}

TEST_F(InterpreterTest, Fft) {
  EXPECT_EQ(runBody("a = c64[4] constant({(0, 0), (1, 0), (0, 0), (0, 0)})\n"
                    "ROOT f = c64[4] fft(a), fft_type=FFT, fft_length={4}"),
            "c64[4] {(1, 0), (0, -1), (-1, 0), (0, 1)}");
  EXPECT_EQ(runBody("a = c64[4] constant({(4, 0), (0, 0), (0, 0), (0, 0)})\n"
                    "ROOT f = c64[4] fft(a), fft_type=IFFT, fft_length={4}"),
            "c64[4] {(1, 0), (1, 0), (1, 0), (1, 0)}");
  EXPECT_EQ(runBody("a = f32[4] constant({1, 2, 3, 4})\n"
                    "ROOT f = c64[3] fft(a), fft_type=RFFT, fft_length={4}"),
            "c64[3] {(10, 0), (-2, 2), (-2, 0)}");
  EXPECT_EQ(runBody("a = c64[3] constant({(10, 0), (-2, 2), (-2, 0)})\n"
                    "ROOT f = f32[4] fft(a), fft_type=IRFFT, fft_length={4}"),
            "f32[4] {1, 2, 3, 4}");
  // 2-D: a single 1 at the origin transforms to all ones.
  EXPECT_EQ(runBody("a = c64[2,2] constant({{(1, 0), (0, 0)}, {(0, 0), (0, "
                    "0)}})\n"
                    "ROOT f = c64[2,2] fft(a), fft_type=FFT, "
                    "fft_length={2,2}"),
            "c64[2,2] {{(1, 0), (1, 0)}, {(1, 0), (1, 0)}}");
}

TEST_F(InterpreterTest, BatchNorm) {
  EXPECT_EQ(runBody("x = f32[2,2] constant({{1, 2}, {3, 4}})\n"
                    "s = f32[2] constant({1, 2})\no = f32[2] constant({0, 1})\n"
                    "m = f32[2] constant({2, 3})\nv = f32[2] constant({1, 1})\n"
                    "ROOT y = f32[2,2] batch-norm-inference(x, s, o, m, v), "
                    "epsilon=0, feature_index=1"),
            "f32[2,2] {{-1, -1}, {1, 3}}");
  EXPECT_EQ(runBody("x = f32[2,2] constant({{1, 2}, {3, 6}})\n"
                    "s = f32[2] constant({1, 1})\no = f32[2] constant({0, 0})\n"
                    "ROOT y = (f32[2,2], f32[2], f32[2]) "
                    "batch-norm-training(x, s, o), epsilon=0, "
                    "feature_index=1"),
            "(f32[2,2], f32[2], f32[2]) ({{-1, -1}, {1, 1}}, {2, 4}, {1, 4})");
  // mean 1, variance 3, epsilon 1: 1/sqrt(var + eps) = 0.5.
  EXPECT_EQ(runBody("x = f32[4,1] constant({{0}, {0}, {0}, {4}})\n"
                    "s = f32[1] constant({1})\nm = f32[1] constant({1})\n"
                    "v = f32[1] constant({3})\n"
                    "dy = f32[4,1] constant({{1}, {0}, {0}, {0}})\n"
                    "ROOT g = (f32[4,1], f32[1], f32[1]) "
                    "batch-norm-grad(x, s, m, v, dy), epsilon=1, "
                    "feature_index=1"),
            "(f32[4,1], f32[1], f32[1]) ({{0.34375}, {-0.15625}, "
            "{-0.15625}, {-0.03125}}, {-0.5}, {1})");
}

//===----------------------------------------------------------------------===//
// scan, infeed / outfeed, dynamic dimensions.
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, ScanErrors) {
  const char *comps = R"(
HloModule m
sum {
  x = f32[] parameter(0)
  c = f32[] parameter(1)
  s = f32[] add(x, c)
  ROOT t = (f32[], f32[]) tuple(s, s)
}
one {
  x = f32[] parameter(0)
  c = f32[] parameter(1)
  ROOT s = f32[] add(x, c)
}
)";
  auto scan = [&](StringRef instr) {
    return run((comps + ("ENTRY e {\nv = f32[3] constant({1, 2, 3})\n"
                         "z = f32[] constant(0)\n" +
                         instr + "\n}\n"))
                   .str());
  };
  // Cumulative sum, for reference: 1, 3, 6.
  EXPECT_EQ(scan("ROOT s = (f32[3], f32[]) scan(v, z), dimensions={0}, "
                 "to_apply=sum, num_carries=1"),
            "(f32[3], f32[]) ({1, 3, 6}, 6)");
  EXPECT_EQ(scan("ROOT s = (f32[3], f32[]) scan(v, z), dimensions={0}, "
                 "to_apply=sum"),
            "error: scan 's': needs num_carries (the number of trailing "
            "operands that are initial carries)");
  // The verifier rejects these before the interpreter runs.
  EXPECT_NE(scan("ROOT s = (f32[3], f32[]) scan(v, z), dimensions={0}, "
                 "to_apply=sum, num_carries=3")
                .find("'hlo.scan' op num_carries 3 is not in [0, 2]"),
            std::string::npos);
  // The body returns one value where the result wants two.
  EXPECT_EQ(scan("ROOT s = (f32[3], f32[]) scan(v, z), dimensions={0}, "
                 "to_apply=one, num_carries=1"),
            "error: scan 's': to_apply must return 2 values (outputs, then "
            "carries)");
  // Wrong slice rank for the body's parameters.
  EXPECT_EQ(scan("w = f32[3,2] broadcast(v), dimensions={0}\n"
                 "ROOT s = (f32[3,2], f32[]) scan(w, z), dimensions={0}, "
                 "to_apply=sum, num_carries=1"),
            "error: scan 's': argument 0 of 'sum' is f32[2], expected f32[]");
  EXPECT_NE(scan("ROOT s = (f32[3], f32[]) scan(v, z), dimensions={1}, "
                 "to_apply=sum, num_carries=1")
                .find("'hlo.scan' op input of type 'tensor<3xf32>' has no "
                      "scan dimension 1"),
            std::string::npos);
}

TEST_F(InterpreterTest, InfeedAndOutfeed) {
  const char *hlo = R"(
HloModule m
ENTRY e {
  tok = token[] after-all()
  a = (f32[2], token[]) infeed(tok)
  x = f32[2] get-tuple-element(a), index=0
  t1 = token[] get-tuple-element(a), index=1
  b = (s32[], token[]) infeed(t1)
  y = s32[] get-tuple-element(b), index=0
  t2 = token[] get-tuple-element(b), index=1
  x2 = f32[2] add(x, x)
  o1 = token[] outfeed(x2, t2), outfeed_shape=f32[2]
  o2 = token[] outfeed(y, o1), outfeed_shape=s32[]
  ROOT r = f32[2] multiply(x, x)
}
)";
  OwningOpRef<ModuleOp> module = importHloText(hlo, &ctx);
  ASSERT_TRUE(module) << diagnostics;
  InterpreterOptions options;
  options.infeed.push_back(lit("f32[2]", "{1.5, -2}"));
  options.infeed.push_back(lit("s32[]", "7"));
  std::string error;
  RunOutputs outputs;
  FailureOr<Literal> result =
      runtime::run(*module, {}, options, error, &outputs);
  ASSERT_TRUE(succeeded(result)) << error;
  EXPECT_EQ(result->toString(), "f32[2] {2.25, 4}");
  ASSERT_EQ(outputs.outfeed.size(), 1u);
  ASSERT_EQ(outputs.outfeed[0].size(), 2u);
  EXPECT_EQ(outputs.outfeed[0][0].toString(), "f32[2] {3, -4}");
  EXPECT_EQ(outputs.outfeed[0][1].toString(), "s32[] 7");

  // One value short.
  options.infeed.pop_back();
  result = runtime::run(*module, {}, options, error, &outputs);
  EXPECT_TRUE(failed(result));
  EXPECT_EQ(error, "infeed 'b': the infeed queue is empty (1 values given "
                   "in InterpreterOptions::infeed, all read)");
  // The wrong type.
  options.infeed.push_back(lit("f32[]", "7"));
  result = runtime::run(*module, {}, options, error, &outputs);
  EXPECT_TRUE(failed(result));
  EXPECT_EQ(error, "infeed 'b': infeed value 1 is f32[], the infeed reads "
                   "s32[]");
  // No infeed at all; the outfeed list is empty, not stale.
  EXPECT_EQ(run(hlo), "error: infeed 'a': the infeed queue is empty (0 "
                      "values given in InterpreterOptions::infeed, all "
                      "read)");
}

TEST_F(InterpreterTest, InfeedPerDevice) {
  // Each device reads its own queue and writes its own outfeed.
  const char *hlo = R"(
HloModule m, replica_count=2
ENTRY e {
  tok = token[] after-all()
  a = (s32[], token[]) infeed(tok)
  x = s32[] get-tuple-element(a), index=0
  t = token[] get-tuple-element(a), index=1
  r = u32[] replica-id()
  ri = s32[] convert(r)
  y = s32[] add(x, ri)
  o = token[] outfeed(y, t)
  ROOT z = s32[] negate(y)
}
)";
  OwningOpRef<ModuleOp> module = importHloText(hlo, &ctx);
  ASSERT_TRUE(module) << diagnostics;
  InterpreterOptions options = devices(2);
  options.deviceInfeed.resize(2);
  options.deviceInfeed[0].push_back(lit("s32[]", "100"));
  options.deviceInfeed[1].push_back(lit("s32[]", "200"));
  std::string error;
  RunOutputs outputs;
  FailureOr<Literal> result =
      runtime::run(*module, {}, options, error, &outputs);
  ASSERT_TRUE(succeeded(result)) << error;
  EXPECT_EQ(result->toString(), "s32[] -100");
  ASSERT_EQ(outputs.outfeed.size(), 2u);
  ASSERT_EQ(outputs.outfeed[1].size(), 1u);
  EXPECT_EQ(outputs.outfeed[0][0].toString(), "s32[] 100");
  EXPECT_EQ(outputs.outfeed[1][0].toString(), "s32[] 201");
  // One queue for two devices.
  options.deviceInfeed.pop_back();
  EXPECT_TRUE(failed(runtime::run(*module, {}, options, error, &outputs)));
  EXPECT_EQ(error, "deviceInfeed has 1 queues for 2 devices");
}

TEST_F(InterpreterTest, DynamicDimensions) {
  const char *prefix = "x = f32[6] iota(), iota_dimension=0\n"
                       "n = s32[] constant(4)\n"
                       "d = f32[<=6] set-dimension-size(x, n), "
                       "dimensions={0}\n";
  auto body = [&](StringRef rest) { return runBody((prefix + rest).str()); };
  EXPECT_EQ(body("e = f32[<=6] exponential(d)\n"
                 "c = f32[<=6] convert(e)\n"
                 "ROOT g = s32[] get-dimension-size(c), dimensions={0}"),
            "s32[] 4");
  // A size above the bound, or negative.
  EXPECT_EQ(runBody("x = f32[6] iota(), iota_dimension=0\n"
                    "n = s32[] constant(7)\n"
                    "ROOT d = f32[<=6] set-dimension-size(x, n), "
                    "dimensions={0}"),
            "error: set-dimension-size 'd': size 7 of dimension 0 is "
            "outside [0, 6] (its bound)");
  // Ops that do not know runtime sizes refuse them rather than reading
  // the padding.
  EXPECT_EQ(body("ROOT r = f32[6] reverse(d), dimensions={0}"),
            "error: reverse 'r': operand 0 has dynamic dimensions below "
            "their bounds (runtime sizes [4]); the interpreter tracks "
            "runtime sizes only through set-dimension-size, "
            "get-dimension-size, dynamic-reshape, elementwise ops, "
            "PadToStatic and the entry's root");
  // The entry's root, and each element of a root tuple, come back at their
  // runtime shapes, as XLA returns them.
  EXPECT_EQ(body("ROOT e = f32[<=6] negate(d)"), "f32[4] {-0, -1, -2, -3}");
  EXPECT_EQ(body("ROOT t = (f32[<=6], f32[6]) tuple(d, x)"),
            "(f32[4], f32[6]) ({0, 1, 2, 3}, {0, 1, 2, 3, 4, 5})");
  // XLA's custom calls between the padded and the dynamic forms.
  EXPECT_EQ(body("p = (f32[6], s32[]) custom-call(d), "
                 "custom_call_target=\"PadToStatic\"\n"
                 "ROOT s = s32[] get-tuple-element(p), index=1"),
            "s32[] 4");
  EXPECT_EQ(body("two = s32[] constant(2)\n"
                 "ROOT s = f32[<=6] custom-call(x, two), "
                 "custom_call_target=\"SliceToDynamic\""),
            "f32[2] {0, 1}");
  EXPECT_EQ(body("seven = s32[] constant(7)\n"
                 "ROOT s = f32[<=6] custom-call(x, seven), "
                 "custom_call_target=\"SliceToDynamic\""),
            "error: custom-call 's': size 7 of dimension 0 is outside [0, 6] "
            "(its bound)");
  // Elementwise operands with different runtime sizes.
  EXPECT_EQ(body("m = s32[] constant(5)\n"
                 "d5 = f32[<=6] set-dimension-size(x, m), dimensions={0}\n"
                 "ROOT a = f32[<=6] add(d, d5)"),
            "error: add 'a': its operands have different runtime dimension "
            "sizes");
  // dynamic-reshape: element counts must agree.
  EXPECT_EQ(body("three = s32[] constant(3)\n"
                 "two = s32[] constant(2)\n"
                 "ROOT r = f32[<=3,<=2] dynamic-reshape(d, three, two)"),
            "error: dynamic-reshape 'r': the runtime sizes hold 6 elements, "
            "the operand 4");
  // A called computation may not return a value below its bounds.
  EXPECT_EQ(run(R"(
HloModule m
f {
  x = f32[6] parameter(0)
  n = s32[] constant(2)
  ROOT d = f32[<=6] set-dimension-size(x, n), dimensions={0}
}
ENTRY e {
  x = f32[6] iota(), iota_dimension=0
  ROOT c = f32[<=6] call(x), to_apply=f
}
)"),
            "error: computation 'f': its root has dynamic dimensions below "
            "their bounds (runtime sizes are only tracked within a "
            "computation)");
}

} // namespace
