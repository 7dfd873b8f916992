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

#include "FuzzSession.h"
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

using hlo_fuzz::Session;

[[noreturn]] void fail(const Session &s, const Twine &what,
                       ArrayRef<std::pair<StringRef, StringRef>> texts) {
  hlo_fuzz::fail("HloImportFuzzer", s, what, texts);
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
