//===- CudaSolvers.h - trsm by cuBLAS, potrf by cuSOLVER --------*- C++ -*-===//
//
// thunk.triangular_solve as cuBLAS trsm calls and thunk.cholesky as
// cuSOLVER potrf calls, one per matrix of the batch, on the runtime's
// stream. XLA's thunks use the batched forms with pointer arrays in their
// scratch; the loop computes the same and needs no scratch.
//
//===----------------------------------------------------------------------===//

#ifndef HLO_LIB_RUNTIME_CUDA_CUDASOLVERS_H
#define HLO_LIB_RUNTIME_CUDA_CUDASOLVERS_H

#include "CudaApi.h"

#include "Hlo/Dialect/Thunk/ThunkDialect.h"

#include <string>

namespace mlir::thunk::cuda {

/// The device workspace bytes potrf asks for one matrix of `op`; fails
/// (with `error`) for element types cuSOLVER does not take.
FailureOr<size_t> choleskyWorkspaceBytes(const Cusolver &solver, CholeskyOp op,
                                         std::string &error);

/// Solves in place at `b` against the matrices at `a`.
LogicalResult runTriangularSolve(const Cublas &blas, TriangularSolveOp op,
                                 CUdeviceptr a, CUdeviceptr b, CUstream stream,
                                 std::string &error);

/// Factors the matrices at `a` in place, one i32 per matrix at `info`;
/// `workspace` holds at least choleskyWorkspaceBytes.
LogicalResult runCholesky(const Cusolver &solver, CholeskyOp op, CUdeviceptr a,
                          CUdeviceptr info, CUdeviceptr workspace,
                          size_t workspaceBytes, CUstream stream,
                          std::string &error);

} // namespace mlir::thunk::cuda

#endif // HLO_LIB_RUNTIME_CUDA_CUDASOLVERS_H
