//===- HloDialect.cpp - hlo dialect ---------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloSyntax.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/RWMutex.h"

#include <set>
#include <vector>

using namespace mlir;
using namespace mlir::hlo;

#include "Hlo/Dialect/Hlo/HloOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "Hlo/Dialect/Hlo/HloOpsTypes.cpp.inc"

namespace {
/// The tuple types of many elements found to be HLO value types, kept with
/// the context (a dialect interface lives as long as its dialect): every
/// instruction reading a tuple checks its type, so a computation reading a
/// k-element tuple k times checked k^2 elements.
struct ValidTupleTypes : DialectInterface::Base<ValidTupleTypes> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ValidTupleTypes)
  explicit ValidTupleTypes(Dialect *dialect) : Base(dialect) {}
  llvm::sys::SmartRWMutex<true> mutex;
  llvm::DenseSet<Type> types;
};
} // namespace

void HloDialect::initialize() {
  registerTypes();
  registerAttributes();
  registerInterfaces();
  addInterfaces<ValidTupleTypes>();
  addOperations<
#define GET_OP_LIST
#include "Hlo/Dialect/Hlo/HloOps.cpp.inc"
      >();
}

void HloDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "Hlo/Dialect/Hlo/HloOpsTypes.cpp.inc"
      >();
}

bool mlir::hlo::isHloElementType(Type type) {
  if (auto i = dyn_cast<IntegerType>(type)) {
    switch (i.getWidth()) {
    case 1:
      return true; // pred (signless), s1 (signed), u1
    case 2:
    case 4:
    case 8:
    case 16:
    case 32:
    case 64:
      return !i.isSigned();
    default:
      return false;
    }
  }
  if (auto c = dyn_cast<ComplexType>(type))
    return c.getElementType().isF32() || c.getElementType().isF64();
  return isa<Float16Type, BFloat16Type, Float32Type, Float64Type, FloatTF32Type,
             Float8E5M2Type, Float8E4M3FNType, Float8E4M3Type,
             Float8E4M3B11FNUZType, Float8E5M2FNUZType, Float8E4M3FNUZType,
             Float8E3M4Type, Float8E8M0FNUType, Float6E2M3FNType,
             Float6E3M2FNType, Float4E2M1FNType>(type);
}

bool mlir::hlo::isHloValueType(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    auto *hlo = type.getContext()->getLoadedDialect<HloDialect>();
    auto *valid =
        hlo && tuple.size() >= 16
            ? hlo->getRegisteredInterface<ValidTupleTypes>()
            : nullptr;
    if (!valid)
      return llvm::all_of(tuple.getTypes(), isHloValueType);
    {
      llvm::sys::SmartScopedReader<true> lock(valid->mutex);
      if (valid->types.contains(type))
        return true;
    }
    if (!llvm::all_of(tuple.getTypes(), isHloValueType))
      return false;
    llvm::sys::SmartScopedWriter<true> lock(valid->mutex);
    valid->types.insert(type);
    return true;
  }
  if (isa<TokenType, OpaqueType>(type))
    return true;
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isHloElementType(tensor.getElementType()) &&
         (!tensor.getEncoding() || isa<LayoutAttr>(tensor.getEncoding()));
}

std::string mlir::hlo::getOpcode(Operation *op) {
  std::string name = op->getName().stripDialect().str();
  for (char &c : name)
    if (c == '_')
      c = '-';
  return name;
}

//===----------------------------------------------------------------------===//
// Module attributes
//===----------------------------------------------------------------------===//

/// `hlo.input_output_alias` (#hlo.input_output_alias entries) and
/// `hlo.buffer_donor` (#hlo.buffer_donor entries) of a module: the indices
/// exist in the ENTRY computation's parameters and result, no output is
/// aliased twice and no parameter buffer is donated twice.
static LogicalResult verifyEntryAliasing(Operation *module,
                                         NamedAttribute attr) {
  bool alias = attr.getName() == "hlo.input_output_alias";
  auto entries = dyn_cast<ArrayAttr>(attr.getValue());
  if (!entries)
    return module->emitError() << attr.getName() << " must be an array";
  ComputationOp entry;
  for (Region &region : module->getRegions())
    for (auto comp : region.getOps<ComputationOp>())
      if (comp.getEntry())
        entry = comp;
  // The module's attributes are verified before its computations: an entry
  // computation without a function type is left to its own verifier.
  FunctionType fn;
  if (entry)
    if (TypeAttr type = entry.getFunctionTypeAttr())
      fn = dyn_cast<FunctionType>(type.getValue());
  std::set<std::vector<int64_t>> outputs, params;
  for (Attribute a : entries) {
    int64_t param;
    ArrayRef<int64_t> paramIndex, outputIndex;
    if (auto e = dyn_cast<InputOutputAliasAttr>(a); e && alias) {
      param = e.getParameter();
      paramIndex = e.getParameterIndex();
      outputIndex = e.getOutputIndex();
    } else if (auto d = dyn_cast<BufferDonorAttr>(a); d && !alias) {
      param = d.getParameter();
      paramIndex = d.getParameterIndex();
    } else {
      return module->emitError()
             << attr.getName() << " entry " << a << " must be a "
             << (alias ? "#hlo.input_output_alias" : "#hlo.buffer_donor");
    }
    std::vector<int64_t> key(paramIndex.begin(), paramIndex.end());
    key.insert(key.begin(), param);
    if (alias && !outputs
                      .insert(std::vector<int64_t>(outputIndex.begin(),
                                                   outputIndex.end()))
                      .second)
      return module->emitError() << attr.getName() << " aliases output {"
                                 << outputIndex << "} twice";
    if (!alias && !params.insert(key).second)
      return module->emitError() << attr.getName() << " donates parameter "
                                 << param << " {" << paramIndex << "} twice";
    if (!fn)
      continue;
    if (param >= int64_t(fn.getNumInputs()))
      return module->emitError()
             << attr.getName() << " names parameter " << param
             << " but the ENTRY computation has " << fn.getNumInputs();
    if (!getSubshape(fn.getInput(param), paramIndex))
      return module->emitError() << attr.getName() << " parameter index {"
                                 << paramIndex << "} is not in parameter "
                                 << param << " of type " << fn.getInput(param);
    if (alias && fn.getNumResults() == 1 &&
        !getSubshape(fn.getResult(0), outputIndex))
      return module->emitError()
             << attr.getName() << " output index {" << outputIndex
             << "} is not in the ENTRY result " << fn.getResult(0);
  }
  return success();
}

/// A module attribute `hlo.KEY` holds what the importer makes of the HLO
/// module header's `KEY=...` (or, for `hlo.section.NAME`, of a trailing
/// section), which is what the exporter prints back.
static LogicalResult verifyModuleAttribute(Operation *op, NamedAttribute attr) {
  StringRef key = attr.getName().getValue();
  key.consume_front("hlo.");
  Attribute value = attr.getValue();
  auto check = [&](bool ok, StringRef what) -> LogicalResult {
    if (ok)
      return success();
    return op->emitError("module attribute '")
           << attr.getName().getValue() << "' must be " << what;
  };
  if (key == "entry_computation_layout") {
    auto typeAttr = dyn_cast<TypeAttr>(value);
    auto fn =
        typeAttr ? dyn_cast<FunctionType>(typeAttr.getValue()) : FunctionType();
    return check(fn && fn.getNumResults() == 1 &&
                     llvm::all_of(fn.getInputs(), isHloValueType) &&
                     isHloValueType(fn.getResult(0)),
                 "a function type from HLO shapes to one HLO shape");
  }
  if (key == "is_scheduled" || key == "alias_passthrough_params")
    return check(isa<BoolAttr>(value), "a bool");
  if (key == "replica_count" || key == "num_partitions") {
    auto i = dyn_cast<IntegerAttr>(value);
    return check(i && i.getType().isSignlessInteger(64) &&
                     i.getValue().isStrictlyPositive(),
                 "a positive i64");
  }
  if (key == "frontend_attributes") {
    auto dict = dyn_cast<DictionaryAttr>(value);
    return check(dict && isStringDictionary(dict), "a dictionary of strings");
  }
  if (key.starts_with("allow_spmd_sharding_propagation"))
    return check(isa<DenseBoolArrayAttr>(value), "an array<i1>");
  if (key.starts_with("section.")) {
    auto entries = dyn_cast<ArrayAttr>(value);
    return check(
        entries &&
            llvm::all_of(entries, [](Attribute e) { return isa<TextAttr>(e); }),
        "an array of #hlo.text");
  }
  // Any other header attribute is kept as written.
  return check(isa<TextAttr>(value), "an #hlo.text");
}

/// `hlo.buffer_slices` of an instruction or a parameter of type `type`: one
/// #hlo.buffer_slice per node of the shape tree.
static LogicalResult verifyBufferSlices(function_ref<InFlightDiagnostic()> emit,
                                        Attribute value, Type type) {
  auto slices = dyn_cast<ArrayAttr>(value);
  if (!slices || !llvm::all_of(slices, llvm::IsaPred<BufferSliceAttr>))
    return emit() << "hlo.buffer_slices must be an array of #hlo.buffer_slice";
  unsigned nodes = getNumSubshapes(type);
  if (slices.size() != nodes)
    return emit() << "hlo.buffer_slices has " << slices.size()
                  << " slices for a shape of " << nodes << " nodes";
  return success();
}

/// `hlo.buffer_allocations` of a module: allocation i at index i, and every
/// slice in the module inside its allocation.
static LogicalResult verifyBufferAllocations(Operation *module,
                                             Attribute value) {
  auto allocations = dyn_cast<ArrayAttr>(value);
  if (!allocations)
    return module->emitError(
        "hlo.buffer_allocations must be an array of #hlo.buffer_allocation");
  SmallVector<int64_t> sizes;
  for (Attribute a : allocations) {
    auto allocation = dyn_cast<BufferAllocationAttr>(a);
    if (!allocation || allocation.getIndex() != int64_t(sizes.size()))
      return module->emitError("hlo.buffer_allocations entry ")
             << sizes.size() << " must be an #hlo.buffer_allocation of index "
             << sizes.size();
    sizes.push_back(allocation.getSize());
  }
  auto check = [&](Operation *op, Attribute slicesAttr) -> LogicalResult {
    auto slices = dyn_cast_or_null<ArrayAttr>(slicesAttr);
    if (!slices)
      return success();
    for (Attribute a : slices) {
      auto slice = dyn_cast<BufferSliceAttr>(a);
      if (!slice)
        continue;
      if (slice.getAllocation() >= int64_t(sizes.size()))
        return op->emitError("buffer slice ")
               << slice << " names a missing allocation";
      if (slice.getOffset() + slice.getSize() >
          sizes[slice.getAllocation()])
        return op->emitError("buffer slice ")
               << slice << " ends past its allocation of "
               << sizes[slice.getAllocation()] << " bytes";
    }
    return success();
  };
  WalkResult walk = module->walk([&](Operation *op) {
    if (failed(check(op, op->getAttr("hlo.buffer_slices"))))
      return WalkResult::interrupt();
    if (auto fn = dyn_cast<FunctionOpInterface>(op))
      for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
        if (failed(check(op, fn.getArgAttr(i, "hlo.buffer_slices"))))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult HloDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == "hlo.input_output_alias" || name == "hlo.buffer_donor")
    return verifyEntryAliasing(op, attr);
  if (name == "hlo.buffer_allocations" && isa<ModuleOp>(op))
    return verifyBufferAllocations(op, attr.getValue());
  if (name == "hlo.buffer_slices") {
    if (op->getNumResults() != 1)
      return op->emitError("hlo.buffer_slices needs an op with one result");
    return verifyBufferSlices([&] { return op->emitError(); },
                              attr.getValue(), op->getResult(0).getType());
  }
  if (name == "hlo.kernel") {
    // The kernel hlo-to-gpu emitted for a fusion (a nested reference into
    // the kernel module, or a host function after hlo-gpu-kernels-to-host).
    if (!isa<FusionOp>(op))
      return op->emitError("hlo.kernel is only valid on a fusion");
    if (!isa<SymbolRefAttr>(attr.getValue()))
      return op->emitError("hlo.kernel must be a symbol reference");
    return success();
  }
  if (isa<ModuleOp>(op))
    return verifyModuleAttribute(op, attr);
  return success();
}

/// `hlo.global_type` of a value of type `local` (hlo-spmd-partitioner's
/// record of the whole array a partitioned program's parameter or result
/// is a tile of): a type of its element types and rank.
static LogicalResult verifyGlobalType(function_ref<InFlightDiagnostic()> error,
                                      Attribute attr, Type local) {
  auto global = dyn_cast<TypeAttr>(attr);
  if (!global)
    return error() << "hlo.global_type must be a type";
  // The leaves of both, in order.
  SmallVector<Type> wholes, tiles;
  forEachSubshape(global.getValue(), [&](Type t, ArrayRef<int64_t>) {
    if (!isa<TupleType>(t))
      wholes.push_back(t);
  });
  forEachSubshape(local, [&](Type t, ArrayRef<int64_t>) {
    if (!isa<TupleType>(t))
      tiles.push_back(t);
  });
  bool alike = wholes.size() == tiles.size();
  for (auto [whole, tile] : llvm::zip(wholes, tiles)) {
    auto w = dyn_cast<RankedTensorType>(whole);
    auto t = dyn_cast<RankedTensorType>(tile);
    alike &= (!w && !t && whole == tile) ||
             (w && t && w.getRank() == t.getRank() &&
              w.getElementType() == t.getElementType());
  }
  if (!alike)
    return error() << "hlo.global_type " << global.getValue()
                   << " is not a whole array of " << local;
  return success();
}

LogicalResult HloDialect::verifyRegionResultAttribute(Operation *op, unsigned,
                                                      unsigned resultIndex,
                                                      NamedAttribute attr) {
  auto fn = dyn_cast<FunctionOpInterface>(op);
  if (!fn || resultIndex >= fn.getNumResults())
    return success();
  Type type = fn.getResultTypes()[resultIndex];
  if (attr.getName() == "hlo.global_type")
    return verifyGlobalType(
        [&] { return op->emitError("result ") << resultIndex << ": "; },
        attr.getValue(), type);
  if (attr.getName() != "hlo.sharding")
    return success();
  auto sharding = dyn_cast<ShardingAttr>(attr.getValue());
  if (!sharding)
    return op->emitError("hlo.sharding of result ")
           << resultIndex << " must be an #hlo.sharding";
  return sharding.verifyForType(type, [&]() {
    return op->emitError("hlo.sharding of result ") << resultIndex << ": ";
  });
}

LogicalResult HloDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                   unsigned argIndex,
                                                   NamedAttribute attr) {
  if (attr.getName() == "hlo.buffer_slices" ||
      attr.getName() == "hlo.global_type") {
    auto fn = dyn_cast<FunctionOpInterface>(op);
    if (!fn || argIndex >= fn.getNumArguments())
      return success();
    auto prefix = [&] {
      return op->emitError("argument ") << argIndex << ": ";
    };
    Type type = fn.getArgumentTypes()[argIndex];
    return attr.getName() == "hlo.buffer_slices"
               ? verifyBufferSlices(prefix, attr.getValue(), type)
               : verifyGlobalType(prefix, attr.getValue(), type);
  }
  if (attr.getName() != "hlo.sharding")
    return success();
  auto sharding = dyn_cast<ShardingAttr>(attr.getValue());
  if (!sharding)
    return op->emitError("hlo.sharding of argument ")
           << argIndex << " must be an #hlo.sharding";
  auto fn = dyn_cast<FunctionOpInterface>(op);
  if (!fn || argIndex >= fn.getNumArguments())
    return success();
  return sharding.verifyForType(fn.getArgumentTypes()[argIndex], [&]() {
    return op->emitError("hlo.sharding of argument ") << argIndex << ": ";
  });
}

//===----------------------------------------------------------------------===//
// Dictionary-valued instruction attributes
//===----------------------------------------------------------------------===//

using syntax::isHloName;

bool mlir::hlo::isStringDictionary(DictionaryAttr dict) {
  return llvm::all_of(dict, [](NamedAttribute a) {
    return isa<StringAttr>(a.getValue());
  });
}

bool mlir::hlo::isTextDictionary(DictionaryAttr dict) {
  return llvm::all_of(dict, [](NamedAttribute a) {
    return isHloName(a.getName().getValue()) && isa<TextAttr>(a.getValue());
  });
}

bool mlir::hlo::isStatisticsDictionary(DictionaryAttr dict) {
  return llvm::all_of(dict, [](NamedAttribute a) {
    if (a.getName() == "visualizing_index")
      return isa<IntegerAttr>(a.getValue());
    return isHloName(a.getName().getValue()) && isa<FloatAttr>(a.getValue());
  });
}

bool mlir::hlo::isAccuracyDictionary(DictionaryAttr dict) {
  if (auto mode = dict.getAs<StringAttr>("mode"))
    return dict.size() == 1 && isHloName(mode.getValue());
  return !dict.empty() && llvm::all_of(dict, [](NamedAttribute a) {
    if (a.getName() == "ulps")
      return isa<IntegerAttr>(a.getValue());
    return (a.getName() == "atol" || a.getName() == "rtol") &&
           isa<FloatAttr>(a.getValue());
  });
}

bool mlir::hlo::isDomainDictionary(DictionaryAttr dict) {
  return llvm::all_of(dict, [](NamedAttribute a) {
    if (a.getName() == "kind")
      return isa<StringAttr>(a.getValue());
    return (a.getName() == "entry" || a.getName() == "exit") &&
           isa<ShardingAttr>(a.getValue());
  });
}

bool mlir::hlo::isTypedLiteralDictionary(DictionaryAttr dict) {
  auto shape = dict.getAs<TypeAttr>("shape");
  return dict.size() == 2 && shape && isHloValueType(shape.getValue()) &&
         dict.get("value");
}
