//===- GpuLayoutAssignment.cpp - explicit layouts for every array ---------===//
//
// XLA's GpuLayoutAssignment (gpu/transforms/layout_assignment) over the
// generic LayoutAssignment: constraints from the entry computation layout,
// cuBLAS dots, cuDNN convolutions and the ops XLA-GPU constrains, propagated
// from users to operands and from operands to users; a `copy` resolves each
// remaining conflict (seed 004).
//
// Per computation, two walks: in reverse order every instruction whose
// layout is fixed (a backend constraint) or asked for by a user (the first
// user seen; a preference yields to a convolution's result layout carried
// forward through elementwise ops) gets it and asks its operands for the
// layouts it wants (a mandatory request or a preference); then in order the
// others follow their operands or take the default layout, every result type is
// set, and an operand whose layout differs from a mandatory request gets a
// copy.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Analysis/GpuDeviceInfo.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Dialect/Hlo/HloMemoryAnnotations.h"
#include "Hlo/Transforms/GpuLayoutPasses.h"
#include "LayoutUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOGPULAYOUTASSIGNMENT
#include "Hlo/Transforms/GpuLayoutPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

using Order = SmallVector<int64_t>;

/// What a user wants of an operand: a type with layouts, and whether it
/// must have it (a copy otherwise) or only prefers it. A request that comes
/// from the computation's result (through its root tuple) yields to the
/// libraries' layouts, as XLA propagates the result constraint after the
/// backend and custom-call constraints and resolves it with a copy at the
/// root.
struct Want {
  Type type;
  bool mandatory = true;
  bool fromResult = false;
};

int64_t rankOf(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  return rt ? rt.getRank() : -1;
}

/// The order from major to minor given as groups, as minor-to-major.
Order fromMajorToMinor(ArrayRef<ArrayRef<int64_t>> groups) {
  Order m2m;
  for (ArrayRef<int64_t> g : llvm::reverse(groups))
    for (int64_t d : llvm::reverse(g))
      m2m.push_back(d);
  return m2m;
}

/// XLA's MatrixLayout::For on dimension groups: each group physically
/// consecutive in its order, the batch group not the most minor one.
bool cublasTakes(ArrayRef<int64_t> m2m, ArrayRef<int64_t> batch,
                 ArrayRef<int64_t> rows, ArrayRef<int64_t> cols) {
  SmallVector<int64_t> pos(m2m.size());
  for (auto [i, d] : llvm::enumerate(m2m))
    pos[d] = i;
  auto consecutive = [&](ArrayRef<int64_t> g) {
    for (size_t i = 1; i < g.size(); ++i)
      if (pos[g[i - 1]] != pos[g[i]] + 1)
        return false;
    return true;
  };
  if (!consecutive(batch) || !consecutive(rows) || !consecutive(cols))
    return false;
  if (batch.empty())
    return true;
  int64_t batchMinor = pos[batch.back()];
  return (rows.empty() || batchMinor > pos[rows.front()]) ||
         (cols.empty() || batchMinor > pos[cols.front()]);
}

struct DotSide {
  ArrayRef<int64_t> batch, contracting;
  SmallVector<int64_t> free;
};

DotSide dotSide(Type operand, ArrayRef<int64_t> batch,
                ArrayRef<int64_t> contracting) {
  DotSide s{batch, contracting, {}};
  for (int64_t d = 0, r = rankOf(operand); d < r; ++d)
    if (!llvm::is_contained(batch, d) && !llvm::is_contained(contracting, d))
      s.free.push_back(d);
  return s;
}

/// The result dimensions of a dot: batch, lhs free, rhs free.
bool dotTakesResult(DotOp dot, ArrayRef<int64_t> m2m) {
  DotSide l = dotSide(dot.getLhs().getType(), orEmpty(dot.getLhsBatchDims()),
                      orEmpty(dot.getLhsContractingDims()));
  DotSide r = dotSide(dot.getRhs().getType(), orEmpty(dot.getRhsBatchDims()),
                      orEmpty(dot.getRhsContractingDims()));
  SmallVector<int64_t> batch, rows, cols;
  int64_t d = 0;
  for (size_t i = 0; i < l.batch.size(); ++i)
    batch.push_back(d++);
  for (size_t i = 0; i < l.free.size(); ++i)
    rows.push_back(d++);
  for (size_t i = 0; i < r.free.size(); ++i)
    cols.push_back(d++);
  return cublasTakes(m2m, batch, rows, cols);
}

/// True if XLA-GPU constrains the dot's result (a batch dimension or more
/// than one free dimension on a side).
bool dotResultConstrained(DotOp dot) {
  return !orEmpty(dot.getLhsBatchDims()).empty() ||
         dotSide(dot.getLhs().getType(), orEmpty(dot.getLhsBatchDims()),
                 orEmpty(dot.getLhsContractingDims()))
                 .free.size() > 1 ||
         dotSide(dot.getRhs().getType(), orEmpty(dot.getRhsBatchDims()),
                 orEmpty(dot.getRhsContractingDims()))
                 .free.size() > 1;
}

enum class ConvKind {
  None,
  Forward,
  ForwardActivation,
  ForwardGraph,
  BackwardInput,
  BackwardFilter
};

ConvKind convKind(Operation *op) {
  auto call = dyn_cast<CustomCallOp>(op);
  if (!call || !call.getDimLabelsAttr())
    return ConvKind::None;
  StringRef t = call.getCustomCallTarget();
  if (t == "__cudnn$convForward")
    return ConvKind::Forward;
  if (t == "__cudnn$convBiasActivationForward")
    return ConvKind::ForwardActivation;
  if (t == "__cudnn$convForwardGraph")
    return ConvKind::ForwardGraph;
  if (t == "__cudnn$convBackwardInput")
    return ConvKind::BackwardInput;
  if (t == "__cudnn$convBackwardFilter")
    return ConvKind::BackwardFilter;
  return ConvKind::None;
}

struct GpuLayoutAssignmentPass
    : ChangeReportingPass<GpuLayoutAssignmentPass,
                          hlo::impl::HloGpuLayoutAssignmentBase> {
  using ChangeReportingPass::ChangeReportingPass;

  // Per computation.
  DenseMap<Value, Type> decided;
  DenseMap<Value, SmallVector<Want>> requests;
  DenseMap<Operation *, SmallVector<Type>> bitcastOperand;
  DenseMap<std::pair<Value, Type>, Value> copies;
  SymbolTable *symbols = nullptr;
  /// The computations async-starts wrap: one instruction each, no room for
  /// a copy.
  llvm::DenseSet<Operation *> asyncWrapped;

  /// Conditional branches called by nothing else: their parameters take
  /// the layouts their users need, and the conditional copies its operand
  /// where it must (XLA lays out a callee before its caller).
  llvm::DenseSet<Operation *> freeBranches;
  /// The computations laid out so far.
  llvm::DenseSet<Operation *> laidOut;

  void run() {
    ModuleOp module = getOperation();
    SymbolTable table(module);
    symbols = &table;
    llvm::DenseSet<Operation *> fused;
    module.walk([&](FusionOp f) {
      if (Operation *callee = table.lookup(f.getCalls()))
        fused.insert(callee);
    });
    module.walk([&](AsyncStartOp a) {
      if (Operation *callee = table.lookup(a.getCalls()))
        asyncWrapped.insert(callee);
    });
    findFreeBranches(module);
    laidOut.clear();
    // Branches before the computations holding their conditionals.
    llvm::DenseSet<Operation *> done;
    std::function<void(ComputationOp)> visit = [&](ComputationOp comp) {
      if (!done.insert(comp).second)
        return;
      comp.walk([&](ConditionalOp cond) {
        for (FlatSymbolRefAttr branch : cond.getBranches())
          if (auto callee = table.lookup<ComputationOp>(branch.getValue());
              callee && freeBranches.contains(callee))
            visit(callee);
      });
      if (!fused.contains(comp))
        assign(comp);
    };
    for (auto comp : module.getOps<ComputationOp>())
      visit(comp);
  }

  void findFreeBranches(ModuleOp module) {
    freeBranches.clear();
    llvm::DenseMap<StringAttr, unsigned> uses;
    if (auto all = SymbolTable::getSymbolUses(&module.getBodyRegion()))
      for (const SymbolTable::SymbolUse &use : *all)
        ++uses[use.getSymbolRef().getRootReference()];
    module.walk([&](ConditionalOp cond) {
      SmallVector<Value> data = getDataOperands(cond);
      for (auto [i, branch] : llvm::enumerate(cond.getBranches()))
        // The branch's operand read by it alone: copying it for the branch
        // copies nothing another user reads.
        if (uses.lookup(branch.getAttr()) == 1 && i + 1 < data.size() &&
            data[i + 1].hasOneUse())
          if (auto callee = symbols->lookup<ComputationOp>(branch.getValue());
              callee && !callee.getEntry() &&
              callee.getBody().getNumArguments() == 1)
            freeBranches.insert(callee);
    });
  }

  //===--- Computation layouts --------------------------------------------===//

  /// The layouts the computation's parameters and result must have.
  std::pair<SmallVector<Type>, Type> computationLayout(ComputationOp comp) {
    SmallVector<Type> params;
    FunctionType fn = comp.getFunctionType();
    if (!comp.getEntry()) {
      for (Type t : fn.getInputs())
        params.push_back(withDefaultLayouts(t));
      return {params, withDefaultLayouts(fn.getResult(0))};
    }
    FunctionType given = fn;
    if (auto attr = dyn_cast_or_null<TypeAttr>(
            getOperation()->getAttr("hlo.entry_computation_layout")))
      if (auto f = dyn_cast<FunctionType>(attr.getValue()))
        if (f.getNumInputs() == fn.getNumInputs() && f.getNumResults() == 1)
          given = f;
    for (auto [t, g] : llvm::zip(fn.getInputs(), given.getInputs()))
      params.push_back(layoutLike(t, g));
    return {params, layoutLike(fn.getResult(0), given.getResult(0))};
  }

  /// `t` with `leaf(a, b)` for each part `a` of `t` that is not a tuple of
  /// the size of `b`, its counterpart in `like`, element by element.
  static Type zipLike(Type t, Type like, function_ref<Type(Type, Type)> leaf) {
    auto tt = dyn_cast<TupleType>(t);
    auto lt = dyn_cast<TupleType>(like);
    if (!tt || !lt || tt.size() != lt.size())
      return leaf(t, like);
    SmallVector<Type> elements;
    for (auto [a, b] : llvm::zip(tt.getTypes(), lt.getTypes()))
      elements.push_back(zipLike(a, b, leaf));
    return TupleType::get(t.getContext(), elements);
  }

  /// `t` with the layouts of `like` (the default where it has none).
  static Type layoutLike(Type t, Type like) {
    return zipLike(t, like, [](Type a, Type b) {
      auto ra = dyn_cast<RankedTensorType>(a);
      auto rb = dyn_cast<RankedTensorType>(b);
      if (ra && rb && ra.getRank() == rb.getRank())
        return withMinorToMajor(a, getMinorToMajor(rb));
      return withDefaultLayouts(a);
    });
  }

  /// `t` with the memory spaces of `like` where its arrays match them.
  static Type memorySpacesLike(Type t, Type like) {
    return zipLike(t, like, [](Type a, Type b) {
      int64_t space = getMemorySpace(b);
      return space && isa<RankedTensorType>(a) ? withMemorySpace(a, space) : a;
    });
  }

  //===--- Constraints ----------------------------------------------------===//

  /// The layout an array result must have whatever its users want, if any.
  std::optional<Order> fixedLayout(Operation *op) {
    Type type = op->getResult(0).getType();
    int64_t rank = rankOf(type);
    if (isa<BitcastOp, FusionOp>(op))
      return getMinorToMajor(type);
    if (auto dot = dyn_cast<DotOp>(op)) {
      if (!dotResultConstrained(dot))
        return std::nullopt;
      // XLA's SetDotLayout: a layout a user asks for if cuBLAS takes it.
      for (const Want &w : requests.lookup(op->getResult(0)))
        if (w.mandatory && dotTakesResult(dot, getMinorToMajor(w.type)))
          return getMinorToMajor(w.type);
      return defaultMinorToMajor(rank);
    }
    // An async-done returns its computation's result: laid out by default,
    // as every computation but the entry (XLA's dumps hold such pairs).
    if (isa<SortOp, FftOp, WhileOp, CallOp, ConditionalOp, AsyncDoneOp>(op))
      return defaultMinorToMajor(rank);
    if (isa<TriangularSolveOp>(op))
      return fortran(rank);
    if (auto call = dyn_cast<CustomCallOp>(op)) {
      if (call.getOperandLayoutConstraints())
        return getMinorToMajor(type);
      if (readsColumnMajor(call) && rank >= 2)
        return fortran(rank);
      // XLA keeps a dynamic array's layout through SliceToDynamic: its
      // users decide, and its operand follows.
      if (call.getCustomCallTarget() == "SliceToDynamic")
        return std::nullopt;
      return defaultMinorToMajor(rank);
    }
    if (std::optional<int64_t> dim = gatherScatterDimension(op))
      return moveToMajor(rank, *dim);
    return std::nullopt;
  }

  /// The one dimension an all-gather or reduce-scatter gathers / scatters,
  /// an array all-to-all splits or a ragged-all-to-all moves rows of (0),
  /// which XLA's NCCL thunks need most major (not inside an async-start's
  /// computation, which holds no copy: there the layouts stay, and the CUDA
  /// runtime says it cannot run them).
  std::optional<int64_t> gatherScatterDimension(Operation *op) {
    if (asyncWrapped.contains(op->getParentOp()))
      return std::nullopt;
    ArrayRef<int64_t> dims;
    if (isa<RaggedAllToAllOp>(op))
      return 0;
    if (auto gather = dyn_cast<AllGatherOp>(op))
      dims = gather.getDimensions();
    else if (auto scatter = dyn_cast<ReduceScatterOp>(op))
      dims = scatter.getDimensions();
    else if (auto allToAll = dyn_cast<AllToAllOp>(op);
             allToAll && allToAll.getDimensions() && op->getNumResults() == 1 &&
             isa<RankedTensorType>(op->getResult(0).getType()))
      dims = *allToAll.getDimensions();
    if (dims.size() != 1)
      return std::nullopt;
    return dims[0];
  }

  /// XLA's cuBLAS triangular solve and cuSOLVER Cholesky calls: the
  /// libraries read and write column-major matrices (XLA's layout
  /// assignment gives their operands and result that layout).
  static bool readsColumnMajor(CustomCallOp call) {
    StringRef target = call.getCustomCallTarget();
    return target == "__cublas$triangularSolve" ||
           target == "__cusolver$cholesky";
  }

  /// A library call whose result layout is the library's: cuDNN
  /// convolutions, triangular solves, cuSOLVER/cuBLAS calls and custom calls
  /// with layout constraints.
  static bool isLibraryCall(Operation *op) {
    if (convKind(op) != ConvKind::None || isa<TriangularSolveOp>(op))
      return true;
    auto call = dyn_cast<CustomCallOp>(op);
    return call &&
           (call.getOperandLayoutConstraints() || readsColumnMajor(call));
  }

  static Order fortran(int64_t rank) {
    Order m2m = defaultMinorToMajor(rank);
    if (rank >= 2)
      std::swap(m2m[0], m2m[1]);
    return m2m;
  }

  static Order moveToMajor(int64_t rank, int64_t dim) {
    Order m2m;
    for (int64_t d : defaultMinorToMajor(rank))
      if (d != dim)
        m2m.push_back(d);
    m2m.push_back(dim);
    return m2m;
  }

  /// The type with layouts of a tuple-shaped result (its leaves' layouts are
  /// fixed by the op or follow its operands).
  Type tupleResultType(Operation *op) {
    Type type = op->getResult(0).getType();
    if (isa<TupleOp>(op)) {
      SmallVector<Type> elements;
      for (Value v : getDataOperands(op))
        elements.push_back(v.getType());
      return TupleType::get(op->getContext(), elements);
    }
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      // Every reduced array follows the first input, as XLA lays out a
      // variadic reduce (hlo-reduce-decomposer then copies the other
      // inputs to its layout): the emitters write all the results in one
      // layout.
      auto tuple = cast<TupleType>(type);
      SmallVector<int64_t> layout = reducedLayout(
          reduce.getInputs()[0].getType(), reduce.getDimensions());
      SmallVector<Type> elements;
      for (Type t : tuple.getTypes())
        elements.push_back(withMinorToMajor(t, layout));
      return TupleType::get(op->getContext(), elements);
    }
    // PadToStatic: the array at its bounds in its operand's layout.
    if (auto call = dyn_cast<CustomCallOp>(op);
        call && call.getCustomCallTarget() == "PadToStatic" &&
        isa<TupleType>(type) && cast<TupleType>(type).size() >= 1) {
      SmallVector<Type> elements(cast<TupleType>(type).getTypes());
      elements[0] = layoutLike(elements[0], op->getOperand(0).getType());
      for (size_t i = 1; i < elements.size(); ++i)
        elements[i] = withDefaultLayouts(elements[i]);
      return TupleType::get(op->getContext(), elements);
    }
    ConvKind kind = convKind(op);
    auto tuple = dyn_cast<TupleType>(type);
    if (kind != ConvKind::None && tuple && tuple.size() >= 1) {
      SmallVector<Type> elements(tuple.getTypes());
      elements[0] = withMinorToMajor(elements[0], convLayouts(op)[2]);
      for (size_t i = 1; i < elements.size(); ++i)
        elements[i] = withDefaultLayouts(elements[i]);
      return TupleType::get(op->getContext(), elements);
    }
    if (auto call = dyn_cast<CustomCallOp>(op)) {
      if (call.getOperandLayoutConstraints())
        return layoutLike(type, type);
      if (readsColumnMajor(call) && tuple && tuple.size() >= 1 &&
          rankOf(tuple.getType(0)) >= 2) {
        SmallVector<Type> elements;
        for (Type t : tuple.getTypes())
          elements.push_back(withDefaultLayouts(t));
        elements[0] =
            withMinorToMajor(elements[0], fortran(rankOf(elements[0])));
        return TupleType::get(op->getContext(), elements);
      }
    }
    return withDefaultLayouts(type);
  }

  /// An operand layout with the reduced dimensions removed.
  static Order reducedLayout(Type input, ArrayRef<int64_t> reduced) {
    Order m2m;
    for (int64_t d : getMinorToMajor(input)) {
      if (llvm::is_contained(reduced, d))
        continue;
      int64_t below = llvm::count_if(reduced, [&](int64_t r) { return r < d; });
      m2m.push_back(d - below);
    }
    return m2m;
  }

  /// For a cuDNN convolution custom call: the layouts of its lhs, rhs and
  /// result (element 0), from XLA's HeuristicLayoutAssignment for Hopper.
  std::array<Order, 3> convLayouts(Operation *op) {
    auto call = cast<CustomCallOp>(op);
    ConvDimensionNumbersAttr dn = call.getDimLabelsAttr();
    Type inputElt = getElementTypeOrSelf(op->getOperand(0).getType());
    bool nchw = inputElt.isF64();
    if (inputElt.isInteger() ||
        isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
            Float8E5M2FNUZType>(inputElt))
      nchw = false;
    else if (forceConvNchw)
      nchw = true;
    else if (forceConvNhwc)
      nchw = false;
    SmallVector<int64_t> in, filter, out;
    auto data = [&](int64_t batch, int64_t feature, ArrayRef<int64_t> spatial) {
      SmallVector<int64_t> major = {batch};
      if (nchw)
        major.push_back(feature);
      llvm::append_range(major, spatial);
      if (!nchw)
        major.push_back(feature);
      return fromMajorToMinor({major});
    };
    Order input =
        data(dn.getInputBatch(), dn.getInputFeature(), dn.getInputSpatial());
    Order output =
        data(dn.getOutputBatch(), dn.getOutputFeature(), dn.getOutputSpatial());
    SmallVector<int64_t> fmajor = {dn.getKernelOutput()};
    if (nchw)
      fmajor.push_back(dn.getKernelInput());
    llvm::append_range(fmajor, dn.getKernelSpatial());
    if (!nchw)
      fmajor.push_back(dn.getKernelInput());
    Order kernel = fromMajorToMinor({fmajor});
    switch (convKind(op)) {
    case ConvKind::BackwardInput:
      return {output, kernel, input};
    case ConvKind::BackwardFilter:
      return {input, output, kernel};
    default:
      return {input, kernel, output};
    }
  }

  /// What `op`, whose array result is laid out as `result` (empty when not
  /// known or not an array), wants of each data operand.
  SmallVector<std::optional<Want>> operandWants(Operation *op,
                                                std::optional<Order> result) {
    OperandRange data = getDataOperands(op);
    SmallVector<std::optional<Want>> wants(data.size());
    auto must = [&](unsigned i, ArrayRef<int64_t> m2m) {
      if (i < data.size() && rankOf(data[i].getType()) == int64_t(m2m.size()))
        wants[i] = Want{withMinorToMajor(data[i].getType(), m2m), true};
    };
    auto mustDefault = [&](unsigned i) {
      if (i < data.size() && !isa<TokenType>(data[i].getType()))
        wants[i] = Want{withDefaultLayouts(data[i].getType()), true};
    };
    int64_t rank = rankOf(op->getResult(0).getType());

    if (auto bitcast = dyn_cast<BitcastOp>(op)) {
      wants[0] = Want{bitcastOperand.lookup(op).front(), true};
      return wants;
    }
    if (auto fusion = dyn_cast<FusionOp>(op)) {
      if (auto callee = symbols->lookup<ComputationOp>(fusion.getCalls()))
        for (auto [i, t] : llvm::enumerate(callee.getArgumentTypes()))
          if (i < data.size())
            wants[i] = Want{t, true};
      return wants;
    }
    if (auto dot = dyn_cast<DotOp>(op)) {
      // XLA's is_s8_to_s32 and is_fp8: cuBLAS's int8 GEMM and cuBLASLt's
      // fp8 GEMM before Blackwell read both operands with their
      // contracting dimensions most minor (XLA's fp8 test takes e4m3fn and
      // e5m2fnuz operands, not e5m2).
      auto isInt = [](Value v, unsigned width) {
        return isSignedInt(getElementTypeOrSelf(v.getType()), width);
      };
      auto isFp8 = [](Value v) {
        return isa<Float8E4M3FNType, Float8E5M2FNUZType>(
            getElementTypeOrSelf(v.getType()));
      };
      bool minorContracting =
          (isInt(dot.getLhs(), 8) && isInt(dot.getRhs(), 8) &&
           isInt(dot.getResult(), 32)) ||
          (isFp8(dot.getLhs()) && isFp8(dot.getRhs()) &&
           getSelectedGpuDevice().computeCapabilityMajor < 10);
      auto side = [&](unsigned i, ArrayRef<int64_t> batch,
                      ArrayRef<int64_t> contracting) {
        DotSide s = dotSide(data[i].getType(), batch, contracting);
        Order m2m = defaultMinorToMajor(rankOf(data[i].getType()));
        if (minorContracting) {
          // XLA's SetDotOperandLayoutToMinorContracting.
          SmallVector<int64_t> minor(m2m.begin(),
                                     m2m.begin() + s.contracting.size());
          llvm::sort(minor);
          SmallVector<int64_t> wanted(s.contracting);
          llvm::sort(wanted);
          if (minor != wanted ||
              !cublasTakes(m2m, s.batch, s.free, s.contracting))
            m2m = fromMajorToMinor({s.batch, s.free, s.contracting});
          must(i, m2m);
          return;
        }
        if (s.batch.empty() && s.contracting.size() <= 1 && s.free.size() <= 1)
          return;
        if (!cublasTakes(m2m, s.batch, s.contracting, s.free))
          m2m = fromMajorToMinor({s.batch, s.contracting, s.free});
        must(i, m2m);
      };
      side(0, orEmpty(dot.getLhsBatchDims()),
           orEmpty(dot.getLhsContractingDims()));
      side(1, orEmpty(dot.getRhsBatchDims()),
           orEmpty(dot.getRhsContractingDims()));
      return wants;
    }
    if (ConvKind kind = convKind(op); kind != ConvKind::None) {
      std::array<Order, 3> l = convLayouts(op);
      must(0, l[0]);
      must(1, l[1]);
      if (kind == ConvKind::ForwardActivation && data.size() == 4)
        must(3, l[2]);
      if (kind == ConvKind::ForwardGraph)
        for (unsigned k = 2; k < data.size(); ++k)
          if (rankOf(data[k].getType()) > 0)
            must(k, l[2]);
      return wants;
    }
    if (auto call = dyn_cast<CustomCallOp>(op)) {
      StringRef target = call.getCustomCallTarget();
      if (readsColumnMajor(call)) {
        for (unsigned i = 0; i < data.size(); ++i)
          if (rankOf(data[i].getType()) >= 2)
            must(i, fortran(rankOf(data[i].getType())));
        return wants;
      }
      // The dynamic-shape calls keep the layout: PadToStatic reads its
      // operand as it is, SliceToDynamic's operand takes its result's.
      if (target == "PadToStatic")
        return wants;
      if (target == "SliceToDynamic") {
        if (result)
          must(0, *result);
        for (unsigned i = 1; i < data.size(); ++i)
          mustDefault(i);
        return wants;
      }
      if (std::optional<ArrayAttr> c = call.getOperandLayoutConstraints()) {
        for (auto [i, a] : llvm::enumerate(*c))
          if (auto t = dyn_cast<TypeAttr>(a); t && i < data.size())
            wants[i] = Want{layoutLike(data[i].getType(), t.getValue()), true};
        return wants;
      }
      for (unsigned i = 0; i < data.size(); ++i)
        mustDefault(i);
      return wants;
    }
    if (isa<SortOp>(op)) {
      if (rankOf(data[0].getType()) > 1)
        for (unsigned i = 0; i < data.size(); ++i)
          mustDefault(i);
      return wants;
    }
    if (isa<FftOp>(op)) {
      mustDefault(0);
      return wants;
    }
    if (isa<AllGatherOp, ReduceScatterOp, AllToAllOp, RaggedAllToAllOp>(op)) {
      // NCCL gathers, scatters and exchanges contiguous chunks: the
      // dimension is the most major of the operands too (the ragged
      // offsets and sizes are of rank 1).
      if (std::optional<int64_t> dim = gatherScatterDimension(op))
        for (unsigned i = 0; i < data.size(); ++i)
          must(i, moveToMajor(rankOf(data[i].getType()), *dim));
      return wants;
    }
    if (isa<ScatterOp>(op)) {
      // Each output updates its operand's buffer in place (the scatter
      // emitter writes only the scattered elements): laid out alike.
      auto tuple = dyn_cast<TupleType>(op->getResult(0).getType());
      for (unsigned k = 0, n = (data.size() - 1) / 2; k < n; ++k) {
        if (!tuple && result)
          must(k, *result);
        else if (tuple && rankOf(tuple.getType(k)) > 0)
          must(k, getMinorToMajor(tuple.getType(k)));
      }
      return wants;
    }
    if (isa<TriangularSolveOp>(op)) {
      must(0, fortran(rankOf(data[0].getType())));
      must(1, fortran(rankOf(data[1].getType())));
      return wants;
    }
    if (isa<WhileOp, CallOp, AsyncStartOp>(op)) {
      for (unsigned i = 0; i < data.size(); ++i)
        mustDefault(i);
      return wants;
    }
    if (auto cond = dyn_cast<ConditionalOp>(op)) {
      SmallVector<FlatSymbolRefAttr> branches = cond.getBranches();
      for (unsigned i = 1; i < data.size(); ++i) {
        auto callee =
            i <= branches.size()
                ? symbols->lookup<ComputationOp>(branches[i - 1].getValue())
                : ComputationOp();
        if (callee && freeBranches.contains(callee) && laidOut.contains(callee))
          wants[i] = Want{callee.getBody().getArgument(0).getType(), true};
        else
          mustDefault(i);
      }
      return wants;
    }
    if (auto tuple = dyn_cast<TupleOp>(op)) {
      for (const Want &w : requests.lookup(op->getResult(0)))
        if (w.mandatory)
          if (auto t = dyn_cast<TupleType>(w.type);
              t && t.size() == data.size()) {
            for (unsigned i = 0; i < data.size(); ++i)
              wants[i] = Want{t.getType(i), true, w.fromResult};
            break;
          }
      return wants;
    }
    if (!result)
      return wants;
    if (keepsOperandLayout(op)) {
      for (unsigned i = 0; i < data.size(); ++i)
        if (rankOf(data[i].getType()) == rank && rank > 0)
          must(i, *result);
      return wants;
    }
    if (auto t = dyn_cast<TransposeOp>(op)) {
      must(0, transposeOperandLayout(*result, t.getDimensions()));
      return wants;
    }
    if (isa<ReshapeOp>(op)) {
      auto in = dyn_cast<RankedTensorType>(data[0].getType());
      auto out = cast<RankedTensorType>(op->getResult(0).getType());
      if (!in || !in.hasStaticShape() || !out.hasStaticShape())
        return wants;
      if (std::optional<Order> aligned =
              alignLayout(out.getShape(), *result, in.getShape()))
        must(0, *aligned);
      else
        must(0, defaultMinorToMajor(in.getRank()));
      return wants;
    }
    if (auto b = dyn_cast<BroadcastOp>(op)) {
      ArrayRef<int64_t> dims = orEmpty(b.getDimensions());
      Order m2m;
      for (int64_t d : *result)
        if (const auto *it = llvm::find(dims, d); it != dims.end())
          m2m.push_back(it - dims.begin());
      if (rankOf(data[0].getType()) == int64_t(m2m.size()) && !m2m.empty())
        wants[0] = Want{withMinorToMajor(data[0].getType(), m2m), false};
      return wants;
    }
    if (auto reduce = dyn_cast<ReduceOp>(op)) {
      if (numResults(reduce) != 1)
        return wants;
      auto in = dyn_cast<RankedTensorType>(data[0].getType());
      if (!in || !in.hasStaticShape())
        return wants;
      ArrayRef<int64_t> reduced = reduce.getDimensions();
      int64_t size = 1;
      for (int64_t d : reduced)
        size *= in.getDimSize(d);
      // XLA's PropagateReductionLayoutToOperand: a row reduction when it
      // reduces at least 32 elements.
      if (size < 32)
        return wants;
      SmallVector<int64_t> kept;
      for (int64_t d = 0; d < in.getRank(); ++d)
        if (!llvm::is_contained(reduced, d))
          kept.push_back(d);
      Order m2m;
      for (int64_t d : defaultMinorToMajor(in.getRank()))
        if (llvm::is_contained(reduced, d))
          m2m.push_back(d);
      for (int64_t d : *result)
        m2m.push_back(kept[d]);
      wants[0] = Want{withMinorToMajor(in, m2m), false};
      return wants;
    }
    return wants;
  }

  static unsigned numResults(ReduceOp op) { return op.getInputs().size() / 2; }

  //===--- The two walks --------------------------------------------------===//

  void setParameterType(BlockArgument arg, Type t) {
    if (arg.getType() != t) {
      arg.setType(t);
      changed = true;
      ++numLayouts;
    }
    decided[arg] = t;
  }

  /// The first mandatory request that is not the result's, else the
  /// result's first; null if none is mandatory.
  static const Want *firstMandatory(ArrayRef<Want> ws) {
    for (bool result : {false, true})
      for (const Want &w : ws)
        if (w.mandatory && w.fromResult == result)
          return &w;
    return nullptr;
  }

  /// `fallback` laid out as the first mandatory request for `v` asks.
  Type requestedOr(Value v, Type fallback) {
    const Want *w = firstMandatory(requests[v]);
    return w && rankOf(w->type) == rankOf(fallback)
               ? layoutLike(fallback, w->type)
               : fallback;
  }

  /// A free branch's parameter: each array (of a tuple, through its
  /// get-tuple-elements) laid out as its users must have it.
  Type branchParameterType(BlockArgument arg, Type fallback) {
    auto tuple = dyn_cast<TupleType>(fallback);
    if (!tuple)
      return rankOf(fallback) > 0 ? requestedOr(arg, fallback) : fallback;
    SmallVector<Type> elements(tuple.getTypes());
    for (Operation *user : arg.getUsers())
      if (auto gte = dyn_cast<GetTupleElementOp>(user);
          gte && gte.getIndex() < elements.size() &&
          rankOf(elements[gte.getIndex()]) > 0 &&
          elements[gte.getIndex()] == tuple.getType(gte.getIndex()))
        elements[gte.getIndex()] =
            requestedOr(gte.getResult(), elements[gte.getIndex()]);
    return TupleType::get(fallback.getContext(), elements);
  }

  void assign(ComputationOp comp) {
    laidOut.insert(comp);
    decided.clear();
    requests.clear();
    bitcastOperand.clear();
    copies.clear();
    Block &block = comp.getBody().front();
    auto [params, result] = computationLayout(comp);

    bool freeParams = freeBranches.contains(comp);
    if (!freeParams)
      for (auto [arg, t] : llvm::zip(block.getArguments(), params))
        setParameterType(arg, t);
    for (Operation &op : block)
      if (isa<BitcastOp>(op))
        bitcastOperand[&op] = {op.getOperand(0).getType()};

    // The layouts library calls (cuDNN convolutions, cuSOLVER and cuBLAS
    // calls, custom calls with layout constraints) give their results,
    // carried forward through elementwise ops: a user's preference (a
    // reduction's) or the computation's result does not override them, as
    // in XLA, where these constraints propagate first.
    DenseMap<Value, Order> forward;
    for (Operation &op : block.without_terminator()) {
      if (op.getNumResults() != 1 || rankOf(op.getResult(0).getType()) <= 0)
        continue;
      if (auto gte = dyn_cast<GetTupleElementOp>(op)) {
        Operation *def = gte.getOperand().getDefiningOp();
        if (def && isLibraryCall(def))
          if (auto t = dyn_cast<TupleType>(tupleResultType(def));
              t && gte.getIndex() < t.size())
            forward[gte.getResult()] =
                getMinorToMajor(t.getType(gte.getIndex()));
        continue;
      }
      if (isLibraryCall(&op)) {
        if (std::optional<Order> fixed = fixedLayout(&op))
          forward[op.getResult(0)] = *fixed;
        continue;
      }
      if (!keepsOperandLayout(&op))
        continue;
      std::optional<Order> common;
      bool agree = true;
      int64_t rank = rankOf(op.getResult(0).getType());
      for (Value v : getDataOperands(&op)) {
        if (rankOf(v.getType()) != rank)
          continue;
        auto it = forward.find(v);
        if (it == forward.end())
          continue;
        agree &= !common || *common == it->second;
        common = it->second;
      }
      if (common && agree)
        forward[op.getResult(0)] = *common;
    }

    // Users to operands.
    Operation *ret = block.getTerminator();
    requests[ret->getOperand(0)].push_back(Want{result, true, true});
    for (Operation &op : llvm::reverse(block.without_terminator())) {
      if (op.getNumResults() != 1)
        continue;
      Value r = op.getResult(0);
      std::optional<Order> layout;
      // Whether the layout is the result's: what it asks of the operands
      // then yields to the libraries' layouts too.
      bool fromResult = false;
      if (rankOf(r.getType()) > 0) {
        layout = fixedLayout(&op);
        if (!layout && !isa<GetTupleElementOp>(op)) {
          const SmallVector<Want> &ws = requests[r];
          // The first mandatory request that is not the result's, then a
          // library call's layout carried forward, then the result's.
          const Want *pick = firstMandatory(ws);
          if (!pick && !ws.empty())
            pick = &ws.front();
          if (auto it = forward.find(r);
              it != forward.end() &&
              (!pick || !pick->mandatory || pick->fromResult))
            layout = it->second;
          else if (pick) {
            layout = getMinorToMajor(pick->type);
            fromResult = pick->mandatory && pick->fromResult;
          }
        }
        if (layout)
          decided[r] = withMinorToMajor(r.getType(), *layout);
      }
      for (auto [operand, want] :
           llvm::zip(getDataOperands(&op), operandWants(&op, layout)))
        if (want) {
          want->fromResult |= fromResult;
          requests[operand].push_back(*want);
        }
    }
    if (freeParams) {
      params[0] = branchParameterType(block.getArgument(0), params[0]);
      setParameterType(block.getArgument(0), params[0]);
    }

    // Operands to users.
    for (Operation &op : block.without_terminator()) {
      if (op.getNumResults() != 1)
        continue;
      Value r = op.getResult(0);
      Type type = r.getType();
      if (auto it = decided.find(r); it != decided.end())
        type = it->second;
      else if (isa<TupleType>(type))
        type = tupleResultType(&op);
      else if (rankOf(type) > 0)
        type = withMinorToMajor(type, layoutFromOperands(&op));
      if (type != r.getType()) {
        r.setType(type);
        changed = true;
        ++numLayouts;
      }
      std::optional<Order> layout;
      if (rankOf(type) > 0)
        layout = getMinorToMajor(type);
      for (auto [i, want] : llvm::enumerate(operandWants(&op, layout)))
        if (want && want->mandatory)
          coerceOperand(op.getOpOperand(i), want->type);
      // A tuple holds its (possibly copied) elements.
      if (isa<TupleOp>(op))
        r.setType(tupleResultType(&op));
    }
    coerceOperand(ret->getOpOperand(0), result);

    FunctionType fn = comp.getFunctionType();
    auto newFn = FunctionType::get(&getContext(), params,
                                   {ret->getOperand(0).getType()});
    if (newFn != fn) {
      comp.setFunctionTypeAttr(TypeAttr::get(newFn));
      changed = true;
    }
    if (!comp.getEntry())
      return;
    auto given = dyn_cast_or_null<TypeAttr>(
        getOperation()->getAttr("hlo.entry_computation_layout"));
    if (!given)
      return;
    // The entry layout keeps the memory spaces it gives (XLA's host
    // memory `S(5)`, which hlo-host-offloader reads).
    auto givenFn = dyn_cast<FunctionType>(given.getValue());
    if (givenFn && givenFn.getNumInputs() == params.size() &&
        givenFn.getNumResults() == 1) {
      SmallVector<Type> inputs;
      for (auto [t, g] : llvm::zip(newFn.getInputs(), givenFn.getInputs()))
        inputs.push_back(memorySpacesLike(t, g));
      newFn = FunctionType::get(
          &getContext(), inputs,
          {memorySpacesLike(newFn.getResult(0), givenFn.getResult(0))});
    }
    getOperation()->setAttr("hlo.entry_computation_layout",
                            TypeAttr::get(newFn));
  }

  /// Makes `use` read its value laid out as `want` (a copy, shared by the
  /// uses that want the same; tuples element by element).
  void coerceOperand(OpOperand &use, Type want) {
    Value v = use.get();
    if (sameLayouts(v.getType(), want))
      return;
    use.set(coerce(v, want, use.getOwner()));
  }

  /// `v` laid out as `want`, for `user` (the first user of a parameter's
  /// copy: the copy goes right before it; other copies right after the
  /// value).
  Value coerce(Value v, Type want, Operation *user) {
    if (sameLayouts(v.getType(), want))
      return v;
    auto key = std::make_pair(v, want);
    if (Value c = copies.lookup(key))
      return c;
    OpBuilder b(&getContext());
    if (isa<BlockArgument>(v))
      b.setInsertionPoint(user);
    else
      b.setInsertionPointAfterValue(v);
    Location loc = v.getDefiningOp() ? v.getDefiningOp()->getLoc() : v.getLoc();
    Value result;
    if (auto tuple = dyn_cast<TupleType>(want)) {
      SmallVector<Value> elements;
      for (unsigned i = 0; i < tuple.size(); ++i) {
        Value e = createInstruction(
                      b, derivedLoc(loc), GetTupleElementOp::getOperationName(),
                      cast<TupleType>(v.getType()).getType(i), {v},
                      {b.getNamedAttr("index", b.getI64IntegerAttr(i))})
                      ->getResult(0);
        b.setInsertionPointAfterValue(e);
        elements.push_back(coerce(e, tuple.getType(i), user));
        b.setInsertionPointAfterValue(elements.back());
      }
      result =
          createInstruction(
              b, derivedLoc(loc), TupleOp::getOperationName(),
              TupleType::get(&getContext(), ValueRange(elements).getTypes()),
              elements)
              ->getResult(0);
    } else {
      result = createCopy(b, loc, v, want);
      ++numCopies;
    }
    changed = true;
    copies[key] = result;
    return result;
  }
};
} // namespace
