// A kernel module the NVPTX back end cannot take (an op no dialect
// translates to LLVM IR) is an error at that module, with LLVM's reason,
// and hlo-opt exits non-zero.
// RUN: not hlo-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(hlo-embed-ptx{cubin=false})' 2>&1 | FileCheck %s
// The interpreter has no computation to run here (a kernel module alone:
// hlo-embed-ptx's results are checked by the interpreter and the host
// runtime in hlo-embed-ptx.hlo); the check says so and the error stays.
// RUN: not hlo-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(hlo-embed-ptx{cubin=false})' --hlo-check-semantics 2>&1 | FileCheck %s --check-prefixes=SEM,CHECK

// SEM: warning: semantics check disabled: the interpreter cannot run the module before the pipeline: the module has no computation
// CHECK: :[[# @LINE + 8]]:12: error: cannot be converted to LLVM IR
// CHECK: :[[# @LINE + 4]]:3: error: hlo-embed-ptx: the kernels could not be compiled to PTX

module attributes {gpu.container_module} {
  // The error is reported here.
  gpu.module @kernels {
    gpu.func @f(%arg0: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %0 = "unknown.op"() : () -> f32
      memref.store %0, %arg0[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
