//===- hlo-opt.cpp - the hlo optimizer driver -----------------------------===//
//
// MLIR's opt driver with the HLO text importer and exporter: every chunk of
// the input (`--split-input-file`) is parsed as HLO text (a `.hlo` file, or
// text that looks like HLO) or as MLIR, the pass pipeline of the command
// line runs on it, and the result is printed as MLIR (`--mlir-print-*`,
// `--emit-bytecode`) or exported as HLO text (`--output-format=hlo`). The
// module goes from the importer to the passes and on to the exporter without
// a detour through MLIR text, so names and metadata (locations) always
// survive. `--verify-diagnostics` checks `// expected-error` comments in
// `.hlo` files as in `.mlir` files.
//
//===----------------------------------------------------------------------===//

#include "HloDump.h"
#include "HloTestPasses.h"

#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Conversion/Passes.h"
#include "Hlo/Conversion/PtxPipeline.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloSyntax.h"
#include "Hlo/Dialect/Thunk/ThunkDialect.h"
#include "Hlo/Pipelines/GpuPipeline.h"
#include "Hlo/Runtime/SemanticsCheck.h"
#include "Hlo/Transforms/Passes.h"
#include "Hlo/Translate/HloGraphView.h"
#include "Hlo/Translate/HloText.h"
#include "ToolOptions.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Debug/CLOptionsSetup.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/ParseUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace llvm;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

static cl::OptionCategory hloOptCategory("hlo-opt options");

namespace {
enum class OutputFormat { Mlir, Hlo, Ptx };
} // namespace

static cl::opt<OutputFormat> outputFormat(
    "output-format", cl::desc("Output format"), cl::init(OutputFormat::Mlir),
    cl::values(clEnumValN(OutputFormat::Mlir, "mlir",
                          "MLIR assembly or bytecode (default)"),
               clEnumValN(OutputFormat::Hlo, "hlo",
                          "HLO text (names and metadata from locations)"),
               clEnumValN(OutputFormat::Ptx, "ptx",
                          "The PTX of the module's kernels (after "
                          "--hlo-to-ptx)")),
    cl::cat(hloOptCategory));
static cl::opt<bool> asyncSugar(
    "async-sugar",
    cl::desc("With --output-format=hlo: print op-start/op-done for async "
             "chains wrapping one instruction (default on)"),
    cl::init(true), cl::cat(hloOptCategory));

static cl::opt<bool> checkSemantics(
    "hlo-check-semantics",
    cl::desc("Run the reference interpreter on random inputs before the "
             "pipeline and after every pass; fail naming the first pass that "
             "changes the results (docs/runtime.md)"),
    cl::init(false), cl::cat(hloOptCategory));
static cl::opt<uint64_t>
    checkSemanticsSeed("hlo-check-semantics-seed",
                       cl::desc("Seed of --hlo-check-semantics' random inputs"),
                       cl::init(0), cl::cat(hloOptCategory));
static cl::opt<double>
    checkSemanticsAtol("hlo-check-semantics-atol",
                       cl::desc("Absolute tolerance of --hlo-check-semantics"),
                       cl::init(1e-5), cl::cat(hloOptCategory));
static cl::opt<double>
    checkSemanticsRtol("hlo-check-semantics-rtol",
                       cl::desc("Relative tolerance of --hlo-check-semantics"),
                       cl::init(1e-5), cl::cat(hloOptCategory));

static cl::opt<double> checkSemanticsMaxWork(
    "hlo-check-semantics-max-work",
    cl::desc("--hlo-check-semantics is left out (a warning) for modules "
             "whose run needs more multiply-adds than this (default 1e10: "
             "seconds in the interpreter)"),
    cl::init(1e10), cl::cat(hloOptCategory));

static cl::opt<int64_t> memoryLimit(
    "hlo-memory-limit",
    cl::desc("Bytes of device memory the module may use: the limit of "
             "hlo-rematerialization (and of hlo-gpu-optimize's) when its "
             "memory-limit option is -1 (default: from --hlo-gpu-device)"),
    cl::value_desc("bytes"), cl::init(-1), cl::cat(hloOptCategory));

static cl::opt<std::string>
    dumpTo("hlo-dump-to",
           cl::desc("Write the module as HLO text to this folder before the "
                    "pipeline and after every pass that changes it (XLA's "
                    "--xla_dump_to)"),
           cl::value_desc("dir"), cl::cat(hloOptCategory));
static cl::opt<std::string> dumpPassRe(
    "hlo-dump-pass-re",
    cl::desc("With --hlo-dump-to: dump only after the passes whose argument "
             "matches this regular expression (XLA's --xla_dump_hlo_pass_re)"),
    cl::value_desc("regex"), cl::cat(hloOptCategory));

static cl::opt<std::string> viewFormat(
    "hlo-view",
    cl::desc("Write the result as a picture instead: dot (Graphviz), svg "
             "(drawn by Graphviz's dot) or html (the SVG in a page with pan, "
             "zoom and search); docs/views.md"),
    cl::value_desc("dot|svg|html"), cl::cat(hloOptCategory));
static cl::opt<std::string> viewFocus(
    "hlo-view-focus",
    cl::desc("With --hlo-view or --hlo-dump-as: draw only the instructions "
             "around this one (its HLO name, or computation/name)"),
    cl::value_desc("name"), cl::cat(hloOptCategory));
static cl::opt<unsigned> viewRadius(
    "hlo-view-radius",
    cl::desc("With --hlo-view-focus: how many edges away from it to draw "
             "(default 3)"),
    cl::init(3), cl::cat(hloOptCategory));
static cl::opt<std::string> viewDot(
    "hlo-view-dot",
    cl::desc("The Graphviz program that draws SVG (default: dot, from PATH)"),
    cl::value_desc("program"), cl::init("dot"), cl::cat(hloOptCategory));
static cl::list<std::string>
    dumpAs("hlo-dump-as",
           cl::desc("With --hlo-dump-to: also write a picture of every dumped "
                    "module (dot, svg, html; comma separated)"),
           cl::value_desc("format"), cl::CommaSeparated,
           cl::cat(hloOptCategory));

/// The format named by --hlo-view or --hlo-dump-as.
static std::optional<hlo::HloGraphFormat> parseViewFormat(StringRef name) {
  return llvm::StringSwitch<std::optional<hlo::HloGraphFormat>>(name)
      .Case("dot", hlo::HloGraphFormat::Dot)
      .Case("svg", hlo::HloGraphFormat::Svg)
      .Case("html", hlo::HloGraphFormat::Html)
      .Default(std::nullopt);
}

/// The view options of the command line.
static hlo::HloGraphViewOptions getViewOptions() {
  hlo::HloGraphViewOptions options;
  options.focus = viewFocus;
  options.radius = viewRadius;
  options.dotProgram = viewDot;
  return options;
}

/// Options of MlirOptMain's configuration that this driver does not
/// implement: hidden from --help, an error when given.
static constexpr StringLiteral kUnsupportedOptions[] = {
    "irdl-file",
    "mlir-generate-reproducer",
    "remark-format",
    "remark-policy",
    "remarks-filter",
    "remarks-filter-analyse",
    "remarks-filter-failed",
    "remarks-filter-missed",
    "remarks-filter-passed",
    "remarks-output-file",
    "verify-roundtrip",
};

//===----------------------------------------------------------------------===//
// Processing one chunk
//===----------------------------------------------------------------------===//

namespace {
/// Drops the diagnostics below the verbosity level of
/// `--mlir-diagnostic-verbosity-level`, and notes unless
/// `--mlir-disable-diagnostic-notes=false` (as MlirOptMain does).
class DiagnosticFilter : public ScopedDiagnosticHandler {
public:
  DiagnosticFilter(MLIRContext *context, VerbosityLevel level, bool showNotes)
      : ScopedDiagnosticHandler(context) {
    setHandler([level, showNotes](Diagnostic &diag) -> LogicalResult {
      switch (diag.getSeverity()) {
      case mlir::DiagnosticSeverity::Error:
        return failure();
      case mlir::DiagnosticSeverity::Warning:
        return success(level == VerbosityLevel::ErrorsOnly);
      case mlir::DiagnosticSeverity::Remark:
        return success(level != VerbosityLevel::ErrorsWarningsAndRemarks);
      case mlir::DiagnosticSeverity::Note:
        return success(!showNotes);
      }
      return failure();
    });
  }
};

/// What the driver needs besides MlirOptMain's configuration.
struct Driver {
  const MlirOptMainConfig &config;
  DialectRegistry &registry;
  /// The input file's name: `.hlo` marks HLO text.
  StringRef inputFilename;
  llvm::ThreadPoolInterface *threadPool = nullptr;
};
} // namespace

/// The importer locates an HLO module at the start of its buffer, which for
/// a chunk of --split-input-file (placeChunk) lies before the chunk: the
/// module is moved to the chunk's first token (its `HloModule` header).
static void locateModuleInChunk(ModuleOp module, const SourceMgr &sourceMgr) {
  auto loc = dyn_cast<FileLineColLoc>(module.getLoc());
  if (!loc || loc.getLine() != 1 || loc.getColumn() != 1)
    return;
  StringRef text =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  hlo::syntax::Cursor cursor(text);
  cursor.skipSpace();
  auto [line, column] = sourceMgr.getLineAndColumn(
      SMLoc::getFromPointer(text.data() + cursor.getPos()));
  module->setLoc(FileLineColLoc::get(loc.getFilename(), line, column));
}

/// Parses a chunk (HLO text or MLIR), runs the pipeline on it and prints or
/// exports the result to `os`. `isChunk`: the buffer is a chunk of
/// --split-input-file placed at its line and column.
static LogicalResult performActions(raw_ostream &os, const Driver &driver,
                                    const std::shared_ptr<SourceMgr> &sourceMgr,
                                    MLIRContext *context, bool isChunk) {
  const MlirOptMainConfig &config = driver.config;
  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope timing = timingManager.getRootScope();

  // Parse on one thread: the context's uniquing needs no locks then.
  bool wasThreadingEnabled = context->isMultithreadingEnabled();
  context->disableMultithreading();
  TimingScope parserTiming = timing.nest("Parser");
  StringRef text =
      sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID())->getBuffer();
  bool isHlo =
      driver.inputFilename.ends_with(".hlo") || hlo::looksLikeHloText(text);
  FallbackAsmResourceMap fallbackResourceMap;
  PassReproducerOptions reproducerOptions;
  OwningOpRef<Operation *> op;
  if (isHlo) {
    if (OwningOpRef<ModuleOp> module =
            hlo::importHloText(*sourceMgr, context)) {
      if (isChunk)
        locateModuleInChunk(*module, *sourceMgr);
      op = OwningOpRef<Operation *>(module.release().getOperation());
    }
  } else {
    ParserConfig parserConfig(context, config.shouldVerifyOnParsing(),
                              &fallbackResourceMap);
    if (config.shouldRunReproducer())
      reproducerOptions.attachResourceParser(parserConfig);
    op = parseSourceFileForTool(sourceMgr, parserConfig,
                                !config.shouldUseExplicitModule());
  }
  context->enableMultithreading(wasThreadingEnabled);
  if (!op)
    return failure();
  parserTiming.stop();

  // The pipeline of the command line (or of the reproducer), with the
  // semantics check watching it.
  PassManager pm(op.get()->getName(), PassManager::Nesting::Implicit);
  pm.enableVerifier(config.shouldVerifyPasses());
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  pm.enableTiming(timing);
  if (config.shouldRunReproducer()) {
    if (failed(reproducerOptions.apply(pm)))
      return failure();
  } else if (failed(config.setupPassPipeline(pm))) {
    return failure();
  }
  if (!dumpTo.empty()) {
    auto module = dyn_cast<ModuleOp>(*op);
    if (!module)
      return op.get()->emitError("--hlo-dump-to needs a builtin.module");
    hlo::HloDumpOptions dumpOptions{dumpTo, dumpPassRe, {}, getViewOptions()};
    for (StringRef name : dumpAs)
      dumpOptions.views.push_back(*parseViewFormat(name));
    if (failed(hlo::addHloDump(pm, module, dumpOptions)))
      return failure();
  }
  std::shared_ptr<const hlo::runtime::SemanticsCheckResult> semantics;
  if (checkSemantics) {
    hlo::runtime::SemanticsCheckOptions options;
    options.seed = checkSemanticsSeed;
    options.atol = checkSemanticsAtol;
    options.rtol = checkSemanticsRtol;
    options.maxMultiplyAdds = checkSemanticsMaxWork;
    semantics = hlo::runtime::addSemanticsCheck(pm, options);
  }
  // A pass that changes the results fails the pipeline: its error is on the
  // module already.
  if (failed(pm.run(*op)) || (semantics && semantics->failed))
    return failure();

  TimingScope outputTiming = timing.nest("Output");
  if (!viewFormat.empty()) {
    auto module = dyn_cast<ModuleOp>(*op);
    if (!module)
      return op.get()->emitError("--hlo-view needs a builtin.module");
    return hlo::writeHloGraph(module, os, *parseViewFormat(viewFormat),
                              getViewOptions());
  }
  if (outputFormat == OutputFormat::Ptx) {
    auto module = dyn_cast<ModuleOp>(*op);
    FailureOr<std::string> ptx =
        module ? hlo::getPtx(module)
               : FailureOr<std::string>(op.get()->emitError(
                     "--output-format=ptx needs a builtin.module"));
    if (failed(ptx))
      return failure();
    os << *ptx;
    return success();
  }
  if (outputFormat == OutputFormat::Hlo) {
    auto module = dyn_cast<ModuleOp>(*op);
    if (!module)
      return op.get()->emitError("--output-format=hlo needs a builtin.module, "
                                 "got '")
             << op.get()->getName() << "'";
    hlo::HloExportOptions options;
    options.asyncSugar = asyncSugar;
    return hlo::exportHloText(module, os, options);
  }
  if (config.shouldEmitBytecode()) {
    BytecodeWriterConfig writerConfig(fallbackResourceMap);
    if (std::optional<int64_t> version = config.bytecodeVersionToEmit())
      writerConfig.setDesiredBytecodeVersion(*version);
    if (config.shouldElideResourceDataFromBytecode())
      writerConfig.setElideResourceDataFlag();
    return writeBytecodeToFile(op.get(), os, writerConfig);
  }
  AsmState asmState(op.get(), OpPrintingFlags(), /*locationMap=*/nullptr,
                    &fallbackResourceMap);
  op.get()->print(os, asmState);
  os << '\n';
  return success();
}

/// A chunk of `--split-input-file` as a buffer of its own, named like the
/// input and preceded by as many newlines and spaces as the input has lines
/// and columns before it: line and column numbers (of diagnostics, of
/// locations, of `expected-*` comments) are those of the input file, for
/// HLO text as for MLIR. The whole input (no splitting) stays as it is.
static std::unique_ptr<MemoryBuffer>
placeChunk(std::unique_ptr<MemoryBuffer> chunk, MemoryBufferRef input,
           bool &isChunk) {
  StringRef text = input.getBuffer();
  const char *start = chunk->getBufferStart();
  isChunk = false;
  if (start == text.begin() && chunk->getBufferSize() == text.size())
    return chunk;
  if (start < text.begin() || start > text.end())
    return chunk;
  isChunk = true;
  StringRef before = text.take_front(start - text.begin());
  size_t lineStart = before.rfind('\n') + 1; // 0 when there is none
  std::string placed(before.count('\n'), '\n');
  placed.append(before.size() - lineStart, ' ');
  placed += chunk->getBuffer();
  return MemoryBuffer::getMemBufferCopy(placed, input.getBufferIdentifier());
}

/// One chunk of the input in a context of its own, its diagnostics printed
/// or checked against the chunk's `expected-*` comments.
static LogicalResult processBuffer(raw_ostream &os,
                                   std::unique_ptr<MemoryBuffer> chunk,
                                   MemoryBufferRef input,
                                   const Driver &driver) {
  const MlirOptMainConfig &config = driver.config;
  auto sourceMgr = std::make_shared<SourceMgr>();
  bool isChunk;
  sourceMgr->AddNewSourceBuffer(placeChunk(std::move(chunk), input, isChunk),
                                SMLoc());

  MLIRContext context(driver.registry, MLIRContext::Threading::DISABLED);
  if (driver.threadPool)
    context.setThreadPool(*driver.threadPool);
  context.allowUnregisteredDialects(config.shouldAllowUnregisteredDialects());
  if (config.shouldVerifyDiagnostics())
    context.printOpOnDiagnostic(false);
  tracing::InstallDebugHandler debugHandler(context, config.getDebugConfig());

  if (!config.shouldVerifyDiagnostics()) {
    SourceMgrDiagnosticHandler handler(*sourceMgr, &context);
    DiagnosticFilter filter(&context, config.getDiagnosticVerbosityLevel(),
                            config.shouldShowNotes());
    return performActions(os, driver, sourceMgr, &context, isChunk);
  }
  // Whether the actions succeed does not matter here, only whether their
  // diagnostics are the expected ones.
  SourceMgrDiagnosticVerifierHandler handler(*sourceMgr, &context,
                                             config.verifyDiagnosticsLevel());
  (void)performActions(os, driver, sourceMgr, &context, isChunk);
  return handler.verify();
}

//===----------------------------------------------------------------------===//
// main
//===----------------------------------------------------------------------===//

int main(int argc, char **argv) {
  InitLLVM y(argc, argv);
  // Before MLIR registers its options: what is registered now comes from the
  // libraries' static initializers (LLVM's code generators among them).
  cl::HideUnrelatedOptions(hloOptCategory);

  // MLIR's own transforms, but remove-dead-values: in MLIR 22 it takes
  // every symbol use of a private function for a call (CallOpInterface), and
  // HLO computations are also named by sort, reduce, while, ... (`to_apply`,
  // `body`): it would cut their parameters, leaving invalid IR, or read
  // those ops as calls and crash. `hlo-dce` removes dead HLO instead.
  registerBubbleDownMemorySpaceCastsPass();
  registerCSEPass();
  registerCanonicalizerPass();
  registerCompositeFixedPointPassPass();
  registerControlFlowSinkPass();
  registerGenerateRuntimeVerificationPass();
  registerInlinerPass();
  registerLocationSnapshotPass();
  registerLoopInvariantCodeMotionPass();
  registerLoopInvariantSubsetHoistingPass();
  registerMem2RegPass();
  registerPrintIRPassPass();
  registerPrintOpStatsPass();
  registerSCCPPass();
  registerSROAPass();
  registerStripDebugInfoPass();
  registerSymbolDCEPass();
  registerSymbolPrivatizePass();
  registerTopologicalSortPass();
  registerViewOpGraphPass();
  hlo::registerHloPasses();
  hlo::registerHloConversionPasses();
  hlo::registerHloToPtxPipeline();
  hlo::registerHloGpuPipeline();
  hlo::registerAnalysisTestPasses();
  hlo::registerConversionTestPasses();
  hlo::runtime::registerSemanticsCheckTestPasses();
  hlo::registerGpuDeviceCLOptions();
  DialectRegistry registry;
  registry.insert<hlo::HloDialect, thunk::ThunkDialect, func::FuncDialect>();
  // What the conversions produce (kernels, host functions), so that their
  // output reads back in.
  registry.insert<arith::ArithDialect, complex::ComplexDialect, gpu::GPUDialect,
                  math::MathDialect, memref::MemRefDialect, scf::SCFDialect>();
  hlo::registerPtxDialects(registry);

  // MlirOptMain's options: --pass-pipeline and the pass flags,
  // --split-input-file, --verify-diagnostics, --emit-bytecode, ... and the
  // printer, context, pass manager and timing options.
  std::string helpHeader = registerCLIOptions(
      "hlo-opt: HLO text or MLIR in, passes, MLIR or HLO text out", registry);
  for (StringRef name : kUnsupportedOptions)
    hlo::hideOption(name);
  auto [inputFilename, outputFilename] =
      parseCLIOptions(argc, argv, helpHeader);
  for (StringRef name : kUnsupportedOptions)
    if (hlo::wasOptionGiven(name)) {
      errs() << "hlo-opt: --" << name << " is not supported\n";
      return 1;
    }
  if (!viewFormat.empty() && !parseViewFormat(viewFormat)) {
    errs() << "hlo-opt: --hlo-view: unknown format '" << viewFormat
           << "' (dot, svg or html)\n";
    return 1;
  }
  for (StringRef name : dumpAs)
    if (!parseViewFormat(name)) {
      errs() << "hlo-opt: --hlo-dump-as: unknown format '" << name
             << "' (dot, svg or html)\n";
      return 1;
    }
  if (!dumpAs.empty() && dumpTo.empty()) {
    errs() << "hlo-opt: --hlo-dump-as needs --hlo-dump-to\n";
    return 1;
  }
  const MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (Error err = hlo::loadGpuDeviceFromCLOptions()) {
    errs() << "hlo-opt: " << toString(std::move(err)) << "\n";
    return 1;
  }
  hlo::setSelectedMemoryLimit(memoryLimit);

  if (config.shouldShowDialects()) {
    outs() << "Available Dialects: ";
    interleaveComma(registry.getDialectNames(), outs());
    outs() << "\n";
    return 0;
  }
  if (config.shouldListPasses()) {
    printRegisteredPasses();
    return 0;
  }

  std::string errorMessage;
  std::unique_ptr<MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    errs() << "hlo-opt: " << errorMessage << "\n";
    return 1;
  }
  std::unique_ptr<ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    errs() << "hlo-opt: " << errorMessage << "\n";
    return 1;
  }

  // One thread pool for every chunk (none with --mlir-disable-threading).
  MLIRContext threadPoolContext;
  Driver driver{config, registry, inputFilename};
  if (threadPoolContext.isMultithreadingEnabled())
    driver.threadPool = &threadPoolContext.getThreadPool();
  auto chunkFn = [&](std::unique_ptr<MemoryBuffer> chunk,
                     const MemoryBufferRef &input, raw_ostream &os) {
    return processBuffer(os, std::move(chunk), input, driver);
  };
  if (failed(splitAndProcessBuffer(std::move(input), chunkFn, output->os(),
                                   config.inputSplitMarker(),
                                   config.outputSplitMarker())))
    return 1;
  output->keep();
  return 0;
}
