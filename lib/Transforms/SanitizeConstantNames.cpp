//===- SanitizeConstantNames.cpp - hlo-sanitize-constant-names ------------===//
//
// XLA's SanitizeConstantNames (GPU-ir-emit-prepare): constants become
// globals of the generated code, named after the instruction, so their names
// must be identifiers the PTX backend takes without quoting (no `.`, `-`,
// `;`) and unique in the module. The other instructions keep their names
// (registered first); the constants are renamed in module order and made
// unique as XLA's NameUniquer with separator `_` does: a name ending in
// `_<digits>` is a root and a numeric suffix, and a suffix already taken for
// a root is replaced by the root's next free one.
//
//===----------------------------------------------------------------------===//

#include "TransformUtils.h"

#include "Hlo/Dialect/Hlo/HloDialect.h"
#include "Hlo/Transforms/BufferAssignmentPasses.h"
#include "Hlo/Translate/HloText.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::hlo {
#define GEN_PASS_DEF_HLOSANITIZECONSTANTNAMES
#include "Hlo/Transforms/BufferAssignmentPasses.h.inc"
} // namespace mlir::hlo

using namespace mlir;
using namespace mlir::hlo;

namespace {

/// XLA's NameUniquer: per root, the numeric suffixes in use and the next
/// one to try.
class NameUniquer {
public:
  std::string getUniqueName(StringRef prefix) {
    std::string root = sanitize(prefix.empty() ? "name" : prefix);
    std::optional<int64_t> suffix;
    size_t sep = StringRef(root).rfind('_');
    if (sep != StringRef::npos && sep > 0 && sep + 1 < root.size()) {
      int64_t n;
      if (!StringRef(root).drop_front(sep + 1).getAsInteger(10, n) && n >= 0) {
        suffix = n;
        root.resize(sep);
      }
    }
    Ids &ids = roots[root];
    int64_t id = suffix.value_or(0);
    if (!ids.used.insert(id).second) {
      while (!ids.used.insert(ids.next).second)
        ++ids.next;
      id = ids.next++;
    }
    if (id == 0 && !suffix)
      return root;
    return root + "_" + std::to_string(id);
  }

private:
  struct Ids {
    llvm::DenseSet<int64_t> used;
    int64_t next = 0;
  };

  /// XLA's NameUniquer::GetSanitizedName.
  static std::string sanitize(StringRef name) {
    std::string out = name.str();
    if (!llvm::isAlpha(out[0]) && out[0] != '_')
      out[0] = '_';
    for (char &c : llvm::MutableArrayRef<char>(out).drop_front())
      if (!llvm::isAlnum(c) && c != '_' && c != '.' && c != '-')
        c = '_';
    if (isPrimitiveTypeName(out))
      out += '_';
    if (StringRef(out).starts_with("__") &&
        !StringRef(out).starts_with("__xla_"))
      out[0] = 'a';
    return out;
  }

  /// HLO's element type keywords (not `tuple`), which cannot be names.
  static bool isPrimitiveTypeName(StringRef s) {
    static constexpr StringLiteral kTypes[] = {
        "pred",       "s2",         "s4",     "s8",
        "s16",        "s32",        "s64",    "u2",
        "u4",         "u8",         "u16",    "u32",
        "u64",        "f16",        "bf16",   "f32",
        "f64",        "c64",        "c128",   "token",
        "opaque",     "f8e5m2",     "f8e4m3", "f8e4m3fn",
        "f8e5m2fnuz", "f8e4m3fnuz", "f8e3m4", "f8e4m3b11fnuz",
        "f8e8m0fnu",  "f4e2m1fn"};
    return llvm::is_contained(kTypes, s);
  }

  llvm::StringMap<Ids> roots;
};

/// `loc` with its HLO name replaced by `name` (metadata kept).
Location renamed(Location loc, StringRef name) {
  StringAttr attr = StringAttr::get(loc.getContext(), name);
  if (auto n = dyn_cast<NameLoc>(loc))
    return NameLoc::get(attr, n.getChildLoc());
  return NameLoc::get(attr, loc);
}

struct SanitizeConstantNamesPass
    : ChangeReportingPass<SanitizeConstantNamesPass,
                          hlo::impl::HloSanitizeConstantNamesBase> {
  void run() {
    ModuleOp module = getOperation();
    DenseMap<Value, std::string> names = getHloInstructionNames(module);
    NameUniquer uniquer;
    SmallVector<ConstantOp> constants;
    for (auto comp : module.getOps<ComputationOp>()) {
      for (BlockArgument arg : comp.getBody().getArguments())
        uniquer.getUniqueName(names.lookup(arg));
      comp.walk([&](Operation *op) {
        if (auto c = dyn_cast<ConstantOp>(op))
          constants.push_back(c);
        else if (op->getNumResults() == 1)
          uniquer.getUniqueName(names.lookup(op->getResult(0)));
      });
    }
    for (ConstantOp c : constants) {
      std::string name = names.lookup(c.getResult());
      for (char &ch : name)
        if (ch == '.' || ch == '-' || ch == ';')
          ch = '_';
      name = uniquer.getUniqueName(name);
      auto current = dyn_cast<NameLoc>(c->getLoc());
      if (current && current.getName() == name)
        continue;
      if (name != names.lookup(c.getResult()))
        ++numRenamed;
      c->setLoc(renamed(c->getLoc(), name));
      changed = true;
    }
  }
};

} // namespace
