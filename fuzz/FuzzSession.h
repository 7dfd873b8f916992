//===- FuzzSession.h - what the fuzz harnesses share ------------*- C++ -*-===//
//
// One MLIRContext per input with the hlo dialects loaded and every
// diagnostic recorded, the steps the harnesses take (import HLO text, parse
// MLIR, export HLO text), and the abort that reports a broken promise with
// the diagnostics and texts involved.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_FUZZ_FUZZSESSION_H
#define HLO_FUZZ_FUZZSESSION_H

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace hlo_fuzz {

struct Session {
  Session()
      : context(registry(), mlir::MLIRContext::Threading::DISABLED),
        handler(&context, [this](mlir::Diagnostic &d) {
          if (d.getSeverity() == mlir::DiagnosticSeverity::Error)
            ++errors;
          std::string s;
          llvm::raw_string_ostream os(s);
          os << d.getLocation() << ": " << d;
          diagnostics.push_back(std::move(s));
          return mlir::success();
        }) {
    context.allowUnregisteredDialects(false);
    context.loadAllAvailableDialects();
  }

  static mlir::DialectRegistry registry() {
    mlir::DialectRegistry r;
    mlir::hlo::registerHloTranslateDialects(r);
    return r;
  }

  mlir::OwningOpRef<mlir::ModuleOp> import(llvm::StringRef text,
                                           llvm::StringRef name) {
    reset();
    return mlir::hlo::importHloText(text, &context, name);
  }

  mlir::OwningOpRef<mlir::ModuleOp> parse(llvm::StringRef text,
                                          llvm::StringRef name, bool verify) {
    reset();
    mlir::ParserConfig config(&context, verify);
    return mlir::parseSourceString<mlir::ModuleOp>(text, config, name);
  }

  bool exportText(mlir::ModuleOp module, std::string &out) {
    reset();
    out.clear();
    llvm::raw_string_ostream os(out);
    return mlir::succeeded(mlir::hlo::exportHloText(module, os));
  }

  void reset() {
    errors = 0;
    diagnostics.clear();
  }

  mlir::MLIRContext context;
  mlir::ScopedDiagnosticHandler handler;
  unsigned errors = 0;
  std::vector<std::string> diagnostics;
};

/// Prints `tool: what`, the diagnostics and `texts` (title, text), then
/// aborts, so that libFuzzer saves the input.
[[noreturn]] inline void
fail(llvm::StringRef tool, const Session &s, const llvm::Twine &what,
     llvm::ArrayRef<std::pair<llvm::StringRef, llvm::StringRef>> texts) {
  llvm::errs() << tool << ": " << what << "\n";
  for (const std::string &d : s.diagnostics)
    llvm::errs() << "  diagnostic: " << d << "\n";
  for (auto [title, text] : texts)
    llvm::errs() << "--- " << title << " (" << text.size() << " bytes) ---\n"
                 << text << "\n--- end of " << title << " ---\n";
  llvm::errs().flush();
  std::abort();
}

} // namespace hlo_fuzz

#endif // HLO_FUZZ_FUZZSESSION_H
