//===- HostJit.cpp - run arith/math/scf/memref functions on the host ------===//
//
// The lowering pipeline (upstream conversions, in this order):
//   complex-to-standard, arith-expand, the narrow float conversions
//   (ScalarLowering.h), math-to-libm (f32/f64 transcendental ops as libm
//   calls: exp, log, erf, tanh, atan2, ... computed as the C library does),
//   convert-math-to-llvm (what libm does not take: ctlz, ctpop, absi,
//   copysign, ...), scf-to-cf, then arith, complex, cf, memref and func to
//   LLVM and reconcile-unrealized-casts, and last
//   hlo-llvm-narrow-floats-as-integers (f16 and bf16 values moved as i16).
// The ExecutionEngine resolves libm symbols from the process.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Conversion/HostJit.h"
#include "Hlo/Conversion/Passes.h"
#include "Hlo/Conversion/ScalarLowering.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Support/TargetSelect.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::hlo;

void mlir::hlo::registerHostJitDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, cf::ControlFlowDialect,
                  complex::ComplexDialect, func::FuncDialect, LLVM::LLVMDialect,
                  math::MathDialect, memref::MemRefDialect, scf::SCFDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

namespace {
/// rsqrt(x) = 1 / sqrt(x): libm has no rsqrt.
struct ExpandRsqrt : OpRewritePattern<math::RsqrtOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::RsqrtOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value one = arith::ConstantOp::create(
        rewriter, loc, op.getType(), rewriter.getFloatAttr(op.getType(), 1.0));
    Value root = math::SqrtOp::create(rewriter, loc, op.getOperand());
    rewriter.replaceOpWithNewOp<arith::DivFOp>(op, one, root);
    return success();
  }
};

/// f32 and f64 exp become calls of hloExpF32 / hloExpF64 (below): libm's
/// values without glibc's slow path that sets errno on underflow and
/// overflow (a causal softmax's exp(-1e9) ran at a third of the speed).
/// Guarding libm's call with selects in the IR does not last: LLVM knows
/// expf and drops the guard on its argument.
void callExpWithoutErrno(ModuleOp module) {
  SmallVector<math::ExpOp> exps;
  module.walk([&](math::ExpOp op) {
    if (op.getType().isF32() || op.getType().isF64())
      exps.push_back(op);
  });
  for (math::ExpOp op : exps) {
    Type type = op.getType();
    StringRef name = type.isF32() ? "hloExpF32" : "hloExpF64";
    auto callee = module.lookupSymbol<func::FuncOp>(name);
    if (!callee) {
      OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
      callee = func::FuncOp::create(b, module.getLoc(), name,
                                    b.getFunctionType({type}, {type}));
      callee.setPrivate();
    }
    OpBuilder b(op);
    auto call = func::CallOp::create(b, op.getLoc(), callee, op.getOperand());
    op.getResult().replaceAllUsesWith(call.getResult(0));
    op.erase();
  }
}

/// math-to-libm on the ops libm has (upstream's pass makes every math op
/// illegal; here what libm does not take stays for math-to-llvm).
struct MathToLibmPass : PassWrapper<MathToLibmPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MathToLibmPass)
  StringRef getArgument() const final { return "hlo-math-to-libm"; }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    callExpWithoutErrno(getOperation());
    patterns.add<ExpandRsqrt>(&getContext(), /*benefit=*/2);
    populateMathToLibmConversionPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
/// The bits of bf16 `bits` returned as the bf16 the x86-64 ABI returns in
/// the low half of xmm0 (a float whose low 16 bits they are: this compiler
/// has no bf16 type).
float returnBf16(uint16_t bits) {
  uint32_t word = bits;
  float f;
  std::memcpy(&f, &word, 4);
  return f;
}

/// f32 -> bf16, rounded to nearest even; NaN keeps its sign and top
/// payload bits, quieted.
uint16_t roundToBf16(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  if (std::isnan(x))
    return uint16_t(bits >> 16) | 0x40;
  return uint16_t((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}

/// The compiler-rt / libgcc calls LLVM's x86 code generator makes for a
/// bf16 value it keeps in a register (a load moved to a store promotes it
/// to f32 and truncates it back), which Debian 12's libgcc does not have.
extern "C" float hloTruncSfBf2(float x) { return returnBf16(roundToBf16(x)); }
extern "C" float hloTruncDfBf2(double x) {
  // Through f32 with the bits below it folded into the sticky bit, so that
  // the one rounding to bf16 is exact.
  float f = float(x);
  if (!std::isnan(x) && double(f) != x) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    // Truncation toward zero, then the sticky bit.
    if (std::fabs(double(f)) > std::fabs(x))
      --bits;
    bits |= 1;
    std::memcpy(&f, &bits, 4);
  }
  return returnBf16(roundToBf16(f));
}

/// libm's exp, with the arguments whose result underflows to 0 (below
/// `low`: e^-103.97 and e^-745.13 are the least subnormals' halves) or
/// overflows (above `high`) answered here: glibc sets errno for them through
/// a slow path. NaN goes to libm.
template <typename T> T expWithoutErrno(T x, T low, T high) {
  if (x < low)
    return T(0);
  if (x > high)
    return T(INFINITY);
  return std::exp(x);
}
extern "C" float hloExpF32(float x) {
  return expWithoutErrno<float>(x, -104.0f, 89.0f);
}
extern "C" double hloExpF64(double x) {
  return expWithoutErrno<double>(x, -746.0, 710.0);
}

} // namespace

LogicalResult mlir::hlo::lowerToLLVMDialect(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  for (auto f : module.getOps<func::FuncOp>())
    if (f.isPublic() && !f.isExternal())
      f->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                 UnitAttr::get(ctx));
  PassManager pm(ctx);
  // Buffers of 2- and 4-bit elements as XLA stores them: packed bytes.
  pm.addPass(createHloLowerSubByteBuffers());
  pm.addPass(createConvertComplexToStandardPass());
  // Arithmetic and math on narrow floats (not emitted by the scalar
  // lowering, which computes in f32, but by other producers) in f32 (the
  // pass cannot name f8E4M3B11FNUZ).
  arith::ArithEmulateUnsupportedFloatsOptions emulate;
  emulate.sourceTypeStrs = {"f16",    "bf16",   "f8E4M3FN",   "f8E5M2",
                            "f8E4M3", "f8E3M4", "f8E4M3FNUZ", "f8E5M2FNUZ"};
  pm.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
  pm.addPass(math::createMathExtendToSupportedTypes());
  pm.addPass(createExpandNarrowFloatsPass(/*onlyBelow16Bits=*/false));
  pm.addPass(std::make_unique<MathToLibmPass>());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertComplexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // No f16 or bf16 left for LLVM's x86 code generator to promote.
  pm.addPass(createHloLlvmNarrowFloatsAsIntegers());
  return pm.run(module);
}

HostJit::~HostJit() = default;

std::unique_ptr<HostJit> HostJit::compile(ModuleOp module, std::string &error,
                                          const HostJitOptions &options) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  // The LLVM IR translations (in case the context's registry lacks them).
  registerBuiltinDialectTranslation(*module.getContext());
  registerLLVMDialectTranslation(*module.getContext());
  OwningOpRef<ModuleOp> clone = module.clone();
  std::string diagnostics;
  {
    ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &d) {
      diagnostics += d.str() + "\n";
      return success();
    });
    if (failed(lowerToLLVMDialect(*clone))) {
      error = "lowering to the LLVM dialect failed: " + diagnostics;
      return nullptr;
    }
  }
  // Ops a conversion left (a partial conversion may leave what it cannot
  // take): name the first.
  {
    Operation *left = nullptr;
    clone->walk([&](Operation *op) {
      if (!left && !isa<ModuleOp>(op) &&
          !isa<LLVM::LLVMDialect>(op->getDialect()))
        left = op;
    });
    if (left) {
      std::string text;
      llvm::raw_string_ostream os(text);
      left->print(os);
      error = "lowering to the LLVM dialect left " + text;
      return nullptr;
    }
  }
  ExecutionEngineOptions engineOptions;
  // LLVM's passes see this CPU (its vector width and features), so the loops
  // over a kernel's threads vectorize; the code generator targets it too.
  std::unique_ptr<llvm::TargetMachine> host;
  if (llvm::Expected<llvm::orc::JITTargetMachineBuilder> builder =
          llvm::orc::JITTargetMachineBuilder::detectHost()) {
    if (auto machine = builder->createTargetMachine())
      host = std::move(*machine);
    else
      llvm::consumeError(machine.takeError());
  } else {
    llvm::consumeError(builder.takeError());
  }
  auto transformer = makeOptimizingTransformer(
      options.optLevel, /*sizeLevel=*/0, /*targetMachine=*/host.get());
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel =
      static_cast<llvm::CodeGenOptLevel>(std::min(options.optLevel, 3u));
  engineOptions.enableGDBNotificationListener = false;
  engineOptions.enablePerfNotificationListener = false;
  ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return success();
  });
  auto engine = ExecutionEngine::create(*clone, engineOptions);
  if (!engine) {
    error = "JIT compilation failed: " + llvm::toString(engine.takeError()) +
            "\n" + diagnostics;
    return nullptr;
  }
  std::unique_ptr<HostJit> jit(new HostJit());
  jit->engine = std::move(*engine);
  jit->engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    auto add = [&](StringRef name, auto *function) {
      symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(function),
                                 llvm::JITSymbolFlags::Exported};
    };
    add("__truncsfbf2", &hloTruncSfBf2);
    add("__truncdfbf2", &hloTruncDfBf2);
    add("hloExpF32", &hloExpF32);
    add("hloExpF64", &hloExpF64);
    return symbols;
  });
  return jit;
}

FailureOr<HostJit::PackedFunction> HostJit::lookup(StringRef name,
                                                   std::string &error) {
  auto fn = engine->lookupPacked(("_mlir_ciface_" + name).str());
  if (!fn) {
    error = llvm::toString(fn.takeError());
    return failure();
  }
  return *fn;
}

LogicalResult HostJit::invoke(StringRef name, MutableArrayRef<void *> args,
                              std::string &error) {
  FailureOr<PackedFunction> fn = lookup(name, error);
  if (failed(fn))
    return failure();
  (*fn)(args.data());
  return success();
}

LogicalResult
HostJit::invokeOnBuffers(StringRef name,
                         MutableArrayRef<std::vector<uint8_t>> buffers,
                         std::string &error) {
  // A descriptor per buffer (its size in bytes: the static shapes of the
  // functions' memrefs are not read from it), and a pointer to each.
  std::vector<StridedMemRefType<uint8_t, 1>> descriptors(buffers.size());
  std::vector<void *> pointers(buffers.size());
  SmallVector<void *> args;
  for (size_t i = 0; i < buffers.size(); ++i) {
    int64_t n = buffers[i].size();
    descriptors[i] = {buffers[i].data(), buffers[i].data(), 0, {n}, {1}};
    pointers[i] = &descriptors[i];
    args.push_back(&pointers[i]);
  }
  return invoke(name, args, error);
}
