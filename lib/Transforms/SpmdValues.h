//===- SpmdValues.h - the tiles of the values being partitioned -*- C++ -*-===//
//
// What hlo-spmd-partitioner knows of the values of the computation it
// partitions (the tiles each holds, the whole shape it had) and the
// collectives and slices that reshard them.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_SPMDVALUES_H
#define HLO_LIB_TRANSFORMS_SPMDVALUES_H

#include "SpmdManualGroups.h"
#include "WhileLoopUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTileSharding.h"

#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace mlir::hlo {

inline RankedTensorType arrayType(Value v) {
  return dyn_cast<RankedTensorType>(v.getType());
}

inline RankedTensorType withShape(RankedTensorType t, ArrayRef<int64_t> shape) {
  return RankedTensorType::get(shape, t.getElementType(), t.getEncoding());
}

/// For each operand dimension of broadcast, transpose, reshape or a
/// one-input reduce `op` (operand of shape `in`, result of shape `out`), the
/// result dimension it is (-1: none, a reduced dimension); for a reshape,
/// the first dimension of more than one element of each group of as many
/// elements on both sides is the other's (a split's or merge's major
/// part: `fitReshapeTiles` says which tiles carry); nothing for other
/// instructions. Shardings carry tiles along it
/// (hlo-sharding-propagation both ways, hlo-spmd-partitioner).
std::optional<SmallVector<int64_t>>
resultDimsOf(Operation *op, ArrayRef<int64_t> in, ArrayRef<int64_t> out);
/// For each dimension of operand `operand` (0: lhs, 1: rhs) of a dot, the
/// result dimension it is (-1: contracting).
SmallVector<int64_t> dotResultDims(DotOp op, unsigned operand);

/// For each dimension of operand `operand` (0: input, 1: kernel) of a
/// convolution, the result dimension it is: the input's batch and spatial
/// dimensions, the kernel's output features (-1: the others).
SmallVector<int64_t> convResultDims(ConvolutionOp op, unsigned operand);

/// `t`, tiles of the result of `op` (a convolution, reduce-window, pad,
/// slice or select-and-scatter, not yet partitioned) or of its (array) operand
/// (`ofResult` false), whole along the dimensions its window slides over
/// where the partitioner cannot serve them: for a convolution,
/// reduce-window, pad or slice where no halo exchange can (a dilated base,
/// interior padding, windows reaching past the neighbouring tiles: a
/// kernel's gradient), for a select-and-scatter where windows cross
/// tiles; `t` for other instructions.
TileSharding fitWindowTiles(Operation *op, TileSharding t, bool ofResult);

/// A concatenate of pieces of one array along one of its dimensions (the
/// array itself, or slices of unit strides taking its other dimensions
/// whole), each starting where the one before ends or, the array's end
/// reached, at its start: element i of the result along `dim` is element
/// (start + i) mod n of `source` (jnp.roll, a pad in "wrap" mode).
struct Rotation {
  Value source;
  int64_t dim = 0, start = 0;
};
/// `op` as a rotation, the whole shapes of its operands' arrays by
/// `shapeOf`; nothing for other concatenates.
std::optional<Rotation>
matchRotation(ConcatenateOp op,
              function_ref<SmallVector<int64_t>(Value)> shapeOf);
/// `t`, tiles of rotation `r`'s result or source (the same), made whole
/// along its dimension where the partitioner cannot rotate the tiles
/// (`rotationHalo`: uneven source tiles) or where each partition would
/// receive as much as an all-gather gives it (`size`: the source's length
/// there, `outSize` the result's).
TileSharding fitRotationTiles(TileSharding t, const Rotation &r, int64_t size,
                              int64_t outSize);

/// Whether `v` is zeros (a zero constant, broadcast or not).
bool isZeros(Value v);

/// For each dimension of a gather's start indices, the result dimension it
/// is (its batch dimensions, in order; -1 for the index vector dimension).
SmallVector<int64_t> gatherIndexDims(GatherOp op);

/// For each operand dimension of a gather of an operand of shape `operand`
/// (whole), the result (offset) dimension that is its whole slice (-1: a
/// dimension the gather indexes, collapses or batches, or a slice smaller than
/// it): the dimensions whose tiles pass from the operand to the result.
SmallVector<int64_t> gatherPassthroughDims(GatherOp op,
                                           ArrayRef<int64_t> operand);
/// For each operand dimension of a scatter of one operand (of shape
/// `operand`, its updates of shape `updates`: whole), the update dimension
/// that is its whole window (-1: a dimension the scatter indexes,
/// inserts or batches, or a window smaller than it): the dimensions whose
/// tiles pass from the operand to the result and to the updates.
SmallVector<int64_t> scatterPassthroughDims(ScatterOp op,
                                            ArrayRef<int64_t> operand,
                                            ArrayRef<int64_t> updates);

/// `t`, tiles of an array of shape `shape` that a reshape maps to an array
/// of shape `other` (dimension d to `dims[d]`, -1: none), with the tiles a
/// reshape cannot carry made whole: those of a dimension it drops, splits
/// or merges unless the tile count divides both sizes (then each tile is
/// the major part of the other side's).
TileSharding fitReshapeTiles(TileSharding t, ArrayRef<int64_t> shape,
                             ArrayRef<int64_t> other, ArrayRef<int64_t> dims);
/// `a` with the tiles of `b` added along the dimensions `a` leaves whole,
/// where one assignment of partitions holds both (XLA's merge of
/// compatible shardings).
TileSharding mergeTiles(const TileSharding &a, const TileSharding &b);
/// The tiles of a reverse of `dims` holding tiles `t` (or the other way
/// round): tile k of a reversed dimension of n tiles becomes tile n-1-k
/// (over uneven tiles, the padded array's: the partitioner shifts it).
TileSharding mirrorTiles(TileSharding t, ArrayRef<int64_t> dims);
/// `dims` (operand dimension -> result dimension) the other way round, for
/// a result of rank `rank`.
SmallVector<int64_t> invertDims(ArrayRef<int64_t> dims, int64_t rank);

/// How many instructions of `module` name each computation.
DenseMap<StringAttr, int64_t> countCallers(ModuleOp module);
/// The body and condition of `loop` where the loop alone names them
/// (`callers`: `countCallers`) and its state is an array or a tuple of
/// arrays: a loop whose state's leaves keep their tiles (sharding
/// propagation and the partitioner go into it); nothing otherwise.
std::optional<std::pair<ComputationOp, ComputationOp>>
tiledLoop(WhileOp loop, SymbolTable &symbols,
          const DenseMap<StringAttr, int64_t> &callers);

/// The branches of `op` where it alone names each and their parameters
/// and its result are arrays or tuples of arrays, its branch index a
/// scalar: a conditional whose result keeps its tiles (sharding
/// propagation and the partitioner go into its branches); nothing
/// otherwise.
std::optional<SmallVector<ComputationOp>>
tiledBranches(ConditionalOp op, SymbolTable &symbols,
              const DenseMap<StringAttr, int64_t> &callers);

class SpmdValues {
public:
  SpmdValues(MLIRContext *ctx, int64_t numReplicas, int64_t numPartitions,
             int64_t firstChannel)
      : ctx(ctx), numReplicas(numReplicas), numPartitions(numPartitions),
        allPartitions(numPartitions), nextChannel(firstChannel) {}

  /// The partitions tiles are over: the module's, or in a manual region's
  /// groups (`setGroups`) the local ids of one group.
  int64_t getNumPartitions() const { return numPartitions; }
  /// From now on, tiles are over the local ids of `groups` and each
  /// collective runs in every group (null: over the module's partitions).
  void setGroups(const ManualGroups *groups);
  const ManualGroups *getGroups() const { return groups; }
  /// The element of `table` (one per partition of getNumPartitions()) at
  /// the partition id (in a manual region, at its local id): an s32
  /// scalar; the partition id read into `pid` unless it holds it.
  Value atPartition(InstBuilder &ib, ArrayRef<int32_t> table,
                    Value *pid = nullptr);
  /// Collectives made so far.
  int64_t getNumCollectives() const { return collectives; }
  /// Records that array `v` holds tiles `t` of an array of shape `whole`.
  void setTiles(Value v, const TileSharding &t, ArrayRef<int64_t> whole) {
    wholeShapes[v] = SmallVector<int64_t>(whole);
    current.insert_or_assign(v, t);
  }

  /// The tiles array `v` holds now (whole when not recorded).
  TileSharding currentOf(Value v);

  /// `v` (tiles `from` of an array of shape `whole`) with the tiles `to`.
  Value reshard(InstBuilder &ib, Value v, TileSharding from,
                const TileSharding &to, ArrayRef<int64_t> whole);

  /// A value made from `v` before in `block` by what `key` says (a halo:
  /// SpmdHalos.cpp), to serve later users too; null if none.
  Value madeFrom(Value v, Block *block, ArrayRef<int64_t> key) const;
  /// Records that `made` was made from `v` by what `key` says.
  void recordMade(Value v, ArrayRef<int64_t> key, Value made) {
    derived[v].push_back({SmallVector<int64_t>(key), made});
  }

  /// A collective-permute of `v` along `pairs` (source, target partition).
  Value permute(InstBuilder &ib, Value v,
                ArrayRef<std::pair<int64_t, int64_t>> pairs);

  /// Operand `i` of `op` resharded to `to`.
  void setOperandTiles(Operation *op, unsigned i, const TileSharding &to);

  /// The shape of array `v` before partitioning.
  ArrayRef<int64_t> wholeShape(Value v);

  /// Result 0 of `op` (an array of shape `whole`) becomes tile `t`.
  void setResultTiles(Operation *op, const TileSharding &t);

  /// Partial results to sum: further dimensions of `tiles` tiles each,
  /// partition p at coordinates `coords[p]` there (a dot's contracting
  /// dimensions, a reduce's reduced ones, ...), under result tiles `out`.
  /// Each operand's tiles (`operands[i].first`) gain them as its
  /// dimensions `operands[i].second`; returns the groups an all-reduce
  /// sums across. Nothing, the operands unchanged, where there are no such
  /// dimensions or no one assignment holds them all.
  std::optional<SmallVector<SmallVector<int64_t>>>
  partialSums(const TileSharding &out, ArrayRef<int64_t> tiles,
              ArrayRef<SmallVector<int64_t>> coords,
              ArrayRef<std::pair<TileSharding *, ArrayRef<int64_t>>> operands);

  /// The tiles leaf `i` of tuple `tuple` holds and its whole shape
  /// (an element of a tuple made here, or as recorded by `setLeafTiles`;
  /// whole when not recorded), nothing for a leaf that is not an array.
  std::optional<std::pair<TileSharding, SmallVector<int64_t>>>
  leafOf(Value tuple, unsigned i);
  /// Records that the leaves of tuple `tuple` (a loop's state, arrays)
  /// hold tiles `t` of arrays of shapes `whole`.
  void setLeafTiles(Value tuple, ArrayRef<TileSharding> t,
                    ArrayRef<SmallVector<int64_t>> whole);
  /// `tuple` with its array leaves in tiles `to` (a new tuple where one
  /// changes).
  Value reshardLeaves(InstBuilder &ib, Value tuple, ArrayRef<TileSharding> to);

  /// The all-reduce by `reducer` of `op`'s result across `groups`.
  void sumPartials(Operation *op, StringRef reducer,
                   ArrayRef<SmallVector<int64_t>> groups);

private:
  /// `base` with dimensions `dims` tiled as `tiles` with each partition's
  /// coordinates `coords` there (the partial-sum dimensions), if one
  /// assignment holds them.
  std::optional<TileSharding>
  withPartialDims(const TileSharding &base, ArrayRef<int64_t> dims,
                  ArrayRef<int64_t> tiles,
                  ArrayRef<SmallVector<int64_t>> coords);

  /// Replica groups of partition-id groups `groups` as global device ids,
  /// on every replica.
  ReplicaGroupsAttr globalGroups(ArrayRef<SmallVector<int64_t>> groups);

  /// `reshard` without the reuse of one made before.
  Value reshardAnew(InstBuilder &ib, Value v, TileSharding from,
                    const TileSharding &to, ArrayRef<int64_t> whole);
  /// `v` (tiles `from`) in tiles `to` of the same counts held by other
  /// partitions: a collective-permute; nothing for other tiles.
  std::optional<Value> permuteTiles(InstBuilder &ib, Value v,
                                    const TileSharding &from,
                                    const TileSharding &to);
  /// `v` (tiles `from` of an array of shape `whole`) in tiles `to` that
  /// move one dimension's tiles to another (evenly, each partition's
  /// coordinate kept): an all-to-all; nothing for other tiles.
  std::optional<Value> allToAllTiles(InstBuilder &ib, Value v,
                                     const TileSharding &from,
                                     const TileSharding &to,
                                     ArrayRef<int64_t> whole);

  /// A new collective's channel id.
  NamedAttribute newChannel(OpBuilder &b);
  /// A new collective's channel id, groups (`g`: partition ids) and
  /// use_global_device_ids.
  SmallVector<NamedAttribute> collectiveAttrs(OpBuilder &b,
                                              ArrayRef<SmallVector<int64_t>> g);

  /// Partition groups `g` (partition ids of getNumPartitions()) as groups
  /// of the module's partition ids: in every manual group.
  SmallVector<SmallVector<int64_t>>
  moduleGroups(ArrayRef<SmallVector<int64_t>> g) const;

  MLIRContext *ctx;
  int64_t numReplicas, numPartitions, allPartitions, nextChannel;
  const ManualGroups *groups = nullptr;
  int64_t collectives = 0;
  /// The tiles each partitioned array value holds (absent: whole).
  DenseMap<Value, TileSharding> current;
  /// The whole shapes of values made tiles.
  DenseMap<Value, SmallVector<int64_t>> wholeShapes;
  /// The reshards made of each value.
  struct Reshard {
    TileSharding from, to;
    Value value;
  };
  DenseMap<Value, SmallVector<Reshard, 1>> reshards;
  /// Values made from a value, by their keys (`madeFrom`).
  DenseMap<Value, SmallVector<std::pair<SmallVector<int64_t>, Value>, 1>>
      derived;
  /// The leaves' tiles and whole shapes of loop states.
  DenseMap<Value, SmallVector<std::pair<TileSharding, SmallVector<int64_t>>>>
      leaves;
};

//===----------------------------------------------------------------------===//
// Instruction rules (SpmdRules.cpp): each reshards the operands of `op` to
// the tiles the result's tiles `out` need and gives the result `out`;
// false when it does not apply (the instruction then runs whole).
//===----------------------------------------------------------------------===//

/// Elementwise instructions of one shape: operands in the result's tiles.
bool partitionElementwise(SpmdValues &values, Operation *op,
                          const TileSharding &out);
/// Broadcast, transpose and reshape: the operand in the tiles of the
/// dimensions the result keeps of it (a reshape only where it can carry
/// every tile: `fitReshapeTiles`).
bool partitionMapped(SpmdValues &values, Operation *op,
                     const TileSharding &out);
/// Dot: operands in the tiles of their batch and free dimensions; partial
/// products summed by an all-reduce (`adder`: a scalar add computation of
/// an element type) where both are tiled alike along contracting ones.
void partitionDot(SpmdValues &values, DotOp op, const TileSharding &out,
                  function_ref<StringRef(Type)> adder);
/// A convolution tiled along batch, output features and spatial
/// dimensions: the input in the result's batch and spatial tiles, those
/// with halos (SpmdWindows.cpp), the kernel in its output features';
/// where both are tiled alike along the input features or along a window
/// the result takes whole, partial results summed by an all-reduce
/// (`adder`). Feature groups: the output features tiled along whole
/// groups, the input features in the same tiles (no partial sums). Batch
/// groups: the batch and output features whole, partial sums of the input
/// features only.
bool partitionConvolution(SpmdValues &values, ConvolutionOp op,
                          const TileSharding &out,
                          function_ref<StringRef(Type)> adder);
/// A reduce-window of one operand tiled along any dimension, evenly along
/// those it slides over: the operand in the result's tiles, with halos
/// where the window reads from the neighbouring tiles.
bool partitionReduceWindow(SpmdValues &values, ReduceWindowOp op,
                           const TileSharding &out);
/// A gather tiled along its batch dimensions (index passthrough) and its
/// operand's passthrough dimensions (gatherPassthroughDims).
/// An operand tiled evenly along the one dimension indexed stays so: each
/// partition gathers from its rows (indices out of them masked) and an
/// all-reduce (`adder`) sums the partitions' results.
bool partitionGather(SpmdValues &values, GatherOp op, const TileSharding &out,
                     function_ref<StringRef(Type)> adder);
/// Slice, dynamic-slice and dynamic-update-slice tiled along the
/// dimensions they take whole (a dynamic-update-slice's update too, sliced
/// to its tiles), made whole along the others.
bool partitionSliced(SpmdValues &values, Operation *op,
                     const TileSharding &out);
/// A scatter of one operand tiled along its passthrough dimensions
/// (scatterPassthroughDims), the updates' windows alike; where the updates
/// are tiled evenly along their scatter dimensions and `adds` (the update
/// computation adds), each partition scatters its updates into its operand
/// tile (the identity on all but one partition of each group) and an
/// all-reduce sums the groups (XLA's index passthrough).
bool partitionScatter(SpmdValues &values, ScatterOp op, const TileSharding &out,
                      bool adds);
/// Concatenate, sort, reduce-window and pad of one result tiled along the
/// dimensions they leave as they are (not joined, sorted, windowed or
/// padded): each operand in the result's tiles there, whole along the
/// others.
bool partitionPassthrough(SpmdValues &values, Operation *op,
                          const TileSharding &out);
/// A reverse tiled anywhere: the operand in the mirrored tiles (free where
/// propagation gave them so, else a collective-permute), each partition
/// reversing its own; along unevenly tiled reversed dimensions shifted by
/// a halo from the next tile.
bool partitionReverse(SpmdValues &values, ReverseOp op,
                      const TileSharding &out);
/// An iota tiled anywhere: each partition's tile, counted from its offset
/// along the iota dimension.
bool partitionIota(SpmdValues &values, IotaOp op, const TileSharding &out);
/// A pad tiled along any dimension, along the padded ones without
/// interior padding: each partition's tile of the result from its operand
/// tile and halo, the padding value past the operand's ends.
bool partitionPad(SpmdValues &values, PadOp op, const TileSharding &out);
/// A slice tiled along any dimension: each partition's tile of the result
/// from its operand tile and halo (a window of one element striding from
/// the slice's start).
bool partitionSlice(SpmdValues &values, SliceOp op, const TileSharding &out);
/// A rotation `r` (`op`, its source's whole shape `shape`) tiled along its
/// dimension: each partition's tile from its source tile and a cyclic
/// halo (XLA's rotation of jnp.roll: collective-permutes in a ring).
bool partitionRotation(SpmdValues &values, ConcatenateOp op, const Rotation &r,
                       ArrayRef<int64_t> shape, const TileSharding &out);
/// A select-and-scatter tiled along any dimension: operand and source in
/// the result's tiles. Where windows cross tiles (unpadded: a max-pool's
/// gradient) and the scatter has an `identity` (it adds, takes the
/// maximum, ...), each partition scatters the windows meeting its tile
/// (sources and operand rows as halos from its neighbours, the sources of
/// windows past the array's ends the identity) and keeps its tile.
bool partitionSelectAndScatter(SpmdValues &values, SelectAndScatterOp op,
                               const TileSharding &out,
                               DenseElementsAttr identity);
/// A one-input reduce: partial results summed by the reducer where the
/// operand is tiled evenly along reduced dimensions.
bool partitionReduce(SpmdValues &values, ReduceOp op, const TileSharding &out);

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_SPMDVALUES_H
