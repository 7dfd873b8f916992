//===- ConvAlgorithmPicker.cpp - cuDNN algorithms from autotune results ---===//
//
// XLA's GpuConvAlgorithmPicker without a GPU: the algorithm of each cuDNN
// convolution custom call comes from XLA's autotune results (a textproto
// AutotuneResults, `results` or the older `convs` entries), matched on the
// canonical text of the call up to its custom_call_target (result and
// operand shapes with layouts, window, dim_labels, group count, target:
// XLA's cache key without the backend_config, which the picker itself
// changes), or is XLA's deviceless default (algo_id -1). The cached
// scratch_bytes resize the call's u8 scratch. One walk over the module plus
// one read of the file.
//
//===----------------------------------------------------------------------===//

#include "CudnnUtils.h"
#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Runtime/Literal.h"
#include "Hlo/Transforms/GpuLibraryPasses.h"
#include "RewriteUtils.h"
#include "TextProto.h"
#include "TransformUtils.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOCONVALGORITHMPICKER
#include "Hlo/Transforms/GpuLibraryPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;
using llvm::hexDigitValue;
using llvm::isAlnum;
using llvm::isHexDigit;
using llvm::isSpace;

namespace {
/// One cached algorithm.
struct CachedAlgorithm {
  Attribute json; // the `algorithm` member of cudnn_conv_backend_config
  int64_t scratchBytes = 0;
};
} // namespace

/// `f32[2,3]{1,0}`.
static void printShape(raw_ostream &os, Type type) {
  auto rt = cast<RankedTensorType>(type);
  os << runtime::getElementTypeName(rt.getElementType()) << '[';
  llvm::interleave(rt.getShape(), os, ",");
  os << "]{";
  llvm::interleave(getMinorToMajor(rt), os, ",");
  os << '}';
}

/// The call's canonical HLO text up to its custom_call_target, as XLA's
/// autotune cache keys begin.
static std::string keyOf(CustomCallOp call) {
  std::string key;
  llvm::raw_string_ostream os(key);
  auto tt = cast<TupleType>(call.getType());
  os << '(';
  llvm::interleave(
      tt.getTypes(), os, [&](Type t) { printShape(os, t); }, ", ");
  os << ") custom-call(";
  llvm::interleave(
      getDataOperands(call), os, [&](Value v) { printShape(os, v.getType()); },
      ", ");
  os << ")";
  if (WindowAttr w = call.getWindowAttr()) {
    os << ", window=";
    w.printHlo(os);
  }
  if (ConvDimensionNumbersAttr dn = call.getDimLabelsAttr()) {
    os << ", dim_labels=";
    dn.printHlo(os);
  }
  if (int64_t g = call.getFeatureGroupCount().value_or(1); g != 1)
    os << ", feature_group_count=" << g;
  if (int64_t g = call.getBatchGroupCount().value_or(1); g != 1)
    os << ", batch_group_count=" << g;
  os << ", custom_call_target=\"" << call.getCustomCallTarget() << '"';
  return key;
}

std::string mlir::hlo::getConvAutotuneKey(CustomCallOp call) {
  std::string key = keyOf(call);
  llvm::raw_string_ostream os(key);
  os << ", backend_config=";
  if (BackendConfigAttr config = readBackendConfig(call.getBackendConfigAttr()))
    config.printJson(os);
  else
    os << "{}";
  return key;
}

/// The JSON of an AlgorithmProto (`algo_id`, `math_type`, `tuning_knobs`,
/// `is_cudnn_frontend`, `workspace_size`), as XLA prints it.
static std::string algorithmJson(int64_t algoId, StringRef mathType,
                                 ArrayRef<std::pair<int64_t, int64_t>> knobs,
                                 bool frontend,
                                 std::optional<uint64_t> workspace) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "{\"algo_id\":\"" << algoId << "\",\"math_type\":\"" << mathType
     << "\",\"tuning_knobs\":{";
  llvm::interleave(
      knobs, os,
      [&](auto kv) { os << '"' << kv.first << "\":\"" << kv.second << '"'; },
      ",");
  os << "},\"is_cudnn_frontend\":" << (frontend ? "true" : "false");
  if (workspace)
    os << ",\"workspace_size\":\"" << *workspace << '"';
  os << '}';
  return out;
}

static std::optional<int64_t> toInt(std::optional<StringRef> s) {
  int64_t v;
  if (!s || s->getAsInteger(10, v))
    return std::nullopt;
  return v;
}

namespace {
struct ConvAlgorithmPickerPass
    : ChangeReportingPass<ConvAlgorithmPickerPass,
                          hlo::impl::HloConvAlgorithmPickerBase> {
  using ChangeReportingPass::ChangeReportingPass;

  std::map<std::string, CachedAlgorithm> cache;

  /// Reads the cache file; false after a diagnostic.
  bool readCache() {
    MLIRContext *ctx = &getContext();
    ModuleOp module = getOperation();
    auto buffer = llvm::MemoryBuffer::getFile(autotuneCache);
    if (!buffer) {
      module.emitError() << "hlo-conv-algorithm-picker: cannot read the "
                            "autotune cache '"
                         << autotuneCache
                         << "': " << buffer.getError().message();
      return false;
    }
    TextMessage root;
    if (auto err = parseTextProto((*buffer)->getBuffer(), root)) {
      module.emitError() << "hlo-conv-algorithm-picker: malformed autotune "
                            "cache '"
                         << autotuneCache << "': " << *err;
      return false;
    }
    auto bad = [&](const Twine &why) {
      module.emitError() << "hlo-conv-algorithm-picker: malformed autotune "
                            "cache '"
                         << autotuneCache << "': " << why;
      return false;
    };
    if (!root.get("version"))
      return bad("no 'version' (not an AutotuneResults textproto)");
    for (const TextMessage::Field &f : root.fields) {
      if (f.name == "version" || f.name == "dots")
        continue;
      if (f.name != "results" && f.name != "convs")
        return bad("unknown field '" + f.name + "'");
      if (!f.message)
        return bad("'" + f.name + "' is not a message");
      std::optional<StringRef> hlo = f.message->value("hlo");
      const TextMessage *result = f.message->sub("result");
      if (!hlo || !result)
        return bad("an entry without 'hlo' or 'result'");
      if (!hlo->contains("custom_call_target=\"__cudnn$conv"))
        continue; // a GEMM or fusion entry
      CachedAlgorithm entry;
      entry.scratchBytes = toInt(result->value("scratch_bytes")).value_or(0);
      if (const TextMessage *alg = result->sub("algorithm")) {
        std::optional<int64_t> id = toInt(alg->value("algo_id"));
        if (!id)
          return bad("an algorithm without an integer 'algo_id'");
        SmallVector<std::pair<int64_t, int64_t>> knobs;
        for (const TextMessage::Field &k : alg->fields) {
          if (k.name != "tuning_knobs")
            continue;
          std::optional<int64_t> key =
              k.message ? toInt(k.message->value("key")) : std::nullopt;
          std::optional<int64_t> value =
              k.message ? toInt(k.message->value("value")) : std::nullopt;
          if (!key || !value)
            return bad("a tuning knob without integer 'key' and 'value'");
          knobs.emplace_back(*key, *value);
        }
        llvm::sort(knobs);
        std::optional<uint64_t> workspace;
        if (const TextMessage *ws = alg->sub("workspace_size"))
          workspace = toInt(ws->value("value")).value_or(0);
        entry.json = TextAttr::get(
            ctx,
            algorithmJson(
                *id, alg->value("math_type").value_or("DEFAULT_MATH"), knobs,
                alg->value("is_cudnn_frontend").value_or("") == "true",
                workspace));
      } else if (const TextMessage *conv = result->sub("conv")) {
        // The legacy ConvKey.
        std::optional<int64_t> id = toInt(conv->value("algorithm"));
        if (!id)
          return bad("a conv key without an integer 'algorithm'");
        bool tensorOps =
            conv->value("tensor_ops_enabled").value_or("") == "true";
        entry.json = TextAttr::get(
            ctx,
            algorithmJson(*id, tensorOps ? "TENSOR_OP_MATH" : "DEFAULT_MATH",
                          {}, false, std::nullopt));
      } else {
        return bad("a convolution result without 'algorithm' or 'conv'");
      }
      // The key: the text up to the end of its custom_call_target.
      size_t at = hlo->find("custom_call_target=\"");
      size_t end = hlo->find('"', at + strlen("custom_call_target=\""));
      cache.emplace(hlo->take_front(end + 1).str(), entry);
    }
    return true;
  }

  void run() {
    if (!autotuneCache.empty() && !readCache())
      return signalPassFailure();
    MLIRContext *ctx = &getContext();
    bool failedHit = false;
    getOperation().walk([&](CustomCallOp call) {
      if (!isCudnnConvCall(call) || call->getNumResults() != 1)
        return;
      auto root = readBackendConfig(call.getBackendConfigAttr());
      auto tt = dyn_cast<TupleType>(call.getType());
      BackendConfigAttr cfg = root ? root.getCudnnConvBackendConfig() : nullptr;
      if (!cfg || cfg.getMember("algorithm") || !tt || tt.size() < 2)
        return;
      Attribute algorithm;
      int64_t scratch = 0;
      if (!cache.empty()) {
        auto it = cache.find(keyOf(call));
        if (it != cache.end()) {
          algorithm = it->second.json;
          scratch = it->second.scratchBytes;
          ++numFromCache;
        }
      }
      if (!algorithm) {
        if (requireCacheHit) {
          call.emitError() << "hlo-conv-algorithm-picker: no autotune result "
                              "for "
                           << keyOf(call);
          failedHit = true;
          return;
        }
        algorithm = TextAttr::get(
            ctx, algorithmJson(-1, "DEFAULT_MATH", {}, false, std::nullopt));
        ++numDefault;
      }
      // `algorithm` (field 6) prints after side_input_scale.
      SmallVector<NamedAttribute> members;
      bool placed = false;
      for (auto [k, v] : llvm::zip(cfg.getKeys(), cfg.getValues())) {
        if (!placed && k.getValue() == "leakyrelu_alpha") {
          members.emplace_back(StringAttr::get(ctx, "algorithm"), algorithm);
          placed = true;
        }
        members.emplace_back(k, v);
      }
      if (!placed)
        members.emplace_back(StringAttr::get(ctx, "algorithm"), algorithm);
      call.setBackendConfigAttr(root.withMember(
          "cudnn_conv_backend_config",
          BackendConfigAttr::get(
              ctx, BackendConfigMessage::CudnnConvBackendConfig, members)));
      auto scratchTy = cast<RankedTensorType>(tt.getType(tt.size() - 1));
      if (scratchTy.getRank() == 1 && scratchTy.getDimSize(0) != scratch) {
        // Resize the scratch: a new call, its users reading the new tuple.
        SmallVector<Type> types(tt.getTypes());
        types.back() = scratchType(ctx, scratch);
        OpBuilder builder(call);
        CustomCallOp resized = cloneCudnnConv(
            builder, call, getDataOperands(call), TupleType::get(ctx, types));
        // Only readers of the result (not of the scratch, whose type
        // changes) may move to the new call.
        bool ok = true;
        for (Operation *user : call->getUsers()) {
          auto gte = dyn_cast<GetTupleElementOp>(user);
          ok &= gte && gte.getIndex() + 1 < types.size();
        }
        if (ok && !hasControlPredecessors(call) &&
            !isControlPredecessor(call)) {
          for (Operation *user : llvm::make_early_inc_range(call->getUsers()))
            user->setOperand(0, resized.getResult());
          call.erase();
        } else {
          resized.erase();
        }
      }
      changed = true;
    });
    if (failedHit)
      signalPassFailure();
  }
};
} // namespace
