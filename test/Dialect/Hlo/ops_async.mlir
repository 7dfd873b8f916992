// RUN: hlo-opt %s | hlo-opt | FileCheck %s

// Async chains (async_start -> async_update* -> async_done), copy_start/done,
// send/recv and their -done ops, infeed and outfeed.

hlo.computation @wrapped_all_to_all(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %0 = hlo.all_to_all %x {dimensions = array<i64: 1>, replica_groups = #hlo.replica_groups<"{{0,1},{2,3}}">} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  hlo.return %0 : tensor<4x2xf32>
}

hlo.computation @wrapped_custom(%x: tensor<10xf32>) -> tensor<20xf32> attributes {execution_thread = "parallel_thread"} {
  %0 = hlo.custom_call %x {custom_call_target = "foo"} : (tensor<10xf32>) -> tensor<20xf32>
  hlo.return %0 : tensor<20xf32>
}

// CHECK-LABEL: hlo.computation @async
hlo.computation @async(%x: tensor<4x2xf32>, %y: tensor<10xf32>) -> tensor<20xf32> {
  // CHECK: %0 = async_start %arg0 {calls = @wrapped_all_to_all} : (tensor<4x2xf32>) -> tuple<tuple<tensor<4x2xf32>>, tensor<4x2xf32>>
  %0 = hlo.async_start %x {calls = @wrapped_all_to_all} : (tensor<4x2xf32>) -> tuple<tuple<tensor<4x2xf32>>, tensor<4x2xf32>>
  // CHECK: %1 = async_done %0 : (tuple<tuple<tensor<4x2xf32>>, tensor<4x2xf32>>) -> tensor<4x2xf32>
  %1 = hlo.async_done %0 : (tuple<tuple<tensor<4x2xf32>>, tensor<4x2xf32>>) -> tensor<4x2xf32>
  // With a context element, updates and an execution thread.
  // CHECK: %2 = async_start %arg1 {async_execution_thread = "parallel_thread", calls = @wrapped_custom} : (tensor<10xf32>) -> tuple<tuple<tensor<10xf32>>, tensor<20xf32>, tensor<i32>>
  %2 = hlo.async_start %y {async_execution_thread = "parallel_thread", calls = @wrapped_custom} : (tensor<10xf32>) -> tuple<tuple<tensor<10xf32>>, tensor<20xf32>, tensor<i32>>
  // CHECK: %3 = async_update %2 : (tuple<tuple<tensor<10xf32>>, tensor<20xf32>, tensor<i32>>) -> tuple<tuple<tensor<10xf32>>, tensor<20xf32>, tensor<i32>>
  %3 = hlo.async_update %2 : (tuple<tuple<tensor<10xf32>>, tensor<20xf32>, tensor<i32>>) -> tuple<tuple<tensor<10xf32>>, tensor<20xf32>, tensor<i32>>
  // CHECK: %4 = async_update %3 {calls = @wrapped_custom} : (tuple<tuple<tensor<10xf32>>, tensor<20xf32>, tensor<i32>>) -> tuple<tuple<tensor<10xf32>>, tensor<20xf32>, tensor<i32>>
  %4 = hlo.async_update %3 {calls = @wrapped_custom} : (tuple<tuple<tensor<10xf32>>, tensor<20xf32>, tensor<i32>>) -> tuple<tuple<tensor<10xf32>>, tensor<20xf32>, tensor<i32>>
  // CHECK: %5 = async_done %4 {async_execution_thread = "parallel_thread", calls = @wrapped_custom} : (tuple<tuple<tensor<10xf32>>, tensor<20xf32>, tensor<i32>>) -> tensor<20xf32>
  %5 = hlo.async_done %4 {calls = @wrapped_custom, async_execution_thread = "parallel_thread"} : (tuple<tuple<tensor<10xf32>>, tensor<20xf32>, tensor<i32>>) -> tensor<20xf32>
  hlo.return %5 : tensor<20xf32>
}

// CHECK-LABEL: hlo.computation @copy_start_done
hlo.computation @copy_start_done(%x: tensor<2x3xf32, #hlo.layout<[1, 0], memory_space = 1>>) -> tensor<2x3xf32, #hlo.layout<[1, 0], memory_space = 2>> {
  // The destination may differ from the source in layout (memory space).
  // CHECK: %0 = copy_start %arg0 {cross_program_prefetch_index = 0 : i64} : (tensor<2x3xf32, #hlo.layout<[1, 0], memory_space = 1>>) -> tuple<tensor<2x3xf32, #hlo.layout<[1, 0], memory_space = 2>>, tensor<2x3xf32, #hlo.layout<[1, 0], memory_space = 1>>, tensor<ui32>>
  %0 = hlo.copy_start %x {cross_program_prefetch_index = 0 : i64} : (tensor<2x3xf32, #hlo.layout<[1, 0], memory_space = 1>>) -> tuple<tensor<2x3xf32, #hlo.layout<[1, 0], memory_space = 2>>, tensor<2x3xf32, #hlo.layout<[1, 0], memory_space = 1>>, tensor<ui32>>
  // CHECK: %1 = copy_done %0 : (tuple<tensor<2x3xf32, #hlo.layout<[1, 0], memory_space = 2>>, tensor<2x3xf32, #hlo.layout<[1, 0], memory_space = 1>>, tensor<ui32>>) -> tensor<2x3xf32, #hlo.layout<[1, 0], memory_space = 2>>
  %1 = hlo.copy_done %0 : (tuple<tensor<2x3xf32, #hlo.layout<[1, 0], memory_space = 2>>, tensor<2x3xf32, #hlo.layout<[1, 0], memory_space = 1>>, tensor<ui32>>) -> tensor<2x3xf32, #hlo.layout<[1, 0], memory_space = 2>>
  hlo.return %1 : tensor<2x3xf32, #hlo.layout<[1, 0], memory_space = 2>>
}

// CHECK-LABEL: hlo.computation @send_recv
hlo.computation @send_recv(%x: tensor<4xf32>, %t: !hlo.token) -> tuple<tensor<4xf32>, !hlo.token> {
  // CHECK: %0 = send %arg0, %arg1 {channel_id = 3 : i64, is_host_transfer = true} : (tensor<4xf32>, !hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  %0 = hlo.send %x, %t {channel_id = 3 : i64, is_host_transfer = true} : (tensor<4xf32>, !hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  // CHECK: %1 = send_done %0 {channel_id = 3 : i64, is_host_transfer = true} : (tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>) -> !hlo.token
  %1 = hlo.send_done %0 {channel_id = 3 : i64, is_host_transfer = true} : (tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>) -> !hlo.token
  // CHECK: %2 = recv %1 {channel_id = 5 : i64} : (!hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  %2 = hlo.recv %1 {channel_id = 5 : i64} : (!hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  // CHECK: %3 = recv_done %2 {channel_id = 5 : i64} : (tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>) -> tuple<tensor<4xf32>, !hlo.token>
  %3 = hlo.recv_done %2 {channel_id = 5 : i64} : (tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>) -> tuple<tensor<4xf32>, !hlo.token>
  // Sending an empty tuple.
  // CHECK: %5 = send %4, %arg1 {channel_id = 7 : i64} : (tuple<>, !hlo.token) -> tuple<tuple<>, tensor<ui32>, !hlo.token>
  %4 = hlo.tuple : () -> tuple<>
  %5 = hlo.send %4, %t {channel_id = 7 : i64} : (tuple<>, !hlo.token) -> tuple<tuple<>, tensor<ui32>, !hlo.token>
  %6 = hlo.send_done %5 {channel_id = 7 : i64} : (tuple<tuple<>, tensor<ui32>, !hlo.token>) -> !hlo.token
  hlo.return %3 : tuple<tensor<4xf32>, !hlo.token>
}

// CHECK-LABEL: hlo.computation @infeed_outfeed
hlo.computation @infeed_outfeed(%t: !hlo.token) -> !hlo.token {
  // CHECK: %0 = infeed %arg0 {infeed_config = "cfg"} : (!hlo.token) -> tuple<tuple<tensor<3xui32>, tensor<i1>>, !hlo.token>
  %0 = hlo.infeed %t {infeed_config = "cfg"} : (!hlo.token) -> tuple<tuple<tensor<3xui32>, tensor<i1>>, !hlo.token>
  %1 = hlo.get_tuple_element %0 {index = 0 : i64} : (tuple<tuple<tensor<3xui32>, tensor<i1>>, !hlo.token>) -> tuple<tensor<3xui32>, tensor<i1>>
  %2 = hlo.get_tuple_element %0 {index = 1 : i64} : (tuple<tuple<tensor<3xui32>, tensor<i1>>, !hlo.token>) -> !hlo.token
  // CHECK: %3 = outfeed %1, %2 {outfeed_shape = tuple<tensor<3xui32, #hlo.layout<[0]>>, tensor<i1>>} : (tuple<tensor<3xui32>, tensor<i1>>, !hlo.token) -> !hlo.token
  %3 = hlo.outfeed %1, %2 {outfeed_shape = tuple<tensor<3xui32, #hlo.layout<[0]>>, tensor<i1>>} : (tuple<tensor<3xui32>, tensor<i1>>, !hlo.token) -> !hlo.token
  hlo.return %3 : !hlo.token
}
