//===- RadixSortTest.cpp - CUB's radix order of sort keys -----------------===//
//
// A random oracle for the key order thunk.radix_sort and the interpreter's
// CUB sort calls share: the unsigned radix key of every element type must
// order as CUB orders the keys (integers by value, signless ones signed;
// floats by their total order: -NaN < -inf < ... < -0 < +0 < ... < inf <
// NaN), and the runtime's and the dialect's functions must agree.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Runtime/Thunk/RadixSort.h"
#include "Hlo/Dialect/Hlo/HloCubSortCalls.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <random>

using namespace mlir;

namespace {

/// The reference order of two keys of `type` given by their bits: -1, 0, 1.
int compareKeys(Type type, uint64_t a, uint64_t b) {
  unsigned width = type.getIntOrFloatBitWidth();
  uint64_t mask = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  a &= mask;
  b &= mask;
  auto cmp = [](auto x, auto y) { return x < y ? -1 : x > y ? 1 : 0; };
  if (auto f = dyn_cast<FloatType>(type)) {
    // Total order: sign-magnitude, negative values reversed.
    uint64_t sign = uint64_t(1) << (width - 1);
    bool na = a & sign, nb = b & sign;
    if (na != nb)
      return na ? -1 : 1;
    return na ? cmp(b & ~sign, a & ~sign) : cmp(a, b);
  }
  if (type.isUnsignedInteger())
    return cmp(a, b);
  auto extend = [&](uint64_t v) {
    return int64_t(v << (64 - width)) >> (64 - width);
  };
  return cmp(extend(a), extend(b));
}

TEST(RadixSortTest, KeysOrderAsCub) {
  MLIRContext ctx;
  Builder b(&ctx);
  std::mt19937_64 rng(42);
  SmallVector<Type> types = {b.getF16Type(),
                             b.getBF16Type(),
                             b.getF32Type(),
                             b.getF64Type(),
                             b.getIntegerType(8),
                             b.getIntegerType(16),
                             b.getIntegerType(32),
                             b.getIntegerType(64),
                             IntegerType::get(&ctx, 8, IntegerType::Unsigned),
                             IntegerType::get(&ctx, 16, IntegerType::Unsigned),
                             IntegerType::get(&ctx, 32, IntegerType::Unsigned),
                             IntegerType::get(&ctx, 64, IntegerType::Unsigned),
                             IntegerType::get(&ctx, 32, IntegerType::Signed)};
  for (Type type : types) {
    unsigned width = type.getIntOrFloatBitWidth();
    uint64_t sign = uint64_t(1) << (width - 1);
    // Random bits, and the edges: zeros, the sign bit, all ones.
    SmallVector<uint64_t> keys = {0, sign, sign - 1, ~uint64_t(0), 1, sign | 1};
    for (int i = 0; i < 200; ++i)
      keys.push_back(rng());
    for (uint64_t x : keys)
      for (uint64_t y : keys) {
        uint64_t kx = thunk::radixSortKey(type, x),
                 ky = thunk::radixSortKey(type, y);
        int expected = compareKeys(type, x, y);
        int got = kx < ky ? -1 : kx > ky ? 1 : 0;
        ASSERT_EQ(got, expected)
            << "type bits " << width << ": " << x << " vs " << y;
        ASSERT_EQ(hlo::cubRadixKey(type, x), kx);
      }
  }
}

} // namespace
