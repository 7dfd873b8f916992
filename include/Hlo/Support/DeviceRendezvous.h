//===- DeviceRendezvous.h - where simulated devices meet --------*- C++ -*-===//
//
// The meeting point of the devices of one run, each in a thread of its
// own, in their collectives: the reference interpreter's simulated devices
// and the host runtime's. Every device arrives with the operation it
// reached; the last one to arrive checks that all reached the same one and
// runs the collective for all of them while the others wait. A device that
// fails stops the others; a device that ends its run leaves the others'
// next collective unmatched. Either way no device waits for ever.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_SUPPORT_DEVICERENDEZVOUS_H
#define HLO_SUPPORT_DEVICERENDEZVOUS_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLExtras.h"

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace mlir::hlo {

class DeviceRendezvous {
public:
  /// The error of a device woken because another device failed.
  static constexpr const char *kStopped =
      "stopped because another device failed";
  /// The error of a device waiting in a collective that another device will
  /// never reach (it ran to the end).
  static constexpr const char *kUnmatched =
      "the other devices did not reach this collective (they ran to the end "
      "without it)";

  explicit DeviceRendezvous(int64_t devices) : ops(devices, nullptr) {}

  /// Device `device` arrives at `op`. When every device has, the last one
  /// runs `combine` (which may read what each device left before arriving
  /// and write what each takes after) and every device returns. Fails with
  /// `error`: kStopped, kUnmatched, devices at different operations, or
  /// what `combine` failed with (for every device).
  LogicalResult meet(int64_t device, Operation *op,
                     function_ref<LogicalResult(std::string &)> combine,
                     std::string &error) {
    std::unique_lock<std::mutex> lock(mutex);
    if (stopped || finished) {
      error = stopped ? kStopped : kUnmatched;
      return failure();
    }
    ops[device] = op;
    uint64_t mine = generation;
    if (++arrived == int64_t(ops.size())) {
      combineError.clear();
      if (!llvm::all_equal(ops))
        combineError = "the devices reached different collectives";
      else if (failed(combine(combineError)) && combineError.empty())
        combineError = "collective failed";
      arrived = 0;
      ++generation;
      changed.notify_all();
    } else {
      changed.wait(lock, [&] {
        return generation != mine || stopped || finished > 0;
      });
      if (generation == mine) {
        error = stopped ? kStopped : kUnmatched;
        return failure();
      }
    }
    if (!combineError.empty()) {
      error = combineError;
      return failure();
    }
    return success();
  }

  /// A device failed: every device waiting, or arriving later, fails.
  void stop() {
    std::lock_guard<std::mutex> lock(mutex);
    stopped = true;
    changed.notify_all();
  }

  /// A device ran to the end: nobody can complete a collective any more.
  void finish() {
    std::lock_guard<std::mutex> lock(mutex);
    ++finished;
    changed.notify_all();
  }

private:
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<Operation *> ops;
  int64_t arrived = 0, finished = 0;
  uint64_t generation = 0;
  bool stopped = false;
  std::string combineError;
};

} // namespace mlir::hlo

#endif // HLO_SUPPORT_DEVICERENDEZVOUS_H
