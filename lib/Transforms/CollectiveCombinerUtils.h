//===- CollectiveCombinerUtils.h - what the combiners share -----*- C++ -*-===//
//
// Private to lib/Transforms: the driver of XLA's collective combiners
// (CombineInstructionsByKey) and the pieces their combine steps share:
// merged metadata and frontend attributes, the GPU combiners' backend
// config, the all-gather / reduce-scatter dimension alignment.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_COLLECTIVECOMBINERUTILS_H
#define HLO_LIB_TRANSFORMS_COLLECTIVECOMBINERUTILS_H

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include <optional>
#include <string>

namespace mlir::hlo {

/// Bytes of the arrays in `type` (XLA's ByteSizeOf: whole bytes per
/// element; a tuple the sum of its elements).
int64_t collectiveByteSize(Type type);

/// The key fields every combiner compares (XLA's AllReduceKey and
/// AllGatherCombiner::GroupKey without the domain): channel or not, global
/// device ids or not, the replica groups; plus `extra`. Nothing for a
/// collective no combiner touches: several operands, a non-array or
/// dynamic result, a constrained layout, control edges either way.
std::optional<std::string> collectiveKey(Operation *op, StringRef extra);

/// The reduction kind of a two-parameter computation whose root combines
/// its parameters with add, multiply, minimum, maximum, and, or, xor (XLA's
/// MatchReductionComputation), with the root's element type; nothing
/// otherwise.
std::optional<std::string> reductionKind(SymbolTable &symbols,
                                         FlatSymbolRefAttr computation);

/// A new computation `<reducer><suffix>` applying the root op of
/// `reducer` (a reductionKind computation) to two scalars of `type`,
/// inserted before the computation of `user`: a collective's reducer in
/// another element type (XLA's promoted reducers).
FlatSymbolRefAttr retypedReducer(SymbolTable &symbols,
                                 FlatSymbolRefAttr reducer, Type type,
                                 StringRef suffix, Operation *user);

/// True if `op` reduces elementwise as a collective can: add, multiply,
/// minimum, maximum, and and or of pred (XLA's MatchReductionInstruction;
/// the reassociate passes' instructions).
bool isCollectiveReduction(Operation *op);

/// Calls `rewrite` on each instruction of `module` that is a collective
/// reduction of two operands, in program order (so each sees what the
/// rewrites before it made: chains and trees collapse in one run); returns
/// how many calls returned true. The reassociate passes' driver.
int64_t rewriteCollectiveReductions(ModuleOp module,
                                    function_ref<bool(Operation *)> rewrite);

/// The `collective_group_key` frontend attribute of `op`, or null (two
/// collectives merge only when these are equal).
Attribute collectiveGroupKey(Operation *op);

/// XLA's CombineInstructionsByKey on each computation of `module` but the
/// fused ones (none with a threshold <= 0): repeatedly takes the first
/// instruction with a key, and the following ones with the same key in
/// order until the byte or count threshold is reached or one depends on an
/// earlier member; calls `combine` on groups of two or more, which must
/// create the combined instruction before the last member and return the
/// values that replace each member. The pass then replaces and erases the
/// members and moves the instructions that depended on them after the
/// replacements. Returns the number of groups combined. Cost: O((n + m) log
/// n) for n instructions, where m counts, over all groups, the instructions
/// that depend on a group's members up to the candidate that ended it (the
/// ones moved, plus those between the last member and that candidate): the
/// candidates of each key and the first remaining one are kept in ordered
/// sets, and the dependents are found from the members' users, never by a
/// walk of the computation.
int64_t combineByKey(
    ModuleOp module, function_ref<std::optional<std::string>(Operation *)> key,
    function_ref<SmallVector<Value>(ArrayRef<Operation *>, OpBuilder &)>
        combine,
    int64_t thresholdBytes, int64_t thresholdCount);

/// The location of a combined instruction named `name`: the first member's
/// metadata with XLA's merged op_name (`prefix/(a:b:c)`) and source files.
Location combinedLoc(ArrayRef<Operation *> members, StringRef name);

/// Sets on `combined` what XLA's GPU combiners give it: the members' merged
/// frontend attributes (each key's distinct values, comma-joined) and a
/// default GpuBackendConfig.
void setCombinedAttrs(Operation *combined, ArrayRef<Operation *> members);

/// The gather/scatter dimension most members use, if it is below every
/// member's rank, else 0 (XLA's FindMostFrequentGatherDim).
int64_t mostFrequentDim(ArrayRef<Operation *> members,
                        function_ref<int64_t(Operation *)> dimOf);

/// `type` with dimensions `a` and `b` swapped and its layout permuted the
/// same way, so that a bitcast between the two is a transpose that moves
/// no byte (XLA's ShapeUtil::PermuteDimensions with a swap).
RankedTensorType swapDims(RankedTensorType type, int64_t a, int64_t b);

/// Combines all-gathers or reduce-scatters (`opName`) along
/// `dimensions`: the operands of members with another dimension are
/// bitcast so that it becomes the common one, and their results bitcast
/// back. `extraAttrs` are the combined op's own attributes besides
/// `dimensions`.
SmallVector<Value> combineAlongDim(ArrayRef<Operation *> members,
                                   OpBuilder &builder, StringRef opName,
                                   StringRef name, int64_t dim,
                                   function_ref<int64_t(Operation *)> dimOf,
                                   ArrayRef<NamedAttribute> extraAttrs);

/// Combines collectives (`opName`) of one array operand each into one of
/// all their operands with `attrs` and the tuple of their result types
/// (XLA's all-reduce and collective-permute combine steps); returns the
/// get-tuple-elements that replace the members.
SmallVector<Value> combineIntoTuple(ArrayRef<Operation *> members,
                                    OpBuilder &builder, StringRef opName,
                                    StringRef name,
                                    ArrayRef<NamedAttribute> attrs);

/// The attributes of a collective that a combined one copies from the
/// first member: replica groups, channel id, global device ids.
SmallVector<NamedAttribute> sharedCollectiveAttrs(Operation *first);

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_COLLECTIVECOMBINERUTILS_H
