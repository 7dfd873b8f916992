//===- DeviceGroupsTest.cpp - XLA's collective group modes ----------------===//
//
// getDeviceGroups and getDevicePairs (HloDeviceGroups.h) on the group
// modes of XLA's collectives, over 2 replicas x 3 partitions (device id =
// replica * 3 + partition), with their errors.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Translate/HloText.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// The groups of the all-reduce (or other collective) `instr` of a module of
/// 2 replicas x 3 partitions, as text: "0,3;1,4;2,5" (or the error).
std::string groupsOf(const std::string &instr, bool globalFlag = true) {
  DialectRegistry registry;
  registerHloTranslateDialects(registry);
  MLIRContext ctx(registry);
  std::string text = "HloModule m, replica_count=2, num_partitions=3\n\n"
                     "add {\n  a = f32[] parameter(0)\n  b = f32[] "
                     "parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n\n"
                     "ENTRY e {\n  x = f32[6] parameter(0)\n  ROOT r = " +
                     instr + "\n}\n";
  OwningOpRef<ModuleOp> module = importHloText(text, &ctx);
  if (!module)
    return "import failed";
  Operation *op = nullptr;
  module->walk([&](Operation *o) {
    if (o->hasAttr("replica_groups") || o->hasAttr("source_target_pairs"))
      op = o;
  });
  std::string error, out;
  if (auto pairs = op->getAttrOfType<ArrayAttr>("source_target_pairs")) {
    auto p = getDevicePairs(op, pairs, 2, 3, error);
    if (failed(p))
      return error;
    for (auto [s, t] : *p)
      out += (out.empty() ? "" : ";") + std::to_string(s) + ">" +
             std::to_string(t);
    return out;
  }
  auto groups = getDeviceGroups(op, 2, 3, globalFlag, error);
  if (failed(groups))
    return error;
  for (auto &g : *groups) {
    out += out.empty() ? "" : ";";
    for (auto [i, d] : llvm::enumerate(g))
      out += (i ? "," : "") + std::to_string(d);
  }
  return out;
}

TEST(DeviceGroupsTest, GroupModes) {
  // No channel: replicas within each partition.
  EXPECT_EQ(groupsOf("f32[6] all-reduce(x), replica_groups={}, to_apply=add"),
            "0,3;1,4;2,5");
  EXPECT_EQ(
      groupsOf("f32[6] all-reduce(x), replica_groups={{1,0}}, to_apply=add"),
      "3,0;4,1;5,2");
  // A channel without use_global_device_ids: the listed replicas on every
  // partition, replica-major.
  EXPECT_EQ(groupsOf("f32[6] all-reduce(x), channel_id=1, "
                     "replica_groups={{1,0}}, to_apply=add"),
            "3,4,5,0,1,2");
  // use_global_device_ids: device ids.
  EXPECT_EQ(groupsOf("f32[6] all-reduce(x), channel_id=1, "
                     "use_global_device_ids=true, "
                     "replica_groups={{5,0},{1,2},{3,4}}, to_apply=add"),
            "5,0;1,2;3,4");
  // A channel on an op without the global flag: partitions within each
  // replica.
  EXPECT_EQ(groupsOf("f32[6] all-to-all(x), channel_id=1, "
                     "replica_groups={{2,0,1}}, dimensions={0}",
                     /*globalFlag=*/false),
            "2,0,1;5,3,4");
}

TEST(DeviceGroupsTest, Pairs) {
  // Replica ids on every partition, partition ids on every replica.
  EXPECT_EQ(groupsOf("f32[6] collective-permute(x), "
                     "source_target_pairs={{0,1}}"),
            "0>3;1>4;2>5");
  EXPECT_EQ(groupsOf("f32[6] collective-permute(x), channel_id=1, "
                     "source_target_pairs={{2,0}}"),
            "2>0;5>3");
}

TEST(DeviceGroupsTest, Errors) {
  EXPECT_EQ(
      groupsOf("f32[6] all-reduce(x), replica_groups={{0,2}}, to_apply=add"),
      "replica group id 2 is out of range [0, 2)");
  EXPECT_EQ(groupsOf("f32[6] all-reduce(x), channel_id=1, "
                     "use_global_device_ids=true, replica_groups={{0,1}}, "
                     "to_apply=add"),
            "replica groups must cover every device exactly once");
  EXPECT_EQ(groupsOf("f32[6] collective-permute(x), channel_id=1, "
                     "source_target_pairs={{0,3}}"),
            "source_target_pairs id 3 is out of range [0, 3) (partition "
            "ids: the op has a channel_id)");
}

} // namespace
