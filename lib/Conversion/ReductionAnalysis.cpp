//===- ReductionAnalysis.cpp - the reduction emitter's view of a fusion ---===//
//
// analyzeReductionFusion (FusionEmitter.h): a reduction fusion's heroes (the
// reduces reached from its roots through an elementwise epilogue), which
// roots are epilogues and which side outputs, and the input's dimensions
// grouped, in physical order, into kept-major, reduced and kept-minor ones
// (XLA's reduction dimensions: row or column reduction).
//
//===----------------------------------------------------------------------===//

#include "EmitterUtils.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// The element type's shape of a hero's result (the first element of a
/// variadic reduce's tuple).
RankedTensorType getHeroOutputType(ReduceOp hero) {
  Type t = hero->getResult(0).getType();
  if (auto tuple = dyn_cast<TupleType>(t))
    t = tuple.getType(0);
  return cast<RankedTensorType>(t);
}

/// Whether `a` and `b` hold the same elements at the same physical offsets:
/// one element count and the same non-degenerate dimensions in physical
/// order.
bool isPhysicallyEquivalent(RankedTensorType a, RankedTensorType b) {
  auto sizes = [](RankedTensorType t) {
    SmallVector<int64_t> s;
    for (int64_t d : getMinorToMajor(t))
      if (t.getDimSize(d) != 1)
        s.push_back(t.getDimSize(d));
    return s;
  };
  return a.hasStaticShape() && b.hasStaticShape() && sizes(a) == sizes(b);
}

} // namespace

FailureOr<ReductionInfo>
mlir::hlo::analyzeReductionFusion(Operation *op, SymbolTable &symbols,
                                  std::string &reason) {
  auto fusion = cast<FusionOp>(op);
  auto fused = symbols.lookup<ComputationOp>(fusion.getCalls());
  ReductionInfo info;
  // A variadic reduce at the root gives one output per element.
  for (Value root : getFusionRoots(fused)) {
    auto tuple = dyn_cast<TupleType>(root.getType());
    for (unsigned i = 0, e = tuple ? tuple.size() : 1; i < e; ++i) {
      info.roots.push_back(root);
      info.rootElements.push_back(i);
    }
  }
  // The heroes: reduces reached from a root through elementwise ops,
  // get-tuple-element and bitcast/reshape.
  llvm::SetVector<Operation *> heroes;
  auto isEpilogueOp = [](Operation *op) {
    return isa<GetTupleElementOp, BitcastOp, ReshapeOp>(op) ||
           (indexing::isElementwise(op) && !isa<TupleOp>(op));
  };
  for (Value root : info.roots) {
    SmallVector<Value> work{root};
    llvm::DenseSet<Value> seen;
    while (!work.empty()) {
      Value v = work.pop_back_val();
      Operation *def = v.getDefiningOp();
      if (!def || !seen.insert(v).second)
        continue;
      if (isa<ReduceOp>(def))
        heroes.insert(def);
      else if (isEpilogueOp(def))
        llvm::append_range(work, getDataOperands(def));
    }
  }
  if (heroes.empty()) {
    reason = "no reduce at the roots";
    return failure();
  }
  for (Operation *h : heroes)
    info.heroes.push_back(cast<ReduceOp>(h));
  ReduceOp first = info.heroes.front();
  info.inputType =
      dyn_cast<RankedTensorType>(getDataOperands(first)[0].getType());
  info.outputType = getHeroOutputType(first);
  if (!info.inputType || !info.inputType.hasStaticShape() ||
      !info.outputType.hasStaticShape()) {
    reason = "a reduce of a dynamic shape";
    return failure();
  }
  ArrayRef<int64_t> dims = first.getDimensions();
  for (ReduceOp hero : info.heroes) {
    for (Value in :
         getDataOperands(hero).take_front(getDataOperands(hero).size() / 2)) {
      if (!sameShapeAndLayout(cast<RankedTensorType>(in.getType()),
                              info.inputType)) {
        reason = "reduces of different input shapes or layouts";
        return failure();
      }
    }
    if (hero.getDimensions() != dims ||
        !sameShapeAndLayout(getHeroOutputType(hero), info.outputType)) {
      reason = "reduces over different dimensions";
      return failure();
    }
  }
  // Every root is an epilogue of the heroes (only physically equivalent
  // values between them) or a side output of the input's shape that does
  // not depend on them.
  auto dependsOnHero = [&](Value v) {
    SmallVector<Value> work{v};
    llvm::DenseSet<Value> seen;
    while (!work.empty()) {
      Operation *def = work.pop_back_val().getDefiningOp();
      if (!def || !seen.insert(def->getResult(0)).second)
        continue;
      if (heroes.contains(def))
        return true;
      llvm::append_range(work, getDataOperands(def));
    }
    return false;
  };
  for (Value root : info.roots) {
    auto rootType = dyn_cast<RankedTensorType>(root.getType());
    if (!dependsOnHero(root)) {
      if (!rootType || rootType.getShape() != info.inputType.getShape()) {
        reason = "an output that is neither a reduction nor of the "
                 "reduced input's shape";
        return failure();
      }
      info.sideOutputs.insert(root);
      continue;
    }
    // The epilogue: every value on a path from the root to a hero is
    // physically equivalent to the heroes' result, and the values it reads
    // besides do not depend on a hero.
    SmallVector<Value> work{root};
    llvm::DenseSet<Value> seen;
    while (!work.empty()) {
      Value v = work.pop_back_val();
      Operation *def = v.getDefiningOp();
      if (!def || heroes.contains(def) || !seen.insert(v).second)
        continue;
      if (!isEpilogueOp(def)) {
        if (dependsOnHero(v)) {
          reason = "`" + getOpcode(def) +
                   "` reads a reduction's result (not an elementwise "
                   "epilogue)";
          return failure();
        }
        continue;
      }
      auto t = dyn_cast<RankedTensorType>(v.getType());
      if (!t || !isPhysicallyEquivalent(t, info.outputType)) {
        if (!dependsOnHero(v))
          continue;
        reason = "an epilogue that reorders the reduction's result";
        return failure();
      }
      llvm::append_range(work, getDataOperands(def));
    }
  }
  // The groups of input dimensions, in physical order (major to minor).
  llvm::SmallDenseSet<int64_t> reduced(dims.begin(), dims.end());
  ArrayRef<int64_t> shape = info.inputType.getShape();
  SmallVector<int64_t> physical =
      llvm::to_vector(llvm::reverse(getMinorToMajor(info.inputType)));
  int64_t minorReduced = -1; // physical position of the minor-most one
  for (auto [pos, d] : llvm::enumerate(physical))
    if (reduced.contains(d) && shape[d] != 1)
      minorReduced = pos;
  for (auto [pos, d] : llvm::enumerate(physical)) {
    if (reduced.contains(d))
      info.reducedDims.push_back(d);
    else if (int64_t(pos) > minorReduced && minorReduced >= 0)
      info.keptMinorDims.push_back(d);
    else if (minorReduced < 0 && shape[d] != 1)
      info.keptMinorDims.push_back(d); // nothing reduced: all kept minor
    else
      info.keptMajorDims.push_back(d);
  }
  auto count = [&](ArrayRef<int64_t> group) {
    int64_t n = 1;
    for (int64_t d : group)
      n *= shape[d];
    return n;
  };
  info.numKeptMajor = count(info.keptMajorDims);
  info.numReduced = count(info.reducedDims);
  info.numKeptMinor = count(info.keptMinorDims);
  if (info.numKeptMajor * info.numKeptMinor == 0) {
    reason = "an empty output";
    return failure();
  }
  // Contiguous: no reduced dimension between kept-major ones (the kept
  // minor ones are minor to every reduced one by construction).
  int64_t lastKeptMajor = -1, firstReduced = int64_t(physical.size());
  for (auto [pos, d] : llvm::enumerate(physical)) {
    if (shape[d] == 1)
      continue;
    if (reduced.contains(d))
      firstReduced = std::min<int64_t>(firstReduced, pos);
    else if (llvm::is_contained(info.keptMajorDims, d))
      lastKeptMajor = pos;
  }
  info.contiguous = lastKeptMajor < firstReduced;
  return info;
}
