"""Draws HLO modules with hlo-opt --hlo-view and checks the drawing against
the module's HLO text (hlo-opt's own export, --output-format=hlo):

- one node per instruction (parameters included), its id
  `computation/instruction`, and nothing else;
- one cluster per computation, its id `computation:<name>`;
- one edge of class `operand` per operand, from that operand's node to the
  instruction's (or, for a fusion drawn around its fused computation, to a
  node of that computation: its parameter);
- one edge of class `control` per control predecessor.

The drawing checked is the SVG Graphviz drew (parsed with xml.etree), or,
for modules with more instructions than --svg-limit (Graphviz takes minutes
on those), the DOT graph it is drawn from, which carries the same ids.

usage: check_view.py HLO_OPT PATH... [--svg-limit N] [--pass FLAG]...
(PATH: a .hlo file or a folder of them; each --pass FLAG, e.g.
--pass=--hlo-gpu-optimize, runs before the export and the drawing). Prints one line per module and
exits non-zero if any module fails.
"""

import collections
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

SVG_NS = "{http://www.w3.org/2000/svg}"
NAME = r"[A-Za-z0-9_.\-]+"


def skip_balanced(text, i):
    """The index after the bracketed group starting at text[i]."""
    pairs = {"(": ")", "{": "}", "[": "]"}
    stack = []
    in_string = False
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in pairs:
            stack.append(pairs[c])
        elif stack and c == stack[-1]:
            stack.pop()
            if not stack:
                return i + 1
        i += 1
    raise ValueError("unbalanced: " + text)


def parse_hlo(text):
    """[(computation, [(name, opcode, operands, control preds, calls)])]."""
    computations = []
    for line in text.splitlines():
        header = re.match(r"^(?:ENTRY )?%(" + NAME + r") \(", line)
        if header and line.endswith("{"):
            computations.append((header.group(1), []))
            continue
        # Instructions are indented by two spaces (text a header attribute
        # holds, such as an embedded module, is not).
        inst = re.match(r"^  (?:ROOT )?%(" + NAME + r") = (.*)$", line)
        if not inst or not computations:
            continue
        rest = inst.group(2)
        i = skip_balanced(rest, 0) if rest.startswith("(") else rest.index(" ")
        rest = rest[i:].lstrip()
        paren = rest.index("(")
        opcode = rest[:paren]
        end = skip_balanced(rest, paren)
        operand_text = rest[paren:end]
        operands = [] if opcode == "constant" else re.findall(
            r"%(" + NAME + ")", operand_text)
        attrs = rest[end:]
        control = []
        m = re.search(r"control-predecessors=\{([^}]*)\}", attrs)
        if m:
            control = re.findall(r"%(" + NAME + ")", m.group(1))
        calls = re.findall(r"\bcalls=%(" + NAME + ")", attrs)
        computations[-1][1].append(
            (inst.group(1), opcode, operands, control, calls))
    return computations


def unescape(text):
    return text.replace("&#45;", "-").replace("&gt;", ">")


def parse_svg(svg):
    """(nodes {dot name: id}, clusters [id], edges [(tail, head, classes)])."""
    root = ET.fromstring(svg)
    nodes, clusters, edges = {}, [], []
    for g in root.iter(SVG_NS + "g"):
        classes = g.get("class", "").split()
        title = g.find(SVG_NS + "title")
        if "node" in classes:
            nodes[title.text] = g.get("id")
        elif "cluster" in classes:
            clusters.append(g.get("id"))
        elif "edge" in classes:
            tail, head = unescape(title.text).split("->")
            edges.append((tail, head, classes))
    return nodes, clusters, edges


def parse_dot(dot):
    """The same from the DOT graph (hlo-opt writes one statement a line)."""
    nodes, clusters, edges = {}, [], []
    for line in dot.splitlines():
        m = re.match(r'^\s*(n\d+) \[id="([^"]*)"', line)
        if m:
            nodes[m.group(1)] = m.group(2)
            continue
        m = re.match(r'^\s*id="(computation:[^"]*)"', line)
        if m:
            clusters.append(m.group(1))
            continue
        m = re.match(r'^\s*(n\d+) -> (n\d+) \[id="e\d+", class="([^"]*)"',
                     line)
        if m:
            edges.append((m.group(1), m.group(2),
                          ["edge"] + m.group(3).split()))
    return nodes, clusters, edges


def check(hlo_opt, path, svg_limit, passes):
    errors = []
    text = subprocess.run([hlo_opt, path, "--output-format=hlo"] + passes,
                          capture_output=True, text=True, check=True).stdout
    computations = parse_hlo(text)
    count = sum(len(insts) for _, insts in computations)
    kind = "svg" if count <= svg_limit else "dot"
    start = time.time()
    drawn = subprocess.run([hlo_opt, path, "--hlo-view=" + kind] + passes,
                           capture_output=True, text=True)
    seconds = time.time() - start
    if drawn.returncode != 0:
        return [drawn.stderr.strip()], kind, count, seconds
    nodes, clusters, edges = (parse_svg if kind == "svg" else parse_dot)(
        drawn.stdout)

    expected_nodes = collections.Counter(
        comp + "/" + inst[0] for comp, insts in computations for inst in insts)
    got_nodes = collections.Counter(nodes.values())
    if got_nodes != expected_nodes:
        errors.append("nodes: missing %s, extra %s" % (
            sorted(expected_nodes - got_nodes)[:5],
            sorted(got_nodes - expected_nodes)[:5]))
    expected_clusters = sorted("computation:" + comp for comp, _ in computations)
    if sorted(clusters) != expected_clusters:
        errors.append("clusters: %d drawn, %d computations" %
                      (len(clusters), len(expected_clusters)))

    # Operand edges, by (tail, head) ids.
    drawn_operands = collections.Counter()
    drawn_control = collections.Counter()
    for tail, head, classes in edges:
        key = (nodes.get(tail), nodes.get(head))
        if "operand" in classes:
            drawn_operands[key] += 1
        elif "control" in classes:
            drawn_control[key] += 1
    expected_control = collections.Counter()
    missing = []
    operand_count = 0
    for comp, insts in computations:
        for name, opcode, operands, control, calls in insts:
            user = comp + "/" + name
            for operand in operands:
                operand_count += 1
                tail = comp + "/" + operand
                if drawn_operands[(tail, user)] > 0:
                    drawn_operands[(tail, user)] -= 1
                    continue
                # A fusion drawn around its computation: to a node inside.
                inside = [k for k, n in drawn_operands.items()
                          if n > 0 and k[0] == tail and calls and
                          k[1].startswith(calls[0] + "/")] if opcode == \
                    "fusion" else []
                if inside:
                    drawn_operands[inside[0]] -= 1
                else:
                    missing.append(tail + " -> " + user)
            for pred in control:
                expected_control[(comp + "/" + pred, user)] += 1
    extra = +drawn_operands
    if missing or extra:
        errors.append("operand edges: missing %s, extra %s" %
                      (missing[:5], sorted(extra)[:5]))
    if drawn_control != expected_control:
        errors.append("control edges differ: %s" %
                      sorted((drawn_control - expected_control) +
                             (expected_control - drawn_control))[:5])
    return errors, kind, (count, operand_count), seconds


def main(argv):
    svg_limit = 2000
    if "--svg-limit" in argv:
        i = argv.index("--svg-limit")
        svg_limit = int(argv[i + 1])
        del argv[i:i + 2]
    passes = [a[len("--pass="):] for a in argv if a.startswith("--pass=")]
    argv = [a for a in argv if not a.startswith("--pass=")]
    hlo_opt, paths = argv[1], argv[2:]
    files = []
    for path in paths:
        if os.path.isdir(path):
            files += sorted(os.path.join(path, f) for f in os.listdir(path)
                            if f.endswith(".hlo"))
        else:
            files.append(path)
    failed = 0
    for path in files:
        try:
            errors, kind, counts, seconds = check(hlo_opt, path, svg_limit, passes)
        except (subprocess.CalledProcessError, ValueError,
                ET.ParseError) as e:
            errors, kind, counts, seconds = [str(e)], "-", (0, 0), 0
        name = os.path.basename(path)
        if errors:
            failed += 1
            print("FAIL %s: %s" % (name, "; ".join(errors)))
        else:
            print("ok %s (%s: %d instructions, %d operands, %.2f s)" %
                  (name, kind, counts[0], counts[1], seconds))
    print("%d modules, %d failed" % (len(files), failed))
    return 1 if failed or not files else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
