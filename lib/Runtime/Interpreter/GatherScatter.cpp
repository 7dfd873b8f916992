#include "Internal.h"
using namespace mlir;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::runtime::eval;
EvalResult eval::evalIndexingOp(Interp &, Operation *, Operands) { return std::nullopt; }
