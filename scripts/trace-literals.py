#!/usr/bin/env python3
"""Rewrites trace kinds and keys spelled as string literals into the schema's constants (issue 26, point 3).

The trace schema lives in sim-core: org.datsim.core.trace.TraceKind (every kind) and TraceKey (every attribute
key). This script reads both files for the declared names, then rewrites, in the Java main sources of
fabric-models, scenarios and viz (or the files or directories given as arguments), every literal that stands for a
kind or a key in a trace-emitting or trace-reading call:

  kinds (-> TraceKind.X)
    TraceEvent.of(t, "kind", host)                  the second argument
    case "kind":  case "a", "b" ->                  inside a switch on an expression naming a kind
                                                    (switch (e.kind()), switch (kind)); nested switches are left
    "kind".equals(x.kind())  x.kind().equals("kind")  "kind".equals(kind)  kind.equals("kind")
                                                    (these two only in files that use TraceEvent)
    static final String KIND = "kind";              a model's own alias of a kind becomes TraceKind.KIND
  keys (-> TraceKey.X)
    .attr("key", ...)  .attrValue("key")  .attrLong("key", ...)  .hasAttr("key")  .attrs().get("key")
    a.get("key")                                    where a is a Map<String, Object> (an event's attrs()) in a file
                                                    that uses TraceEvent
    text(e, "key")  number(e, "key", d)  ids(e, "key")   viz's readers (also TraceIndex.text(...)); the first
                                                    argument must be e, ev or event (a trace event)

and adds the import of TraceKind / TraceKey where a file now uses it. A line it makes longer than 120 characters it
breaks before a chained call (.attr(...)) or an operator, continuation indented 8. It is idempotent: a second run changes
nothing. A literal in one of these places that the schema does not declare is left as it is and reported (declare it
in TraceKind or TraceKey and TraceSchema, then run again). Exit code 0 always, unless --check is given: then the
files are not written, and the exit code is 1 if any would change or any undeclared name was found.

Usage: scripts/trace-literals.py [--check] [PATH...]     (run from the repository's root)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRACE_DIR = os.path.join(ROOT, "sim-core/src/main/java/org/datsim/core/trace")
DEFAULT_DIRS = ["fabric-models/src/main/java", "scenarios/src/main/java", "viz/src/main/java"]
CONST = re.compile(r'public static final String ([A-Z0-9_]+) = "([^"]*)";')


def declared(name):
    with open(os.path.join(TRACE_DIR, name), encoding="utf-8") as f:
        return {value: const for const, value in CONST.findall(f.read())}


KINDS = declared("TraceKind.java")
KEYS = declared("TraceKey.java")
STANDARD = {"t_ps", "kind", "host", "ep", "op", "cookie", "call", "ret", "status"}
ATTR_KEYS = {k: c for k, c in KEYS.items() if k not in STANDARD}


def skip_string(s, i):
    """Returns the index after the string or char literal starting at s[i]."""
    q = s[i]
    if s.startswith('"""', i):
        j = s.find('"""', i + 3)
        return len(s) if j < 0 else j + 3
    i += 1
    while i < len(s) and s[i] != q:
        i += 2 if s[i] == "\\" else 1
    return i + 1


def skip_comment(s, i):
    """Returns the index after a comment starting at s[i], or i if none starts there."""
    if s.startswith("//", i):
        j = s.find("\n", i)
        return len(s) if j < 0 else j
    if s.startswith("/*", i):
        j = s.find("*/", i + 2)
        return len(s) if j < 0 else j + 2
    return i


def args_of(s, open_paren):
    """The (start, end) spans of the top-level arguments of the call whose '(' is at open_paren."""
    spans, depth, start, i = [], 0, open_paren + 1, open_paren + 1
    while i < len(s):
        c = s[i]
        j = skip_comment(s, i)
        if j != i:
            i = j
            continue
        if c in "\"'":
            i = skip_string(s, i)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                spans.append((start, i))
                return spans
            depth -= 1
        elif c == "," and depth == 0:
            spans.append((start, i))
            start = i + 1
        i += 1
    return spans


def code_positions(s):
    """A mask: True where s[i] is code (not inside a string, char literal or comment)."""
    mask = [True] * len(s)
    i = 0
    while i < len(s):
        j = skip_comment(s, i)
        if j != i:
            for k in range(i, j):
                mask[k] = False
            i = j
            continue
        if s[i] in "\"'":
            j = skip_string(s, i)
            for k in range(i, j):
                mask[k] = False
            i = j
            continue
        i += 1
    return mask


LITERAL = re.compile(r'\s*"([A-Za-z0-9_]*)"\s*$')


class Rewriter:
    def __init__(self, path, text):
        self.path = path
        self.text = text
        self.edits = {}  # (start, end) of a literal -> replacement
        self.undeclared = []
        self.mask = code_positions(text)

    def line(self, pos):
        return self.text.count("\n", 0, pos) + 1

    def literal_in(self, span, table, cls, what):
        a, b = span
        m = LITERAL.match(self.text[a:b])
        if not m:
            return
        name = m.group(1)
        start = a + m.start(1) - 1
        end = a + m.end(1) + 1
        if name in table:
            self.edits[(start, end)] = cls + "." + table[name]
        else:
            self.undeclared.append("%s:%d: %s \"%s\" is not declared in %s" % (
                self.path, self.line(start), what, name, cls))

    def calls(self, pattern, arg, table, cls, what, first_arg=None):
        for m in re.finditer(pattern, self.text):
            paren = m.end() - 1
            if not self.mask[m.start()]:
                continue
            spans = args_of(self.text, paren)
            if len(spans) <= arg:
                continue
            if first_arg is not None and not re.fullmatch(first_arg, self.text[spans[0][0]:spans[0][1]].strip()):
                continue
            self.literal_in(spans[arg], table, cls, what)

    def kind_switches(self):
        for m in re.finditer(r"\bswitch\s*\(", self.text):
            if not self.mask[m.start()]:
                continue
            subject_span = args_of(self.text, m.end() - 1)
            if not subject_span:
                continue
            subject = self.text[subject_span[0][0]:subject_span[0][1]]
            if not re.search(r"(?i)kind\b", subject):
                continue
            brace = self.text.find("{", subject_span[0][1])
            self.cases_in(brace)

    def cases_in(self, brace):
        depth, i = 0, brace
        while i < len(self.text):
            if not self.mask[i]:
                i += 1
                continue
            c = self.text[i]
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    return
            else:
                m = re.compile(r"\bswitch\s*\(").match(self.text, i)
                if m and i > brace:
                    # a nested switch: skip its body (its cases are not kinds unless it is on a kind itself,
                    # which kind_switches handles on its own)
                    spans = args_of(self.text, m.end() - 1)
                    inner = self.text.find("{", spans[0][1]) if spans else -1
                    if inner < 0:
                        return
                    i = self.skip_block(inner)
                    continue
                m = re.compile(r'\bcase\s+("[A-Za-z0-9_]*"(?:\s*,\s*"[A-Za-z0-9_]*")*)\s*(?::|->)').match(self.text, i)
                if m:
                    for lit in re.finditer(r'"[A-Za-z0-9_]*"', m.group(1)):
                        a = m.start(1) + lit.start()
                        self.literal_in((a, a + len(lit.group(0))), KINDS, "TraceKind", "kind")
                    i = m.end()
                    continue
            i += 1

    def skip_block(self, brace):
        depth, i = 0, brace
        while i < len(self.text):
            if self.mask[i]:
                if self.text[i] == "{":
                    depth += 1
                elif self.text[i] == "}":
                    depth -= 1
                    if depth == 0:
                        return i + 1
            i += 1
        return i

    def kind_equals(self):
        kind_expr = r"(?<![\w.])(?:\w+\.)*kind(?:\(\))?"  # kind, kind(), e.kind(), e.kind
        for m in re.finditer(r'"([A-Za-z0-9_]*)"\.equals\(\s*(' + kind_expr + r')\s*\)', self.text):
            if self.mask[m.end(1) + 1]:  # the '.' after the literal is code
                self.literal_in((m.start(1) - 1, m.end(1) + 1), KINDS, "TraceKind", "kind")
        for m in re.finditer(r"(" + kind_expr + r')\.equals\(\s*"([A-Za-z0-9_]*)"\s*\)', self.text):
            if self.mask[m.start()]:
                self.literal_in((m.start(2) - 1, m.end(2) + 1), KINDS, "TraceKind", "kind")

    def aliases(self):
        for m in re.finditer(r'\bstatic\s+final\s+String\s+([A-Z0-9_]+)\s*=\s*"([a-z0-9_]+)"\s*;', self.text):
            if self.mask[m.start()] and m.group(2) in KINDS and KINDS[m.group(2)] == m.group(1):
                self.edits[(m.start(2) - 1, m.end(2) + 1)] = "TraceKind." + m.group(1)

    def run(self):
        self.calls(r"\bTraceEvent\.of\(", 1, KINDS, "TraceKind", "kind")
        if "TraceEvent" in self.text:  # a switch or comparison on a "kind" elsewhere is another kind
            self.kind_switches()
            self.kind_equals()
        self.aliases()
        for name in ("attr", "attrValue", "attrLong", "hasAttr"):
            self.calls(r"\." + name + r"\(", 0, ATTR_KEYS, "TraceKey", "key")
        self.calls(r"\.attrs\(\)\.get\(", 0, ATTR_KEYS, "TraceKey", "key")
        if "TraceEvent" in self.text:  # a map an event's attrs() was assigned to (Map<String, Object> a = e.attrs())
            for var in sorted(set(re.findall(r"Map<String, Object>\s+(\w+)\s*[=,)]", self.text))):
                self.calls(r"(?<![\w.])" + var + r"\.get\(", 0, ATTR_KEYS, "TraceKey", "key")
        for name in ("text", "number", "ids"):
            self.calls(r"(?<![\w.])(?:TraceIndex\.)?" + name + r"\(", 1, ATTR_KEYS, "TraceKey", "key",
                       first_arg=r"e|ev|event")
        out = self.text
        for (a, b), rep in sorted(self.edits.items(), reverse=True):
            out = out[:a] + rep + out[b:]
        if out != self.text:
            before = set(self.text.split("\n"))
            out = "\n".join(wrap(line) if line not in before else line for line in out.split("\n"))
        for cls in ("TraceKind", "TraceKey"):
            if re.search(r"(?<![\w.])" + cls + r"\.", out):
                out = add_import(out, "org.datsim.core.trace." + cls)
        return out


MAX_LINE = 120
BREAK = re.compile(r"\.(?:attr|attrValue|attrLong|hasAttr|ep|op|cookie|status|call|ret)\(| (?:\|\||&&|\+|\?|:) ")


def wrap(line):
    """Breaks a line this script made longer than MAX_LINE before a chained call or an operator, as the project
    wraps (continuation indented 8 more than the statement, or as the line itself if it is a continuation)."""
    out = []
    while len(line) > MAX_LINE:
        indent = len(line) - len(line.lstrip())
        stripped = line.lstrip()
        cont = indent if stripped[:1] in ".+|&?:" or stripped.startswith(("|| ", "&& ")) else indent + 8
        mask = code_positions(line)
        best = -1
        for m in BREAK.finditer(line):
            pos = m.start() + (1 if line[m.start()] == " " else 0)
            if indent + 16 < pos and mask[pos] and len(line[:pos].rstrip()) <= MAX_LINE:
                best = pos
        if best < 0:
            break
        out.append(line[:best].rstrip())
        line = " " * cont + line[best:].lstrip()
    out.append(line)
    return "\n".join(out)


def add_import(text, fqcn):
    pkg = re.search(r"^package\s+([\w.]+)\s*;", text, re.M)
    if pkg and pkg.group(1) == fqcn.rsplit(".", 1)[0]:
        return text
    if re.search(r"^import\s+" + re.escape(fqcn) + r"\s*;", text, re.M):
        return text
    line = "import " + fqcn + ";\n"
    imports = [m for m in re.finditer(r"^import\s+(static\s+)?([\w.*]+)\s*;\n", text, re.M)]
    plain = [m for m in imports if not m.group(1)]
    for m in plain:
        if m.group(2) > fqcn:
            return text[:m.start()] + line + text[m.start():]
    if plain:
        last = plain[-1]
        return text[:last.end()] + line + text[last.end():]
    if imports:
        return text[:imports[-1].end()] + "\n" + line + text[imports[-1].end():]
    return text[:pkg.end()] + "\n\n" + line.rstrip("\n") + text[pkg.end():]


def java_files(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
            continue
        for d, _, files in os.walk(p):
            for f in sorted(files):
                if f.endswith(".java"):
                    yield os.path.join(d, f)


def main(argv):
    check = "--check" in argv
    paths = [a for a in argv if a != "--check"] or [os.path.join(ROOT, d) for d in DEFAULT_DIRS]
    changed, undeclared = [], []
    for f in java_files(paths):
        if os.path.realpath(f).startswith(os.path.realpath(TRACE_DIR)):
            continue
        with open(f, encoding="utf-8") as fh:
            text = fh.read()
        r = Rewriter(os.path.relpath(f, ROOT), text)
        out = r.run()
        undeclared += r.undeclared
        if out != text:
            changed.append(os.path.relpath(f, ROOT))
            if not check:
                with open(f, "w", encoding="utf-8") as fh:
                    fh.write(out)
    for u in undeclared:
        print("undeclared: " + u, file=sys.stderr)
    for c in changed:
        print(("would rewrite " if check else "rewrote ") + c)
    print("%d file(s) %s, %d undeclared literal(s)" % (len(changed), "to rewrite" if check else "rewritten",
                                                      len(undeclared)))
    return 1 if check and (changed or undeclared) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
