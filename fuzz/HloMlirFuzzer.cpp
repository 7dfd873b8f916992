//===- HloMlirFuzzer.cpp - libFuzzer harness for the MLIR form ------------===//
//
// Feeds arbitrary bytes, as MLIR assembly, to MLIR's parser with the hlo
// dialect loaded, then to the verifier and the HLO text exporter. Rejecting
// the input is fine as long as an error was reported; crashing, asserting or
// hanging is a bug. Checks, in order:
//
//  1. parsing (without verification) and then `mlir::verify` either succeed
//     or report an error diagnostic;
//  2. a verified module prints as MLIR (custom form, with locations) and
//     parses and verifies again;
//  3. a verified module either exports as HLO text or reports an error;
//  4. the exported text imports again with importHloText, and the module
//     read back in step 2 exports to the same text.
//
// A broken promise aborts, printing the diagnostics and texts involved.
// Inputs nested deeper than kMaxNesting brackets are skipped: MLIR's own
// parser recurses once per level and is not what this harness tests.
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
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using namespace mlir;

namespace {

/// Deeper bracket nesting is skipped (see the file comment).
constexpr int kMaxNesting = 64;

using hlo_fuzz::Session;

[[noreturn]] void fail(const Session &s, const Twine &what,
                       ArrayRef<std::pair<StringRef, StringRef>> texts) {
  hlo_fuzz::fail("HloMlirFuzzer", s, what, texts);
}

/// The deepest nesting of `( [ { <` in `text` (`->` does not close).
int nestingDepth(StringRef text) {
  int depth = 0, deepest = 0;
  for (size_t i = 0, e = text.size(); i != e; ++i) {
    switch (text[i]) {
    case '(':
    case '[':
    case '{':
    case '<':
      deepest = std::max(deepest, ++depth);
      break;
    case '>':
      if (i != 0 && text[i - 1] == '-')
        break;
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      depth = std::max(depth - 1, 0);
      break;
    default:
      break;
    }
  }
  return deepest;
}

std::string printMlir(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().enableDebugInfo(true, false));
  return text;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // MLIR's lexer finds the end of its buffer by the NUL that MemoryBuffer
  // guarantees after files; libFuzzer's bytes have none, so copy them.
  std::string owned(reinterpret_cast<const char *>(data), size);
  StringRef input(owned);
  if (nestingDepth(input) > kMaxNesting)
    return 0;
  Session s;

  // 1. Parse, then verify.
  OwningOpRef<ModuleOp> module = s.parse(input, "input.mlir", /*verify=*/false);
  if (!module) {
    if (s.errors == 0)
      fail(s, "parsing failed without reporting an error", {});
    return 0;
  }
  s.reset();
  if (failed(verify(*module))) {
    if (s.errors == 0)
      fail(s, "verification failed without reporting an error", {});
    return 0;
  }

  // 2. Printer/parser round trip.
  std::string mlirText = printMlir(*module);
  OwningOpRef<ModuleOp> reparsed =
      s.parse(mlirText, "printed.mlir", /*verify=*/true);
  if (!reparsed)
    fail(s, "the printed form of a verified module does not parse and verify",
         {{"printed", mlirText}});

  // 3. Export.
  std::string exported;
  if (!s.exportText(*module, exported)) {
    if (s.errors == 0)
      fail(s, "export failed without reporting an error", {{"MLIR", mlirText}});
    return 0;
  }

  // 4. The export imports again; the printed module exports the same way.
  s.reset();
  OwningOpRef<ModuleOp> imported =
      hlo::importHloText(exported, &s.context, "exported.hlo");
  if (!imported)
    fail(s, "the export of a verified module does not import",
         {{"MLIR", mlirText}, {"exported", exported}});

  std::string viaPrinted;
  if (!s.exportText(*reparsed, viaPrinted))
    fail(s, "the printed form of an exported module does not export",
         {{"MLIR", mlirText}, {"exported", exported}});
  if (viaPrinted != exported)
    fail(s, "the export of the printed form differs",
         {{"MLIR", mlirText},
          {"export", exported},
          {"export of the printed form", viaPrinted}});
  return 0;
}
