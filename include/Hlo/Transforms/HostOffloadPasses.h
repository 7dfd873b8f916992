//===- HostOffloadPasses.h - host memory offloading -------------*- C++ -*-===//
//
// XLA's host memory offloading passes (HostOffloadPasses.td).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TRANSFORMS_HOST_OFFLOAD_PASSES_H
#define HLO_TRANSFORMS_HOST_OFFLOAD_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::hlo {

#define GEN_PASS_DECL
#include "Hlo/Transforms/HostOffloadPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "Hlo/Transforms/HostOffloadPasses.h.inc"

} // namespace mlir::hlo

#endif // HLO_TRANSFORMS_HOST_OFFLOAD_PASSES_H
