//===- Rng.cpp - random numbers -------------------------------------------===//
//
// rng: uniform in [a, b) (floats and integers) or normal(mu, sigma) (Box-
// Muller), from a generator seeded with InterpreterOptions::seed and the
// number of rng ops run so far on the device, so a run is deterministic
// for a given seed. rng-bit-generator is a pure function of its state: the
// bits come from Philox-4x32-10 with the key in state[0] and the counter
// from state[1]; the new state is the state with the counter advanced past
// the blocks used (for every algorithm: the values are not XLA's).
// rng-get-and-update-state returns {state, 0} and adds `delta` to a
// per-device state that starts at the seed.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "llvm/ADT/TypeSwitch.h"

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
                     static_cast<uint32_t>(hi), static_cast<uint32_t>(hi >> 32)};
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
            0, interp.rngCalls++},
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
      bool empty = isUnsigned ? static_cast<uint64_t>(hi) <=
                                    static_cast<uint64_t>(lo)
                              : hi <= lo;
      uint64_t offset = empty ? 0 : s.bits() % range;
      out.setInt(i, static_cast<int64_t>(static_cast<uint64_t>(lo) + offset));
    }
  }
  return std::move(out);
}

static FailureOr<Literal> rngBitGenerator(Interp &interp, Operation *op,
                                          const Literal &state) {
  auto tt = dyn_cast<TupleType>(op->getResult(0).getType());
  if (!tt || tt.size() != 2 || state.getNumElements() < 2)
    return interp.error(op, "needs a u64 state of at least 2 elements and a "
                            "(state, bits) result");
  Literal newState = state;
  Literal bits = Literal::zeros(tt.getType(1));
  Philox p{{static_cast<uint32_t>(state.getInt(0)),
            static_cast<uint32_t>(static_cast<uint64_t>(state.getInt(0)) >> 32)},
           static_cast<uint64_t>(state.getInt(1)),
           state.getNumElements() > 2 ? static_cast<uint64_t>(state.getInt(2))
                                      : 0};
  unsigned width = getElementBitWidth(bits.getElementType());
  if (bits.getElementKind() == ElementKind::Complex)
    width *= 2;
  // One 32-bit word per element of up to 32 bits, two for wider ones.
  unsigned words = width > 32 ? 2 : 1;
  uint64_t word = 0;
  uint32_t block[4];
  auto nextWord = [&]() {
    if (word % 4 == 0)
      p.block(word / 4, block);
    return block[word++ % 4];
  };
  for (int64_t i = 0, n = bits.getNumElements(); i < n; ++i) {
    uint64_t v = nextWord();
    if (words == 2)
      v |= static_cast<uint64_t>(nextWord()) << 32;
    bits.setBits(i, APInt(64, v).zextOrTrunc(width));
  }
  uint64_t blocks = (word + 3) / 4;
  newState.setInt(1, static_cast<int64_t>(p.counterLo + blocks));
  if (p.counterLo + blocks < p.counterLo && state.getNumElements() > 2)
    newState.setInt(2, static_cast<int64_t>(p.counterHi + 1));
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
      .Case([&](RngBitGeneratorOp) {
        return rngBitGenerator(interp, op, *operands[0]);
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
