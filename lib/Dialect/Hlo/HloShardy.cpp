//===- HloShardy.cpp - Shardy's shardings in JAX's HLO --------------------===//
//
// Reading Shardy's syntax and converting its shardings to HLO shardings
// (HloShardy.h).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloShardy.h"
#include "Hlo/Dialect/Hlo/HloTileSharding.h"

#include "llvm/ADT/StringExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::hlo;

int64_t SdyMesh::getNumDevices() const {
  if (axisSizes.empty())
    return std::max<int64_t>(1, deviceIds.size());
  return std::accumulate(axisSizes.begin(), axisSizes.end(), int64_t{1},
                         std::multiplies<int64_t>());
}

int64_t SdyMesh::getAxisSize(StringRef name) const {
  for (auto [n, size] : llvm::zip(axisNames, axisSizes))
    if (n == name)
      return size;
  return 0;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {
/// A recursive-descent reader of the few sdy attributes JAX writes.
class SdyReader {
public:
  SdyReader(StringRef text, std::string &error) : rest(text), error(error) {}

  bool consume(StringRef token) {
    rest = rest.ltrim();
    return rest.consume_front(token);
  }
  bool expect(StringRef token) {
    return consume(token) || fail("expected '" + token + "'");
  }
  bool atEnd() { return rest.ltrim().empty(); }
  bool fail(const Twine &message) {
    if (error.empty())
      error = (message + " in Shardy attribute at '" + rest.take_front(24) +
               (rest.size() > 24 ? "...'" : "'"))
                  .str();
    return false;
  }

  bool quoted(std::string &out) {
    rest = rest.ltrim();
    if (!rest.consume_front("\""))
      return fail("expected a quoted name");
    size_t end = rest.find('"');
    if (end == StringRef::npos)
      return fail("unterminated name");
    out = rest.take_front(end).str();
    rest = rest.drop_front(end + 1);
    return true;
  }
  bool identifier(std::string &out) {
    rest = rest.ltrim();
    if (rest.starts_with("\""))
      return quoted(out);
    size_t n = 0;
    while (n < rest.size() && (llvm::isAlnum(rest[n]) || rest[n] == '_' ||
                               rest[n] == '.' || rest[n] == '$'))
      ++n;
    if (n == 0)
      return fail("expected a name");
    out = rest.take_front(n).str();
    rest = rest.drop_front(n);
    return true;
  }
  bool integer(int64_t &value) {
    rest = rest.ltrim();
    size_t n = 0;
    while (n < rest.size() && llvm::isDigit(rest[n]))
      ++n;
    if (n == 0 || rest.take_front(n).getAsInteger(10, value))
      return fail("expected an integer");
    rest = rest.drop_front(n);
    return true;
  }

  /// `<[ "a"=2, ... ] (, device_ids=[...])? >`
  bool meshBody(SdyMesh &mesh) {
    if (!expect("<") || !expect("["))
      return false;
    if (!consume("]")) {
      do {
        std::string name;
        int64_t size;
        if (!quoted(name) || !expect("=") || !integer(size))
          return false;
        if (size < 1 || mesh.getAxisSize(name))
          return fail("mesh axis '" + name + "' is repeated or not positive");
        mesh.axisNames.push_back(name);
        mesh.axisSizes.push_back(size);
      } while (consume(","));
      if (!expect("]"))
        return false;
    }
    if (consume(",")) {
      if (!expect("device_ids") || !expect("=") || !expect("["))
        return false;
      do {
        int64_t id;
        if (!integer(id))
          return false;
        mesh.deviceIds.push_back(id);
      } while (consume(","));
      if (!expect("]"))
        return false;
    }
    if (!mesh.deviceIds.empty() &&
        (int64_t)mesh.deviceIds.size() != mesh.getNumDevices())
      return fail("device_ids do not number the mesh's devices");
    return expect(">");
  }

  /// `"a"` or `"a":(pre)size`.
  bool axisRef(SdyAxisRef &ref) {
    if (!quoted(ref.name))
      return false;
    if (consume(":"))
      return expect("(") && integer(ref.preSize) && expect(")") &&
             integer(ref.size);
    return true;
  }

  /// `{refs, ?}` then an optional priority `pN`; `open` says whether it
  /// holds `?`.
  bool axisList(SmallVector<SdyAxisRef> &refs, bool *open = nullptr) {
    if (!expect("{"))
      return false;
    if (!consume("}")) {
      do {
        if (consume("?")) {
          if (open)
            *open = true;
          continue;
        }
        refs.emplace_back();
        if (!axisRef(refs.back()))
          return false;
      } while (consume(","));
      if (!expect("}"))
        return false;
    }
    rest = rest.ltrim();
    if (rest.consume_front("p")) {
      int64_t priority;
      return integer(priority);
    }
    return true;
  }

  /// `<@mesh, [{...}, ...], replicated={...}, unreduced={...}>`.
  bool sharding(SdyTensorSharding &s) {
    if (!expect("<"))
      return false;
    if (consume("@")) {
      if (!identifier(s.meshName))
        return false;
    } else {
      s.inlineMesh.emplace();
      if (!expect("mesh") || !meshBody(*s.inlineMesh))
        return false;
    }
    if (!expect(",") || !expect("["))
      return false;
    if (!consume("]")) {
      do {
        s.open.push_back(false);
        if (!axisList(s.dims.emplace_back(), &s.open.back()))
          return false;
      } while (consume(","));
      if (!expect("]"))
        return false;
    }
    while (consume(",")) {
      std::string key;
      if (!identifier(key) || !expect("="))
        return false;
      if (key == "replicated") {
        if (!axisList(s.replicated))
          return false;
      } else if (key == "unreduced") {
        if (!axisList(s.unreduced))
          return false;
      } else {
        return fail("unknown sharding field '" + key + "'");
      }
    }
    return expect(">");
  }

private:
  StringRef rest;
  std::string &error;
};
} // namespace

bool SdyTensorSharding::isFree() const {
  return !dims.empty() && llvm::all_of(open, [](bool o) { return o; }) &&
         llvm::all_of(dims, [](const auto &d) { return d.empty(); }) &&
         replicated.empty() && unreduced.empty();
}

FailureOr<llvm::StringMap<SdyMesh>>
mlir::hlo::parseSdyMeshes(StringRef text, std::string &error) {
  SdyReader r(text, error);
  llvm::StringMap<SdyMesh> meshes;
  if (!r.expect("{"))
    return failure();
  if (!r.consume("}")) {
    do {
      std::string name;
      SdyMesh mesh;
      if (!r.identifier(name) || !r.expect("=") || !r.expect("#sdy.mesh") ||
          !r.meshBody(mesh))
        return failure();
      meshes[name] = std::move(mesh);
    } while (r.consume(","));
    if (!r.expect("}"))
      return failure();
  }
  if (!r.atEnd() && !r.fail("unexpected text"))
    return failure();
  return meshes;
}

FailureOr<std::vector<SdyTensorSharding>>
mlir::hlo::parseSdyShardings(StringRef text, std::string &error) {
  SdyReader r(text, error);
  std::vector<SdyTensorSharding> shardings;
  if (r.consume("#sdy.sharding_per_value")) {
    if (!r.expect("<") || !r.expect("["))
      return failure();
    if (!r.consume("]")) {
      do {
        if (!r.sharding(shardings.emplace_back()))
          return failure();
      } while (r.consume(","));
      if (!r.expect("]"))
        return failure();
    }
    if (!r.expect(">"))
      return failure();
  } else if (!r.expect("#sdy.sharding") ||
             !r.sharding(shardings.emplace_back())) {
    return failure();
  }
  if (!r.atEnd() && !r.fail("unexpected text"))
    return failure();
  return shardings;
}

FailureOr<SmallVector<std::string>>
mlir::hlo::parseSdyManualAxes(StringRef text, std::string &error) {
  SdyReader r(text, error);
  SmallVector<std::string> axes;
  if (!r.expect("#sdy") || !r.expect("<") || !r.expect("manual_axes") ||
      !r.expect("{"))
    return failure();
  if (!r.consume("}")) {
    do {
      if (!r.quoted(axes.emplace_back()))
        return failure();
    } while (r.consume(","));
    if (!r.expect("}"))
      return failure();
  }
  if (!r.expect(">") || (!r.atEnd() && !r.fail("unexpected text")))
    return failure();
  return axes;
}

//===----------------------------------------------------------------------===//
// Conversion
//===----------------------------------------------------------------------===//

namespace {
/// One factor of the mesh's device array: axis `axis`'s part from
/// `preSize` of size `size` (sub-axes split axes into such factors).
struct Factor {
  int64_t axis, preSize, size;
};
} // namespace

FailureOr<ShardingAttr>
mlir::hlo::toHloSharding(MLIRContext *ctx, const SdyTensorSharding &sharding,
                         int64_t rank, const SdyMesh &mesh,
                         ArrayRef<std::string> manual, std::string &error) {
  auto fail = [&](const Twine &why) {
    error = why.str();
    return failure();
  };
  if (mesh.axisSizes.empty()) // a maximal mesh (or one device)
    return ShardingAttr::get(ctx, ShardingKind::Maximal,
                             mesh.deviceIds.empty() ? 0 : mesh.deviceIds[0]);
  if ((int64_t)sharding.dims.size() != rank)
    return fail("a Shardy sharding of " + Twine(sharding.dims.size()) +
                " dimensions for an array of rank " + Twine(rank));
  if (!sharding.unreduced.empty())
    return fail("unreduced axes are not supported yet");
  // Each axis split where a sub-axis begins or ends.
  int64_t numAxes = mesh.axisSizes.size();
  SmallVector<SmallVector<int64_t>> cuts(numAxes);
  auto axisOf = [&](const SdyAxisRef &ref) -> FailureOr<int64_t> {
    auto it = llvm::find(mesh.axisNames, ref.name);
    if (it == mesh.axisNames.end())
      return fail("the mesh has no axis '" + ref.name + "'");
    int64_t a = it - mesh.axisNames.begin();
    int64_t size = ref.size ? ref.size : mesh.axisSizes[a];
    if (ref.preSize < 1 || size < 1 ||
        mesh.axisSizes[a] % (ref.preSize * size) != 0)
      return fail("sub-axis '" + ref.name + "':(" + Twine(ref.preSize) + ")" +
                  Twine(size) + " does not divide the axis");
    cuts[a].push_back(ref.preSize);
    cuts[a].push_back(ref.preSize * size);
    return a;
  };
  // Manual axes a dimension names are the manual subgroup's (a local shape).
  auto isManual = [&](const SdyAxisRef &ref) {
    return llvm::is_contained(manual, ref.name);
  };
  for (const auto &dim : sharding.dims)
    for (const SdyAxisRef &ref : dim)
      if (!isManual(ref) && failed(axisOf(ref)))
        return failure();
  for (const SdyAxisRef &ref : sharding.replicated)
    if (failed(axisOf(ref)))
      return failure();
  SmallVector<int64_t> manualAxes;
  for (const std::string &name : manual) {
    FailureOr<int64_t> a = axisOf(SdyAxisRef{name});
    if (failed(a))
      return failure();
    manualAxes.push_back(*a);
  }
  SmallVector<Factor> factors;
  for (int64_t a = 0; a < numAxes; ++a) {
    SmallVector<int64_t> &c = cuts[a];
    c.push_back(1);
    c.push_back(mesh.axisSizes[a]);
    llvm::sort(c);
    c.erase(std::unique(c.begin(), c.end()), c.end());
    for (size_t i = 0; i + 1 < c.size(); ++i)
      factors.push_back({a, c[i], c[i + 1] / c[i]});
  }
  // The factors in the order of the tile assignment.
  SmallVector<int64_t> perm;
  SmallVector<bool> used(factors.size(), false);
  auto take = [&](int64_t axis, int64_t preSize, int64_t size) {
    int64_t product = 1;
    for (auto [i, f] : llvm::enumerate(factors))
      if (f.axis == axis && f.preSize >= preSize &&
          f.preSize * f.size <= preSize * size) {
        if (used[i]) {
          error = "mesh axis '" + mesh.axisNames[axis] + "' is used twice";
          return int64_t{-1};
        }
        used[i] = true;
        perm.push_back(i);
        product *= f.size;
      }
    return product;
  };
  SmallVector<int64_t> tileDims;
  for (const auto &dim : sharding.dims) {
    int64_t tiles = 1;
    for (const SdyAxisRef &ref : dim) {
      if (isManual(ref))
        continue;
      int64_t a = *axisOf(ref);
      int64_t t = take(a, ref.preSize, ref.size ? ref.size : mesh.axisSizes[a]);
      if (t < 0)
        return failure();
      tiles *= t;
    }
    tileDims.push_back(tiles);
  }
  int64_t dataTiles = 1;
  for (int64_t t : tileDims)
    dataTiles *= t;
  int64_t manualSize = 1;
  for (int64_t a : manualAxes) {
    int64_t t = take(a, 1, mesh.axisSizes[a]);
    if (t < 0)
      return failure();
    manualSize *= t;
  }
  int64_t replicatedSize = 1;
  for (auto [i, f] : llvm::enumerate(factors))
    if (!used[i]) {
      perm.push_back(i);
      replicatedSize *= f.size;
    }
  if (manual.empty() && dataTiles == 1)
    return ShardingAttr::get(ctx, ShardingKind::Replicated);
  if (!manual.empty() && dataTiles == 1 && replicatedSize == 1)
    return ShardingAttr::get(ctx, ShardingKind::Manual);
  SmallVector<ShardingSubgroup> subgroups;
  bool lastTileDimReplicate = false;
  if (!manual.empty()) {
    tileDims.push_back(manualSize);
    subgroups.push_back(ShardingSubgroup::Manual);
    if (replicatedSize > 1) {
      tileDims.push_back(replicatedSize);
      subgroups.push_back(ShardingSubgroup::Replicated);
    }
  } else if (replicatedSize > 1) {
    tileDims.push_back(replicatedSize);
    lastTileDimReplicate = true;
  }
  SmallVector<int64_t> reshape;
  for (const Factor &f : factors)
    reshape.push_back(f.size);
  if (mesh.deviceIds.empty()) {
    canonicalizeIota(reshape, perm);
    return ShardingAttr::getIota(ctx, tileDims, reshape, perm,
                                 lastTileDimReplicate, subgroups);
  }
  // Explicit devices: mesh position of each tile-assignment position.
  SmallVector<int64_t> devices;
  int64_t n = mesh.getNumDevices();
  SmallVector<int64_t> strides(factors.size(), 1);
  for (int64_t i = (int64_t)factors.size() - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * factors[i + 1].size;
  for (int64_t linear = 0; linear < n; ++linear) {
    int64_t rem = linear, position = 0;
    for (int64_t k = (int64_t)perm.size() - 1; k >= 0; --k) {
      int64_t size = factors[perm[k]].size;
      position += (rem % size) * strides[perm[k]];
      rem /= size;
    }
    devices.push_back(mesh.deviceIds[position]);
  }
  return ShardingAttr::getTiled(ctx, tileDims, devices, lastTileDimReplicate,
                                subgroups);
}

//===----------------------------------------------------------------------===//
// SdyShardings
//===----------------------------------------------------------------------===//

FailureOr<SdyShardings> SdyShardings::get(Operation *module,
                                          std::string &error) {
  SdyShardings result;
  auto attrs = module->getAttrOfType<DictionaryAttr>("hlo.frontend_attributes");
  auto text = attrs ? attrs.getAs<StringAttr>(kSdyMeshes) : StringAttr();
  if (!text)
    return result;
  FailureOr<llvm::StringMap<SdyMesh>> meshes =
      parseSdyMeshes(text.getValue(), error);
  if (failed(meshes))
    return failure();
  result.meshes = std::move(*meshes);
  return result;
}

const SdyMesh *SdyShardings::lookup(StringRef name) const {
  auto it = meshes.find(name);
  return it == meshes.end() ? nullptr : &it->second;
}

FailureOr<SmallVector<std::string>>
SdyShardings::manualAxes(DictionaryAttr frontendAttrs, std::string &error) {
  auto text = frontendAttrs ? frontendAttrs.getAs<StringAttr>(kSdyManualAxes)
                            : StringAttr();
  if (!text)
    return SmallVector<std::string>();
  return parseSdyManualAxes(text.getValue(), error);
}

FailureOr<SmallVector<ShardingAttr>>
SdyShardings::convert(MLIRContext *ctx, DictionaryAttr frontendAttrs,
                      StringRef key, TypeRange types,
                      ArrayRef<std::string> manual, std::string &error) const {
  SmallVector<ShardingAttr> result;
  auto text =
      frontendAttrs ? frontendAttrs.getAs<StringAttr>(key) : StringAttr();
  if (!text)
    return result;
  FailureOr<std::vector<SdyTensorSharding>> shardings =
      parseSdyShardings(text.getValue(), error);
  if (failed(shardings))
    return failure();
  // One Shardy sharding per array (tuples: per element).
  SmallVector<Type> leaves;
  for (Type t : types) {
    if (auto tuple = dyn_cast<TupleType>(t))
      llvm::append_range(leaves, tuple.getTypes());
    else
      leaves.push_back(t);
  }
  if (shardings->size() != leaves.size()) {
    error = (key + " has " + Twine(shardings->size()) + " shardings for " +
             Twine(leaves.size()) + " values")
                .str();
    return failure();
  }
  SmallVector<ShardingAttr> leafShardings;
  for (auto [s, type] : llvm::zip(*shardings, leaves)) {
    const SdyMesh *mesh = s.inlineMesh ? &*s.inlineMesh : lookup(s.meshName);
    if (!mesh) {
      error = "no mesh '" + s.meshName + "' in the module's xla.sdy.meshes";
      return failure();
    }
    auto tensor = dyn_cast<RankedTensorType>(type);
    FailureOr<ShardingAttr> h = toHloSharding(
        ctx, s, tensor ? tensor.getRank() : 0, *mesh, manual, error);
    if (failed(h))
      return failure();
    leafShardings.push_back(*h);
  }
  ArrayRef<ShardingAttr> next = leafShardings;
  for (Type t : types) {
    if (auto tuple = dyn_cast<TupleType>(t)) {
      result.push_back(
          ShardingAttr::getTuple(ctx, next.take_front(tuple.size())));
      next = next.drop_front(tuple.size());
    } else {
      result.push_back(next.front());
      next = next.drop_front();
    }
  }
  return result;
}
