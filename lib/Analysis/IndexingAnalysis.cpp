//===- IndexingAnalysis.cpp - indexing maps of hlo ops --------------------===//
//
// Placeholder until the per-op maps land.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/IndexingAnalysis.h"
