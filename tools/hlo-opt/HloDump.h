//===- HloDump.h - XLA-style dumps of a pass pipeline -----------*- C++ -*-===//
//
// hlo-opt --hlo-dump-to=DIR [--hlo-dump-pass-re=REGEX], like XLA's
// --xla_dump_to and --xla_dump_hlo_pass_re: the module as HLO text before
// the pipeline and after every pass that changed it; with --hlo-dump-as
// (XLA's --xla_dump_hlo_as_dot/_html) a picture of it too.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TOOLS_HLODUMP_H
#define HLO_TOOLS_HLODUMP_H

#include "Hlo/Translate/HloGraphView.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <string>

namespace mlir::hlo {

struct HloDumpOptions {
  /// The folder the files go to (created if missing).
  std::string directory;
  /// Only passes whose argument (`hlo-dce`) matches this regular expression
  /// are dumped; empty: every pass.
  std::string passRegex;
  /// Pictures written beside each text dump (`<stem>.dot`, `.svg`,
  /// `.html`), drawn with `viewOptions`.
  SmallVector<HloGraphFormat> views;
  HloGraphViewOptions viewOptions;
};

/// Writes `<module>.0000.before_pipeline.hlo` for `module` now and adds to
/// `pm` an instrumentation that writes `<module>.<NNNN>.after_<pass>.hlo`
/// after each pass (NNNN: its position in the run, from 1) that changed the
/// module. A module that HLO text cannot hold is written as `.mlir`. Each
/// format of `options.views` adds a picture of the module beside the text.
/// Fails, with a diagnostic on `module`, if the folder cannot be made or
/// the regular expression is invalid.
LogicalResult addHloDump(PassManager &pm, ModuleOp module,
                         const HloDumpOptions &options);

} // namespace mlir::hlo

#endif // HLO_TOOLS_HLODUMP_H
