//===- main.cpp - a downstream user of the hlo-mlir package ---------------===//
//
// Imports an HLO text module (the file given, or a built-in one), verifies
// it and prints it as MLIR, prints the indexing maps of the entry's root,
// runs the module on the reference interpreter (arguments 0, 1, 2, ...) and
// exports it back to HLO text. Exercises every library of the package from
// outside the tree.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/IndexingAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Runtime/Interpreter.h"
#include "Hlo/Runtime/Literal.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace mlir;

static const char *const kDefaultModule = R"(HloModule downstream

ENTRY main {
  x = f32[4]{0} parameter(0)
  y = f32[4]{0} parameter(1)
  ROOT sum = f32[4]{0} add(x, y)
}
)";

int main(int argc, char **argv) {
  std::string text = kDefaultModule;
  std::string name = "<downstream>";
  if (argc > 1) {
    auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(argv[1]);
    if (!buffer) {
      llvm::errs() << "cannot read " << argv[1] << "\n";
      return 1;
    }
    text = (*buffer)->getBuffer().str();
    name = argv[1];
  }

  DialectRegistry registry;
  hlo::registerHloTranslateDialects(registry);
  MLIRContext context(registry);
  context.loadDialect<hlo::HloDialect>();

  OwningOpRef<ModuleOp> module = hlo::importHloText(text, &context, name);
  if (!module || failed(verify(*module)))
    return 1;
  llvm::outs() << "// MLIR\n";
  module->print(llvm::outs());
  llvm::outs() << "\n";

  // Analysis: the root's output-to-input maps.
  for (auto computation : module->getOps<hlo::ComputationOp>()) {
    if (!computation.getEntry())
      continue;
    Operation *root =
        computation.getBody().front().getTerminator()->getOperand(0)
            .getDefiningOp();
    if (!root)
      continue;
    hlo::InstructionIndexing indexing =
        hlo::computeOutputToInputIndexing(root);
    for (auto [i, operand] : llvm::enumerate(indexing.indexing)) {
      llvm::outs() << "// root operand " << i << ":";
      if (operand.isUnknown())
        llvm::outs() << " unknown: " << operand.unknownReason;
      for (const hlo::IndexingMap &map : operand.maps)
        llvm::outs() << " " << map.toOneLineString();
      llvm::outs() << "\n";
    }
  }

  // Runtime: run the module on arguments whose elements are 0, 1, 2, ...
  // (random arguments give the parameters' types, then are overwritten).
  std::string error;
  FailureOr<std::vector<hlo::runtime::Literal>> arguments =
      hlo::runtime::randomArguments(*module, /*seed=*/0, error);
  if (failed(arguments)) {
    llvm::errs() << "error: " << error << "\n";
    return 1;
  }
  for (hlo::runtime::Literal &argument : *arguments) {
    if (!argument.isArray())
      continue;
    for (int64_t i = 0; i < argument.getNumElements(); ++i) {
      switch (argument.getElementKind()) {
      case hlo::runtime::ElementKind::Float:
        argument.setFloat(i, i);
        break;
      case hlo::runtime::ElementKind::Complex:
        argument.setComplex(i, i);
        break;
      default:
        argument.setInt(i, i);
      }
    }
  }
  FailureOr<hlo::runtime::Literal> result = hlo::runtime::run(
      *module, *arguments, hlo::runtime::getModuleOptions(*module), error);
  if (failed(result)) {
    llvm::errs() << "error: " << error << "\n";
    return 1;
  }
  llvm::outs() << "// result: " << result->toString() << "\n";

  llvm::outs() << "// HLO\n";
  if (failed(hlo::exportHloText(*module, llvm::outs())))
    return 1;
  return 0;
}
