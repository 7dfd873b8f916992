//===- CollectivePasses.h - collective passes -------------------*- C++ -*-===//
//
// XLA's passes over collectives: folding, combining, and the
// asynchronous start/done forms
// (CollectivePasses.td).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TRANSFORMS_COLLECTIVE_PASSES_H
#define HLO_TRANSFORMS_COLLECTIVE_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::hlo {

#define GEN_PASS_DECL
#include "Hlo/Transforms/CollectivePasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "Hlo/Transforms/CollectivePasses.h.inc"

} // namespace mlir::hlo

#endif // HLO_TRANSFORMS_COLLECTIVE_PASSES_H
