//===- ThunkCollectiveOps.td - collectives of the thunk dialect -*- tablegen -*-===//
//
// The thunks that exchange data between the devices of a program: XLA's
// NCCL thunks (all-reduce, all-gather, reduce-scatter, all-to-all,
// ragged-all-to-all, collective-permute, collective-broadcast) and the
// replica-id / partition-id thunks. Included by ThunkOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_THUNK_THUNKCOLLECTIVEOPS_TD
#define HLO_DIALECT_THUNK_THUNKCOLLECTIVEOPS_TD

// The trait of every thunk that exchanges data between devices (the
// runtimes meet the devices in them): `isCollectiveThunk(op)`.
def Thunk_CollectiveThunkTrait : NativeOpTrait<"CollectiveThunk"> {
  let cppNamespace = "::mlir::OpTrait::thunk";
}

// Groups of device ids (replica * num_partitions + partition), resolved
// from HLO's replica groups and group mode when the program is compiled.
def Thunk_DeviceGroups
    : TypedArrayAttrBase<DenseI64ArrayAttr, "groups of device ids">;

// A collective over `groups`: every device of the program runs it with its
// own `inputs` and `outputs` (the same slices in each device's memory).
class Thunk_CollectiveOp<string mnemonic, list<Trait> traits = []>
    : Thunk_Op<mnemonic, traits # [Thunk_CollectiveThunkTrait]> {
  code commonDescription = [{
    Every device of the program (`thunk.program`'s `num_replicas` x
    `num_partitions`) runs the thunk, each on its own memory; the devices
    meet in it. `groups` lists the devices that exchange data, as device
    ids (`replica * num_partitions + partition`); every device is in exactly
    one group, and a device's position in its group orders its data.
    With `async_id` (XLA's collective start thunks, for HLO's asynchronous
    collectives) the thunk only starts the collective, on the device's
    collective stream, and the stream running the program goes on; the
    `thunk.collective_done` of the same id, later in the same block, waits
    for it (the outputs hold the result from then on). A device's
    collectives, synchronous or not, run in program order on its
    collective stream.
  }];
  let hasVerifier = 1;
  code deviceGroupsDeclaration = [{
    /// `groups` as lists of device ids.
    ::llvm::SmallVector<::llvm::ArrayRef<int64_t>> getDeviceGroups() {
      ::llvm::SmallVector<::llvm::ArrayRef<int64_t>> groups;
      for (::mlir::Attribute a : getGroups())
        groups.push_back(::llvm::cast<::mlir::DenseI64ArrayAttr>(a));
      return groups;
    }
  }];
  let extraClassDeclaration = deviceGroupsDeclaration;
}

// A collective with inputs and outputs in pairs.
class Thunk_PairedCollectiveOp<string mnemonic, list<Trait> traits = []>
    : Thunk_CollectiveOp<mnemonic, traits # [AttrSizedOperandSegments]>;

def Thunk_AllReduceOp : Thunk_PairedCollectiveOp<"all_reduce"> {
  let summary = "reduces each input over its group, by NCCL";
  let description = !strconcat([{
    XLA's NcclAllReduceThunk, HLO's `all-reduce`: output `i` of every
    member is input `i` of the group's members combined element by element
    with `reduction`, in group order (16-bit floats rounded after each
    step). Inputs and outputs pair up with the same shapes and element
    types.
  }], commonDescription, [{

    ```mlir
    thunk.all_reduce sum groups [array<i64: 0, 1>]
        ins(%a : memref<1024xf32>) outs(%b : memref<1024xf32>)
    ```
  }]);
  let arguments = (ins Thunk_ReductionKindAttr:$reduction,
    Thunk_DeviceGroups:$groups,
    Arg<Variadic<Thunk_Slice>, "", [MemRead]>:$inputs,
    Arg<Variadic<Thunk_Slice>, "", [MemWrite]>:$outputs,
    OptionalAttr<I64Attr>:$async_id);
  let assemblyFormat = [{
    `` $reduction `groups` $groups
    `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)` attr-dict
  }];
}

def Thunk_AllGatherOp : Thunk_PairedCollectiveOp<"all_gather"> {
  let summary = "concatenates each input over its group, by NCCL";
  let description = !strconcat([{
    XLA's NcclAllGatherThunk, HLO's `all-gather`: output `i` of every member
    is input `i` of the group's members concatenated along `dimension` in
    group order. The slices' types give their logical shapes and layouts.
  }], commonDescription, [{

    ```mlir
    thunk.all_gather dimension 0 groups [array<i64: 0, 1>]
        ins(%a : memref<4x8xf32>) outs(%b : memref<8x8xf32>)
    ```
  }]);
  let arguments = (ins I64Attr:$dimension, Thunk_DeviceGroups:$groups,
    Arg<Variadic<Thunk_Slice>, "", [MemRead]>:$inputs,
    Arg<Variadic<Thunk_Slice>, "", [MemWrite]>:$outputs,
    OptionalAttr<I64Attr>:$async_id);
  let assemblyFormat = [{
    `dimension` $dimension `groups` $groups
    `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)` attr-dict
  }];
}

def Thunk_ReduceScatterOp : Thunk_PairedCollectiveOp<"reduce_scatter"> {
  let summary = "reduces over the group and scatters the result, by NCCL";
  let description = !strconcat([{
    XLA's NcclReduceScatterThunk, HLO's `reduce-scatter`: input `i` of the
    group's members is reduced as by `thunk.all_reduce`, split along
    `dimension` into one equal chunk per member, and member `j` gets chunk
    `j` as output `i`.
  }], commonDescription, [{

    ```mlir
    thunk.reduce_scatter sum dimension 0 groups [array<i64: 0, 1>]
        ins(%a : memref<8x8xf32>) outs(%b : memref<4x8xf32>)
    ```
  }]);
  let arguments = (ins Thunk_ReductionKindAttr:$reduction,
    I64Attr:$dimension, Thunk_DeviceGroups:$groups,
    Arg<Variadic<Thunk_Slice>, "", [MemRead]>:$inputs,
    Arg<Variadic<Thunk_Slice>, "", [MemWrite]>:$outputs,
    OptionalAttr<I64Attr>:$async_id);
  let assemblyFormat = [{
    `` $reduction `dimension` $dimension `groups` $groups
    `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)` attr-dict
  }];
}

def Thunk_AllToAllOp : Thunk_PairedCollectiveOp<"all_to_all"> {
  let summary = "every member sends a part of its data to every member";
  let description = !strconcat([{
    XLA's NcclAllToAllThunk, HLO's `all-to-all`. With a `dimension` (the
    array form), every input is split along it into one equal chunk per
    member; member `j`'s output `i` is chunk `j` of input `i` of every
    member, concatenated along `dimension` in group order. Without one (the
    tuple form), there is one input and one output per member: member `j`'s
    output `k` is input `j` of member `k`.
  }], commonDescription, [{

    ```mlir
    thunk.all_to_all dimension 0 groups [array<i64: 0, 1>]
        ins(%a : memref<8x8xf32>) outs(%b : memref<8x8xf32>)
    ```
  }]);
  let arguments = (ins OptionalAttr<I64Attr>:$dimension,
    Thunk_DeviceGroups:$groups,
    Arg<Variadic<Thunk_Slice>, "", [MemRead]>:$inputs,
    Arg<Variadic<Thunk_Slice>, "", [MemWrite]>:$outputs,
    OptionalAttr<I64Attr>:$async_id);
  let assemblyFormat = [{
    (`dimension` $dimension^)? `groups` $groups
    `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)` attr-dict
  }];
}

def Thunk_RaggedAllToAllOp : Thunk_CollectiveOp<"ragged_all_to_all"> {
  let summary = "every member sends row ranges of its input to every member";
  let description = !strconcat([{
    XLA's RaggedAllToAllThunk, HLO's `ragged-all-to-all`. `ranges` are
    four slices of one integer type and one length, a multiple `g * k` of
    the group's size `g`: `input_offsets`, `send_sizes`, `output_offsets`
    and `recv_sizes`, each member's own. Entry `j * k + u` of a member's
    arrays is its update `u` to member `j`: rows
    `[input_offsets[j*k+u], + send_sizes[j*k+u])` of its `input` (rows
    along dimension 0) go to member `j`, which writes them from row
    `output_offsets[j*k+u]` (the sender's value) of its `output`. The
    output is updated in place: the rows no update writes keep what they
    held (HLO's output operand, which the buffer assignment gives the
    result's buffer). `recv_sizes` is what the member receives from each
    peer, as NCCL needs it; the updates must lie inside `input` and
    `output` (the runtimes report the first that does not).
  }], commonDescription, [{

    ```mlir
    thunk.ragged_all_to_all groups [array<i64: 0, 1>]
        ins(%x : memref<6x4xf32>)
        ranges(%io, %ss, %oo, %rs : memref<2xi32>, memref<2xi32>,
                                    memref<2xi32>, memref<2xi32>)
        outs(%y : memref<6x4xf32>)
    ```
  }]);
  let arguments = (ins Thunk_DeviceGroups:$groups,
    Arg<Thunk_Slice, "", [MemRead]>:$input,
    Arg<Thunk_Slice, "", [MemRead]>:$input_offsets,
    Arg<Thunk_Slice, "", [MemRead]>:$send_sizes,
    Arg<Thunk_Slice, "", [MemRead]>:$output_offsets,
    Arg<Thunk_Slice, "", [MemRead]>:$recv_sizes,
    Arg<Thunk_Slice, "", [MemRead, MemWrite]>:$output,
    OptionalAttr<I64Attr>:$async_id);
  let assemblyFormat = [{
    `groups` $groups `ins` `(` $input `:` type($input) `)`
    `ranges` `(` $input_offsets `,` $send_sizes `,` $output_offsets `,`
    $recv_sizes `:` type($input_offsets) `,` type($send_sizes) `,`
    type($output_offsets) `,` type($recv_sizes) `)`
    `outs` `(` $output `:` type($output) `)` attr-dict
  }];
  let extraClassDeclaration = deviceGroupsDeclaration # [{
    /// input_offsets, send_sizes, output_offsets, recv_sizes.
    ::std::array<::mlir::TypedValue<::mlir::MemRefType>, 4> getRanges() {
      return {getInputOffsets(), getSendSizes(), getOutputOffsets(),
              getRecvSizes()};
    }
  }];
}

def Thunk_CollectivePermuteOp
    : Thunk_PairedCollectiveOp<"collective_permute"> {
  let summary = "sends each device's input to another device, by NCCL";
  let description = [{
    XLA's NcclCollectivePermuteThunk, HLO's `collective-permute`: for every
    pair (source, target) of `pairs` (device ids; a device is the source of
    at most one pair and the target of at most one), output `i` of the
    target is input `i` of the source; a device that is no target gets
    zeros. Inputs and outputs pair up with the same shapes and element
    types.

    ```mlir
    thunk.collective_permute pairs [array<i64: 0, 1>, array<i64: 1, 0>]
        ins(%a : memref<16xf32>) outs(%b : memref<16xf32>)
    ```
  }];
  let arguments = (ins Thunk_DeviceGroups:$pairs,
    Arg<Variadic<Thunk_Slice>, "", [MemRead]>:$inputs,
    Arg<Variadic<Thunk_Slice>, "", [MemWrite]>:$outputs,
    OptionalAttr<I64Attr>:$async_id);
  let assemblyFormat = [{
    `pairs` $pairs
    `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)` attr-dict
  }];
  let extraClassDeclaration = [{
    /// The (source, target) pairs.
    ::llvm::SmallVector<std::pair<int64_t, int64_t>> getSourceTargetPairs() {
      ::llvm::SmallVector<std::pair<int64_t, int64_t>> pairs;
      for (::mlir::Attribute a : getPairs()) {
        auto p = ::llvm::cast<::mlir::DenseI64ArrayAttr>(a);
        pairs.push_back({p[0], p[1]});
      }
      return pairs;
    }
  }];
}

def Thunk_CollectiveBroadcastOp
    : Thunk_PairedCollectiveOp<"collective_broadcast"> {
  let summary = "copies the first member's inputs to its group, by NCCL";
  let description = !strconcat([{
    XLA's NcclCollectiveBroadcastThunk, HLO's `collective-broadcast`:
    output `i` of every member is input `i` of the group's first member.
    Inputs and outputs pair up with the same shapes and element types.
  }], commonDescription, [{

    ```mlir
    thunk.collective_broadcast groups [array<i64: 2, 0, 1, 3>]
        ins(%a : memref<16xf32>) outs(%b : memref<16xf32>)
    ```
  }]);
  let arguments = (ins Thunk_DeviceGroups:$groups,
    Arg<Variadic<Thunk_Slice>, "", [MemRead]>:$inputs,
    Arg<Variadic<Thunk_Slice>, "", [MemWrite]>:$outputs,
    OptionalAttr<I64Attr>:$async_id);
  let assemblyFormat = [{
    `groups` $groups
    `ins` `(` $inputs `:` type($inputs) `)`
    `outs` `(` $outputs `:` type($outputs) `)` attr-dict
  }];
}

def Thunk_CollectiveDoneOp
    : Thunk_Op<"collective_done", [MemoryEffects<[MemWrite]>]> {
  let summary = "waits for an asynchronous collective";
  let description = [{
    XLA's CollectiveDoneThunk: the program's stream waits until the
    collective thunk started with the same `async_id` (earlier in the same
    block) has finished on the device's collective stream. The program's
    verifier checks the pairing: every `async_id` started in a block is
    waited for once, later in that block, before it starts again.

    ```mlir
    thunk.all_reduce sum groups [array<i64: 0, 1>]
        ins(%a : memref<1024xf32>) outs(%b : memref<1024xf32>)
        {async_id = 0 : i64}
    thunk.kernel @fusions::@f ...   // overlaps the all-reduce
    thunk.collective_done 0
    ```
  }];
  let arguments = (ins I64Attr:$async_id);
  let assemblyFormat = "$async_id attr-dict";
}

def Thunk_DeviceIdOp : Thunk_Op<"device_id"> {
  let summary = "writes the running device's replica or partition id";
  let description = [{
    XLA's ReplicaIdThunk and PartitionIdThunk, HLO's `replica-id` and
    `partition-id`: writes the replica (or partition) number of the device
    running the program to `target`, one 32-bit unsigned integer.

    ```mlir
    thunk.device_id replica %a : memref<ui32>
    ```
  }];
  let arguments = (ins Thunk_DeviceIdKindAttr:$kind,
    Arg<Thunk_Slice, "", [MemWrite]>:$target);
  let assemblyFormat = "`` $kind $target attr-dict `:` type($target)";
  let hasVerifier = 1;
}

def Thunk_RngGetAndUpdateStateOp : Thunk_Op<"rng_get_and_update_state"> {
  let summary = "writes the device's random state, then advances it";
  let description = [{
    XLA's RngGetAndUpdateStateThunk, HLO's `rng-get-and-update-state`
    (what XLA's RngExpander makes of `rng`): writes the running device's
    state of the random number generator to `target` as two 64-bit words
    (the state, then 0), then adds `delta` to the state. Each device has
    its state; it starts at the program's `rng_seed` and persists from one
    run of the program to the next.

    ```mlir
    thunk.rng_get_and_update_state %s delta 32 : memref<2xui64>
    ```
  }];
  let arguments = (ins Arg<Thunk_Slice, "", [MemWrite]>:$target,
    I64Attr:$delta);
  let assemblyFormat = "$target `delta` $delta attr-dict `:` type($target)";
  let hasVerifier = 1;
}

#endif // HLO_DIALECT_THUNK_THUNKCOLLECTIVEOPS_TD
