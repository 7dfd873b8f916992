//===- HloGraphView.cpp - HLO modules drawn as graphs ---------------------===//
//
// Writes a Graphviz digraph of an hlo module: one cluster per computation
// (a fused computation nested in its fusion's cluster), one node per
// instruction and parameter, one edge per operand, dotted edges for control
// predecessors and dashed edges from a caller to the computations it calls.
// SVG comes from running Graphviz's `dot` on it; the HTML page wraps that
// SVG with a few lines of script for pan, zoom and search. Everything is
// linear in the size of the module (or of the focus region).
//
//===----------------------------------------------------------------------===//

#include "Hlo/Translate/HloGraphView.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Translate/HloText.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <deque>

using namespace mlir;
using namespace mlir::hlo;

//===----------------------------------------------------------------------===//
// Text helpers
//===----------------------------------------------------------------------===//

/// `text` cut to at most `limit` bytes (not inside a UTF-8 sequence), with
/// `...` when it was cut.
static std::string truncated(StringRef text, size_t limit) {
  if (text.size() <= limit)
    return text.str();
  size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
    --end;
  return (text.take_front(end) + "...").str();
}

/// `text` as the inside of a DOT double-quoted string.
static void printEscaped(raw_ostream &os, StringRef text) {
  for (char c : text) {
    if (c == '"' || c == '\\')
      os << '\\' << c;
    else if (c == '\n')
      os << "\\n";
    else if (c != '\r')
      os << c;
  }
}

/// Lines joined by DOT's `\n` (centered lines), each escaped.
static void printLines(raw_ostream &os, ArrayRef<std::string> lines) {
  llvm::interleave(
      lines, os, [&](const std::string &line) { printEscaped(os, line); },
      "\\n");
}

/// `text` as the inside of an HTML element.
static void printHtmlEscaped(raw_ostream &os, StringRef text) {
  for (char c : text) {
    switch (c) {
    case '<':
      os << "&lt;";
      break;
    case '>':
      os << "&gt;";
      break;
    case '&':
      os << "&amp;";
      break;
    case '"':
      os << "&quot;";
      break;
    default:
      os << c;
    }
  }
}

//===----------------------------------------------------------------------===//
// Colours
//===----------------------------------------------------------------------===//

namespace {
/// The class (in the SVG) and fill colour of a node.
struct NodeStyle {
  StringRef kind;
  StringRef fill;
};
} // namespace

static const NodeStyle kParameterStyle = {"parameter", "#ffffcc"};
static const NodeStyle kPlainStyle = {"plain", "#ffffff"};

/// The start of the async chain an update or done belongs to.
static AsyncStartOp chainStartOf(Operation *op) {
  while (op) {
    if (auto start = dyn_cast<AsyncStartOp>(op))
      return start;
    if (!isa<AsyncUpdateOp, AsyncDoneOp>(op))
      return {};
    op = op->getOperand(0).getDefiningOp();
  }
  return {};
}

/// The style of a collective or library call `op`, if it is one.
static std::optional<NodeStyle> libraryOrCollectiveStyle(Operation *op) {
  if (auto call = dyn_cast<CustomCallOp>(op)) {
    StringRef target = call.getCustomCallTarget();
    if (target.starts_with("__cublas"))
      return NodeStyle{"cublas", "#f4a6a6"};
    if (target.starts_with("__cudnn"))
      return NodeStyle{"cudnn", "#d5a6f4"};
    return NodeStyle{"custom-call", "#fdd9b5"};
  }
  if (isa<AllReduceOp, AllReduceStartOp, AllReduceDoneOp>(op))
    return NodeStyle{"all-reduce", "#9fc5e8"};
  if (isa<AllGatherOp, AllGatherStartOp, AllGatherDoneOp>(op))
    return NodeStyle{"all-gather", "#a2d9ce"};
  if (isa<ReduceScatterOp>(op))
    return NodeStyle{"reduce-scatter", "#c5e1a5"};
  if (isa<AllToAllOp, RaggedAllToAllOp>(op))
    return NodeStyle{"all-to-all", "#f7c6e0"};
  if (isa<CollectivePermuteOp, CollectivePermuteStartOp,
          CollectivePermuteDoneOp>(op))
    return NodeStyle{"collective-permute", "#ffe082"};
  if (isa<CollectiveBroadcastOp, CollectiveReduceOp, ShuffleOp>(op))
    return NodeStyle{"collective", "#b0bec5"};
  if (isa<SendOp, SendDoneOp, RecvOp, RecvDoneOp>(op))
    return NodeStyle{"send-recv", "#d7ccc8"};
  return std::nullopt;
}

/// The one instruction an async-start runs, if its computation has one.
static Operation *wrappedInstruction(AsyncStartOp start, SymbolTable &symbols) {
  auto callee = symbols.lookup<ComputationOp>(start.getCallsAttr().getValue());
  if (!callee || callee.getBody().empty())
    return nullptr;
  Block &body = callee.getBody().front();
  if (!llvm::hasSingleElement(body.without_terminator()))
    return nullptr;
  return &body.front();
}

static NodeStyle styleOf(Operation *op, SymbolTable &symbols) {
  if (isa<ConstantOp>(op))
    return {"constant", "#f0f0f0"};
  if (auto fusion = dyn_cast<FusionOp>(op)) {
    switch (fusion.getKind()) {
    case FusionKind::kLoop:
      return {"fusion", "#dae8fc"};
    case FusionKind::kInput:
      return {"fusion", "#d9ead3"};
    case FusionKind::kOutput:
      return {"fusion", "#e8dff5"};
    default:
      return {"fusion", "#ffe6cc"};
    }
  }
  if (std::optional<NodeStyle> style = libraryOrCollectiveStyle(op))
    return *style;
  // Async chains take the kind of the instruction they wrap.
  if (AsyncStartOp start = chainStartOf(op))
    if (Operation *wrapped = wrappedInstruction(start, symbols))
      if (std::optional<NodeStyle> style = libraryOrCollectiveStyle(wrapped))
        return *style;
  if (isa<WhileOp, ConditionalOp, CallOp>(op))
    return {"control-flow", "#e0e0e0"};
  return kPlainStyle;
}

//===----------------------------------------------------------------------===//
// The graph
//===----------------------------------------------------------------------===//

namespace {
/// A computation called by an instruction, and the attribute naming it.
struct Call {
  std::string role;
  ComputationOp callee;
};

class GraphWriter {
public:
  GraphWriter(ModuleOp module, raw_ostream &os,
              const HloGraphViewOptions &options)
      : module(module), os(os), options(options), printer(module),
        symbols(module) {}

  LogicalResult run();

private:
  void collectCalls();
  LogicalResult selectFocus();
  void forEachNeighbour(Value value, function_ref<void(Value)> fn);
  bool isDrawn(Value value) const { return all || drawn.contains(value); }
  ComputationOp computationOf(Value value) const;
  /// The fusion whose cluster holds `comp`, if it is drawn so.
  FusionOp enclosingFusion(ComputationOp comp) const;
  bool hasDrawnValues(ComputationOp comp) const {
    return all || drawnComputations.contains(comp);
  }
  StringRef nodeId(Value value);
  void writeCluster(ComputationOp comp, FusionOp fusion, unsigned depth);
  void writeNode(Value value, unsigned depth);
  void writeEdges();
  void writeEdge(Value from, Value to, StringRef cls,
                 ArrayRef<std::pair<StringRef, std::string>> attrs);

  ModuleOp module;
  raw_ostream &os;
  const HloGraphViewOptions &options;
  HloInstructionPrinter printer;
  SymbolTable symbols;
  /// The printed computations, in module order.
  SmallVector<ComputationOp> computations;
  DenseMap<Operation *, SmallVector<Call, 1>> calls;
  DenseMap<Operation *, SmallVector<Operation *, 1>> callers;
  /// Fused computations: the fusion that is their only caller.
  DenseMap<Operation *, FusionOp> fusionOf;
  /// Focus mode: what is drawn, and the computations holding the centers.
  bool all = true;
  DenseSet<Value> drawn, centers;
  DenseSet<Operation *> drawnComputations, centerComputations;
  DenseMap<Value, std::string> ids;
  DenseMap<Operation *, std::string> clusterIds;
  unsigned edgeCount = 0;
};
} // namespace

/// The values a computation draws as nodes: parameters, then instructions.
static void forEachValue(ComputationOp comp, function_ref<void(Value)> fn) {
  if (comp.getBody().empty())
    return;
  Block &body = comp.getBody().front();
  for (BlockArgument arg : body.getArguments())
    fn(arg);
  for (Operation &op : body.without_terminator())
    if (op.getNumResults() == 1)
      fn(op.getResult(0));
}

static Value rootOf(ComputationOp comp) {
  if (comp.getBody().empty())
    return {};
  return comp.getRootValue();
}

ComputationOp GraphWriter::computationOf(Value value) const {
  Region *region = value.getParentRegion();
  return region ? dyn_cast<ComputationOp>(region->getParentOp())
                : ComputationOp();
}

FusionOp GraphWriter::enclosingFusion(ComputationOp comp) const {
  FusionOp fusion = fusionOf.lookup(comp);
  if (!fusion || !isDrawn(fusion.getResult()) || !hasDrawnValues(comp))
    return {};
  return fusion;
}

void GraphWriter::collectCalls() {
  for (auto comp : module.getOps<ComputationOp>())
    if (printer.isPrinted(comp.getSymName()))
      computations.push_back(comp);
  for (ComputationOp comp : computations) {
    comp.walk([&](Operation *op) {
      std::optional<RegisteredOperationName> info = op->getRegisteredInfo();
      if (!info || isa<ComputationOp>(op))
        return;
      auto add = [&](std::string role, FlatSymbolRefAttr sym) {
        auto callee = symbols.lookup<ComputationOp>(sym.getValue());
        if (!callee || !printer.isPrinted(callee.getSymName()))
          return;
        calls[op].push_back({std::move(role), callee});
        callers[callee].push_back(op);
      };
      for (StringAttr key : info->getAttributeNames()) {
        std::optional<Attribute> value = op->getInherentAttr(key);
        if (!value || !*value)
          continue;
        if (auto sym = dyn_cast<FlatSymbolRefAttr>(*value)) {
          add(key.str(), sym);
        } else if (auto list = dyn_cast<ArrayAttr>(*value)) {
          for (auto [i, element] : llvm::enumerate(list))
            if (auto sym = dyn_cast<FlatSymbolRefAttr>(element))
              add((key.getValue() + "[" + Twine(i) + "]").str(), sym);
        }
      }
    });
  }
  for (auto &[comp, ops] : callers)
    if (ops.size() == 1)
      if (auto fusion = dyn_cast<FusionOp>(ops.front());
          fusion && fusion.getCalls() == cast<ComputationOp>(comp).getSymName())
        fusionOf[comp] = fusion;
}

void GraphWriter::forEachNeighbour(Value value, function_ref<void(Value)> fn) {
  auto visitOp = [&](Operation *op) {
    if (op->getNumResults() == 1)
      fn(op->getResult(0));
  };
  // Going from a computation up to its callers: only where that does not
  // fan out to every user of a shared computation (a reducer), unless the
  // focus lies inside it.
  auto callersOf = [&](ComputationOp comp) -> ArrayRef<Operation *> {
    auto it = callers.find(comp);
    if (it == callers.end() ||
        (it->second.size() > 1 && !centerComputations.contains(comp)))
      return {};
    return it->second;
  };
  if (Operation *def = value.getDefiningOp()) {
    for (Value operand : def->getOperands())
      fn(operand);
    for (const Call &call : calls.lookup(def)) {
      forEachValue(call.callee, [&](Value v) {
        if (isa<BlockArgument>(v))
          fn(v);
      });
      if (Value root = rootOf(call.callee))
        fn(root);
    }
  } else if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (ComputationOp comp = computationOf(arg))
      for (Operation *caller : callersOf(comp)) {
        visitOp(caller);
        if (fusionOf.lookup(comp) &&
            arg.getArgNumber() < caller->getNumOperands())
          fn(caller->getOperand(arg.getArgNumber()));
      }
  }
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (isa<ReturnOp>(user)) {
      if (ComputationOp comp = computationOf(value))
        for (Operation *caller : callersOf(comp))
          visitOp(caller);
      continue;
    }
    visitOp(user);
    if (auto fusion = dyn_cast<FusionOp>(user))
      for (Call call : calls.lookup(fusion))
        if (fusionOf.lookup(call.callee) == fusion &&
            !call.callee.getBody().empty() &&
            use.getOperandNumber() < call.callee.getNumArguments())
          fn(call.callee.getArgument(use.getOperandNumber()));
  }
}

LogicalResult GraphWriter::selectFocus() {
  StringRef focus = options.focus;
  auto [compName, name] = focus.rsplit('/');
  if (name.empty())
    std::swap(compName, name);
  for (ComputationOp comp : computations) {
    if (!compName.empty() &&
        printer.getComputationName(comp.getSymName()) != compName)
      continue;
    forEachValue(comp, [&](Value v) {
      if (printer.getName(v) == name) {
        centers.insert(v);
        centerComputations.insert(comp);
      }
    });
  }
  if (centers.empty())
    return emitError(module.getLoc(), "no instruction named '")
           << focus << "' to focus on";
  all = false;
  // Breadth first from the centers, `radius` steps.
  std::deque<std::pair<Value, unsigned>> queue;
  for (ComputationOp comp : computations)
    forEachValue(comp, [&](Value v) {
      if (centers.contains(v)) {
        drawn.insert(v);
        queue.push_back({v, 0});
      }
    });
  while (!queue.empty()) {
    auto [value, distance] = queue.front();
    queue.pop_front();
    if (distance == options.radius)
      continue;
    forEachNeighbour(value, [&](Value next) {
      if (computationOf(next) && drawn.insert(next).second)
        queue.push_back({next, distance + 1});
    });
  }
  for (Value v : drawn)
    drawnComputations.insert(computationOf(v));
  return success();
}

StringRef GraphWriter::nodeId(Value value) {
  std::string &id = ids[value];
  if (id.empty())
    id = "n" + std::to_string(ids.size());
  return id;
}

void GraphWriter::writeNode(Value value, unsigned depth) {
  std::string indent(2 * depth, ' ');
  ComputationOp comp = computationOf(value);
  StringRef name = printer.getName(value);
  bool isRoot = rootOf(comp) == value;
  auto arg = dyn_cast<BlockArgument>(value);
  Operation *op = value.getDefiningOp();

  NodeStyle style = arg ? kParameterStyle : styleOf(op, symbols);
  std::string opcode = arg ? "parameter " + std::to_string(arg.getArgNumber())
                           : printer.getOpcode(op);
  SmallVector<std::pair<std::string, std::string>> attrs =
      arg ? printer.getAttributes(arg) : printer.getAttributes(op);
  std::string baseOpcode = opcode;

  // The second line: the opcode and what tells instructions of that opcode
  // apart.
  if (auto fusion = dyn_cast_or_null<FusionOp>(op)) {
    opcode += " " + stringifyFusionKind(fusion.getKind()).str();
    if (auto config =
            dyn_cast_or_null<BackendConfigAttr>(fusion.getBackendConfigAttr()))
      if (std::optional<StringRef> kind = config.getFusionKind())
        opcode += " " + kind->str();
  } else if (auto call = dyn_cast_or_null<CustomCallOp>(op)) {
    opcode += " " + call.getCustomCallTarget().str();
  } else if (auto constant = dyn_cast_or_null<ConstantOp>(op)) {
    auto elements = dyn_cast<ElementsAttr>(constant.getValueAttr());
    if (elements && elements.getNumElements() <= 8) {
      std::string literal;
      llvm::raw_string_ostream ls(literal);
      HloInstructionPrinter::printLiteral(ls, constant.getValueAttr(),
                                          constant.getType());
      opcode += " " + truncated(literal, 40);
    }
  }
  std::string shape;
  {
    llvm::raw_string_ostream ss(shape);
    printHloShape(ss, value.getType());
  }

  SmallVector<std::string> label;
  label.push_back((isRoot ? "ROOT " : "") + name.str());
  label.push_back(opcode);
  label.push_back(truncated(shape, 80));
  // The attributes that matter for reading the graph; the tooltip has all.
  static constexpr StringLiteral kNotInLabel[] = {
      "backend_config",
      "custom_call_target",
      "kind",
      "frontend_attributes",
      "statistics",
      "origin",
      "result_accuracy",
      "output_to_operand_aliasing",
      "operand_layout_constraints",
      "api_version",
      "schedule",
      "custom_call_has_side_effect"};
  unsigned shown = 0, hidden = 0;
  for (auto &[key, text] : attrs) {
    if (llvm::is_contained(kNotInLabel, key))
      continue;
    if (shown == 4) {
      ++hidden;
      continue;
    }
    label.push_back(truncated(key + "=" + text, 48));
    ++shown;
  }
  if (hidden)
    label.push_back("(+" + std::to_string(hidden) + " more)");

  // Focus mode: say what is not drawn around the node.
  bool boundary = false;
  if (!all) {
    unsigned operands = 0, users = 0;
    if (op)
      for (Value operand : getDataOperands(op))
        operands += !isDrawn(operand);
    for (Operation *user : value.getUsers())
      users += !isa<ReturnOp>(user) && user->getNumResults() == 1 &&
               !isDrawn(user->getResult(0));
    if (operands || users) {
      boundary = true;
      std::string line = "not drawn:";
      if (operands)
        line += " " + std::to_string(operands) + " operand" +
                (operands == 1 ? "" : "s");
      if (users)
        line += " " + std::to_string(users) + " user" + (users == 1 ? "" : "s");
      label.push_back(line);
    }
  }

  SmallVector<std::string> tooltip;
  tooltip.push_back(name.str() + " = " + truncated(shape, 200) + " " +
                    baseOpcode);
  for (auto &[key, text] : attrs)
    tooltip.push_back(truncated(key + "=" + text, 200));
  if (DictionaryAttr md = HloInstructionPrinter::getMetadata(
          arg ? arg.getLoc() : op->getLoc())) {
    for (StringRef key : {"op_type", "op_name"})
      if (auto s = md.getAs<StringAttr>(key))
        tooltip.push_back(key.str() + ": " + truncated(s.getValue(), 300));
    if (auto file = md.getAs<StringAttr>("source_file")) {
      std::string where = file.getValue().str();
      if (auto line = md.getAs<IntegerAttr>("source_line"))
        where += ":" + std::to_string(line.getInt());
      tooltip.push_back("source: " + truncated(where, 300));
    }
  }

  os << indent << nodeId(value) << " [id=\"";
  printEscaped(os, printer.getComputationName(comp.getSymName()));
  os << '/';
  printEscaped(os, name);
  os << "\", class=\"instr " << style.kind;
  if (isRoot)
    os << " root";
  if (centers.contains(value))
    os << " focus";
  os << "\", label=\"";
  printLines(os, label);
  os << "\", tooltip=\"";
  printLines(os, tooltip);
  os << "\", fillcolor=\"" << style.fill << '"';
  if (arg)
    os << ", shape=ellipse";
  StringRef lines = boundary ? "dashed" : "solid";
  os << ", style=\"filled,rounded," << lines << '"';
  if (centers.contains(value))
    os << ", color=\"#d00000\", penwidth=3";
  else if (isRoot)
    os << ", penwidth=2.5";
  os << "];\n";
}

void GraphWriter::writeCluster(ComputationOp comp, FusionOp fusion,
                               unsigned depth) {
  std::string indent(2 * depth, ' ');
  std::string &id = clusterIds[comp];
  id = "cluster_" + std::to_string(clusterIds.size());
  StringRef compName = printer.getComputationName(comp.getSymName());
  os << indent << "subgraph " << id << " {\n";
  os << indent << "  id=\"computation:";
  printEscaped(os, compName);
  os << "\"; class=\"" << (fusion ? "fused-computation" : "computation")
     << "\";\n";
  std::string label = compName.str();
  if (comp.getEntry())
    label = "ENTRY " + label;
  if (fusion) {
    label = printer.getName(fusion.getResult()).str() + " (" +
            stringifyFusionKind(fusion.getKind()).str() + "): " + label;
    os << indent << "  style=\"filled,rounded\"; fillcolor=\""
       << styleOf(fusion, symbols).fill << "80\"; color=\"#7f7f7f\";\n";
  } else {
    os << indent << "  style=rounded; color=\"#7f7f7f\";\n";
  }
  os << indent << "  label=\"";
  printEscaped(os, label);
  os << "\";\n";
  forEachValue(comp, [&](Value value) {
    if (!isDrawn(value))
      return;
    if (auto inner = dyn_cast_or_null<FusionOp>(value.getDefiningOp()))
      for (const Call &call : calls.lookup(inner))
        if (enclosingFusion(call.callee) == inner) {
          writeCluster(call.callee, inner, depth + 1);
          return;
        }
    writeNode(value, depth + 1);
  });
  if (fusion)
    writeNode(fusion.getResult(), depth + 1);
  os << indent << "}\n";
}

void GraphWriter::writeEdge(Value from, Value to, StringRef cls,
                            ArrayRef<std::pair<StringRef, std::string>> attrs) {
  os << "  " << nodeId(from) << " -> " << nodeId(to) << " [id=\"e"
     << ++edgeCount << "\", class=\"" << cls << '"';
  for (auto &[key, value] : attrs) {
    os << ", " << key << "=\"";
    printEscaped(os, value);
    os << '"';
  }
  os << "];\n";
}

void GraphWriter::writeEdges() {
  for (ComputationOp comp : computations) {
    if (!hasDrawnValues(comp) || comp.getBody().empty())
      continue;
    for (Operation &op : comp.getBody().front().without_terminator()) {
      if (op.getNumResults() != 1 || !isDrawn(op.getResult(0)))
        continue;
      Value result = op.getResult(0);
      // A fusion drawn around its computation: operand i goes to
      // parameter i, and the computation's ROOT to the fusion.
      ComputationOp fused;
      if (auto fusion = dyn_cast<FusionOp>(op))
        for (const Call &call : calls.lookup(fusion))
          if (enclosingFusion(call.callee) == fusion)
            fused = call.callee;
      for (auto [i, operand] : llvm::enumerate(getDataOperands(&op))) {
        if (!isDrawn(operand) || !computationOf(operand))
          continue;
        Value to = result;
        if (fused && i < fused.getNumArguments() &&
            isDrawn(fused.getArgument(i)))
          to = fused.getArgument(i);
        SmallVector<std::pair<StringRef, std::string>> attrs;
        if (auto gte = dyn_cast<GetTupleElementOp>(op))
          attrs.push_back({"label", std::to_string(gte.getIndex())});
        writeEdge(operand, to, "operand", attrs);
      }
      if (auto inst = dyn_cast<InstructionOpInterface>(op))
        for (Value pred : inst.getControlPredecessors())
          if (isDrawn(pred) && computationOf(pred))
            writeEdge(pred, result, "control",
                      {{"style", "dotted"}, {"color", "#808080"}});
      if (fused) {
        if (Value root = rootOf(fused); root && isDrawn(root))
          writeEdge(root, result, "fused-root", {{"style", "bold"}});
        continue;
      }
      for (const Call &call : calls.lookup(&op)) {
        if (!hasDrawnValues(call.callee))
          continue;
        Value target = rootOf(call.callee);
        if (!target || !isDrawn(target))
          forEachValue(call.callee, [&](Value v) {
            if (!target || !isDrawn(target))
              target = isDrawn(v) ? v : target;
          });
        if (!target || !isDrawn(target))
          continue;
        // No `lhead` clipping and no `constraint=false`: Graphviz's dot
        // lays out large graphs with those unreliably.
        writeEdge(result, target, "call",
                  {{"label", call.role},
                   {"style", "dashed"},
                   {"color", "#4a6fa5"},
                   {"fontcolor", "#4a6fa5"}});
      }
    }
  }
}

LogicalResult GraphWriter::run() {
  collectCalls();
  if (!options.focus.empty() && failed(selectFocus()))
    return failure();
  std::string moduleName = module.getSymName().value_or("module").str();
  os << "digraph \"";
  printEscaped(os, moduleName);
  os << "\" {\n";
  os << "  graph [rankdir=TB, fontname=\"Helvetica\", "
        "fontsize=12, labelloc=t, label=\"HloModule ";
  printEscaped(os, moduleName);
  if (!all) {
    os << " (around ";
    printEscaped(os, options.focus);
    os << ", radius " << options.radius << ")";
  }
  os << "\"];\n";
  os << "  node [shape=box, style=\"filled,rounded\", fillcolor=white, "
        "fontname=\"Helvetica\", fontsize=10];\n";
  os << "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  for (ComputationOp comp : computations)
    if (hasDrawnValues(comp) && !enclosingFusion(comp))
      writeCluster(comp, {}, 1);
  writeEdges();
  os << "}\n";
  return success();
}

//===----------------------------------------------------------------------===//
// SVG and HTML
//===----------------------------------------------------------------------===//

/// Runs Graphviz on `dot` and returns the SVG.
static FailureOr<std::string> renderSvg(ModuleOp module, StringRef dot,
                                        StringRef program) {
  std::string path;
  if (program.contains('/')) {
    path = program.str();
  } else if (llvm::ErrorOr<std::string> found =
                 llvm::sys::findProgramByName(program)) {
    path = *found;
  }
  if (path.empty() || !llvm::sys::fs::can_execute(path))
    return emitError(module.getLoc(), "cannot draw SVG: Graphviz's '")
           << program
           << "' was not found on PATH (install Graphviz: the Debian "
              "package 'graphviz')";

  SmallString<128> input, output, errors;
  for (auto [file, suffix] :
       {std::pair{&input, "dot"}, std::pair{&output, "svg"},
        std::pair{&errors, "txt"}})
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("hlo-view", suffix, *file))
      return emitError(module.getLoc(), "cannot create a temporary file: ")
             << ec.message();
  llvm::FileRemover removeInput(input), removeOutput(output),
      removeErrors(errors);
  {
    std::error_code ec;
    llvm::raw_fd_ostream file(input, ec);
    if (ec)
      return emitError(module.getLoc(), "cannot write '")
             << input << "': " << ec.message();
    file << dot;
  }
  SmallVector<StringRef> args = {path, "-Tsvg", input, "-o", output};
  std::optional<StringRef> redirects[] = {std::nullopt, std::nullopt,
                                          StringRef(errors)};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(path, args, std::nullopt, redirects,
                                         /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &message);
  if (status != 0) {
    std::string stderrText;
    if (auto buffer = llvm::MemoryBuffer::getFile(errors))
      stderrText = (*buffer)->getBuffer().trim().str();
    return emitError(module.getLoc(), "Graphviz '")
           << path << "' failed" << (message.empty() ? "" : ": " + message)
           << (stderrText.empty() ? "" : ": " + truncated(stderrText, 500));
  }
  auto buffer = llvm::MemoryBuffer::getFile(output);
  if (!buffer)
    return emitError(module.getLoc(), "cannot read the SVG Graphviz wrote: ")
           << buffer.getError().message();
  return (*buffer)->getBuffer().str();
}

/// The page's script: pan (drag), zoom (wheel, +/-, 0), and search by
/// instruction name (the box, or `#search=NAME` in the URL).
static constexpr StringLiteral kScript = R"js(
(function () {
  var svg = document.querySelector('#view svg');
  var box = document.getElementById('search');
  var status = document.getElementById('status');
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  var vb = svg.viewBox.baseVal;
  var home = [vb.x, vb.y, vb.width, vb.height];
  function set(x, y, w, h) { vb.x = x; vb.y = y; vb.width = w; vb.height = h; }
  function toSvg(cx, cy) {
    var p = svg.createSVGPoint(); p.x = cx; p.y = cy;
    return p.matrixTransform(svg.getScreenCTM().inverse());
  }
  function zoom(f, cx, cy) {
    var p = toSvg(cx, cy);
    set(p.x - (p.x - vb.x) * f, p.y - (p.y - vb.y) * f, vb.width * f, vb.height * f);
  }
  svg.addEventListener('wheel', function (e) {
    e.preventDefault(); zoom(e.deltaY > 0 ? 1.25 : 0.8, e.clientX, e.clientY);
  }, {passive: false});
  var drag = null;
  svg.addEventListener('mousedown', function (e) { drag = toSvg(e.clientX, e.clientY); });
  window.addEventListener('mouseup', function () { drag = null; });
  window.addEventListener('mousemove', function (e) {
    if (!drag) return;
    var p = toSvg(e.clientX, e.clientY);
    set(vb.x - (p.x - drag.x), vb.y - (p.y - drag.y), vb.width, vb.height);
  });
  window.addEventListener('keydown', function (e) {
    if (e.target === box) return;
    var r = svg.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    if (e.key === '+' || e.key === '=') zoom(0.8, cx, cy);
    else if (e.key === '-') zoom(1.25, cx, cy);
    else if (e.key === '0') set(home[0], home[1], home[2], home[3]);
  });
  var nodes = Array.prototype.slice.call(svg.querySelectorAll('g.node'));
  function nameOf(g) { return g.id.slice(g.id.lastIndexOf('/') + 1); }
  function search(query) {
    nodes.forEach(function (g) { g.classList.remove('match'); });
    if (!query) { status.textContent = ''; return; }
    var hits = nodes.filter(function (g) {
      return nameOf(g) === query || g.id === query;
    });
    if (!hits.length)
      hits = nodes.filter(function (g) { return nameOf(g).indexOf(query) >= 0; });
    hits.forEach(function (g) { g.classList.add('match'); });
    status.textContent = hits.length + (hits.length === 1 ? ' match' : ' matches') +
        (hits.length ? ': ' + hits.slice(0, 5).map(function (g) { return g.id; }).join(', ') : '');
    if (!hits.length) return;
    var r = hits[0].getBoundingClientRect();
    var a = toSvg(r.left, r.top), b = toSvg(r.right, r.bottom);
    var w = Math.max((b.x - a.x) * 6, Math.min(home[2], 800));
    var h = w * vb.height / vb.width;
    set((a.x + b.x) / 2 - w / 2, (a.y + b.y) / 2 - h / 2, w, h);
  }
  function fromHash() {
    var m = /(?:^#|&)search=([^&]*)/.exec(location.hash);
    if (m) { box.value = decodeURIComponent(m[1]); search(box.value); }
  }
  box.addEventListener('keydown', function (e) { if (e.key === 'Enter') search(box.value.trim()); });
  window.addEventListener('hashchange', fromHash);
  fromHash();
  document.body.setAttribute('data-ready', '1');
})();
)js";

static void writeHtml(raw_ostream &os, StringRef title, StringRef svg) {
  // The SVG element itself, without the XML prolog and doctype.
  size_t start = svg.find("<svg");
  if (start != StringRef::npos)
    svg = svg.drop_front(start);
  os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>";
  printHtmlEscaped(os, title);
  os << R"(</title>
<style>
html, body { margin: 0; height: 100%; font-family: Helvetica, Arial, sans-serif; }
#bar { position: fixed; top: 0; left: 0; right: 0; padding: 6px; background: #f4f4f4;
       border-bottom: 1px solid #ccc; font-size: 13px; z-index: 1;
       white-space: nowrap; overflow: hidden; }
#view { position: absolute; top: 38px; bottom: 0; left: 0; right: 0; }
#view svg { width: 100%; height: 100%; cursor: grab; }
#errors { color: #b00; margin: 0; }
#errors:empty { display: none; }
g.node.match > * > polygon, g.node.match > * > ellipse,
g.node.match > polygon, g.node.match > ellipse { stroke: #e00000; stroke-width: 4; }
</style></head>
<body>
<script>window.onerror = function (m) {
  document.getElementById('errors').textContent += m + '\n'; };</script>
<div id="bar"><b>)";
  printHtmlEscaped(os, title);
  os << R"(</b> &nbsp; <input id="search" size="32" placeholder="instruction name, Enter">
<span id="status"></span> &nbsp; <span style="color:#777">drag: pan, wheel or +/-: zoom, 0: reset</span>
<pre id="errors"></pre></div>
<div id="view">
)";
  os << svg;
  os << "</div>\n<script>" << kScript << "</script>\n</body></html>\n";
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

LogicalResult mlir::hlo::writeHloGraphDot(ModuleOp module, raw_ostream &os,
                                          const HloGraphViewOptions &options) {
  return GraphWriter(module, os, options).run();
}

LogicalResult mlir::hlo::writeHloGraph(ModuleOp module, raw_ostream &os,
                                       HloGraphFormat format,
                                       const HloGraphViewOptions &options) {
  if (format == HloGraphFormat::Dot)
    return writeHloGraphDot(module, os, options);
  std::string dot;
  {
    llvm::raw_string_ostream ds(dot);
    if (failed(writeHloGraphDot(module, ds, options)))
      return failure();
  }
  FailureOr<std::string> svg = renderSvg(module, dot, options.dotProgram);
  if (failed(svg))
    return failure();
  if (format == HloGraphFormat::Svg) {
    os << *svg;
    return success();
  }
  std::string title = "HloModule " + module.getSymName().value_or("").str();
  if (!options.focus.empty())
    title += " around " + options.focus;
  writeHtml(os, title, *svg);
  return success();
}

StringRef mlir::hlo::getHloGraphExtension(HloGraphFormat format) {
  switch (format) {
  case HloGraphFormat::Dot:
    return "dot";
  case HloGraphFormat::Svg:
    return "svg";
  case HloGraphFormat::Html:
    return "html";
  }
  return "dot";
}
