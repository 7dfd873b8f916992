//===- HloBackendConfig.cpp - #hlo.backend_config -------------------------===//
//
// The typed backend_config: the members the dialect knows per message, JSON
// reading and printing (as XLA prints it), the MLIR assembly, the verifier
// and the accessors.
//
//===----------------------------------------------------------------------===//

#include "Hlo/Dialect/Hlo/HloBackendConfigUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::hlo;

//===----------------------------------------------------------------------===//
// The members the dialect types
//===----------------------------------------------------------------------===//

namespace {
/// How a member is written in JSON and held in the attribute.
enum class FieldKind {
  Int64,       // "7"          IntegerAttr i64
  Int32,       // 7            IntegerAttr i32
  Double,      // 0.5          FloatAttr f64
  Bool,        // true         BoolAttr
  String,      // "kLoop"      StringAttr
  Int64List,   // ["1","2"]    DenseI64ArrayAttr
  StringList,  // ["A","B"]    ArrayAttr of StringAttr
  Message,     // {...}        BackendConfigAttr of `sub`
  MessageList, // [{...}]      ArrayAttr of BackendConfigAttr of `sub`
};

struct FieldSpec {
  BackendConfigMessage message;
  const char *key;
  FieldKind kind;
  BackendConfigMessage sub = BackendConfigMessage::Root;
};
} // namespace

using M = BackendConfigMessage;
using K = FieldKind;

// Field names and JSON types are those of XLA's backend_configs.proto,
// autotuning.proto and xla_data.proto (GpuBackendConfig, FusionBackendConfig,
// BlockLevelFusionConfig, AutotuneResult.TritonGemmKey, GemmBackendConfig,
// DotDimensionNumbers, PrecisionConfig, CudnnConvBackendConfig,
// CollectiveBackendConfig, WhileLoopBackendConfig.KnownTripCount).
static const FieldSpec kFields[] = {
    {M::Root, "operation_queue_id", K::Int64},
    {M::Root, "wait_on_operation_queues", K::Int64List},
    {M::Root, "fusion_backend_config", K::Message, M::FusionBackendConfig},
    {M::Root, "gemm_backend_config", K::Message, M::GemmBackendConfig},
    {M::Root, "cudnn_conv_backend_config", K::Message,
     M::CudnnConvBackendConfig},
    {M::Root, "collective_backend_config", K::Message,
     M::CollectiveBackendConfig},
    {M::Root, "force_earliest_schedule", K::Bool},
    {M::Root, "known_trip_count", K::Message, M::KnownTripCount},

    {M::FusionBackendConfig, "kind", K::String},
    {M::FusionBackendConfig, "triton_gemm_config", K::Message,
     M::TritonGemmConfig},
    {M::FusionBackendConfig, "block_level_fusion_config", K::Message,
     M::BlockLevelFusionConfig},

    {M::BlockLevelFusionConfig, "output_tiles", K::MessageList, M::OutputTile},
    {M::BlockLevelFusionConfig, "num_warps", K::Int64},
    {M::BlockLevelFusionConfig, "num_ctas", K::Int32},
    {M::BlockLevelFusionConfig, "num_stages", K::Int32},
    {M::BlockLevelFusionConfig, "is_tma_allowed", K::Bool},
    {M::BlockLevelFusionConfig, "is_warp_specialization_allowed", K::Bool},
    {M::BlockLevelFusionConfig, "waves_per_eu", K::Int32},
    {M::OutputTile, "sizes", K::Int64List},

    {M::TritonGemmConfig, "block_m", K::Int64},
    {M::TritonGemmConfig, "block_n", K::Int64},
    {M::TritonGemmConfig, "block_k", K::Int64},
    {M::TritonGemmConfig, "split_k", K::Int64},
    {M::TritonGemmConfig, "num_stages", K::Int64},
    {M::TritonGemmConfig, "num_warps", K::Int64},
    {M::TritonGemmConfig, "num_ctas", K::Int64},

    {M::GemmBackendConfig, "selected_algorithm", K::Int64},
    {M::GemmBackendConfig, "alpha_real", K::Double},
    {M::GemmBackendConfig, "alpha_imag", K::Double},
    {M::GemmBackendConfig, "beta", K::Double},
    {M::GemmBackendConfig, "dot_dimension_numbers", K::Message,
     M::DotDimensionNumbers},
    {M::GemmBackendConfig, "precision_config", K::Message, M::PrecisionConfig},
    {M::GemmBackendConfig, "epilogue", K::String},
    {M::GemmBackendConfig, "lhs_stride", K::Int64},
    {M::GemmBackendConfig, "rhs_stride", K::Int64},
    {M::GemmBackendConfig, "grad_x", K::Bool},
    {M::GemmBackendConfig, "grad_y", K::Bool},
    {M::GemmBackendConfig, "damax_output", K::Bool},

    {M::DotDimensionNumbers, "lhs_contracting_dimensions", K::Int64List},
    {M::DotDimensionNumbers, "rhs_contracting_dimensions", K::Int64List},
    {M::DotDimensionNumbers, "lhs_batch_dimensions", K::Int64List},
    {M::DotDimensionNumbers, "rhs_batch_dimensions", K::Int64List},
    {M::PrecisionConfig, "operand_precision", K::StringList},
    {M::PrecisionConfig, "algorithm", K::String},

    {M::CudnnConvBackendConfig, "activation_mode", K::String},
    {M::CudnnConvBackendConfig, "conv_result_scale", K::Double},
    {M::CudnnConvBackendConfig, "side_input_scale", K::Double},
    {M::CudnnConvBackendConfig, "leakyrelu_alpha", K::Double},

    {M::CollectiveBackendConfig, "is_sync", K::Bool},
    {M::CollectiveBackendConfig, "no_parallel_custom_call", K::Bool},
    {M::CollectiveBackendConfig, "is_pipelined", K::Bool},

    {M::KnownTripCount, "n", K::Int64},
};

static const FieldSpec *lookupField(BackendConfigMessage message,
                                    StringRef key) {
  for (const FieldSpec &f : kFields)
    if (f.message == message && key == f.key)
      return &f;
  return nullptr;
}

/// True if `v` is a value of `spec`'s kind.
static bool valueMatches(const FieldSpec &spec, Attribute v) {
  auto isMessage = [&](Attribute a) {
    auto m = dyn_cast<BackendConfigAttr>(a);
    return m && m.getMessage() == spec.sub && !m.getQuoted();
  };
  switch (spec.kind) {
  case K::Int64:
  case K::Int32: {
    auto i = dyn_cast<IntegerAttr>(v);
    return i && i.getType().isSignlessInteger(spec.kind == K::Int64 ? 64 : 32);
  }
  case K::Double: {
    auto f = dyn_cast<FloatAttr>(v);
    return f && f.getType().isF64();
  }
  case K::Bool:
    return isa<BoolAttr>(v);
  case K::String:
    return isa<StringAttr>(v);
  case K::Int64List:
    return isa<DenseI64ArrayAttr>(v);
  case K::StringList: {
    auto a = dyn_cast<ArrayAttr>(v);
    return a && llvm::all_of(a, llvm::IsaPred<StringAttr>);
  }
  case K::Message:
    return isMessage(v);
  case K::MessageList: {
    auto a = dyn_cast<ArrayAttr>(v);
    return a && llvm::all_of(a, isMessage);
  }
  }
  return false;
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

namespace {
/// Reads the JSON of one backend_config. Values of members the dialect does
/// not know are kept as the text they span.
class JsonReader {
public:
  JsonReader(MLIRContext *ctx, StringRef text) : ctx(ctx), b(ctx), text(text) {}

  /// The object at the cursor as a message, or null.
  BackendConfigAttr readMessage(BackendConfigMessage message, bool quoted) {
    SmallVector<StringAttr> keys;
    SmallVector<Attribute> values;
    if (!consume('{'))
      return {};
    if (!consume('}')) {
      do {
        std::string key;
        if (!readString(key) || !consume(':'))
          return {};
        Attribute value;
        if (const FieldSpec *spec = lookupField(message, key))
          value = readTyped(*spec);
        else if (std::optional<StringRef> raw = skipValue())
          value = TextAttr::get(ctx, *raw);
        if (!value)
          return {};
        keys.push_back(b.getStringAttr(key));
        values.push_back(value);
      } while (consume(','));
      if (!consume('}'))
        return {};
    }
    return BackendConfigAttr::getChecked(
        [&]() { return emitError(UnknownLoc::get(ctx)); }, ctx, message, quoted,
        ArrayRef<StringAttr>(keys), ArrayRef<Attribute>(values));
  }

  bool atEnd() {
    skipSpace();
    return pos == text.size();
  }

private:
  void skipSpace() {
    while (pos < text.size() && llvm::isSpace(text[pos]))
      ++pos;
  }
  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  char peek() {
    skipSpace();
    return pos < text.size() ? text[pos] : '\0';
  }

  bool readString(std::string &out) {
    skipSpace();
    if (pos >= text.size() || text[pos] != '"')
      return false;
    ++pos;
    out.clear();
    while (pos < text.size() && text[pos] != '"') {
      char c = text[pos++];
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (pos >= text.size())
        return false;
      char e = text[pos++];
      switch (e) {
      case 'n':
        out.push_back('\n');
        break;
      case 't':
        out.push_back('\t');
        break;
      case 'r':
        out.push_back('\r');
        break;
      case 'b':
        out.push_back('\b');
        break;
      case 'f':
        out.push_back('\f');
        break;
      case 'u': {
        unsigned v;
        if (pos + 4 > text.size() || text.substr(pos, 4).getAsInteger(16, v) ||
            v > 0x7f)
          return false; // Only ASCII escapes are kept typed.
        out.push_back(char(v));
        pos += 4;
        break;
      }
      default:
        out.push_back(e);
        break;
      }
    }
    if (pos >= text.size())
      return false;
    ++pos;
    return true;
  }

  /// The text of the JSON value at the cursor (strings, numbers, literals,
  /// balanced objects and arrays).
  std::optional<StringRef> skipValue() {
    skipSpace();
    size_t start = pos;
    if (pos >= text.size())
      return std::nullopt;
    char c = text[pos];
    if (c == '"') {
      std::string ignored;
      if (!readString(ignored))
        return std::nullopt;
      return text.slice(start, pos);
    }
    if (c == '{' || c == '[') {
      SmallVector<char, 8> stack;
      while (pos < text.size()) {
        char d = text[pos];
        if (d == '"') {
          std::string ignored;
          if (!readString(ignored))
            return std::nullopt;
          continue;
        }
        ++pos;
        if (d == '{' || d == '[') {
          stack.push_back(d == '{' ? '}' : ']');
        } else if (d == '}' || d == ']') {
          if (stack.empty() || stack.back() != d)
            return std::nullopt;
          stack.pop_back();
          if (stack.empty())
            return text.slice(start, pos);
        }
      }
      return std::nullopt;
    }
    while (pos < text.size() && (llvm::isAlnum(text[pos]) || text[pos] == '-' ||
                                 text[pos] == '+' || text[pos] == '.'))
      ++pos;
    if (pos == start)
      return std::nullopt;
    return text.slice(start, pos);
  }

  std::optional<int64_t> readQuotedInt() {
    std::string s;
    int64_t v;
    if (!readString(s) || StringRef(s).getAsInteger(10, v))
      return std::nullopt;
    return v;
  }

  Attribute readTyped(const FieldSpec &spec) {
    switch (spec.kind) {
    case K::Int64: {
      std::optional<int64_t> v = readQuotedInt();
      return v ? b.getI64IntegerAttr(*v) : Attribute();
    }
    case K::Int32: {
      std::optional<StringRef> raw = skipValue();
      int32_t v;
      if (!raw || raw->getAsInteger(10, v))
        return {};
      return b.getI32IntegerAttr(v);
    }
    case K::Double: {
      std::optional<StringRef> raw = skipValue();
      double v;
      if (!raw || raw->getAsDouble(v))
        return {};
      return b.getF64FloatAttr(v);
    }
    case K::Bool: {
      std::optional<StringRef> raw = skipValue();
      if (!raw || (*raw != "true" && *raw != "false"))
        return {};
      return b.getBoolAttr(*raw == "true");
    }
    case K::String: {
      std::string s;
      if (!readString(s))
        return {};
      return b.getStringAttr(s);
    }
    case K::Int64List: {
      SmallVector<int64_t> v;
      if (!readList([&]() {
            std::optional<int64_t> x = readQuotedInt();
            if (x)
              v.push_back(*x);
            return x.has_value();
          }))
        return {};
      return b.getDenseI64ArrayAttr(v);
    }
    case K::StringList: {
      SmallVector<Attribute> v;
      if (!readList([&]() {
            std::string s;
            if (!readString(s))
              return false;
            v.push_back(b.getStringAttr(s));
            return true;
          }))
        return {};
      return b.getArrayAttr(v);
    }
    case K::Message:
      return readMessage(spec.sub, /*quoted=*/false);
    case K::MessageList: {
      SmallVector<Attribute> v;
      if (!readList([&]() {
            BackendConfigAttr m = readMessage(spec.sub, /*quoted=*/false);
            if (m)
              v.push_back(m);
            return bool(m);
          }))
        return {};
      return b.getArrayAttr(v);
    }
    }
    return {};
  }

  bool readList(function_ref<bool()> element) {
    if (!consume('['))
      return false;
    if (consume(']'))
      return true;
    do {
      if (!element())
        return false;
    } while (consume(','));
    return consume(']');
  }

  MLIRContext *ctx;
  Builder b;
  StringRef text;
  size_t pos = 0;
};
} // namespace

/// A JSON string as XLA's JSON printer writes it.
static void printJsonString(raw_ostream &os, StringRef s) {
  os << '"';
  for (unsigned char c : s) {
    switch (c) {
    case '"':
      os << "\\\"";
      break;
    case '\\':
      os << "\\\\";
      break;
    case '\n':
      os << "\\n";
      break;
    case '\t':
      os << "\\t";
      break;
    case '\r':
      os << "\\r";
      break;
    case '\b':
      os << "\\b";
      break;
    case '\f':
      os << "\\f";
      break;
    default:
      if (c < 0x20)
        os << llvm::format("\\u%04x", c);
      else
        os << c;
    }
  }
  os << '"';
}

/// A double with the fewest digits that read back to it (`1`, `0.5`).
static void printJsonDouble(raw_ostream &os, double v) {
  char buf[40];
  for (int digits = 1; digits <= 17; ++digits) {
    snprintf(buf, sizeof(buf), "%.*g", digits, v);
    if (strtod(buf, nullptr) == v)
      break;
  }
  os << buf;
}

static void printJsonValue(raw_ostream &os, const FieldSpec *spec,
                           Attribute v) {
  if (!spec) {
    os << cast<TextAttr>(v).getValue();
    return;
  }
  switch (spec->kind) {
  case K::Int64:
    os << '"' << cast<IntegerAttr>(v).getInt() << '"';
    return;
  case K::Int32:
    os << cast<IntegerAttr>(v).getInt();
    return;
  case K::Double:
    printJsonDouble(os, cast<FloatAttr>(v).getValueAsDouble());
    return;
  case K::Bool:
    os << (cast<BoolAttr>(v).getValue() ? "true" : "false");
    return;
  case K::String:
    printJsonString(os, cast<StringAttr>(v).getValue());
    return;
  case K::Int64List:
    os << '[';
    llvm::interleave(
        cast<DenseI64ArrayAttr>(v).asArrayRef(), os,
        [&](int64_t x) { os << '"' << x << '"'; }, ",");
    os << ']';
    return;
  case K::StringList:
    os << '[';
    llvm::interleave(
        cast<ArrayAttr>(v), os,
        [&](Attribute s) {
          printJsonString(os, cast<StringAttr>(s).getValue());
        },
        ",");
    os << ']';
    return;
  case K::Message:
    cast<BackendConfigAttr>(v).printJson(os);
    return;
  case K::MessageList:
    os << '[';
    llvm::interleave(
        cast<ArrayAttr>(v), os,
        [&](Attribute m) { cast<BackendConfigAttr>(m).printJson(os); }, ",");
    os << ']';
    return;
  }
}

void BackendConfigAttr::printJson(raw_ostream &os) const {
  os << '{';
  for (auto [i, key, value] : llvm::enumerate(getKeys(), getValues())) {
    if (i)
      os << ',';
    printJsonString(os, key.getValue());
    os << ':';
    printJsonValue(os, lookupField(getMessage(), key.getValue()), value);
  }
  os << '}';
}

BackendConfigAttr BackendConfigAttr::parseJson(MLIRContext *ctx, StringRef json,
                                               bool quoted) {
  // Diagnostics of the attempt are not errors: the text is then kept as it
  // is.
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  JsonReader reader(ctx, json);
  BackendConfigAttr attr =
      reader.readMessage(BackendConfigMessage::Root, quoted);
  if (!attr || !reader.atEnd())
    return {};
  std::string printed;
  llvm::raw_string_ostream os(printed);
  attr.printJson(os);
  if (printed != json)
    return {};
  return attr;
}

BackendConfigAttr mlir::hlo::readBackendConfig(Attribute config) {
  if (auto typed = dyn_cast_or_null<BackendConfigAttr>(config))
    return typed;
  StringRef json;
  if (auto s = dyn_cast_or_null<StringAttr>(config))
    json = s.getValue();
  else if (auto t = dyn_cast_or_null<TextAttr>(config))
    json = t.getValue();
  if (!json.ltrim().starts_with("{"))
    return {};
  MLIRContext *ctx = config.getContext();
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  JsonReader reader(ctx, json);
  BackendConfigAttr attr =
      reader.readMessage(BackendConfigMessage::Root, /*quoted=*/false);
  return attr && reader.atEnd() ? attr : BackendConfigAttr();
}

std::optional<int64_t> mlir::hlo::readJsonIntMember(Attribute member,
                                                    StringRef key) {
  auto text = dyn_cast_or_null<TextAttr>(member);
  if (!text)
    return std::nullopt;
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text.getValue());
  if (!json) {
    llvm::consumeError(json.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *object = json->getAsObject();
  const llvm::json::Value *value = object ? object->get(key) : nullptr;
  if (!value)
    return std::nullopt;
  if (std::optional<int64_t> n = value->getAsInteger())
    return n;
  int64_t n;
  if (std::optional<StringRef> s = value->getAsString();
      s && !s->getAsInteger(10, n))
    return n;
  return std::nullopt;
}

std::optional<int64_t> mlir::hlo::readBlockScaledDotBlockSize(Operation *op) {
  BackendConfigAttr root = readBackendConfig(op);
  return root ? readJsonIntMember(
                    root.getMember("block_scaled_dot_backend_config"),
                    "block_size")
              : std::nullopt;
}

bool mlir::hlo::isXlaCpuCustomFusion(Operation *op) {
  if (!isa<FusionOp>(op))
    return false;
  Attribute config = op->getAttr("backend_config");
  if (auto typed = readBackendConfig(config))
    return bool(typed.getMember("fusion_config"));
  auto text = dyn_cast_or_null<TextAttr>(config);
  return text && text.getValue().contains("\"fusion_config\"");
}

/// The text after `key =` in an XLA FFI call's attributes (`#hlo.text` of
/// an MLIR dictionary), or std::nullopt where `config` does not set `key`.
static std::optional<StringRef> findFfiOption(Attribute config, StringRef key) {
  auto text = dyn_cast_or_null<TextAttr>(config);
  if (!text)
    return std::nullopt;
  StringRef t = text.getValue();
  for (size_t at = t.find(key); at != StringRef::npos;
       at = t.find(key, at + 1)) {
    StringRef rest = t.drop_front(at + key.size()).ltrim();
    bool whole = at == 0 || (!llvm::isAlnum(t[at - 1]) && t[at - 1] != '_');
    if (whole && rest.consume_front("="))
      return rest.ltrim();
  }
  return std::nullopt;
}

std::optional<int64_t> mlir::hlo::readFfiIntOption(Attribute config,
                                                   StringRef key) {
  std::optional<StringRef> rest = findFfiOption(config, key);
  int64_t value;
  if (rest && !rest->consumeInteger(10, value))
    return value;
  return std::nullopt;
}

char mlir::hlo::readFfiCharOption(Attribute config, StringRef key, char dflt) {
  std::optional<int64_t> value = readFfiIntOption(config, key);
  if (value && *value >= 0 && *value < 128)
    return char(*value);
  return dflt;
}

std::optional<double> mlir::hlo::readFfiFloatOption(Attribute config,
                                                    StringRef key) {
  std::optional<StringRef> rest = findFfiOption(config, key);
  if (!rest)
    return std::nullopt;
  // The number, up to the type (`: f64`) or the next entry.
  StringRef number = rest->take_until([](char c) {
    return c == ':' || c == ',' || c == '}' || llvm::isSpace(c);
  });
  double value;
  if (number.empty() || number.getAsDouble(value))
    return std::nullopt;
  return value;
}

std::optional<bool> mlir::hlo::readFfiBoolOption(Attribute config,
                                                 StringRef key) {
  std::optional<StringRef> rest = findFfiOption(config, key);
  if (rest && rest->starts_with("true"))
    return true;
  if (rest && rest->starts_with("false"))
    return false;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Verifier, builders, accessors
//===----------------------------------------------------------------------===//

LogicalResult BackendConfigAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, BackendConfigMessage message,
    bool quoted, ArrayRef<StringAttr> keys, ArrayRef<Attribute> values) {
  if (quoted && message != BackendConfigMessage::Root)
    return emitError() << "only a root backend_config can be quoted";
  if (keys.size() != values.size())
    return emitError() << "backend_config has " << keys.size()
                       << " member names but " << values.size() << " values";
  llvm::SmallDenseSet<StringAttr, 8> seen;
  for (auto [key, value] : llvm::zip(keys, values)) {
    if (!key || !value)
      return emitError() << "backend_config member without name or value";
    if (!seen.insert(key).second)
      return emitError() << "backend_config member '" << key.getValue()
                         << "' appears twice";
    const FieldSpec *spec = lookupField(message, key.getValue());
    if (!spec) {
      if (!isa<TextAttr>(value))
        return emitError() << "backend_config member '" << key.getValue()
                           << "' is not typed in "
                           << stringifyBackendConfigMessage(message)
                           << " and must be an #hlo.text of its JSON";
      continue;
    }
    if (!valueMatches(*spec, value))
      return emitError() << "backend_config member '" << key.getValue()
                         << "' of " << stringifyBackendConfigMessage(message)
                         << " has value " << value << " of the wrong kind";
  }
  return success();
}

BackendConfigAttr BackendConfigAttr::get(MLIRContext *ctx,
                                         BackendConfigMessage message,
                                         ArrayRef<NamedAttribute> members) {
  SmallVector<StringAttr> keys;
  SmallVector<Attribute> values;
  for (NamedAttribute m : members) {
    keys.push_back(m.getName());
    values.push_back(m.getValue());
  }
  return get(ctx, message, false, ArrayRef<StringAttr>(keys),
             ArrayRef<Attribute>(values));
}

Attribute BackendConfigAttr::getMember(StringRef key) const {
  for (auto [k, v] : llvm::zip(getKeys(), getValues()))
    if (k.getValue() == key)
      return v;
  return {};
}

BackendConfigAttr BackendConfigAttr::withMember(StringRef key,
                                                Attribute value) const {
  SmallVector<StringAttr> keys(getKeys());
  SmallVector<Attribute> values(getValues());
  auto it = llvm::find_if(keys, [&](StringAttr k) { return k == key; });
  if (it != keys.end()) {
    values[it - keys.begin()] = value;
  } else {
    keys.push_back(StringAttr::get(getContext(), key));
    values.push_back(value);
  }
  return get(getContext(), getMessage(), getQuoted(),
             ArrayRef<StringAttr>(keys), ArrayRef<Attribute>(values));
}

std::optional<int64_t> BackendConfigAttr::getInt(StringRef key) const {
  if (auto i = dyn_cast_or_null<IntegerAttr>(getMember(key)))
    return i.getInt();
  return std::nullopt;
}

std::optional<double> BackendConfigAttr::getDouble(StringRef key) const {
  if (auto f = dyn_cast_or_null<FloatAttr>(getMember(key)))
    return f.getValueAsDouble();
  return std::nullopt;
}

// Members of messages without a typed form are JSON text: `true`/`false`
// read as booleans, a quoted string without escapes as a string.
std::optional<bool> BackendConfigAttr::getBool(StringRef key) const {
  Attribute m = getMember(key);
  if (auto b = dyn_cast_or_null<BoolAttr>(m))
    return b.getValue();
  if (auto t = dyn_cast_or_null<TextAttr>(m);
      t && (t.getValue() == "true" || t.getValue() == "false"))
    return t.getValue() == "true";
  return std::nullopt;
}

std::optional<StringRef> BackendConfigAttr::getString(StringRef key) const {
  Attribute m = getMember(key);
  if (auto s = dyn_cast_or_null<StringAttr>(m))
    return s.getValue();
  if (auto t = dyn_cast_or_null<TextAttr>(m)) {
    StringRef v = t.getValue();
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"' &&
        !v.contains('\\'))
      return v.drop_front().drop_back();
  }
  return std::nullopt;
}

std::optional<ArrayRef<int64_t>>
BackendConfigAttr::getInts(StringRef key) const {
  if (auto a = dyn_cast_or_null<DenseI64ArrayAttr>(getMember(key)))
    return a.asArrayRef();
  return std::nullopt;
}

BackendConfigAttr BackendConfigAttr::getSubConfig(StringRef key) const {
  return dyn_cast_or_null<BackendConfigAttr>(getMember(key));
}

std::optional<int64_t> BackendConfigAttr::getKnownTripCount() const {
  if (BackendConfigAttr trip = getSubConfig("known_trip_count"))
    return trip.getInt("n");
  return std::nullopt;
}

std::optional<StringRef> BackendConfigAttr::getFusionKind() const {
  if (BackendConfigAttr fusion = getFusionBackendConfig())
    return fusion.getString("kind");
  return std::nullopt;
}

BackendConfigAttr BackendConfigAttr::getBlockLevelFusionConfig() const {
  if (BackendConfigAttr fusion = getFusionBackendConfig())
    return fusion.getSubConfig("block_level_fusion_config");
  return {};
}

BackendConfigAttr BackendConfigAttr::getTritonGemmConfig() const {
  if (BackendConfigAttr fusion = getFusionBackendConfig())
    return fusion.getSubConfig("triton_gemm_config");
  return {};
}

SmallVector<SmallVector<int64_t>> BackendConfigAttr::getOutputTiles() const {
  SmallVector<SmallVector<int64_t>> tiles;
  if (auto list = dyn_cast_or_null<ArrayAttr>(getMember("output_tiles")))
    for (auto tile : list.getAsRange<BackendConfigAttr>())
      if (std::optional<ArrayRef<int64_t>> sizes = tile.getInts("sizes"))
        tiles.emplace_back(*sizes);
  return tiles;
}

//===----------------------------------------------------------------------===//
// MLIR assembly:
//   #hlo.backend_config<[quoted] {key = value, nested = {...}, list = [{...}]}>
//===----------------------------------------------------------------------===//

static BackendConfigAttr
parseMembers(AsmParser &p, BackendConfigMessage message, bool quoted);

static Attribute parseMemberValue(AsmParser &p, const FieldSpec *spec) {
  if (spec && spec->kind == K::Message)
    return parseMembers(p, spec->sub, false);
  if (spec && spec->kind == K::MessageList) {
    SmallVector<Attribute> elts;
    if (p.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
          BackendConfigAttr m = parseMembers(p, spec->sub, false);
          if (!m)
            return failure();
          elts.push_back(m);
          return success();
        }))
      return {};
    return ArrayAttr::get(p.getContext(), elts);
  }
  Attribute v;
  if (p.parseAttribute(v))
    return {};
  return v;
}

static BackendConfigAttr
parseMembers(AsmParser &p, BackendConfigMessage message, bool quoted) {
  SmallVector<StringAttr> keys;
  SmallVector<Attribute> values;
  SMLoc loc = p.getCurrentLocation();
  if (p.parseCommaSeparatedList(AsmParser::Delimiter::Braces, [&]() {
        std::string key;
        if (p.parseKeywordOrString(&key) || p.parseEqual())
          return failure();
        Attribute v = parseMemberValue(p, lookupField(message, key));
        if (!v)
          return failure();
        keys.push_back(StringAttr::get(p.getContext(), key));
        values.push_back(v);
        return success();
      }))
    return {};
  return BackendConfigAttr::getChecked(
      [&]() { return p.emitError(loc); }, p.getContext(), message, quoted,
      ArrayRef<StringAttr>(keys), ArrayRef<Attribute>(values));
}

Attribute BackendConfigAttr::parse(AsmParser &p, Type) {
  if (p.parseLess())
    return {};
  bool quoted = succeeded(p.parseOptionalKeyword("quoted"));
  BackendConfigAttr attr = parseMembers(p, BackendConfigMessage::Root, quoted);
  if (!attr || p.parseGreater())
    return {};
  return attr;
}

static void printMembers(AsmPrinter &p, BackendConfigAttr attr) {
  p << '{';
  for (auto [i, key, value] :
       llvm::enumerate(attr.getKeys(), attr.getValues())) {
    if (i)
      p << ", ";
    p.printKeywordOrString(key.getValue());
    p << " = ";
    const FieldSpec *spec = lookupField(attr.getMessage(), key.getValue());
    if (spec && spec->kind == K::Message) {
      printMembers(p, cast<BackendConfigAttr>(value));
    } else if (spec && spec->kind == K::MessageList) {
      p << '[';
      llvm::interleaveComma(cast<ArrayAttr>(value), p, [&](Attribute m) {
        printMembers(p, cast<BackendConfigAttr>(m));
      });
      p << ']';
    } else {
      p.printAttribute(value);
    }
  }
  p << '}';
}

void BackendConfigAttr::print(AsmPrinter &p) const {
  p << '<';
  if (getQuoted())
    p << "quoted ";
  printMembers(p, *this);
  p << '>';
}
