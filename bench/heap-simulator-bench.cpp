//===- heap-simulator-bench.cpp - time the heap simulator -----------------===//
//
// hlo-heap-simulator-bench [--sizes=1000,10000,100000] [--repeat=3]
//                          [--long-life=500]
//
// For each size n: a synthetic schedule of n buffers shaped like a compiled
// program (one definition per position; most values die within a few
// positions, 2% live up to --long-life positions; sizes spread over 4 B .. 64
// MiB; a third may reuse an operand that dies where they start; 2% are
// colocated groups of two intervals). Times the heap simulator (both packings,
// as XLA's BufferAssigner) and the overlap checker on its result, and prints
// one JSON object per size with the heap size, the peak of live bytes and the
// growth of time per buffer against the first size.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/BufferOverlapChecker.h"
#include "Hlo/Analysis/HeapSimulator.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <random>

using namespace mlir::hlo;
using namespace llvm;

static cl::list<int64_t> sizes("sizes", cl::desc("buffer counts"),
                               cl::CommaSeparated);
static cl::opt<unsigned> repeat("repeat", cl::desc("runs per size"),
                                cl::init(3));
static cl::opt<std::string> input(
    "input",
    cl::desc("instead of timing, place the buffers of FILE (one per line: "
             "id size alignment start-end[,start-end...] [id,id...]) and "
             "print `heap H peak P packing NAME` then `id offset` lines"));
static cl::opt<int64_t> heapAlignment("alignment",
                                      cl::desc("heap alignment (--input)"),
                                      cl::init(1));
static cl::opt<int64_t>
    longLife("long-life",
             cl::desc("longest life of the 2% long-lived buffers, in "
                      "positions (0: a quarter of the schedule, so the live "
                      "set grows with n)"),
             cl::init(500));

static std::vector<HeapBuffer> makeProgram(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::geometric_distribution<int64_t> shortLife(0.3);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<HeapBuffer> buffers;
  std::vector<std::vector<int64_t>> dyingAt(n + 1);
  for (int64_t i = 0; i < n; ++i) {
    HeapBuffer b;
    b.id = i;
    b.size = int64_t(4) << int64_t(unit(rng) * 24); // 4 B .. 64 MiB
    b.alignment = 64;
    int64_t longest = longLife > 0 ? int64_t(longLife) : n / 4;
    int64_t life =
        unit(rng) < 0.02 ? int64_t(unit(rng) * longest) : 1 + shortLife(rng);
    int64_t end = std::min(n, i + life);
    b.intervals.push_back({i, end});
    if (unit(rng) < 0.02 && end + 2 < n) {
      int64_t again = end + 2 + int64_t(unit(rng) * 8);
      b.intervals.push_back({std::min(again, n), std::min(again + 3, n)});
    }
    if (b.intervals.size() == 1) {
      if (unit(rng) < 0.33)
        for (int64_t candidate : dyingAt[i])
          b.canShareWith.push_back(candidate);
      dyingAt[end].push_back(i);
    }
    buffers.push_back(std::move(b));
  }
  return buffers;
}

/// --input: places the buffers of a file, for comparisons with the buffer
/// assignment XLA dumps.
static int placeFile() {
  auto file = MemoryBuffer::getFileOrSTDIN(input);
  if (!file) {
    errs() << "cannot read " << input << "\n";
    return 1;
  }
  std::vector<HeapBuffer> buffers;
  SmallVector<StringRef> lines;
  (*file)->getBuffer().split(lines, '\n', -1, false);
  for (StringRef line : lines) {
    SmallVector<StringRef> fields;
    line.trim().split(fields, ' ', -1, false);
    if (fields.empty() || fields[0].starts_with("#"))
      continue;
    HeapBuffer b;
    bool bad = fields.size() < 4 || fields[0].getAsInteger(10, b.id) ||
               fields[1].getAsInteger(10, b.size) ||
               fields[2].getAsInteger(10, b.alignment);
    SmallVector<StringRef> spans;
    if (!bad)
      fields[3].split(spans, ',');
    for (StringRef span : spans) {
      auto [lo, hi] = span.split('-');
      LiveInterval interval;
      bad |= lo.getAsInteger(10, interval.start) ||
             hi.getAsInteger(10, interval.end);
      b.intervals.push_back(interval);
    }
    if (!bad && fields.size() > 4) {
      SmallVector<StringRef> ids;
      fields[4].split(ids, ',');
      for (StringRef id : ids) {
        int64_t value;
        bad |= id.getAsInteger(10, value);
        b.canShareWith.push_back(value);
      }
    }
    if (bad) {
      errs() << "bad line: " << line << "\n";
      return 1;
    }
    buffers.push_back(std::move(b));
  }
  HeapSimulatorOptions options;
  options.alignment = heapAlignment;
  options.packing = HeapPacking::BestOfSpatialTemporal; // XLA's choice
  Expected<HeapAssignment> result = runHeapSimulator(buffers, options);
  if (!result) {
    errs() << toString(result.takeError()) << "\n";
    return 1;
  }
  outs() << formatv("heap {0} peak {1} packing {2}\n", result->heapSize,
                    result->peakLiveBytes,
                    stringifyHeapPacking(result->packing));
  for (auto [i, b] : enumerate(buffers))
    outs() << b.id << " " << result->offsets[i] << "\n";
  return 0;
}

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "heap simulator benchmark\n");
  if (!input.empty())
    return placeFile();
  std::vector<int64_t> counts(sizes.begin(), sizes.end());
  if (counts.empty())
    counts = {1000, 10000, 100000};
  double firstPerBuffer = 0;
  for (int64_t n : counts) {
    std::vector<HeapBuffer> buffers = makeProgram(n, 1234 + n);
    double simulate = 1e30, checkTime = 1e30;
    HeapAssignment result;
    for (unsigned r = 0; r < std::max(1u, unsigned(repeat)); ++r) {
      auto start = std::chrono::steady_clock::now();
      Expected<HeapAssignment> assignment = runHeapSimulator(buffers);
      simulate =
          std::min(simulate, std::chrono::duration<double>(
                                 std::chrono::steady_clock::now() - start)
                                 .count());
      if (!assignment) {
        errs() << toString(assignment.takeError()) << "\n";
        return 1;
      }
      result = std::move(*assignment);
    }
    std::vector<PlacedBuffer> placed;
    std::vector<std::pair<int64_t, int64_t>> shared;
    for (auto [i, b] : enumerate(buffers)) {
      PlacedBuffer p{b.id, result.offsets[i], b.size, {}};
      for (const LiveInterval &interval : b.intervals)
        p.intervals.push_back({interval.start, interval.end});
      placed.push_back(std::move(p));
      if (result.sharedWith[i] >= 0)
        shared.push_back({b.id, result.sharedWith[i]});
    }
    BufferCheckResult verdict;
    for (unsigned r = 0; r < std::max(1u, unsigned(repeat)); ++r) {
      auto start = std::chrono::steady_clock::now();
      verdict = checkBufferOverlaps(placed, {}, shared, result.heapSize);
      checkTime =
          std::min(checkTime, std::chrono::duration<double>(
                                  std::chrono::steady_clock::now() - start)
                                  .count());
    }
    double perBuffer = simulate / double(n);
    if (firstPerBuffer == 0)
      firstPerBuffer = perBuffer;
    outs() << formatv(
        "{{\"buffers\": {0}, \"simulate_s\": {1:f4}, \"check_s\": {2:f4}, "
        "\"growth\": {3:f2}, \"heap_bytes\": {4}, \"peak_bytes\": {5}, "
        "\"heap_over_peak\": {6:f4}, \"shared\": {7}, \"packing\": \"{8}\", "
        "\"check_ok\": {9}}\n",
        n, simulate, checkTime, perBuffer / firstPerBuffer, result.heapSize,
        result.peakLiveBytes,
        double(result.heapSize) /
            double(std::max<int64_t>(1, result.peakLiveBytes)),
        shared.size(), stringifyHeapPacking(result.packing),
        verdict.ok() ? "true" : "false");
    if (!verdict.ok()) {
      errs() << verdict.describe();
      return 1;
    }
  }
  return 0;
}
