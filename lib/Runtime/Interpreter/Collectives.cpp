//===- Collectives.cpp - collectives over simulated devices ---------------===//
//
// The module runs once per device (replica r, partition p; flattened id
// r * num_partitions + p), each device in its own thread. A collective is a
// rendezvous: every device hands in its operands, the last one to arrive
// computes the results of all devices, and each takes its own. All
// devices must reach the same collectives in the same order (as HLO
// requires); a device that fails wakes the others with an error.
//
// Participant groups follow XLA's group modes: no channel_id: groups of
// replica ids, within each partition; channel_id on an op without
// use_global_device_ids (all-to-all, collective-permute,
// collective-broadcast): groups of partition ids, within each replica;
// channel_id and use_global_device_ids=false: groups of replica ids over
// all partitions (replica-major); use_global_device_ids=true: groups of
// flattened ids. Empty groups mean everyone.
//
// all-reduce folds the group's operands in group order; all-gather and
// reduce-scatter concatenate / split in group order; all-to-all splits
// dimensions[0] (array form) or exchanges operands (tuple form);
// collective-permute gives a target its source's operand (operands: XLA's
// combined form) and zeros to devices that are no target;
// collective-broadcast copies the first member's operand. The -start/-done
// forms compute at the start; legacy
// tuple results ((operands), results) are built when the type asks for
// them. collective-permute's in-place form (input, output, input and
// output start indices, slice_sizes) writes a slice of the source's input
// into the target's output buffer. ragged-all-to-all moves row ranges (k
// per peer). collective-reduce and shuffle have no semantics in XLA's
// documentation; the interpreter gives them the meaning their names and
// the dialect's descriptions state: collective-reduce folds the group's
// operands in group order and every member gets the whole result (as
// all-reduce), shuffle is the all-to-all exchange along dimension 0.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "Hlo/Dialect/Hlo/HloDeviceGroups.h"
#include "Hlo/Dialect/Hlo/HloShardy.h"
#include "Hlo/Dialect/Hlo/HloTileSharding.h"
#include "Hlo/Dialect/Hlo/HloTypeInference.h"
#include "Hlo/Support/DeviceRendezvous.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::hlo;
using namespace mlir::hlo::runtime;
using namespace mlir::hlo::runtime::eval;

namespace {
/// All inputs of one collective (one per device) in, all outputs out.
using Combine = function_ref<LogicalResult(
    Interp &, std::vector<Literal> &inputs, std::vector<Literal> &outputs)>;
} // namespace

namespace mlir::hlo::runtime::eval {
/// The interpreter's side of a DeviceRendezvous: each device's input
/// literal in, each device's output literal out.
class Rendezvous {
public:
  explicit Rendezvous(int64_t n) : devices(n), inputs(n), outputs(n) {}

  FailureOr<Literal> exchange(Interp &interp, Operation *op, Literal input,
                              Combine combine) {
    int64_t device =
        interp.replica * interp.shared.options.numPartitions + interp.partition;
    inputs[device] = std::move(input);
    std::string error;
    if (failed(devices.meet(
            device, op,
            [&](std::string &why) {
              if (succeeded(combine(interp, inputs, outputs)))
                return success();
              why = interp.errorMessage;
              return failure();
            },
            error))) {
      if (error == DeviceRendezvous::kStopped ||
          error == DeviceRendezvous::kUnmatched)
        return interp.error(op, error);
      if (interp.errorMessage.empty())
        interp.errorMessage = error;
      return failure();
    }
    return std::move(outputs[device]);
  }

  void abort() { devices.stop(); }
  void finish() { devices.finish(); }

private:
  DeviceRendezvous devices;
  std::vector<Literal> inputs, outputs;
};
} // namespace mlir::hlo::runtime::eval

std::shared_ptr<Rendezvous> eval::makeRendezvous(int64_t numDevices) {
  return std::make_shared<Rendezvous>(numDevices);
}

void eval::abortRendezvous(Rendezvous &rendezvous) { rendezvous.abort(); }

void eval::finishRendezvous(Rendezvous &rendezvous) { rendezvous.finish(); }

static FailureOr<Literal> exchange(Interp &interp, Operation *op, Literal input,
                                   Combine combine) {
  if (interp.shared.rendezvous)
    return interp.shared.rendezvous->exchange(interp, op, std::move(input),
                                              combine);
  std::vector<Literal> inputs, outputs(1);
  inputs.push_back(std::move(input));
  if (failed(combine(interp, inputs, outputs)))
    return failure();
  return std::move(outputs[0]);
}

//===----------------------------------------------------------------------===//
// Groups.
//===----------------------------------------------------------------------===//

/// The participant groups of `op` as flattened device ids, in group order
/// (HloDeviceGroups.h). `hasGlobalFlag`: the op has use_global_device_ids
/// (all-reduce, all-gather, reduce-scatter).
static FailureOr<DeviceGroups> deviceGroups(Interp &interp, Operation *op,
                                            bool hasGlobalFlag) {
  std::string error;
  FailureOr<DeviceGroups> groups = getDeviceGroups(
      op, interp.shared.options.numReplicas,
      interp.shared.options.numPartitions, hasGlobalFlag, error);
  if (failed(groups))
    return FailureOr<DeviceGroups>(interp.fail(op, error));
  return groups;
}

//===----------------------------------------------------------------------===//
// Combines.
//===----------------------------------------------------------------------===//

static Literal packed(std::vector<Literal> elements) {
  if (elements.size() == 1)
    return std::move(elements[0]);
  return Literal::tuple(std::move(elements));
}

static Literal tupleOf(Operands operands) {
  std::vector<Literal> v;
  for (const Literal *l : operands)
    v.push_back(*l);
  return Literal::tuple(std::move(v));
}

/// Element-wise reduction of operand `k` over the group, in group order.
static FailureOr<Literal> reduceGroup(Interp &interp, ScalarFunction &f,
                                      std::vector<Literal> &inputs,
                                      ArrayRef<int64_t> group, size_t k) {
  Literal acc = inputs[group[0]].getElements()[k];
  for (int64_t d : group.drop_front()) {
    const Literal &x = inputs[d].getElements()[k];
    for (int64_t e = 0, n = acc.getNumElements(); e < n; ++e) {
      const Literal *args[] = {&acc, &x};
      int64_t idx[] = {e, e};
      Literal *outs[] = {&acc};
      int64_t outIdx[] = {e};
      if (failed(f.apply(args, idx, outs, outIdx)))
        return failure();
    }
  }
  return acc;
}

/// Concatenates `parts` along `dim`.
static Literal concatenate(ArrayRef<const Literal *> parts, int64_t dim) {
  SmallVector<int64_t> shape(parts[0]->getShape());
  shape[dim] = 0;
  for (const Literal *p : parts)
    shape[dim] += p->getShape()[dim];
  Literal out = parts[0]->withShape(shape);
  int64_t offset = 0;
  for (const Literal *p : parts) {
    SmallVector<int64_t> idx(p->getRank(), 0);
    for (int64_t i = 0, e = p->getNumElements(); i < e;
         ++i, nextIndex(idx, p->getShape())) {
      SmallVector<int64_t> dst(idx);
      dst[dim] += offset;
      out.copyElement(out.linearize(dst), *p, i);
    }
    offset += p->getShape()[dim];
  }
  return out;
}

/// Chunk `j` of `count` equal chunks of `in` along `dim`.
static Literal chunk(const Literal &in, int64_t dim, int64_t count, int64_t j) {
  SmallVector<int64_t> shape(in.getShape());
  int64_t size = shape[dim] / count;
  shape[dim] = size;
  Literal out = in.withShape(shape);
  SmallVector<int64_t> idx(shape.size(), 0);
  for (int64_t i = 0, e = out.getNumElements(); i < e;
       ++i, nextIndex(idx, shape)) {
    SmallVector<int64_t> src(idx);
    src[dim] += j * size;
    out.copyElement(i, in, in.linearize(src));
  }
  return out;
}

static FailureOr<Literal> allReduce(Interp &interp, Operation *op,
                                    StringRef reducer, Operands operands,
                                    std::optional<int64_t> scatterDim) {
  return exchange(
      interp, op, tupleOf(operands),
      [&](Interp &in, std::vector<Literal> &inputs,
          std::vector<Literal> &outputs) -> LogicalResult {
        auto groups = deviceGroups(in, op, /*hasGlobalFlag=*/true);
        auto f = ScalarFunction::get(in, op, reducer);
        if (failed(groups) || failed(f))
          return failure();
        for (auto &group : *groups) {
          std::vector<Literal> reduced;
          for (size_t k = 0; k < operands.size(); ++k) {
            auto r = reduceGroup(in, *f, inputs, group, k);
            if (failed(r))
              return failure();
            reduced.push_back(std::move(*r));
          }
          for (auto [pos, d] : llvm::enumerate(group)) {
            std::vector<Literal> mine;
            for (Literal &r : reduced) {
              if (!scatterDim) {
                mine.push_back(r);
                continue;
              }
              if (r.getShape()[*scatterDim] % group.size() != 0)
                return in.fail(op, "the scatter dimension is not divisible "
                                   "by the group size");
              mine.push_back(chunk(r, *scatterDim, group.size(), pos));
            }
            outputs[d] = packed(std::move(mine));
          }
        }
        return success();
      });
}

static FailureOr<Literal> allGather(Interp &interp, Operation *op, int64_t dim,
                                    Operands operands) {
  return exchange(interp, op, tupleOf(operands),
                  [&](Interp &in, std::vector<Literal> &inputs,
                      std::vector<Literal> &outputs) -> LogicalResult {
                    auto groups = deviceGroups(in, op, /*hasGlobalFlag=*/true);
                    if (failed(groups))
                      return failure();
                    for (auto &group : *groups) {
                      std::vector<Literal> gathered;
                      for (size_t k = 0; k < operands.size(); ++k) {
                        SmallVector<const Literal *> parts;
                        for (int64_t d : group)
                          parts.push_back(&inputs[d].getElements()[k]);
                        gathered.push_back(concatenate(parts, dim));
                      }
                      for (int64_t d : group)
                        outputs[d] = packed(gathered);
                    }
                    return success();
                  });
}

/// The array-form all-to-all within `group`: every operand is split along
/// `dim` into one equal chunk per member, and member j receives chunk j of
/// every member, concatenated along `dim` in group order.
static LogicalResult splitExchange(Interp &in, Operation *op,
                                   ArrayRef<int64_t> group, int64_t dim,
                                   std::vector<Literal> &inputs,
                                   std::vector<Literal> &outputs) {
  if (group.empty())
    return success();
  int64_t g = group.size();
  size_t numOperands = inputs[group[0]].getElements().size();
  for (auto [j, d] : llvm::enumerate(group)) {
    std::vector<Literal> mine;
    for (size_t k = 0; k < numOperands; ++k) {
      if (inputs[group[0]].getElements()[k].getShape()[dim] % g != 0)
        return in.fail(op, "dimension " + Twine(dim) + " of operand " +
                               Twine(k) +
                               " is not divisible by the group "
                               "size " +
                               Twine(g));
      std::vector<Literal> chunks;
      SmallVector<const Literal *> parts;
      for (int64_t src : group)
        chunks.push_back(chunk(inputs[src].getElements()[k], dim, g, j));
      for (Literal &c : chunks)
        parts.push_back(&c);
      mine.push_back(concatenate(parts, dim));
    }
    outputs[d] = packed(std::move(mine));
  }
  return success();
}

static FailureOr<Literal> allToAll(Interp &interp, AllToAllOp op,
                                   Operands operands) {
  std::optional<ArrayRef<int64_t>> dims = op.getDimensions();
  bool arrayForm = dims && !dims->empty();
  return exchange(
      interp, op, tupleOf(operands),
      [&](Interp &in, std::vector<Literal> &inputs,
          std::vector<Literal> &outputs) -> LogicalResult {
        auto groups = deviceGroups(in, op, /*hasGlobalFlag=*/false);
        if (failed(groups))
          return failure();
        for (auto &group : *groups) {
          int64_t g = group.size();
          if (!arrayForm && static_cast<int64_t>(operands.size()) != g)
            return in.fail(op, "the tuple form needs one operand per "
                               "group member");
          if (arrayForm) {
            if (failed(
                    splitExchange(in, op, group, (*dims)[0], inputs, outputs)))
              return failure();
            continue;
          }
          for (auto [j, d] : llvm::enumerate(group)) {
            std::vector<Literal> mine;
            for (int64_t src : group)
              mine.push_back(inputs[src].getElements()[j]);
            // A tuple of one, where the result type says so.
            outputs[d] = isa<TupleType>(op.getType())
                             ? Literal::tuple(std::move(mine))
                             : packed(std::move(mine));
          }
        }
        return success();
      });
}

/// collective-permute: (source, target) pairs of replica ids (no channel)
/// or partition ids (with a channel).
static FailureOr<Literal> collectivePermute(Interp &interp, Operation *op,
                                            std::optional<ArrayAttr> pairs,
                                            Operands operands) {
  return exchange(
      interp, op, tupleOf(operands),
      [&](Interp &in, std::vector<Literal> &inputs,
          std::vector<Literal> &outputs) -> LogicalResult {
        for (size_t d = 0; d < outputs.size(); ++d) {
          std::vector<Literal> zeros;
          for (const Literal &e : inputs[d].getElements())
            zeros.push_back(e.withShape(e.getShape()));
          outputs[d] = packed(std::move(zeros));
        }
        std::string error;
        auto devicePairs = getDevicePairs(
            op, pairs ? *pairs : ArrayAttr(), in.shared.options.numReplicas,
            in.shared.options.numPartitions, error);
        if (failed(devicePairs))
          return in.fail(op, error);
        for (auto [src, dst] : *devicePairs)
          outputs[dst] = packed(inputs[src].getElements());
        return success();
      });
}

FailureOr<Literal>
eval::sendToPeers(Interp &interp, Operation *send, const Literal &data,
                  ArrayRef<std::pair<int64_t, int64_t>> pairs) {
  Type type = getDataOperands(send)[0].getType();
  return exchange(interp, send, data,
                  [&](Interp &, std::vector<Literal> &inputs,
                      std::vector<Literal> &outputs) -> LogicalResult {
                    for (Literal &out : outputs)
                      out = Literal::zeros(type);
                    for (auto [src, dst] : pairs)
                      outputs[dst] = inputs[src];
                    return success();
                  });
}

/// Entry `k` of one buffer's start indices on a device: a tuple of
/// integer scalars (one entry), or entry k of a tuple of such tuples.
static SmallVector<int64_t> startIndices(const Literal &offsets, int64_t k) {
  ArrayRef<Literal> elements = offsets.getElements();
  if (!elements.empty() && elements[0].isTuple())
    elements = elements[k].getElements();
  SmallVector<int64_t> starts;
  for (const Literal &x : elements)
    starts.push_back(indexValue(x));
  return starts;
}

/// Buffer `b` of an in-place collective-permute's buffer operand (the
/// operand itself when the buffers are arrays).
template <typename L> static L &bufferOf(L &l, bool tuple, size_t b) {
  return tuple ? l.getElements()[b] : l;
}

/// The in-place collective-permute (input, output, input_start_indices,
/// output_start_indices): source_target_pairs are `form.entries` equal
/// consecutive chunks; a pair of chunk k copies, for every buffer b, the
/// slice of size slice_sizes[b * entries + k] of the source's input at
/// the source's k-th input start indices into the target's output at its
/// k-th output start indices (start indices clamped as dynamic-slice and
/// dynamic-update-slice clamp them), pairs in order. The result is the
/// output operand with those updates.
static FailureOr<Literal> inPlacePermute(Interp &interp, Operation *op,
                                         std::optional<ArrayAttr> pairs,
                                         ArrayAttr sliceSizes,
                                         Operands operands) {
  FailureOr<InPlacePermute> form = verifyInPlacePermute(
      [&]() { return op->emitOpError(); }, getDataOperands(op).getTypes(),
      sliceSizes);
  if (failed(form))
    return failure();
  return exchange(
      interp, op, tupleOf(operands),
      [&](Interp &in, std::vector<Literal> &inputs,
          std::vector<Literal> &outputs) -> LogicalResult {
        for (size_t d = 0; d < outputs.size(); ++d)
          outputs[d] = inputs[d].getElements()[1];
        if (!pairs || pairs->empty())
          return success();
        std::string error;
        auto devicePairs =
            getDevicePairs(op, *pairs, in.shared.options.numReplicas,
                           in.shared.options.numPartitions, error);
        if (failed(devicePairs))
          return in.fail(op, error);
        // Each pair of ids stands for the same number of device pairs, and
        // the pairs make form->entries chunks of equal size.
        size_t copies = devicePairs->size() / pairs->size();
        size_t chunk = pairs->size() / form->entries;
        for (auto [pairIndex, devices] : llvm::enumerate(*devicePairs)) {
          size_t k = pairIndex / copies / chunk;
          auto [src, dst] = devices;
          ArrayRef<Literal> from = inputs[src].getElements();
          ArrayRef<Literal> to = inputs[dst].getElements();
          for (size_t b = 0; b < form->inputs.size(); ++b) {
            const Literal &data = bufferOf(from[0], form->tuple, b);
            Literal &out = bufferOf(outputs[dst], form->tuple, b);
            ArrayRef<int64_t> size = form->sliceSizes[b * form->entries + k];
            SmallVector<int64_t> a =
                startIndices(bufferOf(from[2], form->tuple, b), k);
            SmallVector<int64_t> c =
                startIndices(bufferOf(to[3], form->tuple, b), k);
            int64_t rank = size.size();
            for (int64_t d = 0; d < rank; ++d) {
              a[d] = std::clamp<int64_t>(a[d], 0, data.getShape()[d] - size[d]);
              c[d] = std::clamp<int64_t>(c[d], 0, out.getShape()[d] - size[d]);
            }
            SmallVector<int64_t> idx(rank, 0), x(rank), y(rank);
            for (int64_t i = 0, n = numElements(size); i < n;
                 ++i, nextIndex(idx, size)) {
              for (int64_t d = 0; d < rank; ++d) {
                x[d] = a[d] + idx[d];
                y[d] = c[d] + idx[d];
              }
              out.copyElement(out.linearize(y), data, data.linearize(x));
            }
          }
        }
        return success();
      });
}

/// shuffle: the exchange of MapReduce's shuffle phase (XLA documents no
/// semantics for it; see docs/runtime.md): each operand is split along
/// dimension 0 into one equal chunk per group member, and member j
/// receives chunk j of every member, concatenated along dimension 0 in
/// group order (all-to-all with split and concat dimension 0).
static FailureOr<Literal> shuffle(Interp &interp, Operation *op,
                                  Operands operands) {
  for (const Literal *l : operands)
    if (!l->isArray() || l->getRank() == 0)
      return interp.error(op, "operands must be arrays of rank >= 1 (they "
                              "are split along dimension 0)");
  return exchange(
      interp, op, tupleOf(operands),
      [&](Interp &in, std::vector<Literal> &inputs,
          std::vector<Literal> &outputs) -> LogicalResult {
        auto groups = deviceGroups(in, op, /*hasGlobalFlag=*/true);
        if (failed(groups))
          return failure();
        for (auto &group : *groups)
          if (failed(splitExchange(in, op, group, 0, inputs, outputs)))
            return failure();
        return success();
      });
}

static FailureOr<Literal> collectiveBroadcast(Interp &interp, Operation *op,
                                              Operands operands) {
  return exchange(interp, op, tupleOf(operands),
                  [&](Interp &in, std::vector<Literal> &inputs,
                      std::vector<Literal> &outputs) -> LogicalResult {
                    auto groups = deviceGroups(in, op, /*hasGlobalFlag=*/false);
                    if (failed(groups))
                      return failure();
                    for (auto &group : *groups)
                      for (int64_t d : group)
                        outputs[d] = packed(inputs[group[0]].getElements());
                    return success();
                  });
}

/// ragged-all-to-all(input, output, input_offsets, send_sizes,
/// output_offsets, recv_sizes): the four index arrays have g * k entries
/// for a group of g members and k updates per peer (peer-major: entry
/// j * k + u is update u to member j). Each member sends rows
/// [input_offsets[j*k+u], + send_sizes[j*k+u]) of its input to member j,
/// which writes them at row output_offsets[j*k+u] (the sender's value) of
/// its output operand; the result is the output operand so updated, in
/// group order of the senders. recv_sizes is not read.
static FailureOr<Literal> raggedAllToAll(Interp &interp, Operation *op,
                                         Operands operands) {
  if (operands.size() != 6 ||
      !llvm::all_of(operands, [](const Literal *l) { return l->isArray(); }) ||
      operands[0]->getRank() == 0 ||
      operands[0]->getElementType() != operands[1]->getElementType() ||
      operands[0]->getRank() != operands[1]->getRank() ||
      operands[0]->getShape().drop_front() !=
          operands[1]->getShape().drop_front())
    return interp.error(op, "needs arrays input, output (same element type "
                            "and row shape), input_offsets, send_sizes, "
                            "output_offsets and recv_sizes");
  return exchange(
      interp, op, tupleOf(operands),
      [&](Interp &in, std::vector<Literal> &inputs,
          std::vector<Literal> &outputs) -> LogicalResult {
        auto groups = deviceGroups(in, op, /*hasGlobalFlag=*/false);
        if (failed(groups))
          return failure();
        for (auto &group : *groups) {
          int64_t g = group.size();
          for (int64_t d : group)
            outputs[d] = inputs[d].getElements()[1];
          for (int64_t i = 0; i < g; ++i) {
            ArrayRef<Literal> e = inputs[group[i]].getElements();
            const Literal &data = e[0];
            int64_t entries = e[2].getNumElements();
            if (entries == 0 || entries % g != 0 ||
                llvm::any_of(e.slice(3), [&](const Literal &l) {
                  return l.getNumElements() != entries;
                }))
              return in.fail(op, "offsets and sizes must have the same "
                                 "number of entries, k per group member "
                                 "(k >= 1; the group has " +
                                     Twine(g) + " members)");
            int64_t perPeer = entries / g;
            int64_t srcRows = data.getShape()[0];
            int64_t rowSize = srcRows ? data.getNumElements() / srcRows : 0;
            for (int64_t j = 0; j < g; ++j) {
              Literal &dst = outputs[group[j]];
              int64_t dstRows = dst.getShape()[0];
              for (int64_t u = 0; u < perPeer; ++u) {
                int64_t at = j * perPeer + u;
                int64_t from = indexValue(e[2], at),
                        size = indexValue(e[3], at), to = indexValue(e[4], at);
                if (size < 0 || from < 0 || to < 0 || from > srcRows - size ||
                    to > dstRows - size)
                  return in.fail(
                      op, "update " + Twine(u) + " from group member " +
                              Twine(i) + " to member " + Twine(j) + ": rows [" +
                              Twine(from) + ", +" + Twine(size) + ") of " +
                              Twine(srcRows) + " to row " + Twine(to) + " of " +
                              Twine(dstRows) + " are out of bounds");
                for (int64_t k = 0; k < size * rowSize; ++k)
                  dst.copyElement(to * rowSize + k, data, from * rowSize + k);
              }
            }
          }
        }
        return success();
      });
}

/// A -done op: identity, or element 1 of a legacy (operands, results)
/// tuple.
static FailureOr<Literal> done(Interp &interp, Operation *op,
                               const Literal &start) {
  if (start.hasType(op->getResult(0).getType()))
    return start;
  if (start.isTuple() && start.getElements().size() >= 2)
    return start.getElements()[1];
  return interp.error(op, "cannot find the result in the start's value");
}

/// A -start op's value: `result`, or the legacy tuple (operands, result,
/// contexts...) when the result type is such a tuple (element 0 is only
/// the input buffer for collective-permute's in-place form).
static FailureOr<Literal> startValue(Operation *op, Operands operands,
                                     FailureOr<Literal> result) {
  if (failed(result))
    return failure();
  Type type = op->getResult(0).getType();
  if (result->hasType(type))
    return result;
  auto tt = dyn_cast<TupleType>(type);
  if (!tt || tt.size() < 2)
    return result; // reported as a type mismatch by the caller
  std::vector<Literal> e;
  std::vector<Literal> ins;
  for (const Literal *l : operands)
    ins.push_back(*l);
  if (isa<CollectivePermuteStartOp>(op) &&
      isInPlacePermute(getDataOperands(op).getTypes()))
    ins.resize(1);
  e.push_back(packed(std::move(ins)));
  e.push_back(std::move(*result));
  for (Type t : tt.getTypes().drop_front(2))
    e.push_back(Literal::zeros(t));
  return Literal::tuple(std::move(e));
}

static EvalResult evalCollective(Interp &interp, Operation *op,
                                 Operands operands);

EvalResult eval::evalCollectiveOp(Interp &interp, Operation *op,
                                  Operands operands) {
  EvalResult r = evalCollective(interp, op, operands);
  if (!r || failed(*r))
    return r;
  Type type = op->getResult(0).getType();
  if (!(*r)->hasType(type))
    return interp.error(
        op, "the result type " + typeToString(type) +
                " does not fit the participants (the run has " +
                Twine(interp.shared.options.numReplicas) + " replicas and " +
                Twine(interp.shared.options.numPartitions) + " partitions)");
  return r;
}

static EvalResult evalCollective(Interp &interp, Operation *op,
                                 Operands operands) {
  auto u32 = [&](int64_t v) -> EvalResult {
    Literal l = Literal::zeros(op->getResult(0).getType());
    l.setInt(0, v);
    return l;
  };
  return llvm::TypeSwitch<Operation *, EvalResult>(op)
      .Case([&](ReplicaIdOp) { return u32(interp.replica); })
      .Case([&](PartitionIdOp) { return u32(interp.partition); })
      .Case([&](AllReduceOp a) {
        return allReduce(interp, op, a.getToApply(), operands, std::nullopt);
      })
      .Case([&](AllReduceStartOp a) {
        return allReduce(interp, op, a.getToApply(), operands, std::nullopt);
      })
      .Case([&](ReduceScatterOp r) {
        return allReduce(interp, op, r.getToApply(), operands,
                         r.getDimensions()[0]);
      })
      .Case([&](AllGatherOp a) {
        return allGather(interp, op, a.getDimensions()[0], operands);
      })
      .Case([&](AllGatherStartOp a) {
        return startValue(
            op, operands,
            allGather(interp, op, a.getDimensions()[0], operands));
      })
      .Case([&](AllToAllOp a) { return allToAll(interp, a, operands); })
      .Case([&](RaggedAllToAllOp) {
        return raggedAllToAll(interp, op, operands);
      })
      .Case([&](CollectivePermuteOp c) -> EvalResult {
        if (isInPlacePermute(c.getInputs().getTypes()))
          return inPlacePermute(interp, op, c.getSourceTargetPairs(),
                                c.getSliceSizesAttr(), operands);
        return collectivePermute(interp, op, c.getSourceTargetPairs(),
                                 operands);
      })
      .Case([&](CollectivePermuteStartOp c) -> EvalResult {
        if (isInPlacePermute(c.getInputs().getTypes()))
          return startValue(op, operands,
                            inPlacePermute(interp, op, c.getSourceTargetPairs(),
                                           c.getSliceSizesAttr(), operands));
        return startValue(
            op, operands,
            collectivePermute(interp, op, c.getSourceTargetPairs(), operands));
      })
      .Case([&](CollectiveBroadcastOp) {
        return collectiveBroadcast(interp, op, operands);
      })
      .Case([&](CollectiveReduceOp c) -> EvalResult {
        if (!c.getToApply())
          return interp.error(op, "needs a to_apply computation");
        return allReduce(interp, op, *c.getToApply(), operands, std::nullopt);
      })
      .Case([&](ShuffleOp) { return shuffle(interp, op, operands); })
      .Case<AllReduceDoneOp, AllGatherDoneOp, CollectivePermuteDoneOp>(
          [&](Operation *) { return done(interp, op, *operands[0]); })
      .Default([](Operation *) -> EvalResult { return std::nullopt; });
}

//===----------------------------------------------------------------------===//
// shard_map boundaries before partitioning.
//===----------------------------------------------------------------------===//

/// The sharding of the instruction (or entry parameter) making `v`.
static ShardingAttr shardingOf(Value v) {
  if (Operation *def = v.getDefiningOp())
    return def->getAttrOfType<ShardingAttr>("sharding");
  auto arg = cast<BlockArgument>(v);
  auto comp = dyn_cast<ComputationOp>(arg.getOwner()->getParentOp());
  return comp ? comp.getArgAttrOfType<ShardingAttr>(arg.getArgNumber(),
                                                    "hlo.sharding")
              : ShardingAttr();
}

/// The tiles `s` cuts an array of `shape` into on the run's partitions;
/// for a sharding manual over some axes (a boundary of a region nested in
/// one manual over those), the tiles of each group's local value, and
/// each partition's group in `groups`.
static FailureOr<TileSharding> tileShardingOf(Interp &interp, Operation *op,
                                              ShardingAttr s,
                                              ArrayRef<int64_t> shape,
                                              SmallVector<int64_t> &groups) {
  int64_t n = interp.shared.options.numPartitions;
  std::optional<TileSharding> t =
      TileSharding::getPartlyManual(s, shape.size(), n, groups);
  if (!t) {
    groups.assign(n, 0);
    t = TileSharding::get(s, shape.size(), n);
  }
  if (!t || !t->isEven(shape))
    return interp.fail(op, "the sharding of a shard_map's global value "
                           "does not cut it into even tiles of the run's " +
                               Twine(interp.shared.options.numPartitions) +
                               " partitions");
  return *t;
}

/// Calls `fn(tileIndex, wholeIndex)` for each element of partition `p`'s
/// tile of an array of `shape`.
static void forTile(const TileSharding &t, int64_t p, ArrayRef<int64_t> shape,
                    function_ref<void(int64_t, int64_t)> fn) {
  SmallVector<int64_t> tileShape = t.shardShape(shape);
  int64_t n = 1;
  for (int64_t d : tileShape)
    n *= d;
  SmallVector<int64_t> index(shape.size());
  for (int64_t i = 0; i < n; ++i) {
    int64_t rest = i, linear = 0, stride = 1;
    for (int64_t d = (int64_t)shape.size() - 1; d >= 0; --d) {
      int64_t x = rest % tileShape[d] + t.getCoords(p)[d] * tileShape[d];
      rest /= tileShape[d];
      linear += x * stride;
      stride *= shape[d];
    }
    fn(i, linear);
  }
}

/// `t` (tiles of an array of shape `whole`) coarsened to blocks of shape
/// `block`: each partition holds the block its tile lies in; nothing where
/// the blocks do not split the tiles evenly.
static std::optional<TileSharding> blocksOf(const TileSharding &t,
                                            ArrayRef<int64_t> whole,
                                            ArrayRef<int64_t> block) {
  if (whole.size() != block.size() || int64_t(whole.size()) != t.getRank())
    return std::nullopt;
  SmallVector<int64_t> counts, per;
  for (int64_t d = 0; d < t.getRank(); ++d) {
    if (block[d] == 0 || whole[d] % block[d] != 0 ||
        t.getTiles(d) % (whole[d] / block[d]) != 0)
      return std::nullopt;
    counts.push_back(whole[d] / block[d]);
    per.push_back(t.getTiles(d) / counts.back());
  }
  SmallVector<SmallVector<int64_t>> coords;
  for (int64_t p = 0; p < t.getNumPartitions(); ++p) {
    coords.emplace_back();
    for (int64_t d = 0; d < t.getRank(); ++d)
      coords.back().push_back(t.getCoords(p)[d] / per[d]);
  }
  return TileSharding::fromCoords(counts, coords);
}

/// Each partition's coordinates along the axes of the mesh `op` (a
/// shard_map boundary in Shardy's form) is not manual over, as one
/// number: the partitions of one number make the region's local values
/// into one global value (in a shard_map nested in a region manual over
/// other axes, one per group of that region). All 0 where the mesh is not
/// known.
static SmallVector<int64_t> sdyGroups(const SdyShardings &sdy, CustomCallOp op,
                                      int64_t numPartitions) {
  SmallVector<int64_t> groups(numPartitions, 0);
  std::string error;
  FailureOr<SmallVector<std::string>> manual =
      SdyShardings::manualAxes(op.getFrontendAttributesAttr(), error);
  if (failed(manual) || manual->empty())
    return groups;
  for (const auto &entry : sdy.getMeshes()) {
    const SdyMesh &mesh = entry.second;
    if (!llvm::all_of(*manual,
                      [&](const std::string &a) {
                        return llvm::is_contained(mesh.axisNames, a);
                      }) ||
        mesh.getNumDevices() != numPartitions)
      continue;
    for (int64_t p = 0; p < numPartitions; ++p) {
      int64_t at = p;
      if (!mesh.deviceIds.empty())
        at = llvm::find(mesh.deviceIds, p) - mesh.deviceIds.begin();
      int64_t key = 0, stride = 1;
      for (int64_t a = int64_t(mesh.axisSizes.size()) - 1; a >= 0; --a) {
        int64_t coord = at % mesh.axisSizes[a];
        at /= mesh.axisSizes[a];
        if (llvm::is_contained(*manual, mesh.axisNames[a]))
          continue;
        key += coord * stride;
        stride *= mesh.axisSizes[a];
      }
      groups[p] = key;
    }
    break;
  }
  return groups;
}

/// The boundaries of a shard_map in a program not yet partitioned, on each
/// simulated partition: into the region (`SPMDFullToShardShape`,
/// `xla.sdy.GlobalToLocalShape`) each partition takes its tile of the
/// global value, in the operand's sharding; out of it
/// (`SPMDShardToFullShape`, `xla.sdy.LocalToGlobalShape`) the partitions
/// of each replica put their local values together as the tiles of the
/// result's sharding (the first partition holding a tile gives it). In a
/// region manual over some axes the global value is each group's own
/// (the partitions that share the coordinates of the axes the shard_map
/// is not manual over, or the manual subgroup of GSPMD's sharding).
EvalResult eval::evalShardMapBoundary(Interp &interp, CustomCallOp op,
                                      Operands operands) {
  StringRef target = op.getCustomCallTarget();
  bool sdyForm = target == kSdyGlobalToLocal || target == kSdyLocalToGlobal;
  bool toLocal =
      target == "SPMDFullToShardShape" || target == kSdyGlobalToLocal;
  if (!sdyForm && target != "SPMDFullToShardShape" &&
      target != "SPMDShardToFullShape")
    return std::nullopt;
  Type type = op->getResult(0).getType();
  // One device's program: they pass their operand on (Control.cpp).
  if (!sdyForm && operands.size() == 1 && operands[0]->hasType(type))
    return std::nullopt;
  // The global side's types and shardings.
  SmallVector<Type> localTypes;
  auto tuple = dyn_cast<TupleType>(type);
  if (sdyForm && tuple && operands.size() != 1)
    llvm::append_range(localTypes, tuple.getTypes());
  else
    localTypes.push_back(type);
  if (localTypes.size() != operands.size())
    return interp.error(op, "one result per operand expected");
  SmallVector<ShardingAttr> shardings;
  SmallVector<int64_t> groups;
  if (sdyForm) {
    std::string error;
    FailureOr<SdyShardings> sdy =
        SdyShardings::get(op->getParentOfType<ModuleOp>(), error);
    SmallVector<Type> globalTypes;
    for (auto [i, v] : llvm::enumerate(getDataOperands(op)))
      globalTypes.push_back(toLocal ? v.getType() : localTypes[i]);
    FailureOr<SmallVector<ShardingAttr>> s =
        failed(sdy)
            ? FailureOr<SmallVector<ShardingAttr>>(failure())
            : sdy->convert(op.getContext(), op.getFrontendAttributesAttr(),
                           toLocal ? kSdyInShardings : kSdyOutShardings,
                           globalTypes, {}, error);
    if (failed(s) || s->size() != operands.size())
      return interp.error(op, "cannot read the shard_map's shardings: " +
                                  (error.empty() ? "none given" : error));
    shardings = std::move(*s);
    groups = sdyGroups(*sdy, op, interp.shared.options.numPartitions);
  } else {
    shardings.push_back(toLocal ? shardingOf(getDataOperands(op)[0])
                                : op->getAttrOfType<ShardingAttr>("sharding"));
  }
  SmallVector<TileSharding> tiles;
  for (auto [i, s] : llvm::enumerate(shardings)) {
    const Literal &in = *operands[i];
    ArrayRef<int64_t> shape =
        toLocal ? in.getShape()
                : cast<RankedTensorType>(localTypes[i]).getShape();
    if (!in.isArray())
      return interp.error(op, "a shard_map's operands must be arrays");
    SmallVector<int64_t> partlyManual;
    FailureOr<TileSharding> t =
        tileShardingOf(interp, op, s, shape, partlyManual);
    if (failed(t))
      return failure();
    if (!sdyForm)
      groups = partlyManual;
    tiles.push_back(*t);
    // In GSPMD's form the sharding outside a region manual over some axes
    // may also tile the others (hlo-sharding-propagation's), which do not
    // change the local values: each partition's is the block holding its
    // tile.
    if (!sdyForm)
      if (std::optional<TileSharding> b = blocksOf(
              *t, shape,
              toLocal ? cast<RankedTensorType>(localTypes[i]).getShape()
                      : in.getShape()))
        tiles.back() = *b;
  }
  auto pack = [&](std::vector<Literal> results) {
    return results.size() == 1 && !(tuple && sdyForm && operands.size() != 1)
               ? std::move(results[0])
               : Literal::tuple(std::move(results));
  };
  if (toLocal) {
    std::vector<Literal> results;
    for (auto [i, t] : llvm::enumerate(tiles)) {
      const Literal &in = *operands[i];
      SmallVector<int64_t> shape = t.shardShape(in.getShape());
      if (ArrayRef<int64_t>(shape) !=
          cast<RankedTensorType>(localTypes[i]).getShape())
        return interp.error(op, "the local shape is not the tile the "
                                "global value's sharding gives");
      Literal tile = Literal::array(in.getElementType(), shape);
      forTile(t, interp.partition, in.getShape(),
              [&](int64_t at, int64_t from) { tile.copyElement(at, in, from); });
      results.push_back(std::move(tile));
    }
    return pack(std::move(results));
  }
  std::vector<Literal> locals;
  for (const Literal *l : operands)
    locals.push_back(*l);
  int64_t partitions = interp.shared.options.numPartitions;
  return exchange(
      interp, op, Literal::tuple(std::move(locals)),
      [&](Interp &, std::vector<Literal> &inputs,
          std::vector<Literal> &outputs) -> LogicalResult {
        for (size_t d = 0; d < inputs.size(); ++d) {
          int64_t replica = d / partitions;
          std::vector<Literal> wholes;
          for (auto [i, t] : llvm::enumerate(tiles)) {
            auto shape = cast<RankedTensorType>(localTypes[i]).getShape();
            Literal whole = Literal::array(
                inputs[d].getElements()[i].getElementType(), shape);
            // Each tile from the first partition holding it.
            DenseSet<int64_t> seen;
            for (int64_t p = 0; p < partitions; ++p) {
              if (groups[p] != groups[d % partitions])
                continue;
              const Literal &part =
                  inputs[replica * partitions + p].getElements()[i];
              if (part.getShape() != ArrayRef<int64_t>(t.shardShape(shape)))
                return interp.fail(op, "a local value is not the tile "
                                       "its sharding gives");
              int64_t tileId = 0;
              for (auto [c, n] : llvm::zip(t.getCoords(p), t.getTiles()))
                tileId = tileId * n + c;
              if (!seen.insert(tileId).second)
                continue;
              forTile(t, p, shape, [&](int64_t at, int64_t to) {
                whole.copyElement(to, part, at);
              });
            }
            wholes.push_back(std::move(whole));
          }
          outputs[d] = pack(std::move(wholes));
        }
        return success();
      });
}
