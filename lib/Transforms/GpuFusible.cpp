//===- GpuFusible.cpp - XLA-GPU's fusibility rules ------------------------===//

#include "GpuFusible.h"
#include "FusionUtils.h"
#include "ReductionUtils.h"
#include "TransformUtils.h"

#include "Hlo/Analysis/GpuPerformanceModel.h"
#include "Hlo/Dialect/Hlo/HloEffects.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::hlo;

int64_t mlir::hlo::staticElementCount(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  return ranked && ranked.hasStaticShape() ? ranked.getNumElements() : -1;
}

Block *GpuFusible::body(Operation *op) {
  auto fusion = dyn_cast<FusionOp>(op);
  return fusion ? getFusedBody(fusion, tables) : nullptr;
}

static bool isStaticArrayOrTuple(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::all_of(tuple.getTypes(), isStaticArray);
  return isStaticArray(type);
}

bool GpuFusible::isFusible(Operation *op) {
  // Only fusions produce tuples here: anything else with a tuple result (a
  // root tuple of many elements) is turned away before its type and
  // operands are scanned, so that asking about it costs no more than about
  // an array.
  if (op->getNumResults() != 1 || isRepackingBitcast(op))
    return false;
  Type type = op->getResult(0).getType();
  if (isa<FusionOp>(op) ? !isStaticArrayOrTuple(type) : !isStaticArray(type))
    return false;
  if (hasControlPredecessors(op) || isControlPredecessor(op))
    return false;
  auto module = op->getParentOfType<ModuleOp>();
  if (module ? !isEffectFree(op, tables.getSymbolTable(module))
             : !isMemoryEffectFree(op))
    return false;
  for (Value v : getDataOperands(op))
    if (!isStaticArrayOrTuple(v.getType()))
      return false;
  if (auto fusion = dyn_cast<FusionOp>(op))
    return (fusion.getKind() == FusionKind::kLoop ||
            fusion.getKind() == FusionKind::kInput) &&
           body(op);
  return true;
}

bool GpuFusible::isUnnestedReduction(Operation *op) {
  auto reduce = dyn_cast_or_null<ReduceOp>(op);
  if (!reduce || reduce.getInputs().size() != 2)
    return false;
  Type input = reduce.getInputs()[0].getType();
  if (!hasDefaultLayout(input) || !isStaticArray(reduce.getType()))
    return false;
  return isReductionFromOrToContiguousDimensions(
      cast<RankedTensorType>(input).getShape(), reduce.getDimensions());
}

Operation *GpuFusible::heroOf(Value v) {
  Operation *root = v.getDefiningOp();
  for (Operation *walk = root; walk;) {
    if (isUnnestedReduction(walk))
      return walk;
    bool intermediate = isa<BitcastOp, ReshapeOp>(walk) ||
                        (isElementwise(walk) && walk->getNumOperands() == 1);
    if (!intermediate)
      break;
    walk = walk->getOperand(0).getDefiningOp();
  }
  return root;
}

Operation *GpuFusible::realHero(Operation *op) {
  auto fusion = dyn_cast<FusionOp>(op);
  if (!fusion)
    return op;
  SmallVector<Value> outputs = getFusionOutputs(fusion, tables);
  if (outputs.empty())
    return nullptr;
  for (Value v : outputs)
    if (Operation *hero = heroOf(v); hero && isUnnestedReduction(hero))
      return hero;
  return outputs.front().getDefiningOp();
}

bool GpuFusible::isInputFusibleReduction(Operation *op) {
  if (auto fusion = dyn_cast<FusionOp>(op)) {
    for (Value v : getFusionOutputs(fusion, tables))
      if (isUnnestedReduction(heroOf(v)))
        return true;
    return false;
  }
  return isUnnestedReduction(op);
}

bool GpuFusible::isLoopFusion(Operation *op) {
  auto fusion = dyn_cast<FusionOp>(op);
  if (!fusion || !body(op) || isInputFusibleReduction(op))
    return false;
  for (Value v : getFusionOutputs(fusion, tables))
    if (isa_and_nonnull<ScatterOp, ReduceOp>(v.getDefiningOp()))
      return false;
  return true;
}

bool GpuFusible::isFusibleAsMultiOutputFusionRoot(Operation *op) {
  if (!isFusible(op))
    return false;
  return isInputFusibleReduction(op) || isLoopFusion(op) ||
         (isElementwise(op) && op->getNumOperands() > 0);
}

/// XLA's IsUniversallyLoopFusible (a copy that changes the layout is a
/// transpose, which XLA emits tiled).
static bool isUniversallyLoopFusible(Operation *op, GpuFusible &fusible) {
  if (isa<CopyOp>(op))
    return getMinorToMajor(op->getOperand(0).getType()) ==
           getMinorToMajor(op->getResult(0).getType());
  if (isElementwise(op) && !getDataOperands(op).empty())
    return true;
  if (isa<FusionOp>(op))
    return fusible.isLoopFusion(op);
  return isa<BitcastOp, BroadcastOp, ConcatenateOp, DynamicSliceOp,
             DynamicUpdateSliceOp, GatherOp, PadOp, ReduceWindowOp, ReshapeOp,
             ReverseOp, SliceOp, TransposeOp>(op);
}

bool GpuFusible::isLoopFusibleAsProducer(Operation *op) {
  if (!isFusible(op))
    return false;
  if (isUniversallyLoopFusible(op, *this))
    return true;
  if (isa<IotaOp, ConstantOp>(op))
    return true;
  auto reduce = dyn_cast<ReduceOp>(op);
  return reduce && reduce.getInputs().size() == 2;
}

bool GpuFusible::hasInPlaceOp(Operation *op) {
  auto inPlace = [](Operation *inner) {
    return isa<DynamicUpdateSliceOp, ScatterOp>(inner);
  };
  if (Block *b = body(op))
    return llvm::any_of(b->without_terminator(),
                        [&](Operation &inner) { return inPlace(&inner); });
  return inPlace(op);
}

/// XLA's IsPhysicallyTransposing: a copy, or a transpose that moves a
/// dimension (we do not tell which transposes are bitcasts).
static bool isPhysicallyTransposing(Operation *op) {
  if (isa<CopyOp>(op))
    return true;
  auto transpose = dyn_cast<TransposeOp>(op);
  return transpose && !isIdentityPermutation(transpose.getDimensions());
}

bool mlir::hlo::isTiledTranspose(Operation *op) {
  if (isa<CopyOp>(op))
    return true;
  auto transpose = dyn_cast<TransposeOp>(op);
  if (!transpose)
    return false;
  auto in = dyn_cast<RankedTensorType>(transpose.getOperand().getType());
  if (!in || !in.hasStaticShape())
    return false;
  // The operand's non-unit dimensions in the result's order, by their
  // position among the operand's non-unit dimensions.
  SmallVector<int64_t> position(in.getRank(), -1), order;
  int64_t n = 0;
  for (int64_t d = 0; d < in.getRank(); ++d)
    if (in.getDimSize(d) != 1)
      position[d] = n++;
  for (int64_t d : transpose.getDimensions())
    if (position[d] >= 0)
      order.push_back(d);
  // Groups of dimensions that stay adjacent and in order, and the one
  // holding the operand's minor dimension.
  SmallVector<int64_t> groupSize;
  size_t operandMinorGroup = 0;
  for (auto [i, d] : llvm::enumerate(order)) {
    if (i == 0 || position[d] != position[order[i - 1]] + 1)
      groupSize.push_back(1);
    groupSize.back() *= in.getDimSize(d);
    if (position[d] == n - 1)
      operandMinorGroup = groupSize.size() - 1;
  }
  // Fewer than two groups: nothing moves (every dimension of size 1, or
  // the order kept).
  if (groupSize.size() < 2 || operandMinorGroup + 1 == groupSize.size())
    return false;
  int64_t m = groupSize[operandMinorGroup], r = groupSize.back();
  return (m >= 16 && r >= 16) || (m >= 8 && r >= 8 && m * r >= 64 * 128);
}

bool GpuFusible::isProducerMultiOutputFusible(Operation *op) {
  if (isMultiOutputFusion(op, tables) || hasInPlaceOp(op) ||
      !isLoopFusibleAsProducer(op))
    return false;
  if (Block *b = body(op))
    return llvm::none_of(b->without_terminator(), [](Operation &inner) {
      return isPhysicallyTransposing(&inner);
    });
  return !isPhysicallyTransposing(op);
}

/// Equal shapes and layouts, element types aside.
static bool equalIgnoringElementType(Type a, Type b) {
  auto ra = dyn_cast<RankedTensorType>(a);
  auto rb = dyn_cast<RankedTensorType>(b);
  return ra && rb && ra.getShape() == rb.getShape() &&
         getMinorToMajor(ra) == getMinorToMajor(rb);
}

/// Two physical transposes (transposes or layout-changing copies) of equal
/// operand and result shapes and layouts, element types aside, that
/// permute alike.
static bool sameTranspose(Operation *a, Operation *b) {
  if (a->getName() != b->getName() ||
      !equalIgnoringElementType(a->getOperand(0).getType(),
                                b->getOperand(0).getType()) ||
      !equalIgnoringElementType(a->getResult(0).getType(),
                                b->getResult(0).getType()))
    return false;
  auto ta = dyn_cast<TransposeOp>(a);
  return !ta || ta.getDimensions() == cast<TransposeOp>(b).getDimensions();
}

bool GpuFusible::shapesCompatibleForMultiOutputFusion(Operation *a,
                                                      Operation *b) {
  Operation *hero1 = realHero(a);
  Operation *hero2 = realHero(b);
  if (!hero1 || !hero2)
    return false;
  // XLA's tiled transposes share a kernel only with one another, and only
  // when they move the same dimensions of the same shape.
  bool transpose1 = isTiledTranspose(hero1);
  bool transpose2 = isTiledTranspose(hero2);
  if (transpose1 || transpose2)
    return transpose1 && transpose2 && sameTranspose(hero1, hero2);
  bool reduce1 = isUnnestedReduction(hero1);
  bool reduce2 = isUnnestedReduction(hero2);
  // Reductions in one kernel: same shapes and dimensions.
  if (reduce1 && reduce2) {
    auto r1 = cast<ReduceOp>(hero1), r2 = cast<ReduceOp>(hero2);
    if (!equalIgnoringElementType(r1.getType(), r2.getType()) ||
        !equalIgnoringElementType(r1.getInputs()[0].getType(),
                                  r2.getInputs()[0].getType()) ||
        !equalIgnoringElementType(r1.getInputs()[1].getType(),
                                  r2.getInputs()[1].getType()) ||
        r1.getDimensions() != r2.getDimensions())
      return false;
  }
  // The loop shapes: a reduction's input, else the output.
  auto loopShape = [](Operation *hero, bool reduce) {
    return reduce ? hero->getOperand(0).getType()
                  : hero->getResult(0).getType();
  };
  Type l1 = loopShape(hero1, reduce1), l2 = loopShape(hero2, reduce2);
  if (equalIgnoringElementType(l1, l2))
    return true;
  // A reshape between row-major shapes is a bitcast.
  return hasDefaultLayout(l1) && hasDefaultLayout(l2) &&
         staticElementCount(l1) == staticElementCount(l2);
}

const GpuFusible::Facts &GpuFusible::facts(Operation *op) {
  auto [it, inserted] = cache.try_emplace(op);
  if (!inserted)
    return it->second;
  Facts f;
  auto count = [&](Operation *inner) {
    if (!isUnnestedReduction(inner))
      return;
    auto reduce = cast<ReduceOp>(inner);
    auto input = cast<RankedTensorType>(reduce.getInputs()[0].getType());
    int64_t bytes = getTypeSizeInBytes(input) /
                    std::max<int64_t>(1, input.getNumElements());
    ReductionDimensions rd =
        getReductionKind(input.getShape(), reduce.getDimensions());
    f.sharedMemory += rd.isRowReduction ? 32 * bytes : 2 * 32 * 33 * bytes;
    ++f.unnestedReductions;
  };
  if (Block *b = body(op))
    for (Operation &inner : b->without_terminator())
      count(&inner);
  else
    count(op);
  return cache[op] = f;
}

/// XLA's ShapeUtil::SubshapeCount: a tuple counts itself and its elements.
static int64_t subshapeCount(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    int64_t n = 1;
    for (Type t : tuple.getTypes())
      n += subshapeCount(t);
    return n;
  }
  return 1;
}

bool GpuFusible::fusionFitsInBudget(Operation *a, Operation *b,
                                    bool isConsumerProducerFusion) {
  const Facts fa = facts(a);
  const Facts fb = facts(b);
  if (fa.sharedMemory + fb.sharedMemory > device.sharedMemoryPerBlock)
    return false;
  if (fa.unnestedReductions + fb.unnestedReductions >
      kMaxUnnestedReductionsPerFusion)
    return false;
  int64_t outputs = subshapeCount(a->getResult(0).getType()) +
                    subshapeCount(b->getResult(0).getType());
  int64_t na = getDataOperands(a).size(), nb = getDataOperands(b).size();
  if (na + nb - 1 + outputs <= maxOperands)
    return true;
  llvm::SmallPtrSet<void *, 16> operands;
  for (Value v : getDataOperands(a))
    operands.insert(v.getAsOpaquePointer());
  for (Value v : getDataOperands(b))
    operands.insert(v.getAsOpaquePointer());
  operands.erase(a->getResult(0).getAsOpaquePointer());
  operands.erase(b->getResult(0).getAsOpaquePointer());
  int64_t n = operands.size();
  if (isConsumerProducerFusion && n <= na)
    return true;
  return n + outputs <= maxOperands;
}

int64_t GpuFusible::instructionCount(Operation *op) {
  if (Block *b = body(op))
    return static_cast<int64_t>(b->getOperations().size()) - 1;
  return 1;
}

/// The users of `op` that follow it and precede `limit`, and theirs, in
/// program order: what must move after an instruction put at `limit`.
SmallVector<Operation *> mlir::hlo::usersBefore(Operation *op,
                                                Operation *limit) {
  SmallVector<Operation *> stack(op->getUsers()), found;
  DenseSet<Operation *> seen;
  while (!stack.empty()) {
    Operation *user = stack.pop_back_val();
    if (user == limit || user->getBlock() != limit->getBlock() ||
        !user->isBeforeInBlock(limit) || !seen.insert(user).second)
      continue;
    found.push_back(user);
    for (Operation *next : user->getUsers())
      stack.push_back(next);
  }
  llvm::sort(found,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return found;
}

FusionOp mlir::hlo::fuseIntoMultiOutputInOrder(Operation *src, FusionOp dst,
                                               SymbolTable &symbols,
                                               SymbolTableCollection &tables) {
  Operation *earlier = src, *later = dst;
  if (later->isBeforeInBlock(earlier))
    std::swap(earlier, later);
  SmallVector<Operation *> toMove = usersBefore(earlier, later);
  // The new fusion is created before dst: put dst where the later one is.
  if (later != dst)
    dst->moveBefore(later);
  FusionOp fusion = fuseIntoMultiOutput(src, dst, symbols, tables);
  Operation *last = fusion;
  while (last->getNextNode() && isa<GetTupleElementOp>(last->getNextNode()) &&
         last->getNextNode()->getOperand(0) == fusion.getResult())
    last = last->getNextNode();
  for (Operation *op : toMove) {
    op->moveAfter(last);
    last = op;
  }
  return fusion;
}
