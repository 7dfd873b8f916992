// RUN: hlo-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{invalid indexing map '(d0) -> (d0)': expected '<affine map>, domain: <variable> in [<lower>, <upper>], ...'}}
func.func private @no_domain() attributes {m = #hlo.indexing_map<"(d0) -> (d0)">}

// -----

// expected-error @+1 {{invalid indexing map}}
func.func private @missing_dim_bound() attributes {m = #hlo.indexing_map<"(d0, d1) -> (d0), domain: d0 in [0, 3]">}

// -----

// expected-error @+1 {{invalid indexing map}}
func.func private @bad_interval() attributes {m = #hlo.indexing_map<"(d0) -> (d0), domain: d0 in [0; 3]">}

// -----

// expected-error @+1 {{invalid indexing map}}
func.func private @bad_constraint() attributes {m = #hlo.indexing_map<"(d0) -> (d0), domain: d0 in [0, 3], d7 mod 2 in [0, 0]">}

// -----

// expected-error @+1 {{invalid indexing map}}
func.func private @bad_affine_map() attributes {m = #hlo.indexing_map<"(d0) -> (d0 +), domain: d0 in [0, 3]">}

// -----

// expected-error @+1 {{invalid indexing map '(d0)[s0] -> (d0 + s0), domain: d0 in [0, 3], s0 in [0, 1], hlo: x = s32[2] parameter(0), (d0, d1) -> (0)': a runtime variable's map must take the indexing map's dimensions (and optionally its symbols)}}
func.func private @runtime_map_dims() attributes {m = #hlo.indexing_map<"(d0)[s0] -> (d0 + s0), domain: d0 in [0, 3], s0 in [0, 1], hlo: x = s32[2] parameter(0), (d0, d1) -> (0)">}

// -----

// expected-error @+1 {{expected string}}
func.func private @not_a_string() attributes {m = #hlo.indexing_map<(d0) -> (d0)>}
