//===- Interpreter.h - reference interpreter of the hlo dialect -*- C++ -*-===//
//
// Evaluates a module of the hlo dialect on the CPU, op by op, following the
// HLO semantics (one function per op family, in lib/Runtime/Interpreter).
// It is the oracle that makes passes checkable without a GPU: results are
// computed in a wide form (see Literal.h) and rounded to each op's element
// type.
//
// Errors (unsupported op, custom-call target, wrong argument shapes, ...)
// are returned as failures with a message naming the instruction; the
// interpreter never aborts on a well-formed module.
//
// With several replicas or partitions, each simulated device runs the
// module in its own thread and the devices meet in each collective (every
// device must reach the same collectives in the same order). The threads
// only read the module: they create no types or attributes, so a context
// with threading disabled is fine. A run with one device splits large
// float dots and convolutions over the machine's threads instead (results
// do not depend on the thread count).
//
// Host transfers: infeed reads InterpreterOptions::infeed (or the device's
// deviceInfeed queue) in order, an infeed past its end is an error;
// outfeed values are collected per device into RunOutputs::outfeed (the
// `run` overload that takes one), host-transfer sends into
// RunOutputs::toHost, and host-transfer recvs read
// InterpreterOptions::fromHost by channel; other send/recv pass data
// through a per-device mailbox read at the recv-done (a recv-done needs an
// earlier send on its channel in the same device), and a send with XLA's
// source-target pairs
// (`_xla_send_recv_source_target_pairs`) through the targets' mailboxes,
// every device meeting at the send.
//
// Dynamic dimensions: arrays are held at their bounds; the runtime size of
// a dimension is tracked within a computation: set by set-dimension-size,
// read by get-dimension-size, carried by elementwise ops and computed by
// dynamic-reshape (which reshapes the valid elements). Any other op
// reading a value below its bounds, or a called computation returning
// one, is an error; the entry's root is returned at its bounds.
//
// The newer ops (XLA CPU checks scan; it cannot run the others, and XLA
// documents no semantics for collective-reduce and shuffle, whose meaning
// here is the one their names state): scan(inputs..., inits...)
// with num_carries inits runs to_apply(slices..., carries...) ->
// (output slices..., carries...) along dimensions[0] (from the end when
// is_reverse); collective-reduce gives every group member the fold of the
// group's operands (as all-reduce); shuffle is all-to-all along dimension
// 0; collective-permute's in-place form writes each pair's slice of the
// source's input into the target's output buffer; ragged-all-to-all takes
// k updates per peer (offsets and sizes peer-major). docs/runtime.md has
// the details.
//
// Limits: custom-call runs the identity targets (sharding and memory
// placement annotations) and the library calls docs/runtime.md lists; `rng`
// values are deterministic but not XLA's (rng-bit-generator's are); bitcast
// follows tiled layouts except tiles with a combined (`*`) dimension.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_RUNTIME_INTERPRETER_H
#define HLO_RUNTIME_INTERPRETER_H

#include "Hlo/Runtime/Literal.h"

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mlir::hlo::runtime {

struct InterpreterOptions {
  /// Simulated replicas and partitions for collectives, replica-id and
  /// partition-id; the module runs once per (replica, partition) and
  /// `run` returns the results of replica 0, partition 0.
  int64_t numReplicas = 1;
  int64_t numPartitions = 1;
  /// Seed of rng (deterministic for a given seed); rng-bit-generator is a
  /// function of its state operand only.
  uint64_t seed = 0;
  /// Stop after this many while-loop iterations in total (guards against
  /// non-terminating loops); 0 = no limit.
  int64_t maxWhileIterations = 100000000;
  /// Fail (instead of exhausting memory) when the elements of the values
  /// alive on one simulated device take more than this many bytes
  /// (Literal::getStorageBytes); 0 = no limit; negative (the default) =
  /// three quarters of the machine's physical memory, shared by the
  /// simulated devices.
  int64_t maxLiveBytes = -1;
  /// The infeed queue: each infeed reads the next value (which must have
  /// the infeed's data type); an infeed with the queue exhausted is an
  /// error. Every device reads its own copy of this queue, unless
  /// `deviceInfeed` is non-empty: then device d (flattened id replica *
  /// numPartitions + partition) reads deviceInfeed[d].
  std::vector<Literal> infeed;
  /// When not empty, the arguments of each device (flattened id replica *
  /// numPartitions + partition), in place of those `run` is given (which
  /// must then be empty): a partitioned program's devices hold different
  /// parts of its arrays.
  std::vector<std::vector<Literal>> deviceArguments;
  std::vector<std::vector<Literal>> deviceInfeed;
  /// What the host gives host-transfer recvs (is_host_transfer), by
  /// channel: each device's recv-dones of a channel read its values in
  /// order from the first; one past the end is an error.
  std::map<int64_t, std::vector<Literal>> fromHost;
  /// Runs fusions another way (hlo-run --device=host-kernels: compiled
  /// kernels on the host): called for every fusion instruction with its
  /// operands. A value replaces the evaluation of the fused computation;
  /// std::nullopt leaves the fusion to the interpreter; a failure fails the
  /// run with `error`.
  std::function<std::optional<FailureOr<Literal>>(
      Operation *fusion, ArrayRef<const Literal *> operands,
      std::string &error)>
      fusionExecutor;
};

/// What a run leaves besides its result: the values each device wrote
/// with outfeed, and the (channel, value) it sent to the host with
/// host-transfer sends, in order, indexed by flattened device id (replica *
/// numPartitions + partition).
struct RunOutputs {
  std::vector<std::vector<Literal>> outfeed;
  std::vector<std::vector<std::pair<int64_t, Literal>>> toHost;
  /// Every device's root value (replica-major, as the devices are
  /// numbered), when the run succeeds; `run` returns the first.
  std::vector<Literal> results;
};

/// Default options for `module`: numReplicas and numPartitions from its
/// `hlo.replica_count` and `hlo.num_partitions` header attributes (1 where
/// absent).
InterpreterOptions getModuleOptions(ModuleOp module);

/// The limit on live bytes per simulated device that `options` give:
/// maxLiveBytes, or for a negative maxLiveBytes three quarters of the
/// physical memory divided among the devices; 0 = no limit.
int64_t getLiveBytesLimit(const InterpreterOptions &options);

/// Checks, before any argument is allocated, that the entry computation's
/// parameters fit under the live-bytes limit of `options` (they are live
/// values from the start). Fails with the memory guard's error otherwise:
///   the entry parameters take N bytes: the live values exceed M bytes
///   (InterpreterOptions::maxLiveBytes)
LogicalResult checkArgumentBytes(ModuleOp module,
                                 const InterpreterOptions &options,
                                 std::string &error);

/// Runs the entry computation of `module` on `arguments` (one per entry
/// parameter, types must match the parameters' shapes and element types).
/// Returns the root's value (a tuple literal when the root is a tuple), or
/// an error message.
FailureOr<Literal> run(ModuleOp module, ArrayRef<Literal> arguments,
                       const InterpreterOptions &options, std::string &error);
/// The same, and fills `outputs` (when not null) with the outfeed values of
/// every device; they are filled on failure too, with what the devices
/// wrote before it.
FailureOr<Literal> run(ModuleOp module, ArrayRef<Literal> arguments,
                       const InterpreterOptions &options, std::string &error,
                       RunOutputs *outputs);

/// Random arguments for the entry computation's parameters, deterministic
/// in `seed`: floats uniform in [-1, 1) (rounded to the type), signed
/// integers in [-8, 8], unsigned in [0, 16], pred 0/1. Integer parameters
/// used as indices may still be out of range; the ops clamp as HLO does.
FailureOr<std::vector<Literal>> randomArguments(ModuleOp module, uint64_t seed,
                                                std::string &error);

/// Random values, as randomArguments makes them, for what the host gives
/// `module` besides its arguments: one per infeed (InterpreterOptions::
/// infeed, in the order the module lists them) and one per host-transfer
/// recv of each channel (InterpreterOptions::fromHost), deterministic in
/// `seed` (a stream apart from the arguments').
struct HostValues {
  std::vector<Literal> infeed;
  std::map<int64_t, std::vector<Literal>> fromHost;
};
FailureOr<HostValues> randomHostValues(ModuleOp module, uint64_t seed,
                                       std::string &error);

/// Evaluates single instructions of a module on known operand values, for
/// constant folding: one simulated device (replica 0, partition 0), no
/// infeed. Made once per module; the computations an instruction calls are
/// looked up by name when it is evaluated, so instructions may change
/// between evaluations but no computation may be added, removed or renamed.
/// The caller keeps to instructions whose value does not depend on the
/// device or the run (no replica-id, rng, collective, infeed, ...).
class Evaluator {
public:
  explicit Evaluator(ModuleOp module, const InterpreterOptions &options = {});
  ~Evaluator();
  /// The value of instruction `op` on `operands` (the values of its data
  /// operands, of their types), or failure with a message in `error`.
  FailureOr<Literal> evaluate(Operation *op, ArrayRef<const Literal *> operands,
                              std::string &error);

private:
  struct State;
  std::unique_ptr<State> state;
};

} // namespace mlir::hlo::runtime

#endif // HLO_RUNTIME_INTERPRETER_H
