//===- TestNames.h - HLO names in the test passes' output -------*- C++ -*-===//
//
// The name the analysis test passes print for a value: the name HLO text
// gives it, as the exporter does.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TEST_LIB_ANALYSIS_TESTNAMES_H
#define HLO_TEST_LIB_ANALYSIS_TESTNAMES_H

#include "Hlo/Translate/HloText.h"

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

} // namespace mlir::hlo

#endif // HLO_TEST_LIB_ANALYSIS_TESTNAMES_H
