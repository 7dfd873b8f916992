//===- Npy.h - NumPy .npy files <-> interpreter literals --------*- C++ -*-===//
//
// A reader and writer of NumPy's .npy format (versions 1.0, 2.0 and 3.0:
// magic, header length, a Python dict literal with 'descr',
// 'fortran_order' and 'shape', then the raw elements), for the arrays that
// hlo-run takes as inputs and writes as results.
//
// Element types and the dtypes that carry them (docs/runtime.md):
//
//   pred          b1
//   s8..s64       i1 i2 i4 i8         u8..u64   u1 u2 u4 u8
//   s1 s2 s4      i1 (value), or V1 (raw byte, low bits)
//   u1 u2 u4      u1 (value), or V1 (raw byte, low bits)
//   f16 f32 f64   f2 f4 f8
//   c64 c128      c8 c16
//   bf16, f8*, f6*, f4*: no NumPy dtype. VN (raw bytes of the type's bit
//                 pattern, N = bytes per element) as ml_dtypes writes them
//                 ('<V2' for bfloat16, '<V1' for float8_*); `f1` (which
//                 ml_dtypes writes for float8_e5m2) is read as raw too.
//
// Writing uses the first spelling of each row ('|V2' for bf16, i1/u1 for
// sub-byte integers). Byte orders '<', '>', '|' and '=' are read; files are
// written little-endian. Fortran-order files are read (and reordered).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_TOOLS_HLO_RUN_NPY_H
#define HLO_TOOLS_HLO_RUN_NPY_H

#include "Hlo/Runtime/Literal.h"
#include "Hlo/Runtime/SemanticsCheck.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace hlo_run {

/// What a .npy header says.
struct NpyHeader {
  std::string descr;        // as written, e.g. "<f4"
  char byteOrder = '|';     // '<', '>' or '|'
  char kind = 0;            // 'b', 'i', 'u', 'f', 'c', 'V'
  unsigned itemSize = 0;    // bytes per element
  bool fortranOrder = false;
  llvm::SmallVector<int64_t> shape;
  size_t dataOffset = 0;    // where the elements start in the file
};

/// Parses the header of a .npy file held in `bytes`.
mlir::FailureOr<NpyHeader> parseNpyHeader(llvm::StringRef bytes,
                                          std::string &error);

/// Decodes a .npy file (`bytes`) as an array of type `expected` (a ranked
/// tensor type with static shape; a layout encoding is ignored). The dtype
/// must carry the element type (table above) and the shape must be equal;
/// otherwise `error` says what was expected and what the file holds.
mlir::FailureOr<mlir::hlo::runtime::Literal>
decodeNpy(llvm::StringRef bytes, mlir::RankedTensorType expected,
          std::string &error);

/// Reads and decodes the file at `path` (errors do not name the file).
mlir::FailureOr<mlir::hlo::runtime::Literal>
readNpy(llvm::StringRef path, mlir::RankedTensorType expected,
        std::string &error);

/// Encodes an array literal as a .npy (version 1.0, or 2.0 when the header
/// does not fit) file; fails for element types with no dtype here (tf32).
mlir::FailureOr<std::string>
encodeNpy(const mlir::hlo::runtime::Literal &literal, std::string &error);

/// Encodes and writes `literal` to `path`.
mlir::LogicalResult writeNpy(llvm::StringRef path,
                             const mlir::hlo::runtime::Literal &literal,
                             std::string &error);

/// The dtype descr written for `elementType` ("<f4", "|b1", "|V2"), or ""
/// when there is none.
std::string npyDescrFor(mlir::Type elementType);

using mlir::hlo::runtime::hloShapeString;

} // namespace hlo_run

#endif // HLO_TOOLS_HLO_RUN_NPY_H
