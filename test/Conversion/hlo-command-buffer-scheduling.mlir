// RUN: hlo-opt %s --hlo-command-buffer-scheduling | FileCheck %s
// RUN: hlo-opt %s --hlo-command-buffer-scheduling=min-graph-size=2 | FileCheck %s --check-prefix=TWO
// The thunks and their order are kept: the program computes the same on
// the host runtime before and after.
// RUN: hlo-run %s --device=host --random-inputs --seed 3 > %t.before 2>/dev/null
// RUN: hlo-opt %s --hlo-command-buffer-scheduling=min-graph-size=2 -o %t.mlir
// RUN: hlo-run %t.mlir --device=host --random-inputs --seed 3 > %t.after 2>/dev/null
// RUN: diff %t.before %t.after
// RUN: not hlo-opt %s --hlo-command-buffer-scheduling=min-graph-size=0 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: hlo-command-buffer-scheduling: min-graph-size must be at least 1

module {
  thunk.allocation @p0 parameter size = 256 {parameter = 0 : i64}
  thunk.allocation @out output size = 256
  thunk.allocation @tmp temp size = 1024
  thunk.program @main attributes {argument_types = [memref<64xf32>], result_types = [memref<64xf32>]} {
    %p = thunk.slice @p0[0] : memref<64xf32>
    %a = thunk.slice @tmp[0] : memref<64xf32>
    %b = thunk.slice @tmp[256] : memref<64xf32>
    %out = thunk.slice @out[0] : memref<64xf32>
    %pred = thunk.slice @tmp[768] : memref<1xi8>
    // Six recordable thunks with a slice among them: one command buffer,
    // the slice in front of it.
    thunk.copy %p, %a : memref<64xf32>, memref<64xf32>
    thunk.memset %b, 1065353216 : memref<64xf32>
    %c = thunk.slice @tmp[512] : memref<64xf32>
    thunk.copy %a, %c : memref<64xf32>, memref<64xf32>
    thunk.copy %b, %a : memref<64xf32>, memref<64xf32>
    thunk.copy %c, %b : memref<64xf32>, memref<64xf32>
    thunk.memset %pred, 0 : memref<1xi8>
    // A loop ends a run; its body's two thunks are a run of their own.
    thunk.while %pred : memref<1xi8> condition {
    } body {
      thunk.copy %a, %c : memref<64xf32>, memref<64xf32>
      thunk.copy %c, %a : memref<64xf32>, memref<64xf32>
    }
    thunk.copy %b, %out : memref<64xf32>, memref<64xf32>
    thunk.return %out : memref<64xf32>
  }
}

// CHECK-LABEL: thunk.program @main
// CHECK:      %[[C:.*]] = thunk.slice @tmp[512]
// CHECK-NEXT: thunk.command_buffer {
// CHECK-NEXT:   thunk.copy
// CHECK-NEXT:   thunk.memset
// CHECK-NEXT:   thunk.copy %{{.*}}, %[[C]]
// CHECK-NEXT:   thunk.copy
// CHECK-NEXT:   thunk.copy
// CHECK-NEXT:   thunk.memset %{{.*}}, 0 : memref<1xi8>
// CHECK-NEXT: }
// CHECK-NEXT: thunk.while
// CHECK-NOT:  thunk.command_buffer
// CHECK:      thunk.return

// TWO:      thunk.command_buffer {
// TWO:      thunk.while
// TWO:      } body {
// TWO-NEXT:   thunk.command_buffer {
// TWO-NEXT:     thunk.copy
// TWO-NEXT:     thunk.copy
// TWO-NEXT:   }
// TWO-NEXT: }
// TWO-NEXT: thunk.copy
// TWO-NEXT: thunk.return
