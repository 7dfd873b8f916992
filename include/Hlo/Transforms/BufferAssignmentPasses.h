//===- BufferAssignmentPasses.h - scheduling and buffers --------*- C++ -*-===//
//
// XLA's passes after fusion: copy insertion, scheduling and buffer
// assignment (BufferAssignmentPasses.td).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TRANSFORMS_BUFFER_ASSIGNMENT_PASSES_H
#define HLO_TRANSFORMS_BUFFER_ASSIGNMENT_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::hlo {

#define GEN_PASS_DECL
#include "Hlo/Transforms/BufferAssignmentPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "Hlo/Transforms/BufferAssignmentPasses.h.inc"

} // namespace mlir::hlo

#endif // HLO_TRANSFORMS_BUFFER_ASSIGNMENT_PASSES_H
