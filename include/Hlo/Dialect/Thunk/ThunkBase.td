//===- ThunkBase.td - thunk dialect definition --------------*- tablegen -*-===//
//
// The `thunk` dialect models a compiled HLO program as its runtime executes
// it: allocations of device memory, slices of them, and a sequence of thunks
// (kernel launches, library calls, copies, control flow) that read and write
// slices.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_THUNK_THUNKBASE_TD
#define HLO_DIALECT_THUNK_THUNKBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Thunk_Dialect : Dialect {
  let name = "thunk";
  let cppNamespace = "::mlir::thunk";
  let summary = "a compiled HLO program as a sequence of thunks over buffer "
                "slices";
  let description = [{
    The compiler's model of the runtime, the counterpart of XLA's GPU thunk
    sequence. A thunk program is a `builtin.module` holding
    `thunk.allocation`s (the buffer assignment's allocations: entry
    parameters, constants with their data, outputs, the temporary buffer), a
    `gpu.module` of the kernels the thunks launch (with their PTX attached
    once compiled) and one `thunk.program` whose body runs in order. Values
    are `thunk.slice`s: typed memref views of a byte range of an allocation.
    Nothing in a thunk program refers to HLO: the host and CUDA runtimes
    read this dialect, the upstream `gpu` dialect and builtin attributes
    only.
  }];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
  }];
}

class Thunk_Op<string mnemonic, list<Trait> traits = []>
    : Op<Thunk_Dialect, mnemonic, traits>;

class Thunk_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Thunk_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

class Thunk_Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::mlir::thunk";
  let genSpecializedAttr = 0;
}

def Thunk_AllocationKind : Thunk_Enum<"AllocationKind", "allocation kind", [
  I32EnumAttrCase<"Parameter", 0, "parameter">,
  I32EnumAttrCase<"Constant", 1, "constant">,
  I32EnumAttrCase<"Output", 2, "output">,
  I32EnumAttrCase<"Temp", 3, "temp">]>;
def Thunk_AllocationKindAttr
    : EnumAttr<Thunk_Dialect, Thunk_AllocationKind, "allocation_kind">;

def Thunk_MatrixOrder : Thunk_Enum<"MatrixOrder", "matrix order", [
  I32EnumAttrCase<"RowMajor", 0, "row_major">,
  I32EnumAttrCase<"ColumnMajor", 1, "column_major">]>;

def Thunk_GemmEpilogue : Thunk_Enum<"GemmEpilogue", "GEMM epilogue", [
  I32EnumAttrCase<"Default", 0, "default">,
  I32EnumAttrCase<"Relu", 1, "relu">,
  I32EnumAttrCase<"Bias", 2, "bias">,
  I32EnumAttrCase<"BiasRelu", 3, "bias_relu">,
  I32EnumAttrCase<"Gelu", 4, "gelu">,
  I32EnumAttrCase<"BiasGelu", 5, "bias_gelu">]>;
def Thunk_GemmEpilogueAttr
    : EnumAttr<Thunk_Dialect, Thunk_GemmEpilogue, "epilogue">;

def Thunk_MatrixLayoutAttr : Thunk_Attr<"MatrixLayout", "matrix"> {
  let summary = "a batch of matrices in a slice, as cuBLASLt describes one";
  let description = [{
    `batch` matrices of `rows` x `cols` elements stored in `order`:
    element (b, r, c) is at `b * batch_stride + r * leading_dim + c`
    (row major) or `b * batch_stride + c * leading_dim + r` (column major),
    counted in elements from the slice's start. The leading dimension is at
    least the minor extent; `batch_stride` is 0 for a matrix shared by every
    batch.

    ```
    #thunk.matrix<row_major, rows = 8, cols = 32, leading_dim = 32>
    #thunk.matrix<column_major, rows = 64, cols = 16, leading_dim = 64, batch = 4, batch_stride = 1024>
    ```
  }];
  let parameters = (ins EnumParameter<Thunk_MatrixOrder>:$order,
    "int64_t":$rows, "int64_t":$cols, "int64_t":$leading_dim,
    DefaultValuedParameter<"int64_t", "1">:$batch,
    DefaultValuedParameter<"int64_t", "0">:$batch_stride);
  let assemblyFormat = "`<` $order `,` struct($rows, $cols, $leading_dim, "
                       "$batch, $batch_stride) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The number of elements the slice must hold at least.
    int64_t getExtent() const;
    /// The offset in elements of element (b, r, c).
    int64_t getOffset(int64_t b, int64_t r, int64_t c) const;
  }];
}

def Thunk_ConvKind : Thunk_Enum<"ConvKind", "convolution kind", [
  I32EnumAttrCase<"Forward", 0, "forward">,
  I32EnumAttrCase<"BackwardInput", 1, "backward_input">,
  I32EnumAttrCase<"BackwardFilter", 2, "backward_filter">,
  I32EnumAttrCase<"ForwardBiasActivation", 3, "forward_bias_activation">]>;
def Thunk_ConvKindAttr : EnumAttr<Thunk_Dialect, Thunk_ConvKind, "conv_kind">;

def Thunk_ConvActivation : Thunk_Enum<"ConvActivation",
    "activation of a fused convolution", [
  I32EnumAttrCase<"None", 0, "none">,
  I32EnumAttrCase<"Relu", 1, "relu">,
  I32EnumAttrCase<"Relu6", 2, "relu6">,
  I32EnumAttrCase<"Elu", 3, "elu">,
  I32EnumAttrCase<"LeakyRelu", 4, "leaky_relu">,
  I32EnumAttrCase<"Tanh", 5, "tanh">,
  I32EnumAttrCase<"Sigmoid", 6, "sigmoid">]>;
def Thunk_ConvActivationAttr
    : EnumAttr<Thunk_Dialect, Thunk_ConvActivation, "conv_activation">;

def Thunk_FftType : Thunk_Enum<"FftType", "FFT kind", [
  I32EnumAttrCase<"Fft", 0, "fft">,
  I32EnumAttrCase<"Ifft", 1, "ifft">,
  I32EnumAttrCase<"Rfft", 2, "rfft">,
  I32EnumAttrCase<"Irfft", 3, "irfft">]>;
def Thunk_FftTypeAttr : EnumAttr<Thunk_Dialect, Thunk_FftType, "fft_type">;

def Thunk_TrsmTranspose : Thunk_Enum<"TrsmTranspose",
    "op(a) of a triangular solve", [
  I32EnumAttrCase<"None", 0, "notrans">,
  I32EnumAttrCase<"Transpose", 1, "trans">,
  I32EnumAttrCase<"Adjoint", 2, "adjoint">]>;
def Thunk_TrsmTransposeAttr
    : EnumAttr<Thunk_Dialect, Thunk_TrsmTranspose, "trsm_transpose">;

def Thunk_SvdVectors : Thunk_Enum<"SvdVectors",
    "the singular vectors a singular value decomposition computes", [
  I32EnumAttrCase<"All", 0, "all">,
  I32EnumAttrCase<"Reduced", 1, "reduced">,
  I32EnumAttrCase<"None", 2, "none">]>;
def Thunk_SvdVectorsAttr
    : EnumAttr<Thunk_Dialect, Thunk_SvdVectors, "svd_vectors">;

def Thunk_ConvTensorAttr : Thunk_Attr<"ConvTensor", "conv_tensor"> {
  let summary = "a convolution operand in a slice: its roles and layout";
  let description = [{
    A dense array of logical shape `shape` stored in the order
    `minor_to_major` (HLO's layout: the first dimension listed varies
    fastest), whose dimension `batch` is the batch, `feature` the feature
    and `spatial[i]` spatial dimension i. For a filter, `batch` is the
    output feature dimension and `feature` the input feature dimension (the
    roles cuDNN gives K and C in KCRS). `getDescriptorDims` and
    `getDescriptorStrides` list the extents and strides in elements in the
    order (batch, feature, spatial 0, ...): a cuDNN N-d tensor or filter
    descriptor (NCHW order with the physical strides).

    ```
    #thunk.conv_tensor<[8, 32, 32, 3], batch = 0, feature = 3, spatial = [1, 2], minor_to_major = [3, 2, 1, 0]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
    "int64_t":$batch, "int64_t":$feature,
    ArrayRefParameter<"int64_t">:$spatial,
    ArrayRefParameter<"int64_t">:$minor_to_major);
  let assemblyFormat = "`<` `[` $shape `]` `,` `batch` `=` $batch `,` "
                       "`feature` `=` $feature `,` `spatial` `=` `[` $spatial "
                       "`]` `,` `minor_to_major` `=` `[` $minor_to_major `]` "
                       "`>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    int64_t getNumSpatialDims() const { return getSpatial().size(); }
    /// The number of elements (the slice holds at least as many).
    int64_t getNumElements() const;
    /// The stride in elements of each logical dimension.
    SmallVector<int64_t> getStrides() const;
    /// The logical dimensions in the order (batch, feature, spatial...).
    SmallVector<int64_t> getRoleDims() const;
    /// Extents and strides in the order (batch, feature, spatial...).
    SmallVector<int64_t> getDescriptorDims() const;
    SmallVector<int64_t> getDescriptorStrides() const;
    int64_t getBatchSize() const { return getShape()[getBatch()]; }
    int64_t getFeatureSize() const { return getShape()[getFeature()]; }
    int64_t getSpatialSize(int64_t i) const {
      return getShape()[getSpatial()[i]];
    }
  }];
}

def Thunk_TransposeAttr : Thunk_Attr<"Transpose", "transpose"> {
  let summary = "a kernel that only permutes the dimensions of its input";
  let description = [{
    What a `thunk.kernel` computes when it moves bytes and nothing else (an
    HLO `transpose` of a fusion's parameter, through bitcasts): its input
    is a dense row-major array of extents `shape`, its output the row-major
    array whose dimension `i` is the input's dimension `permutation[i]`,
    as HLO's transpose with `dimensions = permutation`. A runtime may make
    the same copy with a library's transpose instead of launching the
    kernel (the host runtime does, through oneDNN's reorder).

    ```
    #thunk.transpose<[4608, 512], permutation = [1, 0]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
    ArrayRefParameter<"int64_t">:$permutation);
  let assemblyFormat = "`<` `[` $shape `]` `,` `permutation` `=` `[` "
                       "$permutation `]` `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The number of elements of the input and of the output.
    int64_t getNumElements() const;
  }];
}

def Thunk_TilesAttr : Thunk_Attr<"Tiles", "tiles"> {
  let summary = "how an array of a partitioned program splits over its "
                "partitions";
  let description = [{
    The array of extents `shape` that a program partitioned by HLO's
    shardings (XLA's SPMD partitioner) takes or gives in tiles: `tiles`
    tiles along each dimension (each `ceil(shape[d] / tiles[d])` elements
    long, the last ones past the array's end where that does not divide
    it), partition `p` holding tile `of[p]` (the tiles numbered in
    row-major order; several partitions may hold one tile). A runtime
    splits a whole argument into each partition's tile and puts a
    result together from them.

    ```
    #thunk.tiles<[16, 8], tiles = [2, 2], of = [0, 1, 2, 3]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
    ArrayRefParameter<"int64_t">:$tiles, ArrayRefParameter<"int64_t">:$of);
  let assemblyFormat = "`<` `[` $shape `]` `,` `tiles` `=` `[` $tiles `]` "
                       "`,` `of` `=` `[` $of `]` `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The extents of a tile.
    SmallVector<int64_t> getTileShape() const;
    /// Where partition `p`'s tile starts in the array.
    SmallVector<int64_t> getOffsets(int64_t p) const;
  }];
}

def Thunk_ReductionKind : Thunk_Enum<"ReductionKind",
    "reduction of a collective", [
  I32EnumAttrCase<"Sum", 0, "sum">,
  I32EnumAttrCase<"Product", 1, "product">,
  I32EnumAttrCase<"Min", 2, "min">,
  I32EnumAttrCase<"Max", 3, "max">]>;
def Thunk_ReductionKindAttr
    : EnumAttr<Thunk_Dialect, Thunk_ReductionKind, "reduction">;

def Thunk_DeviceIdKind : Thunk_Enum<"DeviceIdKind", "a device's id", [
  I32EnumAttrCase<"Replica", 0, "replica">,
  I32EnumAttrCase<"Partition", 1, "partition">]>;
def Thunk_DeviceIdKindAttr
    : EnumAttr<Thunk_Dialect, Thunk_DeviceIdKind, "device_id_kind">;

#endif // HLO_DIALECT_THUNK_THUNKBASE_TD
