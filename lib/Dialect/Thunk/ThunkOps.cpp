//===- ThunkOps.cpp - thunk dialect operations ----------------------------===//
//
// Verifiers of the thunk ops: allocations well formed, slices inside their
// allocations, kernels launched with their signature, GEMM shapes that
// agree, control flow on slices of the right type.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Thunk/ThunkDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::thunk;

#define GET_OP_CLASSES
#include "Hlo/Dialect/Thunk/ThunkOps.cpp.inc"

/// Effects of the thunks nested in `op`'s regions, as their own.
static void
addNestedEffects(Operation *op,
                 SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  for (Region &region : op->getRegions())
    for (Operation &nested : region.getOps()) {
      std::optional<SmallVector<MemoryEffects::EffectInstance>> inner =
          getEffectsRecursively(&nested);
      if (!inner) {
        // Unknown effects: say everything.
        effects.emplace_back(MemoryEffects::Read::get());
        effects.emplace_back(MemoryEffects::Write::get());
        continue;
      }
      effects.append(inner->begin(), inner->end());
    }
}

//===----------------------------------------------------------------------===//
// AllocationOp
//===----------------------------------------------------------------------===//

LogicalResult AllocationOp::verify() {
  if (int64_t(getSize()) < 0)
    return emitOpError("size must not be negative");
  if (getAlignment() < 1 || !llvm::isPowerOf2_64(getAlignment()))
    return emitOpError("alignment must be a power of two");
  bool isParameter = getKind() == AllocationKind::Parameter;
  if (isParameter != getParameter().has_value())
    return emitOpError(isParameter
                           ? "of kind parameter needs a `parameter` number"
                           : "has a `parameter` number but is not of kind "
                             "parameter");
  if (getParameter() && int64_t(*getParameter()) < 0)
    return emitOpError("parameter number must not be negative");
  if (getParameterIndex() && !isParameter)
    return emitOpError("has a `parameter_index` but is not of kind parameter");
  if (getMaybeLiveOut() && !isParameter)
    return emitOpError("`maybe_live_out` is for parameter allocations (an "
                       "output allocation is live out)");
  bool isConstant = getKind() == AllocationKind::Constant;
  if (std::optional<uint64_t> space = getMemorySpace();
      space && *space != 0 && (*space != kHostMemorySpace || isConstant))
    return emitOpError("memory space must be 0 (the device's) or ")
           << kHostMemorySpace << " (the host's, not for a constant)";
  if (isConstant != bool(getValue()))
    return emitOpError(isConstant ? "of kind constant needs a `value`"
                                  : "has a `value` but is not of kind "
                                    "constant");
  if (std::optional<ElementsAttr> value = getValue()) {
    auto type = dyn_cast<ShapedType>(value->getType());
    Type element = type ? type.getElementType() : Type();
    if (!type || !type.hasStaticShape() ||
        !(element.isIntOrFloat() || isa<ComplexType>(element)))
      return emitOpError("`value` must be a static-shaped array of numbers");
    int64_t bytes = type.getNumElements() * getElementStorageBytes(element);
    if (bytes > int64_t(getSize()))
      return emitOpError("`value` takes ")
             << bytes << " bytes, more than the allocation's " << getSize();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// SliceOp
//===----------------------------------------------------------------------===//

int64_t SliceOp::getByteSize() { return getStorageBytes(getType()); }

LogicalResult SliceOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto allocation = symbolTable.lookupNearestSymbolFrom<AllocationOp>(
      *this, getAllocationAttr());
  if (!allocation)
    return emitOpError("'")
           << getAllocation() << "' does not name a thunk.allocation";
  if (int64_t(getOffset()) < 0)
    return emitOpError("offset must not be negative");
  if (getOffset() + getByteSize() > allocation.getSize())
    return emitOpError("bytes [")
           << getOffset() << ", " << getOffset() + getByteSize()
           << ") are outside allocation '" << getAllocation() << "' of "
           << allocation.getSize() << " bytes";
  return success();
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

/// Every asynchronous collective (`async_id`) started in `block` is waited
/// for by one thunk.collective_done of its id later in the block, before
/// the id starts again; no done waits for what is not in flight. Nested
/// blocks are checked on their own.
static LogicalResult verifyAsyncCollectives(Block &block) {
  llvm::DenseMap<int64_t, Operation *> inFlight;
  for (Operation &op : block) {
    for (Region &region : op.getRegions())
      for (Block &inner : region)
        if (failed(verifyAsyncCollectives(inner)))
          return failure();
    if (auto done = dyn_cast<CollectiveDoneOp>(op)) {
      if (!inFlight.erase(int64_t(done.getAsyncId())))
        return done.emitOpError("waits for asynchronous collective ")
               << done.getAsyncId() << ", which is not in flight here";
      continue;
    }
    auto id = op.getAttrOfType<IntegerAttr>("async_id");
    if (id && !inFlight.try_emplace(id.getInt(), &op).second)
      return op.emitOpError("starts asynchronous collective ")
             << id.getInt() << " while it is in flight";
  }
  for (Operation &op : block)
    if (auto id = op.getAttrOfType<IntegerAttr>("async_id");
        id && inFlight.lookup(id.getInt()) == &op)
      return op.emitOpError("starts asynchronous collective ")
             << id.getInt() << ", which no thunk.collective_done waits for";
  return success();
}

LogicalResult ProgramOp::verify() {
  auto isStaticMemRef = [](Attribute a) {
    auto t = dyn_cast<TypeAttr>(a);
    auto memref = t ? dyn_cast<MemRefType>(t.getValue()) : MemRefType();
    return memref && memref.hasStaticShape();
  };
  for (std::optional<ArrayAttr> types : {getArgumentTypes(), getResultTypes()})
    if (types && !llvm::all_of(*types, isStaticMemRef))
      return emitOpError("argument_types and result_types must be "
                         "static-shaped memref types");
  if (int64_t(getNumReplicas()) < 1 || int64_t(getNumPartitions()) < 1)
    return emitOpError("needs at least one replica and one partition");
  // Each tiled argument and result: a tile of its type per partition.
  for (auto [name, tiles, types] :
       {std::make_tuple("argument", getArgumentTiles(), getArgumentTypes()),
        std::make_tuple("result", getResultTiles(), getResultTypes())}) {
    if (!tiles)
      continue;
    if (!types || types->size() != tiles->size())
      return emitOpError("needs one ")
             << name << " type for each of its " << tiles->size() << " " << name
             << " tiles";
    for (auto [i, t] : llvm::enumerate(tiles->getAsRange<TilesAttr>())) {
      auto type = cast<MemRefType>(cast<TypeAttr>((*types)[i]).getValue());
      if (int64_t(t.getOf().size()) != int64_t(getNumPartitions()))
        return emitOpError()
               << name << " " << i << ": " << t << " names " << t.getOf().size()
               << " partitions, not " << getNumPartitions();
      if (ArrayRef(t.getTileShape()) != type.getShape())
        return emitOpError() << name << " " << i << ": a tile of " << t
                             << " is not the " << type;
    }
  }
  Block &body = getBody().front();
  auto ret = body.empty() ? ReturnOp() : dyn_cast<ReturnOp>(body.back());
  if (!ret)
    return emitOpError("must end with thunk.return");
  if (failed(verifyAsyncCollectives(body)))
    return failure();
  if (std::optional<ArrayAttr> types = getResultTypes()) {
    if (types->size() != ret.getResults().size())
      return emitOpError("has ")
             << types->size() << " result types for " << ret.getResults().size()
             << " returned slices";
    for (auto [attr, slice] : llvm::zip(*types, ret.getResults())) {
      auto type = cast<MemRefType>(cast<TypeAttr>(attr).getValue());
      if (getStorageBytes(type) !=
          getStorageBytes(cast<MemRefType>(slice.getType())))
        return emitOpError("result type ")
               << type << " does not take the bytes of its slice ("
               << slice.getType() << ")";
    }
  }
  return success();
}

/// A one-byte predicate slice.
static bool isPredicate(MemRefType type) {
  return type.getNumElements() == 1 && type.getElementType().isInteger(8);
}

LogicalResult WhileOp::verify() {
  if (!isPredicate(getPredicate().getType()))
    return emitOpError("predicate must be one byte (memref<1xi8>), not ")
           << getPredicate().getType();
  if (getTripCount() && int64_t(*getTripCount()) < 0)
    return emitOpError("trip_count must not be negative");
  return success();
}

void WhileOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPredicateMutable());
  addNestedEffects(*this, effects);
}

LogicalResult ConditionalOp::verify() {
  MemRefType type = getSelector().getType();
  if (getBranches().empty())
    return emitOpError("needs at least one branch");
  if (isPredicate(type)) {
    if (getBranches().size() != 2)
      return emitOpError("with a predicate needs two branches, not ")
             << getBranches().size();
    return success();
  }
  if (type.getNumElements() != 1 || !type.getElementType().isInteger(32))
    return emitOpError("selector must be a predicate (memref<1xi8>) or a "
                       "branch index (memref<1xi32>), not ")
           << type;
  return success();
}

void ConditionalOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getSelectorMutable());
  addNestedEffects(*this, effects);
}

LogicalResult CommandBufferOp::verify() {
  for (Operation &op : getBody().getOps())
    if (!isa<SliceOp, KernelOp, GemmOp, CopyOp, MemsetOp>(op))
      return op.emitOpError("cannot be recorded in a command buffer (only "
                            "kernels, GEMMs, copies and memsets can)");
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

LogicalResult KernelOp::verify() {
  for (auto [name, dims] :
       {std::pair{"grid", getGrid()}, std::pair{"block", getBlock()}}) {
    if (dims.size() != 3)
      return emitOpError(name) << " must have three dimensions (x, y, z)";
    if (llvm::any_of(dims, [](int32_t d) { return d < 1; }))
      return emitOpError(name) << " dimensions must be positive";
  }
  ArrayRef<int32_t> block = getBlock();
  if (int64_t(block[0]) * block[1] * block[2] > 1024)
    return emitOpError("a block has at most 1024 threads");
  if (int64_t(getSharedMemory()) < 0)
    return emitOpError("shared_memory must not be negative");
  if (TransposeAttr transpose = getTransposeAttr()) {
    if (getInputs().size() != 1 || getOutputs().size() != 1)
      return emitOpError("a transpose has one input and one output");
    auto in = cast<MemRefType>(getInputs()[0].getType());
    auto out = cast<MemRefType>(getOutputs()[0].getType());
    if (in.getElementType() != out.getElementType() ||
        isPackedElementType(in.getElementType()))
      return emitOpError("a transpose's input and output must have one "
                         "element type of whole bytes");
    for (MemRefType type : {in, out})
      if (type.getNumElements() != transpose.getNumElements())
        return emitOpError("a transpose of ")
               << transpose.getNumElements() << " elements has a slice of "
               << type.getNumElements();
  }
  return success();
}

LogicalResult KernelOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto func =
      symbolTable.lookupNearestSymbolFrom<gpu::GPUFuncOp>(*this, getKernel());
  if (!func)
    return emitOpError("'") << getKernel() << "' does not name a gpu.func";
  if (!func.isKernel())
    return emitOpError("'") << getKernel() << "' is not a kernel";
  SmallVector<Type> types(getInputs().getTypes());
  llvm::append_range(types, getOutputs().getTypes());
  ArrayRef<Type> expected = func.getArgumentTypes();
  if (types.size() != expected.size())
    return emitOpError("passes ")
           << types.size() << " arguments to a kernel of " << expected.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(types, expected)))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError("argument ")
             << i << " is " << std::get<0>(pair) << " but the kernel takes "
             << std::get<1>(pair);
  for (auto [name, known, dims] :
       {std::tuple{"block", func.getKnownBlockSize(), getBlock()},
        std::tuple{"grid", func.getKnownGridSize(), getGrid()}})
    if (known && *known != dims)
      return emitOpError(name) << " differs from the kernel's known size";
  return success();
}

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

/// The fp8 types cuBLASLt's fp8 GEMM takes.
static bool isFp8(Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); }

LogicalResult GemmOp::verify() {
  MatrixLayoutAttr lhs = getLhsLayout(), rhs = getRhsLayout(),
                   out = getOutLayout();
  if (lhs.getCols() != rhs.getRows())
    return emitOpError("contracting sizes differ: lhs has ")
           << lhs.getCols() << " columns, rhs " << rhs.getRows() << " rows";
  if (lhs.getRows() != out.getRows() || rhs.getCols() != out.getCols())
    return emitOpError("output is ")
           << out.getRows() << "x" << out.getCols() << ", not " << lhs.getRows()
           << "x" << rhs.getCols();
  if (lhs.getBatch() != out.getBatch() || rhs.getBatch() != out.getBatch())
    return emitOpError("batch sizes differ");
  for (auto [name, value, layout] :
       {std::tuple{"lhs", getLhs(), lhs}, std::tuple{"rhs", getRhs(), rhs},
        std::tuple{"out", getOut(), out}}) {
    auto type = cast<MemRefType>(value.getType());
    if (type.getNumElements() < layout.getExtent())
      return emitOpError(name)
             << " has " << type.getNumElements() << " elements; its layout "
             << "needs " << layout.getExtent();
  }
  if (Value c = getC()) {
    auto ct = cast<MemRefType>(c.getType());
    if (getBeta().convertToDouble() == 0)
      return emitOpError("c is added with beta, which is 0");
    Type outElement = getOut().getType().getElementType();
    // An fp8 output adds a bf16 or f16 C (cuBLASLt's C type for fp8 D).
    bool wideC = isFp8(outElement) &&
                 (ct.getElementType().isBF16() || ct.getElementType().isF16());
    if ((ct.getElementType() != outElement && !wideC) ||
        ct.getNumElements() < out.getExtent())
      return emitOpError("c must have the output's element type (bf16 or "
                         "f16 for an fp8 output) and layout");
  }
  bool hasBias = getEpilogue() == GemmEpilogue::Bias ||
                 getEpilogue() == GemmEpilogue::BiasRelu ||
                 getEpilogue() == GemmEpilogue::BiasGelu;
  if (hasBias != bool(getBias()))
    return emitOpError(hasBias ? "epilogue needs a bias"
                               : "has a bias but its epilogue adds none");
  if (getBias() &&
      cast<MemRefType>(getBias().getType()).getNumElements() != out.getCols())
    return emitOpError("bias must have one element per output column (")
           << out.getCols() << ")";
  Type outElement = getOut().getType().getElementType();
  Type lhsElement = getLhs().getType().getElementType();
  Type rhsElement = getRhs().getType().getElementType();
  if (isFp8(lhsElement) || isFp8(rhsElement))
    return verifyFp8();
  if (getBias() && getBias().getType().getElementType() != outElement)
    return emitOpError("bias must have the output's element type");
  if (getAScale() || getBScale() || getDScale() || getDAmax())
    return emitOpError("only fp8 GEMMs take scales and an amax");
  if (getFastAccum())
    return emitOpError("fast_accum is for fp8 operands");
  if (lhsElement != rhsElement)
    return emitOpError("lhs and rhs must have one element type");
  if (getTf32() && (!lhsElement.isF32() || !outElement.isF32()))
    return emitOpError("tf32 multiplies f32 operands into an f32 output");
  return success();
}

/// cuBLASLt's fp8 GEMM: its type combinations (as XLA's table), the scales
/// as f32 scalars, d_scale exactly with an fp8 output.
LogicalResult GemmOp::verifyFp8() {
  Type a = getLhs().getType().getElementType();
  Type b = getRhs().getType().getElementType();
  Type out = getOut().getType().getElementType();
  bool aE5 = isa<Float8E5M2Type>(a), bE5 = isa<Float8E5M2Type>(b);
  if (!isFp8(a) || !isFp8(b) || (aE5 && bE5))
    return emitOpError("fp8 operands must be e4m3fn and e5m2, not both e5m2");
  if (!(out.isF32() || out.isF16() || out.isBF16() ||
        isa<Float8E4M3FNType>(out) || (isa<Float8E5M2Type>(out) && aE5 != bE5)))
    return emitOpError("cuBLASLt's fp8 GEMM does not write ") << out;
  for (Value scale : {getAScale(), getBScale(), getDScale(), getDAmax()}) {
    if (!scale)
      continue;
    auto type = cast<MemRefType>(scale.getType());
    if (type.getNumElements() != 1 || !type.getElementType().isF32())
      return emitOpError("scales and the amax must be one f32 element each");
  }
  if (!getAScale() || !getBScale())
    return emitOpError("an fp8 GEMM needs a_scale and b_scale");
  if (getDScale() && !isFp8(out))
    return emitOpError("d_scale scales fp8 outputs only");
  if (isFp8(out) && getBeta().convertToDouble() != 0 && !getC())
    return emitOpError("an fp8 output adds C only from a bf16 or f16 c of "
                       "its own");
  if (getBias()) {
    Type bias = getBias().getType().getElementType();
    if (!bias.isBF16() && !bias.isF16())
      return emitOpError("an fp8 GEMM's bias must be bf16 or f16");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CopyOp, MemsetOp
//===----------------------------------------------------------------------===//

LogicalResult CopyOp::verify() {
  int64_t from = getStorageBytes(getSource().getType());
  int64_t to = getStorageBytes(getTarget().getType());
  if (from != to)
    return emitOpError("copies ")
           << from << " bytes into a slice of " << to << " bytes";
  return success();
}

WhileOp DynamicCopyOp::getLoop() { return (*this)->getParentOfType<WhileOp>(); }

LogicalResult DynamicCopyOp::verify() {
  WhileOp loop = getLoop();
  if (!loop || !loop.getTripCount() ||
      !loop.getBody().isAncestor((*this)->getParentRegion()))
    return emitOpError("must be in the body of a thunk.while with a "
                       "trip_count (its offsets move with its iteration)");
  if ((*this)->getParentOfType<CommandBufferOp>())
    return emitOpError("cannot be recorded in a command buffer (its "
                       "offsets change from iteration to iteration)");
  int64_t bytes = getBytes();
  if (bytes <= 0)
    return emitOpError("copies ") << bytes << " bytes";
  // Affine offsets: the first and the last iteration bound all others.
  int64_t last = std::max<int64_t>(int64_t(*loop.getTripCount()) - 1, 0);
  auto inBounds = [&](Value slice, int64_t offset, int64_t stride,
                      StringRef name) -> LogicalResult {
    int64_t size = getStorageBytes(cast<MemRefType>(slice.getType()));
    int64_t step, end;
    if (llvm::MulOverflow(last, stride, step) ||
        llvm::AddOverflow(offset, step, end))
      return emitOpError("the ") << name << " offset overflows";
    for (int64_t at : {offset, end})
      if (at < 0 || at > size - bytes)
        return emitOpError("copies ")
               << bytes << " bytes at byte " << at << " of the " << name
               << ", a slice of " << size << " bytes";
    return success();
  };
  if (failed(inBounds(getSource(), getSourceOffset(), getSourceStride(),
                      "source")) ||
      failed(inBounds(getTarget(), getTargetOffset(), getTargetStride(),
                      "target")))
    return failure();
  return success();
}

LogicalResult MemsetOp::verify() {
  if (getValue() != 0 && getStorageBytes(getTarget().getType()) % 4)
    return emitOpError("a nonzero 32-bit pattern needs a target whose size "
                       "is a multiple of 4 bytes");
  return success();
}

//===----------------------------------------------------------------------===//
// RadixSortOp
//===----------------------------------------------------------------------===//

int64_t RadixSortOp::getRowLength() {
  return getKeys().getType().getShape().back();
}

int64_t RadixSortOp::getRows() {
  int64_t n = getRowLength();
  return n ? getKeys().getType().getNumElements() / n : 0;
}

LogicalResult RadixSortOp::verify() {
  MemRefType keys = getKeys().getType();
  if (keys.getRank() < 1)
    return emitOpError("sorts rows: the keys need a dimension");
  auto isWidth = [](Type t, std::initializer_list<unsigned> widths) {
    return t.isIntOrFloat() &&
           llvm::is_contained(widths, t.getIntOrFloatBitWidth());
  };
  Type k = keys.getElementType();
  if (!(isa<IntegerType>(k)
            ? isWidth(k, {8, 16, 32, 64})
            : k.isF16() || k.isBF16() || k.isF32() || k.isF64()))
    return emitOpError("keys must be 8- to 64-bit integers, f16, bf16, f32 "
                       "or f64, not ")
           << k;
  if (static_cast<bool>(getValues()) != static_cast<bool>(getSortedValues()))
    return emitOpError("takes values and sorted values together");
  SmallVector<std::pair<Value, Value>, 2> pairs = {
      {getKeys(), getSortedKeys()}};
  if (getValues()) {
    Type v = cast<MemRefType>(getValues().getType()).getElementType();
    if (!isWidth(v, {1, 8, 16, 32, 64}))
      return emitOpError("values must be of an 8- to 64-bit type or i1, not ")
             << v;
    pairs.push_back({getValues(), getSortedValues()});
  }
  for (auto [in, out] : pairs) {
    auto a = cast<MemRefType>(in.getType()),
         b = cast<MemRefType>(out.getType());
    if (a.getShape() != keys.getShape() || b.getShape() != keys.getShape() ||
        a.getElementType() != b.getElementType())
      return emitOpError("sorts arrays of the keys' shape into arrays of "
                         "their own type, not ")
             << a << " into " << b;
    if (!a.getLayout().isIdentity() || !b.getLayout().isIdentity())
      return emitOpError("takes row-major slices, not ") << a << ", " << b;
  }
  MemRefType scratch = getScratch().getType();
  if (scratch.getRank() != 1 || !scratch.getElementType().isInteger(8))
    return emitOpError("scratch must be a byte array, not ") << scratch;
  return success();
}

//===----------------------------------------------------------------------===//
// TopKOp
//===----------------------------------------------------------------------===//

int64_t TopKOp::getRowLength() {
  return getInput().getType().getShape().back();
}

int64_t TopKOp::getRows() {
  int64_t n = getRowLength();
  return n ? getInput().getType().getNumElements() / n : 0;
}

int64_t TopKOp::getK() { return getValues().getType().getShape().back(); }

LogicalResult TopKOp::verify() {
  MemRefType input = getInput().getType(), values = getValues().getType(),
             indices = getIndices().getType();
  if (input.getRank() < 1)
    return emitOpError("takes rows: the input needs a dimension");
  Type t = input.getElementType();
  if (!t.isF32() && !t.isBF16())
    return emitOpError("takes f32 or bf16 elements, not ") << t;
  if (values.getElementType() != t || !indices.getElementType().isInteger(32))
    return emitOpError("writes values of the input's type and i32 indices, "
                       "not ")
           << values << ", " << indices;
  if (values.getShape() != indices.getShape() ||
      values.getRank() != input.getRank() ||
      values.getShape().drop_back() != input.getShape().drop_back())
    return emitOpError("writes values and indices of the input's shape but "
                       "for the last dimension, not ")
           << values << ", " << indices << " of " << input;
  int64_t k = getK(), n = getRowLength();
  if (k < 1 || k > 16 || k > n)
    return emitOpError("keeps 1 to 16 elements a row, at most the row's ")
           << n << ", not " << k;
  if (n > std::numeric_limits<int32_t>::max() ||
      getRows() > std::numeric_limits<int32_t>::max())
    return emitOpError("takes rows shorter than 2^31, fewer than 2^31 of "
                       "them");
  for (MemRefType m : {input, values, indices})
    if (!m.getLayout().isIdentity())
      return emitOpError("takes row-major slices, not ") << m;
  return success();
}

//===----------------------------------------------------------------------===//
// FftOp
//===----------------------------------------------------------------------===//

int64_t FftOp::getBatch() {
  ArrayRef<int64_t> shape = getInput().getType().getShape();
  int64_t batch = 1;
  for (int64_t d : shape.drop_back(getLength().size()))
    batch *= d;
  return batch;
}

int64_t FftOp::getTransformElements() {
  int64_t n = 1;
  for (int64_t d : getLength())
    n *= d;
  return n;
}

int64_t FftOp::getHalfSpectrumElements() {
  int64_t last = getLength().back();
  return getTransformElements() / last * (last / 2 + 1);
}

Type FftOp::getRealType() {
  Type element = getInput().getType().getElementType();
  if (auto complex = dyn_cast<ComplexType>(element))
    return complex.getElementType();
  return element;
}

LogicalResult FftOp::verify() {
  ArrayRef<int64_t> length = getLength();
  if (length.empty() || length.size() > 3)
    return emitOpError("transforms one to three dimensions, not ")
           << length.size();
  if (llvm::any_of(length, [](int64_t n) { return n <= 0; }))
    return emitOpError("lengths must be positive");
  MemRefType in = getInput().getType(), out = getOutput().getType();
  for (MemRefType t : {in, out}) {
    if (!t.getLayout().isIdentity())
      return emitOpError("takes row-major slices, not ") << t;
    if (t.getRank() < int64_t(length.size()))
      return emitOpError("a slice of rank ")
             << t.getRank() << " cannot hold " << length.size()
             << " transformed dimensions";
  }
  if (in.getRank() != out.getRank() ||
      in.getShape().drop_back(length.size()) !=
          out.getShape().drop_back(length.size()))
    return emitOpError("the input and the output must have the same batch "
                       "dimensions");
  // Element types: complex on the complex sides, the matching real type on
  // the real side of rfft and irfft.
  FftType kind = getFftType();
  bool realIn = kind == FftType::Rfft, realOut = kind == FftType::Irfft;
  auto complexIn = dyn_cast<ComplexType>(in.getElementType());
  auto complexOut = dyn_cast<ComplexType>(out.getElementType());
  Type realType = complexIn ? complexIn.getElementType()
                  : complexOut ? complexOut.getElementType()
                               : Type();
  if (!realType || !(realType.isF32() || realType.isF64()))
    return emitOpError("transforms complex<f32> or complex<f64>");
  Type wantIn = realIn ? realType : ComplexType::get(realType);
  Type wantOut = realOut ? realType : ComplexType::get(realType);
  if (in.getElementType() != wantIn || out.getElementType() != wantOut)
    return emitOpError("a ")
           << stringifyFftType(kind) << " reads " << wantIn << " and writes "
           << wantOut;
  // The transformed dimensions: the lengths, the complex side of rfft and
  // irfft holding length[-1] / 2 + 1 frequencies innermost.
  SmallVector<int64_t> full(length), half(length);
  half.back() = length.back() / 2 + 1;
  ArrayRef<int64_t> wantInDims = kind == FftType::Irfft ? ArrayRef(half)
                                                        : ArrayRef(full);
  ArrayRef<int64_t> wantOutDims = kind == FftType::Rfft ? ArrayRef(half)
                                                        : ArrayRef(full);
  if (in.getShape().take_back(length.size()) != wantInDims ||
      out.getShape().take_back(length.size()) != wantOutDims)
    return emitOpError("with length [")
           << length << "] a " << stringifyFftType(kind)
           << " needs innermost input dimensions [" << wantInDims
           << "] and output dimensions [" << wantOutDims << "], not " << in
           << " and " << out;
  return success();
}

//===----------------------------------------------------------------------===//
// TriangularSolveOp and CholeskyOp
//===----------------------------------------------------------------------===//

/// Whether `t` holds column-major matrices in its two minor dimensions, the
/// outer dimensions a row-major batch of them (strides of unit dimensions
/// do not matter).
static bool isFortranBatch(MemRefType t) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (t.getRank() < 2 || failed(t.getStridesAndOffset(strides, offset)) ||
      offset != 0)
    return false;
  ArrayRef<int64_t> shape = t.getShape();
  int64_t r = t.getRank();
  SmallVector<int64_t> want(r);
  want[r - 2] = 1;
  want[r - 1] = shape[r - 2];
  int64_t next = shape[r - 2] * shape[r - 1];
  for (int64_t d = r - 3; d >= 0; --d) {
    want[d] = next;
    next *= shape[d];
  }
  for (int64_t d = 0; d < r; ++d)
    if (shape[d] > 1 && strides[d] != want[d])
      return false;
  return true;
}

static bool isSolverElementType(Type t) {
  if (auto c = dyn_cast<ComplexType>(t))
    t = c.getElementType();
  return t.isF32() || t.isF64();
}

static int64_t batchOf(MemRefType t) {
  int64_t n = 1;
  for (int64_t d : t.getShape().drop_back(2))
    n *= d;
  return n;
}

int64_t TriangularSolveOp::getBatch() { return batchOf(getB().getType()); }
int64_t TriangularSolveOp::getRows() {
  return getB().getType().getShape().drop_back().back();
}
int64_t TriangularSolveOp::getColumns() {
  return getB().getType().getShape().back();
}

LogicalResult TriangularSolveOp::verify() {
  MemRefType a = getA().getType(), b = getB().getType();
  for (MemRefType t : {a, b})
    if (!isFortranBatch(t))
      return emitOpError("takes batches of column-major matrices (strides "
                         "of the Fortran layout), not ")
             << t;
  if (a.getElementType() != b.getElementType() ||
      !isSolverElementType(a.getElementType()))
    return emitOpError("a and b must have one element type of f32, f64, "
                       "complex<f32>, complex<f64>");
  if (a.getRank() != b.getRank() ||
      a.getShape().drop_back(2) != b.getShape().drop_back(2))
    return emitOpError("a and b must have the same batch dimensions");
  int64_t order = getLeftSide() ? getRows() : getColumns();
  if (a.getShape().back() != order || a.getShape().drop_back().back() != order)
    return emitOpError("a must be ")
           << order << " x " << order << " (b's "
           << (getLeftSide() ? "rows" : "columns") << ")";
  return success();
}

int64_t CholeskyOp::getBatch() { return batchOf(getA().getType()); }
int64_t CholeskyOp::getOrder() { return getA().getType().getShape().back(); }

LogicalResult CholeskyOp::verify() {
  MemRefType a = getA().getType();
  if (!isFortranBatch(a))
    return emitOpError("takes a batch of column-major matrices (strides of "
                       "the Fortran layout), not ")
           << a;
  if (!isSolverElementType(a.getElementType()))
    return emitOpError("factors f32, f64, complex<f32> or complex<f64>");
  if (a.getShape().back() != a.getShape().drop_back().back())
    return emitOpError("the matrices must be square");
  MemRefType info = getInfo().getType();
  if (!info.getElementType().isInteger(32) ||
      info.getNumElements() != getBatch())
    return emitOpError("info must hold one i32 per matrix (")
           << getBatch() << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// QrOp and HouseholderProductOp
//===----------------------------------------------------------------------===//

/// Checks a batch of reflectors: `a` column-major of a solver type, `tau`
/// of its element type holding `k` scales per matrix, k at most min(m, n).
static LogicalResult verifyReflectors(Operation *op, MemRefType a,
                                      MemRefType tau, bool exactlyMin) {
  if (!isFortranBatch(a))
    return op->emitOpError("takes a batch of column-major matrices (strides "
                           "of the Fortran layout), not ")
           << a;
  if (!isSolverElementType(a.getElementType()) ||
      tau.getElementType() != a.getElementType())
    return op->emitOpError("takes f32, f64, complex<f32> or complex<f64> "
                           "matrices and scales of their type");
  int64_t m = a.getShape().drop_back().back(), n = a.getShape().back();
  int64_t batch = a.getNumElements() / std::max<int64_t>(1, m * n);
  int64_t k = tau.getRank() ? tau.getShape().back() : 1;
  if (tau.getNumElements() != batch * k || k > std::min(m, n) ||
      (exactlyMin && k != std::min(m, n)))
    return op->emitOpError("tau must hold ")
           << (exactlyMin ? "min(m, n)" : "at most min(m, n)")
           << " scales per matrix, not " << tau;
  return success();
}

LogicalResult QrOp::verify() {
  return verifyReflectors(*this, getA().getType(), getTau().getType(),
                          /*exactlyMin=*/true);
}

LogicalResult HouseholderProductOp::verify() {
  return verifyReflectors(*this, getA().getType(), getTau().getType(),
                          /*exactlyMin=*/false);
}

//===----------------------------------------------------------------------===//
// LuOp, LuPivotsToPermutationOp, EighOp and SvdOp
//===----------------------------------------------------------------------===//

/// Checks that `a` is a batch of column-major matrices of a solver type.
static LogicalResult verifyFactored(Operation *op, MemRefType a) {
  if (!isFortranBatch(a))
    return op->emitOpError("takes a batch of column-major matrices (strides "
                           "of the Fortran layout), not ")
           << a;
  if (!isSolverElementType(a.getElementType()))
    return op->emitOpError("factors f32, f64, complex<f32> or complex<f64>");
  return success();
}

/// Checks that `t` holds `perMatrix` elements of `element` for each of the
/// `batch` matrices, densely in order.
static LogicalResult verifyPerMatrix(Operation *op, StringRef name,
                                     MemRefType t, Type element, int64_t batch,
                                     int64_t perMatrix) {
  if (t.getElementType() != element ||
      t.getNumElements() != batch * perMatrix || !t.getLayout().isIdentity())
    return op->emitOpError()
           << name << " must hold " << perMatrix << " " << element
           << " per matrix (" << batch << " matrices) in a dense array, not "
           << t;
  return success();
}

/// The real type of a solver element type.
static Type realPart(Type t) {
  if (auto c = dyn_cast<ComplexType>(t))
    return c.getElementType();
  return t;
}

LogicalResult LuOp::verify() {
  MemRefType a = getA().getType();
  if (failed(verifyFactored(*this, a)))
    return failure();
  int64_t m = a.getShape().drop_back().back(), n = a.getShape().back();
  Type i32 = IntegerType::get(getContext(), 32);
  return success(
      succeeded(verifyPerMatrix(*this, "pivots", getPivots().getType(), i32,
                                batchOf(a), std::min(m, n))) &&
      succeeded(verifyPerMatrix(*this, "info", getInfo().getType(), i32,
                                batchOf(a), 1)));
}

LogicalResult LuPivotsToPermutationOp::verify() {
  MemRefType pivots = getPivots().getType(),
             permutation = getPermutation().getType();
  for (MemRefType t : {pivots, permutation})
    if (!t.getElementType().isInteger(32) || t.getRank() < 1 ||
        !t.getLayout().isIdentity())
      return emitOpError("takes dense arrays of i32 of rank 1 or more, not ")
             << t;
  if (pivots.getShape().drop_back() != permutation.getShape().drop_back())
    return emitOpError("pivots and permutation must have the same batch "
                       "dimensions");
  if (pivots.getShape().back() > permutation.getShape().back())
    return emitOpError("a matrix of ")
           << permutation.getShape().back() << " rows has at most as many "
           << "pivots, not " << pivots.getShape().back();
  return success();
}

LogicalResult EighOp::verify() {
  MemRefType a = getA().getType();
  if (failed(verifyFactored(*this, a)))
    return failure();
  int64_t n = a.getShape().back();
  if (a.getShape().drop_back().back() != n)
    return emitOpError("the matrices must be square");
  return success(
      succeeded(verifyPerMatrix(*this, "w", getW().getType(),
                                realPart(a.getElementType()), batchOf(a), n)) &&
      succeeded(verifyPerMatrix(*this, "info", getInfo().getType(),
                                IntegerType::get(getContext(), 32), batchOf(a),
                                1)));
}

LogicalResult EigOp::verify() {
  MemRefType a = getA().getType();
  if (failed(verifyFactored(*this, a)))
    return failure();
  int64_t n = a.getShape().back(), batch = batchOf(a);
  if (a.getShape().drop_back().back() != n)
    return emitOpError("the matrices must be square");
  Type element = a.getElementType();
  bool complex = isa<ComplexType>(element);
  if (getPacked() && complex)
    return emitOpError("packs the vectors of real matrices only");
  // Real matrices: the eigenvalues' real and imaginary parts apart, or
  // packed (cuSOLVER's form) complex.
  bool split = !complex && !getPacked();
  if (split != bool(getWi()))
    return emitOpError(split ? "needs the imaginary parts (wi) of the "
                               "eigenvalues of real matrices"
                             : "takes the eigenvalues as complex values, no "
                               "imaginary parts (wi)");
  Type complexType = complex ? element : ComplexType::get(element);
  Type vectorType = getPacked() ? element : complexType;
  if (failed(verifyPerMatrix(*this, "w", getW().getType(),
                             split ? element : complexType, batch, n)) ||
      (getWi() && failed(verifyPerMatrix(*this, "wi", getWi().getType(),
                                         element, batch, n))) ||
      failed(verifyPerMatrix(*this, "info", getInfo().getType(),
                             IntegerType::get(getContext(), 32), batch, 1)))
    return failure();
  for (auto [name, t] :
       {std::pair<StringRef, MemRefType>{"vl", getVl().getType()},
        {"vr", getVr().getType()}})
    if (!isFortranBatch(t) || t.getShape() != a.getShape() ||
        t.getElementType() != vectorType)
      return emitOpError() << name << " must be a column-major " << vectorType
                           << " batch of the shape of a, not " << t;
  return success();
}

LogicalResult SvdOp::verify() {
  MemRefType a = getA().getType();
  if (failed(verifyFactored(*this, a)))
    return failure();
  int64_t m = a.getShape().drop_back().back(), n = a.getShape().back();
  int64_t k = std::min(m, n), batch = batchOf(a);
  if (failed(verifyPerMatrix(*this, "s", getS().getType(),
                             realPart(a.getElementType()), batch, k)) ||
      failed(verifyPerMatrix(*this, "info", getInfo().getType(),
                             IntegerType::get(getContext(), 32), batch, 1)))
    return failure();
  if (getVectors() == SvdVectors::None)
    return success();
  bool all = getVectors() == SvdVectors::All;
  // U is m x (m or k); V^H (n or k) x n, or V n x (n or k).
  SmallVector<int64_t> uShape(a.getShape()), vShape(a.getShape());
  uShape.back() = all ? m : k;
  vShape[vShape.size() - 2] = getAdjointV() ? n : (all ? n : k);
  vShape.back() = getAdjointV() ? (all ? n : k) : n;
  for (auto [name, t, shape] :
       {std::tuple<StringRef, MemRefType, ArrayRef<int64_t>>{
            "u", getU().getType(), uShape},
        {"v", getV().getType(), vShape}}) {
    if (!isFortranBatch(t) || t.getShape() != shape ||
        t.getElementType() != a.getElementType())
      return emitOpError() << name << " must be a column-major "
                           << a.getElementType() << " batch of shape "
                           << RankedTensorType::get(shape, a.getElementType())
                           << ", not " << t;
  }
  return success();
}

/// Checks that `a` is a batch of square column-major matrices of a solver
/// type; sets `n` and `batch`.
static LogicalResult verifySquareFactored(Operation *op, MemRefType a,
                                          int64_t &n, int64_t &batch) {
  if (failed(verifyFactored(op, a)))
    return failure();
  n = a.getShape().back();
  batch = batchOf(a);
  if (a.getShape().drop_back().back() != n)
    return op->emitOpError("the matrices must be square");
  return success();
}

LogicalResult SchurOp::verify() {
  MemRefType a = getA().getType(), vs = getVs().getType();
  int64_t n, batch;
  if (failed(verifySquareFactored(*this, a, n, batch)))
    return failure();
  Type element = a.getElementType();
  bool complex = isa<ComplexType>(element);
  if (complex == bool(getWi()))
    return emitOpError(complex ? "takes the eigenvalues of complex matrices "
                                 "as complex values, no imaginary parts (wi)"
                               : "needs the imaginary parts (wi) of the "
                                 "eigenvalues of real matrices");
  if (!isFortranBatch(vs) || vs.getShape() != a.getShape() ||
      vs.getElementType() != element)
    return emitOpError("vs must be a column-major batch of a's type, not ")
           << vs;
  return success(
      succeeded(
          verifyPerMatrix(*this, "w", getW().getType(), element, batch, n)) &&
      (!getWi() || succeeded(verifyPerMatrix(*this, "wi", getWi().getType(),
                                             element, batch, n))) &&
      succeeded(verifyPerMatrix(*this, "info", getInfo().getType(),
                                IntegerType::get(getContext(), 32), batch, 1)));
}

LogicalResult HessenbergOp::verify() {
  MemRefType a = getA().getType();
  int64_t n, batch;
  if (failed(verifySquareFactored(*this, a, n, batch)))
    return failure();
  auto low = int64_t(getLow()), high = int64_t(getHigh());
  if (n > 0 ? low < 1 || low > high || high > n : low != 1 || high != 0)
    return emitOpError("low and high must satisfy 1 <= low <= high <= n (")
           << n << "), or low = 1 and high = 0 for n = 0";
  Type i32 = IntegerType::get(getContext(), 32);
  return success(succeeded(verifyPerMatrix(*this, "tau", getTau().getType(),
                                           a.getElementType(), batch,
                                           std::max<int64_t>(n - 1, 0))) &&
                 succeeded(verifyPerMatrix(*this, "info", getInfo().getType(),
                                           i32, batch, 1)));
}

LogicalResult TridiagonalOp::verify() {
  MemRefType a = getA().getType();
  int64_t n, batch;
  if (failed(verifySquareFactored(*this, a, n, batch)))
    return failure();
  Type element = a.getElementType(), real = realPart(element);
  int64_t offDiagonal = std::max<int64_t>(n - 1, 0);
  return success(
      succeeded(
          verifyPerMatrix(*this, "d", getD().getType(), real, batch, n)) &&
      succeeded(verifyPerMatrix(*this, "e", getE().getType(), real, batch,
                                offDiagonal)) &&
      succeeded(verifyPerMatrix(*this, "tau", getTau().getType(), element,
                                batch, offDiagonal)) &&
      succeeded(verifyPerMatrix(*this, "info", getInfo().getType(),
                                IntegerType::get(getContext(), 32), batch, 1)));
}

LogicalResult TridiagonalSolveOp::verify() {
  MemRefType b = getB().getType();
  if (failed(verifyFactored(*this, b)))
    return failure();
  int64_t m = b.getShape().drop_back().back(), batch = batchOf(b);
  for (auto [name, t] :
       {std::pair<StringRef, MemRefType>{"dl", getDl().getType()},
        {"d", getD().getType()},
        {"du", getDu().getType()}})
    if (failed(verifyPerMatrix(*this, name, t, b.getElementType(), batch, m)))
      return failure();
  if (getInfo() &&
      failed(verifyPerMatrix(*this, "info", getInfo().getType(),
                             IntegerType::get(getContext(), 32), batch, 1)))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// ConvolutionOp
//===----------------------------------------------------------------------===//

TypedValue<MemRefType> ConvolutionOp::getTarget() {
  switch (getKind()) {
  case ConvKind::BackwardInput:
    return getInput();
  case ConvKind::BackwardFilter:
    return getFilter();
  default:
    return getOutput();
  }
}

void ConvolutionOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  Value target = getTarget();
  for (OpOperand &operand : getOperation()->getOpOperands()) {
    if (operand.get() == getWorkspace()) {
      effects.emplace_back(MemoryEffects::Write::get(), &operand);
      continue;
    }
    effects.emplace_back(
        operand.get() == target
            ? static_cast<MemoryEffects::Effect *>(MemoryEffects::Write::get())
            : MemoryEffects::Read::get(),
        &operand);
  }
}

LogicalResult ConvolutionOp::verify() {
  ConvTensorAttr in = getInputLayout(), filter = getFilterLayout(),
                 out = getOutputLayout();
  int64_t n = in.getNumSpatialDims();
  if (filter.getNumSpatialDims() != n || out.getNumSpatialDims() != n)
    return emitOpError("input, filter and output must have the same number "
                       "of spatial dimensions");
  for (auto [name, window] : {std::pair{"window_strides", getWindowStrides()},
                              std::pair{"padding_low", getPaddingLow()},
                              std::pair{"padding_high", getPaddingHigh()},
                              std::pair{"lhs_dilation", getLhsDilation()},
                              std::pair{"rhs_dilation", getRhsDilation()}})
    if (int64_t(window.size()) != n)
      return emitOpError(name)
             << " must have one entry per spatial dimension (" << n << ")";
  for (auto [name, window] : {std::pair{"window_strides", getWindowStrides()},
                              std::pair{"lhs_dilation", getLhsDilation()},
                              std::pair{"rhs_dilation", getRhsDilation()}})
    if (llvm::any_of(window, [](int64_t v) { return v < 1; }))
      return emitOpError(name) << " must be positive";
  auto groups = int64_t(getFeatureGroupCount());
  if (groups < 1)
    return emitOpError("feature_group_count must be positive");
  if (in.getBatchSize() != out.getBatchSize())
    return emitOpError("input and output batch sizes differ (")
           << in.getBatchSize() << " vs " << out.getBatchSize() << ")";
  if (in.getFeatureSize() != filter.getFeatureSize() * groups)
    return emitOpError("input features (")
           << in.getFeatureSize() << ") must be the filter's input features ("
           << filter.getFeatureSize() << ") times feature_group_count ("
           << groups << ")";
  if (filter.getBatchSize() != out.getFeatureSize())
    return emitOpError("output features (")
           << out.getFeatureSize() << ") differ from the filter's ("
           << filter.getBatchSize() << ")";
  if (out.getFeatureSize() % groups)
    return emitOpError("output features (")
           << out.getFeatureSize() << ") are not a multiple of "
           << "feature_group_count (" << groups << ")";
  for (int64_t i = 0; i < n; ++i) {
    int64_t dilatedIn = (in.getSpatialSize(i) - 1) * getLhsDilation()[i] + 1;
    int64_t padded = dilatedIn + getPaddingLow()[i] + getPaddingHigh()[i];
    int64_t window = (filter.getSpatialSize(i) - 1) * getRhsDilation()[i] + 1;
    int64_t expected =
        padded < window ? 0 : (padded - window) / getWindowStrides()[i] + 1;
    if (out.getSpatialSize(i) != expected)
      return emitOpError("output spatial dimension ")
             << i << " has " << out.getSpatialSize(i)
             << " elements; the window gives " << expected;
  }
  // cuDNN's types: one float type throughout, or (forward only) an i8
  // input and filter, an f32 bias and an i8 or f32 output and side input.
  Type element = getInput().getType().getElementType();
  bool integer = element.isSignlessInteger(8);
  if (!integer &&
      !isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(element))
    return emitOpError("element type must be f16, bf16, f32, f64 or i8, not ")
           << element;
  Type outElt = getOutput().getType().getElementType();
  Type f32 = Float32Type::get(getContext());
  if (integer) {
    if (getKind() != ConvKind::Forward &&
        getKind() != ConvKind::ForwardBiasActivation)
      return emitOpError("i8 convolutions are forward ones");
    if (!outElt.isSignlessInteger(8) && outElt != f32)
      return emitOpError("an i8 convolution's output must be i8 or f32, not ")
             << outElt;
  }
  for (auto [name, value, type] :
       {std::tuple{"filter", getFilter(), element},
        std::tuple{"output", getOutput(), integer ? outElt : element},
        std::tuple{"bias", getBias(), integer ? f32 : element},
        std::tuple{"side_input", getSideInput(), integer ? outElt : element}})
    if (value && value.getType().getElementType() != type)
      return emitOpError(name) << " must have element type " << type;
  for (auto [name, value, layout] :
       {std::tuple{"input", getInput(), in},
        std::tuple{"filter", getFilter(), filter},
        std::tuple{"output", getOutput(), out},
        std::tuple{"side_input", getSideInput(), out}})
    if (value && value.getType().getNumElements() < layout.getNumElements())
      return emitOpError(name)
             << " has " << value.getType().getNumElements()
             << " elements; its layout needs " << layout.getNumElements();
  bool fused = getKind() == ConvKind::ForwardBiasActivation;
  if (fused != bool(getBias()))
    return emitOpError(fused ? "forward_bias_activation needs a bias"
                             : "only forward_bias_activation takes a bias");
  if (!fused && getSideInput())
    return emitOpError("only forward_bias_activation takes a side input");
  if (!fused && (getActivation() != ConvActivation::None ||
                 getConvResultScale().convertToDouble() != 1.0 ||
                 getSideInputScale().convertToDouble() != 0.0 ||
                 getLeakyReluAlpha().convertToDouble() != 0.0))
    return emitOpError("activation and scales are for "
                       "forward_bias_activation");
  if (getBias() && getBias().getType().getNumElements() != out.getFeatureSize())
    return emitOpError("bias must have one element per output feature (")
           << out.getFeatureSize() << ")";
  if (int64_t(getAlgorithm()) < -1)
    return emitOpError("algorithm must be -1 (heuristic) or an algorithm id");
  return success();
}

//===----------------------------------------------------------------------===//
// PadToStaticOp and SliceToDynamicOp
//===----------------------------------------------------------------------===//

/// Checks a bounded dynamic array's slice (`dynamic`: raw bytes, the
/// elements then one i32 size per dimension) against the array at its
/// bounds (`bounded`) and its `sizes` slices.
static LogicalResult verifyDynamicArray(Operation *op, MemRefType dynamic,
                                        MemRefType bounded, ValueRange sizes) {
  if (isPackedElementType(bounded.getElementType()))
    return op->emitOpError("does not take packed ")
           << bounded.getElementType() << " elements yet";
  int64_t want = getStorageBytes(bounded) + 4 * bounded.getRank();
  if (dynamic.getRank() != 1 || !dynamic.getElementType().isInteger(8) ||
      dynamic.getNumElements() != want)
    return op->emitOpError("the dynamic array takes the bytes of its bounds "
                           "and one i32 size per dimension: memref<")
           << want << "xi8>, not " << dynamic;
  if (int64_t(sizes.size()) != bounded.getRank())
    return op->emitOpError("takes one size per dimension (")
           << bounded.getRank() << "), not " << sizes.size();
  for (Value s : sizes) {
    auto t = cast<MemRefType>(s.getType());
    if (t.getNumElements() != 1 || !t.getElementType().isInteger(32))
      return op->emitOpError("a size is one i32, not ") << t;
  }
  return success();
}

LogicalResult PadToStaticOp::verify() {
  return verifyDynamicArray(*this, getInput().getType(), getOutput().getType(),
                            getSizes());
}

LogicalResult SliceToDynamicOp::verify() {
  return verifyDynamicArray(*this, getOutput().getType(), getInput().getType(),
                            getSizes());
}
