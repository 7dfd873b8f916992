//===- HostCollectives.cpp - the collective thunks on the host ------------===//
//
// What the devices of a program compute together in a collective thunk
// (ThunkCollectiveOps.td), done at once for all of them by the last device
// to arrive (HostRuntime.cpp runs the devices in threads): every output is
// made in a buffer of its own from the inputs of the group, then copied to
// its slice, so that no output can overwrite an input still to be read.
// Reductions fold the group's inputs in group order, element by element,
// in the element type (16-bit floats through f32, other narrow floats
// through double, rounded after each step; integers wrap); gathers and
// splits move elements by their logical indices, so any layout of the
// slices works.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Runtime/Host/HostRuntime.h"

#include "HostFloat.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <complex>
#include <cstring>
#include <type_traits>

using namespace mlir;
using namespace mlir::thunk;

namespace {

using Bytes = std::vector<uint8_t>;

/// A slice's logical shape, element size and physical strides (elements).
struct Layout {
  SmallVector<int64_t> shape, strides;
  int64_t elementBytes = 0;
  /// The bits of a packed element (2 or 4), else 0.
  int64_t packedBits = 0;

  explicit Layout(Value slice) {
    auto type = cast<MemRefType>(slice.getType());
    shape.assign(type.getShape().begin(), type.getShape().end());
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)))
      strides.assign(shape.size(), 0);
    Type element = type.getElementType();
    elementBytes = getElementStorageBytes(element);
    if (isPackedElementType(element))
      packedBits = element.getIntOrFloatBitWidth();
  }
  int64_t bytes() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return packedBits ? llvm::divideCeil(n * packedBits, 8) : n * elementBytes;
  }
};

/// The bits of packed element `i` of `src` (`bits` wide).
uint8_t loadPacked(const uint8_t *src, int64_t i, int64_t bits) {
  return (src[i * bits / 8] >> (i * bits % 8)) & uint8_t((1u << bits) - 1);
}

/// Sets packed element `i` of `dst` to the low `bits` bits of `v`.
void storePacked(uint8_t *dst, int64_t i, int64_t bits, uint8_t v) {
  uint8_t mask = uint8_t((1u << bits) - 1);
  uint8_t &to = dst[i * bits / 8];
  int64_t shift = i * bits % 8;
  to = uint8_t((to & ~(mask << shift)) | ((v & mask) << shift));
}

/// Copies packed element `a` of `src` to element `b` of `dst`.
void copyPacked(const uint8_t *src, int64_t a, uint8_t *dst, int64_t b,
                int64_t bits) {
  storePacked(dst, b, bits, loadPacked(src, a, bits));
}

/// Copies the elements of the box `extent` starting at logical index
/// `from` of `src` (laid out as `srcLayout`) to the box at `to` of `dst`.
void copyBox(ArrayRef<int64_t> extent, const uint8_t *src,
             const Layout &srcLayout, ArrayRef<int64_t> from, uint8_t *dst,
             const Layout &dstLayout, ArrayRef<int64_t> to) {
  int64_t rank = extent.size(), e = srcLayout.elementBytes;
  int64_t bits = srcLayout.packedBits;
  int64_t n = 1;
  for (int64_t d : extent)
    n *= d;
  SmallVector<int64_t> index(rank, 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t a = 0, b = 0;
    for (int64_t d = 0; d < rank; ++d) {
      a += (from[d] + index[d]) * srcLayout.strides[d];
      b += (to[d] + index[d]) * dstLayout.strides[d];
    }
    if (bits)
      copyPacked(src, a, dst, b, bits);
    else
      std::memcpy(dst + b * e, src + a * e, e);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < extent[d])
        break;
      index[d] = 0;
    }
  }
}

template <typename T> T combineValues(ReductionKind kind, T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    if ((kind == ReductionKind::Min || kind == ReductionKind::Max) &&
        (std::isnan(a) || std::isnan(b)))
      return std::isnan(a) ? a : b;
  if constexpr (std::is_integral_v<T>) {
    // Wrapping sums and products.
    using U = std::make_unsigned_t<T>;
    if (kind == ReductionKind::Sum)
      return T(U(a) + U(b));
    if (kind == ReductionKind::Product)
      return T(U(a) * U(b));
  }
  switch (kind) {
  case ReductionKind::Sum:
    return a + b;
  case ReductionKind::Product:
    return a * b;
  case ReductionKind::Min:
    return b < a ? b : a;
  case ReductionKind::Max:
    return a < b ? b : a;
  }
  return a;
}

/// acc[i] = acc[i] (kind) x[i] for `n` elements of type T in memory.
template <typename T>
void foldArray(ReductionKind kind, uint8_t *acc, const uint8_t *x, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    T a, b;
    std::memcpy(&a, acc + i * sizeof(T), sizeof(T));
    std::memcpy(&b, x + i * sizeof(T), sizeof(T));
    a = combineValues(kind, a, b);
    std::memcpy(acc + i * sizeof(T), &a, sizeof(T));
  }
}

/// acc = acc (kind) x, element by element, for `n` elements of `type`.
LogicalResult fold(ReductionKind kind, Type type, uint8_t *acc,
                   const uint8_t *x, int64_t n, std::string &error) {
  if (type.isF32())
    return foldArray<float>(kind, acc, x, n), success();
  if (type.isF64())
    return foldArray<double>(kind, acc, x, n), success();
  if (type.isF16() || type.isBF16()) {
    FloatCodec codec(type);
    for (int64_t i = 0; i < n; ++i)
      codec.store(acc, i,
                  combineValues(kind, codec.load(acc, i), codec.load(x, i)));
    return success();
  }
  if (auto f = dyn_cast<FloatType>(type)) {
    // Narrow floats: exact in double, rounded back after each step.
    const llvm::fltSemantics &sem = f.getFloatSemantics();
    int64_t bytes = getElementStorageBytes(type);
    unsigned bits = f.getWidth();
    auto load = [&](const uint8_t *p) {
      uint64_t raw = 0;
      std::memcpy(&raw, p, bytes);
      return llvm::APFloat(sem, llvm::APInt(bits, raw)).convertToDouble();
    };
    for (int64_t i = 0; i < n; ++i) {
      double r = combineValues(kind, load(acc + i * bytes), load(x + i * bytes));
      llvm::APFloat v(r);
      bool lost;
      v.convert(sem, llvm::APFloat::rmNearestTiesToEven, &lost);
      uint64_t raw = v.bitcastToAPInt().getZExtValue();
      std::memcpy(acc + i * bytes, &raw, bytes);
    }
    return success();
  }
  if (auto integer = dyn_cast<IntegerType>(type)) {
    bool isUnsigned = integer.isUnsigned() || integer.getWidth() == 1;
    if (integer.getWidth() == 1) {
      // pred: or for sums, and for products.
      ReductionKind k = kind == ReductionKind::Sum       ? ReductionKind::Max
                        : kind == ReductionKind::Product ? ReductionKind::Min
                                                         : kind;
      return foldArray<uint8_t>(k, acc, x, n), success();
    }
    // The signed type of the width, or its unsigned counterpart.
    auto foldAs = [&](auto signedZero) {
      using S = decltype(signedZero);
      if (isUnsigned)
        foldArray<std::make_unsigned_t<S>>(kind, acc, x, n);
      else
        foldArray<S>(kind, acc, x, n);
      return success();
    };
    switch (integer.getWidth()) {
    case 8:
      return foldAs(int8_t());
    case 16:
      return foldAs(int16_t());
    case 32:
      return foldAs(int32_t());
    case 64:
      return foldAs(int64_t());
    default:
      break;
    }
  }
  if (auto complex = dyn_cast<ComplexType>(type);
      complex && (kind == ReductionKind::Sum || kind == ReductionKind::Product)) {
    auto run = [&](auto zero) {
      using C = std::complex<decltype(zero)>;
      for (int64_t i = 0; i < n; ++i) {
        C a, b;
        std::memcpy(&a, acc + i * sizeof(C), sizeof(C));
        std::memcpy(&b, x + i * sizeof(C), sizeof(C));
        a = kind == ReductionKind::Sum ? a + b : a * b;
        std::memcpy(acc + i * sizeof(C), &a, sizeof(C));
      }
    };
    if (complex.getElementType().isF32())
      return run(0.0f), success();
    if (complex.getElementType().isF64())
      return run(0.0), success();
  }
  std::string name;
  llvm::raw_string_ostream os(name);
  os << type;
  error = "the host runtime cannot reduce elements of type " + name + " by " +
          stringifyReductionKind(kind).str();
  return failure();
}

/// The state of one collective: where each device's slices are, and the
/// output buffers being made.
struct Collective {
  Collective(function_ref<uint8_t *(int64_t, Value)> address,
             std::string &error)
      : address(address), error(error) {}

  function_ref<uint8_t *(int64_t, Value)> address;
  std::string &error;
  /// outputs[device][i]: output i of the device, in its output's layout.
  DenseMap<int64_t, std::vector<Bytes>> outputs;

  Bytes &output(int64_t device, unsigned i, ValueRange results) {
    std::vector<Bytes> &mine = outputs[device];
    if (mine.empty())
      for (Value v : results)
        mine.emplace_back(Layout(v).bytes(), 0);
    return mine[i];
  }

  /// Input `i` of the group folded in group order, in the input's layout.
  FailureOr<Bytes> reduce(ReductionKind kind, ArrayRef<int64_t> group,
                          Value input) {
    Layout layout(input);
    if (layout.packedBits)
      return reducePacked(kind, group, input, layout);
    const uint8_t *first = address(group[0], input);
    Bytes acc(first, first + layout.bytes());
    Type element = cast<MemRefType>(input.getType()).getElementType();
    int64_t n = layout.elementBytes ? layout.bytes() / layout.elementBytes : 0;
    for (int64_t d : group.drop_front())
      if (failed(fold(kind, element, acc.data(), address(d, input), n, error)))
        return failure();
    return acc;
  }

  /// reduce() for packed 2- and 4-bit elements: each unpacked to a byte
  /// (integers sign- or zero-extended, floats as their bit pattern), folded
  /// as 8-bit integers (whose sums and products wrap to the same low bits)
  /// or in the float type, packed again.
  FailureOr<Bytes> reducePacked(ReductionKind kind, ArrayRef<int64_t> group,
                                Value input, const Layout &layout) {
    Type element = cast<MemRefType>(input.getType()).getElementType();
    int64_t bits = layout.packedBits, n = 1;
    for (int64_t d : layout.shape)
      n *= d;
    auto integer = dyn_cast<IntegerType>(element);
    bool signExtend = integer && !integer.isUnsigned();
    Type foldType = integer
                        ? Type(IntegerType::get(element.getContext(), 8,
                                                integer.isUnsigned()
                                                    ? IntegerType::Unsigned
                                                    : IntegerType::Signless))
                        : element;
    auto unpack = [&](const uint8_t *src) {
      Bytes out(n);
      for (int64_t i = 0; i < n; ++i) {
        uint8_t v = loadPacked(src, i, bits);
        // Sign extension: the bits above the element's copy its top bit.
        if (signExtend && (v >> (bits - 1)))
          v |= uint8_t(0xff << bits);
        out[i] = v;
      }
      return out;
    };
    Bytes acc = unpack(address(group[0], input));
    for (int64_t d : group.drop_front()) {
      Bytes x = unpack(address(d, input));
      if (failed(fold(kind, foldType, acc.data(), x.data(), n, error)))
        return failure();
    }
    Bytes packed(layout.bytes(), 0);
    for (int64_t i = 0; i < n; ++i)
      storePacked(packed.data(), i, bits, acc[i]);
    return packed;
  }

  /// Writes every output buffer made to its device's slice.
  void store(ValueRange results) {
    for (auto &[device, buffers] : outputs)
      for (auto [v, bytes] : llvm::zip(results, buffers))
        std::memcpy(address(device, v), bytes.data(), bytes.size());
  }
};

SmallVector<int64_t> zeros(int64_t rank) { return SmallVector<int64_t>(rank); }

/// Entry `i` of a device's offsets or sizes at `p` (32- or 64-bit integers,
/// as `slice` holds them).
int64_t rangeEntry(const uint8_t *p, Value slice, int64_t i) {
  if (cast<MemRefType>(slice.getType()).getElementTypeBitWidth() == 32) {
    int32_t v;
    std::memcpy(&v, p + 4 * i, 4);
    return v;
  }
  int64_t v;
  std::memcpy(&v, p + 8 * i, 8);
  return v;
}

/// ragged-all-to-all: every member's output starts as what its slice
/// holds; each member's updates to each peer (its own offsets and sizes)
/// write rows of its input into the peer's output.
LogicalResult raggedAllToAll(RaggedAllToAllOp a, Collective &c) {
  Value input = a.getInput(), output = a.getOutput();
  Layout from(input), to(output);
  ValueRange results(output);
  int64_t entries = a.getInputOffsets().getType().getNumElements();
  int64_t srcRows = from.shape[0], dstRows = to.shape[0];
  for (ArrayRef<int64_t> group : a.getDeviceGroups()) {
    for (int64_t d : group)
      std::memcpy(c.output(d, 0, results).data(), c.address(d, output),
                  to.bytes());
    int64_t perPeer = entries / int64_t(group.size());
    for (int64_t src : group)
      for (auto [j, dst] : llvm::enumerate(group))
        for (int64_t u = 0; u < perPeer; ++u) {
          int64_t at = int64_t(j) * perPeer + u;
          auto read = [&](Value slice) {
            return rangeEntry(c.address(src, slice), slice, at);
          };
          int64_t first = read(a.getInputOffsets()),
                  size = read(a.getSendSizes()),
                  row = read(a.getOutputOffsets());
          if (size < 0 || first < 0 || row < 0 || first > srcRows - size ||
              row > dstRows - size) {
            c.error = "update " + std::to_string(u) + " of device " +
                      std::to_string(src) + " to device " +
                      std::to_string(dst) + ": rows [" + std::to_string(first) +
                      ", +" + std::to_string(size) + ") of " +
                      std::to_string(srcRows) + " to row " +
                      std::to_string(row) + " of " + std::to_string(dstRows) +
                      " are out of bounds";
            return failure();
          }
          SmallVector<int64_t> box(to.shape), at0 = zeros(box.size()),
                                              at1 = zeros(box.size());
          box[0] = size;
          at0[0] = first;
          at1[0] = row;
          copyBox(box, c.address(src, input), from, at0,
                  c.output(dst, 0, results).data(), to, at1);
        }
  }
  c.store(results);
  return success();
}

} // namespace

LogicalResult mlir::thunk::runHostCollective(
    Operation *op, function_ref<uint8_t *(int64_t, Value)> address,
    std::string &error) {
  Collective c(address, error);
  if (auto ragged = dyn_cast<RaggedAllToAllOp>(op))
    return raggedAllToAll(ragged, c);
  ValueRange results =
      llvm::TypeSwitch<Operation *, ValueRange>(op)
          .Case<AllReduceOp, ReduceScatterOp, AllGatherOp, AllToAllOp,
                CollectivePermuteOp, CollectiveBroadcastOp>(
              [](auto a) { return a.getOutputs(); })
          .Default([](Operation *) { return ValueRange(); });
  auto reduceTo = [&](ReductionKind kind, ArrayRef<ArrayRef<int64_t>> groups,
                      ValueRange inputs, ValueRange outputs,
                      std::optional<int64_t> scatterDim) -> LogicalResult {
    for (ArrayRef<int64_t> group : groups)
      for (auto [i, in] : llvm::enumerate(inputs)) {
        FailureOr<Bytes> sum = c.reduce(kind, group, in);
        if (failed(sum))
          return failure();
        Layout from(in), to(outputs[i]);
        for (auto [pos, d] : llvm::enumerate(group)) {
          SmallVector<int64_t> start = zeros(to.shape.size());
          if (scatterDim)
            start[*scatterDim] = int64_t(pos) * to.shape[*scatterDim];
          copyBox(to.shape, sum->data(), from, start,
                  c.output(d, i, outputs).data(), to, zeros(to.shape.size()));
        }
      }
    return success();
  };
  LogicalResult status =
      llvm::TypeSwitch<Operation *, LogicalResult>(op)
          .Case([&](AllReduceOp a) {
            return reduceTo(a.getReduction(), a.getDeviceGroups(),
                            a.getInputs(), a.getOutputs(), std::nullopt);
          })
          .Case([&](ReduceScatterOp a) {
            return reduceTo(a.getReduction(), a.getDeviceGroups(),
                            a.getInputs(), a.getOutputs(),
                            int64_t(a.getDimension()));
          })
          .Case([&](AllGatherOp a) {
            int64_t dim = a.getDimension();
            for (ArrayRef<int64_t> group : a.getDeviceGroups())
              for (auto [i, in] : llvm::enumerate(a.getInputs())) {
                Layout from(in), to(a.getOutputs()[i]);
                for (auto [pos, src] : llvm::enumerate(group)) {
                  SmallVector<int64_t> start = zeros(to.shape.size());
                  start[dim] = int64_t(pos) * from.shape[dim];
                  for (int64_t d : group)
                    copyBox(from.shape, address(src, in), from,
                            zeros(from.shape.size()),
                            c.output(d, i, a.getOutputs()).data(), to, start);
                }
              }
            return success();
          })
          .Case([&](AllToAllOp a) {
            std::optional<int64_t> dim;
            if (a.getDimension())
              dim = int64_t(*a.getDimension());
            for (ArrayRef<int64_t> group : a.getDeviceGroups()) {
              int64_t g = group.size();
              for (auto [j, dst] : llvm::enumerate(group))
                for (auto [k, src] : llvm::enumerate(group)) {
                  if (!dim) {
                    // Member j's output k is member k's input j.
                    Value in = a.getInputs()[j];
                    Layout layout(in), to(a.getOutputs()[k]);
                    copyBox(layout.shape, address(src, in), layout,
                            zeros(layout.shape.size()),
                            c.output(dst, k, a.getOutputs()).data(), to,
                            zeros(layout.shape.size()));
                    continue;
                  }
                  // Chunk j of member k's inputs goes to chunk k of member
                  // j's outputs.
                  for (auto [i, in] : llvm::enumerate(a.getInputs())) {
                    Layout from(in), to(a.getOutputs()[i]);
                    SmallVector<int64_t> box(from.shape);
                    box[*dim] /= g;
                    SmallVector<int64_t> at = zeros(box.size()),
                                         put = zeros(box.size());
                    at[*dim] = int64_t(j) * box[*dim];
                    put[*dim] = int64_t(k) * box[*dim];
                    copyBox(box, address(src, in), from, at,
                            c.output(dst, i, a.getOutputs()).data(), to, put);
                  }
                }
            }
            return success();
          })
          .Case([&](CollectiveBroadcastOp a) {
            for (ArrayRef<int64_t> group : a.getDeviceGroups())
              for (auto [i, in] : llvm::enumerate(a.getInputs())) {
                Layout from(in), to(a.getOutputs()[i]);
                for (int64_t d : group)
                  copyBox(from.shape, address(group[0], in), from,
                          zeros(from.shape.size()),
                          c.output(d, i, a.getOutputs()).data(), to,
                          zeros(from.shape.size()));
              }
            return success();
          })
          .Case([&](CollectivePermuteOp a) {
            // A device that is no target keeps the zeros it was given.
            for (auto [src, dst] : a.getSourceTargetPairs())
              for (auto [i, in] : llvm::enumerate(a.getInputs())) {
                Layout from(in), to(a.getOutputs()[i]);
                copyBox(from.shape, address(src, in), from,
                        zeros(from.shape.size()),
                        c.output(dst, i, a.getOutputs()).data(), to,
                        zeros(from.shape.size()));
              }
            return success();
          })
          .Default([&](Operation *) {
            error = "not a collective thunk";
            return failure();
          });
  if (failed(status))
    return failure();
  // Collective-permute writes zeros to the devices that are no target.
  if (isa<CollectivePermuteOp>(op)) {
    auto program = op->getParentOfType<ProgramOp>();
    int64_t devices = program.getNumReplicas() * program.getNumPartitions();
    for (int64_t d = 0; d < devices; ++d)
      c.output(d, 0, results);
  }
  c.store(results);
  return success();
}
