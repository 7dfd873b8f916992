//===- Factorizations.h - the factorization thunks on the CPU ---*- C++ -*-===//
//
// thunk.qr, thunk.householder_product, thunk.lu,
// thunk.lu_pivots_to_permutation, thunk.eigh, thunk.eig, thunk.svd,
// thunk.schur, thunk.hessenberg, thunk.tridiagonal and
// thunk.tridiagonal_solve computed on the CPU by LAPACK (OpenBLAS's, through
// MLIRHloLapack), shared by the runtimes: the host runtime runs them on its
// arena, the CUDA runtime on copies of their slices (no cuSOLVER calls for them
// yet).
//
//===----------------------------------------------------------------------===//

#ifndef HLO_RUNTIME_THUNK_FACTORIZATIONS_H
#define HLO_RUNTIME_THUNK_FACTORIZATIONS_H

#include "mlir/IR/Operation.h"

#include <string>

namespace mlir::thunk {

/// Whether `op` is one of the thunks above.
bool isFactorization(Operation *op);

/// Runs the factorization thunk `op` on `buffers`, the bytes of its operands
/// in order (matrices column-major, as the slices' types say).
LogicalResult runFactorization(Operation *op, ArrayRef<uint8_t *> buffers,
                               std::string &error);

} // namespace mlir::thunk

#endif // HLO_RUNTIME_THUNK_FACTORIZATIONS_H
