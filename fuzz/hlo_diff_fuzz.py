#!/usr/bin/env python3
"""Differential fuzzing of the HLO text importer against XLA's own parser.

Mutates real HLO modules (structure-aware: numbers, shapes, layouts,
attribute names and values, opcodes, operands, computations, signatures,
metadata, literals, spacing), and asks both:

  ours: hlo-translate --hlo-to-hlo (import, verify, export);
  XLA:  jaxlib's HLO text parser (hlo_module_from_text), in a worker
        process that is restarted when XLA aborts.

For each module we accept, XLA must also accept our export. Every
disagreement is put in a class:

  ours-only      we accept, XLA rejects;
  xla-only       XLA accepts, we reject (`xla-only-verify` when our
                 rejection comes from an op verifier: XLA's parser builds
                 unverified modules, its HloVerifier runs later);
  export-rejected  XLA rejects our export of a module we accept (bug);
  crash          hlo-translate crashed or hung (bug);

and gets a signature: the rejecting side's first error message with
positions, numbers, names and strings masked. A disagreement whose
message matches a rule of the known-disagreements file (KNOWN) is known;
one reproducer per new (class, signature) is written to --out (shrunk by
deleting lines while the class and signature stay the same).

Deterministic for a given seed, corpus and --count: mutant n is drawn
from its own random stream (seed, n), so --jobs N (N worker processes,
each with its own importer and XLA parser) gives the same mutants and
results as one. Exits 1 on a crash, an export XLA rejects, or a new
disagreement.

Usage: hlo_diff_fuzz.py --translate build/bin/hlo-translate \
          [--seed 1] [--count N] [--time S] [--jobs N] [--known FILE] \
          [--out DIR] [--max-size BYTES] CORPUS_DIRS_OR_FILES...
"""

import argparse
import hashlib
import itertools
import json
import multiprocessing
import os
import random
import re
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#===------------------------------------------------------------------------===#
# XLA's parser, in a worker process
#===------------------------------------------------------------------------===#

WORKER = r"""
import json, os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
from jax._src.lib import hlo
out = sys.stdout
sys.stdout = sys.stderr
out.write("ready\n"); out.flush()
for line in sys.stdin:
    text = json.loads(line)
    try:
        hlo.hlo_module_from_text(text)
        reply = {"ok": True, "msg": ""}
    except Exception as e:
        lines = [l.strip() for l in str(e).splitlines() if l.strip()]
        useful = [l for l in lines if "error:" in l] or lines or ["?"]
        # Every error: XLA records some on paths it then leaves, and shows
        # them first when the parse fails later for another reason.
        reply = {"ok": False, "msg": "\n".join(l[:400] for l in useful[:8])}
    out.write(json.dumps(reply) + "\n"); out.flush()
"""


class Xla:
    """XLA's HLO text parser behind a pipe; survives XLA's CHECK failures."""

    def __init__(self, python, timeout=30):
        self.python, self.timeout, self.proc = python, timeout, None
        self.crashes = 0

    def _start(self):
        self.proc = subprocess.Popen(
            [self.python, "-c", WORKER], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        if self.proc.stdout.readline().strip() != "ready":
            sys.exit("hlo_diff_fuzz: cannot start XLA's parser (jaxlib)")

    def _stop(self):
        if self.proc:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def parse(self, text):
        """(accepted, message); XLA aborting counts as a rejection."""
        if self.proc is None:
            self._start()
        try:
            self.proc.stdin.write(json.dumps(text) + "\n")
            self.proc.stdin.flush()
            ready, _, _ = select.select([self.proc.stdout], [], [], self.timeout)
            line = self.proc.stdout.readline() if ready else ""
        except BrokenPipeError:
            line = ""
        if not line:
            self._stop()
            self.crashes += 1
            return False, "XLA's parser aborted or hung"
        reply = json.loads(line)
        return reply["ok"], reply["msg"]

    def close(self):
        self._stop()


#===------------------------------------------------------------------------===#
# Our importer
#===------------------------------------------------------------------------===#

class Ours:
    def __init__(self, translate, workdir, timeout=20):
        self.translate, self.timeout = translate, timeout
        self.path = Path(workdir) / "mutant.hlo"

    def run(self, text):
        """('ok', exported) | ('reject', message) | ('crash', message)."""
        self.path.write_text(text)
        try:
            p = subprocess.run([self.translate, "--hlo-to-hlo", str(self.path)],
                               capture_output=True, text=True,
                               timeout=self.timeout, errors="replace")
        except subprocess.TimeoutExpired:
            return "crash", f"timeout after {self.timeout} s"
        err = p.stderr
        if p.returncode == 0:
            return "ok", p.stdout
        if (p.returncode != 1 or "error:" not in err
                or "Stack dump" in err or "PLEASE submit" in err):
            return "crash", f"exit status {p.returncode}: {err[-600:]}"
        first = next((l for l in err.splitlines() if "error:" in l), err)
        return "reject", first.split("error:", 1)[1].strip()[:400]


VERIFIER = re.compile(r"^'[\w.]+' op ")


def signature(message):
    """The (first line of the) message with what varies between mutants
    masked."""
    s = message.split("\n", 1)[0]
    s = re.sub(r"^was parsing \d+:\d+: error: ", "", s)
    s = re.sub(r'"(?:[^"\\]|\\.)*"', '"S"', s)
    s = re.sub(r"'(?!hlo\.)[^']*'", "'S'", s)
    s = re.sub(r"%?[A-Za-z_][\w.\-]*\.\d+", "NAME", s)
    s = re.sub(r"-?\d+", "N", s)
    return s[:200]


#===------------------------------------------------------------------------===#
# Mutations
#===------------------------------------------------------------------------===#

INTERESTING = [0, 1, -1, 2, 3, 7, 8, 16, 255, 256, 65535, 65536, 2**31 - 1,
               2**31, -2**31, -2**31 - 1, 2**32, 2**32 - 1, 2**53, 2**63 - 1,
               2**63, -2**63, -2**63 - 1, 2**64, 2**64 - 1, 10**30]
ELEMENT_TYPES = ["pred", "s1", "s2", "s4", "s8", "s16", "s32", "s64", "u1",
                 "u2", "u4", "u8", "u16", "u32", "u64", "f16", "bf16", "f32",
                 "f64", "c64", "c128", "f8e4m3fn", "f8e5m2", "f8e4m3b11fnuz",
                 "f8e5m2fnuz", "f8e4m3fnuz", "f8e4m3", "f8e3m4", "f4e2m1fn",
                 "f8e8m0fnu", "token", "opaque", "s2147483648", "s3", "bogus",
                 "f128", "u0"]
METADATA_FIELDS = ["op_type", "op_name", "source_file", "source_line",
                   "source_end_line", "source_column", "source_end_column",
                   "profile_type", "deduplicated_name", "preserve_layout",
                   "stack_frame_id", "scheduling_name", "bogus_field"]
SHAPE = re.compile(
    r"\b(pred|token|opaque|[subfc]\d+[a-z0-9]*)\[([^\]\[]*)\](\{[^{}]*\})?")
INTEGER = re.compile(r"(?<![\w.%#-])-?\d+(?![\w.])")
ATTR = re.compile(r", ([a-z_][a-z_0-9]*)=")
OPCODE = re.compile(r"(?<=[\]}) ]) ?([a-z][a-z0-9-]*)\((?=[%)a-z0-9\[{ ])")
OPERAND = re.compile(r"(?<=[(, ])%[\w.\-]+(?=[,)])")
COMPREF = re.compile(r"\b(to_apply|calls|condition|body|called_computations|"
                     r"branch_computations|true_computation|"
                     r"false_computation|async_execution_thread)=")
CONSTANT = re.compile(r"constant\(")
SIGNATURE = re.compile(r"^(ENTRY )?%?[\w.\-]+ \(", re.M)
INSTR_LINE = re.compile(r"^  (ROOT )?%?[\w.\-]+ = ", re.M)


def value_end(text, start):
    """End of the attribute value starting at `start` (balanced brackets)."""
    depth, i, quote = 0, start, False
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == '"':
                quote = False
        elif ch == '"':
            quote = True
        elif ch in "{([":
            depth += 1
        elif ch in "})]":
            if depth == 0:
                return i
            depth -= 1
        elif ch in ",\n" and depth == 0:
            return i
        i += 1
    return i


class Mutator:
    def __init__(self, rng, corpus):
        self.rng = rng
        # Vocabularies drawn from the corpus.
        self.opcodes = sorted({m.group(1) for t in corpus
                               for m in OPCODE.finditer(t)})
        self.attr_names = sorted({m.group(1) for t in corpus
                                  for m in ATTR.finditer(t)})
        values = {}
        for t in corpus:
            for m in ATTR.finditer(t):
                v = t[m.end():value_end(t, m.end())]
                if len(v) < 200:
                    values.setdefault(m.group(1), set()).add(v)
        self.attr_values = {k: sorted(v) for k, v in values.items()}
        self.all_values = sorted({v for vs in values.values() for v in vs})
        self.mutations = [
            (self.number, 6), (self.shape_dims, 4), (self.element_type, 3),
            (self.layout, 4), (self.attr_name, 3), (self.attr_value, 4),
            (self.attr_drop, 2), (self.attr_dup, 1), (self.opcode, 4),
            (self.operand, 3), (self.operand_count, 2),
            (self.computation_ref, 2), (self.signature, 3),
            (self.metadata, 3), (self.literal, 3), (self.spacing, 2),
            (self.drop_shape, 2), (self.line, 2)]
        self.names = [m.__name__ for m, _ in self.mutations]
        self.weights = [w for _, w in self.mutations]

    def pick(self, matches):
        matches = list(matches)
        return self.rng.choice(matches) if matches else None

    def splice(self, text, start, end, new):
        return text[:start] + new + text[end:]

    def big_or_small(self, old=None):
        r = self.rng.random()
        if r < 0.6:
            return self.rng.choice(INTERESTING)
        if r < 0.8 and old is not None:
            return old + self.rng.choice([-2, -1, 1, 2])
        return self.rng.randrange(0, 70)

    # Each mutation returns the new text, or None if it does not apply.
    def number(self, t):
        m = self.pick(INTEGER.finditer(t))
        if not m:
            return None
        return self.splice(t, m.start(), m.end(),
                           str(self.big_or_small(int(m.group()))))

    def shape_dims(self, t):
        m = self.pick(SHAPE.finditer(t))
        if not m:
            return None
        dims = [d for d in m.group(2).split(",") if d]
        op = self.rng.randrange(4)
        if op == 0 and dims:
            dims.pop(self.rng.randrange(len(dims)))
        elif op == 1:
            dims.insert(self.rng.randrange(len(dims) + 1),
                        str(self.big_or_small()))
        elif op == 2 and dims:
            i = self.rng.randrange(len(dims))
            dims[i] = self.rng.choice(["<=" + dims[i].lstrip("<="), "?",
                                       "<=?", " " + dims[i], dims[i] + " ",
                                       str(self.big_or_small())])
        else:
            dims = list(reversed(dims))
        return self.splice(t, m.start(2), m.end(2), ",".join(dims))

    def element_type(self, t):
        m = self.pick(SHAPE.finditer(t))
        if not m:
            return None
        return self.splice(t, m.start(1), m.end(1),
                           self.rng.choice(ELEMENT_TYPES))

    def layout(self, t):
        shapes = list(SHAPE.finditer(t))
        if not shapes:
            return None
        m = self.rng.choice(shapes)
        rank = len([d for d in m.group(2).split(",") if d])
        perm = list(range(rank))
        self.rng.shuffle(perm)
        choices = [
            "{" + ",".join(map(str, perm)) + "}",
            "{" + ",".join(map(str, perm[:-1])) + "}",
            "{" + ",".join(map(str, perm + [rank])) + "}",
            "{" + ",".join(map(str, perm)) + ":T(8,128)}",
            "{" + ",".join(map(str, perm)) + ":T(2)(4,4)}",
            "{" + ",".join(map(str, perm)) + ":S(1)}",
            "{" + ",".join(map(str, perm)) + ":E(4)}",
            "{" + ",".join(map(str, perm)) + ":D(D,C)}",
            "{" + ",".join(map(str, perm)) + ":#(s32)}",
            "{" + ",".join(map(str, perm)) + ":*(u8)}",
            "{" + ",".join(map(str, perm)) + ":L(2)}",
            "{" + ",".join(map(str, perm)) + ":M(1)}",
            "{" + ",".join(map(str, perm)) + ":X}",
            "{" + ",".join(map(str, perm)) + ":T(" +
            str(self.big_or_small()) + ")}",
            " {" + ",".join(map(str, perm)) + "}",
            "{}", "",
        ]
        new = self.rng.choice(choices)
        start = m.end(2) + 1
        end = m.end(3) if m.group(3) else start
        return self.splice(t, start, end, new)

    def attr_name(self, t):
        m = self.pick(ATTR.finditer(t))
        if not m or not self.attr_names:
            return None
        return self.splice(t, m.start(1), m.end(1),
                           self.rng.choice(self.attr_names + ["bogus_attr"]))

    def attr_value(self, t):
        m = self.pick(ATTR.finditer(t))
        if not m:
            return None
        end = value_end(t, m.end())
        old = t[m.end():end]
        r = self.rng.random()
        if r < 0.4 and self.attr_values.get(m.group(1)):
            new = self.rng.choice(self.attr_values[m.group(1)])
        elif r < 0.6 and self.all_values:
            new = self.rng.choice(self.all_values)
        elif r < 0.9:
            nums = list(INTEGER.finditer(old))
            if not nums:
                return None
            n = self.rng.choice(nums)
            new = self.splice(old, n.start(), n.end(),
                              str(self.big_or_small(int(n.group()))))
        else:
            new = self.rng.choice(["{}", "", "{{}}", "[]", '""', "true"])
        return self.splice(t, m.end(), end, new)

    def attr_drop(self, t):
        m = self.pick(ATTR.finditer(t))
        if not m:
            return None
        return self.splice(t, m.start(), value_end(t, m.end()), "")

    def attr_dup(self, t):
        m = self.pick(ATTR.finditer(t))
        if not m:
            return None
        end = value_end(t, m.end())
        return t[:end] + t[m.start():end] + t[end:]

    def opcode(self, t):
        m = self.pick(m for m in OPCODE.finditer(t)
                      if m.group(1) not in ("parameter",))
        if not m or not self.opcodes:
            return None
        return self.splice(t, m.start(1), m.end(1),
                           self.rng.choice(self.opcodes + ["bogus-op"]))

    def operand(self, t):
        ops = list(OPERAND.finditer(t))
        if len(ops) < 2:
            return None
        m = self.rng.choice(ops)
        # A name from near by (usually the same computation).
        i = ops.index(m)
        other = ops[max(0, min(len(ops) - 1,
                               i + self.rng.randint(-6, 6)))].group()
        if self.rng.random() < 0.1:
            other = "%undefined"
        return self.splice(t, m.start(), m.end(), other)

    def operand_count(self, t):
        m = self.pick(OPERAND.finditer(t))
        if not m:
            return None
        if self.rng.random() < 0.5:
            return t[:m.end()] + ", " + m.group() + t[m.end():]
        # Drop it with its separator.
        start, end = m.start(), m.end()
        if t[end] == ",":
            end += 1
            while t[end] == " ":
                end += 1
        elif t[start - 2:start] == ", ":
            start -= 2
        return self.splice(t, start, end, "")

    def computation_ref(self, t):
        m = self.pick(COMPREF.finditer(t))
        if not m:
            return None
        end = value_end(t, m.end())
        comps = re.findall(r"^(?:ENTRY )?(%?[\w.\-]+) \(", t, re.M)
        if not comps:
            return None
        new = self.rng.choice(comps + ["%nowhere", "{}", "{" + comps[0] + "}"])
        return self.splice(t, m.end(), end, new)

    def signature(self, t):
        m = self.pick(SIGNATURE.finditer(t))
        if not m:
            return None
        close = value_end(t, m.end())  # the ')' of the parameter list
        if close >= len(t) or t[close] != ")":
            return None
        params = t[m.end():close]
        r = self.rng.random()
        if r < 0.5:
            new = self.shape_dims(params) or self.element_type(params)
            if new is None:
                new = params + ("" if not params else ", ") + "extra: f32[2]"
            return self.splice(t, m.end(), close, new)
        if r < 0.65:
            new = re.sub(r"^\w+", "renamed", params) if params else "z: f32[]"
            return self.splice(t, m.end(), close, new)
        # The declared result.
        arrow = t.find("-> ", close)
        brace = t.find(" {\n", close)
        if arrow < 0 or brace < 0 or arrow > brace:
            return None
        result = t[arrow + 3:brace]
        if r < 0.9:
            new = (self.shape_dims(result) or self.element_type(result)
                   or "f32[]")
        else:
            new = self.rng.choice(["(" + result + ")", "()", "f32[]", ""])
        return self.splice(t, arrow + 3, brace, new)

    def metadata(self, t):
        ms = list(re.finditer(r"metadata=\{", t))
        field = self.rng.choice(METADATA_FIELDS)
        if field in ("op_type", "op_name", "source_file", "deduplicated_name",
                     "scheduling_name"):
            value = self.rng.choice(['"x"', '""', "x", '"\\"q"', "7"])
        elif field == "preserve_layout":
            value = self.rng.choice(["true", "false", "1", "maybe"])
        elif field == "profile_type":
            value = self.rng.choice(["{}", "{1}", "{7,7}", "{bogus}"])
        else:
            value = str(self.big_or_small())
        entry = field + "=" + value
        if ms and self.rng.random() < 0.8:
            m = self.rng.choice(ms)
            return t[:m.end()] + entry + " " + t[m.end():]
        lines = list(INSTR_LINE.finditer(t))
        if not lines:
            return None
        m = self.rng.choice(lines)
        eol = t.find("\n", m.end())
        return t[:eol] + ", metadata={" + entry + "}" + t[eol:]

    def literal(self, t):
        m = self.pick(CONSTANT.finditer(t))
        if not m:
            return None
        end = value_end(t, m.end())
        if end >= len(t) or t[end] != ")":
            return None
        lit = t[m.end():end]
        r = self.rng.random()
        nums = list(re.finditer(r"-?\d+(\.\d+)?(e[+-]?\d+)?", lit))
        if r < 0.5 and nums:
            n = self.rng.choice(nums)
            new = self.rng.choice(["inf", "-inf", "nan", "-nan", "1e999",
                                   "0x1p3", "true", "false", "1.5", "-0",
                                   "nan(0x1)", str(self.big_or_small())])
            lit = self.splice(lit, n.start(), n.end(), new)
        elif r < 0.7:
            lit = self.rng.choice(["{}", "{...}", "{{}}", "", "(1, 2)",
                                   "{1, 2, 3}", "{ {1, 2}, {3, 4} }",
                                   "(0.5+1j)", "{(1,2)}", "0"])
        elif r < 0.85:
            commas = [i for i, ch in enumerate(lit) if ch == ","]
            if not commas:
                return None
            i = self.rng.choice(commas)
            lit = lit[:i] + lit[i + 1:] if self.rng.random() < 0.5 else \
                lit[:i] + ", 0" + lit[i:]
        else:
            lit = lit.replace("{", "{ /*c*/ ", 1)
        return self.splice(t, m.end(), end, lit)

    def spacing(self, t):
        # A space (or a comment, or a newline) where the text has none.
        ms = list(re.finditer(r"(?<=[\]}\w)])(?=[{(,=\[])", t))
        if not ms:
            return None
        m = self.rng.choice(ms)
        return self.splice(t, m.start(), m.start(),
                           self.rng.choice([" ", "  ", "\n", " /*c*/ "]))

    def drop_shape(self, t):
        # `%x = SHAPE opcode(` -> `%x = opcode(`: XLA infers the shape.
        ms = [m for m in re.finditer(r"= ((?:\([^=]*?\)|\S+)) ([a-z][\w-]*)\(",
                                     t) if m.group(2) != "parameter"]
        if not ms:
            return None
        m = self.rng.choice(ms)
        return self.splice(t, m.start(1), m.end(1) + 1, "")

    def line(self, t):
        lines = t.split("\n")
        if len(lines) < 3:
            return None
        i = self.rng.randrange(len(lines))
        if self.rng.random() < 0.6:
            del lines[i]
        else:
            lines.insert(i, lines[self.rng.randrange(len(lines))])
        return "\n".join(lines)

    def mutate(self, text):
        """(mutant, the mutations applied)."""
        applied = []
        for _ in range(1 if self.rng.random() < 0.8 else 2):
            for _ in range(20):
                i = self.rng.choices(range(len(self.mutations)),
                                     self.weights)[0]
                new = self.mutations[i][0](text)
                if new is not None and new != text:
                    text = new
                    applied.append(self.names[i])
                    break
        return text, applied


#===------------------------------------------------------------------------===#
# Known disagreements
#===------------------------------------------------------------------------===#

CLASSES = ["ours-only", "xla-only", "xla-only-verify", "export-rejected",
           "crash"]


def read_known(path):
    """Rules `CLASS | REGEX | REASON` (REGEX searched in the rejecting side's
    error messages, one a line: `^` anchors at each)."""
    rules = []
    if not path:
        return rules
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split(" | ")]
        if len(parts) != 3 or parts[0] not in CLASSES or not parts[2]:
            sys.exit(f"{path}:{n}: expected 'CLASS | REGEX | REASON'")
        rules.append((parts[0], re.compile(parts[1], re.M), parts[2]))
    return rules


def known_reason(rules, cls, message):
    for c, rx, reason in rules:
        if c == cls and rx.search(message):
            return reason
    return None


#===------------------------------------------------------------------------===#
# Driver
#===------------------------------------------------------------------------===#

def judge(text, ours, xla):
    """(class or None, our outcome, XLA's outcome, message of the rejecting
    side)."""
    status, detail = ours.run(text)
    if status == "crash":
        return "crash", status, None, detail
    ok, msg = xla.parse(text)
    if status == "ok":
        if not ok:
            return "ours-only", status, (ok, msg), msg
        ok2, msg2 = xla.parse(detail)
        if not ok2:
            return "export-rejected", status, (ok, msg), msg2
        return None, status, (ok, msg), ""
    if ok:
        cls = "xla-only-verify" if VERIFIER.match(detail) else "xla-only"
        return cls, status, (ok, msg), detail
    return None, status, (ok, msg), ""


def shrink(text, cls, sig, ours, xla, budget):
    """Deletes lines (halves, then one by one) while (class, signature)
    stays; at most `budget` evaluations."""
    lines = text.split("\n")
    chunk = max(1, len(lines) // 2)
    while chunk >= 1 and budget > 0:
        i, changed = 0, False
        while i < len(lines) and budget > 0:
            trial = lines[:i] + lines[i + chunk:]
            budget -= 1
            c, _, _, m = judge("\n".join(trial), ours, xla)
            if c == cls and signature(m) == sig:
                lines, changed = trial, True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    return "\n".join(lines)


# One worker's importer, XLA parser and mutator (--jobs: a process each).
WORKER_STATE = {}


def start_worker(translate, python, seeds):
    WORKER_STATE["work"] = tempfile.TemporaryDirectory(prefix="hlo_diff_fuzz.")
    WORKER_STATE["ours"] = Ours(translate, WORKER_STATE["work"].name)
    WORKER_STATE["xla"] = Xla(python)
    WORKER_STATE["mutator"] = Mutator(None, seeds)
    WORKER_STATE["seeds"] = seeds


def evaluate(job):
    """Mutant n of `seed` and how both parsers judge it."""
    seed, n = job
    st = WORKER_STATE
    rng = random.Random(f"{seed}/{n}")
    st["mutator"].rng = rng
    k = rng.randrange(len(st["seeds"]))
    mutant, applied = st["mutator"].mutate(st["seeds"][k])
    cls, status, x, msg = judge(mutant, st["ours"], st["xla"])
    return n, k, mutant, applied, cls, status, x, msg


def collect(paths, max_size):
    files = []
    for p in map(Path, paths):
        files += sorted(p.glob("*.hlo")) if p.is_dir() else [p]
    return [f for f in files if f.stat().st_size <= max_size]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--translate", required=True)
    ap.add_argument("--python", default=sys.executable,
                    help="the Python with jaxlib (default: this one)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=1000,
                    help="number of mutants (0: until --time)")
    ap.add_argument("--time", type=float, default=0,
                    help="stop after this many seconds (0: no limit)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="worker processes (the same results for any number)")
    ap.add_argument("--known", help="known disagreements file")
    ap.add_argument("--out", help="directory for the reproducers")
    ap.add_argument("--max-size", type=int, default=64 * 1024,
                    help="skip corpus modules larger than this (bytes)")
    ap.add_argument("--shrink-budget", type=int, default=80)
    ap.add_argument("--shrink-known", action="store_true",
                    help="also write (shrunk) reproducers of known "
                    "disagreements")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--signatures", action="store_true",
                    help="print every (class, signature) with its count")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()

    rules = read_known(args.known)
    xla = Xla(args.python)
    work = tempfile.TemporaryDirectory(prefix="hlo_diff_fuzz.")
    ours = Ours(args.translate, work.name)
    out = Path(args.out) if args.out else None

    # Seeds: the corpus modules both parsers accept.
    seeds, names = [], []
    for f in collect(args.paths, args.max_size):
        text = f.read_text(errors="replace")
        cls, status, x, _ = judge(text, ours, xla)
        if cls in ("crash", "export-rejected"):
            print(f"SEED {cls}: {f.name}")
        if status == "ok" and x and x[0] and cls is None:
            seeds.append(text)
            names.append(f.name)
    if not seeds:
        sys.exit("hlo_diff_fuzz: no corpus module that both parsers accept")
    print(f"seeds: {len(seeds)} modules")

    counts = {k: 0 for k in ["mutants", "imported by us", "accepted by XLA",
                             "accepted by both", "rejected by both"]}
    per_class = {c: [0, 0] for c in CLASSES}  # [known, new]
    seen = {}  # (class, signature[, "new"]) -> first mutant number
    sig_counts, sig_known = {}, set()
    xla_aborts = 0
    start = time.monotonic()
    pool = None
    if args.jobs > 1:
        pool = multiprocessing.Pool(args.jobs, start_worker,
                                    (args.translate, args.python, seeds))
    else:
        start_worker(args.translate, args.python, seeds)

    def results(block=256):
        # Blocks of mutants, so that a pool never queues more than one.
        for first in itertools.count(1, block):
            last = first + block
            if args.count:
                last = min(last, args.count + 1)
            if last <= first:
                return
            jobs = [(args.seed, n) for n in range(first, last)]
            yield from (pool.imap(evaluate, jobs, chunksize=4) if pool
                        else map(evaluate, jobs))
    for n, k, mutant, applied, cls, status, x, msg in results():
        if args.time and time.monotonic() - start >= args.time:
            break
        xla_aborts += bool(x) and x[1] == "XLA's parser aborted or hung"
        counts["mutants"] += 1
        counts["imported by us"] += status == "ok"
        counts["accepted by XLA"] += bool(x and x[0])
        counts["accepted by both"] += status == "ok" and bool(x and x[0]) \
            and cls is None
        counts["rejected by both"] += status != "ok" and x is not None \
            and not x[0]
        if cls is None:
            continue
        reason = None if cls in ("crash", "export-rejected") else \
            known_reason(rules, cls, msg)
        per_class[cls][0 if reason else 1] += 1
        sig = signature(msg)
        key = (cls, sig)
        # First of its signature, or the first unknown one of a signature
        # whose earlier messages a rule matched (rules match whole
        # messages, signatures mask them).
        first = key not in seen if reason else (cls, sig, "new") not in seen
        seen.setdefault(key, n)
        if not reason:
            seen.setdefault((cls, sig, "new"), n)
        sig_counts[key] = sig_counts.get(key, 0) + 1
        if reason:
            sig_known.add(key)
        if args.verbose or (first and not reason):
            tag = "known" if reason else "NEW"
            print(f"{tag} {cls} #{n} ({names[k]}, {'+'.join(applied)}): "
                  f"{msg.split(chr(10), 1)[0][:300]}")
        if out and first and (not reason or args.shrink_known):
            small = mutant
            if cls != "crash":
                small = shrink(mutant, cls, sig, ours, xla,
                               args.shrink_budget)
            d = out / cls
            d.mkdir(parents=True, exist_ok=True)
            h = hashlib.sha1(small.encode()).hexdigest()[:10]
            (d / f"{h}.hlo").write_text(small)
            (d / f"{h}.txt").write_text(
                f"class: {cls}\nseed: {args.seed}, mutant {n} of "
                f"{names[k]}\nmutations: {' '.join(applied)}\n"
                f"message: {msg}\nsignature: {sig}\n"
                f"known: {reason or 'no'}\n")
    elapsed = time.monotonic() - start
    if pool:
        pool.terminate()
    else:
        WORKER_STATE["xla"].close()
    xla.close()

    if args.signatures:
        for (c, s), v in sorted(sig_counts.items(), key=lambda kv: -kv[1]):
            tag = "known" if (c, s) in sig_known else "NEW"
            if (c, s, "new") in seen and (c, s) in sig_known:
                tag = "known+NEW"
            print(f"  {v:6d} {tag} {c}: {s}")
    for key, v in counts.items():
        print(f"{key}: {v}")
    for c in CLASSES:
        known, new = per_class[c]
        print(f"{c}: {known + new} ({known} known, {new} new)")
    print(f"XLA parser aborts: {xla_aborts}")
    print(f"time: {elapsed:.0f} s, {counts['mutants'] / max(elapsed, 1e-9):.1f}"
          " mutants/s")
    bad = per_class["crash"][1] + per_class["export-rejected"][1] + sum(
        per_class[c][1] for c in ("ours-only", "xla-only", "xla-only-verify"))
    print("RESULT: " + ("FAIL" if bad else "PASS") +
          f" ({bad} new disagreements)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
