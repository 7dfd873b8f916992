// RUN: hlo-opt %s -split-input-file -verify-diagnostics

// Async chains (start -> update* -> done), copy_start/copy_done, send/recv,
// infeed and outfeed.

hlo.computation @wrapped(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.custom_call %x {custom_call_target = "foo"} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation @done_without_start(%x: tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.async_done' op operand must be produced by async_start or async_update}}
  %0 = hlo.async_done %x : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @update_without_start(%x: tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.async_update' op operand must be produced by async_start or async_update}}
  %0 = hlo.async_update %x : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>>
  %1 = hlo.async_done %0 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tensor<4xf32>
  hlo.return %1 : tensor<4xf32>
}

// -----

hlo.computation @wrapped(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.custom_call %x {custom_call_target = "foo"} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation @done_of_other_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = hlo.tuple %x : (tensor<4xf32>) -> tuple<tensor<4xf32>>
  %0 = hlo.tuple %t, %x : (tuple<tensor<4xf32>>, tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>>
  // expected-error @+1 {{'hlo.async_done' op operand must be produced by async_start or async_update}}
  %1 = hlo.async_done %0 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tensor<4xf32>
  hlo.return %1 : tensor<4xf32>
}

// -----

hlo.computation @wrapped(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.custom_call %x {custom_call_target = "foo"} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation @start_two_users(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.async_start' op must have exactly one user (an async_update or async_done), has 2}}
  %0 = hlo.async_start %x {calls = @wrapped} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>>
  %1 = hlo.async_done %0 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tensor<4xf32>
  %2 = hlo.async_done %0 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tensor<4xf32>
  hlo.return %1 : tensor<4xf32>
}

// -----

hlo.computation @wrapped(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.custom_call %x {custom_call_target = "foo"} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation @start_no_user(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.async_start' op must have exactly one user (an async_update or async_done), has 0}}
  %0 = hlo.async_start %x {calls = @wrapped} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>>
  hlo.return %x : tensor<4xf32>
}

// -----

hlo.computation @wrapped(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.custom_call %x {custom_call_target = "foo"} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation @start_wrong_user(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.async_start' op is used by 'hlo.get_tuple_element'; only async_update or async_done may}}
  %0 = hlo.async_start %x {calls = @wrapped} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>>
  %1 = hlo.get_tuple_element %0 {index = 1 : i64} : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tensor<4xf32>
  hlo.return %1 : tensor<4xf32>
}

// -----

hlo.computation @wrapped(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.custom_call %x {custom_call_target = "foo"} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation @update_two_users(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.async_start %x {calls = @wrapped} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>>
  // expected-error @+1 {{'hlo.async_update' op must have exactly one user (an async_update or async_done), has 2}}
  %1 = hlo.async_update %0 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>>
  %2 = hlo.async_done %1 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tensor<4xf32>
  %3 = hlo.async_done %1 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tensor<4xf32>
  hlo.return %2 : tensor<4xf32>
}

// -----

hlo.computation @wrapped(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.custom_call %x {custom_call_target = "foo"} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation @update_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.async_start %x {calls = @wrapped} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>>
  // expected-error @+1 {{'hlo.async_update' op result type 'tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>>' must equal the operand type 'tuple<tuple<tensor<4xf32>>, tensor<4xf32>>'}}
  %1 = hlo.async_update %0 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>>
  %2 = hlo.async_done %1 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
  hlo.return %2 : tensor<4xf32>
}

// -----

hlo.computation @wrapped_copy(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.copy %x : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation @wrap_copy(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.async_start' op may not wrap 'hlo.copy', which has its own -start/-done form}}
  %0 = hlo.async_start %x {calls = @wrapped_copy} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>>
  %1 = hlo.async_done %0 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tensor<4xf32>
  hlo.return %1 : tensor<4xf32>
}

// -----

hlo.computation @add(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = hlo.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
  hlo.return %0 : tensor<f32>
}

hlo.computation @wrapped_all_reduce(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.all_reduce %x {to_apply = @add} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation @wrap_all_reduce(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.async_start' op may not wrap 'hlo.all_reduce', which has its own -start/-done form}}
  %0 = hlo.async_start %x {calls = @wrapped_all_reduce} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>>
  %1 = hlo.async_done %0 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tensor<4xf32>
  hlo.return %1 : tensor<4xf32>
}

// -----

hlo.computation @wrapped_all_gather(%x: tensor<4xf32>) -> tensor<8xf32> {
  %0 = hlo.all_gather %x {dimensions = array<i64: 0>, replica_groups = #hlo.replica_groups<"{{0,1}}">} : (tensor<4xf32>) -> tensor<8xf32>
  hlo.return %0 : tensor<8xf32>
}

hlo.computation @wrap_all_gather(%x: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'hlo.async_start' op may not wrap 'hlo.all_gather', which has its own -start/-done form}}
  %0 = hlo.async_start %x {calls = @wrapped_all_gather} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<8xf32>>
  %1 = hlo.async_done %0 : (tuple<tuple<tensor<4xf32>>, tensor<8xf32>>) -> tensor<8xf32>
  hlo.return %1 : tensor<8xf32>
}

// -----

hlo.computation @wrapped_permute(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.collective_permute %x {source_target_pairs = [array<i64: 0, 1>, array<i64: 1, 0>]} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation @wrap_collective_permute(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.async_start' op may not wrap 'hlo.collective_permute', which has its own -start/-done form}}
  %0 = hlo.async_start %x {calls = @wrapped_permute} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>>
  %1 = hlo.async_done %0 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tensor<4xf32>
  hlo.return %1 : tensor<4xf32>
}

// -----

hlo.computation @wrapped_send(%x: tensor<4xf32>, %t: !hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token> {
  %0 = hlo.send %x, %t {channel_id = 1 : i64} : (tensor<4xf32>, !hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  hlo.return %0 : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
}

hlo.computation @wrap_send(%x: tensor<4xf32>, %t: !hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token> {
  // expected-error @+1 {{'hlo.async_start' op may not wrap 'hlo.send', which has its own -start/-done form}}
  %0 = hlo.async_start %x, %t {calls = @wrapped_send} : (tensor<4xf32>, !hlo.token) -> tuple<tuple<tensor<4xf32>, !hlo.token>, tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>>
  %1 = hlo.async_done %0 : (tuple<tuple<tensor<4xf32>, !hlo.token>, tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>>) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  hlo.return %1 : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
}

// -----

hlo.computation @wrapped_recv(%t: !hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token> {
  %0 = hlo.recv %t {channel_id = 1 : i64} : (!hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  hlo.return %0 : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
}

hlo.computation @wrap_recv(%t: !hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token> {
  // expected-error @+1 {{'hlo.async_start' op may not wrap 'hlo.recv', which has its own -start/-done form}}
  %0 = hlo.async_start %t {calls = @wrapped_recv} : (!hlo.token) -> tuple<tuple<!hlo.token>, tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>>
  %1 = hlo.async_done %0 : (tuple<tuple<!hlo.token>, tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>>) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  hlo.return %1 : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
}

// -----

hlo.computation @wrapped(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.custom_call %x {custom_call_target = "foo"} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation @start_not_tuple(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.async_start' op result must be a tuple ((operands), outputs, context...), got 'tensor<4xf32>'}}
  %0 = hlo.async_start %x {calls = @wrapped} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @wrapped(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.custom_call %x {custom_call_target = "foo"} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation @start_operand_tuple(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.async_start' op tuple element 0 'tuple<tensor<4xi32>>' must be the tuple of operand types}}
  %0 = hlo.async_start %x {calls = @wrapped} : (tensor<4xf32>) -> tuple<tuple<tensor<4xi32>>, tensor<4xf32>>
  %1 = hlo.async_done %0 : (tuple<tuple<tensor<4xi32>>, tensor<4xf32>>) -> tensor<4xf32>
  hlo.return %1 : tensor<4xf32>
}

// -----

hlo.computation @wrapped(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.custom_call %x {custom_call_target = "foo"} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation @start_signature(%x: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'hlo.async_start' op calls computation returns 'tensor<4xf32>', expected 'tensor<8xf32>'}}
  %0 = hlo.async_start %x {calls = @wrapped} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<8xf32>>
  %1 = hlo.async_done %0 : (tuple<tuple<tensor<4xf32>>, tensor<8xf32>>) -> tensor<8xf32>
  hlo.return %1 : tensor<8xf32>
}

// -----

hlo.computation @start_unknown(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.async_start' op calls refers to unknown computation @nowhere}}
  %0 = hlo.async_start %x {calls = @nowhere} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>>
  %1 = hlo.async_done %0 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tensor<4xf32>
  hlo.return %1 : tensor<4xf32>
}

// -----

hlo.computation @wrapped(%x: tensor<4xf32>) -> tensor<4xf32> attributes {execution_thread = "parallel_thread"} {
  %0 = hlo.custom_call %x {custom_call_target = "foo"} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation @start_thread(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.async_start' op async_execution_thread "other_thread" differs from the execution_thread "parallel_thread" of @wrapped}}
  %0 = hlo.async_start %x {calls = @wrapped, async_execution_thread = "other_thread"} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>>
  %1 = hlo.async_done %0 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tensor<4xf32>
  hlo.return %1 : tensor<4xf32>
}

// -----

hlo.computation @wrapped(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.custom_call %x {custom_call_target = "foo"} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation @wrapped2(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.custom_call %x {custom_call_target = "bar"} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation @done_calls(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.async_start %x {calls = @wrapped} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>>
  // expected-error @+1 {{'hlo.async_done' op calls @wrapped2 differs from its start's @wrapped}}
  %1 = hlo.async_done %0 {calls = @wrapped2} : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tensor<4xf32>
  hlo.return %1 : tensor<4xf32>
}

// -----

hlo.computation @wrapped(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.custom_call %x {custom_call_target = "foo"} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation @update_thread(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.async_start %x {calls = @wrapped, async_execution_thread = "a"} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>>
  // expected-error @+1 {{'hlo.async_update' op async_execution_thread "b" differs from its start's "a"}}
  %1 = hlo.async_update %0 {async_execution_thread = "b"} : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>>
  %2 = hlo.async_done %1 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tensor<4xf32>
  hlo.return %2 : tensor<4xf32>
}

// -----

hlo.computation @wrapped(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hlo.custom_call %x {custom_call_target = "foo"} : (tensor<4xf32>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

hlo.computation @done_result(%x: tensor<4xf32>) -> tensor<4xi32> {
  %0 = hlo.async_start %x {calls = @wrapped} : (tensor<4xf32>) -> tuple<tuple<tensor<4xf32>>, tensor<4xf32>>
  // expected-error @+1 {{'hlo.async_done' op result type 'tensor<4xi32>' must be element 1 of the start's tuple}}
  %1 = hlo.async_done %0 : (tuple<tuple<tensor<4xf32>>, tensor<4xf32>>) -> tensor<4xi32>
  hlo.return %1 : tensor<4xi32>
}

// -----

hlo.computation @copy_start_tuple(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.copy_start' op result type 'tuple<tensor<4xf32>, tensor<4xf32>>' should be 'tuple<tensor<4xf32>, tensor<4xf32>, tensor<ui32>>' ((destination, source, u32 context))}}
  %0 = hlo.copy_start %x : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  hlo.return %x : tensor<4xf32>
}

// -----

hlo.computation @copy_start_users(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.copy_start' op must have exactly one user (its copy_done), has 2}}
  %0 = hlo.copy_start %x : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<ui32>>
  %1 = hlo.copy_done %0 : (tuple<tensor<4xf32>, tensor<4xf32>, tensor<ui32>>) -> tensor<4xf32>
  %2 = hlo.copy_done %0 : (tuple<tensor<4xf32>, tensor<4xf32>, tensor<ui32>>) -> tensor<4xf32>
  hlo.return %1 : tensor<4xf32>
}

// -----

hlo.computation @copy_done_operand(%x: tuple<tensor<4xf32>, tensor<4xf32>, tensor<ui32>>) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.copy_done' op operand must be produced by copy_start}}
  %0 = hlo.copy_done %x : (tuple<tensor<4xf32>, tensor<4xf32>, tensor<ui32>>) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @copy_done_result(%x: tensor<4xf32>) -> tensor<2xf32> {
  %0 = hlo.copy_start %x : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<ui32>>
  // expected-error @+1 {{'hlo.copy_done' op result type 'tensor<2xf32>' must be element 0 of the copy_start tuple}}
  %1 = hlo.copy_done %0 : (tuple<tensor<4xf32>, tensor<4xf32>, tensor<ui32>>) -> tensor<2xf32>
  hlo.return %1 : tensor<2xf32>
}

// -----

hlo.computation @send_token(%x: tensor<4xf32>, %y: tensor<f32>) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token> {
  // expected-error @+1 {{'hlo.send' op token operand must be a token, got 'tensor<f32>'}}
  %0 = hlo.send %x, %y {channel_id = 1 : i64} : (tensor<4xf32>, tensor<f32>) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  hlo.return %0 : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
}

// -----

hlo.computation @send_result(%x: tensor<4xf32>, %t: !hlo.token) -> tuple<tensor<4xf32>, !hlo.token> {
  // expected-error @+1 {{'hlo.send' op result must be a (data, u32[] context, token) tuple, got 'tuple<tensor<4xf32>, !hlo.token>'}}
  %0 = hlo.send %x, %t {channel_id = 1 : i64} : (tensor<4xf32>, !hlo.token) -> tuple<tensor<4xf32>, !hlo.token>
  hlo.return %0 : tuple<tensor<4xf32>, !hlo.token>
}

// -----

hlo.computation @send_data(%x: tensor<4xf32>, %t: !hlo.token) -> tuple<tensor<2xf32>, tensor<ui32>, !hlo.token> {
  // expected-error @+1 {{'hlo.send' op result element 0 'tensor<2xf32>' must be the data type 'tensor<4xf32>'}}
  %0 = hlo.send %x, %t {channel_id = 1 : i64} : (tensor<4xf32>, !hlo.token) -> tuple<tensor<2xf32>, tensor<ui32>, !hlo.token>
  hlo.return %0 : tuple<tensor<2xf32>, tensor<ui32>, !hlo.token>
}

// -----

hlo.computation @send_done_result(%x: tensor<4xf32>, %t: !hlo.token) -> tensor<4xf32> {
  %0 = hlo.send %x, %t {channel_id = 1 : i64} : (tensor<4xf32>, !hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  // expected-error @+1 {{'hlo.send_done' op result must be a token, got 'tensor<4xf32>'}}
  %1 = hlo.send_done %0 {channel_id = 1 : i64} : (tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>) -> tensor<4xf32>
  hlo.return %1 : tensor<4xf32>
}

// -----

hlo.computation @send_done_channel(%x: tensor<4xf32>, %t: !hlo.token) -> !hlo.token {
  %0 = hlo.send %x, %t {channel_id = 1 : i64} : (tensor<4xf32>, !hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  // expected-error @+1 {{'hlo.send_done' op channel_id 2 differs from its start's 1}}
  %1 = hlo.send_done %0 {channel_id = 2 : i64} : (tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>) -> !hlo.token
  hlo.return %1 : !hlo.token
}

// -----

hlo.computation @recv_operand(%x: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token> {
  // expected-error @+1 {{'hlo.recv' op operand must be a token, got 'tensor<4xf32>'}}
  %0 = hlo.recv %x {channel_id = 1 : i64} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  hlo.return %0 : tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
}

// -----

hlo.computation @recv_result(%t: !hlo.token) -> tuple<tensor<4xf32>, tensor<i32>, !hlo.token> {
  // expected-error @+1 {{'hlo.recv' op result must be a (data, u32[] context, token) tuple, got 'tuple<tensor<4xf32>, tensor<i32>, !hlo.token>'}}
  %0 = hlo.recv %t {channel_id = 1 : i64} : (!hlo.token) -> tuple<tensor<4xf32>, tensor<i32>, !hlo.token>
  hlo.return %0 : tuple<tensor<4xf32>, tensor<i32>, !hlo.token>
}

// -----

hlo.computation @recv_done_result(%t: !hlo.token) -> tuple<tensor<2xf32>, !hlo.token> {
  %0 = hlo.recv %t {channel_id = 1 : i64} : (!hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  // expected-error @+1 {{'hlo.recv_done' op result type 'tuple<tensor<2xf32>, !hlo.token>' should be 'tuple<tensor<4xf32>, !hlo.token>' ((data, token))}}
  %1 = hlo.recv_done %0 {channel_id = 1 : i64} : (tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>) -> tuple<tensor<2xf32>, !hlo.token>
  hlo.return %1 : tuple<tensor<2xf32>, !hlo.token>
}

// -----

hlo.computation @recv_done_channel(%t: !hlo.token) -> tuple<tensor<4xf32>, !hlo.token> {
  %0 = hlo.recv %t {channel_id = 1 : i64} : (!hlo.token) -> tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>
  // expected-error @+1 {{'hlo.recv_done' op channel_id 3 differs from its start's 1}}
  %1 = hlo.recv_done %0 {channel_id = 3 : i64} : (tuple<tensor<4xf32>, tensor<ui32>, !hlo.token>) -> tuple<tensor<4xf32>, !hlo.token>
  hlo.return %1 : tuple<tensor<4xf32>, !hlo.token>
}

// -----

hlo.computation @infeed_result(%t: !hlo.token) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.infeed' op result must be a (data, token) tuple, got 'tensor<4xf32>'}}
  %0 = hlo.infeed %t : (!hlo.token) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}

// -----

hlo.computation @outfeed_shape(%x: tensor<4xf32>, %t: !hlo.token) -> !hlo.token {
  // expected-error @+1 {{'hlo.outfeed' op outfeed_shape 'tensor<5xf32>' must match the operand type 'tensor<4xf32>'}}
  %0 = hlo.outfeed %x, %t {outfeed_shape = tensor<5xf32>} : (tensor<4xf32>, !hlo.token) -> !hlo.token
  hlo.return %0 : !hlo.token
}

// -----

hlo.computation @outfeed_result(%x: tensor<4xf32>, %t: !hlo.token) -> tensor<4xf32> {
  // expected-error @+1 {{'hlo.outfeed' op result must be a token, got 'tensor<4xf32>'}}
  %0 = hlo.outfeed %x, %t : (tensor<4xf32>, !hlo.token) -> tensor<4xf32>
  hlo.return %0 : tensor<4xf32>
}
