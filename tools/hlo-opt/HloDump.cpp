//===- HloDump.cpp - XLA-style dumps of a pass pipeline -------------------===//

#include "HloDump.h"

#include "Hlo/Dialect/Hlo/HloSyntax.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
using namespace mlir::hlo;

/// Writes `module` to `<directory>/<stem>.hlo` (or `.mlir` if the export
/// fails); a diagnostic on the module if the file cannot be written.
static void writeModule(ModuleOp module, StringRef directory, StringRef stem,
                        const HloDumpOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  StringRef extension = ".hlo";
  {
    // An export error is not the pipeline's: the MLIR form is dumped then.
    ScopedDiagnosticHandler quiet(module.getContext(),
                                  [](Diagnostic &) { return success(); });
    if (failed(exportHloText(module, os))) {
      text.clear();
      module->print(os, OpPrintingFlags().enableDebugInfo());
      extension = ".mlir";
    }
  }
  SmallString<128> path(directory);
  llvm::sys::path::append(path, stem + extension);
  std::string error;
  auto file = openOutputFile(path, &error);
  if (!file) {
    module.emitWarning("hlo-dump: ") << error;
    return;
  }
  file->os() << text;
  file->keep();
  for (HloGraphFormat format : options.views) {
    SmallString<128> picture(directory);
    llvm::sys::path::append(picture, stem + "." + getHloGraphExtension(format));
    auto out = openOutputFile(picture, &error);
    if (!out) {
      emitWarning(module.getLoc(), "hlo-dump: ") << error;
      continue;
    }
    // A picture that cannot be drawn is a warning: the pipeline goes on.
    LogicalResult drawn = success();
    {
      ScopedDiagnosticHandler toWarning(
          module.getContext(), [&](Diagnostic &diag) {
            if (diag.getSeverity() != DiagnosticSeverity::Error)
              return failure();
            emitWarning(module.getLoc(), "hlo-dump: ") << diag.str();
            return success();
          });
      drawn = writeHloGraph(module, out->os(), format, options.viewOptions);
    }
    if (succeeded(drawn))
      out->keep();
  }
}

namespace {
class HloDumpInstrumentation : public PassInstrumentation {
public:
  HloDumpInstrumentation(ModuleOp module, const HloDumpOptions &options,
                         std::optional<llvm::Regex> filter)
      : root(module), options(options), directory(options.directory),
        filter(std::move(filter)), last(module) {
    name = syntax::sanitizeHloName(module.getSymName().value_or("module"));
  }

  void before() {
    writeModule(root, directory, name + ".0000.before_pipeline", options);
  }

  void runAfterPass(Pass *pass, Operation *op) override {
    ++position;
    if (op != root.getOperation())
      return;
    OperationFingerPrint now(op);
    if (now == last)
      return;
    last = now;
    if (filter && !filter->match(pass->getArgument()))
      return;
    writeModule(root, directory,
                llvm::formatv("{0}.{1:d4}.after_{2}", name, position,
                              pass->getArgument())
                    .str(),
                options);
  }

private:
  ModuleOp root;
  HloDumpOptions options;
  std::string directory, name;
  std::optional<llvm::Regex> filter;
  OperationFingerPrint last;
  unsigned position = 0;
};
} // namespace

LogicalResult mlir::hlo::addHloDump(PassManager &pm, ModuleOp module,
                                    const HloDumpOptions &options) {
  if (std::error_code ec =
          llvm::sys::fs::create_directories(options.directory))
    return module.emitError("--hlo-dump-to: cannot create '")
           << options.directory << "': " << ec.message();
  std::optional<llvm::Regex> filter;
  if (!options.passRegex.empty()) {
    filter.emplace(options.passRegex);
    std::string error;
    if (!filter->isValid(error))
      return module.emitError("--hlo-dump-pass-re: invalid regular "
                              "expression '")
             << options.passRegex << "': " << error;
  }
  auto instrumentation = std::make_unique<HloDumpInstrumentation>(
      module, options, std::move(filter));
  instrumentation->before();
  pm.addInstrumentation(std::move(instrumentation));
  return success();
}
