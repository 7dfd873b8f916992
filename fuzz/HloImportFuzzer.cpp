//===- HloImportFuzzer.cpp - libFuzzer harness for HLO text ---------------===//
//
// Feeds arbitrary bytes to importHloText. Rejecting the input is fine as long
// as an error was reported; crashing, asserting or hanging is a bug. When the
// import succeeds, the module is exported, and the export must import again
// and (unless HLO_FUZZ_NO_FIXED_POINT is set) export to the same text.
// With HLO_FUZZ_VIA_MLIR set, the module's MLIR text form must also parse
// and export to the same text (what `hlo-translate --hlo-to-mlir |
// hlo-translate --mlir-to-hlo` does). A broken promise aborts, printing the
// diagnostics and texts involved.
//
// Each input gets a fresh MLIRContext, so a crash reproduces from its input
// alone.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using namespace mlir;

namespace {

struct Options {
  bool fixedPoint = true;
  bool viaMlir = false;
};
Options options;

struct Session {
  Session()
      : context(registry(), MLIRContext::Threading::DISABLED),
        handler(&context, [this](Diagnostic &d) {
          if (d.getSeverity() == DiagnosticSeverity::Error)
            ++errors;
          std::string s;
          llvm::raw_string_ostream os(s);
          os << d.getLocation() << ": " << d;
          diagnostics.push_back(std::move(s));
          return success();
        }) {}

  static DialectRegistry registry() {
    DialectRegistry r;
    hlo::registerHloTranslateDialects(r);
    return r;
  }

  OwningOpRef<ModuleOp> import(StringRef text, StringRef name) {
    reset();
    return hlo::importHloText(text, &context, name);
  }

  bool exportText(ModuleOp module, std::string &out) {
    reset();
    out.clear();
    llvm::raw_string_ostream os(out);
    return succeeded(hlo::exportHloText(module, os));
  }

  void reset() {
    errors = 0;
    diagnostics.clear();
  }

  MLIRContext context;
  ScopedDiagnosticHandler handler;
  unsigned errors = 0;
  std::vector<std::string> diagnostics;
};

[[noreturn]] void fail(const Session &s, const Twine &what,
                       ArrayRef<std::pair<StringRef, StringRef>> texts) {
  llvm::errs() << "HloImportFuzzer: " << what << "\n";
  for (const std::string &d : s.diagnostics)
    llvm::errs() << "  diagnostic: " << d << "\n";
  for (auto [title, text] : texts)
    llvm::errs() << "--- " << title << " (" << text.size() << " bytes) ---\n"
                 << text << "\n--- end of " << title << " ---\n";
  llvm::errs().flush();
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  options.fixedPoint = std::getenv("HLO_FUZZ_NO_FIXED_POINT") == nullptr;
  options.viaMlir = std::getenv("HLO_FUZZ_VIA_MLIR") != nullptr;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  StringRef input(reinterpret_cast<const char *>(data), size);
  Session s;

  OwningOpRef<ModuleOp> module = s.import(input, "input.hlo");
  if (!module) {
    if (s.errors == 0)
      fail(s, "import failed without reporting an error", {});
    return 0;
  }

  std::string exported;
  if (!s.exportText(*module, exported))
    fail(s, "an imported module does not export", {{"exported", exported}});

  OwningOpRef<ModuleOp> again = s.import(exported, "exported.hlo");
  if (!again)
    fail(s, "the export of an imported module does not import",
         {{"exported", exported}});

  if (options.fixedPoint) {
    std::string second;
    if (!s.exportText(*again, second))
      fail(s, "a re-imported module does not export", {{"exported", exported}});
    if (second != exported)
      fail(s, "export(import(export(x))) differs from export(x)",
           {{"first export", exported}, {"second export", second}});
  }

  if (options.viaMlir) {
    std::string mlirText;
    llvm::raw_string_ostream os(mlirText);
    module->print(os, OpPrintingFlags().enableDebugInfo(true, false));
    s.reset();
    OwningOpRef<ModuleOp> parsed =
        parseSourceString<ModuleOp>(mlirText, &s.context, "module.mlir");
    if (!parsed)
      fail(s, "the MLIR form of an imported module does not parse",
           {{"MLIR", mlirText}});
    std::string viaMlir;
    if (!s.exportText(*parsed, viaMlir))
      fail(s, "a module read from MLIR text does not export",
           {{"MLIR", mlirText}});
    if (viaMlir != exported)
      fail(s, "export through the MLIR text form differs",
           {{"direct export", exported}, {"export via MLIR", viaMlir}});
  }
  return 0;
}
