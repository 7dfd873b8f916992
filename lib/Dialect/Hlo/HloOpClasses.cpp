//===- HloOpClasses.cpp - classes of HLO instructions by opcode -----------===//

#include "Hlo/Dialect/Hlo/HloOpClasses.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

using namespace mlir;
using namespace mlir::hlo;

bool mlir::hlo::isElementwise(Operation *op) {
  return isa<AbsOp, AcosOp, AcoshOp, AsinOp, AsinhOp, AtanhOp, CoshOp, SinhOp,
             CbrtOp, CeilOp, ClzOp, CosOp, ErfOp, ExpOp, Expm1Op, FloorOp,
             ImagOp, IsFiniteOp, LogOp, Log1pOp, LogisticOp, NegOp, NotOp,
             PopcntOp, RealOp, RoundAfzOp, RoundEvenOp, RsqrtOp, SignOp, SinOp,
             SqrtOp, TanOp, TanhOp, CopyOp, ConvertOp, BitcastConvertOp,
             ReducePrecisionOp, StochasticConvertOp, AddOp, Atan2Op, AndOp,
             ComplexOp, DivOp, MaxOp, MinOp, MulOp, MulhiOp, OrOp, PowOp, RemOp,
             ShiftLeftOp, ShiftRightArithmeticOp, ShiftRightLogicalOp,
             SubtractOp, XorOp, CompareOp, ClampOp, SelectOp, MapOp>(op);
}
