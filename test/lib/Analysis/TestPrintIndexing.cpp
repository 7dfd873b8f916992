//===- TestPrintIndexing.cpp - print the indexing maps of every op --------===//
//
// --hlo-test-print-indexing: for every instruction of the entry computation
// (parameters aside), prints its output-to-input maps (per output, per
// operand) and its input-to-output maps (per operand, per output) to stdout:
//
//   %add operand 0 output-to-input:
//   (d0, d1) -> (d0, d1)
//   domain:
//   d0 in [0, 9]
//   d1 in [0, 19]
//
//   %add operand 0 input-to-output:
//   ...
//
// Ops with several outputs say `output K` in the output-to-input headers and
// print an `output K:` line before each output's input-to-output maps. Each
// map, or `unknown: <reason>`, is followed by a blank line. Pairs with no
// maps (a tuple's output K does not read its operand I) print nothing. Runtime
// variables name their instruction in HLO text.
//
//===----------------------------------------------------------------------===//

#include "HloTestPasses.h"
#include "TestNames.h"

#include "Hlo/Analysis/IndexingAnalysis.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {

class Printer {
public:
  explicit Printer(raw_ostream &os) : os(os) {}

  void printInstruction(Operation *op) {
    std::string name = "%" + nameOf(op->getResult(0));
    unsigned numOutputs = getNumIndexingOutputs(op);
    for (unsigned k = 0; k < numOutputs; ++k) {
      InstructionIndexing indexing = computeOutputToInputIndexing(op, k);
      for (auto [i, operand] : llvm::enumerate(indexing.indexing)) {
        if (isEmpty(operand))
          continue; // Output k does not read operand i.
        os << name;
        if (numOutputs > 1)
          os << " output " << k;
        os << " operand " << i << " output-to-input:\n";
        print(operand);
      }
    }
    for (unsigned i = 0; i < getDataOperands(op).size(); ++i) {
      InstructionIndexing indexing = computeInputToOutputIndexing(op, i);
      os << name << " operand " << i << " input-to-output:\n";
      for (auto [k, output] : llvm::enumerate(indexing.indexing)) {
        if (isEmpty(output))
          continue; // Operand i does not reach output k.
        if (numOutputs > 1)
          os << "output " << k << ":\n";
        print(output);
      }
    }
  }

private:
  static bool isEmpty(const OperandIndexing &indexing) {
    return !indexing.isUnknown() && indexing.maps.empty();
  }

  /// The name the HLO exporter gives `value`.
  std::string nameOf(Value value) {
    return instructionName(value, [&](Value v) { return hloText(v).str(); });
  }

  /// printHloInstruction(value), computed once per value, by one printer
  /// per module.
  StringRef hloText(Value value) {
    auto [it, inserted] = texts.try_emplace(value);
    if (inserted) {
      Operation *scope =
          isa<BlockArgument>(value)
              ? cast<BlockArgument>(value).getOwner()->getParentOp()
              : value.getDefiningOp();
      auto module = scope ? scope->getParentOfType<ModuleOp>() : ModuleOp();
      if (!module)
        return it->second;
      if (!printer || printerModule != module) {
        printer = std::make_unique<HloInstructionPrinter>(module);
        printerModule = module;
      }
      it->second = printer->printInstruction(value);
    }
    return it->second;
  }

  void print(const OperandIndexing &indexing) {
    if (indexing.isUnknown()) {
      os << "unknown: " << indexing.unknownReason << "\n\n";
      return;
    }
    for (const IndexingMap &map : indexing.maps) {
      withHloText(map).print(os);
      os << '\n';
    }
  }

  /// `map` with the `hlo:` text of its runtime variables filled in.
  IndexingMap withHloText(const IndexingMap &map) {
    if (map.getNumRuntimeVars() == 0)
      return map;
    std::vector<RuntimeVar> vars(map.getRuntimeVars().begin(),
                                 map.getRuntimeVars().end());
    for (RuntimeVar &var : vars)
      if (var.value && var.hloText.empty())
        var.hloText = hloText(var.value).str();
    SmallVector<std::pair<AffineExpr, Interval>> constraints(
        map.getConstraints().begin(), map.getConstraints().end());
    return IndexingMap(map.getAffineMap(), map.getDimBounds().vec(),
                       map.getRangeVarBounds().vec(), std::move(vars),
                       constraints);
  }

  raw_ostream &os;
  llvm::DenseMap<Value, std::string> texts;
  std::unique_ptr<HloInstructionPrinter> printer;
  ModuleOp printerModule;
};

struct TestPrintIndexingPass
    : public PassWrapper<TestPrintIndexingPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintIndexingPass)

  StringRef getArgument() const final { return "hlo-test-print-indexing"; }
  StringRef getDescription() const final {
    return "Print the indexing maps of every instruction of the entry "
           "computation";
  }

  void runOnOperation() override {
    Printer printer(llvm::outs());
    for (auto comp : getOperation().getOps<ComputationOp>()) {
      if (!comp.getEntry())
        continue;
      for (Operation &op : comp.getBody().front().without_terminator())
        if (op.getNumResults() == 1)
          printer.printInstruction(&op);
    }
    llvm::outs().flush();
  }
};

} // namespace

void mlir::hlo::registerTestPrintIndexingPass() {
  PassRegistration<TestPrintIndexingPass>();
}
