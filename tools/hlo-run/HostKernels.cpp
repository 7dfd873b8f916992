//===- HostKernels.cpp - fusions run by their kernels on the host ---------===//

#include "HostKernels.h"

#include "Hlo/Conversion/FusionEmitter.h"
#include "Hlo/Conversion/HostJit.h"
#include "Hlo/Conversion/Passes.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::hlo;
using runtime::Literal;

HostKernels::~HostKernels() = default;

std::unique_ptr<HostKernels> HostKernels::compile(ModuleOp module,
                                                  std::string &error) {
  MLIRContext *ctx = module.getContext();
  DialectRegistry registry;
  registerHostJitDialects(registry);
  ctx->appendDialectRegistry(registry);
  OwningOpRef<ModuleOp> clone = module.clone();
  PassManager pm(ctx);
  HloToGpuOptions emit;
  emit.allowUnsupported = true;
  pm.addPass(createHloToGpu(emit));
  pm.addPass(createHloGpuKernelsToHost());
  std::string diagnostics;
  {
    ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &d) {
      diagnostics += d.str() + "\n";
      return success();
    });
    if (failed(pm.run(*clone))) {
      error = "the kernels could not be made: " + diagnostics;
      return nullptr;
    }
  }
  auto kernels = std::unique_ptr<HostKernels>(new HostKernels());
  // The clone's fusions are the module's, in the same walk order.
  SmallVector<Operation *> original, cloned;
  module.walk([&](FusionOp f) { original.push_back(f); });
  clone->walk([&](FusionOp f) { cloned.push_back(f); });
  for (auto [o, c] : llvm::zip(original, cloned))
    if (auto ref = c->getAttrOfType<FlatSymbolRefAttr>("hlo.kernel"))
      kernels->kernelOf[o] = ref.getValue().str();
  if (kernels->kernelOf.empty())
    return kernels;
  OpBuilder b(ctx);
  OwningOpRef<ModuleOp> jitModule = ModuleOp::create(b.getUnknownLoc());
  for (Operation &op :
       llvm::make_early_inc_range(clone->getBody()->getOperations()))
    if (isa<func::FuncOp, memref::GlobalOp>(op)) {
      // Outputs that alias operands (hlo.output_aliases, EmitterUtils.h):
      // an in-place kernel writes only the elements it changes.
      if (auto aliases =
              op.getAttrOfType<DenseI64ArrayAttr>("hlo.output_aliases"))
        kernels->aliasesOf[cast<func::FuncOp>(op).getName()] =
            SmallVector<int64_t>(aliases.asArrayRef());
      // Kernels launched after it (a sort's stages).
      if (auto then = op.getAttrOfType<ArrayAttr>(kThenKernelsAttrName))
        for (Attribute a : then)
          kernels->thenOf[cast<func::FuncOp>(op).getName()].push_back(
              cast<FlatSymbolRefAttr>(a).getValue().str());
      op.moveBefore(jitModule->getBody(), jitModule->getBody()->end());
    }
  kernels->jit = HostJit::compile(*jitModule, error);
  if (!kernels->jit)
    return nullptr;
  return kernels;
}

std::optional<FailureOr<Literal>>
HostKernels::run(Operation *fusion, ArrayRef<const Literal *> operands,
                 std::string &error) {
  auto it = kernelOf.find(fusion);
  if (it == kernelOf.end())
    return std::nullopt;
  // One buffer per operand, then one per output (a tuple's elements).
  std::vector<std::vector<uint8_t>> buffers;
  for (auto [literal, type] :
       llvm::zip(operands, getDataOperands(fusion).getTypes()))
    buffers.push_back(
        runtime::encodeArrayBytes(*literal, cast<RankedTensorType>(type)));
  Type resultType = fusion->getResult(0).getType();
  SmallVector<RankedTensorType> outputs;
  if (auto tuple = dyn_cast<TupleType>(resultType)) {
    for (Type t : tuple.getTypes())
      outputs.push_back(cast<RankedTensorType>(t));
  } else {
    outputs.push_back(cast<RankedTensorType>(resultType));
  }
  for (RankedTensorType t : outputs)
    buffers.emplace_back(runtime::getArrayBufferBytes(t));
  // An output aliasing an operand starts as the operand's bytes (the two
  // have one type).
  size_t numOperands = operands.size();
  if (auto aliases = aliasesOf.find(it->second); aliases != aliasesOf.end())
    for (auto [k, operand] : llvm::enumerate(aliases->second))
      if (operand >= 0 && size_t(operand) < numOperands &&
          k < outputs.size() &&
          buffers[operand].size() == buffers[numOperands + k].size())
        buffers[numOperands + k] = buffers[operand];
  if (failed(jit->invokeOnBuffers(it->second, buffers, error)))
    return FailureOr<Literal>(failure());
  if (auto then = thenOf.find(it->second); then != thenOf.end())
    for (const std::string &next : then->second)
      if (failed(jit->invokeOnBuffers(next, buffers, error)))
        return FailureOr<Literal>(failure());
  size_t first = operands.size();
  if (!isa<TupleType>(resultType))
    return FailureOr<Literal>(
        runtime::decodeArrayBytes(buffers[first], outputs.front()));
  std::vector<Literal> elements;
  for (auto [i, t] : llvm::enumerate(outputs))
    elements.push_back(runtime::decodeArrayBytes(buffers[first + i], t));
  return FailureOr<Literal>(Literal::tuple(std::move(elements)));
}
