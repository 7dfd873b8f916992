//===- Rng.cpp - random numbers -------------------------------------------===//
//
// rng: uniform in [a, b) (floats and integers) or normal(mu, sigma) (Box-
// Muller), from a generator seeded with InterpreterOptions::seed and the
// number of rng ops run so far on the device, so a run is deterministic
// for a given seed (the values are implementation-defined and not XLA's).
// rng-bit-generator is a pure function of its state and gives XLA's bits:
// Threefry-2x32 (20 rounds) or Philox-4x32 (10 rounds; also for
// rng_default), laid out and advanced as XLA's expansion does.
// rng-get-and-update-state returns {state, 0} and adds `delta` to a
// per-device state that starts at the seed.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "llvm/ADT/TypeSwitch.h"

#include <array>
#include <cmath>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::runtime::eval;

namespace {
/// Philox-4x32 with 10 rounds: 128 random bits per (counter, key).
struct Philox {
  uint32_t key[2];
  uint64_t counterLo, counterHi;

  static void mulhilo(uint32_t a, uint32_t b, uint32_t &hi, uint32_t &lo) {
    uint64_t p = static_cast<uint64_t>(a) * b;
    hi = static_cast<uint32_t>(p >> 32);
    lo = static_cast<uint32_t>(p);
  }

  /// The block at counter (counterLo + i, counterHi).
  void block(uint64_t i, uint32_t out[4]) const {
    uint64_t lo = counterLo + i;
    uint64_t hi = counterHi + (lo < counterLo ? 1 : 0);
    uint32_t c[4] = {static_cast<uint32_t>(lo), static_cast<uint32_t>(lo >> 32),
                     static_cast<uint32_t>(hi),
                     static_cast<uint32_t>(hi >> 32)};
    uint32_t k0 = key[0], k1 = key[1];
    for (int round = 0; round < 10; ++round) {
      uint32_t hi0, lo0, hi1, lo1;
      mulhilo(0xD2511F53u, c[0], hi0, lo0);
      mulhilo(0xCD9E8D57u, c[2], hi1, lo1);
      uint32_t n[4] = {hi1 ^ c[1] ^ k0, lo1, hi0 ^ c[3] ^ k1, lo0};
      std::copy(n, n + 4, c);
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    std::copy(c, c + 4, out);
  }
};

/// A stream of 64-bit values for the rng op.
struct Stream {
  Philox philox;
  uint64_t next = 0;
  uint64_t bits() {
    uint32_t b[4];
    philox.block(next / 2, b);
    uint64_t v = next % 2 ? (uint64_t(b[3]) << 32 | b[2])
                          : (uint64_t(b[1]) << 32 | b[0]);
    ++next;
    return v;
  }
  /// Uniform in [0, 1).
  double uniform() { return static_cast<double>(bits() >> 11) * 0x1p-53; }
};
} // namespace

static FailureOr<Literal> rng(Interp &interp, RngOp op, const Literal &a,
                              const Literal &b) {
  auto result = makeResult(interp, op);
  if (failed(result))
    return failure();
  Literal &out = *result;
  uint64_t seed = interp.shared.options.seed;
  Stream s{{{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)},
            0,
            interp.rngCalls++},
           0};
  bool normal = op.getDistribution() == RngDistribution::rng_normal;
  ElementKind kind = out.getElementKind();
  for (int64_t i = 0, n = out.getNumElements(); i < n; ++i) {
    if (normal) {
      double u1 = 1.0 - s.uniform(), u2 = s.uniform();
      double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2 * M_PI * u2);
      out.setFloat(i, a.getFloat(0) + b.getFloat(0) * z);
    } else if (kind == ElementKind::Float) {
      double lo = a.getFloat(0), hi = b.getFloat(0);
      double v = lo + (hi - lo) * s.uniform();
      // Rounding may reach hi; stay in [lo, hi).
      out.setFloat(i, v);
      if (out.getFloat(i) >= hi && hi > lo)
        out.setFloat(i, lo);
    } else if (kind == ElementKind::Pred) {
      out.setInt(i, s.bits() & 1);
    } else {
      bool isUnsigned = kind == ElementKind::Unsigned;
      int64_t lo = a.getInt(0), hi = b.getInt(0);
      uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
      bool empty = isUnsigned
                       ? static_cast<uint64_t>(hi) <= static_cast<uint64_t>(lo)
                       : hi <= lo;
      uint64_t offset = empty ? 0 : s.bits() % range;
      out.setInt(i, static_cast<int64_t>(static_cast<uint64_t>(lo) + offset));
    }
  }
  return std::move(out);
}

/// Threefry-2x32 with 20 rounds on the counter (x0, x1) and key (k0, k1).
static std::array<uint32_t, 2> threefry(uint64_t counter, uint64_t key) {
  auto rotl = [](uint32_t v, int d) { return (v << d) | (v >> (32 - d)); };
  static const int rotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  uint32_t ks[3] = {static_cast<uint32_t>(key),
                    static_cast<uint32_t>(key >> 32), 0x1BD11BDAu};
  ks[2] ^= ks[0] ^ ks[1];
  uint32_t x0 = static_cast<uint32_t>(counter) + ks[0];
  uint32_t x1 = static_cast<uint32_t>(counter >> 32) + ks[1];
  for (int group = 0; group < 5; ++group) {
    for (int r = 0; r < 4; ++r) {
      x0 += x1;
      x1 = rotl(x1, rotations[(group % 2) * 4 + r]) ^ x0;
    }
    // Key injection: (ks[1], ks[2]), (ks[2], ks[0]), (ks[0], ks[1]), ...
    x0 += ks[(group + 1) % 3];
    x1 += ks[(group + 2) % 3] + static_cast<uint32_t>(group + 1);
  }
  return {x0, x1};
}

/// rng-bit-generator as XLA expands it (a pure function of the state).
/// three_fry: key state[0], counter state[1]; 32-bit (and narrower, which
/// keep the low bits) values pair up along the first even dimension (else
/// the largest), each counter giving two neighbours; 64-bit values use one
/// counter each. philox (and default): key state[0], 128-bit counter
/// (state[1], state[2]) or (state[1], state[0]) for a u64[2] state; each
/// counter gives four 32-bit words (two 64-bit values) in order.
static FailureOr<Literal> rngBitGenerator(Interp &interp, RngBitGeneratorOp op,
                                          const Literal &state) {
  auto tt = dyn_cast<TupleType>(op.getType());
  if (!tt || tt.size() != 2 || state.getNumElements() < 2)
    return interp.error(op, "needs a u64 state of at least 2 elements and a "
                            "(state, bits) result");
  Literal newState = state;
  Literal bits = Literal::zeros(tt.getType(1));
  unsigned width = getElementBitWidth(bits.getElementType());
  if (bits.getElementKind() == ElementKind::Complex)
    width *= 2;
  if (width > 64)
    return interp.error(op, "needs elements of at most 64 bits");
  bool wide = width > 32;
  int64_t n = bits.getNumElements();
  uint64_t key = static_cast<uint64_t>(state.getInt(0));
  auto store = [&](int64_t i, uint64_t v) {
    bits.setBits(i, APInt(64, v).trunc(width));
  };
  if (op.getAlgorithm() == RngAlgorithm::rng_three_fry) {
    uint64_t counter = static_cast<uint64_t>(state.getInt(1));
    if (wide) {
      for (int64_t i = 0; i < n; ++i) {
        auto x = threefry(counter + i, key);
        store(i, uint64_t(x[0]) | uint64_t(x[1]) << 32);
      }
      newState.setInt(1, static_cast<int64_t>(counter + n));
    } else {
      ArrayRef<int64_t> shape = bits.getShape();
      int64_t split = -1;
      for (int64_t d = 0; d < bits.getRank() && split < 0; ++d)
        if (shape[d] % 2 == 0)
          split = d;
      if (split < 0) // no even dimension: the first largest one
        for (int64_t d = 0; d < bits.getRank(); ++d)
          if (split < 0 || shape[d] > shape[split])
            split = d;
      SmallVector<int64_t> half(shape);
      if (split >= 0)
        half[split] = (shape[split] + 1) / 2;
      SmallVector<int64_t> idx(shape.size(), 0);
      for (int64_t i = 0; i < n; ++i, nextIndex(idx, shape)) {
        int64_t lin = 0, comp = 0;
        for (int64_t d = 0; d < bits.getRank(); ++d) {
          int64_t h = d == split ? idx[d] / 2 : idx[d];
          lin = lin * half[d] + h;
        }
        if (split >= 0)
          comp = idx[split] % 2;
        store(i, threefry(counter + lin, key)[comp]);
      }
      newState.setInt(1, static_cast<int64_t>(counter + numElements(half)));
    }
  } else {
    bool three = state.getNumElements() >= 3;
    Philox p{{static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)},
             static_cast<uint64_t>(state.getInt(1)),
             static_cast<uint64_t>(state.getInt(three ? 2 : 0))};
    uint32_t block[4];
    for (int64_t i = 0; i < n; ++i) {
      if (wide) {
        p.block(i / 2, block);
        int64_t w = (i % 2) * 2;
        store(i, uint64_t(block[w]) | uint64_t(block[w + 1]) << 32);
      } else {
        p.block(i / 4, block);
        store(i, block[i % 4]);
      }
    }
    uint64_t blocks = wide ? (n + 1) / 2 : (n + 3) / 4;
    uint64_t lo = p.counterLo + blocks;
    newState.setInt(1, static_cast<int64_t>(lo));
    if (three)
      newState.setInt(
          2, static_cast<int64_t>(p.counterHi + (lo < p.counterLo ? 1 : 0)));
  }
  std::vector<Literal> e;
  e.push_back(std::move(newState));
  e.push_back(std::move(bits));
  return Literal::tuple(std::move(e));
}

EvalResult eval::evalRngOp(Interp &interp, Operation *op, Operands operands) {
  return llvm::TypeSwitch<Operation *, EvalResult>(op)
      .Case([&](RngOp r) -> EvalResult {
        if (operands.size() != 2)
          return interp.error(op, "needs two scalar operands");
        return rng(interp, r, *operands[0], *operands[1]);
      })
      .Case([&](RngBitGeneratorOp r) {
        return rngBitGenerator(interp, r, *operands[0]);
      })
      .Case([&](RngGetAndUpdateStateOp r) -> EvalResult {
        if (!interp.rngStateInitialized) {
          interp.rngState = interp.shared.options.seed;
          interp.rngStateInitialized = true;
        }
        Literal out = Literal::zeros(op->getResult(0).getType());
        out.setInt(0, static_cast<int64_t>(interp.rngState));
        interp.rngState += static_cast<uint64_t>(r.getDelta());
        return out;
      })
      .Default([](Operation *) -> EvalResult { return std::nullopt; });
}
