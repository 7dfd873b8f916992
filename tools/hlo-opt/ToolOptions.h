//===- ToolOptions.h - command-line helpers of the tools --------*- C++ -*-===//
//
// Small helpers over llvm::cl shared by hlo-opt, hlo-translate and hlo-run:
// looking up options that libraries (MLIR) register by name.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TOOLS_TOOLOPTIONS_H
#define HLO_TOOLS_TOOLOPTIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

namespace mlir::hlo {

/// The registered top-level option `name`, or null.
inline llvm::cl::Option *lookupOption(llvm::StringRef name) {
  return llvm::cl::getRegisteredOptions().lookup(name);
}

/// Hides the option `name` from --help (it is still accepted).
inline void hideOption(llvm::StringRef name) {
  if (llvm::cl::Option *option = lookupOption(name))
    option->setHiddenFlag(llvm::cl::ReallyHidden);
}

/// True if the option `name` was given on the parsed command line.
inline bool wasOptionGiven(llvm::StringRef name) {
  llvm::cl::Option *option = lookupOption(name);
  return option && option->getNumOccurrences() > 0;
}

} // namespace mlir::hlo

#endif // HLO_TOOLS_TOOLOPTIONS_H
