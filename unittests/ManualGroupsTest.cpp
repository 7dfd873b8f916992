//===- ManualGroupsTest.cpp - regions manual over some axes ---------------===//
//
// ManualGroups (lib/Transforms/SpmdManualGroups.h) against its definition on
// random meshes: a sharding over a mesh of 2 or 3 axes (devices in a random
// order), one axis manual, the others tiling an array's dimensions or
// replicating it. The groups are the devices of one manual coordinate; a
// device's local tile is its place along the other axes; the sharding it
// writes reads back the same tiles; an array tiled by the manual axis (the
// major part of a dimension's tiles) and the others gives each device the
// tile of its group's block that the local tiles give it, and back.
//
//===----------------------------------------------------------------------===//

#include "../lib/Transforms/SpmdManualGroups.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <numeric>
#include <random>

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// A mesh: axis sizes, the device at each position (row-major).
struct Mesh {
  SmallVector<int64_t> sizes, devices;
  /// The coordinates of each device along each axis.
  SmallVector<SmallVector<int64_t>> coords;
};

Mesh randomMesh(std::mt19937 &rng) {
  Mesh m;
  int axes = rng() % 2 + 2;
  for (int a = 0; a < axes; ++a)
    m.sizes.push_back(rng() % 3 + 1);
  m.sizes[rng() % axes] = 2; // the manual axis has at least two groups
  int64_t n = 1;
  for (int64_t s : m.sizes)
    n *= s;
  m.devices.resize(n);
  std::iota(m.devices.begin(), m.devices.end(), 0);
  std::shuffle(m.devices.begin(), m.devices.end(), rng);
  m.coords.resize(n);
  for (int64_t i = 0; i < n; ++i) {
    SmallVector<int64_t> c(axes);
    for (int64_t a = axes - 1, rest = i; a >= 0; --a) {
      c[a] = rest % m.sizes[a];
      rest /= m.sizes[a];
    }
    m.coords[m.devices[i]] = c;
  }
  return m;
}

/// The place of `device` among positions of axes `axes` (major first).
int64_t placeOf(const Mesh &m, int64_t device, ArrayRef<int64_t> axes) {
  int64_t place = 0;
  for (int64_t a : axes)
    place = place * m.sizes[a] + m.coords[device][a];
  return place;
}

int64_t sizeOf(const Mesh &m, ArrayRef<int64_t> axes) {
  int64_t size = 1;
  for (int64_t a : axes)
    size *= m.sizes[a];
  return size;
}

/// The sharding whose dimension d is tiled by axes `dims[d]`, with a
/// `manual` subgroup of axes `manual` (none: no such subgroup) and a
/// replicated one of the rest.
ShardingAttr shardingOf(MLIRContext *ctx, const Mesh &m,
                        ArrayRef<SmallVector<int64_t>> dims,
                        ArrayRef<int64_t> manual) {
  SmallVector<int64_t> rest;
  for (int64_t a = 0; a < int64_t(m.sizes.size()); ++a)
    if (!llvm::is_contained(manual, a) &&
        llvm::none_of(dims, [&](ArrayRef<int64_t> d) {
          return llvm::is_contained(d, a);
        }))
      rest.push_back(a);
  SmallVector<SmallVector<int64_t>> groups(dims);
  SmallVector<ShardingSubgroup> subgroups;
  if (!manual.empty()) {
    groups.emplace_back(manual);
    subgroups.push_back(ShardingSubgroup::Manual);
  }
  groups.push_back(rest);
  subgroups.push_back(ShardingSubgroup::Replicated);
  SmallVector<int64_t> shape;
  for (ArrayRef<int64_t> g : groups)
    shape.push_back(sizeOf(m, g));
  SmallVector<int64_t> list(m.devices.size());
  for (int64_t p : m.devices) {
    int64_t at = 0;
    for (auto [g, size] : llvm::zip(groups, shape))
      at = at * size + placeOf(m, p, g);
    list[at] = p;
  }
  return ShardingAttr::getTiled(ctx, shape, list, false, subgroups);
}

class ManualGroupsTest : public ::testing::Test {
protected:
  ManualGroupsTest() { ctx.loadDialect<HloDialect>(); }
  MLIRContext ctx;
};

TEST_F(ManualGroupsTest, RandomMeshesAgainstTheDefinition) {
  std::mt19937 rng(11);
  for (int iter = 0; iter < 400; ++iter) {
    Mesh m = randomMesh(rng);
    int64_t n = m.devices.size(), axes = m.sizes.size();
    int64_t manual = 0;
    while (m.sizes[manual] < 2)
      ++manual;
    // Each other axis tiles dimension 0, dimension 1 or nothing.
    SmallVector<SmallVector<int64_t>> dims(2);
    for (int64_t a = 0; a < axes; ++a)
      if (a != manual && rng() % 3 < 2)
        dims[rng() % 2].push_back(a);
    ShardingAttr s = shardingOf(&ctx, m, dims, {manual});
    std::optional<ManualGroups> groups = ManualGroups::get(s, n);
    ASSERT_TRUE(groups) << iter;
    // The groups: the devices of one manual coordinate.
    for (ArrayRef<int64_t> members : groups->getGroups()) {
      EXPECT_EQ(int64_t(members.size()), n / m.sizes[manual]);
      for (int64_t p : members)
        EXPECT_EQ(m.coords[p][manual], m.coords[members.front()][manual]);
    }
    // Each device's local tile: its place along the dimensions' axes.
    std::optional<TileSharding> local = groups->localTiles(s, 2);
    ASSERT_TRUE(local) << iter;
    for (int64_t p = 0; p < n; ++p)
      for (int d = 0; d < 2; ++d)
        EXPECT_EQ(local->getCoords(groups->localOf(p))[d],
                  placeOf(m, p, dims[d]));
    // Written back, the same groups and tiles.
    ShardingAttr back = groups->toAttr(*local, &ctx);
    std::optional<ManualGroups> again = ManualGroups::get(back, n);
    ASSERT_TRUE(again) << iter;
    EXPECT_EQ(groups->localTiles(back, 2), local) << iter;
    // An array tiled by the manual axis (the major part of dimension 0)
    // and the others: each device's tile of the whole is its local tile of
    // its group's block, and back.
    SmallVector<int64_t> whole{6 * sizeOf(m, dims[0]) * m.sizes[manual],
                               4 * sizeOf(m, dims[1])};
    SmallVector<int64_t> block{whole[0] / m.sizes[manual], whole[1]};
    SmallVector<SmallVector<int64_t>> globalDims(dims);
    globalDims[0].insert(globalDims[0].begin(), manual);
    std::optional<TileSharding> global =
        TileSharding::get(shardingOf(&ctx, m, globalDims, {}), 2, n);
    ASSERT_TRUE(global) << iter;
    EXPECT_EQ(groups->toLocal(*global, whole, block), local) << iter;
    SmallVector<SmallVector<int64_t>> manualDims{{manual}, {}};
    std::optional<TileSharding> blocks =
        TileSharding::get(shardingOf(&ctx, m, manualDims, {}), 2, n);
    ASSERT_TRUE(blocks) << iter;
    EXPECT_EQ(groups->toGlobal(*local, *blocks), global) << iter;
    // The manual axis minor: a group's tiles are not one block's.
    if (sizeOf(m, dims[0]) > 1) {
      SmallVector<SmallVector<int64_t>> minor(dims);
      minor[0].push_back(manual);
      std::optional<TileSharding> scattered =
          TileSharding::get(shardingOf(&ctx, m, minor, {}), 2, n);
      ASSERT_TRUE(scattered) << iter;
      EXPECT_FALSE(groups->toLocal(*scattered, whole, block)) << iter;
    }
    // Another grouping (no manual subgroup) reads as no local tiles.
    EXPECT_FALSE(ManualGroups::get(shardingOf(&ctx, m, dims, {}), n));
  }
}

} // namespace
