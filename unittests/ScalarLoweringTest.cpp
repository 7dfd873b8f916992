//===- ScalarLoweringTest.cpp - scalar lowering against the interpreter ---===//
//
// Every elementwise opcode on every element type it takes: a one-op HLO
// module on arrays of a few hundred random inputs (edge values first: 0, -1,
// INT_MIN, INT_MAX, NaN, +-inf, -0, denormals, the largest finite value,
// shift amounts past the width) runs in the reference interpreter; the op
// lowered by emitScalarOp inside a loop over memrefs runs through the host
// JIT (HostJit.h). Integers and pred must be bit-exact, floats too for the
// correctly rounded ops (+ - * / sqrt, converts, ...) and within a few ulps
// of the result type for transcendental ones; complex transcendental
// results within a relative error (the complex-to-standard formulas are not
// those of std::complex).
//
// Cases are grouped into one JIT module per test (one compile each), at
// -O0 but for the integer ops (-O2).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Conversion/ScalarLowering.h"
#include "Hlo/Conversion/HostJit.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Runtime/Interpreter.h"
#include "Hlo/Runtime/Literal.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <chrono>
#include <cmath>
#include <complex>
#include <random>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;

namespace {

constexpr int64_t kElements = 320;

/// How a float result is compared.
enum class Tol { Exact, Ulps2, Ulps4, Complex };

struct Case {
  std::string name;
  std::string text; // the HLO module
  Tol tol = Tol::Exact;
  /// Restrict float inputs to finite values of moderate magnitude.
  bool tame = false;
  OwningOpRef<ModuleOp> module;
  Operation *op = nullptr;
  std::vector<Literal> inputs;
  Literal expected;
};

/// Storage of one value in the JIT buffers: two i64 words (the bits of a
/// real or integer in `lo`; real and imaginary parts of a complex).
struct Buffers {
  std::vector<int64_t> lo, hi;
  StridedMemRefType<int64_t, 1> loDesc, hiDesc;
  void *loPtr, *hiPtr;
  explicit Buffers(int64_t n) : lo(n), hi(n) {
    loDesc = {lo.data(), lo.data(), 0, {n}, {1}};
    hiDesc = {hi.data(), hi.data(), 0, {n}, {1}};
    loPtr = &loDesc;
    hiPtr = &hiDesc;
  }
};

bool isComplexType(Type t) { return isa<ComplexType>(t); }

unsigned partWidth(Type t) {
  if (auto c = dyn_cast<ComplexType>(t))
    return c.getElementType().getIntOrFloatBitWidth();
  return t.getIntOrFloatBitWidth();
}

class ScalarLoweringTest : public ::testing::Test {
protected:
  ScalarLoweringTest()
      : ctx(makeRegistry(), MLIRContext::Threading::DISABLED),
        handler(&ctx, [this](Diagnostic &d) {
          diagnostics += d.str() + "\n";
          return success();
        }) {
    ctx.loadAllAvailableDialects();
  }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerHloTranslateDialects(registry);
    registerHostJitDialects(registry);
    return registry;
  }

  //===--- Inputs ---------------------------------------------------------===//

  /// Edge values of an element type, as bit patterns.
  std::vector<APInt> edges(Type t) {
    std::vector<APInt> r;
    if (auto it = dyn_cast<IntegerType>(t)) {
      unsigned w = it.getWidth();
      for (int64_t v : {0, 1, -1, 2, -2, 3, 7})
        r.push_back(APInt(w, v, true, true));
      r.push_back(APInt::getSignedMinValue(w));
      r.push_back(APInt::getSignedMaxValue(w));
      if (w > 1) {
        r.push_back(APInt(w, w - 1));
        r.push_back(APInt(w, w + 1, false, true));
      }
      return r;
    }
    if (auto ft = dyn_cast<FloatType>(t)) {
      const llvm::fltSemantics &sem = ft.getFloatSemantics();
      auto add = [&](llvm::APFloat f) { r.push_back(f.bitcastToAPInt()); };
      // f4 / f6 have no NaN nor inf; f8E8M0FNU no sign nor zero.
      bool hasSign = llvm::APFloat::semanticsHasSignedRepr(sem);
      if (llvm::APFloat::semanticsHasZero(sem)) {
        add(llvm::APFloat::getZero(sem, false));
        add(llvm::APFloat::getZero(sem, true));
      }
      if (llvm::APFloat::semanticsHasNaN(sem))
        add(llvm::APFloat::getQNaN(sem));
      if (llvm::APFloat::semanticsHasInf(sem)) {
        add(llvm::APFloat::getInf(sem, false));
        add(llvm::APFloat::getInf(sem, true));
      }
      add(llvm::APFloat::getLargest(sem, false));
      add(llvm::APFloat::getSmallest(sem, false));
      if (hasSign) {
        add(llvm::APFloat::getLargest(sem, true));
        add(llvm::APFloat::getSmallest(sem, true));
      }
      add(llvm::APFloat::getSmallestNormalized(sem, false));
      for (double d : {1.0, -1.0, 0.5, -0.5, 2.5, -2.5, 3.0, 1.5, -7.0, 0.25,
                       0.75, 5.0, -6.5, 0x1.8p-127}) {
        if (!hasSign)
          d = std::fabs(d);
        llvm::APFloat f(d);
        bool lost;
        f.convert(sem, llvm::APFloat::rmNearestTiesToEven, &lost);
        add(f);
      }
      return r;
    }
    auto ct = cast<ComplexType>(t);
    unsigned w = partWidth(t);
    for (auto [re, im] : std::vector<std::pair<double, double>>{
             {0, 0}, {1, 0}, {0, 1}, {-1, 0.5}, {2.5, -3}, {-0.25, -0.75}}) {
      APInt bits(2 * w, 0);
      llvm::APFloat fr(re), fi(im);
      bool lost;
      fr.convert(cast<FloatType>(ct.getElementType()).getFloatSemantics(),
                 llvm::APFloat::rmNearestTiesToEven, &lost);
      fi.convert(cast<FloatType>(ct.getElementType()).getFloatSemantics(),
                 llvm::APFloat::rmNearestTiesToEven, &lost);
      bits = fi.bitcastToAPInt().zext(2 * w).shl(w) |
             fr.bitcastToAPInt().zext(2 * w);
      r.push_back(bits);
    }
    return r;
  }

  /// A random value of `t` as bits.
  APInt random(Type t, bool tame) {
    if (auto it = dyn_cast<IntegerType>(t)) {
      unsigned w = it.getWidth();
      switch (rng() % 3) {
      case 0:
        return APInt(w, rng(), false, true);
      case 1:
        return APInt(w, static_cast<int64_t>(rng() % 17) - 8, true, true);
      default:
        return APInt(w, rng() % (w + 4), false, true);
      }
    }
    if (auto ft = dyn_cast<FloatType>(t)) {
      const llvm::fltSemantics &sem = ft.getFloatSemantics();
      unsigned w = ft.getWidth();
      if (!tame && rng() % 2 == 0)
        return APInt(w, rng(), false, true);
      std::uniform_real_distribution<double> dist(-8.0, 8.0);
      double d = dist(rng);
      if (!llvm::APFloat::semanticsHasSignedRepr(sem))
        d = std::fabs(d);
      llvm::APFloat f(d);
      bool lost;
      f.convert(sem, llvm::APFloat::rmNearestTiesToEven, &lost);
      return f.bitcastToAPInt();
    }
    auto ct = cast<ComplexType>(t);
    unsigned w = partWidth(t);
    APInt re = random(ct.getElementType(), true);
    APInt im = random(ct.getElementType(), true);
    return im.zext(2 * w).shl(w) | re.zext(2 * w);
  }

  /// The operand values of a case: edge values first (all pairs for
  /// binary ops), random ones after.
  void makeInputs(Case &c) {
    OperandRange data = getDataOperands(c.op);
    size_t arity = data.size();
    std::vector<std::vector<APInt>> cols(arity);
    std::vector<std::vector<APInt>> edge;
    for (Value v : data) {
      Type t = getElementTypeOrSelf(v.getType());
      edge.push_back(c.tame && !isa<IntegerType>(t) ? std::vector<APInt>{}
                                                    : edges(t));
    }
    if (arity == 1) {
      for (const APInt &e : edge[0])
        cols[0].push_back(e);
    } else if (arity >= 2) {
      for (const APInt &x : edge[arity - 2])
        for (const APInt &y : edge[arity - 1]) {
          if (static_cast<int64_t>(cols[0].size()) >= kElements / 2)
            break;
          for (size_t k = 0; k + 2 < arity; ++k)
            cols[k].push_back(
                random(getElementTypeOrSelf(data[k].getType()), c.tame));
          cols[arity - 2].push_back(x);
          cols[arity - 1].push_back(y);
        }
    }
    for (size_t k = 0; k < arity; ++k) {
      Type t = getElementTypeOrSelf(data[k].getType());
      while (static_cast<int64_t>(cols[k].size()) < kElements)
        cols[k].push_back(random(t, c.tame));
    }
    for (size_t k = 0; k < arity; ++k) {
      Type t = getElementTypeOrSelf(data[k].getType());
      Literal l = Literal::array(t, {kElements});
      for (int64_t i = 0; i < kElements; ++i)
        l.setBits(i, cols[k][i]);
      c.inputs.push_back(std::move(l));
    }
  }

  //===--- Building -------------------------------------------------------===//

  /// Imports the case's module, makes its inputs and runs the interpreter.
  bool prepare(Case &c) {
    diagnostics.clear();
    c.module = importHloText(c.text, &ctx);
    if (!c.module && diagnostics.find(" must have ") != std::string::npos) {
      ++skippedCases; // HLO does not allow the op on this type
      return false;
    }
    if (!c.module) {
      ADD_FAILURE() << c.name << ": import failed: " << diagnostics << c.text;
      return false;
    }
    c.module->walk([&](Operation *op) {
      if (isa<ReturnOp>(op))
        c.op = op->getOperand(0).getDefiningOp();
    });
    if (!c.op) {
      ADD_FAILURE() << c.name << ": no root";
      return false;
    }
    makeInputs(c);
    std::string error;
    FailureOr<Literal> r = runtime::run(*c.module, c.inputs, {}, error);
    if (failed(r)) {
      ADD_FAILURE() << c.name << ": interpreter: " << error;
      return false;
    }
    c.expected = std::move(*r);
    return true;
  }

  /// func @k<i>(lo0, hi0, lo1, hi1, ..., outLo, outHi): memref<Nxi64> each.
  bool emitKernel(OpBuilder &b, Case &c, unsigned index) {
    Location loc = b.getUnknownLoc();
    Type i64 = b.getI64Type();
    auto memref = MemRefType::get({kElements}, i64);
    OperandRange data = getDataOperands(c.op);
    SmallVector<Type> args(2 * data.size() + 2, memref);
    auto func = func::FuncOp::create(b, loc, "k" + std::to_string(index),
                                     b.getFunctionType(args, {}));
    Block *entry = func.addEntryBlock();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(entry);
    Value lb = arith::ConstantIndexOp::create(b, loc, 0);
    Value ub = arith::ConstantIndexOp::create(b, loc, kElements);
    Value step = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::ForOp::create(b, loc, lb, ub, step);
    b.setInsertionPointToStart(loop.getBody());
    Value iv = loop.getInductionVar();
    auto load = [&](Value m, Type t) -> Value {
      Value w = memref::LoadOp::create(b, loc, m, ValueRange{iv});
      Type it = b.getIntegerType(t.getIntOrFloatBitWidth());
      Value v = it == i64 ? w : arith::TruncIOp::create(b, loc, it, w);
      return it == t ? v : arith::BitcastOp::create(b, loc, t, v);
    };
    auto store = [&](Value v, Value m) {
      Type it = b.getIntegerType(v.getType().getIntOrFloatBitWidth());
      if (it != v.getType())
        v = arith::BitcastOp::create(b, loc, it, v);
      if (it != i64)
        v = arith::ExtUIOp::create(b, loc, i64, v);
      memref::StoreOp::create(b, loc, v, m, ValueRange{iv});
    };
    SmallVector<Value> scalars;
    for (auto [k, v] : llvm::enumerate(data)) {
      Type t = getScalarType(getElementTypeOrSelf(v.getType()));
      Value lo = entry->getArgument(2 * k), hi = entry->getArgument(2 * k + 1);
      if (auto ct = dyn_cast<ComplexType>(t)) {
        scalars.push_back(
            complex::CreateOp::create(b, loc, ct, load(lo, ct.getElementType()),
                                      load(hi, ct.getElementType())));
      } else {
        scalars.push_back(load(lo, t));
      }
    }
    diagnostics.clear();
    FailureOr<SmallVector<Value>> r = emitScalarOp(b, loc, c.op, scalars);
    if (failed(r)) {
      ADD_FAILURE() << c.name << ": " << diagnostics;
      func.erase();
      return false;
    }
    Value out = (*r)[0];
    Value outLo = entry->getArgument(2 * data.size());
    Value outHi = entry->getArgument(2 * data.size() + 1);
    if (isComplexType(out.getType())) {
      store(complex::ReOp::create(b, loc, out), outLo);
      store(complex::ImOp::create(b, loc, out), outHi);
    } else {
      store(out, outLo);
    }
    b.setInsertionPointToEnd(entry);
    func::ReturnOp::create(b, loc);
    return true;
  }

  //===--- Comparing ------------------------------------------------------===//

  /// Distance in units in the last place (NaN against non-NaN: huge).
  static uint64_t ulps(const APInt &a, const APInt &b, Type t) {
    const llvm::fltSemantics &sem = cast<FloatType>(t).getFloatSemantics();
    llvm::APFloat x(sem, a), y(sem, b);
    if (x.isNaN() || y.isNaN())
      return x.isNaN() && y.isNaN() ? 0 : UINT64_MAX;
    if (x.isZero() && y.isZero())
      return 0;
    unsigned w = a.getBitWidth();
    auto key = [&](const APInt &v) {
      int64_t s = v.getZExtValue();
      bool neg = v[w - 1];
      int64_t mag =
          static_cast<int64_t>(v.getZExtValue() & ~(uint64_t(1) << (w - 1)));
      (void)s;
      return neg ? -mag : mag;
    };
    int64_t d = key(a) - key(b);
    return d < 0 ? -d : d;
  }

  /// Whether `got` matches `want` (bits of a value of HLO type `t`).
  bool matches(const APInt &got, const APInt &want, Type t, Tol tol) {
    if (isa<IntegerType>(t))
      return got == want;
    if (auto ft = dyn_cast<FloatType>(t)) {
      llvm::APFloat x(ft.getFloatSemantics(), got),
          y(ft.getFloatSemantics(), want);
      if (x.isNaN() || y.isNaN())
        return x.isNaN() && y.isNaN();
      if (tol == Tol::Exact)
        return got == want;
      uint64_t limit = tol == Tol::Ulps4 ? 4 : 2;
      if (tol == Tol::Complex)
        limit = 16;
      return ulps(got, want, t) <= limit;
    }
    auto ct = cast<ComplexType>(t);
    unsigned w = partWidth(t);
    Type part = ct.getElementType();
    APInt gr = got.trunc(w), gi = got.lshr(w).trunc(w);
    APInt wr = want.trunc(w), wi = want.lshr(w).trunc(w);
    if (tol == Tol::Exact)
      return matches(gr, wr, part, Tol::Exact) &&
             matches(gi, wi, part, Tol::Exact);
    auto value = [&](const APInt &bits) {
      return llvm::APFloat(cast<FloatType>(part).getFloatSemantics(), bits)
          .convertToDouble();
    };
    std::complex<double> g(value(gr), value(gi)), v(value(wr), value(wi));
    if (std::isnan(v.real()) || std::isnan(v.imag()) || std::isinf(v.real()) ||
        std::isinf(v.imag()))
      return true; // non-finite complex results: Annex G is not followed
    double eps = w == 32 ? 2e-5 : 1e-12;
    return std::abs(g - v) <= eps * std::max(std::abs(v), 1e-30) ||
           std::abs(g - v) <= eps * 1e-3;
  }

  /// Runs every case: the interpreter, one JIT module, the comparison.
  void runCases(std::vector<Case> &cases) {
    std::vector<Case *> ready;
    for (Case &c : cases)
      if (prepare(c))
        ready.push_back(&c);
    OpBuilder b(&ctx);
    OwningOpRef<ModuleOp> jitModule = ModuleOp::create(b.getUnknownLoc());
    b.setInsertionPointToEnd(jitModule->getBody());
    std::vector<std::pair<Case *, unsigned>> emitted;
    for (auto [i, c] : llvm::enumerate(ready))
      if (emitKernel(b, *c, i))
        emitted.push_back({c, static_cast<unsigned>(i)});
    if (emitted.empty())
      return;
    std::string error;
    auto start = std::chrono::steady_clock::now();
    HostJitOptions options;
    options.optLevel = optLevel;
    std::unique_ptr<HostJit> jit = HostJit::compile(*jitModule, error, options);
    compileSeconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    compiledOps += emitted.size();
    ASSERT_TRUE(jit) << error;
    llvm::errs() << "JIT: " << emitted.size() << " ops compiled in "
                 << llvm::format("%.3f", compileSeconds) << " s ("
                 << llvm::format("%.1f", 1000 * compileSeconds / emitted.size())
                 << " ms per op)\n";
    for (auto [c, i] : emitted) {
      OperandRange data = getDataOperands(c->op);
      std::vector<Buffers> bufs;
      bufs.reserve(data.size() + 1);
      for (size_t k = 0; k <= data.size(); ++k)
        bufs.emplace_back(kElements);
      for (size_t k = 0; k < data.size(); ++k) {
        Type t = c->inputs[k].getElementType();
        unsigned w = partWidth(t);
        for (int64_t e = 0; e < kElements; ++e) {
          APInt bits = c->inputs[k].getBits(e);
          bufs[k].lo[e] = bits.trunc(w).getZExtValue();
          if (isComplexType(t))
            bufs[k].hi[e] = bits.lshr(w).trunc(w).getZExtValue();
        }
      }
      SmallVector<void *> args;
      for (Buffers &buf : bufs) {
        args.push_back(&buf.loPtr);
        args.push_back(&buf.hiPtr);
      }
      std::string name = "k" + std::to_string(i);
      ASSERT_TRUE(succeeded(jit->invoke(name, args, error))) << error;
      Type rt = c->expected.getElementType();
      unsigned w = partWidth(rt);
      Buffers &out = bufs.back();
      int failures = 0;
      for (int64_t e = 0; e < kElements && failures < 4; ++e) {
        APInt want = c->expected.getBits(e);
        APInt got = APInt(w, out.lo[e]);
        if (isComplexType(rt))
          got = APInt(w, out.hi[e]).zext(2 * w).shl(w) | got.zext(2 * w);
        if (!matches(got, want, rt, c->tol)) {
          ++failures;
          std::string in;
          llvm::raw_string_ostream os(in);
          for (const Literal &l : c->inputs)
            os << " 0x" << llvm::toString(l.getBits(e), 16, false);
          ADD_FAILURE() << c->name << " element " << e << ": inputs" << in
                        << " -> got 0x" << llvm::toString(got, 16, false)
                        << ", interpreter 0x"
                        << llvm::toString(want, 16, false);
        }
      }
      ++checkedCases;
    }
  }

  MLIRContext ctx;
  ScopedDiagnosticHandler handler;
  std::string diagnostics;
  std::mt19937_64 rng{12345};
  double compileSeconds = 0;
  size_t compiledOps = 0;
  size_t checkedCases = 0;
  size_t skippedCases = 0;
  /// -O0 keeps the test fast (LLVM's optimizer takes most of the time);
  /// the integer ops run at -O2, where poison from a missing guard would
  /// show.
  unsigned optLevel = 0;
};

//===----------------------------------------------------------------------===//
// Cases.
//===----------------------------------------------------------------------===//

const char *const kInts[] = {"pred", "s4", "s8",  "s16", "s32", "s64",
                             "u4",   "u8", "u16", "u32", "u64"};
const char *const kFloats[] = {"f16", "bf16",     "f32",
                               "f64", "f8e4m3fn", "f8e5m2"};
/// The other f8 variants: converts, arithmetic, compares and
/// reduce-precision.
const char *const kMoreF8[] = {"f8e4m3", "f8e3m4", "f8e4m3fnuz", "f8e5m2fnuz",
                               "f8e4m3b11fnuz"};
/// The microscaling types (OCP MX): f4 and f6 without NaN or inf, the
/// exponent-only f8E8M0FNU.
const char *const kMx[] = {"f4e2m1fn", "f6e2m3fn", "f6e3m2fn", "f8e8m0fnu"};
const char *const kComplex[] = {"c64", "c128"};

std::string module(ArrayRef<std::string> operandTypes, StringRef resultType,
                   StringRef op, StringRef attrs = "") {
  std::string s = "HloModule m\nENTRY e {\n";
  std::string ops;
  for (auto [i, t] : llvm::enumerate(operandTypes)) {
    s += "  p" + std::to_string(i) + " = " + t + "[" +
         std::to_string(kElements) + "] parameter(" + std::to_string(i) + ")\n";
    ops += (i ? ", p" : "p") + std::to_string(i);
  }
  s += ("  ROOT r = " + resultType + "[" + Twine(kElements) + "] " + op + "(" +
        ops + ")" + attrs + "\n}\n")
           .str();
  return s;
}

Case makeCase(ArrayRef<std::string> operandTypes, StringRef resultType,
              StringRef op, Tol tol = Tol::Exact, StringRef attrs = "") {
  Case c;
  c.name = (op + attrs + " on " + operandTypes[0]).str();
  c.text = module(operandTypes, resultType, op, attrs);
  c.tol = tol;
  return c;
}

std::string complexPart(StringRef t) { return t == "c64" ? "f32" : "f64"; }

TEST_F(ScalarLoweringTest, IntegerOps) {
  optLevel = 2;
  std::vector<Case> cases;
  for (std::string t : kInts) {
    for (const char *op :
         {"abs", "negate", "not", "popcnt", "count-leading-zeros", "sign"})
      cases.push_back(makeCase({t}, t, op));
    for (const char *op :
         {"add", "subtract", "multiply", "divide", "remainder", "maximum",
          "minimum", "power", "and", "or", "xor", "shift-left",
          "shift-right-arithmetic", "shift-right-logical", "mulhi"})
      cases.push_back(makeCase({t, t}, t, op));
    for (const char *dir : {"EQ", "NE", "GE", "GT", "LE", "LT"})
      cases.push_back(makeCase({t, t}, "pred", "compare", Tol::Exact,
                               (", direction=" + Twine(dir)).str()));
    cases.push_back(makeCase({"pred", t, t}, t, "select"));
    cases.push_back(makeCase({t, t, t}, t, "clamp"));
  }
  runCases(cases);
  EXPECT_EQ(checkedCases + skippedCases, cases.size());
}

TEST_F(ScalarLoweringTest, FloatOps) {
  std::vector<Case> cases;
  for (std::string t : kFloats) {
    bool narrow = t != "f32" && t != "f64";
    for (const char *op : {"abs", "negate", "sign", "floor", "ceil",
                           "round-nearest-afz", "round-nearest-even", "sqrt"})
      cases.push_back(makeCase({t}, t, op));
    cases.push_back(makeCase({t}, "pred", "is-finite"));
    for (const char *op :
         {"exponential", "exponential-minus-one", "log", "log-plus-one", "tanh",
          "cbrt", "sine", "cosine", "tan", "erf", "acos", "acosh", "asin",
          "asinh", "atanh", "cosh", "sinh"})
      cases.push_back(makeCase({t}, t, op, Tol::Ulps2));
    cases.push_back(makeCase({t}, t, "rsqrt", Tol::Ulps2));
    cases.push_back(makeCase({t}, t, "logistic", Tol::Ulps4));
    for (const char *op : {"add", "subtract", "multiply", "divide", "remainder",
                           "maximum", "minimum"})
      cases.push_back(makeCase({t, t}, t, op));
    cases.push_back(makeCase({t, t}, t, "power", Tol::Ulps2));
    cases.push_back(makeCase({t, t}, t, "atan2", Tol::Ulps2));
    for (const char *dir : {"EQ", "NE", "GE", "GT", "LE", "LT"}) {
      cases.push_back(makeCase({t, t}, "pred", "compare", Tol::Exact,
                               (", direction=" + Twine(dir)).str()));
      cases.push_back(
          makeCase({t, t}, "pred", "compare", Tol::Exact,
                   (", direction=" + Twine(dir) + ", type=TOTALORDER").str()));
    }
    cases.push_back(makeCase({"pred", t, t}, t, "select"));
    cases.push_back(makeCase({t, t, t}, t, "clamp"));
    if (!narrow)
      cases.push_back(makeCase({t, t}, t == "f32" ? "c64" : "c128", "complex"));
  }
  runCases(cases);
  EXPECT_EQ(checkedCases + skippedCases, cases.size());
}

TEST_F(ScalarLoweringTest, MoreF8Types) {
  std::vector<Case> cases;
  for (std::string t : kMoreF8) {
    for (const char *op : {"abs", "negate", "sign", "floor", "sqrt"})
      cases.push_back(makeCase({t}, t, op));
    cases.push_back(makeCase({t}, t, "exponential", Tol::Ulps2));
    for (const char *op :
         {"add", "subtract", "multiply", "divide", "maximum", "minimum"})
      cases.push_back(makeCase({t, t}, t, op));
    for (const char *dir : {"EQ", "LT"}) {
      cases.push_back(makeCase({t, t}, "pred", "compare", Tol::Exact,
                               (", direction=" + Twine(dir)).str()));
      cases.push_back(
          makeCase({t, t}, "pred", "compare", Tol::Exact,
                   (", direction=" + Twine(dir) + ", type=TOTALORDER").str()));
    }
    for (const char *other : {"f16", "bf16", "f32", "f64", "s8", "u32", "s64",
                              "f8e4m3fn", "f8e5m2", "pred"}) {
      cases.push_back(makeCase({t}, other, "convert"));
      cases.push_back(makeCase({other}, t, "convert"));
    }
    for (auto [e, m] :
         std::vector<std::pair<int, int>>{{4, 3}, {5, 2}, {2, 1}, {3, 0}})
      cases.push_back(makeCase(
          {t}, t, "reduce-precision", Tol::Exact,
          (", exponent_bits=" + Twine(e) + ", mantissa_bits=" + Twine(m))
              .str()));
  }
  runCases(cases);
  EXPECT_EQ(checkedCases + skippedCases, cases.size());
}

/// f4 / f6 / f8E8M0FNU: converts from and to every float and some integer
/// types (round to nearest even; saturation, NaN to -0 for the NaN-free
/// types; e8m0's rounding of the significand), arithmetic in f32 rounded
/// back, compares.
TEST_F(ScalarLoweringTest, MicroscalingTypes) {
  std::vector<Case> cases;
  for (std::string t : kMx) {
    for (const char *op : {"abs", "negate", "sign", "floor", "sqrt"})
      cases.push_back(makeCase({t}, t, op));
    cases.push_back(makeCase({t}, t, "exponential", Tol::Ulps2));
    for (const char *op :
         {"add", "subtract", "multiply", "divide", "maximum", "minimum"})
      cases.push_back(makeCase({t, t}, t, op));
    for (const char *dir : {"EQ", "LT"}) {
      cases.push_back(makeCase({t, t}, "pred", "compare", Tol::Exact,
                               (", direction=" + Twine(dir)).str()));
      cases.push_back(
          makeCase({t, t}, "pred", "compare", Tol::Exact,
                   (", direction=" + Twine(dir) + ", type=TOTALORDER").str()));
    }
    cases.push_back(makeCase({"pred", t, t}, t, "select"));
    for (const char *other :
         {"f16", "bf16", "f32", "f64", "s8", "u32", "s64", "f8e4m3fn", "f8e5m2",
          "f8e4m3fnuz", "pred", "f4e2m1fn", "f6e2m3fn", "f6e3m2fn",
          "f8e8m0fnu"}) {
      if (t == other)
        continue;
      cases.push_back(makeCase({t}, other, "convert"));
      cases.push_back(makeCase({other}, t, "convert"));
    }
  }
  runCases(cases);
  EXPECT_EQ(checkedCases + skippedCases, cases.size());
}

TEST_F(ScalarLoweringTest, ComplexOps) {
  std::vector<Case> cases;
  for (std::string t : kComplex) {
    std::string part = complexPart(t);
    for (const char *op : {"negate", "real", "imag"})
      cases.push_back(makeCase({t}, StringRef(op) == "negate" ? t : part, op));
    cases.push_back(makeCase({t}, part, "abs", Tol::Complex));
    for (const char *op :
         {"sign", "exponential", "exponential-minus-one", "log", "log-plus-one",
          "sqrt", "rsqrt", "sine", "cosine", "tan", "tanh", "logistic"}) {
      Case c = makeCase({t}, t, op, Tol::Complex);
      c.tame = true;
      cases.push_back(std::move(c));
    }
    for (const char *op : {"add", "subtract", "multiply"})
      cases.push_back(makeCase({t, t}, t, op, Tol::Complex));
    for (const char *op : {"divide", "power"}) {
      Case c = makeCase({t, t}, t, op, Tol::Complex);
      c.tame = true;
      cases.push_back(std::move(c));
    }
    for (const char *dir : {"EQ", "NE"})
      cases.push_back(makeCase({t, t}, "pred", "compare", Tol::Exact,
                               (", direction=" + Twine(dir)).str()));
    cases.push_back(makeCase({"pred", t, t}, t, "select"));
  }
  runCases(cases);
  EXPECT_EQ(checkedCases + skippedCases, cases.size());
}

TEST_F(ScalarLoweringTest, Converts) {
  std::vector<std::string> all;
  for (const char *t : kInts)
    all.push_back(t);
  for (const char *t : kFloats)
    all.push_back(t);
  for (const char *t : kComplex)
    all.push_back(t);
  std::vector<Case> cases;
  for (const std::string &from : all)
    for (const std::string &to : all) {
      bool fromComplex = from[0] == 'c', toComplex = to[0] == 'c';
      if (fromComplex && !toComplex && to != "pred")
        continue; // XLA forbids complex to real converts
      cases.push_back(makeCase({from}, to, "convert"));
    }
  runCases(cases);
  EXPECT_EQ(checkedCases + skippedCases, cases.size());
}

TEST_F(ScalarLoweringTest, BitcastConvertAndReducePrecision) {
  std::vector<Case> cases;
  const std::vector<std::vector<std::string>> sameWidth = {
      {"s8", "u8", "f8e4m3fn", "f8e5m2"},
      {"s16", "u16", "f16", "bf16"},
      {"s32", "u32", "f32"},
      {"s64", "u64", "f64"}};
  for (const auto &group : sameWidth)
    for (const std::string &from : group)
      for (const std::string &to : group)
        if (from != to)
          cases.push_back(makeCase({from}, to, "bitcast-convert"));
  for (auto [f, r] : std::vector<std::pair<std::string, std::string>>{
           {"f16", "u16"}, {"bf16", "u16"}, {"f32", "u32"}, {"f64", "u64"}})
    for (const char *to : {"s8", "s32", "u16", "s64"})
      cases.push_back(makeCase({f, r}, to, "stochastic-convert"));
  for (std::string t : kFloats)
    for (auto [e, m] : std::vector<std::pair<int, int>>{
             {5, 10}, {8, 7}, {4, 3}, {5, 2}, {2, 1}, {8, 0}, {11, 52}})
      cases.push_back(makeCase(
          {t}, t, "reduce-precision", Tol::Exact,
          (", exponent_bits=" + Twine(e) + ", mantissa_bits=" + Twine(m))
              .str()));
  runCases(cases);
  EXPECT_EQ(checkedCases + skippedCases, cases.size());
}

/// emitScalarComputation on a reducer with a constant and a tuple root.
TEST_F(ScalarLoweringTest, Computation) {
  const char *text = R"(HloModule m
comp {
  a = f32[] parameter(0)
  b = s32[] parameter(1)
  c = f32[] constant(1.5)
  m = f32[] multiply(a, c)
  n = s32[] negate(b)
  ROOT t = (f32[], s32[]) tuple(m, n)
}
ENTRY e {
  p = f32[] parameter(0)
  ROOT r = f32[] negate(p)
}
)";
  OwningOpRef<ModuleOp> m = importHloText(text, &ctx);
  ASSERT_TRUE(m) << diagnostics;
  ComputationOp comp;
  m->walk([&](ComputationOp c) {
    if (c.getSymName() == "comp")
      comp = c;
  });
  ASSERT_TRUE(comp);
  OpBuilder b(&ctx);
  OwningOpRef<ModuleOp> jitModule = ModuleOp::create(b.getUnknownLoc());
  b.setInsertionPointToEnd(jitModule->getBody());
  Location loc = b.getUnknownLoc();
  auto func =
      func::FuncOp::create(b, loc, "f",
                           b.getFunctionType({b.getF32Type(), b.getI32Type()},
                                             {b.getF32Type(), b.getI32Type()}));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  auto r = emitScalarComputation(b, loc, comp.getBody(), entry->getArguments());
  ASSERT_TRUE(succeeded(r)) << diagnostics;
  ASSERT_EQ(r->size(), 2u);
  func::ReturnOp::create(b, loc, *r);
  std::string error;
  auto jit = HostJit::compile(*jitModule, error);
  ASSERT_TRUE(jit) << error;
  float a = 3.0f, out0 = 0;
  int32_t bv = 7, out1 = 0;
  // The C interface returns a struct of the two results through a pointer.
  struct {
    float f;
    int32_t i;
  } result;
  void *resultPtr = &result;
  SmallVector<void *> args = {&resultPtr, &a, &bv};
  ASSERT_TRUE(succeeded(jit->invoke("f", args, error))) << error;
  out0 = result.f;
  out1 = result.i;
  EXPECT_EQ(out0, 4.5f);
  EXPECT_EQ(out1, -7);
}

/// An op the lowering does not take fails with an error, emitting nothing.
TEST_F(ScalarLoweringTest, UnsupportedOpFails) {
  const char *text = R"(HloModule m
ENTRY e {
  p = f32[4] parameter(0)
  ROOT r = f32[4] reverse(p), dimensions={0}
}
)";
  OwningOpRef<ModuleOp> m = importHloText(text, &ctx);
  ASSERT_TRUE(m);
  Operation *op = nullptr;
  m->walk([&](ReturnOp ret) { op = ret->getOperand(0).getDefiningOp(); });
  ASSERT_TRUE(op);
  OpBuilder b(&ctx);
  OwningOpRef<ModuleOp> out = ModuleOp::create(b.getUnknownLoc());
  b.setInsertionPointToEnd(out->getBody());
  Value x =
      arith::ConstantOp::create(b, b.getUnknownLoc(), b.getF32FloatAttr(1.0f));
  diagnostics.clear();
  EXPECT_TRUE(failed(emitScalarOp(b, b.getUnknownLoc(), op, {x})));
  EXPECT_NE(diagnostics.find("cannot be lowered to scalar ops"),
            std::string::npos)
      << diagnostics;
  // Only the constant built above.
  EXPECT_EQ(out->getBody()->getOperations().size(), 1u);
}

} // namespace

namespace {
/// The harness also takes arithmetic and math on narrow floats written
/// directly (emulated in f32) and memrefs of them.
TEST_F(ScalarLoweringTest, HostJitNarrowFloatArithmetic) {
  const char *source = R"mlir(
    func.func @f(%a: memref<4xbf16>, %b: memref<4xf16>, %c: memref<4xf8E4M3FN>) {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %c4 step %c1 {
        %x = memref.load %a[%i] : memref<4xbf16>
        %s = arith.addf %x, %x : bf16
        memref.store %s, %a[%i] : memref<4xbf16>
        %y = memref.load %b[%i] : memref<4xf16>
        %e = math.exp %y : f16
        memref.store %e, %b[%i] : memref<4xf16>
        %z = memref.load %c[%i] : memref<4xf8E4M3FN>
        %m = arith.mulf %z, %z : f8E4M3FN
        memref.store %m, %c[%i] : memref<4xf8E4M3FN>
      }
      return
    }
  )mlir";
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(source, &ctx);
  ASSERT_TRUE(m) << diagnostics;
  std::string error;
  auto jit = HostJit::compile(*m, error);
  ASSERT_TRUE(jit) << error;
  // bf16 1.5 = 0x3FC0, f16 0 = 0x0000, f8E4M3FN 1.5 = 0x3C.
  uint16_t a[4] = {0x3FC0, 0x3FC0, 0x3FC0, 0x3FC0};
  uint16_t bv[4] = {0, 0, 0, 0};
  uint8_t c[4] = {0x3C, 0x3C, 0x3C, 0x3C};
  StridedMemRefType<uint16_t, 1> da{a, a, 0, {4}, {1}};
  StridedMemRefType<uint16_t, 1> db{bv, bv, 0, {4}, {1}};
  StridedMemRefType<uint8_t, 1> dc{c, c, 0, {4}, {1}};
  void *pa = &da, *pb = &db, *pc = &dc;
  SmallVector<void *> args = {&pa, &pb, &pc};
  ASSERT_TRUE(succeeded(jit->invoke("f", args, error))) << error;
  EXPECT_EQ(a[3], 0x4040);  // 3.0
  EXPECT_EQ(bv[3], 0x3C00); // 1.0
  EXPECT_EQ(c[3], 0x41);    // 2.25 = 1.001b * 2^1: exponent 8, mantissa 001
}
} // namespace
