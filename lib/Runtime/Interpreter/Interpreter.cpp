//===- Interpreter.cpp - reference interpreter of the hlo dialect ---------===//
//
// Placeholder until the implementation lands.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Runtime/Interpreter.h"
