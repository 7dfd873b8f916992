//===- TileShardingTest.cpp - the tile each partition holds ---------------===//
//
// TileSharding (HloTileSharding.h) against its definition on random tiled
// shardings: each partition's tile coordinates are its place in the tile
// assignment (row-major over the tile dimensions, the devices listed
// explicitly or in iota form); the attribute it writes reads back the
// same; the groups across dimensions hold one partition of each tile
// along them and differ nowhere else.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTileSharding.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <set>

using namespace mlir;
using namespace mlir::hlo;

namespace {

class TileShardingTest : public ::testing::Test {
protected:
  TileShardingTest() { ctx.loadDialect<HloDialect>(); }
  MLIRContext ctx;
};

TEST_F(TileShardingTest, ReadsTheTileAssignment) {
  // {devices=[2,1,2]<=[4] last_tile_dim_replicate}: partitions 0,1 hold
  // row tile 0, 2,3 row tile 1.
  auto s = ShardingAttr::getIota(&ctx, {2, 1, 2}, {4}, {}, true);
  std::optional<TileSharding> t = TileSharding::get(s, 2, 4);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->getReplication(), 2);
  EXPECT_EQ(SmallVector<int64_t>(t->getCoords(3)),
            (SmallVector<int64_t>{1, 0}));
  EXPECT_EQ(t->shardShape({7, 3}), (SmallVector<int64_t>{4, 3}));
  EXPECT_FALSE(t->isEven({7, 3}));
  // Across rows: one group per rank among the holders of a tile.
  EXPECT_EQ(t->groupsAcross({0}),
            (SmallVector<SmallVector<int64_t>>{{0, 2}, {1, 3}}));
  EXPECT_EQ(t->toAttr(&ctx), s);
  // Not a permutation of the partitions, a manual subgroup, another rank.
  EXPECT_FALSE(TileSharding::get(s, 2, 8));
  EXPECT_FALSE(TileSharding::get(s, 3, 4));
  EXPECT_FALSE(
      TileSharding::get(ShardingAttr::get(&ctx, ShardingKind::Manual), 2, 4));
  EXPECT_TRUE(TileSharding::get(ShardingAttr(), 2, 4)->isReplicated());
}

TEST_F(TileShardingTest, RandomShardingsAgainstTheirDefinition) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 500; ++iter) {
    int rank = rng() % 4 + 1;
    SmallVector<int64_t> dims;
    int64_t n = 1;
    for (int d = 0; d < rank; ++d) {
      dims.push_back(rng() % 3 + 1);
      n *= dims.back();
    }
    bool replicate = rng() % 2;
    if (replicate) {
      dims.push_back(rng() % 3 + 1);
      n *= dims.back();
    }
    SmallVector<int64_t> devices(n);
    std::iota(devices.begin(), devices.end(), 0);
    std::shuffle(devices.begin(), devices.end(), rng);
    auto s = ShardingAttr::getTiled(&ctx, dims, devices, replicate);
    std::optional<TileSharding> t = TileSharding::get(s, rank, n);
    ASSERT_TRUE(t) << iter;
    // Partition devices[i] sits at the row-major index i.
    for (int64_t i = 0; i < n; ++i) {
      int64_t rest = i;
      SmallVector<int64_t> index(dims.size());
      for (int d = int(dims.size()) - 1; d >= 0; --d) {
        index[d] = rest % dims[d];
        rest /= dims[d];
      }
      EXPECT_EQ(SmallVector<int64_t>(t->getCoords(devices[i])),
                SmallVector<int64_t>(index.begin(), index.begin() + rank))
          << iter;
    }
    // The attribute it writes has the same tiles.
    std::optional<TileSharding> back =
        TileSharding::get(t->toAttr(&ctx), rank, n);
    ASSERT_TRUE(back) << iter;
    EXPECT_TRUE(*back == *t) << iter;
    // Groups across a random set of dimensions.
    SmallVector<int64_t> across;
    for (int d = 0; d < rank; ++d)
      if (rng() % 2)
        across.push_back(d);
    int64_t size = 1;
    for (int64_t d : across)
      size *= dims[d];
    std::set<int64_t> seen;
    for (ArrayRef<int64_t> g : t->groupsAcross(across)) {
      ASSERT_EQ(int64_t(g.size()), size) << iter;
      std::set<SmallVector<int64_t>> places;
      for (int64_t p : g) {
        EXPECT_TRUE(seen.insert(p).second) << iter;
        SmallVector<int64_t> place;
        for (int d = 0; d < rank; ++d) {
          if (llvm::is_contained(across, d))
            place.push_back(t->getCoords(p)[d]);
          else
            EXPECT_EQ(t->getCoords(p)[d], t->getCoords(g[0])[d]) << iter;
        }
        places.insert(place);
      }
      EXPECT_EQ(int64_t(places.size()), size) << iter;
    }
    EXPECT_EQ(int64_t(seen.size()), n) << iter;
  }
}

/// The devices of `iota(n).reshape(reshape).transpose(perm)`, row-major.
static SmallVector<int64_t> transposedIota(ArrayRef<int64_t> reshape,
                                           ArrayRef<int64_t> perm) {
  int64_t n = 1;
  for (int64_t d : reshape)
    n *= d;
  SmallVector<int64_t> strides(reshape.size(), 1);
  for (int64_t d = int64_t(reshape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * reshape[d + 1];
  SmallVector<int64_t> devices;
  for (int64_t i = 0; i < n; ++i) {
    int64_t rest = i, id = 0;
    for (int64_t k = int64_t(perm.size()) - 1; k >= 0; --k) {
      id += rest % reshape[perm[k]] * strides[perm[k]];
      rest /= reshape[perm[k]];
    }
    devices.push_back(id);
  }
  return devices;
}

TEST_F(TileShardingTest, FindsTransposedIotas) {
  SmallVector<int64_t> reshape, perm;
  ASSERT_TRUE(findIotaForm({0, 2, 1, 3}, reshape, perm));
  EXPECT_EQ(reshape, (SmallVector<int64_t>{2, 2}));
  EXPECT_EQ(perm, (SmallVector<int64_t>{1, 0}));
  ASSERT_TRUE(findIotaForm({0, 1, 4, 5, 2, 3, 6, 7}, reshape, perm));
  EXPECT_EQ(reshape, (SmallVector<int64_t>{2, 2, 2}));
  EXPECT_EQ(perm, (SmallVector<int64_t>{1, 0, 2}));
  EXPECT_FALSE(findIotaForm({1, 0, 2, 3}, reshape, perm));
  EXPECT_FALSE(findIotaForm({0, 3, 1, 2}, reshape, perm));
  // The form found gives the devices back, for random transposed iotas.
  std::mt19937 rng(5);
  for (int iter = 0; iter < 300; ++iter) {
    SmallVector<int64_t> r, p;
    int rank = rng() % 4 + 1;
    for (int d = 0; d < rank; ++d)
      r.push_back(rng() % 4 + 1);
    p.resize(rank);
    std::iota(p.begin(), p.end(), 0);
    std::shuffle(p.begin(), p.end(), rng);
    SmallVector<int64_t> devices = transposedIota(r, p);
    if (devices.size() < 2)
      continue;
    ASSERT_TRUE(findIotaForm(devices, reshape, perm)) << iter;
    EXPECT_EQ(
        transposedIota(reshape, perm.empty() ? SmallVector<int64_t>{0} : perm),
        devices)
        << iter;
  }
}

} // namespace
