//===- MemcpyFusion.h - fusions that only copy bytes ------------*- C++ -*-===//
//
// XLA's memcpy fusions and dynamic-slice fusions of a copy: fusions whose
// output is a contiguous run of one operand's bytes (a slice), or whose
// in-place dynamic-update-slice writes one operand's bytes contiguously,
// at offsets that are constant or move with the iteration of the loop
// whose body holds the fusion. `hlo-to-gpu` emits no kernel for them and
// `hlo-to-thunk` a `thunk.copy` or `thunk.dynamic_copy` (docs/thunk.md).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_CONVERSION_MEMCPYFUSION_H
#define HLO_CONVERSION_MEMCPYFUSION_H

#include "Hlo/Dialect/Thunk/ThunkDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include <memory>
#include <optional>

namespace mlir::hlo {

/// A byte offset at iteration `i` (from 0) of the loop whose body holds
/// the fusion: `offset + i * stride` (`stride` 0 outside loops).
struct LoopByteOffset {
  int64_t offset = 0;
  int64_t stride = 0;
};

/// `bytes` bytes of operand `operand` copied from `source` into the
/// fusion's result at `target`. `updated`: the operand whose bytes the
/// result otherwise holds (a dynamic-update-slice's operand, updated in
/// place); none when the copied bytes are all of the result.
struct MemcpyFusion {
  unsigned operand = 0;
  std::optional<unsigned> updated;
  LoopByteOffset source, target;
  int64_t bytes = 0;
  bool movesWithLoop() const { return source.stride || target.stride; }
};

/// Finds the memcpy fusions of one module. A fusion qualifies when its one
/// root is, through bitcasts, a unit-stride `slice`, a `dynamic-slice` or a
/// `dynamic-update-slice` of a parameter whose copied elements are
/// contiguous in the parameter's physical order (whole minor dimensions,
/// one partial dimension, then dimensions of extent 1; untiled layouts,
/// byte-sized elements), the update of a dynamic-update-slice being a
/// parameter too (through bitcasts and row-major reshapes). Dynamic start
/// indices must be functions of the induction variable of the while loop
/// whose body holds the fusion (its `known_trip_count`, `known_init_step`
/// and `known_induction_variable`, as hlo-while-loop-trip-count-annotator
/// writes them) and constants: they are evaluated for every iteration, as
/// HLO clamps them, and the byte offsets must be affine in the iteration
/// (XLA's `dynamic_slice_config`: byte_offset + iteration * byte_stride).
class MemcpyFusionAnalysis {
public:
  MemcpyFusionAnalysis(ModuleOp module, SymbolTable &symbols);
  ~MemcpyFusionAnalysis();
  std::optional<MemcpyFusion> get(Operation *fusion);

  /// The transpose a fusion makes and nothing else, for `thunk.kernel`'s
  /// `transpose`: its one root is, through bitcasts and row-major
  /// reshapes, a `transpose` of its one parameter (through the same), all
  /// arrays static, untiled and row-major, of elements of whole bytes.
  /// Null for any other fusion.
  thunk::TransposeAttr getTranspose(Operation *fusion);

private:
  struct State;
  std::unique_ptr<State> state;
};

} // namespace mlir::hlo

#endif // HLO_CONVERSION_MEMCPYFUSION_H
