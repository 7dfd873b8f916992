//===- LayoutNormalization.cpp - arrays in the default layout -------------===//
//
// XLA's LayoutNormalization (seed 004): an instruction whose result or
// operands have a non-default layout is rewritten on the physical shapes
// (dimensions major to minor, default layout), reached through bitcasts;
// a bitcast back to the original shape and layout replaces it for its users.
// Copies that change the layout become explicit transposes. Bitcast chains
// fold at the end.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/GpuLayoutPasses.h"
#include "LayoutUtils.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOLAYOUTNORMALIZATION
#include "Hlo/Transforms/GpuLayoutPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// A static array of rank > 0 with a plain layout: the arrays the pass
/// rewrites.
bool normalizable(Type t) {
  auto rt = dyn_cast<RankedTensorType>(t);
  return rt && rt.getRank() > 0 && rt.hasStaticShape() && hasPlainLayout(t);
}

bool isDefault(Type t) {
  return isDefaultMinorToMajor(getMinorToMajor(cast<RankedTensorType>(t)));
}

/// Position of each logical dimension in the physical shape (0 = major).
SmallVector<int64_t> physicalPositions(Type t) {
  SmallVector<int64_t> m2m = getMinorToMajor(t);
  int64_t rank = m2m.size();
  SmallVector<int64_t> pos(rank);
  for (int64_t i = 0; i < rank; ++i)
    pos[m2m[i]] = rank - 1 - i;
  return pos;
}

/// Logical dimension at each physical position (0 = major).
SmallVector<int64_t> logicalAt(Type t) {
  SmallVector<int64_t> m2m = getMinorToMajor(t);
  return SmallVector<int64_t>(llvm::reverse(m2m));
}

struct LayoutNormalizationPass
    : ChangeReportingPass<LayoutNormalizationPass,
                          hlo::impl::HloLayoutNormalizationBase> {
  DenseMap<Value, Value> normal;
  llvm::SetVector<Operation *> created;
  /// Replaced instructions still in the worklist, erased after it (users
  /// first).
  SmallVector<Operation *> dead;

  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation())) {
      normal.clear();
      created.clear();
      Block &block = comp.getBody().front();
      SmallVector<Operation *> ops;
      for (Operation &op : block.without_terminator())
        ops.push_back(&op);
      for (Operation *op : ops)
        rewrite(op);
      for (Operation *op : dead)
        op->erase();
      dead.clear();
      foldBitcasts(block);
    }
  }

  /// `v` on its physical shape in the default layout.
  Value getNormal(Value v) {
    if (isDefault(v.getType()))
      return v;
    if (Value n = normal.lookup(v))
      return n;
    OpBuilder b(&getContext());
    b.setInsertionPointAfterValue(v);
    Location loc = v.getDefiningOp() ? v.getDefiningOp()->getLoc() : v.getLoc();
    Value n = createBitcast(
        b, loc, v, normalizedType(cast<RankedTensorType>(v.getType())));
    created.insert(n.getDefiningOp());
    normal[v] = n;
    return n;
  }

  void rewrite(Operation *op) {
    if (op->getNumResults() != 1 || hasControlPredecessors(op))
      return;
    if (auto call = dyn_cast<CustomCallOp>(op)) {
      rewriteConvolution(call);
      return;
    }
    Value r = op->getResult(0);
    if (!normalizable(r.getType()))
      return;
    OperandRange data = getDataOperands(op);
    bool nonDefault = !isDefault(r.getType());
    for (Value v : data)
      if (isa<RankedTensorType>(v.getType()) && rankOf(v) > 0) {
        if (!normalizable(v.getType()))
          return;
        nonDefault |= !isDefault(v.getType());
      }
    if (!nonDefault)
      return;

    auto type = cast<RankedTensorType>(r.getType());
    RankedTensorType ntype = isDefault(type) ? type : normalizedType(type);
    SmallVector<int64_t> rpos = physicalPositions(type);
    SmallVector<int64_t> rat = logicalAt(type);
    OpBuilder b(op);
    Location loc = derivedLoc(op->getLoc());
    Operation *before = op->getPrevNode();
    Value result;

    if (isa<CopyOp, TransposeOp>(op)) {
      Value in = data[0];
      SmallVector<int64_t> ipos = physicalPositions(in.getType());
      ArrayRef<int64_t> perm;
      if (auto t = dyn_cast<TransposeOp>(op))
        perm = t.getDimensions();
      // Result physical dimension i is logical result dimension rat[i],
      // operand logical dimension perm[rat[i]].
      SmallVector<int64_t> nperm;
      for (int64_t d : rat)
        nperm.push_back(ipos[perm.empty() ? d : perm[d]]);
      Value n = getNormal(in);
      if (isIdentityPermutation(nperm) ||
          samePhysicalOrder(type.getShape(), getMinorToMajor(type),
                            transposeLayoutOf(op))) {
        result = createBitcast(b, loc, n, ntype);
      } else {
        result = createTranspose(b, op->getLoc(), n, nperm, ntype);
        ++numTransposes;
      }
    } else if (isElementwise(op) && !isa<MapOp>(op)) {
      SmallVector<Value> operands;
      for (Value v : data) {
        if (rankOf(v) == 0) {
          operands.push_back(v);
          continue;
        }
        if (getMinorToMajor(v.getType()) != getMinorToMajor(type))
          return;
        operands.push_back(getNormal(v));
      }
      result = clone(b, op, operands, ntype, op->getAttrs());
    } else if (auto bc = dyn_cast<BroadcastOp>(op)) {
      Value in = data[0];
      ArrayRef<int64_t> dims = orEmpty(bc.getDimensions());
      if (rankOf(in) == 0) {
        result = clone(b, op, {in}, ntype, op->getAttrs());
      } else {
        // Operand physical dimension j (logical k) goes to result physical
        // position rpos[dims[k]]; sort them so that the dimensions rise.
        SmallVector<int64_t> iat = logicalAt(in.getType());
        SmallVector<std::pair<int64_t, int64_t>> targets;
        for (auto [j, k] : llvm::enumerate(iat))
          targets.push_back({rpos[dims[k]], int64_t(j)});
        llvm::sort(targets);
        SmallVector<int64_t> perm, ndims, shape;
        Value n = getNormal(in);
        for (auto [target, j] : targets) {
          perm.push_back(j);
          ndims.push_back(target);
          shape.push_back(cast<RankedTensorType>(n.getType()).getDimSize(j));
        }
        if (!isIdentityPermutation(perm))
          n = createTranspose(b, op->getLoc(), n, perm,
                              defaultTyped(shape, type));
        result = clone(
            b, op, {n}, ntype,
            {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(ndims))});
      }
    } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
      if (data.size() != 2)
        return;
      Value in = data[0];
      SmallVector<int64_t> ipos = physicalPositions(in.getType());
      SmallVector<int64_t> iat = logicalAt(in.getType());
      ArrayRef<int64_t> reduced = reduce.getDimensions();
      SmallVector<int64_t> ndims;
      for (int64_t d : reduced)
        ndims.push_back(ipos[d]);
      llvm::sort(ndims);
      // The kept dimensions in the operand's physical order, numbered as
      // result dimensions.
      SmallVector<int64_t> keptAt, shape;
      for (int64_t d : iat) {
        if (llvm::is_contained(reduced, d))
          continue;
        keptAt.push_back(
            d - llvm::count_if(reduced, [&](int64_t x) { return x < d; }));
        shape.push_back(type.getDimSize(keptAt.back()));
      }
      Type rtype = defaultTyped(shape, type);
      Value n =
          clone(b, op, {getNormal(in), data[1]}, rtype,
                {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(ndims)),
                 b.getNamedAttr("to_apply", reduce.getToApplyAttr())});
      // Result physical position i holds logical dimension rat[i]; n holds
      // keptAt in order.
      SmallVector<int64_t> perm;
      for (int64_t d : rat)
        perm.push_back(llvm::find(keptAt, d) - keptAt.begin());
      result = isIdentityPermutation(perm)
                   ? n
                   : createTranspose(b, op->getLoc(), n, perm, ntype);
    } else if (auto iota = dyn_cast<IotaOp>(op)) {
      result = clone(
          b, op, {}, ntype,
          {b.getNamedAttr("iota_dimension",
                          b.getI64IntegerAttr(rpos[iota.getIotaDimension()]))});
    } else if (auto rev = dyn_cast<ReverseOp>(op)) {
      if (getMinorToMajor(data[0].getType()) != getMinorToMajor(type))
        return;
      SmallVector<int64_t> ndims;
      for (int64_t d : rev.getDimensions())
        ndims.push_back(rpos[d]);
      llvm::sort(ndims);
      result =
          clone(b, op, {getNormal(data[0])}, ntype,
                {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr(ndims))});
    } else if (auto slice = dyn_cast<SliceOp>(op)) {
      if (getMinorToMajor(data[0].getType()) != getMinorToMajor(type))
        return;
      SliceAttr s = slice.getSlice();
      auto permute = [&](ArrayRef<int64_t> v) {
        SmallVector<int64_t> out;
        for (int64_t d : rat)
          out.push_back(v[d]);
        return out;
      };
      result = clone(
          b, op, {getNormal(data[0])}, ntype,
          {b.getNamedAttr("slice",
                          SliceAttr::get(&getContext(), permute(s.getStarts()),
                                         permute(s.getLimits()),
                                         permute(s.getStrides())))});
    } else if (auto concat = dyn_cast<ConcatenateOp>(op)) {
      SmallVector<Value> operands;
      for (Value v : data) {
        if (getMinorToMajor(v.getType()) != getMinorToMajor(type))
          return;
        operands.push_back(getNormal(v));
      }
      int64_t d = rpos[concat.getDimensions()[0]];
      result =
          clone(b, op, operands, ntype,
                {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({d}))});
    } else {
      return;
    }

    Value back = createBitcast(b, loc, result, type);
    if (back != result)
      created.insert(back.getDefiningOp());
    // The instruction that computes the result takes op's name.
    if (Operation *def = result.getDefiningOp())
      for (Operation *it = before ? before->getNextNode()
                                  : &op->getBlock()->front();
           it && it != op; it = it->getNextNode())
        if (it == def && !created.contains(def)) {
          transferInstructionAttrs(op, def);
          def->setLoc(op->getLoc());
          break;
        }
    r.replaceAllUsesWith(back);
    normal[back] = result;
    op->erase();
    ++numNormalized;
    changed = true;
  }

  /// A cuDNN convolution custom call (XLA's NormalizeLayoutForGpuCustomCalls):
  /// its operands and its result (element 0 of its tuple) on their physical
  /// shapes, its dimension labels renumbered to match.
  void rewriteConvolution(CustomCallOp call) {
    StringRef target = call.getCustomCallTarget();
    ConvDimensionNumbersAttr dn = call.getDimLabelsAttr();
    auto tuple = dyn_cast<TupleType>(call.getType());
    if (!dn || !target.starts_with("__cudnn$conv") || !tuple ||
        tuple.size() < 1 || call.getOperandLayoutConstraints() ||
        call.getOutputToOperandAliasing() || isControlPredecessor(call))
      return;
    OperandRange data = getDataOperands(call);
    if (data.size() < 2 || !normalizable(tuple.getType(0)))
      return;
    for (Value v : data)
      if (isa<RankedTensorType>(v.getType()) && rankOf(v) > 0 &&
          !normalizable(v.getType()))
        return;
    Type result = tuple.getType(0);
    // The roles of lhs, rhs and the result.
    Type input = data[0].getType(), kernel = data[1].getType(), output = result;
    if (target == "__cudnn$convBackwardInput")
      std::swap(input, output);
    else if (target == "__cudnn$convBackwardFilter")
      std::swap(kernel, output);
    if (isDefault(input) && isDefault(kernel) && isDefault(output))
      return;
    SmallVector<int64_t> ip = physicalPositions(input),
                         kp = physicalPositions(kernel),
                         op = physicalPositions(output);
    auto map = [](ArrayRef<int64_t> pos, ArrayRef<int64_t> dims) {
      SmallVector<int64_t> out;
      for (int64_t d : dims)
        out.push_back(pos[d]);
      return out;
    };
    auto labels = ConvDimensionNumbersAttr::get(
        &getContext(), ip[dn.getInputBatch()], ip[dn.getInputFeature()],
        map(ip, dn.getInputSpatial()), kp[dn.getKernelInput()],
        kp[dn.getKernelOutput()], map(kp, dn.getKernelSpatial()),
        op[dn.getOutputBatch()], op[dn.getOutputFeature()],
        map(op, dn.getOutputSpatial()));

    OpBuilder b(call);
    SmallVector<Value> operands;
    for (Value v : data)
      operands.push_back(rankOf(v) > 0 ? getNormal(v) : v);
    SmallVector<Type> elements(tuple.getTypes());
    auto rt = cast<RankedTensorType>(result);
    elements[0] = isDefault(rt) ? rt : normalizedType(rt);
    SmallVector<NamedAttribute> attrs;
    for (NamedAttribute a : call->getAttrs())
      if (a.getName() == "dim_labels")
        attrs.push_back(b.getNamedAttr("dim_labels", labels));
      else
        attrs.push_back(a);
    Value conv = clone(b, call, operands,
                       TupleType::get(&getContext(), elements), attrs);
    transferInstructionAttrs(call, conv.getDefiningOp());
    conv.getDefiningOp()->setLoc(call.getLoc());
    // Each element: a get-tuple-element of the new call, element 0 bitcast
    // back; users that read an element read it directly.
    Location loc = derivedLoc(call.getLoc());
    SmallVector<Value> back, gtes;
    for (auto [i, t] : llvm::enumerate(tuple.getTypes())) {
      Value e = createInstruction(
                    b, loc, GetTupleElementOp::getOperationName(), elements[i],
                    {conv}, {b.getNamedAttr("index", b.getI64IntegerAttr(i))})
                    ->getResult(0);
      created.insert(e.getDefiningOp()); // removed if nothing reads it
      gtes.push_back(e);
      if (i == 0) {
        Value bc = createBitcast(b, loc, e, t);
        if (bc != e) {
          created.insert(bc.getDefiningOp());
          normal[bc] = e;
        }
        e = bc;
      }
      back.push_back(e);
    }
    for (OpOperand &use : llvm::make_early_inc_range(call->getUses())) {
      auto gte = dyn_cast<GetTupleElementOp>(use.getOwner());
      if (!gte || hasControlPredecessors(gte) || isControlPredecessor(gte) ||
          gte.getIndex() >= back.size())
        continue;
      gte.getResult().replaceAllUsesWith(back[gte.getIndex()]);
      Operation *named = gtes[gte.getIndex()].getDefiningOp();
      transferInstructionAttrs(gte, named);
      named->setLoc(gte.getLoc());
      dead.push_back(gte);
    }
    if (llvm::any_of(call->getUsers(), [&](Operation *user) {
          return !llvm::is_contained(dead, user);
        })) {
      Value t = createInstruction(b, loc, TupleOp::getOperationName(),
                                  call.getType(), back)
                    ->getResult(0);
      call->getResult(0).replaceUsesWithIf(t, [&](OpOperand &use) {
        return !llvm::is_contained(dead, use.getOwner());
      });
    }
    dead.push_back(call);
    ++numNormalized;
    changed = true;
  }

  static int64_t rankOf(Value v) {
    auto rt = dyn_cast<RankedTensorType>(v.getType());
    return rt ? rt.getRank() : -1;
  }

  /// An array of `shape` and the element type (and natural element size)
  /// of `type`, in the default layout.
  Type defaultTyped(ArrayRef<int64_t> shape, RankedTensorType type) {
    return withMinorToMajor(withShapeOf(type, shape),
                            defaultMinorToMajor(shape.size()));
  }

  /// For a copy: the operand's layout; for a transpose: the result layout
  /// that makes it a bitcast of its operand.
  SmallVector<int64_t> transposeLayoutOf(Operation *op) {
    Type in = getDataOperands(op)[0].getType();
    if (auto t = dyn_cast<TransposeOp>(op))
      return transposeResultLayout(getMinorToMajor(in), t.getDimensions());
    return getMinorToMajor(in);
  }

  /// `op` rebuilt on `operands` with result type `type` and `attrs` (the
  /// attributes of the op that describe the operation).
  Value clone(OpBuilder &b, Operation *op, ValueRange operands, Type type,
              ArrayRef<NamedAttribute> attrs) {
    SmallVector<NamedAttribute> kept;
    for (NamedAttribute a : attrs)
      if (a.getName() != "operandSegmentSizes")
        kept.push_back(a);
    return createInstruction(b, op->getLoc(), op->getName().getStringRef(),
                             type, operands, kept)
        ->getResult(0);
  }

  /// bitcast(bitcast(x)) -> bitcast(x); bitcast to x's own type -> x;
  /// unused bitcasts this pass made are removed.
  void foldBitcasts(Block &block) {
    SmallVector<BitcastOp> bitcasts;
    for (Operation &op : block)
      if (auto bc = dyn_cast<BitcastOp>(op))
        bitcasts.push_back(bc);
    for (BitcastOp bc : bitcasts) {
      if (hasControlPredecessors(bc))
        continue;
      while (auto inner = bc.getOperand().getDefiningOp<BitcastOp>()) {
        if (hasControlPredecessors(inner))
          break;
        bc->setOperand(0, inner.getOperand());
      }
      if (bc.getOperand().getType() == bc.getType() &&
          !isControlPredecessor(bc)) {
        bc.getResult().replaceAllUsesWith(bc.getOperand());
        created.insert(bc);
      }
    }
    SmallVector<Operation *> dead(created.takeVector());
    for (bool erased = true; erased;) {
      erased = false;
      for (Operation *&op : dead)
        if (op && op->use_empty()) {
          op->erase();
          op = nullptr;
          erased = true;
        }
    }
  }
};
} // namespace
