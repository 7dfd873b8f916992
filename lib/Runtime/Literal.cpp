//===- Literal.cpp - values of the reference interpreter ------------------===//
//
// Placeholder until the implementation lands.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Runtime/Literal.h"
