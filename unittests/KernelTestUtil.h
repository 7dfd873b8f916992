//===- KernelTestUtil.h - fusion kernels run on the host in tests -*- C++
//-*-===//
//
// What the emitter gtests share: HLO text for shapes and layouts, and a
// module's ENTRY fusion run through hlo-to-gpu, hlo-gpu-kernels-to-host and
// the host JIT, to compare with the interpreter.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_UNITTESTS_KERNELTESTUTIL_H
#define HLO_UNITTESTS_KERNELTESTUTIL_H

#include "Hlo/Conversion/HostJit.h"
#include "Hlo/Conversion/Passes.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Runtime/Literal.h"

#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassManager.h"

#include <cmath>
#include <string>
#include <vector>

namespace mlir::hlo::test {

/// `f32[2,3]`.
inline std::string shapeText(const std::string &type,
                             const std::vector<int64_t> &shape) {
  std::string s = type + "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

/// `{1,0}`.
inline std::string layoutText(const std::vector<int64_t> &minorToMajor) {
  std::string s = "{";
  for (size_t i = 0; i < minorToMajor.size(); ++i)
    s += (i ? "," : "") + std::to_string(minorToMajor[i]);
  return s + "}";
}

/// Runs the fusion at the root of `module`'s ENTRY computation (named
/// `kernel` after hlo-to-gpu, i.e. the fusion's name with `.`/`-` as `_`)
/// by its kernel on the host, on `args`; returns one literal per output.
/// Outputs the kernel updates in place (`hlo.output_aliases`) start as the
/// operands they alias.
inline FailureOr<std::vector<runtime::Literal>>
runFusionOnHost(ModuleOp module, ArrayRef<runtime::Literal> args,
                StringRef kernel, std::string &error) {
  MLIRContext *ctx = module.getContext();
  OwningOpRef<ModuleOp> kernels = module.clone();
  PassManager pm(ctx);
  pm.addPass(createHloToGpu());
  pm.addPass(createHloGpuKernelsToHost());
  std::string diagnostics;
  {
    ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &d) {
      diagnostics += d.str() + "\n";
      return success();
    });
    if (failed(pm.run(*kernels))) {
      error = "the kernel could not be made: " + diagnostics;
      return failure();
    }
  }
  OpBuilder b(ctx);
  OwningOpRef<ModuleOp> jitModule = ModuleOp::create(b.getUnknownLoc());
  SmallVector<int64_t> aliases; // hlo.output_aliases of the kernel
  for (Operation &op :
       llvm::make_early_inc_range(kernels->getBody()->getOperations()))
    if (isa<func::FuncOp, memref::GlobalOp>(op)) {
      auto a = op.getAttrOfType<DenseI64ArrayAttr>("hlo.output_aliases");
      if (a && cast<func::FuncOp>(op).getName() == kernel)
        aliases.assign(a.asArrayRef().begin(), a.asArrayRef().end());
      op.moveBefore(jitModule->getBody(), jitModule->getBody()->end());
    }
  std::unique_ptr<HostJit> jit = HostJit::compile(*jitModule, error);
  if (!jit)
    return failure();
  ComputationOp entry;
  for (auto c : module.getOps<ComputationOp>())
    if (c->hasAttr("entry"))
      entry = c;
  std::vector<std::vector<uint8_t>> buffers;
  for (auto [arg, literal] : llvm::zip(entry.getBody().getArguments(), args))
    buffers.push_back(runtime::encodeArrayBytes(
        literal, cast<RankedTensorType>(arg.getType())));
  SmallVector<RankedTensorType> outputs;
  Type rootType = entry.getRootValue().getType();
  if (auto tuple = dyn_cast<TupleType>(rootType))
    for (Type t : tuple.getTypes())
      outputs.push_back(cast<RankedTensorType>(t));
  else
    outputs.push_back(cast<RankedTensorType>(rootType));
  // An output aliasing an operand starts as the operand's bytes (in place).
  size_t numOperands = buffers.size();
  for (auto [k, t] : llvm::enumerate(outputs)) {
    if (k < aliases.size() && aliases[k] >= 0 &&
        size_t(aliases[k]) < numOperands)
      buffers.push_back(buffers[aliases[k]]);
    else
      buffers.emplace_back(runtime::getArrayBufferBytes(t));
  }
  if (failed(jit->invokeOnBuffers(kernel, buffers, error)))
    return failure();
  std::vector<runtime::Literal> results;
  for (auto [i, t] : llvm::enumerate(outputs))
    results.push_back(runtime::decodeArrayBytes(
        buffers[buffers.size() - outputs.size() + i], t));
  return results;
}

/// The outputs of a fusion's interpreter result: a tuple's elements, or
/// the array itself (in the order runFusionOnHost returns them).
inline std::vector<const runtime::Literal *>
getOutputArrays(const runtime::Literal &result) {
  std::vector<const runtime::Literal *> arrays;
  if (result.isTuple())
    for (const runtime::Literal &l : result.getElements())
      arrays.push_back(&l);
  else
    arrays.push_back(&result);
  return arrays;
}

/// Whether `got` equals `want`: integers exactly, floats within
/// `atol + rtol * |want|` (NaN equals NaN, infinities themselves; with
/// `signedZeros`, a zero only the zero of its sign).
inline bool closeEnough(const runtime::Literal &got,
                        const runtime::Literal &want, double rtol, double atol,
                        std::string &why, bool signedZeros = false) {
  if (got.getNumElements() != want.getNumElements()) {
    why = "element counts differ";
    return false;
  }
  bool isFloat = isa<FloatType>(want.getElementType());
  for (int64_t i = 0, n = got.getNumElements(); i < n; ++i) {
    if (!isFloat) {
      if (got.getInt(i) != want.getInt(i)) {
        why = "element " + std::to_string(i) + ": kernel " +
              std::to_string(got.getInt(i)) + ", interpreter " +
              std::to_string(want.getInt(i));
        return false;
      }
      continue;
    }
    double a = got.getFloat(i), b = want.getFloat(i);
    bool ok = std::isnan(a) || std::isnan(b) ? std::isnan(a) && std::isnan(b)
              : std::isinf(a) || std::isinf(b)
                  ? a == b
                  : std::fabs(a - b) <= atol + rtol * std::fabs(b);
    if (ok && signedZeros && a == 0 && b == 0)
      ok = std::signbit(a) == std::signbit(b);
    if (!ok) {
      why = "element " + std::to_string(i) + ": kernel " + std::to_string(a) +
            ", interpreter " + std::to_string(b);
      return false;
    }
  }
  return true;
}

/// A generated fused computation `%fused` and the ENTRY `%main` that runs it
/// as one fusion: each parameter is one of both, the outputs a root tuple.
struct FusionText {
  std::string body, params, entry, operands;
  int numParams = 0;
  std::vector<std::string> roots, rootTypes;

  /// Adds parameter `numParams` of type `t`; returns its name in the body.
  std::string addParam(const std::string &t) {
    std::string i = std::to_string(numParams), name = "p" + i;
    body += "  %" + name + " = " + t + " parameter(" + i + ")\n";
    params += (numParams ? ", " : "") + name + ": " + t;
    entry += "  %x" + i + " = " + t + " parameter(" + i + ")\n";
    operands += (numParams ? ", %x" : "%x") + i;
    ++numParams;
    return "%" + name;
  }
  /// `%name = t rhs` in the body; returns `%name`.
  std::string add(const std::string &name, const std::string &t,
                  const std::string &rhs) {
    body += "  %" + name + " = " + t + " " + rhs + "\n";
    return "%" + name;
  }
  void addOutput(const std::string &value, const std::string &type) {
    roots.push_back(value);
    rootTypes.push_back(type);
  }
  /// The two computations; the ENTRY's root `%fusionName = fusion(...)`
  /// with `attributes` (`kind=kInput`, ...).
  std::string finish(const std::string &fusionName,
                     const std::string &attributes) const {
    std::string resultType = "(", tuple = "(";
    for (size_t i = 0; i < roots.size(); ++i) {
      resultType += (i ? ", " : "") + rootTypes[i];
      tuple += (i ? ", " : "") + roots[i];
    }
    resultType += ")";
    tuple += ")";
    return "%fused (" + params + ") -> " + resultType + " {\n" + body +
           "  ROOT %t = " + resultType + " tuple" + tuple + "\n}\n\n" +
           "ENTRY %main (" + params + ") -> " + resultType + " {\n" + entry +
           "  ROOT %" + fusionName + " = " + resultType + " fusion(" +
           operands + "), " + attributes + ", calls=%fused\n}\n";
  }
};

/// `%argmax`, the reducer of an argmax over (`type`, s32) pairs: the larger
/// value, the smaller index between equal ones.
inline std::string argmaxComputationText(const std::string &type) {
  return "%argmax (a: " + type + "[], ai: s32[], b: " + type +
         "[], bi: s32[]) -> (" + type + "[], s32[]) {\n  %a = " + type +
         "[] parameter(0)\n  %ai = s32[] parameter(1)\n  %b = " + type +
         "[] parameter(2)\n  %bi = s32[] parameter(3)\n  %gt = pred[] "
         "compare(%a, %b), direction=GT\n  %eq = pred[] compare(%a, %b), "
         "direction=EQ\n  %lt = pred[] compare(%ai, %bi), direction=LT\n  "
         "%tie = pred[] and(%eq, %lt)\n  %pick = pred[] or(%gt, %tie)\n  "
         "%m = " +
         type + "[] select(%pick, %a, %b)\n  %i = s32[] select(%pick, %ai, " +
         "%bi)\n  ROOT %t = (" + type + "[], s32[]) tuple(%m, %i)\n}\n\n";
}

/// The one fusion of `module`'s ENTRY (null if none).
inline Operation *getOnlyFusion(ModuleOp module) {
  Operation *fusion = nullptr;
  module->walk([&](FusionOp f) { fusion = f; });
  return fusion;
}

} // namespace mlir::hlo::test

#endif // HLO_UNITTESTS_KERNELTESTUTIL_H
