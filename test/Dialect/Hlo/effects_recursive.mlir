// RUN: hlo-opt %s --cse | FileCheck %s
// RUN: hlo-opt %s --hlo-cse --hlo-dce | FileCheck %s --check-prefix=HLO
// Indexing and everything built on it (the cost model, the schedulers)
// take a call back into a computation being composed as unknown.
// RUN: hlo-opt %s --hlo-test-print-indexing -o /dev/null 2>&1 | FileCheck %s --check-prefix=INDEX
// RUN: hlo-opt %s --hlo-test-print-cost -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST
// RUN: hlo-opt %s --hlo-test-print-fusion-benefit --hlo-test-print-schedule-time --hlo-latency-hiding-scheduler -o /dev/null
// INDEX: %call.2 operand 0 output-to-input:
// INDEX-NEXT: unknown: recursive call
// INDEX: %call.2 operand 0 input-to-output:
// INDEX-NEXT: unknown: recursive call
// COST: %call.2: flops=0 read=4 written=4
// So does the replication analysis (it recursed forever too).
// RUN: hlo-opt %s --hlo-test-print-replication -o /dev/null | FileCheck %s --check-prefix=REPL
// RUN: hlo-opt %s --hlo-all-reduce-simplifier --hlo-while-loop-all-reduce-code-motion | FileCheck %s --check-prefix=SAME
// REPL-LABEL: computation main
// REPL: %tuple: U U
// SAME-LABEL: hlo.computation @main
// SAME-COUNT-2: call %arg0 {to_apply = @a}

// HLO forbids recursion, but the IR can hold a recursive call graph: asking
// a call for its effects must not recurse forever (it overflowed the stack).
// The recursion adds nothing, so the two pure calls are one.
// CHECK-LABEL: hlo.computation @main
// CHECK-COUNT-1: call %arg0 {to_apply = @a}
// CHECK-NOT: call
// HLO-LABEL: hlo.computation @main
// HLO-COUNT-1: call
// HLO-NOT: call
module {
  hlo.computation private @a(%x: tensor<f32>) -> tensor<f32> {
    %0 = hlo.call %x {to_apply = @b} : (tensor<f32>) -> tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  hlo.computation private @b(%x: tensor<f32>) -> tensor<f32> {
    %0 = hlo.call %x {to_apply = @a} : (tensor<f32>) -> tensor<f32>
    hlo.return %0 : tensor<f32>
  }
  hlo.computation @main(%x: tensor<f32>) -> tuple<tensor<f32>, tensor<f32>> attributes {entry} {
    %0 = hlo.call %x {to_apply = @a} : (tensor<f32>) -> tensor<f32>
    %1 = hlo.call %x {to_apply = @a} : (tensor<f32>) -> tensor<f32>
    %t = hlo.tuple %0, %1 : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>>
    hlo.return %t : tuple<tensor<f32>, tensor<f32>>
  }
}
