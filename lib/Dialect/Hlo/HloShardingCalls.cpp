//===- HloShardingCalls.cpp - custom calls that annotate sharding ---------===//

#include "Hlo/Dialect/Hlo/HloShardingCalls.h"
#include "Hlo/Dialect/Hlo/HloDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::hlo;

static constexpr llvm::StringLiteral kUnspecifiedDims = "unspecified_dims=";

FailureOr<SmallVector<int64_t>>
mlir::hlo::readUnspecifiedDims(Operation *op, std::string &why) {
  auto config = op->getAttrOfType<StringAttr>("backend_config");
  StringRef text = config ? config.getValue().trim() : StringRef();
  SmallVector<int64_t> dims;
  if (!text.consume_front(kUnspecifiedDims))
    return dims;
  auto bad = [&](const Twine &what) -> FailureOr<SmallVector<int64_t>> {
    why = ("unspecified_dims " + what).str();
    return failure();
  };
  text = text.trim();
  if (!text.consume_front("[") || !text.consume_back("]"))
    return bad("must be a list [d, ...]");
  int64_t rank = -1;
  OperandRange in = getDataOperands(op);
  if (in.size() == 1)
    if (auto t = dyn_cast<RankedTensorType>(in[0].getType()))
      rank = t.getRank();
  if (rank < 0)
    return bad("needs the call to take one array");
  llvm::SmallSet<int64_t, 4> seen;
  SmallVector<StringRef> parts;
  if (!text.trim().empty())
    text.split(parts, ',');
  for (StringRef part : parts) {
    int64_t d;
    if (part.trim().getAsInteger(10, d))
      return bad("has '" + part.trim() + "', not a dimension");
    if (d < 0 || d >= rank)
      return bad("names dimension " + Twine(d) + " of an array of rank " +
                 Twine(rank));
    if (!seen.insert(d).second)
      return bad("names dimension " + Twine(d) + " twice");
    dims.push_back(d);
  }
  return dims;
}

std::string mlir::hlo::printUnspecifiedDims(ArrayRef<int64_t> dims) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << kUnspecifiedDims << "[";
  llvm::interleave(dims, os, ",");
  os << "]";
  return text;
}
