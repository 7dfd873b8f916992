//===- HloMemoryAnnotations.h - memory placement custom calls --*- C++ -*-===//
//
// The custom calls by which JAX and XLA say where an array lives: JAX's
// `annotate_device_placement` (its memory kind in the frontend attribute
// `_xla_buffer_placement`: `pinned_host`, `unpinned_host`, `device`,
// `pinned_device` or `vmem`) and XLA's internal forms of it, `MoveToHost`,
// `MoveToDevice`, `PinToDevice` and `PinToDeviceSram`. Each passes its one
// operand on unchanged; hlo-convert-memory-placement-to-internal-annotations
// and hlo-host-offloader turn them into copies between memory spaces, and
// the interpreter and hlo-to-thunk take those left as identities. Also the
// memory space of an array type, which buffer assignment colors by.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOMEMORYANNOTATIONS_H
#define HLO_DIALECT_HLO_HLOMEMORYANNOTATIONS_H

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir::hlo {

constexpr llvm::StringLiteral kDevicePlacementTarget =
    "annotate_device_placement";
constexpr llvm::StringLiteral kBufferPlacementAttr = "_xla_buffer_placement";
constexpr llvm::StringLiteral kMoveToHostTarget = "MoveToHost";
constexpr llvm::StringLiteral kMoveToDeviceTarget = "MoveToDevice";
constexpr llvm::StringLiteral kPinToDeviceTarget = "PinToDevice";
constexpr llvm::StringLiteral kPinToDeviceSramTarget = "PinToDeviceSram";

/// XLA's host memory space (`S(5)` in a layout).
constexpr int64_t kHostMemorySpace = 5;

/// The memory space of the array type `type`'s layout (XLA's `S(n)`); 0, the
/// device's, for arrays without one and other types.
inline int64_t getMemorySpace(Type type) {
  auto array = llvm::dyn_cast<RankedTensorType>(type);
  auto layout =
      array ? llvm::dyn_cast_or_null<LayoutAttr>(array.getEncoding()) : nullptr;
  return layout ? layout.getMemorySpace() : 0;
}

/// Whether `target` names one of the memory placement calls above.
inline bool isMemoryPlacementTarget(llvm::StringRef target) {
  return llvm::is_contained({llvm::StringRef(kDevicePlacementTarget),
                             llvm::StringRef(kMoveToHostTarget),
                             llvm::StringRef(kMoveToDeviceTarget),
                             llvm::StringRef(kPinToDeviceTarget),
                             llvm::StringRef(kPinToDeviceSramTarget)},
                            target);
}

} // namespace mlir::hlo

#endif // HLO_DIALECT_HLO_HLOMEMORYANNOTATIONS_H
