//===- HloGraphView.h - HLO modules drawn as graphs -------------*- C++ -*-===//
//
// A module of the hlo dialect as a picture: a Graphviz graph (DOT), the SVG
// Graphviz's `dot` draws from it, or one self-contained HTML page holding
// that SVG with pan, zoom and search (docs/views.md). Instructions are
// nodes named as the HLO text export names them, operands are edges,
// computations are clusters (a fused computation inside its fusion's),
// called computations are linked to their callers.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TRANSLATE_HLOGRAPHVIEW_H
#define HLO_TRANSLATE_HLOGRAPHVIEW_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::hlo {

enum class HloGraphFormat { Dot, Svg, Html };

struct HloGraphViewOptions {
  /// Draw only the neighbourhood of this instruction: its HLO name
  /// (`add.3`), or `computation/name` where names repeat across
  /// computations. Empty: draw the whole module.
  std::string focus;
  /// With `focus`: the instructions at most this many edges (operands,
  /// users, calls) away from it are drawn.
  unsigned radius = 3;
  /// The Graphviz program for SVG and HTML; found on PATH when it has no
  /// `/`.
  std::string dotProgram = "dot";
};

/// Writes `module` as a Graphviz digraph. Fails, with a diagnostic on the
/// module, when `options.focus` names no instruction.
LogicalResult writeHloGraphDot(ModuleOp module, raw_ostream &os,
                               const HloGraphViewOptions &options = {});

/// Writes `module` in `format`: DOT, or the SVG (HTML page) drawn by
/// running Graphviz's `dot` on it. Fails, with a diagnostic on the module,
/// when the focus is unknown or `dot` is missing or fails.
LogicalResult writeHloGraph(ModuleOp module, raw_ostream &os,
                            HloGraphFormat format,
                            const HloGraphViewOptions &options = {});

/// The file name extension of `format`: `dot`, `svg`, `html`.
StringRef getHloGraphExtension(HloGraphFormat format);

} // namespace mlir::hlo

#endif // HLO_TRANSLATE_HLOGRAPHVIEW_H
