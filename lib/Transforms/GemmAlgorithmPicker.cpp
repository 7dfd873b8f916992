//===- GemmAlgorithmPicker.cpp - cuBLAS algorithms without a GPU ----------===//
//
// XLA's GemmAlgorithmPicker as a deviceless compile runs it: every cuBLAS
// GEMM custom call gets `selected_algorithm` and its workspace size. The
// algorithm comes from an autotune results file (XLA's AutotuneResults
// text proto, as --xla_gpu_dump_autotune_results_to writes it) when an
// entry describes the same custom call; otherwise it is XLA 0.10.2's
// deviceless default, algorithm 0 with a 4 MiB workspace.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Runtime/Literal.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "Hlo/Translate/HloText.h"
#include "RewriteUtils.h"
#include "TextProto.h"
#include "TransformUtils.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOGEMMALGORITHMPICKER
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {
/// One GEMM entry of the results file.
struct CacheEntry {
  std::string device, target, result, backendConfig;
  SmallVector<std::string> operands;
  int64_t algorithm;
};
} // namespace

/// `s` without spaces.
static std::string squeeze(StringRef s) {
  std::string out;
  for (char c : s)
    if (!isspace(c))
      out += c;
  return out;
}

/// The end of the bracketed group starting at `open` in `s` (the index of
/// its closing bracket), skipping strings; npos if unbalanced.
static size_t matching(StringRef s, size_t open) {
  int depth = 0;
  bool inString = false;
  for (size_t i = open; i < s.size(); ++i) {
    char c = s[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"')
      inString = true;
    else if (c == '(' || c == '{' || c == '[')
      ++depth;
    else if (c == ')' || c == '}' || c == ']')
      if (--depth == 0)
        return i;
  }
  return StringRef::npos;
}

/// `s` split at the commas outside brackets, each piece trimmed.
static SmallVector<StringRef> splitTopLevel(StringRef s) {
  SmallVector<StringRef> pieces;
  size_t start = 0;
  int depth = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    char c = i < s.size() ? s[i] : ',';
    if (c == '(' || c == '{' || c == '[')
      ++depth;
    else if (c == ')' || c == '}' || c == ']')
      --depth;
    if (c != ',' || depth != 0)
      continue;
    pieces.push_back(s.slice(start, i).trim());
    start = i + 1;
  }
  return pieces;
}

/// The pieces of an entry's `hlo` that identify a GEMM: the first element
/// of its result shape, its operand shapes, target and backend_config.
static bool parseGemmText(StringRef hlo, CacheEntry &entry) {
  size_t call = hlo.find(" custom-call(");
  if (call == StringRef::npos)
    return false;
  StringRef head = hlo.take_front(call).trim();
  if (size_t eq = head.find(" = ");
      eq != StringRef::npos && !head.take_front(eq).contains('['))
    head = head.drop_front(eq + 3).trim();
  if (head.starts_with("(") && head.ends_with(")")) {
    SmallVector<StringRef> elements =
        splitTopLevel(head.drop_front().drop_back());
    if (elements.empty())
      return false;
    head = elements.front();
  }
  entry.result = squeeze(head);
  size_t open = call + strlen(" custom-call");
  size_t close = matching(hlo, open);
  if (close == StringRef::npos)
    return false;
  StringRef args = hlo.slice(open + 1, close);
  // Each operand is a shape, maybe followed by a name.
  for (StringRef piece : splitTopLevel(args)) {
    if (size_t sp = piece.rfind(' '); sp != StringRef::npos &&
                                      !piece.drop_front(sp).contains('}') &&
                                      !piece.drop_front(sp).contains(']'))
      piece = piece.take_front(sp);
    if (!piece.empty())
      entry.operands.push_back(squeeze(piece));
  }
  StringRef rest = hlo.drop_front(close + 1);
  size_t t = rest.find("custom_call_target=\"");
  if (t == StringRef::npos)
    return false;
  StringRef target = rest.drop_front(t + strlen("custom_call_target=\""));
  entry.target = target.take_until([](char c) { return c == '"'; }).str();
  size_t bc = rest.find("backend_config=");
  if (bc != StringRef::npos) {
    StringRef json = rest.drop_front(bc + strlen("backend_config="));
    if (json.starts_with("{")) {
      size_t end = matching(json, 0);
      if (end != StringRef::npos)
        entry.backendConfig = json.take_front(end + 1).str();
    }
  }
  return true;
}

std::string mlir::hlo::getGemmAutotuneKey(CustomCallOp call) {
  std::string key;
  llvm::raw_string_ostream os(key);
  printHloShape(os, call.getType());
  os << " custom-call(";
  llvm::interleaveComma(call.getInputs(), os,
                        [&](Value v) { printHloShape(os, v.getType()); });
  os << "), custom_call_target=\"" << call.getCustomCallTarget()
     << "\", backend_config=";
  if (BackendConfigAttr config = readBackendConfig(call.getBackendConfigAttr()))
    config.printJson(os);
  else
    os << "{}";
  return key;
}

/// A GemmBackendConfig JSON without the members tuning sets.
static std::optional<llvm::json::Value> tuningFree(StringRef json) {
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(json);
  if (!v) {
    llvm::consumeError(v.takeError());
    return std::nullopt;
  }
  if (llvm::json::Object *root = v->getAsObject())
    if (llvm::json::Object *gemm = root->getObject("gemm_backend_config")) {
      gemm->erase("selected_algorithm");
      gemm->erase("autotune_workspace_size");
    }
  return std::move(*v);
}

namespace {
struct GemmAlgorithmPickerPass
    : ChangeReportingPass<GemmAlgorithmPickerPass,
                          hlo::impl::HloGemmAlgorithmPickerBase> {
  using ChangeReportingPass::ChangeReportingPass;
  std::vector<CacheEntry> entries;

  void run() {
    ModuleOp module = getOperation();
    if (!autotuneCache.empty()) {
      if (std::optional<std::string> err = load()) {
        emitError(module.getLoc())
            << "hlo-gemm-algorithm-picker: autotune cache '" << autotuneCache
            << "': " << *err;
        return signalPassFailure();
      }
    }
    for (ComputationOp comp : nonFusionComputations(module))
      for (auto call : comp.getBody().getOps<CustomCallOp>())
        pick(call);
  }

  /// Reads the results file; an error text on failure.
  std::optional<std::string> load() {
    auto buffer = llvm::MemoryBuffer::getFile(autotuneCache);
    if (!buffer)
      return buffer.getError().message();
    TextMessage file;
    if (auto err = parseTextProto((*buffer)->getBuffer(), file))
      return *err;
    const TextMessage::Field *version = file.get("version");
    if (!version || version->message)
      return std::string("not an AutotuneResults text proto (no version)");
    for (const TextMessage::Field &f : file.fields) {
      if (f.name == "version")
        continue;
      if (f.name != "results" || !f.message)
        return "unexpected field '" + f.name + "'";
      const TextMessage &r = *f.message;
      const TextMessage::Field *hlo = r.get("hlo");
      const TextMessage::Field *result = r.get("result");
      if (!hlo || hlo->message || !result || !result->message)
        return std::string("a result without hlo or result");
      const TextMessage::Field *gemm = result->message->get("gemm");
      if (!gemm)
        continue; // a convolution or Triton result
      const TextMessage::Field *alg =
          gemm->message ? gemm->message->get("algorithm") : nullptr;
      CacheEntry entry;
      if (!alg || alg->message ||
          StringRef(alg->scalar).getAsInteger(10, entry.algorithm))
        return std::string("a gemm result without an integer algorithm");
      if (const TextMessage::Field *d = r.get("device"))
        entry.device = d->scalar;
      if (!parseGemmText(hlo->scalar, entry))
        continue;
      entries.push_back(std::move(entry));
    }
    return std::nullopt;
  }

  /// An array type as HLO text writes it, without spaces:
  /// `f32[4,16]{1,0}`.
  static std::string shapeText(Type type) {
    auto rt = dyn_cast<RankedTensorType>(type);
    if (!rt)
      return "?";
    std::string s = runtime::getElementTypeName(rt.getElementType()) + "[";
    for (auto [i, d] : llvm::enumerate(rt.getShape()))
      s += (i ? "," : "") + std::to_string(d);
    s += "]{";
    for (auto [i, d] : llvm::enumerate(getMinorToMajor(rt)))
      s += (i ? "," : "") + std::to_string(d);
    return s + "}";
  }

  const CacheEntry *lookup(CustomCallOp call, TupleType tuple,
                           BackendConfigAttr config) {
    if (entries.empty())
      return nullptr;
    std::string json;
    llvm::raw_string_ostream os(json);
    config.printJson(os);
    std::optional<llvm::json::Value> mine = tuningFree(json);
    std::string result = shapeText(tuple.getType(0));
    SmallVector<std::string> operands;
    for (Value v : call.getInputs())
      operands.push_back(shapeText(v.getType()));
    for (const CacheEntry &e : entries) {
      if ((!device.empty() && e.device != device) ||
          e.target != call.getCustomCallTarget() || e.result != result ||
          ArrayRef(e.operands) != ArrayRef(operands))
        continue;
      std::optional<llvm::json::Value> theirs = tuningFree(e.backendConfig);
      if (mine && theirs && *mine == *theirs)
        return &e;
    }
    return nullptr;
  }

  void pick(CustomCallOp call) {
    StringRef target = call.getCustomCallTarget();
    if (target != "__cublas$gemm" && target != "__cublas$lt$matmul" &&
        target != "__cublas$lt$matmul$f8")
      return;
    auto root = readBackendConfig(call.getBackendConfigAttr());
    BackendConfigAttr gemm = root ? root.getGemmBackendConfig() : nullptr;
    auto tuple = dyn_cast<TupleType>(call.getType());
    if (!gemm || !tuple || tuple.size() < 2)
      return;
    auto workspaceType =
        dyn_cast<RankedTensorType>(tuple.getType(tuple.size() - 1));
    if (!workspaceType || workspaceType.getRank() != 1 ||
        !workspaceType.hasStaticShape())
      return;
    int64_t algorithm = 0;
    if (const CacheEntry *e = lookup(call, tuple, root)) {
      algorithm = e->algorithm;
      ++numFromCache;
    } else {
      ++numDefault;
    }
    int64_t workspace =
        std::min(workspaceType.getDimSize(0), int64_t(workspaceBytes));
    MLIRContext *ctx = call.getContext();
    Builder b(ctx);
    SmallVector<NamedAttribute> members = {
        b.getNamedAttr("selected_algorithm", b.getI64IntegerAttr(algorithm))};
    for (auto [key, member] : llvm::zip(gemm.getKeys(), gemm.getValues())) {
      if (key.getValue() == "selected_algorithm")
        continue;
      Attribute value = member;
      if (key.getValue() == "autotune_workspace_size")
        value = TextAttr::get(ctx, "\"" + std::to_string(workspace) + "\"");
      members.push_back(NamedAttribute(key, value));
    }
    auto tuned = BackendConfigAttr::get(
        ctx, BackendConfigMessage::GemmBackendConfig, members);
    if (tuned != gemm) {
      call.setBackendConfigAttr(root.withMember("gemm_backend_config", tuned));
      changed = true;
    }
    // The workspace shrinks when only the result is read.
    if (workspace != workspaceType.getDimSize(0) &&
        llvm::all_of(call->getUsers(), [](Operation *u) {
          auto gte = dyn_cast<GetTupleElementOp>(u);
          return gte && gte.getIndex() == 0;
        })) {
      SmallVector<Type> elements(tuple.getTypes().drop_back());
      elements.push_back(RankedTensorType::get({workspace},
                                               workspaceType.getElementType(),
                                               workspaceType.getEncoding()));
      call->getResult(0).setType(TupleType::get(ctx, elements));
      changed = true;
    }
  }
};
} // namespace
