//===- hlo-translate.cpp - HLO text <-> hlo dialect -----------------------===//
//
//   hlo-translate --hlo-to-mlir model.hlo -o model.mlir
//   hlo-translate --mlir-to-hlo model.mlir -o model.hlo
//   hlo-translate --hlo-to-hlo model.hlo -o out.hlo
//
// An mlirTranslateMain tool: --split-input-file, --verify-diagnostics,
// --mlir-timing and the printer options work as in mlir-translate.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace llvm;

static cl::OptionCategory hloTranslateCategory("hlo-translate options");

static cl::opt<bool>
    asyncSugar("async-sugar",
               cl::desc("Print op-start/op-done for async chains wrapping one "
                        "instruction (default on)"),
               cl::init(true), cl::cat(hloTranslateCategory));

static LogicalResult exportModule(ModuleOp module, raw_ostream &os) {
  hlo::HloExportOptions options;
  options.asyncSugar = asyncSugar;
  return hlo::exportHloText(module, os, options);
}

/// Translation is sequential, and uniquing without locks is cheaper. The
/// context is made multi-threaded and switched here, rather than made
/// single-threaded by --mlir-disable-threading: a context made that way keeps
/// uniquers that lock on every lookup, because MLIRContext's constructor does
/// not pass the setting on to them and the global flag turns
/// disableMultithreading() into a no-op.
static void prepareContext(MLIRContext *context) {
  context->disableMultithreading();
  DialectRegistry registry;
  hlo::registerHloTranslateDialects(registry);
  context->appendDialectRegistry(registry);
}

/// Imports (and verifies) the HLO text of `sourceMgr`.
static OwningOpRef<ModuleOp> importHloModule(SourceMgr &sourceMgr,
                                             MLIRContext *context) {
  prepareContext(context);
  return hlo::importHloText(sourceMgr, context);
}

static void registerHloTranslations() {
  // Not TranslateToMLIRRegistration and TranslateFromMLIRRegistration: the
  // first verifies the module again after importHloText has verified it, and
  // the second parses before the context is prepared.
  TranslateRegistration hloToMlir(
      "hlo-to-mlir", "HLO text to the hlo dialect",
      [](const std::shared_ptr<SourceMgr> &sourceMgr, raw_ostream &os,
         MLIRContext *context) {
        OwningOpRef<ModuleOp> module = importHloModule(*sourceMgr, context);
        if (!module)
          return failure();
        module->print(os);
        return success();
      });
  TranslateRegistration mlirToHlo(
      "mlir-to-hlo", "the hlo dialect to HLO text",
      [](const std::shared_ptr<SourceMgr> &sourceMgr, raw_ostream &os,
         MLIRContext *context) {
        prepareContext(context);
        // The parser verifies what it parsed.
        OwningOpRef<ModuleOp> module =
            parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(context));
        return success(module && succeeded(exportModule(*module, os)));
      });
  TranslateRegistration hloToHlo(
      "hlo-to-hlo",
      "HLO text through the hlo dialect back to HLO text, in memory",
      [](const std::shared_ptr<SourceMgr> &sourceMgr, raw_ostream &os,
         MLIRContext *context) {
        OwningOpRef<ModuleOp> module = importHloModule(*sourceMgr, context);
        return success(module && succeeded(exportModule(*module, os)));
      });
}

int main(int argc, char **argv) {
  // Before MLIR registers its options: what is registered now comes from the
  // libraries' static initializers (LLVM's code generators among them).
  cl::HideUnrelatedOptions(hloTranslateCategory);
  registerHloTranslations();

  // A default that differs from mlir-translate's, given ahead of the user's
  // arguments so that theirs wins (the last occurrence of an option counts):
  // MLIR output keeps locations, which carry the instruction names and
  // metadata that the export needs.
  SmallVector<char *> args(argv, argv + argc);
  std::string printDebugInfo = "--mlir-print-debuginfo";
  args.insert(args.begin() + 1, printDebugInfo.data());
  return failed(mlirTranslateMain(args.size(), args.data(),
                                  "hlo-translate: HLO text <-> hlo dialect"));
}
