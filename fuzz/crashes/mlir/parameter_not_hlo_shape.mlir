// expect: error
// A computation parameter of a non-tensor type: the exporter cast it to a
// tensor type (undefined behavior, garbage printed).
hlo.computation @main(%a: f32) -> f32 attributes {entry} {
  hlo.return %a : f32
}
