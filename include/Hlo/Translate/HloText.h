//===- HloText.h - HLO text <-> hlo dialect ---------------------*- C++ -*-===//
//
// Import of XLA's HLO text format into the hlo dialect, and export back.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TRANSLATE_HLOTEXT_H
#define HLO_TRANSLATE_HLOTEXT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>
#include <utility>

namespace mlir::hlo {

/// Parses the HLO text module held by the main buffer of `sourceMgr`.
/// Errors are reported through the context's diagnostic engine with the
/// buffer's file:line:col; returns null on error.
OwningOpRef<ModuleOp> importHloText(llvm::SourceMgr &sourceMgr,
                                    MLIRContext *context);

/// Parses HLO text from a string (`bufferName` names it in diagnostics).
OwningOpRef<ModuleOp> importHloText(StringRef text, MLIRContext *context,
                                    StringRef bufferName = "<hlo>");

struct HloExportOptions {
  /// Print `op-start`/`op-done` for async chains wrapping one instruction.
  bool asyncSugar = true;
  /// Print `metadata={...}` recovered from locations.
  bool printMetadata = true;
};

/// Prints `module` (hlo dialect) as HLO text the way XLA prints by default.
LogicalResult exportHloText(ModuleOp module, raw_ostream &os,
                            const HloExportOptions &options = {});

/// Prints a type (array, tuple, token, opaque) as an HLO shape with layout.
void printHloShape(raw_ostream &os, Type type);

/// One instruction of an hlo module as HLO text on one line, named as
/// exportHloText names it but without `%`, without metadata:
/// `of1 = s32[] parameter(1)`, `a = f32[4]{0} add(x, y)`. `value` is an op's
/// result or a computation's parameter; empty when it is in no module.
std::string printHloInstruction(Value value);

/// The names exportHloText gives every parameter and instruction result of
/// `module` (without `%`), computed once for the whole module.
DenseMap<Value, std::string> getHloInstructionNames(ModuleOp module);

/// The pieces of an instruction as exportHloText prints them, one at a time,
/// for tools that show instructions on their own (graph views). Names are
/// assigned once for the whole module when the printer is built (linear in
/// the module), so they are the names the export prints.
class HloInstructionPrinter {
public:
  explicit HloInstructionPrinter(ModuleOp module);
  ~HloInstructionPrinter();
  HloInstructionPrinter(const HloInstructionPrinter &) = delete;
  HloInstructionPrinter &operator=(const HloInstructionPrinter &) = delete;

  /// The name of a parameter or instruction result, without `%`; empty for
  /// a value the export does not print.
  StringRef getName(Value value) const;
  /// printHloInstruction(value) for a value of this module, which is named
  /// once for all calls (printHloInstruction names it at every call).
  std::string printInstruction(Value value);
  /// The name the computation `symbol` prints under.
  StringRef getComputationName(StringRef symbol) const;
  /// False for a computation the export does not print: one wrapped by an
  /// async chain printed as `op-start`/`op-done` (async sugar).
  bool isPrinted(StringRef symbol) const;
  /// The opcode `op` prints with: `get-tuple-element`, `all-gather-start`
  /// for an async-start printed as sugar.
  std::string getOpcode(Operation *op);
  /// `op`'s attributes in the export's order as (HLO name, HLO spelling of
  /// the value), those of the wrapped instruction first for an async-start
  /// printed as sugar. Left out: the called computations, control
  /// predecessors and a constant's literal (see printLiteral).
  SmallVector<std::pair<std::string, std::string>> getAttributes(Operation *op);
  /// The same for the parameter `arg` of a computation.
  SmallVector<std::pair<std::string, std::string>>
  getAttributes(BlockArgument arg);
  /// Prints a literal of type `type` as a constant's operand prints.
  static void printLiteral(raw_ostream &os, Attribute literal, Type type);
  /// The metadata (`op_name`, `source_file`, ...) a location carries, the
  /// dictionary the export prints as `metadata={...}`; null if none.
  static DictionaryAttr getMetadata(Location loc);

  struct Impl;

private:
  std::unique_ptr<Impl> impl;
};

/// True if `text` looks like HLO text rather than MLIR.
bool looksLikeHloText(StringRef text);

/// Registers the dialects an imported module uses.
void registerHloTranslateDialects(DialectRegistry &registry);

} // namespace mlir::hlo

#endif // HLO_TRANSLATE_HLOTEXT_H
