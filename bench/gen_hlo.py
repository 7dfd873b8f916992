#!/usr/bin/env python3
"""Generate a synthetic but realistic HLO text module with exactly N instructions.

The module looks like what a framework emits for a stack of dense layers: an
ENTRY computation made of repeated layer blocks (dot + bias broadcast, relu via
maximum, a softmax-like exponential/reduce/divide, compare/select, a `call` to a
helper computation, transpose with a {0,1} layout, reshape round trip, residual
add, tuple/get-tuple-element), plus the called computations %add and %max
(reducers used by `reduce ... to_apply=`) and %scale (used by `call`).  Array
shapes carry explicit layouts, ENTRY instructions carry
metadata={op_type="..." op_name="..."}.

N counts every instruction of every computation (helpers, parameters and ROOT),
i.e. sum(len(c.instructions()) for c in module.computations()) == N.

Usage: gen_hlo.py --instructions N [-o OUT.hlo] [--batch 128] [--features 256]
"""

import argparse
import sys

MAX_WEIGHT_PARAMS = 64  # kernel/bias parameter pairs; later layers reuse them

# One dense layer; every row emits exactly one instruction.
# (key, shape kind, opcode, operands, attributes, op_type).  Operands name an
# earlier key of the same layer, "x"/"w"/"bias" (layer inputs), or, for
# constants, the literal itself.
LAYER = [
    ("dot", "act", "dot", ("x", "w"), "lhs_contracting_dims={1}, rhs_contracting_dims={0}", "MatMul"),
    ("bb", "act", "broadcast", ("bias",), "dimensions={1}", "BiasAdd"),
    ("pre", "act", "add", ("dot", "bb"), "", "BiasAdd"),
    ("zero", "scalar", "constant", ("0",), "", "Const"),
    ("zb", "act", "broadcast", ("zero",), "dimensions={}", "Relu"),
    ("relu", "act", "maximum", ("pre", "zb"), "", "Relu"),
    ("ninf", "scalar", "constant", ("-inf",), "", "Const"),
    ("rmax", "vec", "reduce", ("relu", "ninf"), "dimensions={1}, to_apply=%max", "Max"),
    ("mb", "act", "broadcast", ("rmax",), "dimensions={0}", "Sub"),
    ("shift", "act", "subtract", ("relu", "mb"), "", "Sub"),
    ("exp", "act", "exponential", ("shift",), "", "Exp"),
    ("sum", "vec", "reduce", ("exp", "zero"), "dimensions={1}, to_apply=%add", "Sum"),
    ("sb", "act", "broadcast", ("sum",), "dimensions={0}", "RealDiv"),
    ("soft", "act", "divide", ("exp", "sb"), "", "RealDiv"),
    ("gate", "act", "multiply", ("soft", "relu"), "", "Mul"),
    ("cmp", "pred", "compare", ("gate", "zb"), "direction=GT", "Greater"),
    ("sel", "act", "select", ("cmp", "gate", "pre"), "", "SelectV2"),
    ("half", "scalar", "constant", ("0.5",), "", "Const"),
    ("scaled", "act", "call", ("sel", "half"), "to_apply=%scale", "Scale"),
    ("t", "act_t", "transpose", ("scaled",), "dimensions={1,0}", "Transpose"),
    ("tt", "act", "transpose", ("t",), "dimensions={1,0}", "Transpose"),
    ("r3", "act3", "reshape", ("tt",), "", "Reshape"),
    ("r2", "act", "reshape", ("r3",), "", "Reshape"),
    ("res", "act", "add", ("r2", "x"), "", "AddV2"),
    ("tup", "tuple", "tuple", ("res", "sum"), "", "IdentityN"),
    ("out", "act", "get-tuple-element", ("tup",), "index=0", "IdentityN"),
]


def shape(ty, dims, layout=None):
    """f32[128,256]{1,0}; default layout is major-to-minor, scalars get none."""
    if layout is None:
        layout = "{" + ",".join(map(str, reversed(range(len(dims))))) + "}" if dims else ""
    return f"{ty}[{','.join(map(str, dims))}]{layout}"


def no_layout(s):
    return s.split("{")[0]


def helpers(act):
    """Called computations; returns (lines, instruction count)."""
    lines = []
    for name, op in (("add", "add"), ("max", "maximum")):
        lines += [f"%{name} ({name}.lhs: f32[], {name}.rhs: f32[]) -> f32[] {{",
                  f"  %{name}.lhs = f32[] parameter(0)",
                  f"  %{name}.rhs = f32[] parameter(1)",
                  f"  ROOT %{name}.0 = f32[] {op}(%{name}.lhs, %{name}.rhs)",
                  "}", ""]
    a = no_layout(act)
    lines += [f"%scale (v: {a}, s: f32[]) -> {a} {{",
              f"  %v = {act} parameter(0)",
              "  %s = f32[] parameter(1)",
              f"  %s.b = {act} broadcast(%s), dimensions={{}}",
              f"  ROOT %s.mul = {act} multiply(%v, %s.b)",
              "}", ""]
    return lines, 3 + 3 + 4


def generate(n, batch=128, features=256):
    if features % 16:
        raise ValueError("--features must be a multiple of 16")
    shapes = {
        "scalar": "f32[]",
        "act": shape("f32", [batch, features]),
        "act_t": shape("f32", [features, batch], "{0,1}"),
        "act3": shape("f32", [batch, 16, features // 16]),
        "vec": shape("f32", [batch]),
        "pred": shape("pred", [batch, features]),
    }
    shapes["tuple"] = f"({shapes['act']}, {shapes['vec']})"
    act = shapes["act"]
    helper_lines, n_helpers = helpers(act)

    # As many kernel/bias pairs as layers that get started, capped.
    n_w = MAX_WEIGHT_PARAMS
    while n_w > 1 and -(-(n - n_helpers - 2 - 2 * n_w) // len(LAYER)) < n_w:
        n_w -= 1
    params = [(act, "input")]
    for i in range(n_w):
        params += [(shape("f32", [features, features]), f"layer_{i}/kernel"),
                   (shape("f32", [features]), f"layer_{i}/bias")]
    body = n - n_helpers - len(params) - 1  # 1 = ROOT
    if body < 0:
        raise ValueError(f"--instructions must be >= {n - body}")

    lines, counter = [], iter(range(1, 1 << 62))

    def emit(result, opcode, operands, attrs, op_type, op_name, root=False):
        name = f"%{opcode}.{next(counter)}"
        attrs = f", {attrs}" if attrs else ""
        meta = f', metadata={{op_type="{op_type}" op_name="{op_name}"}}'
        prefix = "ROOT " if root else ""
        lines.append(f"  {prefix}{name} = {result} {opcode}({', '.join(operands)}){attrs}{meta}")
        return name

    pnames = [emit(s, "parameter", [str(i)], "", "_Arg", what)
              for i, (s, what) in enumerate(params)]
    x = pnames[0]
    for i in range(body):
        layer, row = divmod(i, len(LAYER))
        if row == 0:
            env = {"x": x, "w": pnames[1 + 2 * (layer % n_w)], "bias": pnames[2 + 2 * (layer % n_w)]}
        key, kind, opcode, operands, attrs, op_type = LAYER[row]
        ops = [env.get(o, o) for o in operands]
        env[key] = emit(shapes[kind], opcode, ops, attrs, op_type, f"model/layer_{layer}/{key}")
        if key == "out":
            x = env[key]
    emit(act, "copy", [x], "", "Identity", "model/output", root=True)

    sig = ", ".join(f"{nm[1:]}: {no_layout(s)}" for nm, (s, _) in zip(pnames, params))
    layout = ",".join(s for s, _ in params)
    return "\n".join(
        [f"HloModule synthetic_{n}, entry_computation_layout={{({layout})->{act}}}", ""]
        + helper_lines
        + [f"ENTRY %main ({sig}) -> {no_layout(act)} {{"] + lines + ["}", ""])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instructions", "-n", type=int, required=True)
    ap.add_argument("-o", "--output", default="-", help="output file ('-' = stdout)")
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--features", type=int, default=256)
    args = ap.parse_args()
    try:
        text = generate(args.instructions, args.batch, args.features)
    except ValueError as e:
        ap.error(str(e))
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
