//===- CompositeRewriter.cpp - JAX's scaled-dot composites as scaled-dot --===//
//
// XLA-GPU's CompositeRewriter (first of XLA 0.10.2's "pre-spmd-partitioner"
// passes after the cuDNN custom-call converter). JAX's `lax.scaled_dot`
// lowers to a composite call
//
//   call(lhs, rhs, lhs_scale, rhs_scale), to_apply=<decomposition>,
//     is_composite=true, frontend_attributes={composite.name="xla.scaled_dot",
//     composite.attributes={dimension_numbers = [[[lc], [rc]], [[lb], [rb]]],
//                           preferred_element_type = f32}, ...}
//
// whose computation dequantizes both operands and dots them. The call
// becomes one `scaled-dot(lhs, rhs, lhs_scale, rhs_scale)` with those
// dimension numbers and the call's result type, which XLA's Triton emitter
// (or, here, hlo-scaled-dot-rewriter) takes as a whole. Taken as XLA 0.10.2
// takes it: one contracting and at most one batch dimension a side, and
// each side either f8e4m3fn, f8e5m2 or f4e2m1fn values with f8e8m0fnu
// scales of a block size along the contracting dimension that is a
// multiple of 32, or bf16 values with a bf16 constant scale of ones whose
// dimensions are all 1. Also required here: scales of their operand's rank
// whose dimensions divide the operand's (the op's verifier), four
// operands, no control edges. A composite without `composite.attributes`,
// or whose dimension numbers are not XLA's nested lists of integers or do
// not fit its operands and result, fails the pass, as it fails XLA's
// compile.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCOMPOSITEREWRITER
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// The dimension numbers of a scaled-dot composite, as JAX writes them.
struct DotDims {
  SmallVector<int64_t> lhsContracting, rhsContracting, lhsBatch, rhsBatch;
};

/// Reads `[[lhs_contracting, rhs_contracting], [lhs_batch, rhs_batch]]`,
/// each a list of integers, from the `dimension_numbers` entry of the
/// composite's attribute dictionary `text`; an error at `call` if it is
/// not there or not of that form.
FailureOr<DotDims> parseDimensionNumbers(CallOp call, StringRef text) {
  std::string parseError;
  Attribute parsed;
  {
    // Whatever the parser reports becomes part of the one error below.
    ScopedDiagnosticHandler quiet(call.getContext(), [&](Diagnostic &d) {
      if (parseError.empty())
        parseError = d.str();
      return success();
    });
    parsed = parseAttribute(text, call.getContext());
  }
  auto fail = [&](const Twine &why) {
    return call.emitError("hlo-composite-rewriter: xla.scaled_dot's "
                          "composite.attributes: ")
           << why;
  };
  auto dict = dyn_cast_or_null<DictionaryAttr>(parsed);
  if (!dict)
    return fail(parseError.empty() ? "not a dictionary" : parseError);
  auto outer = dyn_cast_or_null<ArrayAttr>(dict.get("dimension_numbers"));
  if (!outer)
    return fail("no dimension_numbers list");
  auto pairOf = [](Attribute a) {
    auto pair = dyn_cast<ArrayAttr>(a);
    return pair && pair.size() == 2 ? pair : ArrayAttr();
  };
  ArrayAttr contracting = outer.size() == 2 ? pairOf(outer[0]) : ArrayAttr();
  ArrayAttr batch = outer.size() == 2 ? pairOf(outer[1]) : ArrayAttr();
  if (!contracting || !batch)
    return fail("dimension_numbers is not [[lhs_contracting, "
                "rhs_contracting], [lhs_batch, rhs_batch]]");
  DotDims dims;
  auto read = [](Attribute list, SmallVector<int64_t> &out) {
    auto array = dyn_cast<ArrayAttr>(list);
    if (!array)
      return false;
    for (Attribute a : array) {
      auto i = dyn_cast<IntegerAttr>(a);
      if (!i)
        return false;
      out.push_back(i.getInt());
    }
    return true;
  };
  if (!read(contracting[0], dims.lhsContracting) ||
      !read(contracting[1], dims.rhsContracting) ||
      !read(batch[0], dims.lhsBatch) || !read(batch[1], dims.rhsBatch))
    return fail("a dimension list is not a list of integers");
  return dims;
}

/// XLA 0.10.2's test of one side (operand `x`, its scale, its contracting
/// dimension), and the scale's fit that the scaled-dot's verifier asks.
bool isSupportedSide(Value x, Value scale, int64_t contracting) {
  auto xt = dyn_cast<RankedTensorType>(x.getType());
  auto st = dyn_cast<RankedTensorType>(scale.getType());
  if (!xt || !st || !xt.hasStaticShape() || !st.hasStaticShape() ||
      xt.getRank() != st.getRank() || contracting < 0 ||
      contracting >= xt.getRank())
    return false;
  for (auto [n, m] : llvm::zip_equal(xt.getShape(), st.getShape()))
    if (m < 1 || n % m != 0)
      return false;
  Type value = xt.getElementType(), scaleType = st.getElementType();
  if (isa<Float8E4M3FNType, Float8E5M2Type, Float4E2M1FNType>(value) &&
      isa<Float8E8M0FNUType>(scaleType))
    return (xt.getDimSize(contracting) / st.getDimSize(contracting)) % 32 == 0;
  if (value.isBF16() && scaleType.isBF16())
    return llvm::all_of(st.getShape(), [](int64_t d) { return d == 1; }) &&
           matchPattern(scale, m_OneFloat());
  return false;
}

struct CompositeRewriterPass
    : ChangeReportingPass<CompositeRewriterPass,
                          hlo::impl::HloCompositeRewriterBase> {
  /// Rewrites the composite `call` if it is a scaled-dot XLA takes (its
  /// decomposition then added to `decompositions`); fails (after an error)
  /// on a composite XLA's compile fails on.
  LogicalResult rewrite(CallOp call, SymbolTable &symbols,
                        llvm::DenseSet<Operation *> &decompositions) {
    auto attrs = call->getAttrOfType<DictionaryAttr>("frontend_attributes");
    auto name = attrs ? attrs.getAs<StringAttr>("composite.name") : nullptr;
    if (!name || name.getValue() != "xla.scaled_dot")
      return success();
    auto text = attrs.getAs<StringAttr>("composite.attributes");
    if (!text)
      return call.emitError("hlo-composite-rewriter: composite.attributes "
                            "is not set for xla.scaled_dot");
    FailureOr<DotDims> dims = parseDimensionNumbers(call, text.getValue());
    if (failed(dims))
      return failure();
    OperandRange in = call.getInputs();
    if (in.size() != 4 || dims->lhsContracting.size() != 1 ||
        dims->rhsContracting.size() != 1 || dims->lhsBatch.size() > 1 ||
        dims->rhsBatch.size() > 1 || hasControlEdges(call) ||
        !isSupportedSide(in[0], in[2], dims->lhsContracting[0]) ||
        !isSupportedSide(in[1], in[3], dims->rhsContracting[0]))
      return success();
    // The dimension numbers must make the call's result shape.
    FailureOr<Type> dot =
        inferDot([&] { return call.emitError("hlo-composite-rewriter: "); },
                 in[0].getType(), in[1].getType(), dims->lhsBatch,
                 dims->lhsContracting, dims->rhsBatch, dims->rhsContracting);
    if (failed(dot))
      return failure();
    auto want = dyn_cast<RankedTensorType>(call.getType());
    if (!want || cast<RankedTensorType>(*dot).getShape() != want.getShape())
      return call.emitError("hlo-composite-rewriter: the xla.scaled_dot "
                            "composite's result ")
             << call.getType() << " is not its dot's shape " << *dot;
    OpBuilder b(call);
    SmallVector<NamedAttribute> dotAttrs;
    auto add = [&](StringRef attr, ArrayRef<int64_t> values) {
      if (!values.empty())
        dotAttrs.push_back(
            b.getNamedAttr(attr, b.getDenseI64ArrayAttr(values)));
    };
    add("lhs_batch_dims", dims->lhsBatch);
    add("lhs_contracting_dims", dims->lhsContracting);
    add("rhs_batch_dims", dims->rhsBatch);
    add("rhs_contracting_dims", dims->rhsContracting);
    Operation *scaled = createInstruction(
        b, derivedLoc(call.getLoc()), ScaledDotOp::getOperationName(),
        call.getType(), {in[0], in[1], in[2], in[3]}, dotAttrs);
    if (auto callee = symbols.lookup<ComputationOp>(call.getToApply()))
      decompositions.insert(callee);
    call->getResult(0).replaceAllUsesWith(scaled->getResult(0));
    call.erase();
    ++numRewritten;
    changed = true;
    return success();
  }

  void run() {
    SmallVector<CallOp> calls;
    getOperation().walk([&](CallOp call) {
      if (call.getIsComposite().value_or(false))
        calls.push_back(call);
    });
    if (calls.empty())
      return;
    SymbolTable symbols(getOperation());
    llvm::DenseSet<Operation *> decompositions;
    for (CallOp call : calls)
      if (failed(rewrite(call, symbols, decompositions)))
        return signalPassFailure();
    // The decompositions no call names any more.
    if (!decompositions.empty())
      eraseUnreferencedComputations(getOperation(), decompositions, symbols);
  }
};

} // namespace
