//===- DotMerger.cpp - dots sharing an operand as one dot -----------------===//
//
// XLA's DotMerger (seed 002, section 3.2). Dots that share an operand (the
// same lhs, or the same rhs) become one dot over the concatenation of their
// other operands, and each original dot a slice of its result:
//   x = dot(a, b), y = dot(a, c)
//   -> z = dot(a, concatenate(b, c)), x = slice(z), y = slice(z).
// The dots must agree on dimension numbers, operand precision, algorithm,
// element types and layouts, and their other operand must have exactly one
// dimension that is neither batch nor contracting (the one concatenated).
// A dot joins a merge when its input and output bytes, or those of the
// merged dot so far, are at most `max-size-to-merge`.
//
// No member of a merge may depend on another: merging them would make a
// cycle. Dots are grouped by shared operand; a group is scanned in block
// order and a dot joins the merge of the earlier ones unless it is reached
// from them, found by a forward search bounded by the dot's position (the
// block order is topological) and by a number of visited instructions
// (per merge, and for all merges of a block together). Merges may not overlap
// in the block order: the block range between the first and last member of a
// merge contains no member of another, so each search sees the graph as it is
// after the other merges. Instructions after the first member that use the
// merged ones move after the new dot. Left alone: dots with control edges,
// sparse dots, dynamic shapes.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "RewriteUtils.h"
#include "TransformUtils.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"

#include <map>
#include <queue>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLODOTMERGER
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// The most instructions one merge's dependency search visits; past it the
/// merge takes no further dot.
static constexpr int64_t kMaxVisited = 4096;
/// The searches of one block visit at most kMaxVisited plus this many
/// instructions per instruction of the block, all together: the pass stays
/// linear when many groups of dots depend on each other (layers that share
/// weights), and merges of nearby dots (a few instructions apart) are
/// found all the same.
static constexpr int64_t kVisitsPerInstruction = 8;

/// Bytes of an array type's elements (XLA's ByteSizeOfElements; a pred or
/// a sub-byte element counts one byte).
static int64_t byteSize(Type type) {
  auto ranked = cast<RankedTensorType>(type);
  Type element = ranked.getElementType();
  int64_t factor = 1;
  if (auto complex = dyn_cast<ComplexType>(element)) {
    element = complex.getElementType();
    factor = 2;
  }
  int64_t bits = element.getIntOrFloatBitWidth();
  return ranked.getNumElements() * factor * ((bits + 7) / 8);
}

/// Input plus output bytes of `dot`.
static int64_t dotBytes(DotOp dot) {
  return byteSize(dot.getType()) + byteSize(dot.getLhs().getType()) +
         byteSize(dot.getRhs().getType());
}

/// The batch and contracting dimensions of side `side` (0 lhs, 1 rhs).
static ArrayRef<int64_t> batchDims(DotOp dot, unsigned side) {
  return orEmpty(side == 0 ? dot.getLhsBatchDims() : dot.getRhsBatchDims());
}
static ArrayRef<int64_t> contractingDims(DotOp dot, unsigned side) {
  return orEmpty(side == 0 ? dot.getLhsContractingDims()
                           : dot.getRhsContractingDims());
}

/// The only dimension of operand `side` of `dot` that is neither batch nor
/// contracting, or -1 if there is not exactly one.
static int64_t freeDim(DotOp dot, unsigned side) {
  auto type = cast<RankedTensorType>(dot->getOperand(side).getType());
  int64_t found = -1;
  for (int64_t d = 0, e = type.getRank(); d < e; ++d) {
    if (llvm::is_contained(batchDims(dot, side), d) ||
        llvm::is_contained(contractingDims(dot, side), d))
      continue;
    if (found >= 0)
      return -1;
    found = d;
  }
  return found;
}

/// True if `dot` may be merged at all.
static bool isMergeable(DotOp dot) {
  return !hasControlPredecessors(dot) && !isControlPredecessor(dot) &&
         isDenseStaticDot(dot);
}

/// True if `a` and `b`, which share operand `side`, can be one dot.
static bool areCompatible(DotOp a, DotOp b, unsigned side) {
  for (unsigned s : {0u, 1u})
    if (batchDims(a, s) != batchDims(b, s) ||
        contractingDims(a, s) != contractingDims(b, s))
      return false;
  if (a.getOperandPrecisionAttr() != b.getOperandPrecisionAttr() ||
      a.getAlgorithmAttr() != b.getAlgorithmAttr())
    return false;
  auto resultA = cast<RankedTensorType>(a.getType());
  auto resultB = cast<RankedTensorType>(b.getType());
  auto otherA = cast<RankedTensorType>(a->getOperand(1 - side).getType());
  auto otherB = cast<RankedTensorType>(b->getOperand(1 - side).getType());
  return resultA.getElementType() == resultB.getElementType() &&
         resultA.getEncoding() == resultB.getEncoding() &&
         otherA.getElementType() == otherB.getElementType() &&
         otherA.getEncoding() == otherB.getEncoding() &&
         freeDim(a, 1 - side) >= 0 && freeDim(b, 1 - side) >= 0;
}

namespace {
/// Dots to become one, in block order, sharing operand `side`.
struct Merge {
  SmallVector<DotOp> dots;
  unsigned side;
  /// Instructions between the first and last member that use a member
  /// (directly or not), in block order: they move after the new dot.
  SmallVector<Operation *> dependents;
};

/// The instructions reached from the members of a merge being built,
/// searched in block order up to the position of the dot asked about.
class ReachSearch {
public:
  ReachSearch(const DenseMap<Operation *, int64_t> &position, int64_t &budget)
      : position(position), budget(budget) {}

  void addMember(Operation *op) {
    for (Operation *user : op->getUsers())
      push(user);
  }

  /// Whether `op` depends on a member; nullopt if the search ran out.
  std::optional<bool> reaches(Operation *op) {
    int64_t limit = position.lookup(op);
    while (!frontier.empty() && frontier.top().first < limit) {
      Operation *next = frontier.top().second;
      frontier.pop();
      expanded.emplace_back(position.lookup(next), next);
      for (Operation *user : next->getUsers())
        push(user);
      if (static_cast<int64_t>(visited.size()) > kMaxVisited || --budget < 0)
        return std::nullopt;
    }
    return visited.contains(op);
  }

  /// Searched instructions before position `limit`, in block order.
  SmallVector<Operation *> expandedBefore(int64_t limit) {
    llvm::sort(expanded, llvm::less_first());
    SmallVector<Operation *> result;
    for (auto [pos, op] : expanded)
      if (pos < limit)
        result.push_back(op);
    return result;
  }

private:
  void push(Operation *op) {
    if (visited.insert(op).second)
      frontier.emplace(position.lookup(op), op);
  }

  using Entry = std::pair<int64_t, Operation *>;
  const DenseMap<Operation *, int64_t> &position;
  /// What the block's searches may still visit.
  int64_t &budget;
  std::priority_queue<Entry, std::vector<Entry>, llvm::on_first<std::greater<>>>
      frontier;
  DenseSet<Operation *> visited;
  SmallVector<Entry> expanded;
};
} // namespace

/// Replaces the dots of `merge` by slices of one dot over the concatenation
/// of their unshared operands.
static void rewriteMerge(Merge &merge) {
  unsigned side = merge.side, other = 1 - side;
  DotOp first = merge.dots.front(), last = merge.dots.back();
  OpBuilder b(last->getContext());
  b.setInsertionPointAfter(last);
  Location loc = derivedLoc(first.getLoc());

  // The unshared operands, concatenated along their free dimension.
  int64_t concatDim = freeDim(first, other);
  SmallVector<Value> pieces;
  SmallVector<int64_t> sizes;
  for (DotOp dot : merge.dots) {
    Value piece = dot->getOperand(other);
    pieces.push_back(piece);
    sizes.push_back(
        cast<RankedTensorType>(piece.getType()).getDimSize(concatDim));
  }
  auto pieceType = cast<RankedTensorType>(pieces.front().getType());
  SmallVector<int64_t> concatShape(pieceType.getShape());
  concatShape[concatDim] = llvm::sum_of(sizes);
  Operation *concat = createInstruction(
      b, loc, ConcatenateOp::getOperationName(),
      RankedTensorType::get(concatShape, pieceType.getElementType(),
                            pieceType.getEncoding()),
      pieces,
      {b.getNamedAttr("dimensions", b.getDenseI64ArrayAttr({concatDim}))});

  // The merged dot: its result is [batch, lhs free, rhs free]; the sliced
  // dimension is the unshared side's only free one.
  auto resultType = cast<RankedTensorType>(first.getType());
  int64_t sliceDim = resultType.getRank() - 1;
  if (side == 1) {
    int64_t rhsRank =
        cast<RankedTensorType>(first.getRhs().getType()).getRank();
    int64_t rhsFree =
        rhsRank - batchDims(first, 1).size() - contractingDims(first, 1).size();
    sliceDim -= rhsFree;
  }
  SmallVector<int64_t> dotShape(resultType.getShape());
  dotShape[sliceDim] = llvm::sum_of(sizes);
  SmallVector<NamedAttribute> attrs;
  for (StringRef name :
       {"lhs_batch_dims", "lhs_contracting_dims", "rhs_batch_dims",
        "rhs_contracting_dims", "operand_precision", "algorithm"})
    if (Attribute a = first->getAttr(name))
      attrs.push_back(b.getNamedAttr(name, a));
  SmallVector<Value> operands(2);
  operands[side] = first->getOperand(side);
  operands[other] = concat->getResult(0);
  Operation *merged = createInstruction(
      b, loc, DotOp::getOperationName(),
      RankedTensorType::get(dotShape, resultType.getElementType(),
                            resultType.getEncoding()),
      operands, attrs);

  // One slice per dot, in its place.
  Operation *insertAfter = merged;
  int64_t offset = 0;
  for (auto [dot, size] : llvm::zip_equal(merge.dots, sizes)) {
    SmallVector<int64_t> starts(dotShape.size(), 0),
        strides(dotShape.size(), 1);
    SmallVector<int64_t> limits(dotShape);
    starts[sliceDim] = offset;
    limits[sliceDim] = offset + size;
    offset += size;
    Operation *slice = createInstruction(
        b, UnknownLoc::get(b.getContext()), SliceOp::getOperationName(),
        dot.getType(), {merged->getResult(0)},
        {b.getNamedAttr(
            "slice", SliceAttr::get(b.getContext(), starts, limits, strides))});
    transferInstructionAttrs(dot, slice);
    dot.getResult().replaceAllUsesWith(slice->getResult(0));
    insertAfter = slice;
  }
  // What used an earlier member before the last one now comes after the
  // slices (none of it feeds a member, or they would not be merged).
  for (Operation *op : merge.dependents) {
    op->moveAfter(insertAfter);
    insertAfter = op;
  }
  for (DotOp dot : merge.dots)
    dot.erase();
}

namespace {
struct DotMergerPass
    : ChangeReportingPass<DotMergerPass, hlo::impl::HloDotMergerBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    for (ComputationOp comp : nonFusionComputations(getOperation()))
      for (Block &block : comp.getBody())
        mergeBlock(block);
  }

  void mergeBlock(Block &block) {
    // Positions, and the dots grouped by (shared operand, side), both in
    // block order.
    DenseMap<Operation *, int64_t> position;
    llvm::MapVector<std::pair<Value, unsigned>, SmallVector<DotOp>> groups;
    int64_t pos = 0;
    for (Operation &op : block) {
      position[&op] = pos++;
      auto dot = dyn_cast<DotOp>(&op);
      if (!dot || !isMergeable(dot))
        continue;
      groups[{dot.getLhs(), 0u}].push_back(dot);
      if (dot.getRhs() != dot.getLhs())
        groups[{dot.getRhs(), 1u}].push_back(dot);
    }

    // Claimed block ranges [first, last] of the merges found: disjoint.
    std::map<int64_t, int64_t> claimed;
    auto overlapsClaimed = [&](int64_t lo, int64_t hi) {
      auto it = claimed.upper_bound(hi);
      if (it == claimed.begin())
        return false;
      return std::prev(it)->second >= lo;
    };

    SmallVector<Merge> merges;
    int64_t budget = kMaxVisited + kVisitsPerInstruction * pos;
    for (auto &[key, dots] : groups) {
      unsigned side = key.second;
      SmallVector<DotOp> remaining = dots;
      // Each round merges the first remaining dot with what it can take;
      // a few rounds per group keep the pass linear.
      for (int round = 0; round < 4 && remaining.size() > 1; ++round) {
        SmallVector<DotOp> next;
        DotOp seed = remaining.front();
        int64_t start = position.lookup(seed);
        if (overlapsClaimed(start, start)) {
          remaining.erase(remaining.begin());
          continue;
        }
        Merge merge{{seed}, side, {}};
        ReachSearch search(position, budget);
        search.addMember(seed);
        int64_t mergedBytes = dotBytes(seed);
        bool stopped = false;
        for (DotOp dot : ArrayRef(remaining).drop_front()) {
          int64_t at = position.lookup(dot);
          int64_t bytes = dotBytes(dot);
          if (stopped || !areCompatible(seed, dot, side) ||
              (bytes > maxSizeToMerge && mergedBytes > maxSizeToMerge)) {
            next.push_back(dot);
            continue;
          }
          if (overlapsClaimed(start, at)) {
            stopped = true;
            next.push_back(dot);
            continue;
          }
          std::optional<bool> reached = search.reaches(dot);
          if (!reached)
            stopped = true;
          if (!reached || *reached) {
            next.push_back(dot);
            continue;
          }
          merge.dots.push_back(dot);
          search.addMember(dot);
          // The merged dot's bytes: the shared operand once.
          mergedBytes += bytes - byteSize(dot->getOperand(side).getType());
        }
        if (merge.dots.size() > 1) {
          int64_t end = position.lookup(merge.dots.back());
          merge.dependents = search.expandedBefore(end);
          claimed[start] = end;
          merges.push_back(std::move(merge));
        }
        remaining = std::move(next);
      }
    }

    for (Merge &merge : merges) {
      numMergedDots += merge.dots.size();
      changed = true;
      ++numMerges;
      changed = true;
      rewriteMerge(merge);
    }
  }
};
} // namespace
