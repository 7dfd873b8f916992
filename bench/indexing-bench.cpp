//===- indexing-bench.cpp - time the indexing maps of fusions -------------===//
//
// hlo-indexing-bench FILE.hlo...
//
// For each module: the time to import it (the baseline the analysis is
// compared with) and the time to compute, for every fusion of the entry
// computation, the output-to-input maps of every output and the
// input-to-output maps of every operand. Prints one JSON object per file:
//   {"file": ..., "instructions": N, "import_s": t, "indexing_s": t,
//    "maps": M}
// Each time is the minimum over --repeat runs (in a fresh context).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/IndexingAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

using namespace mlir;
using namespace llvm;

static cl::list<std::string> files(cl::Positional, cl::desc("<file.hlo>..."),
                                   cl::OneOrMore);
static cl::opt<unsigned> repeat("repeat", cl::desc("runs per file"),
                                cl::init(3));

static double seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
}

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "indexing-map benchmark\n");
  DialectRegistry registry;
  hlo::registerHloTranslateDialects(registry);
  for (const std::string &file : files) {
    auto buffer = MemoryBuffer::getFile(file);
    if (!buffer) {
      errs() << "hlo-indexing-bench: cannot read " << file << "\n";
      return 1;
    }
    double importTime = 1e30, indexingTime = 1e30;
    size_t maps = 0, instructions = 0;
    for (unsigned run = 0; run < repeat; ++run) {
      MLIRContext context(registry, MLIRContext::Threading::DISABLED);
      auto start = std::chrono::steady_clock::now();
      OwningOpRef<ModuleOp> module =
          hlo::importHloText((*buffer)->getBuffer(), &context, file);
      if (!module)
        return 1;
      importTime = std::min(importTime, seconds(start));

      instructions = 0;
      module->walk([&](Operation *op) {
        if (op->getDialect() && !isa<hlo::ComputationOp, hlo::ReturnOp>(op))
          ++instructions;
      });
      start = std::chrono::steady_clock::now();
      maps = 0;
      module->walk([&](hlo::FusionOp fusion) {
        auto comp = fusion->getParentOfType<hlo::ComputationOp>();
        if (!comp || !comp.getEntry())
          return;
        for (unsigned o = 0, e = hlo::getNumIndexingOutputs(fusion); o < e;
             ++o)
          for (const auto &operand :
               hlo::computeOutputToInputIndexing(fusion, o).indexing)
            maps += operand.maps.size();
        for (unsigned i = 0; i < fusion->getNumOperands(); ++i)
          for (const auto &output :
               hlo::computeInputToOutputIndexing(fusion, i).indexing)
            maps += output.maps.size();
      });
      indexingTime = std::min(indexingTime, seconds(start));
    }
    outs() << "{\"file\": \"" << file << "\", \"instructions\": "
           << instructions << ", \"import_s\": " << importTime
           << ", \"indexing_s\": " << indexingTime << ", \"maps\": " << maps
           << "}\n";
  }
  return 0;
}
