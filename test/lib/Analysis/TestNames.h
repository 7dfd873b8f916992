//===- TestNames.h - HLO names in the test passes' output -------*- C++ -*-===//
//
// The name the analysis test passes print for a value: the name HLO text
// gives it, as the exporter does.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TEST_LIB_ANALYSIS_TESTNAMES_H
#define HLO_TEST_LIB_ANALYSIS_TESTNAMES_H

#include "Hlo/Translate/HloText.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"

#include <optional>
#include <string>

namespace mlir::hlo {

/// The HLO instruction name in a location (a NameLoc, possibly inside a
/// FusedLoc carrying metadata).
inline std::optional<StringRef> locationName(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().getValue();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::optional<StringRef> name = locationName(inner))
        return name;
  return std::nullopt;
}

/// The name the HLO exporter gives `value`: its location's, else the one it
/// makes up, read from `text`, the value's instruction printed as HLO
/// (printHloInstruction) up to ` = `.
inline std::string
instructionName(Value value,
                function_ref<std::string(Value)> text = printHloInstruction) {
  Location loc = isa<BlockArgument>(value) ? cast<BlockArgument>(value).getLoc()
                                           : value.getDefiningOp()->getLoc();
  if (std::optional<StringRef> name = locationName(loc))
    return name->str();
  std::string printed = text(value);
  return printed.substr(0, printed.find(" = "));
}

/// instructionName for many values of one module: the names the exporter
/// makes up are made once, on the first value without a location name
/// (printHloInstruction names the whole module at every call, which made
/// the test passes' output quadratic in the module size).
class InstructionNames {
public:
  std::string operator()(Value value) {
    return instructionName(value, [&](Value v) {
      if (!made) {
        Operation *scope =
            isa<BlockArgument>(v)
                ? cast<BlockArgument>(v).getOwner()->getParentOp()
                : v.getDefiningOp();
        auto module = scope->getParentOfType<ModuleOp>();
        made = module ? getHloInstructionNames(module)
                      : DenseMap<Value, std::string>();
      }
      return made->lookup(v);
    });
  }

private:
  std::optional<DenseMap<Value, std::string>> made;
};

} // namespace mlir::hlo

#endif // HLO_TEST_LIB_ANALYSIS_TESTNAMES_H
