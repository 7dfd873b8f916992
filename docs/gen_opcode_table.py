#!/usr/bin/env python3
"""Generates docs/opcodes.md: one row per HLO opcode of the hlo dialect.

Reads (nothing else, python3 stdlib only):
  include/Hlo/Dialect/Hlo/HloOps.td          ops, operands, attributes
  include/Hlo/Dialect/Hlo/HloAttrs.td        attribute mnemonics, enum cases
  include/Hlo/Dialect/Hlo/HloTypeInference.h names of the shape rules
  lib/Dialect/Hlo/HloOps.cpp                 which ops define ::verify(), and
                                             what those verifiers call
  lib/Translate/HloTextCommon.cpp            kAttrTable (HLO attribute names)

The .td files are read with a small evaluator for the subset of TableGen they
use (class/def/defvar, template arguments, `let`, dags, !con, !listconcat,
!subst, `#`). Anything outside that subset is an error, so the table cannot
silently go stale.

Usage:
  docs/gen_opcode_table.py            write docs/opcodes.md
  docs/gen_opcode_table.py --check    exit 1 if docs/opcodes.md is out of date
  docs/gen_opcode_table.py --stdout   print the table instead of writing it
"""

import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPS_TD = "include/Hlo/Dialect/Hlo/HloOps.td"
ATTRS_TD = "include/Hlo/Dialect/Hlo/HloAttrs.td"
INFERENCE_H = "include/Hlo/Dialect/Hlo/HloTypeInference.h"
OPS_CPP = "lib/Dialect/Hlo/HloOps.cpp"
INFER_CPP = "lib/Dialect/Hlo/HloInferTypes.cpp"
TEXT_COMMON_CPP = "lib/Translate/HloTextCommon.cpp"
OUTPUT = "docs/opcodes.md"


class GenError(Exception):
    pass


# ---------------------------------------------------------------------------
# A TableGen subset.
# ---------------------------------------------------------------------------

class Ref:
    """A reference to a def or class defined outside the files read."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


class Inst:
    """An anonymous instantiation `Class<args>` of a class not modelled."""

    def __init__(self, name, args):
        self.name = name
        self.args = args

    def __repr__(self):
        return "%s<%s>" % (self.name, ", ".join(map(repr, self.args)))


class Dag:
    def __init__(self, op, args):
        self.op = op      # a Ref, e.g. ins
        self.args = args  # [(value, name or None)]


class Record:
    def __init__(self, name):
        self.name = name
        self.fields = {}
        self.classes = []  # [(class name, {param: value})], outermost last


class ClassDef:
    def __init__(self, name, params, parents, body):
        self.name = name
        self.params = params    # [(name, default expr or None)]
        self.parents = parents  # [(class name, [arg exprs])]
        self.body = body        # [(field name, expr or None)]


_TOKEN_RE = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<code>\[\{.*?\}\])
  | (?P<str>"(?:[^"\\]|\\.)*")
  | (?P<var>\$[A-Za-z_][A-Za-z0-9_]*)
  | (?P<bang>![a-z]+)
  | (?P<int>-?(?:0x[0-9a-fA-F]+|[0-9]+)(?![A-Za-z_]))
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>[<>()\[\]{},;:=#?.])
""", re.S | re.X)


def tokenize(text, path):
    # Preprocessor lines (#ifndef/#define/#endif) are not TableGen values.
    text = re.sub(r"^[ \t]*#(ifndef|ifdef|define|endif|else)\b[^\n]*", "",
                  text, flags=re.M)
    tokens, pos = [], 0
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if not m:
            line = text.count("\n", 0, pos) + 1
            raise GenError("%s:%d: cannot tokenize %r" %
                           (path, line, text[pos:pos + 20]))
        kind = m.lastgroup
        if kind not in ("ws", "comment"):
            value = m.group(kind)
            if kind == "str":
                value = bytes(value[1:-1], "utf-8").decode("unicode_escape")
            elif kind == "code":
                value = value[2:-2]
            elif kind == "int":
                value = int(value, 0)
            elif kind == "var":
                value = value[1:]
            elif kind == "bang":
                value = value[1:]
            tokens.append((kind, value, text.count("\n", 0, pos) + 1))
        pos = m.end()
    tokens.append(("eof", None, text.count("\n") + 1))
    return tokens


class TableGen:
    """Evaluates the defs of one or more .td files."""

    def __init__(self):
        self.classes = {}
        self.defvars = {}
        self.records = {}
        self.order = []  # record names in definition order
        self.record_file = {}

    # -- parsing -----------------------------------------------------------

    def load(self, path, text):
        self.path = path
        self.toks = tokenize(text, path)
        self.i = 0
        while self.peek()[0] != "eof":
            self.statement()

    def peek(self, k=0):
        return self.toks[self.i + k]

    def next(self):
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def fail(self, msg):
        raise GenError("%s:%d: %s" % (self.path, self.peek()[2], msg))

    def expect(self, value):
        tok = self.next()
        if tok[1] != value or tok[0] not in ("punct", "id"):
            self.i -= 1
            self.fail("expected %r, found %r" % (value, tok[1]))
        return tok

    def accept(self, value):
        tok = self.peek()
        if tok[0] in ("punct", "id") and tok[1] == value:
            self.i += 1
            return True
        return False

    def ident(self):
        tok = self.next()
        if tok[0] != "id":
            self.i -= 1
            self.fail("expected an identifier, found %r" % (tok[1],))
        return tok[1]

    def statement(self):
        word = self.ident()
        if word == "include":
            if self.next()[0] != "str":
                self.fail("expected a file name after include")
        elif word == "defvar":
            name = self.ident()
            self.expect("=")
            expr = self.expr()
            self.expect(";")
            self.defvars[name] = self.evaluate(expr, {}, None)
        elif word == "class":
            self.class_def()
        elif word == "def":
            self.def_def()
        else:
            self.i -= 1
            self.fail("unsupported TableGen statement %r" % word)

    def template_args(self):
        args = []
        if self.accept("<"):
            if not self.accept(">"):
                while True:
                    args.append(self.expr())
                    if self.accept(">"):
                        break
                    self.expect(",")
        return args

    def type_name(self):
        name = self.ident()
        if self.accept("<"):  # list<Trait>
            depth = 1
            while depth:
                tok = self.next()
                if tok[1] == "<":
                    depth += 1
                elif tok[1] == ">":
                    depth -= 1
        return name

    def parents_and_body(self):
        parents = []
        if self.accept(":"):
            while True:
                cname = self.ident()
                parents.append((cname, self.template_args()))
                if not self.accept(","):
                    break
        body = []
        if self.accept(";"):
            return parents, body
        self.expect("{")
        while not self.accept("}"):
            if self.accept("let"):
                name = self.ident()
                self.expect("=")
                body.append((name, self.expr()))
                self.expect(";")
                continue
            self.type_name()
            name = self.ident()
            expr = None
            if self.accept("="):
                expr = self.expr()
            self.expect(";")
            body.append((name, expr))
        return parents, body

    def class_def(self):
        name = self.ident()
        params = []
        if self.accept("<"):
            while True:
                self.type_name()
                pname = self.ident()
                default = self.expr() if self.accept("=") else None
                params.append((pname, default))
                if self.accept(">"):
                    break
                self.expect(",")
        parents, body = self.parents_and_body()
        self.classes[name] = ClassDef(name, params, parents, body)

    def def_def(self):
        name = self.ident()
        line = self.peek()[2]
        parents, body = self.parents_and_body()
        rec = Record(name)
        for cname, args in parents:
            self.instantiate(rec, cname, [self.evaluate(a, {}, rec)
                                          for a in args])
        for fname, expr in body:
            if expr is not None:
                rec.fields[fname] = self.evaluate(expr, {}, rec)
        self.records[name] = rec
        self.order.append(name)
        self.record_file[name] = (self.path, line)

    # Expressions are kept as small tuples and evaluated per instantiation.
    def expr(self):
        lhs = self.primary()
        while self.accept("#"):
            lhs = ("paste", lhs, self.primary())
        return lhs

    def primary(self):
        kind, value, _ = self.next()
        if kind in ("str", "code"):
            return ("lit", value)
        if kind == "int":
            return ("lit", value)
        if kind == "punct" and value == "?":
            return ("lit", None)
        if kind == "punct" and value == "[":
            items = []
            if not self.accept("]"):
                while True:
                    items.append(self.expr())
                    if self.accept("]"):
                        break
                    self.expect(",")
            if self.peek()[1] == "<":  # [...]<Type>
                self.template_args()
            return ("list", items)
        if kind == "punct" and value == "(":
            op = self.expr()
            args = []
            while not self.accept(")"):
                if args:
                    self.expect(",")
                if self.peek()[0] == "var":
                    args.append((("lit", None), self.next()[1]))
                    continue
                val = self.expr()
                argname = None
                if self.accept(":"):
                    tok = self.next()
                    if tok[0] != "var":
                        self.fail("expected $name in a dag")
                    argname = tok[1]
                args.append((val, argname))
            return ("dag", op, args)
        if kind == "bang":
            self.expect("(")
            args = []
            if not self.accept(")"):
                while True:
                    args.append(self.expr())
                    if self.accept(")"):
                        break
                    self.expect(",")
            return ("bang", value, args)
        if kind == "id":
            if self.peek()[1] == "<" and self.peek()[0] == "punct":
                return ("inst", value, self.template_args())
            return ("id", value)
        self.i -= 1
        self.fail("unexpected %r in an expression" % (value,))

    # -- evaluation --------------------------------------------------------

    def evaluate(self, e, env, rec):
        tag = e[0]
        if tag == "lit":
            return e[1]
        if tag == "list":
            return [self.evaluate(x, env, rec) for x in e[1]]
        if tag == "id":
            name = e[1]
            if name in env:
                return env[name]
            if rec is not None and name in rec.fields:
                return rec.fields[name]
            if name in self.defvars:
                return self.defvars[name]
            return Ref(name)
        if tag == "inst":
            return Inst(e[1], [self.evaluate(a, env, rec) for a in e[2]])
        if tag == "dag":
            op = self.evaluate(e[1], env, rec)
            return Dag(op, [(self.evaluate(v, env, rec), n) for v, n in e[2]])
        if tag == "paste":
            a = self.evaluate(e[1], env, rec)
            b = self.evaluate(e[2], env, rec)
            if not isinstance(a, str) or not isinstance(b, str):
                self.fail("`#` on non-strings")
            return a + b
        if tag == "bang":
            args = [self.evaluate(a, env, rec) for a in e[2]]
            if e[1] == "con":
                op = args[0].op
                out = []
                for d in args:
                    if not isinstance(d, Dag) or repr(d.op) != repr(op):
                        self.fail("!con of mismatched dags")
                    out.extend(d.args)
                return Dag(op, out)
            if e[1] == "listconcat":
                return [x for lst in args for x in lst]
            if e[1] == "subst":
                return args[2].replace(args[0], args[1])
            if e[1] == "strconcat":
                return "".join(args)
            self.fail("unsupported operator !%s" % e[1])
        self.fail("cannot evaluate %r" % (e,))

    def instantiate(self, rec, cname, args):
        if cname == "Op":  # mlir/IR/OpBase.td's Op<dialect, mnemonic, traits>
            rec.fields.setdefault("opName", args[1])
            rec.fields.setdefault("arguments", Dag(Ref("ins"), []))
            rec.fields.setdefault("results", Dag(Ref("outs"), []))
            rec.fields.setdefault("hasVerifier", 0)
            rec.classes.append(("Op", {"mnemonic": args[1]}))
            return
        cls = self.classes.get(cname)
        if cls is None:  # a class of MLIR's .td files: keep its arguments
            rec.classes.append((cname, {"args": args}))
            return
        if len(args) > len(cls.params):
            self.fail("too many arguments for %s" % cname)
        env = {}
        for idx, (pname, default) in enumerate(cls.params):
            if idx < len(args):
                env[pname] = args[idx]
            elif default is not None:
                env[pname] = self.evaluate(default, env, rec)
            else:
                self.fail("missing argument %s of %s" % (pname, cname))
        for pname, pargs in cls.parents:
            self.instantiate(rec, pname,
                             [self.evaluate(a, env, rec) for a in pargs])
        for fname, expr in cls.body:
            if expr is not None:
                rec.fields[fname] = self.evaluate(expr, env, rec)
        rec.classes.append((cname, env))

    def derives(self, rec, cname):
        return any(c == cname for c, _ in rec.classes)


# ---------------------------------------------------------------------------
# C++ scanning: which ops define ::verify() and what those verifiers call.
# ---------------------------------------------------------------------------

def strip_cpp_comments(text):
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def blank_strings(text):
    """Replaces the contents of string and char literals (keeps length)."""
    return re.sub(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'',
                  lambda m: m.group(0)[0] + " " * (len(m.group(0)) - 2) +
                  m.group(0)[0], text)


def split_preprocessor(text):
    """Returns (text without directives, {macro: (params, body)})."""
    macros, kept = {}, []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("#"):
            directive = line
            while directive.endswith("\\") and i + 1 < len(lines):
                i += 1
                directive = directive[:-1] + "\n" + lines[i]
            m = re.match(r"\s*#\s*define\s+(\w+)\(([^)]*)\)(.*)", directive,
                         re.S)
            if m:
                params = [p.strip() for p in m.group(2).split(",")]
                macros[m.group(1)] = (params, m.group(3))
            kept.append("")
        else:
            kept.append(line)
        i += 1
    return "\n".join(kept), macros


def top_level_functions(text):
    """{name: body} for function definitions at namespace level."""
    funcs = []
    scan = blank_strings(text)
    depth, start, i = 0, 0, 0
    while i < len(scan):
        c = scan[i]
        if c == "{" and depth == 0:
            sig = scan[start:i].strip()
            if re.match(r"(namespace|extern)\b", sig):
                start = i + 1
                i += 1
                continue  # namespace bodies are scanned like the top level
            j, d = i, 0
            while j < len(scan):
                if scan[j] == "{":
                    d += 1
                elif scan[j] == "}":
                    d -= 1
                    if d == 0:
                        break
                j += 1
            m = re.search(r"([\w:~]+)\s*\(", sig)
            if m and "=" not in sig.split("(")[0]:
                funcs.append((m.group(1), sig, text[i + 1:j]))
            i = j + 1
            start = i
            continue
        if c == "}" or c == ";":
            start = i + 1
        i += 1
    return funcs


def expand_macros(text, macros):
    """Expands invocations of function-like `macros` that stand alone on a
    line (`HLO_BINARY(AddOp, kAnyKind)`), including macros they invoke."""
    for _ in range(8):
        changed = False
        for macro, (params, mbody) in macros.items():
            invocation = re.compile(r"^[ \t]*%s\(([^)]*)\)[ \t]*;?[ \t]*$"
                                    % re.escape(macro), re.M)

            def expand(m):
                body = mbody
                args = [a.strip() for a in m.group(1).split(",")]
                for q, a in zip(params, args):
                    body = re.sub(r"\b%s\b" % re.escape(q), a, body)
                return body
            text, n = invocation.subn(expand, text)
            changed |= n > 0
        if not changed:
            break
    return text


def scan_verifiers(ops_cpp, inference_h):
    """Returns ({op class: verifier status} for ops that define verify(),
    {op classes whose result type is inferred})."""
    text, macros = split_preprocessor(strip_cpp_comments(ops_cpp))
    text = expand_macros(text, macros)
    bodies = {}     # "FooOp" -> verify body
    helpers = {}    # static helper name -> (signature, body)
    inferred = set()
    # Verifiers written through macros: HLO_UNARY_SAME_SHAPE(AbsOp). The
    # invocations are taken out of the text before it is scanned.
    for macro, (params, mbody) in macros.items():
        invocation = re.compile(r"^[ \t]*%s\(([^)]*)\)[ \t]*;?[ \t]*$"
                                % re.escape(macro), re.M)
        for pi, p in enumerate(params):
            if not re.search(r"\b%s::verify\s*\(" % re.escape(p), mbody):
                continue
            for m in invocation.finditer(text):
                args = [a.strip() for a in m.group(1).split(",")]
                body = mbody
                for q, a in zip(params, args):
                    body = re.sub(r"\b%s\b" % re.escape(q), a, body)
                bodies[args[pi]] = body
        text = invocation.sub("", text)
    for name, sig, body in top_level_functions(text):
        # The result rule of an op with an inferred type (HloInferTypes.cpp):
        # `inferResult(..., FooOp::Adaptor a)`, called by FooOp::verify().
        m = re.search(r"\b(\w+)::Adaptor\b", sig)
        if name == "inferResult" and m:
            inferred.add(m.group(1))
            bodies[m.group(1)] = bodies.get(m.group(1), "") + body
            continue
        # verify() and verifySymbolUses() (called computations) together.
        for suffix in ("::verify", "::verifySymbolUses"):
            if name.endswith(suffix):
                op = name[:-len(suffix)]
                bodies[op] = bodies.get(op, "") + body
        if "::" not in name:
            helpers[name] = (sig, body)

    decls = set(re.findall(r"\b([A-Za-z_]\w*)\s*\(",
                           blank_strings(strip_cpp_comments(inference_h))))
    callee_fns = {"verifySignature", "verifyReducer", "lookupNearestSymbolFrom"}
    shape_fns = {d for d in decls
                 if re.match(r"(verify|infer)[A-Z]", d)} - callee_fns

    def calls(body):
        return set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", blank_strings(body)))

    closure_cache = {}

    def closure(name, seen=None):
        if name in closure_cache:
            return closure_cache[name]
        seen = seen or set()
        out = set()
        for c in calls(helpers[name][1]):
            out.add(c)
            if c in helpers and c not in seen and c != name:
                out |= closure(c, seen | {name})
        closure_cache[name] = out
        return out

    def reaches_callee(name):
        # Helpers whose errors are about called computations.
        return bool(closure(name) & (callee_fns | {"checkCallee"}))

    def has_errors(body):
        return re.search(r"\bemit(Op)?Error\s*\(", blank_strings(body))

    status = {}
    for op, body in bodies.items():
        direct = calls(body)
        reached = set(direct)
        for c in direct:
            if c in helpers:
                reached |= closure(c)
        # A local helper that shares a name with a shape rule is a helper.
        shape = bool((reached - set(helpers)) & shape_fns)
        callee = bool(reached & (callee_fns | {"checkCallee"}))
        own = bool(has_errors(body))
        for c in direct:
            if c in helpers:
                sig, hbody = helpers[c]
                returns = sig[:sig.find(c + "(")] if c + "(" in sig else sig
                if (re.search(r"\bLogicalResult\b", returns) and
                        has_errors(hbody) and not reaches_callee(c)):
                    own = True
        parts = []
        if op in inferred:
            parts.append("inferred result type")
        if shape:
            parts.append("shape rules (HloTypeInference)")
        if own or not (shape or callee):
            parts.append("op-specific checks")
        if callee:
            parts.append("called computations")
        status[op] = " + ".join(parts)
    return status, inferred


# ---------------------------------------------------------------------------
# The table.
# ---------------------------------------------------------------------------

SIMPLE_ATTR_TYPES = {
    "AnyAttr": "any attribute",
    "BoolAttr": "bool",
    "DenseI64ArrayAttr": "array<i64>",
    "DictionaryAttr": "dictionary",
    "F32Attr": "f32",
    "FlatSymbolRefAttr": "@computation",
    "I64Attr": "i64",
    "StrArrayAttr": "[string, ...]",
    "StrAttr": "string",
    "SymbolRefArrayAttr": "[@computation, ...]",
    "TypeArrayAttr": "[type, ...]",
    "TypeAttr": "type",
    "UnitAttr": "unit",
    "ArrayAttr": "array attribute",
    "DictArrayAttr": "[dictionary, ...]",
    "SymbolNameAttr": "symbol name",
    # Dictionaries checked entry by entry (HloOps.td, Hlo_DictAttr).
    "Hlo_StringDictAttr": "dictionary of strings",
    "Hlo_TextDictAttr": "dictionary of #hlo.text",
    "Hlo_StatisticsDictAttr": "statistics dictionary",
    "Hlo_AccuracyDictAttr": "accuracy dictionary",
    "Hlo_DomainDictAttr": "domain dictionary",
    "Hlo_TypedLiteralDictAttr": "{shape, value} dictionary",
}


def attr_type_name(tg, t):
    """(display type, optional?) for an attribute constraint."""
    if isinstance(t, Inst) and t.name == "OptionalAttr":
        return attr_type_name(tg, t.args[0])[0], True
    if isinstance(t, Inst) and t.name == "TypeAttrOf":
        return re.sub(r"Type$", "", repr(t.args[0])).lower() + " type", False
    if isinstance(t, Ref) and t.name == "UnitAttr":  # present or absent
        return "unit", True
    if isinstance(t, Ref):
        if t.name in SIMPLE_ATTR_TYPES:
            return SIMPLE_ATTR_TYPES[t.name], False
        rec = tg.records.get(t.name)
        if rec is not None:
            if tg.derives(rec, "Hlo_EnumAttr"):
                env = dict(rec.classes)["Hlo_EnumAttr"]
                return "#hlo<%s>" % env["mnemonic"], False
            if tg.derives(rec, "Hlo_Attr"):
                return "#hlo.%s" % rec.fields["mnemonic"], False
            for cname, env in rec.classes:
                if cname == "TypedArrayAttrBase":
                    inner = attr_type_name(tg, env["args"][0])[0]
                    return "[%s, ...]" % inner, False
        return t.name, False
    return repr(t), False


def is_attribute(tg, t):
    if isinstance(t, Inst):
        if t.name in ("Variadic", "Optional"):
            return False
        return "Attr" in t.name
    if isinstance(t, Ref):
        return t.name.endswith("Attr") or t.name in tg.records and (
            tg.derives(tg.records[t.name], "Hlo_Attr") or
            tg.derives(tg.records[t.name], "Hlo_EnumAttr"))
    return False


def parse_attr_table(text):
    text = strip_cpp_comments(text)
    m = re.search(r"kAttrTable\[\]\s*=\s*\{(.*?)\n\};", text, re.S)
    if not m:
        raise GenError("%s: kAttrTable not found" % TEXT_COMMON_CPP)
    return re.findall(r'\{"([^"]+)",\s*"([^"]+)",\s*AttrKind::(\w+)\}',
                      m.group(1))


def md_escape(s):
    return s.replace("|", "\\|")


def generate(root):
    def read(rel):
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            return f.read()

    tg = TableGen()
    # HloOps.td includes HloAttrs.td (and HloBase.td); reading the attribute
    # file first gives the mnemonics of the attribute defs the ops use.
    tg.load("include/Hlo/Dialect/Hlo/HloBase.td",
            read("include/Hlo/Dialect/Hlo/HloBase.td"))
    tg.load(ATTRS_TD, read(ATTRS_TD))
    tg.load("include/Hlo/Dialect/Hlo/HloTypes.td",
            read("include/Hlo/Dialect/Hlo/HloTypes.td"))
    first_op = len(tg.order)
    tg.load(OPS_TD, read(OPS_TD))
    op_defs = [n for n in tg.order[first_op:]
               if "opName" in tg.records[n].fields]

    verifiers, inferred = scan_verifiers(read(OPS_CPP) + "\n" + read(INFER_CPP),
                                         read(INFERENCE_H))
    attr_table = parse_attr_table(read(TEXT_COMMON_CPP))
    hlo_name_of = {mlir: hlo for hlo, mlir, _ in attr_table}

    structural = {"computation", "return"}
    ops = []
    for d in op_defs:
        rec = tg.records[d]
        mnemonic = rec.fields["opName"]
        cls = d[len("Hlo_"):] if d.startswith("Hlo_") else d
        operands, attrs = [], []
        for t, name in rec.fields["arguments"].args:
            if is_attribute(tg, t):
                tname, optional = attr_type_name(tg, t)
                attrs.append((name, tname, optional))
            elif name == "control_predecessors":
                continue  # Listed once with the common attributes.
            else:
                variadic = isinstance(t, Inst) and t.name == "Variadic"
                operands.append(name + ("..." if variadic else ""))
        has_verifier = bool(rec.fields.get("hasVerifier", 0))
        if cls in verifiers:
            status = verifiers[cls]
        elif has_verifier:
            raise GenError("%s sets hasVerifier but %s defines no %s::verify()"
                           % (d, OPS_CPP, cls))
        else:
            status = "ODS only (operand count, attribute types)"
        ops.append({
            "def": d, "class": cls, "mnemonic": mnemonic,
            "opcode": rec.fields.get("opcode", mnemonic.replace("_", "-")),
            "operands": operands, "attrs": attrs, "status": status,
        })

    instr_ops = [o for o in ops if o["mnemonic"] not in structural]
    # Attributes every instruction op accepts are listed once.
    common = None
    for o in instr_ops:
        names = [(a[0], a[1], a[2]) for a in o["attrs"]]
        common = names if common is None else [a for a in common
                                               if a in names]
    common = common or []
    common_names = {a[0] for a in common}

    def attr_cell(o):
        items = []
        for name, tname, optional in o["attrs"]:
            if name in common_names:
                continue
            label = "`%s%s`: %s" % (name, "?" if optional else "",
                                    md_escape(tname))
            hlo = hlo_name_of.get(name)
            if hlo is not None and hlo != name:
                label += " (HLO `%s=`)" % hlo
            items.append(label)
        return "<br>".join(items) if items else "—"

    rows = sorted(instr_ops, key=lambda o: o["opcode"])
    count = len(rows) + 1  # + parameter
    out = []
    w = out.append
    w("<!-- Generated by docs/gen_opcode_table.py from %s, %s, %s," %
      (OPS_TD, ATTRS_TD, OPS_CPP))
    w("     %s and %s. Do not edit by hand: run" % (INFERENCE_H,
                                                      TEXT_COMMON_CPP))
    w("     `python3 docs/gen_opcode_table.py` (`--check` tells whether this"
      " file is current). -->")
    w("")
    w("# HLO opcodes in the `hlo` dialect")
    w("")
    w("**%d HLO opcodes**: %d ops plus `parameter`, which is not an op. "
      "Besides them the dialect has %s, the structural ops listed at the end."
      % (count, len(rows), " and ".join("`hlo.%s`" % s
                                          for s in sorted(structural))))
    w("")
    w("Columns:")
    w("")
    w("- *op*: the MLIR op (`-` in the opcode becomes `_`). Inside an "
      "`hlo.computation` the ops print without the `hlo.` prefix.")
    w("- *operands*: ODS operand names in order; `name...` is variadic.")
    w("- *attributes*: op attributes as `name: type`; `name?` is optional. "
      "The MLIR name is the HLO attribute name unless an HLO name is given. "
      "Every op except `parameter` also takes the common attributes below; "
      "HLO attributes the op does not declare are kept verbatim in "
      "`unknown_attrs`.")
    w("- *verifier*: what `verify()` checks beyond ODS. *inferred result "
      "type*: the op implements `InferTypeOpInterface`; one rule in "
      "`lib/Dialect/Hlo/HloInferTypes.cpp` checks the operands and gives "
      "the result type, which builders without a result type, the importer "
      "(instructions written without a shape) and the verifier (declared "
      "result against inferred, layouts ignored) share. *shape rules "
      "(HloTypeInference)*: the verifier calls HLO's shape rules in "
      "`lib/Dialect/Hlo/HloTypeInference.cpp` and the `Hlo*Rules.cpp` "
      "files beside it; *op-specific checks*: checks "
      "written in `lib/Dialect/Hlo/HloOps.cpp`; *called computations*: the "
      "called computations exist and their signatures fit; *ODS only "
      "(operand count, attribute types)*: no `verify()`, only what ODS "
      "generates (number of operands, presence and kind of attributes); "
      "for those ops nothing checks the result type.")
    w("")
    w("Common attributes (every instruction op): " + ", ".join(
        "`%s?`: %s%s" % (n, md_escape(t),
                         " (HLO `%s=`)" % hlo_name_of[n]
                         if n in hlo_name_of and hlo_name_of[n] != n else "")
        for n, t, _ in common) + ".")
    w("")
    w("Control predecessors (HLO `control-predecessors=`) are every "
      "instruction op's last operands, `after(...)` in MLIR (constants take "
      "none); the operands column lists the data operands.")
    w("")
    w("| HLO opcode | op | operands | attributes | verifier |")
    w("| --- | --- | --- | --- | --- |")
    param_row = ("| `parameter` | block argument of `hlo.computation` | — | "
                 "any attribute of the HLO attribute table, as an argument "
                 "attribute with an `hlo.` prefix (`hlo.sharding`, "
                 "`hlo.parameter_replication`, ...) | argument types "
                 "match the computation's signature (`hlo.computation` "
                 "verifier) |")
    emitted_param = False
    for o in rows:
        if not emitted_param and o["opcode"] > "parameter":
            w(param_row)
            emitted_param = True
        w("| `%s` | `hlo.%s` | %s | %s | %s |" % (
            o["opcode"], o["mnemonic"],
            ", ".join("`%s`" % x for x in o["operands"]) or "—",
            attr_cell(o), o["status"]))
    if not emitted_param:
        w(param_row)
    w("")
    w("## Structural ops")
    w("")
    w("| op | operands | attributes | verifier |")
    w("| --- | --- | --- | --- |")
    for o in sorted((o for o in ops if o["mnemonic"] in structural),
                    key=lambda o: o["mnemonic"]):
        w("| `hlo.%s` | %s | %s | %s |" % (
            o["mnemonic"],
            ", ".join("`%s`" % x for x in o["operands"]) or "—",
            "<br>".join("`%s%s`: %s" % (n, "?" if opt else "", md_escape(t))
                        for n, t, opt in o["attrs"]) or "—",
            o["status"]))
    w("")

    # Enums, from HloAttrs.td.
    w("## Enum attributes")
    w("")
    w("Printed `#hlo<mnemonic VALUE>`; the values are HLO's spellings.")
    w("")
    w("| attribute | HLO values |")
    w("| --- | --- |")
    enum_rows = []
    for name in tg.order:
        rec = tg.records[name]
        if not tg.derives(rec, "Hlo_EnumAttr"):
            continue
        env = dict(rec.classes)["Hlo_EnumAttr"]
        info = tg.records[env["info"].name]
        cases = dict(info.classes)["Hlo_Enum"]["cases"]
        spellings = []
        for case in cases:
            spellings.append(case.args[2] if len(case.args) > 2
                             else case.args[0])
        enum_rows.append((env["mnemonic"], spellings))
    for mnemonic, spellings in sorted(enum_rows):
        w("| `#hlo<%s>` | %s |" % (mnemonic,
                                  ", ".join("`%s`" % s for s in spellings)))
    w("")

    # Cross-check against the importer/exporter attribute table.
    w("## Attribute names without an HLO spelling")
    w("")
    w("Op attributes that have no entry in `kAttrTable` "
      "(`lib/Translate/HloTextCommon.cpp`), so the exporter would fail on "
      "them when set. `value` of `hlo.constant` (printed as the literal) and "
      "`unknown_attrs` (printed verbatim) are handled apart and not listed.")
    w("")
    table_mlir = {mlir for _, mlir, _ in attr_table}
    missing = set()
    for o in instr_ops:
        for name, _, _ in o["attrs"]:
            if name == "unknown_attrs" or (name, o["mnemonic"]) == (
                    "value", "constant"):
                continue
            if name not in table_mlir:
                missing.add((name, "hlo." + o["mnemonic"]))
    by_name = {}
    for name, op in missing:
        by_name.setdefault(name, []).append(op)
    if by_name:
        for name in sorted(by_name):
            w("- `%s`: %s" % (name, ", ".join(
                "`%s`" % op for op in sorted(by_name[name]))))
    else:
        w("- none")
    w("")
    return "\n".join(out)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--check", action="store_true",
                   help="exit 1 if %s is out of date" % OUTPUT)
    p.add_argument("--stdout", action="store_true",
                   help="print the table instead of writing it")
    p.add_argument("--root", default=ROOT,
                   help="repository root (default: this script's parent)")
    a = p.parse_args()
    try:
        text = generate(a.root)
    except GenError as e:
        print("gen_opcode_table.py: error: %s" % e, file=sys.stderr)
        return 2
    path = os.path.join(a.root, OUTPUT)
    if a.stdout:
        sys.stdout.write(text)
        return 0
    if a.check:
        try:
            with open(path, encoding="utf-8") as f:
                current = f.read()
        except OSError:
            current = None
        if current != text:
            print("%s is out of date; run python3 docs/gen_opcode_table.py"
                  % OUTPUT, file=sys.stderr)
            return 1
        print("%s is up to date" % OUTPUT)
        return 0
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print("wrote %s" % OUTPUT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
