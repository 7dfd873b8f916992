//===- HloAttrs.td - hlo dialect attributes -----------------*- tablegen -*-===//
//
// Typed attributes for what HLO text carries. Structured values whose HLO
// spelling is compact (window, dim_labels, slice, padding, replica_groups,
// sharding) print in MLIR as their HLO spelling in quotes, e.g.
// `#hlo.window<"size=3x3 pad=1_1x1_1">`; they are stored parsed, so the
// parameters are typed and the spelling is checked when it is read.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOATTRS_TD
#define HLO_DIALECT_HLO_HLOATTRS_TD

include "Hlo/Dialect/Hlo/HloBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/TensorEncoding.td"

//===----------------------------------------------------------------------===//
// Enums. Case strings are exactly HLO's spellings.
//===----------------------------------------------------------------------===//

class Hlo_Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::mlir::hlo";
  let genSpecializedAttr = 0;
}
class Hlo_EnumAttr<EnumAttrInfo info, string mnemonic>
    : EnumAttr<Hlo_Dialect, info, mnemonic>;

def Hlo_ComparisonDirection : Hlo_Enum<"ComparisonDirection",
    "compare direction=", [
  I32EnumAttrCase<"EQ", 0>, I32EnumAttrCase<"NE", 1>,
  I32EnumAttrCase<"GE", 2>, I32EnumAttrCase<"GT", 3>,
  I32EnumAttrCase<"LE", 4>, I32EnumAttrCase<"LT", 5>]>;
def Hlo_ComparisonDirectionAttr
    : Hlo_EnumAttr<Hlo_ComparisonDirection, "comparison_direction">;

def Hlo_ComparisonType : Hlo_Enum<"ComparisonType", "compare type=", [
  I32EnumAttrCase<"FLOAT", 0>, I32EnumAttrCase<"TOTALORDER", 1>,
  I32EnumAttrCase<"SIGNED", 2>, I32EnumAttrCase<"UNSIGNED", 3>,
  I32EnumAttrCase<"PARTIALORDER", 4>]>;
def Hlo_ComparisonTypeAttr
    : Hlo_EnumAttr<Hlo_ComparisonType, "comparison_type">;

def Hlo_FusionKind : Hlo_Enum<"FusionKind", "fusion kind=", [
  I32EnumAttrCase<"kLoop", 0>, I32EnumAttrCase<"kInput", 1>,
  I32EnumAttrCase<"kOutput", 2>, I32EnumAttrCase<"kCustom", 3>]>;
def Hlo_FusionKindAttr : Hlo_EnumAttr<Hlo_FusionKind, "fusion_kind">;

def Hlo_FftType : Hlo_Enum<"FftType", "fft fft_type=", [
  I32EnumAttrCase<"FFT", 0>, I32EnumAttrCase<"IFFT", 1>,
  I32EnumAttrCase<"RFFT", 2>, I32EnumAttrCase<"IRFFT", 3>]>;
def Hlo_FftTypeAttr : Hlo_EnumAttr<Hlo_FftType, "fft_type">;

def Hlo_RngDistribution : Hlo_Enum<"RngDistribution",
    "rng distribution=", [
  I32EnumAttrCase<"rng_uniform", 1>, I32EnumAttrCase<"rng_normal", 2>]>;
def Hlo_RngDistributionAttr
    : Hlo_EnumAttr<Hlo_RngDistribution, "rng_distribution">;

def Hlo_RngAlgorithm : Hlo_Enum<"RngAlgorithm",
    "rng-bit-generator algorithm=", [
  I32EnumAttrCase<"rng_default", 0>, I32EnumAttrCase<"rng_three_fry", 1>,
  I32EnumAttrCase<"rng_philox", 2>]>;
def Hlo_RngAlgorithmAttr : Hlo_EnumAttr<Hlo_RngAlgorithm, "rng_algorithm">;

def Hlo_Transpose : Hlo_Enum<"Transpose", "triangular-solve transpose_a=", [
  I32EnumAttrCase<"TRANSPOSE_INVALID", 0>,
  I32EnumAttrCase<"NO_TRANSPOSE", 1>, I32EnumAttrCase<"TRANSPOSE", 2>,
  I32EnumAttrCase<"ADJOINT", 3>]>;
def Hlo_TransposeAttr : Hlo_EnumAttr<Hlo_Transpose, "transpose">;

def Hlo_CustomCallApiVersion : Hlo_Enum<"CustomCallApiVersion",
    "custom-call api_version=", [
  I32EnumAttrCase<"API_VERSION_UNSPECIFIED", 0>,
  I32EnumAttrCase<"API_VERSION_ORIGINAL", 1>,
  I32EnumAttrCase<"API_VERSION_STATUS_RETURNING", 2>,
  I32EnumAttrCase<"API_VERSION_STATUS_RETURNING_UNIFIED", 3>,
  I32EnumAttrCase<"API_VERSION_TYPED_FFI", 4>]>;
def Hlo_CustomCallApiVersionAttr
    : Hlo_EnumAttr<Hlo_CustomCallApiVersion, "api_version">;

def Hlo_CustomCallSchedule : Hlo_Enum<"CustomCallSchedule",
    "custom-call schedule=", [
  I32EnumAttrCase<"SCHEDULE_NONE", 0>, I32EnumAttrCase<"SCHEDULE_LATEST", 1>,
  I32EnumAttrCase<"SCHEDULE_EARLIEST", 2>]>;
def Hlo_CustomCallScheduleAttr
    : Hlo_EnumAttr<Hlo_CustomCallSchedule, "schedule">;

def Hlo_Precision : Hlo_Enum<"Precision", "operand_precision= entry", [
  I32EnumAttrCase<"Default", 0, "default">, I32EnumAttrCase<"High", 1, "high">,
  I32EnumAttrCase<"Highest", 2, "highest">,
  I32EnumAttrCase<"PackedNibble", 3, "packed_nibble">]>;
def Hlo_PrecisionAttr : Hlo_EnumAttr<Hlo_Precision, "precision">;
def Hlo_PrecisionArrayAttr
    : TypedArrayAttrBase<Hlo_PrecisionAttr, "operand_precision list">;

def Hlo_DotAlgorithm : Hlo_Enum<"DotAlgorithm", "dot algorithm=", [
  I32EnumAttrCase<"Unset", 0, "unset">,
  I32EnumAttrCase<"DotAnyF8AnyF8F32", 1, "dot_any_f8_any_f8_f32">,
  I32EnumAttrCase<"DotAnyF8AnyF8F32FastAccum", 2,
                  "dot_any_f8_any_f8_f32_fast_accum">,
  I32EnumAttrCase<"DotF16F16F16", 3, "dot_f16_f16_f16">,
  I32EnumAttrCase<"DotF16F16F32", 4, "dot_f16_f16_f32">,
  I32EnumAttrCase<"DotBF16BF16BF16", 5, "dot_bf16_bf16_bf16">,
  I32EnumAttrCase<"DotBF16BF16F32", 6, "dot_bf16_bf16_f32">,
  I32EnumAttrCase<"DotBF16BF16F32X3", 7, "dot_bf16_bf16_f32_x3">,
  I32EnumAttrCase<"DotBF16BF16F32X6", 8, "dot_bf16_bf16_f32_x6">,
  I32EnumAttrCase<"DotTF32TF32F32", 9, "dot_tf32_tf32_f32">,
  I32EnumAttrCase<"DotTF32TF32F32X3", 10, "dot_tf32_tf32_f32_x3">,
  I32EnumAttrCase<"DotF32F32F32", 11, "dot_f32_f32_f32">,
  I32EnumAttrCase<"DotF64F64F64", 12, "dot_f64_f64_f64">,
  I32EnumAttrCase<"DotBF16BF16F32X9", 13, "dot_bf16_bf16_f32_x9">]> {
  // The values are XLA's PrecisionConfig.Algorithm numbers.
}
def Hlo_DotAlgorithmAttr : Hlo_EnumAttr<Hlo_DotAlgorithm, "dot_algorithm">;

// Sharding enums: used as parameters of #hlo.sharding, never as attributes
// of their own.
def Hlo_ShardingKind : Hlo_Enum<"ShardingKind", "sharding kind", [
  I32EnumAttrCase<"Replicated", 0, "replicated">,
  I32EnumAttrCase<"Maximal", 1, "maximal">,
  I32EnumAttrCase<"Manual", 2, "manual">,
  I32EnumAttrCase<"Unknown", 3, "unknown">,
  I32EnumAttrCase<"Tiled", 4, "tiled">,
  I32EnumAttrCase<"Tuple", 5, "tuple">]>;

def Hlo_ShardingSubgroup : Hlo_Enum<"ShardingSubgroup",
    "sharding last_tile_dims= entry", [
  I32EnumAttrCase<"Replicated", 0, "replicated">,
  I32EnumAttrCase<"Manual", 1, "manual">,
  I32EnumAttrCase<"Maximal", 2, "maximal">,
  I32EnumAttrCase<"Unreduced", 3, "unreduced">]>;

def Hlo_ShardGroupKind : Hlo_Enum<"ShardGroupKind", "sharding shard group", [
  I32EnumAttrCase<"None", 0, "none">,
  I32EnumAttrCase<"ShardAs", 1, "shard_as">,
  I32EnumAttrCase<"ShardLike", 2, "shard_like">]>;

def Hlo_AliasKind : Hlo_Enum<"AliasKind", "input_output_alias kind", [
  I32EnumAttrCase<"MayAlias", 0, "may-alias">,
  I32EnumAttrCase<"MustAlias", 1, "must-alias">]>;

//===----------------------------------------------------------------------===//
// Structured attributes.
//===----------------------------------------------------------------------===//

class Hlo_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Hlo_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Hlo_LayoutAttr : Hlo_Attr<"Layout", "layout",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "HLO layout of an array shape, used as a tensor encoding";
  let description = [{
    `minor_to_major` lists dimensions from the fastest to the slowest varying
    one (`{1,0}` in HLO text). Tiles (`T(8,128)(2,1)`), the element size in
    bits (`E(4)`), the memory space (`S(1)`) and the bounds of bounded dynamic
    dimensions (`<=N` in HLO text; `kDynamic` where a dimension has no bound)
    are kept (a `*` tile dimension is INT64_MIN and prints as `*`).
    `hasMinorToMajor` is false when the shape printed no layout.
    Layout items this dialect does not model are kept verbatim in `extra`.
    As a tensor encoding it is verified against its tensor: minor_to_major
    is a permutation of the dimensions, bounds has one entry per dimension
    (a bound only on a dynamic dimension), and each tile has at most the
    tensor's rank.

    ```
    tensor<8x128xf32, #hlo.layout<[1, 0]>>
    tensor<?xf32, #hlo.layout<[0], tiles = [[1024]], bounds = [4194304]>>
    ```
  }];
  let parameters = (ins
    "bool":$hasMinorToMajor,
    ArrayRefParameter<"int64_t">:$minorToMajor,
    ArrayRefParameter<"int64_t">:$tileSizes,
    ArrayRefParameter<"int64_t">:$tileData,
    "int64_t":$elementSizeInBits,
    "int64_t":$memorySpace,
    ArrayRefParameter<"int64_t">:$bounds,
    "StringAttr":$extra);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// Tiles as a list of tile shapes (tileSizes gives each tile's rank).
    SmallVector<ArrayRef<int64_t>> getTiles() const;
    /// True if dimension `dim` is a bounded dynamic dimension.
    bool isBounded(unsigned dim) const {
      return dim < getBounds().size() && getBounds()[dim] != ShapedType::kDynamic;
    }
  }];
}

class Hlo_SyntaxAttr<string name, string attrMnemonic>
    : Hlo_Attr<name, attrMnemonic> {
  let hasCustomAssemblyFormat = 1;
  code syntaxDecl = [{
    /// Parses the HLO text spelling; reports to `emitError` and returns null
    /// on error.
    static Attribute parseHlo(MLIRContext *ctx, StringRef text,
                              function_ref<InFlightDiagnostic()> emitError);
    /// Prints the HLO text spelling (without the `name=` prefix).
    void printHlo(raw_ostream &os) const;
  }];
  let extraClassDeclaration = syntaxDecl;
}

def Hlo_WindowAttr : Hlo_SyntaxAttr<"Window", "window"> {
  let summary = "HLO window (convolution, reduce-window, select-and-scatter)";
  let description = [{
    `window={size=3x3 stride=2x2 pad=1_1x1_1 lhs_dilate=1x1 rhs_dilate=1x1
    rhs_reversal=0x0}` in HLO text; default fields are omitted on print.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$size,
    ArrayRefParameter<"int64_t">:$stride,
    ArrayRefParameter<"int64_t">:$padLow,
    ArrayRefParameter<"int64_t">:$padHigh,
    ArrayRefParameter<"int64_t">:$lhsDilate,
    ArrayRefParameter<"int64_t">:$rhsDilate,
    ArrayRefParameter<"int64_t">:$reversal);
}

def Hlo_ConvDimensionNumbersAttr
    : Hlo_SyntaxAttr<"ConvDimensionNumbers", "conv"> {
  let summary = "HLO convolution dimension numbers (`dim_labels=`)";
  let description = [{
    `dim_labels=b01f_01io->b01f`: `b`/`f` batch and feature, `i`/`o` kernel
    input and output feature, digits the spatial dimensions in order.
  }];
  let parameters = (ins "int64_t":$inputBatch, "int64_t":$inputFeature,
    ArrayRefParameter<"int64_t">:$inputSpatial,
    "int64_t":$kernelInput, "int64_t":$kernelOutput,
    ArrayRefParameter<"int64_t">:$kernelSpatial,
    "int64_t":$outputBatch, "int64_t":$outputFeature,
    ArrayRefParameter<"int64_t">:$outputSpatial);
}

def Hlo_SliceAttr : Hlo_SyntaxAttr<"Slice", "slice"> {
  let summary = "HLO slice bounds, [start:limit:stride] per dimension";
  let parameters = (ins ArrayRefParameter<"int64_t">:$starts,
    ArrayRefParameter<"int64_t">:$limits,
    ArrayRefParameter<"int64_t">:$strides);
}

def Hlo_PaddingAttr : Hlo_SyntaxAttr<"Padding", "padding"> {
  let summary = "HLO padding config (`padding=0_0x1_2_1`: low_high[_interior])";
  let parameters = (ins ArrayRefParameter<"int64_t">:$low,
    ArrayRefParameter<"int64_t">:$high,
    ArrayRefParameter<"int64_t">:$interior);
}

def Hlo_ReplicaGroupsAttr : Hlo_SyntaxAttr<"ReplicaGroups", "replica_groups"> {
  let summary = "HLO replica groups, list, iota or mesh-axes form";
  let description = [{
    List form: `groupSizes` gives the size of each group and `ids` the ids of
    all groups concatenated. Iota form (`[2,4]<=[4,2]T(1,0)`): `iotaShape` is
    [num_groups, group_size], `iotaReshape` the reshape dims and `iotaPerm`
    the transpose (empty when absent).

    Mesh-axes form (XLA's MeshAxesReplicaGroupList, which XLA 0.10.2 prints
    for the collectives its SPMD partitioner makes):
    `mesh['x'=2,'y'=4] {'y'}`, `mesh['a'=8], device_ids=(3,1,...) {'a':(2)2}`
    or `device_ids=([4,2]T(1,0))`. The mesh has named axes
    (`meshAxisNames`, `meshAxisSizes`) over the devices `meshDeviceIds`
    (row-major over the axes; empty: 0..N-1, or `meshDeviceReshape` and
    `meshDevicePerm` for the iota form). A group holds the devices that
    differ only along the listed axes: axis `meshAxisIndex[i]`, or of it
    the sub-axis of size `meshAxisSize[i]` after (more major) sub-axes of
    product `meshAxisPreSize[i]` (both 0 for the whole axis). Within a
    group the listed axes count from the first (major) to the last; the
    groups follow the other coordinates row-major in mesh order.
  }];
  let parameters = (ins "bool":$isIota,
    ArrayRefParameter<"int64_t">:$groupSizes,
    ArrayRefParameter<"int64_t">:$ids,
    ArrayRefParameter<"int64_t">:$iotaShape,
    ArrayRefParameter<"int64_t">:$iotaReshape,
    ArrayRefParameter<"int64_t">:$iotaPerm,
    ArrayRefParameter<"StringAttr">:$meshAxisNames,
    ArrayRefParameter<"int64_t">:$meshAxisSizes,
    ArrayRefParameter<"int64_t">:$meshDeviceIds,
    ArrayRefParameter<"int64_t">:$meshDeviceReshape,
    ArrayRefParameter<"int64_t">:$meshDevicePerm,
    ArrayRefParameter<"int64_t">:$meshAxisIndex,
    ArrayRefParameter<"int64_t">:$meshAxisPreSize,
    ArrayRefParameter<"int64_t">:$meshAxisSize);
  let builders = [
    AttrBuilder<(ins "bool":$isIota, "ArrayRef<int64_t>":$groupSizes,
                     "ArrayRef<int64_t>":$ids, "ArrayRef<int64_t>":$iotaShape,
                     "ArrayRef<int64_t>":$iotaReshape,
                     "ArrayRef<int64_t>":$iotaPerm), [{
      return $_get($_ctxt, isIota, groupSizes, ids, iotaShape, iotaReshape,
                   iotaPerm, ArrayRef<StringAttr>(), ArrayRef<int64_t>(),
                   ArrayRef<int64_t>(), ArrayRef<int64_t>(),
                   ArrayRef<int64_t>(), ArrayRef<int64_t>(),
                   ArrayRef<int64_t>(), ArrayRef<int64_t>());
    }]>
  ];
  let extraClassDeclaration = syntaxDecl # [{
    /// The groups as explicit id lists (expanding the iota and mesh forms).
    SmallVector<SmallVector<int64_t>> getGroups() const;
    /// The mesh-axes form.
    bool isMesh() const { return !getMeshAxisSizes().empty(); }
  }];
}

def Hlo_ShardingAttr : Hlo_SyntaxAttr<"Sharding", "sharding"> {
  let summary = "HLO sharding (replicated, maximal, manual, tiled, tuple...)";
  let description = [{
    Every form of `sharding={...}`, stored structured and printed (in MLIR
    too, quoted) as XLA prints it:

    - `{replicated}`, `{manual}`, `{unknown}`: `kind` alone;
    - `{maximal device=3}`: `kind` Maximal and `device`;
    - `{devices=[2,2]0,2,1,3}`: `kind` Tiled, `tileAssignmentDims` and the
      explicit `tileAssignmentDevices` (row-major);
    - `{devices=[4,2]<=[2,4]T(1,0)}`: the iota form, `iotaReshapeDims` (not
      empty) and `iotaTransposePerm` (empty when no `T(...)` is written), no
      explicit devices;
    - `last_tile_dim_replicate` and `last_tile_dims={manual, replicated}`:
      the trailing tile dimensions that are subgroups, not data dimensions;
    - `shard_as N` / `shard_like N`: `shardGroupKind` and `shardGroupId`;
    - `metadata={op_name="a"}` or `metadata={{...}, {...}}`: one dictionary
      per OpMetadata (the fields as in instruction metadata);
    - `{{replicated}, {maximal device=0}}`: `kind` Tuple, one non-tuple
      sharding per leaf of the tuple shape (`{}` for none).

    The parameters are verified: positive tile dimensions whose product is
    the number of explicit devices (unique, non-negative ids) or of the iota
    reshape dimensions, a permutation, subgroup dimensions that fit the
    tile rank, fields only for the kinds that have them. Against the value
    it annotates (`InstructionOpInterface` and computation arguments): a
    tuple sharding has one element per leaf of a tuple type, a tiled one as
    many data dimensions as each array it shards.
  }];
  let parameters = (ins
    "ShardingKind":$kind,
    "int64_t":$device,
    ArrayRefParameter<"int64_t">:$tileAssignmentDims,
    ArrayRefParameter<"int64_t">:$tileAssignmentDevices,
    ArrayRefParameter<"int64_t">:$iotaReshapeDims,
    ArrayRefParameter<"int64_t">:$iotaTransposePerm,
    "bool":$lastTileDimReplicate,
    ArrayRefParameter<"ShardingSubgroup">:$lastTileDims,
    "ShardGroupKind":$shardGroupKind,
    "int64_t":$shardGroupId,
    ArrayRefParameter<"DictionaryAttr">:$metadata,
    ArrayRefParameter<"ShardingAttr">:$tupleElements);
  let genVerifyDecl = 1;
  let extraClassDeclaration = syntaxDecl # [{
    /// `{replicated}`, `{manual}`, `{unknown}` or `{maximal device=N}`.
    static ShardingAttr get(MLIRContext *ctx, ShardingKind kind,
                            int64_t device = 0);
    /// A tiled sharding with explicit devices (row-major).
    static ShardingAttr getTiled(MLIRContext *ctx, ArrayRef<int64_t> dims,
                                 ArrayRef<int64_t> devices,
                                 bool lastTileDimReplicate = false,
                                 ArrayRef<ShardingSubgroup> lastTileDims = {});
    /// A tiled sharding in iota form: `devices=[dims]<=[reshape]T(perm)`.
    static ShardingAttr getIota(MLIRContext *ctx, ArrayRef<int64_t> dims,
                                ArrayRef<int64_t> reshape,
                                ArrayRef<int64_t> perm = {},
                                bool lastTileDimReplicate = false,
                                ArrayRef<ShardingSubgroup> lastTileDims = {});
    /// A tuple sharding, one element per leaf of the tuple shape.
    static ShardingAttr getTuple(MLIRContext *ctx,
                                 ArrayRef<ShardingAttr> elements);
    /// This sharding with other metadata (not for tuples).
    ShardingAttr withMetadata(ArrayRef<DictionaryAttr> metadata) const;

    bool isTuple() const { return getKind() == ShardingKind::Tuple; }
    bool isTiled() const { return getKind() == ShardingKind::Tiled; }
    bool isMaximal() const { return getKind() == ShardingKind::Maximal; }
    bool isManual() const { return getKind() == ShardingKind::Manual; }
    bool isUnknown() const { return getKind() == ShardingKind::Unknown; }
    /// `{replicated}`, or a tuple whose elements all are (as XLA's
    /// IsReplicated).
    bool isReplicated() const;
    /// A tiled sharding whose tile assignment is in iota form.
    bool isIota() const { return !getIotaReshapeDims().empty(); }
    /// The number of trailing tile dimensions that are subgroups
    /// (last_tile_dim_replicate or last_tile_dims), not data dimensions.
    int64_t getNumSubgroupDims() const {
      return (getLastTileDimReplicate() ? 1 : 0) + getLastTileDims().size();
    }
    /// The rank of the data a tiled sharding shards.
    int64_t getTiledDataRank() const {
      return getTileAssignmentDims().size() - getNumSubgroupDims();
    }
    /// The tile dimensions of the data (without the subgroup dimensions).
    ArrayRef<int64_t> getDataTileDims() const {
      return getTileAssignmentDims().take_front(getTiledDataRank());
    }
    /// The number of devices of the tile assignment (the product of all its
    /// dimensions); 1 for a maximal sharding, 0 for the others.
    int64_t getNumDevices() const;
    /// The number of data tiles (the product of the data tile dimensions);
    /// 1 when not tiled.
    int64_t getNumTiles() const;
    /// The tile assignment's devices in row-major order of
    /// getTileAssignmentDims(), the iota form expanded; `{device}` for a
    /// maximal sharding, empty otherwise.
    SmallVector<int64_t> getDeviceList() const;
    /// The sharding of tuple leaf `i` (the sharding itself when not a
    /// tuple: XLA applies a non-tuple sharding to every leaf).
    ShardingAttr getLeafSharding(unsigned i) const {
      return isTuple() ? getTupleElements()[i] : *this;
    }
    /// Checks this sharding against the type of the value it annotates.
    LogicalResult verifyForType(Type type,
                                function_ref<InFlightDiagnostic()> emitError)
        const;
  }];
}

def Hlo_OutputOperandAliasAttr
    : Hlo_Attr<"OutputOperandAlias", "output_operand_alias"> {
  let summary = "one `output_to_operand_aliasing` entry";
  let description = [{
    `{1}: (0, {})` in HLO text: the result at tuple index `outputIndex`
    shares its buffer with operand `operand` at tuple index `operandIndex`.

    ```
    #hlo.output_operand_alias<output_index = [1], operand = 0, operand_index = []>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$outputIndex,
    "int64_t":$operand,
    ArrayRefParameter<"int64_t">:$operandIndex);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}
def Hlo_OutputOperandAliasArrayAttr
    : TypedArrayAttrBase<Hlo_OutputOperandAliasAttr,
                         "output_to_operand_aliasing entries">;

def Hlo_InputOutputAliasAttr
    : Hlo_Attr<"InputOutputAlias", "input_output_alias"> {
  let summary = "one entry of the module's `input_output_alias`";
  let description = [{
    `{0}: (1, {}, may-alias)` in the HloModule header: the ENTRY result at
    tuple index `outputIndex` may (or must) share its buffer with parameter
    `parameter` at tuple index `parameterIndex`. `kind` is absent when the
    text gives none (XLA then assumes may-alias).

    ```
    #hlo.input_output_alias<output_index = [0], parameter = 1, parameter_index = [], kind = may-alias>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$outputIndex,
    "int64_t":$parameter,
    ArrayRefParameter<"int64_t">:$parameterIndex,
    OptionalParameter<"std::optional<AliasKind>">:$kind);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Hlo_BufferDonorAttr : Hlo_Attr<"BufferDonor", "buffer_donor"> {
  let summary = "one entry of the module's `buffer_donor`";
  let description = [{
    `(1, {})` in the HloModule header: parameter `parameter` at tuple index
    `parameterIndex` donates its buffer to any output.

    ```
    #hlo.buffer_donor<parameter = 1, parameter_index = []>
    ```
  }];
  let parameters = (ins "int64_t":$parameter,
    ArrayRefParameter<"int64_t">:$parameterIndex);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Buffer assignment (hlo-buffer-assignment's result, read by the arena
// interpreter and the conversion to thunks).
//===----------------------------------------------------------------------===//

def Hlo_BufferAllocationKind : Hlo_Enum<"BufferAllocationKind",
    "buffer allocation kind", [
  I32EnumAttrCase<"Parameter", 0, "parameter">,
  I32EnumAttrCase<"Constant", 1, "constant">,
  I32EnumAttrCase<"Output", 2, "output">,
  I32EnumAttrCase<"Temp", 3, "temp">]>;

def Hlo_BufferAllocationAttr
    : Hlo_Attr<"BufferAllocation", "buffer_allocation"> {
  let summary = "one allocation of a module's buffer assignment";
  let description = [{
    An entry of the module attribute `hlo.buffer_allocations` (XLA's
    BufferAllocation): allocation `index` of `size` bytes, of kind
    `parameter` (an ENTRY parameter's buffer at `parameter` and
    `parameter_index`, owned by the caller), `constant` (a literal),
    `output` (maybe live out of the ENTRY computation) or `temp` (the one
    preallocated temporary buffer into which the heap simulator packs every
    temporary). `maybe_live_out` marks a parameter allocation that an
    output aliases. `parameter_index` (a shape index, written without
    brackets) is left out when empty.

    ```
    #hlo.buffer_allocation<index = 0, size = 16, kind = parameter, parameter = 1, parameter_index = 0, 1>
    ```
  }];
  let parameters = (ins "int64_t":$index, "int64_t":$size,
    EnumParameter<Hlo_BufferAllocationKind>:$kind,
    OptionalParameter<"std::optional<int64_t>">:$parameter,
    OptionalArrayRefParameter<"int64_t">:$parameter_index,
    DefaultValuedParameter<"bool", "false">:$maybe_live_out);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Hlo_BufferSliceAttr : Hlo_Attr<"BufferSlice", "buffer_slice"> {
  let summary = "the bytes of an allocation one HLO position occupies";
  let description = [{
    XLA's BufferAllocation::Slice: `size` bytes at `offset` in allocation
    `allocation` of the module's `hlo.buffer_allocations`. An instruction's
    `hlo.buffer_slices` (a computation argument's, for parameters) lists one
    slice per node of its shape in pre-order (the tuple itself, then each
    element, recursively); a tuple's slice holds its table of element
    pointers, as in XLA.

    ```
    #hlo.buffer_slice<allocation = 3, offset = 64, size = 16>
    ```
  }];
  let parameters = (ins "int64_t":$allocation, "int64_t":$offset,
    "int64_t":$size);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

include "Hlo/Dialect/Hlo/HloBackendConfig.td"

def Hlo_TextAttr : Hlo_Attr<"Text", "text"> {
  let summary = "HLO attribute value kept in its HLO spelling";
  let description = [{
    Values HLO itself treats as opaque structured text (a brace-form
    `backend_config={...}` that is not typed, `origin=`, header entries this
    dialect does not model, members of a typed backend_config it does not
    know) are kept verbatim, e.g.
    `#hlo.text<"{\"known_trip_count\":{\"n\":\"7\"}}">`.
    The text must be one attribute value as HLO text delimits it (brackets
    balanced, strings terminated, no `,` or white space outside them), so
    that it prints back into HLO text that parses.
  }];
  let parameters = (ins StringRefParameter<>:$value);
  let assemblyFormat = "`<` $value `>`";
  let genVerifyDecl = 1;
}

def Hlo_IndexingMapAttr : Hlo_Attr<"IndexingMap", "indexing_map"> {
  let summary = "an indexing map (affine map + variable domains), as text";
  let description = [{
    An `IndexingMap` of the indexing analysis in its one-line text form: the
    multi-line form with `, ` where it breaks lines, e.g.
    `#hlo.indexing_map<"(d0, d1) -> (d0 + d1 floordiv 16, d1 mod 16),
    domain: d0 in [0, 6], d1 in [0, 14]">`. The text is parsed and verified
    when the attribute is parsed or built and kept in canonical form, so
    printing and parsing round-trip. A runtime variable's `hlo:` text is kept
    as written.
  }];
  let parameters = (ins StringRefParameter<>:$text);
  let hasCustomAssemblyFormat = 1;
  let builders = [
    AttrBuilder<(ins "const ::mlir::hlo::IndexingMap &":$map), [{
      return $_get($_ctxt, map.toOneLineString());
    }]>
  ];
  let extraClassDeclaration = [{
    /// The map (re-parsed from the canonical text).
    ::mlir::hlo::IndexingMap getMap() const;
  }];
}

#endif // HLO_DIALECT_HLO_HLOATTRS_TD
