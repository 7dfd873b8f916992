//===- TestLowerScalar.cpp - scalar computations as arith functions -------===//
//
// --hlo-test-lower-scalar: every scalar computation (all parameters and the
// result rank-0 arrays, or a tuple of them) becomes a func.func of the ops
// emitScalarComputation builds, named after it. A computation that some
// instruction still calls stays, with the function beside it named
// `<name>.scalar`; one the lowering does not take stays unchanged (with the
// lowering's error as a remark).
//
//===----------------------------------------------------------------------===//

#include "HloTestPasses.h"

#include "Hlo/Conversion/ScalarLowering.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// The scalar types of `t` (a rank-0 array, or a tuple of them), or none.
bool scalarTypes(Type t, SmallVectorImpl<Type> &out) {
  if (auto tuple = dyn_cast<TupleType>(t)) {
    for (Type e : tuple.getTypes())
      if (!scalarTypes(e, out) || isa<TupleType>(e))
        return false;
    return true;
  }
  auto tt = dyn_cast<RankedTensorType>(t);
  if (!tt || tt.getRank() != 0)
    return false;
  out.push_back(getScalarType(tt.getElementType()));
  return true;
}

struct TestLowerScalarPass
    : public PassWrapper<TestLowerScalarPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestLowerScalarPass)

  StringRef getArgument() const final { return "hlo-test-lower-scalar"; }
  StringRef getDescription() const final {
    return "Replace every scalar computation by a func.func of its scalar "
           "lowering (arith/math/complex)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, complex::ComplexDialect,
                    func::FuncDialect, math::MathDialect, scf::SCFDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<ComputationOp> comps(module.getOps<ComputationOp>());
    for (ComputationOp comp : comps) {
      SmallVector<Type> args, results;
      bool scalar = true;
      for (Type t : comp.getArgumentTypes())
        scalar = scalar && !isa<TupleType>(t) && scalarTypes(t, args);
      scalar = scalar && comp.getResultTypes().size() == 1 &&
               scalarTypes(comp.getResultTypes()[0], results);
      if (!scalar)
        continue;
      bool used = !SymbolTable::symbolKnownUseEmpty(comp, module);
      OpBuilder b(comp);
      if (used)
        b.setInsertionPointAfter(comp);
      std::string name = comp.getSymName().str();
      auto func =
          func::FuncOp::create(b, comp.getLoc(), used ? name + ".scalar" : name,
                               b.getFunctionType(args, results));
      Block *entry = func.addEntryBlock();
      b.setInsertionPointToStart(entry);
      std::string error;
      FailureOr<SmallVector<Value>> r = [&] {
        ScopedDiagnosticHandler handler(&getContext(), [&](Diagnostic &d) {
          error += d.str();
          return success();
        });
        return emitScalarComputation(b, comp.getLoc(), comp.getBody(),
                                     entry->getArguments());
      }();
      if (failed(r)) {
        func.erase();
        comp.emitRemark("not lowered: ") << error;
        continue;
      }
      func::ReturnOp::create(b, comp.getLoc(), *r);
      if (!used)
        comp.erase();
    }
  }
};

} // namespace

void mlir::hlo::registerTestLowerScalarPass() {
  PassRegistration<TestLowerScalarPass>();
}
