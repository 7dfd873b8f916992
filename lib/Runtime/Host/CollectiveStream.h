//===- CollectiveStream.h - a device's collective stream --------*- C++ -*-===//
//
// Private to lib/Runtime/Host: the host runtime's model of the stream XLA
// runs a device's collectives on. Its collectives run in program order on
// a thread of their own: an asynchronous one (`async_id`) is queued and
// the program goes on until its thunk.collective_done waits for it; a
// synchronous one is queued and waited for at once, so that every device
// meets the others in the same order.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_RUNTIME_HOST_COLLECTIVESTREAM_H
#define HLO_LIB_RUNTIME_HOST_COLLECTIVESTREAM_H

#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/DenseMap.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace mlir::hlo {

class CollectiveStream {
public:
  using Task = std::function<LogicalResult(std::string &)>;

  ~CollectiveStream() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      closing = true;
    }
    changed.notify_all();
    if (worker.joinable())
      worker.join();
  }

  /// Queues `task` behind the collectives already queued; returns the
  /// ticket to wait for.
  uint64_t enqueue(Task task) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!worker.joinable())
      worker = std::thread([this] { loop(); });
    queue.emplace_back(++issued, std::move(task));
    changed.notify_all();
    return issued;
  }

  /// Waits until the task of `ticket` has run; its failure, if any.
  LogicalResult wait(uint64_t ticket, std::string &why) {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return completed >= ticket; });
    auto it = failures.find(ticket);
    if (it == failures.end())
      return success();
    why = it->second;
    failures.erase(it);
    return failure();
  }

private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
      changed.wait(lock, [&] { return closing || !queue.empty(); });
      if (queue.empty())
        return;
      auto [ticket, task] = std::move(queue.front());
      queue.pop_front();
      lock.unlock();
      std::string why;
      bool ok = succeeded(task(why));
      lock.lock();
      if (!ok)
        failures[ticket] = why;
      completed = ticket;
      changed.notify_all();
    }
  }

  std::thread worker;
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::pair<uint64_t, Task>> queue;
  uint64_t issued = 0, completed = 0;
  llvm::DenseMap<uint64_t, std::string> failures;
  bool closing = false;
};

} // namespace mlir::hlo

#endif // HLO_LIB_RUNTIME_HOST_COLLECTIVESTREAM_H
