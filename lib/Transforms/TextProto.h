//===- TextProto.h - protobuf text format, read -----------------*- C++ -*-===//
//
// Private to lib/Transforms: a reader of protobuf's text format, enough for
// the files XLA writes and reads (its autotune results, which the algorithm
// pickers take as their cache), and the string quoting its writers need.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_TRANSFORMS_TEXTPROTO_H
#define HLO_LIB_TRANSFORMS_TEXTPROTO_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::hlo {

/// A protobuf text-format message: fields in order, each a scalar (its text,
/// strings unescaped) or a nested message.
struct TextMessage {
  struct Field {
    std::string name;
    std::string scalar;
    std::unique_ptr<TextMessage> message;
  };
  std::vector<Field> fields;

  const Field *get(StringRef name) const {
    for (const Field &f : fields)
      if (f.name == name)
        return &f;
    return nullptr;
  }
  const TextMessage *sub(StringRef name) const {
    const Field *f = get(name);
    return f ? f->message.get() : nullptr;
  }
  std::optional<StringRef> value(StringRef name) const {
    const Field *f = get(name);
    if (!f || f->message)
      return std::nullopt;
    return StringRef(f->scalar);
  }
};

/// Parses `text` into `msg`; the error (with its line) on failure.
std::optional<std::string> parseTextProto(StringRef text, TextMessage &msg);

/// Prints `text` as a text-format string: quoted, `"`, `\` and line breaks
/// escaped as parseTextProto reads them.
void printTextProtoString(llvm::raw_ostream &os, StringRef text);

} // namespace mlir::hlo

#endif // HLO_LIB_TRANSFORMS_TEXTPROTO_H
