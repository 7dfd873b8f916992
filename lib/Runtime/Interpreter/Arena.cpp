//===- Arena.cpp - run a module over its buffer assignment ----------------===//
//
// `runOnArena` keeps every value of the ENTRY computation (and of the
// computations it runs through while, conditional and call) in the bytes
// its `hlo.buffer_slices` give it, in one flat byte buffer holding every
// allocation of `hlo.buffer_allocations` at an aligned base. Each
// instruction decodes its operands from those bytes, runs on the
// interpreter (Interp::evalOp) and encodes its result's arrays into its own
// slices before the next instruction reads anything; tuple pointer tables
// hold nothing. Forwarding instructions (get-tuple-element, tuple, bitcast,
// opt-barrier, add-dependency, domain) whose array slices equal their
// operand's are only read through.
//
// Arrays are stored as XLA stores them: elements at their memory positions
// under the layout (minor_to_major, tiles), little-endian, each in the
// type's width (complex: real then imaginary part); element types narrower
// than a byte are packed, first element in the low bits, when the slice's
// byte size says so (hlo::getShapeByteSize), else one byte each.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Runtime/Arena.h"
#include "Hlo/Runtime/SemanticsCheck.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>
#include <limits>
#include <memory>
#include <optional>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::runtime::eval;

static constexpr StringLiteral kSlices = "hlo.buffer_slices";
static constexpr StringLiteral kAllocations = "hlo.buffer_allocations";

/// `(line N) ` for an instruction of a module read from a file.
static std::string lineOf(Operation *op) {
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    return "(line " + std::to_string(loc.getLine()) + ") ";
  return "";
}

/// `describe(op)`, with its line.
static std::string describeAt(Operation *op) {
  std::string s = describe(op);
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    s += " (line " + std::to_string(loc.getLine()) + ")";
  return s;
}

namespace {

/// One node of a value's shape tree (pre-order) and its slice.
struct Node {
  Type type;
  BufferSliceAttr slice;
};
using Nodes = SmallVector<Node, 1>;

/// How the elements of one array type lie in memory.
struct ArrayCodec {
  /// Memory position of each element (row-major logical order); empty when
  /// it is the identity.
  std::vector<int64_t> positions;
  /// Bits per element in memory and the bytes of the whole array (with
  /// the dynamic shape metadata of a bounded dynamic array).
  unsigned bits = 0;
  int64_t bytes = 0;
  /// A bounded dynamic array: its elements at the bounds take the bytes
  /// before `metadataAt`, its sizes one s32 each from there.
  std::optional<int64_t> metadataAt;
};

class ArenaRunner {
public:
  /// The runner of device (`replica`, `partition`): its own arena, the
  /// module's state and collective rendezvous in `shared`.
  ArenaRunner(SharedState &shared, int64_t replica, int64_t partition,
              const ArenaOptions &arenaOptions, ArenaStats &stats)
      : module(shared.module), shared(shared),
        interp(shared, replica, partition), arenaOptions(arenaOptions),
        stats(stats) {}

  FailureOr<Literal> run(ComputationOp entry, ArrayRef<Literal> arguments);
  std::string &errorMessage() { return interp.errorMessage; }

private:
  LogicalResult fail(Operation *op, const Twine &message) {
    return interp.fail(op, message);
  }
  LogicalResult setUp(ComputationOp entry);
  LogicalResult collect(ComputationOp comp);
  /// Records `value`'s nodes and slices; `what` prefixes the messages.
  LogicalResult recordNodes(Operation *where, const std::string &what,
                            Value value, ArrayAttr slices);
  FailureOr<const ArrayCodec *> codec(Operation *where, Type type);
  uint8_t *addressOf(BufferSliceAttr slice) {
    return arena.data() + bases[slice.getAllocation()] + slice.getOffset();
  }

  /// Writes array `value` into `node`'s slice; `sizes`, when given, are a
  /// bounded dynamic array's runtime sizes for its metadata (else its
  /// bounds).
  LogicalResult encodeArray(Operation *where, const Literal &value,
                            const Node &node, ArrayRef<int64_t> sizes = {});
  FailureOr<Literal> decodeArray(Operation *where, const Node &node);
  LogicalResult write(Operation *where, const Literal &value,
                      ArrayRef<Node> nodes, size_t &at,
                      ArrayRef<int64_t> sizes = {});
  FailureOr<Literal> read(Operation *where, ArrayRef<Node> nodes, size_t &at);
  LogicalResult write(Operation *where, const Literal &value, Value to);
  /// Cuts the arrays of `value` (read from the nodes `list` from `at`) to
  /// the sizes their dynamic shape metadata holds, as XLA returns a
  /// dynamic result.
  LogicalResult toMetadataSizes(Operation *where, ArrayRef<Node> list,
                                size_t &at, Literal &value);
  FailureOr<Literal> read(Operation *where, Value value);
  /// Moves the value in `from`'s slices into `to`'s (a no-op when they are
  /// the same).
  LogicalResult move(Operation *where, Value from, Value to);
  bool sameArraySlices(ArrayRef<Node> a, ArrayRef<Node> b) const;
  bool readsThrough(Operation *op);
  /// With ArenaOptions::checkReads: the value `value` should hold.
  void setShadow(Value value, const Literal &literal) {
    if (arenaOptions.checkReads)
      shadow[value] = literal;
  }
  void copyShadow(Value from, Value to) {
    if (!arenaOptions.checkReads)
      return;
    auto it = shadow.find(from);
    if (it != shadow.end()) {
      Literal copy = it->second;
      shadow[to] = std::move(copy);
    }
  }
  std::string describeValue(Value value);

  LogicalResult runComputation(ComputationOp comp);
  LogicalResult runWhile(WhileOp op);
  LogicalResult runBranch(Operation *op, StringRef callee,
                          ArrayRef<Value> operands);
  LogicalResult runConditional(ConditionalOp op);
  LogicalResult runInstruction(Operation *op);

  ModuleOp module;
  SharedState &shared;
  Interp interp;
  const ArenaOptions &arenaOptions;
  ArenaStats &stats;

  std::vector<uint8_t> arena;
  SmallVector<int64_t> bases;
  SmallVector<BufferAllocationAttr> allocations;
  llvm::DenseMap<Value, Nodes> nodes;
  llvm::DenseMap<Type, std::unique_ptr<ArrayCodec>> codecs;
  /// The value each SSA value should hold (ArenaOptions::checkReads).
  llvm::DenseMap<Value, Literal> shadow;
  llvm::SmallPtrSet<Operation *, 16> visited;
  SmallVector<ConstantOp> constants;
  unsigned depth = 0;
};

} // namespace

//===----------------------------------------------------------------------===//
// Slices and codecs.
//===----------------------------------------------------------------------===//

LogicalResult ArenaRunner::recordNodes(Operation *where,
                                       const std::string &what, Value value,
                                       ArrayAttr slices) {
  if (!slices)
    return fail(where, what + "has no buffer slices (hlo.buffer_slices); run "
                              "hlo-opt --hlo-buffer-assignment first");
  Nodes list;
  forEachSubshape(value.getType(), [&](Type t, ArrayRef<int64_t>) {
    list.push_back({t, {}});
  });
  if (list.size() != slices.size())
    return fail(where, what + "has " + Twine(slices.size()) +
                           " buffer slices for a shape of " +
                           Twine(list.size()) + " nodes");
  for (auto [node, attr] : llvm::zip(list, slices)) {
    auto slice = dyn_cast<BufferSliceAttr>(attr);
    if (!slice)
      return fail(where,
                  what + "hlo.buffer_slices holds a non-slice attribute");
    int64_t a = slice.getAllocation();
    if (a < 0 || a >= int64_t(allocations.size()))
      return fail(where, what + "its buffer slice names allocation " +
                             Twine(a) + ", which the module does not have");
    if (slice.getOffset() < 0 || slice.getSize() < 0 ||
        slice.getOffset() + slice.getSize() > allocations[a].getSize())
      return fail(where, what + "its buffer slice [" +
                             Twine(slice.getOffset()) + ", " +
                             Twine(slice.getOffset() + slice.getSize()) +
                             ") lies outside allocation " + Twine(a) + " of " +
                             Twine(allocations[a].getSize()) + " bytes");
    node.slice = slice;
    if (isa<RankedTensorType>(node.type)) {
      auto c = codec(where, node.type);
      if (failed(c))
        return failure();
      if ((*c)->bytes > slice.getSize())
        return fail(where, what + "its buffer slice of " +
                               Twine(slice.getSize()) + " bytes cannot hold " +
                               typeToString(node.type) + " (" +
                               Twine((*c)->bytes) + " bytes)");
    }
  }
  nodes[value] = std::move(list);
  return success();
}

FailureOr<const ArrayCodec *> ArenaRunner::codec(Operation *where, Type type) {
  auto &slot = codecs[type];
  if (slot)
    return slot.get();
  auto tensor = cast<RankedTensorType>(type);
  // A bounded dynamic array is held at its bounds, then its sizes (XLA's
  // dynamic shape metadata); the interpreter keeps the runtime sizes apart.
  std::optional<SmallVector<int64_t>> bounded = getStaticShape(type);
  if (!bounded)
    return FailureOr<const ArrayCodec *>(
        fail(where, "the arena cannot hold " + typeToString(type) +
                        ": a dynamic dimension has no bound"));
  std::optional<unsigned> width =
      hlo::getElementBitWidth(tensor.getElementType());
  std::optional<int64_t> bytes = getShapeByteSize(type);
  if (!width || !bytes)
    return FailureOr<const ArrayCodec *>(
        fail(where, "the arena cannot hold " + typeToString(type) +
                        ": its element type has no size"));
  auto c = std::make_unique<ArrayCodec>();
  ArrayRef<int64_t> shape = *bounded;
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  // Narrower than a byte: packed when the assignment sized it so.
  c->bits = *width < 8 ? (*bytes >= n ? 8 : *width) : llvm::alignTo(*width, 8);
  c->bytes = llvm::divideCeil(n * int64_t(c->bits), 8);
  if (!tensor.hasStaticShape()) {
    c->metadataAt = c->bytes;
    c->bytes += 4 * int64_t(shape.size());
  }
  SmallVector<int64_t> minorToMajor = getMinorToMajor(type);
  SmallVector<ArrayRef<int64_t>> tiles = tilesOf(type);
  if (c->metadataAt && !tiles.empty())
    return FailureOr<const ArrayCodec *>(
        fail(where, "the arena cannot hold " + typeToString(type) +
                        ": a dynamic array with tiles"));
  bool identity =
      tiles.empty() &&
      llvm::equal(minorToMajor, llvm::reverse(llvm::seq<int64_t>(
                                    0, static_cast<int64_t>(shape.size()))));
  if (!identity && n > 0) {
    if (!tiles.empty()) {
      TiledLayout layout(shape, minorToMajor, tiles);
      if (!layout.isSupported() || layout.size != n)
        return FailureOr<const ArrayCodec *>(
            fail(where, "the arena cannot hold " + typeToString(type) +
                            ": its tiles pad it or have a combined dimension"));
      c->positions.resize(n);
      SmallVector<int64_t> index(shape.size(), 0);
      int64_t i = 0;
      do {
        c->positions[i++] = layout.offset(index, shape);
      } while (nextIndex(index, shape));
    } else {
      SmallVector<int64_t> stride(shape.size(), 0);
      int64_t next = 1;
      for (int64_t d : minorToMajor) {
        stride[d] = next;
        next *= shape[d];
      }
      c->positions.resize(n);
      SmallVector<int64_t> index(shape.size(), 0);
      int64_t i = 0;
      do {
        int64_t at = 0;
        for (size_t d = 0; d < shape.size(); ++d)
          at += index[d] * stride[d];
        c->positions[i++] = at;
      } while (nextIndex(index, shape));
    }
  }
  slot = std::move(c);
  return slot.get();
}

LogicalResult ArenaRunner::encodeArray(Operation *where, const Literal &value,
                                       const Node &node,
                                       ArrayRef<int64_t> sizes) {
  auto c = codec(where, node.type);
  if (failed(c))
    return failure();
  const ArrayCodec &codec = **c;
  uint8_t *base = addressOf(node.slice);
  if (codec.metadataAt) {
    // The sizes, each an s32 after the elements (the bounds when the
    // interpreter recorded none).
    std::optional<SmallVector<int64_t>> bounds = getStaticShape(node.type);
    for (auto [d, bound] : llvm::enumerate(*bounds)) {
      int32_t size = int32_t(d < sizes.size() ? sizes[d] : bound);
      std::memcpy(base + *codec.metadataAt + 4 * d, &size, 4);
    }
  }
  int64_t n = value.getNumElements();
  unsigned bits = codec.bits;
  auto pos = [&](int64_t i) {
    return codec.positions.empty() ? i : codec.positions[i];
  };
  Type elementType = value.getElementType();
  if (bits < 8) {
    // Packed: clear the bytes, then or each element in.
    std::memset(base, 0, codec.bytes);
    for (int64_t i = 0; i < n; ++i) {
      uint64_t v = value.getBits(i).getZExtValue() & ((1u << bits) - 1);
      int64_t bit = pos(i) * bits;
      base[bit / 8] |= static_cast<uint8_t>(v << (bit % 8));
    }
    return success();
  }
  unsigned bytes = bits / 8;
  if (elementType.isF32()) {
    for (int64_t i = 0; i < n; ++i) {
      float f = static_cast<float>(value.getFloat(i));
      std::memcpy(base + pos(i) * 4, &f, 4);
    }
    return success();
  }
  if (elementType.isF64()) {
    for (int64_t i = 0; i < n; ++i) {
      double d = value.getFloat(i);
      std::memcpy(base + pos(i) * 8, &d, 8);
    }
    return success();
  }
  for (int64_t i = 0; i < n; ++i) {
    APInt v = value.getBits(i).zextOrTrunc(bits);
    uint8_t *at = base + pos(i) * bytes;
    for (unsigned b = 0; b < bytes; ++b)
      at[b] = static_cast<uint8_t>(v.extractBitsAsZExtValue(8, 8 * b));
  }
  return success();
}

FailureOr<Literal> ArenaRunner::decodeArray(Operation *where,
                                            const Node &node) {
  auto c = codec(where, node.type);
  if (failed(c))
    return failure();
  const ArrayCodec &codec = **c;
  auto tensor = cast<RankedTensorType>(node.type);
  Literal value =
      Literal::array(tensor.getElementType(), *getStaticShape(node.type));
  const uint8_t *base = addressOf(node.slice);
  int64_t n = value.getNumElements();
  unsigned bits = codec.bits;
  unsigned width = *hlo::getElementBitWidth(tensor.getElementType());
  auto pos = [&](int64_t i) {
    return codec.positions.empty() ? i : codec.positions[i];
  };
  Type elementType = tensor.getElementType();
  if (bits < 8) {
    for (int64_t i = 0; i < n; ++i) {
      int64_t bit = pos(i) * bits;
      uint64_t v = (base[bit / 8] >> (bit % 8)) & ((1u << bits) - 1);
      value.setBits(i, APInt(width, v));
    }
    return value;
  }
  unsigned bytes = bits / 8;
  if (elementType.isF32()) {
    for (int64_t i = 0; i < n; ++i) {
      float f;
      std::memcpy(&f, base + pos(i) * 4, 4);
      value.setFloat(i, f);
    }
    return value;
  }
  if (elementType.isF64()) {
    for (int64_t i = 0; i < n; ++i) {
      double d;
      std::memcpy(&d, base + pos(i) * 8, 8);
      value.setFloat(i, d);
    }
    return value;
  }
  for (int64_t i = 0; i < n; ++i) {
    APInt v(bits, 0);
    const uint8_t *at = base + pos(i) * bytes;
    for (unsigned b = 0; b < bytes; ++b)
      v.insertBits(uint64_t(at[b]), 8 * b, 8);
    value.setBits(i, v.zextOrTrunc(width));
  }
  return value;
}

LogicalResult ArenaRunner::write(Operation *where, const Literal &value,
                                 ArrayRef<Node> list, size_t &at,
                                 ArrayRef<int64_t> sizes) {
  const Node &node = list[at++];
  if (auto tuple = dyn_cast<TupleType>(node.type)) {
    if (!value.isTuple() || value.getElements().size() != tuple.size())
      return fail(where, "internal error: a value does not match its type");
    for (const Literal &element : value.getElements())
      if (failed(write(where, element, list, at)))
        return failure();
    return success();
  }
  if (!isa<RankedTensorType>(node.type))
    return success(); // tokens and opaque values take no bytes
  if (!value.isArray())
    return fail(where, "internal error: a value does not match its type");
  return encodeArray(where, value, node, sizes);
}

FailureOr<Literal> ArenaRunner::read(Operation *where, ArrayRef<Node> list,
                                     size_t &at) {
  const Node &node = list[at++];
  if (auto tuple = dyn_cast<TupleType>(node.type)) {
    std::vector<Literal> elements;
    for (size_t i = 0; i < tuple.size(); ++i) {
      FailureOr<Literal> e = read(where, list, at);
      if (failed(e))
        return failure();
      elements.push_back(std::move(*e));
    }
    return Literal::tuple(std::move(elements));
  }
  if (isa<TokenType>(node.type))
    return Literal::token();
  if (!isa<RankedTensorType>(node.type))
    return Literal::opaque();
  return decodeArray(where, node);
}

LogicalResult ArenaRunner::write(Operation *where, const Literal &value,
                                 Value to) {
  auto it = nodes.find(to);
  if (it == nodes.end())
    return fail(where, "internal error: a value has no slices");
  size_t at = 0;
  auto sizes = interp.runtimeSizes.find(to);
  return write(where, value, it->second, at,
               sizes == interp.runtimeSizes.end() ? ArrayRef<int64_t>()
                                                  : ArrayRef(sizes->second));
}

FailureOr<Literal> ArenaRunner::read(Operation *where, Value value) {
  auto it = nodes.find(value);
  if (it == nodes.end())
    return FailureOr<Literal>(
        fail(where, "internal error: an operand has no slices"));
  size_t at = 0;
  FailureOr<Literal> literal = read(where, it->second, at);
  if (failed(literal) || !arenaOptions.checkReads)
    return literal;
  auto expected = shadow.find(value);
  if (expected == shadow.end())
    return literal;
  LiteralComparison comparison =
      compareLiterals(*literal, expected->second, 0, 0);
  if (comparison.matches())
    return literal;
  return FailureOr<Literal>(
      fail(where, lineOf(where) + "reads " + describeValue(value) +
                      ", whose bytes were overwritten since it was written "
                      "(another value live at the same time shares them): " +
                      comparison.summary()));
}

std::string ArenaRunner::describeValue(Value value) {
  if (Operation *def = value.getDefiningOp())
    return "the value of " + describeAt(def);
  auto arg = cast<BlockArgument>(value);
  auto comp = cast<ComputationOp>(arg.getOwner()->getParentOp());
  return "parameter " + std::to_string(arg.getArgNumber()) + " of " +
         describe(comp);
}

bool ArenaRunner::sameArraySlices(ArrayRef<Node> a, ArrayRef<Node> b) const {
  if (a.size() != b.size())
    return false;
  for (auto [x, y] : llvm::zip(a, b)) {
    if (!isa<RankedTensorType>(x.type))
      continue;
    if (x.slice.getAllocation() != y.slice.getAllocation() ||
        x.slice.getOffset() != y.slice.getOffset())
      return false;
  }
  return true;
}

LogicalResult ArenaRunner::move(Operation *where, Value from, Value to) {
  copyShadow(from, to);
  if (sameArraySlices(nodes[from], nodes[to]))
    return success();
  ++stats.boundaryCopies;
  // The whole value is read before anything is written (a swap of tuple
  // elements stays a swap).
  FailureOr<Literal> value = read(where, from);
  if (failed(value))
    return failure();
  return write(where, *value, to);
}

/// Forwarding instructions whose array slices are their operand's: the
/// readers read through them.
bool ArenaRunner::readsThrough(Operation *op) {
  ArrayRef<Node> result = nodes[op->getResult(0)];
  if (isa<BitcastOp, OptimizationBarrierOp, AddDependencyOp, DomainOp>(op))
    return sameArraySlices(result, nodes[op->getOperand(0)]);
  if (auto gte = dyn_cast<GetTupleElementOp>(op)) {
    auto tuple = dyn_cast<TupleType>(gte.getOperand().getType());
    int64_t index = gte.getIndex();
    if (!tuple || index < 0 || index >= int64_t(tuple.size()))
      return false;
    ArrayRef<Node> operand = nodes[gte.getOperand()];
    size_t start = 1;
    for (int64_t i = 0; i < index; ++i)
      start += getNumSubshapes(tuple.getType(i));
    if (start + result.size() > operand.size())
      return false;
    return sameArraySlices(result, operand.slice(start, result.size()));
  }
  if (isa<TupleOp>(op)) {
    Nodes forwarded;
    forwarded.push_back(result.front());
    for (Value v : getDataOperands(op))
      llvm::append_range(forwarded, nodes[v]);
    return sameArraySlices(result, forwarded);
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Set-up.
//===----------------------------------------------------------------------===//

/// Records the slices of `comp`'s parameters and instructions, and of the
/// computations it runs through while, conditional and call.
LogicalResult ArenaRunner::collect(ComputationOp comp) {
  if (!visited.insert(comp).second)
    return success();
  Block &body = comp.getBody().front();
  for (BlockArgument arg : body.getArguments())
    if (failed(recordNodes(
            comp, "parameter " + std::to_string(arg.getArgNumber()) + " ", arg,
            comp.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(), kSlices))))
      return failure();
  for (Operation &op : body.without_terminator()) {
    if (op.getNumResults() != 1)
      return fail(&op, "has " + Twine(op.getNumResults()) +
                           " results; instructions have one");
    if (failed(recordNodes(&op, "", op.getResult(0),
                           op.getAttrOfType<ArrayAttr>(kSlices))))
      return failure();
    if (auto constant = dyn_cast<ConstantOp>(op))
      constants.push_back(constant);
    SmallVector<StringRef> callees;
    if (auto w = dyn_cast<WhileOp>(op)) {
      callees = {w.getCondition(), w.getBody()};
    } else if (auto c = dyn_cast<CallOp>(op)) {
      callees = {c.getToApply()};
    } else if (auto c = dyn_cast<ConditionalOp>(op)) {
      if (auto list = c.getBranchComputations())
        for (Attribute a : *list)
          callees.push_back(cast<FlatSymbolRefAttr>(a).getValue());
      if (c.getTrueComputation())
        callees.push_back(*c.getTrueComputation());
      if (c.getFalseComputation())
        callees.push_back(*c.getFalseComputation());
    }
    for (StringRef callee : callees) {
      auto callee_ = interp.lookup(&op, callee);
      if (failed(callee_) || failed(collect(*callee_)))
        return failure();
    }
  }
  return success();
}

LogicalResult ArenaRunner::setUp(ComputationOp entry) {
  auto list = module->getAttrOfType<ArrayAttr>(kAllocations);
  if (!list)
    return fail(entry, "the module has no buffer assignment "
                       "(hlo.buffer_allocations); run hlo-opt "
                       "--hlo-buffer-assignment first");
  int64_t total = 0, align = std::max<int64_t>(1, arenaOptions.alignment);
  for (auto [i, a] : llvm::enumerate(list)) {
    auto allocation = dyn_cast<BufferAllocationAttr>(a);
    if (!allocation || allocation.getIndex() != int64_t(i) ||
        allocation.getSize() < 0)
      return fail(entry, "hlo.buffer_allocations entry " + Twine(i) +
                             " is not an allocation of index " + Twine(i));
    allocations.push_back(allocation);
    bases.push_back(total);
    if (llvm::AddOverflow(
            total, int64_t(llvm::alignTo(allocation.getSize(), align)), total))
      return fail(entry, "the allocations overflow 64 bits");
  }
  int64_t limit = shared.liveBytesLimit;
  if (limit > 0 && total > limit)
    return fail(entry, "the arena takes " + Twine(total) +
                           " bytes: it exceeds " + Twine(limit) +
                           " bytes (InterpreterOptions::maxLiveBytes)");
  stats.arenaBytes = total;
  stats.numAllocations = allocations.size();
  if (failed(collect(entry)))
    return failure();
  // Garbage where nothing has been written yet.
  arena.resize(total);
  uint64_t state = arenaOptions.fillSeed;
  for (int64_t i = 0; i < total; i += 8) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    std::memcpy(arena.data() + i, &z, std::min<int64_t>(8, total - i));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Execution.
//===----------------------------------------------------------------------===//

/// Constants in a constant allocation were written at the start; the rest
/// are written when they run.
static bool isInConstantAllocation(ArrayRef<Node> list,
                                   ArrayRef<BufferAllocationAttr> allocations) {
  return llvm::all_of(list, [&](const Node &n) {
    return allocations[n.slice.getAllocation()].getKind() ==
           BufferAllocationKind::Constant;
  });
}

LogicalResult ArenaRunner::runInstruction(Operation *op) {
  if (auto w = dyn_cast<WhileOp>(op))
    return runWhile(w);
  if (auto c = dyn_cast<ConditionalOp>(op))
    return runConditional(c);
  if (auto c = dyn_cast<CallOp>(op)) {
    SmallVector<Value> operands(getDataOperands(op));
    return runBranch(op, c.getToApply(), operands);
  }
  if (isa<ConstantOp>(op) &&
      isInConstantAllocation(nodes[op->getResult(0)], allocations))
    return success();
  // Runtime sizes of dynamic dimensions, as the interpreter tracks them:
  // checked before the op, carried to its result after it.
  if (!interp.runtimeSizes.empty()) {
    interp.runtimeSizes.erase(op->getResult(0));
    if (failed(checkRuntimeSizes(interp, op)))
      return failure();
  }
  auto propagateSizes = [&] {
    if (!interp.runtimeSizes.empty())
      propagateRuntimeSizes(interp, op);
  };
  if (readsThrough(op)) {
    propagateSizes();
    if (!arenaOptions.checkReads)
      return success();
    SmallVector<const Literal *, 4> expected;
    for (Value v : getDataOperands(op)) {
      auto it = shadow.find(v);
      if (it == shadow.end())
        return success();
      expected.push_back(&it->second);
    }
    FailureOr<Literal> value = interp.evalOp(op, expected);
    if (failed(value))
      return failure();
    setShadow(op->getResult(0), *value);
    return success();
  }
  std::vector<Literal> values;
  for (Value v : getDataOperands(op)) {
    FailureOr<Literal> value = read(op, v);
    if (failed(value))
      return failure();
    values.push_back(std::move(*value));
  }
  SmallVector<const Literal *, 4> operands;
  for (const Literal &l : values)
    operands.push_back(&l);
  FailureOr<Literal> result = interp.evalOp(op, operands);
  if (failed(result))
    return failure();
  propagateSizes();
  Type type = op->getResult(0).getType();
  if (!result->hasType(type))
    return fail(op, "internal error: computed a value of another type than " +
                        typeToString(type));
  ++stats.evaluated;
  setShadow(op->getResult(0), *result);
  return write(op, *result, op->getResult(0));
}

LogicalResult ArenaRunner::runComputation(ComputationOp comp) {
  if (depth >= 200)
    return fail(comp, "call depth exceeds 200 (recursive computations?)");
  ++depth;
  llvm::scope_exit restore([&] { --depth; });
  for (Operation &op : comp.getBody().front().without_terminator())
    if (failed(runInstruction(&op)))
      return failure();
  return success();
}

static Value rootOf(ComputationOp comp) {
  return comp.getBody().front().getTerminator()->getOperand(0);
}

LogicalResult ArenaRunner::runWhile(WhileOp op) {
  auto cond = interp.lookup(op, op.getCondition());
  auto body = interp.lookup(op, op.getBody());
  if (failed(cond) || failed(body))
    return failure();
  Value state = body->getBody().front().getArgument(0);
  Value condParam = cond->getBody().front().getArgument(0);
  if (failed(move(op, op.getOperand(), state)))
    return failure();
  int64_t limit = shared.options.maxWhileIterations;
  while (true) {
    if (failed(move(op, state, condParam)) || failed(runComputation(*cond)))
      return failure();
    FailureOr<Literal> pred = read(op, rootOf(*cond));
    if (failed(pred))
      return failure();
    if (!pred->isArray() || pred->getNumElements() != 1)
      return fail(op, "condition must return a pred scalar");
    if (pred->isZero(0))
      break;
    if (limit > 0 && ++shared.whileIterations > limit)
      return fail(op, "more than " + Twine(limit) + " while-loop iterations");
    if (failed(runComputation(*body)) || failed(move(op, rootOf(*body), state)))
      return failure();
  }
  return move(op, state, op.getResult());
}

/// Equal shapes, element types and memory orders (a missing layout is the
/// default one), tuples element-wise.
static bool sameMemoryType(Type a, Type b) {
  if (a == b)
    return true;
  if (auto ta = dyn_cast<TupleType>(a)) {
    auto tb = dyn_cast<TupleType>(b);
    if (!tb || ta.size() != tb.size())
      return false;
    for (auto [x, y] : llvm::zip(ta.getTypes(), tb.getTypes()))
      if (!sameMemoryType(x, y))
        return false;
    return true;
  }
  auto ra = dyn_cast<RankedTensorType>(a), rb = dyn_cast<RankedTensorType>(b);
  return ra && rb && ra.getShape() == rb.getShape() &&
         ra.getElementType() == rb.getElementType() &&
         getMinorToMajor(a) == getMinorToMajor(b) && tilesOf(a) == tilesOf(b);
}

/// A type for messages, with the layout of each array (`f32[2,3]{0,1}`).
static std::string memoryTypeString(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    std::string s = "(";
    for (auto [i, t] : llvm::enumerate(tuple.getTypes()))
      s += (i ? ", " : "") + memoryTypeString(t);
    return s + ")";
  }
  std::string s = typeToString(type);
  if (!isa<RankedTensorType>(type))
    return s;
  s += "{";
  for (auto [i, d] : llvm::enumerate(getMinorToMajor(type)))
    s += (i ? "," : "") + std::to_string(d);
  return s + "}";
}

LogicalResult ArenaRunner::runBranch(Operation *op, StringRef callee,
                                     ArrayRef<Value> operands) {
  auto comp = interp.lookup(op, callee);
  if (failed(comp))
    return failure();
  Block &block = comp->getBody().front();
  if (block.getNumArguments() != operands.size())
    return fail(op, "passes " + Twine(operands.size()) + " arguments to '" +
                        callee + "', which takes " +
                        Twine(block.getNumArguments()));
  for (auto [operand, param] : llvm::zip(operands, block.getArguments())) {
    if (!sameMemoryType(operand.getType(), param.getType()))
      return fail(op, "passes a " + memoryTypeString(operand.getType()) +
                          " to a parameter of '" + callee + "' of type " +
                          memoryTypeString(param.getType()) +
                          " (the arena keeps arrays in their layout's order: "
                          "both sides must have the same layout)");
    if (failed(move(op, operand, param)))
      return failure();
  }
  if (failed(runComputation(*comp)))
    return failure();
  return move(op, rootOf(*comp), op->getResult(0));
}

LogicalResult ArenaRunner::runConditional(ConditionalOp op) {
  SmallVector<Value> operands(getDataOperands(op));
  SmallVector<StringRef> branches;
  if (auto list = op.getBranchComputations()) {
    for (Attribute a : *list)
      branches.push_back(cast<FlatSymbolRefAttr>(a).getValue());
  } else if (op.getTrueComputation() && op.getFalseComputation()) {
    branches = {*op.getTrueComputation(), *op.getFalseComputation()};
  }
  if (branches.empty() || branches.size() + 1 != operands.size())
    return fail(op, "needs one operand per branch computation");
  FailureOr<Literal> index = read(op, operands[0]);
  if (failed(index))
    return failure();
  if (!index->isArray() || index->getNumElements() != 1)
    return fail(op, "the branch index must be a scalar");
  int64_t branch;
  if (index->getElementKind() == runtime::ElementKind::Pred)
    branch = index->isZero(0) ? 1 : 0;
  else
    branch = index->getInt(0);
  if (branch < 0 || branch >= static_cast<int64_t>(branches.size()))
    branch = branches.size() - 1;
  return runBranch(op, branches[branch], operands[branch + 1]);
}

FailureOr<Literal> ArenaRunner::run(ComputationOp entry,
                                    ArrayRef<Literal> arguments) {
  if (failed(setUp(entry)))
    return failure();
  Block &body = entry.getBody().front();
  for (auto [arg, value] : llvm::zip(body.getArguments(), arguments)) {
    if (failed(write(entry, value, arg)))
      return failure();
    setShadow(arg, value);
  }
  for (ConstantOp constant : constants) {
    ArrayRef<Node> list = nodes[constant.getResult()];
    if (!isInConstantAllocation(list, allocations))
      continue;
    FailureOr<Literal> value = interp.evalOp(constant, {});
    if (failed(value) || failed(write(constant, *value, constant.getResult())))
      return failure();
    setShadow(constant.getResult(), *value);
  }
  if (failed(runComputation(entry)))
    return failure();
  FailureOr<Literal> result = read(entry, rootOf(entry));
  size_t at = 0;
  if (failed(result) ||
      failed(toMetadataSizes(entry, nodes[rootOf(entry)], at, *result)))
    return failure();
  return result;
}

LogicalResult ArenaRunner::toMetadataSizes(Operation *where,
                                           ArrayRef<Node> list, size_t &at,
                                           Literal &value) {
  const Node &node = list[at++];
  if (isa<TupleType>(node.type)) {
    for (Literal &element : value.getElements())
      if (failed(toMetadataSizes(where, list, at, element)))
        return failure();
    return success();
  }
  if (!isa<RankedTensorType>(node.type))
    return success();
  auto c = codec(where, node.type);
  if (failed(c))
    return failure();
  if (!(*c)->metadataAt)
    return success();
  SmallVector<int64_t> bounds = *getStaticShape(node.type);
  SmallVector<int64_t> sizes;
  for (auto [d, bound] : llvm::enumerate(bounds)) {
    int32_t size;
    std::memcpy(&size, addressOf(node.slice) + *(*c)->metadataAt + 4 * d, 4);
    if (size < 0 || size > bound)
      return fail(where, "the dynamic shape metadata of the result holds "
                         "size " +
                             Twine(size) + " for dimension " + Twine(d) +
                             ", whose bound is " + Twine(bound));
    sizes.push_back(size);
  }
  if (sizes != bounds)
    value = sliceToRuntimeShape(value, sizes);
  return success();
}

//===----------------------------------------------------------------------===//
// Entry point.
//===----------------------------------------------------------------------===//

FailureOr<Literal> runtime::runOnArena(ModuleOp module,
                                       ArrayRef<Literal> arguments,
                                       const InterpreterOptions &options,
                                       std::string &error, ArenaStats *stats,
                                       const ArenaOptions &arenaOptions) {
  ComputationOp entry;
  for (auto comp : module.getOps<ComputationOp>())
    if (comp.getEntry())
      entry = comp;
  if (!entry) {
    error = "the module has no entry computation";
    return failure();
  }
  if (options.numReplicas < 1 || options.numPartitions < 1) {
    error = "the replica and partition counts must be at least 1";
    return failure();
  }
  ArrayRef<Type> params = entry.getArgumentTypes();
  if (params.size() != arguments.size()) {
    error = "the entry computation '" + entry.getSymName().str() + "' takes " +
            std::to_string(params.size()) + " arguments, got " +
            std::to_string(arguments.size());
    return failure();
  }
  for (auto [i, t] : llvm::enumerate(params))
    if (!arguments[i].hasType(t)) {
      error = "argument " + std::to_string(i) + " is not a value of " +
              typeToString(t);
      return failure();
    }
  SharedState shared(module, options);
  ArenaStats local;
  if (shared.numDevices == 1) {
    ArenaRunner runner(shared, 0, 0, arenaOptions, stats ? *stats : local);
    FailureOr<Literal> result = runner.run(entry, arguments);
    if (failed(result))
      error = runner.errorMessage();
    return result;
  }

  // Several devices: one arena each (the same assignment), in threads that
  // meet in the rendezvous of each collective. Device 0's result and
  // statistics are returned, as the interpreter returns device 0's result.
  std::vector<ArenaStats> deviceStats(shared.numDevices);
  std::vector<std::unique_ptr<ArenaRunner>> runners;
  for (int64_t r = 0; r < options.numReplicas; ++r)
    for (int64_t p = 0; p < options.numPartitions; ++p)
      runners.push_back(std::make_unique<ArenaRunner>(
          shared, r, p, arenaOptions, deviceStats[runners.size()]));
  std::vector<FailureOr<Literal>> results(shared.numDevices, failure());
  LogicalResult status = runDevicesInThreads(
      shared,
      [&](int64_t d) {
        results[d] = runners[d]->run(entry, arguments);
        return LogicalResult(results[d]);
      },
      [&](int64_t d) { return StringRef(runners[d]->errorMessage()); },
      error);
  if (stats)
    *stats = deviceStats[0];
  if (failed(status))
    return failure();
  return std::move(results[0]);
}
