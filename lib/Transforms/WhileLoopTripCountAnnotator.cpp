//===- WhileLoopTripCountAnnotator.cpp - known trip counts ----------------===//
//
// XLA's WhileLoopTripCountAnnotator: every while loop whose trip count the
// while-loop analysis finds (WhileLoopAnalysis.h: a counted loop by
// arithmetic, else by brute force) gets it in its backend config, as XLA
// writes it: `known_trip_count`, and for a counted loop also the
// induction variable's init and step (`known_init_step`) and its tuple
// index (`known_induction_variable`), with `dynamic_variables` empty.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/Passes.h"
#include "TransformUtils.h"
#include "WhileLoopAnalysis.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOWHILELOOPTRIPCOUNTANNOTATOR
#include "Hlo/Transforms/Passes.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

/// `config` (a root message, or none) with the loop's trip count members
/// set, the others kept in place.
static BackendConfigAttr annotate(MLIRContext *ctx, BackendConfigAttr config,
                                  int64_t trips,
                                  std::optional<CountedLoop> counted) {
  Builder b(ctx);
  auto text = [&](const std::string &s) { return TextAttr::get(ctx, s); };
  auto quoted = [](int64_t v) { return "\"" + std::to_string(v) + "\""; };
  SmallVector<NamedAttribute> members = {
      b.getNamedAttr("known_trip_count",
                     BackendConfigAttr::get(
                         ctx, BackendConfigMessage::KnownTripCount,
                         {b.getNamedAttr("n", b.getI64IntegerAttr(trips))}))};
  if (counted) {
    members.push_back(b.getNamedAttr(
        "known_init_step", text("{\"init\":" + quoted(counted->init) +
                                ",\"step\":" + quoted(counted->step) + "}")));
    members.push_back(b.getNamedAttr(
        "known_induction_variable",
        text("{\"tuple_index\":" + quoted(counted->index) + "}")));
  }
  members.push_back(b.getNamedAttr("dynamic_variables", text("[]")));
  if (!config)
    return BackendConfigAttr::get(ctx, BackendConfigMessage::Root, members);
  for (NamedAttribute member : members)
    config = config.withMember(member.getName(), member.getValue());
  return config;
}

namespace {
struct WhileLoopTripCountAnnotatorPass
    : ChangeReportingPass<WhileLoopTripCountAnnotatorPass,
                          hlo::impl::HloWhileLoopTripCountAnnotatorBase> {
  using ChangeReportingPass::ChangeReportingPass;

  void run() {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    std::optional<runtime::Evaluator> evaluator;
    module.walk([&](WhileOp op) {
      auto config = readBackendConfig(op->getAttr("backend_config"));
      if (op->hasAttr("backend_config") &&
          (!config || config.getMessage() != BackendConfigMessage::Root ||
           config.getKnownTripCount()))
        return;
      Loop loop{op, symbols.lookup<ComputationOp>(op.getCondition()),
                symbols.lookup<ComputationOp>(op.getBody())};
      if (!loop.cond || !loop.body || hasControlPredecessors(op))
        return;
      std::optional<CountedLoop> counted = matchCountedLoop(loop);
      std::optional<int64_t> trips;
      if (counted) {
        trips = counted->trips;
      } else {
        if (!evaluator)
          evaluator.emplace(module);
        trips = bruteForceTripCount(loop, *evaluator, maxBruteForceIterations);
      }
      if (!trips)
        return;
      op->setAttr("backend_config",
                  annotate(&getContext(), config, *trips, counted));
      ++numAnnotated;
      changed = true;
    });
  }
};
} // namespace
