//===- Executable.cpp - what the thunk runtimes share ---------------------===//

#include "Hlo/Runtime/Thunk/Executable.h"

#include <algorithm>
#include <cstring>

using namespace mlir;
using namespace mlir::thunk;

Executable::~Executable() = default;

FailureOr<ArrayRef<ParameterBytes>>
Executable::parametersOf(int64_t d, int64_t devices,
                         ArrayRef<ParameterBytes> parameters,
                         std::string &error) const {
  if (!deviceIO || deviceIO->parameters.empty())
    return parameters;
  if (int64_t(deviceIO->parameters.size()) != devices) {
    error = "parameters given for " +
            std::to_string(deviceIO->parameters.size()) +
            " devices, the program runs on " + std::to_string(devices);
    return failure();
  }
  return ArrayRef<ParameterBytes>(deviceIO->parameters[d]);
}

LogicalResult DeviceTransfers::run(
    Operation *op, function_ref<TransferValue(ValueRange)> read,
    function_ref<void(ValueRange, const TransferValue &)> write,
    std::string &error) {
  auto fail = [&](const Twine &why) {
    error = (op->getName().getStringRef() + ": " + why).str();
    return failure();
  };
  // Writes `value` into `slices` when it fits them.
  auto store = [&](ValueRange slices, const TransferValue &value) {
    if (value.size() != slices.size())
      return fail("the value has " + Twine(value.size()) +
                  " arrays, the thunk writes " + Twine(slices.size()));
    for (auto [v, bytes] : llvm::zip_equal(slices, value))
      if (int64_t(bytes.size()) !=
          getStorageBytes(cast<MemRefType>(v.getType())))
        return fail("an array of " + Twine(bytes.size()) +
                    " bytes does not fit a slice of " +
                    Twine(getStorageBytes(cast<MemRefType>(v.getType()))) +
                    " bytes");
    write(slices, value);
    return success();
  };
  if (auto infeed = dyn_cast<InfeedOp>(op)) {
    size_t given = transfers ? transfers->infeed.size() : 0;
    if (infeedNext >= given)
      return fail("the infeed queue is empty (" + Twine(given) +
                  " values given, all read)");
    return store(infeed.getOutputs(), transfers->infeed[infeedNext++]);
  }
  if (auto outfeed = dyn_cast<OutfeedOp>(op)) {
    TransferValue value = read(outfeed.getInputs());
    if (transfers)
      transfers->outfeed[device].push_back(std::move(value));
    return success();
  }
  if (auto send = dyn_cast<SendOp>(op)) {
    TransferValue value = read(send.getInputs());
    if (!send.getIsHostTransfer())
      mailbox[send.getChannelId()].push_back(std::move(value));
    else if (transfers)
      transfers->toHost[device].push_back(
          {send.getChannelId(), std::move(value)});
    return success();
  }
  auto recv = cast<RecvOp>(op);
  if (recv.getIsHostTransfer()) {
    int64_t channel = recv.getChannelId();
    size_t &next = fromHostNext[channel];
    const std::vector<TransferValue> *given = nullptr;
    if (transfers) {
      auto it = transfers->fromHost.find(channel);
      if (it != transfers->fromHost.end())
        given = &it->second;
    }
    size_t count = given ? given->size() : 0;
    if (next >= count)
      return fail("the host has no value for channel " + Twine(channel) + " (" +
                  Twine(count) +
                  " given, all read; hlo-run "
                  "--host-recv)");
    return store(recv.getOutputs(), (*given)[next++]);
  }
  std::deque<TransferValue> &queue = mailbox[recv.getChannelId()];
  if (queue.empty())
    return fail("nothing was sent on channel " + Twine(recv.getChannelId()) +
                " (no host or peer here to receive from)");
  TransferValue value = std::move(queue.front());
  queue.pop_front();
  return store(recv.getOutputs(), value);
}

std::string RunStats::summary() const {
  std::string s = std::to_string(kernels) + " kernel launches, " +
                  std::to_string(gemms) + " GEMMs, " + std::to_string(copies) +
                  " copies, " + std::to_string(iterations) +
                  " loop iterations on a " + std::to_string(arenaBytes) +
                  "-byte arena; " + std::to_string(memsets) + " memsets, " +
                  std::to_string(branches) + " conditionals";
  if (convolutions)
    s += ", " + std::to_string(convolutions) + " convolutions";
  if (ffts)
    s += ", " + std::to_string(ffts) + " FFTs";
  if (solvers)
    s += ", " + std::to_string(solvers) + " solver calls";
  if (sorts)
    s += ", " + std::to_string(sorts) + " radix sorts";
  if (collectives)
    s += ", " + std::to_string(collectives) + " collectives";
  if (graphs)
    s += ", " + std::to_string(graphs) + " command buffers as graphs";
  if (transposesLeftOut)
    s += ", " + std::to_string(transposesLeftOut) +
         " filter transposes left out";
  if (parametersInPlace)
    s += ", " + std::to_string(parametersInPlace) + " parameters read in place";
  if (hostMemoryBytes)
    s += ", " + std::to_string(hostMemoryBytes) + " bytes in host memory";
  return s;
}

void RunStats::record(StringRef name, double seconds) {
  auto [it, inserted] = timeIndex.try_emplace(name, thunkTimes.size());
  if (inserted)
    thunkTimes.push_back({name.str(), 0, 0});
  ThunkTime &t = thunkTimes[it->second];
  ++t.count;
  t.seconds += seconds;
}

void RunStats::sortTimes() {
  std::stable_sort(thunkTimes.begin(), thunkTimes.end(),
                   [](const ThunkTime &a, const ThunkTime &b) {
                     return a.seconds > b.seconds;
                   });
  timeIndex.clear();
  for (auto [i, t] : llvm::enumerate(thunkTimes))
    timeIndex[t.name] = i;
}

int64_t mlir::thunk::layOutArena(
    ModuleOp module, SmallVectorImpl<std::pair<AllocationOp, int64_t>> &offsets,
    std::optional<int64_t> memorySpace) {
  int64_t size = 0;
  for (auto alloc : module.getOps<AllocationOp>()) {
    if (memorySpace &&
        int64_t(alloc.getMemorySpace().value_or(0)) != *memorySpace)
      continue;
    int64_t align = std::max<int64_t>(alloc.getAlignment(), kArenaAlignment);
    size = llvm::alignTo(size, align);
    offsets.push_back({alloc, size});
    size += alloc.getSize();
  }
  return size;
}

LogicalResult mlir::thunk::constantBytes(AllocationOp alloc,
                                         std::vector<uint8_t> &bytes,
                                         std::string &error) {
  auto dense =
      dyn_cast_or_null<DenseElementsAttr>(alloc.getValue().value_or(nullptr));
  if (!dense || dense.getElementType().isInteger(1)) {
    error = "thunk.allocation @" + alloc.getSymName().str() +
            ": a constant must be a dense array of bytes";
    return failure();
  }
  ArrayRef<char> raw = dense.getRawData();
  // Read by every device's thread: no type is made here.
  int64_t size =
      getStorageBytes(dense.getType().getShape(), dense.getElementType());
  bytes.resize(size);
  for (int64_t i = 0; i < size && !raw.empty(); i += raw.size())
    std::memcpy(bytes.data() + i, raw.data(),
                std::min<int64_t>(raw.size(), size - i));
  return success();
}

LogicalResult mlir::thunk::matchParameters(
    ModuleOp module, ArrayRef<ParameterBytes> parameters,
    SmallVectorImpl<std::pair<AllocationOp, ArrayRef<uint8_t>>> &out,
    std::string &error) {
  for (auto alloc : module.getOps<AllocationOp>()) {
    if (alloc.getKind() != AllocationKind::Parameter)
      continue;
    ArrayRef<int64_t> index =
        alloc.getParameterIndex().value_or(ArrayRef<int64_t>());
    const ParameterBytes *given = nullptr;
    for (const ParameterBytes &p : parameters)
      if (uint64_t(p.parameter) == *alloc.getParameter() &&
          ArrayRef<int64_t>(p.index) == index)
        given = &p;
    std::string where = "thunk.allocation @" + alloc.getSymName().str() + ": ";
    if (!given) {
      error = where + "no bytes given for parameter " +
              std::to_string(*alloc.getParameter());
      return failure();
    }
    if (given->bytes.size() > alloc.getSize()) {
      error = where + "parameter " + std::to_string(*alloc.getParameter()) +
              " has " + std::to_string(given->bytes.size()) +
              " bytes; its allocation " + std::to_string(alloc.getSize());
      return failure();
    }
    out.push_back({alloc, given->bytes});
  }
  return success();
}
