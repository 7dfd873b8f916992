//===- HloBackendConfig.td - typed backend_config ----------*- tablegen -*-===//
//
// `backend_config={...}`: XLA's backend configuration protos (GpuBackendConfig,
// WhileLoopBackendConfig, ...) printed as JSON. Included from HloAttrs.td.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_DIALECT_HLO_HLOBACKENDCONFIG_TD
#define HLO_DIALECT_HLO_HLOBACKENDCONFIG_TD

// The proto message a #hlo.backend_config holds. The members the dialect
// types for each message are listed in lib/Dialect/Hlo/HloBackendConfig.cpp.
def Hlo_BackendConfigMessage : Hlo_Enum<"BackendConfigMessage",
    "backend_config message", [
  // An instruction's backend_config: GpuBackendConfig and
  // WhileLoopBackendConfig (their member names do not collide).
  I32EnumAttrCase<"Root", 0, "root">,
  I32EnumAttrCase<"FusionBackendConfig", 1, "fusion_backend_config">,
  I32EnumAttrCase<"BlockLevelFusionConfig", 2, "block_level_fusion_config">,
  I32EnumAttrCase<"OutputTile", 3, "output_tile">,
  I32EnumAttrCase<"TritonGemmConfig", 4, "triton_gemm_config">,
  I32EnumAttrCase<"GemmBackendConfig", 5, "gemm_backend_config">,
  I32EnumAttrCase<"DotDimensionNumbers", 6, "dot_dimension_numbers">,
  I32EnumAttrCase<"PrecisionConfig", 7, "precision_config">,
  I32EnumAttrCase<"CudnnConvBackendConfig", 8, "cudnn_conv_backend_config">,
  I32EnumAttrCase<"CollectiveBackendConfig", 9, "collective_backend_config">,
  I32EnumAttrCase<"KnownTripCount", 10, "known_trip_count">]>;

def Hlo_BackendConfigAttr : Hlo_Attr<"BackendConfig", "backend_config"> {
  let summary = "a typed backend_config (XLA's JSON backend configuration)";
  let description = [{
    One JSON object of a backend configuration proto: its members in the
    order the text has them. A member the dialect knows for `message` has a
    typed value:

    | JSON | value |
    | --- | --- |
    | int64 (`"7"`, a quoted integer) | `i64` integer |
    | int32 (`1`) | `i32` integer |
    | double (`1`, `0.5`) | `f64` float |
    | bool | bool |
    | string or enum name | string |
    | int64 list (`["1","0"]`) | `array<i64>` |
    | string list | array of strings |
    | message | a nested #hlo.backend_config of its message |
    | message list | array of nested #hlo.backend_config |

    Any other member keeps its JSON text verbatim (`#hlo.text`), at its
    place. The attribute prints back the exact JSON XLA writes (no spaces,
    int64 quoted, doubles in their shortest form); the importer only makes
    a `backend_config` typed when that reproduces its text byte for byte,
    and keeps it verbatim (a string or `#hlo.text`) otherwise. `quoted`
    (root only) is set when the text was a quoted string
    (`backend_config="{...}"`) rather than braces.

    ```
    #hlo.backend_config<{operation_queue_id = 0 : i64,
      fusion_backend_config = {kind = "__triton_gemm"},
      reification_cost = #hlo.text<"[]">}>
    #hlo.backend_config<{known_trip_count = {n = 7 : i64}}>
    ```
  }];
  let parameters = (ins "BackendConfigMessage":$message, "bool":$quoted,
    ArrayRefParameter<"StringAttr">:$keys,
    ArrayRefParameter<"Attribute">:$values);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Reads a JSON object; returns null unless it is one whose typed form
    /// prints back exactly as `json` (then the caller keeps the text).
    static BackendConfigAttr parseJson(MLIRContext *ctx, StringRef json,
                                       bool quoted = false);
    /// Prints the JSON object (without the quotes of a quoted one).
    void printJson(raw_ostream &os) const;
    /// A message with the given members, in order.
    static BackendConfigAttr get(MLIRContext *ctx,
                                 BackendConfigMessage message,
                                 ArrayRef<NamedAttribute> members);

    /// The value of member `key`, or null.
    Attribute getMember(StringRef key) const;
    /// This message with member `key` set to `value` (replaced in place, or
    /// appended).
    BackendConfigAttr withMember(StringRef key, Attribute value) const;
    /// Typed members: nullopt (null) when absent. Booleans and strings are
    /// also read from the JSON text of messages without a typed form.
    std::optional<int64_t> getInt(StringRef key) const;
    std::optional<double> getDouble(StringRef key) const;
    std::optional<bool> getBool(StringRef key) const;
    std::optional<StringRef> getString(StringRef key) const;
    std::optional<ArrayRef<int64_t>> getInts(StringRef key) const;
    BackendConfigAttr getSubConfig(StringRef key) const;

    // Root: GpuBackendConfig and WhileLoopBackendConfig.
    /// `known_trip_count.n` of a while loop.
    std::optional<int64_t> getKnownTripCount() const;
    std::optional<int64_t> getOperationQueueId() const {
      return getInt("operation_queue_id");
    }
    BackendConfigAttr getFusionBackendConfig() const {
      return getSubConfig("fusion_backend_config");
    }
    BackendConfigAttr getGemmBackendConfig() const {
      return getSubConfig("gemm_backend_config");
    }
    BackendConfigAttr getCudnnConvBackendConfig() const {
      return getSubConfig("cudnn_conv_backend_config");
    }
    BackendConfigAttr getCollectiveBackendConfig() const {
      return getSubConfig("collective_backend_config");
    }
    /// `fusion_backend_config.kind` (`__triton_gemm`, `kLoop`, ...).
    std::optional<StringRef> getFusionKind() const;
    /// `fusion_backend_config.block_level_fusion_config`.
    BackendConfigAttr getBlockLevelFusionConfig() const;
    /// `fusion_backend_config.triton_gemm_config`.
    BackendConfigAttr getTritonGemmConfig() const;
    /// BlockLevelFusionConfig: the `sizes` of each of `output_tiles`.
    SmallVector<SmallVector<int64_t>> getOutputTiles() const;
  }];
}

#endif // HLO_DIALECT_HLO_HLOBACKENDCONFIG_TD
