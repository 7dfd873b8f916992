//===- Passes.h - hlo to kernels and thunks ---------------------*- C++ -*-===//
//
// The conversion passes of Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_CONVERSION_PASSES_H
#define HLO_CONVERSION_PASSES_H

#include "Hlo/Dialect/Thunk/ThunkDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::hlo {

#define GEN_PASS_DECL
#include "Hlo/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Hlo/Conversion/Passes.h.inc"

} // namespace mlir::hlo

#endif // HLO_CONVERSION_PASSES_H
