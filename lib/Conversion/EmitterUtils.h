//===- EmitterUtils.h - shared parts of the fusion emitters -----*- C++ -*-===//
//
// What every fusion emitter uses: the element generator (an element of any
// value of a fused computation at a logical index, from the indexing maps and
// the scalar lowering), the kernel function with its buffer arguments, and
// index arithmetic between logical indices and physical offsets.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_CONVERSION_EMITTERUTILS_H
#define HLO_LIB_CONVERSION_EMITTERUTILS_H

#include "Hlo/Analysis/IndexingAnalysis.h"
#include "Hlo/Conversion/FusionEmitter.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/DenseSet.h"

#include <map>

namespace mlir::hlo {

namespace indexing {
/// The elementwise predicate of the indexing analysis (IndexingAnalysis.cpp).
bool isElementwise(Operation *op);
} // namespace indexing

/// Generates elements of the values of one fused computation inside a
/// kernel, from the root back to the parameters (`params`: the kernel's
/// operand buffers, one per parameter).
class ElementGenerator {
public:
  ElementGenerator(OpBuilder &b, Location loc, SymbolTable &symbols,
                   gpu::GPUModuleOp module, ValueRange params)
      : b(b), loc(loc), symbols(symbols), module(module),
        params(params.begin(), params.end()) {
    scopes.emplace_back();
  }

  /// The elements of `v` (one, or one per element of a tuple-valued
  /// instruction such as a variadic reduce) at logical index `index`.
  FailureOr<SmallVector<Value>> emit(Value v, ValueRange index);

  /// The output element being generated: its logical index and its offset
  /// in `type`'s physical order. A parameter of `type` read at exactly that
  /// index (through elementwise instructions) is read at that offset, so
  /// that the unrolled elements' addresses are visibly consecutive.
  void setRoot(ValueRange index, Value linear, RankedTensorType type) {
    rootIndex.assign(index.begin(), index.end());
    rootLinear = linear;
    rootType = type;
  }

  /// From now on the elements of `v` at any index are `elements` (a
  /// reduction's result, known to the thread that writes it), until
  /// clearOverrides().
  void setOverride(Value v, ValueRange elements) {
    overrides[v].assign(elements.begin(), elements.end());
  }
  void clearOverrides() { overrides.clear(); }

  /// Records `elements` as the elements of `v` at `index` in the current
  /// scope (values made inside a region and yielded out of it).
  void remember(Value v, ValueRange index, ValueRange elements) {
    Key key{v.getAsOpaquePointer(), {}};
    for (Value i : index)
      key.second.push_back(i.getAsOpaquePointer());
    scopes.back()[key].assign(elements.begin(), elements.end());
  }

  FailureOr<Value> emitOne(Value v, ValueRange index) {
    FailureOr<SmallVector<Value>> r = emit(v, index);
    if (failed(r))
      return failure();
    return r->front();
  }

  /// Runs `fn` with a fresh cache scope (values made inside a region do
  /// not dominate the code after it).
  template <typename Fn> auto inScope(Fn fn) {
    scopes.emplace_back();
    auto result = fn();
    scopes.pop_back();
    return result;
  }

private:
  using Key = std::pair<void *, std::vector<void *>>;

  FailureOr<SmallVector<Value>> generate(Value v, ValueRange index);
  FailureOr<SmallVector<Value>> emitConstant(ConstantOp op, ValueRange index);
  FailureOr<Value> emitIota(IotaOp op, ValueRange index);
  FailureOr<SmallVector<Value>> emitDataMovement(Operation *op,
                                                 ValueRange index);
  /// A reduce or reduce-window (`toApply` its reducer): loops over the
  /// map's range variables.
  FailureOr<SmallVector<Value>>
  emitReduce(Operation *op, FlatSymbolRefAttr toApply, ValueRange index);
  FailureOr<SmallVector<Value>> emitGather(GatherOp op, ValueRange index);
  /// A dot element: a loop over the contracting dimensions accumulating
  /// the products in XLA's accumulation type (f32 for floats below 32
  /// bits), rounded once to the result type.
  FailureOr<SmallVector<Value>> emitDot(DotOp op, ValueRange index);
  /// A convolution element: loops over the window and the feature group's
  /// input features accumulating, as a dot does, the products of the
  /// window positions that read the input (not its padding or dilation).
  FailureOr<SmallVector<Value>> emitConvolution(ConvolutionOp op,
                                                ValueRange index);
  /// A select-and-scatter element in output (operand) space: the scatter
  /// computation folded over the source elements whose window selected
  /// this element, in the source's row-major order.
  FailureOr<SmallVector<Value>> emitSelectAndScatter(SelectAndScatterOp op,
                                                     ValueRange index);
  FailureOr<SmallVector<Value>> emitBitcastConvert(BitcastConvertOp op,
                                                   ValueRange index);
  /// The update's element where `index` lies in the update's window (its
  /// offsets clamped as HLO clamps them), else the operand's.
  FailureOr<SmallVector<Value>> emitDynamicUpdateSlice(DynamicUpdateSliceOp op,
                                                       ValueRange index);
  /// The operand index `map` gives for `index`, or failure (with an
  /// error) for runtime variables that cannot be generated.
  FailureOr<SmallVector<Value>> applyMap(const IndexingMap &map,
                                         ValueRange dims, ValueRange ranges);
  /// The conjunction of `map`'s domain (where narrower than `shape`) and
  /// constraints at `dims` (null: always true).
  Value constraintsHold(const IndexingMap &map, ValueRange dims,
                        ValueRange symbols, ArrayRef<int64_t> shape);
  /// An scf.for over [0, trips) carrying `init`, whose body (in a fresh
  /// cache scope) gives the next value from the induction variable and the
  /// carried one; the loop's result.
  FailureOr<Value> sumLoop(int64_t trips, Value init,
                           function_ref<FailureOr<Value>(Value, Value)> body);
  Value indexConst(int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }

  OpBuilder &b;
  Location loc;
  SymbolTable &symbols;
  gpu::GPUModuleOp module;
  // A copy: the kernel's block arguments move when workgroup attributions
  // are added.
  SmallVector<Value> params;
  std::vector<std::map<Key, SmallVector<Value>>> scopes;
  llvm::DenseMap<Value, SmallVector<Value>> overrides;
  unsigned numGlobals = 0;
  SmallVector<Value> rootIndex;
  Value rootLinear;
  RankedTensorType rootType;
};

/// The outputs of a fused computation: its root, or a tuple root's elements.
SmallVector<Value> getFusionRoots(ComputationOp fused);

/// The location of a kernel's ops: its name and the fusion's place in the
/// HLO text (the fusion's other location parts, HLO metadata, mean nothing
/// to LLVM's debug info).
Location getKernelLocation(Operation *fusion, StringRef name);

/// A kernel `name` in `module` for `fusion`: one buffer argument
/// (getKernelBufferType) per operand, then per type of `outputs`, each
/// marked 16-byte aligned (XLA's allocations are 256-byte aligned), with
/// launch dimensions `block` and `grid` (x, y, z). The body is one block
/// ending in `gpu.return`; `b` is left before the return.
gpu::GPUFuncOp createKernel(OpBuilder &b, Operation *fusion,
                            gpu::GPUModuleOp module, StringRef name,
                            TypeRange outputs, ArrayRef<int32_t> block,
                            ArrayRef<int32_t> grid);

/// A start index read from HLO (`raw`, an integer of `element` type) as an
/// index clamped into [lo, hi] (0 <= lo <= hi), as HLO clamps the start
/// indices of dynamic-slice, dynamic-update-slice and gather: compared
/// signed or unsigned as `element` says (a u64 of 2^63 or more is past
/// `hi`, not negative).
Value emitClampedStart(OpBuilder &b, Location loc, Value raw, Type element,
                       int64_t lo, int64_t hi);

/// The offset of logical `index` in `type`'s physical (layout) order.
Value emitPhysicalOffset(OpBuilder &b, Location loc, ValueRange index,
                         RankedTensorType type);

/// The logical index of the element at physical offset `linear` of `type`.
SmallVector<Value> emitLogicalIndex(OpBuilder &b, Location loc, Value linear,
                                    RankedTensorType type);

/// Splits `linear` over the dimensions `group` of `shape` (in physical
/// order, major to minor; the major-most takes the rest) into their entries
/// of `index`.
void delinearizeGroup(OpBuilder &b, Location loc, Value linear,
                      ArrayRef<int64_t> shape, ArrayRef<int64_t> group,
                      MutableArrayRef<Value> index);

/// Whether `t` is an array of static shape.
inline bool isStaticArray(Type t) {
  auto ranked = dyn_cast<RankedTensorType>(t);
  return ranked && ranked.hasStaticShape();
}

/// Whether `a` and `b` have one shape and layout (element types aside).
inline bool sameShapeAndLayout(RankedTensorType a, RankedTensorType b) {
  return a.getShape() == b.getShape() &&
         getMinorToMajor(a) == getMinorToMajor(b);
}

/// The concatenate a fusion root is made of through elementwise unary ops
/// (XLA's hero of a concatenate fusion), or null.
ConcatenateOp getConcatenateHero(Value root);

/// The dynamic-update-slices of `roots` (one per output) when an in-place
/// emitter can write them: each updates a parameter of its own output's
/// type, has no user but the root, the updates have one shape, and the
/// parameter is read only at the indices it is written (elementwise, or a
/// dynamic-slice at the same offsets), as XLA requires; else failure with
/// `reason`.
LogicalResult
getInPlaceDynamicUpdateSlices(ArrayRef<Value> roots,
                              SmallVectorImpl<DynamicUpdateSliceOp> &updates,
                              std::string &reason);

/// The size in bytes of an element of `type` (its scalar type; pred: 1).
int64_t getElementBytes(Type elementType);

/// XLA's loop fusion config for a kernel of `elements` elements whose
/// widest element has `widestBytes` bytes: one element per thread unless the
/// kernel has at least as many elements as the selected GPU has threads
/// (SMs x threads per SM; H100: 132 x 2048), then enough consecutive
/// elements per thread for 16-byte loads and stores. XLA keeps small kernels
/// to one element per thread (fewer registers, and less code for ptxas to
/// assemble).
int64_t getLoopUnrollFactor(int64_t elements, int64_t widestBytes);

/// A kernel's `hlo.output_aliases` (array<i64>): for output k, the fusion
/// operand whose buffer output k aliases (-1: none). Such an output starts
/// as that operand's contents and the kernel writes only the elements it
/// changes (in-place dynamic-update-slice, scatter); where the runtime has
/// not given both the same buffer it copies the operand into the output
/// before the launch (hlo-run --device=host-kernels does). The host
/// functions of hlo-gpu-kernels-to-host keep the attribute.
constexpr StringLiteral kOutputAliasesAttrName = "hlo.output_aliases";
void setOutputAliases(Operation *kernel, ArrayRef<int64_t> aliases);
/// The kernel's output aliases (empty when it has none).
SmallVector<int64_t> getOutputAliases(Operation *kernel);

/// The thread's index along x over the whole grid (block_id *
/// threadsPerBlock + thread_id) and an `scf.if` on it being below `work`;
/// `b` is left at the start of the `if`'s body.
Value emitGuardedThreadIndex(OpBuilder &b, Location loc,
                             int64_t threadsPerBlock, int64_t work);

/// XLA's launch dimensions for `work` threads: min(threadsPerBlock, work)
/// threads per block (at least 1), and as many blocks as needed.
std::pair<int64_t, int64_t> getLaunchDims(int64_t work,
                                          int64_t threadsPerBlock);

/// `v` from the lane `offset` apart (xor) in the warp, for any scalar type:
/// 32-bit values directly, narrower ones widened, 64-bit ones in two
/// halves, complex ones by part.
Value shuffleXor(OpBuilder &b, Location loc, Value v, int32_t offset);

/// The reducers of reduces computed together (a reduction fusion's heroes,
/// a normalization fusion's reduces), their accumulators side by side:
/// `numAccs[h]` for reduce h (a variadic reduce has several), of
/// `accTypes`.
struct Reducers {
  SmallVector<ComputationOp> computations;
  SmallVector<unsigned> numAccs;
  SmallVector<Type> accTypes;

  /// The reducers of `reduces`; fails with an error on a missing one.
  LogicalResult init(ArrayRef<ReduceOp> reduces, SymbolTable &symbols);
  /// The widest accumulator's size in bytes.
  int64_t getWidestBytes() const;
  /// `accs` = each reducer applied to (its `accs`, its `values`).
  LogicalResult combine(OpBuilder &b, Location loc, MutableArrayRef<Value> accs,
                        ValueRange values) const;
  /// Combines `accs` across the lanes `offset`, `offset / 2`, ..., 1 apart
  /// (xor shuffles: every lane of a group of 2 * `offset` gets the result).
  LogicalResult warpReduce(OpBuilder &b, Location loc, int64_t offset,
                           MutableArrayRef<Value> accs) const;
  /// Combines `accs` across the `tx` threads of each row (getRowTiling's;
  /// thread `x` of row `y` of the block's `ty`): xor shuffles within a warp
  /// and, with several warps a row, through a new `ty x warps` shared array
  /// of `func` per accumulator and a barrier. Every thread of the row gets
  /// the result.
  LogicalResult rowReduce(OpBuilder &b, Location loc, gpu::GPUFuncOp func,
                          Value x, Value y, int64_t tx, int64_t ty,
                          MutableArrayRef<Value> accs) const;
};

/// The reduction emitter's row tiling (XLA's) for rows of `rowLength`:
/// `tx` threads a row (the row length rounded up to a power of two below a
/// warp, else ceil(rowLength / 16) rounded up, 32 to 1024) and `ty = 256 /
/// tx` rows a block (1 to `numRows`).
std::pair<int64_t, int64_t> getRowTiling(int64_t rowLength, int64_t numRows);

} // namespace mlir::hlo

#endif // HLO_LIB_CONVERSION_EMITTERUTILS_H
