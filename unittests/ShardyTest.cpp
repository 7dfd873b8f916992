//===- ShardyTest.cpp - Shardy's shardings as HLO shardings ---------------===//
//
// HloShardy.h: the forms JAX writes read as written, XLA 0.10.2's HLO
// shardings for them, clear errors for malformed ones, and random
// shardings (sub-axes, explicit replication, meshes with their own device
// order) against Shardy's definition: a device's tile along a dimension is
// its coordinates along the axes sharding it, major to minor, a sub-axis
// "x":(pre)size being the digit of x's coordinate of that size after the
// pre major ones.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloShardy.h"
#include "Hlo/Dialect/Hlo/HloTileSharding.h"

#include "gtest/gtest.h"

#include <numeric>
#include <random>

using namespace mlir;
using namespace mlir::hlo;

namespace {

class ShardyTest : public ::testing::Test {
protected:
  ShardyTest() { ctx.loadDialect<HloDialect>(); }

  /// `text` (one sharding) on `mesh`, as XLA prints the HLO sharding.
  std::string convert(StringRef text, const SdyMesh &mesh, int64_t rank,
                      ArrayRef<std::string> manual = {}) {
    std::string error;
    auto shardings = parseSdyShardings(text, error);
    if (failed(shardings))
      return "parse error: " + error;
    auto s = toHloSharding(&ctx, shardings->front(), rank, mesh, manual, error);
    if (failed(s))
      return "error: " + error;
    std::string out;
    llvm::raw_string_ostream os(out);
    s->printHlo(os);
    return out;
  }

  MLIRContext ctx;
};

SdyMesh mesh2x2() {
  std::string error;
  auto meshes =
      parseSdyMeshes(R"({mesh = #sdy.mesh<["data"=2, "model"=2]>})", error);
  return (*meshes)["mesh"];
}

TEST_F(ShardyTest, JaxFormsAsXla) {
  SdyMesh mesh = mesh2x2();
  EXPECT_EQ(mesh.getNumDevices(), 4);
  // JAX 0.10.2's parameters and XLA 0.10.2's shardings for them.
  EXPECT_EQ(convert(R"(#sdy.sharding<@mesh, [{"data"}, {"model"}]>)", mesh, 2),
            "{devices=[2,2]<=[4]}");
  EXPECT_EQ(convert(R"(#sdy.sharding<@mesh, [{"model"}, {}]>)", mesh, 2),
            "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}");
  EXPECT_EQ(convert(R"(#sdy.sharding_per_value<[<@mesh, []>]>)", mesh, 0),
            "{replicated}");
  // shard_map's local values: every axis manual, or "model" only.
  EXPECT_EQ(convert(R"(#sdy.sharding<@mesh, [{"data"}, {"model"}]>)", mesh, 2,
                    {"data", "model"}),
            "{manual}");
  EXPECT_EQ(
      convert(R"(#sdy.sharding<@mesh, [{}, {"model"}]>)", mesh, 2, {"model"}),
      "{devices=[1,1,2,2]<=[2,2]T(1,0) last_tile_dims={manual, "
      "replicated}}");
  EXPECT_EQ(
      convert(R"(#sdy.sharding<@mesh, [{"data"}, {}]>)", mesh, 2, {"model"}),
      "{devices=[2,1,2]<=[4] last_tile_dims={manual}}");
  std::string error;
  auto axes =
      parseSdyManualAxes(R"(#sdy<manual_axes{"data", "model"}>)", error);
  ASSERT_TRUE(succeeded(axes));
  EXPECT_EQ(*axes, (SmallVector<std::string>{"data", "model"}));
  // Open dimensions and priorities change nothing.
  EXPECT_EQ(convert(R"(#sdy.sharding<@mesh, [{"data", ?}p1, {?}]>)", mesh, 2),
            "{devices=[2,1,2]<=[4] last_tile_dim_replicate}");
}

TEST_F(ShardyTest, Errors) {
  SdyMesh mesh = mesh2x2();
  auto fails = [&](StringRef text, int64_t rank, StringRef why) {
    std::string got = convert(text, mesh, rank);
    EXPECT_NE(got.find(why.str()), std::string::npos) << got;
  };
  fails(R"(#sdy.sharding<@mesh, [{"data"}]>)", 2,
        "a Shardy sharding of 1 dimensions for an array of rank 2");
  fails(R"(#sdy.sharding<@mesh, [{"batch"}]>)", 1, "the mesh has no axis");
  fails(R"(#sdy.sharding<@mesh, [{"data"}, {"data"}]>)", 2, "used twice");
  fails(R"(#sdy.sharding<@mesh, [{"data":(1)3}]>)", 1, "does not divide");
  fails(R"(#sdy.sharding<@mesh, [{}], unreduced={"data"}>)", 1,
        "unreduced axes are not supported yet");
  fails(R"(#sdy.sharding<@mesh, [{"data"}>)", 1, "parse error: expected ']'");
  fails(R"(#sdy.sharding<@mesh, [{}], color={}>)", 1,
        "unknown sharding field 'color'");
  std::string error;
  EXPECT_TRUE(
      failed(parseSdyMeshes(R"({m = #sdy.mesh<["a"=2, "a"=2]>})", error)));
  EXPECT_NE(error.find("repeated"), std::string::npos) << error;
  error.clear();
  EXPECT_TRUE(failed(parseSdyMeshes(
      R"({m = #sdy.mesh<["a"=2], device_ids=[0, 1, 2]>})", error)));
  EXPECT_NE(error.find("device_ids"), std::string::npos) << error;
}

/// Random meshes and shardings against Shardy's definition.
TEST_F(ShardyTest, RandomShardingsAgainstShardysDefinition) {
  std::mt19937 rng(11);
  const int64_t sizes[] = {1, 2, 3, 4, 6, 8};
  for (int iter = 0; iter < 400; ++iter) {
    SdyMesh mesh;
    int numAxes = rng() % 3 + 1;
    for (int a = 0; a < numAxes; ++a) {
      mesh.axisNames.push_back("a" + std::to_string(a));
      mesh.axisSizes.push_back(sizes[rng() % 6]);
    }
    int64_t n = mesh.getNumDevices();
    if (rng() % 2) {
      mesh.deviceIds.resize(n);
      std::iota(mesh.deviceIds.begin(), mesh.deviceIds.end(), 0);
      std::shuffle(mesh.deviceIds.begin(), mesh.deviceIds.end(), rng);
    }
    int64_t rank = rng() % 3 + 1;
    SdyTensorSharding s;
    s.meshName = "m";
    s.dims.resize(rank);
    // Each axis: unused, replicated, whole on a dimension, or split in two
    // sub-axes each used somewhere.
    for (int a = 0; a < numAxes; ++a) {
      int64_t size = mesh.axisSizes[a];
      auto place = [&](SdyAxisRef ref) {
        int where = rng() % (rank + 2);
        if (where == rank)
          s.replicated.push_back(ref);
        else if (where < rank) {
          auto &dim = s.dims[where];
          dim.insert(dim.begin() + rng() % (dim.size() + 1), ref);
        }
      };
      int64_t split = 0;
      for (int64_t f : {2, 3, 4})
        if (size % f == 0 && size > f && rng() % 2)
          split = f;
      if (split) {
        place({mesh.axisNames[a], 1, split});
        place({mesh.axisNames[a], split, size / split});
      } else {
        place({mesh.axisNames[a], 1, 0});
      }
    }
    std::string error;
    FailureOr<ShardingAttr> h = toHloSharding(&ctx, s, rank, mesh, {}, error);
    ASSERT_TRUE(succeeded(h)) << error;
    std::optional<TileSharding> t = TileSharding::get(*h, rank, n);
    ASSERT_TRUE(t) << "not read back";
    // Shardy's definition, device by device.
    int64_t tiles = 1;
    for (int64_t position = 0; position < n; ++position) {
      SmallVector<int64_t> coord(numAxes);
      for (int64_t a = numAxes - 1, rest = position; a >= 0; --a) {
        coord[a] = rest % mesh.axisSizes[a];
        rest /= mesh.axisSizes[a];
      }
      int64_t device =
          mesh.deviceIds.empty() ? position : mesh.deviceIds[position];
      tiles = 1;
      for (int64_t d = 0; d < rank; ++d) {
        int64_t index = 0, count = 1;
        for (const SdyAxisRef &ref : s.dims[d]) {
          int64_t a = ref.name[1] - '0';
          int64_t full = mesh.axisSizes[a];
          int64_t size = ref.size ? ref.size : full;
          int64_t value = coord[a] / (full / (ref.preSize * size)) % size;
          index = index * size + value;
          count *= size;
        }
        tiles *= count;
        ASSERT_EQ(t->getTiles(d), count) << "dimension " << d;
        ASSERT_EQ(t->getCoords(device)[d], index)
            << "device " << device << " dimension " << d;
      }
    }
    EXPECT_EQ(t->getReplication(), n / tiles);
  }
}

} // namespace
