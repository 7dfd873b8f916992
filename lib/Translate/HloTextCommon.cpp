//===- HloTextCommon.cpp - tables shared by HLO import and export ---------===//

#include "HloTextCommon.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::hlo;

Type mlir::hlo::parseElementType(MLIRContext *ctx, StringRef name) {
  Builder b(ctx);
  if (name == "pred")
    return b.getI1Type();
  if (name.size() >= 2 && (name[0] == 's' || name[0] == 'u')) {
    unsigned width;
    if (!name.drop_front().getAsInteger(10, width) && width >= 1 &&
        width <= 64 &&
        (width == 1 || width == 2 || width == 4 || width == 8 ||
         width == 16 || width == 32 || width == 64)) {
      if (name[0] == 'u')
        return IntegerType::get(ctx, width, IntegerType::Unsigned);
      // s1 would collide with pred (i1), so it is the signed si1.
      return width == 1 ? IntegerType::get(ctx, 1, IntegerType::Signed)
                        : IntegerType::get(ctx, width);
    }
  }
  return llvm::StringSwitch<Type>(name)
      .Case("f16", b.getF16Type())
      .Case("bf16", b.getBF16Type())
      .Case("f32", b.getF32Type())
      .Case("f64", b.getF64Type())
      .Case("c64", ComplexType::get(b.getF32Type()))
      .Case("c128", ComplexType::get(b.getF64Type()))
      .Case("f8e5m2", Float8E5M2Type::get(ctx))
      .Case("f8e4m3fn", Float8E4M3FNType::get(ctx))
      .Case("f8e4m3", Float8E4M3Type::get(ctx))
      .Case("f8e4m3b11fnuz", Float8E4M3B11FNUZType::get(ctx))
      .Case("f8e5m2fnuz", Float8E5M2FNUZType::get(ctx))
      .Case("f8e4m3fnuz", Float8E4M3FNUZType::get(ctx))
      .Case("f8e3m4", Float8E3M4Type::get(ctx))
      .Case("f8e8m0fnu", Float8E8M0FNUType::get(ctx))
      .Case("f6e2m3fn", Float6E2M3FNType::get(ctx))
      .Case("f6e3m2fn", Float6E3M2FNType::get(ctx))
      .Case("f4e2m1fn", Float4E2M1FNType::get(ctx))
      .Case("tf32", FloatTF32Type::get(ctx))
      .Case("token", TokenType::get(ctx))
      .Case("opaque", hlo::OpaqueType::get(ctx))
      .Default(Type());
}

StringRef mlir::hlo::getElementTypeName(Type t) {
  if (auto it = dyn_cast<IntegerType>(t)) {
    if (it.getWidth() == 1 && it.isSignless())
      return "pred";
    static const char *const s[] = {"s1", "s2", "s4", "s8", "s16", "s32", "s64"};
    static const char *const u[] = {"u1", "u2", "u4", "u8", "u16", "u32", "u64"};
    int idx = llvm::StringSwitch<int>(std::to_string(it.getWidth()))
                  .Case("1", 0).Case("2", 1).Case("4", 2).Case("8", 3)
                  .Case("16", 4).Case("32", 5).Case("64", 6).Default(-1);
    if (idx < 0)
      return "";
    return it.isUnsigned() ? u[idx] : s[idx];
  }
  if (auto ct = dyn_cast<ComplexType>(t)) {
    if (ct.getElementType().isF32())
      return "c64";
    if (ct.getElementType().isF64())
      return "c128";
    return "";
  }
  if (isa<TokenType>(t))
    return "token";
  if (isa<hlo::OpaqueType>(t))
    return "opaque";
  if (t.isF16()) return "f16";
  if (t.isBF16()) return "bf16";
  if (t.isF32()) return "f32";
  if (t.isF64()) return "f64";
  if (isa<Float8E5M2Type>(t)) return "f8e5m2";
  if (isa<Float8E4M3FNType>(t)) return "f8e4m3fn";
  if (isa<Float8E4M3Type>(t)) return "f8e4m3";
  if (isa<Float8E4M3B11FNUZType>(t)) return "f8e4m3b11fnuz";
  if (isa<Float8E5M2FNUZType>(t)) return "f8e5m2fnuz";
  if (isa<Float8E4M3FNUZType>(t)) return "f8e4m3fnuz";
  if (isa<Float8E3M4Type>(t)) return "f8e3m4";
  if (isa<Float8E8M0FNUType>(t)) return "f8e8m0fnu";
  if (isa<Float6E2M3FNType>(t)) return "f6e2m3fn";
  if (isa<Float6E3M2FNType>(t)) return "f6e3m2fn";
  if (isa<Float4E2M1FNType>(t)) return "f4e2m1fn";
  if (isa<FloatTF32Type>(t)) return "tf32";
  return "";
}

bool mlir::hlo::startsShapeAt(syntax::Cursor &cur, MLIRContext *ctx) {
  size_t save = cur.getPos();
  if (cur.peek() == '(')
    return true;
  StringRef ident;
  bool isShape = false;
  if (llvm::isAlpha(cur.peek()) && cur.parseIdentifier(ident))
    isShape = cur.peek() == '[' && parseElementType(ctx, ident);
  cur.setPos(save);
  return isShape;
}

static const AttrInfo kAttrTable[] = {
    // Op-specific attributes, roughly in XLA's print order (a custom call
    // prints its window, dim_labels and group counts before its target).
    {"kind", "kind", AttrKind::Enum},
    {"index", "index", AttrKind::Int},
    {"iota_dimension", "iota_dimension", AttrKind::Int},
    {"dimensions", "dimensions", AttrKind::IntList},
    {"slice", "slice", AttrKind::Slice},
    {"dynamic_slice_sizes", "dynamic_slice_sizes", AttrKind::IntList},
    {"padding", "padding", AttrKind::Padding},
    {"window", "window", AttrKind::Window},
    {"dim_labels", "dim_labels", AttrKind::ConvDims},
    {"feature_group_count", "feature_group_count", AttrKind::Int},
    {"batch_group_count", "batch_group_count", AttrKind::Int},
    {"custom_call_target", "custom_call_target", AttrKind::String},
    {"lhs_batch_dims", "lhs_batch_dims", AttrKind::IntList},
    {"lhs_contracting_dims", "lhs_contracting_dims", AttrKind::IntList},
    {"rhs_batch_dims", "rhs_batch_dims", AttrKind::IntList},
    {"rhs_contracting_dims", "rhs_contracting_dims", AttrKind::IntList},
    {"lhs_ragged_dims", "lhs_ragged_dims", AttrKind::IntList},
    {"rhs_group_dims", "rhs_group_dims", AttrKind::IntList},
    {"offset_dims", "offset_dims", AttrKind::IntList},
    {"collapsed_slice_dims", "collapsed_slice_dims", AttrKind::IntList},
    {"start_index_map", "start_index_map", AttrKind::IntList},
    {"operand_batching_dims", "operand_batching_dims", AttrKind::IntList},
    {"start_indices_batching_dims", "start_indices_batching_dims",
     AttrKind::IntList},
    {"update_window_dims", "update_window_dims", AttrKind::IntList},
    {"inserted_window_dims", "inserted_window_dims", AttrKind::IntList},
    {"scatter_dims_to_operand_dims", "scatter_dims_to_operand_dims",
     AttrKind::IntList},
    {"input_batching_dims", "input_batching_dims", AttrKind::IntList},
    {"scatter_indices_batching_dims", "scatter_indices_batching_dims",
     AttrKind::IntList},
    {"index_vector_dim", "index_vector_dim", AttrKind::Int},
    {"slice_sizes", "slice_sizes", AttrKind::IntList},
    {"indices_are_sorted", "indices_are_sorted", AttrKind::Bool},
    {"unique_indices", "unique_indices", AttrKind::Bool},
    {"direction", "direction", AttrKind::Enum},
    {"type", "comparison_type", AttrKind::Enum},
    {"operand_precision", "operand_precision", AttrKind::PrecisionList},
    {"algorithm", "algorithm", AttrKind::Enum},
    {"fft_type", "fft_type", AttrKind::Enum},
    {"fft_length", "fft_length", AttrKind::IntList},
    {"distribution", "distribution", AttrKind::Enum},
    {"delta", "delta", AttrKind::Int},
    {"exponent_bits", "exponent_bits", AttrKind::Int},
    {"mantissa_bits", "mantissa_bits", AttrKind::Int},
    {"epsilon", "epsilon", AttrKind::Float},
    {"feature_index", "feature_index", AttrKind::Int},
    {"left_side", "left_side", AttrKind::Bool},
    {"lower", "lower", AttrKind::Bool},
    {"unit_diagonal", "unit_diagonal", AttrKind::Bool},
    {"transpose_a", "transpose_a", AttrKind::Enum},
    {"k", "k", AttrKind::Int},
    {"largest", "largest", AttrKind::Bool},
    {"is_stable", "is_stable", AttrKind::Bool},
    {"is_reverse", "is_reverse", AttrKind::Bool},
    {"is_associative", "is_associative", AttrKind::Bool},
    {"num_carries", "num_carries", AttrKind::Int},
    {"inferred_dimension", "inferred_dimension", AttrKind::Int},
    {"channel_id", "channel_id", AttrKind::Int},
    {"replica_groups", "replica_groups", AttrKind::ReplicaGroups},
    {"source_target_pairs", "source_target_pairs", AttrKind::Pairs},
    // The in-place collective-permute's slice sizes, one list per buffer
    // and start-index entry.
    {"slice_sizes", "slice_sizes", AttrKind::IntLists, "collective-permute"},
    {"constrain_layout", "constrain_layout", AttrKind::Bool},
    {"use_global_device_ids", "use_global_device_ids", AttrKind::Bool},
    {"is_host_transfer", "is_host_transfer", AttrKind::Bool},
    {"infeed_config", "infeed_config", AttrKind::String},
    {"outfeed_shape", "outfeed_shape", AttrKind::Shape},
    {"outfeed_config", "outfeed_config", AttrKind::String},
    {"cross_program_prefetch_index", "cross_program_prefetch_index",
     AttrKind::Int},
    {"async_execution_thread", "async_execution_thread", AttrKind::String},
    {"custom_call_has_side_effect", "custom_call_has_side_effect",
     AttrKind::Bool},
    {"literal", "literal", AttrKind::TypedLiteral},
    {"output_to_operand_aliasing", "output_to_operand_aliasing",
     AttrKind::Aliasing},
    {"operand_layout_constraints", "operand_layout_constraints",
     AttrKind::ShapeList},
    {"schedule", "schedule", AttrKind::Enum},
    {"api_version", "api_version", AttrKind::Enum},
    {"is_composite", "is_composite", AttrKind::Bool},
    {"domain", "domain", AttrKind::Domain},
    // Called computations.
    {"calls", "calls", AttrKind::Symbol},
    {"to_apply", "to_apply", AttrKind::Symbol},
    {"condition", "condition", AttrKind::Symbol},
    {"body", "body", AttrKind::Symbol},
    {"select", "select", AttrKind::Symbol},
    {"scatter", "scatter", AttrKind::Symbol},
    {"true_computation", "true_computation", AttrKind::Symbol},
    {"false_computation", "false_computation", AttrKind::Symbol},
    {"branch_computations", "branch_computations", AttrKind::SymbolList},
    {"called_computations", "called_computations", AttrKind::SymbolList},
    // Attributes of every instruction.
    {"sharding", "sharding", AttrKind::Sharding},
    {"parameter_replication", "parameter_replication", AttrKind::BoolList},
    {"frontend_attributes", "frontend_attributes", AttrKind::StringDict},
    {"control-predecessors", "control_predecessors", AttrKind::NameList},
    {"backend_config", "backend_config", AttrKind::BackendConfig},
    {"result_accuracy", "result_accuracy", AttrKind::Accuracy},
    {"statistics", "statistics", AttrKind::Statistics},
    {"origin", "origin", AttrKind::Text},
};

ArrayRef<AttrInfo> mlir::hlo::getAttrTable() { return kAttrTable; }

using AttrInfoMap = llvm::StringMap<SmallVector<const AttrInfo *, 1>>;

const AttrInfo *mlir::hlo::lookupHloAttr(StringRef hloName, StringRef opcode) {
  static const AttrInfoMap map = [] {
    AttrInfoMap m;
    for (const AttrInfo &info : kAttrTable)
      m[info.hloName].push_back(&info);
    return m;
  }();
  auto it = map.find(hloName);
  if (it == map.end())
    return nullptr;
  const AttrInfo *generic = nullptr;
  for (const AttrInfo *info : it->second) {
    if (info->opcodePrefix.empty())
      generic = generic ? generic : info;
    else if (opcode.starts_with(info->opcodePrefix))
      return info;
  }
  return generic;
}

const AttrInfo *
mlir::hlo::lookupMlirAttr(StringRef mlirName,
                          function_ref<bool(const AttrInfo &)> accept) {
  static const AttrInfoMap map = [] {
    AttrInfoMap m;
    for (const AttrInfo &info : kAttrTable)
      m[info.mlirName].push_back(&info);
    return m;
  }();
  auto it = map.find(mlirName);
  if (it == map.end())
    return nullptr;
  for (const AttrInfo *info : it->second)
    if (!accept || accept(*info))
      return info;
  return it->second.front();
}

bool mlir::hlo::hasOwnAsyncOpcodes(StringRef opcode) {
  return llvm::StringSwitch<bool>(opcode)
      .Case("all-gather", true)
      .Case("all-reduce", true)
      .Case("collective-permute", true)
      .Case("copy", true)
      .Default(false);
}
