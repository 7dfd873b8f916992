// f16 and bf16 values that only move (loads, stores, selects, block
// arguments, constants, bit casts, vector element moves) become i16 values
// on the host JIT's LLVM dialect; ops that read them as floats get a bit
// cast back; bit casts between equal types go.
// RUN: hlo-opt %s --split-input-file --hlo-llvm-narrow-floats-as-integers | FileCheck %s
// The pass works on the LLVM dialect, which the interpreter does not run;
// its semantics are checked on the HLO the host JIT lowers through it: the
// bf16 concatenate of test/Runtime/hlo-run-host-bf16-select.hlo, whose
// kernel joins two bf16 values, run on the host against the interpreter,
// bit for bit (without the pass its results lose their signs).
// RUN: %split-hlo %S/../Runtime/hlo-run-host-bf16-select.hlo %t
// RUN: hlo-run %t.0.hlo --random-inputs --device=host --check --allow-excess-precision=false --atol=0 --rtol=0 | FileCheck %s --check-prefix=HOST
// HOST: match: max abs diff 0

// The shape of the loop emitter's concatenate of bf16 converts (each branch
// the integer expansion of a truncf), the phi joining them and the integer
// expansion of the extf reading it: no bf16 is left.
// CHECK-LABEL: llvm.func @branches
// CHECK-NOT:     bf16
// CHECK:         llvm.cond_br %{{.*}}, ^bb1, ^bb2
// CHECK:       ^bb1:
// CHECK-NEXT:    llvm.br ^bb3(%{{.*}} : i16)
// CHECK:       ^bb2:
// CHECK-NEXT:    llvm.br ^bb3(%{{.*}} : i16)
// CHECK:       ^bb3(%[[P:.*]]: i16):
// CHECK-NEXT:    %[[Z:.*]] = llvm.zext %[[P]] : i16 to i32
// CHECK-NOT:     bf16
// CHECK:         llvm.return
llvm.func @branches(%c: i1, %a: i16, %b: i16) -> i32 {
  llvm.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = llvm.bitcast %a : i16 to bf16
  llvm.br ^bb3(%x : bf16)
^bb2:
  %y = llvm.bitcast %b : i16 to bf16
  llvm.br ^bb3(%y : bf16)
^bb3(%p: bf16):
  %i = llvm.bitcast %p : bf16 to i16
  %z = llvm.zext %i : i16 to i32
  llvm.return %z : i32
}

// -----

// Loads, stores, selects and constants take the bits; the NaN constant's
// bits are 0x7FC0 (32704).
// CHECK-LABEL: llvm.func @moves
// CHECK-DAG:     %[[NAN:.*]] = llvm.mlir.constant(32704 : i16) : i16
// CHECK-DAG:     %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i16
// CHECK:         %[[S:.*]] = llvm.select %{{.*}}, %[[NAN]], %[[V]] : i1, i16
// CHECK:         llvm.store %[[S]], %{{.*}} : i16, !llvm.ptr
llvm.func @moves(%c: i1, %src: !llvm.ptr, %dst: !llvm.ptr) {
  %nan = llvm.mlir.constant(0x7FC0 : bf16) : bf16
  %v = llvm.load %src : !llvm.ptr -> bf16
  %s = llvm.select %c, %nan, %v : i1, bf16
  llvm.store %s, %dst : bf16, !llvm.ptr
  llvm.return
}

// -----

// An op that reads a narrow float as a number (fpext) gets a bit cast back;
// one that makes one (fptrunc) a bit cast to the integer before a store.
// Vectors of f16 and their dense constants become vectors of i16. The
// function's own signature stays.
// CHECK-LABEL: llvm.func @readers
// CHECK:         %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i16
// CHECK:         %[[F:.*]] = llvm.bitcast %[[V]] : i16 to f16
// CHECK:         llvm.fpext %[[F]] : f16 to f32
// CHECK:         %[[T:.*]] = llvm.fptrunc %{{.*}} : f32 to f16
// CHECK:         %[[I:.*]] = llvm.bitcast %[[T]] : f16 to i16
// CHECK:         llvm.store %[[I]], %{{.*}} : i16, !llvm.ptr
// CHECK:         llvm.mlir.constant(dense<[15360, -16384]> : vector<2xi16>) : vector<2xi16>
// CHECK:         llvm.extractelement %{{.*}}[%{{.*}} : i32] : vector<2xi16>
// CHECK:         llvm.bitcast %{{.*}} : i16 to f16
// CHECK:         llvm.return %{{.*}} : f16
llvm.func @readers(%src: !llvm.ptr, %dst: !llvm.ptr, %k: i32) -> f16 {
  %v = llvm.load %src : !llvm.ptr -> f16
  %w = llvm.fpext %v : f16 to f32
  %t = llvm.fptrunc %w : f32 to f16
  llvm.store %t, %dst : f16, !llvm.ptr
  %c = llvm.mlir.constant(dense<[1.0, -2.0]> : vector<2xf16>) : vector<2xf16>
  %e = llvm.extractelement %c[%k : i32] : vector<2xf16>
  llvm.return %e : f16
}
