//===- HloSharding.cpp - #hlo.sharding ------------------------------------===//
//
// The structured HLO sharding: its HLO spelling (read and printed as XLA
// prints it), its verifier and the accessors passes use.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloSyntax.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::hlo;
using syntax::Cursor;

/// Tile assignments larger than this are refused, so that expanding one
/// stays possible.
static constexpr int64_t kMaxDevices = int64_t(1) << 24;

//===----------------------------------------------------------------------===//
// Builders and accessors
//===----------------------------------------------------------------------===//

ShardingAttr ShardingAttr::get(MLIRContext *ctx, ShardingKind kind,
                               int64_t device) {
  return get(ctx, kind, kind == ShardingKind::Maximal ? device : 0, {}, {}, {},
             {}, false, {}, ShardGroupKind::None, 0, {}, {});
}

ShardingAttr ShardingAttr::getTiled(MLIRContext *ctx, ArrayRef<int64_t> dims,
                                    ArrayRef<int64_t> devices,
                                    bool lastTileDimReplicate,
                                    ArrayRef<ShardingSubgroup> lastTileDims) {
  return get(ctx, ShardingKind::Tiled, 0, dims, devices, {}, {},
             lastTileDimReplicate, lastTileDims, ShardGroupKind::None, 0, {},
             {});
}

ShardingAttr ShardingAttr::getIota(MLIRContext *ctx, ArrayRef<int64_t> dims,
                                   ArrayRef<int64_t> reshape,
                                   ArrayRef<int64_t> perm,
                                   bool lastTileDimReplicate,
                                   ArrayRef<ShardingSubgroup> lastTileDims) {
  return get(ctx, ShardingKind::Tiled, 0, dims, {}, reshape, perm,
             lastTileDimReplicate, lastTileDims, ShardGroupKind::None, 0, {},
             {});
}

ShardingAttr ShardingAttr::getTuple(MLIRContext *ctx,
                                    ArrayRef<ShardingAttr> elements) {
  return get(ctx, ShardingKind::Tuple, 0, {}, {}, {}, {}, false, {},
             ShardGroupKind::None, 0, {}, elements);
}

ShardingAttr
ShardingAttr::withMetadata(ArrayRef<DictionaryAttr> metadata) const {
  return get(getContext(), getKind(), getDevice(), getTileAssignmentDims(),
             getTileAssignmentDevices(), getIotaReshapeDims(),
             getIotaTransposePerm(), getLastTileDimReplicate(),
             getLastTileDims(), getShardGroupKind(), getShardGroupId(),
             metadata, getTupleElements());
}

bool ShardingAttr::isReplicated() const {
  if (isTuple())
    return llvm::all_of(getTupleElements(),
                        [](ShardingAttr e) { return e.isReplicated(); });
  return getKind() == ShardingKind::Replicated;
}

int64_t ShardingAttr::getNumDevices() const {
  if (isMaximal())
    return 1;
  if (!isTiled())
    return 0;
  int64_t n = 1;
  for (int64_t d : getTileAssignmentDims())
    n *= d;
  return n;
}

int64_t ShardingAttr::getNumTiles() const {
  if (!isTiled())
    return 1;
  int64_t n = 1;
  for (int64_t d : getDataTileDims())
    n *= d;
  return n;
}

/// The iota device list: 0..N-1 reshaped to `dims`, transposed by `perm`
/// (identity when empty), read row-major.
SmallVector<int64_t> mlir::hlo::expandIotaIds(ArrayRef<int64_t> dims,
                                              ArrayRef<int64_t> permIn) {
  SmallVector<int64_t> perm(permIn);
  if (perm.empty())
    for (size_t i = 0; i < dims.size(); ++i)
      perm.push_back(i);
  SmallVector<int64_t> strides(dims.size(), 1), tDims;
  for (int i = int(dims.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * dims[i + 1];
  int64_t total = 1;
  for (int64_t p : perm) {
    tDims.push_back(dims[p]);
    total *= dims[p];
  }
  SmallVector<int64_t> ids, idx(dims.size(), 0);
  ids.reserve(total);
  for (int64_t n = 0; n < total; ++n) {
    int64_t id = 0;
    for (size_t i = 0; i < idx.size(); ++i)
      id += idx[i] * strides[perm[i]];
    ids.push_back(id);
    for (int i = int(idx.size()) - 1; i >= 0; --i) {
      if (++idx[i] < tDims[i])
        break;
      idx[i] = 0;
    }
  }
  return ids;
}

SmallVector<int64_t> ShardingAttr::getDeviceList() const {
  if (isMaximal())
    return {getDevice()};
  if (!isTiled())
    return {};
  if (!isIota())
    return SmallVector<int64_t>(getTileAssignmentDevices());
  return expandIotaIds(getIotaReshapeDims(), getIotaTransposePerm());
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

/// The product of `dims` if every one is positive and the product stays at
/// most kMaxDevices.
static std::optional<int64_t> checkedProduct(ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    if (d <= 0 || llvm::MulOverflow(n, d, n) || n > kMaxDevices)
      return std::nullopt;
  return n;
}

LogicalResult ShardingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, ShardingKind kind,
    int64_t device, ArrayRef<int64_t> dims, ArrayRef<int64_t> devices,
    ArrayRef<int64_t> reshape, ArrayRef<int64_t> perm,
    bool lastTileDimReplicate, ArrayRef<ShardingSubgroup> lastTileDims,
    ShardGroupKind groupKind, int64_t groupId,
    ArrayRef<DictionaryAttr> metadata, ArrayRef<ShardingAttr> elements) {
  bool tiled = kind == ShardingKind::Tiled;
  if (kind != ShardingKind::Tuple && !elements.empty())
    return emitError() << "only a tuple sharding has tuple elements";
  if (kind != ShardingKind::Maximal && device != 0)
    return emitError() << "only a maximal sharding names a device";
  if (!tiled &&
      (!dims.empty() || !devices.empty() || !reshape.empty() || !perm.empty() ||
       lastTileDimReplicate || !lastTileDims.empty()))
    return emitError() << "only a tiled sharding has a tile assignment";
  if (groupKind == ShardGroupKind::None ? groupId != 0 : groupId < 0)
    return emitError() << "shard group id " << groupId
                       << " is negative or has no shard_as/shard_like";
  switch (kind) {
  case ShardingKind::Tuple:
    if (groupKind != ShardGroupKind::None || !metadata.empty())
      return emitError() << "a tuple sharding carries no shard group or "
                            "metadata (its elements do)";
    for (ShardingAttr e : elements)
      if (!e || e.isTuple())
        return emitError() << "tuple sharding elements are non-tuple "
                              "shardings (one per leaf of the tuple shape)";
    return success();
  case ShardingKind::Maximal:
    if (device < 0)
      return emitError() << "maximal sharding device " << device
                         << " is negative";
    return success();
  case ShardingKind::Replicated:
  case ShardingKind::Manual:
  case ShardingKind::Unknown:
    return success();
  case ShardingKind::Tiled:
    break;
  }
  if (dims.empty())
    return emitError() << "a tiled sharding needs tile assignment dimensions";
  std::optional<int64_t> numDevices = checkedProduct(dims);
  if (!numDevices)
    return emitError() << "tile assignment dimensions [" << dims
                       << "] must be positive with a product of at most 2^24";
  if (reshape.empty()) {
    if (!perm.empty())
      return emitError() << "a transpose needs the iota form";
    if (int64_t(devices.size()) != *numDevices)
      return emitError() << "tile assignment [" << dims << "] has "
                         << *numDevices << " tiles but " << devices.size()
                         << " devices are listed";
    llvm::SmallDenseSet<int64_t, 16> seen;
    for (int64_t d : devices) {
      if (d < 0)
        return emitError() << "device id " << d << " is negative";
      if (!seen.insert(d).second)
        return emitError() << "device " << d
                           << " appears twice in the tile assignment";
    }
  } else {
    if (!devices.empty())
      return emitError() << "an iota tile assignment lists no devices";
    std::optional<int64_t> numIota = checkedProduct(reshape);
    if (!numIota || *numIota != *numDevices)
      return emitError() << "iota reshape dimensions [" << reshape
                         << "] must be positive with the product "
                         << *numDevices << " of the tile assignment";
    if (!perm.empty()) {
      SmallVector<bool> seen(reshape.size(), false);
      bool ok = perm.size() == reshape.size();
      for (int64_t p : perm) {
        if (!ok || p < 0 || p >= int64_t(reshape.size()) || seen[p]) {
          ok = false;
          break;
        }
        seen[p] = true;
      }
      if (!ok)
        return emitError() << "iota transpose T(" << perm
                           << ") is not a permutation of " << reshape.size()
                           << " dimensions";
    }
  }
  if (lastTileDimReplicate && !lastTileDims.empty())
    return emitError() << "last_tile_dim_replicate and last_tile_dims "
                          "exclude each other";
  if (int64_t(lastTileDims.size()) + (lastTileDimReplicate ? 1 : 0) >
      int64_t(dims.size()))
    return emitError() << "the sharding has more subgroup dimensions than "
                          "its tile assignment has dimensions";
  for (size_t i = 0; i < lastTileDims.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (lastTileDims[i] == lastTileDims[j])
        return emitError() << "last_tile_dims names "
                           << stringifyShardingSubgroup(lastTileDims[i])
                           << " twice";
  return success();
}

/// Counts the array leaves of `type` (every non-tuple type is a leaf).
/// Checks a non-tuple sharding against every array leaf of `type`.
static LogicalResult
verifyLeaves(ShardingAttr sharding, Type type,
             function_ref<InFlightDiagnostic()> emitError) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    for (Type t : tuple.getTypes())
      if (failed(verifyLeaves(sharding, t, emitError)))
        return failure();
    return success();
  }
  if (!sharding.isTiled())
    return success();
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return emitError() << "tiled sharding on " << type
                       << ", which is not an array";
  if (sharding.getTiledDataRank() != tensor.getRank())
    return emitError() << "sharding tiles " << sharding.getTiledDataRank()
                       << " data dimensions but " << type << " has rank "
                       << tensor.getRank();
  return success();
}

LogicalResult ShardingAttr::verifyForType(
    Type type, function_ref<InFlightDiagnostic()> emitError) const {
  if (!isTuple())
    return verifyLeaves(*this, type, emitError);
  if (!isa<TupleType>(type))
    return emitError() << "tuple sharding on " << type
                       << ", which is not a tuple";
  int64_t leaves = getNumLeaves(type);
  int64_t n = getTupleElements().size();
  // A tuple without leaves may carry one element (as XLA allows).
  if (n != leaves && !(leaves == 0 && n <= 1))
    return emitError() << "tuple sharding has " << n << " elements but " << type
                       << " has " << leaves << " leaves";
  // Element i applies to leaf i, in depth-first order.
  SmallVector<Type> leafTypes;
  std::function<void(Type)> collect = [&](Type t) {
    if (auto tuple = dyn_cast<TupleType>(t)) {
      for (Type e : tuple.getTypes())
        collect(e);
      return;
    }
    leafTypes.push_back(t);
  };
  collect(type);
  for (auto [e, t] : llvm::zip(getTupleElements(), leafTypes))
    if (failed(verifyLeaves(e, t, emitError)))
      return failure();
  return success();
}

LogicalResult mlir::hlo::verifyInstructionSharding(Operation *op) {
  auto sharding = op->getAttrOfType<ShardingAttr>("sharding");
  if (!sharding || op->getNumResults() != 1)
    return success();
  return sharding.verifyForType(op->getResult(0).getType(),
                                [&]() { return op->emitOpError(); });
}

//===----------------------------------------------------------------------===//
// HLO spelling
//===----------------------------------------------------------------------===//

namespace {
/// The fields of one non-tuple sharding while it is read.
struct ShardingFields {
  std::optional<ShardingKind> kind;
  int64_t device = 0;
  SmallVector<int64_t> dims, devices, reshape, perm;
  bool lastTileDimReplicate = false;
  SmallVector<ShardingSubgroup> lastTileDims;
  ShardGroupKind groupKind = ShardGroupKind::None;
  int64_t groupId = 0;
  SmallVector<DictionaryAttr> metadata;
};
} // namespace

/// Reads `{...}` (one non-tuple sharding) into `f`.
static bool parseSingle(Cursor &c, MLIRContext *ctx, ShardingFields &f) {
  if (!c.expect("{"))
    return false;
  auto setKind = [&](ShardingKind k) {
    if (f.kind)
      return c.error("sharding names more than one kind");
    f.kind = k;
    return true;
  };
  while (!c.consumeIf("}")) {
    if (c.atEnd())
      return c.error("expected '}'");
    StringRef word;
    size_t wordAt = c.getPos();
    if (!c.parseIdentifier(word))
      return false;
    if (word == "replicated" || word == "manual" || word == "unknown") {
      if (!setKind(*symbolizeShardingKind(word)))
        return false;
      continue;
    }
    if (word == "last_tile_dim_replicate") {
      f.lastTileDimReplicate = true;
      continue;
    }
    if (word == "maximal") {
      if (!setKind(ShardingKind::Maximal) || !c.expect("device=") ||
          !c.parseInt(f.device))
        return false;
      continue;
    }
    if (word == "shard_as" || word == "shard_like") {
      f.groupKind = word == "shard_as" ? ShardGroupKind::ShardAs
                                       : ShardGroupKind::ShardLike;
      if (!c.parseInt(f.groupId))
        return false;
      continue;
    }
    // The other fields are `name=`, one token as XLA's lexer reads it.
    c.setPos(wordAt);
    if (!c.parseAttrName(word))
      return false;
    if (word == "devices") {
      if (!setKind(ShardingKind::Tiled) || !c.parseIntList(f.dims, '[', ']'))
        return false;
      if (c.consumeIf("<=")) {
        if (!c.parseIntList(f.reshape, '[', ']'))
          return false;
        if (f.reshape.empty())
          return c.error("expected iota reshape dimensions");
        if (c.consumeIf("T") && !c.parseIntList(f.perm, '(', ')'))
          return false;
      } else if (!c.parseJoinedInts(f.devices, ',')) {
        return false;
      }
      continue;
    }
    if (word == "last_tile_dims") {
      if (!c.expect("{"))
        return false;
      if (c.consumeIf("}"))
        continue;
      do {
        StringRef name;
        if (!c.parseIdentifier(name))
          return false;
        std::optional<ShardingSubgroup> type = symbolizeShardingSubgroup(name);
        if (!type)
          return c.error("unknown last_tile_dims entry '" + name + "'");
        f.lastTileDims.push_back(*type);
      } while (c.consumeIf(","));
      if (!c.expect("}"))
        return false;
      continue;
    }
    if (word == "metadata") {
      // One OpMetadata `{...}` or a list of them `{{...}, {...}}`.
      size_t save = c.getPos();
      if (!c.expect("{"))
        return false;
      bool list = c.peek() == '{';
      if (!list)
        c.setPos(save);
      do {
        DictionaryAttr md = syntax::parseOpMetadata(c, ctx);
        if (!md)
          return false;
        f.metadata.push_back(md);
      } while (list && c.consumeIf(","));
      if (list && !c.expect("}"))
        return false;
      continue;
    }
    return c.error("unknown sharding field '" + word + "'");
  }
  if (!f.kind)
    return c.error("sharding names no kind (replicated, maximal, devices=...)");
  return true;
}

Attribute ShardingAttr::parseHlo(MLIRContext *ctx, StringRef text,
                                 function_ref<InFlightDiagnostic()> emitError) {
  Cursor c(text);
  SmallVector<ShardingFields, 1> parts;
  bool tuple = false;
  size_t save = c.getPos();
  if (c.consumeIf("{") && (c.peek() == '{' || c.peek() == '}')) {
    tuple = true;
    if (!c.consumeIf("}")) {
      do {
        if (!parseSingle(c, ctx, parts.emplace_back()))
          break;
      } while (c.consumeIf(","));
      c.expect("}");
    }
  } else {
    c.setPos(save);
    parseSingle(c, ctx, parts.emplace_back());
  }
  if (!c.failed() && !c.atEnd())
    c.error("unexpected trailing characters '" + c.rest().take_front(20) + "'");
  if (c.failed()) {
    emitError() << c.getError() << " at offset " << c.getErrorOffset()
                << " of '" << c.getText() << "'";
    return {};
  }
  auto build = [&](ShardingFields &f) {
    return getChecked(
        emitError, ctx, *f.kind, f.device, ArrayRef<int64_t>(f.dims),
        ArrayRef<int64_t>(f.devices), ArrayRef<int64_t>(f.reshape),
        ArrayRef<int64_t>(f.perm), f.lastTileDimReplicate,
        ArrayRef<ShardingSubgroup>(f.lastTileDims), f.groupKind, f.groupId,
        ArrayRef<DictionaryAttr>(f.metadata), ArrayRef<ShardingAttr>());
  };
  if (!tuple)
    return build(parts.front());
  SmallVector<ShardingAttr> elements;
  for (ShardingFields &f : parts) {
    ShardingAttr e = build(f);
    if (!e)
      return {};
    elements.push_back(e);
  }
  return getChecked(
      emitError, ctx, ShardingKind::Tuple, int64_t(0), ArrayRef<int64_t>(),
      ArrayRef<int64_t>(), ArrayRef<int64_t>(), ArrayRef<int64_t>(), false,
      ArrayRef<ShardingSubgroup>(), ShardGroupKind::None, int64_t(0),
      ArrayRef<DictionaryAttr>(), ArrayRef<ShardingAttr>(elements));
}

void ShardingAttr::printHlo(raw_ostream &os) const {
  if (isTuple()) {
    // XLA marks every fifth element with its index.
    os << '{';
    for (auto [i, e] : llvm::enumerate(getTupleElements())) {
      if (i)
        os << ", ";
      if (i && i % 5 == 0)
        os << "/*index=" << i << "*/";
      e.printHlo(os);
    }
    os << '}';
    return;
  }
  os << '{';
  switch (getKind()) {
  case ShardingKind::Maximal:
    os << "maximal device=" << getDevice();
    break;
  case ShardingKind::Tiled:
    os << "devices=[";
    syntax::printJoined(os, getTileAssignmentDims(), ",");
    os << ']';
    if (isIota()) {
      os << "<=[";
      syntax::printJoined(os, getIotaReshapeDims(), ",");
      os << ']';
      if (!getIotaTransposePerm().empty()) {
        os << "T(";
        syntax::printJoined(os, getIotaTransposePerm(), ",");
        os << ')';
      }
    } else {
      syntax::printJoined(os, getTileAssignmentDevices(), ",");
    }
    if (getLastTileDimReplicate())
      os << " last_tile_dim_replicate";
    if (!getLastTileDims().empty()) {
      os << " last_tile_dims={";
      llvm::interleave(
          getLastTileDims(), os,
          [&](ShardingSubgroup s) { os << stringifyShardingSubgroup(s); },
          ", ");
      os << '}';
    }
    break;
  default:
    os << stringifyShardingKind(getKind());
    break;
  }
  if (getShardGroupKind() != ShardGroupKind::None)
    os << ' ' << stringifyShardGroupKind(getShardGroupKind()) << ' '
       << getShardGroupId();
  ArrayRef<DictionaryAttr> metadata = getMetadata();
  if (!metadata.empty()) {
    os << " metadata={";
    if (metadata.size() == 1) {
      syntax::printOpMetadata(os, metadata.front());
    } else {
      llvm::interleave(
          metadata, os,
          [&](DictionaryAttr md) {
            os << '{';
            syntax::printOpMetadata(os, md);
            os << '}';
          },
          ", ");
    }
    os << '}';
  }
  os << '}';
}
