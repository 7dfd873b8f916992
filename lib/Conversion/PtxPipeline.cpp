//===- PtxPipeline.cpp - hlo-to-ptx ---------------------------------------===//
//
// The kernels of a module as PTX: hlo-to-gpu, then MLIR's own NVVM path
// (nvvm-attach-target, convert-gpu-to-nvvm with bare pointers, the LLVM
// NVPTX back end in gpu-module-to-binary{format=isa}, libdevice from the
// CUDA toolkit), and the PTX text read back from the `gpu.binary`.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Conversion/PtxPipeline.h"

#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Conversion/Passes.h"
#include "Hlo/Conversion/ScalarLowering.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ComplexToLLVM/ComplexToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::hlo;

void mlir::hlo::registerPtxDialects(DialectRegistry &registry) {
  registry.insert<gpu::GPUDialect, LLVM::LLVMDialect, NVVM::NVVMDialect>();
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  // convert-gpu-to-nvvm lowers the kernels' other dialects through their
  // ConvertToLLVM interfaces.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertComplexToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
}

std::string mlir::hlo::getCudaToolkitPath(StringRef given) {
  if (!given.empty())
    return given.str();
  for (const char *var : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"})
    if (const char *value = std::getenv(var); value && *value)
      return value;
  return "/usr/local/cuda";
}

void mlir::hlo::buildHloToPtxPipeline(OpPassManager &pm,
                                      const HloToPtxOptions &options) {
  HloToGpuOptions emit;
  emit.threadsPerBlock = options.threadsPerBlock;
  emit.allowUnsupported = options.allowUnsupported;
  pm.addPass(createHloToGpu(emit));
  buildKernelsToPtxPipeline(pm, options);
}

void mlir::hlo::buildKernelsToPtxPipeline(OpPassManager &pm,
                                          const HloToPtxOptions &options) {
  buildKernelsToNvvmPipeline(pm, options);
  buildNvvmToPtxPipeline(pm, options);
}

void mlir::hlo::buildKernelsToNvvmPipeline(OpPassManager &pm,
                                           const HloToPtxOptions &options) {
  pm.addPass(createCanonicalizerPass());
  GpuNVVMAttachTargetOptions target;
  target.chip =
      options.chip.empty() ? getSelectedGpuChip() : options.chip.getValue();
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  // Buffers of 2- and 4-bit elements as XLA stores them: packed bytes.
  kernels.addPass(createHloLowerSubByteBuffers());
  // Converts from and to floats LLVM has no type for (f8, f6, f4) as
  // integer ops (f16 and bf16 convert natively).
  kernels.addPass(createExpandNarrowFloatsPass(/*onlyBelow16Bits=*/true));
  kernels.addPass(createSCFToControlFlowPass());
  // Complex arithmetic as real arithmetic on the parts (LLVM's NVPTX has no
  // complex type).
  kernels.addPass(createConvertComplexToStandardPass());
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.useBarePtrCallConv = true;
  kernels.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  // Math ops without a libdevice function (ctlz, ctpop, ...) as LLVM
  // intrinsics.
  kernels.addPass(createConvertMathToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::hlo::buildNvvmToPtxPipeline(OpPassManager &pm,
                                       const HloToPtxOptions &options) {
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  binary.toolkitPath = getCudaToolkitPath(options.cudaPath);
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mlir::hlo::registerHloToPtxPipeline() {
  PassPipelineRegistration<HloToPtxOptions>(
      "hlo-to-ptx",
      "The module's fusions as kernels in one PTX module (hlo-to-gpu, then "
      "MLIR's NVVM path to PTX); write it with --output-format=ptx",
      buildHloToPtxPipeline);
}

FailureOr<std::string> mlir::hlo::getPtx(ModuleOp module) {
  std::string ptx;
  bool found = false;
  // Several PTX modules as one: the header (.version, .target,
  // .address_size) once.
  auto append = [&](StringRef text) {
    if (found) {
      size_t header = text.find(".address_size");
      if (header != StringRef::npos)
        text = text.drop_front(header).drop_until(
            [](char c) { return c == '\n'; });
    }
    ptx += text.str();
    found = true;
  };
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    for (Attribute object : binary.getObjects()) {
      auto obj = dyn_cast<gpu::ObjectAttr>(object);
      if (obj && obj.getFormat() == gpu::CompilationTarget::Assembly)
        append(obj.getObject().getValue());
    }
  }
  // A thunk program's kernel modules carry theirs (hlo-embed-ptx).
  for (auto kernels : module.getOps<gpu::GPUModuleOp>())
    if (auto text = kernels->getAttrOfType<StringAttr>("thunk.ptx"))
      append(text.getValue());
  if (!found)
    return module.emitError(
        "no PTX in the module (run hlo-to-ptx or hlo-gpu-pipeline)");
  return ptx;
}
