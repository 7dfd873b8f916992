//===- hlo-opt.cpp - the hlo optimizer driver -----------------------------===//
//
// An MlirOptMain tool with every dialect and pass of the project. Input may
// be MLIR or HLO text (`.hlo`, or text starting with `HloModule`);
// `--output-format=hlo` prints HLO text instead of MLIR.
//
//===----------------------------------------------------------------------===//

#include "HloTestPasses.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Runtime/SemanticsCheck.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace llvm;

static cl::opt<std::string> outputFormat(
    "output-format", cl::desc("Output format: mlir (default) or hlo"),
    cl::init("mlir"));

static cl::opt<bool> checkSemantics(
    "hlo-check-semantics",
    cl::desc("Run the reference interpreter on random inputs before the "
             "pipeline and after every pass; fail naming the first pass that "
             "changes the results (docs/runtime.md)"),
    cl::init(false));
static cl::opt<uint64_t> checkSemanticsSeed(
    "hlo-check-semantics-seed",
    cl::desc("Seed of --hlo-check-semantics' random inputs"), cl::init(0));
static cl::opt<double> checkSemanticsAtol(
    "hlo-check-semantics-atol",
    cl::desc("Absolute tolerance of --hlo-check-semantics"), cl::init(1e-5));
static cl::opt<double> checkSemanticsRtol(
    "hlo-check-semantics-rtol",
    cl::desc("Relative tolerance of --hlo-check-semantics"), cl::init(1e-5));

int main(int argc, char **argv) {
  InitLLVM y(argc, argv);
  registerTransformsPasses();
  hlo::registerAnalysisTestPasses();
  hlo::runtime::registerSemanticsCheckTestPasses();
  DialectRegistry registry;
  registry.insert<hlo::HloDialect, func::FuncDialect>();

  // HLO output is exported from the pipeline's MLIR output, which must keep
  // locations: they carry instruction names and metadata.
  SmallVector<char *> args(argv, argv + argc);
  std::string debugInfo = "--mlir-print-debuginfo";
  for (int i = 1; i < argc; ++i)
    if (StringRef(argv[i]) == "--output-format=hlo" ||
        StringRef(argv[i]) == "-output-format=hlo")
      args.push_back(debugInfo.data());
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      args.size(), args.data(), "hlo optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  // --hlo-check-semantics: the instrumentation joins the pipeline the
  // command line describes; a pass that changes the results makes the tool
  // fail after MlirOptMain has printed its diagnostics.
  std::vector<std::shared_ptr<const hlo::runtime::SemanticsCheckResult>>
      semanticsChecks;
  if (checkSemantics) {
    MlirOptMainConfig commandLine = config;
    config.setPassPipelineSetupFn([commandLine, &semanticsChecks](
                                      PassManager &pm) -> LogicalResult {
      if (failed(commandLine.setupPassPipeline(pm)))
        return failure();
      hlo::runtime::SemanticsCheckOptions options;
      options.seed = checkSemanticsSeed;
      options.atol = checkSemanticsAtol;
      options.rtol = checkSemanticsRtol;
      semanticsChecks.push_back(hlo::runtime::addSemanticsCheck(pm, options));
      return success();
    });
  }
  auto semanticsChanged = [&] {
    return llvm::any_of(semanticsChecks,
                        [](const auto &check) { return check->failed; });
  };
  if (outputFormat != "mlir" && outputFormat != "hlo") {
    errs() << "hlo-opt: --output-format must be 'mlir' or 'hlo'\n";
    return 1;
  }

  std::string errorMessage;
  std::unique_ptr<MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    errs() << "hlo-opt: " << errorMessage << "\n";
    return 1;
  }

  // HLO text input: import it here and hand MlirOptMain the module as MLIR
  // (with locations, so names and metadata survive).
  if (StringRef(inputFilename).ends_with(".hlo") ||
      hlo::looksLikeHloText(input->getBuffer())) {
    MLIRContext context(registry);
    SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(input), SMLoc());
    SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    OwningOpRef<ModuleOp> module = hlo::importHloText(sourceMgr, &context);
    if (!module)
      return 1;
    std::string text;
    raw_string_ostream os(text);
    module->print(os, OpPrintingFlags().enableDebugInfo(true, false));
    input = MemoryBuffer::getMemBufferCopy(text, inputFilename);
  }

  auto output = openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    errs() << "hlo-opt: " << errorMessage << "\n";
    return 1;
  }
  if (outputFormat == "mlir") {
    if (failed(MlirOptMain(output->os(), std::move(input), registry, config)) ||
        semanticsChanged())
      return 1;
    output->keep();
    return 0;
  }
  // HLO output: run the pipeline into a string, then export it.
  std::string mlirText;
  raw_string_ostream mlirOs(mlirText);
  config.emitBytecode(false);
  if (failed(MlirOptMain(mlirOs, std::move(input), registry, config)) ||
      semanticsChanged())
    return 1;
  MLIRContext context(registry);
  SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(MemoryBuffer::getMemBuffer(mlirText), SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module || failed(hlo::exportHloText(*module, output->os())))
    return 1;
  output->keep();
  return 0;
}
