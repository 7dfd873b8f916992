//===- hlo-translate.cpp - HLO text <-> hlo dialect -----------------------===//
//
//   hlo-translate --hlo-to-mlir model.hlo -o model.mlir
//   hlo-translate --mlir-to-hlo model.mlir -o model.hlo
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace llvm;

namespace {
enum class Direction { None, HloToMlir, MlirToHlo, HloToHlo };
} // namespace

int main(int argc, char **argv) {
  InitLLVM y(argc, argv);
  static cl::opt<Direction> direction(
      cl::desc("Translation:"), cl::init(Direction::None),
      cl::values(clEnumValN(Direction::HloToMlir, "hlo-to-mlir",
                            "HLO text to the hlo dialect"),
                 clEnumValN(Direction::MlirToHlo, "mlir-to-hlo",
                            "the hlo dialect to HLO text"),
                 clEnumValN(Direction::HloToHlo, "hlo-to-hlo",
                            "HLO text through the hlo dialect back to HLO "
                            "text, in memory")));
  static cl::opt<std::string> inputFilename(cl::Positional,
                                            cl::desc("<input file>"),
                                            cl::init("-"));
  static cl::opt<std::string> outputFilename(
      "o", cl::desc("Output filename"), cl::value_desc("filename"),
      cl::init("-"));
  static cl::opt<bool> asyncSugar(
      "async-sugar",
      cl::desc("Print op-start/op-done for async chains wrapping one "
               "instruction (default on)"),
      cl::init(true));
  static cl::opt<bool> printDebugInfo(
      "mlir-print-debuginfo",
      cl::desc("Print locations (instruction names, metadata) in MLIR output "
               "(default on: export needs them to reproduce names)"),
      cl::init(true));
  cl::ParseCommandLineOptions(argc, argv, "HLO text <-> hlo dialect\n");
  if (direction == Direction::None) {
    errs() << "hlo-translate: pass --hlo-to-mlir or --mlir-to-hlo\n";
    return 1;
  }

  std::string errorMessage;
  auto input = openInputFile(inputFilename, &errorMessage);
  if (!input) {
    errs() << "hlo-translate: " << errorMessage << "\n";
    return 1;
  }
  auto output = openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    errs() << "hlo-translate: " << errorMessage << "\n";
    return 1;
  }

  DialectRegistry registry;
  hlo::registerHloTranslateDialects(registry);
  // One thread: the translation is sequential, and the context's uniquing is
  // cheaper without locks.
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);

  if (direction == Direction::HloToHlo) {
    OwningOpRef<ModuleOp> module = hlo::importHloText(sourceMgr, &context);
    hlo::HloExportOptions options;
    options.asyncSugar = asyncSugar;
    if (!module || failed(hlo::exportHloText(*module, output->os(), options)))
      return 1;
  } else if (direction == Direction::HloToMlir) {
    OwningOpRef<ModuleOp> module = hlo::importHloText(sourceMgr, &context);
    if (!module)
      return 1;
    OpPrintingFlags flags;
    if (printDebugInfo)
      flags.enableDebugInfo(true, /*prettyForm=*/false);
    module->print(output->os(), flags);
  } else {
    OwningOpRef<ModuleOp> module =
        parseSourceFile<ModuleOp>(sourceMgr, &context);
    if (!module)
      return 1;
    hlo::HloExportOptions options;
    options.asyncSugar = asyncSugar;
    if (failed(hlo::exportHloText(*module, output->os(), options)))
      return 1;
  }
  output->keep();
  return 0;
}
